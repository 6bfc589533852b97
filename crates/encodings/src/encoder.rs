//! [`Encoder`]: UTF-8 text to any encoding, in chunks, with the error modes.
//!
//! Each encoding has a strict step that appends what it can and stops at
//! the first character the encoding cannot hold; the modes are applied
//! here, once for all encodings, by encoding a substitute through the same
//! step (so stateful encoders such as ISO-2022-JP stay consistent).

use crate::compose::Composition;
use crate::error::EncodeError;
use crate::lines::Lines;
use crate::registry::{Kind, Order};
use crate::single_byte;
use crate::{EncodeMode, Encoding};
use codec_core::utf16::Endianness;

/// A streaming encoder from UTF-8 text to one encoding.
///
/// ```
/// use encodings::{EncodeMode, Encoder, Encoding};
///
/// let cp437 = Encoding::for_label("CP437").unwrap();
/// let mut e = Encoder::new(cp437, EncodeMode::Ncr);
/// let mut out = Vec::new();
/// e.encode_into_vec("½ ≈ ", &mut out, false).unwrap();
/// e.encode_into_vec("€", &mut out, true).unwrap();
/// assert_eq!(out, b"\xAB \xF7 &#8364;");
/// ```
#[derive(Debug)]
pub struct Encoder {
    encoding: Encoding,
    mode: EncodeMode,
    /// Bytes of UTF-8 input consumed so far.
    offset: u64,
    position: Lines,
    /// Whether anything was written (the BOM of `UTF-16`/`UTF-32` goes first).
    started: bool,
    legacy: Option<encoding_rs::Encoder>,
    /// The characters encoding_rs has reported unmappable, for a lossy
    /// encoder of a multi-byte legacy encoding: they are cut off before
    /// encoding_rs sees them again (its Big5 and GBK encoders look an
    /// unmappable character up by a linear search of their index, a few
    /// microseconds each).
    unmappable: Option<Box<Unmappable>>,
    /// encoding_rs's output before it is appended ([`LEGACY_PIECE`] bytes
    /// once a legacy encoder first runs).
    scratch: Vec<u8>,
    utf7: crate::utf7::Utf7Encoder,
    failed: Option<EncodeError>,
}

/// The output encoding_rs writes a call, at most.
const LEGACY_PIECE: usize = 16 << 10;

/// A set of characters: a bit for each BMP one, a sorted list of the rest.
#[derive(Debug)]
struct Unmappable {
    bmp: [u64; 1024],
    astral: Vec<char>,
}

impl Unmappable {
    fn new() -> Unmappable {
        Unmappable {
            bmp: [0; 1024],
            astral: Vec::new(),
        }
    }

    fn insert(&mut self, c: char) {
        let u = u32::from(c) as usize;
        if u < 0x1_0000 {
            self.bmp[u / 64] |= 1 << (u % 64);
        } else if let Err(at) = self.astral.binary_search(&c) {
            self.astral.insert(at, c);
        }
    }

    fn contains(&self, c: char) -> bool {
        let u = u32::from(c) as usize;
        if u < 0x1_0000 {
            self.bmp[u / 64] & (1 << (u % 64)) != 0
        } else {
            self.astral.binary_search(&c).is_ok()
        }
    }

    /// The first character of `text` in the set, with its offset.
    fn first_in(&self, text: &str) -> Option<(usize, char)> {
        text.char_indices().find(|&(_, c)| self.contains(c))
    }
}

impl Encoder {
    /// An encoder at the start of an output in `encoding`.
    #[must_use]
    pub fn new(encoding: Encoding, mode: EncodeMode) -> Encoder {
        let legacy = match encoding.kind() {
            Kind::Legacy(e) => Some(e.new_encoder()),
            _ => None,
        };
        Encoder {
            encoding,
            mode,
            offset: 0,
            position: Lines::default(),
            started: false,
            legacy,
            unmappable: None,
            scratch: Vec::new(),
            utf7: crate::utf7::Utf7Encoder::default(),
            failed: None,
        }
    }

