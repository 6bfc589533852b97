//! x86-64: the tokens of the vector trait [`Simd`]: [`Sse41`], [`Avx2`]
//! and [`Avx512`], one per level of [`features!`](crate::features!).
//! `Simd` and [`tables`] are re-exported here, where the x86 kernels have
//! always imported them from.

pub mod simd;

pub use crate::tables;
pub use simd::{Avx2, Avx512, Simd, Sse41};
