//! Conversions between CESU-8 or MUTF-8 and UTF-8, shared by the two
//! modules: the bytes only differ in supplementary characters (a 6-byte
//! surrogate pair against a 4-byte form) and, in MUTF-8, U+0000 (`C0 80`
//! against `00`). Everything else is copied in runs.

use crate::error::Error;
use crate::variant::Variant;
use alloc::borrow::Cow;
use alloc::string::String;
use alloc::vec::Vec;
use utf8_simd::Utf8Validator;
use utf8_simd::variant::{Nul, bmp_str};

/// The UTF-8 bytes of the supplementary character whose surrogates are
/// written `ED hi1 hi2` and `ED lo1 lo2`, moved bit field by bit field
/// without forming the code point: the surrogates are `1010vvvv 10wwwwww`
/// and `1011xxxx 10yyyyyy` with `vvvv` the plane minus one, and UTF-8 wants
/// `11110ppp 10ppwwww 10wwxxxx 10yyyyyy` with `ppppp` the plane. (Through
/// the code point it took 11 more instructions a pair.)
#[inline]
fn pair_to_utf8(hi1: u8, hi2: u8, lo1: u8, lo2: u8) -> [u8; 4] {
    let plane = (hi1 & 0x0F) + 1;
    [
        0xF0 | (plane >> 2),
        0x80 | ((plane & 0x03) << 4) | ((hi2 & 0x3F) >> 2),
        0x80 | ((hi2 & 0x03) << 4) | (lo1 & 0x0F),
        lo2,
    ]
}

/// The surrogate pair, as two 3-byte sequences, of the supplementary
/// character whose UTF-8 form is `bytes` (4 bytes, `F0..=F4` first).
#[inline]
fn utf8_to_pair(bytes: [u8; 4]) -> [u8; 6] {
    let c = (u32::from(bytes[0] & 0x07) << 18)
        | (u32::from(bytes[1] & 0x3F) << 12)
        | (u32::from(bytes[2] & 0x3F) << 6)
        | u32::from(bytes[3] & 0x3F);
    let c = c.wrapping_sub(0x1_0000);
    let hi = 0xD800 | (c >> 10) & 0x3FF;
    let lo = 0xDC00 | c & 0x3FF;
    [
        0xED,
        0x80 | ((hi >> 6) & 0x3F) as u8,
        0x80 | (hi & 0x3F) as u8,
        0xED,
        0x80 | ((lo >> 6) & 0x3F) as u8,
        0x80 | (lo & 0x3F) as u8,
    ]
}

/// The length of the character that lead byte `b` starts, in generalized
/// UTF-8 (1 for ASCII and anything that is not a lead).
#[inline]
const fn char_len(b: u8) -> usize {
    match b {
        0xC0..=0xDF => 2,
        0xE0..=0xEF => 3,
        0xF0..=0xF7 => 4,
        _ => 1,
    }
}

/// The bytes that start a unit [`decode_valid_into`] converts: `ED` (a
/// surrogate pair, or a 3-byte character that is copied) and `C0`.
const SPECIAL: [u8; 2] = [0xED, 0xC0];

/// Whether the word `w` holds one of the [`SPECIAL`] bytes (the classic
/// "has zero byte" test on `w ^ b` for each; a false positive only sends
/// the word to the byte loop, which is always right).
#[inline(always)]
fn has_special(w: u64) -> bool {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    SPECIAL.iter().any(|&b| {
        let v = w ^ (ONES * u64::from(b));
        v.wrapping_sub(ONES) & !v & HIGH != 0
    })
}

/// Appends the UTF-8 form of `input`, valid CESU-8 or MUTF-8, to `out`.
///
/// The output is never longer than the input (a pair becomes 4 bytes of 6,
/// `C0 80` 1 of 2), so it is written into a zeroed tail of `out` by index
/// and cut to length at the end. Words of 8 bytes without `ED` or `C0` are
/// copied whole. (The first version extended the `Vec` unit by unit: 17
/// instructions a byte on Emoji, measured with callgrind.)
fn decode_valid_into(input: &[u8], out: &mut Vec<u8>) {
    let start = out.len();
    out.resize(start + input.len(), 0);
    let buf = &mut out[start..];
    let (mut i, mut w) = (0, 0);
    while let Some(&b) = input.get(i) {
        match b {
            0xED => {
                // A lead surrogate and (valid input) its trail; else a
                // 3-byte character, copied below a byte at a time.
                if let (Some(&[_, hi1, hi2, _, lo1, lo2]), Some(dst)) =
                    (input.get(i..i + 6), buf.get_mut(w..w + 4))
                    && hi1 >= 0xA0
                {
                    dst.copy_from_slice(&pair_to_utf8(hi1, hi2, lo1, lo2));
                    i += 6;
                    w += 4;
                    continue;
                }
            }
            // MUTF-8's C0 80 (the zeroed buffer already holds the 00).
            0xC0 => {
                i += 2;
                w += 1;
                continue;
            }
            _ => {
                if let (Some(src), Some(dst)) = (input.get(i..i + 8), buf.get_mut(w..w + 8)) {
                    let word = u64::from_le_bytes(src.try_into().unwrap_or([0xED; 8]));
                    if !has_special(word) {
                        dst.copy_from_slice(src);
                        i += 8;
                        w += 8;
                        continue;
                    }
                }
            }
        }
        if let Some(d) = buf.get_mut(w) {
            *d = b;
        }
        i += 1;
        w += 1;
    }
    out.truncate(start + w);
}

