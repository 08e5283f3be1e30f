//! The three file layouts, their record sizes and their fields as numpy
//! dtypes (cshogi's and dlshogi's names), for programs that map the files
//! or the buffers [`crate::export`] fills.

use std::fmt;
use std::str::FromStr;

/// A training-data layout: little-endian, packed, no header.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Layout {
    /// `.hcpe`: one [`HCPE_SIZE`]-byte record per position
    /// (cshogi's `HuffmanCodedPosAndEval`).
    Hcpe,
    /// `.psv`: one [`PSV_SIZE`]-byte record per position (YaneuraOu's
    /// `PackedSfenValue`).
    Psv,
    /// `.hcpe3`: per game a [`HCPE3_HEADER_SIZE`]-byte header, then per
    /// move a [`HCPE3_MOVE_SIZE`]-byte move and its candidates of
    /// [`HCPE3_CANDIDATE_SIZE`] bytes (dlshogi's `HuffmanCodedPosAndEval3`,
    /// `MoveInfo`, `MoveVisits`).
    Hcpe3,
}

/// Bytes of a `.hcpe` record: hcp 32, eval i16, bestMove16 i16,
/// gameResult i8, padding.
pub const HCPE_SIZE: usize = 38;
/// Bytes of a `.psv` record: sfen 32, score i16, move u16, gamePly u16,
/// game_result i8, padding.
pub const PSV_SIZE: usize = 40;
/// Bytes of a `.hcpe3` game header: hcp 32, moveNum u16, result u8,
/// opponent u8.
pub const HCPE3_HEADER_SIZE: usize = 36;
/// Bytes of a `.hcpe3` move: selectedMove16 i16, eval i16, candidateNum u16.
pub const HCPE3_MOVE_SIZE: usize = 6;
/// Bytes of a `.hcpe3` candidate: move16 i16, visitNum u16.
pub const HCPE3_CANDIDATE_SIZE: usize = 4;
/// Bytes kifu writes per `.hcpe3` move: the move and its one candidate.
pub const HCPE3_MOVE_WITH_CANDIDATE: usize = HCPE3_MOVE_SIZE + HCPE3_CANDIDATE_SIZE;

/// The most moves one `.hcpe3` header counts (`moveNum` is a u16). A
/// longer game is written as consecutive `.hcpe3` games of at most this
/// many moves, each from the position where the one before stopped and
/// with the game's result, so that every header agrees with its body.
pub const HCPE3_MAX_MOVES: u32 = u16::MAX as u32;

/// The `.hcpe3` result bit for a repetition (千日手).
pub const HCPE3_REPETITION: u8 = 4;
/// The `.hcpe3` result bit for an entering-king declaration (入玉宣言).
pub const HCPE3_DECLARATION: u8 = 8;
/// The `.hcpe3` result bit for 持将棋 / the move limit.
pub const HCPE3_IMPASSE: u8 = 16;

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
pub const HCPE_FIELDS: [Field; 5] = [
    f("hcp", "u1", 32, 0),
    f("eval", "<i2", 1, 32),
    f("bestMove16", "<i2", 1, 34),
    f("gameResult", "i1", 1, 36),
    f("dummy", "u1", 1, 37),
];

/// The fields of a `.psv` record (cshogi's `PackedSfenValue`).
pub const PSV_FIELDS: [Field; 6] = [
    f("sfen", "u1", 32, 0),
    f("score", "<i2", 1, 32),
    f("move", "<u2", 1, 34),
    f("gamePly", "<u2", 1, 36),
    f("game_result", "i1", 1, 38),
    f("padding", "u1", 1, 39),
];

/// The fields of a `.hcpe3` game header (dlshogi's
/// `HuffmanCodedPosAndEval3`).
pub const HCPE3_HEADER_FIELDS: [Field; 4] = [
    f("hcp", "u1", 32, 0),
    f("moveNum", "<u2", 1, 32),
    f("result", "u1", 1, 34),
    f("opponent", "u1", 1, 35),
];

/// The fields of a `.hcpe3` move (dlshogi's `MoveInfo`).
pub const HCPE3_MOVE_FIELDS: [Field; 3] = [
    f("selectedMove16", "<i2", 1, 0),
    f("eval", "<i2", 1, 2),
    f("candidateNum", "<u2", 1, 4),
];

/// The fields of a `.hcpe3` candidate (dlshogi's `MoveVisits`).
pub const HCPE3_CANDIDATE_FIELDS: [Field; 2] =
    [f("move16", "<i2", 1, 0), f("visitNum", "<u2", 1, 2)];

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

    /// The size of a record, for the layouts of fixed-size records.
    pub fn record_size(self) -> Option<usize> {
        match self {
            Layout::Hcpe => Some(HCPE_SIZE),
            Layout::Psv => Some(PSV_SIZE),
            Layout::Hcpe3 => None,
        }
    }

    /// The fields of a record (of the header, for `.hcpe3`).
    pub fn fields(self) -> &'static [Field] {
        match self {
            Layout::Hcpe => &HCPE_FIELDS,
            Layout::Psv => &PSV_FIELDS,
            Layout::Hcpe3 => &HCPE3_HEADER_FIELDS,
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
    /// ends, and the last ends at the record's size.
    #[test]
    fn fields_tile_the_records() {
        let size = |d: &str| if d.ends_with('2') { 2 } else { 1 };
        for (fields, total) in [
            (&HCPE_FIELDS[..], HCPE_SIZE),
            (&PSV_FIELDS[..], PSV_SIZE),
            (&HCPE3_HEADER_FIELDS[..], HCPE3_HEADER_SIZE),
            (&HCPE3_MOVE_FIELDS[..], HCPE3_MOVE_SIZE),
            (&HCPE3_CANDIDATE_FIELDS[..], HCPE3_CANDIDATE_SIZE),
        ] {
            let mut at = 0;
            for x in fields {
                assert_eq!(x.offset, at, "{}", x.name);
                at += x.count * size(x.dtype);
            }
            assert_eq!(at, total);
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
