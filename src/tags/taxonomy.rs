//! The taxonomy: a TSV file of named openings, castles and game styles,
//! each with its parent and its rule (docs/tags.md).

use super::rule::{compile as compile_rule, Compiled, Key, Pattern};
use serde::Serialize;
use std::fmt;

/// What an entry names.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Kind {
    /// An opening or strategy (戦型, 戦法), per side.
    Opening,
    /// A castle (囲い), per side.
    Castle,
    /// The game's style: both sides static rook, one ranging, both ranging.
    Style,
}

impl Kind {
    /// Every kind.
    pub const ALL: [Kind; 3] = [Kind::Opening, Kind::Castle, Kind::Style];

    /// The name in the TSV file and the tables: `opening`, `castle`,
    /// `style`.
    pub const fn name(self) -> &'static str {
        match self {
            Kind::Opening => "opening",
            Kind::Castle => "castle",
            Kind::Style => "style",
        }
    }

    /// The last ply at which entries of this kind are looked for: openings
    /// (and the style decided from them) in the first 60 plies, castles in
    /// the first 120 (docs/tags.md: castles form late in slow games; a
    /// castle rule stops holding at the first capture of a piece other
    /// than a pawn or a bishop, and the game is not looked at further once
    /// no rule can hold).
    pub const fn window(self) -> u32 {
        match self {
            Kind::Opening | Kind::Style => 60,
            Kind::Castle => 120,
        }
    }
}

impl fmt::Display for Kind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The most entries a taxonomy may hold.
pub const MAX_ENTRIES: usize = 256;

/// A set of entries (bit = index).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct TagSet([u64; MAX_ENTRIES / 64]);

impl TagSet {
    /// Whether entry `i` is in the set.
    #[inline]
    pub fn contains(&self, i: u16) -> bool {
        let i = usize::from(i);
        self.0[i / 64] >> (i % 64) & 1 != 0
    }

    /// Adds entry `i`.
    #[inline]
    pub fn insert(&mut self, i: u16) {
        let i = usize::from(i);
        self.0[i / 64] |= 1 << (i % 64);
    }

    /// Removes entry `i`.
    #[inline]
    pub fn remove(&mut self, i: u16) {
        let i = usize::from(i);
        self.0[i / 64] &= !(1 << (i % 64));
    }

    /// The entries of both sets.
    #[inline]
    pub fn union(&self, other: &TagSet) -> TagSet {
        let (a, b) = (self.0, other.0);
        TagSet([a[0] | b[0], a[1] | b[1], a[2] | b[2], a[3] | b[3]])
    }

    /// The entries of `self` not in `other`.
    #[inline]
    pub fn difference(&self, other: &TagSet) -> TagSet {
        let (a, b) = (self.0, other.0);
        TagSet([a[0] & !b[0], a[1] & !b[1], a[2] & !b[2], a[3] & !b[3]])
    }

    /// The entries in both sets.
    #[inline]
    pub fn intersection(&self, other: &TagSet) -> TagSet {
        let (a, b) = (self.0, other.0);
        TagSet([a[0] & b[0], a[1] & b[1], a[2] & b[2], a[3] & b[3]])
    }

    /// The entries, in index order.
    #[inline]
    pub fn iter(&self) -> TagIter {
        TagIter {
            words: self.0,
            word: 0,
        }
    }

    /// Whether the two sets share an entry.
    #[inline]
    pub fn intersects(&self, other: &TagSet) -> bool {
        !self.intersection(other).is_empty()
    }

    /// Whether the set is empty.
    #[inline]
    pub fn is_empty(&self) -> bool {
        let a = self.0;
        a[0] | a[1] | a[2] | a[3] == 0
    }
}

/// The entries of a [`TagSet`], in index order.
#[derive(Clone, Debug)]
pub struct TagIter {
    words: [u64; MAX_ENTRIES / 64],
    word: usize,
}

impl Iterator for TagIter {
    type Item = u16;
    #[inline]
    fn next(&mut self) -> Option<u16> {
        while self.word < self.words.len() {
            let b = self.words[self.word];
            if b != 0 {
                self.words[self.word] = b & (b - 1);
                return Some((self.word * 64) as u16 + b.trailing_zeros() as u16);
            }
            self.word += 1;
        }
        None
    }
}

/// The index of an entry in its taxonomy.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct TagId(pub u16);

/// One row of the taxonomy.
#[derive(Clone, Debug)]
pub struct Entry {
    /// Stable id (`mino`, `fourth_file_rook`): lower case, digits and `_`.
    /// An id that starts with `_` is a helper: other rules refer to it
    /// (`has=_took_bishop`), but games are never named by it.
    pub id: String,
    /// Japanese name (`美濃囲い`).
    pub ja: String,
    /// English name.
    pub en: String,
    /// What it names.
    pub kind: Kind,
    /// The parent entry (of the same kind), if any.
    pub parent: Option<TagId>,
    /// Other names it is found by (filters take them).
    pub aliases: Vec<String>,
    /// The names the pyshogi-db classifier gives the same thing (its enum
    /// names), used to compare with its expectations.
    pub peer: Vec<String>,
    /// The rule as written.
    pub rule: String,
    /// 1-based line in the file.
    pub line: usize,
    /// 0 for a root, 1 for its children, …
    pub depth: u8,
    /// For an umbrella (a rule written `= a b !c`): the entries it covers
    /// (`a`, `b`: any kind, styles included), each with its descendants.
    /// Empty for an ordinary entry.
    pub members: Vec<TagId>,
    /// For an umbrella: the entries that keep a side out of it (`!c`: a
    /// side with a name under `c` is not given the umbrella).
    pub excludes: Vec<TagId>,
    pub(crate) compiled: Compiled,
}

