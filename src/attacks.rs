//! Precomputed attack tables (built at compile time) and sliding attacks.

use crate::bitboard::Bitboard;
use crate::color::Color;
use crate::role::Role;
use crate::square::Square;

type Step = (i8, i8);

// Steps as (file delta, rank delta) from Black's seat: forward is rank - 1.
const PAWN: &[Step] = &[(0, -1)];
const KNIGHT: &[Step] = &[(-1, -2), (1, -2)];
const SILVER: &[Step] = &[(-1, -1), (0, -1), (1, -1), (-1, 1), (1, 1)];
const GOLD: &[Step] = &[(-1, -1), (0, -1), (1, -1), (-1, 0), (1, 0), (0, 1)];
const KING: &[Step] = &[
    (-1, -1),
    (0, -1),
    (1, -1),
    (-1, 0),
    (1, 0),
    (-1, 1),
    (0, 1),
    (1, 1),
];
const ORTHO: &[Step] = &[(0, -1), (0, 1), (-1, 0), (1, 0)];
const DIAG: &[Step] = &[(-1, -1), (1, 1), (-1, 1), (1, -1)];
const NONE: &[Step] = &[];

const fn steps(role: Role) -> &'static [Step] {
    match role {
        Role::Pawn => PAWN,
        Role::Knight => KNIGHT,
        Role::Silver => SILVER,
        Role::Gold | Role::ProPawn | Role::ProLance | Role::ProKnight | Role::ProSilver => GOLD,
        Role::King => KING,
        Role::Giraffe | Role::Horse => ORTHO,
        Role::Elephant | Role::Dragon => DIAG,
        Role::Lance | Role::Bishop | Role::Rook => NONE,
    }
}

const fn build_steps() -> [[[u128; 81]; 16]; 2] {
    let mut t = [[[0u128; 81]; 16]; 2];
    let mut c = 0;
    while c < 2 {
        let mut r = 0;
        while r < 16 {
            let st = steps(Role::ALL[r]);
            let mut sq = 0;
            while sq < 81 {
                let file = (sq / 9) as i8;
                let rank = (sq % 9) as i8;
                let mut bb = 0u128;
                let mut i = 0;
                while i < st.len() {
                    let (df, mut dr) = st[i];
                    if c == 1 {
                        dr = -dr;
                    }
                    let f = file + df;
                    let k = rank + dr;
                    if f >= 0 && f < 9 && k >= 0 && k < 9 {
                        bb |= 1u128 << (f as usize * 9 + k as usize);
                    }
                    i += 1;
                }
                t[c][r][sq] = bb;
                sq += 1;
            }
            r += 1;
        }
        c += 1;
    }
    t
}

/// Ray directions as (file delta, rank delta). Even indices run towards lower
/// square indices, odd ones towards higher.
const DIRS: [Step; 8] = [
    (0, -1),
    (0, 1),
    (-1, 0),
    (1, 0),
    (-1, -1),
    (1, 1),
    (-1, 1),
    (1, -1),
];

const fn build_rays() -> [[u128; 81]; 8] {
    let mut t = [[0u128; 81]; 8];
    let mut d = 0;
    while d < 8 {
        let (df, dr) = DIRS[d];
        let mut sq = 0;
        while sq < 81 {
            let mut f = (sq / 9) as i8 + df;
            let mut k = (sq % 9) as i8 + dr;
            let mut bb = 0u128;
            while f >= 0 && f < 9 && k >= 0 && k < 9 {
                bb |= 1u128 << (f as usize * 9 + k as usize);
                f += df;
                k += dr;
            }
            t[d][sq] = bb;
            sq += 1;
        }
        d += 1;
    }
    t
}

/// The squares at most 2 files and 3 ranks away (the square itself
/// excluded): every square from which a one-step piece (a knight included)
/// can reach a square next to the centre.
const fn build_neighbourhoods() -> [u128; 81] {
    let mut t = [0u128; 81];
    let mut sq = 0;
    while sq < 81 {
        let (f, r) = ((sq / 9) as i32, (sq % 9) as i32);
        let mut df = -2;
        while df <= 2 {
            let mut dr = -3;
            while dr <= 3 {
                let (g, s) = (f + df, r + dr);
                if (df != 0 || dr != 0) && g >= 0 && g < 9 && s >= 0 && s < 9 {
                    t[sq] |= 1u128 << (g * 9 + s);
                }
                dr += 1;
            }
            df += 1;
        }
        sq += 1;
    }
    t
}

