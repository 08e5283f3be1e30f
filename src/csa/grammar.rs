//! CSA statement syntax: one statement (a line, or a comma-separated part of
//! a line) becomes a [`Statement`] without looking at any position.
//!
//! The grammar is written as small nom 8 parsers over the statement's bytes
//! (CSA is ASCII; other bytes only appear in comments and header values,
//! which are handed back as text). Errors are the shared
//! [`SyntaxError`](crate::text::syntax::SyntaxError): where the parser
//! stopped and what it expected there. The reader turns one into a finding
//! once, at the line ([`SyntaxError::offset_in`] for the place, [`message`]
//! for the words).

use crate::rules::color::Color;
use crate::rules::role::Role;
use crate::rules::square::Square;
use crate::text::syntax::{expect, into_error, PResult, SyntaxError};
use arrayvec::ArrayVec;
use nom::branch::alt;
use nom::bytes::complete::{tag, take_till, take_while, take_while_m_n};
use nom::character::complete::{char, digit1, one_of, satisfy};
use nom::combinator::{cut, eof, map, map_opt, not, opt, peek, recognize, value};
use nom::error::context;
use nom::sequence::{preceded, terminated};
use nom::Parser;

/// The input of the grammar: the bytes of one statement.
type In<'a> = &'a [u8];

/// The grammar's error: the shared syntax error over the statement's bytes.
pub type Error<'a> = SyntaxError<&'a [u8]>;

/// How messages name the end of the input.
pub const END: &str = "the end of the statement";

/// Labels that are whole messages rather than the `expected …` part (they
/// say what is wrong with a value that has the right shape).
const TIME_TOO_LARGE: &str = "time too large";
const TOO_MANY_REMOVED: &str = "too many pieces removed";
const TOO_MANY_PLACED: &str = "too many placements on one line";

/// The message of a grammar error: `expected …, found …` (quoting the
/// statement from the error on, or naming [`END`]), or the whole message for
/// the few labels that are one.
pub fn message(e: &Error<'_>) -> String {
    match e.expected {
        TIME_TOO_LARGE | TOO_MANY_REMOVED | TOO_MANY_PLACED => e.expected.to_string(),
        _ => e.message(END),
    }
}

pub use crate::text::notation::csa::CsaMove;

/// One placement of a `P+`/`P-` line: a square (or the hand) and a piece,
/// `None` for `AL`.
pub type Placement = (Option<Square>, Option<Role>);

/// Placements of one `P+`/`P-` line, with the byte offset of each item.
pub type Placements = ArrayVec<(usize, Placement), 96>;

/// Pieces removed by a `PI` line, with the byte offset of each item.
pub type Removals = ArrayVec<(usize, (Square, Role)), 40>;

/// The nine cells of a board row, file 9 first.
pub type Row = [Option<(Color, Role)>; 9];

