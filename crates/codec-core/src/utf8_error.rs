//! [`Utf8Error`] and [`Utf8ErrorKind`]: what went wrong, where, and why.
//!
//! The one function that turns "validation failed at byte `i`" into a full
//! error is [`Utf8Error::at`]. Every codec calls it on its (cold) error path,
//! so `error_len` and the kind are computed once, from the bytes, the same way
//! for all of them.

use core::fmt;

use crate::sequence_error::{ErrorKind, SequenceError};
use crate::utf8::{is_continuation, lead};

/// Why a byte sequence is not UTF-8.
///
/// Each variant names the bytes that trigger it. The byte ranges are those of
/// RFC 3629 §4 (and Table 3-7 of the Unicode Standard); "continuation byte"
/// means `80..=BF`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Utf8ErrorKind {
    /// The input ends inside a sequence that more input could complete, such
    /// as a lone `E2 82` at the very end. This is the only kind with
    /// [`Utf8Error::error_len`] `== None`.
    Incomplete,
    /// A lead byte (`C2..=F4`) is followed, before its sequence is complete, by
    /// a byte that is not a continuation byte: `C3 41`, `E2 82 41`,
    /// `F0 9F 98 41`.
    TooShort,
    /// A continuation byte (`80..=BF`) stands where a lead byte was expected.
    UnexpectedContinuation,
    /// An overlong form, a longer encoding of a value that has a shorter one:
    /// the leads `C0` and `C1`, `E0` followed by `80..=9F`, and `F0` followed by
    /// `80..=8F`.
    Overlong,
    /// An encoded UTF-16 surrogate (U+D800..U+DFFF): `ED` followed by
    /// `A0..=BF`.
    Surrogate,
    /// A value above U+10FFFF: `F4` followed by `90..=BF`, and the leads
    /// `F5..=F7`.
    TooLarge,
    /// A byte that never occurs in UTF-8: `F8..=FF` (the 5- and 6-byte leads
    /// of the 1992 design, and `FE`, `FF`).
    InvalidByte,
}

impl Utf8ErrorKind {
    /// A short English description, as used by `Display`.
    ///
    /// ```
    /// assert_eq!(codec_core::Utf8ErrorKind::Surrogate.as_str(), "surrogate code point");
    /// ```
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            Utf8ErrorKind::Incomplete => "incomplete sequence at end of input",
            Utf8ErrorKind::TooShort => "missing continuation byte",
            Utf8ErrorKind::UnexpectedContinuation => "unexpected continuation byte",
            Utf8ErrorKind::Overlong => "overlong encoding",
            Utf8ErrorKind::Surrogate => "surrogate code point",
            Utf8ErrorKind::TooLarge => "code point above U+10FFFF",
            Utf8ErrorKind::InvalidByte => "byte never valid in UTF-8",
        }
    }
}

impl Utf8ErrorKind {
    /// A stable, machine-readable name: `incomplete`, `too-short`,
    /// `unexpected-continuation`, `overlong`, `surrogate`, `too-large`,
    /// `invalid-byte` (for JSON output and logs; it will not change between
    /// releases).
    ///
    /// ```
    /// assert_eq!(codec_core::Utf8ErrorKind::TooShort.id(), "too-short");
    /// ```
    #[must_use]
    pub const fn id(self) -> &'static str {
        match self {
            Utf8ErrorKind::Incomplete => "incomplete",
            Utf8ErrorKind::TooShort => "too-short",
            Utf8ErrorKind::UnexpectedContinuation => "unexpected-continuation",
            Utf8ErrorKind::Overlong => "overlong",
            Utf8ErrorKind::Surrogate => "surrogate",
            Utf8ErrorKind::TooLarge => "too-large",
            Utf8ErrorKind::InvalidByte => "invalid-byte",
        }
    }
}

impl fmt::Display for Utf8ErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl ErrorKind for Utf8ErrorKind {
    const ENCODING: &'static str = "utf-8";
    const MAX_ERROR_LEN: usize = 3;

    fn is_incomplete(self) -> bool {
        matches!(self, Utf8ErrorKind::Incomplete)
    }
}

/// A UTF-8 validation error, with the meaning of [`core::str::Utf8Error`] and
/// a [`kind`](SequenceError::kind).
///
/// - [`valid_up_to`](SequenceError::valid_up_to): the length of the longest
///   valid prefix: `from_utf8(&input[..valid_up_to])` succeeds.
/// - [`error_len`](SequenceError::error_len): `Some(n)`, the `n` bytes (1 to
///   3) at `valid_up_to` are the maximal invalid subpart, which a lossy
///   decoder replaces with one U+FFFD; `None`, the input ended inside a
///   sequence that more input could complete.
/// - [`kind`](SequenceError::kind): why.
///
/// It is small (16 bytes on 64-bit targets) and `Copy`, the workspace's
/// [`SequenceError`] shape for UTF-8. Our codecs build it with
/// [`Utf8Error::at`]; other code can build one with
/// [`SequenceError::new`] or [`Utf8Error::from_std`]. Its `Display` is std's
/// wording followed by the kind in parentheses.
pub type Utf8Error = SequenceError<Utf8ErrorKind>;

