//! SFEN positions: reading and writing, for all three variants.

use crate::rules::color::Color;
use crate::rules::hand::Hand;
use crate::rules::role::{Piece, Role};
use crate::rules::setup::{Setup, SetupErrors};
use crate::rules::square::Square;
use crate::rules::variant::Variant;
use std::fmt;
use std::fmt::Write as _;

/// Why an SFEN could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SfenError {
    /// The text is malformed at `column` (1-based, in characters).
    Syntax {
        /// 1-based column of the problem.
        column: usize,
        /// What was expected and found.
        message: String,
    },
    /// The text is well-formed but the position is impossible.
    Setup(SetupErrors),
}

impl fmt::Display for SfenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SfenError::Syntax { column, message } => {
                write!(f, "invalid SFEN at column {column}: {message}")
            }
            SfenError::Setup(e) => write!(f, "impossible position: {e}"),
        }
    }
}

impl std::error::Error for SfenError {}

fn err(column: usize, message: impl Into<String>) -> SfenError {
    SfenError::Syntax {
        column,
        message: message.into(),
    }
}

/// Parses an SFEN (optionally prefixed by `sfen `). The variant is taken from
/// `variant` or, when `None`, from the board's dimensions. The move-number
/// field is optional (default 1); `_` is accepted as a field separator.
pub fn parse_sfen(text: &str, variant: Option<Variant>) -> Result<Setup, SfenError> {
    let mut offset = 0usize; // in chars
    let mut s = text;
    let lead = s.len() - s.trim_start().len();
    s = s.trim_start();
    offset += text[..lead].chars().count();
    if let Some(rest) = s.strip_prefix("sfen ") {
        s = rest.trim_start();
        offset += 5;
    }
    let s = s.trim_end();
    let sep = |c: char| c == ' ' || c == '_';
    let mut fields: Vec<(usize, &str)> = Vec::with_capacity(4);
    let mut col = offset;
    for part in s.split(sep) {
        if !part.is_empty() {
            fields.push((col, part));
        }
        col += part.chars().count() + 1;
    }
    if fields.len() < 3 {
        return Err(err(
            col.min(offset + s.chars().count() + 1),
            format!(
                "expected board, side and hand fields, found {} field(s)",
                fields.len()
            ),
        ));
    }
    if fields.len() > 4 {
        return Err(err(
            fields[4].0 + 1,
            "unexpected text after the move number",
        ));
    }
    let (bcol, board_txt) = fields[0];

    // Board dimensions first.
    let rows: Vec<&str> = board_txt.split('/').collect();
    let ranks = rows.len();
    let mut files = None;
    {
        let mut c = bcol;
        for row in &rows {
            let mut w = 0usize;
            let mut chars = row.chars().peekable();
            while let Some(ch) = chars.next() {
                if let Some(d) = ch.to_digit(10) {
                    let mut n = d as usize;
                    while let Some(d2) = chars.peek().and_then(|c| c.to_digit(10)) {
                        // Saturating: a run of digits can be any length.
                        n = n.saturating_mul(10).saturating_add(d2 as usize);
                        chars.next();
                    }
                    w = w.saturating_add(n);
                } else if ch != '+' {
                    w = w.saturating_add(1);
                }
            }
            match files {
                None => files = Some(w),
                Some(f) if f != w => {
                    return Err(err(
                        c + 1,
                        format!("rank has {w} squares, earlier ranks have {f}"),
                    ))
                }
                _ => {}
            }
            c += row.chars().count() + 1;
        }
    }
    let files = files.unwrap_or(0);
    let variant = match variant {
        Some(v) => {
            let r = v.rules();
            if r.files as usize != files || r.ranks as usize != ranks {
                return Err(err(
                    bcol + 1,
                    format!(
                        "board is {files}x{ranks}, but {} needs {}x{}",
                        v, r.files, r.ranks
                    ),
                ));
            }
            v
        }
        None => Variant::from_dimensions(files, ranks).ok_or_else(|| {
            err(
                bcol + 1,
                format!("board is {files}x{ranks}; expected 9x9, 5x5 or 3x4"),
            )
        })?,
    };

    let mut setup = Setup::empty(variant);
    let mut c = bcol;
    for (ri, row) in rows.iter().enumerate() {
        let rank = ri as u8 + 1;
        let mut file = files as u8; // leftmost file first
        let mut promoted = false;
        let mut chars = row.chars().peekable();
        while let Some(ch) = chars.next() {
            c += 1;
            if let Some(d) = ch.to_digit(10) {
                if promoted {
                    return Err(err(c, "expected a piece letter after '+'"));
                }
                let mut n = d as u8;
                while let Some(d2) = chars.peek().and_then(|c| c.to_digit(10)) {
                    n = n.saturating_mul(10).saturating_add(d2 as u8);
                    chars.next();
                    c += 1;
                }
                if n == 0 {
                    return Err(err(c, "empty-square count 0"));
                }
                file = file.saturating_sub(n);
            } else if ch == '+' {
                if promoted {
                    return Err(err(c, "two '+' in a row"));
                }
                promoted = true;
            } else if ch.is_ascii_alphabetic() {
                let role = Role::from_sfen_char(ch, promoted, variant).ok_or_else(|| {
                    err(
                        c,
                        format!(
                            "`{}{ch}` is not a piece of {variant}",
                            if promoted { "+" } else { "" }
                        ),
                    )
                })?;
                let color = if ch.is_ascii_uppercase() {
                    Color::Black
                } else {
                    Color::White
                };
                let sq =
                    Square::new(file, rank).ok_or_else(|| err(c, "too many squares in rank"))?;
                setup.board[sq.index()] = Some(Piece::new(color, role));
                file -= 1;
                promoted = false;
            } else {
                return Err(err(c, format!("unexpected character `{ch}` in board")));
            }
        }
        if promoted {
            return Err(err(c, "rank ends after '+'"));
        }
        c += 1; // '/'
    }

    let (tcol, turn) = fields[1];
    setup.turn = match turn {
        "b" | "B" => Color::Black,
        "w" | "W" => Color::White,
        _ => {
            return Err(err(
                tcol + 1,
                format!("expected side to move `b` or `w`, found `{turn}`"),
            ))
        }
    };

    let (hcol, hand) = fields[2];
    if hand != "-" {
        let mut hands = [Hand::EMPTY; 2];
        let mut count: Option<u32> = None;
        let mut c = hcol;
        for ch in hand.chars() {
            c += 1;
            if let Some(d) = ch.to_digit(10) {
                let n = count.unwrap_or(0) * 10 + d;
                if n > 99 {
                    return Err(err(c, "hand count too large"));
                }
                count = Some(n);
            } else if ch.is_ascii_alphabetic() {
                let role = Role::from_sfen_char(ch, false, variant)
                    .filter(|r| r.hand_index().is_some())
                    .ok_or_else(|| err(c, format!("`{ch}` cannot be held in hand in {variant}")))?;
                let color = if ch.is_ascii_uppercase() {
                    Color::Black
                } else {
                    Color::White
                };
                let n = count.take().unwrap_or(1);
                if n == 0 {
                    return Err(err(c, "hand count 0"));
                }
                let h = &mut hands[color.index()];
                let total = h.count(role) as u32 + n;
                // The same limit as for one count (`R2R` is `3R`), so that
                // what is read can be written back and read again.
                if total > 99 {
                    return Err(err(c, "hand count too large"));
                }
                h.set(role, total as u8);
            } else {
                return Err(err(c, format!("unexpected character `{ch}` in hand")));
            }
        }
        if count.is_some() {
            return Err(err(c, "hand ends with a count and no piece"));
        }
        setup.hands = hands;
    }

    if let Some(&(mcol, num)) = fields.get(3) {
        let n = num
            .parse::<u64>()
            .ok()
            .filter(|&n| n >= 1)
            .ok_or_else(|| err(mcol + 1, format!("expected a move number, found `{num}`")))?;
        setup.ply = u32::try_from(n)
            .ok()
            .filter(|&n| n <= MAX_MOVE_NUMBER)
            .ok_or_else(|| {
                err(
                    mcol + 1,
                    format!("move number {num} is larger than {MAX_MOVE_NUMBER}"),
                )
            })?;
    }
    Ok(setup)
}

