//! `kifu select`, and the selection every reading command shares.

use crate::batch::{self, FileMeta};
use crate::cmd::common::{self, Consumer, Job};
use crate::filter_args::{SelectArgs, SelectFormat};
use crate::out::Out;
use crate::progress::Progress;
use kifu::read::Severity;
use kifu::replay::{Names, Observer, Replay, Replayed};
use kifu::select::{
    Contained, Dedupe, Duplicates, Filter, GameKey, MainLine, MainMoves, Selector, Verdict,
};
use kifu::validate::{GameReport, ValidateOptions};
use serde_json::json;
use std::ops::ControlFlow;
use std::sync::Arc;

/// The replay [`replay`] builds.
pub type Selecting<'f, O> = Replay<(Selector<'f>, O)>;

/// The replay every reading command runs on each worker: a [`Selector`]
/// applying `filter` beside the command's `observer`, naming games when
/// the filter asks for names or the command does (`names`). With `stop`,
/// a game the header and start rule out is not played further (only its
/// read errors are needed).
pub fn replay<O: Observer>(
    filter: &Filter,
    stop: bool,
    vopts: ValidateOptions,
    observer: O,
    names: bool,
) -> Selecting<'_, O> {
    let sel = Selector::new(filter).stop_rejected(stop);
    let names = names || sel.needs_names();
    Replay::new(vopts, (sel, observer)).with_names(names.then(kifu::tags::Taxonomy::builtin))
}

/// Which selected games a command goes on with, in input order: those
/// that match, less the later copies under `--dedupe`.
#[derive(Default)]
pub struct Keep {
    dedupe: Option<Dedupe>,
}

impl Keep {
    /// Keeps the first game of each key when `dedupe`.
    pub fn new(dedupe: bool) -> Keep {
        Keep {
            dedupe: dedupe.then(Dedupe::default),
        }
    }

    /// Whether a game the filter judged goes on (call once per game, in
    /// input order).
    pub fn keep(&mut self, matched: bool, key: GameKey) -> bool {
        matched && self.dedupe.as_mut().is_none_or(|d| d.first(key))
    }
}

pub fn run(a: SelectArgs) -> std::io::Result<u8> {
    let job = Job::new("select", &a.input, &[], false);
    if let Some(code) = job.nothing_found() {
        return Ok(code);
    }
    if let Err(e) = a.filter.check_patterns() {
        eprintln!("error: {e}");
        return Ok(2);
    }
    let filter = a.filter.filter(Some(&a.moves));
    let read_opts = common::read_options(&a.input, a.encoding);
    let mut progress = job.progress(true);
    let mut l = Listing {
        a: &a,
        w: Out::new(),
        keep: Keep::new(a.filter.dedupe),
        dups: a.duplicates.then(Duplicates::default),
        contained: a.contained.then(Contained::default),
        count: 0,
        unreadable: 0,
        bad_games: 0,
        sources: common::SourceLines::default(),
        files: Vec::new(),
        last_input: usize::MAX,
    };
    let workers = common::workers(&a.input, common::warn_plain);
    let vopts = ValidateOptions::default();
    // JSON lines carry each game's names (`names`).
    let json = a.format == SelectFormat::Json;
    // --contained keeps each selected game's start and main-line moves.
    let lines = a.contained;
    let per_game = batch::Visitors(|| {
        let observer = (json.then_some(Names), lines.then(MainMoves::default));
        replay(&filter, true, vopts, observer, json)
    });
    job.drive(&workers, &read_opts, per_game, &mut progress, &mut l);
    job.exit_code(l.finish())
}

/// What the command's own observers make of a game: the names (JSON
/// output) and the main line (`--contained`).
type PerGame = (Option<Option<kifu::tags::NamesView>>, Option<MainLine>);

/// The list under way.
struct Listing<'a> {
    a: &'a SelectArgs,
    w: Out,
    keep: Keep,
    dups: Option<Duplicates>,
    contained: Option<Contained>,
    count: u64,
    unreadable: u64,
    bad_games: u64,
    sources: common::SourceLines,
    /// The names of the files games of `--duplicates`/`--contained` come
    /// from, in input order (members of a tar read as it streams are not
    /// in the list of inputs): a game is kept as (its file's place here,
    /// its index in the file).
    files: Vec<String>,
    /// The input of the last name in `files`.
    last_input: usize,
}

impl Listing<'_> {
    /// The place in `files` of the file `meta` describes (added if new).
    fn file(&mut self, meta: &FileMeta) -> u32 {
        if self.last_input != meta.input || self.files.last() != Some(&meta.display) {
            self.files.push(meta.display.clone());
            self.last_input = meta.input;
        }
        (self.files.len() - 1) as u32
    }
}

impl Consumer<Replayed<(Verdict, PerGame)>> for Listing<'_> {
    fn game(
        &mut self,
        meta: &Arc<FileMeta>,
        index: usize,
        mut g: Replayed<(Verdict, PerGame)>,
        progress: &Progress,
    ) -> ControlFlow<()> {
        g.report.index = index;
        let verdict = &g.output.0;
        if verdict.read_error {
            self.bad_games += 1;
            report_read_errors(meta, &g.report, progress, &mut self.sources);
        }
        if !self.keep.keep(verdict.matched, g.report.game_key) {
            return ControlFlow::Continue(());
        }
        self.count += 1;
        if self.dups.is_some() {
            let file = self.file(meta);
            if let Some(d) = self.dups.as_mut() {
                d.add(g.report.game_key, file, index as u32);
            }
        } else if self.contained.is_some() {
            if let Some(line) = &g.output.1 .1 {
                let file = self.file(meta);
                if let Some(c) = self.contained.as_mut() {
                    c.add(line, g.report.game_key, file, index as u32);
                }
            }
        } else if !self.a.count {
            emit(&mut self.w, self.a.format, meta, index, &g);
        }
        common::flow(!self.w.ok())
    }

    fn file_done(&mut self, meta: &FileMeta, progress: &Progress) -> ControlFlow<()> {
        if let Some(line) = common::issue_line(meta) {
            progress.println(&line);
            self.unreadable += u64::from(meta.error.is_some());
        }
        common::flow(!self.w.ok())
    }
}

