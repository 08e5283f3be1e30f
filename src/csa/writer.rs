//! The CSA writer (V2.2 by default, V3.0 on request).

use super::reader::special_name;
use crate::emit::{extra_breaks, one_line, text_lines, Dropped, Output, WriteError};
use crate::record::{HeaderKey, Line, MoveTime, Record, TerminalKind, TimeControl};
use crate::rules::color::Color;
use crate::rules::moves::Move;
use crate::rules::position::Position;
use crate::rules::role::Role;
use crate::rules::square::Square;
use crate::rules::variant::Variant;
use std::fmt::Write as _;

/// The CSA version to write.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum CsaVersion {
    /// `V2.2`: integer seconds, no encoding line (the widest support).
    #[default]
    V22,
    /// `V3.0`: `'CSA encoding=UTF-8` line, milliseconds when non-integral.
    V30,
}

/// Options of [`write()`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct WriteOptions {
    /// The version to write.
    pub version: CsaVersion,
}

/// Writes one record as CSA.
///
/// # Errors
/// Records of variants other than standard shogi.
///
/// ```
/// use kifu::csa::{write, WriteOptions};
/// use kifu::record::{Node, Record};
/// use kifu::Move;
///
/// let mut record = Record::default();
/// let m = Move::from_usi("7g7f", kifu::Variant::Standard).unwrap();
/// record.main.moves.push(Node::new(m, Default::default()));
/// let out = write(&record, &WriteOptions::default()).unwrap();
/// assert_eq!(out.text, "V2.2\nPI\n+\n+7776FU\n");
/// ```
pub fn write(record: &Record, opts: &WriteOptions) -> Result<Output, WriteError> {
    let mut out = Output::default();
    write_version(&mut out.text, opts);
    write_record(record, opts, &mut out)?;
    Ok(out)
}

/// Writes several records into one CSA file, separated by `/` lines (the
/// version and encoding lines are written once, at the top).
///
/// # Errors
/// As [`write()`].
pub fn write_games(records: &[Record], opts: &WriteOptions) -> Result<Output, WriteError> {
    let mut out = Output::default();
    write_version(&mut out.text, opts);
    for (i, r) in records.iter().enumerate() {
        if i > 0 {
            out.text.push_str("/\n");
        }
        write_record(r, opts, &mut out)?;
    }
    Ok(out)
}

fn write_version(s: &mut String, opts: &WriteOptions) {
    match opts.version {
        CsaVersion::V22 => s.push_str("V2.2\n"),
        CsaVersion::V30 => s.push_str("'CSA encoding=UTF-8\nV3.0\n"),
    }
}

/// Whether a key can be written as a `$` line.
fn is_info_key(k: &str) -> bool {
    !k.is_empty()
        && k.bytes().all(|b| {
            b.is_ascii_uppercase() || b.is_ascii_digit() || matches!(b, b'_' | b'+' | b'-')
        })
}

/// The time-control line: `$TIME:base+byoyomi+increment` (V3.0) or
/// `$TIME_LIMIT:HH:MM+SS` (V2.2) when the text is a time control kifu
/// reads ([`TimeControl::parse`]) and the version can state it; else the
/// text as a comment (`'time control: …`), counted in
/// `dropped.as_comments`. Free text never goes into a `$` line the
/// versions give a grammar to.
fn write_time_control(s: &mut String, v: &str, opts: &WriteOptions, dropped: &mut Dropped) {
    let tc = TimeControl::parse(v);
    let line = match (opts.version, tc) {
        (CsaVersion::V30, Some(t)) => Some(format!("$TIME:{}", t.csa_time())),
        (CsaVersion::V22, Some(t)) => t.csa_time_limit().map(|l| format!("$TIME_LIMIT:{l}")),
        (_, None) => None,
    };
    match line {
        Some(l) => {
            s.push_str(&l);
            s.push('\n');
        }
        None => {
            dropped.as_comments.add("time control");
            write_comments(s, &[format!("time control: {v}")], dropped);
        }
    }
}

