//! Archives and compressed files as inputs: `.zip`, `.7z`, `.tar` (plain
//! or compressed with gzip, xz or zstd) and single `.gz`, `.xz` and `.zst`
//! files, read as streams (nothing is unpacked to disk).
//!
//! Every kind is read once with nothing listed first ([`stream_each`]:
//! members taken or skipped as they come; a zip's or 7z's index is read
//! by its crate), unless a command needs the whole list of members before
//! it starts (then [`list`] gives it, and [`stream`] reads the members
//! listed in one more pass; a tar is read through for the list
//! first); each member wanted is held in
//! memory whole (at most [`MAX_MEMBER`] bytes), so the memory of a run is
//! bounded by its largest member, not by the archive. A member is named
//! `ARCHIVE!/member/path` in every report ([`member_display`]).
//!
//! Without the `archives` feature the names are still recognised but
//! [`list`], [`stream`] and [`decompress`] say that kifu was built
//! without archive support (and the batch runner reads such files as
//! plain files, as before).

use std::io::{self, Read};
use std::ops::ControlFlow;
use std::path::{Component, Path, PathBuf};

/// The largest member read: a member that decompresses to more is an
/// error of that member (a "zip bomb" cannot take the machine's memory).
pub const MAX_MEMBER: u64 = 512 << 20;

/// A compression of a single stream.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Compression {
    /// gzip (`.gz`, `.tgz`).
    Gzip,
    /// xz (`.xz`, `.txz`).
    Xz,
    /// Zstandard (`.zst`, `.tzst`).
    Zstd,
}

/// A kind of archive.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kind {
    /// A zip file.
    Zip,
    /// A 7z file.
    SevenZ,
    /// A tar file, compressed or not.
    Tar(Option<Compression>),
}

/// What a file name says a file is, when it is not a plain record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Packed {
    /// An archive of many members.
    Archive(Kind),
    /// One compressed stream; `inner` is the name without the
    /// compression's extension (`a.csa.gz` → `a.csa`).
    Compressed(Compression, PathBuf),
}

fn lower_ext(p: &Path) -> Option<String> {
    p.extension()
        .and_then(|e| e.to_str())
        .map(str::to_ascii_lowercase)
}

/// What the name of `path` says it is: an archive, a compressed file, or
/// neither (`None`).
pub fn packed(path: &Path) -> Option<Packed> {
    if !cfg!(feature = "archives") {
        return None;
    }
    let ext = lower_ext(path)?;
    let compression = match ext.as_str() {
        "zip" => return Some(Packed::Archive(Kind::Zip)),
        "7z" => return Some(Packed::Archive(Kind::SevenZ)),
        "tar" => return Some(Packed::Archive(Kind::Tar(None))),
        "tgz" => return Some(Packed::Archive(Kind::Tar(Some(Compression::Gzip)))),
        "txz" => return Some(Packed::Archive(Kind::Tar(Some(Compression::Xz)))),
        "tzst" => return Some(Packed::Archive(Kind::Tar(Some(Compression::Zstd)))),
        "gz" => Compression::Gzip,
        "xz" => Compression::Xz,
        "zst" => Compression::Zstd,
        _ => return None,
    };
    let inner = path.with_extension("");
    if lower_ext(&inner).as_deref() == Some("tar") {
        return Some(Packed::Archive(Kind::Tar(Some(compression))));
    }
    Some(Packed::Compressed(compression, inner))
}

/// The name of an archive without its archive extension (`x.tar.gz` →
/// `x`), for the folder its members are mirrored into.
pub fn stem(path: &Path) -> PathBuf {
    let mut p = path.to_path_buf();
    if let Some(Packed::Archive(Kind::Tar(Some(_)))) = packed(&p) {
        p = p.with_extension("");
    }
    p.with_extension("")
}

/// A decompressing reader over `r`.
#[cfg(feature = "archives")]
pub fn decompress<R: Read + Send + 'static>(
    c: Compression,
    r: R,
) -> io::Result<Box<dyn Read + Send>> {
    Ok(match c {
        Compression::Gzip => Box::new(flate2::read::MultiGzDecoder::new(io::BufReader::new(r))),
        Compression::Xz => Box::new(lzma_rust2::XzReader::new(io::BufReader::new(r), true)),
        Compression::Zstd => Box::new(zstd::stream::read::Decoder::new(r)?),
    })
}

