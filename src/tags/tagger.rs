//! Naming a game as it is played: after each main-line move, the rules of
//! the mover's openings and castles are checked on the position (within
//! their kind's ply window); the first ply each one holds is kept.

use super::rule::{Ctx, Roles};
use super::taxonomy::{Kind, TagId, TagSet, Taxonomy};
use crate::rules::{Bitboard, Color, Handicap, Move, Position, Role, Setup, Variant};

/// One name found for a side: the entry and the first ply (the move just
/// played, 1-based) at which its rule held.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Found {
    /// The entry.
    pub tag: TagId,
    /// The first ply at which it held.
    pub ply: u32,
}

/// What one side was found to play, most specific first (deepest in the
/// taxonomy, then earliest).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SideTags {
    /// Openings: every one found (a Fourth File Rook and, later, the
    /// Fujii System played from it).
    pub openings: Vec<Found>,
    /// Castles built: every one (a half Mino that became a Mino gives
    /// both).
    pub castles: Vec<Found>,
}

impl SideTags {
    /// The names of `kind` (none for styles).
    pub fn of(&self, kind: Kind) -> &[Found] {
        match kind {
            Kind::Opening => &self.openings,
            Kind::Castle => &self.castles,
            Kind::Style => &[],
        }
    }

    /// The umbrellas of `tax` this side falls under (`穴熊` for a side
    /// whose castle is a 居飛車穴熊), in file order, each with the first
    /// ply at which one of the side's names under it was found (`None`
    /// when only the game's `style` puts the side there: `相居飛車`). A
    /// side with a name under one of an umbrella's exclusions is not
    /// under it (`居飛車` excludes `ranging_rook`).
    pub fn implied(&self, tax: &Taxonomy, style: Option<TagId>) -> Vec<(TagId, Option<u32>)> {
        let mut out = Vec::new();
        for u in tax.umbrellas() {
            let e = tax.get(u);
            let all = || self.openings.iter().chain(&self.castles);
            if e.excludes
                .iter()
                .any(|x| all().any(|f| tax.selects(*x).contains(f.tag.0)))
            {
                continue;
            }
            let set = tax.selects(u);
            let ply = all().filter(|f| set.contains(f.tag.0)).map(|f| f.ply).min();
            if ply.is_some() || style.is_some_and(|s| set.contains(s.0)) {
                out.push((u, ply));
            }
        }
        out
    }
}

/// The names of one game.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GameTags {
    /// Sente's, then gote's.
    pub sides: [SideTags; 2],
    /// The game's style (even games only).
    pub style: Option<TagId>,
}

impl GameTags {
    /// One side's names.
    pub fn side(&self, c: Color) -> &SideTags {
        &self.sides[c.index()]
    }

    /// Whether either side has a name in `set` (an entry and its
    /// descendants, say), or the style is in it.
    pub fn any_in(&self, set: &TagSet) -> bool {
        self.style.is_some_and(|s| set.contains(s.0))
            || self.sides.iter().any(|s| {
                s.openings
                    .iter()
                    .chain(&s.castles)
                    .any(|f| set.contains(f.tag.0))
            })
    }
}

/// Which names a game gets.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Mode {
    /// A variant, or before the start: none.
    Off,
    /// A handicap game (a standard handicap start): openings and
    /// castles, no style (both sides do not start alike).
    Handicap,
    /// Another start of standard shogi: castles only.
    Castles,
    /// The even game: openings, castles and the style.
    Full,
}

