//! The avx512 UTF-32 kernels: `generic::utf32` with 64-byte registers.

crate::arch::generic::utf32::kernels!(x86_64::Avx512, avx512);
