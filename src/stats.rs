//! Statistics: one CSV row per game and per move, gathered while the game is
//! validated (so invalid games still give a row up to the first illegal
//! move).

use crate::psn::PsnMove;
use crate::read::{Encoding, Flow, Format, Game, Severity, CONTINUE};
use crate::record::{HeaderKey, MoveTime, Start, TerminalKind};
use crate::replay::{Ended, Observer, Replay, Replayed};
use crate::rules::color::Color;
use crate::rules::handicap::Handicap;
use crate::rules::moves::Move;
use crate::rules::position::Position;
use crate::rules::variant::Variant;
use crate::validate::{Played, ValidateOptions};
use serde::Serialize;

#[cfg(feature = "arrow")]
pub mod arrow;
mod columns;
#[cfg(feature = "parquet")]
pub mod parquet;
pub use columns::{Cell, Column, ColumnType, GAME_COLUMNS, MOVE_COLUMNS, TAG_COLUMNS};

/// Settings for the tables.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StatsOptions {
    /// Plies in `opening_usi`.
    pub opening_plies: usize,
    /// Fill `sfen_before` in the moves table.
    pub sfen: bool,
    /// Build the moves table at all.
    pub moves: bool,
}

impl Default for StatsOptions {
    fn default() -> StatsOptions {
        StatsOptions {
            opening_plies: 16,
            sfen: false,
            moves: false,
        }
    }
}

/// One row of the games table. Field names are the CSV column names.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct GameRow {
    /// Input path as given.
    pub path: String,
    /// 0-based game index within the file.
    pub game: usize,
    /// Format read.
    pub format: &'static str,
    /// Encoding detected.
    pub encoding: &'static str,
    /// `standard`, `minishogi` or `doubutsu`.
    pub variant: &'static str,
    /// Japanese handicap name (`平手`, `香落ち`, …) or `other`.
    pub handicap: &'static str,
    /// Event.
    pub event: String,
    /// Site.
    pub site: String,
    /// Start date/time in ISO 8601 when parsable.
    pub start_time: String,
    /// Start date/time as written, when it could not be parsed.
    pub start_time_raw: String,
    /// Sente's player.
    pub sente: String,
    /// Gote's player.
    pub gote: String,
    /// Time control as written.
    pub time_control: String,
    /// Main-line plies replayed.
    pub plies: u32,
    /// `sente_win`, `gote_win`, `draw`, `aborted` or `unknown`.
    pub result: &'static str,
    /// Termination reason (`resign`, `checkmate`, …).
    pub reason: String,
    /// No error finding.
    pub valid: bool,
    /// Rule id of the first error.
    pub first_error_rule: &'static str,
    /// Ply of the first error, if it concerns a move.
    pub first_error_ply: Option<u32>,
    /// Captures by sente.
    pub sente_captures: u32,
    /// Captures by gote.
    pub gote_captures: u32,
    /// Drops by sente.
    pub sente_drops: u32,
    /// Drops by gote.
    pub gote_drops: u32,
    /// Promotions by sente.
    pub sente_promotions: u32,
    /// Promotions by gote.
    pub gote_promotions: u32,
    /// Checks given by sente.
    pub sente_checks: u32,
    /// Checks given by gote.
    pub gote_checks: u32,
    /// Sente's total time in seconds, where times exist.
    pub sente_time_s: Option<f64>,
    /// Gote's total time in seconds, where times exist.
    pub gote_time_s: Option<f64>,
    /// The first plies in USI, space-separated.
    pub opening_usi: String,
    /// Position after the last replayed move.
    pub final_sfen: String,
    /// Number of variations.
    pub variations: usize,
    /// Number of comments.
    pub comments: usize,
    /// How much of `start_time` the record gave: `year`, `month`, `day`,
    /// `hour`, `minute` or `second` (empty without a parsed date).
    pub start_time_precision: &'static str,
    /// The game key (see [`crate::select::key`]).
    pub game_key: crate::record::key::GameKey,
    /// The terminal word as written when kifu does not know it (`reason`
    /// is then `other`).
    pub terminal_text: String,
    /// Sente's openings (taxonomy ids, most specific first, `;` between
    /// them; see [`crate::tags`]).
    pub sente_opening: String,
    /// Gote's openings.
    pub gote_opening: String,
    /// Sente's castles.
    pub sente_castle: String,
    /// Gote's castles.
    pub gote_castle: String,
    /// The ply at which each of `sente_opening` was first found, in the
    /// same order.
    pub sente_opening_ply: String,
    /// The plies of `gote_opening`.
    pub gote_opening_ply: String,
    /// The plies of `sente_castle`.
    pub sente_castle_ply: String,
    /// The plies of `gote_castle`.
    pub gote_castle_ply: String,
    /// `static`, `opposing` or `double_ranging` (even games).
    pub game_style: String,
    /// The record's own opening header (`戦型`, `$OPENING`, `[Opening]`).
    pub opening_header: String,
    /// Sente's rating (see [`crate::record::players`]).
    pub sente_rating: Option<f64>,
    /// Gote's rating.
    pub gote_rating: Option<f64>,
    /// Sente's rank as written (`4D`, `三段`).
    pub sente_rank: String,
    /// Gote's rank as written.
    pub gote_rank: String,
}

/// One row of the moves table.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct MoveRow {
    /// Input path.
    pub path: String,
    /// Game index.
    pub game: usize,
    /// 1-based ply.
    pub ply: u32,
    /// `sente` or `gote`.
    pub side: String,
    /// USI move.
    pub usi: String,
    /// International notation.
    pub psn: String,
    /// Japanese (KIF) notation.
    pub kif: String,
    /// Moving piece before the move (SFEN letter, `+` for promoted).
    pub piece: String,
    /// Origin square (USI), empty for drops.
    pub from: String,
    /// Destination square (USI).
    pub to: String,
    /// Captured piece (SFEN letter), empty if none.
    pub capture: String,
    /// Whether the move promotes.
    pub promote: bool,
    /// Whether it is a drop.
    pub drop: bool,
    /// Whether it gives check.
    pub check: bool,
    /// Time spent, seconds.
    pub time_s: Option<f64>,
    /// Mover's cumulative time, seconds.
    pub cumulative_s: Option<f64>,
    /// The position before the move (with `--sfen`).
    pub sfen_before: String,
    /// Engine score after the move in centipawns, sente's view, from an
    /// evaluation comment (see [`crate::eval`]); `None` when absent or a
    /// mate score.
    pub eval: Option<i64>,
    /// The engine's principal variation after the move, USI moves
    /// separated by spaces (starting with the reply); empty when absent.
    pub pv: String,
    /// A mate score: plies to mate, positive when sente mates.
    pub mate: Option<i32>,
}

