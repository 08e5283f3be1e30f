//! CSA statement syntax: one statement (a line, or a comma-separated part of
//! a line) becomes a [`Statement`] without looking at any position.
//!
//! Errors carry the byte offset of the bad token inside the statement; the
//! reader turns it into a character column once, at the line boundary.

use crate::rules::color::Color;
use crate::rules::role::Role;
use crate::rules::square::Square;
use arrayvec::ArrayVec;
use nom7::branch::alt;
use nom7::bytes::complete::{tag, take_while_m_n};
use nom7::character::complete::{char, digit1, satisfy};
use nom7::combinator::{map, opt, recognize};
use nom7::sequence::{pair, preceded, tuple};
use nom7::IResult;

/// A syntax problem inside one statement.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SyntaxError {
    /// Byte offset of the bad token within the statement.
    pub offset: usize,
    /// "expected …, found …".
    pub message: String,
}

impl SyntaxError {
    fn new(offset: usize, message: impl Into<String>) -> SyntaxError {
        SyntaxError {
            offset,
            message: message.into(),
        }
    }

    /// An error at `offset` saying what was expected and what is there.
    fn expected(stmt: &str, offset: usize, what: &str) -> SyntaxError {
        let found = found_at(stmt, offset);
        SyntaxError::new(offset, format!("expected {what}, found {found}"))
    }
}

/// A short quotation of the text at `offset` for messages.
fn found_at(stmt: &str, offset: usize) -> String {
    match stmt.get(offset..) {
        Some("") | None => "the end of the statement".to_string(),
        Some(rest) => {
            let q: String = rest.chars().take(12).collect();
            format!("`{q}`")
        }
    }
}

/// A move as written: sign, origin (`None` = from hand, `00`), destination
/// and the piece code, which names the piece *after* the move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CsaMove {
    /// The sign (`+` Black, `-` White).
    pub color: Color,
    /// Origin square, `None` for a drop.
    pub from: Option<Square>,
    /// Destination square.
    pub to: Square,
    /// The piece after the move.
    pub role: Role,
}

/// One placement of a `P+`/`P-` line: a square (or the hand) and a piece,
/// `None` for `AL`.
pub type Placement = (Option<Square>, Option<Role>);

/// Placements of one `P+`/`P-` line, with the byte offset of each item.
pub type Placements = ArrayVec<(usize, Placement), 96>;

/// Pieces removed by a `PI` line, with the byte offset of each item.
pub type Removals = ArrayVec<(usize, Square, Role), 40>;

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

type Res<'a, T> = IResult<&'a str, T>;

fn sign(i: &str) -> Res<'_, Color> {
    alt((
        map(char('+'), |_| Color::Black),
        map(char('-'), |_| Color::White),
    ))(i)
}

fn digit(i: &str) -> Res<'_, u8> {
    map(satisfy(|c| c.is_ascii_digit()), |c| c as u8 - b'0')(i)
}

/// Two digits: file and rank (either may be 0 here; callers check).
fn square_digits(i: &str) -> Res<'_, (u8, u8)> {
    pair(digit, digit)(i)
}

/// A two-letter piece code (any two ASCII upper-case letters).
fn piece_code(i: &str) -> Res<'_, &str> {
    take_while_m_n(2, 2, |c: char| c.is_ascii_uppercase())(i)
}

/// The standard CSA piece codes (doubutsu codes are not accepted).
pub fn role_from_code(code: &str) -> Option<Role> {
    Role::from_csa(code).filter(|r| !matches!(r, Role::Giraffe | Role::Elephant))
}

fn offset(whole: &str, rest: &str) -> usize {
    whole.len() - rest.len()
}

