//! [`Error`] and [`ErrorKind`]: where an input stops being valid in its
//! encoding, how long the invalid piece is, and why.
//!
//! The one function that turns "the DFA rejected at byte `r`, having last
//! been between characters at byte `v`" into an error is [`Error::at`];
//! every validator of the crate (scalar, SIMD, streaming) builds its errors
//! there, so they agree by construction.

use crate::Variant;
use core::fmt;

/// Why an input is not valid in its encoding.
///
/// Each variant names the bytes that trigger it and the encodings in which
/// it can occur. "Continuation byte" means `80..=BF`; a lead surrogate is
/// `ED A0..=AF 80..=BF` (U+D800..=U+DBFF), a trail surrogate
/// `ED B0..=BF 80..=BF` (U+DC00..=U+DFFF).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ErrorKind {
    /// The input ends inside a character, or (CESU-8, MUTF-8) after a lead
    /// surrogate or inside the trail surrogate that must follow it: more
    /// input could complete it. The only kind with
    /// [`Error::error_len`] `== None`.
    Incomplete,
    /// A lead byte is followed, before its character is complete, by a byte
    /// that is not a continuation byte: `C3 41`, `E2 82 41`.
    TooShort,
    /// A continuation byte stands where a character should start.
    UnexpectedContinuation,
    /// A longer form of a value that has a shorter one: the leads `C0`
    /// (MUTF-8: `C0` not followed by `80`) and `C1`, `E0` followed by
    /// `80..=9F`, and (UTF-8, WTF-8) `F0` followed by `80..=8F`.
    Overlong,
    /// UTF-8 only: an encoded surrogate, `ED` followed by `A0..=BF`.
    Surrogate,
    /// A value above U+10FFFF: (UTF-8, WTF-8) `F4` followed by `90..=BF`,
    /// and the leads `F5..=F7`.
    TooLarge,
    /// A byte that never occurs in any of the encodings: `F8..=FF`.
    InvalidByte,
    /// CESU-8, MUTF-8: a 4-byte lead `F0..=F4`. These encodings write a
    /// supplementary character as a surrogate pair (6 bytes), never in the
    /// 4-byte form of UTF-8.
    FourByteForm,
    /// MUTF-8: the byte `00`. Modified UTF-8 writes U+0000 as `C0 80`, so
    /// that no byte of a string is zero.
    Nul,
    /// CESU-8, MUTF-8: a lead surrogate not followed by a trail surrogate
    /// (the invalid piece is the lead, 3 bytes), or a trail surrogate
    /// without a lead before it (the piece is its `ED`, 1 byte, as for
    /// [`Surrogate`](Self::Surrogate) in UTF-8).
    UnpairedSurrogate,
    /// WTF-8: a trail surrogate right after a lead surrogate. WTF-8 writes
    /// that pair as the 4-byte form of its supplementary character; the
    /// invalid piece is the trail's `ED`, 1 byte.
    SurrogatePair,
    /// A leading byte-order mark (`EF BB BF`, U+FEFF) where the
    /// [`Config`](crate::Config) rejects it. The piece is its 3 bytes.
    ByteOrderMark,
}

impl ErrorKind {
    /// A short English description, as used by `Display`.
    ///
    /// ```
    /// use utf8_variants::ErrorKind;
    /// assert_eq!(ErrorKind::UnpairedSurrogate.as_str(), "unpaired surrogate");
    /// ```
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            ErrorKind::Incomplete => "incomplete sequence at end of input",
            ErrorKind::TooShort => "missing continuation byte",
            ErrorKind::UnexpectedContinuation => "unexpected continuation byte",
            ErrorKind::Overlong => "overlong encoding",
            ErrorKind::Surrogate => "surrogate code point",
            ErrorKind::TooLarge => "code point above U+10FFFF",
            ErrorKind::InvalidByte => "byte never valid in UTF-8",
            ErrorKind::FourByteForm => "4-byte form instead of a surrogate pair",
            ErrorKind::Nul => "byte 00 (NUL is written C0 80)",
            ErrorKind::UnpairedSurrogate => "unpaired surrogate",
            ErrorKind::SurrogatePair => "surrogate pair instead of a 4-byte form",
            ErrorKind::ByteOrderMark => "byte-order mark",
        }
    }

    /// The kind of a UTF-8 error of the other codecs of the workspace.
    pub(crate) fn from_utf8(kind: codec_core::Utf8ErrorKind) -> ErrorKind {
        use codec_core::Utf8ErrorKind as K;
        match kind {
            K::Incomplete => ErrorKind::Incomplete,
            K::TooShort => ErrorKind::TooShort,
            K::UnexpectedContinuation => ErrorKind::UnexpectedContinuation,
            K::Overlong => ErrorKind::Overlong,
            K::Surrogate => ErrorKind::Surrogate,
            K::TooLarge => ErrorKind::TooLarge,
            K::InvalidByte => ErrorKind::InvalidByte,
            // `Utf8ErrorKind` is non-exhaustive; a kind added later is still
            // a byte that UTF-8 does not allow there.
            _ => ErrorKind::InvalidByte,
        }
    }
}

