//! Conversion targets: which writer, which extension, which encoding, and
//! whether the format holds several games in one file.

use crate::read::decode::{encode, Encoding};
use crate::read::{Rule, Severity};
use crate::record::Record;
use crate::strictness::Strictness;
use crate::validate::GameReport;
use crate::write::{Output, WriteError};

use std::fmt;
use std::str::FromStr;

/// A format to convert to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Target {
    /// KIF, Shift_JIS by default (`.kif`).
    Kif,
    /// KIF in UTF-8 (`.kifu`).
    Kifu,
    /// KI2, Shift_JIS by default (`.ki2`).
    Ki2,
    /// KI2 in UTF-8 (`.ki2u`).
    Ki2u,
    /// CSA V2.2 (`.csa`).
    Csa,
    /// PSN (`.psn`).
    Psn,
    /// JSON Kifu Format (`.jkf`).
    Jkf,
    /// One `position … moves …` line per game (`.usi`).
    Usi,
    /// One SFEN line per game: the final position (`.sfen`).
    Sfen,
}

impl Target {
    /// Every target.
    pub const ALL: [Target; 9] = [
        Target::Kif,
        Target::Kifu,
        Target::Ki2,
        Target::Ki2u,
        Target::Csa,
        Target::Psn,
        Target::Jkf,
        Target::Usi,
        Target::Sfen,
    ];

    /// The name (`kif`, `kifu`, …), also the file extension.
    pub fn name(self) -> &'static str {
        match self {
            Target::Kif => "kif",
            Target::Kifu => "kifu",
            Target::Ki2 => "ki2",
            Target::Ki2u => "ki2u",
            Target::Csa => "csa",
            Target::Psn => "psn",
            Target::Jkf => "jkf",
            Target::Usi => "usi",
            Target::Sfen => "sfen",
        }
    }

    /// The encoding written unless the caller chooses another.
    pub fn default_encoding(self) -> Encoding {
        match self {
            Target::Kif | Target::Ki2 => Encoding::ShiftJis,
            _ => Encoding::Utf8,
        }
    }

    /// Whether one file can hold several games.
    pub fn multi_game(self) -> bool {
        matches!(self, Target::Csa | Target::Psn | Target::Usi | Target::Sfen)
    }

    /// The record format written.
    pub fn format(self) -> crate::read::Format {
        use crate::read::Format;
        match self {
            Target::Kif | Target::Kifu => Format::Kif,
            Target::Ki2 | Target::Ki2u => Format::Ki2,
            Target::Csa => Format::Csa,
            Target::Psn => Format::Psn,
            Target::Jkf => Format::Jkf,
            Target::Usi | Target::Sfen => Format::Usi,
        }
    }

    /// Writes one record (through [`crate::write::write`]).
    pub fn write_one(self, record: &Record, opts: &ConvertOptions) -> Result<Output, WriteError> {
        let enc = opts.encoding.unwrap_or(self.default_encoding());
        let w = crate::write::WriteOptions {
            encoding: Some(enc),
            crlf: enc == Encoding::ShiftJis,
            csa_version: opts.csa_version,
            psn_times: opts.psn_times,
            legal_candidates_only: opts.legal_candidates_only,
            pretty: true,
            position_prefix: true,
            sfen_only: self == Target::Sfen,
        };
        crate::write::write(record, self.format(), &w)
    }

    /// Writes the `n`-th game (0-based) of a multi-game stream: for CSA the
    /// version lines appear only before the first game and a `/` line
    /// separates games; PSN games are separated by a blank line.
    pub fn write_nth(
        self,
        record: &Record,
        n: usize,
        opts: &ConvertOptions,
    ) -> Result<Output, WriteError> {
        let mut out = self.write_one(record, opts)?;
        if n > 0 {
            match self {
                Target::Csa => {
                    let body = strip_csa_preamble(&out.text);
                    out.text = format!("/\n{body}");
                }
                Target::Psn => out.text.insert(0, '\n'),
                _ => {}
            }
        }
        Ok(out)
    }
}

