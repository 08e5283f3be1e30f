//! Archives as inputs (zip, 7z, tar plain and compressed, single
//! compressed files), lists of inputs (`--files-from`), shards, and the
//! walk of folders (ripgrep's rules: ignore files, hidden files, globs;
//! binary files). The archives are written here with the crates kifu
//! reads them with (no system tool needed).
//!
//! `KIFU_BIN=/path/to/kifu` runs these tests against another build (to see
//! them fail on an older one).

#![cfg(unix)]

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Output, Stdio};

#[path = "support/outputs.rs"]
mod support;
use support::{err, kifu, out, run, s, GAME, GAME2};

/// The members every test archive holds: two records, a note that is not
/// one, and a folder.
fn members() -> Vec<(&'static str, Vec<u8>)> {
    vec![
        ("a.csa", GAME.to_vec()),
        ("sub/b.csa", GAME2.to_vec()),
        ("notes.txt", b"not a record\n".to_vec()),
    ]
}

/// A tar of `entries`. The names are written into the headers as they
/// are (the `tar` crate's `set_path` refuses `..`, which a hostile archive
/// holds all the same).
fn tar_bytes(entries: &[(&str, Vec<u8>)]) -> Vec<u8> {
    let mut b = tar::Builder::new(Vec::new());
    for (name, data) in entries {
        let mut h = tar::Header::new_gnu();
        let field = &mut h.as_old_mut().name;
        assert!(name.len() < field.len(), "{name}: too long for a header");
        field[..name.len()].copy_from_slice(name.as_bytes());
        h.set_size(data.len() as u64);
        h.set_mode(0o644);
        h.set_entry_type(tar::EntryType::Regular);
        h.set_cksum();
        b.append(&h, &data[..]).unwrap();
    }
    b.into_inner().unwrap()
}

fn gzip(bytes: &[u8]) -> Vec<u8> {
    let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    e.write_all(bytes).unwrap();
    e.finish().unwrap()
}

fn xz(bytes: &[u8]) -> Vec<u8> {
    let mut w =
        lzma_rust2::XzWriter::new(Vec::new(), lzma_rust2::XzOptions::with_preset(1)).unwrap();
    w.write_all(bytes).unwrap();
    w.finish().unwrap()
}

fn zst(bytes: &[u8]) -> Vec<u8> {
    zstd::encode_all(bytes, 3).unwrap()
}

fn zip_bytes(entries: &[(&str, Vec<u8>)], method: zip::CompressionMethod) -> Vec<u8> {
    let mut z = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    let opts = zip::write::SimpleFileOptions::default().compression_method(method);
    z.add_directory("sub/", opts).unwrap();
    for (name, data) in entries {
        z.start_file(*name, opts).unwrap();
        z.write_all(data).unwrap();
    }
    z.finish().unwrap().into_inner()
}

fn sevenz(dir: &Path, entries: &[(&str, Vec<u8>)], dest: &Path) {
    let src = dir.join("7z-src");
    for (name, data) in entries {
        let p = src.join(name);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, data).unwrap();
    }
    sevenz_rust2::compress_to_path(&src, dest).unwrap();
    std::fs::remove_dir_all(src).unwrap();
}

/// Every kind of archive of [`members`] in `dir`, by file name.
fn every_kind(dir: &Path) -> Vec<PathBuf> {
    let m = members();
    let tar = tar_bytes(&m);
    let files: Vec<(&str, Vec<u8>)> = vec![
        ("x.zip", zip_bytes(&m, zip::CompressionMethod::Deflated)),
        ("x.tar", tar.clone()),
        ("x.tar.gz", gzip(&tar)),
        ("x.tgz", gzip(&tar)),
        ("x.tar.xz", xz(&tar)),
        ("x.tar.zst", zst(&tar)),
    ];
    let mut out = Vec::new();
    for (name, bytes) in files {
        let p = dir.join(name);
        std::fs::write(&p, bytes).unwrap();
        out.push(p);
    }
    let p = dir.join("x.7z");
    sevenz(dir, &m, &p);
    out.push(p);
    out
}

/// The `path` of each JSON line.
fn paths(o: &Output) -> Vec<String> {
    out(o)
        .lines()
        .map(|l| {
            let v: serde_json::Value = serde_json::from_str(l).unwrap();
            v["path"].as_str().unwrap().to_string()
        })
        .collect()
}

