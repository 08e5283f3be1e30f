//! The game filter flags (one set for select, convert, stats and validate)
//! and the arguments of `kifu select`.

use crate::common_args::InputArgs;
use clap::{Args, ValueEnum};
use kifu::read::Encoding;
use kifu::record::Outcome;
use kifu::select::{
    DateBound, Filter, MovePrefix, Needle, PatternFilter, PatternQuery, PatternSide, PlyRange,
    PositionQuery, Reason, StartKind, MAX_PATTERNS,
};
use kifu::tags::{Kind, TagSet, Taxonomy};
use kifu::Variant;

/// Which games to work on (docs/select.md). Filters combine with AND.
#[derive(Args, Debug, Clone, Default)]
#[command(next_help_heading = "Selecting games (docs/select.md)")]
pub struct FilterArgs {
    /// Either player's name contains TEXT (case, full-width/half-width and spaces ignored; repeatable: all must match).
    #[arg(long, value_name = "TEXT")]
    pub player: Vec<Needle>,
    /// Sente's (下手's) name contains TEXT.
    #[arg(long, value_name = "TEXT")]
    pub sente: Vec<Needle>,
    /// Gote's (上手's) name contains TEXT.
    #[arg(long, value_name = "TEXT")]
    pub gote: Vec<Needle>,
    /// The event contains TEXT.
    #[arg(long, value_name = "TEXT")]
    pub event: Vec<Needle>,
    /// The game started on or after DATE (2020, 2020-05, 2020-05-17); games without a date do not match.
    #[arg(long, value_name = "DATE")]
    pub since: Option<DateBound>,
    /// The game started on or before DATE (`--until 2020` includes all of 2020).
    #[arg(long, value_name = "DATE")]
    pub until: Option<DateBound>,
    /// The result is R: sente_win, gote_win, draw, aborted, unknown (repeatable: any).
    #[arg(long, value_name = "R", value_parser = kifu::select::parse_outcome)]
    pub result: Vec<Outcome>,
    /// The end reason is R: resign, checkmate, time-up, repetition, declaration, … (repeatable: any).
    #[arg(long, value_name = "R")]
    pub reason: Vec<Reason>,
    /// The start is handicap H: 平手/even, 香落ち/lance, 二枚落ち/2-piece, …, or other (repeatable: any).
    #[arg(long, value_name = "H")]
    pub handicap: Vec<StartKind>,
    /// The variant is V: standard, minishogi, doubutsu (repeatable: any).
    #[arg(long, value_name = "V", value_parser = parse_variant)]
    pub variant: Vec<Variant>,
    /// The main line has at least N plies.
    #[arg(long, value_name = "N")]
    pub min_plies: Option<u32>,
    /// The main line has at most N plies.
    #[arg(long, value_name = "N")]
    pub max_plies: Option<u32>,
    /// The main line starts with these USI moves ("7g7f 3c3d"); the same as --moves where that is free.
    #[arg(long, value_name = "USI")]
    pub opening_moves: Option<MovePrefix>,
    /// The main line reaches this position (board, side to move, hands; the move number is ignored).
    #[arg(long, value_name = "SFEN", value_parser = position_full, conflicts_with = "position_board")]
    pub position: Option<PositionQuery>,
    /// The main line reaches this board (side to move and hands ignored).
    #[arg(long, value_name = "SFEN", value_parser = PositionQuery::board)]
    pub position_board: Option<PositionQuery>,
    /// The game has no error finding.
    #[arg(long, conflicts_with = "invalid")]
    pub valid: bool,
    /// The game has an error finding.
    #[arg(long)]
    pub invalid: bool,
    /// Only the first game (in input order) of each game key, among those the other filters keep.
    #[arg(long)]
    pub dedupe: bool,
    /// Either side plays this opening or one of its variations (id, 日本語名, English name or alias; `kifu tags --list`). Even games only.
    #[arg(long, value_name = "ID", value_parser = |s: &str| TagArg::parse(Kind::Opening, s))]
    pub opening: Vec<TagArg>,
    /// Either side builds this castle or one derived from it (id, 日本語名, English name or alias).
    #[arg(long, value_name = "ID", value_parser = |s: &str| TagArg::parse(Kind::Castle, s))]
    pub castle: Vec<TagArg>,
    /// The game's style: static, opposing or double_ranging (or 相居飛車, 対抗形, 相振り飛車). Even games only.
    #[arg(long, value_name = "ID", value_parser = |s: &str| TagArg::parse(Kind::Style, s))]
    pub style: Vec<TagArg>,
    /// Both players are rated R or more (floodgate's 'black_rate:/'white_rate:, rating headers; docs/stats.md#ratings-and-ranks). A game where a player has no rating does not match; 0 or less: no rating filter (as dlshogi).
    #[arg(long, value_name = "R", value_parser = finite)]
    pub min_rating: Option<f64>,
    /// Both players are rated R or less. A game where a player has no rating does not match.
    #[arg(long, value_name = "R", value_parser = finite)]
    pub max_rating: Option<f64>,
    /// The main line reaches a position where this partial board holds, in the rule language of docs/tags.md ('K59 .58 r28 hand=B'; upper case: the --pattern-side's pieces). Repeatable: each must hold at some ply. Standard shogi only.
    #[arg(long, value_name = "PATTERN", value_parser = pattern_text)]
    pub pattern: Vec<String>,
    /// The plies --pattern looks at: 10..40, 10.., ..40 or 25 (0 = the start; default: all).
    #[arg(long, value_name = "RANGE", requires = "pattern")]
    pub pattern_ply: Option<PlyRange>,
    /// Whose view --pattern is read from: sente (default; squares as written), gote (turned 180°), either, or mover (the side that just moved).
    #[arg(long, value_name = "SIDE", requires = "pattern")]
    pub pattern_side: Option<PatternSide>,
}

