//! Batch work over many inputs: finding the files, reading them once, and
//! processing games on every core while results come out in input order
//! with bounded memory.
//!
//! Every input, whatever it is (a regular file, standard input, a FIFO, a
//! character device, a `/proc` file whose size reads 0), is read the same
//! way: at most [`STREAM_THRESHOLD`] bytes are taken into memory; an input
//! that ends within them is parsed whole by one worker (and its bytes are
//! kept for quoting source lines; runs of small files go to a worker in
//! groups, one hand-off per group); a longer one is streamed, cut into
//! pieces between games where the format allows it (CSA `/` lines, SFEN/USI
//! lines), else read game by game, always with the line cap of
//! [`crate::read::lines::MAX_LINE_BYTES`].

use crate::read::decode::Encoding;
use crate::read::{
    self, Flow, Format, Game, MoveEvent, ReadOptions, Reader, RecordBuilder, Visitor,
};
use crate::record::{HeaderKey, Location, MoveTime, ResultClaim, Start, TerminalKind};
use std::collections::{BTreeMap, HashSet};
use std::io::{self, BufReader, Read};
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::sync::{Arc, Condvar, Mutex};

/// Inputs that end within this many bytes are read whole and parsed by one
/// worker; longer ones are streamed.
pub const STREAM_THRESHOLD: u64 = 8 << 20;

/// Games per unit of work when streaming.
pub const CHUNK: usize = 256;

/// The most worker threads `-j` can ask for; more only cost memory.
pub const MAX_JOBS: usize = 256;

/// Stack size of a worker thread. Variation trees nest at most
/// [`crate::record::MAX_VARIATION_DEPTH`] levels, which every recursive walk
/// handles in far less.
pub const WORKER_STACK: usize = 16 << 20;

/// The extensions taken from folders by default: every format's but
/// `.json` (JKF files are mostly `.jkf`; other JSON is not a record).
pub const DEFAULT_EXTENSIONS: [&str; 9] = [
    "kif", "kifu", "ki2", "ki2u", "csa", "psn", "jkf", "sfen", "usi",
];

/// Why an input is not read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Issue {
    /// The path does not exist or cannot be listed (an error).
    Error(String),
    /// A directory entry that is not a regular file (FIFO, device, socket,
    /// dangling link): skipped, with a warning.
    Skipped(String),
}

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
    /// Index of the command-line argument it was found under.
    pub arg: usize,
    /// The format, if forced or known from the extension.
    pub format: Option<Format>,
    /// Size in bytes of a regular file given directly (0 otherwise, and
    /// for files found in a folder: see [`Input::size_now`]).
    pub size: u64,
    /// Whether it is a regular file (whose size can be trusted).
    pub regular: bool,
    /// Why it is not read, if it is not; reported in its place.
    pub issue: Option<Issue>,
    /// How its bytes are packed, when they are not a plain file.
    pub packing: Option<Packing>,
}

/// How an input's bytes are packed ([`crate::archive`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Packing {
    /// The file is one compressed stream.
    Compressed(crate::archive::Compression),
    /// A member of an archive: the inputs of one archive share `archive`
    /// and come in the archive's order.
    Member {
        /// The archive file.
        archive: Arc<PathBuf>,
        /// Its kind.
        kind: crate::archive::Kind,
        /// The member's place in the archive (see [`crate::archive::list`]).
        ordinal: u64,
        /// The bytes of the archive file read when the member was (a tar
        /// read as it streams: see [`Packing::Streamed`]); 0 when listed.
        read: u64,
    },
    /// An archive (tar, zip, 7z) read once as it streams: its members are
    /// found, filtered ([`MemberRule`], then the shard) and handed to the
    /// workers as the archive is read, in the archive's order; they
    /// become inputs of their own only then (their [`FileMeta::input`] is
    /// this input's index, their [`FileMeta::display`] `ARCHIVE!/member`).
    /// No input is kept per member.
    Streamed {
        /// The archive's kind.
        kind: crate::archive::Kind,
        /// Which members are taken.
        rule: Arc<MemberRule>,
        /// Shard `(index, count)` the members are kept for (see [`shard`]).
        shard: Option<(u64, u64)>,
    },
}

/// Which members of an archive are taken: by extension and `--glob`, as
/// files in a folder are; their format forced or by extension.
#[derive(Clone)]
pub struct MemberRule {
    exts: Vec<String>,
    globs: ignore::overrides::Override,
    forced: Option<Format>,
}

impl MemberRule {
    /// Whether the member `name` is taken.
    pub fn wanted(&self, name: &str) -> bool {
        let p = Path::new(name);
        p.extension()
            .and_then(|e| e.to_str())
            .is_some_and(|e| self.exts.iter().any(|x| x.eq_ignore_ascii_case(e)))
            && !self.globs.matched(p, false).is_ignore()
    }
}

impl std::fmt::Debug for MemberRule {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("MemberRule")
            .field("exts", &self.exts)
            .field("forced", &self.forced)
            .finish_non_exhaustive()
    }
}

impl PartialEq for MemberRule {
    fn eq(&self, other: &MemberRule) -> bool {
        std::ptr::eq(self, other)
    }
}

impl Eq for MemberRule {}

/// Whether an input of shard `(index, count)` is kept: by a hash of its
/// name (see [`shard`]).
fn in_shard(display: &str, shard: Option<(u64, u64)>) -> bool {
    match shard {
        Some((index, count)) if count > 1 => {
            xxhash_rust::xxh3::xxh3_64(display.as_bytes()) % count == index
        }
        _ => true,
    }
}

/// An archive whose members become inputs ([`Whole::member`]).
struct Whole<'a> {
    /// The archive's name in reports.
    display: &'a str,
    /// Its path under its command-line argument.
    rel: &'a Path,
    /// Its command-line argument.
    arg: usize,
    archive: &'a Arc<PathBuf>,
    kind: crate::archive::Kind,
    forced: Option<Format>,
}

impl Whole<'_> {
    /// The input of the member `name` (at `ordinal`, `size` bytes as the
    /// archive says), `read` bytes of the archive file read when it was
    /// found.
    fn member(&self, name: &str, ordinal: u64, size: u64, read: u64) -> Input {
        use crate::archive;
        let inner = archive::safe_rel(name);
        Input {
            display: archive::member_display(self.display, name),
            path: Some(self.archive.to_path_buf()),
            rel: archive::stem(self.rel).join(&inner),
            arg: self.arg,
            format: self.forced.or_else(|| Format::from_path(&inner)),
            size,
            regular: true,
            issue: None,
            packing: Some(Packing::Member {
                archive: self.archive.clone(),
                kind: self.kind,
                ordinal,
                read,
            }),
        }
    }
}

impl Input {
    /// The size of a regular file: as listed, or asked now for a file
    /// found in a folder (0 when it cannot be known).
    pub fn size_now(&self) -> u64 {
        // A member's size is the archive's word; a tar read as it streams
        // is a file like any other.
        if matches!(
            self.packing,
            Some(Packing::Member { .. } | Packing::Compressed(_))
        ) {
            return self.size;
        }
        match &self.path {
            Some(p) if self.regular && self.size == 0 => {
                std::fs::metadata(p).map_or(0, |m| m.len())
            }
            _ => self.size,
        }
    }

    /// An input not read: `display` names it in reports, `path` is the
    /// file itself (its name may not be UTF-8).
    fn problem(display: String, path: PathBuf, arg: usize, issue: Issue) -> Input {
        Input {
            rel: path.clone(),
            path: Some(path),
            display,
            arg,
            format: None,
            size: 0,
            regular: false,
            issue: Some(issue),
            packing: None,
        }
    }
}

/// Inputs found, in command-line order (directory contents sorted by
/// name), with the paths that could not be used in their places.
#[derive(Debug, Default)]
pub struct Discovery {
    /// Everything found, readable or not.
    pub inputs: Vec<Input>,
}

/// What a non-regular file is, for reports.
fn kind_name(ft: &std::fs::FileType) -> &'static str {
    use std::os::unix::fs::FileTypeExt;
    if ft.is_fifo() {
        "a FIFO"
    } else if ft.is_char_device() {
        "a character device"
    } else if ft.is_block_device() {
        "a block device"
    } else if ft.is_socket() {
        "a socket"
    } else {
        "not a regular file"
    }
}

/// How folders are walked and which files are taken ([`discover_with`]).
/// The default is ripgrep's: `.gitignore` (inside a Git repository),
/// `.ignore` and `.git/info/exclude` honoured, hidden files and folders
/// skipped.
#[derive(Clone, Debug, Default)]
pub struct Walk {
    /// The extensions taken from folders and archives.
    pub exts: Vec<String>,
    /// The format of every input, if forced.
    pub forced: Option<Format>,
    /// Folders (and files) not read: an output folder, say.
    pub exclude: Vec<PathBuf>,
    /// Hidden files and folders are walked too.
    pub hidden: bool,
    /// `.gitignore`, `.ignore` and Git's exclude files are not honoured.
    pub no_ignore: bool,
    /// Globs a file found in a folder or an archive must match (`!GLOB`
    /// excludes), as ripgrep's `--glob`: relative to the folder given (to
    /// the archive's root for members).
    pub globs: Vec<String>,
    /// An archive (a tar, plain or compressed, a zip, a 7z) is read once,
    /// its members found as it streams ([`Packing::Streamed`]), instead of
    /// listed at discovery (an input per member) and read again: for a run
    /// that needs no list of members before it starts.
    pub stream_archives: bool,
}

/// Expands the command-line paths: files as given, directories walked
/// recursively (following links, loops reported) keeping files whose
/// extension is in `exts`, `-` for standard input. `forced` overrides the
/// format of every input. Folders in `exclude` (e.g. the output folder of
/// a conversion) are not walked. A path given directly is read whatever it
/// is (FIFO, device); inside a folder, only regular files are, and other
/// entries with a wanted extension are reported as skipped. A path need
/// not be UTF-8: [`Input::path`] is the file itself, and
/// [`Input::display`] its name with invalid sequences replaced.
/// Folders are walked as [`Walk::default`] says (see [`discover_with`]).
pub fn discover<P: AsRef<Path>>(
    paths: &[P],
    exts: &[String],
    forced: Option<Format>,
    exclude: &[PathBuf],
) -> Discovery {
    let walk = Walk {
        exts: exts.to_vec(),
        forced,
        exclude: exclude.to_vec(),
        ..Walk::default()
    };
    // No glob: nothing to refuse.
    discover_with(paths, &walk).unwrap_or_default()
}

/// The globs of a walk rooted at `root`; an error names a glob that is
/// not one.
fn overrides(root: &Path, globs: &[String]) -> Result<ignore::overrides::Override, String> {
    let mut b = ignore::overrides::OverrideBuilder::new(root);
    for g in globs {
        b.add(g).map_err(|e| format!("--glob {g}: {e}"))?;
    }
    b.build().map_err(|e| e.to_string())
}

/// The path an error of the walk is about, if it names one.
fn walk_error_path(e: &ignore::Error) -> Option<&Path> {
    match e {
        ignore::Error::WithPath { path, .. } => Some(path),
        ignore::Error::WithDepth { err, .. } | ignore::Error::WithLineNumber { err, .. } => {
            walk_error_path(err)
        }
        ignore::Error::Loop { child, .. } => Some(child),
        _ => None,
    }
}

/// Whether the error of the walk is a directory loop.
fn walk_loop(e: &ignore::Error) -> bool {
    match e {
        ignore::Error::Loop { .. } => true,
        ignore::Error::WithPath { err, .. }
        | ignore::Error::WithDepth { err, .. }
        | ignore::Error::WithLineNumber { err, .. } => walk_loop(err),
        _ => false,
    }
}

/// What [`discover_with`] needs while it finds inputs.
struct Finder<'w> {
    walk: &'w Walk,
    /// Which archive members are taken.
    members: Arc<MemberRule>,
    d: Discovery,
}

