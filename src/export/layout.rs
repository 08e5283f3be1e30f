//! The three file layouts, their record sizes and their fields as numpy
//! dtypes (cshogi's and dlshogi's names), for programs that map the files
//! or the buffers [`crate::export`] fills.

use std::fmt;
use std::str::FromStr;

/// A training-data layout: little-endian, packed, no header.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Layout {
    /// `.hcpe`: one 38-byte record per position (cshogi's
    /// `HuffmanCodedPosAndEval`): hcp 32, eval i16, bestMove16 i16,
    /// gameResult i8, padding.
    Hcpe,
    /// `.psv`: one 40-byte record per position (YaneuraOu's
    /// `PackedSfenValue`): sfen 32, score i16, move u16, gamePly u16,
    /// game_result i8, padding.
    Psv,
    /// `.hcpe3`: per game a 36-byte header (hcp 32, moveNum u16, result
    /// u8, opponent u8), then per move a 6-byte move (selectedMove16 i16,
    /// eval i16, candidateNum u16) and its candidates of 4 bytes (move16
    /// i16, visitNum u16): dlshogi's `HuffmanCodedPosAndEval3`, `MoveInfo`,
    /// `MoveVisits`.
    Hcpe3,
}

/// One field of a record, as numpy describes it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Field {
    /// The name cshogi/dlshogi give it.
    pub name: &'static str,
    /// The numpy type string (`u1`, `<i2`, `<u2`, `i1`).
    pub dtype: &'static str,
    /// Elements (32 for a position code, else 1).
    pub count: usize,
    /// Byte offset in the record.
    pub offset: usize,
}

const fn f(name: &'static str, dtype: &'static str, count: usize, offset: usize) -> Field {
    Field {
        name,
        dtype,
        count,
        offset,
    }
}

/// The fields of a `.hcpe` record (cshogi's `HuffmanCodedPosAndEval`).
const HCPE_FIELDS: [Field; 5] = [
    f("hcp", "u1", 32, 0),
    f("eval", "<i2", 1, 32),
    f("bestMove16", "<i2", 1, 34),
    f("gameResult", "i1", 1, 36),
    f("dummy", "u1", 1, 37),
];

/// The fields of a `.psv` record (cshogi's `PackedSfenValue`).
const PSV_FIELDS: [Field; 6] = [
    f("sfen", "u1", 32, 0),
    f("score", "<i2", 1, 32),
    f("move", "<u2", 1, 34),
    f("gamePly", "<u2", 1, 36),
    f("game_result", "i1", 1, 38),
    f("padding", "u1", 1, 39),
];

/// The fields of a `.hcpe3` game header (dlshogi's
/// `HuffmanCodedPosAndEval3`).
const HCPE3_HEADER_FIELDS: [Field; 4] = [
    f("hcp", "u1", 32, 0),
    f("moveNum", "<u2", 1, 32),
    f("result", "u1", 1, 34),
    f("opponent", "u1", 1, 35),
];

/// The fields of a `.hcpe3` move (dlshogi's `MoveInfo`).
const HCPE3_MOVE_FIELDS: [Field; 3] = [
    f("selectedMove16", "<i2", 1, 0),
    f("eval", "<i2", 1, 2),
    f("candidateNum", "<u2", 1, 4),
];

/// The fields of a `.hcpe3` candidate (dlshogi's `MoveVisits`).
const HCPE3_CANDIDATE_FIELDS: [Field; 2] = [f("move16", "<i2", 1, 0), f("visitNum", "<u2", 1, 2)];

impl Layout {
    /// Every layout.
    pub const ALL: [Layout; 3] = [Layout::Hcpe, Layout::Psv, Layout::Hcpe3];