    /// This encoder without the lines and columns of its errors: their
    /// [`line`](EncodeError::line) and [`column`](EncodeError::column)
    /// read 0, their offsets stay exact, and the pass over the text that
    /// counts newlines and characters is skipped (see
    /// [`Decoder::without_positions`](crate::Decoder::without_positions)).
    ///
    /// ```
    /// use encodings::{EncodeMode, Encoder, Encoding};
    ///
    /// let cp1252 = Encoding::for_label("windows-1252").unwrap();
    /// let mut e = Encoder::new(cp1252, EncodeMode::Strict).without_positions();
    /// let err = e.encode_to_vec("é\nЖ").unwrap_err();
    /// assert_eq!((err.offset(), err.line(), err.column()), (3, 0, 0));
    /// ```
    #[must_use]
    pub fn without_positions(mut self) -> Encoder {
        self.position.skip();
        self
    }

    /// The encoding written.
    #[must_use]
    pub fn encoding(&self) -> Encoding {
        self.encoding
    }

    /// Encodes `src`, the next piece of the text, appending to `dst`.
    /// `last` says no more text follows (stateful encodings such as
    /// ISO-2022-JP and UTF-7 then return to their initial state); its
    /// lines are then counted only up to an error in it, so an error of a
    /// call after it reports line and column 0 (its offset stays exact).
    ///
    /// # Errors
    ///
    /// In [`EncodeMode::Strict`], the first character `encoding` cannot
    /// hold, with `dst` holding exactly the encoding of the text before it.
    /// The encoder is then spent: later calls return the same error.
    pub fn encode_into_vec(
        &mut self,
        src: &str,
        dst: &mut Vec<u8>,
        last: bool,
    ) -> Result<(), EncodeError> {
        if let Some(e) = &self.failed {
            return Err(e.clone());
        }
        // The BOM goes before the first character (none for empty text, as
        // glibc).
        if !self.started && !src.is_empty() {
            self.started = true;
            if let Kind::Utf16(Order::Bom) | Kind::Utf32(Order::Bom) = self.encoding.kind() {
                dst.extend_from_slice(self.encoding.bom());
            }
        }
        // A single-byte page in a lossy mode substitutes within the page's
        // encoder, not a trip round the loop below a character.
        let lossy = match self.encoding.kind() {
            _ if self.mode == EncodeMode::Strict => None,
            Kind::SingleByte(page) => Some((page, None)),
            Kind::Composing(comp) => Some((comp.page, Some(comp))),
            _ => None,
        };
        if let Some((page, comp)) = lossy {
            lossy_single_byte(page, comp, self.mode, src, dst);
            self.advance(src);
            return Ok(());
        }
        let mut rest = src;
        // A strict encoder to an ASCII-compatible single-byte encoding
        // copies the run of ASCII at the start of the text itself, counting
        // its lines on the way: counted over the output afterwards, they
        // cost as much as the copy.
        let ascii = match self.encoding.kind() {
            Kind::SingleByte(page) => page.ascii_compatible(),
            Kind::Latin1 | Kind::Ascii => true,
            _ => false,
        };
        if ascii && self.mode == EncodeMode::Strict && self.position.counts() {
            let (n, newlines, last) =
                crate::arch::append_ascii_counting(src.as_bytes(), dst, b'\n');
            self.offset += n as u64;
            crate::decoder::advance_counted(&mut self.position, n, newlines, last);
            // The run is ASCII: `n` is at a character boundary.
            rest = src.get(n..).unwrap_or("");
        }
        let mut start = dst.len();
        while let Err((at, ch)) = self.strict(rest, dst, last) {
            self.advance_written(&rest[..at], &dst[start..]);
            let after = at + ch.len_utf8();
            match self.mode {
                EncodeMode::Strict => {
                    let e = EncodeError {
                        encoding: self.encoding,
                        ch,
                        offset: self.offset,
                        line: self.position.line(),
                        column: self.position.column(),
                    };
                    self.failed = Some(e.clone());
                    return Err(e);
                }
                EncodeMode::Replace => self.substitute("?", dst),
                EncodeMode::Substitute(c) => self.substitute(c.encode_utf8(&mut [0; 4]), dst),
                EncodeMode::Skip => {}
                EncodeMode::Ncr => self.substitute(&format!("&#{};", u32::from(ch)), dst),
                EncodeMode::Translit => {
                    let ascii = deunicode::deunicode_char(ch).unwrap_or("?");
                    self.substitute(if ascii.is_empty() { "?" } else { ascii }, dst);
                }
            }
            self.advance(&rest[at..after]);
            rest = &rest[after..];
            start = dst.len();
        }
        if last {
            // No text follows, so no error to name a line in: the pass
            // that counts the last piece's lines is skipped (5% of a
            // one-shot encode into windows-1252), and a later call, against
            // `last`'s word, reports line and column 0.
            self.offset += rest.len() as u64;
            self.position.skip();
        } else {
            self.advance_written(rest, &dst[start..]);
        }
        Ok(())
    }

