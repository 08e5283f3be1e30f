//! KIF reader/writer tests: fixtures with independent expectations and
//! round trips. The tests on the shared corpus (the whole corpus, the peer
//! JKF comparison, the real records' expectations and round trips) are in
//! `tests/kif_corpus.rs`, which reports them ignored without it.

pub mod common;

use common::*;
use kifu::kif::{self, WriteOptions};
use kifu::read::decode::encode;
use kifu::read::{Encoding, Format, Severity};
use kifu::record::{Record, TerminalKind};

#[test]
fn fixtures_kif() {
    fixture_check("kif", Format::Kif);
}

/// KIF → Record → KIF: the second write is byte-identical to the first,
/// and the re-read record has the same moves, comments and variations.
#[test]
fn kif_round_trip() {
    kif_round_trip_of(all_fixture_records());
}

/// [`kif_round_trip`] on `records`.
pub fn kif_round_trip_of(records: Vec<(String, Record)>) {
    for (name, rec) in records {
        let a = kif::write(&rec, &WriteOptions::default()).unwrap();
        let g = read(a.text.as_bytes(), Format::Kif);
        assert!(
            errors(&g).is_empty(),
            "{name}: {:?}\n{}",
            errors(&g),
            a.text
        );
        assert_eq!(
            tree(&g.record),
            tree(&rec),
            "{name}: moves changed\n{}",
            a.text
        );
        assert_eq!(
            g.record.start.setup, rec.start.setup,
            "{name}: start changed"
        );
        assert_eq!(
            g.record.comment_count(),
            rec.comment_count() + a.dropped.terminals.count(),
            "{name}: comments changed"
        );
        assert_eq!(
            g.record.header.entries.len() + a.dropped.headers.count(),
            rec.header.entries.len(),
            "{name}: header count"
        );
        let b = kif::write(&g.record, &WriteOptions::default()).unwrap();
        assert_eq!(a.text, b.text, "{name}: second write differs");
    }
}

/// Shift_JIS output stays byte-exact through read and write.
#[test]
fn kif_shift_jis_round_trip() {
    kif_shift_jis_round_trip_of(all_fixture_records());
}

/// [`kif_shift_jis_round_trip`] on `records`.
pub fn kif_shift_jis_round_trip_of(records: Vec<(String, Record)>) {
    let opts = WriteOptions {
        encoding: Encoding::ShiftJis,
        crlf: true,
    };
    for (name, rec) in records {
        let a = kif::write(&rec, &opts).unwrap();
        let Ok(bytes) = encode(&a.text, Encoding::ShiftJis) else {
            continue; // a name CP932 cannot hold
        };
        let g = read(&bytes, Format::Kif);
        assert!(errors(&g).is_empty(), "{name}: {:?}", errors(&g));
        assert!(
            !g.findings.iter().any(|f| f.message.contains("declares")),
            "{name}: encoding not detected"
        );
        let b = encode(
            &kif::write(&g.record, &opts).unwrap().text,
            Encoding::ShiftJis,
        )
        .unwrap();
        assert_eq!(bytes, b, "{name}: Shift_JIS bytes differ");
    }
}

/// KIF → KI2 → KIF keeps the moves of every branch.
#[test]
fn kif_ki2_kif_keeps_moves() {
    kif_ki2_kif_keeps_moves_of(all_fixture_records());
}

/// [`kif_ki2_kif_keeps_moves`] on `records`.
pub fn kif_ki2_kif_keeps_moves_of(records: Vec<(String, Record)>) {
    for (name, rec) in records {
        let ki2 = kifu::ki2::write(&rec, &Default::default()).unwrap();
        let g = read(ki2.text.as_bytes(), Format::Ki2);
        assert!(
            errors(&g).is_empty(),
            "{name}: {:?}\n{}",
            errors(&g),
            ki2.text
        );
        let strip = |t: String| {
            t.split(' ')
                .filter(|w| !w.starts_with('#') && !w.starts_with(")#"))
                .collect::<Vec<_>>()
                .join(" ")
        };
        assert_eq!(
            strip(tree(&g.record)),
            strip(tree(&rec)),
            "{name}:\n{}",
            ki2.text
        );
        let back = kif::write(&g.record, &WriteOptions::default()).unwrap();
        let g2 = read(back.text.as_bytes(), Format::Kif);
        assert_eq!(strip(tree(&g2.record)), strip(tree(&rec)), "{name}");
    }
}

