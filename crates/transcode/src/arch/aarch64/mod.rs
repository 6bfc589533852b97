//! aarch64 kernels: the [`NEON`] table (16-byte registers), compiled
//! wherever the target enables NEON (every aarch64 target but the
//! `softfloat` ones), so it needs no run-time check.
//!
//! Two kinds of kernel. Block kernels convert characters of every length
//! in one pass, as the x86-64 ones do (their docs explain the design),
//! through the shared `block::run` loop, `tables` and `common` fallbacks:
//!
//! - `utf8_utf16`: valid UTF-8 → UTF-16, native and both byte orders:
//!   ASCII runs, runs of 3-byte characters (CJK, 15 bytes a step), a
//!   16-byte window for any mix of 1- to 3-byte characters (`tbl` packing
//!   with `PACK16`; a 4-byte character among others as its lead surrogate
//!   in its lead's lane and its trail in the next), and four 4-byte
//!   characters at once.
//! - `utf16_utf8`: UTF-16 → UTF-8, native and both byte orders, stopping
//!   before errors: ASCII 16 units a step, 8-unit blocks below U+0800
//!   (`PACK12`) or of any BMP mix (`PACK123`), and blocks whose
//!   surrogates are all paired (each unit of a pair making 2 of its 4
//!   bytes); a block with an unpaired surrogate goes unit by unit up to
//!   it, and the kernel stops there for the scalar code to report.
//!
//! They store bytes in a little-endian lane's order, and only
//! little-endian aarch64 is tested, so they are compiled for it only
//! (aarch64_be keeps the one-unit kernels below for these entries).
//!
//! The kernels of `neon` are one load, one test and one widening,
//! narrowing or copying store (or a count) per 16 units: the other
//! conversions whose characters are one unit on both sides (ASCII,
//! Latin-1, the BMP outside the surrogates), and five of the counts and
//! lengths. Such a conversion stops at the first 16 units it cannot
//! convert whole, and the scalar code carries on: UTF-8 ⇄ UTF-32 with
//! characters beyond ASCII, UTF-16 ⇄ UTF-32 with surrogates and UTF-32 →
//! UTF-16 beyond the BMP still run at scalar speed between such stretches.
//! The entries with no NEON kernel (the ASCII prefixes in UTF-16 bytes and
//! the UTF-8 and UTF-16 lengths of UTF-32) are the portable table's, with
//! UTF-8 validated by utf8-simd's NEON kernel (UTF-8 → Latin-1 validates
//! as it converts, in the kernel for ASCII registers and in the scalar
//! code for the rest). Speed is not measured here (no aarch64 machine;
//! instruction counts are in `docs/results/transcode.md`); the kernels are
//! tested under qemu by `cargo xtask cross`, through the same
//! registry-driven tests as every other table.

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
    isa: codec_arch::Isa::NEON,
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
