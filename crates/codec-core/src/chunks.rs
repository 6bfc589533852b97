//! [`Utf8Chunks`]: std's `<[u8]>::utf8_chunks`, over any validator, with
//! absolute offsets and error kinds.
//!
//! The pieces are exactly std's: each [`Utf8Chunk`] is a run of valid UTF-8
//! followed by one maximal ill-formed subpart (or, at the very end, an
//! unfinished character), which is where `String::from_utf8_lossy` writes one
//! U+FFFD. The work per piece is one call of the validator's
//! [`valid_prefix`](Utf8Validator::valid_prefix).

use crate::{Utf8Error, Utf8ErrorKind, Utf8Validator};

/// One piece of a byte string: valid text, then the invalid bytes that end
/// it. From [`Utf8Chunks`] (and the `Read` scanner of the `std` feature).
///
/// `valid()` and `invalid()` mean what they mean in std's `Utf8Chunk`;
/// [`offset`](Utf8Chunk::offset) and [`kind`](Utf8Chunk::kind) add where and
/// why.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Utf8Chunk<'a> {
    valid: &'a str,
    invalid: &'a [u8],
    offset: u64,
    kind: Option<Utf8ErrorKind>,
}

impl<'a> Utf8Chunk<'a> {
    pub(crate) fn new(
        valid: &'a str,
        invalid: &'a [u8],
        offset: u64,
        kind: Option<Utf8ErrorKind>,
    ) -> Utf8Chunk<'a> {
        Utf8Chunk {
            valid,
            invalid,
            offset,
            kind,
        }
    }

    /// The valid text (possibly empty).
    #[must_use]
    pub const fn valid(&self) -> &'a str {
        self.valid
    }

    /// The invalid bytes after the valid text: one maximal ill-formed
    /// subpart (1 to 3 bytes), the unfinished character at the end of the
    /// input (1 to 3 bytes), or nothing (only in the last chunk).
    #[must_use]
    pub const fn invalid(&self) -> &'a [u8] {
        self.invalid
    }

    /// The absolute offset of the first byte of [`valid`](Utf8Chunk::valid)
    /// (of [`invalid`](Utf8Chunk::invalid) if the text is empty).
    #[must_use]
    pub const fn offset(&self) -> u64 {
        self.offset
    }

    /// The absolute offset of the first invalid byte: `offset()` plus the
    /// length of the valid text.
    #[must_use]
    pub const fn invalid_offset(&self) -> u64 {
        self.offset + self.valid.len() as u64
    }

    /// Why [`invalid`](Utf8Chunk::invalid) is invalid;
    /// [`Utf8ErrorKind::Incomplete`] for an unfinished character at the end,
    /// `None` when there are no invalid bytes.
    #[must_use]
    pub const fn kind(&self) -> Option<Utf8ErrorKind> {
        self.kind
    }
}

/// The pieces of a byte string as `String::from_utf8_lossy` sees them: the
/// iterator of std's `<[u8]>::utf8_chunks`, over any [`Utf8Validator`], with
/// offsets and error kinds.
///
/// The codec crates offer it with their validator (`utf8_simd::chunks`,
/// `utf8_dfa::chunks`); [`Utf8Chunks::new`] takes any.
///
/// ```
/// use codec_core::chunks::Utf8Chunks;
/// use codec_core::{Utf8Error, Utf8ErrorKind, Utf8Validator};
///
/// struct Std;
/// impl Utf8Validator for Std {
///     fn validate(&self, input: &[u8]) -> Result<(), Utf8Error> {
///         core::str::from_utf8(input).map(drop).map_err(|e| Utf8Error::from_std(e, input))
///     }
/// }
///
/// let input = b"caf\xC3\xA9 \xED\xA0\x80!\xE2\x82";
/// let pieces: Vec<_> = Utf8Chunks::new(input, Std)
///     .map(|c| (c.valid(), c.invalid(), c.invalid_offset(), c.kind()))
///     .collect();
/// assert_eq!(pieces, [
///     ("café ", &b"\xED"[..], 6, Some(Utf8ErrorKind::Surrogate)),
///     ("", &b"\xA0"[..], 7, Some(Utf8ErrorKind::UnexpectedContinuation)),
///     ("", &b"\x80"[..], 8, Some(Utf8ErrorKind::UnexpectedContinuation)),
///     ("!", &b"\xE2\x82"[..], 10, Some(Utf8ErrorKind::Incomplete)),
/// ]);
/// // The same pieces as std's:
/// assert!(input.utf8_chunks().map(|c| (c.valid(), c.invalid())).eq(
///     Utf8Chunks::new(input, Std).map(|c| (c.valid(), c.invalid()))));
/// ```
#[derive(Clone, Debug)]
pub struct Utf8Chunks<'a, V> {
    rest: &'a [u8],
    /// The absolute offset of `rest[0]`.
    offset: u64,
    validator: V,
}