impl fmt::Display for ErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A validation error: the meaning of [`core::str::Utf8Error`] for the
/// error's [`Variant`], plus a [`kind`](Error::kind).
///
/// - [`valid_up_to`](Error::valid_up_to): the longest prefix that is valid
///   in the encoding.
/// - [`error_len`](Error::error_len): `Some(n)`, the `n` bytes (1 to 3) at
///   `valid_up_to` are the invalid piece a lossy decoder replaces with one
///   U+FFFD before going on; `None`, the input ended where more input could
///   have completed it.
///
/// For UTF-8 these are exactly std's values. For the others the piece is
/// the maximal subpart of Unicode §3.9 D93b applied to the encoding's own
/// grammar, with one exception: an unpaired lead surrogate is its own 3
/// bytes (not 4 or 5, when the start of a wrong trail follows it), so that
/// the character after it is kept.
///
/// It is `Copy` and two words on 64-bit targets.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Error {
    valid_up_to: usize,
    /// 0 stands for `None`.
    error_len: u8,
    kind: ErrorKind,
    variant: Variant,
}

/// The accessors' values (`error_len: None` at a cut-off end), as
/// [`core::str::Utf8Error`] prints them.
impl fmt::Debug for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Error")
            .field("valid_up_to", &self.valid_up_to())
            .field("error_len", &self.error_len())
            .field("kind", &self.kind)
            .field("variant", &self.variant)
            .finish()
    }
}

/// Whether `b` is a continuation byte, `10xxxxxx`.
const fn is_cont(b: u8) -> bool {
    b & 0xC0 == 0x80
}

/// Whether `bytes` starts with a lead surrogate, `ED A0..=AF 80..=BF`.
pub(crate) fn is_lead_surrogate(bytes: &[u8]) -> bool {
    matches!(bytes, [0xED, 0xA0..=0xAF, 0x80..=0xBF, ..])
}

impl Error {
    /// The error of `input` (in `variant`) found by a DFA that was last in
    /// an accepting state before byte `valid_up_to` and rejected byte
    /// `rejected` (`None`: it ran out of input first).
    ///
    /// `input` must hold the bytes from `valid_up_to` to `rejected`, and for
    /// WTF-8 the 3 bytes before `valid_up_to` where they are a lead
    /// surrogate (the context of [`ErrorKind::SurrogatePair`]).
    #[cold]
    pub(crate) fn at(
        variant: Variant,
        input: &[u8],
        valid_up_to: usize,
        rejected: Option<usize>,
    ) -> Error {
        let piece = input.get(valid_up_to..).unwrap_or(&[]);
        let after_lead = variant == Variant::Wtf8
            && valid_up_to >= 3
            && input.get(valid_up_to - 3..).is_some_and(is_lead_surrogate);
        let (error_len, kind) = match rejected {
            None => (0, ErrorKind::Incomplete),
            Some(r) => {
                let len = r.saturating_sub(valid_up_to).clamp(1, 3) as u8;
                (len, classify(variant, piece, r - valid_up_to, after_lead))
            }
        };
        Error {
            valid_up_to,
            error_len,
            kind,
            variant,
        }
    }

    /// An error built from its parts, for the lossless conversions
    /// (`crate::java`), whose grammar allows what the DFA's does not.
    pub(crate) const fn new(
        variant: Variant,
        valid_up_to: usize,
        error_len: Option<u8>,
        kind: ErrorKind,
    ) -> Error {
        Error {
            valid_up_to,
            error_len: match error_len {
                Some(n) => n,
                None => 0,
            },
            kind,
            variant,
        }
    }

