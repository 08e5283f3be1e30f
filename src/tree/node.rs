//! What the tree keeps per position and per move, and the views it
//! hands out when finished.

use super::table::Stat;
use crate::record::Outcome;
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
    /// The mean rating of the movers, when any is known.
    pub fn rating_avg(&self) -> Option<f64> {
        (self.rated > 0).then(|| self.rating_sum / f64::from(self.rated))
    }

    /// The best rating, when any is known.
    pub fn best(&self) -> Option<f64> {
        (self.rated > 0).then_some(self.rating_best)
    }
}

impl Stat {
    /// Counts one game.
    #[inline]
    pub fn count(&mut self, outcome: Outcome, rating: Option<f64>, date: Option<u32>, ex: Example) {
        if self.games == 0 {
            self.ex_source = ex.source;
            self.ex_game = ex.game;
        }
        self.games += 1;
        match outcome {
            Outcome::SenteWin => self.sente_wins += 1,
            Outcome::GoteWin => self.gote_wins += 1,
            Outcome::Draw => self.draws += 1,
            Outcome::Aborted | Outcome::Unknown => {}
        }
        if let Some(r) = rating {
            if self.rated == 0 || r > self.rating_best {
                self.rating_best = r;
            }
            self.rated += 1;
            self.rating_sum += r;
        }
        if let Some(d) = date.filter(|&d| d != 0) {
            self.date(d);
        }
    }

    #[inline]
    fn date(&mut self, d: u32) {
        if self.first_date == 0 || d < self.first_date {
            self.first_date = d;
        }
        if d > self.last_date {
            self.last_date = d;
        }
    }

    /// Adds counts made over later inputs (`offset`: their source ids'
    /// shift).
    pub fn merge(&mut self, o: &Stat, offset: u32) {
        if o.games == 0 {
            return;
        }
        if self.games == 0 {
            self.ex_source = o.ex_source + offset;
            self.ex_game = o.ex_game;
        }
        self.games += o.games;
        self.sente_wins += o.sente_wins;
        self.gote_wins += o.gote_wins;
        self.draws += o.draws;
        if o.rated > 0 && (self.rated == 0 || o.rating_best > self.rating_best) {
            self.rating_best = o.rating_best;
        }
        self.rated += o.rated;
        self.rating_sum += o.rating_sum;
        for d in [o.first_date, o.last_date] {
            if d != 0 {
                self.date(d);
            }
        }
    }

    /// The public counts.
    pub fn counts(&self) -> Counts {
        let date = |d: u32| (d != 0).then_some(d);
        Counts {
            games: self.games,
            sente_wins: self.sente_wins,
            gote_wins: self.gote_wins,
            draws: self.draws,
            other: self.games - self.sente_wins - self.gote_wins - self.draws,
            rated: self.rated,
            rating_sum: self.rating_sum,
            rating_best: if self.rated > 0 {
                self.rating_best
            } else {
                0.0
            },
            first_date: date(self.first_date),
            last_date: date(self.last_date),
            example: Example {
                source: self.ex_source,
                game: self.ex_game,
            },
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

    /// The fixed-size counts give the counts of the old ones: other
    /// endings are what wins and draws leave, dates 0 are none, the
    /// example is the first game's, merged examples are shifted.
    #[test]
    fn stats_count_and_merge() {
        let ex = |source, game| Example { source, game };
        let mut a = Stat::default();
        a.count(Outcome::SenteWin, Some(1500.0), Some(20_200_101), ex(0, 3));
        a.count(Outcome::Unknown, None, None, ex(0, 4));
        a.count(Outcome::Draw, Some(1700.5), Some(20_190_505), ex(0, 5));
        let c = a.counts();
        assert_eq!(
            (c.games, c.sente_wins, c.draws, c.other, c.rated),
            (3, 1, 1, 1, 2)
        );
        assert_eq!(
            (c.first_date, c.last_date),
            (Some(20_190_505), Some(20_200_101))
        );
        assert_eq!(c.example, ex(0, 3));
        assert_eq!(c.best(), Some(1700.5));
        let mut b = Stat::default();
        b.merge(&a, 2);
        assert_eq!(b.counts().example, ex(2, 3));
        b.merge(&a, 9);
        assert_eq!(b.counts().example, ex(2, 3));
        assert_eq!(b.counts().games, 6);
        let none = Stat::default().counts();
        assert_eq!((none.first_date, none.best(), none.other), (None, None, 0));
    }
}
