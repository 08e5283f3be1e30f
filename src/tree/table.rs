//! The tree's flat storage: the positions in one open-addressing table
//! keyed by position key (a slot holds the key, the games and the heads
//! of two chains), the moves and the opening-name counts in two arenas
//! (plain vectors of fixed-size records), each record linking to the
//! next of its position by index.
//!
//! A hand-written table rather than a general map because the tree looks
//! up the 31 positions of a game at once: their slots are prefetched
//! together ([`Positions::prefetch`]), so the cache misses overlap
//! (measured: the map's misses were most of the tree's reading cost), and
//! a slot is one record (key and values side by side, no control bytes
//! elsewhere). Removal happens only by rebuilding (pruning), so linear
//! probing needs no tombstones.

use crate::rules::moves::Move;
use crate::tags::TagId;

/// The end of a chain.
pub(crate) const NIL: u32 = u32::MAX;

/// One position: its key, the games that reached it, the heads of its
/// move and name chains.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(crate) struct Slot {
    pub key: u64,
    pub games: u32,
    /// First move ([`Edge`] index) or [`NIL`].
    pub moves: u32,
    /// First name ([`NameCount`] index) or [`NIL`].
    pub names: u32,
    /// [`USED`], [`DONE`].
    pub flags: u32,
}

/// The slot holds a position.
pub(crate) const USED: u32 = 1;
/// The position was written (or queued to be) by [`super::Tree::finish`].
pub(crate) const DONE: u32 = 2;

impl Slot {
    #[inline]
    pub fn used(&self) -> bool {
        self.flags & USED != 0
    }
}

/// The counts of one move, fixed size (see [`super::Counts`] for the
/// meanings). Dates are `yyyymmdd`, 0 when none; `other` is what the
/// games leave after the wins and draws.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(crate) struct Stat {
    pub games: u32,
    pub sente_wins: u32,
    pub gote_wins: u32,
    pub draws: u32,
    pub rated: u32,
    pub first_date: u32,
    pub last_date: u32,
    pub ex_source: u32,
    pub ex_game: u32,
    pub rating_sum: f64,
    pub rating_best: f64,
}

/// One move from a position, with the next move of the same position.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Edge {
    pub mv: Move,
    pub next: u32,
    pub stat: Stat,
}

/// How many games of a position had found one opening by then, with the
/// next name of the same position.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct NameCount {
    pub tag: TagId,
    pub games: u32,
    pub next: u32,
}

/// The positions (see the [module docs](self)).
#[derive(Clone, Debug)]
pub(crate) struct Positions {
    slots: Vec<Slot>,
    len: usize,
    /// `64 - log2(slots.len())`: the hash's top bits pick the slot.
    shift: u32,
}

const MIN_SLOTS: usize = 1 << 10;

impl Default for Positions {
    fn default() -> Positions {
        Positions::with_slots(MIN_SLOTS)
    }
}

impl Positions {
    fn with_slots(n: usize) -> Positions {
        let n = n.next_power_of_two().max(MIN_SLOTS);
        Positions {
            slots: vec![Slot::default(); n],
            len: 0,
            shift: 64 - n.trailing_zeros(),
        }
    }

    /// Positions held.
    #[inline]
    pub fn len(&self) -> usize {
        self.len
    }

    /// Slots (held or free): the table's size.
    #[cfg(test)]
    pub fn capacity(&self) -> usize {
        self.slots.len()
    }

    #[inline]
    fn home(&self, key: u64) -> usize {
        // Fibonacci hashing: the keys are Zobrist keys, but a salt or a
        // pattern in the low bits must not cluster them.
        (key.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> self.shift) as usize
    }

    /// Asks the processor to load `key`'s home slot (no effect on
    /// results).
    #[inline]
    pub fn prefetch(&self, key: u64) {
        prefetch(&self.slots[self.home(key)]);
    }

    /// The slot index of `key`, if held.
    #[inline]
    pub fn find(&self, key: u64) -> Option<usize> {
        let mask = self.slots.len() - 1;
        let mut i = self.home(key);
        loop {
            let s = &self.slots[i];
            if !s.used() {
                return None;
            }
            if s.key == key {
                return Some(i);
            }
            i = (i + 1) & mask;
        }
    }

    /// Makes room for `extra` more positions without growing in between
    /// (slot indices stay valid while they are inserted).
    #[inline]
    pub fn reserve(&mut self, extra: usize) {
        if (self.len + extra) * 4 > self.slots.len() * 3 {
            self.grow(self.len + extra);
        }
    }

    #[cold]
    fn grow(&mut self, need: usize) {
        let mut n = self.slots.len() * 2;
        while need * 4 > n * 3 {
            n *= 2;
        }
        let old = std::mem::replace(self, Positions::with_slots(n));
        for s in old.slots.into_iter().filter(Slot::used) {
            self.put(s);
        }
    }

