//! The avx2 UTF-32 kernels: `x86_64::utf32` with 32-byte registers.

super::super::utf32::kernels!(Avx2, avx2);
