//! The export visitor: each main-line move played once, the position
//! before it encoded as it comes.

use super::layout::Layout;
use super::pack::{self, Unencodable};
use crate::eval::{score_of, Score};
use crate::read::{Flow, CONTINUE};
use crate::record::{Outcome, Start};
use crate::replay::{Ended, Observer, Replay};
use crate::rules::color::Color;
use crate::rules::moves::Move;
use crate::rules::position::Position;
use crate::rules::role::Role;
use crate::validate::{GameReport, Played, ValidateOptions};
use std::fmt;

/// The value a mate score (`#詰み=…`) counts as: the threshold of
/// dlshogi's `csa_to_hcpe.py`, so it stops a game with
/// [`ExportOptions::stop_score`] and is clamped like any large score.
pub const MATE_SCORE: i64 = 100_000;

/// The largest eval written; larger scores are clamped (symmetrically, as
/// dlshogi does, so that a sign change never overflows).
pub const EVAL_LIMIT: i64 = 32_767;

/// What to export and which games to keep.
#[derive(Clone, Debug, PartialEq)]
pub struct ExportOptions {
    /// The layout written.
    pub layout: Layout,
    /// How games are judged.
    pub validate: ValidateOptions,
    /// The end reasons kept (ids of [`crate::validate::REASONS`]; see
    /// [`parse_ending`](super::parse_ending)); empty: every decided game.
    pub endings: Vec<&'static str>,
    /// Keep games of at least this many main-line plies.
    pub min_plies: Option<u32>,
    /// Keep games whose two players are both rated at least this
    /// (floodgate's `'black_rate:NAME:R` / `'white_rate:NAME:R` comments;
    /// a game without them is left out). A value of 0 or less filters
    /// nothing, unrated games included, as dlshogi's `--filter_rating 0`.
    pub min_rating: Option<f64>,
    /// Write only positions whose move has an evaluation (`.hcpe`, `.psv`);
    /// for `.hcpe3`, which keeps games whole, leave out a game where half
    /// of the moves or more have none.
    pub require_eval: bool,
    /// Stop a game's records after the first position whose score's
    /// absolute value reaches this (that position included).
    pub stop_score: Option<i64>,
    /// Leave out a game with a written position whose score's absolute
    /// value exceeds this.
    pub max_score: Option<i64>,
    /// Compute [`GameReport::game_key`] (for `--dedupe`, splits, indexes).
    pub game_key: bool,
}

impl ExportOptions {
    /// Every decided game, every position, in `layout`.
    pub fn new(layout: Layout) -> ExportOptions {
        ExportOptions {
            layout,
            validate: ValidateOptions::default(),
            endings: Vec::new(),
            min_plies: None,
            min_rating: None,
            require_eval: false,
            stop_score: None,
            max_score: None,
            game_key: true,
        }
    }

    /// The defaults of dlshogi's `csa_to_hcpe.py`: games ended by
    /// resignation or declaration (`%TORYO`, `%KACHI`) of at least 50
    /// plies between players both rated 3500 or more; positions without
    /// an evaluation left out; a game stops after the first position
    /// whose score reaches ±100000, and a game with a score beyond
    /// ±1000000 is left out.
    pub fn dlshogi(layout: Layout) -> ExportOptions {
        ExportOptions {
            endings: vec!["resign", "declaration"],
            min_plies: Some(50),
            min_rating: Some(3500.0),
            require_eval: true,
            stop_score: Some(MATE_SCORE),
            max_score: Some(1_000_000),
            ..ExportOptions::new(layout)
        }
    }
}

