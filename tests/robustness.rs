//! Hostile input: no reader, validator or writer may panic, hang or report a
//! location outside the input, whatever the bytes. Runs every fixture
//! truncated at every line boundary and with thousands of seeded byte
//! mutations, plus synthetic extremes, and the caps on one game. Needs no
//! nightly toolchain. The command-line cases that measure resident memory
//! (through `/proc`) are in `tests/robustness_cli.rs`.

use kifu::read::{self, Format, Game, ReadOptions};
use kifu::validate::{validate, ValidateOptions};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// Generous: a hang guard, not a speed test.
const PER_CASE: Duration = Duration::from_secs(10);

/// CPU time of the calling thread, so that the hang guards measure the work
/// done and not how busy the machine is (the test harness runs these tests
/// side by side, and CI shares its cores).
#[derive(Clone, Copy)]
struct ThreadClock(Duration);

impl ThreadClock {
    fn now() -> ThreadClock {
        ThreadClock(thread_cpu_time())
    }

    fn elapsed(&self) -> Duration {
        ThreadClock::now().0.saturating_sub(self.0)
    }
}

/// Taken by the tests that time themselves or run the command line on
/// large inputs, so that they do not share the cores with each other.
static HEAVY: std::sync::Mutex<()> = std::sync::Mutex::new(());

fn heavy() -> std::sync::MutexGuard<'static, ()> {
    HEAVY.lock().unwrap_or_else(|e| e.into_inner())
}

fn fixtures() -> Vec<(PathBuf, Format)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures");
    let mut out = Vec::new();
    for e in walkdir::WalkDir::new(root).sort_by_file_name() {
        let e = e.unwrap();
        if let Some(f) = Format::from_path(e.path()) {
            if e.file_type().is_file() {
                out.push((e.path().to_path_buf(), f));
            }
        }
    }
    out
}

fn write_back(game: &Game, format: Format) {
    let _ = kifu::write::write(&game.record, format, &Default::default());
}

/// The message of a caught panic.
fn panic_message(e: &Box<dyn std::any::Any + Send>) -> String {
    e.downcast_ref::<String>()
        .cloned()
        .or_else(|| e.downcast_ref::<&str>().map(|s| s.to_string()))
        .unwrap_or_default()
}

/// Reads, validates and writes back; checks every finding's location.
fn exercise(bytes: &[u8], format: Option<Format>, label: &str) {
    let start = ThreadClock::now();
    let result = catch_unwind(AssertUnwindSafe(|| {
        let games = read::read_all(bytes, format, &ReadOptions::default());
        let text = String::from_utf8_lossy(bytes);
        let lines: Vec<&str> = text.split(['\n', '\r']).collect();
        for g in &games {
            let report = validate(g, &ValidateOptions::default());
            for f in &report.findings {
                if f.line == 0 {
                    continue;
                }
                assert!(
                    (f.line as usize) <= lines.len() + 1,
                    "{label}: finding at line {} but the input has {} lines: {f:?}",
                    f.line,
                    lines.len()
                );
                assert!(f.column >= 1, "{label}: column 0 on line {}: {f:?}", f.line);
            }
            if let Some(fmt) = format {
                write_back(g, fmt);
            }
        }
    }));
    if let Err(e) = result {
        panic!("{label}: panicked: {}", panic_message(&e));
    }
    assert!(
        start.elapsed() < PER_CASE,
        "{label}: took {:?}",
        start.elapsed()
    );
}

#[test]
fn truncations_at_every_line_boundary() {
    for (path, format) in fixtures() {
        let bytes = std::fs::read(&path).unwrap();
        let cuts: Vec<usize> = bytes
            .iter()
            .enumerate()
            .filter(|(_, &b)| b == b'\n')
            .map(|(i, _)| i + 1)
            .collect();
        // At most 80 cut points per file, spread evenly.
        let step = (cuts.len() / 80).max(1);
        for &cut in cuts.iter().step_by(step) {
            exercise(
                &bytes[..cut],
                Some(format),
                &format!("{} cut at byte {cut}", path.display()),
            );
            // And the same cut mid-line.
            let mid = cut.saturating_sub(3);
            exercise(
                &bytes[..mid],
                Some(format),
                &format!("{} cut at byte {mid}", path.display()),
            );
        }
    }
}

