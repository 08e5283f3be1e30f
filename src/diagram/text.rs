//! A board in Unicode text for terminals.

use super::{
    cell, file_label, glyph, rank_label, rank_of_row, side_mark, side_name, Coords, Options,
};
use crate::japanese::{count_kanji, ZENKAKU_DIGITS};
use crate::rules::color::Color;
use crate::rules::position::Position;
use crate::rules::square::Square;
use anstyle::{AnsiColor, Style};
use std::fmt::Write as _;

const GOTE: Style = Style::new().fg_color(Some(anstyle::Color::Ansi(AnsiColor::Red)));
const LAST: Style = Style::new()
    .fg_color(Some(anstyle::Color::Ansi(AnsiColor::Black)))
    .bg_color(Some(anstyle::Color::Ansi(AnsiColor::Yellow)));
const FRAME: Style = Style::new().dimmed();
const TURN: Style = Style::new().bold();

/// The position as text: the hand of the side at the top, file labels, the
/// framed board (one cell = a marker and a full-width glyph: `v` marks
/// gote's pieces, `・` an empty square), rank labels on the right, the hand
/// of the side at the bottom, then the caption and the side to move
/// (`☗先手番` / `☖後手番`). Every line ends in `\n`.
///
/// With [`Options::color`] gote's pieces are red, the last move's squares
/// are on yellow and the frame is dim; stripping the escapes gives exactly
/// the plain text.
pub fn text(pos: &Position, opts: &Options) -> String {
    let variant = pos.variant();
    let rules = variant.rules();
    let (files, ranks) = (rules.files, rules.ranks);
    let paint = |style: Style, s: &str, out: &mut String| {
        if opts.color {
            let _ = write!(out, "{}{s}{}", style.render(), style.render_reset());
        } else {
            out.push_str(s);
        }
    };
    let (top, bottom) = if opts.flip {
        (Color::Black, Color::White)
    } else {
        (Color::White, Color::Black)
    };
    let lit: [Option<Square>; 2] = match opts.last_move {
        Some(m) => {
            let (from, to) = super::move_squares(m);
            [from, Some(to)]
        }
        None => [None, None],
    };
    let mut out = String::with_capacity(1024);
    hand_line(pos, top, opts, &mut out);
    // File labels.
    let mut labels = String::from(" ");
    for col in 0..files {
        let f = file_label(col, variant, opts.flip);
        match opts.coords {
            Coords::Japanese => {
                labels.push(' ');
                labels.push(ZENKAKU_DIGITS[(f - 1) as usize]);
            }
            Coords::Western => {
                let _ = write!(labels, "  {f}");
            }
        }
    }
    paint(FRAME, &labels, &mut out);
    out.push('\n');
    let frame = format!("+{}+", "-".repeat(files as usize * 3));
    paint(FRAME, &frame, &mut out);
    out.push('\n');
    let mut cell_text = String::with_capacity(8);
    for row in 0..ranks {
        paint(FRAME, "|", &mut out);
        let rank = rank_of_row(row, variant, opts.flip);
        for col in 0..files {
            let f = file_label(col, variant, opts.flip);
            let sq = Square::new(f, rank).expect("board square");
            debug_assert_eq!(cell(sq, variant, opts.flip), (col, row));
            cell_text.clear();
            let piece = pos.piece_at(sq);
            match piece {
                None => cell_text.push_str(" ・"),
                Some(p) => {
                    cell_text.push(if p.color == Color::White { 'v' } else { ' ' });
                    cell_text.push(glyph(p.role, p.color, variant));
                }
            }
            if lit.contains(&Some(sq)) {
                paint(LAST, &cell_text, &mut out);
            } else if piece.is_some_and(|p| p.color == Color::White) {
                paint(GOTE, &cell_text, &mut out);
            } else {
                out.push_str(&cell_text);
            }
        }
        let mut right = String::from("|");
        right.push(rank_label(rank, opts.coords));
        paint(FRAME, &right, &mut out);
        out.push('\n');
    }
    paint(FRAME, &frame, &mut out);
    out.push('\n');
    hand_line(pos, bottom, opts, &mut out);
    if let Some(c) = &opts.caption {
        out.push_str(c);
        out.push_str("  ");
    }
    let turn = pos.turn();
    let mut t = String::new();
    t.push(side_mark(turn));
    t.push_str(side_name(turn, opts.handicap));
    t.push('番');
    paint(TURN, &t, &mut out);
    out.push('\n');
    out
}

