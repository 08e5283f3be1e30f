//! Writing outputs safely.
//!
//! * A new file is written to a temporary file in its folder and renamed
//!   into place when complete, so an interrupted run leaves only complete
//!   files under their final names. It gets the permissions that
//!   `open(O_CREAT, 0666)` gives under the user's umask.
//! * An existing regular file is replaced only when asked (`--force`), the
//!   same way, keeping its permission bits (as writing into it would).
//! * A FIFO or character device (`/dev/stdout`, `/dev/null`, a terminal) is
//!   written into, never replaced; block devices, sockets and folders are
//!   refused; a symbolic link is followed, never replaced.
//! * An input of the run is never an output (compared by device and inode,
//!   so hard links, symbolic links and `-` for a redirected standard input
//!   are caught), and two outputs of one run are never one file
//!   ([`Claims`]).
//! * Every output of a run is planned ([`Plan`]) before anything is
//!   written: what would be refused is refused before the first byte, and
//!   [`Plan`] is the only way a command opens an output.
//! * Temporary files still open when the process is told to stop (SIGINT,
//!   SIGTERM) can be removed with [`remove_temporaries`].

use std::collections::HashSet;
use std::ffi::OsStr;
use std::fs::{File, Metadata, OpenOptions, Permissions};
use std::io::{self, Write};
use std::os::unix::fs::{FileTypeExt, MetadataExt, PermissionsExt};
use std::path::{Component, Path, PathBuf};
use std::sync::Mutex;

/// The identity of a file: device and inode.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct FileId {
    dev: u64,
    ino: u64,
}

impl FileId {
    /// The identity of what `m` describes.
    pub fn of_metadata(m: &Metadata) -> FileId {
        FileId {
            dev: m.dev(),
            ino: m.ino(),
        }
    }

    /// The identity of the file at `path`, following symbolic links.
    pub fn of_path(path: &Path) -> io::Result<FileId> {
        std::fs::metadata(path).map(|m| FileId::of_metadata(&m))
    }

    /// The identity and metadata of what the standard stream `fd` (0, 1 or
    /// 2) is open on.
    pub fn of_fd(fd: i32) -> Option<(FileId, Metadata)> {
        use std::os::fd::AsFd;
        let owned = match fd {
            0 => io::stdin().as_fd().try_clone_to_owned(),
            1 => io::stdout().as_fd().try_clone_to_owned(),
            2 => io::stderr().as_fd().try_clone_to_owned(),
            _ => return None,
        }
        .ok()?;
        let m = File::from(owned).metadata().ok()?;
        Some((FileId::of_metadata(&m), m))
    }
}

/// The files a run reads, by identity, so that none of them is written.
///
/// The inputs are looked up (one `stat` each) only when an output that
/// already exists has to be checked against them: a new output file cannot
/// be one of them, and most runs write new files.
#[derive(Debug, Default)]
struct InputSet {
    paths: Vec<PathBuf>,
    stdin: Option<FileId>,
    ids: std::sync::OnceLock<HashSet<FileId>>,
}

impl InputSet {
    /// The identities of `paths` (those that exist) and, if `stdin` is
    /// true, of what standard input is open on when it is a regular file
    /// (`kifu convert - -o g.csa < g.csa`).
    pub fn new<'a>(paths: impl IntoIterator<Item = &'a Path>, stdin: bool) -> InputSet {
        let stdin = if stdin {
            FileId::of_fd(0).and_then(|(id, m)| {
                (m.file_type().is_file() || m.file_type().is_fifo()).then_some(id)
            })
        } else {
            None
        };
        InputSet {
            paths: paths.into_iter().map(Path::to_path_buf).collect(),
            stdin,
            ids: std::sync::OnceLock::new(),
        }
    }

    /// Whether `id` is one of the inputs.
    pub fn contains(&self, id: FileId) -> bool {
        if self.stdin == Some(id) {
            return true;
        }
        self.ids
            .get_or_init(|| {
                self.paths
                    .iter()
                    .filter_map(|p| FileId::of_path(p).ok())
                    .collect()
            })
            .contains(&id)
    }
}

/// Where an output goes as the user named it: a path, or `-` for standard
/// output.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Destination {
    /// Standard output.
    Stdout,
    /// A file, FIFO or device.
    Path(PathBuf),
}

impl Destination {
    /// `-` is standard output; anything else a path.
    pub fn parse(s: &OsStr) -> Destination {
        if s == "-" {
            Destination::Stdout
        } else {
            Destination::Path(PathBuf::from(s))
        }
    }

    /// How reports name it.
    pub fn display(&self) -> String {
        match self {
            Destination::Stdout => "standard output".to_string(),
            Destination::Path(p) => p.display().to_string(),
        }
    }
}

/// Why an output cannot be claimed ([`Plan::claim`]); shown, the message
/// `kifu` always gave.
#[derive(Debug)]
pub enum ClaimError {
    /// Another output of this run is already that file.
    Twice {
        /// The output, as shown.
        dest: String,
        /// Whom it was claimed for first.
        earlier: String,
        /// Whom it was claimed for again.
        owner: String,
    },
    /// The output cannot be written: it exists (without `--force`), is an
    /// input, is a folder or device, or the system refused to look at it.
    Refused {
        /// The output, as shown.
        dest: String,
        /// Why.
        error: io::Error,
    },
}