/// `bytes`, valid UTF-8 by construction, as a `String`: checked with
/// utf8-simd and copied, the fastest safe way (`String::from_utf8` checks
/// with std's validator: 7.9 instructions a byte on the decoded Emoji text,
/// measured with callgrind). The lossy arm is never taken.
fn into_string(bytes: Vec<u8>) -> String {
    match utf8_simd::from_utf8(&bytes) {
        Ok(s) => String::from(s),
        Err(_) => String::from_utf8_lossy(&bytes).into_owned(),
    }
}

/// What the BMP check makes of `00` for `variant` (CESU-8 or MUTF-8).
fn nul(variant: Variant) -> Nul {
    crate::simd::bmp_nul(variant).unwrap_or(Nul::Allowed)
}

/// CESU-8 or MUTF-8 `input` as UTF-8, borrowed where the bytes are the
/// same.
pub(crate) fn decode(variant: Variant, input: &[u8]) -> Result<Cow<'_, str>, Error> {
    // Most text has no supplementary character and no NUL, and then its
    // bytes are UTF-8 without 4-byte forms (and, for MUTF-8, without 00):
    // one pass of utf8-simd's BMP check decides it and gives the `&str`.
    // (UTF-8's validation and then a scan for F0.. and 00, two passes, ran
    // at 0.86-1.13x `simd_cesu8::decode` on Zen 4, 0.40x on ASCII; see
    // docs/results/utf8-variants.md, "One pass".)
    decode_rest(variant, input, bmp_str(input, nul(variant)), None)
}

/// [`decode`] with one kernel of utf8-simd's registry for every pass (for
/// tests and benchmarks): `None` if it has no variant entry point or this
/// CPU cannot run it.
pub(crate) fn decode_with<'a>(
    kernel: &'static utf8_simd::Kernel,
    variant: Variant,
    input: &'a [u8],
) -> Option<Result<Cow<'a, str>, Error>> {
    let bmp = utf8_simd::variant::bmp_str_with(kernel, input, nul(variant))?;
    Some(decode_rest(variant, input, bmp, Some(kernel)))
}

/// [`decode`] after the BMP check's answer `bmp`: borrowed, or, from the
/// character boundary where the check stopped (everything before it is
/// UTF-8 that needs no conversion), the exact error or the conversion.
/// `kernel`: the one to use (else the dispatched ones).
fn decode_rest<'a>(
    variant: Variant,
    input: &'a [u8],
    bmp: Result<&'a str, usize>,
    kernel: Option<&'static utf8_simd::Kernel>,
) -> Result<Cow<'a, str>, Error> {
    let checked = match bmp {
        Ok(s) => return Ok(Cow::Borrowed(s)),
        Err(pos) => pos.min(input.len()),
    };
    let rest = &input[checked..];
    // `input[..checked]` is valid in `variant` and ends between characters
    // after no lead surrogate, so the rest validates on its own (without
    // the BMP check, which just stopped there).
    crate::simd::validate_after_bmp(variant, input, checked, kernel)?;
    // Valid input that is not all UTF-8: its UTF-8 error is the first pair
    // or C0 80, and everything before it is copied as it is.
    let utf8 = match kernel.and_then(utf8_simd::Kernel::validator) {
        Some(k) => k.validate(rest),
        None => utf8_simd::validate(rest),
    };
    let same = checked + utf8.map_or_else(|e| e.valid_up_to(), |()| rest.len());
    let (same, rest) = input.split_at(same.min(input.len()));
    let mut out = Vec::with_capacity(input.len());
    out.extend_from_slice(same);
    decode_valid_into(rest, &mut out);
    Ok(Cow::Owned(into_string(out)))
}

