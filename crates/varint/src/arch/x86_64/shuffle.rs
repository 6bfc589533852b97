//! The Stream VByte and Group Varint kernels on x86-64: the generic
//! kernels of `arch::shuffle` on the 16-byte [`Sse41`] token, one `pshufb`
//! (SSSE3) per group of four values. [`sse41`] and [`avx2`] are the same
//! code; the AVX2 instance is compiled with the VEX encoding (no register
//! copies for the two-operand forms), which is what AVX2 buys a
//! 16-byte-per-group kernel. Two groups a step in one 32-byte register
//! (one `vpshufb` and one store for eight values) measured slower than
//! that on a Sapphire Rapids-class Xeon (0.132 against 0.120 ns a value,
//! `docs/results/varint.md`), and was dropped.
//!
//! [`Sse41`]: codec_arch::x86_64::Sse41

pub(crate) mod sse41 {
    //! The SSE4.1 instance.
    crate::arch::shuffle::shuffle_entry_points!(sse41, codec_arch::x86_64::Sse41::new());
}

pub(crate) mod avx2 {
    //! The AVX2 instance: the SSE4.1 token that the AVX2 one implies.
    use codec_arch::Simd;
    crate::arch::shuffle::shuffle_entry_points!(avx2, codec_arch::x86_64::Avx2::new().base());
}
