//! A streaming line reader: reads bytes once, splits on LF, CRLF or lone CR,
//! decodes each line strictly and counts lines from 1.

use super::decode::{
    decode_into, detect, detection_start, DecodeOptions, Encoding, Overridden, DETECT_LEN,
};
use encoding_rs::DecoderResult;
use std::io::{self, BufRead, Read};

/// The longest line kept (longer lines are cut and reported).
pub const MAX_LINE_BYTES: usize = 64 << 20;

/// Bytes kept of a line longer than [`MAX_LINE_BYTES`] (its start, for the
/// report).
const TOO_LONG_KEPT: usize = 1024;

/// A line over the cap: only its start is kept (for the report), and the
/// memory of the rest is given back.
fn cut_too_long(raw: &mut Vec<u8>) {
    if raw.capacity() > TOO_LONG_KEPT {
        raw.truncate(TOO_LONG_KEPT);
        raw.shrink_to_fit();
    }
}

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
    /// The line holds an encoding declaration the bytes contradict: the
    /// input is read in another encoding (a warning; the line itself is
    /// read as usual, [`LineReader::current_text`]).
    Overridden(Overridden),
}

/// Reads decoded lines from a byte stream. Encodings that are not
/// ASCII-compatible (UTF-16) are transcoded to UTF-8 as the bytes stream
/// in, so they obey the same line cap and never sit whole in memory.
pub struct LineReader<R> {
    inner: Inner<R>,
    encoding: Encoding,
    /// How the bytes of a line are decoded (UTF-8 after transcoding).
    line_encoding: Encoding,
    lossy: bool,
    raw: Vec<u8>,
    text: String,
    line_no: u32,
    skip_lf: bool,
    eof: bool,
    peeked: bool,
    peeked_err: Option<LineError>,
    bytes_read: u64,
    /// Bytes of the current line (and its break) still in the source's
    /// buffer: they are consumed when the next line is read.
    pending: usize,
    /// The current line is the first `n` bytes of the source's buffer (it
    /// was read there without a copy) rather than `text`.
    borrowed: Option<usize>,
    /// UTF-8 lines checked a block at a time: whole lines copied from the
    /// source and validated at once, so that a line costs no decoding.
    block: String,
    /// Where the next line starts in `block`.
    block_pos: usize,
    /// The current line is `block[a..b]`.
    block_line: Option<(usize, usize)>,
    /// A declaration detection overrode, reported at its line.
    overridden: Option<Overridden>,
}

/// The most bytes taken into a block at a time.
const BLOCK_MAX: usize = 256 << 10;

/// The byte source of a [`LineReader`]: as is, or transcoded to UTF-8.
enum Inner<R> {
    Plain(R),
    Utf16(Utf16Reader<R>),
}

impl<R: BufRead> Read for Inner<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = {
            let avail = self.fill_buf()?;
            let n = avail.len().min(buf.len());
            buf[..n].copy_from_slice(&avail[..n]);
            n
        };
        self.consume(n);
        Ok(n)
    }
}

impl<R: BufRead> BufRead for Inner<R> {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        match self {
            Inner::Plain(r) => r.fill_buf(),
            Inner::Utf16(r) => r.fill_buf(),
        }
    }
    fn consume(&mut self, n: usize) {
        match self {
            Inner::Plain(r) => r.consume(n),
            Inner::Utf16(r) => r.consume(n),
        }
    }
}

/// Transcodes a UTF-16 byte stream (after its BOM) to UTF-8 a block at a
/// time. A malformed sequence becomes the byte 0xFF (which the strict UTF-8
/// line decoding then reports at its line and column), or U+FFFD when
/// decoding is lossy.
struct Utf16Reader<R> {
    inner: R,
    decoder: encoding_rs::Decoder,
    out: Vec<u8>,
    pos: usize,
    done: bool,
    lossy: bool,
}