impl ClaimError {
    fn refused(dest: &Destination, error: io::Error) -> ClaimError {
        ClaimError::Refused {
            dest: dest.display(),
            error,
        }
    }
}

impl std::fmt::Display for ClaimError {
    /// The rule's own message (which names the path), or `path: error[io]:
    /// …` for what the system said.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ClaimError::Twice {
                dest,
                earlier,
                owner,
            } => write!(
                f,
                "{dest} would be written twice: for {earlier} and for {owner}"
            ),
            ClaimError::Refused { dest, error } if error.raw_os_error().is_some() => {
                write!(f, "{dest}: error[io]: {error}")
            }
            ClaimError::Refused { error, .. } => write!(f, "{error}"),
        }
    }
}

impl std::error::Error for ClaimError {}

/// What makes two outputs the same file.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
enum ClaimKey {
    Stdout,
    Id(FileId),
    Path(PathBuf),
}

/// The outputs of one run, so that no two of them are one file.
#[derive(Debug, Default)]
struct Claims {
    keys: std::collections::HashMap<ClaimKey, String>,
}

impl Claims {
    /// Records that `dest` is written on behalf of `owner` (an input or an
    /// option name). Fails, naming the earlier owner, if another output of
    /// this run is already that file.
    pub fn claim(&mut self, dest: &Destination, owner: &str) -> Result<(), ClaimError> {
        let keys = claim_keys(dest);
        for k in &keys {
            if let Some(earlier) = self.keys.get(k) {
                return Err(ClaimError::Twice {
                    dest: dest.display(),
                    earlier: earlier.clone(),
                    owner: owner.to_string(),
                });
            }
        }
        for k in keys {
            self.keys.insert(k, owner.to_string());
        }
        Ok(())
    }
}

/// What `dest` is, for telling whether two outputs are one file. Character
/// devices (`/dev/null`, a terminal) have no key but `-`: writing twice
/// into one loses nothing.
fn claim_keys(dest: &Destination) -> Vec<ClaimKey> {
    let mut keys = Vec::new();
    let found = match dest {
        Destination::Stdout => {
            keys.push(ClaimKey::Stdout);
            FileId::of_fd(1)
        }
        Destination::Path(p) => match std::fs::metadata(p) {
            Ok(m) => Some((FileId::of_metadata(&m), m)),
            Err(_) => {
                keys.push(ClaimKey::Path(normalize(p)));
                None
            }
        },
    };
    if let Some((id, m)) = found {
        if !m.file_type().is_char_device() {
            keys.push(ClaimKey::Id(id));
        }
    }
    keys
}

/// An absolute form of `p` for comparing paths that do not exist yet:
/// resolved component by component as far as it exists (symbolic links
/// followed, `..` the real parent), the rest taken as written (`.`
/// removed, `..` applied).
pub fn normalize(p: &Path) -> PathBuf {
    let abs = std::path::absolute(p).unwrap_or_else(|_| p.to_path_buf());
    let mut out = PathBuf::new();
    // `out` exists (and is resolved) so far.
    let mut exists = true;
    for c in abs.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => {
                out.pop();
                // Back above the part that does not exist: resolved again.
                exists = exists || out.exists();
            }
            c => {
                out.push(c);
                if exists {
                    match out.canonicalize() {
                        Ok(r) => out = r,
                        Err(_) => exists = false,
                    }
                }
            }
        }
    }
    out
}

/// Why an output folder cannot be `dir` when `inputs` (the command's
/// paths) are read: it is one of the input folders or lies inside one
/// (compared once symbolic links and `..` are resolved, whether or not
/// it exists yet), so that the next run would read the outputs as inputs.
pub fn out_dir_in_input(dir: &Path, inputs: &[String]) -> Option<String> {
    let out = normalize(dir);
    for arg in inputs.iter().filter(|a| *a != "-") {
        let path = Path::new(arg);
        if !path.is_dir() {
            continue;
        }
        let Ok(folder) = path.canonicalize() else {
            continue;
        };
        if out.starts_with(&folder) {
            let how = if out == folder {
                "is the input folder"
            } else {
                "lies inside the input folder"
            };
            return Some(format!(
                "--out-dir {} {how} {}: the next run would read the outputs as inputs (choose a folder outside it)",
                dir.display(),
                path.display()
            ));
        }
    }
    None
}

/// Temporary files not yet renamed or removed, for [`remove_temporaries`];
/// `closed` once they were removed, so that no new one appears after.
struct Temporaries {
    paths: Vec<PathBuf>,
    closed: bool,
}

static TEMPORARIES: Mutex<Temporaries> = Mutex::new(Temporaries {
    paths: Vec::new(),
    closed: false,
});

fn temporaries() -> std::sync::MutexGuard<'static, Temporaries> {
    TEMPORARIES.lock().unwrap_or_else(|e| e.into_inner())
}

fn unregister(p: &Path) {
    let mut t = temporaries();
    if let Some(i) = t.paths.iter().position(|x| x == p) {
        t.paths.swap_remove(i);
    }
}

