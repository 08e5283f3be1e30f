//! The 256-bit position codes and the 16-bit moves of the training-data
//! layouts: Apery's HuffmanCodedPos (`hcp`, in `.hcpe` and `.hcpe3`) and
//! YaneuraOu's PackedSfen (`psfen`, in `.psv`), Apery's `move16` and
//! YaneuraOu's `Move16`.
//!
//! Both codes are one little-endian bit stream (bit 0 of byte 0 first):
//! the side to move (1 bit, 1 for White), Black's and White's king squares
//! (7 bits each, [`Square::index`]), then every other square in index order
//! (1a, 1b, … 9i), an empty one as a single `0` bit and a piece as its
//! code, then the hands (Black's, then White's; pawn, lance, knight,
//! silver, gold, bishop, rook), then the pieces of the standard set that
//! are on neither (a handicap's missing pieces) in codes of their own
//! (cshogi's; see `docs/export.md`). Every standard position takes
//! exactly 256 bits.
//! The two codes differ only in their tables.

use crate::rules::color::Color;
use crate::rules::hand::Hand;
use crate::rules::moves::Move;
use crate::rules::position::Position;
use crate::rules::role::{Piece, Role};
use crate::rules::setup::Setup;
use crate::rules::square::Square;
use crate::rules::variant::Variant;
use std::fmt;

/// A position code: 32 bytes.
pub type Code = [u8; 32];

/// One piece code: its bits (first bit in bit 0) and their number.
#[derive(Clone, Copy, Debug)]
struct Bits {
    code: u8,
    len: u8,
}

const fn b(code: u8, len: u8) -> Bits {
    Bits { code, len }
}

/// The tables of one code.
#[derive(Debug)]
struct Tables {
    /// Board codes by colour and role index (the king has none).
    board: [[Bits; 14]; 2],
    /// Hand codes by colour and [`HAND_ORDER`] index.
    hand: [[Bits; 7]; 2],
    /// Codes of the pieces out of play (in neither hand nor on the
    /// board), by [`HAND_ORDER`] index. Most are Black's hand code with the
    /// promotion bit set; the gold's (and for HuffmanCodedPos the
    /// bishop's and rook's) are codes of their own, as cshogi writes them.
    boxed: [Bits; 7],
}

/// The roles in the order both codes write hands.
const HAND_ORDER: [Role; 7] = [
    Role::Pawn,
    Role::Lance,
    Role::Knight,
    Role::Silver,
    Role::Gold,
    Role::Bishop,
    Role::Rook,
];

/// How many of each of [`HAND_ORDER`] the standard set holds.
const SET: [u8; 7] = [18, 4, 4, 4, 4, 2, 2];

/// Apery's HuffmanCodedPos. Board codes are indexed by kifu's role order:
/// P L N S G B R K +P +L +N +S +B +R.
const HCP: Tables = Tables {
    board: [
        [
            b(0b1, 4),
            b(0b11, 6),
            b(0b111, 6),
            b(0b1011, 6),
            b(0b1111, 6),
            b(0b11111, 8),
            b(0b111111, 8),
            b(0, 0),
            b(0b1001, 4),
            b(0b100011, 6),
            b(0b100111, 6),
            b(0b101011, 6),
            b(0b10011111, 8),
            b(0b10111111, 8),
        ],
        [
            b(0b101, 4),
            b(0b10011, 6),
            b(0b10111, 6),
            b(0b11011, 6),
            b(0b101111, 6),
            b(0b1011111, 8),
            b(0b1111111, 8),
            b(0, 0),
            b(0b1101, 4),
            b(0b110011, 6),
            b(0b110111, 6),
            b(0b111011, 6),
            b(0b11011111, 8),
            b(0b11111111, 8),
        ],
    ],
    hand: [
        [
            b(0b0, 3),
            b(0b1, 5),
            b(0b11, 5),
            b(0b101, 5),
            b(0b111, 5),
            b(0b11111, 7),
            b(0b111111, 7),
        ],
        [
            b(0b100, 3),
            b(0b10001, 5),
            b(0b10011, 5),
            b(0b10101, 5),
            b(0b10111, 5),
            b(0b1011111, 7),
            b(0b1111111, 7),
        ],
    ],
    boxed: [
        b(0b10, 3),
        b(0b1001, 5),
        b(0b1011, 5),
        b(0b1101, 5),
        b(0b11101, 5),
        b(0b1111, 7),
        b(0b101111, 7),
    ],
};

/// YaneuraOu's PackedSfen (same order as [`HCP`]).
const PSFEN: Tables = Tables {
    board: [
        [
            b(0b1, 4),
            b(0b11, 6),
            b(0b1011, 6),
            b(0b111, 6),
            b(0b1111, 6),
            b(0b11111, 8),
            b(0b111111, 8),
            b(0, 0),
            b(0b101, 4),
            b(0b10011, 6),
            b(0b11011, 6),
            b(0b10111, 6),
            b(0b1011111, 8),
            b(0b1111111, 8),
        ],
        [
            b(0b1001, 4),
            b(0b100011, 6),
            b(0b101011, 6),
            b(0b100111, 6),
            b(0b101111, 6),
            b(0b10011111, 8),
            b(0b10111111, 8),
            b(0, 0),
            b(0b1101, 4),
            b(0b110011, 6),
            b(0b111011, 6),
            b(0b110111, 6),
            b(0b11011111, 8),
            b(0b11111111, 8),
        ],
    ],
    hand: [
        [
            b(0b0, 3),
            b(0b1, 5),
            b(0b101, 5),
            b(0b11, 5),
            b(0b111, 5),
            b(0b1111, 7),
            b(0b11111, 7),
        ],
        [
            b(0b100, 3),
            b(0b10001, 5),
            b(0b10101, 5),
            b(0b10011, 5),
            b(0b10111, 5),
            b(0b1001111, 7),
            b(0b1011111, 7),
        ],
    ],
    boxed: [
        b(0b10, 3),
        b(0b1001, 5),
        b(0b1101, 5),
        b(0b1011, 5),
        b(0b11011, 5),
        b(0b101111, 7),
        b(0b111111, 7),
    ],
};

