//! Lossless conversions of Java strings: CESU-8 or MUTF-8 to and from
//! potentially ill-formed UTF-16 (a Java `String`) and WTF-8, keeping lone
//! surrogates.
//!
//! A Java `String` is a sequence of UTF-16 units that may hold a surrogate
//! without its partner, and `DataOutput.writeUTF` (and JNI's
//! `GetStringUTFChars`) write every unit on its own: 1 byte for
//! `0001..=007F`, 2 for `0000` and `0080..=07FF`, 3 for the rest,
//! surrogates included. The validators ([`Variant::validate`]) follow the
//! JVM specification, which only speaks of surrogates in pairs; the
//! functions here read the *generalized* form: the variant's grammar with
//! any surrogate allowed on its own, a lead not followed by a trail and a
//! trail without a lead. Everything else the variant forbids stays an
//! error with the validator's position, length and kind (a 4-byte form in
//! either, a raw `00` in MUTF-8, `C0 80` in CESU-8, overlong forms).
//!
//! In that grammar every sequence is one UTF-16 unit, so the conversion to
//! UTF-16 is unit by unit and a pair needs no joining; to WTF-8 a lead
//! followed by a trail becomes the 4-byte form of its character (what the
//! strict decoder does) and a lone surrogate keeps its 3 bytes, which are
//! the same in WTF-8.

use crate::error::{Error, ErrorKind, ToUtf16Error, ToUtf16ErrorKind};
use crate::variant::Variant;
#[cfg(feature = "alloc")]
use crate::wtf8::{self, Wtf8Buf};
#[cfg(feature = "alloc")]
use alloc::{borrow::Cow, vec::Vec};
use codec_core::{BufferTooSmall, utf16};

/// Whether `b` is a continuation byte, `10xxxxxx`.
const fn is_cont(b: u8) -> bool {
    b & 0xC0 == 0x80
}

/// Whether `ED b1` starts a surrogate: `b1` is a continuation byte and the
/// units that `ED b1 xx` can encode are surrogates.
fn starts_surrogate(b1: u8) -> bool {
    is_cont(b1) && utf16::is_surrogate(0xD000 | u16::from(b1 & 0x3F) << 6)
}

