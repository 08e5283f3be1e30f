//! Property tests: random legal games (seeded random walks from the standard
//! start, from handicaps and, where the format has it, from minishogi), with
//! random comments, move times and terminal events, written in every format
//! and read back. Moves, start position and terminal must come back
//! identical; comments and times wherever the format holds them (see
//! docs/formats/*.md and each writer's `Output.dropped`).

use kifu::read::{self, Format, ReadOptions, Severity};
use kifu::record::{HeaderKey, Line, MoveTime, Node, Record, Start, Terminal, TerminalKind};
use kifu::write::{Output, WriteError};
use kifu::{Handicap, Move, Position, Status, Variant};
use proptest::prelude::*;

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }
    fn chance(&mut self, percent: u64) -> bool {
        self.below(100) < percent
    }
}

/// Comment text: words that no format treats specially (no comment or
/// brace markers), never empty, no surrounding spaces.
fn comment(rng: &mut Rng) -> String {
    const WORDS: [&str; 12] = [
        "good",
        "悪手",
        "評価値 +120",
        "７六歩 is fine",
        "次は▲２六歩",
        "threat: R*5e",
        "(book)",
        "互角",
        "time trouble!",
        "詰めろ",
        "1-0?",
        "a \"quote\"",
    ];
    let n = 1 + rng.below(3);
    (0..n)
        .map(|_| WORDS[rng.below(WORDS.len() as u64) as usize])
        .collect::<Vec<_>>()
        .join(" ")
}

const STARTS: [Handicap; 5] = [
    Handicap::Even,
    Handicap::Even,
    Handicap::Lance,
    Handicap::TwoPiece,
    Handicap::SixPiece,
];

/// A random legal game: `plies` moves (fewer when it ends early) from
/// `start`, every ply taken from the legal move generator.
fn random_game(seed: u64, plies: usize, minishogi: bool) -> Record {
    let mut rng = Rng(seed | 1);
    let mut record = Record {
        start: if minishogi {
            Start::variant(Variant::Minishogi)
        } else {
            Start::handicap(STARTS[rng.below(STARTS.len() as u64) as usize])
        },
        ..Record::default()
    };
    if rng.chance(50) {
        record.header.push(HeaderKey::Sente, "Sente Player");
        record.header.push(HeaderKey::Gote, "後手 名人");
    }
    if rng.chance(30) {
        record.initial_comments.push(comment(&mut rng));
    }
    let timed = rng.chance(50);
    let mut totals = [0u64; 2];
    let mut pos = Position::from_setup_unchecked(&record.start.setup);
    for _ in 0..plies {
        let moves = pos.legal_moves();
        if moves.is_empty() || pos.status() != Status::Ongoing {
            break;
        }
        let m = moves[rng.below(moves.len() as u64) as usize];
        let mut node = Node::new(m, Default::default());
        if timed && rng.chance(80) {
            let spent = rng.below(600) * 1000;
            let side = pos.turn().index();
            totals[side] += spent;
            node.time = MoveTime {
                spent_ms: Some(spent),
                total_ms: Some(totals[side]),
            };
        }
        if rng.chance(15) {
            node.comments.push(comment(&mut rng));
            if rng.chance(30) {
                node.comments.push(comment(&mut rng));
            }
        }
        if rng.chance(8) {
            // A variation: another legal move here, then a few plies (and
            // sometimes a variation inside it).
            if let Some(line) = random_line(&mut rng, pos, m, 2) {
                node.variations.push(line);
            }
        }
        pos.play_unchecked(m);
        record.main.moves.push(node);
    }
    let kind = match rng.below(3) {
        0 => None,
        1 => Some(TerminalKind::Resign),
        _ => Some(TerminalKind::Abort),
    };
    // A game over on the board gets no terminal word (the formats would
    // rather say 詰み); the moves still round-trip.
    if pos.status() == Status::Ongoing {
        record.main.terminal = kind.map(|kind| Terminal {
            kind,
            time: MoveTime::default(),
            comments: if rng.chance(30) {
                vec![comment(&mut rng)]
            } else {
                Vec::new()
            },
            location: Default::default(),
        });
    }
    record
}

