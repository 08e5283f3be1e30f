//! Shared code for the engine benchmarks: peer perfts, position conversion
//! and the middle-game test positions. Included by `benches/engine.rs` and
//! `benches/compare_engine.rs` with `#[path]`.
#![allow(dead_code)]

use kifu::{Move, Position, Role, Square};

/// perft(d) from the standard start, from the published tables
/// (not from kifu).
pub const START_PERFT: [u64; 6] = [1, 30, 900, 25470, 719731, 19861490];

/// Middle-game positions (SFEN). The first three are commonly used test
/// positions (the haitaka bench set and the "matsuri" position); the rest are
/// produced by [`random_middle_games`].
pub const MIDDLE_GAME: &[&str] = &[
    "ln1g5/1r4k2/p2pppn2/2ps2p2/1p7/2P6/PPSPPPPLP/2G2K1pr/LN4G1b b BG2SLPnp 61",
    "ln1gk1snl/1r5b1/p1ppppgpp/1s4p2/1p7/P1P3R2/1P1PPPP1P/1BG3S2/LNS1KG1NL b P 1",
    "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1",
];

/// A small seeded generator (xorshift64*), so the benches need no `rand`.
pub struct Rng(u64);
impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed.max(1))
    }
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// Plays `plies` seeded random legal plies from the start, `count` times
/// (restarting a game that ends early); returns the SFENs reached. Moves are
/// drawn from the legal moves sorted by USI text, so the positions do not
/// change with the generator's order.
pub fn random_middle_games(count: usize, plies: u32, seed: u64) -> Vec<String> {
    let mut rng = Rng::new(seed);
    let mut out = Vec::new();
    while out.len() < count {
        let mut pos = Position::default();
        let mut ok = true;
        for _ in 0..plies {
            // In USI order, so that the positions do not depend on the
            // order in which the generator lists moves.
            let mut moves = pos.legal_moves().to_vec();
            moves.sort_by_cached_key(|m| m.usi(kifu::Variant::Standard).to_string());
            if moves.is_empty() {
                ok = false;
                break;
            }
            pos.play_unchecked(moves[rng.below(moves.len())]);
        }
        if ok && !pos.legal_moves().is_empty() {
            out.push(pos.sfen());
        }
    }
    out
}

/// Every middle-game position used by the benches.
pub fn middle_game_sfens() -> Vec<String> {
    let mut v: Vec<String> = MIDDLE_GAME.iter().map(|s| s.to_string()).collect();
    v.extend(random_middle_games(3, 60, 0x5eed));
    v
}

/// Illegal (or mostly illegal) candidate moves for `pos`: every own piece to
/// every square at most two steps from it or on its lines, with and without
/// promotion, and every hand role dropped anywhere; the legal ones removed.
/// Seeded sample of at most `n`.
pub fn illegal_candidates(pos: &Position, n: usize, seed: u64) -> Vec<Move> {
    let mut all = Vec::new();
    let turn = pos.turn();
    for from in Square::all() {
        let Some(p) = pos.piece_at(from) else {
            continue;
        };
        if p.color != turn {
            continue;
        }
        for to in Square::all() {
            for promote in [false, true] {
                let m = Move::Normal { from, to, promote };
                if pos.check(m).is_err() {
                    all.push(m);
                }
            }
        }
    }
    for role in [
        Role::Pawn,
        Role::Lance,
        Role::Knight,
        Role::Silver,
        Role::Gold,
        Role::Bishop,
        Role::Rook,
    ] {
        for to in Square::all() {
            let m = Move::Drop { role, to };
            if pos.check(m).is_err() {
                all.push(m);
            }
        }
    }
    // Also moves from squares that hold nothing of ours.
    for from in Square::all() {
        if pos.piece_at(from).map(|p| p.color) == Some(turn) {
            continue;
        }
        let to = Square::new(
            from.file(),
            if from.rank() > 1 { from.rank() - 1 } else { 2 },
        );
        if let Some(to) = to {
            all.push(Move::Normal {
                from,
                to,
                promote: false,
            });
        }
    }
    let mut rng = Rng::new(seed);
    let mut out = Vec::with_capacity(n);
    while out.len() < n && !all.is_empty() {
        let i = rng.below(all.len());
        out.push(all.swap_remove(i));
    }
    out
}

