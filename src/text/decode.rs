//! Text encodings: detection (BOM > a declaration the bytes do not
//! contradict > caller's choice > UTF-8 bytes > Shift_JIS/EUC-JP by
//! content) and strict decoding with locations.

use encoding_rs::{DecoderResult, Encoding as Enc, EUC_JP, SHIFT_JIS, UTF_16BE, UTF_16LE, UTF_8};
use serde::Serialize;
use std::fmt;
use std::str::FromStr;

/// A text encoding kifu reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum Encoding {
    /// UTF-8 without BOM.
    #[serde(rename = "utf-8")]
    Utf8,
    /// UTF-8 with a byte-order mark.
    #[serde(rename = "utf-8-bom")]
    Utf8Bom,
    /// Shift_JIS as Windows writes it (CP932 / Windows-31J).
    #[serde(rename = "shift_jis")]
    ShiftJis,
    /// EUC-JP.
    #[serde(rename = "euc-jp")]
    EucJp,
    /// UTF-16 little endian (with BOM).
    #[serde(rename = "utf-16le")]
    Utf16Le,
    /// UTF-16 big endian (with BOM).
    #[serde(rename = "utf-16be")]
    Utf16Be,
}

impl Encoding {
    /// The id used in JSON and CSV output.
    pub fn name(self) -> &'static str {
        match self {
            Encoding::Utf8 => "utf-8",
            Encoding::Utf8Bom => "utf-8-bom",
            Encoding::ShiftJis => "shift_jis",
            Encoding::EucJp => "euc-jp",
            Encoding::Utf16Le => "utf-16le",
            Encoding::Utf16Be => "utf-16be",
        }
    }

    /// The encoder for writing in this encoding (UTF-8 for the UTF-16 forms).
    pub fn encoding_rs_output(self) -> &'static Enc {
        self.encoding_rs().output_encoding()
    }

    pub(crate) fn encoding_rs(self) -> &'static Enc {
        match self {
            Encoding::Utf8 | Encoding::Utf8Bom => UTF_8,
            Encoding::ShiftJis => SHIFT_JIS,
            Encoding::EucJp => EUC_JP,
            Encoding::Utf16Le => UTF_16LE,
            Encoding::Utf16Be => UTF_16BE,
        }
    }

    /// Whether lines can be split on the bytes `\n` and `\r` before decoding.
    pub fn is_ascii_compatible(self) -> bool {
        !matches!(self, Encoding::Utf16Le | Encoding::Utf16Be)
    }

    /// Length of the BOM this encoding starts with.
    pub fn bom_len(self) -> usize {
        match self {
            Encoding::Utf8Bom => 3,
            Encoding::Utf16Le | Encoding::Utf16Be => 2,
            _ => 0,
        }
    }

    /// Parses a label (`utf-8`, `UTF8`, `shift_jis`, `sjis`, `cp932`,
    /// `windows-31j`, `euc-jp`, …).
    pub fn from_label(label: &str) -> Option<Encoding> {
        let l = label
            .trim()
            .trim_matches('"')
            .to_ascii_lowercase()
            .replace('_', "-");
        match l.as_str() {
            "utf-8" | "utf8" => Some(Encoding::Utf8),
            "utf-8-bom" => Some(Encoding::Utf8Bom),
            "shift-jis" | "sjis" | "cp932" | "windows-31j" | "ms932" | "shiftjis" | "x-sjis" => {
                Some(Encoding::ShiftJis)
            }
            "euc-jp" | "eucjp" => Some(Encoding::EucJp),
            "utf-16le" => Some(Encoding::Utf16Le),
            "utf-16be" => Some(Encoding::Utf16Be),
            _ => None,
        }
    }
}

impl fmt::Display for Encoding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Encoding {
    type Err = String;
    fn from_str(s: &str) -> Result<Encoding, String> {
        Encoding::from_label(s)
            .ok_or_else(|| format!("unknown encoding `{s}` (expected utf-8, shift_jis or euc-jp)"))
    }
}

/// How to choose and apply an encoding.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DecodeOptions {
    /// The caller's choice (`--encoding`); a BOM or an in-file declaration
    /// still wins, unless the bytes contradict the declaration.
    pub encoding: Option<Encoding>,
    /// Replace undecodable bytes with U+FFFD instead of reporting them.
    pub lossy: bool,
}

