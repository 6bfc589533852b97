//! The avx2 UTF-32 kernels: `generic::utf32` with 32-byte registers.

crate::arch::generic::utf32::kernels!(x86_64::Avx2, avx2);
