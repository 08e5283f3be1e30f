//! PSN: notation table, fixtures with expectations, round trips. The tests
//! on the shared corpus are in `tests/psn_corpus.rs`, which reports them
//! ignored without it.

pub mod common;

use kifu::psn::{self, PsnMove, PsnTimes, WriteOptions};
use kifu::read::{lines_from_bytes, Game, ReadOptions, Severity};
use kifu::record::{Line, Location, Record, TerminalKind};
use kifu::{Move, Position, Variant};
use std::path::{Path, PathBuf};

pub fn read(bytes: &[u8]) -> Vec<Game> {
    let opts = ReadOptions::default();
    psn::Reader::new(lines_from_bytes(bytes, &opts), &opts).collect()
}

pub fn errors(g: &Game) -> Vec<String> {
    g.findings
        .iter()
        .filter(|f| f.severity == Severity::Error)
        .map(|f| format!("{}:{}: {} ({})", f.line, f.column, f.rule, f.message))
        .collect()
}

/// Replays a line and its variations with `Position::check`.
pub fn replay(pos: Position, line: &Line, what: &str) -> Result<(), String> {
    let mut pos = pos;
    for (i, n) in line.moves.iter().enumerate() {
        for v in &n.variations {
            replay(pos, v, what)?;
        }
        pos.check(n.mv)
            .map_err(|e| format!("{what}: move {} `{}` ({}): {e}", i + 1, n.written, n.mv))?;
        pos.play_unchecked(n.mv);
    }
    Ok(())
}

pub fn main_usi(r: &Record) -> String {
    r.main
        .moves
        .iter()
        .map(|n| n.mv.usi(r.variant()).to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

fn terminal_name(k: &TerminalKind) -> String {
    format!("{k:?}").to_ascii_lowercase()
}

/// Checks one game against `key value` expectation lines.
fn check_expect(g: &Game, lines: &[&str], what: &str) {
    let r = &g.record;
    for l in lines {
        let (k, v) = l.split_once(' ').unwrap_or((l, ""));
        match k {
            "plies" => assert_eq!(r.main.moves.len().to_string(), v, "{what}: plies"),
            "usi" => assert_eq!(main_usi(r), v, "{what}: usi"),
            "terminal" => assert_eq!(
                r.main.terminal.as_ref().map(|t| terminal_name(&t.kind)),
                Some(v.to_string()),
                "{what}: terminal"
            ),
            "comments" => assert_eq!(r.comment_count().to_string(), v, "{what}: comments"),
            "variations" => assert_eq!(r.variation_count().to_string(), v, "{what}: variations"),
            "result" => assert_eq!(
                r.claim.as_ref().map(|c| c.outcome.name()),
                Some(v),
                "{what}: result"
            ),
            "sfen" => assert_eq!(kifu::rules::write_sfen(&r.start.setup), v, "{what}: sfen"),
            "header" => {
                let (key, val) = v.split_once(' ').unwrap();
                let found = r.header.entries.iter().any(|(k, x)| {
                    format!("{k:?}") == key || matches!(k, kifu::record::HeaderKey::Other(o) if o == key) && x == val
                } && x == val);
                assert!(found, "{what}: header {key} = {val} in {:?}", r.header);
            }
            "time" => {
                let mut it = v.split(' ');
                let ply: usize = it.next().unwrap().parse().unwrap();
                let t = r.main.moves[ply - 1].time;
                let spent = it.next().unwrap();
                let total = it.next().unwrap();
                assert_eq!(
                    t.spent_ms.map(|x| x.to_string()).unwrap_or("-".into()),
                    spent,
                    "{what}: time"
                );
                assert_eq!(
                    t.total_ms.map(|x| x.to_string()).unwrap_or("-".into()),
                    total,
                    "{what}: time"
                );
            }
            "warning" => assert!(
                g.findings
                    .iter()
                    .any(|f| f.severity == Severity::Warning && f.rule.id() == v),
                "{what}: expected a {v} warning"
            ),
            _ => panic!("{what}: unknown expectation `{l}`"),
        }
    }
}

fn expect_games(text: &str) -> Vec<Vec<&str>> {
    let mut games: Vec<Vec<&str>> = vec![Vec::new()];
    let mut cur = 0;
    for l in text.lines().filter(|l| !l.trim().is_empty()) {
        if let Some(n) = l.strip_prefix("games ") {
            games.resize(n.parse().unwrap(), Vec::new());
        } else if let Some(n) = l.strip_prefix("game ") {
            cur = n.parse().unwrap();
        } else {
            games[cur].push(l);
        }
    }
    games
}

/// Blanks what a round trip may change: locations, written text, claim
/// text (a claim the writer derived from the terminal is allowed).
fn normalise(r: &Record) -> Record {
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
    let mut r = r.clone();
    r.start.location = None;
    line(&mut r.main);
    if let Some(c) = &mut r.claim {
        c.location = Location::default();
        c.text.clear();
    }
    r
}

fn round_trip(r: &Record, opts: &WriteOptions, what: &str) {
    let out = psn::write(r, opts).unwrap();
    let games = read(out.text.as_bytes());
    assert_eq!(
        games.len(),
        1,
        "{what}: round trip game count\n{}",
        out.text
    );
    let back = &games[0];
    assert!(
        errors(back).is_empty(),
        "{what}: {:?}\n{}",
        errors(back),
        out.text
    );
    let mut a = normalise(r);
    let mut b = normalise(&back.record);
    if a.claim.is_none() {
        b.claim = None;
    }
    // PSN always names the moving piece; a record read from USI moves did not.
    fn roles(a: &Line, b: &mut Line) {
        for (x, y) in a.moves.iter().zip(b.moves.iter_mut()) {
            if x.role.is_none() {
                y.role = None;
            }
            for (va, vb) in x.variations.iter().zip(y.variations.iter_mut()) {
                roles(va, vb);
            }
        }
    }
    roles(&a.main, &mut b.main);
    if opts.times == PsnTimes::None {
        fn strip(l: &mut Line) {
            for n in &mut l.moves {
                n.time = Default::default();
                n.variations.iter_mut().for_each(strip);
            }
            if let Some(t) = &mut l.terminal {
                t.time = Default::default();
            }
        }
        strip(&mut a.main);
    }
    if opts.times == PsnTimes::Comments {
        return;
    }
    assert_eq!(a, b, "{what}: round trip differs\n{}", out.text);
}

fn fixture_files(dir: &str, ext: &str) -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join(dir);
    let mut v: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == ext))
        .collect();
    v.sort();
    v
}

