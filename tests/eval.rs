//! Engine evaluations translated between comment dialects: floodgate CSA
//! `'** 45 -3334FU +2726FU` ⇄ KIF `*#評価値=45` / `*#読み筋=△３四歩▲２六歩`
//! ⇄ JKF/PSN comments (`#評価値=45`).

use kifu::convert::{ConvertOptions, Target};
use kifu::eval::{self, Evaluation, Score};
use kifu::read::{self, Format, ReadOptions};
use kifu::record::Record;
use kifu::Position;
use std::path::Path;

fn fixture(p: &str) -> Vec<u8> {
    std::fs::read(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("fixtures")
            .join(p),
    )
    .unwrap()
}

fn read(bytes: &[u8], format: Format) -> Record {
    let games = read::read_all(bytes, Some(format), &ReadOptions::default());
    assert_eq!(games.len(), 1);
    games.into_iter().next().unwrap().record
}

fn evals(rec: &Record) -> Vec<Option<Evaluation>> {
    let start = Position::from_setup_unchecked(&rec.start.setup);
    eval::of_line(&rec.main, &start)
}

fn utf8(_t: Target) -> ConvertOptions {
    ConvertOptions {
        encoding: Some(kifu::read::Encoding::Utf8),
        ..ConvertOptions::default()
    }
}

/// Score, PV as USI moves, nodes.
type Shape<S> = (Score, Vec<S>, Option<u64>);

fn format_of(t: Target) -> Format {
    t.format()
}

/// The floodgate fixture's evaluations: five moves evaluated, the last
/// one's PV (`%TORYO`) is not a move and stays a comment.
fn expected() -> Vec<Option<Shape<&'static str>>> {
    vec![
        Some((Score::Cp(45), vec!["3c3d", "2g2f"], None)),
        Some((Score::Cp(-12), vec!["2g2f", "8c8d"], Some(12345))),
        Some((Score::Cp(180), vec!["3a2b", "B*5e"], None)),
        Some((Score::Cp(0), vec![], None)),
        None,
        None,
    ]
}

fn shape(rec: &Record) -> Vec<Option<Shape<String>>> {
    evals(rec)
        .into_iter()
        .map(|e| {
            e.map(|e| {
                (
                    e.score,
                    e.pv.iter()
                        .map(|m| m.usi(kifu::rules::Variant::Standard).to_string())
                        .collect(),
                    e.nodes,
                )
            })
        })
        .collect()
}

fn expected_owned() -> Vec<Option<Shape<String>>> {
    expected()
        .into_iter()
        .map(|e| e.map(|(s, pv, n)| (s, pv.into_iter().map(String::from).collect(), n)))
        .collect()
}

#[test]
fn floodgate_csa_is_read() {
    let rec = read(&fixture("convert/floodgate-eval.csa"), Format::Csa);
    assert_eq!(shape(&rec), expected_owned());
}