/// Why a game wrote nothing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SkipReason {
    /// An error was found (an illegal move, a syntax error, a false
    /// result, …): the game's findings say which.
    Invalid,
    /// A main-line move is illegal, though the record states it as a
    /// foul that ends the game (a `foul` warning, not an error): the game
    /// is judged, but its moves are not all legal.
    IllegalMove,
    /// Minishogi or doubutsu: the layouts hold standard shogi only.
    Variant,
    /// A position without a code (a missing king, too many pieces).
    Unencodable(Unencodable),
    /// The result is not a win or a draw (aborted, unknown).
    NoResult,
    /// The end reason is not among [`ExportOptions::endings`].
    Ending,
    /// Fewer plies than [`ExportOptions::min_plies`].
    MinPlies,
    /// A player below [`ExportOptions::min_rating`], or unrated (when the
    /// minimum is above 0).
    Rating,
    /// A score beyond [`ExportOptions::max_score`].
    ScoreOutOfRange,
    /// No evaluation where [`ExportOptions::require_eval`] needs one.
    NoEval,
    /// No position to write (a game without moves).
    NoPositions,
}

impl SkipReason {
    /// Its id in the index (`reason`): `invalid`, `variant`,
    /// `unencodable`, `no-result`, `ending`, `min-plies`, `rating`,
    /// `score-out-of-range`, `no-eval`, `no-positions`.
    pub fn name(self) -> &'static str {
        match self {
            SkipReason::Invalid => "invalid",
            SkipReason::IllegalMove => "illegal-move",
            SkipReason::Variant => "variant",
            SkipReason::Unencodable(_) => "unencodable",
            SkipReason::NoResult => "no-result",
            SkipReason::Ending => "ending",
            SkipReason::MinPlies => "min-plies",
            SkipReason::Rating => "rating",
            SkipReason::ScoreOutOfRange => "score-out-of-range",
            SkipReason::NoEval => "no-eval",
            SkipReason::NoPositions => "no-positions",
        }
    }
}

impl fmt::Display for SkipReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SkipReason::Unencodable(u) => write!(f, "unencodable ({u})"),
            r => f.write_str(r.name()),
        }
    }
}

/// What one game gave (the validator's report is beside it, in
/// [`crate::replay::Replayed::report`]).
#[derive(Clone, Debug, PartialEq)]
pub struct GameExport {
    /// Why nothing was written, if nothing was.
    pub skipped: Option<SkipReason>,
    /// Records in `bytes`: positions (`.hcpe`, `.psv`) or moves (`.hcpe3`,
    /// whose headers are not counted; a game of more than
    /// [`Layout::max_game_moves`] moves is written as
    /// several `.hcpe3` games, see [`GameExport::hcpe3_games`]).
    pub records: u32,
    /// The game's bytes in the layout (empty when skipped).
    pub bytes: Vec<u8>,
}

impl GameExport {
    /// The `.hcpe3` games these bytes hold, when they are `.hcpe3`: one
    /// per [`Layout::max_game_moves`] moves begun (a
    /// header's `moveNum` counts at most 65,535), 0 when skipped.
    pub fn hcpe3_games(&self) -> u32 {
        self.records.div_ceil(Layout::Hcpe3.max_game_moves())
    }

    /// The game's bytes, appended to `out` (a buffer a caller maps, e.g.
    /// as a numpy array).
    pub fn append_to(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(&self.bytes);
    }
}

/// A start position and its code.
#[derive(Debug)]
struct StartCode {
    pos: Position,
    kind: pack::Kind,
    check: Result<(), Unencodable>,
    /// The code, when `check` passed.
    coder: Option<pack::Incremental>,
}

/// Whether two positions have the same code: the same pieces on the same
/// squares, the same hands, the same side to move.
fn same_placement(a: &Position, b: &Position) -> bool {
    a.variant() == b.variant()
        && a.turn() == b.turn()
        && Color::ALL
            .iter()
            .all(|&c| a.by_color(c) == b.by_color(c) && a.hand(c) == b.hand(c))
        && Role::ALL.iter().all(|&r| a.by_role(r) == b.by_role(r))
}

/// The main-line record whose evaluation may still come.
#[derive(Clone, Copy, Debug)]
struct Pending {
    /// Offset of its eval field in the buffer.
    eval_at: usize,
    /// Offset of the record.
    at: usize,
    /// The side to move in its position.
    color: Color,
    /// Its eval was written.
    has_eval: bool,
}