#[test]
fn layout_matches_kifu_for_windows() {
    let text = "手合割：平手\n手数----指手---------消費時間--\n   1 ７六歩(77)   ( 0:02/00:00:02)+\n   2 ３四歩(33)   ( 0:01/00:00:01)\n   3 ２二角成(88) ( 0:03/00:00:05)\n*角交換\n&栞\n   4 同　銀(31)   ( 1:10/00:01:11)\n   5 投了         ( 0:00/00:00:05)\nまで4手で後手の勝ち\n\n変化：1手\n   1 ２六歩(27)   ( 0:05/00:00:05)\n";
    let g = read(text.as_bytes(), Format::Kif);
    assert!(g.findings.is_empty(), "{:?}", g.findings);
    let out = kif::write(&g.record, &WriteOptions::default()).unwrap();
    let want = format!("#KIF version=2.0 encoding=UTF-8\n{text}");
    assert_eq!(out.text, want);
    let n = &g.record.main.moves[3];
    assert_eq!(n.time.spent_ms, Some(70_000));
    assert_eq!(n.time.total_ms, Some(71_000));
    assert_eq!(n.written.as_str(), "同　銀(31)");
    assert_eq!(g.record.main.moves[2].comments, vec!["角交換", "&栞"]);
    assert_eq!(
        g.record.main.terminal.as_ref().unwrap().kind,
        TerminalKind::Resign
    );
    let claim = g.record.claim.as_ref().unwrap();
    assert_eq!(claim.plies, Some(4));
}

#[test]
fn handicap_colour_comes_from_the_position() {
    let text =
        "手合割：香落ち\n下手：A\n上手：B\n手数----指手--\n   1 ３四歩(33)\n   2 ７六歩(77)\n";
    let g = read(text.as_bytes(), Format::Kif);
    assert!(errors(&g).is_empty(), "{:?}", g.findings);
    assert_eq!(usi(&g.record), ["3c3d", "7g7f"]);
    assert_eq!(
        g.record.header.get(&kifu::record::HeaderKey::Sente),
        Some("A")
    );
    let out = kif::write(&g.record, &WriteOptions::default()).unwrap();
    assert!(
        out.text.contains("手合割：香落ち\n下手：A\n上手：B\n"),
        "{}",
        out.text
    );
}

#[test]
fn board_wins_over_handicap_and_unknown_names_need_a_board() {
    let text = "手合割：平手\n後手の持駒：なし\n  ９ ８ ７ ６ ５ ４ ３ ２ １\n+---------------------------+\n| ・ ・ ・ ・ ・ ・ ・ ・v玉|一\n| ・ ・ ・ ・ ・ ・ ・ ・ ・|二\n| ・ ・ ・ ・ ・ ・ ・ 金 ・|三\n| ・ ・ ・ ・ ・ ・ ・ ・ ・|四\n| ・ ・ ・ ・ ・ ・ ・ ・ ・|五\n| ・ ・ ・ ・ ・ ・ ・ ・ ・|六\n| ・ ・ ・ ・ ・ ・ ・ ・ ・|七\n| ・ ・ ・ ・ ・ ・ ・ ・ ・|八\n| ・ ・ ・ ・ ・ ・ ・ ・ 玉|九\n+---------------------------+\n先手の持駒：金　\n手数----指手--\n   1 １二金打\n   2 詰み\nまで1手で詰\n";
    let g = read(text.as_bytes(), Format::Kif);
    assert!(errors(&g).is_empty(), "{:?}", g.findings);
    assert_eq!(g.record.start.handicap, None);
    assert_eq!(usi(&g.record), ["G*1b"]);
    let claim = g.record.claim.as_ref().unwrap();
    assert_eq!(claim.outcome, kifu::record::Outcome::SenteWin);
    let g = read("手合割：謎の手合\n手数----指手--\n".as_bytes(), Format::Kif);
    assert!(g.findings.iter().any(|f| f.rule.id() == "setup"));
    assert_eq!(
        g.record
            .header
            .get(&kifu::record::HeaderKey::Other("手合割".into())),
        Some("謎の手合")
    );
}

