//! Sliding attacks (lance, rook, bishop, and the sliding part of horse and
//! dragon) against a plain ray walk: exhaustively over every occupancy of
//! the lines through each square of the 9×9 grid, and on random occupancies
//! of each variant's board (9×9, 5×5, 3×4), where the result is masked to
//! the board as the rules engine does.

use kifu::rules::attacks::{
    attacks, bishop_attacks, bishop_pseudo_attacks, lance_attacks, lance_pseudo_attacks,
    rook_attacks, rook_pseudo_attacks,
};
use kifu::{Bitboard, Color, Role, Square, Variant};
use proptest::prelude::*;

const ROOK_DIRS: [(i8, i8); 4] = [(0, -1), (0, 1), (-1, 0), (1, 0)];
const BISHOP_DIRS: [(i8, i8); 4] = [(-1, -1), (1, 1), (-1, 1), (1, -1)];

/// Walks each ray square by square on a `files` × `ranks` board, stopping
/// after the first occupied square.
fn walk(sq: Square, occ: u128, dirs: &[(i8, i8)], files: i8, ranks: i8) -> u128 {
    let mut bb = 0u128;
    for &(df, dr) in dirs {
        let mut f = sq.file() as i8 - 1 + df;
        let mut r = sq.rank() as i8 - 1 + dr;
        while (0..files).contains(&f) && (0..ranks).contains(&r) {
            let i = f as usize * 9 + r as usize;
            bb |= 1u128 << i;
            if occ >> i & 1 != 0 {
                break;
            }
            f += df;
            r += dr;
        }
    }
    bb
}

/// Black's lance moves towards rank 1 (rank delta -1), White's towards rank 9.
fn lance_dir(color: Color) -> (i8, i8) {
    match color {
        Color::Black => (0, -1),
        Color::White => (0, 1),
    }
}

/// Every subset of `mask`, each with the bits of `noise` outside `mask`.
fn subsets(mask: u128, noise: u128) -> impl Iterator<Item = u128> {
    let outside = noise & !mask;
    let mut sub: u128 = 0;
    let mut done = false;
    std::iter::from_fn(move || {
        if done {
            return None;
        }
        let out = sub | outside;
        sub = sub.wrapping_sub(mask) & mask;
        done = sub == 0;
        Some(out)
    })
}

fn xorshift(s: &mut u64) -> u64 {
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    *s
}

fn random_board(s: &mut u64) -> u128 {
    ((xorshift(s) as u128) << 64 | xorshift(s) as u128) & ((1u128 << 81) - 1)
}

#[test]
fn sliders_match_a_ray_walk_for_every_line_occupancy() {
    let mut seed = 0x5EED_u64;
    let mut checked = 0u64;
    for sq in Square::all() {
        // The lines through `sq`, without `sq` itself: every occupancy of
        // them, with random pieces elsewhere (which must not matter).
        let noise = random_board(&mut seed);
        let rook_lines = rook_pseudo_attacks(sq).0;
        assert_eq!(
            rook_lines,
            walk(sq, 0, &ROOK_DIRS, 9, 9),
            "rook rays of {sq}"
        );
        for occ in subsets(rook_lines, noise) {
            let want = walk(sq, occ, &ROOK_DIRS, 9, 9);
            assert_eq!(
                rook_attacks(sq, Bitboard(occ)).0,
                want,
                "rook on {sq}, occupancy {occ:#x}"
            );
            checked += 1;
        }
        let bishop_lines = bishop_pseudo_attacks(sq).0;
        assert_eq!(
            bishop_lines,
            walk(sq, 0, &BISHOP_DIRS, 9, 9),
            "bishop rays of {sq}"
        );
        for occ in subsets(bishop_lines, noise) {
            let want = walk(sq, occ, &BISHOP_DIRS, 9, 9);
            assert_eq!(
                bishop_attacks(sq, Bitboard(occ)).0,
                want,
                "bishop on {sq}, occupancy {occ:#x}"
            );
            checked += 1;
        }
        for color in Color::ALL {
            let ray = lance_pseudo_attacks(color, sq).0;
            assert_eq!(ray, walk(sq, 0, &[lance_dir(color)], 9, 9));
            // The whole file, so that squares behind the lance vary too.
            let file = 0x1FFu128 << ((sq.file() as usize - 1) * 9) & !(1u128 << sq.index());
            for occ in subsets(file, noise) {
                let want = walk(sq, occ, &[lance_dir(color)], 9, 9);
                assert_eq!(
                    lance_attacks(color, sq, Bitboard(occ)).0,
                    want,
                    "{color:?} lance on {sq}, occupancy {occ:#x}"
                );
                checked += 1;
            }
        }
    }
    // 81 squares × (rook + bishop subsets + 2 × 256 lance subsets).
    assert!(checked > 2_000_000, "only {checked} occupancies checked");
}