    /// Its name and file extension: `hcpe`, `psv`, `hcpe3`.
    pub fn name(self) -> &'static str {
        match self {
            Layout::Hcpe => "hcpe",
            Layout::Psv => "psv",
            Layout::Hcpe3 => "hcpe3",
        }
    }

    /// The size of a record, for the layouts of fixed-size records
    /// (`.hcpe` 38, `.psv` 40; `.hcpe3` has none: a header, then moves).
    pub fn record_size(self) -> Option<usize> {
        match self {
            Layout::Hcpe | Layout::Psv => Some(self.move_size()),
            Layout::Hcpe3 => None,
        }
    }

    /// Bytes of a game's header: 36 for `.hcpe3` (see
    /// [`Layout::fields`]), none for the layouts of one record per
    /// position.
    pub fn header_size(self) -> usize {
        match self {
            Layout::Hcpe | Layout::Psv => 0,
            Layout::Hcpe3 => 36,
        }
    }

    /// Bytes kifu writes per main-line move: a record (`.hcpe` 38, `.psv`
    /// 40), or for `.hcpe3` the move (6) and its one candidate (4).
    pub fn move_size(self) -> usize {
        match self {
            Layout::Hcpe => 38,
            Layout::Psv => 40,
            Layout::Hcpe3 => 6 + 4,
        }
    }

    /// The most moves one game of the layout holds: 65,535 for `.hcpe3`
    /// (a header's `moveNum` is a u16; a longer game is written as
    /// consecutive `.hcpe3` games of at most this many moves, each from
    /// the position where the one before stopped and with the game's
    /// result, so that every header agrees with its body); no bound
    /// (`u32::MAX`) for the layouts without a game header.
    pub fn max_game_moves(self) -> u32 {
        match self {
            Layout::Hcpe | Layout::Psv => u32::MAX,
            Layout::Hcpe3 => u16::MAX as u32,
        }
    }

    /// The bits the layout adds to a game's result for how it ended
    /// (`reason`, one of [`crate::validate::REASONS`]): `.hcpe3`'s 4
    /// repetition (千日手), 8 entering-king declaration (入玉宣言), 16
    /// 持将棋 or the move limit; 0 for the other layouts and ends.
    pub fn end_flags(self, reason: Option<&str>) -> u8 {
        if self != Layout::Hcpe3 {
            return 0;
        }
        match reason {
            Some("repetition" | "perpetual-check") => 4,
            Some("declaration") => 8,
            Some("impasse" | "max-moves" | "declaration-draw") => 16,
            _ => 0,
        }
    }

    /// The fields of a record (of the header, for `.hcpe3`), as numpy
    /// describes them (cshogi's and dlshogi's names).
    pub fn fields(self) -> &'static [Field] {
        match self {
            Layout::Hcpe => &HCPE_FIELDS,
            Layout::Psv => &PSV_FIELDS,
            Layout::Hcpe3 => &HCPE3_HEADER_FIELDS,
        }
    }

    /// The fields of a move after the header (`.hcpe3`'s `MoveInfo`);
    /// none for the layouts of one record per position.
    pub fn move_fields(self) -> &'static [Field] {
        match self {
            Layout::Hcpe | Layout::Psv => &[],
            Layout::Hcpe3 => &HCPE3_MOVE_FIELDS,
        }
    }

    /// The fields of a move's candidate (`.hcpe3`'s `MoveVisits`; kifu
    /// writes one per move, the move itself); none for the others.
    pub fn candidate_fields(self) -> &'static [Field] {
        match self {
            Layout::Hcpe | Layout::Psv => &[],
            Layout::Hcpe3 => &HCPE3_CANDIDATE_FIELDS,
        }
    }
}

impl fmt::Display for Layout {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Layout {
    type Err = String;
    fn from_str(s: &str) -> Result<Layout, String> {
        let l = s.trim().to_ascii_lowercase();
        Layout::ALL
            .into_iter()
            .find(|x| x.name() == l)
            .ok_or_else(|| format!("unknown layout `{s}` (expected hcpe, psv or hcpe3)"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The fields tile their records: each starts where the one before
    /// ends, and the last ends at the sizes the layout gives.
    #[test]
    fn fields_tile_the_records() {
        let size = |d: &str| if d.ends_with('2') { 2 } else { 1 };
        let span = |fields: &[Field]| {
            let mut at = 0;
            for x in fields {
                assert_eq!(x.offset, at, "{}", x.name);
                at += x.count * size(x.dtype);
            }
            at
        };
        for l in Layout::ALL {
            let (head, mv, cand) = (
                span(l.fields()),
                span(l.move_fields()),
                span(l.candidate_fields()),
            );
            match l.record_size() {
                Some(n) => {
                    assert_eq!((head, l.header_size(), l.move_size()), (n, 0, n), "{l}");
                }
                None => {
                    assert_eq!((head, mv + cand), (l.header_size(), l.move_size()), "{l}");
                    assert_eq!((mv, cand), (6, 4), "{l}");
                }
            }
        }
    }

    #[test]
    fn names_parse_back() {
        for l in Layout::ALL {
            assert_eq!(l.name().parse::<Layout>(), Ok(l));
        }
        assert!("sfen".parse::<Layout>().is_err());
    }
}
