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

codec_arch::enable! { sse41;
    /// See the module docs. `src` is read with unaligned loads.
    ///
    /// # Safety
    ///
    /// The CPU has SSSE3, SSE4.1 and POPCNT, and `src` is valid for reads of
    /// `len` `u16`s (at any alignment).
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
                // SAFETY: `out` and the scratch buffer have room for BLOCK_OUT
                // + 16 bytes; `src` has `len - p >= 8` units from `p`.
                let (r, w, whole, scratched) = unsafe {
                    with_surrogates::<SWAP>(v, src.add(p), len - p, out, scratch.as_mut_ptr())
                };
                (r, w, whole, scratched || !exact)
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

codec_arch::enable! { sse41;
    /// Whether any unit of `a` or `b` is a surrogate.
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
        let (w0, w1, codes) = words123(u);
        pack123(w0, w1, codes, out)
    }
}

/// The UTF-8 of 8 units without surrogates, 1 to 3 bytes each (see the
/// AVX2 kernel's `one_two_three`): the first two bytes of each in `w0`, the
/// third in `w1`, and the codes, 2 bits a unit (0, 1 or 2 for 1, 2 or 3
/// bytes).
#[inline(always)]
unsafe fn words123(u: __m128i) -> (__m128i, __m128i, u32) {
    // SAFETY: the caller has the CPU features.
    unsafe {
        let zero = _mm_setzero_si128();
        let ascii = _mm_cmpeq_epi16(_mm_and_si128(u, _mm_set1_epi16(0xFF80u16 as i16)), zero);
        let short = _mm_cmpeq_epi16(_mm_and_si128(u, _mm_set1_epi16(0xF800u16 as i16)), zero);
        let six = _mm_set1_epi16(0x3F);
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
        (w0, w1, codes)
    }
}

/// Packs [`words123`]'s words by their codes and stores them at `out`:
/// returns the bytes of output (4 to 24); up to 8 bytes of garbage follow.
///
/// # Safety
///
/// SSSE3, SSE4.1, POPCNT; `out` is writable for `BLOCK_OUT + 16` bytes.
#[inline(always)]
unsafe fn pack123(w0: __m128i, w1: __m128i, codes: u32, out: *mut u8) -> usize {
    // SAFETY: as the caller guarantees; the table indices are below 256.
    unsafe {
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

codec_arch::enable! { sse41;
    /// 8 units with surrogates, all in pairs but for a lead in the last unit
    /// (`leads` and `trails`: `movemask` bits, two a unit), to UTF-8 at `out`:
    /// `(units read, bytes written)`, the lead in the last unit left to the
    /// next block. Each unit of a pair makes 2 of the character's 4 bytes in
    /// its own lane, as in the AVX2 kernel's `one_two_three_pairs` (whose docs
    /// give the formulas), and the block is packed as one without surrogates.
    /// Up to 8 bytes of garbage follow the output (and the last lead's 2
    /// bytes).
    ///
    /// One unit at a time, these blocks ran text with an emoji every 8
    /// characters at 0.6-1.1 GB/s, below the portable scalar kernel.
    ///
    /// # Safety
    ///
    /// SSSE3, SSE4.1, POPCNT; `out` is writable for `BLOCK_OUT + 16` bytes.
    #[inline(never)]
    unsafe fn with_pairs(u: __m128i, leads: u32, trails: u32, out: *mut u8) -> (usize, usize) {
        // SAFETY: this function has the CPU features.
        let (w0, w1, codes) = unsafe { words123(u) };
        let h = _mm_add_epi16(
            _mm_and_si128(u, _mm_set1_epi16(0x3FF)),
            _mm_set1_epi16(0x40),
        );
        let lead = _mm_or_si128(
            _mm_or_si128(
                _mm_srli_epi16::<8>(h),
                _mm_and_si128(_mm_slli_epi16::<6>(h), _mm_set1_epi16(0x3F00)),
            ),
            _mm_set1_epi16(0x80F0u16 as i16),
        );
        // The unit before each (0 before the first, which is no trail).
        let before = _mm_slli_si128::<2>(u);
        let trail = _mm_or_si128(
            _mm_or_si128(
                _mm_and_si128(_mm_slli_epi16::<4>(before), _mm_set1_epi16(0x30)),
                _mm_and_si128(_mm_srli_epi16::<6>(u), _mm_set1_epi16(0x0F)),
            ),
            _mm_or_si128(
                _mm_and_si128(_mm_slli_epi16::<8>(u), _mm_set1_epi16(0x3F00)),
                _mm_set1_epi16(0x8080u16 as i16),
            ),
        );
        let top6 = _mm_and_si128(u, _mm_set1_epi16(0xFC00u16 as i16));
        let is_lead = _mm_cmpeq_epi16(top6, _mm_set1_epi16(0xD800u16 as i16));
        let is_trail = _mm_cmpeq_epi16(top6, _mm_set1_epi16(0xDC00u16 as i16));
        let w0 = _mm_blendv_epi8(_mm_blendv_epi8(w0, lead, is_lead), trail, is_trail);
        // Surrogates are from `800`: code 2 (3 bytes) in `words123`, 1 here.
        let codes = codes - ((leads | trails) & 0x5555);
        // SAFETY: as the caller guarantees.
        let w = unsafe { pack123(w0, w1, codes, out) };
        let last = usize::from(leads >> 14 != 0);
        (8 - last, w - 2 * last)
    }
}

/// A block with a surrogate: `(units read, bytes written, whether the block
/// was whole, whether the bytes are in `scratch` rather than at `out`)`.
/// Four pairs, and blocks of units the vector paths do not take, are
/// written exactly at `out`; pairs among other units ([`with_pairs`]),
/// whose stores leave garbage after the output, into `scratch`.
///
/// # Safety
///
/// SSSE3, SSE4.1, POPCNT; `src` is readable for `avail >= 8` units, `out`
/// and `scratch` writable for `BLOCK_OUT + 16` bytes.
#[inline(always)]
unsafe fn with_surrogates<const SWAP: bool>(
    v: __m128i,
    src: *const u16,
    avail: usize,
    out: *mut u8,
    scratch: *mut u8,
) -> (usize, usize, bool, bool) {
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
            return (8, 16, true, false);
        }
        // All in pairs but for a lead in the last unit, left to the next
        // block.
        if trails == (leads << 2) & 0xFFFF {
            let (r, w) = with_pairs(v, leads as u32, trails as u32, scratch);
            return (r, w, true, true);
        }
        let (r, w, whole) = utf16_units::<SWAP, 8>(src, avail, out);
        (r, w, whole, false)
    }
}
