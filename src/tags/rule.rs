//! The rule language of the taxonomy (docs/tags.md): a rule is a list of
//! terms that must all hold for the side being named, after one of its
//! moves. Squares are written from that side's view, as sente sees the
//! board (`28` is 2八 for sente and 8二 for gote); upper-case pieces are
//! the side's own, lower-case ones the opponent's.
//!
//! A rule is parsed once ([`Pattern::parse`]) and compiled for each side into
//! bitboard masks ([`Compiled`]), so checking it on a position is a few
//! mask tests.

use super::TagSet;
use crate::rules::{Bitboard, Color, Hand, Move, Position, Role, Setup, Square, Variant};
use std::fmt;

/// A set of roles, one bit per [`Role::index`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Roles(pub u16);

impl Roles {
    /// The set holding `role`.
    pub const fn of(role: Role) -> Roles {
        Roles(1 << role.index())
    }

    /// Whether `role` is in the set.
    #[inline]
    pub const fn contains(self, role: Role) -> bool {
        self.0 >> role.index() & 1 != 0
    }

    /// Whether every role of `self` is in `other`.
    #[inline]
    pub const fn within(self, other: Roles) -> bool {
        self.0 & !other.0 == 0
    }

    /// The roles, by index.
    fn iter(self) -> impl Iterator<Item = Role> {
        Role::ALL.into_iter().filter(move |r| self.contains(*r))
    }
}

/// Whose piece or hand a term looks at, relative to the named side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Who {
    /// The side being named (upper-case letters).
    Me,
    /// Its opponent (lower-case letters).
    Opp,
}

impl Who {
    fn color(self, me: Color) -> Color {
        match self {
            Who::Me => me,
            Who::Opp => !me,
        }
    }
}

/// One term of a rule as written, squares in the named side's view (as
/// sente sees the board).
#[derive(Clone, Debug, PartialEq)]
pub enum Term {
    /// At least `at_least` of `squares` hold a piece of `who` whose role is
    /// in `roles` (`K28,18`, `2[GS]38,47,58`).
    Pieces {
        /// Whose pieces.
        who: Who,
        /// Which roles.
        roles: Roles,
        /// Where.
        squares: Bitboard,
        /// How many of the squares at least.
        at_least: u8,
    },
    /// Every one of the squares is empty (`.27,37`).
    Empty(Bitboard),
    /// The game's ply (the move just played) is within `min..=max`
    /// (`ply<=20`, `ply>=7`, `ply=5-30`).
    Ply {
        /// Lowest ply.
        min: u32,
        /// Highest ply.
        max: u32,
    },
    /// The move just played moved a piece of one of these roles (its role
    /// before the move; a drop counts) (`moved=R`).
    Moved(Roles),
    /// The move just played left one of these squares (`from=28`).
    From(Bitboard),
    /// The move just played arrived on one of these squares (`to=[5-9]8`).
    To(Bitboard),
    /// The move just played was a drop (`drop`).
    Drop,
    /// The move just played took a piece of one of these roles, promoted
    /// or not (`capture=B`).
    Capture(Roles),
    /// The named side is sente (`side=sente`) or gote (`side=gote`).
    Side(Color),
    /// `who` holds at least `at_least` pieces of `role` in hand (`hand=B`,
    /// `hand=b`, `hand=2P`).
    Hand {
        /// Whose hand.
        who: Who,
        /// Which role.
        role: Role,
        /// How many at least.
        at_least: u8,
    },
    /// Every capture of the game so far (either side's) took a piece of
    /// one of these roles, promoted or not (`captured<=PB`, `nocapture`).
    Captured(Roles),
    /// The board and hands are those after these moves from the even
    /// start (`line=7g7f,3c3d,2g2f`): a named line, found by position
    /// whatever the move order. The line names the side that played its
    /// last move; the other side matches the position turned around.
    Line(Vec<Move>),
    /// The named side (`has=ID`) or its opponent (`opp=ID`) already has
    /// the tag `ID` (an entry above this one in the taxonomy).
    Has {
        /// Whose tags.
        who: Who,
        /// The entry's id.
        id: String,
    },
    /// The term does not hold (`!K28`, `!(…)`).
    Not(Box<Term>),
    /// One of the lists holds (`(K28 S38 | K18 L19)`).
    Any(Vec<Vec<Term>>),
}

/// A rule as written: terms that must all hold.
#[derive(Clone, Debug, PartialEq)]
pub struct Pattern {
    /// The terms.
    pub terms: Vec<Term>,
}

/// Why a rule does not parse: the character offset in the rule and what
/// was expected.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PatternError {
    /// 0-based offset of the offending character in the rule text.
    pub offset: usize,
    /// What is wrong.
    pub message: String,
    kind: PatternErrorKind,
}

/// The cases of a [`PatternError`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum PatternErrorKind {
    /// Text that does not follow the rule language.
    Syntax,
    /// `!` and `(` nested deeper than [`MAX_RULE_DEPTH`].
    TooDeep,
}

impl PatternError {
    /// Which case this is.
    pub fn kind(&self) -> PatternErrorKind {
        self.kind
    }
}

impl fmt::Display for PatternError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} (at character {})", self.message, self.offset + 1)
    }
}

impl std::error::Error for PatternError {}

/// How deep `!` and `(…)` may nest in a rule, together (`!(A | !(B))`
/// is three levels): a rule nested deeper is refused, so that parsing,
/// compiling and checking it (each a walk of its terms) stay within a
/// bounded stack. The built-in rules nest at most three levels.
pub const MAX_RULE_DEPTH: usize = 32;

struct Parser<'a> {
    text: &'a str,
    pos: usize,
    /// The `!` and `(` open around the term being read.
    depth: usize,
}

fn err<T>(offset: usize, message: impl Into<String>) -> Result<T, PatternError> {
    Err(PatternError {
        kind: PatternErrorKind::Syntax,
        offset,
        message: message.into(),
    })
}

