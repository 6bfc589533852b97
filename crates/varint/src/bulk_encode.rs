//! Many values into one buffer: [`encode_slice`], [`encode_slice_into_vec`]
//! (with `alloc`), and [`encoded_len_slice`] to size the buffer.

use codec_core::BufferTooSmall;

use crate::{KernelCodec, Varint};

/// The number of bytes [`encode_slice`] writes for `values`: the sum of
/// their [`encoded_len`](crate::encoded_len()), computed for `u64` and
/// `u32` by a SIMD kernel where the CPU has one (with AVX-512, 8 values per
/// instruction).
///
/// ```
/// assert_eq!(varint::encoded_len_slice(&[1u64, 300, u64::MAX]), 1 + 2 + 10);
/// ```
#[must_use]
#[inline]
pub fn encoded_len_slice<T: Varint>(values: &[T]) -> usize {
    KernelCodec::new().encoded_len_slice(values)
}

/// Writes the canonical varints of all `values`, back to back, at the start
/// of `out`, and returns the number of bytes written,
/// [`encoded_len_slice`]`(values)`. Bytes after them are left untouched.
///
/// `u64` and `u32` values are encoded by a kernel where the CPU has one:
/// runs of eight one-byte values are written with one store, values below
/// 2^14 with a two-byte store and no branch on their length, longer ones
/// as one word of spread 7-bit groups (BMI2 `pdep` where it is fast).
///
/// # Errors
///
/// [`BufferTooSmall`] if `out` is shorter than the encoding of all values;
/// `out` is then left unchanged.
///
/// ```
/// let mut out = [0u8; 16];
/// let n = varint::encode_slice(&[1u32, 300, 7], &mut out).unwrap();
/// assert_eq!(&out[..n], [0x01, 0xAC, 0x02, 0x07]);
///
/// let err = varint::encode_slice(&[u64::MAX; 2], &mut out).unwrap_err();
/// assert_eq!((err.needed(), err.available()), (20, 16));
/// ```
#[inline]
pub fn encode_slice<T: Varint>(values: &[T], out: &mut [u8]) -> Result<usize, BufferTooSmall> {
    KernelCodec::new().encode_slice(values, out)
}

/// Appends the canonical varints of all `values` to `out`; returns the
/// number of bytes appended. Allocates once, the exact size.
///
/// ```
/// let mut wire = vec![0x0A]; // a protobuf tag, say
/// let n = varint::encode_slice_into_vec(&[150u64, 1], &mut wire);
/// assert_eq!((n, wire), (3, vec![0x0A, 0x96, 0x01, 0x01]));
/// ```
#[cfg(feature = "alloc")]
pub fn encode_slice_into_vec<T: Varint>(values: &[T], out: &mut alloc::vec::Vec<u8>) -> usize {
    let codec = KernelCodec::new();
    let total = codec.encoded_len_slice(values);
    let start = out.len();
    out.resize(start + total, 0);
    match codec.encode_slice(values, &mut out[start..]) {
        Ok(n) => n,
        // Cannot happen: the room is exactly the encoded length.
        Err(_) => {
            out.truncate(start);
            0
        }
    }
}

/// The canonical varints of all `values`, in a new `Vec` of the exact size.
///
/// ```
/// assert_eq!(varint::encode_slice_to_vec(&[150u64, 1]), [0x96, 0x01, 0x01]);
/// ```
#[cfg(feature = "alloc")]
#[must_use]
pub fn encode_slice_to_vec<T: Varint>(values: &[T]) -> alloc::vec::Vec<u8> {
    let mut out = alloc::vec::Vec::new();
    encode_slice_into_vec(values, &mut out);
    out
}

impl KernelCodec {
    /// [`encoded_len_slice`] with this codec's kernel.
    #[must_use]
    #[inline]
    pub fn encoded_len_slice<T: Varint>(&self, values: &[T]) -> usize {
        T::bulk_len(*self, values)
    }

    /// [`encode_slice`] with this codec's kernel.
    ///
    /// # Errors
    ///
    /// As [`encode_slice`].
    pub fn encode_slice<T: Varint>(
        &self,
        values: &[T],
        out: &mut [u8],
    ) -> Result<usize, BufferTooSmall> {
        let Some((done, mut pos)) = T::bulk_encode(*self, values, out) else {
            return Err(BufferTooSmall::new(
                self.encoded_len_slice(values),
                out.len(),
            ));
        };
        // The rest with the scalar encoder; it fits, as `bulk_encode` checked.
        for &v in &values[done..] {
            match v.put(&mut out[pos..]) {
                Some(n) => pos += n,
                None => {
                    return Err(BufferTooSmall::new(
                        self.encoded_len_slice(values),
                        out.len(),
                    ));
                }
            }
        }
        Ok(pos)
    }
}
