//! The `kifu` command: a thin layer over the `kifu` library.

mod args;
mod cmd;
mod common_args;
mod export_args;
mod filter_args;
mod out;
mod output;
mod progress;
mod report;

use clap::Parser;
// The batch runner lives in the library (`kifu::batch`, the `batch`
// feature) so that the Python bindings share it.
use kifu::batch;
use std::process::ExitCode;

/// On SIGINT, SIGTERM or SIGHUP: remove the temporary files of outputs not
/// yet complete, then exit with 128 + the signal number, as a shell
/// reports a process killed by it. (SIGKILL cannot be caught: after it,
/// `.kifu-*.tmp` files may remain; they are never under a final name.)
fn handle_signals() {
    use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
    let Ok(mut signals) = signal_hook::iterator::Signals::new([SIGINT, SIGTERM, SIGHUP]) else {
        return;
    };
    let _ = std::thread::Builder::new()
        .name("kifu-signals".into())
        .stack_size(64 << 10)
        .spawn(move || {
            if let Some(sig) = signals.forever().next() {
                crate::output::remove_temporaries();
                std::process::exit(128 + sig);
            }
        });
}

/// The arguments, or the exit after a usage error (or `--help`). An
/// argument holding a control character (a file name with a line break,
/// an escape sequence) is shown made visible, as every message shows
/// names ([`out::visible`]): the error is made again from the arguments
/// made visible, or printed as one visible line.
fn parse() -> args::Cli {
    let e = match args::Cli::try_parse() {
        Ok(cli) => return cli,
        Err(e) => e,
    };
    let raw: Vec<String> = std::env::args_os()
        .map(|a| a.to_string_lossy().into_owned())
        .collect();
    if !e.use_stderr() || raw.iter().all(|a| out::visible(a) == a.as_str()) {
        e.exit();
    }
    let shown = raw.iter().map(|a| out::visible(a).into_owned());
    match args::Cli::try_parse_from(shown) {
        Err(again) if again.kind() == e.kind() => again.exit(),
        _ => {
            out::err(e.render().to_string().trim_end());
            std::process::exit(i32::from(out::FAILURE));
        }
    }
}

/// Reads the `--files-from` list of a reading command into its paths,
/// and checks its globs; the exit (2) when one cannot be.
fn read_lists(cli: &mut args::Cli) {
    let input = match &mut cli.command {
        args::Command::Validate(a) => &mut a.input,
        args::Command::Stats(a) => &mut a.input,
        args::Command::Convert(a) => &mut a.input,
        args::Command::Html(a) => &mut a.input,
        args::Command::Select(a) => &mut a.input,
        args::Command::Export(a) => &mut a.input,
        args::Command::Tree(a) => &mut a.input,
        _ => return,
    };
    let checked = input
        .read_lists()
        .and_then(|()| batch::discover_with::<&str>(&[], &input.walk(&[])).map(|_| ()));
    if let Err(e) = checked {
        out::err(&format!("kifu: {e}"));
        std::process::exit(i32::from(out::FAILURE));
    }
    if input.paths.is_empty() && !input.allow_empty {
        out::err("kifu: --files-from: the list names no path (--allow-empty accepts this)");
        std::process::exit(i32::from(out::FAILURE));
    }
}

fn main() -> ExitCode {
    let mut cli = parse();
    read_lists(&mut cli);
    handle_signals();
    let color = cli.color;
    let result = match cli.command {
        args::Command::Perft(a) => cmd::perft::run(a),
        args::Command::Validate(a) => cmd::validate::run(a, color),
        args::Command::Stats(a) => cmd::stats::run(a, color),
        args::Command::Convert(a) => cmd::convert::run(a, color),
        args::Command::Board(mut a) => {
            a.color = color;
            cmd::board::run(a)
        }
        args::Command::Html(a) => cmd::html::run(a, color),
        args::Command::Completions(a) => cmd::shell::completions(a),
        args::Command::Man(a) => cmd::shell::man(a),
        args::Command::Select(a) => cmd::select::run(a),
        args::Command::Export(a) => cmd::export::run(a, color),
        args::Command::Tags(a) => cmd::tags::run(a),
        args::Command::Tree(a) => cmd::tree::run(a),
    };
    let code = out::exit_code(result);
    // New outputs are made durable together, once the command is done.
    if let Err(e) = output::sync_outputs() {
        out::err(&format!("kifu: cannot sync the outputs to disk: {e}"));
        return ExitCode::from(out::FAILURE);
    }
    ExitCode::from(code)
}