/// Parses a move statement such as `+7776FU` or `-0055KA`.
pub fn parse_move(s: &str) -> Result<CsaMove, SyntaxError> {
    if let Some(m) = quick_move(s.as_bytes()) {
        return Ok(m);
    }
    let (rest, color) = sign(s).map_err(|_| SyntaxError::expected(s, 0, "`+` or `-`"))?;
    let (rest, (ff, fr)) = square_digits(rest).map_err(|_| {
        SyntaxError::expected(s, 1, "the origin square (two digits, `00` from hand)")
    })?;
    let from = match (ff, fr) {
        (0, 0) => None,
        (f, r) => match Square::new(f, r) {
            Some(sq) => Some(sq),
            None => return Err(SyntaxError::expected(s, 1, "an origin square 11…99 or 00")),
        },
    };
    let to_at = offset(s, rest);
    let (rest, (tf, tr)) = square_digits(rest)
        .map_err(|_| SyntaxError::expected(s, to_at, "the destination square (two digits)"))?;
    let to = Square::new(tf, tr)
        .ok_or_else(|| SyntaxError::expected(s, to_at, "a destination square 11…99"))?;
    let code_at = offset(s, rest);
    let (rest, code) = piece_code(rest)
        .map_err(|_| SyntaxError::expected(s, code_at, "a piece code (FU, KY, … RY)"))?;
    let role = role_from_code(code)
        .ok_or_else(|| SyntaxError::expected(s, code_at, "a piece code (FU, KY, … RY)"))?;
    if !rest.is_empty() {
        return Err(SyntaxError::expected(
            s,
            offset(s, rest),
            "the end of the move",
        ));
    }
    Ok(CsaMove {
        color,
        from,
        to,
        role,
    })
}

/// The common well-formed move (`+7776FU`) read straight from its seven
/// bytes; `None` sends anything else (and every error) to the grammar.
#[inline]
fn quick_move(b: &[u8]) -> Option<CsaMove> {
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
    let role = role_from_code(std::str::from_utf8(&b[5..]).ok()?)?;
    Some(CsaMove {
        color,
        from,
        to,
        role,
    })
}

/// `T` and whole seconds (up to 15 digits, so no overflow): the common
/// time statement without the grammar.
#[inline]
fn quick_time(b: &[u8]) -> Option<u64> {
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
pub fn parse_time(s: &str) -> Result<(u64, bool), SyntaxError> {
    if let Some(ms) = quick_time(s.as_bytes()) {
        return Ok((ms, false));
    }
    let r: Res<'_, (&str, Option<&str>)> = preceded(
        tag("T"),
        pair(digit1, opt(preceded(char('.'), recognize(digit1)))),
    )(s);
    let (rest, (secs, frac)) =
        r.map_err(|_| SyntaxError::expected(s, 1, "seconds (digits) after `T`"))?;
    if !rest.is_empty() {
        return Err(SyntaxError::expected(
            s,
            offset(s, rest),
            "the end of the time",
        ));
    }
    let too_big = || SyntaxError::new(1, "time too large");
    let mut ms: u64 = 0;
    for b in secs.bytes() {
        ms = ms
            .checked_mul(10)
            .and_then(|v| v.checked_add(u64::from(b - b'0')))
            .ok_or_else(too_big)?;
    }
    ms = ms.checked_mul(1000).ok_or_else(too_big)?;
    if let Some(f) = frac {
        if f.len() > 3 {
            let at = 1 + secs.len() + 1 + 3;
            return Err(SyntaxError::expected(s, at, "at most three decimals"));
        }
        let mut v: u64 = 0;
        for b in f.bytes() {
            v = v * 10 + u64::from(b - b'0');
        }
        for _ in f.len()..3 {
            v *= 10;
        }
        ms = ms.checked_add(v).ok_or_else(too_big)?;
    }
    Ok((ms, frac.is_some()))
}

/// Parses the items of a `PI` line (after `PI`), `base` being their offset.
fn parse_pi(s: &str, base: usize) -> Result<Removals, SyntaxError> {
    let mut out = Removals::new();
    let mut rest = &s[base..];
    while !rest.is_empty() {
        let at = offset(s, rest);
        let r: Res<'_, ((u8, u8), &str)> = pair(square_digits, piece_code)(rest);
        let (next, ((f, rk), code)) =
            r.map_err(|_| SyntaxError::expected(s, at, "a square and piece like `82HI`"))?;
        let sq =
            Square::new(f, rk).ok_or_else(|| SyntaxError::expected(s, at, "a square 11…99"))?;
        let role = role_from_code(code)
            .ok_or_else(|| SyntaxError::expected(s, at + 2, "a piece code (FU, KY, … RY)"))?;
        if out.try_push((at, sq, role)).is_err() {
            return Err(SyntaxError::new(at, "too many pieces removed"));
        }
        rest = next;
    }
    Ok(out)
}

