//! AVX2: valid UTF-8 → UTF-16 (native, or byte-swapped with `SWAP`).
//!
//! The input has been validated (by utf8-simd) or is a `&str`, so the
//! kernel only decodes; on invalid bytes it would write wrong units, never
//! out of bounds. Each step looks at the 32 bytes at the current position
//! and takes the first path that applies:
//!
//! 1. ASCII: all 32 bytes below 0x80 → widened to 32 units.
//! 2. All 4-byte characters, starting at the position (Emoji text) → 8
//!    characters decoded in 32-bit lanes and written as 16 surrogate units.
//! 3. All 3-byte characters for 24 bytes (CJK text) → 8 characters from two
//!    12-byte halves, decoded in 32-bit lanes.
//! 4. No 4-byte character among the first 16 bytes → the *window*: a
//!    character is decoded in a 16-bit lane at each of 16 byte positions
//!    (from three overlapping loads, the bytes at `p`, `p + 1`, `p + 2`),
//!    and the lanes of the positions 0..14 where a character starts are
//!    left-packed with [`PACK16`] (two 8-lane halves) and stored. The
//!    window always advances 14 bytes: a character that starts at 13 still
//!    ends inside the 16 loaded bytes, and the next window skips the
//!    continuation bytes it starts on. No step depends on the one before,
//!    except through the output position.
//! 5. Otherwise (a 4-byte character in a mixed window): the scalar decoder
//!    for the characters that start in the first 16 bytes.
//!
//! Stores are 16 bytes wide and may write lanes past the characters of the
//! step. The main loop only runs while the output has room for 32 more
//! units and at least 48 input bytes remain after the step, which (valid
//! UTF-8 has at most 3 bytes per unit) guarantees at least 16 more units of
//! output: every stray lane is overwritten before the conversion ends.
//! Near the end, windows go through a scratch buffer and only their real
//! units are copied; the last bytes are left to the scalar code.
//!
//! Dead ends and measurements are in `docs/results/transcode.md`.

use super::super::tables::PACK16;
use core::arch::x86_64::*;

/// See the module docs. `dst` is written with unaligned stores.
///
/// # Safety
///
/// The CPU has AVX2, BMI1, BMI2 and POPCNT, and `dst` is valid for writes
/// of `cap` `u16`s (at any alignment).
#[target_feature(enable = "avx2,bmi1,bmi2,popcnt")]
pub(crate) unsafe fn convert<const SWAP: bool>(
    src: &[u8],
    dst: *mut u16,
    cap: usize,
) -> (usize, usize) {
    let len = src.len();
    let s = src.as_ptr();
    let (mut p, mut o) = (0usize, 0usize);
    // The main loop: direct stores (see the module docs for the bounds).
    while p + 32 + 48 <= len && o + 32 <= cap {
        // SAFETY: `p + 32 <= len`; the stores write at most 32 units at
        // `o`, and `o + 32 <= cap`.
        let (mut r, mut w) = unsafe { step::<SWAP>(s.add(p), dst.add(o)) };
        if r == 0 {
            // SAFETY: the characters that start in the next 16 bytes end
            // within 19 bytes (`p + 19 <= len`) and make at most 16 units
            // (`o + 16 <= cap`).
            (r, w) = unsafe { scalar16::<SWAP>(s.add(p), dst.add(o)) };
        }
        p += r;
        o += w;
    }
    // Near the end: through a scratch buffer.
    let mut scratch = [0u16; 32];
    while p + 32 <= len {
        // SAFETY: `p + 32 <= len`, and `scratch` holds 32 units.
        let (r, w) = unsafe { step::<SWAP>(s.add(p), scratch.as_mut_ptr()) };
        if r == 0 || o + w > cap {
            break;
        }
        // SAFETY: `w <= 32` units of `scratch` to `dst[o..o + w]`, inside
        // `cap`; the two do not overlap. Copied as bytes: `dst` may be
        // unaligned.
        unsafe {
            core::ptr::copy_nonoverlapping(
                scratch.as_ptr().cast::<u8>(),
                dst.add(o).cast::<u8>(),
                2 * w,
            )
        };
        p += r;
        o += w;
    }
    // A window may stop on continuation bytes: the character they belong to
    // was written in full, so the boundary is after them.
    while p < len && (src[p] as i8) < -64 {
        p += 1;
    }
    (p, o)
}

