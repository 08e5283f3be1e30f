//! The game key: one hash per game of (variant, start position, main-line
//! moves), the same whatever format and encoding the game came in.
//!
//! The key is XXH3-128 (seed 0) over these bytes, in UTF-8:
//!
//! ```text
//! <variant> "\n" <board> " " <side> " " <hands> "\n" <move> (" " <move>)*
//! ```
//!
//! - `<variant>`: `standard`, `minishogi` or `doubutsu`;
//! - `<board> <side> <hands>`: the start position as SFEN without the move
//!   number (hands in the canonical order, `-` when empty), as
//!   [`crate::rules::sfen::write_sfen`] writes it;
//! - each `<move>`: a main-line move in USI (`7g7f`, `8h2b+`, `P*5e`), in
//!   order. Moves are taken as resolved against the position, legal or
//!   not; a move that cannot be resolved ends the list as `?` followed by
//!   the move as written, and moves after the line's terminal event are not
//!   part of the game. Variations, comments, times, headers and the result
//!   are not in the key.
//!
//! It is printed as 32 lower-case hexadecimal digits (the 128-bit value,
//! most significant digit first), as `xxhash.xxh3_128_hexdigest` prints it in
//! Python:
//!
//! ```
//! use kifu::select::{GameKey, KeyHasher};
//! use kifu::{Move, Variant};
//!
//! let mut h = KeyHasher::default();
//! h.begin(&kifu::Handicap::Even.setup());
//! for usi in ["7g7f", "3c3d"] {
//!     h.push(Move::from_usi(usi, Variant::Standard).unwrap(), Variant::Standard);
//! }
//! let bytes = "standard\nlnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b -\n7g7f 3c3d";
//! assert_eq!(h.finish(), GameKey::of_bytes(bytes.as_bytes()));
//! ```

use crate::rules::moves::Move;
use crate::rules::setup::Setup;
use crate::rules::variant::Variant;
use serde::{Serialize, Serializer};
use std::fmt;
use std::str::FromStr;

/// A game key (see the [module docs](self)).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct GameKey(pub u128);

impl GameKey {
    /// The key of a canonical serialisation (see the [module docs](self)).
    pub fn of_bytes(bytes: &[u8]) -> GameKey {
        GameKey(xxhash_rust::xxh3::xxh3_128(bytes))
    }
}

impl fmt::Display for GameKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:032x}", self.0)
    }
}

impl Serialize for GameKey {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

/// Why a text is not a game key.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BadGameKey(String);

impl fmt::Display for BadGameKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "`{}` is not a game key (32 hexadecimal digits)", self.0)
    }
}

impl std::error::Error for BadGameKey {}

impl FromStr for GameKey {
    type Err = BadGameKey;
    fn from_str(s: &str) -> Result<GameKey, BadGameKey> {
        let t = s.trim();
        if t.len() != 32 || !t.bytes().all(|b| b.is_ascii_hexdigit()) {
            return Err(BadGameKey(s.to_string()));
        }
        u128::from_str_radix(t, 16)
            .map(GameKey)
            .map_err(|_| BadGameKey(s.to_string()))
    }
}

/// Builds a [`GameKey`] move by move, without allocating per move: the
/// canonical bytes are gathered in a buffer reused from game to game and
/// hashed once (the same XXH3-128 value as hashing them piece by piece).
#[derive(Clone)]
pub struct KeyHasher {
    /// The canonical bytes so far.
    buf: Vec<u8>,
    /// Moves pushed since [`KeyHasher::begin`].
    moves: u32,
    /// The list was ended by a move that could not be resolved.
    closed: bool,
}

impl Default for KeyHasher {
    fn default() -> KeyHasher {
        KeyHasher {
            buf: Vec::with_capacity(1024),
            moves: 0,
            closed: false,
        }
    }
}

impl fmt::Debug for KeyHasher {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("KeyHasher")
            .field("moves", &self.moves)
            .field("closed", &self.closed)
            .finish_non_exhaustive()
    }
}

/// The bytes of the key before the moves: `<variant> "\n" <board> " "
/// <side> " " <hands> "\n"`.
pub(crate) fn start_bytes(start: &Setup) -> String {
    let mut s = String::with_capacity(128);
    s.push_str(start.variant.name());
    s.push('\n');
    crate::rules::sfen::write_board(start, &mut s);
    s.push(' ');
    s.push(start.turn.sfen_char());
    s.push(' ');
    crate::rules::sfen::write_hands(start, &mut s);
    s.push('\n');
    s
}

impl KeyHasher {
    /// Starts a game at `start`.
    pub fn begin(&mut self, start: &Setup) {
        self.begin_bytes(start_bytes(start).as_bytes());
    }

