//! The 32-byte kernel: [`CheckSimd`] for the `Avx2` token, and its entry
//! points.

use codec_arch::x86_64::{Avx2, Simd};
use core::arch::x86_64::{
    __m256i, _MM_HINT_T0, _mm_prefetch, _mm256_permute2x128_si256, _mm256_set_epi64x,
};

use crate::arch::Kernel;
use crate::arch::kernel;
use crate::arch::simd::CheckSimd;

/// The 32 bytes `prev[16..32] ++ cur[0..16]`: what `alignr` needs to reach
/// across the two 128-bit lanes.
#[inline(always)]
fn straddle(_: Avx2, cur: __m256i, prev: __m256i) -> __m256i {
    // SAFETY: the token proves the CPU features.
    unsafe { _mm256_permute2x128_si256::<0x21>(prev, cur) }
}

impl CheckSimd for Avx2 {
    #[inline(always)]
    unsafe fn load_partial(self, p: *const u8, n: usize) -> __m256i {
        // SAFETY: the caller guarantees `n < 32` readable bytes at `p`; each
        // `partial_words` call reads within them; the token proves the CPU
        // features.
        unsafe {
            let (w0, w1, w2, w3) = if n >= 16 {
                let (w2, w3) = crate::arch::partial::partial_words(p.add(16), n - 16);
                (
                    u64::from_le(p.cast::<u64>().read_unaligned()),
                    u64::from_le(p.add(8).cast::<u64>().read_unaligned()),
                    w2,
                    w3,
                )
            } else {
                let (w0, w1) = crate::arch::partial::partial_words(p, n);
                (w0, w1, 0, 0)
            };
            _mm256_set_epi64x(w3 as i64, w2 as i64, w1 as i64, w0 as i64)
        }
    }

    #[inline(always)]
    fn prev1(self, cur: __m256i, prev: __m256i) -> __m256i {
        self.alignr8::<15>(cur, straddle(self, cur, prev))
    }

    #[inline(always)]
    fn prev2(self, cur: __m256i, prev: __m256i) -> __m256i {
        self.alignr8::<14>(cur, straddle(self, cur, prev))
    }

    #[inline(always)]
    fn prev3(self, cur: __m256i, prev: __m256i) -> __m256i {
        self.alignr8::<13>(cur, straddle(self, cur, prev))
    }

    #[inline(always)]
    fn is_ascii(self, a: __m256i) -> bool {
        self.movemask8(a) == 0
    }

    #[inline(always)]
    fn all_positive(self, a: __m256i) -> bool {
        self.movemask8(self.gt_i8(a, self.zero())) == 0xFFFF_FFFF
    }

    /// On: 1 MiB inputs stream from L3 and memory, where simdutf8's AVX2
    /// kernel also prefetches 128 bytes ahead; see `kernel::validate`.
    #[inline(always)]
    fn prefetch(self, p: *const u8) {
        // SAFETY: SSE, part of x86-64; a prefetch reads nothing and never
        // faults, whatever the address.
        unsafe { _mm_prefetch::<_MM_HINT_T0>(p.cast()) }
    }
}

/// This kernel in the registry (`arch::kernels`).
pub(crate) const KERNEL: Kernel = Kernel::new(
    "avx2",
    codec_arch::Isa::AVX2,
    // The `#[target_feature]` functions themselves, as `unsafe fn`
    // pointers (called only once the CPU is known to have the features):
    // no closure in between, one call less per input.
    validate,
    is_valid,
    Some(&crate::arch::variants::AVX2),
);

codec_arch::enable! { avx2;
    /// The kernel's contract ([`kernel::validate`]) with 32-byte registers and
    /// checkpoints every 256 bytes, for exact errors.
    pub(crate) fn validate(input: &[u8]) -> Result<(), usize> {
        // SAFETY: the rest passed is this kernel's own, with the same
        // checkpoints, compiled with the same features.
        unsafe { kernel::validate::<_, true>(Avx2::new(), input, validate_rest) }
    }
}

codec_arch::enable! { avx2;
    /// Whether `input` is well-formed UTF-8, without checkpoints.
    pub(crate) fn is_valid(input: &[u8]) -> bool {
        // SAFETY: as in `validate`.
        unsafe { kernel::validate::<_, false>(Avx2::new(), input, is_valid_rest).is_ok() }
    }
}

codec_arch::enable! { avx2;
    /// `kernel::validate_rest` with checkpoints: what [`validate`] runs from
    /// the first non-ASCII block on, called out of line (see
    /// `kernel::validate`).
    ///
    /// # Safety
    ///
    /// As for `kernel::validate_rest`, and the CPU has AVX2.
    unsafe fn validate_rest(input: &[u8], i: usize) -> Result<(), usize> {
        // SAFETY: the caller (`kernel::validate`) guarantees
        // `kernel::validate_rest`'s contract.
        unsafe { kernel::validate_rest::<_, true>(Avx2::new(), input, i) }
    }
}

codec_arch::enable! { avx2;
    /// `kernel::validate_rest` without checkpoints, for [`is_valid`].
    ///
    /// # Safety
    ///
    /// As for [`validate_rest`].
    unsafe fn is_valid_rest(input: &[u8], i: usize) -> Result<(), usize> {
        // SAFETY: as in `validate_rest`.
        unsafe { kernel::validate_rest::<_, false>(Avx2::new(), input, i) }
    }
}
