//! Findings as people read them:
//!
//! ```text
//! fixtures/csa/bad/nifu.csa:12:1: error[nifu]: illegal move P*5e: …
//!    |
//! 12 | +0055FU
//!    | ^
//!    |
//!    = ply 5, move +0055FU
//!    = sfen lnsgkgsnl/1r5b1/pppp1pppp/9/4p4/9/PPPPPPPPP/1B5R1/LNSGKGSNL b P 5
//! ```
//!
//! The first line is ours (`path:line:column:` first, as compilers write
//! it, for editors and `grep`); the source line, the caret and the notes
//! are drawn by annotate-snippets, which aligns the caret under full-width
//! characters (two columns) and tabs (four spaces). Every piece of text
//! from a record or a file name is made visible first ([`out::visible`]),
//! so a control character shows as `\e` and the caret counts it so.
//! Colours (rule and level, location, caret, gutter) only when asked.

use crate::batch::{FileMeta, SourceBytes};
use crate::out::visible;
use annotate_snippets::{AnnotationKind, Group, Level, Renderer, Snippet};
use anstyle::{AnsiColor, Effects, Style};
use kifu::read::{DecodeOptions, Finding, Severity};
use std::fmt::Write as _;
use std::sync::Arc;

/// Characters of a source line shown at most (the caret's column too).
const MAX_SHOWN: usize = 200;

const ERROR: Style = AnsiColor::BrightRed.on_default().effects(Effects::BOLD);
const WARNING: Style = AnsiColor::Yellow.on_default().effects(Effects::BOLD);
const LOCATION: Style = Style::new().effects(Effects::BOLD);
const GUTTER: Style = AnsiColor::BrightBlue.on_default().effects(Effects::BOLD);

/// Renders findings; keeps the decoded lines of the current input.
pub struct Human {
    color: bool,
    sources: SourceLines,
}

impl Default for Human {
    /// Plain text.
    fn default() -> Human {
        Human::new(false)
    }
}

impl Human {
    /// A renderer; `color` adds ANSI styles.
    pub fn new(color: bool) -> Human {
        Human {
            color,
            sources: SourceLines::default(),
        }
    }

    fn paint(&self, style: Style, text: &str, out: &mut String) {
        if self.color {
            let _ = write!(out, "{style}{text}{style:#}");
        } else {
            out.push_str(text);
        }
    }

    /// One finding of game `index` (0-based) of `meta`'s input, as lines
    /// joined by `\n` (no final newline), every piece already visible.
    pub fn finding(&mut self, meta: &FileMeta, index: usize, f: &Finding) -> String {
        let mut out = String::new();
        let error = f.severity == Severity::Error;
        let location = if f.line == 0 {
            format!("{}:", visible(&meta.display))
        } else {
            format!("{}:{}:{}:", visible(&meta.display), f.line, f.column)
        };
        self.paint(LOCATION, &location, &mut out);
        out.push(' ');
        let level = format!("{}[{}]", if error { "error" } else { "warning" }, f.rule);
        self.paint(if error { ERROR } else { WARNING }, &level, &mut out);
        out.push_str(": ");
        out.push_str(&visible(&f.message));
        if index > 0 {
            let _ = write!(out, " (game {})", index + 1);
        }
        let mut notes = Vec::new();
        if let (Some(ply), Some(mv)) = (f.ply, &f.mv) {
            notes.push(format!("ply {ply}, move {}", visible(mv)));
        }
        if let Some(sfen) = &f.sfen {
            notes.push(format!("sfen {}", visible(sfen)));
        }
        let line = if f.line == 0 {
            None
        } else {
            self.sources.line(meta, f.line)
        };
        match line {
            Some(text) => {
                let (source, span) = caret_span(&text, f.column);
                let level = if error { Level::ERROR } else { Level::WARNING };
                let group = Group::with_level(level)
                    .element(
                        Snippet::source(source.as_str())
                            .line_start(f.line as usize)
                            .fold(false)
                            .annotation(AnnotationKind::Primary.span(span)),
                    )
                    .elements(
                        notes
                            .iter()
                            .map(|n| Level::NOTE.no_name().message(n.as_str())),
                    );
                let renderer = if self.color {
                    Renderer::styled()
                } else {
                    Renderer::plain()
                };
                out.push('\n');
                out.push_str(renderer.render(&[group]).trim_end_matches('\n'));
            }
            None => {
                for n in &notes {
                    out.push_str("\n  ");
                    self.paint(GUTTER, "=", &mut out);
                    out.push(' ');
                    out.push_str(n);
                }
            }
        }
        out
    }
}

/// The line made visible, and the byte span of the character at
/// 1-based `column` in it (empty at the end of the line).
fn caret_span(text: &str, column: u32) -> (String, std::ops::Range<usize>) {
    let before = column.saturating_sub(1) as usize;
    let mut shown = String::with_capacity(text.len());
    let mut span = None;
    for (i, c) in text.chars().enumerate() {
        let start = shown.len();
        let mut buf = [0u8; 4];
        shown.push_str(&visible(c.encode_utf8(&mut buf)));
        if i == before {
            span = Some(start..shown.len());
        }
    }
    let end = shown.len();
    (shown, span.unwrap_or(end..end))
}

