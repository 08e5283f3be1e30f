//! Command-line arguments.

use clap::{Args, Parser, Subcommand, ValueEnum};
use kifu::read::{Encoding, Format};
use kifu::Variant;

// The argument groups every reading command shares live apart, so that
// `export_args` and `filter_args` use them without going through here.
use crate::common_args::parse_format;
pub use crate::common_args::{DiagnosticsFormat, InputArgs, OutputFormat, StrictArgs};

#[derive(Parser, Debug)]
#[command(
    name = "kifu",
    version,
    about = "Read, validate, convert and analyse shogi game records (KIF, KI2, CSA, PSN, JKF, SFEN/USI)",
    after_help = "Examples:\n  kifu validate fixtures/\n  kifu validate --format json games.csa | jq .\n  kifu board game.kif --ply 40 --to svg -o ply40.svg\n  kifu html games/ --out-dir pages/\n  kifu perft 5\n\nExit codes: 0 all good, 1 problems found, 2 usage or I/O error."
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
    /// Colour in human output: auto (on a terminal, unless NO_COLOR is
    /// set), always, never.
    #[arg(long, value_enum, default_value = "auto", global = true)]
    pub color: ColorArg,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Replay every move of every game and report illegal moves and false results.
    Validate(ValidateArgs),
    /// Count the leaf nodes of the legal move tree (move generator check).
    Perft(PerftArgs),
    /// Convert records between KIF, KI2, CSA, PSN, JKF and SFEN/USI.
    Convert(ConvertArgs),
    /// Per-game and per-move statistics as CSV.
    Stats(StatsArgs),
    /// Draw a position: Unicode text, SVG or a KIF board diagram (BOD).
    Board(BoardArgs),
    /// Write a self-contained HTML page per game that replays it in a browser.
    Html(HtmlArgs),
    /// Print a shell completion script (bash, zsh, fish, powershell, elvish).
    Completions(CompletionsArgs),
    /// Print the manual page (roff) for `man`.
    Man(ManArgs),
    /// List the games that match filters (player, date, result, opening, position…), or copies of one game.
    Select(crate::filter_args::SelectArgs),
    /// Write training data for engines: hcpe, psv or hcpe3 (cshogi's and YaneuraOu's layouts).
    Export(crate::export_args::ExportArgs),
    /// The opening, castle and style names kifu finds (戦型・囲い): `kifu tags --list`.
    Tags(TagsArgs),
    /// The opening tree: every position of the first plies, each move with games, results, ratings, dates, names (text, JSON Lines, CSV, an HTML explorer).
    Tree(TreeArgs),
}

#[derive(Args, Debug)]
#[command(after_help = TREE_HELP)]
pub struct TreeArgs {
    #[command(flatten)]
    pub input: InputArgs,
    /// Encoding to assume when a file has no BOM or declaration, or one its bytes contradict
    /// (utf-8, shift_jis, euc-jp).
    #[arg(long, value_parser = parse_encoding)]
    pub encoding: Option<Encoding>,
    /// Plies followed from the root.
    #[arg(long, value_name = "N", default_value_t = 30)]
    pub plies: u32,
    /// Leave out positions and moves with fewer than K games.
    #[arg(long, value_name = "K", default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..))]
    pub min_games: u32,
    /// Root the tree at the position after these USI moves from the even start ("7g7f,3c3d" or "7g7f 3c3d"; games reaching it in any order count).
    #[arg(long, value_name = "USI", conflicts_with = "from_sfen")]
    pub from_moves: Option<String>,
    /// Root the tree at this position (SFEN; the move number may be left out).
    #[arg(long, value_name = "SFEN")]
    pub from_sfen: Option<String>,
    /// Output format: text (a table per position), json (JSON Lines, one position a line), csv (one row per move), html (one explorer page).
    #[arg(long, value_enum, default_value_t = TreeFormat::Text)]
    pub format: TreeFormat,
    /// Notation of the moves in text, CSV and HTML (kif: Japanese, psn: international).
    #[arg(long, value_enum, default_value = "kif")]
    pub notation: NotationArg,
    /// Write here (default: standard output; `-` for it).
    #[arg(short = 'o', long)]
    pub output: Option<std::path::PathBuf>,
    /// Overwrite an existing output file.
    #[arg(long)]
    pub force: bool,
    /// Positions kept in memory before the rarest are pruned while reading (docs/tree.md: the counts are then no longer exact, and kifu says so).
    #[arg(long, value_name = "N", default_value_t = 2_000_000)]
    pub max_nodes: usize,
    #[command(flatten)]
    pub filter: crate::filter_args::FilterArgs,
}