/// The export observer (see the [module docs](super)); one serves any
/// number of games, in a [`Replay`] ([`Exporter::replay`]).
#[derive(Debug)]
pub struct Exporter {
    opts: ExportOptions,
    buf: Vec<u8>,
    records: u32,
    pending: Option<Pending>,
    /// Whether the start position has a code (decided at the first move).
    code: Option<Result<(), Unencodable>>,
    /// The code of the position before the next main-line move, followed
    /// move by move (`.hcpe`, `.psv`).
    coder: Option<pack::Incremental>,
    /// Records are still being written.
    recording: bool,
    /// The code of the position a continued `.hcpe3` game starts from,
    /// between `playing` and `played` of its first move.
    continuation: Option<pack::Code>,
    /// A main-line move was not played (illegal).
    illegal: bool,
    out_of_range: bool,
    players: crate::record::players::Players,
    /// `.hcpe3`: written moves without an evaluation.
    missing_evals: u32,
    /// The ply of the position before the move being played.
    ply: u32,
    /// The size of the last game's bytes: the next buffer's capacity.
    hint: usize,
    /// The last start encoded (most games share theirs).
    last_start: Option<StartCode>,
}

impl Exporter {
    /// An exporter.
    pub fn new(opts: ExportOptions) -> Exporter {
        Exporter {
            opts,
            buf: Vec::new(),
            records: 0,
            pending: None,
            code: None,
            coder: None,
            recording: true,
            continuation: None,
            illegal: false,
            out_of_range: false,
            players: Default::default(),
            missing_evals: 0,
            ply: 0,
            hint: 64 * Layout::Hcpe.move_size(),
            last_start: None,
        }
    }

    /// The replay that runs an exporter: judged with
    /// [`ExportOptions::validate`], with the game key when
    /// [`ExportOptions::game_key`], without the final SFEN.
    pub fn replay(opts: ExportOptions) -> Replay<Exporter> {
        Exporter::replay_with(opts, |e| e)
    }

    /// [`Exporter::replay`] with other observers beside the exporter
    /// (`wrap` builds the composed observer from it).
    pub fn replay_with<O: Observer>(
        opts: ExportOptions,
        wrap: impl FnOnce(Exporter) -> O,
    ) -> Replay<O> {
        let (validate, key) = (opts.validate, opts.game_key);
        Replay::new(validate, wrap(Exporter::new(opts)))
            .with_validator(|v| v.with_final_sfen(false).with_game_key(key))
    }

    /// The options.
    pub fn options(&self) -> &ExportOptions {
        &self.opts
    }

    /// Leaves out the pending record when it needs an evaluation it did
    /// not get.
    #[inline]
    fn close_pending(&mut self) {
        if let Some(p) = self.pending.take() {
            if !p.has_eval {
                if self.opts.layout == Layout::Hcpe3 {
                    self.missing_evals += 1;
                } else if self.opts.require_eval {
                    self.buf.truncate(p.at);
                    self.records -= 1;
                }
            }
        }
    }

    /// Decides at the start whether it has a code, and takes the start's
    /// code (the last one's when the start is the same: most games share
    /// theirs).
    fn check_start(&mut self, pos: &Position) {
        let kind = match self.opts.layout {
            Layout::Psv => pack::Kind::PackedSfen,
            Layout::Hcpe | Layout::Hcpe3 => pack::Kind::Hcp,
        };
        if !self
            .last_start
            .as_ref()
            .is_some_and(|s| s.kind == kind && same_placement(&s.pos, pos))
        {
            let check = pack::check(pos);
            self.last_start = Some(StartCode {
                pos: *pos,
                kind,
                check,
                coder: check.is_ok().then(|| pack::Incremental::new(pos, kind)),
            });
        }
        let (c, coder) = match &self.last_start {
            Some(s) => (s.check, s.coder.clone()),
            None => (Ok(()), None),
        };
        self.coder = coder;
        self.recording = c.is_ok();
        self.code = Some(c);
    }

