//! x86-64 kernels: one folder per instruction set, one file per family in
//! each (see `arch`'s docs), and the tables that dispatch chooses from.
//!
//! | table | needs | registers |
//! |---|---|---|
//! | [`SSE41`] | `codec_arch` level `sse41`: SSSE3, SSE4.1, POPCNT | 16 bytes |
//! | [`AVX2`] | `avx2`: AVX2, BMI1, BMI2, POPCNT | 32 bytes |
//! | [`AVX512`] | `avx512`: AVX-512 F, BW, CD, VL, and AVX2's | 64 bytes |
//! | [`AVX512VBMI2`] | `avx512vbmi2`: AVX-512 VBMI and VBMI2, and AVX512's | 64 bytes |
//!
//! Every x86-64 CPU with AVX2 that we know of also has BMI1, BMI2 and POPCNT
//! (Intel from Haswell, AMD from Excavator and Zen). A table entry that an
//! instruction set has no kernel for yet is the next smaller one's.
//!
//! The AVX-512 table validates UTF-8 with utf8-simd's AVX-512 kernel and
//! has the AVX-512 kernels of the families that have one; the others are
//! AVX2's (for UTF-8 ⇄ UTF-16, `docs/results/transcode.md` has the
//! measurements behind that).

use super::{Kernel, tables};
use codec_arch::Isa;

pub(crate) mod avx2;
pub(crate) mod avx512;
pub(crate) mod avx512vbmi2;
mod lanes;
pub(crate) mod sse41;

/// The SSE4.1 table.
pub(crate) static SSE41: Kernel = Kernel {
    name: "sse4.1",
    isa: Isa::SSE41,
    utf8: utf8_simd::Sse41::KERNEL,
    count_utf8: sse41::count::count_utf8,
    utf16_len_from_utf8: sse41::count::utf16_len_from_utf8,
    count_utf16: sse41::count::count_utf16,
    utf8_len_from_utf16: sse41::count::utf8_len_from_utf16,
    utf8_len_from_latin1: sse41::count::utf8_len_from_latin1,
    utf8_len_from_utf32: sse41::count::utf8_len_from_utf32,
    utf16_len_from_utf32: sse41::count::utf16_len_from_utf32,
    latin1_to_utf8: sse41::latin1::latin1_to_utf8,
    latin1_to_utf16: sse41::latin1::latin1_to_utf16,
    latin1_to_utf32: sse41::latin1::latin1_to_utf32,
    utf8_to_latin1: sse41::latin1::utf8_to_latin1,
    utf16_to_latin1: sse41::latin1::utf16_to_latin1,
    utf32_to_latin1: sse41::latin1::utf32_to_latin1,
    utf8_to_utf32: sse41::utf32::utf8_to_utf32,
    utf32_to_utf8: sse41::utf32::utf32_to_utf8,
    utf16_to_utf32: sse41::utf32::utf16_to_utf32,
    utf32_to_utf16: sse41::utf32::utf32_to_utf16,
    utf8_to_utf16: sse41::utf8_to_utf16,
    ascii_to_utf16: sse41::ascii_to_utf16,
    ascii_to_utf16_bytes: [
        sse41::ascii_to_utf16_bytes::<false>,
        sse41::ascii_to_utf16_bytes::<true>,
    ],
    ascii_to_utf32: sse41::ascii_to_utf32,
    utf8_to_utf16_bytes: [
        sse41::utf8_to_utf16_bytes::<false>,
        sse41::utf8_to_utf16_bytes::<true>,
    ],
    utf16_to_utf8: sse41::utf16_to_utf8,
    utf16_bytes_to_utf8: [
        sse41::utf16_bytes_to_utf8::<false>,
        sse41::utf16_bytes_to_utf8::<true>,
    ],
};

