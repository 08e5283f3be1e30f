//! How findings are printed, in every style (human, JSON Lines, GitHub
//! annotations, SARIF), after `--deny`/`--allow`, with the counts the
//! exit code and the summaries come from. `validate` prints them on
//! standard output; `convert`, `stats` and `html` on standard error.

pub mod github;
pub mod human;
pub mod sarif;

use crate::args::OutputFormat;
use crate::batch::FileMeta;
use crate::out::{self, Out};
use crate::progress::Progress;
use kifu::read::{Finding, Rule, Severity};
use kifu::record::Location;
use kifu::strictness::Strictness;
use kifu::validate::GameReport;
use serde_json::json;
use std::fmt::Write as _;

/// Where the report goes.
pub enum Dest {
    /// Standard output (results of `validate`).
    Stdout(Out),
    /// Standard error, above the progress bar.
    Stderr,
}

/// What was reported, after strictness.
#[derive(Default)]
pub struct Counts {
    /// Games seen.
    pub games: u64,
    /// Games with an error left.
    pub invalid: u64,
    /// Warnings left.
    pub warnings: u64,
    /// Inputs read.
    pub files: u64,
    /// Inputs that could not be read (an `io` error not allowed).
    pub unreadable: u64,
    /// Skipped directory entries whose warning was made an error.
    pub denied_skips: u64,
    /// Errors and warnings per rule, in `Rule::ALL` order.
    pub per_rule: [(u64, u64); Rule::ALL.len()],
    /// The job summary could not be written.
    pub output_failed: bool,
    /// Games read but left out by the filters (not reported).
    pub left_out: u64,
}

impl Counts {
    fn count(&mut self, f: &Finding) {
        let i = Rule::ALL.iter().position(|r| *r == f.rule).unwrap_or(0);
        match f.severity {
            Severity::Error => self.per_rule[i].0 += 1,
            Severity::Warning => {
                self.per_rule[i].1 += 1;
                self.warnings += 1;
            }
        }
    }

    /// `3 games in 2 files: 1 invalid, 0 warnings[, 1 unreadable]`.
    pub fn summary(&self) -> String {
        let s = |n: u64| if n == 1 { "" } else { "s" };
        let mut line = format!(
            "{} game{} in {} file{}: {} invalid, {} warning{}",
            self.games,
            s(self.games),
            self.files,
            s(self.files),
            self.invalid,
            self.warnings,
            s(self.warnings)
        );
        if self.unreadable > 0 {
            let _ = write!(line, ", {} unreadable", self.unreadable);
        }
        if self.left_out > 0 {
            let _ = write!(line, " ({} more left out by the filters)", self.left_out);
        }
        line
    }

    /// The exit code for `validate`: 2 with an unreadable input, 1 with an
    /// error left, else 0.
    pub fn exit_code(&self) -> u8 {
        if self.unreadable > 0 || self.output_failed {
            out::FAILURE
        } else if self.invalid > 0 || self.denied_skips > 0 {
            out::PROBLEMS
        } else {
            out::OK
        }
    }
}

/// The message of a finding with where it is in the game, for one-line
/// styles: `message (game 2) [ply 5, move +0055FU] [sfen …]`.
pub fn describe(f: &Finding, index: usize) -> String {
    let mut s = f.message.clone();
    if index > 0 {
        let _ = write!(s, " (game {})", index + 1);
    }
    if let (Some(ply), Some(mv)) = (f.ply, &f.mv) {
        let _ = write!(s, " [ply {ply}, move {mv}]");
    }
    if let Some(sfen) = &f.sfen {
        let _ = write!(s, " [sfen {sfen}]");
    }
    s
}

/// Settings of a [`Reporter`].
pub struct Settings {
    /// The command, for summaries (`validate`).
    pub command: &'static str,
    /// The style.
    pub style: OutputFormat,
    /// `--deny`/`--allow`.
    pub strictness: Strictness,
    /// Colour in human output.
    pub color: bool,
    /// Print no finding (the summary only).
    pub quiet: bool,
    /// Print only errors (convert, html: warnings do not stop a game).
    pub errors_only: bool,
    /// A JSON object for every game, with findings or not (validate).
    pub every_game: bool,
    /// The GitHub job summary file, planned by the command (see
    /// [`job_summary`]).
    pub summary: Option<crate::output::Appended>,
}

/// The job summary file of the GitHub style (`GITHUB_STEP_SUMMARY`, when
/// set), claimed in the command's plan with its other outputs; the
/// message says why it is refused (it is an input, a folder, …).
pub fn job_summary(
    style: OutputFormat,
    plan: &mut crate::output::Plan,
) -> Result<Option<crate::output::Appended>, crate::output::ClaimError> {
    match std::env::var_os("GITHUB_STEP_SUMMARY") {
        Some(path) if style == OutputFormat::Github && !path.is_empty() => plan
            .claim_append(std::path::Path::new(&path), "GITHUB_STEP_SUMMARY")
            .map(Some),
        _ => Ok(None),
    }
}