impl Parser<'_> {
    fn peek(&self) -> Option<u8> {
        self.text.as_bytes().get(self.pos).copied()
    }

    fn skip_space(&mut self) {
        while self.peek().is_some_and(|c| c.is_ascii_whitespace()) {
            self.pos += 1;
        }
    }

    /// Terms up to the end, a `|` or a `)`.
    fn conj(&mut self) -> Result<Vec<Term>, PatternError> {
        let mut terms = Vec::new();
        loop {
            self.skip_space();
            match self.peek() {
                None | Some(b'|') | Some(b')') => return Ok(terms),
                _ => terms.push(self.term()?),
            }
        }
    }

    /// Enters a `!` or `(` at the current position: an error past
    /// [`MAX_RULE_DEPTH`].
    fn enter(&mut self) -> Result<(), PatternError> {
        if self.depth >= MAX_RULE_DEPTH {
            return Err(PatternError {
                offset: self.pos,
                message: format!("`!` and `(` nested more than {MAX_RULE_DEPTH} levels"),
                kind: PatternErrorKind::TooDeep,
            });
        }
        self.depth += 1;
        Ok(())
    }

    fn term(&mut self) -> Result<Term, PatternError> {
        match self.peek() {
            Some(b'!') => {
                self.enter()?;
                self.pos += 1;
                let t = Term::Not(Box::new(self.term()?));
                self.depth -= 1;
                Ok(t)
            }
            Some(b'(') => {
                self.enter()?;
                let open = self.pos;
                self.pos += 1;
                let mut alts = vec![self.conj()?];
                loop {
                    match self.peek() {
                        Some(b'|') => {
                            self.pos += 1;
                            alts.push(self.conj()?);
                        }
                        Some(b')') => {
                            self.pos += 1;
                            break;
                        }
                        _ => return err(open, "unclosed `(`"),
                    }
                }
                if alts.iter().any(Vec::is_empty) {
                    return err(open, "an empty alternative in `(…)`");
                }
                self.depth -= 1;
                Ok(Term::Any(alts))
            }
            _ => {
                let start = self.pos;
                while self
                    .peek()
                    .is_some_and(|c| !c.is_ascii_whitespace() && !matches!(c, b'(' | b')' | b'|'))
                {
                    // A square class `[5-9]` may follow a piece class.
                    self.pos += 1;
                }
                word(&self.text[start..self.pos], start)
            }
        }
    }
}

impl Pattern {
    /// Parses a rule (see the [module docs](self) and docs/tags.md).
    pub fn parse(text: &str) -> Result<Pattern, PatternError> {
        let mut p = Parser {
            text,
            pos: 0,
            depth: 0,
        };
        let terms = p.conj()?;
        match p.peek() {
            None => Ok(Pattern { terms }),
            Some(_) => err(p.pos, "unexpected `|` or `)` outside `(…)`"),
        }
    }

    /// The ids this rule refers to with `has=`/`opp=`.
    pub fn references(&self) -> Vec<&str> {
        fn walk<'a>(terms: &'a [Term], out: &mut Vec<&'a str>) {
            for t in terms {
                match t {
                    Term::Has { id, .. } => out.push(id),
                    Term::Not(t) => walk(std::slice::from_ref(t), out),
                    Term::Any(alts) => alts.iter().for_each(|a| walk(a, out)),
                    _ => {}
                }
            }
        }
        let mut out = Vec::new();
        walk(&self.terms, &mut out);
        out
    }

    /// Whether the rule looks only at tags (`has=`, `opp=`) and the ply,
    /// as a style's rule must.
    pub fn only_tags(&self) -> bool {
        fn ok(t: &Term) -> bool {
            match t {
                Term::Has { .. } | Term::Ply { .. } => true,
                Term::Not(t) => ok(t),
                Term::Any(alts) => alts.iter().all(|a| a.iter().all(ok)),
                _ => false,
            }
        }
        self.terms.iter().all(ok)
    }
}

/// The role of a piece letter, and whose it is.
fn letter(c: u8, promoted: bool) -> Option<(Who, Role)> {
    let who = if c.is_ascii_uppercase() {
        Who::Me
    } else {
        Who::Opp
    };
    let role = match c.to_ascii_uppercase() {
        b'K' if !promoted => Role::King,
        b'G' if !promoted => Role::Gold,
        b'R' => Role::Rook,
        b'B' => Role::Bishop,
        b'S' => Role::Silver,
        b'N' => Role::Knight,
        b'L' => Role::Lance,
        b'P' => Role::Pawn,
        _ => return None,
    };
    Some((
        who,
        if promoted {
            role.promoted().unwrap_or(role)
        } else {
            role
        },
    ))
}

/// A set of pieces: `K`, `+B`, `[GS]`, `[G+S]` (one side only).
fn pieces(b: &[u8], at: usize) -> Result<(Who, Roles, usize), PatternError> {
    let one = |i: usize| -> Result<(Who, Role, usize), PatternError> {
        let promoted = b.get(i) == Some(&b'+');
        let j = i + promoted as usize;
        match b.get(j).and_then(|&c| letter(c, promoted)) {
            Some((w, r)) => Ok((w, r, j + 1)),
            None => err(at + j, "expected a piece letter (K R B G S N L P, lower case for the opponent's, + for promoted)"),
        }
    };
    if b.first() == Some(&b'[') {
        let mut i = 1;
        let mut roles = Roles::default();
        let mut who = None;
        while b.get(i) != Some(&b']') {
            if i >= b.len() {
                return err(at, "unclosed `[` in a piece set");
            }
            let (w, r, next) = one(i)?;
            if who.is_some_and(|x| x != w) {
                return err(
                    at + i,
                    "a piece set mixes own (upper-case) and opponent's (lower-case) pieces",
                );
            }
            who = Some(w);
            roles.0 |= Roles::of(r).0;
            i = next;
        }
        match who {
            Some(w) => Ok((w, roles, i + 1)),
            None => err(at, "an empty piece set `[]`"),
        }
    } else {
        let (w, r, next) = one(0)?;
        Ok((w, Roles::of(r), next))
    }
}

/// Roles written as upper-case letters (`PB`), for `moved=` and
/// `captured<=`; `-` is the empty set.
fn role_letters(s: &str, at: usize) -> Result<Roles, PatternError> {
    if s == "-" {
        return Ok(Roles::default());
    }
    let b = s.as_bytes();
    let mut roles = Roles::default();
    let mut i = 0;
    while i < b.len() {
        let promoted = b[i] == b'+';
        let j = i + promoted as usize;
        match b.get(j).and_then(|&c| letter(c, promoted)) {
            Some((Who::Me, r)) => roles.0 |= Roles::of(r).0,
            _ => return err(at + j, "expected upper-case piece letters"),
        }
        i = j + 1;
    }
    if roles.0 == 0 {
        return err(at, "expected piece letters");
    }
    Ok(roles)
}

