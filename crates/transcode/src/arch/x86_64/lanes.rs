//! The x86-64 tokens' implementations of the generic families' traits
//! (`generic::latin1::Latin1Lanes`, `generic::utf16_utf8::Utf16Simd`): the
//! parts written per architecture and width, with `pshufb`, `punpck`,
//! `palignr` and `pext`.

use super::super::generic::latin1::Latin1Lanes;
use super::super::generic::utf16_utf8::Utf16Simd;
use super::tables::{PACK8, PACK12};
use codec_arch::x86_64::{Avx2, Sse41};
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

impl Utf16Simd for Sse41 {
    type Scratch = [u8; 3 * 8 + 16];

    #[inline(always)]
    fn scratch(self) -> [u8; 3 * 8 + 16] {
        [0; 3 * 8 + 16]
    }

    #[inline(always)]
    fn prev16(self, v: __m128i) -> __m128i {
        // SAFETY: the token proves the CPU features.
        unsafe { _mm_slli_si128::<2>(v) }
    }

    #[inline(always)]
    fn unpack16(self, a: __m128i, b: __m128i) -> (__m128i, __m128i) {
        // SAFETY: the token proves the CPU features.
        unsafe { (_mm_unpacklo_epi16(a, b), _mm_unpackhi_epi16(a, b)) }
    }

    #[inline(always)]
    fn bits16(self, m: __m128i) -> u64 {
        // SAFETY: the token proves the CPU features.
        u64::from(unsafe { _mm_movemask_epi8(_mm_packs_epi16(m, m)) } as u32 & 0xFF)
    }

    #[inline(always)]
    unsafe fn store_last(self, p: *mut u8, v: __m128i) {
        // The next block makes at least 8 bytes, so 8 stray bytes at most
        // may follow: 8 bytes, then 4.
        // SAFETY: 12 of the 16 bytes the caller guarantees.
        unsafe {
            _mm_storel_epi64(p.cast(), v);
            _mm_storeu_si32(p.add(8).cast(), _mm_srli_si128::<8>(v));
        }
    }

    #[inline(always)]
    unsafe fn block_units<const SWAP: bool>(
        self,
        src: *const u16,
        avail: usize,
        out: *mut u8,
    ) -> (usize, usize, bool) {
        // SAFETY: the caller's guarantee, with N = 8.
        unsafe { super::super::common::utf16_units::<SWAP, 8>(src, avail, out) }
    }
}

impl Utf16Simd for Avx2 {
    type Scratch = [u8; 3 * 16 + 16];

    #[inline(always)]
    fn scratch(self) -> [u8; 3 * 16 + 16] {
        [0; 3 * 16 + 16]
    }

    #[inline(always)]
    fn prev16(self, v: __m256i) -> __m256i {
        // `alignr` works within 128-bit lanes: the high lane takes its first
        // unit from the low lane's last, the low lane a zero.
        // SAFETY: the token proves the CPU features.
        unsafe { _mm256_alignr_epi8::<14>(v, _mm256_permute2x128_si256::<0x08>(v, v)) }
    }

    #[inline(always)]
    fn unpack16(self, a: __m256i, b: __m256i) -> (__m256i, __m256i) {
        // SAFETY: the token proves the CPU features.
        unsafe { (_mm256_unpacklo_epi16(a, b), _mm256_unpackhi_epi16(a, b)) }
    }

    #[inline(always)]
    fn bits16(self, m: __m256i) -> u64 {
        // One `pext` (BMI2, in the token's features) instead of the pack and
        // permute of `movemask16`.
        // SAFETY: the token proves the CPU features.
        u64::from(unsafe { _pext_u32(_mm256_movemask_epi8(m) as u32, 0x5555_5555) })
    }

    #[inline(always)]
    unsafe fn store_last(self, p: *mut u8, v: __m128i) {
        // 12 stray bytes at most, and the next block makes at least 16.
        // SAFETY: the 16 bytes the caller guarantees.
        unsafe { _mm_storeu_si128(p.cast(), v) }
    }

    #[inline(always)]
    unsafe fn block_units<const SWAP: bool>(
        self,
        src: *const u16,
        avail: usize,
        out: *mut u8,
    ) -> (usize, usize, bool) {
        // SAFETY: the caller's guarantee, with N = 16.
        unsafe { super::super::common::utf16_units::<SWAP, 16>(src, avail, out) }
    }
}
