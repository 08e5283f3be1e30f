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
//! each kind's window (openings 60 plies, castles 120); a name whose
//! descendant holds at the same ply is not kept then (its descendant
//! is), so a game lists what each side built on the way. Handicap games get openings and castles
//! (no style), other starts castles only, variants
//! nothing. A [`crate::replay::Replay`] runs one tagger per game while the
//! game is read ([`crate::replay::Replay::with_names`]) and hands the
//! names to every observer; [`tag_record`] names a built record.
//!
//! ```
//! use kifu::read::Reader;
//! use kifu::replay::{Ended, Observer, Replay};
//! use kifu::tags::{GameTags, Taxonomy};
//! use kifu::validate::ValidateOptions;
//!
//! /// Keeps the names the replay found.
//! struct Names;
//! impl Observer for Names {
//!     type Output = GameTags;
//!     fn end(&mut self, ended: &Ended<'_>) -> GameTags {
//!         ended.tags.cloned().unwrap_or_default()
//!     }
//! }
//!
//! let usi = "position startpos moves 7g7f 3c3d 2h7h 8b2b\n";
//! let mut reader = Reader::new(usi.as_bytes()).unwrap();
//! let tax = Taxonomy::builtin();
//! let mut replay = Replay::new(ValidateOptions::default(), Names).with_names(Some(tax));
//! let tags = reader.read_game(&mut replay).unwrap().output;
//! let name = |f: &kifu::tags::Found| tax.get(f.tag).id.clone();
//! assert_eq!(tags.sides[0].openings.iter().map(name).collect::<Vec<_>>(), ["third_file_rook"]);
//! ```

pub mod rule;
mod tagger;
mod taxonomy;
mod view;

pub use rule::{Pattern, PatternError, PatternErrorKind};
#[cfg(test)]
pub(crate) use tagger::GAMES_NAMED;
pub use tagger::{Found, GameTags, SideTags, Tagger};
pub use taxonomy::{
    Entry, Kind, LoadError, TagId, TagIter, TagSet, Taxonomy, TaxonomyError, TaxonomyErrorKind,
    COLUMNS, MAX_ENTRIES, MAX_NAME_CHARS, MAX_TAXONOMY_BYTES,
};
pub use view::{NameView, NamesView, SideView};

use crate::record::{HeaderKey, Record};
use crate::rules::Position;

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
