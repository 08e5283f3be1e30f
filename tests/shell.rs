//! kifu in the shell: completion scripts and the man page are generated,
//! colours appear on a terminal (a real pseudo-terminal, through
//! `script`) and never in a pipe or with NO_COLOR, and the human layout
//! of a diagnostic is pinned: caret under full-width characters, tabs and
//! control characters. Runs on `tests/support/trials.rs`
//! (`harness = false`): the parts that need bash, man or `script` are
//! reported `ignored`, with the reason, where those are missing.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use trials::Skip;

#[path = "support/trials.rs"]
mod trials;

fn main() {
    trials::main(
        tests![
            completions_are_generated_for_every_shell,
            man_pages_are_generated,
            colour_in_a_pipe_and_with_color_always,
            the_human_layout_is_pinned,
        ]
        .into_iter()
        .chain(trials![
            the_bash_completion_loads_in_bash,
            man_renders_the_page,
            colour_on_a_terminal_and_with_no_color,
        ]),
    );
}

fn bin() -> &'static str {
    env!("CARGO_BIN_EXE_kifu")
}

fn kifu() -> Command {
    let mut c = Command::new(bin());
    c.env_remove("NO_COLOR")
        .env_remove("CLICOLOR_FORCE")
        .env_remove("CLICOLOR")
        .stdin(Stdio::null());
    c
}

fn run(args: &[&str]) -> Output {
    kifu().args(args).output().expect("run kifu")
}

