//! The 16-byte kernel: [`CheckSimd`] for the `Sse41` token, and its entry
//! points.
//!
//! The algorithm needs SSSE3 (`pshufb`, `palignr`) and SSE4.1 (`ptest`),
//! and detection asks for exactly those. (It used to be named after SSE4.2,
//! as simdutf8's is, and to ask for SSE4.2 too, which it never used.)

use codec_arch::x86_64::{Simd, Sse41};
use core::arch::x86_64::{__m128i, _mm_set_epi64x};

use crate::arch::Kernel;
use crate::arch::kernel;
use crate::arch::simd::CheckSimd;

impl CheckSimd for Sse41 {
    #[inline(always)]
    unsafe fn load_partial(self, p: *const u8, n: usize) -> __m128i {
        // SAFETY: the caller guarantees `n < 16` readable bytes at `p`; the
        // token proves the CPU features.
        unsafe {
            let (lo, hi) = crate::arch::partial::partial_words(p, n);
            _mm_set_epi64x(hi as i64, lo as i64)
        }
    }

    #[inline(always)]
    fn prev1(self, cur: __m128i, prev: __m128i) -> __m128i {
        self.alignr8::<15>(cur, prev)
    }

    #[inline(always)]
    fn prev2(self, cur: __m128i, prev: __m128i) -> __m128i {
        self.alignr8::<14>(cur, prev)
    }

    #[inline(always)]
    fn prev3(self, cur: __m128i, prev: __m128i) -> __m128i {
        self.alignr8::<13>(cur, prev)
    }

    #[inline(always)]
    fn is_ascii(self, a: __m128i) -> bool {
        self.movemask8(a) == 0
    }

    #[inline(always)]
    fn all_positive(self, a: __m128i) -> bool {
        self.movemask8(self.gt_i8(a, self.zero())) == 0xFFFF
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
        // SAFETY: the rest passed is this kernel's own, with the same
        // checkpoints, compiled with the same features.
        unsafe { kernel::validate::<_, true>(Sse41::new(), input, validate_rest) }
    }
}

codec_arch::enable! { sse41;
    /// Whether `input` is well-formed UTF-8, without checkpoints.
    pub(crate) fn is_valid(input: &[u8]) -> bool {
        // SAFETY: as in `validate`.
        unsafe { kernel::validate::<_, false>(Sse41::new(), input, is_valid_rest).is_ok() }
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
        // SAFETY: the caller (`kernel::validate`) guarantees
        // `kernel::validate_rest`'s contract.
        unsafe { kernel::validate_rest::<_, true>(Sse41::new(), input, i) }
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
        unsafe { kernel::validate_rest::<_, false>(Sse41::new(), input, i) }
    }
}