/// Whether new outputs are synced once at the end of the run (Linux,
/// `syncfs`) rather than one by one.
const DEFER_SYNC: bool = cfg!(target_os = "linux");

/// One open folder on each filesystem that holds new outputs not yet
/// synced, by device number.
static UNSYNCED: Mutex<Vec<(u64, File)>> = Mutex::new(Vec::new());

/// Notes that the filesystem of `path`'s folder holds a new output to
/// sync at the end of the run; `false` if its folder cannot be opened
/// (the file is then synced now).
fn defer_sync(path: &Path) -> bool {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let Ok(dev) = std::fs::metadata(dir).map(|m| m.dev()) else {
        return false;
    };
    let mut u = UNSYNCED.lock().unwrap_or_else(|e| e.into_inner());
    if u.iter().any(|(k, _)| *k == dev) {
        return true;
    }
    match File::open(dir) {
        Ok(f) => {
            u.push((dev, f));
            true
        }
        Err(_) => false,
    }
}

/// Makes every new output of this run durable: one `syncfs` per
/// filesystem written to (see [`AtomicFile::commit`]). Called once, when a
/// command has finished.
pub fn sync_outputs() -> io::Result<()> {
    let dirs = std::mem::take(&mut *UNSYNCED.lock().unwrap_or_else(|e| e.into_inner()));
    for (_, dir) in dirs {
        sync_filesystem(&dir)?;
    }
    Ok(())
}

#[cfg(target_os = "linux")]
fn sync_filesystem(dir: &File) -> io::Result<()> {
    use rustix::io::Errno;
    match rustix::fs::syncfs(dir) {
        Ok(()) => Ok(()),
        // A sandbox that refuses the call (seccomp, an emulated kernel):
        // `sync` does the same for every filesystem and cannot fail.
        Err(Errno::NOSYS | Errno::PERM | Errno::ACCESS | Errno::INVAL) => {
            rustix::fs::sync();
            Ok(())
        }
        Err(e) => Err(io::Error::from(e)),
    }
}

#[cfg(not(target_os = "linux"))]
fn sync_filesystem(dir: &File) -> io::Result<()> {
    dir.sync_all()
}

/// Removes every temporary file this process has open for an output, and
/// refuses to create new ones from then on (for a signal handler that then
/// exits). Returns how many were removed.
pub fn remove_temporaries() -> usize {
    let mut t = temporaries();
    t.closed = true;
    let n = t
        .paths
        .drain(..)
        .filter(|p| std::fs::remove_file(p).is_ok())
        .count();
    n
}

/// A file being written; it appears under its name only on
/// [`AtomicFile::commit`], and its temporary file is removed if it is
/// dropped uncommitted.
pub struct AtomicFile {
    tmp: Option<tempfile::NamedTempFile>,
    path: PathBuf,
    replace: Option<Permissions>,
}

impl AtomicFile {
    fn start(path: &Path, replace: Option<Permissions>) -> io::Result<AtomicFile> {
        let dir = match path.parent() {
            Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
            _ => PathBuf::from("."),
        };
        std::fs::create_dir_all(&dir)?;
        // Created and registered under the lock, so that a signal handler
        // removing the temporaries never misses one.
        let mut t = temporaries();
        if t.closed {
            return Err(io::Error::new(
                io::ErrorKind::Interrupted,
                "interrupted; no new output is started",
            ));
        }
        let tmp = tempfile::Builder::new()
            .prefix(".kifu-")
            .suffix(".tmp")
            .permissions(Permissions::from_mode(0o666))
            .tempfile_in(&dir)?;
        t.paths.push(tmp.path().to_path_buf());
        drop(t);
        Ok(AtomicFile {
            tmp: Some(tmp),
            path: path.to_path_buf(),
            replace,
        })
    }

    /// The final path.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Flushes, syncs and renames the file into place. A new file is never
    /// renamed over one that appeared meanwhile.
    pub fn commit(mut self) -> io::Result<()> {
        let Some(mut tmp) = self.tmp.take() else {
            return Ok(());
        };
        let tmp_path = tmp.path().to_path_buf();
        let result = (|| {
            tmp.flush()?;
            if let Some(perm) = &self.replace {
                tmp.as_file()
                    .set_permissions(Permissions::from_mode(perm.mode() & 0o7777))?;
            }
            // A file replaced is synced before the rename, so that a crash
            // leaves the old contents or the new ones. A new file is synced
            // with every other at the end of the run ([`sync_outputs`]):
            // one `fsync` per file made `convert --out-dir` four times
            // slower, and until then a crash can lose only new outputs.
            if self.replace.is_some() || !DEFER_SYNC || !defer_sync(&self.path) {
                tmp.as_file().sync_all()?;
            }
            let persisted = if self.replace.is_some() {
                tmp.persist(&self.path).map(|_| ())
            } else {
                tmp.persist_noclobber(&self.path).map(|_| ())
            };
            persisted.map_err(|e| {
                if e.error.kind() == io::ErrorKind::AlreadyExists {
                    exists(&self.path)
                } else {
                    e.error
                }
            })
        })();
        unregister(&tmp_path);
        result
    }
}

