//! Writing files safely: never over an existing file unless asked, and
//! atomically (a temporary file in the same folder, renamed into place), so
//! an interrupted run leaves only complete files.

use std::io::{self, Write};
use std::path::{Path, PathBuf};

/// A file being written; it appears under its name only on [`AtomicFile::commit`].
pub struct AtomicFile {
    tmp: tempfile::NamedTempFile,
    path: PathBuf,
    overwrite: bool,
}

impl AtomicFile {
    /// Starts writing `path`. Fails with `AlreadyExists` if the file exists
    /// and `overwrite` is false. Creates missing parent folders.
    pub fn create(path: &Path, overwrite: bool) -> io::Result<AtomicFile> {
        if !overwrite && (path.exists() || path.is_symlink()) {
            return Err(io::Error::new(
                io::ErrorKind::AlreadyExists,
                format!("{} exists (use --force to overwrite)", path.display()),
            ));
        }
        let dir = match path.parent() {
            Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
            _ => PathBuf::from("."),
        };
        std::fs::create_dir_all(&dir)?;
        let mut builder = tempfile::Builder::new();
        builder.prefix(".kifu-").suffix(".tmp");
        // Outputs are ordinary files (rw-r--r--), not private temporaries.
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            builder.permissions(std::fs::Permissions::from_mode(0o644));
        }
        let tmp = builder.tempfile_in(&dir)?;
        Ok(AtomicFile {
            tmp,
            path: path.to_path_buf(),
            overwrite,
        })
    }

    /// The final path.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Flushes, syncs and renames the file into place.
    pub fn commit(mut self) -> io::Result<()> {
        self.tmp.flush()?;
        self.tmp.as_file().sync_all()?;
        let result = if self.overwrite {
            self.tmp.persist(&self.path).map(|_| ())
        } else {
            self.tmp.persist_noclobber(&self.path).map(|_| ())
        };
        result.map_err(|e| e.error)
    }
}

impl Write for AtomicFile {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.tmp.write(buf)
    }
    fn flush(&mut self) -> io::Result<()> {
        self.tmp.flush()
    }
}

/// Writes `bytes` to `path` atomically (see [`AtomicFile`]).
pub fn write_file(path: &Path, bytes: &[u8], overwrite: bool) -> io::Result<()> {
    let mut f = AtomicFile::create(path, overwrite)?;
    f.write_all(bytes)?;
    f.commit()
}