/// One step at `s`, writing to `out`: returns `(bytes read, units
/// written)`, `(0, 0)` if the scalar code must take over.
///
/// # Safety
///
/// AVX2 and POPCNT; `s` is readable for 32 bytes, `out` writable for 32
/// units.
#[target_feature(enable = "avx2,bmi1,bmi2,popcnt")]
#[inline]
unsafe fn step<const SWAP: bool>(s: *const u8, out: *mut u16) -> (usize, usize) {
    // SAFETY: the caller guarantees 32 readable bytes at `s`.
    let v = unsafe { _mm256_loadu_si256(s.cast()) };
    let non_ascii = _mm256_movemask_epi8(v) as u32;
    if non_ascii == 0 {
        // SAFETY: 32 units at `out`.
        unsafe { ascii::<SWAP>(v, out) };
        return (32, 32);
    }
    // A byte is a character start unless it is a continuation (80..BF,
    // which as i8 is below -64); a 4-byte lead is F0..FF (unsigned).
    let starts = _mm256_movemask_epi8(_mm256_cmpgt_epi8(v, _mm256_set1_epi8(-65))) as u32;
    let f0 = _mm256_set1_epi8(0xF0u8 as i8);
    let fours = _mm256_movemask_epi8(_mm256_cmpeq_epi8(_mm256_max_epu8(v, f0), v)) as u32;
    if fours == 0x1111_1111 && starts == 0x1111_1111 {
        // SAFETY: 16 units at `out`.
        unsafe { four_byte::<SWAP>(v, out) };
        return (32, 16);
    }
    if fours & 0x00FF_FFFF == 0 && starts & 0x00FF_FFFF == 0x0024_9249 {
        // SAFETY: 8 units at `out`.
        unsafe { three_byte::<SWAP>(v, out) };
        return (24, 8);
    }
    if fours & 0xFFFF == 0 {
        // SAFETY: 32 >= 18 bytes readable at `s`; 16 units at `out`.
        let n = unsafe { window::<SWAP>(s, out, starts & 0x3FFF) };
        return (14, n);
    }
    (0, 0)
}

/// The characters that start in the first 16 bytes at `s`, decoded one by
/// one (after skipping the continuation bytes a window may have stopped
/// on): `(bytes read, units written)`.
///
/// # Safety
///
/// `s` is readable for 19 bytes and holds valid UTF-8 from its first
/// character start; `out` is writable for 16 units.
#[inline(never)]
unsafe fn scalar16<const SWAP: bool>(s: *const u8, out: *mut u16) -> (usize, usize) {
    // SAFETY: the caller guarantees 19 readable bytes.
    let bytes = unsafe { core::slice::from_raw_parts(s, 19) };
    let (mut i, mut o) = (0, 0);
    while i < 3 && (bytes[i] as i8) < -64 {
        i += 1;
    }
    while i < 16 {
        let Some((c, len)) = crate::scalar::decode_valid_utf8(&bytes[i..]) else {
            break;
        };
        let mut units = [0u16; 2];
        for &u in c.encode_utf16(&mut units).iter() {
            let u = if SWAP { u.swap_bytes() } else { u };
            // SAFETY: at most 16 units: a character of `len` bytes makes at
            // most `len` units, and the characters start below 16.
            unsafe { out.add(o).write_unaligned(u) };
            o += 1;
        }
        i += len;
    }
    (i, o)
}

/// Stores `v` (a native-order 16-byte register of units), swapped if
/// `SWAP`.
///
/// # Safety
///
/// AVX2; `out` is writable for 8 units.
#[target_feature(enable = "avx2,bmi1,bmi2,popcnt")]
#[inline]
unsafe fn store8<const SWAP: bool>(out: *mut u16, v: __m128i) {
    let v = if SWAP {
        _mm_shuffle_epi8(
            v,
            _mm_setr_epi8(1, 0, 3, 2, 5, 4, 7, 6, 9, 8, 11, 10, 13, 12, 15, 14),
        )
    } else {
        v
    };
    // SAFETY: the caller guarantees 8 writable units.
    unsafe { _mm_storeu_si128(out.cast(), v) }
}

