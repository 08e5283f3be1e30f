//! Opening, castle and style names (戦型・囲い) found from the moves.
//!
//! The names live in a [`Taxonomy`]: a TSV file (id, Japanese and English
//! names, kind, parent, aliases, rule) shipped in `src/tags/taxonomy.tsv`
//! ([`Taxonomy::builtin`]) or read from any file ([`Taxonomy::parse`]).
//! Each entry's rule is a short text ([`rule`], docs/tags.md) about one
//! side: its pieces on squares seen from its own side, empty squares,
//! the opponent's pieces, the move just played, the hands, the captures so
//! far, a named line, the ply, the names already found. Rules are compiled
//! once into bitboard masks for each side.
//!
//! A [`Tagger`] checks the mover's rules after each main-line move within
//! each kind's window (openings 60 plies, castles 62); a name whose
//! descendant holds at the same ply is not kept then (its descendant
//! is), so a game lists what each side built on the way. Handicap games get castles only, variants
//! nothing. [`Collector`] is the [`Visitor`] that does it while a game is
//! read (it drives a [`Validator`], as [`crate::stats::StatsCollector`]
//! does); [`tag_record`] names a built record.
//!
//! ```
//! use kifu::read::Reader;
//! use kifu::tags::{Collector, Taxonomy};
//!
//! let usi = "position startpos moves 7g7f 3c3d 2h7h 8b2b\n";
//! let mut reader = Reader::new(usi.as_bytes()).unwrap();
//! let tax = Taxonomy::builtin();
//! let mut collector = Collector::new(tax);
//! let game = reader.read_game(&mut collector).unwrap();
//! let name = |f: &kifu::tags::Found| tax.get(f.tag).id.clone();
//! assert_eq!(game.tags.sides[0].openings.iter().map(name).collect::<Vec<_>>(), ["third_file_rook"]);
//! ```

pub mod rule;
mod tagger;
mod taxonomy;

pub use rule::{Pattern, PatternError, PatternErrorKind};
pub use tagger::{Found, GameTags, SideTags, Tagger};
pub use taxonomy::{
    Entry, Kind, LoadError, TagId, TagIter, TagSet, Taxonomy, TaxonomyError, TaxonomyErrorKind,
    COLUMNS, MAX_ENTRIES, MAX_NAME_CHARS, MAX_TAXONOMY_BYTES,
};

use crate::read::{Finding, Flow, MoveEvent, Visitor};
use crate::record::{HeaderKey, Location, MoveTime, Record, ResultClaim, Start, TerminalKind};
use crate::rules::Position;
use crate::validate::{GameReport, ValidateOptions, Validator};

/// What [`Collector`] makes of a game.
#[derive(Clone, Debug)]
pub struct Tagged {
    /// The names found.
    pub tags: GameTags,
    /// The record's own opening header (KIF `戦型`, CSA `$OPENING`, PSN
    /// `[Opening]`), as written.
    pub opening_header: Option<String>,
    /// The validator's report on the game.
    pub report: GameReport,
}

/// A [`Visitor`] that names each game's openings and castles as it is
/// read: it plays the game through a [`Validator`] and feeds the main line
/// to a [`Tagger`].
#[derive(Debug)]
pub struct Collector<'t> {
    validator: Validator,
    tagger: Tagger<'t>,
    depth: usize,
    opening_header: Option<String>,
}

impl<'t> Collector<'t> {
    /// A collector naming from `tax`.
    pub fn new(tax: &'t Taxonomy) -> Collector<'t> {
        Collector {
            validator: Validator::new(ValidateOptions::default())
                .with_final_sfen(false)
                .with_game_key(false),
            tagger: Tagger::new(tax),
            depth: 0,
            opening_header: None,
        }
    }

    /// The validator the game is played through.
    pub fn validator(&self) -> &Validator {
        &self.validator
    }
}

impl Visitor for Collector<'_> {
    type Output = Tagged;

    fn begin_game(&mut self, index: usize) -> Flow {
        self.depth = 0;
        self.opening_header = None;
        self.tagger.begin_even();
        self.validator.begin_game(index)
    }

    fn finding(&mut self, finding: Finding) -> Flow {
        self.validator.finding(finding)
    }

    fn header(&mut self, key: &HeaderKey, value: &str, at: Location) -> Flow {
        if *key == HeaderKey::Opening && self.opening_header.is_none() {
            self.opening_header = Some(value.to_string());
        }
        self.validator.header(key, value, at)
    }