/// Why a position has no code.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unencodable {
    /// Not standard shogi (minishogi, doubutsu).
    Variant(Variant),
    /// A side has no king.
    MissingKing(Color),
    /// More pieces of a kind than the standard set holds (a role, counted
    /// unpromoted, on the board and in both hands).
    TooMany(Role),
}

impl fmt::Display for Unencodable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Unencodable::Variant(v) => write!(f, "{} has no 256-bit position code", v.name()),
            Unencodable::MissingKing(c) => {
                write!(f, "{} has no king (the code places both kings)", c.name())
            }
            Unencodable::TooMany(r) => write!(
                f,
                "more {}s than the standard set holds",
                r.name().to_lowercase()
            ),
        }
    }
}

impl std::error::Error for Unencodable {}

/// Whether `pos` has a position code: standard shogi, both kings, no more
/// pieces of a kind than the standard set. Pieces are only moved, captured
/// and dropped, so every position of a game played from an encodable start
/// is encodable too.
pub fn check(pos: &Position) -> Result<(), Unencodable> {
    if pos.variant() != Variant::Standard {
        return Err(Unencodable::Variant(pos.variant()));
    }
    for c in Color::ALL {
        if pos.pieces(c, Role::King).count() != 1 {
            return Err(Unencodable::MissingKing(c));
        }
    }
    let counts = in_play(pos);
    for (i, &n) in counts.iter().enumerate() {
        if n > SET[i] {
            return Err(Unencodable::TooMany(HAND_ORDER[i]));
        }
    }
    Ok(())
}

/// The index of a role (counted unpromoted) in [`HAND_ORDER`].
#[inline]
fn order_index(r: Role) -> Option<usize> {
    match r.unpromoted() {
        Role::Pawn => Some(0),
        Role::Lance => Some(1),
        Role::Knight => Some(2),
        Role::Silver => Some(3),
        Role::Gold => Some(4),
        Role::Bishop => Some(5),
        Role::Rook => Some(6),
        _ => None,
    }
}

/// Pieces of each kind on the board and in both hands.
fn in_play(pos: &Position) -> [u8; 7] {
    let mut n = [0u8; 7];
    for (i, [r, pr]) in KIND_ROLES.iter().enumerate() {
        let on_board = if r == pr {
            pos.by_role(*r).count()
        } else {
            (pos.by_role(*r) | pos.by_role(*pr)).count()
        };
        let held =
            pos.hand(Color::Black).count(*r) as u32 + pos.hand(Color::White).count(*r) as u32;
        n[i] = (on_board + held).min(255) as u8;
    }
    n
}

/// A 256-bit little-endian bit writer: codes gather in a 128-bit
/// accumulator, whose low word goes out when it is full. A position
/// [`check`] accepts takes exactly 256 bits; for any other, what does not
/// fit is dropped (never a panic).
struct Writer {
    words: [u64; 4],
    next: usize,
    acc: u128,
    bits: u32,
}

impl Writer {
    /// Writes the `len` low bits of `code` (`len` at most 64).
    #[inline(always)]
    fn put(&mut self, code: u64, len: u32) {
        self.acc |= (code as u128) << self.bits;
        self.bits += len;
        if self.bits >= 64 {
            if let Some(w) = self.words.get_mut(self.next) {
                *w = self.acc as u64;
            }
            self.next += 1;
            self.acc >>= 64;
            self.bits -= 64;
        }
    }

    fn bytes(mut self) -> Code {
        if let Some(w) = self.words.get_mut(self.next) {
            *w = self.acc as u64;
        }
        let mut out = [0u8; 32];
        for (i, w) in self.words.iter().enumerate() {
            out[i * 8..i * 8 + 8].copy_from_slice(&w.to_le_bytes());
        }
        out
    }
}

/// The board roles of each [`HAND_ORDER`] kind: the role and its promoted
/// form.
const KIND_ROLES: [[Role; 2]; 7] = [
    [Role::Pawn, Role::ProPawn],
    [Role::Lance, Role::ProLance],
    [Role::Knight, Role::ProKnight],
    [Role::Silver, Role::ProSilver],
    [Role::Gold, Role::Gold],
    [Role::Bishop, Role::Horse],
    [Role::Rook, Role::Dragon],
];

/// A table's board codes by cell: colour × 16 + role, 32 for an empty
/// square; a king has no bits (its square is in the header).
const fn cells(board: &[[Bits; 14]; 2]) -> [Bits; 33] {
    let mut t = [b(0, 0); 33];
    let mut c = 0;
    while c < 2 {
        let mut r = 0;
        while r < 14 {
            t[c * 16 + r] = board[c][r];
            r += 1;
        }
        c += 1;
    }
    t[32] = b(0, 1);
    t
}

