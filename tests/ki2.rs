//! KI2 reader/writer tests: relative marks, fixtures, round trips. The
//! tests on the shared corpus are in `tests/ki2_corpus.rs`, which reports
//! them ignored without it.

pub mod common;

use common::*;
use kifu::read::Format;

#[test]
fn fixtures_ki2() {
    fixture_check("ki2", Format::Ki2);
}

use kifu::ki2::{self, relative_mark, resolve, Horizontal, RelativeMark, ResolveError, Vertical};
use kifu::rules::parse_sfen;
use kifu::{Move, Position, Square, Variant};

fn pos(sfen: &str) -> Position {
    Position::from_setup_unchecked(&parse_sfen(sfen, Some(Variant::Standard)).unwrap())
}

fn sq(s: &str) -> Square {
    Square::from_usi(s).unwrap()
}

/// (SFEN, USI move, KI2 text): the tsshogi vectors of FORMATS.md §2.2, the
/// JSA 5五金 example and the 龍 example.
const VECTORS: &[(&str, &str, &str)] = &[
    // 金 3二, 2四, 4四 (+金 in hand) → 3三
    ("4k4/6G2/9/5G1G1/9/9/9/9/4K4 b G 1", "3b3c", "▲３三金引"),
    ("4k4/6G2/9/5G1G1/9/9/9/9/4K4 b G 1", "2d3c", "▲３三金右"),
    ("4k4/6G2/9/5G1G1/9/9/9/9/4K4 b G 1", "4d3c", "▲３三金左"),
    ("4k4/6G2/9/5G1G1/9/9/9/9/4K4 b G 1", "G*3c", "▲３三金打"),
    // 銀 8二, 8四, 6四 → 7三
    ("8k/1S7/9/1S1S5/9/9/9/9/4K4 b - 1", "8b7c", "▲７三銀引不成"),
    (
        "8k/1S7/9/1S1S5/9/9/9/9/4K4 b - 1",
        "8d7c",
        "▲７三銀左上不成",
    ),
    ("8k/1S7/9/1S1S5/9/9/9/9/4K4 b - 1", "6d7c", "▲７三銀右不成"),
    // と 5六, 5八, 4七, 6七, 6八 → 5七
    (
        "4k4/9/9/9/9/4+P4/3+P1+P3/3+P+P4/K8 b - 1",
        "5f5g",
        "▲５七と引",
    ),
    (
        "4k4/9/9/9/9/4+P4/3+P1+P3/3+P+P4/K8 b - 1",
        "5h5g",
        "▲５七と直",
    ),
    (
        "4k4/9/9/9/9/4+P4/3+P1+P3/3+P+P4/K8 b - 1",
        "4g5g",
        "▲５七と右",
    ),
    (
        "4k4/9/9/9/9/4+P4/3+P1+P3/3+P+P4/K8 b - 1",
        "6g5g",
        "▲５七と左寄",
    ),
    (
        "4k4/9/9/9/9/4+P4/3+P1+P3/3+P+P4/K8 b - 1",
        "6h5g",
        "▲５七と左上",
    ),
    // 龍 8八, 9八 → 8七
    ("4k4/9/9/9/9/9/9/+R+R7/8K b - 1", "8h8g", "▲８七龍右"),
    ("4k4/9/9/9/9/9/9/+R+R7/8K b - 1", "9h8g", "▲８七龍左"),
    // 馬 8六, 9六 → 8七
    ("4k4/9/9/9/9/+B+B7/9/9/8K b - 1", "8f8g", "▲８七馬右"),
    ("4k4/9/9/9/9/+B+B7/9/9/8K b - 1", "9f8g", "▲８七馬左"),
    // white 馬 6八, 9六 → 6九
    ("8k/9/9/9/9/+b8/9/3+b5/K8 w - 1", "6h6i", "△６九馬左"),
    ("8k/9/9/9/9/+b8/9/3+b5/K8 w - 1", "9f6i", "△６九馬右"),
    // 金 6五, 6六, 5六 → 5五 (5五金寄 / 5五金左上 / 5五金直)
    ("4k4/9/9/9/3G5/3GG4/9/9/K8 b - 1", "6e5e", "▲５五金寄"),
    ("4k4/9/9/9/3G5/3GG4/9/9/K8 b - 1", "6f5e", "▲５五金左上"),
    ("4k4/9/9/9/3G5/3GG4/9/9/K8 b - 1", "5f5e", "▲５五金直"),
    // 龍 1三, 2二 both retreating to 2四 (JSA example: 2四竜右 / 2四竜左)
    ("4k4/7+R1/8+R/9/9/9/9/9/K8 b - 1", "1c2d", "▲２四龍右"),
    ("4k4/7+R1/8+R/9/9/9/9/9/K8 b - 1", "2b2d", "▲２四龍左"),
    // A drop with no board candidate: no 打.
    ("4k4/9/9/9/9/9/9/9/K8 b B 1", "B*4e", "▲４五角"),
    // Forced promotion is still written.
    ("4k4/9/9/P8/9/9/9/9/K8 b - 1", "9d9c+", "▲９三歩成"),
];

