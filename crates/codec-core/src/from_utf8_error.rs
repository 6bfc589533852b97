//! The owned error of a `Vec<u8>` → `String` conversion: std's
//! `alloc::string::FromUtf8Error` (which only std can construct) with the
//! workspace's [`Utf8Error`].

use crate::Utf8Error;
use alloc::vec::Vec;
use core::fmt;

/// The bytes a `Vec<u8>` → `String` conversion was given back, with the
/// reason they are not UTF-8: what `String::from_utf8` returns in std, for
/// the codecs' conversions (for example `utf8_simd::string_from_utf8`).
///
/// ```
/// use codec_core::{FromUtf8Error, Utf8Error, Utf8ErrorKind};
///
/// let bytes = b"caf\xC3".to_vec();
/// let err = FromUtf8Error::new(bytes.clone(), Utf8Error::at(&bytes, 3));
/// assert_eq!(err.utf8_error().valid_up_to(), 3);
/// assert_eq!(err.utf8_error().kind(), Utf8ErrorKind::Incomplete);
/// assert_eq!(err.as_bytes(), b"caf\xC3");
/// assert_eq!(err.into_bytes(), bytes); // nothing was lost
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FromUtf8Error {
    bytes: Vec<u8>,
    error: Utf8Error,
}

impl FromUtf8Error {
    /// `bytes` with `error`, the error a validator reported for them.
    #[must_use]
    pub const fn new(bytes: Vec<u8>, error: Utf8Error) -> Self {
        FromUtf8Error { bytes, error }
    }

    /// The bytes that were to become the `String`.
    #[must_use]
    pub fn as_bytes(&self) -> &[u8] {
        &self.bytes
    }

    /// The bytes that were to become the `String`, given back.
    #[must_use]
    pub fn into_bytes(self) -> Vec<u8> {
        self.bytes
    }

    /// Why they are not UTF-8.
    #[must_use]
    pub const fn utf8_error(&self) -> Utf8Error {
        self.error
    }
}

impl fmt::Display for FromUtf8Error {
    /// The [`Utf8Error`]'s message, as std's `FromUtf8Error` shows its
    /// `Utf8Error`'s.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.error, f)
    }
}

impl core::error::Error for FromUtf8Error {
    fn source(&self) -> Option<&(dyn core::error::Error + 'static)> {
        Some(&self.error)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::string::ToString;

    #[test]
    fn says_what_the_utf8_error_says_and_keeps_the_bytes() {
        for bytes in [
            &b"\xFF"[..],
            b"ab\xE2\x82",
            b"\xED\xA0\x80 x",
            b"ok\xC0\x80",
        ] {
            let std = alloc::string::String::from_utf8(bytes.to_vec()).unwrap_err();
            let ours =
                FromUtf8Error::new(bytes.to_vec(), Utf8Error::from_std(std.utf8_error(), bytes));
            assert_eq!(
                ours.utf8_error().valid_up_to(),
                std.utf8_error().valid_up_to()
            );
            assert_eq!(ours.utf8_error().error_len(), std.utf8_error().error_len());
            assert_eq!(ours.to_string(), ours.utf8_error().to_string());
            let source = core::error::Error::source(&ours).map(ToString::to_string);
            assert_eq!(source, Some(ours.utf8_error().to_string()));
            assert_eq!(ours.as_bytes(), std.as_bytes());
            assert_eq!(ours.into_bytes(), std.into_bytes());
        }
    }
}
