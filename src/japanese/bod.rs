//! Board diagrams (BOD): hand lines, the turn line, board rows, the
//! builder that collects them, and the writer.

use super::lexicon::*;
use crate::rules::color::Color;
use crate::rules::hand::Hand;
use crate::rules::role::{Piece, Role};
use crate::rules::setup::Setup;
use crate::rules::square::Square;
use crate::rules::variant::Variant;

/// Hand roles in the order Kifu for Windows writes them (R B G S N L P).
const HAND_ORDER: [Role; 9] = Role::HAND;

/// The head of a hand line: the side, the byte offset where its items
/// begin, and whether it is the spec's form (`先手の持駒：`). The forms
/// without `の` or with `持ち駒` (`先手持駒：`, `後手の持ち駒：`) are
/// hand lines too, to be read with a `dialect` warning: taken for a
/// header, they would leave the hand out of the position. The colon may
/// be full-width or ASCII.
pub fn hand_line_head(line: &str) -> Option<(Color, usize, bool)> {
    let (color, n) = side_word(line)?;
    let rest = &line[n..];
    let (rest, no) = match rest.strip_prefix('の') {
        Some(r) => (r, true),
        None => (rest, false),
    };
    let (rest, okurigana) = match rest.strip_prefix("持駒") {
        Some(r) => (r, false),
        None => (rest.strip_prefix("持ち駒")?, true),
    };
    let sep = match rest.chars().next()? {
        c @ ('：' | ':') => c.len_utf8(),
        _ => return None,
    };
    Some((color, line.len() - rest.len() + sep, no && !okurigana))
}

/// Parses a hand line (`先手の持駒：角二　桂　`, `後手の持駒：なし`,
/// `上手の持駒：飛角金`, and the forms of [`hand_line_head`]); returns
/// the side and its hand. Items may be separated by U+3000, ASCII spaces
/// or nothing. `Err` carries the byte offset of the first item that is
/// not a piece.
pub fn parse_hand_line(line: &str) -> Option<Result<(Color, Hand), usize>> {
    let (color, base, _) = hand_line_head(line)?;
    Some(
        parse_hand_items(&line[base..])
            .map(|h| (color, h))
            .map_err(|e| e + base),
    )
}

/// Parses hand items (`角二　桂　`, `なし`).
fn parse_hand_items(s: &str) -> Result<Hand, usize> {
    let mut hand = Hand::EMPTY;
    let mut i = 0;
    while i < s.len() {
        let rest = &s[i..];
        let c = match rest.chars().next() {
            Some(c) => c,
            None => break,
        };
        if is_space(c) || c == '、' || c == ',' {
            i += c.len_utf8();
            continue;
        }
        if rest.starts_with("なし") {
            i += "なし".len();
            continue;
        }
        let (role, n) = parse_role(rest).ok_or(i)?;
        if role.hand_index().is_none() && !matches!(role, Role::Giraffe | Role::Elephant) {
            return Err(i);
        }
        i += n;
        let (count, m) = parse_count(&s[i..]).unwrap_or((1, 0));
        i += m;
        let total = hand.count(role).saturating_add(count);
        if !hand.set(role, total) {
            return Err(i - m - n);
        }
    }
    Ok(hand)
}

/// Writes a hand line (`先手の持駒：角二　桂　` or `…：なし`), no line break.
pub fn write_hand_line(
    color: Color,
    hand: &Hand,
    handicap: bool,
    variant: Variant,
    out: &mut String,
) {
    out.push_str(side_name(color, handicap));
    out.push_str("の持駒：");
    if hand.is_empty() {
        out.push_str("なし");
        return;
    }
    for role in HAND_ORDER {
        let n = hand.count(role);
        if n == 0 {
            continue;
        }
        if variant == Variant::Doubutsu {
            out.push_str(role.kanji(variant));
        } else {
            out.push(role.board_char(variant));
        }
        if n > 1 {
            count_kanji(n, out);
        }
        out.push(IDEOGRAPHIC_SPACE);
    }
}

