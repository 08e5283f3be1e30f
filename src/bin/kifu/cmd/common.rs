//! Pieces the subcommands share: input discovery, options, workers,
//! source lines, how findings and unread inputs are printed.

use crate::args::InputArgs;
use crate::out;
use kifu::batch::{self, FileMeta, Input, Issue, SourceBytes, Workers};
use kifu::read::{DecodeOptions, ReadOptions};
use kifu::read::{Finding, Severity};
use kifu::validate::GameReport;
use std::path::PathBuf;
use std::sync::Arc;

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
/// fewer could be started.
pub fn workers(a: &InputArgs) -> Workers {
    let wanted = a
        .jobs
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
        .max(1);
    let (w, note) = Workers::new(wanted);
    if let Some(note) = note {
        out::err(&format!("kifu: warning: {note}"));
    }
    w
}

/// Escapes a GitHub annotation property value.
pub fn gh_prop(s: &str) -> String {
    gh_msg(s).replace(':', "%3A").replace(',', "%2C")
}

/// Escapes a GitHub annotation message: control characters made
/// [`out::visible`] (so no line break can end the command and start
/// another), then `%` as the runner requires.
pub fn gh_msg(s: &str) -> String {
    out::visible(s).replace('%', "%25")
}

/// Whether a character takes two terminal columns (CJK and full-width).
pub fn is_wide(c: char) -> bool {
    matches!(c as u32, 0x1100..=0x115F | 0x2E80..=0xA4CF | 0xAC00..=0xD7A3 | 0xF900..=0xFAFF | 0xFE30..=0xFE4F | 0xFF00..=0xFF60 | 0xFFE0..=0xFFE6 | 0x2600..=0x26FF | 0x25A0..=0x25FF)
}

/// Source lines for human output, taken from the bytes the input was read
/// from (never by reading it again): inputs read whole and the pieces of
/// large CSA and SFEN/USI files keep them; for other streamed inputs
/// (standard input over 8 MiB, large KIF files) no line is shown.
#[derive(Default)]
pub struct SourceLines {
    current: Option<(Arc<SourceBytes>, Vec<String>)>,
}

impl SourceLines {
    pub fn line(&mut self, meta: &FileMeta, n: u32) -> Option<String> {
        let src = meta.source.as_ref()?;
        if !self
            .current
            .as_ref()
            .is_some_and(|c| Arc::ptr_eq(&c.0, src))
        {
            self.current = Some((src.clone(), split(src, meta)));
        }
        let (src, lines) = self.current.as_ref()?;
        let i = n.checked_sub(src.first_line)?.checked_sub(1)?;
        let text = lines.get(i as usize)?;
        Some(text.chars().take(200).collect())
    }
}

fn split(src: &SourceBytes, meta: &FileMeta) -> Vec<String> {
    let opts = DecodeOptions {
        encoding: meta.encoding,
        lossy: true,
    };
    let mut out = Vec::new();
    let Ok(mut reader) = kifu::read::LineReader::new(&src.bytes[..], &opts) else {
        return out;
    };
    while let Some(Ok(line)) = reader.next_line() {
        match line {
            Ok((_, t)) => out.push(t.to_string()),
            Err(_) => out.push(reader.current_text().to_string()),
        }
    }
    out
}

/// The line reporting an input that was not read: `path: error[io]: …` or
/// `path: warning[io]: skipped: …`; `None` for an input that was read.
pub fn issue_line(meta: &FileMeta) -> Option<String> {
    if let Some(e) = &meta.error {
        Some(format!("{}: error[io]: {e}", meta.display))
    } else {
        meta.skipped
            .as_ref()
            .map(|w| format!("{}: warning[io]: {w}", meta.display))
    }
}

/// A finding as people read it: `path:line:col: error[rule]: message`, the
/// source line with a caret under the column, then the ply, move and SFEN.
pub fn human_lines(
    meta: &FileMeta,
    report: &GameReport,
    f: &Finding,
    sources: &mut SourceLines,
) -> Vec<String> {
    let mut out = Vec::new();
    let level = if f.severity == Severity::Error {
        "error"
    } else {
        "warning"
    };
    let game = if report.index > 0 {
        format!(" (game {})", report.index + 1)
    } else {
        String::new()
    };
    if f.line == 0 {
        out.push(format!(
            "{}: {level}[{}]: {}{game}",
            meta.display, f.rule, f.message
        ));
    } else {
        out.push(format!(
            "{}:{}:{}: {level}[{}]: {}{game}",
            meta.display, f.line, f.column, f.rule, f.message
        ));
        if let Some(text) = sources.line(meta, f.line) {
            let num = f.line.to_string();
            let pad = " ".repeat(num.len());
            let caret_pad: String = text
                .chars()
                .take(f.column.saturating_sub(1) as usize)
                .map(|c| {
                    if c == '\t' {
                        "\t".to_string()
                    } else if is_wide(c) {
                        "\u{3000}".to_string()
                    } else {
                        " ".repeat(out::visible_len(c))
                    }
                })
                .collect();
            out.push(format!("{pad} |"));
            out.push(format!("{num} | {text}"));
            out.push(format!("{pad} | {caret_pad}^"));
        }
    }
    if let (Some(ply), Some(mv)) = (f.ply, &f.mv) {
        out.push(format!("  = ply {ply}, move {mv}"));
    }
    if let Some(sfen) = &f.sfen {
        out.push(format!("  = sfen {sfen}"));
    }
    out
}

/// Starts an output file that is never one of `inputs` and never an
/// existing file unless `force` (see [`kifu::output::AtomicFile`]).
pub fn create_output(
    path: &std::path::Path,
    force: bool,
    inputs: &std::collections::HashSet<std::path::PathBuf>,
) -> std::io::Result<kifu::output::AtomicFile> {
    if let Ok(c) = path.canonicalize() {
        if inputs.contains(&c) {
            return Err(std::io::Error::new(
                std::io::ErrorKind::AlreadyExists,
                format!(
                    "{} is one of the inputs; refusing to overwrite it",
                    path.display()
                ),
            ));
        }
    }
    kifu::output::AtomicFile::create(path, force)
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
