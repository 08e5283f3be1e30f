//! A streaming line reader: reads bytes once, splits on LF, CRLF or lone CR,
//! decodes each line strictly and counts lines from 1.

use super::decode::{decode_into, detect, DecodeOptions, Encoding};
use std::io::{self, BufRead, Read};

/// The longest line kept (longer lines are cut and reported).
pub const MAX_LINE_BYTES: usize = 64 << 20;

/// What went wrong on one line.
#[derive(Debug)]
pub enum LineError {
    /// Bytes that do not decode; column is 1-based in characters.
    Encoding {
        /// 1-based column.
        column: u32,
        /// The offending bytes.
        bytes: Vec<u8>,
    },
    /// The line is longer than [`MAX_LINE_BYTES`] and was cut.
    TooLong,
}

/// Reads decoded lines from a byte stream.
pub struct LineReader<R> {
    inner: R,
    encoding: Encoding,
    lossy: bool,
    raw: Vec<u8>,
    text: String,
    line_no: u32,
    skip_lf: bool,
    eof: bool,
    peeked: bool,
    peeked_err: Option<LineError>,
    /// Whole decoded text for encodings that cannot be split as bytes.
    whole: Option<(String, usize)>,
    bytes_read: u64,
}

/// A line: its 1-based number and text (without the line break).
pub type Line<'a> = (u32, &'a str);

impl<R: BufRead> LineReader<R> {
    /// Detects the encoding from the first 64 KiB (see [`detect`]) and
    /// prepares to read. The BOM, if any, is skipped.
    pub fn new(mut inner: R, opts: &DecodeOptions) -> io::Result<LineReader<R>> {
        // Gather a prefix for detection without consuming it.
        let mut prefix = Vec::new();
        let mut complete = false;
        {
            let buf = inner.fill_buf()?;
            prefix.extend_from_slice(&buf[..buf.len().min(65536)]);
            if buf.is_empty() {
                complete = true;
            }
        }
        // BufReader may hold less than 64 KiB; that is enough for detection.
        if !complete && prefix.len() < 65536 {
            // We cannot peek further without consuming; treat as partial.
        }
        let encoding = detect(&prefix, complete || prefix.len() < 8192, opts);
        let mut reader = LineReader {
            inner,
            encoding,
            lossy: opts.lossy,
            raw: Vec::new(),
            text: String::new(),
            line_no: 0,
            skip_lf: false,
            eof: false,
            peeked: false,
            peeked_err: None,
            whole: None,
            bytes_read: 0,
        };
        let bom = encoding.bom_len();
        if bom > 0 {
            reader.inner.consume(bom.min(prefix.len()));
            reader.bytes_read += bom as u64;
        }
        if !encoding.is_ascii_compatible() {
            let mut all = Vec::new();
            reader.inner.read_to_end(&mut all)?;
            reader.bytes_read += all.len() as u64;
            let (text, _) = encoding.encoding_rs().decode_without_bom_handling(&all);
            reader.whole = Some((text.into_owned(), 0));
        }
        Ok(reader)
    }

    /// Numbers lines as if `lines` lines came before this input (for a
    /// piece cut out of a larger file).
    pub fn set_line_offset(&mut self, lines: u32) {
        self.line_no = lines;
    }

    /// The encoding in use.
    pub fn encoding(&self) -> Encoding {
        self.encoding
    }

    /// Bytes consumed so far.
    pub fn bytes_read(&self) -> u64 {
        self.bytes_read
    }

    /// Number of the last line returned.
    pub fn line_number(&self) -> u32 {
        self.line_no
    }

    /// Makes the next call to [`LineReader::next_line`] return the current
    /// line again.
    pub fn unread(&mut self) {
        self.peeked = true;
    }

