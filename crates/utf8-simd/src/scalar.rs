//! The portable path: utf8-dfa's scalar validator, as a kernel for CPUs and
//! targets without SIMD, and as [`Portable`], the validator that names it.

use codec_core::{Utf8Error, Utf8Validator};

/// The scalar kernel, with the SIMD kernels' contract (see `arch`): on an
/// error, `Err(valid_up_to)`.
pub(crate) fn validate(input: &[u8]) -> Result<(), usize> {
    utf8_dfa::validate(input).map_err(|e| e.valid_up_to())
}

/// The scalar kernel's yes or no.
pub(crate) fn is_valid(input: &[u8]) -> bool {
    utf8_dfa::is_valid(input)
}

/// The portable scalar validator (utf8-dfa), which [`validate`](crate::validate)
/// falls back on where no SIMD kernel runs. Named explicitly, for tests and
/// benchmarks.
#[derive(Clone, Copy, Debug, Default)]
pub struct Portable;

impl Portable {
    /// The portable validator; it runs everywhere.
    #[must_use]
    pub const fn new() -> Self {
        Portable
    }
}

impl Utf8Validator for Portable {
    fn validate(&self, input: &[u8]) -> Result<(), Utf8Error> {
        utf8_dfa::validate(input)
    }

    fn is_valid(&self, input: &[u8]) -> bool {
        utf8_dfa::is_valid(input)
    }

    fn from_utf8<'a>(&self, input: &'a [u8]) -> Result<&'a str, Utf8Error> {
        utf8_dfa::from_utf8(input)
    }

    fn from_utf8_mut<'a>(&self, input: &'a mut [u8]) -> Result<&'a mut str, Utf8Error> {
        utf8_dfa::from_utf8_mut(input)
    }

    fn valid_prefix<'a>(&self, input: &'a [u8]) -> (&'a str, Option<Utf8Error>) {
        utf8_dfa::Dfa.valid_prefix(input)
    }
}