impl Drop for AtomicFile {
    fn drop(&mut self) {
        if let Some(tmp) = self.tmp.take() {
            unregister(tmp.path());
        }
    }
}

impl Write for AtomicFile {
    // Written through the file itself: `NamedTempFile` would add the
    // temporary name to an error (`File too large … at path
    // "…/.kifu-x1.tmp"`), a name the user never sees otherwise.
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        match &mut self.tmp {
            Some(t) => t.as_file_mut().write(buf),
            None => Err(io::Error::other("output already committed")),
        }
    }
    fn flush(&mut self) -> io::Result<()> {
        match &mut self.tmp {
            Some(t) => t.as_file_mut().flush(),
            None => Ok(()),
        }
    }
}

fn exists(path: &Path) -> io::Error {
    io::Error::new(
        io::ErrorKind::AlreadyExists,
        format!("{} exists (use --force to overwrite)", path.display()),
    )
}

fn refuse(path: &Path, what: &str) -> io::Error {
    io::Error::new(
        io::ErrorKind::InvalidInput,
        format!("{} {what}; refusing to write to it", path.display()),
    )
}

fn is_input(path: &Path) -> io::Error {
    io::Error::new(
        io::ErrorKind::AlreadyExists,
        format!(
            "{} is one of the inputs; refusing to overwrite it",
            path.display()
        ),
    )
}

/// An output being written: standard output, a file written atomically,
/// or a FIFO or device written into.
pub enum Sink {
    /// Standard output.
    Stdout(io::Stdout),
    /// A regular file, renamed into place by [`Sink::commit`].
    File(AtomicFile),
    /// A FIFO or character device, written into directly.
    Stream(File, PathBuf),
}

impl Sink {
    /// Flushes and, for a file, renames it into place.
    pub fn commit(self) -> io::Result<()> {
        match self {
            Sink::Stdout(mut s) => s.flush(),
            Sink::File(f) => f.commit(),
            Sink::Stream(mut f, _) => f.flush(),
        }
    }

    /// How reports name it.
    pub fn display(&self) -> String {
        match self {
            Sink::Stdout(_) => "standard output".to_string(),
            Sink::File(f) => f.path().display().to_string(),
            Sink::Stream(_, p) => p.display().to_string(),
        }
    }
}

impl Write for Sink {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        match self {
            Sink::Stdout(s) => s.write(buf),
            Sink::File(f) => f.write(buf),
            Sink::Stream(f, _) => f.write(buf),
        }
    }
    fn flush(&mut self) -> io::Result<()> {
        match self {
            Sink::Stdout(s) => s.flush(),
            Sink::File(f) => f.flush(),
            Sink::Stream(f, _) => f.flush(),
        }
    }
}

/// What writing to a destination will do, decided by the rules of this
/// module before anything is written.
#[derive(Debug)]
enum Target {
    /// Standard output.
    Stdout,
    /// A new regular file, written atomically.
    New(PathBuf),
    /// An existing regular file replaced atomically (`--force`), keeping
    /// its permissions.
    Replace(PathBuf, Permissions),
    /// A FIFO or character device, written into.
    Stream(PathBuf),
}

/// Decides how `dest` is written, creating nothing. `force` allows
/// replacing an existing regular file; an input (see [`InputSet`]) is
/// refused even then. Errors name the path and say why.
fn inspect(dest: &Destination, force: bool, inputs: &InputSet) -> io::Result<Target> {
    let path = match dest {
        Destination::Stdout => {
            if let Some((id, m)) = FileId::of_fd(1) {
                if m.file_type().is_file() && inputs.contains(id) {
                    return Err(io::Error::new(
                        io::ErrorKind::AlreadyExists,
                        "standard output is one of the inputs; refusing to write to it",
                    ));
                }
            }
            return Ok(Target::Stdout);
        }
        Destination::Path(p) => p,
    };
    let lmeta = match std::fs::symlink_metadata(path) {
        Err(e) if e.kind() == io::ErrorKind::NotFound => {
            return Ok(Target::New(path.to_path_buf()));
        }
        Err(e) => return Err(e),
        Ok(m) => m,
    };
    // Follow a symbolic link to what it names; the link itself stays.
    let (target, meta) = if lmeta.file_type().is_symlink() {
        let meta = match std::fs::metadata(path) {
            Ok(m) => m,
            Err(e) if e.kind() == io::ErrorKind::NotFound => {
                return Err(refuse(path, "is a dangling symbolic link"))
            }
            Err(e) => return Err(e),
        };
        let target = if meta.file_type().is_file() {
            path.canonicalize()?
        } else {
            path.to_path_buf()
        };
        (target, meta)
    } else {
        (path.to_path_buf(), lmeta)
    };
    let ft = meta.file_type();
    let id = FileId::of_metadata(&meta);
    if ft.is_file() {
        if inputs.contains(id) {
            return Err(is_input(path));
        }
        if !force {
            return Err(exists(path));
        }
        Ok(Target::Replace(target, meta.permissions()))
    } else if ft.is_fifo() || ft.is_char_device() {
        if ft.is_fifo() && inputs.contains(id) {
            return Err(is_input(path));
        }
        Ok(Target::Stream(path.to_path_buf()))
    } else {
        Err(refuse_kind(path, ft))
    }
}