/// Output of `kifu tree`.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum TreeFormat {
    /// A table per position, for a terminal.
    Text,
    /// JSON Lines: one object per position.
    Json,
    /// CSV: one row per move.
    Csv,
    /// One self-contained explorer page.
    Html,
}

const TREE_HELP: &str = "Examples:
  kifu tree db/                                   # the first 30 plies as tables
  kifu tree db/ --plies 12 --min-games 10 --notation psn
  kifu tree db/ --from-moves 7g7f,3c3d --format json | jq -c '.moves[0]'
  kifu tree wars/ --min-rating 2000 --since 2020 --format csv -o tree.csv
  kifu tree db/ --min-games 10 --format html -o explorer.html

Positions are keyed by board, hands and side to move (not the move number),
so transpositions merge; a game counts once per position and per move. JSON
fields and CSV columns: docs/tree.md. Memory is bounded by --max-nodes: past
it the rarest positions are pruned while reading and kifu warns that counts
may be short. The result is the same whatever -j.
Exit codes: 0 the tree was written, 1 a game could not be read (reported on
standard error; its moves before the problem count), 2 usage or I/O error.";

#[derive(Args, Debug)]
#[command(after_help = TAGS_HELP)]
pub struct TagsArgs {
    /// List the names of the taxonomy (id, 日本語名, English name, kind, parent, aliases).
    #[arg(long, required = true)]
    pub list: bool,
    /// Output format of the list.
    #[arg(long, value_enum, default_value = "human")]
    pub format: TagsFormat,
    /// List the names of this taxonomy file (same columns as
    /// src/tags/taxonomy.tsv) instead of the built-in one.
    #[arg(long, value_name = "FILE")]
    pub taxonomy: Option<std::path::PathBuf>,
}

/// Output of `kifu tags --list`.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum TagsFormat {
    /// A table: one name a line, indented under its parent.
    Human,
    /// One JSON array of objects: id, ja, en, kind, parent, aliases.
    Json,
}

const TAGS_HELP: &str = "Examples:
  kifu tags --list                          # every opening, castle and style, as a tree
  kifu tags --list --format json | jq -r '.[] | select(.kind == \"castle\") | .id'
  kifu tags --list --taxonomy my-tags.tsv   # check and list your own file
  kifu select wars/ --castle 美濃囲い        # then filter by any listed name or alias
  kifu stats wars/ -o games.csv --tags names.csv

The names are those the --opening, --castle and --style filters, the
stats columns (sente_opening, …, game_style) and convert --annotate use
(docs/tags.md). Exit codes: 0 listed, 2 usage error, unreadable or invalid
taxonomy file, or standard output failed.";

#[derive(Args, Debug)]
#[command(after_help = COMPLETIONS_HELP)]
pub struct CompletionsArgs {
    /// The shell.
    #[arg(value_enum)]
    pub shell: clap_complete::Shell,
}

const COMPLETIONS_HELP: &str = "Examples:
  kifu completions bash > ~/.local/share/bash-completion/completions/kifu
  kifu completions zsh > ~/.zfunc/_kifu          # with fpath+=~/.zfunc in ~/.zshrc
  kifu completions fish > ~/.config/fish/completions/kifu.fish
  kifu completions powershell >> $PROFILE
  kifu completions elvish > ~/.config/elvish/lib/kifu.elv

Exit codes: 0 printed, 2 usage error or standard output failed.";

#[derive(Args, Debug)]
#[command(after_help = MAN_HELP)]
pub struct ManArgs {
    /// A subcommand's page instead (`kifu man validate`: kifu-validate(1)).
    pub command: Option<String>,
}

const MAN_HELP: &str = "Examples:
  kifu man > ~/.local/share/man/man1/kifu.1     # then: man kifu
  kifu man validate > ~/.local/share/man/man1/kifu-validate.1
  kifu man | man -l -                           # read it now