    /// Encodes a whole `text`, returning a new vector (one shot: the text
    /// is all the input).
    ///
    /// # Errors
    ///
    /// As [`Encoder::encode_into_vec`].
    pub fn encode_to_vec(&mut self, text: &str) -> Result<Vec<u8>, EncodeError> {
        let mut out = Vec::with_capacity(text.len());
        self.encode_into_vec(text, &mut out, true)?;
        Ok(out)
    }

    /// Encodes the longest head of `src`, bytes that may not be UTF-8,
    /// that a single-byte page's checked kernel takes whole (well-formed
    /// UTF-8 of characters the page holds: [`single_byte::encode_checked`]),
    /// moving past it; returns its length: 0 for other encodings, a spent
    /// encoder, or a CPU without such a kernel. The caller encodes the rest
    /// as text.
    pub(crate) fn encode_checked_prefix(&mut self, src: &[u8], dst: &mut Vec<u8>) -> usize {
        let Kind::SingleByte(page) = self.encoding.kind() else {
            return 0;
        };
        if self.failed.is_some() {
            return 0;
        }
        let start = dst.len();
        let n = single_byte::encode_checked(page, src, dst);
        // A byte a character, as `advance_written`.
        self.offset += n as u64;
        if self.mode == EncodeMode::Strict && self.position.counts() {
            let newline = page.encode_char('\n');
            crate::decoder::advance_single_byte(&mut self.position, &dst[start..], newline);
        }
        n
    }

    /// [`Encoder::advance`] past `text`, which the strict encoder wrote as
    /// `written`: a single-byte page (ISO-8859-1 and ASCII too) writes a
    /// byte a character, so its lines and columns are counted on `written`
    /// (the last byte of U+000A found by `memrchr`, those before counted
    /// by the kernel's counter) instead of counting the characters of
    /// `text`.
    fn advance_written(&mut self, text: &str, written: &[u8]) {
        match self.encoding.kind() {
            Kind::SingleByte(page) if self.mode == EncodeMode::Strict => {
                self.offset += text.len() as u64;
                if self.position.counts() {
                    let newline = page.encode_char('\n');
                    crate::decoder::advance_single_byte(&mut self.position, written, newline);
                }
            }
            // A byte a character too, U+000A as 0x0A.
            Kind::Latin1 | Kind::Ascii if self.mode == EncodeMode::Strict => {
                self.offset += text.len() as u64;
                if self.position.counts() {
                    crate::decoder::advance_single_byte(&mut self.position, written, Some(b'\n'));
                }
            }
            _ => self.advance(text),
        }
    }