pub fn usi(m: Move) -> String {
    m.usi(kifu::Variant::Standard).to_string()
}

// ---------------------------------------------------------------- kifu

/// kifu's perft (the library's own `Position::perft`).
pub fn kifu_perft(pos: &Position, depth: u32) -> u64 {
    pos.perft(depth)
}

// ---------------------------------------------------------------- haitaka

pub mod haitaka_peer {
    use haitaka::Board;
    use std::str::FromStr;

    pub fn board(sfen: &str) -> Board {
        Board::from_str(sfen).expect("haitaka sfen")
    }

    pub fn start() -> Board {
        Board::startpos()
    }

    /// Same shape as kifu's perft: full legal list, bulk count at depth 1.
    pub fn perft(board: &Board, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let mut nodes = 0;
        if depth == 1 {
            board.generate_moves(|moves| {
                nodes += moves.into_iter().len() as u64;
                false
            });
            return nodes;
        }
        board.generate_moves(|moves| {
            for mv in moves {
                let mut b = board.clone();
                b.play_unchecked(mv);
                nodes += perft(&b, depth - 1);
            }
            false
        });
        nodes
    }

    /// Number of legal moves, counted per piece from haitaka's bitboard
    /// sets without producing the moves (what its perft uses at depth 1).
    pub fn legal_count(board: &Board) -> usize {
        let mut n = 0;
        board.generate_moves(|moves| {
            n += moves.into_iter().len();
            false
        });
        n
    }

    /// Every legal move written into `list`, like kifu's `legal_moves`.
    pub fn legal_list(board: &Board, list: &mut Vec<haitaka::Move>) {
        list.clear();
        board.generate_moves(|moves| {
            list.extend(moves);
            false
        });
    }

    pub fn mv(usi: &str) -> haitaka::Move {
        haitaka::Move::from_str(usi).expect("haitaka move")
    }

    pub fn is_legal(board: &Board, m: haitaka::Move) -> bool {
        board.is_legal(m)
    }

    /// haitaka's `is_legal` does not look at the hand for drops (it expects
    /// moves from its own generator); a validator has to, so this adds the
    /// one test it lacks.
    pub fn is_legal_with_hand(board: &Board, m: haitaka::Move) -> bool {
        if let haitaka::Move::Drop { piece, .. } = m {
            if board.num_in_hand(board.side_to_move(), piece) == 0 {
                return false;
            }
        }
        board.is_legal(m)
    }
}

// ------------------------------------------------------ shogi_legality_lite

pub mod lite_peer {
    use shogi_core::{Color, Hand, Move, PartialPosition, Piece, PieceKind, Square};

    pub fn start() -> PartialPosition {
        PartialPosition::startpos()
    }

    fn kind(role: kifu::Role) -> PieceKind {
        PieceKind::from_u8(role as u8 + 1).expect("piece kind")
    }

    fn color(c: kifu::Color) -> Color {
        match c {
            kifu::Color::Black => Color::Black,
            kifu::Color::White => Color::White,
        }
    }

    fn sq(s: kifu::Square) -> Square {
        Square::new(s.file(), s.rank()).expect("square")
    }

    /// Converts a kifu position (standard shogi) into shogi_core's.
    pub fn from_kifu(pos: &kifu::Position) -> PartialPosition {
        let mut p = PartialPosition::empty();
        for s in kifu::Square::all() {
            if let Some(pc) = pos.piece_at(s) {
                p.piece_set(sq(s), Some(Piece::new(kind(pc.role), color(pc.color))));
            }
        }
        for c in [kifu::Color::Black, kifu::Color::White] {
            let mut h = Hand::new();
            for role in [
                kifu::Role::Pawn,
                kifu::Role::Lance,
                kifu::Role::Knight,
                kifu::Role::Silver,
                kifu::Role::Gold,
                kifu::Role::Bishop,
                kifu::Role::Rook,
            ] {
                for _ in 0..pos.hand(c).count(role) {
                    h = h.added(kind(role)).expect("hand");
                }
            }
            *p.hand_of_a_player_mut(color(c)) = h;
        }
        p.side_to_move_set(color(pos.turn()));
        p
    }