Exit codes: 0 printed, 2 standard output failed.";

#[derive(Args, Debug)]
#[command(after_help = PERFT_HELP)]
pub struct PerftArgs {
    /// Depth in plies.
    pub depth: u32,
    /// Rule set.
    #[arg(long, default_value = "standard", value_parser = parse_variant)]
    pub variant: Variant,
    /// Start from this position instead of the variant's start (`sfen` prefix optional).
    #[arg(long)]
    pub sfen: Option<String>,
    /// Print the count below each legal move of the root.
    #[arg(long)]
    pub divide: bool,
}

const PERFT_HELP: &str = "Examples:
  kifu perft 5                      # 19861490 from the standard start
  kifu perft 3 --variant minishogi --divide
  kifu perft 2 --sfen 'R8/2K1S1SSk/4B4/9/9/9/9/9/1L1L1L3 b RBGSNLP3g3n17p 1'

The last line printed is `nodes N` followed by the time and nodes per second.";

fn parse_variant(s: &str) -> Result<Variant, String> {
    s.parse()
        .map_err(|e: kifu::rules::UnknownVariant| e.to_string())
}

/// Declaration (entering-king) rule.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum ImpasseArg {
    /// JSA 24-point declaration (31+ wins, 24-30 draws).
    #[value(name = "24")]
    P24,
    /// CSA 27-point rule (sente 28, gote 27).
    #[value(name = "27")]
    P27,
}

fn parse_encoding(s: &str) -> Result<Encoding, String> {
    s.parse()
}

#[derive(Args, Debug)]
#[command(after_help = VALIDATE_HELP)]
pub struct ValidateArgs {
    #[command(flatten)]
    pub input: InputArgs,
    /// Encoding to assume when a file has no BOM or declaration, or one its bytes contradict
    /// (utf-8, shift_jis, euc-jp).
    #[arg(long, value_parser = parse_encoding)]
    pub encoding: Option<Encoding>,
    /// Output style.
    #[arg(long, value_enum, default_value = "human")]
    pub format: OutputFormat,
    /// Report false result claims as warnings, not errors.
    #[arg(long)]
    pub lenient_claims: bool,
    /// Entering-king declaration rule (default: the record's `$JISHOGI`, else 27).
    #[arg(long, value_enum)]
    pub impasse_rule: Option<ImpasseArg>,
    /// Print only the summary (human format).
    #[arg(long, short = 'q')]
    pub quiet: bool,
    #[command(flatten)]
    pub strict: StrictArgs,
    #[command(flatten)]
    pub moves: crate::filter_args::MovesArg,
    #[command(flatten)]
    pub filter: crate::filter_args::FilterArgs,
}

const VALIDATE_HELP: &str = "Rule ids (stable; see docs/validate.md):
  syntax            text that does not follow the format
  encoding          bytes that do not decode (use --encoding or --lossy)
  no-piece          nothing of the mover's on the origin square
  piece-mismatch    the record names another piece, side or promotion than the board has
  illegal-movement  the piece cannot move so, or its path is blocked
  occupied          own piece on the target, or a drop on an occupied square
  not-in-hand       the dropped piece is not in hand
  must-promote      a piece left where it can never move
  dead-drop         a drop where the piece can never move
  nifu              two unpromoted pawns of a side on one file
  uchifuzume        checkmate by a pawn drop
  self-check        the move leaves or puts one's own king in check
  illegal-promotion promotion where it is not allowed
  ambiguous         a KI2/PSN move that fits several pieces
  after-end         moves after checkmate, repetition or another end
  claim-mismatch    a false result: mate, repetition, declaration, winner, move count
  time              inconsistent cumulative times (warning)
  setup             an impossible start position
  empty             a file with no game
  dialect           something tolerated that the format does not allow (warning)
  io                the file could not be read

Examples:
  kifu validate fixtures/                    # every record below fixtures/
  kifu validate --format json games.csa      # JSON Lines, one object per game
  kifu validate --format github kifu/        # annotations for GitHub Actions
  kifu validate --format sarif db/ > kifu.sarif   # for code scanning
  kifu validate --deny warnings db/          # warnings fail the run too
  kifu validate --allow time --allow dialect db/
  cat game.kif | kifu validate --from kif -