    fn read_raw(&mut self) -> io::Result<bool> {
        self.raw.clear();
        let mut too_long = false;
        loop {
            let buf = match self.inner.fill_buf() {
                Ok(b) => b,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            };
            if buf.is_empty() {
                self.eof = true;
                return Ok(!self.raw.is_empty() || too_long);
            }
            let mut start = 0;
            if self.skip_lf {
                self.skip_lf = false;
                if buf[0] == b'\n' {
                    start = 1;
                }
            }
            match memchr::memchr2(b'\n', b'\r', &buf[start..]) {
                Some(i) => {
                    let end = start + i;
                    if self.raw.len() + (end - start) <= MAX_LINE_BYTES {
                        self.raw.extend_from_slice(&buf[start..end]);
                    } else {
                        too_long = true;
                    }
                    let is_cr = buf[end] == b'\r';
                    let mut consumed = end + 1;
                    if is_cr {
                        if consumed < buf.len() {
                            if buf[consumed] == b'\n' {
                                consumed += 1;
                            }
                        } else {
                            self.skip_lf = true;
                        }
                    }
                    self.inner.consume(consumed);
                    self.bytes_read += consumed as u64;
                    if too_long {
                        self.peeked_err = Some(LineError::TooLong);
                    }
                    return Ok(true);
                }
                None => {
                    let n = buf.len();
                    if self.raw.len() + (n - start) <= MAX_LINE_BYTES {
                        self.raw.extend_from_slice(&buf[start..]);
                    } else {
                        too_long = true;
                    }
                    self.inner.consume(n);
                    self.bytes_read += n as u64;
                    if too_long {
                        self.peeked_err = Some(LineError::TooLong);
                    }
                }
            }
        }
    }

    /// The next line, `None` at the end. An I/O error ends the stream and is
    /// returned as `Some(Err(..))` once.
    pub fn next_line(&mut self) -> Option<io::Result<Result<Line<'_>, (u32, LineError)>>> {
        if self.peeked {
            self.peeked = false;
            return Some(Ok(Ok((self.line_no, self.text.as_str()))));
        }
        if let Some((whole, pos)) = &mut self.whole {
            if *pos >= whole.len() {
                return None;
            }
            let rest = &whole[*pos..];
            let (line, adv) = match rest.find(['\n', '\r']) {
                Some(i) => {
                    let mut adv = i + 1;
                    if rest.as_bytes()[i] == b'\r' && rest.as_bytes().get(i + 1) == Some(&b'\n') {
                        adv += 1;
                    }
                    (&rest[..i], adv)
                }
                None => (rest, rest.len()),
            };
            self.text.clear();
            self.text.push_str(line);
            *pos += adv;
            self.line_no += 1;
            return Some(Ok(Ok((self.line_no, self.text.as_str()))));
        }
        if self.eof {
            return None;
        }
        match self.read_raw() {
            Err(e) => {
                self.eof = true;
                Some(Err(e))
            }
            Ok(false) => None,
            Ok(true) => {
                self.line_no += 1;
                if let Some(e) = self.peeked_err.take() {
                    let _ = decode_into(self.encoding, &self.raw, true, &mut self.text);
                    return Some(Ok(Err((self.line_no, e))));
                }
                match decode_into(self.encoding, &self.raw, self.lossy, &mut self.text) {
                    Ok(()) => Some(Ok(Ok((self.line_no, self.text.as_str())))),
                    Err(e) => {
                        // Keep a lossy version so a reader may go on.
                        let _ = decode_into(self.encoding, &self.raw, true, &mut self.text);
                        Some(Ok(Err((
                            self.line_no,
                            LineError::Encoding {
                                column: e.column,
                                bytes: e.bytes,
                            },
                        ))))
                    }
                }
            }
        }
    }

    /// The text of the current line (lossily decoded if it had bad bytes).
    pub fn current_text(&self) -> &str {
        &self.text
    }
}

/// Reads a whole input into a string with the same detection rules; used by
/// formats that are not line-based (JKF).
pub fn read_to_string<R: Read>(
    mut r: R,
    opts: &DecodeOptions,
) -> io::Result<(String, Encoding, Result<(), super::decode::DecodeError>)> {
    let mut bytes = Vec::new();
    r.read_to_end(&mut bytes)?;
    let enc = detect(&bytes, true, opts);
    let body = &bytes[enc.bom_len().min(bytes.len())..];
    let mut out = String::new();
    let res = decode_into(enc, body, opts.lossy, &mut out);
    if res.is_err() {
        let _ = decode_into(enc, body, true, &mut out);
    }
    Ok((out, enc, res))
}