impl Finder<'_> {
    fn ext_wanted(&self, p: &Path) -> bool {
        p.extension()
            .and_then(|e| e.to_str())
            .is_some_and(|e| self.walk.exts.iter().any(|x| x.eq_ignore_ascii_case(e)))
    }

    /// Whether a file found in a folder is taken: a record by its
    /// extension, an archive, or a compressed record (`a.csa.gz`).
    fn wanted(&self, p: &Path) -> bool {
        match crate::archive::packed(p) {
            Some(crate::archive::Packed::Archive(_)) => true,
            Some(crate::archive::Packed::Compressed(_, inner)) => self.ext_wanted(&inner),
            None => self.ext_wanted(p),
        }
    }

    /// A file to read: `display` names it, `rel` is its path under the
    /// argument. An archive becomes its members; a compressed file is
    /// read through its decompressor.
    fn file(
        &mut self,
        path: PathBuf,
        display: String,
        rel: PathBuf,
        arg: usize,
        size: u64,
        regular: bool,
    ) {
        use crate::archive::{self, Packed};
        match archive::packed(&path) {
            Some(Packed::Archive(kind)) if self.walk.stream_archives => {
                self.d.inputs.push(Input {
                    display,
                    path: Some(path),
                    rel,
                    arg,
                    format: self.walk.forced,
                    size,
                    regular,
                    issue: None,
                    packing: Some(Packing::Streamed {
                        kind,
                        rule: self.members.clone(),
                        shard: None,
                    }),
                });
            }
            Some(Packed::Archive(kind)) => {
                let rule = self.members.clone();
                let (members, err) = archive::list(&path, kind, &|name| rule.wanted(name));
                let shared = Arc::new(path.clone());
                let whole = Whole {
                    display: &display,
                    rel: &rel,
                    arg,
                    archive: &shared,
                    kind,
                    forced: self.walk.forced,
                };
                for m in members {
                    let input = whole.member(&m.name, m.ordinal, m.size, 0);
                    self.d.inputs.push(input);
                }
                if let Some(e) = err {
                    self.d.inputs.push(Input::problem(
                        display,
                        path,
                        arg,
                        Issue::Error(format!("damaged archive: {e}")),
                    ));
                }
            }
            Some(Packed::Compressed(c, inner)) => {
                let rel = rel.with_extension("");
                self.d.inputs.push(Input {
                    display,
                    path: Some(path),
                    rel,
                    arg,
                    format: self.walk.forced.or_else(|| Format::from_path(&inner)),
                    size,
                    regular,
                    issue: None,
                    packing: Some(Packing::Compressed(c)),
                });
            }
            None => self.d.inputs.push(Input {
                display,
                format: self.walk.forced.or_else(|| Format::from_path(&path)),
                path: Some(path),
                rel,
                arg,
                size,
                regular,
                issue: None,
                packing: None,
            }),
        }
    }
}

/// [`discover`] with the walk `walk` describes; an error (a glob that is
/// not one) before anything is found.
pub fn discover_with<P: AsRef<Path>>(paths: &[P], walk: &Walk) -> Result<Discovery, String> {
    let excluded: HashSet<(u64, u64)> = walk
        .exclude
        .iter()
        .filter_map(|p| std::fs::metadata(p).ok().map(|m| file_id(&m)))
        .collect();
    let mut f = Finder {
        walk,
        members: Arc::new(MemberRule {
            exts: walk.exts.clone(),
            globs: overrides(Path::new(""), &walk.globs)?,
            forced: walk.forced,
        }),
        d: Discovery::default(),
    };
    for (arg_index, arg) in paths.iter().enumerate() {
        let path = arg.as_ref().to_path_buf();
        let arg = &path.to_string_lossy().into_owned();
        if path.as_os_str() == "-" {
            f.d.inputs.push(Input {
                display: "-".into(),
                path: None,
                rel: PathBuf::from("stdin"),
                arg: arg_index,
                format: walk.forced,
                size: 0,
                regular: false,
                issue: None,
                packing: None,
            });
            continue;
        }
        let meta = match std::fs::metadata(&path) {
            Ok(m) => m,
            Err(e) => {
                let msg = if path.is_symlink() {
                    format!("dangling symbolic link ({e})")
                } else {
                    e.to_string()
                };
                f.d.inputs.push(Input::problem(
                    arg.clone(),
                    path.clone(),
                    arg_index,
                    Issue::Error(msg),
                ));
                continue;
            }
        };
        if !meta.is_dir() {
            // A file named is read whatever the ignore rules and globs say.
            let rel = path.file_name().map_or_else(|| path.clone(), PathBuf::from);
            let size = if meta.is_file() { meta.len() } else { 0 };
            f.file(
                path.clone(),
                arg.clone(),
                rel,
                arg_index,
                size,
                meta.is_file(),
            );
            continue;
        }
        let globs = overrides(&path, &walk.globs)?;
        let mut b = ignore::WalkBuilder::new(&path);
        let honour = !walk.no_ignore;
        b.follow_links(true)
            .hidden(!walk.hidden)
            .ignore(honour)
            .git_ignore(honour)
            .git_exclude(honour)
            .git_global(honour)
            .parents(honour)
            .overrides(globs)
            // By name within each directory. Siblings share their parent's
            // path, so comparing whole paths as bytes orders them as their
            // names would, without taking every path apart.
            .sort_by_file_path(|a, b| a.as_os_str().cmp(b.as_os_str()));
        // Hidden entries are skipped here too, not only by the walker's
        // own rule: a `--glob` that takes a file overrides that rule (as
        // it overrides ignore files), and a hidden file is read only with
        // `--hidden` (kifu's temporary outputs are hidden files).
        let skip_hidden = !walk.hidden;
        if skip_hidden || !excluded.is_empty() {
            let excluded = excluded.clone();
            b.filter_entry(move |e| {
                if e.depth() == 0 {
                    return true;
                }
                if skip_hidden && is_hidden_name(e.file_name()) {
                    return false;
                }
                excluded.is_empty()
                    || !e.file_type().is_some_and(|t| t.is_dir())
                    || e.metadata()
                        .map(|m| !excluded.contains(&file_id(&m)))
                        .unwrap_or(true)
            });
        }
        for entry in b.build() {
            match entry {
                Ok(e) => {
                    let Some(ft) = e.file_type() else { continue };
                    if ft.is_dir() || !f.wanted(e.path()) {
                        continue;
                    }
                    let display = e.path().to_string_lossy().into_owned();
                    if !ft.is_file() {
                        let why = format!(
                            "skipped: {} (only regular files are read from folders)",
                            kind_name(&ft)
                        );
                        f.d.inputs.push(Input::problem(
                            display,
                            e.path().to_path_buf(),
                            arg_index,
                            Issue::Skipped(why),
                        ));
                        continue;
                    }
                    // The type came from the directory listing; the size
                    // is not asked for (a `statx` per file): one worker
                    // learns it by reading, several ask when they need it
                    // ([`Input::size_now`]).
                    let rel = rel_path(e.path(), &path);
                    f.file(e.into_path(), display, rel, arg_index, 0, true);
                }
                Err(e) => {
                    let real = walk_error_path(&e).map_or_else(|| path.clone(), Path::to_path_buf);
                    let p = real.to_string_lossy().into_owned();
                    let dangling = e
                        .io_error()
                        .is_some_and(|io| io.kind() == io::ErrorKind::NotFound)
                        && real.is_symlink();
                    if dangling {
                        if f.wanted(&real) {
                            f.d.inputs.push(Input::problem(
                                p,
                                real,
                                arg_index,
                                Issue::Skipped("skipped: dangling symbolic link".into()),
                            ));
                        }
                        continue;
                    }
                    if walk_loop(&e) {
                        let msg = "directory loop through a symbolic link; not followed";
                        f.d.inputs.push(Input::problem(
                            p,
                            real,
                            arg_index,
                            Issue::Error(msg.into()),
                        ));
                    } else if let Some(io) = e.io_error() {
                        let msg = io.to_string();
                        f.d.inputs
                            .push(Input::problem(p, real, arg_index, Issue::Error(msg)));
                    } else {
                        // A line of an ignore file that is not a glob: the
                        // walk goes on without it.
                        f.d.inputs.push(Input::problem(
                            p,
                            real,
                            arg_index,
                            Issue::Skipped(format!("ignore file: {e}")),
                        ));
                    }
                }
            }
        }
    }
    Ok(f.d)
}

/// Keeps the inputs of shard `index` (0-based) of `count`: an input
/// belongs to one shard by a hash of its name (members of an archive by
/// `ARCHIVE!/member`), so the shards of one list of inputs share them out
/// whatever the machine, and together hold every input once.
///
/// A tar read as it streams ([`Packing::Streamed`]) is kept, told its shard:
/// its members are kept or not by the same hash of `ARCHIVE!/member` as
/// they come.
pub fn shard(inputs: &mut Vec<Input>, index: u64, count: u64) {
    if count <= 1 {
        return;
    }
    inputs.retain_mut(|i| match &mut i.packing {
        Some(Packing::Streamed { shard, .. }) => {
            *shard = Some((index, count));
            true
        }
        _ => in_shard(&i.display, Some((index, count))),
    });
}

/// Whether a file name is a hidden one (it starts with a dot), as the
/// walker's own rule decides on Unix.
fn is_hidden_name(name: &std::ffi::OsStr) -> bool {
    use std::os::unix::ffi::OsStrExt;
    name.as_bytes().first() == Some(&b'.')
}

/// The identity of a file (device, inode), to recognise an excluded
/// folder however it was named.
fn file_id(m: &std::fs::Metadata) -> (u64, u64) {
    use std::os::unix::fs::MetadataExt;
    (m.dev(), m.ino())
}

/// `path` relative to `root`, a folder it was found under (as
/// `strip_prefix` gives it; the path itself if it is not under it). The
/// walk joins names to the folder's path, so the path usually starts with
/// the folder's bytes and a `/`: then the rest is the answer, without
/// taking both paths apart into components.
fn rel_path(path: &Path, root: &Path) -> PathBuf {
    use std::os::unix::ffi::OsStrExt;
    let (p, r) = (path.as_os_str().as_bytes(), root.as_os_str().as_bytes());
    if let Some(rest) = p.strip_prefix(r) {
        let boundary = r.ends_with(b"/") || rest.starts_with(b"/");
        let rest = &rest[rest.iter().take_while(|&&b| b == b'/').count()..];
        let plain = boundary
            && !rest.is_empty()
            && rest
                .split(|&b| b == b'/')
                .all(|c| !c.is_empty() && c != b"." && c != b"..");
        if plain {
            return PathBuf::from(std::ffi::OsStr::from_bytes(rest));
        }
    }
    path.strip_prefix(root)
        .map_or_else(|_| path.to_path_buf(), Path::to_path_buf)
}

/// The bytes a game was read from, kept so that reports can quote source
/// lines without reading the input again (inputs read whole, and the pieces
/// of large CSA and SFEN/USI files).
#[derive(Debug, PartialEq, Eq)]
pub struct SourceBytes {
    /// The bytes (with the byte-order mark when `first_line` is 0).
    pub bytes: Arc<[u8]>,
    /// Lines of the input before these bytes.
    pub first_line: u32,
}

/// What is known about one input once it is opened.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FileMeta {
    /// Index into the input list.
    pub input: usize,
    /// The input's display name.
    pub display: String,
    /// The format used.
    pub format: Option<Format>,
    /// The encoding detected.
    pub encoding: Option<Encoding>,
    /// Why the input could not be read, if it could not.
    pub error: Option<String>,
    /// Why the input was skipped, if it was (a warning).
    pub skipped: Option<String>,
    /// Bytes in the file (0 when not a regular file).
    pub bytes: u64,
    /// The bytes the games of this batch came from, when kept.
    pub source: Option<Arc<SourceBytes>>,
    /// For a member of a tar read as it streams ([`Packing::Streamed`]): the
    /// bytes of the archive file (compressed) read when it was, for
    /// progress by bytes; 0 otherwise.
    pub archive_read: u64,
}

/// What the sink receives, in input order.
#[derive(Debug)]
pub enum Event<T> {
    /// One processed game, with its 0-based index in the file (games of a
    /// large file are read in pieces, so use this index, not the one the
    /// reader gave).
    Game(Arc<FileMeta>, usize, T),
    /// An input is finished (after all its games), or could not be read
    /// (`error`), or was skipped (`skipped`).
    FileDone(Arc<FileMeta>),
}

