//! The fast path: utf8-simd's Keiser–Lemire kernel with the encoding's
//! tables, falling back to [`crate::scalar`] for exact errors and tails.

use crate::error::Error;
use crate::scalar;
use crate::variant::Variant;

/// `Ok(())` if `input` is valid in `variant`, else the first error.
pub(crate) fn validate(variant: Variant, input: &[u8]) -> Result<(), Error> {
    match variant {
        Variant::Utf8 => utf8_simd::validate(input).map_err(Error::from_utf8),
        _ => scalar::validate(variant, input),
    }
}

/// Whether `input` is valid in `variant`.
pub(crate) fn is_valid(variant: Variant, input: &[u8]) -> bool {
    match variant {
        Variant::Utf8 => utf8_simd::is_valid(input),
        _ => scalar::is_valid(variant, input),
    }
}
