//! The JKF writer: normalised JKF that validates against the published
//! schema.

use super::relative::relative_mark;
use super::schema::*;
use crate::emit::{Dropped, Output, WriteError};
use crate::record::{Line, MoveTime, Node, Record, TerminalKind};
use crate::rules::hand::Hand;
use crate::rules::handicap::Handicap;
use crate::rules::moves::Move;
use crate::rules::position::Position;
use crate::rules::role::Role;
use crate::rules::square::Square;
use crate::rules::variant::Variant;

// ---------------------------------------------------------------------------
// Writer

/// Options of the JKF writer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WriteOptions {
    /// Indent the JSON (default true).
    pub pretty: bool,
}

impl Default for WriteOptions {
    fn default() -> WriteOptions {
        WriteOptions { pretty: true }
    }
}

fn place(sq: Square) -> PlaceOut {
    PlaceOut {
        x: sq.file(),
        y: sq.rank(),
    }
}

struct Writer {
    dropped: Dropped,
}

impl Writer {
    /// `totals` are the running cumulative times per colour, used when a
    /// record has per-move times but no totals.
    fn line(
        &mut self,
        line: &Line,
        terminal: Option<&crate::record::Terminal>,
        mut pos: Position,
        mut last_to: Option<Square>,
        mut totals: [u64; 2],
    ) -> Vec<ItemOut> {
        let mut out = Vec::with_capacity(line.moves.len() + 1);
        for node in &line.moves {
            let mut item = ItemOut {
                mv: Some(self.mv(&pos, node, last_to)),
                ..ItemOut::default()
            };
            let mover = pos.turn().index();
            item.time = self.time(&node.time, &mut totals[mover]);
            if !node.comments.is_empty() {
                item.comments = Some(node.comments.clone());
            }
            if !node.variations.is_empty() {
                let forks = node
                    .variations
                    .iter()
                    .map(|v| self.line(v, v.terminal.as_ref(), pos, last_to, totals))
                    .collect();
                item.forks = Some(forks);
            }
            last_to = Some(node.mv.to());
            pos.play_unchecked(node.mv);
            out.push(item);
        }
        if let Some(t) = terminal {
            match special_name(&t.kind, pos.turn()) {
                Some(name) => {
                    if t.kind == TerminalKind::Sealed {
                        // JKF has no sealed move: written as CHUDAN.
                        self.dropped.terminals.add(t.kind.reason());
                    }
                    let mover = pos.turn().index();
                    out.push(ItemOut {
                        special: Some(name),
                        time: self.time(&t.time, &mut totals[mover]),
                        comments: (!t.comments.is_empty()).then(|| t.comments.clone()),
                        ..ItemOut::default()
                    });
                }
                None => {
                    self.dropped.terminals.add(t.kind.reason());
                    self.dropped.comments += t.comments.len();
                }
            }
        }
        out
    }

    fn time(&mut self, t: &MoveTime, total: &mut u64) -> Option<TimeOut> {
        let spent = match t.spent_ms {
            Some(s) => s,
            None => {
                if t.total_ms.is_some() {
                    self.dropped.times += 1;
                }
                return None;
            }
        };
        let tot = match t.total_ms {
            Some(x) => x,
            None => total.saturating_add(spent),
        };
        *total = tot;
        if spent % 1000 != 0 || tot % 1000 != 0 {
            // JKF times are whole seconds.
            self.dropped.times += 1;
        }
        let (s, tt) = (spent / 1000, tot / 1000);
        Some(TimeOut {
            now: NowOut {
                m: s / 60,
                s: s % 60,
            },
            total: TotalOut {
                h: tt / 3600,
                m: tt / 60 % 60,
                s: tt % 60,
            },
        })
    }

