//! The opening tree: every position the games reach in their first plies,
//! each with the moves played from it, how the games went on, the
//! ratings of the players who chose each move, the dates, the most common
//! opening name and one example game (`kifu tree`, docs/tree.md).
//!
//! One replay, many observers: a [`Walk`] is an [`Observer`] of the one
//! [`crate::replay::Replay`] of each game; it keeps the position keys of
//! the main line from the root for [`TreeOptions::plies`] plies (a
//! [`GamePath`]). The paths go to one [`Tree`] in input order
//! ([`Tree::add`]), so that the tree does not depend on how many workers
//! replayed the games; [`Tree::merge`] adds a tree built over later
//! inputs.
//!
//! Positions are keyed by the Zobrist key the rules keep for repetitions
//! ([`Position::hash`]: board, hands and side to move, not the move
//! number), so transpositions merge; the variant is folded in.
//!
//! ```
//! use kifu::read::Reader;
//! use kifu::replay::Replay;
//! use kifu::tree::{Facts, Tree, TreeOptions, Walk};
//! use kifu::validate::ValidateOptions;
//!
//! let games = "PI\n+\n+7776FU\n-3334FU\n%TORYO\n/\nPI\n+\n+2726FU\n-3334FU\n%TORYO\n";
//! let opts = TreeOptions::default();
//! let mut tree = Tree::new(opts.clone());
//! let src = tree.source("games.csa");
//! let mut r = Replay::new(ValidateOptions::default(), Walk::new(&opts));
//! let mut reader = Reader::new(games.as_bytes()).unwrap();
//! let mut i = 0;
//! while let Some(g) = reader.read_game(&mut r) {
//!     tree.add(&g.output, &Facts::of(&g.report), src, i);
//!     i += 1;
//! }
//! let nodes = tree.finish_all();
//! assert_eq!(nodes[0].games, 2);
//! assert_eq!(nodes[0].moves.len(), 2);
//! ```

pub mod html;
mod node;
mod table;
mod walk;
mod write;

pub use node::{Counts, Example, MoveView, Name, NodeView};
pub use walk::{GamePath, Walk};
pub use write::{write_csv, write_jsonl, write_text, CSV_HEADER};

use crate::record::Outcome;
use crate::rules::color::Color;
use crate::rules::moves::Move;
use crate::rules::position::Position;
use crate::rules::variant::Variant;
use crate::tags::TagId;
use crate::validate::GameReport;
use std::collections::{HashSet, VecDeque};
use table::{Edge, EdgeIndex, NameCount, Positions, Slot, Stat, DONE, NIL};

/// The moves kept at most with `max_nodes` positions: one and a half per
/// position (random games play about one move per position, real ones
/// more where they transpose).
fn moves_budget(max_nodes: usize) -> usize {
    max_nodes.saturating_add(max_nodes / 2)
}
use std::hash::BuildHasherDefault;

/// The node map's hasher: the keys are Zobrist keys (uniform random
/// bits already), so the key itself is the hash (no SipHash per lookup).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct KeyHasher(u64);

impl std::hash::Hasher for KeyHasher {
    #[inline]
    fn finish(&self) -> u64 {
        self.0
    }

    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        // Not used by u64 keys; fold anything else in.
        for &b in bytes {
            self.0 = (self.0.rotate_left(8) ^ u64::from(b)).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        }
    }

    #[inline]
    fn write_u64(&mut self, n: u64) {
        self.0 ^= n;
    }
}

/// A set of position keys.
pub(crate) type KeySet = HashSet<u64, BuildHasherDefault<KeyHasher>>;

/// How a tree is built.
#[derive(Clone, Debug, PartialEq)]
pub struct TreeOptions {
    /// Plies followed from the root (default 30).
    pub plies: u32,
    /// Positions and moves with fewer games are left out of the result
    /// (default 1: all).
    pub min_games: u32,
    /// The root, when not the start of each game: games count from the
    /// first time their main line reaches it.
    pub root: Option<Position>,
    /// Positions kept before the tree prunes while it grows (see
    /// [`Tree::add`]; default 2,000,000).
    pub max_nodes: usize,
}

