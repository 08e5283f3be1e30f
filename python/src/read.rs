//! `kifu.read`: the games of one record file or of bytes, each read and
//! validated by the library (every main-line move played once against the
//! rules).

use crate::{inputs, interrupt};
use kifu::batch;
use kifu::batch::Stop;
use kifu::read as kr;
use kifu::read::{Encoding, Format, ReadOptions, Reader};
use kifu::read::{Flow, CONTINUE};
use kifu::record::players::Players;
use kifu::record::{HeaderKey, MoveTime, Start};
use kifu::replay::{Ended, Observer, Replay};
use kifu::rules::write_sfen;
use kifu::rules::{Move, Position};
use kifu::validate::{GameReport, Played, ValidateOptions};
use kifu::{Color, Variant};
use pyo3::exceptions::{PyOSError, PyTypeError};
use pyo3::prelude::*;
use pyo3::pybacked::PyBackedBytes;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyBytes, PyDict, PyList, PyString, PyTuple};
use std::collections::HashMap;
use std::fmt::Write as _;
use std::io::{BufRead, BufReader, Cursor, Read};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// One finding: a problem the reader or the validator met.
#[pyclass(frozen, get_all, from_py_object, module = "kifu")]
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Finding {
    /// The rule id (`illegal-move`, `syntax`, …; see docs/validate.md).
    pub rule: String,
    /// `error` or `warning`.
    pub severity: String,
    /// What was expected and what was found.
    pub message: String,
    /// 1-based line (0: the whole file).
    pub line: u32,
    /// 1-based column, in characters.
    pub column: u32,
    /// The ply of the move concerned.
    pub ply: Option<u32>,
    /// The move as written.
    #[pyo3(name = "move")]
    pub mv: Option<String>,
    /// The position before the move, as SFEN.
    pub sfen: Option<String>,
}

impl From<&kr::Finding> for Finding {
    fn from(f: &kr::Finding) -> Finding {
        Finding {
            rule: f.rule.id().to_string(),
            severity: match f.severity {
                kr::Severity::Error => "error",
                kr::Severity::Warning => "warning",
            }
            .to_string(),
            message: f.message.clone(),
            line: f.line,
            column: f.column,
            ply: f.ply,
            mv: f.mv.clone(),
            sfen: f.sfen.clone(),
        }
    }
}

#[pymethods]
impl Finding {
    #[new]
    #[pyo3(signature = (rule, severity, message, line, column, ply=None, r#move=None, sfen=None))]
    #[allow(clippy::too_many_arguments)]
    fn py_new(
        rule: String,
        severity: String,
        message: String,
        line: u32,
        column: u32,
        ply: Option<u32>,
        r#move: Option<String>,
        sfen: Option<String>,
    ) -> Finding {
        Finding {
            rule,
            severity,
            message,
            line,
            column,
            ply,
            mv: r#move,
            sfen,
        }
    }

    /// Pickles by its fields (for multiprocessing, Dask).
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyTuple>> {
        let f = slf.get();
        let args = (
            &f.rule,
            &f.severity,
            &f.message,
            f.line,
            f.column,
            f.ply,
            &f.mv,
            &f.sfen,
        );
        (slf.get_type(), args).into_pyobject(slf.py())
    }

    /// The fields as a dict, keyed as in `kifu validate --format json`.
    pub fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        d.set_item("rule", &self.rule)?;
        d.set_item("severity", &self.severity)?;
        d.set_item("message", &self.message)?;
        d.set_item("line", self.line)?;
        d.set_item("column", self.column)?;
        d.set_item("ply", self.ply)?;
        d.set_item("move", &self.mv)?;
        d.set_item("sfen", &self.sfen)?;
        Ok(d)
    }

    fn __eq__(&self, other: &Finding) -> bool {
        self == other
    }

    fn __repr__(&self) -> String {
        format!(
            "Finding({}:{}: {}[{}]: {})",
            self.line, self.column, self.severity, self.rule, self.message
        )
    }
}

