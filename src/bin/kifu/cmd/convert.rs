//! `kifu convert`.

use crate::args::{ConvertArgs, CsaVersionArg, PsnTimesArg};
use crate::cmd::common;
use crate::out;
use crate::progress::Progress;
use kifu::batch::{self, Event, FileMeta, Input};
use kifu::convert::{encode_output, ConvertOptions, Target};
use kifu::output::AtomicFile;
use kifu::read::{Encoding, Finding, Severity};
use kifu::validate::{validate, GameReport, ValidateOptions};
use kifu::write::Dropped;
use std::collections::HashSet;
use std::io::Write;
use std::path::{Path, PathBuf};

/// What a worker hands back for one game.
struct GameOut {
    report: GameReport,
    text: Result<Option<(String, Dropped)>, String>,
}

/// Where converted text goes.
enum Dest {
    Stdout(std::io::StdoutLock<'static>),
    File(Option<AtomicFile>),
}

struct State<'a> {
    a: &'a ConvertArgs,
    target: Target,
    encoding: Encoding,
    split: bool,
    inputs_canon: HashSet<PathBuf>,
    // Single destination (stdout or -o).
    single: Option<Dest>,
    single_games: usize,
    // Per-input state for --out-dir.
    file: Option<AtomicFile>,
    file_games: usize,
    first_game: Option<(String, Dropped)>,
    dropped: Dropped,
    failed_inputs: usize,
    io_errors: usize,
    input_failed: bool,
}