#[test]
fn notation_table() {
    let sente = Position::from_sfen("8k/9/9/1p1SS+S3/PP6N/9/9/9/4K4 b N 1").unwrap();
    let gote = Position::from_sfen("8k/9/9/1p1SS+S3/PP6N/9/9/9/4K4 w N 1").unwrap();
    let cases: [(&Position, &str, &str); 11] = [
        (&sente, "N*2c", "N*2c"),
        (&sente, "1e2c", "N-2c="),
        (&sente, "1e2c+", "N-2c+"),
        (&sente, "4d4c", "+S-4c"),
        (&sente, "5d5c", "S5d-5c="),
        (&sente, "6d6c+", "S6d-6c+"),
        (&sente, "8e8d", "Px8d"),
        (&gote, "1a2a", "K-2a"),
        (&gote, "1a1b", "K-1b"),
        (&gote, "1a2b", "K-2b"),
        (&gote, "8d8e", "Px8e"),
    ];
    for (pos, usi, want) in cases {
        let m = Move::from_usi(usi, Variant::Standard).unwrap();
        assert!(pos.check(m).is_ok(), "{usi} is legal");
        let psn = PsnMove::from_move(pos, m);
        assert_eq!(psn.to_string(), want, "{usi}");
        // And back.
        let parsed: PsnMove = want.parse().unwrap();
        assert_eq!(parsed, psn, "{want} parses");
        assert_eq!(parsed.to_move(pos, false), Ok(m), "{want} resolves");
    }
}

