//! Writing any format: one [`write`] for every format, and the options
//! every format's writer reads. What the writers share lives in the output
//! layer below the formats and is re-exported here.

pub use crate::emit::{
    extra_breaks, is_line_separator, main_terminal, one_line, text_lines, Dropped, Named, Output,
    WriteError,
};

/// How to write, for every format (each format reads the fields that
/// concern it). The default writes what each format's writer writes by
/// default.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WriteOptions {
    /// KIF/KI2: the encoding the `#KIF`/`#KI2` line declares (the text is
    /// always UTF-8; encode it with [`crate::read::decode::encode`]). KIF
    /// declares UTF-8 when `None`; KI2 then writes no declaration.
    pub encoding: Option<crate::read::Encoding>,
    /// KIF/KI2: end lines with CRLF.
    pub crlf: bool,
    /// CSA: the version written.
    pub csa_version: crate::csa::CsaVersion,
    /// PSN: how move times are written.
    pub psn_times: crate::psn::PsnTimes,
    /// KI2/PSN: disambiguate only against pieces that can legally move.
    pub legal_candidates_only: bool,
    /// JKF: indent the JSON.
    pub pretty: bool,
    /// USI: start lines with `position`.
    pub position_prefix: bool,
    /// USI: write only the final position as a bare SFEN line.
    pub sfen_only: bool,
}

impl Default for WriteOptions {
    fn default() -> WriteOptions {
        WriteOptions {
            encoding: None,
            crlf: false,
            csa_version: Default::default(),
            psn_times: Default::default(),
            legal_candidates_only: false,
            pretty: true,
            position_prefix: true,
            sfen_only: false,
        }
    }
}

/// Writes one record in `format`: the one entry point every caller uses.
///
/// ```
/// use kifu::read::Format;
/// use kifu::write::{write, WriteOptions};
///
/// let game = &kifu::read::read_all(b"PI\n+\n+7776FU\n", None, &Default::default())[0];
/// let out = write(&game.record, Format::Usi, &WriteOptions::default()).unwrap();
/// assert_eq!(out.text, "position startpos moves 7g7f\n");
/// ```
///
/// # Errors
/// A record the format cannot hold at all (e.g. a minishogi game as CSA).
pub fn write(
    record: &crate::record::Record,
    format: crate::read::Format,
    opts: &WriteOptions,
) -> Result<Output, WriteError> {
    // Engine evaluations in the target's comment dialect.
    let mut lost = Dropped::default();
    let translated = match crate::eval::dialect_of(format) {
        Some(d) => crate::eval::translate(record, d, &mut lost),
        None => std::borrow::Cow::Borrowed(record),
    };
    let mut out = write_as(&translated, format, opts)?;
    out.dropped.add(&lost);
    Ok(out)
}

fn write_as(
    record: &crate::record::Record,
    format: crate::read::Format,
    opts: &WriteOptions,
) -> Result<Output, WriteError> {
    use crate::read::Format;
    match format {
        Format::Kif => crate::kif::write(
            record,
            &crate::kif::WriteOptions {
                encoding: opts.encoding.unwrap_or(crate::read::Encoding::Utf8),
                crlf: opts.crlf,
            },
        ),
        Format::Ki2 => crate::ki2::write(
            record,
            &crate::ki2::WriteOptions {
                legal_candidates_only: opts.legal_candidates_only,
                encoding: opts.encoding,
                crlf: opts.crlf,
            },
        ),
        Format::Csa => crate::csa::write(
            record,
            &crate::csa::WriteOptions {
                version: opts.csa_version,
            },
        ),
        Format::Psn => crate::psn::write(
            record,
            &crate::psn::WriteOptions {
                times: opts.psn_times,
                legal_candidates_only: opts.legal_candidates_only,
            },
        ),
        Format::Jkf => crate::jkf::write(
            record,
            &crate::jkf::WriteOptions {
                pretty: opts.pretty,
            },
        ),
        Format::Usi => crate::usi::write(
            record,
            &crate::usi::WriteOptions {
                position_prefix: opts.position_prefix,
                sfen_only: opts.sfen_only,
            },
        ),
    }
}
