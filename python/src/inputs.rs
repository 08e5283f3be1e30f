//! The inputs of a batch call: paths as Python gives them, expanded by the
//! library's file discovery (`kifu::batch::discover`, as `kifu` on the
//! command line), and the worker threads.

use kifu::batch::{self, Input, Issue, Workers};
use kifu::read::Format;
use pyo3::exceptions::{PyFileNotFoundError, PyOSError, PyTypeError, PyUserWarning, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyString};
use std::ffi::{CString, OsStr, OsString};
use std::os::unix::ffi::OsStrExt;
use std::path::PathBuf;

/// One path (`str` or `os.PathLike`, `bytes` too) or an iterable of them,
/// as the file system names them (not necessarily UTF-8: a `str` that
/// `os.fsdecode` made from such a name is the same file).
pub fn paths(obj: &Bound<'_, PyAny>) -> PyResult<Vec<PathBuf>> {
    fn one(obj: &Bound<'_, PyAny>) -> PyResult<PathBuf> {
        if let Ok(b) = obj.cast::<PyBytes>() {
            return Ok(PathBuf::from(OsStr::from_bytes(b.as_bytes())));
        }
        obj.extract().map_err(|_| {
            PyTypeError::new_err(format!(
                "a path must be str or os.PathLike, not {}",
                obj.get_type()
                    .name()
                    .map_or_else(|_| "?".into(), |n| n.to_string())
            ))
        })
    }
    if obj.is_instance_of::<PyString>()
        || obj.is_instance_of::<PyBytes>()
        || obj.hasattr("__fspath__")?
    {
        return Ok(vec![one(obj)?]);
    }
    obj.try_iter()
        .map_err(|_| PyTypeError::new_err("paths must be a path or an iterable of paths"))?
        .map(|item| one(&item?))
        .collect()
}

/// The format named by a `format=` argument.
pub fn format(name: Option<&str>) -> PyResult<Option<Format>> {
    name.map(|n| n.parse::<Format>().map_err(PyValueError::new_err))
        .transpose()
}

/// Expands `paths` (files as given, folders walked in name order keeping
/// `ext`); a path given directly that does not exist raises
/// `FileNotFoundError` (as `kifu` exits 2 on it). Other unreadable entries
/// stay in the list with their issue, in their places.
pub fn expand(
    paths: &[PathBuf],
    ext: Option<Vec<String>>,
    format: Option<Format>,
) -> PyResult<Vec<Input>> {
    let ext = ext.unwrap_or_else(|| {
        batch::DEFAULT_EXTENSIONS
            .iter()
            .map(|s| s.to_string())
            .collect()
    });
    let inputs = batch::discover(paths, &ext, format, &[]).inputs;
    for i in &inputs {
        if let Some(Issue::Error(msg)) = &i.issue {
            let given = paths.get(i.arg);
            if given.is_some() && i.path.as_ref() == given && !given.is_some_and(|p| p.exists()) {
                return Err(PyFileNotFoundError::new_err(format!(
                    "{}: {msg}",
                    i.display
                )));
            }
        }
    }
    Ok(inputs)
}

/// The worker threads for `jobs` (every core when `None`); a warning when
/// fewer could be started.
pub fn workers(py: Python<'_>, jobs: Option<usize>) -> PyResult<Workers> {
    if jobs == Some(0) {
        return Err(PyValueError::new_err("jobs must be at least 1"));
    }
    let wanted =
        jobs.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    let (w, note) = Workers::new(wanted);
    if let Some(note) = note {
        warn(py, &note)?;
    }
    Ok(w)
}

/// A `UserWarning`.
pub fn warn(py: Python<'_>, msg: &str) -> PyResult<()> {
    let msg = CString::new(msg.replace('\0', " ")).unwrap_or_default();
    PyErr::warn(py, &py.get_type::<PyUserWarning>(), &msg, 1)
}

/// The name of an input as Python gets it: the file's own name, decoded
/// as `os.fsdecode` does (a name that is not UTF-8 keeps its bytes as
/// surrogates, so that `open()` and every kifu function find the file);
/// `-` for standard input.
pub fn name(input: &Input) -> OsString {
    input.path.as_ref().map_or_else(
        || OsString::from(&input.display),
        |p| p.clone().into_os_string(),
    )
}

/// The record files under `paths` as `kifu` finds them: files given
/// directly, and the files with a record extension in folders, walked in
/// name order. The names are those the other functions report (`path`),
/// as `os.fsdecode` gives them.
/// An entry that cannot be listed raises `OSError`; one that is skipped
/// (a FIFO in a folder) gives a warning.
#[pyfunction]
#[pyo3(signature = (paths, *, ext = None))]
pub fn discover(
    py: Python<'_>,
    paths: &Bound<'_, PyAny>,
    ext: Option<Vec<String>>,
) -> PyResult<Vec<OsString>> {
    let paths = self::paths(paths)?;
    let inputs = crate::interrupt::run(py, move |_| expand(&paths, ext, None))??;
    let mut found = Vec::with_capacity(inputs.len());
    for i in inputs {
        match &i.issue {
            None => found.push(name(&i)),
            Some(Issue::Error(msg)) => {
                return Err(PyOSError::new_err(format!("{}: {msg}", i.display)))
            }
            Some(Issue::Skipped(msg)) => warn(py, &format!("{}: {msg}", i.display))?,
        }
    }
    Ok(found)
}
