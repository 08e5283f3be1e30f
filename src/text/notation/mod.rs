//! Moves as each format writes them, below the move they become: the
//! resolver ([`super::resolve`]) holds these notation types in its
//! `RawMove` and turns them into moves, so they live below the formats
//! that read them. The formats re-export them under their public paths
//! (`kifu::psn::PsnMove`, `kifu::ki2::notation`, …).
//!
//! - [`lexicon`]: the Japanese table of names (digits, pieces, terminal
//!   words, header keys), shared by KIF, KI2 and the writers;
//! - [`marks`] and [`ki2`]: KI2 relative marks and the resolution by them;
//! - [`moves`]: KIF/KI2 move text (destination or `同`, piece, origin);
//! - [`fast`]: the KIF move line read on bytes (UTF-8 or Shift_JIS), in
//!   front of the nom grammar;
//! - [`psn`]: PSN move notation;
//! - [`csa`]: a CSA move (piece code after the move);
//! - [`jkf`]: JKF move objects and JKF relative letters.

pub mod csa;
pub(crate) mod fast;
pub mod jkf;
pub mod ki2;
pub mod lexicon;
pub mod marks;
pub mod moves;
pub mod psn;
