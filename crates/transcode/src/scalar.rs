//! The scalar definition of every conversion: one decoder per input
//! encoding ([`Source`]), one encoder per output encoding ([`Sink`]), and
//! [`step`], which converts character by character with exact errors.
//!
//! This is the source of truth. The SIMD kernels only convert prefixes they
//! have checked, and stop before anything they do not handle; everything
//! else, and every error, goes through [`step`]. The decoders follow the
//! standard library exactly: [`Utf16`] pairs surrogates as
//! `char::decode_utf16` does, [`Utf32`] accepts what `char::from_u32`
//! accepts, and a lossy conversion writes U+FFFD where std's lossy functions
//! do. (UTF-8 input is mostly validated by utf8-simd before it gets here,
//! so its decoder, [`Utf8`], only decodes; [`Utf8Checked`] validates, for
//! the conversions whose kernels validate as they convert.)
//!
//! Nothing here panics on any input: a decoder given malformed input that it
//! was promised is valid (which cannot happen through the public API) yields
//! U+FFFD and moves on.

use crate::error::{Utf16Error, Utf16ErrorKind, Utf32Error};
use codec_core::Utf8Error;
use core::convert::Infallible;

/// Why [`step`] (or a whole conversion) stopped before the end of its input.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Stop<E> {
    /// The input is not well-formed here.
    Invalid(E),
    /// The next character is above U+00FF and the output is Latin-1.
    NotLatin1(char),
    /// The output has no room for the next character.
    Full,
}

/// An input encoding: how to read one character.
pub(crate) trait Source {
    /// The code unit: `u8`, `u16` or `u32`.
    type Unit: Copy;
    /// The error of a malformed character.
    type Error: Copy;

    /// The character at `src[i]` (`i < src.len()`) and its length in units,
    /// or the error there.
    fn decode(src: &[Self::Unit], i: usize) -> Result<(char, usize), Self::Error>;
}

/// An output encoding: how to write one character.
pub(crate) trait Sink {
    /// The code unit: `u8`, `u16` or `u32`.
    type Unit: Copy;

    /// Writes `c` at `dst[*o..]` and advances `o`, or says why it cannot.
    /// Writes nothing on failure.
    fn encode<E>(c: char, dst: &mut [Self::Unit], o: &mut usize) -> Result<(), Stop<E>>;
}

/// Converts characters from `src[*i..]` to `dst[*o..]` until `*i >= limit`
/// (finishing a character that starts before `limit`), advancing `i` and
/// `o`. Returns why it stopped early, if it did; then `i` is the position of
/// the character it could not convert.
///
/// With `LOSSY`, malformed input becomes U+FFFD, one for each error the
/// decoder reports, and `Stop::Invalid` never happens.
#[inline]
pub(crate) fn step<S: Source, K: Sink, const LOSSY: bool>(
    src: &[S::Unit],
    i: &mut usize,
    dst: &mut [K::Unit],
    o: &mut usize,
    limit: usize,
) -> Option<Stop<S::Error>>
where
    S::Error: Malformed,
{
    let limit = limit.min(src.len());
    while *i < limit {
        match S::decode(src, *i) {
            Ok((c, len)) => {
                if let Err(stop) = K::encode(c, dst, o) {
                    return Some(stop);
                }
                *i += len;
            }
            Err(e) if LOSSY => {
                if let Err(stop) = K::encode(char::REPLACEMENT_CHARACTER, dst, o) {
                    return Some(stop);
                }
                *i += e.len_in(src.len() - *i);
            }
            Err(e) => return Some(Stop::Invalid(e)),
        }
    }
    None
}

/// What a lossy conversion skips for one error.
pub(crate) trait Malformed {
    /// The number of units one U+FFFD replaces, given `rest` units left.
    fn len_in(&self, rest: usize) -> usize;
}

impl Malformed for Infallible {
    fn len_in(&self, _: usize) -> usize {
        match *self {}
    }
}

impl Malformed for Utf16Error {
    fn len_in(&self, rest: usize) -> usize {
        // An unpaired surrogate is one unit; so is a lead at the end.
        self.error_len().unwrap_or(rest.min(1)).max(1)
    }
}

impl Malformed for Utf32Error {
    fn len_in(&self, _: usize) -> usize {
        1
    }
}

