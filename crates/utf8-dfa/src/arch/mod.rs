//! The crate's only `unsafe` code, in two scoped exceptions, each a measured
//! win recorded in `docs/results/utf8-dfa.md`:
//!
//! - [`valid_str`] and [`valid_str_mut`] turn bytes this crate has just
//!   validated into `&str` without checking them again (the safe route
//!   validates them a second time with std: 3.4–10.8× slower).
//! - [`first_bad_region`] calls a copy of the fast pass compiled for BMI2
//!   on CPUs that have it (1.43–1.47× faster on non-ASCII text), chosen
//!   once by `codec_arch::Dispatch` (with or without `std`).

use crate::validate::first_bad_region_portable;

/// `bytes` as a `&str`, for bytes that `validate` has accepted.
#[inline]
pub(crate) fn valid_str(bytes: &[u8]) -> &str {
    debug_assert!(core::str::from_utf8(bytes).is_ok());
    // SAFETY: every caller passes bytes that `validate` has just accepted
    // (or a prefix of them that ends at an error's `valid_up_to`, which
    // `validate` reports as valid), and `validate` accepts exactly what
    // `core::str::from_utf8` accepts, as the crate's exhaustive and
    // differential tests check.
    unsafe { core::str::from_utf8_unchecked(bytes) }
}

/// As [`valid_str`], for `&mut`.
#[inline]
pub(crate) fn valid_str_mut(bytes: &mut [u8]) -> &mut str {
    debug_assert!(core::str::from_utf8(bytes).is_ok());
    // SAFETY: as in `valid_str`.
    unsafe { core::str::from_utf8_unchecked_mut(bytes) }
}

/// Inputs shorter than this take the portable pass inline, without the
/// dispatch's indirect call, which (with the check it used to need) cost
/// short inputs a quarter of their time: 64 bytes of ASCII ran at 0.75×
/// std with it from 32 bytes.
#[cfg(all(target_arch = "x86_64", not(target_feature = "bmi2")))]
const DISPATCH_MIN: usize = crate::validate::STREAMS_MIN;

/// `None` if `input` is valid; otherwise a character boundary `from` such
/// that `input[..from]` is valid and the first error is at or after it.
///
/// On x86-64, CPUs with BMI2 get a copy of the fast pass compiled for BMI2:
/// its `shrx` shifts by a register in one micro-operation without touching
/// the flags, where the baseline `shr r64, cl` takes two or three and a
/// dependency on the flags, which serialises the streams. Measured (min of
/// 300 runs): 1.1–1.6× faster on non-ASCII text (Chinese 2.36 → 3.59 GB/s
/// with two streams). Built with `-C target-feature=+bmi2`, the portable
/// pass is that copy. The copy is chosen once (`codec_arch::Dispatch`).
#[inline]
pub(crate) fn first_bad_region<const SPLIT: bool>(input: &[u8]) -> Option<usize> {
    #[cfg(all(target_arch = "x86_64", not(target_feature = "bmi2")))]
    if input.len() >= DISPATCH_MIN {
        let pass = dispatch::CHOSEN.get().get()[usize::from(SPLIT)];
        // SAFETY: `Dispatch` returns only an entry whose ISA this CPU has,
        // and each entry's passes need only its ISA.
        return unsafe { pass(input) };
    }
    first_bad_region_portable::<SPLIT>(input)
}

#[cfg(all(target_arch = "x86_64", not(target_feature = "bmi2")))]
mod dispatch {
    //! The fast pass's copies, the BMI2 one first.

    use crate::validate::first_bad_region_portable;
    use codec_arch::{Dispatch, Entry, Isa};

    /// A pass: `first_bad_region` without and with `SPLIT`.
    type Pass = unsafe fn(&[u8]) -> Option<usize>;

    codec_arch::enable! { bmi2;
            /// [`first_bad_region_portable`] compiled for BMI2.
            fn first_bad_region_bmi2<const SPLIT: bool>(input: &[u8]) -> Option<usize> {
                first_bad_region_portable::<SPLIT>(input)
            }
    }

    /// The copies, fastest first.
    static PASSES: [Entry<[Pass; 2]>; 2] = [
        Entry::new(
            "bmi2",
            Isa::BMI2,
            [
                first_bad_region_bmi2::<false>,
                first_bad_region_bmi2::<true>,
            ],
        ),
        Entry::new(
            "portable",
            Isa::PORTABLE,
            [
                first_bad_region_portable::<false>,
                first_bad_region_portable::<true>,
            ],
        ),
    ];

    /// The first copy this CPU can run, chosen once.
    pub(super) static CHOSEN: Dispatch<Entry<[Pass; 2]>> = Dispatch::new(&PASSES);
}
