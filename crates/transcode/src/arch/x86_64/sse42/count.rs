//! The sse42 count and length kernels: `x86_64::count` with 16-byte
//! registers.

super::super::count::kernels!(Sse42, "ssse3,sse4.1,sse4.2,popcnt");
