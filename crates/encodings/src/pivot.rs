//! The zero-copy pipeline between the Unicode forms: UTF-8, UTF-16 and
//! UTF-32 (either order, or from a BOM), ISO-8859-1, CESU-8, MUTF-8 and
//! WTF-8, a chunk at a time, with the chunk cuts and the absolute error
//! offsets a stream needs.
//!
//! [`crate::Decoder`] and [`crate::Encoder`] convert these too, through a
//! `String`. This module exists beside them for what a fast pipe of large
//! files needs and they do not give: a [`Decoder`] borrows valid UTF-8
//! input instead of copying it ([`Decoder::valid_utf8`]; the copy was 10%
//! of a UTF-8 → UTF-16LE conversion's profile), writes UTF-16 → UTF-8
//! straight into bytes (a `String` costs a second validation pass, 19% of
//! UTF-16LE → UTF-8), hands its and the [`Encoder`]'s buffers to the caller
//! whole ([`Pivot::utf8_buffer`], [`Encoder::buffer`]: a parallel run
//! queues them instead of copying, 20% of its CPU time), and pivots through
//! UTF-16 code units between WTF-8 and UTF-16 ([`Pivot::Units`]) so that
//! lone surrogates survive, which UTF-8 cannot hold.
//!
//! Every conversion is a library's: UTF-8 is validated by `utf8-simd`,
//! UTF-16, UTF-32 and Latin-1 are converted by `transcode`'s SIMD kernels,
//! CESU-8, MUTF-8 and WTF-8 by `utf8-variants`. What is here decides where
//! a chunk may be cut (a character, a surrogate pair or a code unit split
//! between chunks is left for the next one: at most [`MAX_CARRY`] bytes),
//! keeps the absolute offsets, and words the errors.
//!
//! Strict decoding stops at the first invalid sequence with its absolute
//! offset; lossy decoding writes one U+FFFD where Rust's lossy functions
//! write one (`String::from_utf8_lossy` for UTF-8, `char::decode_utf16` for
//! UTF-16: one per unpaired surrogate; one per invalid UTF-32 unit; one per
//! invalid piece of the UTF-8 variants, as their `decode_lossy`), and one
//! for an unfinished character at the end.
//!
//! ```
//! use encodings::pivot::{Decoder, Encoder, Form, Pivot};
//!
//! // UTF-16LE to UTF-8, in two chunks cut inside a character.
//! let input = b"h\0\xE9\0\x3D\xD8\x00\xDE";
//! let (from, to) = (Form::Utf16Le, Form::Utf8);
//! let mut decoder = Decoder::new(from, false);
//! let mut encoder = Encoder::new(to, false);
//! let mut pivot = Pivot::for_pair(from, to);
//! let mut out = Vec::new();
//! let used = decoder.decode(&input[..5], false, &mut pivot)?;
//! assert_eq!(used, 4); // the half unit waits for the next chunk
//! out.extend_from_slice(encoder.encode(pivot.as_ref()).unwrap());
//! pivot.clear();
//! decoder.decode(&input[used..], true, &mut pivot)?;
//! out.extend_from_slice(encoder.encode(pivot.as_ref()).unwrap());
//! assert_eq!(out, "hé😀".as_bytes());
//!
//! // Errors name the byte offset in the whole input.
//! let mut decoder = Decoder::new(Form::Utf16Le, false);
//! let err = decoder
//!     .decode(b"a\0\x00\xD8b\0", true, &mut Pivot::Text(String::new()))
//!     .unwrap_err();
//! assert_eq!((err.offset, err.to_string().as_str()),
//!     (2, "invalid UTF-16LE (unpaired surrogate D800) at byte 2: 00 d8"));
//! # Ok::<(), encodings::pivot::Error>(())
//! ```

use crate::decoder::{push_valid, utf8_chunk, variant_chunk};
use codec_core::utf8::unfinished_start;
use std::borrow::Cow;
use std::fmt;
use transcode::{self, Endianness, Utf16ErrorKind, Utf32ErrorKind};
use utf8_variants::{self, Bom, Variant, cesu8, mutf8, wtf8};

/// The most bytes a [`Decoder`] leaves for the next chunk, rounded up: an
/// unfinished CESU-8 surrogate pair is 5 bytes; an unfinished WTF-8
/// character before a lead surrogate held back, 6.
pub const MAX_CARRY: usize = 8;

/// A Unicode form (or ISO-8859-1) this pipeline converts: the registry's
/// encodings of the same names ([`Form::of`], [`Form::encoding`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Form {
    /// UTF-8.
    Utf8,
    /// UTF-16, little-endian.
    Utf16Le,
    /// UTF-16, big-endian.
    Utf16Be,
    /// UTF-16, byte order from a BOM (little-endian without one, as glibc's
    /// iconv and Python read it).
    Utf16,
    /// UTF-32, little-endian.
    Utf32Le,
    /// UTF-32, big-endian.
    Utf32Be,
    /// UTF-32, byte order from a BOM (little-endian without one).
    Utf32,
    /// ISO-8859-1: one byte per character, U+0000 to U+00FF.
    Latin1,
    /// CESU-8: UTF-8 with supplementary characters as two 3-byte surrogates.
    Cesu8,
    /// Java's modified UTF-8: CESU-8 with U+0000 as `C0 80`.
    Mutf8,
    /// WTF-8: UTF-8 that also holds unpaired surrogates.
    Wtf8,
}

