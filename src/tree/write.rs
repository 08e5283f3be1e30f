//! The tree as JSON Lines, CSV and a text table (docs/tree.md).

use super::node::{MoveView, Name, NodeView};
use crate::diagram::Notation;
use serde::Serialize;
use std::io::{self, Write};

/// A `yyyymmdd` date as `yyyy-mm-dd`.
fn date(d: Option<u32>) -> Option<String> {
    d.map(|d| format!("{:04}-{:02}-{:02}", d / 10_000, d / 100 % 100, d % 100))
}

/// [`date`] for JSON, without an allocation for four-digit years.
#[derive(Clone, Copy)]
struct DateJson(u32);

impl Serialize for DateJson {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let d = self.0;
        let y = d / 10_000;
        if y > 9999 {
            return s.serialize_str(&date(Some(d)).unwrap_or_default());
        }
        let digit = |n: u32| b'0' + (n % 10) as u8;
        let (m, day) = (d / 100 % 100, d % 100);
        let b = [
            digit(y / 1000),
            digit(y / 100),
            digit(y / 10),
            digit(y),
            b'-',
            digit(m / 10),
            digit(m),
            b'-',
            digit(day / 10),
            digit(day),
        ];
        s.serialize_str(std::str::from_utf8(&b).unwrap_or_default())
    }
}

/// A rating rounded to a tenth.
fn rating(r: Option<f64>) -> Option<f64> {
    r.map(|r| (r * 10.0).round() / 10.0)
}

/// One move as [`node_json`] writes it (the fields in docs/tree.md, in
/// order), serialized straight from the view.
#[derive(Serialize)]
struct MoveJson<'a> {
    usi: &'a str,
    ja: &'a str,
    psn: &'a str,
    games: u32,
    sente_wins: u32,
    gote_wins: u32,
    draws: u32,
    other: u32,
    rated: u32,
    rating_avg: Option<f64>,
    rating_best: Option<f64>,
    first_date: Option<DateJson>,
    last_date: Option<DateJson>,
    example: ExampleJson<'a>,
    sfen_after: &'a str,
}

#[derive(Serialize)]
struct ExampleJson<'a> {
    path: &'a str,
    game: u32,
}

/// One node as [`write_jsonl`] writes it.
#[derive(Serialize)]
pub(crate) struct NodeJson<'a> {
    sfen: &'a str,
    ply: u32,
    games: u32,
    name: &'a Option<Name>,
    moves: Vec<MoveJson<'a>>,
}

impl<'a> NodeJson<'a> {
    pub(crate) fn of(n: &'a NodeView) -> NodeJson<'a> {
        NodeJson {
            sfen: &n.sfen,
            ply: n.ply,
            games: n.games,
            name: &n.name,
            moves: n.moves.iter().map(move_json).collect(),
        }
    }
}

fn move_json(m: &MoveView) -> MoveJson<'_> {
    let c = &m.counts;
    MoveJson {
        usi: &m.usi,
        ja: &m.japanese,
        psn: &m.international,
        games: c.games,
        sente_wins: c.sente_wins,
        gote_wins: c.gote_wins,
        draws: c.draws,
        other: c.other,
        rated: c.rated,
        rating_avg: rating(c.rating_avg()),
        rating_best: rating(c.best()),
        first_date: c.first_date.map(DateJson),
        last_date: c.last_date.map(DateJson),
        example: ExampleJson {
            path: &m.example_path,
            game: c.example.game,
        },
        sfen_after: &m.sfen_after,
    }
}

/// JSON Lines: one object per position (fields in docs/tree.md).
pub fn write_jsonl(
    nodes: impl IntoIterator<Item = NodeView>,
    w: &mut impl Write,
) -> io::Result<()> {
    for n in nodes {
        serde_json::to_writer(&mut *w, &NodeJson::of(&n))?;
        w.write_all(b"\n")?;
    }
    Ok(())
}

/// The header row of [`write_csv`].
pub const CSV_HEADER: &[&str] = &[
    "sfen",
    "ply",
    "node_games",
    "name",
    "usi",
    "move",
    "games",
    "sente_wins",
    "gote_wins",
    "draws",
    "other",
    "rated",
    "rating_avg",
    "rating_best",
    "first_date",
    "last_date",
    "example_path",
    "example_game",
];

