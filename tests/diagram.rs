//! Pictures of positions: every SVG is parsed with an XML parser and its
//! pieces, hands and highlighted squares are checked against the SFEN of
//! the position (read here independently of kifu's drawing code), for the
//! three variants, both orientations and every fixture game; BOD diagrams
//! read back as the same position; the `board` and `html` commands.

#[path = "support/svg_check.rs"]
mod svg_check;

use kifu::diagram::{self, Notation, Options};
use kifu::read::{read_all, Format, Game};
use kifu::validate::{validate, ValidateOptions};
use kifu::{Move, Position};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use svg_check::{check_svg, has_class};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Valid games of the fixture tree (all formats), with their file names.
fn fixture_games() -> Vec<(String, Game)> {
    let mut out = Vec::new();
    let dirs = [
        "fixtures/examples",
        "fixtures/kif/ok",
        "fixtures/ki2/ok",
        "fixtures/csa/ok",
        "fixtures/psn/ok",
        "fixtures/jkf/ok",
        "fixtures/usi/ok",
    ];
    for d in dirs {
        let mut files: Vec<PathBuf> = std::fs::read_dir(root().join(d))
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| Format::from_path(p).is_some())
            .collect();
        files.sort();
        for p in files {
            let bytes = std::fs::read(&p).unwrap();
            for g in read_all(&bytes, Format::from_path(&p), &Default::default()) {
                if validate(&g, &ValidateOptions::default()).ok {
                    out.push((format!("{} game {}", p.display(), g.index + 1), g));
                }
            }
        }
    }
    out
}

/// Positions before every main-line move and after the last.
fn main_line(g: &Game) -> Vec<Position> {
    let mut pos = Position::from_setup_unchecked(&g.record.start.setup);
    let mut v = vec![pos];
    for n in &g.record.main.moves {
        pos.play(n.mv).unwrap();
        v.push(pos);
    }
    v
}

#[test]
fn svg_matches_every_fixture_position() {
    let games = fixture_games();
    assert!(games.len() > 50, "only {} fixture games", games.len());
    let mut variants = BTreeMap::new();
    let mut checked = 0;
    for (name, g) in &games {
        let positions = main_line(g);
        let len = positions.len() - 1;
        *variants.entry(g.record.variant().name()).or_insert(0) += 1;
        let mut plies = vec![0, len / 2, len];
        plies.dedup();
        for k in plies {
            for flip in [false, true] {
                let last = (k > 0).then(|| g.record.main.moves[k - 1].mv);
                let opts = Options {
                    last_move: last,
                    caption: last
                        .map(|m| diagram::caption(&positions[k - 1], m, None, Notation::Kif)),
                    names: [Some("先手 <&>".into()), Some("\"gote\"".into())],
                    flip,
                    ..Options::default()
                };
                let pos = &positions[k];
                let svg = diagram::svg(pos, &opts);
                checked += check_svg(
                    &svg,
                    &pos.sfen(),
                    last,
                    flip,
                    &format!("{name} ply {k} flip {flip}"),
                );
            }
        }
    }
    assert!(checked > 10_000, "{checked} pieces checked");
    for v in ["standard", "minishogi", "doubutsu"] {
        assert!(
            variants.contains_key(v),
            "no {v} fixture game: {variants:?}"
        );
    }
}

#[test]
fn svg_of_drops_promotions_and_full_hands() {
    // A drop lights one square; promoted pieces and big hands are counted.
    let cases = [
        (
            "lnsgk2nl/1r4gs1/p1pppp1pp/1p4p2/7P1/2P6/PP1PPPPbP/1SG4R1/LN2KGSNL b Bp 13",
            "B*4e",
        ),
        ("8k/9/9/9/9/9/9/9/K8 b RB2G2S2N2L9Prb2g2s2n2l9p 1", "P*5e"),
        ("4k4/9/4P4/9/9/9/9/9/4K4 b G 1", "5c5b+"),
        ("3k1/5/5/5/K4 b 2P 1", "P*2c"),
        ("1l1/1c1/1C1/1L1 b EG 1", "E*1b"),
    ];
    for (sfen, usi) in cases {
        // Drawing does not judge: any setup is drawn as it is.
        let setup = kifu::rules::parse_sfen(sfen, None).unwrap_or_else(|e| panic!("{sfen}: {e}"));
        let mut pos = Position::from_setup_unchecked(&setup);
        let mv = Move::from_usi(usi, pos.variant()).unwrap();
        pos.play_unchecked(mv);
        for flip in [false, true] {
            let opts = Options {
                last_move: Some(mv),
                flip,
                ..Options::default()
            };
            check_svg(&diagram::svg(&pos, &opts), &pos.sfen(), Some(mv), flip, usi);
        }
    }
}