/// An in-file declaration: `#KIF version=2.0 encoding=UTF-8` or
/// `'CSA encoding=SHIFT_JIS` on one of the first five lines.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Declaration {
    /// The encoding it names.
    encoding: Encoding,
    /// The label as written (`Shift_JIS`).
    label: String,
    /// 1-based line (lines end at LF, CRLF or a lone CR, as the line
    /// reader counts them) and column (characters) of the label.
    line: u32,
    column: u32,
}

/// The lines of `bytes` as the line reader splits them (LF, CRLF, lone CR).
fn byte_lines(bytes: &[u8]) -> impl Iterator<Item = &[u8]> {
    let mut rest = Some(bytes);
    std::iter::from_fn(move || {
        let r = rest?;
        match memchr::memchr2(b'\n', b'\r', r) {
            Some(i) => {
                let skip = if r[i] == b'\r' && r.get(i + 1) == Some(&b'\n') {
                    2
                } else {
                    1
                };
                rest = Some(&r[i + skip..]);
                Some(&r[..i])
            }
            None => {
                rest = None;
                Some(r)
            }
        }
    })
}

/// Finds an in-file declaration naming an encoding kifu knows (an unknown
/// label is no declaration).
fn declared(prefix: &[u8]) -> Option<Declaration> {
    for (i, line) in byte_lines(prefix).take(5).enumerate() {
        let is_decl =
            line.starts_with(b"#KIF") || line.starts_with(b"'CSA") || line.starts_with(b"#KI2");
        if !is_decl {
            continue;
        }
        let text = String::from_utf8_lossy(line);
        if let Some(at) = text.find("encoding=") {
            let label: String = text[at + 9..]
                .chars()
                .take_while(|c| !c.is_whitespace())
                .collect();
            let encoding = Encoding::from_label(&label)?;
            return Some(Declaration {
                encoding,
                label: label.trim_matches('"').to_string(),
                line: i as u32 + 1,
                column: text[..at + 9].chars().count() as u32 + 1,
            });
        }
    }
    None
}

/// Counts characters typical of shogi records, to tell Shift_JIS from EUC-JP.
fn kifu_score(text: &str) -> usize {
    text.chars()
        .filter(|c| {
            matches!(
                c,
                '歩' | '香'
                    | '桂'
                    | '銀'
                    | '金'
                    | '角'
                    | '飛'
                    | '玉'
                    | '王'
                    | 'と'
                    | '龍'
                    | '竜'
                    | '馬'
                    | '成'
                    | '同'
                    | '打'
                    | '先'
                    | '後'
                    | '手'
                    | '投'
                    | '了'
                    | '持'
                    | '駒'
                    | '一'
                    | '二'
                    | '三'
                    | '四'
                    | '五'
                    | '六'
                    | '七'
                    | '八'
                    | '九'
                    | '▲'
                    | '△'
            )
        })
        .count()
}

/// How many bytes at the start of an input [`detect_start`] looks at.
pub const DETECT_LEN: usize = 64 << 10;

/// Bytes are UTF-8, even with undecodable sequences among them, when their
/// valid multi-byte UTF-8 characters are at least this many times their
/// invalid sequences (two thirds of the non-ASCII sequences valid). Text
/// in Shift_JIS or EUC-JP rarely forms a valid multi-byte UTF-8 sequence,
/// and each one it forms is soon followed by a stray byte: the 951
/// Shift_JIS and EUC-JP records of the reference corpus form at most 0.26
/// valid characters per invalid sequence; a UTF-8 record with a few dozen
/// damaged bytes among its Japanese text forms hundreds.
pub const MOSTLY_UTF8: usize = 2;

/// The encoding chosen for an input, and the in-file declaration it
/// overrode, if any.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Detection {
    /// The encoding the input is read in.
    pub encoding: Encoding,
    /// A declaration the bytes contradict, read in another encoding than
    /// the one it names (reported as an `encoding` warning at it).
    pub overridden: Option<Overridden>,
}

/// An in-file declaration the bytes contradict (`#KIF version=2.0
/// encoding=Shift_JIS` on valid UTF-8, copied from a template), and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Overridden {
    /// The encoding the declaration names.
    pub declared: Encoding,
    /// 1-based line of the declaration.
    pub line: u32,
    /// 1-based column (characters) of its label.
    pub column: u32,
    /// The finding's message: what is declared, what the bytes are and
    /// what the input is read as.
    pub message: String,
}