/// How a game ended, as the validator decides it.
#[pyclass(frozen, get_all, from_py_object, module = "kifu")]
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameResult {
    /// `sente_win`, `gote_win`, `draw`, `aborted` or `unknown`.
    pub outcome: String,
    /// `sente` or `gote`, when someone won.
    pub winner: Option<String>,
    /// Why (`resign`, `checkmate`, `repetition`, …), when known.
    pub reason: Option<String>,
    /// The terminal word as written, when kifu does not know it.
    pub terminal_text: Option<String>,
}

impl From<&kifu::validate::GameResult> for GameResult {
    fn from(r: &kifu::validate::GameResult) -> GameResult {
        GameResult {
            outcome: r.outcome.name().to_string(),
            winner: r.winner.map(|c| side(c).to_string()),
            reason: r.reason.clone(),
            terminal_text: r.terminal_text.clone(),
        }
    }
}

#[pymethods]
impl GameResult {
    #[new]
    #[pyo3(signature = (outcome, winner=None, reason=None, terminal_text=None))]
    fn py_new(
        outcome: String,
        winner: Option<String>,
        reason: Option<String>,
        terminal_text: Option<String>,
    ) -> GameResult {
        GameResult {
            outcome,
            winner,
            reason,
            terminal_text,
        }
    }

    /// Pickles by its fields.
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyTuple>> {
        let r = slf.get();
        let args = (&r.outcome, &r.winner, &r.reason, &r.terminal_text);
        (slf.get_type(), args).into_pyobject(slf.py())
    }

    /// The fields as a dict, keyed as in `kifu validate --format json`.
    pub fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        d.set_item("outcome", &self.outcome)?;
        d.set_item("winner", &self.winner)?;
        d.set_item("reason", &self.reason)?;
        d.set_item("terminal_text", &self.terminal_text)?;
        Ok(d)
    }

    fn __eq__(&self, other: &GameResult) -> bool {
        self == other
    }

    fn __repr__(&self) -> String {
        format!(
            "GameResult(outcome={:?}, winner={:?}, reason={:?})",
            self.outcome, self.winner, self.reason
        )
    }
}

/// `sente` or `gote`.
pub fn side(c: Color) -> &'static str {
    match c {
        Color::Black => "sente",
        Color::White => "gote",
    }
}

/// The USI text of every move met so far, made once: a game's `moves`
/// are references to these strings (a few thousand distinct moves).
static USI: PyOnceLock<Mutex<UsiStrings>> = PyOnceLock::new();

/// Python strings of USI moves, by variant and move.
type UsiStrings = HashMap<(Variant, Move), Py<PyString>>;

/// One game: its header, start, main-line moves, result and findings.
#[pyclass(frozen, module = "kifu")]
pub struct Game {
    format: Format,
    encoding: Encoding,
    header: Vec<(String, String)>,
    start_sfen: String,
    variant: Variant,
    moves: Vec<Move>,
    extras: Extras,
    report: GameReport,
}

/// What a game says beside its moves: the players' ratings and ranks, and
/// per main-line move its time, evaluation and comments.
#[derive(Default)]
struct Extras {
    players: Players,
    /// Seconds spent on each main-line move played.
    times: Vec<Option<f64>>,
    /// Each move's engine score (centipawns, sente's view) and mate score.
    scores: Vec<(Option<i64>, Option<i32>)>,
    /// Main-line comments, with the number of moves played before them.
    comments: Vec<(u32, String)>,
}

impl Extras {
    fn clear(&mut self) {
        self.players.clear();
        self.times.clear();
        self.scores.clear();
        self.comments.clear();
    }

    fn take(&mut self) -> Extras {
        Extras {
            players: std::mem::take(&mut self.players),
            times: std::mem::take(&mut self.times),
            scores: std::mem::take(&mut self.scores),
            comments: std::mem::take(&mut self.comments),
        }
    }
}

/// Reads a game in one pass: an observer of the library's replay (every
/// move played once) that keeps the header, the start and the main-line
/// moves played.
struct Reading {
    format: Format,
    encoding: Encoding,
    header: Vec<(String, String)>,
    start: Option<(String, Variant)>,
    moves: Vec<Move>,
    extras: Extras,
}