    fn mv(&mut self, pos: &Position, node: &Node, last_to: Option<Square>) -> MoveOut {
        let to = node.mv.to();
        let same = (last_to == Some(to)).then_some(true);
        match node.mv {
            Move::Drop { role, .. } => MoveOut {
                color: pos.turn().index() as u8,
                from: None,
                to: place(to),
                piece: role.csa(),
                same,
                promote: None,
                capture: None,
                relative: relative_mark(pos, node.mv),
            },
            Move::Normal { from, promote, .. } => {
                let piece = pos.piece_at(from);
                let color = piece.map_or(pos.turn(), |p| p.color);
                let role = piece.map(|p| p.role).or(node.role).unwrap_or(Role::King);
                let promote = if promote {
                    Some(true)
                } else if crate::psn::notation::could_promote(
                    Variant::Standard,
                    color,
                    role,
                    from,
                    to,
                ) {
                    Some(false)
                } else {
                    None
                };
                MoveOut {
                    color: color.index() as u8,
                    from: Some(place(from)),
                    to: place(to),
                    piece: role.csa(),
                    same,
                    promote,
                    capture: pos
                        .piece_at(to)
                        .filter(|p| p.role != Role::King)
                        .map(|p| p.role.csa()),
                    relative: relative_mark(pos, node.mv),
                }
            }
        }
    }
}

fn hand_out(h: &Hand) -> HandOut {
    HandOut {
        FU: h.count(Role::Pawn),
        KY: h.count(Role::Lance),
        KE: h.count(Role::Knight),
        GI: h.count(Role::Silver),
        KI: h.count(Role::Gold),
        KA: h.count(Role::Bishop),
        HI: h.count(Role::Rook),
    }
}

/// Writes a record as JKF. Only standard shogi fits (JKF boards are 9×9
/// with the standard pieces).
pub fn write(record: &Record, opts: &WriteOptions) -> Result<Output, WriteError> {
    if record.variant() != Variant::Standard {
        return Err(WriteError::new(format!(
            "JKF holds standard shogi only, not {}",
            record.variant()
        )));
    }
    let mut w = Writer {
        dropped: Dropped::default(),
    };
    let handicap = crate::kif::writer::is_handicap(record);
    let mut header: Vec<(String, String)> = Vec::with_capacity(record.header.entries.len());
    for (k, v) in &record.header.entries {
        let name = crate::japanese::header_key_name(k, handicap);
        if name.is_empty() || header.iter().any(|(n, _)| n == name) {
            // A JSON object holds a key once.
            w.dropped.headers.add(name);
        } else {
            header.push((name.to_string(), v.clone()));
        }
    }
    // JKF has no result field apart from the terminal: a result line is
    // carried by the terminal it states.
    let terminal = crate::emit::main_terminal(record);
    if !crate::emit::claim_carried(record, terminal.as_deref().map(|t| &t.kind)) {
        w.dropped.results += 1;
    }
    let setup = &record.start.setup;
    let preset = record
        .start
        .handicap
        .or_else(|| Handicap::detect(setup))
        .filter(|h| {
            let s = h.setup();
            s.board == setup.board && s.hands == setup.hands && s.turn == setup.turn
        });
    let initial = match preset {
        Some(h) => InitialOut {
            preset: h.info().jkf,
            data: None,
        },
        None => InitialOut {
            preset: "OTHER",
            data: Some(StateOut {
                color: setup.turn.index() as u8,
                board: (1..=9u8)
                    .map(|x| {
                        (1..=9u8)
                            .map(|y| {
                                let p = Square::new(x, y).and_then(|sq| setup.piece_at(sq));
                                CellOut {
                                    color: p.map(|p| p.color.index() as u8),
                                    kind: p.map(|p| p.role.csa()),
                                }
                            })
                            .collect()
                    })
                    .collect(),
                hands: [hand_out(&setup.hands[0]), hand_out(&setup.hands[1])],
            }),
        },
    };
    let mut moves = vec![ItemOut {
        comments: (!record.initial_comments.is_empty()).then(|| record.initial_comments.clone()),
        ..ItemOut::default()
    }];
    let pos = Position::from_setup_unchecked(setup);
    moves.extend(w.line(&record.main, terminal.as_deref(), pos, None, [0, 0]));
    let doc = JkfOut {
        header: HeaderOut(header),
        initial,
        moves,
    };
    let mut text = if opts.pretty {
        serde_json::to_string_pretty(&doc)
    } else {
        serde_json::to_string(&doc)
    }
    .map_err(|e| WriteError::new(e.to_string()))?;
    text.push('\n');
    Ok(Output {
        text,
        dropped: w.dropped,
    })
}