impl Default for TreeOptions {
    fn default() -> TreeOptions {
        TreeOptions {
            plies: 30,
            min_games: 1,
            root: None,
            max_nodes: 2_000_000,
        }
    }
}

/// The key of a position in the tree: [`Position::hash`] (board, hands,
/// side to move; not the move number) with the variant folded in.
#[inline]
pub fn position_key(pos: &Position) -> u64 {
    let salt = match pos.variant() {
        Variant::Standard => 0,
        Variant::Minishogi => 0x9e37_79b9_7f4a_7c15,
        Variant::Doubutsu => 0xc2b2_ae3d_27d4_eb4f,
    };
    pos.hash() ^ salt
}

/// The SFEN of `pos` without its move number (`… b -`).
pub fn sfen_without_ply(pos: &Position) -> String {
    let mut s = pos.sfen();
    if let Some(i) = s.rfind(' ') {
        s.truncate(i);
    }
    s
}

/// What the tree counts of a game besides its moves: its result, the
/// players' ratings and its date.
#[derive(Clone, Debug, PartialEq)]
pub struct Facts {
    /// The result kifu established (a false statement of it: `Unknown`).
    pub outcome: Outcome,
    /// Sente's and gote's ratings, when the record gives them.
    pub rating: [Option<f64>; 2],
    /// The start date as `yyyymmdd` (parts not given: the first of the
    /// period), when the record gives one kifu reads.
    pub date: Option<u32>,
}

impl Default for Facts {
    fn default() -> Facts {
        Facts {
            outcome: Outcome::Unknown,
            rating: [None, None],
            date: None,
        }
    }
}

impl Facts {
    /// The result of a validator's report (no rating, no date).
    pub fn of(report: &GameReport) -> Facts {
        Facts {
            outcome: crate::select::Summary::of(report).outcome,
            ..Facts::default()
        }
    }

    /// Sets the date from a start-time header value (unchanged when kifu
    /// cannot read it).
    pub fn with_start_time(mut self, raw: &str) -> Facts {
        if let Some(t) = crate::date::parse(raw) {
            let d = t.datetime().date();
            let (y, m, day) = (d.year(), d.month(), d.day());
            if y > 0 {
                self.date = Some(y as u32 * 10_000 + m as u32 * 100 + day as u32);
            }
        }
        self
    }
}

/// An opening tree under construction (see the [module docs](self)).
///
/// The positions are one flat table and the moves and name counts two
/// arenas of fixed-size records (`table.rs`): a position costs a 24-byte
/// slot (at most 3/4 of the table is used), a move 64 bytes, a name count
/// 12.
#[derive(Debug)]
pub struct Tree {
    opts: TreeOptions,
    nodes: Positions,
    edges: Vec<Edge>,
    /// (position, move) → `edges` index.
    index: EdgeIndex,
    names: Vec<NameCount>,
    /// The roots, in the order first met, with their positions.
    roots: Vec<(u64, Position)>,
    root_set: KeySet,
    /// The example games' sources (paths), by [`Tree::source`] id.
    sources: Vec<String>,
    /// Games added that reached the root.
    games: u64,
    /// The highest count pruned while the tree grew (0: none, the counts
    /// are exact).
    pruned_below: u32,
    /// Prunings made while growing.
    prunings: u32,
    /// Scratch for the game being added: each step's slot, whether the
    /// game was there before, the moves it played.
    steps: Vec<(usize, bool, u32)>,
    seen: Vec<u64>,
    seen_moves: Vec<u32>,
}