const HCP_CELLS: [Bits; 33] = cells(&HCP.board);
const PSFEN_CELLS: [Bits; 33] = cells(&PSFEN.board);

#[inline(always)]
fn encode(pos: &Position, t: &Tables, cell: &[Bits; 33]) -> Code {
    encode_lens(pos, t, cell, &mut [0; 81])
}

/// [`encode`], with the length of each square's code.
#[inline(always)]
fn encode_lens(pos: &Position, t: &Tables, cell: &[Bits; 33], lens: &mut [u8; 81]) -> Code {
    let mut w = Writer {
        words: [0; 4],
        next: 0,
        acc: 0,
        bits: 0,
    };
    let k = |c| pos.king(c).map_or(0, |s| s.index() as u64);
    w.put(
        pos.turn().index() as u64 | k(Color::Black) << 1 | k(Color::White) << 8,
        15,
    );
    for sq in Square::all() {
        let c = cell[cell_index(pos.piece_at(sq))];
        lens[sq.index()] = c.len;
        w.put(c.code as u64, c.len as u32);
    }
    let mut kinds = [0u8; 7];
    for (i, [r, pr]) in KIND_ROLES.iter().enumerate() {
        let on_board = if r == pr {
            pos.by_role(*r).count()
        } else {
            (pos.by_role(*r) | pos.by_role(*pr)).count()
        };
        kinds[i] = on_board.min(255) as u8;
    }
    for c in Color::ALL {
        let h: &Hand = pos.hand(c);
        for (i, r) in HAND_ORDER.iter().enumerate() {
            let n = h.count(*r);
            kinds[i] = kinds[i].saturating_add(n);
            let code = t.hand[c.index()][i];
            for _ in 0..n {
                w.put(code.code as u64, code.len as u32);
            }
        }
    }
    for (i, &n) in kinds.iter().enumerate() {
        let code = t.boxed[i];
        for _ in n..SET[i] {
            w.put(code.code as u64, code.len as u32);
        }
    }
    w.bytes()
}

/// Apery's HuffmanCodedPos of `pos` (see the [module docs](self)). For a
/// position [`check`] refuses, the bytes are unspecified (never a panic).
///
/// ```
/// use kifu::export::hcp;
/// use kifu::{Position, Variant};
///
/// let code = hcp(&Position::new(Variant::Standard));
/// assert_eq!(code[..4], [0x58, 0xa4, 0x49, 0x21]);
/// ```
pub fn hcp(pos: &Position) -> Code {
    encode(pos, &HCP, &HCP_CELLS)
}

/// YaneuraOu's PackedSfen of `pos` (see [`hcp`]).
pub fn packed_sfen(pos: &Position) -> Code {
    encode(pos, &PSFEN, &PSFEN_CELLS)
}

/// Which position code.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// Apery's HuffmanCodedPos.
    Hcp,
    /// YaneuraOu's PackedSfen.
    PackedSfen,
}

/// The code of a position kept up to date move by move: a move changes
/// two squares (and a hand on a capture or a drop), so the new code is
/// the old one with those cells' codes replaced, the bits after them
/// shifted. Gives the same bytes as [`hcp`] / [`packed_sfen`] of every
/// position of the game for a fraction of the work.
#[derive(Clone, Debug)]
pub struct Incremental {
    t: &'static Tables,
    cell: &'static [Bits; 33],
    bits: [u64; 4],
    /// The length of each square's code (0 for a king; padded so that
    /// eight bytes can be read from any square).
    lens: [u8; 88],
    /// Pieces in hand by colour and [`HAND_ORDER`] kind.
    hands: [[u8; 7]; 2],
    /// Where the codes of each colour × 7 + kind group of the hands end,
    /// counted from where the hands start.
    groups: [u16; 14],
    /// Where the code of each file's first square starts (index 9:
    /// where the hands start); a square's start adds the lengths of the
    /// squares before it in its file.
    files: [u16; 10],
}

/// The bits of word `i` below bit `k` of a 256-bit value.
#[inline(always)]
const fn low_mask(k: u32, i: u32) -> u64 {
    let n = k.saturating_sub(64 * i);
    let n = if n > 64 { 64 } else { n };
    ((1u64 << (n & 63)) - 1) | 0u64.wrapping_sub((n >> 6) as u64)
}

/// [`low_mask`] of the four words, for every `k` up to 256.
static LOW: [[u64; 4]; 257] = {
    let mut t = [[0u64; 4]; 257];
    let mut k = 0;
    while k < 257 {
        let mut i = 0;
        while i < 4 {
            t[k][i] = low_mask(k as u32, i as u32);
            i += 1;
        }
        k += 1;
    }
    t
};

/// The words of [`LOW`] for `k` (clamped to 256).
#[inline(always)]
fn low(k: u32) -> &'static [u64; 4] {
    &LOW[(k as usize).min(256)]
}