#[test]
fn relative_marks_table() {
    for &(sfen, m, want) in VECTORS {
        let p = pos(sfen);
        let mv = Move::from_usi(m, Variant::Standard).unwrap();
        let got = ki2::move_text(&p, mv, None, None, false).unwrap();
        assert_eq!(got, want, "{sfen} {m}");
        // The reader resolves it back to the same move.
        let g = read(
            format!("{}\n{}\n", sfen_to_bod(sfen), got).as_bytes(),
            kifu::read::Format::Ki2,
        );
        assert!(errors(&g).is_empty(), "{want}: {:?}", g.findings);
        assert_eq!(g.record.main.moves[0].mv, mv, "{want}");
    }
}

fn sfen_to_bod(sfen: &str) -> String {
    let mut rec = kifu::record::Record::default();
    rec.start.setup = parse_sfen(sfen, Some(Variant::Standard)).unwrap();
    rec.start.handicap = None;
    ki2::write(&rec, &Default::default()).unwrap().text
}

#[test]
fn resolver() {
    let p = pos("4k4/9/9/9/3G5/3GG4/9/9/K8 b G 1");
    let to = sq("5e");
    let amb = resolve(&p, to, kifu::Role::Gold, RelativeMark::NONE, false);
    match amb {
        Err(ResolveError::Ambiguous(v)) => assert_eq!(v.len(), 3),
        other => panic!("{other:?}"),
    }
    let left_up = RelativeMark {
        horizontal: Some(Horizontal::Left),
        vertical: Some(Vertical::Up),
        drop: false,
    };
    assert_eq!(
        resolve(&p, to, kifu::Role::Gold, left_up, false)
            .unwrap()
            .mv,
        Move::from_usi("6f5e", Variant::Standard).unwrap()
    );
    let drop = RelativeMark {
        drop: true,
        ..RelativeMark::NONE
    };
    assert!(resolve(&p, to, kifu::Role::Gold, drop, false)
        .unwrap()
        .mv
        .is_drop());
    // Implicit drop: no board silver can reach 1a.
    assert!(matches!(
        resolve(&p, sq("1a"), kifu::Role::Gold, RelativeMark::NONE, false),
        Ok(r) if r.mv.is_drop()
    ));
    assert_eq!(
        resolve(&p, sq("1a"), kifu::Role::Silver, RelativeMark::NONE, false),
        Err(ResolveError::NoPiece)
    );
    let m = Move::from_usi("5f5e", Variant::Standard).unwrap();
    assert_eq!(relative_mark(&p, m, false).to_string(), "直");
}

#[test]
fn ambiguous_move_is_a_finding_and_stops_the_line() {
    let text = format!(
        "{}▲５五金 △５二玉 ▲５四金\n",
        sfen_to_bod("4k4/9/9/9/3G5/3GG4/9/9/K8 b - 1")
    );
    let g = read(text.as_bytes(), kifu::read::Format::Ki2);
    let f = g
        .findings
        .iter()
        .find(|f| f.rule.id() == "ambiguous")
        .unwrap();
    assert_eq!(f.ply, Some(1));
    assert_eq!(f.mv.as_deref(), Some("▲５五金"));
    assert!(f.sfen.is_some());
    assert!(
        f.message.contains("６五") && f.message.contains("５六"),
        "{}",
        f.message
    );
    assert!(g.record.main.moves.is_empty());
}