/// The AVX2 table.
pub(crate) static AVX2: Kernel = Kernel {
    name: "avx2",
    isa: Isa::AVX2,
    utf8: utf8_simd::Avx2::KERNEL,
    count_utf8: avx2::count::count_utf8,
    utf16_len_from_utf8: avx2::count::utf16_len_from_utf8,
    count_utf16: avx2::count::count_utf16,
    utf8_len_from_utf16: avx2::count::utf8_len_from_utf16,
    utf8_len_from_latin1: avx2::count::utf8_len_from_latin1,
    utf8_len_from_utf32: avx2::count::utf8_len_from_utf32,
    utf16_len_from_utf32: avx2::count::utf16_len_from_utf32,
    latin1_to_utf8: avx2::latin1::latin1_to_utf8,
    latin1_to_utf16: avx2::latin1::latin1_to_utf16,
    latin1_to_utf32: avx2::latin1::latin1_to_utf32,
    utf8_to_latin1: avx2::latin1::utf8_to_latin1,
    utf16_to_latin1: avx2::latin1::utf16_to_latin1,
    utf32_to_latin1: avx2::latin1::utf32_to_latin1,
    utf8_to_utf32: avx2::utf8_to_utf32,
    utf32_to_utf8: avx2::utf32_to_utf8,
    utf16_to_utf32: avx2::utf32::utf16_to_utf32,
    utf32_to_utf16: avx2::utf32::utf32_to_utf16,
    utf8_to_utf16: avx2::utf8_to_utf16,
    ascii_to_utf16: avx2::ascii_to_utf16,
    ascii_to_utf16_bytes: [
        avx2::ascii_to_utf16_bytes::<false>,
        avx2::ascii_to_utf16_bytes::<true>,
    ],
    ascii_to_utf32: avx2::ascii_to_utf32,
    utf8_to_utf16_bytes: [
        avx2::utf8_to_utf16_bytes::<false>,
        avx2::utf8_to_utf16_bytes::<true>,
    ],
    utf16_to_utf8: avx2::utf16_to_utf8,
    utf16_bytes_to_utf8: [
        avx2::utf16_bytes_to_utf8::<false>,
        avx2::utf16_bytes_to_utf8::<true>,
    ],
};

/// The AVX-512 table.
pub(crate) static AVX512: Kernel = Kernel {
    name: "avx512",
    isa: Isa::AVX512,
    utf8: utf8_simd::Avx512::KERNEL,
    count_utf8: avx512::count::count_utf8,
    utf16_len_from_utf8: avx512::count::utf16_len_from_utf8,
    count_utf16: avx512::count::count_utf16,
    utf8_len_from_utf16: avx512::count::utf8_len_from_utf16,
    utf8_len_from_latin1: avx512::count::utf8_len_from_latin1,
    utf8_len_from_utf32: avx512::count::utf8_len_from_utf32,
    utf16_len_from_utf32: avx512::count::utf16_len_from_utf32,
    latin1_to_utf8: avx512::latin1::latin1_to_utf8,
    latin1_to_utf16: avx512::latin1::latin1_to_utf16,
    latin1_to_utf32: avx512::latin1::latin1_to_utf32,
    utf8_to_latin1: avx512::latin1::utf8_to_latin1,
    utf16_to_latin1: avx512::latin1::utf16_to_latin1,
    utf32_to_latin1: avx512::latin1::utf32_to_latin1,
    // The AVX2 kernel: see `avx2::utf8_to_utf32` (measured faster than
    // `generic::utf32`'s with 64-byte registers on most texts).
    utf8_to_utf32: avx2::utf8_to_utf32,
    utf32_to_utf8: avx512::utf32_to_utf8,
    utf16_to_utf32: avx512::utf32::utf16_to_utf32,
    utf32_to_utf16: avx512::utf32::utf32_to_utf16,
    ..AVX2
};

/// The AVX-512 VBMI2 table: the AVX-512 one, with the kernels of
/// `avx512vbmi2` (`vpcompressb`) where it has them.
pub(crate) static AVX512VBMI2: Kernel = Kernel {
    name: "avx512vbmi2",
    isa: Isa::AVX512VBMI2,
    latin1_to_utf8: avx512vbmi2::latin1_to_utf8,
    utf16_to_utf8: avx512vbmi2::utf16_to_utf8,
    utf8_to_utf16: avx512vbmi2::utf8_to_utf16,
    utf8_to_utf32: avx512vbmi2::utf8_to_utf32,
    utf8_to_latin1: avx512vbmi2::utf8_to_latin1,
    utf32_to_utf16: avx512vbmi2::utf32_to_utf16,
    utf8_to_utf16_bytes: [
        avx512vbmi2::utf8_to_utf16_bytes::<false>,
        avx512vbmi2::utf8_to_utf16_bytes::<true>,
    ],
    utf16_bytes_to_utf8: [
        avx512vbmi2::utf16_bytes_to_utf8::<false>,
        avx512vbmi2::utf16_bytes_to_utf8::<true>,
    ],
    ..AVX512
};
