//! Opening and castle names on the command line (issue 29): the
//! `--opening`, `--castle` and `--style` filters of every command that
//! selects games (names, aliases and descendants match; an unknown name is
//! a usage error listing near names; handicap games have openings and castles (no style),
//! variants nothing), `kifu tags --list` and `kifu convert --annotate`.
//! The games are written here as USI move lists (invented, no corpus).

use std::path::Path;
use std::process::{Command, Output};

/// Sente: fourth-file rook and Mino (2h6h, king to 2h, silver 3h, golds
/// 4i and 5h); gote: static rook.
const MINO: &str = "position startpos moves 7g7f 3c3d 2h6h 8c8d 5i4h 8d8e 8h7g 7a6b 4h3h 5a4b 3h2h 4b3b 3i3h 6a5b 6i5h\n";
/// The same castle in a lance handicap game (上手, gote, moves first).
const HANDICAP: &str = "position sfen lnsgkgsn1/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1 moves 3c3d 7g7f 8c8d 2h6h 8d8e 5i4h 7a6b 4h3h 5a4b 3h2h 4b3b 3i3h 6a5b 6i5h\n";
/// Both sides static rook, no castle.
const STATIC: &str = "position startpos moves 7g7f 8c8d 2g2f 8d8e\n";
/// Minishogi: never named.
const VARIANT: &str = "position sfen rbsgk/4p/5/P4/KGSBR b - 1 moves 5d5c\n";

fn kifu(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_kifu"))
        .current_dir(dir)
        .args(args)
        .output()
        .unwrap()
}

fn games() -> tempfile::TempDir {
    let d = tempfile::tempdir().unwrap();
    let all = format!("{MINO}{HANDICAP}{STATIC}{VARIANT}");
    std::fs::write(d.path().join("g.usi"), all).unwrap();
    d
}

/// The games (1-based) `kifu select g.usi ARGS` lists.
fn selected(dir: &Path, args: &[&str]) -> Vec<String> {
    let mut a = vec!["select", "g.usi"];
    a.extend(args);
    let o = kifu(dir, &a);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{args:?}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    String::from_utf8(o.stdout)
        .unwrap()
        .lines()
        .map(|l| l.trim_start_matches("g.usi:").to_string())
        .collect()
}

#[test]
fn names_aliases_and_descendants_match() {
    let d = games();
    let p = d.path();
    for castle in [
        "mino",
        "美濃囲い",
        "本美濃",
        "Mino",
        "half_mino",
        "片美濃囲い",
    ] {
        assert_eq!(selected(p, &["--castle", castle]), ["1", "2"], "{castle}");
    }
    for opening in ["fourth_file_rook", "四間飛車", "ranging_rook", "振り飛車"] {
        // The handicap game (2) has its openings too (issue 38).
        assert_eq!(
            selected(p, &["--opening", opening]),
            ["1", "2"],
            "{opening}"
        );
    }
    assert_eq!(selected(p, &["--style", "opposing"]), ["1"]);
    assert_eq!(selected(p, &["--style", "対抗形"]), ["1"]);
    assert!(selected(p, &["--opening", "third_file_rook"]).is_empty());
    // Every criterion must hold.
    assert!(selected(p, &["--castle", "mino", "--castle", "static_anaguma"]).is_empty());
    assert_eq!(
        selected(p, &["--castle", "mino", "--opening", "ranging_rook"]),
        ["1", "2"]
    );
}

#[test]
fn every_selecting_command_takes_the_filters() {
    let d = games();
    let p = d.path();
    let o = kifu(p, &["stats", "g.usi", "--castle", "mino", "--no-tags"]);
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(String::from_utf8(o.stdout).unwrap().lines().count(), 3);
    let o = kifu(p, &["validate", "g.usi", "--opening", "ranging_rook"]);
    assert_eq!(o.status.code(), Some(0), "{o:?}");
    let o = kifu(
        p,
        &[
            "convert", "g.usi", "--to", "csa", "-o", "-", "--style", "opposing",
        ],
    );
    assert_eq!(o.status.code(), Some(0), "{o:?}");
    let csa = String::from_utf8(o.stdout).unwrap();
    assert_eq!(csa.matches("+2868HI").count(), 1, "{csa}");
}