/// A member of an archive found by [`list`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Listed {
    /// Its path inside the archive (invalid UTF-8 replaced).
    pub name: String,
    /// Its place in the order [`stream`] reads the archive.
    pub ordinal: u64,
    /// Its size as the archive states it (0 when unknown).
    pub size: u64,
}

/// The regular-file members of an archive whose names `wanted` accepts,
/// in the order [`stream`] reads them; with the error that stopped the
/// listing, if one did (a damaged archive: the members before it are
/// listed).
#[cfg(feature = "archives")]
pub fn list(
    path: &Path,
    kind: Kind,
    wanted: &dyn Fn(&str) -> bool,
) -> (Vec<Listed>, Option<io::Error>) {
    let mut out = Vec::new();
    let err = match kind {
        Kind::Zip => list_zip(path, wanted, &mut out).err(),
        Kind::SevenZ => list_7z(path, wanted, &mut out).err(),
        Kind::Tar(c) => list_tar(path, c, wanted, &mut out).err(),
    };
    (out, err)
}

#[cfg(feature = "archives")]
fn zip_error(e: zip::result::ZipError) -> io::Error {
    match e {
        zip::result::ZipError::Io(e) => e,
        e => io::Error::new(io::ErrorKind::InvalidData, e.to_string()),
    }
}

#[cfg(feature = "archives")]
fn sevenz_error(e: sevenz_rust2::Error) -> io::Error {
    match e {
        sevenz_rust2::Error::Io(e, _) => e,
        e => io::Error::new(io::ErrorKind::InvalidData, e.to_string()),
    }
}

#[cfg(feature = "archives")]
fn list_zip(path: &Path, wanted: &dyn Fn(&str) -> bool, out: &mut Vec<Listed>) -> io::Result<()> {
    let file = std::fs::File::open(path)?;
    let mut z = zip::ZipArchive::new(io::BufReader::new(file)).map_err(zip_error)?;
    for i in 0..z.len() {
        let f = z.by_index_raw(i).map_err(zip_error)?;
        let name = String::from_utf8_lossy(f.name_raw()).into_owned();
        if f.is_file() && wanted(&name) {
            out.push(Listed {
                name,
                ordinal: i as u64,
                size: f.size(),
            });
        }
    }
    Ok(())
}

/// The 7z files in the order `for_each_entries` gives them: those with
/// data, block by block, then the empty ones.
#[cfg(feature = "archives")]
fn sevenz_order(a: &sevenz_rust2::Archive) -> Vec<usize> {
    let map = &a.stream_map.file_block_index;
    let with: Vec<usize> = (0..a.files.len())
        .filter(|&i| map.get(i).is_some_and(|b| b.is_some()))
        .collect();
    let without = (0..a.files.len()).filter(|&i| map.get(i).is_none_or(|b| b.is_none()));
    with.into_iter().chain(without).collect()
}

#[cfg(feature = "archives")]
fn list_7z(path: &Path, wanted: &dyn Fn(&str) -> bool, out: &mut Vec<Listed>) -> io::Result<()> {
    let r = sevenz_rust2::ArchiveReader::open(path, sevenz_rust2::Password::empty())
        .map_err(sevenz_error)?;
    let a = r.archive();
    for (ordinal, i) in sevenz_order(a).into_iter().enumerate() {
        let f = &a.files[i];
        if !f.is_directory() && wanted(f.name()) {
            out.push(Listed {
                name: f.name().to_string(),
                ordinal: ordinal as u64,
                size: f.size(),
            });
        }
    }
    Ok(())
}

#[cfg(feature = "archives")]
fn tar_source(path: &Path, c: Option<Compression>) -> io::Result<Box<dyn Read + Send>> {
    let file = std::fs::File::open(path)?;
    match c {
        None => Ok(Box::new(io::BufReader::with_capacity(1 << 16, file))),
        Some(c) => decompress(c, file),
    }
}

