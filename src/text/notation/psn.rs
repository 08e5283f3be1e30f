//! International (Hodges/Hosking, "western") move notation as PSN writes it:
//! a syntactic [`PsnMove`], resolved against a position with
//! [`PsnMove::to_move`] and produced from a move with [`PsnMove::from_move`].
//!
//! ```
//! use kifu::psn::notation::PsnMove;
//! use kifu::{Position, Variant};
//!
//! let pos = Position::new(Variant::Standard);
//! let san: PsnMove = "P-7f".parse().unwrap();
//! let m = san.to_move(&pos, false).unwrap();
//! assert_eq!(m.to_string(), "7g7f");
//! assert_eq!(PsnMove::from_move(&pos, m).to_string(), "P-7f");
//! ```

use crate::rules::bitboard::Bitboard;
use crate::rules::color::Color;
use crate::rules::moves::Move;
use crate::rules::position::Position;
use crate::rules::role::Role;
use crate::rules::square::Square;
use crate::rules::variant::Variant;
use crate::text::syntax::{expect, into_error, SyntaxError};
use nom::combinator::{all_consuming, eof};
use nom::sequence::terminated;
use nom::Parser;
use std::fmt;
use std::str::FromStr;

/// What follows the destination of a board move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Promotion {
    /// Nothing written: promotion impossible (or not stated).
    None,
    /// `+`: the piece promotes.
    Promote,
    /// `=`: promotion was possible and declined.
    Decline,
}

/// A move in international notation, as written (pure syntax).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PsnMove {
    /// `+S4d-4c`, `Px8d`, `S5d-5c=`.
    Normal {
        /// The moving piece as written (before promotion).
        role: Role,
        /// The origin, when written.
        from: Option<Square>,
        /// `x` (capture) rather than `-`.
        capture: bool,
        /// Destination.
        to: Square,
        /// The promotion suffix.
        promotion: Promotion,
    },
    /// `N*2c` (also read: `N'2c`, `N@2c`).
    Drop {
        /// The dropped role.
        role: Role,
        /// Destination.
        to: Square,
    },
}

/// Why a move text is not international notation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParsePsnError {
    /// 0-based byte offset of the problem within the text (a character
    /// offset when the text is ASCII, as a move is).
    pub offset: usize,
    /// What was expected and found.
    pub message: String,
}

impl ParsePsnError {
    /// The error of the move grammar on `text`, converted once.
    fn new(text: &str, e: SyntaxError<&str>) -> ParsePsnError {
        ParsePsnError {
            offset: e.offset_in(&text),
            message: describe(&e),
        }
    }
}

/// The words of a move grammar's error: what it expected, and what it found
/// when the move ended too early (otherwise the offset shows the place).
pub(crate) fn describe(e: &SyntaxError<&str>) -> String {
    if e.at.is_empty() {
        e.message("the end of the move")
    } else {
        format!("expected {}", e.expected)
    }
}

impl fmt::Display for ParsePsnError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for ParsePsnError {}

/// Why a [`PsnMove`] could not be turned into a move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ResolveError {
    /// No piece of that role of the side to move can reach the destination.
    NoPiece,
    /// Several pieces can (the number of candidates).
    Ambiguous(u32),
    /// The role cannot be dropped (a promoted piece or a king).
    NotDroppable,
    /// A square outside the board of the variant.
    OffBoard,
}

impl fmt::Display for ResolveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ResolveError::NoPiece => f.write_str("no piece of the side to move can make this move"),
            ResolveError::Ambiguous(n) => {
                write!(f, "{n} pieces can make this move; the origin is needed")
            }
            ResolveError::NotDroppable => f.write_str("this piece cannot be dropped"),
            ResolveError::OffBoard => f.write_str("the square is outside the board"),
        }
    }
}

impl std::error::Error for ResolveError {}

/// The role a piece letter names: SFEN letters for `variant` (with a `+`
/// before them for a promoted piece), and 81Dojo's single letters `D`
/// (dragon), `H` (horse) and `T` (tokin) outside doubutsu.
fn letter_role(letter: char, promoted: bool, variant: Variant) -> Option<Role> {
    match (variant, letter.to_ascii_uppercase(), promoted) {
        (Variant::Standard | Variant::Minishogi, 'D', false) => Some(Role::Dragon),
        (Variant::Standard | Variant::Minishogi, 'H', false) => Some(Role::Horse),
        (Variant::Standard | Variant::Minishogi, 'T', false) => Some(Role::ProPawn),
        (_, c, _) => Role::from_sfen_char(c, promoted, variant),
    }
}

