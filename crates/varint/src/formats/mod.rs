//! Every variable-length integer format real systems use, under one
//! [`Format`] trait: lenient and strict decoding with the same
//! [`DecodeError`] kinds, encoding with range checks, bulk decoding and
//! encoding, and the `std::io` and `bytes` adapters, for each.
//!
//! | format | type | bytes | range | used by |
//! |---|---|---|---|---|
//! | [`Leb128<T>`] | `T` | 1–`T::MAX_LEN` | `T` | protobuf, DWARF, WebAssembly (the crate's own functions) |
//! | [`Zigzag<S>`] | `S` | as `Leb128` | `S` | protobuf `sint32`/`sint64` |
//! | [`Sleb128<S>`] | `S` | as `Leb128` | `S` | DWARF, WebAssembly signed |
//! | [`Quic`] | `u64` | 1, 2, 4, 8 | 0 to 2^62−1 | QUIC (RFC 9000 §16) |
//! | [`Hpack<N>`] | `u64` | 1–11 | `u64` | HPACK, QPACK (RFC 7541 §5.1), `N`-bit prefix |
//! | [`Sqlite`] | `u64` | 1–9 | `u64` | SQLite 3 records and b-trees |
//! | [`Bijective`] | `u64` | 1–10 | `u64` | git pack offsets and index v4, Bitcoin Core `VARINT` |
//! | [`CompactSize`] | `u64` | 1, 3, 5, 9 | `u64` | Bitcoin (counts, script lengths) |
//! | [`CborHead`] | [`cbor::Head`] | 1, 2, 3, 5, 9 | major 0–7, `u64` | CBOR (RFC 8949 §3) |
//! | [`MsgPack`] | `i128` | 1, 2, 3, 5, 9 | −2^63 to 2^64−1 | MessagePack integers |
//! | [`Bincode`] | `u64` | 1, 3, 5, 9 | `u64` | bincode 2's `varint` integer encoding |
//! | [`Vlq`] | `u32` | 1–4 | 0 to 0x0FFF_FFFF | MIDI files (SMF delta times) |
//! | [`Prefix`] | `u64` | 1–9 | `u64` | a prefix varint: the length in the first byte's leading ones |
//!
//! Each format's page gives its rules: what strict decoding rejects, which
//! bytes are reserved, and the examples of its specification (which the
//! tests replay).
//!
//! # The contract
//!
//! For every format `F` and every input:
//!
//! - [`F::decode`](Format::decode) returns `(value, len)` with
//!   `1 <= len <= F::MAX_LEN`, having looked at no byte past `len` (a
//!   format is prefix-free, so bytes after a value never change it), or an
//!   error: [`DecodeError::Truncated`] when more input could complete the
//!   value, [`DecodeError::Overflow`] when the value does not fit the type
//!   or the format's range, and the format-specific kinds
//!   ([`DecodeError::Reserved`], [`DecodeError::NotAnInteger`]) where its
//!   page says so. It never panics and never reads outside `buf`.
//! - [`F::decode_strict`](Format::decode_strict) accepts what `decode`
//!   accepts, except encodings that are not the specification's preferred
//!   (shortest) form: [`DecodeError::NonCanonical`]. For every format here
//!   strict decoding accepts exactly the encodings whose length is
//!   [`encoded_len`](Format::encoded_len) of their value, which is what
//!   [`encode`](Format::encode) writes.
//! - [`F::try_encode`](Format::try_encode) writes the shortest encoding, or
//!   fails with [`EncodeError::OutOfRange`] (the format cannot hold the
//!   value) or [`EncodeError::BufferTooSmall`], writing nothing.
//!
//! # Example
//!
//! ```
//! use varint::formats::{Format, Quic, CompactSize, DecodeError};
//!
//! // RFC 9000, appendix A.1.
//! assert_eq!(Quic::decode(&[0x7b, 0xbd]), Ok((15293, 2)));
//! assert_eq!(Quic::decode(&[0x40, 0x25]), Ok((37, 2)));
//! assert_eq!(Quic::decode_strict(&[0x40, 0x25]), Err(DecodeError::NonCanonical));
//!
//! let mut buf = [0u8; CompactSize::MAX_LEN];
//! let n = CompactSize::encode(515, &mut buf);
//! assert_eq!(&buf[..n], [0xfd, 0x03, 0x02]);
//!
//! // Many values, one format.
//! let bytes = Quic::encode_slice_to_vec(&[1, 300, 1 << 40]).unwrap();
//! let values: Result<Vec<u64>, _> = Quic::iter(&bytes).collect();
//! assert_eq!(values.unwrap(), [1, 300, 1 << 40]);
//! ```
//!
//! # Tested against
//!
//! Each format's tests (`tests/formats*.rs`) compare it on every input of
//! one to three bytes with a small decoder written in the test from the
//! specification, round-trip random values, mutate encodings, and replay
//! the specification's examples. Six are also compared with the crates
//! their users use, chosen because they build quickly: `octets` (quiche's
//! QUIC varints), `ciborium-ll` and `minicbor` (CBOR), `rmp`
//! (MessagePack), `bincode` 2, `midly` (MIDI) and rust-bitcoin's
//! `bitcoin-consensus-encoding` (CompactSize, against strict decoding, as
//! Bitcoin rejects non-canonical forms). They agree on every input but one:
//! `ciborium-ll` reads the two-byte simple values below 32 (`F8 00`–`F8
//! 1F`), which RFC 8949 §3.3 makes not well-formed.
//! `docs/results/varint.md` ("Differentials") gives the details, and why
//! `quinn-proto` was left out (its build pulls in ring).

