//! SFEN/USI records, one game per line: reader and writer.
