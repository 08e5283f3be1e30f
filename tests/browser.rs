//! The HTML viewer in a real browser: headless Chromium (driven by
//! tests/browser/drive.js with playwright-core) opens pages that `kifu html`
//! wrote for several fixture games, steps through them with the keyboard,
//! the buttons and clicks on moves, into a variation and back, opens
//! `#ply=N`, flips the board, and reads the shown position from
//! `#board[data-sfen]`; every read is compared with kifu's own replay. The
//! browser-rendered SVG is checked like `kifu board`'s, and a screenshot and
//! the SVG of each page are kept under `target/browser/` (CI artefacts).
//!
//! Needs `chromium` (or `KIFU_CHROMIUM=/path`), `node` and
//! `npm ci --prefix tests/browser`; without them it is reported `ignored`,
//! with the reason (this binary runs on `tests/support/trials.rs`,
//! `harness = false`). `.ci/run` installs all three.

#[path = "support/svg_check.rs"]
mod svg_check;
#[path = "support/trials.rs"]
mod trials;

use kifu::read::{read_all, Format};
use kifu::record::{Line, Record};
use kifu::{Move, Position};
use serde_json::{json, Value};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use trials::Skip;

fn main() {
    trials::main(trials![
        viewer_in_headless_chromium,
        site_in_headless_chromium,
        tree_explorer_in_headless_chromium
    ]);
}

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The browser: `KIFU_CHROMIUM`, else the first of its names on `PATH`.
fn chromium() -> Result<PathBuf, Skip> {
    trials::wanted("chromium")?;
    if let Some(p) = std::env::var_os("KIFU_CHROMIUM") {
        return Some(PathBuf::from(p))
            .filter(|p| p.is_file())
            .ok_or_else(|| Skip::new("chromium", "KIFU_CHROMIUM does not name a file"));
    }
    [
        "chromium",
        "chromium-browser",
        "google-chrome",
        "google-chrome-stable",
    ]
    .iter()
    .find_map(|n| trials::program(n).ok())
    .ok_or_else(|| {
        Skip::new(
            "chromium",
            "no chromium (apt-get install chromium, or set KIFU_CHROMIUM)",
        )
    })
}

/// What the test needs: the browser (returned), node and playwright-core.
fn needs() -> Result<PathBuf, Skip> {
    let chromium = chromium()?;
    trials::program("node")?;
    trials::wanted("npm:playwright-core")?;
    if !root()
        .join("tests/browser/node_modules/playwright-core/package.json")
        .is_file()
    {
        return Err(Skip::new(
            "npm:playwright-core",
            "playwright-core is not installed (npm ci --prefix tests/browser)",
        ));
    }
    Ok(chromium)
}

/// Positions after each move of `line` from `pos` (index 0 = `pos`).
fn positions(line: &Line, mut pos: Position) -> Vec<Position> {
    let mut v = vec![pos];
    for n in &line.moves {
        pos.play(n.mv).unwrap();
        v.push(pos);
    }
    v
}

struct Plan {
    actions: Vec<Value>,
    /// Read id → (SFEN, flipped, expected hash if any).
    expect: HashMap<String, (String, bool, Option<String>)>,
    /// SVG file → (SFEN, last move) for the browser-drawn pictures.
    svgs: Vec<(PathBuf, String, Option<Move>)>,
}

impl Plan {
    fn read(&mut self, id: &str, pos: &Position, flip: bool, hash: Option<String>) {
        self.actions.push(json!({ "read": id }));
        self.expect.insert(id.to_string(), (pos.sfen(), flip, hash));
    }
    fn key(&mut self, key: &str, times: usize) {
        self.actions.push(json!({ "key": key, "times": times }));
    }
    fn click(&mut self, selector: &str) {
        self.actions.push(json!({ "click": selector }));
    }
}