#[test]
fn notation_reading_variants() {
    let pos = Position::new(Variant::Standard);
    for (text, usi) in [
        ("P-76", "7g7f"),
        ("P77-76", "7g7f"),
        ("P7g-7f", "7g7f"),
        ("P-7f", "7g7f"),
    ] {
        let m = PsnMove::parse(text, Variant::Standard).unwrap();
        assert_eq!(m.to_move(&pos, false).unwrap().to_string(), usi, "{text}");
    }
    let hand = Position::from_sfen("4k4/9/9/9/9/9/9/9/4K4 b P 1").unwrap();
    for text in ["P*5e", "P'5e", "P@5e"] {
        let m = PsnMove::parse(text, Variant::Standard).unwrap();
        assert_eq!(m.to_move(&hand, false).unwrap().to_string(), "P*5e");
    }
    let dragons = Position::from_sfen("4k4/9/9/9/9/9/9/1+R+B+P5/4K4 b - 1").unwrap();
    for (text, usi) in [
        ("D-8a", "8h8a"),
        ("H-9f", "7h9f"),
        ("T-6g", "6h6g"),
        ("+R-8a", "8h8a"),
    ] {
        let m = PsnMove::parse(text, Variant::Standard).unwrap();
        assert_eq!(
            m.to_move(&dragons, false).unwrap().to_string(),
            usi,
            "{text}"
        );
    }
    // Ambiguity and absence.
    let golds = Position::from_sfen("4k4/9/9/9/9/9/9/9/3GKG3 b - 1").unwrap();
    let m: PsnMove = "G-5h".parse().unwrap();
    assert_eq!(
        m.to_move(&golds, false),
        Err(psn::ResolveError::Ambiguous(3 - 1))
    );
    let m: PsnMove = "R-5h".parse().unwrap();
    assert_eq!(m.to_move(&golds, false), Err(psn::ResolveError::NoPiece));
    for bad in ["", "P", "P-", "P-7", "P-7j", "Q-7f", "P7g7f", "+G-5h"] {
        assert!(PsnMove::parse(bad, Variant::Standard).is_err(), "{bad}");
    }
}

#[test]
fn legal_candidates_only_disambiguation() {
    // The silver on 5h is pinned by the rook on 5a: pseudo-legal candidates
    // count it, legal ones do not.
    let pos = Position::from_sfen("4r3k/9/9/9/9/9/9/4S1S2/4K4 b - 1").unwrap();
    let m = Move::from_usi("3h4g", Variant::Standard).unwrap();
    assert_eq!(PsnMove::from_move(&pos, m).to_string(), "S3h-4g");
    assert_eq!(
        PsnMove::from_move_with(&pos, m, None, true).to_string(),
        "S-4g"
    );
    // The reader narrows pseudo-legal candidates to the legal one.
    let s: PsnMove = "S-4g".parse().unwrap();
    assert_eq!(s.to_move(&pos, false), Ok(m));
}

/// Reads one ok file, checks each game against its expectation, and round
/// trips it under every time option.
pub fn check_ok_file(what: &str, bytes: &[u8], expect: &str) {
    let games = read(bytes);
    let exp = expect_games(expect);
    assert_eq!(games.len(), exp.len(), "{what}: games");
    for (g, e) in games.iter().zip(&exp) {
        assert!(errors(g).is_empty(), "{what}: {:?}", errors(g));
        let start = Position::from_setup_unchecked(&g.record.start.setup);
        replay(start, &g.record.main, what).unwrap();
        check_expect(g, e, what);
        for times in [PsnTimes::Shogidokoro, PsnTimes::None, PsnTimes::Comments] {
            let opts = WriteOptions {
                times,
                legal_candidates_only: false,
            };
            round_trip(&g.record, &opts, what);
        }
    }
    // Multi-game writing reads back as the same number of games.
    let records: Vec<Record> = games.iter().map(|g| g.record.clone()).collect();
    let out = psn::write_games(&records, &WriteOptions::default()).unwrap();
    assert_eq!(
        read(out.text.as_bytes()).len(),
        games.len(),
        "{what}: write_games"
    );
}

/// The first error finding as `LINE:COL: rule`.
pub fn first_error(what: &str, bytes: &[u8]) -> String {
    let games = read(bytes);
    let first = games
        .iter()
        .flat_map(|g| g.findings.iter())
        .find(|f| f.severity == Severity::Error)
        .unwrap_or_else(|| panic!("{what}: no error"));
    format!("{}:{}: {}", first.line, first.column, first.rule)
}