/// Stores `v` (a native-order 32-byte register of units), swapped if
/// `SWAP`.
///
/// # Safety
///
/// AVX2; `out` is writable for 16 units.
#[target_feature(enable = "avx2,bmi1,bmi2,popcnt")]
#[inline]
unsafe fn store16<const SWAP: bool>(out: *mut u16, v: __m256i) {
    let v = if SWAP {
        #[rustfmt::skip]
        let swap = _mm256_setr_epi8(
            1, 0, 3, 2, 5, 4, 7, 6, 9, 8, 11, 10, 13, 12, 15, 14,
            1, 0, 3, 2, 5, 4, 7, 6, 9, 8, 11, 10, 13, 12, 15, 14,
        );
        _mm256_shuffle_epi8(v, swap)
    } else {
        v
    };
    // SAFETY: the caller guarantees 16 writable units.
    unsafe { _mm256_storeu_si256(out.cast(), v) }
}

/// 32 ASCII bytes to 32 units.
///
/// # Safety
///
/// AVX2; `out` is writable for 32 units.
#[target_feature(enable = "avx2,bmi1,bmi2,popcnt")]
#[inline]
unsafe fn ascii<const SWAP: bool>(v: __m256i, out: *mut u16) {
    let lo = _mm256_cvtepu8_epi16(_mm256_castsi256_si128(v));
    let hi = _mm256_cvtepu8_epi16(_mm256_extracti128_si256::<1>(v));
    // SAFETY: 2 stores of 16 units, the 32 the caller guarantees.
    unsafe {
        store16::<SWAP>(out, lo);
        store16::<SWAP>(out.add(16), hi);
    }
}

/// Eight 4-byte characters (32 bytes, each 32-bit lane one character) to
/// 16 units.
///
/// # Safety
///
/// AVX2; `out` is writable for 16 units.
#[target_feature(enable = "avx2,bmi1,bmi2,popcnt")]
#[inline]
unsafe fn four_byte<const SWAP: bool>(v: __m256i, out: *mut u16) {
    // Lane bytes b0 b1 b2 b3 (memory order). Keep the payload bits, then
    // b0:b1 and b2:b3 as 12-bit pairs (pmaddubsw), then the 21-bit value
    // (pmaddwd).
    let bits = _mm256_and_si256(v, _mm256_set1_epi32(0x3F3F_3F07));
    let pairs = _mm256_maddubs_epi16(bits, _mm256_set1_epi32(0x0140_0140));
    let value = _mm256_madd_epi16(pairs, _mm256_set1_epi32(0x0001_1000));
    // value - 0x10000 splits into 10 high and 10 low bits.
    let v = _mm256_sub_epi32(value, _mm256_set1_epi32(0x1_0000));
    let high = _mm256_add_epi32(_mm256_srli_epi32::<10>(v), _mm256_set1_epi32(0xD800));
    let low = _mm256_or_si256(
        _mm256_and_si256(v, _mm256_set1_epi32(0x3FF)),
        _mm256_set1_epi32(0xDC00),
    );
    // Each lane: high unit first, then low.
    let units = _mm256_or_si256(high, _mm256_slli_epi32::<16>(low));
    // SAFETY: 16 units at `out`.
    unsafe { store16::<SWAP>(out, units) }
}