impl Entry {
    /// Whether this is a helper entry (id starting with `_`), never
    /// reported.
    pub fn is_helper(&self) -> bool {
        self.id.starts_with('_')
    }

    /// Whether this is an umbrella: a word of the domain (`穴熊`, `居飛車`)
    /// that covers other entries instead of having a rule of its own. A
    /// side is given it when one of its names falls under a member
    /// ([`Taxonomy::implied`]); filters by it select every game under a
    /// member ([`Taxonomy::selects`]).
    pub fn is_umbrella(&self) -> bool {
        !self.members.is_empty()
    }
}

/// Why a taxonomy file cannot be used: the line and what is wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TaxonomyError {
    /// 1-based line.
    pub line: usize,
    /// 1-based column (character) where known, else 1.
    pub column: usize,
    /// What is wrong.
    pub message: String,
    kind: TaxonomyErrorKind,
}

/// The cases of a [`TaxonomyError`], by the step of [`Taxonomy::parse`]
/// that found it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum TaxonomyErrorKind {
    /// The table: no header, a missing column, a row of too many cells,
    /// too many entries.
    Table,
    /// An entry: a bad or duplicate id, an unknown kind, a missing name.
    Entry,
    /// A parent that is no entry above, or of another kind.
    Link,
    /// A rule that does not parse or compile (see [`PatternError`]).
    ///
    /// [`PatternError`]: super::PatternError
    Pattern,
    /// A name that already names another entry of the kind.
    Name,
}

impl TaxonomyError {
    fn new(kind: TaxonomyErrorKind, line: usize, column: usize, message: String) -> TaxonomyError {
        TaxonomyError {
            line,
            column,
            message,
            kind,
        }
    }

    /// Which case this is.
    pub fn kind(&self) -> TaxonomyErrorKind {
        self.kind
    }
}

impl fmt::Display for TaxonomyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}: {}", self.line, self.column, self.message)
    }
}

impl std::error::Error for TaxonomyError {}

/// The most characters of a name [`Taxonomy::lookup`] compares with the
/// entries' names to suggest near ones (and shows in its error): an
/// unknown name of 100,000 characters costs what one of this many does.
pub const MAX_NAME_CHARS: usize = 200;

/// The largest taxonomy file [`Taxonomy::read`] takes, in bytes (1 MiB;
/// the built-in one is about 17 KB): a file is read whole, so a larger
/// one (or an endless stream such as `/dev/zero`) is refused after this
/// many bytes instead of held.
pub const MAX_TAXONOMY_BYTES: usize = 1 << 20;

/// Why [`Taxonomy::read`] gave no taxonomy.
#[derive(Debug)]
pub enum LoadError {
    /// The file could not be read (or is not UTF-8).
    Io(std::io::Error),
    /// The file holds more than [`MAX_TAXONOMY_BYTES`].
    TooLarge,
    /// The text is not a valid taxonomy.
    Parse(TaxonomyError),
}

