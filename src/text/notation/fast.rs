//! The KIF move line read on bytes, in front of the nom grammar
//! (`kif::grammar`): the plain shape every program writes
//! (`   1 ７六歩(77)   ( 0:01/00:00:01)+`), in UTF-8 or straight from the
//! Shift_JIS bytes of the file, so that a plain Shift_JIS move line is never
//! decoded.
//!
//! The vocabulary (spaces, digits, numerals, `同`, piece names, move words)
//! is held as the bytes of each token in the encoding ([`Vocab`]); the
//! Shift_JIS bytes are made once from the UTF-8 tables by `encoding_rs`
//! (and a token is only used when `encoding_rs` decodes its bytes back to
//! it). Whatever this path does not recognise with certainty it leaves to
//! the nom parsers (it answers `None`), so findings come from one place.
//! Proptests in `kif::grammar` check that both agree wherever this path
//! answers, in both encodings.

use super::lexicon::{digit_value, kanji_value, IDEOGRAPHIC_SPACE, KANJI_DIGITS, ROLE_NAMES};
use super::marks::RelativeMark;
use super::moves::{Dest, MoveText, Origin, Suffix, SUFFIX_WORDS};
use crate::record::MoveTime;
use crate::rules::role::Role;
use crate::rules::square::Square;
use std::sync::OnceLock;

/// The fast path's vocabulary in one encoding.
pub(crate) struct Vocab {
    /// Shift_JIS (else UTF-8).
    sjis: bool,
    /// U+3000 IDEOGRAPHIC SPACE.
    space: Box<[u8]>,
    /// `同`.
    same: Box<[u8]>,
    /// [`ROLE_NAMES`], in its order.
    roles: Tokens<Role>,
    /// [`SUFFIX_WORDS`], in its order.
    suffixes: Tokens<Suffix>,
    /// Shift_JIS only: the vocabulary's characters by their two bytes
    /// ([`sjis_index`]); `'\0'` for any other pair.
    chars: Vec<char>,
    /// Shift_JIS only: by [`sjis_index`], the character's value as a file
    /// digit ([`digit_value`], low four bits) and as a rank
    /// ([`kanji_value`], high four bits); 0 where it is none.
    values: Vec<u8>,
}

/// Lead bytes of two-byte Shift_JIS characters the vocabulary uses (JIS X
/// 0208 rows, both kanji levels).
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

/// The characters of the vocabulary (what a plain move line is made of,
/// ASCII aside).
fn vocabulary_chars() -> Vec<char> {
    let mut cs: Vec<char> = ('０'..='９').collect();
    cs.extend(KANJI_DIGITS);
    cs.push('同');
    cs.push(IDEOGRAPHIC_SPACE);
    for (w, _) in ROLE_NAMES {
        cs.extend(w.chars());
    }
    for (w, _) in SUFFIX_WORDS {
        cs.extend(w.chars());
    }
    cs.sort_unstable();
    cs.dedup();
    cs
}

/// The Shift_JIS bytes of `s`, if `encoding_rs` encodes it and decodes the
/// bytes back to it.
fn sjis_bytes(s: &str) -> Option<Box<[u8]>> {
    let (bytes, _, bad) = encoding_rs::SHIFT_JIS.encode(s);
    if bad {
        return None;
    }
    let back =
        encoding_rs::SHIFT_JIS.decode_without_bom_handling_and_without_replacement(&bytes)?;
    (back == s).then(|| bytes.into_owned().into_boxed_slice())
}

