//! The players' ratings and ranks, as records write them: the one place
//! that reads them, for `kifu stats` (`sente_rating`, `gote_rating`,
//! `sente_rank`, `gote_rank`), the rating filters of every reading command
//! ([`crate::select::Filter::min_rating`]) and `kifu export --min-rating`.
//!
//! Ratings (numbers):
//! * CSA comments `'black_rate:NAME:3382.0` and `'white_rate:…` (floodgate);
//! * header keys naming a side and a rating: `先手レーティング`, `後手レート`,
//!   `下手R`, `上手の レーティング`, `SenteRating`, `black_rate`, `WhiteElo`, …
//!   (side: 先手/下手/▲/sente/black for sente, 後手/上手/△/gote/white for
//!   gote; rating: レーティング, レート, R, rating, rate, elo; case ignored).
//!
//! Ranks (text, as written: `4D`, `10K`, `三段`):
//! * a name's bracketed suffix, as Shogi Wars writes it: `amaidel[4D]`,
//!   `name[10K]`, `name[初段]`;
//! * a name's last word when it is a dan or kyu: `鈴木大介 九段`;
//! * header keys naming a side and a rank: `先手段級`, `後手段位`,
//!   `先手の棋力`, `SenteRank`, … (rank: 段級, 段位, 級位, 棋力, rank, dan),
//!   which win over a name's suffix.
//!
//! The names themselves are never changed (`sente` stays `amaidel[4D]`).

use crate::record::HeaderKey;
use crate::rules::color::Color;

/// The ratings and ranks of a game's two players, sente first.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Players {
    /// Each player's rating, when the record gives one (finite).
    pub rating: [Option<f64>; 2],
    /// Each player's rank as written (`4D`, `三段`), empty when none.
    pub rank: [String; 2],
    /// Which ranks came from a rank header (they win over a name).
    rank_keyed: [bool; 2],
}

// Ratings are finite numbers (`rating_value`), so equality is reflexive.
impl Eq for Players {}

impl Players {
    /// Forgets the previous game's.
    pub fn clear(&mut self) {
        self.rating = [None, None];
        self.rank[0].clear();
        self.rank[1].clear();
        self.rank_keyed = [false, false];
    }

    /// A header entry: a player's name (its rank suffix), or a rating or
    /// rank key. The first value of each counts.
    pub fn header(&mut self, key: &HeaderKey, value: &str) {
        match key {
            HeaderKey::Sente => self.name(0, value),
            HeaderKey::Gote => self.name(1, value),
            HeaderKey::Other(k) => match keyed(k) {
                Some((side, Fact::Rating)) => {
                    self.rating[side] = self.rating[side].or_else(|| rating_value(value));
                }
                Some((side, Fact::Rank)) => {
                    let v = value.trim();
                    if !self.rank_keyed[side] && !v.is_empty() {
                        self.rank[side] = v.to_string();
                        self.rank_keyed[side] = true;
                    }
                }
                None => {}
            },
            _ => {}
        }
    }

    /// A comment line (text after the comment mark): floodgate's
    /// `black_rate:`/`white_rate:` lines.
    pub fn comment(&mut self, text: &str) {
        if let Some((side, r)) = rate_comment(text) {
            self.rating[side] = Some(r);
        }
    }

    fn name(&mut self, side: usize, name: &str) {
        if self.rank_keyed[side] || !self.rank[side].is_empty() {
            return;
        }
        if let Some(r) = rank_of_name(name) {
            self.rank[side] = r.to_string();
        }
    }

    /// The rating of `color`'s player.
    pub fn rating_of(&self, color: Color) -> Option<f64> {
        self.rating[if color == Color::Black { 0 } else { 1 }]
    }

    /// Whether both players are rated within the bounds (each inclusive,
    /// `None` for no bound). With a bound, a game where a player has no
    /// rating does not match.
    pub fn rated_within(&self, min: Option<f64>, max: Option<f64>) -> bool {
        if min.is_none() && max.is_none() {
            return true;
        }
        self.rating
            .iter()
            .all(|r| r.is_some_and(|r| min.is_none_or(|m| r >= m) && max.is_none_or(|m| r <= m)))
    }
}

/// What a header key gives.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Fact {
    Rating,
    Rank,
}

/// The side and fact a header key names (`先手レーティング` → sente's rating).
fn keyed(key: &str) -> Option<(usize, Fact)> {
    const SIDES: [(&str, usize); 10] = [
        ("先手", 0),
        ("下手", 0),
        ("▲", 0),
        ("sente", 0),
        ("black", 0),
        ("後手", 1),
        ("上手", 1),
        ("△", 1),
        ("gote", 1),
        ("white", 1),
    ];
    const FACTS: [(&str, Fact); 12] = [
        ("レーティング", Fact::Rating),
        ("レート", Fact::Rating),
        ("r", Fact::Rating),
        ("rating", Fact::Rating),
        ("rate", Fact::Rating),
        ("elo", Fact::Rating),
        ("段級", Fact::Rank),
        ("段位", Fact::Rank),
        ("級位", Fact::Rank),
        ("棋力", Fact::Rank),
        ("rank", Fact::Rank),
        ("dan", Fact::Rank),
    ];
    if key.len() > 40 {
        return None;
    }
    let key = key.trim().to_ascii_lowercase();
    let (rest, side) = SIDES
        .iter()
        .find_map(|(p, s)| key.strip_prefix(p).map(|r| (r, *s)))?;
    let rest = rest.trim_start_matches(['の', '_', ' ', '\u{3000}', '-']);
    FACTS
        .iter()
        .find(|(w, _)| rest == *w)
        .map(|(_, f)| (side, *f))
}

