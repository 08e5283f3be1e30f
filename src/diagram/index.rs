//! The index page of a collection (`kifu html --out-dir`'s `index.html`):
//! every game in one table that sorts by a click on a column header,
//! filters by a text box and by result, and shows one page of rows at a
//! time, so that 100,000 games stay responsive.
//!
//! The page is self-contained (no network). Its rows are embedded as one
//! JSON array per game, escaped for a `<script>` element (a player named
//! `</script>` cannot close it); the script writes every text with
//! `textContent`-safe escaping.
//!
//! [`Index`] keeps only the rows' JSON, never the records: about 150
//! bytes a game.
//!
//! ```
//! use kifu::diagram::index::{Index, IndexOptions, IndexRow};
//!
//! let mut index = Index::new();
//! index.push(&IndexRow {
//!     href: "a.html".into(),
//!     sente: "</script><b>".into(),
//!     plies: 3,
//!     result: "sente_win".into(),
//!     ..IndexRow::default()
//! });
//! let mut page = Vec::new();
//! index.write(&IndexOptions::default(), &mut page).unwrap();
//! let page = String::from_utf8(page).unwrap();
//! assert_eq!(page.matches("</script>").count(), 3);
//! assert!(page.contains("\\u003c/script\\u003e\\u003cb\\u003e"));
//! ```

use super::html::{esc, script_safe_json};
use super::Notation;
use crate::stats::GameRow;
use crate::tags::Taxonomy;
use serde::Serialize;
use std::io::{self, Write};

/// One game of the index: what its row shows.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct IndexRow {
    /// The game's page, relative to the index (a URL path, percent-encoded).
    pub href: String,
    /// Sente's player.
    pub sente: String,
    /// Gote's player.
    pub gote: String,
    /// Sente's rating, where the record gives one.
    pub sente_rating: Option<f64>,
    /// Gote's rating.
    pub gote_rating: Option<f64>,
    /// Sente's rank as written (`4D`, `三段`).
    pub sente_rank: String,
    /// Gote's rank.
    pub gote_rank: String,
    /// The date: ISO 8601 when parsed, else as written.
    pub date: String,
    /// Event.
    pub event: String,
    /// `sente_win`, `gote_win`, `draw`, `aborted` or `unknown` (as
    /// `kifu stats`).
    pub result: String,
    /// Termination reason (`resign`, `checkmate`, …).
    pub reason: String,
    /// Main-line plies.
    pub plies: u32,
    /// Sente's opening (the most specific name found).
    pub sente_opening: String,
    /// Sente's castle.
    pub sente_castle: String,
    /// Gote's opening.
    pub gote_opening: String,
    /// Gote's castle.
    pub gote_castle: String,
}

/// The display name of the first (most specific) taxonomy id of a
/// `;`-separated list, in the notation's language.
fn first_name(ids: &str, tax: &Taxonomy, notation: Notation) -> String {
    let Some(id) = ids.split(';').find(|s| !s.is_empty()) else {
        return String::new();
    };
    match tax.by_id(id).map(|t| tax.get(t)) {
        Some(e) if notation == Notation::Psn => e.en.clone(),
        Some(e) => e.ja.clone(),
        None => id.to_string(),
    }
}

impl IndexRow {
    /// The row of a game from its `kifu stats` row (names from the
    /// built-in taxonomy, in the language of `notation`), linking to
    /// `href`.
    pub fn from_game_row(row: &GameRow, href: String, notation: Notation) -> IndexRow {
        let tax = Taxonomy::builtin();
        let name = |ids: &str| first_name(ids, tax, notation);
        IndexRow {
            href,
            sente: row.sente.clone(),
            gote: row.gote.clone(),
            sente_rating: row.sente_rating,
            gote_rating: row.gote_rating,
            sente_rank: row.sente_rank.clone(),
            gote_rank: row.gote_rank.clone(),
            date: if row.start_time.is_empty() {
                row.start_time_raw.clone()
            } else {
                row.start_time.clone()
            },
            event: row.event.clone(),
            result: row.result.to_string(),
            reason: row.reason.clone(),
            plies: row.plies,
            sente_opening: name(&row.sente_opening),
            sente_castle: name(&row.sente_castle),
            gote_opening: name(&row.gote_opening),
            gote_castle: name(&row.gote_castle),
        }
    }
}

