//! `kifu export`: training data (`.hcpe`, `.psv`, `.hcpe3`) from records.

use crate::args::ColorArg;
use crate::batch::{self, Event};
use crate::cmd::common;
use crate::cmd::select::Keep;
use crate::export_args::{DedupeArg, ExportArgs, Preset, SplitPart};
use crate::out;
use crate::output::{Destination, Plan, Sink};
use crate::progress::Progress;
use crate::report::{self, Dest, Reporter, Settings};
use kifu::export::{ExportOptions, Exporter, GameExport, Layout, SkipReason, HCPE3_MAX_MOVES};
use kifu::read::{Rule, Severity};
use kifu::replay::Replayed;
use kifu::select::Selector;
use std::collections::{BTreeMap, HashSet};
use std::io::{self, Write};
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};

/// How much an output gathers before it writes.
const BUFFER: usize = 1 << 20;

fn usage(msg: &str) -> io::Result<u8> {
    out::err(&format!("kifu export: {msg}"));
    Ok(out::FAILURE)
}

/// One output file: the main one (`-o`) or a `--split` part.
struct Part {
    /// The part's name (`None` for `-o`).
    name: Option<String>,
    sink: Sink,
    buf: Vec<u8>,
    /// Records and bytes written, games kept.
    records: u64,
    bytes: u64,
    games: u64,
    failed: Option<io::Error>,
}

impl Part {
    fn new(name: Option<String>, sink: Sink) -> Part {
        Part {
            name,
            sink,
            buf: Vec::with_capacity(BUFFER + (64 << 10)),
            records: 0,
            bytes: 0,
            games: 0,
            failed: None,
        }
    }

    fn write(&mut self, bytes: &[u8], records: u64) {
        self.buf.extend_from_slice(bytes);
        self.records += records;
        self.bytes += bytes.len() as u64;
        self.games += 1;
        if self.buf.len() >= BUFFER {
            self.drain();
        }
    }

    fn drain(&mut self) {
        if self.failed.is_none() {
            if let Err(e) = self.sink.write_all(&self.buf) {
                self.failed = Some(e);
            }
        }
        self.buf.clear();
    }
}

/// `data.hcpe` → `data-test.hcpe` for the part `test`.
fn part_path(main: &Path, name: &str) -> PathBuf {
    let stem = main
        .file_stem()
        .map_or_else(|| "export".into(), |s| s.to_string_lossy().into_owned());
    let file = match main.extension() {
        Some(e) => format!("{stem}-{name}.{}", e.to_string_lossy()),
        None => format!("{stem}-{name}"),
    };
    main.with_file_name(file)
}

/// The part (index into the split parts, `None` for `-o`) a game goes to:
/// a hash of the seed and the game key, so that copies of a game land
/// together and the choice does not depend on `-j` or on other games.
fn choose(split: &[SplitPart], seed: u64, key: kifu::select::GameKey) -> Option<usize> {
    if split.is_empty() {
        return None;
    }
    let mut bytes = [0u8; 24];
    bytes[..8].copy_from_slice(&seed.to_le_bytes());
    bytes[8..].copy_from_slice(&key.0.to_le_bytes());
    let u = (xxhash_rust::xxh3::xxh3_64(&bytes) >> 11) as f64 / (1u64 << 53) as f64;
    let mut edge = 0.0;
    for (i, p) in split.iter().enumerate() {
        edge += p.fraction;
        if u < edge {
            return Some(i);
        }
    }
    None
}

/// Export options from the flags (the preset first, explicit flags over it).
fn options(a: &ExportArgs, game_key: bool) -> ExportOptions {
    let mut o = match a.preset {
        Some(Preset::Dlshogi) => ExportOptions::dlshogi(a.to),
        None => ExportOptions::new(a.to),
    };
    if !a.endings.is_empty() {
        o.endings = a
            .endings
            .iter()
            .flat_map(|w| kifu::export::parse_ending(w).unwrap_or_default())
            .collect();
    }
    if a.filter.min_plies.is_some() {
        o.min_plies = a.filter.min_plies;
    }
    if a.min_rating.is_some() {
        o.min_rating = a.min_rating;
    }
    o.require_eval |= a.require_eval;
    o.game_key = game_key;
    o
}