/// The worker threads of a run.
pub struct Workers {
    pool: Option<rayon::ThreadPool>,
    threads: usize,
}

impl Workers {
    /// Starts `wanted` worker threads (at most [`MAX_JOBS`]). When the
    /// system refuses threads, fewer are started (down to none: the work is
    /// then done on the calling thread); the message says so.
    pub fn new(wanted: usize) -> (Workers, Option<String>) {
        let asked = wanted.max(1);
        let wanted = asked.min(MAX_JOBS);
        let mut note = (asked > wanted).then(|| {
            format!("-j {asked} is more than the {MAX_JOBS} threads kifu starts; using {MAX_JOBS}")
        });
        if wanted == 1 {
            // One worker (`-j1`): the work runs on the calling thread (see
            // [`run`]), so no thread is started at all.
            return (
                Workers {
                    pool: None,
                    threads: 1,
                },
                note,
            );
        }
        let mut n = wanted;
        let mut failed = None;
        loop {
            // Threads are started here so that, when one cannot be, those
            // already started are joined before trying with fewer (they
            // hold their stacks until they exit).
            let started = Arc::new(Mutex::new(Vec::new()));
            let handles = started.clone();
            let built = rayon::ThreadPoolBuilder::new()
                .num_threads(n)
                .thread_name(|i| format!("kifu-worker-{i}"))
                .spawn_handler(move |thread| {
                    let mut b = std::thread::Builder::new().stack_size(WORKER_STACK);
                    if let Some(name) = thread.name() {
                        b = b.name(name.to_owned());
                    }
                    let h = b.spawn(move || thread.run())?;
                    handles.lock().unwrap_or_else(|e| e.into_inner()).push(h);
                    Ok(())
                })
                .build();
            if built.is_err() {
                let hs: Vec<_> =
                    std::mem::take(&mut *started.lock().unwrap_or_else(|e| e.into_inner()));
                for h in hs {
                    let _ = h.join();
                }
            }
            match built {
                Ok(pool) => {
                    if n < wanted {
                        note = Some(format!(
                            "could start only {n} of {wanted} worker threads ({}); going on with {n}",
                            failed.unwrap_or_else(|| "refused".to_string())
                        ));
                    }
                    return (
                        Workers {
                            pool: Some(pool),
                            threads: n,
                        },
                        note,
                    );
                }
                Err(e) => {
                    failed = Some(e.to_string());
                    if n == 1 {
                        let msg = format!(
                            "could not start worker threads ({}); working on one thread",
                            failed.unwrap_or_default()
                        );
                        return (
                            Workers {
                                pool: None,
                                threads: 0,
                            },
                            Some(msg),
                        );
                    }
                    n /= 2;
                }
            }
        }
    }
}

/// What a run does with the games of its inputs: one visitor per worker
/// thread, built once and reused for every game it reads (each move played
/// once); its output for each game goes to the sink.
pub trait PerGame: Sync {
    /// What one game gives.
    type Output: Send;
    /// The visitor of one worker.
    type Visitor<'a>: Visitor<Output = Self::Output> + Send
    where
        Self: 'a;
    /// A worker's visitor (built once per worker thread).
    fn visitor(&self) -> Self::Visitor<'_>;
    /// The games that follow come from the input `meta` describes.
    fn input(&self, visitor: &mut Self::Visitor<'_>, meta: &FileMeta) {
        let _ = (visitor, meta);
    }
    /// What a game the reader already built gives (a large input read
    /// game by game): its events go through the worker's visitor.
    fn built(&self, visitor: &mut Self::Visitor<'_>, meta: &FileMeta, game: Game) -> Self::Output {
        self.input(visitor, meta);
        crate::read::visit_game(&game, visitor)
    }
}

/// What a run that builds every game ([`RecordBuilder`]) does with each
/// one: [`EachGame`] (a closure of the game) or [`EachGameWith`] (a
/// closure of the game and of what its worker keeps from game to game).
pub trait OnGame: Sync {
    /// What a worker keeps from game to game (built once per worker).
    type State: Send;
    /// What one game gives.
    type Output: Send;
    /// A worker's state.
    fn state(&self) -> Self::State;
    /// What the game `meta`'s input holds gives.
    fn game(&self, state: &mut Self::State, meta: &FileMeta, game: Game) -> Self::Output;
}

/// Builds every game ([`RecordBuilder`]) and hands it to a closure: for
/// work that needs whole records (conversion, pictures).
pub struct EachGame<F>(pub F);

impl<T: Send, F: Fn(&FileMeta, Game) -> T + Sync> OnGame for EachGame<F> {
    type State = ();
    type Output = T;
    fn state(&self) {}
    fn game(&self, _: &mut (), meta: &FileMeta, game: Game) -> T {
        (self.0)(meta, game)
    }
}

/// Like [`EachGame`], with what a worker keeps from game to game: the
/// first closure builds it once per worker (a
/// [`crate::replay::Replay`] that judges each built game, say), the
/// second gets it with each game.
pub struct EachGameWith<S, F>(pub S, pub F);

impl<W, T, S, F> OnGame for EachGameWith<S, F>
where
    W: Send,
    T: Send,
    S: Fn() -> W + Sync,
    F: Fn(&mut W, &FileMeta, Game) -> T + Sync,
{
    type State = W;
    type Output = T;
    fn state(&self) -> W {
        (self.0)()
    }
    fn game(&self, state: &mut W, meta: &FileMeta, game: Game) -> T {
        (self.1)(state, meta, game)
    }
}

/// The visitor of [`EachGame`] and [`EachGameWith`]: the worker's builder
/// and state.
pub struct EachGameVisitor<'a, G: OnGame> {
    builder: RecordBuilder,
    meta: FileMeta,
    state: G::State,
    on: &'a G,
}

impl<G: OnGame> Visitor for EachGameVisitor<'_, G> {
    type Output = G::Output;
    fn begin_game(&mut self, index: usize) -> Flow {
        self.builder.begin_game(index)
    }
    fn finding(&mut self, f: crate::read::Finding) -> Flow {
        self.builder.finding(f)
    }
    fn header(&mut self, key: &HeaderKey, value: &str, at: Location) -> Flow {
        self.builder.header(key, value, at)
    }
    fn start(&mut self, start: &Start) -> Flow {
        self.builder.start(start)
    }
    fn comment(&mut self, text: &str, at: Location) -> Flow {
        self.builder.comment(text, at)
    }
    fn movement(&mut self, mv: &MoveEvent<'_>) -> Flow {
        self.builder.movement(mv)
    }
    fn time(&mut self, time: MoveTime, at: Location) -> Flow {
        self.builder.time(time, at)
    }
    fn begin_variation(&mut self, ply: u32, at: Location) -> Flow {
        self.builder.begin_variation(ply, at)
    }
    fn end_variation(&mut self) -> Flow {
        self.builder.end_variation()
    }
    fn terminal(&mut self, kind: &TerminalKind, at: Location) -> Flow {
        self.builder.terminal(kind, at)
    }
    fn claim(&mut self, claim: &ResultClaim) -> Flow {
        self.builder.claim(claim)
    }
    fn end_game(&mut self) -> G::Output {
        let game = self.builder.end_game();
        self.on.game(&mut self.state, &self.meta, game)
    }
}

/// A run that builds every game: one builder and one state per worker.
impl<G: OnGame> PerGame for G {
    type Output = G::Output;
    type Visitor<'a>
        = EachGameVisitor<'a, G>
    where
        G: 'a;
    fn visitor(&self) -> EachGameVisitor<'_, G> {
        EachGameVisitor {
            builder: RecordBuilder::new(),
            meta: FileMeta::default(),
            state: self.state(),
            on: self,
        }
    }
    fn input(&self, v: &mut EachGameVisitor<'_, G>, meta: &FileMeta) {
        v.meta = meta.clone();
    }
    /// The game as built: never built a second time (two copies of a large
    /// game at once).
    fn built(&self, v: &mut EachGameVisitor<'_, G>, meta: &FileMeta, game: Game) -> G::Output {
        self.game(&mut v.state, meta, game)
    }
}

/// A visitor per worker, made by a closure: the validator, a
/// [`crate::replay::Replay`], any visitor that owns what it needs.
pub struct Visitors<F>(pub F);

impl<V, F> PerGame for Visitors<F>
where
    V: Visitor + Send,
    V::Output: Send,
    F: Fn() -> V + Sync,
{
    type Output = V::Output;
    type Visitor<'a>
        = V
    where
        F: 'a;
    fn visitor(&self) -> V {
        (self.0)()
    }
}

/// Like [`Visitors`], and told of each input by the second closure (the
/// rows of a statistics table name their input, say).
pub struct VisitorsWith<F, I>(pub F, pub I);

impl<V, F, I> PerGame for VisitorsWith<F, I>
where
    V: Visitor + Send,
    V::Output: Send,
    F: Fn() -> V + Sync,
    I: Fn(&mut V, &FileMeta) + Sync,
{
    type Output = V::Output;
    type Visitor<'a>
        = V
    where
        F: 'a,
        I: 'a;
    fn visitor(&self) -> V {
        (self.0)()
    }
    fn input(&self, v: &mut V, meta: &FileMeta) {
        (self.1)(v, meta)
    }
}

/// The workers' visitors of one run: one slot per worker thread (and one
/// for the calling thread), each filled at its first game and reused.
struct Pooled<'a, P: PerGame + 'a> {
    per_game: &'a P,
    slots: Vec<Mutex<Option<P::Visitor<'a>>>>,
}

