//! The criteria games are selected by, each parsed from the text a user
//! gives (`FromStr`), so that a filter that exists is well-formed.

use super::date::{DateBound, DateSpan};
use super::text::{fold_into, Needle};
use crate::record::Outcome;
use crate::rules::handicap::{Handicap, HANDICAPS};
use crate::rules::moves::Move;
use crate::rules::position::Position;
use crate::rules::setup::Setup;
use crate::rules::variant::Variant;
use std::fmt;
use std::str::FromStr;

/// Every game result `--result` takes.
pub const RESULTS: [Outcome; 5] = [
    Outcome::SenteWin,
    Outcome::GoteWin,
    Outcome::Draw,
    Outcome::Aborted,
    Outcome::Unknown,
];

/// The outcome named `sente_win`, `gote_win`, `draw`, `aborted` or
/// `unknown` (case and `-`/`_` do not matter).
pub fn parse_outcome(s: &str) -> Result<Outcome, String> {
    let n = s.trim().to_ascii_lowercase().replace('-', "_");
    RESULTS.into_iter().find(|o| o.name() == n).ok_or_else(|| {
        format!("unknown result `{s}` (expected sente_win, gote_win, draw, aborted or unknown)")
    })
}

/// Every end reason the validator reports (`result.reason` in
/// `validate --format json`, the `reason` column of `kifu stats`).
pub const REASONS: [&str; 20] = [
    "resign",
    "checkmate",
    "time-up",
    "repetition",
    "perpetual-check",
    "impasse",
    "declaration",
    "declaration-draw",
    "illegal-move",
    "abort",
    "max-moves",
    "try",
    "king-capture",
    "no-legal-moves",
    "no-mate",
    "sealed",
    "matta",
    "error",
    "default",
    "draw",
];

/// An end reason (one of [`REASONS`]; case and `-`/`_` do not matter).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Reason(&'static str);

impl Reason {
    /// The reason's name as reports write it.
    pub fn name(self) -> &'static str {
        self.0
    }
}

impl FromStr for Reason {
    type Err = String;
    fn from_str(s: &str) -> Result<Reason, String> {
        let n = s.trim().to_ascii_lowercase().replace('_', "-");
        REASONS
            .iter()
            .find(|r| **r == n)
            .map(|r| Reason(r))
            .ok_or_else(|| {
                format!(
                    "unknown reason `{s}` (expected one of {})",
                    REASONS.join(", ")
                )
            })
    }
}

/// A start to select: a standard handicap (the even game included), or
/// `other` for a standard-shogi start that is none of them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum StartKind {
    /// This standard start.
    Handicap(Handicap),
    /// A standard-shogi start that is no standard handicap (a problem, a
    /// position set up mid-game).
    Other,
}

/// The id of a handicap in `--handicap` and the docs: its English name in
/// lower case with hyphens (`right-lance`, `2-piece`, `rook-and-lance`).
pub fn handicap_id(h: Handicap) -> String {
    h.info().english.replace(' ', "-")
}

/// Folds a handicap name for comparison: NFKC, lower case, without spaces,
/// hyphens and underscores, digits spelled as numbers.
fn handicap_fold(s: &str) -> String {
    let mut f = String::new();
    fold_into(s, &mut f);
    let f: String = f.chars().filter(|c| !matches!(c, '-' | '_')).collect();
    [
        ("two", "2"),
        ("three", "3"),
        ("four", "4"),
        ("five", "5"),
        ("six", "6"),
        ("seven", "7"),
        ("eight", "8"),
        ("ten", "10"),
        ("二", "2"),
        ("三", "3"),
        ("四", "4"),
        ("五", "5"),
        ("六", "6"),
        ("七", "7"),
        ("八", "8"),
        ("十", "10"),
    ]
    .iter()
    .fold(f, |f, (w, d)| f.replace(w, d))
}

impl FromStr for StartKind {
    type Err = String;
    fn from_str(s: &str) -> Result<StartKind, String> {
        let n = handicap_fold(s);
        if n == "other" || n == "その他" {
            return Ok(StartKind::Other);
        }
        let found = HANDICAPS.iter().find(|h| {
            let ja = handicap_fold(h.japanese);
            n == ja
                || n == ja.trim_end_matches('ち')
                || n == handicap_fold(h.english)
                || n == handicap_fold(h.jkf)
                || (h.handicap == Handicap::RookLance && n == "rooklance")
                || (h.handicap == Handicap::Even && (n == "hirate" || n == "none"))
        });
        match found {
            Some(h) => Ok(StartKind::Handicap(h.handicap)),
            None => Handicap::from_name(s).map(StartKind::Handicap).ok_or_else(|| {
                format!(
                    "unknown handicap `{s}` (expected a Japanese name such as 香落ち or 二枚落ち, an id such as {}, or other)",
                    HANDICAPS
                        .iter()
                        .map(|h| handicap_id(h.handicap))
                        .collect::<Vec<_>>()
                        .join(", ")
                )
            }),
        }
    }
}

