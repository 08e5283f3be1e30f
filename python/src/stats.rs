//! `kifu.stats`: the games table of `kifu stats` as an Arrow stream. The
//! rows are the library's (`kifu::stats::Stats` in a replay on the batch
//! runner, in input order); each CSV column becomes a typed Arrow column
//! holding the values a CSV reader gets from the table `kifu stats`
//! writes (`kifu::stats::arrow`, the batches `--format parquet` writes).
//! The work runs on its own threads, without the GIL, while the
//! consumer (pyarrow, polars, DuckDB…) reads record batches through the
//! Arrow C stream interface (`__arrow_c_stream__`).

use crate::{inputs, interrupt};
use arrow_array::ffi_stream::FFI_ArrowArrayStream;
use arrow_array::{RecordBatch, RecordBatchReader};
use arrow_schema::{ArrowError, SchemaRef};
use kifu::batch::{self, Event, FileMeta, Input, Issue, Stop, VisitorsWith, Workers};
use kifu::read::ReadOptions;
use kifu::replay::Replay;
use kifu::stats::arrow::Batcher;
use kifu::stats::{Source, Stats, StatsOptions, GAME_COLUMNS};
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
    // The games table's columns, typed by the library's column table
    // (`kifu::stats::arrow`, which `kifu stats --format parquet` writes).
    let mut cols = Batcher::new(GAME_COLUMNS, BATCH_ROWS);
    debug_assert_eq!(cols.schema(), schema);
    let mut rows = 0;
    let mut unread = Vec::new();
    let batch = |cols: &mut Batcher<_>| cols.finish();
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
    let schema: SchemaRef = Arc::new(kifu::stats::arrow::schema(GAME_COLUMNS));
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
