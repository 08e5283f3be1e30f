//! `kifu html`: one self-contained replay page per game.

use crate::args::{ColorArg, HtmlArgs, OutputFormat};
use crate::batch::{self, Event, FileMeta, Input};
use crate::cmd::common;
use crate::progress::Progress;
use crate::report::{self, Dest, Reporter, Settings};
use kifu::diagram::html::{html, HtmlOptions};
use kifu::read::Severity;
use kifu::validate::{validate, GameReport, ValidateOptions};
use std::collections::HashSet;
use std::io::Write;
use std::path::PathBuf;

/// What a worker hands back for one game.
struct PageOut {
    report: GameReport,
    page: Result<Option<String>, String>,
}

struct State<'a> {
    a: &'a HtmlArgs,
    inputs_canon: HashSet<PathBuf>,
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
    /// Findings and notes, in the `--diagnostics` style.
    rep: Reporter,
}

pub fn run(a: HtmlArgs, color: ColorArg) -> i32 {
    let strictness = match a.strict.strictness() {
        Ok(s) => s,
        Err(e) => {
            crate::out::err(&format!("kifu html: {e}"));
            return 2;
        }
    };
    let inputs = common::discover(&a.input, &[]);
    let io_errors: Vec<(String, String)> = Vec::new(); // reported in order by the batch
    let inputs_canon: HashSet<PathBuf> = inputs
        .iter()
        .filter_map(|i| i.path.as_ref().and_then(|p| p.canonicalize().ok()))
        .collect();
    let opts = HtmlOptions {
        notation: common::notation_of(a.notation),
        coords: common::coords_of(a.coords),
        flip: a.flip,
    };
    let mut progress = Progress::new(inputs.len() as u64, true);
    let style = a.diagnostics.style();
    let rep = Reporter::new(
        Settings {
            command: "html",
            style,
            strictness,
            color: style == OutputFormat::Human && report::color(color, false),
            quiet: false,
            errors_only: true,
            every_game: false,
        },
        Dest::Stderr,
        &progress,
    );
    let mut st = State {
        a: &a,
        inputs_canon,
        single_written: 0,
        first: None,
        file_games: 0,
        failed_inputs: 0,
        io_errors: io_errors.len(),
        input_failed: false,
        rep,
    };
    for (path, msg) in &io_errors {
        progress.println(&format!("{path}: error[io]: {msg}"));
    }
    let vopts = ValidateOptions::default();
    let read_opts = common::read_options(&a.input, a.encoding);
    let workers = common::workers(&a.input, |n| st.rep.tool_warning(n, &progress));
    batch::run(
        &inputs,
        &workers,
        &read_opts,
        batch::EachGame(|_meta: &FileMeta, game| {
            let mut report = validate(&game, &vopts);
            strictness.apply_report(&mut report);
            let page = if report.ok {
                html(&game.record, &opts)
                    .map(Some)
                    .map_err(|e| e.to_string())
            } else {
                Ok(None)
            };
            PageOut { report, page }
        }),
        |ev| {
            match ev {
                Event::Game(meta, index, mut g) => {
                    g.report.index = index;
                    progress.game();
                    st.game(&meta, &inputs, g, &progress);
                }
                Event::FileDone(meta) => {
                    progress.file();
                    st.rep.file_done(&meta, &progress);
                    st.file_done(&meta, &inputs, &progress);
                }
            }
            std::ops::ControlFlow::Continue(())
        },
    );
    progress.finish();
    let (counts, _) = st.rep.finish(false, &progress);
    if st.io_errors > 0 || counts.unreadable > 0 || counts.output_failed {
        2
    } else if st.failed_inputs > 0 || counts.denied_skips > 0 {
        1
    } else {
        0
    }
}

impl State<'_> {
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

    fn out_path(&self, input: &Input, n: Option<usize>) -> PathBuf {
        let dir = self.a.out_dir.as_ref().expect("out-dir mode");
        let mut rel = input.rel.clone();
        let stem = rel
            .file_stem()
            .map_or_else(|| "game".to_string(), |s| s.to_string_lossy().into_owned());
        let name = match n {
            Some(n) => format!("{stem}-{:04}.html", n + 1),
            None => format!("{stem}.html"),
        };
        rel.set_file_name(name);
        dir.join(rel)
    }

    fn write(&mut self, path: &std::path::Path, page: &str, meta: &FileMeta, progress: &Progress) {
        let result =
            common::create_output(path, self.a.force, &self.inputs_canon).and_then(|mut f| {
                f.write_all(page.as_bytes())?;
                f.commit()
            });
        match result {
            Ok(()) => {}
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
                self.fail(meta, progress, &e.to_string())
            }
            Err(e) => {
                let name = path.display().to_string();
                self.rep.note(
                    Some(&name),
                    Some(Severity::Error),
                    Some(kifu::read::Rule::Io),
                    &e.to_string(),
                    progress,
                );
                self.io_errors += 1;
                self.input_failed = true;
            }
        }
    }

    fn game(&mut self, meta: &FileMeta, inputs: &[Input], mut g: PageOut, progress: &Progress) {
        let index = g.report.index;
        self.file_games += 1;
        if self.a.out_dir.is_some() && self.file_games == 2 {
            // The file has several games: numbered names for all.
            if let Some((i, first)) = self.first.take() {
                let p = self.out_path(&inputs[meta.input], Some(i));
                self.write(&p, &first, meta, progress);
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
        if self.a.out_dir.is_none() {
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
            match &self.a.output {
                Some(path) => {
                    let path = path.clone();
                    self.write(&path, &page, meta, progress);
                }
                None => {
                    let mut out = std::io::stdout().lock();
                    if let Err(e) = out.write_all(page.as_bytes()).and_then(|()| out.flush()) {
                        if e.kind() == std::io::ErrorKind::BrokenPipe {
                            std::process::exit(0);
                        }
                        self.rep.note(
                            None,
                            Some(Severity::Error),
                            Some(kifu::read::Rule::Io),
                            &format!("kifu html: cannot write output: {e}"),
                            progress,
                        );
                        self.io_errors += 1;
                    }
                }
            }
            return;
        }
        if self.file_games == 1 {
            self.first = Some((index, page));
            return;
        }
        let p = self.out_path(&inputs[meta.input], Some(index));
        self.write(&p, &page, meta, progress);
    }

    fn file_done(&mut self, meta: &FileMeta, inputs: &[Input], progress: &Progress) {
        if let Some((_, first)) = self.first.take() {
            let p = self.out_path(&inputs[meta.input], None);
            self.write(&p, &first, meta, progress);
        }
        if self.input_failed {
            self.failed_inputs += 1;
        }
        self.file_games = 0;
        self.input_failed = false;
    }
}