/// Every form, its name in messages, and the registry's name for it.
const FORMS: [(Form, &str, &str); 11] = [
    (Form::Utf8, "UTF-8", "UTF-8"),
    (Form::Utf16Le, "UTF-16LE", "UTF-16LE"),
    (Form::Utf16Be, "UTF-16BE", "UTF-16BE"),
    (Form::Utf16, "UTF-16", "UTF-16"),
    (Form::Utf32Le, "UTF-32LE", "UTF-32LE"),
    (Form::Utf32Be, "UTF-32BE", "UTF-32BE"),
    (Form::Utf32, "UTF-32", "UTF-32"),
    (Form::Latin1, "LATIN-1", "ISO-8859-1"),
    (Form::Cesu8, "CESU-8", "CESU-8"),
    (Form::Mutf8, "MUTF-8", "MUTF-8"),
    (Form::Wtf8, "WTF-8", "WTF-8"),
];

impl Form {
    /// The form of a registry encoding, if this pipeline converts it.
    ///
    /// ```
    /// use encodings::{Encoding, pivot::Form};
    ///
    /// let e = Encoding::for_label("latin1").unwrap();
    /// assert_eq!(Form::of(e), Some(Form::Latin1));
    /// assert_eq!(Form::of(Encoding::for_label("CP1251").unwrap()), None);
    /// ```
    #[must_use]
    pub fn of(encoding: crate::Encoding) -> Option<Form> {
        FORMS
            .iter()
            .find(|(_, _, registry)| *registry == encoding.name())
            .map(|(f, ..)| *f)
    }

    /// The registry's encoding of this form.
    #[must_use]
    pub fn encoding(self) -> crate::Encoding {
        let (_, _, registry) = FORMS[self as usize];
        // Every registry name above is in the registry (a test checks it).
        crate::Encoding::for_label(registry).unwrap_or(crate::Encoding::UTF_8)
    }

    /// The name errors use.
    #[must_use]
    pub fn name(self) -> &'static str {
        FORMS[self as usize].1
    }

    /// Every form.
    pub fn all() -> impl Iterator<Item = Form> {
        FORMS.iter().map(|(f, ..)| *f)
    }

    /// Whether the byte order is not named, so a BOM decides it on input
    /// and is written on output.
    #[must_use]
    pub fn unmarked(self) -> bool {
        matches!(self, Form::Utf16 | Form::Utf32)
    }

    fn is_utf16(self) -> bool {
        matches!(self, Form::Utf16 | Form::Utf16Le | Form::Utf16Be)
    }

    fn is_utf32(self) -> bool {
        matches!(self, Form::Utf32 | Form::Utf32Le | Form::Utf32Be)
    }

    /// The byte order named by the encoding (unmarked ones are written
    /// little-endian, as glibc's iconv writes them).
    fn order(self) -> Endianness {
        match self {
            Form::Utf16Be | Form::Utf32Be => Endianness::Big,
            _ => Endianness::Little,
        }
    }

    /// The bytes of a byte order mark in this encoding (none for Latin-1).
    #[must_use]
    pub fn bom(self) -> &'static [u8] {
        let bom = match (self, self.order()) {
            (Form::Latin1, _) => return &[],
            (e, Endianness::Little) if e.is_utf16() => Bom::Utf16Le,
            (e, _) if e.is_utf16() => Bom::Utf16Be,
            (e, Endianness::Little) if e.is_utf32() => Bom::Utf32Le,
            (e, _) if e.is_utf32() => Bom::Utf32Be,
            // UTF-8 and its variants write U+FEFF as EF BB BF.
            _ => Bom::Utf8,
        };
        bom.as_bytes()
    }
}

impl fmt::Display for Form {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// An invalid sequence in the input, or a character the output cannot hold.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Error {
    /// Absolute byte offset in the input.
    pub offset: u64,
    /// The offending input bytes (at most 4).
    pub bytes: Vec<u8>,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} at byte {}", self.message, self.offset)?;
        if !self.bytes.is_empty() {
            write!(f, ": {}", hex(&self.bytes))?;
        }
        Ok(())
    }
}

/// What a [`Decoder`] hands to an [`Encoder`]: UTF-8 text, or UTF-16 code
/// units where lone surrogates must survive.
#[derive(Debug)]
pub enum Pivot {
    /// Text (every pair but those of [`Pivot::Units`]).
    Text(String),
    /// Potentially ill-formed UTF-16: between WTF-8 and UTF-16, and from
    /// WTF-8 to WTF-8.
    Units(Vec<u16>),
    /// UTF-8 bytes, the first `len` of `buf` (which only grows): from
    /// UTF-16 or Latin-1 to UTF-8, where no `&str` is needed.
    Utf8 {
        /// The bytes.
        buf: Vec<u8>,
        /// How many are the text.
        len: usize,
    },
}

impl Pivot {
    /// An empty pivot for converting `from` into `to`.
    #[must_use]
    pub fn for_pair(from: Form, to: Form) -> Pivot {
        let wide = |e: Form| e == Form::Wtf8 || e.is_utf16();
        if wide(from) && wide(to) && (from == Form::Wtf8 || to == Form::Wtf8) {
            Pivot::Units(Vec::new())
        } else if (from.is_utf16() || from == Form::Latin1) && to == Form::Utf8 {
            Pivot::Utf8 {
                buf: Vec::new(),
                len: 0,
            }
        } else {
            Pivot::Text(String::new())
        }
    }

    /// Empties it, keeping its memory.
    pub fn clear(&mut self) {
        match self {
            Pivot::Text(t) => t.clear(),
            Pivot::Units(u) => u.clear(),
            Pivot::Utf8 { len, .. } => *len = 0,
        }
    }