static STEPS: [[[u128; 81]; 16]; 2] = build_steps();
static NEIGHBOURHOODS: [u128; 81] = build_neighbourhoods();

/// Squares from which a one-step piece (a knight included) of either colour
/// might attack a square next to `sq`: at most 2 files and 3 ranks away.
#[inline]
pub fn king_neighbourhood(sq: Square) -> Bitboard {
    Bitboard(NEIGHBOURHOODS[sq.index()])
}
static RAYS: [[u128; 81]; 8] = build_rays();

/// Squares a non-sliding piece (or the step part of a horse or dragon)
/// attacks on the full 9×9 grid.
#[inline]
pub fn step_attacks(color: Color, role: Role, sq: Square) -> Bitboard {
    Bitboard(STEPS[color.index()][role.index()][sq.index()])
}

/// The ray from `sq` (exclusive) in direction `dir` to the edge of the grid.
#[inline]
pub fn ray(dir: usize, sq: Square) -> Bitboard {
    Bitboard(RAYS[dir][sq.index()])
}

// ---------------------------------------------------------------- sliders
//
// Sliding attacks use multiply-gather lookups ("kindergarten" bitboards,
// adapted to the 81-square board in a `u128`): the occupancy of the one
// line (file, rank or diagonal) through the slider is gathered into a 7-bit
// index (the line's inner squares; its two end squares never block anything
// beyond themselves), and a small table gives the attacked squares along the
// line for each position on it. A file is 9 consecutive bits, so its inner
// squares are one shift and mask away. A rank or a diagonal has its squares
// every 9 (rank), 10 (diagonal towards file 9, rank 9) or 8 (diagonal
// towards file 9, rank 1) bits; after a shift its inner squares sit at
// `stride * k` (k = 0..7, all below bit 64), and one 64-bit multiplication
// by a constant with bits at `57 - (stride - 1) * k` moves bit `stride * k`
// to bit `57 + k` without carries (every other partial product lands at a
// distinct position below bit 57 or beyond bit 63), so the top 7 bits are
// the index. Tables: 2.3 KB for files, 18 KB each for ranks and the two
// diagonal directions, built at compile time. `tests/sliders.rs` checks
// every slider against a ray walk, exhaustively over each line's occupancy.

/// Attacks along a 9-square line from position `p` (0..9) on it, for an
/// inner occupancy `idx` (bit `i` = square `i + 1` of the line occupied),
/// as a 9-bit pattern.
const fn line_pattern(p: usize, idx: usize) -> u16 {
    let occ = (idx as u32) << 1;
    let mut bb = 0u16;
    let mut k = p as i32 - 1;
    while k >= 0 {
        bb |= 1 << k;
        if occ >> k & 1 != 0 {
            break;
        }
        k -= 1;
    }
    let mut k = p + 1;
    while k < 9 {
        bb |= 1 << k;
        if occ >> k & 1 != 0 {
            break;
        }
        k += 1;
    }
    bb
}

const fn build_file_patterns() -> [[u16; 128]; 9] {
    let mut t = [[0u16; 128]; 9];
    let mut p = 0;
    while p < 9 {
        let mut idx = 0;
        while idx < 128 {
            t[p][idx] = line_pattern(p, idx);
            idx += 1;
        }
        p += 1;
    }
    t
}

/// [`line_pattern`] with pattern bit `k` moved to bit `stride * k`.
const fn build_spread_patterns(stride: usize) -> [[u128; 128]; 9] {
    let mut t = [[0u128; 128]; 9];
    let mut p = 0;
    while p < 9 {
        let mut idx = 0;
        while idx < 128 {
            let pat = line_pattern(p, idx);
            let mut bb = 0u128;
            let mut k = 0;
            while k < 9 {
                if pat >> k & 1 != 0 {
                    bb |= 1u128 << (stride * k);
                }
                k += 1;
            }
            t[p][idx] = bb;
            idx += 1;
        }
        p += 1;
    }
    t
}