/// Names the openings and castles of a game as its main line is played:
/// [`Tagger::begin`] at the start, [`Tagger::played`] after each main-line
/// move, [`Tagger::finish`] for the names. Nothing is allocated per move;
/// past the last window (castles: 120 plies, and none once a piece other
/// than a pawn or a bishop was taken) a move costs nothing.
///
/// ```
/// use kifu::tags::{Kind, Tagger, Taxonomy};
/// use kifu::{Move, Position, Variant};
///
/// let tax = Taxonomy::builtin();
/// let mut tagger = Tagger::new(tax);
/// let mut pos = Position::new(Variant::Standard);
/// tagger.begin_even();
/// for usi in ["7g7f", "3c3d", "6g6f", "8b4b"] {
///     let mv = Move::from_usi(usi, Variant::Standard).unwrap();
///     let role = pos.moving_role(mv).unwrap();
///     let captured = pos.captured(mv).map(|p| p.role);
///     pos.play(mv).unwrap();
///     tagger.played(&pos, mv, role, captured);
/// }
/// let tags = tagger.finish();
/// let gote: Vec<&str> = tags.sides[1].openings.iter().map(|f| tax.get(f.tag).id.as_str()).collect();
/// assert_eq!(gote, ["fourth_file_rook"]);
/// ```
#[derive(Clone, Debug)]
pub struct Tagger<'t> {
    tax: &'t Taxonomy,
    mode: Mode,
    ply: u32,
    /// Roles captured so far, by either side (unpromoted).
    captured: Roles,
    /// The rules the captures so far rule out.
    dead: TagSet,
    /// Whether every rule that could still hold at some later ply is
    /// ruled out: the rest of the game is not looked at.
    done: bool,
    /// Per side: every entry whose rule held at some ply.
    held: [TagSet; 2],
    /// Per side: the entries kept, with their first ply.
    kept: [Vec<Found>; 2],
    /// Per side: the entries in `kept`.
    kept_set: [TagSet; 2],
    /// Per side: the entries kept whose ancestors are all kept too
    /// (checking them again can change nothing: they are not checked).
    settled: [TagSet; 2],
    /// Per side: entries found not to hold because of a condition on the
    /// board that stays false until a square of `watch` changes
    /// ([`super::rule::Program::blocked`]): they are not checked.
    blocked: [TagSet; 2],
    /// Per side and square: the entries of `blocked` waiting for it (an
    /// entry may stay listed after it left `blocked`: it is only taken
    /// out again).
    watch: Box<[[TagSet; 81]; 2]>,
    /// The squares of `watch` written to in this game (cleared at the
    /// next).
    watched: Bitboard,
}

#[cfg(test)]
thread_local! {
    /// Games begun by any tagger on this thread (tests count the taggers'
    /// work: one begin per game and tagger).
    pub(crate) static GAMES_NAMED: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
    /// Rules looked at by taggers on this thread (each candidate of a
    /// check: its gate, maybe its program).
    static RULES_LOOKED_AT: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
    /// Whether taggers on this thread block no rule (every candidate is
    /// looked at after each of its moves, as before blocking existed).
    static NO_BLOCKING: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// The position a style's rule is checked with (it looks at tags and the
/// ply only).
fn idle() -> &'static Position {
    static IDLE: std::sync::OnceLock<Position> = std::sync::OnceLock::new();
    IDLE.get_or_init(|| Position::new(Variant::Standard))
}

impl<'t> Tagger<'t> {
    /// A tagger for the names of `tax`.
    pub fn new(tax: &'t Taxonomy) -> Tagger<'t> {
        Tagger {
            tax,
            mode: Mode::Off,
            ply: 0,
            captured: Roles::default(),
            dead: TagSet::default(),
            done: false,
            held: [TagSet::default(); 2],
            kept: [Vec::with_capacity(16), Vec::with_capacity(16)],
            kept_set: [TagSet::default(); 2],
            settled: [TagSet::default(); 2],
            blocked: [TagSet::default(); 2],
            watch: Box::new([[TagSet::default(); 81]; 2]),
            watched: Bitboard::EMPTY,
        }
    }

    /// The taxonomy.
    pub fn taxonomy(&self) -> &'t Taxonomy {
        self.tax
    }

    /// Starts a game from `setup` (`handicap`: the start's handicap, if
    /// the record names one; otherwise it is recognised from the setup).
    /// The even game gets every kind of name; a handicap game openings
    /// and castles (each side's, 上手's and 下手's); any other start of
    /// standard shogi castles only; a variant none.
    pub fn begin(&mut self, setup: &Setup, handicap: Option<Handicap>) {
        self.reset();
        let handicap = handicap.or_else(|| Handicap::detect(setup));
        self.mode = if setup.variant != Variant::Standard {
            Mode::Off
        } else if handicap == Some(Handicap::Even) && setup.turn == Color::Black {
            Mode::Full
        } else if handicap.is_some_and(|h| h != Handicap::Even) && setup.turn == Color::White {
            Mode::Handicap
        } else {
            Mode::Castles
        };
    }