#[test]
fn fixtures_ok() {
    let files = fixture_files("fixtures/psn/ok", "psn");
    assert!(files.len() >= 15);
    for path in files {
        let what = path.file_name().unwrap().to_string_lossy().to_string();
        let expect = std::fs::read_to_string(path.with_extension("expect"))
            .unwrap_or_else(|_| panic!("{what}: missing .expect"));
        check_ok_file(&what, &std::fs::read(&path).unwrap(), &expect);
    }
}

#[test]
fn fixtures_bad() {
    let files = fixture_files("fixtures/psn/bad", "psn");
    assert!(files.len() >= 6);
    for path in files {
        let what = path.file_name().unwrap().to_string_lossy().to_string();
        let want = std::fs::read_to_string(path.with_extension("err")).unwrap();
        assert_eq!(
            first_error(&what, &std::fs::read(&path).unwrap()),
            want.trim(),
            "{what}"
        );
    }
}

#[test]
fn writer_output() {
    let text = b"[Sente \"A\"]\n[Gote \"B\"]\n[Date \"2024/01/02\"]\n[Annotator \"x\"]\n\n{start}\n1.P7g-7f (00:03 / 00:00:03) 2.P3c-3d (P8c-8d {alt} 3.P2g-2f) 3.B8hx2b+ {capture\nwith two lines} 4.S3ax2b 5.B*4e 6.Resigns\n";
    let g = &read(text)[0];
    assert!(errors(g).is_empty(), "{:?}", errors(g));
    assert_eq!(g.record.main.moves[0].time.spent_ms, Some(3000));
    assert_eq!(
        g.record.main.moves[2].comments,
        ["capture", "with two lines"]
    );
    let out = psn::write(&g.record, &WriteOptions::default()).unwrap();
    let want = "[Sente \"A\"]\n[Gote \"B\"]\n[Date \"2024/01/02\"]\n[Annotator \"x\"]\n[Result \"1-0\"]\n\n{start}\n1.P-7f            (00:03 / 00:00:03)\n2.P-3d\n(\n2.P-8d\n{alt}\n3.P-2f\n)\n3.Bx2b+\n{\ncapture\nwith two lines\n}\n4.Sx2b\n5.B*4e\n6.Resigns\n1-0\n";
    assert_eq!(out.text, want);
    assert!(out.dropped.is_empty());
}

#[test]
fn terminal_words_and_results() {
    for (word, kind) in [
        ("Resigns", TerminalKind::Resign),
        ("Interrupt", TerminalKind::Abort),
        ("Mate", TerminalKind::Checkmate),
        ("Sennichite", TerminalKind::Repetition),
        ("Jishogi", TerminalKind::Impasse),
        ("Timeup", TerminalKind::TimeUp),
        ("RepetitionDraw", TerminalKind::Repetition),
        ("RepetitionWin", TerminalKind::IllegalWin),
        ("MaxMovesDraw", TerminalKind::MaxMoves),
        ("DeclarationWin", TerminalKind::DeclarationWin),
        ("TryRuleWin", TerminalKind::Try),
        ("resigns", TerminalKind::Resign),
    ] {
        let text = format!("1.P7g-7f 2.{word}\n");
        let g = &read(text.as_bytes())[0];
        assert!(errors(g).is_empty(), "{word}");
        assert_eq!(
            g.record.main.terminal.as_ref().unwrap().kind,
            kind,
            "{word}"
        );
    }
    let g = &read(b"P-7f 1/2-1/2\n")[0];
    assert_eq!(g.record.claim.as_ref().unwrap().outcome.name(), "draw");
    let g = &read(b"P-7f *\n")[0];
    assert!(g.record.claim.is_none());
}