#[cfg(feature = "archives")]
fn list_tar(
    path: &Path,
    c: Option<Compression>,
    wanted: &dyn Fn(&str) -> bool,
    out: &mut Vec<Listed>,
) -> io::Result<()> {
    let mut a = tar::Archive::new(tar_source(path, c)?);
    for (ordinal, e) in a.entries()?.enumerate() {
        let e = e?;
        let name = String::from_utf8_lossy(&e.path_bytes()).into_owned();
        if e.header().entry_type().is_file() && wanted(&name) {
            out.push(Listed {
                name,
                ordinal: ordinal as u64,
                size: e.size(),
            });
        }
    }
    Ok(())
}

/// A reader that counts the bytes read through it into a shared counter
/// (the compressed bytes of an archive consumed so far, for progress).
#[cfg(feature = "archives")]
struct Counting<R> {
    inner: R,
    count: std::sync::Arc<std::sync::atomic::AtomicU64>,
}

#[cfg(feature = "archives")]
impl<R: Read> Read for Counting<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.count
            .fetch_add(n as u64, std::sync::atomic::Ordering::Relaxed);
        Ok(n)
    }
}

/// A member of an archive read by [`stream_each`].
#[derive(Debug)]
pub struct StreamedMember {
    /// Its path inside the archive (invalid UTF-8 replaced).
    pub name: String,
    /// Its place among the archive's entries.
    pub ordinal: u64,
    /// Its bytes, or why they could not be read.
    pub bytes: io::Result<Vec<u8>>,
    /// The bytes of the archive file (compressed) read so far.
    pub consumed: u64,
}

#[cfg(feature = "archives")]
impl<R: io::Seek> io::Seek for Counting<R> {
    fn seek(&mut self, pos: io::SeekFrom) -> io::Result<u64> {
        self.inner.seek(pos)
    }
}

/// Reads an archive in one pass, the only one: each regular-file member
/// whose name `wanted` accepts is handed to `each` as it comes, in the
/// archive's order ([`list`]'s), held whole (at most [`MAX_MEMBER`]
/// bytes); the others are skipped over. `each` may stop the pass. No list
/// of members is kept: a tar is read as a stream (it can be a FIFO); a
/// zip's or a 7z's own directory is read by its crate, and the members
/// taken one at a time. An error that ends the pass (a damaged archive)
/// is returned: the members handed over before it stay read. A member too
/// large is an error of that member only, and the pass goes on.
#[cfg(feature = "archives")]
pub fn stream_each(
    path: &Path,
    kind: Kind,
    wanted: &mut dyn FnMut(&str) -> bool,
    each: &mut dyn FnMut(StreamedMember) -> ControlFlow<()>,
) -> io::Result<()> {
    use std::sync::atomic::{AtomicU64, Ordering};
    let count = std::sync::Arc::new(AtomicU64::new(0));
    let file = Counting {
        inner: std::fs::File::open(path)?,
        count: count.clone(),
    };
    let consumed = || count.load(Ordering::Relaxed);
    match kind {
        Kind::Zip => {
            let mut z = zip::ZipArchive::new(io::BufReader::new(file)).map_err(zip_error)?;
            for i in 0..z.len() {
                let name = {
                    let f = z.by_index_raw(i).map_err(zip_error)?;
                    if !f.is_file() {
                        continue;
                    }
                    String::from_utf8_lossy(f.name_raw()).into_owned()
                };
                if !wanted(&name) {
                    continue;
                }
                let bytes = z.by_index(i).map_err(zip_error).and_then(|mut f| {
                    let size = f.size();
                    read_member(&mut f, size)
                });
                let m = StreamedMember {
                    name,
                    ordinal: i as u64,
                    bytes,
                    consumed: consumed(),
                };
                if each(m).is_break() {
                    break;
                }
            }
            Ok(())
        }
        Kind::SevenZ => {
            let mut r = sevenz_rust2::ArchiveReader::new(
                io::BufReader::new(file),
                sevenz_rust2::Password::empty(),
            )
            .map_err(sevenz_error)?;
            // One decoding thread: see [`stream`].
            r.set_thread_count(1);
            let mut ordinal = 0u64;
            let res = r.for_each_entries(|entry, rd| {
                let here = ordinal;
                ordinal += 1;
                if entry.is_directory() || !wanted(entry.name()) {
                    // Skipped (a solid block is decoded through anyway).
                    io::copy(rd, &mut io::sink())?;
                    return Ok(true);
                }
                let bytes = read_member(rd, entry.size());
                if bytes.is_err() {
                    // The rest of the member, so that the block's decoder
                    // is where the next member starts (an error here ends
                    // the pass: the archive is damaged).
                    io::copy(rd, &mut io::sink())?;
                }
                let m = StreamedMember {
                    name: entry.name().to_string(),
                    ordinal: here,
                    bytes,
                    consumed: consumed(),
                };
                Ok(each(m).is_continue())
            });
            res.map_err(sevenz_error)
        }
        Kind::Tar(c) => {
            let source: Box<dyn Read + Send> = match c {
                None => Box::new(io::BufReader::with_capacity(1 << 16, file)),
                Some(c) => decompress(c, file)?,
            };
            let mut a = tar::Archive::new(source);
            for (ordinal, e) in a.entries()?.enumerate() {
                let mut e = e?;
                if !e.header().entry_type().is_file() {
                    continue;
                }
                let name = String::from_utf8_lossy(&e.path_bytes()).into_owned();
                if !wanted(&name) {
                    continue;
                }
                let size = e.size();
                let bytes = read_member(&mut e, size);
                let m = StreamedMember {
                    name,
                    ordinal: ordinal as u64,
                    bytes,
                    consumed: consumed(),
                };
                if each(m).is_break() {
                    break;
                }
            }
            Ok(())
        }
    }
}