#[test]
fn seeded_byte_mutations() {
    let mut seed = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let files = fixtures();
    let mut cases = 0;
    for (path, format) in &files {
        let original = std::fs::read(path).unwrap();
        if original.is_empty() {
            continue;
        }
        for round in 0..24 {
            let mut bytes = original.clone();
            for _ in 0..(1 + next() % 4) {
                let at = (next() % bytes.len().max(1) as u64) as usize;
                match next() % 4 {
                    0 if !bytes.is_empty() => {
                        let i = at.min(bytes.len() - 1);
                        bytes[i] ^= 1 << (next() % 8);
                    }
                    1 => bytes.insert(at.min(bytes.len()), (next() % 256) as u8),
                    2 if !bytes.is_empty() => {
                        bytes.remove(at.min(bytes.len() - 1));
                    }
                    _ => {
                        // Splice in a piece of shogi vocabulary.
                        let words: [&[u8]; 8] = [
                            b"+0055FU",
                            "同　".as_bytes(),
                            b"%TORYO",
                            b"/\n",
                            "変化：3手\n".as_bytes(),
                            b"{",
                            b"(",
                            b"\"forks\":[",
                        ];
                        let w = words[(next() % 8) as usize];
                        let at = at.min(bytes.len());
                        bytes.splice(at..at, w.iter().copied());
                    }
                }
            }
            exercise(
                &bytes,
                Some(*format),
                &format!("{} mutation {round}", path.display()),
            );
            // Also without a format hint: the sniffer must cope.
            if round % 6 == 0 {
                exercise(
                    &bytes,
                    None,
                    &format!("{} mutation {round} sniffed", path.display()),
                );
            }
            cases += 1;
        }
    }
    assert!(cases >= 1000, "only {cases} mutation cases");
}

#[test]
fn synthetic_extremes() {
    let _heavy = heavy();
    let every = [
        Format::Csa,
        Format::Kif,
        Format::Ki2,
        Format::Psn,
        Format::Jkf,
        Format::Usi,
    ];
    let mut inputs: Vec<(String, Vec<u8>)> = vec![
        ("empty".into(), Vec::new()),
        ("nul bytes".into(), vec![0u8; 4096]),
        (
            "random bytes".into(),
            (0..65536u32)
                .map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8)
                .collect(),
        ),
        (
            "lone CR".into(),
            b"V2.2\rPI\r+\r+7776FU\r-3334FU\r%TORYO\r".to_vec(),
        ),
        ("utf-16le bom".into(), {
            let mut v = vec![0xFF, 0xFE];
            for u in "V2.2\nPI\n+\n+7776FU\n".encode_utf16() {
                v.extend_from_slice(&u.to_le_bytes());
            }
            v
        }),
        ("utf-16be bom".into(), {
            let mut v = vec![0xFE, 0xFF];
            for u in "手合割：平手\n".encode_utf16() {
                v.extend_from_slice(&u.to_be_bytes());
            }
            v
        }),
        ("mixed encodings".into(), {
            let mut v = "手合割：平手\n".as_bytes().to_vec();
            v.extend_from_slice(&[0x8E, 0xE8, 0x90, 0x94, b'\n']); // Shift_JIS 手数
            v
        }),
        (
            "header only".into(),
            "先手：A\n後手：B\n".as_bytes().to_vec(),
        ),
        ("50 MB single line".into(), vec![b'x'; 50 << 20]),
        ("deep brackets".into(), {
            let mut v = vec![b'['; 200_000];
            v.extend(vec![b'{'; 200_000]);
            v.extend(vec![b'('; 200_000]);
            v
        }),
    ];
    // A million-move game (kings shuffling: repetition ends it early, the
    // reader still reads every line).
    let mut big = b"V2.2\nPI\n+\n".to_vec();
    for _ in 0..250_000 {
        big.extend_from_slice(b"+5958OU\n-5152OU\n+5859OU\n-5251OU\n");
    }
    inputs.push(("million-move game".into(), big));
    // 10,000 nested variations: each 変化 block branches inside the previous one.
    let mut nested = String::from("手合割：平手\n手数----指手---------消費時間--\n");
    let shuffle = ["５八玉(59)", "５二玉(51)", "５九玉(58)", "５一玉(52)"];
    let n = 10_000;
    for k in 1..=n {
        nested.push_str(&format!("{k:>4} {}\n", shuffle[(k - 1) % 4]));
    }
    for k in 2..=n {
        nested.push_str(&format!(
            "\n変化：{k}手\n{k:>4} {}\n{:>4} {}\n",
            shuffle[(k - 1) % 4],
            k + 1,
            shuffle[k % 4]
        ));
    }
    inputs.push(("10,000 nested variations".into(), nested.into_bytes()));
    for (name, bytes) in &inputs {
        for f in every {
            exercise(bytes, Some(f), &format!("{name} as {f}"));
        }
        exercise(bytes, None, &format!("{name} sniffed"));
    }
}

