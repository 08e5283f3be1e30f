//! The bodies of the fuzz targets (one small `fuzz_targets/*.rs` file per
//! target calls one of these). Kept in a library so that a crash input can
//! also be replayed from a plain test (`tests/robustness.rs` runs
//! `fixtures/regressions/` through the same public API).

use kifu::read::{self, Format, Game, ReadOptions, Severity};
use kifu::record::{Line, Record};
use kifu::validate::ValidateOptions;
use kifu::write::{Output, WriteError};
use kifu::{Color, Handicap, Move, Position, Role, Square, Status, Variant, Waivers};
use std::collections::HashSet;

/// Writes `record` in `format` with default options.
pub fn write(record: &Record, format: Format) -> Result<Output, WriteError> {
    kifu::write::write(record, format, &Default::default())
}

/// `read_<fmt>` and `sniff`: read, validate, build the stats rows, convert
/// to every format. Nothing may panic.
pub fn read_target(data: &[u8], format: Option<Format>) {
    let games = read::read_all(data, format, &ReadOptions::default());
    assert!(!games.is_empty(), "every input yields at least one game");
    let source = kifu::stats::Source {
        path: "fuzz".into(),
        format,
        encoding: None,
    };
    let stats = kifu::stats::StatsOptions {
        opening_plies: 16,
        sfen: true,
        moves: true,
    };
    for g in &games {
        let _ = kifu::stats::collect(&source, g, &stats, &ValidateOptions::default());
        for f in Format::ALL {
            let _ = write(&g.record, f);
        }
        let _ = kifu::usi::write(
            &g.record,
            &kifu::usi::WriteOptions {
                position_prefix: false,
                sfen_only: true,
            },
        );
    }
}

/// Cuts every line of `line` (played from `pos`) at its first move that is
/// not legal, so that notation-based writers (KI2, PSN) have something
/// they can express.
fn keep_legal(line: &mut Line, mut pos: Position) {
    let mut keep = line.moves.len();
    for (i, node) in line.moves.iter_mut().enumerate() {
        if pos.check(node.mv).is_err() {
            keep = i;
            break;
        }
        for v in &mut node.variations {
            keep_legal(v, pos);
        }
        node.variations.retain(|v| !v.moves.is_empty());
        pos.play_unchecked(node.mv);
    }
    if keep < line.moves.len() {
        line.moves.truncate(keep);
        line.terminal = None;
    }
}

fn same_moves(a: &Line, b: &Line, variations: bool, path: &mut Vec<usize>) -> Result<(), String> {
    if a.moves.len() != b.moves.len() {
        return Err(format!(
            "line {path:?}: {} moves, then {}",
            a.moves.len(),
            b.moves.len()
        ));
    }
    for (i, (x, y)) in a.moves.iter().zip(&b.moves).enumerate() {
        if x.mv != y.mv {
            return Err(format!("line {path:?} move {i}: {} then {}", x.mv, y.mv));
        }
        if variations {
            if x.variations.len() != y.variations.len() {
                return Err(format!(
                    "line {path:?} move {i}: {} variations, then {}",
                    x.variations.len(),
                    y.variations.len()
                ));
            }
            for (k, (va, vb)) in x.variations.iter().zip(&y.variations).enumerate() {
                path.push(i);
                path.push(k);
                same_moves(va, vb, true, path)?;
                path.pop();
                path.pop();
            }
        }
    }
    Ok(())
}

fn error_rules(g: &Game) -> HashSet<&'static str> {
    g.findings
        .iter()
        .filter(|f| f.severity == Severity::Error)
        .map(|f| f.rule.id())
        .collect()
}

