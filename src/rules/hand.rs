//! Pieces in hand (持駒).

use crate::rules::role::Role;

/// The pieces one side holds, a count per droppable role.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Hand {
    counts: [u8; 9],
}

impl Hand {
    /// An empty hand.
    pub const EMPTY: Hand = Hand { counts: [0; 9] };

    /// How many pieces of `role` are held (0 for roles that cannot be held).
    #[inline]
    pub fn count(&self, role: Role) -> u8 {
        role.hand_index().map_or(0, |i| self.counts[i])
    }

    /// Adds one piece of `role` (its unpromoted form).
    ///
    /// Returns `false` (and changes nothing) for a role that cannot be held.
    #[inline]
    pub fn add(&mut self, role: Role) -> bool {
        match role.unpromoted().hand_index() {
            Some(i) => {
                self.counts[i] = self.counts[i].saturating_add(1);
                true
            }
            None => false,
        }
    }

    /// Removes one piece of `role`; `false` if none is held.
    #[inline]
    pub fn remove(&mut self, role: Role) -> bool {
        match role.hand_index() {
            Some(i) if self.counts[i] > 0 => {
                self.counts[i] -= 1;
                true
            }
            _ => false,
        }
    }

    /// Sets the count of `role`; `false` for a role that cannot be held.
    pub fn set(&mut self, role: Role, n: u8) -> bool {
        match role.hand_index() {
            Some(i) => {
                self.counts[i] = n;
                true
            }
            None => false,
        }
    }

    /// Whether the hand is empty.
    pub fn is_empty(&self) -> bool {
        self.counts.iter().all(|&c| c == 0)
    }

    /// Total number of pieces held.
    pub fn total(&self) -> u32 {
        self.counts.iter().map(|&c| c as u32).sum()
    }

    /// `(role, count)` for every held role, in canonical order (R B G S N L P …).
    pub fn iter(&self) -> impl Iterator<Item = (Role, u8)> + '_ {
        Role::HAND
            .iter()
            .zip(self.counts.iter())
            .filter(|(_, &c)| c > 0)
            .map(|(&r, &c)| (r, c))
    }

    /// Impasse points of the hand.
    pub fn impasse_points(&self) -> u32 {
        self.iter()
            .map(|(r, c)| r.impasse_points() * c as u32)
            .sum()
    }
}
