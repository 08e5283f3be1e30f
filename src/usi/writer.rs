//! The SFEN/USI writer: one `position` line (or bare SFEN) per game.

use crate::emit::{Output, WriteError};
use crate::record::{Line, Record};
use crate::rules::handicap::Handicap;
use crate::rules::position::Position;
use crate::rules::sfen::write_sfen;

/// Options of the SFEN/USI writer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WriteOptions {
    /// Start lines with the `position` word (default true).
    pub position_prefix: bool,
    /// Write only the final position of the main line as a bare SFEN line
    /// (`--to sfen`).
    pub sfen_only: bool,
}

impl Default for WriteOptions {
    fn default() -> WriteOptions {
        WriteOptions {
            position_prefix: true,
            sfen_only: false,
        }
    }
}

fn count_times(line: &Line) -> usize {
    line.moves
        .iter()
        .filter(|n| n.time.spent_ms.is_some() || n.time.total_ms.is_some())
        .count()
        + line.terminal.as_ref().map_or(0, |t| {
            usize::from(t.time.spent_ms.is_some() || t.time.total_ms.is_some())
        })
}

fn write_into(record: &Record, opts: &WriteOptions, out: &mut Output) {
    let setup = &record.start.setup;
    let d = &mut out.dropped;
    // A `position` line holds the start and the main line's moves only.
    d.variations += record.variation_count();
    d.comments += record.comment_count();
    d.times += count_times(&record.main);
    for (k, v) in &record.header.entries {
        if !crate::emit::restates_start(k, v, record) {
            d.headers.add(k.name());
        }
    }
    d.results += usize::from(record.claim.is_some());
    if let Some(t) = &record.main.terminal {
        d.terminals.add(t.kind.reason());
    }
    let variant = record.variant();
    if opts.sfen_only {
        let mut pos = Position::from_setup_unchecked(setup);
        for n in &record.main.moves {
            pos.play_unchecked(n.mv);
        }
        out.text.push_str(&pos.sfen());
        out.text.push('\n');
        return;
    }
    if opts.position_prefix {
        out.text.push_str("position ");
    }
    if *setup == Handicap::Even.setup() {
        out.text.push_str("startpos");
    } else {
        out.text.push_str("sfen ");
        out.text.push_str(&write_sfen(setup));
    }
    if !record.main.moves.is_empty() {
        out.text.push_str(" moves");
        for n in &record.main.moves {
            out.text.push(' ');
            out.text.push_str(&n.mv.usi(variant).to_string());
        }
    }
    out.text.push('\n');
}

/// Writes one game as one line.
pub fn write(record: &Record, opts: &WriteOptions) -> Result<Output, WriteError> {
    let mut out = Output::default();
    write_into(record, opts, &mut out);
    Ok(out)
}

/// Writes one line per game.
pub fn write_games(records: &[Record], opts: &WriteOptions) -> Result<Output, WriteError> {
    let mut out = Output::default();
    for r in records {
        write_into(r, opts, &mut out);
    }
    Ok(out)
}