impl fmt::Display for LoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LoadError::Io(e) => e.fmt(f),
            LoadError::TooLarge => write!(
                f,
                "larger than {} MiB (a taxonomy file is read whole; the built-in one is about 17 KB)",
                MAX_TAXONOMY_BYTES >> 20
            ),
            LoadError::Parse(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for LoadError {}

/// The columns a taxonomy file has, in its header line (any order; `peer`
/// may be left out).
pub const COLUMNS: [&str; 8] = [
    "id", "ja", "en", "kind", "parent", "aliases", "peer", "rule",
];

/// A parsed, checked and compiled taxonomy.
#[derive(Clone, Debug)]
pub struct Taxonomy {
    entries: Vec<Entry>,
    /// Per entry: its strict ancestors.
    ancestors: Vec<TagSet>,
    /// Per entry: itself and its descendants.
    subtree: Vec<TagSet>,
    /// Per entry: what a filter by it selects (its subtree; for an
    /// umbrella, itself and what its members select).
    selects: Vec<TagSet>,
    /// The umbrellas, in file order.
    umbrellas: Vec<u16>,
    /// Styles, in file order.
    styles: Vec<u16>,
    /// Which openings and castles may hold after a move, per side: by the
    /// role moved, by the king's square, by a rook's square, or always
    /// (see [`super::rule::Key`]).
    pub(crate) dispatch: [Dispatch; 2],
    /// The distinct sets the dispatch tables point to (0: the empty set).
    pub(crate) sets: Vec<TagSet>,
    /// Per side, per set: the squares its entries allow for the side's
    /// king (a move whose side's king stands elsewhere needs no check).
    pub(crate) set_kings: [Vec<crate::rules::Bitboard>; 2],
    /// Per entry: the rules that look at names only and name it
    /// (checked when a side is given it).
    pub(crate) watchers: Vec<TagSet>,
    /// Per entry: its kind, its depth, whether it is a helper (what the
    /// tagger needs at the end of a game, without the whole entry).
    pub(crate) brief: Vec<(Kind, u8, bool)>,
    /// Every entry's programs (sente's, gote's), side by side in memory
    /// for the tagger.
    pub(crate) programs: Vec<super::rule::Program>,
    /// The programs' gates, in the same order (what the tagger looks at
    /// first).
    pub(crate) gates: Vec<super::rule::Gate>,
    /// By ply (1-based, up to the last window): the openings and castles
    /// that can hold then (the ply is in their kind's window and in their
    /// rule's `ply` bounds); past the last window, none. The second table
    /// holds the castles only (for starts other than the even game and the
    /// standard handicaps).
    pub(crate) alive: [Vec<TagSet>; 2],
    /// The same, by ply: the entries alive at that ply or any later one.
    pub(crate) alive_later: [Vec<TagSet>; 2],
    /// Per role (index): the openings and castles that cannot hold once a
    /// piece of that role was taken (their rule's `captured<=`).
    pub(crate) dead_after: [TagSet; 16],
}

/// The entries a move may make hold, by key (one side's). The tables hold
/// indexes into [`Taxonomy::sets`] (0: none), to stay small.
#[derive(Clone, Debug)]
pub(crate) struct Dispatch {
    /// By role moved and destination (`role * 81 + square`).
    pub moved: Vec<u16>,
    /// The same, for the rules that need a capture (checked only after
    /// one).
    pub took: Vec<u16>,
    /// Checked after every move.
    pub always: TagSet,
    /// By the king's square: the entries that allow it (those that name
    /// no square for the side's king, and those that name this one).
    pub king_ok: [u16; 81],
}

impl Default for Dispatch {
    fn default() -> Dispatch {
        Dispatch {
            moved: vec![0; 16 * 81],
            took: vec![0; 16 * 81],
            always: TagSet::default(),
            king_ok: [0; 81],
        }
    }
}

/// Folds a name for lookup: NFKC, lower case, `-` and spaces as `_`.
pub(crate) fn fold_name(s: &str) -> String {
    use unicode_normalization::UnicodeNormalization;
    s.trim()
        .nfkc()
        .flat_map(char::to_lowercase)
        .map(|c| if c == '-' || c == ' ' { '_' } else { c })
        .collect()
}

impl Taxonomy {
    /// The taxonomy shipped with kifu (`src/tags/taxonomy.tsv`).
    pub fn builtin() -> &'static Taxonomy {
        static BUILTIN: std::sync::OnceLock<Taxonomy> = std::sync::OnceLock::new();
        BUILTIN.get_or_init(|| {
            // tests/tags.rs checks that it parses; a broken file is a bug
            // of the build, not of the input.
            Taxonomy::parse(include_str!("taxonomy.tsv"))
                .unwrap_or_else(|e| panic!("src/tags/taxonomy.tsv:{e}"))
        })
    }

    /// Reads a taxonomy file of at most [`MAX_TAXONOMY_BYTES`] (never more
    /// is taken from `r`) and parses it ([`Taxonomy::parse`]).
    pub fn read(r: impl std::io::Read) -> Result<Taxonomy, LoadError> {
        use std::io::Read;
        let mut bytes = Vec::new();
        r.take(MAX_TAXONOMY_BYTES as u64 + 1)
            .read_to_end(&mut bytes)
            .map_err(LoadError::Io)?;
        if bytes.len() > MAX_TAXONOMY_BYTES {
            return Err(LoadError::TooLarge);
        }
        let text = String::from_utf8(bytes).map_err(|_| {
            LoadError::Io(std::io::Error::new(
                std::io::ErrorKind::InvalidData,
                "stream did not contain valid UTF-8",
            ))
        })?;
        Taxonomy::parse(&text).map_err(LoadError::Parse)
    }

    /// Parses a taxonomy (TSV with a header line; `#` starts a comment
    /// line), checks ids and parents and compiles every rule: row → entry
    /// (with its link to its parent and its compiled rule) → names →
    /// the tables of [`Taxonomy`].
    pub fn parse(text: &str) -> Result<Taxonomy, TaxonomyError> {
        let (rule_at, rows) = rows(text)?;
        let mut entries: Vec<Entry> = Vec::with_capacity(rows.len());
        for row in &rows {
            let e = entry(row, rule_at, &entries)?;
            entries.push(e);
        }
        check_names(&entries)?;
        Ok(compile(entries))
    }

    /// Every entry, in file order.
    pub fn entries(&self) -> &[Entry] {
        &self.entries
    }

    /// The entry `id`.
    pub fn get(&self, id: TagId) -> &Entry {
        &self.entries[usize::from(id.0)]
    }

    /// The entry whose id is `id`.
    pub fn by_id(&self, id: &str) -> Option<TagId> {
        self.entries
            .iter()
            .position(|e| e.id == id)
            .map(|i| TagId(i as u16))
    }

    /// The entry of `kind` a user means by `name`: its id, Japanese or
    /// English name or an alias (case, width, `-`, `_` and spaces do not
    /// matter), or a pyshogi-db name. An umbrella's names come first: it
    /// may take the name of an entry it covers (`mino`, `銀冠`), and then
    /// the word means the whole family.
    pub fn find(&self, kind: Kind, name: &str) -> Option<TagId> {
        let n = fold_name(name);
        let names = |e: &Entry| {
            [&e.id, &e.ja, &e.en]
                .into_iter()
                .chain(&e.aliases)
                .any(|s| fold_name(s) == n)
        };
        let peer = |e: &Entry| e.peer.iter().any(|s| fold_name(s) == n);
        let of_kind = || {
            self.entries
                .iter()
                .enumerate()
                .filter(|(_, e)| e.kind == kind)
        };
        of_kind()
            .find(|(_, e)| e.is_umbrella() && names(e))
            .or_else(|| of_kind().find(|(_, e)| names(e)))
            .or_else(|| of_kind().find(|(_, e)| peer(e)))
            .map(|(i, _)| TagId(i as u16))
    }

    /// The entry of `kind` a user means by `name` ([`Taxonomy::find`]), or
    /// an error naming up to six entries of that kind near it: first by
    /// meaning (an entry one of whose names contains the name or is
    /// contained in it, or shares a word or two Japanese characters in a
    /// row with it: umbrellas first, then the most general entries, then
    /// their parents; `穴熊囲` → `anaguma`, `ranging_anaguma`,
    /// `static_anaguma`, …),
    /// then by spelling (normalised Damerau–Levenshtein similarity of at
    /// least 0.5, or within two edits of a name of five characters or
    /// more). A name that names an entry of
    /// another kind says so (`--castle` for a castle).
    pub fn lookup(&self, kind: Kind, name: &str) -> Result<TagId, String> {
        if let Some(id) = self.find(kind, name) {
            return Ok(id);
        }
        // Only the start of a long name is compared (edit distances cost
        // the product of the lengths): a name that long names nothing.
        let n = fold_name(capped(name, MAX_NAME_CHARS));
        let n = capped(&n, MAX_NAME_CHARS).to_string();
        let names = self.near(kind, &n);
        let mut hint = if names.is_empty() {
            format!("`kifu tags --list` lists the {kind} names")
        } else {
            format!("near: {}", names.join(", "))
        };
        if let Some(other) = Kind::ALL
            .into_iter()
            .filter(|&k| k != kind)
            .find(|&k| self.find(k, &n).is_some())
        {
            hint.push_str(&format!("; `{n}` is a {other} name: --{other} {n}"));
        }
        let shown = capped(name, MAX_NAME_CHARS);
        let more = if shown.len() < name.len() { "…" } else { "" };
        Err(format!("no {kind} is named `{shown}{more}` ({hint})"))
    }

    /// The ids of up to six entries of `kind` near the folded name `n`:
    /// by meaning, then by spelling (see [`Taxonomy::lookup`]).
    fn near(&self, kind: Kind, n: &str) -> Vec<&str> {
        const SHOWN: usize = 6;
        let chars = |s: &str| s.chars().count();
        let words = |s: &str| -> Vec<String> {
            s.split('_')
                .filter(|w| chars(w) >= 3)
                .map(str::to_string)
                .collect()
        };
        let nwords = words(n);
        let candidates: Vec<(usize, &Entry)> = self
            .entries
            .iter()
            .enumerate()
            .filter(|(_, e)| e.kind == kind && !e.is_helper())
            .collect();
        let folded = |e: &Entry| -> Vec<String> {
            [&e.id, &e.ja, &e.en]
                .into_iter()
                .chain(&e.aliases)
                .map(|s| fold_name(s))
                .collect()
        };
        // By meaning: a name containing the other (two characters at
        // least), a shared word of three letters or more (not a word
        // every other name has), or two Japanese characters in a row in
        // common (`穴熊` in `居飛車穴熊`).
        const COMMON: [&str; 7] = ["rook", "castle", "file", "the", "with", "any", "opening"];
        let pairs = |s: &str| -> Vec<[char; 2]> {
            let c: Vec<char> = s.chars().collect();
            c.windows(2)
                .filter(|w| !w[0].is_ascii() && !w[1].is_ascii())
                .map(|w| [w[0], w[1]])
                .collect()
        };
        let npairs = pairs(n);
        let meant = |f: &str| {
            (chars(n) >= 2 && f.contains(n))
                || (chars(f) >= 2 && n.contains(f))
                || words(f)
                    .iter()
                    .any(|w| !COMMON.contains(&w.as_str()) && nwords.contains(w))
                || pairs(f).iter().any(|p| npairs.contains(p))
        };
        let by_meaning: Vec<usize> = candidates
            .iter()
            .filter(|(_, e)| folded(e).iter().any(|f| meant(f)))
            .map(|&(i, _)| i)
            .collect();
        // What was meant: the umbrellas, the most general entries first;
        // then their parents.
        let mut meant_sorted = by_meaning.clone();
        meant_sorted.sort_by_key(|&i| (!self.entries[i].is_umbrella(), self.entries[i].depth, i));
        let mut ordered: Vec<usize> = Vec::new();
        ordered.extend(&meant_sorted);
        ordered.extend(
            meant_sorted
                .iter()
                .filter_map(|&i| self.entries[i].parent.map(|p| usize::from(p.0))),
        );
        // By spelling.
        let mut spelled: Vec<(u64, usize)> = candidates
            .iter()
            .filter_map(|&(i, e)| {
                folded(e)
                    .iter()
                    .map(|f| {
                        let sim = strsim::normalized_damerau_levenshtein(n, f);
                        let d = strsim::damerau_levenshtein(n, f);
                        (sim, d, chars(f))
                    })
                    .filter(|&(sim, d, len)| sim >= 0.5 || (d <= 2 && len > 4))
                    .map(|(sim, d, _)| (sim, d))
                    .map(|(sim, _)| (((1.0 - sim) * 1e6) as u64, i))
                    .min()
            })
            .collect();
        spelled.sort();
        ordered.extend(spelled.into_iter().map(|(_, i)| i));
        let mut out: Vec<&str> = Vec::new();
        for i in ordered {
            let id = self.entries[i].id.as_str();
            if !out.contains(&id) {
                out.push(id);
            }
            if out.len() == SHOWN {
                break;
            }
        }
        out
    }

    /// What a filter by entry `id` selects: the entry and its
    /// descendants; for an umbrella, itself and what each member selects
    /// (styles included: a game whose style is in the set matches).
    pub fn selects(&self, id: TagId) -> &TagSet {
        &self.selects[usize::from(id.0)]
    }

    /// The umbrellas, in file order (see [`Entry::is_umbrella`];
    /// [`super::SideTags::implied`] gives those a side falls under).
    pub fn umbrellas(&self) -> impl Iterator<Item = TagId> + '_ {
        self.umbrellas.iter().map(|&u| TagId(u))
    }

    /// The entry and its descendants.
    pub fn subtree(&self, id: TagId) -> &TagSet {
        &self.subtree[usize::from(id.0)]
    }

    /// The styles, in file order.
    pub(crate) fn styles(&self) -> &[u16] {
        &self.styles
    }

    /// The strict ancestors of an entry.
    pub fn ancestors(&self, id: TagId) -> &TagSet {
        &self.ancestors[usize::from(id.0)]
    }
}