mod bijective;
mod bincode;
pub mod cbor;
mod compactsize;
mod explain;
mod hpack;
mod integer;
mod leb;
mod msgpack;
mod prefix;
mod quic;
mod sqlite;
mod vlq;

#[cfg(feature = "bytes")]
mod buf;
#[cfg(feature = "std")]
mod io;
#[cfg(feature = "std")]
mod stream;

use core::fmt;

pub use codec_core::{BufferTooSmall, DecodeError};

pub use bijective::Bijective;
pub use bincode::Bincode;
pub use cbor::CborHead;
pub use compactsize::CompactSize;
pub use explain::{Explain, Fault, LastByte, Shortest, article};
pub use hpack::Hpack;
pub use integer::{IntType, Integer, NotAnInteger, RangeError};
pub use leb::{Leb128, Sleb128, Zigzag};
pub use msgpack::MsgPack;
pub use prefix::Prefix;
pub use quic::Quic;
pub use sqlite::Sqlite;
pub use vlq::Vlq;

#[cfg(feature = "bytes")]
pub use buf::{BufFormat, PutFormat};
#[cfg(feature = "std")]
pub use io::{ReadFormat, WriteFormat};
#[cfg(feature = "std")]
pub use stream::{StreamError, StreamErrorKind, decode_single, decode_stream};

use crate::{BulkError, Decoded};

/// Why a value could not be encoded.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum EncodeError {
    /// The format cannot hold the value: above 2^62−1 for [`Quic`], above
    /// 0x0FFF_FFFF for [`Vlq`], a major type above 7 for [`CborHead`].
    OutOfRange,
    /// The output buffer is shorter than the encoding.
    BufferTooSmall(BufferTooSmall),
}

impl fmt::Display for EncodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EncodeError::OutOfRange => f.write_str("value out of the format's range"),
            EncodeError::BufferTooSmall(e) => e.fmt(f),
        }
    }
}

impl core::error::Error for EncodeError {}

impl From<BufferTooSmall> for EncodeError {
    fn from(e: BufferTooSmall) -> EncodeError {
        EncodeError::BufferTooSmall(e)
    }
}

