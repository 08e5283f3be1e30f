//! A board diagram as SVG.

use super::{
    cell, escape_xml, file_label, glyph, move_squares, rank_label, rank_of_row, side_mark,
    side_name, Options,
};
use crate::rules::color::Color;
use crate::rules::position::Position;
use crate::rules::role::Role;
use crate::rules::variant::Variant;
use serde::Serialize;
use std::fmt::Write as _;

/// Fonts for the kanji, Mincho first as printed diagrams are, with the CJK
/// fonts of every common desktop and a generic fallback.
pub const FONT_STACK: &str = "'Hiragino Mincho ProN','Yu Mincho','YuMincho','MS Mincho',\
'Noto Serif CJK JP','Noto Sans CJK JP','IPAexMincho','IPAMincho','Source Han Serif JP',serif";

/// Board colours and sizes, shared with the HTML viewer's script so that
/// both draw the same picture.
#[derive(Clone, Copy, Debug, Serialize)]
pub(crate) struct Geometry {
    pub files: u32,
    pub ranks: u32,
    /// Cell width and height.
    pub cw: u32,
    pub ch: u32,
    /// Outer padding.
    pub pad: u32,
    /// Width of a hand column.
    pub hand_w: u32,
    /// Gap between a hand column and the board.
    pub gap: u32,
    /// Band for the coordinates (above and right of the board).
    pub coord: u32,
    /// Band for a player's name (above and below), 0 without names.
    pub name_h: u32,
    /// Band for the caption, 0 without one.
    pub caption_h: u32,
    /// Height of a hand item and of the side mark.
    pub item_h: u32,
    pub mark_h: u32,
    /// Font sizes: pieces, hand pieces, counts, coordinates, names.
    pub piece_fs: u32,
    pub hand_fs: u32,
    pub count_fs: u32,
    pub coord_fs: u32,
    pub name_fs: u32,
    /// Board origin and picture size (derived).
    pub bx: u32,
    pub by: u32,
    pub width: u32,
    pub height: u32,
}

impl Geometry {
    pub(crate) fn new(variant: Variant, names: bool, caption: bool) -> Geometry {
        let rules = variant.rules();
        let mut g = Geometry {
            files: rules.files as u32,
            ranks: rules.ranks as u32,
            cw: 40,
            ch: 44,
            pad: 8,
            hand_w: 48,
            gap: 8,
            coord: 22,
            name_h: if names { 26 } else { 0 },
            caption_h: if caption { 30 } else { 0 },
            item_h: 34,
            mark_h: 30,
            piece_fs: 30,
            hand_fs: 26,
            count_fs: 14,
            coord_fs: 14,
            name_fs: 16,
            bx: 0,
            by: 0,
            width: 0,
            height: 0,
        };
        g.bx = g.pad + g.hand_w + g.gap;
        g.by = g.pad + g.name_h + g.coord;
        g.width = g.bx + g.board_w() + g.coord + g.gap + g.hand_w + g.pad;
        g.height = g.by + g.board_h() + g.name_h + g.caption_h + g.pad;
        g
    }

    fn board_w(&self) -> u32 {
        self.files * self.cw
    }

    fn board_h(&self) -> u32 {
        self.ranks * self.ch
    }

    /// Centre x of the hand column on the left (top side) and right.
    fn hand_cx(&self, left: bool) -> u32 {
        if left {
            self.pad + self.hand_w / 2
        } else {
            self.bx + self.board_w() + self.coord + self.gap + self.hand_w / 2
        }
    }
}

/// The hand roles a diagram lists, in the order KIF hand lines use.
pub(crate) const HAND_ORDER: [Role; 9] = Role::HAND;

fn color_letter(c: Color) -> char {
    c.sfen_char()
}

