//! One module per subcommand.

pub mod board;
pub mod common;
pub mod convert;
pub mod export;
pub mod html;
pub mod perft;
pub mod select;
pub mod shell;
pub mod stats;
pub mod tags;
pub mod tree;
pub mod validate;