    /// Starts a game from the even start (a record that names no other).
    pub fn begin_even(&mut self) {
        self.reset();
        self.mode = Mode::Full;
    }

    fn reset(&mut self) {
        #[cfg(test)]
        GAMES_NAMED.with(|n| n.set(n.get() + 1));
        self.ply = 0;
        self.captured = Roles::default();
        self.dead = TagSet::default();
        self.done = false;
        self.held = [TagSet::default(); 2];
        self.kept.iter_mut().for_each(Vec::clear);
        self.kept_set = [TagSet::default(); 2];
        self.settled = [TagSet::default(); 2];
        self.blocked = [TagSet::default(); 2];
        for sq in std::mem::take(&mut self.watched) {
            for watch in self.watch.iter_mut() {
                watch[sq.index()] = TagSet::default();
            }
        }
    }

    /// Whether a move played now could still add a name (false past the
    /// last window, or for a variant).
    #[inline]
    pub fn wants_moves(&self) -> bool {
        self.mode != Mode::Off && self.ply < Kind::Castle.window() && !self.done
    }

    /// The main line's next move was played: `pos` is the position after
    /// it, `role` the moving piece's role before it, `captured` the role
    /// it took.
    #[inline(always)]
    pub fn played(&mut self, pos: &Position, mv: Move, role: Role, captured: Option<Role>) {
        if !self.wants_moves() {
            self.ply = self.ply.saturating_add(1);
            return;
        }
        self.ply += 1;
        let tax = self.tax;
        // The entries waiting for a square the move changed may hold now.
        let to = mv.to().index();
        let from = mv.from().map(|f| f.index());
        for (blocked, watch) in self.blocked.iter_mut().zip(self.watch.iter_mut()) {
            if blocked.is_empty() {
                continue;
            }
            let mut free = std::mem::take(&mut watch[to]);
            if let Some(f) = from {
                free = free.union(&std::mem::take(&mut watch[f]));
            }
            *blocked = blocked.difference(&free);
        }
        if let Some(r) = captured {
            let r = r.unpromoted();
            if !self.captured.contains(r) {
                self.captured.0 |= Roles::of(r).0;
                self.dead = self.dead.union(&tax.dead_after[r.index()]);
                self.update_done();
            }
        }
        let me = !pos.turn();
        let Some(alive) =
            tax.alive[(self.mode == Mode::Castles) as usize].get(self.rule_ply(me) as usize)
        else {
            return;
        };
        // Most moves can make no rule hold: an index or two say so.
        let d = &tax.dispatch[me.index()];
        let at = role.index() * 81 + to;
        let kings = &tax.set_kings[me.index()];
        let king = pos.pieces(me, Role::King);
        let mut moved = d.moved[at];
        if moved != 0 && (kings[usize::from(moved)] & king).is_empty() {
            moved = 0;
        }
        let took = if captured.is_some() { d.took[at] } else { 0 };
        // The candidates: the rules without a key and those the move's
        // keys point to; of them, those alive at this ply, not ruled out
        // by the captures, not found already, not blocked, and allowing
        // the king's square.
        let mut cand = d.always;
        for i in [moved, took] {
            if i != 0 {
                cand = cand.union(&tax.sets[usize::from(i)]);
            }
        }
        let cand = cand
            .intersection(alive)
            .difference(&self.dead)
            .difference(&self.settled[me.index()])
            .difference(&self.blocked[me.index()]);
        if cand.is_empty() {
            return;
        }
        // A rule that names squares for the king needs it there.
        let cand = match pos.king(me) {
            Some(k) => cand.intersection(&tax.sets[usize::from(d.king_ok[k.index()])]),
            None => cand,
        };
        if !cand.is_empty() {
            self.check(pos, mv, role, captured, cand, alive);
        }
    }

    /// The ply `side`'s rules see after the move just played: the game's
    /// ply, except in a handicap game, where 上手 (gote) moves first: there
    /// each side's moves are counted as in an even game (下手's first move
    /// is ply 1, 上手's ply 2 …), so a window such as `ply<=24` gives each
    /// side the same number of its own moves as in an even game.
    #[inline]
    fn rule_ply(&self, side: Color) -> u32 {
        match (self.mode, side) {
            (Mode::Handicap, Color::Black) => self.ply.saturating_sub(1),
            (Mode::Handicap, Color::White) => self.ply + 1,
            _ => self.ply,
        }
    }