fn plan_page(name: &str, rec: &Record, out: &Path) -> (Plan, bool) {
    let start = Position::from_setup_unchecked(&rec.start.setup);
    let main = positions(&rec.main, start);
    let len = main.len() - 1;
    let mut p = Plan {
        actions: Vec::new(),
        expect: HashMap::new(),
        svgs: Vec::new(),
    };
    let id = |s: &str| format!("{name}:{s}");
    let h = |k: usize| Some(format!("#ply={k}"));
    p.read(&id("open"), &main[0], false, None);
    let n1 = len.min(7);
    p.key("ArrowRight", n1);
    p.read(&id("right"), &main[n1], false, h(n1));
    if n1 >= 2 {
        p.key("ArrowLeft", 2);
        p.read(&id("left"), &main[n1 - 2], false, h(n1 - 2));
    }
    p.key("End", 1);
    p.read(&id("end"), &main[len], false, h(len));
    p.key("Home", 1);
    p.read(&id("home"), &main[0], false, h(0));
    let m = len.min(12);
    p.click(&format!("#moves li:nth-child({})", m + 1));
    p.read(&id("click-move"), &main[m], false, h(m));
    p.click("#next");
    p.click("#next");
    let a = (m + 2).min(len);
    p.read(&id("next"), &main[a], false, None);
    p.click("#prev");
    p.read(&id("prev"), &main[a.saturating_sub(1)], false, None);
    p.click("#last");
    p.read(&id("last"), &main[len], false, None);
    p.click("#first");
    p.read(&id("first"), &main[0], false, None);
    let k = len / 2;
    p.actions.push(json!({ "goto": format!("#ply={k}") }));
    p.read(&id("hash"), &main[k], false, h(k));
    // Flip: same position, the board seen from gote's side.
    p.key("f", 1);
    p.read(&id("flip"), &main[k], true, None);
    let svg = out.join(format!("{name}.svg"));
    p.actions.push(json!({ "save_svg": svg }));
    p.svgs.push((
        svg,
        main[k].sfen(),
        (k > 0).then(|| rec.main.moves[k - 1].mv),
    ));
    p.actions
        .push(json!({ "screenshot": out.join(format!("{name}.png")) }));
    p.key("f", 1);
    p.read(&id("unflip"), &main[k], false, None);
    // Variations: the first main-line move that has alternatives.
    let mut has_variation = false;
    if let Some(i) = rec.main.moves.iter().position(|n| !n.variations.is_empty()) {
        has_variation = true;
        let var = &rec.main.moves[i].variations[0];
        let vpos = positions(var, main[i]);
        p.actions.push(json!({ "goto": format!("#ply={}", i + 1) }));
        p.read(&id("branch"), &main[i + 1], false, h(i + 1));
        p.key("ArrowDown", 1);
        p.read(&id("alt-key"), &vpos[1], false, None);
        p.actions
            .push(json!({ "screenshot": out.join(format!("{name}-variation.png")) }));
        let j = (vpos.len() - 2).min(2);
        p.key("ArrowRight", j);
        p.read(&id("in-variation"), &vpos[1 + j], false, None);
        p.click("#back");
        p.read(&id("back"), &main[i + 1], false, h(i + 1));
        p.click("#alts button[data-alt=\"1\"]");
        p.read(&id("alt-click"), &vpos[1], false, None);
        p.key("ArrowLeft", 1);
        p.read(&id("alt-left"), &main[i], false, h(i));
        p.key("ArrowRight", 1);
        p.read(&id("alt-right"), &main[i + 1], false, h(i + 1));
        p.key("ArrowDown", 1);
        p.key("Escape", 1);
        p.read(&id("escape"), &main[i + 1], false, h(i + 1));
    }
    (p, has_variation)
}

