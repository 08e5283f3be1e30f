//! `kifu html`: one self-contained replay page per game; with --out-dir
//! also `index.html`, every game in one table, and `explorer.html`, the
//! opening tree of the collection (built in the same replay).

use crate::args::{ColorArg, HtmlArgs};
use crate::batch::{self, FileMeta};
use crate::cmd::common::{self, Consumer, Job, StartError};
use crate::out;
use crate::output::{Destination, OutDirPlan, Plan, Split};
use crate::progress::Progress;
use crate::report::Reporter;
use kifu::diagram::html::{html, HtmlOptions};
use kifu::diagram::index::{Index, IndexOptions, IndexRow};
use kifu::read::Severity;
use kifu::replay::Replay;
use kifu::stats::{Stats, StatsOptions};
use kifu::tree::{Facts, GamePath, Tree, TreeOptions, Walk};
use kifu::validate::{GameReport, ValidateOptions};
use std::collections::HashMap;
use std::io::Write;
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// What a worker hands back for one game.
struct PageOut {
    report: GameReport,
    page: Result<Option<String>, String>,
    /// The game's row of the index (its link is set when the page is
    /// written).
    row: IndexRow,
    /// The game's path through the explorer's tree, with its result,
    /// ratings and date (with --out-dir, unless --no-explorer).
    walk: Option<(GamePath, Facts)>,
}

/// The opening explorer of an --out-dir run: the tree so far and where it
/// goes.
struct Explorer {
    tree: Tree,
    /// Input index → the tree's source id.
    sources: HashMap<usize, u32>,
    path: PathBuf,
}

/// The index of an --out-dir run: its rows so far (their JSON only, not
/// the records), where it goes and the folder its links are relative to.
struct Site {
    index: Index,
    path: PathBuf,
    dir: PathBuf,
    explorer: Option<Explorer>,
}

/// The link to `page` from the index in `dir`: its path below `dir`,
/// percent-encoded (bytes other than unreserved ones and `/`).
fn href(dir: &Path, page: &Path) -> String {
    let rel = page.strip_prefix(dir).unwrap_or(page);
    let mut out = String::new();
    for (k, c) in rel.components().enumerate() {
        if k > 0 {
            out.push('/');
        }
        for &b in c.as_os_str().as_encoded_bytes() {
            if b.is_ascii_alphanumeric() || b"-._~".contains(&b) {
                out.push(b as char);
            } else {
                out.push_str(&format!("%{b:02X}"));
            }
        }
    }
    out
}

struct State {
    /// Every output of the run.
    plan: Plan,
    /// The names of the pages with --out-dir.
    names: Option<OutDirPlan>,
    /// The one page's destination without --out-dir (-o, or standard
    /// output).
    dest: Destination,
    /// Pages written to -o or standard output so far.
    single_written: usize,
    /// The first page of the current input, held until we know whether the
    /// file has more games (which decides its name), with its index row.
    first: Option<(usize, String, IndexRow)>,
    /// The index, with --out-dir.
    site: Option<Site>,
    /// Games seen in the current input, valid or not.
    file_games: usize,
    failed_inputs: usize,
    io_errors: usize,
    input_failed: bool,
    /// An output failed: the run stops.
    stop: bool,
    /// Standard output was closed by its reader (`| head`): the run stops
    /// quietly, with code 0.
    closed: bool,
    /// Findings and notes, in the `--diagnostics` style.
    rep: Reporter,
}