#[test]
fn bod_reads_back_as_the_same_position() {
    let mut n = 0;
    for (name, g) in fixture_games() {
        let positions = main_line(&g);
        let k = positions.len() / 2;
        let pos = &positions[k];
        let mut opts = Options::default();
        if k > 0 {
            let mv = g.record.main.moves[k - 1].mv;
            opts.last_move_ki2 = Some(diagram::move_text(
                &positions[k - 1],
                mv,
                None,
                Notation::Kif,
            ));
        }
        let text = diagram::bod(pos, &opts);
        let kif = format!("{text}手数----指手--\n");
        let back = read_all(kif.as_bytes(), Some(Format::Kif), &Default::default());
        assert_eq!(back.len(), 1, "{name}");
        assert!(
            !back[0].has_errors(),
            "{name}: {:?}\n{text}",
            back[0].findings
        );
        let start = Position::from_setup_unchecked(&back[0].record.start.setup);
        assert_eq!(start.sfen(), pos.sfen(), "{name}\n{text}");
        n += 1;
    }
    assert!(n > 50);
}

// ------------------------------------------------------------- commands

fn kifu() -> Command {
    Command::new(env!("CARGO_BIN_EXE_kifu"))
}

fn run(args: &[&str]) -> Output {
    kifu()
        .args(args)
        .env_remove("NO_COLOR")
        .env_remove("CLICOLOR_FORCE")
        .stdin(Stdio::null())
        .output()
        .expect("run kifu")
}

fn fixture(p: &str) -> String {
    root()
        .join("fixtures")
        .join(p)
        .to_string_lossy()
        .into_owned()
}

fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).unwrap()
}

#[test]
fn board_text_is_plain_when_piped_and_coloured_on_request() {
    let f = fixture("examples/lance-handicap.kif");
    let plain = run(&["board", &f, "--ply", "5"]);
    assert_eq!(plain.status.code(), Some(0));
    let text = stdout(&plain);
    assert!(!text.contains('\u{1b}'), "{text}");
    assert!(text.starts_with("☖ 上手 "), "{text}");
    assert!(text.contains("|v香v桂v銀v金v王v金v銀v桂 ・|一"), "{text}");
    assert!(text.ends_with("5手目 △４四歩  ☗下手番\n"), "{text}");
    let coloured = run(&["board", &f, "--ply", "5", "--color", "always"]);
    let c = stdout(&coloured);
    assert!(c.contains("\u{1b}["));
    assert_eq!(c.matches("43m").count(), 2, "two lit squares");
    // NO_COLOR wins over auto; never is never.
    let o = kifu()
        .args(["board", &f, "--color", "never"])
        .output()
        .unwrap();
    assert!(!stdout(&o).contains('\u{1b}'));
}