impl Tree {
    /// An empty tree.
    pub fn new(opts: TreeOptions) -> Tree {
        Tree {
            opts,
            nodes: Positions::default(),
            edges: Vec::new(),
            index: EdgeIndex::default(),
            names: Vec::new(),
            roots: Vec::new(),
            root_set: KeySet::default(),
            sources: Vec::new(),
            games: 0,
            pruned_below: 0,
            prunings: 0,
            steps: Vec::new(),
            seen: Vec::new(),
            seen_moves: Vec::new(),
        }
    }

    /// The options.
    pub fn options(&self) -> &TreeOptions {
        &self.opts
    }

    /// Registers the source (path) of later examples; its id.
    pub fn source(&mut self, path: &str) -> u32 {
        self.sources.push(path.to_string());
        (self.sources.len() - 1) as u32
    }

    /// The path of a source id.
    pub fn source_path(&self, id: u32) -> &str {
        self.sources.get(id as usize).map_or("", String::as_str)
    }

    /// Games that reached the root.
    pub fn games(&self) -> u64 {
        self.games
    }

    /// Positions kept now.
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// Moves (position and move) kept now.
    pub fn moves_len(&self) -> usize {
        self.edges.len()
    }

    /// No position kept.
    pub fn is_empty(&self) -> bool {
        self.nodes.len() == 0
    }

    /// 0 when every count is exact; else the highest count that the
    /// tree pruned while it grew (a count may be short by at most the
    /// sum of the thresholds, see docs/tree.md).
    pub fn pruned_below(&self) -> u32 {
        self.pruned_below
    }

    /// How many times the tree pruned while it grew.
    pub fn prunings(&self) -> u32 {
        self.prunings
    }

    /// Adds game `game` of source `source` (call in input order: the
    /// first game added through a move is its example). A game counts once
    /// per position and once per move however often it comes back to
    /// them. When more than [`TreeOptions::max_nodes`] positions (or
    /// one and a half times as many moves) are kept, the rarest are pruned (see
    /// [`Tree::pruned_below`]).
    pub fn add(&mut self, path: &GamePath, facts: &Facts, source: u32, game: u32) {
        let Some(root) = path.root.as_ref() else {
            return;
        };
        self.games += 1;
        let root_key = path.keys[0];
        if self.root_set.insert(root_key) {
            self.roots.push((root_key, *root));
        }
        let ex = Example { source, game };
        // The positions' slots and the moves' index entries are asked
        // for together (their cache misses overlap), then each position is
        // counted, then each move's record is found (and asked for), then
        // counted.
        for (i, &key) in path.keys.iter().enumerate() {
            self.nodes.prefetch(key);
            if let Some(&(mv, _)) = path.moves.get(i) {
                self.index.prefetch(key, mv);
            }
        }
        self.nodes.reserve(path.keys.len());
        self.index.reserve(path.moves.len());
        self.seen.clear();
        self.seen_moves.clear();
        self.steps.clear();
        for (i, &key) in path.keys.iter().enumerate() {
            let ply = i as u32;
            let first = !self.seen.contains(&key);
            let (at, _) = self.nodes.entry(key);
            self.steps.push((at, first, NIL));
            if !first {
                continue;
            }
            self.seen.push(key);
            self.nodes.slot_mut(at).games += 1;
            for &(tag, found) in &path.names {
                if found <= ply + path.start_ply {
                    let head = &mut self.nodes.slot_mut(at).names;
                    name_one(&mut self.names, head, tag, 1);
                }
            }
        }
        for (step, (&key, &(mv, _))) in self.steps.iter_mut().zip(path.keys.iter().zip(&path.moves))
        {
            let e = edge_of(
                &mut self.index,
                &mut self.edges,
                &mut self.nodes,
                step.0,
                key,
                mv,
            );
            table::prefetch(&self.edges[e as usize]);
            step.2 = e;
        }
        for (&(_, first, e), &(_, color)) in self.steps.iter().zip(&path.moves) {
            if !first && self.seen_moves.contains(&e) {
                continue;
            }
            self.seen_moves.push(e);
            let rating = facts.rating[color.index()];
            self.edges[e as usize]
                .stat
                .count(facts.outcome, rating, facts.date, ex);
        }
        if self.over_budget() {
            self.prune_growing();
        }
    }

