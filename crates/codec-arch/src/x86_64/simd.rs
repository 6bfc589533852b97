//! The x86-64 tokens of the vector trait [`Simd`]: [`Sse41`] (16 bytes),
//! [`Avx2`] (32 bytes) and [`Avx512`] (64 bytes), one per level of
//! [`features!`](crate::features!). The trait, its docs and its safety
//! argument are in [`crate::simd`]; it is re-exported here, where the
//! x86-only crates import it from.

use crate::simd::{GROUPS3, WINDOWS};
pub use crate::simd::{Simd, load4};
use crate::tables::{PACK8, PACK32X4};
use core::arch::x86_64::*;

/// Methods that call one intrinsic on their arguments.
macro_rules! intrinsics {
    ($( fn $name:ident($($a:ident: $t:ty),*) -> $r:ty = $f:ident; )*) => {$(
        #[inline(always)]
        fn $name(self, $($a: $t),*) -> $r {
            // SAFETY: the token proves that the CPU has the features of
            // the intrinsic (module docs); it has no other precondition.
            unsafe { $f($($a),*) }
        }
    )*};
}

/// The SSE4.1 token: SSSE3, SSE4.1 and POPCNT, 16-byte registers.
#[derive(Clone, Copy)]
pub struct Sse41(());

impl Sse41 {
    crate::enable! { sse41;
        /// The token; see the module docs.
        ///
        /// # Safety
        ///
        /// Safe to call from code compiled with the token's features;
        /// elsewhere the caller must know the CPU has them.
        #[must_use]
        pub fn new() -> Sse41 {
            Sse41(())
        }
    }
}

/// The AVX2 token: AVX2, BMI1, BMI2 and POPCNT, 32-byte registers.
#[derive(Clone, Copy)]
pub struct Avx2(());

impl Avx2 {
    crate::enable! { avx2;
        /// The token; see the module docs.
        ///
        /// # Safety
        ///
        /// Safe to call from code compiled with the token's features;
        /// elsewhere the caller must know the CPU has them.
        #[must_use]
        pub fn new() -> Avx2 {
            Avx2(())
        }
    }
}

/// The AVX-512 token: AVX-512 F, BW, CD and VL with the AVX2 set, 64-byte
/// registers.
#[derive(Clone, Copy)]
pub struct Avx512(());

impl Avx512 {
    crate::enable! { avx512;
        /// The token; see the module docs.
        ///
        /// # Safety
        ///
        /// Safe to call from code compiled with the token's features;
        /// elsewhere the caller must know the CPU has them.
        #[must_use]
        pub fn new() -> Avx512 {
            Avx512(())
        }
    }
}

impl Simd for Sse41 {
    type V = __m128i;
    type Base = Sse41;
    const BYTES: usize = 16;

    #[inline(always)]
    unsafe fn groups3(self, p: *const u8) -> __m128i {
        // SAFETY: the caller's guarantee covers the 16 bytes read; the
        // token proves the CPU features.
        unsafe {
            let bytes = _mm_loadu_si128(p.cast());
            _mm_shuffle_epi8(bytes, _mm_loadu_si128(GROUPS3.as_ptr().cast()))
        }
    }

    #[inline(always)]
    fn movemask16(self, a: __m128i) -> u64 {
        // SAFETY: the token proves the CPU features (module docs).
        u64::from(unsafe { _mm_movemask_epi8(_mm_packs_epi16(a, _mm_setzero_si128())) } as u8)
    }

    #[inline(always)]
    fn movemask32(self, a: __m128i) -> u64 {
        // SAFETY: the token proves the CPU features (module docs).
        u64::from(unsafe { _mm_movemask_ps(_mm_castsi128_ps(a)) } as u8)
    }

    #[inline(always)]
    fn widen16to32(self, a: __m128i) -> (__m128i, __m128i) {
        // SAFETY: the token proves the CPU features (module docs).
        unsafe {
            (
                _mm_cvtepu16_epi32(a),
                _mm_cvtepu16_epi32(_mm_unpackhi_epi64(a, a)),
            )
        }
    }

    intrinsics! {
        fn narrow32to16(a: __m128i, b: __m128i) -> __m128i = _mm_packus_epi32;
    }

