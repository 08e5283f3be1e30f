//! Standard handicaps (駒落ち): one table with every name a format uses.

use crate::rules::color::Color;
use crate::rules::role::Role;
use crate::rules::setup::Setup;
use crate::rules::sfen::parse_sfen;
use crate::rules::variant::Variant;
use std::fmt;

/// A standard start position of standard shogi: the even game or a handicap.
/// Pieces are removed from White (上手), who moves first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Handicap {
    /// 平手: even game.
    Even,
    /// 香落ち: 1一 lance removed.
    Lance,
    /// 右香落ち: 9一 lance removed.
    RightLance,
    /// 角落ち.
    Bishop,
    /// 飛車落ち.
    Rook,
    /// 飛香落ち: rook and 1一 lance.
    RookLance,
    /// 二枚落ち: rook and bishop.
    TwoPiece,
    /// 三枚落ち: rook, bishop and the 1一 lance (cshogi, python-shogi,
    /// rsshogi); the 9一 board (JKF normalizer, shogiops) is also recognised.
    ThreePiece,
    /// 四枚落ち.
    FourPiece,
    /// 五枚落ち: four-piece plus the 8一 knight.
    FivePiece,
    /// 左五枚落ち: four-piece plus the 2一 knight.
    LeftFivePiece,
    /// 六枚落ち.
    SixPiece,
    /// 左七枚落ち: six-piece plus the 3一 silver.
    LeftSevenPiece,
    /// 右七枚落ち: six-piece plus the 7一 silver.
    RightSevenPiece,
    /// 八枚落ち.
    EightPiece,
    /// 十枚落ち.
    TenPiece,
}

/// One row of the handicap table.
#[derive(Debug)]
pub struct HandicapInfo {
    /// The handicap.
    pub handicap: Handicap,
    /// 手合割 as KIF writes it.
    pub japanese: &'static str,
    /// English name (also accepted by the readers, case-insensitively).
    pub english: &'static str,
    /// JKF preset name.
    pub jkf: &'static str,
    /// CSA `PI` line.
    pub csa_pi: &'static str,
    /// Full SFEN of the start position.
    pub sfen: &'static str,
}

macro_rules! row {
    ($h:ident, $ja:expr, $en:expr, $jkf:expr, $pi:expr, $board:expr, $turn:expr) => {
        HandicapInfo {
            handicap: Handicap::$h,
            japanese: $ja,
            english: $en,
            jkf: $jkf,
            csa_pi: $pi,
            sfen: concat!(
                $board,
                "/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL ",
                $turn,
                " - 1"
            ),
        }
    };
}

/// Every standard start position.
pub static HANDICAPS: [HandicapInfo; 16] = [
    row!(Even, "平手", "even", "HIRATE", "PI", "lnsgkgsnl/1r5b1", "b"),
    row!(
        Lance,
        "香落ち",
        "lance",
        "KY",
        "PI11KY",
        "lnsgkgsn1/1r5b1",
        "w"
    ),
    row!(
        RightLance,
        "右香落ち",
        "right lance",
        "KY_R",
        "PI91KY",
        "1nsgkgsnl/1r5b1",
        "w"
    ),
    row!(
        Bishop,
        "角落ち",
        "bishop",
        "KA",
        "PI22KA",
        "lnsgkgsnl/1r7",
        "w"
    ),
    row!(
        Rook,
        "飛車落ち",
        "rook",
        "HI",
        "PI82HI",
        "lnsgkgsnl/7b1",
        "w"
    ),
    row!(
        RookLance,
        "飛香落ち",
        "rook and lance",
        "HIKY",
        "PI82HI11KY",
        "lnsgkgsn1/7b1",
        "w"
    ),
    row!(
        TwoPiece,
        "二枚落ち",
        "2-piece",
        "2",
        "PI82HI22KA",
        "lnsgkgsnl/9",
        "w"
    ),
    row!(
        ThreePiece,
        "三枚落ち",
        "3-piece",
        "3",
        "PI82HI22KA11KY",
        "lnsgkgsn1/9",
        "w"
    ),
    row!(
        FourPiece,
        "四枚落ち",
        "4-piece",
        "4",
        "PI82HI22KA11KY91KY",
        "1nsgkgsn1/9",
        "w"
    ),
    row!(
        FivePiece,
        "五枚落ち",
        "5-piece",
        "5",
        "PI82HI22KA11KY91KY81KE",
        "2sgkgsn1/9",
        "w"
    ),
    row!(
        LeftFivePiece,
        "左五枚落ち",
        "left 5-piece",
        "5_L",
        "PI82HI22KA11KY91KY21KE",
        "1nsgkgs2/9",
        "w"
    ),
    row!(
        SixPiece,
        "六枚落ち",
        "6-piece",
        "6",
        "PI82HI22KA11KY91KY21KE81KE",
        "2sgkgs2/9",
        "w"
    ),
    row!(
        LeftSevenPiece,
        "左七枚落ち",
        "left 7-piece",
        "7_L",
        "PI82HI22KA11KY91KY21KE81KE31GI",
        "2sgkg3/9",
        "w"
    ),
    row!(
        RightSevenPiece,
        "右七枚落ち",
        "right 7-piece",
        "7_R",
        "PI82HI22KA11KY91KY21KE81KE71GI",
        "3gkgs2/9",
        "w"
    ),
    row!(
        EightPiece,
        "八枚落ち",
        "8-piece",
        "8",
        "PI82HI22KA11KY91KY21KE81KE31GI71GI",
        "3gkg3/9",
        "w"
    ),
    row!(
        TenPiece,
        "十枚落ち",
        "10-piece",
        "10",
        "PI82HI22KA11KY91KY21KE81KE31GI71GI41KI61KI",
        "4k4/9",
        "w"
    ),
];

