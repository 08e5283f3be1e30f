//! `kifu export`: training data (`.hcpe`, `.psv`, `.hcpe3`) from records.

use crate::args::ColorArg;
use crate::batch::FileMeta;
use crate::cmd::common::{self, usage, Consumer, Job, StartError};
use crate::cmd::select::Keep;
use crate::export_args::{DedupeArg, ExportArgs, Preset, SplitPart};
use crate::output::{Destination, Sink};
use crate::progress::Progress;
use crate::report::Reporter;
use kifu::export::{ExportOptions, Exporter, GameExport, Layout, SkipReason};
use kifu::read::Severity;
use kifu::replay::Replayed;
use kifu::select::{Selector, Verdict};
use std::collections::{BTreeMap, HashSet};
use std::io::{self, Write};
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// How much an output gathers before it writes.
const BUFFER: usize = 1 << 20;

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
    if a.filter.min_rating.is_some() {
        o.min_rating = a.filter.min_rating;
    }
    o.require_eval |= a.require_eval;
    o.game_key = game_key;
    o
}

/// The flags that cannot go together, checked before anything is read.
fn check(a: &ExportArgs) -> Result<(), StartError> {
    if a.filter.invalid {
        return usage("--invalid: only games without an error are exported");
    }
    if a.dedupe_what == Some(DedupeArg::Position) && a.to == Layout::Hcpe3 {
        return usage("--dedupe position: hcpe3 keeps games whole (use --dedupe game)");
    }
    let total: f64 = a.split.iter().map(|p| p.fraction).sum();
    if total > 1.0 + 1e-9 {
        return usage(format!(
            "--split: the fractions add up to {total}, more than 1"
        ));
    }
    let mut names = HashSet::new();
    if let Some(p) = a.split.iter().find(|p| !names.insert(p.name.as_str())) {
        return usage(format!("--split: the part `{}` is named twice", p.name));
    }
    if !a.split.is_empty() && Destination::parse(a.output.as_os_str()) == Destination::Stdout {
        return usage("--split writes one file per part: name the main one with -o FILE");
    }
    Ok(())
}

/// The outputs of a run, as planned: the records (`-o`), then each
/// `--split` part (with its name), and the index.
struct Planned {
    summary: Option<crate::output::Appended>,
    records: Vec<(Option<String>, Destination)>,
    index: Option<Destination>,
}

/// Claims every output before the first game is read.
fn plan(
    a: &ExportArgs,
    job: &mut Job,
    style: crate::args::OutputFormat,
) -> Result<Planned, StartError> {
    let summary = job.job_summary(style)?;
    let mut records = vec![(None, Destination::parse(a.output.as_os_str()))];
    for p in &a.split {
        records.push((
            Some(p.name.clone()),
            Destination::Path(part_path(&a.output, &p.name)),
        ));
    }
    for (name, d) in &records {
        let owner = match name {
            None => "the records (-o)".to_string(),
            Some(n) => format!("the part `{n}` (--split)"),
        };
        job.claim(d, &owner)?;
    }
    let index = a.index.as_ref().map(|p| Destination::parse(p.as_os_str()));
    if let Some(d) = &index {
        job.claim(d, "the index (--index)")?;
    }
    Ok(Planned {
        summary,
        records,
        index,
    })
}

/// Opens the planned outputs: the records files, and the index.
fn open(job: &Job, planned: Planned) -> Result<(Vec<Part>, Option<Part>), StartError> {
    let mut parts = Vec::new();
    for (name, d) in planned.records {
        parts.push(Part::new(name, job.open(&d)?));
    }
    let index = match &planned.index {
        None => None,
        Some(d) => Some(Part::new(None, job.open(d)?)),
    };
    Ok((parts, index))
}

