//! Writing to standard output: a broken pipe ends the program quietly.

use std::io::{self, Write};

/// Writes a line to `w`; exits quietly (code 0) if the reader went away.
pub fn line(w: &mut impl Write, text: &str) {
    if let Err(e) = writeln!(w, "{text}") {
        if e.kind() == io::ErrorKind::BrokenPipe {
            std::process::exit(0);
        }
        eprintln!("kifu: cannot write output: {e}");
        std::process::exit(2);
    }
}

/// Flushes `w` (same rules as [`line`]).
pub fn flush(w: &mut impl Write) {
    if let Err(e) = w.flush() {
        if e.kind() == io::ErrorKind::BrokenPipe {
            std::process::exit(0);
        }
        eprintln!("kifu: cannot write output: {e}");
        std::process::exit(2);
    }
}
