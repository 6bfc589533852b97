//! x86-64 kernels: one folder per instruction set, one file per family in
//! each (see `arch`'s docs), and the three tables that dispatch chooses
//! from.
//!
//! | table | needs | registers |
//! |---|---|---|
//! | [`SSE42`] | SSSE3, SSE4.1, SSE4.2, POPCNT | 16 bytes |
//! | [`AVX2`] | AVX2, BMI1, BMI2, POPCNT | 32 bytes |
//! | [`AVX512`] | AVX-512 F, BW, VL, AVX2, BMI1, BMI2, POPCNT | 64 bytes |
//!
//! Every x86-64 CPU with AVX2 that we know of also has BMI1, BMI2 and POPCNT
//! (Intel from Haswell, AMD from Excavator and Zen).

use super::{Kernels, PORTABLE, has_features};

pub(crate) mod avx2;
pub(crate) mod avx512;
mod block;
mod count;
mod latin1;
mod simd;
pub(crate) mod sse42;
mod tables;
mod utf32;

/// The SSE4.2 table.
pub(crate) static SSE42: Kernels = Kernels {
    name: "sse42",
    available: sse42::is_available,
    validate_utf8: |src| match utf8_simd::Sse42::new() {
        Some(v) => codec_core::Utf8Validator::validate(&v, src),
        None => utf8_simd::validate(src),
    },
    count_utf8: sse42::count::count_utf8,
    utf16_len_from_utf8: sse42::count::utf16_len_from_utf8,
    count_utf16: sse42::count::count_utf16,
    utf8_len_from_utf16: sse42::count::utf8_len_from_utf16,
    utf8_len_from_latin1: sse42::count::utf8_len_from_latin1,
    utf8_len_from_utf32: sse42::count::utf8_len_from_utf32,
    utf16_len_from_utf32: sse42::count::utf16_len_from_utf32,
    latin1_to_utf8: sse42::latin1::latin1_to_utf8,
    latin1_to_utf16: sse42::latin1::latin1_to_utf16,
    latin1_to_utf32: sse42::latin1::latin1_to_utf32,
    utf8_to_latin1: sse42::latin1::utf8_to_latin1,
    utf16_to_latin1: sse42::latin1::utf16_to_latin1,
    utf32_to_latin1: sse42::latin1::utf32_to_latin1,
    utf8_to_utf32: sse42::utf32::utf8_to_utf32,
    utf32_to_utf8: sse42::utf32::utf32_to_utf8,
    utf16_to_utf32: sse42::utf32::utf16_to_utf32,
    utf32_to_utf16: sse42::utf32::utf32_to_utf16,
    ..PORTABLE
};

/// The AVX2 table.
pub(crate) static AVX2: Kernels = Kernels {
    name: "avx2",
    available: avx2::is_available,
    validate_utf8: |src| match utf8_simd::Avx2::new() {
        Some(v) => codec_core::Utf8Validator::validate(&v, src),
        None => utf8_simd::validate(src),
    },
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
    utf8_to_utf32: avx2::utf32::utf8_to_utf32,
    utf32_to_utf8: avx2::utf32::utf32_to_utf8,
    utf16_to_utf32: avx2::utf32::utf16_to_utf32,
    utf32_to_utf16: avx2::utf32::utf32_to_utf16,
    utf8_to_utf16: avx2::utf8_to_utf16,
    utf16_to_utf8: avx2::utf16_to_utf8,
    utf16_bytes_to_utf8: [
        avx2::utf16_bytes_to_utf8::<false>,
        avx2::utf16_bytes_to_utf8::<true>,
    ],
    utf8_to_utf16_bytes: [
        avx2::utf8_to_utf16_bytes::<false>,
        avx2::utf8_to_utf16_bytes::<true>,
    ],
};

/// The AVX-512 table.
pub(crate) static AVX512: Kernels = Kernels {
    name: "avx512",
    available: avx512::is_available,
    // utf8-simd's own choice, which is its AVX-512 kernel where it was
    // built with one.
    validate_utf8: utf8_simd::validate,
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
    utf8_to_utf32: avx512::utf32::utf8_to_utf32,
    utf32_to_utf8: avx512::utf32::utf32_to_utf8,
    utf16_to_utf32: avx512::utf32::utf16_to_utf32,
    utf32_to_utf16: avx512::utf32::utf32_to_utf16,
    ..AVX2
};

/// Whether the SSE4.2 kernels may run.
pub(crate) fn sse42_available() -> bool {
    has_features!("ssse3", "sse4.1", "sse4.2", "popcnt")
}

/// Whether the AVX2 kernels may run.
pub(crate) fn avx2_available() -> bool {
    has_features!("avx2", "bmi1", "bmi2", "popcnt") && sse42_available()
}

/// Whether the AVX-512 kernels may run.
pub(crate) fn avx512_available() -> bool {
    has_features!("avx512f", "avx512bw", "avx512vl") && avx2_available()
}
