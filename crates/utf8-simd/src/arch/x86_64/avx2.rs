//! The 32-byte kernel: [`Vector`] for `__m256i`, and its entry point.

use core::arch::x86_64::{
    __m128i, __m256i, _MM_HINT_T0, _mm_loadu_si128, _mm_prefetch, _mm256_alignr_epi8,
    _mm256_and_si256, _mm256_broadcastsi128_si256, _mm256_cmpgt_epi8, _mm256_loadu_si256,
    _mm256_min_epi8, _mm256_movemask_epi8, _mm256_or_si256, _mm256_permute2x128_si256,
    _mm256_set_epi64x, _mm256_set1_epi8, _mm256_setzero_si256, _mm256_shuffle_epi8,
    _mm256_srli_epi16, _mm256_subs_epu8, _mm256_testz_si256, _mm256_xor_si256,
};

use crate::arch::Kernel;
use crate::arch::kernel;
use crate::arch::vector::Vector;

/// The 32 bytes `prev[16..32] ++ cur[0..16]`: what `alignr` needs to reach
/// across the two 128-bit lanes.
///
/// # Safety
///
/// The CPU has AVX2.
#[inline(always)]
unsafe fn straddle(cur: __m256i, prev: __m256i) -> __m256i {
    // SAFETY: AVX2, guaranteed by the caller.
    unsafe { _mm256_permute2x128_si256::<0x21>(prev, cur) }
}

// SAFETY: each method uses only AVX and AVX2 instructions (and one SSE2
// load), which the trait's contract makes the caller guarantee.
unsafe impl Vector for __m256i {
    const BYTES: usize = 32;

    #[inline(always)]
    unsafe fn splat(b: u8) -> Self {
        // SAFETY: AVX, guaranteed by the caller.
        unsafe { _mm256_set1_epi8(b as i8) }
    }

    #[inline(always)]
    unsafe fn table(t: &[u8; 16]) -> Self {
        // SAFETY: `t` is 16 readable bytes; AVX2 is guaranteed by the caller.
        unsafe { _mm256_broadcastsi128_si256(_mm_loadu_si128(t.as_ptr().cast::<__m128i>())) }
    }

    #[inline(always)]
    unsafe fn load(ptr: *const u8) -> Self {
        // SAFETY: the caller guarantees 32 readable bytes at `ptr`, and AVX.
        unsafe { _mm256_loadu_si256(ptr.cast()) }
    }

    #[inline(always)]
    unsafe fn load_partial(ptr: *const u8, n: usize) -> Self {
        // SAFETY: the caller guarantees `n < 32` readable bytes at `ptr`, and
        // AVX; each `partial_words` call reads within them.
        unsafe {
            let (w0, w1, w2, w3) = if n >= 16 {
                let (w2, w3) = crate::arch::partial::partial_words(ptr.add(16), n - 16);
                (
                    u64::from_le(ptr.cast::<u64>().read_unaligned()),
                    u64::from_le(ptr.add(8).cast::<u64>().read_unaligned()),
                    w2,
                    w3,
                )
            } else {
                let (w0, w1) = crate::arch::partial::partial_words(ptr, n);
                (w0, w1, 0, 0)
            };
            _mm256_set_epi64x(w3 as i64, w2 as i64, w1 as i64, w0 as i64)
        }
    }

    #[inline(always)]
    unsafe fn or(self, other: Self) -> Self {
        // SAFETY: AVX2, guaranteed by the caller.
        unsafe { _mm256_or_si256(self, other) }
    }

    #[inline(always)]
    unsafe fn and(self, other: Self) -> Self {
        // SAFETY: AVX2, guaranteed by the caller.
        unsafe { _mm256_and_si256(self, other) }
    }

    #[inline(always)]
    unsafe fn xor(self, other: Self) -> Self {
        // SAFETY: AVX2, guaranteed by the caller.
        unsafe { _mm256_xor_si256(self, other) }
    }

