//! Checks an SVG diagram against the SFEN of the position it shows,
//! parsing both here, independently of kifu's drawing code. Shared by
//! tests/diagram.rs and tests/browser.rs.
#![allow(dead_code)]

use kifu::Move;
use std::collections::BTreeMap;

/// Board pieces `(color, role, square)` and hands `(color, role) → n` of
/// an SFEN, parsed here without kifu.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Expected {
    pub files: u32,
    pub ranks: u32,
    pub board: BTreeMap<(String, String, String), u32>,
    pub hands: BTreeMap<(String, String), u32>,
}

pub fn parse_sfen(sfen: &str) -> Expected {
    let fields: Vec<&str> = sfen.split(' ').collect();
    let rows: Vec<&str> = fields[0].split('/').collect();
    let mut e = Expected {
        ranks: rows.len() as u32,
        ..Expected::default()
    };
    // Width: the first row's squares.
    e.files = rows[0]
        .chars()
        .filter(|&c| c != '+')
        .map(|c| c.to_digit(10).unwrap_or(1))
        .sum();
    for (r, row) in rows.iter().enumerate() {
        let mut file = e.files;
        let mut promoted = false;
        for c in row.chars() {
            if c == '+' {
                promoted = true;
                continue;
            }
            if let Some(d) = c.to_digit(10) {
                file -= d;
                continue;
            }
            let color = if c.is_ascii_uppercase() { "b" } else { "w" };
            let role = format!(
                "{}{}",
                if promoted { "+" } else { "" },
                c.to_ascii_uppercase()
            );
            *e.board
                .entry((color.to_string(), role, format!("{file}{}", r + 1)))
                .or_default() += 1;
            file -= 1;
            promoted = false;
        }
    }
    let mut n = String::new();
    for c in fields[2].chars().filter(|&c| c != '-') {
        if c.is_ascii_digit() {
            n.push(c);
            continue;
        }
        let color = if c.is_ascii_uppercase() { "b" } else { "w" };
        *e.hands
            .entry((color.to_string(), c.to_ascii_uppercase().to_string()))
            .or_default() += n.parse::<u32>().unwrap_or(1);
        n.clear();
    }
    e
}

pub fn num(node: roxmltree::Node, attr: &str) -> f64 {
    node.attribute(attr)
        .unwrap_or_else(|| panic!("{attr} missing on {:?}", node.tag_name()))
        .parse()
        .unwrap()
}

pub fn has_class(node: &roxmltree::Node, class: &str) -> bool {
    node.attribute("class")
        .is_some_and(|c| c.split(' ').any(|x| x == class))
}

pub fn squares_of(m: Option<Move>) -> Vec<String> {
    match m {
        Some(Move::Normal { from, to, .. }) => {
            let mut v = vec![
                format!("{}{}", from.file(), from.rank()),
                format!("{}{}", to.file(), to.rank()),
            ];
            v.sort();
            v
        }
        Some(Move::Drop { to, .. }) => vec![format!("{}{}", to.file(), to.rank())],
        None => Vec::new(),
    }
}

/// Checks one SVG against the position it should show. Returns the number
/// of pieces checked.
pub fn check_svg(svg: &str, sfen: &str, last: Option<Move>, flip: bool, what: &str) -> usize {
    let doc = roxmltree::Document::parse(svg)
        .unwrap_or_else(|e| panic!("{what}: not well-formed XML: {e}"));
    let root = doc.root_element();
    assert_eq!(root.tag_name().name(), "svg", "{what}");
    assert_eq!(
        root.tag_name().namespace(),
        Some("http://www.w3.org/2000/svg")
    );
    let (w, h) = (num(root, "width"), num(root, "height"));
    assert_eq!(
        root.attribute("viewBox"),
        Some(format!("0 0 {w} {h}").as_str()),
        "{what}"
    );
    let fonts = root.attribute("font-family").unwrap();
    assert!(
        fonts.contains("Noto Sans CJK JP")
            && fonts.contains("MS Mincho")
            && fonts.ends_with("serif")
    );
    assert_eq!(root.attribute("data-sfen"), Some(sfen), "{what}");
    let e = parse_sfen(sfen);
    let board = root
        .descendants()
        .find(|n| has_class(n, "board"))
        .expect("board rect");
    let (bx, by, bw, bh) = (
        num(board, "x"),
        num(board, "y"),
        num(board, "width"),
        num(board, "height"),
    );
    let (cw, ch) = (bw / e.files as f64, bh / e.ranks as f64);
    let cell_of = |square: &str| -> (f64, f64) {
        let f = square[..1].parse::<f64>().unwrap();
        let r = square[1..].parse::<f64>().unwrap();
        if flip {
            (f - 1.0, e.ranks as f64 - r)
        } else {
            (e.files as f64 - f, r - 1.0)
        }
    };
    let viewer = if flip { "w" } else { "b" };
    let mut pieces = BTreeMap::new();
    for p in root.descendants().filter(|n| has_class(n, "piece")) {
        let color = p.attribute("data-color").unwrap().to_string();
        let role = p.attribute("data-role").unwrap().to_string();
        let sq = p.attribute("data-square").unwrap().to_string();
        assert_eq!(
            p.text().map(|t| t.chars().count()),
            Some(1),
            "{what}: one glyph per piece"
        );
        // Drawn inside its own cell, turned when it belongs to the far side.
        let (col, row) = cell_of(&sq);
        let (x, y) = (num(p, "x"), num(p, "y"));
        assert_eq!(((x - bx) / cw).floor(), col, "{what}: column of {sq}");
        assert_eq!(((y - by) / ch).floor(), row, "{what}: row of {sq}");
        let turned = p
            .attribute("transform")
            .is_some_and(|t| t.starts_with("rotate(180"));
        assert_eq!(turned, color != viewer, "{what}: orientation of {sq}");
        *pieces.entry((color, role, sq)).or_insert(0) += 1;
    }
    assert_eq!(pieces, e.board, "{what}: board pieces");
    let mut hands = BTreeMap::new();
    for p in root.descendants().filter(|n| has_class(n, "hand-piece")) {
        let color = p.attribute("data-color").unwrap().to_string();
        let role = p.attribute("data-role").unwrap().to_string();
        let n: u32 = p.attribute("data-count").unwrap().parse().unwrap();
        assert!(n > 0);
        let parent = p.parent_element().unwrap();
        assert!(has_class(&parent, "hand"));
        assert_eq!(parent.attribute("data-color"), Some(color.as_str()));
        *hands.entry((color, role)).or_insert(0) += n;
    }
    assert_eq!(hands, e.hands, "{what}: hands");
    let mut lit: Vec<String> = Vec::new();
    for r in root.descendants().filter(|n| has_class(n, "hl")) {
        let sq = r.attribute("data-square").unwrap().to_string();
        let (col, row) = cell_of(&sq);
        assert_eq!(num(r, "x"), bx + col * cw, "{what}: highlight of {sq}");
        assert_eq!(num(r, "y"), by + row * ch, "{what}: highlight of {sq}");
        lit.push(sq);
    }
    lit.sort();
    assert_eq!(lit, squares_of(last), "{what}: highlighted squares");
    pieces.values().sum::<u32>() as usize
}
