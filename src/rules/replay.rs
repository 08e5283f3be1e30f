//! A game in progress: the position plus the history that the game-end rules
//! need (repetition, perpetual check, entering-king declaration, try).

use crate::rules::color::Color;
use crate::rules::moves::Move;
use crate::rules::outcome::Outcome;
use crate::rules::position::{IllegalMove, Position, Status};
use crate::rules::role::Role;
use crate::rules::variant::RepetitionRule;
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// A hasher for keys that are already Zobrist hashes.
#[derive(Default)]
struct IdentityHasher(u64);

impl Hasher for IdentityHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ b as u64;
        }
    }
    fn write_u64(&mut self, n: u64) {
        self.0 = n;
    }
}

type HashCounts = HashMap<u64, (u8, u32), BuildHasherDefault<IdentityHasher>>;

/// Why a game ended, as the rules decide it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EndReason {
    /// The side to move is checkmated.
    Checkmate,
    /// The side to move has no legal move (not in check): it loses.
    NoLegalMoves,
    /// The same position for the fourth time.
    Repetition,
    /// Fourfold repetition in which one side gave check with every move.
    PerpetualCheck,
    /// Doubutsu: a lion was captured.
    KingCapture,
    /// Doubutsu: a lion reached the far rank and survived.
    Try,
}

impl EndReason {
    /// A short word for reports (`checkmate`, `repetition`, …).
    pub fn name(self) -> &'static str {
        match self {
            EndReason::Checkmate => "checkmate",
            EndReason::NoLegalMoves => "no-legal-moves",
            EndReason::Repetition => "repetition",
            EndReason::PerpetualCheck => "perpetual-check",
            EndReason::KingCapture => "king-capture",
            EndReason::Try => "try",
        }
    }
}

/// The end of a game by rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameEnd {
    /// Who won.
    pub outcome: Outcome,
    /// Why.
    pub reason: EndReason,
}

/// The point rule for entering-king declarations (入玉宣言).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum ImpasseRule {
    /// JSA 24-point declaration: ≥31 points wins, 24–30 draws, else loses.
    Points24,
    /// CSA 27-point rule: sente needs 28, gote 27; else the declarer loses.
    #[default]
    Points27,
}

/// What a declaration yields for the declarer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Declaration {
    /// The declarer wins.
    Win,
    /// Impasse draw (24-point rule only).
    Draw,
    /// The conditions fail: the declarer loses.
    Lose,
}

/// The facts a declaration is judged on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DeclarationCount {
    /// The declarer's king is in the enemy camp.
    pub king_in_camp: bool,
    /// Pieces (not the king) in the enemy camp.
    pub pieces_in_camp: u32,
    /// Points of the pieces in the enemy camp plus the hand (plus the
    /// handicap credit for White).
    pub points: u32,
    /// The declarer is in check.
    pub in_check: bool,
}

impl Position {
    /// Counts what an entering-king declaration by the side to move is judged
    /// on. `white_bonus` is credited to White (the points of the pieces a
    /// handicap removed).
    pub fn declaration_count(&self, white_bonus: u32) -> DeclarationCount {
        let us = self.turn();
        let camp = self.rules().zone[us.index()];
        let king_in_camp = self.king(us).is_some_and(|k| camp.contains(k));
        let mine = self.by_color(us) & camp;
        let mut pieces = 0;
        let mut points = self.hand(us).impasse_points();
        for sq in mine {
            let role = self.piece_at(sq).map_or(Role::King, |p| p.role);
            if role != Role::King {
                pieces += 1;
                points += role.impasse_points();
            }
        }
        if us == Color::White {
            points += white_bonus;
        }
        DeclarationCount {
            king_in_camp,
            pieces_in_camp: pieces,
            points,
            in_check: self.in_check(),
        }
    }

