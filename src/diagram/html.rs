//! A self-contained HTML page that replays a game: board and hands drawn
//! like [`super::svg()`], the move list, comments, times, variations.
//!
//! The page needs no network: its CSS, its script and the game are inline.
//! kifu computes everything that needs the rules (the position after every
//! move of every line, as SFEN, and the move texts) and embeds the game
//! tree as JSON; the script only draws SFENs, so the page and kifu cannot
//! disagree on a position. The displayed position is exposed as
//! `data-sfen` on the `#board` element (and on its `svg`).
//!
//! In the page: ◀ ▶ and the arrow keys step, Home/End (and |◀ ▶|) jump,
//! ↑ ↓ switch between the alternatives of the current move, a click on a
//! move goes there, `f` (or ⇅) flips the board, and `#ply=N` in the URL
//! opens the main line after N moves (`#node=K` any node).

use super::svg::{Geometry, HAND_ORDER};
use super::{glyph, move_squares, rank_label, Coords, Notation, Options};
use crate::japanese;
use crate::record::{HeaderKey, Line, MoveTime, Outcome, Record, Terminal};
use crate::rules::color::Color;
use crate::rules::moves::Move;
use crate::rules::position::Position;
use crate::rules::role::Role;
use crate::rules::square::Square;
use serde::Serialize;
use std::fmt;
use std::fmt::Write as _;

/// How the page looks.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct HtmlOptions {
    /// Notation of the move list, and language of the labels (KIF:
    /// Japanese, PSN: English).
    pub notation: Notation,
    /// Coordinate labels around the board.
    pub coords: Coords,
    /// Open with the board seen from gote's side.
    pub flip: bool,
    /// Show each side's opening and castle (the most specific names the
    /// built-in taxonomy finds, docs/tags.md) with the ply each was found.
    pub names: bool,
}

/// Why a record could not be turned into a page: a move that cannot be
/// played (validate the record first to learn more).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HtmlError {
    /// Moves played from the start before the bad one (in its line).
    pub ply: u32,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for HtmlError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "move {}: {}", self.ply, self.message)
    }
}

impl std::error::Error for HtmlError {}

/// One position of the game tree, as the page's script reads it.
#[derive(Serialize)]
struct NodeData {
    /// Parent node (-1 for the start).
    p: i64,
    /// Children; the first continues the line, the others are alternatives.
    c: Vec<usize>,
    /// Moves from the start.
    d: u32,
    /// Move number as the record numbers it.
    n: u32,
    /// Move text (empty for the start).
    m: String,
    /// SFEN after the move.
    s: String,
    /// Last move squares (`77`), origin first (none for a drop).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    l: Vec<String>,
    /// Comments.
    #[serde(skip_serializing_if = "String::is_empty")]
    x: String,
    /// Time (`0:12 / 0:05:31`).
    #[serde(skip_serializing_if = "String::is_empty")]
    t: String,
    /// How the line ends after this node (`投了`), if it does.
    #[serde(skip_serializing_if = "String::is_empty")]
    e: String,
}

#[derive(Serialize)]
struct PageData<'a> {
    variant: &'a str,
    font: &'static str,
    geo: Geometry,
    /// SFEN token (`P`, `+P`, doubutsu `C`…) → [sente glyph, gote glyph, promoted].
    glyphs: serde_json::Map<String, serde_json::Value>,
    hand_order: Vec<&'static str>,
    files: Vec<String>,
    ranks: Vec<String>,
    flip: bool,
    labels: &'a Labels,
    nodes: Vec<NodeData>,
    /// The main line's evaluations: `[ply, score, mate]` (a score from
    /// sente's view in centipawns; a mate as plies to mate, signed).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    ev: Vec<(u32, i64, bool)>,
}

#[derive(Serialize)]
struct Labels {
    start: &'static str,
    end: &'static str,
    alternatives: &'static str,
    back: &'static str,
    time: &'static str,
    mover: [&'static str; 2],
}

const LABELS_JA: Labels = Labels {
    start: "開始局面",
    end: "終局",
    alternatives: "変化",
    back: "本譜に戻る",
    time: "消費時間",
    mover: ["▲", "△"],
};

const LABELS_EN: Labels = Labels {
    start: "Start",
    end: "End",
    alternatives: "Alternatives",
    back: "Back to main line",
    time: "Time",
    mover: ["☗", "☖"],
};

const CSS: &str = include_str!("viewer.css");
const SCRIPT: &str = include_str!("viewer.js");

struct Builder<'a> {
    notation: Notation,
    labels: &'a Labels,
    nodes: Vec<NodeData>,
}

