//! The SSE4.1 count and length kernels: `x86_64::count` with 16-byte
//! registers.

super::super::count::kernels!(Sse41, sse41);
