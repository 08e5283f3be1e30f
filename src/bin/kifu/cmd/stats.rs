//! `kifu stats`.

use crate::args::{ColorArg, ImpasseArg, OutputFormat, StatsArgs};
use crate::batch::{self, Event, FileMeta};
use crate::cmd::common;
use crate::out;
use crate::output::{Destination, Plan, Sink};
use crate::progress::Progress;
use crate::report::{self, Dest, Reporter, Settings};
use kifu::replay::{Replay, Replayed};
use kifu::rules::ImpasseRule;
use kifu::select::Selector;
use kifu::stats::{GameRow, GameStats, MoveRow, Source, Stats, StatsOptions, Summary, TagRow};
use kifu::validate::ValidateOptions;
use std::io::{self, Write};
use std::ops::ControlFlow;

/// A row of a CSV table, written without serde (the same bytes).
trait Row {
    fn header(out: &mut Vec<u8>);
    fn line(&self, out: &mut Vec<u8>);
}

impl Row for GameRow {
    fn header(out: &mut Vec<u8>) {
        GameRow::write_csv_header(out);
    }
    fn line(&self, out: &mut Vec<u8>) {
        self.write_csv(out);
    }
}

impl Row for MoveRow {
    fn header(out: &mut Vec<u8>) {
        MoveRow::write_csv_header(out);
    }
    fn line(&self, out: &mut Vec<u8>) {
        self.write_csv(out);
    }
}

impl Row for TagRow {
    fn header(out: &mut Vec<u8>) {
        TagRow::write_csv_header(out);
    }
    fn line(&self, out: &mut Vec<u8>) {
        self.write_csv(out);
    }
}

/// A CSV table being written, and the first error it met. Rows are
/// gathered in one reused buffer and written out in large pieces; the
/// header row is always written, also when no game was selected.
struct Table {
    w: Sink,
    buf: Vec<u8>,
    /// Writes the header row; taken when it is written.
    header: Option<fn(&mut Vec<u8>)>,
    failed: Option<io::Error>,
}

/// How much a table gathers before it writes (as `csv::Writer` did).
const TABLE_BUFFER: usize = 8 * 1024;

impl Table {
    /// A table of rows `T` written to `w`.
    fn new<T: Row>(w: Sink) -> Table {
        Table {
            w,
            buf: Vec::with_capacity(TABLE_BUFFER + 4096),
            header: Some(T::header),
            failed: None,
        }
    }

    /// Gathers the header row if it is not written yet.
    fn start(&mut self) {
        if let Some(header) = self.header.take() {
            header(&mut self.buf);
        }
    }

    fn write<T: Row>(&mut self, row: &T) -> bool {
        if self.failed.is_none() {
            self.start();
            row.line(&mut self.buf);
            if self.buf.len() >= TABLE_BUFFER {
                self.drain();
            }
        }
        self.failed.is_none()
    }

    /// Writes what is gathered.
    fn drain(&mut self) {
        if let Err(e) = self.w.write_all(&self.buf) {
            self.failed = Some(e);
        }
        self.buf.clear();
    }

    fn is_stdout(&self) -> bool {
        matches!(self.w, Sink::Stdout(_))
    }

    fn name(&self) -> String {
        self.w.display()
    }

    /// Flushes and commits; the first error met, if any.
    fn finish(mut self) -> io::Result<()> {
        self.start();
        if self.failed.is_none() && !self.buf.is_empty() {
            self.drain();
        }
        if let Some(e) = self.failed.take() {
            return Err(e);
        }
        self.w.commit()
    }
}

fn fail(msg: &str) -> u8 {
    out::err(&format!("kifu stats: {msg}"));
    out::FAILURE
}

