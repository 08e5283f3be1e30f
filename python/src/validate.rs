//! `kifu.validate`: every game of many files checked against the rules on
//! the library's batch runner (worker threads, results in input order), as
//! `kifu validate` does.

use crate::read::{Finding, GameResult};
use crate::{inputs, interrupt};
use kifu::batch::{self, Event, FileMeta, Visitors};
use kifu::read::{self as kr, ReadOptions, Rule};
use kifu::record::Location;
use kifu::validate::{ValidateOptions, Validator};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyTuple};
use std::ffi::OsString;
use std::ops::ControlFlow;

/// The verdict on one game, or on an input that was not read: the fields
/// of a line of `kifu validate --format json`.
#[pyclass(frozen, get_all, from_py_object, module = "kifu")]
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Report {
    /// The input's name: the path as given, joined with the path inside a
    /// folder (as `os.fsdecode` gives a name that is not UTF-8).
    pub path: OsString,
    /// 0-based index of the game in its file (0 for an input not read).
    pub game: usize,
    /// The format read.
    pub format: Option<String>,
    /// The encoding detected.
    pub encoding: Option<String>,
    /// No error finding.
    pub ok: bool,
    /// Main-line moves replayed (up to the first illegal one).
    pub plies: u32,
    /// The position after the last replayed move, as SFEN (`None` for an
    /// input not read).
    pub final_sfen: Option<String>,
    /// The result (`None` for an input not read).
    pub result: Option<GameResult>,
    /// Every finding, in source order; an input not read has one `io`
    /// finding (an error when it could not be read, a warning when a
    /// folder entry was skipped).
    pub findings: Vec<Finding>,
    /// The game key (32 hex digits; `None` for an input not read).
    pub game_key: Option<String>,
}

#[pymethods]
impl Report {
    #[new]
    #[pyo3(signature = (path, game, format, encoding, ok, plies, final_sfen, result, findings, game_key))]
    #[allow(clippy::too_many_arguments)]
    fn py_new(
        path: OsString,
        game: usize,
        format: Option<String>,
        encoding: Option<String>,
        ok: bool,
        plies: u32,
        final_sfen: Option<String>,
        result: Option<GameResult>,
        findings: Vec<Finding>,
        game_key: Option<String>,
    ) -> Report {
        Report {
            path,
            game,
            format,
            encoding,
            ok,
            plies,
            final_sfen,
            result,
            findings,
            game_key,
        }
    }

    /// Pickles by its fields (for multiprocessing, Dask).
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyTuple>> {
        let r = slf.get().clone();
        let args = (
            r.path,
            r.game,
            r.format,
            r.encoding,
            r.ok,
            r.plies,
            r.final_sfen,
            r.result,
            r.findings,
            r.game_key,
        );
        (slf.get_type(), args).into_pyobject(slf.py())
    }

    /// The report as a dict: a line of `kifu validate --format json`
    /// (`json.dumps(report.to_dict(), ensure_ascii=False)`).
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        d.set_item("path", &self.path)?;
        d.set_item("game", self.game)?;
        d.set_item("format", &self.format)?;
        d.set_item("encoding", &self.encoding)?;
        d.set_item("ok", self.ok)?;
        d.set_item("plies", self.plies)?;
        d.set_item("final_sfen", &self.final_sfen)?;
        match &self.result {
            Some(r) => d.set_item("result", r.to_dict(py)?)?,
            None => d.set_item("result", py.None())?,
        }
        let findings = self
            .findings
            .iter()
            .map(|f| f.to_dict(py))
            .collect::<PyResult<Vec<_>>>()?;
        d.set_item("findings", findings)?;
        d.set_item("game_key", &self.game_key)?;
        Ok(d)
    }

    fn __eq__(&self, other: &Report) -> bool {
        self == other
    }

    fn __repr__(&self) -> String {
        format!(
            "Report(path={:?}, game={}, ok={}, plies={}, findings={})",
            self.path,
            self.game,
            if self.ok { "True" } else { "False" },
            self.plies,
            self.findings.len()
        )
    }
}

fn names(meta: &FileMeta) -> (Option<String>, Option<String>) {
    (
        meta.format.map(|f| f.name().to_string()),
        meta.encoding.map(|e| e.name().to_string()),
    )
}

/// Validates every game of the record files under `paths` (files, folders
/// walked for record extensions) on `jobs` worker threads (every core by
/// default): one report per game, in input order, the same at any `jobs`,
/// as `kifu validate --format json` prints them; an input that cannot be
/// read, or a folder entry skipped, gives one report with an `io` finding.
/// A path given directly that does not exist raises `FileNotFoundError`.
#[pyfunction]
#[pyo3(signature = (paths, *, jobs = None, ext = None, format = None, lenient_claims = false))]
pub fn validate(
    py: Python<'_>,
    paths: &Bound<'_, PyAny>,
    jobs: Option<usize>,
    ext: Option<Vec<String>>,
    format: Option<&str>,
    lenient_claims: bool,
) -> PyResult<Vec<Report>> {
    let paths = inputs::paths(paths)?;
    let format = inputs::format(format)?;
    let workers = inputs::workers(py, jobs)?;
    let opts = ValidateOptions {
        lenient_claims,
        impasse_rule: None,
    };
    let reports = interrupt::run(py, move |stop| -> PyResult<_> {
        let inputs = inputs::expand(&paths, ext, format)?;
        let mut reports = Vec::new();
        let per_game = Visitors(|| {
            Validator::new(opts)
                .with_final_sfen(true)
                .with_game_key(true)
        });
        let opts = ReadOptions::default();
        batch::run_until(&inputs, &workers, &opts, per_game, &stop, |ev| {
            match ev {
                Event::Game(meta, index, r) => {
                    let (format, encoding) = names(&meta);
                    reports.push(Report {
                        path: inputs::name(&inputs[meta.input]),
                        game: index,
                        format,
                        encoding,
                        ok: r.ok,
                        plies: r.plies,
                        final_sfen: Some(r.final_sfen),
                        result: Some(GameResult::from(&r.result)),
                        findings: r.findings.iter().map(Finding::from).collect(),
                        game_key: Some(r.game_key.to_string()),
                    });
                }
                Event::FileDone(meta) => {
                    let at = Location::default();
                    let f = match (&meta.error, &meta.skipped) {
                        (Some(e), _) => kr::Finding::error(Rule::Io, at, e.clone()),
                        (None, Some(w)) => kr::Finding::warning(Rule::Io, at, w.clone()),
                        (None, None) => return ControlFlow::Continue(()),
                    };
                    let (format, encoding) = names(&meta);
                    reports.push(Report {
                        path: inputs::name(&inputs[meta.input]),
                        game: 0,
                        format,
                        encoding,
                        ok: meta.error.is_none(),
                        plies: 0,
                        final_sfen: None,
                        result: None,
                        findings: vec![Finding::from(&f)],
                        game_key: None,
                    });
                }
            }
            ControlFlow::Continue(())
        });
        Ok(reports)
    })??;
    Ok(reports)
}
