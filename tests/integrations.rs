//! kifu where CI users run it: the pre-commit hook (run for real with
//! `pre-commit try-repo`, pre-commit from PyPI in a throwaway venv), the
//! composite GitHub Action's validate step (run with bash as the runner
//! would), and the minimum Rust version the README and Cargo.toml state.
//! Runs on `tests/support/trials.rs` (`harness = false`): a test whose
//! tools cannot be had (git, bash, the venv, the crates' metadata offline)
//! is reported `ignored`, with the reason.

use std::path::{Path, PathBuf};
use std::process::Command;
use trials::Skip;

#[path = "support/python.rs"]
mod python;
#[path = "support/trials.rs"]
mod trials;

fn main() {
    trials::main(trials![
        the_pre_commit_hook_passes_good_records_and_fails_bad_ones,
        the_action_validates_with_its_inputs,
        the_minimum_rust_version_is_true,
    ]);
}

/// The venv with pre-commit (and PyYAML, which it brings).
fn pre_commit_python() -> Result<PathBuf, Skip> {
    trials::python("pre-commit", || {
        python::venv("pre-commit", &["pre-commit>=3"])
    })
}

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

const GOOD: &str = "V2.2\nPI\n+\n+7776FU\n-3334FU\n%TORYO\n";
const BAD: &str = "V2.2\nP+59OU57FU00FU\nP-51OU\n+\n+5958OU\n-5141OU\n+0053FU\n";

fn git(dir: &Path, args: &[&str]) {
    let o = Command::new("git")
        .args([
            "-c",
            "user.email=test@example.invalid",
            "-c",
            "user.name=test",
        ])
        .args(args)
        .current_dir(dir)
        .output()
        .expect("git");
    assert!(o.status.success(), "git {args:?}: {}", text(&o.stderr));
}

/// A git repository of records: a good one, a bad one and a file the hook
/// must not look at.
fn records_repo() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    git(d, &["init", "-q"]);
    std::fs::write(d.join("good.csa"), GOOD).unwrap();
    std::fs::write(d.join("BAD.CSA"), BAD).unwrap();
    std::fs::write(d.join("notes.txt"), "not a record\n").unwrap();
    git(d, &["add", "."]);
    git(d, &["commit", "-q", "-m", "records"]);
    dir
}

