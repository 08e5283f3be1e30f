//! `kifu validate`.

use crate::args::{ColorArg, ImpasseArg, OutputFormat, ValidateArgs};
use crate::cmd::common;
use crate::out::{self, Out};
use crate::progress::Progress;
use crate::report::{self, Dest, Reporter, Settings};
use kifu::batch::{self, Event, FileMeta};
use kifu::replay::ImpasseRule;
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
        },
        Dest::Stdout(Out::new()),
        &progress,
    );
    let workers = common::workers(&a.input);
    batch::run(&inputs, &workers, &read_opts, Validating(opts), |ev| {
        match ev {
            Event::Game(meta, index, mut report) => {
                report.index = index;
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

/// Validates every game as it is read (each move played once).
struct Validating(ValidateOptions);

impl batch::PerGame for Validating {
    type Output = kifu::validate::GameReport;
    type Visitor<'a> = kifu::validate::Validator;
    fn visitor<'a>(&'a self, _meta: &'a FileMeta) -> kifu::validate::Validator {
        kifu::validate::Validator::new(self.0)
    }
}
