//! [`ByteOrder`]: how the `_bytes` forms read UTF-16 held in bytes.

use crate::error::{Error, ErrorKind, Utf16Error, Utf16ErrorKind};
use codec_core::{BomMode, Endianness};

/// The byte order of UTF-16 held in bytes, and what to do with a byte-order
/// mark of that order at the start: strip it (the default, as encoding_rs
/// and iconv's `UTF-16` do), keep it as U+FEFF (as std's
/// `String::from_utf16le` does), or reject it.
///
/// Every decoding `_bytes` form takes `impl Into<ByteOrder>`, so an
/// [`Endianness`] alone means "strip".
///
/// ```
/// use transcode::{BomMode, ByteOrder, Endianness};
///
/// let file = b"\xFF\xFEh\x00i\x00";
/// assert_eq!(transcode::utf16_bytes_to_string(file, Endianness::Little).as_deref(), Ok("hi"));
/// let keep = ByteOrder::new(Endianness::Little, BomMode::Keep);
/// assert_eq!(transcode::utf16_bytes_to_string(file, keep).as_deref(), Ok("\u{FEFF}hi"));
/// let reject = ByteOrder::new(Endianness::Little, BomMode::Reject);
/// assert!(transcode::utf16_bytes_to_string(file, reject).is_err());
/// ```
///
/// Only the mark of the given order is one: `FE FF` read as little-endian
/// is U+FFFE, a noncharacter that stays. [`Bom::detect`](codec_core::Bom::detect)
/// finds the order of a file that has a mark.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ByteOrder {
    /// Which byte of a code unit comes first.
    pub order: Endianness,
    /// What a byte-order mark at the start becomes.
    pub bom: BomMode,
}

impl ByteOrder {
    /// `order`, with `bom` for a byte-order mark at the start.
    #[must_use]
    pub const fn new(order: Endianness, bom: BomMode) -> ByteOrder {
        ByteOrder { order, bom }
    }

    /// What the start of `src` is: a mark to skip, a rejected mark, or text.
    pub(crate) fn lead(self, src: &[u8]) -> Lead {
        if !src.starts_with(self.order.utf16_bom().as_bytes()) {
            return Lead::Text;
        }
        match self.bom {
            BomMode::Strip => Lead::Skip(2),
            BomMode::Keep => Lead::Text,
            BomMode::Reject => Lead::Rejected,
        }
    }
}

impl From<Endianness> for ByteOrder {
    /// `order`, stripping a byte-order mark.
    fn from(order: Endianness) -> ByteOrder {
        ByteOrder::new(order, BomMode::Strip)
    }
}

/// The start of UTF-16 bytes, as a [`ByteOrder`] reads it.
#[derive(Clone, Copy)]
pub(crate) enum Lead {
    /// Convert from here (after `n` bytes of a stripped mark).
    Skip(usize),
    /// Convert from the start.
    Text,
    /// A mark that [`BomMode::Reject`] refuses: an error, or U+FFFD.
    Rejected,
}

impl Lead {
    /// The bytes before the text.
    pub(crate) const fn skipped(self) -> usize {
        match self {
            Lead::Skip(n) => n,
            Lead::Text | Lead::Rejected => 0,
        }
    }
}

/// The error of a rejected mark.
pub(crate) const fn rejected() -> Utf16Error {
    Utf16Error::new(0, Utf16ErrorKind::ByteOrderMark).in_bytes()
}

/// The same, as a conversion error.
pub(crate) const fn rejected_conversion() -> Error<Utf16Error> {
    Error::new(0, 0, ErrorKind::Invalid(rejected()))
}