    /// A legal main-line move while records are written: the position
    /// before it is encoded, then its fields filled.
    #[inline]
    fn record_move(&mut self, p: &Played) {
        self.close_pending();
        let layout = self.opts.layout;
        // As records are written, the start has a code: the coder is there.
        let Some(coder) = self.coder.as_mut() else {
            self.recording = false;
            return;
        };
        let ply = self.ply;
        if layout == Layout::Hcpe3 {
            if self.buf.is_empty() {
                // The first move: the coder still holds the start's code.
                self.buf.extend_from_slice(&coder.code());
                self.buf
                    .resize(self.buf.len() + layout.header_size() - 32, 0);
            } else if let Some(code) = self.continuation.take() {
                // A header counts at most 65,535 moves: the game goes on
                // as the next `.hcpe3` game, from the position before
                // this move (taken in `playing`; see `fill_results`).
                self.buf.extend_from_slice(&code);
                self.buf
                    .resize(self.buf.len() + layout.header_size() - 32, 0);
            }
        }
        let at = self.buf.len();
        let eval_at = match layout {
            Layout::Hcpe | Layout::Psv => {
                // The record made on the stack (position code, zero eval,
                // move, `.psv`'s gamePly; eval and result come later) and
                // appended in one copy: no zero-fill of the buffer first.
                let mut r = [0u8; 40];
                r[..32].copy_from_slice(&coder.code());
                if layout == Layout::Hcpe {
                    r[34..36].copy_from_slice(&pack::move16(p.mv).to_le_bytes());
                } else {
                    r[34..36].copy_from_slice(&pack::psv_move16(p.mv).to_le_bytes());
                    let ply = ply.min(u16::MAX as u32) as u16;
                    r[36..38].copy_from_slice(&ply.to_le_bytes());
                }
                // Constant sizes: the copy is a few moves, no call.
                if layout == Layout::Hcpe {
                    self.buf.extend_from_slice(&r[..38]);
                } else {
                    self.buf.extend_from_slice(&r[..40]);
                }
                debug_assert_eq!(self.buf.len() - at, layout.move_size());
                coder.play(p.mv, p.color, p.role, p.captured);
                at + 32
            }
            Layout::Hcpe3 => {
                // move16, eval, candidateNum 1, then the candidate: the
                // move itself, visited once.
                let v = pack::move16(p.mv).to_le_bytes();
                self.buf
                    .extend_from_slice(&[v[0], v[1], 0, 0, 1, 0, v[0], v[1], 1, 0]);
                at + 2
            }
        };
        self.records += 1;
        self.pending = Some(Pending {
            eval_at,
            at,
            color: p.color,
            has_eval: false,
        });
    }

    /// A main-line comment: an evaluation for the pending record, or a
    /// player's rating.
    #[cold]
    fn main_comment(&mut self, text: &str) {
        // Evaluations start with `**` (CSA), `#` or `*` (KIF); ratings
        // with `black_rate:` / `white_rate:`.
        let first = text.as_bytes().first().copied().unwrap_or(0);
        if !matches!(first, b'*' | b'#' | b'b' | b'w') {
            return;
        }
        if let Some(p) = self.pending.filter(|p| !p.has_eval) {
            if let Some(s) = score_of(text) {
                self.score(p, s);
                return;
            }
        }
        if self.opts.min_rating.is_some() {
            self.players.comment(text);
        }
    }

    fn score(&mut self, mut p: Pending, s: Score) {
        let cp = match s {
            Score::Cp(n) => n,
            Score::Mate(n) if n >= 0 => MATE_SCORE,
            Score::Mate(_) => -MATE_SCORE,
        };
        // Saturating: a score of i64::MIN (an overflowing comment) is as
        // far out of range as i64::MAX.
        let size = cp.saturating_abs();
        if self.opts.max_score.is_some_and(|m| size > m) {
            self.out_of_range = true;
            self.recording = false;
            return;
        }
        let v = cp.clamp(-EVAL_LIMIT, EVAL_LIMIT);
        let v = if p.color == Color::Black { v } else { -v } as i16;
        self.buf[p.eval_at..p.eval_at + 2].copy_from_slice(&v.to_le_bytes());
        p.has_eval = true;
        self.pending = Some(p);
        if self.opts.stop_score.is_some_and(|m| size >= m) {
            self.recording = false;
        }
    }

