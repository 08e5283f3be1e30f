//! A legal game position: move generation, single-move checking and playing.

use crate::rules::attacks::{self, attacks, between, direction, ray, step_attacks};
use crate::rules::bitboard::Bitboard;
use crate::rules::color::Color;
use crate::rules::hand::Hand;
use crate::rules::moves::Move;
use crate::rules::role::{Piece, Role};
use crate::rules::setup::{Setup, SetupError, SetupErrors, Waivers};
use crate::rules::square::Square;
use crate::rules::variant::{Rules, Variant};
use arrayvec::ArrayVec;
use std::fmt;

/// Room for every legal move of any reachable position (593 is the known
/// maximum in standard shogi).
pub type MoveList = ArrayVec<Move, 600>;

/// Why a move is illegal. Each kind has a stable id ([`IllegalMove::id`]) that
/// `kifu validate` reports.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum IllegalMove {
    /// Nothing of the mover's stands on the origin square.
    NoPiece,
    /// The piece cannot move so, or its path is blocked.
    IllegalMovement,
    /// An own piece stands on the target, or a drop targets an occupied square.
    Occupied,
    /// The dropped piece is not in hand (or cannot be held at all).
    NotInHand,
    /// The piece would stand unpromoted where it could never move again.
    MustPromote,
    /// A drop where the piece could never move again.
    DeadDrop,
    /// A pawn drop on a file that already holds an unpromoted own pawn.
    Nifu,
    /// A pawn drop that delivers checkmate.
    Uchifuzume,
    /// The move leaves or puts one's own king in check.
    SelfCheck,
    /// Promotion where it is not allowed.
    IllegalPromotion,
}

impl IllegalMove {
    /// The stable rule id (`no-piece`, `nifu`, …).
    pub const fn id(self) -> &'static str {
        match self {
            IllegalMove::NoPiece => "no-piece",
            IllegalMove::IllegalMovement => "illegal-movement",
            IllegalMove::Occupied => "occupied",
            IllegalMove::NotInHand => "not-in-hand",
            IllegalMove::MustPromote => "must-promote",
            IllegalMove::DeadDrop => "dead-drop",
            IllegalMove::Nifu => "nifu",
            IllegalMove::Uchifuzume => "uchifuzume",
            IllegalMove::SelfCheck => "self-check",
            IllegalMove::IllegalPromotion => "illegal-promotion",
        }
    }

    /// Every kind, for documentation and tests.
    pub const ALL: [IllegalMove; 10] = [
        IllegalMove::NoPiece,
        IllegalMove::IllegalMovement,
        IllegalMove::Occupied,
        IllegalMove::NotInHand,
        IllegalMove::MustPromote,
        IllegalMove::DeadDrop,
        IllegalMove::Nifu,
        IllegalMove::Uchifuzume,
        IllegalMove::SelfCheck,
        IllegalMove::IllegalPromotion,
    ];
}

impl fmt::Display for IllegalMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            IllegalMove::NoPiece => "no piece of the side to move on the origin square",
            IllegalMove::IllegalMovement => "the piece cannot move to that square",
            IllegalMove::Occupied => "the target square is occupied",
            IllegalMove::NotInHand => "the piece is not in hand",
            IllegalMove::MustPromote => {
                "the piece must promote (it could never move again unpromoted)"
            }
            IllegalMove::DeadDrop => "a piece dropped there could never move",
            IllegalMove::Nifu => "two unpromoted pawns on one file (nifu)",
            IllegalMove::Uchifuzume => "checkmate by a pawn drop (uchifuzume)",
            IllegalMove::SelfCheck => "the move leaves the king in check",
            IllegalMove::IllegalPromotion => "the piece cannot promote on this move",
        })
    }
}

impl std::error::Error for IllegalMove {}

/// The state of the game that a position alone decides.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    /// Moves are available.
    Ongoing,
    /// The side to move is in check and has no legal move.
    Checkmate,
    /// The side to move has no legal move but is not in check (a loss).
    NoLegalMoves,
    /// Doubutsu: the side to move's lion was captured.
    KingCaptured,
    /// Doubutsu: the side to move's lion reached the far rank on its last
    /// move and survived the reply (try).
    Try,
}

impl Status {
    /// The winner if the game is over: the side to move wins by a try,
    /// loses otherwise.
    pub fn winner(self, turn: Color) -> Option<Color> {
        match self {
            Status::Ongoing => None,
            Status::Try => Some(turn),
            _ => Some(!turn),
        }
    }
}

/// A checked position of one of the variants.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct Position {
    variant: Variant,
    board: [Option<Piece>; 81],
    by_color: [Bitboard; 2],
    by_role: [Bitboard; 16],
    hands: [Hand; 2],
    turn: Color,
    ply: u32,
    board_key: u64,
    hand_key: u64,
    /// Pieces giving check to the side to move, kept up to date by every
    /// change of the position.
    checkers: Bitboard,
    /// Pieces of the side to move pinned to its king (the only piece
    /// between it and an enemy slider that moves along that line), kept up
    /// to date likewise.
    pinned: Bitboard,
}

const fn splitmix(mut x: u64) -> (u64, u64) {
    x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = x;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (x, z ^ (z >> 31))
}

/// Zobrist keys: pieces by colour, role and square; hand counts; side.
type Zobrist = ([[[u64; 81]; 16]; 2], [[u64; 9]; 2], u64);

const fn build_zobrist() -> Zobrist {
    let mut p = [[[0u64; 81]; 16]; 2];
    let mut h = [[0u64; 9]; 2];
    let mut state = 0x4B49_4655_u64;
    let mut c = 0;
    while c < 2 {
        let mut r = 0;
        while r < 16 {
            let mut s = 0;
            while s < 81 {
                let (ns, v) = splitmix(state);
                state = ns;
                p[c][r][s] = v;
                s += 1;
            }
            r += 1;
        }
        let mut i = 0;
        while i < 9 {
            let (ns, v) = splitmix(state);
            state = ns;
            h[c][i] = v;
            i += 1;
        }
        c += 1;
    }
    let (_, side) = splitmix(state);
    (p, h, side)
}

