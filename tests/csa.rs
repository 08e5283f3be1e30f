//! CSA reader and writer: fixtures with expectations, malformed files with
//! exact first findings, round trips and writer forms. The tests on the
//! shared corpus are in `tests/csa_corpus.rs`, which reports them ignored
//! without it.

pub mod common;

use kifu::csa::{self, CsaVersion, WriteOptions};
use kifu::read::{lines_from_bytes, Finding, Format, Game, ReadOptions, Reader, Rule, Severity};
use kifu::record::{Line, Location, Record, TerminalKind};
use kifu::{Position, Variant};
use std::path::{Path, PathBuf};

pub fn read_bytes(bytes: &[u8]) -> Vec<Game> {
    let opts = ReadOptions::default();
    Reader::from_lines(Format::Csa, lines_from_bytes(bytes, &opts), &opts)
        .games()
        .collect()
}

pub fn read_path(path: &Path) -> Vec<Game> {
    let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    read_bytes(&bytes)
}

fn errors(g: &Game) -> Vec<&Finding> {
    g.findings
        .iter()
        .filter(|f| f.severity == Severity::Error)
        .collect()
}

/// Replays a line from `pos`: every move must pass `Position::check`, and
/// the written colour and role must match the board.
fn replay_line(mut pos: Position, line: &Line) -> Result<(), String> {
    for (i, n) in line.moves.iter().enumerate() {
        let ply = i + 1;
        if let Some(c) = n.color {
            if c != pos.turn() {
                return Err(format!("ply {ply} `{}`: wrong side", n.written));
            }
        }
        if let (Some(r), Some(actual)) = (n.role, pos.moving_role(n.mv)) {
            if r != actual {
                return Err(format!("ply {ply} `{}`: piece mismatch", n.written));
            }
        }
        pos.check(n.mv)
            .map_err(|e| format!("ply {ply} `{}`: {e}", n.written))?;
        for v in &n.variations {
            replay_line(pos, v)?;
        }
        pos.play_unchecked(n.mv);
    }
    Ok(())
}

pub fn replay(r: &Record) -> Result<(), String> {
    replay_line(Position::from_setup_unchecked(&r.start.setup), &r.main)
}