    /// Why the game just read is left out, if it is.
    fn verdict(&self, report: &GameReport) -> Option<SkipReason> {
        let o = &self.opts;
        if !report.ok {
            return Some(SkipReason::Invalid);
        }
        if self.illegal {
            return Some(SkipReason::IllegalMove);
        }
        match self.code {
            Some(Err(Unencodable::Variant(_))) => return Some(SkipReason::Variant),
            Some(Err(u)) => return Some(SkipReason::Unencodable(u)),
            _ => {}
        }
        let outcome = report.result.outcome;
        if !matches!(
            outcome,
            Outcome::SenteWin | Outcome::GoteWin | Outcome::Draw
        ) {
            return Some(SkipReason::NoResult);
        }
        let reason = report.result.reason.as_deref().unwrap_or("");
        if !o.endings.is_empty() && !o.endings.contains(&reason) {
            return Some(SkipReason::Ending);
        }
        if o.min_plies.is_some_and(|n| report.plies < n) {
            return Some(SkipReason::MinPlies);
        }
        // As dlshogi's converters: the filter applies above 0 only.
        if let Some(min) = o.min_rating.filter(|m| *m > 0.0) {
            if !self.players.rated_within(Some(min), None) {
                return Some(SkipReason::Rating);
            }
        }
        if self.out_of_range {
            return Some(SkipReason::ScoreOutOfRange);
        }
        if self.records == 0 {
            return Some(if o.require_eval && report.plies > 0 {
                SkipReason::NoEval
            } else {
                SkipReason::NoPositions
            });
        }
        // csa_to_hcpe3.py: a game where half of the moves have no eval.
        if o.layout == Layout::Hcpe3 && o.require_eval && self.missing_evals >= self.records / 2 {
            return Some(SkipReason::NoEval);
        }
        None
    }

    /// Fills the results in: `.hcpe` absolute (0 draw, 1 sente, 2 gote),
    /// `.psv` from the side to move (1, -1, 0), `.hcpe3` absolute with the
    /// flags of the end.
    fn fill_results(&mut self, report: &GameReport) {
        let winner = report.result.outcome.winner();
        let absolute: u8 = match winner {
            None => 0,
            Some(Color::Black) => 1,
            Some(Color::White) => 2,
        };
        match self.opts.layout {
            Layout::Hcpe => {
                for rec in self.buf.chunks_exact_mut(Layout::Hcpe.move_size()) {
                    rec[36] = absolute;
                }
            }
            Layout::Psv => {
                for rec in self.buf.chunks_exact_mut(Layout::Psv.move_size()) {
                    let turn = if rec[0] & 1 == 0 {
                        Color::Black
                    } else {
                        Color::White
                    };
                    rec[38] = match winner {
                        None => 0,
                        Some(c) if c == turn => 1,
                        Some(_) => (-1i8) as u8,
                    };
                }
            }
            Layout::Hcpe3 => {
                let layout = Layout::Hcpe3;
                let flags = layout.end_flags(report.result.reason.as_deref());
                // One header per `.hcpe3` game the game is written as
                // (more than one past 65,535 moves), each with the moves
                // that follow it and the game's result.
                let mut at = 0;
                let mut left = self.records;
                while left > 0 && at + layout.header_size() <= self.buf.len() {
                    let n = left.min(layout.max_game_moves());
                    self.buf[at + 32..at + 34].copy_from_slice(&(n as u16).to_le_bytes());
                    self.buf[at + 34] = absolute | flags;
                    at += layout.header_size() + n as usize * layout.move_size();
                    left -= n;
                }
            }
        }
    }
}

/// A rating as floodgate writes it after `black_rate:`: `NAME:3512.0`.
impl Observer for Exporter {
    type Output = GameExport;

    fn begin(&mut self, _index: usize) -> Flow {
        self.buf = Vec::with_capacity(self.hint);
        self.records = 0;
        self.pending = None;
        self.code = None;
        self.coder = None;
        self.recording = true;
        self.continuation = None;
        self.illegal = false;
        self.out_of_range = false;
        self.players.clear();
        self.missing_evals = 0;
        CONTINUE
    }