/// Plans every page before the first game is read: by the naming rule
/// of `convert --out-dir` (each game of a file of several is a numbered
/// page), or the one -o; with --out-dir, `index.html` too (no game page
/// may be named so). GitHub's job summary, and the names.
fn plan(
    a: &HtmlArgs,
    job: &mut Job,
    dest: &Destination,
) -> Result<(Option<crate::output::Appended>, Option<OutDirPlan>), StartError> {
    let summary = job.job_summary(a.diagnostics.style())?;
    let names = match &a.out_dir {
        Some(dir) => {
            let names = job
                .plan
                .out_dir(dir, &a.input.paths, &job.inputs, "html", Split::Always)
                .map_err(StartError::OutDir)?;
            let index = dir.join(INDEX);
            if let Some(i) = names.single_owner(&index) {
                return Err(StartError::OutDir(vec![format!(
                    "{} would be written to {}, the index of the pages (rename it, or use another --out-dir)",
                    job.inputs[i].display,
                    index.display()
                )]));
            }
            job.claim(&Destination::Path(index), "the index")?;
            if !a.no_explorer {
                let explorer = dir.join(EXPLORER);
                if let Some(i) = names.single_owner(&explorer) {
                    return Err(StartError::OutDir(vec![format!(
                        "{} would be written to {}, the opening explorer (rename it, use another --out-dir, or --no-explorer)",
                        job.inputs[i].display,
                        explorer.display()
                    )]));
                }
                job.claim(&Destination::Path(explorer), "the opening explorer")?;
            }
            Some(names)
        }
        None => {
            job.claim(dest, "-o")?;
            None
        }
    };
    Ok((summary, names))
}

/// The index page's name in --out-dir.
const INDEX: &str = "index.html";

/// The opening explorer's name in --out-dir.
const EXPLORER: &str = "explorer.html";

pub fn run(a: HtmlArgs, color: ColorArg) -> std::io::Result<u8> {
    let exclude: Vec<PathBuf> = a.out_dir.iter().cloned().collect();
    let mut job = Job::new("html", &a.input, &exclude, a.force);
    let strictness = match a.strict.strictness() {
        Ok(s) => s,
        Err(e) => return Ok(job.refuse(&StartError::Usage(e))),
    };
    let dest = a
        .output
        .as_ref()
        .map_or(Destination::Stdout, |p| Destination::parse(p.as_os_str()));
    let (summary, names) = match plan(&a, &mut job, &dest) {
        Ok(p) => p,
        Err(e) => return Ok(job.refuse(&e)),
    };
    let opts = HtmlOptions {
        notation: common::notation_of(a.notation),
        coords: common::coords_of(a.coords),
        flip: a.flip,
        names: true,
    };
    let tree_opts = TreeOptions {
        plies: a.explorer_plies,
        min_games: a.explorer_min_games,
        ..TreeOptions::default()
    };
    let explore = a.out_dir.is_some() && !a.no_explorer;
    let mut progress = job.progress(true);
    let style = a.diagnostics.style();
    let rep = job.reporter(style, strictness, color, summary, &progress, |s| {
        s.errors_only = true
    });
    let mut st = State {
        // The plan goes on here: the pages are claimed as they are opened.
        plan: std::mem::replace(&mut job.plan, Plan::new(&[], false)),
        names,
        dest,
        single_written: 0,
        first: None,
        site: a.out_dir.as_ref().map(|dir| Site {
            index: Index::new(),
            path: dir.join(INDEX),
            dir: dir.clone(),
            explorer: (!a.no_explorer).then(|| Explorer {
                tree: Tree::new(tree_opts.clone()),
                sources: HashMap::new(),
                path: dir.join(EXPLORER),
            }),
        }),
        file_games: 0,
        failed_inputs: 0,
        io_errors: 0,
        input_failed: false,
        stop: false,
        closed: false,
        rep,
    };
    let vopts = ValidateOptions::default();
    let read_opts = common::read_options(&a.input, a.encoding);
    let workers = common::workers(&a.input, |n| st.rep.tool_warning(n, &progress));
    // One replay per worker (reset by each game), with the collector of
    // the index's row and the explorer's walk: the names both show are
    // found once.
    let validator = || {
        Replay::new(
            vopts,
            (
                Stats::new(StatsOptions::default()),
                explore.then(|| Walk::new(&tree_opts)),
            ),
        )
        .with_names(Some(kifu::tags::Taxonomy::builtin()))
    };
    let notation = opts.notation;
    let per_game = batch::EachGameWith(
        validator,
        |v: &mut Replay<(Stats, Option<Walk>)>, _meta: &FileMeta, game| {
            let replayed = kifu::read::visit_game(&game, v);
            let (stats, path) = replayed.output;
            let row = IndexRow::from_game_row(&stats.row, String::new(), notation);
            let mut report = replayed.report;
            let walk = path.map(|p| {
                let start = if stats.row.start_time.is_empty() {
                    &stats.row.start_time_raw
                } else {
                    &stats.row.start_time
                };
                let facts = Facts {
                    rating: [stats.row.sente_rating, stats.row.gote_rating],
                    ..Facts::of(&report)
                }
                .with_start_time(start);
                (p, facts)
            });
            strictness.apply_report(&mut report);
            let page = if report.ok {
                html(&game.record, &opts)
                    .map(Some)
                    .map_err(|e| e.to_string())
            } else {
                Ok(None)
            };
            PageOut {
                report,
                page,
                row,
                walk,
            }
        },
    );
    job.drive(&workers, &read_opts, per_game, &mut progress, &mut st);
    if st.closed {
        // The reader of standard output went away: nothing more is said.
        return Ok(out::OK);
    }
    if !st.stop {
        st.write_index(notation, &progress);
    }
    if !st.stop {
        let title = format!("kifu html: {}", a.input.paths.join(" "));
        st.write_explorer(&title, notation, &progress);
    }
    let (counts, _) = st.rep.finish(false, &progress);
    Ok(common::exit_code(
        st.io_errors > 0 || counts.unreadable > 0 || counts.output_failed,
        st.failed_inputs > 0 || counts.denied_skips > 0,
    ))
}