impl fmt::Display for StartKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StartKind::Handicap(h) => f.write_str(h.info().japanese),
            StartKind::Other => f.write_str("other"),
        }
    }
}

/// The first moves a main line must start with (`--moves "7g7f 3c3d"`),
/// parsed once for each variant.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MovePrefix {
    text: String,
    /// The moves in each variant (`Variant::ALL` order); `None` where a
    /// token is no move of that variant.
    by_variant: [Option<Vec<Move>>; 3],
}

impl MovePrefix {
    /// The moves for games of `v`, `None` when the text names no moves of
    /// that variant (such games never match).
    pub fn moves(&self, v: Variant) -> Option<&[Move]> {
        let i = Variant::ALL.iter().position(|x| *x == v)?;
        self.by_variant[i].as_deref()
    }

    /// The text as given.
    pub fn as_given(&self) -> &str {
        &self.text
    }
}

impl FromStr for MovePrefix {
    type Err = String;
    fn from_str(s: &str) -> Result<MovePrefix, String> {
        let tokens: Vec<&str> = s
            .split(|c: char| c.is_whitespace() || c == ',')
            .filter(|t| !t.is_empty())
            .collect();
        if tokens.is_empty() {
            return Err("no move given (expected USI moves such as \"7g7f 3c3d\")".into());
        }
        let by_variant = Variant::ALL.map(|v| {
            tokens
                .iter()
                .map(|t| Move::from_usi(t, v))
                .collect::<Option<Vec<Move>>>()
        });
        if by_variant.iter().all(Option::is_none) {
            let bad = tokens
                .iter()
                .find(|t| Variant::ALL.iter().all(|v| Move::from_usi(t, *v).is_none()))
                .unwrap_or(&tokens[0]);
            return Err(format!(
                "`{bad}` is not a USI move (expected moves such as 7g7f, 8h2b+ or P*5e)"
            ));
        }
        Ok(MovePrefix {
            text: s.to_string(),
            by_variant,
        })
    }
}

/// A position to find in the main lines (`--position`, `--position-board`),
/// found by its Zobrist key and confirmed square by square.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PositionQuery {
    setup: Setup,
    board_only: bool,
    key: u64,
}

impl PositionQuery {
    /// Board, hands and side to move (the move number is ignored): a full
    /// SFEN, `sfen ` prefix and move number optional.
    pub fn full(sfen: &str) -> Result<PositionQuery, String> {
        let setup = crate::rules::sfen::parse_sfen(sfen, None).map_err(|e| e.to_string())?;
        let key = Position::from_setup_unchecked(&setup).hash();
        Ok(PositionQuery {
            setup,
            board_only: false,
            key,
        })
    }

    /// The board alone: an SFEN board field, or a full SFEN whose side to
    /// move, hands and move number are ignored.
    pub fn board(sfen: &str) -> Result<PositionQuery, String> {
        let t = sfen.trim();
        let t = t.strip_prefix("sfen ").unwrap_or(t).trim();
        let one_field = !t.contains([' ', '_']);
        let text = if one_field {
            format!("{t} b -")
        } else {
            t.to_string()
        };
        let setup = crate::rules::sfen::parse_sfen(&text, None).map_err(|e| e.to_string())?;
        let key = Position::from_setup_unchecked(&setup).board_hash();
        Ok(PositionQuery {
            setup,
            board_only: true,
            key,
        })
    }

    /// The variant of the position (from the board's size).
    pub fn variant(&self) -> Variant {
        self.setup.variant
    }

    /// Whether only the board is compared.
    pub fn board_only(&self) -> bool {
        self.board_only
    }

    /// Whether `pos` is the position: one integer comparison, then (only
    /// when the keys agree) the squares, hands and side.
    #[inline]
    pub fn matches(&self, pos: &Position) -> bool {
        let key = if self.board_only {
            pos.board_hash()
        } else {
            pos.hash()
        };
        key == self.key && self.confirm(pos)
    }

    #[cold]
    fn confirm(&self, pos: &Position) -> bool {
        let s = pos.to_setup();
        s.variant == self.setup.variant
            && s.board == self.setup.board
            && (self.board_only || (s.hands == self.setup.hands && s.turn == self.setup.turn))
    }
}