    fn start(&mut self, _start: &Start, pos: &Position) -> Flow {
        self.check_start(pos);
        CONTINUE
    }

    fn header(&mut self, key: &crate::record::HeaderKey, value: &str) -> Flow {
        if self.opts.min_rating.is_some() {
            self.players.header(key, value);
        }
        CONTINUE
    }

    fn comment(&mut self, text: &str, main: bool) -> Flow {
        if main && self.recording {
            self.main_comment(text);
        }
        CONTINUE
    }

    #[inline]
    fn playing(&mut self, before: &Position, _mv: Move) -> Flow {
        self.ply = before.ply();
        if self.opts.layout == Layout::Hcpe3
            && self.recording
            && self.records > 0
            && self.records.is_multiple_of(Layout::Hcpe3.max_game_moves())
        {
            // The `.hcpe3` game in progress is full: the next one starts
            // from this position (no coder follows `.hcpe3` moves).
            self.continuation = Some(pack::hcp(before));
        }
        CONTINUE
    }

    #[inline]
    fn played(&mut self, p: &Played, _after: &Position) -> Flow {
        if self.recording {
            self.record_move(p);
        }
        CONTINUE
    }

    fn unplayed(&mut self) -> Flow {
        // An illegal move: the game writes nothing.
        if self.recording {
            self.close_pending();
            self.recording = false;
        }
        self.illegal = true;
        CONTINUE
    }

    fn end(&mut self, ended: &Ended<'_>) -> GameExport {
        self.close_pending();
        let report = ended.report;
        let skipped = self.verdict(report);
        let records = if skipped.is_some() {
            self.buf.clear();
            0
        } else {
            self.fill_results(report);
            self.records
        };
        self.hint = self.hint.max(self.buf.len()).min(1 << 20);
        GameExport {
            skipped,
            records,
            bytes: std::mem::take(&mut self.buf),
        }
    }
}

/// What [`export`] wrote.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Totals {
    /// Games read.
    pub games: u64,
    /// Games written.
    pub kept: u64,
    /// Records written (positions, or `.hcpe3` moves).
    pub records: u64,
    /// Bytes written.
    pub bytes: u64,
}

/// Exports every game of `reader` into `out` (a file, a `Vec<u8>`, any
/// writer); games are left out as [`Exporter`] decides.
///
/// ```
/// use kifu::export::{export, ExportOptions, Layout};
/// use kifu::read::Reader;
///
/// let csa = b"PI\n+\n+7776FU\n-3334FU\n%TORYO\n/\nPI\n+\n+2726FU\n%CHUDAN\n";
/// let mut out = Vec::new();
/// let t = export(&mut Reader::new(&csa[..]).unwrap(), &ExportOptions::new(Layout::Psv), &mut out).unwrap();
/// assert_eq!((t.games, t.kept, t.records), (2, 1, 2));
/// assert_eq!(out.len(), 2 * Layout::Psv.move_size());
/// ```
pub fn export<R: std::io::BufRead, W: std::io::Write>(
    reader: &mut crate::read::Reader<R>,
    opts: &ExportOptions,
    out: &mut W,
) -> std::io::Result<Totals> {
    let mut e = Exporter::replay(opts.clone());
    let mut t = Totals::default();
    while let Some(g) = reader.read_game(&mut e) {
        let g = g.output;
        t.games += 1;
        if g.skipped.is_none() {
            t.kept += 1;
            t.records += u64::from(g.records);
            t.bytes += g.bytes.len() as u64;
            out.write_all(&g.bytes)?;
        }
    }
    Ok(t)
}

#[cfg(test)]
mod tests {
    use super::*;
    const HCPE_SIZE: usize = 38;
    const PSV_SIZE: usize = 40;
    const HCPE3_HEADER_SIZE: usize = 36;
    const HCPE3_MOVE_WITH_CANDIDATE: usize = 10;
    const HCPE3_REPETITION: u8 = 4;