static ZOBRIST: Zobrist = build_zobrist();

#[inline]
fn piece_key(p: Piece, sq: Square) -> u64 {
    ZOBRIST.0[p.color.index()][p.role.index()][sq.index()]
}

#[inline]
fn hand_key(c: Color, role: Role) -> u64 {
    match role.hand_index() {
        Some(i) => ZOBRIST.1[c.index()][i],
        None => 0,
    }
}

impl Position {
    /// The start position of `variant`.
    pub fn new(variant: Variant) -> Position {
        let setup = crate::rules::sfen::parse_sfen(variant.rules().start_sfen, Some(variant))
            .expect("built-in start SFEN parses");
        Position::from_setup(setup, Waivers::NONE).expect("built-in start position is legal")
    }

    /// Parses an SFEN (variant from the board's size) and checks it strictly.
    pub fn from_sfen(sfen: &str) -> Result<Position, crate::rules::sfen::SfenError> {
        let setup = crate::rules::sfen::parse_sfen(sfen, None)?;
        Position::from_setup(setup, Waivers::NONE).map_err(crate::rules::sfen::SfenError::Setup)
    }

    /// Checks a setup and builds the position, accepting the problems in
    /// `waivers`.
    pub fn from_setup(setup: Setup, waivers: Waivers) -> Result<Position, SetupErrors> {
        let pos = Position::from_setup_unchecked(&setup);
        let errors: Vec<SetupError> = pos
            .setup_errors()
            .into_iter()
            .filter(|e| !waivers.allows(e))
            .collect();
        if errors.is_empty() {
            Ok(pos)
        } else {
            Err(SetupErrors(errors))
        }
    }

    /// Builds the position without any check. Pieces outside the board are
    /// dropped; use [`Position::setup_errors`] to learn what is wrong.
    pub fn from_setup_unchecked(setup: &Setup) -> Position {
        let rules = setup.variant.rules();
        let mut pos = Position {
            variant: setup.variant,
            board: [None; 81],
            by_color: [Bitboard::EMPTY; 2],
            by_role: [Bitboard::EMPTY; 16],
            hands: setup.hands,
            turn: setup.turn,
            ply: setup.ply,
            board_key: 0,
            hand_key: 0,
            checkers: Bitboard::EMPTY,
            pinned: Bitboard::EMPTY,
        };
        for sq in Square::all() {
            if let Some(p) = setup.board[sq.index()] {
                if rules.board.contains(sq) {
                    pos.put(p, sq);
                }
            }
        }
        for c in Color::ALL {
            for (r, n) in setup.hands[c.index()].iter() {
                pos.hand_key = pos
                    .hand_key
                    .wrapping_add(hand_key(c, r).wrapping_mul(n as u64));
            }
        }
        if pos.turn == Color::White {
            pos.board_key ^= ZOBRIST.2;
        }
        pos.update_king_safety();
        pos
    }

    /// Everything that makes this position impossible as a game position.
    pub fn setup_errors(&self) -> Vec<SetupError> {
        let rules = self.rules();
        let mut errors = Vec::new();
        for c in Color::ALL {
            match (self.by_role[Role::King.index()] & self.by_color[c.index()]).count() {
                0 => errors.push(SetupError::MissingKing(c)),
                1 => {}
                _ => errors.push(SetupError::TooManyKings(c)),
            }
        }
        for sq in self.occupied() {
            let p = self.board[sq.index()].expect("occupied");
            if rules.dead_drops && rules.dead_squares(p.color, p.role).contains(sq) {
                errors.push(SetupError::DeadPiece(sq));
            }
        }
        if rules.pawn_drop_rules {
            for c in Color::ALL {
                let mut seen = 0u16;
                let mut reported = 0u16;
                for sq in self.pieces(c, Role::Pawn) {
                    let bit = 1 << sq.file();
                    if seen & bit != 0 && reported & bit == 0 {
                        errors.push(SetupError::Nifu(c, sq.file()));
                        reported |= bit;
                    }
                    seen |= bit;
                }
            }
        }
        for &(role, max) in rules.set.iter().filter(|(r, _)| *r != Role::King) {
            let mut n = 0u32;
            for sq in self.occupied() {
                if self.board[sq.index()].expect("occupied").role.unpromoted() == role {
                    n += 1;
                }
            }
            n += self.hands[0].count(role) as u32 + self.hands[1].count(role) as u32;
            if n > max as u32 {
                errors.push(SetupError::TooManyPieces(role));
            }
        }
        for c in Color::ALL {
            for (r, _) in self.hands[c.index()].iter() {
                if !rules.hand_roles.contains(&r) {
                    errors.push(SetupError::BadHandPiece(r));
                }
            }
        }
        if !rules.self_check_allowed {
            if let Some(k) = self.king(!self.turn) {
                if self.attackers_to(k, self.turn, self.occupied()).any() {
                    errors.push(SetupError::OpponentInCheck);
                }
            }
        }
        errors
    }

    /// The board, hands and turn as a [`Setup`].
    pub fn to_setup(&self) -> Setup {
        Setup {
            variant: self.variant,
            board: self.board,
            hands: self.hands,
            turn: self.turn,
            ply: self.ply,
        }
    }

    #[inline]
    fn put(&mut self, p: Piece, sq: Square) {
        self.board[sq.index()] = Some(p);
        self.by_color[p.color.index()].insert(sq);
        self.by_role[p.role.index()].insert(sq);
        self.board_key ^= piece_key(p, sq);
    }

