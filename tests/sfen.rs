//! SFEN and USI: round trips for every variant and clear errors for
//! malformed input.

use kifu::rules::{parse_sfen, write_sfen};
use kifu::{Handicap, Move, Position, SfenError, Variant};

#[test]
fn start_positions_round_trip() {
    for v in Variant::ALL {
        let pos = Position::new(v);
        assert_eq!(pos.sfen(), v.rules().start_sfen);
        let again = Position::from_sfen(&pos.sfen()).unwrap();
        assert_eq!(again, pos);
    }
    for h in Handicap::all() {
        let setup = h.setup();
        assert_eq!(write_sfen(&setup), h.info().sfen);
        assert_eq!(Handicap::detect(&setup), Some(h));
    }
}

#[test]
fn hands_are_written_in_canonical_order() {
    // Any input order and repeated letters are accepted; output is R B G S N L P.
    let s = parse_sfen("4k4/9/9/9/9/9/9/9/4K4 b PPpSr2P10pB 1", None).unwrap();
    assert_eq!(
        write_sfen(&s),
        "4k4/9/9/9/9/9/9/9/4K4 b BS4Prp11p 1".replace("4Prp11p", "4Pr11p")
    );
}

#[test]
fn doubutsu_notation() {
    let pos = Position::new(Variant::Doubutsu);
    assert_eq!(pos.sfen(), "gle/1c1/1C1/ELG b - 1");
    // lishogi's letters read as the same position.
    let lishogi = parse_sfen("rkb/1p1/1P1/BKR b - 1", Some(Variant::Doubutsu)).unwrap();
    assert_eq!(write_sfen(&lishogi), "gle/1c1/1C1/ELG b - 1");
    let m = Move::from_usi("2c2b", Variant::Doubutsu).unwrap();
    assert!(pos.check(m).is_ok());
    let drop = Move::from_usi("C*2b", Variant::Doubutsu).unwrap();
    assert_eq!(drop.usi(Variant::Doubutsu).to_string(), "C*2b");
}

#[test]
fn usi_moves_round_trip() {
    for text in ["7g7f", "8h2b+", "P*5e", "G*1a", "1a9i+"] {
        let m = Move::from_usi(text, Variant::Standard).unwrap();
        assert_eq!(m.to_string(), text);
    }
    for bad in [
        "", "7g", "7g7", "7g7j", "0a1a", "p*5e5", "K*5e", "+P*5e", "7g7f=", "歩*5e",
    ] {
        assert!(
            Move::from_usi(bad, Variant::Standard).is_none(),
            "{bad} should not parse"
        );
    }
}

#[test]
fn malformed_sfen_is_a_clear_error() {
    let b = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL";
    let cases: Vec<(String, usize)> = vec![
        (String::new(), 1),
        (b.to_string(), 58),
        (format!("{b} x - 1"), 59),
        (format!("{}X b - 1", &b[..56]), 57),
        (format!("{} b - 1", &b[..56]), 49),
        (format!("{b} b +P 1"), 61),
        (format!("{b} b 2 1"), 61),
        (format!("{b} b - x"), 63),
        (format!("{}+KNL b - 1", &b[..54]), 56),
        ("9/9/9/9/9/9/9/9 b - 1".to_string(), 1),
    ];
    for (text, col) in &cases {
        match parse_sfen(text, None) {
            Err(SfenError::Syntax { column, message }) => {
                assert!(!message.is_empty());
                assert_eq!(column, *col, "{text}: {message}");
            }
            other => panic!("{text}: expected a syntax error, got {other:?}"),
        }
    }
}

#[test]
fn impossible_positions_are_named() {
    let check = |sfen: &str, id: &str| match Position::from_sfen(sfen) {
        Err(SfenError::Setup(errors)) => {
            assert!(errors.0.iter().any(|e| e.id() == id), "{sfen}: {errors}");
        }
        other => panic!("{sfen}: expected setup error {id}, got {other:?}"),
    };
    check("4k4/9/9/9/9/9/9/9/4K3K b - 1", "too-many-kings");
    check("P3k4/9/9/9/9/9/9/9/4K4 b - 1", "dead-piece");
    check("4k4/9/9/9/9/P8/P8/9/4K4 b - 1", "nifu");
    check("4k4/4R4/9/9/9/9/9/9/4K4 b - 1", "opponent-in-check");
    check("4k4/9/9/9/9/9/9/9/4K4 b 19P 1", "too-many-pieces");
    check("9/9/9/9/9/9/9/9/4K4 b - 1", "missing-king");
    // A tsume problem waives the missing king.
    let setup = parse_sfen("4k4/9/9/9/9/9/9/9/9 b 2r2b4g4s4n4l18p 1", None).unwrap();
    assert!(Position::from_setup(setup, kifu::Waivers::TSUME).is_ok());
}

#[test]
fn random_games_round_trip_through_sfen() {
    // A deterministic pseudo-random walk; every visited position must survive
    // SFEN write/read unchanged, and its hash must match.
    let mut seed = 0x1234_5678_9abc_def0u64;
    for v in Variant::ALL {
        for _game in 0..20 {
            let mut pos = Position::new(v);
            for _ in 0..150 {
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                let m = moves[(seed % moves.len() as u64) as usize];
                pos.play_unchecked(m);
                let back = Position::from_setup(
                    parse_sfen(&pos.sfen(), None).unwrap(),
                    kifu::Waivers::TSUME,
                )
                .unwrap_or_else(|e| panic!("{}: {e}", pos.sfen()));
                assert_eq!(back.sfen(), pos.sfen());
                assert_eq!(back.hash(), pos.hash());
            }
        }
    }
}
