//! SSE4.1: UTF-16 (native, or byte-swapped with `SWAP`) → UTF-8,
//! validating.
//!
//! The AVX2 kernel's design (`avx2/utf16_utf8.rs`, whose docs explain it)
//! with blocks of 8 units: ASCII (two blocks at once), pairs only, below
//! U+0800 ([`PACK12`]), no surrogates ([`PACK123`], two groups of 4), or one
//! by one. A block that leaves stray bytes (8 at most) is stored in place
//! only if the next block has no surrogate (and so writes at least 8).

use super::super::common::utf16_units;
use super::super::tables::{LEN123, PACK12, PACK123};
use core::arch::x86_64::*;

/// The most bytes one block of 8 units makes.
const BLOCK_OUT: usize = 24;

/// See the module docs. `src` is read with unaligned loads.
///
/// # Safety
///
/// The CPU has SSSE3, SSE4.1 and POPCNT, and `src` is valid for reads of
/// `len` `u16`s (at any alignment).
#[target_feature(enable = "ssse3,sse4.1,popcnt")]
pub(crate) unsafe fn convert<const SWAP: bool>(
    src: *const u16,
    len: usize,
    dst: &mut [u8],
) -> (usize, usize) {
    let cap = dst.len();
    let d = dst.as_mut_ptr();
    let (mut p, mut o) = (0usize, 0usize);
    let mut scratch = [0u8; BLOCK_OUT + 16];
    let high = _mm_set1_epi16(0xFF80u16 as i16);
    loop {
        while p + 16 <= len && o + 2 * BLOCK_OUT + 16 <= cap {
            // SAFETY: `p + 16 <= len`.
            let (v, n) = unsafe { (load::<SWAP>(src.add(p)), load::<SWAP>(src.add(p + 8))) };
            if _mm_testz_si128(_mm_or_si128(v, n), high) != 0 {
                // SAFETY: `o + 16 <= cap`.
                unsafe { _mm_storeu_si128(d.add(o).cast(), _mm_packus_epi16(v, n)) };
                p += 16;
                o += 16;
                continue;
            }
            if surrogates(v, n) {
                break;
            }
            // SAFETY: `o + BLOCK_OUT + 16 <= cap`.
            o += unsafe { no_surrogate(v, d.add(o)) };
            p += 8;
        }
        if p + 8 > len {
            break;
        }
        // SAFETY: `p + 8 <= len`.
        let v = unsafe { load::<SWAP>(src.add(p)) };
        let exact = o + BLOCK_OUT + 16 <= cap;
        let out = if exact {
            // SAFETY: `o + BLOCK_OUT + 16 <= cap`.
            unsafe { d.add(o) }
        } else {
            scratch.as_mut_ptr()
        };
        let (r, w, whole, copy) = if surrogates(v, v) {
            // SAFETY: `out` has room for BLOCK_OUT + 16 bytes; `src` has
            // `len - p >= 8` units from `p`.
            let (r, w, whole) = unsafe { with_surrogates::<SWAP>(v, src.add(p), len - p, out) };
            (r, w, whole, !exact)
        } else {
            // SAFETY: the scratch buffer has room for BLOCK_OUT + 16 bytes.
            let w = unsafe { no_surrogate(v, scratch.as_mut_ptr()) };
            (8, w, true, true)
        };
        if copy {
            if o + w > cap {
                break;
            }
            // SAFETY: `w` bytes of `scratch` to `dst[o..o + w]`, inside
            // `cap`; no overlap.
            unsafe { core::ptr::copy_nonoverlapping(scratch.as_ptr(), d.add(o), w) };
        }
        p += r;
        o += w;
        if !whole {
            break;
        }
    }
    (p, o)
}

/// 8 units at `src`, as native `u16`s.
///
/// # Safety
///
/// SSSE3; `src` is readable for 8 units.
#[inline(always)]
unsafe fn load<const SWAP: bool>(src: *const u16) -> __m128i {
    // SAFETY: as the caller guarantees.
    unsafe {
        let v = _mm_loadu_si128(src.cast());
        if SWAP {
            _mm_shuffle_epi8(
                v,
                _mm_setr_epi8(1, 0, 3, 2, 5, 4, 7, 6, 9, 8, 11, 10, 13, 12, 15, 14),
            )
        } else {
            v
        }
    }
}

/// Whether any unit of `a` or `b` is a surrogate.
#[target_feature(enable = "ssse3,sse4.1,popcnt")]
#[inline]
fn surrogates(a: __m128i, b: __m128i) -> bool {
    let (f800, d800) = (
        _mm_set1_epi16(0xF800u16 as i16),
        _mm_set1_epi16(0xD800u16 as i16),
    );
    let s = _mm_or_si128(
        _mm_cmpeq_epi16(_mm_and_si128(a, f800), d800),
        _mm_cmpeq_epi16(_mm_and_si128(b, f800), d800),
    );
    _mm_testz_si128(s, s) == 0
}

