//! The avx512 Latin-1 kernels: `x86_64::latin1` with 64-byte registers.

super::super::latin1::kernels!(Avx512, avx512);