/// Converts a date as records write it (`2024/01/02 10:00:00`,
/// `1999/07/15(木) 19:07:12`, `平成30年1月2日`, …) to the one ISO 8601
/// form of the tables, `2024-01-02T10:00:00` (see [`crate::date`]).
pub fn iso_date(raw: &str) -> Option<String> {
    crate::date::iso(raw)
}

/// [`crate::date::StartTime::iso`] without `strftime` for the years of
/// four digits (the same text).
fn iso_of(t: &crate::date::StartTime) -> String {
    let d = t.datetime();
    let year = d.year();
    if !(0..=9999).contains(&year) {
        return t.iso();
    }
    let two = |n: i8| [b'0' + (n / 10) as u8, b'0' + (n % 10) as u8];
    let y = year as u16;
    let mut b = [0u8; 19];
    b[..4].copy_from_slice(&[
        b'0' + (y / 1000) as u8,
        b'0' + (y / 100 % 10) as u8,
        b'0' + (y / 10 % 10) as u8,
        b'0' + (y % 10) as u8,
    ]);
    b[4] = b'-';
    b[5..7].copy_from_slice(&two(d.month()));
    b[7] = b'-';
    b[8..10].copy_from_slice(&two(d.day()));
    b[10] = b'T';
    b[11..13].copy_from_slice(&two(d.hour()));
    b[13] = b':';
    b[14..16].copy_from_slice(&two(d.minute()));
    b[16] = b':';
    b[17..19].copy_from_slice(&two(d.second()));
    String::from_utf8_lossy(&b).into_owned()
}

fn secs(ms: u64) -> f64 {
    ms as f64 / 1000.0
}

/// Where a game comes from: the `path`, `format` and `encoding` columns.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Source {
    /// The input's name as reports show it.
    pub path: String,
    /// The format read.
    pub format: Option<Format>,
    /// The encoding detected.
    pub encoding: Option<Encoding>,
}

/// Collects the statistics of games as they are read: an [`Observer`]
/// whose output is the game's row and (with [`StatsOptions::moves`]) its
/// move rows, counted from the moves the [`Replay`] plays (each once); the
/// name columns come from the replay's names ([`Replay::with_names`]).
///
/// ```
/// use kifu::read::Reader;
/// use kifu::stats::{Stats, StatsOptions};
/// use kifu::validate::ValidateOptions;
///
/// let csa = b"N+Alice\nPI\n+\n+7776FU\n-3334FU\n+8822UM\n%TORYO\n";
/// let mut reader = Reader::new(&csa[..]).unwrap();
/// let mut stats = Stats::replay(StatsOptions::default(), ValidateOptions::default());
/// let row = reader.read_game(&mut stats).unwrap().output.row;
/// assert_eq!((row.sente.as_str(), row.plies, row.sente_captures), ("Alice", 3, 1));
/// assert_eq!(row.result, "sente_win");
/// assert_eq!(row.sente_opening, "");
/// ```
#[derive(Debug)]
pub struct Stats {
    opts: StatsOptions,
    source: Source,
    row: GameRow,
    variant: Variant,
    /// The start's handicap, named or detected (the `handicap` column is
    /// made from it once, at the end of the game).
    handicap: Option<Handicap>,
    /// Captures, drops, promotions and checks, per side (Black first).
    counts: [[u32; 2]; 4],
    /// The side of the last main-line move played (its time follows).
    last_color: Color,
    totals: [Option<u64>; 2],
    cumulative: [u64; 2],
    prev_to: Option<crate::rules::square::Square>,
    opening_plies: usize,
    /// The `opening_usi` column so far (ASCII), reused from game to game.
    opening: Vec<u8>,
    moves: Vec<MoveRow>,
    /// The last main-line move row, the position after it and its
    /// comments so far (for the `eval` and `pv` columns).
    pending_eval: Option<(usize, Position, Vec<String>)>,
    /// Fill the name columns from the replay's names.
    names: bool,
    /// The players' ratings and ranks so far.
    players: crate::record::players::Players,
}

impl Stats {
    /// A collector; the rows' `path`, `format` and `encoding` come from
    /// [`Stats::source`]. It fills the name columns when the replay names
    /// games.
    pub fn new(opts: StatsOptions) -> Stats {
        Stats {
            opts,
            source: Source::default(),
            row: GameRow::default(),
            variant: Variant::Standard,
            handicap: None,
            counts: [[0; 2]; 4],
            last_color: Color::Black,
            players: Default::default(),
            totals: [None, None],
            cumulative: [0, 0],
            prev_to: None,
            opening_plies: 0,
            // Room for the whole column at once (one allocation per collector).
            opening: Vec::with_capacity(opts.opening_plies.min(64) * 6),
            moves: Vec::new(),
            pending_eval: None,
            names: true,
        }
    }

    /// The replay of a collector alone: judged with `validate`, naming
    /// games from the built-in taxonomy.
    pub fn replay(opts: StatsOptions, validate: ValidateOptions) -> Replay<Stats> {
        Replay::new(validate, Stats::new(opts)).with_names(Some(crate::tags::Taxonomy::builtin()))
    }

    /// Whether the name columns are filled (when the replay names games;
    /// yes by default). With `false` they stay empty even when another
    /// observer has the replay name games.
    pub fn with_names(mut self, yes: bool) -> Stats {
        self.names = yes;
        self
    }

    /// Sets where the next games come from.
    pub fn source(&mut self, source: Source) {
        self.source = source;
    }

    /// The `variant` and `handicap` columns of the start set last.
    fn start_columns(&mut self) {
        self.row.variant = self.variant.name();
        self.row.handicap = match self.variant {
            Variant::Standard => self.handicap.map_or("other", |h| h.info().japanese),
            v => v.name(),
        };
    }

