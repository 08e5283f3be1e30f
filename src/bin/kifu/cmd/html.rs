//! `kifu html`: one self-contained replay page per game.

use crate::args::{ColorArg, HtmlArgs};
use crate::batch::{self, FileMeta};
use crate::cmd::common::{self, Consumer, Job, StartError};
use crate::out;
use crate::output::{Destination, OutDirPlan, Plan, Split};
use crate::progress::Progress;
use crate::report::Reporter;
use kifu::diagram::html::{html, HtmlOptions};
use kifu::read::Severity;
use kifu::validate::{GameReport, ValidateOptions, Validator};
use std::io::Write;
use std::ops::ControlFlow;
use std::path::PathBuf;
use std::sync::Arc;

/// What a worker hands back for one game.
struct PageOut {
    report: GameReport,
    page: Result<Option<String>, String>,
}

struct State {
    /// Every output of the run.
    plan: Plan,
    /// The names of the pages with --out-dir.
    names: Option<OutDirPlan>,
    /// The one page's destination without --out-dir (-o, or standard
    /// output).
    dest: Destination,
    /// Pages written to -o or standard output so far.
    single_written: usize,
    /// The first page of the current input, held until we know whether the
    /// file has more games (which decides its name).
    first: Option<(usize, String)>,
    /// Games seen in the current input, valid or not.
    file_games: usize,
    failed_inputs: usize,
    io_errors: usize,
    input_failed: bool,
    /// An output failed: the run stops.
    stop: bool,
    /// Standard output was closed by its reader (`| head`): the run stops
    /// quietly, with code 0.
    closed: bool,
    /// Findings and notes, in the `--diagnostics` style.
    rep: Reporter,
}

/// Plans every page before the first game is read: by the naming rule
/// of `convert --out-dir` (each game of a file of several is a numbered
/// page), or the one -o. GitHub's job summary, and the names.
fn plan(
    a: &HtmlArgs,
    job: &mut Job,
    dest: &Destination,
) -> Result<(Option<crate::output::Appended>, Option<OutDirPlan>), StartError> {
    let summary = job.job_summary(a.diagnostics.style())?;
    let names = match &a.out_dir {
        Some(dir) => Some(
            job.plan
                .out_dir(dir, &a.input.paths, &job.inputs, "html", Split::Always)
                .map_err(StartError::OutDir)?,
        ),
        None => {
            job.claim(dest, "-o")?;
            None
        }
    };
    Ok((summary, names))
}

pub fn run(a: HtmlArgs, color: ColorArg) -> std::io::Result<u8> {
    let exclude: Vec<PathBuf> = a.out_dir.iter().cloned().collect();
    let mut job = Job::new("html", &a.input, &exclude, a.force);
    let strictness = match a.strict.strictness() {
        Ok(s) => s,
        Err(e) => return Ok(job.refuse(&StartError::Usage(e))),
    };
    let dest = a
        .output
        .as_ref()
        .map_or(Destination::Stdout, |p| Destination::parse(p.as_os_str()));
    let (summary, names) = match plan(&a, &mut job, &dest) {
        Ok(p) => p,
        Err(e) => return Ok(job.refuse(&e)),
    };
    let opts = HtmlOptions {
        notation: common::notation_of(a.notation),
        coords: common::coords_of(a.coords),
        flip: a.flip,
        names: true,
    };
    let mut progress = Progress::new(job.readable() as u64, true);
    let style = a.diagnostics.style();
    let rep = job.reporter(style, strictness, color, summary, &progress, |s| {
        s.errors_only = true
    });
    let mut st = State {
        // The plan goes on here: the pages are claimed as they are opened.
        plan: std::mem::replace(&mut job.plan, Plan::new(&[], false)),
        names,
        dest,
        single_written: 0,
        first: None,
        file_games: 0,
        failed_inputs: 0,
        io_errors: 0,
        input_failed: false,
        stop: false,
        closed: false,
        rep,
    };
    let vopts = ValidateOptions::default();
    let read_opts = common::read_options(&a.input, a.encoding);
    let workers = common::workers(&a.input, |n| st.rep.tool_warning(n, &progress));
    // One validator per worker (reset by each game).
    let validator = || Validator::new(vopts);
    let per_game = batch::EachGameWith(validator, |v: &mut Validator, _meta: &FileMeta, game| {
        let mut report = kifu::read::visit_game(&game, v);
        strictness.apply_report(&mut report);
        let page = if report.ok {
            html(&game.record, &opts)
                .map(Some)
                .map_err(|e| e.to_string())
        } else {
            Ok(None)
        };
        PageOut { report, page }
    });
    job.drive(&workers, &read_opts, per_game, &mut progress, &mut st);
    if st.closed {
        // The reader of standard output went away: nothing more is said.
        return Ok(out::OK);
    }
    let (counts, _) = st.rep.finish(false, &progress);
    Ok(common::exit_code(
        st.io_errors > 0 || counts.unreadable > 0 || counts.output_failed,
        st.failed_inputs > 0 || counts.denied_skips > 0,
    ))
}