    #[inline]
    fn take(&mut self, sq: Square) -> Option<Piece> {
        let p = self.board[sq.index()].take()?;
        self.by_color[p.color.index()].remove(sq);
        self.by_role[p.role.index()].remove(sq);
        self.board_key ^= piece_key(p, sq);
        Some(p)
    }

    /// The variant.
    #[inline]
    pub fn variant(&self) -> Variant {
        self.variant
    }

    /// The variant's rules table.
    #[inline]
    pub fn rules(&self) -> &'static Rules {
        self.variant.rules()
    }

    /// Side to move.
    #[inline]
    pub fn turn(&self) -> Color {
        self.turn
    }

    /// Move number of the next ply (SFEN's last field).
    #[inline]
    pub fn ply(&self) -> u32 {
        self.ply
    }

    /// Sets the move number.
    pub fn set_ply(&mut self, ply: u32) {
        self.ply = ply;
    }

    /// The piece on `sq`.
    #[inline]
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        self.board[sq.index()]
    }

    /// The hand of `color`.
    #[inline]
    pub fn hand(&self, color: Color) -> &Hand {
        &self.hands[color.index()]
    }

    /// Squares holding a piece.
    #[inline]
    pub fn occupied(&self) -> Bitboard {
        self.by_color[0] | self.by_color[1]
    }

    /// Squares holding a piece of `color`.
    #[inline]
    pub fn by_color(&self, color: Color) -> Bitboard {
        self.by_color[color.index()]
    }

    /// Squares holding a piece of `role` (either colour).
    #[inline]
    pub fn by_role(&self, role: Role) -> Bitboard {
        self.by_role[role.index()]
    }

    /// Squares holding a piece of `color` and `role`.
    #[inline]
    pub fn pieces(&self, color: Color, role: Role) -> Bitboard {
        self.by_color[color.index()] & self.by_role[role.index()]
    }

    /// The king (doubutsu: lion) of `color`, if there is one.
    #[inline]
    pub fn king(&self, color: Color) -> Option<Square> {
        self.pieces(color, Role::King).first()
    }

    /// A hash of board, hands and side to move (Zobrist), for repetition.
    #[inline]
    pub fn hash(&self) -> u64 {
        self.board_key ^ self.hand_key.rotate_left(17)
    }

    /// A hash of the board alone (Zobrist; hands and side to move left
    /// out), for finding a board whoever is to move.
    #[inline]
    pub fn board_hash(&self) -> u64 {
        match self.turn {
            Color::Black => self.board_key,
            Color::White => self.board_key ^ ZOBRIST.2,
        }
    }

    /// Pieces of `by` attacking `sq`, with occupancy `occ`.
    pub fn attackers_to(&self, sq: Square, by: Color, occ: Bitboard) -> Bitboard {
        let theirs = self.by_color[by.index()];
        let mut att = self.step_attackers(sq, by) & theirs;
        // A slider's attack is computed only when one stands on a line
        // through `sq` at all.
        let lances = self.by_role[Role::Lance.index()] & theirs;
        if (attacks::lance_pseudo_attacks(!by, sq) & lances).any() {
            att |= attacks::lance_attacks(!by, sq, occ) & lances;
        }
        let bishops = self.bishops() & theirs;
        if (attacks::bishop_pseudo_attacks(sq) & bishops).any() {
            att |= attacks::bishop_attacks(sq, occ) & bishops;
        }
        let rooks = self.rooks() & theirs;
        if (attacks::rook_pseudo_attacks(sq) & rooks).any() {
            att |= attacks::rook_attacks(sq, occ) & rooks;
        }
        att
    }

    /// Whether a piece of `by` attacks `sq` with occupancy `occ`: the
    /// yes/no of [`Position::attackers_to`], stopping at the first finding.
    #[inline]
    fn is_attacked(&self, sq: Square, by: Color, occ: Bitboard) -> bool {
        let theirs = self.by_color[by.index()];
        if (self.step_attackers(sq, by) & theirs).any() {
            return true;
        }
        let lances = self.by_role[Role::Lance.index()] & theirs;
        if (attacks::lance_pseudo_attacks(!by, sq) & lances).any()
            && (attacks::lance_attacks(!by, sq, occ) & lances).any()
        {
            return true;
        }
        let bishops = self.bishops() & theirs;
        if (attacks::bishop_pseudo_attacks(sq) & bishops).any()
            && (attacks::bishop_attacks(sq, occ) & bishops).any()
        {
            return true;
        }
        let rooks = self.rooks() & theirs;
        (attacks::rook_pseudo_attacks(sq) & rooks).any()
            && (attacks::rook_attacks(sq, occ) & rooks).any()
    }

    /// The squares of `steps` (next to the side to move's king on `k`) that
    /// no enemy piece attacks once the king has left `k`.
    #[inline]
    fn safe_king_steps(&self, k: Square, steps: Bitboard) -> Bitboard {
        if steps.is_empty() {
            return steps;
        }
        let them = !self.turn;
        let theirs = self.by_color[them.index()];
        // The one-step attacks of the enemy pieces near enough to reach a
        // square next to the king (the one-step part of horse and dragon
        // too; a lance, bishop or rook has none).
        let mut safe = steps;
        for sq in theirs & attacks::king_neighbourhood(k) {
            let role = self.board[sq.index()].expect("enemy piece").role;
            safe &= !step_attacks(them, role, sq);
        }
        if safe.is_empty() {
            return safe;
        }
        // Sliders, with the king gone from `k` so that it does not shadow
        // the square behind it.
        let occ = self.occupied() ^ Bitboard::from_square(k);
        for sq in theirs & self.by_role[Role::Lance.index()] {
            if (attacks::lance_pseudo_attacks(them, sq) & safe).any() {
                safe &= !attacks::lance_attacks(them, sq, occ);
            }
        }
        for sq in theirs & self.bishops() {
            if (attacks::bishop_pseudo_attacks(sq) & safe).any() {
                safe &= !attacks::bishop_attacks(sq, occ);
            }
        }
        for sq in theirs & self.rooks() {
            if (attacks::rook_pseudo_attacks(sq) & safe).any() {
                safe &= !attacks::rook_attacks(sq, occ);
            }
        }
        safe
    }

    /// Pieces of either colour that would attack `sq` by one step if they
    /// were of colour `by` (the caller keeps `by`'s own).
    #[inline(always)]
    fn step_attackers(&self, sq: Square, by: Color) -> Bitboard {
        let them = !by;
        let b = |r: Role| self.by_role[r.index()];
        let golds = b(Role::Gold)
            | b(Role::ProPawn)
            | b(Role::ProLance)
            | b(Role::ProKnight)
            | b(Role::ProSilver);
        let mut att = (step_attacks(them, Role::Pawn, sq) & b(Role::Pawn))
            | (step_attacks(them, Role::Knight, sq) & b(Role::Knight))
            | (step_attacks(them, Role::Silver, sq) & b(Role::Silver))
            | (step_attacks(them, Role::Gold, sq) & golds)
            | (step_attacks(them, Role::King, sq)
                & (b(Role::King) | b(Role::Horse) | b(Role::Dragon)));
        let animals = b(Role::Giraffe) | b(Role::Elephant);
        if animals.any() {
            att |= (step_attacks(them, Role::Giraffe, sq) & b(Role::Giraffe))
                | (step_attacks(them, Role::Elephant, sq) & b(Role::Elephant));
        }
        att
    }

    /// Bishops and horses of both colours.
    #[inline(always)]
    fn bishops(&self) -> Bitboard {
        self.by_role[Role::Bishop.index()] | self.by_role[Role::Horse.index()]
    }

    /// Rooks and dragons of both colours.
    #[inline(always)]
    fn rooks(&self) -> Bitboard {
        self.by_role[Role::Rook.index()] | self.by_role[Role::Dragon.index()]
    }

    /// Pieces giving check to the side to move.
    #[inline]
    pub fn checkers(&self) -> Bitboard {
        self.checkers
    }

    /// Whether the side to move is in check.
    #[inline]
    pub fn in_check(&self) -> bool {
        self.checkers().any()
    }

    /// Sets `checkers` and `pinned` for the side to move: one-step checkers
    /// from the tables; for every enemy slider on a line through the king,
    /// nothing between means check, one own piece between means a pin.
    #[inline(always)]
    fn update_king_safety(&mut self) {
        let us = self.turn;
        let Some(k) = self.king(us) else {
            self.checkers = Bitboard::EMPTY;
            self.pinned = Bitboard::EMPTY;
            return;
        };
        let theirs = self.by_color[(!us).index()];
        // One-step checkers stand next to the king or a knight's jump away:
        // looked for only when an enemy piece stands that near at all.
        let mut checkers = if (theirs & attacks::step_neighbourhood(k)).any() {
            self.step_attackers(k, !us) & theirs
        } else {
            Bitboard::EMPTY
        };
        let mut pinned = Bitboard::EMPTY;
        let snipers = ((attacks::rook_pseudo_attacks(k) & self.rooks())
            | (attacks::bishop_pseudo_attacks(k) & self.bishops())
            | (attacks::lance_pseudo_attacks(us, k) & self.by_role[Role::Lance.index()]))
            & theirs;
        if snipers.any() {
            let occ = self.occupied();
            for s in snipers {
                let b = between(k, s) & occ;
                if b.is_empty() {
                    checkers.insert(s);
                } else if !b.more_than_one() {
                    pinned |= b & self.by_color[us.index()];
                }
            }
        }
        self.checkers = checkers;
        self.pinned = pinned;
    }

    /// Files (as a mask of whole files) holding an unpromoted pawn of `color`.
    #[inline]
    fn pawn_files(&self, color: Color) -> Bitboard {
        // Per 9-bit file: adding 0xFF to its low eight bits carries into
        // the ninth iff one of them is set; the ninth bit then fills its file.
        const LOW8: u128 = 0xFF * (FILE_BASES);
        const TOP: u128 = 0x100 * (FILE_BASES);
        let pawns = self.pieces(color, Role::Pawn).0;
        let top = (((pawns & LOW8) + LOW8) | pawns) & TOP;
        Bitboard(top | (top - (top >> 8)))
    }

    /// Whether the game is over for lack of a lion or by a try (doubutsu).
    #[inline]
    fn variant_end(&self) -> Option<Status> {
        let rules = self.rules();
        if !rules.king_capture_wins {
            return None;
        }
        match self.king(self.turn) {
            None => Some(Status::KingCaptured),
            Some(k) if rules.try_rule && rules.last_rank[self.turn.index()].contains(k) => {
                Some(Status::Try)
            }
            _ => None,
        }
    }

    /// Feeds every legal move to `sink`, until `sink` is full: the king's
    /// moves, then the other pieces role by role (pawns, lances, knights,
    /// silvers, gold-movers, bishops, rooks, horses, dragons, doubutsu's
    /// giraffes and elephants), each role by square, then drops in the
    /// order of [`Rules::hand_roles`].
    #[inline(always)]
    fn generate<S: MoveSink>(&self, sink: &mut S) {
        if self.variant_end().is_some() {
            return;
        }
        let rules = self.rules();
        let us = self.turn;
        let ours = self.by_color[us.index()];
        let occ = self.occupied();
        let board = rules.board;
        let empty = board & !occ;
        let king = self.king(us);

        let mut g = Targets {
            pos: self,
            us,
            ours,
            target: board & !ours,
            pinned: Bitboard::EMPTY,
            king,
            zone: rules.zone[us.index()],
        };
        let mut drop_target = empty;
        if let Some(k) = king {
            let steps = step_attacks(us, Role::King, k) & g.target;
            if rules.self_check_allowed {
                sink.piece(k, Bitboard::EMPTY, steps);
            } else {
                sink.piece(k, Bitboard::EMPTY, self.safe_king_steps(k, steps));
                let checkers = self.checkers;
                if checkers.more_than_one() || sink.full() {
                    return;
                }
                if let Some(c) = checkers.first() {
                    drop_target = between(k, c);
                    g.target = drop_target | Bitboard::from_square(c);
                }
                g.pinned = self.pinned;
            }
        }
        if g.target.any() {
            g.pawns(sink);
            g.each(Role::Lance, sink, |sq| attacks::lance_attacks(us, sq, occ));
            g.each(Role::Knight, sink, |sq| step_attacks(us, Role::Knight, sq));
            g.each(Role::Silver, sink, |sq| step_attacks(us, Role::Silver, sq));
            g.each_gold(sink);
            g.each(Role::Bishop, sink, |sq| attacks::bishop_attacks(sq, occ));
            g.each(Role::Rook, sink, |sq| attacks::rook_attacks(sq, occ));
            g.each(Role::Horse, sink, |sq| {
                attacks::bishop_attacks(sq, occ) | step_attacks(us, Role::Horse, sq)
            });
            g.each(Role::Dragon, sink, |sq| {
                attacks::rook_attacks(sq, occ) | step_attacks(us, Role::Dragon, sq)
            });
            if (self.by_role[Role::Giraffe.index()] | self.by_role[Role::Elephant.index()]).any() {
                g.each(Role::Giraffe, sink, |sq| {
                    step_attacks(us, Role::Giraffe, sq)
                });
                g.each(Role::Elephant, sink, |sq| {
                    step_attacks(us, Role::Elephant, sq)
                });
            }
            if sink.full() {
                return;
            }
        }
        self.drops(drop_target, sink);
    }

    fn drops<S: MoveSink>(&self, target: Bitboard, sink: &mut S) {
        let rules = self.rules();
        let us = self.turn;
        let hand = &self.hands[us.index()];
        if hand.is_empty() || target.is_empty() {
            return;
        }
        for &role in rules.hand_roles {
            if hand.count(role) == 0 {
                continue;
            }
            let mut mask = target;
            if rules.dead_drops {
                mask &= !rules.dead_squares(us, role);
            }
            if role == Role::Pawn && rules.pawn_drop_rules {
                mask &= !self.pawn_files(us);
                // The one square where a pawn drop checks the enemy king.
                if let Some(k) = self.king(!us) {
                    let front = step_attacks(!us, Role::Pawn, k) & mask;
                    if let Some(sq) = front.first() {
                        if self.is_pawn_drop_mate(sq) {
                            mask.remove(sq);
                        }
                    }
                }
            }
            sink.drops(role, mask);
            if sink.full() {
                return;
            }
        }
    }

    /// Whether dropping a pawn on `sq` (which checks the enemy king) mates.
    fn is_pawn_drop_mate(&self, sq: Square) -> bool {
        let mut after = *self;
        after.play_unchecked(Move::Drop {
            role: Role::Pawn,
            to: sq,
        });
        !after.has_legal_move()
    }

    /// Appends every legal move to `list`: the king's moves, then the other
    /// pieces role by role, drops last. The order is the same for the same
    /// position, otherwise unspecified.
    pub fn legal_moves_into(&self, list: &mut MoveList) {
        self.generate(&mut ListSink(list));
    }

    /// Every legal move.
    pub fn legal_moves(&self) -> MoveList {
        let mut list = MoveList::new();
        self.legal_moves_into(&mut list);
        list
    }

    /// The number of legal moves, counted without listing them (the same
    /// number as `legal_moves().len()`).
    pub fn count_legal_moves(&self) -> usize {
        let mut count = CountSink(0);
        self.generate(&mut count);
        count.0 as usize
    }

    /// Whether the side to move has any legal move.
    pub fn has_legal_move(&self) -> bool {
        let mut any = AnySink(false);
        self.generate(&mut any);
        any.0
    }

    /// Whether the game is over, and how.
    pub fn status(&self) -> Status {
        if let Some(s) = self.variant_end() {
            return s;
        }
        if self.has_legal_move() {
            Status::Ongoing
        } else if self.in_check() {
            Status::Checkmate
        } else {
            Status::NoLegalMoves
        }
    }

    /// Pieces of `color` and exactly `role` that could move to `to` by the
    /// piece's movement alone (pins and checks ignored; an own piece on `to`
    /// ignored too). This is the candidate set that KI2 relative marks and
    /// international-notation origins disambiguate between.
    pub fn pseudo_attackers(&self, to: Square, color: Color, role: Role) -> Bitboard {
        let mut out = Bitboard::EMPTY;
        let occ = self.occupied();
        for from in self.pieces(color, role) {
            if (attacks(color, role, from, occ) & self.rules().board).contains(to) {
                out.insert(from);
            }
        }
        out
    }

    /// Like [`Position::pseudo_attackers`], keeping only pieces whose move
    /// to `to` (promoted or not) is legal.
    pub fn legal_attackers(&self, to: Square, color: Color, role: Role) -> Bitboard {
        let mut out = Bitboard::EMPTY;
        if color != self.turn {
            return out;
        }
        for from in self.pseudo_attackers(to, color, role) {
            let legal = [false, true]
                .iter()
                .any(|&promote| self.check(Move::Normal { from, to, promote }).is_ok());
            if legal {
                out.insert(from);
            }
        }
        out
    }

    /// Checks one move; `Err` names the rule it breaks.
    #[inline]
    pub fn check(&self, m: Move) -> Result<(), IllegalMove> {
        match m {
            Move::Normal { from, to, promote } => self.check_board_move(from, to, promote),
            Move::Drop { role, to } => self.check_drop(role, to),
        }
    }

    #[inline]
    fn check_board_move(&self, from: Square, to: Square, promote: bool) -> Result<(), IllegalMove> {
        let rules = self.rules();
        let us = self.turn;
        let occ = self.occupied();
        let from_bb = Bitboard::from_square(from);
        let to_bb = Bitboard::from_square(to);
        let piece = match self.board[from.index()] {
            Some(p) if p.color == us && (rules.board & from_bb).any() => p,
            _ => return Err(IllegalMove::NoPiece),
        };
        if (rules.board & to_bb).is_empty() || !attacks::reaches(us, piece.role, from, to, occ) {
            return Err(IllegalMove::IllegalMovement);
        }
        if (self.by_color[us.index()] & to_bb).any() {
            return Err(IllegalMove::Occupied);
        }
        let zone = rules.zone[us.index()];
        if promote {
            if !rules.can_promote(piece.role) || (zone & (from_bb | to_bb)).is_empty() {
                return Err(IllegalMove::IllegalPromotion);
            }
        } else if rules.can_promote(piece.role)
            && (rules.dead_squares(us, piece.role) & to_bb).any()
        {
            return Err(IllegalMove::MustPromote);
        }
        if rules.self_check_allowed {
            return Ok(());
        }
        let Some(k) = self.king(us) else {
            return Ok(());
        };
        if piece.role == Role::King {
            if self.is_attacked(to, !us, occ ^ from_bb) {
                return Err(IllegalMove::SelfCheck);
            }
            return Ok(());
        }
        let checkers = self.checkers;
        if checkers.any() {
            if checkers.more_than_one() {
                return Err(IllegalMove::SelfCheck);
            }
            let c = checkers.first().expect("one checker");
            if ((between(k, c) | checkers) & to_bb).is_empty() {
                return Err(IllegalMove::SelfCheck);
            }
        }
        // A pinned piece must stay on the line through the king.
        if (self.pinned & from_bb).any() {
            if let Some(d) = direction(k, from) {
                if (ray(d, k) & to_bb).is_empty() {
                    return Err(IllegalMove::SelfCheck);
                }
            }
        }
        Ok(())
    }

    #[inline]
    fn check_drop(&self, role: Role, to: Square) -> Result<(), IllegalMove> {
        let rules = self.rules();
        let us = self.turn;
        if self.hands[us.index()].count(role) == 0
            || HAND_MASKS[rules.variant as usize] >> role.index() & 1 == 0
        {
            return Err(IllegalMove::NotInHand);
        }
        let to_bb = Bitboard::from_square(to);
        if (rules.board & to_bb).is_empty() {
            return Err(IllegalMove::IllegalMovement);
        }
        if (self.occupied() & to_bb).any() {
            return Err(IllegalMove::Occupied);
        }
        if rules.dead_drops && (rules.dead_squares(us, role) & to_bb).any() {
            return Err(IllegalMove::DeadDrop);
        }
        let pawn_rules = role == Role::Pawn && rules.pawn_drop_rules;
        if pawn_rules && (self.pawn_files(us) & to_bb).any() {
            return Err(IllegalMove::Nifu);
        }
        let checkers = self.checkers;
        if !rules.self_check_allowed && checkers.any() {
            if let Some(k) = self.king(us) {
                if checkers.more_than_one() {
                    return Err(IllegalMove::SelfCheck);
                }
                let c = checkers.first().expect("one checker");
                if (between(k, c) & to_bb).is_empty() {
                    return Err(IllegalMove::SelfCheck);
                }
            }
        }
        if pawn_rules {
            if let Some(k) = self.king(!us) {
                if (step_attacks(!us, Role::Pawn, k) & to_bb).any() && self.is_pawn_drop_mate(to) {
                    return Err(IllegalMove::Uchifuzume);
                }
            }
        }
        Ok(())
    }

    /// Whether `m` is legal.
    #[inline]
    pub fn is_legal(&self, m: Move) -> bool {
        self.variant_end().is_none() && self.check(m).is_ok()
    }

    /// Plays a move without checking it. The move must at least be
    /// well-formed for this position (its origin holds a piece of the side
    /// to move, its drop role is in hand); otherwise the position is left
    /// unchanged apart from the turn.
    pub fn play_unchecked(&mut self, m: Move) {
        self.move_pieces(m);
        self.switch_turn();
    }

    /// The board and hands part of [`Position::play_unchecked`].
    #[inline(always)]
    fn move_pieces(&mut self, m: Move) {
        let us = self.turn;
        match m {
            Move::Normal { from, to, promote } => {
                // `take(from)`, `take(to)`, `put(piece, to)` with the
                // board key updated once.
                let Some(mut piece) = self.board[from.index()].take() else {
                    return;
                };
                let from_bb = Bitboard::from_square(from);
                let to_bb = Bitboard::from_square(to);
                self.by_color[piece.color.index()] ^= from_bb;
                self.by_role[piece.role.index()] ^= from_bb;
                let mut key = self.board_key ^ piece_key(piece, from);
                if let Some(captured) = self.board[to.index()] {
                    self.by_color[captured.color.index()] ^= to_bb;
                    self.by_role[captured.role.index()] ^= to_bb;
                    key ^= piece_key(captured, to);
                    let base = captured.role.unpromoted();
                    if self.hands[us.index()].add(base) {
                        self.hand_key = self.hand_key.wrapping_add(hand_key(us, base));
                    }
                }
                if promote {
                    if let Some(r) = piece.role.promoted() {
                        piece.role = r;
                    }
                }
                self.board[to.index()] = Some(piece);
                self.by_color[piece.color.index()] |= to_bb;
                self.by_role[piece.role.index()] |= to_bb;
                self.board_key = key ^ piece_key(piece, to);
            }
            Move::Drop { role, to } => {
                if self.hands[us.index()].remove(role) {
                    self.hand_key = self.hand_key.wrapping_sub(hand_key(us, role));
                    self.take(to);
                    self.put(Piece::new(us, role), to);
                }
            }
        }
    }

    #[inline]
    fn switch_turn(&mut self) {
        self.turn = !self.turn;
        self.board_key ^= ZOBRIST.2;
        self.ply = self.ply.saturating_add(1);
        self.update_king_safety();
    }

    /// Checks and plays a move.
    pub fn play(&mut self, m: Move) -> Result<(), IllegalMove> {
        self.check(m)?;
        self.play_unchecked(m);
        Ok(())
    }

    /// Whether `m` (assumed legal) gives check.
    pub fn gives_check(&self, m: Move) -> bool {
        let mut after = *self;
        after.play_unchecked(m);
        after.in_check()
    }

    /// The piece a legal move captures, if any.
    #[inline]
    pub fn captured(&self, m: Move) -> Option<Piece> {
        match m {
            Move::Normal { to, .. } => self.board[to.index()],
            Move::Drop { .. } => None,
        }
    }

    /// The role of the moving piece (before promotion).
    #[inline]
    pub fn moving_role(&self, m: Move) -> Option<Role> {
        match m {
            Move::Normal { from, .. } => self.board[from.index()].map(|p| p.role),
            Move::Drop { role, .. } => Some(role),
        }
    }

    /// The SFEN of this position.
    pub fn sfen(&self) -> String {
        crate::rules::sfen::write_sfen(&self.to_setup())
    }

    /// Counts leaf nodes of the legal move tree `depth` plies deep.
    pub fn perft(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        if depth == 1 {
            return self.count_legal_moves() as u64;
        }
        let mut moves = MoveList::new();
        self.legal_moves_into(&mut moves);
        let mut n = 0;
        for &m in &moves {
            let mut next = *self;
            next.play_unchecked(m);
            n += next.perft(depth - 1);
        }
        n
    }
}

