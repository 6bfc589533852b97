//! [`bytes::Buf`] and [`bytes::BufMut`] extension traits (feature `bytes`):
//! varints and signed LEB128 read from a buffer and written into one, the
//! buffer advancing past them, as prost's `decode_varint`/`encode_varint`
//! do.

use bytes::{Buf, BufMut};
use codec_core::DecodeError;
use zigzag::ZigZag;

use crate::Varint;
use crate::sleb128::{self, Sleb128};

/// Reads varints from any [`Buf`], advancing it past each. Implemented for
/// every `Buf`.
///
/// # Errors and what is consumed
///
/// The errors of [`decode`](crate::decode()) (or of the strict and signed
/// forms): [`DecodeError::Truncated`] when the buffer ends before the
/// varint does, [`DecodeError::Overflow`], and in strict mode
/// [`DecodeError::NonCanonical`].
///
/// On error, nothing is consumed when the varint lies in the buffer's first
/// chunk, which is always the case for `&[u8]`, [`Bytes`](bytes::Bytes) and
/// [`BytesMut`](bytes::BytesMut): a framing decoder can wait for more bytes
/// after a `Truncated` and try again. A varint that spans chunks (in a
/// [`Chain`](bytes::buf::Chain), a `VecDeque`) is read byte by byte, at
/// most `T::MAX_LEN` bytes, and after an error those bytes stay consumed,
/// as with prost.
///
/// ```
/// use bytes::{Buf, Bytes};
/// use varint::BufVarint;
///
/// let mut buf = Bytes::from_static(&[0xAC, 0x02, 0x03, 0x80]);
/// assert_eq!(buf.get_varint::<u32>(), Ok(300));
/// assert_eq!(buf.get_varint_signed::<i64>(), Ok(-2));
/// assert_eq!(buf.get_varint::<u32>(), Err(varint::DecodeError::Truncated));
/// assert_eq!(buf.remaining(), 1, "the cut-off varint is still there");
///
/// // A varint split between two chunks.
/// let mut chained = (&[0xAC][..]).chain(&[0x02][..]);
/// assert_eq!(chained.get_varint::<u64>(), Ok(300));
/// ```
pub trait BufVarint: Buf {
    /// Reads one varint, leniently as [`decode`](crate::decode()).
    ///
    /// # Errors
    ///
    /// See the trait docs.
    fn get_varint<T: Varint>(&mut self) -> Result<T, DecodeError> {
        get(self, T::MAX_LEN, T::read::<false>)
    }

    /// Reads one varint, strictly as
    /// [`decode_strict`](crate::decode_strict()).
    ///
    /// # Errors
    ///
    /// See the trait docs.
    fn get_varint_strict<T: Varint>(&mut self) -> Result<T, DecodeError> {
        get(self, T::MAX_LEN, T::read::<true>)
    }

    /// Reads one zigzag-encoded signed varint (protobuf `sint32`,
    /// `sint64`).
    ///
    /// # Errors
    ///
    /// See the trait docs.
    fn get_varint_signed<S>(&mut self) -> Result<S, DecodeError>
    where
        S: ZigZag,
        S::Unsigned: Varint,
    {
        self.get_varint::<S::Unsigned>().map(zigzag::decode)
    }

    /// Reads one signed LEB128 value, leniently as
    /// [`sleb128::decode`](crate::sleb128::decode).
    ///
    /// # Errors
    ///
    /// See the trait docs.
    fn get_sleb128<T: Sleb128>(&mut self) -> Result<T, DecodeError> {
        get(self, T::MAX_LEN, sleb128::decode::<T>)
    }
}

impl<B: Buf + ?Sized> BufVarint for B {}

/// Writes varints into any [`BufMut`], advancing it. Implemented for every
/// `BufMut`.
///
/// # Panics
///
/// Like [`BufMut::put_slice`], if the buffer has less room than the
/// encoding (a `Vec<u8>` or a `BytesMut` grows instead).
///
/// ```
/// use varint::PutVarint;
///
/// let mut out = bytes::BytesMut::new();
/// assert_eq!(out.put_varint(300u32), 2);
/// assert_eq!(out.put_varint_signed(-2i64), 1);
/// assert_eq!(out.put_sleb128(-129i64), 2);
/// assert_eq!(&out[..], [0xAC, 0x02, 0x03, 0xFF, 0x7E]);
/// ```
pub trait PutVarint: BufMut {
    /// Writes the canonical varint of `value`; returns its length.
    fn put_varint<T: Varint>(&mut self, value: T) -> usize {
        let mut buf = [0u8; 19];
        let n = crate::encode(value, &mut buf);
        self.put_slice(&buf[..n]);
        n
    }

    /// Writes a zigzag-encoded signed varint; returns its length.
    fn put_varint_signed<S>(&mut self, value: S) -> usize
    where
        S: ZigZag,
        S::Unsigned: Varint,
    {
        self.put_varint(zigzag::encode(value))
    }

    /// Writes the shortest signed LEB128 encoding of `value`; returns its
    /// length.
    fn put_sleb128<T: Sleb128>(&mut self, value: T) -> usize {
        let mut buf = [0u8; 19];
        let n = sleb128::encode(value, &mut buf);
        self.put_slice(&buf[..n]);
        n
    }
}

impl<B: BufMut + ?Sized> PutVarint for B {}

/// A decoder of one value from the start of a slice.
type Decode<T> = fn(&[u8]) -> Result<(T, usize), DecodeError>;

/// One value: from the first chunk if it holds the whole varint (or its
/// error), else byte by byte across chunks.
fn get<T, B: Buf + ?Sized>(
    buf: &mut B,
    max_len: usize,
    decode: Decode<T>,
) -> Result<T, DecodeError> {
    let chunk = buf.chunk();
    match decode(chunk) {
        Ok((v, n)) => {
            buf.advance(n);
            return Ok(v);
        }
        // Cut off by the end of the chunk, but the buffer goes on.
        Err(DecodeError::Truncated) if chunk.len() < buf.remaining() && chunk.len() < max_len => {}
        Err(e) => return Err(e),
    }
    let mut bytes = [0u8; 19];
    let max_len = max_len.min(bytes.len());
    let mut n = 0;
    while n < max_len && buf.has_remaining() {
        bytes[n] = buf.get_u8();
        n += 1;
        if bytes[n - 1] < 0x80 {
            break;
        }
    }
    decode(&bytes[..n]).map(|(v, _)| v)
}
