//! The names of a game as people read them: each side's openings and
//! castles with the ply each was found, the umbrellas they fall under and
//! the style (`select --format json`'s `names`, the HTML page's header).

use super::tagger::{Found, GameTags};
use super::taxonomy::{TagId, Taxonomy};
use crate::rules::Color;
use serde::Serialize;

/// One name: its id, Japanese and English names and the ply it was first
/// found at (`None` for an umbrella only the game's style gives).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct NameView {
    /// The taxonomy id.
    pub id: String,
    /// The Japanese name.
    pub ja: String,
    /// The English name.
    pub en: String,
    /// The first ply (1-based) at which it was found.
    pub ply: Option<u32>,
}

/// One side's names.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct SideView {
    /// Openings, most specific first.
    pub opening: Vec<NameView>,
    /// Castles, most specific first.
    pub castle: Vec<NameView>,
    /// The umbrellas (`穴熊`, `居飛車`, …) the side's names fall under.
    pub umbrella: Vec<NameView>,
}

/// The names of one game.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct NamesView {
    /// Sente's names.
    pub sente: SideView,
    /// Gote's names.
    pub gote: SideView,
    /// The game's style (even games, once decided).
    pub style: Option<NameView>,
}

impl NamesView {
    /// The names of `tags`, spelled out from `tax`.
    pub fn new(tags: &GameTags, tax: &Taxonomy) -> NamesView {
        let view = |tag: TagId, ply: Option<u32>| {
            let e = tax.get(tag);
            NameView {
                id: e.id.clone(),
                ja: e.ja.clone(),
                en: e.en.clone(),
                ply,
            }
        };
        let list = |found: &[Found]| found.iter().map(|f| view(f.tag, Some(f.ply))).collect();
        let side = |c: Color| {
            let s = tags.side(c);
            SideView {
                opening: list(&s.openings),
                castle: list(&s.castles),
                umbrella: s
                    .implied(tax, tags.style)
                    .into_iter()
                    .map(|(u, ply)| view(u, ply))
                    .collect(),
            }
        };
        NamesView {
            sente: side(Color::Black),
            gote: side(Color::White),
            style: tags.style.map(|s| view(s, None)),
        }
    }

    /// Whether no name was found.
    pub fn is_empty(&self) -> bool {
        self.style.is_none()
            && [&self.sente, &self.gote]
                .iter()
                .all(|s| s.opening.is_empty() && s.castle.is_empty())
    }
}
