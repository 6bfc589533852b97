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

/// The UTF-8 bytes, as a little-endian word, of the supplementary
/// character whose surrogate pair `ED hi1 hi2 ED lo1 lo2` is the low six
/// bytes of the little-endian word `pair` (the other two are ignored).
///
/// The bit fields move without forming the code point: the surrogates are
/// `1010vvvv 10wwwwww` and `1011xxxx 10yyyyyy` with `vvvv` the plane minus
/// one, and UTF-8 wants `11110ppp 10ppwwww 10wwxxxx 10yyyyyy` with `ppppp`
/// the plane. (Through the code point it took 11 more instructions a pair;
/// byte by byte, 14 more than this word form.)
#[inline]
const fn pair_to_utf8(pair: u64) -> u32 {
    let plane = ((pair >> 8) & 0x0F) + 1;
    (0x0080_80F0 // the markers of byte 0..2; byte 3 is lo2 with its own
        | plane >> 2 // ppp
        | (plane & 0x03) << 12 // pp of byte 1
        | (pair >> 10) & 0x0F00 // the high wwww of hi2, into byte 1
        | (pair << 4) & 0x0030_0000 // the low ww of hi2, into byte 2
        | (pair >> 16) & 0xFF0F_0000) as u32 // xxxx of lo1, and lo2
}