/// One digit position of a square pattern: a digit, `*` or a class
/// `[5-9]`/`[159]`; the digits it allows as a mask of bits 1..=9.
fn digit_class(b: &[u8], i: usize, at: usize) -> Result<(u16, usize), PatternError> {
    match b.get(i) {
        Some(c @ b'1'..=b'9') => Ok((1 << (c - b'0'), i + 1)),
        Some(b'*') => Ok((0b11_1111_1110, i + 1)),
        Some(b'[') => {
            let mut mask = 0u16;
            let mut j = i + 1;
            loop {
                match b.get(j) {
                    Some(b']') => break,
                    Some(c @ b'1'..=b'9') => {
                        if b.get(j + 1) == Some(&b'-') {
                            match b.get(j + 2) {
                                Some(d @ b'1'..=b'9') if d >= c => {
                                    for k in *c..=*d {
                                        mask |= 1 << (k - b'0');
                                    }
                                    j += 3;
                                }
                                _ => return err(at + j, "expected a range such as [5-9]"),
                            }
                        } else {
                            mask |= 1 << (c - b'0');
                            j += 1;
                        }
                    }
                    _ => return err(at + j, "expected digits 1-9 or `]` in a square class"),
                }
            }
            if mask == 0 {
                return err(at + i, "an empty square class `[]`");
            }
            Ok((mask, j + 1))
        }
        _ => err(
            at + i,
            "expected a file or rank: a digit 1-9, `*` or a class such as [5-9]",
        ),
    }
}

/// Squares: a comma-separated list of patterns (`28`, `[5-9]8`, `*9`), as
/// sente sees the board.
fn squares(b: &[u8], at: usize) -> Result<Bitboard, PatternError> {
    let mut set = Bitboard::EMPTY;
    let mut i = 0;
    loop {
        let (files, i1) = digit_class(b, i, at)?;
        let (ranks, i2) = digit_class(b, i1, at)?;
        for f in 1..=9u8 {
            for r in 1..=9u8 {
                if files >> f & 1 != 0 && ranks >> r & 1 != 0 {
                    if let Some(sq) = Square::new(f, r) {
                        set.insert(sq);
                    }
                }
            }
        }
        match b.get(i2) {
            None => return Ok(set),
            Some(b',') => i = i2 + 1,
            Some(_) => return err(at + i2, "expected `,` or the end of the squares"),
        }
    }
}

fn number(s: &str, at: usize) -> Result<u32, PatternError> {
    s.parse()
        .or_else(|_| err(at, format!("expected a number, found `{s}`")))
}

/// One word of a rule.
fn word(w: &str, at: usize) -> Result<Term, PatternError> {
    let b = w.as_bytes();
    if let Some(rest) = w.strip_prefix("ply") {
        let at = at + 3;
        return if let Some(n) = rest.strip_prefix("<=") {
            Ok(Term::Ply {
                min: 0,
                max: number(n, at + 2)?,
            })
        } else if let Some(n) = rest.strip_prefix(">=") {
            Ok(Term::Ply {
                min: number(n, at + 2)?,
                max: u32::MAX,
            })
        } else if let Some(n) = rest.strip_prefix('=') {
            match n.split_once('-') {
                Some((a, z)) => Ok(Term::Ply {
                    min: number(a, at + 1)?,
                    max: number(z, at + 2 + a.len())?,
                }),
                None => {
                    let v = number(n, at + 1)?;
                    Ok(Term::Ply { min: v, max: v })
                }
            }
        } else {
            err(at, "expected `ply<=N`, `ply>=N`, `ply=N` or `ply=N-M`")
        };
    }
    if w == "drop" {
        return Ok(Term::Drop);
    }
    if w == "nocapture" {
        return Ok(Term::Captured(Roles::default()));
    }
    if let Some(value) = w.strip_prefix("captured<=") {
        return Ok(Term::Captured(role_letters(value, at + 10)?));
    }
    if let Some((key, value)) = w.split_once('=') {
        let vat = at + key.len() + 1;
        if value.is_empty() {
            return err(vat, format!("`{key}=` needs a value"));
        }
        return match key {
            "moved" => Ok(Term::Moved(role_letters(value, vat)?)),
            "capture" => Ok(Term::Capture(role_letters(value, vat)?)),
            "side" => match value {
                "sente" => Ok(Term::Side(Color::Black)),
                "gote" => Ok(Term::Side(Color::White)),
                _ => err(vat, "expected `side=sente` or `side=gote`"),
            },
            "from" => Ok(Term::From(squares(value.as_bytes(), vat)?)),
            "to" => Ok(Term::To(squares(value.as_bytes(), vat)?)),
            "has" => Ok(Term::Has {
                who: Who::Me,
                id: value.to_string(),
            }),
            "opp" => Ok(Term::Has {
                who: Who::Opp,
                id: value.to_string(),
            }),
            "hand" => {
                let digits = value.bytes().take_while(u8::is_ascii_digit).count();
                let at_least = if digits == 0 {
                    1
                } else {
                    number(&value[..digits], vat)?
                };
                let rest = &value.as_bytes()[digits..];
                match rest {
                    [c] => match letter(*c, false) {
                        Some((who, role)) if role != Role::King => Ok(Term::Hand {
                            who,
                            role,
                            at_least: at_least.min(u8::MAX as u32) as u8,
                        }),
                        _ => err(vat + digits, "expected a piece letter a hand can hold"),
                    },
                    _ => err(vat + digits, "expected one piece letter after `hand=`"),
                }
            }
            "line" => {
                let mut moves = Vec::new();
                let mut off = vat;
                for u in value.split(',') {
                    match Move::from_usi(u, Variant::Standard) {
                        Some(m) => moves.push(m),
                        None => return err(off, format!("expected a USI move, found `{u}`")),
                    }
                    off += u.len() + 1;
                }
                Ok(Term::Line(moves))
            }
            "captured" => err(at, "expected `captured<=ROLES`"),
            _ => err(
                at,
                format!("unknown key `{key}=` (expected moved, from, to, capture, side, hand, line, has, opp)"),
            ),
        };
    }
    if let Some(rest) = w.strip_prefix('.') {
        return Ok(Term::Empty(squares(rest.as_bytes(), at + 1)?));
    }
    let digits = b.iter().take_while(|c| c.is_ascii_digit()).count();
    let at_least = if digits == 0 {
        1
    } else {
        number(&w[..digits], at)?
    };
    if at_least == 0 {
        return err(at, "a count must be at least 1");
    }
    let (who, roles, used) = pieces(&b[digits..], at + digits)?;
    let sq = &b[digits + used..];
    if sq.is_empty() {
        return err(at + w.len(), "expected squares after the piece");
    }
    let squares = squares(sq, at + digits + used)?;
    if at_least > squares.count() {
        return err(at, "the count is larger than the number of squares");
    }
    Ok(Term::Pieces {
        who,
        roles,
        squares,
        at_least: at_least as u8,
    })
}

