//! A throwaway Python virtual environment under the target folder, with
//! packages from PyPI, for tests that check kifu against Python tools
//! (pandas, DuckDB, pre-commit). The tests are reported ignored
//! (`trials::python`) when it cannot be made (no python3, no network).

use std::path::PathBuf;
use std::process::Command;
use std::sync::Mutex;

/// Held while a venv is checked or made: tests of one binary run side by
/// side, and two of them making the same venv at once break each other.
static MAKING: Mutex<()> = Mutex::new(());

/// The `python` of a venv named `name` holding `packages` (made once;
/// `Err` says why it could not be).
pub fn venv(name: &str, packages: &[&str]) -> Result<PathBuf, String> {
    let _making = MAKING.lock().unwrap_or_else(|e| e.into_inner());
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join("venvs")
        .join(name);
    let python = dir.join("bin").join("python");
    let marker = dir.join(".kifu-installed");
    let wanted = packages.join("\n");
    if std::fs::read_to_string(&marker).is_ok_and(|m| m == wanted) && python.exists() {
        return Ok(python);
    }
    let _ = std::fs::remove_dir_all(&dir);
    let sys = std::env::var("PYTHON").unwrap_or_else(|_| "python3".into());
    let o = Command::new(&sys)
        .args(["-m", "venv"])
        .arg(&dir)
        .output()
        .map_err(|e| format!("{sys} not found ({e})"))?;
    if !o.status.success() {
        return Err(format!(
            "{sys} -m venv failed: {}",
            String::from_utf8_lossy(&o.stderr).trim()
        ));
    }
    let o = Command::new(&python)
        .args([
            "-m",
            "pip",
            "install",
            "--quiet",
            "--disable-pip-version-check",
            "--timeout",
            "60",
        ])
        .args(packages)
        .output()
        .map_err(|e| format!("pip: {e}"))?;
    if !o.status.success() {
        return Err(format!(
            "pip install {} failed: {}",
            packages.join(" "),
            String::from_utf8_lossy(&o.stderr).trim()
        ));
    }
    std::fs::write(&marker, wanted).map_err(|e| e.to_string())?;
    Ok(python)
}
