//! Partial-position search (`--pattern`): games whose main line reaches a
//! position where a rule of the taxonomy's language ([`crate::tags::rule`],
//! docs/tags.md) holds — pieces of a side on squares, empty squares,
//! pieces in hand — within a ply range, seen from one side.
//!
//! ```
//! use kifu::select::{PatternQuery, PatternSide, PlyRange};
//! use kifu::rules::{Position, Variant};
//!
//! // Sente's king on 5九 and an empty 5八: the start position holds it.
//! let q = PatternQuery::parse("K59 .58", PatternSide::Sente).unwrap();
//! assert!(q.holds_at(&Position::new(Variant::Standard), 0, None));
//! assert!(PatternQuery::parse("K59 .57", PatternSide::Sente).unwrap().holds_at(&Position::new(Variant::Standard), 0, None) == false);
//! assert_eq!("10..40".parse::<PlyRange>().unwrap(), PlyRange { min: 10, max: 40 });
//! ```

use crate::rules::{Color, Move, Position, Role, Variant};
use crate::tags::rule::{compile, Compiled, Ctx, Pattern, PatternError, Roles, Term};
use crate::tags::TagSet;
use std::fmt;
use std::str::FromStr;

/// Whose view a pattern is read from: upper-case letters are that side's
/// pieces and squares are written as it sees the board (docs/select.md).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum PatternSide {
    /// Sente's (下手's): squares as written, upper case sente's pieces.
    #[default]
    Sente,
    /// Gote's (上手's): the pattern turned 180°, upper case gote's pieces.
    Gote,
    /// Either side's (sente's view, then gote's).
    Either,
    /// The side that played the move just played (at ply 0, the side not
    /// to move), as the taxonomy's rules are checked.
    Mover,
}

impl FromStr for PatternSide {
    type Err = String;
    fn from_str(s: &str) -> Result<PatternSide, String> {
        match s.trim().to_ascii_lowercase().as_str() {
            "sente" | "black" | "先手" | "下手" => Ok(PatternSide::Sente),
            "gote" | "white" | "後手" | "上手" => Ok(PatternSide::Gote),
            "either" | "any" | "both" => Ok(PatternSide::Either),
            "mover" => Ok(PatternSide::Mover),
            _ => Err(format!(
                "expected sente, gote, either or mover, found `{s}`"
            )),
        }
    }
}

/// A range of plies, both ends included (`10..40`, `10..`, `..40`, `25`;
/// `10-40` too).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PlyRange {
    /// Lowest ply (0 is the start position).
    pub min: u32,
    /// Highest ply.
    pub max: u32,
}

impl Default for PlyRange {
    fn default() -> PlyRange {
        PlyRange {
            min: 0,
            max: u32::MAX,
        }
    }
}

impl PlyRange {
    /// Whether `ply` is within the range.
    pub fn contains(&self, ply: u32) -> bool {
        (self.min..=self.max).contains(&ply)
    }
}

impl FromStr for PlyRange {
    type Err = String;
    fn from_str(s: &str) -> Result<PlyRange, String> {
        let t = s.trim();
        let num = |x: &str, dflt: u32| -> Result<u32, String> {
            let x = x.trim();
            if x.is_empty() {
                return Ok(dflt);
            }
            x.parse().map_err(|_| {
                format!("expected a ply range such as 10..40, 10.., ..40 or 25, found `{s}`")
            })
        };
        let (a, b) = match t.split_once("..").or_else(|| t.split_once('-')) {
            Some((a, b)) => (num(a, 0)?, num(b.strip_prefix('=').unwrap_or(b), u32::MAX)?),
            None => {
                let v = num(t, 0)?;
                if t.is_empty() {
                    return Err("expected a ply range such as 10..40".into());
                }
                (v, v)
            }
        };
        if a > b {
            return Err(format!(
                "the range `{s}` is empty (its start is after its end)"
            ));
        }
        Ok(PlyRange { min: a, max: b })
    }
}

impl fmt::Display for PlyRange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.max {
            u32::MAX => write!(f, "{}..", self.min),
            m => write!(f, "{}..{m}", self.min),
        }
    }
}

/// Why a `--pattern` is refused: the rule does not parse (with the
/// parser's offset), or names what a search cannot check.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PatternQueryError {
    /// The text does not follow the rule language.
    Parse(PatternError),
    /// The rule parses but cannot be used as a search (`has=`/`opp=`
    /// name taxonomy entries; an illegal `line=`).
    Unsupported(String),
}

impl fmt::Display for PatternQueryError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PatternQueryError::Parse(e) => e.fmt(f),
            PatternQueryError::Unsupported(m) => f.write_str(m),
        }
    }
}

impl std::error::Error for PatternQueryError {}

/// A compiled `--pattern` (see the [module docs](self)).
#[derive(Clone, Debug)]
pub struct PatternQuery {
    text: String,
    side: PatternSide,
    compiled: Compiled,
    /// The rule names the move just played (`moved=`, `from=`, `to=`,
    /// `drop`, `capture=`): it never holds at ply 0.
    needs_move: bool,
}

impl PartialEq for PatternQuery {
    fn eq(&self, other: &Self) -> bool {
        self.text == other.text && self.side == other.side
    }
}