impl Vocab {
    /// The UTF-8 vocabulary.
    pub(crate) fn utf8() -> &'static Vocab {
        static V: OnceLock<Vocab> = OnceLock::new();
        V.get_or_init(|| Vocab {
            sjis: false,
            space: "\u{3000}".as_bytes().into(),
            same: "同".as_bytes().into(),
            roles: Tokens::new(
                ROLE_NAMES
                    .iter()
                    .filter_map(|&(w, r)| Token::new(w.as_bytes().into(), r))
                    .collect(),
            ),
            suffixes: Tokens::new(
                SUFFIX_WORDS
                    .iter()
                    .filter_map(|&(w, s)| Token::new(w.as_bytes().into(), s))
                    .collect(),
            ),
            chars: Vec::new(),
            values: Vec::new(),
        })
    }

    /// The Shift_JIS vocabulary (words Shift_JIS cannot write are left out:
    /// they never match, and nom reads such a line after decoding).
    pub(crate) fn sjis() -> &'static Vocab {
        static V: OnceLock<Vocab> = OnceLock::new();
        V.get_or_init(|| {
            let mut chars = vec!['\0'; 47 * 189];
            for c in vocabulary_chars() {
                let mut buf = [0; 4];
                if let Some(b) = sjis_bytes(c.encode_utf8(&mut buf)) {
                    if let [lead, trail] = *b {
                        if let Some(k) = sjis_index(lead, trail) {
                            chars[k] = c;
                        }
                    }
                }
            }
            let values = chars
                .iter()
                .map(|&c| digit_value(c).unwrap_or(0) | (kanji_value(c).unwrap_or(0) << 4))
                .collect();
            let word = |w: &str| sjis_bytes(w);
            Vocab {
                sjis: true,
                space: word("\u{3000}").expect("U+3000 is Shift_JIS"),
                same: word("同").expect("同 is Shift_JIS"),
                roles: Tokens::new(
                    ROLE_NAMES
                        .iter()
                        .filter_map(|&(w, r)| Token::new(word(w)?, r))
                        .collect(),
                ),
                suffixes: Tokens::new(
                    SUFFIX_WORDS
                        .iter()
                        .filter_map(|&(w, s)| Token::new(word(w)?, s))
                        .collect(),
                ),
                chars,
                values,
            }
        })
    }

    /// The character at the start of `b` and its length in bytes; `None`
    /// at the end, and (Shift_JIS) for a character outside the vocabulary
    /// or bytes that are not Shift_JIS: no token matches those either.
    #[inline]
    fn next_char(&self, b: &[u8]) -> Option<(char, usize)> {
        let &b0 = b.first()?;
        if b0 < 0x80 {
            return Some((b0 as char, 1));
        }
        if self.sjis {
            let &b1 = b.get(1)?;
            let c = *self.chars.get(sjis_index(b0, b1)?)?;
            return (c != '\0').then_some((c, 2));
        }
        // UTF-8 (the bytes of a `str`, from a character boundary).
        let cont = |i: usize| b.get(i).map(|&x| u32::from(x & 0x3F));
        let (c, n) = match b0 {
            0xC0..=0xDF => ((u32::from(b0 & 0x1F) << 6) | cont(1)?, 2),
            0xE0..=0xEF => ((u32::from(b0 & 0x0F) << 12) | (cont(1)? << 6) | cont(2)?, 3),
            _ => (
                (u32::from(b0 & 0x07) << 18) | (cont(1)? << 12) | (cont(2)? << 6) | cont(3)?,
                4,
            ),
        };
        Some((char::from_u32(c)?, n))
    }

    /// Skips ASCII spaces, tabs and U+3000 from `k`.
    #[inline]
    fn skip_spaces(&self, b: &[u8], mut k: usize) -> usize {
        loop {
            match b.get(k) {
                Some(b' ' | b'\t') => k += 1,
                Some(&x) if x == self.space[0] && starts(&b[k..], &self.space) => {
                    k += self.space.len()
                }
                _ => return k,
            }
        }
    }

    /// [`Vocab::skip_spaces`], adding to `wide` the bytes of the spaces
    /// skipped past their first.
    #[inline]
    fn skip_spaces_counting(&self, b: &[u8], mut k: usize, wide: &mut usize) -> usize {
        loop {
            match b.get(k) {
                Some(b' ' | b'\t') => k += 1,
                Some(&x) if x == self.space[0] && starts(&b[k..], &self.space) => {
                    k += self.space.len();
                    *wide += self.space.len() - 1;
                }
                _ => return k,
            }
        }
    }

    /// A square `７六` at `k`: the index after it and the square.
    #[inline]
    fn square(&self, b: &[u8], k: usize) -> Option<(usize, Square)> {
        if self.sjis {
            // The values straight from the table.
            let (file, n) = self.sjis_value(b, k, 0)?;
            let (rank, m) = self.sjis_value(b, k + n, 4)?;
            return Some((k + n + m, Square::new(file, rank)?));
        }
        let (f, n) = self.next_char(b.get(k..)?)?;
        let file = digit_value(f)?;
        let (r, m) = self.next_char(&b[k + n..])?;
        let rank = kanji_value(r)?;
        Some((k + n + m, Square::new(file, rank)?))
    }

    /// Shift_JIS: the value of the character at `k` as a file digit
    /// (`shift` 0, [`digit_value`]) or a rank (`shift` 4, [`kanji_value`])
    /// and its length; `None` where it is none.
    #[inline]
    fn sjis_value(&self, b: &[u8], k: usize, shift: u32) -> Option<(u8, usize)> {
        let &b0 = b.get(k)?;
        if b0 < 0x80 {
            // `1`..`9` are both; the subtraction only once that holds (an
            // ASCII byte below `0` would overflow).
            return (b'1'..=b'9').contains(&b0).then(|| (b0 - b'0', 1));
        }
        let &b1 = b.get(k + 1)?;
        let v = (*self.values.get(sjis_index(b0, b1)?)? >> shift) & 0x0F;
        (v != 0).then_some((v, 2))
    }

    /// The move text at `k` (as `moves::move_text` reads it): the index
    /// after it and the move; `None` where it fails.
    fn move_text(&self, b: &[u8], k: usize) -> Option<(usize, MoveText)> {
        let (k, dest) = match self.square(b, k) {
            Some((k, sq)) => (k, Dest::Square(sq)),
            None if starts(&b[k..], &self.same) => {
                let k = self.skip_spaces(b, k + self.same.len());
                (self.square(b, k).map_or(k, |(k, _)| k), Dest::Same)
            }
            None => return None,
        };
        let role = self.roles.find(&b[k..])?;
        let mut k = k + role.bytes.len();
        let mut mt = MoveText {
            dest,
            role: role.value,
            promote: None,
            origin: Origin::None,
            mark: RelativeMark::NONE,
            wrote_funari: false,
        };
        loop {
            let rest = &b[k..];
            if let Some(s) = self.suffixes.find(rest) {
                mt = mt.with(s.value);
                k += s.bytes.len();
                continue;
            }
            if rest.first() == Some(&b'(') {
                // `(77)`, the usual origin, at once.
                if let Some(&[_, f, r, b')']) = rest.get(..4) {
                    if (b'1'..=b'9').contains(&f) && (b'1'..=b'9').contains(&r) {
                        if let Some(sq) = Square::new(f - b'0', r - b'0') {
                            mt = mt.with(Suffix::Origin(sq));
                            k += 4;
                            continue;
                        }
                    }
                }
                let origin = self.next_char(&rest[1..]).and_then(|(f, n)| {
                    let (r, m) = self.next_char(&rest[1 + n..])?;
                    let sq = Square::new(digit_value(f)?, digit_value(r)?)?;
                    let end = 1 + n + m;
                    (rest.get(end) == Some(&b')')).then_some((end + 1, sq))
                });
                if let Some((len, sq)) = origin {
                    mt = mt.with(Suffix::Origin(sq));
                    k += len;
                    continue;
                }
            }
            return Some((k, mt));
        }
    }

    /// UTF-8 only: the end of a terminal word at `k` (`投了`), as
    /// `kif::grammar` reads it where no destination starts: up to a space,
    /// `(` or `+`. `None` where a destination starts (a move the fast path
    /// did not read), for a side named first (`先手 反則負け`, left to nom)
    /// and in Shift_JIS (such lines are decoded and read as UTF-8).
    fn terminal_word(&self, b: &[u8], k: usize) -> Option<usize> {
        if self.sjis || self.square(b, k).is_some() || starts(&b[k..], &self.same) {
            return None;
        }
        let rest = &b[k..];
        // A side mark after the number is the dialect nom reads.
        for side in ["先手", "下手", "後手", "上手", "▲", "△", "☗", "☖", "▼", "▽"]
        {
            if rest.starts_with(side.as_bytes()) {
                return None;
            }
        }
        let mut j = k;
        while let Some(&x) = b.get(j) {
            if matches!(x, b' ' | b'\t' | b'(' | b'+')
                || (x == self.space[0] && starts(&b[j..], &self.space))
            {
                break;
            }
            j += 1;
        }
        (j > k).then_some(j)
    }

    /// One field of a time at `k` (spaces, an optional `+`, ASCII digits,
    /// spaces): `Ok(None)` where there is none, `Err` where the fast path
    /// does not decide (a number too large).
    #[inline]
    fn time_field(&self, b: &[u8], k: usize) -> Result<Option<(usize, u64)>, ()> {
        let mut j = self.skip_spaces(b, k);
        if b.get(j) == Some(&b'+') {
            j += 1;
        }
        let start = j;
        let mut v: u64 = 0;
        while let Some(&d) = b.get(j) {
            if !d.is_ascii_digit() {
                break;
            }
            // `parse::<u64>` fails on overflow: left to nom.
            v = v
                .checked_mul(10)
                .and_then(|v| v.checked_add(u64::from(d - b'0')))
                .ok_or(())?;
            j += 1;
        }
        if j == start {
            return Ok(None);
        }
        Ok(Some((self.skip_spaces(b, j), v)))
    }

    /// `s`, `m:s` or `h:m:s` at `k` in milliseconds, or nothing (spaces);
    /// `Err` where the fast path does not decide.
    fn clock(&self, b: &[u8], k: usize) -> Result<(usize, Option<u64>), ()> {
        let Some((mut r, a)) = self.time_field(b, k)? else {
            return Ok((self.skip_spaces(b, k), None));
        };
        let mut fields = [a, 0, 0];
        let mut n = 1;
        while n < 3 && b.get(r) == Some(&b':') {
            match self.time_field(b, r + 1)? {
                Some((r2, v)) => {
                    fields[n] = v;
                    n += 1;
                    r = r2;
                }
                None => break,
            }
        }
        let [a, m, s] = fields;
        let secs = match n {
            1 => Some(a),
            2 => a.checked_mul(60).and_then(|x| x.checked_add(m)),
            _ => a
                .checked_mul(3600)
                .and_then(|x| x.checked_add(m.checked_mul(60)?))
                .and_then(|x| x.checked_add(s)),
        };
        let ms = secs.and_then(|s| s.checked_mul(1000)).ok_or(())?;
        Ok((r, Some(ms)))
    }

    /// A KIF time `( 0:12/00:01:05)` at `k` (on `(`): the index after it
    /// and the time; `None` where it fails or the fast path does not decide.
    fn time(&self, b: &[u8], k: usize) -> Option<(usize, MoveTime)> {
        time_plain(b, k).or_else(|| self.time_general(b, k))
    }

    /// [`Vocab::time`] for any shape: spaces around fields, `+`, one to
    /// three fields a clock, a missing total.
    fn time_general(&self, b: &[u8], k: usize) -> Option<(usize, MoveTime)> {
        let (r, spent_ms) = self.clock(b, k + 1).ok()?;
        let (r, total_ms) = match b.get(r) {
            Some(b'/') => self.clock(b, r + 1).ok()?,
            _ => (r, None),
        };
        (b.get(r) == Some(&b')')).then_some((r + 1, MoveTime { spent_ms, total_ms }))
    }

    /// A plain KIF move line (number, move, optional time, optional `+`):
    /// what `kif::grammar::kif_line` reads from it, as byte offsets; `None`
    /// for anything else (a terminal word, a side mark, an error).
    pub(crate) fn kif_line(&self, b: &[u8]) -> Option<FastKif> {
        // Bytes of the characters before the body past their first: the
        // body's column is `body - wide + 1`.
        let mut wide = 0;
        let mut k = self.skip_spaces_counting(b, 0, &mut wide);
        let digits = k;
        let mut number: u32 = 0;
        loop {
            // ASCII digits at once, the rest by character.
            if let Some(&d) = b.get(k) {
                if d.is_ascii_digit() {
                    number = number.checked_mul(10)?.checked_add(u32::from(d - b'0'))?;
                    k += 1;
                    continue;
                }
                if d < 0x80 {
                    break;
                }
            }
            let Some((c, n)) = self.next_char(&b[k..]) else {
                break;
            };
            let v = match c {
                '0'..='9' => c as u32 - '0' as u32,
                '０'..='９' => c as u32 - '０' as u32,
                _ => break,
            };
            number = number.checked_mul(10)?.checked_add(v)?;
            k += n;
            wide += n - 1;
        }
        if k == digits {
            return None;
        }
        let body = self.skip_spaces_counting(b, k, &mut wide);
        let (after, mt) = match self.move_text(b, body) {
            Some((after, mt)) => (after, Some(mt)),
            None => (self.terminal_word(b, body)?, None),
        };
        let mut k = self.skip_spaces(b, after);
        let mut time = None;
        if b.get(k) == Some(&b'(') {
            let (r, t) = self.time(b, k)?;
            time = Some(t);
            k = r;
        }
        let mut k = self.skip_spaces(b, k);
        let branch = b.get(k) == Some(&b'+');
        if branch {
            k = self.skip_spaces(b, k + 1);
        }
        Some(FastKif {
            number,
            body,
            column: (body - wide + 1) as u32,
            written_end: after,
            mt,
            time,
            branch,
            trailing: (k < b.len()).then_some(k),
        })
    }

    /// Decodes `b` (Shift_JIS made only of ASCII and the vocabulary's
    /// characters, as a matched move text is) into `out`; `None` if some
    /// character is not among them.
    pub(crate) fn decode_into(&self, b: &[u8], out: &mut String) -> Option<()> {
        out.clear();
        self.decode_each(b, |c| {
            out.push(c);
            true
        })
    }

    /// Decodes `b` as [`Vocab::decode_into`] does, a character at a time
    /// into `f`, until `f` answers `false`; `None` if some character is
    /// not in the vocabulary.
    pub(crate) fn decode_each(&self, b: &[u8], mut f: impl FnMut(char) -> bool) -> Option<()> {
        let mut k = 0;
        while k < b.len() {
            let (c, n) = self.next_char(&b[k..])?;
            if !f(c) {
                break;
            }
            k += n;
        }
        Some(())
    }
}

