//! Stream VByte (Lemire, Kurz, Rupp 2018) for `u32`: the lengths of four
//! values in one control byte, the control bytes of the whole stream
//! first, then the values' bytes, so a SIMD decoder moves each group of
//! four into place with one table-driven shuffle.
//!
//! # Format
//!
//! `n` values (the count is not stored: the caller keeps it, as in the
//! paper's format and its reference code) take
//!
//! ```text
//! [ control stream: ceil(n / 4) bytes ][ data stream: the values' bytes ]
//! ```
//!
//! - Control byte `k` describes values `4k..4k + 4`: value `4k + i` has the
//!   2-bit code in bits `2i..2i + 2` (the first value in the low bits).
//!   Codes past the last value of a final partial group are written as 0
//!   and ignored when decoding (as the reference code does).
//! - The standard layout ([`Layout::Standard`], "1234"): code `c` means the
//!   value takes `c + 1` bytes, the fewest that hold it (0 takes 1 byte).
//!   The `0124` layout ([`Layout::Zero124`], for data with many zeros):
//!   codes 0, 1, 2, 3 mean 0, 1, 2 and 4 bytes; 0 takes no data at all.
//! - The data stream holds each value's bytes, little-endian, in order,
//!   with nothing between values.
//!
//! The decoder accepts any length a code allows (a value written in more
//! bytes than it needs decodes to that value), as the reference does.
//!
//! Two options change the values, not the layout: **zigzag** stores each
//! `u32` as the zigzag code of the `i32` with the same bits (`0, -1, 1, -2`
//! → `0, 1, 2, 3`), and **delta** stores each value minus the one before
//! it (wrapping; the first minus 0), the differential coding ("d1") of
//! sorted lists. With both, the difference is zigzagged.
//!
//! # Example
//!
//! ```
//! use varint::streamvbyte::{self, Error, Layout, StreamVByte};
//!
//! let values = [1, 300, 70_000, 1 << 30, 5];
//! let bytes = streamvbyte::encode_to_vec(&values);
//! // Codes 0, 1, 2, 3 (1–4 bytes) in 0xE4, code 0 for the fifth value;
//! // then 01 | 2C 01 | 70 11 01 | 00 00 00 40 | 05.
//! assert_eq!(
//!     bytes,
//!     [0xE4, 0x00, 0x01, 0x2C, 0x01, 0x70, 0x11, 0x01, 0x00, 0x00, 0x00, 0x40, 0x05]
//! );
//! let mut out = [0u32; 5];
//! assert_eq!(streamvbyte::decode(&bytes, 5, &mut out), Ok(bytes.len()));
//! assert_eq!(out, values);
//!
//! // A control stream that promises more data than there is: an error at
//! // the value and byte where it happens; values before it are decoded.
//! let err = streamvbyte::decode(&bytes[..9], 5, &mut out);
//! assert_eq!(err, Err(Error::Truncated { index: 3, offset: 8, needed: 4 }));
//!
//! // The 0124 layout: a zero takes no data byte.
//! let zero124 = StreamVByte::new().layout(Layout::Zero124);
//! let bytes = zero124.encode_to_vec(&[0, 1, 300, 70_000, 5]);
//! assert_eq!(bytes, [0xE4, 0x01, 0x01, 0x2C, 0x01, 0x70, 0x11, 0x01, 0x00, 0x05]);
//!
//! // Sorted values with delta coding, signed ones with zigzag.
//! let sorted = StreamVByte::new().delta(true);
//! let bytes = sorted.encode_to_vec(&[1000, 1001, 1003, 1010]);
//! assert_eq!(bytes, [0x01, 0xE8, 0x03, 0x01, 0x02, 0x07]);
//! assert_eq!(sorted.decode_to_vec(&bytes, 4), Ok(vec![1000, 1001, 1003, 1010]));
//! let signed = StreamVByte::new().zigzag(true);
//! let bytes = signed.encode_to_vec(&[-1i32 as u32, 1, -2i32 as u32]);
//! assert_eq!(bytes, [0x00, 0x01, 0x02, 0x03]);
//! ```
//!
//! # Exactness
//!
//! Decoding never reads outside `input` and never writes past `count`
//! values: an input shorter than the control stream is
//! [`Error::ControlTruncated`], a value whose bytes run past the end is
//! [`Error::Truncated`] with its index and offset, and `out[..index]` then
//! holds the values before it while nothing at or after `index` is
//! written. Encoding writes exactly the returned number of bytes.
//!
//! # Performance
//!
//! Decoding and encoding of whole groups run a SIMD kernel chosen at run
//! time ([`shuffle_kernels`](crate::shuffle_kernels): SSE4.1 or AVX2 on
//! x86-64, NEON on aarch64): one 16-byte load, one shuffle and one 16-byte
//! store per four values, eight groups a step from one 8-byte load of
//! control bytes, and eight groups of one-byte values (a zero control word)
//! widened without shuffles. The kernels load 16 bytes only while 16
//! remain and leave the last groups to the scalar code. The `0124` layout
//! encodes with the scalar code (the kernel's store relies on each value
//! taking a byte); it decodes with the kernels. On an Intel Xeon (Sapphire Rapids-class),
//! 8–12 billion values a second from L1, 1.4–2.1× the fastest of the
//! `stream-vbyte` and `svb` crates; encoding 1.35–1.5×
//! (`docs/results/varint.md`).
//!
//! # References
//!
//! Daniel Lemire, Nathan Kurz, Christoph Rupp, "Stream VByte: Faster
//! Byte-Oriented Integer Compression", Information Processing Letters 130,
//! 2018 (arXiv:1709.08990); the `0124` layout is that of the reference C
//! library's `streamvbyte_encode_0124`.