impl Incremental {
    /// The code of `pos` (a position [`check`] accepts), ready to follow
    /// its game.
    pub fn new(pos: &Position, kind: Kind) -> Incremental {
        let (t, cell) = match kind {
            Kind::Hcp => (&HCP, &HCP_CELLS),
            Kind::PackedSfen => (&PSFEN, &PSFEN_CELLS),
        };
        let mut lens = [0u8; 81];
        let code = encode_lens(pos, t, cell, &mut lens);
        let mut bits = [0u64; 4];
        for (i, w) in bits.iter_mut().enumerate() {
            *w = u64::from_le_bytes(code[i * 8..i * 8 + 8].try_into().expect("8 bytes"));
        }
        let mut hands = [[0u8; 7]; 2];
        for c in Color::ALL {
            for (i, r) in HAND_ORDER.iter().enumerate() {
                hands[c.index()][i] = pos.hand(c).count(*r);
            }
        }
        let mut files = [0u16; 10];
        let mut at = 15u16;
        for (i, l) in lens.iter().enumerate() {
            if i % 9 == 0 {
                files[i / 9] = at;
            }
            at += *l as u16;
        }
        files[9] = at;
        let mut padded = [0u8; 88];
        padded[..81].copy_from_slice(&lens);
        let mut groups = [0u16; 14];
        let mut end = 0u16;
        for c in 0..2 {
            for k in 0..7 {
                end += hands[c][k] as u16 * t.hand[c][k].len as u16;
                groups[c * 7 + k] = end;
            }
        }
        Incremental {
            t,
            cell,
            bits,
            lens: padded,
            hands,
            groups,
            files,
        }
    }

    /// The code of the current position.
    pub fn code(&self) -> Code {
        let mut out = [0u8; 32];
        for (i, w) in self.bits.iter().enumerate() {
            out[i * 8..i * 8 + 8].copy_from_slice(&w.to_le_bytes());
        }
        out
    }

    /// Replaces the `old` bits at `at` with the `len` bits of `code`
    /// (`old` and `len` at most 8): the bits after them move by the
    /// difference.
    #[inline]
    fn splice(&mut self, at: u32, old: u32, code: u64, len: u32) {
        let (below, cut) = (low(at), low(at + old));
        let mut lo = [0u64; 4];
        let mut hi = [0u64; 4];
        for i in 0..4 {
            lo[i] = self.bits[i] & below[i];
            hi[i] = self.bits[i] & !cut[i];
        }
        if len >= old {
            let d = len - old;
            for i in (1..4).rev() {
                hi[i] = (hi[i] << d) | ((hi[i - 1] >> 1) >> (63 - d));
            }
            hi[0] <<= d;
        } else {
            let d = old - len;
            for i in 0..3 {
                hi[i] = (hi[i] >> d) | ((hi[i + 1] << 1) << (63 - d));
            }
            hi[3] >>= d;
        }
        let (w, b) = ((at >> 6).min(3) as usize, at & 63);
        for i in 0..4 {
            self.bits[i] = lo[i] | hi[i];
        }
        self.bits[w] |= code << b;
        if w < 3 {
            self.bits[w + 1] |= (code >> 1) >> (63 - b);
        }
    }

    /// Where the code of square `sq` starts: its file's start and the
    /// lengths of the squares before it in the file (at most eight bytes,
    /// added by one multiplication).
    #[inline]
    fn offset(&self, sq: usize) -> u32 {
        let file = sq / 9;
        let first = file * 9;
        let n = (sq - first) as u32;
        let word = u64::from_le_bytes(self.lens[first..first + 8].try_into().expect("8 bytes"));
        // The `n` bytes before the square, moved to the top of the word
        // (their sum is the top byte of the product).
        let below = if n == 0 { 0 } else { word << (64 - 8 * n) };
        self.files[file] as u32 + (below.wrapping_mul(0x0101_0101_0101_0101) >> 56) as u32
    }

    /// Moves the starts of the files after `sq`'s by `d` bits.
    #[inline]
    fn move_files(&mut self, sq: usize, d: i32) {
        for f in &mut self.files[sq / 9 + 1..] {
            *f = f.wrapping_add(d as u16);
        }
    }

    /// Puts `cell` (a [`cell_index`]) on `sq`.
    #[inline]
    fn set_cell(&mut self, sq: usize, cell: usize) {
        let c = self.cell[cell];
        let at = self.offset(sq);
        let old = self.lens[sq];
        self.splice(at, old as u32, c.code as u64, c.len as u32);
        self.move_files(sq, c.len as i32 - old as i32);
        self.lens[sq] = c.len;
    }

    /// A quiet move of a piece other than the king: `from` empties (its
    /// code of `len` bits becomes one `0` bit) and the empty `to` takes
    /// `code`, as long; only the bits between the two squares move.
    #[inline]
    fn quiet(&mut self, from: usize, to: usize, code: u64, len: u32) {
        let (f, t) = (self.offset(from), self.offset(to));
        let d = len - 1;
        // The bits that change: from the first square's code to the end
        // of the last one's.
        let (first, end) = if f < t { (f, t + 1) } else { (t, f + len) };
        let w = (first >> 6) as usize;
        if w < 3 && end < 64 * w as u32 + 128 {
            // Within two words: one 128-bit window.
            let base = 64 * w as u32;
            let x = self.bits[w] as u128 | (self.bits[w + 1] as u128) << 64;
            let (f, t, first, end) = (f - base, t - base, first - base, end - base);
            let mask = |k: u32| (1u128 << k) - 1;
            let outside = mask(first) | !mask(end);
            let y = if f < t {
                // The region after `from` up to `to` moves down.
                let region = x & mask(t) & !mask(f + len);
                (x & outside) | (region >> d) | (code as u128) << (t - d)
            } else {
                let region = x & mask(f) & !mask(t + 1);
                (x & outside) | (region << d) | (code as u128) << t
            };
            self.bits[w] = y as u64;
            self.bits[w + 1] = (y >> 64) as u64;
        } else {
            self.quiet_wide(f, t, code, len);
        }
        // The files between the two squares' files start earlier (or later).
        let (a, b) = (from / 9, to / 9);
        if a < b {
            for x in &mut self.files[a + 1..=b] {
                *x -= d as u16;
            }
        } else {
            for x in &mut self.files[b + 1..=a] {
                *x += d as u16;
            }
        }
        self.lens[from] = 1;
        self.lens[to] = len as u8;
    }