/// `☖ 後手 name  持駒：角　歩二`
fn hand_line(pos: &Position, color: Color, opts: &Options, out: &mut String) {
    out.push(side_mark(color));
    out.push(' ');
    out.push_str(side_name(color, opts.handicap));
    if let Some(name) = &opts.names[color.index()] {
        out.push(' ');
        // One line per side: names never break the layout.
        out.extend(name.chars().map(|c| if c.is_control() { ' ' } else { c }));
    }
    out.push_str("  持駒：");
    let hand = pos.hand(color);
    if hand.is_empty() {
        out.push_str("なし");
    }
    let mut first = true;
    for role in crate::rules::role::Role::HAND {
        let n = hand.count(role);
        if n == 0 {
            continue;
        }
        if !first {
            out.push('\u{3000}');
        }
        first = false;
        out.push(glyph(role, Color::Black, pos.variant()));
        if n > 1 {
            count_kanji(n, out);
        }
    }
    out.push('\n');
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::moves::Move;

    fn after(sfen: &str, usi: &str) -> (Position, Move) {
        let mut pos = Position::from_sfen(sfen).unwrap();
        let m = Move::from_usi(usi, pos.variant()).unwrap();
        pos.play(m).unwrap();
        (pos, m)
    }

    #[test]
    fn minishogi_layout() {
        let (pos, m) = after("rbsgk/4p/5/P4/KGSBR b - 1", "5d5c");
        let opts = Options {
            last_move: Some(m),
            caption: Some("1手目 ▲５三歩".to_string()),
            names: [Some("Alice".to_string()), None],
            ..Options::default()
        };
        let expected = "\
☖ 後手  持駒：なし
  ５ ４ ３ ２ １
+---------------+
|v飛v角v銀v金v王|一
| ・ ・ ・ ・v歩|二
| 歩 ・ ・ ・ ・|三
| ・ ・ ・ ・ ・|四
| 玉 金 銀 角 飛|五
+---------------+
☗ 先手 Alice  持駒：なし
1手目 ▲５三歩  ☖後手番
";
        assert_eq!(text(&pos, &opts), expected);
    }

    #[test]
    fn flipped_western() {
        let (pos, m) = after("rbsgk/4p/5/P4/KGSBR b - 1", "5d5c");
        let opts = Options {
            last_move: Some(m),
            coords: Coords::Western,
            flip: true,
            ..Options::default()
        };
        let expected = "\
☗ 先手  持駒：なし
   1  2  3  4  5
+---------------+
| 飛 角 銀 金 玉|e
| ・ ・ ・ ・ ・|d
| ・ ・ ・ ・ 歩|c
|v歩 ・ ・ ・ ・|b
|v王v金v銀v角v飛|a
+---------------+
☖ 後手  持駒：なし
☖後手番
";
        assert_eq!(text(&pos, &opts), expected);
    }

    #[test]
    fn colour_is_decoration_only() {
        let (pos, m) = after(
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
            "7g7f",
        );
        let mut opts = Options {
            last_move: Some(m),
            ..Options::default()
        };
        let plain = text(&pos, &opts);
        assert!(!plain.contains('\u{1b}'));
        opts.color = true;
        let coloured = text(&pos, &opts);
        assert!(coloured.contains("\u{1b}["));
        // The highlighted cells: 7g (now empty) and 7f.
        assert_eq!(coloured.matches("43m").count(), 2);
        assert_eq!(strip(&coloured), plain);
    }

    fn strip(s: &str) -> String {
        let mut out = String::new();
        let mut chars = s.chars();
        while let Some(c) = chars.next() {
            if c == '\u{1b}' {
                for d in chars.by_ref() {
                    if d == 'm' {
                        break;
                    }
                }
            } else {
                out.push(c);
            }
        }
        out
    }
}
