//! Text matching for names and events: case, full-width/half-width forms
//! and spaces do not matter.

use unicode_normalization::UnicodeNormalization;

/// Appends the folded form of `s` to `out`: Unicode compatibility
/// normalisation (NFKC: `ＡＢＣ１２` → `ABC12`, half-width `ｶﾅ` → `カナ`),
/// then lower case, with every white space (U+3000 included) left out.
pub fn fold_into(s: &str, out: &mut String) {
    for c in s.nfkc() {
        if c.is_whitespace() {
            continue;
        }
        if c.is_ascii() {
            out.push(c.to_ascii_lowercase());
        } else {
            out.extend(c.to_lowercase());
        }
    }
}

/// How many characters of a name or event the text filters read: a header
/// value is folded (and matched) up to here, so that a hostile value (a
/// megabyte of a character NFKC expands eighteen-fold, U+FDFA) costs no
/// more than a name does.
pub const MAX_MATCHED_CHARS: usize = 1000;

/// The part of a header value the text filters match: its first
/// [`MAX_MATCHED_CHARS`] characters.
///
/// ```
/// use kifu::select::{matched_part, MAX_MATCHED_CHARS};
/// assert_eq!(matched_part("春野　一二"), "春野　一二");
/// let long = "あ".repeat(MAX_MATCHED_CHARS + 5);
/// assert_eq!(matched_part(&long).chars().count(), MAX_MATCHED_CHARS);
/// ```
pub fn matched_part(value: &str) -> &str {
    match value.char_indices().nth(MAX_MATCHED_CHARS) {
        Some((end, _)) => &value[..end],
        None => value,
    }
}

/// The folded form of `s` (see [`fold_into`]).
///
/// ```
/// use kifu::select::fold;
/// assert_eq!(fold("ＡＢＣ　１２"), fold("abc12"));
/// assert_eq!(fold(" 春野　一二 "), "春野一二");
/// assert_eq!(fold("ﾊﾌﾞ"), fold("ハブ"));
/// ```
pub fn fold(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    fold_into(s, &mut out);
    out
}

/// A text to look for, folded once (see [`fold`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Needle {
    /// As given.
    given: String,
    /// Folded.
    folded: String,
}

impl Needle {
    /// A needle; `None` when `text` folds to nothing (only spaces), which
    /// would match every text.
    pub fn new(text: &str) -> Option<Needle> {
        let folded = fold(text);
        (!folded.is_empty()).then(|| Needle {
            given: text.to_string(),
            folded,
        })
    }

    /// The text as given.
    pub fn as_given(&self) -> &str {
        &self.given
    }

    /// Whether `folded_haystack` (already folded) contains this needle.
    pub fn is_in(&self, folded_haystack: &str) -> bool {
        folded_haystack.contains(&self.folded)
    }

    /// Whether the header value `value` contains this needle (within its
    /// first [`MAX_MATCHED_CHARS`] characters).
    pub fn is_in_value(&self, value: &str) -> bool {
        self.is_in(&fold(matched_part(value)))
    }
}

impl std::str::FromStr for Needle {
    type Err = String;
    fn from_str(s: &str) -> Result<Needle, String> {
        Needle::new(s).ok_or_else(|| "an empty text matches everything; give some text".to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn folding_ignores_width_case_and_spaces() {
        let n = Needle::new("ＡＢＣ１２").unwrap();
        assert!(n.is_in(&fold("xx abc 12 yy")));
        assert!(Needle::new("abc12").unwrap().is_in(&fold("ＡＢＣ１２")));
        assert!(Needle::new("春野 一二")
            .unwrap()
            .is_in(&fold("春野　一二 九段")));
        assert!(Needle::new("Élan").unwrap().is_in(&fold("ÉLAN")));
        assert!(!Needle::new("abd").unwrap().is_in(&fold("abc")));
        assert!(Needle::new(" \u{3000} ").is_none());
    }

    #[test]
    fn values_are_matched_up_to_the_cap() {
        let n = Needle::new("春野").unwrap();
        let pad = "\u{FDFA}".repeat(MAX_MATCHED_CHARS - 2);
        assert!(n.is_in_value(&format!("{pad}春野")));
        assert!(!n.is_in_value(&format!("{pad}x春野")));
        // The folded part stays small whatever the value.
        let long = "\u{FDFA}".repeat(10 * MAX_MATCHED_CHARS);
        assert!(fold(matched_part(&long)).chars().count() <= 18 * MAX_MATCHED_CHARS);
    }
}