    /// The sizes the tests write out are the layout's.
    #[test]
    fn sizes_are_the_layouts() {
        assert_eq!(Layout::Hcpe.record_size(), Some(HCPE_SIZE));
        assert_eq!(Layout::Psv.record_size(), Some(PSV_SIZE));
        assert_eq!(Layout::Hcpe3.header_size(), HCPE3_HEADER_SIZE);
        assert_eq!(Layout::Hcpe3.move_size(), HCPE3_MOVE_WITH_CANDIDATE);
        assert_eq!(
            Layout::Hcpe3.end_flags(Some("repetition")),
            HCPE3_REPETITION
        );
    }
    use crate::read::Reader;

    fn run(text: &str, opts: ExportOptions) -> Vec<GameExport> {
        run_full(text, opts).into_iter().map(|g| g.output).collect()
    }

    fn run_full(text: &str, opts: ExportOptions) -> Vec<crate::replay::Replayed<GameExport>> {
        let mut r = Reader::new(text.as_bytes()).unwrap();
        let mut e = Exporter::replay(opts);
        let mut v = Vec::new();
        while let Some(g) = r.read_game(&mut e) {
            v.push(g);
        }
        v
    }

    fn i16_at(b: &[u8], at: usize) -> i16 {
        i16::from_le_bytes([b[at], b[at + 1]])
    }

    const GAME: &str = "N+A\nN-B\n'black_rate:A+x:3600.0\n'white_rate:B+y:3400\nPI\n+\n\
        +7776FU\n'** 30 -3334FU\n-3334FU\n'** 50\n+8822UM\n-3122GI\n'** -200\n+0045KA\n'** 120000\n-8384FU\n'** 5\n%TORYO\n";

    #[test]
    fn hcpe_records_and_conventions() {
        let g = &run(GAME, ExportOptions::new(Layout::Hcpe))[0];
        assert_eq!(g.skipped, None);
        assert_eq!(g.records, 6);
        let r = |i: usize| &g.bytes[i * HCPE_SIZE..(i + 1) * HCPE_SIZE];
        // Evals from the side to move, clamped.
        let evals: Vec<i16> = (0..6).map(|i| i16_at(r(i), 32)).collect();
        assert_eq!(evals, [30, -50, 0, 200, 32767, -5]);
        // 7g7f is the first move; sente resigned at ply 7: gote won.
        assert_eq!(i16_at(r(0), 34), 0x1e3b);
        assert_eq!(i16_at(r(4), 34), 0x2a9f); // B*4e
        assert!((0..6).all(|i| r(i)[36] == 2 && r(i)[37] == 0));
        assert_eq!(
            r(0)[..32],
            pack::hcp(&crate::Position::new(crate::Variant::Standard))
        );
    }

    #[test]
    fn psv_results_and_plies_from_the_side_to_move() {
        let g = &run(GAME, ExportOptions::new(Layout::Psv))[0];
        let r = |i: usize| &g.bytes[i * PSV_SIZE..(i + 1) * PSV_SIZE];
        let results: Vec<i8> = (0..6).map(|i| r(i)[38] as i8).collect();
        assert_eq!(results, [-1, 1, -1, 1, -1, 1]);
        let plies: Vec<i16> = (0..6).map(|i| i16_at(r(i), 36)).collect();
        assert_eq!(plies, [1, 2, 3, 4, 5, 6]);
        assert_eq!(i16_at(r(2), 34) as u16, 0xa30a); // 8h2b+
        assert_eq!(i16_at(r(1), 32), -50);
    }

    #[test]
    fn hcpe3_header_moves_and_flags() {
        let g = &run(GAME, ExportOptions::new(Layout::Hcpe3))[0];
        assert_eq!(g.records, 6);
        assert_eq!(
            g.bytes.len(),
            HCPE3_HEADER_SIZE + 6 * HCPE3_MOVE_WITH_CANDIDATE
        );
        assert_eq!(i16_at(&g.bytes, 32), 6);
        assert_eq!(g.bytes[34], 2);
        let m = &g.bytes[HCPE3_HEADER_SIZE..];
        assert_eq!(
            m[..10],
            [0x3b, 0x1e, 30, 0, 1, 0, 0x3b, 0x1e, 1, 0],
            "move16, eval, candidateNum 1, the move visited once"
        );
        let repetition = "PI\n+\n+5958OU\n-5152OU\n+5859OU\n-5251OU\n+5958OU\n-5152OU\n+5859OU\n-5251OU\n+5958OU\n-5152OU\n+5859OU\n-5251OU\n%SENNICHITE\n";
        let g = &run(repetition, ExportOptions::new(Layout::Hcpe3))[0];
        assert_eq!(g.skipped, None);
        assert_eq!(g.bytes[34], HCPE3_REPETITION);
    }

