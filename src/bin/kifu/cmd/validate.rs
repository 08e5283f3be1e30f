//! `kifu validate`.

use crate::args::{ColorArg, ImpasseArg, OutputFormat, ValidateArgs};
use crate::batch::FileMeta;
use crate::cmd::common::{self, Consumer, Job, StartError};
use crate::out::Out;
use crate::progress::Progress;
use crate::report::{self, Dest, Reporter, Settings};
use kifu::replay::Replayed;
use kifu::rules::ImpasseRule;
use kifu::select::Verdict;
use kifu::validate::ValidateOptions;
use std::ops::ControlFlow;
use std::sync::Arc;

pub fn run(a: ValidateArgs, color: ColorArg) -> std::io::Result<u8> {
    let mut job = Job::new("validate", &a.input, &[], false);
    let strictness = match a.strict.strictness() {
        Ok(s) => s,
        Err(e) => return Ok(job.refuse(&StartError::Usage(e))),
    };
    if let Some(code) = job.nothing_found() {
        return Ok(code);
    }
    let opts = ValidateOptions {
        lenient_claims: a.lenient_claims,
        impasse_rule: a.impasse_rule.map(|r| match r {
            ImpasseArg::P24 => ImpasseRule::Points24,
            ImpasseArg::P27 => ImpasseRule::Points27,
        }),
    };
    // Its one file, GitHub's job summary, is planned as every output is.
    let summary = match job.job_summary(a.format) {
        Ok(s) => s,
        Err(e) => return Ok(job.refuse(&e)),
    };
    let read_opts = common::read_options(&a.input, a.encoding);
    let mut progress = job.progress(a.format == OutputFormat::Human);
    let reporter = Reporter::new(
        Settings {
            command: "validate",
            style: a.format,
            strictness,
            color: a.format == OutputFormat::Human && report::color(color, true),
            quiet: a.quiet,
            errors_only: false,
            every_game: true,
            summary,
        },
        Dest::Stdout(Out::new()),
        &progress,
    );
    let mut r = Reporting {
        reporter,
        keep: crate::cmd::select::Keep::new(a.filter.dedupe),
        flush: a.format != OutputFormat::Json,
    };
    let workers = common::workers(&a.input, |n| r.reporter.tool_warning(n, &progress));
    let json = a.format == OutputFormat::Json;
    let game_key = json || a.filter.dedupe;
    let filter = a.filter.filter(Some(&a.moves));
    // Only the JSON report prints the final position and the game key;
    // `--dedupe` reads the key too. Every game is played whole (no stop),
    // so that the games a filter leaves out but that failed to read are
    // reported as without filters.
    let per_game = crate::batch::Visitors(|| {
        crate::cmd::select::replay(&filter, false, opts, (), false)
            .with_validator(|v| v.with_final_sfen(json).with_game_key(game_key))
    });
    job.drive(&workers, &read_opts, per_game, &mut progress, &mut r);
    let (counts, written) = r.reporter.finish(true, &progress);
    written?;
    job.exit_code(Ok(counts.exit_code()))
}

/// The report under way.
struct Reporting {
    reporter: Reporter,
    keep: crate::cmd::select::Keep,
    /// Write the report out after each input (not the JSON document).
    flush: bool,
}

impl Reporting {
    /// Stop once standard output failed.
    fn flow(&self) -> ControlFlow<()> {
        if self.reporter.ok() {
            ControlFlow::Continue(())
        } else {
            ControlFlow::Break(())
        }
    }
}

impl Consumer<Replayed<(Verdict, ())>> for Reporting {
    fn game(
        &mut self,
        meta: &Arc<FileMeta>,
        index: usize,
        selected: Replayed<(Verdict, ())>,
        progress: &Progress,
    ) -> ControlFlow<()> {
        let mut report = selected.report;
        let verdict = selected.output.0;
        report.index = index;
        // The filters narrow what is reported; a game that failed
        // to read is reported all the same.
        if !self.keep.keep(verdict.matched, report.game_key) && !verdict.read_error {
            self.reporter.counts.left_out += 1;
            return ControlFlow::Continue(());
        }
        self.reporter.game(meta, &mut report, progress);
        self.flow()
    }

    fn file_done(&mut self, meta: &FileMeta, progress: &Progress) -> ControlFlow<()> {
        self.reporter.file_done(meta, progress);
        if self.flush {
            self.reporter.flush();
        }
        self.flow()
    }
}
