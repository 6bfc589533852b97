//! The avx2 Latin-1 kernels: `generic::latin1` with 32-byte registers.

crate::arch::generic::latin1::kernels!(x86_64::Avx2, avx2);
