//! Recorded fouls, results and terminals (issue 15): the fixtures of
//! `fixtures/fouls/` and `fixtures/dialects/` (see their README), each with
//! its exact result, rule id, severity and line, through the reader and
//! validator the CLI uses; the writers keep the foul move and its terminal.

use kifu::read::{self, Format, ReadOptions, Severity};
use kifu::record::{Outcome, TerminalKind};
use kifu::validate::{validate, GameReport, ValidateOptions};
use kifu::write::{write, WriteOptions};
use std::path::Path;

fn fixture(p: &str) -> Vec<u8> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures")
        .join(p);
    std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn games(p: &str) -> Vec<read::Game> {
    let format = Format::from_path(Path::new(p));
    read::read_all(&fixture(p), format, &ReadOptions::default())
}

fn report(p: &str) -> GameReport {
    let g = games(p);
    assert_eq!(g.len(), 1, "{p}: one game");
    validate(&g[0], &ValidateOptions::default())
}

/// The findings as `rule severity line:column`, dialect warnings left out
/// unless `dialect`.
pub fn findings(r: &GameReport, dialect: bool) -> Vec<String> {
    r.findings
        .iter()
        .filter(|f| dialect || f.rule.id() != "dialect")
        .map(|f| {
            let sev = if f.severity == Severity::Error {
                "error"
            } else {
                "warning"
            };
            format!("{} {sev} {}:{}", f.rule.id(), f.line, f.column)
        })
        .collect()
}

/// `outcome reason`.
pub fn result(r: &GameReport) -> String {
    format!(
        "{} {}",
        r.result.outcome.name(),
        r.result.reason.as_deref().unwrap_or("-")
    )
}

#[test]
fn shogi_club_24_side_named_foul() {
    // `   7 後手 反則負け` after gote's move left its king in check.
    let r = report("fouls/sc24-side-name.kif");
    assert_eq!(result(&r), "sente_win illegal-move");
    assert_eq!(
        findings(&r, true),
        ["foul warning 12:3", "dialect warning 13:3"]
    );
    let foul = &r.findings[0];
    assert!(foul.message.contains("[self-check]"), "{}", foul.message);
    assert!(foul.message.contains("gote loses"), "{}", foul.message);
    assert_eq!(foul.ply, Some(6));
    assert!(r.ok);
}

#[test]
fn shogi_club_24_foul_win_with_named_winner() {
    // `7 反則勝ち`, `*王手放置の反則`, `まで6手で先手の勝ち` (Shift_JIS).
    let r = report("fouls/sc24-foul-win.kif");
    assert_eq!(result(&r), "sente_win illegal-move");
    assert_eq!(findings(&r, true), ["foul warning 12:3"]);
    assert_eq!(r.result.winner, Some(kifu::rules::Color::Black));
}

#[test]
fn a_result_line_naming_the_fouler_the_winner_stays_an_error() {
    // 反則勝ち (sente wins) but まで…後手の勝ち: an error, and the record's own
    // stated result is kept, not overridden.
    let r = report("fouls/wrong-winner.kif");
    assert_eq!(findings(&r, false), ["self-check error 12:3"]);
    assert!(r.findings[0].message.contains("does not name sente"));
    assert_eq!(r.result.outcome, Outcome::GoteWin);
    assert!(!r.ok);
}

#[test]
fn an_illegal_move_the_record_does_not_end_on_stays_an_error() {
    let r = report("fouls/not-last.kif");
    assert_eq!(findings(&r, false), ["self-check error 12:3"]);
    assert_eq!(r.plies, 5);
    assert!(!r.ok);
}

#[test]
fn csa_foul_verdicts() {
    for (p, want) in [
        ("fouls/illegal-action.csa", "foul warning 17:1"),
        ("fouls/illegal-move.csa", "foul warning 17:1"),
        (
            "fouls/illegal-action-wrong-side.csa",
            "self-check error 17:1",
        ),
    ] {
        let r = report(p);
        assert_eq!(findings(&r, false), [want], "{p}");
        let expect = if want.starts_with("foul") {
            "sente_win illegal-move"
        } else {
            // `%+ILLEGAL_ACTION` says sente fouled: the record's word.
            "gote_win illegal-move"
        };
        assert_eq!(result(&r), expect, "{p}");
    }
}