/// The first `max` characters of `s`.
fn capped(s: &str, max: usize) -> &str {
    s.char_indices().nth(max).map_or(s, |(i, _)| &s[..i])
}

/// One line of a taxonomy file: its number, its cells, and the cells of
/// [`COLUMNS`] in that order (empty where missing).
struct Row<'a> {
    line: usize,
    cells: Vec<&'a str>,
    fields: [&'a str; 8],
}

/// The header and the rows of a taxonomy file; the index of the rule's
/// column.
fn rows(text: &str) -> Result<(usize, Vec<Row<'_>>), TaxonomyError> {
    let bad = |line, message| TaxonomyError::new(TaxonomyErrorKind::Table, line, 1, message);
    let mut lines = text
        .lines()
        .enumerate()
        .map(|(i, l)| (i + 1, l.trim_end_matches('\r')))
        .filter(|(_, l)| !l.trim().is_empty() && !l.starts_with('#'));
    let Some((hline, header)) = lines.next() else {
        return Err(bad(
            1,
            "no header line (id, ja, en, kind, parent, aliases, rule)".into(),
        ));
    };
    let names: Vec<&str> = header.split('\t').map(str::trim).collect();
    let col = |name: &str| names.iter().position(|n| *n == name);
    let mut at = [0usize; COLUMNS.len()];
    for (i, c) in COLUMNS.iter().enumerate() {
        match col(c) {
            Some(p) => at[i] = p,
            None if *c == "peer" => at[i] = usize::MAX,
            None => return Err(bad(hline, format!("the header has no column `{c}`"))),
        }
    }
    let mut rows = Vec::new();
    for (n, l) in lines {
        let cells: Vec<&str> = l.split('\t').collect();
        let cell = |i: usize| cells.get(at[i]).map_or("", |s| s.trim());
        if cells.len() > names.len() {
            return Err(bad(
                n,
                format!("{} cells, the header has {}", cells.len(), names.len()),
            ));
        }
        let fields = [0, 1, 2, 3, 4, 5, 6, 7].map(cell);
        rows.push(Row {
            line: n,
            cells,
            fields,
        });
    }
    if rows.len() > MAX_ENTRIES {
        return Err(bad(
            rows[MAX_ENTRIES].line,
            format!("more than {MAX_ENTRIES} entries"),
        ));
    }
    Ok((at[7], rows))
}