#[test]
fn csa_to_every_dialect_and_back_keeps_score_and_pv() {
    let rec = read(&fixture("convert/floodgate-eval.csa"), Format::Csa);
    for t in [Target::Kifu, Target::Ki2u, Target::Jkf, Target::Psn] {
        let out = t.write_one(&rec, &utf8(t)).unwrap();
        // The target holds the evaluations in its own form.
        match t {
            Target::Kifu | Target::Ki2u => {
                assert!(out.text.contains("*#評価値=45"), "{t:?}\n{}", out.text);
                assert!(
                    out.text.contains("*#読み筋=△３四歩▲２六歩"),
                    "{t:?}\n{}",
                    out.text
                );
                assert!(
                    out.text.contains("*#読み筋=△同銀▲５五角"),
                    "{t:?}\n{}",
                    out.text
                );
                assert!(!out.text.contains("** 45"), "{t:?}\n{}", out.text);
            }
            _ => {
                assert!(out.text.contains("#評価値=45"), "{t:?}\n{}", out.text);
                assert!(!out.text.contains("** 45"), "{t:?}\n{}", out.text);
            }
        }
        // The one PV that is not moves stays as it was, counted as kept
        // as a comment (nothing of it is lost).
        assert!(out.text.contains("** 30 %TORYO"), "{t:?}\n{}", out.text);
        assert_eq!(out.dropped.evaluations, 0, "{t:?}");
        assert_eq!(
            out.dropped.as_comments.iter().collect::<Vec<_>>(),
            [("engine evaluation", 1)],
            "{t:?}"
        );
        let back = read(out.text.as_bytes(), format_of(t));
        assert_eq!(shape(&back), expected_owned(), "{t:?}\n{}", out.text);
        // And back to CSA: the floodgate lines again.
        let csa = Target::Csa.write_one(&back, &utf8(Target::Csa)).unwrap();
        assert!(
            csa.text.contains("\n'** 45 -3334FU +2726FU\n"),
            "{t:?}\n{}",
            csa.text
        );
        assert!(
            csa.text.contains("\n'** -12 +2726FU -8384FU #12345\n"),
            "{}",
            csa.text
        );
        assert!(
            csa.text.contains("\n'** 180 -3122GI +0055KA\n"),
            "{}",
            csa.text
        );
        assert!(csa.text.contains("\n'** 0\n"), "{}", csa.text);
        assert!(csa.text.contains("\n'** 30 %TORYO\n"), "{}", csa.text);
        assert_eq!(csa.dropped.evaluations, 0, "{t:?}");
        let again = read(csa.text.as_bytes(), Format::Csa);
        assert_eq!(shape(&again), expected_owned(), "{t:?}");
    }
}

#[test]
fn usi_counts_the_evaluations_it_drops() {
    let rec = read(&fixture("convert/floodgate-eval.csa"), Format::Csa);
    let out = Target::Usi
        .write_one(&rec, &ConvertOptions::default())
        .unwrap();
    assert!(out.dropped.comments >= 5, "{:?}", out.dropped);
}

#[test]
fn shogihome_kif_forms_reach_csa() {
    // Player form (`**評価値=`), a mate line, and a PV with origins
    // (ShogiGUI style) are read; a PV that does not replay stays text.
    let kif = "手合割：平手\n先手：Tester A\n後手：Tester B\n手数----指手---------消費時間--\n\
   1 ７六歩(77)   ( 0:01/00:00:01)\n**評価値=52\n**読み筋=△３四歩(33)▲２六歩(27)\n\
   2 ３四歩(33)   ( 0:01/00:00:01)\n*#評価値=-30\n*#読み筋=▲２二角成△同　銀\n*#ノード数=999\n\
   3 ２六歩(27)   ( 0:01/00:00:02)\n*#詰み=後手勝ち:7手\n\
   4 ８四歩(83)   ( 0:01/00:00:02)\n*#評価値=10\n*#読み筋=▲５五角打\n";
    let rec = read(kif.as_bytes(), Format::Kif);
    let got = shape(&rec);
    assert_eq!(
        got[0],
        Some((Score::Cp(52), vec!["3c3d".into(), "2g2f".into()], None))
    );
    assert_eq!(
        got[1],
        Some((
            Score::Cp(-30),
            vec!["8h2b+".into(), "3a2b".into()],
            Some(999)
        ))
    );
    assert_eq!(got[2], Some((Score::Mate(-7), vec![], None)));
    assert_eq!(got[3], None);
    // KIF to KIF: the forms stay as written.
    let kif_out = Target::Kifu.write_one(&rec, &utf8(Target::Kifu)).unwrap();
    assert!(
        kif_out
            .text
            .contains("\n**評価値=52\n**読み筋=△３四歩(33)▲２六歩(27)\n"),
        "{}",
        kif_out.text
    );
    assert_eq!(kif_out.dropped.evaluations, 0);
    let csa = Target::Csa
        .write_one(&rec, &ConvertOptions::default())
        .unwrap();
    assert!(
        csa.text.contains("\n'** 52 -3334FU +2726FU\n"),
        "{}",
        csa.text
    );
    assert!(
        csa.text.contains("\n'** -30 +8822UM -3122GI #999\n"),
        "{}",
        csa.text
    );
    assert!(csa.text.contains("\n'** -30000\n"), "{}", csa.text);
    // The bishop drop is impossible (no bishop in hand): kept as text,
    // counted so; the mate score written as -30000 is the one loss.
    assert!(csa.text.contains("\n'#読み筋=▲５五角打\n"), "{}", csa.text);
    assert_eq!(
        csa.dropped.as_comments.iter().collect::<Vec<_>>(),
        [("engine evaluation", 1)]
    );
    assert_eq!(csa.dropped.evaluations, 1, "{:?}", csa.dropped);
    assert_eq!(
        csa.dropped.note(),
        "dropped: 1 engine mate score written as ±30000; kept as comments: engine evaluation"
    );
}