/// A rating as written: a finite number, after an optional `R`.
fn rating_value(v: &str) -> Option<f64> {
    let v = v.trim();
    let v = v.strip_prefix(['R', 'r']).unwrap_or(v).trim();
    v.parse::<f64>().ok().filter(|r| r.is_finite())
}

/// floodgate's rating comment: `black_rate:NAME:3382.0` gives sente's
/// (index 0) rating, `white_rate:…` gote's.
pub fn rate_comment(text: &str) -> Option<(usize, f64)> {
    let (side, rest) = if let Some(r) = text.strip_prefix("black_rate:") {
        (0, r)
    } else {
        (1, text.strip_prefix("white_rate:")?)
    };
    let (_, value) = rest.rsplit_once(':')?;
    Some((side, rating_value(value)?))
}

/// Whether `s` is a dan or kyu as records write it: `4D`, `10K`, `初段`,
/// `三段`, `十級`, `５級`.
fn is_rank(s: &str) -> bool {
    let b = s.as_bytes();
    if (2..=3).contains(&b.len())
        && matches!(b[b.len() - 1], b'D' | b'K' | b'd' | b'k')
        && b[..b.len() - 1].iter().all(u8::is_ascii_digit)
    {
        return true;
    }
    let Some(num) = s.strip_suffix('段').or_else(|| s.strip_suffix('級')) else {
        return false;
    };
    let n = num.chars().count();
    num == "初"
        || ((1..=3).contains(&n) && num.chars().all(|c| "一二三四五六七八九十".contains(c)))
        || ((1..=2).contains(&n)
            && num
                .chars()
                .all(|c| c.is_ascii_digit() || ('０'..='９').contains(&c)))
}

/// The rank a player's name carries: a bracketed suffix (`name[4D]`,
/// Shogi Wars) or a last word that is a dan or kyu (`鈴木大介 九段`).
pub fn rank_of_name(name: &str) -> Option<&str> {
    let name = name.trim();
    if let Some(inner) = name.strip_suffix(']') {
        let (_, r) = inner.rsplit_once('[')?;
        return is_rank(r).then_some(r);
    }
    let (before, last) = name.rsplit_once([' ', '\u{3000}'])?;
    (!before.trim().is_empty() && is_rank(last)).then_some(last)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranks_from_names() {
        assert_eq!(rank_of_name("amaidel[4D]"), Some("4D"));
        assert_eq!(rank_of_name("x[10K]"), Some("10K"));
        assert_eq!(rank_of_name("x[初段]"), Some("初段"));
        assert_eq!(rank_of_name("鈴木大介 九段"), Some("九段"));
        assert_eq!(rank_of_name("羽生善治　十段"), Some("十段"));
        assert_eq!(rank_of_name("player[abc]"), None);
        assert_eq!(rank_of_name("九段"), None);
        assert_eq!(rank_of_name("John Smith"), None);
        assert_eq!(rank_of_name("[4D]x"), None);
    }

    #[test]
    fn ratings_from_comments_and_headers() {
        let mut p = Players::default();
        p.comment("black_rate:Titanda_L+6b6e:3345.0");
        p.comment("white_rate:a:b:3453");
        p.comment("black_rate:x:nan");
        assert_eq!(p.rating, [Some(3345.0), Some(3453.0)]);
        let mut q = Players::default();
        q.header(&HeaderKey::Other("先手レーティング".into()), "1500");
        q.header(&HeaderKey::Other("上手R".into()), "R1720.5");
        q.header(&HeaderKey::Other("先手段級".into()), "三段");
        q.header(&HeaderKey::Sente, "someone[4D]");
        q.header(&HeaderKey::Gote, "other[2K]");
        q.header(&HeaderKey::Other("SenteElo".into()), "9");
        assert_eq!(q.rating, [Some(1500.0), Some(1720.5)]);
        assert_eq!(q.rank, ["三段".to_string(), "2K".to_string()]);
        assert!(q.rated_within(Some(1500.0), Some(1720.5)));
        assert!(!q.rated_within(Some(1501.0), None));
        assert!(!q.rated_within(None, Some(1720.0)));
        assert!(Players::default().rated_within(None, None));
        assert!(!Players::default().rated_within(Some(0.0), None));
        q.clear();
        assert_eq!(q, Players::default());
    }
}
