//! The SSE4.1 kernel: the generic kernel on the `Sse41` token (a window is
//! four 16-byte registers; one-byte runs are widened with
//! `pmovzxbq`/`pmovzxbd`), the groups packed with shifts. For x86-64 CPUs
//! without AVX2.

use crate::arch::kernel::{Isa, pack_shifts, spread_shifts};

/// The choices of this kernel: the `Sse41` token, packing with shifts.
pub(crate) struct Sse41;

impl Isa for Sse41 {
    type S = codec_arch::x86_64::Sse41;

    #[inline(always)]
    unsafe fn simd() -> codec_arch::x86_64::Sse41 {
        // SAFETY: the caller's promise: the CPU has SSE4.1.
        unsafe { codec_arch::x86_64::Sse41::new() }
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