/// Why what `ft` describes (not a regular file, FIFO or character device)
/// is never written.
fn refuse_kind(path: &Path, ft: std::fs::FileType) -> io::Error {
    if ft.is_dir() {
        refuse(path, "is a folder")
    } else if ft.is_block_device() {
        refuse(path, "is a block device")
    } else if ft.is_socket() {
        refuse(path, "is a socket")
    } else {
        refuse(path, "is not a regular file")
    }
}

/// A file the run appends to rather than replaces (GitHub's job summary,
/// which every step adds to), claimed in a [`Plan`].
#[derive(Debug)]
pub struct Appended {
    path: PathBuf,
}

impl Appended {
    /// Where it is.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Appends `text` (created if missing).
    pub fn append(&self, text: &[u8]) -> io::Result<()> {
        let mut f = OpenOptions::new()
            .append(true)
            .create(true)
            .open(&self.path)?;
        f.write_all(text)?;
        f.flush()
    }
}

/// Opens an output by the rules of this module (see [`inspect`]).
fn open(dest: &Destination, force: bool, inputs: &InputSet) -> io::Result<Sink> {
    match inspect(dest, force, inputs)? {
        Target::Stdout => Ok(Sink::Stdout(io::stdout())),
        Target::New(p) => AtomicFile::start(&p, None).map(Sink::File),
        Target::Replace(p, perm) => AtomicFile::start(&p, Some(perm)).map(Sink::File),
        Target::Stream(p) => {
            let f = OpenOptions::new().write(true).open(&p)?;
            Ok(Sink::Stream(f, p))
        }
    }
}

/// Every output of one run, planned before anything is written. It is
/// the one way a command writes a file (`convert`, `stats`, `board`,
/// `html`, and `validate` for GitHub's job summary; `select`, `perft`,
/// `completions` and `man` write only to standard output):
///
/// 1. [`Plan::claim`] each output named on the command line (`-o`,
///    `--moves`, standard output, every picture of `board --every-ply`),
///    [`Plan::claim_append`] the GitHub job summary, and [`Plan::out_dir`]
///    for an output folder, before the first game is
///    written: an output that exists (without `--force`), is an input, is
///    a folder, a block device or a socket, or is another output of the
///    run is refused, and nothing is written;
/// 2. then [`Plan::open`] a claimed output, or [`Plan::open_in_dir`] a
///    file of the folder plan, when its text is ready.
#[derive(Debug)]
pub struct Plan {
    force: bool,
    inputs: InputSet,
    claims: Claims,
}

impl Plan {
    /// A plan for a run over `inputs` (those that are read, and standard
    /// input if one of them is `-`); `force` allows replacing existing
    /// regular files.
    pub fn new(inputs: &[crate::batch::Input], force: bool) -> Plan {
        Plan {
            force,
            inputs: InputSet::new(
                inputs
                    .iter()
                    .filter(|i| i.issue.is_none())
                    .filter_map(|i| i.path.as_deref()),
                inputs.iter().any(|i| i.path.is_none()),
            ),
            claims: Claims::default(),
        }
    }

    /// Claims `dest` for `owner` (an input or an option name) and checks
    /// now that it can be written, creating nothing. The message says why
    /// not.
    pub fn claim(&mut self, dest: &Destination, owner: &str) -> Result<(), ClaimError> {
        self.claims.claim(dest, owner)?;
        inspect(dest, self.force, &self.inputs)
            .map(drop)
            .map_err(|e| ClaimError::refused(dest, e))
    }

    /// Opens an output claimed with [`Plan::claim`].
    pub fn open(&self, dest: &Destination) -> io::Result<Sink> {
        open(dest, self.force, &self.inputs)
    }

    /// Plans the files of the output folder `dir` by the naming rule (see
    /// [`OutDirPlan`]) and checks every name known now as
    /// [`Plan::claim`] does: an input's `STEM.ext` and, when it may be split, the
    /// `STEM-NNNN.ext` already in the folder. Errors: one message each.
    pub fn out_dir(
        &self,
        dir: &Path,
        args: &[String],
        inputs: &[crate::batch::Input],
        ext: &str,
        split: Split,
    ) -> Result<OutDirPlan, Vec<String>> {
        let plan = OutDirPlan::new(dir, args, inputs, ext, split, &self.inputs)?;
        let mut errors = Vec::new();
        let mut check = |p: PathBuf| {
            let dest = Destination::Path(p);
            if let Err(e) = inspect(&dest, self.force, &self.inputs) {
                errors.push(ClaimError::refused(&dest, e).to_string());
            }
        };
        // The stems of split inputs, by output folder.
        let mut numbered: std::collections::HashMap<&Path, HashSet<&[u8]>> =
            std::collections::HashMap::new();
        for (i, entry) in plan.entries.iter().enumerate() {
            let Some((d, stem)) = entry else { continue };
            if let Some(p) = plan.single(i) {
                check(p);
            }
            if split != Split::Never {
                numbered
                    .entry(d.as_path())
                    .or_default()
                    .insert(stem.as_encoded_bytes());
            }
        }
        let suffix = format!(".{ext}");
        for (d, stems) in &numbered {
            let Ok(listing) = std::fs::read_dir(d) else {
                continue; // a new folder, or one refused with its files above
            };
            for name in listing.filter_map(|e| e.ok()).map(|e| e.file_name()) {
                let bytes = name.as_encoded_bytes();
                let Some(base) = bytes.strip_suffix(suffix.as_bytes()) else {
                    continue;
                };
                let Some(dash) = base.iter().rposition(|&b| b == b'-') else {
                    continue;
                };
                let digits = &base[dash + 1..];
                if digits.len() >= 4
                    && digits.iter().all(u8::is_ascii_digit)
                    && stems.contains(&base[..dash])
                {
                    check(d.join(&name));
                }
            }
        }
        if errors.is_empty() {
            Ok(plan)
        } else {
            Err(errors)
        }
    }

