//! The words users type (issue 38): the domain's umbrella words (`穴熊`,
//! `矢倉`, `居飛車`, …) select every game under them, unknown words get
//! near names by meaning first, and the names show where people look
//! (`stats --tags` and `--summary`, `select --format json`, `kifu html`).
//!
//! The games are the taxonomy's own examples (fixtures/tags/examples.tsv),
//! one per entry, so a word is checked against every entry it must cover.

use std::collections::BTreeMap;
use std::path::Path;
use std::process::{Command, Output};

fn kifu(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_kifu"))
        .current_dir(dir)
        .args(args)
        .output()
        .unwrap()
}

/// The first example of each entry (sente's where there is one): entry
/// id → USI moves, in file order.
fn examples() -> Vec<(String, String)> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/tags/examples.tsv");
    let text = std::fs::read_to_string(path).unwrap();
    let mut seen = BTreeMap::new();
    let mut out = Vec::new();
    for l in text.lines().filter(|l| !l.starts_with('#')).skip(1) {
        let c: Vec<&str> = l.split('\t').collect();
        if c.len() == 4 && !c[0].starts_with('_') && seen.insert(c[0], ()).is_none() {
            out.push((c[0].to_string(), c[3].trim().to_string()));
        }
    }
    out
}

/// The USI line of an example: its moves from the start, or `sfen …
/// moves …` for an example from a handicap position.
fn usi_line(m: &str) -> String {
    if m.starts_with("sfen ") {
        format!("position {m}\n")
    } else {
        format!("position startpos moves {m}\n")
    }
}

/// A folder with `g.usi`: every example as one game, in order.
fn games() -> (tempfile::TempDir, Vec<String>) {
    let d = tempfile::tempdir().unwrap();
    let ex = examples();
    let text: String = ex.iter().map(|(_, m)| usi_line(m)).collect();
    std::fs::write(d.path().join("g.usi"), text).unwrap();
    (d, ex.into_iter().map(|(id, _)| id).collect())
}

