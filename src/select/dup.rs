//! Copies of the same game: `--dedupe` and `--duplicates`, by game key,
//! in input order.

use super::key::GameKey;
use std::collections::HashSet;

/// Keeps the first game of each key (`--dedupe`): memory is one key per
/// distinct game.
///
/// ```
/// use kifu::select::{Dedupe, GameKey};
/// let mut d = Dedupe::default();
/// assert!(d.first(GameKey(7)));
/// assert!(!d.first(GameKey(7)));
/// assert!(d.first(GameKey(8)));
/// ```
#[derive(Clone, Debug, Default)]
pub struct Dedupe {
    seen: HashSet<GameKey>,
}

impl Dedupe {
    /// Whether this is the first game with `key` (and remembers it).
    pub fn first(&mut self, key: GameKey) -> bool {
        self.seen.insert(key)
    }
}

/// One game seen by [`Duplicates`]: its key, and where it is (an input
/// number and a game number, both the caller's).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Seen {
    key: [u64; 2],
    input: u32,
    game: u32,
}

/// Games that share a key, found after all games are seen: 24 bytes per
/// game (the key and two numbers), whatever the number of games; the
/// caller keeps each input's name once.
///
/// ```
/// use kifu::select::{Duplicates, GameKey};
/// let mut d = Duplicates::default();
/// d.add(GameKey(5), 0, 0);
/// d.add(GameKey(9), 0, 1);
/// d.add(GameKey(5), 1, 0);
/// let groups = d.groups();
/// assert_eq!(groups.len(), 1);
/// assert_eq!(groups[0].key, GameKey(5));
/// assert_eq!(groups[0].games, vec![(0, 0), (1, 0)]);
/// ```
#[derive(Clone, Debug, Default)]
pub struct Duplicates {
    seen: Vec<Seen>,
}

/// A group of games with one key: every game in the order it was added.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Group {
    /// The key.
    pub key: GameKey,
    /// (input, game) of each game, in the order added.
    pub games: Vec<(u32, u32)>,
}

impl Duplicates {
    /// Adds a game. Add games in input order: groups and their games come
    /// out in the order added.
    pub fn add(&mut self, key: GameKey, input: u32, game: u32) {
        self.seen.push(Seen {
            key: [(key.0 >> 64) as u64, key.0 as u64],
            input,
            game,
        });
    }

    /// Games added.
    pub fn len(&self) -> usize {
        self.seen.len()
    }

    /// Whether no game was added.
    pub fn is_empty(&self) -> bool {
        self.seen.is_empty()
    }

    /// The groups of two or more games sharing a key, ordered by their
    /// first game; within a group, games in the order added. Sorting
    /// happens in place, so memory stays at what [`Duplicates::add`] took.
    pub fn groups(mut self) -> Vec<Group> {
        // Games were added in input order, so (input, game) grows with the
        // order added: an in-place sort by (key, input, game) keeps each
        // group in that order without any scratch memory.
        let order = |s: &Seen| (s.input, s.game);
        self.seen.sort_unstable_by_key(|s| (s.key, s.input, s.game));
        let mut groups: Vec<(usize, usize)> = Vec::new();
        let mut i = 0;
        while i < self.seen.len() {
            let mut j = i + 1;
            while j < self.seen.len() && self.seen[j].key == self.seen[i].key {
                j += 1;
            }
            if j - i > 1 {
                groups.push((i, j));
            }
            i = j;
        }
        groups.sort_by_key(|&(i, _)| order(&self.seen[i]));
        groups
            .into_iter()
            .map(|(i, j)| Group {
                key: GameKey(
                    (u128::from(self.seen[i].key[0]) << 64) | u128::from(self.seen[i].key[1]),
                ),
                games: self.seen[i..j].iter().map(|s| (s.input, s.game)).collect(),
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn groups_in_input_order_and_small_per_game() {
        assert_eq!(std::mem::size_of::<Seen>(), 24);
        let mut d = Duplicates::default();
        let keys = [3u128, 1, 3, 2, 1, 4, 3, u128::MAX, u128::MAX];
        for (n, k) in keys.iter().enumerate() {
            d.add(GameKey(*k), (n / 3) as u32, (n % 3) as u32);
        }
        let g = d.groups();
        assert_eq!(
            g.iter().map(|g| g.key.0).collect::<Vec<_>>(),
            vec![3, 1, u128::MAX]
        );
        assert_eq!(g[0].games, vec![(0, 0), (0, 2), (2, 0)]);
        assert_eq!(g[1].games, vec![(0, 1), (1, 1)]);
        assert_eq!(g[2].games, vec![(2, 1), (2, 2)]);
    }
}
