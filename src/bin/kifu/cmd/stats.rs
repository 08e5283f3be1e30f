//! `kifu stats`.

use crate::args::{ColorArg, ImpasseArg, OutputFormat, StatsArgs, TableFormat};
use crate::batch::{self, FileMeta};
use crate::cmd::common::{self, Consumer, Job, StartError};
use crate::out;
use crate::output::{Destination, Sink};
use crate::progress::Progress;
use crate::report::Reporter;
use kifu::replay::{Replay, Replayed};
use kifu::rules::ImpasseRule;
use kifu::select::{Selector, Verdict};
use kifu::stats::{GameRow, GameStats, MoveRow, Source, Stats, StatsOptions, Summary, TagRow};
use kifu::validate::ValidateOptions;
use std::io::{self, Write};
use std::ops::ControlFlow;
use std::sync::Arc;

/// A row of a table: its CSV writing (without serde, the same bytes) and
/// its column table (the Parquet columns).
trait Row: 'static {
    fn header(out: &mut Vec<u8>);
    fn line(&self, out: &mut Vec<u8>);
    #[cfg_attr(not(feature = "parquet"), allow(dead_code))]
    fn columns() -> &'static [kifu::stats::Column<Self>]
    where
        Self: Sized;
}

impl Row for GameRow {
    fn header(out: &mut Vec<u8>) {
        GameRow::write_csv_header(out);
    }
    fn line(&self, out: &mut Vec<u8>) {
        self.write_csv(out);
    }
    fn columns() -> &'static [kifu::stats::Column<Self>] {
        kifu::stats::GAME_COLUMNS
    }
}

impl Row for MoveRow {
    fn header(out: &mut Vec<u8>) {
        MoveRow::write_csv_header(out);
    }
    fn line(&self, out: &mut Vec<u8>) {
        self.write_csv(out);
    }
    fn columns() -> &'static [kifu::stats::Column<Self>] {
        kifu::stats::MOVE_COLUMNS
    }
}

impl Row for TagRow {
    fn header(out: &mut Vec<u8>) {
        TagRow::write_csv_header(out);
    }
    fn line(&self, out: &mut Vec<u8>) {
        self.write_csv(out);
    }
    fn columns() -> &'static [kifu::stats::Column<Self>] {
        kifu::stats::TAG_COLUMNS
    }
}

/// Where a table's rows go.
enum Body<T: Row> {
    /// CSV: rows gathered in one reused buffer and written out in large
    /// pieces; the header row is always written, also when no game was
    /// selected.
    Csv {
        w: Sink,
        buf: Vec<u8>,
        /// Whether the header row is still to be written.
        header: bool,
    },
    /// Parquet: the library's writer over the output.
    #[cfg(feature = "parquet")]
    Parquet(Box<kifu::stats::parquet::ParquetTable<T, Sink>>),
    #[cfg(not(feature = "parquet"))]
    #[allow(dead_code)]
    Never(std::marker::PhantomData<T>),
}

/// A table being written, and the first error it met.
struct Table<T: Row> {
    body: Option<Body<T>>,
    stdout: bool,
    name: String,
    failed: Option<io::Error>,
}

/// How much a table gathers before it writes (as `csv::Writer` did).
const TABLE_BUFFER: usize = 8 * 1024;

impl<T: Row> Table<T> {
    /// A table of rows `T` written to `w` in `format`.
    fn new(w: Sink, format: TableFormat) -> Result<Table<T>, StartError> {
        let stdout = matches!(w, Sink::Stdout(_));
        let name = w.display();
        let body = match format {
            TableFormat::Csv => Body::Csv {
                w,
                buf: Vec::with_capacity(TABLE_BUFFER + 4096),
                header: true,
            },
            #[cfg(feature = "parquet")]
            TableFormat::Parquet => Body::Parquet(Box::new(
                kifu::stats::parquet::ParquetTable::new(T::columns(), w)
                    .map_err(|e| StartError::Open(io::Error::other(e)))?,
            )),
            #[cfg(not(feature = "parquet"))]
            TableFormat::Parquet => {
                return Err(StartError::Usage(
                    "--format parquet: this kifu was built without the `parquet` feature".into(),
                ))
            }
        };
        Ok(Table {
            body: Some(body),
            stdout,
            name,
            failed: None,
        })
    }