/// UTF-8. As a [`Source`] it must already be known valid (a `&str`, or a
/// prefix utf8-simd has validated); as a [`Sink`] it is always valid.
pub(crate) struct Utf8;

pub(crate) use codec_core::utf8::is_continuation;

impl Source for Utf8 {
    type Unit = u8;
    type Error = Infallible;

    #[inline(always)]
    fn decode(src: &[u8], i: usize) -> Result<(char, usize), Infallible> {
        let rest = src.get(i..).unwrap_or(&[]);
        Ok(decode_valid_utf8(rest).unwrap_or((char::REPLACEMENT_CHARACTER, 1)))
    }
}

/// UTF-8 not known to be valid, as a [`Source`]: each character is checked,
/// and the error is exactly what `core::str::from_utf8` reports for the
/// whole of `src` there. The scalar step of the conversions whose kernel
/// validates as it converts (UTF-8 → Latin-1), which have no separate
/// validation pass.
pub(crate) struct Utf8Checked;

impl Source for Utf8Checked {
    type Unit = u8;
    type Error = Utf8Error;

    #[inline]
    fn decode(src: &[u8], i: usize) -> Result<(char, usize), Utf8Error> {
        let rest = src.get(i..).unwrap_or(&[]);
        if let Some(&b) = rest.first()
            && b < 0x80
        {
            return Ok((char::from(b), 1));
        }
        // A lead C2..=DF and a continuation byte are always a character
        // (U+0080..=U+07FF): the Latin-1 text this source mostly sees
        // (the tables whose UTF-8 → Latin-1 kernel only copies ASCII,
        // NEON's, leave it every other character).
        if let [b0 @ 0xC2..=0xDF, b1 @ 0x80..=0xBF, ..] = *rest
            && let Some(c) = char::from_u32((u32::from(b0 & 0x1F) << 6) | u32::from(b1 & 0x3F))
        {
            return Ok((c, 2));
        }
        // A character is at most 4 bytes: std's validator on them says
        // whether one starts here (then its valid prefix holds it).
        let head = rest.get(..4).unwrap_or(rest);
        let valid = match core::str::from_utf8(head) {
            Ok(s) => s,
            Err(e) => head
                .get(..e.valid_up_to())
                .and_then(|v| core::str::from_utf8(v).ok())
                .unwrap_or(""),
        };
        match valid.chars().next() {
            Some(c) => Ok((c, c.len_utf8())),
            None => Err(Utf8Error::at(src, i)),
        }
    }
}

impl Malformed for Utf8Error {
    fn len_in(&self, rest: usize) -> usize {
        // A truncated character at the end is one U+FFFD for the rest, as
        // `String::from_utf8_lossy` writes it.
        self.error_len().unwrap_or(rest).max(1)
    }
}

/// The character at the start of `s`, which should be valid UTF-8, and its
/// length; `None` if it is not (then the caller substitutes U+FFFD, which on
/// valid input never happens).
#[inline(always)]
pub(crate) fn decode_valid_utf8(s: &[u8]) -> Option<(char, usize)> {
    let b0 = *s.first()?;
    let cont = |k: usize| -> Option<u32> {
        let b = *s.get(k)?;
        is_continuation(b).then_some(u32::from(b & 0x3F))
    };
    let (value, len) = match b0 {
        0x00..=0x7F => (u32::from(b0), 1),
        0xC2..=0xDF => (u32::from(b0 & 0x1F) << 6 | cont(1)?, 2),
        0xE0..=0xEF => (u32::from(b0 & 0x0F) << 12 | cont(1)? << 6 | cont(2)?, 3),
        0xF0..=0xF4 => (
            u32::from(b0 & 0x07) << 18 | cont(1)? << 12 | cont(2)? << 6 | cont(3)?,
            4,
        ),
        _ => return None,
    };
    // Rejects overlong forms (a too-small value for the length), surrogates
    // and values above U+10FFFF, which valid input never has.
    let min = [0, 0, 0x80, 0x800, 0x1_0000][len];
    match char::from_u32(value) {
        Some(c) if value >= min => Some((c, len)),
        _ => None,
    }
}

/// UTF-16 in native `u16`s, decoded as `char::decode_utf16` does.
pub(crate) struct Utf16;

pub(crate) use codec_core::utf16::{is_lead, is_trail};

