//! The tree's observer: the main line's position keys from the root.

use super::{position_key, Mover, Tag, TreeOptions};
use crate::read::{Flow, CONTINUE};
use crate::record::Start;
use crate::replay::{Ended, Observer};
use crate::rules::moves::Move;
use crate::rules::position::Position;
use crate::tags::Kind;
use crate::validate::Played;

/// What a [`Walk`] makes of one game: the positions of its main line from
/// the root, the moves between them, and its opening names.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct GamePath {
    /// The root, when the game reached it (`None`: the game does not
    /// count).
    pub root: Option<Position>,
    /// The position keys from the root ([`position_key`]), one more than
    /// `moves`.
    pub keys: Vec<u64>,
    /// Each move and who played it.
    pub moves: Vec<(Move, Mover)>,
    /// Main-line moves played before the root was reached.
    pub start_ply: u32,
    /// The openings found (either side) with the ply each was found at.
    pub names: Vec<(Tag, u32)>,
}

/// Follows a game's main line for the tree (an [`Observer`]; see the
/// [module docs](super)).
#[derive(Clone, Debug)]
pub struct Walk {
    plies: u32,
    root: Option<u64>,
    path: GamePath,
    /// Main-line moves played so far.
    played: u32,
    /// The main line met a move not played: it is followed no further.
    stopped: bool,
}

impl Walk {
    /// A walk for a tree built with `opts`.
    pub fn new(opts: &TreeOptions) -> Walk {
        Walk {
            plies: opts.plies,
            root: opts.root.as_ref().map(position_key),
            path: GamePath::default(),
            played: 0,
            stopped: false,
        }
    }

    fn reach(&mut self, pos: &Position) {
        if self.path.root.is_none() && self.root.is_none_or(|k| k == position_key(pos)) {
            self.path.root = Some(*pos);
            self.path.keys.push(position_key(pos));
            self.path.start_ply = self.played;
        }
    }
}

impl Observer for Walk {
    type Output = GamePath;

    fn begin(&mut self, _index: usize) -> Flow {
        // The path leaves with the game (`end`); one allocation each for
        // its keys and moves, at their final size, none per move.
        let n = self.plies.min(1024) as usize;
        self.path = GamePath {
            keys: Vec::with_capacity(n + 1),
            moves: Vec::with_capacity(n),
            ..GamePath::default()
        };
        self.played = 0;
        self.stopped = false;
        CONTINUE
    }

    fn start(&mut self, _start: &Start, pos: &Position) -> Flow {
        self.reach(pos);
        CONTINUE
    }

    #[inline]
    fn played(&mut self, p: &Played, after: &Position) -> Flow {
        self.played += 1;
        if self.stopped {
            return CONTINUE;
        }
        if self.path.root.is_some() {
            if self.path.moves.len() as u32 >= self.plies {
                return CONTINUE;
            }
            self.path.moves.push((p.mv, p.color));
            self.path.keys.push(position_key(after));
        } else {
            self.reach(after);
        }
        CONTINUE
    }

    fn unplayed(&mut self) -> Flow {
        // The main line stops being followed at a move not played.
        self.stopped = true;
        CONTINUE
    }

    fn end(&mut self, ended: &Ended<'_>) -> GamePath {
        let mut path = std::mem::take(&mut self.path);
        if let (Some(tags), Some(_)) = (ended.tags, path.root.as_ref()) {
            for side in &tags.sides {
                for f in side.of(Kind::Opening) {
                    path.names.push((f.tag, f.ply));
                }
            }
        }
        path
    }
}
