//! `kifu.stats`: the games table of `kifu stats` as an Arrow stream. The
//! rows are the library's (`kifu::stats::Stats` in a replay on the batch
//! runner, in input order); each CSV column becomes a typed Arrow column
//! holding the values a CSV reader gets from the table `kifu stats`
//! writes. The work runs on its own threads, without the GIL, while the
//! consumer (pyarrow, polars, DuckDB…) reads record batches through the
//! Arrow C stream interface (`__arrow_c_stream__`).

use crate::{inputs, interrupt};
use arrow_array::builder::{
    ArrayBuilder, BooleanBuilder, Float64Builder, Int64Builder, StringBuilder,
    TimestampSecondBuilder,
};
use arrow_array::ffi_stream::FFI_ArrowArrayStream;
use arrow_array::{ArrayRef, RecordBatch, RecordBatchReader};
use arrow_schema::{ArrowError, DataType, Field, Schema, SchemaRef, TimeUnit};
use kifu::batch::{self, Event, FileMeta, Input, Issue, Stop, VisitorsWith, Workers};
use kifu::read::ReadOptions;
use kifu::replay::Replay;
use kifu::stats::{GameRow, Source, Stats, StatsOptions};
use kifu::validate::ValidateOptions;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyCapsule;
use std::ops::ControlFlow;
use std::sync::mpsc::{sync_channel, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex};

/// Rows per record batch.
const BATCH_ROWS: usize = 8192;

/// Batches produced ahead of the consumer (memory stays flat).
const AHEAD: usize = 2;

