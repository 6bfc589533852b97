//! The avx512 UTF-32 kernels: `x86_64::utf32` with 64-byte registers.

super::super::utf32::kernels!(Avx512, avx512);