/// The side to move from a turn line (`先手番`, `後手番`, `上手番`, `下手番`).
pub fn parse_turn_line(line: &str) -> Option<Color> {
    let t = trim(line);
    let (c, n) = side_word(t)?;
    (&t[n..] == "番").then_some(c)
}

/// Parses one board row (`|v香v桂 ・ … |一`): the pieces from the
/// leftmost file to file 1, and the rank kanji after the frame if present.
/// `Err` carries a 0-based character column and a message.
#[allow(clippy::type_complexity)]
pub fn parse_board_row(line: &str) -> Result<(Vec<Option<Piece>>, Option<u8>), (usize, String)> {
    let chars: Vec<char> = line.chars().collect();
    let start = chars
        .iter()
        .position(|&c| c == '|')
        .ok_or((0, "expected `|`".to_string()))?;
    let end = chars
        .iter()
        .rposition(|&c| c == '|')
        .filter(|&e| e > start)
        .ok_or((chars.len(), "expected a closing `|`".to_string()))?;
    let mut cells = Vec::with_capacity(9);
    let mut i = start + 1;
    while i < end {
        let c = chars[i];
        let (color, pc, used) = match c {
            'v' | 'V' => (Color::White, chars.get(i + 1).copied(), 2),
            ' ' | '+' | '^' | IDEOGRAPHIC_SPACE => (Color::Black, chars.get(i + 1).copied(), 2),
            _ => (Color::Black, Some(c), 1),
        };
        if i + used > end {
            return Err((i, format!("expected a piece or `・`, found `{c}`")));
        }
        match pc {
            Some('・') => cells.push(None),
            Some(p) => match parse_board_char(p) {
                Some(role) => cells.push(Some(Piece::new(color, role))),
                None => {
                    return Err((
                        i + used - 1,
                        format!("expected a piece or `・`, found `{p}`"),
                    ));
                }
            },
            None => return Err((i, "expected a piece".to_string())),
        }
        i += used;
    }
    let rank = chars.get(end + 1).and_then(|&c| kanji_value(c));
    Ok((cells, rank))
}

/// Collects the lines of a board diagram into a [`Setup`].
#[derive(Clone, Debug, Default)]
pub struct BoardBuilder {
    rows: Vec<Vec<Option<Piece>>>,
    hands: [Hand; 2],
    turn: Option<Color>,
    ply: Option<u32>,
    /// The destination of the last move in a `手数＝N  ▲６二角成  まで` line.
    pub last_to: Option<Square>,
    /// Whether any board row was given.
    pub has_board: bool,
    /// Whether any hand line was given.
    pub has_hands: bool,
}

impl BoardBuilder {
    /// Adds a row of cells.
    pub fn push_row(&mut self, cells: Vec<Option<Piece>>) {
        self.rows.push(cells);
        self.has_board = true;
    }

    /// Sets one side's hand.
    pub fn set_hand(&mut self, color: Color, hand: Hand) {
        self.hands[color.index()] = hand;
        self.has_hands = true;
    }

    /// Sets the side to move.
    pub fn set_turn(&mut self, color: Color) {
        self.turn = Some(color);
    }

    /// Both hands as read (Black's, White's).
    pub fn hands(&self) -> [Hand; 2] {
        self.hands
    }

    /// The turn, if a turn line was read.
    pub fn turn(&self) -> Option<Color> {
        self.turn
    }

    /// Parses a `手数＝N  ▲６二角成  まで` line; returns whether it was one.
    pub fn move_number_line(&mut self, line: &str) -> bool {
        let t = trim(line);
        let rest = match t.strip_prefix("手数＝").or_else(|| t.strip_prefix("手数=")) {
            Some(r) => r,
            None => return false,
        };
        let digits: String = rest.chars().take_while(|c| c.is_ascii_digit()).collect();
        self.ply = digits.parse().ok();
        let rest = trim(&rest[digits.len()..]);
        let rest = rest.trim_start_matches(['▲', '△', '☗', '☖']);
        if let Some((sq, _)) = parse_square(rest) {
            self.last_to = Some(sq);
        }
        true
    }

