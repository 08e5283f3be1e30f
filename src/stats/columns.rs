//! The stats tables' columns, each declared once: name, type, how a row
//! gives its value, and its doc line. From the one declaration come the
//! `COLUMNS` names, the CSV writers (`write_csv_header`, `write_csv`) and
//! the column tables ([`GAME_COLUMNS`], [`MOVE_COLUMNS`], [`TAG_COLUMNS`])
//! that other writers (the Arrow stream of the Python package) and the
//! tests of docs/stats.md and docs/schema/ are built on.

use super::{CsvLine, GameRow, MoveRow, TagRow};
use crate::record::key::GameKey;

/// The type of a column's values, as typed readers (Arrow, pandas, DuckDB,
/// the Table Schemas of docs/schema/) should hold them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ColumnType {
    /// Text (`string`); an empty cell is the empty string.
    Text,
    /// A whole number (`integer`, 64 bits).
    Integer,
    /// A number of seconds (`number`, 64-bit float).
    Float,
    /// `true`/`false` (`boolean`).
    Bool,
    /// A wall-clock time in one ISO 8601 form without a zone,
    /// `YYYY-MM-DDTHH:MM:SS` (`datetime`); the cell is text.
    Timestamp,
}

impl ColumnType {
    /// The type's name in a Frictionless Table Schema (docs/schema/).
    pub fn table_schema(self) -> &'static str {
        match self {
            ColumnType::Text => "string",
            ColumnType::Integer => "integer",
            ColumnType::Float => "number",
            ColumnType::Bool => "boolean",
            ColumnType::Timestamp => "datetime",
        }
    }

    /// The type's word in the column lists of docs/stats.md.
    pub fn doc_word(self) -> &'static str {
        match self {
            ColumnType::Text => "text",
            ColumnType::Integer => "integer",
            ColumnType::Float => "float",
            ColumnType::Bool => "bool",
            ColumnType::Timestamp => "timestamp",
        }
    }
}

/// One cell's value, borrowed from its row.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Cell<'a> {
    /// A text cell ([`ColumnType::Text`], [`ColumnType::Timestamp`]).
    Text(&'a str),
    /// An integer cell; `None` is the empty cell.
    Int(Option<i64>),
    /// A float cell; `None` is the empty cell.
    Float(Option<f64>),
    /// A boolean cell.
    Bool(bool),
    /// The game key ([`ColumnType::Text`]: 32 lowercase hex digits).
    Key(GameKey),
}

/// One column of a stats table whose rows are `R`.
pub struct Column<R: 'static> {
    /// The column's name (the CSV header).
    pub name: &'static str,
    /// The type of its values.
    pub ty: ColumnType,
    /// Whether a cell may be empty meaning "missing" (null) rather than
    /// the empty text.
    pub nullable: bool,
    /// One line saying what it holds (the Table Schema's description).
    pub doc: &'static str,
    /// The cell of a row.
    pub value: for<'a> fn(&'a R) -> Cell<'a>,
}

impl<R> std::fmt::Debug for Column<R> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Column")
            .field("name", &self.name)
            .field("ty", &self.ty)
            .field("nullable", &self.nullable)
            .finish_non_exhaustive()
    }
}

/// An integer cell's value (the counts and indices fit in 64 bits).
fn int<I: TryInto<i64>>(n: I) -> i64 {
    n.try_into().unwrap_or(i64::MAX)
}

/// What one kind of column is: its CSV writing, type, nullability and cell.
macro_rules! kind {
    (csv text, $l:ident, $v:expr) => {
        $l.str($v)
    };
    (csv time, $l:ident, $v:expr) => {
        $l.str($v)
    };
    (csv int, $l:ident, $v:expr) => {
        $l.int($v)
    };
    (csv opt_int, $l:ident, $v:expr) => {
        $l.opt_int($v)
    };
    (csv opt_float, $l:ident, $v:expr) => {
        $l.opt_f64($v)
    };
    (csv bool, $l:ident, $v:expr) => {
        $l.bool($v)
    };
    (csv key, $l:ident, $v:expr) => {
        $l.key($v)
    };
    (ty text) => {
        ColumnType::Text
    };
    (ty time) => {
        ColumnType::Timestamp
    };
    (ty int) => {
        ColumnType::Integer
    };
    (ty opt_int) => {
        ColumnType::Integer
    };
    (ty opt_float) => {
        ColumnType::Float
    };
    (ty bool) => {
        ColumnType::Bool
    };
    (ty key) => {
        ColumnType::Text
    };
    (null time) => {
        true
    };
    (null opt_int) => {
        true
    };
    (null opt_float) => {
        true
    };
    (null $other:ident) => {
        false
    };
    (cell text, $v:expr) => {
        Cell::Text($v)
    };
    (cell time, $v:expr) => {
        Cell::Text($v)
    };
    (cell int, $v:expr) => {
        Cell::Int(Some(int($v)))
    };
    (cell opt_int, $v:expr) => {
        Cell::Int($v.map(int))
    };
    (cell opt_float, $v:expr) => {
        Cell::Float($v)
    };
    (cell bool, $v:expr) => {
        Cell::Bool($v)
    };
    (cell key, $v:expr) => {
        Cell::Key($v)
    };
}