    fn over_budget(&self) -> bool {
        self.nodes.len() > self.opts.max_nodes
            || self.edges.len() > moves_budget(self.opts.max_nodes)
    }

    /// Prunes while growing: positions and moves with at most `t` games,
    /// `t` doubling until at most half the budget is kept.
    fn prune_growing(&mut self) {
        self.prunings += 1;
        let mut t = self.pruned_below.max(1);
        loop {
            self.prune(t + 1);
            self.pruned_below = self.pruned_below.max(t);
            let half = self.opts.max_nodes / 2;
            if (self.nodes.len() <= half && self.edges.len() <= moves_budget(half))
                || t >= u32::MAX / 2
            {
                break;
            }
            t *= 2;
        }
    }

    /// Drops the positions and moves with fewer than `k` games (`k` ≥ 2;
    /// roots stay while they have games), in place: one pass over the
    /// positions relinks each kept position's chains past the records
    /// dropped (and marks those of the positions dropped), the arenas are
    /// compacted, and the table is filled again with the positions kept
    /// (it keeps its size). The memory needed besides: 4 bytes per record
    /// and the kept positions' slots.
    fn prune(&mut self, k: u32) {
        let k = k.max(2);
        let mut kept: Vec<Slot> = Vec::with_capacity(self.nodes.len() / 2);
        for s in self.nodes.iter() {
            if s.games >= k {
                let moves = relink(&mut self.edges, s.moves, |e: &Edge| e.stat.games >= k);
                let names = relink(&mut self.names, s.names, |_: &NameCount| true);
                kept.push(Slot { moves, names, ..*s });
            } else {
                relink(&mut self.edges, s.moves, |_: &Edge| false);
                relink(&mut self.names, s.names, |_: &NameCount| false);
            }
        }
        let edge_at = compact(&mut self.edges, |e: &Edge| e.stat.games != 0);
        let name_at = compact(&mut self.names, |n: &NameCount| n.games != 0);
        self.nodes.clear();
        self.index.clear();
        for s in &mut kept {
            s.moves = edge_at.get(s.moves as usize).copied().unwrap_or(NIL);
            s.names = name_at.get(s.names as usize).copied().unwrap_or(NIL);
            self.nodes.insert_new(*s);
            let mut e = s.moves;
            while let Some(x) = self.edges.get(e as usize) {
                self.index.insert_new(s.key, x.mv, e);
                e = x.next;
            }
        }
        let nodes = &self.nodes;
        self.roots.retain(|(key, _)| nodes.find(*key).is_some());
        self.root_set.retain(|key| nodes.find(*key).is_some());
    }

    /// Adds a tree built over later inputs (its sources come after this
    /// tree's; an example stays this tree's when it has one).
    pub fn merge(&mut self, other: Tree) {
        let offset = self.sources.len() as u32;
        self.sources.extend(other.sources);
        self.games += other.games;
        self.pruned_below = self.pruned_below.max(other.pruned_below);
        for (key, pos) in other.roots {
            if self.root_set.insert(key) {
                self.roots.push((key, pos));
            }
        }
        for s in other.nodes.iter() {
            let at = self.nodes.entry_growing(s.key);
            self.nodes.slot_mut(at).games += s.games;
            let mut n = s.names;
            while let Some(x) = other.names.get(n as usize) {
                name_one(
                    &mut self.names,
                    &mut self.nodes.slot_mut(at).names,
                    x.tag,
                    x.games,
                );
                n = x.next;
            }
            let mut e = s.moves;
            while let Some(x) = other.edges.get(e as usize) {
                self.index.reserve(1);
                let i = edge_of(
                    &mut self.index,
                    &mut self.edges,
                    &mut self.nodes,
                    at,
                    s.key,
                    x.mv,
                );
                self.edges[i as usize].stat.merge(&x.stat, offset);
                e = x.next;
            }
        }
        if self.over_budget() {
            self.prune_growing();
        }
    }

