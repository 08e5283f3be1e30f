//! The one resolver: a syntactic move and a position become a [`Move`], and
//! the [`LineCursor`] that knows, for every line being read, the position
//! its next move is played in. Every consumer of the event stream that
//! needs positions (record building, validation, statistics) goes through
//! here, so a condition gets the same finding whatever the format.

use super::written::WrittenText;
use super::{Finding, Rule};
use crate::record::Location;
use crate::rules::color::Color;
use crate::rules::moves::Move;
use crate::rules::position::Position;
use crate::rules::role::Role;
use crate::rules::setup::Setup;
use crate::rules::square::Square;
use crate::text::notation::csa::CsaMove;
use crate::text::notation::moves::{Dest, MoveText, Origin};

/// A move as a format writes it, before any position is consulted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RawMove {
    /// CSA: sign, origin, destination and the piece *after* the move.
    Csa(CsaMove),
    /// KIF and KI2 (Japanese notation): destination or `同`, the piece,
    /// promotion, origin square or `打`, relative marks; and the side mark
    /// when one was written (KI2 ▲△).
    Japanese(MoveText, Option<Color>),
    /// PSN: international notation (origin only when needed).
    Psn(crate::text::notation::psn::PsnMove),
    /// JKF: the move object's fields as written.
    Jkf(crate::text::notation::jkf::JkfMove),
    /// USI: a complete move.
    Usi(Move),
    /// A move the reader could not place when it built the record (see
    /// [`crate::record::Stop`]): replaying a record, it stops the line
    /// again, and its finding is the one the reader already reported.
    Unplaced,
    /// A move already resolved (a record being replayed): what the record
    /// says moves, and who.
    Resolved {
        /// The move.
        mv: Move,
        /// The role the record names, if any.
        role: Option<Role>,
        /// The side the record names, if any.
        color: Option<Color>,
    },
}

/// A resolved move with what the record claims about it (checked by the
/// validator: `piece-mismatch`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Resolved {
    /// The move (possibly illegal: the validator judges).
    pub mv: Move,
    /// The role the record says moves (before promotion), when it names one.
    pub role: Option<Role>,
    /// The side the record says moves, when it names one.
    pub color: Option<Color>,
    /// Only legality told the candidates apart: the relative mark written
    /// was not enough by the pseudo-legal rule (a `dialect` warning).
    pub by_legality: bool,
    /// The record named this unpromoted role (`歩`, `香`, `桂`, `銀`, `角`,
    /// `飛`) for the promoted piece that moves (と, 成香, 成桂, 成銀, 馬, 龍:
    /// `role`), the only piece that fits: a KIF origin holding it, or in KI2
    /// the one such piece that reaches the square when no piece of the
    /// named role does and none is in hand (a `dialect` warning).
    pub unpromoted_name: Option<Role>,
}