/// The entry of a row, checked against the `entries` above it (ids,
/// parent) and with its rule compiled.
fn entry(row: &Row<'_>, rule_at: usize, entries: &[Entry]) -> Result<Entry, TaxonomyError> {
    let n = row.line;
    let [id, ja, en, kind, parent, aliases, peer, rule] = row.fields;
    let bad = |kind, message| TaxonomyError::new(kind, n, 1, message);
    if id.is_empty()
        || !id
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_')
    {
        return Err(bad(
            TaxonomyErrorKind::Entry,
            format!("bad id `{id}` (lower case letters, digits and `_`)"),
        ));
    }
    if let Some(e) = entries.iter().find(|e| e.id == id) {
        return Err(bad(
            TaxonomyErrorKind::Entry,
            format!("duplicate id `{id}` (first on line {})", e.line),
        ));
    }
    let Some(&kind) = Kind::ALL.iter().find(|k| k.name() == kind) else {
        return Err(bad(
            TaxonomyErrorKind::Entry,
            format!("`{id}`: unknown kind `{kind}` (opening, castle or style)"),
        ));
    };
    if ja.is_empty() || en.is_empty() {
        return Err(bad(
            TaxonomyErrorKind::Entry,
            format!("`{id}` needs a Japanese and an English name"),
        ));
    }
    let parent = link(id, kind, parent, entries).map_err(|m| bad(TaxonomyErrorKind::Link, m))?;
    let rule_col = raw_column(Some(&row.cells), rule_at);
    let (members, excludes) = match rule.strip_prefix('=') {
        Some(list) => umbrella(id, kind, list, entries)
            .map_err(|m| TaxonomyError::new(TaxonomyErrorKind::Pattern, n, rule_col, m))?,
        None => (Vec::new(), Vec::new()),
    };
    // An umbrella has no rule of its own: one that never holds (it is
    // never checked either: see `compile`).
    let own = if members.is_empty() { rule } else { "ply<=0" };
    let compiled = pattern(id, kind, own, rule_col, n, entries)?;
    let list = |s: &str| -> Vec<String> {
        s.split(',')
            .map(str::trim)
            .filter(|a| !a.is_empty())
            .map(str::to_string)
            .collect()
    };
    Ok(Entry {
        id: id.to_string(),
        ja: ja.to_string(),
        en: en.to_string(),
        kind,
        parent,
        aliases: list(aliases),
        peer: list(peer),
        rule: rule.to_string(),
        line: n,
        depth: parent.map_or(0, |p| entries[usize::from(p.0)].depth + 1),
        members,
        excludes,
        compiled,
    })
}

