//! aarch64 kernels: the [`NEON`] table (16-byte registers), compiled
//! wherever the target enables NEON (every aarch64 target but the
//! `softfloat` ones), so it needs no run-time check.
//!
//! This first NEON table has the kernels that are one load, one test, and
//! one widening, narrowing or copying store (or a count) per 16 units:
//! every conversion whose characters are one unit on both sides (ASCII,
//! Latin-1, the BMP outside the surrogates), and five of the counts and
//! lengths. A conversion stops at the first 16 units it cannot convert
//! whole, and the scalar code carries on; the entries with no NEON kernel
//! (UTF-16 and UTF-8 in bytes of either order, and the UTF-8 and UTF-32
//! lengths of UTF-32) are the portable table's, with UTF-8 validated by
//! utf8-simd's NEON kernel (UTF-8 → Latin-1 validates as it converts, in
//! the kernel for ASCII registers and in the scalar code for the rest). NEON versions of the x86-64 block kernels,
//! which convert characters of every length in one pass, are still to
//! come. Speed is not measured here (no aarch64
//! machine); the kernels are tested under qemu by `cargo xtask cross`,
//! through the same registry-driven tests as every other table.

mod neon;
// The block kernels store bytes in the order of a little-endian lane (the
// tests run on little-endian aarch64 only); aarch64_be keeps the one-unit
// kernels for these entries.
#[cfg(target_endian = "little")]
mod utf16_utf8;
#[cfg(target_endian = "little")]
mod utf8_utf16;

use super::{Kernel, PORTABLE};

/// The NEON table.
pub(crate) static NEON: Kernel = Kernel {
    name: "neon",
    features: "neon",
    available: || true,
    ascii_to_utf16: neon::ascii_to_utf16,
    #[cfg(target_endian = "little")]
    utf8_to_utf16: utf8_utf16::utf8_to_utf16,
    #[cfg(target_endian = "big")]
    utf8_to_utf16: neon::ascii_to_utf16,
    #[cfg(target_endian = "little")]
    utf8_to_utf16_bytes: [
        utf8_utf16::utf8_to_utf16_bytes::<false>,
        utf8_utf16::utf8_to_utf16_bytes::<true>,
    ],
    utf8_to_utf32: neon::utf8_to_utf32,
    ascii_to_utf32: neon::utf8_to_utf32,
    utf8_to_latin1: neon::ascii_copy,
    latin1_to_utf8: neon::ascii_copy,
    latin1_to_utf16: neon::latin1_to_utf16,
    latin1_to_utf32: neon::latin1_to_utf32,
    #[cfg(target_endian = "little")]
    utf16_to_utf8: utf16_utf8::utf16_to_utf8,
    #[cfg(target_endian = "big")]
    utf16_to_utf8: neon::utf16_narrow::<0x80>,
    #[cfg(target_endian = "little")]
    utf16_bytes_to_utf8: [
        utf16_utf8::utf16_bytes_to_utf8::<false>,
        utf16_utf8::utf16_bytes_to_utf8::<true>,
    ],
    utf16_to_latin1: neon::utf16_narrow::<0x100>,
    utf16_to_utf32: neon::utf16_to_utf32,
    utf32_to_utf8: neon::utf32_narrow::<0x80>,
    utf32_to_latin1: neon::utf32_narrow::<0x100>,
    utf32_to_utf16: neon::utf32_to_utf16,
    count_utf8: neon::count_utf8,
    utf16_len_from_utf8: neon::utf16_len_from_utf8,
    utf8_len_from_latin1: neon::utf8_len_from_latin1,
    count_utf16: neon::count_utf16,
    utf8_len_from_utf16: neon::utf8_len_from_utf16,
    ..PORTABLE
};
