//! Which evidence decides the encoding (issue 36): a byte-order mark; else
//! a declaration the bytes do not contradict; else `--encoding`; else the
//! bytes, UTF-8 when they are valid or mostly valid UTF-8. A declaration
//! the bytes contradict is an `encoding` warning at it; damage in UTF-8 is
//! an `encoding` error at its line and column, never a silent change of
//! encoding. The corpus trial checks that every record of the reference
//! corpus is still detected as its index says (skipped without it).

use kifu::read::{self, DecodeOptions, Encoding, Finding, ReadOptions, Rule, Severity};
use std::path::Path;
use std::process::Command;
use trials::Skip;

#[path = "support/trials.rs"]
mod trials;

fn main() {
    trials::main(
        tests![
            a_shift_jis_declaration_on_utf8_bytes_is_read_as_utf8_with_a_warning,
            the_warning_is_at_the_declaration_whatever_the_line_breaks,
            a_utf8_declaration_on_shift_jis_bytes_is_a_warning_too,
            a_declaration_the_bytes_agree_with_is_silent,
            encoding_forced_by_the_caller_still_wins,
            damaged_utf8_stays_utf8_and_the_damage_is_reported,
            the_cli_reads_the_template_header_with_a_warning,
        ]
        .into_iter()
        .chain(trials![every_corpus_record_keeps_its_encoding]),
    );
}

/// The record of the issue: a UTF-8 KIF whose header line says Shift_JIS.
const TEMPLATE_KIF: &str = "#KIF version=2.0 encoding=Shift_JIS\n手合割：平手\n手数----指手---------消費時間--\n   1 ７六歩(77)\n";

fn read_with(bytes: &[u8], encoding: Option<Encoding>) -> (Encoding, Vec<read::Game>) {
    let opts = ReadOptions {
        decode: DecodeOptions {
            encoding,
            lossy: false,
        },
    };
    let mut r = read::Reader::with_options(bytes, None, &opts).unwrap();
    let enc = r.encoding();
    (enc, r.games().collect())
}

fn encoding_findings(g: &read::Game) -> Vec<&Finding> {
    g.findings
        .iter()
        .filter(|f| f.rule == Rule::Encoding)
        .collect()
}

fn a_shift_jis_declaration_on_utf8_bytes_is_read_as_utf8_with_a_warning() {
    let (enc, games) = read_with(TEMPLATE_KIF.as_bytes(), None);
    assert_eq!(enc, Encoding::Utf8);
    let g = &games[0];
    assert_eq!(g.record.main.moves.len(), 1);
    assert!(!g.has_errors(), "{:?}", g.findings);
    // One warning, at the label, naming both sides of the contradiction.
    assert_eq!(g.findings.len(), 1, "{:?}", g.findings);
    let f = &g.findings[0];
    assert_eq!((f.rule, f.severity), (Rule::Encoding, Severity::Warning));
    assert_eq!((f.line, f.column), (1, 27));
    assert!(
        f.message.contains("encoding=Shift_JIS") && f.message.contains("UTF-8"),
        "{}",
        f.message
    );
    // The same in CSA (whose reader takes whole blocks of lines), KI2,
    // with a Japanese name, a declaration in lower case.
    let csa = "'CSA encoding=shift_jis\nV2.2\nN+山田\nN-佐藤\nPI\n+\n+7776FU\n-3334FU\n%TORYO\n";
    let ki2 = "#KI2 version=2.0 encoding=Shift_JIS\n手合割：平手\n先手：山田\n▲７六歩    △３四歩\nまで2手で中断\n";
    for (text, moves, column) in [(csa, 2, 15), (ki2, 2, 27)] {
        let (enc, games) = read_with(text.as_bytes(), None);
        assert_eq!(enc, Encoding::Utf8, "{text}");
        let g = &games[0];
        assert_eq!(g.record.main.moves.len(), moves, "{text}");
        assert!(!g.has_errors(), "{text}: {:?}", g.findings);
        let e = encoding_findings(g);
        assert_eq!(e.len(), 1, "{text}: {:?}", g.findings);
        assert_eq!((e[0].line, e[0].column), (1, column), "{text}");
        assert_eq!(e[0].severity, Severity::Warning);
    }
    assert!(games_named("山田", csa.as_bytes()));
}

fn games_named(name: &str, bytes: &[u8]) -> bool {
    let (_, games) = read_with(bytes, None);
    games[0]
        .record
        .header
        .entries
        .iter()
        .any(|(_, v)| v == name)
}

