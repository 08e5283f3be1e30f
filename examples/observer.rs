//! A new per-game analysis in one file: an observer of the one replay.
//! For each game it prints the longest think of the main line (the move
//! and its seconds) beside what the replay established (plies, result),
//! and the opening the replay named, without playing a move itself.
//!
//! ```text
//! cargo run --example observer -- fixtures/examples/
//! ```

use kifu::read::{Flow, Reader, CONTINUE};
use kifu::record::MoveTime;
use kifu::replay::{Ended, Observer, Replay};
use kifu::rules::{Move, Position};
use kifu::tags::Taxonomy;
use kifu::validate::{Played, ValidateOptions};
use std::io::Write;
use std::path::{Path, PathBuf};

/// The longest think of a game: (ply, move, milliseconds).
#[derive(Default)]
struct LongestThink {
    ply: u32,
    last: Option<Move>,
    best: Option<(u32, Move, u64)>,
}

impl Observer for LongestThink {
    type Output = String;

    fn begin(&mut self, _index: usize) -> Flow {
        *self = LongestThink::default();
        CONTINUE
    }

    fn played(&mut self, p: &Played, _after: &Position) -> Flow {
        self.ply += 1;
        self.last = Some(p.mv);
        CONTINUE
    }

    fn time(&mut self, time: MoveTime) -> Flow {
        if let (Some(ms), Some(mv)) = (time.spent_ms, self.last) {
            if self.best.is_none_or(|(_, _, b)| ms > b) {
                self.best = Some((self.ply, mv, ms));
            }
        }
        CONTINUE
    }

    fn end(&mut self, ended: &Ended<'_>) -> String {
        let r = ended.report;
        let think = match self.best {
            Some((ply, mv, ms)) => format!(
                "longest think: ply {ply} {} ({} s)",
                mv.usi(kifu::Variant::Standard),
                ms / 1000
            ),
            None => "no times".to_string(),
        };
        let opening = match (ended.tags, ended.taxonomy) {
            (Some(tags), Some(tax)) => tags
                .sides
                .iter()
                .filter_map(|s| s.openings.first())
                .map(|f| tax.get(f.tag).id.clone())
                .collect::<Vec<_>>()
                .join(" vs "),
            _ => String::new(),
        };
        format!(
            "{} plies, {}; {think}; opening: {}",
            r.plies,
            r.result.outcome.name(),
            if opening.is_empty() { "-" } else { &opening }
        )
    }
}

fn files(p: &Path, out: &mut Vec<PathBuf>) {
    if p.is_dir() {
        let mut entries: Vec<_> = std::fs::read_dir(p)
            .into_iter()
            .flatten()
            .flatten()
            .map(|e| e.path())
            .collect();
        entries.sort();
        for e in entries {
            files(&e, out);
        }
    } else if p
        .extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| kifu::batch::DEFAULT_EXTENSIONS.contains(&e.to_ascii_lowercase().as_str()))
    {
        out.push(p.to_path_buf());
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let roots = if args.is_empty() {
        vec![concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/examples").to_string()]
    } else {
        args
    };
    let mut paths = Vec::new();
    for r in &roots {
        files(Path::new(r), &mut paths);
    }
    // One replay for every game: built once, reset by each game.
    let mut out = std::io::stdout().lock();
    let mut replay = Replay::new(ValidateOptions::default(), LongestThink::default())
        .with_names(Some(Taxonomy::builtin()));
    for path in paths {
        let Ok(mut reader) = Reader::from_path(&path) else {
            continue;
        };
        let mut n = 0;
        while let Some(g) = reader.read_game(&mut replay) {
            n += 1;
            if writeln!(out, "{}:{n}: {}", path.display(), g.output).is_err() {
                return; // a closed pipe: nothing more to say
            }
        }
    }
}
