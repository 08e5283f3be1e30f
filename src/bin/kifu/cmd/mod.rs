//! One module per subcommand.

pub mod common;
pub mod convert;
pub mod perft;
pub mod stats;
pub mod validate;
