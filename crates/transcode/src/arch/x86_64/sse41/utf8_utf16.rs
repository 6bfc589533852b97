//! SSE4.1: valid UTF-8 → UTF-16 (native, or byte-swapped with `SWAP`).
//!
//! The AVX2 kernel's design (`avx2/utf8_utf16.rs`, whose docs explain it)
//! with 16-byte registers: each step looks at 16 bytes and takes ASCII (16
//! units), all 4-byte characters (4 characters, 8 units), 3-byte
//! characters from the first start (4 characters from 12 bytes), or one
//! window (the characters that start at positions 0..14, decoded in two
//! halves of 8 lanes; a 4-byte character among others as its two units,
//! the lead surrogate in its lead's lane and the trail in the next, as the
//! AVX2 and NEON windows do). Every step reads at least 12 bytes. The same
//! bounds keep stray lanes from outliving the conversion.
//!
//! 4-byte characters are decoded in the window: sending a step with one to
//! a scalar decoder of its 16 bytes ran text with an emoji every 8
//! characters at 0.3-0.9 GB/s, below the portable scalar kernel.

use super::super::tables::PACK16;
use core::arch::x86_64::*;

codec_arch::enable! { sse41;
    /// See the module docs. `dst` is written with unaligned stores.
    ///
    /// # Safety
    ///
    /// The CPU has SSSE3, SSE4.1 and POPCNT, and `dst` is valid for writes of
    /// `cap` `u16`s (at any alignment).
    pub(crate) unsafe fn convert<const SWAP: bool>(
        src: &[u8],
        dst: *mut u16,
        cap: usize,
    ) -> (usize, usize) {
        let len = src.len();
        let s = src.as_ptr();
        let (mut p, mut o) = (0usize, 0usize);
        // In place while 48 input bytes remain after the step's 32 (its window
        // reads 18; see the AVX2 kernel for why 48) and the output has room for
        // the step's 16 units and one more. A step may leave stray lanes up to
        // `o + 16`; the conversion ends either 16 or more units later (48 bytes
        // of input make at least 16 units) or for room, at `cap - 1` or later (a
        // surrogate pair that does not fit): past them only with `o + 16 < cap`.
        while p + 32 + 48 <= len && o + 16 < cap {
            // SAFETY: `p + 32 <= len`; at most 16 units at `o + 16 < cap`.
            let (r, w) = unsafe { step::<SWAP>(s.add(p), dst.add(o)) };
            p += r;
            o += w;
        }
        let mut scratch = [0u16; 16];
        while p + 32 <= len {
            // SAFETY: `p + 32 <= len`; `scratch` holds 16 units.
            let (r, w) = unsafe { step::<SWAP>(s.add(p), scratch.as_mut_ptr()) };
            if o + w > cap {
                break;
            }
            // SAFETY: `w <= 16` units of `scratch` to `dst[o..o + w]`, inside
            // `cap`, as bytes (`dst` may be unaligned); no overlap.
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
        while p < len && (src[p] as i8) < -64 {
            p += 1;
        }
        (p, o)
    }
}

/// One step at `s`: `(bytes read, units written)`; it reads 12 to 16
/// bytes.
///
/// # Safety
///
/// SSSE3, SSE4.1, POPCNT; `s` readable for 32 bytes, `out` writable for 16
/// units.
#[inline(always)]
unsafe fn step<const SWAP: bool>(s: *const u8, out: *mut u16) -> (usize, usize) {
    // SAFETY: the caller has the CPU features and guarantees the reads and
    // writes this function makes (its `# Safety` section).
    unsafe {
        let v = _mm_loadu_si128(s.cast());
        if _mm_movemask_epi8(v) == 0 {
            store8::<SWAP>(out, _mm_cvtepu8_epi16(v));
            store8::<SWAP>(out.add(8), _mm_cvtepu8_epi16(_mm_srli_si128::<8>(v)));
            return (16, 16);
        }
        let starts = _mm_movemask_epi8(_mm_cmpgt_epi8(v, _mm_set1_epi8(-65))) as u32;
        let f0 = _mm_set1_epi8(0xF0u8 as i8);
        let fours = _mm_movemask_epi8(_mm_cmpeq_epi8(_mm_max_epu8(v, f0), v)) as u32;
        if fours & 0x3FFF == 0 {
            let k = starts.trailing_zeros().min(3);
            if k <= 2 && (starts >> k) & 0xFFF == 0x249 {
                three_byte::<SWAP>(v, k, out);
                return (12 + k as usize, 4);
            }
            let next = _mm_loadu_si128(s.add(16).cast());
            let n = window::<SWAP, false>(v, next, out, starts & 0x3FFF);
            return (14, n);
        }
        if fours == 0x1111 && starts == 0x1111 {
            four_byte::<SWAP>(v, out);
            return (16, 8);
        }
        // 4-byte characters among others: the window with each split into
        // its two units, the lead surrogate at its lead byte and the trail
        // at the byte after. A 4-byte lead at 13 would put its trail past
        // the window: the step ends before it.
        let next = _mm_loadu_si128(s.add(16).cast());
        let read = 14 - (fours >> 13 & 1);
        let keep = (starts | fours << 1) & ((1 << read) - 1);
        (read as usize, window::<SWAP, true>(v, next, out, keep))
    }
}

/// Stores 8 units, swapped if `SWAP`.
///
/// # Safety
///
/// SSSE3; `out` is writable for 8 units.
#[inline(always)]
unsafe fn store8<const SWAP: bool>(out: *mut u16, v: __m128i) {
    // SAFETY: as the caller guarantees.
    unsafe {
        let v = if SWAP {
            _mm_shuffle_epi8(
                v,
                _mm_setr_epi8(1, 0, 3, 2, 5, 4, 7, 6, 9, 8, 11, 10, 13, 12, 15, 14),
            )
        } else {
            v
        };
        _mm_storeu_si128(out.cast(), v);
    }
}

/// Four 4-byte characters (16 bytes) to 8 units.
///
/// # Safety
///
/// SSSE3, SSE4.1; `out` is writable for 8 units.
#[inline(always)]
unsafe fn four_byte<const SWAP: bool>(v: __m128i, out: *mut u16) {
    // SAFETY: as the caller guarantees.
    unsafe {
        let bits = _mm_and_si128(v, _mm_set1_epi32(0x3F3F_3F07));
        let pairs = _mm_maddubs_epi16(bits, _mm_set1_epi32(0x0140_0140));
        let value = _mm_madd_epi16(pairs, _mm_set1_epi32(0x0001_1000));
        let v = _mm_sub_epi32(value, _mm_set1_epi32(0x1_0000));
        let high = _mm_add_epi32(_mm_srli_epi32::<10>(v), _mm_set1_epi32(0xD800));
        let low = _mm_or_si128(
            _mm_and_si128(v, _mm_set1_epi32(0x3FF)),
            _mm_set1_epi32(0xDC00),
        );
        store8::<SWAP>(out, _mm_or_si128(high, _mm_slli_epi32::<16>(low)));
    }
}

/// Four 3-byte characters (bytes `k..k + 12`, `k <= 2`) to 4 units.
///
/// # Safety
///
/// SSSE3, SSE4.1; `out` is writable for 8 units (4 are stray).
#[inline(always)]
unsafe fn three_byte<const SWAP: bool>(v: __m128i, k: u32, out: *mut u16) {
    // SAFETY: as the caller guarantees.
    unsafe {
        let order = _mm_setr_epi8(1, 2, 0, -1, 4, 5, 3, -1, 7, 8, 6, -1, 10, 11, 9, -1);
        let order = _mm_add_epi8(order, _mm_set1_epi8(k as i8));
        let bits = _mm_and_si128(_mm_shuffle_epi8(v, order), _mm_set1_epi32(0x000F_3F3F));
        let pairs = _mm_maddubs_epi16(bits, _mm_set1_epi32(0x0001_0140));
        let value = _mm_madd_epi16(pairs, _mm_set1_epi32(0x1000_0001));
        store8::<SWAP>(out, _mm_packus_epi32(value, value));
    }
}

/// The window: the units of the positions `keep` selects among `0..14`
/// of `v` (`next` holds the 16 bytes after it): the characters that start
/// there, none of 4 bytes, or with `FOUR` also the halves of 4-byte ones (a
/// lead surrogate at a 4-byte lead, the trail at the byte after it);
/// returns how many.
///
/// # Safety
///
/// SSSE3, SSE4.1, POPCNT; `out` is writable for 16 units; `keep` is
/// below `1 << 14`.
#[inline(always)]
unsafe fn window<const SWAP: bool, const FOUR: bool>(
    v: __m128i,
    next: __m128i,
    out: *mut u16,
    starts: u32,
) -> usize {
    // SAFETY: as the caller guarantees.
    unsafe {
        let x1 = _mm_alignr_epi8::<1>(next, v);
        let x2 = _mm_alignr_epi8::<2>(next, v);
        let (first, second) = ((starts & 0xFF) as usize, (starts >> 8) as usize);
        let a = half::<FOUR>(v, x1, x2, first);
        let b = half::<FOUR>(
            _mm_srli_si128::<8>(v),
            _mm_srli_si128::<8>(x1),
            _mm_srli_si128::<8>(x2),
            second,
        );
        let n = first.count_ones() as usize;
        store8::<SWAP>(out, a);
        store8::<SWAP>(out.add(n), b);
        n + second.count_ones() as usize
    }
}

/// Eight positions of a window (the low 8 bytes of `x0`, `x1`, `x2`: the
/// bytes at each position and the two after it), left-packed by `keep`;
/// with `FOUR`, a 4-byte lead's position makes its lead surrogate and a
/// continuation byte's the trail of the 4-byte character before it.
///
/// # Safety
///
/// SSSE3, SSE4.1; `keep` is below 256.
#[inline(always)]
unsafe fn half<const FOUR: bool>(x0: __m128i, x1: __m128i, x2: __m128i, keep: usize) -> __m128i {
    // SAFETY: as the caller guarantees; `keep` indexes PACK16.
    unsafe {
        let b0 = _mm_cvtepu8_epi16(x0);
        let six = _mm_set1_epi16(0x3F);
        let c1 = _mm_and_si128(_mm_cvtepu8_epi16(x1), six);
        let c2 = _mm_and_si128(_mm_cvtepu8_epi16(x2), six);
        let two = _mm_and_si128(
            _mm_or_si128(_mm_slli_epi16::<6>(b0), c1),
            _mm_set1_epi16(0x7FF),
        );
        let three = _mm_or_si128(
            _mm_or_si128(_mm_slli_epi16::<12>(b0), _mm_slli_epi16::<6>(c1)),
            c2,
        );
        let is2 = _mm_cmpgt_epi16(b0, _mm_set1_epi16(0xBF));
        let is3 = _mm_cmpgt_epi16(b0, _mm_set1_epi16(0xDF));
        let mut units = _mm_blendv_epi8(_mm_blendv_epi8(b0, two, is2), three, is3);
        if FOUR {
            // At a 4-byte lead `three >> 4` holds the code point's bits 10
            // to 20 (`b0 << 12` keeps the lead's low nibble); less the
            // `10000` offset, plus `D800`: `+ D7C0`. At the byte after it,
            // `three`'s low 10 bits are the trail's.
            let lead = _mm_add_epi16(_mm_srli_epi16::<4>(three), _mm_set1_epi16(0xD7C0u16 as i16));
            let trail = _mm_or_si128(
                _mm_and_si128(three, _mm_set1_epi16(0x3FF)),
                _mm_set1_epi16(0xDC00u16 as i16),
            );
            let cont = _mm_andnot_si128(is2, _mm_cmpgt_epi16(b0, _mm_set1_epi16(0x7F)));
            let is4 = _mm_cmpgt_epi16(b0, _mm_set1_epi16(0xEF));
            units = _mm_blendv_epi8(_mm_blendv_epi8(units, trail, cont), lead, is4);
        }
        let pack = _mm_loadu_si128(PACK16.as_ptr().add(keep).cast());
        _mm_shuffle_epi8(units, pack)
    }
}

codec_arch::enable! { sse41;
    /// The ASCII prefix of `src` (any bytes) to UTF-16, 16 bytes at a time:
    /// stops at the first block with a byte above 0x7F, or near the end, and
    /// writes exactly what it converts.
    ///
    /// # Safety
    ///
    /// SSSE3 and SSE4.1; `dst` is valid for writes of `cap` `u16`s (at any
    /// alignment).
    pub(crate) unsafe fn ascii_prefix<const SWAP: bool>(
        src: &[u8],
        dst: *mut u16,
        cap: usize,
    ) -> (usize, usize) {
        let (len, s) = (src.len(), src.as_ptr());
        let mut p = 0;
        while p + 16 <= len && p + 16 <= cap {
            // SAFETY: `p + 16 <= len` bytes read, `p + 16 <= cap` units written.
            unsafe {
                let v = _mm_loadu_si128(s.add(p).cast());
                if _mm_movemask_epi8(v) != 0 {
                    break;
                }
                store8::<SWAP>(dst.add(p), _mm_cvtepu8_epi16(v));
                store8::<SWAP>(dst.add(p + 8), _mm_cvtepu8_epi16(_mm_srli_si128::<8>(v)));
            }
            p += 16;
        }
        (p, p)
    }
}
