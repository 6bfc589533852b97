//! The SSE4.1 kernel: a window is four 16-byte registers; one-byte runs are
//! widened with `pmovzxbq`/`pmovzxbd` (SSE4.1), the groups packed with
//! shifts. For x86-64 CPUs without AVX2.

use core::arch::x86_64::{
    __m128i, _mm_cmpeq_epi8, _mm_cvtepu8_epi32, _mm_cvtepu8_epi64, _mm_loadu_si128,
    _mm_movemask_epi8, _mm_setzero_si128, _mm_srli_si128, _mm_storeu_si128,
};

use crate::arch::kernel::{Isa, pack_shifts, spread_shifts};

/// The instruction set of this kernel: SSE2 and SSE4.1.
pub(crate) struct Sse41;

impl Isa for Sse41 {
    #[inline(always)]
    unsafe fn continuations(p: *const u8) -> u64 {
        // SAFETY: the caller guarantees 64 readable bytes at `p` and SSE2.
        unsafe {
            let mut mask = 0;
            for k in 0..4 {
                let m = _mm_movemask_epi8(_mm_loadu_si128(p.add(16 * k).cast())) as u16;
                mask |= u64::from(m) << (16 * k);
            }
            mask
        }
    }

    #[inline(always)]
    unsafe fn zeros(p: *const u8) -> u64 {
        // SAFETY: as in `continuations`.
        unsafe {
            let z = _mm_setzero_si128();
            let mut mask = 0;
            for k in 0..4 {
                let eq = _mm_cmpeq_epi8(_mm_loadu_si128(p.add(16 * k).cast()), z);
                mask |= u64::from(_mm_movemask_epi8(eq) as u16) << (16 * k);
            }
            mask
        }
    }

    #[inline(always)]
    unsafe fn widen_u64(p: *const u8, o: *mut u64) {
        // SAFETY: 32 readable bytes at `p`, 32 writable `u64`s at `o`, and
        // SSE4.1, all guaranteed by the caller; each store writes 2 values.
        unsafe {
            for quarter in 0..4 {
                let mut x = _mm_loadu_si128(p.add(16 * quarter).cast());
                let d = o.add(16 * quarter).cast::<__m128i>();
                for k in 0..8 {
                    _mm_storeu_si128(d.add(k), _mm_cvtepu8_epi64(x));
                    x = _mm_srli_si128::<2>(x);
                }
            }
        }
    }

    #[inline(always)]
    unsafe fn widen_u32(p: *const u8, o: *mut u32) {
        // SAFETY: as in `widen_u64`; each store writes 4 values.
        unsafe {
            for quarter in 0..4 {
                let mut x = _mm_loadu_si128(p.add(16 * quarter).cast());
                let d = o.add(16 * quarter).cast::<__m128i>();
                for k in 0..4 {
                    _mm_storeu_si128(d.add(k), _mm_cvtepu8_epi32(x));
                    x = _mm_srli_si128::<4>(x);
                }
            }
        }
    }

    #[inline(always)]
    unsafe fn pack(word: u64, len: u32) -> u64 {
        pack_shifts(word, len)
    }

    #[inline(always)]
    unsafe fn spread(v: u64) -> u64 {
        spread_shifts(v)
    }
}

super::entry_points!(Sse41, sse41);

/// This kernel in the registry (`arch::kernels`).
pub(crate) const KERNEL: crate::arch::Kernel =
    super::registry_entry!("sse4.1", codec_arch::Isa::SSE41);