#[test]
fn legal_candidates_only_option() {
    // Gold 4八 is pinned by the rook on 1八 against the king on 5八? Use a
    // pin: black king 5九, gold 5八 pinned by a white rook on 5一; gold 4八
    // free; both reach 4七? 5八→4七 leaves the file: illegal.
    let p = pos("4r4/9/9/9/9/9/9/4GG3/4K4 b - 1");
    let m = Move::from_usi("4h4g", Variant::Standard).unwrap();
    assert_eq!(
        ki2::move_text(&p, m, None, None, false).unwrap(),
        "▲４七金直"
    );
    assert_eq!(ki2::move_text(&p, m, None, None, true).unwrap(), "▲４七金");
    // The reader accepts the legal-only form with a dialect warning.
    let text = format!("{}▲４七金\n", sfen_to_bod("4r4/9/9/9/9/9/9/4GG3/4K4 b - 1"));
    let g = read(text.as_bytes(), kifu::read::Format::Ki2);
    assert!(errors(&g).is_empty(), "{:?}", g.findings);
    assert_eq!(g.record.main.moves[0].mv, m);
    assert!(g.findings.iter().any(|f| f.rule.id() == "dialect"));
}

/// KI2 → Record → KI2 is byte-identical on the second write.
#[test]
fn ki2_round_trip() {
    ki2_round_trip_of(all_fixture_records());
}

/// [`ki2_round_trip`] on `records`.
pub fn ki2_round_trip_of(records: Vec<(String, kifu::record::Record)>) {
    for (name, rec) in records {
        let a = ki2::write(&rec, &Default::default()).unwrap();
        let g = read(a.text.as_bytes(), kifu::read::Format::Ki2);
        assert!(errors(&g).is_empty(), "{name}: {:?}", errors(&g));
        let b = ki2::write(&g.record, &Default::default()).unwrap();
        assert_eq!(a.text, b.text, "{name}");
    }
}

#[test]
fn ki2_layout() {
    let text = "手合割：平手\n▲７六歩    △３四歩    ▲２二角成  △同　銀    ▲４五角    △５二金右\nまで6手で中断\n";
    let g = read(text.as_bytes(), kifu::read::Format::Ki2);
    assert!(g.findings.is_empty(), "{:?}", g.findings);
    assert_eq!(
        usi(&g.record),
        ["7g7f", "3c3d", "8h2b+", "3a2b", "B*4e", "6a5b"]
    );
    assert_eq!(
        g.record.main.terminal.as_ref().unwrap().kind,
        kifu::record::TerminalKind::Abort
    );
    let out = ki2::write(&g.record, &Default::default()).unwrap();
    assert_eq!(out.text, text);
    // Markers ☗☖ and 同 without U+3000 are read too.
    let g = read(
        "☗７六歩 ☖３四歩 ☗２二角成 ☖同銀\n".as_bytes(),
        kifu::read::Format::Ki2,
    );
    assert!(errors(&g).is_empty());
    assert_eq!(usi(&g.record)[3], "3a2b");
}

/// Two `まで` lines that contradict each other (issue 27): KI2 has no
/// terminal lines, so the first one ended the game; the second is a
/// `claim-mismatch` error, not silently dropped.
#[test]
fn contradicting_result_lines_are_a_claim_mismatch() {
    let text =
        "先手：春野\n後手：秋川\n\n▲７六歩 △３四歩\nまで2手で後手の勝ち\nまで2手で先手の勝ち\n";
    let g = read(text.as_bytes(), Format::Ki2);
    let report = kifu::validate::validate(&g, &Default::default());
    let f: Vec<_> = report
        .findings
        .iter()
        .map(|f| (f.line, f.rule.id(), f.severity))
        .collect();
    assert_eq!(f, [(6, "claim-mismatch", kifu::read::Severity::Error)]);
    assert!(!report.ok);
    assert_eq!(report.result.outcome.name(), "gote_win");
    assert!(report.established_result().is_none());
    // The same line twice is no contradiction.
    let text = "▲７六歩 △３四歩\nまで2手で後手の勝ち\nまで2手で後手の勝ち\n";
    let report = kifu::validate::validate(&read(text.as_bytes(), Format::Ki2), &Default::default());
    assert!(report.findings.is_empty(), "{:?}", report.findings);
    assert!(report.established_result().is_some());
}