fn out(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

const SUBCOMMANDS: [&str; 8] = [
    "validate",
    "convert",
    "stats",
    "board",
    "html",
    "perft",
    "completions",
    "man",
];

fn completions_are_generated_for_every_shell() {
    for shell in ["bash", "zsh", "fish", "powershell", "elvish"] {
        let o = run(&["completions", shell]);
        assert_eq!(o.status.code(), Some(0), "{shell}");
        let text = out(&o);
        assert!(text.len() > 1000, "{shell}: {} bytes", text.len());
        assert!(text.contains("kifu"), "{shell}");
        assert!(text.contains("validate"), "{shell}");
    }
    let bash = out(&run(&["completions", "bash"]));
    for sub in SUBCOMMANDS {
        assert!(bash.contains(sub), "bash completion names {sub}");
    }
    for flag in ["--deny", "--allow", "--format", "--color", "--diagnostics"] {
        assert!(bash.contains(flag), "bash completion offers {flag}");
    }
    assert!(
        bash.contains("complete -F _kifu"),
        "a bash completion function"
    );
    let o = run(&["completions", "tcsh"]);
    assert_eq!(o.status.code(), Some(2));
}

/// The bash completion script loads in bash and completes the subcommands.
fn the_bash_completion_loads_in_bash() -> Result<(), Skip> {
    let bash_program = trials::program("bash")?;
    let bash = out(&run(&["completions", "bash"]));
    let dir = tempfile::tempdir().unwrap();
    let script = dir.path().join("kifu.bash");
    std::fs::write(&script, &bash).unwrap();
    let probe = format!(
        "source {}; COMP_WORDS=(kifu va); COMP_CWORD=1; COMP_LINE='kifu va'; COMP_POINT=7; _kifu kifu va kifu; printf '%s\\n' \"${{COMPREPLY[@]}}\"",
        script.display()
    );
    let o = Command::new(bash_program)
        .args(["-c", &probe])
        .output()
        .unwrap();
    assert!(
        out(&o).lines().any(|l| l.trim() == "validate"),
        "bash completes `kifu va` to validate: {} {}",
        out(&o),
        String::from_utf8_lossy(&o.stderr)
    );
    Ok(())
}

fn man_pages_are_generated() {
    let o = run(&["man"]);
    assert_eq!(o.status.code(), Some(0));
    let page = out(&o);
    assert!(page.contains(".TH kifu 1"), "{page}");
    for sub in ["validate", "convert", "stats", "completions"] {
        assert!(page.contains(sub), "the page lists {sub}");
    }
    let o = run(&["man", "validate"]);
    assert_eq!(o.status.code(), Some(0));
    let page = out(&o);
    assert!(page.contains(".TH kifu-validate 1"), "{page}");
    for flag in ["deny", "allow", "format", "lenient\\-claims"] {
        assert!(page.contains(flag), "kifu-validate(1) has --{flag}");
    }
    let o = run(&["man", "nope"]);
    assert_eq!(o.status.code(), Some(2));
}

/// man renders the page.
fn man_renders_the_page() -> Result<(), Skip> {
    let man = trials::program("man")?;
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("kifu.1");
    std::fs::write(&f, out(&run(&["man"]))).unwrap();
    let o = Command::new(man)
        .arg("-l")
        .arg(&f)
        .env("MANPAGER", "cat")
        .env("PAGER", "cat")
        .env("MANWIDTH", "100")
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(out(&o).contains("validate"), "{}", out(&o));
    Ok(())
}

// ---- Colour ------------------------------------------------------------------

/// A CSA game with nifu on line 7 (ply 3).
const NIFU: &str = "V2.2\nP+59OU57FU00FU\nP-51OU\n+\n+5958OU\n-5141OU\n+0053FU\n";

fn nifu_file(dir: &Path) -> PathBuf {
    let p = dir.join("nifu.csa");
    std::fs::write(&p, NIFU).unwrap();
    p
}

/// Runs `kifu ARGS` on a pseudo-terminal with `script` (util-linux, the
/// program given).
fn on_terminal(script: &Path, args: &[&str], env: &[(&str, &str)]) -> String {
    let cmd = std::iter::once(bin())
        .chain(args.iter().copied())
        .map(|a| format!("'{}'", a.replace('\'', "'\\''")))
        .collect::<Vec<_>>()
        .join(" ");
    let mut c = Command::new(script);
    c.args(["-q", "-e", "-c", &cmd, "/dev/null"])
        .env_remove("NO_COLOR")
        .env_remove("CLICOLOR_FORCE")
        .env("TERM", "xterm-256color")
        .stdin(Stdio::null());
    for (k, v) in env {
        c.env(k, v);
    }
    let o = c.output().unwrap();
    assert!(
        o.status.success() || o.status.code() == Some(1),
        "script: {:?} {}",
        o.status,
        String::from_utf8_lossy(&o.stderr)
    );
    out(&o)
}

fn colour_in_a_pipe_and_with_color_always() {
    let dir = tempfile::tempdir().unwrap();
    let f = nifu_file(dir.path());
    let args = ["validate", s(&f)];
    // In a pipe: plain.
    let piped = run(&args);
    assert_eq!(piped.status.code(), Some(1));
    assert!(!piped.stdout.contains(&0x1b) && !piped.stderr.contains(&0x1b));
    // --color always: coloured even in a pipe (rule, location, caret).
    let forced = out(&run(&["--color", "always", "validate", s(&f)]));
    assert!(forced.contains("\x1b["), "{forced:?}");
    let plain_of_forced = strip_ansi(&forced);
    assert_eq!(plain_of_forced, out(&piped), "colour adds styles only");
    assert!(
        forced.contains("\x1b[1m\x1b[91merror[nifu]\x1b[0m"),
        "{forced:?}"
    );
    let caret_line = forced.lines().find(|l| l.contains('^')).unwrap();
    assert!(
        caret_line.contains("\x1b["),
        "the caret is coloured: {caret_line:?}"
    );
}

fn colour_on_a_terminal_and_with_no_color() -> Result<(), Skip> {
    let script = trials::program("script")?;
    let dir = tempfile::tempdir().unwrap();
    let f = nifu_file(dir.path());
    let args = ["validate", s(&f)];
    // On a real terminal.
    let tty = on_terminal(&script, &args, &[]);
    assert!(tty.contains("\x1b[1m\x1b[91merror[nifu]"), "{tty:?}");
    // NO_COLOR and --color never win over the terminal.
    let tty = on_terminal(&script, &args, &[("NO_COLOR", "1")]);
    assert!(
        tty.contains("error[nifu]") && !tty.contains('\x1b'),
        "{tty:?}"
    );
    let never = ["--color", "never", "validate", s(&f)];
    let tty = on_terminal(&script, &never, &[]);
    assert!(
        tty.contains("error[nifu]") && !tty.contains('\x1b'),
        "{tty:?}"
    );
    // --color always wins over NO_COLOR (an explicit flag).
    let always = ["--color", "always", "validate", s(&f)];
    let tty = on_terminal(&script, &always, &[("NO_COLOR", "1")]);
    assert!(tty.contains('\x1b'), "{tty:?}");
    // convert colours its diagnostics on standard error, on a terminal.
    let conv = ["convert", s(&f), "--to", "usi"];
    let tty = on_terminal(&script, &conv, &[]);
    assert!(tty.contains("\x1b[1m\x1b[91merror[nifu]"), "{tty:?}");
    let o = run(&conv);
    assert!(!o.stderr.contains(&0x1b));
    Ok(())
}

fn strip_ansi(s: &str) -> String {
    let mut out = String::new();
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        if c == '\x1b' {
            for d in chars.by_ref() {
                if d.is_ascii_alphabetic() {
                    break;
                }
            }
        } else {
            out.push(c);
        }
    }
    out
}