    #[inline(always)]
    fn shr32_bytes(self, a: __m128i, bits: __m128i) -> __m128i {
        // SSE has no variable shift: a byte shuffle whose control moves each
        // lane's bytes down by `bits / 8` and zeroes the top ones.
        // SAFETY: the token proves the CPU features (module docs).
        unsafe {
            let k = _mm_shuffle_epi8(
                _mm_srli_epi32::<3>(bits),
                _mm_setr_epi8(0, 0, 0, 0, 4, 4, 4, 4, 8, 8, 8, 8, 12, 12, 12, 12),
            );
            let within = _mm_add_epi8(
                _mm_setr_epi8(0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3),
                k,
            );
            let gone = _mm_cmpgt_epi8(within, _mm_set1_epi8(3));
            let from = _mm_add_epi8(
                _mm_setr_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15),
                k,
            );
            _mm_shuffle_epi8(a, _mm_or_si128(from, gone))
        }
    }

    #[inline(always)]
    unsafe fn compress32(self, a: __m128i, m: u64, dst: *mut u8) {
        let row = &PACK32X4[(m & 15) as usize];
        // SAFETY: `row` is 16 readable bytes; the caller's guarantee covers
        // the 16 bytes written; the token proves the CPU features.
        unsafe {
            let packed = _mm_shuffle_epi8(a, _mm_loadu_si128(row.as_ptr().cast()));
            _mm_storeu_si128(dst.cast(), packed);
        }
    }

    #[inline(always)]
    unsafe fn windows32(self, p: *const u8, r: usize) -> __m128i {
        // SAFETY: the caller's guarantee covers the 16 bytes at `p + 4r`;
        // the token proves the CPU features.
        unsafe {
            let bytes = _mm_loadu_si128(p.add(4 * r).cast());
            _mm_shuffle_epi8(bytes, _mm_loadu_si128(WINDOWS.as_ptr().cast()))
        }
    }

    #[inline(always)]
    fn test_any(self, a: __m128i, b: __m128i) -> bool {
        // SAFETY: the token proves the CPU features (module docs).
        unsafe { _mm_testz_si128(a, b) == 0 }
    }

    #[inline(always)]
    fn movemask8(self, a: __m128i) -> u64 {
        // SAFETY: the token proves the CPU features (module docs).
        u64::from(unsafe { _mm_movemask_epi8(a) } as u16)
    }

    #[inline(always)]
    unsafe fn load_widen8to16(self, p: *const u8) -> __m128i {
        // SAFETY: the caller's guarantee covers the 8 bytes read; the
        // token proves the CPU features (module docs).
        unsafe { _mm_cvtepu8_epi16(_mm_loadu_si64(p)) }
    }

    #[inline(always)]
    unsafe fn load_widen8to32(self, p: *const u8) -> __m128i {
        // SAFETY: the caller's guarantee covers the 4 bytes read; the
        // token proves the CPU features (module docs).
        unsafe { _mm_cvtepu8_epi32(_mm_loadu_si32(p)) }
    }

    #[inline(always)]
    unsafe fn load_widen8to64(self, p: *const u8) -> __m128i {
        // SAFETY: the caller's guarantee covers the 2 bytes read; the
        // token proves the CPU features (module docs).
        unsafe { _mm_cvtepu8_epi64(_mm_loadu_si16(p)) }
    }

    #[inline(always)]
    fn narrow16(self, a: __m128i, b: __m128i) -> __m128i {
        // SAFETY: the token proves the CPU features (module docs).
        unsafe { _mm_packus_epi16(a, b) }
    }

    #[inline(always)]
    fn narrow32(self, a: __m128i, b: __m128i, c: __m128i, d: __m128i) -> __m128i {
        // SAFETY: the token proves the CPU features (module docs).
        unsafe { _mm_packus_epi16(_mm_packus_epi32(a, b), _mm_packus_epi32(c, d)) }
    }

    #[inline(always)]
    fn lane(self, a: __m128i, _: usize) -> __m128i {
        a
    }

    #[inline(always)]
    fn base(self) -> Sse41 {
        self
    }

    #[inline(always)]
    fn broadcast16(self, t: &[u8; 16]) -> __m128i {
        // SAFETY: `t` is 16 readable bytes; the token proves the CPU
        // features (module docs).
        unsafe { _mm_loadu_si128(t.as_ptr().cast()) }
    }

    #[inline(always)]
    unsafe fn load(self, p: *const u8) -> __m128i {
        // SAFETY: the caller's guarantee covers the 16 bytes read.
        unsafe { _mm_loadu_si128(p.cast()) }
    }

    #[inline(always)]
    unsafe fn store(self, p: *mut u8, v: __m128i) {
        // SAFETY: the caller's guarantee covers the 16 bytes written.
        unsafe { _mm_storeu_si128(p.cast(), v) }
    }

    #[inline(always)]
    fn splat64(self, x: u64) -> __m128i {
        // SAFETY: the token proves the CPU features (module docs).
        unsafe { _mm_set1_epi64x(x as i64) }
    }

    #[inline(always)]
    fn first32(self, a: __m128i) -> u32 {
        // SAFETY: the token proves the CPU features (module docs).
        unsafe { _mm_cvtsi128_si32(a) as u32 }
    }

    #[inline(always)]
    fn eq64(self, a: __m128i, b: __m128i) -> __m128i {
        // SAFETY: the token proves the CPU features (module docs).
        unsafe { _mm_cmpeq_epi64(a, b) }
    }

    #[inline(always)]
    fn shr64<const N: i32>(self, a: __m128i) -> __m128i {
        // SAFETY: the token proves the CPU features (module docs).
        unsafe { _mm_srli_epi64::<N>(a) }
    }

    #[inline(always)]
    unsafe fn store_half(self, p: *mut u8, v: __m128i) {
        // SAFETY: the caller's guarantee covers the 8 bytes written.
        unsafe { _mm_storel_epi64(p.cast(), v) }
    }

    intrinsics! {
        fn zero() -> __m128i = _mm_setzero_si128;
        fn and(a: __m128i, b: __m128i) -> __m128i = _mm_and_si128;
        fn or(a: __m128i, b: __m128i) -> __m128i = _mm_or_si128;
        fn xor(a: __m128i, b: __m128i) -> __m128i = _mm_xor_si128;
        fn add8(a: __m128i, b: __m128i) -> __m128i = _mm_add_epi8;
        fn sub8(a: __m128i, b: __m128i) -> __m128i = _mm_sub_epi8;
        fn add16(a: __m128i, b: __m128i) -> __m128i = _mm_add_epi16;
        fn sub16(a: __m128i, b: __m128i) -> __m128i = _mm_sub_epi16;
        fn add32(a: __m128i, b: __m128i) -> __m128i = _mm_add_epi32;
        fn sub32(a: __m128i, b: __m128i) -> __m128i = _mm_sub_epi32;
        fn gt_i8(a: __m128i, b: __m128i) -> __m128i = _mm_cmpgt_epi8;
        fn eq8(a: __m128i, b: __m128i) -> __m128i = _mm_cmpeq_epi8;
        fn eq16(a: __m128i, b: __m128i) -> __m128i = _mm_cmpeq_epi16;
        fn gt_i16(a: __m128i, b: __m128i) -> __m128i = _mm_cmpgt_epi16;
        fn eq32(a: __m128i, b: __m128i) -> __m128i = _mm_cmpeq_epi32;
        fn gt_i32(a: __m128i, b: __m128i) -> __m128i = _mm_cmpgt_epi32;
        fn shuffle8(table: __m128i, idx: __m128i) -> __m128i = _mm_shuffle_epi8;
        fn andnot(a: __m128i, b: __m128i) -> __m128i = _mm_andnot_si128;
        fn max_i16(a: __m128i, b: __m128i) -> __m128i = _mm_max_epi16;
        fn min_u16(a: __m128i, b: __m128i) -> __m128i = _mm_min_epu16;
        fn max_u32(a: __m128i, b: __m128i) -> __m128i = _mm_max_epu32;
        fn add_sat_u8(a: __m128i, b: __m128i) -> __m128i = _mm_adds_epu8;
        fn sub_sat_u8(a: __m128i, b: __m128i) -> __m128i = _mm_subs_epu8;
        fn max_u8(a: __m128i, b: __m128i) -> __m128i = _mm_max_epu8;
        fn min_i8(a: __m128i, b: __m128i) -> __m128i = _mm_min_epi8;
        fn blendv8(a: __m128i, b: __m128i, m: __m128i) -> __m128i = _mm_blendv_epi8;
    }

    #[inline(always)]
    fn splat8(self, x: u8) -> __m128i {
        // SAFETY: the token proves the CPU features (module docs).
        unsafe { _mm_set1_epi8(x as i8) }
    }

    #[inline(always)]
    fn splat16(self, x: u16) -> __m128i {
        // SAFETY: the token proves the CPU features (module docs).
        unsafe { _mm_set1_epi16(x as i16) }
    }

    #[inline(always)]
    fn splat32(self, x: u32) -> __m128i {
        // SAFETY: the token proves the CPU features (module docs).
        unsafe { _mm_set1_epi32(x as i32) }
    }

    #[inline(always)]
    fn shr8<const N: i32>(self, a: __m128i) -> __m128i {
        // SAFETY: the token proves the CPU features (module docs).
        unsafe { _mm_and_si128(_mm_srli_epi16::<N>(a), _mm_set1_epi8((0xFFu8 >> N) as i8)) }
    }

    #[inline(always)]
    fn alignr8<const N: i32>(self, hi: __m128i, lo: __m128i) -> __m128i {
        // SAFETY: the token proves the CPU features (module docs).
        unsafe { _mm_alignr_epi8::<N>(hi, lo) }
    }

    #[inline(always)]
    fn shl16<const N: i32>(self, a: __m128i) -> __m128i {
        // SAFETY: the token proves the CPU features (module docs).
        unsafe { _mm_slli_epi16::<N>(a) }
    }

    #[inline(always)]
    fn shr16<const N: i32>(self, a: __m128i) -> __m128i {
        // SAFETY: the token proves the CPU features (module docs).
        unsafe { _mm_srli_epi16::<N>(a) }
    }

    #[inline(always)]
    fn shl32<const N: i32>(self, a: __m128i) -> __m128i {
        // SAFETY: the token proves the CPU features (module docs).
        unsafe { _mm_slli_epi32::<N>(a) }
    }

    #[inline(always)]
    fn shr32<const N: i32>(self, a: __m128i) -> __m128i {
        // SAFETY: the token proves the CPU features (module docs).
        unsafe { _mm_srli_epi32::<N>(a) }
    }

    #[inline(always)]
    fn sum8(self, a: __m128i) -> u64 {
        // SAFETY: the token proves the CPU features (module docs).
        let pairs = unsafe { _mm_sad_epu8(a, _mm_setzero_si128()) };
        self.sum64(pairs)
    }

    #[inline(always)]
    fn sum16(self, a: __m128i) -> u64 {
        // SAFETY: the token proves the CPU features (module docs).
        let lo = unsafe { _mm_and_si128(a, _mm_set1_epi32(0xFFFF)) };
        // SAFETY: as above.
        let hi = unsafe { _mm_srli_epi32::<16>(a) };
        self.sum32(self.add32(lo, hi))
    }

    #[inline(always)]
    fn sum32(self, a: __m128i) -> u64 {
        // SAFETY: the token proves the CPU features (module docs).
        let lo = unsafe { _mm_and_si128(a, _mm_set1_epi64x(0xFFFF_FFFF)) };
        // SAFETY: as above.
        let pairs = unsafe { _mm_add_epi64(lo, _mm_srli_epi64::<32>(a)) };
        self.sum64(pairs)
    }
}

