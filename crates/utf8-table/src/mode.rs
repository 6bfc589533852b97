//! The two modes, [`Strict`] and [`Legacy`], as types implementing [`Mode`].
//!
//! A mode is a type parameter, not a runtime flag: `decode::<Strict>` and
//! `decode::<Legacy>` are separate monomorphised functions, and the mode's
//! limits are constants the compiler folds into the loop.

use core::fmt::{Debug, Display};

use codec_core::Utf8Error;

use crate::error::LegacyError;

/// RFC 3629 UTF-8: 1 to 4 bytes, values up to U+10FFFF, no surrogates.
///
/// Exactly the language `core::str::from_utf8` accepts. Errors are
/// [`codec_core::Utf8Error`], with std's `valid_up_to` and `error_len`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Strict;

/// The 1992 FSS-UTF of Thompson and Pike: 1 to 6 bytes, values up to
/// 0x7FFF_FFFF, surrogates allowed.
///
/// Overlong forms are still rejected, and `FE`, `FF` are never valid. Errors
/// are [`LegacyError`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Legacy;

/// A UTF-8 dialect the table codec speaks: [`Strict`] or [`Legacy`].
///
/// The trait is sealed; its constants document the mode's limits.
pub trait Mode: sealed::Sealed + Copy + Debug + Default + Send + Sync + 'static {
    /// The longest sequence, in bytes: 4 or 6.
    const MAX_LEN: usize;
    /// The largest value: `0x10_FFFF` or `0x7FFF_FFFF`.
    const MAX_VALUE: u32;
    /// Whether the UTF-16 surrogates U+D800..=U+DFFF may be encoded.
    const ALLOWS_SURROGATES: bool;
    /// The decoding error: [`Utf8Error`] or [`LegacyError`]. Both carry a
    /// position (`valid_up_to`), an `error_len` that is `None` exactly when
    /// more input could complete the sequence, and a kind.
    type Error: Copy
        + Debug
        + Display
        + PartialEq
        + Eq
        + core::error::Error
        + Send
        + Sync
        + sealed::ModeError;
}

impl Mode for Strict {
    const MAX_LEN: usize = 4;
    const MAX_VALUE: u32 = char::MAX as u32;
    const ALLOWS_SURROGATES: bool = false;
    type Error = Utf8Error;
}

impl Mode for Legacy {
    const MAX_LEN: usize = 6;
    const MAX_VALUE: u32 = 0x7FFF_FFFF;
    const ALLOWS_SURROGATES: bool = true;
    type Error = LegacyError;
}

/// Whether `v` (already known to be at most the mode's row `lmask`, and not
/// overlong) is in the mode's range. For legacy mode this is always true.
#[inline(always)]
pub(crate) const fn in_range<M: Mode>(v: u32) -> bool {
    v <= M::MAX_VALUE && (M::ALLOWS_SURROGATES || v & !0x7FF != 0xD800)
}

pub(crate) mod sealed {
    //! The seals: a trait in a private module cannot be named, so nothing
    //! outside the crate can implement [`Mode`](super::Mode), and the error
    //! plumbing below stays internal.

    use codec_core::Utf8Error;

    use crate::error::LegacyError;

    // `pub` because they bound the public `Mode`; unreachable from outside
    // all the same, which is the point of a seal.
    #[allow(unreachable_pub)]
    pub trait Sealed {}
    impl Sealed for super::Strict {}
    impl Sealed for super::Legacy {}

    /// What the codec needs from a mode's error type.
    #[allow(unreachable_pub)]
    pub trait ModeError: Sized {
        /// The error for the invalid bytes at `input[pos..]`, whose bytes
        /// before `pos` are valid. Called on the cold path only.
        fn at(input: &[u8], pos: usize) -> Self;
        /// The same error `offset` bytes further into a larger input.
        fn shifted(self, offset: usize) -> Self;
        /// How many bytes to skip to resynchronise: `None` for "to the end".
        fn skip(&self) -> Option<usize>;
    }

    impl ModeError for Utf8Error {
        #[inline]
        fn at(input: &[u8], pos: usize) -> Self {
            Utf8Error::at(input, pos)
        }
        fn shifted(self, offset: usize) -> Self {
            self.offset_by(offset)
        }
        fn skip(&self) -> Option<usize> {
            self.error_len()
        }
    }

    impl ModeError for LegacyError {
        #[inline]
        fn at(input: &[u8], pos: usize) -> Self {
            crate::error::legacy_error_at(input, pos)
        }
        fn shifted(self, offset: usize) -> Self {
            self.offset_by(offset)
        }
        fn skip(&self) -> Option<usize> {
            self.error_len()
        }
    }
}
