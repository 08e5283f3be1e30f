//! What the KIF and KI2 writers share: the header, start position and
//! players, comment lines, terminal words, the `まで` line, and the
//! positions along a line.

use crate::emit::{extra_breaks, one_line, text_lines, Dropped};
use crate::japanese;
use crate::record::{HeaderKey, Line, Record, Terminal, TerminalKind};
use crate::rules::color::Color;
use crate::rules::handicap::Handicap;
use crate::rules::moves::Move;
use crate::rules::position::Position;
use crate::rules::role::Role;
use crate::rules::variant::Variant;
use std::fmt::Write as _;

/// Whether the record's start is a handicap game (players are 下手/上手).
pub(crate) fn is_handicap(rec: &Record) -> bool {
    matches!(rec.start.handicap, Some(h) if h != Handicap::Even)
}

/// Whether `line` (`KEY：VALUE` with a verbatim key) reads back as a
/// header line in KIF and KI2: the reader's other line kinds are tried
/// first (see `japanese::reader`), so keys that look like them are not written.
fn reads_as_header(key: &str, line: &str) -> bool {
    let t = japanese::trim(line);
    !key.is_empty()
        && key.chars().count() <= 24
        && !key.contains(char::is_whitespace)
        && !key.contains(crate::emit::is_line_separator)
        && !key.contains(['：', ':'])
        && !t.starts_with(['#', '|', '*', '&', '+'])
        && !t.starts_with("手数")
        && !t.starts_with("変化")
        && !t.starts_with("まで")
        && japanese::parse_hand_line(t).is_none()
        && japanese::parse_turn_line(t).is_none()
        && t.chars()
            .next()
            .is_none_or(|c| japanese::digit_value(c).is_none())
        && !japanese::moves::is_move_line(line)
        && !japanese::moves::is_ki2_move_line(line)
}

/// Header lines, the start position (手合割 or a board diagram) and the
/// player lines, each ending in `nl`.
pub(crate) fn write_head(rec: &Record, nl: &str, out: &mut String, dropped: &mut Dropped) {
    let handicap = is_handicap(rec);
    let setup = &rec.start.setup;
    let named = match rec.start.handicap {
        Some(h) if setup.variant == Variant::Standard && *setup == h.setup() => Some(h),
        _ => None,
    };
    for (k, v) in &rec.header.entries {
        match k {
            HeaderKey::Sente | HeaderKey::Gote => continue,
            HeaderKey::Other(name) if name == "手合割" => {
                // The start is written below (a 手合割 line or a board); a
                // second 手合割 line would be read as the start. An entry
                // naming another start than the record's is lost.
                if !crate::emit::restates_start(k, v, rec) {
                    dropped.headers.add(name);
                }
                continue;
            }
            _ => {}
        }
        let key = japanese::header_key_name(k, handicap);
        let line = format!("{key}：{}", one_line(v, &mut dropped.altered));
        if matches!(k, HeaderKey::Other(_)) && !reads_as_header(key, &line) {
            // A verbatim key that the reader would take for a board row, a
            // move, a comment… cannot be written as a header.
            dropped.headers.add(key);
            continue;
        }
        let _ = write!(out, "{line}{nl}");
    }
    match setup.variant {
        Variant::Standard => match named {
            Some(h) => {
                let _ = write!(out, "手合割：{}{nl}", h.info().japanese);
            }
            None => push_bod(setup, nl, out),
        },
        Variant::Minishogi | Variant::Doubutsu => {
            let name = if setup.variant == Variant::Minishogi {
                "5五将棋"
            } else {
                "どうぶつしょうぎ"
            };
            let _ = write!(out, "手合割：{name}{nl}");
            let start = crate::record::Start::variant(setup.variant);
            if *setup != start.setup {
                push_bod(setup, nl, out);
            }
        }
    }
    for (k, v) in &rec.header.entries {
        if matches!(k, HeaderKey::Sente | HeaderKey::Gote) {
            let key = japanese::header_key_name(k, handicap);
            let _ = write!(out, "{key}：{}{nl}", one_line(v, &mut dropped.altered));
        }
    }
}

