//! The encodings of `codec convert`: names and aliases, byte order marks,
//! and streaming decoders and encoders with UTF-8 as the pivot.
//!
//! Names are matched as iconv matches them: case-insensitively, and here
//! also ignoring `-`, `_` and spaces, so `utf-16le`, `UTF16LE` and
//! `UTF_16_LE` are one name. iconv's names are aliases (`ISO-8859-1`,
//! `LATIN1`, `UCS-4BE`...).
//!
//! The decoders turn a chunk of input into UTF-8 text and say how many
//! bytes they consumed: at most a few bytes of an unfinished character (or
//! code unit) are left for the next chunk, so memory stays bounded. Strict
//! decoding stops at the first invalid sequence with its absolute offset;
//! lossy decoding writes one U+FFFD where Rust's lossy functions write one
//! (`String::from_utf8_lossy` for UTF-8, `char::decode_utf16` for UTF-16:
//! one per unpaired surrogate; one per invalid UTF-32 unit), and one for an
//! unfinished unit at the end.
//!
//! The UTF-8 validator is the SIMD one. The UTF-16 and UTF-32 paths here
//! are scalar (std's `char::decode_utf16` and `encode_utf16`): the
//! `transcode` crate's SIMD transcoders replace them when it lands, and
//! CESU-8, MUTF-8 and WTF-8 are wired to the variants crate then (see the
//! issue).

use codec_facade::utf8_simd;
use std::fmt;

/// An encoding `codec convert` reads or writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Encoding {
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

/// Every encoding with its canonical name and aliases (iconv's first).
const TABLE: &[(Encoding, &str, &[&str])] = &[
    (Encoding::Utf8, "UTF-8", &["UTF8"]),
    (Encoding::Utf16Le, "UTF-16LE", &["UTF16LE"]),
    (Encoding::Utf16Be, "UTF-16BE", &["UTF16BE"]),
    (Encoding::Utf16, "UTF-16", &["UTF16"]),
    (Encoding::Utf32Le, "UTF-32LE", &["UTF32LE", "UCS-4LE"]),
    (
        Encoding::Utf32Be,
        "UTF-32BE",
        &["UTF32BE", "UCS-4BE", "UCS-4", "UCS4"],
    ),
    (Encoding::Utf32, "UTF-32", &["UTF32"]),
    (
        Encoding::Latin1,
        "LATIN-1",
        &[
            "ISO-8859-1",
            "ISO8859-1",
            "ISO_8859-1",
            "ISO_8859-1:1987",
            "LATIN1",
            "L1",
            "CP819",
            "IBM819",
            "CSISOLATIN1",
            "ISO-IR-100",
        ],
    ),
    (Encoding::Cesu8, "CESU-8", &["CESU8"]),
    (
        Encoding::Mutf8,
        "MUTF-8",
        &["MUTF8", "MODIFIED-UTF-8", "JAVA-MODIFIED-UTF-8"],
    ),
    (Encoding::Wtf8, "WTF-8", &["WTF8"]),
];

/// `name` upper-cased without `-`, `_` and spaces.
fn normalize(name: &str) -> String {
    name.chars()
        .filter(|c| !matches!(c, '-' | '_' | ' '))
        .flat_map(char::to_uppercase)
        .collect()
}

impl Encoding {
    /// The encoding of a name or alias.
    #[must_use]
    pub fn from_name(name: &str) -> Option<Encoding> {
        let wanted = normalize(name);
        TABLE.iter().find_map(|(e, canonical, aliases)| {
            (normalize(canonical) == wanted || aliases.iter().any(|a| normalize(a) == wanted))
                .then_some(*e)
        })
    }

    /// The canonical name.
    #[must_use]
    pub fn name(self) -> &'static str {
        TABLE
            .iter()
            .find(|(e, ..)| *e == self)
            .map_or("?", |(_, n, _)| n)
    }

    /// Every encoding: (encoding, name, aliases).
    pub fn all() -> impl Iterator<Item = (Encoding, &'static str, &'static [&'static str])> {
        TABLE.iter().copied()
    }

    /// Whether the byte order is not named, so a BOM decides it on input
    /// and is written on output.
    #[must_use]
    pub fn unmarked(self) -> bool {
        matches!(self, Encoding::Utf16 | Encoding::Utf32)
    }

    /// Whether this build can convert it yet.
    #[must_use]
    pub fn available(self) -> bool {
        !matches!(self, Encoding::Cesu8 | Encoding::Mutf8 | Encoding::Wtf8)
    }
}