    #[inline(always)]
    unsafe fn high_nibbles(self) -> Self {
        // SAFETY: AVX2, guaranteed by the caller.
        unsafe { _mm256_and_si256(_mm256_srli_epi16::<4>(self), _mm256_set1_epi8(0x0F)) }
    }

    #[inline(always)]
    unsafe fn saturating_sub(self, other: Self) -> Self {
        // SAFETY: AVX2, guaranteed by the caller.
        unsafe { _mm256_subs_epu8(self, other) }
    }

    #[inline(always)]
    unsafe fn lookup(self, idx: Self) -> Self {
        // SAFETY: AVX2, guaranteed by the caller.
        unsafe { _mm256_shuffle_epi8(self, idx) }
    }

    #[inline(always)]
    unsafe fn prev1(self, prev: Self) -> Self {
        // SAFETY: AVX2, guaranteed by the caller.
        unsafe { _mm256_alignr_epi8::<15>(self, straddle(self, prev)) }
    }

    #[inline(always)]
    unsafe fn prev2(self, prev: Self) -> Self {
        // SAFETY: AVX2, guaranteed by the caller.
        unsafe { _mm256_alignr_epi8::<14>(self, straddle(self, prev)) }
    }

    #[inline(always)]
    unsafe fn prev3(self, prev: Self) -> Self {
        // SAFETY: AVX2, guaranteed by the caller.
        unsafe { _mm256_alignr_epi8::<13>(self, straddle(self, prev)) }
    }

    #[inline(always)]
    unsafe fn is_ascii(self) -> bool {
        // SAFETY: AVX2, guaranteed by the caller.
        unsafe { _mm256_movemask_epi8(self) == 0 }
    }

    /// On: 1 MiB inputs stream from L3 and memory, where simdutf8's AVX2
    /// kernel also prefetches 128 bytes ahead; see `kernel::validate`.
    #[inline(always)]
    unsafe fn prefetch(ptr: *const u8) {
        // SAFETY: SSE, part of x86-64; a prefetch reads nothing and never
        // faults, whatever the address.
        unsafe { _mm_prefetch::<_MM_HINT_T0>(ptr.cast()) }
    }

    #[inline(always)]
    unsafe fn min_signed(self, other: Self) -> Self {
        // SAFETY: AVX2, guaranteed by the caller.
        unsafe { _mm256_min_epi8(self, other) }
    }

    #[inline(always)]
    unsafe fn all_positive(self) -> bool {
        // SAFETY: AVX2, guaranteed by the caller.
        unsafe { _mm256_movemask_epi8(_mm256_cmpgt_epi8(self, _mm256_setzero_si256())) == -1 }
    }

    #[inline(always)]
    unsafe fn any(self) -> bool {
        // SAFETY: AVX, guaranteed by the caller.
        unsafe { _mm256_testz_si256(self, self) == 0 }
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
        // SAFETY: this function is compiled for, and only called with (see its
        // callers' SAFETY notes), AVX2: all that `__m256i`'s `Vector` methods
        // use.
        // The rest passed is this kernel's own, with the same checkpoints.
        unsafe { kernel::validate::<__m256i, true>(input, validate_rest) }
    }
}

codec_arch::enable! { avx2;
    /// Whether `input` is well-formed UTF-8, without checkpoints.
    pub(crate) fn is_valid(input: &[u8]) -> bool {
        // SAFETY: this function is compiled for, and only called with (see its
        // callers' SAFETY notes), AVX2: all that `__m256i`'s `Vector` methods
        // use.
        // The rest passed is this kernel's own, with the same checkpoints.
        unsafe { kernel::validate::<__m256i, false>(input, is_valid_rest).is_ok() }
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
        // SAFETY: compiled for AVX2, which its callers have; the caller (`kernel::validate`) guarantees the
        // rest of `kernel::validate_rest`'s contract.
        unsafe { kernel::validate_rest::<__m256i, true>(input, i) }
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
        unsafe { kernel::validate_rest::<__m256i, false>(input, i) }
    }
}
