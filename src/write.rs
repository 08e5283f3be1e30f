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