/// A word of the vocabulary in one encoding, with its value.
struct Token<T> {
    /// Its first two bytes (every word has two or more).
    head: [u8; 2],
    bytes: Box<[u8]>,
    value: T,
}

impl<T> Token<T> {
    fn new(bytes: Box<[u8]>, value: T) -> Option<Token<T>> {
        let head = [*bytes.first()?, *bytes.get(1)?];
        Some(Token { head, bytes, value })
    }
}

/// Words of the vocabulary, in their order, found by their first two
/// bytes.
struct Tokens<T> {
    list: Vec<Token<T>>,
    /// By [`slot`] of a token's first two bytes: a bit for each token
    /// (its index in `list`) whose first two bytes have that slot.
    slots: Box<[u32; 256]>,
}

/// The slot of two first bytes in [`Tokens::slots`].
#[inline]
fn slot(b0: u8, b1: u8) -> usize {
    usize::from(b0.wrapping_mul(0x2D) ^ b1)
}

impl<T> Tokens<T> {
    fn new(list: Vec<Token<T>>) -> Tokens<T> {
        assert!(list.len() <= 32, "a token list has more than 32 words");
        let mut slots = Box::new([0u32; 256]);
        for (i, t) in list.iter().enumerate() {
            slots[slot(t.head[0], t.head[1])] |= 1 << i;
        }
        Tokens { list, slots }
    }