use core::fmt;

use codec_core::BufferTooSmall;

use crate::arch::shuffle::ShuffleCodec;

#[cfg(feature = "alloc")]
use alloc::vec::Vec;

/// How the 2-bit codes map to byte lengths.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Layout {
    /// Codes 0–3 mean 1–4 bytes: the paper's format.
    #[default]
    Standard,
    /// Codes 0–3 mean 0, 1, 2 and 4 bytes: zeros take no data.
    Zero124,
}

/// Why a Stream VByte or Group Varint stream could not be decoded.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Error {
    /// The input is shorter than the control stream of the values asked
    /// for: `needed` control bytes, `available` input bytes. Nothing was
    /// decoded. (Stream VByte only.)
    ControlTruncated {
        /// Control bytes of `count` values.
        needed: usize,
        /// The input's length.
        available: usize,
    },
    /// Value `index` needs `needed` bytes at input offset `offset` (for
    /// Group Varint, `needed` is 1 when the group's tag byte is missing),
    /// and the input ends first. `out[..index]` holds the values before
    /// it; nothing after them was written.
    Truncated {
        /// The index of the value that could not be decoded.
        index: usize,
        /// The input offset of its bytes (or of its group's tag byte).
        offset: usize,
        /// How many bytes its code says it takes (or 1 for a tag byte).
        needed: usize,
    },
    /// The output holds fewer values than asked for. Nothing was decoded.
    OutputTooSmall {
        /// The count asked for.
        needed: usize,
        /// The output's length.
        available: usize,
    },
}

impl Error {
    /// How many values were decoded into the output before the error: the
    /// index of [`Error::Truncated`], else 0.
    #[must_use]
    pub const fn written(&self) -> usize {
        match *self {
            Error::Truncated { index, .. } => index,
            Error::ControlTruncated { .. } | Error::OutputTooSmall { .. } => 0,
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Error::ControlTruncated { needed, available } => write!(
                f,
                "input of {available} bytes is shorter than its control stream of {needed} bytes"
            ),
            Error::Truncated {
                index,
                offset,
                needed,
            } => write!(
                f,
                "value {index} needs {needed} bytes at offset {offset}, past the end of the input"
            ),
            Error::OutputTooSmall { needed, available } => write!(
                f,
                "output of {available} values cannot hold the {needed} values asked for"
            ),
        }
    }
}

impl core::error::Error for Error {}

/// The most bytes `n` values can take, in either layout and in Group
/// Varint: `ceil(n / 4)` control bytes and 4 bytes a value (saturating at
/// `usize::MAX`).
#[must_use]
pub const fn max_compressed_len(n: usize) -> usize {
    n.saturating_mul(4).saturating_add(n.div_ceil(4))
}

/// The code and byte length of one (transformed) value.
#[inline(always)]
fn code_of(x: u32, zero124: bool) -> (u8, usize) {
    if zero124 {
        match x {
            0 => (0, 0),
            1..=0xFF => (1, 1),
            0x100..=0xFFFF => (2, 2),
            _ => (3, 4),
        }
    } else {
        let bytes = 4 - (x | 1).leading_zeros() as usize / 8;
        ((bytes - 1) as u8, bytes)
    }
}

/// The byte length of each code.
#[inline(always)]
const fn lengths(zero124: bool) -> [usize; 4] {
    if zero124 { [0, 1, 2, 4] } else { [1, 2, 3, 4] }
}