#[test]
fn every_kind_of_archive_is_read_in_place_with_member_names() {
    let dir = tempfile::tempdir().unwrap();
    for a in every_kind(dir.path()) {
        let mut runs = Vec::new();
        for j in ["-j1", "-j2"] {
            let o = run(&["validate", "--format", "json", j, s(&a)]);
            assert_eq!(o.status.code(), Some(0), "{a:?} {j}: {}", err(&o));
            let mut got = paths(&o);
            got.sort();
            let want = vec![format!("{}!/a.csa", s(&a)), format!("{}!/sub/b.csa", s(&a))];
            assert_eq!(got, want, "{a:?} {j}");
            assert!(out(&o).contains("\"plies\":2"), "{a:?}");
            runs.push(out(&o));
        }
        assert_eq!(runs[0], runs[1], "{a:?}: -j1 and -j2 differ");
    }
    // Nothing was unpacked beside the archives.
    let mut names: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    names.sort();
    assert_eq!(names.len(), 7, "{names:?}");
}

#[test]
fn single_compressed_files_are_read_through() {
    let dir = tempfile::tempdir().unwrap();
    for (name, bytes) in [
        ("a.csa.gz", gzip(GAME)),
        ("a.csa.xz", xz(GAME)),
        ("a.csa.zst", zst(GAME)),
    ] {
        let p = dir.path().join(name);
        std::fs::write(&p, bytes).unwrap();
        let o = run(&["stats", s(&p)]);
        assert_eq!(o.status.code(), Some(0), "{name}: {}", err(&o));
        let text = out(&o);
        let row = text.lines().nth(1).unwrap();
        assert!(row.starts_with(&format!("{},0,csa,", s(&p))), "{row}");
    }
    // Found in a folder by the record extension under the compression's.
    let o = run(&["validate", "--format", "json", s(dir.path())]);
    assert_eq!(paths(&o).len(), 3, "{}", err(&o));
}

#[test]
fn archives_in_folders_are_found_and_named_in_csv() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("db");
    std::fs::create_dir(&db).unwrap();
    std::fs::write(db.join("c.csa"), GAME).unwrap();
    std::fs::write(
        db.join("x.zip"),
        zip_bytes(&members(), zip::CompressionMethod::Stored),
    )
    .unwrap();
    std::fs::write(db.join("y.tar.gz"), gzip(&tar_bytes(&members()))).unwrap();
    let o = run(&["stats", "-j2", s(&db)]);
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    let rows: Vec<String> = out(&o)
        .lines()
        .skip(1)
        .map(|l| l.split(',').next().unwrap().to_string())
        .collect();
    let d = s(&db);
    assert_eq!(
        rows,
        vec![
            format!("{d}/c.csa"),
            format!("{d}/x.zip!/a.csa"),
            format!("{d}/x.zip!/sub/b.csa"),
            format!("{d}/y.tar.gz!/a.csa"),
            format!("{d}/y.tar.gz!/sub/b.csa"),
        ]
    );
}

#[test]
fn convert_mirrors_member_paths_and_never_leaves_the_folder() {
    let dir = tempfile::tempdir().unwrap();
    let mut m = members();
    m.push(("../../evil.csa", GAME.to_vec()));
    let a = dir.path().join("x.tar");
    std::fs::write(&a, tar_bytes(&m)).unwrap();
    let outd = dir.path().join("deep/out");
    let o = run(&["convert", s(&a), "--to", "kif", "--out-dir", s(&outd)]);
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    for f in ["x/a.kif", "x/sub/b.kif", "x/evil.kif"] {
        assert!(outd.join(f).is_file(), "{f} missing: {}", err(&o));
    }
    assert!(!dir.path().join("evil.kif").exists());
    assert!(!dir.path().join("deep/evil.kif").exists());
}