    /// Adds a move to the `opening_usi` column: its USI text as `Move::usi`
    /// writes it, after a space (none before the first move), without
    /// `fmt`.
    #[inline(never)]
    fn push_opening(&mut self, mv: Move) {
        self.opening_plies += 1;
        let (word, len) = mv.usi_word(self.variant);
        let skip = self.opening.is_empty() as usize;
        self.opening
            .extend_from_slice(&word.to_le_bytes()[skip..len]);
    }

    /// Starts the moves-table row of a main-line move played in `pos`
    /// (what needs the position before it).
    #[cold]
    fn begin_move_row(&mut self, pos: &Position, mv: Move) {
        let v = self.variant;
        self.moves.push(MoveRow {
            path: self.row.path.clone(),
            game: self.row.game,
            ply: self.moves.len() as u32 + 1,
            usi: mv.usi(v).to_string(),
            psn: PsnMove::from_move(pos, mv).display(v).to_string(),
            kif: crate::kif::move_text(pos, mv, self.prev_to).unwrap_or_default(),
            from: mv.from().map_or(String::new(), |s| s.to_string()),
            to: mv.to().to_string(),
            promote: mv.is_promotion(),
            drop: mv.is_drop(),
            sfen_before: if self.opts.sfen {
                pos.sfen()
            } else {
                String::new()
            },
            ..MoveRow::default()
        });
    }

    /// Ends the row [`Stats::begin_move_row`] started, with what the move
    /// did (`after`: the position after it).
    #[cold]
    fn end_move_row(&mut self, p: &Played, after: &Position) {
        let v = self.variant;
        let Some(row) = self.moves.last_mut() else {
            return;
        };
        row.side = p.color.name().to_string();
        row.piece = crate::rules::role::Piece::new(p.color, p.role)
            .sfen(v)
            .to_ascii_uppercase();
        row.capture = p.captured.map_or(String::new(), |r| r.sfen(v).to_string());
        row.check = p.check;
        self.pending_eval = Some((self.moves.len() - 1, *after, Vec::new()));
        self.prev_to = Some(p.mv.to());
    }

    /// Fills the `eval`/`pv` columns of the last main-line move from its
    /// comments (only with the moves table: the check is inlined).
    #[inline]
    fn flush_eval(&mut self) {
        if self.pending_eval.is_some() {
            self.flush_pending_eval();
        }
    }

    #[cold]
    fn flush_pending_eval(&mut self) {
        let Some((i, pos, comments)) = self.pending_eval.take() else {
            return;
        };
        let Some(row) = self.moves.get_mut(i) else {
            return;
        };
        let played = Move::from_usi(&row.usi, self.variant);
        if let Some((e, _)) = crate::eval::extract(&comments, &pos, played) {
            match e.score {
                crate::eval::Score::Cp(n) => row.eval = Some(n),
                crate::eval::Score::Mate(n) => row.mate = Some(n),
            }
            row.pv = e.usi_pv(self.variant);
        }
    }
}

/// What [`Stats`] makes of one game: its row and its move rows (with
/// [`StatsOptions::moves`]); the report it was counted from is beside it
/// ([`Replayed::report`]).
#[derive(Clone, Debug)]
pub struct GameStats {
    /// The games-table row.
    pub row: GameRow,
    /// The moves-table rows (empty unless [`StatsOptions::moves`]).
    pub moves: Vec<MoveRow>,
}

impl Observer for Stats {
    type Output = GameStats;

    fn begin(&mut self, index: usize) -> Flow {
        self.row = GameRow {
            path: self.source.path.clone(),
            game: index,
            format: self.source.format.map_or("", |f| f.name()),
            encoding: self.source.encoding.map_or("", |e| e.name()),
            ..GameRow::default()
        };
        self.counts = [[0; 2]; 4];
        self.totals = [None, None];
        self.cumulative = [0, 0];
        self.prev_to = None;
        self.opening_plies = 0;
        self.opening.clear();
        self.moves.clear();
        self.pending_eval = None;
        self.players.clear();
        // The default start: the even game.
        self.variant = Variant::Standard;
        self.handicap = Some(Handicap::Even);
        CONTINUE
    }

    fn header(&mut self, key: &HeaderKey, value: &str) -> Flow {
        self.players.header(key, value);
        let slot = match key {
            HeaderKey::Event => Some(&mut self.row.event),
            HeaderKey::Site => Some(&mut self.row.site),
            HeaderKey::StartTime => Some(&mut self.row.start_time_raw),
            HeaderKey::Sente => Some(&mut self.row.sente),
            HeaderKey::Gote => Some(&mut self.row.gote),
            HeaderKey::TimeControl => Some(&mut self.row.time_control),
            HeaderKey::Opening => Some(&mut self.row.opening_header),
            _ => None,
        };
        // The first entry of a key counts, as `Header::get` has it.
        if let Some(s) = slot {
            if s.is_empty() {
                *s = value.to_string();
            }
        }
        CONTINUE
    }

    fn start(&mut self, start: &Start, _pos: &Position) -> Flow {
        self.variant = start.setup.variant;
        self.handicap = match self.variant {
            Variant::Standard => start.handicap.or_else(|| Handicap::detect(&start.setup)),
            _ => None,
        };
        CONTINUE
    }

    fn comment(&mut self, text: &str, main: bool) -> Flow {
        self.row.comments += 1;
        if main {
            self.players.comment(text);
            if let Some((_, _, c)) = self.pending_eval.as_mut() {
                c.push(text.to_string());
            }
        }
        CONTINUE
    }

    #[inline]
    fn playing(&mut self, before: &Position, mv: Move) -> Flow {
        self.flush_eval();
        if self.opts.moves {
            self.begin_move_row(before, mv);
        }
        CONTINUE
    }

    #[inline(always)]
    fn played(&mut self, p: &Played, after: &Position) -> Flow {
        self.last_color = p.color;
        let side = p.color.index();
        self.counts[0][side] += p.captured.is_some() as u32;
        self.counts[1][side] += p.mv.is_drop() as u32;
        self.counts[2][side] += p.mv.is_promotion() as u32;
        self.counts[3][side] += p.check as u32;
        if self.opening_plies < self.opts.opening_plies {
            self.push_opening(p.mv);
        }
        if self.opts.moves {
            self.end_move_row(p, after);
        }
        CONTINUE
    }