/// Detects the encoding the way [`LineReader::new`](crate::read::LineReader::new)
/// does, from the bytes available at the start of an input: its first
/// [`DETECT_LEN`] bytes, taken as the whole input when shorter than 8 KiB.
/// Callers that cut an input into pieces use it to read every piece as the
/// whole would be read.
pub fn detect_start(start: &[u8], opts: &DecodeOptions) -> Encoding {
    detection_start(start, opts).encoding
}

/// [`detect_start`] with the declaration it overrode, if any.
pub fn detection_start(start: &[u8], opts: &DecodeOptions) -> Detection {
    let prefix = &start[..start.len().min(DETECT_LEN)];
    detection(prefix, prefix.len() < 8192, opts)
}

/// Chooses the encoding of a file from its first bytes (`prefix`, e.g. the
/// first 64 KiB). `complete` says whether the prefix is the whole file (so a
/// multi-byte character cut at its end is not held against UTF-8).
///
/// The answer is the one [`Evidence`] gives (UTF-8 when the bytes are
/// valid UTF-8 or mostly so, [`MOSTLY_UTF8`]; else the fewest undecodable
/// sequences, record characters breaking a tie), found cheaply: valid
/// UTF-8 is told by one validation pass, mostly valid UTF-8 by one
/// counting pass; otherwise the prefix is run through the Shift_JIS
/// decoder without building any text, and EUC-JP is tried only until its
/// first undecodable sequence. Only when that does not settle it
/// (Shift_JIS fails too, or EUC-JP reads cleanly) are the full counts
/// made.
pub fn detect(prefix: &[u8], complete: bool, opts: &DecodeOptions) -> Encoding {
    detection(prefix, complete, opts).encoding
}

/// [`detect`] with the declaration it overrode, if any. The order: a
/// byte-order mark; else a declaration the bytes do not contradict; else
/// the caller's choice; else the bytes. A declaration of Shift_JIS or
/// EUC-JP is contradicted by bytes that are UTF-8 (valid, or mostly valid,
/// with multi-byte characters); one of UTF-8 by bytes that are not.
pub fn detection(prefix: &[u8], complete: bool, opts: &DecodeOptions) -> Detection {
    let plain = |encoding| Detection {
        encoding,
        overridden: None,
    };
    if prefix.starts_with(&[0xEF, 0xBB, 0xBF]) {
        return plain(Encoding::Utf8Bom);
    }
    if prefix.starts_with(&[0xFF, 0xFE]) {
        return plain(Encoding::Utf16Le);
    }
    if prefix.starts_with(&[0xFE, 0xFF]) {
        return plain(Encoding::Utf16Be);
    }
    let quick = Quick::of(prefix, complete);
    let mut contradiction = None;
    if let Some(d) = declared(prefix) {
        let e = d.encoding;
        let why = match e {
            // Files re-encoded by nkf keep their `encoding=UTF-8` line.
            Encoding::Utf8 if quick.utf8_bad > 0 && quick.best() != Encoding::Utf8 => {
                Some(if quick.utf8_bad >= SETTLED_BAD {
                    format!(
                        "its bytes are not UTF-8 ({} or more undecodable sequences)",
                        quick.utf8_bad
                    )
                } else {
                    format!(
                        "its bytes are not UTF-8 ({} undecodable sequences)",
                        quick.utf8_bad
                    )
                })
            }
            // GUIs copy the header line from a template.
            Encoding::ShiftJis | Encoding::EucJp if quick.is_utf8() => {
                Some(if quick.utf8_bad == 0 {
                    "its bytes are valid UTF-8".to_string()
                } else {
                    format!(
                        "its bytes are UTF-8 ({} multi-byte characters, {} undecodable sequences)",
                        quick.utf8_multi, quick.utf8_bad
                    )
                })
            }
            _ => None,
        };
        match why {
            None => return plain(e),
            Some(why) => contradiction = Some((d, why)),
        }
    }
    let encoding = opts.encoding.unwrap_or_else(|| quick.best());
    let overridden = contradiction
        .filter(|(d, _)| d.encoding != encoding)
        .map(|(d, why)| Overridden {
            declared: d.encoding,
            line: d.line,
            column: d.column,
            message: format!(
                "the file declares encoding={} but {why}: read as {encoding}",
                d.label
            ),
        });
    Detection {
        encoding,
        overridden,
    }
}