impl SequenceError<Utf8ErrorKind> {
    /// The error for `input`, whose bytes before `valid_up_to` are valid UTF-8
    /// and whose bytes from `valid_up_to` on are not.
    ///
    /// `error_len` and the kind are computed from the (at most four) bytes at
    /// `valid_up_to`, exactly as `core::str::from_utf8` would report them.
    /// This is the single place where every codec in the workspace gets its
    /// error details, so they agree by construction.
    ///
    /// If the bytes at `valid_up_to` do in fact start a well-formed character
    /// (a caller bug), the result is an unspecified error; it never panics.
    /// A `valid_up_to` past the end of `input` is treated as the end.
    ///
    /// ```
    /// use codec_core::{Utf8Error, Utf8ErrorKind};
    /// let e = Utf8Error::at(b"abc\xE2\x82", 3);
    /// assert_eq!((e.valid_up_to(), e.error_len()), (3, None));
    /// assert_eq!(e.kind(), Utf8ErrorKind::Incomplete);
    /// ```
    #[cold]
    #[must_use]
    pub fn at(input: &[u8], valid_up_to: usize) -> Utf8Error {
        let rest = input.get(valid_up_to..).unwrap_or(&[]);
        let (error_len, kind) = classify(rest);
        SequenceError::from_classified(valid_up_to, error_len, kind)
    }

    /// Converts std's error, reading the kind from `input`, the bytes that
    /// `core::str::from_utf8` rejected.
    ///
    /// ```
    /// let input = b"\xF4\x90\x80\x80";
    /// let std_err = core::str::from_utf8(input).unwrap_err();
    /// let e = codec_core::Utf8Error::from_std(std_err, input);
    /// assert_eq!(e.kind(), codec_core::Utf8ErrorKind::TooLarge);
    /// ```
    #[must_use]
    pub fn from_std(err: core::str::Utf8Error, input: &[u8]) -> Utf8Error {
        Utf8Error::at(input, err.valid_up_to())
    }
}

/// Reads the error at the start of `rest`: `(error_len or 0 for None, kind)`.
///
/// The maximal subpart is the lead byte plus every following byte that keeps
/// the sequence a prefix of some well-formed sequence (Unicode §3.9, D93b):
/// the second byte must be in the range the lead allows ([`lead`], from
/// RFC 3629's table), later bytes are plain continuations.
fn classify(rest: &[u8]) -> (u8, Utf8ErrorKind) {
    use Utf8ErrorKind::*;
    let Some(&first) = rest.first() else {
        return (0, Incomplete);
    };
    let l = lead(first);
    match l.len() {
        // Bytes that start no character: why not.
        0 => {
            let kind = match first {
                0x80..=0xBF => UnexpectedContinuation,
                0xC0 | 0xC1 => Overlong,
                0xF5..=0xF7 => TooLarge,
                _ => InvalidByte,
            };
            return (1, kind);
        }
        // ASCII is never an error; see the caller-bug note on `Utf8Error::at`.
        1 => return (1, UnexpectedContinuation),
        _ => {}
    }
    let Some(&second) = rest.get(1) else {
        return (0, Incomplete);
    };
    if !l.allows_second(second) {
        let kind = match (first, is_continuation(second)) {
            (_, false) => TooShort,
            (0xE0 | 0xF0, true) => Overlong,
            (0xED, true) => Surrogate,
            _ => TooLarge, // 0xF4 with 90..=BF
        };
        return (1, kind);
    }
    // Bytes 3 and 4 only need to be continuation bytes.
    for i in 2..l.len() {
        match rest.get(i) {
            None => return (0, Incomplete),
            Some(&b) if !is_continuation(b) => return (i as u8, TooShort),
            Some(_) => {}
        }
    }
    // A whole well-formed character: the caller bug case.
    (1, TooShort)
}

#[cfg(test)]
mod tests {
    extern crate std;
    use super::*;
    use std::vec::Vec;