impl RawMove {
    /// Resolves the move in `pos`; `last_to` is the previous move's
    /// destination (for `同`). `Err` is the rule and a message.
    pub fn to_move(
        &self,
        pos: &Position,
        last_to: Option<Square>,
    ) -> Result<Resolved, (Rule, String)> {
        Ok(match *self {
            RawMove::Csa(m) => csa_resolved(&m, pos),
            RawMove::Japanese(m, color) => {
                let to = match m.dest {
                    Dest::Square(sq) => sq,
                    Dest::Same => last_to.ok_or((
                        Rule::Syntax,
                        "`同` needs a previous move, but this is the first move".to_string(),
                    ))?,
                };
                let promote = m.promote == Some(true);
                let (mv, by_legality) = match m.origin {
                    Origin::Square(from) => {
                        let mv = Move::Normal { from, to, promote };
                        // Only a piece that promotes, named where another
                        // piece stands, is looked at again.
                        if m.role.promoted().is_some()
                            && pos.piece_at(from).is_some_and(|p| p.role != m.role)
                        {
                            if let Some(r) = promoted_named_unpromoted(pos, m.role, mv, color) {
                                return Ok(r);
                            }
                        }
                        (mv, false)
                    }
                    Origin::Drop => (Move::Drop { role: m.role, to }, false),
                    Origin::None => {
                        use crate::text::notation::ki2::{resolve, ResolveError};
                        match resolve(pos, to, m.role, m.mark, promote) {
                            Ok(r) => (r.mv, r.by_legality),
                            Err(ResolveError::NoPiece) => {
                                if let Some(r) =
                                    ki2_promoted_named_unpromoted(pos, to, &m, promote, color)
                                {
                                    return Ok(r);
                                }
                                return Err((
                                    Rule::NoPiece,
                                    format!(
                                        "no {} of the side to move can move to {to} as `{{written}}` says",
                                        m.role
                                    ),
                                ));
                            }
                            Err(ResolveError::Ambiguous(sqs)) => {
                                let list = sqs
                                    .iter()
                                    .map(|s| {
                                        let mut t = String::new();
                                        crate::text::notation::lexicon::push_square(*s, &mut t);
                                        format!("{t} ({s})")
                                    })
                                    .collect::<Vec<_>>()
                                    .join(", ");
                                return Err((
                                    Rule::Ambiguous,
                                    format!("`{{written}}` fits {} pieces: {list}", sqs.len()),
                                ));
                            }
                        }
                    }
                };
                Resolved {
                    mv,
                    role: Some(m.role),
                    color,
                    by_legality,
                    unpromoted_name: None,
                }
            }
            RawMove::Psn(m) => {
                use crate::text::notation::psn::ResolveError;
                let mv = m.to_move(pos, false).map_err(|e| {
                    let rule = match e {
                        ResolveError::Ambiguous(_) => Rule::Ambiguous,
                        ResolveError::NoPiece => Rule::NoPiece,
                        ResolveError::NotDroppable => Rule::NotInHand,
                        ResolveError::OffBoard => Rule::Syntax,
                    };
                    (rule, format!("cannot play `{{written}}`: {e}"))
                })?;
                Resolved {
                    mv,
                    role: Some(m.role()),
                    color: None,
                    by_legality: false,
                    unpromoted_name: None,
                }
            }
            RawMove::Jkf(m) => m.to_move(pos, last_to)?,
            RawMove::Usi(mv) => Resolved {
                mv,
                role: None,
                color: None,
                by_legality: false,
                unpromoted_name: None,
            },
            RawMove::Resolved { mv, role, color } => Resolved {
                mv,
                role,
                color,
                by_legality: false,
                unpromoted_name: None,
            },
            RawMove::Unplaced => {
                return Err((
                    Rule::NoPiece,
                    "`{written}` could not be placed on the board".to_string(),
                ))
            }
        })
    }
}

/// A KI2 move that names a piece by its base name (`▲２二歩` for a と,
/// `▲５五角` for a 馬) when no piece of that name can make it: read as the
/// move of the one promoted piece of that kind that can, when
///
/// - no promotion is written (`歩成` for a と names no move),
/// - no piece of the named role reaches the square by its movement and
///   none is in hand (else the move is that piece's, or no move at all),
/// - exactly one promoted piece of the kind fits the square and the
///   relative mark by its movement (legality is not used to choose), and
/// - its move is legal.
///
/// `None` otherwise: the move stays refused (`no-piece`).
#[cold]
fn ki2_promoted_named_unpromoted(
    pos: &Position,
    to: Square,
    m: &MoveText,
    promote: bool,
    color: Option<Color>,
) -> Option<Resolved> {
    use crate::text::notation::ki2::{attackers, resolve};
    let promoted = m.role.promoted().filter(|_| !promote)?;
    let turn = pos.turn();
    if !attackers(pos, to, turn, m.role).is_empty() || pos.hand(turn).count(m.role) > 0 {
        return None;
    }
    let r = resolve(pos, to, promoted, m.mark, false).ok()?;
    if r.by_legality {
        return None;
    }
    promoted_named_unpromoted(pos, m.role, r.mv, color)
}

/// `mv` read as the move of the promoted piece on its origin when the
/// record named the unpromoted role (`３三角(22)` with a 馬 on 2二, as an app
/// writes a horse's move; `２二歩(23)` with a と on 2三): any role that
/// promotes (歩 香 桂 銀 角 飛) named, its promoted form on the origin, no
/// promotion written, and the move legal for that piece. `None` otherwise
/// (the move stays as written, for the validator to judge:
/// `piece-mismatch`).
#[cold]
fn promoted_named_unpromoted(
    pos: &Position,
    named: Role,
    mv: Move,
    color: Option<Color>,
) -> Option<Resolved> {
    let Move::Normal {
        from,
        promote: false,
        ..
    } = mv
    else {
        return None;
    };
    let actual = named.promoted()?;
    let p = pos.piece_at(from)?;
    if p.role != actual || p.color != pos.turn() || color.is_some_and(|c| c != p.color) {
        return None;
    }
    pos.check(mv).ok()?;
    Some(Resolved {
        mv,
        role: Some(actual),
        color,
        by_legality: false,
        unpromoted_name: Some(named),
    })
}

