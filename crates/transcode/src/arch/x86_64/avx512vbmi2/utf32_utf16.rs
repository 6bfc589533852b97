//! UTF-32 → UTF-16 with VBMI2: 16 values a register, up to the first
//! register with a value that is not a scalar value.
//!
//! A register below U+10000 is narrowed (`vpmovdw`). Otherwise each value
//! becomes its UTF-16 in a 32-bit lane (the value itself; or the lead
//! surrogate, then the trail), and one `vpcompressw` keeps every lane's
//! first unit and the second unit of the lanes above U+FFFF, with an exact
//! masked store: one instruction where the AVX-512 table's kernel packs
//! each 16-byte lane with a `pshufb` from a table (Emoji text ran at
//! 0.65 of simdutf's AVX-512 kernel there). After a register below
//! U+10000, four registers are tested at once and narrowed, as that
//! kernel does for BMP text; the last values (and whatever stops this
//! loop) go to that kernel.

use super::super::avx512::utf32::utf32_to_utf16 as avx512_utf32_to_utf16;
use core::arch::x86_64::*;

codec_arch::enable! { avx512vbmi2;
    /// UTF-32 to UTF-16: see the module docs.
    pub(crate) fn utf32_to_utf16(src: &[u32], dst: &mut [u16]) -> (usize, usize) {
        let (n, cap) = (src.len(), dst.len());
        let (p, q) = (src.as_ptr(), dst.as_mut_ptr());
        let (mut i, mut o) = (0, 0);
        let (xffff, x10ffff, f800, d800) = (
            _mm512_set1_epi32(0xFFFF),
            _mm512_set1_epi32(0x10_FFFF),
            _mm512_set1_epi32(0xFFFF_F800u32 as i32),
            _mm512_set1_epi32(0xD800),
        );
        // Whether the last register was below U+10000: then four registers
        // are tried at once (BMP text), not after pairs (Emoji text).
        let mut bmp = true;
        while n - i >= 16 && cap - o >= 32 {
            if bmp && n - i >= 64 && cap - o >= 64 {
                // SAFETY: values `i..i + 64` are inside `src`, and `o + 64 <=
                // cap`.
                let done = unsafe {
                    let z = [
                        _mm512_loadu_si512(p.add(i).cast()),
                        _mm512_loadu_si512(p.add(i + 16).cast()),
                        _mm512_loadu_si512(p.add(i + 32).cast()),
                        _mm512_loadu_si512(p.add(i + 48).cast()),
                    ];
                    // All below U+10000 (no bit above 16 in any), and no
                    // surrogate.
                    let any = _mm512_or_si512(_mm512_or_si512(z[0], z[1]), _mm512_or_si512(z[2], z[3]));
                    let surrogate = z.iter().fold(0, |m, &x| {
                        m | _mm512_cmpeq_epi32_mask(_mm512_and_si512(x, f800), d800)
                    });
                    let ok = _mm512_test_epi32_mask(any, _mm512_set1_epi32(0xFFFF_0000u32 as i32)) == 0
                        && surrogate == 0;
                    if ok {
                        for (k, &x) in z.iter().enumerate() {
                            _mm256_storeu_si256(q.add(o + 16 * k).cast(), _mm512_cvtepi32_epi16(x));
                        }
                    }
                    ok
                };
                if done {
                    i += 64;
                    o += 64;
                    continue;
                }
            }
            // SAFETY: values `i..i + 16` are inside `src`.
            let v = unsafe { _mm512_loadu_si512(p.add(i).cast()) };
            let bad = _mm512_cmpgt_epu32_mask(v, x10ffff)
                | _mm512_cmpeq_epi32_mask(_mm512_and_si512(v, f800), d800);
            if bad != 0 {
                break;
            }
            let supp = _mm512_cmpgt_epu32_mask(v, xffff);
            if supp == 0 {
                // SAFETY: `o + 16 <= cap`.
                unsafe { _mm256_storeu_si256(q.add(o).cast(), _mm512_cvtepi32_epi16(v)) };
                i += 16;
                o += 16;
                bmp = true;
                continue;
            }
            // SAFETY: `o + 32 <= cap`.
            o += unsafe { store_units(v, supp, 16, q.add(o)) };
            i += 16;
            bmp = false;
        }
        // The last values (fewer than 16), under a mask: the AVX-512 kernel's
        // end took 1 KiB of BMP text to 0.64-0.83 of simdutf's AVX-512 kernel.
        let r = n - i;
        if r > 0 && r < 16 && cap - o >= 2 * r {
            let m = _bzhi_u32(u32::MAX, r as u32) as u16;
            // SAFETY: the masked load reads values `i..n`, inside `src` (the
            // lanes outside the mask are not accessed, and are zero, a scalar
            // value).
            let v = unsafe { _mm512_maskz_loadu_epi32(m, p.add(i).cast()) };
            let bad = _mm512_cmpgt_epu32_mask(v, x10ffff)
                | _mm512_cmpeq_epi32_mask(_mm512_and_si512(v, f800), d800);
            if bad == 0 {
                let supp = _mm512_cmpgt_epu32_mask(v, xffff);
                // SAFETY: the `r` values write at most `2 * r <= cap - o` units.
                let w = unsafe { store_units(v, supp, r, q.add(o)) };
                return (n, o + w);
            }
        }
        // The last values, and whatever stopped the loop: the AVX-512 table's
        // kernel (and from it the scalar code, which reports an invalid value).
        let (Some(rest), Some(out)) = (src.get(i..), dst.get_mut(o..)) else {
            return (i, o);
        };
        // A safe call: this function has the AVX-512 kernel's features.
        let (r, w) = avx512_utf32_to_utf16(rest, out);
        (i + r, o + w)
    }
}

/// Stores the UTF-16 of the first `r` values of `v` (`1 <= r <= 16`,
/// scalar values; `supp`: those above U+FFFF) at `out`, exactly; returns
/// how many units that is.
///
/// # Safety
///
/// The CPU has this table's features; `out` is writable for `r` units and
/// one more for each value of `supp` below `r`.
#[inline(always)]
unsafe fn store_units(v: __m512i, supp: u16, r: usize, out: *mut u16) -> usize {
    // SAFETY: the caller guarantees the features; the masked store writes
    // the first `w` units, `r` and one more for each pair, as the caller
    // guarantees room for.
    unsafe {
        // Lead `D800 + (v - 10000) >> 10` in the low half, trail `DC00 | v
        // & 3FF` in the high half, for the lanes above U+FFFF.
        let offset = _mm512_sub_epi32(v, _mm512_set1_epi32(0x1_0000));
        let lead = _mm512_add_epi32(_mm512_srli_epi32::<10>(offset), _mm512_set1_epi32(0xD800));
        let trail = _mm512_or_si512(
            _mm512_and_si512(v, _mm512_set1_epi32(0x3FF)),
            _mm512_set1_epi32(0xDC00),
        );
        let pair = _mm512_or_si512(lead, _mm512_slli_epi32::<16>(trail));
        let lanes = _mm512_mask_mov_epi32(v, supp, pair);
        // Every lane's low unit, and the high unit of the pairs, for the
        // first `r` lanes.
        let keep = (0x5555_5555 | _pdep_u32(u32::from(supp), 0xAAAA_AAAA))
            & _bzhi_u32(u32::MAX, 2 * r as u32);
        let w = keep.count_ones() as usize;
        let packed = _mm512_maskz_compress_epi16(keep, lanes);
        _mm512_mask_storeu_epi16(out.cast(), _bzhi_u32(u32::MAX, w as u32), packed);
        w
    }
}