    /// The tree: positions with at least [`TreeOptions::min_games`] games
    /// reached from a root through moves with that many, breadth first
    /// (roots in the order first met; moves by games, most first, then
    /// USI), each once, at the fewest plies from a root. The positions
    /// are made one at a time, as they are written.
    pub fn finish(mut self) -> Nodes {
        let k = self.opts.min_games.max(1);
        if k > 1 {
            self.prune(k);
        }
        let mut queue: VecDeque<(u64, Position, u32)> = VecDeque::new();
        for (key, pos) in &self.roots {
            if let Some(at) = self.nodes.find(*key) {
                let s = self.nodes.slot_mut(at);
                if s.flags & DONE == 0 {
                    s.flags |= DONE;
                    queue.push_back((*key, *pos, 0));
                }
            }
        }
        Nodes { tree: self, queue }
    }

    /// [`Tree::finish`], gathered.
    pub fn finish_all(self) -> Vec<NodeView> {
        self.finish().collect()
    }
}

/// The edge of `mv` from position `pos` (slot `at`): found in the index,
/// or a new record, first in the position's chain (room reserved in the
/// index).
#[inline]
fn edge_of(
    index: &mut EdgeIndex,
    edges: &mut Vec<Edge>,
    nodes: &mut Positions,
    at: usize,
    pos: u64,
    mv: Move,
) -> u32 {
    index.get_or(pos, mv, || {
        let head = &mut nodes.slot_mut(at).moves;
        let i = edges.len() as u32;
        edges.push(Edge {
            mv,
            next: *head,
            stat: Stat::default(),
        });
        *head = i;
        i
    })
}

/// Adds `n` games to name `tag` in the chain at `head`.
#[inline]
fn name_one(names: &mut Vec<NameCount>, head: &mut u32, tag: TagId, n: u32) {
    let mut i = *head;
    while let Some(x) = names.get_mut(i as usize) {
        if x.tag == tag {
            x.games += n;
            return;
        }
        i = x.next;
    }
    names.push(NameCount {
        tag,
        games: n,
        next: *head,
    });
    *head = (names.len() - 1) as u32;
}

/// A record with a chain link; a record whose count is 0 is dropped by
/// [`compact`].
trait Linked: Copy {
    fn next(&self) -> u32;
    fn set_next(&mut self, n: u32);
    fn drop_it(&mut self);
}

impl Linked for Edge {
    fn next(&self) -> u32 {
        self.next
    }
    fn set_next(&mut self, n: u32) {
        self.next = n;
    }
    fn drop_it(&mut self) {
        self.stat.games = 0;
    }
}

impl Linked for NameCount {
    fn next(&self) -> u32 {
        self.next
    }
    fn set_next(&mut self, n: u32) {
        self.next = n;
    }
    fn drop_it(&mut self) {
        self.games = 0;
    }
}

/// Links the records of the chain at `head` that `keep` keeps, in the
/// same order, past the others, which are marked to be dropped; the new
/// head.
fn relink<T: Linked>(records: &mut [T], head: u32, keep: impl Fn(&T) -> bool) -> u32 {
    let mut new_head = NIL;
    let mut last: Option<usize> = None;
    let mut i = head;
    while let Some(x) = records.get_mut(i as usize) {
        let next = x.next();
        if keep(x) {
            match last {
                Some(l) => records[l].set_next(i),
                None => new_head = i,
            }
            last = Some(i as usize);
        } else {
            x.drop_it();
        }
        i = next;
    }
    if let Some(l) = last {
        records[l].set_next(NIL);
    }
    new_head
}