    /// The buffer of [`Pivot::Utf8`], whose first `len` bytes are the text
    /// (which the encoder for UTF-8 passes through): a parallel run takes
    /// it instead of copying the bytes, leaving another buffer in its place.
    pub fn utf8_buffer(&mut self) -> Option<&mut Vec<u8>> {
        match self {
            Pivot::Utf8 { buf, .. } => Some(buf),
            _ => None,
        }
    }

    /// A view of all of it.
    #[must_use]
    pub fn as_ref(&self) -> PivotRef<'_> {
        match self {
            Pivot::Text(t) => PivotRef::Text(t),
            Pivot::Units(u) => PivotRef::Units(u),
            Pivot::Utf8 { buf, len } => PivotRef::Utf8(&buf[..*len]),
        }
    }
}

/// A view of (part of) a [`Pivot`].
#[derive(Clone, Copy, Debug)]
pub enum PivotRef<'a> {
    /// Text.
    Text(&'a str),
    /// UTF-16 code units.
    Units(&'a [u16]),
    /// Valid UTF-8 bytes.
    Utf8(&'a [u8]),
}

impl<'a> PivotRef<'a> {
    /// Whether it holds nothing.
    #[must_use]
    pub fn is_empty(self) -> bool {
        match self {
            PivotRef::Text(t) => t.is_empty(),
            PivotRef::Units(u) => u.is_empty(),
            PivotRef::Utf8(b) => b.is_empty(),
        }
    }

    /// What follows a leading U+FEFF, if it starts with one.
    #[must_use]
    pub fn after_bom(self) -> Option<PivotRef<'a>> {
        match self {
            PivotRef::Text(t) => t.strip_prefix('\u{FEFF}').map(PivotRef::Text),
            PivotRef::Units(u) => u.strip_prefix(&[0xFEFF]).map(PivotRef::Units),
            PivotRef::Utf8(b) => b.strip_prefix("\u{FEFF}".as_bytes()).map(PivotRef::Utf8),
        }
    }
}

/// A streaming decoder into the pivot.
#[derive(Clone, Debug)]
pub struct Decoder {
    encoding: Form,
    lossy: bool,
    /// For UTF-16 and UTF-32: the byte order, once known.
    order: Option<Endianness>,
    /// Absolute offset of the next input byte.
    offset: u64,
    /// UTF-32 input as units (reused from chunk to chunk).
    wide: Vec<u32>,
}

impl Decoder {
    /// A decoder at the start of an input.
    #[must_use]
    pub fn new(encoding: Form, lossy: bool) -> Decoder {
        let order = match encoding {
            Form::Utf16Le | Form::Utf32Le => Some(Endianness::Little),
            Form::Utf16Be | Form::Utf32Be => Some(Endianness::Big),
            _ => None,
        };
        Decoder {
            encoding,
            lossy,
            order,
            offset: 0,
            wide: Vec::new(),
        }
    }

    /// The byte order of UTF-16 or UTF-32 input that starts with `head`
    /// (its first 4 bytes, or all of it if shorter): named, or from a BOM.
    /// `None` for the other encodings. The decoder keeps it, so a copy
    /// [`Decoder::resumed_at`] a later offset reads with the file's order.
    pub fn byte_order(&mut self, head: &[u8]) -> Option<Endianness> {
        match self.encoding {
            e if e.is_utf16() => self.order(head, true, 2),
            e if e.is_utf32() => self.order(head, true, 4),
            _ => None,
        }
    }

    /// This decoder, set to decode input that starts at absolute `offset`
    /// (a region of a file cut where a sequential decoder starts afresh;
    /// error offsets count from there).
    #[must_use]
    pub fn resumed_at(mut self, offset: u64) -> Decoder {
        self.offset = offset;
        self
    }

    /// Decodes a prefix of `input`, appending to `out`, and returns how many
    /// bytes it consumed; the rest (6 bytes at most: an unfinished
    /// character, surrogate pair or code unit) must be passed again, in
    /// front of the next chunk. `last` says no more input follows.
    pub fn decode(&mut self, input: &[u8], last: bool, out: &mut Pivot) -> Result<usize, Error> {
        let n = match out {
            Pivot::Text(text) => match self.encoding {
                Form::Utf8 => self.utf8(input, last, text)?,
                Form::Latin1 => {
                    append(text, transcode::latin1_to_string(input));
                    input.len()
                }
                e if e.is_utf16() => self.utf16_utf8(input, last, Utf8Out::Text(text))?,
                e if e.is_utf32() => self.utf32(input, last, text)?,
                _ => self.variant(input, last, &mut Sink::Text(text))?,
            },
            Pivot::Utf8 { buf, len } if self.encoding == Form::Latin1 => {
                // Every byte is a character of at most 2 UTF-8 bytes.
                let dst = grow(buf, 2 * input.len());
                *len = transcode::latin1_to_utf8(input, dst)
                    .map_err(|e| self.internal_msg(&e.to_string()))?;
                input.len()
            }
            Pivot::Utf8 { buf, len } => {
                *len = 0;
                self.utf16_utf8(input, last, Utf8Out::Bytes(buf, len))?
            }
            Pivot::Units(units) => match self.encoding {
                Form::Wtf8 => self.variant(input, last, &mut Sink::Units(units))?,
                _ => self.utf16_units(input, last, units)?,
            },
        };
        self.offset += n as u64;
        Ok(n)
    }

    /// UTF-8 input that is valid up to an unfinished character at its end:
    /// that text, borrowed instead of copied into a pivot, and the bytes
    /// consumed. `None` (nothing consumed) for any other input or an
    /// invalid chunk, which [`Decoder::decode`] then takes. The copy it
    /// saves was 10% of `convert -f UTF-8 -t UTF-16LE`'s profile.
    pub fn valid_utf8<'a>(&mut self, input: &'a [u8], last: bool) -> Option<(&'a str, usize)> {
        if self.encoding != Form::Utf8 {
            return None;
        }
        let end = if last {
            input.len()
        } else {
            unfinished_start(input)
        };
        let text = utf8_simd::from_utf8(&input[..end]).ok()?;
        self.offset += end as u64;
        Some((text, end))
    }

    fn error(&self, at: usize, bytes: &[u8], message: String) -> Error {
        Error {
            offset: self.offset + at as u64,
            bytes: bytes[..bytes.len().min(4)].to_vec(),
            message,
        }
    }

    fn utf8(&mut self, input: &[u8], last: bool, out: &mut String) -> Result<usize, Error> {
        utf8_chunk(input, last, out, |bad, len, e, out| {
            if !self.lossy {
                return Err(self.error(
                    bad,
                    &input[bad..bad + len],
                    format!("invalid UTF-8 ({})", e.kind()),
                ));
            }
            out.push('\u{FFFD}');
            Ok(())
        })
    }

    /// The byte order of UTF-16 or UTF-32 input (code units of `unit`
    /// bytes): named, or from a BOM (little-endian without one, as glibc's
    /// iconv and Python read it). `None` until a whole unit has arrived.
    /// The BOM itself decodes to U+FEFF, which the caller treats as the
    /// input's BOM.
    fn order(&mut self, input: &[u8], last: bool, unit: usize) -> Option<Endianness> {
        if self.order.is_none() {
            if input.len() < unit && !last {
                return None;
            }
            let big = match unit {
                2 => Bom::detect(input) == Some(Bom::Utf16Be),
                _ => Bom::detect(input) == Some(Bom::Utf32Be),
            };
            self.order = Some(if big {
                Endianness::Big
            } else {
                Endianness::Little
            });
        }
        self.order
    }

    /// UTF-16 to UTF-8, into text or (for UTF-8 output) straight into
    /// bytes: a `String` costs a second pass (transcode validates what it
    /// wrote to hand out a `String` without `unsafe`) and a zeroed
    /// allocation per read, 19% of `convert -f UTF-16LE -t UTF-8`'s profile.
    fn utf16_utf8(
        &mut self,
        input: &[u8],
        last: bool,
        mut out: Utf8Out<'_>,
    ) -> Result<usize, Error> {
        let Some(order) = self.order(input, last, 2) else {
            return Ok(0);
        };
        let end = utf16_cut(input, order, last);
        let body = &input[..end];
        // The stream decides about a mark at its start (`order`); a U+FEFF
        // at the start of a later chunk is text.
        let keep = transcode::ByteOrder::new(order, transcode::BomMode::Keep);
        let converted = match (&mut out, self.lossy) {
            (Utf8Out::Text(text), true) => {
                append(text, transcode::utf16_bytes_to_string_lossy(body, keep));
                Ok(())
            }
            (Utf8Out::Text(text), false) => {
                transcode::utf16_bytes_to_string(body, keep).map(|t| append(text, t))
            }
            (Utf8Out::Bytes(buf, len), lossy) => {
                // At most 3 bytes per unit, U+FFFD included.
                let dst = grow(buf, 3 * body.len() / 2 + 3);
                let n = if lossy {
                    transcode::utf16_bytes_to_utf8_lossy(body, dst, keep)
                        .map_err(|e| self.internal_msg(&e.to_string()))?
                } else {
                    match transcode::utf16_bytes_to_utf8(body, dst, keep) {
                        Ok(n) => n,
                        Err(e) => match e.invalid() {
                            Some(&u) => return Err(self.unpaired(input, last, order, u)),
                            None => return Err(self.internal_msg(&e.to_string())),
                        },
                    }
                };
                **len = n;
                Ok(())
            }
        };
        if let Err(u) = converted {
            return Err(self.unpaired(input, last, order, u));
        }
        if !last {
            return Ok(end);
        }
        if input.len() % 2 == 1 {
            let after_lead =
                end >= 2 && codec_core::utf16::is_lead(unit16(&input[end - 2..end], order));
            if !self.lossy {
                return Err(self.error(
                    end,
                    &input[end..],
                    format!("incomplete {} code unit at end of input", self.encoding),
                ));
            }
            // After a lead surrogate, the U+FFFD written for it stands for
            // the unfinished pair.
            if !after_lead {
                match out {
                    Utf8Out::Text(text) => text.push('\u{FFFD}'),
                    Utf8Out::Bytes(buf, len) => {
                        grow(buf, *len + 3)[*len..].copy_from_slice("\u{FFFD}".as_bytes());
                        *len += 3;
                    }
                }
            }
        }
        Ok(input.len())
    }

    /// The error for transcode's UTF-16 error `e` in `input`.
    fn unpaired(
        &self,
        input: &[u8],
        last: bool,
        order: Endianness,
        e: transcode::Utf16Error,
    ) -> Error {
        let at = 2 * e.valid_up_to();
        let odd = input.len() % 2 == 1;
        if e.kind() == Utf16ErrorKind::Incomplete && last && odd {
            // A lead surrogate and half a unit: one unfinished character
            // (one U+FFFD, as Python counts it).
            return self.error(
                at,
                &[],
                format!("incomplete {} character at end of input", self.encoding),
            );
        }
        let piece = &input[at..(at + 2).min(input.len())];
        let u = if piece.len() == 2 {
            unit16(piece, order)
        } else {
            0
        };
        self.error(
            at,
            piece,
            format!("invalid {} (unpaired surrogate {u:04X})", self.encoding),
        )
    }

    fn internal_msg(&self, what: &str) -> Error {
        Error {
            offset: self.offset,
            bytes: Vec::new(),
            message: format!("internal error: {what}"),
        }
    }

    /// UTF-16 as code units, lone surrogates and all (for WTF-8 output).
    fn utf16_units(
        &mut self,
        input: &[u8],
        last: bool,
        out: &mut Vec<u16>,
    ) -> Result<usize, Error> {
        let Some(order) = self.order(input, last, 2) else {
            return Ok(0);
        };
        // A lead surrogate at the end waits for its trail, which WTF-8 joins
        // with it into one 4-byte character.
        let end = utf16_cut(input, order, last);
        out.extend(input[..end].chunks_exact(2).map(|b| unit16(b, order)));
        if !last {
            return Ok(end);
        }
        if end < input.len() {
            if !self.lossy {
                return Err(self.error(
                    end,
                    &input[end..],
                    format!("incomplete {} code unit at end of input", self.encoding),
                ));
            }
            out.push(0xFFFD);
        }
        Ok(input.len())
    }

    fn utf32(&mut self, input: &[u8], last: bool, out: &mut String) -> Result<usize, Error> {
        let Some(order) = self.order(input, last, 4) else {
            return Ok(0);
        };
        let whole = input.len() / 4 * 4;
        self.wide.clear();
        self.wide
            .extend(input[..whole].chunks_exact(4).map(|b| unit32(b, order)));
        if self.lossy {
            append(out, transcode::utf32_to_string_lossy(&self.wide));
        } else {
            match transcode::utf32_to_string(&self.wide) {
                Ok(text) => append(out, text),
                Err(e) => {
                    let i = e.valid_up_to();
                    let v = self.wide.get(i).copied().unwrap_or_default();
                    let what = match e.kind() {
                        Utf32ErrorKind::Surrogate => "a surrogate",
                        _ => "above U+10FFFF",
                    };
                    return Err(self.error(
                        4 * i,
                        &input[4 * i..4 * i + 4],
                        format!("invalid {} (0x{v:08X} is {what})", self.encoding),
                    ));
                }
            }
        }
        if whole == input.len() || !last {
            return Ok(whole);
        }
        if !self.lossy {
            return Err(self.error(
                whole,
                &input[whole..],
                format!("incomplete {} code unit at end of input", self.encoding),
            ));
        }
        out.push('\u{FFFD}');
        Ok(input.len())
    }

    /// CESU-8, MUTF-8 or WTF-8: validated by utf8-variants, the valid
    /// stretches converted by it, each invalid piece an error or one
    /// U+FFFD (as the crate's `decode_lossy`).
    fn variant(&mut self, input: &[u8], last: bool, out: &mut Sink<'_>) -> Result<usize, Error> {
        let variant = match self.encoding {
            Form::Cesu8 => Variant::Cesu8,
            Form::Mutf8 => Variant::Mutf8,
            _ => Variant::Wtf8,
        };
        variant_chunk(
            variant,
            input,
            last,
            out,
            |pos, valid, out| self.push_variant(variant, pos, valid, out),
            |bad, len, e, out| {
                if !self.lossy {
                    return Err(self.error(
                        bad,
                        &input[bad..bad + len],
                        format!("invalid {} ({})", self.encoding, e.kind()),
                    ));
                }
                match out {
                    Sink::Text(t) => t.push('\u{FFFD}'),
                    Sink::Units(u) => u.push(0xFFFD),
                }
                Ok(())
            },
        )
    }

    /// Appends `valid` (valid in `variant`, at `pos` of this chunk) to
    /// `out`.
    fn push_variant(
        &self,
        variant: Variant,
        pos: usize,
        valid: &[u8],
        out: &mut Sink<'_>,
    ) -> Result<(), Error> {
        let text = match (out, variant) {
            (Sink::Units(units), _) => {
                let iter = wtf8::encode_utf16(valid).map_err(|e| self.internal(&e))?;
                units.extend(iter);
                return Ok(());
            }
            (Sink::Text(text), Variant::Cesu8) => {
                text.push_str(&cesu8::decode(valid).map_err(|e| self.internal(&e))?);
                return Ok(());
            }
            (Sink::Text(text), Variant::Mutf8) => {
                text.push_str(&mutf8::decode(valid).map_err(|e| self.internal(&e))?);
                return Ok(());
            }
            (Sink::Text(text), _) => text,
        };
        if self.lossy {
            // Each lone surrogate becomes U+FFFD.
            text.push_str(&wtf8::to_utf8_lossy(valid));
            return Ok(());
        }
        match utf8_simd::from_utf8(valid) {
            Ok(s) => text.push_str(s),
            Err(e) => {
                // Valid WTF-8 that is not UTF-8: a lone surrogate.
                let at = e.valid_up_to();
                push_valid(text, &valid[..at]);
                let piece = &valid[at..(at + 3).min(valid.len())];
                let unit = wtf8::to_utf16_vec(piece)
                    .ok()
                    .and_then(|u| u.first().copied())
                    .unwrap_or_default();
                return Err(self.error(
                    pos + at,
                    piece,
                    format!(
                        "lone surrogate U+{unit:04X} has no UTF-8 form (only UTF-16 and WTF-8 output keep it)"
                    ),
                ));
            }
        }
        Ok(())
    }

    fn internal(&self, e: &utf8_variants::Error) -> Error {
        Error {
            offset: self.offset,
            bytes: Vec::new(),
            message: format!(
                "internal error: validated {} did not convert ({e})",
                self.encoding
            ),
        }
    }
}