pub fn run(a: ExportArgs, color: ColorArg) -> io::Result<u8> {
    let mut job = Job::new("export", &a.input, &[], a.force);
    let strictness = match a.strict.strictness() {
        Ok(s) => s,
        Err(e) => return Ok(job.refuse(&StartError::Usage(e))),
    };
    let style = a.diagnostics.style();
    let mut planned = match check(&a).and_then(|()| plan(&a, &mut job, style)) {
        Ok(p) => p,
        Err(e) => return Ok(job.refuse(&e)),
    };
    if let Some(code) = job.nothing_found() {
        return Ok(code);
    }
    let summary = planned.summary.take();
    let (parts, index) = match open(&job, planned) {
        Ok(o) => o,
        Err(e) => return Ok(job.refuse(&e)),
    };
    let dedupe_games = a.dedupe_what == Some(DedupeArg::Game) || a.filter.dedupe;
    let opts = options(&a, index.is_some() || !a.split.is_empty() || dedupe_games);
    let mut filter = a.filter.filter(Some(&a.moves));
    // The length and validity are the exporter's: its index says why.
    filter.min_plies = None;
    filter.valid = None;
    // So is the minimum rating (`rating` in the index); a maximum is a
    // filter like the others.
    filter.min_rating = None;
    let read_opts = common::read_options(&a.input, a.encoding);
    let mut progress = job.progress(true);
    let rep = job.reporter(style, strictness, color, summary, &progress, |_| {});
    let mut w = Writing {
        a: &a,
        parts,
        index,
        rep,
        keep: Keep::new(dedupe_games),
        seen: (a.dedupe_what == Some(DedupeArg::Position)).then(HashSet::new),
        skipped: BTreeMap::new(),
        invalid: 0,
        split_games: 0,
        line: Vec::new(),
    };
    let workers = common::workers(&a.input, |n| w.rep.tool_warning(n, &progress));
    let per_game = crate::batch::Visitors(|| {
        let sel = Selector::new(&filter).stop_rejected(true);
        let names = sel.needs_names();
        Exporter::replay_with(opts.clone(), |e| (sel, e))
            .with_names(names.then(kifu::tags::Taxonomy::builtin))
    });
    job.drive(&workers, &read_opts, per_game, &mut progress, &mut w);
    job.exit_code(w.finish(&progress))
}

/// The export under way: the outputs, and what the summary counts.
struct Writing<'a> {
    a: &'a ExportArgs,
    /// The records file (`-o`), then the `--split` parts.
    parts: Vec<Part>,
    index: Option<Part>,
    rep: Reporter,
    keep: Keep,
    /// The positions written, under `--dedupe position`.
    seen: Option<HashSet<u128>>,
    skipped: BTreeMap<&'static str, u64>,
    invalid: u64,
    /// Games written as several `.hcpe3` games (over 65,535 moves).
    split_games: u64,
    /// The index line being written.
    line: Vec<u8>,
}