/// Valid multi-byte UTF-8 characters and invalid UTF-8 sequences in
/// `prefix` (a character cut at the end of an incomplete prefix is not
/// one). Sequences are delimited as [`std::str::from_utf8`] delimits them
/// (an invalid one is the longest start of a valid sequence, at least a
/// byte), in one pass over the bytes: Shift_JIS text breaks every few
/// bytes, where restarting the validator each time would cost more.
#[cfg(test)]
fn utf8_counts(prefix: &[u8], complete: bool) -> (usize, usize) {
    utf8_counts_until(prefix, complete, usize::MAX)
}

/// Invalid sequences after which [`utf8_counts_settled`] may stop.
const SETTLED_BAD: usize = 64;

/// [`utf8_counts`], stopped early once the bytes so far are plainly not
/// UTF-8: at least [`SETTLED_BAD`] invalid sequences with fewer than one
/// valid multi-byte character per 8 of them, 16 times below
/// [`MOSTLY_UTF8`]. Shift_JIS text gets there within a few hundred
/// characters, so detection does not count the whole 64 KiB prefix of
/// every Shift_JIS file; UTF-8 text, damaged or not, never does. The
/// counts are those of the bytes read up to there (the verdict is the
/// same: not UTF-8).
fn utf8_counts_settled(prefix: &[u8], complete: bool) -> (usize, usize) {
    utf8_counts_until(prefix, complete, SETTLED_BAD)
}

/// [`utf8_counts`] with the early stop of [`utf8_counts_settled`] from
/// `settle` invalid sequences on (`usize::MAX`: never).
fn utf8_counts_until(prefix: &[u8], complete: bool, settle: usize) -> (usize, usize) {
    let settled = |multi: usize, bad: usize| bad >= settle && multi.saturating_mul(8) < bad;
    let (mut multi, mut bad) = (0, 0);
    let mut i = 0;
    while i < prefix.len() {
        let b = prefix[i];
        if b < 0x80 {
            i += 1;
            continue;
        }
        // The sequence's length and the range of its second byte.
        let (len, lo, hi) = match b {
            0xC2..=0xDF => (2, 0x80, 0xBF),
            0xE0 => (3, 0xA0, 0xBF),
            0xE1..=0xEC | 0xEE..=0xEF => (3, 0x80, 0xBF),
            0xED => (3, 0x80, 0x9F),
            0xF0 => (4, 0x90, 0xBF),
            0xF1..=0xF3 => (4, 0x80, 0xBF),
            0xF4 => (4, 0x80, 0x8F),
            _ => {
                bad += 1;
                i += 1;
                if settled(multi, bad) {
                    return (multi, bad);
                }
                continue;
            }
        };
        let mut k = 1;
        while k < len {
            let Some(&c) = prefix.get(i + k) else {
                // Cut by the end of the prefix.
                if complete {
                    bad += 1;
                }
                return (multi, bad);
            };
            let (l, h) = if k == 1 { (lo, hi) } else { (0x80, 0xBF) };
            if !(l..=h).contains(&c) {
                break;
            }
            k += 1;
        }
        if k == len {
            multi += 1;
        } else {
            bad += 1;
            if settled(multi, bad) {
                return (multi, bad);
            }
        }
        i += k;
    }
    (multi, bad)
}

/// Whether `multi` valid multi-byte characters and `bad` invalid sequences
/// make UTF-8 (see [`MOSTLY_UTF8`]).
fn mostly_utf8(multi: usize, bad: usize) -> bool {
    multi > 0 && multi >= bad.saturating_mul(MOSTLY_UTF8)
}

/// The cheap reading of a prefix that [`detect`] uses: its UTF-8 counts
/// (only whether it has multi-byte characters when it is valid); the rest
/// is asked for lazily.
struct Quick<'a> {
    prefix: &'a [u8],
    complete: bool,
    /// `Evidence::utf8_multi` (when `utf8_bad` is 0: 1 for any).
    utf8_multi: usize,
    /// `Evidence::utf8_bad`.
    utf8_bad: usize,
}