    /// Judges an entering-king declaration by the side to move.
    pub fn declaration(&self, rule: ImpasseRule, white_bonus: u32) -> Declaration {
        let c = self.declaration_count(white_bonus);
        if !c.king_in_camp || c.pieces_in_camp < 10 || c.in_check {
            return Declaration::Lose;
        }
        match rule {
            ImpasseRule::Points24 => {
                if c.points >= 31 {
                    Declaration::Win
                } else if c.points >= 24 {
                    Declaration::Draw
                } else {
                    Declaration::Lose
                }
            }
            ImpasseRule::Points27 => {
                let need = if self.turn() == Color::Black { 28 } else { 27 };
                if c.points >= need {
                    Declaration::Win
                } else {
                    Declaration::Lose
                }
            }
        }
    }
}

/// A position with its history. Playing a move costs one hash-map update;
/// checkmate is only looked for when asked ([`Replay::end`]).
#[derive(Clone, Debug)]
pub struct Replay {
    pos: Position,
    counts: HashCounts,
    gave_check: Vec<bool>,
    repetition_end: Option<GameEnd>,
}

impl Replay {
    /// Starts from `pos`.
    pub fn new(pos: Position) -> Replay {
        let mut counts = HashCounts::default();
        counts.reserve(256);
        counts.insert(pos.hash(), (1, 0));
        Replay {
            pos,
            counts,
            gave_check: Vec::with_capacity(256),
            repetition_end: None,
        }
    }

    /// Starts again from `pos`, keeping allocated memory.
    pub fn reset(&mut self, pos: Position) {
        self.pos = pos;
        self.counts.clear();
        self.counts.insert(pos.hash(), (1, 0));
        self.gave_check.clear();
        self.repetition_end = None;
    }

    /// The current position.
    #[inline]
    pub fn position(&self) -> &Position {
        &self.pos
    }

    /// Moves played.
    #[inline]
    pub fn plies(&self) -> u32 {
        self.gave_check.len() as u32
    }

    /// Whether the last move played gave check.
    #[inline]
    pub fn last_gave_check(&self) -> bool {
        self.gave_check.last().copied().unwrap_or(false)
    }

    /// Checks and plays a move.
    pub fn play(&mut self, m: Move) -> Result<(), IllegalMove> {
        self.pos.check(m)?;
        self.play_unchecked(m);
        Ok(())
    }

    /// Plays a move without checking it and updates the repetition count.
    pub fn play_unchecked(&mut self, m: Move) {
        self.pos.play_unchecked(m);
        let check = self.pos.in_check();
        self.gave_check.push(check);
        let n = self.gave_check.len() as u32;
        let entry = self.counts.entry(self.pos.hash()).or_insert((0, n));
        entry.0 = entry.0.saturating_add(1);
        if entry.0 >= 4 && self.repetition_end.is_none() {
            let first = entry.1;
            self.repetition_end = Some(self.judge_repetition(first, n));
        }
    }

    /// Outcome of a fourfold repetition between position indices `first`
    /// and `now` (position i follows move i).
    fn judge_repetition(&self, first: u32, now: u32) -> GameEnd {
        // Moves first+1 ..= now (1-based) lead from the first occurrence to
        // the fourth; move k was made by the side to move before it.
        let mover_after = self.pos.turn(); // side to move now = !last mover
        let mut all_checks = [true, true];
        let mut any = [false, false];
        for k in (first + 1)..=now {
            let idx = (k - 1) as usize;
            // Move `now` was made by !mover_after; moves alternate.
            let made_by = if (now - k).is_multiple_of(2) {
                !mover_after
            } else {
                mover_after
            };
            any[made_by.index()] = true;
            if !self.gave_check[idx] {
                all_checks[made_by.index()] = false;
            }
        }
        let perpetual = |c: Color| any[c.index()] && all_checks[c.index()];
        repetition_verdict(
            self.pos.rules().repetition,
            perpetual(Color::Black),
            perpetual(Color::White),
        )
    }

    /// The fourfold repetition that ended the game, if it happened.
    pub fn repetition(&self) -> Option<GameEnd> {
        self.repetition_end
    }

