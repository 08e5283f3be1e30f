//! `kifu validate`.

use crate::args::{ImpasseArg, OutputFormat, ValidateArgs};
use crate::cmd::common;
use crate::out::{self, Out};
use crate::progress::Progress;
use kifu::batch::{self, Event, FileMeta};
use kifu::read::{Finding, Severity};
use kifu::replay::ImpasseRule;
use kifu::validate::{GameReport, ValidateOptions, Validator};
use serde_json::json;
use std::ops::ControlFlow;

pub fn run(a: ValidateArgs) -> std::io::Result<u8> {
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
    let mut w = Out::new();
    let readable = inputs.iter().filter(|i| i.issue.is_none()).count();
    let mut progress = Progress::new(readable as u64, a.format == OutputFormat::Human);
    let mut games = 0u64;
    let mut invalid = 0u64;
    let mut warnings = 0u64;
    let mut files = 0u64;
    let mut unreadable = 0u64;
    let mut sources = common::SourceLines::default();
    let workers = common::workers(&a.input);
    let filter = a.filter.filter(Some(&a.moves));
    let mut keep = crate::cmd::select::Keep::new(a.filter.dedupe);
    let mut left_out = 0u64;
    // Every game is played whole (drain: false), so that the games a filter
    // leaves out but that failed to read are reported as without filters.
    let per_game = crate::cmd::select::Selecting {
        filter: &filter,
        drain: false,
        inner: |_: &FileMeta| Validator::new(opts),
    };
    batch::run(&inputs, &workers, &read_opts, per_game, |ev| {
        match ev {
            Event::Game(meta, index, selected) => {
                let mut report = selected.output;
                report.index = index;
                // The filters narrow what is reported; a game that failed
                // to read is reported all the same.
                if !keep.keep(selected.verdict.matched, report.game_key)
                    && !selected.verdict.read_error
                {
                    progress.game();
                    left_out += 1;
                    return ControlFlow::Continue(());
                }
                games += 1;
                progress.game();
                if !report.ok {
                    invalid += 1;
                }
                warnings += report
                    .findings
                    .iter()
                    .filter(|f| f.severity == Severity::Warning)
                    .count() as u64;
                emit(&mut w, a.format, a.quiet, &meta, &report, &mut sources);
            }
            Event::FileDone(meta) => {
                if meta.error.is_some() {
                    unreadable += 1;
                }
                if meta.error.is_some() || meta.skipped.is_some() {
                    report_issue(&mut w, a.format, &meta, &progress);
                } else {
                    files += 1;
                    progress.file();
                }
                if a.format != OutputFormat::Json {
                    w.flush();
                }
            }
        }
        if w.ok() {
            ControlFlow::Continue(())
        } else {
            ControlFlow::Break(())
        }
    });
    progress.finish();
    w.finish()?;
    if a.format == OutputFormat::Human {
        let summary = format!(
            "{games} game{} in {files} file{}: {invalid} invalid, {warnings} warning{}{}{}",
            if games == 1 { "" } else { "s" },
            if files == 1 { "" } else { "s" },
            if warnings == 1 { "" } else { "s" },
            if unreadable == 0 {
                String::new()
            } else {
                format!(", {unreadable} unreadable")
            },
            if left_out == 0 {
                String::new()
            } else {
                format!(" ({left_out} more left out by the filters)")
            }
        );
        out::err(&summary);
    }
    Ok(if unreadable > 0 {
        out::FAILURE
    } else if invalid > 0 {
        out::PROBLEMS
    } else {
        out::OK
    })
}

/// An input that was not read, in its place: a line on standard error
/// (human), an `io` object (JSON; skipped entries, being warnings, go to
/// standard error), an annotation (GitHub).
fn report_issue(w: &mut Out, format: OutputFormat, meta: &FileMeta, progress: &Progress) {
    let Some(line) = common::issue_line(meta) else {
        return;
    };
    match format {
        OutputFormat::Human => progress.println(&line),
        OutputFormat::Json => match &meta.error {
            Some(msg) => {
                w.line(
                    &json!({
                        "path": meta.display, "game": 0, "format": null, "encoding": null, "ok": false,
                        "plies": 0, "final_sfen": null, "result": null,
                        "findings": [{"rule": "io", "severity": "error", "message": msg,
                            "line": 0, "column": 0, "ply": null, "move": null, "sfen": null}],
                        "game_key": null
                    })
                    .to_string(),
                );
            }
            None => progress.println(&line),
        },
        OutputFormat::Github => {
            let (level, msg) = match (&meta.error, &meta.skipped) {
                (Some(e), _) => ("error", e),
                (None, Some(s)) => ("warning", s),
                (None, None) => return,
            };
            w.line(&format!(
                "::{level} file={}::{}",
                common::gh_prop(&meta.display),
                common::gh_msg(&format!("[io] {msg}"))
            ));
        }
    }
}

fn emit(
    w: &mut Out,
    format: OutputFormat,
    quiet: bool,
    meta: &FileMeta,
    report: &GameReport,
    sources: &mut common::SourceLines,
) {
    match format {
        OutputFormat::Json => {
            let v = json!({
                "path": meta.display,
                "game": report.index,
                "format": meta.format.map(|f| f.name()),
                "encoding": meta.encoding.map(|e| e.name()),
                "ok": report.ok,
                "plies": report.plies,
                "final_sfen": report.final_sfen,
                "result": report.result,
                "findings": report.findings,
                "game_key": report.game_key,
            });
            w.line(&v.to_string());
        }
        OutputFormat::Github => {
            for f in &report.findings {
                let level = if f.severity == Severity::Error {
                    "error"
                } else {
                    "warning"
                };
                let mut props = format!("file={}", common::gh_prop(&meta.display));
                if f.line > 0 {
                    props.push_str(&format!(",line={},col={}", f.line, f.column.max(1)));
                }
                props.push_str(&format!(
                    ",title={}",
                    common::gh_prop(&format!("kifu {}", f.rule))
                ));
                w.line(&format!(
                    "::{level} {props}::{}",
                    common::gh_msg(&describe(f, report))
                ));
            }
        }
        OutputFormat::Human => {
            if quiet {
                return;
            }
            for f in &report.findings {
                for line in common::human_lines(meta, report, f, sources) {
                    w.human(&line);
                }
            }
        }
    }
}

fn describe(f: &Finding, report: &GameReport) -> String {
    let mut s = f.message.clone();
    if report.index > 0 {
        s.push_str(&format!(" (game {})", report.index + 1));
    }
    if let (Some(ply), Some(mv)) = (f.ply, &f.mv) {
        s.push_str(&format!(" [ply {ply}, move {mv}]"));
    }
    if let Some(sfen) = &f.sfen {
        s.push_str(&format!(" [sfen {sfen}]"));
    }
    s
}