impl<'a> Quick<'a> {
    fn of(prefix: &'a [u8], complete: bool) -> Quick<'a> {
        // The valid part: all of it, or all but a character cut at the
        // end of a partial prefix (which is not a multi-byte character).
        let valid = match std::str::from_utf8(prefix) {
            Ok(_) => Some(prefix.len()),
            Err(e) if e.error_len().is_none() && !complete => Some(e.valid_up_to()),
            Err(_) => None,
        };
        let (utf8_multi, utf8_bad) = if let Some(end) = valid {
            (usize::from(!prefix[..end].is_ascii()), 0)
        } else {
            utf8_counts_settled(prefix, complete)
        };
        Quick {
            prefix,
            complete,
            utf8_multi,
            utf8_bad,
        }
    }

    /// Whether the bytes are UTF-8 with multi-byte characters: valid, or
    /// mostly valid.
    fn is_utf8(&self) -> bool {
        mostly_utf8(self.utf8_multi, self.utf8_bad)
    }

    /// `Evidence::best`.
    fn best(&self) -> Encoding {
        if self.utf8_bad == 0 || self.is_utf8() {
            return Encoding::Utf8;
        }
        // Clean Shift_JIS and EUC-JP failing somewhere: Shift_JIS reads
        // cleaner than both (UTF-8 has a bad sequence).
        if any_undecodable(SHIFT_JIS, self.prefix, self.complete) == Some(false)
            && any_undecodable(EUC_JP, self.prefix, self.complete) == Some(true)
        {
            return Encoding::ShiftJis;
        }
        Evidence::of(self.prefix, self.complete).best()
    }
}

/// Whether `enc` meets an undecodable sequence in `prefix`, counted as
/// [`Evidence`] counts them (the last one forgiven when it ends a partial
/// prefix), stopping at the first certain one; no text is built. `None` when
/// the decoder's report does not say for sure.
fn any_undecodable(enc: &'static Enc, prefix: &[u8], complete: bool) -> Option<bool> {
    let mut decoder = enc.new_decoder_without_bom_handling();
    let mut out = [0u8; 4096];
    let mut read = 0;
    let mut forgiven = false;
    loop {
        let (res, r, _) =
            decoder.decode_to_utf8_without_replacement(&prefix[read..], &mut out, true);
        read += r;
        match res {
            DecoderResult::InputEmpty => return Some(false),
            DecoderResult::OutputFull => {}
            DecoderResult::Malformed(_, after) => {
                if complete || read < prefix.len() || forgiven {
                    // More text (or another error) follows this one.
                    return Some(true);
                }
                if after != 0 {
                    return None;
                }
                // The last thing in a partial prefix: a character cut there.
                forgiven = true;
            }
        }
    }
}

/// What the bytes of a file say about their encoding: how many characters
/// each candidate decodes them into and how many bytes it cannot decode.
/// The whole prefix counts, so a UTF-8 file with damaged bytes stays
/// UTF-8 (the damage is reported as `encoding` at those bytes) instead of
/// being decoded as Shift_JIS into mojibake.
struct Evidence {
    /// Valid multi-byte UTF-8 characters.
    utf8_multi: usize,
    /// Invalid UTF-8 sequences (a character cut at the end of an
    /// incomplete prefix is not one).
    utf8_bad: usize,
    /// Undecodable sequences as Shift_JIS (CP932).
    sjis_bad: usize,
    /// Undecodable sequences as EUC-JP.
    euc_bad: usize,
    /// Record characters (kifu_score) as Shift_JIS and as EUC-JP.
    sjis_score: usize,
    euc_score: usize,
}

impl Evidence {
    fn of(prefix: &[u8], complete: bool) -> Evidence {
        let (utf8_multi, utf8_bad) = utf8_counts_settled(prefix, complete);
        let (mut sjis_bad, mut euc_bad, mut sjis_score, mut euc_score) = (0, 0, 0, 0);
        if utf8_bad > 0 {
            let count = |enc: &'static Enc| {
                let (text, _) = enc.decode_without_bom_handling(prefix);
                let bad = text.chars().filter(|&c| c == '\u{fffd}').count();
                // A character cut at the end of a partial prefix.
                let bad = if !complete && text.ends_with('\u{fffd}') {
                    bad - 1
                } else {
                    bad
                };
                (bad, text)
            };
            let (sjis_text, euc_text);
            ((sjis_bad, sjis_text), (euc_bad, euc_text)) = (count(SHIFT_JIS), count(EUC_JP));
            // The record characters only break a tie (see `best`): most
            // files are told apart by their undecodable sequences alone.
            if sjis_bad == euc_bad {
                (sjis_score, euc_score) = (kifu_score(&sjis_text), kifu_score(&euc_text));
            }
        }
        Evidence {
            utf8_multi,
            utf8_bad,
            sjis_bad,
            euc_bad,
            sjis_score,
            euc_score,
        }
    }