    fn start(&mut self, start: &Start) -> Flow {
        self.tagger.begin(&start.setup, start.handicap);
        self.validator.start(start)
    }

    fn comment(&mut self, text: &str, at: Location) -> Flow {
        self.validator.comment(text, at)
    }

    fn movement(&mut self, mv: &MoveEvent<'_>) -> Flow {
        let flow = self.validator.movement(mv);
        if self.depth == 0 && self.tagger.wants_moves() {
            if let Some(p) = self.validator.last_played() {
                self.tagger
                    .played(self.validator.position(), p.mv, p.role, p.captured);
            }
        }
        flow
    }

    fn time(&mut self, time: MoveTime, at: Location) -> Flow {
        self.validator.time(time, at)
    }

    fn begin_variation(&mut self, ply: u32, at: Location) -> Flow {
        self.depth += 1;
        self.validator.begin_variation(ply, at)
    }

    fn end_variation(&mut self) -> Flow {
        self.depth = self.depth.saturating_sub(1);
        self.validator.end_variation()
    }

    fn terminal(&mut self, kind: &TerminalKind, at: Location) -> Flow {
        self.validator.terminal(kind, at)
    }

    fn claim(&mut self, claim: &ResultClaim) -> Flow {
        self.validator.claim(claim)
    }

    fn end_game(&mut self) -> Tagged {
        Tagged {
            tags: self.tagger.finish(),
            opening_header: self.opening_header.take(),
            report: self.validator.end_game(),
        }
    }
}

/// Names the openings and castles of a built record: its main line is
/// played from its start up to the first move that is not legal.
pub fn tag_record(record: &Record, tax: &Taxonomy) -> GameTags {
    let mut tagger = Tagger::new(tax);
    tagger.begin(&record.start.setup, record.start.handicap);
    let mut pos = Position::from_setup_unchecked(&record.start.setup);
    for node in &record.main.moves {
        if !tagger.wants_moves() {
            break;
        }
        let Some(role) = pos.moving_role(node.mv) else {
            break;
        };
        let captured = pos.captured(node.mv).map(|p| p.role);
        if pos.play(node.mv).is_err() {
            break;
        }
        tagger.played(&pos, node.mv, role, captured);
    }
    tagger.finish()
}

/// The header [`annotate`] writes sente's castle under (KIF `先手の囲い：`).
pub const SENTE_CASTLE: &str = "先手の囲い";
/// The header [`annotate`] writes gote's castle under.
pub const GOTE_CASTLE: &str = "後手の囲い";

/// Writes the names found in `record`'s main line into its header, in
/// Japanese: the opening ([`HeaderKey::Opening`]: KIF/KI2 and JKF `戦型`,
/// CSA `$OPENING`, PSN `[Opening]`) and each side's castle
/// ([`SENTE_CASTLE`], [`GOTE_CASTLE`]). Each side's most specific name is
/// written; the opening is `X対Y` when the two sides have different ones
/// (sente's first), else the one name. A header the record already has is
/// kept unless `overwrite`; a name not found writes nothing. Returns the
/// number of headers written. (CSA has no field for a castle: its writer
/// counts them as dropped headers.)
pub fn annotate(record: &mut Record, tax: &Taxonomy, overwrite: bool) -> usize {
    let tags = tag_record(record, tax);
    let first = |side: usize, kind: Kind| {
        tags.sides[side]
            .of(kind)
            .first()
            .map(|f| tax.get(f.tag).ja.clone())
    };
    let opening = match (first(0, Kind::Opening), first(1, Kind::Opening)) {
        (Some(a), Some(b)) if a != b => Some(format!("{a}対{b}")),
        (Some(a), _) | (None, Some(a)) => Some(a),
        (None, None) => None,
    };
    let mut written = 0;
    for (key, value) in [
        (HeaderKey::Opening, opening),
        (
            HeaderKey::Other(SENTE_CASTLE.to_string()),
            first(0, Kind::Castle),
        ),
        (
            HeaderKey::Other(GOTE_CASTLE.to_string()),
            first(1, Kind::Castle),
        ),
    ] {
        let Some(value) = value else { continue };
        let entries = &mut record.header.entries;
        match entries.iter().position(|(k, _)| *k == key) {
            Some(_) if !overwrite => continue,
            Some(i) => {
                entries[i].1 = value;
                // One value per key: later ones would contradict it.
                let mut n = 0;
                entries.retain(|(k, _)| {
                    n += usize::from(*k == key);
                    *k != key || n == 1
                });
            }
            None => entries.push((key, value)),
        }
        written += 1;
    }
    written
}