#[test]
fn a_damaged_archive_or_member_is_a_finding_and_the_run_goes_on() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("db");
    std::fs::create_dir(&db).unwrap();
    // A tar.gz cut in the middle: the first members are read, the rest
    // are reported, the file after it is read.
    let many: Vec<(String, Vec<u8>)> = (0..200)
        .map(|i| {
            let mut g = GAME.to_vec();
            g.extend_from_slice(format!("'{}\n", "x".repeat(i * 7 % 500)).as_bytes());
            (format!("g{i:03}.csa"), g)
        })
        .collect();
    let refs: Vec<(&str, Vec<u8>)> = many.iter().map(|(n, d)| (n.as_str(), d.clone())).collect();
    let full = gzip(&tar_bytes(&refs));
    std::fs::write(db.join("a.tar.gz"), &full[..full.len() / 2]).unwrap();
    // A zip whose first member's bytes are damaged (stored: the CRC
    // check finds it).
    let mut z = zip_bytes(&members(), zip::CompressionMethod::Stored);
    let at = z.windows(4).position(|w| w == b"V2.2").unwrap();
    z[at + 8] ^= 0x20;
    std::fs::write(db.join("b.zip"), z).unwrap();
    std::fs::write(db.join("c.csa"), GAME).unwrap();
    for j in ["-j1", "-j2"] {
        let o = run(&["validate", "--format", "json", j, s(&db)]);
        assert_eq!(o.status.code(), Some(2), "{j}: {}", err(&o));
        let text = out(&o);
        let lines: Vec<&str> = text.lines().collect();
        let ok = lines.iter().filter(|l| l.contains("\"ok\":true")).count();
        assert!(ok > 1 && ok < 200, "{j}: {ok} games read");
        assert!(
            text.contains("a.tar.gz!/g0") && text.contains("damaged archive"),
            "{j}"
        );
        let b = lines
            .iter()
            .find(|l| l.contains("b.zip!/a.csa"))
            .expect("the damaged member");
        assert!(b.contains("\"rule\":\"io\""), "{b}");
        assert!(
            lines
                .iter()
                .any(|l| l.contains("b.zip!/sub/b.csa") && l.contains("\"ok\":true")),
            "{j}: the member after the damaged one"
        );
        assert!(
            lines.last().unwrap().contains("c.csa\"")
                && lines.last().unwrap().contains("\"ok\":true"),
            "{j}"
        );
    }
    // Not an archive at all under an archive's name.
    std::fs::write(db.join("d.7z"), b"not a 7z file").unwrap();
    let o = run(&["validate", s(&db.join("d.7z")), s(&db.join("c.csa"))]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        err(&o).contains("d.7z: error[io]: damaged archive"),
        "{}",
        err(&o)
    );
}

fn tree(dir: &Path) -> PathBuf {
    let db = dir.join("db");
    for (p, b) in [
        ("db/a.csa", GAME),
        ("db/sub/b.csa", GAME2),
        ("db/.hidden/h.csa", GAME),
        ("db/.h.csa", GAME),
        ("db/ignored/i.csa", GAME),
        ("db/skip.csa", GAME),
        ("db/node_modules/n.csa", GAME),
    ] {
        let p = dir.join(p);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, b).unwrap();
    }
    std::fs::create_dir_all(db.join(".git")).unwrap();
    std::fs::write(db.join(".gitignore"), "ignored/\nnode_modules/\n").unwrap();
    std::fs::write(db.join(".ignore"), "skip.csa\n").unwrap();
    db
}

fn names_under(o: &Output, root: &Path) -> Vec<String> {
    let prefix = format!("{}/", s(root));
    let mut v: Vec<String> = paths(o)
        .into_iter()
        .map(|p| p.strip_prefix(&prefix).unwrap_or(&p).to_string())
        .collect();
    v.sort();
    v
}

#[test]
fn folders_are_walked_as_ripgrep_walks_them() {
    let dir = tempfile::tempdir().unwrap();
    let db = tree(dir.path());
    let walk = |extra: &[&str]| {
        let mut args = vec!["validate", "--format", "json"];
        args.extend_from_slice(extra);
        args.push(s(&db));
        let o = run(&args);
        assert_eq!(o.status.code(), Some(0), "{extra:?}: {}", err(&o));
        names_under(&o, &db)
    };
    assert_eq!(walk(&[]), ["a.csa", "sub/b.csa"]);
    assert_eq!(
        walk(&["--hidden"]),
        [".h.csa", ".hidden/h.csa", "a.csa", "sub/b.csa"]
    );
    assert_eq!(
        walk(&["--no-ignore"]),
        [
            "a.csa",
            "ignored/i.csa",
            "node_modules/n.csa",
            "skip.csa",
            "sub/b.csa"
        ]
    );
    assert_eq!(walk(&["-g", "sub/**"]), ["sub/b.csa"]);
    assert_eq!(walk(&["--glob", "!sub/**"]), ["a.csa"]);
    assert_eq!(
        walk(&["--no-ignore", "-g", "*.csa", "-g", "!i.csa"]),
        ["a.csa", "node_modules/n.csa", "skip.csa", "sub/b.csa"]
    );
    // A file named is read whatever the rules say.
    let o = run(&["validate", "--format", "json", s(&db.join("ignored/i.csa"))]);
    assert_eq!(paths(&o).len(), 1);
    // A glob that is not one: exit 2 before anything is read.
    let o = run(&["validate", "-g", "[", s(&db)]);
    assert_eq!(o.status.code(), Some(2));
    assert!(err(&o).contains("--glob ["), "{}", err(&o));
}

