//! The 16-byte kernel: [`Vector`] for `__m128i`, and its entry point.
//!
//! The algorithm needs SSSE3 (`pshufb`, `palignr`) and SSE4.1 (`ptest`);
//! nothing of SSE4.2 itself. The kernel is named after SSE4.2, as in
//! simdutf8, because that is the usual name of the x86-64-v2 level that
//! brings both, and detection asks for all three.

use core::arch::x86_64::{
    __m128i, _mm_alignr_epi8, _mm_and_si128, _mm_loadu_si128, _mm_movemask_epi8, _mm_or_si128,
    _mm_set_epi64x, _mm_set1_epi8, _mm_shuffle_epi8, _mm_srli_epi16, _mm_subs_epu8,
    _mm_testz_si128, _mm_xor_si128,
};

use crate::arch::kernel;
use crate::arch::vector::Vector;

// SAFETY: each method uses only SSE2, SSSE3 and SSE4.1 instructions, which
// the trait's contract makes the caller guarantee.
unsafe impl Vector for __m128i {
    const BYTES: usize = 16;

    #[inline(always)]
    unsafe fn splat(b: u8) -> Self {
        // SAFETY: SSE2, guaranteed by the caller.
        unsafe { _mm_set1_epi8(b as i8) }
    }

    #[inline(always)]
    unsafe fn table(t: &[u8; 16]) -> Self {
        // SAFETY: `t` is 16 readable bytes; SSE2 is guaranteed by the caller.
        unsafe { _mm_loadu_si128(t.as_ptr().cast()) }
    }

    #[inline(always)]
    unsafe fn load(ptr: *const u8) -> Self {
        // SAFETY: the caller guarantees 16 readable bytes at `ptr`, and SSE2.
        unsafe { _mm_loadu_si128(ptr.cast()) }
    }

    #[inline(always)]
    unsafe fn load_partial(ptr: *const u8, n: usize) -> Self {
        // SAFETY: the caller guarantees `n < 16` readable bytes at `ptr`, and
        // SSE2.
        unsafe {
            let (lo, hi) = crate::arch::partial::partial_words(ptr, n);
            _mm_set_epi64x(hi as i64, lo as i64)
        }
    }

    #[inline(always)]
    unsafe fn or(self, other: Self) -> Self {
        // SAFETY: SSE2, guaranteed by the caller.
        unsafe { _mm_or_si128(self, other) }
    }

    #[inline(always)]
    unsafe fn and(self, other: Self) -> Self {
        // SAFETY: SSE2, guaranteed by the caller.
        unsafe { _mm_and_si128(self, other) }
    }

    #[inline(always)]
    unsafe fn xor(self, other: Self) -> Self {
        // SAFETY: SSE2, guaranteed by the caller.
        unsafe { _mm_xor_si128(self, other) }
    }

    #[inline(always)]
    unsafe fn high_nibbles(self) -> Self {
        // SAFETY: SSE2, guaranteed by the caller.
        unsafe { _mm_and_si128(_mm_srli_epi16::<4>(self), _mm_set1_epi8(0x0F)) }
    }

    #[inline(always)]
    unsafe fn saturating_sub(self, other: Self) -> Self {
        // SAFETY: SSE2, guaranteed by the caller.
        unsafe { _mm_subs_epu8(self, other) }
    }

    #[inline(always)]
    unsafe fn lookup(self, idx: Self) -> Self {
        // SAFETY: SSSE3, guaranteed by the caller.
        unsafe { _mm_shuffle_epi8(self, idx) }
    }

    #[inline(always)]
    unsafe fn prev1(self, prev: Self) -> Self {
        // SAFETY: SSSE3, guaranteed by the caller.
        unsafe { _mm_alignr_epi8::<15>(self, prev) }
    }

    #[inline(always)]
    unsafe fn prev2(self, prev: Self) -> Self {
        // SAFETY: SSSE3, guaranteed by the caller.
        unsafe { _mm_alignr_epi8::<14>(self, prev) }
    }

    #[inline(always)]
    unsafe fn prev3(self, prev: Self) -> Self {
        // SAFETY: SSSE3, guaranteed by the caller.
        unsafe { _mm_alignr_epi8::<13>(self, prev) }
    }

    #[inline(always)]
    unsafe fn is_ascii(self) -> bool {
        // SAFETY: SSE2, guaranteed by the caller.
        unsafe { _mm_movemask_epi8(self) == 0 }
    }

    #[inline(always)]
    unsafe fn any(self) -> bool {
        // SAFETY: SSE4.1, guaranteed by the caller.
        unsafe { _mm_testz_si128(self, self) == 0 }
    }
}

/// Whether this CPU can run [`validate`].
#[cfg(feature = "std")]
pub(crate) fn is_available() -> bool {
    std::is_x86_feature_detected!("sse4.2")
        && std::is_x86_feature_detected!("sse4.1")
        && std::is_x86_feature_detected!("ssse3")
}

/// Whether this CPU can run [`validate`].
#[cfg(not(feature = "std"))]
pub(crate) fn is_available() -> bool {
    cfg!(all(
        target_feature = "sse4.2",
        target_feature = "sse4.1",
        target_feature = "ssse3"
    ))
}

/// The kernel's contract ([`kernel::validate`]) with 16-byte registers and
/// checkpoints every 256 bytes, for exact errors.
#[target_feature(enable = "sse4.2,sse4.1,ssse3")]
pub(crate) fn validate(input: &[u8]) -> Result<(), usize> {
    // SAFETY: this function is compiled for, and only called with (see its
    // callers' SAFETY notes), SSSE3 and SSE4.1: all that `__m128i`'s
    // `Vector` methods use.
    unsafe { kernel::validate::<__m128i, true>(input) }
}

/// Whether `input` is well-formed UTF-8, without checkpoints.
#[target_feature(enable = "sse4.2,sse4.1,ssse3")]
pub(crate) fn is_valid(input: &[u8]) -> bool {
    // SAFETY: this function is compiled for, and only called with (see its
    // callers' SAFETY notes), SSSE3 and SSE4.1: all that `__m128i`'s
    // `Vector` methods use.
    unsafe { kernel::validate::<__m128i, false>(input).is_ok() }
}
