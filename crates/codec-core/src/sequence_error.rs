//! [`SequenceError`]: the one shape of a positioned decoding error, shared
//! by [`Utf8Error`](crate::Utf8Error), utf8-table's `LegacyError` and the
//! errors of UTF-8's relatives: where the invalid bytes start, how many
//! there are, and why.

use core::fmt;

/// What a kind of [`SequenceError`] says about itself.
///
/// Implemented by [`Utf8ErrorKind`](crate::Utf8ErrorKind) and by the kind
/// enums of the codecs that decode UTF-8's relatives.
pub trait ErrorKind: Copy + fmt::Debug + fmt::Display + Eq {
    /// The encoding's name as error messages print it (`"utf-8"`).
    const ENCODING: &'static str;
    /// The longest invalid piece ([`SequenceError::error_len`]) the encoding
    /// can report.
    const MAX_ERROR_LEN: usize;
    /// Whether this kind means the input ended inside a sequence that more
    /// input could complete: the one case where `error_len()` is `None`.
    fn is_incomplete(self) -> bool;
}

/// A decoding error at a position in a byte string, with the meaning of
/// [`core::str::Utf8Error`] carried over to any byte-oriented encoding.
///
/// - [`valid_up_to`](SequenceError::valid_up_to): where the invalid bytes
///   start; everything before is valid.
/// - [`error_len`](SequenceError::error_len): `Some(n)`, the `n` bytes there
///   are the maximal invalid piece (what a lossy decoder replaces with one
///   U+FFFD); `None`, the input ended inside a sequence.
/// - [`kind`](SequenceError::kind): why.
///
/// Two words on 64-bit targets, `Copy`, fields private. The codecs name
/// their instances: [`Utf8Error`](crate::Utf8Error) is
/// `SequenceError<Utf8ErrorKind>`.
///
/// ```
/// use codec_core::{SequenceError, Utf8ErrorKind};
/// let e = SequenceError::new(7, Some(1), Utf8ErrorKind::Overlong).unwrap();
/// assert_eq!(e.to_string(), "invalid utf-8 sequence of 1 bytes from index 7 (overlong encoding)");
/// assert_eq!(e.offset_by(10).valid_up_to(), 17);
/// // Debug shows what the accessors return.
/// let cut = SequenceError::new(3, None, Utf8ErrorKind::Incomplete).unwrap();
/// assert_eq!(
///     format!("{cut:?}"),
///     "SequenceError { valid_up_to: 3, error_len: None, kind: Incomplete }"
/// );
/// assert_eq!(
///     format!("{e:?}"),
///     "SequenceError { valid_up_to: 7, error_len: Some(1), kind: Overlong }"
/// );
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct SequenceError<K> {
    valid_up_to: usize,
    /// 0 stands for `None`, so the whole struct stays two words.
    error_len: u8,
    kind: K,
}

impl<K: ErrorKind> SequenceError<K> {
    /// Builds an error from its parts, or `None` if they contradict each
    /// other: `error_len` must be `Some(1..=K::MAX_ERROR_LEN)`, and `None`
    /// exactly when the kind is the incomplete one.
    ///
    /// ```
    /// use codec_core::{Utf8Error, Utf8ErrorKind};
    /// assert!(Utf8Error::new(7, Some(1), Utf8ErrorKind::Overlong).is_some());
    /// assert!(Utf8Error::new(7, Some(4), Utf8ErrorKind::Overlong).is_none());
    /// assert!(Utf8Error::new(7, None, Utf8ErrorKind::Overlong).is_none());
    /// ```
    #[must_use]
    pub fn new(valid_up_to: usize, error_len: Option<usize>, kind: K) -> Option<Self> {
        let error_len = match error_len {
            None if kind.is_incomplete() => 0,
            Some(n) if (1..=K::MAX_ERROR_LEN).contains(&n) && !kind.is_incomplete() => {
                u8::try_from(n).ok()?
            }
            _ => return None,
        };
        Some(SequenceError::from_classified(valid_up_to, error_len, kind))
    }
}

impl<K> SequenceError<K> {
    /// For a codec's classifier, which computes the length of the invalid
    /// piece (0 for `None`) and the kind together, so that they agree by
    /// construction; unlike [`new`](SequenceError::new) it does not check
    /// them. [`Utf8Error::at`](crate::Utf8Error::at) is built on it.
    #[must_use]
    pub const fn from_classified(valid_up_to: usize, error_len: u8, kind: K) -> Self {
        SequenceError {
            valid_up_to,
            error_len,
            kind,
        }
    }
}

impl<K: Copy> SequenceError<K> {
    /// The same error, moved `offset` bytes further into a larger input.
    ///
    /// Streaming decoders use this to turn a position inside a chunk into an
    /// absolute one. The addition saturates rather than wrapping.
    #[must_use]
    pub const fn offset_by(self, offset: usize) -> Self {
        SequenceError {
            valid_up_to: self.valid_up_to.saturating_add(offset),
            ..self
        }
    }

    /// The length of the longest valid prefix. Same meaning as
    /// [`core::str::Utf8Error::valid_up_to`].
    #[must_use]
    pub const fn valid_up_to(&self) -> usize {
        self.valid_up_to
    }

    /// `Some(n)`: the `n` bytes at `valid_up_to` are the maximal invalid
    /// piece. `None`: the input ended inside a sequence that more input could
    /// complete. Same meaning as [`core::str::Utf8Error::error_len`].
    #[must_use]
    pub const fn error_len(&self) -> Option<usize> {
        match self.error_len {
            0 => None,
            n => Some(n as usize),
        }
    }

    /// Why the input is invalid.
    #[must_use]
    pub const fn kind(&self) -> K {
        self.kind
    }
}

/// The accessors' values: `error_len: None` for an input that ended
/// inside a sequence, as [`core::str::Utf8Error`] prints it.
impl<K: Copy + fmt::Debug> fmt::Debug for SequenceError<K> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SequenceError")
            .field("valid_up_to", &self.valid_up_to())
            .field("error_len", &self.error_len())
            .field("kind", &self.kind)
            .finish()
    }
}

impl<K: ErrorKind> fmt::Display for SequenceError<K> {
    /// std's wording for UTF-8, with the encoding's name, followed by the
    /// kind in parentheses.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.error_len() {
            Some(n) => write!(
                f,
                "invalid {} sequence of {n} bytes from index {} ({})",
                K::ENCODING,
                self.valid_up_to,
                self.kind
            ),
            None => write!(
                f,
                "incomplete {} byte sequence from index {} ({})",
                K::ENCODING,
                self.valid_up_to,
                self.kind
            ),
        }
    }
}

impl<K: ErrorKind> core::error::Error for SequenceError<K> {}