/// Bit 0 of every file: square index `9 * f`.
const FILE_BASES: u128 = {
    let mut m = 0u128;
    let mut f = 0;
    while f < 9 {
        m |= 1 << (9 * f);
        f += 1;
    }
    m
};

/// Where the generator's moves go. It hands over the moves of one piece at
/// a time as target sets, so that a sink that only counts never lists them.
trait MoveSink {
    /// The piece on `from` may move to each square of `promote` promoting,
    /// and to each square of `stay` without promoting.
    fn piece(&mut self, from: Square, promote: Bitboard, stay: Bitboard);
    /// Pieces stand `delta` squares (index difference) before each square
    /// of `promote` and `stay`, and may move there promoting or not.
    fn shifted(&mut self, delta: i8, promote: Bitboard, stay: Bitboard);
    /// A piece of `role` may be dropped on each square of `to`.
    fn drops(&mut self, role: Role, to: Bitboard);
    /// Whether the generator may stop now.
    #[inline(always)]
    fn full(&self) -> bool {
        false
    }
}

/// Lists the moves: per target square the promotion first, then the move
/// without promotion.
struct ListSink<'a>(&'a mut MoveList);

impl MoveSink for ListSink<'_> {
    #[inline(always)]
    fn piece(&mut self, from: Square, promote: Bitboard, stay: Bitboard) {
        if promote.is_empty() {
            for to in stay {
                self.0.push(Move::Normal {
                    from,
                    to,
                    promote: false,
                });
            }
            return;
        }
        for to in promote | stay {
            if promote.contains(to) {
                self.0.push(Move::Normal {
                    from,
                    to,
                    promote: true,
                });
            }
            if stay.contains(to) {
                self.0.push(Move::Normal {
                    from,
                    to,
                    promote: false,
                });
            }
        }
    }

    #[inline(always)]
    fn shifted(&mut self, delta: i8, promote: Bitboard, stay: Bitboard) {
        for to in promote | stay {
            let from = Square::from_index_unchecked((to.index() as i8 - delta) as u8);
            if promote.contains(to) {
                self.0.push(Move::Normal {
                    from,
                    to,
                    promote: true,
                });
            }
            if stay.contains(to) {
                self.0.push(Move::Normal {
                    from,
                    to,
                    promote: false,
                });
            }
        }
    }

    #[inline(always)]
    fn drops(&mut self, role: Role, to: Bitboard) {
        for to in to {
            self.0.push(Move::Drop { role, to });
        }
    }
}