/// Checks one read → write → read round trip of a record (its illegal
/// tails cut off first). Returns a description of the difference.
pub fn roundtrip_game(g: &Game, format: Format) -> Result<(), String> {
    let mut record = g.record.clone();
    let start = Position::from_setup_unchecked(&record.start.setup);
    keep_legal(&mut record.main, start);
    let Ok(out) = write(&record, format) else {
        return Ok(());
    };
    let again = read::read_all(out.text.as_bytes(), Some(format), &ReadOptions::default());
    let before = error_rules(g);
    let [g2] = again.as_slice() else {
        return Err(format!(
            "one game written, {} read back:\n{}",
            again.len(),
            out.text
        ));
    };
    let new: Vec<_> = g2
        .findings
        .iter()
        .filter(|f| f.severity == Severity::Error && !before.contains(f.rule.id()))
        .collect();
    if !new.is_empty() {
        return Err(format!("new errors {new:?} reading back:\n{}", out.text));
    }
    let (s1, s2) = (&record.start.setup, &g2.record.start.setup);
    if (s1.variant, s1.board, s1.hands, s1.turn) != (s2.variant, s2.board, s2.hands, s2.turn) {
        return Err(format!(
            "start {} then {}:\n{}",
            kifu::rules::write_sfen(s1),
            kifu::rules::write_sfen(s2),
            out.text
        ));
    }
    let variations = out.dropped.variations == 0;
    same_moves(&record.main, &g2.record.main, variations, &mut Vec::new())
        .map_err(|e| format!("{e}:\n{}", out.text))?;
    // (Writing what was read back does not always give the same text:
    // header keys that look like board lines, PSN comment blocks. Not
    // checked here; see docs/robustness.md.)
    Ok(())
}

/// `roundtrip_<fmt>`.
pub fn roundtrip_target(data: &[u8], format: Format) {
    for g in read::read_all(data, Some(format), &ReadOptions::default()) {
        if let Err(e) = roundtrip_game(&g, format) {
            panic!("{format} round trip: {e}");
        }
    }
}

/// `sfen`: parse in every variant hint, write back, parse again; a
/// position that passes the setup checks survives a round trip and its
/// legal moves all pass the checker.
pub fn sfen_target(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let hints = [
        None,
        Some(Variant::Standard),
        Some(Variant::Minishogi),
        Some(Variant::Doubutsu),
    ];
    for hint in hints {
        let Ok(setup) = kifu::rules::parse_sfen(text, hint) else {
            continue;
        };
        let written = kifu::rules::write_sfen(&setup);
        let back = kifu::rules::parse_sfen(&written, Some(setup.variant))
            .unwrap_or_else(|e| panic!("{written:?} (from {text:?}) does not parse: {e:?}"));
        assert_eq!(back, setup, "{written:?} from {text:?}");
        // The unchecked position must never break anything.
        let loose = Position::from_setup_unchecked(&setup);
        let _ = loose.legal_moves();
        let _ = loose.status();
        let _ = loose.sfen();
        let _ = loose.setup_errors();
        let _ = Handicap::detect(&setup);
        if let Ok(pos) = Position::from_setup(setup.clone(), Waivers::default()) {
            let again = Position::from_sfen(&pos.sfen()).expect("own sfen parses");
            assert_eq!(again, pos, "{text:?}");
            for m in pos.legal_moves() {
                assert!(pos.check(m).is_ok(), "{text:?}: {m} generated but refused");
            }
        }
    }
}

fn test_positions() -> Vec<Position> {
    let mut out = Vec::new();
    for v in Variant::ALL {
        out.push(Position::new(v));
    }
    for sfen in [
        // Middle game with pieces in hand, promoted pieces and a check.
        "ln1g1g1nl/1r1s1k3/p1pp1sbpp/4pp3/1p5P1/2PP5/PPBSPPP1P/2G1K2R1/LN3GSNL b Pp 31",
        "8k/9/7GP/9/9/9/9/9/K8 w RBb2g4s4n4l16p 1",
        "+R+B5nk/7p1/7PP/9/9/9/9/9/K8 b GSNL 1",
    ] {
        if let Ok(p) = Position::from_sfen(sfen) {
            out.push(p);
        }
    }
    out
}

/// `usi_move`: a USI move parses, prints back the same and is judged the
/// same way by the checker and the generator on a few positions.
pub fn usi_move_target(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let positions = test_positions();
    for v in Variant::ALL {
        let Some(m) = Move::from_usi(text, v) else {
            continue;
        };
        let printed = m.usi(v).to_string();
        assert_eq!(
            Move::from_usi(&printed, v),
            Some(m),
            "{text:?} → {printed:?}"
        );
        for pos in positions.iter().filter(|p| p.variant() == v) {
            let legal = pos.legal_moves();
            let ok = pos.check(m).is_ok();
            assert_eq!(ok, legal.contains(&m), "{} {printed}", pos.sfen());
            let _ = pos.gives_check(m);
            let _ = pos.captured(m);
            let _ = pos.moving_role(m);
            let _ = kifu::kif::move_text(pos, m, None);
            if ok {
                let mut p = *pos;
                p.play_unchecked(m);
                let lion = pos.captured(m).is_some_and(|p| p.role == Role::King);
                check_invariants(&p, total_pieces(pos) - u32::from(lion));
            }
        }
    }
}

