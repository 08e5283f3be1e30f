//! The arguments of `kifu export`.

use crate::common_args::{DiagnosticsFormat, InputArgs, StrictArgs};
use crate::filter_args::{FilterArgs, MovesArg};
use clap::{Args, ValueEnum};
use kifu::export::Layout;
use kifu::read::Encoding;

/// A preset of filters and stops.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Preset {
    /// dlshogi's csa_to_hcpe.py defaults: --endings %TORYO,%KACHI --min-plies 50 --min-rating 3500 --require-eval, and a game stops after a score of ±100000.
    Dlshogi,
}

/// What `--dedupe` keeps.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum DedupeArg {
    /// The first game of each game key (as --dedupe on the other commands).
    Game,
    /// The first record of each position (board, hands, side to move), in input order (hcpe, psv).
    Position,
}

/// One part of `--split NAME=FRACTION`.
#[derive(Clone, Debug, PartialEq)]
pub struct SplitPart {
    /// The part's name (in its file name and the index).
    pub name: String,
    /// The share of games it gets, 0..=1.
    pub fraction: f64,
}

fn parse_split(s: &str) -> Result<SplitPart, String> {
    let (name, frac) = s
        .split_once('=')
        .ok_or_else(|| format!("expected NAME=FRACTION (test=0.05), found `{s}`"))?;
    let name = name.trim();
    if name.is_empty()
        || !name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
    {
        return Err(format!(
            "a split name is letters, digits, `-` and `_`, found `{name}`"
        ));
    }
    let fraction: f64 = frac
        .trim()
        .parse()
        .map_err(|_| format!("expected a fraction such as 0.05, found `{frac}`"))?;
    if !(0.0..=1.0).contains(&fraction) {
        return Err(format!("a fraction is between 0 and 1, found `{frac}`"));
    }
    Ok(SplitPart {
        name: name.to_string(),
        fraction,
    })
}

fn parse_layout(s: &str) -> Result<Layout, String> {
    s.parse()
}

fn parse_encoding(s: &str) -> Result<Encoding, String> {
    s.parse()
}

/// `--endings`: one word, checked.
fn parse_ending(s: &str) -> Result<String, String> {
    kifu::export::parse_ending(s)
        .map(|_| s.to_string())
        .map_err(|e| e.to_string())
}

#[derive(Args, Debug)]
#[command(
    after_help = EXPORT_HELP,
    // The shared `--dedupe` (game keys) is `--dedupe game` here.
    mut_arg("dedupe", |a| a.long("dedupe-games").hide(true))
)]
pub struct ExportArgs {
    #[command(flatten)]
    pub input: InputArgs,
    /// Encoding to assume when a file has no BOM or declaration, or one its bytes contradict
    /// (utf-8, shift_jis, euc-jp).
    #[arg(long, value_parser = parse_encoding)]
    pub encoding: Option<Encoding>,
    /// The layout: hcpe (38-byte records), psv (40-byte records) or hcpe3 (per game).
    #[arg(long, value_parser = parse_layout)]
    pub to: Layout,
    /// Write the records here (`-`: standard output).
    #[arg(short = 'o', long, value_name = "FILE")]
    pub output: std::path::PathBuf,
    /// Overwrite existing output files (inputs are never overwritten).
    #[arg(long)]
    pub force: bool,
    /// Write only positions whose move has an evaluation (hcpe3: leave out games where half the moves have none).
    #[arg(long)]
    pub require_eval: bool,
    /// Keep games that end so: CSA specials (%TORYO,%KACHI) or reasons (resign,declaration); comma-separated.
    #[arg(long, value_name = "LIST", value_delimiter = ',', value_parser = parse_ending)]
    pub endings: Vec<String>,
    /// Set the filters of a known converter (explicit flags win).
    #[arg(long, value_enum)]
    pub preset: Option<Preset>,
    /// Drop copies: `game` (the first game of each game key) or `position` (the first record of each position).
    #[arg(long = "dedupe", id = "dedupe_what", value_enum, value_name = "WHAT")]
    pub dedupe_what: Option<DedupeArg>,
    /// Send a share of the games (by game key, deterministic) to FILE-NAME.EXT: `test=0.05` (repeatable or comma-separated).
    #[arg(long, value_name = "NAME=FRACTION", value_delimiter = ',', value_parser = parse_split)]
    pub split: Vec<SplitPart>,
    /// The seed of --split.
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub seed: u64,
    /// Write one JSON line per game read (kept or skipped, why, where its records are) to FILE.
    #[arg(long, value_name = "FILE.jsonl")]
    pub index: Option<std::path::PathBuf>,
    /// Style of the findings printed on standard error.
    #[arg(long, value_enum, default_value = "human")]
    pub diagnostics: DiagnosticsFormat,
    #[command(flatten)]
    pub strict: StrictArgs,
    #[command(flatten)]
    pub moves: MovesArg,
    #[command(flatten)]
    pub filter: FilterArgs,
}

const EXPORT_HELP: &str = "Examples:
  kifu export floodgate/ --to hcpe -o train.hcpe                  # every decided game, every position
  kifu export floodgate/ --to hcpe --preset dlshogi -o train.hcpe # dlshogi's csa_to_hcpe.py defaults
  kifu export db/ --to psv --min-rating 3000 --endings %TORYO -o games.psv
  kifu export db/ --to hcpe3 --split test=0.05 --seed 1 -o data.hcpe3   # data.hcpe3 and data-test.hcpe3
  kifu export db/ --to hcpe --dedupe position --index games.jsonl -o uniq.hcpe

One record per main-line move: the position before it, its move, the eval
of the comment after it (floodgate `'** 30 …`, KIF `*#評価値=30`) from the
side to move, clamped to ±32767, and the game's result. Only games with
no error and a decided result (a win or a draw) are written; minishogi and
doubutsu have no layout and are skipped with a warning. Layouts and
conventions: docs/export.md. The --index lines (path, game, game_key,
status, reason, file, first_record, records, offset, result) say where each
game went and why one was left out. Output is the same for any -j.
Exit codes: 0 done, 1 an error was found in a game (it is not written),
2 usage or I/O error, refused output or no record found.";