/// Reads a board row by the spec's fixed 3-character cells: a sign and a
/// piece code, or anything else with a `*` in it for an empty cell. The last
/// cell may lose its trailing space; only spaces may follow.
fn parse_row_fixed(s: &str, base: usize) -> Option<Row> {
    let b = s.as_bytes();
    let mut cells = [None; 9];
    for (n, cell) in cells.iter_mut().enumerate() {
        let at = base + 3 * n;
        let c = b.get(at..(at + 3).min(b.len()))?;
        match c.first() {
            Some(b'+') | Some(b'-') => {
                let color = if c[0] == b'+' {
                    Color::Black
                } else {
                    Color::White
                };
                *cell = Some((color, s.get(at + 1..at + 3).and_then(role_from_code)?));
            }
            _ if c.contains(&b'*') => {}
            _ => return None,
        }
    }
    if b.get(base + 27..)
        .is_some_and(|rest| rest.iter().any(|&x| x != b' '))
    {
        return None;
    }
    Some(cells)
}

/// Parses one board row after `Pn`: by fixed 3-character cells when they
/// fit, else as tokens (`*`, or a sign and a piece code, spaces between them
/// ignored), which accepts cells collapsed by whitespace folding. The flag
/// tells whether the fallback was needed.
pub fn parse_row(s: &str, base: usize) -> Result<(Row, bool), SyntaxError> {
    match parse_row_fixed(s, base) {
        Some(cells) => Ok((cells, false)),
        None => parse_row_tokens(s, base).map(|c| (c, true)),
    }
}

fn parse_row_tokens(s: &str, base: usize) -> Result<Row, SyntaxError> {
    let mut cells = [None; 9];
    let bytes = s.as_bytes();
    let mut i = base;
    let mut n = 0;
    loop {
        while i < bytes.len() && bytes[i] == b' ' {
            i += 1;
        }
        if i >= bytes.len() {
            break;
        }
        if n == 9 {
            return Err(SyntaxError::expected(
                s,
                i,
                "the end of the row after nine cells",
            ));
        }
        match bytes[i] {
            b'*' => {
                i += 1;
            }
            b'+' | b'-' => {
                let color = if bytes[i] == b'+' {
                    Color::Black
                } else {
                    Color::White
                };
                let role = s
                    .get(i + 1..i + 3)
                    .and_then(role_from_code)
                    .ok_or_else(|| {
                        SyntaxError::expected(s, i + 1, "a piece code (FU, KY, … RY)")
                    })?;
                cells[n] = Some((color, role));
                i += 3;
            }
            _ => {
                return Err(SyntaxError::expected(
                    s,
                    i,
                    "a cell (` * ` or a sign and a piece code)",
                ))
            }
        }
        n += 1;
    }
    if n < 9 {
        return Err(SyntaxError::expected(s, s.len(), "nine cells"));
    }
    Ok(cells)
}

/// Parses the items of a `P+`/`P-` line after the sign.
fn parse_place(s: &str, base: usize) -> Result<Placements, SyntaxError> {
    let mut out = Placements::new();
    let mut rest = &s[base..];
    while !rest.is_empty() {
        let at = offset(s, rest);
        let r: Res<'_, ((u8, u8), &str)> = pair(square_digits, piece_code)(rest);
        let (next, ((f, rk), code)) = r.map_err(|_| {
            SyntaxError::expected(s, at, "a square and piece like `55KA`, `00FU` or `00AL`")
        })?;
        let sq = match (f, rk) {
            (0, 0) => None,
            _ => Some(Square::new(f, rk).ok_or_else(|| SyntaxError::expected(s, at, "a square"))?),
        };
        let role = if code == "AL" && sq.is_none() {
            None
        } else {
            Some(role_from_code(code).ok_or_else(|| {
                SyntaxError::expected(s, at + 2, "a piece code (FU, KY, … RY) or `AL`")
            })?)
        };
        if out.try_push((at, (sq, role))).is_err() {
            return Err(SyntaxError::new(at, "too many placements on one line"));
        }
        rest = next;
    }
    Ok(out)
}

