//! KIF writer in the Kifu for Windows layout, plus the parts KI2 shares
//! (header, start position, summary lines).

use super::WriteOptions;
use crate::japanese::{self, display_width};
use crate::read::Encoding;
use crate::record::{HeaderKey, Line, Record, Terminal, TerminalKind};
use crate::rules::color::Color;
use crate::rules::handicap::Handicap;
use crate::rules::moves::Move;
use crate::rules::position::Position;
use crate::rules::role::Role;
use crate::rules::square::Square;
use crate::rules::variant::Variant;
use crate::write::{one_line, text_lines, Dropped, Output, WriteError};
use std::fmt::Write as _;

/// Whether the record's start is a handicap game (players are 下手/上手).
pub(crate) fn is_handicap(rec: &Record) -> bool {
    matches!(rec.start.handicap, Some(h) if h != Handicap::Even)
}

/// Whether `line` (`KEY：VALUE` with a verbatim key) reads back as a
/// header line in KIF and KI2: the reader's other line kinds are tried
/// first (see `kif::reader`), so keys that look like them are not written.
fn reads_as_header(key: &str, line: &str) -> bool {
    let t = japanese::trim(line);
    !key.is_empty()
        && key.chars().count() <= 24
        && !key.contains(char::is_whitespace)
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
        && !crate::kif::grammar::is_move_line(line)
        && !crate::kif::grammar::is_ki2_move_line(line)
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
                if !crate::write::restates_start(k, v, rec) {
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
/// Appends the KIF text of a move (`７六歩(77)`, `同　銀(31)`, `４五角打`)
/// in `pos`; `prev_to` is the previous move's destination (for 同) and
/// `said` the role the record names. Returns `false` (and appends nothing
/// useful) when no piece can be named.
pub fn push_move_text(
    pos: &Position,
    mv: Move,
    prev_to: Option<Square>,
    said: Option<Role>,
    text: &mut String,
) -> bool {
    let to = mv.to();
    if prev_to == Some(to) {
        text.push_str("同\u{3000}");
    } else {
        japanese::push_square(to, text);
    }
    let Some(role) = moving_role(pos, mv, said) else {
        return false;
    };
    text.push_str(japanese::role_name(role, pos.variant()));
    match mv {
        Move::Normal { from, promote, .. } => {
            if promote {
                text.push('成');
            }
            let _ = write!(text, "({}{})", from.file(), from.rank());
        }
        Move::Drop { .. } => text.push('打'),
    }
    true
}

/// The KIF text of a move; see [`push_move_text`].
pub fn move_text(pos: &Position, mv: Move, prev_to: Option<Square>) -> Option<String> {
    let mut s = String::new();
    push_move_text(pos, mv, prev_to, None, &mut s).then_some(s)
}

pub(crate) fn moving_role(pos: &Position, mv: Move, said: Option<Role>) -> Option<Role> {
    match mv {
        Move::Drop { role, .. } => Some(role),
        Move::Normal { from, .. } => said.or_else(|| pos.piece_at(from).map(|p| p.role)),
    }
}

/// Comment lines (`*text`, or `&bookmark` as it is).
pub(crate) fn write_comments(comments: &[String], nl: &str, out: &mut String) {
    for c in comments {
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

fn has_times(line: &Line) -> bool {
    line.moves.iter().any(|n| {
        n.time.spent_ms.is_some() || n.time.total_ms.is_some() || n.variations.iter().any(has_times)
    }) || line
        .terminal
        .as_ref()
        .is_some_and(|t| t.time.spent_ms.is_some() || t.time.total_ms.is_some())
}

struct KifWriter<'a> {
    rec: &'a Record,
    nl: &'a str,
    times: bool,
    out: String,
    dropped: Dropped,
}

fn push_time(out: &mut String, spent_ms: u64, total_ms: u64) {
    let s = spent_ms / 1000;
    let t = total_ms / 1000;
    let _ = write!(
        out,
        " ({:>2}:{:02}/{:02}:{:02}:{:02})",
        s / 60,
        s % 60,
        t / 3600,
        (t / 60) % 60,
        t % 60
    );
}

impl KifWriter<'_> {
    fn pad(&mut self, text_width: usize) {
        for _ in text_width..12 {
            self.out.push(' ');
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn line(
        &mut self,
        line: &Line,
        first: u32,
        pos: Position,
        prev_to: Option<Square>,
        totals: [u64; 2],
        first_has_sibling: bool,
        is_main: bool,
    ) -> Result<(), WriteError> {
        let nl = self.nl;
        let poss = positions(line, pos);
        let mut tots = Vec::with_capacity(line.moves.len() + 1);
        let mut totals = totals;
        let mut prev = prev_to;
        let mut prevs = Vec::with_capacity(line.moves.len() + 1);
        let variant = self.rec.variant();
        let mut text = String::new();
        for (i, node) in line.moves.iter().enumerate() {
            tots.push(totals);
            prevs.push(prev);
            let p = &poss[i];
            let number = first.saturating_add(i as u32);
            text.clear();
            if !push_move_text(p, node.mv, prev, node.role, &mut text) {
                return Err(WriteError::new(format!(
                    "move {number} ({}): no piece on its origin square to name",
                    node.mv.usi(variant)
                )));
            }
            let _ = write!(self.out, "{number:>4} {text}");
            let branch = !node.variations.is_empty() || (i == 0 && first_has_sibling);
            let mover = p.turn().index();
            if self.times {
                let spent = node.time.spent_ms.unwrap_or(0);
                let total = node
                    .time
                    .total_ms
                    .unwrap_or(totals[mover].saturating_add(spent));
                if spent % 1000 != 0 || total % 1000 != 0 {
                    self.dropped.times += 1;
                }
                totals[mover] = total;
                self.pad(display_width(&text));
                push_time(&mut self.out, spent, total);
                if branch {
                    self.out.push('+');
                }
            } else if branch {
                self.pad(display_width(&text));
                self.out.push_str(" +");
            }
            self.out.push_str(nl);
            write_comments(&node.comments, nl, &mut self.out);
            prev = Some(node.mv.to());
        }
        tots.push(totals);
        prevs.push(prev);
        let end = poss[line.moves.len()];
        let last = first.saturating_add(line.moves.len() as u32);
        if let Some(t) = &line.terminal {
            let (word, approx) = terminal_word(&t.kind, end.turn());
            let _ = write!(self.out, "{last:>4} {word}");
            if self.times {
                let spent = t.time.spent_ms.unwrap_or(0);
                let mover = end.turn().index();
                let total = t
                    .time
                    .total_ms
                    .unwrap_or(totals[mover].saturating_add(spent));
                self.pad(display_width(word));
                push_time(&mut self.out, spent, total);
            }
            self.out.push_str(nl);
            write_comments(&t.comments, nl, &mut self.out);
            if approx {
                self.dropped.terminals.add(t.kind.reason());
                let reason = one_line(t.kind.reason(), &mut self.dropped.altered);
                let _ = write!(self.out, "*kifu: {reason}{nl}");
            }
        }
        // The main line's result line is kept as written; else it is
        // written from the terminal, or from what a result apart from the
        // moves (PSN `[Result]`) states.
        let derived = if is_main {
            crate::write::main_terminal(self.rec)
        } else {
            line.terminal.as_ref().map(std::borrow::Cow::Borrowed)
        };
        let summary = summary_line(
            self.rec,
            is_main,
            last.saturating_sub(1),
            derived.as_deref(),
            end.turn(),
            fouler(line, &poss),
            &mut self.dropped.altered,
        );
        let verbatim = is_main
            && self
                .rec
                .claim
                .as_ref()
                .is_some_and(|c| c.text.starts_with("まで"));
        if is_main
            && !verbatim
            && !crate::write::claim_carried(self.rec, derived.as_deref().map(|t| &t.kind))
        {
            self.dropped.results += 1;
        }
        if let Some(s) = summary {
            self.out.push_str(&s);
            self.out.push_str(nl);
        }
        // Variation blocks: deepest branch point first, each followed by
        // its own branches (Kifu for Windows order).
        for i in (0..line.moves.len()).rev() {
            let vars = &line.moves[i].variations;
            for (k, v) in vars.iter().enumerate() {
                if v.moves.is_empty() {
                    self.dropped.variations += 1;
                    continue;
                }
                let n = first.saturating_add(i as u32);
                let _ = write!(self.out, "{nl}変化：{n}手{nl}");
                self.line(v, n, poss[i], prevs[i], tots[i], k + 1 < vars.len(), false)?;
            }
        }
        Ok(())
    }
}

/// Writes a record as KIF in the Kifu for Windows layout (see
/// `docs/formats/kif.md`).
pub fn write(record: &Record, opts: &WriteOptions) -> Result<Output, WriteError> {
    let nl = if opts.crlf { "\r\n" } else { "\n" };
    let mut w = KifWriter {
        rec: record,
        nl,
        times: has_times(&record.main),
        out: String::new(),
        dropped: Dropped::default(),
    };
    let enc = match opts.encoding {
        Encoding::ShiftJis => "Shift_JIS",
        _ => "UTF-8",
    };
    let _ = write!(w.out, "#KIF version=2.0 encoding={enc}{nl}");
    let mut dropped = Dropped::default();
    write_head(record, nl, &mut w.out, &mut dropped);
    w.dropped.add(&dropped);
    let _ = write!(w.out, "手数----指手---------消費時間--{nl}");
    write_comments(&record.initial_comments, nl, &mut w.out);
    let pos = Position::from_setup_unchecked(&record.start.setup);
    let first = record.start.setup.ply.max(1);
    w.line(&record.main, first, pos, None, [0, 0], false, true)?;
    Ok(Output {
        text: w.out,
        dropped: w.dropped,
    })
}
