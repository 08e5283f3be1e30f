//! The official SARIF 2.1.0 JSON schema, obtained at test time from a
//! package registry (never committed: it is a third-party file). It ships
//! inside the `serde-sarif` crate; a throwaway Cargo project under the
//! target folder names it, and `cargo metadata` fetches it through the
//! ordinary Cargo client. `KIFU_SARIF_SCHEMA=/path/to/sarif-schema-2.1.0.json`
//! uses a copy at hand instead.

use std::path::PathBuf;
use std::process::Command;

/// The crate (and version) that ships the schema, and the file in it.
const CRATE: &str = "serde-sarif";
const VERSION: &str = "=0.8.0";
const FILE: &str = "src/schema.json";

/// The schema as JSON, or why it could not be had.
pub fn sarif_schema() -> Result<serde_json::Value, String> {
    let path = match std::env::var_os("KIFU_SARIF_SCHEMA") {
        Some(p) => PathBuf::from(p),
        None => fetch()?,
    };
    let text = std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    let schema: serde_json::Value =
        serde_json::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))?;
    let title = schema["title"].as_str().unwrap_or_default();
    if !title.contains("SARIF") || !title.contains("2.1.0") {
        return Err(format!(
            "{} is not the SARIF 2.1.0 schema ({title})",
            path.display()
        ));
    }
    Ok(schema)
}

fn fetch() -> Result<PathBuf, String> {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("sarif-schema");
    let cached = dir.join("sarif-schema-2.1.0.json");
    if cached.exists() {
        return Ok(cached);
    }
    let probe = dir.join("probe");
    std::fs::create_dir_all(probe.join("src")).map_err(|e| e.to_string())?;
    std::fs::write(
        probe.join("Cargo.toml"),
        format!(
            "[package]\nname = \"sarif-schema-probe\"\nversion = \"0.0.0\"\nedition = \"2021\"\npublish = false\n\n[workspace]\n\n[dependencies]\n{CRATE} = \"{VERSION}\"\n"
        ),
    )
    .map_err(|e| e.to_string())?;
    std::fs::write(probe.join("src/lib.rs"), "").map_err(|e| e.to_string())?;
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let o = Command::new(&cargo)
        .args(["metadata", "--format-version", "1", "--manifest-path"])
        .arg(probe.join("Cargo.toml"))
        .env("CARGO_TARGET_DIR", probe.join("target"))
        .output()
        .map_err(|e| format!("{cargo}: {e}"))?;
    if !o.status.success() {
        return Err(format!(
            "cargo metadata could not fetch {CRATE}: {}",
            String::from_utf8_lossy(&o.stderr).trim()
        ));
    }
    let meta: serde_json::Value =
        serde_json::from_slice(&o.stdout).map_err(|e| format!("cargo metadata: {e}"))?;
    let manifest = meta["packages"]
        .as_array()
        .into_iter()
        .flatten()
        .find(|p| p["name"] == CRATE)
        .and_then(|p| p["manifest_path"].as_str())
        .ok_or_else(|| format!("{CRATE} not in cargo metadata"))?;
    let src = PathBuf::from(manifest)
        .parent()
        .ok_or("no crate folder")?
        .join(FILE);
    std::fs::copy(&src, &cached).map_err(|e| format!("{}: {e}", src.display()))?;
    Ok(cached)
}