fn time_text(t: &MoveTime) -> String {
    let mut s = String::new();
    if let Some(ms) = t.spent_ms {
        let sec = ms / 1000;
        let _ = write!(s, "{}:{:02}", sec / 60, sec % 60);
    }
    if let Some(ms) = t.total_ms {
        let sec = ms / 1000;
        if !s.is_empty() {
            s.push_str(" / ");
        }
        let _ = write!(s, "{}:{:02}:{:02}", sec / 3600, (sec / 60) % 60, sec % 60);
    }
    s
}

fn terminal_text(t: &Terminal, to_move: Color, notation: Notation) -> String {
    match notation {
        Notation::Kif => crate::kif::writer::terminal_word(&t.kind, to_move)
            .0
            .to_string(),
        Notation::Psn => t.kind.reason().to_string(),
    }
}

impl Builder<'_> {
    fn push(&mut self, node: NodeData) -> usize {
        let id = self.nodes.len();
        if node.p >= 0 {
            self.nodes[node.p as usize].c.push(id);
        }
        self.nodes.push(node);
        id
    }

    /// Adds the moves of `line` below `parent` (whose position is `pos`).
    fn line(
        &mut self,
        line: &Line,
        parent: usize,
        mut pos: Position,
        mut prev_to: Option<Square>,
        depth: u32,
    ) -> Result<(), HtmlError> {
        let mut parent = parent;
        for (i, node) in line.moves.iter().enumerate() {
            let d = depth + i as u32;
            let before = pos;
            let prev_before = prev_to;
            let id = self.play(parent, &mut pos, node.mv, prev_to, d, &node.time)?;
            self.nodes[id].x = node.comments.join("\n");
            for v in &node.variations {
                self.line(v, parent, before, prev_before, d)?;
            }
            prev_to = Some(node.mv.to());
            parent = id;
        }
        if let Some(t) = &line.terminal {
            let n = &mut self.nodes[parent];
            n.e = terminal_text(t, pos.turn(), self.notation);
            let tt = time_text(&t.time);
            if !t.comments.is_empty() || !tt.is_empty() {
                let mut extra = format!("{} {}", self.labels.end, n.e);
                if !tt.is_empty() {
                    let _ = write!(extra, " ({tt})");
                }
                for c in &t.comments {
                    extra.push('\n');
                    extra.push_str(c);
                }
                if !n.x.is_empty() {
                    n.x.push('\n');
                }
                n.x.push_str(&extra);
            }
        }
        Ok(())
    }

    fn play(
        &mut self,
        parent: usize,
        pos: &mut Position,
        mv: Move,
        prev_to: Option<Square>,
        depth: u32,
        time: &MoveTime,
    ) -> Result<usize, HtmlError> {
        let text = match self.notation {
            Notation::Kif => {
                let mut s = String::from(self.labels.mover[pos.turn().index()]);
                if !crate::kif::push_move_text(pos, mv, prev_to, None, &mut s) {
                    return Err(HtmlError {
                        ply: depth + 1,
                        message: format!("no piece to move for {}", mv.usi(pos.variant())),
                    });
                }
                s
            }
            Notation::Psn => super::move_text(pos, mv, prev_to, Notation::Psn),
        };
        let n = pos.ply();
        pos.play(mv).map_err(|e| HtmlError {
            ply: depth + 1,
            message: format!("{} is illegal: {e}", mv.usi(pos.variant())),
        })?;
        let (from, to) = move_squares(mv);
        let sq = |s: Square| format!("{}{}", s.file(), s.rank());
        Ok(self.push(NodeData {
            p: parent as i64,
            c: Vec::new(),
            d: depth + 1,
            n,
            m: text,
            s: pos.sfen(),
            l: from.map(sq).into_iter().chain(Some(sq(to))).collect(),
            x: String::new(),
            t: time_text(time),
            e: String::new(),
        }))
    }
}

