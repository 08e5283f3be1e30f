//! One fixture per rule id (fixtures/validate/NAME.ext with NAME.err giving
//! the exact first error `LINE:COL rule PLY`, or `ok`), through the same
//! reader + validator path as `kifu validate`.

use kifu::read::{self, ReadOptions, Severity};
use kifu::validate::{validate, ValidateOptions};
use std::path::Path;

fn first_error(path: &Path) -> String {
    let bytes = std::fs::read(path).unwrap();
    let format = kifu::read::Format::from_path(path);
    let games = read::read_all(&bytes, format, &ReadOptions::default());
    assert!(!games.is_empty(), "{}: no game", path.display());
    for g in &games {
        let report = validate(g, &ValidateOptions::default());
        if let Some(f) = report
            .findings
            .iter()
            .find(|f| f.severity == Severity::Error)
        {
            // A finding about a move carries the move and the position.
            if let Some(ply) = f.ply {
                assert!(
                    f.mv.is_some() && f.sfen.is_some(),
                    "{}: {f:?}",
                    path.display()
                );
                return format!("{}:{} {} {ply}", f.line, f.column, f.rule);
            }
            return format!("{}:{} {} -", f.line, f.column, f.rule);
        }
    }
    "ok".to_string()
}

#[test]
fn every_rule_has_a_fixture_with_its_exact_finding() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/validate");
    let mut seen = std::collections::BTreeSet::new();
    let mut failures = Vec::new();
    let mut entries: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    for path in entries {
        if path.extension().is_some_and(|e| e == "err") {
            continue;
        }
        let expect_path = path.with_extension("err");
        let expect = std::fs::read_to_string(&expect_path)
            .unwrap_or_else(|_| panic!("{} has no .err file", path.display()));
        let expect = expect.trim();
        let got = first_error(&path);
        if let Some(rule) = expect.split(' ').nth(1) {
            seen.insert(rule.to_string());
        }
        if got != expect {
            failures.push(format!(
                "{}: expected `{expect}`, got `{got}`",
                path.display()
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    for rule in [
        "syntax",
        "encoding",
        "no-piece",
        "piece-mismatch",
        "illegal-movement",
        "occupied",
        "not-in-hand",
        "must-promote",
        "dead-drop",
        "nifu",
        "uchifuzume",
        "self-check",
        "illegal-promotion",
        "after-end",
        "claim-mismatch",
        "setup",
        "empty",
    ] {
        assert!(seen.contains(rule), "no fixture for rule {rule}");
    }
}

/// The findings of a broken input, as `(rule, severity, line, ply, message)`.
fn findings_of(bytes: &[u8], format: read::Format, opts: &ReadOptions) -> Vec<String> {
    let games = read::read_all(bytes, Some(format), opts);
    let mut out = Vec::new();
    for g in &games {
        let report = validate(g, &ValidateOptions::default());
        for f in &report.findings {
            if f.rule.id() == "dialect" {
                continue;
            }
            out.push(format!(
                "{} {:?} ply={:?} {}",
                f.rule.id(),
                f.severity,
                f.ply,
                f.message
            ));
        }
    }
    out
}

/// One condition, one finding: the same broken game in every format gives
/// the same rule id, severity and message shape.
#[test]
fn same_condition_same_finding() {
    use read::Format;
    let opts = ReadOptions::default();
    // A move after the terminal of its line.
    let after_end: [(Format, &str, &str); 5] = [
        (Format::Csa, "PI\n+\n+7776FU\n-3334FU\n%TORYO\n+2726FU\n", "+2726FU"),
        (
            Format::Kif,
            "手合割：平手\n手数----指手---------消費時間--\n   1 ７六歩(77)\n   2 ３四歩(33)\n   3 投了\n   4 ２六歩(27)\n",
            "２六歩(27)",
        ),
        (Format::Ki2, "手合割：平手\n▲７六歩 △３四歩 ▲投了 ▲２六歩\n", "▲２六歩"),
        (Format::Psn, "1.P-7f P-3d Resigns 2.P-2f\n", "P-2f"),
        (
            Format::Jkf,
            r#"{"header":{},"moves":[{},{"move":{"from":{"x":7,"y":7},"to":{"x":7,"y":6},"piece":"FU"}},{"move":{"from":{"x":3,"y":3},"to":{"x":3,"y":4},"piece":"FU"}},{"special":"TORYO"},{"move":{"from":{"x":2,"y":7},"to":{"x":2,"y":6},"piece":"FU"}}]}"#,
            "26FU",
        ),
    ];
    for (format, text, written) in after_end {
        let got = findings_of(text.as_bytes(), format, &opts);
        let want = format!("after-end Error ply=Some(3) move `{written}` after the terminal");
        assert_eq!(got, vec![want], "{format}");
    }
    // No game at all, bad bytes, an over-long line: the line reader's
    // findings, alike in every format.
    let utf8 = ReadOptions {
        decode: kifu::read::DecodeOptions {
            encoding: Some(kifu::read::Encoding::Utf8),
            lossy: false,
        },
    };
    let long = vec![b'x'; kifu::read::lines::MAX_LINE_BYTES + 10];
    for format in Format::ALL {
        assert_eq!(
            findings_of(b"", format, &opts),
            vec!["empty Error ply=None no game in the input".to_string()],
            "{format}"
        );
        let bad = findings_of(b"\xff\n", format, &utf8);
        assert!(
            bad.iter()
                .any(|f| f == "encoding Error ply=None bytes FF do not decode as utf-8"),
            "{format}: {bad:?}"
        );
        let got = findings_of(&long, format, &opts);
        assert!(
            got.iter()
                .any(|f| f == "syntax Error ply=None line too long: longer than 64 MiB, cut there"),
            "{format}: {got:?}"
        );
    }
}

/// The two ways to validate a game agree: streaming the reader's events
/// into a `Validator` (what `kifu validate` does) and validating the built
/// record (`validate(&Game)`, what a library user holding a `Record` does).
/// Same verdict, result, plies, final position, findings and game key, on
/// every fixture we ship.
#[test]
fn streaming_and_built_records_give_the_same_report() {
    fn walk(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
        let mut entries: Vec<_> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        entries.sort();
        for p in entries {
            if p.is_dir() {
                walk(&p, out);
            } else if kifu::read::Format::from_path(&p).is_some() {
                out.push(p);
            }
        }
    }
    let mut files = Vec::new();
    walk(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures"),
        &mut files,
    );
    assert!(files.len() > 100, "{} fixtures", files.len());
    let opts = ReadOptions::default();
    let mut differ = Vec::new();
    let mut compared = 0;
    for path in &files {
        let bytes = std::fs::read(path).unwrap();
        let format = kifu::read::Format::from_path(path);
        let built: Vec<_> = read::read_all(&bytes, format, &opts)
            .iter()
            .map(|g| validate(g, &ValidateOptions::default()))
            .collect();
        let Ok(mut reader) = read::Reader::with_options(&bytes[..], format, &opts) else {
            continue;
        };
        let mut streamed = Vec::new();
        loop {
            let mut v = kifu::validate::Validator::new(ValidateOptions::default());
            match reader.read_game(&mut v) {
                Some(r) => streamed.push(r),
                None => break,
            }
        }
        compared += streamed.len();
        if built != streamed {
            differ.push(format!(
                "{}:\n  built    {built:?}\n  streamed {streamed:?}",
                path.display()
            ));
        }
    }
    assert!(compared > 100, "{compared} games compared");
    assert!(differ.is_empty(), "{}", differ.join("\n"));
}

/// Sente's perpetual check (rook 1九/2九 against the king on 1一/2一,
/// thirteen moves) in KIF, from a board diagram, then `tail`.
fn perpetual_check_kif(tail: &str) -> String {
    let mut s = String::from(
        "後手の持駒：なし\n  ９ ８ ７ ６ ５ ４ ３ ２ １\n+---------------------------+\n| ・ ・ ・ ・ ・ ・ ・ ・v玉|一\n",
    );
    for r in ["二", "三", "四", "五", "六", "七", "八"] {
        s.push_str(&format!("| ・ ・ ・ ・ ・ ・ ・ ・ ・|{r}\n"));
    }
    s.push_str("| 玉 ・ ・ ・ ・ ・ 飛 ・ ・|九\n+---------------------------+\n先手の持駒：なし\n手数----指手--\n   1 １九飛(39)\n");
    let cycle = ["２一玉(11)", "２九飛(19)", "１一玉(21)", "１九飛(29)"];
    for i in 0..12 {
        s.push_str(&format!("{:4} {}\n", i + 2, cycle[i % 4]));
    }
    s.push_str(tail);
    s
}

/// The same game in KI2 (the summary is its only statement of the end).
fn perpetual_check_ki2(summary: &str) -> String {
    let kif = perpetual_check_kif("");
    let (board, moves) = kif.split_once("手数----指手--\n").unwrap();
    let moves: Vec<String> = moves
        .lines()
        .enumerate()
        .map(|(i, l)| {
            let m = l.split_whitespace().nth(1).unwrap();
            let m = &m[..m.find('(').unwrap()];
            format!("{}{m}", if i % 2 == 0 { "▲" } else { "△" })
        })
        .collect();
    format!("{board}\n{}\n{summary}\n", moves.join(" "))
}

/// A perpetual check written as a plain draw (issue 36): the checking
/// side loses (連続王手の千日手). A `まで` line that names only 千日手 (Shogi
/// Wars writes it for both endings) is a `dialect` warning naming the real
/// result; one that names a draw or the wrong winner is a
/// `claim-mismatch`; a bare `千日手` terminal is an event, no finding.
#[test]
fn perpetual_check_named_a_repetition_gets_the_real_result() {
    let run = |text: String, format: read::Format| {
        let games = read::read_all(text.as_bytes(), Some(format), &ReadOptions::default());
        assert_eq!(games.len(), 1, "{text}");
        validate(&games[0], &ValidateOptions::default())
    };
    let rules = |r: &kifu::validate::GameReport| -> Vec<(&str, Severity)> {
        r.findings
            .iter()
            .map(|f| (f.rule.id(), f.severity))
            .collect()
    };
    for (text, format) in [
        (
            perpetual_check_kif("  14 千日手\nまで13手で千日手\n"),
            read::Format::Kif,
        ),
        (perpetual_check_kif("まで13手で千日手\n"), read::Format::Kif),
        (perpetual_check_ki2("まで13手で千日手"), read::Format::Ki2),
    ] {
        let r = run(text, format);
        assert!(r.ok, "{format:?}: {:?}", r.findings);
        assert_eq!(rules(&r), [("dialect", Severity::Warning)], "{format:?}");
        let m = &r.findings[0].message;
        assert!(
            m.contains("まで13手で千日手") && m.contains("perpetual check by sente"),
            "{m}"
        );
        assert!(m.contains("gote_win") && m.contains("gote wins"), "{m}");
        let est = r.established_result().expect("established");
        assert_eq!(
            (est.outcome.name(), est.reason.as_deref()),
            ("gote_win", Some("perpetual-check"))
        );
    }
    // A bare terminal: an event, as before.
    let r = run(perpetual_check_kif("  14 千日手\n"), read::Format::Kif);
    assert!(r.findings.is_empty(), "{:?}", r.findings);
    assert_eq!(r.result.outcome.name(), "gote_win");
    // A line naming a draw, or sente the winner: false.
    for tail in ["まで13手で引き分け", "まで13手で先手の勝ち"] {
        let r = run(perpetual_check_kif(&format!("{tail}\n")), read::Format::Kif);
        assert_eq!(
            rules(&r),
            [("claim-mismatch", Severity::Error)],
            "{tail}: {:?}",
            r.findings
        );
        let r = run(perpetual_check_ki2(tail), read::Format::Ki2);
        assert!(
            rules(&r).contains(&("claim-mismatch", Severity::Error)),
            "{tail} (KI2): {:?}",
            r.findings
        );
    }
}