    /// [`Incremental::quiet`] on the whole code (the squares far apart).
    fn quiet_wide(&mut self, f: u32, t: u32, code: u64, len: u32) {
        let d = len - 1;
        let (lo, hi, down) = if f < t {
            (f + len, t, true)
        } else {
            (t + 1, f, false)
        };
        let (clear_lo, clear_hi) = if f < t { (f, t + 1) } else { (t, f + len) };
        let (lo, hi) = (low(lo), low(hi));
        let (clear_lo, clear_hi) = (low(clear_lo), low(clear_hi));
        let mut moved = [0u64; 4];
        for (i, m) in moved.iter_mut().enumerate() {
            *m = self.bits[i] & hi[i] & !lo[i];
            self.bits[i] &= clear_lo[i] | !clear_hi[i];
        }
        if down {
            for i in 0..3 {
                moved[i] = (moved[i] >> d) | ((moved[i + 1] << 1) << (63 - d));
            }
            moved[3] >>= d;
        } else {
            for i in (1..4).rev() {
                moved[i] = (moved[i] << d) | ((moved[i - 1] >> 1) >> (63 - d));
            }
            moved[0] <<= d;
        }
        for (b, m) in self.bits.iter_mut().zip(moved) {
            *b |= m;
        }
        let at = if f < t { t - d } else { t };
        let (w, b) = ((at >> 6).min(3) as usize, at & 63);
        self.bits[w] |= code << b;
        if w < 3 {
            self.bits[w + 1] |= (code >> 1) >> (63 - b);
        }
    }

    /// Where the hand codes of `color`'s `kind` end.
    #[inline]
    fn hand_end(&self, color: Color, kind: usize) -> u32 {
        self.files[9] as u32 + self.groups[color.index() * 7 + kind] as u32
    }

    /// One piece of `color`'s `kind` more (`d` = 1) or less (-1) in hand.
    #[inline]
    fn add_to_hand(&mut self, color: Color, kind: usize, d: i32) {
        let len = (self.t.hand[color.index()][kind].len as i32 * d) as u16;
        for g in &mut self.groups[color.index() * 7 + kind..] {
            *g = g.wrapping_add(len);
        }
        self.hands[color.index()][kind] = (self.hands[color.index()][kind] as i32 + d) as u8;
    }

    /// The bits of `[lo, hi)`, moved by `d` (less than 64 either way).
    #[inline(always)]
    fn region(&self, lo: u32, hi: u32, d: i32) -> [u64; 4] {
        let (lo, hi) = (low(lo), low(hi));
        let mut r = [0u64; 4];
        for (i, x) in r.iter_mut().enumerate() {
            *x = self.bits[i] & hi[i] & !lo[i];
        }
        if d >= 0 {
            let d = d as u32;
            for i in (1..4).rev() {
                r[i] = (r[i] << d) | ((r[i - 1] >> 1) >> (63 - d));
            }
            r[0] <<= d;
        } else {
            let d = (-d) as u32;
            for i in 0..3 {
                r[i] = (r[i] >> d) | ((r[i + 1] << 1) << (63 - d));
            }
            r[3] >>= d;
        }
        r
    }

    /// The bits outside `[lo, hi)`, with `parts` (moved regions) and two
    /// codes (`(code, at)`) added.
    #[inline(always)]
    fn rebuild(&mut self, lo: u32, hi: u32, parts: &[[u64; 4]], codes: &[(u64, u32)]) {
        let (l, h) = (low(lo), low(hi));
        for i in 0..4 {
            let mut x = self.bits[i] & (l[i] | !h[i]);
            for p in parts {
                x |= p[i];
            }
            self.bits[i] = x;
        }
        for &(code, at) in codes {
            let (w, b) = ((at >> 6).min(3) as usize, at & 63);
            self.bits[w] |= code << b;
            if w < 3 {
                self.bits[w + 1] |= (code >> 1) >> (63 - b);
            }
        }
    }

    /// A capture by a piece other than the king: `from` empties, the piece
    /// (`c`, as long as before) replaces the captured one on `to`, and the
    /// captured kind `k` goes to `color`'s hand.
    #[inline]
    fn capture(&mut self, from: usize, to: usize, c: Bits, color: Color, k: usize) {
        let (f, t) = (self.offset(from), self.offset(to));
        let (lf, lc) = (c.len as u32, self.lens[to] as u32);
        let hand = self.t.hand[color.index()][k];
        let h = self.hand_end(color, k);
        let (lh, code) = (hand.len as u32, c.code as u64);
        if f < t {
            let b = self.region(f + lf, t, 1 - lf as i32);
            let m = self.region(t + lc, h, 1 - lc as i32);
            self.rebuild(
                f,
                h,
                &[b, m],
                &[(code, t + 1 - lf), (hand.code as u64, h + 1 - lc)],
            );
        } else {
            let b = self.region(t + lc, f, lf as i32 - lc as i32);
            let m = self.region(f + lf, h, 1 - lc as i32);
            self.rebuild(t, h, &[b, m], &[(code, t), (hand.code as u64, h + 1 - lc)]);
        }
        debug_assert_eq!(lh, lc - 1);
        self.move_files(from, 1 - lf as i32);
        self.move_files(to, lf as i32 - lc as i32);
        self.lens[from] = 1;
        self.lens[to] = c.len;
        self.add_to_hand(color, k, 1);
        self.bits[0] ^= 1;
    }