/// A variation from `pos` whose first move differs from `main_move`.
fn random_line(rng: &mut Rng, mut pos: Position, main_move: Move, depth: u32) -> Option<Line> {
    let moves = pos.legal_moves();
    let others: Vec<Move> = moves.iter().copied().filter(|&m| m != main_move).collect();
    if others.is_empty() {
        return None;
    }
    let mut line = Line::default();
    let mut m = others[rng.below(others.len() as u64) as usize];
    for i in 0..1 + rng.below(12) {
        let mut node = Node::new(m, Default::default());
        if rng.chance(20) {
            node.comments.push(comment(rng));
        }
        // (Not on the first node: its alternatives are siblings of the
        // line itself, held by the node the line branches from.)
        if i > 0 && depth > 0 && rng.chance(10) {
            if let Some(v) = random_line(rng, pos, m, depth - 1) {
                node.variations.push(v);
            }
        }
        pos.play_unchecked(m);
        line.moves.push(node);
        let next = pos.legal_moves();
        if next.is_empty() || pos.status() != Status::Ongoing {
            break;
        }
        m = next[rng.below(next.len() as u64) as usize];
    }
    Some(line)
}

/// The same tree of moves (and, when `comments`, comments) below the top.
fn same_tree(a: &Line, b: &Line, comments: bool) -> bool {
    a.moves.len() == b.moves.len()
        && a.moves.iter().zip(&b.moves).all(|(x, y)| {
            x.mv == y.mv
                && (!comments || x.comments == y.comments)
                && x.variations.len() == y.variations.len()
                && x.variations
                    .iter()
                    .zip(&y.variations)
                    .all(|(p, q)| same_tree(p, q, comments))
        })
}

fn write(record: &Record, format: Format) -> Result<Output, WriteError> {
    kifu::write::write(record, format, &Default::default())
}

/// What a format keeps of a record.
struct Holds {
    comments: bool,
    terminal_comments: bool,
    spent: bool,
    total: bool,
    /// A missing time is written as 0 once any move has a time.
    fills_missing_times: bool,
    terminal: bool,
    headers: bool,
    variations: bool,
}

fn holds(format: Format) -> Holds {
    let all = Holds {
        comments: true,
        terminal_comments: true,
        spent: true,
        total: true,
        fills_missing_times: false,
        terminal: true,
        headers: true,
        variations: true,
    };
    match format {
        Format::Kif => Holds {
            fills_missing_times: true,
            ..all
        },
        Format::Csa => Holds {
            total: false,
            variations: false,
            ..all
        },
        Format::Ki2 => Holds {
            terminal_comments: false,
            spent: false,
            total: false,
            ..all
        },
        Format::Psn | Format::Jkf => all,
        Format::Usi => Holds {
            comments: false,
            terminal_comments: false,
            spent: false,
            total: false,
            fills_missing_times: false,
            terminal: false,
            headers: false,
            variations: false,
        },
    }
}

fn expected_time(t: &MoveTime, h: &Holds, timed: bool, total_before: u64) -> MoveTime {
    let mut spent = if h.spent { t.spent_ms } else { None };
    let mut total = if h.total { t.total_ms } else { None };
    if h.fills_missing_times && timed {
        spent = Some(spent.unwrap_or(0));
        total = Some(total.unwrap_or(total_before));
    }
    MoveTime {
        spent_ms: spent,
        total_ms: total,
    }
}