impl Consumer<PageOut> for State {
    fn game(
        &mut self,
        meta: &Arc<FileMeta>,
        index: usize,
        mut g: PageOut,
        progress: &Progress,
    ) -> ControlFlow<()> {
        g.report.index = index;
        State::game(self, meta, g, progress);
        common::flow(self.stop)
    }

    fn file_done(&mut self, meta: &FileMeta, progress: &Progress) -> ControlFlow<()> {
        self.rep.file_done(meta, progress);
        State::file_done(self, meta, progress);
        common::flow(self.stop)
    }
}

impl State {
    fn fail(&mut self, meta: &FileMeta, progress: &Progress, msg: &str) {
        self.rep.note(
            Some(&meta.display),
            Some(Severity::Error),
            None,
            msg,
            progress,
        );
        self.input_failed = true;
    }

    /// An output that could not be written: reported once, exit 2, and the
    /// run stops (a full disk fails every later page too).
    fn output_error(&mut self, name: &str, e: &std::io::Error, progress: &Progress) {
        self.rep.note(
            Some(name),
            Some(Severity::Error),
            Some(kifu::read::Rule::Io),
            &e.to_string(),
            progress,
        );
        self.io_errors += 1;
        self.input_failed = true;
        self.stop = true;
    }

    /// Writes `index.html` (planned up front) with the rows of the pages
    /// written.
    fn write_index(&mut self, notation: kifu::diagram::Notation, progress: &Progress) {
        let Some(site) = &self.site else { return };
        let opts = IndexOptions {
            notation,
            explorer: site.explorer.as_ref().map(|_| EXPLORER.to_string()),
            ..IndexOptions::default()
        };
        let path = site.path.clone();
        // Claimed when planned.
        let result = self
            .plan
            .open(&Destination::Path(path.clone()))
            .and_then(|f| {
                let mut w = std::io::BufWriter::new(f);
                site.index.write(&opts, &mut w)?;
                w.into_inner().map_err(|e| e.into_error())?.commit()
            });
        if let Err(e) = result {
            self.output_error(&path.display().to_string(), &e, progress);
        }
    }

    /// Writes `explorer.html` (planned up front): the opening tree of the
    /// games that have a page.
    fn write_explorer(
        &mut self,
        title: &str,
        notation: kifu::diagram::Notation,
        progress: &Progress,
    ) {
        let Some(explorer) = self.site.as_mut().and_then(|s| s.explorer.take()) else {
            return;
        };
        if explorer.tree.pruned_below() > 0 {
            self.rep.note(
                None,
                Some(Severity::Warning),
                None,
                &format!(
                    "explorer.html: positions and moves with at most {} games were pruned while reading (more than {} positions), so its counts may be short (docs/tree.md)",
                    explorer.tree.pruned_below(),
                    explorer.tree.options().max_nodes
                ),
                progress,
            );
        }
        let path = explorer.path;
        let nodes = explorer.tree.finish();
        // Claimed when planned.
        let result = self
            .plan
            .open(&Destination::Path(path.clone()))
            .and_then(|f| {
                let mut w = std::io::BufWriter::new(f);
                kifu::tree::html::write(nodes, title, notation, &mut w)?;
                w.into_inner().map_err(|e| e.into_error())?.commit()
            });
        if let Err(e) = result {
            self.output_error(&path.display().to_string(), &e, progress);
        }
    }