    /// Inserts a slot whose key is not held (room reserved).
    fn put(&mut self, s: Slot) -> usize {
        let mask = self.slots.len() - 1;
        let mut i = self.home(s.key);
        while self.slots[i].used() {
            i = (i + 1) & mask;
        }
        self.slots[i] = s;
        self.len += 1;
        i
    }

    /// The slot index of `key`, a new empty position when not held (call
    /// [`Positions::reserve`] first); whether it is new.
    #[inline]
    pub fn entry(&mut self, key: u64) -> (usize, bool) {
        let mask = self.slots.len() - 1;
        let mut i = self.home(key);
        loop {
            let s = &self.slots[i];
            if !s.used() {
                self.slots[i] = Slot {
                    key,
                    games: 0,
                    moves: NIL,
                    names: NIL,
                    flags: USED,
                };
                self.len += 1;
                return (i, true);
            }
            if s.key == key {
                return (i, false);
            }
            i = (i + 1) & mask;
        }
    }

    /// [`Positions::entry`], growing first when needed.
    pub fn entry_growing(&mut self, key: u64) -> usize {
        self.reserve(1);
        self.entry(key).0
    }

    /// Slot `i`.
    #[inline]
    pub fn slot(&self, i: usize) -> &Slot {
        &self.slots[i]
    }

    /// Slot `i`, to change its values (not its key).
    #[inline]
    pub fn slot_mut(&mut self, i: usize) -> &mut Slot {
        &mut self.slots[i]
    }

    /// The positions held, in table order.
    pub fn iter(&self) -> impl Iterator<Item = &Slot> {
        self.slots.iter().filter(|s| s.used())
    }

    /// Empties the table (it keeps its size).
    pub fn clear(&mut self) {
        self.slots.fill(Slot::default());
        self.len = 0;
    }

    /// Inserts a position not held, with its values.
    pub fn insert_new(&mut self, s: Slot) {
        self.reserve(1);
        self.put(Slot { flags: USED, ..s });
    }
}

/// A move's bits for [`EdgeIndex`] (distinct moves, distinct bits).
#[inline]
fn move_bits(mv: Move) -> u32 {
    match mv {
        Move::Normal { from, to, promote } => {
            from.index() as u32 | (to.index() as u32) << 8 | u32::from(promote) << 16
        }
        Move::Drop { role, to } => role.index() as u32 | (to.index() as u32) << 8 | 1 << 17,
    }
}

/// One entry of [`EdgeIndex`]: a position key, a move, the move's
/// [`Edge`] index ([`NIL`]: free).
#[derive(Clone, Copy, Debug, PartialEq)]
struct EdgeSlot {
    pos: u64,
    mv: u32,
    edge: u32,
}

const FREE: EdgeSlot = EdgeSlot {
    pos: 0,
    mv: 0,
    edge: NIL,
};

/// The moves' index: (position key, move) → [`Edge`] index, one
/// open-addressing table of 16-byte entries, so that finding a move costs
/// one prefetched load however many moves the position has (a position's
/// chain is walked only to write it).
#[derive(Clone, Debug)]
pub(crate) struct EdgeIndex {
    slots: Vec<EdgeSlot>,
    len: usize,
    shift: u32,
}

impl Default for EdgeIndex {
    fn default() -> EdgeIndex {
        EdgeIndex::with_slots(MIN_SLOTS)
    }
}

impl EdgeIndex {
    fn with_slots(n: usize) -> EdgeIndex {
        let n = n.next_power_of_two().max(MIN_SLOTS);
        EdgeIndex {
            slots: vec![FREE; n],
            len: 0,
            shift: 64 - n.trailing_zeros(),
        }
    }

    #[inline]
    fn home(&self, pos: u64, mv: u32) -> usize {
        let h = (pos ^ u64::from(mv).wrapping_mul(0xd6e8_feb8_6659_fd93))
            .wrapping_mul(0x9e37_79b9_7f4a_7c15);
        (h >> self.shift) as usize
    }

    /// Asks the processor to load the home entry of `mv` from `pos`.
    #[inline]
    pub fn prefetch(&self, pos: u64, mv: Move) {
        prefetch(&self.slots[self.home(pos, move_bits(mv))]);
    }

    /// Makes room for `extra` more moves without growing in between.
    #[inline]
    pub fn reserve(&mut self, extra: usize) {
        if (self.len + extra) * 4 > self.slots.len() * 3 {
            self.grow(self.len + extra);
        }
    }

    #[cold]
    fn grow(&mut self, need: usize) {
        let mut n = self.slots.len() * 2;
        while need * 4 > n * 3 {
            n *= 2;
        }
        let old = std::mem::replace(self, EdgeIndex::with_slots(n));
        for s in old.slots.into_iter().filter(|s| s.edge != NIL) {
            let i = self.free_slot(s.pos, s.mv);
            self.slots[i] = s;
            self.len += 1;
        }
    }

