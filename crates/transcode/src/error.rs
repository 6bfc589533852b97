//! The error vocabulary: what went wrong in the input ([`Utf16Error`],
//! [`Utf32Error`], and codec-core's [`Utf8Error`](codec_core::Utf8Error)), and what went wrong in a
//! conversion ([`Error`], [`ErrorKind`], and codec-core's [`BufferTooSmall`]),
//! plus [`Progress`].
//!
//! The input errors are decided by the scalar code of each family (the
//! kernels only ever stop *before* a block that holds an error), so each has
//! exactly one definition of where an error is: `core::str::from_utf8` for
//! UTF-8 (through [`Utf8Error::at`](codec_core::Utf8Error::at)), `char::decode_utf16` for UTF-16, and
//! `char::from_u32` for UTF-32.

use codec_core::BufferTooSmall;
use core::fmt;

/// Why UTF-16 input is not well-formed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Utf16ErrorKind {
    /// A lead (high) surrogate, `D800..=DBFF`, followed by a unit that is not
    /// a trail surrogate. `char::decode_utf16` yields an error for the lead
    /// alone and goes on with the unit after it.
    UnpairedLead,
    /// A trail (low) surrogate, `DC00..=DFFF`, that does not follow a lead
    /// surrogate.
    UnpairedTrail,
    /// The input ends where more input could complete it: with a lead
    /// surrogate, or (byte input only) with an odd byte, or both. This is the
    /// only kind with [`Utf16Error::error_len`] `== None`.
    Incomplete,
    /// A byte-order mark at the start of byte input read with
    /// [`BomMode::Reject`](codec_core::BomMode::Reject).
    ByteOrderMark,
}

impl Utf16ErrorKind {
    /// A short English description, as used by `Display`.
    ///
    /// ```
    /// assert_eq!(transcode::Utf16ErrorKind::UnpairedTrail.as_str(), "unpaired trail surrogate");
    /// ```
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            Utf16ErrorKind::UnpairedLead => "unpaired lead surrogate",
            Utf16ErrorKind::UnpairedTrail => "unpaired trail surrogate",
            Utf16ErrorKind::Incomplete => "incomplete code unit or surrogate pair at end of input",
            Utf16ErrorKind::ByteOrderMark => "byte-order mark where none is allowed",
        }
    }
}

impl fmt::Display for Utf16ErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A UTF-16 error: where `char::decode_utf16` finds the first unpaired
/// surrogate, and whether more input could complete it.
///
/// Positions count code units (`u16`s). An error of a function that took
/// bytes (the `_bytes` forms) also knows it: [`byte_offset`](Utf16Error::byte_offset)
/// is the offset in those bytes, counted from their start even when a
/// byte-order mark was stripped, and `Display` says "at byte N".
///
/// ```
/// // 'a', an unpaired trail surrogate, 'b'.
/// let err = transcode::utf16_to_utf8(&[0x61, 0xDC00, 0x62], &mut [0; 16]).unwrap_err();
/// let e = err.invalid().unwrap();
/// assert_eq!((e.valid_up_to(), e.error_len()), (1, Some(1)));
/// assert_eq!(e.kind(), transcode::Utf16ErrorKind::UnpairedTrail);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Utf16Error {
    valid_up_to: usize,
    kind: Utf16ErrorKind,
    in_bytes: bool,
}

impl Utf16Error {
    /// An error at code unit `valid_up_to`.
    #[must_use]
    pub const fn new(valid_up_to: usize, kind: Utf16ErrorKind) -> Utf16Error {
        Utf16Error {
            valid_up_to,
            kind,
            in_bytes: false,
        }
    }

    /// The same error, found in UTF-16 held in bytes: `Display` names the
    /// byte offset instead of the code unit.
    ///
    /// ```
    /// use transcode::{Utf16Error, Utf16ErrorKind};
    /// let e = Utf16Error::new(7, Utf16ErrorKind::UnpairedTrail);
    /// assert_eq!(e.to_string(), "invalid utf-16: unpaired trail surrogate at code unit 7");
    /// assert_eq!(e.in_bytes().to_string(), "invalid utf-16: unpaired trail surrogate at byte 14");
    /// ```
    #[must_use]
    pub const fn in_bytes(self) -> Utf16Error {
        Utf16Error {
            in_bytes: true,
            ..self
        }
    }

    /// The byte offset of the error in UTF-16 held in bytes: twice
    /// [`valid_up_to`](Self::valid_up_to), the first byte of the offending
    /// unit (or of the odd byte at the end).
    #[must_use]
    pub const fn byte_offset(&self) -> usize {
        self.valid_up_to.saturating_mul(2)
    }

    /// The length in code units of the longest well-formed prefix; the unit
    /// there is the unpaired surrogate (or, for
    /// [`Incomplete`](Utf16ErrorKind::Incomplete), the lead surrogate or the
    /// odd byte at the end).
    #[must_use]
    pub const fn valid_up_to(&self) -> usize {
        self.valid_up_to
    }