/// A CSA evaluation whose PV is in USI moves (issue 27; aobazero on
/// floodgate writes `'** 130 7g7f 8c8d`, its PV starting with the move it
/// played) is read and translated like a CSA PV: the PV starts at the
/// reply. A USI PV that starts with the reply is read as it is. Only what
/// does not replay stays text, and the account says it was kept as a
/// comment, not lost.
#[test]
fn usi_pvs_of_csa_evaluations_are_translated() {
    let csa = "V2\nN+Aoba\nN-Viper\nPI\n+\n+7776FU\nT10\n'** 130 7g7f 8c8d 7i6h\n\
-8384FU\nT0\n'** 50 +2726FU -8485FU\n+2726FU\nT10\n'** 106 8d8e 2f2e\n\
-8485FU\nT1\n'** 90 2f2e 9z9z\n%TORYO\n";
    let rec = read(csa.as_bytes(), Format::Csa);
    let got = shape(&rec);
    let owned = |s: Score, pv: &[&str]| {
        Some((
            s,
            pv.iter().map(|m| m.to_string()).collect::<Vec<_>>(),
            None,
        ))
    };
    assert_eq!(got[0], owned(Score::Cp(130), &["8c8d", "7i6h"]));
    assert_eq!(got[1], owned(Score::Cp(50), &["2g2f", "8d8e"]));
    assert_eq!(got[2], owned(Score::Cp(106), &["8d8e", "2f2e"]));
    assert_eq!(got[3], None);
    let kif = Target::Kifu.write_one(&rec, &utf8(Target::Kifu)).unwrap();
    assert!(
        kif.text
            .contains("\n*#評価値=130\n*#読み筋=△８四歩▲６八銀\n"),
        "{}",
        kif.text
    );
    assert!(
        kif.text
            .contains("\n*#評価値=106\n*#読み筋=△８五歩▲２五歩\n"),
        "{}",
        kif.text
    );
    // The PV with a word that is no move stays the comment it was.
    assert!(kif.text.contains("\n*** 90 2f2e 9z9z\n"), "{}", kif.text);
    assert_eq!(kif.dropped.evaluations, 0);
    assert_eq!(kif.dropped.note(), "kept as comments: engine evaluation");
    // Back to CSA: every translated evaluation in the floodgate form.
    let back = read(kif.text.as_bytes(), Format::Kif);
    assert_eq!(shape(&back)[..3], got[..3]);
    let csa2 = Target::Csa
        .write_one(&back, &ConvertOptions::default())
        .unwrap();
    assert!(
        csa2.text.contains("\n'** 130 -8384FU +7968GI\n"),
        "{}",
        csa2.text
    );
    // `kifu stats --moves` reads the same PV.
    let opts = kifu::stats::StatsOptions {
        moves: true,
        ..Default::default()
    };
    let mut stats = kifu::stats::Stats::replay(opts, Default::default());
    let game = &read::read_all(csa.as_bytes(), Some(Format::Csa), &ReadOptions::default())[0];
    let out = kifu::read::visit_game(game, &mut stats).output;
    assert_eq!(out.moves[0].pv, "8c8d 7i6h");
    assert_eq!(out.moves[0].eval, Some(130));
}