    fn unplayed(&mut self) -> Flow {
        self.flush_eval();
        CONTINUE
    }

    fn time(&mut self, time: MoveTime) -> Flow {
        let c = self.last_color;
        let t = &mut self.totals[c.index()];
        if let Some(s) = time.spent_ms {
            *t = Some(t.unwrap_or(0) + s);
        } else if let Some(total) = time.total_ms {
            *t = Some(total);
        }
        if let Some(row) = self.moves.last_mut() {
            let cum = match (time.total_ms, time.spent_ms) {
                (Some(t), _) => {
                    self.cumulative[c.index()] = t;
                    Some(t)
                }
                (None, Some(s)) => {
                    self.cumulative[c.index()] += s;
                    Some(self.cumulative[c.index()])
                }
                _ => None,
            };
            row.time_s = time.spent_ms.map(secs);
            row.cumulative_s = cum.map(secs);
        }
        CONTINUE
    }

    fn variation(&mut self) -> Flow {
        self.row.variations += 1;
        CONTINUE
    }

    fn terminal(&mut self, _kind: &TerminalKind, main: bool) -> Flow {
        if main {
            self.flush_eval();
        }
        CONTINUE
    }

    fn end(&mut self, ended: &Ended<'_>) -> GameStats {
        self.flush_eval();
        let report = ended.report;
        self.start_columns();
        let [caps, drops, proms, checks] = self.counts;
        let r = &mut self.row;
        [r.sente_captures, r.gote_captures] = caps;
        [r.sente_drops, r.gote_drops] = drops;
        [r.sente_promotions, r.gote_promotions] = proms;
        [r.sente_checks, r.gote_checks] = checks;
        let mut row = std::mem::take(&mut self.row);
        [row.sente_rating, row.gote_rating] = self.players.rating;
        [row.sente_rank, row.gote_rank] = std::mem::take(&mut self.players.rank);
        if let Some(t) = crate::date::parse(&row.start_time_raw) {
            row.start_time = iso_of(&t);
            row.start_time_precision = t.precision().name();
            row.start_time_raw.clear();
        }
        let first_error = report
            .findings
            .iter()
            .find(|f| f.severity == Severity::Error);
        // USI moves are ASCII: the text is whole.
        row.opening_usi = std::str::from_utf8(&self.opening)
            .unwrap_or_default()
            .to_owned();
        row.plies = report.plies;
        row.result = report.result.outcome.name();
        row.reason = report.result.reason.clone().unwrap_or_default();
        row.terminal_text = report.result.terminal_text.clone().unwrap_or_default();
        row.valid = report.ok;
        row.first_error_rule = first_error.map_or("", |f| f.rule.id());
        row.first_error_ply = first_error.and_then(|f| f.ply);
        row.final_sfen = report.final_sfen.clone();
        row.game_key = report.game_key;
        row.sente_time_s = self.totals[0].map(secs);
        row.gote_time_s = self.totals[1].map(secs);
        if let (true, Some(tags), Some(tax)) = (self.names, ended.tags, ended.taxonomy) {
            tag_columns(&mut row, tags, tax);
        }
        GameStats {
            row,
            moves: std::mem::take(&mut self.moves),
        }
    }
}

/// Fills the name columns of a row.
fn tag_columns(row: &mut GameRow, tags: &crate::tags::GameTags, tax: &crate::tags::Taxonomy) {
    let fill = |names: &mut String, plies: &mut String, found: &[crate::tags::Found]| {
        // One allocation per column (plies are at most the last window's
        // 62: two digits and a `;`).
        let len: usize = found.iter().map(|f| tax.get(f.tag).id.len() + 1).sum();
        names.reserve(len);
        plies.reserve(found.len() * 3);
        for (i, f) in found.iter().enumerate() {
            if i > 0 {
                names.push(';');
                plies.push(';');
            }
            names.push_str(&tax.get(f.tag).id);
            plies.push_str(itoa::Buffer::new().format(f.ply));
        }
    };
    let [s, g] = &tags.sides;
    fill(
        &mut row.sente_opening,
        &mut row.sente_opening_ply,
        &s.openings,
    );
    fill(
        &mut row.gote_opening,
        &mut row.gote_opening_ply,
        &g.openings,
    );
    fill(&mut row.sente_castle, &mut row.sente_castle_ply, &s.castles);
    fill(&mut row.gote_castle, &mut row.gote_castle_ply, &g.castles);
    if let Some(st) = tags.style {
        row.game_style.push_str(&tax.get(st).id);
    }
}

/// Writes CSV rows as `csv::Writer` (default settings) writes a serialized
/// row: fields separated by `,`, a field quoted when it holds `,`, `"`,
/// `\r` or `\n` (quotes doubled inside), `\n` after the row; numbers as
/// `itoa`/`ryu` write them, `None` as an empty field, booleans as
/// `true`/`false`.
/// The bytes that make a CSV field quoted (1), as `csv` quotes them.
const QUOTED: [u8; 256] = {
    let mut t = [0u8; 256];
    t[b',' as usize] = 1;
    t[b'"' as usize] = 1;
    t[b'\r' as usize] = 1;
    t[b'\n' as usize] = 1;
    t
};

/// Whether a field holds a byte that makes it quoted.
#[inline]
fn needs_quotes(b: &[u8]) -> bool {
    if b.len() < 24 {
        // One table load per byte, no early exit: most fields are short.
        b.iter().fold(0u8, |a, &c| a | QUOTED[c as usize]) != 0
    } else {
        // Long fields (the final SFEN, the opening) by vector search.
        memchr::memchr3(b',', b'"', b'\n', b).is_some() || memchr::memchr(b'\r', b).is_some()
    }
}

struct CsvLine<'a> {
    out: &'a mut Vec<u8>,
    first: bool,
}