/// Removes the records `alive` refuses, in place, keeping the order and
/// renumbering the links; each old index's new one ([`NIL`]: dropped).
fn compact<T: Linked>(records: &mut Vec<T>, alive: impl Fn(&T) -> bool) -> Vec<u32> {
    let mut at = vec![NIL; records.len()];
    let mut n = 0u32;
    for (i, r) in records.iter().enumerate() {
        if alive(r) {
            at[i] = n;
            n += 1;
        }
    }
    let mut w = 0;
    for i in 0..records.len() {
        if at[i] != NIL {
            let mut r = records[i];
            r.set_next(at.get(r.next() as usize).copied().unwrap_or(NIL));
            records[w] = r;
            w += 1;
        }
    }
    records.truncate(w);
    at
}

/// The positions of a finished tree, in order (see [`Tree::finish`]).
#[derive(Debug)]
pub struct Nodes {
    tree: Tree,
    queue: VecDeque<(u64, Position, u32)>,
}

impl Iterator for Nodes {
    type Item = NodeView;

    fn next(&mut self) -> Option<NodeView> {
        let tax = crate::tags::Taxonomy::builtin();
        let t = &mut self.tree;
        loop {
            let (key, pos, ply) = self.queue.pop_front()?;
            let Some(at) = t.nodes.find(key) else {
                continue;
            };
            let node = *t.nodes.slot(at);
            let variant = pos.variant();
            let mut edges: Vec<(String, &Edge)> = Vec::new();
            let mut e = node.moves;
            while let Some(x) = t.edges.get(e as usize) {
                edges.push((x.mv.usi(variant).to_string(), x));
                e = x.next;
            }
            edges.sort_by(|a, b| {
                b.1.stat
                    .games
                    .cmp(&a.1.stat.games)
                    .then_with(|| a.0.cmp(&b.0))
            });
            let mut moves = Vec::with_capacity(edges.len());
            for (usi, e) in edges {
                let mut after = pos;
                after.play_unchecked(e.mv);
                let child = position_key(&after);
                if ply < t.opts.plies {
                    if let Some(c) = t.nodes.find(child) {
                        let s = t.nodes.slot_mut(c);
                        if s.flags & DONE == 0 {
                            s.flags |= DONE;
                            self.queue.push_back((child, after, ply + 1));
                        }
                    }
                }
                let counts = e.stat.counts();
                moves.push(MoveView {
                    usi,
                    japanese: crate::diagram::move_text(
                        &pos,
                        e.mv,
                        None,
                        crate::diagram::Notation::Kif,
                    ),
                    international: crate::diagram::move_text(
                        &pos,
                        e.mv,
                        None,
                        crate::diagram::Notation::Psn,
                    ),
                    sfen_after: sfen_without_ply(&after),
                    example_path: t.source_path(counts.example.source).to_string(),
                    counts,
                });
            }
            let mut top: Option<(TagId, u32)> = None;
            let mut n = node.names;
            while let Some(x) = t.names.get(n as usize) {
                // The most common (ties: the first in the taxonomy).
                if top.is_none_or(|(tag, g)| x.games > g || (x.games == g && x.tag < tag)) {
                    top = Some((x.tag, x.games));
                }
                n = x.next;
            }
            let name = top.map(|(tag, games)| {
                let e = tax.get(tag);
                Name {
                    id: e.id.clone(),
                    ja: e.ja.clone(),
                    en: e.en.clone(),
                    games,
                }
            });
            return Some(NodeView {
                sfen: sfen_without_ply(&pos),
                ply,
                games: node.games,
                name,
                moves,
            });
        }
    }
}

/// The colour of the side to move in a path step (the mover of a move).
pub(crate) type Mover = Color;

/// A taxonomy entry's id in a path.
pub(crate) type Tag = TagId;

#[cfg(test)]
mod tests {
    use super::*;

    fn mv(usi: &str) -> Move {
        Move::from_usi(usi, Variant::Standard).unwrap()
    }