/// The members and exclusions of umbrella `id` (its rule after `=`): ids
/// of entries above it, `!` before an exclusion; at least one member. An
/// umbrella names openings or castles (its members may be of any kind).
fn umbrella(
    id: &str,
    kind: Kind,
    list: &str,
    entries: &[Entry],
) -> Result<(Vec<TagId>, Vec<TagId>), String> {
    if kind == Kind::Style {
        return Err(format!(
            "`{id}`: a style cannot be an umbrella (`=`); make it an opening or a castle"
        ));
    }
    let (mut members, mut excludes) = (Vec::new(), Vec::new());
    for word in list.split([' ', ',']).filter(|w| !w.is_empty()) {
        let (to, name) = match word.strip_prefix('!') {
            Some(name) => (&mut excludes, name),
            None => (&mut members, word),
        };
        match entries.iter().position(|e| e.id == name) {
            Some(i) if !entries[i].is_helper() => to.push(TagId(i as u16)),
            Some(_) => {
                return Err(format!(
                    "`{id}`: an umbrella cannot cover a helper (`{name}`)"
                ))
            }
            None => return Err(format!("`{id}`: `{name}` is not an entry above this one")),
        }
    }
    if members.is_empty() {
        return Err(format!(
            "`{id}`: an umbrella (`= a b …`) names at least one entry it covers"
        ));
    }
    Ok((members, excludes))
}

/// The parent of entry `id`: an entry above it, of its kind.
fn link(id: &str, kind: Kind, parent: &str, entries: &[Entry]) -> Result<Option<TagId>, String> {
    if parent.is_empty() {
        return Ok(None);
    }
    match entries.iter().position(|e| e.id == parent) {
        Some(p) if entries[p].kind == kind => Ok(Some(TagId(p as u16))),
        Some(_) => Err(format!("`{id}`: parent `{parent}` is of another kind")),
        None => Err(format!(
            "`{id}`: parent `{parent}` is not an entry above this one"
        )),
    }
}

/// The rule of entry `id` (on line `n`, its column `rule_col`) parsed and
/// compiled against the entries above it.
fn pattern(
    id: &str,
    kind: Kind,
    rule: &str,
    rule_col: usize,
    n: usize,
    entries: &[Entry],
) -> Result<Compiled, TaxonomyError> {
    let bad = |column, message| TaxonomyError::new(TaxonomyErrorKind::Pattern, n, column, message);
    let parsed = Pattern::parse(rule).map_err(|e| {
        bad(
            rule_col + rule[..e.offset.min(rule.len())].chars().count(),
            format!("`{id}`: {}", e.message),
        )
    })?;
    if kind == Kind::Style && !parsed.only_tags() {
        return Err(bad(
            rule_col,
            format!("`{id}`: a style's rule may only use has=, opp=, ply, ! and (…)"),
        ));
    }
    let resolve = |name: &str| {
        entries
            .iter()
            .position(|e| e.id == name && e.kind != Kind::Style && !e.is_umbrella())
            .map(|i| i as u16)
    };
    compile_rule(&parsed, &resolve).map_err(|m| bad(rule_col, format!("`{id}`: {m}")))
}

/// Names used for lookup must not name two entries of a kind, except that
/// an umbrella may take a name of an entry it covers (the word `美濃`
/// names the whole family; the family holds that entry): the umbrella
/// wins ([`Taxonomy::find`]).
fn check_names(entries: &[Entry]) -> Result<(), TaxonomyError> {
    let selects = selects(entries);
    let mut seen: std::collections::HashMap<(String, Kind), (usize, bool)> =
        std::collections::HashMap::new();
    // Umbrellas first: an entry's name then meets the umbrella that took it.
    let order = entries
        .iter()
        .enumerate()
        .filter(|(_, e)| e.is_umbrella())
        .chain(entries.iter().enumerate().filter(|(_, e)| !e.is_umbrella()));
    for (i, e) in order {
        let mut names: Vec<String> = [&e.id, &e.ja, &e.en]
            .into_iter()
            .chain(&e.aliases)
            .map(|s| fold_name(s))
            .collect();
        names.sort();
        names.dedup();
        for name in names {
            let key = (name, e.kind);
            if let Some(&(j, umbrella)) = seen.get(&key) {
                let shadowed = umbrella && !e.is_umbrella() && selects[j].contains(i as u16);
                if !shadowed {
                    let (first, second) = if umbrella {
                        (j, i)
                    } else {
                        (j.min(i), j.max(i))
                    };
                    let covers = if umbrella && !e.is_umbrella() {
                        " (an umbrella may take only names of entries it covers)"
                    } else {
                        ""
                    };
                    return Err(TaxonomyError::new(
                        TaxonomyErrorKind::Name,
                        entries[second].line,
                        1,
                        format!(
                            "`{}`: the name `{}` already names `{}`{covers}",
                            entries[second].id, key.0, entries[first].id
                        ),
                    ));
                }
                continue;
            }
            seen.insert(key, (i, e.is_umbrella()));
        }
    }
    Ok(())
}

/// Per entry: what a filter by it selects (see [`Taxonomy::selects`]).
fn selects(entries: &[Entry]) -> Vec<TagSet> {
    let mut subtree = vec![TagSet::default(); entries.len()];
    for i in 0..entries.len() {
        subtree[i].insert(i as u16);
        let mut p = entries[i].parent;
        while let Some(TagId(a)) = p {
            subtree[usize::from(a)].insert(i as u16);
            p = entries[usize::from(a)].parent;
        }
    }
    // Members are above their umbrella: in file order, each umbrella's
    // members are complete when it is reached.
    let mut out = subtree;
    for (i, e) in entries.iter().enumerate() {
        for m in &e.members {
            let m = out[usize::from(m.0)];
            out[i] = out[i].union(&m);
        }
    }
    out
}