impl<'a, P: PerGame> Pooled<'a, P> {
    fn new(per_game: &'a P, threads: usize) -> Pooled<'a, P> {
        Pooled {
            per_game,
            slots: (0..=threads).map(|_| Mutex::new(None)).collect(),
        }
    }

    /// Runs `f` with this thread's visitor, told of the input `meta`.
    fn with<R>(&self, meta: &FileMeta, f: impl FnOnce(&mut P::Visitor<'a>) -> R) -> R {
        let last = self.slots.len() - 1;
        let slot = &self.slots[rayon::current_thread_index().map_or(last, |i| i.min(last))];
        let taken = slot.lock().unwrap_or_else(|e| e.into_inner()).take();
        // A slot already in use (never on a worker) gets a visitor of its own.
        let mut v = taken.unwrap_or_else(|| self.per_game.visitor());
        self.per_game.input(&mut v, meta);
        let r = f(&mut v);
        *slot.lock().unwrap_or_else(|e| e.into_inner()) = Some(v);
        r
    }

    fn built(&self, meta: &FileMeta, game: Game) -> P::Output {
        let last = self.slots.len() - 1;
        let slot = &self.slots[rayon::current_thread_index().map_or(last, |i| i.min(last))];
        let taken = slot.lock().unwrap_or_else(|e| e.into_inner()).take();
        let mut v = taken.unwrap_or_else(|| self.per_game.visitor());
        let r = self.per_game.built(&mut v, meta, game);
        *slot.lock().unwrap_or_else(|e| e.into_inner()) = Some(v);
        r
    }
}

/// Every game of a reader, through one visitor, handed to `each` as it
/// is read until `each` breaks (then `Break`).
fn each_game<P: PerGame, R: std::io::BufRead>(
    per_game: &Pooled<'_, P>,
    meta: &FileMeta,
    reader: &mut Reader<R>,
    mut each: impl FnMut(P::Output) -> ControlFlow<()>,
) -> ControlFlow<()> {
    per_game.with(meta, |v| {
        while let Some(out) = reader.read_game(v) {
            each(out)?;
        }
        ControlFlow::Continue(())
    })
}

/// Every game of a reader, through one visitor; no more once `stop` is
/// set (the run was stopped: what was read is thrown away).
fn read_games<P: PerGame, R: std::io::BufRead>(
    per_game: &Pooled<'_, P>,
    meta: &FileMeta,
    reader: &mut Reader<R>,
    stop: &Stop,
) -> Vec<P::Output> {
    let mut items = Vec::new();
    let _ = each_game(per_game, meta, reader, |out| {
        items.push(out);
        stopping(stop)
    });
    items
}

/// `Break` once `stop` is set.
fn stopping(stop: &Stop) -> ControlFlow<()> {
    if stop.is_stopped() {
        ControlFlow::Break(())
    } else {
        ControlFlow::Continue(())
    }
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

/// A byte stream of one input.
type Stream = Box<dyn Read + Send>;

/// Opens an input; its reads fail once `stop` is set.
fn open_stream(input: &Input, stop: &Stop) -> io::Result<Stream> {
    if stop.is_stopped() {
        return Err(Stop::error());
    }
    let Some(p) = &input.path else {
        return Ok(Box::new(stop.guard(io::stdin())));
    };
    match &input.packing {
        None => Ok(Box::new(stop.guard(std::fs::File::open(p)?))),
        Some(Packing::Compressed(c)) => Ok(Box::new(
            stop.guard(crate::archive::decompress(*c, std::fs::File::open(p)?)?),
        )),
        Some(Packing::Member {
            archive,
            kind,
            ordinal,
            ..
        }) => Ok(Box::new(io::Cursor::new(crate::archive::read_one(
            archive, *kind, *ordinal,
        )?))),
        // Read by [`stream_archive_members`], never opened as one stream.
        Some(Packing::Streamed { .. }) => {
            Err(io::Error::other("an archive is read member by member"))
        }
    }
}

/// The members of one archive from `inputs[from]` on, read in one pass
/// ([`read_members`]); empty when `inputs[from]` is not a member.
fn member_group(inputs: &[Input], from: usize) -> &[Input] {
    let same = |i: &Input, a: &Arc<PathBuf>| {
        i.issue.is_none()
            && matches!(&i.packing, Some(Packing::Member { archive, .. }) if Arc::ptr_eq(archive, a))
    };
    let Some(Input {
        packing: Some(Packing::Member { archive, .. }),
        issue: None,
        ..
    }) = inputs.get(from)
    else {
        return &[];
    };
    let n = inputs[from..]
        .iter()
        .take_while(|i| same(i, archive))
        .count();
    &inputs[from..from + n]
}

/// Reads the members `group` (inputs from index `from`) of one archive in
/// one pass, handing each member's bytes (or the error reading it) to
/// `each` with its input index; `each` may stop the pass. The members a
/// damaged archive leaves unread are handed the error that ended it.
fn read_members(
    from: usize,
    group: &[Input],
    stop: &Stop,
    each: &mut dyn FnMut(usize, io::Result<Vec<u8>>) -> ControlFlow<()>,
) {
    let Some(Packing::Member { archive, kind, .. }) = &group[0].packing else {
        return;
    };
    let ordinals: Vec<u64> = group
        .iter()
        .map(|i| match &i.packing {
            Some(Packing::Member { ordinal, .. }) => *ordinal,
            _ => u64::MAX,
        })
        .collect();
    let mut done = 0;
    let mut stopped = false;
    let res = crate::archive::stream(archive, *kind, &ordinals, &mut |k, bytes| {
        done = k + 1;
        if stop.is_stopped() || each(from + k, bytes).is_break() {
            stopped = true;
            return ControlFlow::Break(());
        }
        ControlFlow::Continue(())
    });
    if stopped {
        return;
    }
    let why = match res {
        Ok(()) => "not found in the archive".to_string(),
        Err(e) => format!("damaged archive: {e}"),
    };
    for k in done..group.len() {
        let e = io::Error::new(io::ErrorKind::InvalidData, why.clone());
        if each(from + k, Err(e)).is_break() {
            return;
        }
    }
}

/// Reads the archive input `inputs[i]` ([`Packing::Streamed`]) in one pass,
/// handing each member taken (by its rule, then its shard) to `each` as
/// an input of its own, with its bytes or the error reading them; `each`
/// may stop the pass. `Some` error when the archive is damaged (the
/// members before it were handed over), or cannot be opened.
fn stream_archive_members(
    input: &Input,
    stop: &Stop,
    each: &mut dyn FnMut(Input, io::Result<Vec<u8>>) -> ControlFlow<()>,
) -> Option<io::Error> {
    let (Some(Packing::Streamed { kind, rule, shard }), Some(path)) = (&input.packing, &input.path)
    else {
        return None;
    };
    let shared = Arc::new(path.clone());
    let whole = Whole {
        display: &input.display,
        rel: &input.rel,
        arg: input.arg,
        archive: &shared,
        kind: *kind,
        forced: rule.forced,
    };
    let mut wanted = |name: &str| {
        rule.wanted(name)
            && (shard.is_none()
                || in_shard(
                    &crate::archive::member_display(&input.display, name),
                    *shard,
                ))
    };
    let res = crate::archive::stream_each(path, *kind, &mut wanted, &mut |m| {
        if stop.is_stopped() {
            return ControlFlow::Break(());
        }
        let size = m.bytes.as_ref().map_or(0, |b| b.len() as u64);
        let member = whole.member(&m.name, m.ordinal, size, m.consumed);
        each(member, m.bytes)
    });
    res.err()
}

/// Asks a run ([`run_until`]) to stop, from any thread: no input is
/// opened after it, every read of an input already open fails at once
/// (so an endless stream such as `/dev/zero` ends), and the sink gets no
/// more events. Clones share the flag.
#[derive(Clone, Debug, Default)]
pub struct Stop(Arc<AtomicBool>);

impl Stop {
    /// A flag not set.
    pub fn new() -> Stop {
        Stop::default()
    }

    /// Sets the flag.
    pub fn stop(&self) {
        self.0.store(true, Ordering::Relaxed);
    }

    /// Whether the flag is set.
    pub fn is_stopped(&self) -> bool {
        self.0.load(Ordering::Relaxed)
    }

    /// `r`, whose reads fail (an `Other` error, "stopped") once the flag
    /// is set.
    pub fn guard<R: Read>(&self, r: R) -> Stopping<R> {
        Stopping {
            inner: r,
            stop: self.clone(),
        }
    }

    /// The error of a read after the flag was set (not `Interrupted`,
    /// which readers retry).
    fn error() -> io::Error {
        io::Error::other("stopped")
    }
}

/// A reader that fails once its [`Stop`] is set ([`Stop::guard`]).
#[derive(Debug)]
pub struct Stopping<R> {
    inner: R,
    stop: Stop,
}

impl<R: Read> Read for Stopping<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if self.stop.is_stopped() {
            return Err(Stop::error());
        }
        self.inner.read(buf)
    }
}

/// Reads at most `limit + 1` bytes into `buf`, a buffer kept from input to
/// input (its bytes stay initialised, so it is never cleared): how many,
/// and `true` if the stream ended within `limit`. No size is asked first:
/// a file is read until a read gives nothing.
fn read_start<R: Read + ?Sized>(
    r: &mut R,
    buf: &mut Vec<u8>,
    limit: usize,
) -> io::Result<(usize, bool)> {
    let mut n = 0;
    loop {
        if n == buf.len() {
            if n > limit {
                return Ok((n, false));
            }
            let grow = (n * 2).max(64 << 10).min(limit + 1);
            buf.resize(grow, 0);
        }
        match r.read(&mut buf[n..]) {
            Ok(0) => return Ok((n, true)),
            Ok(k) => n += k,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
}

/// Reads at most `limit + 1` bytes (room for `size_hint` reserved first):
/// `(bytes, true)` if the stream ended within `limit`. The batch runner
/// reads every input's start this way ([`STREAM_THRESHOLD`]), never
/// trusting a size; callers reading one input do the same.
pub fn read_prefix<R: Read + ?Sized>(
    r: &mut R,
    limit: u64,
    size_hint: u64,
) -> io::Result<(Vec<u8>, bool)> {
    let mut buf = Vec::with_capacity(size_hint.min(limit) as usize + 1);
    Read::take(&mut *r, limit + 1).read_to_end(&mut buf)?;
    let complete = buf.len() as u64 <= limit;
    Ok((buf, complete))
}

fn meta_for(i: usize, input: &Input) -> FileMeta {
    let archive_read = match &input.packing {
        Some(Packing::Member { read, .. }) => *read,
        _ => 0,
    };
    FileMeta {
        input: i,
        display: input.display.clone(),
        format: input.format,
        bytes: input.size,
        archive_read,
        ..FileMeta::default()
    }
}

fn error_meta(i: usize, input: &Input, e: &io::Error) -> FileMeta {
    FileMeta {
        error: Some(e.to_string()),
        ..meta_for(i, input)
    }
}

/// Everything the reading side shares.
struct Ctx<'a, 'p, T, F: PerGame> {
    opts: &'a ReadOptions,
    per_game: &'a Pooled<'p, F>,
    permits: &'a Semaphore,
    stop: &'a Stop,
    tx: mpsc::Sender<(u64, Vec<Batch<T>>)>,
    seq: u64,
}

impl<'a, T: Send + 'a, F: PerGame<Output = T>> Ctx<'a, '_, T, F> {
    fn stopped(&self) -> bool {
        self.stop.is_stopped()
    }

    /// Reserves the next place in the output order.
    fn slot(&mut self) -> u64 {
        self.permits.acquire();
        let my = self.seq;
        self.seq += 1;
        my
    }

    fn send_now(&mut self, meta: FileMeta) {
        let my = self.slot();
        let batch = Batch {
            meta: Arc::new(meta),
            items: Vec::new(),
            last: true,
        };
        let _ = self.tx.send((my, vec![batch]));
    }
}

/// Reads an input held whole in memory, handing each game to `each` as
/// it is read (`Break` stops the reading): the input's description, and
/// whether the reading was stopped.
fn read_whole<T, F, E>(
    i: usize,
    input: &Input,
    bytes: Arc<[u8]>,
    opts: &ReadOptions,
    per_game: &Pooled<'_, F>,
    mut each: E,
) -> (Arc<FileMeta>, bool)
where
    F: PerGame<Output = T>,
    E: FnMut(&Arc<FileMeta>, T) -> ControlFlow<()>,
{
    let held = bytes.clone();
    match Reader::with_options(&held[..], input.format, opts) {
        Err(e) => (Arc::new(error_meta(i, input, &e)), false),
        Ok(mut reader) => {
            let meta = Arc::new(FileMeta {
                format: Some(reader.format()),
                encoding: Some(reader.encoding()),
                bytes: if input.regular {
                    held.len() as u64
                } else {
                    input.size
                },
                source: Some(Arc::new(SourceBytes {
                    bytes,
                    first_line: 0,
                })),
                ..meta_for(i, input)
            });
            let stopped = per_game.with(&meta, |v| {
                while let Some(out) = reader.read_game(v) {
                    if each(&meta, out).is_break() {
                        return true;
                    }
                }
                false
            });
            (meta, stopped)
        }
    }
}

/// Parses an input held whole in memory (no further than `stop`).
fn parse_whole<T, F>(
    i: usize,
    input: &Input,
    bytes: Arc<[u8]>,
    opts: &ReadOptions,
    per_game: &Pooled<'_, F>,
    stop: &Stop,
) -> Batch<T>
where
    F: PerGame<Output = T>,
{
    let mut items = Vec::new();
    let (meta, _) = read_whole(i, input, bytes, opts, per_game, |_, out| {
        items.push(out);
        stopping(stop)
    });
    Batch {
        meta,
        items,
        last: true,
    }
}

/// Processes every game of every input with `per_game` on the `workers`
/// and hands the results to `sink` in input order (games in file order).
/// Memory stays bounded: at most a few chunks per thread are in flight.
/// When `sink` returns `Break`, reading stops as soon as possible and no
/// more events are delivered. Returns whether every input was delivered.
pub fn run<T, F, S>(
    inputs: &[Input],
    workers: &Workers,
    opts: &ReadOptions,
    per_game: F,
    sink: S,
) -> bool
where
    T: Send,
    F: PerGame<Output = T>,
    S: FnMut(Event<T>) -> ControlFlow<()>,
{
    run_until(inputs, workers, opts, per_game, &Stop::new(), sink)
}

/// [`run`], which also stops when `stop` is set from another thread (see
/// [`Stop`]): the Python bindings set it on Ctrl-C. `false` when it
/// stopped before every input was delivered.
pub fn run_until<T, F, S>(
    inputs: &[Input],
    workers: &Workers,
    opts: &ReadOptions,
    per_game: F,
    stop: &Stop,
    sink: S,
) -> bool
where
    T: Send,
    F: PerGame<Output = T>,
    S: FnMut(Event<T>) -> ControlFlow<()>,
{
    // Nothing reaches the sink once the run is stopped.
    let mut sink = {
        let mut sink = sink;
        move |ev| {
            if stop.is_stopped() {
                return ControlFlow::Break(());
            }
            sink(ev)
        }
    };
    // One worker (`-j1`): everything on this thread, no thread, no channel.
    let pool = match &workers.pool {
        Some(pool) if workers.threads > 1 => pool,
        _ => return run_here(inputs, opts, &Pooled::new(&per_game, 0), stop, &mut sink),
    };
    let jobs = workers.threads.max(1);
    let permits = Semaphore {
        count: Mutex::new(jobs * IN_FLIGHT_PER_JOB),
        cv: Condvar::new(),
    };
    let (tx, rx) = mpsc::channel::<(u64, Vec<Batch<T>>)>();
    let pooled = Pooled::new(&per_game, pool.current_num_threads());
    let per_game = &pooled;
    let permits = &permits;
    std::thread::scope(|ts| {
        let reader = std::thread::Builder::new()
            .name("kifu-reader".into())
            .stack_size(WORKER_STACK)
            .spawn_scoped(ts, move || {
                pool.in_place_scope(|s| {
                    let mut ctx = Ctx {
                        opts,
                        per_game,
                        permits,
                        stop,
                        tx,
                        seq: 0,
                    };
                    let mut i = 0;
                    while i < inputs.len() {
                        if ctx.stopped() {
                            break;
                        }
                        if is_archive_stream(&inputs[i]) {
                            spawn_archive(i, &inputs[i], &mut ctx, s);
                            i += 1;
                            continue;
                        }
                        let members = member_group(inputs, i);
                        if !members.is_empty() {
                            spawn_members(i, members, inputs, &mut ctx, s);
                            i += members.len();
                            continue;
                        }
                        // A run of small files goes to one worker.
                        let group = small_group(inputs, i);
                        if group.is_empty() {
                            read_input(i, &inputs[i], &mut ctx, s);
                            i += 1;
                        } else {
                            i += group.len();
                            spawn_small(group, inputs, &mut ctx, s);
                        }
                    }
                });
            });
        if reader.is_err() {
            // No thread for the reader: do everything here.
            return run_here(inputs, opts, per_game, stop, &mut sink);
        }
        let mut pending: BTreeMap<u64, Vec<Batch<T>>> = BTreeMap::new();
        let mut next = 0u64;
        let mut in_file = 0usize;
        let mut delivering = true;
        for (seq, batch) in rx {
            if !delivering {
                permits.release();
                continue;
            }
            pending.insert(seq, batch);
            while let Some(batches) = pending.remove(&next) {
                next += 1;
                permits.release();
                for batch in batches {
                    if !delivering {
                        break;
                    }
                    for item in batch.items {
                        let ev = Event::Game(batch.meta.clone(), in_file, item);
                        in_file += 1;
                        if sink(ev).is_break() {
                            delivering = false;
                            break;
                        }
                    }
                    if delivering && batch.last {
                        in_file = 0;
                        if sink(Event::FileDone(batch.meta)).is_break() {
                            delivering = false;
                        }
                    }
                }
                if !delivering {
                    stop.stop();
                    // Free the places of batches already waiting.
                    for _ in 0..pending.len() {
                        permits.release();
                    }
                    pending.clear();
                }
            }
        }
        delivering
    })
}

/// The whole run on the calling thread (`-j1`, or when no thread could be
/// started).
fn run_here<T, F, S>(
    inputs: &[Input],
    opts: &ReadOptions,
    per_game: &Pooled<'_, F>,
    stop: &Stop,
    sink: &mut S,
) -> bool
where
    F: PerGame<Output = T>,
    S: FnMut(Event<T>) -> ControlFlow<()>,
{
    // One read buffer for every input (most are read whole into it).
    let mut buf = Vec::new();
    let mut members_to = 0;
    for (i, input) in inputs.iter().enumerate() {
        if i < members_to {
            continue; // read with its archive
        }
        if is_archive_stream(input) {
            if !archive_here(i, input, opts, per_game, stop, sink) {
                return false;
            }
            continue;
        }
        let members = member_group(inputs, i);
        if !members.is_empty() {
            members_to = i + members.len();
            let mut go = true;
            read_members(i, members, stop, &mut |i, bytes| {
                let input = &inputs[i];
                let (meta, stopped) = match bytes {
                    Err(e) => (Arc::new(error_meta(i, input, &e)), false),
                    Ok(b) => {
                        let mut n = 0;
                        read_whole(i, input, Arc::from(b), opts, per_game, |meta, out| {
                            let ev = Event::Game(meta.clone(), n, out);
                            n += 1;
                            sink(ev)
                        })
                    }
                };
                if stopped || sink(Event::FileDone(meta)).is_break() {
                    go = false;
                    return ControlFlow::Break(());
                }
                ControlFlow::Continue(())
            });
            if !go || stop.is_stopped() {
                return false;
            }
            continue;
        }
        if let Some(meta) = issue_meta(i, input) {
            if sink(Event::FileDone(Arc::new(meta))).is_break() {
                return false;
            }
            continue;
        }
        if stop.is_stopped() {
            return false;
        }
        let opened = open_stream(input, stop).and_then(|mut r| {
            let (len, complete) = read_start(&mut r, &mut buf, STREAM_THRESHOLD as usize)?;
            Ok((len, complete, r))
        });
        let (len, complete, rest) = match opened {
            Ok(x) => x,
            Err(e) => {
                if sink(Event::FileDone(Arc::new(error_meta(i, input, &e)))).is_break() {
                    return false;
                }
                continue;
            }
        };
        if complete {
            // Each game goes to the sink as it is read.
            let mut n = 0;
            let (meta, stopped) = read_whole(
                i,
                input,
                Arc::from(&buf[..len]),
                opts,
                per_game,
                |meta, out| {
                    let ev = Event::Game(meta.clone(), n, out);
                    n += 1;
                    sink(ev)
                },
            );
            if stopped || sink(Event::FileDone(meta)).is_break() {
                return false;
            }
            continue;
        }
        let prefix = buf[..len].to_vec();
        if !stream_inline(i, input, prefix, rest, opts, per_game, sink) {
            return false;
        }
    }
    true
}

/// Reads the archive `input` (index `i`) on the calling thread in one pass
/// ([`stream_archive_members`]), each member's games to the sink as they are
/// read: `false` when the run was stopped.
fn archive_here<T, F, S>(
    i: usize,
    input: &Input,
    opts: &ReadOptions,
    per_game: &Pooled<'_, F>,
    stop: &Stop,
    sink: &mut S,
) -> bool
where
    F: PerGame<Output = T>,
    S: FnMut(Event<T>) -> ControlFlow<()>,
{
    let mut go = true;
    let err = stream_archive_members(input, stop, &mut |member, bytes| {
        let (meta, stopped) = match bytes {
            Err(e) => (Arc::new(error_meta(i, &member, &e)), false),
            Ok(b) => {
                let mut n = 0;
                read_whole(i, &member, Arc::from(b), opts, per_game, |meta, out| {
                    let ev = Event::Game(meta.clone(), n, out);
                    n += 1;
                    sink(ev)
                })
            }
        };
        if stopped || sink(Event::FileDone(meta)).is_break() {
            go = false;
            return ControlFlow::Break(());
        }
        ControlFlow::Continue(())
    });
    if !go || stop.is_stopped() {
        return false;
    }
    if let Some(e) = err {
        let e = io::Error::new(e.kind(), format!("damaged archive: {e}"));
        if sink(Event::FileDone(Arc::new(error_meta(i, input, &e)))).is_break() {
            return false;
        }
    }
    true
}

fn issue_meta(i: usize, input: &Input) -> Option<FileMeta> {
    match &input.issue {
        None => None,
        Some(Issue::Error(msg)) => Some(FileMeta {
            error: Some(msg.clone()),
            ..meta_for(i, input)
        }),
        Some(Issue::Skipped(msg)) => Some(FileMeta {
            skipped: Some(msg.clone()),
            ..meta_for(i, input)
        }),
    }
}

/// Small files handed to one worker together: at most this many...
const GROUP_FILES: usize = 32;

/// ...and at most about this many bytes (the last file may pass it).
const GROUP_BYTES: u64 = 256 << 10;

/// The size of an input read whole by one worker: a regular file that
/// ends within [`STREAM_THRESHOLD`] and is not a multi-game CSA file large
/// enough to share between workers.
fn small_size(input: &Input) -> Option<u64> {
    if input.issue.is_some()
        || input.path.is_none()
        || !input.regular
        || matches!(
            input.packing,
            Some(Packing::Member { .. } | Packing::Streamed { .. })
        )
    {
        return None;
    }
    let size = input.size_now();
    // A multi-game CSA file large enough to share is read by the reading
    // thread and cut in pieces (see [`read_whole_in_pieces`]).
    let shared = size >= 2 * WHOLE_PIECE as u64 && input.format.is_none_or(|f| f == Format::Csa);
    (size > 0 && size <= STREAM_THRESHOLD && !shared).then_some(size)
}

/// The small files from `inputs[from]` on that one worker reads in a row
/// (see [`GROUP_FILES`]), as (index, size); empty when `inputs[from]` is
/// not small. Many small files then cost one hand-off per group, not one
/// per file.
fn small_group(inputs: &[Input], from: usize) -> Vec<(usize, u64)> {
    let mut group = Vec::new();
    let mut bytes = 0;
    for (i, input) in inputs.iter().enumerate().skip(from) {
        if group.len() >= GROUP_FILES || bytes >= GROUP_BYTES {
            break;
        }
        let Some(size) = small_size(input) else {
            break;
        };
        group.push((i, size));
        bytes += size;
    }
    group
}

/// Reads the members of one archive on the reading thread (one pass) and
/// hands them to the workers: small ones in groups (as [`spawn_small`]),
/// a large multi-game CSA member in pieces.
fn spawn_members<'scope, T, F>(
    from: usize,
    group: &'scope [Input],
    inputs: &'scope [Input],
    ctx: &mut Ctx<'scope, '_, T, F>,
    s: &rayon::Scope<'scope>,
) where
    T: Send + 'scope,
    F: PerGame<Output = T>,
{
    let mut h = Holding::default();
    let stop = ctx.stop;
    read_members(from, group, stop, &mut |i, bytes| {
        h.add(i, None, bytes, inputs, ctx, s);
        ControlFlow::Continue(())
    });
    spawn_held(h.held, inputs, ctx, s);
}

/// Whether the input is an archive read as it streams, to be read.
fn is_archive_stream(input: &Input) -> bool {
    input.issue.is_none() && matches!(input.packing, Some(Packing::Streamed { .. }))
}

/// Reads the archive `input` (index `i`) on the reading thread in one pass
/// ([`stream_archive_members`]) and hands its members to the workers as they
/// come, as [`spawn_members`] does; a damaged archive is reported after
/// the members read before the damage.
fn spawn_archive<'scope, T, F>(
    i: usize,
    input: &'scope Input,
    ctx: &mut Ctx<'scope, '_, T, F>,
    s: &rayon::Scope<'scope>,
) where
    T: Send + 'scope,
    F: PerGame<Output = T>,
{
    let mut h = Holding::default();
    let stop = ctx.stop;
    let err = stream_archive_members(input, stop, &mut |member, bytes| {
        h.add(i, Some(Box::new(member)), bytes, &[], ctx, s);
        ControlFlow::Continue(())
    });
    spawn_held(h.held, &[], ctx, s);
    if let Some(e) = err {
        if !ctx.stopped() {
            let e = io::Error::new(e.kind(), format!("damaged archive: {e}"));
            ctx.send_now(error_meta(i, input, &e));
        }
    }
}

/// An input read and held for a worker: its index, the input itself when
/// it is not `inputs[index]` (a member of a tar read as it streams), and
/// its bytes or the error reading them.
type Held = (usize, Option<Box<Input>>, io::Result<Vec<u8>>);

/// Members read on the reading thread, gathered into groups for one
/// worker each ([`GROUP_FILES`], [`GROUP_BYTES`]).
#[derive(Default)]
struct Holding {
    held: Vec<Held>,
    bytes: u64,
}

impl Holding {
    /// Adds a member read (index `i`; `own`, the input when it is not
    /// `inputs[i]`): a large multi-game CSA member goes to the workers
    /// in pieces at once, the others when a group is full.
    fn add<'scope, T, F>(
        &mut self,
        i: usize,
        own: Option<Box<Input>>,
        bytes: io::Result<Vec<u8>>,
        inputs: &'scope [Input],
        ctx: &mut Ctx<'scope, '_, T, F>,
        s: &rayon::Scope<'scope>,
    ) where
        T: Send + 'scope,
        F: PerGame<Output = T>,
    {
        if let Ok(b) = &bytes {
            if b.len() >= 2 * WHOLE_PIECE {
                spawn_held(std::mem::take(&mut self.held), inputs, ctx, s);
                self.bytes = 0;
                let b = bytes.unwrap_or_default();
                let input = own.as_deref().unwrap_or_else(|| &inputs[i]);
                if !read_whole_in_pieces(i, input, &b, ctx, s) {
                    spawn_held(vec![(i, own, Ok(b))], inputs, ctx, s);
                }
                return;
            }
        }
        self.bytes += bytes.as_ref().map_or(0, |b| b.len() as u64);
        self.held.push((i, own, bytes));
        if self.held.len() >= GROUP_FILES || self.bytes >= GROUP_BYTES {
            spawn_held(std::mem::take(&mut self.held), inputs, ctx, s);
            self.bytes = 0;
        }
    }
}