/// Appends `x` as `ryu` writes it: the shortest text that reads back as
/// `x`. Seconds made from whole milliseconds, the usual case, take a short
/// path: below 10⁹ the floats are much closer together than 0.001, so
/// their shortest text is the exact decimal, with at most three decimals
/// and trailing zeros cut (`52.0`, `1.25`).
fn push_f64(out: &mut Vec<u8>, x: f64) {
    if x.is_sign_positive() && x < 1e9 {
        let ms = (x * 1000.0).round();
        if ms / 1000.0 == x {
            let ms = ms as u64;
            out.extend_from_slice(itoa::Buffer::new().format(ms / 1000).as_bytes());
            let frac = ms % 1000;
            let digits = [
                b'.',
                b'0' + (frac / 100) as u8,
                b'0' + (frac / 10 % 10) as u8,
                b'0' + (frac % 10) as u8,
            ];
            let len = if frac.is_multiple_of(100) {
                2
            } else if frac.is_multiple_of(10) {
                3
            } else {
                4
            };
            out.extend_from_slice(&digits[..len]);
            return;
        }
    }
    out.extend_from_slice(ryu::Buffer::new().format(x).as_bytes());
}

impl<'a> CsvLine<'a> {
    fn new(out: &'a mut Vec<u8>) -> CsvLine<'a> {
        // Room for a usual row at once.
        out.reserve(512);
        CsvLine { out, first: true }
    }

    #[inline]
    fn sep(&mut self) {
        if !self.first {
            self.out.push(b',');
        }
        self.first = false;
    }

    #[inline]
    fn bytes(&mut self, b: &[u8]) {
        self.sep();
        if needs_quotes(b) {
            self.out.push(b'"');
            for &c in b {
                if c == b'"' {
                    self.out.push(b'"');
                }
                self.out.push(c);
            }
            self.out.push(b'"');
        } else {
            self.out.extend_from_slice(b);
        }
    }

    #[inline]
    fn str(&mut self, s: &str) {
        self.bytes(s.as_bytes());
    }

    #[inline]
    fn int<I: itoa::Integer>(&mut self, n: I) {
        self.sep();
        self.out
            .extend_from_slice(itoa::Buffer::new().format(n).as_bytes());
    }

    #[inline]
    fn opt_int<I: itoa::Integer>(&mut self, n: Option<I>) {
        match n {
            Some(n) => self.int(n),
            None => self.sep(),
        }
    }

    #[inline]
    fn opt_f64(&mut self, x: Option<f64>) {
        match x {
            Some(x) => {
                self.sep();
                push_f64(self.out, x);
            }
            None => self.sep(),
        }
    }

    #[inline]
    fn bool(&mut self, b: bool) {
        self.sep();
        self.out
            .extend_from_slice(if b { &b"true"[..] } else { &b"false"[..] });
    }

    fn key(&mut self, k: crate::record::key::GameKey) {
        self.sep();
        const HEX: &[u8; 16] = b"0123456789abcdef";
        let mut b = [0u8; 32];
        for (i, d) in b.iter_mut().enumerate() {
            *d = HEX[((k.0 >> (4 * (31 - i))) & 0xf) as usize];
        }
        self.out.extend_from_slice(&b);
    }

    fn end(self) {
        self.out.push(b'\n');
    }

    fn header(out: &mut Vec<u8>, columns: &[&str]) {
        let mut l = CsvLine::new(out);
        for c in columns {
            l.str(c);
        }
        l.end();
    }
}

/// One row of the names table (`kifu stats --tags FILE`): one opening,
/// castle or style found in a game. Field names are the CSV column names.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct TagRow {
    /// Input path, as in the games table.
    pub path: String,
    /// Game index, as in the games table.
    pub game: usize,
    /// `sente` or `gote`; empty for the game's style.
    pub side: &'static str,
    /// `opening`, `castle` or `style`.
    pub kind: &'static str,
    /// The taxonomy id.
    pub id: String,
    /// The Japanese name.
    pub ja: String,
    /// The ply at which it was first found (empty for the style).
    pub ply: Option<u32>,
}

impl TagRow {
    /// The rows of one game, from the name columns of its games-table row
    /// (`tax` gives the Japanese names): sente's openings and castles and
    /// the umbrellas they fall under (`anaguma` beside `static_anaguma`;
    /// docs/tags.md), gote's, then the style.
    pub fn from_game(row: &GameRow, tax: &crate::tags::Taxonomy) -> Vec<TagRow> {
        use crate::tags::{Found, SideTags};
        let style = tax.by_id(&row.game_style);
        let mut out = Vec::new();
        let mut side_rows = |side: &'static str, cols: [(&'static str, &str, &str); 2]| {
            let mut tags = SideTags::default();
            for (kind, ids, plies) in cols {
                let mut plies = plies.split(';');
                for id in ids.split(';').filter(|s| !s.is_empty()) {
                    let tag = tax.by_id(id);
                    let ply = plies.next().and_then(|p| p.parse().ok());
                    if let (Some(tag), Some(ply)) = (tag, ply) {
                        let list = if kind == "opening" {
                            &mut tags.openings
                        } else {
                            &mut tags.castles
                        };
                        list.push(Found { tag, ply });
                    }
                    out.push(TagRow {
                        path: row.path.clone(),
                        game: row.game,
                        side,
                        kind,
                        id: id.to_string(),
                        ja: tag.map_or(String::new(), |t| tax.get(t).ja.clone()),
                        ply,
                    });
                }
            }
            for (u, ply) in tags.implied(tax, style) {
                let e = tax.get(u);
                out.push(TagRow {
                    path: row.path.clone(),
                    game: row.game,
                    side,
                    kind: e.kind.name(),
                    id: e.id.clone(),
                    ja: e.ja.clone(),
                    ply,
                });
            }
        };
        side_rows(
            "sente",
            [
                ("opening", &row.sente_opening, &row.sente_opening_ply),
                ("castle", &row.sente_castle, &row.sente_castle_ply),
            ],
        );
        side_rows(
            "gote",
            [
                ("opening", &row.gote_opening, &row.gote_opening_ply),
                ("castle", &row.gote_castle, &row.gote_castle_ply),
            ],
        );
        // The style: named from the taxonomy, or as written when it names
        // no entry (a custom taxonomy).
        if style.is_some() || !row.game_style.is_empty() {
            out.push(TagRow {
                path: row.path.clone(),
                game: row.game,
                side: "",
                kind: "style",
                id: row.game_style.clone(),
                ja: style.map(|st| tax.get(st).ja.clone()).unwrap_or_default(),
                ply: None,
            });
        }
        out
    }
}

