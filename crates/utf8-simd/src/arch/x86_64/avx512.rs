//! The 64-byte kernel: [`Vector`] for `__m512i` (AVX-512 F and BW), and its
//! entry point. The dispatch prefers it where the CPU has those features;
//! `Avx2::new()` still names the AVX2 kernel for callers who want it.
//!
//! Why it exists: the AVX2 kernel is bound by shuffles. Each 32-byte
//! register needs one lane-crossing permute, three `palignr` and three
//! `pshufb`, all on the one shuffle port of current Intel cores: 14 cycles
//! per 64 bytes, which is the ~13 GB/s that both it and simdutf8 reach on
//! any non-ASCII text. A 64-byte register does the same seven shuffles for
//! twice the bytes.

use core::arch::x86_64::{
    __m128i, __m512i, _mm_loadu_si128, _mm512_alignr_epi8, _mm512_alignr_epi64, _mm512_and_si512,
    _mm512_broadcast_i32x4, _mm512_castsi256_si512, _mm512_cmpgt_epi8_mask, _mm512_inserti64x4,
    _mm512_loadu_si512, _mm512_min_epi8, _mm512_movepi8_mask, _mm512_or_si512, _mm512_set1_epi8,
    _mm512_setzero_si512, _mm512_shuffle_epi8, _mm512_srli_epi16, _mm512_subs_epu8,
    _mm512_test_epi64_mask, _mm512_xor_si512,
};

use crate::arch::Kernel;
use crate::arch::kernel;
use crate::arch::vector::Vector;

/// The 64 bytes `prev[48..64] ++ cur[0..48]`: what the per-lane `alignr`
/// needs to reach across 128-bit lanes.
///
/// # Safety
///
/// The CPU has AVX-512 F.
#[inline(always)]
unsafe fn straddle(cur: __m512i, prev: __m512i) -> __m512i {
    // SAFETY: AVX-512 F, guaranteed by the caller.
    unsafe { _mm512_alignr_epi64::<6>(cur, prev) }
}

// SAFETY: each method uses only AVX-512 F and BW instructions (plus AVX2 and
// SSE2 ones, which they imply), which the trait's contract makes the caller
// guarantee.
unsafe impl Vector for __m512i {
    const BYTES: usize = 64;

    #[inline(always)]
    unsafe fn splat(b: u8) -> Self {
        // SAFETY: AVX-512 F, guaranteed by the caller.
        unsafe { _mm512_set1_epi8(b as i8) }
    }

    #[inline(always)]
    unsafe fn table(t: &[u8; 16]) -> Self {
        // SAFETY: `t` is 16 readable bytes; AVX-512 F is guaranteed by the
        // caller.
        unsafe { _mm512_broadcast_i32x4(_mm_loadu_si128(t.as_ptr().cast::<__m128i>())) }
    }

    #[inline(always)]
    unsafe fn load(ptr: *const u8) -> Self {
        // SAFETY: the caller guarantees 64 readable bytes at `ptr`, and
        // AVX-512 F.
        unsafe { _mm512_loadu_si512(ptr.cast()) }
    }

    #[inline(always)]
    unsafe fn load_partial(ptr: *const u8, n: usize) -> Self {
        // SAFETY: the caller guarantees `n < 64` readable bytes at `ptr`, and
        // AVX-512 F (which implies AVX2); each half reads within them.
        unsafe {
            use core::arch::x86_64::__m256i;
            if n >= 32 {
                let lo = <__m256i as Vector>::load(ptr);
                let hi = <__m256i as Vector>::load_partial(ptr.add(32), n - 32);
                _mm512_inserti64x4::<1>(_mm512_castsi256_si512(lo), hi)
            } else {
                let lo = <__m256i as Vector>::load_partial(ptr, n);
                _mm512_inserti64x4::<0>(_mm512_setzero_si512(), lo)
            }
        }
    }

    #[inline(always)]
    unsafe fn or(self, other: Self) -> Self {
        // SAFETY: AVX-512 F, guaranteed by the caller.
        unsafe { _mm512_or_si512(self, other) }
    }