    fn write(&mut self, row: &T) -> bool {
        if self.failed.is_some() {
            return false;
        }
        match self.body.as_mut() {
            Some(Body::Csv { w, buf, header }) => {
                if std::mem::take(header) {
                    T::header(buf);
                }
                row.line(buf);
                if buf.len() >= TABLE_BUFFER {
                    if let Err(e) = w.write_all(buf) {
                        self.failed = Some(e);
                    }
                    buf.clear();
                }
            }
            #[cfg(feature = "parquet")]
            Some(Body::Parquet(p)) => {
                if let Err(e) = p.push(row) {
                    self.failed = Some(parquet_error(e));
                }
            }
            _ => {}
        }
        self.failed.is_none()
    }

    fn is_stdout(&self) -> bool {
        self.stdout
    }

    fn name(&self) -> String {
        self.name.clone()
    }

    /// Flushes and commits; the first error met, if any.
    fn finish(mut self) -> io::Result<()> {
        if let Some(e) = self.failed.take() {
            return Err(e);
        }
        let sink = match self.body.take() {
            Some(Body::Csv {
                mut w,
                mut buf,
                header,
            }) => {
                if header {
                    T::header(&mut buf);
                }
                w.write_all(&buf)?;
                w
            }
            #[cfg(feature = "parquet")]
            Some(Body::Parquet(p)) => p.finish().map_err(parquet_error)?,
            _ => return Ok(()),
        };
        sink.commit()
    }
}

/// A Parquet writer's error as an I/O error (the one it wraps, if any).
#[cfg(feature = "parquet")]
fn parquet_error(e: ::parquet::errors::ParquetError) -> io::Error {
    match e {
        ::parquet::errors::ParquetError::External(inner) => match inner.downcast::<io::Error>() {
            Ok(io) => *io,
            Err(other) => io::Error::other(other),
        },
        other => io::Error::other(other),
    }
}

/// The tables of a run, as planned: games (`-o`, else standard output),
/// moves (`--moves`), names (`--tags`).
struct Planned {
    summary: Option<crate::output::Appended>,
    games: Destination,
    moves: Option<Destination>,
    tags: Option<Destination>,
}

/// Claims every table before the first game is read.
fn plan(a: &StatsArgs, job: &mut Job, style: OutputFormat) -> Result<Planned, StartError> {
    let dest = |p: &std::path::PathBuf| Destination::parse(p.as_os_str());
    let planned = Planned {
        summary: None,
        games: a.output.as_ref().map_or(Destination::Stdout, dest),
        moves: a.moves.as_ref().map(dest),
        tags: a.tags.as_ref().map(dest),
    };
    let summary = job.job_summary(style)?;
    job.claim(&planned.games, "the games table")?;
    if let Some(d) = &planned.moves {
        job.claim(d, "the moves table (--moves)")?;
    }
    if let Some(d) = &planned.tags {
        job.claim(d, "the names table (--tags)")?;
    }
    Ok(Planned { summary, ..planned })
}

/// Opens the planned tables.
#[allow(clippy::type_complexity)]
fn open(
    job: &Job,
    p: &Planned,
    f: TableFormat,
) -> Result<
    (
        Table<GameRow>,
        Option<Table<MoveRow>>,
        Option<Table<TagRow>>,
    ),
    StartError,
> {
    let games = Table::new(job.open(&p.games)?, f)?;
    let moves = match &p.moves {
        None => None,
        Some(d) => Some(Table::new(job.open(d)?, f)?),
    };
    let tags = match &p.tags {
        None => None,
        Some(d) => Some(Table::new(job.open(d)?, f)?),
    };
    Ok((games, moves, tags))
}

