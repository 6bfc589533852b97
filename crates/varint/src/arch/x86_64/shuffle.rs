//! The Stream VByte and Group Varint kernels on x86-64: one `pshufb`
//! (SSSE3) per group of four values, `pminud` (SSE4.1) for the encoder's
//! lengths. [`sse41`] and [`avx2`] are the same code; the AVX2 instance is
//! compiled with the VEX encoding (no register copies for the
//! two-operand forms), which is what AVX2 buys a 16-byte-per-group kernel.

use core::arch::x86_64::{
    __m128i, _mm_add_epi32, _mm_alignr_epi8, _mm_and_si128, _mm_castsi128_ps, _mm_cmpeq_epi32,
    _mm_extract_epi32, _mm_loadu_si128, _mm_min_epu32, _mm_movemask_ps, _mm_set1_epi32,
    _mm_setzero_si128, _mm_shuffle_epi8, _mm_shuffle_epi32, _mm_slli_epi32, _mm_slli_si128,
    _mm_srai_epi32, _mm_srli_epi32, _mm_storeu_si128, _mm_sub_epi32, _mm_xor_si128,
};

use crate::arch::shuffle::{ShuffleIsa, control_from_masks};

/// SSE2, SSSE3 and SSE4.1 on one 16-byte register.
pub(crate) struct Sse;

impl ShuffleIsa for Sse {
    type V = __m128i;

    #[inline(always)]
    unsafe fn load(p: *const u8) -> __m128i {
        // SAFETY: 16 readable bytes at `p`, the caller's promise; no
        // alignment needed.
        unsafe { _mm_loadu_si128(p.cast()) }
    }

    #[inline(always)]
    unsafe fn store(p: *mut u8, v: __m128i) {
        // SAFETY: 16 writable bytes at `p`, the caller's promise.
        unsafe { _mm_storeu_si128(p.cast(), v) }
    }

    #[inline(always)]
    unsafe fn shuffle(v: __m128i, pattern: &[u8; 16]) -> __m128i {
        // SAFETY: SSSE3, the caller's promise; `pattern` is 16 bytes.
        unsafe { _mm_shuffle_epi8(v, _mm_loadu_si128(pattern.as_ptr().cast())) }
    }

    #[inline(always)]
    unsafe fn splat(x: u32) -> __m128i {
        // SAFETY: SSE2.
        unsafe { _mm_set1_epi32(x as i32) }
    }

    #[inline(always)]
    unsafe fn last(v: __m128i) -> u32 {
        // SAFETY: SSE4.1.
        unsafe { _mm_extract_epi32::<3>(v) as u32 }
    }

    #[inline(always)]
    unsafe fn unzigzag(v: __m128i) -> __m128i {
        // SAFETY: SSE2.
        unsafe {
            let sign = _mm_sub_epi32(_mm_setzero_si128(), _mm_and_si128(v, _mm_set1_epi32(1)));
            _mm_xor_si128(_mm_srli_epi32::<1>(v), sign)
        }
    }

    #[inline(always)]
    unsafe fn zigzag(v: __m128i) -> __m128i {
        // SAFETY: SSE2.
        unsafe { _mm_xor_si128(_mm_slli_epi32::<1>(v), _mm_srai_epi32::<31>(v)) }
    }

    #[inline(always)]
    unsafe fn prefix_sum(v: __m128i, prev: __m128i) -> __m128i {
        // SAFETY: SSE2.
        unsafe {
            let v = _mm_add_epi32(v, _mm_slli_si128::<4>(v));
            let v = _mm_add_epi32(v, _mm_slli_si128::<8>(v));
            _mm_add_epi32(v, _mm_shuffle_epi32::<0xFF>(prev))
        }
    }

    #[inline(always)]
    unsafe fn delta(v: __m128i, prev: __m128i) -> __m128i {
        // SAFETY: SSSE3. `alignr` gives `[prev[3], v[0], v[1], v[2]]`.
        unsafe { _mm_sub_epi32(v, _mm_alignr_epi8::<12>(v, prev)) }
    }

    #[inline(always)]
    unsafe fn control(v: __m128i) -> u8 {
        // SAFETY: SSE4.1 (`pminud`). A lane is at most `limit` when the
        // unsigned minimum of the two is the lane itself.
        unsafe {
            let le = |limit: u32| {
                let m = _mm_cmpeq_epi32(_mm_min_epu32(v, _mm_set1_epi32(limit as i32)), v);
                _mm_movemask_ps(_mm_castsi128_ps(m)) as u32
            };
            control_from_masks(le(0xFF), le(0xFFFF), le(0xFF_FFFF))
        }
    }
}

pub(crate) mod sse41 {
    //! The SSE4.1 instance.
    use super::Sse;
    crate::arch::shuffle::shuffle_entry_points!(Sse, "sse2,ssse3,sse4.1");
    cpufeatures::new!(cpuid, "sse2", "ssse3", "sse4.1");

    /// Whether this CPU has the features.
    pub(crate) fn detect() -> bool {
        cpuid::get()
    }
}

pub(crate) mod avx2 {
    //! The AVX2 instance: the same code in VEX encoding.
    use super::Sse;
    crate::arch::shuffle::shuffle_entry_points!(Sse, "avx2");
    cpufeatures::new!(cpuid, "avx2");

    /// Whether this CPU has the features.
    pub(crate) fn detect() -> bool {
        cpuid::get()
    }
}
