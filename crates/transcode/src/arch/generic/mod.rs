//! The kernel families written once over [`codec_arch::Simd`], for every
//! architecture with a vector token: each per-ISA folder instantiates a
//! family with its token in a few lines (x86-64's `{sse41,avx2,avx512}/`,
//! aarch64's `neon.rs`), as memchr's `arch/generic` is instantiated by its
//! `x86_64` and `aarch64` folders.
//!
//! - `count`: the count and length kernels.
//! - `latin1`: Latin-1 from and to UTF-8, UTF-16 and UTF-32, with
//!   `Latin1Lanes` for its two 16-byte steps.
//! - `utf16_utf8`: UTF-16 (native and both byte orders) → UTF-8, with
//!   `Utf16Simd` for what depends on the width.
//! - `utf8_utf16`: valid UTF-8 → UTF-16 (native and both byte orders),
//!   and → UTF-32 with 32-byte registers, with `Utf8Simd` for what
//!   depends on the width and `Out` for the output.
//! - `utf32`: UTF-32 from and to UTF-8 and UTF-16 (UTF-8 → UTF-32 is
//!   instantiated by the tables that take it, outside `kernels!`).

pub(crate) mod count;
pub(crate) mod latin1;
pub(crate) mod utf16_utf8;
pub(crate) mod utf32;
pub(crate) mod utf8_utf16;