    /// A drop of kind `k` from `color`'s hand on the empty `to`.
    #[inline]
    fn drop(&mut self, to: usize, c: Bits, color: Color, k: usize) {
        let t = self.offset(to);
        let lh = self.t.hand[color.index()][k].len as u32;
        let at = self.hand_end(color, k) - lh;
        let m = self.region(t + 1, at, lh as i32);
        self.rebuild(t, at + lh, &[m], &[(c.code as u64, t)]);
        self.move_files(to, c.len as i32 - 1);
        self.lens[to] = c.len;
        self.add_to_hand(color, k, -1);
    }

    /// Plays a legal move: `color` moved its `role` (before promotion),
    /// capturing `captured`.
    pub fn play(&mut self, mv: Move, color: Color, role: Role, captured: Option<Role>) {
        let ci = color.index() * 16;
        match mv {
            Move::Normal { from, to, promote } => {
                let after = if promote {
                    role.promoted().unwrap_or(role)
                } else {
                    role
                };
                let cell = ci + (after.index() & 15);
                // What shrinks first, so that the code never runs past
                // 256 bits: a king's square grows from 0 bits to 1.
                if role == Role::King {
                    self.set_cell(to.index(), cell);
                    self.set_cell(from.index(), 32);
                } else if let Some(k) = captured.and_then(order_index) {
                    let c = self.cell[cell];
                    self.capture(from.index(), to.index(), c, color, k);
                    return;
                } else {
                    let c = self.cell[cell];
                    self.quiet(from.index(), to.index(), c.code as u64, c.len as u32);
                }
                if role == Role::King {
                    let shift = 1 + 7 * color.index() as u32;
                    self.splice(shift, 7, to.index() as u64, 7);
                    if let Some(k) = captured.and_then(order_index) {
                        let code = self.t.hand[color.index()][k];
                        let at = self.hand_end(color, k);
                        self.splice(at, 0, code.code as u64, code.len as u32);
                        self.add_to_hand(color, k, 1);
                    }
                }
            }
            Move::Drop { role, to } => {
                let cell = self.cell[ci + (role.index() & 15)];
                match order_index(role) {
                    Some(k) if self.hands[color.index()][k] > 0 => {
                        self.drop(to.index(), cell, color, k)
                    }
                    _ => self.set_cell(to.index(), ci + (role.index() & 15)),
                }
            }
        }
        self.bits[0] ^= 1;
    }
}

/// The cell of a square's content: colour × 16 + role, 32 when empty.
#[inline(always)]
fn cell_index(p: Option<Piece>) -> usize {
    match p {
        None => 32,
        Some(p) => (p.color.index() * 16 + (p.role.index() & 15)).min(32),
    }
}

/// Apery's role numbers (pawn 1, lance 2, knight 3, silver 4, bishop 5,
/// rook 6, gold 7), which YaneuraOu shares; 0 for a role with none.
const fn apery_role(r: Role) -> u16 {
    match r {
        Role::Pawn => 1,
        Role::Lance => 2,
        Role::Knight => 3,
        Role::Silver => 4,
        Role::Bishop => 5,
        Role::Rook => 6,
        Role::Gold => 7,
        _ => 0,
    }
}

/// A move as Apery's `move16` (the `bestMove16` of `.hcpe`, the moves of
/// `.hcpe3`): destination in bits 0–6, origin in bits 7–13 (for a drop,
/// 81 + the dropped role's number − 1), promotion in bit 14.
///
/// ```
/// use kifu::export::move16;
/// use kifu::{Move, Variant};
///
/// let m = Move::from_usi("7g7f", Variant::Standard).unwrap();
/// assert_eq!(move16(m), 0x1e3b);
/// ```
pub fn move16(m: Move) -> u16 {
    match m {
        Move::Normal { from, to, promote } => {
            to.index() as u16 | (from.index() as u16) << 7 | (promote as u16) << 14
        }
        Move::Drop { role, to } => to.index() as u16 | (80 + apery_role(role)) << 7,
    }
}

/// A move as YaneuraOu's `Move16` (the `move` of `.psv`): destination in
/// bits 0–6, origin (for a drop, the dropped role's number) in bits 7–13,
/// a drop in bit 14, promotion in bit 15.
///
/// ```
/// use kifu::export::psv_move16;
/// use kifu::{Move, Variant};
///
/// let m = Move::from_usi("8h2b+", Variant::Standard).unwrap();
/// assert_eq!(psv_move16(m), 0xa30a);
/// ```
pub fn psv_move16(m: Move) -> u16 {
    match m {
        Move::Normal { from, to, promote } => {
            to.index() as u16 | (from.index() as u16) << 7 | (promote as u16) << 15
        }
        Move::Drop { role, to } => to.index() as u16 | apery_role(role) << 7 | 1 << 14,
    }
}

/// The move of an Apery `move16`, or `None` for a value no move has.
pub fn move_from_move16(v: u16) -> Option<Move> {
    let to = Square::from_index((v & 0x7f) as usize)?;
    let from = ((v >> 7) & 0x7f) as usize;
    let promote = v & (1 << 14) != 0;
    if v & (1 << 15) != 0 {
        return None;
    }
    if from >= 81 {
        let role = role_of((from - 80) as u16)?;
        return (!promote).then_some(Move::Drop { role, to });
    }
    Some(Move::Normal {
        from: Square::from_index(from)?,
        to,
        promote,
    })
}