/// The position as a standalone SVG document: the board with its grid,
/// star points (9×9) and coordinates, the pieces (sente's upright, gote's
/// turned 180°; the other way round with [`Options::flip`]), the hand of
/// the side at the top in a column on the left and of the side at the
/// bottom on the right (`☗`/`☖` above, the side to move's mark in red),
/// the last move's squares highlighted, names above and below the board
/// and the caption under it when given.
///
/// It declares `width`, `height` and `viewBox`, so it embeds in Markdown
/// and scales. Elements carry stable classes and data attributes for
/// scripts and tests: `svg.kifu-board[data-sfen]`,
/// `text.piece[data-color=b|w][data-role=P…][data-square=77]`,
/// `text.hand-piece[data-color][data-role][data-count]`,
/// `rect.hl[data-square]`, `text.name[data-color]`, `text.caption`.
pub fn svg(pos: &Position, opts: &Options) -> String {
    let variant = pos.variant();
    let names = opts.names.iter().any(|n| n.is_some());
    let g = Geometry::new(variant, names, opts.caption.is_some());
    let mut o = String::with_capacity(12 * 1024);
    let sfen = pos.sfen();
    let _ = write!(
        o,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}" class="kifu-board" data-sfen="{sfen}" data-variant="{variant}" data-flip="{flip}" font-family="{FONT_STACK}">"#,
        w = g.width,
        h = g.height,
        flip = opts.flip,
    );
    o.push_str("\n<title>");
    match &opts.caption {
        Some(c) => escape_xml(c, &mut o),
        None => escape_xml(&sfen, &mut o),
    }
    o.push_str("</title>\n");
    let _ = writeln!(
        o,
        r##"<rect class="background" x="0" y="0" width="{}" height="{}" fill="#ffffff"/>"##,
        g.width, g.height
    );
    let (bw, bh) = (g.board_w(), g.board_h());
    let _ = writeln!(
        o,
        r##"<rect class="board" x="{}" y="{}" width="{bw}" height="{bh}" fill="#f3d9a0"/>"##,
        g.bx, g.by
    );
    // Last move.
    if let Some(m) = opts.last_move {
        let (from, to) = move_squares(m);
        for sq in from.into_iter().chain(Some(to)) {
            let (c, r) = cell(sq, variant, opts.flip);
            let _ = writeln!(
                o,
                r##"<rect class="hl" data-square="{}{}" x="{}" y="{}" width="{}" height="{}" fill="#f7b733" fill-opacity="0.55"/>"##,
                sq.file(),
                sq.rank(),
                g.bx + c as u32 * g.cw,
                g.by + r as u32 * g.ch,
                g.cw,
                g.ch
            );
        }
    }
    // Grid and frame.
    o.push_str(r##"<path class="grid" stroke="#3a2a1a" stroke-width="1" fill="none" d=""##);
    for i in 1..g.files {
        let x = g.bx + i * g.cw;
        let _ = write!(o, "M{x} {}V{}", g.by, g.by + bh);
    }
    for i in 1..g.ranks {
        let y = g.by + i * g.ch;
        let _ = write!(o, "M{} {y}H{}", g.bx, g.bx + bw);
    }
    o.push_str("\"/>\n");
    let _ = writeln!(
        o,
        r##"<rect class="frame" x="{}" y="{}" width="{bw}" height="{bh}" fill="none" stroke="#3a2a1a" stroke-width="2.5"/>"##,
        g.bx, g.by
    );
    if g.files == 9 && g.ranks == 9 {
        for (i, j) in [(3, 3), (6, 3), (3, 6), (6, 6)] {
            let _ = writeln!(
                o,
                r##"<circle class="star" cx="{}" cy="{}" r="3" fill="#3a2a1a"/>"##,
                g.bx + i * g.cw,
                g.by + j * g.ch
            );
        }
    }
    // Coordinates.
    for col in 0..g.files {
        let f = file_label(col as u8, variant, opts.flip);
        let _ = writeln!(
            o,
            r##"<text class="coord" x="{}" y="{}" font-size="{}" text-anchor="middle" fill="#444">{f}</text>"##,
            g.bx + col * g.cw + g.cw / 2,
            g.by - 7,
            g.coord_fs
        );
    }
    for row in 0..g.ranks {
        let r = rank_of_row(row as u8, variant, opts.flip);
        let _ = writeln!(
            o,
            r##"<text class="coord" x="{}" y="{}" font-size="{}" text-anchor="middle" fill="#444">{}</text>"##,
            g.bx + bw + g.coord / 2,
            g.by + row * g.ch + g.ch / 2 + g.coord_fs * 35 / 100,
            g.coord_fs,
            rank_label(r, opts.coords)
        );
    }
    // Pieces.
    let viewer = if opts.flip {
        Color::White
    } else {
        Color::Black
    };
    for sq in crate::rules::square::Square::all() {
        let Some(p) = pos.piece_at(sq) else { continue };
        let (c, r) = cell(sq, variant, opts.flip);
        let cx = g.bx + c as u32 * g.cw + g.cw / 2;
        let cy = g.by + r as u32 * g.ch + g.ch / 2;
        let fill = if p.role.is_promoted() {
            "#b3001b"
        } else {
            "#111111"
        };
        let _ = write!(
            o,
            r#"<text class="piece" data-color="{}" data-role="{}" data-square="{}{}" x="{cx}" y="{}" font-size="{}" text-anchor="middle" fill="{fill}""#,
            color_letter(p.color),
            p.role.sfen(variant),
            sq.file(),
            sq.rank(),
            cy + g.piece_fs * 36 / 100,
            g.piece_fs,
        );
        if p.color != viewer {
            let _ = write!(o, r#" transform="rotate(180 {cx} {cy})""#);
        }
        let _ = writeln!(o, ">{}</text>", glyph(p.role, p.color, variant));
    }
    // Hands: the side at the top on the left, from the top down; the side
    // at the bottom on the right, ending at the board's bottom edge.
    for color in Color::ALL {
        let top = color != viewer;
        hand(&mut o, pos, color, top, &g);
    }
    // Names and caption.
    if names {
        for color in Color::ALL {
            let top = color != viewer;
            let mut label = String::new();
            label.push(side_mark(color));
            label.push(' ');
            match &opts.names[color.index()] {
                Some(n) => label.push_str(n),
                None => label.push_str(side_name(color, opts.handicap)),
            }
            let (x, y, anchor) = if top {
                (g.bx, g.pad + g.name_h - 8, "start")
            } else {
                (g.bx + bw, g.by + bh + g.name_h - 6, "end")
            };
            let _ = write!(
                o,
                r##"<text class="name" data-color="{}" x="{x}" y="{y}" font-size="{}" text-anchor="{anchor}" fill="#111">"##,
                color_letter(color),
                g.name_fs
            );
            escape_xml(&label, &mut o);
            o.push_str("</text>\n");
        }
    }
    if let Some(c) = &opts.caption {
        let _ = write!(
            o,
            r##"<text class="caption" x="{}" y="{}" font-size="{}" text-anchor="middle" fill="#111">"##,
            g.bx + bw / 2,
            g.by + bh + g.name_h + g.caption_h - 9,
            g.name_fs + 2
        );
        escape_xml(c, &mut o);
        o.push_str("</text>\n");
    }
    o.push_str("</svg>\n");
    o
}

fn hand(o: &mut String, pos: &Position, color: Color, top: bool, g: &Geometry) {
    let variant = pos.variant();
    let h = pos.hand(color);
    let items: Vec<(Role, u8)> = HAND_ORDER
        .iter()
        .map(|&r| (r, h.count(r)))
        .filter(|&(_, n)| n > 0)
        .collect();
    let cx = g.hand_cx(top);
    let stack = g.mark_h + items.len() as u32 * g.item_h;
    let y0 = if top {
        g.by
    } else {
        (g.by + g.board_h()).saturating_sub(stack)
    };
    let _ = writeln!(
        o,
        r#"<g class="hand" data-color="{}">"#,
        color_letter(color)
    );
    let turn = pos.turn() == color;
    let _ = writeln!(
        o,
        r##"<text class="mark{}" x="{cx}" y="{}" font-size="{}" text-anchor="middle" fill="{}">{}</text>"##,
        if turn { " turn" } else { "" },
        y0 + g.mark_h / 2 + g.hand_fs * 30 / 100,
        g.hand_fs - 4,
        if turn { "#b3001b" } else { "#111111" },
        side_mark(color)
    );
    for (i, (role, n)) in items.into_iter().enumerate() {
        let cy = y0 + g.mark_h + i as u32 * g.item_h + g.item_h / 2;
        let gx = cx - 6;
        let _ = writeln!(
            o,
            r##"<text class="hand-piece" data-color="{}" data-role="{}" data-count="{n}" x="{gx}" y="{}" font-size="{}" text-anchor="middle" fill="#111111">{}</text>"##,
            color_letter(color),
            role.sfen(variant),
            cy + g.hand_fs * 36 / 100,
            g.hand_fs,
            glyph(role, Color::Black, variant)
        );
        if n > 1 {
            let _ = writeln!(
                o,
                r##"<text class="count" x="{}" y="{}" font-size="{}" fill="#111111">{n}</text>"##,
                cx + 8,
                cy + g.hand_fs * 36 / 100,
                g.count_fs
            );
        }
    }
    o.push_str("</g>\n");
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn size_is_declared() {
        let s = svg(&Position::new(Variant::Standard), &Options::default());
        let g = Geometry::new(Variant::Standard, false, false);
        assert!(s.starts_with(&format!(
            r#"<svg xmlns="http://www.w3.org/2000/svg" width="{0}" height="{1}" viewBox="0 0 {0} {1}""#,
            g.width, g.height
        )));
        assert_eq!(s.matches(r#"class="star""#).count(), 4);
        let mini = svg(&Position::new(Variant::Minishogi), &Options::default());
        assert_eq!(mini.matches(r#"class="star""#).count(), 0);
        assert_eq!(mini.matches(r#"class="piece""#).count(), 12);
    }

    #[test]
    fn names_are_escaped() {
        let opts = Options {
            names: [Some("<b>&".to_string()), None],
            caption: Some("\"x\"".to_string()),
            ..Options::default()
        };
        let s = svg(&Position::new(Variant::Standard), &opts);
        assert!(s.contains("☗ &lt;b&gt;&amp;</text>"));
        assert!(s.contains("☖ 後手</text>"));
        assert!(s.contains("&quot;x&quot;</text>"));
    }
}