Exit codes: 0 every game valid, 1 an error was found, 2 usage or I/O error
or no record found (see docs/cli.md).";

#[derive(Args, Debug)]
#[command(after_help = STATS_HELP)]
pub struct StatsArgs {
    #[command(flatten)]
    pub input: InputArgs,
    /// Encoding to assume when a file has no BOM or declaration, or one its bytes contradict
    /// (utf-8, shift_jis, euc-jp).
    #[arg(long, value_parser = parse_encoding)]
    pub encoding: Option<Encoding>,
    /// Write the games table here (default: standard output; `-` for it).
    #[arg(short = 'o', long)]
    pub output: Option<std::path::PathBuf>,
    /// Also write the moves table (one row per move) to this file (`-`: standard output).
    #[arg(long)]
    pub moves: Option<std::path::PathBuf>,
    /// Print a summary (results, lengths, reasons, openings) to standard error.
    #[arg(long)]
    pub summary: bool,
    /// Plies in the `opening_usi` column.
    #[arg(long, default_value_t = 16)]
    pub opening_plies: usize,
    /// Fill the `sfen_before` column of the moves table.
    #[arg(long)]
    pub sfen: bool,
    /// Overwrite existing output files.
    #[arg(long)]
    pub force: bool,
    /// Entering-king declaration rule used when judging results.
    #[arg(long, value_enum)]
    pub impasse_rule: Option<ImpasseArg>,
    /// Also print the findings of every game on standard error in this
    /// style (the tables are the same either way).
    #[arg(long, value_enum)]
    pub diagnostics: Option<DiagnosticsFormat>,
    /// Also write the names table (one row per opening, castle and style found: path, game, side, kind, id, ja, ply) to this file (`-`: standard output).
    #[arg(long, value_name = "FILE", conflicts_with = "no_tags")]
    pub tags: Option<std::path::PathBuf>,
    /// Do not name openings and castles (the name columns stay empty; a little faster).
    #[arg(long)]
    pub no_tags: bool,
    /// The tables' file format: csv, or parquet (typed columns, Snappy; docs/stats.md#parquet).
    #[arg(long, value_enum, default_value_t = TableFormat::Csv)]
    pub format: TableFormat,
    #[command(flatten)]
    pub strict: StrictArgs,
    #[command(flatten)]
    pub filter: crate::filter_args::FilterArgs,
}

/// The file format of the `kifu stats` tables.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum TableFormat {
    /// RFC 4180 CSV, one header row.
    Csv,
    /// Apache Parquet: the columns typed by the column tables.
    Parquet,
}

const STATS_HELP: &str = "Columns are documented in docs/stats.md.

Examples:
  kifu stats records/ -o games.csv --moves moves.csv
  kifu stats games.csa --summary > games.csv
  kifu stats - --from usi < openings.sfen
  kifu stats db/ -o games.csv --diagnostics sarif 2> findings.sarif
  kifu stats wars/ -o games.csv --tags names.csv     # openings and castles, one row each
  kifu stats db/ --opening fourth_file_rook --castle anaguma -o games.csv
  kifu stats db/ --format parquet -o games.parquet --moves moves.parquet
  kifu stats floodgate/ --min-rating 3000 -o games.csv      # both players rated 3000+

Invalid games still give a row (valid=false) up to their first illegal move.
Output files appear atomically and are never overwritten without --force;
an input is never an output, and -o and --moves must name different files.
Exit codes: 0 done, 2 usage or I/O error, refused output or no record found.";

/// CSA version written by `convert`.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum CsaVersionArg {
    /// CSA V2.2.
    #[value(name = "2.2")]
    V22,
    /// CSA V3.0.
    #[value(name = "3.0")]
    V30,
}

/// How PSN output carries times.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum PsnTimesArg {
    /// Shogidokoro's `(mm:ss / hh:mm:ss)` after each move.
    Shogidokoro,
    /// As `{…}` comments.
    Comments,
    /// Leave times out.
    None,
}