    /// A path through made-up keys (the tree does not look at the
    /// positions while reading), every move `7g7f`, or `moves`.
    fn path(keys: &[u64], moves: &[Move]) -> GamePath {
        GamePath {
            root: Some(Position::new(Variant::Standard)),
            keys: keys.to_vec(),
            moves: keys[1..]
                .iter()
                .enumerate()
                .map(|(i, _)| (moves.get(i).copied().unwrap_or(mv("7g7f")), Color::Black))
                .collect(),
            start_ply: 0,
            names: Vec::new(),
        }
    }

    fn opts(max_nodes: usize) -> TreeOptions {
        TreeOptions {
            max_nodes,
            ..TreeOptions::default()
        }
    }

    /// Pruning while growing keeps the positions most games share, with
    /// exact counts, drops the rare ones, and stays within the budget.
    #[test]
    fn pruning_keeps_the_common_positions() {
        let mut t = Tree::new(opts(10));
        for g in 0..100u64 {
            t.add(
                &path(&[1, 2, 1000 + g], &[]),
                &Facts::default(),
                0,
                g as u32,
            );
            assert!(t.len() <= 10, "{}", t.len());
        }
        assert_eq!(t.pruned_below(), 1);
        assert!(t.prunings() > 1);
        let root = t.nodes.find(1).unwrap();
        assert_eq!(t.nodes.slot(root).games, 100);
        let second = t.nodes.find(2).unwrap();
        assert_eq!(t.nodes.slot(second).games, 100);
        let e = t.edges[t.nodes.slot(root).moves as usize];
        assert_eq!((e.stat.games, e.stat.ex_game), (100, 0));
    }

    /// Moves count in the budget too (1.5 per position): a position
    /// with many moves to one other (a transposition) is pruned as well.
    #[test]
    fn moves_count_in_the_budget() {
        let moves = [
            "7g7f", "2g2f", "5g5f", "6g6f", "1g1f", "9g9f", "3g3f", "4g4f", "8g8f",
        ];
        let mut t = Tree::new(opts(4));
        for (g, m) in moves.iter().enumerate() {
            t.add(&path(&[1, 2], &[mv(m)]), &Facts::default(), 0, g as u32);
            assert!(t.moves_len() <= 6, "{}", t.moves_len());
        }
        assert_eq!(t.pruned_below(), 1);
        assert_eq!(t.len(), 2);
        // Below the budget nothing is pruned.
        let mut t = Tree::new(opts(6));
        for (g, m) in moves.iter().enumerate() {
            t.add(&path(&[1, 2], &[mv(m)]), &Facts::default(), 0, g as u32);
        }
        assert_eq!((t.pruned_below(), t.moves_len()), (0, 9));
    }

    /// A game coming back to a position counts once there, and once per
    /// move; the names count once per position.
    #[test]
    fn a_game_counts_once_per_position_and_move() {
        let mut t = Tree::new(TreeOptions::default());
        let mut p = path(
            &[1, 2, 1, 2, 3],
            &[mv("7g7f"), mv("3c3d"), mv("7g7f"), mv("8c8d")],
        );
        p.names = vec![(TagId(3), 1), (TagId(5), 9)];
        t.add(&p, &Facts::default(), 0, 0);
        let at = |k| *t.nodes.slot(t.nodes.find(k).unwrap());
        assert_eq!((at(1).games, at(2).games, at(3).games), (1, 1, 1));
        let moves = |k| {
            let mut e = at(k).moves;
            let mut v = Vec::new();
            while let Some(x) = t.edges.get(e as usize) {
                v.push((x.mv.usi(Variant::Standard).to_string(), x.stat.games));
                e = x.next;
            }
            v.sort();
            v
        };
        assert_eq!(moves(1), [("7g7f".to_string(), 1)]);
        assert_eq!(moves(2), [("3c3d".to_string(), 1), ("8c8d".to_string(), 1)]);
        // Name 3 found at ply 1: at the positions after it.
        assert_eq!(at(1).names, NIL);
        let n = t.names[at(2).names as usize];
        assert_eq!((n.tag, n.games, n.next), (TagId(3), 1, NIL));
    }

