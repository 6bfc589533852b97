//! The x86-64 tokens' implementations of the generic families' traits
//! (`generic::latin1::Latin1Lanes`, `generic::utf16_utf8::Utf16Simd`,
//! `generic::utf8_utf16::Utf8Simd`), and the UTF-32 output of UTF-8 →
//! UTF-16 with 32-byte registers ([`Utf32Out`]): the parts written per
//! architecture and width, with `pshufb`, `punpck`, `palignr`,
//! `pmaddubsw` and `pext`.

use super::super::generic::latin1::Latin1Lanes;
use super::super::generic::utf8_utf16::{Out, Utf8Simd, four_windows};
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

impl Utf8Simd for Sse41 {
    #[inline(always)]
    fn maddubs(self, a: __m128i, b: __m128i) -> __m128i {
        // SAFETY: the token proves the CPU features.
        unsafe { _mm_maddubs_epi16(a, b) }
    }

    #[inline(always)]
    fn madd(self, a: __m128i, b: __m128i) -> __m128i {
        // SAFETY: the token proves the CPU features.
        unsafe { _mm_madd_epi16(a, b) }
    }

    #[inline(always)]
    fn widen8(self, x: __m128i, h: usize) -> __m128i {
        // SAFETY: the token proves the CPU features.
        unsafe {
            if h == 0 {
                _mm_cvtepu8_epi16(x)
            } else {
                _mm_cvtepu8_epi16(_mm_srli_si128::<8>(x))
            }
        }
    }

    #[inline(always)]
    fn three_byte_lanes(self, v: __m128i, k: u32) -> __m128i {
        // SAFETY: the token proves the CPU features.
        unsafe {
            let order = _mm_setr_epi8(1, 2, 0, -1, 4, 5, 3, -1, 7, 8, 6, -1, 10, 11, 9, -1);
            _mm_shuffle_epi8(v, _mm_add_epi8(order, _mm_set1_epi8(k as i8)))
        }
    }

    #[inline(always)]
    unsafe fn four_windows<O: Out<Self>>(
        self,
        x: (__m128i, __m128i),
        out: *mut O::Unit,
        starts: u64,
        fours: u64,
    ) -> usize {
        // SAFETY: the caller's guarantee.
        unsafe { four_windows::<Self, O>(self, x, out, starts, fours) }
    }
}

impl Utf8Simd for Avx2 {
    #[inline(always)]
    fn maddubs(self, a: __m256i, b: __m256i) -> __m256i {
        // SAFETY: the token proves the CPU features.
        unsafe { _mm256_maddubs_epi16(a, b) }
    }

    #[inline(always)]
    fn madd(self, a: __m256i, b: __m256i) -> __m256i {
        // SAFETY: the token proves the CPU features.
        unsafe { _mm256_madd_epi16(a, b) }
    }

    #[inline(always)]
    fn widen8(self, x: __m128i, _: usize) -> __m256i {
        // SAFETY: the token proves the CPU features.
        unsafe { _mm256_cvtepu8_epi16(x) }
    }

    #[inline(always)]
    fn three_byte_lanes(self, v: __m256i, k: u32) -> __m256i {
        // SAFETY: the token proves the CPU features.
        unsafe {
            // Bytes 0..12 stay in the low half; bytes 12..24 move to the high
            // half (the shuffle works within 128-bit lanes).
            let v = _mm256_permutevar8x32_epi32(v, _mm256_setr_epi32(0, 1, 2, 3, 3, 4, 5, 6));
            #[rustfmt::skip]
            let order = _mm256_setr_epi8(
                1, 2, 0, -1, 4, 5, 3, -1, 7, 8, 6, -1, 10, 11, 9, -1,
                1, 2, 0, -1, 4, 5, 3, -1, 7, 8, 6, -1, 10, 11, 9, -1,
            );
            _mm256_shuffle_epi8(v, _mm256_add_epi8(order, _mm256_set1_epi8(k as i8)))
        }
    }

    #[inline(always)]
    unsafe fn four_windows<O: Out<Self>>(
        self,
        x: (__m128i, __m128i),
        out: *mut O::Unit,
        starts: u64,
        fours: u64,
    ) -> usize {
        codec_arch::enable! { avx2;
            /// Out of line, so that `step` stays as small on text without
            /// 4-byte characters as before that path existed.
            #[inline(never)]
            unsafe fn outlined<O: Out<Avx2>>(
                x: (__m128i, __m128i),
                out: *mut O::Unit,
                starts: u64,
                fours: u64,
            ) -> usize {
                // SAFETY: the caller's guarantee.
                unsafe { four_windows::<Avx2, O>(Avx2::new(), x, out, starts, fours) }
            }
        }
        // SAFETY: the token proves the CPU has the features of `outlined`;
        // the rest is the caller's guarantee.
        unsafe { outlined::<O>(x, out, starts, fours) }
    }
}

/// UTF-32 output: units zero-extended, values stored as they are.
pub(crate) struct Utf32Out;

impl Out<Avx2> for Utf32Out {
    type Unit = u32;
    const PAIRS: bool = false;

    #[inline(always)]
    unsafe fn store8(_: Avx2, out: *mut u32, v: __m128i) {
        // SAFETY: the token proves the CPU features; the caller guarantees
        // the writes.
        unsafe { _mm256_storeu_si256(out.cast(), _mm256_cvtepu16_epi32(v)) }
    }

    #[inline(always)]
    unsafe fn store(s: Avx2, out: *mut u32, v: __m256i) {
        // SAFETY: as in `store8`; 8 units and 8 more.
        unsafe {
            Self::store8(s, out, _mm256_castsi256_si128(v));
            Self::store8(s, out.add(8), _mm256_extracti128_si256::<1>(v));
        }
    }

    #[inline(always)]
    unsafe fn store8_wide(_: Avx2, out: *mut u32, low: __m128i, high: __m128i) {
        // SAFETY: as in `store8`; units 0..4 and 4..8.
        unsafe {
            _mm_storeu_si128(out.cast(), _mm_unpacklo_epi16(low, high));
            _mm_storeu_si128(out.add(4).cast(), _mm_unpackhi_epi16(low, high));
        }
    }

    #[inline(always)]
    unsafe fn store_values(_: Avx2, out: *mut u32, v: __m256i) -> Option<usize> {
        // SAFETY: as in `store8`.
        unsafe { _mm256_storeu_si256(out.cast(), v) };
        Some(8)
    }

    #[inline(always)]
    unsafe fn ascii(_: Avx2, s: *const u8, out: *mut u32) -> bool {
        // SAFETY: as in `store8`: bytes `8k..8k + 8` of the 32, units `8k..8k
        // + 8` of the 32.
        unsafe {
            for k in 0..4 {
                let x = _mm_loadl_epi64(s.add(8 * k).cast());
                _mm256_storeu_si256(out.add(8 * k).cast(), _mm256_cvtepu8_epi32(x));
            }
        }
        true
    }
}
