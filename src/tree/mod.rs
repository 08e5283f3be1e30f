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
use node::{Edge, Node};
use std::collections::{HashMap, HashSet, VecDeque};
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

/// A map keyed by position keys ([`KeyHasher`]).
pub(crate) type KeyMap<V> = HashMap<u64, V, BuildHasherDefault<KeyHasher>>;
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
#[derive(Debug)]
pub struct Tree {
    opts: TreeOptions,
    nodes: KeyMap<Node>,
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
    /// Scratch: the nodes and moves of the game being added.
    seen: Vec<u64>,
    seen_moves: Vec<(u64, Move)>,
}

impl Tree {
    /// An empty tree.
    pub fn new(opts: TreeOptions) -> Tree {
        Tree {
            opts,
            nodes: KeyMap::default(),
            roots: Vec::new(),
            root_set: KeySet::default(),
            sources: Vec::new(),
            games: 0,
            pruned_below: 0,
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

    /// No position kept.
    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    /// 0 when every count is exact; else the highest count that the
    /// tree pruned while it grew (a count may be short by at most the
    /// sum of the thresholds, see docs/tree.md).
    pub fn pruned_below(&self) -> u32 {
        self.pruned_below
    }

    /// Adds game `game` of source `source` (call in input order: the
    /// first game added through a move is its example). A game counts once
    /// per position and once per move however often it comes back to
    /// them. When more than [`TreeOptions::max_nodes`] positions are kept,
    /// the rarest are pruned (see [`Tree::pruned_below`]).
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
        self.seen.clear();
        self.seen_moves.clear();
        for (i, &key) in path.keys.iter().enumerate() {
            let ply = i as u32;
            let first = !self.seen.contains(&key);
            if first {
                self.seen.push(key);
            }
            let node = self.nodes.entry(key).or_default();
            if first {
                node.games += 1;
                for &(tag, at) in &path.names {
                    if at <= ply + path.start_ply {
                        node.name(tag);
                    }
                }
            }
            if let Some(&(mv, color)) = path.moves.get(i) {
                if self.seen_moves.contains(&(key, mv)) {
                    continue;
                }
                self.seen_moves.push((key, mv));
                let rating = facts.rating[color.index()];
                node.edge(mv).count(facts.outcome, rating, facts.date, ex);
            }
        }
        if self.nodes.len() > self.opts.max_nodes {
            self.prune_growing();
        }
    }

    /// Prunes while growing: positions and moves with at most `t` games,
    /// `t` doubling until at most half the budget is kept.
    fn prune_growing(&mut self) {
        let mut t = self.pruned_below.max(1);
        loop {
            self.prune(t + 1);
            self.pruned_below = self.pruned_below.max(t);
            if self.nodes.len() <= self.opts.max_nodes / 2 || t >= u32::MAX / 2 {
                break;
            }
            t *= 2;
        }
    }

    /// Drops the positions and moves with fewer than `k` games (roots
    /// stay while they have games).
    fn prune(&mut self, k: u32) {
        self.nodes.retain(|_, n| n.games >= k);
        for n in self.nodes.values_mut() {
            n.keep_moves(k);
        }
        let nodes = &self.nodes;
        self.roots.retain(|(key, _)| nodes.contains_key(key));
        self.root_set.retain(|key| nodes.contains_key(key));
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
        for (key, n) in other.nodes {
            self.nodes.entry(key).or_default().merge(n, offset);
        }
        if self.nodes.len() > self.opts.max_nodes {
            self.prune_growing();
        }
    }

    /// The tree: positions with at least [`TreeOptions::min_games`] games
    /// reached from a root through moves with that many, breadth first
    /// (roots in the order first met; moves by games, most first, then
    /// USI), each once, at the fewest plies from a root. The positions
    /// are made one at a time (each leaves the map as it is made), so
    /// writing a tree does not hold it twice.
    pub fn finish(mut self) -> Nodes {
        let k = self.opts.min_games.max(1);
        if k > 1 {
            self.prune(k);
        }
        let mut done = KeySet::default();
        let mut queue: VecDeque<(u64, Position, u32)> = VecDeque::new();
        for (key, pos) in &self.roots {
            if done.insert(*key) {
                queue.push_back((*key, *pos, 0));
            }
        }
        Nodes {
            tree: self,
            done,
            queue,
        }
    }

    /// [`Tree::finish`], gathered.
    pub fn finish_all(self) -> Vec<NodeView> {
        self.finish().collect()
    }
}

/// The positions of a finished tree, in order (see [`Tree::finish`]).
#[derive(Debug)]
pub struct Nodes {
    tree: Tree,
    done: KeySet,
    queue: VecDeque<(u64, Position, u32)>,
}

impl Iterator for Nodes {
    type Item = NodeView;

    fn next(&mut self) -> Option<NodeView> {
        let tax = crate::tags::Taxonomy::builtin();
        let t = &mut self.tree;
        loop {
            let (key, pos, ply) = self.queue.pop_front()?;
            let Some(node) = t.nodes.remove(&key) else {
                continue;
            };
            let variant = pos.variant();
            let mut edges: Vec<(String, &Edge)> = node
                .moves
                .iter()
                .map(|e| (e.mv.usi(variant).to_string(), e))
                .collect();
            edges.sort_by(|a, b| {
                b.1.counts
                    .games
                    .cmp(&a.1.counts.games)
                    .then_with(|| a.0.cmp(&b.0))
            });
            let mut moves = Vec::with_capacity(edges.len());
            for (usi, e) in edges {
                let mut after = pos;
                after.play_unchecked(e.mv);
                let child = position_key(&after);
                if ply < t.opts.plies && t.nodes.contains_key(&child) && self.done.insert(child) {
                    self.queue.push_back((child, after, ply + 1));
                }
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
                    counts: e.counts.clone(),
                    example_path: t.source_path(e.counts.example.source).to_string(),
                });
            }
            let name = node.top_name().map(|(tag, games)| {
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
