//! The KI2 move line read on bytes, in front of the nom grammar
//! ([`super::grammar`]): the plain shape every program writes
//! (`▲７六歩    △３四歩    ▲同　角成`, relative marks, `不成`), in UTF-8
//! or straight from the Shift_JIS bytes of the file, so that a plain
//! Shift_JIS move line is never decoded (only each move's own text is, for
//! the move event).
//!
//! Each character of the vocabulary (spaces, digits, numerals, `同`, side
//! marks, piece names, move words) is looked up by its bytes in a table
//! ([`Ki2Vocab`]); the Shift_JIS table is made once from the characters by
//! `encoding_rs` (a character is only used when `encoding_rs` decodes its
//! bytes back to it). A line is answered only when it is read whole: every
//! token a side mark and a plain move, nothing else. Whatever this path
//! does not recognise with certainty (a terminal word, an origin `(77)`, a
//! doubutsu name, any other character, an error) it leaves to the nom
//! parsers (it answers `false`), so findings come from one place. Proptests
//! below check that both agree wherever this path answers, in both
//! encodings.

use crate::rules::color::Color;
use crate::rules::role::Role;
use crate::rules::square::Square;
use crate::text::notation::lexicon::{IDEOGRAPHIC_SPACE, KANJI_DIGITS, ROLE_NAMES};
use crate::text::notation::marks::RelativeMark;
use crate::text::notation::moves::{
    Dest, MoveText, MoveToken as Token, Origin, Suffix, SUFFIX_WORDS,
};
use std::sync::OnceLock;

// What a character is to the KI2 move grammar (one byte).
/// Not in the vocabulary.
const OTHER: u8 = 0;
/// ASCII space, tab, U+3000.
const SPACE: u8 = 1;
/// `同`.
const SAME: u8 = 2;
/// ▲ ☗ ▼.
const BLACK: u8 = 3;
/// △ ☖ ▽.
const WHITE: u8 = 4;
/// `成`: a move word, or the start of `成銀` `成桂` `成香` `成歩`.
const NARI: u8 = 5;
/// `不` (of `不成`).
const FU: u8 = 6;
/// `+ v`: a digit 1 to 9 (full-width or ASCII): a file or a rank.
const DIGIT: u8 = 0x10;
/// `+ v`: a kanji numeral 一 to 九: a rank only.
const KANJI: u8 = 0x20;
/// `+ i`: the one-character piece name `ROLES[i]`.
const ROLE: u8 = 0x40;
/// `+ i`: the one-character move word `SUFFIX_WORDS[i]` (`不成` and `成`
/// are read by hand).
const SUF: u8 = 0x80;

/// One-character piece names (`ROLE_NAMES`'s one-character entries: no
/// longer name starts with one of them, so the character alone decides),
/// with the role `成` + the name gives, if it is a name.
fn roles() -> Vec<(char, Role, Option<Role>)> {
    ROLE_NAMES
        .iter()
        .filter_map(|&(w, r)| {
            let mut cs = w.chars();
            let c = cs.next()?;
            if cs.next().is_some() {
                return None;
            }
            let promoted = ROLE_NAMES
                .iter()
                .find(|(n, _)| n.strip_prefix('成') == Some(w))
                .map(|&(_, p)| p);
            Some((c, r, promoted))
        })
        .collect()
}

/// The vocabulary's characters other than ASCII, with what they are.
fn vocabulary() -> Vec<(char, u8)> {
    let mut v = Vec::new();
    for (i, c) in ('１'..='９').enumerate() {
        v.push((c, DIGIT + 1 + i as u8));
    }
    for (i, &c) in KANJI_DIGITS.iter().enumerate() {
        v.push((c, KANJI + 1 + i as u8));
    }
    v.push((IDEOGRAPHIC_SPACE, SPACE));
    v.push(('同', SAME));
    for c in ['▲', '☗', '▼'] {
        v.push((c, BLACK));
    }
    for c in ['△', '☖', '▽'] {
        v.push((c, WHITE));
    }
    v.push(('成', NARI));
    v.push(('不', FU));
    for (i, (c, _, _)) in roles().iter().enumerate() {
        v.push((*c, ROLE + i as u8));
    }
    for (i, (w, _)) in SUFFIX_WORDS.iter().enumerate() {
        let mut cs = w.chars();
        if let (Some(c), None) = (cs.next(), cs.next()) {
            if c != '成' {
                v.push((c, SUF + i as u8));
            }
        }
    }
    v
}