/// How one CSV column is held in Arrow.
trait Kind {
    type Builder: ArrayBuilder;
    type Value<'a>;
    const TYPE: DataType;
    const NULLABLE: bool;
    fn builder(rows: usize) -> Self::Builder;
    fn append(b: &mut Self::Builder, v: Self::Value<'_>);
}

/// Text (`utf8`); an empty cell is the empty string, as a CSV reader
/// gives it for a text column.
struct Text;
impl Kind for Text {
    type Builder = StringBuilder;
    type Value<'a> = &'a str;
    const TYPE: DataType = DataType::Utf8;
    const NULLABLE: bool = false;
    fn builder(rows: usize) -> StringBuilder {
        StringBuilder::with_capacity(rows, rows * 8)
    }
    fn append(b: &mut StringBuilder, v: &str) {
        b.append_value(v);
    }
}

/// A column kind whose values go into their builder as they are.
macro_rules! kind {
    ($(#[$doc:meta])* $name:ident: $builder:ty, $value:ty, $ty:expr, $nullable:expr, $append:ident) => {
        $(#[$doc])*
        struct $name;
        impl Kind for $name {
            type Builder = $builder;
            type Value<'a> = $value;
            const TYPE: DataType = $ty;
            const NULLABLE: bool = $nullable;
            fn builder(rows: usize) -> $builder {
                <$builder>::with_capacity(rows)
            }
            fn append(b: &mut $builder, v: $value) {
                b.$append(v);
            }
        }
    };
}

kind!(
    /// An integer (`int64`).
    Int: Int64Builder, i64, DataType::Int64, false, append_value
);
kind!(
    /// An integer that may be empty (`int64`, null).
    OptInt: Int64Builder, Option<i64>, DataType::Int64, true, append_option
);
kind!(
    /// A number of seconds that may be empty (`float64`, null).
    OptFloat: Float64Builder, Option<f64>, DataType::Float64, true, append_option
);
kind!(
    /// `true`/`false` (`bool`).
    Bool: BooleanBuilder, bool, DataType::Boolean, false, append_value
);

/// `start_time`, one ISO 8601 form without a zone (`timestamp[s]`, null
/// when empty): the wall-clock time as written.
struct Time;
impl Kind for Time {
    type Builder = TimestampSecondBuilder;
    type Value<'a> = &'a str;
    const TYPE: DataType = DataType::Timestamp(TimeUnit::Second, None);
    const NULLABLE: bool = true;
    fn builder(rows: usize) -> TimestampSecondBuilder {
        TimestampSecondBuilder::with_capacity(rows)
    }
    fn append(b: &mut TimestampSecondBuilder, v: &str) {
        b.append_option(seconds(v));
    }
}

/// Seconds since 1970-01-01T00:00:00 of a `YYYY-MM-DDTHH:MM:SS` wall-clock
/// time (`None` for the empty cell).
fn seconds(iso: &str) -> Option<i64> {
    if iso.is_empty() {
        return None;
    }
    let dt: jiff::civil::DateTime = iso.parse().ok()?;
    let ts = jiff::tz::Offset::UTC.to_timestamp(dt).ok()?;
    Some(ts.as_second())
}

/// The games table: one Arrow column per CSV column, in the CSV's order
/// (`GameRow::COLUMNS`; a test compares the names), and how a row fills it.
macro_rules! table {
    ($row:ident; $($name:ident: $kind:ident = $value:expr),* $(,)?) => {
        /// The column builders of one record batch.
        struct Columns {
            $($name: <$kind as Kind>::Builder,)*
        }

        impl Columns {
            fn new(rows: usize) -> Columns {
                Columns { $($name: <$kind as Kind>::builder(rows),)* }
            }

            fn push(&mut self, $row: &GameRow) {
                $(<$kind as Kind>::append(&mut self.$name, $value);)*
            }

            fn finish(&mut self) -> Vec<ArrayRef> {
                vec![$(ArrayBuilder::finish(&mut self.$name),)*]
            }

            fn schema() -> Schema {
                Schema::new(vec![
                    $(Field::new(stringify!($name), <$kind as Kind>::TYPE, <$kind as Kind>::NULLABLE),)*
                ])
            }
        }
    };
}

table! { row;
    path: Text = &row.path,
    game: Int = row.game as i64,
    format: Text = row.format,
    encoding: Text = row.encoding,
    variant: Text = row.variant,
    handicap: Text = row.handicap,
    event: Text = &row.event,
    site: Text = &row.site,
    start_time: Time = &row.start_time,
    start_time_raw: Text = &row.start_time_raw,
    sente: Text = &row.sente,
    gote: Text = &row.gote,
    time_control: Text = &row.time_control,
    plies: Int = i64::from(row.plies),
    result: Text = row.result,
    reason: Text = &row.reason,
    valid: Bool = row.valid,
    first_error_rule: Text = row.first_error_rule,
    first_error_ply: OptInt = row.first_error_ply.map(i64::from),
    sente_captures: Int = i64::from(row.sente_captures),
    gote_captures: Int = i64::from(row.gote_captures),
    sente_drops: Int = i64::from(row.sente_drops),
    gote_drops: Int = i64::from(row.gote_drops),
    sente_promotions: Int = i64::from(row.sente_promotions),
    gote_promotions: Int = i64::from(row.gote_promotions),
    sente_checks: Int = i64::from(row.sente_checks),
    gote_checks: Int = i64::from(row.gote_checks),
    sente_time_s: OptFloat = row.sente_time_s,
    gote_time_s: OptFloat = row.gote_time_s,
    opening_usi: Text = &row.opening_usi,
    final_sfen: Text = &row.final_sfen,
    variations: Int = row.variations as i64,
    comments: Int = row.comments as i64,
    start_time_precision: Text = row.start_time_precision,
    game_key: Text = &row.game_key.to_string(),
    terminal_text: Text = &row.terminal_text,
    sente_opening: Text = &row.sente_opening,
    gote_opening: Text = &row.gote_opening,
    sente_castle: Text = &row.sente_castle,
    gote_castle: Text = &row.gote_castle,
    sente_opening_ply: Text = &row.sente_opening_ply,
    gote_opening_ply: Text = &row.gote_opening_ply,
    sente_castle_ply: Text = &row.sente_castle_ply,
    gote_castle_ply: Text = &row.gote_castle_ply,
    game_style: Text = &row.game_style,
    opening_header: Text = &row.opening_header,
}

/// The record batches as the producing thread sends them.
struct Batches {
    schema: SchemaRef,
    rx: Receiver<Result<RecordBatch, ArrowError>>,
    /// Stops the statistics thread (Ctrl-C, or the consumer is gone).
    stop: Stop,
}

impl Iterator for Batches {
    type Item = Result<RecordBatch, ArrowError>;
    /// The next batch; while waiting for it, signals are looked for every
    /// [`interrupt::TICK`]. On Ctrl-C the run stops, the stream ends, and
    /// the signal is raised again, so that `KeyboardInterrupt` comes out of
    /// the call that reads the stream (`pyarrow.table(…)`) as it returns.
    /// (Ending the stream with an error instead would raise the consumer's
    /// own exception first.)
    fn next(&mut self) -> Option<Self::Item> {
        loop {
            match self.rx.recv_timeout(interrupt::TICK) {
                Ok(b) => return Some(b),
                Err(RecvTimeoutError::Disconnected) => return None,
                Err(RecvTimeoutError::Timeout) => {}
            }
            let interrupted = Python::attach(|py| py.check_signals().is_err());
            if interrupted {
                self.stop.stop();
                // SAFETY: callable from any thread, with or without the GIL.
                unsafe { pyo3::ffi::PyErr_SetInterrupt() };
                return None;
            }
        }
    }
}

impl Drop for Batches {
    fn drop(&mut self) {
        self.stop.stop();
    }
}

impl RecordBatchReader for Batches {
    fn schema(&self) -> SchemaRef {
        self.schema.clone()
    }
}

/// Runs the statistics over `inputs`, sending record batches of
/// [`BATCH_ROWS`] rows; an input that could not be read ends the stream
/// with an error naming it (after every row of the others).
fn produce(
    inputs: Vec<Input>,
    workers: Workers,
    opts: StatsOptions,
    schema: SchemaRef,
    tx: std::sync::mpsc::SyncSender<Result<RecordBatch, ArrowError>>,
    stop: Stop,
) {
    let vopts = ValidateOptions::default();
    let per_game = VisitorsWith(
        || Stats::replay(opts, vopts),
        |r: &mut Replay<Stats>, meta: &FileMeta| {
            r.observer_mut().source(Source {
                path: meta.display.clone(),
                format: meta.format,
                encoding: meta.encoding,
            })
        },
    );
    let mut cols = Columns::new(BATCH_ROWS);
    let mut rows = 0;
    let mut unread = Vec::new();
    let batch = |cols: &mut Columns| RecordBatch::try_new(schema.clone(), cols.finish());
    let ropts = ReadOptions::default();
    let delivered = batch::run_until(&inputs, &workers, &ropts, per_game, &stop, |ev| {
        match ev {
            Event::Game(_, index, g) => {
                let mut stats = g.output;
                stats.row.game = index;
                cols.push(&stats.row);
                rows += 1;
                if rows == BATCH_ROWS {
                    rows = 0;
                    if tx.send(batch(&mut cols)).is_err() {
                        return ControlFlow::Break(()); // the consumer is gone
                    }
                }
            }
            Event::FileDone(meta) => {
                if let Some(e) = &meta.error {
                    unread.push(format!("{}: {e}", meta.display));
                }
            }
        }
        ControlFlow::Continue(())
    });
    if !delivered {
        return;
    }
    if rows > 0 && tx.send(batch(&mut cols)).is_err() {
        return;
    }
    if !unread.is_empty() {
        let _ = tx.send(Err(ArrowError::IoError(
            format!(
                "kifu.stats: {} input(s) could not be read: {}",
                unread.len(),
                unread.join("; ")
            ),
            std::io::Error::other("unreadable input"),
        )));
    }
}

/// The games table as an Arrow stream: pass it to `pyarrow.table()`,
/// `pyarrow.RecordBatchReader.from_stream()`, `polars.from_arrow()`… It
/// can be read once.
#[pyclass(frozen, module = "kifu")]
pub struct StatsStream {
    reader: Mutex<Option<Batches>>,
    schema: SchemaRef,
}

#[pymethods]
impl StatsStream {
    /// The Arrow PyCapsule interface: the stream, moved to the consumer.
    #[pyo3(signature = (requested_schema = None))]
    fn __arrow_c_stream__<'py>(
        &self,
        py: Python<'py>,
        requested_schema: Option<Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyCapsule>> {
        // The schema is fixed; a consumer that asks for another one casts.
        let _ = requested_schema;
        let reader = self
            .reader
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .take()
            .ok_or_else(|| PyValueError::new_err("this kifu.stats stream was already read"))?;
        let stream = FFI_ArrowArrayStream::new(Box::new(reader));
        PyCapsule::new_with_value(py, stream, c"arrow_array_stream")
    }

    /// The column names, in order.
    #[getter]
    fn columns(&self) -> Vec<String> {
        self.schema
            .fields()
            .iter()
            .map(|f| f.name().clone())
            .collect()
    }
}

/// The games table of `kifu stats` over the record files under `paths`
/// (files, folders walked for record extensions), as an Arrow stream
/// whose columns are typed (`pyarrow.table(kifu.stats(paths))`). Rows in
/// input order, the same at any `jobs`.
#[pyfunction]
#[pyo3(signature = (paths, *, jobs = None, ext = None, format = None, opening_plies = 16))]
pub fn stats(
    py: Python<'_>,
    paths: &Bound<'_, PyAny>,
    jobs: Option<usize>,
    ext: Option<Vec<String>>,
    format: Option<&str>,
    opening_plies: usize,
) -> PyResult<StatsStream> {
    let paths = inputs::paths(paths)?;
    let format = inputs::format(format)?;
    let inputs = interrupt::run(py, move |_| inputs::expand(&paths, ext, format))??;
    for i in &inputs {
        if let Some(Issue::Skipped(msg)) = &i.issue {
            inputs::warn(py, &format!("{}: {msg}", i.display))?;
        }
    }
    let workers = inputs::workers(py, jobs)?;
    let schema: SchemaRef = Arc::new(Columns::schema());
    let (tx, rx) = sync_channel(AHEAD);
    let opts = StatsOptions {
        opening_plies,
        sfen: false,
        moves: false,
    };
    let s = schema.clone();
    let stop = Stop::new();
    let producer_stop = stop.clone();
    std::thread::Builder::new()
        .name("kifu-stats".into())
        .stack_size(batch::WORKER_STACK)
        .spawn(move || {
            // A panic must not pass for the end of the table.
            let tx2 = tx.clone();
            let run = std::panic::AssertUnwindSafe(move || {
                produce(inputs, workers, opts, s, tx, producer_stop)
            });
            if std::panic::catch_unwind(run).is_err() {
                let _ = tx2.send(Err(ArrowError::ComputeError(
                    "kifu.stats: the statistics thread panicked; the table is incomplete".into(),
                )));
            }
        })?;
    Ok(StatsStream {
        reader: Mutex::new(Some(Batches {
            schema: schema.clone(),
            rx,
            stop,
        })),
        schema,
    })
}