    /// The error of a leading byte-order mark.
    pub(crate) const fn bom(variant: Variant) -> Error {
        Error {
            valid_up_to: 0,
            error_len: 3,
            kind: ErrorKind::ByteOrderMark,
            variant,
        }
    }

    /// A UTF-8 error of the other codecs of the workspace, as an error of
    /// [`Variant::Utf8`].
    pub(crate) fn from_utf8(e: codec_core::Utf8Error) -> Error {
        Error {
            valid_up_to: e.valid_up_to(),
            error_len: e.error_len().map_or(0, |n| n as u8),
            kind: ErrorKind::from_utf8(e.kind()),
            variant: Variant::Utf8,
        }
    }

    /// The same error, moved `offset` bytes further into a larger input.
    /// The addition saturates rather than wrapping.
    #[must_use]
    pub const fn offset_by(self, offset: usize) -> Error {
        Error {
            valid_up_to: self.valid_up_to.saturating_add(offset),
            ..self
        }
    }

    /// The length of the longest valid prefix.
    #[must_use]
    pub const fn valid_up_to(&self) -> usize {
        self.valid_up_to
    }

    /// `Some(n)`: the `n` bytes (1 to 3) at `valid_up_to` are the invalid
    /// piece, which a lossy decoder replaces with one U+FFFD. `None`: the
    /// input ended where more input could have completed it.
    #[must_use]
    pub const fn error_len(&self) -> Option<usize> {
        match self.error_len {
            0 => None,
            n => Some(n as usize),
        }
    }

    /// Why the input is invalid.
    #[must_use]
    pub const fn kind(&self) -> ErrorKind {
        self.kind
    }

    /// The encoding the input was validated as.
    #[must_use]
    pub const fn variant(&self) -> Variant {
        self.variant
    }
}

impl fmt::Display for Error {
    /// std's wording with the encoding's name, then the kind in
    /// parentheses: `invalid CESU-8 sequence of 3 bytes from index 2
    /// (unpaired surrogate)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let name = self.variant.name();
        match self.error_len() {
            Some(n) => write!(
                f,
                "invalid {name} sequence of {n} bytes from index {} ({})",
                self.valid_up_to, self.kind
            ),
            None => write!(
                f,
                "incomplete {name} byte sequence from index {} ({})",
                self.valid_up_to, self.kind
            ),
        }
    }
}

impl core::error::Error for Error {}

/// Why a conversion into a caller's `[u16]` (`mutf8::to_utf16`,
/// `cesu8::to_utf16`) stopped early. See [`ToUtf16Error`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ToUtf16ErrorKind {
    /// The input is not valid at [`ToUtf16Error::read`], which equals the
    /// error's [`valid_up_to`](Error::valid_up_to), and the output had room
    /// for everything before it.
    Invalid(Error),
    /// The output cannot hold the conversion of the input up to its first
    /// error (all of it, if it is valid): `needed` counts `u16`s.
    BufferTooSmall(codec_core::BufferTooSmall),
}

/// A conversion into a caller's `[u16]` that stopped early, with how far it
/// got: the first [`written`](ToUtf16Error::written) units of the output
/// hold the conversion of the first [`read`](ToUtf16Error::read) bytes of
/// the input, and nothing after `written` was changed.
///
/// ```
/// use utf8_variants::{ErrorKind, ToUtf16ErrorKind, mutf8};
///
/// let mut out = [0u16; 2];
/// let err = mutf8::to_utf16(b"ab\xED\xA0\x80", &mut out).unwrap_err();
/// assert_eq!((err.read(), err.written()), (2, 2));
/// assert_eq!(err.buffer_too_small().map(|b| b.needed()), Some(3));
///
/// let err = mutf8::to_utf16(b"a\x00", &mut out).unwrap_err();
/// assert_eq!((err.read(), err.written()), (1, 1));
/// assert_eq!(err.invalid().map(|e| e.kind()), Some(ErrorKind::Nul));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ToUtf16Error {
    read: usize,
    written: usize,
    kind: ToUtf16ErrorKind,
}

impl ToUtf16Error {
    pub(crate) const fn new(read: usize, written: usize, kind: ToUtf16ErrorKind) -> ToUtf16Error {
        ToUtf16Error {
            read,
            written,
            kind,
        }
    }