/// The bodies of the cargo-fuzz targets (fuzz/src/lib.rs uses only the
/// public API), so that every input a target once failed on is replayed
/// here on the stable toolchain.
#[allow(dead_code)]
#[path = "../fuzz/src/lib.rs"]
mod fuzz_bodies;

/// Every file `fixtures/regressions/<target>-<name>.<ext>` (an input that
/// once made fuzz target `<target>` fail) passes that target now.
#[test]
fn fuzz_regressions() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/regressions");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .map(|d| d.filter_map(|e| e.ok()).map(|e| e.path()).collect())
        .unwrap_or_default();
    files.retain(|p| p.is_file() && p.extension().is_some_and(|e| e != "md"));
    files.sort();
    for path in &files {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let bytes = std::fs::read(path).unwrap();
        let target = name.split_once('-').map_or(name.as_str(), |(t, _)| t);
        let target = target.strip_suffix(".bin").unwrap_or(target);
        let start = ThreadClock::now();
        let result = catch_unwind(AssertUnwindSafe(|| match target {
            "sniff" => fuzz_bodies::read_target(&bytes, None),
            "sfen" => fuzz_bodies::sfen_target(&bytes),
            "usi_move" => fuzz_bodies::usi_move_target(&bytes),
            "replay" => fuzz_bodies::replay_target(&bytes),
            "visitor_break" => fuzz_bodies::visitor_break_target(&bytes),
            t => {
                let (kind, fmt) = t.split_once('_').unwrap_or((t, ""));
                let format: Format = fmt
                    .parse()
                    .unwrap_or_else(|e| panic!("{name}: unknown target `{t}`: {e}"));
                match kind {
                    "read" => fuzz_bodies::read_target(&bytes, Some(format)),
                    "roundtrip" => fuzz_bodies::roundtrip_target(&bytes, format),
                    _ => panic!("{name}: unknown target `{t}`"),
                }
            }
        }));
        if let Err(e) = result {
            panic!("{name}: {}", panic_message(&e));
        }
        assert!(
            start.elapsed() < PER_CASE,
            "{name}: took {:?}",
            start.elapsed()
        );
    }
    println!("{} fuzz regression inputs replayed", files.len());
}