/// The grammar of one move, as small nom parsers. Each returns the shared
/// [`SyntaxError`]: where it stopped and what it expected there.
pub(crate) mod grammar {
    use super::{letter_role, Promotion, PsnMove};
    use crate::rules::role::Role;
    use crate::rules::square::Square;
    use crate::rules::variant::Variant;
    use crate::text::syntax::{PResult, SyntaxError};
    use nom::branch::alt;
    use nom::character::complete::one_of;
    use nom::combinator::{cut, fail, map};
    use nom::error::context;
    use nom::sequence::preceded;
    use nom::Parser;

    // The leaves below read one ASCII byte each, by byte: a move is ASCII,
    // and a byte that is not cannot match. Their results and errors are
    // those of the `satisfy`/`char` parsers under the same labels.

    /// An error at `i` saying what was expected there.
    fn expected<'a>(i: &'a str, what: &'static str) -> nom::Err<SyntaxError<&'a str>> {
        nom::Err::Error(SyntaxError::new(i, what))
    }

    /// `+` before a piece letter: the piece is promoted.
    pub fn promoted_mark(i: &str) -> PResult<&str, bool> {
        match i.as_bytes().first() {
            Some(b'+') => Ok((&i[1..], true)),
            _ => Ok((i, false)),
        }
    }

    /// A piece: an optional `+` and a letter of `variant` (`P`, `+S`, `D`).
    pub fn piece(variant: Variant) -> impl Fn(&str) -> PResult<&str, Role> {
        move |i| {
            let (i, promoted) = promoted_mark(i)?;
            match i.as_bytes().first() {
                Some(&b) if b.is_ascii_alphabetic() => {
                    match letter_role(b as char, promoted, variant) {
                        Some(role) => Ok((&i[1..], role)),
                        None => Err(expected(i, "a piece letter")),
                    }
                }
                _ => Err(expected(i, "a piece letter")),
            }
        }
    }

    /// A file digit `1`..`9`.
    pub fn file(i: &str) -> PResult<&str, u8> {
        match i.as_bytes().first() {
            Some(&b @ b'1'..=b'9') => Ok((&i[1..], b - b'0')),
            _ => Err(expected(i, "a file digit 1-9")),
        }
    }

    /// A rank: a letter `a`..`i` or a digit `1`..`9`.
    pub fn rank(i: &str) -> PResult<&str, u8> {
        match i.as_bytes().first() {
            Some(&b @ b'1'..=b'9') => Ok((&i[1..], b - b'0')),
            Some(&b @ b'a'..=b'i') => Ok((&i[1..], b - b'a' + 1)),
            _ => Err(expected(i, "a rank letter a-i")),
        }
    }

    /// A square `7f` or `76`; once the file digit is read, the rank must
    /// follow (`cut`).
    pub fn square(i: &str) -> PResult<&str, Square> {
        let (r, f) = file(i)?;
        let (r, k) = cut(rank).parse(r)?;
        match Square::new(f, k) {
            Some(sq) => Ok((r, sq)),
            None => Err(expected(i, "a square")),
        }
    }

    /// `*` (also read: `'`, `@`) between a dropped piece and its square.
    pub fn drop_mark(i: &str) -> PResult<&str, char> {
        one_of("*'@").parse(i)
    }

    /// `-` (a move) or `x` (a capture). One ASCII byte, matched as a byte
    /// (the same result and error as `alt((char('-'), one_of("xX")))`
    /// under this label).
    pub fn capture_mark(i: &str) -> PResult<&str, bool> {
        match i.as_bytes().first() {
            Some(b'-') => Ok((&i[1..], false)),
            Some(b'x' | b'X') => Ok((&i[1..], true)),
            _ => Err(nom::Err::Error(SyntaxError::new(i, "`-` or `x`"))),
        }
    }

    /// What may follow the destination: `+` (promotes), `=` (declines) or
    /// nothing (never fails; one ASCII byte, matched as a byte).
    pub fn promotion(i: &str) -> PResult<&str, Promotion> {
        match i.as_bytes().first() {
            Some(b'+') => Ok((&i[1..], Promotion::Promote)),
            Some(b'=') => Ok((&i[1..], Promotion::Decline)),
            _ => Ok((i, Promotion::None)),
        }
    }

    /// A drop after its piece: `*2c` (also `'2c`, `@2c`).
    fn drop_move(role: Role) -> impl Fn(&str) -> PResult<&str, PsnMove> {
        move |i| {
            map(preceded(drop_mark, cut(square)), |to| PsnMove::Drop {
                role,
                to,
            })
            .parse(i)
        }
    }

