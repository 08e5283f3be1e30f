//! `kifu convert`.

use crate::args::{ColorArg, ConvertArgs, CsaVersionArg, PsnTimesArg};
use crate::batch::{self, Event, FileMeta};
use crate::cmd::common;
use crate::out::{self, Out};
use crate::output::{Destination, OutDirPlan, Plan, Sink, Split};
use crate::progress::Progress;
use crate::report::{self, Dest, Reporter, Settings};
use kifu::convert::{encode_output, ConvertOptions, Target};
use kifu::read::{Encoding, Rule, Severity};
use kifu::validate::{GameReport, ValidateOptions};
use kifu::write::Dropped;
use std::io::Write;
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};

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
}

fn usage(msg: &str) -> std::io::Result<u8> {
    out::err(&format!("kifu convert: {msg}"));
    Ok(out::FAILURE)
}

pub fn run(a: ConvertArgs, color: ColorArg) -> std::io::Result<u8> {
    let strictness = match a.strict.strictness() {
        Ok(s) => s,
        Err(e) => return usage(&e),
    };
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
        return usage(&out::visible(&why));
    }
    let exclude: Vec<PathBuf> = a.out_dir.iter().cloned().collect();
    let inputs = common::discover(&a.input, &exclude);
    let readable = inputs.iter().filter(|i| i.issue.is_none()).count();
    let single_game_target = !target.multi_game();
    if a.out_dir.is_none() && single_game_target && readable > 1 {
        return usage(&format!(
            "{} holds one game per file; with several inputs use --out-dir",
            target.name()
        ));
    }
    let split = if a.split {
        true
    } else if a.no_split {
        if single_game_target {
            return usage(&format!(
                "{} holds one game per file; --no-split is not possible",
                target.name()
            ));
        }
        false
    } else {
        single_game_target
    };
    if let Some(code) = common::nothing_found(&a.input, "convert", &inputs) {
        return Ok(code);
    }
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
    // Every output is planned before the first game is read.
    let mut plan = Plan::new(&inputs, a.force);
    let summary = match report::job_summary(a.diagnostics.style(), &mut plan) {
        Ok(s) => s,
        Err(e) => return usage(&e),
    };
    let mut names = None;
    let mut single = None;
    if let Some(dir) = &a.out_dir {
        // --no-split is a way out of a name clash only where the target
        // can hold several games.
        let split = match (split, single_game_target) {
            (false, _) => Split::Never,
            (true, false) => Split::Optional,
            (true, true) => Split::Always,
        };
        match plan.out_dir(dir, &a.input.paths, &inputs, target.name(), split) {
            Ok(p) => names = Some(p),
            Err(errors) => {
                for e in &errors {
                    out::err(&format!("kifu convert: {e}"));
                }
                out::err("kifu convert: nothing written (see the naming rule in docs/convert.md)");
                return Ok(out::FAILURE);
            }
        }
    } else {
        let dest = a
            .output
            .as_ref()
            .map_or(Destination::Stdout, |p| Destination::parse(p.as_os_str()));
        if let Err(e) = plan.claim(&dest, "-o") {
            return usage(&e);
        }
        match &dest {
            Destination::Stdout => single = Some(Single::Stdout(Out::new())),
            Destination::Path(_) => match plan.open(&dest) {
                Ok(s) => single = Some(Single::File(s)),
                Err(e) => return usage(&e.to_string()),
            },
        }
    }
    let mut progress = Progress::new(readable as u64, true);
    let style = a.diagnostics.style();
    let rep = Reporter::new(
        Settings {
            command: "convert",
            style,
            strictness,
            color: style == crate::args::OutputFormat::Human && report::color(color, false),
            quiet: false,
            errors_only: false,
            every_game: false,
            summary,
        },
        Dest::Stderr,
        &progress,
    );
    let mut st = State {
        a: &a,
        target,
        encoding,
        split,
        plan,
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
    };
    let vopts = ValidateOptions::default();
    let read_opts = common::read_options(&a.input, a.input_encoding);
    let workers = common::workers(&a.input, |n| st.rep.tool_warning(n, &progress));
    let filter = a.filter.filter(Some(&a.moves));
    let mut keep = crate::cmd::select::Keep::new(a.filter.dedupe);
    let strict = a.refuse_errors;
    batch::run(
        &inputs,
        &workers,
        &read_opts,
        batch::EachGame(|_meta: &FileMeta, game| {
            let mut sel = crate::cmd::select::replay(&filter, true, vopts, (), false);
            let selected = kifu::read::visit_game(&game, &mut sel);
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
        }),
        |ev| {
            match ev {
                Event::Game(meta, index, mut g) => {
                    g.report.index = index;
                    progress.game();
                    // Games the filters leave out are not converted; one
                    // that failed to read is still reported.
                    if keep.keep(g.matched, g.report.game_key) || g.read_error {
                        st.game(&meta, g, &progress);
                    }
                }
                Event::FileDone(meta) => {
                    if meta.error.is_none() && meta.skipped.is_none() {
                        progress.file();
                    }
                    st.file_done(&meta, &progress);
                }
            }
            if st.stop {
                ControlFlow::Break(())
            } else {
                ControlFlow::Continue(())
            }
        },
    );
    progress.finish();
    match st.single.take() {
        Some(Single::Stdout(o)) => o.finish()?,
        Some(Single::File(f)) => {
            let name = f.display();
            if st.stop {
                drop(f); // an output failed: nothing half-written appears
            } else if st.single_games == 0 && !a.input.allow_empty {
                st.rep.note(
                    None,
                    None,
                    None,
                    &format!("kifu convert: {name}: nothing to write; not created"),
                    &progress,
                );
            } else if let Err(e) = f.commit() {
                st.rep.note(
                    Some(&name),
                    Some(Severity::Error),
                    Some(Rule::Io),
                    &e.to_string(),
                    &progress,
                );
                st.io_errors += 1;
            }
        }
        None => {}
    }
    let (counts, _) = st.rep.finish(false, &progress);
    Ok(
        if st.io_errors > 0 || counts.unreadable > 0 || counts.output_failed {
            out::FAILURE
        } else if st.failed_inputs > 0 || counts.denied_skips > 0 {
            out::PROBLEMS
        } else {
            out::OK
        },
    )
}

impl State<'_> {
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
        self.rep.note(
            Some(path),
            Some(Severity::Error),
            Some(Rule::Io),
            &e.to_string(),
            progress,
        );
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
                    self.rep.note(
                        Some(&name),
                        Some(Severity::Error),
                        Some(Rule::Io),
                        &e.to_string(),
                        progress,
                    );
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