/// Variations nested far deeper than `MAX_VARIATION_DEPTH` in the formats
/// whose variations nest by brackets (PSN `(`…`)`, JKF `forks`): read,
/// validated, written to every format and dropped without exhausting the
/// stack.
#[test]
fn deep_bracket_variations() {
    let n = 20_000;
    let mut psn = String::from("1.P-7f ");
    for _ in 0..n {
        psn.push_str("(1.P-2f ");
    }
    let mut closed = psn.clone();
    closed.push_str(&")".repeat(n));
    let mut jkf = String::from(r#"{"header":{},"moves":[{}"#);
    for _ in 0..n {
        jkf.push_str(
            r#",{"move":{"from":{"x":7,"y":7},"to":{"x":7,"y":6},"piece":"FU"},"forks":[["#,
        );
    }
    for (label, text, format) in [
        ("unclosed PSN", psn, Format::Psn),
        ("closed PSN", closed, Format::Psn),
        ("JKF forks", jkf, Format::Jkf),
    ] {
        let start = ThreadClock::now();
        let games = read::read_all(text.as_bytes(), Some(format), &ReadOptions::default());
        for g in &games {
            let _ = validate(g, &ValidateOptions::default());
            let _ = g.record.variation_count();
            let _ = g.record.comment_count();
            for f in Format::ALL {
                write_back(g, f);
            }
        }
        drop(games);
        assert!(
            start.elapsed() < PER_CASE,
            "{label}: took {:?}",
            start.elapsed()
        );
    }
}

/// Many variation blocks that all branch late in a long line
/// (`変化：N手`, PSN `Variation:N`): each block must not replay the line
/// from its start (that would be quadratic).
#[test]
fn many_late_variation_blocks() {
    let n = 40_000usize;
    let shuffle = ["５八玉(59)", "５二玉(51)", "５九玉(58)", "５一玉(52)"];
    let mut kif = String::from("手合割：平手\n手数----指手---------消費時間--\n");
    for k in 1..=n {
        kif.push_str(&format!("{k:>4} {}\n", shuffle[(k - 1) % 4]));
    }
    let psn_moves = ["K-5h", "K-5b", "K-5i", "K-5a"];
    let mut psn = String::new();
    for k in 1..=n {
        psn.push_str(&format!("{k}.{}\n", psn_moves[(k - 1) % 4]));
    }
    for _ in 0..n {
        kif.push_str(&format!("\n変化：{n}手\n{n:>4} {}\n", shuffle[(n - 1) % 4]));
        psn.push_str(&format!("Variation:{n}\n{n}.{}\n", psn_moves[(n - 1) % 4]));
    }
    for (label, text, format) in [("KIF", kif, Format::Kif), ("PSN", psn, Format::Psn)] {
        let start = ThreadClock::now();
        let games = read::read_all(text.as_bytes(), Some(format), &ReadOptions::default());
        let took = start.elapsed();
        assert_eq!(games.len(), 1, "{label}");
        assert!(took < Duration::from_secs(3), "{label}: read in {took:?}");
        println!("{label}: {} bytes read in {took:?}", text.len());
    }
}

/// CPU time of the calling thread (other tests running at the same time do
/// not count).
fn thread_cpu_time() -> Duration {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `ts` is a valid timespec for clock_gettime to fill.
    let rc = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    assert_eq!(rc, 0, "clock_gettime");
    Duration::new(ts.tv_sec as u64, ts.tv_nsec as u32)
}

/// Reads and validates `text` (built games and the streaming validator);
/// returns the CPU time it took on this thread.
fn read_and_validate_time(text: &[u8], format: Format) -> Duration {
    let start = thread_cpu_time();
    let games = read::read_all(text, Some(format), &ReadOptions::default());
    for g in &games {
        let _ = validate(g, &ValidateOptions::default());
    }
    let mut reader =
        read::Reader::with_options(text, Some(format), &ReadOptions::default()).unwrap();
    let mut v = kifu::validate::Validator::new(ValidateOptions::default());
    while reader.read_game(&mut v).is_some() {}
    drop(games);
    thread_cpu_time() - start
}

/// Doubling the input at most about doubles the time (generous slack; the
/// thread's CPU time is measured, the two sizes in turns, best of five, so
/// that other tests and other work on the machine count little; a
/// quadratic cost fails by far).
fn assert_linear(label: &str, format: Format, make: impl Fn(usize) -> Vec<u8>, n: usize) {
    let small = make(n);
    let large = make(2 * n);
    let (mut t1, mut t2) = (Duration::MAX, Duration::MAX);
    for _ in 0..5 {
        t1 = t1.min(read_and_validate_time(&small, format));
        t2 = t2.min(read_and_validate_time(&large, format));
    }
    println!(
        "{label}: {} bytes in {t1:?}, {} bytes in {t2:?}",
        small.len(),
        large.len()
    );
    assert!(
        t2 < t1 * 3 + Duration::from_millis(50),
        "{label}: {t1:?} for {} bytes but {t2:?} for {} bytes",
        small.len(),
        large.len()
    );
}

/// A CSA line of many comma-separated statements (1 MiB and more): columns
/// are counted once per line, not from the line start per statement.
#[test]
fn csa_comma_lines_are_linear() {
    assert_linear(
        "CSA moves on one line",
        Format::Csa,
        |n| {
            let mut v = b"PI\n+\n".to_vec();
            let shuffle = ["+5958OU", "-5152OU", "+5859OU", "-5251OU"];
            for k in 0..n {
                v.extend_from_slice(shuffle[k % 4].as_bytes());
                v.push(b',');
            }
            v.push(b'\n');
            v
        },
        150_000,
    );
    assert_linear(
        "1 MiB of commas",
        Format::Csa,
        |n| {
            let mut v = b"PI\n+\n".to_vec();
            v.extend(std::iter::repeat_n(b',', n));
            v.push(b'\n');
            v
        },
        1 << 20,
    );
}

/// A KI2 line of 100,000 moves.
#[test]
fn ki2_long_lines_are_linear() {
    assert_linear(
        "KI2 moves on one line",
        Format::Ki2,
        |n| {
            let shuffle = ["▲５八玉", "△５二玉", "▲５九玉", "△５一玉"];
            let mut s = String::from("手合割：平手\n");
            for k in 0..n {
                s.push_str(shuffle[k % 4]);
            }
            s.push('\n');
            s.into_bytes()
        },
        50_000,
    );
}

/// A game with many variations that branch alternately near the start and
/// near the end of a long main line: each costs the same whatever the
/// distance between branch points (no replay of the line from its start,
/// no copy of the history per variation).
#[test]
fn many_variations_are_linear() {
    use kifu::{Move, Position, Variant};
    // A legal main line from a seeded random walk.
    let mut pos = Position::new(Variant::Standard);
    let mut texts = Vec::new();
    let mut alternatives = Vec::new();
    let mut prev = None;
    let mut seed = 7u64;
    while texts.len() < 300 {
        let moves = pos.legal_moves();
        if moves.len() < 2 {
            break;
        }
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let m: Move = moves[(seed >> 33) as usize % moves.len()];
        let alt: Move = moves[if moves[0] == m { 1 } else { 0 }];
        texts.push(kifu::kif::move_text(&pos, m, prev).unwrap());
        alternatives.push(kifu::kif::move_text(&pos, alt, prev).unwrap());
        prev = Some(m.to());
        pos.play_unchecked(m);
    }
    let plies = texts.len();
    assert!(plies > 100, "the walk ended early");
    let make = |n: usize| {
        let mut s = String::from("手合割：平手\n手数----指手---------消費時間--\n");
        for (i, t) in texts.iter().enumerate() {
            s.push_str(&format!("{:>4} {t}\n", i + 1));
        }
        for k in 0..n {
            let ply = if k % 2 == 0 { 1 } else { plies };
            s.push_str(&format!(
                "\n変化：{ply}手\n{ply:>4} {}\n",
                alternatives[ply - 1]
            ));
        }
        s.into_bytes()
    };
    let games = read::read_all(&make(4), Some(Format::Kif), &ReadOptions::default());
    assert_eq!(games[0].record.variation_count(), 4);
    assert!(validate(&games[0], &ValidateOptions::default()).ok);
    assert_linear("KIF variations far apart", Format::Kif, make, 20_000);
}

/// A visitor that stops games and skips variations at seeded points never
/// makes a reader lose its place (the `visitor_break` fuzz target's body,
/// over every fixture and a synthetic multi-game stream of each format).
#[test]
fn stopping_a_visitor_keeps_the_readers_place() {
    let mut inputs: Vec<(Format, Vec<u8>)> = fixtures()
        .into_iter()
        .map(|(p, f)| (f, std::fs::read(p).unwrap()))
        .collect();
    let csa_game = "V2.2\nPI\n+\n+7776FU\n'c\n-3334FU\nT3\n%TORYO\n";
    inputs.push((Format::Csa, [csa_game; 6].join("/\n").into_bytes()));
    let psn_game = "[Sente \"a\"]\n1.P-7f (1.P-2f P-8d) P-3d {c} 2.Bx2b+ 1-0\n\n";
    inputs.push((Format::Psn, psn_game.repeat(6).into_bytes()));
    inputs.push((Format::Usi, b"startpos moves 7g7f 3c3d\n".repeat(6)));
    for (format, bytes) in &inputs {
        let f = Format::ALL.iter().position(|x| x == format).unwrap() as u8;
        for seed in 0..12u8 {
            let mut data = vec![f, seed];
            data.extend_from_slice(bytes);
            fuzz_bodies::visitor_break_target(&data);
        }
    }
}

/// A game beyond the size limit is reported once (rule `limit`), read up
/// to the limit, and the next game is read as usual.
#[test]
fn games_beyond_the_size_limit_are_reported() {
    let max = kifu::read::MAX_GAME_MOVES as usize;
    let mut csa = b"PI\n+\n".to_vec();
    let shuffle = ["+5958OU\n", "-5152OU\n", "+5859OU\n", "-5251OU\n"];
    for k in 0..max + 10 {
        csa.extend_from_slice(shuffle[k % 4].as_bytes());
    }
    csa.extend_from_slice(b"/\nPI\n+\n+7776FU\n");
    let games = read::read_all(&csa, Some(Format::Csa), &ReadOptions::default());
    assert_eq!(games.len(), 2);
    let limits: Vec<_> = games[0]
        .findings
        .iter()
        .filter(|f| f.rule.id() == "limit")
        .collect();
    assert_eq!(limits.len(), 1, "{:?}", limits);
    assert_eq!(limits[0].line as usize, 3 + max);
    assert_eq!(games[0].record.main.moves.len(), max);
    assert_eq!(games[1].record.main.moves.len(), 1);
    let report = validate(&games[0], &ValidateOptions::default());
    assert_eq!(
        report
            .findings
            .iter()
            .filter(|f| f.rule.id() == "limit")
            .count(),
        1
    );
}

/// A byte source of `len` bytes made on the fly (a BOM then `unit`
/// repeated), counting what was read from it.
struct Generated {
    bom: Vec<u8>,
    unit: Vec<u8>,
    len: u64,
    pos: u64,
    read: std::sync::Arc<std::sync::atomic::AtomicU64>,
}

impl std::io::Read for Generated {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let mut n = 0;
        while n < buf.len() && self.pos < self.len {
            let p = self.pos as usize;
            buf[n] = if p < self.bom.len() {
                self.bom[p]
            } else {
                self.unit[(p - self.bom.len()) % self.unit.len()]
            };
            n += 1;
            self.pos += 1;
        }
        self.read
            .fetch_add(n as u64, std::sync::atomic::Ordering::Relaxed);
        Ok(n)
    }
}

