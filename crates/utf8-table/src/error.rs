//! The crate's own error types: [`LegacyError`] for legacy decoding, and
//! [`EncodeError`] for encoding in either mode.
//!
//! Strict decoding reports [`codec_core::Utf8Error`], shared with every other
//! codec in the workspace.

use core::fmt;

use codec_core::{BufferTooSmall, ErrorKind, SequenceError};

use crate::table::TABLE;

/// Why a byte sequence is not legacy (1992 FSS-UTF) UTF-8.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum LegacyErrorKind {
    /// The input ends inside a sequence that more input could complete, such
    /// as a lone `FC 84` at the very end. The only kind with
    /// [`LegacyError::error_len`] `== None`.
    Incomplete,
    /// A lead byte (`C2..=FD`) is followed, before its sequence is complete,
    /// by a byte that is not a continuation byte: `C3 41`, `F8 88 80 41`.
    TooShort,
    /// A continuation byte (`80..=BF`) stands where a lead byte was expected.
    UnexpectedContinuation,
    /// An overlong form: the leads `C0`, `C1`, or the leads `E0`, `F0`, `F8`,
    /// `FC` followed by a continuation byte below `A0`, `90`, `88`, `84`
    /// respectively.
    Overlong,
    /// `FE` or `FF`, the two bytes that are never valid.
    InvalidByte,
}

impl LegacyErrorKind {
    /// A short English description, as used by `Display`.
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            LegacyErrorKind::Incomplete => "incomplete sequence at end of input",
            LegacyErrorKind::TooShort => "missing continuation byte",
            LegacyErrorKind::UnexpectedContinuation => "unexpected continuation byte",
            LegacyErrorKind::Overlong => "overlong encoding",
            LegacyErrorKind::InvalidByte => "byte never valid in UTF-8 (FE or FF)",
        }
    }
}

impl fmt::Display for LegacyErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl ErrorKind for LegacyErrorKind {
    const ENCODING: &'static str = "legacy utf-8";
    const MAX_ERROR_LEN: usize = 5;

    fn is_incomplete(self) -> bool {
        matches!(self, LegacyErrorKind::Incomplete)
    }
}

/// A legacy-mode decoding error: the workspace's [`SequenceError`] shape,
/// the same as [`codec_core::Utf8Error`]'s, with a [`LegacyErrorKind`].
///
/// Its fields mean what they mean in [`codec_core::Utf8Error`], carried over
/// to the 1–6 byte language: `valid_up_to` is where the invalid bytes start;
/// `error_len() == Some(n)` says the `n` bytes there (1 to 5) are the
/// *maximal subpart*, the longest run that is a prefix of some valid legacy
/// sequence (at least the one byte); `None` says the input ended inside a
/// sequence more input could complete.
pub type LegacyError = SequenceError<LegacyErrorKind>;

/// The error for `input`, whose bytes before `valid_up_to` are valid and
/// whose bytes from `valid_up_to` on are not. The counterpart of
/// [`codec_core::Utf8Error::at`], computed from the table.
#[cold]
pub(crate) fn legacy_error_at(input: &[u8], valid_up_to: usize) -> LegacyError {
    let rest = input.get(valid_up_to..).unwrap_or(&[]);
    let (error_len, kind) = classify(rest);
    LegacyError::from_classified(valid_up_to, error_len, kind)
}

/// Reads the legacy error at the start of `rest`: `(error_len or 0, kind)`.
///
/// A prefix of `k` bytes of an `n`-byte sequence can still be completed to a
/// valid one exactly when its largest completion (every missing payload bit
/// set) reaches the row's `lval`; once it cannot, the sequence is overlong
/// whatever follows. With the table this is one comparison per byte, and it
/// only ever bites at the lead (`C0`, `C1`) or the second byte.
fn classify(rest: &[u8]) -> (u8, LegacyErrorKind) {
    use LegacyErrorKind::*;
    let Some(&lead) = rest.first() else {
        return (0, Incomplete);
    };
    if lead & 0xC0 == 0x80 {
        return (1, UnexpectedContinuation);
    }
    let Some(n) = TABLE.iter().position(|r| lead & r.cmask == r.cval) else {
        return (1, InvalidByte);
    };
    let row = TABLE[n];
    let n = n + 1;
    // The prefix's value, and how many payload bits are still missing.
    let mut value = u64::from(lead) & u64::from(row.lmask >> row.shift);
    let mut missing = row.shift;
    let mut len = 1;
    loop {
        let largest = (value << missing) | ((1u64 << missing) - 1);
        if largest < u64::from(row.lval) {
            // The previous prefix was still completable (or this is the lead).
            return ((len - 1).max(1) as u8, Overlong);
        }
        if len == n {
            // A whole valid sequence: a caller bug, answered like codec-core.
            return (1, TooShort);
        }
        let Some(&b) = rest.get(len) else {
            return (0, Incomplete);
        };
        if b & 0xC0 != 0x80 {
            return (len as u8, TooShort);
        }
        value = (value << 6) | u64::from(b & 0x3F);
        missing -= 6;
        len += 1;
    }
}

/// Why a value could not be encoded.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum EncodeError {
    /// Strict mode only: the value is a UTF-16 surrogate, U+D800..=U+DFFF.
    Surrogate(u32),
    /// The value is above the mode's largest: U+10FFFF in strict mode,
    /// 0x7FFF_FFFF in legacy mode.
    TooLarge(u32),
    /// The value is in range but the output buffer is shorter than its
    /// encoding. Nothing was written.
    BufferTooSmall(BufferTooSmall),
}

impl fmt::Display for EncodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EncodeError::Surrogate(v) => write!(f, "cannot encode surrogate U+{v:04X}"),
            EncodeError::TooLarge(v) => write!(f, "value 0x{v:X} is above the mode's range"),
            EncodeError::BufferTooSmall(e) => e.fmt(f),
        }
    }
}

impl core::error::Error for EncodeError {}

impl From<BufferTooSmall> for EncodeError {
    fn from(e: BufferTooSmall) -> Self {
        EncodeError::BufferTooSmall(e)
    }
}
