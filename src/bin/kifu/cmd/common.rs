//! Pieces the subcommands share: input discovery, options, workers,
//! source lines, how findings and unread inputs are printed.

use crate::args::InputArgs;
use crate::batch::{self, FileMeta, Input, Issue, Workers};
use crate::out;
use kifu::read::Finding;
use kifu::read::{DecodeOptions, ReadOptions};
use kifu::validate::GameReport;
use std::path::PathBuf;

/// Expands paths into inputs (unreadable paths and skipped entries are
/// inputs with an `issue`, in their places), leaving out the folders in
/// `exclude`.
pub fn discover(a: &InputArgs, exclude: &[PathBuf]) -> Vec<Input> {
    batch::discover(&a.paths, &a.ext, a.from, exclude).inputs
}

/// With no readable input at all: the message and exit code (2), or
/// `None` when there is something to read or `--allow-empty` was given.
pub fn nothing_found(a: &InputArgs, cmd: &str, inputs: &[Input]) -> Option<u8> {
    if a.allow_empty || inputs.iter().any(|i| i.issue.is_none()) {
        return None;
    }
    if inputs
        .iter()
        .any(|i| matches!(i.issue, Some(Issue::Error(_))))
    {
        return None; // reported as unreadable, exit 2 anyway
    }
    out::err(&format!(
        "kifu {cmd}: no game found: no file with a record extension ({}) in {} (see --ext; --allow-empty accepts this)",
        a.ext.join(", "),
        a.paths.join(" ")
    ));
    Some(out::FAILURE)
}

pub fn read_options(a: &InputArgs, encoding: Option<kifu::read::Encoding>) -> ReadOptions {
    ReadOptions {
        decode: DecodeOptions {
            encoding,
            lossy: a.lossy,
        },
    }
}

/// Starts the worker threads (`-j`, default every core); a warning when
/// fewer could be started, given to `warn` (a command with a report puts
/// it there, so machine-readable output carries it: see
/// [`crate::report::Reporter::tool_warning`]).
pub fn workers(a: &InputArgs, warn: impl FnOnce(&str)) -> Workers {
    let wanted = a
        .jobs
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
        .max(1);
    let (w, note) = Workers::new(wanted);
    if let Some(note) = note {
        warn(&note);
    }
    w
}

/// The warning of [`workers`] for a command without a report.
pub fn warn_plain(note: &str) {
    out::err(&format!("kifu: warning: {note}"));
}

/// The human renderer of findings, which keeps the source lines of the
/// input at hand (see [`crate::report::human`]).
pub type SourceLines = crate::report::human::Human;

/// A finding as people read it (plain; see [`crate::report::human`]):
/// `path:line:col: error[rule]: message`, the source line with a caret
/// under the column, then the ply, move and SFEN.
pub fn human_lines(
    meta: &FileMeta,
    report: &GameReport,
    f: &Finding,
    sources: &mut SourceLines,
) -> Vec<String> {
    sources
        .finding(meta, report.index, f)
        .lines()
        .map(str::to_string)
        .collect()
}

/// The library's notation for a `--notation` value.
pub fn notation_of(n: crate::args::NotationArg) -> kifu::diagram::Notation {
    match n {
        crate::args::NotationArg::Kif => kifu::diagram::Notation::Kif,
        crate::args::NotationArg::Psn => kifu::diagram::Notation::Psn,
    }
}

/// The library's coordinates for a `--coords` value.
pub fn coords_of(c: crate::args::CoordsArg) -> kifu::diagram::Coords {
    match c {
        crate::args::CoordsArg::Japanese => kifu::diagram::Coords::Japanese,
        crate::args::CoordsArg::Western => kifu::diagram::Coords::Western,
    }
}

/// The line that reports an input not read (`path: error[io]: …`) or a
/// skipped entry (`warning[io]`), if any.
pub fn issue_line(meta: &FileMeta) -> Option<String> {
    if let Some(e) = &meta.error {
        Some(format!("{}: error[io]: {e}", meta.display))
    } else {
        meta.skipped
            .as_ref()
            .map(|w| format!("{}: warning[io]: {w}", meta.display))
    }
}