/// A CSA move in `pos`: the code names the piece after the move, so it is a
/// promotion when it is the promoted form of what stands on the origin.
#[inline]
fn csa_resolved(m: &CsaMove, pos: &Position) -> Resolved {
    let (mv, role) = match m.from {
        None => (
            Move::Drop {
                role: m.role,
                to: m.to,
            },
            m.role,
        ),
        Some(from) => match pos.piece_at(from).map(|p| p.role) {
            Some(r) if r != m.role && r.promoted() == Some(m.role) => (
                Move::Normal {
                    from,
                    to: m.to,
                    promote: true,
                },
                r,
            ),
            _ => (
                Move::Normal {
                    from,
                    to: m.to,
                    promote: false,
                },
                m.role,
            ),
        },
    };
    Resolved {
        mv,
        role: Some(role),
        color: Some(m.color),
        by_legality: false,
        unpromoted_name: None,
    }
}

/// A finding the resolver returns: boxed, since findings are rare and the
/// result is moved on every move.
pub type BoxedFinding = Box<Finding>;

/// The most moves (main line and variations together) one game may hold:
/// a larger game is reported (rule `limit`) and its further moves are not
/// read, so that memory per game stays bounded whatever the input.
pub const MAX_GAME_MOVES: u32 = 1 << 20;

/// Moves between two stored positions of a line: a variation replays at
/// most this many moves to find its start, whatever the length of the line
/// it branches from.
const CHECKPOINT_STRIDE: usize = 64;

/// One line being read.
#[derive(Clone, Debug)]
pub(crate) struct CursorLine {
    /// Game ply (1-based) of the line's first move.
    pub start_ply: u32,
    start_pos: Position,
    start_last_to: Option<Square>,
    /// The position after the line's last move.
    pub pos: Position,
    /// The destination of the line's last move (for `同`).
    pub last_to: Option<Square>,
    moves: Vec<Move>,
    checkpoints: Vec<Position>,
    /// The line has its terminal event.
    pub terminal: bool,
    /// The line takes no more moves (an error in it).
    pub stopped: bool,
}

impl CursorLine {
    fn new(start_ply: u32, pos: Position, last_to: Option<Square>) -> CursorLine {
        CursorLine {
            start_ply,
            start_pos: pos,
            start_last_to: last_to,
            pos,
            last_to,
            moves: Vec::new(),
            checkpoints: Vec::new(),
            terminal: false,
            stopped: false,
        }
    }

    /// Game ply of the next move of this line.
    pub fn next_ply(&self) -> u32 {
        self.start_ply + self.moves.len() as u32
    }

    /// Moves in this line.
    pub fn len(&self) -> usize {
        self.moves.len()
    }

    /// The position before move `i` (0-based) of this line.
    fn position_before(&self, i: usize) -> Position {
        let k = i / CHECKPOINT_STRIDE;
        let mut pos = match k {
            0 => self.start_pos,
            _ => self.checkpoints[k - 1],
        };
        for &m in &self.moves[k * CHECKPOINT_STRIDE..i] {
            pos.play_unchecked(m);
        }
        pos
    }
}

/// The stack of lines being read (main line first), each with its
/// position: where the next move goes and in which position it is played.
#[derive(Clone, Debug)]
pub(crate) struct LineCursor {
    lines: Vec<CursorLine>,
    /// Moves played in the game, all lines together.
    played: u32,
}

impl Default for LineCursor {
    fn default() -> LineCursor {
        LineCursor::new(&Setup::empty(crate::rules::variant::Variant::Standard))
    }
}

impl LineCursor {
    /// A cursor at the start of a game.
    pub fn new(setup: &Setup) -> LineCursor {
        let pos = Position::from_setup_unchecked(setup);
        LineCursor {
            lines: vec![CursorLine::new(1, pos, None)],
            played: 0,
        }
    }

    /// Starts again at `setup` (keeping memory).
    pub fn reset(&mut self, setup: &Setup, last_to: Option<Square>) {
        self.reset_to(Position::from_setup_unchecked(setup), last_to);
    }

    /// Starts a game at `pos` (the unchecked position of its setup).
    pub fn reset_to(&mut self, pos: Position, last_to: Option<Square>) {
        self.played = 0;
        self.lines.truncate(1);
        if self.lines.is_empty() {
            self.lines.push(CursorLine::new(1, pos, last_to));
        }
        let l = &mut self.lines[0];
        *l = CursorLine {
            moves: std::mem::take(&mut l.moves),
            checkpoints: std::mem::take(&mut l.checkpoints),
            ..CursorLine::new(1, pos, last_to)
        };
        l.moves.clear();
        l.checkpoints.clear();
    }

    /// The line being read.
    pub fn top(&self) -> &CursorLine {
        self.lines.last().expect("the main line is never popped")
    }

    /// The line being read.
    pub fn top_mut(&mut self) -> &mut CursorLine {
        self.lines
            .last_mut()
            .expect("the main line is never popped")
    }

    /// The moves of the main line so far (legal or not, as played).
    pub fn main_moves(&self) -> &[Move] {
        self.lines.first().map_or(&[], |l| &l.moves)
    }

