//! Naming a game as it is played: after each main-line move, the rules of
//! the mover's openings and castles are checked on the position (within
//! their kind's ply window); the first ply each one holds is kept.

use super::rule::{Ctx, Roles};
use super::taxonomy::{Kind, TagId, TagSet, Taxonomy};
use crate::rules::{Color, Handicap, Move, Position, Role, Setup, Variant};

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
    /// A handicap game or another start: castles only.
    Castles,
    /// The even game: openings, castles and the style.
    Full,
}

/// Names the openings and castles of a game as its main line is played:
/// [`Tagger::begin`] at the start, [`Tagger::played`] after each main-line
/// move, [`Tagger::finish`] for the names. Nothing is allocated per move;
/// past the last window (62 plies) a move costs nothing.
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
    /// Per side: the names either side was newly given since its last
    /// move (rules that look at names only and name them are checked).
    fresh: [TagSet; 2],
    /// Per side: whether `fresh` holds any.
    renamed: [bool; 2],
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
            fresh: [TagSet::default(); 2],
            renamed: [false; 2],
        }
    }

    /// The taxonomy.
    pub fn taxonomy(&self) -> &'t Taxonomy {
        self.tax
    }

    /// Starts a game from `setup` (`handicap`: the start's handicap, if
    /// the record names one; otherwise it is recognised from the setup).
    /// The even game gets every kind of name; a handicap game or any other
    /// start of standard shogi castles only; a variant none.
    pub fn begin(&mut self, setup: &Setup, handicap: Option<Handicap>) {
        self.reset();
        self.mode = if setup.variant != Variant::Standard {
            Mode::Off
        } else if handicap.or_else(|| Handicap::detect(setup)) == Some(Handicap::Even)
            && setup.turn == Color::Black
        {
            Mode::Full
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
        self.ply = 0;
        self.captured = Roles::default();
        self.dead = TagSet::default();
        self.done = false;
        self.held = [TagSet::default(); 2];
        self.kept.iter_mut().for_each(Vec::clear);
        self.kept_set = [TagSet::default(); 2];
        self.fresh = [TagSet::default(); 2];
        self.renamed = [false; 2];
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
        if let Some(r) = captured {
            let r = r.unpromoted();
            if !self.captured.contains(r) {
                self.captured.0 |= Roles::of(r).0;
                self.dead = self.dead.union(&self.tax.dead_after[r.index()]);
                // Nothing left to find at this ply or later?
                let alive = &self.tax.alive[(self.mode == Mode::Castles) as usize];
                self.done = alive
                    .iter()
                    .skip(self.ply as usize)
                    .all(|a| a.difference(&self.dead).is_empty());
            }
        }
        // Most moves can make no rule hold: an index or two say so.
        let me = !pos.turn();
        let d = &self.tax.dispatch[me.index()];
        let at = role.index() * 81 + mv.to().index();
        let kings = &self.tax.set_kings[me.index()];
        let king = pos.pieces(me, Role::King);
        let mut moved = d.moved[at];
        if moved != 0 && (kings[usize::from(moved)] & king).is_empty() {
            moved = 0;
        }
        let took = if captured.is_some() { d.took[at] } else { 0 };
        if moved | took != 0 || self.renamed[me.index()] || !d.always.is_empty() {
            self.check(pos, mv, role, captured, [moved, took]);
        }
    }

    /// Checks the mover's rules that the move may have made hold (the sets
    /// `indexes` point to, the names-only rules of the names given since
    /// the side's last move, the rules without a key).
    #[inline(never)]
    fn check(
        &mut self,
        pos: &Position,
        mv: Move,
        role: Role,
        took: Option<Role>,
        indexes: [u16; 2],
    ) {
        let me = !pos.turn();
        let tax = self.tax;
        let d = &tax.dispatch[me.index()];
        let fresh = std::mem::take(&mut self.fresh[me.index()]);
        self.renamed[me.index()] = false;
        let sets = &tax.sets;
        let mut cand = d.always;
        for i in indexes {
            if i != 0 {
                cand = cand.union(&sets[usize::from(i)]);
            }
        }
        for t in fresh.iter() {
            cand = cand.union(&tax.watchers[usize::from(t)]);
        }
        let alive = &tax.alive[(self.mode == Mode::Castles) as usize];
        match alive.get(self.ply as usize) {
            Some(a) => cand = cand.intersection(a).difference(&self.dead),
            None => return,
        }
        // A rule that names squares for the king needs it there.
        if let Some(k) = pos.king(me) {
            cand = cand.intersection(&sets[usize::from(d.king_ok[k.index()])]);
        }
        if cand.is_empty() {
            return;
        }
        let mut now = TagSet::default();
        let mut ctx = Ctx {
            pos,
            ply: self.ply,
            mv,
            role,
            took,
            me,
            captured: self.captured,
            has: self.held,
        };
        let programs = &tax.programs[me.index()..];
        for i in cand.iter() {
            if programs[usize::from(i) * 2].holds(&ctx) {
                now.insert(i);
                ctx.has[me.index()].insert(i);
            }
        }
        let mine = ctx.has[me.index()];
        let before = self.held[me.index()];
        if mine != before {
            let new = mine.difference(&before);
            self.fresh[0] = self.fresh[0].union(&new);
            self.fresh[1] = self.fresh[1].union(&new);
            self.renamed = [true; 2];
        }
        self.held[me.index()] = mine;
        // A name not kept yet is kept now, unless one of its descendants
        // holds at the same ply.
        for i in now.difference(&self.kept_set[me.index()]).iter() {
            let mut below = *tax.subtree(TagId(i));
            below.remove(i);
            if below.intersects(&now) {
                continue;
            }
            self.kept_set[me.index()].insert(i);
            self.kept[me.index()].push(Found {
                tag: TagId(i),
                ply: self.ply,
            });
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