    /// A board move with its origin after its piece: `5d-5c=`.
    fn origin_move(role: Role) -> impl Fn(&str) -> PResult<&str, PsnMove> {
        move |i| {
            map(
                (square, cut(capture_mark), cut(square), promotion),
                |(from, capture, to, promotion)| PsnMove::Normal {
                    role,
                    from: Some(from),
                    capture,
                    to,
                    promotion,
                },
            )
            .parse(i)
        }
    }

    /// A board move without its origin after its piece: `x4c+`, `-7f`.
    fn bare_move(role: Role) -> impl Fn(&str) -> PResult<&str, PsnMove> {
        move |i| {
            map(
                (capture_mark, cut(square), promotion),
                |(capture, to, promotion)| PsnMove::Normal {
                    role,
                    from: None,
                    capture,
                    to,
                    promotion,
                },
            )
            .parse(i)
        }
    }

    /// The part of a move after the piece: `*2c`, `5d-5c=`, `x4c+`.
    ///
    /// The grammar is the `alt` of the three forms, whose last branch
    /// names the whole choice when none started. Each form starts with its
    /// own bytes (a drop mark, a file digit, `-` or `x`) and commits (`cut`)
    /// once past its first, so the first byte picks the one form that can
    /// succeed or fail further than the start; the `alt` itself runs only
    /// when no form can start there (its error is the answer then).
    fn after_piece(role: Role) -> impl Fn(&str) -> PResult<&str, PsnMove> {
        move |i| {
            let all = |i| {
                alt((
                    drop_move(role),
                    origin_move(role),
                    bare_move(role),
                    context("an origin square, `-`, `x` or `*`", fail()),
                ))
                .parse(i)
            };
            match i.as_bytes().first() {
                Some(b'*' | b'\'' | b'@') => drop_move(role)(i),
                Some(b'-' | b'x' | b'X') => bare_move(role)(i),
                Some(b'1'..=b'9') => match origin_move(role)(i) {
                    Err(nom::Err::Error(_)) => all(i),
                    r => r,
                },
                _ => all(i),
            }
        }
    }

    /// A move in international notation for `variant`; what follows it is
    /// left to the caller.
    pub fn psn_move(variant: Variant) -> impl Fn(&str) -> PResult<&str, PsnMove> {
        move |i| {
            let (i, role) = piece(variant)(i)?;
            after_piece(role)(i)
        }
    }
}

impl PsnMove {
    /// Parses a move at the start of `text` for `variant` (which decides the
    /// piece letters: doubutsu uses L G E C H). Returns the move and the
    /// number of bytes (all ASCII) it used; the caller decides what may
    /// follow.
    pub fn parse_prefix(text: &str, variant: Variant) -> Result<(PsnMove, usize), ParsePsnError> {
        match grammar::psn_move(variant)(text) {
            Ok((rest, m)) => Ok((m, text.len() - rest.len())),
            Err(e) => Err(ParsePsnError::new(text, into_error(e, text))),
        }
    }

    /// Parses a whole move text (nothing may follow) for `variant`.
    pub fn parse(text: &str, variant: Variant) -> Result<PsnMove, ParsePsnError> {
        let whole = terminated(
            grammar::psn_move(variant),
            expect("the end of the move", eof),
        );
        match all_consuming(whole).parse(text) {
            Ok((_, m)) => Ok(m),
            Err(e) => Err(ParsePsnError::new(text, into_error(e, text))),
        }
    }

    /// The role as written.
    pub fn role(self) -> Role {
        match self {
            PsnMove::Normal { role, .. } | PsnMove::Drop { role, .. } => role,
        }
    }

    /// The destination.
    pub fn to(self) -> Square {
        match self {
            PsnMove::Normal { to, .. } | PsnMove::Drop { to, .. } => to,
        }
    }