    /// Claims `path` as a file appended to (see [`Appended`]), checked now
    /// as [`Plan::claim`] does, except that an existing regular file is
    /// added to, without `--force`.
    pub fn claim_append(&mut self, path: &Path, owner: &str) -> Result<Appended, ClaimError> {
        let dest = Destination::Path(path.to_path_buf());
        self.claims.claim(&dest, owner)?;
        let refusal = match std::fs::metadata(path) {
            Err(e) if e.kind() == io::ErrorKind::NotFound => None,
            Err(e) => Some(e),
            Ok(m) => {
                let ft = m.file_type();
                if (ft.is_file() || ft.is_fifo()) && self.inputs.contains(FileId::of_metadata(&m)) {
                    Some(is_input(path))
                } else if ft.is_file() || ft.is_fifo() || ft.is_char_device() {
                    None
                } else {
                    Some(refuse_kind(path, ft))
                }
            }
        };
        match refusal {
            None => Ok(Appended {
                path: path.to_path_buf(),
            }),
            Some(e) => Err(ClaimError::refused(&dest, e)),
        }
    }

    /// Opens a file of an [`OutDirPlan`], claiming it now for `owner` (its
    /// name was planned; its identity, when it exists, is compared now).
    pub fn open_in_dir(&mut self, path: &Path, owner: &str) -> io::Result<Sink> {
        let dest = Destination::Path(path.to_path_buf());
        self.claims.claim(&dest, owner).map_err(io::Error::other)?;
        self.open(&dest)
    }
}

/// `name` with letter case folded (Unicode lower case) and, where
/// `normal`, in Unicode normal form C (composed: `が`, not `か` + `゛`), where
/// it is UTF-8; bytes that are not UTF-8 are kept as they are, so such names
/// stay apart.
fn fold_with(name: &OsStr, normal: bool) -> Vec<u8> {
    use unicode_normalization::UnicodeNormalization;
    let mut out = Vec::with_capacity(name.len());
    for chunk in name.as_encoded_bytes().utf8_chunks() {
        let lower = chunk.valid().to_lowercase();
        if normal {
            out.extend(lower.nfc().collect::<String>().bytes());
        } else {
            out.extend_from_slice(lower.as_bytes());
        }
        out.extend_from_slice(chunk.invalid());
    }
    out
}

/// `name` as a file system that ignores letter case and Unicode
/// normalisation (macOS) sees it.
fn fold(name: &OsStr) -> Vec<u8> {
    fold_with(name, true)
}

/// The key of an output folder `dir` and stem under which two outputs
/// are one file on a file system that ignores letter case.
fn folded(dir: &Path, stem: &OsStr) -> Vec<u8> {
    let mut key = fold(dir.as_os_str());
    key.push(0); // neither a path nor a name holds NUL
    key.extend(fold(stem));
    key
}

/// Whether the inputs of an output folder are split into one file per
/// game (`STEM-0001.ext`, …) when they hold several.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Split {
    /// Never: one file per input.
    Never,
    /// When the target holds one game per file or `--split` asks, and
    /// `--no-split` could turn it off (`convert`).
    Optional,
    /// Always: one page per game (`html`).
    Always,
}

/// Where each input of a conversion goes under an output folder.
///
/// The naming rule:
/// * With one command-line argument, its tree is mirrored directly in the
///   folder: `db/x/a.csa` → `OUT/x/a.kif`; a file argument gives
///   `OUT/a.kif`; standard input `OUT/stdin.kif`.
/// * With several arguments, each directory argument is mirrored under its
///   own name (`db1/a.csa` → `OUT/db1/a.kif`, `db2/a.csa` →
///   `OUT/db2/a.kif`); file arguments go to `OUT/NAME.kif`.
/// * Names are built from the bytes of the input names, so names that
///   differ only in bytes that are not UTF-8 stay different.
/// * Inputs of one folder that differ only by their extension (`a.csa`,
///   `a.kif`) keep it in the output name: `a.csa.kif`, `a.kif.kif`.
/// * A multi-game input split into one file per game gives
///   `STEM-0001.kif`, `STEM-0002.kif`, … (the game's number in the input);
///   a single game keeps `STEM.kif`.
///
/// Whatever the rule cannot keep apart (the same file or folder name given
/// twice, an input `x-0001.csa` beside a `x.csa` that may be split into
/// `x-0001.kif`, two outputs whose paths differ only by letter case, which
/// are one file on macOS and Windows, an output that is an input) is
/// refused by
/// [`OutDirPlan::new`] before anything is written, naming both inputs.
#[derive(Debug)]
pub struct OutDirPlan {
    ext: String,
    /// Per input: the folder and stem of its output, `None` for inputs not
    /// read.
    entries: Vec<Option<(PathBuf, std::ffi::OsString)>>,
}