#[test]
fn errors_have_locations() {
    let g = &read(b"[Sente \"A\"]\n\n1. P-7f P-3d 2. G-5h\n")[0];
    let e = &g.findings[0];
    assert_eq!((e.line, e.column, e.rule.id()), (3, 17, "ambiguous"));
    assert_eq!(e.ply, Some(3));
    assert_eq!(e.mv.as_deref(), Some("G-5h"));
    assert_eq!(g.record.main.moves.len(), 2);
    let g = &read(b"1. P-7f (\n")[0];
    assert_eq!(
        errors(g),
        ["1:9: syntax (expected `)` to close this variation)"]
    );
    let g = &read(b"1. P-7f )\n")[0];
    assert_eq!(errors(g), ["1:9: syntax (unmatched `)`)"]);
    let g = &read(b"1. P-7f P-3d P-7e Resigns P-4d\n")[0];
    assert_eq!(g.findings[0].rule.id(), "after-end");
    // An empty file still yields one game.
    let games = read(b"\n\n");
    assert_eq!(games.len(), 1);
    assert_eq!(games[0].findings[0].rule.id(), "empty");
    // Not UTF-8 and not Shift_JIS-decodable bytes never panic.
    let games = read(b"[Sente \"\xff\xfe\"]\n1. P-7f\n");
    assert_eq!(games.len(), 1);
}

#[test]
fn start_tags() {
    let g = &read(b"[SFEN \"lnsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL\"]\nP-7f\n")[0];
    assert_eq!(
        g.record.start.setup.turn,
        kifu::Color::Black,
        "board-only SFEN defaults to b"
    );
    for name in [
        "lance",
        "right lance",
        "bishop",
        "rook",
        "rook and lance",
        "2 piece",
        "10",
        "香落ち",
    ] {
        let text = format!("[Handicap \"{name}\"]\n");
        let g = &read(text.as_bytes())[0];
        assert!(errors(g).is_empty(), "{name}");
        assert!(g.record.start.handicap.is_some(), "{name}");
        assert_eq!(g.record.start.setup.turn, kifu::Color::White, "{name}");
    }
    let g = &read(b"[Handicap \"silly\"]\n1. P-7f\n")[0];
    assert_eq!(errors(g).len(), 1);
    // A non-standard start is written as an SFEN tag.
    let g = &read(b"[SFEN \"4k4/9/9/9/9/9/9/9/4K4 b G 1\"]\nG*5b\n")[0];
    let out = psn::write(&g.record, &WriteOptions::default()).unwrap();
    assert!(
        out.text.contains("[SFEN \"4k4/9/9/9/9/9/9/9/4K4 b G 1\"]"),
        "{}",
        out.text
    );
}

/// The roles a variant's records can name: its pieces and their promoted
/// forms.
fn roles_of(v: Variant) -> Vec<kifu::Role> {
    let rules = v.rules();
    let mut roles = Vec::new();
    for &(r, _) in rules.set {
        roles.push(r);
        if rules.can_promote(r) {
            roles.push(r.promoted().unwrap());
        }
    }
    roles
}

/// Every move the writer can write (`PsnMove::display`, which the writer
/// uses, for every role, square pair, capture flag and promotion suffix of
/// every variant) parses back to itself.
#[test]
fn written_moves_parse_back_exhaustively() {
    use kifu::psn::Promotion;
    let mut n = 0u32;
    for v in Variant::ALL {
        let board: Vec<kifu::Square> = kifu::Square::all()
            .filter(|s| v.rules().board.contains(*s))
            .collect();
        let roles = roles_of(v);
        let mut check = |m: PsnMove| {
            let text = m.display(v).to_string();
            assert_eq!(PsnMove::parse(&text, v), Ok(m), "{v:?} {text}");
            assert_eq!(
                PsnMove::parse_prefix(&format!("{text}!? x"), v),
                Ok((m, text.len())),
                "{v:?} {text}"
            );
            n += 1;
        };
        for &role in &roles {
            for &to in &board {
                check(PsnMove::Drop { role, to });
                let origins = std::iter::once(None).chain(board.iter().copied().map(Some));
                for from in origins {
                    for capture in [false, true] {
                        for promotion in [Promotion::None, Promotion::Promote, Promotion::Decline] {
                            check(PsnMove::Normal {
                                role,
                                from,
                                capture,
                                to,
                                promotion,
                            });
                        }
                    }
                }
            }
        }
    }
    assert!(n > 500_000, "{n} moves");
}

