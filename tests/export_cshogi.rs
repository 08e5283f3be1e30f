//! `kifu export` against cshogi (tests/support/export_cshogi.py): the
//! same records written by cshogi's encoders are the same bytes, for
//! `.hcpe`, `.psv` and `.hcpe3`, with kifu's conventions and with
//! `--preset dlshogi` (dlshogi's csa_to_hcpe.py loop); and kifu's files,
//! decoded by cshogi (`Board.set_hcp`, `set_psfen`, `move_from_move16`,
//! `move_from_psv`), hold every position, move, eval, ply and result of an
//! independent replay. On generated floodgate-like records (handicaps,
//! positions set up mid-game, declarations, repetitions, mate scores,
//! illegal moves), on our CSA fixtures, and on the shared corpus's CSA
//! files cshogi reads.
//!
//! Needs Python with cshogi (`KIFU_CSHOGI_PYTHON`, as .ci/run sets it,
//! else a venv made under the target folder from
//! tests/support/export-requirements.txt); reported `ignored` without it
//! (this binary runs on tests/support/trials.rs).

#[path = "support/trials.rs"]
mod trials;
use trials::Skip;

#[path = "support/python.rs"]
#[allow(dead_code)]
mod python;

use std::path::{Path, PathBuf};
use std::process::Command;

fn main() {
    trials::main(trials![
        generated_records_match_cshogi,
        fixtures_match_cshogi,
        corpus_csa_matches_cshogi,
    ]);
}

/// The Python that has cshogi, or a skip.
fn cshogi_python() -> Result<PathBuf, Skip> {
    if let Some(p) = std::env::var_os("KIFU_CSHOGI_PYTHON") {
        return Ok(PathBuf::from(p));
    }
    let req = std::fs::read_to_string(trials::root().join("tests/support/export-requirements.txt"))
        .expect("tests/support/export-requirements.txt");
    let pkgs: Vec<&str> = req
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .collect();
    python::venv("cshogi", &pkgs).map_err(|e| Skip::new("python:cshogi", e))
}

fn script() -> PathBuf {
    trials::root().join("tests/support/export_cshogi.py")
}

/// Runs the script; its standard output.
fn py(python: &Path, args: &[&str], files: &[PathBuf]) -> String {
    let o = Command::new(python)
        .arg(script())
        .args(args)
        .args(files)
        .output()
        .expect("python runs");
    let out = String::from_utf8_lossy(&o.stdout).into_owned();
    assert!(
        o.status.success(),
        "export_cshogi.py {}: {out}\n{}",
        args.join(" "),
        String::from_utf8_lossy(&o.stderr)
    );
    out
}

/// Runs `kifu export`; its standard error.
fn kifu(args: &[&str], files: &[PathBuf]) -> String {
    let o = Command::new(env!("CARGO_BIN_EXE_kifu"))
        .arg("export")
        .args(args)
        .args(files)
        .output()
        .expect("kifu runs");
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    assert!(
        o.status.code().is_some_and(|c| c <= 1),
        "kifu export {}: {err}",
        args.join(" ")
    );
    err
}

fn read(p: &Path) -> Vec<u8> {
    std::fs::read(p).unwrap_or_default()
}