/// The largest move number (SFEN's last field) read: far beyond any game,
/// and low enough that numbering the moves of a game from it never
/// overflows (a game cannot hold 2³¹ moves).
pub const MAX_MOVE_NUMBER: u32 = i32::MAX as u32;

/// Writes a setup as SFEN (hands in the canonical order, Black first).
pub fn write_sfen(setup: &Setup) -> String {
    let mut s = String::with_capacity(96);
    write_board(setup, &mut s);
    s.push(' ');
    s.push(setup.turn.sfen_char());
    s.push(' ');
    write_hands(setup, &mut s);
    s.push(' ');
    s.push_str(itoa::Buffer::new().format(setup.ply));
    s
}

/// Writes a count in decimal (no `fmt` on this hot path).
fn push_count(s: &mut String, n: u32) {
    if n < 10 {
        s.push(char::from(b'0' + n as u8));
    } else {
        let _ = write!(s, "{n}");
    }
}

/// Writes a piece's SFEN letters (as [`Piece::sfen`]) without allocating.
fn push_piece(s: &mut String, p: Piece, variant: crate::rules::variant::Variant) {
    let text = p.role.sfen(variant);
    match p.color {
        crate::rules::color::Color::Black => s.push_str(text),
        crate::rules::color::Color::White => {
            for c in text.chars() {
                s.push(c.to_ascii_lowercase());
            }
        }
    }
}