/// Escapes JSON for a `<script>` element: no `<`, `>` or `&` (so no
/// `</script>` or `<!--`), and no U+2028/U+2029.
pub(super) fn script_safe_json(json: &str) -> String {
    let mut out = String::with_capacity(json.len() + 64);
    for c in json.chars() {
        match c {
            '<' => out.push_str("\\u003c"),
            '>' => out.push_str("\\u003e"),
            '&' => out.push_str("\\u0026"),
            '\u{2028}' => out.push_str("\\u2028"),
            '\u{2029}' => out.push_str("\\u2029"),
            c => out.push(c),
        }
    }
    out
}

pub(super) fn esc(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    super::escape_xml(s, &mut out);
    out
}

/// Each side's opening and castle in the header: the most specific name
/// of each kind with the ply it was found (`四間飛車 (4手目)`), as
/// `<div class="names" data-color="b">`.
fn names_html(o: &mut String, record: &Record, notation: Notation) {
    let tax = crate::tags::Taxonomy::builtin();
    let view = crate::tags::NamesView::new(&crate::tags::tag_record(record, tax), tax);
    for (mark, color, side) in [("☗", "b", &view.sente), ("☖", "w", &view.gote)] {
        let name = |list: &[crate::tags::NameView]| {
            list.first().map(|n| {
                let ply = n.ply.unwrap_or(0);
                match notation {
                    Notation::Kif => format!("{} ({ply}手目)", n.ja),
                    Notation::Psn => format!("{} (move {ply})", n.en),
                }
            })
        };
        let parts: Vec<String> = [
            (name(&side.opening), ["戦型", "Opening"]),
            (name(&side.castle), ["囲い", "Castle"]),
        ]
        .into_iter()
        .filter_map(|(n, label)| {
            let label = label[usize::from(notation == Notation::Psn)];
            n.map(|n| format!("{label}: {}", esc(&n)))
        })
        .collect();
        if parts.is_empty() {
            continue;
        }
        let _ = writeln!(
            o,
            "<div class=\"names\" data-color=\"{color}\"><dt>{mark}</dt><dd>{}</dd></div>",
            parts.join(" / ")
        );
    }
}

/// The result line of the header.
fn result_text(record: &Record, notation: Notation) -> Option<String> {
    let report = crate::validate::validate_record(record, 0, &[], &Default::default());
    if notation == Notation::Kif {
        let plies = report.plies + record.start.setup.ply.max(1) - 1;
        let to_move = crate::rules::sfen::parse_sfen(&report.final_sfen, Some(record.variant()))
            .map_or(Color::Black, |s| s.turn);
        // A recorded foul: its player (the side to move before it).
        let fouler = report
            .findings
            .iter()
            .find(|f| f.rule == crate::read::Rule::Foul)
            .and_then(|f| f.sfen.as_deref())
            .and_then(|s| crate::rules::sfen::parse_sfen(s, Some(record.variant())).ok())
            .map(|s| s.turn);
        if let Some(s) = crate::kif::writer::summary_line(
            record,
            true,
            plies,
            record.main.terminal.as_ref(),
            to_move,
            fouler,
            &mut 0,
        ) {
            return Some(s);
        }
    }
    let r = report.result;
    let handicap = crate::kif::writer::is_handicap(record);
    let who = |c: Color| match notation {
        Notation::Kif => japanese::side_name(c, handicap).to_string(),
        Notation::Psn => match (c, handicap) {
            (Color::Black, false) => "Sente".to_string(),
            (Color::White, false) => "Gote".to_string(),
            (Color::Black, true) => "Shitate".to_string(),
            (Color::White, true) => "Uwate".to_string(),
        },
    };
    let main = match (r.outcome, notation) {
        (Outcome::SenteWin, Notation::Kif) => format!("{}の勝ち", who(Color::Black)),
        (Outcome::GoteWin, Notation::Kif) => format!("{}の勝ち", who(Color::White)),
        (Outcome::Draw, Notation::Kif) => "引き分け".to_string(),
        (Outcome::Aborted, Notation::Kif) => "中断".to_string(),
        (Outcome::SenteWin, Notation::Psn) => format!("{} wins", who(Color::Black)),
        (Outcome::GoteWin, Notation::Psn) => format!("{} wins", who(Color::White)),
        (Outcome::Draw, Notation::Psn) => "Draw".to_string(),
        (Outcome::Aborted, Notation::Psn) => "Aborted".to_string(),
        (Outcome::Unknown, _) => return None,
    };
    Some(match r.reason {
        Some(reason) => format!("{main} ({reason})"),
        None => main,
    })
}