    /// The encoding the evidence favours: UTF-8 when the bytes are valid
    /// UTF-8 or mostly so ([`MOSTLY_UTF8`]); else the candidate with the
    /// fewest undecodable sequences (UTF-8 only when it also holds more
    /// multi-byte characters than bad sequences); Shift_JIS before EUC-JP
    /// unless EUC-JP reads cleaner or into more record characters.
    fn best(&self) -> Encoding {
        if self.utf8_bad == 0 || mostly_utf8(self.utf8_multi, self.utf8_bad) {
            return Encoding::Utf8;
        }
        if self.utf8_multi > self.utf8_bad
            && self.utf8_bad < self.sjis_bad
            && self.utf8_bad < self.euc_bad
        {
            return Encoding::Utf8;
        }
        match self.euc_bad.cmp(&self.sjis_bad) {
            std::cmp::Ordering::Less => Encoding::EucJp,
            std::cmp::Ordering::Greater => Encoding::ShiftJis,
            std::cmp::Ordering::Equal if self.euc_score > self.sjis_score => Encoding::EucJp,
            std::cmp::Ordering::Equal => Encoding::ShiftJis,
        }
    }
}

/// Where decoding failed: the 1-based column (in characters) of the first
/// bad byte, and the bytes themselves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DecodeError {
    /// 1-based column of the first undecodable byte.
    pub column: u32,
    /// Up to four offending bytes.
    pub bytes: Vec<u8>,
}

/// Decodes `bytes` (no BOM) into `out` (cleared first). Strict unless
/// `lossy`.
pub fn decode_into(
    encoding: Encoding,
    bytes: &[u8],
    lossy: bool,
    out: &mut String,
) -> Result<(), DecodeError> {
    out.clear();
    if matches!(encoding, Encoding::Utf8 | Encoding::Utf8Bom) {
        match std::str::from_utf8(bytes) {
            Ok(s) => {
                out.push_str(s);
                return Ok(());
            }
            Err(e) if !lossy => {
                let good = &bytes[..e.valid_up_to()];
                let column = std::str::from_utf8(good).map_or(0, |s| s.chars().count()) as u32 + 1;
                let end = (e.valid_up_to() + e.error_len().unwrap_or(1)).min(bytes.len());
                return Err(DecodeError {
                    column,
                    bytes: bytes[e.valid_up_to()..end].to_vec(),
                });
            }
            Err(_) => {
                out.push_str(&String::from_utf8_lossy(bytes));
                return Ok(());
            }
        }
    }
    let enc = encoding.encoding_rs();
    let mut decoder = enc.new_decoder_without_bom_handling();
    out.reserve(bytes.len() * 3 / 2 + 4);
    if lossy {
        let _ = decoder.decode_to_string(bytes, out, true);
        return Ok(());
    }
    let mut read_total = 0;
    loop {
        let need = decoder
            .max_utf8_buffer_length_without_replacement(bytes.len() - read_total)
            .unwrap_or(bytes.len() * 3 + 16);
        out.reserve(need);
        let (res, read) =
            decoder.decode_to_string_without_replacement(&bytes[read_total..], out, true);
        read_total += read;
        match res {
            DecoderResult::InputEmpty => return Ok(()),
            DecoderResult::OutputFull => continue,
            DecoderResult::Malformed(bad, consumed_after) => {
                let bad_end = read_total - consumed_after as usize;
                let bad_start = bad_end.saturating_sub(bad as usize);
                let column = out.chars().count() as u32 + 1;
                return Err(DecodeError {
                    column,
                    bytes: bytes[bad_start..bad_end.max(bad_start + 1).min(bytes.len())].to_vec(),
                });
            }
        }
    }
}

/// The characters a JIS X 0208 ("JIS-style") Shift_JIS encoder writes to
/// bytes that CP932 reads as another character, with that character: what
/// Unicode's `JIS0208.TXT` (and Python's `shift_jis`, glibc's `SHIFT_JIS`)
/// map a JIS X 0208 code to where Microsoft's `CP932.TXT` (and the WHATWG
/// `index-jis0208` that encoding_rs implements) map the same code to
/// another code point, plus U+2014 EM DASH, nkf's and Apple's reading of
/// 0x815C. Text from Macs, nkf or EUC-JP tools holds the left column;
/// Windows, and encoding_rs, only write the right one. U+00A5 and U+203E
/// (0x5C and 0x7E) and U+2212 encoding_rs writes itself.
pub const CP932_EQUIVALENTS: [(char, char); 7] = [
    ('\u{301C}', '\u{FF5E}'), // 〜 WAVE DASH → ～ (0x8160)
    ('\u{2016}', '\u{2225}'), // ‖ DOUBLE VERTICAL LINE → ∥ (0x8161)
    ('\u{2212}', '\u{FF0D}'), // − MINUS SIGN → － (0x817C)
    ('\u{2014}', '\u{2015}'), // — EM DASH → ― (0x815C)
    ('\u{00A2}', '\u{FFE0}'), // ¢ → ￠ (0x8191)
    ('\u{00A3}', '\u{FFE1}'), // £ → ￡ (0x8192)
    ('\u{00AC}', '\u{FFE2}'), // ¬ → ￢ (0x81CA)
];