    /// Trees built over parts and merged are the tree of the whole.
    #[test]
    fn merged_parts_make_the_whole() {
        let games: Vec<GamePath> = (0..40u64)
            .map(|g| path(&[1, 2 + g % 3, 10 + g % 7, 100 + g], &[]))
            .collect();
        let facts = |g: usize| Facts {
            outcome: if g & 1 == 0 {
                Outcome::SenteWin
            } else {
                Outcome::Draw
            },
            rating: [Some(1000.0 + g as f64), None],
            date: Some(20_200_101 + g as u32),
        };
        let mut whole = Tree::new(TreeOptions::default());
        let s = whole.source("a");
        for (g, p) in games.iter().enumerate() {
            whole.add(p, &facts(g), s, g as u32);
        }
        let mut a = Tree::new(TreeOptions::default());
        let mut b = Tree::new(TreeOptions::default());
        let (sa, sb) = (a.source("a"), b.source("a"));
        for (g, p) in games.iter().enumerate() {
            if g < 17 {
                a.add(p, &facts(g), sa, g as u32);
            } else {
                b.add(p, &facts(g), sb, g as u32);
            }
        }
        a.merge(b);
        let stats = |t: &Tree| {
            type Moves = Vec<(u32, u32, u32, u32)>;
            let mut v: Vec<(u64, u32, Moves)> = t
                .nodes
                .iter()
                .map(|s| {
                    let mut e = s.moves;
                    let mut m = Vec::new();
                    while let Some(x) = t.edges.get(e as usize) {
                        let c = x.stat.counts();
                        m.push((c.games, c.draws, c.example.game, c.first_date.unwrap()));
                        e = x.next;
                    }
                    m.sort();
                    (s.key, s.games, m)
                })
                .collect();
            v.sort();
            v
        };
        assert_eq!(stats(&a), stats(&whole));
        assert_eq!(a.games(), 40);
    }
}

#[cfg(test)]
mod names_until {
    use crate::read::Reader;
    use crate::replay::Replay;
    use crate::tags::Taxonomy;
    use crate::tree::{GamePath, TreeOptions, Walk};
    use crate::validate::ValidateOptions;

    fn path(csa: &str, until: Option<u32>) -> GamePath {
        let opts = TreeOptions::default();
        let r = Replay::new(ValidateOptions::default(), Walk::new(&opts))
            .with_names(Some(Taxonomy::builtin()));
        let mut r = match until {
            Some(n) => r.with_names_until(n),
            None => r,
        };
        Reader::new(csa.as_bytes())
            .unwrap()
            .read_game(&mut r)
            .unwrap()
            .output
    }

    /// Naming the first plies only finds the same names there (the tree
    /// stops naming a game past its plies).
    #[test]
    fn names_of_the_first_plies_are_the_same() {
        let csa = "PI\n+\n+7776FU\n-3334FU\n+6766FU\n-8242HI\n+3948GI\n-7162GI\n+5968OU\n-5142OU\n+6978OU\n-4232OU\n%TORYO\n";
        let all = path(csa, None);
        assert!(!all.names.is_empty());
        for n in 0..=10 {
            let some = path(csa, Some(n));
            let want: Vec<_> = all.names.iter().filter(|f| f.1 <= n).copied().collect();
            let mut got = some.names.clone();
            got.retain(|f| f.1 <= n);
            assert_eq!(got, want, "{n}");
            assert_eq!(
                (some.keys, some.moves),
                (all.keys.clone(), all.moves.clone())
            );
        }
        // The fourth file rook of gote is found at ply 4, not before.
        let tax = Taxonomy::builtin();
        let named = |p: &GamePath| {
            p.names
                .iter()
                .any(|f| tax.get(f.0).id == "fourth_file_rook")
        };
        assert!(named(&path(csa, Some(4))));
        assert!(!named(&path(csa, Some(3))));
    }
}