/// A Stream VByte codec: the layout, the zigzag and delta options, and the
/// kernel. [`StreamVByte::new`] is the standard layout with neither option
/// and the best kernel for this CPU, which the free functions of this
/// module use.
#[derive(Clone, Copy, Debug)]
pub struct StreamVByte {
    layout: Layout,
    zigzag: bool,
    delta: bool,
    codec: ShuffleCodec,
}

impl Default for StreamVByte {
    fn default() -> Self {
        Self::new()
    }
}

impl StreamVByte {
    /// The standard layout, no zigzag, no delta, the dispatched kernel.
    #[must_use]
    pub fn new() -> Self {
        StreamVByte {
            layout: Layout::Standard,
            zigzag: false,
            delta: false,
            codec: ShuffleCodec::new(),
        }
    }

    /// With the given layout.
    #[must_use]
    pub const fn layout(mut self, layout: Layout) -> Self {
        self.layout = layout;
        self
    }

    /// With or without zigzag coding of each value (or difference).
    #[must_use]
    pub const fn zigzag(mut self, on: bool) -> Self {
        self.zigzag = on;
        self
    }

    /// With or without delta (differential) coding, starting from 0.
    #[must_use]
    pub const fn delta(mut self, on: bool) -> Self {
        self.delta = on;
        self
    }

    /// Running the given kernel (for tests and benchmarks: every kernel
    /// gives the same answers).
    #[must_use]
    pub const fn with_codec(mut self, codec: ShuffleCodec) -> Self {
        self.codec = codec;
        self
    }

    /// The index of this configuration's kernel entry point.
    fn mode(&self) -> usize {
        4 * usize::from(self.layout == Layout::Zero124)
            + 2 * usize::from(self.zigzag)
            + usize::from(self.delta)
    }

    /// The stored form of `v`, advancing the delta state.
    #[inline(always)]
    fn forward(&self, v: u32, prev: &mut u32) -> u32 {
        let mut x = v;
        if self.delta {
            x = v.wrapping_sub(*prev);
            *prev = v;
        }
        if self.zigzag {
            x = (x << 1) ^ ((x as i32 >> 31) as u32);
        }
        x
    }

    /// The value of stored form `x`, advancing the delta state.
    #[inline(always)]
    fn backward(&self, x: u32, prev: &mut u32) -> u32 {
        let mut v = x;
        if self.zigzag {
            v = (x >> 1) ^ (x & 1).wrapping_neg();
        }
        if self.delta {
            v = v.wrapping_add(*prev);
            *prev = v;
        }
        v
    }

    /// The length of the encoding of `values`.
    #[must_use]
    pub fn encoded_len(&self, values: &[u32]) -> usize {
        let zero124 = self.layout == Layout::Zero124;
        let mut prev = 0;
        let data: usize = values
            .iter()
            .map(|&v| code_of(self.forward(v, &mut prev), zero124).1)
            .sum();
        values.len().div_ceil(4) + data
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
            Err(e) => too_small(e),
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
        let n_ctrl = values.len().div_ceil(4);
        let (ctrl, data) = out.split_at_mut(n_ctrl);
        let zero124 = self.layout == Layout::Zero124;
        let (groups, mut pos, mut prev) = if zero124 {
            (0, 0, 0)
        } else {
            self.codec.svb_encode(self.mode(), values, ctrl, data, 0)
        };
        for (i, &v) in values.iter().enumerate().skip(4 * groups) {
            let x = self.forward(v, &mut prev);
            let (code, len) = code_of(x, zero124);
            if i % 4 == 0 {
                ctrl[i / 4] = 0;
            }
            ctrl[i / 4] |= code << (2 * (i % 4));
            data[pos..pos + len].copy_from_slice(&x.to_le_bytes()[..len]);
            pos += len;
        }
        Ok(n_ctrl + pos)
    }

