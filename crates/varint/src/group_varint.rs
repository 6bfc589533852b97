//! Group Varint (Jeff Dean, "Challenges in Building Large-Scale Information
//! Retrieval Systems", WSDM 2009; the layout of Folly's `GroupVarint32`)
//! for `u32`: groups of four values, each group one tag byte with the four
//! lengths, then the four values' bytes.
//!
//! # Format
//!
//! `n` values (the count is not stored: the caller keeps it) are
//! `ceil(n / 4)` groups, one after the other:
//!
//! ```text
//! [ tag ][ value 0: 1–4 bytes ][ value 1 ][ value 2 ][ value 3 ]  [ tag ] …
//! ```
//!
//! - The tag holds four 2-bit fields, the first value's in the low bits;
//!   field `f` means the value takes `f + 1` bytes, the fewest that hold it.
//! - Each value's bytes are little-endian, with nothing between values.
//! - **The tail.** When `n` is not a multiple of 4, the last group holds
//!   the `n % 4` remaining values only: its tag's fields for absent values
//!   are written as 0 and ignored when decoding, and no bytes follow for
//!   them. This is what Folly's `GroupVarintEncoder::finish` writes (it
//!   encodes the last group padded with zeros and keeps its
//!   `partialSize`: the tag and the present values' bytes).
//!
//! The decoder accepts any length a field allows (a value written in more
//! bytes than it needs decodes to that value), as Folly's does.
//!
//! # Example
//!
//! ```
//! use varint::group_varint;
//! use varint::streamvbyte::Error;
//!
//! let values = [1, 300, 70_000, 1 << 30, 5];
//! let bytes = group_varint::encode_to_vec(&values);
//! // Tag 0xE4 (1, 2, 3 and 4 bytes), the four values; then a group of one:
//! // tag 0x00, the byte 05.
//! assert_eq!(
//!     bytes,
//!     [0xE4, 0x01, 0x2C, 0x01, 0x70, 0x11, 0x01, 0x00, 0x00, 0x00, 0x40, 0x00, 0x05]
//! );
//! let mut out = [0u32; 5];
//! assert_eq!(group_varint::decode(&bytes, 5, &mut out), Ok(bytes.len()));
//! assert_eq!(out, values);
//!
//! // Cut inside the fourth value: an error there, the three before decoded.
//! let err = group_varint::decode(&bytes[..9], 5, &mut out);
//! assert_eq!(err, Err(Error::Truncated { index: 3, offset: 7, needed: 4 }));
//! ```
//!
//! # Exactness
//!
//! As [Stream VByte's](crate::streamvbyte#exactness): no read outside the
//! input, [`Error::Truncated`] at the first value (or tag) that is not all
//! there, with the values before it in the output and nothing after them
//! written.
//!
//! # Performance
//!
//! Whole groups are decoded and encoded by the kernels of
//! [`shuffle_kernels`](crate::shuffle_kernels): one 16-byte load, shuffle
//! and store per group, while 17 bytes remain. Unlike Stream VByte, the
//! position of each tag depends on the tag before it, so the groups are
//! decoded one after the other (a tag of 0, four one-byte values, moves on
//! by a predicted branch instead of a table load, so runs of small values
//! overlap). On an Intel Xeon (Sapphire Rapids-class) that is 2.4–3.1× our LEB128 bulk
//! decoding of the same values (`docs/results/varint.md`).

use codec_core::BufferTooSmall;

use crate::arch::shuffle::ShuffleCodec;
pub use crate::streamvbyte::{Error, max_compressed_len};

#[cfg(feature = "alloc")]
use alloc::vec::Vec;

/// The byte length of `v`: 1 to 4.
#[inline(always)]
fn len_of(v: u32) -> usize {
    4 - (v | 1).leading_zeros() as usize / 8
}

/// A Group Varint codec running one kernel; [`GroupVarint::new`] (and the
/// free functions of this module) use the best one for this CPU.
#[derive(Clone, Copy, Debug, Default)]
pub struct GroupVarint {
    codec: ShuffleCodec,
}

impl GroupVarint {
    /// With the dispatched kernel.
    #[must_use]
    pub fn new() -> Self {
        GroupVarint {
            codec: ShuffleCodec::new(),
        }
    }

    /// Running the given kernel (every kernel gives the same answers).
    #[must_use]
    pub const fn with_codec(codec: ShuffleCodec) -> Self {
        GroupVarint { codec }
    }