#[test]
fn minishogi_by_name_and_by_board() {
    let g = read(
        "手合割：5五将棋\n手数----指手--\n   1 ４四歩(45)\n".as_bytes(),
        Format::Kif,
    );
    assert!(errors(&g).is_empty(), "{:?}", g.findings);
    assert_eq!(g.record.variant(), kifu::Variant::Minishogi);
    let out = kif::write(&g.record, &WriteOptions::default()).unwrap();
    let g2 = read(out.text.as_bytes(), Format::Kif);
    assert_eq!(g2.record.start.setup, g.record.start.setup);
    // A 5×5 diagram.
    let mut rec = g.record.clone();
    rec.start.setup.turn = kifu::Color::White;
    rec.main.moves.clear();
    let out = kif::write(&rec, &WriteOptions::default()).unwrap();
    assert!(out.text.contains("+---------------+"), "{}", out.text);
    let g3 = read(out.text.as_bytes(), Format::Kif);
    assert_eq!(g3.record.start.setup, rec.start.setup);
}

#[test]
fn dialects_are_warnings() {
    let text = "#KIF version=2.0 encoding=UTF-8\n手数----指手---------消費時間--\n1 ▲７六歩(77) (00:01 / 00:00:01)\n2 △３四歩(33) ( 0:5/)\n3 ２二角不成(88)\n4 同 銀(31)\n5 ８八玉(59)\n";
    let g = read(text.as_bytes(), Format::Kif);
    assert!(errors(&g).is_empty(), "{:?}", g.findings);
    assert_eq!(usi(&g.record), ["7g7f", "3c3d", "8h2b", "3a2b", "5i8h"]);
    assert!(g.findings.iter().all(|f| f.severity == Severity::Warning));
    assert!(g.findings.iter().any(|f| f.message.contains("不成")));
    assert_eq!(g.record.main.moves[1].time.spent_ms, Some(5000));
    assert_eq!(g.record.main.moves[1].time.total_ms, None);
}

#[test]
fn syntax_errors_have_columns() {
    let g = read("手数----指手--\n   1 ７六犬(77)\n".as_bytes(), Format::Kif);
    let f = g.findings.iter().find(|f| f.rule.id() == "syntax").unwrap();
    assert_eq!((f.line, f.column), (2, 8));
    let g = read(
        b"\xef\xbb\xbf\xe6\x89\x8b\xe6\x95\xb0----\n   1 \x83\x56(77)\n",
        Format::Kif,
    );
    let f = g
        .findings
        .iter()
        .find(|f| f.rule.id() == "encoding")
        .unwrap();
    assert_eq!((f.line, f.column), (2, 6));
    let g = read(b"", Format::Kif);
    assert_eq!(g.findings[0].rule.id(), "empty");
}

#[test]
fn terminal_words() {
    for (w, k) in [
        ("投了", TerminalKind::Resign),
        ("中断", TerminalKind::Abort),
        ("千日手", TerminalKind::Repetition),
        ("持将棋", TerminalKind::Impasse),
        ("切れ負け", TerminalKind::TimeUp),
        ("時間切れ", TerminalKind::TimeUp),
        ("反則勝ち", TerminalKind::IllegalWin),
        ("反則負け", TerminalKind::IllegalLoss),
        ("入玉勝ち", TerminalKind::DeclarationWin),
        ("勝ち宣言", TerminalKind::DeclarationWin),
        ("詰み", TerminalKind::Checkmate),
        ("詰", TerminalKind::Checkmate),
        ("不詰", TerminalKind::NoMate),
        ("封じ手", TerminalKind::Sealed),
        ("最大手数", TerminalKind::MaxMoves),
        ("トライ", TerminalKind::Try),
        ("不戦勝", TerminalKind::DefaultWin),
        ("不戦敗", TerminalKind::DefaultLoss),
    ] {
        let text = format!("手数----指手--\n   1 ７六歩(77)\n   2 {w}\n");
        let g = read(text.as_bytes(), Format::Kif);
        assert!(g.findings.is_empty(), "{w}: {:?}", g.findings);
        assert_eq!(g.record.main.terminal.as_ref().unwrap().kind, k, "{w}");
        let out = kif::write(&g.record, &WriteOptions::default()).unwrap();
        assert!(out.dropped.is_empty(), "{w}");
        let g2 = read(out.text.as_bytes(), Format::Kif);
        assert_eq!(g2.record.main.terminal.as_ref().unwrap().kind, k, "{w}");
        assert!(
            g2.findings.is_empty(),
            "{w}: {:?}\n{}",
            g2.findings,
            out.text
        );
    }
}