/// The example ids of the games `kifu select g.usi FLAG WORD` lists.
fn selected(dir: &Path, ids: &[String], flag: &str, word: &str) -> Vec<String> {
    let o = kifu(dir, &["select", "g.usi", flag, word]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{flag} {word}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    String::from_utf8(o.stdout)
        .unwrap()
        .lines()
        .map(|l| {
            let n: usize = l.trim_start_matches("g.usi:").parse().unwrap();
            ids[n - 1].clone()
        })
        .collect()
}

#[test]
fn the_words_users_type_select_every_game_under_them() {
    let (d, ids) = games();
    let p = d.path();
    // Word (several spellings) → example games that must be selected, and
    // one that must not.
    let cases: &[(&str, &[&str], &[&str], &str)] = &[
        (
            "--castle",
            &["矢倉", "yagura", "Yagura castle"],
            &[
                "yagura",
                "silver_yagura",
                "half_yagura",
                "doi_yagura",
                "rapid_castle",
                "silver_standing_yagura",
                "kikusui_yagura",
                "yagura_anaguma",
            ],
            "mino",
        ),
        (
            "--castle",
            &["穴熊", "anaguma", "穴熊囲い"],
            &[
                "static_anaguma",
                "ranging_anaguma",
                "matsuo_anaguma",
                "silver_crown_anaguma",
                "big_four",
                "yagura_anaguma",
            ],
            "mino",
        ),
        (
            "--castle",
            &["美濃", "mino", "Mino castle"],
            &[
                "half_mino",
                "mino",
                "high_mino",
                "left_mino",
                "four_piece_mino",
                "kimura_mino",
                "gold_mino",
            ],
            "yagura",
        ),
        (
            "--castle",
            &["銀冠", "silver crowns", "ginkanmuri"],
            &[
                "silver_crown",
                "left_silver_crown",
                "edge_king_silver_crown",
                "silver_crown_anaguma",
            ],
            "mino",
        ),
        (
            "--opening",
            &["居飛車", "static rook", "ibisha"],
            &["static", "opposing"],
            "double_ranging",
        ),
        (
            "--opening",
            &["振り飛車", "ranging rook", "furibisha"],
            &[
                "fourth_file_rook",
                "central_rook",
                "opposing",
                "double_ranging",
            ],
            "static",
        ),
        (
            "--opening",
            &["相居飛車", "double static rook", "ai-ibisha"],
            &["static"],
            "opposing",
        ),
        (
            "--opening",
            &["対抗形", "opposing", "static vs ranging", "taikokei"],
            &["opposing"],
            "static",
        ),
        (
            "--opening",
            &["相振り飛車", "double ranging rook", "aifuribisha"],
            &["double_ranging", "double_ranging_rook"],
            "static",
        ),
        (
            "--opening",
            &["急戦", "rapid attack", "kyusen"],
            &[
                "rapid_advancing_silver",
                "climbing_silver",
                "silver_37_super_rapid",
                "yonenaga_rapid_yagura",
            ],
            "static",
        ),
        (
            "--opening",
            &["持久戦", "slow game", "jikyusen"],
            &["ranging_slow_countermeasure", "static_anaguma", "left_mino"],
            "fourth_file_rook",
        ),
    ];
    for (flag, words, under, not) in cases {
        for word in *words {
            let got = selected(p, &ids, flag, word);
            for id in *under {
                assert!(
                    got.iter().any(|g| g == id),
                    "{flag} {word}: the `{id}` game is missing from {got:?}"
                );
            }
            assert!(
                !got.iter().any(|g| g == not),
                "{flag} {word}: the `{not}` game is selected"
            );
        }
    }
    // An entry's own name still selects the entry and its descendants
    // only: 金矢倉 is not 片矢倉.
    let gold = selected(p, &ids, "--castle", "金矢倉");
    assert!(gold.iter().any(|g| g == "yagura"));
    assert!(!gold.iter().any(|g| g == "half_yagura"), "{gold:?}");
}

#[test]
fn unknown_words_get_near_names_by_meaning_then_spelling() {
    let (d, _) = games();
    let p = d.path();
    let err = |args: &[&str]| {
        let mut a = vec!["select", "g.usi"];
        a.extend(args);
        let o = kifu(p, &a);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        String::from_utf8(o.stderr).unwrap()
    };
    // By meaning: the umbrella and the anaguma castles (a shared word).
    let e = err(&["--castle", "穴熊囲"]);
    assert!(
        e.contains("error: ") && e.contains("no castle is named `穴熊囲` (near: anaguma, "),
        "{e}"
    );
    for id in ["ranging_anaguma", "static_anaguma"] {
        assert!(e.contains(id), "{e}");
    }
    // English words share a word: `anaguma` in `yagura anaguma`.
    let e = err(&["--castle", "matsuo anaguma castle"]);
    assert!(e.contains("(near: anaguma"), "{e}");
    assert!(e.contains("matsuo_anaguma"), "{e}");
    // By spelling.
    let e = err(&["--castle", "minno"]);
    assert!(e.contains("(near: mino"), "{e}");
    // A castle word given as an opening says where it belongs.
    let e = err(&["--opening", "穴熊"]);
    assert!(e.contains("no opening is named `穴熊` (near: "), "{e}");
    assert!(e.contains("one_straight_anaguma"), "{e}");
    assert!(e.contains("--castle 穴熊"), "{e}");
}

/// The example game of `id` alone in a folder.
fn one(id: &str) -> tempfile::TempDir {
    let d = tempfile::tempdir().unwrap();
    let (_, moves) = examples().into_iter().find(|(i, _)| i == id).unwrap();
    std::fs::write(d.path().join("g.usi"), usi_line(&moves)).unwrap();
    d
}

#[test]
fn the_names_table_lists_umbrellas_the_game_columns_keep_the_specific_names() {
    let d = one("static_anaguma");
    let p = d.path();
    let o = kifu(
        p,
        &["stats", "g.usi", "-o", "games.csv", "--tags", "names.csv"],
    );
    assert_eq!(o.status.code(), Some(0), "{o:?}");
    let games = std::fs::read_to_string(p.join("games.csv")).unwrap();
    let mut lines = games.lines();
    let head: Vec<&str> = lines.next().unwrap().split(',').collect();
    let row: Vec<&str> = lines.next().unwrap().split(',').collect();
    let col = |name: &str| row[head.iter().position(|h| *h == name).unwrap()];
    assert_eq!(col("sente_castle"), "static_anaguma");
    let names = std::fs::read_to_string(p.join("names.csv")).unwrap();
    assert!(
        names.contains("g.usi,0,sente,castle,static_anaguma,居飛車穴熊,15\n"),
        "{names}"
    );
    assert!(
        names.contains("g.usi,0,sente,castle,anaguma,穴熊,15\n"),
        "{names}"
    );
}

#[test]
fn select_json_carries_each_sides_names_with_plies() {
    let d = one("fourth_file_rook");
    let o = kifu(d.path(), &["select", "g.usi", "--format", "json"]);
    assert_eq!(o.status.code(), Some(0), "{o:?}");
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let names = &v["names"];
    assert_eq!(names["sente"]["opening"][0]["id"], "fourth_file_rook");
    assert_eq!(names["sente"]["opening"][0]["ja"], "四間飛車");
    assert_eq!(names["sente"]["opening"][0]["ply"], 3);
    assert!(names["gote"]["castle"].as_array().unwrap().is_empty());
    // The fields of before are kept.
    assert_eq!(v["plies"], 3);
    assert_eq!(v["game"], 0);
}

#[test]
fn the_summary_lists_openings_and_castles_by_name() {
    let (d, _) = games();
    let o = kifu(
        d.path(),
        &["stats", "g.usi", "--summary", "-o", "games.csv"],
    );
    assert_eq!(o.status.code(), Some(0), "{o:?}");
    let err = String::from_utf8(o.stderr).unwrap();
    let at = err
        .find("most common openings (each side's most specific name")
        .unwrap_or_else(|| panic!("{err}"));
    let list = &err[at..];
    assert!(list.contains("四間飛車"), "{list}");
    assert!(err.contains("most common castles"), "{err}");
}

#[test]
fn the_html_page_shows_each_sides_opening_and_castle_with_its_ply() {
    let d = one("mino");
    let o = kifu(d.path(), &["html", "g.usi", "-o", "g.html"]);
    assert_eq!(o.status.code(), Some(0), "{o:?}");
    let page = std::fs::read_to_string(d.path().join("g.html")).unwrap();
    assert!(
        page.contains("<div class=\"names\" data-color=\"b\"><dt>☗</dt><dd>戦型: 四間飛車 (5手目) / 囲い: 美濃囲い (15手目)</dd></div>"),
        "{page}"
    );
}
