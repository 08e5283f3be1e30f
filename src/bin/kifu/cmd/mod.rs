//! One module per subcommand.

pub mod common;
pub mod perft;
pub mod validate;
pub mod stats;