impl Listing<'_> {
    /// The count or the groups of copies; the exit code.
    fn finish(mut self) -> std::io::Result<u8> {
        let inputs = std::mem::take(&mut self.files);
        let w = &mut self.w;
        if self.a.count {
            w.line(&self.count.to_string());
        }
        if let Some(d) = self.dups {
            for group in d.groups() {
                let names = group
                    .games
                    .iter()
                    .map(|&(i, n)| (inputs[i as usize].as_str(), n as usize));
                match self.a.format {
                    SelectFormat::Human => {
                        w.line(&format!("{} {}", group.key, group.games.len()));
                        for (path, n) in names {
                            w.human(&format!("  {path}:{}", n + 1));
                        }
                    }
                    SelectFormat::Json => {
                        let games: Vec<_> = names
                            .map(|(path, n)| json!({"path": path, "game": n}))
                            .collect();
                        w.line(
                            &json!({"game_key": group.key, "count": games.len(), "games": games})
                                .to_string(),
                        );
                    }
                }
                if !w.ok() {
                    break;
                }
            }
        }
        if let Some(c) = self.contained {
            for group in c.groups() {
                let head = group.games[0].key;
                match self.a.format {
                    SelectFormat::Human => {
                        w.line(&format!("{head} {}", group.games.len()));
                        for g in &group.games {
                            let path = inputs[g.input as usize].as_str();
                            w.human(&format!("  {path}:{} plies {}", g.game + 1, g.plies));
                        }
                    }
                    SelectFormat::Json => {
                        let games: Vec<_> = group
                            .games
                            .iter()
                            .map(|g| {
                                json!({
                                    "path": inputs[g.input as usize],
                                    "game": g.game,
                                    "plies": g.plies,
                                    "game_key": g.key,
                                })
                            })
                            .collect();
                        w.line(
                            &json!({"game_key": head, "count": games.len(), "games": games})
                                .to_string(),
                        );
                    }
                }
                if !w.ok() {
                    break;
                }
            }
        }
        self.w.finish()?;
        Ok(common::exit_code(self.unreadable > 0, self.bad_games > 0))
    }
}

/// The error findings of a game that failed to read, on standard error.
pub fn report_read_errors(
    meta: &FileMeta,
    report: &GameReport,
    progress: &Progress,
    sources: &mut common::SourceLines,
) {
    for f in report
        .findings
        .iter()
        .filter(|f| f.severity == Severity::Error)
    {
        for line in common::human_lines(meta, report, f, sources) {
            progress.println(&line);
        }
    }
}

fn emit(
    w: &mut Out,
    format: SelectFormat,
    meta: &FileMeta,
    index: usize,
    g: &Replayed<(Verdict, PerGame)>,
) {
    match format {
        SelectFormat::Human => {
            let mut line = match g.output.0.ply {
                Some(p) => format!("{}:{} ply {p}", meta.display, index + 1),
                None => format!("{}:{}", meta.display, index + 1),
            };
            if let Some(p) = g.output.0.pattern_ply {
                line.push_str(&format!(" pattern_ply {p}"));
            }
            w.human(&line);
        }
        SelectFormat::Json => {
            let info = &g.output.0.info;
            // One reading of the date, as the stats columns `start_time`,
            // `start_time_raw` and `start_time_precision` have it.
            let date = kifu::date::parse(&info.start_time);
            let iso = date.map(|d| d.iso());
            let precision = date.map(|d| d.precision().name());
            let raw = (date.is_none() && !info.start_time.is_empty()).then_some(&info.start_time);
            let text = |s: &String| (!s.is_empty()).then(|| s.clone());
            let handicap = match (info.variant, info.handicap) {
                (kifu::Variant::Standard, Some(h)) => Some(h.info().japanese),
                (kifu::Variant::Standard, None) => Some("other"),
                _ => None,
            };
            let r = &g.report;
            // The result the filters read: `unknown` when a statement of
            // it was judged false.
            let established = kifu::select::Summary::of(r);
            w.line(
                &json!({
                    "path": meta.display,
                    "game": index,
                    "game_key": r.game_key,
                    "format": meta.format.map(|f| f.name()),
                    "sente": text(&info.sente),
                    "gote": text(&info.gote),
                    "event": text(&info.event),
                    "start_time": iso,
                    "start_time_raw": raw,
                    "start_time_precision": precision,
                    "variant": info.variant.name(),
                    "handicap": handicap,
                    "result": established.outcome.name(),
                    "reason": established.reason,
                    "plies": r.plies,
                    "valid": r.ok,
                    "ply": g.output.0.ply,
                    "pattern_ply": g.output.0.pattern_ply,
                    "names": g.output.1 .0.as_ref().and_then(Option::as_ref),
                    "sente_rating": info.players.rating[0],
                    "gote_rating": info.players.rating[1],
                    "sente_rank": text(&info.players.rank[0]),
                    "gote_rank": text(&info.players.rank[1]),
                })
                .to_string(),
            );
        }
    }
}
