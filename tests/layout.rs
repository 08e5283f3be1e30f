//! The layout of the library (docs/layout.md): the rules engine imports
//! nothing outside `src/rules/`, and the top-level modules have no cycles
//! apart from the documented exceptions below. Reads the `crate::…` paths
//! of every library file (comments left out); runs without `../shared`.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Dependencies that still go "up" a layer and close a cycle, each with
/// why. The test removes them and checks that what remains is acyclic, and
/// that each of them still exists (an exception that no longer applies is
/// removed from this list). Empty: the input layer (`src/text/`) and the
/// output layer (`src/emit.rs`) sit below the formats, so `read` and
/// `write` dispatch to the formats without anything below importing them
/// back, and the game key lives in `record::key`.
const EXCEPTIONS: &[(&str, &str, &str)] = &[];

fn rs_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            rs_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

/// The `crate::NAME` paths of a file, outside comments, with line numbers.
fn crate_paths(text: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let code = line.split("//").next().unwrap_or("");
        let mut rest = code;
        while let Some(i) = rest.find("crate::") {
            let before = &rest[..i];
            let after = &rest[i + "crate::".len()..];
            rest = after;
            if before.ends_with(|c: char| c.is_alphanumeric() || c == '_') {
                continue; // `some_crate::`
            }
            let name: String = after
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect();
            if name.chars().next().is_some_and(|c| c.is_ascii_lowercase()) {
                out.push((n + 1, name));
            }
        }
    }
    out
}

/// Top-level module of a library file (`src/read/lines.rs` → `read`).
fn top(src: &Path, file: &Path) -> Option<String> {
    let rel = file.strip_prefix(src).unwrap();
    let first = rel.components().next()?.as_os_str().to_str()?.to_string();
    if first == "bin" || first == "lib.rs" {
        return None;
    }
    Some(first.trim_end_matches(".rs").to_string())
}

fn graph() -> BTreeMap<String, BTreeMap<String, String>> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rs_files(&src, &mut files);
    files.sort();
    let mut g: BTreeMap<String, BTreeMap<String, String>> = BTreeMap::new();
    for f in &files {
        let Some(from) = top(&src, f) else { continue };
        let text = std::fs::read_to_string(f).unwrap();
        let node = g.entry(from.clone()).or_default();
        for (line, to) in crate_paths(&text) {
            if to != from {
                node.entry(to)
                    .or_insert_with(|| format!("{}:{line}", f.display()));
            }
        }
    }
    g
}

#[test]
fn rules_import_nothing_outside_rules() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rs_files(&src.join("rules"), &mut files);
    assert!(files.len() > 10, "src/rules/ holds the rules engine");
    let mut bad = Vec::new();
    for f in &files {
        let text = std::fs::read_to_string(f).unwrap();
        for (line, to) in crate_paths(&text) {
            if to != "rules" {
                bad.push(format!("{}:{line}: crate::{to}", f.display()));
            }
        }
        for (n, l) in text.lines().enumerate() {
            let code = l.split("//").next().unwrap_or("");
            if code.contains("super::super") || code.contains("kifu::") {
                bad.push(format!("{}:{}: {}", f.display(), n + 1, l.trim()));
            }
        }
    }
    assert!(
        bad.is_empty(),
        "the rules import only the rules:\n{}",
        bad.join("\n")
    );
}

#[test]
fn no_module_cycles_but_the_documented_ones() {
    let mut g = graph();
    for (from, to, why) in EXCEPTIONS {
        let removed = g.get_mut(*from).and_then(|n| n.remove(*to));
        assert!(
            removed.is_some(),
            "exception {from} -> {to} ({why}) no longer applies: remove it from EXCEPTIONS"
        );
    }
    // Depth-first search for a back edge; report the cycle it closes.
    fn visit(
        n: &str,
        g: &BTreeMap<String, BTreeMap<String, String>>,
        stack: &mut Vec<String>,
        done: &mut BTreeSet<String>,
    ) -> Option<Vec<String>> {
        if done.contains(n) {
            return None;
        }
        if let Some(i) = stack.iter().position(|s| s == n) {
            let mut cycle = stack[i..].to_vec();
            cycle.push(n.to_string());
            return Some(cycle);
        }
        stack.push(n.to_string());
        for to in g.get(n).into_iter().flat_map(|e| e.keys()) {
            if let Some(c) = visit(to, g, stack, done) {
                return Some(c);
            }
        }
        stack.pop();
        done.insert(n.to_string());
        None
    }
    let mut done = BTreeSet::new();
    for n in g.keys() {
        if let Some(cycle) = visit(n, &g, &mut Vec::new(), &mut done) {
            let edges: Vec<String> = cycle
                .windows(2)
                .map(|w| format!("{} -> {} ({})", w[0], w[1], g[&w[0]][&w[1]]))
                .collect();
            panic!("module cycle:\n{}", edges.join("\n"));
        }
    }
}

/// The command's machinery stays out of the library: output files are
/// the command's alone, and the batch runner (`src/batch.rs`, shared with
/// the Python bindings) is the top of the library, behind the `batch`
/// feature, used by no other module.
#[test]
fn the_library_does_not_hold_the_cli_machinery() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    assert!(!src.join("output.rs").exists());
    let lib = std::fs::read_to_string(src.join("lib.rs")).unwrap();
    assert!(
        lib.contains("#[cfg(feature = \"batch\")]\npub mod batch;"),
        "kifu::batch is behind the batch feature"
    );
    let g = graph();
    for (from, to) in g.iter().flat_map(|(f, e)| e.keys().map(move |t| (f, t))) {
        assert!(to != "batch" && to != "output", "{from} uses crate::{to}");
    }
}