/// Hands inputs already read (members of an archive) to one worker.
fn spawn_held<'scope, T, F>(
    held: Vec<Held>,
    inputs: &'scope [Input],
    ctx: &mut Ctx<'scope, '_, T, F>,
    s: &rayon::Scope<'scope>,
) where
    T: Send + 'scope,
    F: PerGame<Output = T>,
{
    if held.is_empty() {
        return;
    }
    let my = ctx.slot();
    let tx = ctx.tx.clone();
    let (opts, per_game, stop) = (ctx.opts, ctx.per_game, ctx.stop);
    s.spawn(move |_| {
        let batches = held
            .into_iter()
            .map(|(i, own, bytes)| {
                let input = own.as_deref().unwrap_or_else(|| &inputs[i]);
                match bytes {
                    Ok(b) => parse_whole(i, input, Arc::from(b), opts, per_game, stop),
                    Err(e) => Batch {
                        meta: Arc::new(error_meta(i, input, &e)),
                        items: Vec::new(),
                        last: true,
                    },
                }
            })
            .collect();
        let _ = tx.send((my, batches));
    });
}

/// Hands a group of small files to one worker, which reads and parses
/// each in turn (one batch per file, in order).
fn spawn_small<'scope, T, F>(
    group: Vec<(usize, u64)>,
    inputs: &'scope [Input],
    ctx: &mut Ctx<'scope, '_, T, F>,
    s: &rayon::Scope<'scope>,
) where
    T: Send + 'scope,
    F: PerGame<Output = T>,
{
    let my = ctx.slot();
    let tx = ctx.tx.clone();
    let (opts, per_game, stop) = (ctx.opts, ctx.per_game, ctx.stop);
    s.spawn(move |_| {
        let batches = group
            .into_iter()
            .map(|(i, size)| read_small(i, &inputs[i], size, opts, per_game, stop))
            .collect();
        let _ = tx.send((my, batches));
    });
}