/// What each ASCII byte is.
const ASCII: [u8; 128] = {
    let mut t = [OTHER; 128];
    t[b' ' as usize] = SPACE;
    t[b'\t' as usize] = SPACE;
    let mut d = 1;
    while d <= 9 {
        t[(b'0' + d) as usize] = DIGIT + d;
        d += 1;
    }
    t
};

/// Index of a two-byte Shift_JIS character (JIS X 0208 rows, both kanji
/// levels) in the Shift_JIS table.
#[inline]
fn sjis_index(lead: u8, trail: u8) -> Option<usize> {
    let row = match lead {
        0x81..=0x9F => lead - 0x81,
        0xE0..=0xEF => lead - 0xE0 + 31,
        _ => return None,
    } as usize;
    if !(0x40..=0xFC).contains(&trail) || trail == 0x7F {
        return None;
    }
    Some(row * 189 + (trail - 0x40) as usize)
}

/// The Shift_JIS bytes of `c`, if `encoding_rs` encodes it in two bytes
/// and decodes them back to it.
fn sjis_pair(c: char) -> Option<[u8; 2]> {
    let mut buf = [0; 4];
    let s = c.encode_utf8(&mut buf);
    let (bytes, _, bad) = encoding_rs::SHIFT_JIS.encode(s);
    if bad {
        return None;
    }
    let back =
        encoding_rs::SHIFT_JIS.decode_without_bom_handling_and_without_replacement(&bytes)?;
    let pair: [u8; 2] = (*bytes).try_into().ok()?;
    (back == *s).then_some(pair)
}

/// The KI2 fast path's vocabulary in one encoding.
pub(crate) struct Ki2Vocab {
    /// Shift_JIS (else UTF-8).
    sjis: bool,
    /// What a character is: by [`sjis_index`] (Shift_JIS) or by code point
    /// (UTF-8, three-byte characters).
    table: Box<[u8]>,
    /// Shift_JIS only: its UTF-8 bytes (U+FFFD where there is none).
    /// `ROLES[i]`: the role of a one-character name, and of `成` + it.
    roles: Box<[(Role, Option<Role>)]>,
}