#[derive(Args, Debug)]
#[command(after_help = CONVERT_HELP)]
pub struct ConvertArgs {
    #[command(flatten)]
    pub input: InputArgs,
    /// Target format: kif (Shift_JIS), kifu (UTF-8 KIF), ki2, ki2u, csa, psn, jkf, usi, sfen.
    #[arg(long, value_parser = parse_target)]
    pub to: kifu::convert::Target,
    /// Write everything to this file (one game, or a multi-game stream where the target allows it; `-`: standard output).
    #[arg(short = 'o', long, conflicts_with = "out_dir")]
    pub output: Option<std::path::PathBuf>,
    /// Write one file per input into this folder, mirroring the input tree (not an input folder nor inside one).
    #[arg(long)]
    pub out_dir: Option<std::path::PathBuf>,
    /// Output encoding: utf-8 or shift_jis (default: shift_jis for kif/ki2, utf-8 otherwise).
    #[arg(long, value_parser = parse_encoding)]
    pub encoding: Option<Encoding>,
    /// Encoding to assume for inputs without a BOM or declaration.
    #[arg(long, value_parser = parse_encoding)]
    pub input_encoding: Option<Encoding>,
    /// With --out-dir: one file per game (`name-0001.kif`); the default for kif, ki2 and jkf.
    #[arg(long, overrides_with = "no_split")]
    pub split: bool,
    /// With --out-dir: one multi-game file per input; the default for csa, psn, usi and sfen.
    #[arg(long, overrides_with = "split")]
    pub no_split: bool,
    /// Overwrite existing output files (inputs are never overwritten).
    #[arg(long)]
    pub force: bool,
    /// Replace characters the output encoding cannot hold with `?` instead of failing.
    #[arg(long)]
    pub replace_unencodable: bool,
    /// Write the names found from the moves into the header: 戦型 (the opening), 先手の囲い and 後手の囲い (docs/tags.md). A header the record has is kept.
    #[arg(long)]
    pub annotate: bool,
    /// With --annotate: replace the record's own 戦型/囲い headers.
    #[arg(long, requires = "annotate")]
    pub annotate_overwrite: bool,
    /// CSA version to write.
    #[arg(long, value_enum, default_value = "2.2")]
    pub csa_version: CsaVersionArg,
    /// How PSN output carries move times.
    #[arg(long, value_enum, default_value = "shogidokoro")]
    pub psn_times: PsnTimesArg,
    /// KI2/PSN disambiguation: count only pieces that can legally reach the square.
    #[arg(long)]
    pub legal_candidates_only: bool,
    /// Refuse every game with an error. By default a game whose moves
    /// replay is written despite a false result line (claim-mismatch) or an
    /// impossible start position (setup), which are reported.
    #[arg(long = "strict")]
    pub refuse_errors: bool,
    /// Style of the findings printed on standard error.
    #[arg(long, value_enum, default_value = "human")]
    pub diagnostics: DiagnosticsFormat,
    #[command(flatten)]
    pub strict: StrictArgs,
    #[command(flatten)]
    pub moves: crate::filter_args::MovesArg,
    #[command(flatten)]
    pub filter: crate::filter_args::FilterArgs,
}

fn parse_target(s: &str) -> Result<kifu::convert::Target, String> {
    s.parse()
}

const CONVERT_HELP: &str = "Examples:
  kifu convert game.kif --to csa                    # to standard output
  kifu convert game.csa --to kif -o game.kif        # Shift_JIS KIF, CRLF
  kifu convert db/ --to kifu --out-dir out/         # mirror db/ into out/ as UTF-8 KIF
  kifu convert games.csa --to psn -o games.psn      # a multi-game stream
  kifu convert big.csa --to kif --out-dir out/      # one file per game: out/big-0001.kif …
  kifu convert db/ --to csa --out-dir out/ --strict # only games with no error at all
  kifu convert wars/ --to kif --out-dir out/ --annotate  # 戦型, 先手の囲い, 後手の囲い headers
  kifu convert db/ --to csa --out-dir out/ --deny warnings --diagnostics github

Nothing is lost silently: what the target cannot hold (variations in CSA,
comments in USI, …) is counted per file in a `dropped:` line on standard
error, and what it keeps only as comment text (an engine evaluation it
cannot translate, a time control CSA cannot state) in `kept as comments:`.
Outputs are written to a temporary file and renamed into place; an
existing file is never overwritten without --force, and an input never.
Findings (warnings too) are reported as `kifu validate` reports them. A
game whose moves replay is written even with a false result line or an
impossible start (--strict, or --deny of that rule, refuses it); a game with
an illegal move, a syntax or an encoding error, or a denied warning is not,
and the other games are. With several inputs, --out-dir mirrors each
argument under its own name (see docs/convert.md); names that would collide are refused
before anything is written. Exit codes: 0 all converted, 1 an error was
found (in a game written or not) or a game could not be written, 2 usage
or I/O error, refused output or no record found.";