#[test]
fn board_svg_and_bod_files() {
    let dir = tempfile::tempdir().unwrap();
    let svg = dir.path().join("p.svg");
    let f = fixture("examples/comments-and-variations.psn");
    let o = run(&[
        "board",
        &f,
        "--ply",
        "30",
        "--notation",
        "psn",
        "-o",
        svg.to_str().unwrap(),
    ]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let text = std::fs::read_to_string(&svg).unwrap();
    let doc = roxmltree::Document::parse(&text).unwrap();
    let caption = doc.descendants().find(|n| has_class(n, "caption")).unwrap();
    assert_eq!(caption.text(), Some("30. Px2d"));
    let names: Vec<&str> = doc
        .descendants()
        .filter(|n| has_class(n, "name"))
        .filter_map(|n| n.text())
        .collect();
    assert_eq!(names, ["☗ Veld Jan", "☖ Bakker Piet"]);
    // Never overwritten without --force: a refused output, exit 2.
    let again = run(&["board", &f, "-o", svg.to_str().unwrap()]);
    assert_eq!(again.status.code(), Some(2));
    assert_eq!(std::fs::read_to_string(&svg).unwrap(), text);
    let forced = run(&["board", &f, "--force", "-o", svg.to_str().unwrap()]);
    assert_eq!(forced.status.code(), Some(0));
    assert_ne!(std::fs::read_to_string(&svg).unwrap(), text);
    // An input is never an output.
    let copy = dir.path().join("g.psn");
    std::fs::copy(&f, &copy).unwrap();
    let o = run(&[
        "board",
        copy.to_str().unwrap(),
        "--force",
        "--to",
        "bod",
        "-o",
        copy.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(std::fs::read(&copy).unwrap(), std::fs::read(&f).unwrap());
    // BOD: the last move names its square.
    let o = run(&["board", &fixture("psn/ok/minishogi.psn"), "--to", "bod"]);
    assert_eq!(
        stdout(&o),
        "後手の持駒：歩　\n  ５ ４ ３ ２ １\n+---------------+\n| ・v角v銀v金v玉|一\n|v飛 ・ ・ ・ ・|二\n\
| ・ ・ ・ ・v歩|三\n| ・ ・ ・ ・ ・|四\n| 玉 金 銀 角 飛|五\n+---------------+\n先手の持駒：なし\n\
手数＝4  △５二飛  まで\n"
    );
}

#[test]
fn board_from_sfen_for_every_variant() {
    for sfen in [
        "sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
        "rbsgk/4p/5/P4/KGSBR b - 1",
        "gle/1c1/1C1/ELG w - 1",
    ] {
        let o = run(&["board", "--sfen", sfen, "--to", "svg"]);
        assert_eq!(o.status.code(), Some(0), "{sfen}");
        let plain = sfen.trim_start_matches("sfen ");
        check_svg(&stdout(&o), plain, None, false, sfen);
    }
    let bad = run(&["board", "--sfen", "lnsgk/9 b - 1"]);
    assert_eq!(bad.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&bad.stderr).contains("--sfen"));
}

#[test]
fn board_every_ply_writes_one_file_per_ply() {
    let dir = tempfile::tempdir().unwrap();
    let f = fixture("psn/ok/doubutsu.psn");
    let o = run(&[
        "board",
        &f,
        "--every-ply",
        "--out-dir",
        dir.path().to_str().unwrap(),
    ]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let mut names: Vec<String> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(
        names,
        [
            "doubutsu-0000.svg",
            "doubutsu-0001.svg",
            "doubutsu-0002.svg",
            "doubutsu-0003.svg"
        ]
    );
    let games = read_all(
        &std::fs::read(&f).unwrap(),
        Some(Format::Psn),
        &Default::default(),
    );
    let positions = main_line(&games[0]);
    for (k, name) in names.iter().enumerate() {
        let svg = std::fs::read_to_string(dir.path().join(name)).unwrap();
        let last = (k > 0).then(|| games[0].record.main.moves[k - 1].mv);
        check_svg(&svg, &positions[k].sfen(), last, false, name);
    }
}

#[test]
fn board_errors() {
    let f = fixture("examples/lance-handicap.kif");
    let o = run(&["board", &f, "--ply", "9999"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("past its end"));
    let o = run(&["board", &f, "--game", "2"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("1 game in the file"));
    let o = run(&["board", "/nonexistent/x.kif"]);
    assert_eq!(o.status.code(), Some(2));
    // An illegal move before the ply: reported like validate, exit 1.
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.csa");
    std::fs::write(&bad, "V2.2\nPI\n+\n+7776FU\n-3334FU\n+0055FU\n").unwrap();
    let o = run(&["board", bad.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("bad.csa:6:") && err.contains("error[not-in-hand]"),
        "{err}"
    );
    // Up to the illegal move, the game can still be drawn.
    let o = run(&["board", bad.to_str().unwrap(), "--ply", "2"]);
    assert_eq!(o.status.code(), Some(0));
    let o = run(&["board"]);
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn help_has_examples() {
    for cmd in ["board", "html"] {
        let o = run(&[cmd, "--help"]);
        assert_eq!(o.status.code(), Some(0));
        let text = stdout(&o);
        assert!(
            text.contains("Examples:") && text.contains(&format!("kifu {cmd} ")),
            "{text}"
        );
    }
}

fn page_data(page: &str) -> serde_json::Value {
    let start = page.find("id=\"kifu-data\">").unwrap() + "id=\"kifu-data\">".len();
    let end = start + page[start..].find("</script>").unwrap();
    serde_json::from_str(&page[start..end]).unwrap()
}

#[test]
fn html_pages_are_self_contained_and_small() {
    let dir = tempfile::tempdir().unwrap();
    // A 169-move game with 469 comment lines.
    let f = fixture("kif/ok/shogihome-engine-comments.kifu");
    let out = dir.path().join("g.html");
    let o = run(&["html", &f, "-o", out.to_str().unwrap()]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let page = std::fs::read_to_string(&out).unwrap();
    assert!(page.len() < 200 * 1024, "{} bytes", page.len());
    for external in ["src=", "href=", "http://", "https://", "@import", "url("] {
        let hits: Vec<&str> = page.matches(external).collect();
        // The SVG namespace is the only URL in the page.
        assert!(
            hits.is_empty()
                || (external == "http://"
                    && page.matches("http://www.w3.org/2000/svg").count() == hits.len()),
            "{external} in the page"
        );
    }
    let d = page_data(&page);
    let nodes = d["nodes"].as_array().unwrap();
    let games = read_all(&std::fs::read(&f).unwrap(), None, &Default::default());
    let positions = main_line(&games[0]);
    // Every main-line node holds kifu's own SFEN.
    let mut x = 0usize;
    for pos in &positions {
        assert_eq!(nodes[x]["s"], pos.sfen().as_str());
        match nodes[x]["c"].as_array().and_then(|c| c.first()) {
            Some(c) => x = c.as_u64().unwrap() as usize,
            None => break,
        }
    }
}

#[test]
fn html_out_dir_names_and_invalid_games() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("in");
    std::fs::create_dir(&input).unwrap();
    std::fs::copy(fixture("examples/two-games.csa"), input.join("two.csa")).unwrap();
    std::fs::copy(fixture("examples/variations.jkf"), input.join("one.jkf")).unwrap();
    std::fs::write(
        input.join("bad.csa"),
        "V2.2\nPI\n+\n+7776FU\n-3334FU\n+0055FU\n",
    )
    .unwrap();
    let out = dir.path().join("out");
    let o = run(&[
        "html",
        input.to_str().unwrap(),
        "--out-dir",
        out.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(1), "the bad game fails the run");
    assert!(String::from_utf8_lossy(&o.stderr).contains("error[not-in-hand]"));
    let mut names: Vec<String> = std::fs::read_dir(&out)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(
        names,
        [
            "explorer.html",
            "index.html",
            "one.html",
            "two-0001.html",
            "two-0002.html"
        ]
    );
    // Several games into one -o: the first is written, the rest refused.
    let one = dir.path().join("x.html");
    let o = run(&[
        "html",
        &fixture("examples/two-games.csa"),
        "-o",
        one.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(1));
    assert!(Path::new(&one).exists());
}

/// The rows embedded in an index page.
fn index_rows(page: &str) -> Vec<serde_json::Value> {
    let start = page.find("id=\"kifu-rows\">").unwrap() + "id=\"kifu-rows\">".len();
    let end = start + page[start..].find("</script>").unwrap();
    serde_json::from_str(&page[start..end]).unwrap()
}

#[test]
fn html_out_dir_writes_the_index_and_refuses_a_page_named_index() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("in");
    std::fs::create_dir_all(input.join("sub dir")).unwrap();
    std::fs::copy(fixture("examples/two-games.csa"), input.join("two.csa")).unwrap();
    std::fs::copy(
        fixture("convert/floodgate-eval.csa"),
        input.join("sub dir/eval.csa"),
    )
    .unwrap();
    std::fs::write(
        input.join("hostile.csa"),
        "V2.2\nN+</script><script>alert(1)</script>\nN-b\u{2028}\nPI\n+\n+7776FU\n%TORYO\n",
    )
    .unwrap();
    let out = dir.path().join("out");
    let o = run(&[
        "html",
        input.to_str().unwrap(),
        "--out-dir",
        out.to_str().unwrap(),
    ]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let page = std::fs::read_to_string(out.join("index.html")).unwrap();
    assert_eq!(
        page.matches("</script>").count(),
        3,
        "the name cannot close the data"
    );
    let rows = index_rows(&page);
    let mut hrefs: Vec<&str> = rows.iter().map(|r| r[0].as_str().unwrap()).collect();
    hrefs.sort();
    assert_eq!(
        hrefs,
        [
            "hostile.html",
            "sub%20dir/eval.html",
            "two-0001.html",
            "two-0002.html"
        ]
    );
    for h in &hrefs {
        let path = h.replace("%20", " ");
        assert!(out.join(path).is_file(), "{h}");
    }
    let hostile = rows.iter().find(|r| r[0] == "hostile.html").unwrap();
    assert_eq!(hostile[1], "</script><script>alert(1)</script>");
    assert_eq!(hostile[9], "sente_win");
    assert_eq!(hostile[11], 1);
    // The evaluation graph where the record carries evaluations only.
    let eval = std::fs::read_to_string(out.join("sub dir/eval.html")).unwrap();
    assert!(eval.contains("id=\"evalgraph\""));
    assert!(eval.contains("\"ev\":[[1,"), "the scores are embedded");
    let plain = std::fs::read_to_string(out.join("hostile.html")).unwrap();
    assert!(!plain.contains("id=\"evalgraph\""));
    // A second run refuses the index as it refuses the pages (no --force).
    let o = run(&[
        "html",
        input.to_str().unwrap(),
        "--out-dir",
        out.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2));
    // An input whose page would be index.html (any letter case) is refused
    // before anything is written.
    std::fs::copy(fixture("examples/variations.jkf"), input.join("Index.jkf")).unwrap();
    let out2 = dir.path().join("out2");
    let o = run(&[
        "html",
        input.to_str().unwrap(),
        "--out-dir",
        out2.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("the index of the pages"), "{err}");
    assert!(!out2.join("two-0001.html").exists());
}

#[test]
fn html_out_dir_writes_the_collections_explorer() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("in");
    std::fs::create_dir_all(&input).unwrap();
    for f in ["two-games.csa", "lance-handicap.kif", "relative-marks.ki2"] {
        std::fs::copy(fixture(&format!("examples/{f}")), input.join(f)).unwrap();
    }
    let inp = input.to_str().unwrap();
    let out = dir.path().join("out");
    let o = run(&[
        "html",
        inp,
        "--out-dir",
        out.to_str().unwrap(),
        "--explorer-min-games",
        "1",
        "--explorer-plies",
        "12",
    ]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let index = std::fs::read_to_string(out.join("index.html")).unwrap();
    assert!(
        index.contains("explorer.html"),
        "the index links the explorer"
    );
    // The explorer is the tree `kifu tree` makes of the same games, built
    // in the same replay as the pages.
    let explorer = std::fs::read_to_string(out.join("explorer.html")).unwrap();
    let tree_page = dir.path().join("tree.html");
    let o = run(&[
        "tree",
        inp,
        "--min-games",
        "1",
        "--plies",
        "12",
        "--format",
        "html",
        "-o",
        tree_page.to_str().unwrap(),
    ]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let tree = std::fs::read_to_string(&tree_page).unwrap();
    assert_eq!(
        explorer.replace("kifu html: ", "kifu tree: "),
        tree,
        "the explorer page differs from kifu tree's"
    );
    assert!(explorer.contains("7g7f"), "moves are in the explorer");
    // --no-explorer writes none and links none.
    let out2 = dir.path().join("out2");
    let o = run(&[
        "html",
        inp,
        "--out-dir",
        out2.to_str().unwrap(),
        "--no-explorer",
    ]);
    assert_eq!(o.status.code(), Some(0));
    assert!(!out2.join("explorer.html").exists());
    assert!(!std::fs::read_to_string(out2.join("index.html"))
        .unwrap()
        .contains("explorer.html"));
    // An input whose page would be explorer.html is refused before
    // anything is written (or taken with --no-explorer).
    std::fs::copy(
        fixture("examples/variations.jkf"),
        input.join("explorer.jkf"),
    )
    .unwrap();
    let out3 = dir.path().join("out3");
    let o = run(&["html", inp, "--out-dir", out3.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("the opening explorer"), "{err}");
    assert!(!out3.exists() || std::fs::read_dir(&out3).unwrap().next().is_none());
    let o = run(&[
        "html",
        inp,
        "--out-dir",
        out3.to_str().unwrap(),
        "--no-explorer",
    ]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(out3.join("explorer.html").is_file());
}

#[test]
fn board_reads_standard_input_and_neutralises_control_characters() {
    use std::io::Write;
    let mut child = kifu()
        .args(["board", "-", "--from", "csa", "--color", "always"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(b"V2.2\nN+\x1b[2Jevil\nPI\n+\n+7776FU\n")
        .unwrap();
    let o = child.wait_with_output().unwrap();
    assert_eq!(o.status.code(), Some(0));
    let text = stdout(&o);
    // The player's name cannot send escapes to the terminal.
    assert!(text.contains("☗ 先手  [2Jevil  持駒：なし"), "{text}");
    assert!(!text.contains("\u{1b}[2J"));
    assert!(text.contains("1手目 ▲７六歩"));
}