    /// How many times the current position has occurred (1 = first time).
    pub fn occurrences(&self) -> u8 {
        self.counts.get(&self.pos.hash()).map_or(1, |e| e.0)
    }

    /// Whether the game is over by rule, and how: repetition first, then
    /// the position's own status (mate, no moves, lion capture, try).
    pub fn end(&self) -> Option<GameEnd> {
        if let Some(e) = self.repetition_end {
            return Some(e);
        }
        let turn = self.pos.turn();
        let status = self.pos.status();
        let reason = match status {
            Status::Ongoing => return None,
            Status::Checkmate => EndReason::Checkmate,
            Status::NoLegalMoves => EndReason::NoLegalMoves,
            Status::KingCaptured => EndReason::KingCapture,
            Status::Try => EndReason::Try,
        };
        Some(GameEnd {
            outcome: Outcome::win(status.winner(turn).expect("game over has a winner")),
            reason,
        })
    }
}

/// The occurrences of one position in one line (a position occurs at most
/// four times on a path: the fourth ends the game).
#[derive(Clone, Copy, Debug, Default)]
struct Occurrences {
    n: u8,
    at: [u32; 4],
}

/// One slot of a [`SeenTable`]: a position hash and its occurrences, valid
/// when its generation is the table's.
#[derive(Clone, Copy, Debug, Default)]
struct Slot {
    hash: u64,
    generation: u32,
    occ: Occurrences,
}

/// The positions seen on one line, by Zobrist hash: an open-addressing
/// table (linear probing) whose keys are already uniformly spread hashes,
/// emptied in O(1) by bumping a generation number. A slot of an older
/// generation is free.
#[derive(Clone, Debug)]
struct SeenTable {
    slots: Vec<Slot>,
    /// Valid slots.
    len: usize,
    generation: u32,
}

impl Default for SeenTable {
    fn default() -> SeenTable {
        SeenTable {
            slots: Vec::new(),
            len: 0,
            generation: 1,
        }
    }
}

impl SeenTable {
    /// Slots of a table's first use: a game of 100 plies fits at a load
    /// under one half.
    const INITIAL: usize = 256;

    /// Empties the table (keeping memory).
    #[inline]
    fn clear(&mut self) {
        self.len = 0;
        self.generation = self.generation.wrapping_add(1);
        if self.generation == 0 {
            // Once in 2^32 clears: no slot may look valid.
            self.slots.iter_mut().for_each(|s| s.generation = 0);
            self.generation = 1;
        }
    }

    #[inline]
    fn mask(&self) -> usize {
        self.slots.len().wrapping_sub(1)
    }

    /// The occurrences of `hash`, if seen.
    #[inline]
    fn get(&self, hash: u64) -> Option<&Occurrences> {
        if self.slots.is_empty() {
            return None;
        }
        let mask = self.mask();
        let mut i = hash as usize & mask;
        loop {
            let s = &self.slots[i];
            if s.generation != self.generation {
                return None;
            }
            if s.hash == hash {
                return Some(&s.occ);
            }
            i = (i + 1) & mask;
        }
    }

    /// The occurrences of `hash`, inserted empty if not seen yet.
    #[inline]
    fn entry(&mut self, hash: u64) -> &mut Occurrences {
        if (self.len + 1) * 2 > self.slots.len() {
            self.grow();
        }
        let mask = self.mask();
        let generation = self.generation;
        let mut i = hash as usize & mask;
        loop {
            if self.slots[i].generation != generation {
                self.len += 1;
                self.slots[i] = Slot {
                    hash,
                    generation,
                    occ: Occurrences::default(),
                };
                return &mut self.slots[i].occ;
            }
            if self.slots[i].hash == hash {
                return &mut self.slots[i].occ;
            }
            i = (i + 1) & mask;
        }
    }

    #[cold]
    fn grow(&mut self) {
        let size = (self.slots.len() * 2).max(Self::INITIAL);
        let old = std::mem::replace(&mut self.slots, vec![Slot::default(); size]);
        let generation = self.generation;
        self.len = 0;
        for s in old {
            if s.generation == generation {
                *self.entry(s.hash) = s.occ;
            }
        }
    }
}