    /// The length of the encoding of `values`.
    #[must_use]
    pub fn encoded_len(&self, values: &[u32]) -> usize {
        values.len().div_ceil(4) + values.iter().map(|&v| len_of(v)).sum::<usize>()
    }

    /// Encodes `values` into the start of `out`; returns the bytes written.
    ///
    /// # Panics
    ///
    /// If `out` is shorter than the encoding ([`max_compressed_len`] is
    /// always enough); nothing is written then.
    #[must_use = "the encoding is the start of `out`, this many bytes"]
    pub fn encode(&self, values: &[u32], out: &mut [u8]) -> usize {
        match self.try_encode(values, out) {
            Ok(n) => n,
            Err(e) => crate::streamvbyte::too_small(e),
        }
    }

    /// Like [`encode`](Self::encode), but returns an error (having written
    /// nothing) when `out` is shorter than the encoding.
    pub fn try_encode(&self, values: &[u32], out: &mut [u8]) -> Result<usize, BufferTooSmall> {
        if out.len() < max_compressed_len(values.len()) {
            let needed = self.encoded_len(values);
            if out.len() < needed {
                return Err(BufferTooSmall::new(needed, out.len()));
            }
        }
        let (groups, mut pos) = self.codec.gv_encode(values, out);
        for group in values[4 * groups..].chunks(4) {
            let tag_at = pos;
            let mut tag = 0;
            pos += 1;
            for (i, &v) in group.iter().enumerate() {
                let len = len_of(v);
                tag |= ((len - 1) as u8) << (2 * i);
                out[pos..pos + len].copy_from_slice(&v.to_le_bytes()[..len]);
                pos += len;
            }
            out[tag_at] = tag;
        }
        Ok(pos)
    }

    /// Decodes `count` values from the start of `input` into
    /// `out[..count]`; returns the bytes read.
    ///
    /// # Errors
    ///
    /// [`Error::OutputTooSmall`] if `out` holds fewer than `count` values,
    /// [`Error::Truncated`] at the first value (or tag byte) that is not
    /// all there (the values before it are in `out`).
    pub fn decode(&self, input: &[u8], count: usize, out: &mut [u32]) -> Result<usize, Error> {
        let Some(out) = out.get_mut(..count) else {
            return Err(Error::OutputTooSmall {
                needed: count,
                available: out.len(),
            });
        };
        let whole = count / 4 * 4;
        let (groups, mut pos) = self.codec.gv_decode(input, &mut out[..whole]);
        let mut i = 4 * groups;
        while i < count {
            let Some(&tag) = input.get(pos) else {
                return Err(Error::Truncated {
                    index: i,
                    offset: pos,
                    needed: 1,
                });
            };
            pos += 1;
            for k in 0..(count - i).min(4) {
                let len = usize::from((tag >> (2 * k)) & 3) + 1;
                let Some(bytes) = input.get(pos..pos + len) else {
                    return Err(Error::Truncated {
                        index: i + k,
                        offset: pos,
                        needed: len,
                    });
                };
                let mut word = [0u8; 4];
                word[..len].copy_from_slice(bytes);
                out[i + k] = u32::from_le_bytes(word);
                pos += len;
            }
            i += 4;
        }
        Ok(pos)
    }

    /// The encoding of `values` in a new `Vec`.
    #[cfg(feature = "alloc")]
    #[must_use]
    pub fn encode_to_vec(&self, values: &[u32]) -> Vec<u8> {
        let mut out = Vec::new();
        self.encode_into_vec(values, &mut out);
        out
    }

    /// Appends the encoding of `values` to `out`; returns its length.
    #[cfg(feature = "alloc")]
    pub fn encode_into_vec(&self, values: &[u32], out: &mut Vec<u8>) -> usize {
        let start = out.len();
        out.resize(start + max_compressed_len(values.len()), 0);
        let n = self.encode(values, &mut out[start..]);
        out.truncate(start + n);
        n
    }

    /// `count` values decoded from the start of `input`, in a new `Vec`.
    ///
    /// # Errors
    ///
    /// As [`decode`](Self::decode) (never `OutputTooSmall`).
    #[cfg(feature = "alloc")]
    pub fn decode_to_vec(&self, input: &[u8], count: usize) -> Result<Vec<u32>, Error> {
        let mut out = Vec::new();
        self.decode_into_vec(input, count, &mut out)?;
        Ok(out)
    }

