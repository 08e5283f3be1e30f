//! The `kifu` command: a thin layer over the `kifu` library.

mod args;
mod cmd;
mod out;
mod progress;

use clap::Parser;

fn main() {
    let cli = args::Cli::parse();
    let code = match cli.command {
        args::Command::Perft(a) => cmd::perft::run(a),
        args::Command::Validate(a) => cmd::validate::run(a),
        args::Command::Stats(a) => cmd::stats::run(a),
        args::Command::Convert(a) => cmd::convert::run(a),
        args::Command::Board(a) => cmd::board::run(a),
        args::Command::Html(a) => cmd::html::run(a),
    };
    std::process::exit(code);
}