/// Reads a member whole (at most [`MAX_MEMBER`] bytes).
#[cfg(feature = "archives")]
fn read_member(r: &mut dyn Read, size: u64) -> io::Result<Vec<u8>> {
    let mut buf = Vec::with_capacity(size.min(MAX_MEMBER) as usize);
    r.take(MAX_MEMBER + 1).read_to_end(&mut buf)?;
    if buf.len() as u64 > MAX_MEMBER {
        return Err(io::Error::new(
            io::ErrorKind::InvalidData,
            format!(
                "the member is larger than {} MiB uncompressed; unpack it to read it",
                MAX_MEMBER >> 20
            ),
        ));
    }
    Ok(buf)
}

/// Reads the members at `ordinals` (ascending, as [`list`] gave them) in
/// one pass over the archive, handing each to `each` with its position
/// in `ordinals` and its bytes or the error reading it; `each` may stop
/// the pass. An error that ends the pass (a damaged archive) is returned:
/// the members not handed over were not read.
#[cfg(feature = "archives")]
pub fn stream(
    path: &Path,
    kind: Kind,
    ordinals: &[u64],
    each: &mut dyn FnMut(usize, io::Result<Vec<u8>>) -> ControlFlow<()>,
) -> io::Result<()> {
    match kind {
        Kind::Zip => {
            let file = std::fs::File::open(path)?;
            let mut z = zip::ZipArchive::new(io::BufReader::new(file)).map_err(zip_error)?;
            for (k, &o) in ordinals.iter().enumerate() {
                let bytes = usize::try_from(o)
                    .map_err(|_| io::Error::other("no such member"))
                    .and_then(|o| z.by_index(o).map_err(zip_error))
                    .and_then(|mut f| {
                        let size = f.size();
                        read_member(&mut f, size)
                    });
                if each(k, bytes).is_break() {
                    break;
                }
            }
            Ok(())
        }
        Kind::SevenZ => {
            let mut r = sevenz_rust2::ArchiveReader::open(path, sevenz_rust2::Password::empty())
                .map_err(sevenz_error)?;
            // One decoding thread: the reader's own. The crate's default
            // (a thread per core, each with its own dictionary and queue
            // of decoded chunks) doubles the memory of an LZMA2 block for
            // no gain: kifu's workers already keep every core busy.
            r.set_thread_count(1);
            let (mut ordinal, mut k) = (0u64, 0usize);
            let res = r.for_each_entries(|entry, rd| {
                let here = ordinal;
                ordinal += 1;
                if ordinals.get(k) != Some(&here) {
                    // Skipped (a solid block is decoded through anyway).
                    io::copy(rd, &mut io::sink())?;
                    return Ok(true);
                }
                let bytes = read_member(rd, entry.size());
                let failed = bytes.is_err();
                let go = each(k, bytes).is_continue();
                k += 1;
                // A member that could not be read leaves the block's
                // decoder in no known place: the pass ends there.
                if failed && k < ordinals.len() {
                    return Err(sevenz_rust2::Error::Other(
                        "the member before could not be read".into(),
                    ));
                }
                Ok(go && k < ordinals.len())
            });
            res.map_err(sevenz_error)
        }
        Kind::Tar(c) => {
            let mut a = tar::Archive::new(tar_source(path, c)?);
            let mut k = 0usize;
            for (ordinal, e) in a.entries()?.enumerate() {
                if k >= ordinals.len() {
                    break;
                }
                let mut e = e?;
                if ordinals[k] != ordinal as u64 {
                    continue;
                }
                let size = e.size();
                let bytes = read_member(&mut e, size);
                let failed = bytes.as_ref().err().map(|e| e.to_string());
                let go = each(k, bytes).is_continue();
                k += 1;
                if let Some(e) = failed {
                    if k < ordinals.len() {
                        return Err(io::Error::new(io::ErrorKind::InvalidData, e));
                    }
                }
                if !go {
                    break;
                }
            }
            Ok(())
        }
    }
}

