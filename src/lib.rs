//! # kifu
//!
//! Read, validate, convert and analyse shogi game records.
//!
//! | format | module | reads | writes |
//! |---|---|---|---|
//! | KIF (`.kif` Shift_JIS, `.kifu` UTF-8) | [`kif`] | every dialect real programs write, variations, BOD boards | Kifu for Windows layout |
//! | KI2 (`.ki2`, `.ki2u`) | [`ki2`] | relative marks 右 左 直 上 引 寄 打 | JSA relative marks |
//! | CSA V2–V3.0 (`.csa`) | [`csa`] | several games per file, `'**` comments | V2.2 or V3.0 |
//! | PSN / PSN2 (`.psn`) | [`psn`] | international notation, Shogidokoro and PSN2 dialects | minimal disambiguation |
//! | JKF (`.jkf`, `.json`) | [`jkf`] | normalised and minimal JKF | schema-valid JKF |
//! | SFEN/USI (`.sfen`, `.usi`) | [`usi`] | one game per line | `position … moves …`, final SFEN |
//!
//! Reading is one stream of events between the text and whatever consumes
//! it (see [`read::visitor`] and `docs/reading.md`): a [`read::Reader`]
//! (any format, the encoding detected) sends each game's events to a
//! [`read::Visitor`]. The library's visitors build records
//! ([`read::RecordBuilder`], behind [`read::Reader::games`]), validate
//! ([`validate::Validator`]: every line played once against the rules
//! engine, every problem reported with its rule id, location, ply, move and
//! position) and gather statistics ([`stats::StatsCollector`]);
//! [`write::write`] writes a [`record::Record`] in any format.
//!
//! ```
//! use kifu::read::Reader;
//! use kifu::validate::{ValidateOptions, Validator};
//!
//! let csa = b"V2.2\nPI\n+\n+7776FU\n-3334FU\n+0055FU\n";
//! let mut reader = Reader::new(&csa[..]).unwrap();
//! let report = reader.read_game(&mut Validator::new(ValidateOptions::default())).unwrap();
//! assert!(!report.ok);
//! let f = &report.findings[0];
//! assert_eq!((f.rule.id(), f.line, f.ply), ("not-in-hand", 6, Some(3)));
//! ```
//!
//! Records, to convert:
//!
//! ```
//! use kifu::read::{Format, Reader};
//! use kifu::write::{write, WriteOptions};
//!
//! let kif = "手合割：平手\n   1 ７六歩(77)\n   2 ３四歩(33)\n".as_bytes();
//! let game = Reader::new(kif).unwrap().games().next().unwrap();
//! let out = write(&game.record, Format::Usi, &WriteOptions::default()).unwrap();
//! assert_eq!(out.text, "position startpos moves 7g7f 3c3d\n");
//! ```
//!
//! The rules engine knows standard shogi (with every handicap), minishogi
//! and doubutsu shogi:
//!
//! ```
//! use kifu::{Move, Position, Variant};
//!
//! let pos = Position::new(Variant::Standard);
//! assert_eq!(pos.legal_moves().len(), 30);
//! let m = Move::from_usi("7g7f", Variant::Standard).unwrap();
//! assert!(pos.check(m).is_ok());
//! ```

#![warn(missing_docs)]

#[doc = include_str!("../docs/reading.md")]
pub mod flow {}

pub mod attacks;
pub mod batch;
pub mod bitboard;
pub mod color;
pub mod convert;
pub mod csa;
pub mod date;
pub mod diagram;
pub mod hand;
pub mod handicap;
pub mod japanese;
pub mod jkf;
pub mod ki2;
pub mod kif;
pub mod moves;
pub mod output;
pub mod position;
pub mod psn;
pub mod read;
pub mod record;
pub mod replay;
pub mod role;
pub mod setup;
pub mod sfen;
pub mod square;
pub mod stats;
pub mod strictness;
pub mod usi;
pub mod validate;
pub mod variant;
pub mod write;

pub use bitboard::Bitboard;
pub use color::Color;
pub use hand::Hand;
pub use handicap::Handicap;
pub use moves::Move;
pub use position::{IllegalMove, MoveList, Position, Status};
pub use role::{Piece, Role};
pub use setup::{Setup, SetupError, SetupErrors, Waivers};
pub use sfen::SfenError;
pub use square::Square;
pub use variant::{Rules, Variant};
