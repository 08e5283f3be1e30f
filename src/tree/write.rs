//! The tree as JSON Lines, CSV and a text table (docs/tree.md).

use super::node::{MoveView, NodeView};
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

/// One move as serde would write it (the fields in docs/tree.md, in
/// order): the reference [`node_json`] is tested against.
#[cfg(test)]
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

#[cfg(test)]
#[derive(Serialize)]
struct ExampleJson<'a> {
    path: &'a str,
    game: u32,
}

/// One node as [`write_jsonl`] writes it.
#[cfg(test)]
#[derive(Serialize)]
pub(crate) struct NodeJson<'a> {
    sfen: &'a str,
    ply: u32,
    games: u32,
    name: &'a Option<super::node::Name>,
    moves: Vec<MoveJson<'a>>,
}

#[cfg(test)]
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

#[cfg(test)]
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
    let mut buf = Vec::with_capacity(1 << 12);
    for n in nodes {
        buf.clear();
        node_json(&n, &mut buf);
        buf.push(b'\n');
        w.write_all(&buf)?;
    }
    Ok(())
}

/// A JSON string as serde_json writes it: the text as is when nothing in
/// it needs escaping (SFENs, moves, most paths), else serde_json's
/// escapes.
fn json_str(s: &str, out: &mut Vec<u8>) {
    if !needs_escape(s.as_bytes()) {
        out.push(b'"');
        out.extend_from_slice(s.as_bytes());
        out.push(b'"');
    } else {
        // Writing to a Vec cannot fail.
        let _ = serde_json::to_writer(&mut *out, s);
    }
}

/// Whether a byte of `b` is a control character, `"` or `\\` (eight
/// bytes at a time: the usual "has a zero byte" and "has a byte less
/// than n" tests, exact for n ≤ 128; bytes of UTF-8 sequences, ≥ 0x80,
/// never match).
fn needs_escape(b: &[u8]) -> bool {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let zero = |v: u64| v.wrapping_sub(ONES) & !v & HIGH != 0;
    let mut chunks = b.chunks_exact(8);
    for c in &mut chunks {
        let x = u64::from_le_bytes(c.try_into().unwrap_or([0; 8]));
        let control = x.wrapping_sub(ONES * 0x20) & !x & HIGH != 0;
        if control || zero(x ^ (ONES * u64::from(b'"'))) || zero(x ^ (ONES * u64::from(b'\\'))) {
            return true;
        }
    }
    chunks
        .remainder()
        .iter()
        .any(|&c| c < 0x20 || c == b'"' || c == b'\\')
}

/// An unsigned integer in JSON.
fn json_u32(n: u32, out: &mut Vec<u8>) {
    out.extend_from_slice(itoa::Buffer::new().format(n).as_bytes());
}

/// A number or `null`, as serde_json writes an `Option<f64>` (by
/// serde_json: its exponents are its own).
fn json_f64(v: Option<f64>, out: &mut Vec<u8>) {
    // Writing to a Vec cannot fail.
    let _ = serde_json::to_writer(&mut *out, &v);
}

/// A date or `null`.
fn json_date(d: Option<u32>, out: &mut Vec<u8>) {
    match d {
        // Writing to a Vec cannot fail.
        Some(d) => {
            let _ = serde_json::to_writer(&mut *out, &DateJson(d));
        }
        None => out.extend_from_slice(b"null"),
    }
}