/// A bad move says where it went wrong and what was expected there.
#[test]
fn move_errors_name_the_place_and_the_expectation() {
    for (text, offset, message) in [
        ("", 0, "expected a piece letter, found the end of the move"),
        ("+", 1, "expected a piece letter, found the end of the move"),
        ("Q-7f", 0, "expected a piece letter"),
        ("+G-5h", 1, "expected a piece letter"),
        (
            "P",
            1,
            "expected an origin square, `-`, `x` or `*`, found the end of the move",
        ),
        ("P0-7f", 1, "expected an origin square, `-`, `x` or `*`"),
        (
            "P-",
            2,
            "expected a file digit 1-9, found the end of the move",
        ),
        (
            "P-7",
            3,
            "expected a rank letter a-i, found the end of the move",
        ),
        ("P-7j", 3, "expected a rank letter a-i"),
        ("P7g7f", 3, "expected `-` or `x`"),
        ("P7j-7f", 2, "expected a rank letter a-i"),
        (
            "P*",
            2,
            "expected a file digit 1-9, found the end of the move",
        ),
        ("P-7f+x", 5, "expected the end of the move"),
    ] {
        let e = PsnMove::parse(text, Variant::Standard).unwrap_err();
        assert_eq!((e.offset, e.message.as_str()), (offset, message), "{text}");
    }
}

/// The reader reports a bad move at the character where it went wrong,
/// with the grammar's expectation.
#[test]
fn bad_move_findings() {
    let g = &read("[Event \"é\"]\n1. P-7f 2. P-3j\n".as_bytes())[0];
    assert_eq!(
        errors(g),
        ["2:15: syntax (expected a move, found `P-3j` (expected a rank letter a-i))"]
    );
    let g = &read("1. P-7f 2. P-3d!x\n".as_bytes())[0];
    assert_eq!(
        errors(g),
        ["1:16: syntax (expected a move, found `P-3d!x`)"]
    );
    let g = &read("[Sente \"A\"] [Gote \n".as_bytes())[0];
    assert_eq!(
        errors(g),
        ["1:19: syntax (expected `\"` to start the value of tag `Gote`, found the end of the line)"]
    );
    let g = &read("Variation: x\n".as_bytes())[0];
    assert_eq!(
        errors(g),
        ["1:1: syntax (expected a move number after `Variation:`, found `x`)"]
    );
}