/// A piece of valid generalized CESU-8 or MUTF-8.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Piece<'a> {
    /// Bytes valid in the variant itself (its validator accepts them).
    Valid(&'a [u8]),
    /// The 3 bytes of one surrogate that the variant does not accept there
    /// (a lead not followed by a trail, or a trail without a lead).
    Lone(&'a [u8]),
}

/// Walks `input` (CESU-8 or MUTF-8 `variant`) as the generalized form,
/// calling `f` with its pieces in order; the error is the first place the
/// generalized form rejects, with the validator's kind and length where the
/// two grammars agree.
///
/// The variant's validator runs from the start and again after each lone
/// surrogate: where it stops, either a surrogate the generalized form
/// accepts starts there, or the two grammars reject the same bytes. (They
/// differ only in sequences that start `ED A0..=BF`, the surrogates.) Each
/// run re-reads at most the 256 bytes before its error (see `crate::simd`).
fn walk<'a>(variant: Variant, input: &'a [u8], mut f: impl FnMut(Piece<'a>)) -> Result<(), Error> {
    let mut done = 0;
    // Whether the last lone surrogate came soon after the one before: then
    // the next likely does too, and the scalar DFA, which stops at the first
    // error, is the cheaper restart (the SIMD path re-reads up to 256 bytes
    // before each error; on 4 MiB of `ED A0 80 61` the scalar restarts took
    // about half the time, on a loaded machine). Both build their errors in
    // `Error::at`, so they agree.
    let mut dense = false;
    loop {
        let rest = input.get(done..).unwrap_or_default();
        let checked = if dense {
            crate::scalar::validate(variant, rest)
        } else {
            variant.validate(rest)
        };
        let e = match checked {
            Ok(()) => {
                f(Piece::Valid(rest));
                return Ok(());
            }
            Err(e) => e,
        };
        let v = e.valid_up_to().min(rest.len());
        let (valid, at) = rest.split_at(v);
        match *at {
            // A surrogate, complete: the generalized form takes it alone.
            [0xED, b1, b2, ..] if starts_surrogate(b1) && is_cont(b2) => {
                f(Piece::Valid(valid));
                f(Piece::Lone(&at[..3]));
                done += v + 3;
                dense = v < 256;
            }
            // The start of a surrogate at the end: more input could finish
            // it (the validator says the same of a lead, but rejects a
            // trail's `ED` on its own).
            [0xED, b1] if starts_surrogate(b1) => {
                return Err(Error::new(variant, done + v, None, ErrorKind::Incomplete));
            }
            // `ED`, a surrogate's second byte, then no continuation byte:
            // the piece is those two bytes, as for any unfinished
            // 3-byte sequence.
            [0xED, b1, _, ..] if starts_surrogate(b1) => {
                return Err(Error::new(variant, done + v, Some(2), ErrorKind::TooShort));
            }
            _ => return Err(e.offset_by(done)),
        }
    }
}

/// `Ok(())` if `input` is generalized CESU-8 or MUTF-8 (see the module
/// docs), else the first error.
pub(crate) fn validate(variant: Variant, input: &[u8]) -> Result<(), Error> {
    walk(variant, input, |_| {})
}

/// The UTF-16 unit of each sequence of valid generalized CESU-8 or MUTF-8
/// `input`, written into `dst` while there is room: `(read, written)`.
/// Nothing after `dst[written]` is touched.
fn decode_units(input: &[u8], dst: &mut [u16]) -> (usize, usize) {
    let (mut i, mut w) = (0, 0);
    loop {
        // 8 ASCII bytes at a time, where there are 8 and room for them.
        if let (Some(src), Some(d)) = (input.get(i..i + 8), dst.get_mut(w..w + 8)) {
            let word = u64::from_le_bytes(src.try_into().unwrap_or([0x80; 8]));
            if word & 0x8080_8080_8080_8080 == 0 {
                for (d, &s) in d.iter_mut().zip(src) {
                    *d = u16::from(s);
                }
                i += 8;
                w += 8;
                continue;
            }
        }
        let (Some(&b0), Some(d)) = (input.get(i), dst.get_mut(w)) else {
            break;
        };
        let b = |k: usize| u16::from(input.get(i + k).copied().unwrap_or(0) & 0x3F);
        let (unit, len) = match b0 {
            0x00..=0x7F => (u16::from(b0), 1),
            // 2 bytes; MUTF-8's C0 80 is 0.
            0xC0..=0xDF => (u16::from(b0 & 0x1F) << 6 | b(1), 2),
            _ => (u16::from(b0 & 0x0F) << 12 | b(1) << 6 | b(2), 3),
        };
        *d = unit;
        i += len;
        w += 1;
    }
    (i.min(input.len()), w)
}

/// How many UTF-16 units valid generalized CESU-8 or MUTF-8 `input` holds:
/// one for each byte that starts a sequence.
fn count_units(input: &[u8]) -> usize {
    input.iter().filter(|&&b| !is_cont(b)).count()
}

/// `input` as UTF-16 into `dst`, lone surrogates kept; see
/// `mutf8::to_utf16`.
pub(crate) fn to_utf16(
    variant: Variant,
    input: &[u8],
    dst: &mut [u16],
) -> Result<usize, ToUtf16Error> {
    let checked = validate(variant, input);
    let end = checked.map_or_else(|e| e.valid_up_to(), |()| input.len());
    let valid = input.get(..end).unwrap_or_default();
    let (read, written) = decode_units(valid, dst);
    if read < valid.len() {
        let needed = BufferTooSmall::new(count_units(valid), dst.len());
        return Err(ToUtf16Error::new(
            read,
            written,
            ToUtf16ErrorKind::BufferTooSmall(needed),
        ));
    }
    match checked {
        Ok(()) => Ok(written),
        Err(e) => Err(ToUtf16Error::new(
            end,
            written,
            ToUtf16ErrorKind::Invalid(e),
        )),
    }
}

/// `input` as a new `Vec` of UTF-16 units, lone surrogates kept; see
/// `mutf8::to_utf16_vec`.
#[cfg(feature = "alloc")]
pub(crate) fn to_utf16_vec(variant: Variant, input: &[u8]) -> Result<Vec<u16>, Error> {
    validate(variant, input)?;
    let mut out = alloc::vec![0; count_units(input)];
    let (_, written) = decode_units(input, &mut out);
    out.truncate(written);
    Ok(out)
}

/// `input` as WTF-8, lone surrogates kept; see `mutf8::to_wtf8`.
#[cfg(feature = "alloc")]
pub(crate) fn to_wtf8(variant: Variant, input: &[u8]) -> Result<Wtf8Buf, Error> {
    // Most input is valid in the variant itself: its UTF-8 is WTF-8.
    if let Ok(s) = crate::convert::decode(variant, input) {
        return Ok(Wtf8Buf::from(s.into_owned()));
    }
    let mut out = Vec::with_capacity(input.len());
    walk(variant, input, |piece| match piece {
        Piece::Valid(bytes) => crate::convert::decode_valid_into(bytes, &mut out),
        // A surrogate's 3 bytes are the same in WTF-8. A lone lead is not
        // followed by a trail (else the validator had taken them as a
        // pair), and a lone trail follows no lead (a valid piece ends
        // after a whole character, a lone piece is never a lead followed
        // by this trail): nothing to join.
        Piece::Lone(bytes) => out.extend_from_slice(bytes),
    })?;
    Ok(Wtf8Buf::from_valid(out))
}

/// Appends one UTF-16 unit as `variant` writes it, each on its own as
/// `DataOutput.writeUTF` does: 1 byte for `0001..=007F` (and for `0000` in
/// CESU-8), 2 bytes for `0080..=07FF` and MUTF-8's `0000`, 3 bytes for the
/// rest, surrogates included.
#[cfg(feature = "alloc")]
fn push_unit(variant: Variant, out: &mut Vec<u8>, u: u16) {
    match u {
        0 if variant == Variant::Mutf8 => out.extend_from_slice(&[0xC0, 0x80]),
        0x00..=0x7F => out.push(u as u8),
        0x80..=0x7FF => out.extend_from_slice(&[0xC0 | (u >> 6) as u8, 0x80 | (u & 0x3F) as u8]),
        _ => out.extend_from_slice(&[
            0xE0 | (u >> 12) as u8,
            0x80 | ((u >> 6) & 0x3F) as u8,
            0x80 | (u & 0x3F) as u8,
        ]),
    }
}

/// Potentially ill-formed UTF-16 as `variant`; see `mutf8::from_utf16`.
#[cfg(feature = "alloc")]
pub(crate) fn from_utf16(variant: Variant, units: &[u16]) -> Vec<u8> {
    let mut out = Vec::with_capacity(units.len() + units.len() / 2);
    for &u in units {
        push_unit(variant, &mut out, u);
    }
    out
}

/// WTF-8 `input` as `variant`, lone surrogates kept; see
/// `mutf8::from_wtf8`.
#[cfg(feature = "alloc")]
pub(crate) fn from_wtf8(variant: Variant, input: &[u8]) -> Result<Cow<'_, [u8]>, Error> {
    // WTF-8 without surrogates is UTF-8, which the encoder converts in
    // runs and borrows where nothing changes.
    if let Ok(s) = utf8_simd::from_utf8(input) {
        return Ok(crate::convert::encode(variant, s));
    }
    // Else by its UTF-16 units: a supplementary character is a pair, which
    // `push_unit` writes as two 3-byte sequences, and a surrogate one unit.
    let units = wtf8::encode_utf16(input)?;
    let mut out = Vec::with_capacity(input.len() + input.len() / 2);
    for u in units {
        push_unit(variant, &mut out, u);
    }
    Ok(Cow::Owned(out))
}