    fn advance(&mut self, text: &str) {
        self.offset += text.len() as u64;
        // Only a strict encoder's error names a line and column.
        if self.mode == EncodeMode::Strict {
            self.position.advance_text(text.as_bytes());
        }
    }

    /// Writes `text` in place of a character the encoding cannot hold;
    /// if the encoding cannot hold the substitute either, `?`; failing
    /// that, nothing. A substitute written in part is cut back.
    fn substitute(&mut self, text: &str, dst: &mut Vec<u8>) {
        for candidate in [text, "?"] {
            let len = dst.len();
            if self.strict(candidate, dst, false).is_ok() {
                return;
            }
            dst.truncate(len);
        }
    }

    /// Appends the encoding of `src` up to the first character the
    /// encoding cannot hold: `Err((index in src, char))`.
    fn strict(&mut self, src: &str, dst: &mut Vec<u8>, last: bool) -> Result<(), (usize, char)> {
        match self.encoding.kind() {
            Kind::Utf8 | Kind::Wtf8 => dst.extend_from_slice(src.as_bytes()),
            Kind::Cesu8 => dst.extend_from_slice(&utf8_variants::cesu8::encode(src)),
            Kind::Mutf8 => dst.extend_from_slice(&utf8_variants::mutf8::encode(src)),
            Kind::Utf16(order) => {
                let order = fixed(order);
                dst.reserve(2 * src.len());
                for u in src.encode_utf16() {
                    dst.extend_from_slice(&unit16(u, order));
                }
            }
            Kind::Ucs2(order) => {
                for (i, c) in src.char_indices() {
                    let u = u16::try_from(u32::from(c)).map_err(|_| (i, c))?;
                    dst.extend_from_slice(&unit16(u, order));
                }
            }
            Kind::Utf32(order) => {
                dst.reserve(4 * src.len());
                for c in src.chars() {
                    dst.extend_from_slice(&match fixed(order) {
                        Endianness::Little => u32::from(c).to_le_bytes(),
                        Endianness::Big => u32::from(c).to_be_bytes(),
                    });
                }
            }
            Kind::Latin1 => {
                // A step at a time: its run of ASCII copied into the spare
                // capacity, the rest through transcode's kernel into a
                // zeroed slice (in cache).
                let mut i = 0;
                while i < src.len() {
                    let mut end = (i + LATIN1_STEP).min(src.len());
                    while !src.is_char_boundary(end) {
                        end += 1;
                    }
                    let skip = crate::arch::append_ascii(&src.as_bytes()[i..end], dst);
                    // The run is ASCII: `i + skip` is at a character boundary.
                    let rest = src.get(i + skip..end).unwrap_or("");
                    // At most a byte a byte of UTF-8.
                    let at = dst.len();
                    dst.resize(at + rest.len(), 0);
                    match transcode::str_to_latin1(rest, &mut dst[at..]) {
                        Ok(n) => dst.truncate(at + n),
                        Err(e) => {
                            dst.truncate(at + e.written());
                            let read = e.read();
                            // `NotLatin1` names the character at `read`, the
                            // only error a `&str` can meet with this much room.
                            if let Some(c) = rest[read..].chars().next() {
                                return Err((i + skip + read, c));
                            }
                        }
                    }
                    i = end;
                }
            }
            Kind::Ascii => {
                let copied = crate::arch::append_ascii(src.as_bytes(), dst);
                let run = copied + crate::ascii_prefix(&src.as_bytes()[copied..]);
                dst.extend_from_slice(&src.as_bytes()[copied..run]);
                if let Some(c) = src[run..].chars().next() {
                    return Err((run, c));
                }
            }
            Kind::SingleByte(page) => (single_byte::kernel().encode)(page, src, dst)?,
            Kind::Composing(comp) => {
                // The page's kernel; a character it lacks, where the page
                // holds it decomposed, as the letter and its marks. After
                // one, the text goes a character at a time (in Vietnamese
                // the next is a few characters on) until 32 bytes pass
                // without one; then to the kernel in pieces that grow as
                // they go through whole (it sizes its output for all it is
                // given).
                let mut i = 0;
                let mut piece = 64;
                let mut scalar = 0usize;
                while i < src.len() {
                    if scalar > 0 {
                        let Some(c) = src[i..].chars().next() else {
                            break;
                        };
                        if let Some(b) = comp.page.encode_char(c) {
                            dst.push(b);
                        } else {
                            dst.extend_from_slice(comp.decompose(c).ok_or((i, c))?);
                            scalar = 32;
                        }
                        i += c.len_utf8();
                        scalar = scalar.saturating_sub(c.len_utf8());
                        continue;
                    }
                    let mut end = (i + piece).min(src.len());
                    while !src.is_char_boundary(end) {
                        end -= 1;
                    }
                    match (single_byte::kernel().encode)(comp.page, &src[i..end], dst) {
                        Ok(()) => {
                            i = end;
                            piece = (2 * piece).min(1 << 16);
                        }
                        Err((at, c)) => {
                            let bytes = comp.decompose(c).ok_or((i + at, c))?;
                            dst.extend_from_slice(bytes);
                            i += at + c.len_utf8();
                            piece = 64;
                            scalar = 32;
                        }
                    }
                }
            }
            Kind::Utf7 => self.utf7.encode(src, dst, last),
            Kind::Legacy(_) => return self.legacy(src, dst, last),
        }
        Ok(())
    }