pub fn run(a: StatsArgs, color: ColorArg) -> io::Result<u8> {
    let strictness = match a.strict.strictness() {
        Ok(s) => s,
        Err(e) => return Ok(fail(&e)),
    };
    let inputs = common::discover(&a.input, &[]);
    let games_dest = a
        .output
        .as_ref()
        .map_or(Destination::Stdout, |p| Destination::parse(p.as_os_str()));
    let moves_dest = a.moves.as_ref().map(|p| Destination::parse(p.as_os_str()));
    let tags_dest = a.tags.as_ref().map(|p| Destination::parse(p.as_os_str()));
    // Both tables are planned before the first game is read.
    let mut plan = Plan::new(&inputs, a.force);
    let style = a.diagnostics.map_or(OutputFormat::Human, |d| d.style());
    let job_summary = match report::job_summary(style, &mut plan) {
        Ok(s) => s,
        Err(e) => return Ok(fail(&e)),
    };
    if let Err(e) = plan.claim(&games_dest, "the games table") {
        return Ok(fail(&e));
    }
    if let Some(d) = &moves_dest {
        if let Err(e) = plan.claim(d, "the moves table (--moves)") {
            return Ok(fail(&e));
        }
    }
    if let Some(d) = &tags_dest {
        if let Err(e) = plan.claim(d, "the names table (--tags)") {
            return Ok(fail(&e));
        }
    }
    if let Some(code) = common::nothing_found(&a.input, "stats", &inputs) {
        return Ok(code);
    }
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
    let mut games_out = match plan.open(&games_dest) {
        Ok(s) => Table::new::<GameRow>(s),
        Err(e) => return Ok(fail(&e.to_string())),
    };
    let mut moves_out = match &moves_dest {
        None => None,
        Some(d) => match plan.open(d).map(Table::new::<MoveRow>) {
            Ok(s) => Some(s),
            Err(e) => return Ok(fail(&e.to_string())),
        },
    };
    let mut tags_out = match &tags_dest {
        None => None,
        Some(d) => match plan.open(d).map(Table::new::<TagRow>) {
            Ok(s) => Some(s),
            Err(e) => return Ok(fail(&e.to_string())),
        },
    };
    let taxonomy = kifu::tags::Taxonomy::builtin();
    let mut summary = Summary::default();
    let readable = inputs.iter().filter(|i| i.issue.is_none()).count();
    let mut progress = Progress::new(readable as u64, true);
    let mut rep = Reporter::new(
        Settings {
            command: "stats",
            style,
            strictness,
            color: style == OutputFormat::Human && report::color(color, false),
            quiet: a.diagnostics.is_none(),
            errors_only: false,
            every_game: false,
            summary: job_summary,
        },
        Dest::Stderr,
        &progress,
    );
    let diagnostics = a.diagnostics.is_some();
    let workers = common::workers(&a.input, |n| rep.tool_warning(n, &progress));
    let filter = a.filter.filter(None);
    let mut keep = crate::cmd::select::Keep::new(a.filter.dedupe);
    // Name openings and castles (not with --no-tags); the names are found
    // once per game, for the columns and the filters alike.
    let names = !a.no_tags;
    let per_game = batch::VisitorsWith(
        || {
            let stats = Stats::new(opts).with_names(names);
            crate::cmd::select::replay(&filter, false, vopts, stats, names)
        },
        |r: &mut Replay<(Selector<'_>, Stats)>, meta: &FileMeta| {
            r.observer_mut().1.source(Source {
                path: meta.display.clone(),
                format: meta.format,
                encoding: meta.encoding,
            })
        },
    );
    batch::run(&inputs, &workers, &read_opts, per_game, |ev| {
        match ev {
            Event::Game(meta, index, selected) => {
                progress.game();
                let Replayed {
                    mut report,
                    output: (verdict, GameStats { mut row, mut moves }),
                } = selected;
                // A game that failed to read keeps its row (valid=false),
                // whatever the filters say.
                if !keep.keep(verdict.matched, row.game_key) && !verdict.read_error {
                    return ControlFlow::Continue(());
                }
                row.game = index;
                // The findings, for --diagnostics (the tables do not change).
                if diagnostics {
                    report.index = index;
                    rep.game(&meta, &mut report, &progress);
                }
                if a.summary {
                    summary.add(&row);
                }
                if !games_out.write(&row) {
                    return ControlFlow::Break(());
                }
                if let Some(m) = moves_out.as_mut() {
                    for r in &mut moves {
                        r.game = index;
                        if !m.write(r) {
                            return ControlFlow::Break(());
                        }
                    }
                }
                if let Some(t) = tags_out.as_mut() {
                    for r in TagRow::from_game(&row, taxonomy) {
                        if !t.write(&r) {
                            return ControlFlow::Break(());
                        }
                    }
                }
            }
            Event::FileDone(meta) => {
                if meta.error.is_none() && meta.skipped.is_none() {
                    progress.file();
                }
                rep.file_done(&meta, &progress);
            }
        }
        ControlFlow::Continue(())
    });
    progress.finish();
    // In a machine style, standard error holds that document alone: the
    // summary is one note in it.
    let summary_in_report = a.summary && style != OutputFormat::Human;
    if summary_in_report {
        rep.note(None, None, None, summary.render().trim_end(), &progress);
    }
    let (counts, _) = rep.finish(false, &progress);
    // The first output that failed ends the run: nothing is committed.
    for t in std::iter::once(&mut games_out)
        .chain(moves_out.as_mut())
        .chain(tags_out.as_mut())
    {
        if let Some(e) = t.failed.take() {
            if t.is_stdout() {
                return Err(e);
            }
            return Ok(fail(&format!("cannot write {}: {e}", t.name())));
        }
    }
    for t in std::iter::once(games_out).chain(moves_out).chain(tags_out) {
        let (stdout, name) = (t.is_stdout(), t.name());
        if let Err(e) = t.finish() {
            if stdout {
                return Err(e);
            }
            return Ok(fail(&format!("cannot write {name}: {e}")));
        }
    }
    if a.summary && !summary_in_report {
        for line in summary.render().lines() {
            out::err(line);
        }
    }
    Ok(if counts.unreadable > 0 || counts.output_failed {
        out::FAILURE
    } else {
        out::OK
    })
}
