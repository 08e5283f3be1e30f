//! The `--endings` words: which end reasons an export keeps.

use crate::record::TerminalKind;
use std::fmt;

/// The end reasons one `--endings` word names: a reason id (`resign`,
/// `declaration`, …, as in [`crate::validate::REASONS`]) or a CSA special
/// (`%TORYO`, `%KACHI`, `%SENNICHITE` — repetition and perpetual check —,
/// `%JISHOGI`, …).
///
/// ```
/// use kifu::export::parse_ending;
///
/// assert_eq!(parse_ending("%TORYO").unwrap(), vec!["resign"]);
/// assert_eq!(parse_ending("declaration").unwrap(), vec!["declaration"]);
/// assert_eq!(parse_ending("%SENNICHITE").unwrap(), vec!["repetition", "perpetual-check"]);
/// assert!(parse_ending("%NOPE").is_err());
/// ```
pub fn parse_ending(word: &str) -> Result<Vec<&'static str>, EndingError> {
    let w = word.trim();
    let bad = |kind| EndingError {
        word: w.to_string(),
        kind,
    };
    if let Some(special) = w.strip_prefix('%') {
        let kind = crate::csa::kind_from_special(&special.to_ascii_uppercase());
        return match kind {
            TerminalKind::Other(_) => Err(bad(EndingErrorKind::UnknownSpecial)),
            TerminalKind::Repetition => Ok(vec!["repetition", "perpetual-check"]),
            k => Ok(vec![k.reason_id()]),
        };
    }
    let id = w.to_ascii_lowercase().replace('_', "-");
    crate::validate::REASONS
        .iter()
        .find(|r| **r == id)
        .map(|r| vec![*r])
        .ok_or_else(|| bad(EndingErrorKind::UnknownReason))
}

/// A word [`parse_ending`] does not know.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EndingError {
    word: String,
    kind: EndingErrorKind,
}

/// The cases of an [`EndingError`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum EndingErrorKind {
    /// `%…` that is no CSA special.
    UnknownSpecial,
    /// A word that is no reason id.
    UnknownReason,
}

impl EndingError {
    /// Which case this is.
    pub fn kind(&self) -> EndingErrorKind {
        self.kind
    }

    /// The word, trimmed.
    pub fn word(&self) -> &str {
        &self.word
    }
}

impl fmt::Display for EndingError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let w = &self.word;
        match self.kind {
            EndingErrorKind::UnknownSpecial => write!(
                f,
                "unknown CSA special `{w}` (expected %TORYO, %KACHI, %SENNICHITE, %JISHOGI, …)"
            ),
            EndingErrorKind::UnknownReason => write!(
                f,
                "unknown ending `{w}` (expected a CSA special such as %TORYO, or one of {})",
                crate::validate::REASONS.join(", ")
            ),
        }
    }
}

impl std::error::Error for EndingError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn endings_parse() {
        assert_eq!(parse_ending("%KACHI").unwrap(), ["declaration"]);
        assert_eq!(parse_ending("%jishogi").unwrap(), ["impasse"]);
        assert_eq!(parse_ending("time_up").unwrap(), ["time-up"]);
        let e = parse_ending("toryo").unwrap_err();
        assert_eq!(e.kind(), EndingErrorKind::UnknownReason);
        assert!(e.to_string().starts_with("unknown ending `toryo`"), "{e}");
        let e = parse_ending(" %NOPE ").unwrap_err();
        assert_eq!(e.kind(), EndingErrorKind::UnknownSpecial);
        assert_eq!(e.word(), "%NOPE");
    }
}
