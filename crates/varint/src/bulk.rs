//! Many consecutive varints from one buffer: [`decode_into`] a slice,
//! [`decode_into_vec`] (with `alloc`), and the iterator [`Iter`].
//!
//! # Where the position is left after an error
//!
//! Every bulk decoder stops at the first varint it cannot decode and reports
//! where that varint **begins**: [`BulkError::offset`] (or
//! [`Iter::offset`]) is the number of bytes taken by the values decoded
//! before it, and [`BulkError::count`] their number. Those values have been
//! written (to the slice, the `Vec`) or yielded. A `Truncated` error at the
//! end of a chunk therefore tells a streaming parser to keep
//! `input[offset..]` and retry once more bytes arrive.

use core::fmt;

use codec_core::DecodeError;

use crate::Varint;
use crate::arch::{KernelCodec, MIN_INPUT, MIN_OUT};

/// How far a successful bulk decode went.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Decoded {
    /// The number of values written.
    pub count: usize,
    /// The number of input bytes they took.
    pub bytes: usize,
}

/// A bulk decode stopped at a varint it could not decode.
///
/// Every bulk decoder stops at the first varint it cannot decode and reports
/// where that varint **begins**: [`offset`](BulkError::offset) is the number
/// of bytes taken by the values decoded before it, and
/// [`count`](BulkError::count) their number. Those values have been written
/// (to the slice, the `Vec`). A `Truncated` error at the end of a chunk
/// therefore tells a streaming parser to keep `input[offset..]` and retry
/// once more bytes arrive.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct BulkError {
    error: DecodeError,
    offset: usize,
    count: usize,
}

impl BulkError {
    /// The error of the varint at `offset`, after `count` good ones.
    pub(crate) const fn new(error: DecodeError, offset: usize, count: usize) -> BulkError {
        BulkError {
            error,
            offset,
            count,
        }
    }

    /// Why the varint could not be decoded.
    #[must_use]
    pub const fn error(&self) -> DecodeError {
        self.error
    }

    /// The byte offset where the failing varint begins, which is also the
    /// number of bytes taken by the values decoded before it.
    #[must_use]
    pub const fn offset(&self) -> usize {
        self.offset
    }

    /// The number of values decoded (and stored) before the failing one.
    #[must_use]
    pub const fn count(&self) -> usize {
        self.count
    }
}

impl fmt::Display for BulkError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Counted as a reader counts: the third varint follows two good ones.
        let n = self.count + 1;
        let suffix = ordinal_suffix(n as u64);
        write!(
            f,
            "the {n}{suffix} varint, at byte offset {}: {}",
            self.offset, self.error
        )
    }
}

/// The English ordinal suffix of `n`: `st` for 1 and 21, `th` for 11.
pub(crate) fn ordinal_suffix(n: u64) -> &'static str {
    match (n % 10, n % 100) {
        (_, 11..=13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    }
}

impl core::error::Error for BulkError {
    fn source(&self) -> Option<&(dyn core::error::Error + 'static)> {
        Some(&self.error)
    }
}

/// Decodes consecutive varints from `input` into `out` (lenient, as
/// [`decode`](crate::decode())) until `out` is full or `input` is used up.
///
/// Returns how many values were written and how many bytes they took. Input
/// left over when `out` is full is not looked at, and `out` is written only
/// below the returned count.
///
/// `u64` and `u32` (and `usize`) are decoded by a SIMD kernel where the CPU
/// has one ([`kernels`](crate::kernels())), with the same results as the
/// scalar decoder: a protobuf-like mix of lengths decodes four to six
/// times as fast as prost's loop (AMD Zen 4 with AVX-512 VBMI2, an Intel
/// Xeon with AVX-512). `u16` and `u128` use the scalar loop.
///
/// # Errors
///
/// The first varint that fails to decode, with its offset and the number of
/// values written before it (see [`BulkError`]): a varint cut off
/// by the end of `input` is [`DecodeError::Truncated`].
///
/// ```
/// let input = [0x01, 0xAC, 0x02, 0x7F, 0x80];
/// let mut out = [0u32; 8];
/// let err = varint::decode_into(&input, &mut out).unwrap_err();
/// assert_eq!(&out[..err.count()], [1, 300, 127]);
/// assert_eq!(err.offset(), 4);
/// assert_eq!(err.error(), varint::DecodeError::Truncated);
///
/// let done = varint::decode_into(&input[..4], &mut out).unwrap();
/// assert_eq!((done.count, done.bytes), (3, 4));
/// ```
#[inline]
pub fn decode_into<T: Varint>(input: &[u8], out: &mut [T]) -> Result<Decoded, BulkError> {
    KernelCodec::new().decode_into(input, out)
}

