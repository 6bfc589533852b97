//! The SSE4.1 token's implementations of the generic families' 16-byte
//! steps (`generic::latin1::Latin1Lanes`): the parts written per
//! architecture, with `pshufb` and `punpck`.

use super::super::generic::latin1::Latin1Lanes;
use super::tables::{PACK8, PACK12};
use codec_arch::x86_64::Sse41;
use core::arch::x86_64::*;

impl Latin1Lanes for Sse41 {
    #[inline(always)]
    unsafe fn expand_latin1(self, x: __m128i, high: u16, dst: *mut u8) -> usize {
        let (lo, hi) = ((high & 0xFF) as usize, (high >> 8) as usize);
        let len_lo = 8 + lo.count_ones() as usize;
        // SAFETY: the token proves the CPU features (module docs of
        // `codec_arch::simd`); the tables are indexed below 256; the stores
        // are inside what the caller provides.
        unsafe {
            let top2 = _mm_and_si128(_mm_srli_epi16::<6>(x), _mm_set1_epi8(0x03));
            let lead = _mm_or_si128(top2, _mm_set1_epi8(0xC0u8 as i8));
            // The top bit of each byte picks the lead byte over the byte.
            let first = _mm_blendv_epi8(x, lead, x);
            let second = _mm_or_si128(
                _mm_and_si128(x, _mm_set1_epi8(0x3F)),
                _mm_set1_epi8(0x80u8 as i8),
            );
            let pairs_lo = _mm_unpacklo_epi8(first, second);
            let pairs_hi = _mm_unpackhi_epi8(first, second);
            let out_lo = _mm_shuffle_epi8(pairs_lo, _mm_loadu_si128(PACK12[lo].as_ptr().cast()));
            let out_hi = _mm_shuffle_epi8(pairs_hi, _mm_loadu_si128(PACK12[hi].as_ptr().cast()));
            _mm_storeu_si128(dst.cast(), out_lo);
            _mm_storeu_si128(dst.add(len_lo).cast(), out_hi);
        }
        len_lo + 8 + hi.count_ones() as usize
    }

    #[inline(always)]
    unsafe fn pack_starts(self, x: __m128i, starts: u16, dst: *mut u8) -> usize {
        let (lo, hi) = ((starts & 0xFF) as usize, (starts >> 8) as usize);
        let len_lo = lo.count_ones() as usize;
        // SAFETY: the token proves the CPU features (module docs of
        // `codec_arch::simd`); the table is indexed below 256; the stores
        // are inside what the caller provides.
        unsafe {
            let out_lo = _mm_shuffle_epi8(x, _mm_cvtsi64_si128(PACK8[lo] as i64));
            let out_hi = _mm_shuffle_epi8(
                _mm_unpackhi_epi64(x, x),
                _mm_cvtsi64_si128(PACK8[hi] as i64),
            );
            _mm_storeu_si64(dst, out_lo);
            _mm_storeu_si64(dst.add(len_lo), out_hi);
        }
        len_lo + hi.count_ones() as usize
    }
}
