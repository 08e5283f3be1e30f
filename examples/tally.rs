//! Tallies games, moves, players and how games ended over many records,
//! without building a single record: a visitor that keeps what it counts
//! and skips every variation.
//!
//! ```text
//! cargo run --example tally -- fixtures/examples/
//! ```

use kifu::read::{Flow, MoveEvent, Reader, Visitor, CONTINUE, SKIP};
use kifu::record::{HeaderKey, Location, TerminalKind};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

#[derive(Default)]
struct Tally {
    games: u64,
    moves: u64,
    /// Main-line moves of the game being read.
    plies: u64,
    players: BTreeMap<String, u64>,
    endings: BTreeMap<String, u64>,
}

impl Visitor for Tally {
    type Output = u64;

    fn begin_game(&mut self, _index: usize) -> Flow {
        self.games += 1;
        self.plies = 0;
        CONTINUE
    }

    fn header(&mut self, key: &HeaderKey, value: &str, _at: Location) -> Flow {
        if matches!(key, HeaderKey::Sente | HeaderKey::Gote) && !value.is_empty() {
            *self.players.entry(value.to_string()).or_default() += 1;
        }
        CONTINUE
    }

    fn movement(&mut self, _mv: &MoveEvent<'_>) -> Flow {
        self.plies += 1;
        CONTINUE
    }

    fn begin_variation(&mut self, _ply: u32, _at: Location) -> Flow {
        SKIP // main lines only: the reader skips the variation
    }

    fn terminal(&mut self, kind: &TerminalKind, _at: Location) -> Flow {
        *self.endings.entry(kind.reason().to_string()).or_default() += 1;
        CONTINUE
    }

    fn end_game(&mut self) -> u64 {
        self.moves += self.plies;
        self.plies
    }
}

fn files(path: &Path, out: &mut Vec<PathBuf>) {
    match std::fs::read_dir(path) {
        Ok(dir) => {
            let mut entries: Vec<_> = dir.filter_map(|e| e.ok()).map(|e| e.path()).collect();
            entries.sort();
            for p in entries {
                files(&p, out);
            }
        }
        Err(_) => {
            if kifu::read::Format::from_path(path).is_some() {
                out.push(path.to_path_buf());
            }
        }
    }
}

fn main() {
    let mut paths = Vec::new();
    for arg in std::env::args().skip(1) {
        files(Path::new(&arg), &mut paths);
    }
    let mut tally = Tally::default();
    for path in &paths {
        match Reader::from_path(path) {
            Ok(mut reader) => while reader.read_game(&mut tally).is_some() {},
            Err(e) => eprintln!("{}: {e}", path.display()),
        }
    }
    println!(
        "{} games, {} main-line moves in {} files",
        tally.games,
        tally.moves,
        paths.len()
    );
    for (ending, n) in &tally.endings {
        println!("  ended by {ending}: {n}");
    }
    let mut players: Vec<_> = tally.players.into_iter().collect();
    players.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    for (name, n) in players.iter().take(5) {
        println!("  {name}: {n} games");
    }
}