    pub fn mv(pos: &kifu::Position, m: kifu::Move) -> Move {
        match m {
            kifu::Move::Normal { from, to, promote } => Move::Normal {
                from: sq(from),
                to: sq(to),
                promote,
            },
            kifu::Move::Drop { role, to } => Move::Drop {
                piece: Piece::new(kind(role), color(pos.turn())),
                to: sq(to),
            },
        }
    }

    /// Same shape as kifu's perft: full legal list, bulk count at depth 1.
    pub fn perft(pos: &PartialPosition, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let moves = shogi_legality_lite::all_legal_moves_partial(pos);
        if depth == 1 {
            return moves.len() as u64;
        }
        let mut n = 0;
        for m in moves {
            let mut next = pos.clone();
            next.make_move(m).expect("legal move");
            n += perft(&next, depth - 1);
        }
        n
    }

    pub fn legal_count(pos: &PartialPosition) -> usize {
        shogi_legality_lite::all_legal_moves_partial(pos).len()
    }

    pub fn is_legal(pos: &PartialPosition, m: Move) -> bool {
        shogi_legality_lite::is_legal_partial_lite(pos, m)
    }
}

// --------------------------------------------------------------- shogi-rs

pub mod shogirs_peer {
    use shogi::bitboard::Factory;
    use shogi::{Color, Move, Piece, PieceType, Position, Square};

    pub fn init() {
        Factory::init();
    }

    pub fn position(sfen: &str) -> Position {
        init();
        let mut p = Position::new();
        p.set_sfen(sfen).expect("shogi-rs sfen");
        p
    }

    pub fn start() -> Position {
        position("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1")
    }

    const HAND: [PieceType; 7] = [
        PieceType::Pawn,
        PieceType::Lance,
        PieceType::Knight,
        PieceType::Silver,
        PieceType::Gold,
        PieceType::Bishop,
        PieceType::Rook,
    ];

    /// shogi-rs has no move generator: candidates from `move_candidates` and
    /// every drop, each tried with `make_move` (its legality check) and undone.
    pub fn legal_moves(pos: &mut Position, out: &mut Vec<Move>) {
        out.clear();
        let stm = pos.side_to_move();
        let mut cands = Vec::with_capacity(256);
        for from in Square::iter() {
            if let Some(pc) = *pos.piece_at(from) {
                if pc.color != stm {
                    continue;
                }
                for to in pos.move_candidates(from, pc) {
                    cands.push(Move::Normal {
                        from,
                        to,
                        promote: false,
                    });
                    if pc.piece_type.promote().is_some() {
                        cands.push(Move::Normal {
                            from,
                            to,
                            promote: true,
                        });
                    }
                }
            }
        }
        for pt in HAND {
            if pos.hand(Piece {
                piece_type: pt,
                color: stm,
            }) == 0
            {
                continue;
            }
            for to in Square::iter() {
                if pos.piece_at(to).is_none() {
                    cands.push(Move::Drop { to, piece_type: pt });
                }
            }
        }
        for m in cands {
            if pos.make_move(m).is_ok() {
                pos.unmake_move().expect("unmake");
                out.push(m);
            }
        }
    }

    pub fn perft(pos: &mut Position, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let mut moves = Vec::new();
        legal_moves(pos, &mut moves);
        if depth == 1 {
            return moves.len() as u64;
        }
        let mut n = 0;
        for m in moves {
            pos.make_move(m).expect("legal");
            n += perft(pos, depth - 1);
            pos.unmake_move().expect("unmake");
        }
        n
    }

    pub fn mv(usi: &str) -> Move {
        Move::from_sfen(usi).expect("shogi-rs move")
    }

    /// Legality of one move: shogi-rs only offers make_move (+ undo).
    pub fn is_legal(pos: &mut Position, m: Move) -> bool {
        if pos.make_move(m).is_ok() {
            pos.unmake_move().expect("unmake");
            true
        } else {
            false
        }
    }

    pub fn color_is_black(pos: &Position) -> bool {
        pos.side_to_move() == Color::Black
    }
}
