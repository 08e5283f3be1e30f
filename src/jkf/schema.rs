//! The JSON shapes of a JKF document (lenient on input, normalised on
//! output) and JKF's names for header keys, specials, colours and squares.

use crate::record::{HeaderKey, TerminalKind};
use crate::rules::color::Color;
use serde::de::{MapAccess, Visitor as SerdeVisitor};
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;

// ---------------------------------------------------------------------------
// JSON shapes (input: lenient)

/// Header entries in source order; non-string values are kept as JSON text.
pub(super) struct HeaderIn(pub(super) Vec<(String, String)>);

impl<'de> Deserialize<'de> for HeaderIn {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<HeaderIn, D::Error> {
        struct V;
        impl<'de> SerdeVisitor<'de> for V {
            type Value = HeaderIn;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("an object of header strings")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<HeaderIn, A::Error> {
                let mut v = Vec::new();
                while let Some((k, val)) = map.next_entry::<String, serde_json::Value>()? {
                    let s = match val {
                        serde_json::Value::String(s) => s,
                        serde_json::Value::Null => String::new(),
                        other => other.to_string(),
                    };
                    v.push((k, s));
                }
                Ok(HeaderIn(v))
            }
            fn visit_unit<E>(self) -> Result<HeaderIn, E> {
                Ok(HeaderIn(Vec::new()))
            }
        }
        d.deserialize_any(V)
    }
}

#[derive(Deserialize)]
pub(super) struct JkfIn {
    pub(super) header: Option<HeaderIn>,
    pub(super) initial: Option<InitialIn>,
    pub(super) moves: Option<Vec<ItemIn>>,
}

/// A `color`: `0`/`1`, or the booleans of JKF before 1.0 (`true` = sente,
/// `false` = gote; Kifu for JS wrote them).
#[derive(Clone, Copy)]
pub(super) struct ColorIn(pub(super) u8);

impl<'de> Deserialize<'de> for ColorIn {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<ColorIn, D::Error> {
        struct V;
        impl SerdeVisitor<'_> for V {
            type Value = ColorIn;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("0 or 1 (true or false before JKF 1.0)")
            }
            fn visit_bool<E>(self, b: bool) -> Result<ColorIn, E> {
                Ok(ColorIn(if b { 0 } else { 1 }))
            }
            fn visit_u64<E: serde::de::Error>(self, n: u64) -> Result<ColorIn, E> {
                u8::try_from(n)
                    .map(ColorIn)
                    .map_err(|_| E::invalid_value(serde::de::Unexpected::Unsigned(n), &self))
            }
            fn visit_i64<E: serde::de::Error>(self, n: i64) -> Result<ColorIn, E> {
                u8::try_from(n)
                    .map(ColorIn)
                    .map_err(|_| E::invalid_value(serde::de::Unexpected::Signed(n), &self))
            }
        }
        d.deserialize_any(V)
    }
}

pub(super) fn color_in(c: Option<ColorIn>) -> Option<u8> {
    c.map(|c| c.0)
}

#[derive(Deserialize)]
pub(super) struct InitialIn {
    pub(super) preset: Option<String>,
    pub(super) data: Option<StateIn>,
}

#[derive(Deserialize)]
pub(super) struct StateIn {
    pub(super) color: Option<ColorIn>,
    pub(super) board: Option<Vec<Vec<CellIn>>>,
    pub(super) hands: Option<Vec<std::collections::BTreeMap<String, u32>>>,
}

#[derive(Deserialize, Default)]
pub(super) struct CellIn {
    pub(super) color: Option<ColorIn>,
    pub(super) kind: Option<String>,
}

#[derive(Deserialize)]
pub(super) struct ItemIn {
    pub(super) comments: Option<Vec<String>>,
    pub(super) comment: Option<String>,
    #[serde(rename = "move")]
    pub(super) mv: Option<MoveIn>,
    pub(super) time: Option<TimeIn>,
    pub(super) special: Option<String>,
    pub(super) forks: Option<Vec<Vec<ItemIn>>>,
}

#[derive(Deserialize)]
pub(super) struct MoveIn {
    pub(super) color: Option<ColorIn>,
    pub(super) from: Option<PlaceIn>,
    pub(super) to: Option<PlaceIn>,
    pub(super) piece: Option<String>,
    pub(super) same: Option<bool>,
    pub(super) promote: Option<bool>,
    pub(super) relative: Option<String>,
}

#[derive(Deserialize, Clone, Copy)]
pub(super) struct PlaceIn {
    pub(super) x: i64,
    pub(super) y: i64,
}

#[derive(Deserialize)]
pub(super) struct TimeIn {
    pub(super) now: Option<ClockIn>,
    pub(super) total: Option<ClockIn>,
}

#[derive(Deserialize)]
pub(super) struct ClockIn {
    pub(super) h: Option<u64>,
    pub(super) m: Option<u64>,
    pub(super) s: Option<u64>,
}