    #[inline(always)]
    unsafe fn and(self, other: Self) -> Self {
        // SAFETY: AVX-512 F, guaranteed by the caller.
        unsafe { _mm512_and_si512(self, other) }
    }

    #[inline(always)]
    unsafe fn xor(self, other: Self) -> Self {
        // SAFETY: AVX-512 F, guaranteed by the caller.
        unsafe { _mm512_xor_si512(self, other) }
    }

    #[inline(always)]
    unsafe fn high_nibbles(self) -> Self {
        // SAFETY: AVX-512 BW and F, guaranteed by the caller.
        unsafe { _mm512_and_si512(_mm512_srli_epi16::<4>(self), _mm512_set1_epi8(0x0F)) }
    }

    #[inline(always)]
    unsafe fn saturating_sub(self, other: Self) -> Self {
        // SAFETY: AVX-512 BW, guaranteed by the caller.
        unsafe { _mm512_subs_epu8(self, other) }
    }

    #[inline(always)]
    unsafe fn lookup(self, idx: Self) -> Self {
        // SAFETY: AVX-512 BW, guaranteed by the caller.
        unsafe { _mm512_shuffle_epi8(self, idx) }
    }

    #[inline(always)]
    unsafe fn prev1(self, prev: Self) -> Self {
        // SAFETY: AVX-512 BW and F, guaranteed by the caller.
        unsafe { _mm512_alignr_epi8::<15>(self, straddle(self, prev)) }
    }

    #[inline(always)]
    unsafe fn prev2(self, prev: Self) -> Self {
        // SAFETY: AVX-512 BW and F, guaranteed by the caller.
        unsafe { _mm512_alignr_epi8::<14>(self, straddle(self, prev)) }
    }

    #[inline(always)]
    unsafe fn prev3(self, prev: Self) -> Self {
        // SAFETY: AVX-512 BW and F, guaranteed by the caller.
        unsafe { _mm512_alignr_epi8::<13>(self, straddle(self, prev)) }
    }

    #[inline(always)]
    unsafe fn is_ascii(self) -> bool {
        // SAFETY: AVX-512 BW, guaranteed by the caller.
        unsafe { _mm512_movepi8_mask(self) == 0 }
    }

    #[inline(always)]
    unsafe fn min_signed(self, other: Self) -> Self {
        // SAFETY: AVX-512 BW, guaranteed by the caller.
        unsafe { _mm512_min_epi8(self, other) }
    }

    #[inline(always)]
    unsafe fn all_positive(self) -> bool {
        // SAFETY: AVX-512 BW, guaranteed by the caller.
        unsafe { _mm512_cmpgt_epi8_mask(self, _mm512_setzero_si512()) == u64::MAX }
    }

    #[inline(always)]
    unsafe fn any(self) -> bool {
        // SAFETY: AVX-512 F, guaranteed by the caller.
        unsafe { _mm512_test_epi64_mask(self, self) != 0 }
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
        // SAFETY: this function is compiled for, and only called with (see its
        // callers' SAFETY notes), AVX-512 F and BW and AVX2: all that
        // `__m512i`'s `Vector` methods use.
        // The rest passed is this kernel's own, with the same checkpoints.
        unsafe { kernel::validate::<__m512i, true>(input, validate_rest) }
    }
}

codec_arch::enable! { avx512;
    /// Whether `input` is well-formed UTF-8, without checkpoints.
    pub(crate) fn is_valid(input: &[u8]) -> bool {
        // SAFETY: this function is compiled for, and only called with (see its
        // callers' SAFETY notes), AVX-512 F and BW and AVX2: all that
        // `__m512i`'s `Vector` methods use.
        // The rest passed is this kernel's own, with the same checkpoints.
        unsafe { kernel::validate::<__m512i, false>(input, is_valid_rest).is_ok() }
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
        // SAFETY: compiled for AVX-512 F and BW and AVX2, which its callers have; the caller (`kernel::validate`) guarantees the
        // rest of `kernel::validate_rest`'s contract.
        unsafe { kernel::validate_rest::<__m512i, true>(input, i) }
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
        unsafe { kernel::validate_rest::<__m512i, false>(input, i) }
    }
}