impl<R: BufRead> Utf16Reader<R> {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        while self.pos >= self.out.len() && !self.done {
            self.out.clear();
            self.pos = 0;
            let src = loop {
                match self.inner.fill_buf() {
                    Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                    r => break r?,
                }
            };
            let last = src.is_empty();
            let src = &src[..src.len().min(64 << 10)];
            let cap = self
                .decoder
                .max_utf8_buffer_length_without_replacement(src.len())
                .unwrap_or(src.len() * 3)
                + 16;
            self.out.resize(cap, 0);
            let (mut read, mut written) = (0, 0);
            loop {
                let (res, r, w) = self.decoder.decode_to_utf8_without_replacement(
                    &src[read..],
                    &mut self.out[written..],
                    last,
                );
                read += r;
                written += w;
                match res {
                    DecoderResult::InputEmpty => break,
                    DecoderResult::OutputFull => {
                        let grow = self.out.len() + 64;
                        self.out.resize(grow, 0);
                    }
                    DecoderResult::Malformed(..) => {
                        let marker: &[u8] = if self.lossy {
                            "\u{FFFD}".as_bytes()
                        } else {
                            &[0xFF]
                        };
                        if self.out.len() < written + marker.len() + 16 {
                            self.out.resize(written + marker.len() + 64, 0);
                        }
                        self.out[written..written + marker.len()].copy_from_slice(marker);
                        written += marker.len();
                    }
                }
            }
            self.out.truncate(written);
            self.inner.consume(read);
            if last {
                self.done = true;
            }
        }
        Ok(&self.out[self.pos..])
    }

    fn consume(&mut self, n: usize) {
        self.pos = (self.pos + n).min(self.out.len());
    }
}

/// A line: its 1-based number and text (without the line break).
pub type Line<'a> = (u32, &'a str);

/// What [`LineReader::next_line_or_raw`] gives: a line, `None` for a line
/// taken undecoded, or the line's error.
pub(crate) type MaybeLine<'a> = Result<Option<Line<'a>>, (u32, LineError)>;

impl<R: BufRead> LineReader<R> {
    /// Detects the encoding from the first 64 KiB (see [`detect_start`]) and
    /// prepares to read. The BOM, if any, is skipped.
    pub fn new(mut inner: R, opts: &DecodeOptions) -> io::Result<LineReader<R>> {
        // Detection looks at the start of the source's buffer in place (no
        // copy): at most 64 KiB of it. BufReader may hold less; that is
        // enough for detection.
        let (detection, available) = {
            let buf = inner.fill_buf()?;
            (detection_start(buf, opts), buf.len().min(DETECT_LEN))
        };
        let encoding = detection.encoding;
        let bom = encoding.bom_len();
        if bom > 0 {
            inner.consume(bom.min(available));
        }
        let mut lines = LineReader::with_encoding(inner, encoding, opts.lossy, bom as u64);
        lines.overridden = detection.overridden;
        Ok(lines)
    }

    /// Prepares to read text in `encoding` that continues an input (a piece
    /// cut out of a larger file after its start): nothing is detected, and
    /// a byte-order mark or an encoding declaration in it is text like any
    /// other, as it is to a reader of the whole input.
    pub fn continuing(inner: R, encoding: Encoding, lossy: bool) -> LineReader<R> {
        let encoding = match encoding {
            Encoding::Utf8Bom => Encoding::Utf8,
            e => e,
        };
        LineReader::with_encoding(inner, encoding, lossy, 0)
    }