/// The options of a conversion.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ConvertOptions {
    /// The output encoding (default: the target's, see [`Target::default_encoding`]).
    pub encoding: Option<Encoding>,
    /// CSA version to write.
    pub csa_version: crate::csa::CsaVersion,
    /// How PSN writes times.
    pub psn_times: crate::psn::PsnTimes,
    /// KI2/PSN disambiguation counts only pieces that can legally move.
    pub legal_candidates_only: bool,
}

/// The error rules that do not stop a game from being converted: its moves
/// replay, and the output says what the input says (a false result line is
/// written as it is; an impossible start position too). `kifu convert`
/// reports them as `kifu validate` does and writes the game, unless
/// `--strict`.
pub const WRITTEN_DESPITE: [Rule; 2] = [Rule::ClaimMismatch, Rule::Setup];

/// Whether `kifu convert` writes a game with this report: no error but
/// those of [`WRITTEN_DESPITE`] (warnings never stop it), or, when
/// `strict`, no error at all. A game with an illegal move, a syntax or an
/// encoding error is never written.
///
/// ```
/// use kifu::convert::writes;
/// use kifu::validate::{validate, ValidateOptions};
///
/// // The result line counts 3 moves where the record has 2.
/// let kif = "手合割：平手\n手数----指手--\n   1 ７六歩(77)\n   2 ３四歩(33)\nまで3手で後手の勝ち\n";
/// let game = &kifu::read::read_all(kif.as_bytes(), None, &Default::default())[0];
/// let report = validate(game, &ValidateOptions::default());
/// assert!(!report.ok);
/// assert!(writes(&report, false));
/// assert!(!writes(&report, true));
/// ```
pub fn writes(report: &GameReport, strict: bool) -> bool {
    writes_with(report, strict, &Strictness::default())
}

/// [`writes`] under `--deny`/`--allow` (already applied to `report`): a
/// rule of [`WRITTEN_DESPITE`] named by `--deny` refuses the game as
/// `strict` does; a denied warning is an error of its own rule, which
/// refuses it too.
pub fn writes_with(report: &GameReport, strict: bool, strictness: &Strictness) -> bool {
    report
        .findings
        .iter()
        .filter(|f| f.severity == Severity::Error)
        .all(|f| !strict && WRITTEN_DESPITE.contains(&f.rule) && !strictness.denies(f.rule))
}

fn strip_csa_preamble(text: &str) -> &str {
    let mut rest = text;
    loop {
        let line_end = rest.find('\n').map_or(rest.len(), |i| i + 1);
        let line = rest[..line_end].trim_end();
        if line.starts_with("'CSA encoding=") || (line.starts_with('V') && line.len() <= 5) {
            rest = &rest[line_end..];
        } else {
            return rest;
        }
    }
}

/// Encodes written text for a file; a character the encoding cannot hold
/// is an error naming it.
pub fn encode_output(text: &str, encoding: Encoding) -> Result<Vec<u8>, WriteError> {
    encode(text, encoding).map_err(|c| {
        WriteError::new(format!(
            "the character {c:?} (U+{:04X}) cannot be written in {}",
            c as u32,
            encoding.name()
        ))
    })
}

/// Encodes text, replacing each character the encoding cannot hold with
/// `?`. Returns the bytes and how many characters were replaced.
pub fn encode_output_replacing(text: &str, encoding: Encoding) -> (Vec<u8>, usize) {
    match encode(text, encoding) {
        Ok(b) => (b, 0),
        Err(_) => {
            let mut clean = String::with_capacity(text.len());
            let mut replaced = 0;
            for c in text.chars() {
                let mut buf = [0u8; 4];
                if encode(c.encode_utf8(&mut buf), encoding).is_ok() {
                    clean.push(c);
                } else {
                    clean.push('?');
                    replaced += 1;
                }
            }
            (encode(&clean, encoding).unwrap_or_default(), replaced)
        }
    }
}

impl fmt::Display for Target {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Target {
    type Err = String;
    fn from_str(s: &str) -> Result<Target, String> {
        let l = s.to_ascii_lowercase();
        Target::ALL
            .into_iter()
            .find(|t| t.name() == l)
            .or(if l == "json" { Some(Target::Jkf) } else { None })
            .ok_or_else(|| format!("unknown target `{s}` (expected kif, kifu, ki2, ki2u, csa, psn, jkf, usi or sfen)"))
    }
}
