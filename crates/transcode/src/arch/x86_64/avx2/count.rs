//! The avx2 count and length kernels: `x86_64::count` with 32-byte
//! registers.

super::super::count::kernels!(Avx2, avx2);