impl<'a, V: Utf8Validator> Utf8Chunks<'a, V> {
    /// The pieces of `input`, checked with `validator`; offsets count from
    /// the start of `input`.
    #[must_use]
    pub fn new(input: &'a [u8], validator: V) -> Utf8Chunks<'a, V> {
        Utf8Chunks::with_offset(input, validator, 0)
    }

    /// The pieces of `input`, whose first byte is at absolute offset
    /// `offset` of some larger input.
    #[must_use]
    pub fn with_offset(input: &'a [u8], validator: V, offset: u64) -> Utf8Chunks<'a, V> {
        Utf8Chunks {
            rest: input,
            offset,
            validator,
        }
    }

    /// The bytes not yet returned.
    #[must_use]
    pub fn remainder(&self) -> &'a [u8] {
        self.rest
    }
}

impl<'a, V: Utf8Validator> Iterator for Utf8Chunks<'a, V> {
    type Item = Utf8Chunk<'a>;

    fn next(&mut self) -> Option<Utf8Chunk<'a>> {
        if self.rest.is_empty() {
            return None;
        }
        let (valid, error) = self.validator.valid_prefix(self.rest);
        let (invalid, kind) = match error {
            None => (&[][..], None),
            Some(e) => {
                let from = valid.len();
                let len = e.error_len().unwrap_or(self.rest.len() - from);
                // A validator that misreports cannot make us loop or panic:
                // the piece is clamped to the input and never empty.
                let end = (from + len.max(1)).min(self.rest.len());
                (&self.rest[from..end], Some(e.kind()))
            }
        };
        let chunk = Utf8Chunk::new(valid, invalid, self.offset, kind);
        let used = valid.len() + invalid.len();
        self.rest = &self.rest[used..];
        self.offset += used as u64;
        Some(chunk)
    }
}

impl<V: Utf8Validator> core::iter::FusedIterator for Utf8Chunks<'_, V> {}

/// The error of a chunk, for callers that want a [`Utf8Error`]: the kind
/// and length of [`Utf8Chunk::invalid`] at its absolute offset (saturated to
/// `usize` on 32-bit targets).
impl Utf8Chunk<'_> {
    /// The error this chunk's invalid bytes are, with its absolute offset;
    /// `None` if there are none.
    #[must_use]
    pub fn error(&self) -> Option<Utf8Error> {
        let kind = self.kind?;
        let at = usize::try_from(self.invalid_offset()).unwrap_or(usize::MAX);
        let len = match kind {
            Utf8ErrorKind::Incomplete => None,
            _ => Some(self.invalid.len()),
        };
        Utf8Error::new(at, len, kind)
    }
}

#[cfg(test)]
mod tests {
    extern crate std;
    use super::*;
    use crate::test_support::Std;
    use std::vec::Vec;

    fn ours(input: &[u8]) -> Vec<(&str, &[u8])> {
        Utf8Chunks::new(input, Std)
            .map(|c| (c.valid(), c.invalid()))
            .collect()
    }

    fn theirs(input: &[u8]) -> Vec<(&str, &[u8])> {
        input
            .utf8_chunks()
            .map(|c| (c.valid(), c.invalid()))
            .collect()
    }

    #[test]
    fn offsets_and_kinds_agree_with_utf8_error_at() {
        let input = b"a\xF0\x9F\x98\x41\xC0\x80\xFF\xF4\x90\x80\x80\xE0\x9F\xBF\xE2\x82";
        let mut expect_offset = 0u64;
        for c in Utf8Chunks::with_offset(input, Std, 100) {
            assert_eq!(c.offset(), 100 + expect_offset);
            let at = (c.invalid_offset() - 100) as usize;
            if let Some(kind) = c.kind() {
                let e = Utf8Error::at(input, at);
                assert_eq!(kind, e.kind());
                assert_eq!(c.error().map(|e| e.error_len()), Some(e.error_len()));
            }
            expect_offset += (c.valid().len() + c.invalid().len()) as u64;
        }
        assert_eq!(expect_offset, input.len() as u64);
    }

    #[test]
    fn every_sequence_up_to_three_bytes_agrees_with_std() {
        for a in 0..=255u8 {
            for b in 0..=255u8 {
                for input in [&[a, b][..], &[b'x', a, b, b'y'], &[a, b, 0x80]] {
                    assert_eq!(ours(input), theirs(input), "{input:02X?}");
                }
            }
        }
    }

    #[test]
    fn a_validator_that_lies_cannot_hang_or_overrun() {
        struct Liar;
        impl Utf8Validator for Liar {
            fn validate(&self, _: &[u8]) -> Result<(), Utf8Error> {
                Err(Utf8Error::new(0, None, Utf8ErrorKind::Incomplete).unwrap())
            }
        }
        let input = [b'a'; 10];
        let n: usize = Utf8Chunks::new(&input[..], Liar)
            .map(|c| c.valid().len() + c.invalid().len())
            .sum();
        assert_eq!(n, 10);
    }

    quickcheck::quickcheck! {
        fn random_bytes_agree_with_std(input: Vec<u8>) -> bool {
            ours(&input) == theirs(&input)
        }
    }
}