/// CSV: one row per move of each position (a position without moves: one
/// row with the move columns empty); `notation` for the `move` column.
pub fn write_csv(
    nodes: impl IntoIterator<Item = NodeView>,
    notation: Notation,
    w: &mut impl Write,
) -> io::Result<()> {
    let mut c = Csv(w);
    c.write_record(CSV_HEADER)?;
    let opt = |v: Option<f64>| v.map_or(String::new(), |v| v.to_string());
    for n in nodes {
        let name = n.name.as_ref().map_or("", |x| x.id.as_str());
        let head = [
            n.sfen.clone(),
            n.ply.to_string(),
            n.games.to_string(),
            name.to_string(),
        ];
        if n.moves.is_empty() {
            let mut row: Vec<String> = head.to_vec();
            row.resize(CSV_HEADER.len(), String::new());
            c.write_record(&row)?;
        }
        for m in &n.moves {
            let k = &m.counts;
            let mut row: Vec<String> = head.to_vec();
            row.extend([
                m.usi.clone(),
                shown(m, notation).to_string(),
                k.games.to_string(),
                k.sente_wins.to_string(),
                k.gote_wins.to_string(),
                k.draws.to_string(),
                k.other.to_string(),
                k.rated.to_string(),
                opt(rating(k.rating_avg())),
                opt(rating(k.best())),
                date(k.first_date).unwrap_or_default(),
                date(k.last_date).unwrap_or_default(),
                m.example_path.clone(),
                k.example.game.to_string(),
            ]);
            c.write_record(&row)?;
        }
    }
    c.0.flush()
}

/// RFC 4180 rows: a field with a comma, a quote or a line break is
/// quoted, its quotes doubled.
struct Csv<W>(W);

impl<W: Write> Csv<W> {
    fn write_record<S: AsRef<str>>(&mut self, row: &[S]) -> io::Result<()> {
        let mut line = String::new();
        for (i, f) in row.iter().enumerate() {
            let f = f.as_ref();
            if i > 0 {
                line.push(',');
            }
            if f.contains([',', '"', '\r', '\n']) {
                line.push('"');
                line.push_str(&f.replace('"', "\"\""));
                line.push('"');
            } else {
                line.push_str(f);
            }
        }
        line.push('\n');
        self.0.write_all(line.as_bytes())
    }
}

fn shown(m: &MoveView, notation: Notation) -> &str {
    match notation {
        Notation::Kif => &m.japanese,
        Notation::Psn => &m.international,
    }
}

/// Pads `s` to `width` display columns (Japanese counts two).
fn pad(s: &str, width: usize) -> String {
    let w = crate::display_width(s);
    format!("{s}{}", " ".repeat(width.saturating_sub(w)))
}

fn pct(n: u32, of: u32) -> String {
    if of == 0 {
        "-".into()
    } else {
        format!("{:.1}%", f64::from(n) * 100.0 / f64::from(of))
    }
}

/// A table per position, for a person at a terminal: each move with its
/// games, the share of sente wins, draws and gote wins, other endings,
/// the movers' mean and best ratings, the dates and an example
/// (`path:N`, N 1-based as `kifu select` prints it).
pub fn write_text(
    nodes: impl IntoIterator<Item = NodeView>,
    notation: Notation,
    w: &mut impl Write,
) -> io::Result<()> {
    for n in nodes {
        let name = match (&n.name, notation) {
            (Some(x), Notation::Kif) => format!("  {}", x.ja),
            (Some(x), Notation::Psn) => format!("  {}", x.en),
            (None, _) => String::new(),
        };
        writeln!(w, "ply {}  {}  games {}{name}", n.ply, n.sfen, n.games)?;
        if n.moves.is_empty() {
            writeln!(w)?;
            continue;
        }
        writeln!(
            w,
            "  {} {:>7} {:>7} {:>7} {:>7} {:>6} {:>7} {:>7}  {:<10} {:<10}  example",
            pad("move", 12),
            "games",
            "sente",
            "draw",
            "gote",
            "other",
            "rating",
            "best",
            "first",
            "last"
        )?;
        for m in &n.moves {
            let k = &m.counts;
            let r = |v: Option<f64>| v.map_or("-".to_string(), |v| format!("{v:.0}"));
            writeln!(
                w,
                "  {} {:>7} {:>7} {:>7} {:>7} {:>6} {:>7} {:>7}  {:<10} {:<10}  {}:{}",
                pad(shown(m, notation), 12),
                k.games,
                pct(k.sente_wins, k.games),
                pct(k.draws, k.games),
                pct(k.gote_wins, k.games),
                k.other,
                r(k.rating_avg()),
                r(k.best()),
                date(k.first_date).unwrap_or_else(|| "-".into()),
                date(k.last_date).unwrap_or_else(|| "-".into()),
                m.example_path,
                k.example.game + 1
            )?;
        }
        writeln!(w)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The JSON dates are written as the text dates are, any year.
    #[test]
    fn json_dates_match_the_text_dates() {
        for d in [0, 101, 20_240_202, 99_991_231, 100_000_101, u32::MAX] {
            let json = serde_json::to_string(&DateJson(d)).unwrap();
            assert_eq!(json, format!("\"{}\"", date(Some(d)).unwrap()), "{d}");
        }
    }
}