/// The rows of a game already read (see [`Stats`]).
pub fn collect(
    source: &Source,
    game: &Game,
    opts: &StatsOptions,
    validate: &ValidateOptions,
) -> Replayed<GameStats> {
    let mut c = Stats::replay(*opts, *validate);
    c.observer_mut().source(source.clone());
    crate::read::visit_game(game, &mut c)
}

/// Distinct openings counted exactly; past this many, the table keeps the
/// frequent ones (Misra–Gries) and says by how much counts may be low.
pub const OPENING_SLOTS: usize = 4096;

/// Distinct termination reasons and handicaps kept; further ones are
/// counted under `other`.
pub const LABEL_SLOTS: usize = 64;

/// Totals over many games, for `kifu stats --summary`, in memory that does
/// not grow with the number of games: a histogram of plies (exact mean,
/// median, minimum and maximum; one counter per distinct game length),
/// at most [`LABEL_SLOTS`] reasons and handicaps, and at most
/// [`OPENING_SLOTS`] openings.
#[derive(Clone, Debug, Default)]
pub struct Summary {
    games: u64,
    invalid: u64,
    plies: std::collections::BTreeMap<u32, u64>,
    plies_sum: u128,
    results: std::collections::BTreeMap<String, u64>,
    by_handicap: std::collections::BTreeMap<String, [u64; 4]>,
    reasons: std::collections::BTreeMap<String, u64>,
    openings: std::collections::HashMap<String, u64>,
    /// Openings counted (games with at least 8 plies).
    openings_seen: u64,
    /// How much every opening count was lowered to make room (Misra–Gries).
    openings_lowered: u64,
    /// Per kind (opening, castle): sides by their most specific name
    /// (taxonomy ids: at most the taxonomy's entries).
    named: [std::collections::BTreeMap<String, u64>; 2],
}

/// The key under which `label` is counted in a table of at most
/// [`LABEL_SLOTS`] entries.
fn bounded_key<'a, V>(map: &std::collections::BTreeMap<String, V>, label: &'a str) -> &'a str {
    if map.contains_key(label) || map.len() < LABEL_SLOTS - 1 {
        label
    } else {
        "other"
    }
}

impl Summary {
    /// Adds one game.
    pub fn add(&mut self, row: &GameRow) {
        self.games += 1;
        self.invalid += !row.valid as u64;
        *self.plies.entry(row.plies).or_default() += 1;
        self.plies_sum += u128::from(row.plies);
        let result = bounded_key(&self.results, row.result).to_string();
        *self.results.entry(result).or_default() += 1;
        let handicap = bounded_key(&self.by_handicap, row.handicap).to_string();
        let h = self.by_handicap.entry(handicap).or_default();
        h[match row.result {
            "sente_win" => 0,
            "gote_win" => 1,
            "draw" => 2,
            _ => 3,
        }] += 1;
        let reason = if row.reason.is_empty() {
            "unknown"
        } else {
            &row.reason
        };
        let reason = bounded_key(&self.reasons, reason).to_string();
        *self.reasons.entry(reason).or_default() += 1;
        // Each side's most specific opening and castle, by name.
        for (k, cols) in [
            [&row.sente_opening, &row.gote_opening],
            [&row.sente_castle, &row.gote_castle],
        ]
        .into_iter()
        .enumerate()
        {
            for ids in cols {
                if let Some(id) = ids.split(';').next().filter(|s| !s.is_empty()) {
                    let key = bounded_key(&self.named[k], id).to_string();
                    *self.named[k].entry(key).or_default() += 1;
                }
            }
        }
        // Openings by their first 8 plies.
        let prefix: Vec<&str> = row.opening_usi.split(' ').take(8).collect();
        if prefix.len() == 8 {
            self.add_opening(prefix.join(" "));
        }
    }

    /// Misra–Gries: an opening not in a full table lowers every count by
    /// one (dropping those at zero) instead of taking a slot, so the table
    /// never holds more than [`OPENING_SLOTS`] entries and an opening seen
    /// more than `seen / OPENING_SLOTS` times is always in it.
    fn add_opening(&mut self, key: String) {
        self.openings_seen += 1;
        if let Some(n) = self.openings.get_mut(&key) {
            *n += 1;
        } else if self.openings.len() < OPENING_SLOTS {
            self.openings.insert(key, 1);
        } else {
            self.openings_lowered += 1;
            self.openings.retain(|_, n| {
                *n -= 1;
                *n > 0
            });
        }
    }

    /// The `k`-th smallest game length (0-based).
    fn nth_plies(&self, k: u64) -> u32 {
        let mut seen = 0u64;
        for (&p, &n) in &self.plies {
            seen += n;
            if seen > k {
                return p;
            }
        }
        0
    }