    /// Checks that a move may be added to the current line and resolves it.
    /// `Err` is a finding (with ply, move and position) and stops the line;
    /// `Err(None)` a move past [`MAX_GAME_MOVES`] after the first. A move
    /// resolved only by legality comes with a `dialect` warning.
    pub fn resolve(
        &mut self,
        raw: &RawMove,
        written: WrittenText<'_>,
        at: Location,
    ) -> Result<(Resolved, Option<BoxedFinding>), Option<BoxedFinding>> {
        if let RawMove::Unplaced = raw {
            // Reported when the record was built.
            if self.played >= MAX_GAME_MOVES {
                self.played += 1;
            }
            self.top_mut().stopped = true;
            return Err(None);
        }
        if self.played >= MAX_GAME_MOVES {
            let first = self.played == MAX_GAME_MOVES;
            self.played += 1;
            let top = self.top_mut();
            top.stopped = true;
            if !first {
                return Err(None);
            }
            let ply = top.next_ply();
            return Err(Some(Box::new(
                Finding::error(
                    Rule::Limit,
                    at,
                    format!(
                        "the game has more than {MAX_GAME_MOVES} moves (all lines together); the rest is not read"
                    ),
                )
                .at_move(ply, &written.text(), top.pos.sfen()),
            )));
        }
        let top = self.top_mut();
        let ply = top.next_ply();
        let fail = |rule, msg: String, pos: &Position| {
            Box::new(Finding::error(rule, at, msg).at_move(ply, &written.text(), pos.sfen()))
        };
        if top.terminal {
            top.stopped = true;
            return Err(Some(fail(
                Rule::AfterEnd,
                format!("move `{written}` after the terminal"),
                &top.pos,
            )));
        }
        if let RawMove::Csa(m) = raw {
            // CSA moves always resolve (and never by legality alone).
            return Ok((csa_resolved(m, &top.pos), None));
        }
        match raw.to_move(&top.pos, top.last_to) {
            Ok(r) => {
                // Boxed: the warning is rare, and the result is moved on
                // every move.
                let warning = if r.by_legality {
                    Some(Box::new(Finding::warning(
                        Rule::Dialect,
                        at,
                        format!(
                            "`{written}` fits several pieces; only one of them can move there legally"
                        ),
                    )))
                } else {
                    r.unpromoted_name.map(|named| {
                        Box::new(Finding::warning(
                            Rule::Dialect,
                            at,
                            format!(
                                "`{written}` names a {named}, but the only piece that can make this move is a {}: read as its move",
                                r.role.map_or("promoted piece".to_string(), |x| x.to_string())
                            ),
                        ))
                    })
                };
                Ok((r, warning))
            }
            Err((rule, msg)) => {
                top.stopped = true;
                Err(Some(fail(
                    rule,
                    msg.replace("{written}", &written.text()),
                    &top.pos,
                )))
            }
        }
    }

    /// Plays a resolved move on the current line.
    #[inline]
    pub fn play(&mut self, mv: Move) {
        self.played += 1;
        let top = self.top_mut();
        top.pos.play_unchecked(mv);
        top.last_to = Some(mv.to());
        top.moves.push(mv);
        if top.moves.len().is_multiple_of(CHECKPOINT_STRIDE) {
            let p = top.pos;
            top.checkpoints.push(p);
        }
    }

    /// Opens a variation replacing move `ply` of the current line. When the
    /// line has no such move, the variation is opened stopped (its moves
    /// are ignored and `end_variation` still matches) and the finding is
    /// returned.
    pub fn begin_variation(&mut self, ply: u32, at: Location) -> Result<(), Box<Finding>> {
        let top = self.top();
        let idx = ply.checked_sub(top.start_ply).map(|i| i as usize);
        match idx {
            Some(i) if i < top.len() => {
                let pos = top.position_before(i);
                let last_to = if i > 0 {
                    Some(top.moves[i - 1].to())
                } else {
                    top.start_last_to
                };
                self.lines.push(CursorLine::new(ply, pos, last_to));
                Ok(())
            }
            _ => {
                let mut l = CursorLine::new(ply, top.pos, top.last_to);
                l.stopped = true;
                let parent_stopped = top.stopped;
                self.lines.push(l);
                if parent_stopped {
                    // The error that stopped the line was reported.
                    return Ok(());
                }
                Err(Box::new(Finding::error(
                    Rule::Syntax,
                    at,
                    format!("a variation of move {ply}, which its line does not have"),
                )))
            }
        }
    }

    /// Closes the innermost variation (the main line is never closed).
    pub fn end_variation(&mut self) {
        if self.lines.len() > 1 {
            self.lines.pop();
        }
    }
}