/// The positions of one line: index `i` is the position after `i` moves of
/// the game (0 = the start position).
#[derive(Clone, Debug, Default)]
struct LineHistory {
    /// Index of the line's first position.
    start: u32,
    seen: SeenTable,
    /// Whether the move leading to each position gave check.
    gave_check: Vec<bool>,
    /// A fourfold repetition on this path, and the index where it happened.
    ended: Option<(GameEnd, u32)>,
}

impl LineHistory {
    fn next_index(&self) -> u32 {
        self.start + self.gave_check.len() as u32
    }
}

/// The repetition history of a game with variations: the positions of the
/// path from the start to the position being read, line by line. Opening a
/// variation costs nothing (the parent's later positions are simply not on
/// the new path) and closing one frees only its own positions, so memory
/// is bounded by the lines open at once, never by lines × variations.
#[derive(Clone, Debug, Default)]
pub struct PathHistory {
    lines: Vec<LineHistory>,
    spare: Vec<LineHistory>,
}

impl PathHistory {
    /// Starts a game at the position with hash `start`.
    pub fn reset(&mut self, start: u64) {
        while self.lines.len() > 1 {
            self.close_variation();
        }
        if self.lines.is_empty() {
            let l = self.spare.pop().unwrap_or_default();
            self.lines.push(l);
        }
        let l = &mut self.lines[0];
        l.seen.clear();
        l.gave_check.clear();
        l.start = 0;
        l.ended = None;
        *l.seen.entry(start) = Occurrences { n: 1, at: [0; 4] };
        l.gave_check.push(false);
    }

    /// Empties the history as a new one is (keeping memory for the next
    /// [`PathHistory::reset`]).
    pub fn clear(&mut self) {
        while self.lines.len() > 1 {
            self.close_variation();
        }
        if let Some(l) = self.lines.pop() {
            self.spare.push(l);
        }
    }

    /// Opens a variation whose first move is move `ply` (1-based) of the
    /// game: the positions of the current line from `ply` on leave the path.
    pub fn open_variation(&mut self, ply: u32) {
        let inherited = self
            .lines
            .last()
            .and_then(|l| l.ended)
            .filter(|&(_, at)| at < ply);
        let mut l = self.spare.pop().unwrap_or_default();
        l.seen.clear();
        l.gave_check.clear();
        l.start = ply;
        l.ended = inherited;
        self.lines.push(l);
    }

    /// Closes the innermost variation.
    pub fn close_variation(&mut self) {
        if self.lines.len() > 1 {
            if let Some(l) = self.lines.pop() {
                self.spare.push(l);
            }
        }
    }

    /// The end of the index range of line `d` that is on the path.
    fn bound(&self, d: usize) -> u32 {
        match self.lines.get(d + 1) {
            Some(child) => child.start,
            None => self.lines[d].next_index(),
        }
    }

    /// How many times, and first where, `hash` occurs on the path.
    fn find(&self, hash: u64) -> (u8, Option<u32>) {
        let mut n = 0;
        let mut first = None;
        for (d, l) in self.lines.iter().enumerate() {
            if let Some(o) = l.seen.get(hash) {
                let bound = self.bound(d);
                for &i in &o.at[..o.n as usize] {
                    if i < bound {
                        n += 1;
                        first = Some(first.map_or(i, |f: u32| f.min(i)));
                    }
                }
            }
        }
        (n, first)
    }