/// A `--pattern`: the rule parses (the parser's message, with the
/// character it stopped at), and names nothing a search cannot check.
fn pattern_text(s: &str) -> Result<String, String> {
    PatternQuery::parse(s, PatternSide::Sente)
        .map(|_| s.to_string())
        .map_err(|e| e.to_string())
}

/// A rating bound: a finite number.
fn finite(s: &str) -> Result<f64, String> {
    match s.trim().parse::<f64>() {
        Ok(r) if r.is_finite() => Ok(r),
        _ => Err(format!("not a number: {s:?}")),
    }
}

/// A name given to `--opening`, `--castle` or `--style`: the entry and its
/// descendants in the built-in taxonomy.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TagArg(TagSet);

impl TagArg {
    /// The entry of `kind` named `s`, or the near names (a usage error).
    fn parse(kind: Kind, s: &str) -> Result<TagArg, String> {
        let tax = Taxonomy::builtin();
        tax.lookup(kind, s).map(|id| TagArg(*tax.selects(id)))
    }
}

/// `--moves USI`, the move filter, where `--moves` is free (not on stats).
#[derive(Args, Debug, Clone, Default)]
pub struct MovesArg {
    /// The main line starts with these USI moves ("7g7f 3c3d").
    #[arg(
        long,
        value_name = "USI",
        conflicts_with = "opening_moves",
        help_heading = "Selecting games (docs/select.md)"
    )]
    pub moves: Option<MovePrefix>,
}

fn parse_variant(s: &str) -> Result<Variant, String> {
    s.parse()
        .map_err(|e: kifu::rules::UnknownVariant| e.to_string())
}

impl FilterArgs {
    /// The library's filter (`moves`: the `--moves` flag, where there is one).
    pub fn filter(&self, moves: Option<&MovesArg>) -> Filter {
        Filter {
            player: self.player.clone(),
            sente: self.sente.clone(),
            gote: self.gote.clone(),
            event: self.event.clone(),
            since: self.since,
            until: self.until,
            result: self.result.clone(),
            reason: self.reason.clone(),
            handicap: self.handicap.clone(),
            variant: self.variant.clone(),
            min_plies: self.min_plies,
            max_plies: self.max_plies,
            moves: moves
                .and_then(|m| m.moves.clone())
                .or_else(|| self.opening_moves.clone()),
            position: self
                .position
                .clone()
                .or_else(|| self.position_board.clone()),
            valid: match (self.valid, self.invalid) {
                (true, _) => Some(true),
                (_, true) => Some(false),
                _ => None,
            },
            tags: self
                .opening
                .iter()
                .chain(&self.castle)
                .chain(&self.style)
                .map(|t| t.0)
                .collect(),
            // As dlshogi's converters: a minimum applies above 0 only.
            min_rating: self.min_rating.filter(|m| *m > 0.0),
            max_rating: self.max_rating,
            pattern: PatternFilter {
                // Each was parsed by `pattern_text`: none fails here.
                patterns: self
                    .pattern
                    .iter()
                    .filter_map(|p| {
                        PatternQuery::parse(p, self.pattern_side.unwrap_or_default()).ok()
                    })
                    .collect(),
                plies: self.pattern_ply.unwrap_or_default(),
            },
        }
    }