fn write_record(record: &Record, opts: &WriteOptions, out: &mut Output) -> Result<(), WriteError> {
    if record.variant() != Variant::Standard {
        return Err(WriteError::new(format!(
            "CSA cannot hold {} records",
            record.variant()
        )));
    }
    let s = &mut out.text;
    let dropped = &mut out.dropped;
    // Names first, then `$` lines in source order.
    for (k, v) in &record.header.entries {
        match k {
            HeaderKey::Sente => writeln!(s, "N+{}", one_line(v, &mut dropped.altered)).ok(),
            HeaderKey::Gote => writeln!(s, "N-{}", one_line(v, &mut dropped.altered)).ok(),
            _ => None,
        };
    }
    for (k, v) in &record.header.entries {
        let key = match k {
            HeaderKey::Sente | HeaderKey::Gote => continue,
            HeaderKey::Event => "EVENT",
            HeaderKey::Site => "SITE",
            HeaderKey::StartTime => "START_TIME",
            HeaderKey::EndTime => "END_TIME",
            HeaderKey::TimeControl => {
                write_time_control(s, v, opts, dropped);
                continue;
            }
            HeaderKey::Opening => "OPENING",
            HeaderKey::Other(k) if is_info_key(k) => k.as_str(),
            _ if crate::emit::restates_start(k, v, record) => continue,
            HeaderKey::Title | HeaderKey::Other(_) => {
                dropped
                    .headers
                    .add(crate::japanese::header_key_name(k, false));
                continue;
            }
        };
        let _ = writeln!(s, "${key}:{}", one_line(v, &mut dropped.altered));
    }
    // Start position.
    let setup = &record.start.setup;
    match record.start.handicap {
        Some(h) => {
            s.push_str(h.info().csa_pi);
            s.push('\n');
        }
        None => {
            for rank in 1..=9u8 {
                let _ = write!(s, "P{rank}");
                for file in (1..=9u8).rev() {
                    match Square::new(file, rank).and_then(|sq| setup.piece_at(sq)) {
                        Some(p) => {
                            s.push(p.color.csa_char());
                            s.push_str(p.role.csa());
                        }
                        None => s.push_str(" * "),
                    }
                }
                s.push('\n');
            }
            for c in Color::ALL {
                let hand = &setup.hands[c.index()];
                if hand.is_empty() {
                    continue;
                }
                let _ = write!(s, "P{}", c.csa_char());
                for role in Role::HAND {
                    for _ in 0..hand.count(role) {
                        s.push_str("00");
                        s.push_str(role.csa());
                    }
                }
                s.push('\n');
            }
        }
    }
    s.push(setup.turn.csa_char());
    s.push('\n');
    write_comments(s, &record.initial_comments, dropped);
    // Moves.
    let mut pos = Position::from_setup_unchecked(setup);
    dropped.variations += record.variation_count();
    let line: &Line = &record.main;
    for node in &line.moves {
        let color = node.color.unwrap_or_else(|| pos.turn());
        s.push(color.csa_char());
        match node.mv {
            Move::Normal { from, to, promote } => {
                let before = node
                    .role
                    .or_else(|| pos.piece_at(from).map(|p| p.role))
                    .unwrap_or(Role::Pawn);
                let after = if promote {
                    before.promoted().unwrap_or(before)
                } else {
                    before
                };
                push_square(s, Some(from));
                push_square(s, Some(to));
                s.push_str(after.csa());
            }
            Move::Drop { role, to } => {
                s.push_str("00");
                push_square(s, Some(to));
                s.push_str(role.csa());
            }
        }
        s.push('\n');
        write_time(s, node.time, opts, dropped);
        write_comments(s, &node.comments, dropped);
        pos.play_unchecked(node.mv);
    }
    // floodgate's `'summary:` comment, written again, states the result
    // itself: no `%` line is added (reading the output gives the same
    // claim back).
    let summary = summary_carried(record);
    let terminal = if summary {
        None
    } else {
        crate::emit::main_terminal(record)
    };
    if !summary && !crate::emit::claim_carried(record, terminal.as_deref().map(|t| &t.kind)) {
        dropped.results += 1;
    }
    if let Some(t) = terminal.as_deref() {
        let name: Option<String> = match &t.kind {
            TerminalKind::IllegalWin => {
                // The previous move was a foul by the side that made it.
                let fouler = !pos.turn();
                Some(format!("{}ILLEGAL_ACTION", fouler.csa_char()))
            }
            TerminalKind::Other(o) if !is_info_key(o) => None,
            k => special_name(k).map(str::to_string),
        };
        match name {
            Some(n) => {
                s.push('%');
                s.push_str(&n);
                s.push('\n');
                write_time(s, t.time, opts, dropped);
                write_comments(s, &t.comments, dropped);
            }
            None => {
                dropped.terminals.add(t.kind.reason());
                dropped.comments += t.comments.len();
                if t.time.spent_ms.is_some() {
                    dropped.times += 1;
                }
            }
        }
    }
    Ok(())
}

/// Whether the record's result claim is floodgate's `'summary:` comment
/// and the record holds that comment (on its last move, or before the
/// moves), so that the writer writes it again: the main line has no
/// terminal of its own.
fn summary_carried(record: &Record) -> bool {
    let Some(claim) = &record.claim else {
        return false;
    };
    if record.main.terminal.is_some() || !claim.text.starts_with("summary:") {
        return false;
    }
    let comments = match record.main.moves.last() {
        Some(n) => &n.comments,
        None => &record.initial_comments,
    };
    comments.iter().any(|c| c.trim_end() == claim.text)
}

fn push_square(s: &mut String, sq: Option<Square>) {
    match sq {
        Some(sq) => {
            s.push((b'0' + sq.file()) as char);
            s.push((b'0' + sq.rank()) as char);
        }
        None => s.push_str("00"),
    }
}

fn write_time(s: &mut String, t: MoveTime, opts: &WriteOptions, dropped: &mut Dropped) {
    let Some(ms) = t.spent_ms else { return };
    let (secs, frac) = (ms / 1000, ms % 1000);
    match opts.version {
        CsaVersion::V22 => {
            if frac != 0 {
                dropped.times += 1;
            }
            let _ = writeln!(s, "T{secs}");
        }
        CsaVersion::V30 => {
            if frac == 0 {
                let _ = writeln!(s, "T{secs}");
            } else {
                let f = format!("{frac:03}");
                let _ = writeln!(s, "T{secs}.{}", f.trim_end_matches('0'));
            }
        }
    }
}

/// Each line of each comment as a `'` line ([`text_lines`]: a line
/// separator other than CR and LF becomes a line break, counted in
/// `dropped.altered`). A line that would read back
/// as an encoding declaration (`'CSA encoding=…`) gets a leading space
/// (counted in `dropped.altered`).
fn write_comments(s: &mut String, comments: &[String], dropped: &mut Dropped) {
    for c in comments {
        if extra_breaks(c) {
            dropped.altered += 1;
        }
        for part in text_lines(c) {
            s.push('\'');
            if part.starts_with("CSA") && part.contains("encoding=") {
                s.push(' ');
                dropped.altered += 1;
            }
            s.push_str(part);
            s.push('\n');
        }
    }
}