impl Sse41 {
    /// The sum of the 64-bit lanes.
    #[inline(always)]
    fn sum64(self, a: __m128i) -> u64 {
        // SAFETY: the token proves the CPU features (module docs).
        let (lo, hi) = unsafe { (_mm_cvtsi128_si64(a), _mm_extract_epi64::<1>(a)) };
        (lo as u64).wrapping_add(hi as u64)
    }
}

impl Simd for Avx2 {
    type V = __m256i;
    type Base = Sse41;
    const BYTES: usize = 32;

    #[inline(always)]
    unsafe fn groups3(self, p: *const u8) -> __m256i {
        // Lane 1 starts 12 bytes on.
        // SAFETY: the caller's guarantee covers the 28 bytes read; the
        // token proves the CPU features.
        unsafe {
            let bytes = _mm256_inserti128_si256::<1>(
                _mm256_castsi128_si256(_mm_loadu_si128(p.cast())),
                _mm_loadu_si128(p.add(12).cast()),
            );
            let ctrl = _mm256_broadcastsi128_si256(_mm_loadu_si128(GROUPS3.as_ptr().cast()));
            _mm256_shuffle_epi8(bytes, ctrl)
        }
    }

    #[inline(always)]
    fn movemask16(self, a: __m256i) -> u64 {
        // `packs` works within 128-bit lanes: a0 0 a1 0, then a0 a1 0 0.
        // SAFETY: the token proves the CPU features (module docs).
        let bytes = unsafe {
            let packed = _mm256_packs_epi16(a, _mm256_setzero_si256());
            _mm256_permute4x64_epi64::<0b11_01_10_00>(packed)
        };
        self.movemask8(bytes) & 0xFFFF
    }

    #[inline(always)]
    fn movemask32(self, a: __m256i) -> u64 {
        // SAFETY: the token proves the CPU features (module docs).
        u64::from(unsafe { _mm256_movemask_ps(_mm256_castsi256_ps(a)) } as u8)
    }

    #[inline(always)]
    fn widen16to32(self, a: __m256i) -> (__m256i, __m256i) {
        // SAFETY: the token proves the CPU features (module docs).
        unsafe {
            (
                _mm256_cvtepu16_epi32(_mm256_castsi256_si128(a)),
                _mm256_cvtepu16_epi32(_mm256_extracti128_si256::<1>(a)),
            )
        }
    }

    #[inline(always)]
    fn narrow32to16(self, a: __m256i, b: __m256i) -> __m256i {
        // SAFETY: the token proves the CPU features (module docs).
        unsafe { _mm256_permute4x64_epi64::<0b11_01_10_00>(_mm256_packus_epi32(a, b)) }
    }

    intrinsics! {
        fn shr32_bytes(a: __m256i, bits: __m256i) -> __m256i = _mm256_srlv_epi32;
    }

    #[inline(always)]
    unsafe fn compress32(self, a: __m256i, m: u64, dst: *mut u8) {
        // SAFETY: the caller's guarantee covers the 32 bytes written; the
        // token proves the CPU features.
        unsafe {
            let idx = _mm256_cvtepu8_epi32(_mm_cvtsi64_si128(PACK8[(m & 0xFF) as usize] as i64));
            _mm256_storeu_si256(dst.cast(), _mm256_permutevar8x32_epi32(a, idx));
        }
    }

