//! x86-64 kernels: [`sse42`] (16-byte registers) and [`avx2`] (32-byte
//! registers), both instances of the generic kernel in `arch::kernel`.
//!
//! AVX-512 is not implemented: its intrinsics need Rust 1.89, above the
//! workspace's rust-version (1.86).

pub(crate) mod avx2;
pub(crate) mod sse42;