#[test]
fn ki2_foul_win() {
    let r = report("fouls/foul-win.ki2");
    assert_eq!(result(&r), "sente_win illegal-move");
    assert_eq!(findings(&r, false), ["foul warning 5:39"]);
}

#[test]
fn ki2_one_illegal_move_is_one_finding() {
    // ▲５五飛 (no rook can go there) at ply 3, then three more moves and
    // `まで6手で後手の勝ち`: no follow-on `no-piece`, no claim-mismatch
    // counting the moves wrongly.
    let r = report("fouls/ki2-illegal-middle.ki2");
    assert_eq!(findings(&r, true), ["no-piece error 5:17"]);
    assert_eq!(r.findings[0].ply, Some(3));
    assert_eq!(r.plies, 2);
    // The built record keeps the `まで` line's ending, as reading does.
    assert_eq!(r.result.reason.as_deref(), Some("resign"));
}

/// The foul games written to every format: the foul move where the target
/// holds moves, the terminal everywhere it can be said, and what cannot be
/// held counted as dropped.
#[test]
fn writers_keep_the_foul_move_and_its_terminal() {
    let g = &games("fouls/sc24-foul-win.kif")[0];
    let w = |f: Format| write(&g.record, f, &WriteOptions::default()).expect("writes");
    let csa = w(Format::Csa);
    assert!(csa.text.contains("-9394FU\n"), "{}", csa.text);
    assert!(csa.text.contains("%-ILLEGAL_ACTION"), "{}", csa.text);
    assert_eq!(csa.dropped.terminals.count(), 0);
    let kif = w(Format::Kif);
    assert!(kif.text.contains("９四歩(93)"), "{}", kif.text);
    assert!(kif.text.contains("反則勝ち"), "{}", kif.text);
    let ki2 = w(Format::Ki2);
    assert!(ki2.text.contains("△９四歩"), "{}", ki2.text);
    assert!(ki2.text.contains("まで6手で先手の反則勝ち"), "{}", ki2.text);
    assert_eq!(ki2.dropped.terminals.count(), 0, "{}", ki2.text);
    let jkf = w(Format::Jkf);
    assert!(jkf.text.contains("\"-ILLEGAL_ACTION\""), "{}", jkf.text);
    let usi = w(Format::Usi);
    assert!(usi.text.contains("9c9d"), "{}", usi.text);
    assert_eq!(usi.dropped.terminals.count(), 1);

    // Each written form reads back to the same verdict.
    for f in [Format::Csa, Format::Kif, Format::Ki2, Format::Jkf] {
        let text = w(f).text;
        let back = read::read_all(text.as_bytes(), Some(f), &ReadOptions::default());
        let r = validate(&back[0], &ValidateOptions::default());
        assert_eq!(result(&r), "sente_win illegal-move", "{f:?}\n{text}");
        assert!(
            r.findings.iter().any(|x| x.rule.id() == "foul"),
            "{f:?}: {:?}",
            r.findings
        );
    }

    // A side-named foul (`後手 反則負け`) and %ILLEGAL_MOVE are written as
    // their own terminal.
    let g = &games("fouls/sc24-side-name.kif")[0];
    let csa = write(&g.record, Format::Csa, &WriteOptions::default()).unwrap();
    assert!(csa.text.contains("%-ILLEGAL_ACTION"), "{}", csa.text);
    let g = &games("fouls/illegal-move.csa")[0];
    let kif = write(&g.record, Format::Kif, &WriteOptions::default()).unwrap();
    assert!(kif.text.contains("反則負け"), "{}", kif.text);
    let jkf = write(&g.record, Format::Jkf, &WriteOptions::default()).unwrap();
    assert!(jkf.text.contains("\"ILLEGAL_MOVE\""), "{}", jkf.text);
    // `%ILLEGAL_MOVE` after gote's illegal move: gote lost; the まで line the
    // KIF and KI2 writers add says so, and reads back to the same verdict.
    for f in [Format::Kif, Format::Ki2] {
        let out = write(&g.record, f, &WriteOptions::default()).unwrap();
        assert!(
            out.text.contains("まで6手で先手の反則勝ち"),
            "{f:?}\n{}",
            out.text
        );
        assert_eq!(out.dropped.terminals.count(), 0, "{f:?}");
        let back = read::read_all(out.text.as_bytes(), Some(f), &ReadOptions::default());
        let r = validate(&back[0], &ValidateOptions::default());
        assert_eq!(result(&r), "sente_win illegal-move", "{f:?}\n{}", out.text);
        let rules: Vec<&str> = r.findings.iter().map(|x| x.rule.id()).collect();
        assert_eq!(rules, ["foul"], "{f:?}");
        assert!(r.ok, "{f:?}: {:?}", r.findings);
    }
}

