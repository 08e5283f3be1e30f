//! `kifu export` at its bounds: headers that agree with their bodies (a
//! `.hcpe3` game of more than 65,535 moves, `.psv`'s `gamePly`), scores
//! beyond 64 bits, `--min-rating 0`, and outputs that fail (a full
//! device, a reader that goes away). See docs/export.md and
//! docs/robustness.md ("Export: headers that agree with their bodies").

use kifu::export::{decode_hcp, export, hcp, move_from_move16, ExportOptions, Layout};
use kifu::{Move, Position, Reader, Variant};
use std::collections::HashMap;
use std::io::Read;
use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::sync::OnceLock;

// The layouts' sizes, as the library gives them.
const HCPE_SIZE: usize = 38;
const PSV_SIZE: usize = 40;
const HCPE3_HEADER_SIZE: usize = 36;
const HCPE3_MOVE_WITH_CANDIDATE: usize = 10;
const HCPE3_MAX_MOVES: u32 = 65_535;

#[test]
fn the_sizes_are_the_layouts() {
    assert_eq!(Layout::Hcpe.record_size(), Some(HCPE_SIZE));
    assert_eq!(Layout::Psv.record_size(), Some(PSV_SIZE));
    assert_eq!(Layout::Hcpe3.header_size(), HCPE3_HEADER_SIZE);
    assert_eq!(Layout::Hcpe3.move_size(), HCPE3_MOVE_WITH_CANDIDATE);
    assert_eq!(Layout::Hcpe3.max_game_moves(), HCPE3_MAX_MOVES);
}

