//! Batch work over many inputs: finding the files, reading them once, and
//! processing games on every core while results come out in input order
//! with bounded memory.

use crate::read::decode::Encoding;
use crate::read::{self, Format, Game, ReadOptions};
use std::collections::BTreeMap;
use std::io::{self, BufReader, Read};
use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::sync::{Arc, Condvar, Mutex};

/// Files larger than this are streamed game by game on the reading thread
/// (their games still spread over the workers); smaller files are read and
/// processed whole by one worker.
pub const STREAM_THRESHOLD: u64 = 8 << 20;

/// Games per unit of work when streaming.
pub const CHUNK: usize = 256;

/// One input: a file or standard input.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Input {
    /// The name reports use: the path as given, joined with the relative
    /// path inside a directory; `-` for standard input.
    pub display: String,
    /// The file, or `None` for standard input.
    pub path: Option<PathBuf>,
    /// The path relative to the command-line argument it was found under
    /// (the file name for a file given directly; `stdin` for `-`), for
    /// mirroring an input tree into an output folder.
    pub rel: PathBuf,
    /// The format, if forced or known from the extension.
    pub format: Option<Format>,
    /// Size in bytes (0 for standard input).
    pub size: u64,
}

/// Inputs found, and the paths that could not be used.
#[derive(Debug, Default)]
pub struct Discovery {
    /// Inputs in command-line order, directory contents sorted by name.
    pub inputs: Vec<Input>,
    /// `(path, message)` for paths that do not exist or cannot be listed.
    pub errors: Vec<(String, String)>,
}

/// Expands the command-line paths: files as given, directories walked
/// recursively (following links, loops reported) keeping files whose
/// extension is in `exts`, `-` for standard input. `forced` overrides the
/// format of every input.
pub fn discover(paths: &[String], exts: &[String], forced: Option<Format>) -> Discovery {
    let mut d = Discovery::default();
    let wanted = |p: &Path| {
        p.extension()
            .and_then(|e| e.to_str())
            .is_some_and(|e| exts.iter().any(|x| x.eq_ignore_ascii_case(e)))
    };
    for arg in paths {
        if arg == "-" {
            d.inputs.push(Input {
                display: "-".into(),
                path: None,
                rel: PathBuf::from("stdin"),
                format: forced,
                size: 0,
            });
            continue;
        }
        let path = PathBuf::from(arg);
        let meta = match std::fs::metadata(&path) {
            Ok(m) => m,
            Err(e) => {
                d.errors.push((arg.clone(), e.to_string()));
                continue;
            }
        };
        if meta.is_dir() {
            let walker = walkdir::WalkDir::new(&path)
                .follow_links(true)
                .sort_by_file_name();
            for entry in walker {
                match entry {
                    Ok(e) => {
                        if e.file_type().is_file() && wanted(e.path()) {
                            let size = e.metadata().map(|m| m.len()).unwrap_or(0);
                            d.inputs.push(Input {
                                display: e.path().to_string_lossy().into_owned(),
                                path: Some(e.path().to_path_buf()),
                                rel: e
                                    .path()
                                    .strip_prefix(&path)
                                    .map_or_else(|_| e.path().to_path_buf(), Path::to_path_buf),
                                format: forced.or_else(|| Format::from_path(e.path())),
                                size,
                            });
                        }
                    }
                    Err(e) => {
                        let p = e
                            .path()
                            .map_or_else(|| arg.clone(), |p| p.to_string_lossy().into_owned());
                        let msg = if e.loop_ancestor().is_some() {
                            "directory loop through a symbolic link; not followed".to_string()
                        } else {
                            e.io_error()
                                .map_or_else(|| e.to_string(), |io| io.to_string())
                        };
                        d.errors.push((p, msg));
                    }
                }
            }
        } else {
            d.inputs.push(Input {
                display: arg.clone(),
                path: Some(path.clone()),
                rel: path.file_name().map_or_else(|| path.clone(), PathBuf::from),
                format: forced.or_else(|| Format::from_path(&path)),
                size: meta.len(),
            });
        }
    }
    d
}