/// The move of a YaneuraOu `Move16`, or `None` for a value no move has.
pub fn move_from_psv_move16(v: u16) -> Option<Move> {
    let to = Square::from_index((v & 0x7f) as usize)?;
    let from = (v >> 7) & 0x7f;
    let promote = v & (1 << 15) != 0;
    if v & (1 << 14) != 0 {
        let role = role_of(from)?;
        return (!promote).then_some(Move::Drop { role, to });
    }
    Some(Move::Normal {
        from: Square::from_index(from as usize)?,
        to,
        promote,
    })
}

fn role_of(n: u16) -> Option<Role> {
    Some(match n {
        1 => Role::Pawn,
        2 => Role::Lance,
        3 => Role::Knight,
        4 => Role::Silver,
        5 => Role::Bishop,
        6 => Role::Rook,
        7 => Role::Gold,
        _ => return None,
    })
}

/// Why 32 bytes are no position code.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BadCode {
    /// The bit at which the code stopped making sense.
    pub bit: u32,
}

impl fmt::Display for BadCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "not a position code (at bit {})", self.bit)
    }
}

impl std::error::Error for BadCode {}

/// A little-endian bit reader over 256 bits.
struct Reader<'a> {
    bytes: &'a Code,
    at: u32,
}

impl Reader<'_> {
    fn bit(&mut self) -> Result<u8, BadCode> {
        if self.at >= 256 {
            return Err(BadCode { bit: self.at });
        }
        let v = (self.bytes[(self.at / 8) as usize] >> (self.at % 8)) & 1;
        self.at += 1;
        Ok(v)
    }

    fn bits(&mut self, n: u32) -> Result<u32, BadCode> {
        let mut v = 0;
        for i in 0..n {
            v |= (self.bit()? as u32) << i;
        }
        Ok(v)
    }
}

fn decode(bytes: &Code, t: &Tables) -> Result<Setup, BadCode> {
    let mut r = Reader { bytes, at: 0 };
    let mut s = Setup::empty(Variant::Standard);
    s.turn = if r.bit()? == 1 {
        Color::White
    } else {
        Color::Black
    };
    for c in Color::ALL {
        let at = r.at;
        let sq = Square::from_index(r.bits(7)? as usize).ok_or(BadCode { bit: at })?;
        s.board[sq.index()] = Some(Piece::new(c, Role::King));
    }
    for sq in Square::all() {
        if s.board[sq.index()].is_some() {
            continue;
        }
        let at = r.at;
        let (mut code, mut len) = (0u32, 0u32);
        loop {
            code |= (r.bit()? as u32) << len;
            len += 1;
            if len == 1 && code == 0 {
                break;
            }
            if let Some(p) = board_piece(t, code, len) {
                s.board[sq.index()] = Some(p);
                break;
            }
            if len >= 8 {
                return Err(BadCode { bit: at });
            }
        }
    }
    while r.at < 256 {
        let at = r.at;
        let (mut code, mut len) = (0u32, 0u32);
        loop {
            code |= (r.bit()? as u32) << len;
            len += 1;
            if let Some((c, role)) = hand_piece(t, code, len) {
                if let Some(c) = c {
                    s.hands[c.index()].add(role);
                }
                break;
            }
            if len >= 7 {
                return Err(BadCode { bit: at });
            }
        }
    }
    Ok(s)
}

fn board_piece(t: &Tables, code: u32, len: u32) -> Option<Piece> {
    for c in Color::ALL {
        for (i, x) in t.board[c.index()].iter().enumerate() {
            if x.len as u32 == len && x.code as u32 == code {
                return Some(Piece::new(c, Role::from_index(i)?));
            }
        }
    }
    None
}

/// A hand code: the colour (none for a piece out of play) and the role.
fn hand_piece(t: &Tables, code: u32, len: u32) -> Option<(Option<Color>, Role)> {
    for (i, r) in HAND_ORDER.iter().enumerate() {
        for c in Color::ALL {
            let x = t.hand[c.index()][i];
            if x.len as u32 == len && x.code as u32 == code {
                return Some((Some(c), *r));
            }
        }
        let x = t.boxed[i];
        if x.len as u32 == len && x.code as u32 == code {
            return Some((None, *r));
        }
    }
    None
}

/// The position a HuffmanCodedPos describes (move number 1: the code has
/// none). Unchecked: build the position with [`Position::from_setup`].
pub fn decode_hcp(code: &Code) -> Result<Setup, BadCode> {
    decode(code, &HCP)
}