#[test]
fn globs_pick_archive_members() {
    let dir = tempfile::tempdir().unwrap();
    let a = dir.path().join("x.zip");
    std::fs::write(&a, zip_bytes(&members(), zip::CompressionMethod::Deflated)).unwrap();
    let o = run(&["validate", "--format", "json", "-g", "!sub/**", s(&a)]);
    assert_eq!(paths(&o), [format!("{}!/a.csa", s(&a))]);
}

#[test]
fn a_binary_file_is_one_encoding_finding() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("prog.kif");
    let mut bytes = b"\x7fELF\x02\x01\x01\0\0\0".to_vec();
    for i in 0..5000u32 {
        bytes.extend_from_slice(format!("line {i} garbage\n").as_bytes());
    }
    std::fs::write(&p, bytes).unwrap();
    for j in ["-j1", "-j2"] {
        let o = run(&["validate", j, s(&p)]);
        // Exit 1: a problem was found (the game is invalid).
        assert_eq!(o.status.code(), Some(1), "{}", err(&o));
        assert!(err(&o).contains("1 invalid"), "{}", err(&o));
        // The findings of games are on standard output, the summary on
        // standard error.
        let text = out(&o);
        let findings: Vec<&str> = text.lines().filter(|l| l.contains("error[")).collect();
        assert_eq!(findings.len(), 1, "{text}");
        assert!(
            findings[0].contains("error[encoding]: binary file"),
            "{text}"
        );
        assert!(!err(&o).contains("error["), "{}", err(&o));
    }
    // UTF-16 (with its byte-order mark) is text.
    let mut u16 = vec![0xFF, 0xFE];
    for c in "V2.2\nPI\n+\n+7776FU\n".encode_utf16() {
        u16.extend_from_slice(&c.to_le_bytes());
    }
    let q = dir.path().join("u.csa");
    std::fs::write(&q, u16).unwrap();
    let o = run(&["validate", s(&q)]);
    let both = format!("{}{}", out(&o), err(&o));
    assert!(!both.contains("binary file"), "{both}");
}

#[test]
fn files_from_a_list_newline_or_nul_separated() {
    let dir = tempfile::tempdir().unwrap();
    let a = dir.path().join("a.csa");
    let b = dir.path().join("b b.csa");
    std::fs::write(&a, GAME).unwrap();
    std::fs::write(&b, GAME2).unwrap();
    let list = dir.path().join("list");
    std::fs::write(&list, format!("{}\n\n{}\r\n", s(&a), s(&b))).unwrap();
    let o = run(&["validate", "--format", "json", "--files-from", s(&list)]);
    assert_eq!(paths(&o), [s(&a), s(&b)], "{}", err(&o));
    // From standard input, NUL-separated, after the paths given.
    let mut c = kifu()
        .args([
            "validate",
            "--format",
            "json",
            s(&b),
            "--files-from",
            "-",
            "-0",
        ])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    c.stdin
        .take()
        .unwrap()
        .write_all(format!("{}\0", s(&a)).as_bytes())
        .unwrap();
    let o = c.wait_with_output().unwrap();
    assert_eq!(paths(&o), [s(&b), s(&a)], "{}", err(&o));
    // A list that cannot be read: exit 2.
    let o = run(&["validate", "--files-from", s(&dir.path().join("none"))]);
    assert_eq!(o.status.code(), Some(2));
    assert!(err(&o).contains("--files-from"), "{}", err(&o));
}