/// One CSA statement.
#[derive(Clone, Debug, PartialEq)]
pub enum Statement<'a> {
    /// `'text` (text without the `'`; `'*…` keeps its `*`).
    Comment(&'a str),
    /// `'CSA encoding=…` (V3.0).
    Encoding(&'a str),
    /// `V2.2` etc. (the text after `V`).
    Version(&'a str),
    /// `N+name` / `N-name`.
    Name(Color, &'a str),
    /// `$KEY:value`.
    Info(&'a str, &'a str),
    /// `PI` with the pieces removed.
    Pi(Box<Removals>),
    /// `P1`…`P9`: the rank, its nine cells from file 9 to file 1, and
    /// whether the cells were not in the 3-character layout.
    Row(u8, Row, bool),
    /// `P+…` / `P-…`.
    Place(Color, Box<Placements>),
    /// `+` or `-` alone.
    Turn(Color),
    /// A move.
    Move(CsaMove),
    /// `%NAME` (the text after `%`).
    Special(&'a str),
    /// `T…`: milliseconds, and whether a fraction was written.
    Time(u64, bool),
    /// `/`.
    Separator,
}

/// An error at `at` (a recoverable one: `alt` may still try another branch).
fn fail<'a, O>(at: In<'a>, expected: &'static str) -> PResult<In<'a>, O> {
    Err(nom::Err::Error(SyntaxError::new(at, expected)))
}

// ---------------------------------------------------------------- tokens

/// `+` Black, `-` White.
fn sign(i: In<'_>) -> PResult<In<'_>, Color> {
    alt((
        value(Color::Black, char('+')),
        value(Color::White, char('-')),
    ))
    .parse(i)
}

fn digit(i: In<'_>) -> PResult<In<'_>, u8> {
    map(satisfy(|c| c.is_ascii_digit()), |c| c as u8 - b'0').parse(i)
}

/// Two digits: file and rank (either may be 0 here; the callers check).
fn digits2(i: In<'_>) -> PResult<In<'_>, (u8, u8)> {
    (digit, digit).parse(i)
}

/// A two-letter piece code (any two ASCII upper-case letters).
fn code(i: In<'_>) -> PResult<In<'_>, In<'_>> {
    take_while_m_n(2, 2, |c: u8| c.is_ascii_uppercase()).parse(i)
}

/// The standard CSA piece codes (doubutsu codes, KR and ZO, are not
/// accepted): one match on the two letters, no UTF-8 check and no string
/// comparisons.
fn role_from_bytes(code: &[u8]) -> Option<Role> {
    let &[a, b] = code else {
        return None;
    };
    Some(match (a, b) {
        (b'F', b'U') => Role::Pawn,
        (b'K', b'Y') => Role::Lance,
        (b'K', b'E') => Role::Knight,
        (b'G', b'I') => Role::Silver,
        (b'K', b'I') => Role::Gold,
        (b'K', b'A') => Role::Bishop,
        (b'H', b'I') => Role::Rook,
        (b'O', b'U') => Role::King,
        (b'T', b'O') => Role::ProPawn,
        (b'N', b'Y') => Role::ProLance,
        (b'N', b'K') => Role::ProKnight,
        (b'N', b'G') => Role::ProSilver,
        (b'U', b'M') => Role::Horse,
        (b'R', b'Y') => Role::Dragon,
        _ => return None,
    })
}

/// A standard piece code.
fn role(i: In<'_>) -> PResult<In<'_>, Role> {
    map_opt(code, role_from_bytes).parse(i)
}

/// A piece code, as one token to a reader.
fn piece(i: In<'_>) -> PResult<In<'_>, Role> {
    expect("a piece code (FU, KY, … RY)", role).parse(i)
}

/// A square 11…99 from two digits.
fn square(i: In<'_>) -> PResult<In<'_>, Square> {
    map_opt(digits2, |(f, r)| Square::new(f, r)).parse(i)
}

/// `00` (the hand, `None`) or a square 11…99.
fn square_or_hand(i: In<'_>) -> PResult<In<'_>, Option<Square>> {
    map_opt(digits2, |d| match d {
        (0, 0) => Some(None),
        (f, r) => Square::new(f, r).map(Some),
    })
    .parse(i)
}

/// The end of the statement, named `what` when something else is there.
fn end<'a>(what: &'static str) -> impl FnMut(In<'a>) -> PResult<In<'a>, In<'a>> {
    expect(what, eof)
}

// ---------------------------------------------------------------- moves

/// The origin: `00` for a drop, else a square 11…99.
fn origin(i: In<'_>) -> PResult<In<'_>, Option<Square>> {
    preceded(
        peek(expect(
            "the origin square (two digits, `00` from hand)",
            digits2,
        )),
        expect("an origin square 11…99 or 00", square_or_hand),
    )
    .parse(i)
}

/// The destination square.
fn destination(i: In<'_>) -> PResult<In<'_>, Square> {
    preceded(
        peek(expect("the destination square (two digits)", digits2)),
        expect("a destination square 11…99", square),
    )
    .parse(i)
}

/// A whole move statement: `+7776FU`, `-0055KA`.
pub fn csa_move(i: In<'_>) -> PResult<In<'_>, CsaMove> {
    map(
        (
            expect("`+` or `-`", sign),
            cut((origin, destination, piece, end("the end of the move"))),
        ),
        |(color, (from, to, role, _))| CsaMove {
            color,
            from,
            to,
            role,
        },
    )
    .parse(i)
}

/// Parses a move statement such as `+7776FU` or `-0055KA`.
pub fn parse_move(s: &str) -> Result<CsaMove, Error<'_>> {
    let b = s.as_bytes();
    if let Some(m) = quick_move(b) {
        return Ok(m);
    }
    csa_move(b).map(|(_, m)| m).map_err(|e| into_error(e, b))
}

/// The common well-formed move (`+7776FU`) read straight from its seven
/// bytes; `None` sends anything else (and every error) to the grammar,
/// which is the reference (a test checks they agree).
#[inline]
pub(crate) fn quick_move(b: &[u8]) -> Option<CsaMove> {
    let &[sign, ff, fr, tf, tr, c1, c2] = b else {
        return None;
    };
    let color = match sign {
        b'+' => Color::Black,
        b'-' => Color::White,
        _ => return None,
    };
    let digit = |d: u8| d.is_ascii_digit().then(|| d - b'0');
    let from = match (digit(ff)?, digit(fr)?) {
        (0, 0) => None,
        (f, r) => Some(Square::new(f, r)?),
    };
    let to = Square::new(digit(tf)?, digit(tr)?)?;
    if !(c1.is_ascii_uppercase() && c2.is_ascii_uppercase()) {
        return None;
    }
    let role = role_from_bytes(&b[5..])?;
    Some(CsaMove {
        color,
        from,
        to,
        role,
    })
}

// ---------------------------------------------------------------- times

/// Whole seconds as milliseconds, if they fit.
fn whole_ms(digits: In<'_>) -> Option<u64> {
    digits
        .iter()
        .try_fold(0u64, |ms, &d| {
            ms.checked_mul(10)?.checked_add(u64::from(d - b'0'))
        })?
        .checked_mul(1000)
}

/// One to three decimals as milliseconds; a fourth is an error there.
fn decimals(i: In<'_>) -> PResult<In<'_>, u64> {
    map(
        terminated(
            take_while_m_n(1, 3, |c: u8| c.is_ascii_digit()),
            expect("at most three decimals", not(digit)),
        ),
        |d: In<'_>| {
            let v = d.iter().fold(0u64, |v, &c| v * 10 + u64::from(c - b'0'));
            v * 10u64.pow(3 - d.len() as u32)
        },
    )
    .parse(i)
}

/// The shape of a time after `T`: `<seconds>[.<digits>]` and nothing more.
fn time_shape(i: In<'_>) -> PResult<In<'_>, ()> {
    value(
        (),
        (
            expect("seconds (digits) after `T`", digit1),
            opt(preceded(char('.'), digit1)),
            end("the end of the time"),
        ),
    )
    .parse(i)
}

/// The value of a time of the right shape, in milliseconds.
fn time_value(i: In<'_>) -> PResult<In<'_>, (u64, bool)> {
    let (rest, (ms, frac)) = (
        expect(TIME_TOO_LARGE, map_opt(digit1, whole_ms)),
        opt(preceded(char('.'), cut(decimals))),
    )
        .parse(i)?;
    match ms.checked_add(frac.unwrap_or(0)) {
        Some(ms) => Ok((rest, (ms, frac.is_some()))),
        None => fail(i, TIME_TOO_LARGE),
    }
}

/// `T<seconds>[.<1–3 digits>]`: milliseconds, and whether a fraction was
/// written.
pub fn time(i: In<'_>) -> PResult<In<'_>, (u64, bool)> {
    preceded(
        expect("seconds (digits) after `T`", char('T')),
        cut(preceded(peek(time_shape), time_value)),
    )
    .parse(i)
}

/// `T` and whole seconds (up to 15 digits, so no overflow): the common
/// time statement without the grammar (a test checks they agree).
#[inline]
pub(crate) fn quick_time(b: &[u8]) -> Option<u64> {
    let digits = b.strip_prefix(b"T")?;
    if digits.is_empty() || digits.len() > 15 {
        return None;
    }
    let mut secs = 0u64;
    for &d in digits {
        if !d.is_ascii_digit() {
            return None;
        }
        secs = secs * 10 + u64::from(d - b'0');
    }
    Some(secs * 1000)
}

/// Parses `T<seconds>[.<1–3 digits>]` into milliseconds.
#[cfg(test)]
pub fn parse_time(s: &str) -> Result<(u64, bool), Error<'_>> {
    let b = s.as_bytes();
    if let Some(ms) = quick_time(b) {
        return Ok((ms, false));
    }
    time(b).map(|(_, t)| t).map_err(|e| into_error(e, b))
}

// ---------------------------------------------------------------- positions

/// Items of a `PI` or `P±` line into a fixed-capacity list with the byte
/// offset of each (`base` is the offset of the first). A loop rather than
/// `many0`: the list is an `ArrayVec` (no allocation per line) and a full
/// list is an error at the item that does not fit.
fn items<'a, T, const N: usize>(
    base: usize,
    mut item: impl Parser<In<'a>, Output = T, Error = Error<'a>>,
    too_many: &'static str,
) -> impl FnMut(In<'a>) -> PResult<In<'a>, ArrayVec<(usize, T), N>> {
    move |i: In<'a>| {
        let mut out = ArrayVec::new();
        let mut rest = i;
        while !rest.is_empty() {
            let at = base + (i.len() - rest.len());
            let (next, v) = item.parse(rest)?;
            if out.try_push((at, v)).is_err() {
                return fail(rest, too_many);
            }
            rest = next;
        }
        Ok((rest, out))
    }
}

/// One item of `PI`: a square and the piece removed from it (`82HI`).
fn removal(i: In<'_>) -> PResult<In<'_>, (Square, Role)> {
    preceded(
        peek(expect("a square and piece like `82HI`", (digits2, code))),
        (expect("a square 11…99", square), piece),
    )
    .parse(i)
}

/// One item of `P+`/`P-`: a square (`00` the hand) and a piece; `00AL`
/// (`None`) is every piece left.
fn placement(i: In<'_>) -> PResult<In<'_>, Placement> {
    const CODE: &str = "a piece code (FU, KY, … RY) or `AL`";
    let (rest, sq) = preceded(
        peek(expect(
            "a square and piece like `55KA`, `00FU` or `00AL`",
            (digits2, code),
        )),
        expect("a square", square_or_hand),
    )
    .parse(i)?;
    let (rest, role) = match sq {
        None => expect(CODE, alt((value(None, tag("AL")), map(role, Some)))).parse(rest)?,
        Some(_) => expect(CODE, map(role, Some)).parse(rest)?,
    };
    Ok((rest, (sq, role)))
}

/// A cell of the spec's fixed layout: a sign and a piece code, or up to
/// three bytes with a `*` in them (the last cell may lose its spaces).
fn fixed_cell(i: In<'_>) -> PResult<In<'_>, Option<(Color, Role)>> {
    alt((
        map((sign, role), Some),
        value(
            None,
            preceded(not(sign), peek_star(take_while_m_n(1, 3, |_: u8| true))),
        ),
    ))
    .parse(i)
}

/// `p`, if what it took holds a `*`.
fn peek_star<'a>(
    mut p: impl Parser<In<'a>, Output = In<'a>, Error = Error<'a>>,
) -> impl FnMut(In<'a>) -> PResult<In<'a>, In<'a>> {
    move |i: In<'a>| {
        let (rest, cell) = p.parse(i)?;
        if cell.contains(&b'*') {
            Ok((rest, cell))
        } else {
            fail(i, "a cell")
        }
    }
}

/// Nine cells of the fixed layout, then only spaces.
fn fixed_row(i: In<'_>) -> PResult<In<'_>, Row> {
    let mut cells = [None; 9];
    let mut rest = i;
    for cell in cells.iter_mut() {
        let (next, c) = fixed_cell(rest)?;
        *cell = c;
        rest = next;
    }
    let (rest, _) = (take_while(|c| c == b' '), eof).parse(rest)?;
    Ok((rest, cells))
}

fn spaces(i: In<'_>) -> PResult<In<'_>, In<'_>> {
    take_while(|c| c == b' ').parse(i)
}

/// A cell read as a token: `*`, or a sign and a piece code.
fn loose_cell(i: In<'_>) -> PResult<In<'_>, Option<(Color, Role)>> {
    let (i, _) = spaces(i)?;
    if i.is_empty() {
        return fail(i, "nine cells");
    }
    context(
        "a cell (` * ` or a sign and a piece code)",
        alt((value(None, char('*')), map((sign, cut(piece)), Some))),
    )
    .parse(i)
}

/// Nine cells as tokens (spaces between them ignored), then the end.
fn loose_row(i: In<'_>) -> PResult<In<'_>, Row> {
    let mut cells = [None; 9];
    let mut rest = i;
    for cell in cells.iter_mut() {
        let (next, c) = loose_cell(rest)?;
        *cell = c;
        rest = next;
    }
    let (rest, _) = preceded(spaces, end("the end of the row after nine cells")).parse(rest)?;
    Ok((rest, cells))
}

/// One board row after `Pn`: by fixed 3-character cells when they fit, else
/// as tokens, which accepts cells collapsed by whitespace folding (the flag
/// tells whether the fallback was needed). Errors are the token reading's.
fn row(i: In<'_>) -> PResult<In<'_>, (Row, bool)> {
    alt((
        map(fixed_row, |r| (r, false)),
        cut(map(loose_row, |r| (r, true))),
    ))
    .parse(i)
}

/// Parses one board row of statement `s` from byte `base` (after `Pn`).
#[cfg(test)]
pub fn parse_row(s: &str, base: usize) -> Result<(Row, bool), Error<'_>> {
    let b = s.as_bytes();
    let i = b.get(base..).unwrap_or_default();
    row(i).map(|(_, r)| r).map_err(|e| into_error(e, i))
}

// ---------------------------------------------------------------- statements

/// `%NAME`, `%+ILLEGAL_ACTION`: the name.
fn special(i: In<'_>) -> PResult<In<'_>, In<'_>> {
    preceded(
        char('%'),
        cut(terminated(
            expect(
                "a special name after `%`",
                recognize((
                    opt(one_of("+-")),
                    take_while_m_n(1, 64, |c: u8| c.is_ascii_uppercase() || c == b'_'),
                )),
            ),
            end("the end of the special"),
        )),
    )
    .parse(i)
}

/// `$KEY:value`: the key and the value (the first `:` ends the key).
fn info(i: In<'_>) -> PResult<In<'_>, (In<'_>, In<'_>)> {
    let (rest, (key, _)) = preceded(
        char('$'),
        cut((
            take_till(|c| c == b':'),
            expect("`:` after the key", char(':')),
        )),
    )
    .parse(i)?;
    if key.is_empty() {
        return Err(nom::Err::Failure(SyntaxError::new(
            &i[1..],
            "a key after `$`",
        )));
    }
    Ok((&rest[rest.len()..], (key, rest)))
}

/// `N+name` / `N-name`.
fn name(i: In<'_>) -> PResult<In<'_>, (Color, In<'_>)> {
    preceded(char('N'), cut((expect("`+` or `-` after `N`", sign), rest))).parse(i)
}

/// The rest of the statement.
fn rest(i: In<'_>) -> PResult<In<'_>, In<'_>> {
    Ok((&i[i.len()..], i))
}

/// What follows `P`: `I`, a rank, `+` or `-`.
fn p_kind(i: In<'_>) -> PResult<In<'_>, u8> {
    preceded(
        char('P'),
        cut(expect(
            "`I`, a rank 1…9, `+` or `-` after `P`",
            map(satisfy(|c| matches!(c, 'I' | '+' | '-' | '1'..='9')), |c| {
                c as u8
            }),
        )),
    )
    .parse(i)
}

/// A `P` statement after its kind byte was read.
fn position_statement(kind: u8, i: In<'_>) -> PResult<In<'_>, Statement<'static>> {
    match kind {
        b'I' => map(items(2, removal, TOO_MANY_REMOVED), |v| {
            Statement::Pi(Box::new(v))
        })
        .parse(i),
        b'+' | b'-' => {
            let color = if kind == b'+' {
                Color::Black
            } else {
                Color::White
            };
            map(items(2, placement, TOO_MANY_PLACED), move |v| {
                Statement::Place(color, Box::new(v))
            })
            .parse(i)
        }
        d => map(row, move |(cells, loose)| {
            Statement::Row(d - b'0', cells, loose)
        })
        .parse(i),
    }
}

/// The text of `s` that `part` (a slice of `s`'s bytes cut at ASCII
/// delimiters, so at character boundaries) covers.
fn text<'a>(s: &'a str, part: &[u8]) -> &'a str {
    let start = part.as_ptr() as usize - s.as_ptr() as usize;
    s.get(start..start + part.len()).unwrap_or_default()
}

/// Classifies one statement (already trimmed at the end, non-empty). The
/// kind of a statement is told by its first byte, so a `match` on it picks
/// the one parser to run (an `alt` would try them in turn).
pub fn parse_statement(s: &str) -> Result<Statement<'_>, Error<'_>> {
    let b = s.as_bytes();
    let r: PResult<In<'_>, Statement<'_>> = match b.first().copied().unwrap_or(b' ') {
        b'\'' => {
            let t = &s[1..];
            Ok((
                &b[b.len()..],
                match t.strip_prefix("CSA encoding=") {
                    Some(enc) => Statement::Encoding(enc),
                    None => Statement::Comment(t),
                },
            ))
        }
        b'V' => Ok((&b[b.len()..], Statement::Version(&s[1..]))),
        b'N' => name(b).map(|(r, (c, n))| (r, Statement::Name(c, text(s, n)))),
        b'$' => info(b).map(|(r, (k, v))| (r, Statement::Info(text(s, k), text(s, v)))),
        b'P' => p_kind(b).and_then(|(r, kind)| position_statement(kind, r)),
        b'+' | b'-' if b.len() == 1 => Ok((
            &b[1..],
            Statement::Turn(if b[0] == b'+' {
                Color::Black
            } else {
                Color::White
            }),
        )),
        b'+' | b'-' => match quick_move(b) {
            Some(m) => Ok((&b[b.len()..], Statement::Move(m))),
            None => csa_move(b).map(|(r, m)| (r, Statement::Move(m))),
        },
        b'%' => special(b).map(|(r, n)| (r, Statement::Special(text(s, n)))),
        b'T' => match quick_time(b) {
            Some(ms) => Ok((&b[b.len()..], Statement::Time(ms, false))),
            None => time(b).map(|(r, (ms, f))| (r, Statement::Time(ms, f))),
        },
        b'/' if b.len() == 1 => Ok((&b[1..], Statement::Separator)),
        _ => fail(b, "a CSA statement"),
    };
    r.map(|(_, st)| st).map_err(|e| into_error(e, b))
}

/// Whether a statement starting with this byte runs to the end of the line
/// (commas inside it do not separate statements).
pub fn runs_to_end_of_line(first: u8) -> bool {
    matches!(first, b'\'' | b'N' | b'$')
}

#[cfg(test)]
mod tests {
    use super::*;

    fn err(s: &str) -> (usize, String) {
        let e = parse_statement(s).unwrap_err();
        (e.offset_in(&s.as_bytes()), message(&e))
    }

    #[test]
    fn moves() {
        let m = parse_move("+7776FU").unwrap();
        assert_eq!(m.color, Color::Black);
        assert_eq!(m.from, Square::new(7, 7));
        assert_eq!(m.to, Square::new(7, 6).unwrap());
        assert_eq!(m.role, Role::Pawn);
        let d = parse_move("-0055KA").unwrap();
        assert_eq!(d.from, None);
        let off = |s: &str| parse_move(s).unwrap_err().offset_in(&s.as_bytes());
        assert_eq!(off("+7776XX"), 5);
        assert_eq!(off("+7706FU"), 3);
        assert_eq!(off("+77a6FU"), 3);
        assert_eq!(off("+7776FUx"), 7);
        assert_eq!(
            err("+7776FUx"),
            (7, "expected the end of the move, found `x`".into())
        );
        assert_eq!(
            err("+7x"),
            (
                1,
                "expected the origin square (two digits, `00` from hand), found `7x`".into()
            )
        );
        assert_eq!(
            err("+7076FU"),
            (
                1,
                "expected an origin square 11…99 or 00, found `7076FU`".into()
            )
        );
        assert_eq!(
            err("+7776"),
            (
                5,
                "expected a piece code (FU, KY, … RY), found the end of the statement".into()
            )
        );
    }

    #[test]
    fn times() {
        assert_eq!(parse_time("T12").unwrap(), (12_000, false));
        assert_eq!(parse_time("T2.5").unwrap(), (2_500, true));
        assert_eq!(parse_time("T6.123").unwrap(), (6_123, true));
        assert!(parse_time("T6.1234").is_err());
        assert!(parse_time("T").is_err());
        assert!(parse_time("T99999999999999999999999").is_err());
        assert_eq!(
            err("T99999999999999999999999"),
            (1, "time too large".into())
        );
        assert_eq!(
            err("T6.1234"),
            (6, "expected at most three decimals, found `4`".into())
        );
        assert_eq!(
            err("T1."),
            (2, "expected the end of the time, found `.`".into())
        );
        assert_eq!(
            err("T"),
            (
                1,
                "expected seconds (digits) after `T`, found the end of the statement".into()
            )
        );
    }

    #[test]
    fn rows() {
        let (r, loose) = parse_row("P2 * -HI *  *  *  *  * -KA * ", 2).unwrap();
        assert!(!loose);
        assert_eq!(r[1], Some((Color::White, Role::Rook)));
        assert_eq!(r[7], Some((Color::White, Role::Bishop)));
        let (collapsed, loose) = parse_row("P2 * -HI * * * * * -KA *", 2).unwrap();
        assert!(loose);
        assert_eq!(r, collapsed);
        assert_eq!(
            parse_row("P2 * -HI *  *  *  *  * -KA *.", 2).unwrap(),
            (r, false)
        );
        assert_eq!(
            parse_row("P2 * -HI *  *  *  *  * -KA *", 2).unwrap(),
            (r, false)
        );
        assert!(parse_row("P2 * -HI", 2).is_err());
        assert_eq!(
            err("P2 * -HI"),
            (
                8,
                "expected nine cells, found the end of the statement".into()
            )
        );
        assert_eq!(
            err("P2 * -HX"),
            (6, "expected a piece code (FU, KY, … RY), found `HX`".into())
        );
        assert_eq!(
            err("P2 * * * * * * * * * *"),
            (
                21,
                "expected the end of the row after nine cells, found `*`".into()
            )
        );
    }

    #[test]
    fn statements() {
        assert_eq!(parse_statement("+").unwrap(), Statement::Turn(Color::Black));
        assert_eq!(
            parse_statement("%+ILLEGAL_ACTION").unwrap(),
            Statement::Special("+ILLEGAL_ACTION")
        );
        assert_eq!(
            parse_statement("$EVENT:a:b").unwrap(),
            Statement::Info("EVENT", "a:b")
        );
        assert_eq!(
            parse_statement("$イベント:名人戦").unwrap(),
            Statement::Info("イベント", "名人戦")
        );
        assert_eq!(
            parse_statement("N-後手").unwrap(),
            Statement::Name(Color::White, "後手")
        );
        assert_eq!(
            parse_statement("'**30").unwrap(),
            Statement::Comment("**30")
        );
        assert!(matches!(parse_statement("PI82HI22KA").unwrap(), Statement::Pi(v) if v.len() == 2));
        assert!(
            matches!(parse_statement("P+00AL").unwrap(), Statement::Place(Color::Black, v) if v[0] == (2, (None, None)))
        );
        assert_eq!(
            err("$:x"),
            (1, "expected a key after `$`, found `:x`".into())
        );
        assert_eq!(
            err("$"),
            (
                1,
                "expected `:` after the key, found the end of the statement".into()
            )
        );
        assert_eq!(
            err("%+"),
            (1, "expected a special name after `%`, found `+`".into())
        );
        assert_eq!(
            err("%TORYO x"),
            (6, "expected the end of the special, found ` x`".into())
        );
        assert_eq!(
            err("PX"),
            (
                1,
                "expected `I`, a rank 1…9, `+` or `-` after `P`, found `X`".into()
            )
        );
        assert_eq!(
            err("N"),
            (
                1,
                "expected `+` or `-` after `N`, found the end of the statement".into()
            )
        );
        assert_eq!(err("x"), (0, "expected a CSA statement, found `x`".into()));
        assert_eq!(
            err("/x"),
            (0, "expected a CSA statement, found `/x`".into())
        );
        assert_eq!(
            err("PI82HX"),
            (4, "expected a piece code (FU, KY, … RY), found `HX`".into())
        );
        assert_eq!(
            err("PI8"),
            (
                2,
                "expected a square and piece like `82HI`, found `8`".into()
            )
        );
        assert_eq!(
            err("P+55AL"),
            (
                4,
                "expected a piece code (FU, KY, … RY) or `AL`, found `AL`".into()
            )
        );
        assert_eq!(err("P+50FU"), (2, "expected a square, found `50FU`".into()));
        let many = format!("P+{}", "00FU".repeat(97));
        assert_eq!(
            err(&many),
            (2 + 96 * 4, "too many placements on one line".into())
        );
        let many = format!("PI{}", "82HI".repeat(41));
        assert_eq!(err(&many), (2 + 40 * 4, "too many pieces removed".into()));
    }

    /// Every seven-byte statement over an alphabet around the move syntax:
    /// the fast path, when it answers, agrees with the grammar, and it
    /// answers for every well-formed move.
    #[test]
    fn role_from_bytes_agrees_with_role_from_csa() {
        for a in 0u8..128 {
            for b in 0u8..128 {
                let code = [a, b];
                let text = std::str::from_utf8(&code).expect("ASCII");
                let want =
                    Role::from_csa(text).filter(|r| !matches!(r, Role::Giraffe | Role::Elephant));
                assert_eq!(role_from_bytes(&code), want, "{text:?}");
            }
        }
        assert_eq!(role_from_bytes(b"FUU"), None);
        assert_eq!(role_from_bytes(b"F"), None);
    }

    #[test]
    fn quick_move_agrees_with_the_grammar() {
        let signs = [b'+', b'-', b'x'];
        let digits: Vec<u8> = (b'0'..=b'9').chain([b'a']).collect();
        let mut codes: Vec<[u8; 2]> = [
            "FU", "KY", "KE", "GI", "KI", "KA", "HI", "OU", "TO", "NY", "NK", "NG", "UM", "RY",
            "KR", "ZO", "XX", "Fu", "F1",
        ]
        .iter()
        .map(|c| [c.as_bytes()[0], c.as_bytes()[1]])
        .collect();
        codes.push([0xe6, 0xad]);
        let mut n = 0;
        for &s in &signs {
            for &a in &digits {
                for &b in &digits {
                    for &c in &digits {
                        for &d in &digits {
                            for code in &codes {
                                let m = [s, a, b, c, d, code[0], code[1]];
                                let grammar = csa_move(&m).ok().map(|(_, m)| m);
                                assert_eq!(quick_move(&m).or(grammar), grammar, "{m:?}");
                                assert_eq!(quick_move(&m), grammar, "{m:?}");
                                n += usize::from(grammar.is_some());
                            }
                        }
                    }
                }
            }
        }
        assert!(n > 100_000);
    }

    proptest::proptest! {
        #[test]
        fn quick_time_agrees_with_the_grammar(s in "T[0-9]{0,22}(\\.[0-9]{0,4})?x?") {
            let grammar = time(s.as_bytes()).ok().map(|(_, t)| t);
            if let Some(ms) = quick_time(s.as_bytes()) {
                proptest::prop_assert_eq!(grammar, Some((ms, false)));
            }
            proptest::prop_assert_eq!(parse_time(&s).ok(), grammar);
        }
    }
}
