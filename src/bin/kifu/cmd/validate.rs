//! `kifu validate`.

use crate::args::{ColorArg, ImpasseArg, OutputFormat, ValidateArgs};
use crate::batch::{self, Event};
use crate::cmd::common;
use crate::out::{self, Out};
use crate::output::Plan;
use crate::progress::Progress;
use crate::report::{self, Dest, Reporter, Settings};
use kifu::rules::ImpasseRule;
use kifu::validate::ValidateOptions;
use std::ops::ControlFlow;

pub fn run(a: ValidateArgs, color: ColorArg) -> std::io::Result<u8> {
    let strictness = match a.strict.strictness() {
        Ok(s) => s,
        Err(e) => {
            out::err(&format!("kifu validate: {e}"));
            return Ok(out::FAILURE);
        }
    };
    let inputs = common::discover(&a.input, &[]);
    if let Some(code) = common::nothing_found(&a.input, "validate", &inputs) {
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
    let mut plan = Plan::new(&inputs, false);
    let summary = match report::job_summary(a.format, &mut plan) {
        Ok(s) => s,
        Err(e) => {
            out::err(&format!("kifu validate: {e}"));
            return Ok(out::FAILURE);
        }
    };
    let read_opts = common::read_options(&a.input, a.encoding);
    let readable = inputs.iter().filter(|i| i.issue.is_none()).count();
    let mut progress = Progress::new(readable as u64, a.format == OutputFormat::Human);
    let mut reporter = Reporter::new(
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
    let workers = common::workers(&a.input, |n| reporter.tool_warning(n, &progress));
    let json = a.format == OutputFormat::Json;
    let game_key = json || a.filter.dedupe;
    let filter = a.filter.filter(Some(&a.moves));
    let mut keep = crate::cmd::select::Keep::new(a.filter.dedupe);
    // Only the JSON report prints the final position and the game key;
    // `--dedupe` reads the key too. Every game is played whole (no stop),
    // so that the games a filter leaves out but that failed to read are
    // reported as without filters.
    let per_game = batch::Visitors(|| {
        crate::cmd::select::replay(&filter, false, opts, (), false)
            .with_validator(|v| v.with_final_sfen(json).with_game_key(game_key))
    });
    batch::run(&inputs, &workers, &read_opts, per_game, |ev| {
        match ev {
            Event::Game(meta, index, selected) => {
                let mut report = selected.report;
                let verdict = selected.output.0;
                report.index = index;
                // The filters narrow what is reported; a game that failed
                // to read is reported all the same.
                if !keep.keep(verdict.matched, report.game_key) && !verdict.read_error {
                    progress.game();
                    reporter.counts.left_out += 1;
                    return ControlFlow::Continue(());
                }
                progress.game();
                reporter.game(&meta, &mut report, &progress);
            }
            Event::FileDone(meta) => {
                if meta.error.is_none() && meta.skipped.is_none() {
                    progress.file();
                }
                reporter.file_done(&meta, &progress);
                if a.format != OutputFormat::Json {
                    reporter.flush();
                }
            }
        }
        if reporter.ok() {
            ControlFlow::Continue(())
        } else {
            ControlFlow::Break(())
        }
    });
    progress.finish();
    let (counts, written) = reporter.finish(true, &progress);
    written?;
    Ok(counts.exit_code())
}