/// Where UTF-16 decoded to UTF-8 goes: text, or the first `len` bytes of a
/// buffer.
enum Utf8Out<'a> {
    Text(&'a mut String),
    Bytes(&'a mut Vec<u8>, &'a mut usize),
}

/// Where a decoder of a UTF-8 variant writes.
enum Sink<'a> {
    Text(&'a mut String),
    Units(&'a mut Vec<u16>),
}

/// Appends `s` to `out`, moving it when `out` is empty.
fn append(out: &mut String, s: String) {
    if out.is_empty() {
        *out = s;
    } else {
        out.push_str(&s);
    }
}

fn unit16(b: &[u8], order: Endianness) -> u16 {
    codec_core::utf16::unit([b[0], b[1]], order)
}

fn unit32(b: &[u8], order: Endianness) -> u32 {
    let b = [b[0], b[1], b[2], b[3]];
    match order {
        Endianness::Little => u32::from_le_bytes(b),
        Endianness::Big => u32::from_be_bytes(b),
    }
}

/// The end of the whole code units of UTF-16 `input` that can be converted
/// now: all of them if `last`, else all but a lead surrogate at the end,
/// which waits for its trail.
fn utf16_cut(input: &[u8], order: Endianness, last: bool) -> usize {
    let even = input.len() & !1;
    if !last && even >= 2 && codec_core::utf16::is_lead(unit16(&input[even - 2..even], order)) {
        even - 2
    } else {
        even
    }
}

/// Why an [`Encoder`] stopped.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EncodeError {
    /// A character the output encoding cannot hold, at byte `at` of the
    /// text passed to [`Encoder::encode`].
    Unrepresentable {
        /// Byte index in the text.
        at: usize,
        /// The character.
        ch: char,
    },
    /// A library conversion failed where it cannot (a bug).
    Internal(String),
}

