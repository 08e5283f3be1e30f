//! The three rule sets: standard shogi, minishogi and doubutsu shogi, as data.

use crate::rules::bitboard::Bitboard;
use crate::rules::color::Color;
use crate::rules::role::Role;
use std::fmt;
use std::str::FromStr;

/// A rule set.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Variant {
    /// Standard 9×9 shogi (本将棋), with every handicap.
    #[default]
    Standard,
    /// Minishogi (5五将棋), 5×5.
    Minishogi,
    /// Doubutsu shogi (どうぶつしょうぎ), 3×4.
    Doubutsu,
}

/// How a repetition (千日手) that is not perpetual check ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RepetitionRule {
    /// Draw, but the side that gave check with every move loses.
    DrawUnlessPerpetualCheck,
    /// Sente (Black) loses, but the side that gave perpetual check loses.
    SenteLosesUnlessPerpetualCheck,
    /// Always a draw (no perpetual-check exception).
    Draw,
}

/// The numbers and flags that make a variant.
#[derive(Debug)]
pub struct Rules {
    /// Which variant.
    pub variant: Variant,
    /// Number of files (columns).
    pub files: u8,
    /// Number of ranks (rows).
    pub ranks: u8,
    /// The squares of the board.
    pub board: Bitboard,
    /// Promotion zone of each colour.
    pub zone: [Bitboard; 2],
    /// Roles whose unpromoted piece may not end a board move on the far rank
    /// (pawn, lance; doubutsu's chick), per colour.
    pub last_rank: [Bitboard; 2],
    /// The last two ranks per colour (where an unpromoted knight is dead).
    pub last_two_ranks: [Bitboard; 2],
    /// Whether the dead-piece rule applies to drops.
    pub dead_drops: bool,
    /// Whether nifu and uchifuzume apply.
    pub pawn_drop_rules: bool,
    /// Whether a move may leave one's own king attacked (doubutsu: yes).
    pub self_check_allowed: bool,
    /// Whether capturing the king ends the game (doubutsu).
    pub king_capture_wins: bool,
    /// Whether the try rule applies (doubutsu).
    pub try_rule: bool,
    /// Repetition outcome.
    pub repetition: RepetitionRule,
    /// Roles that may be held in hand.
    pub hand_roles: &'static [Role],
    /// The number of pieces of each unpromoted role in a full set.
    pub set: &'static [(Role, u8)],
    /// The start position as SFEN.
    pub start_sfen: &'static str,
}

const fn rect(files: u8, ranks: u8) -> u128 {
    let mut bb = 0u128;
    let mut f = 0;
    while f < files {
        let mut r = 0;
        while r < ranks {
            bb |= 1u128 << (f as usize * 9 + r as usize);
            r += 1;
        }
        f += 1;
    }
    bb
}

const fn ranks_mask(files: u8, lo: u8, hi: u8) -> u128 {
    // ranks lo..=hi (1-based)
    let mut bb = 0u128;
    let mut f = 0;
    while f < files {
        let mut r = lo;
        while r <= hi {
            bb |= 1u128 << (f as usize * 9 + (r - 1) as usize);
            r += 1;
        }
        f += 1;
    }
    bb
}

static STANDARD: Rules = Rules {
    variant: Variant::Standard,
    files: 9,
    ranks: 9,
    board: Bitboard(rect(9, 9)),
    zone: [Bitboard(ranks_mask(9, 1, 3)), Bitboard(ranks_mask(9, 7, 9))],
    last_rank: [Bitboard(ranks_mask(9, 1, 1)), Bitboard(ranks_mask(9, 9, 9))],
    last_two_ranks: [Bitboard(ranks_mask(9, 1, 2)), Bitboard(ranks_mask(9, 8, 9))],
    dead_drops: true,
    pawn_drop_rules: true,
    self_check_allowed: false,
    king_capture_wins: false,
    try_rule: false,
    repetition: RepetitionRule::DrawUnlessPerpetualCheck,
    hand_roles: &[
        Role::Rook,
        Role::Bishop,
        Role::Gold,
        Role::Silver,
        Role::Knight,
        Role::Lance,
        Role::Pawn,
    ],
    set: &[
        (Role::King, 2),
        (Role::Rook, 2),
        (Role::Bishop, 2),
        (Role::Gold, 4),
        (Role::Silver, 4),
        (Role::Knight, 4),
        (Role::Lance, 4),
        (Role::Pawn, 18),
    ],
    start_sfen: "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
};