    /// The summary as text: rates, lengths, a histogram, reasons, openings.
    pub fn render(&self) -> String {
        use std::fmt::Write;
        let mut s = String::new();
        let pct = |n: u64, d: u64| {
            if d == 0 {
                0.0
            } else {
                100.0 * n as f64 / d as f64
            }
        };
        let _ = writeln!(s, "games: {} ({} invalid)", self.games, self.invalid);
        let _ = writeln!(s, "results:");
        for (k, n) in &self.results {
            let _ = writeln!(s, "  {k:<10} {n:>8}  {:5.1}%", pct(*n, self.games));
        }
        let _ = writeln!(
            s,
            "by handicap:        games  sente%   gote%   draw%  other%"
        );
        for (h, c) in &self.by_handicap {
            let t: u64 = c.iter().sum();
            let _ = writeln!(
                s,
                "  {} {:>6}  {:5.1}   {:5.1}   {:5.1}   {:5.1}",
                pad(h, 16),
                t,
                pct(c[0], t),
                pct(c[1], t),
                pct(c[2], t),
                pct(c[3], t)
            );
        }
        if self.games > 0 {
            let n = self.games;
            let mean = self.plies_sum as f64 / n as f64;
            let median = if n % 2 == 1 {
                self.nth_plies(n / 2) as f64
            } else {
                (self.nth_plies(n / 2 - 1) as f64 + self.nth_plies(n / 2) as f64) / 2.0
            };
            let min = self.plies.keys().next().copied().unwrap_or(0);
            let max = self.plies.keys().next_back().copied().unwrap_or(0);
            let _ = writeln!(
                s,
                "plies: mean {mean:.1}, median {median:.1}, min {min}, max {max}"
            );
            let bucket = 20u32;
            let mut hist = std::collections::BTreeMap::<u32, u64>::new();
            for (&p, &c) in &self.plies {
                *hist.entry(p / bucket * bucket).or_default() += c;
            }
            let max = hist.values().copied().max().unwrap_or(1).max(1);
            let _ = writeln!(s, "length histogram:");
            for (b, n) in &hist {
                let bar = "#".repeat(((n * 50).div_ceil(max)) as usize);
                let _ = writeln!(
                    s,
                    "  {:>4}-{:<4} {:>7} {bar}",
                    b,
                    b.saturating_add(bucket - 1),
                    n
                );
            }
        }
        let _ = writeln!(s, "termination:");
        let mut reasons: Vec<_> = self.reasons.iter().collect();
        reasons.sort_by(|a, b| b.1.cmp(a.1).then(a.0.cmp(b.0)));
        for (r, n) in reasons {
            let _ = writeln!(s, "  {r:<16} {n:>8}  {:5.1}%", pct(*n, self.games));
        }
        let tax = crate::tags::Taxonomy::builtin();
        for (named, what) in self.named.iter().zip(["openings", "castles"]) {
            let mut named: Vec<_> = named.iter().collect();
            named.sort_by(|a, b| b.1.cmp(a.1).then(a.0.cmp(b.0)));
            if named.is_empty() {
                continue;
            }
            let _ = writeln!(
                s,
                "most common {what} (each side's most specific name, sides):"
            );
            for (id, n) in named.into_iter().take(10) {
                let ja = tax.by_id(id).map_or("", |t| tax.get(t).ja.as_str());
                let _ = writeln!(s, "  {n:>7}  {} {id}", pad(ja, 20));
            }
        }
        let mut openings: Vec<_> = self.openings.iter().collect();
        openings.sort_by(|a, b| b.1.cmp(a.1).then(a.0.cmp(b.0)));
        if !openings.is_empty() {
            if self.openings_lowered == 0 {
                let _ = writeln!(s, "most common first moves (first 8 plies, USI):");
            } else {
                let _ = writeln!(
                    s,
                    "most common first moves (first 8 plies, USI; more than {OPENING_SLOTS} distinct, so counts may be low by up to {}):",
                    self.openings_lowered
                );
            }
            for (o, n) in openings.into_iter().take(10) {
                let _ = writeln!(s, "  {n:>7}  {o}");
            }
        }
        s
    }
}

/// Pads `s` with spaces to `width` terminal columns (CJK characters count 2).
fn pad(s: &str, width: usize) -> String {
    let w: usize = s
        .chars()
        .map(|c| if (c as u32) >= 0x1100 { 2 } else { 1 })
        .sum();
    format!("{s}{}", " ".repeat(width.saturating_sub(w)))
}

#[cfg(test)]
mod tests {
    use super::{iso_date, GameRow, MoveRow, Summary, LABEL_SLOTS, OPENING_SLOTS};
    use proptest::prelude::*;

    /// The bytes `csv::Writer` writes when it serializes `rows`.
    fn serde_csv<T: serde::Serialize>(rows: &[T]) -> Vec<u8> {
        let mut w = csv::Writer::from_writer(Vec::new());
        for r in rows {
            w.serialize(r).unwrap();
        }
        w.into_inner().unwrap()
    }

    fn our_csv<T>(rows: &[T], header: fn(&mut Vec<u8>), row: fn(&T, &mut Vec<u8>)) -> Vec<u8> {
        let mut out = Vec::new();
        if !rows.is_empty() {
            header(&mut out);
        }
        for r in rows {
            row(r, &mut out);
        }
        out
    }

    fn text() -> impl Strategy<Value = String> {
        // Short and long fields (the quoting check differs at 24 bytes).
        prop_oneof![
            "[a-z0-9 ,\"\r\n'#\t平手同]{0,8}",
            "[a-z0-9 /+*-]{20,40}[,\"\r\n]?[a-z0-9 /+*-]{0,40}",
        ]
    }

    fn time() -> impl Strategy<Value = Option<f64>> {
        prop_oneof![
            Just(None),
            any::<u64>().prop_map(|ms| Some(super::secs(ms))),
            (0u64..100_000_000).prop_map(|ms| Some(super::secs(ms))),
            any::<f64>().prop_map(Some),
        ]
    }

    proptest! {
        /// The hand-written CSV rows are the bytes serde and `csv` write.
        #[test]
        fn csv_rows_agree_with_serde(
            (a, b, c, d) in (text(), text(), text(), text()),
            (n, m, k) in (any::<usize>(), any::<u32>(), any::<u128>()),
            (ply, valid) in (any::<Option<u32>>(), any::<bool>()),
            (t1, t2) in (time(), time()),
            (eval, mate) in (any::<Option<i64>>(), any::<Option<i32>>()),
        ) {
            let game = GameRow {
                path: a.clone(),
                game: n,
                format: "csa",
                site: b.clone(),
                event: c.clone(),
                sente: d.clone(),
                gote: a.clone(),
                plies: m,
                valid,
                first_error_ply: ply,
                sente_checks: m / 3,
                sente_time_s: t1,
                gote_time_s: t2,
                opening_usi: b.clone(),
                final_sfen: c.clone(),
                comments: n / 7,
                game_key: crate::record::key::GameKey(k),
                terminal_text: d.clone(),
                ..GameRow::default()
            };
            let rows = [game.clone(), GameRow::default(), game];
            prop_assert_eq!(
                our_csv(&rows, GameRow::write_csv_header, GameRow::write_csv),
                serde_csv(&rows)
            );
            let mv = MoveRow {
                path: a,
                game: n,
                ply: m,
                usi: b,
                kif: c,
                promote: valid,
                check: !valid,
                time_s: t1,
                cumulative_s: t2,
                sfen_before: d,
                eval,
                mate,
                ..MoveRow::default()
            };
            let rows = [mv.clone(), MoveRow::default(), mv];
            prop_assert_eq!(
                our_csv(&rows, MoveRow::write_csv_header, MoveRow::write_csv),
                serde_csv(&rows)
            );
        }

        /// Seconds are written as `ryu` writes them.
        #[test]
        fn seconds_as_ryu_writes_them(ms in 0u64..2_000_000_000_000, x in any::<f64>()) {
            for x in [ms as f64 / 1000.0, x, x.abs() % 1e9, ms as f64] {
                let mut ours = Vec::new();
                super::push_f64(&mut ours, x);
                prop_assert_eq!(
                    String::from_utf8(ours).unwrap(),
                    ryu::Buffer::new().format(x).to_string()
                );
            }
        }

        /// The ISO text of a start time is `StartTime::iso`'s.
        #[test]
        fn iso_without_strftime_agrees(
            (y, mo, d) in (0u32..10000, 1u32..13, 1u32..29),
            (h, mi, s) in (0u32..24, 0u32..60, 0u32..60),
        ) {
            let raw = format!("{y:04}/{mo:02}/{d:02} {h:02}:{mi:02}:{s:02}");
            if let Some(t) = crate::date::parse(&raw) {
                prop_assert_eq!(super::iso_of(&t), t.iso());
            }
        }
    }