/// Bits `stride * k` for k = 0..7: the inner squares of a line after the
/// shift that puts its second square on bit 0.
const fn gather_mask(stride: u32) -> u64 {
    let mut m = 0u64;
    let mut k = 0;
    while k < 7 {
        m |= 1 << (stride * k);
        k += 1;
    }
    m
}

/// The multiplier moving bit `stride * k` to bit `57 + k` (k = 0..7).
const fn gather_magic(stride: u32) -> u64 {
    let mut m = 0u64;
    let mut k = 0;
    while k < 7 {
        m |= 1 << (57 - (stride - 1) * k);
        k += 1;
    }
    m
}

/// The 7-bit index of a line's inner squares: `bits` holds them at
/// `stride * k` (other bits set in `bits` are ignored).
#[inline(always)]
const fn gather(bits: u64, stride: u32) -> usize {
    ((bits & gather_mask(stride)).wrapping_mul(gather_magic(stride)) >> 57) as usize
}

/// One diagonal through a square: its squares, the index of its first
/// (lowest) square, and the square's position on it.
#[derive(Clone, Copy)]
struct Diagonal {
    line: u128,
    start: u8,
    pos: u8,
}

/// The diagonals through each square: `[0]` runs with stride 10 (file and
/// rank grow together), `[1]` with stride 8 (file grows, rank falls).
const fn build_diagonals() -> [[Diagonal; 2]; 81] {
    let empty = Diagonal {
        line: 0,
        start: 0,
        pos: 0,
    };
    let mut t = [[empty; 2]; 81];
    let mut sq = 0;
    while sq < 81 {
        let f = (sq / 9) as i32;
        let r = (sq % 9) as i32;
        let mut d = 0;
        while d < 2 {
            // Walk back towards lower indices to the first square.
            let dr = if d == 0 { 1 } else { -1 };
            let mut k = 0;
            while f - k > 0 && r - dr * (k + 1) >= 0 && r - dr * (k + 1) < 9 {
                k += 1;
            }
            let (f0, r0) = (f - k, r - dr * k);
            let mut line = 0u128;
            let mut i = 0;
            while f0 + i < 9 && r0 + dr * i >= 0 && r0 + dr * i < 9 {
                line |= 1u128 << ((f0 + i) * 9 + r0 + dr * i);
                i += 1;
            }
            t[sq][d] = Diagonal {
                line,
                start: (f0 * 9 + r0) as u8,
                pos: k as u8,
            };
            d += 1;
        }
        sq += 1;
    }
    t
}

/// The union of the rays in `dirs` from each square (attacks on an empty grid).
const fn build_pseudo(dirs: &[usize]) -> [u128; 81] {
    let rays = build_rays();
    let mut t = [0u128; 81];
    let mut sq = 0;
    while sq < 81 {
        let mut i = 0;
        while i < dirs.len() {
            t[sq] |= rays[dirs[i]][sq];
            i += 1;
        }
        sq += 1;
    }
    t
}

static FILE_PATTERNS: [[u16; 128]; 9] = build_file_patterns();
static RANK_PATTERNS: [[u128; 128]; 9] = build_spread_patterns(9);
static DIAG10_PATTERNS: [[u128; 128]; 9] = build_spread_patterns(10);
static DIAG8_PATTERNS: [[u128; 128]; 9] = build_spread_patterns(8);
static DIAGONALS: [[Diagonal; 2]; 81] = build_diagonals();
static ROOK_PSEUDO: [u128; 81] = build_pseudo(&[0, 1, 2, 3]);
static BISHOP_PSEUDO: [u128; 81] = build_pseudo(&[4, 5, 6, 7]);

/// Attacks along the file of `sq` (both directions).
#[inline(always)]
fn file_attacks(sq: Square, occ: u128) -> u128 {
    let base = sq.index() - sq.index() % 9;
    let idx = (occ >> (base + 1)) as usize & 0x7F;
    (FILE_PATTERNS[sq.index() % 9][idx] as u128) << base
}