    /// `Some(1)`: the unit at `valid_up_to` is an unpaired surrogate, which a
    /// lossy decoder replaces with one U+FFFD (as `String::from_utf16_lossy`
    /// does). `None`: the input ended where more input could complete it.
    #[must_use]
    pub const fn error_len(&self) -> Option<usize> {
        match self.kind {
            Utf16ErrorKind::Incomplete => None,
            _ => Some(1),
        }
    }

    /// Why the input is not well-formed.
    #[must_use]
    pub const fn kind(&self) -> Utf16ErrorKind {
        self.kind
    }

    /// The same error, moved `offset` units further into a larger input
    /// (saturating).
    #[must_use]
    pub const fn offset_by(self, offset: usize) -> Utf16Error {
        Utf16Error {
            valid_up_to: self.valid_up_to.saturating_add(offset),
            ..self
        }
    }
}

impl fmt::Display for Utf16Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.in_bytes {
            true => write!(
                f,
                "invalid utf-16: {} at byte {}",
                self.kind,
                self.byte_offset()
            ),
            false => write!(
                f,
                "invalid utf-16: {} at code unit {}",
                self.kind, self.valid_up_to
            ),
        }
    }
}

impl core::error::Error for Utf16Error {}

/// Why a UTF-32 code unit is not a Unicode scalar value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Utf32ErrorKind {
    /// A surrogate code point, `D800..=DFFF`.
    Surrogate,
    /// A value above `10FFFF`.
    TooLarge,
}

impl Utf32ErrorKind {
    /// A short English description, as used by `Display`.
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            Utf32ErrorKind::Surrogate => "surrogate code point",
            Utf32ErrorKind::TooLarge => "value above U+10FFFF",
        }
    }
}

impl fmt::Display for Utf32ErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A UTF-32 error: the index of the first unit that `char::from_u32`
/// rejects.
///
/// ```
/// let err = transcode::utf32_to_utf8(&[0x41, 0x11_0000], &mut [0; 8]).unwrap_err();
/// let e = err.invalid().unwrap();
/// assert_eq!((e.valid_up_to(), e.kind()), (1, transcode::Utf32ErrorKind::TooLarge));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Utf32Error {
    valid_up_to: usize,
    kind: Utf32ErrorKind,
}

impl Utf32Error {
    /// An error at unit `valid_up_to`.
    #[must_use]
    pub const fn new(valid_up_to: usize, kind: Utf32ErrorKind) -> Utf32Error {
        Utf32Error { valid_up_to, kind }
    }

    /// The error for `value` at index `valid_up_to`, or `None` if `value` is
    /// a scalar value.
    #[must_use]
    pub const fn of(valid_up_to: usize, value: u32) -> Option<Utf32Error> {
        let kind = match value {
            0xD800..=0xDFFF => Utf32ErrorKind::Surrogate,
            0x11_0000.. => Utf32ErrorKind::TooLarge,
            _ => return None,
        };
        Some(Utf32Error { valid_up_to, kind })
    }

    /// The number of units before the first invalid one.
    #[must_use]
    pub const fn valid_up_to(&self) -> usize {
        self.valid_up_to
    }

    /// Always `Some(1)`: one invalid unit, which a lossy conversion replaces
    /// with U+FFFD. (Present for symmetry with the other input errors.)
    #[must_use]
    pub const fn error_len(&self) -> Option<usize> {
        Some(1)
    }

    /// Why the unit is invalid.
    #[must_use]
    pub const fn kind(&self) -> Utf32ErrorKind {
        self.kind
    }

    /// The same error, moved `offset` units further into a larger input
    /// (saturating).
    #[must_use]
    pub const fn offset_by(self, offset: usize) -> Utf32Error {
        Utf32Error {
            valid_up_to: self.valid_up_to.saturating_add(offset),
            ..self
        }
    }
}

impl fmt::Display for Utf32Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "invalid utf-32: {} at index {}",
            self.kind, self.valid_up_to
        )
    }
}

impl core::error::Error for Utf32Error {}

/// Why a conversion into a caller's buffer stopped early. See [`Error`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ErrorKind<E> {
    /// The input is not well-formed at [`Error::read`]: a
    /// [`Utf8Error`](codec_core::Utf8Error),
    /// [`Utf16Error`] or [`Utf32Error`], whose `valid_up_to` equals
    /// `read`.
    Invalid(E),
    /// Only from conversions *to* Latin-1: the character at
    /// [`Error::read`], which is well-formed, is above U+00FF.
    NotLatin1(char),
    /// The output buffer cannot hold the whole conversion. `needed` is the
    /// length the output must have to convert the input up to its first
    /// error (all of it, if it is well-formed), counted like the output:
    /// bytes for UTF-8, Latin-1 and byte-order UTF-16, `u16`s and `u32`s for
    /// native UTF-16 and UTF-32.
    BufferTooSmall(BufferTooSmall),
}