    /// Starts a game whose start bytes ([`start_bytes`]) are known.
    pub(crate) fn begin_bytes(&mut self, start: &[u8]) {
        self.moves = 0;
        self.closed = false;
        self.buf.clear();
        self.buf.extend_from_slice(start);
    }

    /// Adds the next main-line move.
    pub fn push(&mut self, mv: Move, variant: Variant) {
        if self.closed {
            return;
        }
        if self.moves > 0 {
            self.buf.push(b' ');
        }
        let usi = mv.usi_bytes(variant);
        self.buf.extend_from_slice(&usi);
        self.moves += 1;
    }

    /// Adds the next main-line moves, in order (the same bytes as
    /// [`KeyHasher::push`] for each).
    pub(crate) fn push_moves(&mut self, moves: &[Move], variant: Variant) {
        if self.closed || moves.is_empty() {
            return;
        }
        // Written in place, each move as one 8-byte word (a space, then
        // at most 5 bytes of USI), then cut; the first move of the list
        // has no space before it.
        let start = self.buf.len();
        self.buf.resize(start + moves.len() * 8 + 8, 0);
        let mut n = start;
        let mut rest = moves;
        if self.moves == 0 {
            if let Some((&mv, tail)) = moves.split_first() {
                // The first move of the list: its word without the space.
                let (word, len) = mv.usi_word(variant);
                self.buf[n..n + 8].copy_from_slice(&(word >> 8).to_le_bytes());
                n += len - 1;
                rest = tail;
            }
        }
        for &mv in rest {
            let (word, len) = mv.usi_word(variant);
            self.buf[n..n + 8].copy_from_slice(&word.to_le_bytes());
            n += len;
        }
        self.buf.truncate(n);
        self.moves += moves.len() as u32;
    }

    /// Ends the move list with a move that could not be resolved, as
    /// written; later pushes are ignored.
    pub fn push_unresolved(&mut self, written: &str) {
        if self.closed {
            return;
        }
        if self.moves > 0 {
            self.buf.push(b' ');
        }
        self.buf.push(b'?');
        self.buf.extend_from_slice(written.as_bytes());
        self.moves += 1;
        self.closed = true;
    }

    /// The key of what was pushed since [`KeyHasher::begin`].
    pub fn finish(&self) -> GameKey {
        GameKey::of_bytes(&self.buf)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn key_is_xxh3_128_of_the_documented_bytes() {
        // The value of xxh3_128(b"") is published with xxHash; pinning it
        // guards against an implementation that is not XXH3-128.
        assert_eq!(
            GameKey::of_bytes(b"").to_string(),
            "99aa06d3014798d86001c324468d497f"
        );
        let mut h = KeyHasher::default();
        h.begin(&crate::rules::handicap::Handicap::Lance.setup());
        h.push(
            Move::from_usi("5a4b", Variant::Standard).unwrap(),
            Variant::Standard,
        );
        h.push_unresolved("７六歩(77)");
        h.push(
            Move::from_usi("7g7f", Variant::Standard).unwrap(),
            Variant::Standard,
        );
        let bytes = "standard\nlnsgkgsn1/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w -\n5a4b ?７六歩(77)";
        assert_eq!(h.finish(), GameKey::of_bytes(bytes.as_bytes()));
        let k = h.finish();
        assert_eq!(k.to_string().parse::<GameKey>(), Ok(k));
        assert!("xyz".parse::<GameKey>().is_err());
    }

    #[test]
    fn push_moves_writes_what_push_writes() {
        let setup = crate::rules::handicap::Handicap::Even.setup();
        for variant in Variant::ALL {
            let moves: Vec<Move> = ["7g7f", "3c3d", "8h2b+", "3a2b", "B*4e", "2b1a"]
                .iter()
                .map(|u| Move::from_usi(u, Variant::Standard).unwrap())
                .chain([
                    Move::Drop {
                        role: crate::rules::role::Role::Pawn,
                        to: crate::rules::square::Square::new(1, 1).unwrap(),
                    },
                    Move::Drop {
                        role: crate::rules::role::Role::ProPawn,
                        to: crate::rules::square::Square::new(9, 9).unwrap(),
                    },
                ])
                .collect();
            for split in 0..=moves.len() {
                let mut one = KeyHasher::default();
                one.begin(&setup);
                for &m in &moves {
                    one.push(m, variant);
                }
                let mut all = KeyHasher::default();
                all.begin(&setup);
                all.push_moves(&moves[..split], variant);
                all.push_moves(&moves[split..], variant);
                assert_eq!(one.buf, all.buf, "{variant:?} {split}");
                assert_eq!(one.moves, all.moves);
                one.push_unresolved("x");
                all.push_unresolved("x");
                all.push_moves(&moves, variant);
                assert_eq!(one.buf, all.buf);
            }
        }
    }
}
