//! aarch64 kernels: the [`NEON`] table (16-byte registers), compiled
//! wherever the target enables NEON (every aarch64 target but the
//! `softfloat` ones), so it needs no run-time check.
//!
//! This first NEON table has the kernels that are one load, one compare or
//! widen, and one store or count per register: the ASCII prefix of UTF-8 →
//! UTF-16, Latin-1 → UTF-16 and UTF-32, and five of the counts and
//! lengths. Every other entry is the portable table's (scalar, with UTF-8
//! validated by utf8-simd's NEON kernel), until NEON versions of the
//! x86-64 block kernels exist. Speed is not measured here (no aarch64
//! machine); the kernels are tested under qemu by `cargo xtask cross`,
//! through the same registry-driven tests as every other table.

mod neon;

use super::{Kernel, PORTABLE};

/// The NEON table.
pub(crate) static NEON: Kernel = Kernel {
    name: "neon",
    features: "neon",
    available: || true,
    ascii_to_utf16: neon::ascii_to_utf16,
    latin1_to_utf16: neon::latin1_to_utf16,
    latin1_to_utf32: neon::latin1_to_utf32,
    count_utf8: neon::count_utf8,
    utf16_len_from_utf8: neon::utf16_len_from_utf8,
    utf8_len_from_latin1: neon::utf8_len_from_latin1,
    count_utf16: neon::count_utf16,
    utf8_len_from_utf16: neon::utf8_len_from_utf16,
    ..PORTABLE
};
