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
//! The library is built in layers, each using only the ones before it
//! (see [`layout`]):
//!
//! 1. [`rules`]: positions, legal moves, SFEN, handicaps, the replay that
//!    decides how a game ends;
//! 2. [`record`]: the format-neutral [`Record`] and the game key;
//! 3. the input and output layers every format shares (private; their
//!    public names are in [`read`] and [`write`](mod@write)): findings,
//!    decoding, lines, the events for a [`Visitor`], the resolver and the
//!    move notations; a writer's output and what it dropped;
//! 4. the formats ([`kif`], [`ki2`], [`csa`], [`psn`], [`jkf`], [`usi`]):
//!    bytes → lines → grammar → events, and a writer each;
//! 5. [`read`] and [`write`](mod@write): the dispatch over the formats;
//! 6. [`validate`], [`stats`], [`select`]: visitors over one replay;
//! 7. [`convert`], [`diagram`], [`eval`]: records out again.
//!
//! The command-line tool (progress, reports, output files) lives in the
//! binary, behind the default `cli` feature. The batch runner it uses
//! ([`batch`]: files found in folders, read on worker threads, results in
//! input order) is in the library behind the `batch` feature (part of
//! `cli`), which the Python bindings (`python/`) use too.
//!
//! Reading is one stream of events between the text and whatever consumes
//! it (see [`read::visitor`] and `docs/reading.md`): a [`read::Reader`]
//! (any format, the encoding detected) sends each game's events to a
//! [`read::Visitor`]. The library's visitors build records
//! ([`read::RecordBuilder`], behind [`read::Reader::games`]), validate
//! ([`validate::Validator`]: every line played once against the rules
//! engine, every problem reported with its rule id, location, ply, move and
//! position), gather statistics ([`stats::Stats`], an observer of one [`replay::Replay`]) and choose
//! games ([`select::Selector`]: filters, the game key, duplicates);
//! [`write::write`] writes a [`record::Record`] in any format.
//!
//! ```
//! use kifu::validate::ValidateOptions;
//! use kifu::{Reader, Validator};
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
//! use kifu::{write, Format, Reader, WriteOptions};
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

#![warn(unnameable_types)]
#![warn(missing_docs)]

#[doc = include_str!("../docs/reading.md")]
pub mod flow {}

#[doc = include_str!("../docs/layout.md")]
pub mod layout {}

// The layers, bottom up (no module imports one above it; tests/layout.rs
// checks the rules and the absence of cycles).
pub mod rules;

pub mod record;

// Below the formats: what every reader shares (`read` re-exports it) and
// what every writer shares (`write` re-exports it).
mod emit;
mod text;

pub mod csa;
pub mod jkf;
pub mod ki2;
pub mod kif;
pub mod psn;
pub mod usi;

pub mod read;

pub mod export;
pub mod replay;
pub mod select;
pub mod stats;
pub mod strictness;
pub mod tags;
pub mod tree;
pub mod validate;

pub mod convert;
pub mod date;
pub mod diagram;
pub mod eval;
pub mod write;

// Batch runs over many inputs (worker threads, input order), for the
// command and the Python bindings.
#[cfg(feature = "batch")]
pub mod archive;
#[cfg(feature = "batch")]
pub mod batch;

// What KIF and KI2 share (their line reader, board diagrams, the `まで`
// line, the writing both share); private.
mod japanese;
/// Display width of text in a fixed-pitch Japanese font (for tables).
pub use japanese::display_width;

// The flat API: what a program that reads, checks and writes records uses.
pub use read::{Encoding, Finding, Format, Game, Reader, Rule, Severity, Visitor};
pub use record::{Location, Record};
pub use replay::{Observer, Replay};
pub use stats::Stats;
pub use validate::Validator;
pub use write::{write, WriteOptions};

// The rules engine's main types (everything else is in [`rules`]).
pub use rules::{
    Bitboard, Color, Hand, Handicap, IllegalMove, Move, MoveList, Outcome, Piece, Position, Role,
    Rules, Setup, SetupError, SetupErrors, SfenError, Square, Status, Variant, Waivers,
};