    #[inline(always)]
    unsafe fn windows32(self, p: *const u8, r: usize) -> __m256i {
        // SAFETY: the caller's guarantee covers the 16 bytes at `p + 8r`;
        // the token proves the CPU features.
        unsafe {
            let bytes = _mm256_broadcastsi128_si256(_mm_loadu_si128(p.add(8 * r).cast()));
            let ctrl = _mm256_add_epi8(
                _mm256_broadcastsi128_si256(_mm_loadu_si128(WINDOWS.as_ptr().cast())),
                _mm256_setr_epi64x(0, 0, 0x0404_0404_0404_0404, 0x0404_0404_0404_0404),
            );
            _mm256_shuffle_epi8(bytes, ctrl)
        }
    }

    #[inline(always)]
    fn test_any(self, a: __m256i, b: __m256i) -> bool {
        // SAFETY: the token proves the CPU features (module docs).
        unsafe { _mm256_testz_si256(a, b) == 0 }
    }

    #[inline(always)]
    fn movemask8(self, a: __m256i) -> u64 {
        // SAFETY: the token proves the CPU features (module docs).
        u64::from(unsafe { _mm256_movemask_epi8(a) } as u32)
    }

    #[inline(always)]
    unsafe fn load_widen8to16(self, p: *const u8) -> __m256i {
        // SAFETY: the caller's guarantee covers the 16 bytes read; the
        // token proves the CPU features (module docs).
        unsafe { _mm256_cvtepu8_epi16(_mm_loadu_si128(p.cast())) }
    }

    #[inline(always)]
    unsafe fn load_widen8to32(self, p: *const u8) -> __m256i {
        // SAFETY: the caller's guarantee covers the 8 bytes read; the
        // token proves the CPU features (module docs).
        unsafe { _mm256_cvtepu8_epi32(_mm_loadu_si64(p)) }
    }

    #[inline(always)]
    unsafe fn load_widen8to64(self, p: *const u8) -> __m256i {
        // SAFETY: the caller's guarantee covers the 4 bytes read; the
        // token proves the CPU features (module docs).
        unsafe { _mm256_cvtepu8_epi64(_mm_loadu_si32(p)) }
    }

    #[inline(always)]
    fn narrow16(self, a: __m256i, b: __m256i) -> __m256i {
        // `packus` works within 128-bit lanes: a0 b0 a1 b1, put in order.
        // SAFETY: the token proves the CPU features (module docs).
        unsafe { _mm256_permute4x64_epi64::<0b11_01_10_00>(_mm256_packus_epi16(a, b)) }
    }