/// Attacks along the rank of `sq` (both directions).
#[inline(always)]
fn rank_attacks(sq: Square, occ: u128) -> u128 {
    let rank = sq.index() % 9;
    let idx = gather((occ >> (rank + 9)) as u64, 9);
    RANK_PATTERNS[sq.index() / 9][idx] << rank
}

#[inline(always)]
fn diagonal_attacks(d: &Diagonal, stride: u32, table: &[[u128; 128]; 9], occ: u128) -> u128 {
    let bits = (occ & d.line) >> (d.start as u32 + stride);
    let idx = gather(bits as u64, stride);
    (table[d.pos as usize][idx] << d.start) & d.line
}

/// Direction index for the lance of `color` (forward).
#[inline]
pub const fn forward_dir(color: Color) -> usize {
    match color {
        Color::Black => 0,
        Color::White => 1,
    }
}

/// Attacks of a lance of `color` on `sq` with occupancy `occ`.
#[inline]
pub fn lance_attacks(color: Color, sq: Square, occ: Bitboard) -> Bitboard {
    Bitboard(file_attacks(sq, occ.0) & RAYS[forward_dir(color)][sq.index()])
}

/// Rook attacks from `sq` with occupancy `occ`.
#[inline(always)]
pub fn rook_attacks(sq: Square, occ: Bitboard) -> Bitboard {
    Bitboard(file_attacks(sq, occ.0) | rank_attacks(sq, occ.0))
}

/// Bishop attacks from `sq` with occupancy `occ`.
#[inline(always)]
pub fn bishop_attacks(sq: Square, occ: Bitboard) -> Bitboard {
    let [a, b] = &DIAGONALS[sq.index()];
    Bitboard(
        diagonal_attacks(a, 10, &DIAG10_PATTERNS, occ.0)
            | diagonal_attacks(b, 8, &DIAG8_PATTERNS, occ.0),
    )
}

/// Lance attacks on an empty grid (the lance's whole forward ray).
#[inline]
pub fn lance_pseudo_attacks(color: Color, sq: Square) -> Bitboard {
    ray(forward_dir(color), sq)
}

/// Rook attacks on an empty grid (its file and rank).
#[inline]
pub fn rook_pseudo_attacks(sq: Square) -> Bitboard {
    Bitboard(ROOK_PSEUDO[sq.index()])
}

/// Bishop attacks on an empty grid (its two diagonals).
#[inline]
pub fn bishop_pseudo_attacks(sq: Square) -> Bitboard {
    Bitboard(BISHOP_PSEUDO[sq.index()])
}

/// Attacks of a piece on the full grid; the caller masks off squares outside
/// a smaller variant's board (occupancy must include a blocker wall or the
/// result be masked: rays never re-enter a corner rectangle once they leave it).
#[inline]
pub fn attacks(color: Color, role: Role, sq: Square, occ: Bitboard) -> Bitboard {
    match role {
        Role::Lance => lance_attacks(color, sq, occ),
        Role::Bishop => bishop_attacks(sq, occ),
        Role::Rook => rook_attacks(sq, occ),
        Role::Horse => bishop_attacks(sq, occ) | step_attacks(color, role, sq),
        Role::Dragon => rook_attacks(sq, occ) | step_attacks(color, role, sq),
        _ => step_attacks(color, role, sq),
    }
}

/// The direction index from `a` towards `b` if they share a line.
#[inline]
pub fn direction(a: Square, b: Square) -> Option<usize> {
    let df = b.file() as i8 - a.file() as i8;
    let dr = b.rank() as i8 - a.rank() as i8;
    if df == 0 && dr == 0 {
        None
    } else if df == 0 {
        Some(if dr < 0 { 0 } else { 1 })
    } else if dr == 0 {
        Some(if df < 0 { 2 } else { 3 })
    } else if df == dr {
        Some(if df < 0 { 4 } else { 5 })
    } else if df == -dr {
        Some(if df < 0 { 6 } else { 7 })
    } else {
        None
    }
}

/// Squares strictly between `a` and `b` on a line (empty if not aligned).
#[inline]
pub fn between(a: Square, b: Square) -> Bitboard {
    match direction(a, b) {
        Some(d) => Bitboard(RAYS[d][a.index()] & !RAYS[d][b.index()] & !(1u128 << b.index())),
        None => Bitboard::EMPTY,
    }
}
