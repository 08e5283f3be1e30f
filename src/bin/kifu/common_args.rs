//! The argument groups every reading command shares: the inputs,
//! `--deny`/`--allow`, the styles of findings. Apart from `args`, so that
//! `export_args` and `filter_args` use them without a circle of files.

use clap::{Args, ValueEnum};
use kifu::read::Format;

/// `--deny` and `--allow`, as clippy has them.
#[derive(Args, Debug, Clone, Default)]
pub struct StrictArgs {
    /// Make findings of RULE errors (repeatable; `warnings`: every
    /// warning). See the rule ids in `kifu validate --help`.
    #[arg(long, value_name = "RULE", value_parser = parse_deny)]
    pub deny: Vec<String>,
    /// Neither report nor count findings of RULE (repeatable).
    #[arg(long, value_name = "RULE", value_parser = parse_allow)]
    pub allow: Vec<String>,
}

impl StrictArgs {
    /// The library's strictness; a rule both denied and allowed is a usage
    /// error.
    pub fn strictness(&self) -> Result<kifu::strictness::Strictness, String> {
        use kifu::strictness::{StrictnessError, WARNINGS};
        // The library's messages name no flag; the command's do.
        kifu::strictness::Strictness::parse(&self.deny, &self.allow).map_err(|e| match e {
            StrictnessError::Unknown(u) => format!("{u} (and `{WARNINGS}` for --deny)"),
            StrictnessError::AllowWarnings => {
                format!("{e} (--allow time --allow dialect)")
            }
            StrictnessError::Conflict(_) => e.to_string(),
        })
    }
}

fn parse_deny(s: &str) -> Result<String, String> {
    if s == kifu::strictness::WARNINGS {
        return Ok(s.to_string());
    }
    parse_allow(s).map_err(|e| format!("{e}, and `warnings` (every warning)"))
}

fn parse_allow(s: &str) -> Result<String, String> {
    s.parse::<kifu::read::Rule>()
        .map(|r| r.id().to_string())
        .map_err(|e| e.to_string())
}

/// Style of the findings printed by convert, stats and html (on standard
/// error).
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum DiagnosticsFormat {
    /// `path:line:column: error[rule]: message` with the source line.
    Human,
    /// One JSON object per game with findings (JSON Lines).
    Json,
    /// GitHub Actions annotations.
    Github,
    /// One SARIF 2.1.0 document.
    Sarif,
}

impl DiagnosticsFormat {
    /// The same style as `validate --format` names it.
    pub fn style(self) -> OutputFormat {
        match self {
            DiagnosticsFormat::Human => OutputFormat::Human,
            DiagnosticsFormat::Json => OutputFormat::Json,
            DiagnosticsFormat::Github => OutputFormat::Github,
            DiagnosticsFormat::Sarif => OutputFormat::Sarif,
        }
    }
}

/// Output style of `validate`.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum OutputFormat {
    /// `path:line:column: error[rule]: message` with the source line.
    Human,
    /// One JSON object per game (JSON Lines).
    Json,
    /// GitHub Actions annotations (`::error file=…`), a `::notice`
    /// summary and, with GITHUB_STEP_SUMMARY set, a Markdown job summary.
    Github,
    /// One SARIF 2.1.0 document (GitHub code scanning, SARIF viewers).
    Sarif,
}