impl Consumer<PageOut> for State {
    fn game(
        &mut self,
        meta: &Arc<FileMeta>,
        index: usize,
        mut g: PageOut,
        progress: &Progress,
    ) -> ControlFlow<()> {
        g.report.index = index;
        State::game(self, meta, g, progress);
        common::flow(self.stop)
    }

    fn file_done(&mut self, meta: &FileMeta, progress: &Progress) -> ControlFlow<()> {
        self.rep.file_done(meta, progress);
        State::file_done(self, meta, progress);
        common::flow(self.stop)
    }
}

impl State {
    fn fail(&mut self, meta: &FileMeta, progress: &Progress, msg: &str) {
        self.rep.note(
            Some(&meta.display),
            Some(Severity::Error),
            None,
            msg,
            progress,
        );
        self.input_failed = true;
    }

    /// An output that could not be written: reported once, exit 2, and the
    /// run stops (a full disk fails every later page too).
    fn output_error(&mut self, name: &str, e: &std::io::Error, progress: &Progress) {
        self.rep.note(
            Some(name),
            Some(Severity::Error),
            Some(kifu::read::Rule::Io),
            &e.to_string(),
            progress,
        );
        self.io_errors += 1;
        self.input_failed = true;
        self.stop = true;
    }

    /// Writes the page of game `n` of the current input (`None`: its only
    /// game) under its planned name in --out-dir.
    fn write_page(&mut self, n: Option<usize>, page: &str, meta: &FileMeta, progress: &Progress) {
        let Some(names) = &self.names else { return };
        let Some(path) = (match n {
            Some(n) => names.numbered(meta.input, n),
            None => names.single(meta.input),
        }) else {
            return;
        };
        let result = self
            .plan
            .open_in_dir(&path, &meta.display)
            .and_then(|mut f| {
                f.write_all(page.as_bytes())?;
                f.commit()
            });
        if let Err(e) = result {
            self.output_error(&path.display().to_string(), &e, progress);
        }
    }

    /// Writes the one page to -o or standard output.
    fn write_single(&mut self, page: &str, progress: &Progress) {
        let result = self.plan.open(&self.dest).and_then(|mut f| {
            f.write_all(page.as_bytes())?;
            f.commit()
        });
        match result {
            Ok(()) => {}
            Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => {
                self.closed = true;
                self.stop = true;
            }
            Err(e) => {
                let name = self.dest.display();
                self.output_error(&name, &e, progress);
            }
        }
    }

    fn game(&mut self, meta: &FileMeta, mut g: PageOut, progress: &Progress) {
        let index = g.report.index;
        self.file_games += 1;
        if self.names.is_some() && self.file_games == 2 {
            // The file has several games: numbered names for all.
            if let Some((i, first)) = self.first.take() {
                self.write_page(Some(i), &first, meta, progress);
            }
        }
        self.rep.game(meta, &mut g.report, progress);
        if !g.report.ok {
            self.input_failed = true;
            return;
        }
        let page = match g.page {
            Ok(Some(p)) => p,
            Ok(None) => return,
            Err(e) => {
                return self.fail(meta, progress, &format!("game {}: {e}", g.report.index + 1))
            }
        };
        if self.names.is_none() {
            if self.single_written > 0 {
                return self.fail(
                    meta,
                    progress,
                    &format!(
                        "game {}: one page per game; use --out-dir for several games",
                        index + 1
                    ),
                );
            }
            self.single_written += 1;
            return self.write_single(&page, progress);
        }
        if self.file_games == 1 {
            self.first = Some((index, page));
            return;
        }
        self.write_page(Some(index), &page, meta, progress);
    }

    fn file_done(&mut self, meta: &FileMeta, progress: &Progress) {
        if let Some((_, first)) = self.first.take() {
            self.write_page(None, &first, meta, progress);
        }
        if self.input_failed {
            self.failed_inputs += 1;
        }
        self.file_games = 0;
        self.input_failed = false;
    }
}
