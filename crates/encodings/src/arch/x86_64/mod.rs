//! The x86-64 kernels: SSE4.1 (16 bytes a step), AVX2 (32) and AVX-512
//! VBMI (64), each byte looked up in the 256-entry table by byte shuffles
//! or permutes.
//!
//! | kernel | needs | written in |
//! |---|---|---|
//! | [`SSSE3`] | `codec_arch` level `sse41` (SSSE3's `pshufb`, with the `Sse41` token) | [`lookup`], 16-byte registers |
//! | [`AVX2`] | `avx2` | [`lookup`], 32-byte registers |
//! | [`VBMI2`] | `avx512vbmi2` | [`vbmi`], [`VBMI`] with byte compresses |
//! | [`VBMI`] | `avx512vbmi` | [`vbmi`] (two-register byte permutes) |
//!
//! The `pshufb` kernels exist once, generic over codec-arch's `Simd`;
//! [`kernels!`] instantiates them per token. The 16-byte kernel is named
//! after SSSE3, whose `pshufb` it needs, but runs with the `Sse41` token,
//! so it asks for SSE4.1 and POPCNT too (every x86-64 CPU from Nehalem).

use super::{Ascii, Encoder, Kernel, Unit};
use crate::single_byte::SingleByte;
use codec_arch::Isa;

mod ascii;
mod lookup;
mod vbmi;

pub(crate) use lookup::PageRows;
pub(crate) use vbmi::{VBMI, VBMI2};

/// The ASCII runs of the VBMI kernels (whose features include the
/// `avx512` and `avx2` levels'): copied in 64-byte registers, but widened
/// in 32-byte ones (64 KiB of ASCII to UTF-16: 21.7 GB/s with 64-byte
/// stores, 25.0 with 32-byte ones; copied 44.2 and 42.7).
pub(crate) const ASCII512: Ascii = Ascii {
    copy: ascii::avx512::copy,
    widen: ascii::avx2::widen,
    count: ascii::avx512::count,
    copy_counting: ascii::avx512::copy_counting,
    widen_counting: ascii::avx2::widen_counting,
};

/// The entry points of [`lookup`]'s kernels for one token: `to_utf16`,
/// `to_utf8` and `encode`, of the kernel types of `super` (`unsafe` for
/// the caller's proof of the features, which `Kernel::isa` states). Each
/// of `to_utf16` and `to_utf8` picks one of four instantiations by the
/// page's [`lookup::Mode`], each a function of its own (see
/// [`lookup::to_utf16`]).
macro_rules! kernels {
    ($token:ident, $level:ident) => {
        use codec_arch::x86_64::$token;
        use core::mem::MaybeUninit;
        use lookup::{Mode, RUNS_AFFINE, RUNS_NONE, RUNS_QUARTER};

        /// # Safety
        ///
        /// The CPU must have the token's features.
        pub(super) unsafe fn to_utf16(page: &SingleByte, src: &[u8], dst: &mut [Unit]) -> usize {
            // SAFETY: the caller proves the features.
            unsafe {
                match lookup::mode(page, false) {
                    Mode::Affine => run_to_utf16::<RUNS_AFFINE, false>(page, src, dst),
                    Mode::Quarter => run_to_utf16::<RUNS_QUARTER, false>(page, src, dst),
                    Mode::Top => run_to_utf16::<RUNS_NONE, true>(page, src, dst),
                    Mode::Plain => run_to_utf16::<RUNS_NONE, false>(page, src, dst),
                }
            }
        }

        /// # Safety
        ///
        /// The CPU must have the token's features.
        pub(super) unsafe fn to_utf8(
            page: &SingleByte,
            src: &[u8],
            dst: &mut [MaybeUninit<u8>],
        ) -> (usize, usize) {
            // SAFETY: the caller proves the features.
            unsafe {
                match lookup::mode(page, true) {
                    Mode::Affine => run_to_utf8::<RUNS_AFFINE, false>(page, src, dst),
                    Mode::Quarter => run_to_utf8::<RUNS_QUARTER, false>(page, src, dst),
                    Mode::Top => run_to_utf8::<RUNS_NONE, true>(page, src, dst),
                    Mode::Plain => run_to_utf8::<RUNS_NONE, false>(page, src, dst),
                }
            }
        }

        codec_arch::enable! { $level;
            fn run_to_utf16<const RUNS: u8, const TOP: bool>(
                page: &SingleByte,
                src: &[u8],
                dst: &mut [Unit],
            ) -> usize {
                lookup::to_utf16::<_, RUNS, TOP>($token::new(), page, src, dst)
            }

            fn run_to_utf8<const RUNS: u8, const TOP: bool>(
                page: &SingleByte,
                src: &[u8],
                dst: &mut [MaybeUninit<u8>],
            ) -> (usize, usize) {
                lookup::to_utf8::<_, RUNS, TOP>($token::new(), page, src, dst)
            }

            /// A safe `#[target_feature]` function: it coerces to the
            /// `unsafe` fn pointer of `Encoder::run`, whose caller proves
            /// the features.
            pub(super) fn encode(
                dense: &super::super::Dense,
                src: &[u8],
                dst: &mut [core::mem::MaybeUninit<u8>],
                i: usize,
                w: usize,
            ) -> (usize, usize) {
                lookup::encode::<_, false>($token::new(), dense, src, dst, i, w)
            }

            /// [`encode`] on bytes that may not be UTF-8
            /// (`Encoder::checked`).
            pub(super) fn encode_checked(
                dense: &super::super::Dense,
                src: &[u8],
                dst: &mut [core::mem::MaybeUninit<u8>],
                i: usize,
                w: usize,
            ) -> (usize, usize) {
                lookup::encode::<_, true>($token::new(), dense, src, dst, i, w)
            }
        }
    };
}

/// [`lookup`] with 16-byte registers.
mod sse41 {
    use super::{SingleByte, Unit, lookup};
    kernels!(Sse41, sse41);
}

/// [`lookup`] with 32-byte registers.
mod avx2 {
    use super::{SingleByte, Unit, lookup};
    kernels!(Avx2, avx2);
}

/// 16 bytes a step: what a CPU without AVX2 runs.
pub(crate) static SSSE3: Kernel = Kernel {
    name: "ssse3",
    to_utf16: sse41::to_utf16,
    to_utf8: Some(sse41::to_utf8),
    encode: Some(Encoder {
        run: sse41::encode,
        checked: Some(sse41::encode_checked),
        ascii_only: true,
    }),
    ascii: Some(Ascii {
        copy: ascii::sse41::copy,
        widen: ascii::sse41::widen,
        count: ascii::sse41::count,
        copy_counting: ascii::sse41::copy_counting,
        widen_counting: ascii::sse41::widen_counting,
    }),
    isa: Isa::SSE41,
};

/// 32 bytes a step, the rows broadcast to both 128-bit lanes (`vpshufb`
/// looks up within a lane); the units are put back in order across the
/// lanes after the in-lane unpacks.
pub(crate) static AVX2: Kernel = Kernel {
    name: "avx2",
    to_utf16: avx2::to_utf16,
    to_utf8: Some(avx2::to_utf8),
    encode: Some(Encoder {
        run: avx2::encode,
        checked: Some(avx2::encode_checked),
        ascii_only: true,
    }),
    ascii: Some(Ascii {
        copy: ascii::avx2::copy,
        widen: ascii::avx2::widen,
        count: ascii::avx2::count,
        copy_counting: ascii::avx2::copy_counting,
        widen_counting: ascii::avx2::widen_counting,
    }),
    isa: Isa::AVX2,
};
