//! `kifu.validate`: every game of many files checked against the rules on
//! the library's batch runner (worker threads, results in input order), as
//! `kifu validate` does.

use crate::inputs;
use crate::read::{Finding, GameResult};
use kifu::batch::{self, Event, FileMeta, Visitors};
use kifu::read::ReadOptions;
use kifu::validate::{ValidateOptions, Validator};
use pyo3::prelude::*;
use std::ops::ControlFlow;

/// The verdict on one game, or on an input that could not be read.
#[pyclass(frozen, get_all, module = "kifu")]
#[derive(Clone, Debug)]
pub struct Report {
    /// The input's name: the path as given, joined with the path inside a
    /// folder.
    pub path: String,
    /// 0-based index of the game in its file; `None` for an input that
    /// could not be read.
    pub game: Option<usize>,
    /// No error finding (and the input was read).
    pub ok: bool,
    /// Main-line moves replayed (up to the first illegal one).
    pub plies: u32,
    /// The position after the last replayed move, as SFEN.
    pub final_sfen: String,
    /// The result (`None` for an input that could not be read).
    pub result: Option<GameResult>,
    /// Every finding, in source order.
    pub findings: Vec<Finding>,
    /// The game key (32 hex digits).
    pub game_key: String,
    /// The format read.
    pub format: Option<String>,
    /// The encoding detected.
    pub encoding: Option<String>,
    /// Why the input could not be read (an I/O error), if it could not.
    pub error: Option<String>,
}

#[pymethods]
impl Report {
    fn __repr__(&self) -> String {
        match &self.error {
            Some(e) => format!("Report(path={:?}, error={e:?})", self.path),
            None => format!(
                "Report(path={:?}, game={}, ok={}, plies={}, findings={})",
                self.path,
                self.game.unwrap_or(0),
                if self.ok { "True" } else { "False" },
                self.plies,
                self.findings.len()
            ),
        }
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
/// default): one report per game, in input order, the same at any `jobs`;
/// an input that cannot be read gives one report with `error` set.
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
    let (reports, skipped) = py.detach(|| -> PyResult<_> {
        let inputs = inputs::expand(&paths, ext, format)?;
        let mut reports = Vec::new();
        let mut skipped = Vec::new();
        let per_game = Visitors(|_: &FileMeta| {
            Validator::new(opts)
                .with_final_sfen(true)
                .with_game_key(true)
        });
        batch::run(&inputs, &workers, &ReadOptions::default(), per_game, |ev| {
            match ev {
                Event::Game(meta, index, r) => {
                    let (format, encoding) = names(&meta);
                    reports.push(Report {
                        path: meta.display.clone(),
                        game: Some(index),
                        ok: r.ok,
                        plies: r.plies,
                        final_sfen: r.final_sfen,
                        result: Some(GameResult::from(&r.result)),
                        findings: r.findings.iter().map(Finding::from).collect(),
                        game_key: r.game_key.to_string(),
                        format,
                        encoding,
                        error: None,
                    });
                }
                Event::FileDone(meta) => {
                    if let Some(e) = &meta.error {
                        let (format, encoding) = names(&meta);
                        reports.push(Report {
                            path: meta.display.clone(),
                            game: None,
                            ok: false,
                            plies: 0,
                            final_sfen: String::new(),
                            result: None,
                            findings: Vec::new(),
                            game_key: String::new(),
                            format,
                            encoding,
                            error: Some(e.clone()),
                        });
                    } else if meta.skipped.is_some() {
                        skipped.push((*meta).clone());
                    }
                }
            }
            ControlFlow::Continue(())
        });
        Ok((reports, skipped))
    })?;
    inputs::warn_skipped(py, &skipped)?;
    Ok(reports)
}
