//! Pieces the subcommands share: input discovery, options, source lines.

use crate::args::InputArgs;
use kifu::batch::{self, FileMeta, Input};
use kifu::read::{DecodeOptions, ReadOptions};
use kifu::read::{Finding, Severity};
use kifu::validate::GameReport;

/// Expands paths into inputs; returns `(path, message)` for bad paths.
pub fn discover(a: &InputArgs) -> (Vec<Input>, Vec<(String, String)>) {
    let d = batch::discover(&a.paths, &a.ext, a.from);
    (d.inputs, d.errors)
}

pub fn read_options(a: &InputArgs, encoding: Option<kifu::read::Encoding>) -> ReadOptions {
    ReadOptions {
        decode: DecodeOptions {
            encoding,
            lossy: a.lossy,
        },
    }
}

pub fn jobs(a: &InputArgs) -> usize {
    a.jobs
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
        .max(1)
}

/// Escapes a GitHub annotation property value.
pub fn gh_prop(s: &str) -> String {
    gh_msg(s).replace(':', "%3A").replace(',', "%2C")
}

/// Escapes a GitHub annotation message.
pub fn gh_msg(s: &str) -> String {
    s.replace('%', "%25")
        .replace('\r', "%0D")
        .replace('\n', "%0A")
}

/// Whether a character takes two terminal columns (CJK and full-width).
pub fn is_wide(c: char) -> bool {
    matches!(c as u32, 0x1100..=0x115F | 0x2E80..=0xA4CF | 0xAC00..=0xD7A3 | 0xF900..=0xFAFF | 0xFE30..=0xFE4F | 0xFF00..=0xFF60 | 0xFFE0..=0xFFE6 | 0x2600..=0x26FF | 0x25A0..=0x25FF)
}

/// Source lines for human output, read again (once per file) only for
/// files that have findings.
#[derive(Default)]
pub struct SourceLines {
    current: Option<(usize, Vec<String>)>,
}

impl SourceLines {
    pub fn line(&mut self, meta: &FileMeta, n: u32) -> Option<String> {
        if self.current.as_ref().map(|c| c.0) != Some(meta.input) {
            let lines = load(meta).unwrap_or_default();
            self.current = Some((meta.input, lines));
        }
        let lines = &self.current.as_ref()?.1;
        let text = lines.get(n.checked_sub(1)? as usize)?;
        Some(text.chars().take(200).collect())
    }
}

fn load(meta: &FileMeta) -> Option<Vec<String>> {
    if meta.display == "-" || meta.bytes > batch::STREAM_THRESHOLD {
        return None;
    }
    let bytes = std::fs::read(&meta.display).ok()?;
    let opts = DecodeOptions {
        encoding: meta.encoding,
        lossy: true,
    };
    let mut reader = kifu::read::LineReader::new(&bytes[..], &opts).ok()?;
    let mut out = Vec::new();
    while let Some(Ok(line)) = reader.next_line() {
        match line {
            Ok((_, t)) => out.push(t.to_string()),
            Err(_) => out.push(reader.current_text().to_string()),
        }
    }
    Some(out)
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
                        '\t'
                    } else if is_wide(c) {
                        '\u{3000}'
                    } else {
                        ' '
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