// ---- Layout --------------------------------------------------------------------

fn the_human_layout_is_pinned() {
    let dir = tempfile::tempdir().unwrap();
    let f = nifu_file(dir.path());
    let o = run(&["validate", s(&f)]);
    let name = s(&f);
    assert_eq!(
        out(&o),
        format!(
            "{name}:7:1: error[nifu]: illegal move P*5c: two unpromoted pawns on one file (nifu)
  |
7 | +0053FU
  | ^
  |
  = ply 3, move +0053FU
  = sfen 5k3/9/9/9/9/9/4P4/4K4/9 b P 3
"
        )
    );
    // Full-width characters take two columns: the caret stands under the
    // character the column names, and is two columns wide.
    let kif = dir.path().join("wide.kifu");
    std::fs::write(
        &kif,
        "手合割：平手\n   1 ７六歩(77)\n   2 ３四歩(33)\n   3 ５五角打\n",
    )
    .unwrap();
    let text = out(&run(&["validate", s(&kif)]));
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines[0].contains(":4:6: error[not-in-hand]"), "{text}");
    assert_eq!(lines[1], "  |");
    assert_eq!(lines[2], "4 |    3 ５五角打");
    assert_eq!(lines[3], "  |      ^^");
    // A tab is four columns; the caret after it is aligned.
    let tab = dir.path().join("tab.csa");
    std::fs::write(&tab, "V2.2\nPI\n+\n+7776FU\n-3334FU\n+2726FU\t+9988XX\n").unwrap();
    let text = out(&run(&["validate", s(&tab)]));
    assert!(
        text.contains(":6:8: error[syntax]: expected the end of the move, found `\t+9988XX`\n  |\n6 | +2726FU    +9988XX\n  |        ^^^^\n"),
        "{text}"
    );
    // Control characters are shown as escapes and counted so.
    let ctl = dir.path().join("ctl.kifu");
    std::fs::write(
        &ctl,
        "手合割：平手\n   1 ７六歩(77)\n   2 ３四歩(33)\n   3\x1b ５五角打\n",
    )
    .unwrap();
    let text = out(&run(&["validate", s(&ctl)]));
    assert!(!text.contains('\x1b'), "{text:?}");
    let expected = format!(
        "{name}:4:5: warning[dialect]: unknown terminal word `\\e` kept as it is
  |
4 |    3\\e ５五角打
  |     ^^
{name}:4:7: warning[dialect]: ignored text after the move: `５五角打`
  |
4 |    3\\e ５五角打
  |        ^^
",
        name = s(&ctl)
    );
    assert_eq!(text, expected);
}