impl Source for Utf16 {
    type Unit = u16;
    type Error = Utf16Error;

    #[inline(always)]
    fn decode(src: &[u16], i: usize) -> Result<(char, usize), Utf16Error> {
        decode_utf16(|k| src.get(k).copied(), i)
    }
}

/// The character at unit `i` of a UTF-16 text whose units `unit` returns,
/// as `char::decode_utf16` decodes it.
#[inline(always)]
fn decode_utf16(
    unit: impl Fn(usize) -> Option<u16>,
    i: usize,
) -> Result<(char, usize), Utf16Error> {
    let Some(u) = unit(i) else {
        return Err(Utf16Error::new(i, Utf16ErrorKind::Incomplete));
    };
    if let Some(c) = char::from_u32(u32::from(u)) {
        return Ok((c, 1));
    }
    if is_trail(u) {
        return Err(Utf16Error::new(i, Utf16ErrorKind::UnpairedTrail));
    }
    match unit(i + 1) {
        Some(t) if is_trail(t) => {
            let value = 0x1_0000 + ((u32::from(u) & 0x3FF) << 10 | (u32::from(t) & 0x3FF));
            match char::from_u32(value) {
                Some(c) => Ok((c, 2)),
                // Cannot happen: a pair encodes 10000..=10FFFF.
                None => Err(Utf16Error::new(i, Utf16ErrorKind::UnpairedLead)),
            }
        }
        Some(_) => Err(Utf16Error::new(i, Utf16ErrorKind::UnpairedLead)),
        None => Err(Utf16Error::new(i, Utf16ErrorKind::Incomplete)),
    }
}

/// UTF-16 in pairs of bytes: in the native order if `SWAP` is false, in the
/// other one if it is true.
pub(crate) struct Utf16Bytes<const SWAP: bool>;

impl<const SWAP: bool> Utf16Bytes<SWAP> {
    /// The unit `b` holds.
    #[inline(always)]
    pub(crate) const fn get(b: [u8; 2]) -> u16 {
        let u = u16::from_ne_bytes(b);
        if SWAP { u.swap_bytes() } else { u }
    }

    /// The bytes that hold `u`.
    #[inline(always)]
    pub(crate) const fn put(u: u16) -> [u8; 2] {
        let u = if SWAP { u.swap_bytes() } else { u };
        u.to_ne_bytes()
    }
}

impl<const SWAP: bool> Source for Utf16Bytes<SWAP> {
    type Unit = [u8; 2];
    type Error = Utf16Error;

    #[inline(always)]
    fn decode(src: &[[u8; 2]], i: usize) -> Result<(char, usize), Utf16Error> {
        decode_utf16(|k| src.get(k).map(|&b| Self::get(b)), i)
    }
}

impl<const SWAP: bool> Sink for Utf16Bytes<SWAP> {
    type Unit = [u8; 2];

    #[inline(always)]
    fn encode<E>(c: char, dst: &mut [[u8; 2]], o: &mut usize) -> Result<(), Stop<E>> {
        let mut units = [0; 2];
        let units = c.encode_utf16(&mut units);
        match dst.get_mut(*o..*o + units.len()) {
            Some(out) => {
                for (d, &u) in out.iter_mut().zip(units.iter()) {
                    *d = Self::put(u);
                }
                *o += units.len();
                Ok(())
            }
            None => Err(Stop::Full),
        }
    }
}

/// UTF-32 in `u32`s: each unit must be a scalar value.
pub(crate) struct Utf32;

impl Source for Utf32 {
    type Unit = u32;
    type Error = Utf32Error;

    #[inline(always)]
    fn decode(src: &[u32], i: usize) -> Result<(char, usize), Utf32Error> {
        let v = src.get(i).copied().unwrap_or(0xD800);
        match char::from_u32(v) {
            Some(c) => Ok((c, 1)),
            None => Err(Utf32Error::of(i, v)
                .unwrap_or(Utf32Error::new(i, crate::error::Utf32ErrorKind::Surrogate))),
        }
    }
}

/// Latin-1 (ISO 8859-1): each byte is the scalar value of the same number.
pub(crate) struct Latin1;

impl Source for Latin1 {
    type Unit = u8;
    type Error = Infallible;