/// Pieces on the board plus pieces in hand.
pub fn total_pieces(pos: &Position) -> u32 {
    let board = pos.occupied().count();
    board + pos.hand(Color::Black).total() + pos.hand(Color::White).total()
}

/// The engine's invariants after a move.
pub fn check_invariants(pos: &Position, pieces: u32) {
    let setup = pos.to_setup();
    let fresh = Position::from_setup_unchecked(&setup);
    assert_eq!(
        pos.hash(),
        fresh.hash(),
        "incremental hash of {}",
        pos.sfen()
    );
    let sfen = pos.sfen();
    let parsed = kifu::rules::parse_sfen(&sfen, Some(pos.variant()))
        .unwrap_or_else(|e| panic!("own sfen {sfen:?} does not parse: {e:?}"));
    assert_eq!(parsed, setup, "sfen round trip of {sfen}");
    assert_eq!(
        Position::from_setup_unchecked(&parsed).sfen(),
        sfen,
        "sfen round trip"
    );
    assert_eq!(total_pieces(pos), pieces, "piece count changed: {sfen}");
    for m in pos.legal_moves() {
        assert!(pos.check(m).is_ok(), "{sfen}: {m} generated but refused");
    }
}

/// `replay`: bytes become moves. The first byte picks the start (variant,
/// handicap); then each op byte is either an index among the legal moves
/// (played through [`kifu::rules::Replay`]), a raw board move or a raw
/// drop (checked: the checker and the generator must agree, and only a
/// legal one is played). Invariants are checked after every move.
pub fn replay_target(data: &[u8]) {
    let mut bytes = data.iter().copied();
    let Some(b0) = bytes.next() else {
        return;
    };
    let pos = match b0 % 8 {
        0..=3 => Position::new(Variant::Standard),
        4 => {
            let hs = &kifu::rules::HANDICAPS;
            let h = hs[(bytes.next().unwrap_or(0) as usize) % hs.len()].handicap;
            Position::from_setup_unchecked(&h.setup())
        }
        5 | 6 => Position::new(Variant::Minishogi),
        _ => Position::new(Variant::Doubutsu),
    };
    let mut pieces = total_pieces(&pos);
    let mut replay = kifu::rules::Replay::new(pos);
    let mut plies = 0u32;
    while let Some(op) = bytes.next() {
        let pos = *replay.position();
        if pos.status() != Status::Ongoing {
            break;
        }
        let legal = pos.legal_moves();
        let m = match op >> 6 {
            0 | 1 => {
                if legal.is_empty() {
                    break;
                }
                let i = (op as usize & 0x7f) | ((bytes.next().unwrap_or(0) as usize) << 7);
                legal[i % legal.len()]
            }
            2 => {
                let from = Square::from_index(bytes.next().unwrap_or(0) as usize % 81);
                let to = Square::from_index(bytes.next().unwrap_or(0) as usize % 81);
                let (Some(from), Some(to)) = (from, to) else {
                    continue;
                };
                Move::Normal {
                    from,
                    to,
                    promote: op & 1 == 1,
                }
            }
            _ => {
                let role = Role::ALL[op as usize % Role::ALL.len()];
                let Some(to) = Square::from_index(bytes.next().unwrap_or(0) as usize % 81) else {
                    continue;
                };
                Move::Drop { role, to }
            }
        };
        let verdict = pos.check(m);
        assert_eq!(
            verdict.is_ok(),
            legal.contains(&m),
            "{}: {} check={verdict:?}",
            pos.sfen(),
            m.usi(pos.variant())
        );
        let _ = pos.gives_check(m);
        let _ = pos.captured(m);
        let _ = pos.moving_role(m);
        if verdict.is_err() {
            assert!(replay.play(m).is_err());
            continue;
        }
        // A captured lion (doubutsu) leaves the game instead of going to hand.
        if pos.captured(m).is_some_and(|p| p.role == Role::King) {
            pieces -= 1;
        }
        if plies.is_multiple_of(2) {
            replay.play(m).expect("checked move plays");
        } else {
            replay.play_unchecked(m);
        }
        plies += 1;
        check_invariants(replay.position(), pieces);
        let _ = replay.end();
        let _ = replay.occurrences();
    }
}