/// The squares of `bb` as the side `me` sees them: unchanged for sente,
/// turned around (180°) for gote.
pub(crate) fn view(bb: Bitboard, me: Color) -> Bitboard {
    match me {
        Color::Black => bb,
        Color::White => {
            let mut out = Bitboard::EMPTY;
            for sq in bb {
                out.insert(sq.rotate(9, 9));
            }
            out
        }
    }
}

/// A condition compiled for one side: squares turned to the board's own,
/// sides made absolute.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Cond {
    Pieces {
        color: Color,
        roles: Roles,
        mask: Bitboard,
        at_least: u8,
    },
    Empty(Bitboard),
    Ply(u32, u32),
    Moved(Roles),
    From(Bitboard),
    To(Bitboard),
    Drop,
    Capture(Roles),
    Side(Color),
    Hand {
        color: Color,
        role: Role,
        at_least: u8,
    },
    Captured(Roles),
    Line {
        board: u64,
        hands: [Hand; 2],
    },
    Has {
        color: Color,
        tag: u16,
    },
    Not(Box<Cond>),
    Any(Vec<Vec<Cond>>),
}

/// What a rule is checked against: the position after the named side's
/// move, and what the game did so far.
pub(crate) struct Ctx<'a> {
    pub pos: &'a Position,
    pub ply: u32,
    pub mv: Move,
    pub role: Role,
    /// The role the move took, if any.
    pub took: Option<Role>,
    /// The side being named.
    pub me: Color,
    /// Roles captured so far, by either side (unpromoted).
    pub captured: Roles,
    /// Tags each side has (by colour index): bit `tag`.
    pub has: [TagSet; 2],
}

impl Cond {
    #[inline]
    pub(crate) fn holds(&self, c: &Ctx<'_>) -> bool {
        match self {
            Cond::Pieces {
                color,
                roles,
                mask,
                at_least,
            } => {
                let mut bb = Bitboard::EMPTY;
                let mut r = roles.0;
                while r != 0 {
                    let i = r.trailing_zeros() as usize;
                    r &= r - 1;
                    if let Some(role) = Role::from_index(i) {
                        bb |= c.pos.pieces(*color, role);
                    }
                }
                let hit = bb & *mask;
                if *at_least == 1 {
                    hit.any()
                } else {
                    hit.count() >= u32::from(*at_least)
                }
            }
            Cond::Empty(mask) => (c.pos.occupied() & *mask).is_empty(),
            Cond::Ply(min, max) => (*min..=*max).contains(&c.ply),
            Cond::Moved(roles) => roles.contains(c.role),
            Cond::From(mask) => c.mv.from().is_some_and(|s| mask.contains(s)),
            Cond::To(mask) => mask.contains(c.mv.to()),
            Cond::Drop => c.mv.is_drop(),
            Cond::Capture(roles) => c.took.is_some_and(|r| roles.contains(r.unpromoted())),
            Cond::Side(side) => c.me == *side,
            Cond::Hand {
                color,
                role,
                at_least,
            } => c.pos.hand(*color).count(*role) >= *at_least,
            Cond::Captured(roles) => c.captured.within(*roles),
            Cond::Line { board, hands } => {
                c.pos.board_hash() == *board
                    && c.pos.hand(Color::Black) == &hands[0]
                    && c.pos.hand(Color::White) == &hands[1]
            }
            Cond::Has { color, tag } => c.has[color.index()].contains(*tag),
            Cond::Not(t) => !t.holds(c),
            Cond::Any(alts) => alts.iter().any(|a| a.iter().all(|t| t.holds(c))),
        }
    }
}

impl Cond {
    /// The squares the condition reads, if it reads the board alone.
    fn board_squares(&self) -> Option<Bitboard> {
        match self {
            Cond::Pieces { mask, .. } | Cond::Empty(mask) => Some(*mask),
            Cond::Not(c) => c.board_squares(),
            Cond::Any(alts) => alts
                .iter()
                .flatten()
                .try_fold(Bitboard::EMPTY, |acc, c| Some(acc | c.board_squares()?)),
            _ => None,
        }
    }

    /// [`Program::blocked`] for one condition: squares that keep it false
    /// while they do not change, if it is false on the board alone (or,
    /// for a name the side must not have and has, for good: no squares).
    fn blocked(&self, pos: &Position, has: &[TagSet; 2]) -> Option<Bitboard> {
        match self {
            Cond::Pieces {
                color,
                roles,
                mask,
                at_least,
            } => {
                let mut bb = Bitboard::EMPTY;
                for role in roles.iter() {
                    bb |= pos.pieces(*color, role);
                }
                ((bb & *mask).count() < u32::from(*at_least)).then_some(*mask)
            }
            Cond::Empty(mask) => (pos.occupied() & *mask).any().then_some(*mask),
            // Names are only ever added in a game.
            Cond::Not(inner) => match &**inner {
                Cond::Has { color, tag } => {
                    has[color.index()].contains(*tag).then_some(Bitboard::EMPTY)
                }
                inner => {
                    let squares = inner.board_squares()?;
                    inner.blocked(pos, has).is_none().then_some(squares)
                }
            },
            Cond::Any(alts) => alts.iter().try_fold(Bitboard::EMPTY, |acc, a| {
                Some(acc | a.iter().find_map(|c| c.blocked(pos, has))?)
            }),
            _ => None,
        }
    }
}

/// When a rule can start to hold, so that the tagger checks it only
/// after the moves that may make it hold.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub(crate) enum Key {
    /// After a move of a piece of one of the roles to one of the squares,
    /// for one of these pairs: the rule's `moved=` (with the `to=` beside
    /// it; alternatives that all have one give all of theirs), else the
    /// side's own pieces it names (one of them arriving on its square);
    /// only after a capture when the rule has a top-level `capture=`.
    Moved(Vec<(Roles, Bitboard)>, bool),
    /// The rule looks only at names found, the ply and the captures: it
    /// is checked when a side is given a name it looks at.
    Names,
    /// After every move.
    #[default]
    Always,
}