impl ClockIn {
    pub(super) fn ms(&self) -> Option<u64> {
        let h = self.h.unwrap_or(0);
        let m = self.m.unwrap_or(0);
        let s = self.s.unwrap_or(0);
        h.checked_mul(60)?
            .checked_add(m)?
            .checked_mul(60)?
            .checked_add(s)?
            .checked_mul(1000)
    }
}

// ---------------------------------------------------------------------------
// Tables

/// JKF header keys are KIF's (`先手`, `棋戦`, …; `下手`/`上手` name the
/// players of handicap games). Other keys (`対局日` too) are kept verbatim,
/// so that a JKF file is written back with its own keys.
pub(super) fn header_key(k: &str) -> HeaderKey {
    match k {
        "対局日" => HeaderKey::Other(k.to_string()),
        _ => crate::japanese::header_key(k),
    }
}

/// JKF specials are CSA's special names.
pub(super) fn special_kind(s: &str) -> TerminalKind {
    crate::csa::kind_from_special(s)
}

/// The `special` a terminal is written as; `to_move` is the side to move.
pub(super) fn special_name(kind: &TerminalKind, to_move: Color) -> Option<&'static str> {
    Some(match kind {
        TerminalKind::Resign => "TORYO",
        TerminalKind::Abort | TerminalKind::Sealed => "CHUDAN",
        TerminalKind::Repetition => "SENNICHITE",
        TerminalKind::TimeUp => "TIME_UP",
        TerminalKind::IllegalLoss => "ILLEGAL_MOVE",
        TerminalKind::IllegalAction(Color::Black) => "+ILLEGAL_ACTION",
        TerminalKind::IllegalAction(Color::White) => "-ILLEGAL_ACTION",
        // The previous move was the foul: the side not to move fouled.
        TerminalKind::IllegalWin => match to_move {
            Color::Black => "-ILLEGAL_ACTION",
            Color::White => "+ILLEGAL_ACTION",
        },
        TerminalKind::Impasse => "JISHOGI",
        TerminalKind::DeclarationWin => "KACHI",
        TerminalKind::DeclarationDraw => "HIKIWAKE",
        TerminalKind::Matta => "MATTA",
        TerminalKind::Checkmate => "TSUMI",
        TerminalKind::NoMate => "FUZUMI",
        TerminalKind::Error => "ERROR",
        _ => return None,
    })
}

pub(super) fn color_of(c: u8) -> Option<Color> {
    match c {
        0 => Some(Color::Black),
        1 => Some(Color::White),
        _ => None,
    }
}

// ---------------------------------------------------------------------------
// JSON shapes (output: normalised)

pub(super) struct HeaderOut(pub(super) Vec<(String, String)>);

impl Serialize for HeaderOut {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut m = s.serialize_map(Some(self.0.len()))?;
        for (k, v) in &self.0 {
            m.serialize_entry(k, v)?;
        }
        m.end()
    }
}

#[derive(Serialize)]
pub(super) struct JkfOut {
    pub(super) header: HeaderOut,
    pub(super) initial: InitialOut,
    pub(super) moves: Vec<ItemOut>,
}

#[derive(Serialize)]
pub(super) struct InitialOut {
    pub(super) preset: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) data: Option<StateOut>,
}

#[derive(Serialize)]
pub(super) struct StateOut {
    pub(super) color: u8,
    pub(super) board: Vec<Vec<CellOut>>,
    pub(super) hands: [HandOut; 2],
}

#[derive(Serialize)]
pub(super) struct CellOut {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) color: Option<u8>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) kind: Option<&'static str>,
}

#[derive(Serialize)]
#[allow(non_snake_case)]
pub(super) struct HandOut {
    pub(super) FU: u8,
    pub(super) KY: u8,
    pub(super) KE: u8,
    pub(super) GI: u8,
    pub(super) KI: u8,
    pub(super) KA: u8,
    pub(super) HI: u8,
}

#[derive(Serialize, Default)]
pub(super) struct ItemOut {
    #[serde(skip_serializing_if = "Option::is_none", rename = "move")]
    pub(super) mv: Option<MoveOut>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) special: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) time: Option<TimeOut>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) comments: Option<Vec<String>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) forks: Option<Vec<Vec<ItemOut>>>,
}

#[derive(Serialize)]
pub(super) struct PlaceOut {
    pub(super) x: u8,
    pub(super) y: u8,
}

#[derive(Serialize)]
pub(super) struct MoveOut {
    pub(super) color: u8,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) from: Option<PlaceOut>,
    pub(super) to: PlaceOut,
    pub(super) piece: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) same: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) promote: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) capture: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) relative: Option<&'static str>,
}

#[derive(Serialize)]
pub(super) struct NowOut {
    pub(super) m: u64,
    pub(super) s: u64,
}

#[derive(Serialize)]
pub(super) struct TotalOut {
    pub(super) h: u64,
    pub(super) m: u64,
    pub(super) s: u64,
}

#[derive(Serialize)]
pub(super) struct TimeOut {
    pub(super) now: NowOut,
    pub(super) total: TotalOut,
}
