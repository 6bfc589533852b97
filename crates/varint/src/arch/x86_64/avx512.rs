//! The AVX-512 kernel: [`Avx2Pext`]'s operations, compiled with AVX-512
//! F, CD and VL besides, for one reason: in [`len_u64`] and [`len_u32`] the
//! compiler vectorises the length formula with `vplzcntq`, 8 values per
//! instruction, about 4× the AVX2 code (0.28 against 1.0–1.3 ns a value in
//! a scratch harness on the Xeon, busy). Decoding and encoding are the
//! `pext` kernel's; every CPU with AVX-512 (Intel, AMD Zen 4) has a fast
//! `pext`.
//!
//! [`Avx2Pext`]: super::avx2::pext::Avx2Pext

use super::avx2::pext::Avx2Pext;

super::entry_points!(Avx2Pext, "avx512f,avx512cd,avx512vl,avx2,bmi1,bmi2");

cpufeatures::new!(
    cpuid_avx512,
    "avx512f",
    "avx512cd",
    "avx512vl",
    "avx2",
    "bmi1",
    "bmi2"
);

/// This kernel in the registry (`arch::kernels`).
pub(crate) const KERNEL: crate::arch::Kernel = super::kernel!(
    "avx512",
    "avx512f,avx512cd,avx512vl,avx2,bmi1,bmi2",
    || cpuid_avx512::get() && super::fast_pext()
);