pub fn run(a: ConvertArgs) -> i32 {
    let (inputs, io_errors) = common::discover(&a.input);
    let target = a.to;
    let encoding = a.encoding.unwrap_or(target.default_encoding());
    if !matches!(encoding, Encoding::Utf8 | Encoding::ShiftJis) {
        eprintln!("kifu convert: output encoding must be utf-8 or shift_jis");
        return 2;
    }
    let single_game_target = !target.multi_game();
    if a.out_dir.is_none() && single_game_target && inputs.len() > 1 {
        eprintln!(
            "kifu convert: {} holds one game per file; with several inputs use --out-dir",
            target.name()
        );
        return 2;
    }
    let split = if a.split {
        true
    } else if a.no_split {
        if single_game_target {
            eprintln!(
                "kifu convert: {} holds one game per file; --no-split is not possible",
                target.name()
            );
            return 2;
        }
        false
    } else {
        single_game_target
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
    let inputs_canon: HashSet<PathBuf> = inputs
        .iter()
        .filter_map(|i| i.path.as_ref().and_then(|p| p.canonicalize().ok()))
        .collect();
    let single = if a.out_dir.is_some() {
        None
    } else if let Some(path) = &a.output {
        match create(path, a.force, &inputs_canon) {
            Ok(f) => Some(Dest::File(Some(f))),
            Err(e) => {
                eprintln!("kifu convert: {}: {e}", path.display());
                return if e.kind() == std::io::ErrorKind::AlreadyExists {
                    1
                } else {
                    2
                };
            }
        }
    } else {
        Some(Dest::Stdout(std::io::stdout().lock()))
    };
    let mut st = State {
        a: &a,
        target,
        encoding,
        split,
        inputs_canon,
        single,
        single_games: 0,
        file: None,
        file_games: 0,
        first_game: None,
        dropped: Dropped::default(),
        failed_inputs: 0,
        io_errors: io_errors.len(),
        input_failed: false,
    };
    let mut progress = Progress::new(inputs.len() as u64, true);
    for (path, msg) in &io_errors {
        progress.println(&format!("{path}: error[io]: {msg}"));
    }
    let vopts = ValidateOptions::default();
    let read_opts = common::read_options(&a.input, a.input_encoding);
    let mut sources = common::SourceLines::default();
    // Per-game index within the current file, for --split names and CSA `/`.
    batch::run(
        &inputs,
        common::jobs(&a.input),
        &read_opts,
        |_meta: &FileMeta, game| {
            let report = validate(&game, &vopts);
            let text = if report.ok {
                target
                    .write_one(&game.record, &opts)
                    .map(|o| Some((o.text, o.dropped)))
                    .map_err(|e| e.to_string())
            } else {
                Ok(None)
            };
            GameOut { report, text }
        },
        |ev| match ev {
            Event::Game(meta, index, mut g) => {
                g.report.index = index;
                progress.game();
                st.game(&meta, &inputs, g, &progress, &mut sources);
            }
            Event::FileDone(meta) => {
                progress.file();
                st.file_done(&meta, &inputs, &progress);
            }
        },
    );
    progress.finish();
    if let Some(dest) = st.single.take() {
        match dest {
            Dest::Stdout(mut w) => out::flush(&mut w),
            Dest::File(Some(f)) => {
                let path = f.path().to_path_buf();
                if let Err(e) = f.commit() {
                    eprintln!("kifu convert: {}: {e}", path.display());
                    st.io_errors += 1;
                }
            }
            Dest::File(None) => {}
        }
    }
    if st.io_errors > 0 {
        2
    } else if st.failed_inputs > 0 {
        1
    } else {
        0
    }
}

fn create(path: &Path, force: bool, inputs: &HashSet<PathBuf>) -> std::io::Result<AtomicFile> {
    if let Ok(c) = path.canonicalize() {
        if inputs.contains(&c) {
            return Err(std::io::Error::new(
                std::io::ErrorKind::AlreadyExists,
                format!(
                    "{} is one of the inputs; refusing to overwrite it",
                    path.display()
                ),
            ));
        }
    }
    AtomicFile::create(path, force)
}

impl State<'_> {
    fn encode(&self, text: &str) -> Result<Vec<u8>, String> {
        match encode_output(text, self.encoding) {
            Ok(b) => Ok(b),
            Err(_) if self.a.replace_unencodable => {
                Ok(kifu::convert::encode_output_replacing(text, self.encoding).0)
            }
            Err(e) => Err(e.to_string()),
        }
    }

    fn out_path(&self, input: &Input, n: Option<usize>) -> PathBuf {
        let dir = self.a.out_dir.as_ref().expect("out-dir mode");
        let mut rel = input.rel.clone();
        let stem = rel
            .file_stem()
            .map_or_else(|| "game".to_string(), |s| s.to_string_lossy().into_owned());
        let name = match n {
            Some(n) => format!("{stem}-{:04}.{}", n + 1, self.target.name()),
            None => format!("{stem}.{}", self.target.name()),
        };
        rel.set_file_name(name);
        dir.join(rel)
    }

    fn fail_input(&mut self, meta: &FileMeta, progress: &Progress, msg: &str) {
        progress.println(&format!("{}: error: {msg}", meta.display));
        self.input_failed = true;
    }

    fn write_file(&mut self, path: &Path, text: &str, meta: &FileMeta, progress: &Progress) {
        let bytes = match self.encode(text) {
            Ok(b) => b,
            Err(e) => return self.fail_input(meta, progress, &e),
        };
        match create(path, self.a.force, &self.inputs_canon).and_then(|mut f| {
            f.write_all(&bytes)?;
            f.commit()
        }) {
            Ok(()) => {}
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
                self.fail_input(meta, progress, &e.to_string())
            }
            Err(e) => {
                progress.println(&format!("{}: error[io]: {e}", path.display()));
                self.io_errors += 1;
                self.input_failed = true;
            }
        }
    }

    fn game(
        &mut self,
        meta: &FileMeta,
        inputs: &[Input],
        g: GameOut,
        progress: &Progress,
        sources: &mut common::SourceLines,
    ) {
        if !g.report.ok {
            for f in g
                .report
                .findings
                .iter()
                .filter(|f| f.severity == Severity::Error)
            {
                report_finding(meta, &g.report, f, progress, sources);
            }
            self.input_failed = true;
            return;
        }
        let (text, dropped) = match g.text {
            Ok(Some(t)) => t,
            Ok(None) => return,
            Err(e) => {
                return self.fail_input(
                    meta,
                    progress,
                    &format!("game {}: {e}", g.report.index + 1),
                )
            }
        };
        self.dropped.add(&dropped);
        let input = &inputs[meta.input];
        if self.single.is_some() {
            let n = self.single_games;
            if n > 0 && !self.target.multi_game() {
                return self.fail_input(
                    meta,
                    progress,
                    &format!(
                        "{} holds one game per file; game {} not written (use --out-dir)",
                        self.target.name(),
                        g.report.index + 1
                    ),
                );
            }
            let text = self.separate(&text, n);
            let bytes = match self.encode(&text) {
                Ok(b) => b,
                Err(e) => return self.fail_input(meta, progress, &e),
            };
            self.single_games += 1;
            match self.single.as_mut() {
                Some(Dest::Stdout(w)) => {
                    if let Err(e) = w.write_all(&bytes) {
                        if e.kind() == std::io::ErrorKind::BrokenPipe {
                            std::process::exit(0);
                        }
                        progress.println(&format!("kifu convert: cannot write output: {e}"));
                        self.io_errors += 1;
                    }
                }
                Some(Dest::File(Some(f))) => {
                    if let Err(e) = f.write_all(&bytes) {
                        progress.println(&format!("{}: error[io]: {e}", f.path().display()));
                        self.io_errors += 1;
                        self.single = Some(Dest::File(None));
                    }
                }
                _ => {}
            }
            return;
        }
        // --out-dir
        let n = self.file_games;
        self.file_games += 1;
        if self.split {
            if n == 0 {
                self.first_game = Some((text, dropped));
                return;
            }
            if let Some((first, _)) = self.first_game.take() {
                let p = self.out_path(input, Some(0));
                self.write_file(&p, &first, meta, progress);
            }
            let p = self.out_path(input, Some(n));
            self.write_file(&p, &text, meta, progress);
            return;
        }
        if n == 0 {
            let p = self.out_path(input, None);
            match create(&p, self.a.force, &self.inputs_canon) {
                Ok(f) => self.file = Some(f),
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
                    return self.fail_input(meta, progress, &e.to_string())
                }
                Err(e) => {
                    progress.println(&format!("{}: error[io]: {e}", p.display()));
                    self.io_errors += 1;
                    self.input_failed = true;
                    return;
                }
            }
        }
        let text = self.separate(&text, n);
        match self.encode(&text) {
            Ok(bytes) => {
                if let Some(f) = self.file.as_mut() {
                    if let Err(e) = f.write_all(&bytes) {
                        progress.println(&format!("{}: error[io]: {e}", f.path().display()));
                        self.io_errors += 1;
                        self.file = None;
                    }
                }
            }
            Err(e) => {
                self.file = None;
                self.fail_input(meta, progress, &e);
            }
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

    fn file_done(&mut self, meta: &FileMeta, inputs: &[Input], progress: &Progress) {
        if let Some(err) = &meta.error {
            progress.println(&format!("{}: error[io]: {err}", meta.display));
            self.io_errors += 1;
        }
        if self.a.out_dir.is_some() {
            if let Some((first, _)) = self.first_game.take() {
                let p = self.out_path(&inputs[meta.input], None);
                self.write_file(&p, &first, meta, progress);
            }
            if let Some(f) = self.file.take() {
                let path = f.path().to_path_buf();
                if self.input_failed && self.file_games == 0 {
                    drop(f);
                } else if let Err(e) = f.commit() {
                    progress.println(&format!("{}: error[io]: {e}", path.display()));
                    self.io_errors += 1;
                }
            }
        }
        if !self.dropped.is_empty() {
            progress.println(&format!("{}: dropped: {}", meta.display, self.dropped));
        }
        if self.input_failed {
            self.failed_inputs += 1;
        }
        self.dropped = Dropped::default();
        self.file_games = 0;
        self.input_failed = false;
    }
}

fn report_finding(
    meta: &FileMeta,
    report: &GameReport,
    f: &Finding,
    progress: &Progress,
    sources: &mut common::SourceLines,
) {
    progress.println(&common::human_lines(meta, report, f, sources).join("\n"));
}
