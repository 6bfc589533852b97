//! The SSE4.1 UTF-32 kernels: `x86_64::utf32` with 16-byte registers.

super::super::utf32::kernels!(Sse41, "ssse3,sse4.1,popcnt");