/// KI2 reads board diagrams with the KIF reader's core: `先手持駒：`
/// (without `の`) is a hand line, with a `dialect` warning (issue 27).
#[test]
fn hand_lines_without_no_are_read() {
    let rows = [
        "| ・ ・ ・ ・ ・ ・ ・ ・v玉|一",
        "| ・ ・ ・ ・ ・ ・ ・ ・ ・|二",
        "| ・ ・ ・ ・ ・ ・ ・ ・ ・|三",
        "| ・ ・ ・ ・ ・ ・ ・ ・ ・|四",
        "| ・ ・ ・ ・ ・ ・ ・ ・ ・|五",
        "| ・ ・ ・ ・ ・ ・ ・ ・ ・|六",
        "| ・ ・ ・ ・ ・ ・ ・ ・ ・|七",
        "| ・ ・ ・ ・ ・ ・ ・ ・ ・|八",
        "| 玉 ・ ・ ・ ・ ・ ・ ・ ・|九",
    ];
    let text = format!(
        "後手持駒：なし\n  ９ ８ ７ ６ ５ ４ ３ ２ １\n+---------------------------+\n{}\n+---------------------------+\n先手持駒：金\n\n▲２一金打\nまで1手で先手の勝ち\n",
        rows.join("\n")
    );
    let g = read(text.as_bytes(), Format::Ki2);
    let report = kifu::validate::validate(&g, &Default::default());
    assert!(report.ok, "{:?}", report.findings);
    assert_eq!(report.final_sfen, "7Gk/9/9/9/9/9/9/9/K8 w - 2");
    assert_eq!(
        report
            .findings
            .iter()
            .filter(|f| f.rule.id() == "dialect")
            .count(),
        2
    );
}

/// KI2 `角` for a 馬 (issue 27): when no bishop reaches the square and
/// none is in hand, the one horse that reaches it makes the move, with a
/// `dialect` warning; with a bishop in hand `▲３三角` is a drop (the
/// JSA reading), and two horses that reach it leave the error. The same
/// for `飛` and a 龍.
#[test]
fn a_horse_or_dragon_written_as_bishop_or_rook_is_read_when_it_is_the_only_one() {
    let board = |rows: [&str; 9], sente_hand: &str, moves: &str| {
        format!(
            "後手の持駒：なし\n  ９ ８ ７ ６ ５ ４ ３ ２ １\n+---------------------------+\n{}\n+---------------------------+\n先手の持駒：{sente_hand}\n\n{moves}\n",
            rows.join("\n")
        )
    };
    fn rows<'a>(fifth: &'a str, ninth: &'a str) -> [&'a str; 9] {
        let empty = "| ・ ・ ・ ・ ・ ・ ・ ・ ・|";
        [
            "| ・ ・ ・ ・ ・ ・ ・v玉 ・|一",
            empty,
            empty,
            empty,
            fifth,
            empty,
            empty,
            empty,
            ninth,
        ]
    }
    let one_horse = rows(
        "| ・ ・ ・ ・ 馬 ・ ・ ・ ・|五",
        "| 玉 ・ ・ ・ ・ ・ ・ ・ ・|九",
    );
    let run = |text: String| {
        let g = read(text.as_bytes(), Format::Ki2);
        kifu::validate::validate(&g, &Default::default())
    };
    let r = run(board(one_horse, "なし", "▲３三角"));
    assert!(r.ok, "{:?}", r.findings);
    assert_eq!(r.final_sfen, "7k1/9/6+B2/9/9/9/9/9/K8 w - 2");
    assert_eq!(r.findings.len(), 1);
    assert_eq!(r.findings[0].rule.id(), "dialect");
    // A bishop in hand: a drop, as the notation says.
    let r = run(board(one_horse, "角", "▲３三角"));
    assert!(r.findings.is_empty(), "{:?}", r.findings);
    assert_eq!(r.final_sfen, "7k1/9/6B2/9/4+B4/9/9/9/K8 w - 2");
    // Two horses reach 3三: no reading is the only one.
    let two = rows(
        "| ・ ・ ・ ・ 馬 ・ ・ ・ 馬|五",
        "| 玉 ・ ・ ・ ・ ・ ・ ・ ・|九",
    );
    let r = run(board(two, "なし", "▲３三角"));
    assert_eq!(r.findings[0].rule.id(), "no-piece", "{:?}", r.findings);
    // A dragon written `飛`.
    let dragon = rows(
        "| ・ ・ ・ ・ 龍 ・ ・ ・ ・|五",
        "| 玉 ・ ・ ・ ・ ・ ・ ・ ・|九",
    );
    let r = run(board(dragon, "なし", "▲５一飛"));
    assert!(r.ok, "{:?}", r.findings);
    assert_eq!(r.final_sfen, "4+R2k1/9/9/9/9/9/9/9/K8 w - 2");
}

