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

static STEPS: [[[u128; 81]; 16]; 2] = build_steps();
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

#[inline(always)]
fn slide(dir: usize, sq: Square, occ: u128) -> u128 {
    let ray = RAYS[dir][sq.index()];
    let blockers = ray & occ;
    if blockers == 0 {
        return ray;
    }
    let b = if dir & 1 == 1 {
        blockers.trailing_zeros()
    } else {
        127 - blockers.leading_zeros()
    };
    ray & !RAYS[dir][b as usize]
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
    Bitboard(slide(forward_dir(color), sq, occ.0))
}

/// Rook attacks from `sq` with occupancy `occ`.
#[inline(always)]
pub fn rook_attacks(sq: Square, occ: Bitboard) -> Bitboard {
    Bitboard(slide(0, sq, occ.0) | slide(1, sq, occ.0) | slide(2, sq, occ.0) | slide(3, sq, occ.0))
}

/// Bishop attacks from `sq` with occupancy `occ`.
#[inline(always)]
pub fn bishop_attacks(sq: Square, occ: Bitboard) -> Bitboard {
    Bitboard(slide(4, sq, occ.0) | slide(5, sq, occ.0) | slide(6, sq, occ.0) | slide(7, sq, occ.0))
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
