//! The 64-byte kernel: [`CheckSimd`] for the `Avx512` token (AVX-512 F and
//! BW), and its entry points. The dispatch prefers it where the CPU has those features;
//! `Avx2::new()` still names the AVX2 kernel for callers who want it.
//!
//! Why it exists: the AVX2 kernel is bound by shuffles. Each 32-byte
//! register needs one lane-crossing permute, three `palignr` and three
//! `pshufb`, all on the one shuffle port of current Intel cores: 14 cycles
//! per 64 bytes, which is the ~13 GB/s that both it and simdutf8 reach on
//! any non-ASCII text. A 64-byte register does the same seven shuffles for
//! twice the bytes.

use codec_arch::x86_64::{Avx2, Avx512, Simd};
use core::arch::x86_64::{
    __m512i, _mm512_alignr_epi64, _mm512_castsi256_si512, _mm512_cmpgt_epi8_mask,
    _mm512_inserti64x4, _mm512_setzero_si512,
};

use crate::arch::Kernel;
use crate::arch::kernel;
use crate::arch::simd::CheckSimd;

/// The 64 bytes `prev[48..64] ++ cur[0..48]`: what the per-lane `alignr`
/// needs to reach across 128-bit lanes.
#[inline(always)]
fn straddle(_: Avx512, cur: __m512i, prev: __m512i) -> __m512i {
    // SAFETY: the token proves the CPU features.
    unsafe { _mm512_alignr_epi64::<6>(cur, prev) }
}

impl CheckSimd for Avx512 {
    #[inline(always)]
    unsafe fn load_partial(self, p: *const u8, n: usize) -> __m512i {
        // SAFETY: the token proves AVX-512's feature set, which holds
        // AVX2's; its partial load makes each half.
        let avx2 = unsafe { Avx2::new() };
        // SAFETY: the caller guarantees `n < 64` readable bytes at `p`; each
        // half reads within them; the token proves the CPU features.
        unsafe {
            if n >= 32 {
                let lo = avx2.load(p);
                let hi = avx2.load_partial(p.add(32), n - 32);
                _mm512_inserti64x4::<1>(_mm512_castsi256_si512(lo), hi)
            } else {
                let lo = avx2.load_partial(p, n);
                _mm512_inserti64x4::<0>(_mm512_setzero_si512(), lo)
            }
        }
    }

    #[inline(always)]
    fn prev1(self, cur: __m512i, prev: __m512i) -> __m512i {
        self.alignr8::<15>(cur, straddle(self, cur, prev))
    }

    #[inline(always)]
    fn prev2(self, cur: __m512i, prev: __m512i) -> __m512i {
        self.alignr8::<14>(cur, straddle(self, cur, prev))
    }

    #[inline(always)]
    fn prev3(self, cur: __m512i, prev: __m512i) -> __m512i {
        self.alignr8::<13>(cur, straddle(self, cur, prev))
    }

    #[inline(always)]
    fn is_ascii(self, a: __m512i) -> bool {
        self.movemask8(a) == 0
    }

    #[inline(always)]
    fn all_positive(self, a: __m512i) -> bool {
        // Straight into a mask register (`gt_i8` makes a vector of it).
        // SAFETY: the token proves the CPU features.
        unsafe { _mm512_cmpgt_epi8_mask(a, _mm512_setzero_si512()) == u64::MAX }
    }
}

/// This kernel in the registry (`arch::kernels`).
pub(crate) const KERNEL: Kernel = Kernel::new(
    "avx512",
    codec_arch::Isa::AVX512,
    // The `#[target_feature]` functions themselves, as `unsafe fn`
    // pointers (called only once the CPU is known to have the features):
    // no closure in between, one call less per input.
    validate,
    is_valid,
    Some(&crate::arch::variants::AVX512),
);

codec_arch::enable! { avx512;
    /// The kernel's contract ([`kernel::validate`]) with 64-byte registers and
    /// checkpoints every 256 bytes, for exact errors.
    pub(crate) fn validate(input: &[u8]) -> Result<(), usize> {
        // SAFETY: the rest passed is this kernel's own, with the same
        // checkpoints, compiled with the same features.
        unsafe { kernel::validate::<_, true>(Avx512::new(), input, validate_rest) }
    }
}

codec_arch::enable! { avx512;
    /// Whether `input` is well-formed UTF-8, without checkpoints.
    pub(crate) fn is_valid(input: &[u8]) -> bool {
        // SAFETY: as in `validate`.
        unsafe { kernel::validate::<_, false>(Avx512::new(), input, is_valid_rest).is_ok() }
    }
}

codec_arch::enable! { avx512;
    /// `kernel::validate_rest` with checkpoints: what [`validate`] runs from
    /// the first non-ASCII block on, called out of line (see
    /// `kernel::validate`).
    ///
    /// # Safety
    ///
    /// As for `kernel::validate_rest`, and the CPU has AVX-512 F and BW and AVX2.
    unsafe fn validate_rest(input: &[u8], i: usize) -> Result<(), usize> {
        // SAFETY: the caller (`kernel::validate`) guarantees
        // `kernel::validate_rest`'s contract.
        unsafe { kernel::validate_rest::<_, true>(Avx512::new(), input, i) }
    }
}

codec_arch::enable! { avx512;
    /// `kernel::validate_rest` without checkpoints, for [`is_valid`].
    ///
    /// # Safety
    ///
    /// As for [`validate_rest`].
    unsafe fn is_valid_rest(input: &[u8], i: usize) -> Result<(), usize> {
        // SAFETY: as in `validate_rest`.
        unsafe { kernel::validate_rest::<_, false>(Avx512::new(), input, i) }
    }
}