    /// The move count of the diagram (`手数＝N`).
    pub fn ply(&self) -> Option<u32> {
        self.ply
    }

    /// Builds the setup. `Err` when the rows do not form a known board.
    pub fn build(&self) -> Result<Setup, String> {
        let ranks = self.rows.len();
        let files = self.rows.first().map_or(0, |r| r.len());
        if self.rows.iter().any(|r| r.len() != files) {
            return Err("board rows have different lengths".to_string());
        }
        let variant = Variant::from_dimensions(files, ranks).ok_or_else(|| {
            format!("a board of {files}×{ranks} squares is not a known variant (expected 9×9, 5×5 or 3×4)")
        })?;
        let mut setup = Setup::empty(variant);
        for (r, row) in self.rows.iter().enumerate() {
            for (i, cell) in row.iter().enumerate() {
                if let Some(sq) = Square::new((files - i) as u8, r as u8 + 1) {
                    setup.board[sq.index()] = *cell;
                }
            }
        }
        setup.hands = self.hands;
        setup.turn = self.turn.unwrap_or(Color::Black);
        setup.ply = self.ply.map_or(1, |p| p.saturating_add(1));
        Ok(setup)
    }
}

/// What a board diagram says besides the pieces.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct BodExtras<'a> {
    /// The last move as KI2 writes it (`▲７六歩`), for the
    /// `手数＝N  ▲７六歩  まで` line.
    pub last_move: Option<&'a str>,
    /// Name the sides 下手/上手 (handicap games) instead of 先手/後手.
    pub handicap: bool,
}

/// Writes a board diagram (hands, frame, rows, turn line), each line ending
/// in `\n`, as the KIF writer puts it in a record.
pub fn write_bod(setup: &Setup, out: &mut String) {
    write_bod_with(setup, BodExtras::default(), out);
}

/// Writes a board diagram like [`write_bod`], with the last move in the
/// `手数＝` line and the handicap side names when `extras` asks for them.
pub fn write_bod_with(setup: &Setup, extras: BodExtras<'_>, out: &mut String) {
    let rules = setup.variant.rules();
    let files = rules.files;
    let ranks = rules.ranks;
    let handicap = extras.handicap;
    write_hand_line(Color::White, &setup.hands[1], handicap, setup.variant, out);
    out.push('\n');
    out.push(' ');
    for f in (1..=files).rev() {
        out.push(' ');
        out.push(ZENKAKU_DIGITS[(f - 1) as usize]);
    }
    out.push('\n');
    let frame = "-".repeat(files as usize * 3);
    out.push('+');
    out.push_str(&frame);
    out.push_str("+\n");
    for r in 1..=ranks {
        out.push('|');
        for f in (1..=files).rev() {
            let sq = Square::new(f, r).expect("board square");
            match setup.board[sq.index()] {
                None => out.push_str(" ・"),
                Some(p) => {
                    out.push(if p.color == Color::White { 'v' } else { ' ' });
                    out.push(p.role.board_char(setup.variant));
                }
            }
        }
        out.push('|');
        out.push(KANJI_DIGITS[(r - 1) as usize]);
        out.push('\n');
    }
    out.push('+');
    out.push_str(&frame);
    out.push_str("+\n");
    write_hand_line(Color::Black, &setup.hands[0], handicap, setup.variant, out);
    out.push('\n');
    if setup.ply > 1 {
        out.push_str(&format!("手数＝{}  ", setup.ply - 1));
        if let Some(m) = extras.last_move {
            out.push_str(m);
            out.push_str("  ");
        }
        out.push_str("まで\n");
    }
    if setup.turn == Color::White {
        out.push_str(side_name(Color::White, handicap));
        out.push_str("番\n");
    }
}