/// A conversion that stopped early, with how far it got.
///
/// On any error, the first [`written`](Error::written) units of the output
/// hold exactly the conversion of the first [`read`](Error::read) units of
/// the input, `read` is at a character boundary, and nothing past `written`
/// was changed. For [`ErrorKind::Invalid`] and [`ErrorKind::NotLatin1`],
/// `read` is the position of the offending character.
///
/// ```
/// use transcode::ErrorKind;
///
/// let mut out = [0u16; 8];
/// let err = transcode::utf8_to_utf16(b"ab\xFFc", &mut out).unwrap_err();
/// assert_eq!((err.read(), err.written()), (2, 2));
/// assert_eq!(&out[..2], &[0x61, 0x62]);
/// let ErrorKind::Invalid(e) = err.kind() else { unreachable!() };
/// assert_eq!((e.valid_up_to(), e.error_len()), (2, Some(1)));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Error<E> {
    read: usize,
    written: usize,
    kind: ErrorKind<E>,
}

impl<E> Error<E> {
    pub(crate) const fn new(read: usize, written: usize, kind: ErrorKind<E>) -> Error<E> {
        Error {
            read,
            written,
            kind,
        }
    }

    /// Input units converted (bytes for UTF-8, Latin-1 and byte-order UTF-16
    /// input; `u16`s or `u32`s otherwise).
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
    pub const fn kind(&self) -> &ErrorKind<E> {
        &self.kind
    }

    /// The input error, if that is what stopped the conversion.
    #[must_use]
    pub const fn invalid(&self) -> Option<&E> {
        match &self.kind {
            ErrorKind::Invalid(e) => Some(e),
            _ => None,
        }
    }

    /// The buffer error, if that is what stopped the conversion.
    #[must_use]
    pub const fn buffer_too_small(&self) -> Option<BufferTooSmall> {
        match self.kind {
            ErrorKind::BufferTooSmall(b) => Some(b),
            _ => None,
        }
    }

    /// The same error with the output counted in units of `scale` bytes
    /// reported in bytes, and `available` bytes of output.
    pub(crate) fn scale_output(self, scale: usize, available: usize) -> Error<E> {
        let kind = match self.kind {
            ErrorKind::BufferTooSmall(b) => {
                ErrorKind::BufferTooSmall(BufferTooSmall::new(b.needed() * scale, available))
            }
            other => other,
        };
        Error {
            read: self.read,
            written: self.written * scale,
            kind,
        }
    }
}

impl Error<Utf16Error> {
    /// The same error for an input that had `skipped` more bytes in front
    /// (a stripped byte-order mark) and was counted in bytes.
    pub(crate) fn after_bom(self, skipped: usize) -> Error<Utf16Error> {
        let kind = match self.kind {
            ErrorKind::Invalid(e) => ErrorKind::Invalid(e.offset_by(skipped / 2).in_bytes()),
            ErrorKind::NotLatin1(c) => ErrorKind::NotLatin1(c),
            ErrorKind::BufferTooSmall(b) => ErrorKind::BufferTooSmall(b),
        };
        Error {
            read: self.read + skipped,
            written: self.written,
            kind,
        }
    }
}

impl<E: fmt::Display> fmt::Display for Error<E> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.kind {
            ErrorKind::Invalid(e) => e.fmt(f),
            ErrorKind::NotLatin1(c) => write!(
                f,
                "U+{:04X} at input index {} is not in Latin-1",
                u32::from(*c),
                self.read
            ),
            ErrorKind::BufferTooSmall(b) => write!(
                f,
                "output buffer too small: need {} units, have {}",
                b.needed(),
                b.available()
            ),
        }
    }
}

impl<E: fmt::Debug + fmt::Display> core::error::Error for Error<E> {}

/// How far a bounded ("convert what fits") conversion got: the first
/// [`written`](Progress::written) units of the output hold the conversion of
/// the first [`read`](Progress::read) units of the input, which end at a
/// character boundary.
///
/// `read() < input length` means the output had no room for the next
/// character.
///
/// ```
/// let mut out = [0u16; 3];
/// let p = transcode::utf8_to_utf16_partial("a😀b".as_bytes(), &mut out).unwrap();
/// // 'a' and the surrogate pair fit, 'b' does not.
/// assert_eq!((p.read(), p.written()), (5, 3));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[must_use = "the progress says how much of the output is valid"]
pub struct Progress {
    read: usize,
    written: usize,
}

impl Progress {
    /// Progress of `read` input units and `written` output units.
    pub const fn new(read: usize, written: usize) -> Progress {
        Progress { read, written }
    }

    /// Input units converted.
    #[must_use]
    pub const fn read(&self) -> usize {
        self.read
    }

    /// Output units written.
    #[must_use]
    pub const fn written(&self) -> usize {
        self.written
    }
}
