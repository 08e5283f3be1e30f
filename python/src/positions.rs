//! `kifu.positions`: training positions (`kifu::export`, the writers of
//! `kifu export`) gathered in one buffer that numpy views with cshogi's
//! dtypes, without a copy.

use crate::inputs;
use kifu::batch::{self, Event, Visitors};
use kifu::export::{parse_ending, ExportOptions, Exporter, Layout};
use kifu::read::ReadOptions;
use pyo3::exceptions::{PyBufferError, PyValueError};
use pyo3::ffi;
use pyo3::prelude::*;
use std::ffi::c_int;
use std::ops::ControlFlow;
use std::ptr::NonNull;

/// Bytes the library wrote, lent to Python through the buffer protocol
/// (writable: numpy may shuffle the records in place). Rust never reads or
/// writes them after they are made, so Python alone touches them until
/// the buffer is dropped.
#[pyclass(frozen, module = "kifu")]
pub struct Buffer {
    ptr: NonNull<u8>,
    len: usize,
}

// SAFETY: the bytes are owned by the `Buffer` alone (a leaked boxed
// slice, freed in `Drop`); Rust code never reads them after `new`, and
// Python reaches them only through the buffer protocol under the GIL.
unsafe impl Send for Buffer {}
// SAFETY: as above; no `&self` method reads or writes the bytes.
unsafe impl Sync for Buffer {}

impl Buffer {
    fn new(bytes: Vec<u8>) -> Buffer {
        let boxed = bytes.into_boxed_slice();
        let len = boxed.len();
        // A boxed slice's pointer is never null (dangling but aligned when
        // empty, which `Box::from_raw` takes back).
        let ptr = NonNull::new(Box::into_raw(boxed).cast::<u8>()).expect("Box pointer");
        Buffer { ptr, len }
    }
}

impl Drop for Buffer {
    fn drop(&mut self) {
        let slice = std::ptr::slice_from_raw_parts_mut(self.ptr.as_ptr(), self.len);
        // SAFETY: made by `Box::into_raw` of a boxed slice of `len` bytes in
        // `new`, and dropped once; Python holds no view any more (each view
        // keeps the `Buffer` alive).
        drop(unsafe { Box::from_raw(slice) });
    }
}

#[pymethods]
impl Buffer {
    /// The buffer protocol: the bytes, one-dimensional, unsigned bytes.
    unsafe fn __getbuffer__(
        slf: Bound<'_, Self>,
        view: *mut ffi::Py_buffer,
        flags: c_int,
    ) -> PyResult<()> {
        if view.is_null() {
            return Err(PyBufferError::new_err("no view to fill"));
        }
        let (ptr, len) = (slf.get().ptr, slf.get().len);
        // SAFETY: `view` is the non-null view CPython asks us to fill;
        // `ptr` is valid for `len` bytes while the object lives, and the
        // view holds a reference to it (`obj`).
        let r = unsafe {
            ffi::PyBuffer_FillInfo(
                view,
                slf.as_ptr(),
                ptr.as_ptr().cast(),
                len as ffi::Py_ssize_t,
                0,
                flags,
            )
        };
        if r == -1 {
            return Err(PyErr::fetch(slf.py()));
        }
        Ok(())
    }

    fn __len__(&self) -> usize {
        self.len
    }
}

fn layout(fmt: &str) -> PyResult<Layout> {
    let l: Layout = fmt.parse().map_err(PyValueError::new_err)?;
    match l.record_size() {
        Some(_) => Ok(l),
        None => Err(PyValueError::new_err(format!(
            "fmt must be hcpe or psv (fixed-size records), not {fmt}"
        ))),
    }
}

/// The fields of a record of `fmt` as numpy describes them: (name, type
/// string, count), cshogi's names and types.
#[pyfunction]
pub fn position_fields(fmt: &str) -> PyResult<Vec<(&'static str, &'static str, usize)>> {
    Ok(layout(fmt)?
        .fields()
        .iter()
        .map(|f| (f.name, f.dtype, f.count))
        .collect())
}

