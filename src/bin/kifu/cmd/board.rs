//! `kifu board`: draws one position (or every position) of a game.

use crate::args::{BoardArgs, BoardFormat, ColorArg};
use crate::batch::{self, FileMeta, Input};
use crate::cmd::common;
use crate::out;
use crate::output::{Destination, Plan};
use kifu::diagram::{self, Notation, Options};
use kifu::read::{DecodeOptions, Game, ReadOptions, Severity};
use kifu::record::{HeaderKey, Record};
use kifu::validate::{validate, ValidateOptions};
use kifu::{Handicap, Move, Position, Square};
use std::ffi::OsString;
use std::io::{BufReader, IsTerminal, Write};

/// A game read from the input, and what is needed to report on it.
struct Loaded {
    game: Game,
    meta: FileMeta,
    /// The input's file stem, which names the pictures of --every-ply.
    stem: OsString,
}

/// Prints a message of `kifu board` (names made visible).
fn say(msg: &str) {
    out::err(&format!("kifu board: {msg}"));
}

/// Draws the position(s) `a` asks for; the exit code (2 for a usage or
/// output error, 1 for a record that cannot be replayed that far).
pub fn run(a: BoardArgs) -> std::io::Result<u8> {
    Ok(draw(a))
}

fn draw(a: BoardArgs) -> u8 {
    let format = a.to.unwrap_or_else(|| default_format(&a));
    // `-o -` is standard output, as with no -o.
    let dest = a
        .output
        .as_ref()
        .map_or(Destination::Stdout, |p| Destination::parse(p.as_os_str()));
    if let Some(sfen) = &a.sfen {
        let setup = match kifu::rules::parse_sfen(sfen, None) {
            Ok(s) => s,
            Err(e) => {
                say(&format!("--sfen: {e}"));
                return out::FAILURE;
            }
        };
        let mut plan = Plan::new(&[], a.force);
        if let Err(e) = plan.claim(&dest, "-o") {
            say(&e.to_string());
            return out::FAILURE;
        }
        let pos = Position::from_setup_unchecked(&setup);
        let opts = Options {
            caption: a.caption.clone().filter(|c| !c.is_empty()),
            coords: common::coords_of(a.coords),
            flip: a.flip,
            ..Options::default()
        };
        return emit(&a, format, &pos, opts, &plan, &dest);
    }
    let Some(input) = a.input.as_deref() else {
        say("give an INPUT or --sfen");
        return out::FAILURE;
    };
    let inputs = batch::discover(&[input.to_string()], &[], a.from, &[]).inputs;
    // The output is planned before the record is read (the pictures of
    // --every-ply once their number is known, before the first is written).
    let mut plan = Plan::new(&inputs, a.force);
    if !a.every_ply {
        if let Err(e) = plan.claim(&dest, "-o") {
            say(&e.to_string());
            return out::FAILURE;
        }
    }
    let loaded = match load(&a, input, &inputs) {
        Ok(l) => l,
        Err(code) => return code,
    };
    let rec = &loaded.game.record;
    let len = rec.main.moves.len() as u32;
    let target = if a.every_ply {
        len
    } else {
        a.ply.unwrap_or(len)
    };
    if target > len {
        say(&format!(
            "{}: game {} has {len} moves; --ply {target} is past its end",
            loaded.meta.display, a.game
        ));
        return out::FAILURE;
    }
    // Positions before each move up to the target, checked move by move.
    let mut positions = Vec::with_capacity(target as usize + 1);
    let mut pos = Position::from_setup_unchecked(&rec.start.setup);
    positions.push(pos);
    let mut illegal = loaded.game.has_errors();
    for node in rec.main.moves.iter().take(target as usize) {
        if illegal || pos.play(node.mv).is_err() {
            illegal = true;
            break;
        }
        positions.push(pos);
    }
    if illegal {
        report_invalid(&loaded);
        return out::PROBLEMS;
    }
    if a.every_ply {
        return every_ply(&a, format, &loaded, &positions, &mut plan);
    }
    let opts = options_at(&a, rec, &positions, target as usize);
    emit(&a, format, &positions[target as usize], opts, &plan, &dest)
}