#[test]
fn unknown_terminal_is_other_with_its_text() {
    let r = report("dialects/unknown-terminal.kifu");
    assert_eq!(r.result.reason.as_deref(), Some("other"));
    assert_eq!(r.result.terminal_text.as_deref(), Some("降参"));
    assert_eq!(findings(&r, true), ["dialect warning 8:6"]);
    assert!(kifu::validate::REASONS.contains(&"other"));
}

/// Every terminal word of FORMATS.md's producer table, in UTF-8 and in
/// Shift_JIS: read as a known terminal (never `other`).
#[test]
fn every_producer_terminal_word_is_known_in_both_encodings() {
    let words = [
        "投了",
        "中断",
        "千日手",
        "詰み",
        "詰",
        "不詰",
        "切れ負け",
        "時間切れ",
        "時間切れ負け",
        "反則勝ち",
        "反則負け",
        "入玉勝ち",
        "宣言勝ち",
        "勝ち宣言",
        "持将棋",
        "不戦勝",
        "不戦敗",
        "封じ手",
        "最大手数超過",
        "王手連続千日手",
        "連続王手の千日手",
        "トライ",
    ];
    for w in words {
        let text = format!(
            "手合割：平手\n手数----指手---------消費時間--\n   1 ７六歩(77)\n   2 ３四歩(33)\n   3 {w}\n"
        );
        let (sjis, _, bad) = encoding_rs::SHIFT_JIS.encode(&text);
        assert!(!bad, "{w}");
        for bytes in [text.as_bytes().to_vec(), sjis.into_owned()] {
            let g = read::read_all(&bytes, Some(Format::Kif), &ReadOptions::default());
            let t = g[0].record.main.terminal.as_ref().expect(w);
            assert!(
                !matches!(t.kind, TerminalKind::Other(_)),
                "{w}: read as {:?}",
                t.kind
            );
            let r = validate(&g[0], &ValidateOptions::default());
            assert_ne!(r.result.reason.as_deref(), Some("other"), "{w}");
            assert!(r.result.terminal_text.is_none(), "{w}");
        }
    }
}

#[test]
fn minishogi_repetition_is_judged_by_minishogi_rule() {
    // Fourfold repetition, then only `まで12手で千日手`: sente loses.
    let r = report("dialects/minishogi-repetition.kifu");
    assert_eq!(result(&r), "gote_win repetition");
    assert!(r.findings.is_empty(), "{:?}", r.findings);
}

#[test]
fn shogi_wars_csa_without_start_position() {
    for (p, line) in [
        ("dialects/wars-no-start.csa", "7:1"),
        ("dialects/wars-turn-only.csa", "8:1"),
    ] {
        let r = report(p);
        assert_eq!(
            findings(&r, true),
            [format!("dialect warning {line}")],
            "{p}"
        );
        assert_eq!(result(&r), "gote_win resign", "{p}");
        assert_eq!(r.plies, 4);
    }
}

#[test]
fn usi_terminal_tokens() {
    let g = games("dialects/usi-terminals.usi");
    let got: Vec<String> = g
        .iter()
        .map(|g| {
            let r = validate(g, &ValidateOptions::default());
            format!("{} {}", result(&r), findings(&r, true).join(","))
        })
        .collect();
    assert_eq!(
        got,
        [
            "gote_win resign ",
            "gote_win time-up ",
            "aborted abort ",
            "unknown other dialect warning 4:31",
        ]
    );
}