/// How the index page looks.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct IndexOptions {
    /// Language of the labels (KIF: Japanese, PSN: English).
    pub notation: Notation,
    /// The page's title (empty: "kifu games").
    pub title: String,
    /// The opening explorer's page, relative to the index, when one was
    /// written beside it: the index links to it.
    pub explorer: Option<String>,
    /// Rows shown at a time (0: 100).
    pub page_size: usize,
}

/// The rows of an index as they are added: their JSON only.
#[derive(Clone, Debug, Default)]
pub struct Index {
    json: String,
    rows: usize,
}

impl Index {
    /// An empty index.
    pub fn new() -> Index {
        Index::default()
    }

    /// Adds a game (its row in the order added: the table's first order).
    pub fn push(&mut self, row: &IndexRow) {
        let cells = serde_json::json!([
            row.href,
            row.sente,
            row.gote,
            row.sente_rating,
            row.gote_rating,
            row.sente_rank,
            row.gote_rank,
            row.date,
            row.event,
            row.result,
            row.reason,
            row.plies,
            row.sente_opening,
            row.sente_castle,
            row.gote_opening,
            row.gote_castle,
        ]);
        self.json.push(if self.rows == 0 { '[' } else { ',' });
        self.json.push_str(&script_safe_json(&cells.to_string()));
        self.rows += 1;
    }

    /// Games added.
    pub fn len(&self) -> usize {
        self.rows
    }

    /// Whether no game was added.
    pub fn is_empty(&self) -> bool {
        self.rows == 0
    }

    /// Writes the page.
    pub fn write<W: Write>(&self, opts: &IndexOptions, mut out: W) -> io::Result<()> {
        let ja = opts.notation == Notation::Kif;
        let labels = if ja { &LABELS_JA } else { &LABELS_EN };
        let title = if opts.title.is_empty() {
            labels.title
        } else {
            &opts.title
        };
        let config = serde_json::json!({
            "page": if opts.page_size == 0 { 100 } else { opts.page_size },
            "labels": labels,
        });
        write!(
            out,
            "<!DOCTYPE html>\n<html lang=\"{}\">\n<head>\n<meta charset=\"utf-8\">\n\
<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
<meta name=\"generator\" content=\"kifu {}\">\n<title>{}</title>\n<style>\n{CSS}</style>\n</head>\n<body>\n\
<header class=\"kifu-index-header\">\n<h1>{}</h1>\n",
            if ja { "ja" } else { "en" },
            env!("CARGO_PKG_VERSION"),
            esc(title),
            esc(title)
        )?;
        if let Some(href) = &opts.explorer {
            writeln!(
                out,
                "<p><a id=\"explorer\" href=\"{}\">{}</a></p>",
                esc(href),
                labels.explorer
            )?;
        }
        write!(
            out,
            "<form class=\"kifu-filter\" onsubmit=\"return false\">\
<input type=\"search\" id=\"filter\" placeholder=\"{}\" aria-label=\"{}\">\
<select id=\"result-filter\" aria-label=\"{}\"><option value=\"\">{}</option>\
<option value=\"sente_win\">{}</option><option value=\"gote_win\">{}</option>\
<option value=\"draw\">{}</option><option value=\"other\">{}</option></select>\
<span id=\"count\" aria-live=\"polite\"></span></form>\n</header>\n\
<table id=\"games\" class=\"kifu-games\"><thead><tr></tr></thead><tbody></tbody></table>\n\
<nav class=\"kifu-pager\"><button type=\"button\" id=\"prev-page\">◀</button>\
<span id=\"page\"></span><button type=\"button\" id=\"next-page\">▶</button></nav>\n",
            labels.filter,
            labels.filter,
            labels.result,
            labels.all,
            labels.results[0],
            labels.results[1],
            labels.results[2],
            labels.other,
        )?;
        write!(
            out,
            "<script type=\"application/json\" id=\"kifu-config\">{}</script>\n\
<script type=\"application/json\" id=\"kifu-rows\">",
            script_safe_json(&config.to_string())
        )?;
        if self.rows == 0 {
            out.write_all(b"[")?;
        }
        out.write_all(self.json.as_bytes())?;
        write!(
            out,
            "]</script>\n<script>\n{SCRIPT}</script>\n</body>\n</html>\n"
        )
    }
}