impl Consumer<Replayed<(Verdict, GameExport)>> for Writing<'_> {
    fn game(
        &mut self,
        meta: &Arc<FileMeta>,
        index_in_file: usize,
        sel: Replayed<(Verdict, GameExport)>,
        progress: &Progress,
    ) -> ControlFlow<()> {
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
        let kept_by_filter = self.keep.keep(verdict.matched, report.game_key);
        if verdict.matched || verdict.read_error {
            self.rep.game(meta, &mut report, progress);
        }
        if !report.ok {
            self.invalid += 1;
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
        let ok = verdict.matched && report.ok;
        self.warn_unwritable(meta, index_in_file, why, ok, &verdict.info, progress);
        // A game longer than a `.hcpe3` header counts is written as
        // several `.hcpe3` games: said once per game, and counted.
        if self.a.to == Layout::Hcpe3 && why.is_none() && hcpe3_games > 1 {
            self.rep.note(
                Some(&meta.display),
                Some(Severity::Warning),
                None,
                &format!(
                    "game {}: {records} moves, more than an hcpe3 header counts \
                     ({}); written as {hcpe3_games} consecutive hcpe3 games",
                    index_in_file + 1,
                    Layout::Hcpe3.max_game_moves()
                ),
                progress,
            );
        }
        // Records that survive --dedupe position.
        let (mut kept_bytes, mut kept_records) = (bytes, u64::from(records));
        if reason.is_none() {
            if let Some((b, n)) = self.dedupe_positions(&kept_bytes) {
                (kept_bytes, kept_records) = (b, n);
                if n == 0 {
                    reason = Some("duplicate");
                }
            }
        }
        let part = reason
            .is_none()
            .then(|| choose(&self.a.split, self.a.seed, report.game_key).map_or(0, |i| i + 1));
        let (first, offset) = match part {
            Some(i) => {
                let p = &mut self.parts[i];
                let at = (p.records, p.bytes);
                p.write(&kept_bytes, kept_records);
                if self.a.to == Layout::Hcpe3 && hcpe3_games > 1 {
                    self.split_games += 1;
                }
                (Some(at.0), Some(at.1))
            }
            None => {
                *self.skipped.entry(reason.unwrap_or("other")).or_default() += 1;
                (None, None)
            }
        };
        if self.index.is_some() {
            let v = serde_json::json!({
                "path": meta.display,
                "game": index_in_file,
                "game_key": report.game_key.to_string(),
                "status": if part.is_some() { "kept" } else { "skipped" },
                "reason": reason,
                "file": part.map(|i| self.parts[i].sink.display()),
                "split": part.and_then(|i| self.parts[i].name.clone()),
                "first_record": first,
                "records": if part.is_some() { kept_records } else { 0 },
                "offset": offset,
                "result": report.result.outcome.name(),
                "plies": report.plies,
            });
            self.index_line(&v);
        }
        if self.parts.iter().any(|p| p.failed.is_some())
            || self.index.as_ref().is_some_and(|p| p.failed.is_some())
        {
            return ControlFlow::Break(());
        }
        ControlFlow::Continue(())
    }

    fn file_done(&mut self, meta: &FileMeta, progress: &Progress) -> ControlFlow<()> {
        self.rep.file_done(meta, progress);
        ControlFlow::Continue(())
    }
}