impl OutDirPlan {
    /// Plans the outputs of `inputs` (found from the command-line `args`)
    /// in `out_dir` with extension `ext`. `split` says whether multi-game
    /// inputs may be split into numbered files. `inputs_set` are the
    /// inputs by identity. Errors: one message per collision.
    fn new(
        out_dir: &Path,
        args: &[String],
        inputs: &[crate::batch::Input],
        ext: &str,
        split: Split,
        inputs_set: &InputSet,
    ) -> Result<OutDirPlan, Vec<String>> {
        use std::collections::HashMap;
        use std::ffi::OsString;
        let several = args.len() > 1;
        let root_name = |k: usize| -> Option<OsString> {
            let arg = args.get(k)?;
            let p = Path::new(arg);
            if !several || arg == "-" || !p.is_dir() {
                return None;
            }
            let name = match p.file_name() {
                Some(n) => n.to_os_string(),
                None => p
                    .canonicalize()
                    .ok()
                    .and_then(|c| c.file_name().map(|n| n.to_os_string()))
                    .unwrap_or_else(|| OsString::from("root")),
            };
            Some(name)
        };
        // Folder (relative to out_dir) and file name of each input.
        let mut rel: Vec<Option<(PathBuf, OsString)>> = inputs
            .iter()
            .map(|i| {
                if i.issue.is_some() {
                    return None;
                }
                let mut dir = PathBuf::new();
                if let Some(r) = root_name(i.arg) {
                    dir.push(r);
                }
                if let Some(parent) = i.rel.parent() {
                    dir.push(parent);
                }
                let name = i
                    .rel
                    .file_name()
                    .map_or_else(|| OsString::from("game"), |n| n.to_os_string());
                Some((dir, name))
            })
            .collect();
        let stem_of = |name: &OsString, keep_ext: bool| -> OsString {
            if keep_ext {
                return name.clone();
            }
            Path::new(name)
                .file_stem()
                .map_or_else(|| name.clone(), |s| s.to_os_string())
        };
        let mut stems: Vec<Option<(PathBuf, OsString)>> = rel
            .iter()
            .map(|r| r.as_ref().map(|(d, n)| (d.clone(), stem_of(n, false))))
            .collect();
        // Inputs of one folder that differ only by extension (or by letter
        // case and extension) keep it.
        let mut groups: HashMap<Vec<u8>, Vec<usize>> = HashMap::new();
        for (i, s) in stems.iter().enumerate() {
            if let Some((d, st)) = s {
                groups.entry(folded(d, st)).or_default().push(i);
            }
        }
        for members in groups.values().filter(|m| m.len() > 1) {
            let names: HashSet<&OsString> = members
                .iter()
                .filter_map(|&i| rel[i].as_ref().map(|r| &r.1))
                .collect();
            if names.len() == members.len() {
                for &i in members {
                    if let Some((d, n)) = &rel[i] {
                        stems[i] = Some((d.clone(), stem_of(n, true)));
                    }
                }
            }
        }
        rel.clear();
        let mut errors = Vec::new();
        let file_of = |d: &Path, stem: &OsString| -> PathBuf {
            let mut f = stem.clone();
            f.push(".");
            f.push(ext);
            out_dir.join(d).join(f)
        };
        // The same output name twice, or two names that differ only by
        // letter case or Unicode normalisation: one file on a file system
        // that ignores case (macOS, Windows) or normalisation (macOS), so
        // refused everywhere.
        let mut owner: HashMap<Vec<u8>, (usize, PathBuf)> = HashMap::new();
        for (i, s) in stems.iter().enumerate() {
            let Some((d, stem)) = s else { continue };
            let path = file_of(d, stem);
            match owner.get(&folded(d, stem)) {
                Some((j, other)) if *other == path => errors.push(format!(
                    "{} and {} would both be written to {}",
                    inputs[*j].display,
                    inputs[i].display,
                    path.display()
                )),
                Some((j, other))
                    if fold_with(other.as_os_str(), false) == fold_with(path.as_os_str(), false) =>
                {
                    errors.push(format!(
                        "{} and {} would be written to {} and {}, names that differ only by letter case (one file on a file system that ignores case, as on macOS and Windows)",
                        inputs[*j].display,
                        inputs[i].display,
                        other.display(),
                        path.display()
                    ))
                }
                Some((j, other)) => errors.push(format!(
                    "{} and {} would be written to {} and {}, names that differ only by Unicode normalisation or letter case (composed and decomposed kana or accents: one file on macOS)",
                    inputs[*j].display,
                    inputs[i].display,
                    other.display(),
                    path.display()
                )),
                None => {
                    owner.insert(folded(d, stem), (i, path));
                }
            }
        }
        // A name a split input may use for its games.
        if split != Split::Never {
            let way_out = match split {
                Split::Optional => "use --no-split, or rename one",
                _ => "rename one",
            };
            // Compared with letter case folded, as above.
            let by_stem: HashMap<Vec<u8>, usize> = stems
                .iter()
                .enumerate()
                .filter_map(|(i, s)| s.as_ref().map(|(d, st)| (folded(d, st), i)))
                .collect();
            for (j, s) in stems.iter().enumerate() {
                let Some((d, stem)) = s else { continue };
                let Some(text) = stem.to_str() else { continue };
                let Some((base, digits)) = text.rsplit_once('-') else {
                    continue;
                };
                if digits.len() < 4 || !digits.bytes().all(|b| b.is_ascii_digit()) {
                    continue;
                }
                let base = OsString::from(base);
                if let Some(&i) = by_stem.get(&folded(d, &base)) {
                    if i != j {
                        errors.push(format!(
                            "{} may be split into {}, which is also the output of {} ({way_out})",
                            inputs[i].display,
                            file_of(d, stem).display(),
                            inputs[j].display
                        ));
                    }
                }
            }
        }
        // An output that is an input.
        for (i, s) in stems.iter().enumerate() {
            let Some((d, stem)) = s else { continue };
            let path = file_of(d, stem);
            if FileId::of_path(&path).is_ok_and(|id| inputs_set.contains(id)) {
                errors.push(format!(
                    "{}, the output of {}, is one of the inputs; refusing to overwrite it",
                    path.display(),
                    inputs[i].display
                ));
            }
        }
        if !errors.is_empty() {
            return Err(errors);
        }
        Ok(OutDirPlan {
            ext: ext.to_string(),
            entries: stems
                .into_iter()
                .map(|s| s.map(|(d, st)| (out_dir.join(d), st)))
                .collect(),
        })
    }

