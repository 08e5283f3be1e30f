//! What the tree keeps per position and per move, and the views it
//! hands out when finished.

use crate::record::Outcome;
use crate::rules::moves::Move;
use crate::tags::TagId;
use serde::Serialize;

/// The example game of a move: the source id ([`super::Tree::source`])
/// and the game's 0-based index in it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord)]
pub struct Example {
    /// The source id.
    pub source: u32,
    /// The 0-based game index in the source.
    pub game: u32,
}

/// The counts of one move from one position.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Counts {
    /// Games that played it.
    pub games: u32,
    /// Of those, won by sente.
    pub sente_wins: u32,
    /// Won by gote.
    pub gote_wins: u32,
    /// Drawn (sennichite, impasse draws, …).
    pub draws: u32,
    /// Other endings: aborted, or a result not known.
    pub other: u32,
    /// Games where the mover's rating is known.
    pub rated: u32,
    /// The sum of those ratings.
    pub rating_sum: f64,
    /// The highest of them (meaningful when `rated > 0`).
    pub rating_best: f64,
    /// The earliest date (`yyyymmdd`), of the games with one.
    pub first_date: Option<u32>,
    /// The latest date.
    pub last_date: Option<u32>,
    /// The first game (in input order) that played it.
    pub example: Example,
}

impl Counts {
    /// Counts one game.
    #[inline]
    pub(crate) fn count(
        &mut self,
        outcome: Outcome,
        rating: Option<f64>,
        date: Option<u32>,
        ex: Example,
    ) {
        if self.games == 0 {
            self.example = ex;
        }
        self.games += 1;
        match outcome {
            Outcome::SenteWin => self.sente_wins += 1,
            Outcome::GoteWin => self.gote_wins += 1,
            Outcome::Draw => self.draws += 1,
            Outcome::Aborted | Outcome::Unknown => self.other += 1,
        }
        if let Some(r) = rating {
            if self.rated == 0 || r > self.rating_best {
                self.rating_best = r;
            }
            self.rated += 1;
            self.rating_sum += r;
        }
        if let Some(d) = date {
            self.first_date = Some(self.first_date.map_or(d, |f| f.min(d)));
            self.last_date = Some(self.last_date.map_or(d, |l| l.max(d)));
        }
    }

    /// Adds counts made over later inputs (`offset`: their source ids'
    /// shift).
    pub(crate) fn merge(&mut self, o: &Counts, offset: u32) {
        if o.games == 0 {
            return;
        }
        if self.games == 0 {
            self.example = Example {
                source: o.example.source + offset,
                game: o.example.game,
            };
        }
        self.games += o.games;
        self.sente_wins += o.sente_wins;
        self.gote_wins += o.gote_wins;
        self.draws += o.draws;
        self.other += o.other;
        if o.rated > 0 && (self.rated == 0 || o.rating_best > self.rating_best) {
            self.rating_best = o.rating_best;
        }
        self.rated += o.rated;
        self.rating_sum += o.rating_sum;
        for d in [o.first_date, o.last_date].into_iter().flatten() {
            self.first_date = Some(self.first_date.map_or(d, |f| f.min(d)));
            self.last_date = Some(self.last_date.map_or(d, |l| l.max(d)));
        }
    }

    /// The mean rating of the movers, when any is known.
    pub fn rating_avg(&self) -> Option<f64> {
        (self.rated > 0).then(|| self.rating_sum / f64::from(self.rated))
    }

    /// The best rating, when any is known.
    pub fn best(&self) -> Option<f64> {
        (self.rated > 0).then_some(self.rating_best)
    }
}

/// A move from a position and its counts.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Edge {
    pub mv: Move,
    pub counts: Counts,
}

/// A position: the games that reached it, the names those games had by
/// then, the moves played from it.
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct Node {
    pub games: u32,
    /// Opening ids and how many games had each by this position (boxed:
    /// most positions have none, and the map's entries stay small: one
    /// word here, where a Vec takes three).
    #[allow(clippy::box_collection)]
    pub names: Option<Box<Vec<(TagId, u32)>>>,
    /// Exactly the moves played (a boxed slice: no spare capacity, two
    /// words in the map's entry).
    pub moves: Box<[Edge]>,
}

