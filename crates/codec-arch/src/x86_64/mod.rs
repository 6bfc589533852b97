//! x86-64: the token-based vector trait [`Simd`] and its
//! tokens [`Sse41`], [`Avx2`] and
//! [`Avx512`], one per level of [`features!`](crate::features!).

pub mod simd;
pub mod tables;

pub use simd::{Avx2, Avx512, Simd, Sse41};
