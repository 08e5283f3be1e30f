//! Precomputed attack tables (built at compile time) and sliding attacks.

use crate::rules::bitboard::Bitboard;
use crate::rules::color::Color;
use crate::rules::role::Role;
use crate::rules::square::Square;

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

/// For each square, the other squares at most `files` files and `ranks`
/// ranks away.
const fn build_neighbourhoods(files: i32, ranks: i32) -> [u128; 81] {
    let mut t = [0u128; 81];
    let mut sq = 0;
    while sq < 81 {
        let (f, r) = ((sq / 9) as i32, (sq % 9) as i32);
        let mut df = -files;
        while df <= files {
            let mut dr = -ranks;
            while dr <= ranks {
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

/// The squares from which a one-step piece of either colour (a knight
/// included) may attack each square: at most one file and two ranks away.
static STEP_NEIGHBOURHOODS: [u128; 81] = build_neighbourhoods(1, 2);

/// Squares from which a one-step piece (a knight included) of either
/// colour might attack `sq`: at most one file and two ranks away.
#[inline]
pub fn step_neighbourhood(sq: Square) -> Bitboard {
    Bitboard(STEP_NEIGHBOURHOODS[sq.index()])
}

/// The squares from which a one-step piece may attack a square next to
/// each square: at most two files and three ranks away.
static NEIGHBOURHOODS: [u128; 81] = build_neighbourhoods(2, 3);

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
// Two techniques, each where it measured fastest (`cargo bench --bench
// engine -- slider_attacks`; `tests/sliders.rs` checks every slider against
// a ray walk, exhaustively over each line's occupancy):
//
// - Along a file (rook, lance) the squares are 9 consecutive bits, so the
//   file's 7 inner squares (its two end squares never block anything beyond
//   themselves) are one shift and mask away: a 7-bit index into a 2.3 KB
//   table of attack patterns by rank ("kindergarten" bitboards).
// - Along ranks and diagonals (rook, bishop) every square of a ray lies in
//   a different byte of the `u128` (the squares are 8, 9 or 10 bits apart).
//   A ray towards higher indices stops at its lowest occupied square `b`:
//   with `x = ray & occ`, `x ^ (x - 1)` is every bit up to `b`, so the
//   attacks are `ray & (x ^ (x - 1))` (all of the ray when `x` is 0). A ray
//   towards lower indices becomes one towards higher indices once the bytes
//   of the board are reversed (`swap_bytes`, two `bswap` instructions), its
//   squares being in different bytes: the same subtraction then works on the
//   swapped occupancy and a swapped ray mask. This is the "Qugiy" idea
//   (YaneuraOu) on one `u128`; it needs only the four rays of the square,
//   one 64-byte line per square.

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

/// Rays of a square for the subtraction trick: those towards higher
/// indices as they are, those towards lower indices with their bytes
/// reversed.
#[derive(Clone, Copy)]
#[repr(C, align(64))]
struct Rays<const N: usize> {
    up: [u128; N],
    down_swapped: [u128; N],
}

/// For every square, the rays in directions `up` (towards higher indices)
/// and `down` (towards lower ones).
const fn build_swapped_rays<const N: usize>(up: [usize; N], down: [usize; N]) -> [Rays<N>; 81] {
    let rays = build_rays();
    let mut t = [Rays {
        up: [0; N],
        down_swapped: [0; N],
    }; 81];
    let mut sq = 0;
    while sq < 81 {
        let mut i = 0;
        while i < N {
            t[sq].up[i] = rays[up[i]][sq];
            t[sq].down_swapped[i] = rays[down[i]][sq].swap_bytes();
            i += 1;
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
/// Rank rays: towards higher files (direction 3) and lower files (2).
static RANK_RAYS: [Rays<1>; 81] = build_swapped_rays([3], [2]);
/// Diagonal rays: up by 10 and by 8 (directions 5, 7), down by 10 and by 8
/// (4, 6).
static DIAGONAL_RAYS: [Rays<2>; 81] = build_swapped_rays([5, 7], [4, 6]);
static ROOK_PSEUDO: [u128; 81] = build_pseudo(&[0, 1, 2, 3]);
static BISHOP_PSEUDO: [u128; 81] = build_pseudo(&[4, 5, 6, 7]);

/// Attacks along a ray towards higher indices: up to and including its
/// first occupied square.
#[inline(always)]
const fn ray_up(ray: u128, occ: u128) -> u128 {
    let x = ray & occ;
    ray & (x ^ x.wrapping_sub(1))
}

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
    let r = &RANK_RAYS[sq.index()];
    ray_up(r.up[0], occ) | ray_up(r.down_swapped[0], occ.swap_bytes()).swap_bytes()
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
    let ray = RAYS[forward_dir(color)][sq.index()];
    Bitboard(match color {
        // Towards rank 1, i.e. lower indices within the file's bytes,
        // where byte swapping does not reverse the order: the file table.
        Color::Black => file_attacks(sq, occ.0) & ray,
        Color::White => ray_up(ray, occ.0),
    })
}

/// Rook attacks from `sq` with occupancy `occ`.
#[inline(always)]
pub fn rook_attacks(sq: Square, occ: Bitboard) -> Bitboard {
    Bitboard(file_attacks(sq, occ.0) | rank_attacks(sq, occ.0))
}

/// Bishop attacks from `sq` with occupancy `occ`.
#[inline(always)]
pub fn bishop_attacks(sq: Square, occ: Bitboard) -> Bitboard {
    let r = &DIAGONAL_RAYS[sq.index()];
    let occ = occ.0;
    let swapped = occ.swap_bytes();
    let down = ray_up(r.down_swapped[0], swapped) | ray_up(r.down_swapped[1], swapped);
    Bitboard(ray_up(r.up[0], occ) | ray_up(r.up[1], occ) | down.swap_bytes())
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

/// No direction: the two squares share no line (or are the same).
const NO_DIRECTION: u8 = 0xFF;

const fn build_directions() -> [[u8; 81]; 81] {
    let mut t = [[NO_DIRECTION; 81]; 81];
    let mut a = 0;
    while a < 81 {
        let mut b = 0;
        while b < 81 {
            let df = (b / 9) as i8 - (a / 9) as i8;
            let dr = (b % 9) as i8 - (a % 9) as i8;
            t[a][b] = if df == 0 && dr == 0 {
                NO_DIRECTION
            } else if df == 0 {
                if dr < 0 {
                    0
                } else {
                    1
                }
            } else if dr == 0 {
                if df < 0 {
                    2
                } else {
                    3
                }
            } else if df == dr {
                if df < 0 {
                    4
                } else {
                    5
                }
            } else if df == -dr {
                if df < 0 {
                    6
                } else {
                    7
                }
            } else {
                NO_DIRECTION
            };
            b += 1;
        }
        a += 1;
    }
    t
}

/// [`direction`] of every pair of squares.
static DIRECTIONS: [[u8; 81]; 81] = build_directions();

const fn build_between() -> [[u128; 81]; 81] {
    let rays = build_rays();
    let dirs = build_directions();
    let mut t = [[0u128; 81]; 81];
    let mut a = 0;
    while a < 81 {
        let mut b = 0;
        while b < 81 {
            let d = dirs[a][b];
            if d != NO_DIRECTION {
                let d = d as usize;
                t[a][b] = rays[d][a] & !rays[d][b] & !(1u128 << b);
            }
            b += 1;
        }
        a += 1;
    }
    t
}

/// [`between`] of every pair of squares.
static BETWEEN: [[u128; 81]; 81] = build_between();

/// Whether a piece of `color` and `role` on `from` attacks `to` with
/// occupancy `occ` on the full grid: `attacks(color, role, from,
/// occ).contains(to)`, without computing every attacked square.
#[inline]
pub fn reaches(color: Color, role: Role, from: Square, to: Square, occ: Bitboard) -> bool {
    if step_attacks(color, role, from).contains(to) {
        return true;
    }
    let d = DIRECTIONS[from.index()][to.index()];
    let along = match role {
        Role::Lance => d as usize == forward_dir(color),
        Role::Rook | Role::Dragon => d < 4,
        Role::Bishop | Role::Horse => (4..8).contains(&d),
        _ => false,
    };
    along && BETWEEN[from.index()][to.index()] & occ.0 == 0
}

/// The direction index from `a` towards `b` if they share a line.
#[inline]
pub fn direction(a: Square, b: Square) -> Option<usize> {
    match DIRECTIONS[a.index()][b.index()] {
        NO_DIRECTION => None,
        d => Some(d as usize),
    }
}

/// The direction index from `a` towards `b`, computed.
#[cfg(test)]
fn direction_computed(a: Square, b: Square) -> Option<usize> {
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
    Bitboard(BETWEEN[a.index()][b.index()])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_agree_with_the_computed_lines() {
        for a in Square::all() {
            for b in Square::all() {
                assert_eq!(direction(a, b), direction_computed(a, b), "{a} {b}");
                let expect = match direction_computed(a, b) {
                    Some(d) => RAYS[d][a.index()] & !RAYS[d][b.index()] & !(1u128 << b.index()),
                    None => 0,
                };
                assert_eq!(between(a, b).0, expect, "{a} {b}");
            }
        }
    }

    #[test]
    fn step_neighbourhood_holds_every_step_attacker() {
        for color in [Color::Black, Color::White] {
            for role in Role::ALL {
                for from in Square::all() {
                    for to in step_attacks(color, role, from) {
                        assert!(
                            step_neighbourhood(to).contains(from),
                            "{role:?} {from} {to}"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn reaches_agrees_with_attacks() {
        // Every piece on every square towards every square, over a few
        // occupancies (sparse and dense, pseudo-random).
        let mut x = 0x9E37_79B9_7F4A_7C15u64;
        let mut next = || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        for round in 0..24 {
            let a = next() as u128 | (next() as u128) << 64;
            let b = next() as u128 | (next() as u128) << 64;
            let occ = Bitboard(
                match round % 3 {
                    0 => a & b,
                    1 => a,
                    _ => a | b,
                } & crate::rules::bitboard::FULL,
            );
            for color in [Color::Black, Color::White] {
                for role in Role::ALL {
                    for from in Square::all() {
                        let att = attacks(color, role, from, occ);
                        for to in Square::all() {
                            assert_eq!(
                                reaches(color, role, from, to, occ),
                                att.contains(to),
                                "{color:?} {role:?} {from} {to}"
                            );
                        }
                    }
                }
            }
        }
    }
}
