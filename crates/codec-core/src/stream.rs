//! The streaming engine: [`Carry`], the bytes of a character split between
//! two chunks, and [`Streaming`], which turns any whole-buffer
//! [`Utf8Validator`] into a [`StreamingValidator`] with absolute error
//! offsets.
//!
//! Every streaming UTF-8 consumer in the workspace is built on these two:
//! utf8-simd's and utf8-dfa's `Validator` are `Streaming` over their
//! validators, and the chunk iterator and the `Read` scanner
//! ([`crate::chunks`], `crate::io`) carry with the same rule.
//!
//! The rule: a chunk is cut before the character its last bytes start but do
//! not finish ([`unfinished_start`]); everything before the cut is checked
//! now, and the at most three bytes after it are carried and finished with
//! the first bytes of the next chunk. Valid text cut anywhere therefore never
//! looks like an error, and an error is reported by the chunk that holds the
//! byte proving it.

use crate::utf8::{char_prefix, lead, unfinished_start};
use crate::{StreamingValidator, Utf8Error, Utf8Validator};

/// The bytes of a character that one chunk started and a later one must
/// finish: at most three between chunks (four would be a whole character),
/// and up to four while [`fill`](Carry::fill) completes it.
///
/// ```
/// use codec_core::stream::Carry;
///
/// let mut carry = Carry::new();
/// // "a€" (61 E2 82 AC) arrives as "a\xE2" and "\x82\xACb".
/// let body = carry.split_off(b"a\xE2");
/// assert_eq!((body, carry.as_bytes()), (&b"a"[..], &b"\xE2"[..]));
/// let took = carry.fill(b"\x82\xACb");
/// assert_eq!((took, carry.as_bytes()), (2, "€".as_bytes()));
/// assert!(carry.is_complete());
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Carry {
    bytes: [u8; 4],
    len: u8,
}

impl Carry {
    /// An empty carry.
    #[must_use]
    pub const fn new() -> Carry {
        Carry {
            bytes: [0; 4],
            len: 0,
        }
    }

    /// The carried bytes.
    #[must_use]
    #[inline]
    pub fn as_bytes(&self) -> &[u8] {
        &self.bytes[..usize::from(self.len)]
    }

    /// How many bytes are carried.
    #[must_use]
    #[inline]
    pub const fn len(&self) -> usize {
        self.len as usize
    }

    /// Whether nothing is carried.
    #[must_use]
    #[inline]
    pub const fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Forgets the carried bytes.
    #[inline]
    pub fn clear(&mut self) {
        self.len = 0;
    }

    /// The number of bytes the carried character has in all, from its lead
    /// byte; never less than what is carried.
    #[inline]
    fn wanted(&self) -> usize {
        lead(self.bytes[0]).len().max(self.len())
    }

    /// Whether the carry holds as many bytes as its first byte asks for (a
    /// whole character, or an ill-formed sequence of that length).
    #[must_use]
    #[inline]
    pub fn is_complete(&self) -> bool {
        !self.is_empty() && self.len() >= self.wanted()
    }

    /// Moves bytes from the front of `chunk` into the carry, as many as the
    /// carried character still needs and `chunk` has, and returns how many
    /// it took. An empty carry takes nothing.
    ///
    /// Afterwards the carry holds the whole sequence its lead byte asks for,
    /// or `chunk` ran out first. Whether that sequence is well-formed is for
    /// a validator to say; on an error, the bytes past its `error_len` were
    /// never part of the character and belong to the chunk again.
    #[inline]
    pub fn fill(&mut self, chunk: &[u8]) -> usize {
        if self.is_empty() {
            return 0;
        }
        let have = self.len();
        let take = (self.wanted() - have).min(chunk.len());
        self.bytes[have..have + take].copy_from_slice(&chunk[..take]);
        self.len += take as u8;
        take
    }

    /// Appends one byte, for decoders that step through a character byte by
    /// byte. A fifth byte is ignored: no sequence is longer than four.
    pub fn push(&mut self, byte: u8) {
        let len = self.len();
        if let Some(slot) = self.bytes.get_mut(len) {
            *slot = byte;
            self.len += 1;
        }
    }

    /// Splits `chunk` before the character it starts but does not finish
    /// ([`unfinished_start`]), replaces the carried bytes with that
    /// character's at most three bytes, and returns the part before it.
    #[inline]
    pub fn split_off<'a>(&mut self, chunk: &'a [u8]) -> &'a [u8] {
        let (body, tail) = chunk.split_at(unfinished_start(chunk));
        // At most three bytes: copied one by one, where `copy_from_slice`
        // of a length unknown to the compiler is a call to `memcpy`, paid
        // on every chunk.
        for (slot, &b) in self.bytes.iter_mut().zip(tail) {
            *slot = b;
        }
        self.len = tail.len() as u8;
        body
    }
}