/// What is known about one input once it is opened.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FileMeta {
    /// Index into the input list.
    pub input: usize,
    /// The input's display name.
    pub display: String,
    /// The format used.
    pub format: Option<Format>,
    /// The encoding detected.
    pub encoding: Option<Encoding>,
    /// Why the file could not be read, if it could not.
    pub error: Option<String>,
    /// Bytes in the file.
    pub bytes: u64,
}

/// What the sink receives, in input order.
#[derive(Debug)]
pub enum Event<T> {
    /// One processed game, with its 0-based index in the file (games of a
    /// large file are read in pieces, so use this index, not the one the
    /// reader gave).
    Game(Arc<FileMeta>, usize, T),
    /// An input is finished (after all its games).
    FileDone(Arc<FileMeta>),
}

struct Batch<T> {
    meta: Arc<FileMeta>,
    items: Vec<T>,
    last: bool,
}

struct Semaphore {
    count: Mutex<usize>,
    cv: Condvar,
}

impl Semaphore {
    fn acquire(&self) {
        let mut n = self.count.lock().unwrap_or_else(|e| e.into_inner());
        while *n == 0 {
            n = self.cv.wait(n).unwrap_or_else(|e| e.into_inner());
        }
        *n -= 1;
    }
    fn release(&self) {
        *self.count.lock().unwrap_or_else(|e| e.into_inner()) += 1;
        self.cv.notify_one();
    }
}

fn open_source(input: &Input) -> io::Result<read::Source> {
    match &input.path {
        None => Ok(Box::new(BufReader::with_capacity(1 << 20, io::stdin()))),
        Some(p) if input.size > STREAM_THRESHOLD => Ok(Box::new(BufReader::with_capacity(
            1 << 20,
            std::fs::File::open(p)?,
        ))),
        Some(p) => {
            let mut bytes = Vec::with_capacity(input.size as usize + 1);
            std::fs::File::open(p)?.read_to_end(&mut bytes)?;
            Ok(Box::new(io::Cursor::new(bytes)))
        }
    }
}

fn opened_meta(i: usize, input: &Input, format: Format, encoding: Encoding) -> FileMeta {
    FileMeta {
        input: i,
        display: input.display.clone(),
        format: Some(format),
        encoding: Some(encoding),
        error: None,
        bytes: input.size,
    }
}

fn error_meta(i: usize, input: &Input, e: &io::Error) -> FileMeta {
    FileMeta {
        input: i,
        display: input.display.clone(),
        format: input.format,
        encoding: None,
        error: Some(e.to_string()),
        bytes: input.size,
    }
}

/// Reports an input that could not be opened, in its place in the order.
fn send_error<T>(
    i: usize,
    input: &Input,
    e: &io::Error,
    permits: &Semaphore,
    tx: &mpsc::Sender<(u64, Batch<T>)>,
    seq: &mut u64,
) {
    permits.acquire();
    let batch = Batch {
        meta: Arc::new(error_meta(i, input, e)),
        items: Vec::new(),
        last: true,
    };
    let _ = tx.send((*seq, batch));
    *seq += 1;
}