/// Whether `bytes` holds a byte that UTF-8 allows and `variant` (CESU-8 or
/// MUTF-8) does not: a 4-byte lead `F0..`, or (MUTF-8) `00`. (The encoder's
/// scan, in 64-byte blocks; decoding needs no scan since the BMP check.)
///
/// The largest (and smallest) byte of each 4 KiB block, kept in 64 lanes so
/// that the compiler makes four independent `pmaxub`/`pminub` chains of
/// them, and reduced once per block. Measured on 64 KiB of lipsum (decoding
/// Latin, which is this scan plus UTF-8's validation): a fold of
/// `b >= 0xF0` booleans did not vectorise (8 GB/s); one max/min per 64-byte
/// block spent its time in the reductions (13 GB/s); one accumulator per
/// 4 KiB block was bound by its dependency chain (29 GB/s).
fn has_utf8_only_bytes(variant: Variant, bytes: &[u8]) -> bool {
    if variant == Variant::Mutf8 {
        extremes::<true>(bytes)
    } else {
        extremes::<false>(bytes)
    }
}

/// [`has_utf8_only_bytes`], with the `00` test (`NUL`) or without it.
fn extremes<const NUL: bool>(bytes: &[u8]) -> bool {
    bytes.chunks(4096).any(|block| {
        let mut max = [0u8; 64];
        let mut min = [0xFFu8; 64];
        let mut lanes = block.chunks_exact(64);
        for lane in &mut lanes {
            for (i, &b) in lane.iter().enumerate() {
                max[i] = max[i].max(b);
                if NUL {
                    min[i] = min[i].min(b);
                }
            }
        }
        for &b in lanes.remainder() {
            max[0] = max[0].max(b);
            min[0] = min[0].min(b);
        }
        let max = max.iter().fold(0, |a, &b| a.max(b));
        let min = min.iter().fold(0xFF, |a, &b| a.min(b));
        max >= 0xF0 || (NUL && min == 0)
    })
}

/// [`decode`], with every invalid piece ([`Error::error_len`] bytes, or the
/// unfinished end) replaced by U+FFFD.
pub(crate) fn decode_lossy(variant: Variant, input: &[u8]) -> Cow<'_, str> {
    let mut first = match decode(variant, input) {
        Ok(s) => return s,
        Err(e) => Some(e),
    };
    let mut out = Vec::with_capacity(input.len() + 3);
    let mut rest = input;
    loop {
        let e = match first.take() {
            Some(e) => e,
            None => match variant.validate(rest) {
                Ok(()) => {
                    decode_valid_into(rest, &mut out);
                    break;
                }
                Err(e) => e,
            },
        };
        let v = e.valid_up_to().min(rest.len());
        decode_valid_into(&rest[..v], &mut out);
        out.extend_from_slice("\u{FFFD}".as_bytes());
        match e.error_len() {
            Some(n) => rest = rest.get(v + n..).unwrap_or(&[]),
            None => break,
        }
    }
    Cow::Owned(into_string(out))
}

/// UTF-8 `s` as CESU-8 or MUTF-8, borrowed where the bytes are the same.
pub(crate) fn encode(variant: Variant, s: &str) -> Cow<'_, [u8]> {
    let bytes = s.as_bytes();
    let nul = variant == Variant::Mutf8;
    let Some(block) = bytes
        .chunks(64)
        .position(|block| has_utf8_only_bytes(variant, block))
    else {
        return Cow::Borrowed(bytes);
    };
    let from = block * 64;
    let mut out = Vec::with_capacity(bytes.len() + bytes.len() / 2);
    out.extend_from_slice(&bytes[..from]);
    let mut run = from;
    let mut i = from;
    while let Some(&b) = bytes.get(i) {
        if b >= 0xF0 {
            if let Some(&[b0, b1, b2, b3]) = bytes.get(i..i + 4) {
                out.extend_from_slice(&bytes[run..i]);
                out.extend_from_slice(&utf8_to_pair([b0, b1, b2, b3]));
            }
            i += 4;
            run = i;
        } else if nul && b == 0 {
            out.extend_from_slice(&bytes[run..i]);
            out.extend_from_slice(&[0xC0, 0x80]);
            i += 1;
            run = i;
        } else {
            i += char_len(b);
        }
    }
    out.extend_from_slice(bytes.get(run..).unwrap_or(&[]));
    Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pairs_round_trip_for_every_supplementary_character() {
        for c in (0x1_0000u32..=0x10_FFFF).filter_map(char::from_u32) {
            let mut utf8 = [0u8; 4];
            c.encode_utf8(&mut utf8);
            let pair = utf8_to_pair(utf8);
            let mut units = [0u16; 2];
            c.encode_utf16(&mut units);
            // Each surrogate as generalized UTF-8, from its value.
            for (k, &u) in units.iter().enumerate() {
                let u = u32::from(u);
                assert_eq!(
                    pair[3 * k..3 * k + 3],
                    [
                        0xE0 | (u >> 12) as u8,
                        0x80 | ((u >> 6) & 0x3F) as u8,
                        0x80 | (u & 0x3F) as u8
                    ],
                    "{c:?}"
                );
            }
            assert_eq!(pair_to_utf8(pair[1], pair[2], pair[4], pair[5]), utf8);
        }
    }
}