/// Like [`decode_into`], but strict, as
/// [`decode_strict`](crate::decode_strict()): a padded varint stops the
/// decoding with [`DecodeError::NonCanonical`].
///
/// ```
/// let mut out = [0u64; 4];
/// let err = varint::decode_into_strict(&[0x05, 0x80, 0x00], &mut out).unwrap_err();
/// assert_eq!((err.error(), err.offset(), err.count()), (varint::DecodeError::NonCanonical, 1, 1));
/// ```
#[inline]
pub fn decode_into_strict<T: Varint>(input: &[u8], out: &mut [T]) -> Result<Decoded, BulkError> {
    KernelCodec::new().decode_into_strict(input, out)
}

impl KernelCodec {
    /// [`decode_into`] with this decoder's kernel.
    ///
    /// # Errors
    ///
    /// As [`decode_into`].
    #[inline]
    pub fn decode_into<T: Varint>(
        &self,
        input: &[u8],
        out: &mut [T],
    ) -> Result<Decoded, BulkError> {
        drive::<T, false>(*self, input, out)
    }

    /// [`decode_into_strict`] with this decoder's kernel.
    ///
    /// # Errors
    ///
    /// As [`decode_into_strict`].
    #[inline]
    pub fn decode_into_strict<T: Varint>(
        &self,
        input: &[u8],
        out: &mut [T],
    ) -> Result<Decoded, BulkError> {
        drive::<T, true>(*self, input, out)
    }
}

/// The kernel as far as it goes, then one varint with the scalar decoder
/// (the one the kernel stopped in front of: an error, an unusual varint,
/// or the last bytes), then the kernel again. Near the end of the input or
/// of `out`, where the kernel cannot run, the scalar loop finishes.
fn drive<T: Varint, const STRICT: bool>(
    decoder: KernelCodec,
    input: &[u8],
    out: &mut [T],
) -> Result<Decoded, BulkError> {
    let mut pos = 0;
    let mut count = 0;
    if !decoder.is_portable() {
        while input.len() - pos >= MIN_INPUT && out.len() - count >= MIN_OUT {
            let (bytes, values) = T::bulk::<STRICT>(decoder, &input[pos..], &mut out[count..]);
            pos += bytes;
            count += values;
            if input.len() - pos < MIN_INPUT || out.len() - count < MIN_OUT {
                break;
            }
            match T::read::<STRICT>(&input[pos..]) {
                Ok((v, n)) => {
                    out[count] = v;
                    pos += n;
                    count += 1;
                }
                Err(error) => {
                    return Err(BulkError {
                        error,
                        offset: pos,
                        count,
                    });
                }
            }
        }
    }
    // A plain loop over the single-value kernel, whose one- and two-byte
    // branches the predictor learns per stream. Tried and dropped before
    // the SIMD kernels (details and numbers in docs/results/varint.md):
    // - eight one-byte varints per step when an 8-byte load has no
    //   continuation bit, tested before every varint, after a one-byte one,
    //   or when the count is a multiple of 8: 2-5x faster on all-one-byte
    //   input, but up to 2x slower on the protobuf-like mix;
    // - every varint that ends in one 8-byte word, by a `trailing_zeros`
    //   loop or by a 256-entry table of varint positions indexed by the
    //   mask of terminating bytes: slower on the mix and on 2-byte values.
    // The loop shape matters too: indexing as below measured 20% faster on
    // the mix than `while let (Some(rest), Some(slot)) = ...`, though code
    // placement alone moves that distribution by tens of percent.
    while pos < input.len() && count < out.len() {
        match T::read::<STRICT>(&input[pos..]) {
            Ok((v, n)) => {
                out[count] = v;
                pos += n;
                count += 1;
            }
            Err(error) => {
                return Err(BulkError {
                    error,
                    offset: pos,
                    count,
                });
            }
        }
    }
    Ok(Decoded { count, bytes: pos })
}