fn header_label(key: &HeaderKey, notation: Notation, handicap: bool) -> String {
    match notation {
        Notation::Kif => japanese::header_key_name(key, handicap).to_string(),
        Notation::Psn => match key {
            HeaderKey::Sente => "Sente".to_string(),
            HeaderKey::Gote => "Gote".to_string(),
            HeaderKey::Event => "Event".to_string(),
            HeaderKey::Site => "Site".to_string(),
            HeaderKey::StartTime => "Date".to_string(),
            HeaderKey::EndTime => "End".to_string(),
            HeaderKey::TimeControl => "Time control".to_string(),
            HeaderKey::Opening => "Opening".to_string(),
            HeaderKey::Title => "Title".to_string(),
            HeaderKey::Other(k) => k.clone(),
        },
    }
}

/// The page for one game. Fails only when a move cannot be played (an
/// illegal record: validate first).
pub fn html(record: &Record, opts: &HtmlOptions) -> Result<String, HtmlError> {
    let variant = record.variant();
    let labels = match opts.notation {
        Notation::Kif => &LABELS_JA,
        Notation::Psn => &LABELS_EN,
    };
    let start = Position::from_setup_unchecked(&record.start.setup);
    let mut b = Builder {
        notation: opts.notation,
        labels,
        nodes: Vec::with_capacity(record.main.moves.len() + 1),
    };
    b.push(NodeData {
        p: -1,
        c: Vec::new(),
        d: 0,
        n: start.ply().saturating_sub(1),
        m: String::new(),
        s: start.sfen(),
        l: Vec::new(),
        x: record.initial_comments.join("\n"),
        t: String::new(),
        e: String::new(),
    });
    b.line(&record.main, 0, start, None, 0)?;
    let ev = evaluations(record, &start);

    let rules = variant.rules();
    let mut glyphs = serde_json::Map::new();
    for role in Role::ALL {
        let promoted = role.is_promoted();
        let on_board = rules.set.iter().any(|(r, _)| *r == role.unpromoted())
            && (role == role.unpromoted() || rules.can_promote(role.unpromoted()));
        if !on_board {
            continue;
        }
        glyphs.insert(
            role.sfen(variant).to_string(),
            serde_json::json!([
                glyph(role, Color::Black, variant).to_string(),
                glyph(role, Color::White, variant).to_string(),
                promoted
            ]),
        );
    }
    let data = PageData {
        variant: variant.name(),
        font: super::svg::FONT_STACK,
        geo: Geometry::new(variant, false, false),
        glyphs,
        hand_order: HAND_ORDER
            .iter()
            .filter(|r| rules.hand_roles.contains(r))
            .map(|r| r.sfen(variant))
            .collect(),
        files: (1..=rules.files).map(|f| f.to_string()).collect(),
        ranks: (1..=rules.ranks)
            .map(|r| rank_label(r, opts.coords).to_string())
            .collect(),
        flip: opts.flip,
        labels,
        nodes: b.nodes,
        ev,
    };
    let json = serde_json::to_string(&data).expect("page data serialises");

    let handicap = crate::kif::writer::is_handicap(record);
    let name = |c: Color| {
        record
            .header
            .get(if c == Color::Black {
                &HeaderKey::Sente
            } else {
                &HeaderKey::Gote
            })
            .map(str::to_string)
            .unwrap_or_else(|| match opts.notation {
                Notation::Kif => japanese::side_name(c, handicap).to_string(),
                Notation::Psn => header_label(
                    if c == Color::Black {
                        &HeaderKey::Sente
                    } else {
                        &HeaderKey::Gote
                    },
                    Notation::Psn,
                    handicap,
                ),
            })
    };
    let (sente, gote) = (name(Color::Black), name(Color::White));
    let event = record.header.get(&HeaderKey::Event);
    let mut title = format!("☗{sente} – ☖{gote}");
    if let Some(e) = event {
        let _ = write!(title, " · {e}");
    }

    // The first picture, drawn here so that the page shows the board even
    // before (or without) the script.
    let first = svg_of(&data.nodes[0].s, variant, opts);

    let lang = match opts.notation {
        Notation::Kif => "ja",
        Notation::Psn => "en",
    };
    let mut o = String::with_capacity(json.len() + CSS.len() + SCRIPT.len() + 8192);
    let _ = write!(
        o,
        "<!DOCTYPE html>\n<html lang=\"{lang}\">\n<head>\n<meta charset=\"utf-8\">\n\
<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
<meta name=\"generator\" content=\"kifu {}\">\n<title>{}</title>\n<style>\n{CSS}</style>\n</head>\n<body>\n",
        env!("CARGO_PKG_VERSION"),
        esc(&title)
    );
    o.push_str("<header class=\"kifu-header\">\n<h1>");
    let _ = write!(
        o,
        "<span class=\"player\" data-color=\"b\">☗{}</span> <span class=\"vs\">–</span> <span class=\"player\" data-color=\"w\">☖{}</span>",
        esc(&sente),
        esc(&gote)
    );
    o.push_str("</h1>\n<dl class=\"kifu-info\">\n");
    for (k, v) in &record.header.entries {
        if matches!(k, HeaderKey::Sente | HeaderKey::Gote) || v.trim().is_empty() {
            continue;
        }
        let _ = writeln!(
            o,
            "<div><dt>{}</dt><dd>{}</dd></div>",
            esc(&header_label(k, opts.notation, handicap)),
            esc(v)
        );
    }
    if opts.names {
        names_html(&mut o, record, opts.notation);
    }
    if let Some(r) = result_text(record, opts.notation) {
        let label = match opts.notation {
            Notation::Kif => "結果",
            Notation::Psn => "Result",
        };
        let _ = writeln!(
            o,
            "<div class=\"result\"><dt>{label}</dt><dd>{}</dd></div>",
            esc(&r)
        );
    }
    o.push_str("</dl>\n</header>\n<main class=\"kifu-viewer\">\n");
    let _ = writeln!(
        o,
        "<div id=\"board\" class=\"kifu-board-wrap\" data-sfen=\"{}\" data-node=\"0\" data-ply=\"0\">{first}</div>",
        esc(&data.nodes[0].s)
    );
    let (first_t, prev_t, next_t, last_t, flip_t) = match opts.notation {
        Notation::Kif => ("最初", "1手戻る", "1手進む", "最後", "盤面反転"),
        Notation::Psn => ("First", "Previous", "Next", "Last", "Flip board"),
    };
    let _ = write!(
        o,
        "<section class=\"kifu-side\">\n<nav class=\"kifu-controls\">\
<button type=\"button\" id=\"first\" title=\"{first_t} (Home)\">|◀</button>\
<button type=\"button\" id=\"prev\" title=\"{prev_t} (←)\">◀</button>\
<button type=\"button\" id=\"next\" title=\"{next_t} (→)\">▶</button>\
<button type=\"button\" id=\"last\" title=\"{last_t} (End)\">▶|</button>\
<button type=\"button\" id=\"flip\" title=\"{flip_t} (f)\">⇅</button></nav>\n\
<div id=\"current\" class=\"kifu-current\" aria-live=\"polite\"></div>\n\
<div id=\"alts\" class=\"kifu-alts\" hidden></div>\n\
<div id=\"comment\" class=\"kifu-comment\"></div>\n\
<ol id=\"moves\" class=\"kifu-moves\"></ol>\n"
    );
    if !data.ev.is_empty() {
        let label = match opts.notation {
            Notation::Kif => "評価値",
            Notation::Psn => "Evaluation",
        };
        let _ = writeln!(
            o,
            "<figure id=\"evalgraph\" class=\"kifu-eval\" aria-label=\"{label}\"></figure>"
        );
    }
    o.push_str("</section>\n</main>\n");
    let _ = write!(
        o,
        "<script type=\"application/json\" id=\"kifu-data\">{}</script>\n<script>\n{SCRIPT}</script>\n</body>\n</html>\n",
        script_safe_json(&json)
    );
    Ok(o)
}