/// Every layout: kifu's bytes are cshogi's, the same at -j1 and -j2, and
/// cshogi decodes them to the replay; then the dlshogi preset.
fn compare(python: &Path, files: &[PathBuf], dir: &Path, what: &str) {
    let s = |p: &Path| p.to_str().unwrap().to_string();
    let mut records = 0;
    for layout in ["hcpe", "psv", "hcpe3"] {
        let k1 = dir.join(format!("k1.{layout}"));
        let k2 = dir.join(format!("k2.{layout}"));
        let ix1 = dir.join(format!("k1.{layout}.jsonl"));
        let ix2 = dir.join(format!("k2.{layout}.jsonl"));
        let c = dir.join(format!("c.{layout}"));
        for (out, ix, j) in [(&k1, &ix1, "-j1"), (&k2, &ix2, "-j2")] {
            kifu(
                &[
                    "--to",
                    layout,
                    j,
                    "--force",
                    "--allow-empty",
                    "-o",
                    &s(out),
                    "--index",
                    &s(ix),
                ],
                files,
            );
        }
        let (b1, b2) = (read(&k1), read(&k2));
        assert_eq!(b1, b2, "{what}: {layout} differs between -j1 and -j2");
        let strip = |p: &Path| {
            String::from_utf8(read(p))
                .unwrap()
                .replace("k1.", "k.")
                .replace("k2.", "k.")
        };
        assert_eq!(
            strip(&ix1),
            strip(&ix2),
            "{what}: the index differs with -j"
        );
        py(python, &["write", "--layout", layout, "-o", &s(&c)], files);
        let cb = read(&c);
        assert!(
            b1 == cb,
            "{what}: kifu's {layout} is not cshogi's ({} and {} bytes; first difference at byte {:?})",
            b1.len(),
            cb.len(),
            b1.iter().zip(&cb).position(|(a, b)| a != b)
        );
        if !b1.is_empty() {
            let out = py(
                python,
                &["check", "--layout", layout, &s(&k1), &s(&ix1)],
                &[],
            );
            assert!(out.starts_with("checked"), "{what}: {out}");
            records += out
                .split_whitespace()
                .nth(1)
                .unwrap()
                .parse::<u64>()
                .unwrap();
        }
    }
    let kd = dir.join("kd.hcpe");
    let ixd = dir.join("kd.jsonl");
    let cd = dir.join("cd.hcpe");
    kifu(
        &[
            "--to",
            "hcpe",
            "--preset",
            "dlshogi",
            "--force",
            "--allow-empty",
            "-o",
            &s(&kd),
            "--index",
            &s(&ixd),
        ],
        files,
    );
    py(python, &["write", "--dlshogi", "-o", &s(&cd)], files);
    assert!(
        read(&kd) == read(&cd),
        "{what}: --preset dlshogi is not csa_to_hcpe.py's loop"
    );
    if !read(&kd).is_empty() {
        let out = py(
            python,
            &[
                "check",
                "--layout",
                "hcpe",
                "--require-eval",
                "--stop",
                "100000",
                &s(&kd),
                &s(&ixd),
            ],
            &[],
        );
        assert!(out.starts_with("checked"), "{what}: {out}");
    }
    eprintln!(
        "{what}: {} files, {records} records identical to cshogi's",
        files.len()
    );
}

fn csa_files(dir: &Path) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = walkdir::WalkDir::new(dir)
        .into_iter()
        .filter_map(Result::ok)
        .map(|e| e.into_path())
        .filter(|p| p.extension().is_some_and(|x| x == "csa"))
        .collect();
    v.sort_by(|a, b| a.as_os_str().cmp(b.as_os_str()));
    v
}

/// The files cshogi reads.
fn parseable(python: &Path, files: &[PathBuf]) -> Vec<PathBuf> {
    py(python, &["parseable"], files)
        .lines()
        .map(PathBuf::from)
        .collect()
}

fn generated_records_match_cshogi() -> Result<(), Skip> {
    let python = cshogi_python()?;
    let dir = tempfile::tempdir().unwrap();
    let gen = dir.path().join("gen");
    py(
        &python,
        &[
            "gen",
            gen.to_str().unwrap(),
            "--games",
            "300",
            "--seed",
            "7",
        ],
        &[],
    );
    let files = csa_files(&gen);
    assert_eq!(files.len(), 300);
    compare(&python, &files, dir.path(), "generated records");
    // The generator's ends all occur (so the comparison covers them).
    let all: String = files
        .iter()
        .map(|f| std::fs::read_to_string(f).unwrap())
        .collect();
    for end in [
        "%TORYO",
        "%KACHI",
        "%SENNICHITE",
        "%JISHOGI",
        "%TSUMI",
        "%TIME_UP",
    ] {
        assert!(all.contains(end), "no game ends with {end}");
    }
    Ok(())
}

fn fixtures_match_cshogi() -> Result<(), Skip> {
    let python = cshogi_python()?;
    let files = parseable(&python, &csa_files(&trials::root().join("fixtures")));
    assert!(files.len() >= 20, "{} fixtures", files.len());
    let dir = tempfile::tempdir().unwrap();
    compare(&python, &files, dir.path(), "fixtures");
    Ok(())
}

fn corpus_csa_matches_cshogi() -> Result<(), Skip> {
    let corpus = trials::corpus()?;
    let python = cshogi_python()?;
    let files = parseable(&python, &csa_files(&corpus));
    assert!(
        files.len() >= 50,
        "{} corpus files cshogi reads",
        files.len()
    );
    let floodgate: Vec<&PathBuf> = files
        .iter()
        .filter(|f| std::fs::read_to_string(f).is_ok_and(|t| t.contains("\n'** ")))
        .collect();
    assert!(floodgate.len() >= 5, "floodgate records with evaluations");
    let dir = tempfile::tempdir().unwrap();
    compare(&python, &files, dir.path(), "corpus");
    Ok(())
}