impl Key {
    /// The key of a side's conditions (its own pieces only).
    fn of(conds: &[Cond]) -> Key {
        fn moved(conds: &[Cond]) -> Option<Vec<(Roles, Bitboard)>> {
            let to = conds
                .iter()
                .find_map(|c| match c {
                    Cond::To(m) => Some(*m),
                    _ => None,
                })
                .unwrap_or(Bitboard(crate::rules::FULL));
            conds.iter().find_map(|c| match c {
                Cond::Moved(r) => Some(vec![(*r, to)]),
                Cond::Any(alts) => alts.iter().try_fold(Vec::new(), |mut acc, a| {
                    let mut m = moved(a)?;
                    // A `to=` beside the alternatives narrows each of them.
                    for (_, t) in &mut m {
                        *t &= to;
                    }
                    acc.extend(m);
                    Some(acc)
                }),
                _ => None,
            })
        }
        let capture = conds.iter().any(|c| matches!(c, Cond::Capture(_)));
        if let Some(m) = moved(conds) {
            return Key::Moved(m, capture);
        }
        let arrivals: Vec<(Roles, Bitboard)> = conds
            .iter()
            .filter_map(|c| match c {
                Cond::Pieces { roles, mask, .. } => Some((*roles, *mask)),
                _ => None,
            })
            .collect();
        if !arrivals.is_empty() {
            return Key::Moved(arrivals, capture);
        }
        // A rule that needs a capture (a top-level `capture=`) cannot hold
        // after a quiet move: it is checked after every capture, whatever
        // moved where, not after every move.
        if capture {
            let to = conds
                .iter()
                .fold(Bitboard(crate::rules::FULL), |to, c| match c {
                    Cond::To(m) => to & *m,
                    _ => to,
                });
            return Key::Moved(vec![(Roles(u16::MAX), to)], true);
        }
        fn names_only(c: &Cond) -> bool {
            match c {
                Cond::Has { .. } | Cond::Ply(..) | Cond::Captured(_) | Cond::Side(_) => true,
                Cond::Not(c) => names_only(c),
                Cond::Any(alts) => alts.iter().flatten().all(names_only),
                _ => false,
            }
        }
        if !conds.is_empty() && conds.iter().all(names_only) {
            return Key::Names;
        }
        Key::Always
    }
}

/// How many required pieces a [`Program`] holds inline.
const NEED: usize = 12;
/// How many forbidden (colour, role, squares) a [`Program`] holds inline.
const FORBID: usize = 4;
/// How many "one of these squares" requirements a [`Program`] holds inline.
const ANY: usize = 4;

/// One side's conditions laid out flat for speed (no pointer to follow
/// for the usual rule, the usual checks in the first cache line): facts
/// about the move, the ply and the captures first, then the pieces
/// required on squares, then masks (no piece of a colour and role on any
/// of some squares, empty squares), then whatever else.
#[derive(Clone, Debug, PartialEq)]
#[repr(C)]
pub(crate) struct Program {
    ply_min: u16,
    ply_max: u16,
    /// Roles the moving piece may have (all bits: any).
    moved: u16,
    /// Roles every capture so far must have (all bits: any).
    captured: u16,
    /// Roles the move must have taken (0: no condition).
    capture: u16,
    /// The side must be this one: 0 sente, 1 gote, 2 either.
    side: u8,
    /// The move must be a drop.
    drop: bool,
    /// Whether `from` is a condition.
    has_from: bool,
    need_len: u8,
    forbid_len: u8,
    /// (square index, colour << 4 | role): that piece on that square.
    need: [(u8, u8); NEED],
    /// The squares of `need`, by the colour needed there (one AND each
    /// rules most positions out before the squares are looked at).
    need_by: [Bitboard; 2],
    /// Squares the move may arrive on.
    to: Bitboard,
    /// Squares the move may come from (a drop comes from none).
    from: Bitboard,
    /// Squares that must be empty.
    empty: Bitboard,
    forbid_who: [(Color, Role); FORBID],
    forbid: [Bitboard; FORBID],
    any_len: u8,
    /// (colour, role, squares): a piece of that colour and role on one of
    /// the squares.
    any_who: [(Color, Role); ANY],
    any: [Bitboard; ANY],
    /// Everything else, checked after the above.
    rest: Vec<Cond>,
    /// The `(…|…)` terms, each as its alternatives compiled alike (a
    /// piece missing from one alternative rules it out in one AND);
    /// checked last.
    anys: Vec<Box<[Program]>>,
}

fn code(c: Color, r: Role) -> u8 {
    (c.index() as u8) << 4 | r.index() as u8
}

impl Program {
    fn new(conds: &[Cond]) -> Program {
        let full = Bitboard(crate::rules::FULL);
        let mut p = Program {
            ply_min: 0,
            ply_max: u16::MAX,
            moved: u16::MAX,
            captured: u16::MAX,
            capture: 0,
            side: 2,
            drop: false,
            has_from: false,
            need_len: 0,
            forbid_len: 0,
            need: [(0, 0); NEED],
            need_by: [Bitboard::EMPTY; 2],
            to: full,
            from: full,
            empty: Bitboard::EMPTY,
            forbid_who: [(Color::Black, Role::King); FORBID],
            forbid: [Bitboard::EMPTY; FORBID],
            any_len: 0,
            any_who: [(Color::Black, Role::King); ANY],
            any: [Bitboard::EMPTY; ANY],
            rest: Vec::new(),
            anys: Vec::new(),
        };
        let single = |roles: Roles| -> Option<Role> {
            if roles.0.count_ones() == 1 {
                Role::from_index(roles.0.trailing_zeros() as usize)
            } else {
                None
            }
        };
        let ply16 = |n: u32| u16::try_from(n).unwrap_or(u16::MAX);
        for c in conds {
            match c {
                Cond::Ply(a, z) => {
                    p.ply_min = p.ply_min.max(ply16(*a));
                    p.ply_max = p.ply_max.min(ply16(*z));
                }
                Cond::Moved(r) => p.moved &= r.0,
                Cond::To(m) => p.to &= *m,
                Cond::From(m) => {
                    p.from &= *m;
                    p.has_from = true;
                }
                Cond::Drop => p.drop = true,
                Cond::Capture(r) if p.capture == 0 => p.capture = r.0,
                Cond::Side(c) if p.side == 2 => p.side = c.index() as u8,
                Cond::Captured(r) => p.captured &= r.0,
                Cond::Pieces {
                    color,
                    roles,
                    mask,
                    at_least: 1,
                } if mask.count() == 1
                    && single(*roles).is_some()
                    && usize::from(p.need_len) < NEED =>
                {
                    let sq = mask.first().map_or(0, |s| s.index() as u8);
                    let r = single(*roles).unwrap_or(Role::King);
                    p.need[usize::from(p.need_len)] = (sq, code(*color, r));
                    p.need_by[color.index()] |= *mask;
                    p.need_len += 1;
                }
                Cond::Pieces {
                    color,
                    roles,
                    mask,
                    at_least: 1,
                } if single(*roles).is_some() && usize::from(p.any_len) < ANY => {
                    let i = usize::from(p.any_len);
                    p.any_who[i] = (*color, single(*roles).unwrap_or(Role::King));
                    p.any[i] = *mask;
                    p.any_len += 1;
                }
                Cond::Not(inner) => match &**inner {
                    Cond::Pieces {
                        color,
                        roles,
                        mask,
                        at_least: 1,
                    } if single(*roles).is_some() => {
                        let who = (*color, single(*roles).unwrap_or(Role::King));
                        let len = usize::from(p.forbid_len);
                        match p.forbid_who[..len].iter().position(|w| *w == who) {
                            Some(i) => p.forbid[i] |= *mask,
                            None if len < FORBID => {
                                p.forbid_who[len] = who;
                                p.forbid[len] = *mask;
                                p.forbid_len += 1;
                            }
                            None => p.rest.push(c.clone()),
                        }
                    }
                    _ => p.rest.push(c.clone()),
                },
                Cond::Empty(m) => p.empty |= *m,
                Cond::Any(alts) => p.anys.push(alts.iter().map(|a| Program::new(a)).collect()),
                _ => p.rest.push(c.clone()),
            }
        }
        p
    }