/// Reads and parses one small file on a worker.
fn read_small<T, F>(
    i: usize,
    input: &Input,
    size: u64,
    opts: &ReadOptions,
    per_game: &Pooled<'_, F>,
    stop: &Stop,
) -> Batch<T>
where
    F: PerGame<Output = T>,
{
    if stop.is_stopped() {
        return Batch {
            meta: Arc::new(meta_for(i, input)),
            items: Vec::new(),
            last: true,
        };
    }
    match open_stream(input, stop).and_then(|mut r| {
        let (prefix, complete) = read_prefix(&mut r, STREAM_THRESHOLD, size)?;
        Ok((prefix, complete, r))
    }) {
        Err(e) => Batch {
            meta: Arc::new(error_meta(i, input, &e)),
            items: Vec::new(),
            last: true,
        },
        Ok((prefix, true, _)) => parse_whole(i, input, Arc::from(prefix), opts, per_game, stop),
        Ok((prefix, false, rest)) => {
            // The file grew past the threshold since it was listed.
            stream_here(i, input, prefix, rest, opts, per_game, stop)
        }
    }
}

/// Reads one input on the reading thread, handing its games to workers.
fn read_input<'scope, T, F>(
    i: usize,
    input: &'scope Input,
    ctx: &mut Ctx<'scope, '_, T, F>,
    s: &rayon::Scope<'scope>,
) where
    T: Send + 'scope,
    F: PerGame<Output = T>,
{
    if let Some(meta) = issue_meta(i, input) {
        ctx.send_now(meta);
        return;
    }
    let size = input.size_now();
    // Standard input, FIFOs, devices, files whose size reads 0 and large
    // files: see how much there is before deciding.
    let opened = open_stream(input, ctx.stop).and_then(|mut r| {
        let (prefix, complete) = read_prefix(&mut r, STREAM_THRESHOLD, size)?;
        Ok((prefix, complete, r))
    });
    let (prefix, complete, rest) = match opened {
        Ok(x) => x,
        Err(e) => {
            ctx.send_now(error_meta(i, input, &e));
            return;
        }
    };
    if complete {
        if read_whole_in_pieces(i, input, &prefix, ctx, s) {
            return;
        }
        let my = ctx.slot();
        let tx = ctx.tx.clone();
        let (opts, per_game, stop) = (ctx.opts, ctx.per_game, ctx.stop);
        s.spawn(move |_| {
            let batch = parse_whole(i, input, Arc::from(prefix), opts, per_game, stop);
            let _ = tx.send((my, vec![batch]));
        });
        return;
    }
    let result = read_in_pieces(i, input, prefix, rest, ctx, s);
    if let Err(e) = result {
        ctx.send_now(error_meta(i, input, &e));
    }
}

/// Streams a whole input game by game on the current thread (a worker),
/// for a small file that turned out to be large.
fn stream_here<T, F>(
    i: usize,
    input: &Input,
    prefix: Vec<u8>,
    rest: Stream,
    opts: &ReadOptions,
    per_game: &Pooled<'_, F>,
    stop: &Stop,
) -> Batch<T>
where
    F: PerGame<Output = T>,
{
    let src: read::Source = Box::new(BufReader::with_capacity(
        1 << 20,
        io::Cursor::new(prefix).chain(rest),
    ));
    match Reader::with_options(src, input.format, opts) {
        Err(e) => Batch {
            meta: Arc::new(error_meta(i, input, &e)),
            items: Vec::new(),
            last: true,
        },
        Ok(mut reader) => {
            let meta = Arc::new(FileMeta {
                format: Some(reader.format()),
                encoding: Some(reader.encoding()),
                ..meta_for(i, input)
            });
            let items = read_games(per_game, &meta, &mut reader, stop);
            Batch {
                meta,
                items,
                last: true,
            }
        }
    }
}

/// The size a piece of a large file reaches before it is cut (at the next
/// place between games). Small enough that the pieces in flight (a few per
/// worker, see [`IN_FLIGHT_PER_JOB`]) keep the peak memory low, large
/// enough that a worker spends its time parsing rather than waiting.
const PIECE: usize = 1 << 20;

/// Bytes read from a large file at a time.
const READ_CHUNK: usize = 256 << 10;

/// A piece grows to at most this many bytes while looking for a place to
/// cut; past it, the rest of the input is read game by game.
const MAX_PIECE: usize = 16 << 20;

/// Batches (pieces or files) read ahead per worker: the bound on what waits
/// in memory for a worker or for its turn in the output order.
const IN_FLIGHT_PER_JOB: usize = 3;

/// Finds the places where a multi-game CSA or SFEN/USI text may be cut
/// between games, scanning each byte once however the buffer grows.
struct Cutter {
    format: Format,
    /// Where the next scan starts.
    scanned: usize,
    /// Start of the line being scanned.
    line_start: usize,
    /// One past the last newline seen: the lines before it are complete.
    end: usize,
    /// The last place found.
    last: Option<usize>,
}

impl Cutter {
    fn new(format: Format) -> Cutter {
        Cutter {
            format,
            scanned: 0,
            line_start: 0,
            end: 0,
            last: None,
        }
    }

    /// Scans `buf` (what was appended since the last call, and what an
    /// earlier call left) for places to cut, until it finds one at or past
    /// `enough` (the next call goes on from there): `last` is then that
    /// place, else the last one found. Only whole lines count (up to the
    /// last newline). In CSA, a line that cuts is `/` between blanks, so
    /// only the (few) `/` bytes are looked at, each with its line; every
    /// other byte is passed over by `memchr`.
    fn scan(&mut self, buf: &[u8], enough: usize) {
        if let Some(j) = memchr::memrchr(b'\n', &buf[self.scanned..]) {
            self.end = self.scanned + j + 1;
        }
        self.scanned = buf.len();
        let (from, end) = (self.line_start, self.end);
        if from >= end || self.last.is_some_and(|l| l >= enough) {
            return;
        }
        match self.format {
            Format::Usi => {
                // After every line: the first line end at or past `enough`.
                let at = match enough.checked_sub(1).filter(|&e| e < end) {
                    Some(e) => {
                        let lo = e.max(from);
                        lo + memchr::memchr(b'\n', &buf[lo..end]).map_or(end - lo - 1, |q| q) + 1
                    }
                    None => end,
                };
                self.last = Some(at);
                self.line_start = at;
            }
            _ => {
                for k in memchr::memchr_iter(b'/', &buf[from..end]) {
                    let p = from + k;
                    let ls = memchr::memrchr(b'\n', &buf[from..p]).map_or(from, |q| from + q + 1);
                    let nl = p + 1 + memchr::memchr(b'\n', &buf[p + 1..end]).unwrap_or(0);
                    if csa_blank(&buf[ls..p]) && csa_blank(&buf[p + 1..nl]) {
                        self.last = Some(nl + 1);
                        if nl + 1 >= enough {
                            self.line_start = nl + 1;
                            return;
                        }
                    }
                }
                self.line_start = end;
            }
        }
    }

    /// Whether complete lines wait to be scanned.
    fn pending(&self) -> bool {
        self.line_start < self.end
    }

    /// The buffer was cut at `at`: shift what was scanned.
    fn cut(&mut self, at: usize) {
        self.scanned -= at;
        self.line_start = self.line_start.saturating_sub(at);
        self.end = self.end.saturating_sub(at);
        self.last = None;
    }
}