/// A foul ending a game (KIF `反則勝ち` / `反則負け`, CSA `%ILLEGAL_MOVE`,
/// `%-ILLEGAL_ACTION`) written as PSN and read back keeps its ending: PSN
/// has no foul word, so the writer states the winner in `[Result]` and the
/// reason in `[Termination "Rules infraction"]`, never `RepetitionWin` (a
/// perpetual-check win to other readers).
#[test]
fn a_foul_keeps_its_ending_through_psn() {
    use kifu::read::{Format, Reader};
    use kifu::record::Outcome;
    use kifu::write::{write, WriteOptions};
    let kif = |word: &str| {
        format!(
            "手合割：平手\n先手：甲\n後手：乙\n手数----指手---------消費時間--\n   1 ７六歩(77)\n   2 ３四歩(33)\n   3 {word}\n"
        )
    };
    let cases: Vec<(String, TerminalKind, Outcome)> = vec![
        // The previous move (gote's) was a foul: sente, to move, wins.
        (kif("反則勝ち"), TerminalKind::IllegalWin, Outcome::SenteWin),
        // Sente, to move, lost by a foul.
        (kif("反則負け"), TerminalKind::IllegalLoss, Outcome::GoteWin),
        (
            "V2.2\nPI\n+\n+7776FU\n-3334FU\n+2726FU\n%ILLEGAL_MOVE\n".to_string(),
            TerminalKind::IllegalLoss,
            Outcome::SenteWin,
        ),
        // Gote fouled, with gote to move: a loss for the side to move.
        (
            "V2.2\nPI\n+\n+7776FU\n-3334FU\n+2726FU\n%-ILLEGAL_ACTION\n".to_string(),
            TerminalKind::IllegalLoss,
            Outcome::SenteWin,
        ),
    ];
    for (text, kind, outcome) in cases {
        let game = Reader::new(text.as_bytes()).unwrap().next_game().unwrap();
        let before = game.record.main.terminal.as_ref().expect("a terminal");
        assert_eq!(
            before.kind.reason_id(),
            "illegal-move",
            "{text}: {:?}",
            before.kind
        );
        let out = write(&game.record, Format::Psn, &WriteOptions::default()).unwrap();
        assert!(
            out.dropped.terminals.is_empty(),
            "{text}: {:?}\n{}",
            out.dropped,
            out.text
        );
        assert!(out.text.contains("[Termination \"Rules infraction\"]\n"));
        assert!(!out.text.contains("RepetitionWin"), "{}", out.text);
        let back =
            Reader::with_options(out.text.as_bytes(), Some(Format::Psn), &Default::default())
                .unwrap()
                .next_game()
                .unwrap();
        assert!(
            errors(&back).is_empty(),
            "{:?}\n{}",
            errors(&back),
            out.text
        );
        let t = back.record.main.terminal.as_ref().expect("the foul back");
        assert_eq!(t.kind, kind, "{}", out.text);
        assert_eq!(back.record.claim.as_ref().unwrap().outcome, outcome);
        assert_eq!(back.record.main.moves.len(), game.record.main.moves.len());
        assert!(
            !back
                .record
                .header
                .entries
                .iter()
                .any(|(k, _)| k.name() == "Termination"),
            "the tag is the terminal, not a header"
        );
        // And written again: the same text.
        let again = write(&back.record, Format::Psn, &WriteOptions::default()).unwrap();
        assert_eq!(again.text, out.text);
    }
    // Without a winner in the result, or with a terminal word of its own,
    // the tag is an ordinary header.
    let g = &read(b"[Termination \"Rules infraction\"]\n1.P7g-7f\n*\n")[0];
    assert!(g.record.main.terminal.is_none());
    assert_eq!(g.record.header.entries.len(), 1);
    let g = &read(b"[Termination \"rules infraction\"]\n[Result \"0-1\"]\n1.P7g-7f 2.Resigns\n")[0];
    assert_eq!(
        g.record.main.terminal.as_ref().unwrap().kind,
        TerminalKind::Resign
    );
    assert_eq!(g.record.header.entries.len(), 1);
    // Sente made the foul and gote is to move: gote wins, illegal-win.
    let g = &read(b"[Result \"0-1\"]\n[Termination \"Rules infraction\"]\n1.P7g-7f\n0-1\n")[0];
    assert!(errors(g).is_empty(), "{:?}", errors(g));
    assert_eq!(
        g.record.main.terminal.as_ref().unwrap().kind,
        TerminalKind::IllegalWin
    );
    // `RepetitionWin` (PSN2: a perpetual-check win) is still read as one.
    let g = &read(b"1.P7g-7f 2.RepetitionWin\n")[0];
    assert_eq!(
        g.record.main.terminal.as_ref().unwrap().kind,
        TerminalKind::IllegalWin
    );
}

/// `[Result]` against a result token after the moves that contradicts it
/// (issue 27): a `claim-mismatch` error at the token, naming the tag; the
/// tag stands as the record's word but the result is not established.
/// The same result twice is fine.
#[test]
fn a_result_token_against_the_result_tag_is_a_claim_mismatch() {
    let g = &read(b"[Sente \"A\"]\n[Gote \"B\"]\n[Result \"1-0\"]\n1.P-7f P-3d 0-1\n")[0];
    let f: Vec<_> = g
        .findings
        .iter()
        .map(|f| (f.line, f.column, f.rule.id(), f.severity))
        .collect();
    assert_eq!(f, [(4, 13, "claim-mismatch", Severity::Error)]);
    assert!(
        g.findings[0].message.contains("`1-0` (line 3)"),
        "{}",
        g.findings[0].message
    );
    let report = kifu::validate::validate(g, &Default::default());
    assert!(!report.ok);
    assert!(report.established_result().is_none());
    let g = &read(b"[Result \"0-1\"]\n1.P-7f P-3d 0-1\n")[0];
    assert!(g.findings.is_empty(), "{:?}", g.findings);
}
