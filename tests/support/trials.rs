//! Tests that need what a fresh machine may lack (the shared corpus, a
//! Python package, a browser) and say so in `cargo test`'s own summary.
//!
//! libtest can only report a test as `ok` or failed once it has started;
//! a test that found nothing to run on would show `ok`. A test binary that
//! holds such tests is declared with `harness = false` in `Cargo.toml` and
//! runs them through [libtest_mimic], which reports a test that returns
//! [`Skip`] as `ignored, <reason>` and counts it among the summary's
//! `ignored`:
//!
//! ```ignore
//! #[path = "support/trials.rs"]
//! mod trials;
//! use trials::Skip;
//!
//! fn whole_corpus_replays() -> Result<(), Skip> {
//!     let dir = trials::corpus()?; // ignored when ../shared/corpus is absent
//!     assert!(dir.join("index.csv").exists());
//!     Ok(())
//! }
//!
//! fn main() {
//!     trials::main(trials![whole_corpus_replays]);
//! }
//! ```
//!
//! `cargo test -- --include-ignored`, filters and `--list` work as with
//! libtest. Setting `KIFU_TEST_REQUIRE` to a space-separated list of needs
//! (`corpus`, `chromium`, `python:cshogi`, …; `python` for every
//! `python:…`; `all` for every one) turns a skip for one of them into a
//! failure: `.ci/run` sets it for what it has just installed, so a broken
//! install cannot pass as a skip. `KIFU_TEST_SKIP`, a list of the same
//! form, leaves the trials that need what it names out even when it is
//! there (reported `ignored` all the same): `KIFU_TEST_SKIP=all` is the
//! quick run of the README.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

pub use libtest_mimic::Trial;
use libtest_mimic::{Arguments, Completion, Failed};

/// Why a test did not run: the need that is missing, and what it would
/// have checked.
#[derive(Debug)]
pub struct Skip {
    /// The missing need, as `KIFU_TEST_REQUIRE` names it (`corpus`,
    /// `chromium`, `python:cshogi`).
    pub need: String,
    /// One line for the reader of the test output.
    pub reason: String,
    /// Left out by `KIFU_TEST_SKIP`, not missing: never a failure.
    chosen: bool,
}

impl Skip {
    /// A skip because `need` is missing.
    pub fn new(need: impl Into<String>, reason: impl Into<String>) -> Skip {
        Skip {
            need: need.into(),
            reason: reason.into(),
            chosen: false,
        }
    }

    /// Whether the list of needs in the environment variable `var` names
    /// this one.
    fn named_in(&self, var: &str) -> bool {
        std::env::var(var).is_ok_and(|v| {
            v.split_whitespace()
                .any(|w| w == "all" || w == self.need || self.need.starts_with(&format!("{w}:")))
        })
    }

    /// Whether `KIFU_TEST_REQUIRE` asks for this need, so that its absence
    /// is a failure rather than a skip.
    fn required(&self) -> bool {
        !self.chosen && self.named_in("KIFU_TEST_REQUIRE")
    }
}

/// A skip when `KIFU_TEST_SKIP` leaves `need` out; every check of a need
/// below asks it first.
pub fn wanted(need: &str) -> Result<(), Skip> {
    let skip = Skip {
        need: need.to_string(),
        reason: "left out by KIFU_TEST_SKIP".to_string(),
        chosen: true,
    };
    if skip.named_in("KIFU_TEST_SKIP") {
        Err(skip)
    } else {
        Ok(())
    }
}

/// A test that may skip; its name is the function's.
pub fn trial(name: &str, f: fn() -> Result<(), Skip>) -> Trial {
    Trial::ignorable_test(name, move || match f() {
        Ok(()) => Ok(Completion::Completed),
        Err(skip) if skip.required() => Err(Failed::from(format!(
            "{} is required (KIFU_TEST_REQUIRE) but missing: {}",
            skip.need, skip.reason
        ))),
        Err(skip) => Ok(Completion::ignored_with(format!(
            "needs {}: {}",
            skip.need, skip.reason
        ))),
    })
}

/// The trials for a list of test functions (each `fn() -> Result<(), Skip>`),
/// named after them.
#[macro_export]
macro_rules! trials {
    ($($f:path),* $(,)?) => {
        vec![$($crate::trials::trial(stringify!($f), $f)),*]
    };
}

/// A test that needs nothing a machine may lack, in a binary whose other
/// tests may skip (a plain `fn()`, as under `#[test]`); its name is the
/// function's.
pub fn test(name: &str, f: fn()) -> Trial {
    Trial::test(name, move || {
        f();
        Ok(())
    })
}

/// The trials for a list of plain test functions (each `fn()`), named
/// after them: `trials::main(tests![a, b].into_iter().chain(trials![c]))`.
#[macro_export]
macro_rules! tests {
    ($($f:path),* $(,)?) => {
        vec![$($crate::trials::test(stringify!($f), $f)),*]
    };
}

/// Runs `trials` with the command line's arguments and exits as libtest
/// does (101 when a test failed).
pub fn main(trials: impl IntoIterator<Item = Trial>) -> ! {
    libtest_mimic::run(&Arguments::from_args(), trials.into_iter().collect()).exit()
}

/// The checkout's root.
pub fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The shared corpus (`../shared/corpus` beside the checkout), or a skip.
pub fn corpus() -> Result<PathBuf, Skip> {
    wanted("corpus")?;
    let p = root().join("../shared/corpus");
    if p.join("index.csv").is_file() {
        Ok(p)
    } else {
        Err(Skip::new(
            "corpus",
            format!(
                "{} is absent (the shared corpus of real records)",
                p.display()
            ),
        ))
    }
}

/// The `python` of a virtual environment that `make` makes (with
/// `tests/support/python.rs`), or a skip saying why it could not be made;
/// the need is `python:<package>` (`KIFU_TEST_REQUIRE=python` requires
/// every one).
pub fn python(
    package: &str,
    make: impl FnOnce() -> Result<PathBuf, String>,
) -> Result<PathBuf, Skip> {
    let need = format!("python:{package}");
    wanted(&need)?;
    make().map_err(|why| Skip::new(need, why))
}

/// A program on `PATH`, or a skip naming it.
pub fn program(name: &str) -> Result<PathBuf, Skip> {
    wanted(name)?;
    let path = std::env::var_os("PATH").unwrap_or_default();
    std::env::split_paths(&path)
        .map(|d| d.join(name))
        .find(|p| p.is_file())
        .ok_or_else(|| Skip::new(name, format!("`{name}` is not on PATH")))
}