/// A variable-length integer format.
///
/// A format implements [`decode`](Format::decode),
/// [`encoded_len`](Format::encoded_len) and
/// [`write`](Format::write); everything else is provided on top of them.
/// The implementations in this module are unit structs (or, for
/// [`Hpack`], a struct carrying the prefix width as a const parameter):
/// call the functions on the type, `Quic::decode(buf)`.
///
/// A format of your own gets the bulk functions and the adapters by
/// implementing the three required functions. Its `decode` must keep the
/// contract of the [module docs](self): a length from 1 to `MAX_LEN`, and
/// the same answer whatever follows the value.
///
/// ```
/// use varint::formats::{DecodeError, Format};
///
/// /// One byte, the value itself, up to 100.
/// struct Percent;
///
/// impl Format for Percent {
///     type Value = u8;
///     const MAX_LEN: usize = 1;
///     const NAME: &'static str = "percentage";
///     fn decode(buf: &[u8]) -> Result<(u8, usize), DecodeError> {
///         match buf.first() {
///             None => Err(DecodeError::Truncated),
///             Some(&b) if b > 100 => Err(DecodeError::Overflow),
///             Some(&b) => Ok((b, 1)),
///         }
///     }
///     fn encoded_len(value: u8) -> Option<usize> {
///         (value <= 100).then_some(1)
///     }
///     fn write(value: u8, out: &mut [u8]) {
///         out[0] = value;
///     }
/// }
///
/// let values: Result<Vec<u8>, _> = Percent::iter(&[5, 50, 100]).collect();
/// assert_eq!(values.unwrap(), [5, 50, 100]);
/// let err = Percent::iter(&[5, 200]).nth(1).unwrap().unwrap_err();
/// assert_eq!((err.count(), err.offset(), err.error()), (1, 1, DecodeError::Overflow));
/// assert!(Percent::try_encode(101, &mut [0]).is_err());
/// ```
pub trait Format {
    /// The decoded value.
    type Value: Copy;

    /// The longest encoding, in bytes: a buffer of `MAX_LEN` bytes holds
    /// any value.
    const MAX_LEN: usize;

    /// A short name for messages: `QUIC varint`.
    const NAME: &'static str;

    /// Reads one value from the start of `buf`, accepting every
    /// well-formed encoding (also longer ones than needed). Returns the
    /// value and the number of bytes it took.
    ///
    /// # Errors
    ///
    /// [`DecodeError::Truncated`] if `buf` ends inside the value (or is
    /// empty), [`DecodeError::Overflow`] if the value is out of range, and
    /// the kinds the format's page lists.
    fn decode(buf: &[u8]) -> Result<(Self::Value, usize), DecodeError>;

    /// The length of the shortest encoding of `value`, or `None` if the
    /// format cannot encode it.
    fn encoded_len(value: Self::Value) -> Option<usize>;

    /// Writes the shortest encoding of `value` into `out`, which is
    /// exactly [`encoded_len`](Format::encoded_len)`(value)` bytes long.
    /// The building block of [`try_encode`](Format::try_encode), which
    /// checks both; called with any other `out`, it may panic or write a
    /// wrong encoding (but never anything outside `out`).
    fn write(value: Self::Value, out: &mut [u8]);

    /// The encoding of `value` if it is one byte long, else `None` (the
    /// default). [`try_encode`](Format::try_encode) tries it first: small
    /// values dominate most streams, and this path skips the general one's
    /// length dispatch, which doubled the time of a one-byte encode.
    #[inline]
    fn single_byte(value: Self::Value) -> Option<u8> {
        let _ = value;
        None
    }

    /// The encoding of `value` if it is two bytes long, else `None` (the
    /// default). [`try_encode`](Format::try_encode) tries it after
    /// [`single_byte`](Format::single_byte): formats whose general
    /// encoder computes the length and spreads the value into groups run
    /// the common two-byte case as a compare and a store this way (the
    /// general path took SQLite's and the prefix varint's two-byte encodes
    /// to 0.8× a byte loop in `formats_min`).
    #[inline]
    fn two_bytes(value: Self::Value) -> Option<[u8; 2]> {
        let _ = value;
        None
    }

    /// Like [`decode`](Format::decode), but rejects encodings longer than
    /// the value needs with [`DecodeError::NonCanonical`]; the other errors
    /// take precedence.
    ///
    /// # Errors
    ///
    /// Those of [`decode`](Format::decode), and `NonCanonical`.
    #[inline]
    fn decode_strict(buf: &[u8]) -> Result<(Self::Value, usize), DecodeError> {
        let (value, len) = Self::decode(buf)?;
        if Self::encoded_len(value) == Some(len) {
            Ok((value, len))
        } else {
            Err(DecodeError::NonCanonical)
        }
    }