/// The 三枚落ち board with the 9一 lance removed instead (JKF normalizer,
/// shogiops).
pub const THREE_PIECE_ALT_SFEN: &str =
    "1nsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1";

type Board = ([Option<crate::rules::role::Piece>; 81], Color);

/// The boards of the table (and the alternative 三枚落ち board last), parsed
/// once.
fn table_boards() -> &'static [Board] {
    static BOARDS: std::sync::OnceLock<Vec<Board>> = std::sync::OnceLock::new();
    BOARDS.get_or_init(|| {
        HANDICAPS
            .iter()
            .map(|h| h.sfen)
            .chain(std::iter::once(THREE_PIECE_ALT_SFEN))
            .map(|sfen| {
                let s = parse_sfen(sfen, Some(Variant::Standard)).expect("table SFEN parses");
                (s.board, s.turn)
            })
            .collect()
    })
}

impl Handicap {
    /// Every handicap, the even game first.
    pub fn all() -> impl Iterator<Item = Handicap> {
        HANDICAPS.iter().map(|h| h.handicap)
    }

    /// The table row.
    pub fn info(self) -> &'static HandicapInfo {
        HANDICAPS
            .iter()
            .find(|h| h.handicap == self)
            .expect("every handicap has a row")
    }

    /// The start position.
    pub fn setup(self) -> Setup {
        static SETUPS: std::sync::OnceLock<Vec<Setup>> = std::sync::OnceLock::new();
        let all = SETUPS.get_or_init(|| {
            HANDICAPS
                .iter()
                .map(|h| parse_sfen(h.sfen, Some(Variant::Standard)).expect("table SFEN parses"))
                .collect()
        });
        let i = HANDICAPS
            .iter()
            .position(|h| h.handicap == self)
            .expect("every handicap has a row");
        all[i].clone()
    }

    /// Finds a handicap by its Japanese, English or JKF name (trimmed;
    /// English case-insensitive). Also accepts common alternatives
    /// (`香落`, `平手` spelled `互角`, lishogi's `両香落ち` = 四枚 is not
    /// accepted because it is a different board).
    pub fn from_name(name: &str) -> Option<Handicap> {
        let n = name.trim_matches(|c: char| c.is_whitespace() || c == '\u{3000}');
        let lower = n.to_ascii_lowercase();
        HANDICAPS
            .iter()
            .find(|h| {
                h.japanese == n
                    || h.japanese.trim_end_matches('ち') == n
                    || h.english == lower
                    || h.jkf == n
                    || lower == h.english.replace(' ', "_")
                    || lower == h.english.replace('-', " ")
            })
            .map(|h| h.handicap)
            .or(match n {
                "平手（手合割）" | "hirate" | "HIRATE" => Some(Handicap::Even),
                _ => None,
            })
    }

    /// Recognises a standard start from a setup: board and turn must match
    /// exactly and hands be empty. Both 三枚落ち boards are recognised.
    pub fn detect(setup: &Setup) -> Option<Handicap> {
        if setup.variant != Variant::Standard || setup.hands.iter().any(|h| !h.is_empty()) {
            return None;
        }
        let boards = table_boards();
        let same = |i: usize| boards[i].0 == setup.board && boards[i].1 == setup.turn;
        (0..HANDICAPS.len())
            .find(|&i| same(i))
            .map(|i| HANDICAPS[i].handicap)
            .or_else(|| same(HANDICAPS.len()).then_some(Handicap::ThreePiece))
    }

    /// Impasse points of the pieces removed from White (credited to the
    /// handicap giver by the 24-point rule).
    pub fn removed_points(self) -> u32 {
        let even = Handicap::Even.setup();
        let mine = self.setup();
        let mut pts = 0;
        for i in 0..81 {
            if let (Some(p), None) = (even.board[i], mine.board[i]) {
                if p.color == Color::White && p.role != Role::King {
                    pts += p.role.impasse_points();
                }
            }
        }
        pts
    }
}

impl fmt::Display for Handicap {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.info().japanese)
    }
}