/// Prints findings in one style and counts them.
pub struct Reporter {
    set: Settings,
    dest: Dest,
    human: human::Human,
    sarif: Option<sarif::Sarif>,
    summary: Option<github::JobSummary>,
    /// What was reported.
    pub counts: Counts,
}

impl Reporter {
    /// A reporter writing to `dest`; a SARIF document starts at once.
    pub fn new(set: Settings, dest: Dest, progress: &Progress) -> Reporter {
        let mut r = Reporter {
            human: human::Human::new(set.color),
            sarif: None,
            summary: set.summary.is_some().then(github::JobSummary::default),
            set,
            dest,
            counts: Counts::default(),
        };
        if r.set.style == OutputFormat::Sarif {
            r.sarif = Some(sarif::Sarif::default());
            r.write(&sarif::Sarif::header(), progress);
        }
        r
    }

    /// Writes text already safe to show, then a newline.
    fn write(&mut self, text: &str, progress: &Progress) {
        match &mut self.dest {
            Dest::Stdout(o) => {
                o.line(text);
            }
            Dest::Stderr => progress.print_raw(text),
        }
    }

    /// Whether the destination still takes output.
    pub fn ok(&self) -> bool {
        match &self.dest {
            Dest::Stdout(o) => o.ok(),
            Dest::Stderr => true,
        }
    }

    /// Flushes standard output.
    pub fn flush(&mut self) {
        if let Dest::Stdout(o) = &mut self.dest {
            o.flush();
        }
    }

    /// One game: strictness applied to its findings (and its `ok`), then
    /// counted and printed.
    pub fn game(&mut self, meta: &FileMeta, report: &mut GameReport, progress: &Progress) {
        self.set.strictness.apply_report(report);
        self.counts.games += 1;
        if !report.ok {
            self.counts.invalid += 1;
        }
        for f in &report.findings {
            self.counts.count(f);
        }
        if let (Some(s), false) = (self.summary.as_mut(), report.ok) {
            if let Some(f) = report
                .findings
                .iter()
                .find(|f| f.severity == Severity::Error)
            {
                s.invalid(&meta.display, report.index, f);
            }
        }
        let shown = |f: &&Finding| !self.set.errors_only || f.severity == Severity::Error;
        let findings: Vec<&Finding> = report.findings.iter().filter(shown).collect();
        match self.set.style {
            OutputFormat::Json => {
                if self.set.every_game || !findings.is_empty() {
                    let v = json!({
                        "path": meta.display,
                        "game": report.index,
                        "format": meta.format.map(|f| f.name()),
                        "encoding": meta.encoding.map(|e| e.name()),
                        "ok": report.ok,
                        "plies": report.plies,
                        "final_sfen": report.final_sfen,
                        "result": report.result,
                        "findings": findings,
                        "game_key": report.game_key,
                    });
                    self.write(&v.to_string(), progress);
                }
            }
            OutputFormat::Github => {
                for f in findings {
                    let line = github::annotation(&meta.display, report.index, f);
                    self.write(&line, progress);
                }
            }
            OutputFormat::Sarif => {
                for f in findings {
                    let s = self.sarif.as_mut().expect("sarif style");
                    let line = s.result(&meta.display, report.index, f);
                    self.write(&line, progress);
                }
            }
            OutputFormat::Human => {
                if self.set.quiet {
                    return;
                }
                for f in findings {
                    let text = self.human.finding(meta, report.index, f);
                    self.write(&text, progress);
                }
            }
        }
    }

    /// An input done: read (counted), or not read (its `io` finding
    /// reported in its place, after strictness).
    pub fn file_done(&mut self, meta: &FileMeta, progress: &Progress) {
        let f = match (&meta.error, &meta.skipped) {
            (Some(e), _) => Finding::error(Rule::Io, Location::default(), e.clone()),
            (None, Some(w)) => Finding::warning(Rule::Io, Location::default(), w.clone()),
            (None, None) => {
                self.counts.files += 1;
                return;
            }
        };
        let Some(severity) = self.set.strictness.severity(f.rule, f.severity) else {
            return;
        };
        let f = Finding { severity, ..f };
        self.counts.count(&f);
        if meta.error.is_some() {
            self.counts.unreadable += 1;
        } else if severity == Severity::Error {
            self.counts.denied_skips += 1;
        }
        if let Some(s) = self.summary.as_mut() {
            if severity == Severity::Error {
                s.invalid(&meta.display, 0, &f);
            }
        }
        match self.set.style {
            OutputFormat::Human => {
                let level = if severity == Severity::Error {
                    "error"
                } else {
                    "warning"
                };
                // Unread inputs go to standard error, as the summary.
                progress.println(&format!("{}: {level}[io]: {}", meta.display, f.message));
            }
            OutputFormat::Json => {
                // An input not read, or a skipped entry (a warning: `ok`
                // stays true), as an object of its own with its finding.
                let v = json!({
                    "path": meta.display, "game": 0, "format": null, "encoding": null,
                    "ok": severity != Severity::Error, "plies": 0, "final_sfen": null,
                    "result": null,
                    "findings": [f],
                    "game_key": null,
                });
                self.write(&v.to_string(), progress);
            }
            OutputFormat::Github => {
                let line = github::note(
                    Some(&meta.display),
                    Some(severity),
                    &format!("[io] {}", f.message),
                );
                self.write(&line, progress);
            }
            OutputFormat::Sarif => {
                let s = self.sarif.as_mut().expect("sarif style");
                let line = s.result(&meta.display, 0, &f);
                self.write(&line, progress);
            }
        }
    }