    /// The first token (in the list's order) that `b` starts with.
    #[inline]
    fn find(&self, b: &[u8]) -> Option<&Token<T>> {
        let head = [*b.first()?, *b.get(1)?];
        let mut m = self.slots[slot(head[0], head[1])];
        while m != 0 {
            let t = &self.list[m.trailing_zeros() as usize];
            if t.head == head && starts(&b[2..], &t.bytes[2..]) {
                return Some(t);
            }
            m &= m - 1;
        }
        None
    }
}

/// Whether `b` starts with the token `w` (tokens are short: compared a
/// byte at a time, without a call to `memcmp`).
#[inline]
fn starts(b: &[u8], w: &[u8]) -> bool {
    if b.len() < w.len() {
        return false;
    }
    let mut i = 0;
    while i < w.len() {
        if b[i] != w[i] {
            return false;
        }
        i += 1;
    }
    true
}

/// The time as every program writes it, `( m:ss/hh:mm:ss)` (spaces after
/// `(`, one to three digits of minutes, then two digits a field), at `k`;
/// `None` for any other shape, which the general path reads. What it
/// answers is what the general path (and nom) read from the same bytes.
#[inline]
fn time_plain(b: &[u8], k: usize) -> Option<(usize, MoveTime)> {
    let r = b.get(k..)?;
    let mut j = 1;
    while r.get(j) == Some(&b' ') {
        j += 1;
    }
    let digit = |d: u8| -> Option<u64> {
        let v = d.wrapping_sub(b'0');
        (v < 10).then_some(u64::from(v))
    };
    let mut m = digit(*r.get(j)?)?;
    j += 1;
    for _ in 0..2 {
        match r.get(j).and_then(|&d| digit(d)) {
            Some(d) => {
                m = m * 10 + d;
                j += 1;
            }
            None => break,
        }
    }
    // `:ss/hh:mm:ss)`: 13 bytes.
    let t: &[u8; 13] = r.get(j..j + 13)?.try_into().ok()?;
    if t[0] != b':' || t[3] != b'/' || t[6] != b':' || t[9] != b':' || t[12] != b')' {
        return None;
    }
    let two = |i: usize| Some(digit(t[i])? * 10 + digit(t[i + 1])?);
    let s = two(1)?;
    let (hh, mm, ss) = (two(4)?, two(7)?, two(10)?);
    Some((
        k + j + 13,
        MoveTime {
            spent_ms: Some((m * 60 + s) * 1000),
            total_ms: Some((hh * 3600 + mm * 60 + ss) * 1000),
        },
    ))
}