impl Node {
    /// The move `mv`'s counts (new ones when first played).
    #[inline]
    pub fn edge(&mut self, mv: Move) -> &mut Counts {
        let i = match self.moves.iter().position(|e| e.mv == mv) {
            Some(i) => i,
            None => {
                let mut v = std::mem::take(&mut self.moves).into_vec();
                v.reserve_exact(1);
                v.push(Edge {
                    mv,
                    counts: Counts::default(),
                });
                self.moves = v.into_boxed_slice();
                self.moves.len() - 1
            }
        };
        &mut self.moves[i].counts
    }

    /// Keeps the moves with at least `k` games.
    pub fn keep_moves(&mut self, k: u32) {
        if self.moves.iter().any(|e| e.counts.games < k) {
            let mut v = std::mem::take(&mut self.moves).into_vec();
            v.retain(|e| e.counts.games >= k);
            self.moves = v.into_boxed_slice();
        }
    }

    /// One more game named `tag` here.
    pub fn name(&mut self, tag: TagId) {
        self.name_n(tag, 1);
    }

    fn name_n(&mut self, tag: TagId, n: u32) {
        let names = self.names.get_or_insert_with(Default::default);
        match names.iter_mut().find(|(t, _)| *t == tag) {
            Some((_, m)) => *m += n,
            None => {
                if names.len() == names.capacity() {
                    names.reserve_exact(1);
                }
                names.push((tag, n))
            }
        }
    }

    /// The most common name (ties: the first in the taxonomy).
    pub fn top_name(&self) -> Option<(TagId, u32)> {
        self.names
            .as_deref()?
            .iter()
            .copied()
            .max_by(|a, b| a.1.cmp(&b.1).then_with(|| b.0 .0.cmp(&a.0 .0)))
    }

    /// Adds a node made over later inputs.
    pub fn merge(&mut self, o: Node, offset: u32) {
        self.games += o.games;
        for &(tag, n) in o.names.as_deref().into_iter().flatten() {
            self.name_n(tag, n);
        }
        for e in o.moves.iter() {
            self.edge(e.mv).merge(&e.counts, offset);
        }
    }
}

/// The most common opening name at a position.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Name {
    /// Taxonomy id (`fourth_file_rook`).
    pub id: String,
    /// Japanese name.
    pub ja: String,
    /// English name.
    pub en: String,
    /// Games that reached the position with that name found by then.
    pub games: u32,
}

/// One move of a finished tree.
#[derive(Clone, Debug, PartialEq)]
pub struct MoveView {
    /// The move in USI.
    pub usi: String,
    /// In Japanese (`▲７六歩`).
    pub japanese: String,
    /// In international notation (`P-7f`).
    pub international: String,
    /// The position after it (SFEN without the move number).
    pub sfen_after: String,
    /// Its counts.
    pub counts: Counts,
    /// The example game's path.
    pub example_path: String,
}

/// One position of a finished tree.
#[derive(Clone, Debug, PartialEq)]
pub struct NodeView {
    /// SFEN without the move number.
    pub sfen: String,
    /// Fewest plies from a root.
    pub ply: u32,
    /// Games that reached it.
    pub games: u32,
    /// The most common opening name of those games by then.
    pub name: Option<Name>,
    /// The moves played from it, most played first.
    pub moves: Vec<MoveView>,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::variant::Variant;

    fn mv(usi: &str) -> Move {
        Move::from_usi(usi, Variant::Standard).unwrap()
    }

    /// Memory is per position kept (issue 40): a position with one move
    /// holds one edge, not a Vec doubled to four, and its map entry is
    /// small.
    #[test]
    fn a_position_holds_only_the_moves_played() {
        assert!(std::mem::size_of::<Node>() <= 32);
        let mut n = Node::default();
        n.edge(mv("7g7f")).games += 1;
        assert_eq!(n.moves.len(), 1);
        n.edge(mv("7g7f")).games += 1;
        n.edge(mv("2g2f")).games += 1;
        assert_eq!(n.moves.len(), 2);
        n.name(TagId(0));
        n.name(TagId(0));
        assert_eq!(n.names.as_ref().map(|v| v.capacity()), Some(1));
        assert_eq!(n.top_name(), Some((TagId(0), 2)));
        for m in ["5g5f", "6g6f", "1g1f", "9g9f", "3g3f"] {
            n.edge(mv(m)).games += 1;
        }
        assert_eq!(n.moves.len(), 7);
        assert_eq!(n.edge(mv("2g2f")).games, 1);
        n.keep_moves(2);
        assert_eq!(n.moves.len(), 1);
        assert_eq!(n.moves[0].counts.games, 2);
    }
}
