//! The avx2 count and length kernels: `generic::count` with 32-byte
//! registers.

crate::arch::generic::count::kernels!(x86_64::Avx2, avx2);