/// Which games to keep. Every criterion that is set must hold (AND);
/// within one criterion, repeated text criteria must all hold, and
/// repeated results, reasons, handicaps and variants are alternatives
/// (OR). The default filter keeps every game.
///
/// ```
/// use kifu::read::Reader;
/// use kifu::replay::Replay;
/// use kifu::select::{Filter, Selector};
/// use kifu::validate::ValidateOptions;
///
/// let mut f = Filter::default();
/// f.player.push("ｈａｒｕｎｏ".parse().unwrap());
/// f.moves = Some("7g7f 3c3d".parse().unwrap());
/// let csa = "N+Haruno\nN-Akikawa\nPI\n+\n+7776FU\n-3334FU\n%TORYO\n";
/// let mut reader = Reader::new(csa.as_bytes()).unwrap();
/// let mut sel = Replay::new(ValidateOptions::default(), Selector::new(&f));
/// let game = reader.read_game(&mut sel).unwrap();
/// assert!(game.output.matched);
/// assert_eq!(game.report.plies, 2);
/// ```
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Filter {
    /// Either player's name contains each of these.
    pub player: Vec<Needle>,
    /// Sente's (下手's) name contains each of these.
    pub sente: Vec<Needle>,
    /// Gote's (上手's) name contains each of these.
    pub gote: Vec<Needle>,
    /// The event contains each of these.
    pub event: Vec<Needle>,
    /// The date is on or after this bound's first day.
    pub since: Option<DateBound>,
    /// The date is on or before this bound's last day.
    pub until: Option<DateBound>,
    /// The result is one of these.
    pub result: Vec<Outcome>,
    /// The end reason is one of these.
    pub reason: Vec<Reason>,
    /// The start is one of these.
    pub handicap: Vec<StartKind>,
    /// The variant is one of these.
    pub variant: Vec<Variant>,
    /// At least this many main-line plies.
    pub min_plies: Option<u32>,
    /// At most this many main-line plies.
    pub max_plies: Option<u32>,
    /// The main line starts with these moves.
    pub moves: Option<MovePrefix>,
    /// The main line reaches this position.
    pub position: Option<PositionQuery>,
    /// `Some(true)`: no error finding; `Some(false)`: at least one.
    pub valid: Option<bool>,
    /// Names (openings, castles, styles) the game must have, each with
    /// its descendants: every set must hold a name of either side or the
    /// game's style ([`crate::tags::GameTags::any_in`]), as the built-in
    /// taxonomy finds them.
    pub tags: Vec<crate::tags::TagSet>,
    /// Both players are rated at least this much
    /// ([`crate::record::players`]); a game where a player has no rating
    /// does not match.
    pub min_rating: Option<f64>,
    /// Both players are rated at most this much; a game where a player
    /// has no rating does not match.
    pub max_rating: Option<f64>,
    /// `--pattern`: partial positions the main line must reach (each
    /// at some ply of the range; [`super::pattern`]). Games of a variant
    /// never match one.
    pub pattern: super::PatternFilter,
}

// The rating bounds are finite numbers (the command refuses others), so
// equality is reflexive.
impl Eq for Filter {}

impl Filter {
    /// Whether the filter keeps every game.
    pub fn is_empty(&self) -> bool {
        *self == Filter::default()
    }

    /// Whether a criterion is decided by the header and start alone
    /// (players, event, dates, handicap, variant).
    pub fn has_header_criteria(&self) -> bool {
        !(self.player.is_empty()
            && self.sente.is_empty()
            && self.gote.is_empty()
            && self.event.is_empty()
            && self.since.is_none()
            && self.until.is_none()
            && self.handicap.is_empty()
            && self.variant.is_empty())
    }

    /// Whether moves must be followed (`moves`, `position`, `tags`,
    /// `pattern`).
    pub fn follows_moves(&self) -> bool {
        self.moves.is_some()
            || self.position.is_some()
            || !self.tags.is_empty()
            || !self.pattern.patterns.is_empty()
    }

    /// Whether a game with these header facts can match.
    pub fn header_matches(&self, info: &GameInfo) -> bool {
        fn contains_all(needles: &[Needle], texts: &[&str]) -> bool {
            if needles.is_empty() {
                return true;
            }
            // Each value folded once for every needle, up to the cap.
            let folded: Vec<String> = texts
                .iter()
                .map(|t| super::text::fold(super::text::matched_part(t)))
                .collect();
            needles.iter().all(|n| folded.iter().any(|t| n.is_in(t)))
        }
        if !contains_all(&self.sente, &[&info.sente])
            || !contains_all(&self.gote, &[&info.gote])
            || !contains_all(&self.player, &[&info.sente, &info.gote])
            || !contains_all(&self.event, &[&info.event])
        {
            return false;
        }
        if self.since.is_some() || self.until.is_some() {
            let Some(span) = DateSpan::parse(&info.start_time) else {
                return false;
            };
            if self.since.is_some_and(|b| span.first < b.0.first)
                || self.until.is_some_and(|b| span.last > b.0.last)
            {
                return false;
            }
        }
        if !self.variant.is_empty() && !self.variant.contains(&info.variant) {
            return false;
        }
        if !self.handicap.is_empty() {
            let kind = match (info.variant, info.handicap) {
                (Variant::Standard, Some(h)) => Some(StartKind::Handicap(h)),
                (Variant::Standard, None) => Some(StartKind::Other),
                _ => None,
            };
            if !kind.is_some_and(|k| self.handicap.contains(&k)) {
                return false;
            }
        }
        if let Some(q) = &self.position {
            if q.variant() != info.variant {
                return false;
            }
        }
        true
    }
}