/// The filters of `kifu export` a caller may set (`None`: the preset's,
/// or none).
struct Filters<'a> {
    preset: Option<&'a str>,
    endings: Option<Vec<String>>,
    min_plies: Option<u32>,
    min_rating: Option<f64>,
    require_eval: bool,
}

impl Filters<'_> {
    /// The export options for `layout`, built as `kifu export` builds them
    /// from its flags: the preset first, explicit filters over it.
    fn options(self, layout: Layout) -> PyResult<ExportOptions> {
        let mut o = match self.preset {
            None => ExportOptions::new(layout),
            Some("dlshogi") => ExportOptions::dlshogi(layout),
            Some(p) => {
                return Err(PyValueError::new_err(format!(
                    "preset must be \"dlshogi\" or None, not {p:?}"
                )))
            }
        };
        if let Some(words) = self.endings {
            if words.is_empty() {
                return Err(PyValueError::new_err(
                    "endings must name at least one ending (None: every decided game)",
                ));
            }
            let mut ids = Vec::new();
            for w in &words {
                ids.extend(parse_ending(w).map_err(|e| PyValueError::new_err(e.to_string()))?);
            }
            o.endings = ids;
        }
        if self.min_plies.is_some() {
            o.min_plies = self.min_plies;
        }
        if self.min_rating.is_some() {
            o.min_rating = self.min_rating;
        }
        o.require_eval |= self.require_eval;
        // No index, split or dedupe here: the game key is not needed.
        o.game_key = false;
        Ok(o)
    }
}

/// The records of every game under `paths` in `fmt` (`hcpe`, `psv`),
/// written by the library's exporter as `kifu export --to FMT` writes them
/// (with the same filters), in input order at any `jobs`: one buffer (see
/// `kifu.positions`).
#[pyfunction]
#[pyo3(signature = (
    paths, *, fmt = "hcpe", jobs = None, ext = None, format = None,
    preset = None, endings = None, min_plies = None, min_rating = None, require_eval = false,
))]
#[allow(clippy::too_many_arguments)]
pub fn positions_buffer(
    py: Python<'_>,
    paths: &Bound<'_, PyAny>,
    fmt: &str,
    jobs: Option<usize>,
    ext: Option<Vec<String>>,
    format: Option<&str>,
    preset: Option<&str>,
    endings: Option<Vec<String>>,
    min_plies: Option<u32>,
    min_rating: Option<f64>,
    require_eval: bool,
) -> PyResult<Buffer> {
    let layout = layout(fmt)?;
    let opts = Filters {
        preset,
        endings,
        min_plies,
        min_rating,
        require_eval,
    }
    .options(layout)?;
    let paths = inputs::paths(paths)?;
    let format = inputs::format(format)?;
    let workers = inputs::workers(py, jobs)?;
    let (bytes, unread) = crate::interrupt::run(py, move |stop| -> PyResult<_> {
        let inputs = inputs::expand(&paths, ext, format)?;
        let mut bytes = Vec::new();
        let mut unread = Vec::new();
        let per_game = Visitors(|| Exporter::replay(opts.clone()));
        let ropts = ReadOptions::default();
        batch::run_until(&inputs, &workers, &ropts, per_game, &stop, |ev| {
            match ev {
                // A game left out has no bytes.
                Event::Game(_, _, game) => game.output.append_to(&mut bytes),
                Event::FileDone(meta) => {
                    if let Some(e) = &meta.error {
                        unread.push(format!("{}: {e}", meta.display));
                    }
                }
            }
            ControlFlow::Continue(())
        });
        Ok((bytes, unread))
    })??;
    if !unread.is_empty() {
        return Err(pyo3::exceptions::PyOSError::new_err(format!(
            "kifu.positions: {} input(s) could not be read: {}",
            unread.len(),
            unread.join("; ")
        )));
    }
    Ok(Buffer::new(bytes))
}