/// Classifies one statement (already trimmed at the end, non-empty).
pub fn parse_statement(s: &str) -> Result<Statement<'_>, SyntaxError> {
    let first = s.as_bytes().first().copied().unwrap_or(b' ');
    match first {
        b'\'' => {
            let text = &s[1..];
            Ok(match text.strip_prefix("CSA encoding=") {
                Some(enc) => Statement::Encoding(enc),
                None => Statement::Comment(text),
            })
        }
        b'V' => Ok(Statement::Version(&s[1..])),
        b'N' => {
            let r: Res<'_, Color> = preceded(char('N'), sign)(s);
            match r {
                Ok((rest, c)) => Ok(Statement::Name(c, rest)),
                Err(_) => Err(SyntaxError::expected(s, 1, "`+` or `-` after `N`")),
            }
        }
        b'$' => match s.find(':') {
            Some(i) if i > 1 => Ok(Statement::Info(&s[1..i], &s[i + 1..])),
            Some(_) => Err(SyntaxError::expected(s, 1, "a key after `$`")),
            None => Err(SyntaxError::expected(s, s.len(), "`:` after the key")),
        },
        b'P' => {
            let r: Res<'_, char> = preceded(
                char('P'),
                satisfy(|c| matches!(c, 'I' | '+' | '-' | '1'..='9')),
            )(s);
            match r {
                Ok((_, 'I')) => Ok(Statement::Pi(Box::new(parse_pi(s, 2)?))),
                Ok((_, '+')) => Ok(Statement::Place(Color::Black, Box::new(parse_place(s, 2)?))),
                Ok((_, '-')) => Ok(Statement::Place(Color::White, Box::new(parse_place(s, 2)?))),
                Ok((_, d)) => {
                    let (cells, loose) = parse_row(s, 2)?;
                    Ok(Statement::Row(d as u8 - b'0', cells, loose))
                }
                Err(_) => Err(SyntaxError::expected(
                    s,
                    1,
                    "`I`, a rank 1…9, `+` or `-` after `P`",
                )),
            }
        }
        b'+' | b'-' => {
            if s.len() == 1 {
                Ok(Statement::Turn(if first == b'+' {
                    Color::Black
                } else {
                    Color::White
                }))
            } else {
                Ok(Statement::Move(parse_move(s)?))
            }
        }
        b'%' => {
            let r: Res<'_, &str> = preceded(
                char('%'),
                recognize(tuple((
                    opt(satisfy(|c| c == '+' || c == '-')),
                    take_while_m_n(1, 64, |c: char| c.is_ascii_uppercase() || c == '_'),
                ))),
            )(s);
            match r {
                Ok(("", name)) => Ok(Statement::Special(name)),
                Ok((rest, _)) => Err(SyntaxError::expected(
                    s,
                    offset(s, rest),
                    "the end of the special",
                )),
                Err(_) => Err(SyntaxError::expected(s, 1, "a special name after `%`")),
            }
        }
        b'T' => parse_time(s).map(|(ms, frac)| Statement::Time(ms, frac)),
        b'/' if s.len() == 1 => Ok(Statement::Separator),
        _ => Err(SyntaxError::expected(s, 0, "a CSA statement")),
    }
}

/// Whether a statement starting with this byte runs to the end of the line
/// (commas inside it do not separate statements).
pub fn runs_to_end_of_line(first: u8) -> bool {
    matches!(first, b'\'' | b'N' | b'$')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moves() {
        let m = parse_move("+7776FU").unwrap();
        assert_eq!(m.color, Color::Black);
        assert_eq!(m.from, Square::new(7, 7));
        assert_eq!(m.to, Square::new(7, 6).unwrap());
        assert_eq!(m.role, Role::Pawn);
        let d = parse_move("-0055KA").unwrap();
        assert_eq!(d.from, None);
        assert_eq!(parse_move("+7776XX").unwrap_err().offset, 5);
        assert_eq!(parse_move("+7706FU").unwrap_err().offset, 3);
        assert_eq!(parse_move("+77a6FU").unwrap_err().offset, 3);
        assert_eq!(parse_move("+7776FUx").unwrap_err().offset, 7);
    }

    #[test]
    fn times() {
        assert_eq!(parse_time("T12").unwrap(), (12_000, false));
        assert_eq!(parse_time("T2.5").unwrap(), (2_500, true));
        assert_eq!(parse_time("T6.123").unwrap(), (6_123, true));
        assert!(parse_time("T6.1234").is_err());
        assert!(parse_time("T").is_err());
        assert!(parse_time("T99999999999999999999999").is_err());
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
            parse_statement("'**30").unwrap(),
            Statement::Comment("**30")
        );
        assert!(matches!(parse_statement("PI82HI22KA").unwrap(), Statement::Pi(v) if v.len() == 2));
    }
}
