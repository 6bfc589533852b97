//! x86-64 kernels: [`sse41`] (16-byte registers), [`avx2`] (32-byte
//! registers) and [`avx512`] (64-byte registers; its intrinsics need Rust
//! 1.89, the workspace's rust-version), all instances of the generic kernel
//! in `arch::kernel`, each described by a `KERNEL` for the registry.

pub(crate) mod avx2;
pub(crate) mod avx512;
pub(crate) mod sse41;
