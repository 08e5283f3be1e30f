//! The stats tables as Arrow record batches (feature `arrow`), typed by
//! the column tables ([`super::GAME_COLUMNS`], [`super::MOVE_COLUMNS`],
//! [`super::TAG_COLUMNS`]): one Arrow column per CSV column, in the CSV's
//! order, holding the values a CSV reader gets from the table `kifu stats`
//! writes, with the types the column table gives (no sniffing).
//!
//! | column type | Arrow type | empty cell |
//! |---|---|---|
//! | text | `utf8` | the empty string |
//! | integer | `int64` | null |
//! | float | `float64` | null |
//! | bool | `bool` | never empty |
//! | timestamp | `timestamp[s]` (no zone: the wall-clock time as written) | null |
//!
//! `kifu.stats` (Python) streams these batches; `kifu stats --format
//! parquet` writes them ([`super::parquet`]).

use super::{Cell, Column, ColumnType};
use arrow_array::builder::{
    ArrayBuilder, BooleanBuilder, Float64Builder, Int64Builder, StringBuilder,
    TimestampSecondBuilder,
};
use arrow_array::{ArrayRef, RecordBatch};
use arrow_schema::{ArrowError, DataType, Field, Schema, SchemaRef, TimeUnit};
use std::sync::Arc;

/// The Arrow type of a column of `ty` (see the [module docs](self)).
pub fn data_type(ty: ColumnType) -> DataType {
    match ty {
        ColumnType::Text => DataType::Utf8,
        ColumnType::Integer => DataType::Int64,
        ColumnType::Float => DataType::Float64,
        ColumnType::Bool => DataType::Boolean,
        ColumnType::Timestamp => DataType::Timestamp(TimeUnit::Second, None),
    }
}

/// The Arrow schema of a table: its columns, in order, with their types
/// and nullability.
pub fn schema<R>(table: &[Column<R>]) -> Schema {
    Schema::new(
        table
            .iter()
            .map(|c| Field::new(c.name, data_type(c.ty), c.nullable))
            .collect::<Vec<_>>(),
    )
}

/// One column's builder, by the column's type.
enum Builder {
    Text(StringBuilder),
    Int(Int64Builder),
    Float(Float64Builder),
    Bool(BooleanBuilder),
    Time(TimestampSecondBuilder),
}

impl Builder {
    fn new(ty: ColumnType, rows: usize) -> Builder {
        match ty {
            ColumnType::Text => Builder::Text(StringBuilder::with_capacity(rows, rows * 8)),
            ColumnType::Integer => Builder::Int(Int64Builder::with_capacity(rows)),
            ColumnType::Float => Builder::Float(Float64Builder::with_capacity(rows)),
            ColumnType::Bool => Builder::Bool(BooleanBuilder::with_capacity(rows)),
            ColumnType::Timestamp => Builder::Time(TimestampSecondBuilder::with_capacity(rows)),
        }
    }

    fn append(&mut self, cell: Cell<'_>) {
        match (self, cell) {
            (Builder::Text(b), Cell::Text(s)) => b.append_value(s),
            (Builder::Text(b), Cell::Key(k)) => b.append_value(k.to_string()),
            (Builder::Int(b), Cell::Int(n)) => b.append_option(n),
            (Builder::Float(b), Cell::Float(x)) => b.append_option(x),
            (Builder::Bool(b), Cell::Bool(v)) => b.append_value(v),
            (Builder::Time(b), Cell::Text(s)) => b.append_option(seconds(s)),
            // The column tables pair each type with its cells (a test in
            // the library checks them); a mismatch would be a null, which
            // a column that may not be empty refuses (the batch errs).
            (Builder::Text(b), _) => b.append_null(),
            (Builder::Int(b), _) => b.append_null(),
            (Builder::Float(b), _) => b.append_null(),
            (Builder::Bool(b), _) => b.append_null(),
            (Builder::Time(b), _) => b.append_null(),
        }
    }