    /// Resolves the notation into a move of the side to move. A board move
    /// without an origin takes the only piece of the written role that can
    /// reach the destination: candidates are pseudo-legal (pins ignored); when
    /// several remain they are narrowed to those whose move is legal, and
    /// with `legal_candidates_only` only legal candidates count at all.
    /// Legality of the move itself is not judged here.
    pub fn to_move(
        self,
        pos: &Position,
        legal_candidates_only: bool,
    ) -> Result<Move, ResolveError> {
        let board = pos.rules().board;
        if !board.contains(self.to()) {
            return Err(ResolveError::OffBoard);
        }
        match self {
            PsnMove::Drop { role, to } => {
                if role.hand_index().is_none() {
                    return Err(ResolveError::NotDroppable);
                }
                Ok(Move::Drop { role, to })
            }
            PsnMove::Normal {
                role,
                from,
                to,
                promotion,
                ..
            } => {
                let promote = promotion == Promotion::Promote;
                if let Some(from) = from {
                    if !board.contains(from) {
                        return Err(ResolveError::OffBoard);
                    }
                    return Ok(Move::Normal { from, to, promote });
                }
                let us = pos.turn();
                let mut cands = if legal_candidates_only {
                    pos.legal_attackers(to, us, role)
                } else {
                    pos.pseudo_attackers(to, us, role)
                };
                if cands.count() > 1 && !legal_candidates_only {
                    let legal = pos.legal_attackers(to, us, role);
                    if legal.count() == 1 {
                        cands = legal;
                    }
                }
                match (cands.single(), cands.count()) {
                    (Some(from), _) => Ok(Move::Normal { from, to, promote }),
                    (None, 0) => Err(ResolveError::NoPiece),
                    (None, n) => Err(ResolveError::Ambiguous(n)),
                }
            }
        }
    }

    /// Writes `m` in minimal notation: the origin only when another piece of
    /// the same role (promotion state included) of the mover could also
    /// reach the destination, judged by pseudo-legal attacks (pins ignored,
    /// as tsshogi and shogiops do).
    pub fn from_move(pos: &Position, m: Move) -> PsnMove {
        PsnMove::from_move_with(pos, m, None, false)
    }

    /// Like [`PsnMove::from_move`]. `role` names the moving role when the
    /// origin square is empty (an illegal record); with
    /// `legal_candidates_only` only pieces whose move there is legal count
    /// as rivals.
    pub fn from_move_with(
        pos: &Position,
        m: Move,
        role: Option<Role>,
        legal_candidates_only: bool,
    ) -> PsnMove {
        match m {
            Move::Drop { role, to } => PsnMove::Drop { role, to },
            Move::Normal { from, to, promote } => {
                let piece = pos.piece_at(from);
                let color = piece.map_or(pos.turn(), |p| p.color);
                let role = piece.map(|p| p.role).or(role).unwrap_or(Role::King);
                let rivals: Bitboard = if piece.is_none() {
                    // Nothing there: always write the origin.
                    let mut b = Bitboard::EMPTY;
                    b.insert(to);
                    b
                } else if legal_candidates_only {
                    pos.legal_attackers(to, color, role)
                } else {
                    pos.pseudo_attackers(to, color, role)
                };
                let needs_origin = Iterator::any(&mut rivals.into_iter(), |sq| sq != from);
                let promotion = if promote {
                    Promotion::Promote
                } else if could_promote(pos.variant(), color, role, from, to) {
                    Promotion::Decline
                } else {
                    Promotion::None
                };
                PsnMove::Normal {
                    role,
                    from: needs_origin.then_some(from),
                    capture: pos.piece_at(to).is_some(),
                    to,
                    promotion,
                }
            }
        }
    }

    /// Displays the move with the piece letters of `variant`.
    pub fn display(self, variant: Variant) -> PsnDisplay {
        PsnDisplay(self, variant)
    }
}

/// Whether a board move of `role` from `from` to `to` may promote.
pub fn could_promote(variant: Variant, color: Color, role: Role, from: Square, to: Square) -> bool {
    let rules = variant.rules();
    rules.can_promote(role)
        && (rules.zone[color.index()].contains(from) || rules.zone[color.index()].contains(to))
}

impl FromStr for PsnMove {
    type Err = ParsePsnError;
    /// Parses standard-shogi notation.
    fn from_str(s: &str) -> Result<PsnMove, ParsePsnError> {
        PsnMove::parse(s, Variant::Standard)
    }
}

/// A [`PsnMove`] displayed with the letters of a variant.
pub struct PsnDisplay(PsnMove, Variant);

impl fmt::Display for PsnDisplay {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let v = self.1;
        match self.0 {
            PsnMove::Drop { role, to } => write!(f, "{}*{}", role.sfen(v), to),
            PsnMove::Normal {
                role,
                from,
                capture,
                to,
                promotion,
            } => {
                f.write_str(role.sfen(v))?;
                if let Some(from) = from {
                    write!(f, "{from}")?;
                }
                f.write_str(if capture { "x" } else { "-" })?;
                write!(f, "{to}")?;
                f.write_str(match promotion {
                    Promotion::None => "",
                    Promotion::Promote => "+",
                    Promotion::Decline => "=",
                })
            }
        }
    }
}

impl fmt::Display for PsnMove {
    /// Standard-shogi letters (`P`, `+S`, …).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        PsnDisplay(*self, Variant::Standard).fmt(f)
    }
}