/// The position a PackedSfen describes (see [`decode_hcp`]).
pub fn decode_packed_sfen(code: &Code) -> Result<Setup, BadCode> {
    decode(code, &PSFEN)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pos(sfen: &str) -> Position {
        Position::from_sfen(sfen).unwrap()
    }

    fn usi(s: &str) -> Move {
        Move::from_usi(s, Variant::Standard).unwrap()
    }

    /// The start position's HuffmanCodedPos, as cshogi 1.1.0 writes it
    /// (`Board().to_hcp`), and its PackedSfen (`to_psfen`).
    #[test]
    fn start_position_codes() {
        let p = Position::new(Variant::Standard);
        let hex = |c: Code| c.iter().map(|b| format!("{b:02x}")).collect::<String>();
        assert_eq!(
            hex(hcp(&p)),
            "58a449210cd757217e8e4d212caf427814c2ab109e4d212cd75f213e8e49210c"
        );
        assert_eq!(
            hex(packed_sfen(&p)),
            "58a451220ceb67227e9653221caf447824c22b119e53221ceb6f223e9651220c"
        );
    }

    /// Bare kings: every other piece is out of play (cshogi 1.1.0's bytes).
    #[test]
    fn pieces_out_of_play() {
        let p = pos("4k4/9/9/9/9/9/9/9/4K4 b - 1");
        let hex = |c: Code| c.iter().map(|b| format!("{b:02x}")).collect::<String>();
        assert_eq!(
            hex(hcp(&p)),
            "58240000000000000000008024499224499294524a6badd55a6bbdf7fe78bc5e"
        );
        assert_eq!(
            hex(packed_sfen(&p)),
            "58240000000000000000008024499224499294524aadb5b6d65a7beffd7afd7e"
        );
    }

    #[test]
    fn move_vectors() {
        assert_eq!(move16(usi("7g7f")), 0x1e3b);
        assert_eq!(move16(usi("8h2b+")), 0x630a);
        assert_eq!(move16(usi("B*4e")), 0x2a9f);
        assert_eq!(psv_move16(usi("8h2b+")), 0xa30a);
        assert_eq!(psv_move16(usi("B*4e")), 0x429f);
        assert_eq!(psv_move16(usi("7g7f")), 0x1e3b);
    }

    #[test]
    fn moves_decode_back() {
        for s in ["7g7f", "8h2b+", "B*4e", "P*5e", "G*1a", "R*9i", "1a9i+"] {
            let m = usi(s);
            assert_eq!(move_from_move16(move16(m)), Some(m), "{s}");
            assert_eq!(move_from_psv_move16(psv_move16(m)), Some(m), "{s}");
        }
    }

    /// Positions of random legal games from the even start and from
    /// handicap starts (pieces out of play), with captures filling hands.
    fn random_positions() -> Vec<Position> {
        let mut out = Vec::new();
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        for start in [
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
            "lnsgkgsn1/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
            "lnsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
            "4k4/9/9/9/9/9/9/9/4K4 b - 1",
            "4k4/9/9/9/9/9/9/9/4K4 b 2r2b4g4s4n4l18p 1",
        ] {
            for _ in 0..20 {
                let mut p = pos(start);
                for _ in 0..200 {
                    out.push(p);
                    let moves = p.legal_moves();
                    if moves.is_empty() {
                        break;
                    }
                    seed ^= seed << 13;
                    seed ^= seed >> 7;
                    seed ^= seed << 17;
                    p.play_unchecked(moves[(seed % moves.len() as u64) as usize]);
                }
            }
        }
        out
    }

    #[test]
    fn codes_decode_back() {
        for p in random_positions() {
            assert_eq!(check(&p), Ok(()));
            for (code, dec) in [
                (hcp(&p), decode_hcp as fn(&Code) -> Result<Setup, BadCode>),
                (packed_sfen(&p), decode_packed_sfen),
            ] {
                let mut s = dec(&code).unwrap_or_else(|e| panic!("{}: {e}", p.sfen()));
                s.ply = p.ply();
                assert_eq!(crate::rules::write_sfen(&s), p.sfen());
            }
        }
    }

    /// Followed move by move, the code is the one made from scratch.
    #[test]
    fn incremental_codes_are_the_full_codes() {
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        for start in [
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
            "lnsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
            "4k4/9/9/9/9/9/9/9/4K4 b 2r2b4g4s4n4l18p 1",
        ] {
            for kind in [Kind::Hcp, Kind::PackedSfen] {
                for _ in 0..10 {
                    let mut p = pos(start);
                    let mut inc = Incremental::new(&p, kind);
                    let mut last = String::new();
                    for _ in 0..300 {
                        let full = match kind {
                            Kind::Hcp => hcp(&p),
                            Kind::PackedSfen => packed_sfen(&p),
                        };
                        assert_eq!(inc.code(), full, "{} after {last}", p.sfen());
                        let moves = p.legal_moves();
                        if moves.is_empty() {
                            break;
                        }
                        seed ^= seed << 13;
                        seed ^= seed >> 7;
                        seed ^= seed << 17;
                        let m = moves[(seed % moves.len() as u64) as usize];
                        let role = p.moving_role(m).unwrap();
                        let captured = p.captured(m).map(|c| c.role);
                        last = format!("{} {}", p.sfen(), m.usi(Variant::Standard));
                        inc.play(m, p.turn(), role, captured);
                        p.play_unchecked(m);
                    }
                }
            }
        }
    }

    #[test]
    fn check_refuses_what_has_no_code() {
        assert_eq!(
            check(&Position::new(Variant::Minishogi)),
            Err(Unencodable::Variant(Variant::Minishogi))
        );
        let no_king = Position::from_setup_unchecked(
            &crate::rules::parse_sfen("4k4/9/9/9/9/9/9/9/9 b - 1", None).unwrap(),
        );
        assert_eq!(check(&no_king), Err(Unencodable::MissingKing(Color::Black)));
        let three_rooks = Position::from_setup_unchecked(
            &crate::rules::parse_sfen("4k4/9/9/9/9/9/9/9/RR2K4 b R 1", None).unwrap(),
        );
        assert_eq!(check(&three_rooks), Err(Unencodable::TooMany(Role::Rook)));
        assert_eq!(check(&Position::new(Variant::Standard)), Ok(()));
    }
}