fn check_round_trip(record: &Record, format: Format) -> Result<(), TestCaseError> {
    let out = match write(record, format) {
        Ok(out) => out,
        Err(e) => {
            // Only CSA and JKF refuse minishogi; nothing else may fail.
            prop_assert!(
                record.variant() == Variant::Minishogi
                    && matches!(format, Format::Csa | Format::Jkf),
                "{format}: {e}"
            );
            return Ok(());
        }
    };
    let games = read::read_all(out.text.as_bytes(), Some(format), &ReadOptions::default());
    prop_assert_eq!(
        games.len(),
        1,
        "{}: {} games in\n{}",
        format,
        games.len(),
        out.text
    );
    let g = &games[0];
    let errors: Vec<_> = g
        .findings
        .iter()
        .filter(|f| f.severity == Severity::Error)
        .collect();
    prop_assert!(errors.is_empty(), "{format}: {errors:?} in\n{}", out.text);
    let back = &g.record;
    let ctx = || format!("{format}:\n{}", out.text);

    // Start position (the side to move included).
    let (a, b) = (&record.start.setup, &back.start.setup);
    prop_assert_eq!(
        (a.variant, a.board, a.hands, a.turn),
        (b.variant, b.board, b.hands, b.turn),
        "start, {}",
        ctx()
    );
    // Moves.
    let ours: Vec<_> = record.main.moves.iter().map(|n| n.mv).collect();
    let theirs: Vec<_> = back.main.moves.iter().map(|n| n.mv).collect();
    prop_assert_eq!(ours, theirs, "moves, {}", ctx());

    let h = holds(format);
    // Terminal.
    let kind = |l: &Line| l.terminal.as_ref().map(|t| t.kind.clone());
    if h.terminal {
        prop_assert_eq!(kind(&record.main), kind(&back.main), "terminal, {}", ctx());
    } else {
        prop_assert_eq!(
            out.dropped.terminals.count(),
            usize::from(record.main.terminal.is_some()),
            "dropped terminals, {}",
            ctx()
        );
    }
    // Comments.
    let none: Vec<String> = Vec::new();
    let expect = |c: &Vec<String>| if h.comments { c.clone() } else { none.clone() };
    prop_assert_eq!(
        expect(&record.initial_comments),
        back.initial_comments.clone(),
        "initial comments, {}",
        ctx()
    );
    for (i, (x, y)) in record.main.moves.iter().zip(&back.main.moves).enumerate() {
        prop_assert_eq!(
            expect(&x.comments),
            y.comments.clone(),
            "comments of ply {}, {}",
            i + 1,
            ctx()
        );
    }
    if h.terminal {
        if let (Some(x), Some(y)) = (&record.main.terminal, &back.main.terminal) {
            let want = if h.terminal_comments {
                x.comments.clone()
            } else {
                Vec::new()
            };
            prop_assert_eq!(want, y.comments.clone(), "terminal comments, {}", ctx());
        }
    }
    // Times.
    let timed = record
        .main
        .moves
        .iter()
        .any(|n| n.time.spent_ms.is_some() || n.time.total_ms.is_some());
    let mut totals = [0u64; 2];
    let mut turn = record.start.setup.turn;
    for (i, (x, y)) in record.main.moves.iter().zip(&back.main.moves).enumerate() {
        let want = expected_time(&x.time, &h, timed, totals[turn.index()]);
        prop_assert_eq!(want, y.time, "time of ply {}, {}", i + 1, ctx());
        if let Some(t) = want.total_ms {
            totals[turn.index()] = t;
        }
        turn = !turn;
    }
    // Variations.
    if h.variations {
        prop_assert!(
            same_tree(&record.main, &back.main, h.comments),
            "variations, {}",
            ctx()
        );
    } else {
        prop_assert_eq!(
            out.dropped.variations,
            record.variation_count(),
            "dropped variations, {}",
            ctx()
        );
    }
    // Dropped counts agree with what the format cannot hold.
    if !h.comments {
        prop_assert_eq!(
            out.dropped.comments,
            record.comment_count(),
            "dropped comments, {}",
            ctx()
        );
    }
    // Player names.
    if h.headers {
        for key in [HeaderKey::Sente, HeaderKey::Gote] {
            prop_assert_eq!(
                record.header.get(&key),
                back.header.get(&key),
                "{:?}, {}",
                key,
                ctx()
            );
        }
    }
    Ok(())
}

fn run(format: Format, seed: u64, plies: usize, minishogi: bool) -> Result<(), TestCaseError> {
    let record = random_game(seed, plies, minishogi);
    check_round_trip(&record, format)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn csa_round_trip(seed in any::<u64>(), plies in 0usize..=150) {
        run(Format::Csa, seed, plies, false)?;
    }

    #[test]
    fn kif_round_trip(seed in any::<u64>(), plies in 0usize..=150, mini in proptest::bool::weighted(0.2)) {
        run(Format::Kif, seed, plies, mini)?;
    }

    #[test]
    fn ki2_round_trip(seed in any::<u64>(), plies in 0usize..=150, mini in proptest::bool::weighted(0.2)) {
        run(Format::Ki2, seed, plies, mini)?;
    }

    #[test]
    fn psn_round_trip(seed in any::<u64>(), plies in 0usize..=150, mini in proptest::bool::weighted(0.2)) {
        run(Format::Psn, seed, plies, mini)?;
    }

    #[test]
    fn jkf_round_trip(seed in any::<u64>(), plies in 0usize..=150) {
        run(Format::Jkf, seed, plies, false)?;
    }

    #[test]
    fn usi_round_trip(seed in any::<u64>(), plies in 0usize..=150, mini in proptest::bool::weighted(0.2)) {
        run(Format::Usi, seed, plies, mini)?;
    }

    /// Minishogi is refused by the formats that cannot hold it, never
    /// written wrongly.
    #[test]
    fn minishogi_refused_or_round_trips(seed in any::<u64>(), plies in 0usize..=60) {
        for f in [Format::Csa, Format::Jkf] {
            run(f, seed, plies, true)?;
        }
    }
}