/// Two `まで` lines of the main line that contradict each other (issue
/// 27): a `claim-mismatch` error at the second, which names the first;
/// the game is invalid and its result is not established. The same line
/// twice, or one that only says more, is no contradiction.
#[test]
fn contradicting_result_lines_are_a_claim_mismatch() {
    let game = |tail: &str| {
        format!("先手：春野\n後手：秋川\n手数----指手--\n   1 ７六歩(77)\n   2 ３四歩(33)\n   3 投了\n{tail}")
    };
    let g = read(
        game("まで2手で後手の勝ち\nまで2手で先手の勝ち\n").as_bytes(),
        Format::Kif,
    );
    let f = g
        .findings
        .iter()
        .find(|f| f.rule.id() == "claim-mismatch")
        .unwrap();
    assert_eq!((f.line, f.column, f.severity), (8, 1, Severity::Error));
    assert!(
        f.message.contains("`まで2手で後手の勝ち` (line 7)"),
        "{}",
        f.message
    );
    let report = kifu::validate::validate(&g, &Default::default());
    assert!(!report.ok);
    assert!(report.established_result().is_none());
    // A different count is a contradiction too.
    let g = read(
        game("まで2手で後手の勝ち\nまで3手で後手の勝ち\n").as_bytes(),
        Format::Kif,
    );
    assert_eq!(errors(&g).len(), 1, "{:?}", g.findings);
    // The same line twice: nothing; saying more: a dialect warning.
    let g = read(
        game("まで2手で後手の勝ち\nまで2手で後手の勝ち\n").as_bytes(),
        Format::Kif,
    );
    assert!(g.findings.is_empty(), "{:?}", g.findings);
    let g = read(
        game("まで2手で後手の勝ち\nまで2手で時間切れにより後手の勝ち\n").as_bytes(),
        Format::Kif,
    );
    assert_eq!(g.findings.len(), 1);
    assert_eq!(g.findings[0].rule.id(), "dialect");
    let report = kifu::validate::validate(&g, &Default::default());
    assert!(report.ok && report.established_result().is_some());
    // `--lenient-claims` makes it a warning, as any false claim.
    let g = read(
        game("まで2手で後手の勝ち\nまで2手で先手の勝ち\n").as_bytes(),
        Format::Kif,
    );
    let lenient = kifu::validate::ValidateOptions {
        lenient_claims: true,
        ..Default::default()
    };
    let report = kifu::validate::validate(&g, &lenient);
    assert!(report.ok);
    assert!(report.claim_false);
}

/// A board with a king each, `top` before the frame and `bottom` after it.
fn board_kif(top: &str, inside: &str, bottom: &str, moves: &str) -> String {
    let mut rows = vec![
        "| ・ ・ ・ ・ ・ ・ ・ ・v玉|一".to_string(),
        "| ・ ・ ・ ・ ・ ・ ・ ・ ・|二".to_string(),
        "| ・ ・ ・ ・ ・ ・ ・ ・ ・|三".to_string(),
        "| ・ ・ ・ ・ ・ ・ ・ ・ ・|四".to_string(),
        "| ・ ・ ・ ・ ・ ・ ・ ・ ・|五".to_string(),
        "| ・ ・ ・ ・ ・ ・ ・ ・ ・|六".to_string(),
        "| ・ ・ ・ ・ ・ ・ ・ ・ ・|七".to_string(),
        "| ・ ・ ・ ・ ・ ・ ・ ・ ・|八".to_string(),
        "| 玉 ・ ・ ・ ・ ・ ・ ・ ・|九".to_string(),
    ];
    if !inside.is_empty() {
        rows.insert(4, inside.to_string());
    }
    format!(
        "{top}\n  ９ ８ ７ ６ ５ ４ ３ ２ １\n+---------------------------+\n{}\n+---------------------------+\n{bottom}\n手数----指手--\n{moves}",
        rows.join("\n")
    )
}