/// One node's JSON object (the bytes `serde_json::to_writer` makes of
/// [`NodeJson`], written directly: the tree's output is most of its
/// cost).
pub(crate) fn node_json(n: &NodeView, out: &mut Vec<u8>) {
    out.extend_from_slice(b"{\"sfen\":");
    json_str(&n.sfen, out);
    out.extend_from_slice(b",\"ply\":");
    json_u32(n.ply, out);
    out.extend_from_slice(b",\"games\":");
    json_u32(n.games, out);
    out.extend_from_slice(b",\"name\":");
    match &n.name {
        None => out.extend_from_slice(b"null"),
        Some(x) => {
            out.extend_from_slice(b"{\"id\":");
            json_str(&x.id, out);
            out.extend_from_slice(b",\"ja\":");
            json_str(&x.ja, out);
            out.extend_from_slice(b",\"en\":");
            json_str(&x.en, out);
            out.extend_from_slice(b",\"games\":");
            json_u32(x.games, out);
            out.push(b'}');
        }
    }
    out.extend_from_slice(b",\"moves\":[");
    for (i, m) in n.moves.iter().enumerate() {
        if i > 0 {
            out.push(b',');
        }
        let c = &m.counts;
        out.extend_from_slice(b"{\"usi\":");
        json_str(&m.usi, out);
        out.extend_from_slice(b",\"ja\":");
        json_str(&m.japanese, out);
        out.extend_from_slice(b",\"psn\":");
        json_str(&m.international, out);
        for (k, v) in [
            (&b",\"games\":"[..], c.games),
            (b",\"sente_wins\":", c.sente_wins),
            (b",\"gote_wins\":", c.gote_wins),
            (b",\"draws\":", c.draws),
            (b",\"other\":", c.other),
            (b",\"rated\":", c.rated),
        ] {
            out.extend_from_slice(k);
            json_u32(v, out);
        }
        out.extend_from_slice(b",\"rating_avg\":");
        json_f64(rating(c.rating_avg()), out);
        out.extend_from_slice(b",\"rating_best\":");
        json_f64(rating(c.best()), out);
        out.extend_from_slice(b",\"first_date\":");
        json_date(c.first_date, out);
        out.extend_from_slice(b",\"last_date\":");
        json_date(c.last_date, out);
        out.extend_from_slice(b",\"example\":{\"path\":");
        json_str(&m.example_path, out);
        out.extend_from_slice(b",\"game\":");
        json_u32(c.example.game, out);
        out.extend_from_slice(b"},\"sfen_after\":");
        json_str(&m.sfen_after, out);
        out.push(b'}');
    }
    out.extend_from_slice(b"]}");
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
    use crate::tree::{Counts, Example, Name};

    /// The hand-written JSON is serde_json's, byte for byte, strings that
    /// need escapes, missing values and odd numbers included.
    #[test]
    fn node_json_is_serde_json() {
        let counts = |games, rated, sum: f64, best: f64, d: Option<u32>| Counts {
            games,
            sente_wins: 1,
            gote_wins: 0,
            draws: 0,
            other: games - 1,
            rated,
            rating_sum: sum,
            rating_best: best,
            first_date: d,
            last_date: d.map(|d| d + 1),
            example: Example { source: 0, game: 7 },
        };
        let mv = |path: &str, c: Counts| MoveView {
            usi: "7g7f".into(),
            japanese: "▲７六歩".into(),
            international: "P-7f".into(),
            sfen_after: "lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w -".into(),
            counts: c,
            example_path: path.into(),
        };
        let nodes = [
            NodeView {
                sfen: "9/9/9/9/9/9/9/9/9 b -".into(),
                ply: 0,
                games: 0,
                name: None,
                moves: vec![],
            },
            NodeView {
                sfen: "a\"b\\c\u{1}\n".into(),
                ply: 3,
                games: u32::MAX,
                name: Some(Name {
                    id: "fourth_file_rook".into(),
                    ja: "四間飛車".into(),
                    en: "Fourth \"File\" Rook".into(),
                    games: 2,
                }),
                moves: vec![
                    mv(
                        "db/a b,c.kif",
                        counts(3, 2, 3001.25, 1700.04, Some(20_240_102)),
                    ),
                    mv("tab\there\\x", counts(5, 0, 0.0, 0.0, None)),
                    mv("big", counts(9, 1, 1e300, 1e300, Some(100_000_101))),
                    mv("tiny", counts(9, 3, 1e-7, 3.3e-9, Some(0))),
                    mv("nan", counts(9, 1, f64::NAN, f64::INFINITY, None)),
                ],
            },
        ];
        for n in &nodes {
            let mut mine = Vec::new();
            node_json(n, &mut mine);
            let theirs = serde_json::to_vec(&NodeJson::of(n)).unwrap();
            assert_eq!(
                String::from_utf8(mine).unwrap(),
                String::from_utf8(theirs).unwrap()
            );
        }
    }

    /// The escape test finds every byte that needs an escape, wherever
    /// it is, and no other.
    #[test]
    fn escapes_are_found_anywhere() {
        let base = "lnsgkgsnl/1r5b1/ppppppppp/9/9/▲７六歩 é";
        assert!(!needs_escape(base.as_bytes()));
        for c in (0u8..0x20).chain([b'"', b'\\']) {
            for at in 0..base.len() {
                let mut v = base.as_bytes().to_vec();
                v.insert(at, c);
                assert!(needs_escape(&v), "{c} at {at}");
            }
        }
        for c in (0x20u8..0x80).filter(|&c| c != b'"' && c != b'\\') {
            assert!(!needs_escape(&[c; 17]), "{c}");
        }
    }

    /// The JSON dates are written as the text dates are, any year.
    #[test]
    fn json_dates_match_the_text_dates() {
        for d in [0, 101, 20_240_202, 99_991_231, 100_000_101, u32::MAX] {
            let json = serde_json::to_string(&DateJson(d)).unwrap();
            assert_eq!(json, format!("\"{}\"", date(Some(d)).unwrap()), "{d}");
        }
    }
}