/// Any whole-buffer [`Utf8Validator`], fed in chunks: the workspace's one
/// streaming validator.
///
/// It follows the [`StreamingValidator`] contract: feeding any split of an
/// input gives exactly `core::str::from_utf8`'s result on the whole, with
/// absolute offsets; `update` returns an error as soon as its chunk proves
/// it; errors are sticky; it keeps at most three bytes of input. Each
/// `update` runs the validator once over the chunk (up to its unfinished
/// last character), so streaming in large chunks runs at the validator's
/// one-shot speed. The character carried between chunks is checked with
/// [`char_prefix`], not by calling the validator twice more (which cost
/// utf8-dfa's `Validator` 150-260 instructions per 4 KiB chunk).
///
/// utf8-simd's and utf8-dfa's `Validator` are this type over their
/// validators.
///
/// ```
/// use codec_core::stream::Streaming;
/// use codec_core::{Utf8Error, Utf8Validator};
///
/// #[derive(Default)]
/// struct Std;
/// impl Utf8Validator for Std {
///     fn validate(&self, input: &[u8]) -> Result<(), Utf8Error> {
///         core::str::from_utf8(input).map(drop).map_err(|e| Utf8Error::from_std(e, input))
///     }
/// }
///
/// let mut v = Streaming::with_validator(Std);
/// v.update(b"caf").unwrap();
/// v.update(b"\xC3").unwrap(); // the first byte of 'é'
/// let err = v.update(b"\xA9 ok \xFF").unwrap_err();
/// assert_eq!((err.valid_up_to(), err.error_len()), (9, Some(1)));
/// v.update(b"more").unwrap_err();
/// assert_eq!(v.position(), 14); // every byte fed counts, also after the error
/// assert_eq!(v.finish(), Err(err)); // sticky
/// ```
#[derive(Clone, Debug, Default)]
pub struct Streaming<V> {
    validator: V,
    carry: Carry,
    /// Bytes fed so far: the absolute offset of the next chunk.
    fed: usize,
    /// The first error, once found.
    error: Option<Utf8Error>,
}

impl<V> Streaming<V> {
    /// A stream at the start of an input, checked with `validator`.
    #[must_use]
    pub const fn with_validator(validator: V) -> Streaming<V> {
        Streaming {
            validator,
            carry: Carry::new(),
            fed: 0,
            error: None,
        }
    }

    /// How many bytes have been fed: the absolute offset of the next chunk's
    /// first byte. Every byte counts, also those fed after an error.
    #[must_use]
    pub const fn position(&self) -> usize {
        self.fed
    }

    /// How far the input is known to be valid: the first error's
    /// `valid_up_to`, or else the offset where the carried unfinished
    /// character starts (the position if there is none).
    #[must_use]
    pub const fn valid_up_to(&self) -> usize {
        match self.error {
            Some(e) => e.valid_up_to(),
            None => self.fed - self.carry.len(),
        }
    }

    /// The first error found so far, if any.
    #[must_use]
    pub const fn error(&self) -> Option<Utf8Error> {
        self.error
    }
}

impl<V: Utf8Validator> Streaming<V> {
    /// A stream at the start of an input.
    #[must_use]
    pub fn new() -> Streaming<V>
    where
        V: Default,
    {
        Streaming::with_validator(V::default())
    }

    /// Feeds the next chunk: an error if the bytes so far are ill-formed
    /// whatever follows, with its offset counted from the first chunk.
    pub fn update(&mut self, chunk: &[u8]) -> Result<(), Utf8Error> {
        let base = self.fed;
        self.fed = self.fed.saturating_add(chunk.len());
        if let Some(e) = self.error {
            return Err(e);
        }
        self.update_inner(base, chunk)
            .inspect_err(|&e| self.error = Some(e))
    }

    fn update_inner(&mut self, base: usize, chunk: &[u8]) -> Result<(), Utf8Error> {
        let v = &self.validator;
        let mut rest = chunk;
        let mut at = base;
        // 1. The character left over from earlier chunks.
        if !self.carry.is_empty() {
            let start = base - self.carry.len();
            let took = self.carry.fill(rest);
            match char_prefix(self.carry.as_bytes()) {
                Some(true) => self.carry.clear(),
                // Still unfinished: this chunk was too short to finish it.
                Some(false) => return Ok(()),
                None => return Err(Utf8Error::at(self.carry.as_bytes(), 0).offset_by(start)),
            }
            rest = &rest[took..];
            at += took;
        }
        // 2. Everything up to this chunk's own unfinished character, which
        // is carried.
        let body = self.carry.split_off(rest);
        match v.validate(body) {
            Ok(()) => {}
            // The body ends inside a character because the carried bytes do
            // not continue it (`E2 82` then `E2`): the bytes after the
            // incomplete one decide the error.
            Err(e) if e.error_len().is_none() => {
                let from = e.valid_up_to();
                return Err(match v.validate(&rest[from..]) {
                    Err(e) => e.offset_by(at + from),
                    Ok(()) => e.offset_by(at),
                });
            }
            Err(e) => return Err(e.offset_by(at)),
        }
        // 3. The carried character: a valid start of one, or an error now.
        match char_prefix(self.carry.as_bytes()) {
            None => Err(Utf8Error::at(self.carry.as_bytes(), 0).offset_by(at + body.len())),
            Some(_) => Ok(()),
        }
    }

