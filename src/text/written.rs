//! The text of a move as the file wrote it ([`WrittenText`]), below both
//! the resolver and the visitor events that carry it.

use std::borrow::Cow;
use std::fmt;

/// The text of a move as the file wrote it. A plain Shift_JIS KIF move
/// line is read from its bytes, and its move text is only decoded when
/// something asks for it ([`WrittenText::text`]: a finding, a stored
/// record node); every other reader gives text (`From<&str>`).
///
/// ```
/// use kifu::read::WrittenText;
/// let w = WrittenText::from("７六歩(77)");
/// assert_eq!(w.text(), "７六歩(77)");
/// assert!(!w.is_empty());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WrittenText<'a>(Written<'a>);

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Written<'a> {
    Text(&'a str),
    /// Shift_JIS bytes the KIF fast path matched (ASCII and the fast
    /// path's vocabulary only).
    ShiftJis(&'a [u8]),
}

impl<'a> WrittenText<'a> {
    /// Undecoded Shift_JIS bytes of a move text the KIF fast path read.
    pub(crate) fn shift_jis(bytes: &'a [u8]) -> WrittenText<'a> {
        WrittenText(Written::ShiftJis(bytes))
    }

    /// The text (decoded here when the reader kept the bytes).
    pub fn text(&self) -> Cow<'a, str> {
        match self.0 {
            Written::Text(s) => Cow::Borrowed(s),
            Written::ShiftJis(b) => {
                let mut s = String::new();
                if crate::text::notation::fast::Vocab::sjis()
                    .decode_into(b, &mut s)
                    .is_none()
                {
                    // Not reached: the fast path matched every byte.
                    s = encoding_rs::SHIFT_JIS
                        .decode_without_bom_handling(b)
                        .0
                        .into_owned();
                }
                Cow::Owned(s)
            }
        }
    }

    /// The text as a record node keeps it (cut at 48 bytes).
    pub(crate) fn to_written(self) -> crate::record::Written {
        match self.0 {
            Written::Text(s) => crate::record::written(s),
            Written::ShiftJis(b) => {
                let mut w = crate::record::Written::new();
                let decoded = crate::text::notation::fast::Vocab::sjis()
                    .decode_each(b, |c| w.try_push(c).is_ok());
                match decoded {
                    Some(()) => w,
                    None => crate::record::written(&self.text()),
                }
            }
        }
    }

    /// Whether the text is empty.
    pub fn is_empty(&self) -> bool {
        match self.0 {
            Written::Text(s) => s.is_empty(),
            Written::ShiftJis(b) => b.is_empty(),
        }
    }
}

impl<'a> From<&'a str> for WrittenText<'a> {
    fn from(s: &'a str) -> WrittenText<'a> {
        WrittenText(Written::Text(s))
    }
}

impl fmt::Display for WrittenText<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text())
    }
}
