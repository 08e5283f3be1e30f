//! `kifu convert`.

use crate::args::{ColorArg, ConvertArgs, CsaVersionArg, PsnTimesArg};
use crate::batch::{self, FileMeta};
use crate::cmd::common::{self, usage, Consumer, Job, StartError};
use crate::cmd::select::Selecting;
use crate::out::{self, Out};
use crate::output::{Destination, OutDirPlan, Plan, Sink, Split};
use crate::progress::Progress;
use crate::report::Reporter;
use kifu::convert::{encode_output, ConvertOptions, Target};
use kifu::read::{Encoding, Severity};
use kifu::validate::{GameReport, ValidateOptions};
use kifu::write::Dropped;
use std::io::Write;
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// What a worker hands back for one game.
struct GameOut {
    report: GameReport,
    text: Result<Option<(String, Dropped)>, String>,
    /// The filters keep it.
    matched: bool,
    /// The reader reported an error (reported even when not matched).
    read_error: bool,
}

/// Where converted text goes when it all goes to one place.
enum Single {
    Stdout(Out),
    File(Sink),
}

/// The output file of the current input in `--out-dir` mode.
struct OpenFile {
    sink: Sink,
    games: usize,
}

struct State<'a> {
    a: &'a ConvertArgs,
    target: Target,
    encoding: Encoding,
    split: bool,
    /// Every output of the run.
    plan: Plan,
    single: Option<Single>,
    single_games: usize,
    names: Option<OutDirPlan>,
    // Per input in --out-dir mode.
    file: Option<OpenFile>,
    held: Option<(usize, String)>,
    games_seen: usize,
    dropped: Dropped,
    input_failed: bool,
    // Totals.
    failed_inputs: usize,
    io_errors: usize,
    /// An output failed: the run stops.
    stop: bool,
    /// Findings and notes, in the `--diagnostics` style.
    rep: Reporter,
    /// The games the filters keep.
    keep: crate::cmd::select::Keep,
}

/// The output encoding and whether each game is a file of its own,
/// from flags checked before anything is read.
fn check(a: &ConvertArgs, job: &Job) -> Result<(Encoding, bool), StartError> {
    let target = a.to;
    let encoding = a.encoding.unwrap_or(target.default_encoding());
    if !matches!(encoding, Encoding::Utf8 | Encoding::ShiftJis) {
        return usage("output encoding must be utf-8 or shift_jis");
    }
    // An output folder the next run would read again is refused before
    // anything is read or written.
    if let Some(why) = a
        .out_dir
        .as_deref()
        .and_then(|d| crate::output::out_dir_in_input(d, &a.input.paths))
    {
        return usage(out::visible(&why).into_owned());
    }
    let single_game_target = !target.multi_game();
    if a.out_dir.is_none() && single_game_target && job.readable() > 1 {
        return usage(format!(
            "{} holds one game per file; with several inputs use --out-dir",
            target.name()
        ));
    }
    let split = if a.split {
        true
    } else if a.no_split {
        if single_game_target {
            return usage(format!(
                "{} holds one game per file; --no-split is not possible",
                target.name()
            ));
        }
        false
    } else {
        single_game_target
    };
    Ok((encoding, split))
}

/// The outputs of a run: GitHub's job summary, then the names in
/// `--out-dir` or the one output (`-o`, else standard output), opened.
type Planned = (
    Option<crate::output::Appended>,
    Option<OutDirPlan>,
    Option<Single>,
);

/// Plans every output before the first game is read.
fn plan(a: &ConvertArgs, job: &mut Job, split: bool) -> Result<Planned, StartError> {
    let summary = job.job_summary(a.diagnostics.style())?;
    let Some(dir) = &a.out_dir else {
        let dest = a
            .output
            .as_ref()
            .map_or(Destination::Stdout, |p| Destination::parse(p.as_os_str()));
        job.claim(&dest, "-o")?;
        let single = match &dest {
            Destination::Stdout => Single::Stdout(Out::new()),
            Destination::Path(_) => Single::File(job.open(&dest)?),
        };
        return Ok((summary, None, Some(single)));
    };
    // --no-split is a way out of a name clash only where the target
    // can hold several games.
    let split = match (split, !a.to.multi_game()) {
        (false, _) => Split::Never,
        (true, false) => Split::Optional,
        (true, true) => Split::Always,
    };
    let names = job
        .plan
        .out_dir(dir, &a.input.paths, &job.inputs, a.to.name(), split)
        .map_err(StartError::OutDir)?;
    Ok((summary, Some(names), None))
}

