//! What the tests of outputs (`tests/outputs.rs`, `tests/outputs_plan.rs`)
//! share: running the command, small records written by hand, listing a
//! folder.
//!
//! `KIFU_BIN=/path/to/kifu` runs them against another build (to see them
//! fail on an older one).
#![allow(dead_code)]

use std::path::Path;
use std::process::{Command, Output, Stdio};

/// The kifu binary under test.
pub fn bin() -> String {
    std::env::var("KIFU_BIN").unwrap_or_else(|_| env!("CARGO_BIN_EXE_kifu").to_string())
}

/// A kifu command, with no GitHub job summary to write.
pub fn kifu() -> Command {
    let mut c = Command::new(bin());
    c.env_remove("GITHUB_STEP_SUMMARY");
    c
}

/// Runs kifu with `args`, nothing on standard input.
pub fn run(args: &[&str]) -> Output {
    kifu()
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("run kifu")
}

/// A path as an argument.
pub fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// Standard error, as text.
pub fn err(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// Standard output, as text.
pub fn out(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// A two-move game, written by hand in CSA.
pub const GAME: &[u8] = b"V2.2\nN+Alice\nN-Bob\nPI\n+\n+7776FU\n-3334FU\n%TORYO\n";
/// Another game, with other moves.
pub const GAME2: &[u8] = b"V2.2\nPI\n+\n+2726FU\n-8384FU\n%TORYO\n";

/// [`GAME`] and [`GAME2`] in one CSA file.
pub fn two_games() -> Vec<u8> {
    let mut v = GAME.to_vec();
    v.extend_from_slice(b"/\n");
    v.extend_from_slice(&GAME2[5..]);
    v
}

/// Every file below `dir`, relative, sorted (none if it does not exist).
pub fn tree(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = walkdir::WalkDir::new(dir)
        .into_iter()
        .filter_map(|e| e.ok())
        .filter(|e| !e.file_type().is_dir())
        .map(|e| {
            e.path()
                .strip_prefix(dir)
                .unwrap()
                .to_string_lossy()
                .into_owned()
        })
        .collect();
    v.sort();
    v
}