/// A streaming encoder from the pivot.
#[derive(Debug)]
pub struct Encoder {
    encoding: Form,
    lossy: bool,
    /// The output (grown as needed, never shrunk, so it is not zeroed again
    /// for every chunk).
    bytes: Vec<u8>,
    /// UTF-32 output as units.
    wide: Vec<u32>,
}

impl Encoder {
    /// An encoder for `encoding` (unmarked UTF-16 and UTF-32 are written
    /// little-endian, as glibc's iconv writes them).
    #[must_use]
    pub fn new(encoding: Form, lossy: bool) -> Encoder {
        Encoder {
            encoding,
            lossy,
            bytes: Vec::new(),
            wide: Vec::new(),
        }
    }

    /// The buffer [`Encoder::encode`] writes into and returns a prefix of
    /// (for most encodings): a parallel run takes it instead of copying the
    /// bytes, leaving another buffer (grown or not) in its place.
    pub fn buffer(&mut self) -> &mut Vec<u8> {
        &mut self.bytes
    }

    /// The encoding of `body`.
    pub fn encode<'a>(&'a mut self, body: PivotRef<'a>) -> Result<&'a [u8], EncodeError> {
        let order = self.encoding.order();
        match body {
            PivotRef::Units(units) => {
                if self.encoding == Form::Wtf8 {
                    self.bytes = wtf8::from_utf16(units).into_bytes();
                    return Ok(&self.bytes);
                }
                let out = grow(&mut self.bytes, 2 * units.len());
                for (d, &u) in out.chunks_exact_mut(2).zip(units) {
                    d.copy_from_slice(&match order {
                        Endianness::Little => u.to_le_bytes(),
                        Endianness::Big => u.to_be_bytes(),
                    });
                }
                Ok(out)
            }
            PivotRef::Text(text) => self.text(text, order),
            PivotRef::Utf8(bytes) if self.encoding == Form::Utf8 => Ok(bytes),
            PivotRef::Utf8(_) => Err(EncodeError::Internal(format!(
                "UTF-8 bytes given to the {} encoder",
                self.encoding
            ))),
        }
    }