pub fn run(a: ConvertArgs, color: ColorArg) -> std::io::Result<u8> {
    let exclude: Vec<PathBuf> = a.out_dir.iter().cloned().collect();
    let mut job = Job::new("convert", &a.input, &exclude, a.force);
    let strictness = match a.strict.strictness() {
        Ok(s) => s,
        Err(e) => return Ok(job.refuse(&StartError::Usage(e))),
    };
    let (encoding, split) = match check(&a, &job) {
        Ok(c) => c,
        Err(e) => return Ok(job.refuse(&e)),
    };
    if let Some(code) = job.nothing_found() {
        return Ok(code);
    }
    let (summary, names, single) = match plan(&a, &mut job, split) {
        Ok(p) => p,
        Err(e) => return Ok(job.refuse(&e)),
    };
    let opts = ConvertOptions {
        encoding: Some(encoding),
        csa_version: match a.csa_version {
            CsaVersionArg::V22 => kifu::csa::CsaVersion::V22,
            CsaVersionArg::V30 => kifu::csa::CsaVersion::V30,
        },
        psn_times: match a.psn_times {
            PsnTimesArg::Shogidokoro => kifu::psn::PsnTimes::Shogidokoro,
            PsnTimesArg::Comments => kifu::psn::PsnTimes::Comments,
            PsnTimesArg::None => kifu::psn::PsnTimes::None,
        },
        legal_candidates_only: a.legal_candidates_only,
    };
    let mut progress = job.progress(true);
    let style = a.diagnostics.style();
    let rep = job.reporter(style, strictness, color, summary, &progress, |_| {});
    let mut st = State {
        a: &a,
        target: a.to,
        encoding,
        split,
        // The plan goes on here: the files of --out-dir are claimed as
        // they are opened.
        plan: std::mem::replace(&mut job.plan, Plan::new(&[], false)),
        single,
        single_games: 0,
        names,
        file: None,
        held: None,
        games_seen: 0,
        dropped: Dropped::default(),
        input_failed: false,
        failed_inputs: 0,
        io_errors: 0,
        stop: false,
        rep,
        keep: crate::cmd::select::Keep::new(a.filter.dedupe),
    };
    let read_opts = common::read_options(&a.input, a.input_encoding);
    let workers = common::workers(&a.input, |n| st.rep.tool_warning(n, &progress));
    let filter = a.filter.filter(Some(&a.moves));
    let (strict, target) = (a.refuse_errors, a.to);
    // One replay per worker judges each built game (reset by each game).
    let replay =
        || crate::cmd::select::replay(&filter, true, ValidateOptions::default(), (), false);
    let per_game = batch::EachGameWith(
        replay,
        |sel: &mut Selecting<'_, ()>, _meta: &FileMeta, game| {
            let selected = kifu::read::visit_game(&game, sel);
            let (mut report, (verdict, ())) = (selected.report, selected.output);
            strictness.apply_report(&mut report);
            let text =
                if verdict.matched && kifu::convert::writes_with(&report, strict, &strictness) {
                    let mut game = game;
                    if a.annotate {
                        let tax = kifu::tags::Taxonomy::builtin();
                        kifu::tags::annotate(&mut game.record, tax, a.annotate_overwrite);
                    }
                    target
                        .write_one(&game.record, &opts)
                        .map(|o| Some((o.text, o.dropped)))
                        .map_err(|e| e.to_string())
                } else {
                    Ok(None)
                };
            GameOut {
                report,
                text,
                matched: verdict.matched,
                read_error: verdict.read_error,
            }
        },
    );
    job.drive(&workers, &read_opts, per_game, &mut progress, &mut st);
    st.finish(&progress)
}

impl Consumer<GameOut> for State<'_> {
    fn game(
        &mut self,
        meta: &Arc<FileMeta>,
        index: usize,
        mut g: GameOut,
        progress: &Progress,
    ) -> ControlFlow<()> {
        g.report.index = index;
        // Games the filters leave out are not converted; one that failed
        // to read is still reported.
        if self.keep.keep(g.matched, g.report.game_key) || g.read_error {
            State::game(self, meta, g, progress);
        }
        common::flow(self.stop)
    }

    fn file_done(&mut self, meta: &FileMeta, progress: &Progress) -> ControlFlow<()> {
        State::file_done(self, meta, progress);
        common::flow(self.stop)
    }
}