    #[inline(always)]
    fn narrow32(self, a: __m256i, b: __m256i, c: __m256i, d: __m256i) -> __m256i {
        // Within 128-bit lanes the packs give, in 32-bit lanes,
        // a0 b0 c0 d0 | a1 b1 c1 d1 (each a quarter register): put in order.
        // SAFETY: the token proves the CPU features (module docs).
        unsafe {
            let ab = _mm256_packus_epi32(a, b);
            let cd = _mm256_packus_epi32(c, d);
            let bytes = _mm256_packus_epi16(ab, cd);
            _mm256_permutevar8x32_epi32(bytes, _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7))
        }
    }

    #[inline(always)]
    fn lane(self, a: __m256i, k: usize) -> __m128i {
        // SAFETY: the token proves the CPU features (module docs).
        unsafe {
            if k == 0 {
                _mm256_castsi256_si128(a)
            } else {
                _mm256_extracti128_si256::<1>(a)
            }
        }
    }

    #[inline(always)]
    fn base(self) -> Sse41 {
        // AVX2 implies SSE4.1 (and its feature check includes it).
        Sse41(())
    }

    #[inline(always)]
    fn broadcast16(self, t: &[u8; 16]) -> __m256i {
        // SAFETY: `t` is 16 readable bytes; the token proves the CPU
        // features (module docs).
        unsafe { _mm256_broadcastsi128_si256(_mm_loadu_si128(t.as_ptr().cast())) }
    }

    #[inline(always)]
    unsafe fn load(self, p: *const u8) -> __m256i {
        // SAFETY: the caller's guarantee covers the 32 bytes read.
        unsafe { _mm256_loadu_si256(p.cast()) }
    }

    #[inline(always)]
    unsafe fn store(self, p: *mut u8, v: __m256i) {
        // SAFETY: the caller's guarantee covers the 32 bytes written.
        unsafe { _mm256_storeu_si256(p.cast(), v) }
    }

    #[inline(always)]
    fn splat64(self, x: u64) -> __m256i {
        // SAFETY: the token proves the CPU features (module docs).
        unsafe { _mm256_set1_epi64x(x as i64) }
    }

    #[inline(always)]
    fn first32(self, a: __m256i) -> u32 {
        // SAFETY: the token proves the CPU features (module docs).
        unsafe { _mm_cvtsi128_si32(_mm256_castsi256_si128(a)) as u32 }
    }

    #[inline(always)]
    fn eq64(self, a: __m256i, b: __m256i) -> __m256i {
        // SAFETY: the token proves the CPU features (module docs).
        unsafe { _mm256_cmpeq_epi64(a, b) }
    }

    #[inline(always)]
    fn shr64<const N: i32>(self, a: __m256i) -> __m256i {
        // SAFETY: the token proves the CPU features (module docs).
        unsafe { _mm256_srli_epi64::<N>(a) }
    }

    #[inline(always)]
    unsafe fn store_half(self, p: *mut u8, v: __m256i) {
        // SAFETY: the caller's guarantee covers the 16 bytes written.
        unsafe { _mm_storeu_si128(p.cast(), _mm256_castsi256_si128(v)) }
    }

    intrinsics! {
        fn zero() -> __m256i = _mm256_setzero_si256;
        fn and(a: __m256i, b: __m256i) -> __m256i = _mm256_and_si256;
        fn or(a: __m256i, b: __m256i) -> __m256i = _mm256_or_si256;
        fn xor(a: __m256i, b: __m256i) -> __m256i = _mm256_xor_si256;
        fn add8(a: __m256i, b: __m256i) -> __m256i = _mm256_add_epi8;
        fn sub8(a: __m256i, b: __m256i) -> __m256i = _mm256_sub_epi8;
        fn add16(a: __m256i, b: __m256i) -> __m256i = _mm256_add_epi16;
        fn sub16(a: __m256i, b: __m256i) -> __m256i = _mm256_sub_epi16;
        fn add32(a: __m256i, b: __m256i) -> __m256i = _mm256_add_epi32;
        fn sub32(a: __m256i, b: __m256i) -> __m256i = _mm256_sub_epi32;
        fn gt_i8(a: __m256i, b: __m256i) -> __m256i = _mm256_cmpgt_epi8;
        fn eq8(a: __m256i, b: __m256i) -> __m256i = _mm256_cmpeq_epi8;
        fn eq16(a: __m256i, b: __m256i) -> __m256i = _mm256_cmpeq_epi16;
        fn gt_i16(a: __m256i, b: __m256i) -> __m256i = _mm256_cmpgt_epi16;
        fn eq32(a: __m256i, b: __m256i) -> __m256i = _mm256_cmpeq_epi32;
        fn gt_i32(a: __m256i, b: __m256i) -> __m256i = _mm256_cmpgt_epi32;
        fn shuffle8(table: __m256i, idx: __m256i) -> __m256i = _mm256_shuffle_epi8;
        fn andnot(a: __m256i, b: __m256i) -> __m256i = _mm256_andnot_si256;
        fn max_i16(a: __m256i, b: __m256i) -> __m256i = _mm256_max_epi16;
        fn min_u16(a: __m256i, b: __m256i) -> __m256i = _mm256_min_epu16;
        fn max_u32(a: __m256i, b: __m256i) -> __m256i = _mm256_max_epu32;
        fn add_sat_u8(a: __m256i, b: __m256i) -> __m256i = _mm256_adds_epu8;
        fn sub_sat_u8(a: __m256i, b: __m256i) -> __m256i = _mm256_subs_epu8;
        fn max_u8(a: __m256i, b: __m256i) -> __m256i = _mm256_max_epu8;
        fn min_i8(a: __m256i, b: __m256i) -> __m256i = _mm256_min_epi8;
        fn blendv8(a: __m256i, b: __m256i, m: __m256i) -> __m256i = _mm256_blendv_epi8;
    }

    #[inline(always)]
    fn splat8(self, x: u8) -> __m256i {
        // SAFETY: the token proves the CPU features (module docs).
        unsafe { _mm256_set1_epi8(x as i8) }
    }

    #[inline(always)]
    fn splat16(self, x: u16) -> __m256i {
        // SAFETY: the token proves the CPU features (module docs).
        unsafe { _mm256_set1_epi16(x as i16) }
    }

    #[inline(always)]
    fn splat32(self, x: u32) -> __m256i {
        // SAFETY: the token proves the CPU features (module docs).
        unsafe { _mm256_set1_epi32(x as i32) }
    }

    #[inline(always)]
    fn shr8<const N: i32>(self, a: __m256i) -> __m256i {
        // SAFETY: the token proves the CPU features (module docs).
        unsafe {
            _mm256_and_si256(
                _mm256_srli_epi16::<N>(a),
                _mm256_set1_epi8((0xFFu8 >> N) as i8),
            )
        }
    }

    #[inline(always)]
    fn alignr8<const N: i32>(self, hi: __m256i, lo: __m256i) -> __m256i {
        // SAFETY: the token proves the CPU features (module docs).
        unsafe { _mm256_alignr_epi8::<N>(hi, lo) }
    }

    #[inline(always)]
    fn shl16<const N: i32>(self, a: __m256i) -> __m256i {
        // SAFETY: the token proves the CPU features (module docs).
        unsafe { _mm256_slli_epi16::<N>(a) }
    }

    #[inline(always)]
    fn shr16<const N: i32>(self, a: __m256i) -> __m256i {
        // SAFETY: the token proves the CPU features (module docs).
        unsafe { _mm256_srli_epi16::<N>(a) }
    }

    #[inline(always)]
    fn shl32<const N: i32>(self, a: __m256i) -> __m256i {
        // SAFETY: the token proves the CPU features (module docs).
        unsafe { _mm256_slli_epi32::<N>(a) }
    }

    #[inline(always)]
    fn shr32<const N: i32>(self, a: __m256i) -> __m256i {
        // SAFETY: the token proves the CPU features (module docs).
        unsafe { _mm256_srli_epi32::<N>(a) }
    }

    #[inline(always)]
    fn sum8(self, a: __m256i) -> u64 {
        // SAFETY: the token proves the CPU features (module docs).
        let pairs = unsafe { _mm256_sad_epu8(a, _mm256_setzero_si256()) };
        self.sum64(pairs)
    }

    #[inline(always)]
    fn sum16(self, a: __m256i) -> u64 {
        // SAFETY: the token proves the CPU features (module docs).
        let lo = unsafe { _mm256_and_si256(a, _mm256_set1_epi32(0xFFFF)) };
        // SAFETY: as above.
        let hi = unsafe { _mm256_srli_epi32::<16>(a) };
        self.sum32(self.add32(lo, hi))
    }

    #[inline(always)]
    fn sum32(self, a: __m256i) -> u64 {
        // SAFETY: the token proves the CPU features (module docs).
        let lo = unsafe { _mm256_and_si256(a, _mm256_set1_epi64x(0xFFFF_FFFF)) };
        // SAFETY: as above.
        let pairs = unsafe { _mm256_add_epi64(lo, _mm256_srli_epi64::<32>(a)) };
        self.sum64(pairs)
    }
}

impl Avx2 {
    /// The sum of the 64-bit lanes.
    #[inline(always)]
    fn sum64(self, a: __m256i) -> u64 {
        // SAFETY: the token proves the CPU features (module docs).
        let half =
            unsafe { _mm_add_epi64(_mm256_castsi256_si128(a), _mm256_extracti128_si256::<1>(a)) };
        Sse41(()).sum64(half)
    }
}

impl Simd for Avx512 {
    type V = __m512i;
    type Base = Sse41;
    const BYTES: usize = 64;

    #[inline(always)]
    fn pair_values32(self, v: __m512i, next: __m512i) -> __m512i {
        // The trait's formula with the lead test in a mask register, and a
        // masked add where it blends (the generic form took the mask to a
        // vector and back for the blend).
        let bias = 0x1_0000u32.wrapping_sub(0xD800 << 10).wrapping_sub(0xDC00);
        // SAFETY: the token proves the CPU features (module docs).
        unsafe {
            let lead = _mm512_cmpeq_epi32_mask(
                _mm512_and_si512(v, _mm512_set1_epi32(0xFC00)),
                _mm512_set1_epi32(0xD800),
            );
            let low = _mm512_add_epi32(next, _mm512_set1_epi32(bias as i32));
            _mm512_mask_add_epi32(v, lead, _mm512_slli_epi32::<10>(v), low)
        }
    }