/// Lines in `bytes`, counted as the line reader counts them (LF, CRLF and
/// lone CR each end a line).
fn count_lines(bytes: &[u8]) -> u32 {
    if memchr::memchr(b'\r', bytes).is_none() {
        // LF only, the common case: count them in blocks the compiler
        // vectorises (a block of 255 fits a byte counter).
        let n: usize = bytes
            .chunks(255)
            .map(|c| usize::from(c.iter().map(|&b| u8::from(b == b'\n')).sum::<u8>()))
            .sum();
        return u32::try_from(n).unwrap_or(u32::MAX);
    }
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

/// One piece of a multi-game input, cut between games.
struct Piece {
    bytes: Arc<[u8]>,
    /// Lines of the input before it.
    first_line: u32,
    /// It starts the input (read with the run's options, numbered from 1).
    first: bool,
    /// It ends the input.
    last: bool,
}

/// The description of a piece's games: the input's, with the piece's bytes
/// kept for quoting source lines.
fn piece_meta(base: &FileMeta, p: &Piece) -> Arc<FileMeta> {
    Arc::new(FileMeta {
        source: Some(Arc::new(SourceBytes {
            bytes: p.bytes.clone(),
            first_line: p.first_line,
        })),
        ..base.clone()
    })
}

/// Every game of one piece. The first piece is read as the whole input
/// starts (its BOM, its declaration); the others continue in its encoding.
fn read_piece<P: PerGame>(
    p: &Piece,
    format: Format,
    encoding: Encoding,
    opts: &ReadOptions,
    per_game: &Pooled<'_, P>,
    meta: &FileMeta,
    stop: &Stop,
) -> Vec<P::Output> {
    let mut items = Vec::new();
    let _ = each_in_piece(p, format, encoding, opts, per_game, meta, |out| {
        items.push(out);
        stopping(stop)
    });
    items
}

/// Hands each game of a piece to `each` as it is read, until `each`
/// breaks (then `Break`).
fn each_in_piece<P: PerGame>(
    p: &Piece,
    format: Format,
    encoding: Encoding,
    opts: &ReadOptions,
    per_game: &Pooled<'_, P>,
    meta: &FileMeta,
    each: impl FnMut(P::Output) -> ControlFlow<()>,
) -> ControlFlow<()> {
    if p.bytes.is_empty() {
        return ControlFlow::Continue(());
    }
    let source: read::Source = Box::new(io::Cursor::new(p.bytes.clone()));
    let lines = if p.first {
        read::LineReader::new(source, &opts.decode)
    } else {
        let mut lines = read::LineReader::continuing(source, encoding, opts.decode.lossy);
        lines.set_line_offset(p.first_line);
        Ok(lines)
    };
    match lines {
        Ok(lines) => each_game(
            per_game,
            meta,
            &mut Reader::from_lines(format, lines, opts),
            each,
        ),
        Err(_) => ControlFlow::Continue(()),
    }
}

/// Hands one piece to a worker, in its place in the output order.
fn spawn_piece<'scope, T, F>(
    p: Piece,
    format: Format,
    base: &FileMeta,
    encoding: Encoding,
    ctx: &mut Ctx<'scope, '_, T, F>,
    s: &rayon::Scope<'scope>,
) where
    T: Send + 'scope,
    F: PerGame<Output = T>,
{
    let meta = piece_meta(base, &p);
    let my = ctx.slot();
    let tx = ctx.tx.clone();
    let (per_game, stop, opts) = (ctx.per_game, ctx.stop, ctx.opts);
    s.spawn(move |_| {
        let items = if stop.is_stopped() {
            Vec::new()
        } else {
            read_piece(&p, format, encoding, opts, per_game, &meta, stop)
        };
        let last = p.last;
        let _ = tx.send((my, vec![Batch { meta, items, last }]));
    });
}

/// A multi-game CSA input read whole is cut into pieces of at least this
/// many bytes when several workers share the run.
const WHOLE_PIECE: usize = 512 << 10;

/// Where a CSA text read whole may be cut so that several workers read it
/// at once: after a `/` line (as [`Cutter`] finds them), each piece at
/// least `piece` bytes, and every piece holding a game (a piece without
/// one would read as an `empty` game). Empty when it should not be cut.
fn whole_cuts(buf: &[u8], piece: usize) -> Vec<usize> {
    let mut cuts = Vec::new();
    let mut prev = 0;
    let mut from = piece;
    while from < buf.len() {
        let Some(c) = csa_cut_from(buf, from) else {
            break;
        };
        if c >= buf.len() || !csa_holds_game(&buf[c..]) {
            break;
        }
        if csa_holds_game(&buf[prev..c]) {
            cuts.push(c);
            prev = c;
            from = c + piece;
        } else {
            from = c;
        }
    }
    cuts
}

/// The first place to cut a CSA text at or after `from`: just after a
/// whole line that is `/` between blanks (the rule of [`Cutter`]).
fn csa_cut_from(buf: &[u8], from: usize) -> Option<usize> {
    for k in memchr::memchr_iter(b'/', &buf[from..]) {
        let p = from + k;
        let ls = memchr::memrchr(b'\n', &buf[..p]).map_or(0, |q| q + 1);
        let nl = p + 1 + memchr::memchr(b'\n', &buf[p + 1..])?;
        if csa_blank(&buf[ls..p]) && csa_blank(&buf[p + 1..nl]) {
            return Some(nl + 1);
        }
    }
    None
}

/// Whether the bytes around a `/` leave its line a CSA separator: only
/// spaces and tabs (which the CSA reader trims) and CRs (a line break to
/// the line reader, so the `/` is alone on its line either way). Other
/// ASCII whitespace (a form feed, say) makes the line something else.
fn csa_blank(bytes: &[u8]) -> bool {
    bytes.iter().all(|&b| matches!(b, b' ' | b'\t' | b'\r'))
}

/// Whether CSA text holds a line that begins a game when read on its own:
/// one whose first byte after blanks is a letter, a digit or one of
/// `+-%$` (every such line is a statement or an error, both of which begin
/// the game; comments, `/` and blank lines do not).
fn csa_holds_game(bytes: &[u8]) -> bool {
    bytes.split(|&b| b == b'\n' || b == b'\r').any(|line| {
        line.iter()
            .find(|&&b| b != b' ' && b != b'\t')
            .is_some_and(|&b| b.is_ascii_alphanumeric() || b"+-%$".contains(&b))
    })
}

/// Reads a multi-game CSA input held whole in `buf` in pieces (see
/// [`whole_cuts`]), so that several workers share it; `false` (nothing
/// done) when it is not worth cutting.
fn read_whole_in_pieces<'scope, T, F>(
    i: usize,
    input: &Input,
    buf: &[u8],
    ctx: &mut Ctx<'scope, '_, T, F>,
    s: &rayon::Scope<'scope>,
) -> bool
where
    T: Send + 'scope,
    F: PerGame<Output = T>,
{
    let opts = ctx.opts;
    if buf.len() < 2 * WHOLE_PIECE || read::binary_at(buf, &opts.decode).is_some() {
        return false;
    }
    let format = input.format.or_else(|| Format::sniff(buf));
    if format != Some(Format::Csa) {
        return false;
    }
    // As the line reader would detect it over the whole input.
    let encoding = crate::read::decode::detect_start(buf, &opts.decode);
    if !encoding.is_ascii_compatible() {
        return false;
    }
    let cuts = whole_cuts(buf, WHOLE_PIECE);
    if cuts.is_empty() {
        return false;
    }
    let base = FileMeta {
        format,
        encoding: Some(encoding),
        ..meta_for(i, input)
    };
    let mut start = 0;
    let mut lines_before = 0u32;
    for (k, &end) in cuts.iter().chain(std::iter::once(&buf.len())).enumerate() {
        let bytes: Arc<[u8]> = Arc::from(&buf[start..end]);
        let offset = lines_before;
        lines_before = lines_before.saturating_add(count_lines(&bytes));
        let p = Piece {
            bytes,
            first_line: offset,
            first: k == 0,
            last: end == buf.len(),
        };
        spawn_piece(p, Format::Csa, &base, encoding, ctx, s);
        start = end;
    }
    true
}

/// The format a large input is cut into pieces as, if it can be: a
/// multi-game CSA or SFEN/USI text in an ASCII-compatible encoding.
fn piece_format(format: Option<Format>, encoding: Encoding) -> Option<Format> {
    match format {
        Some(f @ (Format::Csa | Format::Usi)) if encoding.is_ascii_compatible() => Some(f),
        _ => None,
    }
}

/// A large multi-game CSA or SFEN/USI input cut into pieces between games
/// as it is read, each byte scanned once, at most [`MAX_PIECE`] bytes held.
struct Pieces {
    format: Format,
    buf: Vec<u8>,
    rest: Stream,
    cutter: Cutter,
    eof: bool,
    /// Lines of the input before `buf`.
    lines_before: u32,
    /// No piece has been cut yet.
    first: bool,
    /// `buf` holds no game line before this many bytes (a line boundary).
    no_game: usize,
}

/// What [`Pieces::next_piece`] found.
enum Cut {
    /// The next piece (the input is done after one marked `last`).
    Piece(Piece),
    /// No place to cut within [`MAX_PIECE`] bytes: read the rest game by
    /// game ([`Pieces::into_rest`]).
    NoPlace,
}

impl Pieces {
    fn new(format: Format, buf: Vec<u8>, rest: Stream) -> Pieces {
        Pieces {
            format,
            buf,
            rest,
            cutter: Cutter::new(format),
            eof: false,
            lines_before: 0,
            first: true,
            no_game: 0,
        }
    }

    /// The next piece: cut at the first place between games past
    /// [`PIECE`] bytes (the first piece too, however much was read to
    /// decide that the input is large), so that its games reach the
    /// output (and a closed one stops the run) after about a piece's work.
    fn next_piece(&mut self) -> io::Result<Cut> {
        loop {
            self.cutter.scan(&self.buf, PIECE);
            let cut = if self.eof {
                Some(self.buf.len())
            } else if self.buf.len() < PIECE {
                None
            } else {
                // A cut leaves a game on both sides (as [`whole_cuts`]): a
                // piece without one would read as an `empty` game.
                match self.cutter.last {
                    Some(c) if self.format != Format::Usi => {
                        // What is before the cut is looked at once.
                        let before = csa_holds_game(&self.buf[self.no_game.min(c)..c]);
                        if !before {
                            self.no_game = c;
                            self.cutter.last = None;
                            if self.cutter.pending() {
                                continue; // a later place
                            }
                        }
                        (before && csa_holds_game(&self.buf[c..])).then_some(c)
                    }
                    last => last,
                }
            };
            let Some(cut) = cut else {
                if self.buf.len() >= MAX_PIECE {
                    return Ok(Cut::NoPlace);
                }
                // Straight into the buffer (no intermediate chunk to copy).
                let n = (&mut self.rest)
                    .take(READ_CHUNK as u64)
                    .read_to_end(&mut self.buf)?;
                if n == 0 {
                    self.eof = true;
                }
                continue;
            };
            // The piece is copied once, into its shared buffer; the buffer
            // keeps its memory for the next piece (no regrowing).
            let bytes: Arc<[u8]> = Arc::from(&self.buf[..cut]);
            self.buf.drain(..cut);
            self.cutter.cut(cut);
            self.no_game = 0;
            let first_line = self.lines_before;
            self.lines_before = self.lines_before.saturating_add(count_lines(&bytes));
            let piece = Piece {
                bytes,
                first_line,
                first: self.first,
                last: self.eof && self.buf.is_empty(),
            };
            self.first = false;
            return Ok(Cut::Piece(piece));
        }
    }

    /// What was not cut, for reading game by game.
    fn into_rest(self) -> Rest {
        Rest {
            buf: self.buf,
            rest: self.rest,
            lines_before: self.lines_before,
            first: self.first,
        }
    }
}

/// The part of a large input read game by game.
struct Rest {
    buf: Vec<u8>,
    rest: Stream,
    /// Lines of the input before `buf`.
    lines_before: u32,
    /// `buf` starts the input.
    first: bool,
}

impl Rest {
    /// The rest as one byte source.
    fn source(buf: Vec<u8>, rest: Stream) -> read::Source {
        Box::new(BufReader::with_capacity(
            1 << 20,
            io::Cursor::new(buf).chain(rest),
        ))
    }

    /// A reader over the rest: the whole input's reader when nothing was
    /// cut before it, else one continuing in `format` and `encoding`.
    fn reader(
        self,
        input: &Input,
        format: Option<Format>,
        encoding: Encoding,
        opts: &ReadOptions,
    ) -> io::Result<Reader<read::Source>> {
        let src = Rest::source(self.buf, self.rest);
        if self.first {
            return Reader::with_options(src, input.format, opts);
        }
        let mut lines = read::LineReader::continuing(src, encoding, opts.decode.lossy);
        lines.set_line_offset(self.lines_before);
        Ok(Reader::from_lines(
            format.unwrap_or(Format::Csa),
            lines,
            opts,
        ))
    }
}

