//! Pieces the subcommands share: the skeleton of a reading command
//! ([`Job`]), input discovery, options, workers, source lines, how
//! findings and unread inputs are printed.
//!
//! Every reading command is the same steps, written here once:
//! inputs ([`Job::new`]) → plan and claims ([`Job::claim`], typed
//! [`StartError`]s said by [`Job::refuse`]) → nothing found?
//! ([`Job::nothing_found`]) → reporter, progress, workers → the games
//! ([`Job::drive`] hands each event to a [`Consumer`]) → summary → one
//! exit code ([`exit_code`]).

use crate::args::InputArgs;
use crate::batch::{self, Event, FileMeta, Input, Issue, PerGame, Workers};
use crate::out;
use crate::output::{Appended, ClaimError, Destination, Plan, Sink};
use crate::progress::Progress;
use kifu::read::Finding;
use kifu::read::{DecodeOptions, ReadOptions};
use kifu::validate::GameReport;
use std::io;
use std::ops::ControlFlow;
use std::path::PathBuf;
use std::sync::Arc;

/// Why a reading command does not start (exit 2, nothing read or
/// written), said as `kifu COMMAND: …`.
#[derive(Debug)]
pub enum StartError {
    /// Flags that cannot go together, or a value that cannot be.
    Usage(String),
    /// An output refused when planned.
    Claim(ClaimError),
    /// An output that could not be opened.
    Open(io::Error),
    /// Files of an output folder refused by the naming rule, one message
    /// each (see [`Plan::out_dir`]).
    OutDir(Vec<String>),
}

impl std::fmt::Display for StartError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            StartError::Usage(m) => f.write_str(m),
            StartError::Claim(e) => write!(f, "{e}"),
            StartError::Open(e) => write!(f, "{e}"),
            StartError::OutDir(errors) => f.write_str(&errors.join("\n")),
        }
    }
}

impl From<ClaimError> for StartError {
    fn from(e: ClaimError) -> StartError {
        StartError::Claim(e)
    }
}

impl From<io::Error> for StartError {
    fn from(e: io::Error) -> StartError {
        StartError::Open(e)
    }
}

/// A usage error (see [`StartError::Usage`]).
pub fn usage<T>(msg: impl Into<String>) -> Result<T, StartError> {
    Err(StartError::Usage(msg.into()))
}

/// One run of a reading command: its inputs and the plan of its outputs.
pub struct Job<'a> {
    /// The subcommand's name, for messages.
    pub command: &'static str,
    /// The input flags.
    pub input: &'a InputArgs,
    /// Every input found, in order (those not read carry an issue).
    pub inputs: Vec<Input>,
    /// Every output of the run, claimed before the first game is read.
    pub plan: Plan,
    /// Inputs done in [`Job::drive`] (a member of an archive read as it
    /// streams counts as one): none, with only such archives to read, is
    /// "no game found" ([`Job::nothing_streamed`]).
    done: std::cell::Cell<u64>,
}

