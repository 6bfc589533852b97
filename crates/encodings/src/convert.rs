//! [`Converter`]: one encoding to another, in chunks, with every error
//! named at its byte offset in the input.

use crate::registry::{Kind, Order};
use crate::{DecodeError, DecodeMode, Decoder, EncodeError, EncodeMode, Encoder, Encoding};
use core::fmt;

/// Why a [`Converter`] stopped.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ConvertError {
    /// The input is not valid in its encoding.
    Decode(DecodeError),
    /// A character the output encoding cannot hold.
    Encode {
        /// The encoder's error (its offset counts UTF-8 bytes of the text).
        error: EncodeError,
        /// The byte offset of the character in the input.
        input_offset: u64,
    },
}

impl ConvertError {
    /// The byte offset in the input where the conversion stopped.
    #[must_use]
    pub fn input_offset(&self) -> u64 {
        match self {
            ConvertError::Decode(e) => e.offset(),
            ConvertError::Encode { input_offset, .. } => *input_offset,
        }
    }
}

impl fmt::Display for ConvertError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ConvertError::Decode(e) => e.fmt(f),
            ConvertError::Encode {
                error,
                input_offset,
            } => write!(
                f,
                "U+{:04X} ({:?}) cannot be written in {}, at byte {input_offset} of the input (line {}, column {})",
                u32::from(error.char()),
                error.char(),
                error.encoding(),
                error.line(),
                error.column()
            ),
        }
    }
}

impl std::error::Error for ConvertError {}

/// A streaming conversion from one encoding to another through UTF-8.
///
/// ```
/// use encodings::{Converter, DecodeMode, EncodeMode, Encoding};
///
/// let from = Encoding::for_label("UTF-16LE").unwrap();
/// let to = Encoding::for_label("ISO-8859-1").unwrap();
/// let mut c = Converter::new(from, to, DecodeMode::Strict, EncodeMode::Strict);
/// let mut out = Vec::new();
/// c.convert_into_vec(b"a\0\xE9\0", &mut out, false)?;
/// let err = c.convert_into_vec(b"\xAC\x20", &mut out, true).unwrap_err();
/// assert_eq!(out, b"a\xE9");
/// assert_eq!(err.input_offset(), 4); // the euro sign's first byte
/// # Ok::<(), encodings::ConvertError>(())
/// ```
#[derive(Debug)]
pub struct Converter {
    decoder: Decoder,
    encoder: Encoder,
    /// This call's text.
    text: String,
    /// UTF-8 bytes given to the encoder before this call.
    fed: u64,
    /// The input offset where this call's text starts.
    input_before: u64,
    /// Whether the encoder is strict.
    strict: bool,
}

impl Converter {
    /// A conversion from `from` to `to` with these error modes.
    #[must_use]
    pub fn new(from: Encoding, to: Encoding, decode: DecodeMode, encode: EncodeMode) -> Converter {
        Converter {
            decoder: Decoder::new(from, decode),
            encoder: Encoder::new(to, encode),
            text: String::new(),
            fed: 0,
            input_before: 0,
            strict: encode == EncodeMode::Strict,
        }
    }