    /// Writes the shortest encoding of `value` at the start of `buf` and
    /// returns its length; on error nothing is written.
    ///
    /// # Errors
    ///
    /// [`EncodeError::OutOfRange`] if the format cannot hold `value`,
    /// [`EncodeError::BufferTooSmall`] if `buf` is shorter than the
    /// encoding.
    #[inline]
    fn try_encode(value: Self::Value, buf: &mut [u8]) -> Result<usize, EncodeError> {
        if let Some(byte) = Self::single_byte(value) {
            return match buf.first_mut() {
                Some(out) => {
                    *out = byte;
                    Ok(1)
                }
                None => Err(BufferTooSmall::new(1, 0).into()),
            };
        }
        if let Some(pair) = Self::two_bytes(value) {
            return match buf.first_chunk_mut::<2>() {
                Some(out) => {
                    *out = pair;
                    Ok(2)
                }
                None => Err(BufferTooSmall::new(2, buf.len()).into()),
            };
        }
        let len = Self::encoded_len(value).ok_or(EncodeError::OutOfRange)?;
        match buf.get_mut(..len) {
            Some(out) => {
                Self::write(value, out);
                Ok(len)
            }
            None => Err(BufferTooSmall::new(len, buf.len()).into()),
        }
    }

    /// Like [`try_encode`](Format::try_encode), panicking instead of
    /// returning an error.
    ///
    /// # Panics
    ///
    /// If the value is out of the format's range, or `buf` is shorter than
    /// the encoding (a buffer of [`MAX_LEN`](Format::MAX_LEN) bytes always
    /// suffices).
    #[inline]
    #[track_caller]
    #[must_use]
    fn encode(value: Self::Value, buf: &mut [u8]) -> usize {
        match Self::try_encode(value, buf) {
            Ok(len) => len,
            Err(e) => encode_failed(Self::NAME, e),
        }
    }

    /// Decodes consecutive values from `input` into `out`, leniently, until
    /// `out` is full or `input` is used up; `out` is written only below the
    /// returned count.
    ///
    /// # Errors
    ///
    /// The first value that fails to decode, with its offset and the
    /// number of values before it ([`BulkError`]).
    fn decode_into(input: &[u8], out: &mut [Self::Value]) -> Result<Decoded, BulkError> {
        decode_into_with(input, out, Self::decode)
    }

    /// Like [`decode_into`](Format::decode_into), with
    /// [`decode_strict`](Format::decode_strict).
    ///
    /// # Errors
    ///
    /// As [`decode_into`](Format::decode_into), also for
    /// [`DecodeError::NonCanonical`].
    fn decode_into_strict(input: &[u8], out: &mut [Self::Value]) -> Result<Decoded, BulkError> {
        decode_into_with(input, out, Self::decode_strict)
    }

    /// An iterator over the values in `input`, leniently; after an error
    /// it yields nothing more.
    fn iter(input: &[u8]) -> FormatIter<'_, Self>
    where
        Self: Sized,
    {
        FormatIter::new(input, false)
    }

    /// An iterator over the values in `input`, strictly.
    fn iter_strict(input: &[u8]) -> FormatIter<'_, Self>
    where
        Self: Sized,
    {
        FormatIter::new(input, true)
    }

    /// The summed encoded length of `values`, or `None` if one is out of
    /// range.
    fn encoded_len_slice(values: &[Self::Value]) -> Option<usize> {
        values
            .iter()
            .try_fold(0usize, |sum, &v| Some(sum + Self::encoded_len(v)?))
    }

    /// Encodes every value of `values` into `out`, one after another, and
    /// returns the number of bytes written. On error nothing is written.
    ///
    /// # Errors
    ///
    /// [`EncodeError::OutOfRange`] if a value is out of range,
    /// [`EncodeError::BufferTooSmall`] if `out` cannot hold them all.
    fn encode_slice(values: &[Self::Value], out: &mut [u8]) -> Result<usize, EncodeError> {
        let total = Self::encoded_len_slice(values).ok_or(EncodeError::OutOfRange)?;
        if total > out.len() {
            return Err(BufferTooSmall::new(total, out.len()).into());
        }
        let mut at = 0;
        for &v in values {
            // Cannot fail: the lengths were summed above.
            let len = Self::encoded_len(v).unwrap_or(0);
            Self::write(v, &mut out[at..at + len]);
            at += len;
        }
        Ok(at)
    }