    fn free_slot(&self, pos: u64, mv: u32) -> usize {
        let mask = self.slots.len() - 1;
        let mut i = self.home(pos, mv);
        while self.slots[i].edge != NIL {
            i = (i + 1) & mask;
        }
        i
    }

    /// The edge of `mv` from `pos`; when there is none, `new()` makes it
    /// (room reserved).
    #[inline]
    pub fn get_or(&mut self, pos: u64, mv: Move, new: impl FnOnce() -> u32) -> u32 {
        let bits = move_bits(mv);
        let mask = self.slots.len() - 1;
        let mut i = self.home(pos, bits);
        loop {
            let s = self.slots[i];
            if s.edge == NIL {
                let edge = new();
                self.slots[i] = EdgeSlot {
                    pos,
                    mv: bits,
                    edge,
                };
                self.len += 1;
                return edge;
            }
            if s.pos == pos && s.mv == bits {
                return s.edge;
            }
            i = (i + 1) & mask;
        }
    }

    /// Empties the index (it keeps its size).
    pub fn clear(&mut self) {
        self.slots.fill(FREE);
        self.len = 0;
    }

    /// Adds a move known not to be there.
    pub fn insert_new(&mut self, pos: u64, mv: Move, edge: u32) {
        self.reserve(1);
        let bits = move_bits(mv);
        let i = self.free_slot(pos, bits);
        self.slots[i] = EdgeSlot {
            pos,
            mv: bits,
            edge,
        };
        self.len += 1;
    }
}

/// Asks the processor to load a record (no effect on results).
#[inline]
pub(crate) fn prefetch<T>(r: &T) {
    #[cfg(target_arch = "x86_64")]
    {
        // SAFETY: a prefetch is a hint and never faults.
        #[allow(unused_unsafe)]
        unsafe {
            std::arch::x86_64::_mm_prefetch(
                r as *const T as *const i8,
                std::arch::x86_64::_MM_HINT_T0,
            );
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = r;
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Records stay small: memory is per position and per move kept.
    #[test]
    fn records_are_fixed_and_small() {
        assert!(std::mem::size_of::<Slot>() <= 24);
        assert!(std::mem::size_of::<Edge>() <= 64);
        assert!(std::mem::size_of::<NameCount>() <= 12);
        assert!(std::mem::size_of::<EdgeSlot>() <= 16);
    }

    #[test]
    fn positions_are_found_after_growing() {
        let mut p = Positions::default();
        let keys: Vec<u64> = (0..10_000u64)
            .map(|i| i.wrapping_mul(0x2545_f491_4f6c_dd1d) ^ (i << 7))
            .collect();
        for (n, &k) in keys.iter().enumerate() {
            let i = p.entry_growing(k);
            p.slot_mut(i).games = n as u32 + 1;
            assert_eq!(p.len(), n + 1);
        }
        // Same keys again: found, not added.
        for (n, &k) in keys.iter().enumerate() {
            p.reserve(1);
            let (i, new) = p.entry(k);
            assert!(!new);
            assert_eq!(p.slot(i).games, n as u32 + 1);
        }
        assert_eq!(p.len(), keys.len());
        assert!(p.capacity() * 3 >= p.len() * 4);
        assert_eq!(p.find(12345), None);
        assert_eq!(p.iter().count(), keys.len());
    }

    /// Every move of every square is its own entry; found after growing.
    #[test]
    fn moves_are_indexed_exactly() {
        use crate::rules::{Role, Square};
        let mut moves = Vec::new();
        for f in 1..=9 {
            for r in 1..=9 {
                let to = Square::new(f, r).unwrap();
                moves.push(Move::Drop {
                    role: Role::Pawn,
                    to,
                });
                moves.push(Move::Drop {
                    role: Role::Gold,
                    to,
                });
                for from in [Square::new(1, 1).unwrap(), Square::new(9, 9).unwrap()] {
                    moves.push(Move::Normal {
                        from,
                        to,
                        promote: false,
                    });
                    moves.push(Move::Normal {
                        from,
                        to,
                        promote: true,
                    });
                }
            }
        }
        let mut x = EdgeIndex::default();
        let mut n = 0;
        for pos in [0u64, 1, u64::MAX, 0x1234_5678_9abc_def0] {
            for &mv in &moves {
                x.reserve(1);
                assert_eq!(x.get_or(pos, mv, || n), n);
                n += 1;
            }
        }
        let mut i = 0;
        for pos in [0u64, 1, u64::MAX, 0x1234_5678_9abc_def0] {
            for &mv in &moves {
                x.reserve(1);
                assert_eq!(x.get_or(pos, mv, || unreachable!()), i);
                i += 1;
            }
        }
    }
}