fn the_warning_is_at_the_declaration_whatever_the_line_breaks() {
    for (text, line) in [
        (TEMPLATE_KIF.replace('\n', "\r\n"), 1),
        (TEMPLATE_KIF.replace('\n', "\r"), 1),
        (format!("# written by hand\n{TEMPLATE_KIF}"), 2),
        (format!("\r\n\r{TEMPLATE_KIF}"), 3),
    ] {
        let (enc, games) = read_with(text.as_bytes(), None);
        assert_eq!(enc, Encoding::Utf8, "{text:?}");
        let g = &games[0];
        assert_eq!(g.record.main.moves.len(), 1, "{text:?}");
        let e = encoding_findings(g);
        assert_eq!(e.len(), 1, "{text:?}: {:?}", g.findings);
        assert_eq!((e[0].line, e[0].column), (line, 27), "{text:?}");
        // Nothing else: the KIF reader's own `#` line check says no more.
        assert_eq!(g.findings.len(), 1, "{text:?}: {:?}", g.findings);
    }
}

fn a_utf8_declaration_on_shift_jis_bytes_is_a_warning_too() {
    // A file re-encoded by nkf keeps its `encoding=UTF-8` line.
    let text = TEMPLATE_KIF.replace("Shift_JIS", "UTF-8");
    let sjis = encoding_rs::SHIFT_JIS.encode(&text).0.into_owned();
    let csa = "'CSA encoding=UTF-8\nV2.2\nN+山田\nPI\n+\n+7776FU\n%TORYO\n";
    let csa = encoding_rs::SHIFT_JIS.encode(csa).0.into_owned();
    for bytes in [sjis, csa] {
        let (enc, games) = read_with(&bytes, None);
        assert_eq!(enc, Encoding::ShiftJis);
        let g = &games[0];
        assert_eq!(g.record.main.moves.len(), 1);
        assert!(!g.has_errors(), "{:?}", g.findings);
        let e = encoding_findings(g);
        assert_eq!(e.len(), 1, "{:?}", g.findings);
        assert!(e[0].message.contains("encoding=UTF-8"), "{}", e[0].message);
        assert_eq!((e[0].severity, e[0].line), (Severity::Warning, 1));
    }
}

fn a_declaration_the_bytes_agree_with_is_silent() {
    let sjis = encoding_rs::SHIFT_JIS.encode(TEMPLATE_KIF).0.into_owned();
    let euc = encoding_rs::EUC_JP
        .encode(&TEMPLATE_KIF.replace("Shift_JIS", "EUC-JP"))
        .0
        .into_owned();
    let utf8 = TEMPLATE_KIF.replace("Shift_JIS", "UTF-8").into_bytes();
    // ASCII only: nothing contradicts a Shift_JIS declaration.
    let ascii = b"'CSA encoding=SHIFT_JIS\nV2.2\nPI\n+\n+7776FU\n%TORYO\n".to_vec();
    for (bytes, want) in [
        (sjis, Encoding::ShiftJis),
        (euc, Encoding::EucJp),
        (utf8, Encoding::Utf8),
        (ascii, Encoding::ShiftJis),
    ] {
        let (enc, games) = read_with(&bytes, None);
        assert_eq!(enc, want);
        assert!(games[0].findings.is_empty(), "{:?}", games[0].findings);
    }
}

fn encoding_forced_by_the_caller_still_wins() {
    // A declaration the bytes contradict gives way to the caller's choice:
    // forced to Shift_JIS, the UTF-8 bytes are mojibake and errors, and no
    // warning says the declaration was overridden (it was not).
    let (enc, games) = read_with(TEMPLATE_KIF.as_bytes(), Some(Encoding::ShiftJis));
    assert_eq!(enc, Encoding::ShiftJis);
    assert!(games[0].has_errors());
    assert!(!games[0]
        .findings
        .iter()
        .any(|f| f.severity == Severity::Warning && f.rule == Rule::Encoding));
    // Forced to UTF-8: read, with the warning.
    let (enc, games) = read_with(TEMPLATE_KIF.as_bytes(), Some(Encoding::Utf8));
    assert_eq!(enc, Encoding::Utf8);
    assert_eq!(encoding_findings(&games[0]).len(), 1);
    // Without a declaration, the choice wins over valid UTF-8 bytes.
    let plain = TEMPLATE_KIF.lines().skip(1).collect::<Vec<_>>().join("\n");
    let (enc, _) = read_with(plain.as_bytes(), Some(Encoding::ShiftJis));
    assert_eq!(enc, Encoding::ShiftJis);
    // A declaration the bytes do not contradict still wins over it.
    let sjis = encoding_rs::SHIFT_JIS.encode(TEMPLATE_KIF).0.into_owned();
    let (enc, games) = read_with(&sjis, Some(Encoding::Utf8));
    assert_eq!(enc, Encoding::ShiftJis);
    assert!(games[0].findings.is_empty(), "{:?}", games[0].findings);
}

