//! Kinds of pieces (roles) and pieces (a role with a colour).

use crate::rules::color::Color;
use std::fmt;

/// The kind of a piece, promoted kinds included. Doubutsu shogi maps its
/// lion onto [`Role::King`], its chick onto [`Role::Pawn`] and its hen onto
/// [`Role::ProPawn`]; the giraffe and the elephant are roles of their own.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Role {
    /// 歩 P (doubutsu: chick, ひよこ).
    Pawn = 0,
    /// 香 L.
    Lance = 1,
    /// 桂 N.
    Knight = 2,
    /// 銀 S.
    Silver = 3,
    /// 金 G.
    Gold = 4,
    /// 角 B.
    Bishop = 5,
    /// 飛 R.
    Rook = 6,
    /// 玉 K (doubutsu: lion, ライオン).
    King = 7,
    /// と +P (doubutsu: hen, にわとり).
    ProPawn = 8,
    /// 成香 +L.
    ProLance = 9,
    /// 成桂 +N.
    ProKnight = 10,
    /// 成銀 +S.
    ProSilver = 11,
    /// 馬 +B.
    Horse = 12,
    /// 龍 +R.
    Dragon = 13,
    /// Doubutsu giraffe (きりん): one step orthogonally.
    Giraffe = 14,
    /// Doubutsu elephant (ぞう): one step diagonally.
    Elephant = 15,
}

impl Role {
    /// All sixteen roles in index order.
    pub const ALL: [Role; 16] = [
        Role::Pawn,
        Role::Lance,
        Role::Knight,
        Role::Silver,
        Role::Gold,
        Role::Bishop,
        Role::Rook,
        Role::King,
        Role::ProPawn,
        Role::ProLance,
        Role::ProKnight,
        Role::ProSilver,
        Role::Horse,
        Role::Dragon,
        Role::Giraffe,
        Role::Elephant,
    ];

    /// Roles that can be held in hand, in the canonical SFEN order
    /// (R B G S N L P, then the doubutsu pieces).
    pub const HAND: [Role; 9] = [
        Role::Rook,
        Role::Bishop,
        Role::Gold,
        Role::Silver,
        Role::Knight,
        Role::Lance,
        Role::Pawn,
        Role::Giraffe,
        Role::Elephant,
    ];

    /// Index 0..16.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The role with the given index.
    #[inline]
    pub const fn from_index(i: usize) -> Option<Role> {
        if i < 16 {
            Some(Role::ALL[i])
        } else {
            None
        }
    }

    /// The promoted role, if this role can promote.
    #[inline]
    pub const fn promoted(self) -> Option<Role> {
        Some(match self {
            Role::Pawn => Role::ProPawn,
            Role::Lance => Role::ProLance,
            Role::Knight => Role::ProKnight,
            Role::Silver => Role::ProSilver,
            Role::Bishop => Role::Horse,
            Role::Rook => Role::Dragon,
            _ => return None,
        })
    }

    /// The base role of a promoted role (itself for unpromoted roles).
    #[inline]
    pub const fn unpromoted(self) -> Role {
        match self {
            Role::ProPawn => Role::Pawn,
            Role::ProLance => Role::Lance,
            Role::ProKnight => Role::Knight,
            Role::ProSilver => Role::Silver,
            Role::Horse => Role::Bishop,
            Role::Dragon => Role::Rook,
            r => r,
        }
    }

    /// Whether this is a promoted role.
    #[inline]
    pub const fn is_promoted(self) -> bool {
        matches!(
            self,
            Role::ProPawn
                | Role::ProLance
                | Role::ProKnight
                | Role::ProSilver
                | Role::Horse
                | Role::Dragon
        )
    }

    /// Index into a [`crate::Hand`], for roles that can be held.
    #[inline]
    pub const fn hand_index(self) -> Option<usize> {
        match self {
            Role::Rook => Some(0),
            Role::Bishop => Some(1),
            Role::Gold => Some(2),
            Role::Silver => Some(3),
            Role::Knight => Some(4),
            Role::Lance => Some(5),
            Role::Pawn => Some(6),
            Role::Giraffe => Some(7),
            Role::Elephant => Some(8),
            _ => None,
        }
    }

    /// Points for the entering-king (impasse) count: 5 for rook, bishop,
    /// dragon and horse, 0 for the king, 1 for every other piece.
    #[inline]
    pub const fn impasse_points(self) -> u32 {
        match self {
            Role::Rook | Role::Bishop | Role::Dragon | Role::Horse => 5,
            Role::King => 0,
            _ => 1,
        }
    }

    /// The CSA two-letter code (`FU`, `UM`, …). Doubutsu pieces use the codes
    /// of the pieces they are mapped onto; giraffe and elephant have none in
    /// the standard and are written `KR` (kirin) and `ZO` (zou).
    pub const fn csa(self) -> &'static str {
        match self {
            Role::Pawn => "FU",
            Role::Lance => "KY",
            Role::Knight => "KE",
            Role::Silver => "GI",
            Role::Gold => "KI",
            Role::Bishop => "KA",
            Role::Rook => "HI",
            Role::King => "OU",
            Role::ProPawn => "TO",
            Role::ProLance => "NY",
            Role::ProKnight => "NK",
            Role::ProSilver => "NG",
            Role::Horse => "UM",
            Role::Dragon => "RY",
            Role::Giraffe => "KR",
            Role::Elephant => "ZO",
        }
    }

    /// Parses a CSA piece code.
    pub fn from_csa(s: &str) -> Option<Role> {
        Some(match s.as_bytes() {
            b"FU" => Role::Pawn,
            b"KY" => Role::Lance,
            b"KE" => Role::Knight,
            b"GI" => Role::Silver,
            b"KI" => Role::Gold,
            b"KA" => Role::Bishop,
            b"HI" => Role::Rook,
            b"OU" => Role::King,
            b"TO" => Role::ProPawn,
            b"NY" => Role::ProLance,
            b"NK" => Role::ProKnight,
            b"NG" => Role::ProSilver,
            b"UM" => Role::Horse,
            b"RY" => Role::Dragon,
            b"KR" => Role::Giraffe,
            b"ZO" => Role::Elephant,
            _ => return None,
        })
    }

    /// Lower-case English name.
    pub const fn name(self) -> &'static str {
        match self {
            Role::Pawn => "pawn",
            Role::Lance => "lance",
            Role::Knight => "knight",
            Role::Silver => "silver",
            Role::Gold => "gold",
            Role::Bishop => "bishop",
            Role::Rook => "rook",
            Role::King => "king",
            Role::ProPawn => "tokin",
            Role::ProLance => "promoted lance",
            Role::ProKnight => "promoted knight",
            Role::ProSilver => "promoted silver",
            Role::Horse => "horse",
            Role::Dragon => "dragon",
            Role::Giraffe => "giraffe",
            Role::Elephant => "elephant",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Role;

    #[test]
    fn csa_codes_round_trip() {
        for r in Role::ALL {
            assert_eq!(Role::from_csa(r.csa()), Some(r));
        }
        assert_eq!(Role::from_csa("XX"), None);
        assert_eq!(Role::from_csa("F"), None);
    }
}

impl fmt::Display for Role {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A piece: a role and the colour that owns it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Piece {
    /// Owner.
    pub color: Color,
    /// Kind.
    pub role: Role,
}

impl Piece {
    /// A piece of `color` and `role`.
    #[inline]
    pub const fn new(color: Color, role: Role) -> Piece {
        Piece { color, role }
    }
}
