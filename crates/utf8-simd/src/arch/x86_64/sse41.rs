//! The 16-byte kernel: [`Vector`] for `__m128i`, and its entry point.
//!
//! The algorithm needs SSSE3 (`pshufb`, `palignr`) and SSE4.1 (`ptest`),
//! and detection asks for exactly those. (It used to be named after SSE4.2,
//! as simdutf8's is, and to ask for SSE4.2 too, which it never used.)

use core::arch::x86_64::{
    __m128i, _mm_alignr_epi8, _mm_and_si128, _mm_cmpgt_epi8, _mm_loadu_si128, _mm_min_epi8,
    _mm_movemask_epi8, _mm_or_si128, _mm_set_epi64x, _mm_set1_epi8, _mm_setzero_si128,
    _mm_shuffle_epi8, _mm_srli_epi16, _mm_subs_epu8, _mm_testz_si128, _mm_xor_si128,
};

use crate::arch::Kernel;
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
    unsafe fn min_signed(self, other: Self) -> Self {
        // SAFETY: SSE4.1, guaranteed by the caller.
        unsafe { _mm_min_epi8(self, other) }
    }

    #[inline(always)]
    unsafe fn all_positive(self) -> bool {
        // SAFETY: SSE2, guaranteed by the caller.
        unsafe { _mm_movemask_epi8(_mm_cmpgt_epi8(self, _mm_setzero_si128())) == 0xFFFF }
    }

    #[inline(always)]
    unsafe fn any(self) -> bool {
        // SAFETY: SSE4.1, guaranteed by the caller.
        unsafe { _mm_testz_si128(self, self) == 0 }
    }
}

/// This kernel in the registry (`arch::kernels`).
pub(crate) const KERNEL: Kernel = Kernel::new(
    "sse4.1",
    codec_arch::Isa::SSE41,
    // The `#[target_feature]` functions themselves, as `unsafe fn`
    // pointers (called only once the CPU is known to have the features):
    // no closure in between, one call less per input.
    validate,
    is_valid,
    Some(&crate::arch::variants::SSE41),
);

codec_arch::enable! { sse41;
    /// The kernel's contract ([`kernel::validate`]) with 16-byte registers and
    /// checkpoints every 256 bytes, for exact errors.
    pub(crate) fn validate(input: &[u8]) -> Result<(), usize> {
        // SAFETY: this function is compiled for, and only called with (see its
        // callers' SAFETY notes), SSSE3 and SSE4.1: all that `__m128i`'s
        // `Vector` methods use.
        // The rest passed is this kernel's own, with the same checkpoints.
        unsafe { kernel::validate::<__m128i, true>(input, validate_rest) }
    }
}

codec_arch::enable! { sse41;
    /// Whether `input` is well-formed UTF-8, without checkpoints.
    pub(crate) fn is_valid(input: &[u8]) -> bool {
        // SAFETY: this function is compiled for, and only called with (see its
        // callers' SAFETY notes), SSSE3 and SSE4.1: all that `__m128i`'s
        // `Vector` methods use.
        // The rest passed is this kernel's own, with the same checkpoints.
        unsafe { kernel::validate::<__m128i, false>(input, is_valid_rest).is_ok() }
    }
}

codec_arch::enable! { sse41;
    /// `kernel::validate_rest` with checkpoints: what [`validate`] runs from
    /// the first non-ASCII block on, called out of line (see
    /// `kernel::validate`).
    ///
    /// # Safety
    ///
    /// As for `kernel::validate_rest`, and the CPU has SSSE3 and SSE4.1.
    unsafe fn validate_rest(input: &[u8], i: usize) -> Result<(), usize> {
        // SAFETY: compiled for SSSE3 and SSE4.1, which its callers have; the caller (`kernel::validate`) guarantees the
        // rest of `kernel::validate_rest`'s contract.
        unsafe { kernel::validate_rest::<__m128i, true>(input, i) }
    }
}

codec_arch::enable! { sse41;
    /// `kernel::validate_rest` without checkpoints, for [`is_valid`].
    ///
    /// # Safety
    ///
    /// As for [`validate_rest`].
    unsafe fn is_valid_rest(input: &[u8], i: usize) -> Result<(), usize> {
        // SAFETY: as in `validate_rest`.
        unsafe { kernel::validate_rest::<__m128i, false>(input, i) }
    }
}