fn usi_line(r: &Record) -> String {
    r.main
        .moves
        .iter()
        .map(|n| n.mv.usi(Variant::Standard).to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

fn terminal_name(r: &Record) -> String {
    match &r.main.terminal {
        None => "none".to_string(),
        Some(t) => match csa::special_name(&t.kind) {
            Some(n) => n.to_string(),
            None => format!("{:?}", t.kind),
        },
    }
}

fn fixtures(dir: &str, ext: &str) -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures/csa")
        .join(dir);
    let mut v: Vec<PathBuf> = std::fs::read_dir(&root)
        .unwrap_or_else(|e| panic!("{}: {e}", root.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().and_then(|e| e.to_str()) == Some(ext))
        .collect();
    v.sort();
    v
}

/// Sets every location to zero, for comparing records across a write.
fn zero_locations(r: &mut Record) {
    fn line(l: &mut Line) {
        for n in &mut l.moves {
            n.location = Location::default();
            n.written = Default::default();
            for v in &mut n.variations {
                line(v);
            }
        }
        if let Some(t) = &mut l.terminal {
            t.location = Location::default();
        }
    }
    r.start.location = None;
    line(&mut r.main);
    if let Some(c) = &mut r.claim {
        c.location = Location::default();
    }
}

/// Truncates move times to whole seconds (what V2.2 can hold).
fn truncate_times(r: &mut Record) {
    for n in &mut r.main.moves {
        n.time.spent_ms = n.time.spent_ms.map(|ms| ms / 1000 * 1000);
    }
    if let Some(t) = &mut r.main.terminal {
        t.time.spent_ms = t.time.spent_ms.map(|ms| ms / 1000 * 1000);
    }
}

#[derive(Default, Debug)]
struct Expect {
    plies: Option<usize>,
    usi: Option<String>,
    terminal: Option<String>,
    comments: Option<usize>,
}

fn parse_expect(text: &str) -> Vec<Expect> {
    let mut out: Vec<Expect> = Vec::new();
    for line in text.lines() {
        let (k, v) = line.split_once(' ').unwrap_or((line, ""));
        if k == "game" || out.is_empty() {
            out.push(Expect::default());
            if k == "game" {
                continue;
            }
        }
        let e = out.last_mut().unwrap();
        match k {
            "plies" => e.plies = Some(v.parse().unwrap()),
            "usi" => e.usi = Some(v.to_string()),
            "terminal" => e.terminal = Some(v.to_string()),
            "comments" => e.comments = Some(v.parse().unwrap()),
            "" => {}
            other => panic!("unknown expectation key `{other}`"),
        }
    }
    out
}

/// Checks the games read from one file against its `.expect` text.
pub fn check_games(name: &str, games: &[Game], text: &str) {
    let expects = parse_expect(text);
    assert_eq!(games.len(), expects.len(), "{name}: number of games");
    for (g, e) in games.iter().zip(&expects) {
        assert!(errors(g).is_empty(), "{name}: {:?}", g.findings);
        replay(&g.record).unwrap_or_else(|m| panic!("{name}: {m}"));
        let r = &g.record;
        if let Some(p) = e.plies {
            assert_eq!(r.main.moves.len(), p, "{name}: plies");
        }
        if let Some(u) = &e.usi {
            assert_eq!(&usi_line(r), u, "{name}: moves");
        }
        if let Some(t) = &e.terminal {
            assert_eq!(&terminal_name(r), t, "{name}: terminal");
        }
        if let Some(c) = e.comments {
            assert_eq!(r.comment_count(), c, "{name}: comments");
        }
    }
}

/// The first error finding as `LINE:COL rule`.
pub fn first_error(name: &str, games: &[Game]) -> String {
    let first = games
        .iter()
        .flat_map(|g| g.findings.iter())
        .find(|f| f.severity == Severity::Error)
        .unwrap_or_else(|| panic!("{name}: no error finding"));
    format!("{}:{} {}", first.line, first.column, first.rule)
}

#[test]
fn ok_fixtures_match_their_expectations() {
    let files = fixtures("ok", "csa");
    assert!(files.len() >= 20, "too few fixtures");
    for path in files {
        let exp_path = path.with_extension("expect");
        let text = std::fs::read_to_string(&exp_path)
            .unwrap_or_else(|_| panic!("{} has no .expect", path.display()));
        check_games(&path.display().to_string(), &read_path(&path), &text);
    }
}

#[test]
fn bad_fixtures_give_their_first_finding() {
    let files = fixtures("bad", "csa");
    assert!(files.len() >= 8, "too few bad fixtures");
    for path in files {
        let err = std::fs::read_to_string(path.with_extension("err"))
            .unwrap_or_else(|_| panic!("{} has no .err", path.display()));
        let name = path.display().to_string();
        assert_eq!(first_error(&name, &read_path(&path)), err.trim(), "{name}");
    }
}

/// Every ok fixture: (name, bytes). The real files of
/// `tests/corpus-expect/csa/` are round-tripped by `tests/csa_corpus.rs`.
fn ok_inputs() -> Vec<(String, Vec<u8>)> {
    fixtures("ok", "csa")
        .into_iter()
        .map(|p| (p.display().to_string(), std::fs::read(&p).unwrap()))
        .collect()
}

/// The time control in one form for comparing round trips: the writer
/// states it in the version's grammar (`$TIME_LIMIT:00:25+00` becomes
/// `$TIME:1500+0+0` in V3.0) or keeps it as a comment of the start
/// (`'time control: 30+0+5` in V2.2, which has no increment): back in the
/// header, as its `$TIME` value when kifu reads it.
fn same_time_control(r: &mut Record) {
    use kifu::record::{HeaderKey, TimeControl};
    if let Some(i) = r
        .initial_comments
        .iter()
        .position(|c| c.starts_with("time control: "))
    {
        let c = r.initial_comments.remove(i);
        r.header
            .set(HeaderKey::TimeControl, &c["time control: ".len()..]);
    }
    if let Some(t) = r
        .header
        .get(&HeaderKey::TimeControl)
        .and_then(TimeControl::parse)
    {
        r.header.set(HeaderKey::TimeControl, t.csa_time());
    }
}

/// Reads, writes in `version` and reads back each of `inputs`: the same
/// records (times to whole seconds in V2.2).
pub fn round_trip(version: CsaVersion, inputs: Vec<(String, Vec<u8>)>) {
    let opts = WriteOptions { version };
    for (name, bytes) in inputs {
        let games = read_bytes(&bytes);
        let records: Vec<Record> = games.into_iter().map(|g| g.record).collect();
        let out = csa::write_games(&records, &opts).unwrap();
        assert_eq!(out.dropped.variations, 0, "{name}");
        let back = read_bytes(out.text.as_bytes());
        assert_eq!(back.len(), records.len(), "{name}: games\n{}", out.text);
        for (a, b) in records.iter().zip(back) {
            assert!(
                errors(&b).is_empty(),
                "{name}: {:?}\n{}",
                b.findings,
                out.text
            );
            let mut a = a.clone();
            let mut b = b.record;
            zero_locations(&mut a);
            zero_locations(&mut b);
            if version == CsaVersion::V22 {
                truncate_times(&mut a);
            }
            same_time_control(&mut a);
            same_time_control(&mut b);
            assert_eq!(a, b, "{name}\n{}", out.text);
        }
    }
}

#[test]
fn round_trip_v22() {
    round_trip(CsaVersion::V22, ok_inputs());
}

#[test]
fn round_trip_v30() {
    round_trip(CsaVersion::V30, ok_inputs());
}

#[test]
fn writer_emits_the_reference_forms() {
    // FORMATS.md §3.7, with `+7776FU,T3` written as two lines (the writer
    // puts every statement on a line of its own).
    let want = "'CSA encoding=UTF-8\nV3.0\nN+Alice\nN-Bob\n$EVENT:test\n\
$START_TIME:2024/05/05 15:05:40\n$TIME:900+0+5\nPI\n+\n+7776FU\nT3\n\
'** 45 -3334FU +2726FU\n-3334FU\nT2.5\n'*nice move\n%TORYO\nT1\n";
    use kifu::record::{HeaderKey, Node, Terminal};
    let mut r = Record::default();
    r.header.push(HeaderKey::Sente, "Alice");
    r.header.push(HeaderKey::Gote, "Bob");
    r.header.push(HeaderKey::Event, "test");
    r.header.push(HeaderKey::StartTime, "2024/05/05 15:05:40");
    r.header.push(HeaderKey::TimeControl, "900+0+5");
    let mut n1 = Node::new(
        kifu::Move::from_usi("7g7f", Variant::Standard).unwrap(),
        Location::default(),
    );
    n1.time.spent_ms = Some(3000);
    n1.comments.push("** 45 -3334FU +2726FU".into());
    let mut n2 = Node::new(
        kifu::Move::from_usi("3c3d", Variant::Standard).unwrap(),
        Location::default(),
    );
    n2.time.spent_ms = Some(2500);
    n2.comments.push("*nice move".into());
    r.main.moves = vec![n1, n2];
    r.main.terminal = Some(Terminal {
        kind: TerminalKind::Resign,
        time: kifu::record::MoveTime {
            spent_ms: Some(1000),
            total_ms: None,
        },
        comments: vec![],
        location: Location::default(),
    });
    let out = csa::write(
        &r,
        &WriteOptions {
            version: CsaVersion::V30,
        },
    )
    .unwrap();
    assert_eq!(out.text, want);
    assert!(out.dropped.is_empty());
    // Reading the reference text (with its comma form) gives the same record.
    let reference = "'CSA encoding=UTF-8\nV3.0\nN+Alice\nN-Bob\n$EVENT:test\n\
$START_TIME:2024/05/05 15:05:40\n$TIME:900+0+5\nPI\n+\n+7776FU,T3\n\
'** 45 -3334FU +2726FU\n-3334FU\nT2.5\n'*nice move\n%TORYO\nT1\n";
    let games = read_bytes(reference.as_bytes());
    assert_eq!(games.len(), 1);
    assert!(games[0].findings.is_empty(), "{:?}", games[0].findings);
    let mut got = games[0].record.clone();
    zero_locations(&mut got);
    let mut r2 = r.clone();
    for n in &mut r2.main.moves {
        n.color = Some(if n.mv.to().rank() >= 5 {
            kifu::Color::Black
        } else {
            kifu::Color::White
        });
        n.role = Some(kifu::Role::Pawn);
    }
    assert_eq!(got, r2);
    // V2.2: no encoding line, whole seconds (truncated), a time dropped.
    let v22 = csa::write(&r, &WriteOptions::default()).unwrap();
    assert!(v22.text.starts_with("V2.2\nN+Alice\n"));
    assert!(v22.text.contains("-3334FU\nT2\n"));
    assert_eq!(v22.dropped.times, 1);
}

#[test]
fn writer_positions_terminals_and_drops() {
    use kifu::record::{HeaderKey, Start, Terminal};
    use kifu::rules::parse_sfen;
    // A tsume-like position: board rows and hand lines.
    let setup = parse_sfen("7kl/9/6G2/9/9/9/9/9/9 b G2r 1", None).unwrap();
    let mut r = Record {
        start: Start {
            handicap: None,
            setup,
            location: None,
        },
        ..Record::default()
    };
    r.header.push(HeaderKey::Title, "no CSA key");
    r.header.push(HeaderKey::Other("名前".into()), "x");
    r.header.push(HeaderKey::Other("NOTE".into()), "kept");
    r.main.terminal = Some(Terminal {
        kind: TerminalKind::Sealed,
        time: Default::default(),
        comments: vec!["c".into()],
        location: Location::default(),
    });
    let out = csa::write(&r, &WriteOptions::default()).unwrap();
    assert_eq!(
        out.text,
        "V2.2\n$NOTE:kept\n\
P1 *  *  *  *  *  *  * -OU-KY\nP2 *  *  *  *  *  *  *  *  * \n\
P3 *  *  *  *  *  * +KI *  * \nP4 *  *  *  *  *  *  *  *  * \n\
P5 *  *  *  *  *  *  *  *  * \nP6 *  *  *  *  *  *  *  *  * \n\
P7 *  *  *  *  *  *  *  *  * \nP8 *  *  *  *  *  *  *  *  * \n\
P9 *  *  *  *  *  *  *  *  * \nP+00KI\nP-00HI00HI\n+\n"
    );
    assert_eq!(out.dropped.headers.count(), 2);
    assert!(out.dropped.headers.contains("表題") && out.dropped.headers.contains("名前"));
    assert_eq!(out.dropped.terminals.count(), 1);
    assert!(out.dropped.terminals.contains("sealed"));
    assert_eq!(
        out.dropped.to_string(),
        "header 表題, header 名前, 1 comment, terminal event sealed"
    );
    assert_eq!(out.dropped.comments, 1);
    // Handicap as PI; IllegalWin as the fouler's ILLEGAL_ACTION.
    let mut h = Record {
        start: Start::handicap(kifu::Handicap::TwoPiece),
        ..Record::default()
    };
    h.main.moves.push(kifu::record::Node::new(
        kifu::Move::from_usi("5a4b", Variant::Standard).unwrap(),
        Location::default(),
    ));
    h.main.terminal = Some(Terminal {
        kind: TerminalKind::IllegalWin,
        time: Default::default(),
        comments: vec![],
        location: Location::default(),
    });
    let out = csa::write(&h, &WriteOptions::default()).unwrap();
    assert_eq!(out.text, "V2.2\nPI82HI22KA\n-\n-5142OU\n%-ILLEGAL_ACTION\n");
    let back = read_bytes(out.text.as_bytes());
    assert_eq!(
        back[0].record.start.handicap,
        Some(kifu::Handicap::TwoPiece)
    );
}

#[test]
fn reader_details() {
    // Promotion is found from the origin piece; a piece that is neither the
    // origin piece nor its promotion is kept as written.
    let g = &read_bytes(b"PI\n+\n+7776FU\n-3334FU\n+8822UM\n-3122GI\n+0055KA\n-2233HI\n")[0];
    let m = &g.record.main.moves;
    assert_eq!(m[2].mv.usi(Variant::Standard).to_string(), "8h2b+");
    assert_eq!(m[2].role, Some(kifu::Role::Bishop));
    assert_eq!(m[4].mv.usi(Variant::Standard).to_string(), "B*5e");
    assert_eq!(m[5].role, Some(kifu::Role::Rook));
    assert!(!m[5].mv.is_promotion());
    // A wrong-side move is kept with its written colour.
    let g = &read_bytes(b"PI\n+\n-3334FU\n")[0];
    assert_eq!(g.record.main.moves[0].color, Some(kifu::Color::White));
    assert!(g.findings.is_empty());
    // Missing turn line: a `dialect` warning, the first move's side to
    // move, moves kept.
    let g = &read_bytes(b"PI\n+7776FU\n")[0];
    assert_eq!(g.findings[0].rule, Rule::Dialect);
    assert_eq!((g.findings[0].line, g.findings[0].column), (2, 1));
    assert_eq!(g.record.main.moves.len(), 1);
    // Comments: initial, per move, on the terminal; `'*`/`'**` kept.
    let g = &read_bytes(b"'a\nPI\n+\n'b\n+7776FU,'c\n'**30\n%TORYO\nT3\n'summary\n")[0];
    let r = &g.record;
    assert_eq!(r.initial_comments, vec!["a", "b"]);
    assert_eq!(r.main.moves[0].comments, vec!["c", "**30"]);
    let t = r.main.terminal.as_ref().unwrap();
    assert_eq!(t.comments, vec!["summary"]);
    assert_eq!(t.time.spent_ms, Some(3000));
    // Header keys.
    let g = &read_bytes(b"N+a\nN-b\n$TIME+:1+2+3\n$FOO:bar\n$TIME_LIMIT:00:25+00\nPI\n+\n")[0];
    let h = &g.record.header;
    use kifu::record::HeaderKey;
    assert_eq!(h.get(&HeaderKey::Sente), Some("a"));
    assert_eq!(h.get(&HeaderKey::Other("TIME+".into())), Some("1+2+3"));
    assert_eq!(h.get(&HeaderKey::Other("FOO".into())), Some("bar"));
    assert_eq!(h.get(&HeaderKey::TimeControl), Some("00:25+00"));
    // Handicap detection and P-lines with 00AL.
    let g = &read_bytes(b"PI82HI22KA\n-\n")[0];
    assert_eq!(g.record.start.handicap, Some(kifu::Handicap::TwoPiece));
    let g = &read_bytes(b"P-11OU\nP+22KI\nP+00AL\n+\n")[0];
    let s = &g.record.start.setup;
    assert_eq!(s.hands[0].count(kifu::Role::Pawn), 18);
    assert_eq!(s.hands[0].count(kifu::Role::Gold), 3);
    assert_eq!(s.hands[1].total(), 0);
    assert!(g.findings.is_empty());
    // Fractional times.
    let g = &read_bytes(b"V3.0\nPI\n+\n+7776FU\nT6.123\n")[0];
    assert_eq!(g.record.main.moves[0].time.spent_ms, Some(6123));
    // Multi-game in one comma line, with a `/` mid-line.
    let games = read_bytes(b"PI, +, +6978KI, %TORYO, /, PI, +, +5968OU\n/\n");
    assert_eq!(games.len(), 2);
    assert_eq!(games[1].index, 1);
    assert_eq!(games[1].record.main.moves.len(), 1);
    // Nothing at all.
    let games = read_bytes(b"'just a comment\n");
    assert_eq!(games.len(), 1);
    assert_eq!(games[0].findings[0].rule, Rule::Empty);
    // Specials, unknown ones kept.
    for (s, k) in [
        ("%TORYO", TerminalKind::Resign),
        (
            "%+ILLEGAL_ACTION",
            TerminalKind::IllegalAction(kifu::Color::Black),
        ),
        ("%MAX_MOVES", TerminalKind::MaxMoves),
        ("%FOO", TerminalKind::Other("FOO".into())),
    ] {
        let text = format!("PI\n+\n{s}\n");
        let g = &read_bytes(text.as_bytes())[0];
        assert_eq!(g.record.main.terminal.as_ref().unwrap().kind, k);
    }
}

#[test]
fn never_panics_on_garbage() {
    let samples: [&[u8]; 8] = [
        b"P1",
        b"P1-KY-KE-GI-KI-OU-KI-GI-KE-KY-KY\n",
        b"+\n+00",
        b"T\xff\xfe\n,,,,/,/,/",
        b"PI99\n-\n%",
        "P+00AL00FU\n+\n+0011ＦＵ,T1.".as_bytes(),
        b"$:\nN\n'\nV\n",
        b"P-\nP+9\n+\n+9999OU\nT18446744073709551616\n",
    ];
    for s in samples {
        let games = read_bytes(s);
        assert!(!games.is_empty());
    }
}

#[test]
#[ignore = "prints the reader's speed; run with --ignored --nocapture"]
fn speed() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus");
    let Ok(text) = std::fs::read_to_string(root.join("index.csv")) else {
        return;
    };
    let files: Vec<Vec<u8>> = text
        .lines()
        .filter(|l| l.split(',').nth(1) == Some("CSA"))
        .map(|l| std::fs::read(root.join(l.split(',').next().unwrap())).unwrap())
        .collect();
    let bytes: usize = files.iter().map(Vec::len).sum();
    let start = std::time::Instant::now();
    let mut moves = 0;
    for _ in 0..10 {
        for f in &files {
            for g in read_bytes(f) {
                moves += g.record.main.moves.len();
            }
        }
    }
    let secs = start.elapsed().as_secs_f64();
    println!(
        "read {} files 10x: {:.1} MB in {secs:.3}s = {:.1} MB/s, {:.1} M moves/s",
        files.len(),
        bytes as f64 * 10.0 / 1e6,
        bytes as f64 * 10.0 / 1e6 / secs,
        moves as f64 / 1e6 / secs
    );
}

#[test]
fn reader_can_be_boxed_as_a_send_game_stream() {
    fn assert_send<T: Send>(_: &T) {}
    let source: kifu::read::Source = Box::new(std::io::Cursor::new(b"PI\n+\n".to_vec()));
    let opts = ReadOptions::default();
    let lines = kifu::read::LineReader::new(source, &opts.decode).unwrap();
    let games: kifu::read::Games =
        Box::new(Reader::from_lines(Format::Csa, lines, &opts).into_games());
    assert_send(&games);
    assert_eq!(games.count(), 1);
}

/// The time control (issue 27) is written in the grammar of the version
/// when kifu reads it: `$TIME:base+byoyomi+increment` in V3.0,
/// `$TIME_LIMIT:HH:MM+SS` in V2.2 (FORMATS.md §3.3); free text never goes
/// into a `$` line: what a version cannot state is kept as a comment and
/// counted (`kept as comments: time control`). Each reads back as the
/// time control it states.
#[test]
fn time_controls_are_written_in_the_versions_grammar_or_kept_as_comments() {
    use kifu::record::{HeaderKey, TimeControl};
    let v30 = WriteOptions {
        version: CsaVersion::V30,
    };
    let v22 = WriteOptions::default();
    for (text, in_v30, in_v22) in [
        (
            "10分+30秒",
            Some("$TIME:600+30+0"),
            Some("$TIME_LIMIT:00:10+30"),
        ),
        (
            "各8時間",
            Some("$TIME:28800+0+0"),
            Some("$TIME_LIMIT:08:00+00"),
        ),
        (
            "00:25+00",
            Some("$TIME:1500+0+0"),
            Some("$TIME_LIMIT:00:25+00"),
        ),
        ("900+0+5", Some("$TIME:900+0+5"), None),
        ("5分+10秒加算", Some("$TIME:300+0+10"), None),
        ("60分 切れたら1分将棋", None, None),
        ("15分30秒", None, None),
    ] {
        let mut r = Record::default();
        r.header.push(HeaderKey::TimeControl, text);
        for (opts, want) in [(&v30, in_v30), (&v22, in_v22)] {
            let out = csa::write(&r, opts).unwrap();
            let dollar: Vec<&str> = out.text.lines().filter(|l| l.starts_with('$')).collect();
            let back = &read_bytes(out.text.as_bytes())[0];
            assert!(back.findings.is_empty(), "{text}: {:?}", back.findings);
            match want {
                Some(line) => {
                    assert_eq!(dollar, [line], "{text}");
                    assert!(out.dropped.is_empty(), "{text}: {:?}", out.dropped);
                    let got = back.record.header.get(&HeaderKey::TimeControl);
                    assert_eq!(
                        got.and_then(TimeControl::parse),
                        TimeControl::parse(text),
                        "{text}"
                    );
                }
                None => {
                    assert!(dollar.is_empty(), "{text}: {dollar:?}");
                    let comment = format!("'time control: {text}");
                    assert!(out.text.lines().any(|l| l == comment), "{}", out.text);
                    assert!(out.dropped.as_comments.contains("time control"));
                    assert_eq!(out.dropped.note(), "kept as comments: time control");
                    assert_eq!(back.record.header.get(&HeaderKey::TimeControl), None);
                    assert_eq!(
                        back.record.initial_comments,
                        [format!("time control: {text}")]
                    );
                }
            }
        }
    }
}

/// One policy for what CSA makes mandatory and a record leaves out (issue
/// 27): a record without a start position starts from the even one, and
/// a start position without its turn line is complete otherwise; both are
/// `dialect` warnings, never errors, and the side to move is the first
/// move's sign (else sente). Before, the second was a `syntax` error and
/// sente was assumed even when gote moved first.
#[test]
fn a_missing_turn_line_is_a_warning_like_a_missing_board() {
    let path =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/dialects/csa-board-no-turn.csa");
    let g = &read_path(&path)[0];
    let f: Vec<_> = g
        .findings
        .iter()
        .map(|f| (f.line, f.column, f.rule, f.severity))
        .collect();
    assert_eq!(f, [(6, 1, Rule::Dialect, Severity::Warning)]);
    assert!(
        g.findings[0].message.contains("gote to move"),
        "{}",
        g.findings[0].message
    );
    assert_eq!(g.record.start.setup.turn, kifu::Color::White);
    assert_eq!(g.record.start.handicap, Some(kifu::Handicap::Rook));
    let report = kifu::validate::validate(g, &Default::default());
    assert!(report.ok, "{:?}", report.findings);
    assert_eq!(report.plies, 4);
    assert_eq!(report.result.outcome.name(), "sente_win");
    // A board and no move: sente, warned at the end of the game (the line
    // after the last).
    let g = &read_bytes(b"P1-KY-KE-GI-KI-OU-KI-GI-KE-KY\nP9+KY+KE+GI+KI+OU+KI+GI+KE+KY\n")[0];
    assert_eq!(g.findings.len(), 1, "{:?}", g.findings);
    assert_eq!((g.findings[0].rule, g.findings[0].line), (Rule::Dialect, 3));
    assert!(g.findings[0].message.contains("sente to move"));
    assert_eq!(g.record.start.setup.turn, kifu::Color::Black);
    // A record with neither: the same rule, the same severity.
    let g = &read_bytes(b"N+a\nN-b\n-3334FU\n")[0];
    assert_eq!(
        g.findings
            .iter()
            .map(|f| (f.rule, f.severity))
            .collect::<Vec<_>>(),
        [(Rule::Dialect, Severity::Warning)]
    );
    assert_eq!(g.record.start.setup.turn, kifu::Color::White);
}

/// A CSA game of sente's perpetual check (rook 1九/2九 against the king on
/// 1一/2一, thirteen moves: the position after move 1 occurs a fourth time),
/// ending with `tail` (a `%` line, a floodgate summary, …).
fn perpetual_check(tail: &str) -> String {
    let mut s = String::from("N+A\nN-B\nP1 *  *  *  *  *  *  *  * -OU\n");
    for r in 2..=8 {
        s.push_str(&format!("P{r}{}\n", " * ".repeat(9)));
    }
    s.push_str("P9+OU *  *  *  *  * +HI *  * \n+\n+3919HI\n");
    for _ in 0..3 {
        s.push_str("-1121OU\n+1929HI\n-2111OU\n+2919HI\n");
    }
    s.push_str(tail);
    s
}

fn validated(text: &str) -> kifu::validate::GameReport {
    let games = read_bytes(text.as_bytes());
    assert_eq!(games.len(), 1, "{text}");
    kifu::validate::validate(&games[0], &Default::default())
}

fn rules_of(r: &kifu::validate::GameReport) -> Vec<(&'static str, Severity)> {
    r.findings
        .iter()
        .map(|f| (f.rule.id(), f.severity))
        .collect()
}

/// floodgate's `'summary:` line is the result of a game with no `%` line
/// (issue 36): the move limit is a draw, a resignation or an illegal move
/// names the winner by the players' names (not their places), and the
/// statement is checked against the moves like a `まで` line. With a `%`
/// line, the `%` line is the game's end, as before.
#[test]
fn floodgate_summary_is_the_result_of_a_game_without_a_special() {
    let moves = "N+Alice\nN-Bob\nPI\n+\n+7776FU\n-3334FU\n";
    // The move limit: a draw, with the reason `max-moves`.
    let r = validated(&format!(
        "'Max_Moves:2\n{moves}'summary:max_moves:Alice draw:Bob draw\n"
    ));
    assert!(r.ok, "{:?}", r.findings);
    assert!(r.findings.is_empty(), "{:?}", r.findings);
    assert_eq!(r.result.outcome.name(), "draw");
    assert_eq!(r.result.reason.as_deref(), Some("max-moves"));
    assert!(r.established_result().is_some());
    // The claim is on the record; the summary stays a comment.
    let g = &read_bytes(format!("{moves}'summary:max_moves:Alice draw:Bob draw\n").as_bytes())[0];
    let claim = g.record.claim.as_ref().expect("a claim");
    assert_eq!(claim.kind, Some(TerminalKind::MaxMoves));
    assert!(g.record.main.terminal.is_none());
    assert_eq!(g.record.comment_count(), 1);
    // Names, not places: gote first, as 2006–2008 files write it.
    let r = validated(&format!("{moves}'summary:toryo:Bob win:Alice lose\n"));
    assert_eq!(
        (r.result.outcome.name(), r.result.reason.as_deref()),
        ("gote_win", Some("resign"))
    );
    // An illegal move the server did not record: the side to move loses.
    let r = validated(&format!(
        "{moves}'summary:illegal move:Alice lose:Bob win\n"
    ));
    assert_eq!(
        (r.result.outcome.name(), r.result.reason.as_deref()),
        ("gote_win", Some("illegal-move"))
    );
    // Names the record does not have: the ending tells (sente to move
    // resigned).
    let r = validated(&format!("{moves}'summary:toryo:x win:y lose\n"));
    assert_eq!(r.result.outcome.name(), "gote_win");
    // A `%` line ends the game: the summary is only a comment.
    let r = validated(&format!(
        "{moves}%TORYO\n'summary:abnormal:Alice win:Bob lose\n"
    ));
    assert!(r.findings.is_empty(), "{:?}", r.findings);
    assert_eq!(
        (r.result.outcome.name(), r.result.reason.as_deref()),
        ("gote_win", Some("resign"))
    );
    // A summary kifu cannot read: a warning, and no result.
    let r = validated(&format!("{moves}'summary:resigned:Alice win:Bob lose\n"));
    assert_eq!(rules_of(&r), [("dialect", Severity::Warning)]);
    assert_eq!(r.result.outcome.name(), "unknown");
    // A repetition the moves do not show is a false claim.
    let r = validated(&format!("{moves}'summary:sennichite:Alice draw:Bob draw\n"));
    assert_eq!(rules_of(&r), [("claim-mismatch", Severity::Error)]);
    assert!(r.established_result().is_none());
}

/// Perpetual check stated by floodgate: `oute_sennichite` naming the
/// checking side the loser agrees with the rules; naming the other side
/// is a `claim-mismatch`; the older server's `sennichite … draw` after a
/// perpetual check is a `dialect` warning that names the real result.
#[test]
fn floodgate_summary_of_a_perpetual_check() {
    let r = validated(&perpetual_check("'summary:oute_sennichite:A lose:B win\n"));
    assert!(r.findings.is_empty(), "{:?}", r.findings);
    assert_eq!(
        (r.result.outcome.name(), r.result.reason.as_deref()),
        ("gote_win", Some("perpetual-check"))
    );
    let r = validated(&perpetual_check("'summary:oute_sennichite:A win:B lose\n"));
    assert_eq!(rules_of(&r), [("claim-mismatch", Severity::Error)]);
    let r = validated(&perpetual_check("'summary:sennichite:A draw:B draw\n"));
    assert!(r.ok, "{:?}", r.findings);
    assert_eq!(rules_of(&r), [("dialect", Severity::Warning)]);
    assert!(
        r.findings[0].message.contains("perpetual check by sente")
            && r.findings[0].message.contains("gote_win"),
        "{}",
        r.findings[0].message
    );
    assert_eq!(r.established_result().unwrap().outcome.name(), "gote_win");
}

/// The summary written back: a record whose result is floodgate's summary
/// round-trips as the same record (no `%` line added), and a KIF writer
/// writes the ending the summary states.
#[test]
fn floodgate_summary_round_trips() {
    let text = "N+Alice\nN-Bob\nPI\n+\n+7776FU\n-3334FU\n'summary:max_moves:Alice draw:Bob draw\n";
    round_trip(
        CsaVersion::V22,
        vec![("summary".to_string(), text.as_bytes().to_vec())],
    );
    let g = &read_bytes(text.as_bytes())[0];
    let out = csa::write(&g.record, &WriteOptions::default()).unwrap();
    assert!(!out.text.contains('%'), "{}", out.text);
    assert_eq!(out.dropped.results, 0);
}
