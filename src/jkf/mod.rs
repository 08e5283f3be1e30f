//! JSON Kifu Format (JKF): reader and writer.