    /// An output that failed: `path: error[io]: what`.
    pub fn io_error(&mut self, path: &str, err: &std::io::Error, progress: &Progress) {
        self.note(
            Some(path),
            Some(Severity::Error),
            Some(Rule::Io),
            &err.to_string(),
            progress,
        );
    }

    /// A note that is not a finding (a game the target cannot hold, what
    /// a conversion dropped, an output that failed), in the report's
    /// style; in human output `path: error[rule]: text`, `path: error:
    /// text` or `path: text` (without a severity).
    pub fn note(
        &mut self,
        path: Option<&str>,
        severity: Option<Severity>,
        rule: Option<Rule>,
        text: &str,
        progress: &Progress,
    ) {
        match self.set.style {
            OutputFormat::Human => {
                let mut line = String::new();
                if let Some(p) = path {
                    line.push_str(p);
                    line.push_str(": ");
                }
                if let Some(s) = severity {
                    line.push_str(if s == Severity::Error {
                        "error"
                    } else {
                        "warning"
                    });
                    if let Some(r) = rule {
                        let _ = write!(line, "[{r}]");
                    }
                    line.push_str(": ");
                }
                line.push_str(text);
                progress.println(&line);
            }
            OutputFormat::Json => {
                let level = severity.map_or("note", |s| match s {
                    Severity::Error => "error",
                    Severity::Warning => "warning",
                });
                let v = json!({"path": path, "note": text, "severity": level,
                    "rule": rule.map(|r| r.id())});
                self.write(&v.to_string(), progress);
            }
            OutputFormat::Github => {
                let text = match rule {
                    Some(r) => format!("[{r}] {text}"),
                    None => text.to_string(),
                };
                let line = github::note(path, severity, &text);
                self.write(&line, progress);
            }
            OutputFormat::Sarif => {
                if let Some(s) = self.sarif.as_mut() {
                    s.note(path, severity, text);
                }
            }
        }
    }

    /// A warning of kifu itself, about no input (fewer worker threads than
    /// asked): `kifu: warning: text` on standard error in human output,
    /// else a note in the report's style (a JSON object with `"path":
    /// null`, a GitHub `::warning`, a SARIF tool execution notification).
    pub fn tool_warning(&mut self, text: &str, progress: &Progress) {
        if self.set.style == OutputFormat::Human {
            progress.println(&format!("kifu: warning: {text}"));
        } else {
            self.note(None, Some(Severity::Warning), None, text, progress);
        }
    }

    /// Ends the report: the human summary (when `summary_line`), the
    /// closing `::notice` and job summary (GitHub), the end of the SARIF
    /// document. Returns the counts and the first failure of standard
    /// output, if any.
    pub fn finish(
        mut self,
        summary_line: bool,
        progress: &Progress,
    ) -> (Counts, std::io::Result<()>) {
        let summary = self.counts.summary();
        match self.set.style {
            OutputFormat::Github => {
                let line = github::notice(self.set.command, &summary);
                self.write(&line, progress);
                if let (Some(js), Some(file)) = (&self.summary, &self.set.summary) {
                    let md = js.render(self.set.command, &summary, &self.counts);
                    if let Err(e) = file.append(md.as_bytes()) {
                        out::err(&format!(
                            "kifu {}: cannot write the job summary to {}: {e}",
                            self.set.command,
                            file.path().display()
                        ));
                        self.counts.output_failed = true;
                    }
                }
            }
            OutputFormat::Sarif => {
                let end = self.sarif.as_mut().map(|s| s.footer(true));
                if let Some(end) = end {
                    self.write(&end, progress);
                }
            }
            _ => {}
        }
        let result = match self.dest {
            Dest::Stdout(o) => o.finish(),
            Dest::Stderr => Ok(()),
        };
        if result.is_ok() && summary_line && self.set.style == OutputFormat::Human {
            out::err(&summary);
        }
        (self.counts, result)
    }
}

/// Whether human output to standard output (`stdout`) or standard error
/// gets colours: `--color always`/`never`, else on a terminal unless
/// `NO_COLOR` is set (or `TERM=dumb`; `CLICOLOR_FORCE` forces them).
pub fn color(choice: crate::args::ColorArg, stdout: bool) -> bool {
    use anstream::ColorChoice;
    match choice {
        crate::args::ColorArg::Always => true,
        crate::args::ColorArg::Never => false,
        crate::args::ColorArg::Auto => {
            let c = if stdout {
                anstream::AutoStream::choice(&std::io::stdout())
            } else {
                anstream::AutoStream::choice(&std::io::stderr())
            };
            !matches!(c, ColorChoice::Never)
        }
    }
}