fn default_format(a: &BoardArgs) -> BoardFormat {
    let ext = a
        .output
        .as_ref()
        .and_then(|p| p.extension())
        .and_then(|e| e.to_str())
        .map(|e| e.to_ascii_lowercase());
    match ext.as_deref() {
        Some("svg") => BoardFormat::Svg,
        Some("bod" | "kif" | "kifu") => BoardFormat::Bod,
        Some(_) => BoardFormat::Text,
        None if a.every_ply => BoardFormat::Svg,
        None => BoardFormat::Text,
    }
}

/// Reads game `--game` of `input`, found as `inputs`.
fn load(a: &BoardArgs, input: &str, inputs: &[Input]) -> Result<Loaded, u8> {
    let mut unreadable = false;
    for i in inputs {
        if let Some(batch::Issue::Error(msg) | batch::Issue::Skipped(msg)) = &i.issue {
            crate::out::err(&format!("{}: error[io]: {msg}", i.display));
            unreadable = true;
        }
    }
    if unreadable {
        return Err(out::FAILURE);
    }
    let [inp] = inputs else {
        say(&format!(
            "{input}: expected one record file (or - for standard input)"
        ));
        return Err(out::FAILURE);
    };
    let source: kifu::read::Source = match &inp.path {
        None => Box::new(BufReader::new(std::io::stdin())),
        Some(p) => match std::fs::File::open(p) {
            Ok(f) => Box::new(BufReader::with_capacity(1 << 20, f)),
            Err(e) => {
                out::err(&format!("{}: error[io]: {e}", inp.display));
                return Err(out::FAILURE);
            }
        },
    };
    let opts = ReadOptions {
        decode: DecodeOptions {
            encoding: a.encoding,
            lossy: a.lossy,
        },
    };
    let (format, encoding, games) = match kifu::read::open(source, inp.format, &opts) {
        Ok(x) => x,
        Err(e) => {
            out::err(&format!("{}: error[io]: {e}", inp.display));
            return Err(out::FAILURE);
        }
    };
    let wanted = a.game as usize - 1;
    let mut count = 0;
    let mut found = None;
    for g in games {
        if count == wanted {
            found = Some(g);
            break;
        }
        count += 1;
    }
    let Some(game) = found else {
        say(&format!(
            "{}: {count} game{} in the file; --game {} is not there",
            inp.display,
            if count == 1 { "" } else { "s" },
            a.game
        ));
        return Err(out::FAILURE);
    };
    let meta = FileMeta {
        input: 0,
        display: inp.display.clone(),
        format: Some(format),
        encoding: Some(encoding),
        error: None,
        bytes: inp.size,
        ..FileMeta::default()
    };
    let stem = inp
        .path
        .as_ref()
        .and_then(|p| p.file_stem())
        .map_or_else(|| OsString::from("board"), |s| s.to_os_string());
    Ok(Loaded { game, meta, stem })
}

/// Prints what makes the game unreadable up to the requested ply, as
/// `kifu validate` does.
fn report_invalid(l: &Loaded) {
    let report = validate(&l.game, &ValidateOptions::default());
    let mut sources = common::SourceLines::default();
    let mut shown = 0;
    for f in report.findings.iter().filter(|f| {
        f.severity == Severity::Error
            && !matches!(
                f.rule,
                kifu::read::Rule::ClaimMismatch
                    | kifu::read::Rule::AfterEnd
                    | kifu::read::Rule::Time
            )
    }) {
        // Already made visible piece by piece.
        out::err_raw(&common::human_lines(&l.meta, &report, f, &mut sources).join("\n"));
        shown += 1;
    }
    if shown == 0 {
        out::err(&format!(
            "{}: error: game {} cannot be replayed up to that ply",
            l.meta.display,
            l.game.index + 1
        ));
    }
}

fn handicap(rec: &Record) -> bool {
    matches!(rec.start.handicap, Some(h) if h != Handicap::Even)
}

/// Options for the position after `k` moves of the main line.
fn options_at(a: &BoardArgs, rec: &Record, positions: &[Position], k: usize) -> Options {
    let notation = common::notation_of(a.notation);
    let mut opts = Options {
        coords: common::coords_of(a.coords),
        flip: a.flip,
        handicap: handicap(rec),
        names: [
            rec.header.get(&HeaderKey::Sente).map(str::to_string),
            rec.header.get(&HeaderKey::Gote).map(str::to_string),
        ],
        ..Options::default()
    };
    if k > 0 {
        let mv: Move = rec.main.moves[k - 1].mv;
        let prev_to: Option<Square> = (k >= 2).then(|| rec.main.moves[k - 2].mv.to());
        let before = &positions[k - 1];
        opts.last_move = Some(mv);
        // The BOD line names the square (not 同): a reader resolves a
        // following 同 from it.
        opts.last_move_ki2 = Some(diagram::move_text(before, mv, None, Notation::Kif));
        opts.caption = Some(diagram::caption(before, mv, prev_to, notation));
    }
    if let Some(c) = &a.caption {
        opts.caption = (!c.is_empty()).then(|| c.clone());
    }
    opts
}

