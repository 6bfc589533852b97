//! aarch64 kernels: the [`NEON`] table (16-byte registers), compiled
//! wherever the target enables NEON (every aarch64 target but the
//! `softfloat` ones), so it needs no run-time check.
//!
//! The generic families of `arch::generic`, the ones x86-64 instantiates,
//! with the `Neon` token (`codec_arch::Simd` with 16-byte registers; the
//! families' own traits, `Latin1Lanes`, `Utf16Simd` and `Utf8Simd`, in
//! `lanes.rs`): UTF-8 → UTF-16 and UTF-16 → UTF-8 (native and both byte
//! orders), every count and length, Latin-1 from and to UTF-8, UTF-16 and
//! UTF-32, UTF-32 from and to UTF-8 and UTF-16, UTF-16 → UTF-32 and
//! UTF-8 → UTF-32; and `neon.rs`'s ASCII prefixes (one load, one test and
//! one widening store per 16 bytes).
//!
//! The generic families store bytes in a little-endian lane's order, and
//! only little-endian aarch64 is tested, so they are compiled for it only;
//! aarch64_be takes the portable table's entries for them, but for the
//! ASCII prefixes of `neon`, which every byte order has.
//!
//! The entries with no NEON kernel (on aarch64_be) are the portable
//! table's, with UTF-8 validated by utf8-simd's NEON
//! kernel (UTF-8 → Latin-1 validates as it converts). Speed is not
//! measured here (no aarch64 machine; instruction counts of the earlier
//! hand-written kernels are in `docs/results/transcode.md`); the kernels
//! are tested under qemu by `cargo xtask cross`, through the same
//! registry-driven tests as every other table.

mod neon;

// The families written once over `codec_arch::Simd` (`arch::generic`),
// with NEON's 16-byte registers; little-endian only, as the `Neon` token
// (aarch64_be takes the portable table's entries for them).
#[cfg(target_endian = "little")]
mod lanes;

/// The count and length kernels: `generic::count` with NEON's 16-byte
/// registers.
#[cfg(target_endian = "little")]
mod count {
    crate::arch::generic::count::kernels!(aarch64::Neon, neon);
}

/// The Latin-1 kernels: `generic::latin1` with NEON's 16-byte registers
/// (its 16-byte steps in `lanes.rs`).
#[cfg(target_endian = "little")]
mod latin1 {
    crate::arch::generic::latin1::kernels!(aarch64::Neon, neon);
}

/// UTF-16 → UTF-8 (native and both byte orders): `generic::utf16_utf8`
/// with NEON's 16-byte registers.
#[cfg(target_endian = "little")]
mod utf16_utf8 {
    crate::arch::generic::utf16_utf8::kernels!(aarch64::Neon, neon);
}

/// The UTF-32 kernels: `generic::utf32` with NEON's 16-byte registers,
/// UTF-8 → UTF-32 included (as in the SSE4.1 table).
#[cfg(target_endian = "little")]
mod utf32 {
    crate::arch::generic::utf32::kernels!(aarch64::Neon, neon);

    codec_arch::enable! { neon;
        /// Valid UTF-8 to UTF-32.
        pub(crate) fn utf8_to_utf32(src: &[u8], dst: &mut [u32]) -> (usize, usize) {
            utf32::utf8_to_utf32(Neon::new(), src, dst)
        }
    }
}

/// Valid UTF-8 → UTF-16 (native and both byte orders) and the ASCII
/// prefix in UTF-16 bytes: `generic::utf8_utf16` with NEON's 16-byte
/// registers (its `Utf8Simd` in `lanes.rs`). The ASCII prefix in native
/// UTF-16 stays `neon.rs`'s, which every byte order has and which tests 16
/// bytes with one `umaxv` where the generic one takes a movemask.
#[cfg(target_endian = "little")]
mod utf8_utf16 {
    crate::arch::generic::utf8_utf16::kernels!(aarch64::Neon, neon; no ascii_to_utf16);
}

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
    #[cfg(target_endian = "little")]
    ascii_to_utf16_bytes: [
        utf8_utf16::ascii_to_utf16_bytes::<false>,
        utf8_utf16::ascii_to_utf16_bytes::<true>,
    ],
    #[cfg(target_endian = "little")]
    utf8_to_utf32: utf32::utf8_to_utf32,
    #[cfg(target_endian = "big")]
    utf8_to_utf32: neon::ascii_to_utf32,
    ascii_to_utf32: neon::ascii_to_utf32,
    #[cfg(target_endian = "little")]
    utf8_to_latin1: latin1::utf8_to_latin1,
    #[cfg(target_endian = "little")]
    latin1_to_utf8: latin1::latin1_to_utf8,
    #[cfg(target_endian = "little")]
    latin1_to_utf16: latin1::latin1_to_utf16,
    #[cfg(target_endian = "little")]
    latin1_to_utf32: latin1::latin1_to_utf32,
    #[cfg(target_endian = "little")]
    utf16_to_utf8: utf16_utf8::utf16_to_utf8,
    #[cfg(target_endian = "little")]
    utf16_bytes_to_utf8: [
        utf16_utf8::utf16_bytes_to_utf8::<false>,
        utf16_utf8::utf16_bytes_to_utf8::<true>,
    ],
    #[cfg(target_endian = "little")]
    utf16_to_latin1: latin1::utf16_to_latin1,
    #[cfg(target_endian = "little")]
    utf16_to_utf32: utf32::utf16_to_utf32,
    #[cfg(target_endian = "little")]
    utf32_to_utf8: utf32::utf32_to_utf8,
    #[cfg(target_endian = "little")]
    utf32_to_latin1: latin1::utf32_to_latin1,
    #[cfg(target_endian = "little")]
    utf32_to_utf16: utf32::utf32_to_utf16,
    #[cfg(target_endian = "little")]
    count_utf8: count::count_utf8,
    #[cfg(target_endian = "little")]
    utf16_len_from_utf8: count::utf16_len_from_utf8,
    #[cfg(target_endian = "little")]
    utf8_len_from_latin1: count::utf8_len_from_latin1,
    #[cfg(target_endian = "little")]
    count_utf16: count::count_utf16,
    #[cfg(target_endian = "little")]
    utf8_len_from_utf16: count::utf8_len_from_utf16,
    #[cfg(target_endian = "little")]
    utf8_len_from_utf32: count::utf8_len_from_utf32,
    #[cfg(target_endian = "little")]
    utf16_len_from_utf32: count::utf16_len_from_utf32,
    ..PORTABLE
};
