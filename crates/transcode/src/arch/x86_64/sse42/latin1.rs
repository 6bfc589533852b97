//! The sse42 Latin-1 kernels: `x86_64::latin1` with 16-byte registers.

super::super::latin1::kernels!(Sse42, "ssse3,sse4.1,sse4.2,popcnt");