/// Counts the moves (perft's last ply).
struct CountSink(u32);

impl MoveSink for CountSink {
    #[inline(always)]
    fn piece(&mut self, _from: Square, promote: Bitboard, stay: Bitboard) {
        if promote.any() {
            self.0 += promote.count();
        }
        self.0 += stay.count();
    }

    #[inline(always)]
    fn shifted(&mut self, _delta: i8, promote: Bitboard, stay: Bitboard) {
        self.piece(Square::from_index_unchecked(0), promote, stay);
    }

    #[inline(always)]
    fn drops(&mut self, _role: Role, to: Bitboard) {
        self.0 += to.count();
    }
}

/// Stops at the first move.
struct AnySink(bool);

impl MoveSink for AnySink {
    #[inline(always)]
    fn piece(&mut self, _from: Square, promote: Bitboard, stay: Bitboard) {
        self.0 |= (promote | stay).any();
    }

    #[inline(always)]
    fn shifted(&mut self, _delta: i8, promote: Bitboard, stay: Bitboard) {
        self.0 |= (promote | stay).any();
    }

    #[inline(always)]
    fn drops(&mut self, _role: Role, to: Bitboard) {
        self.0 |= to.any();
    }

    #[inline(always)]
    fn full(&self) -> bool {
        self.0
    }
}