#[test]
fn utf16_streams_and_obeys_the_line_cap() {
    use kifu::read::lines::{LineError, MAX_LINE_BYTES};
    use std::sync::atomic::Ordering;
    let counter = std::sync::Arc::new(std::sync::atomic::AtomicU64::new(0));
    // 64 MiB of short UTF-16 lines: the first line comes after a little
    // reading, not after the whole input.
    let unit: Vec<u8> = "+7776FU\n"
        .encode_utf16()
        .flat_map(u16::to_le_bytes)
        .collect();
    let src = Generated {
        bom: vec![0xFF, 0xFE],
        unit,
        len: 64 << 20,
        pos: 0,
        read: counter.clone(),
    };
    let opts = kifu::read::DecodeOptions::default();
    let mut lines = kifu::read::LineReader::new(std::io::BufReader::new(src), &opts).unwrap();
    assert_eq!(lines.encoding(), kifu::read::Encoding::Utf16Le);
    match lines.next_line() {
        Some(Ok(Ok((1, text)))) => assert_eq!(text, "+7776FU"),
        other => panic!("{other:?}"),
    }
    let consumed = counter.load(Ordering::Relaxed);
    assert!(
        consumed < 4 << 20,
        "{consumed} bytes read for the first line of a UTF-16 stream"
    );
    // One UTF-16 line longer than the cap: cut and reported.
    let counter = std::sync::Arc::new(std::sync::atomic::AtomicU64::new(0));
    let src = Generated {
        bom: vec![0xFE, 0xFF],
        unit: vec![0x00, b'x'],
        len: 2 * MAX_LINE_BYTES as u64 + (4 << 20),
        pos: 0,
        read: counter,
    };
    let mut lines = kifu::read::LineReader::new(std::io::BufReader::new(src), &opts).unwrap();
    match lines.next_line() {
        Some(Ok(Err((1, LineError::TooLong)))) => {}
        Some(Ok(Ok((n, t)))) => panic!("line {n} of {} bytes not cut", t.len()),
        other => panic!("{other:?}"),
    }
    assert!(lines.next_line().is_none());
    // Bad UTF-16 (a lone surrogate) is an encoding finding at its column.
    let mut bytes = vec![0xFF, 0xFE];
    for u in "ab".encode_utf16() {
        bytes.extend_from_slice(&u.to_le_bytes());
    }
    bytes.extend_from_slice(&0xD800u16.to_le_bytes());
    bytes.extend_from_slice(&u16::from(b'c').to_le_bytes());
    let mut lines = kifu::read::LineReader::new(&bytes[..], &opts).unwrap();
    match lines.next_line() {
        Some(Ok(Err((1, LineError::Encoding { column, .. })))) => assert_eq!(column, 3),
        other => panic!("{other:?}"),
    }
}