    fn text<'a>(&'a mut self, text: &'a str, order: Endianness) -> Result<&'a [u8], EncodeError> {
        let cow = match self.encoding {
            Form::Utf8 | Form::Wtf8 => return Ok(text.as_bytes()),
            Form::Cesu8 => cesu8::encode(text),
            Form::Mutf8 => mutf8::encode(text),
            Form::Latin1 => return self.latin1(text),
            e if e.is_utf16() => {
                let out = grow(&mut self.bytes, 2 * text.len());
                let n = transcode::str_to_utf16_bytes(text, out, order)
                    .map_err(|e| EncodeError::Internal(e.to_string()))?;
                return Ok(&out[..n]);
            }
            _ => {
                if self.wide.len() < text.len() {
                    self.wide.resize(text.len(), 0);
                }
                let n = transcode::str_to_utf32(text, &mut self.wide)
                    .map_err(|e| EncodeError::Internal(e.to_string()))?;
                let out = grow(&mut self.bytes, 4 * n);
                for (d, &u) in out.chunks_exact_mut(4).zip(&self.wide[..n]) {
                    d.copy_from_slice(&match order {
                        Endianness::Little => u.to_le_bytes(),
                        Endianness::Big => u.to_be_bytes(),
                    });
                }
                return Ok(out);
            }
        };
        match cow {
            Cow::Borrowed(b) => Ok(b),
            Cow::Owned(v) => {
                self.bytes = v;
                Ok(&self.bytes)
            }
        }
    }