    /// The program's first words apart ([`Gate`]), for a look that rules
    /// most programs out without reading them.
    pub(crate) fn gate(&self) -> Gate {
        Gate {
            moved: self.moved,
            need_by: self.need_by,
        }
    }

    /// The roles captures may have taken for the conditions to hold (all
    /// bits: any).
    pub(crate) fn captures_allowed(&self) -> u16 {
        self.captured
    }

    /// The plies the conditions allow (their `ply` bounds).
    pub(crate) fn plies(&self) -> (u32, u32) {
        let hi = if self.ply_max == u16::MAX {
            u32::MAX
        } else {
            u32::from(self.ply_max)
        };
        (u32::from(self.ply_min), hi)
    }

    /// Why the conditions cannot hold on `pos`, if one that looks at the
    /// board alone is false there: squares such that it stays false as
    /// long as no piece arrives on or leaves any of them (one square, for
    /// a piece missing from its square; the empty set when nothing can make
    /// it true again in this game, a name the side must not have). `None`
    /// when every such condition holds (the others — the move, the ply,
    /// hands, captures — decide). The tagger skips a rule blocked so until
    /// one of the squares changes.
    pub(crate) fn blocked(&self, pos: &Position, has: &[TagSet; 2]) -> Option<Bitboard> {
        let [b, w] = self.need_by;
        let missing = (b & !pos.by_color(Color::Black)) | (w & !pos.by_color(Color::White));
        if let Some(sq) = missing.first() {
            return Some(Bitboard::from_square(sq));
        }
        for &(sq, want) in &self.need[..usize::from(self.need_len)] {
            let Some(sq) = Square::from_index(usize::from(sq)) else {
                continue;
            };
            if pos.piece_at(sq).map_or(0xff, |p| code(p.color, p.role)) != want {
                return Some(Bitboard::from_square(sq));
            }
        }
        if let Some(sq) = (pos.occupied() & self.empty).first() {
            return Some(Bitboard::from_square(sq));
        }
        for i in 0..usize::from(self.forbid_len) {
            let (col, r) = self.forbid_who[i];
            if let Some(sq) = (pos.pieces(col, r) & self.forbid[i]).first() {
                return Some(Bitboard::from_square(sq));
            }
        }
        for i in 0..usize::from(self.any_len) {
            let (col, r) = self.any_who[i];
            if (pos.pieces(col, r) & self.any[i]).is_empty() {
                return Some(self.any[i]);
            }
        }
        // A `(…|…)` is blocked when each alternative is: by their squares.
        let anys = || {
            self.anys.iter().find_map(|alts| {
                alts.iter()
                    .try_fold(Bitboard::EMPTY, |acc, p| Some(acc | p.blocked(pos, has)?))
            })
        };
        self.rest
            .iter()
            .find_map(|c| c.blocked(pos, has))
            .or_else(anys)
    }

    /// Whether the conditions hold.
    #[inline]
    pub(crate) fn holds(&self, c: &Ctx<'_>) -> bool {
        let ply = u16::try_from(c.ply).unwrap_or(u16::MAX);
        if ply < self.ply_min
            || ply > self.ply_max
            || self.moved >> c.role.index() & 1 == 0
            || c.captured.0 & !self.captured != 0
            || (self.side != 2 && self.side != c.me.index() as u8)
            || (self.drop && !c.mv.is_drop())
        {
            return false;
        }
        if self.capture != 0
            && c.took
                .is_none_or(|r| self.capture >> r.unpromoted().index() & 1 == 0)
        {
            return false;
        }
        let [b, w] = self.need_by;
        if (c.pos.by_color(Color::Black) & b) != b
            || (c.pos.by_color(Color::White) & w) != w
            || (c.pos.occupied() & self.empty).any()
        {
            return false;
        }
        for &(sq, want) in &self.need[..usize::from(self.need_len)] {
            let here = Square::from_index(usize::from(sq)).and_then(|s| c.pos.piece_at(s));
            if here.map_or(0xff, |p| code(p.color, p.role)) != want {
                return false;
            }
        }
        if !self.to.contains(c.mv.to())
            || (self.has_from && !c.mv.from().is_some_and(|s| self.from.contains(s)))
        {
            return false;
        }
        for i in 0..usize::from(self.any_len) {
            let (col, r) = self.any_who[i];
            if (c.pos.pieces(col, r) & self.any[i]).is_empty() {
                return false;
            }
        }
        for i in 0..usize::from(self.forbid_len) {
            let (col, r) = self.forbid_who[i];
            if (c.pos.pieces(col, r) & self.forbid[i]).any() {
                return false;
            }
        }
        (c.pos.occupied() & self.empty).is_empty()
            && self.rest.iter().all(|t| t.holds(c))
            && self.anys.iter().all(|alts| alts.iter().any(|p| p.holds(c)))
    }
}

impl Default for Program {
    fn default() -> Program {
        Program::new(&[])
    }
}

/// Two conditions of a [`Program`] kept apart, densely, for the tagger:
/// the roles the moving piece may have and the squares each colour must
/// occupy. When they fail the program does not hold ([`Gate::admits`] is
/// false only where [`Program::holds`] is), so most programs are ruled
/// out without being read.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Gate {
    moved: u16,
    need_by: [Bitboard; 2],
}

impl Gate {
    /// The squares the program needs a piece of some colour on that
    /// `by_color` leaves without one (empty: none).
    #[inline(always)]
    pub(crate) fn missing(&self, by_color: [Bitboard; 2]) -> Bitboard {
        let [b, w] = self.need_by;
        (b & !by_color[0]) | (w & !by_color[1])
    }

