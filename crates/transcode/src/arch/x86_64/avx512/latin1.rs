//! The avx512 Latin-1 kernels: `generic::latin1` with 64-byte registers.

crate::arch::generic::latin1::kernels!(x86_64::Avx512, avx512);