impl Ki2Vocab {
    /// The UTF-8 vocabulary.
    pub(crate) fn utf8() -> &'static Ki2Vocab {
        static V: OnceLock<Ki2Vocab> = OnceLock::new();
        V.get_or_init(|| {
            let mut table = vec![OTHER; 0x10000];
            for (c, s) in vocabulary() {
                if c.len_utf8() == 3 {
                    table[c as usize] = s;
                }
            }
            Ki2Vocab::with(false, table)
        })
    }

    /// The Shift_JIS vocabulary (characters Shift_JIS cannot write are left
    /// out: a line holding them is decoded and read by nom).
    pub(crate) fn sjis() -> &'static Ki2Vocab {
        static V: OnceLock<Ki2Vocab> = OnceLock::new();
        V.get_or_init(|| {
            let mut table = vec![OTHER; 47 * 189];
            for (c, s) in vocabulary() {
                if let Some(k) = sjis_pair(c).and_then(|[a, b]| sjis_index(a, b)) {
                    table[k] = s;
                }
            }
            Ki2Vocab::with(true, table)
        })
    }

    fn with(sjis: bool, table: Vec<u8>) -> Ki2Vocab {
        Ki2Vocab {
            sjis,
            table: table.into_boxed_slice(),
            roles: roles().iter().map(|&(_, r, p)| (r, p)).collect(),
        }
    }

    /// What the character at `k` is, and its length in bytes; `(OTHER, 1)`
    /// at the end and for anything outside the vocabulary. `SJIS` is
    /// `self.sjis`.
    #[inline(always)]
    fn sym<const SJIS: bool>(&self, b: &[u8], k: usize) -> (u8, usize) {
        let Some(&b0) = b.get(k) else {
            return (OTHER, 1);
        };
        if b0 < 0x80 {
            return (ASCII[b0 as usize], 1);
        }
        if SJIS {
            return match b.get(k + 1).and_then(|&b1| sjis_index(b0, b1)) {
                Some(i) => (self.table[i], 2),
                None => (OTHER, 1),
            };
        }
        // UTF-8 from a character boundary (a `str`'s bytes): every
        // character of the vocabulary is three bytes long.
        if b0 & 0xF0 != 0xE0 {
            return (OTHER, 1);
        }
        match (b.get(k + 1), b.get(k + 2)) {
            (Some(&b1), Some(&b2)) => {
                let cp = (usize::from(b0 & 0x0F) << 12)
                    | (usize::from(b1 & 0x3F) << 6)
                    | usize::from(b2 & 0x3F);
                (self.table[cp], 3)
            }
            _ => (OTHER, 1),
        }
    }

    /// Skips spaces from `k`; the index after them and how many.
    #[inline(always)]
    fn spaces<const SJIS: bool>(&self, b: &[u8], mut k: usize) -> (usize, u32) {
        let mut n = 0;
        loop {
            if b.get(k) == Some(&b' ') {
                k += 1;
                n += 1;
                continue;
            }
            let (s, len) = self.sym::<SJIS>(b, k);
            if s != SPACE {
                return (k, n);
            }
            k += len;
            n += 1;
        }
    }

    /// A square at `k`: the index after it and the square.
    #[inline(always)]
    fn square<const SJIS: bool>(&self, b: &[u8], k: usize) -> Option<(usize, Square)> {
        let (f, n) = self.sym::<SJIS>(b, k);
        if !(DIGIT + 1..=DIGIT + 9).contains(&f) {
            return None;
        }
        let (r, m) = self.sym::<SJIS>(b, k + n);
        let rank = match r {
            _ if (DIGIT + 1..=DIGIT + 9).contains(&r) => r - DIGIT,
            _ if (KANJI + 1..=KANJI + 9).contains(&r) => r - KANJI,
            _ => return None,
        };
        Some((k + n + m, Square::new(f - DIGIT, rank)?))
    }

    /// One token at `k` (on its side mark): the index after its move text,
    /// the number of characters in it, and the move; `None` where the fast
    /// path does not answer.
    #[inline(always)]
    fn token<const SJIS: bool>(&self, b: &[u8], k: usize) -> Option<(usize, u32, MoveText)> {
        let (_, n) = self.sym::<SJIS>(b, k);
        let mut k = k + n;
        let mut chars = 1;
        let dest = match self.square::<SJIS>(b, k) {
            Some((r, sq)) => {
                k = r;
                chars += 2;
                Dest::Square(sq)
            }
            None => {
                let (s, n) = self.sym::<SJIS>(b, k);
                if s != SAME {
                    return None;
                }
                let (r, sp) = self.spaces::<SJIS>(b, k + n);
                k = r;
                chars += 1 + sp;
                if let Some((r, _)) = self.square::<SJIS>(b, k) {
                    k = r;
                    chars += 2;
                }
                Dest::Same
            }
        };
        let (s, n) = self.sym::<SJIS>(b, k);
        let role = if (ROLE..ROLE + 0x40).contains(&s) {
            k += n;
            chars += 1;
            self.roles.get(usize::from(s - ROLE))?.0
        } else if s == NARI {
            let (s2, n2) = self.sym::<SJIS>(b, k + n);
            let promoted = s2
                .checked_sub(ROLE)
                .filter(|&i| i < 0x40)
                .and_then(|i| self.roles.get(usize::from(i))?.1)?;
            k += n + n2;
            chars += 2;
            promoted
        } else {
            return None;
        };
        let mut mt = MoveText {
            dest,
            role,
            promote: None,
            origin: Origin::None,
            mark: RelativeMark::NONE,
            wrote_funari: false,
        };
        loop {
            let (s, n) = self.sym::<SJIS>(b, k);
            let suffix = if s == NARI {
                Suffix::Promote
            } else if s == FU {
                let (s2, n2) = self.sym::<SJIS>(b, k + n);
                if s2 != NARI {
                    return None;
                }
                k += n2;
                chars += 1;
                Suffix::NoPromote
            } else if s >= SUF {
                SUFFIX_WORDS.get(usize::from(s - SUF))?.1
            } else {
                return Some((k, chars, mt));
            };
            mt = mt.with(suffix);
            k += n;
            chars += 1;
        }
    }

    /// Reads a whole KI2 move line (`b`: its bytes, line break excluded)
    /// into `out`; `false` (and `out` to be ignored) unless every token is
    /// a side mark and a plain move, as the nom grammar reads it.
    pub(crate) fn line(&self, b: &[u8], out: &mut Vec<Token>) -> bool {
        if self.sjis {
            self.line_in::<true>(b, out)
        } else {
            self.line_in::<false>(b, out)
        }
    }

    fn line_in<const SJIS: bool>(&self, b: &[u8], out: &mut Vec<Token>) -> bool {
        out.clear();
        let (mut k, lead) = self.spaces::<SJIS>(b, 0);
        let mut col = 1 + lead;
        if k >= b.len() {
            return false;
        }
        while k < b.len() {
            let color = match self.sym::<SJIS>(b, k).0 {
                BLACK => Color::Black,
                WHITE => Color::White,
                _ => return false,
            };
            let Some((end, chars, mt)) = self.token::<SJIS>(b, k) else {
                return false;
            };
            out.push(Token {
                start: k,
                end,
                col,
                color,
                mt,
            });
            let (r, sp) = self.spaces::<SJIS>(b, end);
            k = r;
            col += chars + sp;
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ki2::grammar::{ki2_line, Body};
    use crate::text::syntax::column;

    /// A token as both paths give it: byte offset in the text, column,
    /// side, text as written, move.
    type Read = (usize, u32, Color, String, MoveText);

    /// What the nom grammar reads from a whole line, as the fast path
    /// gives it; `None` if it gives an error or a terminal word.
    fn nom_tokens(line: &str) -> Option<Vec<Read>> {
        if !crate::ki2::grammar::is_ki2_move_line(line) {
            return None;
        }
        let (toks, err) = ki2_line(line);
        if err.is_some() {
            return None;
        }
        toks.iter()
            .map(|t| match t.body {
                Body::Move(mt) => Some((
                    t.offset,
                    column(line, t.offset),
                    t.color,
                    t.written.to_string(),
                    mt,
                )),
                Body::Terminal(_) => None,
            })
            .collect()
    }

    /// What the fast path reads from `line` in `vocab`, with each token's
    /// written text decoded, and the byte offsets of the UTF-8 `text`.
    fn fast_tokens(vocab: &Ki2Vocab, bytes: &[u8], text: &str) -> Option<Vec<Read>> {
        let mut toks = Vec::new();
        if !vocab.line(bytes, &mut toks) {
            return None;
        }
        Some(
            toks.iter()
                .map(|t| {
                    // As the reader sends it: the bytes, decoded on demand.
                    let raw = &bytes[t.start..t.end];
                    let w = if vocab.sjis {
                        crate::text::WrittenText::shift_jis(raw).text().into_owned()
                    } else {
                        std::str::from_utf8(raw).unwrap_or("").to_string()
                    };
                    // The byte offset in the decoded text: column - 1 characters.
                    let off = text
                        .char_indices()
                        .nth(t.col as usize - 1)
                        .map_or(text.len(), |(i, _)| i);
                    (off, t.col, t.color, w, t.mt)
                })
                .collect(),
        )
    }

    fn sjis(s: &str) -> Option<Vec<u8>> {
        let (b, _, bad) = encoding_rs::SHIFT_JIS.encode(s);
        (!bad).then(|| b.into_owned())
    }

    #[test]
    fn plain_lines() {
        let line = "▲７六歩    △３四歩    ▲同　角成  △同銀　▲５五金左上 △５四銀右引不成";
        let want = nom_tokens(line).unwrap();
        assert_eq!(want.len(), 6);
        assert_eq!(
            fast_tokens(Ki2Vocab::utf8(), line.as_bytes(), line),
            Some(want.clone())
        );
        let b = sjis(line).unwrap();
        assert_eq!(fast_tokens(Ki2Vocab::sjis(), &b, line), Some(want));
        for odd in [
            "▲７六歩(77)",
            "▲投了",
            "▲ ７六歩",
            "▲７六歩 x",
            "▲ひよこ",
            "▲７六不",
            "",
            "  ",
        ] {
            assert_eq!(
                fast_tokens(Ki2Vocab::utf8(), odd.as_bytes(), odd),
                None,
                "{odd}"
            );
        }
    }

    #[test]
    fn sjis_table_agrees_with_encoding_rs() {
        let v = Ki2Vocab::sjis();
        let mut n = 0;
        for lead in 0x81..=0xEFu8 {
            for trail in 0..=0xFFu8 {
                let Some(i) = sjis_index(lead, trail) else {
                    continue;
                };
                if v.table[i] == OTHER {
                    continue;
                }
                let pair = [lead, trail];
                let d = encoding_rs::SHIFT_JIS
                    .decode_without_bom_handling_and_without_replacement(&pair);
                // The pair decodes to a vocabulary character of that meaning.
                let mut chars = d.as_deref().expect("decodes").chars();
                let c = chars.next().expect("one character");
                assert_eq!(chars.next(), None);
                let meaning = vocabulary().into_iter().find(|&(w, _)| w == c);
                assert_eq!(meaning.map(|(_, s)| s), Some(v.table[i]), "{c}");
                n += 1;
            }
        }
        // Everything but ☗ ☖.
        assert_eq!(n, vocabulary().len() - 2);
    }

    const FRAGMENTS: &[&str] = &[
        " ",
        "  ",
        "\t",
        "\u{3000}",
        "▲",
        "△",
        "☗",
        "☖",
        "▼",
        "▽",
        "７",
        "7",
        "六",
        "6",
        "０",
        "0",
        "同",
        "同　",
        "歩",
        "銀",
        "龍",
        "と",
        "成銀",
        "成",
        "不成",
        "不",
        "生",
        "打",
        "右",
        "左",
        "直",
        "上",
        "行",
        "寄",
        "引",
        "(77)",
        "(",
        ")",
        "投了",
        "x",
        "詰み",
        "竜",
        "王",
        "ひよこ",
        "▲７六歩",
        "△同　角成",
        "▲５五金左上",
        "九",
        "一",
    ];

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(20000))]
        /// Lines of fragments: wherever the fast path answers (in UTF-8 or
        /// Shift_JIS), nom reads the same tokens.
        #[test]
        fn fast_line_agrees_with_nom(parts in proptest::collection::vec(0usize..FRAGMENTS.len(), 0..16)) {
            let line: String = parts.iter().map(|&i| FRAGMENTS[i]).collect();
            let want = nom_tokens(&line);
            if let Some(fast) = fast_tokens(Ki2Vocab::utf8(), line.as_bytes(), &line) {
                proptest::prop_assert_eq!(Some(fast), want.clone(), "{}", line);
            }
            if let Some(b) = sjis(&line) {
                if let Some(fast) = fast_tokens(Ki2Vocab::sjis(), &b, &line) {
                    proptest::prop_assert_eq!(Some(fast), want, "{}", line);
                }
            }
        }

        /// Plain lines of moves: the fast path answers them.
        #[test]
        fn fast_line_answers(moves in proptest::collection::vec((0usize..2, 1u8..10, 0usize..9, 0usize..14, 0usize..6, 0usize..3), 1..10)) {
            let roles = ["歩", "香", "桂", "銀", "金", "角", "飛", "玉", "と", "成銀", "成香", "馬", "龍", "竜"];
            let marks = ["", "右", "左上", "直", "寄", "引"];
            let prom = ["", "成", "不成"];
            let mut line = String::new();
            for (c, f, r, role, mark, p) in moves {
                line.push_str(["▲", "△"][c]);
                if r == 0 {
                    line.push_str("同　");
                } else {
                    line.push(char::from_u32('０' as u32 + u32::from(f)).unwrap());
                    line.push(KANJI_DIGITS[r - 1]);
                }
                line.push_str(roles[role]);
                line.push_str(marks[mark]);
                line.push_str(prom[p]);
                line.push_str("    ");
            }
            let want = nom_tokens(&line);
            proptest::prop_assert!(want.is_some(), "{}", line);
            proptest::prop_assert_eq!(fast_tokens(Ki2Vocab::utf8(), line.as_bytes(), &line), want.clone(), "{}", line);
            let b = sjis(&line).unwrap();
            proptest::prop_assert_eq!(fast_tokens(Ki2Vocab::sjis(), &b, &line), want, "{}", line);
        }

        /// Arbitrary bytes read as Shift_JIS: where the fast path answers,
        /// the bytes decode without error and nom reads the same tokens.
        #[test]
        fn fast_sjis_bytes_agree(bytes in proptest::collection::vec(proptest::prelude::any::<u8>(), 0..40), prefix in 0usize..4) {
            let mut b = sjis(["", "▲７六歩", "△同　", "▲"][prefix]).unwrap();
            b.extend_from_slice(&bytes);
            let mut toks = Vec::new();
            if Ki2Vocab::sjis().line(&b, &mut toks) {
                let text = encoding_rs::SHIFT_JIS.decode_without_bom_handling_and_without_replacement(&b);
                proptest::prop_assert!(text.is_some());
                let text = text.unwrap();
                proptest::prop_assert_eq!(fast_tokens(Ki2Vocab::sjis(), &b, &text), nom_tokens(&text), "{:?}", b);
            }
        }
    }
}
