//! The sse42 UTF-32 kernels: `x86_64::utf32` with 16-byte registers.

super::super::utf32::kernels!(Sse42, "ssse3,sse4.1,sse4.2,popcnt");