#[test]
fn shards_together_are_the_whole_run() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("db");
    std::fs::create_dir(&db).unwrap();
    for i in 0..40 {
        let g = if i % 2 == 0 { GAME } else { GAME2 };
        std::fs::write(db.join(format!("g{i:02}.csa")), g).unwrap();
    }
    std::fs::write(
        db.join("x.zip"),
        zip_bytes(&members(), zip::CompressionMethod::Deflated),
    )
    .unwrap();
    let whole = run(&["stats", s(&db)]);
    let header = out(&whole).lines().next().unwrap().to_string();
    let mut want: Vec<String> = out(&whole).lines().skip(1).map(String::from).collect();
    let mut got = Vec::new();
    for i in 1..=3 {
        let o = run(&["stats", "--shard", &format!("{i}/3"), s(&db)]);
        assert_eq!(o.status.code(), Some(0), "{}", err(&o));
        let text = out(&o);
        assert_eq!(text.lines().next().unwrap(), header);
        let rows: Vec<String> = text.lines().skip(1).map(String::from).collect();
        assert!(!rows.is_empty() && rows.len() < want.len(), "shard {i}");
        // The same shard twice: the same rows.
        let again = run(&["stats", "-j1", "--shard", &format!("{i}/3"), s(&db)]);
        assert_eq!(out(&again), text);
        got.extend(rows);
    }
    want.sort();
    got.sort();
    assert_eq!(got, want);
    let o = run(&["stats", "--shard", "4/3", s(&db)]);
    assert_eq!(o.status.code(), Some(2));
}

/// Makes a FIFO at `p` (mkfifo(3)).
fn mkfifo(p: &Path) {
    use std::os::unix::ffi::OsStrExt;
    let c = std::ffi::CString::new(p.as_os_str().as_bytes()).unwrap();
    // SAFETY: `c` is a valid NUL-terminated path for the call's duration.
    let r = unsafe { libc::mkfifo(c.as_ptr(), 0o600) };
    assert_eq!(r, 0, "mkfifo {p:?}: {}", std::io::Error::last_os_error());
}