/// One generation's context: where the side to move's pieces may go.
struct Targets<'a> {
    pos: &'a Position,
    us: Color,
    ours: Bitboard,
    /// Squares a piece other than the king may move to: not an own piece,
    /// and in check the checker or a square between it and the king.
    target: Bitboard,
    /// Own pieces pinned to the king.
    pinned: Bitboard,
    king: Option<Square>,
    zone: Bitboard,
}

impl Targets<'_> {
    /// The targets of a pinned piece on `from` whose moves are `moves`:
    /// only along the line through the king.
    #[inline(never)]
    fn pinned_targets(&self, from: Square, moves: Bitboard) -> Bitboard {
        let t = moves & self.target;
        match self
            .king
            .and_then(|k| direction(k, from).map(|d| ray(d, k)))
        {
            Some(line) => t & line,
            None => t,
        }
    }

    /// Every piece of `role`, whose moves from a square `moves` gives:
    /// free pieces (those that can promote: first those in the zone, then
    /// the others), then pinned ones.
    #[inline(always)]
    fn each<S: MoveSink>(&self, role: Role, sink: &mut S, moves: impl Fn(Square) -> Bitboard) {
        let pieces = self.ours & self.pos.by_role[role.index()];
        if pieces.is_empty() || sink.full() {
            return;
        }
        let free = pieces & !self.pinned;
        let rules = self.pos.rules();
        if rules.can_promote(role) {
            let dead = rules.dead_squares(self.us, role);
            for from in free & self.zone {
                let t = moves(from) & self.target;
                sink.piece(from, t, t & !dead);
            }
            for from in free & !self.zone {
                let t = moves(from) & self.target;
                sink.piece(from, t & self.zone, t & !dead);
            }
            for from in pieces & self.pinned {
                let t = self.pinned_targets(from, moves(from));
                let promote = if self.zone.contains(from) {
                    t
                } else {
                    t & self.zone
                };
                sink.piece(from, promote, t & !dead);
            }
        } else {
            for from in free {
                sink.piece(from, Bitboard::EMPTY, moves(from) & self.target);
            }
            for from in pieces & self.pinned {
                sink.piece(
                    from,
                    Bitboard::EMPTY,
                    self.pinned_targets(from, moves(from)),
                );
            }
        }
    }

    /// Golds and the pieces that move like one (promoted pawn, lance,
    /// knight and silver), in one pass by square.
    #[inline(always)]
    fn each_gold<S: MoveSink>(&self, sink: &mut S) {
        let b = |r: Role| self.pos.by_role[r.index()];
        let golds = (b(Role::Gold)
            | b(Role::ProPawn)
            | b(Role::ProLance)
            | b(Role::ProKnight)
            | b(Role::ProSilver))
            & self.ours;
        if sink.full() {
            return;
        }
        // Doubutsu's hen is a promoted pawn that moves like a gold too.
        for from in golds & !self.pinned {
            let t = step_attacks(self.us, Role::Gold, from) & self.target;
            sink.piece(from, Bitboard::EMPTY, t);
        }
        for from in golds & self.pinned {
            let t = self.pinned_targets(from, step_attacks(self.us, Role::Gold, from));
            sink.piece(from, Bitboard::EMPTY, t);
        }
    }

    /// Pawns not pinned, all at once (each moves one square forward, so
    /// their targets are distinct); pinned ones one by one.
    #[inline(always)]
    fn pawns<S: MoveSink>(&self, sink: &mut S) {
        let pawns = self.ours & self.pos.by_role[Role::Pawn.index()];
        if pawns.is_empty() {
            return;
        }
        let rules = self.pos.rules();
        let dead = rules.dead_squares(self.us, Role::Pawn);
        let free = pawns & !self.pinned;
        // A pawn on its last rank (possible only with the dead-piece rule
        // waived) would leave its file: it has no move.
        let (to, delta) = match self.us {
            Color::Black => (((free.0 & !FILE_BASES) >> 1) & self.target.0, -1),
            Color::White => (((free.0 & !(FILE_BASES << 8)) << 1) & self.target.0, 1),
        };
        let to = Bitboard(to);
        // A pawn in the zone moves within it: promoting depends on `to` alone.
        let promote_mask = if rules.can_promote(Role::Pawn) {
            self.zone
        } else {
            Bitboard::EMPTY
        };
        sink.shifted(delta, to & promote_mask, to & !dead);
        for from in pawns & self.pinned {
            let t = self.pinned_targets(from, step_attacks(self.us, Role::Pawn, from));
            sink.piece(from, promote_mask & t, t & !dead);
        }
    }
}

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Position({})", self.sfen())
    }
}

impl Default for Position {
    fn default() -> Position {
        Position::new(Variant::Standard)
    }
}

/// Roles each variant lets a player hold ([`Rules::hand_roles`]), as bits
/// by role index, by variant.
const fn hand_mask(variant: Variant) -> u16 {
    let roles = variant.rules().hand_roles;
    let mut mask = 0u16;
    let mut i = 0;
    while i < roles.len() {
        mask |= 1 << roles[i].index();
        i += 1;
    }
    mask
}

static HAND_MASKS: [u16; 3] = {
    let mut t = [0u16; 3];
    let mut i = 0;
    while i < Variant::ALL.len() {
        let v = Variant::ALL[i];
        t[v as usize] = hand_mask(v);
        i += 1;
    }
    t
};