    /// What the pattern flags refuse together with the others: more than
    /// [`MAX_PATTERNS`] patterns, and `--variant` naming only variants (a
    /// pattern reads standard-shogi squares).
    pub fn check_patterns(&self) -> Result<(), String> {
        if self.pattern.len() > MAX_PATTERNS {
            return Err(format!(
                "at most {MAX_PATTERNS} --pattern flags (each must hold at some ply; several terms in one pattern must hold at once)"
            ));
        }
        if !self.pattern.is_empty()
            && !self.variant.is_empty()
            && !self.variant.contains(&Variant::Standard)
        {
            return Err("--pattern reads standard-shogi squares: minishogi and doubutsu games are not searched (leave out --variant, or add --variant standard)".into());
        }
        Ok(())
    }
}

/// Output of `select`.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum SelectFormat {
    /// `path:game` lines (`path:game ply N` with --position), or the groups of --duplicates.
    Human,
    /// JSON Lines: one object per game (or per group with --duplicates).
    Json,
}

#[derive(Args, Debug)]
#[command(after_help = SELECT_HELP)]
pub struct SelectArgs {
    #[command(flatten)]
    pub input: InputArgs,
    /// Encoding to assume when a file has no BOM or declaration, or one its bytes contradict
    /// (utf-8, shift_jis, euc-jp).
    #[arg(long, value_parser = |s: &str| s.parse::<Encoding>())]
    pub encoding: Option<Encoding>,
    /// Output style.
    #[arg(long, value_enum, default_value = "human")]
    pub format: SelectFormat,
    /// Print only the number of games selected.
    #[arg(long, conflicts_with = "duplicates")]
    pub count: bool,
    /// Print the groups of selected games that share a game key (copies of one game).
    #[arg(long, conflicts_with = "dedupe")]
    pub duplicates: bool,
    /// Print the groups of selected games whose main line is a prefix of another's from the same start (truncated copies), the longest first.
    #[arg(long, conflicts_with_all = ["dedupe", "duplicates", "count"])]
    pub contained: bool,
    #[command(flatten)]
    pub moves: MovesArg,
    #[command(flatten)]
    pub filter: FilterArgs,
}

const SELECT_HELP: &str = "Examples:
  kifu select db/ --player 春野 --since 2020            # every game of a player since 2020
  kifu select db/ --handicap 香落ち --reason declaration  # handicap games ended by a declaration
  kifu select db/ --moves \"7g7f 3c3d 2g2f\" --count      # how many games open so
  kifu select db/ --position 'lnsgkgsnl/1r5b1/ppppp2pp/5pp2/9/2P4P1/PP1PPPP1P/1B5R1/LNSGKGSNL b -'
  kifu select db/ --duplicates                          # copies of the same game, in any format
  kifu select db/ --contained                           # truncated copies: games that are a prefix of another
  kifu select db/ --pattern 'K[1-2][8-9] .[1-2]7' --pattern-ply ..60   # sente's king castled on the right
  kifu select db/ --format json --invalid | jq .path
  kifu convert db/ --to kifu --out-dir clean/ --dedupe --valid

Output: one line per game, `path:N` (N = 1 for the first game of a file; `kifu
board path --game N` shows it), with ` ply P` when --position matched (P = 0
for the start) and ` pattern_ply Q` when --pattern did; JSON Lines with --format json (path, game (0-based, as in
validate and stats), game_key, sente, gote, start_time, result, plies, ply, …).
Text matches ignore case, full-width/half-width forms and spaces. The same
flags work on convert, stats (--opening-moves for --moves) and validate.
A game that fails to read is reported on standard error, never dropped silently.
Exit codes: 0 done (whether or not a game matched), 1 a game could not be
read, 2 usage or I/O error or no record found.";

/// `--position`: the library's SFEN error, and what each flag takes.
fn position_full(sfen: &str) -> Result<PositionQuery, String> {
    PositionQuery::full(sfen).map_err(|e| {
        format!("{e} (--position takes board, side to move and hands; --position-board takes a board alone)")
    })
}