    /// Decodes `count` values from the start of `input` into
    /// `out[..count]`; returns the bytes read (control and data).
    ///
    /// # Errors
    ///
    /// [`Error::OutputTooSmall`] if `out` holds fewer than `count` values,
    /// [`Error::ControlTruncated`] if `input` is shorter than the control
    /// stream, [`Error::Truncated`] at the first value whose bytes are not
    /// all there (the values before it are in `out`).
    pub fn decode(&self, input: &[u8], count: usize, out: &mut [u32]) -> Result<usize, Error> {
        let Some(out) = out.get_mut(..count) else {
            return Err(Error::OutputTooSmall {
                needed: count,
                available: out.len(),
            });
        };
        let n_ctrl = count.div_ceil(4);
        let Some((ctrl, data)) = input.split_at_checked(n_ctrl) else {
            return Err(Error::ControlTruncated {
                needed: n_ctrl,
                available: input.len(),
            });
        };
        let (groups, mut pos, mut prev) =
            self.codec
                .svb_decode(self.mode(), &ctrl[..count / 4], data, out, 0);
        let lens = lengths(self.layout == Layout::Zero124);
        for i in 4 * groups..count {
            let len = lens[usize::from(ctrl[i / 4] >> (2 * (i % 4))) & 3];
            let Some(bytes) = data.get(pos..pos + len) else {
                return Err(Error::Truncated {
                    index: i,
                    offset: n_ctrl + pos,
                    needed: len,
                });
            };
            let mut word = [0u8; 4];
            word[..len].copy_from_slice(bytes);
            out[i] = self.backward(u32::from_le_bytes(word), &mut prev);
            pos += len;
        }
        Ok(n_ctrl + pos)
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
        // The control stream bounds the allocation: `count` is at most 4
        // values per input byte once it is known to be there.
        let n_ctrl = count.div_ceil(4);
        if input.len() < n_ctrl {
            return Err(Error::ControlTruncated {
                needed: n_ctrl,
                available: input.len(),
            });
        }
        out.resize(start + count, 0);
        let r = self.decode(input, count, &mut out[start..]);
        finish(out, start, count, r)
    }
}

/// Cuts `out` back to `start` and the values decoded.
#[cfg(feature = "alloc")]
fn finish(
    out: &mut Vec<u32>,
    start: usize,
    count: usize,
    r: Result<usize, Error>,
) -> Result<usize, Error> {
    match r {
        Ok(n) => {
            out.truncate(start + count);
            Ok(n)
        }
        Err(e) => {
            out.truncate(start + e.written());
            Err(e)
        }
    }
}

/// The documented panic of the `encode` functions.
#[cold]
#[track_caller]
#[allow(clippy::panic)]
pub(crate) fn too_small(e: BufferTooSmall) -> ! {
    panic!("{e}")
}

/// [`StreamVByte::encode`] in the standard layout with the dispatched
/// kernel.
///
/// # Panics
///
/// If `out` is shorter than the encoding ([`max_compressed_len`] is always
/// enough).
#[must_use = "the encoding is the start of `out`, this many bytes"]
pub fn encode(values: &[u32], out: &mut [u8]) -> usize {
    StreamVByte::new().encode(values, out)
}

/// [`StreamVByte::try_encode`] in the standard layout.
///
/// # Errors
///
/// [`BufferTooSmall`] if `out` is shorter than the encoding.
pub fn try_encode(values: &[u32], out: &mut [u8]) -> Result<usize, BufferTooSmall> {
    StreamVByte::new().try_encode(values, out)
}

/// [`StreamVByte::encoded_len`] in the standard layout.
#[must_use]
pub fn encoded_len(values: &[u32]) -> usize {
    StreamVByte::new().encoded_len(values)
}

/// [`StreamVByte::decode`] in the standard layout.
///
/// # Errors
///
/// As [`StreamVByte::decode`].
pub fn decode(input: &[u8], count: usize, out: &mut [u32]) -> Result<usize, Error> {
    StreamVByte::new().decode(input, count, out)
}

/// [`StreamVByte::encode_to_vec`] in the standard layout.
#[cfg(feature = "alloc")]
#[must_use]
pub fn encode_to_vec(values: &[u32]) -> Vec<u8> {
    StreamVByte::new().encode_to_vec(values)
}

/// [`StreamVByte::encode_into_vec`] in the standard layout.
#[cfg(feature = "alloc")]
pub fn encode_into_vec(values: &[u32], out: &mut Vec<u8>) -> usize {
    StreamVByte::new().encode_into_vec(values, out)
}

/// [`StreamVByte::decode_to_vec`] in the standard layout.
///
/// # Errors
///
/// As [`StreamVByte::decode`].
#[cfg(feature = "alloc")]
pub fn decode_to_vec(input: &[u8], count: usize) -> Result<Vec<u32>, Error> {
    StreamVByte::new().decode_to_vec(input, count)
}

/// [`StreamVByte::decode_into_vec`] in the standard layout.
///
/// # Errors
///
/// As [`StreamVByte::decode`].
#[cfg(feature = "alloc")]
pub fn decode_into_vec(input: &[u8], count: usize, out: &mut Vec<u32>) -> Result<usize, Error> {
    StreamVByte::new().decode_into_vec(input, count, out)
}