/// What the header and start say about a game (first value of each key).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameInfo {
    /// Sente's (下手's) name.
    pub sente: String,
    /// Gote's (上手's) name.
    pub gote: String,
    /// The event.
    pub event: String,
    /// The start date/time as written.
    pub start_time: String,
    /// The variant.
    pub variant: Variant,
    /// The standard start, when it is one.
    pub handicap: Option<Handicap>,
    /// The players' ratings and ranks.
    pub players: crate::record::players::Players,
}

impl Default for GameInfo {
    fn default() -> GameInfo {
        GameInfo {
            sente: String::new(),
            gote: String::new(),
            event: String::new(),
            start_time: String::new(),
            variant: Variant::Standard,
            handicap: Some(Handicap::Even),
            players: Default::default(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn handicaps_by_every_name() {
        let lance = Ok(StartKind::Handicap(Handicap::Lance));
        for s in ["香落ち", "香落", "lance", "LANCE", "KY", "ｋｙ"] {
            assert_eq!(s.parse::<StartKind>(), lance, "{s}");
        }
        let two = Ok(StartKind::Handicap(Handicap::TwoPiece));
        for s in [
            "二枚落ち",
            "2-piece",
            "two-piece",
            "2_piece",
            "Two Piece",
            "２枚落ち",
        ] {
            assert_eq!(s.parse::<StartKind>(), two, "{s}");
        }
        assert_eq!(
            "rook-and-lance".parse::<StartKind>(),
            Ok(StartKind::Handicap(Handicap::RookLance))
        );
        assert_eq!(
            "rook-lance".parse::<StartKind>(),
            Ok(StartKind::Handicap(Handicap::RookLance))
        );
        assert_eq!(
            "left-5-piece".parse::<StartKind>(),
            Ok(StartKind::Handicap(Handicap::LeftFivePiece))
        );
        assert_eq!(
            "even".parse::<StartKind>(),
            Ok(StartKind::Handicap(Handicap::Even))
        );
        assert_eq!("平手".parse::<StartKind>(), "even".parse::<StartKind>());
        assert_eq!("other".parse::<StartKind>(), Ok(StartKind::Other));
        assert!("queen".parse::<StartKind>().is_err());
        for h in Handicap::all() {
            assert_eq!(
                handicap_id(h).parse::<StartKind>(),
                Ok(StartKind::Handicap(h))
            );
            assert_eq!(
                h.info().japanese.parse::<StartKind>(),
                Ok(StartKind::Handicap(h))
            );
        }
    }

    #[test]
    fn results_reasons_and_moves_parse_or_say_why() {
        assert_eq!(parse_outcome("sente-win"), Ok(Outcome::SenteWin));
        assert!(parse_outcome("black_win").is_err());
        assert_eq!("TIME_UP".parse::<Reason>().map(Reason::name), Ok("time-up"));
        assert!("resignation".parse::<Reason>().is_err());
        let p: MovePrefix = "7g7f, 3c3d P*5e".parse().unwrap();
        assert_eq!(p.moves(Variant::Standard).unwrap().len(), 3);
        assert!("7g7f 9z9z".parse::<MovePrefix>().is_err());
        assert!("".parse::<MovePrefix>().is_err());
    }

    #[test]
    fn positions_ignore_the_move_number_and_boards_ignore_the_rest() {
        let start = Position::new(Variant::Standard);
        let full =
            PositionQuery::full("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 57")
                .unwrap();
        assert!(full.matches(&start));
        let white = PositionQuery::full(
            "sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w -",
        )
        .unwrap();
        assert!(!white.matches(&start));
        let board =
            PositionQuery::board("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL")
                .unwrap();
        assert!(board.matches(&start));
        let board_w = PositionQuery::board(
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w 2P 9",
        )
        .unwrap();
        assert!(board_w.matches(&start));
        assert!(PositionQuery::full("lnsgkgsnl/1r5b1").is_err());
    }
}
