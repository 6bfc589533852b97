//! The avx2 Latin-1 kernels: `x86_64::latin1` with 32-byte registers.

super::super::latin1::kernels!(Avx2, avx2);