    #[inline(always)]
    fn pair_values32_at(self, v: __m512i, next: __m512i, lead: u64) -> __m512i {
        let bias = 0x1_0000u32.wrapping_sub(0xD800 << 10).wrapping_sub(0xDC00);
        // SAFETY: the token proves the CPU features (module docs).
        unsafe {
            let low = _mm512_add_epi32(next, _mm512_set1_epi32(bias as i32));
            _mm512_mask_add_epi32(v, lead as u16, _mm512_slli_epi32::<10>(v), low)
        }
    }

    // The two UTF-16 masks straight into mask registers, with one compare
    // each (the generic forms compare, `vpmovm2w`, `vpmovw2m`; the pairing
    // test took four compares a register, and the pair values two more,
    // now given the leads): the UTF-16 -> UTF-32 Emoji loop went from
    // 0.76-0.88 to 0.83-0.97 of simdutf's AVX-512 kernel on Zen 4 (64 KiB,
    // alternated builds; the VM's state moves both by 1.5x), where
    // compares into mask registers are the scarce operation.
    #[inline(always)]
    fn surrogates16(self, v: __m512i) -> u64 {
        // SAFETY: the token proves the CPU features (module docs).
        unsafe {
            // `v ^ D800` is below 800 just for `D800..=DFFF`.
            let x = _mm512_xor_si512(v, _mm512_set1_epi16(0xD800u16 as i16));
            u64::from(_mm512_cmplt_epu16_mask(x, _mm512_set1_epi16(0x800)))
        }
    }

    #[inline(always)]
    fn pair_starts16(self, v: __m512i, next: __m512i) -> u64 {
        // SAFETY: the token proves the CPU features (module docs).
        unsafe {
            // `(v ^ D800) | (next ^ DC00)` (`0xF6` is `a | (b ^ c)`) has its
            // top six bits clear just where `v` is a lead and `next` a trail.
            let t = _mm512_ternarylogic_epi32::<0xF6>(
                _mm512_xor_si512(v, _mm512_set1_epi16(0xD800u16 as i16)),
                next,
                _mm512_set1_epi16(0xDC00u16 as i16),
            );
            u64::from(_mm512_testn_epi16_mask(
                t,
                _mm512_set1_epi16(0xFC00u16 as i16),
            ))
        }
    }

    #[inline(always)]
    unsafe fn groups3(self, p: *const u8) -> __m512i {
        // Lane `l` starts `12 l` bytes on: 32-bit lanes `3l..3l + 4`.
        // SAFETY: the caller's guarantee covers the 64 bytes read; the
        // token proves the CPU features.
        unsafe {
            let bytes = _mm512_loadu_si512(p.cast());
            let spread = _mm512_permutexvar_epi32(
                _mm512_setr_epi32(0, 1, 2, 3, 3, 4, 5, 6, 6, 7, 8, 9, 9, 10, 11, 12),
                bytes,
            );
            let ctrl = _mm512_broadcast_i32x4(_mm_loadu_si128(GROUPS3.as_ptr().cast()));
            _mm512_shuffle_epi8(spread, ctrl)
        }
    }

    #[inline(always)]
    fn movemask16(self, a: __m512i) -> u64 {
        // SAFETY: the token proves the CPU features (module docs).
        u64::from(unsafe { _mm512_movepi16_mask(a) })
    }

    #[inline(always)]
    fn movemask32(self, a: __m512i) -> u64 {
        // SAFETY: the token proves the CPU features (module docs).
        u64::from(unsafe { _mm512_cmplt_epi32_mask(a, _mm512_setzero_si512()) })
    }

    #[inline(always)]
    fn widen16to32(self, a: __m512i) -> (__m512i, __m512i) {
        // SAFETY: the token proves the CPU features (module docs).
        unsafe {
            (
                _mm512_cvtepu16_epi32(_mm512_castsi512_si256(a)),
                _mm512_cvtepu16_epi32(_mm512_extracti64x4_epi64::<1>(a)),
            )
        }
    }

    #[inline(always)]
    fn narrow32to16(self, a: __m512i, b: __m512i) -> __m512i {
        // SAFETY: the token proves the CPU features (module docs).
        unsafe {
            let lo = _mm512_cvtusepi32_epi16(a);
            let hi = _mm512_cvtusepi32_epi16(b);
            _mm512_inserti64x4::<1>(_mm512_castsi256_si512(lo), hi)
        }
    }

    intrinsics! {
        fn shr32_bytes(a: __m512i, bits: __m512i) -> __m512i = _mm512_srlv_epi32;
    }

    #[inline(always)]
    unsafe fn compress32(self, a: __m512i, m: u64, dst: *mut u8) {
        // SAFETY: the caller's guarantee covers the 64 bytes written; the
        // token proves the CPU features.
        unsafe {
            let packed = _mm512_maskz_compress_epi32((m & 0xFFFF) as u16, a);
            _mm512_storeu_si512(dst.cast(), packed);
        }
    }

    #[inline(always)]
    unsafe fn windows32(self, p: *const u8, r: usize) -> __m512i {
        // Lane `l` gets the 16 bytes from `4l` (32-bit lanes `l..l + 4` of
        // the 32 loaded bytes), then the windows of its first four bytes.
        // SAFETY: the caller's guarantee covers the 32 bytes at `p + 16r`
        // (`(r + 1) * 16 + 16` bytes from `p`); the token proves the CPU
        // features.
        unsafe {
            let bytes = _mm512_castsi256_si512(_mm256_loadu_si256(p.add(16 * r).cast()));
            let spread = _mm512_permutexvar_epi32(
                _mm512_setr_epi32(0, 1, 2, 3, 1, 2, 3, 4, 2, 3, 4, 5, 3, 4, 5, 6),
                bytes,
            );
            let ctrl = _mm512_broadcast_i32x4(_mm_loadu_si128(WINDOWS.as_ptr().cast()));
            _mm512_shuffle_epi8(spread, ctrl)
        }
    }