/// Picture format of `board`.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum BoardFormat {
    /// A Unicode board for terminals.
    Text,
    /// A scalable SVG diagram.
    Svg,
    /// The KIF board diagram (BOD), readable by any KIF program.
    Bod,
}

impl BoardFormat {
    /// The file extension of the format.
    pub fn extension(self) -> &'static str {
        match self {
            BoardFormat::Text => "txt",
            BoardFormat::Svg => "svg",
            BoardFormat::Bod => "bod",
        }
    }
}

/// Coordinate labels of diagrams.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum CoordsArg {
    /// Files 9–1, ranks 一–九.
    Japanese,
    /// Files 9–1, ranks a–i.
    Western,
}

/// Move notation of captions and move lists.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum NotationArg {
    /// Japanese (`▲７六歩`, `７六歩(77)`).
    Kif,
    /// International (`P-7f`).
    Psn,
}

/// When to colour terminal output.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum ColorArg {
    /// On a terminal, unless NO_COLOR is set.
    Auto,
    /// Always (also into files).
    Always,
    /// Never.
    Never,
}

#[derive(Args, Debug)]
#[command(after_help = BOARD_HELP)]
pub struct BoardArgs {
    /// The record: a file or `-` for standard input (not with --sfen).
    #[arg(required_unless_present = "sfen", conflicts_with = "sfen")]
    pub input: Option<String>,
    /// Which game of the file (1 = the first).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..))]
    pub game: u32,
    /// Draw the position after this many moves of the main line (0 = the
    /// start; default: the final position).
    #[arg(long)]
    pub ply: Option<u32>,
    /// Draw this position instead of a record's (`sfen` prefix optional;
    /// 9×9, 5×5 minishogi or 3×4 doubutsu).
    #[arg(long, allow_hyphen_values = true)]
    pub sfen: Option<String>,
    /// Picture format (default: from the -o extension, svg with
    /// --every-ply, else text).
    #[arg(long, value_enum)]
    pub to: Option<BoardFormat>,
    /// Write the picture to this file (default: standard output; `-` for it).
    #[arg(short = 'o', long, conflicts_with = "every_ply")]
    pub output: Option<std::path::PathBuf>,
    /// Write one picture per ply of the main line (`NAME-0000.svg` …) into --out-dir.
    #[arg(long, requires = "out_dir", conflicts_with_all = ["ply", "sfen"])]
    pub every_ply: bool,
    /// The folder for --every-ply.
    #[arg(long, requires = "every_ply")]
    pub out_dir: Option<std::path::PathBuf>,
    /// Coordinate labels.
    #[arg(long, value_enum, default_value = "japanese")]
    pub coords: CoordsArg,
    /// Notation of the caption (the last move).
    #[arg(long, value_enum, default_value = "kif")]
    pub notation: NotationArg,
    /// Caption under the board instead of the last move (`--caption ''` for none).
    #[arg(long)]
    pub caption: Option<String>,
    /// View the board from gote's side.
    #[arg(long)]
    pub flip: bool,
    /// Colour of the text board: the global `--color`.
    #[arg(skip = ColorArg::Auto)]
    pub color: ColorArg,
    /// Read the input as this format instead of guessing (kif, ki2, csa, psn, jkf, usi).
    #[arg(long, value_parser = parse_format)]
    pub from: Option<Format>,
    /// Encoding to assume when the input has no BOM or declaration, or one its bytes contradict.
    #[arg(long, value_parser = parse_encoding)]
    pub encoding: Option<Encoding>,
    /// Replace undecodable bytes with U+FFFD instead of reporting them.
    #[arg(long)]
    pub lossy: bool,
    /// Overwrite existing output files (inputs are never overwritten).
    #[arg(long)]
    pub force: bool,
}