    /// Whether nothing is left to find at this ply or later: every entry
    /// that could still hold is ruled out by the captures, or found for
    /// both sides with all its ancestors (the rest of the game is then not
    /// looked at).
    fn update_done(&mut self) {
        let later = &self.tax.alive_later[(self.mode == Mode::Castles) as usize];
        let ply = self.rule_ply(Color::Black).min(self.rule_ply(Color::White));
        self.done = later.get(ply as usize).is_none_or(|a| {
            let a = a.difference(&self.dead);
            a.difference(&self.settled[0]).is_empty() && a.difference(&self.settled[1]).is_empty()
        });
    }

    /// Checks the mover's rules in `cand` (those the move may have made
    /// hold), then the rules that look at names only and name one just
    /// given, for both sides, at this same ply (`alive`: the entries alive
    /// at it).
    #[inline(never)]
    fn check(
        &mut self,
        pos: &Position,
        mv: Move,
        role: Role,
        took: Option<Role>,
        cand: TagSet,
        alive: &TagSet,
    ) {
        let me = !pos.turn();
        let tax = self.tax;
        let mut ctx = Ctx {
            pos,
            ply: self.rule_ply(me),
            mv,
            role,
            took,
            me,
            captured: self.captured,
            has: self.held,
        };
        let mut now = [TagSet::default(); 2];
        let programs = &tax.programs;
        let gates = &tax.gates;
        let by_color = [pos.by_color(Color::Black), pos.by_color(Color::White)];
        // Each candidate is tested against its gate, then its program;
        // one that fails for a reason on the board waits for its squares.
        for i in cand.iter() {
            #[cfg(test)]
            RULES_LOOKED_AT.with(|n| n.set(n.get() + 1));
            let at = usize::from(i) * 2 + me.index();
            let missing = gates[at].missing(by_color);
            let blocked = if missing.is_empty() {
                if gates[at].admits(role, by_color) && programs[at].holds(&ctx) {
                    now[me.index()].insert(i);
                    ctx.has[me.index()].insert(i);
                    continue;
                }
                programs[at].blocked(pos, &ctx.has)
            } else {
                // A piece the rule needs is missing from its square.
                missing.first().map(Bitboard::from_square)
            };
            #[cfg(test)]
            let blocked = blocked.filter(|_| !NO_BLOCKING.get());
            if let Some(squares) = blocked {
                self.blocked[me.index()].insert(i);
                self.watched |= squares;
                let watch = &mut self.watch[me.index()];
                squares.for_each(|sq| watch[sq.index()].insert(i));
            }
        }
        if now[me.index()].is_empty() {
            // Nothing held (the usual case): nothing new to keep or name.
            return;
        }
        // Names given now: the rules that look at names only and name
        // them hold (or not) at this ply, for either side; what they give
        // may in turn be named.
        let mut new = ctx.has[me.index()].difference(&self.held[me.index()]);
        while !new.is_empty() {
            let mut watch = TagSet::default();
            for t in new.iter() {
                watch = watch.union(&tax.watchers[usize::from(t)]);
            }
            watch = watch.intersection(alive).difference(&self.dead);
            new = TagSet::default();
            for side in [me, !me] {
                ctx.me = side;
                ctx.ply = self.rule_ply(side);
                for i in watch.difference(&self.settled[side.index()]).iter() {
                    if tax.programs[usize::from(i) * 2 + side.index()].holds(&ctx) {
                        now[side.index()].insert(i);
                        if !ctx.has[side.index()].contains(i) {
                            ctx.has[side.index()].insert(i);
                            new.insert(i);
                        }
                    }
                }
            }
        }
        self.held = ctx.has;
        let mut settle = false;
        for side in [me, !me] {
            let s = side.index();
            let now = now[s];
            if now.is_empty() {
                continue;
            }
            // A name not kept yet is kept now, unless one of its
            // descendants holds at the same ply.
            for i in now.difference(&self.kept_set[s]).iter() {
                let mut below = *tax.subtree(TagId(i));
                below.remove(i);
                if below.intersects(&now) {
                    continue;
                }
                self.kept_set[s].insert(i);
                self.kept[s].push(Found {
                    tag: TagId(i),
                    ply: self.ply,
                });
                settle = true;
            }
        }
        if settle {
            for s in 0..2 {
                let kept = self.kept_set[s];
                self.settled[s] = TagSet::default();
                for i in kept.iter() {
                    if tax.ancestors(TagId(i)).difference(&kept).is_empty() {
                        self.settled[s].insert(i);
                    }
                }
            }
            self.update_done();
        }
    }