/// Black's SFEN letters of every role in one variant's spelling, by role
/// index: the length, then up to two bytes (`+` first for promoted roles).
type Letters = [[u8; 3]; 16];

const fn letters(variant: Variant) -> Letters {
    let mut t = [[0u8; 3]; 16];
    let mut i = 0;
    while i < Role::ALL.len() {
        let r = Role::ALL[i];
        let b = r.sfen(variant).as_bytes();
        t[r.index()] = [b.len() as u8, b[0], if b.len() > 1 { b[1] } else { 0 }];
        i += 1;
    }
    t
}

/// The letters of the 9×9 and 5×5 games, and of doubutsu.
const SHOGI_LETTERS: Letters = letters(Variant::Standard);
const DOUBUTSU_LETTERS: Letters = letters(Variant::Doubutsu);

/// Writes only the board field. The field is gathered as bytes (SFEN
/// letters are ASCII; at most 9 × 9 squares of two bytes and 8 slashes)
/// and appended at once.
pub fn write_board(setup: &Setup, s: &mut String) {
    let rules = setup.variant.rules();
    let table = match setup.variant {
        Variant::Doubutsu => &DOUBUTSU_LETTERS,
        _ => &SHOGI_LETTERS,
    };
    let mut buf = [0u8; 192];
    let mut n = 0;
    for rank in 1..=rules.ranks {
        if rank > 1 {
            buf[n] = b'/';
            n += 1;
        }
        let mut empty = 0u8;
        for file in (1..=rules.files).rev() {
            // `Square::new(file, rank)`'s index, on the grid by the loops.
            let index = usize::from(file - 1) * 9 + usize::from(rank - 1);
            match setup.board[index] {
                None => empty += 1,
                Some(p) => {
                    if empty > 0 {
                        buf[n] = b'0' + empty;
                        n += 1;
                        empty = 0;
                    }
                    let [len, a, b] = table[p.role.index()];
                    // Lower case for White: the letters' 0x20 bit (`+`
                    // already has it).
                    let case = if p.color == Color::White { 0x20 } else { 0 };
                    buf[n] = a | case;
                    buf[n + 1] = b | case;
                    n += len as usize;
                }
            }
        }
        if empty > 0 {
            buf[n] = b'0' + empty;
            n += 1;
        }
    }
    s.push_str(std::str::from_utf8(&buf[..n]).expect("SFEN letters are ASCII"));
}

/// Writes the hand field (`-` when both hands are empty).
pub fn write_hands(setup: &Setup, s: &mut String) {
    if setup.hands.iter().all(|h| h.is_empty()) {
        s.push('-');
        return;
    }
    for c in Color::ALL {
        for (role, n) in setup.hands[c.index()].iter() {
            if n > 1 {
                push_count(s, u32::from(n));
            }
            push_piece(s, Piece::new(c, role), setup.variant);
        }
    }
}