    #[test]
    fn csv_columns_are_the_field_names() {
        let header = |b: Vec<u8>| {
            String::from_utf8(b)
                .unwrap()
                .lines()
                .next()
                .unwrap()
                .to_string()
        };
        assert_eq!(
            header(serde_csv(&[GameRow::default()])),
            GameRow::COLUMNS.join(",")
        );
        assert_eq!(
            header(serde_csv(&[MoveRow::default()])),
            MoveRow::COLUMNS.join(",")
        );
    }

    fn row(plies: u32, reason: &str, opening: &str) -> GameRow {
        GameRow {
            plies,
            result: "sente_win",
            reason: reason.into(),
            handicap: "平手",
            valid: true,
            opening_usi: opening.into(),
            ..GameRow::default()
        }
    }

    #[test]
    fn summary_medians_are_exact_and_tables_bounded() {
        let mut s = Summary::default();
        for p in [10, 3, 7, 7, 100, 1] {
            s.add(&row(p, "resign", ""));
        }
        let text = s.render();
        assert!(
            text.contains("plies: mean 21.3, median 7.0, min 1, max 100"),
            "{text}"
        );
        // Many distinct reasons and openings: the tables stay bounded and
        // the frequent opening is still found with its exact count.
        let mut s = Summary::default();
        let common = "7g7f 3c3d 2g2f 8c8d 2f2e 8d8e 6i7h 4a3b";
        for i in 0..3 * OPENING_SLOTS {
            let opening = format!("1a1b 2a2b 3a3b 4a4b 5a5b 6a6b 7a7b {i}");
            s.add(&row(50, &format!("reason {i}"), &opening));
            if i % 2 == 0 {
                s.add(&row(50, "resign", common));
            }
        }
        assert!(s.openings.len() <= OPENING_SLOTS);
        assert!(s.reasons.len() <= LABEL_SLOTS);
        assert_eq!(s.plies.len(), 1);
        let text = s.render();
        assert!(text.contains(common), "{text}");
        assert!(text.contains("counts may be low"), "{text}");
        assert!(text.contains("  other "), "{text}");
    }

    #[test]
    fn dates_as_records_write_them() {
        assert_eq!(
            iso_date("2024/01/02 10:00:00").as_deref(),
            Some("2024-01-02T10:00:00")
        );
        assert_eq!(
            iso_date("1999/07/15(木) 19:07:12").as_deref(),
            Some("1999-07-15T19:07:12")
        );
        assert_eq!(
            iso_date("2024-01-02").as_deref(),
            Some("2024-01-02T00:00:00")
        );
        assert_eq!(
            iso_date("2024.01.02").as_deref(),
            Some("2024-01-02T00:00:00")
        );
        assert_eq!(iso_date("19970822").as_deref(), Some("1997-08-22T00:00:00"));
        assert_eq!(
            iso_date("２０２２/０７/２９").as_deref(),
            Some("2022-07-29T00:00:00")
        );
        assert_eq!(
            iso_date("2003/05/03 10:30").as_deref(),
            Some("2003-05-03T10:30:00")
        );
        assert_eq!(iso_date("yesterday"), None);
        assert_eq!(iso_date("2024/13/02"), None);
        assert_eq!(iso_date("2023/02/30"), None);
        assert_eq!(iso_date(""), None);
    }

    /// `kifu stats --opening X`: the filter and the columns share the
    /// replay's names, so each game is named once (the selector and the
    /// collector each ran a tagger before, naming every game twice).
    #[test]
    fn stats_with_an_opening_filter_names_each_game_once() {
        let tax = crate::tags::Taxonomy::builtin();
        let mut filter = crate::select::Filter::default();
        let id = tax.by_id("fourth_file_rook").expect("an opening");
        filter.tags.push(*tax.subtree(id));
        let stats = crate::stats::Stats::new(crate::stats::StatsOptions::default());
        let mut replay = crate::replay::Replay::new(
            crate::validate::ValidateOptions::default(),
            (crate::select::Selector::new(&filter), stats),
        )
        .with_names(Some(tax));
        let usi = "startpos moves 7g7f 3c3d 6g6f 8b4b\nstartpos moves 2g2f 8c8d\n";
        let mut reader = crate::read::Reader::new(usi.as_bytes()).unwrap();
        let before = crate::tags::GAMES_NAMED.with(|n| n.get());
        let mut matched = Vec::new();
        while let Some(g) = reader.read_game(&mut replay) {
            matched.push((g.output.0.matched, g.output.1.row.gote_opening));
        }
        let begun = crate::tags::GAMES_NAMED.with(|n| n.get()) - before;
        assert_eq!(
            matched,
            [
                (true, "fourth_file_rook".to_string()),
                (false, String::new())
            ]
        );
        // Each game is begun twice by the one tagger (the even game at
        // `begin_game`, then its start): two games, four begins, one
        // tagger. Two taggers would make eight.
        assert_eq!(begun, 4);
    }
}