    /// An independent oracle for the kind, from the values a sequence could
    /// decode to rather than from byte ranges: a naive (Thompson-style)
    /// decoder fills the missing bytes with the smallest and the largest
    /// continuation byte and looks at the range of values it could reach.
    fn oracle_kind(rest: &[u8], error_len: Option<usize>) -> Utf8ErrorKind {
        use Utf8ErrorKind::*;
        let b0 = rest[0];
        if error_len.is_none() {
            return Incomplete;
        }
        if is_continuation(b0) {
            return UnexpectedContinuation;
        }
        if b0 >= 0xF8 {
            return InvalidByte;
        }
        let len = if b0 >= 0xF0 {
            4
        } else if b0 >= 0xE0 {
            3
        } else {
            2
        };
        let min_value = [0, 0, 0x80, 0x800, 0x1_0000][len];
        let decode = |known: &[u8], fill: u8| {
            let mut v = u32::from(b0) & (0x7F >> len);
            for i in 1..len {
                let b = known.get(i).copied().unwrap_or(fill);
                v = (v << 6) | u32::from(b & 0x3F);
            }
            v
        };
        // What the lead byte alone decides.
        if decode(&rest[..1], 0xBF) < min_value {
            return Overlong;
        }
        if decode(&rest[..1], 0x80) > 0x10FFFF {
            return TooLarge;
        }
        // What the second byte decides, if it is a continuation.
        if rest.len() > 1 && is_continuation(rest[1]) {
            let (lo, hi) = (decode(&rest[..2], 0x80), decode(&rest[..2], 0xBF));
            if hi < min_value {
                return Overlong;
            }
            if lo > 0x10FFFF {
                return TooLarge;
            }
            if lo >= 0xD800 && hi <= 0xDFFF {
                return Surrogate;
            }
        }
        TooShort
    }

    fn check(input: &[u8]) {
        if let Err(std_err) = core::str::from_utf8(input) {
            let e = Utf8Error::from_std(std_err, input);
            assert_eq!(e.valid_up_to(), std_err.valid_up_to(), "{input:02X?}");
            assert_eq!(e.error_len(), std_err.error_len(), "{input:02X?}");
            let rest = &input[e.valid_up_to()..];
            assert_eq!(e.kind(), oracle_kind(rest, e.error_len()), "{input:02X?}");
        }
    }

    #[test]
    fn agrees_with_std_on_every_sequence_up_to_three_bytes() {
        for a in 0..=255u8 {
            check(&[a]);
            for b in 0..=255u8 {
                check(&[a, b]);
                for c in 0..=255u8 {
                    check(&[a, b, c]);
                }
            }
        }
    }

    #[test]
    fn agrees_with_std_on_four_byte_sequences() {
        // Every lead and second byte; the last two bytes from the values at
        // the edges of each byte range.
        let edges = [
            0x00, 0x41, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xF4, 0xFF,
        ];
        for a in 0..=255u8 {
            for b in 0..=255u8 {
                for &c in &edges {
                    for &d in &edges {
                        check(&[a, b, c, d]);
                        check(&[b'x', a, b, c, d]);
                    }
                }
            }
        }
    }

    #[test]
    fn kinds_named_in_the_docs() {
        use Utf8ErrorKind::*;
        let cases: &[(&[u8], Option<usize>, Utf8ErrorKind)] = &[
            (b"\xE2\x82", None, Incomplete),
            (b"\xC3\x41", Some(1), TooShort),
            (b"\xE2\x82\x41", Some(2), TooShort),
            (b"\xF0\x9F\x98\x41", Some(3), TooShort),
            (b"\x80", Some(1), UnexpectedContinuation),
            (b"\xC0\x80", Some(1), Overlong),
            (b"\xC1\xBF", Some(1), Overlong),
            (b"\xE0\x9F\xBF", Some(1), Overlong),
            (b"\xF0\x8F\xBF\xBF", Some(1), Overlong),
            (b"\xED\xA0\x80", Some(1), Surrogate),
            (b"\xF4\x90\x80\x80", Some(1), TooLarge),
            (b"\xF5", Some(1), TooLarge),
            (b"\xF8", Some(1), InvalidByte),
            (b"\xFF", Some(1), InvalidByte),
        ];
        for &(input, len, kind) in cases {
            let e = Utf8Error::at(input, 0);
            assert_eq!((e.error_len(), e.kind()), (len, kind), "{input:02X?}");
        }
    }

    #[test]
    fn display_extends_std_wording() {
        let input = b"ab\xC0";
        let std_err = core::str::from_utf8(input).unwrap_err();
        let e = Utf8Error::from_std(std_err, input);
        assert_eq!(
            std::format!("{e}"),
            std::format!("{std_err} (overlong encoding)")
        );
        let input = b"ab\xE2\x82";
        let std_err = core::str::from_utf8(input).unwrap_err();
        let e = Utf8Error::from_std(std_err, input);
        assert_eq!(
            std::format!("{e}"),
            std::format!("{std_err} (incomplete sequence at end of input)")
        );
    }

    #[test]
    fn never_panics_on_misuse() {
        // Past the end, on ASCII, on a whole valid character.
        let e = Utf8Error::at(b"ab", 10);
        assert_eq!(e.error_len(), None);
        let _ = Utf8Error::at(b"a", 0);
        let _ = Utf8Error::at("é".as_bytes(), 0);
        assert_eq!(
            Utf8Error::at(b"\x80", 0)
                .offset_by(usize::MAX)
                .valid_up_to(),
            usize::MAX
        );
    }

    #[test]
    fn is_two_words() {
        assert!(core::mem::size_of::<Utf8Error>() <= 2 * core::mem::size_of::<usize>());
    }

    quickcheck::quickcheck! {
        fn random_bytes_agree_with_std(input: Vec<u8>) -> bool {
            check(&input);
            true
        }
    }
}