// ---- Caps on one game: variations, comment and header text, findings ----

/// The findings of rule `limit` in a list.
fn limits(findings: &[kifu::read::Finding]) -> Vec<&kifu::read::Finding> {
    findings.iter().filter(|f| f.rule.id() == "limit").collect()
}

/// Reads `text` as `format` both ways (built and validated, validated while
/// reading) and checks that both report the same `limit` findings.
fn read_both(text: &[u8], format: Format) -> Vec<Game> {
    let games = read::read_all(text, Some(format), &ReadOptions::default());
    let mut reader =
        kifu::read::Reader::with_options(text, Some(format), &ReadOptions::default()).unwrap();
    let mut v = kifu::validate::Validator::new(ValidateOptions::default());
    for g in &games {
        let streamed = reader.read_game(&mut v).expect("as many games");
        let built = validate(g, &ValidateOptions::default());
        let key = |f: &&kifu::read::Finding| (f.line, f.column, f.message.clone());
        assert_eq!(
            limits(&streamed.findings)
                .iter()
                .map(key)
                .collect::<Vec<_>>(),
            limits(&built.findings).iter().map(key).collect::<Vec<_>>()
        );
    }
    games
}

#[test]
fn variations_beyond_the_cap_are_reported_and_left_out() {
    let max = kifu::read::MAX_GAME_VARIATIONS as usize;
    let mut kif = String::from(
        "手合割：平手\n手数----指手--\n   1 ７六歩(77)\n   2 ３四歩(33)\n   3 ２六歩(27)\n",
    );
    for _ in 0..max + 3 {
        kif.push_str("\n変化：2手\n   2 ８四歩(83)\n");
    }
    let games = read_both(kif.as_bytes(), Format::Kif);
    assert_eq!(games.len(), 1);
    let found = limits(&games[0].findings);
    assert_eq!(found.len(), 1, "{found:?}");
    // Block k (from 0) is a blank line and `変化：2手` from line 6 + 3k.
    assert_eq!((found[0].line, found[0].column), (7 + 3 * max as u32, 1));
    assert!(
        found[0].message.contains("variations"),
        "{}",
        found[0].message
    );
    let main = &games[0].record.main;
    assert_eq!(main.moves.len(), 3);
    assert_eq!(main.moves[1].variations.len(), max);
}

