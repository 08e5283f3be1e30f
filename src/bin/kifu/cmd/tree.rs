//! `kifu tree`: the opening tree (the library's [`kifu::tree`]); this
//! file reads the arguments, hands each selected game to the tree in
//! input order and prints.

use crate::args::{TreeArgs, TreeFormat};
use crate::batch::{self, FileMeta};
use crate::cmd::common::{self, Consumer, Job, StartError};
use crate::cmd::select::{report_read_errors, Keep};
use crate::out;
use crate::output::Destination;
use crate::progress::Progress;
use kifu::replay::Replayed;
use kifu::rules::Position;
use kifu::select::Verdict;
use kifu::tree::{Facts, GamePath, Tree, TreeOptions, Walk};
use kifu::validate::ValidateOptions;
use kifu::{Move, Variant};
use std::collections::HashMap;
use std::io::Write;
use std::ops::ControlFlow;
use std::sync::Arc;

/// The root of `--from-sfen` or `--from-moves`.
fn root(a: &TreeArgs) -> Result<Option<Position>, StartError> {
    if let Some(sfen) = &a.from_sfen {
        let s = sfen.trim();
        let full = if s.split_whitespace().count() == 3 {
            format!("{s} 1")
        } else {
            s.to_string()
        };
        return Position::from_sfen(&full)
            .map(Some)
            .map_err(|e| StartError::Usage(format!("--from-sfen: {e}")));
    }
    let Some(moves) = &a.from_moves else {
        return Ok(None);
    };
    let mut pos = Position::new(Variant::Standard);
    for usi in moves
        .split(|c: char| c == ',' || c.is_whitespace())
        .filter(|s| !s.is_empty())
    {
        let mv = Move::from_usi(usi, Variant::Standard)
            .ok_or_else(|| StartError::Usage(format!("--from-moves: not a USI move: {usi:?}")))?;
        pos.play(mv)
            .map_err(|e| StartError::Usage(format!("--from-moves: {usi}: {e}")))?;
    }
    Ok(Some(pos))
}

pub fn run(a: TreeArgs) -> std::io::Result<u8> {
    let mut job = Job::new("tree", &a.input, &[], a.force);
    let root = match root(&a) {
        Ok(r) => r,
        Err(e) => return Ok(job.refuse(&e)),
    };
    let dest = a
        .output
        .as_ref()
        .map_or(Destination::Stdout, |p| Destination::parse(p.as_os_str()));
    if let Err(e) = job.claim(&dest, "the tree") {
        return Ok(job.refuse(&e));
    }
    if let Some(code) = job.nothing_found() {
        return Ok(code);
    }
    let opts = TreeOptions {
        plies: a.plies,
        min_games: a.min_games,
        root,
        max_nodes: a.max_nodes.max(1),
    };
    let filter = a.filter.filter(None);
    let read_opts = common::read_options(&a.input, a.encoding);
    let mut progress = job.progress(true);
    let mut g = Growing {
        tree: Tree::new(opts.clone()),
        keep: Keep::new(a.filter.dedupe),
        sources: HashMap::new(),
        unreadable: 0,
        bad_games: 0,
        lines: common::SourceLines::default(),
    };
    let workers = common::workers(&a.input, common::warn_plain);
    let vopts = ValidateOptions::default();
    // From the start, the tree uses the names found in its first plies
    // only: past them the games are not named (unless the filter asks
    // for names).
    let name_plies = if opts.root.is_none() {
        opts.plies
    } else {
        u32::MAX
    };
    let per_game = batch::Visitors(|| {
        let r = crate::cmd::select::replay(&filter, true, vopts, Walk::new(&opts), true);
        if r.observer().0.needs_names() {
            r
        } else {
            r.with_names_until(name_plies)
        }
    });
    job.drive(&workers, &read_opts, per_game, &mut progress, &mut g);
    if let Some(code) = job.nothing_streamed() {
        return Ok(code);
    }
    let Growing {
        tree,
        unreadable,
        bad_games,
        ..
    } = g;
    if tree.pruned_below() > 0 {
        out::err(&format!(
            "kifu tree: warning: more than {} positions: positions and moves with at most {} games were pruned while reading, so counts may be short (docs/tree.md; raise --max-nodes)",
            opts.max_nodes,
            tree.pruned_below()
        ));
    }
    let title = format!("kifu tree: {}", a.input.paths.join(" "));
    let notation = common::notation_of(a.notation);
    let nodes = tree.finish();
    let mut sink = match job.open(&dest) {
        Ok(s) => s,
        Err(e) => return Ok(job.refuse(&e)),
    };
    let stdout = matches!(dest, Destination::Stdout);
    let written = {
        let mut w = std::io::BufWriter::with_capacity(1 << 16, &mut sink);
        let r = match a.format {
            TreeFormat::Text => kifu::tree::write_text(nodes, notation, &mut w),
            TreeFormat::Json => kifu::tree::write_jsonl(nodes, &mut w),
            TreeFormat::Csv => kifu::tree::write_csv(nodes, notation, &mut w),
            TreeFormat::Html => kifu::tree::html::write(nodes, &title, notation, &mut w),
        };
        r.and_then(|()| w.flush())
    }
    .and_then(|()| sink.commit());
    if let Err(e) = written {
        if stdout {
            return Err(e);
        }
        out::err(&format!("kifu tree: cannot write {}: {e}", dest.display()));
        return Ok(out::FAILURE);
    }
    Ok(common::exit_code(unreadable > 0, bad_games > 0))
}

/// The tree as the games come, in input order.
struct Growing {
    tree: Tree,
    keep: Keep,
    /// Input index → the tree's source id.
    sources: HashMap<usize, u32>,
    unreadable: u64,
    bad_games: u64,
    lines: common::SourceLines,
}

impl Consumer<Replayed<(Verdict, GamePath)>> for Growing {
    fn game(
        &mut self,
        meta: &Arc<FileMeta>,
        index: usize,
        mut g: Replayed<(Verdict, GamePath)>,
        progress: &Progress,
    ) -> ControlFlow<()> {
        g.report.index = index;
        let (verdict, path) = &g.output;
        if verdict.read_error {
            self.bad_games += 1;
            report_read_errors(meta, &g.report, progress, &mut self.lines);
        }
        if !self.keep.keep(verdict.matched, g.report.game_key) {
            return ControlFlow::Continue(());
        }
        let tree = &mut self.tree;
        let source = *self
            .sources
            .entry(meta.input)
            .or_insert_with(|| tree.source(&meta.display));
        let facts = Facts {
            rating: verdict.info.players.rating,
            ..Facts::of(&g.report)
        }
        .with_start_time(&verdict.info.start_time);
        tree.add(path, &facts, source, index as u32);
        ControlFlow::Continue(())
    }

    fn file_done(&mut self, meta: &FileMeta, progress: &Progress) -> ControlFlow<()> {
        if let Some(line) = common::issue_line(meta) {
            progress.println(&line);
            self.unreadable += u64::from(meta.error.is_some());
        }
        ControlFlow::Continue(())
    }
}
