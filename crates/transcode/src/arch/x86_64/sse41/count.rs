//! The SSE4.1 count and length kernels: `generic::count` with 16-byte
//! registers.

crate::arch::generic::count::kernels!(x86_64::Sse41, sse41);
