//! Property tests: the legal move generator (listing, counting, stopping at
//! the first move) and the single-move checker agree on random positions
//! reached by random legal games, for every variant; positions survive SFEN
//! round trips.

use kifu::{Move, Position, Role, Square, Variant};
use proptest::prelude::*;

/// Every syntactically possible move on the variant's board.
fn all_moves(v: Variant) -> Vec<Move> {
    let r = v.rules();
    let squares: Vec<Square> = Square::all().filter(|s| r.board.contains(*s)).collect();
    let mut out = Vec::new();
    for &from in &squares {
        for &to in &squares {
            if from != to {
                out.push(Move::Normal {
                    from,
                    to,
                    promote: false,
                });
                out.push(Move::Normal {
                    from,
                    to,
                    promote: true,
                });
            }
        }
    }
    for &role in r.hand_roles {
        for &to in &squares {
            out.push(Move::Drop { role, to });
        }
    }
    // Roles that can never be dropped must be refused too.
    out.push(Move::Drop {
        role: Role::King,
        to: squares[0],
    });
    out.push(Move::Drop {
        role: Role::Dragon,
        to: squares[0],
    });
    out
}

fn walk(v: Variant, seed: u64, plies: usize) -> Vec<Position> {
    let mut pos = Position::new(v);
    let mut seed = seed | 1;
    let mut seen = vec![pos];
    for _ in 0..plies {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break;
        }
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        pos.play_unchecked(moves[(seed % moves.len() as u64) as usize]);
        seen.push(pos);
    }
    seen
}

fn agree(pos: &Position, universe: &[Move]) -> Result<(), TestCaseError> {
    let legal = pos.legal_moves();
    // The counting generator (perft's last ply) and the early-stopping one
    // agree with the list; the list has no duplicates.
    prop_assert_eq!(pos.count_legal_moves(), legal.len(), "{:?}", pos);
    prop_assert_eq!(pos.has_legal_move(), !legal.is_empty(), "{:?}", pos);
    let distinct: std::collections::HashSet<Move> = legal.iter().copied().collect();
    prop_assert_eq!(
        distinct.len(),
        legal.len(),
        "{:?}: a move listed twice",
        pos
    );
    let listed: u64 = legal
        .iter()
        .map(|&m| {
            let mut next = *pos;
            next.play_unchecked(m);
            next.legal_moves().len() as u64
        })
        .sum();
    prop_assert_eq!(pos.perft(2), listed, "{:?}: perft(2)", pos);
    for &m in &legal {
        prop_assert!(
            pos.check(m).is_ok(),
            "{:?}: generated {} but check says {:?}",
            pos,
            m,
            pos.check(m)
        );
    }
    let over = pos.status() != kifu::Status::Ongoing && legal.is_empty();
    for &m in universe {
        let ok = pos.check(m).is_ok();
        if !over {
            prop_assert_eq!(
                ok,
                legal.contains(&m),
                "{:?}: move {} check={:?}",
                pos,
                m,
                pos.check(m)
            );
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn standard_generator_agrees_with_checker(seed in any::<u64>(), plies in 0usize..160) {
        let universe = all_moves(Variant::Standard);
        let positions = walk(Variant::Standard, seed, plies);
        // The last few positions of the walk: late, crowded hands, checks.
        for pos in positions.iter().rev().take(3) {
            agree(pos, &universe)?;
        }
    }

    #[test]
    fn minishogi_generator_agrees_with_checker(seed in any::<u64>(), plies in 0usize..120) {
        let universe = all_moves(Variant::Minishogi);
        for pos in walk(Variant::Minishogi, seed, plies).iter().rev().take(5) {
            agree(pos, &universe)?;
        }
    }

    #[test]
    fn doubutsu_generator_agrees_with_checker(seed in any::<u64>(), plies in 0usize..80) {
        let universe = all_moves(Variant::Doubutsu);
        for pos in walk(Variant::Doubutsu, seed, plies).iter().rev().take(5) {
            agree(pos, &universe)?;
        }
    }

    #[test]
    fn sfen_round_trip(seed in any::<u64>(), plies in 0usize..200) {
        for v in Variant::ALL {
            let pos = *walk(v, seed, plies).last().unwrap();
            let setup = kifu::rules::parse_sfen(&pos.sfen(), Some(v)).unwrap();
            let back = Position::from_setup(setup, kifu::Waivers::TSUME).unwrap();
            prop_assert_eq!(back, pos);
        }
    }
}