/// Options shared by every command that reads records.
#[derive(Args, Debug, Clone)]
pub struct InputArgs {
    /// Files, directories (searched recursively), archives (.zip, .7z,
    /// .tar, .tar.gz/.tgz, .tar.xz, .tar.zst; .gz/.xz/.zst files) or `-`
    /// for standard input.
    #[arg(required_unless_present = "files_from")]
    pub paths: Vec<String>,
    /// Read the paths to read from FILE (`-`: standard input), one per
    /// line, after those on the command line (as `tar -T`).
    #[arg(long, value_name = "FILE")]
    pub files_from: Option<String>,
    /// The --files-from list is NUL-separated (`find -print0`).
    #[arg(long = "null", short = '0', requires = "files_from")]
    pub null: bool,
    /// Read only shard I of N (1 ≤ I ≤ N) of the inputs, chosen by a hash
    /// of each input's name: the N shards of one list of inputs hold every
    /// input once, whatever the machine.
    #[arg(long, value_name = "I/N", value_parser = parse_shard)]
    pub shard: Option<(u64, u64)>,
    /// Walk hidden files and folders too (skipped by default, as ripgrep).
    #[arg(long)]
    pub hidden: bool,
    /// Do not honour .gitignore, .ignore and Git's exclude files.
    #[arg(long)]
    pub no_ignore: bool,
    /// Take from folders and archives only the files matching GLOB
    /// (repeatable; `!GLOB` excludes), relative to the folder given; a
    /// file named on the command line is always read.
    #[arg(long, short = 'g', value_name = "GLOB")]
    pub glob: Vec<String>,
    /// Read every input as this format instead of guessing from the
    /// extension or the content (kif, ki2, csa, psn, jkf, usi).
    #[arg(long, value_parser = parse_format)]
    pub from: Option<Format>,
    /// File extensions to take from directories (repeatable or comma-separated).
    #[arg(long, value_delimiter = ',', default_values_t = default_exts())]
    pub ext: Vec<String>,
    /// Replace undecodable bytes with U+FFFD instead of reporting them.
    #[arg(long)]
    pub lossy: bool,
    /// Worker threads (default: every core; at most 256).
    #[arg(long, short = 'j')]
    pub jobs: Option<usize>,
    /// Finding no record at all is not an error (exit 0 instead of 2).
    #[arg(long)]
    pub allow_empty: bool,
}

/// A `--shard I/N` value, as (I - 1, N).
fn parse_shard(s: &str) -> Result<(u64, u64), String> {
    let bad = || format!("`{s}` is not I/N with 1 ≤ I ≤ N (say 1/4)");
    let (i, n) = s.split_once('/').ok_or_else(bad)?;
    let (i, n): (u64, u64) = (
        i.trim().parse().map_err(|_| bad())?,
        n.trim().parse().map_err(|_| bad())?,
    );
    if i == 0 || n == 0 || i > n {
        return Err(bad());
    }
    Ok((i - 1, n))
}

impl InputArgs {
    /// Adds the paths of `--files-from` to the paths (empty entries are
    /// left out); an error says why the list cannot be read.
    pub fn read_lists(&mut self) -> Result<(), String> {
        use std::io::Read;
        let Some(from) = &self.files_from else {
            return Ok(());
        };
        let mut bytes = Vec::new();
        let read = if from == "-" {
            std::io::stdin().lock().read_to_end(&mut bytes)
        } else {
            std::fs::File::open(from).and_then(|mut f| f.read_to_end(&mut bytes))
        };
        read.map_err(|e| format!("--files-from {from}: {e}"))?;
        let sep = if self.null { b'\0' } else { b'\n' };
        for item in bytes.split(|&b| b == sep) {
            let item = if self.null {
                item
            } else {
                item.strip_suffix(b"\r").unwrap_or(item)
            };
            if item.is_empty() {
                continue;
            }
            self.paths.push(String::from_utf8_lossy(item).into_owned());
        }
        Ok(())
    }

    /// How folders are walked.
    pub fn walk(&self, exclude: &[std::path::PathBuf]) -> kifu::batch::Walk {
        kifu::batch::Walk {
            exts: self.ext.clone(),
            forced: self.from,
            exclude: exclude.to_vec(),
            hidden: self.hidden,
            no_ignore: self.no_ignore,
            globs: self.glob.clone(),
            stream_archives: false,
        }
    }
}

fn default_exts() -> Vec<String> {
    kifu::batch::DEFAULT_EXTENSIONS
        .iter()
        .map(|s| s.to_string())
        .collect()
}

/// A `--from` value.
pub fn parse_format(s: &str) -> Result<Format, String> {
    s.parse()
}
