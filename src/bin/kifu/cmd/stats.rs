//! `kifu stats`.

use crate::args::{ImpasseArg, StatsArgs};
use crate::cmd::common;
use crate::progress::Progress;
use kifu::batch::{self, Event, FileMeta};
use kifu::output::AtomicFile;
use kifu::replay::ImpasseRule;
use kifu::stats::{collect, GameRow, MoveRow, Source, StatsOptions, Summary};
use kifu::validate::ValidateOptions;
use std::io::Write;

enum Sink {
    Stdout(csv::Writer<std::io::Stdout>),
    File(csv::Writer<AtomicFile>),
}

impl Sink {
    fn open(path: &Option<std::path::PathBuf>, force: bool) -> std::io::Result<Sink> {
        Ok(match path {
            None => Sink::Stdout(csv::Writer::from_writer(std::io::stdout())),
            Some(p) => Sink::File(csv::Writer::from_writer(AtomicFile::create(p, force)?)),
        })
    }
    fn write<T: serde::Serialize>(&mut self, row: &T) -> csv::Result<()> {
        match self {
            Sink::Stdout(w) => w.serialize(row),
            Sink::File(w) => w.serialize(row),
        }
    }
    fn finish(self) -> std::io::Result<()> {
        match self {
            Sink::Stdout(mut w) => w.flush(),
            Sink::File(w) => w.into_inner().map_err(|e| e.into_error())?.commit(),
        }
    }
}

fn fail(msg: &str) -> i32 {
    eprintln!("kifu stats: {msg}");
    2
}

pub fn run(a: StatsArgs) -> i32 {
    let (inputs, mut io_errors) = common::discover(&a.input);
    let opts = StatsOptions {
        opening_plies: a.opening_plies,
        sfen: a.sfen,
        moves: a.moves.is_some(),
    };
    let vopts = ValidateOptions {
        lenient_claims: false,
        impasse_rule: a.impasse_rule.map(|r| match r {
            ImpasseArg::P24 => ImpasseRule::Points24,
            ImpasseArg::P27 => ImpasseRule::Points27,
        }),
    };
    let read_opts = common::read_options(&a.input, a.encoding);
    let mut games_out = match Sink::open(&a.output, a.force) {
        Ok(s) => s,
        Err(e) => return fail(&e.to_string()),
    };
    let mut moves_out = match &a.moves {
        None => None,
        Some(_) => match Sink::open(&a.moves, a.force) {
            Ok(s) => Some(s),
            Err(e) => return fail(&e.to_string()),
        },
    };
    let mut summary = Summary::default();
    let mut progress = Progress::new(inputs.len() as u64, true);
    let mut write_error: Option<String> = None;
    for (path, msg) in &io_errors {
        progress.println(&format!("{path}: error[io]: {msg}"));
    }
    batch::run(
        &inputs,
        common::jobs(&a.input),
        &read_opts,
        |meta: &FileMeta, game| -> (GameRow, Vec<MoveRow>) {
            let source = Source {
                path: meta.display.clone(),
                format: meta.format,
                encoding: meta.encoding,
            };
            collect(&source, &game, &opts, &vopts)
        },
        |ev| match ev {
            Event::Game(_, index, (mut row, mut moves)) => {
                row.game = index;
                for m in &mut moves {
                    m.game = index;
                }
                progress.game();
                if a.summary {
                    summary.add(&row);
                }
                if write_error.is_none() {
                    if let Err(e) = games_out.write(&row) {
                        write_error = Some(e.to_string());
                    }
                    if let Some(m) = moves_out.as_mut() {
                        for r in &moves {
                            if let Err(e) = m.write(r) {
                                write_error = Some(e.to_string());
                                break;
                            }
                        }
                    }
                }
            }
            Event::FileDone(meta) => {
                progress.file();
                if let Some(err) = &meta.error {
                    progress.println(&format!("{}: error[io]: {err}", meta.display));
                    io_errors.push((meta.display.clone(), err.clone()));
                }
            }
        },
    );
    progress.finish();
    if let Some(e) = write_error {
        if e.contains("Broken pipe") {
            return 0;
        }
        return fail(&format!("cannot write output: {e}"));
    }
    if let Err(e) = games_out.finish() {
        if e.kind() == std::io::ErrorKind::BrokenPipe {
            return 0;
        }
        return fail(&format!("cannot write output: {e}"));
    }
    if let Some(m) = moves_out {
        if let Err(e) = m.finish() {
            return fail(&format!("cannot write the moves table: {e}"));
        }
    }
    if a.summary {
        let _ = std::io::stderr().write_all(summary.render().as_bytes());
    }
    if io_errors.is_empty() {
        0
    } else {
        2
    }
}