impl Reading {
    fn replay(format: Format, encoding: Encoding) -> Replay<Reading> {
        let reading = Reading {
            format,
            encoding,
            header: Vec::new(),
            start: None,
            moves: Vec::new(),
            extras: Extras::default(),
        };
        Replay::new(ValidateOptions::default(), reading)
            .with_validator(|v| v.with_final_sfen(true).with_game_key(true))
    }
}

/// A game as [`Reading`] keeps it, without its report.
struct Kept {
    format: Format,
    encoding: Encoding,
    header: Vec<(String, String)>,
    start_sfen: String,
    variant: Variant,
    moves: Vec<Move>,
    extras: Extras,
}

impl Kept {
    fn game(self, report: GameReport) -> Game {
        Game {
            format: self.format,
            encoding: self.encoding,
            header: self.header,
            start_sfen: self.start_sfen,
            variant: self.variant,
            moves: self.moves,
            extras: self.extras,
            report,
        }
    }
}

impl Observer for Reading {
    type Output = Kept;
    fn begin(&mut self, _index: usize) -> Flow {
        self.header.clear();
        self.start = None;
        self.moves.clear();
        self.extras.clear();
        CONTINUE
    }
    fn header(&mut self, key: &HeaderKey, value: &str) -> Flow {
        self.extras.players.header(key, value);
        self.header
            .push((key.name().to_string(), value.to_string()));
        CONTINUE
    }
    fn start(&mut self, start: &Start, _pos: &Position) -> Flow {
        self.start = Some((write_sfen(&start.setup), start.setup.variant));
        CONTINUE
    }
    fn played(&mut self, p: &Played, _after: &Position) -> Flow {
        self.moves.push(p.mv);
        self.extras.times.push(None);
        self.extras.scores.push((None, None));
        CONTINUE
    }
    fn time(&mut self, time: MoveTime) -> Flow {
        if let (Some(t), Some(ms)) = (self.extras.times.last_mut(), time.spent_ms) {
            *t = Some(ms as f64 / 1000.0);
        }
        CONTINUE
    }
    fn comment(&mut self, text: &str, main: bool) -> Flow {
        if !main {
            return CONTINUE;
        }
        self.extras.players.comment(text);
        if let Some(s) = self
            .extras
            .scores
            .last_mut()
            .filter(|s| **s == (None, None))
        {
            match kifu::eval::score_of(text) {
                Some(kifu::eval::Score::Cp(n)) => s.0 = Some(n),
                Some(kifu::eval::Score::Mate(n)) => s.1 = Some(n),
                None => {}
            }
        }
        self.extras
            .comments
            .push((self.moves.len() as u32, text.to_string()));
        CONTINUE
    }
    fn end(&mut self, _ended: &Ended<'_>) -> Kept {
        let (start_sfen, variant) = self.start.take().unwrap_or_else(|| {
            let s = Start::default();
            (write_sfen(&s.setup), s.setup.variant)
        });
        Kept {
            format: self.format,
            encoding: self.encoding,
            header: std::mem::take(&mut self.header),
            start_sfen,
            variant,
            moves: std::mem::take(&mut self.moves),
            extras: self.extras.take(),
        }
    }
}

#[pymethods]
impl Game {
    /// 0-based index of the game in its file.
    #[getter]
    fn index(&self) -> usize {
        self.report.index
    }