fn kifu(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_kifu"))
        .arg("export")
        .args(args)
        .output()
        .expect("kifu runs")
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

fn err(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn index(p: &Path) -> Vec<serde_json::Value> {
    std::fs::read_to_string(p)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// A move in CSA (`+7776FU`, `-0055KA`) in `pos`.
fn csa(pos: &Position, m: Move) -> String {
    let c = pos.turn().csa_char();
    let sq = |s: kifu::Square| String::from_utf8(s.csa().to_vec()).unwrap();
    match m {
        Move::Normal { from, to, promote } => {
            let role = pos.piece_at(from).unwrap().role;
            let after = if promote {
                role.promoted().unwrap()
            } else {
                role
            };
            format!("{c}{}{}{}", sq(from), sq(to), after.csa())
        }
        Move::Drop { role, to } => format!("{c}00{}{}", sq(to), role.csa()),
    }
}

/// A legal game of `plies` moves from the even start, played at random
/// (seeded): no position occurs more than twice (so no repetition ends
/// it) and no move mates; the side to move resigns at the end. Its CSA
/// text and its moves.
fn random_game(plies: usize, mut seed: u64) -> (String, Vec<Move>) {
    let mut pos = Position::new(Variant::Standard);
    let mut seen: HashMap<u64, u8> = HashMap::new();
    seen.insert(pos.hash(), 1);
    let mut text = String::from("V2.2\nN+A\nN-B\nPI\n+\n");
    let mut moves = Vec::with_capacity(plies);
    let mut legal = pos.legal_moves();
    while moves.len() < plies {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        let first = (seed % legal.len() as u64) as usize;
        let mut chosen = None;
        for k in 0..legal.len() {
            let m = legal[(first + k) % legal.len()];
            let mut next = pos;
            next.play_unchecked(m);
            if seen.get(&next.hash()).copied().unwrap_or(0) >= 2 {
                continue;
            }
            let replies = next.legal_moves();
            if replies.is_empty() {
                continue;
            }
            chosen = Some((m, next, replies));
            break;
        }
        let (m, next, replies) = chosen.expect("a move that neither mates nor repeats");
        text.push_str(&csa(&pos, m));
        text.push('\n');
        moves.push(m);
        *seen.entry(next.hash()).or_default() += 1;
        pos = next;
        legal = replies;
    }
    text.push_str("%TORYO\n");
    (text, moves)
}

/// More moves than a `.hcpe3` header counts, then a short game.
const LONG: usize = HCPE3_MAX_MOVES as usize + 4_465;
const SHORT: &str = "PI\n+\n+7776FU\n'** 30\n-3334FU\n+8822UM\n-3122GI\n%TORYO\n";

fn long_then_short() -> &'static (String, Vec<Move>) {
    static GAME: OnceLock<(String, Vec<Move>)> = OnceLock::new();
    GAME.get_or_init(|| {
        let (text, moves) = random_game(LONG, 0x9e37_79b9_7f4a_7c15);
        (format!("{text}/\n{SHORT}"), moves)
    })
}

/// The `.hcpe3` games of `bytes`: (start code, moveNum, result, moves).
fn hcpe3_games(bytes: &[u8]) -> Vec<([u8; 32], u16, u8, Vec<Move>)> {
    let mut out = Vec::new();
    let mut at = 0;
    while at < bytes.len() {
        assert!(
            at + HCPE3_HEADER_SIZE <= bytes.len(),
            "a cut header at {at}"
        );
        let code: [u8; 32] = bytes[at..at + 32].try_into().unwrap();
        let n = u16::from_le_bytes([bytes[at + 32], bytes[at + 33]]);
        let result = bytes[at + 34];
        at += HCPE3_HEADER_SIZE;
        let mut moves = Vec::new();
        for _ in 0..n {
            let m = &bytes[at..at + HCPE3_MOVE_WITH_CANDIDATE];
            assert_eq!(m[4..6], [1, 0], "candidateNum 1 at {at}");
            let v = u16::from_le_bytes([m[0], m[1]]);
            moves.push(move_from_move16(v).unwrap_or_else(|| panic!("move16 {v:#x} at {at}")));
            at += HCPE3_MOVE_WITH_CANDIDATE;
        }
        out.push((code, n, result, moves));
    }
    out
}

/// Every header agrees with its body: the games decode back to the
/// moves played, each part from the position where the one before
/// stopped, and the game after the long one is itself.
fn check_hcpe3(bytes: &[u8], moves: &[Move]) {
    let games = hcpe3_games(bytes);
    assert_eq!(
        games.len(),
        3,
        "the long game in two parts, then the short one"
    );
    let mut pos = Position::new(Variant::Standard);
    let mut played = 0;
    for (i, (code, n, result, got)) in games[..2].iter().enumerate() {
        assert_eq!(*code, hcp(&pos), "part {i} starts where the game is");
        let setup = decode_hcp(code).unwrap();
        assert_eq!(setup.turn, pos.turn());
        let expected = (moves.len() - played).min(HCPE3_MAX_MOVES as usize);
        assert_eq!(*n as usize, expected, "part {i}");
        assert_eq!(got[..], moves[played..played + expected], "part {i}");
        // The side to move at the end resigned: the other won.
        let winner = if moves.len().is_multiple_of(2) { 2 } else { 1 };
        assert_eq!(*result, winner, "part {i}: the game's result");
        for m in got {
            pos.play_unchecked(*m);
        }
        played += expected;
    }
    assert_eq!(played, moves.len(), "every move written");
    let (code, n, result, got) = &games[2];
    assert_eq!(*code, hcp(&Position::new(Variant::Standard)));
    assert_eq!((*n, *result), (4, 2));
    let usi: Vec<String> = got
        .iter()
        .map(|m| m.usi(Variant::Standard).to_string())
        .collect();
    assert_eq!(usi, ["7g7f", "3c3d", "8h2b+", "3a2b"]);
}

#[test]
fn a_game_over_65535_moves_is_written_as_several_hcpe3_games() {
    let (text, moves) = long_then_short();
    let mut out = Vec::new();
    let mut reader = Reader::new(text.as_bytes()).unwrap();
    let t = export(&mut reader, &ExportOptions::new(Layout::Hcpe3), &mut out).unwrap();
    assert_eq!((t.games, t.kept), (2, 2));
    assert_eq!(t.records, LONG as u64 + 4);
    assert_eq!(
        out.len(),
        3 * HCPE3_HEADER_SIZE + (LONG + 4) * HCPE3_MOVE_WITH_CANDIDATE
    );
    check_hcpe3(&out, moves);

    // The same through the command, with a warning and the index.
    let d = tempfile::tempdir().unwrap();
    let input = d.path().join("long.csa");
    std::fs::write(&input, text).unwrap();
    let o = d.path().join("long.hcpe3");
    let ix = d.path().join("long.jsonl");
    let r = kifu(&[s(&input), "--to", "hcpe3", "-o", s(&o), "--index", s(&ix)]);
    assert_eq!(r.status.code(), Some(0), "{}", err(&r));
    let e = err(&r);
    assert!(
        e.contains(&format!(
            "warning: game 1: {LONG} moves, more than an hcpe3 header counts (65535); \
             written as 2 consecutive hcpe3 games"
        )),
        "{e}"
    );
    assert!(
        e.contains("2 games written")
            && e.contains("1 split into hcpe3 games of at most 65535 moves"),
        "{e}"
    );
    let file = std::fs::read(&o).unwrap();
    assert_eq!(file, out, "the command writes what the library does");
    let v = index(&ix);
    assert_eq!(v[0]["records"], LONG as u64);
    assert_eq!(v[1]["first_record"], LONG as u64);
    assert_eq!(
        v[1]["offset"],
        (2 * HCPE3_HEADER_SIZE + LONG * HCPE3_MOVE_WITH_CANDIDATE) as u64
    );
}

/// `.psv` records stand alone: every position is written, its `gamePly`
/// (a u16) saturating at 65535.
#[test]
fn psv_game_ply_saturates() {
    let (text, moves) = long_then_short();
    let mut out = Vec::new();
    let mut reader = Reader::new(text.as_bytes()).unwrap();
    let t = export(&mut reader, &ExportOptions::new(Layout::Psv), &mut out).unwrap();
    assert_eq!(t.records, moves.len() as u64 + 4);
    let ply = |i: usize| u16::from_le_bytes([out[i * PSV_SIZE + 36], out[i * PSV_SIZE + 37]]);
    assert_eq!(ply(0), 1);
    assert_eq!(ply(65_534), 65_535);
    assert_eq!(ply(65_535), 65_535);
    assert_eq!(ply(moves.len() - 1), 65_535);
    assert_eq!(ply(moves.len()), 1, "the next game starts at 1");
}

/// A score too large for 64 bits is a very large score: clamped when
/// written, out of range for the dlshogi preset (as 2,000,000 is).
#[test]
fn an_evaluation_beyond_64_bits_is_a_large_score() {
    let game = |score: &str| {
        format!(
            "N+A\nN-B\n'black_rate:A:3600\n'white_rate:B:3600\nPI\n+\n+7776FU\n'** 30\n\
             -3334FU\n'** {score}\n+8822UM\n'** 500\n-3122GI\n'** 420\n%TORYO\n"
        )
    };
    let evals = |bytes: &[u8]| -> Vec<i16> {
        bytes
            .chunks_exact(HCPE_SIZE)
            .map(|r| i16::from_le_bytes([r[32], r[33]]))
            .collect()
    };
    for (score, written) in [
        ("99999999999999999999", -32767),
        ("-99999999999999999999", 32767),
        ("9223372036854775808", -32767),
        ("-9223372036854775809", 32767),
        ("2000000", -32767),
    ] {
        let text = game(score);
        let mut out = Vec::new();
        let opts = ExportOptions::new(Layout::Hcpe);
        export(&mut Reader::new(text.as_bytes()).unwrap(), &opts, &mut out).unwrap();
        // The second position has gote to move: sente's score negated.
        assert_eq!(evals(&out), [30, written, 500, -420], "{score}");
        let mut o = ExportOptions::dlshogi(Layout::Hcpe);
        o.min_plies = None;
        let mut out = Vec::new();
        let t = export(&mut Reader::new(text.as_bytes()).unwrap(), &o, &mut out).unwrap();
        assert_eq!(t.kept, 0, "{score}: left out as beyond ±1000000");
    }
    // A mate too long for 32 bits is a mate.
    let kif = "#詰み=先手勝ち:99999999999999999999手";
    assert_eq!(
        kifu::eval::score_of(kif),
        Some(kifu::eval::Score::Mate(i32::MAX))
    );
    let d = tempfile::tempdir().unwrap();
    let input = d.path().join("big.csa");
    std::fs::write(&input, game("99999999999999999999")).unwrap();
    let ix = d.path().join("big.jsonl");
    let r = kifu(&[
        s(&input),
        "--to",
        "hcpe",
        "--preset",
        "dlshogi",
        "--min-plies",
        "0",
        "--allow-empty",
        "-o",
        s(&d.path().join("big.hcpe")),
        "--index",
        s(&ix),
    ]);
    assert_eq!(r.status.code(), Some(0), "{}", err(&r));
    assert_eq!(index(&ix)[0]["reason"], "score-out-of-range");
}

/// dlshogi filters by rating only above 0: `--min-rating 0` keeps
/// unrated games, with the preset too.
#[test]
fn min_rating_zero_filters_nothing() {
    let unrated =
        "PI\n+\n+7776FU\n'** 30\n-3334FU\n'** 40\n+8822UM\n'** 500\n-3122GI\n'** 420\n%TORYO\n";
    for min in [0.0, -1.0] {
        let mut o = ExportOptions::dlshogi(Layout::Hcpe);
        o.min_plies = None;
        o.min_rating = Some(min);
        let mut out = Vec::new();
        let t = export(&mut Reader::new(unrated.as_bytes()).unwrap(), &o, &mut out).unwrap();
        assert_eq!((t.kept, t.records), (1, 4), "--min-rating {min}");
    }
    let d = tempfile::tempdir().unwrap();
    let input = d.path().join("unrated.csa");
    std::fs::write(&input, unrated).unwrap();
    let o = d.path().join("u.hcpe");
    let r = kifu(&[
        s(&input),
        "--to",
        "hcpe",
        "--preset",
        "dlshogi",
        "--min-plies",
        "0",
        "--min-rating",
        "0",
        "-o",
        s(&o),
    ]);
    assert_eq!(r.status.code(), Some(0), "{}", err(&r));
    assert_eq!(std::fs::read(&o).unwrap().len(), 4 * HCPE_SIZE);
    // Above 0 an unrated game is left out, as before.
    let r = kifu(&[
        s(&input),
        "--to",
        "hcpe",
        "--min-rating",
        "1",
        "--allow-empty",
        "--force",
        "-o",
        s(&o),
    ]);
    assert_eq!(r.status.code(), Some(0), "{}", err(&r));
    assert!(err(&r).contains("rating 1"), "{}", err(&r));
}

/// Many short games: more than the 1 MiB an output gathers.
fn many_games(dir: &Path) -> std::path::PathBuf {
    let p = dir.join("many.csa");
    let games = vec![SHORT; 12_000].join("/\n");
    std::fs::write(&p, games).unwrap();
    p
}

/// An output that fails commits nothing, exits 2, and the summary does
/// not claim games written.
#[test]
fn a_failed_write_says_nothing_was_written() {
    if !Path::new("/dev/full").exists() {
        eprintln!("skipped: no /dev/full");
        return;
    }
    let d = tempfile::tempdir().unwrap();
    let input = many_games(d.path());
    let ix = d.path().join("ix.jsonl");
    let o = d.path().join("o.hcpe");
    for args in [
        vec![s(&input), "--to", "hcpe", "-o", "/dev/full"],
        vec![
            s(&input),
            "--to",
            "hcpe",
            "-o",
            "/dev/full",
            "--index",
            s(&ix),
        ],
        vec![
            s(&input),
            "--to",
            "hcpe",
            "-o",
            s(&o),
            "--index",
            "/dev/full",
        ],
    ] {
        let r = kifu(&args);
        assert_eq!(r.status.code(), Some(2), "{args:?}: {}", err(&r));
        let e = err(&r);
        assert!(e.contains("/dev/full: error[io]: No space left"), "{e}");
        assert!(!e.contains("games written"), "{args:?}: {e}");
        assert!(
            e.contains("kifu export: an output failed; nothing committed"),
            "{e}"
        );
        assert!(!ix.exists() && !o.exists(), "{args:?}: nothing committed");
    }
    // A full standard output: one message, exit 2, as the other commands.
    let r = Command::new(env!("CARGO_BIN_EXE_kifu"))
        .args(["export", s(&input), "--to", "hcpe", "-o", "-"])
        .stdout(
            std::fs::OpenOptions::new()
                .write(true)
                .open("/dev/full")
                .unwrap(),
        )
        .output()
        .unwrap();
    assert_eq!(r.status.code(), Some(2), "{}", err(&r));
    let e = err(&r);
    assert_eq!(e.lines().count(), 1, "one message: {e}");
    assert!(
        e.contains("cannot write to standard output: No space left"),
        "{e}"
    );
}

/// `kifu export -o - | head`: the reader went away, the run ends quietly
/// with code 0 (as `convert`, `stats`, `tags`), committing no index.
#[test]
fn exit_0_quietly_when_the_reader_goes_away() {
    let d = tempfile::tempdir().unwrap();
    let input = many_games(d.path());
    let ix = d.path().join("ix.jsonl");
    for extra in [vec![], vec!["--index", s(&ix)]] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_kifu"))
            .args(["export", s(&input), "--to", "hcpe", "-o", "-", "-j", "1"])
            .args(&extra)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut stdout = child.stdout.take().unwrap();
        let mut first = [0u8; 64];
        stdout.read_exact(&mut first).unwrap();
        drop(stdout);
        let o = child.wait_with_output().unwrap();
        assert_eq!(o.status.code(), Some(0), "{extra:?}: {}", err(&o));
        assert_eq!(err(&o), "", "{extra:?}: quietly");
        assert!(!ix.exists(), "no index for records nobody read");
    }
}