/// A UTF-8 CSA record with Japanese comments whose characters each also
/// read cleanly as Shift_JIS (their third byte a half-width katakana), with
/// `n` of them cut short by their last byte: what used to be read as
/// Shift_JIS mojibake without a finding. The damaged lines, and the column
/// of the first damage on each.
fn damaged_csa(n: usize) -> (Vec<u8>, Vec<(u32, u32)>) {
    let body = "歩銀馬一六八跡自然振穴囲矢対局人戦".repeat(3);
    let mut out = "V2.2\nN+矢対局人\nN-自然振穴\nPI\n+\n".as_bytes().to_vec();
    let mut line = 5;
    let mut damaged = Vec::new();
    let mut left = n;
    for (i, mv) in [
        "+7776FU", "-3334FU", "+2726FU", "-8384FU", "+2625FU", "-8485FU",
    ]
    .iter()
    .enumerate()
    {
        out.extend_from_slice(mv.as_bytes());
        out.extend_from_slice(b"\n'");
        line += 2;
        let mut first = None;
        for (j, c) in body.chars().enumerate() {
            let mut b = [0u8; 4];
            let b = c.encode_utf8(&mut b).as_bytes();
            if left > 0 && (i + j) % 9 == 4 {
                left -= 1;
                first.get_or_insert(j as u32 + 2);
                out.extend_from_slice(&b[..2]);
            } else {
                out.extend_from_slice(b);
            }
        }
        out.push(b'\n');
        if let Some(col) = first {
            damaged.push((line, col));
        }
    }
    out.extend_from_slice(b"%CHUDAN\n");
    (out, damaged)
}

fn damaged_utf8_stays_utf8_and_the_damage_is_reported() {
    for n in [1, 5, 30] {
        let (bytes, damaged) = damaged_csa(n);
        let (enc, games) = read_with(&bytes, None);
        assert_eq!(enc, Encoding::Utf8, "{n} damaged");
        let g = &games[0];
        assert_eq!(g.record.main.moves.len(), 6);
        let at: Vec<(u32, u32)> = encoding_findings(g)
            .iter()
            .map(|f| {
                assert_eq!(f.severity, Severity::Error);
                (f.line, f.column)
            })
            .collect();
        assert_eq!(at, damaged, "{n} damaged");
        // The names are read as written.
        assert!(games_named("矢対局人", &bytes));
        // --lossy: read, the damage as U+FFFD, no finding.
        let opts = ReadOptions {
            decode: DecodeOptions {
                encoding: None,
                lossy: true,
            },
        };
        let g = &read::read_all(&bytes, None, &opts)[0];
        assert!(g.findings.is_empty(), "{:?}", g.findings);
        let fffd: usize = g
            .record
            .main
            .moves
            .iter()
            .flat_map(|m| &m.comments)
            .map(|c| c.matches('\u{fffd}').count())
            .sum();
        assert_eq!(fffd, n);
    }
}

fn kifu() -> Command {
    Command::new(env!("CARGO_BIN_EXE_kifu"))
}

fn the_cli_reads_the_template_header_with_a_warning() {
    let dir = tempfile::tempdir().unwrap();
    let x = dir.path().join("x.kif");
    std::fs::write(&x, TEMPLATE_KIF).unwrap();
    let o = kifu().arg("validate").arg(&x).output().unwrap();
    let text =
        String::from_utf8_lossy(&o.stdout).into_owned() + &String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(0), "{text}");
    assert!(text.contains("warning[encoding]"), "{text}");
    assert!(text.contains("encoding=Shift_JIS"), "{text}");
    let o = kifu()
        .args(["validate", "--format", "json"])
        .arg(&x)
        .output()
        .unwrap();
    let line = String::from_utf8(o.stdout).unwrap();
    let v: serde_json::Value = serde_json::from_str(line.trim()).unwrap();
    assert_eq!(v["encoding"], "utf-8");
    assert_eq!(v["plies"], 1);
    // `--encoding shift_jis` forces the declared reading: errors, exit 1.
    let o = kifu()
        .args(["validate", "--encoding", "shift_jis"])
        .arg(&x)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(1));
}

/// Every record of the reference corpus is detected as its index says.
fn every_corpus_record_keeps_its_encoding() -> Result<(), Skip> {
    let root = trials::corpus()?;
    let mut index = csv::Reader::from_path(root.join("index.csv")).unwrap();
    let mut checked = 0;
    let mut wrong = Vec::new();
    for row in index.records() {
        let row = row.unwrap();
        let (path, label) = (&row[0], &row[2]);
        let want = match label {
            "Shift_JIS" => Encoding::ShiftJis,
            "EUC-JP" => Encoding::EucJp,
            "UTF-8" | "ASCII" => Encoding::Utf8,
            "UTF-8-BOM" => Encoding::Utf8Bom,
            _ => continue,
        };
        let Ok(bytes) = std::fs::read(Path::new(&root).join(path)) else {
            continue;
        };
        let got = read::decode::detect_start(&bytes, &DecodeOptions::default());
        checked += 1;
        // ASCII records may declare Shift_JIS: that is what they are read as.
        if got != want && !(label == "ASCII" && got == Encoding::ShiftJis) {
            wrong.push(format!("{path}: {label} read as {got}"));
        }
    }
    assert!(checked > 1000, "{checked}");
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    Ok(())
}