    /// The format read (`kif`, `ki2`, `csa`, `psn`, `jkf`, `usi`).
    #[getter]
    fn format(&self) -> &'static str {
        self.format.name()
    }

    /// The encoding detected (`utf-8`, `shift_jis`, …).
    #[getter]
    fn encoding(&self) -> &'static str {
        self.encoding.name()
    }

    /// Header entries by their canonical names (`sente`, `gote`, `event`,
    /// `start_time`, …; other keys as written); the first of a repeated key.
    #[getter]
    fn header<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        for (k, v) in &self.header {
            if !d.contains(k)? {
                d.set_item(k, v)?;
            }
        }
        Ok(d)
    }

    /// Every header entry in source order, repeated keys included.
    #[getter]
    fn header_entries(&self) -> Vec<(String, String)> {
        self.header.clone()
    }

    /// The start position as SFEN.
    #[getter]
    fn start_sfen(&self) -> &str {
        &self.start_sfen
    }

    /// `standard`, `minishogi` or `doubutsu`.
    #[getter]
    fn variant(&self) -> &'static str {
        self.variant.name()
    }

    /// The main line's moves in USI, as played: up to the first illegal
    /// one (whose finding quotes it as written), so `len(moves) == plies`.
    #[getter]
    fn moves<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let cache = USI.get_or_init(py, || Mutex::new(HashMap::new()));
        let mut cache = cache.lock().unwrap_or_else(|e| e.into_inner());
        let mut s = String::with_capacity(8);
        PyList::new(
            py,
            self.moves.iter().map(|&m| {
                cache
                    .entry((self.variant, m))
                    .or_insert_with(|| {
                        s.clear();
                        let _ = write!(s, "{}", m.usi(self.variant));
                        PyString::intern(py, &s).unbind()
                    })
                    .clone_ref(py)
                    .into_bound(py)
            }),
        )
    }

    /// Main-line moves replayed (up to the first illegal one).
    #[getter]
    fn plies(&self) -> u32 {
        self.report.plies
    }

    /// No error finding.
    #[getter]
    fn ok(&self) -> bool {
        self.report.ok
    }

    /// The position after the last replayed move, as SFEN.
    #[getter]
    fn final_sfen(&self) -> &str {
        &self.report.final_sfen
    }

    /// The result.
    #[getter]
    fn result(&self) -> GameResult {
        GameResult::from(&self.report.result)
    }

    /// Every finding, the reader's and the validator's, in source order.
    #[getter]
    fn findings(&self) -> Vec<Finding> {
        self.report.findings.iter().map(Finding::from).collect()
    }

    /// The game key (32 hex digits): variant, start and main-line moves.
    #[getter]
    fn game_key(&self) -> String {
        self.report.game_key.to_string()
    }

    /// The players' ratings, sente's then gote's (`None` when the record
    /// gives none; docs/stats.md#ratings-and-ranks).
    #[getter]
    fn ratings(&self) -> (Option<f64>, Option<f64>) {
        let r = self.extras.players.rating;
        (r[0], r[1])
    }

    /// The players' ranks as written (`4D`, `三段`), sente's then gote's
    /// (`None` when none).
    #[getter]
    fn ranks(&self) -> (Option<String>, Option<String>) {
        let r = &self.extras.players.rank;
        let some = |s: &String| (!s.is_empty()).then(|| s.clone());
        (some(&r[0]), some(&r[1]))
    }

    /// Seconds spent on each main-line move (`None` where the record has
    /// no time), one per move of `moves`.
    #[getter]
    fn times(&self) -> Vec<Option<f64>> {
        self.extras.times.clone()
    }

    /// Each main-line move's engine score from its evaluation comment
    /// (CSA `'** N`, KIF `*#評価値=N`), centipawns from sente's point of
    /// view; `None` when absent or a mate score. One per move of `moves`.
    #[getter]
    fn evals(&self) -> Vec<Option<i64>> {
        self.extras.scores.iter().map(|s| s.0).collect()
    }

    /// Each main-line move's mate score (`*#詰み=先手勝ち:N手`): plies to
    /// mate, positive when sente mates; `None` otherwise.
    #[getter]
    fn mates(&self) -> Vec<Option<i32>> {
        self.extras.scores.iter().map(|s| s.1).collect()
    }

    /// The main line's comments as `(ply, text)`: `ply` moves were played
    /// before the comment (0: before the first move).
    #[getter]
    fn comments(&self) -> Vec<(u32, String)> {
        self.extras.comments.clone()
    }

    fn __len__(&self) -> usize {
        self.moves.len()
    }

    fn __repr__(&self) -> String {
        format!(
            "Game(index={}, format={:?}, moves={}, ok={}, result={:?})",
            self.report.index,
            self.format.name(),
            self.moves.len(),
            if self.report.ok { "True" } else { "False" },
            self.report.result.outcome.name()
        )
    }
}

/// An `OSError` (its subclass by errno: `FileNotFoundError`, …) naming
/// the file.
pub fn io_error(e: &std::io::Error, path: &std::path::Path) -> PyErr {
    PyOSError::new_err((
        e.raw_os_error().unwrap_or(0),
        e.to_string(),
        path.to_string_lossy().into_owned(),
    ))
}