/// Source lines for human output, taken from the bytes the input was read
/// from (never by reading it again): inputs read whole and the pieces of
/// large CSA and SFEN/USI files keep them; for other streamed inputs
/// (standard input over 8 MiB, large KIF files) no line is shown.
///
/// The current input's lines are decoded once, on its first finding, and
/// kept compactly ([`ShownLines`]): at most [`MAX_SHOWN`] characters of
/// each, in one string, with a place every [`MARK_EVERY`] lines, so a
/// file of millions of one-character lines costs about its size, not a
/// `String` per line.
#[derive(Default)]
pub struct SourceLines {
    current: Option<(Arc<SourceBytes>, ShownLines)>,
}

impl SourceLines {
    /// Line `n` (1-based) of `meta`'s input, its first characters.
    pub fn line(&mut self, meta: &FileMeta, n: u32) -> Option<String> {
        let src = meta.source.as_ref()?;
        if !self
            .current
            .as_ref()
            .is_some_and(|c| Arc::ptr_eq(&c.0, src))
        {
            // The previous input's lines are let go first.
            self.current = None;
            self.current = Some((src.clone(), ShownLines::split(src, meta)));
        }
        let (src, lines) = self.current.as_ref()?;
        let i = n.checked_sub(src.first_line)?.checked_sub(1)?;
        lines.get(i as usize).map(str::to_string)
    }
}

/// Lines between two places kept by [`ShownLines`]: finding a line reads
/// at most this many shown lines (each at most [`MAX_SHOWN`] characters).
const MARK_EVERY: usize = 64;

/// The first [`MAX_SHOWN`] characters of every line of one input, one
/// after the other with a `\n` after each, and where every
/// [`MARK_EVERY`]-th line starts.
#[derive(Default)]
struct ShownLines {
    text: String,
    marks: Vec<usize>,
    count: usize,
}

impl ShownLines {
    fn push(&mut self, line: &str) {
        if self.count.is_multiple_of(MARK_EVERY) {
            self.marks.push(self.text.len());
        }
        self.count += 1;
        // A line never holds a line feed (the reader splits there); were
        // one there, it would end the line early: shown as a space.
        for c in line.chars().take(MAX_SHOWN) {
            self.text.push(if c == '\n' { ' ' } else { c });
        }
        self.text.push('\n');
    }

    /// Line `i` (0-based), its first [`MAX_SHOWN`] characters.
    fn get(&self, i: usize) -> Option<&str> {
        if i >= self.count {
            return None;
        }
        let mut rest = &self.text[*self.marks.get(i / MARK_EVERY)?..];
        for _ in 0..i % MARK_EVERY {
            rest = &rest[rest.find('\n')? + 1..];
        }
        rest.split('\n').next()
    }

    fn split(src: &SourceBytes, meta: &FileMeta) -> ShownLines {
        let mut out = ShownLines::default();
        // A piece after the first of a large input continues the first's
        // encoding (no BOM or declaration to find), as it was read.
        let mut reader = match meta.encoding {
            Some(e) if src.first_line > 0 => {
                kifu::read::LineReader::continuing(&src.bytes[..], e, true)
            }
            encoding => {
                let opts = DecodeOptions {
                    encoding,
                    lossy: true,
                };
                let Ok(reader) = kifu::read::LineReader::new(&src.bytes[..], &opts) else {
                    return out;
                };
                reader
            }
        };
        while let Some(Ok(line)) = reader.next_line() {
            match line {
                Ok((_, t)) => out.push(t),
                Err(_) => out.push(reader.current_text()),
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::{caret_span, ShownLines, MARK_EVERY, MAX_SHOWN};

    #[test]
    fn spans_count_escapes() {
        assert_eq!(caret_span("abc", 2), ("abc".to_string(), 1..2));
        assert_eq!(caret_span("a\x1bc", 3), ("a\\ec".to_string(), 3..4));
        assert_eq!(caret_span("ab", 9), ("ab".to_string(), 2..2));
        assert_eq!(caret_span("５五", 2), ("５五".to_string(), 3..6));
    }

    #[test]
    fn shown_lines_are_the_lines_cut_to_what_is_shown() {
        let mut lines = ShownLines::default();
        let long = "長".repeat(MAX_SHOWN + 5);
        let want: Vec<String> = (0..3 * MARK_EVERY + 5)
            .map(|i| match i % 4 {
                0 => String::new(),
                1 => long.clone(),
                _ => format!("line {i}"),
            })
            .collect();
        for w in &want {
            lines.push(w);
        }
        for (i, w) in want.iter().enumerate() {
            let cut: String = w.chars().take(MAX_SHOWN).collect();
            assert_eq!(lines.get(i), Some(cut.as_str()), "line {i}");
        }
        assert_eq!(lines.get(want.len()), None);
        assert_eq!(lines.marks.len(), want.len().div_ceil(MARK_EVERY));
        assert_eq!(ShownLines::default().get(0), None);
    }
}