/// 8 units without surrogates to 8..24 bytes; returns how many.
///
/// # Safety
///
/// SSSE3, SSE4.1, POPCNT; `out` is writable for `BLOCK_OUT + 16` bytes.
#[inline(always)]
unsafe fn no_surrogate(u: __m128i, out: *mut u8) -> usize {
    // SAFETY: as the caller guarantees; the table indices are below 256.
    unsafe {
        let zero = _mm_setzero_si128();
        let ascii = _mm_cmpeq_epi16(_mm_and_si128(u, _mm_set1_epi16(0xFF80u16 as i16)), zero);
        let short = _mm_cmpeq_epi16(_mm_and_si128(u, _mm_set1_epi16(0xF800u16 as i16)), zero);
        let six = _mm_set1_epi16(0x3F);
        if _mm_movemask_epi8(short) == 0xFFFF {
            // Below U+0800: lead C0 | u >> 6, then 80 | u & 3F, per lane.
            let two = _mm_or_si128(
                _mm_or_si128(_mm_srli_epi16::<6>(u), _mm_set1_epi16(0xC0)),
                _mm_slli_epi16::<8>(_mm_or_si128(_mm_and_si128(u, six), _mm_set1_epi16(0x80))),
            );
            let lanes = _mm_blendv_epi8(two, u, ascii);
            // One bit a unit: needs two bytes.
            let m = !_mm_movemask_epi8(_mm_packs_epi16(ascii, ascii)) as u32 & 0xFF;
            let pack = _mm_loadu_si128(PACK12.as_ptr().add(m as usize).cast());
            _mm_storeu_si128(out.cast(), _mm_shuffle_epi8(lanes, pack));
            return 8 + m.count_ones() as usize;
        }
        // 1 to 3 bytes: see the AVX2 kernel's `one_two_three`.
        let v = _mm_blendv_epi8(_mm_srli_epi16::<6>(u), u, short);
        let tag = _mm_or_si128(
            _mm_set1_epi16(0x80C0u16 as i16),
            _mm_andnot_si128(short, _mm_set1_epi16(0x20)),
        );
        let w0 = _mm_or_si128(
            _mm_or_si128(
                _mm_srli_epi16::<6>(v),
                _mm_slli_epi16::<8>(_mm_and_si128(v, six)),
            ),
            tag,
        );
        let w0 = _mm_blendv_epi8(w0, u, ascii);
        let w1 = _mm_or_si128(_mm_and_si128(u, six), _mm_set1_epi16(0x80));
        let codes = (!_mm_movemask_epi8(ascii) as u32 & 0x5555)
            + (!_mm_movemask_epi8(short) as u32 & 0x5555);
        let first = (codes & 0xFF) as usize;
        let second = ((codes >> 8) & 0xFF) as usize;
        let a = _mm_shuffle_epi8(
            _mm_unpacklo_epi16(w0, w1),
            _mm_loadu_si128(PACK123.as_ptr().add(first).cast()),
        );
        let b = _mm_shuffle_epi8(
            _mm_unpackhi_epi16(w0, w1),
            _mm_loadu_si128(PACK123.as_ptr().add(second).cast()),
        );
        let n = usize::from(LEN123[first]);
        _mm_storeu_si128(out.cast(), a);
        // The second group (4 to 12 bytes) is stored as 12 bytes, not 16,
        // so that at most 8 bytes of garbage follow the block: the next
        // block, which in the in-place loop has no surrogate, writes at
        // least 8 (a 16-byte store left up to 12, past what an ASCII block
        // writes, when the loop ended at that next block).
        _mm_storel_epi64(out.add(n).cast(), b);
        _mm_storeu_si32(out.add(n + 8).cast(), _mm_srli_si128::<8>(b));
        n + usize::from(LEN123[second])
    }
}

/// A block with a surrogate: `(units read, bytes written, whether the block
/// was whole)`.
///
/// # Safety
///
/// SSSE3, SSE4.1; `src` is readable for `avail >= 8` units, `out` writable
/// for `BLOCK_OUT + 16` bytes.
#[inline(always)]
unsafe fn with_surrogates<const SWAP: bool>(
    v: __m128i,
    src: *const u16,
    avail: usize,
    out: *mut u8,
) -> (usize, usize, bool) {
    // SAFETY: as the caller guarantees (`utf16_units` with N = 8 writes at
    // most 28 bytes, within BLOCK_OUT + 16).
    unsafe {
        let top6 = _mm_and_si128(v, _mm_set1_epi16(0xFC00u16 as i16));
        let leads = _mm_movemask_epi8(_mm_cmpeq_epi16(top6, _mm_set1_epi16(0xD800u16 as i16)));
        let trails = _mm_movemask_epi8(_mm_cmpeq_epi16(top6, _mm_set1_epi16(0xDC00u16 as i16)));
        if leads == 0x3333 && trails == 0xCCCC {
            // Four pairs to four 4-byte characters; see the AVX2 kernel.
            let ten = _mm_set1_epi32(0x3FF);
            let cp = _mm_add_epi32(
                _mm_add_epi32(
                    _mm_slli_epi32::<10>(_mm_and_si128(v, ten)),
                    _mm_and_si128(_mm_srli_epi32::<16>(v), ten),
                ),
                _mm_set1_epi32(0x1_0000),
            );
            let bytes = _mm_or_si128(
                _mm_or_si128(
                    _mm_srli_epi32::<18>(cp),
                    _mm_and_si128(_mm_srli_epi32::<4>(cp), _mm_set1_epi32(0x3F00)),
                ),
                _mm_or_si128(
                    _mm_and_si128(_mm_slli_epi32::<10>(cp), _mm_set1_epi32(0x3F_0000)),
                    _mm_and_si128(_mm_slli_epi32::<24>(cp), _mm_set1_epi32(0x3F00_0000)),
                ),
            );
            let bytes = _mm_or_si128(bytes, _mm_set1_epi32(0x8080_80F0u32 as i32));
            _mm_storeu_si128(out.cast(), bytes);
            return (8, 16, true);
        }
        utf16_units::<SWAP, 8>(src, avail, out)
    }
}
