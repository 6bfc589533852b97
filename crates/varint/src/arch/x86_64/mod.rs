//! x86-64 kernels, all instances of the generic kernel in `arch::kernel`:
//! [`sse41`] (four 16-byte registers per window), [`avx2`] (two 32-byte
//! registers), [`avx2::pext`] (the same, packing with BMI2 `pext` and
//! spreading with `pdep`), [`avx512`] (the `pext` kernel plus a slice
//! length compiled with AVX-512, vectorised with `vplzcntq`) and
//! [`avx512vbmi2`] (the `avx512` kernel decoding eight varints at a time in
//! the lanes of a 512-bit register).

pub(crate) mod avx2;
pub(crate) mod avx512;
pub(crate) mod avx512vbmi2;
pub(crate) mod quic;
pub(crate) mod shuffle;
pub(crate) mod sse41;

pub(crate) use super::{entry_points, registry_entry};