/// By side and ply: the openings (window 60) and castles (120) alive then,
/// within their rules' plies.
fn alive(entries: &[Entry], sided: &[u16]) -> [Vec<TagSet>; 2] {
    let last = Kind::Castle.window().max(Kind::Opening.window()) as usize;
    let mut alive = [
        vec![TagSet::default(); last + 1],
        vec![TagSet::default(); last + 1],
    ];
    for &i in sided {
        let e = &entries[usize::from(i)];
        let (lo, hi) = e.compiled.programs[0].plies();
        for ply in 1..=last {
            let p = ply as u32;
            if p <= e.kind.window() && lo <= p && p <= hi {
                for at in &mut alive[..1 + usize::from(e.kind == Kind::Castle)] {
                    at[ply].insert(i);
                }
            }
        }
    }
    alive
}

/// By role captured: the entries whose rules no longer hold after it.
fn dead_after(entries: &[Entry], sided: &[u16]) -> [TagSet; 16] {
    let mut dead_after = [TagSet::default(); 16];
    for &i in sided {
        let allowed = entries[usize::from(i)].compiled.programs[0].captures_allowed();
        for (r, dead) in dead_after.iter_mut().enumerate() {
            if allowed >> r & 1 == 0 {
                dead.insert(i);
            }
        }
    }
    dead_after
}

/// The tables of a taxonomy from its checked entries: ancestors and
/// subtrees, the dispatch by move, the plies each entry is alive in.
fn compile(entries: Vec<Entry>) -> Taxonomy {
    let mut ancestors = vec![TagSet::default(); entries.len()];
    let mut subtree = vec![TagSet::default(); entries.len()];
    for i in 0..entries.len() {
        subtree[i].insert(i as u16);
        let mut p = entries[i].parent;
        while let Some(TagId(a)) = p {
            ancestors[i].insert(a);
            subtree[usize::from(a)].insert(i as u16);
            p = entries[usize::from(a)].parent;
        }
    }
    let of = |pred: fn(Kind) -> bool| -> Vec<u16> {
        entries
            .iter()
            .enumerate()
            .filter(|(_, e)| pred(e.kind))
            .map(|(i, _)| i as u16)
            .collect()
    };
    // Umbrellas have no rule to check: the tagger never sees them.
    let sided: Vec<u16> = of(|k| k != Kind::Style)
        .into_iter()
        .filter(|&i| !entries[usize::from(i)].is_umbrella())
        .collect();
    let umbrellas: Vec<u16> = (0..entries.len() as u16)
        .filter(|&i| entries[usize::from(i)].is_umbrella())
        .collect();
    let selects = selects(&entries);

    let styles = of(|k| k == Kind::Style);
    // Per side and key: the entries, then the tables of indexes.
    let mut moved = [
        vec![TagSet::default(); 16 * 81],
        vec![TagSet::default(); 16 * 81],
    ];
    let mut took = moved.clone();
    let mut always = [TagSet::default(); 2];
    let mut king_ok = [[TagSet::default(); 81]; 2];
    let mut watchers = vec![TagSet::default(); entries.len()];
    for &i in &sided {
        let e = &entries[usize::from(i)];
        for side in 0..2 {
            let allowed = e
                .compiled
                .king_squares(side)
                .unwrap_or(crate::rules::Bitboard(crate::rules::FULL));
            allowed.for_each(|sq| king_ok[side][sq.index()].insert(i));
            match &e.compiled.keys[side] {
                Key::Moved(pairs, capture) => {
                    let table = if *capture {
                        &mut took[side]
                    } else {
                        &mut moved[side]
                    };
                    for (r, to) in pairs {
                        for role in crate::rules::Role::ALL {
                            if r.contains(role) {
                                to.for_each(|sq| table[role.index() * 81 + sq.index()].insert(i));
                            }
                        }
                    }
                }
                Key::Names => {
                    for r in e.compiled.names() {
                        watchers[usize::from(r)].insert(i);
                    }
                }
                Key::Always => always[side].insert(i),
            }
        }
    }
    let mut sets = vec![TagSet::default()];
    let mut seen: std::collections::HashMap<TagSet, u16> = std::collections::HashMap::new();
    let mut index = |t: &TagSet| -> u16 {
        if t.is_empty() {
            return 0;
        }
        *seen.entry(*t).or_insert_with(|| {
            sets.push(*t);
            (sets.len() - 1) as u16
        })
    };
    let mut dispatch = [Dispatch::default(), Dispatch::default()];
    for (side, d) in dispatch.iter_mut().enumerate() {
        for (slot, t) in d.moved.iter_mut().zip(&moved[side]) {
            *slot = index(t);
        }
        for (slot, t) in d.took.iter_mut().zip(&took[side]) {
            *slot = index(t);
        }
        for (slot, t) in d.king_ok.iter_mut().zip(&king_ok[side]) {
            *slot = index(t);
        }
        d.always = always[side];
    }
    let alive = alive(&entries, &sided);
    let alive_later = alive.clone().map(|mut t| {
        for i in (1..t.len()).rev() {
            t[i - 1] = t[i - 1].union(&t[i]);
        }
        t
    });
    let set_kings = [0usize, 1].map(|side| {
        sets.iter()
            .map(|t| {
                t.iter().fold(crate::rules::Bitboard::EMPTY, |acc, i| {
                    acc | entries[usize::from(i)]
                        .compiled
                        .king_squares(side)
                        .unwrap_or(crate::rules::Bitboard(crate::rules::FULL))
                })
            })
            .collect::<Vec<_>>()
    });
    let dead_after = dead_after(&entries, &sided);
    let programs: Vec<super::rule::Program> = entries
        .iter()
        .flat_map(|e| e.compiled.programs.iter().cloned())
        .collect();
    let gates = programs.iter().map(super::rule::Program::gate).collect();
    let brief = entries
        .iter()
        .map(|e| (e.kind, e.depth, e.is_helper()))
        .collect();
    Taxonomy {
        brief,
        entries,
        ancestors,
        subtree,
        selects,
        umbrellas,
        styles,
        programs,
        gates,
        dispatch,
        sets,
        set_kings,
        watchers,
        alive,
        alive_later,
        dead_after,
    }
}

