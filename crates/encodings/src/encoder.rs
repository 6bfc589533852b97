//! [`Encoder`]: UTF-8 text to any encoding, in chunks, with the error modes.
//!
//! Each encoding has a strict step that appends what it can and stops at
//! the first character the encoding cannot hold; the modes are applied
//! here, once for all encodings, by encoding a substitute through the same
//! step (so stateful encoders such as ISO-2022-JP stay consistent).

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
    utf7: crate::utf7::Utf7Encoder,
    failed: Option<EncodeError>,
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
    /// ISO-2022-JP and UTF-7 then return to their initial state).
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
        let mut rest = src;
        while let Err((at, ch)) = self.strict(rest, dst, last) {
            self.advance(&rest[..at]);
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
        }
        self.advance(rest);
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
                // At most a byte a byte of UTF-8.
                let at = dst.len();
                dst.resize(at + src.len(), 0);
                match transcode::str_to_latin1(src, &mut dst[at..]) {
                    Ok(n) => dst.truncate(at + n),
                    Err(e) => {
                        dst.truncate(at + e.written());
                        let read = e.read();
                        // `NotLatin1` names the character at `read`, the only
                        // error a `&str` can meet with this much room.
                        if let Some(c) = src[read..].chars().next() {
                            return Err((read, c));
                        }
                    }
                }
            }
            Kind::Ascii => {
                let run = crate::ascii_prefix(src.as_bytes());
                dst.extend_from_slice(&src.as_bytes()[..run]);
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
        let mut pos = 0;
        loop {
            let need = encoder
                .max_buffer_length_from_utf8_without_replacement(src.len() - pos)
                .unwrap_or(4 * (src.len() - pos) + 16);
            dst.reserve(need);
            let (result, read) =
                encoder.encode_from_utf8_to_vec_without_replacement(&src[pos..], dst, last);
            pos += read;
            match result {
                encoding_rs::EncoderResult::InputEmpty => return Ok(()),
                encoding_rs::EncoderResult::OutputFull => {}
                encoding_rs::EncoderResult::Unmappable(reported) => {
                    // The character read last. (encoding_rs's ISO-2022-JP
                    // reports ESC, SO and SI as U+FFFD: the input's own
                    // character is named instead.)
                    let c = src[..pos].chars().next_back().unwrap_or(reported);
                    return Err((pos.saturating_sub(c.len_utf8()), c));
                }
            }
        }
    }
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