/// The games of a file, read as the batch runner reads an input: at most
/// [`batch::STREAM_THRESHOLD`] bytes are taken, whatever size the file
/// claims (a device or a FIFO claims 0); a file that ends within them is
/// parsed whole, a longer one is streamed (with the reader's line cap).
/// Reads fail once `stop` is set.
fn read_path(path: &Path, format: Option<Format>, stop: &Stop) -> std::io::Result<Vec<Game>> {
    let opts = ReadOptions::default();
    let file = std::fs::File::open(path)?;
    let size = file
        .metadata()
        .map_or(0, |m| if m.is_file() { m.len() } else { 0 });
    let mut file = stop.guard(file);
    let format = format.or_else(|| Format::from_path(path));
    let (start, whole) = batch::read_prefix(&mut file, batch::STREAM_THRESHOLD, size)?;
    if whole {
        return Ok(games(Reader::with_options(&start[..], format, &opts)?));
    }
    let source = BufReader::with_capacity(1 << 16, Cursor::new(start).chain(file));
    Ok(games(Reader::with_options(source, format, &opts)?))
}

/// Reads every game of a reader, validating each as it is read.
fn games<R: BufRead>(mut reader: Reader<R>) -> Vec<Game> {
    let mut v = Reading::replay(reader.format(), reader.encoding());
    let mut games = Vec::new();
    while let Some(g) = reader.read_game(&mut v) {
        games.push(g.output.game(g.report));
    }
    games
}

/// The games of a record file (`str` or `os.PathLike`) or of `bytes`, each
/// validated: header, start SFEN, USI moves, result and findings. The
/// format comes from the extension or the content unless `format` names
/// it; the encoding is detected.
#[pyfunction]
#[pyo3(signature = (source, *, format = None))]
pub fn read(
    py: Python<'_>,
    source: &Bound<'_, PyAny>,
    format: Option<&str>,
) -> PyResult<Vec<Game>> {
    let format = inputs::format(format)?;
    let opts = ReadOptions::default();
    if let Ok(b) = source.cast::<PyBytes>() {
        let bytes = b.as_bytes();
        if bytes.len() as u64 <= batch::STREAM_THRESHOLD {
            // Read at once (well under a second), without a thread.
            let reader = Reader::with_options(bytes, format, &opts)?;
            return Ok(py.detach(|| games(reader)));
        }
        let bytes = PyBackedBytes::from(b.clone());
        return interrupt::run(py, move |stop| {
            let src = BufReader::with_capacity(1 << 16, stop.guard(Cursor::new(bytes)));
            Ok(games(Reader::with_options(src, format, &opts)?))
        })?;
    }
    if source.is_instance_of::<PyString>() || source.hasattr("__fspath__")? {
        let path: PathBuf = source.extract()?;
        let meta = std::fs::metadata(&path).map_err(|e| io_error(&e, &path))?;
        if meta.is_file() && meta.len() <= batch::STREAM_THRESHOLD {
            // A regular file of usual size: read at once, without a thread.
            return py
                .detach(|| read_path(&path, format, &Stop::new()))
                .map_err(|e| io_error(&e, &path));
        }
        // A FIFO, a device, a `/proc` file, a large file: on a thread that
        // Ctrl-C stops.
        return interrupt::run(py, move |stop| {
            read_path(&path, format, &stop).map_err(|e| io_error(&e, &path))
        })?;
    }
    if let Ok(v) = source.extract::<Vec<u8>>() {
        // bytearray, memoryview: copied once, then read without the GIL.
        if v.len() as u64 <= batch::STREAM_THRESHOLD {
            let reader = Reader::with_options(&v[..], format, &opts)?;
            return Ok(py.detach(|| games(reader)));
        }
        return interrupt::run(py, move |stop| {
            let src = BufReader::with_capacity(1 << 16, stop.guard(Cursor::new(v)));
            Ok(games(Reader::with_options(src, format, &opts)?))
        })?;
    }
    Err(PyTypeError::new_err(
        "read() takes a path (str or os.PathLike) or bytes",
    ))
}