    fn finish(&mut self) -> ArrayRef {
        match self {
            Builder::Text(b) => ArrayBuilder::finish(b),
            Builder::Int(b) => ArrayBuilder::finish(b),
            Builder::Float(b) => ArrayBuilder::finish(b),
            Builder::Bool(b) => ArrayBuilder::finish(b),
            Builder::Time(b) => ArrayBuilder::finish(b),
        }
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

/// Rows of a table gathered into Arrow columns, then taken as one record
/// batch at a time.
///
/// ```
/// use kifu::stats::{arrow::Batcher, GameRow, GAME_COLUMNS};
///
/// let mut b = Batcher::new(GAME_COLUMNS, 16);
/// b.push(&GameRow { plies: 3, ..GameRow::default() });
/// let batch = b.finish().unwrap();
/// assert_eq!((batch.num_rows(), batch.num_columns()), (1, GAME_COLUMNS.len()));
/// ```
pub struct Batcher<R: 'static> {
    table: &'static [Column<R>],
    schema: SchemaRef,
    builders: Vec<Builder>,
    rows: usize,
}

impl<R> Batcher<R> {
    /// Empty columns for `table`, with room for `rows` rows.
    pub fn new(table: &'static [Column<R>], rows: usize) -> Batcher<R> {
        Batcher {
            table,
            schema: Arc::new(schema(table)),
            builders: table.iter().map(|c| Builder::new(c.ty, rows)).collect(),
            rows: 0,
        }
    }

    /// The schema of the batches.
    pub fn schema(&self) -> SchemaRef {
        self.schema.clone()
    }

    /// Appends one row.
    pub fn push(&mut self, row: &R) {
        for (b, c) in self.builders.iter_mut().zip(self.table) {
            b.append((c.value)(row));
        }
        self.rows += 1;
    }

    /// Rows gathered since the last batch.
    pub fn len(&self) -> usize {
        self.rows
    }

    /// Whether no row was gathered since the last batch.
    pub fn is_empty(&self) -> bool {
        self.rows == 0
    }

    /// The rows gathered as one batch; the builders start again empty.
    pub fn finish(&mut self) -> Result<RecordBatch, ArrowError> {
        self.rows = 0;
        let columns = self.builders.iter_mut().map(Builder::finish).collect();
        RecordBatch::try_new(self.schema.clone(), columns)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::{GameRow, MoveRow, GAME_COLUMNS, MOVE_COLUMNS};
    use arrow_array::cast::AsArray;
    use arrow_array::types::{Float64Type, Int64Type, TimestampSecondType};
    use arrow_array::Array;

    #[test]
    fn batches_have_the_column_tables_types() {
        let mut g = Batcher::new(GAME_COLUMNS, 4);
        g.push(&GameRow {
            start_time: "2024-01-02T10:00:00".into(),
            plies: 7,
            sente_time_s: Some(1.5),
            ..GameRow::default()
        });
        g.push(&GameRow::default());
        let b = g.finish().unwrap();
        for (f, c) in b.schema().fields().iter().zip(GAME_COLUMNS) {
            assert_eq!(f.name(), c.name);
            assert_eq!(f.data_type(), &data_type(c.ty), "{}", c.name);
        }
        let col = |n: &str| b.column(b.schema().index_of(n).unwrap()).clone();
        assert_eq!(col("plies").as_primitive::<Int64Type>().value(0), 7);
        let t = col("sente_time_s");
        assert_eq!(t.as_primitive::<Float64Type>().value(0), 1.5);
        assert!(t.is_null(1));
        let st = col("start_time");
        assert_eq!(
            st.as_primitive::<TimestampSecondType>().value(0),
            1_704_189_600
        );
        assert!(st.is_null(1));
        let mut m = Batcher::new(MOVE_COLUMNS, 1);
        m.push(&MoveRow {
            eval: Some(-45),
            ..MoveRow::default()
        });
        assert_eq!(m.finish().unwrap().num_rows(), 1);
        assert!(m.is_empty());
    }
}
