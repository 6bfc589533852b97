//! The SSE4.1 Latin-1 kernels: `generic::latin1` with 16-byte registers.

crate::arch::generic::latin1::kernels!(x86_64::Sse41, sse41);