/// Decodes every varint of `input` (lenient) and appends them to `out`;
/// returns how many were appended.
///
/// Memory grows in steps of a few hundred values, in proportion to the
/// input, never ahead of it.
///
/// # Errors
///
/// As [`decode_into`]: the values before the failing varint stay appended,
/// and [`BulkError::count`] says how many.
///
/// ```
/// let mut values: Vec<u64> = Vec::new();
/// assert_eq!(varint::decode_into_vec(&[0x96, 0x01, 0x00], &mut values), Ok(2));
/// assert_eq!(values, [150, 0]);
/// ```
#[cfg(feature = "alloc")]
#[inline]
pub fn decode_into_vec<T: Varint>(
    input: &[u8],
    out: &mut alloc::vec::Vec<T>,
) -> Result<usize, BulkError> {
    KernelCodec::new().decode_into_vec(input, out)
}

/// Decodes every varint of `input` (lenient) into a new `Vec`.
///
/// # Errors
///
/// As [`decode_into`]: the offset of the failing varint, and how many came
/// before it ([`BulkError::count`]); [`decode_into_vec`] keeps those values.
///
/// ```
/// assert_eq!(varint::decode_to_vec::<u64>(&[0x96, 0x01, 0x00]), Ok(vec![150, 0]));
/// let err = varint::decode_to_vec::<u32>(&[0x01, 0x80]).unwrap_err();
/// assert_eq!((err.count(), err.offset()), (1, 1));
/// ```
#[cfg(feature = "alloc")]
#[inline]
pub fn decode_to_vec<T: Varint>(input: &[u8]) -> Result<alloc::vec::Vec<T>, BulkError> {
    let mut out = alloc::vec::Vec::new();
    KernelCodec::new().decode_into_vec(input, &mut out)?;
    Ok(out)
}

impl KernelCodec {
    /// [`decode_into_vec`] with this decoder's kernel.
    ///
    /// # Errors
    ///
    /// As [`decode_into_vec`].
    #[cfg(feature = "alloc")]
    pub fn decode_into_vec<T: Varint>(
        &self,
        input: &[u8],
        out: &mut alloc::vec::Vec<T>,
    ) -> Result<usize, BulkError> {
        /// Values per step: enough to amortise the resize, small enough that a
        /// short input does not allocate much.
        const STEP: usize = 256;
        let start = out.len();
        let mut pos = 0;
        while pos < input.len() {
            let filled = out.len();
            // Never more slots than bytes left: each varint takes one at least.
            let slots = STEP.min(input.len() - pos);
            out.resize(filled + slots, T::default());
            match self.decode_into(&input[pos..], &mut out[filled..]) {
                Ok(done) => {
                    out.truncate(filled + done.count);
                    pos += done.bytes;
                }
                Err(e) => {
                    out.truncate(filled + e.count);
                    return Err(BulkError {
                        error: e.error,
                        offset: pos + e.offset,
                        count: out.len() - start,
                    });
                }
            }
        }
        Ok(out.len() - start)
    }

    /// [`iter`] with this decoder's kernel.
    pub fn iter<'a, T: Varint>(&self, input: &'a [u8]) -> Iter<'a, T> {
        Iter {
            input,
            start: 0,
            end: 0,
            buf: [T::default(); AHEAD],
            head: 0,
            len: 0,
            strict: false,
            codec: *self,
            pending: None,
            failed: false,
        }
    }

    /// [`iter_strict`] with this decoder's kernel.
    pub fn iter_strict<'a, T: Varint>(&self, input: &'a [u8]) -> Iter<'a, T> {
        Iter {
            strict: true,
            ..self.iter(input)
        }
    }
}

/// Values an [`Iter`] decodes ahead: one window of the bulk kernel.
const AHEAD: usize = 64;

/// An iterator over the consecutive varints of a buffer; see [`iter`] and
/// [`iter_strict`].
///
/// It yields `Ok(value)` for each varint, then stops. After an error it
/// yields that one `Err` and then `None` for ever (it is fused), with
/// [`offset`](Iter::offset) left at the start of the failing varint.
///
/// It decodes up to 64 values ahead with the bulk kernel (as
/// [`decode_into`]), so it is as fast as the bulk functions, at the price
/// of a 64-value buffer inside it; errors and offsets are those of
/// decoding one value at a time.
#[derive(Clone, Debug)]
#[must_use = "iterators are lazy and do nothing unless consumed"]
pub struct Iter<'a, T> {
    input: &'a [u8],
    /// Where the buffered values begin in `input`.
    start: usize,
    /// Where the buffered values end: the next varint to decode, or the
    /// failing one.
    end: usize,
    /// Decoded values, `buf[head..len]` not yet yielded.
    buf: [T; AHEAD],
    head: usize,
    len: usize,
    strict: bool,
    /// The kernel that decodes ahead.
    codec: KernelCodec,
    /// The error at `end`, yielded once the buffer is drained.
    pending: Option<DecodeError>,
    failed: bool,
}

