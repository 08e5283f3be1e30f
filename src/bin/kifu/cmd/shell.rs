//! `kifu completions` and `kifu man`: generated from the argument
//! definitions, so they always match the commands.

use crate::args::{Cli, CompletionsArgs, ManArgs};
use crate::out::{self, Out};
use clap::CommandFactory;

/// Prints the completion script of a shell.
pub fn completions(a: CompletionsArgs) -> std::io::Result<u8> {
    let mut cmd = Cli::command();
    let mut buf = Vec::new();
    clap_complete::generate(a.shell, &mut cmd, "kifu", &mut buf);
    let mut o = Out::new();
    o.bytes(&buf);
    o.finish()?;
    Ok(out::OK)
}

/// Prints the manual page (roff) of `kifu`, or of one subcommand
/// (`kifu-validate(1)`, with every option).
pub fn man(a: ManArgs) -> std::io::Result<u8> {
    let cmd = Cli::command();
    let page = match &a.command {
        None => cmd,
        Some(name) => match cmd.find_subcommand(name) {
            Some(sub) => {
                let full = format!("kifu-{}", sub.get_name());
                sub.clone()
                    .name(full.clone())
                    .display_name(full)
                    .version(env!("CARGO_PKG_VERSION"))
            }
            None => {
                let names: Vec<&str> = cmd.get_subcommands().map(|s| s.get_name()).collect();
                out::err(&format!(
                    "kifu man: no command `{name}`; the commands are: {}",
                    names.join(" ")
                ));
                return Ok(out::FAILURE);
            }
        },
    };
    let mut buf = Vec::new();
    clap_mangen::Man::new(page).render(&mut buf)?;
    let mut o = Out::new();
    o.bytes(&buf);
    o.finish()?;
    Ok(out::OK)
}