    /// Whether the program may hold after a move of `role` that leaves
    /// the pieces of each colour on `by_color`.
    #[inline(always)]
    pub(crate) fn admits(&self, role: Role, by_color: [Bitboard; 2]) -> bool {
        let [b, w] = self.need_by;
        self.moved >> role.index() & 1 != 0 && (by_color[0] & b) == b && (by_color[1] & w) == w
    }
}

/// A rule compiled for both sides.
#[derive(Clone, Debug, PartialEq, Default)]
pub(crate) struct Compiled {
    /// The conditions for sente, then for gote.
    pub sides: [Vec<Cond>; 2],
    /// The same, laid out for speed.
    pub programs: [Program; 2],
    /// The key of each side's conditions.
    pub keys: [Key; 2],
}

impl Compiled {
    /// The squares a side's rule allows for its own king, when it names
    /// them (a top-level `K…`).
    pub(crate) fn king_squares(&self, side: usize) -> Option<Bitboard> {
        let me = if side == 0 {
            Color::Black
        } else {
            Color::White
        };
        self.sides[side].iter().find_map(|c| match c {
            Cond::Pieces {
                color, roles, mask, ..
            } if *color == me && *roles == Roles::of(Role::King) => Some(*mask),
            _ => None,
        })
    }

    /// The entries the rule names with `has=`/`opp=`.
    pub(crate) fn names(&self) -> Vec<u16> {
        fn walk(c: &Cond, out: &mut Vec<u16>) {
            match c {
                Cond::Has { tag, .. } => out.push(*tag),
                Cond::Not(c) => walk(c, out),
                Cond::Any(alts) => alts.iter().flatten().for_each(|c| walk(c, out)),
                _ => {}
            }
        }
        let mut out = Vec::new();
        self.sides[0].iter().for_each(|c| walk(c, &mut out));
        out
    }
}

impl Compiled {
    /// Whether the rule holds for the side `me`.
    #[inline]
    pub(crate) fn holds(&self, me: Color, c: &Ctx<'_>) -> bool {
        self.programs[me.index()].holds(c)
    }
}

/// The position after `moves` from the even start, or the first move that
/// is not legal (its 0-based index).
fn line_position(moves: &[Move]) -> Result<Position, usize> {
    let mut pos = Position::new(Variant::Standard);
    for (i, m) in moves.iter().enumerate() {
        pos.play(*m).map_err(|_| i)?;
    }
    Ok(pos)
}

/// `pos` turned around: the board rotated 180°, the colours and hands
/// swapped.
fn turned(pos: &Position) -> Position {
    let mut s = Setup::empty(Variant::Standard);
    for sq in Square::all() {
        if let Some(p) = pos.piece_at(sq) {
            s.board[sq.rotate(9, 9).index()] = Some(crate::rules::Piece::new(!p.color, p.role));
        }
    }
    s.hands = [*pos.hand(Color::White), *pos.hand(Color::Black)];
    s.turn = !pos.turn();
    Position::from_setup_unchecked(&s)
}

/// Compiles `rule` for both sides; `resolve` gives the index of an id
/// named by `has=`/`opp=` (or `None`).
pub(crate) fn compile(
    rule: &Pattern,
    resolve: &dyn Fn(&str) -> Option<u16>,
) -> Result<Compiled, String> {
    fn one(t: &Term, me: Color, resolve: &dyn Fn(&str) -> Option<u16>) -> Result<Cond, String> {
        Ok(match t {
            Term::Pieces {
                who,
                roles,
                squares,
                at_least,
            } => Cond::Pieces {
                color: who.color(me),
                roles: *roles,
                mask: view(*squares, me),
                at_least: *at_least,
            },
            Term::Empty(sq) => Cond::Empty(view(*sq, me)),
            Term::Ply { min, max } => Cond::Ply(*min, *max),
            Term::Moved(r) => Cond::Moved(*r),
            Term::From(sq) => Cond::From(view(*sq, me)),
            Term::To(sq) => Cond::To(view(*sq, me)),
            Term::Drop => Cond::Drop,
            Term::Capture(r) => Cond::Capture(*r),
            Term::Side(c) => Cond::Side(*c),
            Term::Hand {
                who,
                role,
                at_least,
            } => Cond::Hand {
                color: who.color(me),
                role: *role,
                at_least: *at_least,
            },
            Term::Captured(r) => Cond::Captured(*r),
            Term::Line(moves) => {
                let pos = line_position(moves).map_err(|i| {
                    format!(
                        "line: move {} ({}) is not legal there",
                        i + 1,
                        moves[i].usi(Variant::Standard)
                    )
                })?;
                // The line names the side that played its last move.
                let owner = if moves.len() % 2 == 1 {
                    Color::Black
                } else {
                    Color::White
                };
                let pos = if owner == me { pos } else { turned(&pos) };
                Cond::Line {
                    board: pos.board_hash(),
                    hands: [*pos.hand(Color::Black), *pos.hand(Color::White)],
                }
            }
            Term::Has { who, id } => Cond::Has {
                color: who.color(me),
                tag: resolve(id).ok_or_else(|| format!("`{id}` is not an entry above this one"))?,
            },
            Term::Not(t) => Cond::Not(Box::new(one(t, me, resolve)?)),
            Term::Any(alts) => Cond::Any(
                alts.iter()
                    .map(|a| a.iter().map(|t| one(t, me, resolve)).collect())
                    .collect::<Result<_, _>>()?,
            ),
        })
    }
    let side = |me: Color| -> Result<Vec<Cond>, String> {
        rule.terms.iter().map(|t| one(t, me, resolve)).collect()
    };
    let sides = [side(Color::Black)?, side(Color::White)?];
    let key = |me: Color| {
        // Only the side's own pieces make a key.
        let own: Vec<Cond> = sides[me.index()]
            .iter()
            .filter(|c| match c {
                Cond::Pieces { color, .. } => *color == me,
                _ => true,
            })
            .cloned()
            .collect();
        Key::of(&own)
    };
    let keys = [key(Color::Black), key(Color::White)];
    let programs = [Program::new(&sides[0]), Program::new(&sides[1])];
    Ok(Compiled {
        sides,
        programs,
        keys,
    })
}