#[test]
fn comment_and_header_text_beyond_the_cap_is_reported_and_left_out() {
    use kifu::read::{MAX_GAME_TEXT_BYTES, TEXT_ENTRY_COST};
    // CSA comments of 1,000 bytes each (with their cost), past the cap,
    // then a move: the comments beyond are left out, the move is read.
    let text = "x".repeat(1000 - TEXT_ENTRY_COST);
    let fit = MAX_GAME_TEXT_BYTES / 1000;
    let comments = format!("'{text}\n").repeat(fit + 5);
    let csa = format!("PI\n+\n+7776FU\n{comments}-3334FU\n");
    let games = read_both(csa.as_bytes(), Format::Csa);
    let found = limits(&games[0].findings);
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!((found[0].line, found[0].column), (4 + fit as u32, 1));
    let main = &games[0].record.main;
    assert_eq!(main.moves.len(), 2);
    assert_eq!(main.moves[0].comments.len(), fit);
    // Held back before the first statement: the same cap.
    let csa = format!("{comments}PI\n+\n+7776FU\n");
    let games = read_both(csa.as_bytes(), Format::Csa);
    let found = limits(&games[0].findings);
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!((found[0].line, found[0].column), (fit as u32 + 1, 1));
    assert_eq!(games[0].record.main.moves.len(), 1);
    // KIF header entries count as comments do.
    let mut kif = String::new();
    for i in 0..fit + 5 {
        kif.push_str(&format!("k{i:05}：{}\n", &text[6..]));
    }
    kif.push_str("手数----指手--\n   1 ７六歩(77)\n");
    let games = read_both(kif.as_bytes(), Format::Kif);
    let found = limits(&games[0].findings);
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(games[0].record.header.entries.len(), fit);
    assert_eq!((found[0].line as usize, found[0].column), (fit + 1, 1));
    assert_eq!(games[0].record.main.moves.len(), 1);
}

#[test]
fn findings_beyond_the_cap_are_counted_not_kept() {
    let max = kifu::read::MAX_GAME_FINDINGS as usize;
    let mut kif = String::from("手合割：平手\n手数----指手--\n   1 ７六歩(77)\n");
    for _ in 0..max + 7 {
        kif.push_str("x\n");
    }
    let games = read_both(kif.as_bytes(), Format::Kif);
    let findings = &games[0].findings;
    assert_eq!(findings.len(), max + 1);
    let found = limits(findings);
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!((found[0].line as usize, found[0].column), (4 + max, 1));
    assert!(
        found[0].message.starts_with("7 more findings"),
        "{}",
        found[0].message
    );
}