    /// [`encode_slice`](Format::encode_slice) into a new `Vec`.
    ///
    /// # Errors
    ///
    /// [`EncodeError::OutOfRange`] if a value is out of range.
    #[cfg(feature = "alloc")]
    fn encode_slice_to_vec(values: &[Self::Value]) -> Result<alloc::vec::Vec<u8>, EncodeError> {
        let total = Self::encoded_len_slice(values).ok_or(EncodeError::OutOfRange)?;
        let mut out = alloc::vec![0u8; total];
        Self::encode_slice(values, &mut out)?;
        Ok(out)
    }
}

#[cold]
#[inline(never)]
#[track_caller]
// The documented panic of `Format::encode`, like `char::encode_utf8`'s.
#[allow(clippy::panic)]
fn encode_failed(name: &str, e: EncodeError) -> ! {
    panic!("{name} encode: {e}")
}

/// The scalar bulk loop: `decode` one value after another into `out`.
pub(crate) fn decode_into_with<V: Copy>(
    input: &[u8],
    out: &mut [V],
    decode: impl Fn(&[u8]) -> Result<(V, usize), DecodeError>,
) -> Result<Decoded, BulkError> {
    let mut at = 0;
    let mut count = 0;
    for slot in out.iter_mut() {
        if at == input.len() {
            break;
        }
        match decode(&input[at..]) {
            Ok((v, n)) => {
                *slot = v;
                at += progress(n, input.len() - at);
                count += 1;
            }
            Err(error) => return Err(BulkError::new(error, at, count)),
        }
    }
    Ok(Decoded { count, bytes: at })
}

/// The iterator of [`Format::iter`] and [`Format::iter_strict`]: yields
/// each value, or the first error (as a [`BulkError`] with its offset and
/// the count before it), then nothing.
pub struct FormatIter<'a, F> {
    input: &'a [u8],
    at: usize,
    count: usize,
    strict: bool,
    done: bool,
    format: core::marker::PhantomData<F>,
}

impl<F> fmt::Debug for FormatIter<'_, F> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("FormatIter")
            .field("offset", &self.at)
            .field("count", &self.count)
            .field("strict", &self.strict)
            .field("done", &self.done)
            .finish()
    }
}

impl<'a, F> FormatIter<'a, F> {
    fn new(input: &'a [u8], strict: bool) -> FormatIter<'a, F> {
        FormatIter {
            input,
            at: 0,
            count: 0,
            strict,
            done: false,
            format: core::marker::PhantomData,
        }
    }

    /// The offset of the next value (after an error: of the failing one).
    #[must_use]
    pub fn offset(&self) -> usize {
        self.at
    }

    /// The input not decoded yet, from [`offset`](FormatIter::offset).
    #[must_use]
    pub fn remainder(&self) -> &'a [u8] {
        &self.input[self.at..]
    }
}

impl<F: Format> Iterator for FormatIter<'_, F> {
    type Item = Result<F::Value, BulkError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.done || self.at == self.input.len() {
            return None;
        }
        let rest = &self.input[self.at..];
        let decoded = if self.strict {
            F::decode_strict(rest)
        } else {
            F::decode(rest)
        };
        match decoded {
            Ok((v, n)) => {
                self.at += progress(n, rest.len());
                self.count += 1;
                Some(Ok(v))
            }
            Err(e) => {
                self.done = true;
                Some(Err(BulkError::new(e, self.at, self.count)))
            }
        }
    }
}

impl<F: Format> core::iter::FusedIterator for FormatIter<'_, F> {}

/// How far a decoded value of `n` bytes moves a loop with `left` bytes
/// left: `n`, kept within 1 and `left` so that a format of someone else's
/// that breaks the contract (a length of 0, or past the input) can neither
/// stall a loop nor make it slice out of bounds.
#[inline]
pub(crate) fn progress(n: usize, left: usize) -> usize {
    n.clamp(1, left.max(1))
}

