//! A legal game position: move generation, single-move checking and playing.

use crate::attacks::{self, attacks, between, direction, ray, step_attacks};
use crate::bitboard::Bitboard;
use crate::color::Color;
use crate::hand::Hand;
use crate::moves::Move;
use crate::role::{Piece, Role};
use crate::setup::{Setup, SetupError, SetupErrors, Waivers};
use crate::square::Square;
use crate::variant::{Rules, Variant};
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
        let setup = crate::sfen::parse_sfen(variant.rules().start_sfen, Some(variant))
            .expect("built-in start SFEN parses");
        Position::from_setup(setup, Waivers::NONE).expect("built-in start position is legal")
    }

    /// Parses an SFEN (variant from the board's size) and checks it strictly.
    pub fn from_sfen(sfen: &str) -> Result<Position, crate::sfen::SfenError> {
        let setup = crate::sfen::parse_sfen(sfen, None)?;
        Position::from_setup(setup, Waivers::NONE).map_err(crate::sfen::SfenError::Setup)
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
        pos.checkers = pos.compute_checkers();
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
        if (b(Role::Giraffe) | b(Role::Elephant)).any() {
            att |= (step_attacks(them, Role::Giraffe, sq) & b(Role::Giraffe))
                | (step_attacks(them, Role::Elephant, sq) & b(Role::Elephant));
        }
        let lances = b(Role::Lance);
        if lances.any() {
            att |= attacks::lance_attacks(them, sq, occ) & lances;
        }
        let bishops = b(Role::Bishop) | b(Role::Horse);
        if bishops.any() {
            att |= attacks::bishop_attacks(sq, occ) & bishops;
        }
        let rooks = b(Role::Rook) | b(Role::Dragon);
        if rooks.any() {
            att |= attacks::rook_attacks(sq, occ) & rooks;
        }
        att & self.by_color[by.index()]
    }

    /// Pieces giving check to the side to move.
    #[inline]
    pub fn checkers(&self) -> Bitboard {
        self.checkers
    }

    fn compute_checkers(&self) -> Bitboard {
        match self.king(self.turn) {
            Some(k) => self.attackers_to(k, !self.turn, self.occupied()),
            None => Bitboard::EMPTY,
        }
    }

    /// Whether the side to move is in check.
    #[inline]
    pub fn in_check(&self) -> bool {
        self.checkers().any()
    }

    /// Whether the piece on `from`, which lies in direction `d` from the
    /// king, is pinned (the first piece beyond it on that ray is an enemy
    /// slider that moves along the ray).
    fn pinned_along(&self, king: Square, from: Square, d: usize) -> bool {
        let occ = self.occupied().0;
        let nearest = |bits: u128| -> Option<Square> {
            if bits == 0 {
                None
            } else if d & 1 == 1 {
                Square::from_index(bits.trailing_zeros() as usize)
            } else {
                Square::from_index(127 - bits.leading_zeros() as usize)
            }
        };
        if nearest(ray(d, king).0 & occ) != Some(from) {
            return false;
        }
        let Some(s) = nearest(ray(d, from).0 & occ & self.rules().board.0) else {
            return false;
        };
        let Some(p) = self.board[s.index()] else {
            return false;
        };
        if p.color == self.turn {
            return false;
        }
        match p.role {
            Role::Rook | Role::Dragon => d < 4,
            Role::Bishop | Role::Horse => d >= 4,
            Role::Lance => d == attacks::forward_dir(self.turn),
            _ => false,
        }
    }

    /// Pieces of the side to move pinned to its king.
    fn pinned(&self, king: Square) -> Bitboard {
        let us = self.turn;
        let them = !us;
        let occ = self.occupied();
        let snipers = ((attacks::rook_attacks(king, Bitboard::EMPTY)
            & (self.pieces(them, Role::Rook) | self.pieces(them, Role::Dragon)))
            | (attacks::bishop_attacks(king, Bitboard::EMPTY)
                & (self.pieces(them, Role::Bishop) | self.pieces(them, Role::Horse)))
            | (attacks::lance_attacks(us, king, Bitboard::EMPTY) & self.pieces(them, Role::Lance)))
            & self.rules().board;
        let mut pinned = Bitboard::EMPTY;
        for s in snipers {
            let b = between(king, s) & occ;
            if b.count() == 1 {
                pinned |= b & self.by_color[us.index()];
            }
        }
        pinned
    }

    #[inline]
    fn push_board_moves(&self, role: Role, from: Square, targets: Bitboard, list: &mut MoveList) {
        let rules = self.rules();
        let us = self.turn;
        if rules.can_promote(role) {
            let zone = rules.zone[us.index()];
            let dead = rules.dead_squares(us, role);
            let from_zone = zone.contains(from);
            for to in targets {
                if from_zone || zone.contains(to) {
                    list.push(Move::Normal {
                        from,
                        to,
                        promote: true,
                    });
                }
                if !dead.contains(to) {
                    list.push(Move::Normal {
                        from,
                        to,
                        promote: false,
                    });
                }
            }
        } else {
            for to in targets {
                list.push(Move::Normal {
                    from,
                    to,
                    promote: false,
                });
            }
        }
    }

    /// Files (as a mask of whole files) holding an unpromoted pawn of `color`.
    #[inline]
    fn pawn_files(&self, color: Color) -> Bitboard {
        let mut m = 0u128;
        for sq in self.pieces(color, Role::Pawn) {
            m |= 0x1FFu128 << ((sq.file() as usize - 1) * 9);
        }
        Bitboard(m)
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

    /// Appends every legal move to `list`.
    pub fn legal_moves_into(&self, list: &mut MoveList) {
        if self.variant_end().is_some() {
            return;
        }
        let rules = self.rules();
        let us = self.turn;
        let ours = self.by_color[us.index()];
        let occ = self.occupied();
        let board = rules.board;
        let empty = board & !occ;

        if rules.self_check_allowed {
            for from in ours {
                let role = self.board[from.index()].expect("own piece").role;
                let targets = attacks(us, role, from, occ) & board & !ours;
                self.push_board_moves(role, from, targets, list);
            }
            self.push_drops(empty, list);
            return;
        }

        let king = self.king(us);
        let (checkers, pinned) = match king {
            Some(k) => (self.checkers, self.pinned(k)),
            None => (Bitboard::EMPTY, Bitboard::EMPTY),
        };
        if let Some(k) = king {
            let occ_wo_king = occ ^ Bitboard::from_square(k);
            for to in step_attacks(us, Role::King, k) & board & !ours {
                if !self.attackers_to(to, !us, occ_wo_king).any() {
                    list.push(Move::Normal {
                        from: k,
                        to,
                        promote: false,
                    });
                }
            }
        }
        if checkers.more_than_one() {
            return;
        }
        let (target, drop_target) = match (king, checkers.first()) {
            (Some(k), Some(c)) => {
                let b = between(k, c);
                (b | Bitboard::from_square(c), b)
            }
            _ => (board & !ours, empty),
        };
        let non_king = ours & !self.by_role[Role::King.index()];
        for from in non_king {
            let role = self.board[from.index()].expect("own piece").role;
            let mut targets = attacks(us, role, from, occ) & target;
            if pinned.contains(from) {
                let k = king.expect("pinned implies king");
                targets &= ray(direction(k, from).expect("aligned"), k);
            }
            self.push_board_moves(role, from, targets, list);
        }
        self.push_drops(drop_target, list);
    }

    fn push_drops(&self, target: Bitboard, list: &mut MoveList) {
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
            for to in mask {
                list.push(Move::Drop { role, to });
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

    /// Every legal move.
    pub fn legal_moves(&self) -> MoveList {
        let mut list = MoveList::new();
        self.legal_moves_into(&mut list);
        list
    }

    /// Whether the side to move has any legal move.
    pub fn has_legal_move(&self) -> bool {
        let mut list = MoveList::new();
        self.legal_moves_into(&mut list);
        !list.is_empty()
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
    pub fn check(&self, m: Move) -> Result<(), IllegalMove> {
        let rules = self.rules();
        let us = self.turn;
        let ours = self.by_color[us.index()];
        let occ = self.occupied();
        match m {
            Move::Normal { from, to, promote } => {
                let piece = match self.board[from.index()] {
                    Some(p) if p.color == us && rules.board.contains(from) => p,
                    _ => return Err(IllegalMove::NoPiece),
                };
                if !(attacks(us, piece.role, from, occ) & rules.board).contains(to) {
                    return Err(IllegalMove::IllegalMovement);
                }
                if ours.contains(to) {
                    return Err(IllegalMove::Occupied);
                }
                let zone = rules.zone[us.index()];
                if promote {
                    if !rules.can_promote(piece.role) || !(zone.contains(from) || zone.contains(to))
                    {
                        return Err(IllegalMove::IllegalPromotion);
                    }
                } else if rules.can_promote(piece.role)
                    && rules.dead_squares(us, piece.role).contains(to)
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
                    let occ2 = occ ^ Bitboard::from_square(from);
                    if self.attackers_to(to, !us, occ2).any() {
                        return Err(IllegalMove::SelfCheck);
                    }
                    return Ok(());
                }
                let checkers = self.checkers;
                if checkers.more_than_one() {
                    return Err(IllegalMove::SelfCheck);
                }
                if let Some(c) = checkers.first() {
                    if !(between(k, c) | Bitboard::from_square(c)).contains(to) {
                        return Err(IllegalMove::SelfCheck);
                    }
                }
                if let Some(d) = direction(k, from) {
                    let line = ray(d, k);
                    if !line.contains(to) && self.pinned_along(k, from, d) {
                        return Err(IllegalMove::SelfCheck);
                    }
                }
                Ok(())
            }
            Move::Drop { role, to } => {
                if !rules.hand_roles.contains(&role) || self.hands[us.index()].count(role) == 0 {
                    return Err(IllegalMove::NotInHand);
                }
                if !rules.board.contains(to) {
                    return Err(IllegalMove::IllegalMovement);
                }
                if occ.contains(to) {
                    return Err(IllegalMove::Occupied);
                }
                if rules.dead_drops && rules.dead_squares(us, role).contains(to) {
                    return Err(IllegalMove::DeadDrop);
                }
                let pawn_rules = role == Role::Pawn && rules.pawn_drop_rules;
                if pawn_rules && self.pawn_files(us).contains(to) {
                    return Err(IllegalMove::Nifu);
                }
                if !rules.self_check_allowed {
                    if let Some(k) = self.king(us) {
                        let checkers = self.checkers;
                        if checkers.more_than_one() {
                            return Err(IllegalMove::SelfCheck);
                        }
                        if let Some(c) = checkers.first() {
                            if !between(k, c).contains(to) {
                                return Err(IllegalMove::SelfCheck);
                            }
                        }
                    }
                }
                if pawn_rules {
                    if let Some(k) = self.king(!us) {
                        if step_attacks(!us, Role::Pawn, k).contains(to)
                            && self.is_pawn_drop_mate(to)
                        {
                            return Err(IllegalMove::Uchifuzume);
                        }
                    }
                }
                Ok(())
            }
        }
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
        let us = self.turn;
        match m {
            Move::Normal { from, to, promote } => {
                let Some(mut piece) = self.take(from) else {
                    self.switch_turn();
                    return;
                };
                if let Some(captured) = self.take(to) {
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
                self.put(piece, to);
            }
            Move::Drop { role, to } => {
                if self.hands[us.index()].remove(role) {
                    self.hand_key = self.hand_key.wrapping_sub(hand_key(us, role));
                    self.take(to);
                    self.put(Piece::new(us, role), to);
                }
            }
        }
        self.switch_turn();
    }

    #[inline]
    fn switch_turn(&mut self) {
        self.turn = !self.turn;
        self.board_key ^= ZOBRIST.2;
        self.ply = self.ply.saturating_add(1);
        self.checkers = self.compute_checkers();
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
        crate::sfen::write_sfen(&self.to_setup())
    }

    /// Counts leaf nodes of the legal move tree `depth` plies deep.
    pub fn perft(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let mut moves = MoveList::new();
        self.legal_moves_into(&mut moves);
        if depth == 1 {
            return moves.len() as u64;
        }
        let mut n = 0;
        for &m in &moves {
            let mut next = *self;
            next.play_unchecked(m);
            n += next.perft(depth - 1);
        }
        n
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