#[cfg(not(feature = "archives"))]
fn unsupported() -> io::Error {
    io::Error::new(
        io::ErrorKind::Unsupported,
        "kifu was built without archive support (the `archives` feature)",
    )
}

/// A decompressing reader over `r` (without the `archives` feature: an
/// error).
#[cfg(not(feature = "archives"))]
pub fn decompress<R: Read + Send + 'static>(
    _: Compression,
    _: R,
) -> io::Result<Box<dyn Read + Send>> {
    Err(unsupported())
}

/// The members of an archive (without the `archives` feature: none, and
/// an error).
#[cfg(not(feature = "archives"))]
pub fn list(_: &Path, _: Kind, _: &dyn Fn(&str) -> bool) -> (Vec<Listed>, Option<io::Error>) {
    (Vec::new(), Some(unsupported()))
}

/// Reads members (without the `archives` feature: an error).
#[cfg(not(feature = "archives"))]
pub fn stream(
    _: &Path,
    _: Kind,
    _: &[u64],
    _: &mut dyn FnMut(usize, io::Result<Vec<u8>>) -> ControlFlow<()>,
) -> io::Result<()> {
    Err(unsupported())
}

/// Reads an archive in one pass (without the `archives` feature: an
/// error).
#[cfg(not(feature = "archives"))]
pub fn stream_each(
    _: &Path,
    _: Kind,
    _: &mut dyn FnMut(&str) -> bool,
    _: &mut dyn FnMut(StreamedMember) -> ControlFlow<()>,
) -> io::Result<()> {
    Err(unsupported())
}

/// Reads one member (`ordinal` as [`list`] gave it) on its own.
pub fn read_one(path: &Path, kind: Kind, ordinal: u64) -> io::Result<Vec<u8>> {
    let mut got = None;
    stream(path, kind, &[ordinal], &mut |_, b| {
        got = Some(b);
        ControlFlow::Break(())
    })?;
    got.unwrap_or_else(|| Err(io::Error::new(io::ErrorKind::NotFound, "no such member")))
}

/// How a member is named in reports: `ARCHIVE!/member/path`.
pub fn member_display(archive: &str, member: &str) -> String {
    let mut m = member;
    loop {
        let t = m.trim_start_matches('/');
        match t.strip_prefix("./") {
            Some(rest) => m = rest,
            None if t == "." => m = "",
            None => {
                m = t;
                break;
            }
        }
    }
    format!("{archive}!/{m}")
}