/// Processes every game of every input with `per_game` on `jobs` threads
/// and hands the results to `sink` in input order (games in file order).
/// Memory stays bounded: at most a few chunks per thread are in flight.
pub fn run<T, F, S>(inputs: &[Input], jobs: usize, opts: &ReadOptions, per_game: F, mut sink: S)
where
    T: Send,
    F: Fn(&FileMeta, Game) -> T + Sync,
    S: FnMut(Event<T>),
{
    let jobs = jobs.max(1);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(jobs)
        .stack_size(64 << 20)
        .build()
        .expect("thread pool");
    let permits = Semaphore {
        count: Mutex::new(jobs * 4),
        cv: Condvar::new(),
    };
    let (tx, rx) = mpsc::channel::<(u64, Batch<T>)>();
    let per_game = &per_game;
    let permits = &permits;
    std::thread::scope(|ts| {
        ts.spawn(move || {
            pool.in_place_scope(|s| {
                let mut seq = 0u64;
                for (i, input) in inputs.iter().enumerate() {
                    let streaming = input.path.is_none() || input.size > STREAM_THRESHOLD;
                    if !streaming {
                        permits.acquire();
                        let my = seq;
                        seq += 1;
                        let tx = tx.clone();
                        s.spawn(move |_| {
                            let batch = match open_source(input)
                                .and_then(|src| read::open(src, input.format, opts))
                            {
                                Err(e) => Batch {
                                    meta: Arc::new(error_meta(i, input, &e)),
                                    items: Vec::new(),
                                    last: true,
                                },
                                Ok((format, encoding, games)) => {
                                    let meta = Arc::new(opened_meta(i, input, format, encoding));
                                    let items = games.map(|g| per_game(&meta, g)).collect();
                                    Batch {
                                        meta,
                                        items,
                                        last: true,
                                    }
                                }
                            };
                            let _ = tx.send((my, batch));
                        });
                        continue;
                    }
                    if let Some(path) = &input.path {
                        match read_in_pieces(
                            path, i, input, opts, per_game, permits, &tx, &mut seq, s,
                        ) {
                            Ok(true) => continue,
                            Ok(false) => {}
                            Err(e) => {
                                send_error(i, input, &e, permits, &tx, &mut seq);
                                continue;
                            }
                        }
                    }
                    let opened =
                        open_source(input).and_then(|src| read::open(src, input.format, opts));
                    let (format, encoding, games) = match opened {
                        Ok(x) => x,
                        Err(e) => {
                            send_error(i, input, &e, permits, &tx, &mut seq);
                            continue;
                        }
                    };
                    let meta = Arc::new(opened_meta(i, input, format, encoding));
                    let mut games = games.peekable();
                    loop {
                        let chunk: Vec<Game> = games.by_ref().take(CHUNK).collect();
                        let last = games.peek().is_none();
                        permits.acquire();
                        let my = seq;
                        seq += 1;
                        let tx = tx.clone();
                        let meta = meta.clone();
                        s.spawn(move |_| {
                            let items = chunk.into_iter().map(|g| per_game(&meta, g)).collect();
                            let _ = tx.send((my, Batch { meta, items, last }));
                        });
                        if last {
                            break;
                        }
                    }
                }
            });
            drop(tx);
        });
        let mut pending: BTreeMap<u64, Batch<T>> = BTreeMap::new();
        let mut next = 0u64;
        let mut in_file = 0usize;
        for (seq, batch) in rx {
            pending.insert(seq, batch);
            while let Some(batch) = pending.remove(&next) {
                next += 1;
                for item in batch.items {
                    sink(Event::Game(batch.meta.clone(), in_file, item));
                    in_file += 1;
                }
                if batch.last {
                    sink(Event::FileDone(batch.meta));
                    in_file = 0;
                }
                permits.release();
            }
        }
    });
}

/// Bytes read at a time when a large file is cut into pieces.
const PIECE: usize = 4 << 20;

/// Where a piece of a multi-game file may end: after a CSA `/` line or, for
/// SFEN/USI, after any line. `None` if the buffer holds no such place.
fn cut_point(format: Format, buf: &[u8]) -> Option<usize> {
    match format {
        Format::Usi => memchr::memrchr(b'\n', buf).map(|i| i + 1),
        Format::Csa => {
            let mut end = buf.len();
            while let Some(i) = memchr::memrchr(b'\n', &buf[..end]) {
                // Is the line ending at i exactly "/" (allowing CR and blanks)?
                let start = memchr::memrchr2(b'\n', b'\r', &buf[..i]).map_or(0, |j| j + 1);
                let line = &buf[start..i];
                if line
                    .iter()
                    .filter(|b| !b.is_ascii_whitespace())
                    .eq(b"/".iter())
                {
                    return Some(i + 1);
                }
                end = i;
            }
            None
        }
        _ => None,
    }
}