    /// A conversion of a region of an input that starts at byte `offset`,
    /// cut where [`Encoding::cut_near`] allows (see [`Decoder::resume`]):
    /// its errors name offsets in the whole input, their line and column
    /// counted from the region's start. Regions converted this way and
    /// joined give what one converter gives over the whole input when the
    /// output encoding keeps no state between characters (all but UTF-7
    /// and ISO-2022-JP) and nothing fails.
    ///
    /// ```
    /// use encodings::{Converter, DecodeMode, EncodeMode, Encoding};
    ///
    /// let from = Encoding::for_label("CP1251").unwrap();
    /// let input = b"\xCF\xF0\xE8\xE2\xE5\xF2"; // Привет
    /// let cut = from.cut_near(input, 3).unwrap();
    /// let mut out = Vec::new();
    /// for (start, end) in [(0, cut), (cut, input.len())] {
    ///     let mut c = Converter::resume(
    ///         from, Encoding::UTF_8, DecodeMode::Strict, EncodeMode::Strict, start as u64, input,
    ///     );
    ///     c.convert_into_vec(&input[start..end], &mut out, true)?;
    /// }
    /// assert_eq!(out, "Привет".as_bytes());
    /// # Ok::<(), encodings::ConvertError>(())
    /// ```
    #[must_use]
    pub fn resume(
        from: Encoding,
        to: Encoding,
        decode: DecodeMode,
        encode: EncodeMode,
        offset: u64,
        head: &[u8],
    ) -> Converter {
        let mut c = Converter::new(from, to, decode, encode);
        c.decoder = Decoder::resume(from, decode, offset, head);
        c.input_before = offset;
        c
    }

    /// This converter without the lines and columns of its errors (see
    /// [`Decoder::without_positions`]): they read 0, the offsets stay exact,
    /// and the passes that count lines are skipped.
    ///
    /// ```
    /// use encodings::{ConvertError, Converter, DecodeMode, EncodeMode, Encoding};
    ///
    /// let from = Encoding::for_label("KOI8-R").unwrap();
    /// let to = Encoding::for_label("ISO-8859-1").unwrap();
    /// let mut c = Converter::new(from, to, DecodeMode::Strict, EncodeMode::Strict)
    ///     .without_positions();
    /// let mut out = Vec::new();
    /// let err = c.convert_into_vec(b"a\nb\xF0", &mut out, true).unwrap_err(); // П
    /// let ConvertError::Encode { error, input_offset } = err else { panic!("{err}") };
    /// assert_eq!((input_offset, error.line(), error.column()), (3, 0, 0));
    /// assert_eq!(out, b"a\nb");
    /// ```
    #[must_use]
    pub fn without_positions(mut self) -> Converter {
        self.decoder = self.decoder.without_positions();
        self.encoder = self.encoder.without_positions();
        self
    }

    /// Converts `src`, the next chunk of the input, appending to `dst`;
    /// `last` says no more input follows.
    ///
    /// # Errors
    ///
    /// The first invalid input (strict decoding) or character the output
    /// cannot hold (strict encoding), with its offset in the input; `dst`
    /// then holds the conversion of everything before it.
    ///
    /// The input offset of an unmappable character is found by encoding the
    /// text before it in the input's encoding: exact where each character
    /// has one form in it (every single-byte page and Unicode form; in the
    /// CJK encodings, all but a few duplicated codes) and the input was
    /// decoded strictly. In the stateful encodings (UTF-7, ISO-2022-JP) it
    /// is exact within the first chunk and approximate after: the shift
    /// state of the text before the chunk is not counted.
    pub fn convert_into_vec(
        &mut self,
        src: &[u8],
        dst: &mut Vec<u8>,
        last: bool,
    ) -> Result<(), ConvertError> {
        if dst.is_empty() && matches!(self.encoder.encoding().kind(), Kind::Utf8) {
            // UTF-8 output holds every character: the text is decoded
            // straight into `dst` (empty, so it is a `String` at no cost)
            // instead of into `text` and copied, a pass over the output
            // saved.
            let mut out = String::from_utf8(core::mem::take(dst)).unwrap_or_default();
            let decoded = self.decoder.decode_into_string(src, &mut out, last);
            self.fed += out.len() as u64;
            *dst = out.into_bytes();
            self.input_before = self.decoder.offset();
            return decoded.map_err(ConvertError::Decode);
        }
        if self.decoder.utf8_open() {
            return self.convert_utf8(src, dst, last);
        }
        self.convert_text(src, dst, last)
    }
}

