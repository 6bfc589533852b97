//! The varint error vocabulary: [`DecodeError`] and [`BufferTooSmall`].

use core::fmt;

/// Why a varint could not be decoded.
///
/// The rules are those of protobuf (protowire, prost) and Go's
/// `encoding/binary`. For a type with `MAX_LEN` bytes at most (u16: 3,
/// u32: 5, u64: 10, u128: 19), the decoder reads at most `MAX_LEN` bytes and
/// stops at the first byte whose continuation bit (`0x80`) is clear.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum DecodeError {
    /// The input ended before the terminating byte: it is empty, or every one
    /// of its bytes (fewer than `MAX_LEN`) has the continuation bit set.
    /// More input could complete the value.
    Truncated,
    /// The value does not fit the type: the `MAX_LEN`-th byte still has the
    /// continuation bit set, or it carries bits above the type's width (for
    /// u64, a 10th byte above `0x01`; u32, a 5th above `0x0F`; u16, a 3rd
    /// above `0x03`; u128, a 19th above `0x03`). No more input can fix it.
    Overflow,
    /// Only from strict decoding: the value is well-formed but not in its
    /// shortest form, because a multi-byte encoding ends in `0x00`
    /// (`80 00` for 0). Lenient decoding accepts such input, as every
    /// protobuf runtime does.
    NonCanonical,
    /// The first byte is a prefix the format reserves and no conforming
    /// encoder writes: CBOR's additional information 28 to 30 (and the
    /// two-byte simple values below 32), MessagePack's `0xC1`. No more input
    /// can fix it.
    Reserved,
    /// The first byte starts something that is not an integer of the
    /// format: a MessagePack `nil`, string or float; a CBOR head with
    /// additional information 31 (an indefinite length, or the "break"
    /// byte), which carries no argument.
    NotAnInteger,
}

impl DecodeError {
    /// A short English description, as used by `Display`.
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            DecodeError::Truncated => "varint truncated: input ended before its last byte",
            DecodeError::Overflow => "varint overflows the target integer type",
            DecodeError::NonCanonical => "varint is not in its shortest (canonical) form",
            DecodeError::Reserved => "varint starts with a byte its format reserves",
            DecodeError::NotAnInteger => "the first byte does not start an integer of this format",
        }
    }
}

impl fmt::Display for DecodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl core::error::Error for DecodeError {}

/// An output buffer was too small for what an encoder had to write.
///
/// ```
/// let e = codec_core::BufferTooSmall::new(10, 4);
/// assert_eq!(e.to_string(), "output buffer too small: need 10 bytes, have 4");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct BufferTooSmall {
    needed: usize,
    available: usize,
}

impl BufferTooSmall {
    /// An error for an encoding of `needed` bytes into `available` bytes.
    #[must_use]
    pub const fn new(needed: usize, available: usize) -> BufferTooSmall {
        BufferTooSmall { needed, available }
    }

    /// How many bytes the encoding takes.
    #[must_use]
    pub const fn needed(&self) -> usize {
        self.needed
    }

    /// How many bytes the buffer had.
    #[must_use]
    pub const fn available(&self) -> usize {
        self.available
    }
}

impl fmt::Display for BufferTooSmall {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "output buffer too small: need {} bytes, have {}",
            self.needed, self.available
        )
    }
}

impl core::error::Error for BufferTooSmall {}