    /// The names found so far (call at the end of the game).
    pub fn finish(&self) -> GameTags {
        let mut out = GameTags::default();
        self.finish_into(&mut out);
        out
    }

    /// [`Tagger::finish`] into `out`, reusing its memory.
    pub fn finish_into(&self, out: &mut GameTags) {
        let tax = self.tax;
        out.style = None;
        for c in Color::ALL {
            let kept = &self.kept[c.index()];
            let side = &mut out.sides[c.index()];
            side.openings.clear();
            side.castles.clear();
            for f in kept {
                match tax.brief[usize::from(f.tag.0)] {
                    (_, _, true) => {}
                    (Kind::Opening, ..) => side.openings.push(*f),
                    (Kind::Castle, ..) => side.castles.push(*f),
                    (Kind::Style, ..) => {}
                }
            }
            let depth = |f: &Found| tax.brief[usize::from(f.tag.0)].1;
            let order = |a: &Found, b: &Found| {
                depth(b)
                    .cmp(&depth(a))
                    .then(a.ply.cmp(&b.ply))
                    .then(a.tag.cmp(&b.tag))
            };
            side.openings.sort_by(order);
            side.castles.sort_by(order);
        }
        if self.mode == Mode::Full {
            let ctx = Ctx {
                pos: idle(),
                ply: self.ply.min(Kind::Style.window()),
                mv: Move::Drop {
                    role: Role::Pawn,
                    to: crate::rules::Square::new(5, 5).expect("5e is a square"),
                },
                role: Role::Pawn,
                took: None,
                me: Color::Black,
                captured: self.captured,
                has: self.held,
            };
            out.style = tax
                .styles()
                .iter()
                .find(|&&i| {
                    tax.entries()[usize::from(i)]
                        .compiled
                        .holds(Color::Black, &ctx)
                })
                .map(|&i| TagId(i));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Plays `moves` (USI, from the even start) through a tagger.
    fn tag(moves: &str) -> GameTags {
        let tax = Taxonomy::builtin();
        let mut tagger = Tagger::new(tax);
        let mut pos = Position::new(Variant::Standard);
        tagger.begin_even();
        for usi in moves.split_whitespace() {
            let mv = Move::from_usi(usi, Variant::Standard).expect("a USI move");
            let role = pos.moving_role(mv).expect("a piece to move");
            let captured = pos.captured(mv).map(|p| p.role);
            pos.play(mv).expect("a legal move");
            tagger.played(&pos, mv, role, captured);
        }
        tagger.finish()
    }

    /// The ply `id` was found at for `side`, if it was.
    fn ply(tags: &GameTags, side: usize, id: &str) -> Option<u32> {
        let tax = Taxonomy::builtin();
        let s = &tags.sides[side];
        s.openings
            .iter()
            .chain(&s.castles)
            .find(|f| tax.get(f.tag).id == id)
            .map(|f| f.ply)
    }

    /// The rules looked at while `f` runs.
    fn looked_at(f: impl FnOnce()) -> u64 {
        let before = RULES_LOOKED_AT.get();
        f();
        RULES_LOOKED_AT.get() - before
    }

    #[test]
    fn a_rule_missing_a_piece_waits_for_its_square() {
        // A rule with no key (its pieces are inside `(…|…)`) was looked
        // at after every move of its side (20 times each here): now once,
        // then not again while no piece arrives on or leaves 2八 or 1八,
        // the squares it misses.
        let tax = Taxonomy::parse(
            "id\tja\ten\tkind\tparent\taliases\trule\n\
             edge\t端\tEdge\tcastle\t\t\t(K28 S38 | K18 L19)\n",
        )
        .expect("a taxonomy");
        let mut tagger = Tagger::new(&tax);
        let mut pos = Position::new(Variant::Standard);
        tagger.begin_even();
        let shuffle = ["5i6h", "5a4b", "6h5i", "4b5a"];
        let n = looked_at(|| {
            for usi in shuffle.iter().cycle().take(40) {
                let mv = Move::from_usi(usi, Variant::Standard).expect("a USI move");
                let role = pos.moving_role(mv).expect("a piece to move");
                pos.play(mv).expect("a legal move");
                tagger.played(&pos, mv, role, None);
            }
        });
        // Once for each side (gote's rule is the same turned around).
        assert_eq!(n, 2);
    }

    /// A small random number generator (xorshift), for repeatable games.
    struct Rng(u64);

    impl Rng {
        fn below(&mut self, n: usize) -> usize {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            (self.0 % n as u64) as usize
        }
    }

    /// Names `games` random games (moves of the king, golds and silvers
    /// and pawn pushes preferred, so that castles are built) with and
    /// without blocking.
    fn both_ways(
        seed: u64,
        games: usize,
        plies: usize,
    ) -> (Vec<GameTags>, Vec<GameTags>, u64, u64) {
        let tax = Taxonomy::builtin();
        let mut out = (Vec::new(), Vec::new(), 0, 0);
        let mut rng = Rng(seed);
        for _ in 0..games {
            let mut game = Vec::new();
            let mut pos = Position::new(Variant::Standard);
            for _ in 0..plies {
                let legal = pos.legal_moves();
                if legal.is_empty() {
                    break;
                }
                let quiet: Vec<Move> = legal
                    .iter()
                    .copied()
                    .filter(|m| pos.captured(*m).is_none())
                    .filter(|m| {
                        matches!(
                            pos.moving_role(*m),
                            Some(Role::King | Role::Gold | Role::Silver | Role::Pawn | Role::Rook)
                        )
                    })
                    .collect();
                let mv = if !quiet.is_empty() && rng.below(10) < 9 {
                    quiet[rng.below(quiet.len())]
                } else {
                    legal[rng.below(legal.len())]
                };
                pos.play(mv).expect("a legal move");
                game.push(mv);
            }
            for (blocking, tags, n) in [
                (true, &mut out.0, &mut out.2),
                (false, &mut out.1, &mut out.3),
            ] {
                NO_BLOCKING.set(!blocking);
                *n += looked_at(|| {
                    let mut tagger = Tagger::new(tax);
                    let mut pos = Position::new(Variant::Standard);
                    tagger.begin_even();
                    for &mv in &game {
                        let role = pos.moving_role(mv).expect("a piece to move");
                        let captured = pos.captured(mv).map(|p| p.role);
                        pos.play(mv).expect("a legal move");
                        tagger.played(&pos, mv, role, captured);
                    }
                    tags.push(tagger.finish());
                });
            }
            NO_BLOCKING.set(false);
        }
        out
    }

    #[test]
    fn blocking_changes_no_name() {
        // The same names, ply for ply, with rules blocked and with every
        // candidate looked at after each move, on games that build
        // castles; with far fewer rules looked at.
        let (blocking, every, fewer, all) = both_ways(0x9e37_79b9_7f4a_7c15, 400, 120);
        assert_eq!(blocking, every);
        let found: usize = every
            .iter()
            .flat_map(|g| &g.sides)
            .map(|s| s.openings.len() + s.castles.len())
            .sum();
        assert!(found > 200, "{found} names: the games must name something");
        assert!(
            fewer * 2 < all,
            "{fewer} rules looked at, {all} without blocking"
        );
    }

    #[test]
    fn a_names_only_rule_holds_when_its_last_name_appears() {
        // Sente's Mino is complete at ply 17 (4i5h), the last move: the
        // rule that needs it and the right Fourth File Rook holds there,
        // even though the game ends before sente moves again.
        let moves = "4g4f 8c8d 2h4h 4c4d 7g7f 7a6b 8h7g 5a4b 5i6h 4b3b \
                     6h7h 6a5b 7h8h 9c9d 7i7h 1c1d 4i5h";
        let tags = tag(moves);
        assert_eq!(ply(&tags, 0, "right_fourth_left_mino"), Some(17));
        // The opponent's name counts too (saginomiya: sente's Climbing
        // Silver at ply 9 against gote's Fourth File Rook from ply 4).
        let tags = tag("2g2f 3c3d 2f2e 8b4b 3i3h 5a6b 3h2g 6b7b 2g2f");
        assert_eq!(ply(&tags, 0, "saginomiya"), Some(9));
    }
}
