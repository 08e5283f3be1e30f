//! Games contained in others (`--contained`): groups of games where one
//! game's main line is a prefix of another's from the same start — the
//! truncated copies (a record cut before its end, a copy without the last
//! moves) that the game key, which hashes the whole move list, misses.
//!
//! Moves are compared as the rules engine resolved them (what USI writes:
//! `7g7f`, `8h2b+`, `P*5e`), from the same start position and variant,
//! so a KIF and a truncated CSA copy of it meet; games of different starts
//! never contain each other.
//!
//! ```
//! use kifu::read::Reader;
//! use kifu::replay::Replay;
//! use kifu::select::{Contained, MainMoves};
//! use kifu::validate::ValidateOptions;
//!
//! let usi = "position startpos moves 7g7f 3c3d 2g2f\nposition startpos moves 7g7f 3c3d\nposition startpos moves 2g2f\n";
//! let mut reader = Reader::new(usi.as_bytes()).unwrap();
//! let mut replay = Replay::new(ValidateOptions::default(), MainMoves::default());
//! let mut c = Contained::default();
//! let mut n = 0;
//! while let Some(g) = reader.read_game(&mut replay) {
//!     c.add(&g.output, g.report.game_key, 0, n);
//!     n += 1;
//! }
//! let groups = c.groups();
//! assert_eq!(groups.len(), 1);
//! let games: Vec<_> = groups[0].games.iter().map(|g| (g.game, g.plies)).collect();
//! assert_eq!(games, [(0, 3), (1, 2)]);
//! ```

use super::key::GameKey;
use crate::read::{Flow, CONTINUE};
use crate::record::Start;
use crate::replay::{Ended, Observer};
use crate::rules::{Move, Position};
use crate::validate::Played;
use std::collections::HashMap;

/// A move in two bytes: destination (7 bits), then the origin square or
/// the dropped role (7 bits), the promotion bit, the drop bit. Two moves
/// have the same code exactly when they are the same move.
fn code(mv: Move) -> u16 {
    match mv {
        Move::Normal { from, to, promote } => {
            to.index() as u16 | (from.index() as u16) << 7 | u16::from(promote) << 14
        }
        Move::Drop { role, to } => to.index() as u16 | (role.index() as u16) << 7 | 1 << 15,
    }
}

/// One game's start and legal main-line moves, as [`Contained`] takes
/// them.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MainLine {
    /// The variant and start position (SFEN without the move number).
    pub start: String,
    /// The legal main-line moves, two bytes each (equal codes are equal
    /// moves).
    pub moves: Vec<u16>,
}

/// An [`Observer`] that keeps each game's [`MainLine`]: the start and the
/// legal part of the main line.
#[derive(Clone, Debug, Default)]
pub struct MainMoves {
    line: MainLine,
}

impl Observer for MainMoves {
    type Output = MainLine;

    fn begin(&mut self, _index: usize) -> Flow {
        self.line.start.clear();
        self.line.moves.clear();
        CONTINUE
    }

    fn start(&mut self, start: &Start, pos: &Position) -> Flow {
        let sfen = pos.sfen();
        // Board, side and hands: the move number does not make a start.
        let cut = sfen.rfind(' ').unwrap_or(sfen.len());
        self.line.start = format!("{} {}", start.setup.variant.name(), &sfen[..cut]);
        CONTINUE
    }

    fn played(&mut self, played: &Played, _after: &Position) -> Flow {
        self.line.moves.push(code(played.mv));
        CONTINUE
    }

    fn end(&mut self, _ended: &Ended<'_>) -> MainLine {
        std::mem::take(&mut self.line)
    }
}

/// One game [`Contained`] keeps.
#[derive(Clone, Copy, Debug)]
struct Seen {
    start: u32,
    plies: u32,
    offset: u64,
    key: GameKey,
    input: u32,
    game: u32,
}

/// A game of a [`ContainedGroup`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ContainedGame {
    /// The caller's input number.
    pub input: u32,
    /// The caller's game number.
    pub game: u32,
    /// Legal main-line plies.
    pub plies: u32,
    /// The game key.
    pub key: GameKey,
}

/// A group: the longest game first (the first added among equally long
/// ones), then every game whose main line is a prefix of it, longest first,
/// in the order added among equally long ones.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ContainedGroup {
    /// The games, the containing one first.
    pub games: Vec<ContainedGame>,
}

/// Finds games contained in others, after all games are added (see the
/// [module docs](self)): 40 bytes per game and 2 bytes per ply, each
/// distinct start once. Games without a move are not kept (they are
/// contained in every game of their start).
#[derive(Clone, Debug, Default)]
pub struct Contained {
    starts: HashMap<String, u32>,
    moves: Vec<u16>,
    seen: Vec<Seen>,
}

impl Contained {
    /// Adds a game (in input order: groups are ordered by their first game
    /// in that order).
    pub fn add(&mut self, line: &MainLine, key: GameKey, input: u32, game: u32) {
        if line.moves.is_empty() {
            return;
        }
        let next = self.starts.len() as u32;
        let start = match self.starts.get(&line.start) {
            Some(&s) => s,
            None => {
                self.starts.insert(line.start.clone(), next);
                next
            }
        };
        self.seen.push(Seen {
            start,
            plies: line.moves.len() as u32,
            offset: self.moves.len() as u64,
            key,
            input,
            game,
        });
        self.moves.extend_from_slice(&line.moves);
    }

    /// Games kept.
    pub fn len(&self) -> usize {
        self.seen.len()
    }

    /// Whether no game was kept.
    pub fn is_empty(&self) -> bool {
        self.seen.is_empty()
    }

