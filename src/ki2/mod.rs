//! KI2 records (no origin squares, relative marks): reader and writer.
