//! `kifu validate`.

use crate::args::{ImpasseArg, OutputFormat, ValidateArgs};
use crate::cmd::common;
use crate::out;
use crate::progress::Progress;
use kifu::batch::{self, Event, FileMeta};
use kifu::read::{Finding, Severity};
use kifu::replay::ImpasseRule;
use kifu::validate::{validate, GameReport, ValidateOptions};
use serde_json::json;
use std::io::Write;

pub fn run(a: ValidateArgs) -> i32 {
    let (inputs, mut io_errors) = common::discover(&a.input);
    let opts = ValidateOptions {
        lenient_claims: a.lenient_claims,
        impasse_rule: a.impasse_rule.map(|r| match r {
            ImpasseArg::P24 => ImpasseRule::Points24,
            ImpasseArg::P27 => ImpasseRule::Points27,
        }),
    };
    let read_opts = common::read_options(&a.input, a.encoding);
    let stdout = std::io::stdout();
    let mut w = std::io::BufWriter::new(stdout.lock());
    let mut progress = Progress::new(inputs.len() as u64, a.format == OutputFormat::Human);
    let mut games = 0u64;
    let mut invalid = 0u64;
    let mut warnings = 0u64;
    let mut files = 0u64;
    let mut sources = common::SourceLines::default();
    for (path, msg) in &io_errors {
        report_io(&mut w, a.format, path, msg, &progress);
    }
    batch::run(
        &inputs,
        common::jobs(&a.input),
        &read_opts,
        |_meta: &FileMeta, game| validate(&game, &opts),
        |ev| match ev {
            Event::Game(meta, index, mut report) => {
                report.index = index;
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
                files += 1;
                progress.file();
                if let Some(err) = &meta.error {
                    io_errors.push((meta.display.clone(), err.clone()));
                    report_io(&mut w, a.format, &meta.display, err, &progress);
                }
                if a.format != OutputFormat::Json {
                    out::flush(&mut w);
                }
            }
        },
    );
    progress.finish();
    out::flush(&mut w);
    if a.format == OutputFormat::Human {
        let summary = format!(
            "{games} game{} in {files} file{}: {invalid} invalid, {warnings} warning{}{}",
            if games == 1 { "" } else { "s" },
            if files == 1 { "" } else { "s" },
            if warnings == 1 { "" } else { "s" },
            if io_errors.is_empty() {
                String::new()
            } else {
                format!(", {} unreadable", io_errors.len())
            }
        );
        eprintln!("{summary}");
    }
    if !io_errors.is_empty() {
        2
    } else if invalid > 0 {
        1
    } else {
        0
    }
}

fn report_io(w: &mut impl Write, format: OutputFormat, path: &str, msg: &str, progress: &Progress) {
    match format {
        OutputFormat::Human => progress.println(&format!("{path}: error[io]: {msg}")),
        OutputFormat::Json => out::line(
            w,
            &json!({
                "path": path, "game": 0, "format": null, "encoding": null, "ok": false,
                "plies": 0, "final_sfen": null, "result": null,
                "findings": [{"rule": "io", "severity": "error", "message": msg,
                    "line": 0, "column": 0, "ply": null, "move": null, "sfen": null}]
            })
            .to_string(),
        ),
        OutputFormat::Github => out::line(
            w,
            &format!(
                "::error file={}::{}",
                common::gh_prop(path),
                common::gh_msg(&format!("[io] {msg}"))
            ),
        ),
    }
}

fn emit(
    w: &mut impl Write,
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
            });
            out::line(w, &v.to_string());
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
                out::line(
                    w,
                    &format!(
                        "::{level} {props}::{}",
                        common::gh_msg(&describe(f, report))
                    ),
                );
            }
        }
        OutputFormat::Human => {
            if quiet {
                return;
            }
            for f in &report.findings {
                human(w, meta, report, f, sources);
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

fn human(
    w: &mut impl Write,
    meta: &FileMeta,
    report: &GameReport,
    f: &Finding,
    sources: &mut common::SourceLines,
) {
    for line in common::human_lines(meta, report, f, sources) {
        out::line(w, &line);
    }
}