/// A KIF move line read by [`Vocab::kif_line`], as byte offsets in it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct FastKif {
    /// The move number.
    pub(crate) number: u32,
    /// Where the move text starts.
    pub(crate) body: usize,
    /// The 1-based column (in characters) of the move text.
    pub(crate) column: u32,
    /// Where the move text ends.
    pub(crate) written_end: usize,
    /// The move; `None` for a terminal word (UTF-8 only), which is the
    /// text from `body` to `written_end`.
    pub(crate) mt: Option<MoveText>,
    /// The time, if written.
    pub(crate) time: Option<MoveTime>,
    /// The trailing `+` branch mark.
    pub(crate) branch: bool,
    /// Where unexpected trailing text starts, if any.
    pub(crate) trailing: Option<usize>,
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every vocabulary character Shift_JIS can write is in the table, and
    /// the table's bytes decode (by `encoding_rs`) to its character.
    #[test]
    fn sjis_table_agrees_with_encoding_rs() {
        let v = Vocab::sjis();
        let mut n = 0;
        for c in vocabulary_chars() {
            let s = c.to_string();
            let (b, _, bad) = encoding_rs::SHIFT_JIS.encode(&s);
            if bad {
                continue;
            }
            assert_eq!(v.next_char(&b), Some((c, 2)), "{c}");
            n += 1;
        }
        assert!(n > 60, "{n}");
        for lead in 0x80..=0xFFu8 {
            for trail in 0..=0xFFu8 {
                if let Some((c, 2)) = v.next_char(&[lead, trail]) {
                    let pair = [lead, trail];
                    let d = encoding_rs::SHIFT_JIS
                        .decode_without_bom_handling_and_without_replacement(&pair);
                    assert_eq!(d.as_deref(), Some(c.to_string().as_str()));
                }
            }
        }
        assert_eq!(&*v.same, &[0x93, 0xAF]);
        assert_eq!(&*v.space, &[0x81, 0x40]);
    }

    /// A Shift_JIS square whose second byte is ASCII below `0` (a fuzz
    /// finding: the subtraction once ran before the range check) is no
    /// square, and every ASCII byte reads as a digit only from `1` to `9`.
    #[test]
    fn sjis_square_with_ascii_below_the_digits() {
        let v = Vocab::sjis();
        let (seven, _, _) = encoding_rs::SHIFT_JIS.encode("７");
        for x in 0..0x80u8 {
            let want = (b'1'..=b'9').contains(&x).then(|| (x - b'0', 1));
            assert_eq!(v.sjis_value(&[x], 0, 0), want, "{x:#04x}");
            assert_eq!(v.sjis_value(&[x], 0, 4), want, "{x:#04x}");
            let b = [&*seven, &[x][..]].concat();
            let sq = want.and_then(|(r, _)| Square::new(7, r));
            assert_eq!(v.square(&b, 0).map(|(_, s)| s), sq, "{x:#04x}");
        }
    }

    const TIME_PARTS: &[&str] = &[
        "(",
        ")",
        " ",
        "  ",
        "\u{3000}",
        "0",
        "5",
        "9",
        "00",
        "59",
        "123",
        "9999",
        ":",
        "/",
        "+",
        "x",
        "( 0:01/00:00:01)",
    ];

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(20000))]
        /// The plain time shape agrees with the general path wherever it
        /// answers (the general path agrees with nom: `kif::grammar`).
        #[test]
        fn plain_time_agrees(parts in proptest::collection::vec(0usize..TIME_PARTS.len(), 0..12)) {
            let t: String = std::iter::once("(").chain(parts.iter().map(|&i| TIME_PARTS[i])).collect();
            let v = Vocab::utf8();
            if let Some(p) = time_plain(t.as_bytes(), 0) {
                proptest::prop_assert_eq!(Some(p), v.time_general(t.as_bytes(), 0), "{}", t);
            }
        }

        #[test]
        fn plain_time_answers(m in 0u64..1000, s in 0u64..60, h in 0u64..100, mm in 0u64..60, pad in 0usize..3) {
            let t = format!("({}{m}:{s:02}/{h:02}:{mm:02}:{s:02})x", " ".repeat(pad));
            let p = time_plain(t.as_bytes(), 0);
            proptest::prop_assert!(p.is_some(), "{}", t);
            proptest::prop_assert_eq!(p, Vocab::utf8().time_general(t.as_bytes(), 0), "{}", t);
        }
    }
}