/// Forwards events to a [`kifu::read::RecordBuilder`] and stops, at event
/// counts chosen by a seed, either the rest of the game or one variation.
struct Stopper {
    builder: kifu::read::RecordBuilder,
    seed: u64,
    events: u32,
    stop_at: u32,
    altered: bool,
}

impl Stopper {
    fn next(&mut self) -> bool {
        self.events += 1;
        self.events == self.stop_at
    }
}

impl kifu::read::Visitor for Stopper {
    type Output = (Game, bool);
    fn begin_game(&mut self, index: usize) -> kifu::read::Flow {
        self.seed = self
            .seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        // One game in three runs to its end.
        self.stop_at = match (self.seed >> 33) % 3 {
            0 => u32::MAX,
            _ => ((self.seed >> 40) % 64) as u32,
        };
        self.events = 0;
        self.altered = false;
        if self.next() {
            self.altered = true;
            return kifu::read::SKIP;
        }
        self.builder.begin_game(index)
    }
    fn finding(&mut self, f: kifu::read::Finding) -> kifu::read::Flow {
        self.step(|b| b.finding(f))
    }
    fn header(
        &mut self,
        key: &kifu::record::HeaderKey,
        value: &str,
        at: kifu::record::Location,
    ) -> kifu::read::Flow {
        self.step(|b| b.header(key, value, at))
    }
    fn start(&mut self, start: &kifu::record::Start) -> kifu::read::Flow {
        self.step(|b| b.start(start))
    }
    fn comment(&mut self, text: &str, at: kifu::record::Location) -> kifu::read::Flow {
        self.step(|b| b.comment(text, at))
    }
    fn movement(&mut self, mv: &kifu::read::MoveEvent<'_>) -> kifu::read::Flow {
        self.step(|b| b.movement(mv))
    }
    fn time(&mut self, t: kifu::record::MoveTime, at: kifu::record::Location) -> kifu::read::Flow {
        self.step(|b| b.time(t, at))
    }
    fn begin_variation(&mut self, ply: u32, at: kifu::record::Location) -> kifu::read::Flow {
        // Skipping a variation (not the game) at the chosen event.
        self.step(|b| b.begin_variation(ply, at))
    }
    fn end_variation(&mut self) -> kifu::read::Flow {
        self.builder.end_variation()
    }
    fn terminal(
        &mut self,
        kind: &kifu::record::TerminalKind,
        at: kifu::record::Location,
    ) -> kifu::read::Flow {
        self.step(|b| b.terminal(kind, at))
    }
    fn claim(&mut self, c: &kifu::record::ResultClaim) -> kifu::read::Flow {
        self.step(|b| b.claim(c))
    }
    fn end_game(&mut self) -> (Game, bool) {
        (self.builder.end_game(), self.altered)
    }
}

impl Stopper {
    fn step(
        &mut self,
        f: impl FnOnce(&mut kifu::read::RecordBuilder) -> kifu::read::Flow,
    ) -> kifu::read::Flow {
        if self.next() {
            self.altered = true;
            return kifu::read::SKIP;
        }
        f(&mut self.builder)
    }
}

/// `visitor_break`: a visitor that stops a game (or skips a variation) at
/// points the input chooses never makes the reader lose its place in a
/// multi-game stream: the same games come out, with the same indices, and
/// every game the visitor did not stop is the one [`read::read_all`] builds.
/// The first byte chooses the format, the second seeds the stop points.
pub fn visitor_break_target(data: &[u8]) {
    let [f, seed, text @ ..] = data else {
        return;
    };
    let format = Format::ALL[*f as usize % Format::ALL.len()];
    let opts = ReadOptions::default();
    let full = read::read_all(text, Some(format), &opts);
    let mut reader = read::Reader::with_options(text, Some(format), &opts).expect("in memory");
    let mut v = Stopper {
        builder: kifu::read::RecordBuilder::new(),
        seed: *seed as u64,
        events: 0,
        stop_at: 0,
        altered: false,
    };
    let mut n = 0;
    while let Some((game, altered)) = reader.read_game(&mut v) {
        let want = full.get(n).unwrap_or_else(|| {
            panic!(
                "{format}: game {n} read with stops, but only {} without",
                full.len()
            )
        });
        if !altered {
            assert_eq!(&game, want, "{format}: game {n} differs");
        }
        n += 1;
    }
    assert_eq!(n, full.len(), "{format}: games lost after a stop");
}