impl fmt::Display for Encoding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// An invalid sequence in the input, or a character the output cannot hold.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConvertError {
    /// Absolute byte offset in the input.
    pub offset: u64,
    /// The offending input bytes (at most 4).
    pub bytes: Vec<u8>,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for ConvertError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} at byte {}", self.message, self.offset)?;
        if !self.bytes.is_empty() {
            write!(f, ": {}", crate::hex::format(&self.bytes))?;
        }
        Ok(())
    }
}

/// The byte order of a 16- or 32-bit encoding.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Order {
    Le,
    Be,
}

/// A streaming decoder into UTF-8.
#[derive(Debug)]
pub struct Decoder {
    encoding: Encoding,
    lossy: bool,
    /// For UTF-16 and UTF-32: the byte order, once known.
    order: Option<Order>,
    /// Absolute offset of the next input byte.
    offset: u64,
    /// A high surrogate waiting for its low half (UTF-16), and its absolute
    /// offset.
    high: Option<(u16, u64)>,
}

impl Decoder {
    /// A decoder at the start of an input.
    #[must_use]
    pub fn new(encoding: Encoding, lossy: bool) -> Decoder {
        let order = match encoding {
            Encoding::Utf16Le | Encoding::Utf32Le => Some(Order::Le),
            Encoding::Utf16Be | Encoding::Utf32Be => Some(Order::Be),
            _ => None,
        };
        Decoder {
            encoding,
            lossy,
            order,
            offset: 0,
            high: None,
        }
    }

    /// Decodes a prefix of `input` into `out` and returns how many bytes it
    /// consumed; the rest (a few bytes at most) must be passed again, in
    /// front of the next chunk. `last` says no more input follows.
    pub fn decode(
        &mut self,
        input: &[u8],
        last: bool,
        out: &mut String,
    ) -> Result<usize, ConvertError> {
        let n = match self.encoding {
            Encoding::Utf8 => self.utf8(input, last, out)?,
            Encoding::Latin1 => {
                out.extend(input.iter().map(|&b| char::from(b)));
                input.len()
            }
            Encoding::Utf16 | Encoding::Utf16Le | Encoding::Utf16Be => {
                self.utf16(input, last, out)?
            }
            Encoding::Utf32 | Encoding::Utf32Le | Encoding::Utf32Be => {
                self.utf32(input, last, out)?
            }
            Encoding::Cesu8 | Encoding::Mutf8 | Encoding::Wtf8 => {
                return Err(ConvertError {
                    offset: self.offset,
                    bytes: Vec::new(),
                    message: format!("{} is not available in this build yet", self.encoding),
                });
            }
        };
        self.offset += n as u64;
        Ok(n)
    }

    fn error(&self, at: usize, bytes: &[u8], message: String) -> ConvertError {
        ConvertError {
            offset: self.offset + at as u64,
            bytes: bytes[..bytes.len().min(4)].to_vec(),
            message,
        }
    }

    fn utf8(&mut self, input: &[u8], last: bool, out: &mut String) -> Result<usize, ConvertError> {
        let mut pos = 0;
        while pos < input.len() {
            // One pass: validation and the `&str` together.
            match utf8_simd::from_utf8(&input[pos..]) {
                Ok(valid) => {
                    out.push_str(valid);
                    return Ok(input.len());
                }
                Err(e) => {
                    let bad = pos + e.valid_up_to();
                    push_valid(out, &input[pos..bad]);
                    let len = match e.error_len() {
                        Some(len) => len,
                        None if !last => return Ok(bad),
                        None => input.len() - bad,
                    };
                    if !self.lossy {
                        return Err(self.error(
                            bad,
                            &input[bad..bad + len],
                            format!("invalid UTF-8 ({})", e.kind()),
                        ));
                    }
                    out.push('\u{FFFD}');
                    pos = bad + len;
                }
            }
        }
        Ok(input.len())
    }