/// Every promoted piece named by its base name in KI2, one policy (issue
/// 36): `▲２二歩` for a と is read as the と's move, with a `dialect`
/// warning, only when no pawn reaches 2二, none is in hand and exactly
/// one と does (by its movement, whatever the mark picks); else a pawn
/// that reaches it moves, a pawn in hand is dropped, and two と leave the
/// error. The same for 成香, 成桂 and 成銀.
#[test]
fn every_promoted_piece_written_by_its_base_name_is_read_when_it_is_the_only_one() {
    let board = |fourth: &str, third: &str, sente_hand: &str, moves: &str| {
        let empty = "| ・ ・ ・ ・ ・ ・ ・ ・ ・|";
        format!(
            "後手の持駒：なし\n  ９ ８ ７ ６ ５ ４ ３ ２ １\n+---------------------------+\n| ・ ・ ・ ・v玉 ・ ・ ・ ・|一\n{empty}二\n{third}三\n{fourth}四\n{empty}五\n{empty}六\n{empty}七\n{empty}八\n| 玉 ・ ・ ・ ・ ・ ・ ・ ・|九\n+---------------------------+\n先手の持駒：{sente_hand}\n\n{moves}\n"
        )
    };
    let run = |text: String| {
        let g = read(text.as_bytes(), Format::Ki2);
        kifu::validate::validate(&g, &Default::default())
    };
    let empty = "| ・ ・ ・ ・ ・ ・ ・ ・ ・|";
    let one_tokin = "| ・ ・ ・ ・ ・ ・ ・ と ・|";
    // The case: a と on 2三 (no pawn anywhere) moves to 2二.
    let r = run(board(empty, one_tokin, "なし", "▲２二歩"));
    assert!(r.ok, "{:?}", r.findings);
    assert_eq!(r.final_sfen, "4k4/7+P1/9/9/9/9/9/9/K8 w - 2");
    assert_eq!(r.findings.len(), 1, "{:?}", r.findings);
    assert_eq!(r.findings[0].rule.id(), "dialect");
    assert!(r.findings[0].message.contains("names a pawn"));
    // A pawn in hand: a drop, as the notation says.
    let r = run(board(empty, one_tokin, "歩", "▲２二歩"));
    assert!(r.findings.is_empty(), "{:?}", r.findings);
    assert_eq!(r.final_sfen, "4k4/7P1/7+P1/9/9/9/9/9/K8 w - 2");
    // A pawn on 1三 beside the と reaches 1二: `▲１二歩` is its move, not
    // the と's.
    let both = "| ・ ・ ・ ・ ・ ・ ・ と 歩|";
    let r = run(board(empty, both, "なし", "▲１二歩"));
    assert!(r.findings.is_empty(), "{:?}", r.findings);
    assert_eq!(r.final_sfen, "4k4/8P/7+P1/9/9/9/9/9/K8 w - 2");
    // Two と reach 2二 (from 2三 and 1三): no reading is the only one.
    let two = "| ・ ・ ・ ・ ・ ・ ・ と と|";
    let r = run(board(empty, two, "なし", "▲２二歩"));
    assert_eq!(r.findings[0].rule.id(), "no-piece", "{:?}", r.findings);
    // ... unless the mark picks one by movement (`右`: the one on 1三).
    let r = run(board(empty, two, "なし", "▲２二歩右"));
    assert!(r.ok, "{:?}", r.findings);
    assert_eq!(r.final_sfen, "4k4/7+P1/7+P1/9/9/9/9/9/K8 w - 2");
    // `成` written for a と: no move.
    let r = run(board(empty, one_tokin, "なし", "▲２二歩成"));
    assert_eq!(r.findings[0].rule.id(), "no-piece", "{:?}", r.findings);
    // 成香, 成桂, 成銀 written by their base names, each stepping back.
    for (piece, mv, sfen) in [
        ("杏", "▲２四香", "4k4/9/9/7+L1/9/9/9/9/K8 w - 2"),
        ("圭", "▲２四桂", "4k4/9/9/7+N1/9/9/9/9/K8 w - 2"),
        ("全", "▲２四銀", "4k4/9/9/7+S1/9/9/9/9/K8 w - 2"),
    ] {
        let third = format!("| ・ ・ ・ ・ ・ ・ ・ {piece} ・|");
        let r = run(board(empty, &third, "なし", mv));
        assert!(r.ok, "{mv}: {:?}", r.findings);
        assert_eq!(r.final_sfen, sfen, "{mv}");
        assert_eq!(r.findings.len(), 1, "{mv}: {:?}", r.findings);
        assert_eq!(r.findings[0].rule.id(), "dialect", "{mv}");
    }
}