    #[inline(always)]
    fn test_any(self, a: __m512i, b: __m512i) -> bool {
        // SAFETY: the token proves the CPU features (module docs).
        unsafe { _mm512_test_epi64_mask(a, b) != 0 }
    }

    #[inline(always)]
    fn movemask8(self, a: __m512i) -> u64 {
        // SAFETY: the token proves the CPU features (module docs).
        unsafe { _mm512_movepi8_mask(a) }
    }

    #[inline(always)]
    unsafe fn load_widen8to16(self, p: *const u8) -> __m512i {
        // SAFETY: the caller's guarantee covers the 32 bytes read; the
        // token proves the CPU features (module docs).
        unsafe { _mm512_cvtepu8_epi16(_mm256_loadu_si256(p.cast())) }
    }

    #[inline(always)]
    unsafe fn load_widen8to32(self, p: *const u8) -> __m512i {
        // SAFETY: the caller's guarantee covers the 16 bytes read; the
        // token proves the CPU features (module docs).
        unsafe { _mm512_cvtepu8_epi32(_mm_loadu_si128(p.cast())) }
    }

    #[inline(always)]
    unsafe fn load_widen8to64(self, p: *const u8) -> __m512i {
        // SAFETY: the caller's guarantee covers the 8 bytes read; the
        // token proves the CPU features (module docs).
        unsafe { _mm512_cvtepu8_epi64(_mm_loadu_si64(p)) }
    }

    #[inline(always)]
    fn narrow16(self, a: __m512i, b: __m512i) -> __m512i {
        // SAFETY: the token proves the CPU features (module docs).
        unsafe {
            let lo = _mm512_cvtusepi16_epi8(a);
            let hi = _mm512_cvtusepi16_epi8(b);
            _mm512_inserti64x4::<1>(_mm512_castsi256_si512(lo), hi)
        }
    }

    #[inline(always)]
    fn narrow32(self, a: __m512i, b: __m512i, c: __m512i, d: __m512i) -> __m512i {
        // SAFETY: the token proves the CPU features (module docs).
        unsafe {
            let ab = _mm256_inserti128_si256::<1>(
                _mm256_castsi128_si256(_mm512_cvtusepi32_epi8(a)),
                _mm512_cvtusepi32_epi8(b),
            );
            let cd = _mm256_inserti128_si256::<1>(
                _mm256_castsi128_si256(_mm512_cvtusepi32_epi8(c)),
                _mm512_cvtusepi32_epi8(d),
            );
            _mm512_inserti64x4::<1>(_mm512_castsi256_si512(ab), cd)
        }
    }

    #[inline(always)]
    fn lane(self, a: __m512i, k: usize) -> __m128i {
        // SAFETY: the token proves the CPU features (module docs).
        unsafe {
            match k {
                0 => _mm512_castsi512_si128(a),
                1 => _mm512_extracti32x4_epi32::<1>(a),
                2 => _mm512_extracti32x4_epi32::<2>(a),
                _ => _mm512_extracti32x4_epi32::<3>(a),
            }
        }
    }

    #[inline(always)]
    fn base(self) -> Sse41 {
        // AVX-512 implies SSE4.1.
        Sse41(())
    }

    #[inline(always)]
    fn broadcast16(self, t: &[u8; 16]) -> __m512i {
        // SAFETY: `t` is 16 readable bytes; the token proves the CPU
        // features (module docs).
        unsafe { _mm512_broadcast_i32x4(_mm_loadu_si128(t.as_ptr().cast())) }
    }

    #[inline(always)]
    unsafe fn load(self, p: *const u8) -> __m512i {
        // SAFETY: the caller's guarantee covers the 64 bytes read.
        unsafe { _mm512_loadu_si512(p.cast()) }
    }

    #[inline(always)]
    unsafe fn store(self, p: *mut u8, v: __m512i) {
        // SAFETY: the caller's guarantee covers the 64 bytes written.
        unsafe { _mm512_storeu_si512(p.cast(), v) }
    }

    #[inline(always)]
    fn splat64(self, x: u64) -> __m512i {
        // SAFETY: the token proves the CPU features (module docs).
        unsafe { _mm512_set1_epi64(x as i64) }
    }

    #[inline(always)]
    fn first32(self, a: __m512i) -> u32 {
        // SAFETY: the token proves the CPU features (module docs).
        unsafe { _mm_cvtsi128_si32(_mm512_castsi512_si128(a)) as u32 }
    }

    #[inline(always)]
    fn eq64(self, a: __m512i, b: __m512i) -> __m512i {
        // SAFETY: the token proves the CPU features (module docs).
        unsafe { _mm512_maskz_mov_epi64(_mm512_cmpeq_epi64_mask(a, b), _mm512_set1_epi64(-1)) }
    }

    #[inline(always)]
    fn shr64<const N: i32>(self, a: __m512i) -> __m512i {
        // SAFETY: the token proves the CPU features (module docs).
        unsafe { _mm512_srl_epi64(a, _mm_cvtsi32_si128(N)) }
    }

    #[inline(always)]
    unsafe fn store_half(self, p: *mut u8, v: __m512i) {
        // SAFETY: the caller's guarantee covers the 32 bytes written.
        unsafe { _mm256_storeu_si256(p.cast(), _mm512_castsi512_si256(v)) }
    }

    intrinsics! {
        fn zero() -> __m512i = _mm512_setzero_si512;
        fn and(a: __m512i, b: __m512i) -> __m512i = _mm512_and_si512;
        fn or(a: __m512i, b: __m512i) -> __m512i = _mm512_or_si512;
        fn xor(a: __m512i, b: __m512i) -> __m512i = _mm512_xor_si512;
        fn add8(a: __m512i, b: __m512i) -> __m512i = _mm512_add_epi8;
        fn sub8(a: __m512i, b: __m512i) -> __m512i = _mm512_sub_epi8;
        fn add16(a: __m512i, b: __m512i) -> __m512i = _mm512_add_epi16;
        fn sub16(a: __m512i, b: __m512i) -> __m512i = _mm512_sub_epi16;
        fn add32(a: __m512i, b: __m512i) -> __m512i = _mm512_add_epi32;
        fn sub32(a: __m512i, b: __m512i) -> __m512i = _mm512_sub_epi32;
        fn shuffle8(table: __m512i, idx: __m512i) -> __m512i = _mm512_shuffle_epi8;
        fn andnot(a: __m512i, b: __m512i) -> __m512i = _mm512_andnot_si512;
        fn max_i16(a: __m512i, b: __m512i) -> __m512i = _mm512_max_epi16;
        fn min_u16(a: __m512i, b: __m512i) -> __m512i = _mm512_min_epu16;
        fn max_u32(a: __m512i, b: __m512i) -> __m512i = _mm512_max_epu32;
        fn add_sat_u8(a: __m512i, b: __m512i) -> __m512i = _mm512_adds_epu8;
        fn sub_sat_u8(a: __m512i, b: __m512i) -> __m512i = _mm512_subs_epu8;
        fn max_u8(a: __m512i, b: __m512i) -> __m512i = _mm512_max_epu8;
        fn min_i8(a: __m512i, b: __m512i) -> __m512i = _mm512_min_epi8;
    }