    fn utf16(&mut self, input: &[u8], last: bool, out: &mut String) -> Result<usize, ConvertError> {
        let mut pos = 0;
        if self.order.is_none() {
            if input.len() < 2 && !last {
                return Ok(0);
            }
            self.order = Some(match input {
                [0xFE, 0xFF, ..] => Order::Be,
                _ => Order::Le,
            });
            // The BOM itself decodes to U+FEFF, which the caller treats as
            // the input's BOM.
        }
        let order = self.order.unwrap_or(Order::Le);
        let units = input.len() / 2;
        let unit = |i: usize| {
            let b = [input[2 * i], input[2 * i + 1]];
            match order {
                Order::Le => u16::from_le_bytes(b),
                Order::Be => u16::from_be_bytes(b),
            }
        };
        let mut i = 0;
        while i < units {
            let u = unit(i);
            if let Some((high, high_at)) = self.high.take() {
                if (0xDC00..0xE000).contains(&u) {
                    let c = 0x10000 + ((u32::from(high) - 0xD800) << 10) + (u32::from(u) - 0xDC00);
                    out.push(char::from_u32(c).unwrap_or('\u{FFFD}'));
                    i += 1;
                    pos = 2 * i;
                    continue;
                }
                // The high surrogate was unpaired; `u` is looked at again.
                self.unpaired(high_at, high, out)?;
            }
            let at = self.offset + 2 * i as u64;
            match u {
                0xD800..0xDC00 => self.high = Some((u, at)),
                0xDC00..0xE000 => self.unpaired(at, u, out)?,
                _ => out.push(char::from_u32(u32::from(u)).unwrap_or('\u{FFFD}')),
            }
            i += 1;
            pos = 2 * i;
        }
        if !last {
            return Ok(pos);
        }
        let odd = input.len() % 2 == 1;
        if let Some((high, high_at)) = self.high.take() {
            if odd {
                // A high surrogate and half a unit: one unfinished
                // character, one U+FFFD (as Python counts it).
                if !self.lossy {
                    return Err(ConvertError {
                        offset: high_at,
                        bytes: Vec::new(),
                        message: format!("incomplete {} character at end of input", self.encoding),
                    });
                }
                out.push('\u{FFFD}');
                return Ok(input.len());
            }
            self.unpaired(high_at, high, out)?;
        }
        if odd {
            let at = input.len() - 1;
            if !self.lossy {
                return Err(self.error(
                    at,
                    &input[at..],
                    format!("incomplete {} code unit at end of input", self.encoding),
                ));
            }
            out.push('\u{FFFD}');
        }
        Ok(input.len())
    }

    /// An unpaired surrogate `u` at absolute offset `at`.
    fn unpaired(&self, at: u64, u: u16, out: &mut String) -> Result<(), ConvertError> {
        if self.lossy {
            out.push('\u{FFFD}');
            return Ok(());
        }
        let bytes = match self.order {
            Some(Order::Le) => u.to_le_bytes(),
            _ => u.to_be_bytes(),
        };
        Err(ConvertError {
            offset: at,
            bytes: bytes.to_vec(),
            message: format!("invalid {} (unpaired surrogate {u:04X})", self.encoding),
        })
    }