    /// Ends the input: the first error if there was one, an
    /// [`Incomplete`](crate::Utf8ErrorKind::Incomplete) error if the input
    /// stopped inside a character, else `Ok(())`.
    pub fn finish(self) -> Result<(), Utf8Error> {
        if let Some(e) = self.error {
            return Err(e);
        }
        if self.carry.is_empty() {
            return Ok(());
        }
        let start = self.fed - self.carry.len();
        Err(Utf8Error::at(self.carry.as_bytes(), 0).offset_by(start))
    }
}

impl<V: Utf8Validator + Default> StreamingValidator for Streaming<V> {
    fn new() -> Self {
        Streaming::new()
    }

    fn update(&mut self, chunk: &[u8]) -> Result<(), Utf8Error> {
        Streaming::update(self, chunk)
    }

    fn finish(self) -> Result<(), Utf8Error> {
        Streaming::finish(self)
    }

    fn position(&self) -> usize {
        Streaming::position(self)
    }
}

#[cfg(test)]
mod tests {
    extern crate std;
    use super::*;
    use crate::test_support::Std;
    use std::vec::Vec;

    fn std_validate(input: &[u8]) -> Result<(), Utf8Error> {
        Std.validate(input)
    }

    /// Streaming over `chunks` equals the one-shot result on their
    /// concatenation, the error comes from the chunk that proves it, and the
    /// progress counters mean what they say.
    fn check(chunks: &[&[u8]]) {
        let whole: Vec<u8> = chunks.concat();
        let want = std_validate(&whole);
        let mut s = Streaming::with_validator(Std);
        let mut fed = 0;
        let mut got = None;
        for chunk in chunks {
            fed += chunk.len();
            let r = s.update(chunk);
            assert_eq!(s.position(), fed);
            if let Err(e) = r {
                let want_err = want.expect_err("update failed on valid input");
                assert_eq!(e, want_err, "{chunks:02X?}");
                let proof_end = want_err.valid_up_to() + want_err.error_len().unwrap_or(0);
                assert!(fed >= proof_end, "early: {chunks:02X?}");
                assert!(fed - chunk.len() <= proof_end, "late: {chunks:02X?}");
                got = Some(e);
                assert_eq!(s.update(b"more"), Err(e));
                assert_eq!(s.position(), fed + 4);
                assert_eq!(s.valid_up_to(), e.valid_up_to());
                break;
            }
            assert!(s.valid_up_to() <= fed && fed - s.valid_up_to() <= 3);
        }
        match got {
            Some(e) => assert_eq!(s.finish(), Err(e)),
            None => {
                if let Err(e) = want {
                    assert_eq!(e.error_len(), None, "missed error in {chunks:02X?}");
                }
                assert_eq!(s.finish(), want, "{chunks:02X?}");
            }
        }
    }

    fn every_split(input: &[u8]) {
        check(&[input]);
        for i in 0..=input.len() {
            check(&[&input[..i], &input[i..]]);
            for j in i..=input.len() {
                check(&[&input[..i], &input[i..j], &input[j..]]);
            }
        }
    }

    #[test]
    fn every_two_and_three_way_split() {
        let inputs: [&[u8]; 8] = [
            b"",
            "a\u{e9}\u{5415}\u{1F600}".as_bytes(),
            b"ab\xE2\x82\xE2\x82\xAC",
            b"\xF0\x9F\x98\x41\xC0\x80\xFF",
            b"\xED\xA0\x80\xF4\x90\x80\x80",
            b"\xE0\x9F\xBF\xE0\xA0",
            b"x\xF0\x9F\x98",
            b"\x80\x80\x80\x80a",
        ];
        for input in inputs {
            every_split(input);
        }
    }

    #[test]
    fn every_sequence_up_to_three_bytes_split_everywhere() {
        for a in 0..=255u8 {
            for b in 0..=255u8 {
                every_split(&[b'x', a, b]);
                for c in [0x00, 0x41, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xF4] {
                    every_split(&[a, b, c]);
                }
            }
        }
    }

    #[test]
    fn carry_holds_at_most_three_bytes_between_chunks() {
        let mut c = Carry::new();
        for input in [&b"\xF0\x9F\x98"[..], b"\xE2\x82", b"\xC3", b"abc"] {
            let body = c.split_off(input);
            assert!(c.len() <= 3);
            assert_eq!([body, c.as_bytes()].concat(), input);
        }
    }

    quickcheck::quickcheck! {
        fn random_bytes_random_cuts(input: Vec<u8>, cuts: Vec<usize>) -> bool {
            let mut cuts: Vec<usize> = cuts.iter().map(|c| c % (input.len() + 1)).collect();
            cuts.sort_unstable();
            let mut chunks = Vec::new();
            let mut prev = 0;
            for c in cuts {
                chunks.push(&input[prev..c]);
                prev = c;
            }
            chunks.push(&input[prev..]);
            check(&chunks);
            true
        }
    }
}