    /// Input bytes converted: a sequence boundary. Each sequence is one
    /// unit, so when the buffer fills between the two halves of a
    /// surrogate pair `read` is between them too; converting the rest from
    /// there gives the trail, and nothing is lost.
    #[must_use]
    pub const fn read(&self) -> usize {
        self.read
    }

    /// Output units written.
    #[must_use]
    pub const fn written(&self) -> usize {
        self.written
    }

    /// What stopped the conversion.
    #[must_use]
    pub const fn kind(&self) -> ToUtf16ErrorKind {
        self.kind
    }

    /// The input error, if that is what stopped the conversion.
    #[must_use]
    pub const fn invalid(&self) -> Option<Error> {
        match self.kind {
            ToUtf16ErrorKind::Invalid(e) => Some(e),
            ToUtf16ErrorKind::BufferTooSmall(_) => None,
        }
    }

    /// The buffer error, if that is what stopped the conversion.
    #[must_use]
    pub const fn buffer_too_small(&self) -> Option<codec_core::BufferTooSmall> {
        match self.kind {
            ToUtf16ErrorKind::BufferTooSmall(b) => Some(b),
            ToUtf16ErrorKind::Invalid(_) => None,
        }
    }
}

impl fmt::Display for ToUtf16Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.kind {
            ToUtf16ErrorKind::Invalid(e) => e.fmt(f),
            ToUtf16ErrorKind::BufferTooSmall(b) => write!(
                f,
                "output buffer too small: need {} UTF-16 units, have {}",
                b.needed(),
                b.available()
            ),
        }
    }
}

impl core::error::Error for ToUtf16Error {
    fn source(&self) -> Option<&(dyn core::error::Error + 'static)> {
        match &self.kind {
            ToUtf16ErrorKind::Invalid(e) => Some(e),
            ToUtf16ErrorKind::BufferTooSmall(_) => None,
        }
    }
}

/// Why the piece of `variant` starting at `piece[0]` was rejected at
/// `piece[r]` (`r >= 0`), after the DFA was last between characters at
/// `piece[0]`; `after_lead` for WTF-8 after a lead surrogate.
fn classify(variant: Variant, piece: &[u8], r: usize, after_lead: bool) -> ErrorKind {
    use ErrorKind::*;
    let paired = matches!(variant, Variant::Cesu8 | Variant::Mutf8);
    let four_byte = matches!(variant, Variant::Utf8 | Variant::Wtf8);
    let Some(&lead) = piece.first() else {
        return Incomplete;
    };
    // Only a CESU-8 or MUTF-8 lead surrogate can be left before rejection
    // with 3 or more bytes behind it: the trail did not follow.
    if r >= 3 && paired && is_lead_surrogate(piece) {
        return UnpairedSurrogate;
    }
    if r == 0 {
        return match lead {
            0x80..=0xBF => UnexpectedContinuation,
            0x00 => Nul,
            0xC0 | 0xC1 => Overlong,
            0xF0..=0xF4 if !four_byte => FourByteForm,
            0xF5..=0xF7 => TooLarge,
            0xF8..=0xFF => InvalidByte,
            // A lead that was accepted cannot be rejected on its own: a
            // caller bug, reported as the most general kind.
            _ => TooShort,
        };
    }
    let second = piece.get(1).copied().unwrap_or(0);
    if r == 1 && is_cont(second) {
        return match lead {
            0xC0 | 0xE0 | 0xF0 => Overlong,
            0xED if paired => UnpairedSurrogate,
            0xED if after_lead => SurrogatePair,
            0xED => Surrogate,
            _ => TooLarge, // F4 followed by 90..=BF
        };
    }
    TooShort
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn is_two_words() {
        assert!(core::mem::size_of::<Error>() <= 2 * core::mem::size_of::<usize>());
    }

    #[test]
    fn display_names_the_encoding() {
        extern crate std;
        let e = Error::at(Variant::Cesu8, b"ab\xED\xA0\x80x", 2, Some(5));
        assert_eq!(
            std::format!("{e}"),
            "invalid CESU-8 sequence of 3 bytes from index 2 (unpaired surrogate)"
        );
        let e = Error::at(Variant::Mutf8, b"ab\xC0", 2, None);
        assert_eq!(
            std::format!("{e}"),
            "incomplete MUTF-8 byte sequence from index 2 (incomplete sequence at end of input)"
        );
    }
}
