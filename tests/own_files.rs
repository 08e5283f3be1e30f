//! The repository holds only what the project wrote: no file in it is a
//! byte-for-byte copy of a file of the shared corpus (other projects'
//! records, tests and schemas). Runs on `tests/support/trials.rs`
//! (`harness = false`): without `../shared/corpus` it is reported
//! `ignored`, with the reason.

#[path = "support/trials.rs"]
mod trials;

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use trials::Skip;

fn main() {
    trials::main(trials![no_file_is_a_copy_of_a_corpus_file]);
}

/// The files of the repository: `git ls-files` in a git checkout, else the
/// tree without build output, VCS data and installed packages.
fn repo_files(root: &Path) -> Vec<PathBuf> {
    let listed = Command::new("git")
        .arg("-C")
        .arg(root)
        .args(["ls-files", "-z"])
        .output()
        .ok()
        .filter(|o| o.status.success() && !o.stdout.is_empty());
    if let Some(o) = listed {
        return o
            .stdout
            .split(|&b| b == 0)
            .filter(|s| !s.is_empty())
            .map(|s| root.join(String::from_utf8_lossy(s).as_ref()))
            .filter(|p| p.is_file())
            .collect();
    }
    walkdir::WalkDir::new(root)
        .into_iter()
        .filter_entry(|e| {
            !matches!(
                e.file_name().to_str(),
                Some("target" | ".git" | "node_modules" | "__pycache__")
            )
        })
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_file())
        .map(|e| e.into_path())
        .collect()
}

fn no_file_is_a_copy_of_a_corpus_file() -> Result<(), Skip> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let corpus = trials::corpus()?;
    // Corpus files by size; bytes are compared only when sizes match.
    let mut by_size: HashMap<u64, Vec<PathBuf>> = HashMap::new();
    let mut corpus_files = 0;
    for e in walkdir::WalkDir::new(&corpus)
        .into_iter()
        .filter_map(Result::ok)
    {
        if e.file_type().is_file() {
            let len = e.metadata().unwrap().len();
            by_size.entry(len).or_default().push(e.into_path());
            corpus_files += 1;
        }
    }
    let ours = repo_files(root);
    assert!(
        ours.len() > 100 && corpus_files > 100,
        "too few files to compare: {} ours, {corpus_files} in the corpus",
        ours.len()
    );
    let mut copies = Vec::new();
    for path in &ours {
        let len = std::fs::metadata(path).unwrap().len();
        let Some(candidates) = by_size.get(&len) else {
            continue;
        };
        let bytes = std::fs::read(path).unwrap();
        for c in candidates {
            if std::fs::read(c).unwrap() == bytes {
                copies.push(format!(
                    "{} is identical to {}",
                    path.strip_prefix(root).unwrap_or(path).display(),
                    c.strip_prefix(&corpus).unwrap_or(c).display()
                ));
            }
        }
    }
    println!(
        "compared {} files of the repository with {corpus_files} corpus files",
        ours.len()
    );
    assert!(copies.is_empty(), "copies:\n{}", copies.join("\n"));
    Ok(())
}
