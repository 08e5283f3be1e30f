//! CSA records (V2 to V3.0): reader and writer.