/// Eight 3-byte characters (the first 24 bytes of `v`) to 8 units.
///
/// # Safety
///
/// AVX2; `out` is writable for 8 units.
#[target_feature(enable = "avx2,bmi1,bmi2,popcnt")]
#[inline]
unsafe fn three_byte<const SWAP: bool>(v: __m256i, out: *mut u16) {
    // Bytes 0..12 stay in the low half; bytes 12..24 move to the high half.
    let v = _mm256_permutevar8x32_epi32(v, _mm256_setr_epi32(0, 1, 2, 3, 3, 4, 5, 6));
    // Each 32-bit lane k gets b1 b2 b0 0 of character k: a 16-bit pair
    // b1:b2 and b0 alone.
    #[rustfmt::skip]
    let order = _mm256_setr_epi8(
        1, 2, 0, -1, 4, 5, 3, -1, 7, 8, 6, -1, 10, 11, 9, -1,
        1, 2, 0, -1, 4, 5, 3, -1, 7, 8, 6, -1, 10, 11, 9, -1,
    );
    let lanes = _mm256_shuffle_epi8(v, order);
    let bits = _mm256_and_si256(lanes, _mm256_set1_epi32(0x000F_3F3F));
    let pairs = _mm256_maddubs_epi16(bits, _mm256_set1_epi32(0x0001_0140));
    let value = _mm256_madd_epi16(pairs, _mm256_set1_epi32(0x1000_0001));
    // 8 values below 0x10000 to 8 units.
    let packed = _mm256_packus_epi32(value, value);
    let units = _mm256_permute4x64_epi64::<0b1000>(packed);
    // SAFETY: 8 units at `out`.
    unsafe { store8::<SWAP>(out, _mm256_castsi256_si128(units)) }
}

/// The window: the characters that start at positions `0..14` of `s`
/// (`starts` has their bits), none of 4 bytes, to units; returns how many.
///
/// # Safety
///
/// AVX2 and POPCNT; `s` is readable for 18 bytes, `out` writable for 16
/// units.
#[target_feature(enable = "avx2,bmi1,bmi2,popcnt")]
#[inline]
unsafe fn window<const SWAP: bool>(s: *const u8, out: *mut u16, starts: u32) -> usize {
    // SAFETY: the three loads read bytes 0..18 of `s`.
    let (b0, b1, b2) = unsafe {
        (
            _mm256_cvtepu8_epi16(_mm_loadu_si128(s.cast())),
            _mm256_cvtepu8_epi16(_mm_loadu_si128(s.add(1).cast())),
            _mm256_cvtepu8_epi16(_mm_loadu_si128(s.add(2).cast())),
        )
    };
    let six = _mm256_set1_epi16(0x3F);
    let c1 = _mm256_and_si256(b1, six);
    let c2 = _mm256_and_si256(b2, six);
    // 2-byte: b0's low 5 bits and c1; the 16-bit shift drops the rest.
    let two = _mm256_and_si256(
        _mm256_or_si256(_mm256_slli_epi16::<6>(b0), c1),
        _mm256_set1_epi16(0x7FF),
    );
    // 3-byte: b0's low 4 bits (the shift drops the rest), c1, c2.
    let three = _mm256_or_si256(
        _mm256_or_si256(_mm256_slli_epi16::<12>(b0), _mm256_slli_epi16::<6>(c1)),
        c2,
    );
    let is2 = _mm256_cmpgt_epi16(b0, _mm256_set1_epi16(0xBF));
    let is3 = _mm256_cmpgt_epi16(b0, _mm256_set1_epi16(0xDF));
    let units = _mm256_blendv_epi8(_mm256_blendv_epi8(b0, two, is2), three, is3);
    let (lo, hi) = ((starts & 0xFF) as usize, (starts >> 8) as usize);
    // SAFETY: `lo` and `hi` are below 256; PACK16 has 256 rows of 16 bytes.
    let (plo, phi) = unsafe {
        (
            _mm_loadu_si128(PACK16.as_ptr().add(lo).cast()),
            _mm_loadu_si128(PACK16.as_ptr().add(hi).cast()),
        )
    };
    let first = _mm_shuffle_epi8(_mm256_castsi256_si128(units), plo);
    let second = _mm_shuffle_epi8(_mm256_extracti128_si256::<1>(units), phi);
    let n = lo.count_ones() as usize;
    // SAFETY: the stores write units 0..8 and n..n + 8, n <= 8: inside the
    // 16 the caller guarantees.
    unsafe {
        store8::<SWAP>(out, first);
        store8::<SWAP>(out.add(n), second);
    }
    n + hi.count_ones() as usize
}