    #[test]
    fn dlshogi_preset_filters_and_stops() {
        let g = &run(GAME, ExportOptions::dlshogi(Layout::Hcpe))[0];
        assert_eq!(g.skipped, Some(SkipReason::MinPlies));
        let mut o = ExportOptions::dlshogi(Layout::Hcpe);
        o.min_plies = None;
        // White is rated 3400.
        assert_eq!(run(GAME, o.clone())[0].skipped, Some(SkipReason::Rating));
        o.min_rating = Some(3400.0);
        let g = &run(GAME, o.clone())[0];
        assert_eq!(g.skipped, None);
        // 8822UM has no eval; the 120000 score stops the game, included.
        assert_eq!(g.records, 4);
        let evals: Vec<i16> = (0..4)
            .map(|i| i16_at(&g.bytes, i * HCPE_SIZE + 32))
            .collect();
        assert_eq!(evals, [30, -50, 200, 32767]);
        o.min_plies = Some(50);
        assert_eq!(run(GAME, o)[0].skipped, Some(SkipReason::MinPlies));
    }

    #[test]
    fn games_without_a_decided_result_or_legal_moves_write_nothing() {
        let games =
            "PI\n+\n+7776FU\n%CHUDAN\n/\nPI\n+\n+7776FU\n-7776FU\n%TORYO\n/\nPI\n+\n+7776FU\n";
        let v = run(games, ExportOptions::new(Layout::Hcpe));
        let reasons: Vec<_> = v.iter().map(|g| g.skipped).collect();
        assert_eq!(
            reasons,
            [
                Some(SkipReason::NoResult),
                Some(SkipReason::Invalid),
                Some(SkipReason::NoResult)
            ]
        );
        assert!(v.iter().all(|g| g.bytes.is_empty() && g.records == 0));
    }

    #[test]
    fn a_foul_writes_nothing_even_after_the_stop() {
        // 反則負け: the record states the foul (a warning, the game is judged).
        let foul = "PI\n+\n+7776FU\n-3334FU\n+7775FU\n%ILLEGAL_MOVE\n";
        let g = &run_full(foul, ExportOptions::new(Layout::Hcpe))[0];
        assert!(g.report.ok);
        assert_eq!(g.output.skipped, Some(SkipReason::IllegalMove));
        let mut o = ExportOptions::new(Layout::Hcpe);
        o.stop_score = Some(100_000);
        let after_stop = "PI\n+\n+7776FU\n'** 100000\n-3334FU\n+7775FU\n%ILLEGAL_MOVE\n";
        assert_eq!(run(after_stop, o)[0].skipped, Some(SkipReason::IllegalMove));
    }

    #[test]
    fn minishogi_is_skipped() {
        let usi = "position sfen rbsgk/4p/5/P4/KGSBR b - 1 moves 5e4d 1a2b\n";
        let g = &run(usi, ExportOptions::new(Layout::Hcpe))[0];
        assert_eq!(g.skipped, Some(SkipReason::Variant));
    }

    #[test]
    fn handicap_starts_are_written_with_gote_first() {
        // 香落ち: 上手 (gote) moves first; 下手 (sente) wins.
        let csa = "PI11KY\n-\n-5142OU\n+7776FU\n-4232OU\n+2726FU\n%TORYO\n";
        let g = &run(csa, ExportOptions::new(Layout::Hcpe))[0];
        assert_eq!(g.skipped, None);
        assert_eq!(g.records, 4);
        assert_eq!(g.bytes[36], 1, "gote (上手) resigned: sente (下手) won");
    }
}
