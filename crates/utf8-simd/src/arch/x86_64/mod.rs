//! x86-64 kernels: [`sse42`] (16-byte registers) and [`avx2`] (32-byte
//! registers), all instances of the generic kernel in `arch::kernel`.
//!
//! With the `avx512` feature (default), also `avx512` (64-byte registers),
//! whose intrinsics need Rust 1.89, the workspace's rust-version.

pub(crate) mod avx2;
#[cfg(feature = "avx512")]
pub(crate) mod avx512;
pub(crate) mod sse42;