/// A member's path made safe to mirror under a folder: only its plain
/// components (no root, no `..`, no `.`), so that no output can land
/// outside the folder whatever the archive says.
pub fn safe_rel(member: &str) -> PathBuf {
    Path::new(member)
        .components()
        .filter_map(|c| match c {
            Component::Normal(s) => Some(s),
            _ => None,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_say_what_a_file_is() {
        let k = |s: &str| packed(Path::new(s));
        assert_eq!(k("a.zip"), Some(Packed::Archive(Kind::Zip)));
        assert_eq!(k("A.7Z"), Some(Packed::Archive(Kind::SevenZ)));
        assert_eq!(
            k("x.tar.gz"),
            Some(Packed::Archive(Kind::Tar(Some(Compression::Gzip))))
        );
        assert_eq!(
            k("x.tzst"),
            Some(Packed::Archive(Kind::Tar(Some(Compression::Zstd))))
        );
        assert_eq!(
            k("d/a.csa.xz"),
            Some(Packed::Compressed(
                Compression::Xz,
                PathBuf::from("d/a.csa")
            ))
        );
        assert_eq!(k("a.csa"), None);
        assert_eq!(stem(Path::new("d/x.tar.zst")), PathBuf::from("d/x"));
        assert_eq!(stem(Path::new("x.zip")), PathBuf::from("x"));
    }

    #[test]
    fn member_paths_stay_inside_the_folder() {
        assert_eq!(safe_rel("../../etc/a.csa"), PathBuf::from("etc/a.csa"));
        assert_eq!(safe_rel("/abs/./b.csa"), PathBuf::from("abs/b.csa"));
        assert_eq!(member_display("x.zip", "/a/b.csa"), "x.zip!/a/b.csa");
        assert_eq!(member_display("x.tar", "./a/b.csa"), "x.tar!/a/b.csa");
        assert_eq!(member_display("x.tar", ".//./a.csa"), "x.tar!/a.csa");
    }

    /// A zip and a 7z read in one pass ([`stream_each`]) give the members
    /// [`list`] gives, in its order, with the same places, and their
    /// bytes; folders and unwanted members are skipped.
    #[cfg(feature = "archives")]
    #[test]
    fn zip_and_7z_stream_as_they_list() {
        use std::io::Write;
        let dir = tempfile::tempdir().unwrap();
        let entries: Vec<(String, Vec<u8>)> = (0..7)
            .map(|i| {
                (
                    format!("d{}/g{i}.csa", i % 2),
                    format!("game {i}\n").into_bytes(),
                )
            })
            .chain([("notes.txt".to_string(), b"note".to_vec())])
            .collect();
        let zp = dir.path().join("a.zip");
        let mut z = zip::ZipWriter::new(std::fs::File::create(&zp).unwrap());
        let opts = zip::write::SimpleFileOptions::default();
        z.add_directory("d0/", opts).unwrap();
        for (n, d) in &entries {
            z.start_file(n.as_str(), opts).unwrap();
            z.write_all(d).unwrap();
        }
        z.finish().unwrap();
        let src = dir.path().join("src");
        for (n, d) in &entries {
            let p = src.join(n);
            std::fs::create_dir_all(p.parent().unwrap()).unwrap();
            std::fs::write(p, d).unwrap();
        }
        let sp = dir.path().join("a.7z");
        sevenz_rust2::compress_to_path(&src, &sp).unwrap();
        for (path, kind) in [(zp, Kind::Zip), (sp, Kind::SevenZ)] {
            let wanted = |n: &str| n.ends_with(".csa");
            let (listed, err) = list(&path, kind, &wanted);
            assert!(err.is_none(), "{kind:?}: {err:?}");
            assert_eq!(listed.len(), 7, "{kind:?}");
            let mut got = Vec::new();
            stream_each(&path, kind, &mut |n| wanted(n), &mut |m| {
                got.push((m.name, m.ordinal, m.bytes.unwrap()));
                ControlFlow::Continue(())
            })
            .unwrap();
            let want: Vec<(String, u64, Vec<u8>)> = listed
                .iter()
                .map(|l| {
                    let bytes = read_one(&path, kind, l.ordinal).unwrap();
                    (l.name.clone(), l.ordinal, bytes)
                })
                .collect();
            assert_eq!(got, want, "{kind:?}");
            assert!(got.iter().any(|(_, _, b)| b == b"game 3\n"), "{kind:?}");
        }
    }
}