/// The 1-based character column where cell `index` starts in a line.
fn raw_column(cells: Option<&Vec<&str>>, index: usize) -> usize {
    let Some(cells) = cells else { return 1 };
    1 + cells
        .iter()
        .take(index)
        .map(|c| c.chars().count() + 1)
        .sum::<usize>()
}

#[cfg(test)]
mod tests {
    use super::*;

    const HEAD: &str = "id\tja\ten\tkind\tparent\taliases\trule\n";

    #[test]
    fn a_small_taxonomy() {
        let t = Taxonomy::parse(&format!(
            "{HEAD}# castles\nhalf_mino\t片美濃囲い\tHalf Mino\tcastle\t\thalf mino\tK28 S38 G49\nmino\t美濃囲い\tMino\tcastle\thalf_mino\t本美濃\tK28 S38 G49 G58\n"
        ))
        .unwrap();
        assert_eq!(t.entries().len(), 2);
        let mino = t.find(Kind::Castle, "本美濃").unwrap();
        assert_eq!(t.get(mino).depth, 1);
        assert_eq!(t.find(Kind::Castle, "Half-Mino"), t.by_id("half_mino"));
        assert!(t.subtree(TagId(0)).contains(mino.0));
        assert!(t.ancestors(mino).contains(0));
        assert_eq!(t.find(Kind::Opening, "mino"), None);
    }

    #[test]
    fn unknown_names_list_near_ones() {
        let tax = Taxonomy::builtin();
        let mino = tax.lookup(Kind::Castle, "美濃囲い").unwrap();
        assert_eq!(tax.get(mino).id, "mino");
        assert_eq!(tax.lookup(Kind::Castle, "本美濃").unwrap(), mino);
        // The word `mino` names the family, an umbrella covering 美濃囲い.
        let family = tax.lookup(Kind::Castle, "Mino").unwrap();
        assert_eq!(tax.get(family).id, "mino_family");
        assert!(tax.selects(family).contains(mino.0));
        let e = tax.lookup(Kind::Castle, "minno").unwrap_err();
        assert!(e.contains("near: mino"), "{e}");
        assert!(tax.lookup(Kind::Opening, "mino").is_err());
    }

    #[test]
    fn umbrellas_cover_their_members_and_take_only_their_names() {
        let base = "a\tあ\tA\tcastle\t\t\tK28\nb\tい\tB\tcastle\t\t\tK38\n";
        let t = Taxonomy::parse(&format!("{HEAD}{base}u\tう\tU\tcastle\t\tA\t= a b\n")).unwrap();
        let u = t.find(Kind::Castle, "a").unwrap();
        assert_eq!(t.get(u).id, "u");
        assert!(t.get(u).is_umbrella());
        assert_eq!(t.selects(u).iter().collect::<Vec<_>>(), [0, 1, 2]);
        for (rule, what) in [
            ("= b", "already names `u`"),
            ("= zz", "not an entry above"),
            ("=", "at least one entry"),
        ] {
            let e = Taxonomy::parse(&format!("{HEAD}{base}u\tう\tU\tcastle\t\tA\t{rule}\n"))
                .unwrap_err();
            assert!(e.message.contains(what), "{rule}: {e}");
        }
        let e = Taxonomy::parse(&format!(
            "{HEAD}{base}u\tう\tU\tcastle\t\t\t= a\nc\tえ\tC\tcastle\t\t\thas=u\n"
        ))
        .unwrap_err();
        assert_eq!(e.kind(), TaxonomyErrorKind::Pattern, "{e}");
    }

    #[test]
    fn errors_name_line_and_column() {
        use TaxonomyErrorKind::{Entry as E, Link, Name, Pattern as P};
        for (body, line, col, what, kind) in [
            (
                "a\tあ\tA\tcastle\t\t\tK28\na\tい\tB\tcastle\t\t\tK38\n",
                3,
                1,
                "duplicate id",
                E,
            ),
            ("a\tあ\tA\tcastle\tb\t\tK28\n", 2, 1, "parent `b`", Link),
            ("a\tあ\tA\tcastle\t\t\tK28 Q38\n", 2, 20, "piece letter", P),
            ("a\tあ\tA\tcastle\t\t\thas=zz\n", 2, 16, "`zz`", P),
            ("a\tあ\tA\tweird\t\t\tK28\n", 2, 1, "unknown kind", E),
            ("a\tあ\tA\tstyle\t\t\tK28\n", 2, 15, "style", P),
            (
                "a\tあ\tA\tcastle\t\tx\tK28\nb\tい\tB\tcastle\t\tX\tK38\n",
                3,
                1,
                "already names",
                Name,
            ),
        ] {
            let e = Taxonomy::parse(&format!("{HEAD}{body}")).unwrap_err();
            assert_eq!((e.line, e.column), (line, col), "{e}");
            assert!(e.message.contains(what), "{e}");
            assert_eq!(e.kind(), kind, "{e}");
        }
        assert_eq!(
            Taxonomy::parse("id\tja\n").unwrap_err().kind(),
            TaxonomyErrorKind::Table
        );
        assert!(Taxonomy::parse("id\tja\n")
            .unwrap_err()
            .message
            .contains("`en`"));
    }
}