/// The evaluations of the main line (`[ply, score, mate]`), as
/// [`crate::eval::of_line`] finds them in the moves' comments.
fn evaluations(record: &Record, start: &Position) -> Vec<(u32, i64, bool)> {
    crate::eval::of_line(&record.main, start)
        .into_iter()
        .enumerate()
        .filter_map(|(i, e)| {
            let ply = i as u32 + 1;
            e.map(|e| match e.score {
                crate::eval::Score::Cp(n) => (ply, n, false),
                crate::eval::Score::Mate(n) => (ply, i64::from(n), true),
            })
        })
        .collect()
}

fn svg_of(sfen: &str, variant: crate::rules::variant::Variant, opts: &HtmlOptions) -> String {
    let setup =
        crate::rules::sfen::parse_sfen(sfen, Some(variant)).expect("kifu's own SFEN parses");
    let pos = Position::from_setup_unchecked(&setup);
    let o = Options {
        coords: opts.coords,
        flip: opts.flip,
        ..Options::default()
    };
    super::svg(&pos, &o)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::read::{read_all, Format};

    fn record(text: &str, f: Format) -> Record {
        let games = read_all(text.as_bytes(), Some(f), &Default::default());
        games.into_iter().next().unwrap().record
    }

    fn data(page: &str) -> serde_json::Value {
        let start = page.find("id=\"kifu-data\">").unwrap() + "id=\"kifu-data\">".len();
        let end = start + page[start..].find("</script>").unwrap();
        serde_json::from_str(&page[start..end]).unwrap()
    }

    #[test]
    fn tree_and_escaping() {
        let rec = record(
            "先手：<script>alert(1)</script>\n手数----指手---------消費時間--\n\
   1 ７六歩(77)   ( 0:01/00:00:01)\n*a </script><!-- & \u{2028}\n\
   2 ３四歩(33)   ( 0:02/00:00:02)+\n   3 ２六歩(27)   ( 0:03/00:00:04)\n   4 投了\n\n\
変化：2手\n   2 ８四歩(83)   ( 0:05/00:00:05)\n",
            Format::Kif,
        );
        let page = html(&rec, &HtmlOptions::default()).unwrap();
        assert!(!page.contains("<script>alert"));
        assert!(page.contains("&lt;script&gt;alert(1)&lt;/script&gt;"));
        // The comment's `</script>` cannot close the data element.
        assert_eq!(page.matches("</script>").count(), 2);
        assert!(!page.contains("<!-- &"));
        let d = data(&page);
        let nodes = d["nodes"].as_array().unwrap();
        assert_eq!(nodes.len(), 5);
        assert_eq!(nodes[1]["m"], "▲７六歩(77)");
        assert_eq!(nodes[1]["x"], "a </script><!-- & \u{2028}");
        assert_eq!(nodes[1]["t"], "0:01 / 0:00:01");
        // Node 1 has the main move and the alternative as children.
        let c: Vec<u64> = nodes[1]["c"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_u64().unwrap())
            .collect();
        assert_eq!(c.len(), 2);
        assert_eq!(nodes[c[0] as usize]["m"], "△３四歩(33)");
        assert_eq!(nodes[c[1] as usize]["m"], "△８四歩(83)");
        assert_eq!(
            nodes[c[1] as usize]["s"],
            "lnsgkgsnl/1r5b1/p1ppppppp/1p7/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL b - 3"
        );
        let last = nodes.iter().find(|n| n["e"] == "投了").unwrap();
        assert_eq!(last["m"], "▲２六歩(27)");
        assert!(page.contains("まで3手で先手の勝ち"));
    }

    #[test]
    fn psn_labels() {
        let rec = record("[Sente \"A & B\"]\nP7g-7f P3c-3d\n", Format::Psn);
        let page = html(
            &rec,
            &HtmlOptions {
                notation: Notation::Psn,
                ..HtmlOptions::default()
            },
        )
        .unwrap();
        assert!(page.contains("<html lang=\"en\">"));
        assert!(page.contains("☗A &amp; B"));
        let d = data(&page);
        assert_eq!(d["nodes"][2]["m"], "P-3d");
    }

    #[test]
    fn illegal_record_is_an_error() {
        let rec = record("V2.2\nPI\n+\n+7776FU\n-7776FU\n", Format::Csa);
        let e = html(&rec, &HtmlOptions::default()).unwrap_err();
        assert_eq!(e.ply, 2);
    }
}