impl<'a> Job<'a> {
    /// Finds the inputs (leaving out the folders in `exclude`) and starts
    /// the plan of outputs (`force`: existing files may be replaced).
    pub fn new(
        command: &'static str,
        input: &'a InputArgs,
        exclude: &[PathBuf],
        force: bool,
    ) -> Job<'a> {
        let inputs = discover(command, input, exclude);
        let plan = Plan::new(&inputs, force);
        Job {
            command,
            input,
            inputs,
            plan,
            done: std::cell::Cell::new(0),
        }
    }

    /// The inputs that are read.
    pub fn readable(&self) -> usize {
        self.inputs.iter().filter(|i| i.issue.is_none()).count()
    }

    /// The progress bar of the run (shown when `enabled`, on a terminal):
    /// over files, or over bytes when a tar is read as it streams (its
    /// members are not known before: the bar follows the compressed
    /// bytes read out of the archive's size).
    pub fn progress(&self, enabled: bool) -> Progress {
        let streamed = |i: &Input| matches!(i.packing, Some(batch::Packing::Streamed { .. }));
        if !self.inputs.iter().any(|i| i.issue.is_none() && streamed(i)) {
            return Progress::new(self.readable() as u64, enabled);
        }
        let sizes: Vec<u64> = self
            .inputs
            .iter()
            .map(|i| if i.issue.is_none() { i.size_now() } else { 0 })
            .collect();
        Progress::bytes(&sizes, enabled)
    }

    /// Claims GitHub's job summary in the GitHub style.
    pub fn job_summary(
        &mut self,
        style: crate::args::OutputFormat,
    ) -> Result<Option<Appended>, StartError> {
        Ok(crate::report::job_summary(style, &mut self.plan)?)
    }

    /// Claims `dest` for `owner` (see [`Plan::claim`]).
    pub fn claim(&mut self, dest: &Destination, owner: &str) -> Result<(), StartError> {
        Ok(self.plan.claim(dest, owner)?)
    }

    /// Opens an output claimed with [`Job::claim`].
    pub fn open(&self, dest: &Destination) -> Result<Sink, StartError> {
        Ok(self.plan.open(dest)?)
    }

    /// With no readable input: the message and exit code (see
    /// [`nothing_found`]).
    pub fn nothing_found(&self) -> Option<u8> {
        nothing_found(self.input, self.command, &self.inputs)
    }

    /// After [`Job::drive`]: when every input to read was an archive read
    /// as it streams ([`batch::Packing::Streamed`]), none of whose members
    /// was taken (by `--ext`, `--glob`, the shard), and nothing else was
    /// done or failed: the "no game found" message and exit code (2), as
    /// [`Job::nothing_found`] says it before a run for a folder with no
    /// record in it. `None` with `--allow-empty`.
    pub fn nothing_streamed(&self) -> Option<u8> {
        let streamed = |i: &Input| matches!(i.packing, Some(batch::Packing::Streamed { .. }));
        let readable: Vec<&Input> = self.inputs.iter().filter(|i| i.issue.is_none()).collect();
        if self.input.allow_empty
            || self.done.get() > 0
            || readable.is_empty()
            || !readable.iter().all(|i| streamed(i))
            || self
                .inputs
                .iter()
                .any(|i| matches!(i.issue, Some(Issue::Error(_))))
        {
            return None;
        }
        no_game_message(self.input, self.command);
        Some(out::FAILURE)
    }

    /// The exit code `code` of a run, or "no game found" (2, see
    /// [`Job::nothing_streamed`]).
    pub fn exit_code(&self, code: std::io::Result<u8>) -> std::io::Result<u8> {
        let code = code?;
        Ok(self.nothing_streamed().unwrap_or(code))
    }

    /// Says why the command does not start; the exit code (2).
    pub fn refuse(&self, e: &StartError) -> u8 {
        let cmd = self.command;
        match e {
            StartError::OutDir(errors) => {
                for e in errors {
                    out::err(&format!("kifu {cmd}: {e}"));
                }
                out::err(&format!(
                    "kifu {cmd}: nothing written (see the naming rule in docs/convert.md)"
                ));
            }
            e => out::err(&format!("kifu {cmd}: {e}")),
        }
        out::FAILURE
    }

    /// The reporter of a command that puts its findings on standard
    /// error, in `style`, every finding shown (see [`Settings`]: `tune`
    /// changes the rest).
    ///
    /// [`Settings`]: crate::report::Settings
    pub fn reporter(
        &self,
        style: crate::args::OutputFormat,
        strictness: kifu::strictness::Strictness,
        color: crate::args::ColorArg,
        summary: Option<Appended>,
        progress: &Progress,
        tune: impl FnOnce(&mut crate::report::Settings),
    ) -> crate::report::Reporter {
        let mut set = crate::report::Settings {
            command: self.command,
            style,
            strictness,
            color: style == crate::args::OutputFormat::Human && crate::report::color(color, false),
            quiet: false,
            errors_only: false,
            every_game: false,
            summary,
        };
        tune(&mut set);
        crate::report::Reporter::new(set, crate::report::Dest::Stderr, progress)
    }

    /// Reads every input through `per_game` on `workers`, handing each
    /// event to `c` in input order, the progress counted here. Stops when
    /// `c` says so.
    pub fn drive<P, C>(
        &self,
        workers: &Workers,
        read: &ReadOptions,
        per_game: P,
        progress: &mut Progress,
        c: &mut C,
    ) where
        P: PerGame,
        P::Output: Send,
        C: Consumer<P::Output>,
    {
        batch::run(&self.inputs, workers, read, per_game, |ev| match ev {
            Event::Game(meta, index, out) => {
                progress.game();
                c.game(&meta, index, out, progress)
            }
            Event::FileDone(meta) => {
                self.done.set(self.done.get() + 1);
                if meta.error.is_none() && meta.skipped.is_none() {
                    progress.file(meta.input, meta.bytes, meta.archive_read);
                }
                c.file_done(&meta, progress)
            }
        });
        progress.finish();
    }
}

/// What a reading command does with the games, in input order (see
/// [`Job::drive`]).
pub trait Consumer<T> {
    /// Game `index` (0-based in its file) of `meta`, as the workers made it.
    fn game(
        &mut self,
        meta: &Arc<FileMeta>,
        index: usize,
        out: T,
        progress: &Progress,
    ) -> ControlFlow<()>;

    /// An input is done (all its games), or was not read.
    fn file_done(&mut self, meta: &FileMeta, progress: &Progress) -> ControlFlow<()>;
}

/// `Break` once `stop` (an output failed).
pub fn flow(stop: bool) -> ControlFlow<()> {
    if stop {
        ControlFlow::Break(())
    } else {
        ControlFlow::Continue(())
    }
}

/// The one exit code of a reading command: 2 when something could not be
/// read or written (`failed`), else 1 when records have problems, else 0.
pub fn exit_code(failed: bool, problems: bool) -> u8 {
    if failed {
        out::FAILURE
    } else if problems {
        out::PROBLEMS
    } else {
        out::OK
    }
}