    fn line(&self, s: &Seen) -> &[u16] {
        &self.moves[s.offset as usize..s.offset as usize + s.plies as usize]
    }

    /// Whether `a`'s main line is a prefix of `b`'s (from the same start).
    fn prefix(&self, a: &Seen, b: &Seen) -> bool {
        a.start == b.start && b.plies >= a.plies && self.line(b).starts_with(self.line(a))
    }

    /// The groups of games contained in others, ordered by the first game
    /// added of each group: each group is a game and every game whose main
    /// line is a prefix of it (equal lists included), longest first. A game
    /// is listed once: a game that is a prefix of several games that are
    /// not prefixes of one another goes under the longest of them (the
    /// first added among equally long ones), so the output is at most one
    /// line per game.
    ///
    /// Time: one sort of the games by (start, moves), each comparison at
    /// most the shorter game's plies, and one pass over them keeping the
    /// chain of prefixes of the current game (each game is pushed and
    /// popped once; popping hands the best container found below a game to
    /// the game below it).
    pub fn groups(mut self) -> Vec<ContainedGroup> {
        let mut seen = std::mem::take(&mut self.seen);
        seen.sort_unstable_by(|a, b| {
            a.start
                .cmp(&b.start)
                .then_with(|| self.line(a).cmp(self.line(b)))
                .then_with(|| (a.input, a.game).cmp(&(b.input, b.game)))
        });
        const NONE: usize = usize::MAX;
        // The longest, then first added.
        let rank = |i: usize| {
            let s = &seen[i];
            (std::cmp::Reverse(s.plies), s.input, s.game)
        };
        let better = |a: usize, b: usize| match (a, b) {
            (NONE, x) | (x, NONE) => x,
            _ if rank(b) < rank(a) => b,
            _ => a,
        };
        // best[i]: the best game with no later extension that contains i
        // (i itself when none extends it).
        let mut best = vec![NONE; seen.len()];
        let mut chain: Vec<usize> = Vec::new();
        let pop = |chain: &mut Vec<usize>, best: &mut Vec<usize>| {
            if let Some(top) = chain.pop() {
                if let Some(&parent) = chain.last() {
                    best[parent] = better(best[parent], best[top]);
                }
            }
        };
        for i in 0..seen.len() {
            while let Some(&top) = chain.last() {
                if self.prefix(&seen[top], &seen[i]) {
                    break;
                }
                pop(&mut chain, &mut best);
            }
            chain.push(i);
            if seen
                .get(i + 1)
                .is_none_or(|next| !self.prefix(&seen[i], next))
            {
                best[i] = i;
            }
        }
        while !chain.is_empty() {
            pop(&mut chain, &mut best);
        }
        let mut members: Vec<(usize, usize)> = (0..seen.len())
            .filter(|&i| best[i] != i && best[i] != NONE)
            .map(|i| (best[i], i))
            .collect();
        members.sort_unstable();
        let game = |j: usize| {
            let s = &seen[j];
            ContainedGame {
                input: s.input,
                game: s.game,
                plies: s.plies,
                key: s.key,
            }
        };
        let mut groups = Vec::new();
        let mut k = 0;
        while k < members.len() {
            let head = members[k].0;
            let mut games = vec![game(head)];
            while k < members.len() && members[k].0 == head {
                games.push(game(members[k].1));
                k += 1;
            }
            games.sort_by_key(|g| (std::cmp::Reverse(g.plies), g.input, g.game));
            groups.push(ContainedGroup { games });
        }
        groups.sort_by_key(|g| {
            g.games
                .iter()
                .map(|x| (x.input, x.game))
                .min()
                .unwrap_or_default()
        });
        groups
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(start: &str, moves: &[u16]) -> MainLine {
        MainLine {
            start: start.into(),
            moves: moves.to_vec(),
        }
    }

    #[test]
    fn chains_branches_and_starts() {
        let mut c = Contained::default();
        c.add(&line("a", &[1, 2, 3, 4]), GameKey(1), 0, 0);
        c.add(&line("a", &[1, 2]), GameKey(2), 0, 1);
        c.add(&line("a", &[1, 2, 5]), GameKey(3), 0, 2);
        c.add(&line("b", &[1, 2]), GameKey(4), 0, 3);
        c.add(&line("a", &[9]), GameKey(5), 0, 4);
        c.add(&line("a", &[]), GameKey(6), 0, 5);
        c.add(&line("a", &[1, 2, 3, 4]), GameKey(1), 1, 0);
        let g = c.groups();
        let ids: Vec<Vec<(u32, u32)>> = g
            .iter()
            .map(|g| g.games.iter().map(|x| (x.input, x.game)).collect())
            .collect();
        // [1,2] is in both branches: it is listed once, under the longest
        // game that contains it, so [1,2,5] contains no game not listed
        // yet and makes no group; the other start and [9] are alone.
        assert_eq!(ids, vec![vec![(0, 0), (1, 0), (0, 1)]]);
    }

    #[test]
    fn move_codes_are_distinct() {
        use crate::rules::{Role, Square};
        let mut codes = std::collections::HashSet::new();
        for from in 0..81 {
            for to in 0..81 {
                for promote in [false, true] {
                    let mv = Move::Normal {
                        from: Square::from_index(from).unwrap(),
                        to: Square::from_index(to).unwrap(),
                        promote,
                    };
                    assert!(codes.insert(code(mv)));
                }
            }
        }
        for role in Role::ALL {
            for to in 0..81 {
                let to = Square::from_index(to).unwrap();
                assert!(codes.insert(code(Move::Drop { role, to })));
            }
        }
    }
}