impl State<'_> {
    /// The one output committed (not after a failure, nor empty); the
    /// exit code.
    fn finish(mut self, progress: &Progress) -> std::io::Result<u8> {
        match self.single.take() {
            Some(Single::Stdout(o)) => o.finish()?,
            Some(Single::File(f)) => {
                let name = f.display();
                if self.stop {
                    drop(f); // an output failed: nothing half-written appears
                } else if self.single_games == 0 && !self.a.input.allow_empty {
                    self.rep.note(
                        None,
                        None,
                        None,
                        &format!("kifu convert: {name}: nothing to write; not created"),
                        progress,
                    );
                } else if let Err(e) = f.commit() {
                    self.rep.io_error(&name, &e, progress);
                    self.io_errors += 1;
                }
            }
            None => {}
        }
        let (counts, _) = self.rep.finish(false, progress);
        Ok(common::exit_code(
            self.io_errors > 0 || counts.unreadable > 0 || counts.output_failed,
            self.failed_inputs > 0 || counts.denied_skips > 0,
        ))
    }

    fn encode(&self, text: &str) -> Result<Vec<u8>, String> {
        match encode_output(text, self.encoding) {
            Ok(b) => Ok(b),
            Err(_) if self.a.replace_unencodable => {
                Ok(kifu::convert::encode_output_replacing(text, self.encoding).0)
            }
            // The library names the character; the way out is a flag.
            Err(e) => Err(format!("{e}; use --encoding utf-8")),
        }
    }

    fn fail_input(&mut self, meta: &FileMeta, progress: &Progress, msg: &str) {
        self.rep.note(
            Some(&meta.display),
            Some(Severity::Error),
            None,
            msg,
            progress,
        );
        self.input_failed = true;
    }

    /// An output error: `path: error[io]: e`.
    fn io_note(&mut self, path: &str, e: &std::io::Error, progress: &Progress) {
        self.rep.io_error(path, e, progress);
    }

    /// An output could not be created or written: reported, counted as an
    /// I/O error (exit 2); the run stops (a full disk fails every later
    /// output too).
    fn output_error(&mut self, path: &Path, e: &std::io::Error, progress: &Progress) {
        self.io_note(&path.display().to_string(), e, progress);
        self.io_errors += 1;
        self.input_failed = true;
        self.stop = true;
    }

    /// Opens an output of input `owner`, refusing a file already written
    /// in this run.
    fn open(&mut self, path: &Path, owner: &str) -> std::io::Result<Sink> {
        self.plan.open_in_dir(path, owner)
    }

    /// Writes one whole file (a game of a split input).
    fn write_file(&mut self, path: &Path, text: &str, meta: &FileMeta, progress: &Progress) {
        let bytes = match self.encode(text) {
            Ok(b) => b,
            Err(e) => return self.fail_input(meta, progress, &e),
        };
        let result = self.open(path, &meta.display).and_then(|mut f| {
            f.write_all(&bytes)?;
            f.commit()
        });
        if let Err(e) = result {
            self.output_error(path, &e, progress);
        }
    }

    fn game(&mut self, meta: &FileMeta, mut g: GameOut, progress: &Progress) {
        let index = g.report.index;
        self.games_seen += 1;
        // Every finding, as `kifu validate` prints it.
        self.rep.game(meta, &mut g.report, progress);
        if !g.report.ok {
            // An error was found, whether the game is written or not.
            self.input_failed = true;
        }
        let (text, dropped) = match g.text {
            Ok(Some(t)) => t,
            Ok(None) => {
                // Not written (an illegal move, or any error with --strict).
                self.flush_held(meta, progress);
                return;
            }
            Err(e) => {
                self.flush_held(meta, progress);
                return self.fail_input(meta, progress, &format!("game {}: {e}", index + 1));
            }
        };
        self.dropped.add(&dropped);
        if self.single.is_some() {
            return self.write_single(meta, index, &text, progress);
        }
        if self.split {
            // The first game waits: its name depends on whether a second follows.
            if self.games_seen == 1 {
                self.held = Some((index, text));
                return;
            }
            self.flush_held(meta, progress);
            if let Some(p) = self
                .names
                .as_ref()
                .and_then(|p| p.numbered(meta.input, index))
            {
                self.write_file(&p, &text, meta, progress);
            }
            return;
        }
        self.append(meta, index, &text, progress);
    }

    /// Writes the held first game of a split input under its numbered name.
    fn flush_held(&mut self, meta: &FileMeta, progress: &Progress) {
        if let Some((index, text)) = self.held.take() {
            if let Some(p) = self
                .names
                .as_ref()
                .and_then(|p| p.numbered(meta.input, index))
            {
                self.write_file(&p, &text, meta, progress);
            }
        }
    }

    /// One more game into the input's multi-game output file.
    fn append(&mut self, meta: &FileMeta, index: usize, text: &str, progress: &Progress) {
        let n = self.file.as_ref().map_or(0, |f| f.games);
        let bytes = match self.encode(&self.separate(text, n)) {
            Ok(b) => b,
            Err(e) => {
                // Only this game is left out; the others are written.
                return self.fail_input(
                    meta,
                    progress,
                    &format!("game {}: {e}; not written", index + 1),
                );
            }
        };
        if self.file.is_none() {
            let Some(p) = self.names.as_ref().and_then(|p| p.single(meta.input)) else {
                return;
            };
            match self.open(&p, &meta.display) {
                Ok(sink) => self.file = Some(OpenFile { sink, games: 0 }),
                Err(e) => {
                    self.output_error(&p, &e, progress);
                    return;
                }
            }
        }
        if let Some(f) = self.file.as_mut() {
            match f.sink.write_all(&bytes) {
                Ok(()) => f.games += 1,
                Err(e) => {
                    let name = f.sink.display();
                    self.io_note(&name, &e, progress);
                    self.io_errors += 1;
                    self.input_failed = true;
                    self.file = None;
                    self.stop = true;
                }
            }
        }
    }

    /// One more game to standard output or the `-o` file.
    fn write_single(&mut self, meta: &FileMeta, index: usize, text: &str, progress: &Progress) {
        let n = self.single_games;
        if n > 0 && !self.target.multi_game() {
            return self.fail_input(
                meta,
                progress,
                &format!(
                    "{} holds one game per file; game {} not written (use --out-dir)",
                    self.target.name(),
                    index + 1
                ),
            );
        }
        let bytes = match self.encode(&self.separate(text, n)) {
            Ok(b) => b,
            Err(e) => {
                return self.fail_input(
                    meta,
                    progress,
                    &format!("game {}: {e}; not written", index + 1),
                )
            }
        };
        self.single_games += 1;
        match self.single.as_mut() {
            Some(Single::Stdout(o)) => self.stop = !o.bytes(&bytes),
            Some(Single::File(f)) => {
                if let Err(e) = f.write_all(&bytes) {
                    let name = f.display();
                    self.rep.io_error(&name, &e, progress);
                    self.io_errors += 1;
                    self.stop = true;
                }
            }
            None => {}
        }
    }

    /// Text for the `n`-th game of a multi-game stream.
    fn separate(&self, text: &str, n: usize) -> String {
        if n == 0 {
            return text.to_string();
        }
        match self.target {
            Target::Csa => {
                let mut body = text;
                loop {
                    let end = body.find('\n').map_or(body.len(), |i| i + 1);
                    let line = body[..end].trim_end();
                    if line.starts_with("'CSA encoding=")
                        || (line.starts_with('V') && line.len() <= 5)
                    {
                        body = &body[end..];
                    } else {
                        break;
                    }
                }
                format!("/\n{body}")
            }
            Target::Psn => format!("\n{text}"),
            _ => text.to_string(),
        }
    }

    fn file_done(&mut self, meta: &FileMeta, progress: &Progress) {
        self.rep.file_done(meta, progress);
        if self.names.is_some() {
            if let Some((_, text)) = self.held.take() {
                if let Some(p) = self.names.as_ref().and_then(|p| p.single(meta.input)) {
                    self.write_file(&p, &text, meta, progress);
                }
            }
            if let Some(f) = self.file.take() {
                let name = f.sink.display();
                if let Err(e) = f.sink.commit() {
                    self.io_note(&name, &e, progress);
                    self.io_errors += 1;
                    self.stop = true;
                }
            }
        }
        if !self.dropped.is_empty() {
            let text = self.dropped.note();
            self.rep
                .note(Some(&meta.display), None, None, &text, progress);
        }
        if self.input_failed {
            self.failed_inputs += 1;
        }
        self.dropped = Dropped::default();
        self.games_seen = 0;
        self.input_failed = false;
    }
}