#[test]
fn old_jkf_boolean_colors() {
    let r = report("dialects/old-color.jkf");
    assert_eq!(findings(&r, true), ["dialect warning 2:38"]);
    assert_eq!(result(&r), "gote_win resign");
    assert_eq!(r.plies, 2);
}

#[test]
fn jkf_errors_have_line_and_column() {
    let r = report("dialects/bad-type.jkf");
    assert_eq!(findings(&r, true), ["syntax error 5:63"]);
    let m = &r.findings[0].message;
    assert!(m.contains("`y`: expected an integer"), "{m}");
    assert!(!m.contains(" at line "), "{m}");
    // Truncated and mistyped documents too.
    for text in [
        "{\"header\": {}, \"moves\": [{}, {\"move\": ",
        "{\"header\": {}, \"moves\": 3}",
        "{\"header\": {}, \"initial\": {\"preset\": 7}, \"moves\": [{}]}",
        "[1, 2]",
    ] {
        let g = read::read_all(text.as_bytes(), Some(Format::Jkf), &ReadOptions::default());
        for g in &g {
            for f in &g.findings {
                assert!(f.line >= 1 && f.column >= 1, "{text}: {f:?}");
                assert!(!f.message.contains(" at line "), "{text}: {f:?}");
            }
        }
    }
}

#[test]
fn kif_variation_header_forms() {
    let r = report("dialects/variation-headers.kifu");
    assert_eq!(
        findings(&r, true),
        [
            "dialect warning 12:1",
            "dialect warning 15:1",
            "dialect warning 19:1"
        ]
    );
    assert!(r.ok);
    let g = &games("dialects/variation-headers.kifu")[0];
    let main = &g.record.main;
    // 変化：4 at move 4, 変化：3手です at move 3, bare 変化： at move 2.
    assert_eq!(main.moves[3].variations.len(), 1);
    assert_eq!(main.moves[2].variations.len(), 1);
    assert_eq!(main.moves[1].variations.len(), 1);
    assert_eq!(main.moves[2].variations[0].moves.len(), 2);
}

#[test]
fn damaged_utf8_is_reported_at_its_bytes() {
    let r = report("dialects/damaged-utf8.kifu");
    assert_eq!(findings(&r, true), ["encoding error 6:2"]);
    assert_eq!(g_encoding("dialects/damaged-utf8.kifu"), "utf-8");
    assert_eq!(result(&r), "gote_win resign");
    // --lossy: no finding, a U+FFFD in the comment.
    let opts = ReadOptions {
        decode: read::decode::DecodeOptions {
            lossy: true,
            ..Default::default()
        },
    };
    let g = read::read_all(&fixture("dialects/damaged-utf8.kifu"), None, &opts);
    assert!(g[0].findings.is_empty(), "{:?}", g[0].findings);
    assert!(g[0].record.main.moves[0].comments[0].contains('\u{fffd}'));
}

fn g_encoding(p: &str) -> &'static str {
    let bytes = fixture(p);
    read::decode::detect(&bytes, true, &Default::default()).name()
}

/// Encoding by the whole prefix's evidence: a Shift_JIS file with one
/// damaged byte stays Shift_JIS, a UTF-8 one stays UTF-8.
#[test]
fn encoding_evidence_both_ways() {
    let mut sjis = fixture("fouls/sc24-foul-win.kif");
    let i = sjis.iter().position(|&b| b >= 0x80).unwrap();
    sjis[i] = 0xFF;
    assert_eq!(
        read::decode::detect(&sjis, true, &Default::default()).name(),
        "shift_jis"
    );
    let utf8 = fixture("dialects/damaged-utf8.kifu");
    assert_eq!(
        read::decode::detect(&utf8, true, &Default::default()).name(),
        "utf-8"
    );
    // Clean files are unchanged.
    let clean = fixture("fouls/sc24-side-name.kif");
    assert_eq!(
        read::decode::detect(&clean, true, &Default::default()).name(),
        "shift_jis"
    );
}