fn the_pre_commit_hook_passes_good_records_and_fails_bad_ones() -> Result<(), Skip> {
    trials::program("git")?;
    let py = pre_commit_python()?;
    let pre_commit = py.with_file_name("pre-commit");
    let tmp = PathBuf::from(env!("CARGO_TARGET_TMPDIR"));
    let repo = records_repo();
    // The hook builds kifu with cargo (language: rust), in a target
    // folder of its own (kept between runs), never over the binary the
    // other tests run.
    let target = tmp.join("pre-commit-target");
    let try_repo = |files: &[&str]| {
        Command::new(&pre_commit)
            .args(["try-repo"])
            .arg(root())
            .arg("kifu-validate")
            .arg("--files")
            .args(files)
            .current_dir(repo.path())
            .env("PRE_COMMIT_HOME", tmp.join("pre-commit-home"))
            .env("CARGO_TARGET_DIR", &target)
            .env_remove("GIT_DIR")
            .env_remove("GIT_WORK_TREE")
            .output()
            .expect("pre-commit")
    };
    let o = try_repo(&["good.csa", "notes.txt"]);
    let out = text(&o.stdout) + &text(&o.stderr);
    assert!(o.status.success(), "{out}");
    assert!(
        out.contains("kifu validate") && out.contains("Passed"),
        "{out}"
    );
    let o = try_repo(&["good.csa", "BAD.CSA", "notes.txt"]);
    let out = text(&o.stdout) + &text(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{out}");
    assert!(out.contains("Failed"), "{out}");
    assert!(out.contains("BAD.CSA:7:1: error[nifu]"), "{out}");
    assert!(!out.contains("notes.txt"), "only records are passed: {out}");
    Ok(())
}

/// The hook definitions and the action, read as YAML by PyYAML (which
/// pre-commit brings), as JSON.
fn yaml(py: &Path, file: &Path) -> serde_json::Value {
    let o = Command::new(py)
        .args([
            "-c",
            "import json, sys, yaml; print(json.dumps(yaml.safe_load(open(sys.argv[1], encoding='utf-8'))))",
        ])
        .arg(file)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", text(&o.stderr));
    serde_json::from_slice(&o.stdout).unwrap()
}

fn the_action_validates_with_its_inputs() -> Result<(), Skip> {
    let py = pre_commit_python()?;
    let bash = trials::program("bash")?;
    let hooks = yaml(&py, &root().join(".pre-commit-hooks.yaml"));
    let hook = hooks
        .as_array()
        .unwrap()
        .iter()
        .find(|h| h["id"] == "kifu-validate")
        .expect("hook kifu-validate");
    assert_eq!(hook["language"], "rust");
    assert_eq!(hook["entry"], "kifu validate");
    let files = hook["files"].as_str().unwrap();
    for ext in [
        "kif", "kifu", "ki2", "ki2u", "csa", "psn", "jkf", "sfen", "usi",
    ] {
        assert!(files.contains(ext), "{files} takes .{ext}");
    }
    let action = yaml(&py, &root().join("action.yml"));
    assert_eq!(action["runs"]["using"], "composite");
    for input in ["paths", "format", "args", "output", "install"] {
        assert!(action["inputs"][input].is_object(), "input {input}");
    }
    let steps = action["runs"]["steps"].as_array().unwrap();
    let step = steps
        .iter()
        .find(|s| s["id"] == "validate")
        .expect("the validate step");
    let script = step["run"].as_str().unwrap();
    // Run the step as the runner would: inputs in the environment, kifu on
    // PATH, GITHUB_OUTPUT a file.
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::create_dir(d.join("records")).unwrap();
    std::fs::write(d.join("records/good.csa"), GOOD).unwrap();
    let bin_dir = Path::new(env!("CARGO_BIN_EXE_kifu")).parent().unwrap();
    let path = format!(
        "{}:{}",
        bin_dir.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let step_run = |paths: &str, format: &str, args: &str, output: &str| {
        let gh_out = d.join("github_output");
        let _ = std::fs::remove_file(&gh_out);
        let o = Command::new(&bash)
            .args(["-e", "-c", script])
            .current_dir(d)
            .env("PATH", &path)
            .env("KIFU_PATHS", paths)
            .env("KIFU_FORMAT", format)
            .env("KIFU_ARGS", args)
            .env("KIFU_OUTPUT", output)
            .env("GITHUB_OUTPUT", &gh_out)
            .env_remove("GITHUB_STEP_SUMMARY")
            .output()
            .unwrap();
        let outputs = std::fs::read_to_string(&gh_out).unwrap_or_default();
        (o, outputs)
    };
    let (o, outputs) = step_run("records", "github", "", "");
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    assert!(text(&o.stdout).contains("::notice title=kifu validate::1 game in 1 file"));
    assert_eq!(outputs.trim(), "exit-code=0");
    std::fs::write(d.join("records/bad.csa"), BAD).unwrap();
    let (o, outputs) = step_run("records", "sarif", "--deny warnings --jobs 1", "kifu.sarif");
    assert_eq!(o.status.code(), Some(1), "{}", text(&o.stderr));
    assert_eq!(outputs.trim(), "exit-code=1");
    let sarif: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(d.join("kifu.sarif")).unwrap()).unwrap();
    assert_eq!(sarif["runs"][0]["results"][0]["ruleId"], "nifu");
    let (o, outputs) = step_run("records", "human", "--allow nifu", "");
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    assert_eq!(outputs.trim(), "exit-code=0");
    let (o, outputs) = step_run("records", "human", "--deny nifuu", "");
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(outputs.trim(), "exit-code=2");
    Ok(())
}

/// `major.minor` of a `rust-version`.
fn version(v: &str) -> (u32, u32) {
    let mut it = v.split('.').map(|p| p.parse::<u32>().unwrap());
    (it.next().unwrap(), it.next().unwrap_or(0))
}

fn the_minimum_rust_version_is_true() -> Result<(), Skip> {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    // The crates this machine builds (others, for other targets, may not
    // have been downloaded).
    let rustc = std::env::var("RUSTC").unwrap_or_else(|_| "rustc".into());
    let vv = Command::new(&rustc).arg("-vV").output().unwrap();
    let host = text(&vv.stdout)
        .lines()
        .find_map(|l| l.strip_prefix("host: ").map(str::to_string))
        .expect("rustc -vV names the host");
    let o = Command::new(&cargo)
        .args(["metadata", "--format-version", "1", "--offline"])
        .args(["--filter-platform", &host, "--manifest-path"])
        .arg(root().join("Cargo.toml"))
        .output()
        .unwrap();
    if !o.status.success() {
        return Err(Skip::new(
            "crates-offline",
            format!(
                "cargo metadata --offline failed (the crates are not all downloaded): {}",
                text(&o.stderr).trim()
            ),
        ));
    }
    let meta: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let packages = meta["packages"].as_array().unwrap();
    let ours = packages.iter().find(|p| p["name"] == "kifu").unwrap();
    let msrv = ours["rust_version"].as_str().expect("rust-version is set");
    // Every crate the library and the binary build with (normal and build
    // dependencies, transitively) supports it.
    let nodes = meta["resolve"]["nodes"].as_array().unwrap();
    let node = |id: &str| nodes.iter().find(|n| n["id"] == id).unwrap();
    let mut seen = std::collections::BTreeSet::new();
    let mut todo = vec![ours["id"].as_str().unwrap().to_string()];
    while let Some(id) = todo.pop() {
        for dep in node(&id)["deps"].as_array().unwrap() {
            let runtime = dep["dep_kinds"]
                .as_array()
                .unwrap()
                .iter()
                .any(|k| k["kind"].is_null() || k["kind"] == "build");
            let dep_id = dep["pkg"].as_str().unwrap().to_string();
            if runtime && seen.insert(dep_id.clone()) {
                todo.push(dep_id);
            }
        }
    }
    let mut needs = Vec::new();
    for id in &seen {
        let p = packages.iter().find(|p| p["id"] == id.as_str()).unwrap();
        if let Some(v) = p["rust_version"].as_str() {
            needs.push((version(v), p["name"].as_str().unwrap().to_string()));
        }
    }
    needs.sort();
    let (highest, who) = needs.last().cloned().unwrap();
    assert!(
        highest <= version(msrv),
        "{who} needs Rust {}.{}, Cargo.toml says {msrv}",
        highest.0,
        highest.1
    );
    // The README states the same version.
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    assert!(
        readme.contains(&format!("Rust {msrv} or newer")),
        "README states Rust {msrv} or newer"
    );
    Ok(())
}