    #[inline(always)]
    fn blendv8(self, a: __m512i, b: __m512i, m: __m512i) -> __m512i {
        // SAFETY: the token proves the CPU features (module docs).
        unsafe { _mm512_mask_blend_epi8(_mm512_movepi8_mask(m), a, b) }
    }

    #[inline(always)]
    fn gt_i8(self, a: __m512i, b: __m512i) -> __m512i {
        // SAFETY: the token proves the CPU features (module docs).
        unsafe { _mm512_movm_epi8(_mm512_cmpgt_epi8_mask(a, b)) }
    }

    #[inline(always)]
    fn eq8(self, a: __m512i, b: __m512i) -> __m512i {
        // SAFETY: the token proves the CPU features (module docs).
        unsafe { _mm512_movm_epi8(_mm512_cmpeq_epi8_mask(a, b)) }
    }

    #[inline(always)]
    fn eq16(self, a: __m512i, b: __m512i) -> __m512i {
        // SAFETY: the token proves the CPU features (module docs).
        unsafe { _mm512_movm_epi16(_mm512_cmpeq_epi16_mask(a, b)) }
    }

    #[inline(always)]
    fn gt_i16(self, a: __m512i, b: __m512i) -> __m512i {
        // SAFETY: the token proves the CPU features (module docs).
        unsafe { _mm512_movm_epi16(_mm512_cmpgt_epi16_mask(a, b)) }
    }

    #[inline(always)]
    fn eq32(self, a: __m512i, b: __m512i) -> __m512i {
        // SAFETY: the token proves the CPU features (module docs).
        unsafe { _mm512_maskz_mov_epi32(_mm512_cmpeq_epi32_mask(a, b), _mm512_set1_epi32(-1)) }
    }

    #[inline(always)]
    fn gt_i32(self, a: __m512i, b: __m512i) -> __m512i {
        // SAFETY: the token proves the CPU features (module docs).
        unsafe { _mm512_maskz_mov_epi32(_mm512_cmpgt_epi32_mask(a, b), _mm512_set1_epi32(-1)) }
    }

    #[inline(always)]
    fn splat8(self, x: u8) -> __m512i {
        // SAFETY: the token proves the CPU features (module docs).
        unsafe { _mm512_set1_epi8(x as i8) }
    }

    #[inline(always)]
    fn splat16(self, x: u16) -> __m512i {
        // SAFETY: the token proves the CPU features (module docs).
        unsafe { _mm512_set1_epi16(x as i16) }
    }

    #[inline(always)]
    fn splat32(self, x: u32) -> __m512i {
        // SAFETY: the token proves the CPU features (module docs).
        unsafe { _mm512_set1_epi32(x as i32) }
    }

    #[inline(always)]
    fn shr8<const N: i32>(self, a: __m512i) -> __m512i {
        // SAFETY: the token proves the CPU features (module docs).
        unsafe {
            _mm512_and_si512(
                _mm512_srl_epi16(a, _mm_cvtsi32_si128(N)),
                _mm512_set1_epi8((0xFFu8 >> N) as i8),
            )
        }
    }

    #[inline(always)]
    fn alignr8<const N: i32>(self, hi: __m512i, lo: __m512i) -> __m512i {
        // SAFETY: the token proves the CPU features (module docs).
        unsafe { _mm512_alignr_epi8::<N>(hi, lo) }
    }

    #[inline(always)]
    fn shl16<const N: i32>(self, a: __m512i) -> __m512i {
        // The immediate forms take `u32` counts here; LLVM turns a constant
        // count into the immediate form.
        // SAFETY: the token proves the CPU features (module docs).
        unsafe { _mm512_sll_epi16(a, _mm_cvtsi32_si128(N)) }
    }

    #[inline(always)]
    fn shr16<const N: i32>(self, a: __m512i) -> __m512i {
        // SAFETY: the token proves the CPU features (module docs).
        unsafe { _mm512_srl_epi16(a, _mm_cvtsi32_si128(N)) }
    }

    #[inline(always)]
    fn shl32<const N: i32>(self, a: __m512i) -> __m512i {
        // SAFETY: the token proves the CPU features (module docs).
        unsafe { _mm512_sll_epi32(a, _mm_cvtsi32_si128(N)) }
    }

    #[inline(always)]
    fn shr32<const N: i32>(self, a: __m512i) -> __m512i {
        // SAFETY: the token proves the CPU features (module docs).
        unsafe { _mm512_srl_epi32(a, _mm_cvtsi32_si128(N)) }
    }

    #[inline(always)]
    fn sum8(self, a: __m512i) -> u64 {
        // SAFETY: the token proves the CPU features (module docs).
        unsafe { _mm512_reduce_add_epi64(_mm512_sad_epu8(a, _mm512_setzero_si512())) as u64 }
    }

    #[inline(always)]
    fn sum16(self, a: __m512i) -> u64 {
        // SAFETY: the token proves the CPU features (module docs).
        let lo = unsafe { _mm512_and_si512(a, _mm512_set1_epi32(0xFFFF)) };
        // SAFETY: as above.
        let hi = unsafe { _mm512_srli_epi32::<16>(a) };
        self.sum32(self.add32(lo, hi))
    }

    #[inline(always)]
    fn sum32(self, a: __m512i) -> u64 {
        // SAFETY: the token proves the CPU features (module docs).
        let lo = unsafe { _mm512_and_si512(a, _mm512_set1_epi64(0xFFFF_FFFF)) };
        // SAFETY: as above.
        unsafe { _mm512_reduce_add_epi64(_mm512_add_epi64(lo, _mm512_srli_epi64::<32>(a))) as u64 }
    }
}
