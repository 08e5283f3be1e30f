//! KIF (Kakinoki) records: reader and writer.