    /// The output of input `i` as one file (`STEM.ext`).
    pub fn single(&self, i: usize) -> Option<PathBuf> {
        let (d, stem) = self.entries.get(i)?.as_ref()?;
        let mut f = stem.clone();
        f.push(".");
        f.push(&self.ext);
        Some(d.join(f))
    }

    /// The input whose one-file output (`STEM.ext`) is `path`, as a file
    /// system that ignores letter case and Unicode normalisation sees
    /// names: a file the run writes beside the pages (`index.html`) must
    /// not be one of them.
    pub fn single_owner(&self, path: &Path) -> Option<usize> {
        let want = fold(path.as_os_str());
        (0..self.entries.len())
            .find(|&i| self.single(i).is_some_and(|p| fold(p.as_os_str()) == want))
    }

    /// The output of game `n` (0-based) of input `i` when it is split
    /// (`STEM-0001.ext`).
    pub fn numbered(&self, i: usize, n: usize) -> Option<PathBuf> {
        let (d, stem) = self.entries.get(i)?.as_ref()?;
        let mut f = stem.clone();
        f.push(format!("-{:04}.", n + 1));
        f.push(&self.ext);
        Some(d.join(f))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A new file is complete under its name at once and waits for the
    /// run's one sync; a replaced file is synced before its rename.
    #[test]
    fn claims_are_typed_and_said_as_before() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("out.csv");
        let mut plan = Plan::new(&[], false);
        let dest = Destination::Path(out.clone());
        plan.claim(&dest, "the games table").unwrap();
        let e = plan.claim(&dest, "the moves table (--moves)").unwrap_err();
        assert!(matches!(e, ClaimError::Twice { .. }));
        assert_eq!(
            e.to_string(),
            format!(
                "{} would be written twice: for the games table and for the moves table (--moves)",
                out.display()
            )
        );
        // A folder is refused by kifu's rule; a path under a file by the
        // system (`path: error[io]: …`).
        let e = Plan::new(&[], false)
            .claim(&Destination::Path(dir.path().to_path_buf()), "-o")
            .unwrap_err();
        assert!(matches!(e, ClaimError::Refused { .. }));
        assert!(e.to_string().contains("is a folder"), "{e}");
        std::fs::write(&out, "x").unwrap();
        let under = Destination::Path(out.join("x"));
        let e = Plan::new(&[], false).claim(&under, "-o").unwrap_err();
        assert!(e.to_string().contains(": error[io]: "), "{e}");
    }

    #[test]
    fn new_outputs_are_synced_together_at_the_end() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a.csa");
        let dest = Destination::Path(path.clone());
        let inputs = InputSet::default();
        let mut f = open(&dest, false, &inputs).unwrap();
        f.write_all(b"PI\n+\n").unwrap();
        f.commit().unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"PI\n+\n");
        let dev = std::fs::metadata(dir.path()).unwrap().dev();
        let waiting = |d: u64| UNSYNCED.lock().unwrap().iter().any(|(k, _)| *k == d);
        assert_eq!(waiting(dev), DEFER_SYNC);
        sync_outputs().unwrap();
        assert!(!waiting(dev));
        // Replacing: synced on the spot, nothing left for the end.
        let mut f = open(&dest, true, &inputs).unwrap();
        f.write_all(b"PI\n-\n").unwrap();
        f.commit().unwrap();
        assert!(!waiting(dev));
        assert_eq!(std::fs::read(&path).unwrap(), b"PI\n-\n");
    }
}