    #[inline(always)]
    fn decode(src: &[u8], i: usize) -> Result<(char, usize), Infallible> {
        Ok((char::from(src.get(i).copied().unwrap_or(0)), 1))
    }
}

impl Sink for Utf8 {
    type Unit = u8;

    #[inline(always)]
    fn encode<E>(c: char, dst: &mut [u8], o: &mut usize) -> Result<(), Stop<E>> {
        let len = c.len_utf8();
        match dst.get_mut(*o..*o + len) {
            Some(out) => {
                c.encode_utf8(out);
                *o += len;
                Ok(())
            }
            None => Err(Stop::Full),
        }
    }
}

impl Sink for Utf16 {
    type Unit = u16;

    #[inline(always)]
    fn encode<E>(c: char, dst: &mut [u16], o: &mut usize) -> Result<(), Stop<E>> {
        let len = c.len_utf16();
        match dst.get_mut(*o..*o + len) {
            Some(out) => {
                c.encode_utf16(out);
                *o += len;
                Ok(())
            }
            None => Err(Stop::Full),
        }
    }
}

impl Sink for Utf32 {
    type Unit = u32;

    #[inline(always)]
    fn encode<E>(c: char, dst: &mut [u32], o: &mut usize) -> Result<(), Stop<E>> {
        match dst.get_mut(*o) {
            Some(out) => {
                *out = u32::from(c);
                *o += 1;
                Ok(())
            }
            None => Err(Stop::Full),
        }
    }
}

impl Sink for Latin1 {
    type Unit = u8;

    #[inline(always)]
    fn encode<E>(c: char, dst: &mut [u8], o: &mut usize) -> Result<(), Stop<E>> {
        let Ok(b) = u8::try_from(u32::from(c)) else {
            return Err(Stop::NotLatin1(c));
        };
        match dst.get_mut(*o) {
            Some(out) => {
                *out = b;
                *o += 1;
                Ok(())
            }
            None => Err(Stop::Full),
        }
    }
}

/// A whole conversion with [`step`] and nothing else: the portable kernel
/// for `S` to `K`. Converts the longest well-formed prefix that fits, and
/// returns `(read, written)`.
#[inline]
pub(crate) fn convert<S: Source, K: Sink>(src: &[S::Unit], dst: &mut [K::Unit]) -> (usize, usize)
where
    S::Error: Malformed,
{
    let (mut i, mut o) = (0, 0);
    let _ = step::<S, K, false>(src, &mut i, dst, &mut o, src.len());
    (i, o)
}

/// The ASCII prefix of `src` (any bytes) to UTF-16, 8 bytes at a time: the
/// portable ASCII kernel. Stops at the first 8-byte word with a byte above
/// 0x7F (the validating path takes it from there) or near the end.
pub(crate) fn ascii_to_utf16(src: &[u8], dst: &mut [u16]) -> (usize, usize) {
    ascii_widen(src, dst)
}

/// [`ascii_to_utf16`] for UTF-16 in bytes, native order or (`SWAP`)
/// swapped.
pub(crate) fn ascii_to_utf16_bytes<const SWAP: bool>(
    src: &[u8],
    dst: &mut [[u8; 2]],
) -> (usize, usize) {
    let mut n = 0;
    for (word, out) in src.chunks_exact(8).zip(dst.chunks_exact_mut(8)) {
        if word.iter().any(|&b| b >= 0x80) {
            break;
        }
        for (d, &b) in out.iter_mut().zip(word) {
            let u = u16::from(b);
            *d = if SWAP { u.swap_bytes() } else { u }.to_ne_bytes();
        }
        n += 8;
    }
    (n, n)
}

/// [`ascii_to_utf16`] for UTF-32.
pub(crate) fn ascii_to_utf32(src: &[u8], dst: &mut [u32]) -> (usize, usize) {
    ascii_widen(src, dst)
}

/// The ASCII prefix of `src` widened into `dst`, 8 bytes at a time.
fn ascii_widen<D: From<u8>>(src: &[u8], dst: &mut [D]) -> (usize, usize) {
    let mut n = 0;
    for (word, out) in src.chunks_exact(8).zip(dst.chunks_exact_mut(8)) {
        if word.iter().any(|&b| b >= 0x80) {
            break;
        }
        for (d, &b) in out.iter_mut().zip(word) {
            *d = D::from(b);
        }
        n += 8;
    }
    (n, n)
}