/// A large input as its start shows it: the format and encoding found
/// there, and how it is read.
struct Large {
    format: Option<Format>,
    encoding: Encoding,
    /// The description of its games (without source bytes).
    base: FileMeta,
    /// In pieces (with the format they are read as), or game by game.
    how: Result<(Format, Pieces), Rest>,
}

impl Large {
    fn new(i: usize, input: &Input, buf: Vec<u8>, rest: Stream, opts: &ReadOptions) -> Large {
        let format = input.format.or_else(|| Format::sniff(&buf));
        // As the line reader would detect it over the whole input.
        let encoding = crate::read::decode::detect_start(&buf, &opts.decode);
        // A binary file is read as one (see [`read::binary_at`]).
        let binary = read::binary_at(&buf, &opts.decode).is_some();
        let how = match piece_format(format, encoding).filter(|_| !binary) {
            Some(pf) => Ok((pf, Pieces::new(pf, buf, rest))),
            None => Err(Rest {
                buf,
                rest,
                lines_before: 0,
                first: true,
            }),
        };
        Large {
            format,
            encoding,
            base: FileMeta {
                format,
                encoding: Some(encoding),
                ..meta_for(i, input)
            },
            how,
        }
    }
}

/// Reads a large input: a multi-game CSA or SFEN/USI text is cut into
/// pieces between games, so that several workers parse it at once; the
/// rest (other formats, encodings that are not ASCII-compatible, or no
/// place to cut within [`MAX_PIECE`] bytes) is read game by game here, in
/// chunks handed to the workers. Memory stays bounded either way.
fn read_in_pieces<'scope, T, F>(
    i: usize,
    input: &'scope Input,
    buf: Vec<u8>,
    rest: Stream,
    ctx: &mut Ctx<'scope, '_, T, F>,
    s: &rayon::Scope<'scope>,
) -> io::Result<()>
where
    T: Send + 'scope,
    F: PerGame<Output = T>,
{
    let opts = ctx.opts;
    let Large {
        format,
        encoding,
        base,
        how,
    } = Large::new(i, input, buf, rest, opts);
    let rest = match how {
        Err(rest) => rest,
        Ok((pf, mut pieces)) => loop {
            if ctx.stopped() {
                return Ok(());
            }
            match pieces.next_piece()? {
                Cut::NoPlace => break pieces.into_rest(),
                Cut::Piece(p) => {
                    let last = p.last;
                    spawn_piece(p, pf, &base, encoding, ctx, s);
                    if last {
                        return Ok(());
                    }
                }
            }
        },
    };
    // Game by game: the reader streams, chunks of games go to the workers.
    let (format, encoding, games) = if rest.first {
        read::open(Rest::source(rest.buf, rest.rest), input.format, opts)?
    } else {
        let format = format.unwrap_or(Format::Csa);
        let mut lines = read::LineReader::continuing(
            Rest::source(rest.buf, rest.rest),
            encoding,
            opts.decode.lossy,
        );
        lines.set_line_offset(rest.lines_before);
        (
            format,
            encoding,
            read::games_from_lines(format, lines, opts),
        )
    };
    let meta = Arc::new(FileMeta {
        format: Some(format),
        encoding: Some(encoding),
        ..meta_for(i, input)
    });
    let mut games = games.peekable();
    loop {
        if ctx.stopped() {
            return Ok(());
        }
        let chunk: Vec<Game> = games.by_ref().take(CHUNK).collect();
        let last = games.peek().is_none();
        let my = ctx.slot();
        let tx = ctx.tx.clone();
        let meta = meta.clone();
        let (per_game, stop) = (ctx.per_game, ctx.stop);
        s.spawn(move |_| {
            let items = chunk
                .into_iter()
                .take_while(|_| !stop.is_stopped())
                .map(|g| per_game.built(&meta, g))
                .collect();
            let _ = tx.send((my, vec![Batch { meta, items, last }]));
        });
        if last {
            return Ok(());
        }
    }
}

/// Streams a large input on the calling thread (`-j1`), as the workers
/// would: in pieces when it is a multi-game CSA or SFEN/USI text (so that
/// reports quote its source lines, as at `-j2`), else game by game.
/// `false` when the sink stopped the run.
fn stream_inline<T, F, S>(
    i: usize,
    input: &Input,
    buf: Vec<u8>,
    rest: Stream,
    opts: &ReadOptions,
    per_game: &Pooled<'_, F>,
    sink: &mut S,
) -> bool
where
    F: PerGame<Output = T>,
    S: FnMut(Event<T>) -> ControlFlow<()>,
{
    let Large {
        format,
        encoding,
        base,
        how,
    } = Large::new(i, input, buf, rest, opts);
    let mut n = 0;
    let rest = match how {
        Err(rest) => rest,
        Ok((pf, mut pieces)) => loop {
            let p = match pieces.next_piece() {
                Err(e) => {
                    return sink(Event::FileDone(Arc::new(error_meta(i, input, &e)))).is_continue()
                }
                Ok(Cut::NoPlace) => break pieces.into_rest(),
                Ok(Cut::Piece(p)) => p,
            };
            let meta = piece_meta(&base, &p);
            // Each game goes to the sink as it is read: a sink that stops
            // (a closed output) stops the reading at once.
            let read = each_in_piece(&p, pf, encoding, opts, per_game, &meta, |item| {
                let flow = sink(Event::Game(meta.clone(), n, item));
                n += 1;
                flow
            });
            if read.is_break() {
                return false;
            }
            if p.last {
                return sink(Event::FileDone(meta)).is_continue();
            }
        },
    };
    let meta = match rest.reader(input, format, encoding, opts) {
        Err(e) => Arc::new(error_meta(i, input, &e)),
        Ok(mut reader) => {
            let meta = Arc::new(FileMeta {
                format: Some(reader.format()),
                encoding: Some(reader.encoding()),
                ..meta_for(i, input)
            });
            let stopped = per_game.with(&meta, |v| {
                while let Some(out) = reader.read_game(v) {
                    if sink(Event::Game(meta.clone(), n, out)).is_break() {
                        return true;
                    }
                    n += 1;
                }
                false
            });
            if stopped {
                return false;
            }
            meta
        }
    };
    sink(Event::FileDone(meta)).is_continue()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cutter_finds_the_last_slash_line_scanning_once() {
        let mut c = Cutter::new(Format::Csa);
        let mut buf = b"PI\n+\n+7776FU\n/\nPI\n".to_vec();
        c.scan(&buf, usize::MAX);
        assert_eq!(c.last, Some(15));
        buf.extend_from_slice(b"+\n / \r\nPI");
        c.scan(&buf, usize::MAX);
        assert_eq!(c.last, Some(25));
        let tail = buf[25..].to_vec();
        c.cut(25);
        buf = tail;
        buf.extend_from_slice(b"\n/\n");
        c.scan(&buf, usize::MAX);
        assert_eq!(c.last, Some(5));
    }

    /// With a size to reach, the scan stops at the first place at or past
    /// it (however much is in the buffer), and goes on from there.
    #[test]
    fn cutter_stops_at_the_first_place_past_the_size() {
        let game = b"PI\n+\n+7776FU\n/\n"; // 15 bytes, a place after each
        let buf: Vec<u8> = game.repeat(100);
        let mut c = Cutter::new(Format::Csa);
        c.scan(&buf, 40);
        assert_eq!(c.last, Some(45));
        // Nothing new: the same place.
        c.scan(&buf, 40);
        assert_eq!(c.last, Some(45));
        let tail = buf[45..].to_vec();
        c.cut(45);
        c.scan(&tail, 40);
        assert_eq!(c.last, Some(45));
        // Without a size, the last place.
        c.scan(&tail, usize::MAX);
        assert_eq!(c.last, Some(tail.len()));
        // USI: every line end is a place.
        let mut u = Cutter::new(Format::Usi);
        let usi = b"startpos\n".repeat(100);
        u.scan(&usi, 40);
        assert_eq!(u.last, Some(45));
        u.scan(&usi, 40);
        assert_eq!(u.last, Some(45), "a place past the size is kept");
        u.scan(&usi, usize::MAX);
        assert_eq!(u.last, Some(usi.len()));
    }

    /// The cut lines the scan finds are those of a line-by-line reading,
    /// however the text arrives.
    #[test]
    fn cutter_agrees_with_a_line_by_line_reading() {
        let text: &[u8] =
            b"PI\n$START_TIME:2020/01/01\n+7776FU\n'a / comment\n/\n \t/ \r\n//\n/x\nPI\n/\n/";
        let mut want = None;
        let mut at = 0;
        for line in text.split_inclusive(|&b| b == b'\n') {
            at += line.len();
            if line.ends_with(b"\n") {
                let t = line.trim_ascii();
                if t == b"/" {
                    want = Some(at);
                }
            }
        }
        for step in [1, 2, 3, 7, text.len()] {
            let mut c = Cutter::new(Format::Csa);
            let mut buf = Vec::new();
            for piece in text.chunks(step) {
                buf.extend_from_slice(piece);
                c.scan(&buf, usize::MAX);
            }
            assert_eq!(c.last, want, "step {step}");
        }
        assert_eq!(want, Some(text.len() - 1));
    }

    #[test]
    fn rel_path_is_strip_prefix() {
        let cases = [
            ("dir/a.csa", "dir"),
            ("dir/a.csa", "dir/"),
            ("dir//a.csa", "dir"),
            ("./dir/sub/a.csa", "./dir"),
            ("./dir/sub/a.csa", "."),
            ("dir/./a.csa", "dir"),
            ("dir/../a.csa", "dir"),
            ("dir/.hidden/a.csa", "dir"),
            ("dir/sub/", "dir"),
            ("/a.csa", "/"),
            ("dirx/a.csa", "dir"),
            ("dir", "dir"),
            ("dir/ a.csa", "dir"),
            ("a/./b/x.csa", "a/./b"),
            ("a/../b/x.csa", "a/.."),
        ];
        for (p, r) in cases {
            let (p, r) = (Path::new(p), Path::new(r));
            let want = p
                .strip_prefix(r)
                .map_or_else(|_| p.to_path_buf(), Path::to_path_buf);
            assert_eq!(rel_path(p, r), want, "{p:?} under {r:?}");
        }
    }

    #[test]
    fn count_lines_counts_as_the_line_reader() {
        assert_eq!(count_lines(b""), 0);
        assert_eq!(count_lines(b"a\nb\nc"), 2);
        assert_eq!(count_lines(&b"x\n".repeat(1000)), 1000);
        assert_eq!(count_lines(b"a\r\nb\rc\n"), 3);
    }

    /// With [`Walk::stream_archives`], a zip or a 7z is one input read as
    /// it streams (no input per member); without it, an input per member.
    #[cfg(feature = "archives")]
    #[test]
    fn streamed_zip_and_7z_keep_no_input_per_member() {
        use std::io::Write;
        let dir = tempfile::tempdir().unwrap();
        let zp = dir.path().join("a.zip");
        let mut z = zip::ZipWriter::new(std::fs::File::create(&zp).unwrap());
        let opts = zip::write::SimpleFileOptions::default();
        let src = dir.path().join("src");
        std::fs::create_dir_all(&src).unwrap();
        for i in 0..5 {
            z.start_file(format!("g{i}.csa"), opts).unwrap();
            z.write_all(b"PI\n+\n").unwrap();
            std::fs::write(src.join(format!("g{i}.csa")), b"PI\n+\n").unwrap();
        }
        z.finish().unwrap();
        let sp = dir.path().join("a.7z");
        sevenz_rust2::compress_to_path(&src, &sp).unwrap();
        let mut walk = Walk {
            exts: vec!["csa".into()],
            ..Walk::default()
        };
        for p in [&zp, &sp] {
            walk.stream_archives = true;
            let d = discover_with(&[p], &walk).unwrap();
            assert_eq!(d.inputs.len(), 1, "{p:?}");
            assert!(matches!(
                d.inputs[0].packing,
                Some(Packing::Streamed { .. })
            ));
            walk.stream_archives = false;
            let d = discover_with(&[p], &walk).unwrap();
            assert_eq!(d.inputs.len(), 5, "{p:?}");
        }
    }
}