/// Hand lines written without `の` (`先手持駒：`) or with `持ち駒` are
/// hand lines (issue 27), with a `dialect` warning; they were taken for
/// headers, so the hands were lost and the position invented.
#[test]
fn hand_lines_without_no_are_read_with_a_warning() {
    for (top, bottom, sfen) in [
        (
            "後手持駒：歩二",
            "先手持駒：金　銀",
            "8k/9/9/9/9/9/9/9/K8 b GS2p 1",
        ),
        ("上手持駒：歩", "下手持駒：飛", "8k/9/9/9/9/9/9/9/K8 b Rp 1"),
        (
            "後手の持ち駒：金",
            "先手の持ち駒：角",
            "8k/9/9/9/9/9/9/9/K8 b Bg 1",
        ),
        (
            "後手の持駒：歩二",
            "先手持駒:金　銀",
            "8k/9/9/9/9/9/9/9/K8 b GS2p 1",
        ),
    ] {
        let g = read(board_kif(top, "", bottom, "").as_bytes(), Format::Kif);
        assert!(errors(&g).is_empty(), "{:?}", g.findings);
        let got = kifu::Position::from_setup_unchecked(&g.record.start.setup).sfen();
        assert_eq!(got, sfen, "{top} {bottom}");
        let warned: Vec<u32> = g
            .findings
            .iter()
            .filter(|f| f.rule.id() == "dialect" && f.message.contains("is not the spec's"))
            .map(|f| f.line)
            .collect();
        let want = usize::from(!top.contains("の持駒")) + usize::from(!bottom.contains("の持駒"));
        assert_eq!(warned.len(), want, "{top} {bottom}: {:?}", g.findings);
        assert!(g.record.header.entries.is_empty(), "{:?}", g.record.header);
    }
    // A drop from the hand only `先手持駒：` gives is legal, and the
    // result the record states stands.
    let text = board_kif(
        "後手持駒：なし",
        "",
        "先手持駒：金",
        "   1 ２一金打\n   2 投了\nまで1手で先手の勝ち\n",
    );
    let g = read(text.as_bytes(), Format::Kif);
    let report = kifu::validate::validate(&g, &Default::default());
    assert!(report.ok, "{:?}", report.findings);
    assert_eq!(report.result.outcome.name(), "sente_win");
}

/// No line inside a board diagram is silently ignored (issue 27): inside
/// the frame only rows belong (anything else is a `syntax` error, never a
/// header), a line that names a hand but is no hand line kifu reads is a
/// `syntax` error, a missing bottom frame line is a `dialect` warning,
/// and a hand or turn line after the moves began is a `dialect` warning.
#[test]
fn no_line_of_a_board_diagram_is_silently_ignored() {
    let g = read(
        board_kif("後手の持駒：なし", "備考：x", "先手の持駒：なし", "").as_bytes(),
        Format::Kif,
    );
    let e = errors(&g);
    assert!(
        e.iter()
            .any(|e| e.starts_with("8:1 syntax expected a board row")),
        "{e:?}"
    );
    assert!(g.record.header.entries.is_empty(), "{:?}", g.record.header);
    for line in ["持駒：金", "▲持駒：金", "先手の手番持駒：金"] {
        let g = read(
            board_kif("後手の持駒：なし", "", line, "").as_bytes(),
            Format::Kif,
        );
        let e = errors(&g);
        assert!(
            e.iter().any(|e| e.contains("syntax expected a hand line")),
            "{line}: {e:?}"
        );
    }
    let text = board_kif("後手の持駒：なし", "", "先手の持駒：なし", "").replacen(
        "+---------------------------+\n先手",
        "先手",
        1,
    );
    let g = read(text.as_bytes(), Format::Kif);
    assert!(errors(&g).is_empty(), "{:?}", g.findings);
    assert!(g
        .findings
        .iter()
        .any(|f| f.message.contains("without its frame's bottom line")));
    let text = board_kif(
        "後手の持駒：なし",
        "",
        "先手の持駒：なし",
        "   1 ９八玉(99)\n先手の持駒：金\n後手番\n",
    );
    let g = read(text.as_bytes(), Format::Kif);
    assert!(errors(&g).is_empty(), "{:?}", g.findings);
    let late: Vec<&str> = g
        .findings
        .iter()
        .filter(|f| f.message.contains("after the moves began"))
        .map(|f| f.rule.id())
        .collect();
    assert_eq!(late, ["dialect", "dialect"]);
}