/// Iterates over the varints of `input`, decoded leniently as by
/// [`decode`](crate::decode()).
///
/// ```
/// let values: Result<Vec<u16>, _> = varint::iter(&[0x01, 0xFF, 0x7F]).collect();
/// assert_eq!(values, Ok(vec![1, 16383]));
///
/// let mut it = varint::iter::<u64>(&[0x05, 0xFF]);
/// assert_eq!(it.next(), Some(Ok(5)));
/// assert_eq!(it.next(), Some(Err(varint::DecodeError::Truncated)));
/// assert_eq!(it.offset(), 1);
/// assert_eq!(it.next(), None);
/// ```
pub fn iter<T: Varint>(input: &[u8]) -> Iter<'_, T> {
    KernelCodec::new().iter(input)
}

/// Iterates over the varints of `input`, decoded strictly as by
/// [`decode_strict`](crate::decode_strict()).
pub fn iter_strict<T: Varint>(input: &[u8]) -> Iter<'_, T> {
    KernelCodec::new().iter_strict(input)
}

impl<'a, T> Iter<'a, T> {
    /// Bytes consumed so far: the start of the next varint, or of the one
    /// that failed.
    #[must_use]
    pub fn offset(&self) -> usize {
        if self.head == self.len {
            return self.end;
        }
        // Inside the buffer: after the `head`-th terminating byte from
        // `start` (every buffered varint is well-formed, so its last byte
        // is its only byte below 0x80).
        let mut seen = 0;
        for (i, &b) in self.input[self.start..self.end].iter().enumerate() {
            if seen == self.head {
                return self.start + i;
            }
            seen += usize::from(b < 0x80);
        }
        self.end
    }

    /// The input not consumed yet, starting with the next (or failing)
    /// varint.
    #[must_use]
    pub fn remainder(&self) -> &'a [u8] {
        &self.input[self.offset()..]
    }
}

impl<T: Varint> Iter<'_, T> {
    /// Decodes the next values into the buffer: one kernel window where a
    /// kernel runs, else one value with the scalar decoder.
    fn refill(&mut self) {
        let rest = &self.input[self.end..];
        self.start = self.end;
        self.head = 0;
        self.len = 0;
        let codec = self.codec;
        if !codec.is_portable() && rest.len() >= MIN_INPUT {
            let (bytes, values) = if self.strict {
                T::bulk::<true>(codec, rest, &mut self.buf)
            } else {
                T::bulk::<false>(codec, rest, &mut self.buf)
            };
            if values > 0 {
                self.len = values;
                self.end += bytes;
                return;
            }
        }
        let one = if self.strict {
            T::read::<true>(rest)
        } else {
            T::read::<false>(rest)
        };
        match one {
            Ok((v, n)) => {
                self.buf[0] = v;
                self.len = 1;
                self.end += n;
            }
            Err(e) => self.pending = Some(e),
        }
    }
}

impl<T: Varint> Iterator for Iter<'_, T> {
    type Item = Result<T, DecodeError>;

    #[inline]
    fn next(&mut self) -> Option<Self::Item> {
        if self.head == self.len {
            if self.failed || self.pending.is_some() {
                self.failed = true;
                return self.pending.take().map(Err);
            }
            if self.end >= self.input.len() {
                return None;
            }
            self.refill();
            if self.len == 0 {
                self.failed = true;
                return self.pending.take().map(Err);
            }
        }
        let v = self.buf[self.head];
        self.head += 1;
        Some(Ok(v))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let buffered = self.len - self.head;
        if self.failed {
            (0, Some(0))
        } else {
            // An error ends the iteration early, so the buffered values and
            // one more item are all that is certain; each item takes one
            // byte at least.
            let left = self.input.len() - self.end;
            let more = usize::from(left > 0 || self.pending.is_some());
            (buffered + more, Some(buffered + more.max(left)))
        }
    }
}

impl<T: Varint> core::iter::FusedIterator for Iter<'_, T> {}