/// Writes the low `out.len()` (at most 8) bytes of `v` into `out`,
/// big-endian. One arm per length, so that each copy has a constant size:
/// a `copy_from_slice` of a variable length is a call to `memcpy`, which
/// cost more than the rest of a one-byte encode (4× in `formats_min`).
#[inline(always)]
pub(crate) fn put_be(out: &mut [u8], v: u64) {
    let b = v.to_be_bytes();
    match out {
        [] => {}
        [o] => *o = b[7],
        [_, _] => out.copy_from_slice(&b[6..]),
        [_, _, _] => out.copy_from_slice(&b[5..]),
        [_, _, _, _] => out.copy_from_slice(&b[4..]),
        [_, _, _, _, _] => out.copy_from_slice(&b[3..]),
        [_, _, _, _, _, _] => out.copy_from_slice(&b[2..]),
        [_, _, _, _, _, _, _] => out.copy_from_slice(&b[1..]),
        _ => out[..8].copy_from_slice(&b),
    }
}

/// [`put_be`], little-endian: the low `out.len()` bytes of `v`, lowest
/// first.
#[inline(always)]
pub(crate) fn put_le(out: &mut [u8], v: u64) {
    let b = v.to_le_bytes();
    match out {
        [] => {}
        [o] => *o = b[0],
        [_, _] => out.copy_from_slice(&b[..2]),
        [_, _, _] => out.copy_from_slice(&b[..3]),
        [_, _, _, _] => out.copy_from_slice(&b[..4]),
        [_, _, _, _, _] => out.copy_from_slice(&b[..5]),
        [_, _, _, _, _, _] => out.copy_from_slice(&b[..6]),
        [_, _, _, _, _, _, _] => out.copy_from_slice(&b[..7]),
        _ => out[..8].copy_from_slice(&b),
    }
}

/// [`put_be`] as two overlapping stores of a constant size (4 and 4 bytes
/// for 4 to 8, 2 and 2 for 2 and 3): two branches on the length instead of
/// a jump on each of the eight, which mispredicts more where lengths vary.
/// Formats whose `write` already jumps on the length keep [`put_be`]
/// (CBOR's mixed lengths took twice as long with this one in
/// `formats_min`; one jump table likely serves both there).
#[inline(always)]
pub(crate) fn put_be_overlapping(out: &mut [u8], v: u64) {
    let n = out.len().min(8);
    let out = &mut out[..n];
    if n >= 4 {
        if let Some(head) = out.first_chunk_mut::<4>() {
            *head = ((v >> (8 * (n - 4))) as u32).to_be_bytes();
        }
        if let Some(tail) = out.last_chunk_mut::<4>() {
            *tail = (v as u32).to_be_bytes();
        }
    } else if n >= 2 {
        if let Some(head) = out.first_chunk_mut::<2>() {
            *head = ((v >> (8 * (n - 2))) as u16).to_be_bytes();
        }
        if let Some(tail) = out.last_chunk_mut::<2>() {
            *tail = (v as u16).to_be_bytes();
        }
    } else if let Some(o) = out.first_mut() {
        *o = v as u8;
    }
}

/// [`put_be_overlapping`], little-endian: the low `out.len()` bytes of
/// `v`, lowest first.
#[inline(always)]
pub(crate) fn put_le_overlapping(out: &mut [u8], v: u64) {
    let n = out.len().min(8);
    let out = &mut out[..n];
    if n >= 4 {
        if let Some(head) = out.first_chunk_mut::<4>() {
            *head = (v as u32).to_le_bytes();
        }
        if let Some(tail) = out.last_chunk_mut::<4>() {
            *tail = ((v >> (8 * (n - 4))) as u32).to_le_bytes();
        }
    } else if n >= 2 {
        if let Some(head) = out.first_chunk_mut::<2>() {
            *head = (v as u16).to_le_bytes();
        }
        if let Some(tail) = out.last_chunk_mut::<2>() {
            *tail = ((v >> (8 * (n - 2))) as u16).to_le_bytes();
        }
    } else if let Some(o) = out.first_mut() {
        *o = v as u8;
    }
}

