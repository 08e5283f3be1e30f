//! Everything the commands print goes through here: text from records and
//! file names made visible ([`visible`]), standard output that stops at its
//! first failure ([`Out`]), standard error that never panics ([`err`]).

use std::borrow::Cow;
use std::fmt::Write as _;
use std::io::{self, BufWriter, Write};

/// Exit code: everything went well.
pub const OK: u8 = 0;
/// Exit code: problems found in the records.
pub const PROBLEMS: u8 = 1;
/// Exit code: usage error, unreadable input, unwritable or refused output,
/// no game found.
pub const FAILURE: u8 = 2;

/// Whether `c` would act on a terminal or a log reader instead of being
/// shown: control characters (C0 but tab, DEL, C1), line and paragraph
/// separators, and the bidirectional overrides that reorder text.
fn hidden(c: char) -> bool {
    (c.is_control() && c != '\t')
        || matches!(
            c,
            '\u{061c}'
                | '\u{200e}'
                | '\u{200f}'
                | '\u{2028}'
                | '\u{2029}'
                | '\u{202a}'..='\u{202e}'
                | '\u{2066}'..='\u{2069}'
        )
}

/// How `c` is shown: itself, or an escape (`\e`, `\n`, `\r`, `\0`,
/// `\u{9b}`).
fn render(c: char, out: &mut String) {
    match c {
        '\x1b' => out.push_str("\\e"),
        '\n' => out.push_str("\\n"),
        '\r' => out.push_str("\\r"),
        '\0' => out.push_str("\\0"),
        '\x07' => out.push_str("\\a"),
        '\x08' => out.push_str("\\b"),
        c if hidden(c) => {
            let _ = write!(out, "\\u{{{:x}}}", c as u32);
        }
        c => out.push(c),
    }
}

/// `s` with every character that could drive a terminal or a CI log
/// (escape sequences, line breaks, bidirectional overrides) written as a
/// visible escape. Every human-readable line kifu prints passes here, so
/// neither a record nor a file name can retitle the terminal, clear the
/// screen, fake a line of output or start a GitHub workflow command.
pub fn visible(s: &str) -> Cow<'_, str> {
    if !s.chars().any(hidden) {
        return Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len() + 16);
    for c in s.chars() {
        render(c, &mut out);
    }
    Cow::Owned(out)
}

/// Prints one human-readable line on standard error (made [`visible`]);
/// a standard error that cannot be written is ignored, never a panic.
pub fn err(text: &str) {
    let mut e = io::stderr().lock();
    let _ = e.write_all(visible(text).as_bytes());
    let _ = e.write_all(b"\n");
}

/// Prints text that is already safe to show (made [`visible`] piece by
/// piece, or a machine format) on standard error, then a newline.
pub fn err_raw(text: &str) {
    let mut e = io::stderr().lock();
    let _ = e.write_all(text.as_bytes());
    let _ = e.write_all(b"\n");
}

/// Standard output for results. The first write that fails is kept and
/// every later write is skipped; the command then stops and returns it
/// (see [`Out::finish`]), so `main` reports it once.
pub struct Out {
    w: BufWriter<io::Stdout>,
    failed: Option<io::Error>,
}

impl Default for Out {
    fn default() -> Self {
        Out::new()
    }
}

impl Out {
    /// Buffered standard output.
    pub fn new() -> Out {
        Out {
            w: BufWriter::with_capacity(1 << 16, io::stdout()),
            failed: None,
        }
    }

    /// Writes raw bytes. Returns whether output still works.
    pub fn bytes(&mut self, b: &[u8]) -> bool {
        if self.failed.is_none() {
            if let Err(e) = self.w.write_all(b) {
                self.failed = Some(e);
            }
        }
        self.failed.is_none()
    }

    /// Writes a line of machine-readable text (JSON, annotations), which
    /// the caller has escaped.
    pub fn line(&mut self, text: &str) -> bool {
        self.bytes(text.as_bytes()) && self.bytes(b"\n")
    }

    /// Flushes. Returns whether output still works.
    pub fn flush(&mut self) -> bool {
        if self.failed.is_none() {
            if let Err(e) = self.w.flush() {
                self.failed = Some(e);
            }
        }
        self.failed.is_none()
    }

    /// Whether output still works.
    pub fn ok(&self) -> bool {
        self.failed.is_none()
    }

    /// Flushes and returns the first failure, if any.
    pub fn finish(mut self) -> io::Result<()> {
        self.flush();
        match self.failed.take() {
            Some(e) => Err(e),
            None => Ok(()),
        }
    }
}

/// The exit code for a command that ended with `result`, where `Err` means
/// standard output failed. This is the one place that handles it: a
/// reader that went away (`kifu … | head`) ends the program quietly with
/// code 0; any other failure (a full disk) is reported once, code 2.
pub fn exit_code(result: io::Result<u8>) -> u8 {
    match result {
        Ok(code) => code,
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => OK,
        Err(e) => {
            err(&format!("kifu: cannot write to standard output: {e}"));
            FAILURE
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn controls_are_shown_not_obeyed() {
        assert_eq!(visible("a.kif"), "a.kif");
        assert_eq!(visible("先手\t名人"), "先手\t名人");
        assert_eq!(visible("\x1b]0;x\x07"), "\\e]0;x\\a");
        assert_eq!(visible("a\nb\rc"), "a\\nb\\rc");
        assert_eq!(visible("\u{9b}2J"), "\\u{9b}2J");
        assert_eq!(visible("\u{202e}fik.exe"), "\\u{202e}fik.exe");
    }
}
