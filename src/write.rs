//! What every writer shares: its output and an account of what the target
//! format could not hold.

use std::fmt;

/// Counts of what a writer had to leave out because the target format cannot
/// hold it. `kifu convert` prints these as one `dropped:` line per file.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Dropped {
    /// Variations (alternative lines).
    pub variations: usize,
    /// Comments.
    pub comments: usize,
    /// Move times.
    pub times: usize,
    /// Header entries.
    pub headers: usize,
    /// Terminal events that could not be expressed.
    pub terminals: usize,
    /// Texts changed to fit the format: a line break in a field written on
    /// one line (a header, a player's name), a `}` in a PSN comment block,
    /// a comment line that would read back as the format's own syntax.
    pub altered: usize,
}

impl Dropped {
    /// Whether nothing was dropped.
    pub fn is_empty(&self) -> bool {
        *self == Dropped::default()
    }

    /// Adds another account to this one.
    pub fn add(&mut self, other: &Dropped) {
        self.variations += other.variations;
        self.comments += other.comments;
        self.times += other.times;
        self.headers += other.headers;
        self.terminals += other.terminals;
        self.altered += other.altered;
    }
}

impl fmt::Display for Dropped {
    /// `3 variations, 41 comments` (only the non-zero counts).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let items = [
            (self.variations, "variation", "variations"),
            (self.comments, "comment", "comments"),
            (self.times, "move time", "move times"),
            (self.headers, "header", "headers"),
            (self.terminals, "terminal event", "terminal events"),
            (self.altered, "altered text", "altered texts"),
        ];
        let mut first = true;
        for (n, one, many) in items {
            if n == 0 {
                continue;
            }
            if !first {
                f.write_str(", ")?;
            }
            first = false;
            write!(f, "{n} {}", if n == 1 { one } else { many })?;
        }
        Ok(())
    }
}

/// `s` for a field written on one line: every line break (CRLF, CR, LF)
/// becomes a space, and `altered` counts the change, so that no text of a
/// record can start a line of its own in the output.
pub fn one_line<'a>(s: &'a str, altered: &mut usize) -> std::borrow::Cow<'a, str> {
    if s.contains(['\n', '\r']) {
        *altered += 1;
        std::borrow::Cow::Owned(s.replace("\r\n", " ").replace(['\r', '\n'], " "))
    } else {
        std::borrow::Cow::Borrowed(s)
    }
}

/// The lines of a multi-line text, split as the readers split lines (CRLF,
/// lone CR, LF), for formats that write each line of a comment with its
/// own prefix.
pub fn text_lines(s: &str) -> impl Iterator<Item = &str> {
    let mut rest = Some(s);
    std::iter::from_fn(move || {
        let r = rest?;
        match r.find(['\r', '\n']) {
            Some(i) => {
                let skip = if r[i..].starts_with("\r\n") { 2 } else { 1 };
                rest = Some(&r[i + skip..]);
                Some(&r[..i])
            }
            None => {
                rest = None;
                Some(r)
            }
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_split_as_readers_split_them() {
        let v: Vec<&str> = text_lines("a\r\nb\rc\nd").collect();
        assert_eq!(v, ["a", "b", "c", "d"]);
        assert_eq!(text_lines("").collect::<Vec<_>>(), [""]);
        let mut n = 0;
        assert_eq!(one_line("x\r\ny\nz", &mut n), "x y z");
        assert_eq!(one_line("xyz", &mut n), "xyz");
        assert_eq!(n, 1);
    }
}

/// A written record.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Output {
    /// The text (UTF-8; encode it with [`crate::read::decode::encode`] for
    /// Shift_JIS targets).
    pub text: String,
    /// What could not be written.
    pub dropped: Dropped,
}

/// Why a record could not be written at all.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WriteError {
    /// What went wrong, for a person.
    pub message: String,
}

impl WriteError {
    /// An error with a message.
    pub fn new(message: impl Into<String>) -> WriteError {
        WriteError {
            message: message.into(),
        }
    }
}

impl fmt::Display for WriteError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for WriteError {}

/// How to write, for every format (each format reads the fields that
/// concern it). The default writes what each format's writer writes by
/// default.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WriteOptions {
    /// KIF/KI2: the encoding the `#KIF`/`#KI2` line declares (the text is
    /// always UTF-8; encode it with [`crate::read::decode::encode`]). KIF
    /// declares UTF-8 when `None`; KI2 then writes no declaration.
    pub encoding: Option<crate::read::Encoding>,
    /// KIF/KI2: end lines with CRLF.
    pub crlf: bool,
    /// CSA: the version written.
    pub csa_version: crate::csa::CsaVersion,
    /// PSN: how move times are written.
    pub psn_times: crate::psn::PsnTimes,
    /// KI2/PSN: disambiguate only against pieces that can legally move.
    pub legal_candidates_only: bool,
    /// JKF: indent the JSON.
    pub pretty: bool,
    /// USI: start lines with `position`.
    pub position_prefix: bool,
    /// USI: write only the final position as a bare SFEN line.
    pub sfen_only: bool,
}

impl Default for WriteOptions {
    fn default() -> WriteOptions {
        WriteOptions {
            encoding: None,
            crlf: false,
            csa_version: Default::default(),
            psn_times: Default::default(),
            legal_candidates_only: false,
            pretty: true,
            position_prefix: true,
            sfen_only: false,
        }
    }
}

/// Writes one record in `format`: the one entry point every caller uses.
///
/// ```
/// use kifu::read::Format;
/// use kifu::write::{write, WriteOptions};
///
/// let game = &kifu::read::read_all(b"PI\n+\n+7776FU\n", None, &Default::default())[0];
/// let out = write(&game.record, Format::Usi, &WriteOptions::default()).unwrap();
/// assert_eq!(out.text, "position startpos moves 7g7f\n");
/// ```
///
/// # Errors
/// A record the format cannot hold at all (e.g. a minishogi game as CSA).
pub fn write(
    record: &crate::record::Record,
    format: crate::read::Format,
    opts: &WriteOptions,
) -> Result<Output, WriteError> {
    use crate::read::Format;
    match format {
        Format::Kif => crate::kif::write(
            record,
            &crate::kif::WriteOptions {
                encoding: opts.encoding.unwrap_or(crate::read::Encoding::Utf8),
                crlf: opts.crlf,
            },
        ),
        Format::Ki2 => crate::ki2::write(
            record,
            &crate::ki2::WriteOptions {
                legal_candidates_only: opts.legal_candidates_only,
                encoding: opts.encoding,
                crlf: opts.crlf,
            },
        ),
        Format::Csa => crate::csa::write(
            record,
            &crate::csa::WriteOptions {
                version: opts.csa_version,
            },
        ),
        Format::Psn => crate::psn::write(
            record,
            &crate::psn::WriteOptions {
                times: opts.psn_times,
                legal_candidates_only: opts.legal_candidates_only,
            },
        ),
        Format::Jkf => crate::jkf::write(
            record,
            &crate::jkf::WriteOptions {
                pretty: opts.pretty,
            },
        ),
        Format::Usi => crate::usi::write(
            record,
            &crate::usi::WriteOptions {
                position_prefix: opts.position_prefix,
                sfen_only: opts.sfen_only,
            },
        ),
    }
}
