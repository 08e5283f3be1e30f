//! What a fresh checkout must hold to be installed and shipped: the
//! licence texts of the licence Cargo.toml declares (in the crate and
//! the wheel), and README install lines with nothing to fill in.

use std::path::Path;

fn read(path: &str) -> String {
    let p = Path::new(env!("CARGO_MANIFEST_DIR")).join(path);
    std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

#[test]
fn licence_texts_are_shipped_in_the_crate_and_the_wheel() {
    assert!(read("Cargo.toml").contains("license = \"MIT OR Apache-2.0\""));
    let mit = read("LICENSE-MIT");
    assert!(mit.contains("Permission is hereby granted, free of charge"));
    assert!(mit.contains("Copyright (c) the kifu authors"));
    let apache = read("LICENSE-APACHE");
    assert!(apache.contains("Apache License") && apache.contains("Version 2.0, January 2004"));
    // The wheel: pyproject names them, and python/ links to the same texts.
    let pyproject = read("python/pyproject.toml");
    assert!(pyproject.contains("license-files = [\"LICENSE-MIT\", \"LICENSE-APACHE\"]"));
    assert_eq!(read("python/LICENSE-MIT"), mit);
    assert_eq!(read("python/LICENSE-APACHE"), apache);
    // Cargo packages every file not excluded: nothing may leave them out.
    let cargo = read("Cargo.toml");
    assert!(!cargo.contains("\ninclude =") && !cargo.contains("\nexclude ="));
}

#[test]
fn readme_install_lines_have_nothing_to_fill_in_and_name_the_extras() {
    let readme = read("README.md");
    let install = readme
        .split("\n## ")
        .filter(|s| s.starts_with("Install") || s.starts_with("Python"))
        .collect::<Vec<_>>()
        .join("\n");
    assert!(install.contains("cargo install --locked --path ."));
    for line in install.lines().filter(|l| l.contains("install")) {
        assert!(!line.contains('<'), "a placeholder in {line:?}");
    }
    // The Python example imports pyarrow and calls kifu.positions (numpy).
    assert!(install.contains("import kifu, pyarrow") && install.contains("kifu.positions"));
    assert!(install.contains("pip install './python[arrow,numpy]'"));
}