    fn legacy(&mut self, src: &str, dst: &mut Vec<u8>, last: bool) -> Result<(), (usize, char)> {
        let Some(encoder) = self.legacy.as_mut() else {
            return Ok(());
        };
        // A character already reported unmappable ends the text encoding_rs
        // is given: it is this call's error without asking again.
        let known = self.unmappable.as_ref().and_then(|u| u.first_in(src));
        let (text, last) = match known {
            Some((at, _)) => (&src[..at], false),
            None => (src, last),
        };
        // Through a buffer of our own, not `encode_from_utf8_to_vec`: that
        // touches a byte of every page of the `Vec`'s spare capacity on each
        // call, which with a character in 30 unmappable (Korean text into
        // Big5) was most of the time.
        let scratch = &mut self.scratch;
        if scratch.is_empty() {
            scratch.resize(LEGACY_PIECE, 0);
        }
        let mut pos = 0;
        loop {
            let (result, read, written) =
                encoder.encode_from_utf8_without_replacement(&text[pos..], scratch, last);
            dst.extend_from_slice(&scratch[..written]);
            pos += read;
            match result {
                encoding_rs::EncoderResult::InputEmpty => {
                    return match known {
                        Some((at, c)) => Err((at, c)),
                        None => Ok(()),
                    };
                }
                encoding_rs::EncoderResult::OutputFull => {}
                encoding_rs::EncoderResult::Unmappable(reported) => {
                    // The character read last. (encoding_rs's ISO-2022-JP
                    // reports ESC, SO and SI as U+FFFD: the input's own
                    // character is named instead.)
                    let c = text[..pos].chars().next_back().unwrap_or(reported);
                    if self.mode != EncodeMode::Strict {
                        self.unmappable
                            .get_or_insert_with(|| Box::new(Unmappable::new()))
                            .insert(c);
                    }
                    return Err((pos.saturating_sub(c.len_utf8()), c));
                }
            }
        }
    }
}