fn render(format: BoardFormat, pos: &Position, opts: &Options) -> String {
    match format {
        BoardFormat::Text => diagram::text(pos, opts),
        BoardFormat::Svg => diagram::svg(pos, opts),
        BoardFormat::Bod => diagram::bod(pos, opts),
    }
}

/// Writes `bytes` to `dest`, an output claimed in `plan`, atomically
/// where it is a file; returns the exit code on failure.
fn write_file(plan: &Plan, dest: &Destination, bytes: &[u8]) -> Result<(), u8> {
    let result = plan.open(dest).and_then(|mut f| {
        f.write_all(bytes)?;
        f.commit()
    });
    result.map_err(|e| {
        out::err(&format!("{}: error[io]: {e}", dest.display()));
        out::FAILURE
    })
}

fn emit(
    a: &BoardArgs,
    format: BoardFormat,
    pos: &Position,
    mut opts: Options,
    plan: &Plan,
    dest: &Destination,
) -> u8 {
    if let Destination::Path(_) = dest {
        opts.color = a.color == ColorArg::Always;
        let text = render(format, pos, &opts);
        return match write_file(plan, dest, text.as_bytes()) {
            Ok(()) => out::OK,
            Err(code) => code,
        };
    }
    opts.color = format == BoardFormat::Text && a.color != ColorArg::Never;
    let text = render(format, pos, &opts);
    let choice = match a.color {
        ColorArg::Auto => anstream::ColorChoice::Auto,
        ColorArg::Always => anstream::ColorChoice::Always,
        ColorArg::Never => anstream::ColorChoice::Never,
    };
    let mut out = anstream::AutoStream::new(std::io::stdout().lock(), choice);
    if let Err(e) = out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        if e.kind() == std::io::ErrorKind::BrokenPipe {
            return out::OK;
        }
        say(&format!("cannot write output: {e}"));
        return out::FAILURE;
    }
    out::OK
}

/// One picture per position into --out-dir, all planned (and refused, if
/// one must be) before the first is written; the first write that fails
/// stops the run.
fn every_ply(
    a: &BoardArgs,
    format: BoardFormat,
    l: &Loaded,
    positions: &[Position],
    plan: &mut Plan,
) -> u8 {
    let dir = a.out_dir.as_ref().expect("clap requires --out-dir");
    let dests: Vec<Destination> = (0..positions.len())
        .map(|k| {
            let mut name = l.stem.clone();
            name.push(format!("-{k:04}.{}", format.extension()));
            Destination::Path(dir.join(name))
        })
        .collect();
    let refused: Vec<String> = dests
        .iter()
        .filter_map(|d| plan.claim(d, &l.meta.display).err())
        .map(|e| e.to_string())
        .collect();
    if let Some(first) = refused.first() {
        say(first);
        say(&format!(
            "{} of the {} pictures refused; nothing written",
            refused.len(),
            dests.len()
        ));
        return out::FAILURE;
    }
    let bar = progress_bar(positions.len() as u64);
    for (k, (pos, dest)) in positions.iter().zip(&dests).enumerate() {
        let mut opts = options_at(a, &l.game.record, positions, k);
        opts.color = a.color == ColorArg::Always;
        let text = render(format, pos, &opts);
        if let Err(code) = write_file(plan, dest, text.as_bytes()) {
            bar.abandon();
            return code;
        }
        bar.inc(1);
    }
    bar.finish_and_clear();
    out::OK
}

/// A bar over the pictures, on standard error only when it is a terminal.
fn progress_bar(n: u64) -> indicatif::ProgressBar {
    if !std::io::stderr().is_terminal() {
        return indicatif::ProgressBar::hidden();
    }
    let bar = indicatif::ProgressBar::new(n);
    bar.set_style(
        indicatif::ProgressStyle::with_template(
            "{bar:30} {pos}/{len} pictures  [{elapsed_precise}]",
        )
        .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
    );
    bar
}