    /// Latin-1: each character above U+00FF is an error, or `?` when lossy
    /// (as iconv's `//TRANSLIT` writes what it cannot transliterate).
    fn latin1(&mut self, text: &str) -> Result<&[u8], EncodeError> {
        let out = grow(&mut self.bytes, text.len());
        let (mut read, mut written) = (0, 0);
        loop {
            match transcode::str_to_latin1(&text[read..], &mut out[written..]) {
                Ok(n) => return Ok(&out[..written + n]),
                Err(e) => {
                    let transcode::ErrorKind::NotLatin1(ch) = *e.kind() else {
                        return Err(EncodeError::Internal(e.to_string()));
                    };
                    if !self.lossy {
                        return Err(EncodeError::Unrepresentable {
                            at: read + e.read(),
                            ch,
                        });
                    }
                    written += e.written();
                    out[written] = b'?';
                    written += 1;
                    read += e.read() + ch.len_utf8();
                }
            }
        }
    }
}

/// Bytes as lowercase hex pairs separated by spaces (`e2 82`).
fn hex(bytes: &[u8]) -> String {
    let pairs: Vec<String> = bytes.iter().map(|b| format!("{b:02x}")).collect();
    pairs.join(" ")
}

/// The first `len` bytes of `buf`, grown to hold them.
fn grow(buf: &mut Vec<u8>, len: usize) -> &mut [u8] {
    if buf.len() < len {
        buf.resize(len, 0);
    }
    &mut buf[..len]
}

/// The input byte offset of the character at byte `at` of `text`, which a
/// strict (lossless) decoder of `encoding` made from input starting at
/// `base`.
#[must_use]
pub fn input_offset(encoding: Form, text: &str, at: usize, base: u64) -> u64 {
    let before = &text[..at];
    let bytes = match encoding {
        e if e.is_utf16() => 2 * transcode::utf16_len(before),
        e if e.is_utf32() => 4 * transcode::count_chars(before),
        Form::Latin1 => transcode::count_chars(before),
        Form::Cesu8 => cesu8::encode(before).len(),
        Form::Mutf8 => mutf8::encode(before).len(),
        _ => before.len(),
    };
    base + bytes as u64
}

#[cfg(test)]
mod tests {
    use super::*;

    fn decode_all(e: Form, lossy: bool, input: &[u8], chunk: usize) -> Result<String, Error> {
        decode_into(e, lossy, input, chunk, Pivot::Text(String::new()))
    }

    /// Decodes `input` in chunks of `chunk` bytes into `pivot` (text, or
    /// UTF-8 bytes) and returns the text.
    fn decode_into(
        e: Form,
        lossy: bool,
        input: &[u8],
        chunk: usize,
        mut pivot: Pivot,
    ) -> Result<String, Error> {
        let mut d = Decoder::new(e, lossy);
        let mut out = String::new();
        let mut pending: Vec<u8> = Vec::new();
        let mut chunks = input.chunks(chunk.max(1)).peekable();
        loop {
            let next = chunks.next();
            if let Some(c) = next {
                pending.extend_from_slice(c);
            }
            let last = chunks.peek().is_none();
            pivot.clear();
            let n = d.decode(&pending, last, &mut pivot)?;
            match pivot.as_ref() {
                PivotRef::Text(t) => out.push_str(t),
                PivotRef::Utf8(b) => out.push_str(std::str::from_utf8(b).unwrap()),
                PivotRef::Units(u) => out.push_str(&String::from_utf16_lossy(u)),
            }
            pending.drain(..n);
            if last {
                assert!(pending.is_empty());
                return Ok(out);
            }
        }
    }

    /// Decodes strictly into UTF-16 code units (the WTF-8 pivot).
    fn decode_units(e: Form, input: &[u8], chunk: usize) -> Result<Vec<u16>, Error> {
        let mut d = Decoder::new(e, false);
        let mut out = Vec::new();
        let mut pivot = Pivot::Units(Vec::new());
        let mut pending: Vec<u8> = Vec::new();
        let mut chunks = input.chunks(chunk.max(1)).peekable();
        loop {
            if let Some(c) = chunks.next() {
                pending.extend_from_slice(c);
            }
            let last = chunks.peek().is_none();
            pivot.clear();
            let n = d.decode(&pending, last, &mut pivot)?;
            if let PivotRef::Units(u) = pivot.as_ref() {
                out.extend_from_slice(u);
            }
            pending.drain(..n);
            if last {
                assert!(pending.is_empty());
                return Ok(out);
            }
        }
    }

    #[test]
    fn every_form_is_its_registry_encoding() {
        for f in Form::all() {
            let e = f.encoding();
            assert_eq!(Form::of(e), Some(f), "{f}");
            assert_eq!(e.name(), FORMS[f as usize].2);
        }
        assert_eq!(
            FORMS
                .iter()
                .filter(|(f, ..)| Form::of(f.encoding()) == Some(*f))
                .count(),
            11
        );
    }