/// The surrogate pair, as two 3-byte sequences, of the supplementary
/// character whose UTF-8 form (4 bytes, `F0..=F4` first) is the
/// little-endian word `utf8`: the inverse of [`pair_to_utf8`], bit field by
/// bit field (`11110ppp 10ppwwww 10wwxxxx 10yyyyyy` to `ED 1010vvvv
/// 10wwwwww ED 1011xxxx 10yyyyyy`, `vvvv = ppppp - 1`), as utf8-simd's
/// kernel does it four characters at a time.
#[inline]
const fn utf8_to_pair(utf8: u32) -> [u8; 6] {
    let high = utf8 >> 12;
    let plane = (utf8 & 0x07) << 2 | high & 0x03;
    let [lead, hi2, lo1, lo2] = (plane.wrapping_sub(1)
        | 0x00B0_80A0 // the markers of lead, hi2 and lo1; lo2 is the last byte's
        | (utf8 << 2) & 0x3C00 // the wwww of byte 1, into hi2
        | high & 0x0300 // the ww of byte 2, into hi2
        | utf8 & 0xFF0F_0000) // xxxx of byte 2, and byte 3
        .to_le_bytes();
    [0xED, lead, hi2, 0xED, lo1, lo2]
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

/// Converts the run of surrogate pairs at the start of `src` (each a lead
/// `ED A0..AF`, which valid input follows with its trail) into `dst`, while
/// 8 bytes of `src` are left (the last pair of the input is the outer
/// loop's); returns how many. A pair an iteration from one word, and after
/// the fourth, if the eighth starts with a lead (the run likely goes on
/// for the kernel's first pass, pairs five to eight), utf8-simd's kernel,
/// four pairs a pass (all emoji: 719K -> 302K instructions per 64 KiB).
/// The test of the eighth pair is for text that mixes a few emoji with
/// other characters: with the kernel called after every fourth pair, runs
/// of five emoji and a letter took 1,378K instructions against the scalar
/// loop's 1,048K (docs/results/utf8-variants.md, "Decisions and dead
/// ends").
#[inline(always)]
fn pairs_run(src: &[u8], dst: &mut [u8]) -> usize {
    let (pairs, kernel) = scalar_pairs::<true>(src, dst);
    if !kernel {
        return pairs;
    }
    let (read, _) = utf8_simd::variant::pairs_to_utf8(
        src.get(6 * pairs..).unwrap_or_default(),
        dst.get_mut(4 * pairs..).unwrap_or_default(),
    );
    let pairs = pairs + read / 6;
    let (rest, _) = scalar_pairs::<false>(
        src.get(6 * pairs..).unwrap_or_default(),
        dst.get_mut(4 * pairs..).unwrap_or_default(),
    );
    pairs + rest
}

/// The scalar loop of [`pairs_run`]: how many pairs it converted, and (if
/// `HANDOFF`) whether it stopped after the fourth for the kernel.
#[inline(always)]
fn scalar_pairs<const HANDOFF: bool>(src: &[u8], dst: &mut [u8]) -> (usize, bool) {
    let mut pairs = 0;
    for (s, d) in src.windows(8).step_by(6).zip(dst.chunks_exact_mut(4)) {
        let x = u64::from_le_bytes(s.try_into().unwrap_or([0; 8]));
        if x & 0xF0FF != 0xA0ED {
            break;
        }
        d.copy_from_slice(&pair_to_utf8(x).to_le_bytes());
        pairs += 1;
        // The kernel's first pass reads 28 bytes from pair five (byte 24).
        if HANDOFF && pairs == 4 && lead_at(src, 42) && src.len() >= 52 {
            return (pairs, true);
        }
    }
    (pairs, false)
}

/// Whether `b[i..]` starts with the first two bytes of a lead surrogate.
#[inline(always)]
fn lead_at(b: &[u8], i: usize) -> bool {
    matches!(b.get(i..i + 2), Some(&[0xED, x]) if x & 0xF0 == 0xA0)
}

/// Appends the UTF-8 form of `input`, valid CESU-8 or MUTF-8, to `out`.
///
/// The output is never longer than the input (a pair becomes 4 bytes of 6,
/// `C0 80` 1 of 2), so it is written into a zeroed tail of `out` by index
/// and cut to length at the end. Words of 8 bytes without `ED` or `C0` are
/// copied whole. (Extending the `Vec` unit by unit cost 17 instructions a
/// byte on Emoji, by callgrind.)
pub(crate) fn decode_valid_into(input: &[u8], out: &mut Vec<u8>) {
    let start = out.len();
    out.resize(start + input.len(), 0);
    let buf = &mut out[start..];
    let (mut i, mut w) = (0, 0);
    while let Some(&b) = input.get(i) {
        match b {
            0xED => {
                // A run of surrogate pairs (all of a text of emoji), by
                // the scalar loop and utf8-simd's kernel (`pairs_run`).
                let (src, dst) = (
                    input.get(i..).unwrap_or_default(),
                    buf.get_mut(w..).unwrap_or_default(),
                );
                let pairs = pairs_run(src, dst);
                if pairs > 0 {
                    i += 6 * pairs;
                    w += 4 * pairs;
                    continue;
                }
                // A lead surrogate and (valid input) its trail in the last
                // 7 bytes; else a 3-byte character, copied below a byte at a
                // time.
                if let (Some(&[b0, hi1, hi2, b3, lo1, lo2]), Some(dst)) =
                    (input.get(i..i + 6), buf.get_mut(w..w + 4))
                    && hi1 >= 0xA0
                {
                    let pair = u64::from_le_bytes([b0, hi1, hi2, b3, lo1, lo2, 0, 0]);
                    dst.copy_from_slice(&pair_to_utf8(pair).to_le_bytes());
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
/// utf8-simd, and not copied (`String::from_utf8` checks with std's
/// validator: 7.9 instructions a byte on the decoded Emoji text, measured
/// with callgrind; checking with utf8-simd and copying to a new `String`
/// made the Emoji decode allocate twice, and the allocator gave the pages
/// back to the system and took them again on every call: 8 page faults a
/// 64 KiB text). The lossy arm is never taken.
fn into_string(bytes: Vec<u8>) -> String {
    utf8_simd::string_from_utf8(bytes)
        .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
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
    // at 0.86-1.13x `simd_cesu8::decode`, 0.40x on ASCII; see
    // docs/results/utf8-variants.md, "Decisions and dead ends".)
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
///
/// Text without supplementary characters (and, for MUTF-8, without NUL) is
/// its own encoding: utf8-simd's BMP check, the decoder's, decides it in one
/// pass. Elsewhere the bytes between the characters to convert are copied
/// in runs, found by a short scan near the last one and by the BMP check
/// beyond, and runs of 4-byte characters go to [`encode_run`]. (A scan of
/// every 64-byte block for `F0..`, then character by character after the
/// first, ran at half of `simd_cesu8::encode`'s speed;
/// docs/results/utf8-variants.md, "Decisions and dead ends".)
pub(crate) fn encode(variant: Variant, s: &str) -> Cow<'_, [u8]> {
    let bytes = s.as_bytes();
    let nul = nul(variant);
    let Err(first) = bmp_str(bytes, nul) else {
        return Cow::Borrowed(bytes);
    };
    let mut out = Vec::with_capacity(bytes.len() + bytes.len() / 2);
    // `bytes[..i]` is encoded; `bytes[i..from]` needs no change.
    let (mut i, mut from) = (0, first);
    loop {
        let next = next_to_encode(bytes, from, nul);
        out.extend_from_slice(bytes.get(i..next).unwrap_or_default());
        i = next;
        match bytes.get(i) {
            None => break,
            // MUTF-8's U+0000 (`next_to_encode` only stops at 00 for it).
            Some(0) => {
                out.extend_from_slice(&[0xC0, 0x80]);
                i += 1;
            }
            // A 4-byte character alone (text that mixes emoji in), here.
            Some(_) if bytes.get(i + 4).is_none_or(|&b| b < 0xF0) => {
                if let Some(&[b0, b1, b2, b3]) = bytes.get(i..i + 4) {
                    out.extend_from_slice(&utf8_to_pair(u32::from_le_bytes([b0, b1, b2, b3])));
                }
                i += 4;
            }
            Some(&b) => match encode_run(bytes.get(i..).unwrap_or_default(), &mut out) {
                // Unreachable (`next_to_encode` stops at a 4-byte lead, of
                // which the run converts at least one); copied, so that the
                // loop moves on whatever happens.
                0 => {
                    out.push(b);
                    i += 1;
                }
                read => i += read,
            },
        }
        from = i;
    }
    Cow::Owned(out)
}

/// Whether the encoder converts the byte `b` (a 4-byte lead, or with
/// [`Nul::Forbidden`] `00`).
#[inline(always)]
fn converts(b: u8, nul: Nul) -> bool {
    b >= 0xF0 || (b == 0 && nul == Nul::Forbidden)
}

/// The index of the first byte at or after `from` (a character boundary
/// of UTF-8 `bytes`) that the encoder converts, or `bytes.len()`: a scan of
/// the next 64 bytes (the next emoji of a run, or of text that mixes them
/// in), then utf8-simd's BMP check from the next character boundary, which
/// stops within a group of 256 bytes of the first such byte, and a scan
/// from there.
fn next_to_encode(bytes: &[u8], from: usize, nul: Nul) -> usize {
    let near = bytes.get(from..).unwrap_or_default();
    let near = near.get(..64).unwrap_or(near);
    if let Some(p) = near.iter().position(|&b| converts(b, nul)) {
        return from + p;
    }
    let mut from = from + near.len();
    while bytes.get(from).is_some_and(|&b| b & 0xC0 == 0x80) {
        from += 1;
    }
    let rest = bytes.get(from..).unwrap_or_default();
    match bmp_str(rest, nul) {
        Ok(_) => bytes.len(),
        Err(p) => rest
            .get(p..)
            .and_then(|r| r.iter().position(|&b| converts(b, nul)))
            .map_or(bytes.len(), |q| from + p + q),
    }
}

/// How many input bytes the calls of utf8-simd's kernel in [`encode_run`]
/// are given, the first and at most (multiples of its 16): the room each
/// writes into is zeroed first, so it starts small (runs of a few emoji
/// between other text) and doubles while the run goes on. (4 KiB from the
/// start: runs of nine emoji and a letter took 8.4 times the instructions
/// of the scalar loop, callgrind.)
const KERNEL_CHUNK: (usize, usize) = (64, 4096);

/// Appends the surrogate pairs of the run of 4-byte characters at the start
/// of `src` (UTF-8) to `out`; returns the bytes read. A character an
/// iteration from one word, and after the fourth, if the eighth also
/// starts with a 4-byte lead, utf8-simd's kernel, four characters a pass,
/// in chunks ([`KERNEL_CHUNK`]); the scalar loop again for what it leaves.
/// (The mirror of [`pairs_run`].)
fn encode_run(src: &[u8], out: &mut Vec<u8>) -> usize {
    let (mut read, kernel) = scalar_chars::<true>(src, out);
    if !kernel {
        return read;
    }
    let mut size = KERNEL_CHUNK.0;
    loop {
        let chunk = src.get(read..).unwrap_or_default();
        let chunk = chunk.get(..size).unwrap_or(chunk);
        let start = out.len();
        out.resize(start + chunk.len() / 4 * 6, 0);
        let (r, w) =
            utf8_simd::variant::utf8_to_pairs(chunk, out.get_mut(start..).unwrap_or_default());
        out.truncate(start + w);
        read += r;
        if r != size {
            break;
        }
        size = (2 * size).min(KERNEL_CHUNK.1);
    }
    read + scalar_chars::<false>(src.get(read..).unwrap_or_default(), out).0
}

/// The scalar loop of [`encode_run`]: the bytes it read, and (if
/// `HANDOFF`) whether it stopped after the fourth character for the kernel.
#[inline(always)]
fn scalar_chars<const HANDOFF: bool>(src: &[u8], out: &mut Vec<u8>) -> (usize, bool) {
    let mut read = 0;
    for c in src.chunks_exact(4) {
        let utf8 = u32::from_le_bytes(c.try_into().unwrap_or([0; 4]));
        // A 4-byte lead (valid UTF-8: three continuation bytes follow).
        if utf8 & 0xF8 != 0xF0 {
            break;
        }
        out.extend_from_slice(&utf8_to_pair(utf8));
        read += 4;
        // The kernel's first pass reads 16 bytes from character five.
        if HANDOFF && read == 16 && src.len() >= 32 && src.get(28).is_some_and(|&b| b >= 0xF0) {
            return (read, true);
        }
    }
    (read, false)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pairs_round_trip_for_every_supplementary_character() {
        for c in (0x1_0000u32..=0x10_FFFF).filter_map(char::from_u32) {
            let mut utf8 = [0u8; 4];
            c.encode_utf8(&mut utf8);
            let pair = utf8_to_pair(u32::from_le_bytes(utf8));
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
            let mut word = [0xFF; 8];
            word[..6].copy_from_slice(&pair);
            assert_eq!(pair_to_utf8(u64::from_le_bytes(word)).to_le_bytes(), utf8);
        }
    }
}