static MINISHOGI: Rules = Rules {
    variant: Variant::Minishogi,
    files: 5,
    ranks: 5,
    board: Bitboard(rect(5, 5)),
    zone: [Bitboard(ranks_mask(5, 1, 1)), Bitboard(ranks_mask(5, 5, 5))],
    last_rank: [Bitboard(ranks_mask(5, 1, 1)), Bitboard(ranks_mask(5, 5, 5))],
    last_two_ranks: [Bitboard(ranks_mask(5, 1, 2)), Bitboard(ranks_mask(5, 4, 5))],
    dead_drops: true,
    pawn_drop_rules: true,
    self_check_allowed: false,
    king_capture_wins: false,
    try_rule: false,
    repetition: RepetitionRule::SenteLosesUnlessPerpetualCheck,
    hand_roles: &[
        Role::Rook,
        Role::Bishop,
        Role::Gold,
        Role::Silver,
        Role::Pawn,
    ],
    set: &[
        (Role::King, 2),
        (Role::Rook, 2),
        (Role::Bishop, 2),
        (Role::Gold, 2),
        (Role::Silver, 2),
        (Role::Pawn, 2),
    ],
    start_sfen: "rbsgk/4p/5/P4/KGSBR b - 1",
};

static DOUBUTSU: Rules = Rules {
    variant: Variant::Doubutsu,
    files: 3,
    ranks: 4,
    board: Bitboard(rect(3, 4)),
    zone: [Bitboard(ranks_mask(3, 1, 1)), Bitboard(ranks_mask(3, 4, 4))],
    last_rank: [Bitboard(ranks_mask(3, 1, 1)), Bitboard(ranks_mask(3, 4, 4))],
    last_two_ranks: [Bitboard(0), Bitboard(0)],
    dead_drops: false,
    pawn_drop_rules: false,
    self_check_allowed: true,
    king_capture_wins: true,
    try_rule: true,
    repetition: RepetitionRule::Draw,
    hand_roles: &[Role::Giraffe, Role::Elephant, Role::Pawn],
    set: &[
        (Role::King, 2),
        (Role::Giraffe, 2),
        (Role::Elephant, 2),
        (Role::Pawn, 2),
    ],
    start_sfen: "gle/1c1/1C1/ELG b - 1",
};

impl Variant {
    /// All variants.
    pub const ALL: [Variant; 3] = [Variant::Standard, Variant::Minishogi, Variant::Doubutsu];

    /// The rules table.
    #[inline]
    pub const fn rules(self) -> &'static Rules {
        match self {
            Variant::Standard => &STANDARD,
            Variant::Minishogi => &MINISHOGI,
            Variant::Doubutsu => &DOUBUTSU,
        }
    }

    /// Lower-case name as the CLI spells it.
    pub const fn name(self) -> &'static str {
        match self {
            Variant::Standard => "standard",
            Variant::Minishogi => "minishogi",
            Variant::Doubutsu => "doubutsu",
        }
    }

    /// The variant whose board has `files` × `ranks` squares.
    pub fn from_dimensions(files: usize, ranks: usize) -> Option<Variant> {
        Variant::ALL
            .into_iter()
            .find(|v| v.rules().files as usize == files && v.rules().ranks as usize == ranks)
    }
}

impl Rules {
    /// The squares where an unpromoted piece of `role` and `color` could
    /// never move again.
    #[inline]
    pub fn dead_squares(&self, color: Color, role: Role) -> Bitboard {
        match role {
            Role::Pawn | Role::Lance => self.last_rank[color.index()],
            Role::Knight => self.last_two_ranks[color.index()],
            _ => Bitboard::EMPTY,
        }
    }

    /// Whether `role` can be promoted in this variant.
    #[inline]
    pub fn can_promote(&self, role: Role) -> bool {
        match self.variant {
            Variant::Doubutsu => role == Role::Pawn,
            _ => role.promoted().is_some(),
        }
    }
}

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Error for an unknown variant name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownVariant(pub String);

impl fmt::Display for UnknownVariant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown variant `{}` (expected standard, minishogi or doubutsu)",
            self.0
        )
    }
}

impl std::error::Error for UnknownVariant {}

impl FromStr for Variant {
    type Err = UnknownVariant;
    fn from_str(s: &str) -> Result<Variant, UnknownVariant> {
        match s.to_ascii_lowercase().as_str() {
            "standard" | "shogi" | "hirate" => Ok(Variant::Standard),
            "minishogi" | "mini" | "5x5" => Ok(Variant::Minishogi),
            "doubutsu" | "dobutsu" | "animal" => Ok(Variant::Doubutsu),
            _ => Err(UnknownVariant(s.to_string())),
        }
    }
}

impl crate::rules::role::Piece {
    /// SFEN text: upper case for Black, lower case for White, `+` prefix.
    pub fn sfen(self, variant: Variant) -> String {
        let s = self.role.sfen(variant);
        match self.color {
            Color::Black => s.to_string(),
            Color::White => s.to_ascii_lowercase(),
        }
    }
}