    quickcheck::quickcheck! {
        fn utf16_matches_decode_utf16(units: Vec<u16>, chunk: u8, be: bool) -> bool {
            let (e, bytes): (Form, Vec<u8>) = if be {
                (Form::Utf16Be, units.iter().flat_map(|u| u.to_be_bytes()).collect())
            } else {
                (Form::Utf16Le, units.iter().flat_map(|u| u.to_le_bytes()).collect())
            };
            let lossy: String = char::decode_utf16(units.iter().copied())
                .map(|r| r.unwrap_or('\u{FFFD}'))
                .collect();
            let strict = String::from_utf16(&units).ok();
            let chunk = usize::from(chunk % 7) + 1;
            let utf8 = || Pivot::Utf8 { buf: Vec::new(), len: 0 };
            decode_all(e, true, &bytes, chunk).ok().as_ref() == Some(&lossy)
                && decode_all(e, false, &bytes, chunk).ok() == strict
                && decode_into(e, true, &bytes, chunk, utf8()).ok() == Some(lossy)
                && decode_into(e, false, &bytes, chunk, utf8()).ok() == strict
        }

        fn utf8_matches_from_utf8_lossy(bytes: Vec<u8>, chunk: u8) -> bool {
            let chunk = usize::from(chunk % 7) + 1;
            decode_all(Form::Utf8, true, &bytes, chunk).ok()
                == Some(String::from_utf8_lossy(&bytes).into_owned())
                && decode_all(Form::Utf8, false, &bytes, chunk).ok()
                    == String::from_utf8(bytes.clone()).ok()
        }

        fn variants_match_the_library_at_any_chunking(raw: Vec<u8>, chunk: u8) -> bool {
            // Bytes biased towards surrogates, C0 80 and 4-byte leads, so
            // that pairs are split between chunks often.
            let bytes: Vec<u8> = raw
                .iter()
                .map(|&b| match b % 8 {
                    0 => 0xED,
                    1 => 0xA0 | (b >> 4),
                    2 => 0xB0 | (b >> 4),
                    3 => 0x80 | (b >> 3),
                    4 => 0xC0,
                    5 => 0xF0,
                    6 => 0,
                    _ => b,
                })
                .collect();
            let chunk = usize::from(chunk % 8) + 1;
            let strict = |e| decode_all(e, false, &bytes, chunk).ok();
            let lossy = |e| decode_all(e, true, &bytes, chunk).ok();
            strict(Form::Cesu8) == cesu8::decode(&bytes).ok().map(|c| c.into_owned())
                && lossy(Form::Cesu8) == Some(cesu8::decode_lossy(&bytes).into_owned())
                && strict(Form::Mutf8) == mutf8::decode(&bytes).ok().map(|c| c.into_owned())
                && lossy(Form::Mutf8) == Some(mutf8::decode_lossy(&bytes).into_owned())
                && strict(Form::Wtf8)
                    == utf8_simd::from_utf8(&bytes).ok().map(str::to_string)
                && lossy(Form::Wtf8) == Some(wtf8::to_utf8_lossy(&bytes).into_owned())
                && decode_units(Form::Wtf8, &bytes, chunk).ok() == wtf8::to_utf16_vec(&bytes).ok()
        }

        fn wtf8_units_round_trip(units: Vec<u16>, chunk: u8) -> bool {
            // Any UTF-16, lone surrogates included, through WTF-8 and back,
            // and UTF-16LE bytes to units, at any chunking.
            let chunk = usize::from(chunk % 8) + 1;
            let wtf8 = wtf8::from_utf16(&units).into_bytes();
            let le: Vec<u8> = units.iter().flat_map(|u| u.to_le_bytes()).collect();
            decode_units(Form::Wtf8, &wtf8, chunk).ok().as_ref() == Some(&units)
                && decode_units(Form::Utf16Le, &le, chunk).ok() == Some(units)
        }

        fn utf32_round_trip(text: String, chunk: u8) -> bool {
            let chunk = usize::from(chunk % 7) + 1;
            let mut enc = Encoder::new(Form::Utf32Be, false);
            let bytes = enc.encode(PivotRef::Text(&text)).unwrap().to_vec();
            decode_all(Form::Utf32Be, false, &bytes, chunk).ok() == Some(text)
        }
    }

    #[test]
    fn strict_errors_name_the_offset() {
        let e = decode_all(Form::Utf16Le, false, b"a\0\x00\xd8b\0", 3).unwrap_err();
        assert_eq!((e.offset, e.bytes.as_slice()), (2, &[0x00, 0xD8][..]));
        let e = decode_all(Form::Utf16Le, false, b"a\0b", 1).unwrap_err();
        assert_eq!(e.offset, 2);
        let e = decode_all(Form::Utf32Le, false, b"a\0\0\0\0\xd8\0\0", 5).unwrap_err();
        assert_eq!(e.offset, 4);
        let e = decode_all(Form::Utf8, false, b"ab\xe2\x82", 1).unwrap_err();
        assert_eq!(e.offset, 2);
        let mut enc = Encoder::new(Form::Latin1, false);
        let err = enc.encode(PivotRef::Text("a\u{e9}\u{20ac}")).unwrap_err();
        assert_eq!(
            err,
            EncodeError::Unrepresentable {
                at: 3,
                ch: '\u{20ac}'
            }
        );
        let mut enc = Encoder::new(Form::Latin1, true);
        let out = enc
            .encode(PivotRef::Text("a\u{20ac}\u{e9}\u{1F600}b"))
            .unwrap();
        assert_eq!(out, b"a?\xe9?b");
        assert_eq!(input_offset(Form::Utf16Le, "a\u{1F600}b", 5, 10), 16);
    }
}