fn walk(terms: &[Term], f: &mut dyn FnMut(&Term)) {
    for t in terms {
        f(t);
        match t {
            Term::Not(t) => walk(std::slice::from_ref(t), f),
            Term::Any(alts) => alts.iter().for_each(|a| walk(a, f)),
            _ => {}
        }
    }
}

impl PatternQuery {
    /// Parses and compiles `text` read from `side`'s view.
    pub fn parse(text: &str, side: PatternSide) -> Result<PatternQuery, PatternQueryError> {
        let pattern = Pattern::parse(text).map_err(PatternQueryError::Parse)?;
        let mut has = false;
        let mut needs_move = false;
        walk(&pattern.terms, &mut |t| match t {
            Term::Has { .. } => has = true,
            Term::Moved(_) | Term::From(_) | Term::To(_) | Term::Drop | Term::Capture(_) => {
                needs_move = true
            }
            _ => {}
        });
        if has {
            return Err(PatternQueryError::Unsupported(
                "`has=`/`opp=` name taxonomy entries: select by name with --opening, --castle or --style".into(),
            ));
        }
        let compiled = compile(&pattern, &|_| None).map_err(PatternQueryError::Unsupported)?;
        Ok(PatternQuery {
            text: text.to_string(),
            side,
            compiled,
            needs_move,
        })
    }

    /// The pattern as given.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// Whose view it is read from.
    pub fn side(&self) -> PatternSide {
        self.side
    }

    /// Whether the pattern holds in `pos` (a standard-shogi position)
    /// at `ply`, after `last` (the move just played and its role and
    /// capture; `None` at the start); `captured` the roles taken so far.
    pub fn holds_at(
        &self,
        pos: &Position,
        ply: u32,
        last: Option<(Move, Role, Option<Role>)>,
    ) -> bool {
        self.holds_with(pos, ply, last, Roles::default())
    }

    /// [`PatternQuery::holds_at`] with the roles captured so far (for
    /// `captured<=`, `nocapture`).
    pub fn holds_with(
        &self,
        pos: &Position,
        ply: u32,
        last: Option<(Move, Role, Option<Role>)>,
        captured: Roles,
    ) -> bool {
        if pos.variant() != Variant::Standard {
            return false;
        }
        let (mv, role, took) = match last {
            Some(l) => l,
            None if self.needs_move => return false,
            // Never looked at: the rule names no move.
            None => (
                Move::Drop {
                    role: Role::Pawn,
                    to: crate::rules::Square::from_index(0).expect("square 0"),
                },
                Role::Pawn,
                None,
            ),
        };
        let check = |me: Color| {
            self.compiled.holds(
                me,
                &Ctx {
                    pos,
                    ply,
                    mv,
                    role,
                    took,
                    me,
                    captured,
                    has: [TagSet::default(); 2],
                },
            )
        };
        match self.side {
            PatternSide::Sente => check(Color::Black),
            PatternSide::Gote => check(Color::White),
            PatternSide::Either => check(Color::Black) || check(Color::White),
            PatternSide::Mover => check(!pos.turn()),
        }
    }
}

/// The patterns of a filter and the range they are looked for in.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct PatternFilter {
    /// Each must hold at some ply of the range (not necessarily the same).
    pub patterns: Vec<PatternQuery>,
    /// The plies looked at.
    pub plies: PlyRange,
}

/// Follows one game's main line for a [`PatternFilter`]: which patterns
/// held, and the ply by which all had.
#[derive(Clone, Debug, Default)]
pub(crate) struct PatternWatch {
    /// Bit i: pattern i held.
    held: u64,
    /// The roles captured so far.
    captured: Roles,
    /// The ply at which the last pattern first held.
    pub(crate) ply: Option<u32>,
}

/// At most this many `--pattern`s in one filter.
pub const MAX_PATTERNS: usize = 64;

impl PatternWatch {
    pub(crate) fn reset(&mut self) {
        *self = PatternWatch::default();
    }

    /// Looks at the position at `ply`; true once every pattern held.
    pub(crate) fn look(
        &mut self,
        f: &PatternFilter,
        pos: &Position,
        ply: u32,
        last: Option<(Move, Role, Option<Role>)>,
    ) -> bool {
        if let Some((_, _, Some(took))) = last {
            self.captured.0 |= Roles::of(took.unpromoted()).0;
        }
        if self.ply.is_some() {
            return true;
        }
        if f.plies.contains(ply) {
            for (i, q) in f.patterns.iter().enumerate().take(MAX_PATTERNS) {
                if self.held >> i & 1 == 0 && q.holds_with(pos, ply, last, self.captured) {
                    self.held |= 1 << i;
                }
            }
            let n = f.patterns.len().min(MAX_PATTERNS);
            let all = if n == 64 { u64::MAX } else { (1u64 << n) - 1 };
            if self.held == all {
                self.ply = Some(ply);
                return true;
            }
        }
        false
    }

    /// Whether the patterns can no longer all hold: the range is over.
    pub(crate) fn hopeless(&self, f: &PatternFilter, ply: u32) -> bool {
        self.ply.is_none() && ply >= f.plies.max
    }
}