#[test]
fn unknown_names_are_usage_errors_with_near_names() {
    let d = games();
    for cmd in ["select", "stats", "validate", "convert", "export"] {
        let o = kifu(d.path(), &[cmd, "g.usi", "--castle", "minno"]);
        assert_eq!(o.status.code(), Some(2), "{cmd}");
        let err = String::from_utf8(o.stderr).unwrap();
        assert!(err.contains("near: mino"), "{cmd}: {err}");
    }
    // A castle is not an opening.
    let o = kifu(d.path(), &["select", "g.usi", "--opening", "mino"]);
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn the_list_names_every_entry_with_its_parent() {
    let d = tempfile::tempdir().unwrap();
    let o = kifu(d.path(), &["tags", "--list", "--format", "json"]);
    assert_eq!(o.status.code(), Some(0));
    let list: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let list = list.as_array().unwrap();
    let ids: Vec<&str> = list.iter().map(|e| e["id"].as_str().unwrap()).collect();
    let tax = kifu::tags::Taxonomy::builtin();
    let want: Vec<&str> = tax
        .entries()
        .iter()
        .filter(|e| !e.is_helper())
        .map(|e| e.id.as_str())
        .collect();
    assert_eq!(ids, want);
    let mino = list.iter().find(|e| e["id"] == "mino").unwrap();
    assert_eq!(mino["ja"], "美濃囲い");
    assert_eq!(mino["en"], "Mino");
    assert_eq!(mino["kind"], "castle");
    assert_eq!(mino["parent"], "half_mino");
    assert!(mino["aliases"]
        .as_array()
        .unwrap()
        .iter()
        .any(|a| a == "本美濃"));
    for e in list {
        if let Some(p) = e["parent"].as_str() {
            assert!(ids.contains(&p), "{e}");
        }
    }
    let o = kifu(d.path(), &["tags", "--list"]);
    assert_eq!(o.status.code(), Some(0));
    let text = String::from_utf8(o.stdout).unwrap();
    assert!(text.starts_with("id "), "{text}");
    let line = text
        .lines()
        .find(|l| l.trim_start().starts_with("mino "))
        .unwrap();
    assert!(
        line.starts_with("  mino") && line.contains("美濃囲い"),
        "{line}"
    );
    assert_eq!(text.lines().count(), want.len() + 1);
    // A taxonomy file of one's own is checked: an error names its place.
    let bad = d.path().join("bad.tsv");
    std::fs::write(
        &bad,
        "id\tja\ten\tkind\tparent\taliases\trule\na\tあ\tA\tcastle\tb\t\tK28\n",
    )
    .unwrap();
    let o = kifu(d.path(), &["tags", "--list", "--taxonomy", "bad.tsv"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&o.stderr).contains("bad.tsv:2:"),
        "{o:?}"
    );
}

/// `kifu convert FILE --to TARGET -o - ARGS` (standard output).
fn converted(dir: &Path, file: &str, target: &str, args: &[&str]) -> String {
    let mut a = vec!["convert", file, "--to", target, "-o", "-"];
    a.extend(args);
    let o = kifu(dir, &a);
    assert_eq!(o.status.code(), Some(0), "{args:?}: {o:?}");
    String::from_utf8(o.stdout).unwrap()
}

#[test]
fn annotate_writes_the_headers_each_format_reads() {
    let d = tempfile::tempdir().unwrap();
    let p = d.path();
    std::fs::write(p.join("m.usi"), MINO).unwrap();
    std::fs::write(p.join("h.usi"), HANDICAP).unwrap();
    let kif = converted(p, "m.usi", "kifu", &["--annotate"]);
    assert!(kif.contains("戦型：四間飛車\n"), "{kif}");
    assert!(kif.contains("先手の囲い：美濃囲い\n"), "{kif}");
    assert!(!converted(p, "m.usi", "kifu", &[]).contains("戦型"));
    let csa = converted(p, "m.usi", "csa", &["--annotate"]);
    assert!(csa.contains("$OPENING:四間飛車\n"), "{csa}");
    // CSA has no field for a castle: it is counted as a dropped header.
    assert!(!csa.contains("美濃"), "{csa}");
    let psn = converted(p, "m.usi", "psn", &["--annotate"]);
    assert!(psn.contains("[Opening \"四間飛車\"]"), "{psn}");
    assert!(psn.contains("[先手の囲い \"美濃囲い\"]"), "{psn}");
    let jkf: serde_json::Value =
        serde_json::from_str(&converted(p, "m.usi", "jkf", &["--annotate"])).unwrap();
    assert_eq!(jkf["header"]["戦型"], "四間飛車");
    assert_eq!(jkf["header"]["先手の囲い"], "美濃囲い");
    // A handicap game: the castle and the opening (issue 38).
    let kif = converted(p, "h.usi", "kifu", &["--annotate"]);
    assert!(
        kif.contains("先手の囲い：美濃囲い\n") && kif.contains("戦型：四間飛車\n"),
        "{kif}"
    );
    // The record's own header is kept unless asked.
    let own = kif.replace("先手の囲い：美濃囲い", "先手の囲い：銀冠");
    std::fs::write(p.join("own.kifu"), own).unwrap();
    let kept = converted(p, "own.kifu", "kifu", &["--annotate"]);
    assert!(
        kept.contains("先手の囲い：銀冠\n") && !kept.contains("美濃"),
        "{kept}"
    );
    let replaced = converted(
        p,
        "own.kifu",
        "kifu",
        &["--annotate", "--annotate-overwrite"],
    );
    assert!(
        replaced.contains("先手の囲い：美濃囲い\n") && !replaced.contains("銀冠"),
        "{replaced}"
    );
}

/// A taxonomy file of one's own is bounded (issue 36): more than
/// `MAX_TAXONOMY_BYTES` is refused without being held, a rule nested
/// deeper than `MAX_RULE_DEPTH` is an error at its place (it overflowed
/// the stack: SIGABRT, exit 134), each a usage error (exit 2).
#[test]
fn taxonomy_files_and_rules_are_bounded() {
    let d = tempfile::tempdir().unwrap();
    let head = "id\tja\ten\tkind\tparent\taliases\trule\n";
    let max = kifu::tags::MAX_TAXONOMY_BYTES;
    let depth = kifu::tags::rule::MAX_RULE_DEPTH;
    let cases = [
        // Parentheses, negations, both, far past the stack.
        (
            "parens.tsv",
            format!("{}K28{}", "(".repeat(3000), ")".repeat(3000)),
        ),
        ("nots.tsv", format!("{}K28", "!".repeat(100_000))),
        (
            "mixed.tsv",
            format!("{}K28{}", "!(".repeat(2000), ")".repeat(2000)),
        ),
    ];
    for (name, rule) in &cases {
        std::fs::write(
            d.path().join(name),
            format!("{head}deep\t深\tDeep\tcastle\t\t\t{rule}\n"),
        )
        .unwrap();
        let o = kifu(d.path(), &["tags", "--list", "--taxonomy", name]);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{name}: {err}");
        // Line 2, the rule's column (7th cell) plus the place past the cap.
        let at = format!(
            "{name}:2:{}:",
            1 + "deep\t深\tDeep\tcastle\t\t\t".chars().count() + depth
        );
        assert!(err.contains(&at) && err.contains("nested"), "{name}: {err}");
    }
    // Nested up to the cap: read.
    std::fs::write(
        d.path().join("ok.tsv"),
        format!(
            "{head}deep\t深\tDeep\tcastle\t\t\t{}K28{}\n",
            "(".repeat(depth),
            ")".repeat(depth)
        ),
    )
    .unwrap();
    let o = kifu(d.path(), &["tags", "--list", "--taxonomy", "ok.tsv"]);
    assert_eq!(o.status.code(), Some(0), "{o:?}");
    // One byte over the size cap (comment lines): refused, not parsed.
    let mut big = head.to_string();
    while big.len() <= max {
        big.push_str("# a comment line to make the file large\n");
    }
    std::fs::write(d.path().join("big.tsv"), &big).unwrap();
    let o = kifu(d.path(), &["tags", "--list", "--taxonomy", "big.tsv"]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(
        err.contains("big.tsv") && err.contains("larger than 1 MiB"),
        "{err}"
    );
    // At the cap: read.
    big.truncate(max - 64);
    let cut = big.rfind('\n').unwrap() + 1;
    big.truncate(cut);
    big.push_str("one\t一\tOne\tcastle\t\t\tK28\n");
    assert!(big.len() <= max);
    std::fs::write(d.path().join("full.tsv"), &big).unwrap();
    let o = kifu(d.path(), &["tags", "--list", "--taxonomy", "full.tsv"]);
    assert_eq!(o.status.code(), Some(0), "{o:?}");
}

/// An endless taxonomy file (`/dev/zero`) is refused after the size cap,
/// in bounded memory (it grew to gigabytes): here under a 512 MiB
/// address-space limit.
#[test]
fn an_endless_taxonomy_file_is_refused() {
    if !Path::new("/dev/zero").exists() {
        eprintln!("skipped: no /dev/zero");
        return;
    }
    let o = Command::new("sh")
        .arg("-c")
        .arg("ulimit -v 524288 && exec \"$0\" tags --list --taxonomy /dev/zero")
        .arg(env!("CARGO_BIN_EXE_kifu"))
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(
        err.contains("/dev/zero") && err.contains("larger than"),
        "{err}"
    );
}

/// An unknown name is compared by its first `MAX_NAME_CHARS` characters
/// only (a 120 KB name took 10–24 s before its usage error), and shown so.
#[test]
fn long_unknown_names_are_cut_in_the_usage_error() {
    let d = games();
    let max = kifu::tags::MAX_NAME_CHARS;
    let long = format!("mino{}", "x".repeat(120_000));
    for flag in ["--opening", "--castle", "--style"] {
        let o = kifu(d.path(), &["select", "g.usi", flag, &long]);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{flag}");
        let shown = format!("is named `mino{}…`", "x".repeat(max - 4));
        assert!(
            err.contains(&shown),
            "{flag}: {}",
            &err[..err.len().min(300)]
        );
    }
    // The suggestions come from the compared part.
    let o = kifu(d.path(), &["select", "g.usi", "--castle", "minno"]);
    assert!(String::from_utf8_lossy(&o.stderr).contains("near: mino"));
}