impl Converter {
    /// [`Converter::convert_into_vec`] from UTF-8: valid text is its own
    /// text, encoded where it lies instead of copied into `text` (the
    /// copy and the pages of a new `text` were a sixth of `codec
    /// convert`'s CPU time from UTF-8 to CP1251). The decoder takes only
    /// the bytes that finish a character held from the last chunk, an
    /// unfinished one at the end (held for the next), and a chunk with
    /// anything invalid.
    fn convert_utf8(
        &mut self,
        src: &[u8],
        dst: &mut Vec<u8>,
        last: bool,
    ) -> Result<(), ConvertError> {
        let need = self.decoder.utf8_needs().min(src.len());
        let (head, rest) = src.split_at(need);
        if head.is_empty() && rest.is_empty() {
            // Nothing to pass: the decoder and the encoder may still have
            // to finish (`last`).
            return self.convert_text(rest, dst, last);
        }
        if !head.is_empty() {
            self.convert_text(head, dst, last && rest.is_empty())?;
        }
        if rest.is_empty() {
            return Ok(());
        }
        if !self.decoder.utf8_open() || self.decoder.utf8_needs() > 0 {
            return self.convert_text(rest, dst, last);
        }
        // The character that the chunk's last bytes begin, if unfinished
        // (up to 3 bytes from the last that is not a continuation byte).
        let end = if last {
            rest.len()
        } else {
            unfinished_start(rest)
        };
        // A single-byte output: its checked kernel encodes the chunk's
        // well-formed head of characters the page holds without the
        // validator's pass over it first (a fifth of `codec convert`'s
        // CPU time from UTF-8 to CP1252); the rest as any other UTF-8.
        let taken = self.encoder.encode_checked_prefix(&rest[..end], dst);
        if taken > 0 {
            self.decoder.pass_valid(&rest[..taken]);
            self.fed += taken as u64;
            self.input_before = self.decoder.offset();
        }
        let (rest, end) = (&rest[taken..], end - taken);
        let Ok(valid) = utf8_simd::from_utf8(&rest[..end]) else {
            return self.convert_text(rest, dst, last);
        };
        let tail = &rest[end..];
        self.encode(valid, dst, last && tail.is_empty())?;
        self.decoder.pass_valid(valid.as_bytes());
        self.fed += valid.len() as u64;
        self.input_before = self.decoder.offset();
        if tail.is_empty() {
            return Ok(());
        }
        self.convert_text(tail, dst, last)
    }

    /// [`Converter::convert_into_vec`] through this call's text: decoded
    /// into `text`, then encoded.
    fn convert_text(
        &mut self,
        src: &[u8],
        dst: &mut Vec<u8>,
        last: bool,
    ) -> Result<(), ConvertError> {
        let mut text = core::mem::take(&mut self.text);
        text.clear();
        let decoded = self.decoder.decode_into_string(src, &mut text, last);
        // The text before a decode error is converted first, so that an
        // unmappable character before it is the one reported.
        let encoded = self.encode(&text, dst, last && decoded.is_ok());
        self.text = text;
        encoded?;
        self.fed += self.text.len() as u64;
        // Where the next call's text starts in the input: after what the
        // decoder consumed (a held unfinished character is not text yet).
        // encoding_rs holds an unfinished character inside, unseen, so
        // there the text itself is measured (only a strict encoder, which
        // can fail, needs it).
        self.input_before = match self.decoder.encoding().kind() {
            Kind::Legacy(_) if self.strict => {
                let bom = if self.input_before == 0 {
                    self.decoder.bom_consumed
                } else {
                    0
                };
                self.input_before + bom as u64 + source_len(self.decoder.encoding(), &self.text)
            }
            _ => self.decoder.offset(),
        };
        decoded.map_err(ConvertError::Decode)
    }
}

