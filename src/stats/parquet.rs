//! The stats tables as Parquet files (feature `parquet`): the Arrow
//! batches of [`super::arrow`] (typed by the column tables) written with
//! arrow-rs' `ArrowWriter`, Snappy-compressed, in row groups of at most
//! [`ROW_GROUP_ROWS`] rows so that memory stays bounded whatever the
//! number of rows. DuckDB, polars, pandas and pyarrow read the types from
//! the file: integers, floats, booleans and timestamps without sniffing.
//! Timestamps are written in milliseconds (Parquet has no seconds), as
//! `TIMESTAMP(MILLIS)` without a zone (the wall-clock time as written).

use super::arrow::Batcher;
use super::Column;
use ::parquet::arrow::ArrowWriter;
use ::parquet::basic::Compression;
use ::parquet::errors::ParquetError;
use ::parquet::file::properties::WriterProperties;
use arrow_array::cast::AsArray;
use arrow_array::types::TimestampSecondType;
use arrow_array::{ArrayRef, RecordBatch, TimestampMillisecondArray};
use arrow_schema::{DataType, Field, Schema, SchemaRef, TimeUnit};
use std::io::Write;
use std::sync::Arc;

/// Rows per record batch handed to the writer.
const BATCH_ROWS: usize = 8192;

/// Rows per row group (the unit a reader skips or reads in parallel; the
/// writer holds one in memory).
pub const ROW_GROUP_ROWS: usize = 65_536;

/// A Parquet table being written to `W`: rows go in one at a time.
///
/// ```
/// use kifu::stats::{parquet::ParquetTable, GameRow, GAME_COLUMNS};
///
/// let mut t = ParquetTable::new(GAME_COLUMNS, Vec::new()).unwrap();
/// t.push(&GameRow::default()).unwrap();
/// let bytes = t.finish().unwrap();
/// assert!(bytes.starts_with(b"PAR1") && bytes.ends_with(b"PAR1"));
/// ```
pub struct ParquetTable<R: 'static, W: Write + Send> {
    rows: Batcher<R>,
    /// The file's schema: the batches', with timestamps in milliseconds.
    schema: SchemaRef,
    writer: ArrowWriter<W>,
}

/// Parquet has no timestamp of seconds (arrow-rs would write one as a
/// plain integer, which DuckDB reads as `BIGINT`): timestamps are written
/// in milliseconds, still without a zone.
const FILE_TIME: DataType = DataType::Timestamp(TimeUnit::Millisecond, None);

fn file_schema(batches: &Schema) -> SchemaRef {
    let fields: Vec<Field> = batches
        .fields()
        .iter()
        .map(|f| match f.data_type() {
            DataType::Timestamp(..) => f.as_ref().clone().with_data_type(FILE_TIME),
            _ => f.as_ref().clone(),
        })
        .collect();
    Arc::new(Schema::new(fields))
}

/// A batch with its timestamps in milliseconds.
fn in_file_units(batch: RecordBatch, schema: &SchemaRef) -> Result<RecordBatch, ParquetError> {
    let columns: Vec<ArrayRef> = batch
        .columns()
        .iter()
        .map(|c| match c.data_type() {
            DataType::Timestamp(TimeUnit::Second, None) => {
                let ms: TimestampMillisecondArray = c
                    .as_primitive::<TimestampSecondType>()
                    .unary(|s| s.saturating_mul(1000));
                Arc::new(ms) as ArrayRef
            }
            _ => c.clone(),
        })
        .collect();
    Ok(RecordBatch::try_new(schema.clone(), columns)?)
}

impl<R, W: Write + Send> ParquetTable<R, W> {
    /// A table of `table`'s columns written to `out`.
    pub fn new(table: &'static [Column<R>], out: W) -> Result<Self, ParquetError> {
        let rows = Batcher::new(table, BATCH_ROWS);
        let props = WriterProperties::builder()
            .set_compression(Compression::SNAPPY)
            .set_max_row_group_row_count(Some(ROW_GROUP_ROWS))
            .set_created_by(format!("kifu {}", env!("CARGO_PKG_VERSION")))
            .build();
        let schema = file_schema(&rows.schema());
        let writer = ArrowWriter::try_new(out, schema.clone(), Some(props))?;
        Ok(ParquetTable {
            rows,
            schema,
            writer,
        })
    }

    /// Appends one row (written out once a batch is full).
    pub fn push(&mut self, row: &R) -> Result<(), ParquetError> {
        self.rows.push(row);
        if self.rows.len() >= BATCH_ROWS {
            self.flush_batch()?;
        }
        Ok(())
    }

    fn flush_batch(&mut self) -> Result<(), ParquetError> {
        let batch = in_file_units(self.rows.finish()?, &self.schema)?;
        self.writer.write(&batch)
    }

    /// Writes the last rows and the footer; gives the output back.
    pub fn finish(mut self) -> Result<W, ParquetError> {
        if !self.rows.is_empty() {
            self.flush_batch()?;
        }
        // Flushes the last row group and writes the footer.
        self.writer.into_inner()
    }
}