impl Roles {
    /// The roles as upper-case letters (`PB`).
    pub fn letters(self) -> String {
        self.iter()
            .map(|r| r.sfen(Variant::Standard))
            .collect::<Vec<_>>()
            .concat()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(s: &str) -> Square {
        Square::new(s.as_bytes()[0] - b'0', s.as_bytes()[1] - b'0').unwrap()
    }

    #[test]
    fn a_rule_that_needs_a_capture_is_looked_at_after_captures_only() {
        // No piece moves or arrives in it: before, such a rule was
        // checked after every move; only a capture can make it hold.
        let compiled = |text: &str| compile(&Pattern::parse(text).unwrap(), &|_| None).unwrap();
        for key in compiled("capture=B ply<=20 captured<=PB").keys {
            match key {
                Key::Moved(pairs, true) => {
                    assert_eq!(pairs.len(), 1);
                    assert_eq!(pairs[0].0, Roles(u16::MAX));
                    assert_eq!(pairs[0].1.count(), 81);
                }
                k => panic!("{k:?}"),
            }
        }
        // A `to=` beside it narrows the squares.
        for key in compiled("capture=P to=34").keys {
            match key {
                Key::Moved(pairs, true) => assert_eq!(pairs[0].1.count(), 1),
                k => panic!("{k:?}"),
            }
        }
    }

    #[test]
    fn a_gate_fails_only_where_its_program_fails() {
        let c = compile(&Pattern::parse("moved=S K28 S38 G49").unwrap(), &|_| None).unwrap();
        let pos = Position::new(Variant::Standard);
        let by_color = [pos.by_color(Color::Black), pos.by_color(Color::White)];
        let gate = c.programs[0].gate();
        // The start has no king on 28: the gate says no, for any role.
        assert!(!gate.admits(Role::Silver, by_color));
        // Squares the start fills, and a role the rule does not allow.
        let c = compile(&Pattern::parse("moved=S G49 S39").unwrap(), &|_| None).unwrap();
        assert!(c.programs[0].gate().admits(Role::Silver, by_color));
        assert!(!c.programs[0].gate().admits(Role::Gold, by_color));
    }

    #[test]
    fn words_parse() {
        let r = Pattern::parse("K28,18 2[GS]38,47,58 !g58 .27,37 ply<=30 hand=2p captured<=PB")
            .unwrap();
        assert_eq!(r.terms.len(), 7);
        match &r.terms[0] {
            Term::Pieces {
                who: Who::Me,
                roles,
                squares,
                at_least: 1,
            } => {
                assert_eq!(*roles, Roles::of(Role::King));
                assert!(squares.contains(sq("28")) && squares.contains(sq("18")));
                assert_eq!(squares.count(), 2);
            }
            t => panic!("{t:?}"),
        }
        match &r.terms[1] {
            Term::Pieces {
                roles, at_least: 2, ..
            } => {
                assert!(roles.contains(Role::Gold) && roles.contains(Role::Silver))
            }
            t => panic!("{t:?}"),
        }
        assert!(
            matches!(&r.terms[2], Term::Not(t) if matches!(**t, Term::Pieces { who: Who::Opp, .. }))
        );
        assert_eq!(r.terms[4], Term::Ply { min: 0, max: 30 });
        assert_eq!(
            r.terms[5],
            Term::Hand {
                who: Who::Opp,
                role: Role::Pawn,
                at_least: 2
            }
        );
        let r = Pattern::parse("R[5-9]8 (S37 | N37 P36) +B*[1-3]").unwrap();
        match &r.terms[0] {
            Term::Pieces { squares, .. } => assert_eq!(squares.count(), 5),
            t => panic!("{t:?}"),
        }
        assert!(matches!(&r.terms[1], Term::Any(a) if a.len() == 2 && a[1].len() == 2));
        match &r.terms[2] {
            Term::Pieces { roles, squares, .. } => {
                assert_eq!(*roles, Roles::of(Role::Horse));
                assert_eq!(squares.count(), 27);
            }
            t => panic!("{t:?}"),
        }
    }

    #[test]
    fn errors_say_where() {
        for (text, offset) in [
            ("K28 X38", 4),
            ("K2", 2),
            ("K28 (S38", 4),
            ("K28 | S38", 4),
            ("ply<30", 3),
            ("frob=1", 0),
            ("3K28", 0),
            ("[Gs]38", 2),
            ("line=7g7f,9z", 10),
        ] {
            let e = Pattern::parse(text).unwrap_err();
            assert_eq!(e.offset, offset, "{text}: {e}");
            assert_eq!(e.kind(), PatternErrorKind::Syntax);
        }
    }

    #[test]
    fn nesting_is_bounded() {
        // Up to the cap, `!` and `(` nest; one more is an error at the
        // `!` or `(` that goes past it, however deep the text goes.
        let parens = |n: usize| format!("{}K28{}", "(".repeat(n), ")".repeat(n));
        let nots = |n: usize| format!("{}K28", "!".repeat(n));
        let mixed = |n: usize| format!("{}K28{}", "!(".repeat(n / 2), ")".repeat(n / 2));
        for f in [&parens as &dyn Fn(usize) -> String, &nots, &mixed] {
            assert!(
                Pattern::parse(&f(MAX_RULE_DEPTH)).is_ok(),
                "{}",
                f(MAX_RULE_DEPTH)
            );
            let e = Pattern::parse(&f(MAX_RULE_DEPTH + 2)).unwrap_err();
            assert_eq!(e.offset, MAX_RULE_DEPTH, "{e}");
            assert!(e.message.contains("nested"), "{e}");
            assert_eq!(e.kind(), PatternErrorKind::TooDeep);
            // Far deeper than a stack could take unbounded.
            let e = Pattern::parse(&f(200_000)).unwrap_err();
            assert_eq!(e.offset, MAX_RULE_DEPTH, "{e}");
        }
        // Siblings do not add up.
        let wide = vec!["!(K28 | !S38)"; 1000].join(" ");
        assert!(Pattern::parse(&wide).is_ok());
    }

    #[test]
    fn gote_sees_the_board_turned() {
        let r = Pattern::parse("K28 s38").unwrap();
        let c = compile(&r, &|_| None).unwrap();
        match (&c.sides[0][0], &c.sides[1][0], &c.sides[1][1]) {
            (
                Cond::Pieces {
                    color: Color::Black,
                    mask: a,
                    ..
                },
                Cond::Pieces {
                    color: Color::White,
                    mask: b,
                    ..
                },
                Cond::Pieces {
                    color: Color::Black,
                    mask: o,
                    ..
                },
            ) => {
                assert_eq!(a.single(), Some(sq("28")));
                assert_eq!(b.single(), Some(sq("82")));
                assert_eq!(o.single(), Some(sq("72")));
            }
            t => panic!("{t:?}"),
        }
    }

    #[test]
    fn a_line_must_be_legal() {
        let r = Pattern::parse("line=7g7f,3c3d,7f7e,8b8h").unwrap();
        assert!(compile(&r, &|_| None).unwrap_err().contains("move 4"));
    }
}