#[derive(Serialize)]
struct Labels {
    title: &'static str,
    explorer: &'static str,
    filter: &'static str,
    all: &'static str,
    other: &'static str,
    result: &'static str,
    /// Sente wins, gote wins, draw, aborted, unknown.
    results: [&'static str; 5],
    /// The column headers.
    columns: [&'static str; 14],
    /// `{from}–{to} / {n}`.
    count: &'static str,
}

const LABELS_JA: Labels = Labels {
    title: "棋譜一覧",
    explorer: "戦型エクスプローラー (Opening explorer)",
    filter: "絞り込み",
    all: "すべての結果",
    other: "その他",
    result: "結果",
    results: ["先手勝ち", "後手勝ち", "引き分け", "中断", "不明"],
    columns: [
        "#",
        "先手",
        "段級・R",
        "後手",
        "段級・R",
        "日時",
        "棋戦",
        "結果",
        "理由",
        "手数",
        "先手戦型",
        "先手囲い",
        "後手戦型",
        "後手囲い",
    ],
    count: "{n}局中 {from}–{to}",
};

const LABELS_EN: Labels = Labels {
    title: "kifu games",
    explorer: "Opening explorer",
    filter: "Filter",
    all: "All results",
    other: "Other",
    result: "Result",
    results: ["Sente wins", "Gote wins", "Draw", "Aborted", "Unknown"],
    columns: [
        "#",
        "Sente",
        "Rating",
        "Gote",
        "Rating",
        "Date",
        "Event",
        "Result",
        "Reason",
        "Plies",
        "Sente opening",
        "Sente castle",
        "Gote opening",
        "Gote castle",
    ],
    count: "{from}–{to} of {n}",
};

const CSS: &str = include_str!("index.css");
const SCRIPT: &str = include_str!("index.js");

#[cfg(test)]
mod tests {
    use super::*;

    fn rows_of(page: &str) -> serde_json::Value {
        let start = page.find("id=\"kifu-rows\">").unwrap() + "id=\"kifu-rows\">".len();
        let end = start + page[start..].find("</script>").unwrap();
        serde_json::from_str(&page[start..end]).unwrap()
    }

    #[test]
    fn hostile_names_stay_data() {
        let mut index = Index::new();
        let row = IndexRow {
            href: "x%20y.html".into(),
            sente: "</script><script>alert(1)</script>".into(),
            gote: "a\u{2028}b\u{2029}c<!--".into(),
            event: "&amp;".into(),
            sente_rating: Some(1850.0),
            plies: 7,
            ..IndexRow::default()
        };
        index.push(&row);
        index.push(&IndexRow::default());
        let mut out = Vec::new();
        let opts = IndexOptions {
            title: "<b>".into(),
            explorer: Some("explorer.html".into()),
            ..IndexOptions::default()
        };
        index.write(&opts, &mut out).unwrap();
        let page = String::from_utf8(out).unwrap();
        assert_eq!(page.matches("</script>").count(), 3);
        assert!(!page.contains('\u{2028}') && !page.contains("<!--"));
        assert!(page.contains("<title>&lt;b&gt;</title>"));
        assert!(page.contains("href=\"explorer.html\""));
        let rows = rows_of(&page);
        assert_eq!(rows.as_array().unwrap().len(), 2);
        assert_eq!(rows[0][1], "</script><script>alert(1)</script>");
        assert_eq!(rows[0][2], "a\u{2028}b\u{2029}c<!--");
        assert_eq!(rows[0][3], 1850.0);
        assert_eq!(rows[0][11], 7);
    }

    #[test]
    fn empty_index_and_no_explorer() {
        let mut out = Vec::new();
        Index::new()
            .write(&IndexOptions::default(), &mut out)
            .unwrap();
        let page = String::from_utf8(out).unwrap();
        assert_eq!(rows_of(&page), serde_json::json!([]));
        assert!(!page.contains("id=\"explorer\""));
    }

    #[test]
    fn names_come_from_the_taxonomy() {
        let row = GameRow {
            sente_opening: "fourth_file_rook".into(),
            gote_castle: "no_such_id;mino".into(),
            start_time_raw: "昭和".into(),
            result: "draw",
            ..GameRow::default()
        };
        let r = IndexRow::from_game_row(&row, "a.html".into(), Notation::Kif);
        assert_eq!(r.sente_opening, "四間飛車");
        assert_eq!(r.gote_castle, "no_such_id");
        assert_eq!(r.date, "昭和");
        let r = IndexRow::from_game_row(&row, "a.html".into(), Notation::Psn);
        assert_eq!(r.sente_opening, "Fourth File Rook");
    }
}
