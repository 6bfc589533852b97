//! The SSE4.1 Latin-1 kernels: `x86_64::latin1` with 16-byte registers.

super::super::latin1::kernels!(Sse41, sse41);