fn viewer_in_headless_chromium() -> Result<(), Skip> {
    let chromium = needs()?;
    let out = root().join("target/browser");
    std::fs::create_dir_all(&out).unwrap();
    let pages = [
        ("variations-jkf", "examples/variations.jkf", "kif"),
        (
            "forks-kif",
            "kif/ok/shogidokoro-sjis-declared-utf8.kif",
            "kif",
        ),
        ("lance-handicap", "examples/lance-handicap.kif", "kif"),
        (
            "european-psn",
            "examples/comments-and-variations.psn",
            "psn",
        ),
        ("minishogi", "psn/ok/minishogi.psn", "kif"),
        ("doubutsu", "psn/ok/doubutsu.psn", "psn"),
        (
            "long-commented",
            "kif/ok/shogihome-engine-comments.kifu",
            "kif",
        ),
    ];
    let mut plan_pages = Vec::new();
    let mut all = Plan {
        actions: Vec::new(),
        expect: HashMap::new(),
        svgs: Vec::new(),
    };
    let mut variations = 0;
    for (name, fixture, notation) in pages {
        let input = root().join("fixtures").join(fixture);
        let html = out.join(format!("{name}.html"));
        let o = Command::new(env!("CARGO_BIN_EXE_kifu"))
            .args(["html", "--force", "--notation", notation, "-o"])
            .arg(&html)
            .arg(&input)
            .output()
            .unwrap();
        assert_eq!(
            o.status.code(),
            Some(0),
            "{}",
            String::from_utf8_lossy(&o.stderr)
        );
        let games = read_all(
            &std::fs::read(&input).unwrap(),
            Format::from_path(&input),
            &Default::default(),
        );
        let (plan, has_variation) = plan_page(name, &games[0].record, &out);
        variations += has_variation as usize;
        plan_pages.push(json!({
            "name": name,
            "url": format!("file://{}", html.display()),
            "actions": plan.actions,
        }));
        all.expect.extend(plan.expect);
        all.svgs.extend(plan.svgs);
    }
    assert!(variations >= 2, "pages with variations: {variations}");
    let plan_file = out.join("plan.json");
    std::fs::write(
        &plan_file,
        serde_json::to_string_pretty(&json!({ "pages": plan_pages })).unwrap(),
    )
    .unwrap();
    let o = Command::new("node")
        .current_dir(root().join("tests/browser"))
        .arg("drive.js")
        .arg(&plan_file)
        .arg(&chromium)
        .output()
        .unwrap();
    assert!(
        o.status.success(),
        "drive.js failed: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    let result: Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(result["errors"], json!([]), "script errors in the pages");
    assert_eq!(
        result["requests"],
        json!([]),
        "the pages reached the network"
    );
    let reads = result["reads"].as_array().unwrap();
    assert_eq!(reads.len(), all.expect.len());
    let mut problems = Vec::new();
    for r in reads {
        let id = r["id"].as_str().unwrap();
        let (sfen, flip, hash) = &all.expect[id];
        let got = r["sfen"].as_str().unwrap_or("");
        if got != sfen {
            problems.push(format!("{id}: shows {got}, kifu replays {sfen}"));
        }
        if r["svg_sfen"] != r["sfen"] {
            problems.push(format!(
                "{id}: the SVG shows {} but the board says {got}",
                r["svg_sfen"]
            ));
        }
        if r["flip"] != json!(flip.to_string()) {
            problems.push(format!("{id}: flip {} (expected {flip})", r["flip"]));
        }
        let pieces: u32 = svg_check::parse_sfen(sfen).board.values().sum();
        if r["pieces"] != json!(pieces) {
            problems.push(format!(
                "{id}: {} pieces drawn, {pieces} on the board",
                r["pieces"]
            ));
        }
        if r["current"] != json!(r["node"].to_string()) {
            problems.push(format!(
                "{id}: move list highlights {} not {}",
                r["current"], r["node"]
            ));
        }
        if let Some(h) = hash {
            if r["hash"] != json!(h) {
                problems.push(format!("{id}: hash {} (expected {h})", r["hash"]));
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    // The pictures the browser drew are the pictures kifu draws.
    for (svg, sfen, last) in &all.svgs {
        let text = std::fs::read_to_string(svg).unwrap();
        svg_check::check_svg(&text, sfen, *last, true, &svg.display().to_string());
        let png = svg.with_extension("png");
        let bytes = std::fs::read(&png).unwrap();
        assert!(
            bytes.starts_with(b"\x89PNG") && bytes.len() > 5000,
            "{}",
            png.display()
        );
    }
    println!(
        "browser test: {} reads over {} pages agree with kifu; screenshots in {}",
        reads.len(),
        plan_pages.len(),
        out.display()
    );
    Ok(())
}

/// The index of 100,000 synthetic games, written by the library's writer:
/// a hostile name in row 777, ratings on even rows, ranks on every third,
/// plies `(i * 7919) % 300 + 1`, results in turn.
fn big_index(path: &Path) {
    use kifu::diagram::index::{Index, IndexOptions, IndexRow};
    let results = ["sente_win", "gote_win", "draw", "aborted"];
    let mut index = Index::new();
    for i in 0..100_000usize {
        index.push(&IndexRow {
            href: format!("g/{i}.html"),
            sente: if i == 777 {
                "</script><script>alert(1)</script>\u{2028}".to_string()
            } else {
                format!("player {i}")
            },
            gote: format!("player {}", (i * 31) % 100_000),
            sente_rating: (i % 2 == 0).then_some(1000.0 + (i % 2000) as f64),
            gote_rating: None,
            sente_rank: String::new(),
            gote_rank: if i % 3 == 0 {
                "4D".into()
            } else {
                String::new()
            },
            date: format!("20{:02}-{:02}-{:02}", i % 25, i % 12 + 1, i % 28 + 1),
            event: format!("event {}", i % 50),
            result: results[i % 4].into(),
            reason: "resign".into(),
            plies: ((i * 7919) % 300 + 1) as u32,
            sente_opening: "四間飛車".into(),
            sente_castle: "美濃囲い".into(),
            gote_opening: "居飛車".into(),
            gote_castle: "舟囲い".into(),
        });
    }
    let f = std::io::BufWriter::new(std::fs::File::create(path).unwrap());
    index.write(&IndexOptions::default(), f).unwrap();
}

fn site_in_headless_chromium() -> Result<(), Skip> {
    let chromium = needs()?;
    let out = root().join("target/browser/site");
    let _ = std::fs::remove_dir_all(&out);
    std::fs::create_dir_all(&out).unwrap();
    let big = out.join("big.html");
    big_index(&big);
    // A real run: every example, a floodgate game with evaluations.
    let dir = out.join("pages");
    let eval_game = root().join("fixtures/convert/floodgate-eval.csa");
    let o = Command::new(env!("CARGO_BIN_EXE_kifu"))
        .args(["html", "--out-dir"])
        .arg(&dir)
        .arg(root().join("fixtures/examples"))
        .arg(&eval_game)
        .output()
        .unwrap();
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let pages = walkdir::WalkDir::new(&dir)
        .into_iter()
        .filter_map(|e| e.ok())
        .filter(|e| {
            e.file_name() != "index.html"
                && e.file_name() != "explorer.html"
                && e.path().extension() == Some("html".as_ref())
        })
        .count();
    let rec = read_all(
        &std::fs::read(&eval_game).unwrap(),
        Some(Format::Csa),
        &Default::default(),
    )
    .remove(0)
    .record;
    let start = Position::from_setup_unchecked(&rec.start.setup);
    let evals: Vec<usize> = kifu::eval::of_line(&rec.main, &start)
        .iter()
        .enumerate()
        .filter(|(_, e)| e.is_some())
        .map(|(i, _)| i + 1)
        .collect();
    assert!(evals.len() >= 2, "{evals:?}");
    let eval_plies = [evals[evals.len() / 2], evals[0], *evals.last().unwrap()];
    let url = |p: &Path| format!("file://{}", p.display());
    let plan_file = out.join("plan.json");
    std::fs::write(
        &plan_file,
        json!({
            "big": url(&big),
            "site": url(&dir.join("index.html")),
            "eval_page": url(&dir.join("floodgate-eval.html")),
            "eval_plies": eval_plies,
            "plain_page": url(&dir.join("examples/lance-handicap.html")),
            "shots": out,
        })
        .to_string(),
    )
    .unwrap();
    let o = Command::new("node")
        .current_dir(root().join("tests/browser"))
        .arg("site.js")
        .arg(&plan_file)
        .arg(&chromium)
        .output()
        .unwrap();
    assert!(
        o.status.success(),
        "site.js failed: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    let r: Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(r["errors"], json!([]), "script errors in the pages");
    assert_eq!(r["requests"], json!([]), "the pages reached the network");
    let ms = |k: &str| r[k].as_f64().unwrap();
    println!(
        "site: 100,000-game index: load {:.0} ms ({:.0} ms as driven), sort by plies {:.0} ms (again, descending {:.0} ms), text filter {:.0} ms, result filter {:.0} ms",
        ms("big_load_ms"),
        ms("big_wall_ms"),
        ms("big_sort_ms"),
        ms("big_sort_desc_ms"),
        ms("big_filter_ms"),
        ms("big_result_ms")
    );
    // Usability bounds, not a benchmark: the test shares the machine with
    // the rest of the suite, so they are three times the figures measured
    // on a loaded 2-core machine (about 2 s to show, 0.1-0.2 s a click);
    // the figures above are what to read.
    assert!(ms("big_load_ms") < 6000.0, "load {}", r["big_load_ms"]);
    for k in [
        "big_sort_ms",
        "big_sort_desc_ms",
        "big_filter_ms",
        "big_result_ms",
    ] {
        assert!(ms(k) < 1500.0, "{k}: {}", r[k]);
    }
    // One page of rows at a time, all counted.
    assert_eq!(r["big_open"]["shown"], 100_000);
    assert_eq!(r["big_open"]["rows"].as_array().unwrap().len(), 100);
    assert_eq!(r["big_open"]["rows"][0][0], "1");
    assert_eq!(r["big_open"]["explorer"], false);
    // Sorted by plies: 1 first, then 300 first.
    assert_eq!(r["big_sorted"]["rows"][0][9], "1");
    assert_eq!(r["big_sorted_desc"]["rows"][0][9], "300");
    // Each word of `player 4242` is in each row shown (in either player's
    // name here).
    let filtered = r["big_filtered"]["rows"].as_array().unwrap();
    assert!(!filtered.is_empty());
    for row in filtered {
        let both = format!("{} {}", row[1], row[3]);
        assert!(both.contains("4242"), "{both}");
    }
    assert_eq!(r["big_draws"]["shown"], 25_000);
    // The hostile name is text in its cell, found by the filter.
    assert_eq!(r["big_hostile"]["shown"], 1);
    assert_eq!(
        r["big_hostile"]["rows"][0][1],
        "</script><script>alert(1)</script>\u{2028}"
    );
    // The real run: a row per page, each link opens its page.
    assert_eq!(r["site"]["shown"], pages, "{}", r["site"]);
    assert!(
        r["site_link"].as_str().unwrap().ends_with(".html"),
        "{}",
        r["site_link"]
    );
    // The index's link opens the collection's explorer, with moves.
    assert!(
        r["explorer_url"]
            .as_str()
            .unwrap()
            .ends_with("/explorer.html"),
        "{}",
        r["explorer_url"]
    );
    assert!(
        r["explorer_rows"].as_u64().unwrap() > 0,
        "{}",
        r["explorer_rows"]
    );
    // The graph: one point per evaluation; a click goes to its ply.
    assert_eq!(r["graph"], true);
    assert_eq!(r["graph_points"], evals.len());
    assert_eq!(r["eval_clicks"], json!(eval_plies));
    assert_eq!(r["eval_left"], 0);
    assert_eq!(r["plain_graph"], false);
    Ok(())
}

/// Writes `n` games of random legal play (a small book for the first
/// plies, so that positions are shared) as one CSA file.
fn random_games(path: &Path, n: usize, seed: u64) {
    let mut x = seed;
    let mut rnd = |m: usize| {
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        (x.wrapping_mul(0x2545_f491_4f6c_dd1d) % m as u64) as usize
    };
    let book = ["7g7f", "2g2f", "3c3d", "8c8d", "6g6f", "4c4d"];
    let mut text = String::new();
    for g in 0..n {
        if g > 0 {
            text.push_str("/\n");
        }
        text.push_str("PI\n+\n");
        let mut pos = Position::new(kifu::Variant::Standard);
        for i in 0..rnd(40) + 4 {
            let legal = pos.legal_moves();
            if legal.is_empty() {
                break;
            }
            let mut mv = legal[rnd(legal.len())];
            if i < 6 {
                if let Some(m) = Move::from_usi(book[rnd(book.len())], kifu::Variant::Standard)
                    .filter(|m| pos.is_legal(*m))
                {
                    mv = m;
                }
            }
            let sign = if pos.turn() == kifu::Color::Black {
                '+'
            } else {
                '-'
            };
            let sq = |s: kifu::Square| String::from_utf8(s.csa().to_vec()).unwrap();
            let line = match mv {
                Move::Normal { from, to, promote } => {
                    let r = pos.piece_at(from).unwrap().role;
                    let r = if promote { r.promoted().unwrap() } else { r };
                    format!("{sign}{}{}{}", sq(from), sq(to), r.csa())
                }
                Move::Drop { role, to } => format!("{sign}00{}{}", sq(to), role.csa()),
            };
            text.push_str(&line);
            text.push('\n');
            pos.play(mv).unwrap();
        }
        text.push_str(if rnd(3) == 0 { "%CHUDAN\n" } else { "%TORYO\n" });
    }
    std::fs::write(path, text).unwrap();
}

/// The explorer page of `kifu tree --format html` as a user clicks it:
/// three moves deep (the most played each time), the board and the move
/// table checked against the JSON Lines of the same tree at each step,
/// then back through the path; and the page of a 20,000-game database
/// (30 plies, `--min-games 10`) loads in under 2 s.
fn tree_explorer_in_headless_chromium() -> Result<(), Skip> {
    let chromium = needs()?;
    let out = root().join("target/browser");
    std::fs::create_dir_all(&out).unwrap();
    let db = out.join("tree-db.csa");
    random_games(&db, 20_000, 0x5eed_1234_abcd_0001);
    let run = |args: &[&str]| {
        let o = Command::new(env!("CARGO_BIN_EXE_kifu"))
            .arg("tree")
            .arg(&db)
            .args(["--plies", "30", "--min-games", "10", "--force"])
            .args(args)
            .output()
            .unwrap();
        assert_eq!(
            o.status.code(),
            Some(0),
            "{}",
            String::from_utf8_lossy(&o.stderr)
        );
        String::from_utf8(o.stdout).unwrap()
    };
    let html = out.join("explorer.html");
    run(&["--format", "html", "-o", html.to_str().unwrap()]);
    let lines = run(&["--format", "json"]);
    let nodes: HashMap<String, Value> = lines
        .lines()
        .map(|l| {
            let v: Value = serde_json::from_str(l).unwrap();
            (v["sfen"].as_str().unwrap().to_string(), v)
        })
        .collect();
    let first: Value = serde_json::from_str(lines.lines().next().unwrap()).unwrap();
    // The plan: read, click the most played move, three times; back.
    let rows = |n: &Value| -> Vec<Value> {
        n["moves"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| json!([m["usi"], m["games"]]))
            .collect()
    };
    let mut actions = vec![json!({ "read": "depth-0" })];
    let mut want = vec![(
        first["sfen"].clone(),
        rows(&first),
        first["name"]["id"].clone(),
    )];
    let mut here = first.clone();
    for d in 1..=3 {
        let m = &here["moves"][0];
        actions.push(json!({ "click": format!("#moves tbody tr[data-usi=\"{}\"]", m["usi"].as_str().unwrap()) }));
        actions.push(json!({ "read": format!("depth-{d}") }));
        here = nodes[m["sfen_after"].as_str().unwrap()].clone();
        want.push((
            here["sfen"].clone(),
            rows(&here),
            here["name"]["id"].clone(),
        ));
    }
    actions.push(json!({ "click": "#path a[data-depth=\"1\"]" }));
    actions.push(json!({ "read": "back-1" }));
    actions.push(json!({ "screenshot": out.join("explorer.png") }));
    let plan = json!({ "pages": [{
        "name": "explorer",
        "url": format!("file://{}", html.display()),
        "actions": actions,
    }]});
    let plan_file = out.join("tree-plan.json");
    std::fs::write(&plan_file, plan.to_string()).unwrap();
    let o = Command::new("node")
        .current_dir(root().join("tests/browser"))
        .arg("drive.js")
        .arg(&plan_file)
        .arg(&chromium)
        .output()
        .unwrap();
    assert!(
        o.status.success(),
        "drive.js failed: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    let got: Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(got["errors"], json!([]), "page errors");
    assert_eq!(got["requests"], json!([]), "no network");
    let reads = got["reads"].as_array().unwrap();
    assert_eq!(reads.len(), 5);
    for (i, (sfen, rows, name)) in want.iter().enumerate() {
        let r = &reads[i];
        assert_eq!(&r["sfen"], sfen, "board at depth {i}");
        assert_eq!(&r["rows"], &json!(rows), "move table at depth {i}");
        let name = name.as_str().unwrap_or("");
        assert_eq!(r["name"].as_str().unwrap_or(""), name, "name at depth {i}");
        assert!(!rows.is_empty() || i == 3);
    }
    assert_eq!(reads[4]["sfen"], want[1].0, "the path goes back");
    let ms = got["loads"][0]["ms"].as_u64().unwrap();
    let size = std::fs::metadata(&html).unwrap().len();
    eprintln!(
        "explorer.html: {} positions, {size} bytes, loaded in {ms} ms",
        nodes.len()
    );
    assert!(ms < 2000, "the explorer loads in under 2 s: {ms} ms");
    Ok(())
}