/// A promoted bishop's move written `角` with its origin (issue 27: an
/// app writes a 馬's move so): the origin holds the only piece that can
/// make it, so it is read as the horse's move with a `dialect` warning,
/// not stopped as a `piece-mismatch`. The same for `飛` and a 龍. When the
/// horse cannot make the move, or `成` is written, it stays an error.
#[test]
fn a_horse_or_dragon_written_as_bishop_or_rook_is_read_with_a_warning() {
    let opening = "手合割：平手\n手数----指手--\n   1 ７六歩(77)\n   2 ３四歩(33)\n   3 ２二角成(88)\n   4 ４二飛(82)\n";
    let g = read(
        format!("{opening}   5 ３三角(22)\n   6 同　桂(21)\n").as_bytes(),
        Format::Kif,
    );
    let report = kifu::validate::validate(&g, &Default::default());
    assert!(report.ok, "{:?}", report.findings);
    assert_eq!(usi(&g.record)[4..], ["2b3c", "2a3c"]);
    let w: Vec<(u32, &str)> = report
        .findings
        .iter()
        .map(|f| (f.line, f.rule.id()))
        .collect();
    assert_eq!(w, [(7, "dialect")]);
    assert!(
        report.findings[0].message.contains("names a bishop"),
        "{}",
        report.findings[0].message
    );
    // Not a move the horse can make (2二 to 5五 is blocked by nothing,
    // but 2二 to 2五 is not a horse's move): the error stays.
    let g = read(
        format!("{opening}   5 ２五角(22)\n").as_bytes(),
        Format::Kif,
    );
    let report = kifu::validate::validate(&g, &Default::default());
    assert_eq!(
        report.findings[0].rule.id(),
        "piece-mismatch",
        "{:?}",
        report.findings
    );
    // `成` written: not the horse's move either.
    let g = read(
        format!("{opening}   5 ３三角成(22)\n").as_bytes(),
        Format::Kif,
    );
    let report = kifu::validate::validate(&g, &Default::default());
    assert!(!report.ok, "{:?}", report.findings);
    // A dragon written `飛`.
    let bod = "後手の持駒：なし\n  ９ ８ ７ ６ ５ ４ ３ ２ １\n+---------------------------+\n| ・ ・ ・ ・ ・ ・ ・ ・v玉|一\n| ・ ・ ・ ・ ・ ・ ・ ・ ・|二\n| ・ ・ ・ ・ ・ ・ ・ ・ ・|三\n| ・ ・ ・ ・ ・ ・ ・ ・ ・|四\n| ・ ・ ・ ・ 龍 ・ ・ ・ ・|五\n| ・ ・ ・ ・ ・ ・ ・ ・ ・|六\n| ・ ・ ・ ・ ・ ・ ・ ・ ・|七\n| ・ ・ ・ ・ ・ ・ ・ ・ ・|八\n| 玉 ・ ・ ・ ・ ・ ・ ・ ・|九\n+---------------------------+\n先手の持駒：なし\n手数----指手--\n";
    let g = read(format!("{bod}   1 ４四飛(55)\n").as_bytes(), Format::Kif);
    let report = kifu::validate::validate(&g, &Default::default());
    assert!(report.ok, "{:?}", report.findings);
    assert_eq!(usi(&g.record), ["5e4d"]);
    assert_eq!(report.findings.len(), 1);
    assert!(report.findings[0].message.contains("names a rook"));
}