pub fn run(a: ExportArgs, color: ColorArg) -> io::Result<u8> {
    let strictness = match a.strict.strictness() {
        Ok(s) => s,
        Err(e) => return usage(&e),
    };
    if a.filter.invalid {
        return usage("--invalid: only games without an error are exported");
    }
    if a.dedupe_what == Some(DedupeArg::Position) && a.to == Layout::Hcpe3 {
        return usage("--dedupe position: hcpe3 keeps games whole (use --dedupe game)");
    }
    let total: f64 = a.split.iter().map(|p| p.fraction).sum();
    if total > 1.0 + 1e-9 {
        return usage(&format!(
            "--split: the fractions add up to {total}, more than 1"
        ));
    }
    let mut names = HashSet::new();
    if let Some(p) = a.split.iter().find(|p| !names.insert(p.name.as_str())) {
        return usage(&format!("--split: the part `{}` is named twice", p.name));
    }
    let main = Destination::parse(a.output.as_os_str());
    if !a.split.is_empty() && main == Destination::Stdout {
        return usage("--split writes one file per part: name the main one with -o FILE");
    }
    let inputs = common::discover(&a.input, &[]);
    // Every output is planned before the first game is read.
    let mut plan = Plan::new(&inputs, a.force);
    let style = a.diagnostics.style();
    let job_summary = match report::job_summary(style, &mut plan) {
        Ok(s) => s,
        Err(e) => return usage(&e),
    };
    let mut dests = vec![(None, main.clone())];
    for p in &a.split {
        dests.push((
            Some(p.name.clone()),
            Destination::Path(part_path(&a.output, &p.name)),
        ));
    }
    for (name, d) in &dests {
        let owner = match name {
            None => "the records (-o)".to_string(),
            Some(n) => format!("the part `{n}` (--split)"),
        };
        if let Err(e) = plan.claim(d, &owner) {
            return usage(&e);
        }
    }
    let index_dest = a.index.as_ref().map(|p| Destination::parse(p.as_os_str()));
    if let Some(d) = &index_dest {
        if let Err(e) = plan.claim(d, "the index (--index)") {
            return usage(&e);
        }
    }
    if let Some(code) = common::nothing_found(&a.input, "export", &inputs) {
        return Ok(code);
    }
    let mut parts = Vec::new();
    for (name, d) in dests {
        match plan.open(&d) {
            Ok(s) => parts.push(Part::new(name, s)),
            Err(e) => return usage(&e.to_string()),
        }
    }
    let mut index = match &index_dest {
        None => None,
        Some(d) => match plan.open(d) {
            Ok(s) => Some(Part::new(None, s)),
            Err(e) => return usage(&e.to_string()),
        },
    };
    let dedupe_games = a.dedupe_what == Some(DedupeArg::Game) || a.filter.dedupe;
    let opts = options(&a, index.is_some() || !a.split.is_empty() || dedupe_games);
    let mut filter = a.filter.filter(Some(&a.moves));
    // The length and validity are the exporter's: its index says why.
    filter.min_plies = None;
    filter.valid = None;
    let read_opts = common::read_options(&a.input, a.encoding);
    let readable = inputs.iter().filter(|i| i.issue.is_none()).count();
    let mut progress = Progress::new(readable as u64, true);
    let mut rep = Reporter::new(
        Settings {
            command: "export",
            style,
            strictness,
            color: style == crate::args::OutputFormat::Human && report::color(color, false),
            quiet: false,
            errors_only: false,
            every_game: false,
            summary: job_summary,
        },
        Dest::Stderr,
        &progress,
    );
    let workers = common::workers(&a.input, |n| rep.tool_warning(n, &progress));
    let mut keep = Keep::new(dedupe_games);
    let mut seen: Option<HashSet<u128>> =
        (a.dedupe_what == Some(DedupeArg::Position)).then(HashSet::new);
    let mut skipped: BTreeMap<&'static str, u64> = BTreeMap::new();
    let mut invalid = 0u64;
    // Games written as several `.hcpe3` games (over 65,535 moves).
    let mut split_games = 0u64;
    let size = a.to.record_size();
    let per_game = batch::Visitors(|| {
        let sel = Selector::new(&filter).stop_rejected(true);
        let names = sel.needs_names();
        Exporter::replay_with(opts.clone(), |e| (sel, e))
            .with_names(names.then(kifu::tags::Taxonomy::builtin))
    });
    let mut line = Vec::new();
    batch::run(&inputs, &workers, &read_opts, per_game, |ev| {
        match ev {
            Event::Game(meta, index_in_file, sel) => {
                progress.game();
                let Replayed {
                    mut report,
                    output: (verdict, output),
                } = sel;
                let hcpe3_games = output.hcpe3_games();
                let GameExport {
                    skipped: why,
                    records,
                    bytes,
                } = output;
                report.index = index_in_file;
                let kept_by_filter = keep.keep(verdict.matched, report.game_key);
                if verdict.matched || verdict.read_error {
                    rep.game(&meta, &mut report, &progress);
                }
                if !report.ok {
                    invalid += 1;
                }
                let mut reason: Option<&'static str> = if !verdict.matched {
                    Some("filter")
                } else if !kept_by_filter {
                    Some("duplicate")
                } else if !report.ok {
                    Some(SkipReason::Invalid.name())
                } else {
                    why.map(SkipReason::name)
                };
                if reason.is_none() && why.is_some() {
                    reason = why.map(SkipReason::name);
                }
                // A game the layouts cannot hold is a finding of its own.
                let unwritable = match why {
                    Some(SkipReason::Variant) => Some(format!(
                        "{} has no {} layout",
                        verdict.info.variant.name(),
                        a.to
                    )),
                    Some(SkipReason::Unencodable(u)) => Some(u.to_string()),
                    _ => None,
                };
                if let (Some(what), true) = (unwritable, verdict.matched && report.ok) {
                    rep.note(
                        Some(&meta.display),
                        Some(Severity::Warning),
                        None,
                        &format!("game {}: {what}; not written", index_in_file + 1),
                        &progress,
                    );
                }
                // A game longer than a `.hcpe3` header counts is written as
                // several `.hcpe3` games: said once per game, and counted.
                if a.to == Layout::Hcpe3 && why.is_none() && hcpe3_games > 1 {
                    rep.note(
                        Some(&meta.display),
                        Some(Severity::Warning),
                        None,
                        &format!(
                            "game {}: {records} moves, more than an hcpe3 header counts \
                             ({HCPE3_MAX_MOVES}); written as {hcpe3_games} consecutive hcpe3 games",
                            index_in_file + 1
                        ),
                        &progress,
                    );
                }
                // Records that survive --dedupe position.
                let mut kept_bytes = bytes;
                let mut kept_records = u64::from(records);
                if reason.is_none() {
                    if let (Some(seen), Some(size)) = (seen.as_mut(), size) {
                        let before = kept_bytes.len();
                        let mut out = Vec::with_capacity(before);
                        for rec in kept_bytes.chunks_exact(size) {
                            if seen.insert(xxhash_rust::xxh3::xxh3_128(&rec[..32])) {
                                out.extend_from_slice(rec);
                            }
                        }
                        kept_records = (out.len() / size) as u64;
                        kept_bytes = out;
                        if kept_records == 0 {
                            reason = Some("duplicate");
                        }
                    }
                }
                let part = reason
                    .is_none()
                    .then(|| choose(&a.split, a.seed, report.game_key).map_or(0, |i| i + 1));
                let (first, offset) = match part {
                    Some(i) => {
                        let p = &mut parts[i];
                        let at = (p.records, p.bytes);
                        p.write(&kept_bytes, kept_records);
                        if a.to == Layout::Hcpe3 && hcpe3_games > 1 {
                            split_games += 1;
                        }
                        (Some(at.0), Some(at.1))
                    }
                    None => {
                        *skipped.entry(reason.unwrap_or("other")).or_default() += 1;
                        (None, None)
                    }
                };
                if let Some(ix) = index.as_mut() {
                    let v = serde_json::json!({
                        "path": meta.display,
                        "game": index_in_file,
                        "game_key": report.game_key.to_string(),
                        "status": if part.is_some() { "kept" } else { "skipped" },
                        "reason": reason,
                        "file": part.map(|i| parts[i].sink.display()),
                        "split": part.and_then(|i| parts[i].name.clone()),
                        "first_record": first,
                        "records": if part.is_some() { kept_records } else { 0 },
                        "offset": offset,
                        "result": report.result.outcome.name(),
                        "plies": report.plies,
                    });
                    line.clear();
                    let _ = serde_json::to_writer(&mut line, &v);
                    line.push(b'\n');
                    ix.buf.extend_from_slice(&line);
                    if ix.buf.len() >= BUFFER {
                        ix.drain();
                    }
                }
                if parts.iter().any(|p| p.failed.is_some())
                    || index.as_ref().is_some_and(|p| p.failed.is_some())
                {
                    return ControlFlow::Break(());
                }
            }
            Event::FileDone(meta) => {
                if meta.error.is_none() && meta.skipped.is_none() {
                    progress.file();
                }
                rep.file_done(&meta, &progress);
            }
        }
        ControlFlow::Continue(())
    });
    progress.finish();
    // Write what is gathered; the first failure ends the run with nothing
    // committed. Standard output that fails is the command's own failure,
    // as for `convert` and `stats`: a reader that went away (`| head`)
    // ends the run quietly with code 0, any other failure is said once
    // (exit 2).
    let mut io_errors = 0u64;
    let mut failed = false;
    for p in parts.iter_mut().chain(index.as_mut()) {
        p.drain();
        if let Some(e) = p.failed.take() {
            if matches!(p.sink, Sink::Stdout(_)) {
                let _ = rep.finish(false, &progress);
                return Err(e);
            }
            rep.note(
                Some(&p.sink.display()),
                Some(Severity::Error),
                Some(Rule::Io),
                &e.to_string(),
                &progress,
            );
            failed = true;
        }
    }
    // What was committed, for the summary: only outputs that are in place.
    let mut written = Vec::new();
    let mut kept = 0u64;
    let mut not_written = Vec::new();
    if failed {
        io_errors += 1;
    } else {
        // A records file with no game is not created (as `convert -o`);
        // the index is, whatever it lists.
        let outputs = parts
            .into_iter()
            .map(|p| (p.games == 0 && !a.input.allow_empty, true, p))
            .chain(index.map(|p| (false, false, p)));
        for (empty, records_file, p) in outputs {
            let name = p.sink.display();
            let line = format!("{} games ({} records) in {name}", p.games, p.records);
            let games = p.games;
            if empty {
                rep.note(
                    None,
                    None,
                    None,
                    &format!("kifu export: {name}: nothing to write; not created"),
                    &progress,
                );
                written.push(line);
                continue;
            }
            if !not_written.is_empty() {
                // After a failure nothing more is committed (dropped, a
                // file leaves no temporary behind).
                not_written.push(name);
                continue;
            }
            let stdout = matches!(p.sink, Sink::Stdout(_));
            match p.sink.commit() {
                Ok(()) if records_file => {
                    written.push(line);
                    kept += games;
                }
                Ok(()) => {}
                Err(e) if stdout => {
                    let _ = rep.finish(false, &progress);
                    return Err(e);
                }
                Err(e) => {
                    rep.note(
                        Some(&name),
                        Some(Severity::Error),
                        Some(Rule::Io),
                        &e.to_string(),
                        &progress,
                    );
                    io_errors += 1;
                    not_written.push(name);
                }
            }
        }
    }
    let text = if failed {
        "kifu export: an output failed; nothing committed".to_string()
    } else {
        let mut text = if written.is_empty() {
            "kifu export: nothing written".to_string()
        } else {
            format!("kifu export: {kept} games written: {}", written.join(", "))
        };
        if !not_written.is_empty() {
            text.push_str(&format!("; not written: {}", not_written.join(", ")));
        }
        if split_games > 0 {
            text.push_str(&format!(
                "; {split_games} split into hcpe3 games of at most {HCPE3_MAX_MOVES} moves"
            ));
        }
        let skipped_total: u64 = skipped.values().sum();
        if skipped_total > 0 {
            let why: Vec<String> = skipped.iter().map(|(k, n)| format!("{k} {n}")).collect();
            text.push_str(&format!("; {skipped_total} skipped ({})", why.join(", ")));
        }
        text
    };
    rep.note(None, None, None, &text, &progress);
    let (counts, _) = rep.finish(false, &progress);
    Ok(
        if io_errors > 0 || counts.unreadable > 0 || counts.output_failed {
            out::FAILURE
        } else if invalid > 0 || counts.denied_skips > 0 {
            out::PROBLEMS
        } else {
            out::OK
        },
    )
}