/// A square of `variant`'s board and an occupancy of that board.
fn on_board() -> impl Strategy<Value = (Variant, Square, u128)> {
    (0usize..3, any::<u8>(), any::<u128>(), 0u32..4).prop_map(|(v, s, occ, thin)| {
        let variant = [Variant::Standard, Variant::Minishogi, Variant::Doubutsu][v];
        let board = variant.rules().board;
        let squares: Vec<Square> = board.collect();
        let sq = squares[s as usize % squares.len()];
        // Sparser boards reach farther: drop every bit with probability
        // 1 - 2^-thin by and-ing rotated copies of the random word.
        let mut bits = occ;
        for i in 0..thin {
            bits &= occ.rotate_left(17 * (i + 1));
        }
        (variant, sq, bits & board.0)
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(20_000))]

    #[test]
    fn sliders_match_a_ray_walk_on_every_board((variant, sq, occ) in on_board()) {
        let rules = variant.rules();
        let (files, ranks) = (rules.files as i8, rules.ranks as i8);
        let board = rules.board.0;
        let occ_bb = Bitboard(occ);
        prop_assert_eq!(
            rook_attacks(sq, occ_bb).0 & board,
            walk(sq, occ, &ROOK_DIRS, files, ranks),
            "rook on {} ({}), occupancy {:#x}", sq, variant, occ
        );
        prop_assert_eq!(
            bishop_attacks(sq, occ_bb).0 & board,
            walk(sq, occ, &BISHOP_DIRS, files, ranks),
            "bishop on {} ({}), occupancy {:#x}", sq, variant, occ
        );
        for color in Color::ALL {
            prop_assert_eq!(
                lance_attacks(color, sq, occ_bb).0 & board,
                walk(sq, occ, &[lance_dir(color)], files, ranks),
                "{:?} lance on {} ({}), occupancy {:#x}", color, sq, variant, occ
            );
            // Through the dispatcher, with the one-step part of horse and
            // dragon: their slides plus the orthogonal / diagonal steps.
            let dragon = walk(sq, occ, &ROOK_DIRS, files, ranks)
                | walk(sq, u128::MAX, &BISHOP_DIRS, files, ranks);
            prop_assert_eq!(attacks(color, Role::Dragon, sq, occ_bb).0 & board, dragon);
            let horse = walk(sq, occ, &BISHOP_DIRS, files, ranks)
                | walk(sq, u128::MAX, &ROOK_DIRS, files, ranks);
            prop_assert_eq!(attacks(color, Role::Horse, sq, occ_bb).0 & board, horse);
            prop_assert_eq!(
                attacks(color, Role::Rook, sq, occ_bb).0 & board,
                walk(sq, occ, &ROOK_DIRS, files, ranks)
            );
            prop_assert_eq!(
                attacks(color, Role::Bishop, sq, occ_bb).0 & board,
                walk(sq, occ, &BISHOP_DIRS, files, ranks)
            );
            prop_assert_eq!(
                attacks(color, Role::Lance, sq, occ_bb).0 & board,
                walk(sq, occ, &[lance_dir(color)], files, ranks)
            );
        }
    }
}