/// Every promoted piece named by its base name, one policy (issue 36):
/// `歩` for a と (`２二歩(23)` with a と on 2三), `香` `桂` `銀` for 成香
/// 成桂 成銀, as for `角` and `飛`: the origin holds the only piece that
/// can make the move, so it is read as that piece's move with a `dialect`
/// warning; a move the promoted piece cannot make, or `成` written, stays
/// an error.
#[test]
fn every_promoted_piece_written_by_its_base_name_is_read_with_a_warning() {
    let issue = "手合割：平手\n手数----指手--\n   1 ２六歩(27)\n   2 ８四歩(83)\n   3 ２五歩(26)\n   4 ８五歩(84)\n   5 ２四歩(25)\n   6 ８六歩(85)\n   7 ２三歩成(24)\n   8 ８七歩成(86)\n";
    let g = read(format!("{issue}   9 ２二歩(23)\n").as_bytes(), Format::Kif);
    let report = kifu::validate::validate(&g, &Default::default());
    assert!(report.ok, "{:?}", report.findings);
    assert_eq!(usi(&g.record)[8..], ["2c2b"]);
    let w: Vec<(u32, &str)> = report
        .findings
        .iter()
        .map(|f| (f.line, f.rule.id()))
        .collect();
    assert_eq!(w, [(11, "dialect")]);
    assert!(
        report.findings[0].message.contains("names a pawn"),
        "{}",
        report.findings[0].message
    );
    // A と moves sideways, which a pawn cannot, but the と can.
    let g = read(format!("{issue}   9 ３三歩(23)\n").as_bytes(), Format::Kif);
    let report = kifu::validate::validate(&g, &Default::default());
    assert!(report.ok, "{:?}", report.findings);
    assert_eq!(usi(&g.record)[8..], ["2c3c"]);
    // Not a move of the と (two squares): the error stays.
    let g = read(format!("{issue}   9 ２一歩(23)\n").as_bytes(), Format::Kif);
    let report = kifu::validate::validate(&g, &Default::default());
    assert_eq!(
        report.findings[0].rule.id(),
        "piece-mismatch",
        "{:?}",
        report.findings
    );
    // `成` written for a piece already promoted: no move.
    let g = read(
        format!("{issue}   9 ２二歩成(23)\n").as_bytes(),
        Format::Kif,
    );
    let report = kifu::validate::validate(&g, &Default::default());
    assert!(!report.ok, "{:?}", report.findings);
    // 成香, 成桂 and 成銀 written `香`, `桂`, `銀`, each the gold's step
    // back that the base piece cannot make.
    let bod = "後手の持駒：なし\n  ９ ８ ７ ６ ５ ４ ３ ２ １\n+---------------------------+\n| ・ ・ ・ ・ ・ ・ ・ ・v玉|一\n| ・ ・ ・ ・ ・ ・ ・ ・ ・|二\n| ・ ・ ・ ・ ・ ・ ・ ・ ・|三\n| ・ ・ ・ ・ ・ ・ ・ ・ ・|四\n| ・ ・ 杏 ・ 圭 ・ 全 ・ ・|五\n| ・ ・ ・ ・ ・ ・ ・ ・ ・|六\n| ・ ・ ・ ・ ・ ・ ・ ・ ・|七\n| ・ ・ ・ ・ ・ ・ ・ ・ ・|八\n| 玉 ・ ・ ・ ・ ・ ・ ・ ・|九\n+---------------------------+\n先手の持駒：なし\n手数----指手--\n";
    for (mv, usi_mv, named) in [
        ("７六香(75)", "7e7f", "lance"),
        ("５六桂(55)", "5e5f", "knight"),
        ("３六銀(35)", "3e3f", "silver"),
    ] {
        let g = read(format!("{bod}   1 {mv}\n").as_bytes(), Format::Kif);
        let report = kifu::validate::validate(&g, &Default::default());
        assert!(report.ok, "{mv}: {:?}", report.findings);
        assert_eq!(usi(&g.record), [usi_mv], "{mv}");
        assert_eq!(report.findings.len(), 1, "{mv}: {:?}", report.findings);
        assert!(
            report.findings[0]
                .message
                .contains(&format!("names a {named}")),
            "{mv}: {}",
            report.findings[0].message
        );
    }
}