    fn with_encoding(inner: R, encoding: Encoding, lossy: bool, bom: u64) -> LineReader<R> {
        let (inner, line_encoding) = if encoding.is_ascii_compatible() {
            (Inner::Plain(inner), encoding)
        } else {
            let decoder = encoding.encoding_rs().new_decoder_without_bom_handling();
            let r = Utf16Reader {
                inner,
                decoder,
                out: Vec::new(),
                pos: 0,
                done: false,
                lossy,
            };
            (Inner::Utf16(r), Encoding::Utf8)
        };
        LineReader {
            inner,
            encoding,
            line_encoding,
            lossy,
            raw: Vec::new(),
            text: String::new(),
            line_no: 0,
            skip_lf: false,
            eof: false,
            peeked: false,
            peeked_err: None,
            bytes_read: bom,
            pending: 0,
            borrowed: None,
            block: String::new(),
            block_pos: 0,
            block_line: None,
            overridden: None,
        }
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

    /// The in-file declaration detection overrode (the bytes contradict
    /// it), if any; it is also given as [`LineError::Overridden`] at its
    /// line.
    pub fn overridden(&self) -> Option<&Overridden> {
        self.overridden.as_ref()
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

    /// Takes the whole lines at the start of the source's buffer (at most
    /// [`BLOCK_MAX`] bytes) into `block` when they are valid UTF-8; leaves
    /// `block` empty otherwise (no line break there, or a bad first line:
    /// the line-by-line paths take over).
    fn refill_block(&mut self) {
        self.block.clear();
        self.block_pos = 0;
        if self.skip_lf {
            match self.inner.fill_buf() {
                Ok(buf) if !buf.is_empty() => {
                    self.skip_lf = false;
                    if buf[0] == b'\n' {
                        self.inner.consume(1);
                        self.bytes_read += 1;
                    }
                }
                _ => return,
            }
        }
        let Ok(buf) = self.inner.fill_buf() else {
            return;
        };
        let window = &buf[..buf.len().min(BLOCK_MAX)];
        let Some(last) = memchr::memrchr2(b'\n', b'\r', window) else {
            return;
        };
        let whole = &window[..=last];
        let valid = match std::str::from_utf8(whole) {
            Ok(text) => text,
            Err(e) => {
                let good = &whole[..e.valid_up_to()];
                match memchr::memrchr2(b'\n', b'\r', good) {
                    Some(j) => std::str::from_utf8(&good[..=j]).unwrap_or(""),
                    None => "",
                }
            }
        };
        self.block.push_str(valid);
        let taken = valid.len();
        self.inner.consume(taken);
    }

    /// Whether the next line ends inside the source's buffer: its length,
    /// the bytes it takes with its break, and whether a CR ended the buffer
    /// (an LF right after it belongs to this break). A leading LF owed to a
    /// CR of the previous buffer is skipped first.
    fn line_in_buffer(&mut self) -> Option<(usize, usize, bool)> {
        if self.skip_lf {
            let first = self.inner.fill_buf().ok()?.first().copied()?;
            self.skip_lf = false;
            if first == b'\n' {
                self.inner.consume(1);
                self.bytes_read += 1;
            }
        }
        let buf = self.inner.fill_buf().ok()?;
        let i = memchr::memchr2(b'\n', b'\r', buf)?;
        if i > MAX_LINE_BYTES {
            return None;
        }
        let mut consumed = i + 1;
        let mut skip_lf = false;
        if buf[i] == b'\r' {
            match buf.get(consumed) {
                Some(b'\n') => consumed += 1,
                Some(_) => {}
                None => skip_lf = true,
            }
        }
        Some((i, consumed, skip_lf))
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
                    if !too_long && self.raw.len() + (end - start) <= MAX_LINE_BYTES {
                        self.raw.extend_from_slice(&buf[start..end]);
                    } else {
                        cut_too_long(&mut self.raw);
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
                    if !too_long && self.raw.len() + (n - start) <= MAX_LINE_BYTES {
                        self.raw.extend_from_slice(&buf[start..]);
                    } else {
                        cut_too_long(&mut self.raw);
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
        // `raw` takes no line, so every line comes back decoded.
        let line = self.next_line_or_raw(&mut |_, _| false)?;
        Some(line.map(|l| l.map(|l| l.unwrap_or((0, "")))))
    }

    /// [`LineReader::next_line`], except that a Shift_JIS line is first
    /// offered undecoded to `raw` (its number and bytes) when it sits whole
    /// in the source's buffer: if `raw` takes it (answers `true`), the line
    /// is never decoded and `Ok(Ok(None))` is returned. Such a line cannot
    /// be [`LineReader::unread`].
    pub(crate) fn next_line_or_raw(
        &mut self,
        raw: &mut dyn FnMut(u32, &[u8]) -> bool,
    ) -> Option<io::Result<MaybeLine<'_>>> {
        if !self.peeked && self.overridden_next() {
            return self.overridden_line();
        }
        self.read_line(raw)
    }

    /// Whether the next line holds the declaration detection overrode (and
    /// has yet to be reported).
    fn overridden_next(&self) -> bool {
        self.overridden
            .as_ref()
            .is_some_and(|o| o.line == self.line_no.saturating_add(1))
    }

    /// The line of an overridden declaration, as
    /// [`LineError::Overridden`] (its text in `text`).
    fn overridden_line(&mut self) -> Option<io::Result<MaybeLine<'_>>> {
        let o = self.overridden.clone()?;
        let read = match self.read_line(&mut |_, _| false)? {
            Err(e) => Err(e),
            Ok(Ok(Some((n, text)))) => Ok(Ok((n, text.to_string()))),
            Ok(Ok(None)) => Ok(Ok((self.line_no, String::new()))),
            Ok(Err(e)) => Ok(Err(e)),
        };
        Some(match read {
            Err(e) => Err(e),
            Ok(Ok((n, text))) => {
                self.text = text;
                self.block_line = None;
                self.borrowed = None;
                if o.line == n {
                    Ok(Err((n, LineError::Overridden(o))))
                } else {
                    Ok(Ok(Some((n, self.text.as_str()))))
                }
            }
            // Bytes that do not decode there are what to report.
            Ok(Err(e)) => Ok(Err(e)),
        })
    }

    fn read_line(
        &mut self,
        raw: &mut dyn FnMut(u32, &[u8]) -> bool,
    ) -> Option<io::Result<MaybeLine<'_>>> {
        if self.peeked {
            self.peeked = false;
            if let Some((a, b)) = self.block_line {
                return Some(Ok(Ok(Some((self.line_no, &self.block[a..b])))));
            }
            if let Some(len) = self.borrowed {
                // Still in the source's buffer (nothing was consumed since).
                let text = match self.inner.fill_buf() {
                    Ok(buf) => buf.get(..len).and_then(|b| std::str::from_utf8(b).ok()),
                    Err(_) => None,
                };
                return Some(Ok(Ok(Some((self.line_no, text.unwrap_or(""))))));
            }
            return Some(Ok(Ok(Some((self.line_no, self.text.as_str())))));
        }
        if self.pending > 0 {
            self.inner.consume(std::mem::take(&mut self.pending));
        }
        self.borrowed = None;
        self.block_line = None;
        if self.eof {
            return None;
        }
        if matches!(self.line_encoding, Encoding::Utf8 | Encoding::Utf8Bom) {
            if self.block_pos >= self.block.len() {
                self.refill_block();
            }
            if self.block_pos < self.block.len() {
                let start = self.block_pos;
                let bytes = &self.block.as_bytes()[start..];
                let (end, next) = match memchr::memchr2(b'\n', b'\r', bytes) {
                    Some(i) => {
                        let mut next = start + i + 1;
                        if bytes[i] == b'\r' {
                            match self.block.as_bytes().get(next) {
                                Some(b'\n') => next += 1,
                                Some(_) => {}
                                None => self.skip_lf = true,
                            }
                        }
                        (start + i, next)
                    }
                    // A block ends with a line break; never reached.
                    None => (self.block.len(), self.block.len()),
                };
                self.bytes_read += (next - start) as u64;
                self.block_pos = next;
                self.line_no += 1;
                self.block_line = Some((start, end));
                return Some(Ok(Ok(Some((self.line_no, &self.block[start..end])))));
            }
        }
        // The common case: the whole line and its break are in the source's
        // buffer. It is decoded from there, without a copy.
        if let Some((len, consumed, skip_lf)) = self.line_in_buffer() {
            let buf = match self.inner.fill_buf() {
                Ok(buf) => buf,
                Err(e) => {
                    self.eof = true;
                    return Some(Err(e));
                }
            };
            let bytes = &buf[..len.min(buf.len())];
            self.pending = consumed;
            self.skip_lf = skip_lf;
            self.bytes_read += consumed as u64;
            self.line_no += 1;
            if matches!(self.line_encoding, Encoding::Utf8 | Encoding::Utf8Bom) {
                if let Ok(text) = std::str::from_utf8(bytes) {
                    self.borrowed = Some(len);
                    return Some(Ok(Ok(Some((self.line_no, text)))));
                }
            }
            if self.line_encoding == Encoding::ShiftJis && raw(self.line_no, bytes) {
                // Read from its bytes: never decoded.
                self.text.clear();
                return Some(Ok(Ok(None)));
            }
            return match decode_into(self.line_encoding, bytes, self.lossy, &mut self.text) {
                Ok(()) => Some(Ok(Ok(Some((self.line_no, self.text.as_str()))))),
                Err(e) => {
                    let _ = decode_into(self.line_encoding, bytes, true, &mut self.text);
                    Some(Ok(Err((
                        self.line_no,
                        LineError::Encoding {
                            column: e.column,
                            bytes: e.bytes,
                        },
                    ))))
                }
            };
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
                    let _ = decode_into(self.line_encoding, &self.raw, true, &mut self.text);
                    return Some(Ok(Err((self.line_no, e))));
                }
                if matches!(self.line_encoding, Encoding::Utf8 | Encoding::Utf8Bom) {
                    // Valid UTF-8 becomes the line's text without a copy:
                    // the two buffers trade places.
                    match String::from_utf8(std::mem::take(&mut self.raw)) {
                        Ok(text) => {
                            self.raw = std::mem::replace(&mut self.text, text).into_bytes();
                            return Some(Ok(Ok(Some((self.line_no, self.text.as_str())))));
                        }
                        Err(e) => self.raw = e.into_bytes(),
                    }
                }
                match decode_into(self.line_encoding, &self.raw, self.lossy, &mut self.text) {
                    Ok(()) => Some(Ok(Ok(Some((self.line_no, self.text.as_str()))))),
                    Err(e) => {
                        // Keep a lossy version so a reader may go on.
                        let _ = decode_into(self.line_encoding, &self.raw, true, &mut self.text);
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

    /// The next line when it is already in the checked UTF-8 block: the
    /// same line [`LineReader::next_line`] would give, for less work (no
    /// state to unwind, short lines found without a vector search). `None`
    /// when it is not at hand (a line to give again after
    /// [`LineReader::unread`], the block used up, another encoding): the
    /// caller then asks [`LineReader::next_line`]. For readers of many
    /// short lines (CSA).
    #[inline]
    pub fn next_block_line(&mut self) -> Option<Line<'_>> {
        let start = self.block_pos;
        if self.peeked || self.pending > 0 || start >= self.block.len() || self.overridden_next() {
            return None;
        }
        let bytes = &self.block.as_bytes()[start..];
        let i = line_break(bytes)?;
        let mut next = start + i + 1;
        if bytes[i] == b'\r' {
            match bytes.get(i + 1) {
                Some(b'\n') => next += 1,
                Some(_) => {}
                None => self.skip_lf = true,
            }
        }
        let end = start + i;
        self.bytes_read += (next - start) as u64;
        self.block_pos = next;
        self.line_no += 1;
        self.borrowed = None;
        self.block_line = Some((start, end));
        Some((self.line_no, &self.block[start..end]))
    }

    /// The lines at hand in the checked UTF-8 block, for a reader that
    /// takes many short lines in a row (CSA): the text from the next line
    /// to the end of the block (it ends with a line break, found by
    /// [`line_break`]), or `None` when the next line is not at hand (as for
    /// [`LineReader::next_block_line`]). The reader then says how far it
    /// got with [`LineReader::took_block_lines`]; the lines it took are
    /// those `next_block_line` would have given, one by one.
    #[inline]
    pub(crate) fn block_rest(&self) -> Option<&str> {
        if self.peeked
            || self.pending > 0
            || self.block_pos >= self.block.len()
            || self
                .overridden
                .as_ref()
                .is_some_and(|o| o.line > self.line_no)
        {
            return None;
        }
        Some(&self.block[self.block_pos..])
    }

    /// Takes the first `bytes` bytes (whole lines and their breaks; a CR
    /// ending the block is not taken) of [`LineReader::block_rest`]: `lines`
    /// lines (at least one), the last of them, the current line, at
    /// `last` (a range of that text).
    #[inline]
    pub(crate) fn took_block_lines(&mut self, bytes: usize, lines: u32, last: (usize, usize)) {
        let base = self.block_pos;
        self.bytes_read += bytes as u64;
        self.block_pos = base + bytes;
        self.line_no += lines;
        self.borrowed = None;
        self.block_line = Some((base + last.0, base + last.1));
    }

    /// The text of the current line after an error (lossily decoded if it
    /// had bad bytes).
    pub fn current_text(&self) -> &str {
        &self.text
    }
}

/// Where the first line break (LF or CR) of `bytes` is. Most lines of a
/// CSA file are under eight bytes: their break is found in one word (the
/// lowest byte equal to LF or CR; the zero-byte test is exact for the
/// lowest match), the rest by `memchr`.
#[inline]
pub(crate) fn line_break(bytes: &[u8]) -> Option<usize> {
    match bytes.first_chunk::<8>() {
        Some(w) => {
            const ONES: u64 = 0x0101_0101_0101_0101;
            const HIGH: u64 = 0x8080_8080_8080_8080;
            let w = u64::from_le_bytes(*w);
            let lf = w ^ (ONES * u64::from(b'\n'));
            let cr = w ^ (ONES * u64::from(b'\r'));
            let m = ((lf.wrapping_sub(ONES) & !lf) | (cr.wrapping_sub(ONES) & !cr)) & HIGH;
            if m != 0 {
                Some((m.trailing_zeros() / 8) as usize)
            } else {
                Some(8 + memchr::memchr2(b'\n', b'\r', &bytes[8..])?)
            }
        }
        None => memchr::memchr2(b'\n', b'\r', bytes),
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

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::Strategy as _;

    /// Lines as the reader should give them: LF, CRLF and lone CR end a
    /// line; `None` for a line that is not UTF-8.
    fn oracle(bytes: &[u8]) -> Vec<Option<String>> {
        let mut out = Vec::new();
        let mut i = 0;
        let mut start = 0;
        while i < bytes.len() {
            if bytes[i] == b'\n' || bytes[i] == b'\r' {
                out.push(String::from_utf8(bytes[start..i].to_vec()).ok());
                if bytes[i] == b'\r' && bytes.get(i + 1) == Some(&b'\n') {
                    i += 1;
                }
                start = i + 1;
            }
            i += 1;
        }
        if start < bytes.len() {
            out.push(String::from_utf8(bytes[start..].to_vec()).ok());
        }
        out
    }

    /// Reads every line, giving some again after `unread`; with `fast`,
    /// each line is asked of [`LineReader::next_block_line`] first.
    fn read_with(
        bytes: &[u8],
        cap: usize,
        unread_every: usize,
        fast: bool,
    ) -> (Vec<Option<String>>, u64) {
        let src = io::BufReader::with_capacity(cap, bytes);
        let opts = DecodeOptions {
            encoding: Some(Encoding::Utf8),
            lossy: false,
        };
        let mut r = LineReader::new(src, &opts).unwrap();
        let mut out = Vec::new();
        let mut n = 0;
        loop {
            let line = if fast {
                match r.next_block_line() {
                    Some((no, text)) => Some(Ok(Ok((no, text)))),
                    None => r.next_line(),
                }
            } else {
                r.next_line()
            };
            let Some(line) = line else {
                break;
            };
            n += 1;
            match line.unwrap() {
                Ok((no, text)) => {
                    assert_eq!(no as usize, out.len() + 1);
                    let text = text.to_string();
                    if unread_every > 0 && n % unread_every == 0 {
                        r.unread();
                        let again = r.next_line().unwrap().unwrap().unwrap();
                        assert_eq!((again.0, again.1), (no, text.as_str()));
                    }
                    out.push(Some(text));
                }
                Err((no, LineError::Encoding { .. })) => {
                    assert_eq!(no as usize, out.len() + 1);
                    out.push(None);
                }
                Err((_, LineError::TooLong)) => panic!("too long"),
                Err((_, LineError::Overridden(o))) => panic!("{o:?}"),
            }
        }
        (out, r.bytes_read())
    }

    #[test]
    fn lines_are_the_same_whatever_the_buffer_size() {
        let mut long = "x".repeat(BLOCK_MAX + 17);
        long.push_str("\r\nend");
        let inputs: Vec<Vec<u8>> = vec![
            b"+7776FU\nT1\r\n-3334FU\rT2\r\r\n\n%TORYO".to_vec(),
            b"a\r\nb\r\nc\r\n".to_vec(),
            b"\r\r\r\n\n\r".to_vec(),
            b"ok\nbad \xff byte\r\nok again\n\xe3\x81\n\xe3\x81\x82\n".to_vec(),
            long.into_bytes(),
            Vec::new(),
        ];
        for bytes in &inputs {
            let want = oracle(bytes);
            for cap in [1, 2, 3, 5, 8, 64, 1 << 20] {
                for unread_every in [0, 1, 3] {
                    for fast in [false, true] {
                        let (got, read) = read_with(bytes, cap, unread_every, fast);
                        assert_eq!(got, want, "cap {cap}, {:?}", String::from_utf8_lossy(bytes));
                        assert_eq!(read, bytes.len() as u64, "bytes read, cap {cap}");
                    }
                }
            }
        }
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(3000))]
        /// The block fast path gives the lines, numbers and byte counts of
        /// `next_line`, whatever the bytes, breaks and buffer size.
        #[test]
        fn block_lines_agree_with_next_line(
            parts in proptest::collection::vec(
                proptest::prop_oneof![
                    proptest::string::string_regex("[-+0-9A-Z%/',T ]{0,40}").unwrap().prop_map(String::into_bytes),
                    proptest::prelude::Just(b"\n".to_vec()),
                    proptest::prelude::Just(b"\r".to_vec()),
                    proptest::prelude::Just(b"\r\n".to_vec()),
                    proptest::prelude::Just("\u{3042}".as_bytes().to_vec()),
                    proptest::prelude::Just(vec![0xE3, 0x81]),
                    proptest::prelude::Just(vec![0xFF]),
                ],
                0..60,
            ),
            cap in proptest::prop_oneof![1usize..12, proptest::prelude::Just(1usize << 20)],
            unread_every in 0usize..4,
        ) {
            let bytes: Vec<u8> = parts.concat();
            let want = oracle(&bytes);
            let slow = read_with(&bytes, cap, unread_every, false);
            let fast = read_with(&bytes, cap, unread_every, true);
            proptest::prop_assert_eq!(&slow.0, &want);
            proptest::prop_assert_eq!(slow, fast);
        }
    }
}