/// Runs kifu with `args`, killed after `secs` seconds (`None` then).
fn run_within(args: &[&str], secs: u64) -> Option<Output> {
    let mut child = kifu()
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run kifu");
    let start = std::time::Instant::now();
    while child.try_wait().unwrap().is_none() {
        if start.elapsed() > std::time::Duration::from_secs(secs) {
            let _ = child.kill();
            let _ = child.wait();
            return None;
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    Some(child.wait_with_output().unwrap())
}

/// A tar of `n` one-game records `g000.csa`… (every other one `GAME2`),
/// with a note that is not a record among them.
fn many_members(n: usize) -> Vec<(String, Vec<u8>)> {
    let mut v: Vec<(String, Vec<u8>)> = (0..n)
        .map(|i| {
            let g = if i % 2 == 0 { GAME } else { GAME2 };
            (format!("d{}/g{i:03}.csa", i % 3), g.to_vec())
        })
        .collect();
    v.insert(n / 2, ("notes.txt".into(), b"not a record\n".to_vec()));
    v
}

fn tar_of(entries: &[(String, Vec<u8>)]) -> Vec<u8> {
    let refs: Vec<(&str, Vec<u8>)> = entries
        .iter()
        .map(|(n, d)| (n.as_str(), d.clone()))
        .collect();
    tar_bytes(&refs)
}

/// A tar is read once: one that can only be read once (a FIFO named
/// `.tar.zst`, written once by another thread) gives every member, with
/// one worker and with two, in the archive's order. Listing it first
/// would take the only pass (and the second opening would wait for a
/// writer that never comes).
#[test]
fn a_tar_is_read_once_even_through_a_fifo() {
    let dir = tempfile::tempdir().unwrap();
    let entries = many_members(60);
    let bytes = zst(&tar_of(&entries));
    let want: Vec<String> = entries
        .iter()
        .filter(|(n, _)| n.ends_with(".csa"))
        .map(|(n, _)| n.clone())
        .collect();
    for (k, j) in ["-j1", "-j2"].iter().enumerate() {
        let fifo = dir.path().join(format!("year{k}.tar.zst"));
        mkfifo(&fifo);
        let (path, data) = (fifo.clone(), bytes.clone());
        // Not joined: on a kifu that opens the FIFO twice, nothing would
        // end it (the test fails on the timeout instead).
        std::thread::spawn(move || {
            let mut f = std::fs::OpenOptions::new().write(true).open(path).unwrap();
            let _ = f.write_all(&data);
        });
        let o = run_within(&["validate", "--format", "json", j, s(&fifo)], 60)
            .unwrap_or_else(|| panic!("{j}: kifu did not finish reading the FIFO tar"));
        assert_eq!(o.status.code(), Some(0), "{j}: {}", err(&o));
        let got = paths(&o);
        let prefix = format!("{}!/", s(&fifo));
        let got: Vec<String> = got
            .iter()
            .map(|p| p.strip_prefix(&prefix).unwrap().to_string())
            .collect();
        assert_eq!(got, want, "{j}: every member once, in the archive's order");
    }
}

/// Members of a tar read as it streams are kept by `--glob` and
/// `--shard` member by member: the shards together are the whole run,
/// each shard the same with one worker and with two.
#[test]
fn a_streamed_tar_is_globbed_and_sharded_member_by_member() {
    let dir = tempfile::tempdir().unwrap();
    let a = dir.path().join("y.tar.gz");
    std::fs::write(&a, gzip(&tar_of(&many_members(90)))).unwrap();
    let o = run(&["validate", "--format", "json", "-g", "d1/**", s(&a)]);
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    let got = paths(&o);
    assert_eq!(got.len(), 30, "{got:?}");
    assert!(got.iter().all(|p| p.contains("!/d1/")), "{got:?}");
    let whole = run(&["stats", s(&a)]);
    let mut want: Vec<String> = out(&whole).lines().skip(1).map(String::from).collect();
    assert_eq!(want.len(), 90);
    let mut got = Vec::new();
    for i in 1..=3 {
        let shard = format!("{i}/3");
        let o = run(&["stats", "-j2", "--shard", &shard, s(&a)]);
        assert_eq!(o.status.code(), Some(0), "{}", err(&o));
        let rows: Vec<String> = out(&o).lines().skip(1).map(String::from).collect();
        assert!(
            !rows.is_empty() && rows.len() < 90,
            "shard {i}: {}",
            rows.len()
        );
        let again = run(&["stats", "-j1", "--shard", &shard, s(&a)]);
        assert_eq!(out(&again), out(&o), "shard {i}: -j1 and -j2 differ");
        got.extend(rows);
    }
    want.sort();
    got.sort();
    assert_eq!(got, want);
}

/// `select --duplicates` names the members of a tar read as it streams
/// (which are not in the list of inputs made before the run).
#[test]
fn duplicates_in_a_streamed_tar_name_their_members() {
    let dir = tempfile::tempdir().unwrap();
    let a = dir.path().join("z.tar");
    std::fs::write(&a, tar_of(&many_members(4))).unwrap();
    let o = run(&["select", "--duplicates", "--format", "json", s(&a)]);
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    let mut names = Vec::new();
    for l in out(&o).lines() {
        let v: serde_json::Value = serde_json::from_str(l).unwrap();
        for g in v["games"].as_array().unwrap() {
            names.push(g["path"].as_str().unwrap().to_string());
        }
    }
    names.sort();
    let want: Vec<String> = ["d0/g000.csa", "d0/g003.csa", "d1/g001.csa", "d2/g002.csa"]
        .iter()
        .map(|m| format!("{}!/{m}", s(&a)))
        .collect();
    assert_eq!(names, want, "{}", out(&o));
}

/// An archive read as it streams (tar, zip, 7z) that is the only input
/// and has no member taken (`--ext`, `--glob`) is "no game found", exit
/// 2, as a folder with no record is; `--allow-empty` accepts it. A
/// command that lists archives first (`convert`) says the same.
#[test]
fn an_archive_with_no_member_taken_is_no_game_found() {
    let dir = tempfile::tempdir().unwrap();
    for a in every_kind(dir.path()) {
        for (cmd, extra) in [
            ("validate", &["--ext", "kif"][..]),
            ("stats", &["--glob", "nothing/**"][..]),
            ("select", &["--ext", "kif"][..]),
        ] {
            let mut args = vec![cmd];
            args.extend_from_slice(extra);
            args.push(s(&a));
            let o = run(&args);
            assert_eq!(o.status.code(), Some(2), "{cmd} {a:?}: {}", err(&o));
            assert!(
                err(&o).contains("no game found"),
                "{cmd} {a:?}: {}",
                err(&o)
            );
            args.push("--allow-empty");
            let o = run(&args);
            assert_eq!(o.status.code(), Some(0), "{cmd} {a:?}: {}", err(&o));
            assert!(!err(&o).contains("no game found"), "{cmd} {a:?}");
        }
    }
    // With a record beside it, the run is not empty.
    let t = dir.path().join("x.tar");
    let rec = dir.path().join("r.csa");
    std::fs::write(&rec, GAME).unwrap();
    let o = run(&[
        "validate",
        "--ext",
        "csa",
        "--glob",
        "nothing/**",
        s(&t),
        s(&rec),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
}