/// Lines in `bytes`, counted as the line reader counts them (LF, CRLF and
/// lone CR each end a line).
fn count_lines(bytes: &[u8]) -> u32 {
    let mut n = 0u32;
    let mut i = 0;
    while let Some(j) = memchr::memchr2(b'\n', b'\r', &bytes[i..]) {
        let at = i + j;
        n = n.saturating_add(1);
        i = at + 1;
        if bytes[at] == b'\r' && bytes.get(at + 1) == Some(&b'\n') {
            i += 1;
        }
    }
    n
}

/// Reads a large multi-game CSA or SFEN/USI file in pieces cut between
/// games, so that several workers parse and process it at once, with
/// bounded memory. Returns `Ok(false)` when the file is not of that kind
/// (the caller then streams it game by game).
#[allow(clippy::too_many_arguments)]
fn read_in_pieces<'scope, T, F>(
    path: &Path,
    i: usize,
    input: &'scope Input,
    opts: &'scope ReadOptions,
    per_game: &'scope F,
    permits: &'scope Semaphore,
    tx: &mpsc::Sender<(u64, Batch<T>)>,
    seq: &mut u64,
    s: &rayon::Scope<'scope>,
) -> io::Result<bool>
where
    T: Send + 'scope,
    F: Fn(&FileMeta, Game) -> T + Sync,
{
    let mut file = std::fs::File::open(path)?;
    let mut chunk = vec![0u8; PIECE];
    let n = file.read(&mut chunk)?;
    let mut buf = chunk[..n].to_vec();
    let format = match input.format.or_else(|| Format::sniff(&buf)) {
        Some(f @ (Format::Csa | Format::Usi)) => f,
        _ => return Ok(false),
    };
    let encoding = crate::read::decode::detect(&buf, n < PIECE, &opts.decode);
    if !encoding.is_ascii_compatible() {
        return Ok(false);
    }
    let meta = Arc::new(opened_meta(i, input, format, encoding));
    let piece_opts = ReadOptions {
        decode: crate::read::DecodeOptions {
            encoding: Some(encoding),
            lossy: opts.decode.lossy,
        },
    };
    let mut lines_before = 0u32;
    let mut pieces = 0u32;
    let mut eof = n == 0;
    loop {
        let cut = if eof {
            Some(buf.len())
        } else if buf.len() < PIECE {
            None
        } else {
            cut_point(format, &buf)
        };
        let Some(cut) = cut else {
            // Not enough yet, or no place to cut (a very long game): read on.
            let n = file.read(&mut chunk)?;
            if n == 0 {
                eof = true;
            }
            buf.extend_from_slice(&chunk[..n]);
            continue;
        };
        let rest = buf.split_off(cut);
        let piece = std::mem::replace(&mut buf, rest);
        let last = eof && buf.is_empty();
        let offset = lines_before;
        lines_before = lines_before.saturating_add(count_lines(&piece));
        let first = pieces == 0;
        pieces += 1;
        permits.acquire();
        let my = *seq;
        *seq += 1;
        let tx = tx.clone();
        let meta = meta.clone();
        s.spawn(move |_| {
            let items = if piece.is_empty() {
                Vec::new()
            } else {
                let source: read::Source = Box::new(io::Cursor::new(piece));
                let o = if first { *opts } else { piece_opts };
                match read::LineReader::new(source, &o.decode) {
                    Ok(mut lines) => {
                        if !first {
                            lines.set_line_offset(offset);
                        }
                        read::games_from_lines(format, lines, &o)
                            .map(|g| per_game(&meta, g))
                            .collect()
                    }
                    Err(_) => Vec::new(),
                }
            };
            let _ = tx.send((my, Batch { meta, items, last }));
        });
        if last {
            return Ok(true);
        }
    }
}