const BOARD_HELP: &str = "Examples:
  kifu board game.kif                           # the final position, in the terminal
  kifu board game.kif --ply 0                   # the start position
  kifu board games.csa --game 3 --ply 40 --to svg -o game3-40.svg
  kifu board game.kif --ply 41 --to svg --notation psn --flip -o p.svg
  kifu board game.kif --to bod --ply 60         # paste into any KIF program
  kifu board --sfen 'lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1'
  kifu board game.kif --every-ply --out-dir slides/   # slides/game-0000.svg …

Text: `v` marks gote's pieces; colours (gote red, last move on yellow) only on a
terminal, never when piped or with NO_COLOR or --color never.
SVG: width/height/viewBox declared (embeds in Markdown); pieces carry
class=\"piece\" data-color data-role data-square, the last move's squares class=\"hl\".
Outputs are planned before anything is written: files appear atomically, are
never overwritten without --force and never an input (also one read from
standard input); -o - is standard output; FIFOs and devices are written into.
--every-ply writes every picture or, if one is refused, none.
Exit codes: 0 drawn, 1 the record is invalid up to that ply, 2 usage or I/O
error or a refused output.";

#[derive(Args, Debug)]
#[command(after_help = HTML_HELP)]
pub struct HtmlArgs {
    #[command(flatten)]
    pub input: InputArgs,
    /// Encoding to assume when a file has no BOM or declaration, or one its bytes contradict.
    #[arg(long, value_parser = parse_encoding)]
    pub encoding: Option<Encoding>,
    /// Write the page to this file (one game; default: standard output; `-` for it).
    #[arg(short = 'o', long, conflicts_with = "out_dir")]
    pub output: Option<std::path::PathBuf>,
    /// Write one page per game into this folder, mirroring the input tree
    /// (`game.html`, or `games-0001.html` … for files of several games).
    #[arg(long)]
    pub out_dir: Option<std::path::PathBuf>,
    /// Notation of the move list (kif: Japanese page, psn: English page).
    #[arg(long, value_enum, default_value = "kif")]
    pub notation: NotationArg,
    /// Coordinate labels.
    #[arg(long, value_enum, default_value = "japanese")]
    pub coords: CoordsArg,
    /// Open the pages with the board seen from gote's side.
    #[arg(long)]
    pub flip: bool,
    /// With --out-dir: plies of the collection's opening explorer
    /// (`explorer.html`, as `kifu tree --format html`).
    #[arg(long, default_value_t = 30, value_name = "N")]
    pub explorer_plies: u32,
    /// With --out-dir: positions and moves of the explorer played in fewer
    /// games are left out (1 keeps every position of every game).
    #[arg(long, default_value_t = 2, value_name = "K", value_parser = clap::value_parser!(u32).range(1..))]
    pub explorer_min_games: u32,
    /// With --out-dir: write no `explorer.html`.
    #[arg(long)]
    pub no_explorer: bool,
    /// Overwrite existing output files (inputs are never overwritten).
    #[arg(long)]
    pub force: bool,
    /// Style of the findings printed on standard error.
    #[arg(long, value_enum, default_value = "human")]
    pub diagnostics: DiagnosticsFormat,
    #[command(flatten)]
    pub strict: StrictArgs,
}

const HTML_HELP: &str = "Examples:
  kifu html game.kif -o game.html
  kifu html db/ --out-dir pages/                # one page per game, mirroring db/,
                                                # pages/index.html and pages/explorer.html
  kifu html games.psn --notation psn --out-dir pages/

Each page is one self-contained file (inline SVG, CSS and script; no network)
that works from file://. In the page: arrow keys or buttons step, Home/End jump,
Up/Down switch between alternative moves, Escape returns from a variation,
f flips the board, a click on a move goes there; `page.html#ply=N` opens after
N moves. The board element (#board) exposes the shown position as data-sfen.
Games with an illegal move are reported as `kifu validate` would and skipped.
--out-dir names pages by the naming rule of `kifu convert --out-dir`; collisions
and existing pages (without --force) are refused before any page is written.
It also writes index.html (every game in one sortable, filterable table) and
explorer.html (the opening tree of the collection, as kifu tree --format html;
--explorer-plies, --explorer-min-games, --no-explorer), linked from the index.
-o - is standard output; an input is never an output.
Exit codes: 0 all written, 1 a game was invalid, 2 usage or I/O error or a
refused output.";