/// Where the character that `bytes`' last bytes begin starts, if it is
/// unfinished (its lead says more bytes than follow it); else the end.
/// Only the last 4 bytes are looked at: what is before them is the
/// validator's.
fn unfinished_start(bytes: &[u8]) -> usize {
    let n = bytes.len();
    for back in 1..=n.min(4) {
        let b = bytes[n - back];
        if b & 0xC0 != 0x80 {
            let width = match b {
                0xC0..=0xDF => 2,
                0xE0..=0xEF => 3,
                0xF0..=0xF7 => 4,
                _ => 1,
            };
            return if width > back { n - back } else { n };
        }
    }
    n
}

impl Converter {
    /// Encodes `text`, this call's text, appending to `dst`; an
    /// unmappable character is named at its offset in the input.
    fn encode(&mut self, text: &str, dst: &mut Vec<u8>, last: bool) -> Result<(), ConvertError> {
        let Err(error) = self.encoder.encode_into_vec(text, dst, last) else {
            return Ok(());
        };
        let in_text = usize::try_from(error.offset() - self.fed).unwrap_or(0);
        let prefix = text.get(..in_text).unwrap_or_default();
        let bom = if self.input_before == 0 {
            self.decoder.bom_consumed
        } else {
            0
        };
        let input_offset =
            self.input_before + bom as u64 + source_len(self.decoder.encoding(), prefix);
        Err(ConvertError::Encode {
            error,
            input_offset,
        })
    }
}

/// The length in `e` of `text`, which a strict decoder of `e` made.
fn source_len(e: Encoding, text: &str) -> u64 {
    let n = match e.kind() {
        // Without the BOM an encoder of these writes first.
        Kind::Utf16(Order::Bom) => 2 * text.encode_utf16().count(),
        Kind::Utf32(Order::Bom) => 4 * text.chars().count(),
        _ => e
            .encode_to_vec(text, EncodeMode::Skip)
            .map_or(0, |b| b.len()),
    };
    n as u64
}

#[cfg(test)]
mod tests {
    use crate::{Converter, DecodeMode, EncodeMode, Encoding};

    /// Into UTF-8 the text is decoded straight into the output: at every
    /// chunking, and whether the output is empty or not, it is what the
    /// decoder gives, the error included.
    #[test]
    fn into_utf8_is_the_decoders_text_at_every_chunking() {
        // The last input ends inside a UTF-8 character.
        let inputs: [&[u8]; 2] = [
            b"\xCF\xF0\xE8\n\xE2\xE5\x98\xF2 \xFF",
            b"a\xD0\x96\n\xE2\x82",
        ];
        for (name, input) in ["CP1251", "UTF-16LE", "UTF-8", "KOI8-R"]
            .into_iter()
            .flat_map(|n| inputs.map(|i| (n, i)))
        {
            let from = Encoding::for_label(name).expect("known");
            for mode in [DecodeMode::Strict, DecodeMode::Replace] {
                let whole = from.decode_to_string(input, mode);
                for cut in 0..=input.len() {
                    for keep in [false, true] {
                        let mut c = Converter::new(from, Encoding::UTF_8, mode, EncodeMode::Strict);
                        let (mut out, mut got) = (Vec::new(), Vec::new());
                        let r = c
                            .convert_into_vec(&input[..cut], &mut out, false)
                            .and_then(|()| {
                                got.append(&mut out);
                                if keep {
                                    // A non-empty output takes the other path.
                                    out = std::mem::take(&mut got);
                                }
                                c.convert_into_vec(&input[cut..], &mut out, true)
                            });
                        got.append(&mut out);
                        match (&whole, r) {
                            (Ok(text), Ok(())) => assert_eq!(got, text.as_bytes(), "{name}"),
                            (Err(e), Err(crate::ConvertError::Decode(f))) => {
                                assert_eq!(
                                    (e.offset(), e.line(), e.column()),
                                    (f.offset(), f.line(), f.column()),
                                    "{name} cut {cut}"
                                );
                            }
                            (w, r) => panic!("{name} cut {cut}: {w:?} against {r:?}"),
                        }
                    }
                }
            }
        }
    }
}