/// The character CP932 writes for `c` (see [`CP932_EQUIVALENTS`]).
fn cp932_equivalent(c: char) -> char {
    CP932_EQUIVALENTS
        .iter()
        .find(|(from, _)| *from == c)
        .map_or(c, |(_, to)| *to)
}

/// Encodes `text` for writing. UTF-8 is returned as is. Shift_JIS is
/// written as Windows (CP932) writes it: the JIS-style characters of
/// [`CP932_EQUIVALENTS`] (`〜` U+301C, `‖`, `−`, `—`, `¢`, `£`, `¬`) become
/// the bytes CP932 has for them (`〜` → 0x8160), which read back, as on
/// Windows, as the CP932 character (`～` U+FF5E). A character CP932 cannot
/// hold at all is an error naming it.
///
/// ```
/// use kifu::read::{decode::encode, Encoding};
/// assert_eq!(encode("〜", Encoding::ShiftJis).unwrap(), [0x81, 0x60]);
/// assert_eq!(encode("～", Encoding::ShiftJis).unwrap(), [0x81, 0x60]);
/// assert_eq!(encode("☗", Encoding::ShiftJis), Err('☗'));
/// ```
pub fn encode(text: &str, encoding: Encoding) -> Result<Vec<u8>, char> {
    match encoding {
        Encoding::Utf8 => Ok(text.as_bytes().to_vec()),
        Encoding::Utf8Bom => {
            let mut v = vec![0xEF, 0xBB, 0xBF];
            v.extend_from_slice(text.as_bytes());
            Ok(v)
        }
        _ => {
            let enc = encoding.encoding_rs().output_encoding();
            let (bytes, _, had_errors) = enc.encode(text);
            if !had_errors {
                return Ok(bytes.into_owned());
            }
            let mapped: String = if enc == encoding_rs::SHIFT_JIS {
                text.chars().map(cp932_equivalent).collect()
            } else {
                text.to_string()
            };
            let (bytes, _, had_errors) = enc.encode(&mapped);
            if had_errors {
                let mut buf = [0u8; 4];
                for c in mapped.chars() {
                    let (_, _, bad) = enc.encode(c.encode_utf8(&mut buf));
                    if bad {
                        return Err(c);
                    }
                }
            }
            Ok(bytes.into_owned())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// The detector before the quick path: full counts for every candidate.
    fn detect_reference(prefix: &[u8], complete: bool, opts: &DecodeOptions) -> Encoding {
        if prefix.starts_with(&[0xEF, 0xBB, 0xBF]) {
            return Encoding::Utf8Bom;
        }
        if prefix.starts_with(&[0xFF, 0xFE]) {
            return Encoding::Utf16Le;
        }
        if prefix.starts_with(&[0xFE, 0xFF]) {
            return Encoding::Utf16Be;
        }
        let evidence = Evidence::of(prefix, complete);
        if let Some(d) = declared(prefix) {
            let contradicted = match d.encoding {
                Encoding::Utf8 => evidence.best() != Encoding::Utf8,
                Encoding::ShiftJis | Encoding::EucJp => {
                    mostly_utf8(evidence.utf8_multi, evidence.utf8_bad)
                }
                _ => false,
            };
            if !contradicted {
                return d.encoding;
            }
        }
        if let Some(e) = opts.encoding {
            return e;
        }
        evidence.best()
    }

    const PIECES: &[&str] = &[
        "#KIF version=2.0 encoding=UTF-8\n",
        "#KIF version=2.0 encoding=Shift_JIS\r\n",
        "'CSA encoding=SHIFT_JIS\n",
        "開始日時：2024/01/02 10:00\r\n",
        "先手：山田　花子\n",
        "手数----指手---------消費時間--\r\n",
        "   1 ７六歩(77)   ( 0:01/00:00:01)\r\n",
        "   2 同　角成(88)\n",
        "▲７六歩    △３四歩    ▲同　角成\n",
        "まで64手で後手の勝ち\n",
        "*コメント〜～‖−\n",
        "ｱｲｳｴｵ half-width\n",
        "+7776FU\n",
        "abc\n",
        "①②髙﨑\n",
    ];

    fn encodings() -> impl Strategy<Value = u8> {
        0u8..4
    }

    fn piece_bytes(i: usize, e: u8) -> Vec<u8> {
        let text = PIECES[i % PIECES.len()];
        match e {
            0 => text.as_bytes().to_vec(),
            1 => SHIFT_JIS.encode(text).0.into_owned(),
            2 => EUC_JP.encode(text).0.into_owned(),
            _ => text.as_bytes().iter().map(|b| b ^ 0x80).collect(),
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(3000))]
        #[test]
        fn quick_detection_agrees_with_the_full_counts(
            parts in proptest::collection::vec((0usize..64, encodings()), 0..12),
            noise in proptest::collection::vec((0usize..4096, any::<u8>()), 0..4),
            cut in 0usize..4096,
            complete in any::<bool>(),
            choice in 0u8..4,
            lossy in any::<bool>(),
        ) {
            let mut bytes = Vec::new();
            for (i, e) in parts {
                bytes.extend(piece_bytes(i, e));
            }
            for (at, b) in noise {
                if !bytes.is_empty() {
                    let at = at % bytes.len();
                    bytes[at] = b;
                }
            }
            if cut < bytes.len() && !complete {
                bytes.truncate(cut);
            }
            let encoding = match choice {
                0 => None,
                1 => Some(Encoding::Utf8),
                2 => Some(Encoding::ShiftJis),
                _ => Some(Encoding::EucJp),
            };
            let opts = DecodeOptions { encoding, lossy };
            prop_assert_eq!(
                detect(&bytes, complete, &opts),
                detect_reference(&bytes, complete, &opts)
            );
        }
    }

    /// [`utf8_counts`] as the standard validator delimits sequences.
    fn utf8_counts_reference(prefix: &[u8], complete: bool) -> (usize, usize) {
        let (mut multi, mut bad) = (0, 0);
        let mut rest = prefix;
        loop {
            match std::str::from_utf8(rest) {
                Ok(s) => return (multi + s.chars().filter(|c| !c.is_ascii()).count(), bad),
                Err(e) => {
                    let good = std::str::from_utf8(&rest[..e.valid_up_to()]).unwrap();
                    multi += good.chars().filter(|c| !c.is_ascii()).count();
                    match e.error_len() {
                        Some(n) => {
                            bad += 1;
                            rest = &rest[e.valid_up_to() + n..];
                        }
                        None => return (multi, bad + usize::from(complete)),
                    }
                }
            }
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(5000))]
        #[test]
        fn utf8_counts_delimit_as_the_standard_validator(
            bytes in proptest::collection::vec(
                proptest::prop_oneof![
                    any::<u8>(),
                    0x80u8..0xC0,
                    proptest::prelude::Just(0xE3u8),
                    proptest::prelude::Just(0xEDu8),
                    proptest::prelude::Just(0xF0u8),
                    proptest::prelude::Just(0xF4u8),
                ],
                0..40,
            ),
            complete in any::<bool>(),
        ) {
            prop_assert_eq!(
                utf8_counts(&bytes, complete),
                utf8_counts_reference(&bytes, complete)
            );
        }
    }

    #[test]
    fn quick_detection_agrees_on_edges() {
        let opts = DecodeOptions::default();
        let cases: Vec<Vec<u8>> = vec![
            vec![],
            vec![0x81],
            vec![0x8F, 0xA1],
            vec![b'a', 0x82, 0xA0],
            vec![0xA4, 0xA2, 0xA4],
            vec![0xFD, 0xFE, 0xFF],
            vec![0x82, 0x0A, 0x82, 0xA0],
            // ASCII under a Shift_JIS declaration, cut in a character at
            // the end: still ASCII, so the declaration stands.
            b"#KIF version=2.0 encoding=Shift_JIS\r\n+7776FU\xc2".to_vec(),
            SHIFT_JIS.encode("▲７六歩").0.into_owned(),
            EUC_JP.encode("▲７六歩").0.into_owned(),
        ];
        for c in &cases {
            for complete in [false, true] {
                for n in 0..=c.len() {
                    let p = &c[..n];
                    assert_eq!(
                        detect(p, complete, &opts),
                        detect_reference(p, complete, &opts),
                        "{p:x?} complete {complete}"
                    );
                }
            }
        }
    }
}