    /// Adds a game with a page to the explorer's tree.
    fn explore(&mut self, meta: &FileMeta, index: usize, walk: Option<(GamePath, Facts)>) {
        let (Some(explorer), Some((path, facts))) =
            (self.site.as_mut().and_then(|s| s.explorer.as_mut()), walk)
        else {
            return;
        };
        let tree = &mut explorer.tree;
        let source = *explorer
            .sources
            .entry(meta.input)
            .or_insert_with(|| tree.source(&meta.display));
        tree.add(&path, &facts, source, index as u32);
    }

    /// Writes the page of game `n` of the current input (`None`: its only
    /// game) under its planned name in --out-dir, and adds its row to the
    /// index.
    fn write_page(
        &mut self,
        n: Option<usize>,
        page: &str,
        mut row: IndexRow,
        meta: &FileMeta,
        progress: &Progress,
    ) {
        let Some(names) = &self.names else { return };
        let Some(path) = (match n {
            Some(n) => names.numbered(meta.input, n),
            None => names.single(meta.input),
        }) else {
            return;
        };
        let result = self
            .plan
            .open_in_dir(&path, &meta.display)
            .and_then(|mut f| {
                f.write_all(page.as_bytes())?;
                f.commit()
            });
        match result {
            Ok(()) => {
                if let Some(site) = &mut self.site {
                    row.href = href(&site.dir, &path);
                    site.index.push(&row);
                }
            }
            Err(e) => self.output_error(&path.display().to_string(), &e, progress),
        }
    }

    /// Writes the one page to -o or standard output.
    fn write_single(&mut self, page: &str, progress: &Progress) {
        let result = self.plan.open(&self.dest).and_then(|mut f| {
            f.write_all(page.as_bytes())?;
            f.commit()
        });
        match result {
            Ok(()) => {}
            Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => {
                self.closed = true;
                self.stop = true;
            }
            Err(e) => {
                let name = self.dest.display();
                self.output_error(&name, &e, progress);
            }
        }
    }

    fn game(&mut self, meta: &FileMeta, mut g: PageOut, progress: &Progress) {
        let index = g.report.index;
        self.file_games += 1;
        if self.names.is_some() && self.file_games == 2 {
            // The file has several games: numbered names for all.
            if let Some((i, first, row)) = self.first.take() {
                self.write_page(Some(i), &first, row, meta, progress);
            }
        }
        self.rep.game(meta, &mut g.report, progress);
        if !g.report.ok {
            self.input_failed = true;
            return;
        }
        let page = match g.page {
            Ok(Some(p)) => p,
            Ok(None) => return,
            Err(e) => {
                return self.fail(meta, progress, &format!("game {}: {e}", g.report.index + 1))
            }
        };
        self.explore(meta, index, g.walk);
        if self.names.is_none() {
            if self.single_written > 0 {
                return self.fail(
                    meta,
                    progress,
                    &format!(
                        "game {}: one page per game; use --out-dir for several games",
                        index + 1
                    ),
                );
            }
            self.single_written += 1;
            return self.write_single(&page, progress);
        }
        if self.file_games == 1 {
            self.first = Some((index, page, g.row));
            return;
        }
        self.write_page(Some(index), &page, g.row, meta, progress);
    }

    fn file_done(&mut self, meta: &FileMeta, progress: &Progress) {
        if let Some((_, first, row)) = self.first.take() {
            self.write_page(None, &first, row, meta, progress);
        }
        if self.input_failed {
            self.failed_inputs += 1;
        }
        self.file_games = 0;
        self.input_failed = false;
    }
}