fn push_bod(setup: &crate::rules::setup::Setup, nl: &str, out: &mut String) {
    let mut s = String::new();
    japanese::write_bod(setup, &mut s);
    if nl == "\n" {
        out.push_str(&s);
    } else {
        out.push_str(&s.replace('\n', nl));
    }
}

/// The name of the piece `mv` moves in `pos` (the record's role first).
pub(crate) fn moving_role(pos: &Position, mv: Move, said: Option<Role>) -> Option<Role> {
    match mv {
        Move::Drop { role, .. } => Some(role),
        Move::Normal { from, .. } => said.or_else(|| pos.piece_at(from).map(|p| p.role)),
    }
}

/// Comment lines (`*text`, or `&bookmark` as it is), one per line of each
/// comment ([`text_lines`]: a line separator other than CR and LF becomes a
/// line break, counted in `altered`).
pub(crate) fn write_comments(comments: &[String], nl: &str, out: &mut String, altered: &mut usize) {
    for c in comments {
        if extra_breaks(c) {
            *altered += 1;
        }
        for part in text_lines(c) {
            if part.starts_with('&') {
                out.push_str(part);
            } else {
                out.push('*');
                out.push_str(part);
            }
            out.push_str(nl);
        }
    }
}

/// The word written for a terminal, and whether the kind had to be
/// approximated.
pub(crate) fn terminal_word(kind: &TerminalKind, to_move: Color) -> (&'static str, bool) {
    if let Some(w) = japanese::terminal_word(kind) {
        return (w, false);
    }
    match kind {
        TerminalKind::IllegalAction(c) if *c == to_move => ("反則負け", false),
        TerminalKind::IllegalAction(_) => ("反則勝ち", false),
        TerminalKind::DeclarationDraw | TerminalKind::Draw => ("持将棋", true),
        _ => ("中断", true),
    }
}

/// The `まで` line for a line of moves (absolute number of the last move
/// `plies`), or the main line's claim text when it has one (on one line:
/// `altered` counts a line break removed).
pub(crate) fn summary_line(
    rec: &Record,
    is_main: bool,
    plies: u32,
    terminal: Option<&Terminal>,
    to_move: Color,
    fouler: Option<Color>,
    altered: &mut usize,
) -> Option<String> {
    if is_main {
        if let Some(c) = &rec.claim {
            if c.text.starts_with("まで") {
                return Some(one_line(&c.text, altered).into_owned());
            }
        }
    }
    let t = terminal?;
    // A foul verdict after a recorded illegal move names its player, who
    // loses whichever word the producer used (`%ILLEGAL_MOVE` after the
    // move): the まで line says so, as the validator reads it.
    let stated = match (&t.kind, fouler) {
        (
            TerminalKind::IllegalLoss | TerminalKind::IllegalWin | TerminalKind::IllegalAction(_),
            Some(f),
        ) => TerminalKind::IllegalAction(f),
        (k, _) => k.clone(),
    };
    let kind = match &stated {
        TerminalKind::IllegalAction(c) if *c == to_move => TerminalKind::IllegalLoss,
        TerminalKind::IllegalAction(_) => TerminalKind::IllegalWin,
        k => k.clone(),
    };
    japanese::write_summary(plies, &kind, to_move, is_handicap(rec))
}

/// The player of the line's last move when that move is illegal (a
/// recorded foul); `poss` are the positions before each move.
pub(crate) fn fouler(line: &Line, poss: &[Position]) -> Option<Color> {
    let n = line.moves.len();
    let last = line.moves.last()?;
    let pos = poss.get(n - 1)?;
    pos.check(last.mv).is_err().then(|| pos.turn())
}

/// Positions before each move of `line`, starting from `pos`.
pub(crate) fn positions(line: &Line, mut pos: Position) -> Vec<Position> {
    let mut v = Vec::with_capacity(line.moves.len() + 1);
    for n in &line.moves {
        v.push(pos);
        pos.play_unchecked(n.mv);
    }
    v.push(pos);
    v
}