/// [`Encoder::encode_into_vec`] of a single-byte page in a lossy `mode`:
/// the substitute of each character the page cannot hold as
/// [`Encoder::substitute`] writes it (the mode's text if the page holds
/// all of it, else `?`, else nothing), those of the fixed modes encoded
/// once. With `comp` (CP1255, CP1258), a character the page lacks but
/// holds decomposed is written as its letter and marks, as the strict
/// encoder writes it, and only the others are substituted.
fn lossy_single_byte(
    page: &single_byte::SingleByte,
    comp: Option<&Composition>,
    mode: EncodeMode,
    src: &str,
    dst: &mut Vec<u8>,
) {
    // An ASCII-compatible page holds ASCII as it is (every NCR, every
    // transliteration).
    let ascii = page.ascii_compatible();
    let all = |text: &str, dst: &mut Vec<u8>| {
        let len = dst.len();
        for c in text.chars() {
            if let Some(b) = page.encode_char(c) {
                dst.push(b);
            } else if let Some(bytes) = comp.and_then(|k| k.decompose(c)) {
                dst.extend_from_slice(bytes);
            } else {
                dst.truncate(len);
                return false;
            }
        }
        true
    };
    let push = |text: &str, dst: &mut Vec<u8>| {
        if ascii && text.is_ascii() {
            dst.extend_from_slice(text.as_bytes());
            return;
        }
        let _ = all(text, dst) || all("?", dst);
    };
    let fixed = |text: &str| {
        let mut bytes = Vec::new();
        push(text, &mut bytes);
        bytes
    };
    match mode {
        EncodeMode::Ncr => lossy(page, comp, src, dst, |c, dst| {
            let mut buf = [0; 12];
            let bytes = ncr(c, &mut buf);
            if ascii {
                dst.extend_from_slice(bytes);
            } else {
                push(core::str::from_utf8(bytes).unwrap_or("?"), dst);
            }
        }),
        EncodeMode::Translit => lossy(page, comp, src, dst, |c, dst| {
            let ascii = deunicode::deunicode_char(c).unwrap_or("?");
            push(if ascii.is_empty() { "?" } else { ascii }, dst);
        }),
        EncodeMode::Skip => lossy(page, comp, src, dst, |_, _| {}),
        EncodeMode::Strict | EncodeMode::Replace | EncodeMode::Substitute(_) => {
            let sub = match mode {
                EncodeMode::Substitute(c) => fixed(c.encode_utf8(&mut [0; 4])),
                _ => fixed("?"),
            };
            lossy(page, comp, src, dst, |_, dst| dst.extend_from_slice(&sub));
        }
    }
}

/// [`single_byte::encode_lossy`], each character the page lacks written
/// decomposed where `comp` holds it so, else by `substitute`.
fn lossy(
    page: &single_byte::SingleByte,
    comp: Option<&Composition>,
    src: &str,
    dst: &mut Vec<u8>,
    mut substitute: impl FnMut(char, &mut Vec<u8>),
) {
    single_byte::encode_lossy(page, src, dst, |c, dst| {
        match comp.and_then(|k| k.decompose(c)) {
            Some(bytes) => dst.extend_from_slice(bytes),
            None => substitute(c, dst),
        }
    });
}

/// `&#N;` (ASCII), `N` the decimal code point of `c`, written at the end
/// of `buf`.
/// Bytes of UTF-8 a step of the ISO-8859-1 encoder: the zeroed output of
/// a step that is not all ASCII stays in cache.
const LATIN1_STEP: usize = 4096;

fn ncr(c: char, buf: &mut [u8; 12]) -> &[u8] {
    let mut n = u32::from(c);
    // At most 7 digits (U+10FFFF is 1114111) and 3 more bytes.
    let mut k = buf.len() - 1;
    buf[k] = b';';
    loop {
        k -= 1;
        buf[k] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    k -= 2;
    buf[k..k + 2].copy_from_slice(b"&#");
    &buf[k..]
}

/// The byte order written: `UTF-16` and `UTF-32` little-endian after their
/// BOM, as glibc writes them.
fn fixed(order: Order) -> Endianness {
    match order {
        Order::Fixed(o) => o,
        Order::Bom => Endianness::Little,
    }
}

fn unit16(u: u16, order: Endianness) -> [u8; 2] {
    match order {
        Endianness::Little => u.to_le_bytes(),
        Endianness::Big => u.to_be_bytes(),
    }
}