    /// Appends `count` values decoded from the start of `input` to `out`;
    /// returns the bytes read. On error, `out` has the values decoded
    /// before it appended.
    ///
    /// # Errors
    ///
    /// As [`decode`](Self::decode) (never `OutputTooSmall`).
    #[cfg(feature = "alloc")]
    pub fn decode_into_vec(
        &self,
        input: &[u8],
        count: usize,
        out: &mut Vec<u32>,
    ) -> Result<usize, Error> {
        let start = out.len();
        // Every value takes at least one byte and every group a tag: the
        // input holds at most `4 * len / 5 + 1` of them, which bounds the
        // allocation whatever `count` says.
        let room = count.min(input.len() / 5 * 4 + 4);
        out.resize(start + room, 0);
        let r = if room < count {
            // Too many for the input: decode the values that fit in `room`
            // and report where the input runs out.
            self.decode_prefix(input, count, &mut out[start..])
        } else {
            self.decode(input, count, &mut out[start..])
        };
        match r {
            Ok(n) => Ok(n),
            Err(e) => {
                out.truncate(start + e.written());
                Err(e)
            }
        }
    }

    /// Decodes the first `out.len()` of `count` values (a multiple of 4,
    /// fewer than `count`) and then reports the error the full decode
    /// would: the input ends before `count` values.
    #[cfg(feature = "alloc")]
    fn decode_prefix(&self, input: &[u8], count: usize, out: &mut [u32]) -> Result<usize, Error> {
        let n = out.len();
        let pos = self.decode(input, n, out)?;
        // The groups after the `n` values: the first missing byte.
        let mut tail = [0u32; 4];
        let mut at = pos;
        let mut index = n;
        while index < count {
            let k = (count - index).min(4);
            match self.decode(&input[at..], k, &mut tail) {
                Ok(used) => {
                    at += used;
                    index += k;
                }
                Err(Error::Truncated {
                    index: i,
                    offset,
                    needed,
                }) => {
                    return Err(Error::Truncated {
                        index: index + i,
                        offset: at + offset,
                        needed,
                    });
                }
                Err(e) => return Err(e),
            }
        }
        Ok(at)
    }
}

/// [`GroupVarint::encode`] with the dispatched kernel.
///
/// # Panics
///
/// If `out` is shorter than the encoding ([`max_compressed_len`] is always
/// enough).
#[must_use = "the encoding is the start of `out`, this many bytes"]
pub fn encode(values: &[u32], out: &mut [u8]) -> usize {
    GroupVarint::new().encode(values, out)
}

/// [`GroupVarint::try_encode`] with the dispatched kernel.
///
/// # Errors
///
/// [`BufferTooSmall`] if `out` is shorter than the encoding.
pub fn try_encode(values: &[u32], out: &mut [u8]) -> Result<usize, BufferTooSmall> {
    GroupVarint::new().try_encode(values, out)
}

/// [`GroupVarint::encoded_len`].
#[must_use]
pub fn encoded_len(values: &[u32]) -> usize {
    GroupVarint::new().encoded_len(values)
}

/// [`GroupVarint::decode`] with the dispatched kernel.
///
/// # Errors
///
/// As [`GroupVarint::decode`].
pub fn decode(input: &[u8], count: usize, out: &mut [u32]) -> Result<usize, Error> {
    GroupVarint::new().decode(input, count, out)
}

/// [`GroupVarint::encode_to_vec`] with the dispatched kernel.
#[cfg(feature = "alloc")]
#[must_use]
pub fn encode_to_vec(values: &[u32]) -> Vec<u8> {
    GroupVarint::new().encode_to_vec(values)
}

/// [`GroupVarint::encode_into_vec`] with the dispatched kernel.
#[cfg(feature = "alloc")]
pub fn encode_into_vec(values: &[u32], out: &mut Vec<u8>) -> usize {
    GroupVarint::new().encode_into_vec(values, out)
}

/// [`GroupVarint::decode_to_vec`] with the dispatched kernel.
///
/// # Errors
///
/// As [`GroupVarint::decode`].
#[cfg(feature = "alloc")]
pub fn decode_to_vec(input: &[u8], count: usize) -> Result<Vec<u32>, Error> {
    GroupVarint::new().decode_to_vec(input, count)
}

/// [`GroupVarint::decode_into_vec`] with the dispatched kernel.
///
/// # Errors
///
/// As [`GroupVarint::decode`].
#[cfg(feature = "alloc")]
pub fn decode_into_vec(input: &[u8], count: usize, out: &mut Vec<u32>) -> Result<usize, Error> {
    GroupVarint::new().decode_into_vec(input, count, out)
}