impl Writing<'_> {
    /// A game the layouts cannot hold is a finding of its own.
    fn warn_unwritable(
        &mut self,
        meta: &FileMeta,
        index_in_file: usize,
        why: Option<SkipReason>,
        ok: bool,
        info: &kifu::select::GameInfo,
        progress: &Progress,
    ) {
        let unwritable = match why {
            Some(SkipReason::Variant) => Some(format!(
                "{} has no {} layout",
                info.variant.name(),
                self.a.to
            )),
            Some(SkipReason::Unencodable(u)) => Some(u.to_string()),
            _ => None,
        };
        if let (Some(what), true) = (unwritable, ok) {
            self.rep.note(
                Some(&meta.display),
                Some(Severity::Warning),
                None,
                &format!("game {}: {what}; not written", index_in_file + 1),
                progress,
            );
        }
    }

    /// The records of a game less those whose position was written
    /// before, and how many are left (`None` without `--dedupe position`).
    fn dedupe_positions(&mut self, bytes: &[u8]) -> Option<(Vec<u8>, u64)> {
        let (Some(seen), Some(size)) = (self.seen.as_mut(), self.a.to.record_size()) else {
            return None;
        };
        let mut out = Vec::with_capacity(bytes.len());
        for rec in bytes.chunks_exact(size) {
            if seen.insert(xxhash_rust::xxh3::xxh3_128(&rec[..32])) {
                out.extend_from_slice(rec);
            }
        }
        let n = (out.len() / size) as u64;
        Some((out, n))
    }

    /// Adds one line to the index.
    fn index_line(&mut self, v: &serde_json::Value) {
        let Some(ix) = self.index.as_mut() else {
            return;
        };
        self.line.clear();
        let _ = serde_json::to_writer(&mut self.line, v);
        self.line.push(b'\n');
        ix.buf.extend_from_slice(&self.line);
        if ix.buf.len() >= BUFFER {
            ix.drain();
        }
    }

    /// Writes what is gathered and commits the outputs; the first failure
    /// ends the run with nothing committed. Standard output that fails is
    /// the command's own failure, as for `convert` and `stats`: a reader
    /// that went away (`| head`) ends the run quietly with code 0, any
    /// other failure is said once (exit 2).
    fn finish(mut self, progress: &Progress) -> io::Result<u8> {
        let mut failed = false;
        for p in self.parts.iter_mut().chain(self.index.as_mut()) {
            p.drain();
            if let Some(e) = p.failed.take() {
                if matches!(p.sink, Sink::Stdout(_)) {
                    let _ = self.rep.finish(false, progress);
                    return Err(e);
                }
                self.rep.io_error(&p.sink.display(), &e, progress);
                failed = true;
            }
        }
        let (text, io_failed) = if failed {
            (
                "kifu export: an output failed; nothing committed".to_string(),
                true,
            )
        } else {
            let c = match self.commit(progress) {
                Ok(c) => c,
                Err(e) => {
                    let _ = self.rep.finish(false, progress);
                    return Err(e);
                }
            };
            (self.summary(&c), c.io_errors > 0)
        };
        self.rep.note(None, None, None, &text, progress);
        let (counts, _) = self.rep.finish(false, progress);
        Ok(common::exit_code(
            io_failed || counts.unreadable > 0 || counts.output_failed,
            self.invalid > 0 || counts.denied_skips > 0,
        ))
    }

    /// Commits the outputs in turn (after a failure, nothing more): what
    /// is in place, for the summary; the error of standard output. A records file with no game is not
    /// created (as `convert -o`); the index is, whatever it lists.
    fn commit(&mut self, progress: &Progress) -> io::Result<Committed> {
        let mut c = Committed::default();
        let allow_empty = self.a.input.allow_empty;
        let outputs = std::mem::take(&mut self.parts)
            .into_iter()
            .map(|p| (p.games == 0 && !allow_empty, true, p))
            .chain(self.index.take().map(|p| (false, false, p)));
        for (empty, records_file, p) in outputs {
            let name = p.sink.display();
            let line = format!("{} games ({} records) in {name}", p.games, p.records);
            let games = p.games;
            if empty {
                self.rep.note(
                    None,
                    None,
                    None,
                    &format!("kifu export: {name}: nothing to write; not created"),
                    progress,
                );
                c.written.push(line);
                continue;
            }
            if !c.not_written.is_empty() {
                // After a failure nothing more is committed (dropped, a
                // file leaves no temporary behind).
                c.not_written.push(name);
                continue;
            }
            let stdout = matches!(p.sink, Sink::Stdout(_));
            match p.sink.commit() {
                Ok(()) if records_file => {
                    c.written.push(line);
                    c.kept += games;
                }
                Ok(()) => {}
                Err(e) if stdout => return Err(e),
                Err(e) => {
                    self.rep.io_error(&name, &e, progress);
                    c.io_errors += 1;
                    c.not_written.push(name);
                }
            }
        }
        Ok(c)
    }

    /// The summary line.
    fn summary(&self, c: &Committed) -> String {
        let mut text = if c.written.is_empty() {
            "kifu export: nothing written".to_string()
        } else {
            format!(
                "kifu export: {} games written: {}",
                c.kept,
                c.written.join(", ")
            )
        };
        if !c.not_written.is_empty() {
            text.push_str(&format!("; not written: {}", c.not_written.join(", ")));
        }
        if self.split_games > 0 {
            text.push_str(&format!(
                "; {} split into hcpe3 games of at most {} moves",
                self.split_games,
                Layout::Hcpe3.max_game_moves()
            ));
        }
        let skipped_total: u64 = self.skipped.values().sum();
        if skipped_total > 0 {
            let why: Vec<String> = self
                .skipped
                .iter()
                .map(|(k, n)| format!("{k} {n}"))
                .collect();
            text.push_str(&format!("; {skipped_total} skipped ({})", why.join(", ")));
        }
        text
    }
}

/// What [`Writing::commit`] put in place.
#[derive(Default)]
struct Committed {
    /// `N games (M records) in FILE`, each records file.
    written: Vec<String>,
    /// Games in the records files committed.
    kept: u64,
    /// Outputs not committed.
    not_written: Vec<String>,
    io_errors: u64,
}