    /// Records the position `pos` reached by a move (`gave_check`: whether
    /// it did); returns the fourfold repetition it completes, if any.
    #[inline]
    pub fn push(&mut self, pos: &Position, gave_check: bool) -> Option<GameEnd> {
        let hash = pos.hash();
        let single = self.lines.len() == 1;
        let top = self.lines.last_mut().expect("reset first");
        let index = top.next_index();
        top.gave_check.push(gave_check);
        let o = top.seen.entry(hash);
        if (o.n as usize) < o.at.len() {
            o.at[o.n as usize] = index;
            o.n += 1;
        }
        if top.ended.is_some() {
            return None;
        }
        // On the main line alone every occurrence is on the path, the first
        // one first: what `find` would count, without a second look-up.
        let (n, first) = if single {
            (o.n, Some(o.at[0]))
        } else {
            self.find(hash)
        };
        if n >= 4 {
            let end = self.judge(pos, first.unwrap_or(index), index);
            if let Some(top) = self.lines.last_mut() {
                top.ended = Some((end, index));
            }
            return Some(end);
        }
        None
    }

    /// Whether the move leading to position `index` of the path gave check.
    fn gave_check(&self, index: u32) -> bool {
        for (d, l) in self.lines.iter().enumerate().rev() {
            if index >= l.start && index < self.bound(d) {
                return l.gave_check[(index - l.start) as usize];
            }
        }
        false
    }

    /// The outcome of a fourfold repetition between positions `first` and
    /// `now` of the path (`pos` is position `now`).
    fn judge(&self, pos: &Position, first: u32, now: u32) -> GameEnd {
        let mover_after = pos.turn();
        let mut all_checks = [true, true];
        let mut any = [false, false];
        for k in (first + 1)..=now {
            let made_by = if (now - k).is_multiple_of(2) {
                !mover_after
            } else {
                mover_after
            };
            any[made_by.index()] = true;
            if !self.gave_check(k) {
                all_checks[made_by.index()] = false;
            }
        }
        let perpetual = |c: Color| any[c.index()] && all_checks[c.index()];
        repetition_verdict(
            pos.rules().repetition,
            perpetual(Color::Black),
            perpetual(Color::White),
        )
    }

    /// The fourfold repetition that ended the current path, if any.
    pub fn repetition(&self) -> Option<GameEnd> {
        self.lines.last().and_then(|l| l.ended).map(|(e, _)| e)
    }

    /// How many times the position with `hash` occurs on the path.
    pub fn occurrences(&self, hash: u64) -> u8 {
        self.find(hash).0.max(1)
    }

    /// Whether the last move of the path gave check.
    pub fn last_gave_check(&self) -> bool {
        self.lines
            .last()
            .and_then(|l| l.gave_check.last().copied())
            .unwrap_or(false)
    }
}

/// The end of a game by the position alone (mate, no moves, lion capture,
/// try), if it is over.
pub fn status_end(pos: &Position) -> Option<GameEnd> {
    let reason = match pos.status() {
        Status::Ongoing => return None,
        Status::Checkmate => EndReason::Checkmate,
        Status::NoLegalMoves => EndReason::NoLegalMoves,
        Status::KingCaptured => EndReason::KingCapture,
        Status::Try => EndReason::Try,
    };
    Some(GameEnd {
        outcome: Outcome::win(
            pos.status()
                .winner(pos.turn())
                .expect("game over has a winner"),
        ),
        reason,
    })
}

/// The end of a fourfold repetition: the side that gave check on every
/// move of the cycle loses (unless repetition is always a draw), else the
/// variant's rule decides (a draw, or sente loses in minishogi).
fn repetition_verdict(
    rule: RepetitionRule,
    black_perpetual: bool,
    white_perpetual: bool,
) -> GameEnd {
    if rule != RepetitionRule::Draw {
        match (black_perpetual, white_perpetual) {
            (true, false) => {
                return GameEnd {
                    outcome: Outcome::win(Color::White),
                    reason: EndReason::PerpetualCheck,
                }
            }
            (false, true) => {
                return GameEnd {
                    outcome: Outcome::win(Color::Black),
                    reason: EndReason::PerpetualCheck,
                }
            }
            _ => {}
        }
    }
    let outcome = match rule {
        RepetitionRule::SenteLosesUnlessPerpetualCheck => Outcome::win(Color::White),
        _ => Outcome::Draw,
    };
    GameEnd {
        outcome,
        reason: EndReason::Repetition,
    }
}