/// The commands that need every member of a tar before they start, and
/// so list a tar (reading it through) before reading it again: `convert`
/// and `html` plan each input's output file and refuse colliding names
/// before anything is written (and `convert` refuses a one-game output
/// format for more than one input). Every other reading command reads a
/// tar once, its members found as it streams
/// ([`kifu::batch::Walk::stream_archives`]).
const LIST_TARS: [&str; 2] = ["convert", "html"];

/// Expands paths into inputs (unreadable paths and skipped entries are
/// inputs with an `issue`, in their places), leaving out the folders in
/// `exclude`, then keeps the shard asked for. A tar is read as it
/// streams unless `command` is one of [`LIST_TARS`].
fn discover(command: &str, a: &InputArgs, exclude: &[PathBuf]) -> Vec<Input> {
    let mut walk = a.walk(exclude);
    walk.stream_archives = !LIST_TARS.contains(&command);
    let mut inputs = match batch::discover_with(&a.paths, &walk) {
        Ok(d) => d.inputs,
        Err(e) => {
            // Checked when the arguments were read (see `main`).
            out::err(&format!("kifu: {e}"));
            std::process::exit(i32::from(out::FAILURE));
        }
    };
    if let Some((i, n)) = a.shard {
        batch::shard(&mut inputs, i, n);
    }
    inputs
}

/// With no readable input at all: the message and exit code (2), or
/// `None` when there is something to read or `--allow-empty` was given.
pub fn nothing_found(a: &InputArgs, cmd: &str, inputs: &[Input]) -> Option<u8> {
    if a.allow_empty || inputs.iter().any(|i| i.issue.is_none()) {
        return None;
    }
    if inputs
        .iter()
        .any(|i| matches!(i.issue, Some(Issue::Error(_))))
    {
        return None; // reported as unreadable, exit 2 anyway
    }
    no_game_message(a, cmd);
    Some(out::FAILURE)
}

/// Says "no game found" for the command `cmd` on standard error.
fn no_game_message(a: &InputArgs, cmd: &str) {
    out::err(&format!(
        "kifu {cmd}: no game found: no file with a record extension ({}) in {} (see --ext; --allow-empty accepts this)",
        a.ext.join(", "),
        a.paths.join(" ")
    ));
}

pub fn read_options(a: &InputArgs, encoding: Option<kifu::read::Encoding>) -> ReadOptions {
    ReadOptions {
        decode: DecodeOptions {
            encoding,
            lossy: a.lossy,
        },
    }
}

/// Starts the worker threads (`-j`, default every core); a warning when
/// fewer could be started, given to `warn` (a command with a report puts
/// it there, so machine-readable output carries it: see
/// [`crate::report::Reporter::tool_warning`]).
pub fn workers(a: &InputArgs, warn: impl FnOnce(&str)) -> Workers {
    let wanted = a
        .jobs
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
        .max(1);
    let (w, note) = Workers::new(wanted);
    if let Some(note) = note {
        warn(&note);
    }
    w
}

/// The warning of [`workers`] for a command without a report.
pub fn warn_plain(note: &str) {
    out::err(&format!("kifu: warning: {note}"));
}

/// The human renderer of findings, which keeps the source lines of the
/// input at hand (see [`crate::report::human`]).
pub type SourceLines = crate::report::human::Human;

/// A finding as people read it (plain; see [`crate::report::human`]):
/// `path:line:col: error[rule]: message`, the source line with a caret
/// under the column, then the ply, move and SFEN.
pub fn human_lines(
    meta: &FileMeta,
    report: &GameReport,
    f: &Finding,
    sources: &mut SourceLines,
) -> Vec<String> {
    sources
        .finding(meta, report.index, f)
        .lines()
        .map(str::to_string)
        .collect()
}

/// The library's notation for a `--notation` value.
pub fn notation_of(n: crate::args::NotationArg) -> kifu::diagram::Notation {
    match n {
        crate::args::NotationArg::Kif => kifu::diagram::Notation::Kif,
        crate::args::NotationArg::Psn => kifu::diagram::Notation::Psn,
    }
}

/// The library's coordinates for a `--coords` value.
pub fn coords_of(c: crate::args::CoordsArg) -> kifu::diagram::Coords {
    match c {
        crate::args::CoordsArg::Japanese => kifu::diagram::Coords::Japanese,
        crate::args::CoordsArg::Western => kifu::diagram::Coords::Western,
    }
}

/// The line that reports an input not read (`path: error[io]: …`) or a
/// skipped entry (`warning[io]`), if any.
pub fn issue_line(meta: &FileMeta) -> Option<String> {
    if let Some(e) = &meta.error {
        Some(format!("{}: error[io]: {e}", meta.display))
    } else {
        meta.skipped
            .as_ref()
            .map(|w| format!("{}: warning[io]: {w}", meta.display))
    }
}