/// The names of a piece that depend on the variant (doubutsu shogi names
/// its pieces otherwise): here, beside [`Variant`], so that `role` needs
/// nothing of `variant`.
impl Role {
    /// The SFEN/USI letters (upper case, with `+` for promoted roles) in the
    /// given variant. Doubutsu uses L G E C H.
    pub const fn sfen(self, variant: Variant) -> &'static str {
        if let Variant::Doubutsu = variant {
            match self {
                Role::King => return "L",
                Role::Giraffe => return "G",
                Role::Elephant => return "E",
                Role::Pawn => return "C",
                Role::ProPawn => return "H",
                _ => {}
            }
        }
        match self {
            Role::Pawn => "P",
            Role::Lance => "L",
            Role::Knight => "N",
            Role::Silver => "S",
            Role::Gold => "G",
            Role::Bishop => "B",
            Role::Rook => "R",
            Role::King => "K",
            Role::ProPawn => "+P",
            Role::ProLance => "+L",
            Role::ProKnight => "+N",
            Role::ProSilver => "+S",
            Role::Horse => "+B",
            Role::Dragon => "+R",
            Role::Giraffe => "G",
            Role::Elephant => "E",
        }
    }

    /// Parses one SFEN letter (case-insensitive) with an optional promotion
    /// flag in the given variant. Doubutsu accepts both our letters
    /// (L G E C H) and lishogi's (K R B P, `+P`).
    pub const fn from_sfen_char(c: char, promoted: bool, variant: Variant) -> Option<Role> {
        let c = c.to_ascii_uppercase();
        if let Variant::Doubutsu = variant {
            return match (c, promoted) {
                ('L' | 'K', false) => Some(Role::King),
                ('G' | 'R', false) => Some(Role::Giraffe),
                ('E' | 'B', false) => Some(Role::Elephant),
                ('C' | 'P', false) => Some(Role::Pawn),
                ('H', false) | ('C' | 'P', true) => Some(Role::ProPawn),
                _ => None,
            };
        }
        let base = match c {
            'P' => Role::Pawn,
            'L' => Role::Lance,
            'N' => Role::Knight,
            'S' => Role::Silver,
            'G' => Role::Gold,
            'B' => Role::Bishop,
            'R' => Role::Rook,
            'K' => Role::King,
            _ => return None,
        };
        if promoted {
            base.promoted()
        } else {
            Some(base)
        }
    }

    /// The Japanese name as KIF writes it in moves (`歩`, `成銀`, `龍`, …).
    pub const fn kanji(self, variant: Variant) -> &'static str {
        if let Variant::Doubutsu = variant {
            match self {
                Role::King => return "ライオン",
                Role::Giraffe => return "きりん",
                Role::Elephant => return "ぞう",
                Role::Pawn => return "ひよこ",
                Role::ProPawn => return "にわとり",
                _ => {}
            }
        }
        match self {
            Role::Pawn => "歩",
            Role::Lance => "香",
            Role::Knight => "桂",
            Role::Silver => "銀",
            Role::Gold => "金",
            Role::Bishop => "角",
            Role::Rook => "飛",
            Role::King => "玉",
            Role::ProPawn => "と",
            Role::ProLance => "成香",
            Role::ProKnight => "成桂",
            Role::ProSilver => "成銀",
            Role::Horse => "馬",
            Role::Dragon => "龍",
            Role::Giraffe => "きりん",
            Role::Elephant => "ぞう",
        }
    }

    /// One character for a board diagram (BOD) cell.
    pub const fn board_char(self, variant: Variant) -> char {
        if let Variant::Doubutsu = variant {
            match self {
                Role::King => return 'ラ',
                Role::Giraffe => return 'き',
                Role::Elephant => return 'ぞ',
                Role::Pawn => return 'ひ',
                Role::ProPawn => return 'に',
                _ => {}
            }
        }
        match self {
            Role::Pawn => '歩',
            Role::Lance => '香',
            Role::Knight => '桂',
            Role::Silver => '銀',
            Role::Gold => '金',
            Role::Bishop => '角',
            Role::Rook => '飛',
            Role::King => '玉',
            Role::ProPawn => 'と',
            Role::ProLance => '杏',
            Role::ProKnight => '圭',
            Role::ProSilver => '全',
            Role::Horse => '馬',
            Role::Dragon => '龍',
            Role::Giraffe => 'き',
            Role::Elephant => 'ぞ',
        }
    }

    /// The western letter(s) of international notation (`P`, `+S`, …).
    pub const fn western(self, variant: Variant) -> &'static str {
        self.sfen(variant)
    }
}
