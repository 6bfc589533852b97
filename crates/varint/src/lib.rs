//! LEB128 / protobuf base-128 varints.
//!
//! **Placeholder** for u64 only; the full crate (every width, strict mode,
//! bulk decoding, `std::io`) lands with its own issue.
//!
//! # Example
//!
//! ```
//! let mut buf = [0u8; 10];
//! let n = varint::encode(300, &mut buf);
//! assert_eq!(&buf[..n], &[0xAC, 0x02]);
//! assert_eq!(varint::decode(&buf[..n]), Ok((300, 2)));
//! ```
//!
//! # Crate features
//!
//! - `std` (default), `alloc`: forwarded to codec-core.
#![no_std]
#![forbid(unsafe_code)]

pub use codec_core::DecodeError;

/// Writes `value` into `buf` and returns the number of bytes written.
///
/// # Panics
///
/// If `buf` is shorter than the encoding (at most 10 bytes).
pub fn encode(mut value: u64, buf: &mut [u8]) -> usize {
    let mut i = 0;
    while value >= 0x80 {
        buf[i] = value as u8 | 0x80;
        value >>= 7;
        i += 1;
    }
    buf[i] = value as u8;
    i + 1
}

/// Reads one u64 varint from the start of `buf`: the value and its length.
pub fn decode(buf: &[u8]) -> Result<(u64, usize), DecodeError> {
    let mut value = 0u64;
    for (i, &b) in buf.iter().take(10).enumerate() {
        if i == 9 && b > 1 {
            return Err(DecodeError::Overflow);
        }
        value |= u64::from(b & 0x7F) << (7 * i);
        if b < 0x80 {
            return Ok((value, i + 1));
        }
    }
    Err(if buf.len() >= 10 {
        DecodeError::Overflow
    } else {
        DecodeError::Truncated
    })
}