pub fn run(a: StatsArgs, color: ColorArg) -> io::Result<u8> {
    let mut job = Job::new("stats", &a.input, &[], a.force);
    let strictness = match a.strict.strictness() {
        Ok(s) => s,
        Err(e) => return Ok(job.refuse(&StartError::Usage(e))),
    };
    let style = a.diagnostics.map_or(OutputFormat::Human, |d| d.style());
    let mut planned = match plan(&a, &mut job, style) {
        Ok(p) => p,
        Err(e) => return Ok(job.refuse(&e)),
    };
    if let Some(code) = job.nothing_found() {
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
    let (games, moves, tags) = match open(&job, &planned, a.format) {
        Ok(t) => t,
        Err(e) => return Ok(job.refuse(&e)),
    };
    let mut progress = job.progress(true);
    let rep = job.reporter(
        style,
        strictness,
        color,
        planned.summary.take(),
        &progress,
        |s| s.quiet = a.diagnostics.is_none(),
    );
    let mut w = Tabulating {
        a: &a,
        games,
        moves,
        tags,
        rep,
        keep: crate::cmd::select::Keep::new(a.filter.dedupe),
        summary: Summary::default(),
        taxonomy: kifu::tags::Taxonomy::builtin(),
    };
    let workers = common::workers(&a.input, |n| w.rep.tool_warning(n, &progress));
    let filter = a.filter.filter(None);
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
    job.drive(&workers, &read_opts, per_game, &mut progress, &mut w);
    job.exit_code(w.finish(style, &progress))
}

/// A table's first error, with whether it is standard output and its name.
fn failure<T: Row>(t: &mut Table<T>) -> Option<(bool, String, io::Error)> {
    t.failed.take().map(|e| (t.is_stdout(), t.name(), e))
}

/// Commits a table: its error, with whether it is standard output and
/// its name.
fn commit<T: Row>(t: Table<T>) -> Result<(), (bool, String, io::Error)> {
    let (stdout, name) = (t.is_stdout(), t.name());
    t.finish().map_err(|e| (stdout, name, e))
}

/// The tables being written, and the summary gathered.
struct Tabulating<'a> {
    a: &'a StatsArgs,
    games: Table<GameRow>,
    moves: Option<Table<MoveRow>>,
    tags: Option<Table<TagRow>>,
    rep: Reporter,
    keep: crate::cmd::select::Keep,
    summary: Summary,
    taxonomy: &'static kifu::tags::Taxonomy,
}

impl Consumer<Replayed<(Verdict, GameStats)>> for Tabulating<'_> {
    fn game(
        &mut self,
        meta: &Arc<FileMeta>,
        index: usize,
        selected: Replayed<(Verdict, GameStats)>,
        progress: &Progress,
    ) -> ControlFlow<()> {
        let Replayed {
            mut report,
            output: (verdict, GameStats { mut row, mut moves }),
        } = selected;
        // A game that failed to read keeps its row (valid=false),
        // whatever the filters say.
        if !self.keep.keep(verdict.matched, row.game_key) && !verdict.read_error {
            return ControlFlow::Continue(());
        }
        row.game = index;
        // The findings, for --diagnostics (the tables do not change).
        if self.a.diagnostics.is_some() {
            report.index = index;
            self.rep.game(meta, &mut report, progress);
        }
        if self.a.summary {
            self.summary.add(&row);
        }
        if !self.games.write(&row) {
            return ControlFlow::Break(());
        }
        if let Some(m) = self.moves.as_mut() {
            for r in &mut moves {
                r.game = index;
                if !m.write(r) {
                    return ControlFlow::Break(());
                }
            }
        }
        if let Some(t) = self.tags.as_mut() {
            for r in TagRow::from_game(&row, self.taxonomy) {
                if !t.write(&r) {
                    return ControlFlow::Break(());
                }
            }
        }
        ControlFlow::Continue(())
    }

    fn file_done(&mut self, meta: &FileMeta, progress: &Progress) -> ControlFlow<()> {
        self.rep.file_done(meta, progress);
        ControlFlow::Continue(())
    }
}

impl Tabulating<'_> {
    /// The summary, then the tables committed; the first output that
    /// failed ends the run with nothing committed.
    fn finish(mut self, style: OutputFormat, progress: &Progress) -> io::Result<u8> {
        // In a machine style, standard error holds that document alone: the
        // summary is one note in it.
        let summary_in_report = self.a.summary && style != OutputFormat::Human;
        if summary_in_report {
            self.rep
                .note(None, None, None, self.summary.render().trim_end(), progress);
        }
        let (counts, _) = self.rep.finish(false, progress);
        let fail = |msg: String| {
            out::err(&format!("kifu stats: {msg}"));
            Ok(out::FAILURE)
        };
        // The first table that failed ends the run; then each is committed.
        let failed = [
            failure(&mut self.games),
            self.moves.as_mut().and_then(failure),
            self.tags.as_mut().and_then(failure),
        ];
        let finished = match failed.into_iter().flatten().next() {
            Some(e) => Err(e),
            // In order; a table after one that failed is not committed.
            None => commit(self.games)
                .and_then(|()| self.moves.map_or(Ok(()), commit))
                .and_then(|()| self.tags.map_or(Ok(()), commit)),
        };
        if let Err((stdout, name, e)) = finished {
            if stdout {
                return Err(e);
            }
            return fail(format!("cannot write {name}: {e}"));
        }
        if self.a.summary && !summary_in_report {
            for line in self.summary.render().lines() {
                out::err(line);
            }
        }
        Ok(common::exit_code(
            counts.unreadable > 0 || counts.output_failed,
            false,
        ))
    }
}