/// Declares a table: `name: kind = value from row, "doc line";` per
/// column, in order. Gives the row type `COLUMNS`, `write_csv_header` and
/// `write_csv`, and the column table `$table`.
macro_rules! table {
    (
        $(#[$meta:meta])*
        $table:ident: $row_ty:ty = |$row:ident| {
            $($name:ident: $kind:ident = $get:expr, $doc:literal;)*
        }
    ) => {
        impl $row_ty {
            /// The table's columns, in order (the field names).
            pub const COLUMNS: [&'static str; [$(stringify!($name)),*].len()] =
                [$(stringify!($name)),*];

            /// Appends the table's CSV header line to `out`.
            pub fn write_csv_header(out: &mut Vec<u8>) {
                CsvLine::header(out, &Self::COLUMNS);
            }

            /// Appends this row as one CSV line to `out`: the bytes a
            /// `csv::Writer` with default settings writes when it serializes
            /// the row, without serde's per-field cost.
            pub fn write_csv(&self, out: &mut Vec<u8>) {
                let $row = self;
                let mut l = CsvLine::new(out);
                $(kind!(csv $kind, l, $get);)*
                l.end();
            }
        }

        $(#[$meta])*
        pub static $table: &[Column<$row_ty>] = &[$(
            Column {
                name: stringify!($name),
                ty: kind!(ty $kind),
                nullable: kind!(null $kind),
                doc: $doc,
                value: |$row| kind!(cell $kind, $get),
            },
        )*];
    };
}

table! {
    /// The games table (`kifu stats`), one row per game.
    GAME_COLUMNS: GameRow = |row| {
        path: text = &row.path,
            "Input path as given, joined with the path inside a directory; - for standard input.";
        game: int = row.game,
            "0-based game index within the file.";
        format: text = row.format,
            "Format read.";
        encoding: text = row.encoding,
            "Encoding detected: utf-8, utf-8-bom, shift_jis, euc-jp, utf-16le, utf-16be.";
        variant: text = row.variant,
            "Rules.";
        handicap: text = row.handicap,
            "KIF handicap name (平手, 香落ち, … 十枚落ち), other for a non-standard start, or the variant name.";
        event: text = &row.event,
            "Event or tournament.";
        site: text = &row.site,
            "Place.";
        start_time: time = &row.start_time,
            "Start date and time, one ISO 8601 form for every row; parts the record does not give are the start of the period (see start_time_precision).";
        start_time_raw: text = &row.start_time_raw,
            "The date as written, when it does not parse (not a real date, or an unknown form).";
        sente: text = &row.sente,
            "Sente's player.";
        gote: text = &row.gote,
            "Gote's player.";
        time_control: text = &row.time_control,
            "Time control as written.";
        plies: int = row.plies,
            "Main-line moves replayed (up to the first illegal one).";
        result: text = row.result,
            "Outcome.";
        reason: text = &row.reason,
            "Why the game ended: a closed list (docs/validate.md#results); other for a terminal word kifu does not know (kept in terminal_text).";
        valid: bool = row.valid,
            "No error finding.";
        first_error_rule: text = row.first_error_rule,
            "Rule id of the first error (docs/validate.md).";
        first_error_ply: opt_int = row.first_error_ply,
            "Ply of the first error, when it concerns a move.";
        sente_captures: int = row.sente_captures,
            "Captures by sente.";
        gote_captures: int = row.gote_captures,
            "Captures by gote.";
        sente_drops: int = row.sente_drops,
            "Drops by sente.";
        gote_drops: int = row.gote_drops,
            "Drops by gote.";
        sente_promotions: int = row.sente_promotions,
            "Promotions by sente.";
        gote_promotions: int = row.gote_promotions,
            "Promotions by gote.";
        sente_checks: int = row.sente_checks,
            "Checks given by sente.";
        gote_checks: int = row.gote_checks,
            "Checks given by gote.";
        sente_time_s: opt_float = row.sente_time_s,
            "Sente's total thinking time in seconds, where the record has times.";
        gote_time_s: opt_float = row.gote_time_s,
            "Gote's total thinking time in seconds, where the record has times.";
        opening_usi: text = &row.opening_usi,
            "The first N plies in USI, space-separated (--opening-plies, default 16).";
        final_sfen: text = &row.final_sfen,
            "Position after the last replayed move.";
        variations: int = row.variations,
            "Variations in the record.";
        comments: int = row.comments,
            "Comments in the record.";
        start_time_precision: text = row.start_time_precision,
            "How much of start_time the record gave.";
        game_key: key = row.game_key,
            "The game key: 32 hex digits, the same for the same game in any format (docs/select.md#the-game-key).";
        terminal_text: text = &row.terminal_text,
            "The terminal word as written when kifu does not know it (reason is then other); empty otherwise.";
        sente_opening: text = &row.sente_opening,
            "The openings sente played, as taxonomy ids (docs/tags.md), most specific first, ';'-separated; empty when none, in handicap games and variants.";
        gote_opening: text = &row.gote_opening,
            "The openings gote played, as taxonomy ids (docs/tags.md), most specific first, ';'-separated; empty when none, in handicap games and variants.";
        sente_castle: text = &row.sente_castle,
            "The castles sente built, as taxonomy ids (docs/tags.md), most specific first, ';'-separated; empty when none and in variants.";
        gote_castle: text = &row.gote_castle,
            "The castles gote built, as taxonomy ids (docs/tags.md), most specific first, ';'-separated; empty when none and in variants.";
        sente_opening_ply: text = &row.sente_opening_ply,
            "The ply at which each of sente_opening was first found, in the same order, ';'-separated.";
        gote_opening_ply: text = &row.gote_opening_ply,
            "The ply at which each of gote_opening was first found, in the same order, ';'-separated.";
        sente_castle_ply: text = &row.sente_castle_ply,
            "The ply at which each of sente_castle was first found, in the same order, ';'-separated.";
        gote_castle_ply: text = &row.gote_castle_ply,
            "The ply at which each of gote_castle was first found, in the same order, ';'-separated.";
        game_style: text = &row.game_style,
            "static (both sides static rook), opposing (one ranging rook) or double_ranging; empty when undecided, in handicap games and variants.";
        opening_header: text = &row.opening_header,
            "The record's own opening header as written (KIF 戦型, CSA $OPENING, PSN [Opening], JKF 戦型).";
        sente_rating: opt_float = row.sente_rating,
            "Sente's rating (floodgate 'black_rate:, a 先手レーティング-style header); empty when the record gives none.";
        gote_rating: opt_float = row.gote_rating,
            "Gote's rating (floodgate 'white_rate:, a 後手レーティング-style header); empty when the record gives none.";
        sente_rank: text = &row.sente_rank,
            "Sente's rank as written (Shogi Wars name[4D] gives 4D; a 段級 header; a name's last word 九段); empty when none.";
        gote_rank: text = &row.gote_rank,
            "Gote's rank as written, as sente_rank; empty when none.";
    }
}

table! {
    /// The moves table (`kifu stats --moves`), one row per move.
    MOVE_COLUMNS: MoveRow = |row| {
        path: text = &row.path,
            "As in the games table.";
        game: int = row.game,
            "As in the games table.";
        ply: int = row.ply,
            "1-based move number.";
        side: text = &row.side,
            "Who moved.";
        usi: text = &row.usi,
            "The move in USI: 7g7f, 8h2b+, P*5e.";
        psn: text = &row.psn,
            "International notation, minimal disambiguation: P-7f, Bx2b+, S5d-5c=.";
        kif: text = &row.kif,
            "Japanese notation: ７六歩(77), 同　銀(31).";
        piece: text = &row.piece,
            "Moving piece before the move, SFEN letter (P, +B).";
        from: text = &row.from,
            "Origin square (USI), empty for drops.";
        to: text = &row.to,
            "Destination square (USI).";
        capture: text = &row.capture,
            "Captured piece (SFEN letter), empty if none.";
        promote: bool = row.promote,
            "The move promotes.";
        drop: bool = row.drop,
            "The move is a drop.";
        check: bool = row.check,
            "The move gives check.";
        time_s: opt_float = row.time_s,
            "Time spent on the move, seconds.";
        cumulative_s: opt_float = row.cumulative_s,
            "Mover's cumulative time after the move, seconds.";
        sfen_before: text = &row.sfen_before,
            "Position before the move (only with --sfen).";
        eval: opt_int = row.eval,
            "Engine score after the move from an evaluation comment (CSA '** N, KIF *#評価値=N), centipawns from sente's point of view; empty when absent or a mate score.";
        pv: text = &row.pv,
            "The engine's principal variation after the move, USI moves separated by spaces, starting with the reply; empty when absent.";
        mate: opt_int = row.mate,
            "A mate score (KIF *#詰み=先手勝ち:N手): plies to mate, positive when sente mates; empty otherwise.";
    }
}

table! {
    /// The names table (`kifu stats --tags`), one row per name found.
    TAG_COLUMNS: TagRow = |row| {
        path: text = &row.path,
            "As in the games table.";
        game: int = row.game,
            "As in the games table.";
        side: text = row.side,
            "sente or gote; empty for the game's style.";
        kind: text = row.kind,
            "opening, castle or style.";
        id: text = &row.id,
            "The taxonomy id (docs/tags.md).";
        ja: text = &row.ja,
            "The Japanese name.";
        ply: opt_int = row.ply,
            "The ply at which it was first found; empty for the style.";
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A cell as the CSV writes it.
    fn text(c: Cell<'_>) -> String {
        match c {
            Cell::Text(s) => s.to_string(),
            Cell::Int(n) => n.map_or(String::new(), |n| n.to_string()),
            Cell::Float(x) => x.map_or(String::new(), |x| ryu::Buffer::new().format(x).into()),
            Cell::Bool(b) => b.to_string(),
            Cell::Key(k) => k.to_string(),
        }
    }

    /// Each column's cells are the fields `write_csv` writes, and the
    /// cell's variant fits the column's type.
    fn agree<R>(table: &[Column<R>], rows: &[R], write: fn(&R, &mut Vec<u8>)) {
        for row in rows {
            let mut line = Vec::new();
            write(row, &mut line);
            let mut r = csv::ReaderBuilder::new()
                .has_headers(false)
                .from_reader(&line[..]);
            let rec = r.records().next().unwrap().unwrap();
            assert_eq!(rec.len(), table.len());
            for (c, field) in table.iter().zip(rec.iter()) {
                let cell = (c.value)(row);
                let fits = match (c.ty, cell) {
                    (ColumnType::Text | ColumnType::Timestamp, Cell::Text(_)) => true,
                    (ColumnType::Text, Cell::Key(_)) => true,
                    (ColumnType::Integer, Cell::Int(n)) => c.nullable || n.is_some(),
                    (ColumnType::Float, Cell::Float(x)) => c.nullable || x.is_some(),
                    (ColumnType::Bool, Cell::Bool(_)) => true,
                    _ => false,
                };
                assert!(fits, "{}: {:?} in a {:?} column", c.name, cell, c.ty);
                assert_eq!(text(cell), field, "{}", c.name);
            }
        }
    }

    #[test]
    fn cells_are_what_the_csv_writes() {
        let game = GameRow {
            path: "a,\"b\".kif".into(),
            game: 7,
            format: "kif",
            start_time: "2024-01-02T10:00:00".into(),
            plies: 99,
            valid: true,
            first_error_ply: Some(3),
            sente_checks: 4,
            sente_time_s: Some(12.5),
            variations: 2,
            game_key: GameKey(0x0123_4567_89ab_cdef),
            sente_opening: "a;b".into(),
            ..GameRow::default()
        };
        agree(
            GAME_COLUMNS,
            &[game, GameRow::default()],
            GameRow::write_csv,
        );
        let mv = MoveRow {
            ply: 5,
            promote: true,
            time_s: Some(0.001),
            eval: Some(-45),
            mate: Some(-7),
            pv: "3c3d 2g2f".into(),
            ..MoveRow::default()
        };
        agree(MOVE_COLUMNS, &[mv, MoveRow::default()], MoveRow::write_csv);
        let tag = TagRow {
            side: "sente",
            kind: "opening",
            ply: Some(12),
            ..TagRow::default()
        };
        agree(TAG_COLUMNS, &[tag, TagRow::default()], TagRow::write_csv);
    }

    #[test]
    fn names_are_the_columns() {
        let names = |t: &[Column<GameRow>]| t.iter().map(|c| c.name).collect::<Vec<_>>();
        assert_eq!(names(GAME_COLUMNS), GameRow::COLUMNS);
        assert_eq!(
            MOVE_COLUMNS.iter().map(|c| c.name).collect::<Vec<_>>(),
            MoveRow::COLUMNS
        );
        assert_eq!(
            TAG_COLUMNS.iter().map(|c| c.name).collect::<Vec<_>>(),
            TagRow::COLUMNS
        );
    }
}