    fn utf32(&mut self, input: &[u8], last: bool, out: &mut String) -> Result<usize, ConvertError> {
        if self.order.is_none() {
            if input.len() < 4 && !last {
                return Ok(0);
            }
            self.order = Some(match input {
                [0, 0, 0xFE, 0xFF, ..] => Order::Be,
                _ => Order::Le,
            });
        }
        let order = self.order.unwrap_or(Order::Le);
        let whole = input.len() / 4 * 4;
        for (i, b) in input[..whole].chunks_exact(4).enumerate() {
            let b = [b[0], b[1], b[2], b[3]];
            let v = match order {
                Order::Le => u32::from_le_bytes(b),
                Order::Be => u32::from_be_bytes(b),
            };
            match char::from_u32(v) {
                Some(c) => out.push(c),
                None if self.lossy => out.push('\u{FFFD}'),
                None => {
                    let what = if (0xD800..0xE000).contains(&v) {
                        "a surrogate"
                    } else {
                        "above U+10FFFF"
                    };
                    return Err(self.error(
                        4 * i,
                        &b,
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
}

/// Appends the valid prefix before an error (checked again: this crate has
/// no `unsafe`; only inputs with errors pay for it).
fn push_valid(out: &mut String, valid: &[u8]) {
    if let Ok(s) = utf8_simd::from_utf8(valid) {
        out.push_str(s);
    }
}

/// A streaming encoder from UTF-8.
#[derive(Debug)]
pub struct Encoder {
    encoding: Encoding,
    lossy: bool,
}

/// A character the output encoding cannot hold: its index in the text
/// passed to [`Encoder::encode`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Unrepresentable {
    /// Byte index in the text.
    pub at: usize,
    /// The character.
    pub ch: char,
}

impl Encoder {
    /// An encoder for `encoding` (unmarked UTF-16 and UTF-32 are written
    /// little-endian, as glibc's iconv writes them).
    #[must_use]
    pub fn new(encoding: Encoding, lossy: bool) -> Encoder {
        Encoder { encoding, lossy }
    }

    /// The bytes of a BOM in this encoding.
    #[must_use]
    pub fn bom(&self) -> Vec<u8> {
        let mut out = Vec::new();
        if self.encoding == Encoding::Latin1 {
            // Latin-1 has no byte order mark.
            return out;
        }
        let _ = self.encode("\u{FEFF}", &mut out);
        out
    }

    /// Appends the encoding of `text` to `out`.
    pub fn encode(&self, text: &str, out: &mut Vec<u8>) -> Result<(), Unrepresentable> {
        match self.encoding {
            Encoding::Utf8 | Encoding::Cesu8 | Encoding::Mutf8 | Encoding::Wtf8 => {
                out.extend_from_slice(text.as_bytes());
            }
            Encoding::Utf16Le | Encoding::Utf16 => {
                put_units(out, text.len(), text.encode_utf16(), u16::to_le_bytes)
            }
            Encoding::Utf16Be => put_units(out, text.len(), text.encode_utf16(), u16::to_be_bytes),
            Encoding::Utf32Le | Encoding::Utf32 => put_units(
                out,
                text.len(),
                text.chars().map(u32::from),
                u32::to_le_bytes,
            ),
            Encoding::Utf32Be => put_units(
                out,
                text.len(),
                text.chars().map(u32::from),
                u32::to_be_bytes,
            ),
            Encoding::Latin1 => {
                for (at, ch) in text.char_indices() {
                    match u8::try_from(u32::from(ch)) {
                        Ok(b) => out.push(b),
                        Err(_) if self.lossy => out.push(b'?'),
                        Err(_) => return Err(Unrepresentable { at, ch }),
                    }
                }
            }
        }
        Ok(())
    }
}

/// Appends the bytes of `units` to `out`. `max_units` bounds their number
/// (the UTF-8 length of the text: no character has more UTF-16 or UTF-32
/// units than UTF-8 bytes). Writing into space made once instead of pushing
/// two or four bytes at a time: 73.5 M instructions down to 70.5 M for
/// `convert -f UTF-8 -t UTF-16LE` of 4 MiB of the benchmark text
/// (callgrind); std's char-by-char decoding of the UTF-8 is 40% of what is
/// left, which the transcode crate's SIMD kernels replace.
fn put_units<U, const N: usize>(
    out: &mut Vec<u8>,
    max_units: usize,
    units: impl Iterator<Item = U>,
    to_bytes: fn(U) -> [u8; N],
) {
    let base = out.len();
    out.resize(base + N * max_units, 0);
    let mut written = 0;
    for (dst, unit) in out[base..].chunks_exact_mut(N).zip(units) {
        dst.copy_from_slice(&to_bytes(unit));
        written += 1;
    }
    out.truncate(base + N * written);
}

/// The input byte offset of the character at byte `at` of `text`, which a
/// strict (lossless) decoder of `encoding` made from input starting at
/// `base`.
#[must_use]
pub fn input_offset(encoding: Encoding, text: &str, at: usize, base: u64) -> u64 {
    let before = &text[..at];
    let bytes = match encoding {
        Encoding::Utf16 | Encoding::Utf16Le | Encoding::Utf16Be => {
            2 * before.encode_utf16().count()
        }
        Encoding::Utf32 | Encoding::Utf32Le | Encoding::Utf32Be => 4 * before.chars().count(),
        Encoding::Latin1 => before.chars().count(),
        _ => before.len(),
    };
    base + bytes as u64
}

#[cfg(test)]
mod tests {
    use super::*;

    fn decode_all(
        e: Encoding,
        lossy: bool,
        input: &[u8],
        chunk: usize,
    ) -> Result<String, ConvertError> {
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
            let n = d.decode(&pending, last, &mut out)?;
            pending.drain(..n);
            if last {
                assert!(pending.is_empty());
                return Ok(out);
            }
        }
    }

    #[test]
    fn names_and_aliases() {
        for (e, name, aliases) in Encoding::all() {
            assert_eq!(Encoding::from_name(name), Some(e));
            assert_eq!(Encoding::from_name(&name.to_lowercase()), Some(e));
            for a in aliases {
                assert_eq!(Encoding::from_name(a), Some(e), "{a}");
            }
        }
        assert_eq!(Encoding::from_name("utf_16_le"), Some(Encoding::Utf16Le));
        assert_eq!(Encoding::from_name("EBCDIC"), None);
    }

    quickcheck::quickcheck! {
        fn utf16_matches_decode_utf16(units: Vec<u16>, chunk: u8, be: bool) -> bool {
            let (e, bytes): (Encoding, Vec<u8>) = if be {
                (Encoding::Utf16Be, units.iter().flat_map(|u| u.to_be_bytes()).collect())
            } else {
                (Encoding::Utf16Le, units.iter().flat_map(|u| u.to_le_bytes()).collect())
            };
            let lossy: String = char::decode_utf16(units.iter().copied())
                .map(|r| r.unwrap_or('\u{FFFD}'))
                .collect();
            let strict = String::from_utf16(&units).ok();
            let chunk = usize::from(chunk % 7) + 1;
            decode_all(e, true, &bytes, chunk).ok() == Some(lossy)
                && decode_all(e, false, &bytes, chunk).ok() == strict
        }

        fn utf8_matches_from_utf8_lossy(bytes: Vec<u8>, chunk: u8) -> bool {
            let chunk = usize::from(chunk % 7) + 1;
            decode_all(Encoding::Utf8, true, &bytes, chunk).ok()
                == Some(String::from_utf8_lossy(&bytes).into_owned())
                && decode_all(Encoding::Utf8, false, &bytes, chunk).ok()
                    == String::from_utf8(bytes.clone()).ok()
        }

        fn utf32_round_trip(text: String, chunk: u8) -> bool {
            let chunk = usize::from(chunk % 7) + 1;
            let mut bytes = Vec::new();
            Encoder::new(Encoding::Utf32Be, false).encode(&text, &mut bytes).unwrap();
            decode_all(Encoding::Utf32Be, false, &bytes, chunk).ok() == Some(text)
        }
    }

    #[test]
    fn strict_errors_name_the_offset() {
        let e = decode_all(Encoding::Utf16Le, false, b"a\0\x00\xd8b\0", 3).unwrap_err();
        assert_eq!((e.offset, e.bytes.as_slice()), (2, &[0x00, 0xD8][..]));
        let e = decode_all(Encoding::Utf16Le, false, b"a\0b", 1).unwrap_err();
        assert_eq!(e.offset, 2);
        let e = decode_all(Encoding::Utf32Le, false, b"a\0\0\0\0\xd8\0\0", 5).unwrap_err();
        assert_eq!(e.offset, 4);
        let e = decode_all(Encoding::Utf8, false, b"ab\xe2\x82", 1).unwrap_err();
        assert_eq!(e.offset, 2);
        let mut out = Vec::new();
        let err = Encoder::new(Encoding::Latin1, false)
            .encode("a\u{e9}\u{20ac}", &mut out)
            .unwrap_err();
        assert_eq!(
            err,
            Unrepresentable {
                at: 3,
                ch: '\u{20ac}'
            }
        );
        assert_eq!(input_offset(Encoding::Utf16Le, "a\u{1F600}b", 5, 10), 16);
    }
}