/// The low 56 bits of `v` as eight 7-bit groups, one a byte, the lowest
/// group in the lowest byte (bit 7 of each byte clear): three shift-and-
/// mask steps (28 | 28, 14 | 14, 7 | 7) instead of a loop of eight, so
/// that an encoder of base-128 groups runs without a branch on the length.
#[inline(always)]
pub(crate) fn spread7(v: u64) -> u64 {
    let x = v & 0x00ff_ffff_ffff_ffff;
    let x = (x & 0x0fff_ffff) | (x & 0x00ff_ffff_f000_0000) << 4;
    let x = (x & 0x0000_3fff_0000_3fff) | (x & 0x0fff_c000_0fff_c000) << 2;
    (x & 0x007f_007f_007f_007f) | (x & 0x3f80_3f80_3f80_3f80) << 1
}

/// Writes `d`, which is below `2^(7 * out.len())`, as `out.len()` (1 to 8)
/// big-endian 7-bit groups with the continuation bit `0x80` on every byte
/// but the last: the layout of SQLite's varint up to 8 bytes and of the
/// bijective varint's digits.
#[inline(always)]
pub(crate) fn put_be7(out: &mut [u8], d: u64) {
    // Every group's byte but the lowest (the last one written) continues.
    put_be_overlapping(out, spread7(d) | 0x8080_8080_8080_8000);
}

/// The layout CompactSize and bincode share: a value below `first_tag`
/// is its own byte; above, the tag `first_tag`, `first_tag + 1` or
/// `first_tag + 2`, then the value in 2, 4 or 8 bytes, little-endian.
#[inline(always)]
pub(crate) fn tagged_le_len(value: u64, first_tag: u8) -> usize {
    match value {
        v if v < u64::from(first_tag) => 1,
        0..=0xffff => 3,
        0x1_0000..=0xffff_ffff => 5,
        _ => 9,
    }
}

/// Writes `value` in the layout of [`tagged_le_len`] into `out`, which is
/// exactly that long.
#[inline(always)]
pub(crate) fn write_tagged_le(value: u64, out: &mut [u8], first_tag: u8) {
    match out.len() {
        1 => out[0] = value as u8,
        n => {
            out[0] = match n {
                3 => first_tag,
                5 => first_tag + 1,
                _ => first_tag + 2,
            };
            put_le(&mut out[1..], value);
        }
    }
}

/// Writes `bytes` at the start of `buf` and returns `N`, or
/// `BufferTooSmall` writing nothing: the store of an encoder that knows its
/// length from one branch chain on the value.
#[inline(always)]
pub(crate) fn put_array<const N: usize>(
    buf: &mut [u8],
    bytes: [u8; N],
) -> Result<usize, EncodeError> {
    match buf.first_chunk_mut::<N>() {
        Some(out) => {
            *out = bytes;
            Ok(N)
        }
        None => Err(BufferTooSmall::new(N, buf.len()).into()),
    }
}

/// The big-endian value of `bytes` (at most 8 of them), by constant-size
/// copies as in [`put_be`].
#[inline(always)]
pub(crate) fn get_be(bytes: &[u8]) -> u64 {
    let mut w = [0u8; 8];
    match bytes {
        [] => {}
        [b] => w[7] = *b,
        [_, _] => w[6..].copy_from_slice(bytes),
        [_, _, _] => w[5..].copy_from_slice(bytes),
        [_, _, _, _] => w[4..].copy_from_slice(bytes),
        [_, _, _, _, _] => w[3..].copy_from_slice(bytes),
        [_, _, _, _, _, _] => w[2..].copy_from_slice(bytes),
        [_, _, _, _, _, _, _] => w[1..].copy_from_slice(bytes),
        _ => w.copy_from_slice(&bytes[..8]),
    }
    u64::from_be_bytes(w)
}

/// The `N` bytes of `buf` from `at`, or `Truncated` if it ends first.
#[inline]
fn array<const N: usize>(buf: &[u8], at: usize) -> Result<[u8; N], DecodeError> {
    match buf.get(at..at + N) {
        Some(s) => {
            let mut a = [0u8; N];
            a.copy_from_slice(s);
            Ok(a)
        }
        None => Err(DecodeError::Truncated),
    }
}
