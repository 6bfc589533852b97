//! The crate's own formats under [`Format`]: unsigned LEB128, zigzag and
//! signed LEB128. Each forwards to the free functions (and the bulk ones to
//! the SIMD kernels), so the trait costs nothing over calling them.

use core::marker::PhantomData;

use zigzag::ZigZag;

use super::{DecodeError, Format};
use crate::sleb128::{self, Sleb128 as SlebInt};
use crate::{BulkError, Decoded, Varint};

/// Unsigned LEB128 (protobuf varints) of `T`: `u16`, `u32`, `u64`, `u128`
/// or `usize`, as [`crate::decode`] and [`crate::encode`].
///
/// ```
/// use varint::formats::{Format, Leb128};
///
/// assert_eq!(Leb128::<u64>::decode(&[0xac, 0x02]), Ok((300, 2)));
/// assert_eq!(Leb128::<u64>::encoded_len(300), Some(2));
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Leb128<T>(PhantomData<T>);

impl<T: Varint> Format for Leb128<T> {
    type Value = T;
    const MAX_LEN: usize = T::MAX_LEN;
    const NAME: &'static str = "LEB128 varint";

    #[inline]
    fn decode(buf: &[u8]) -> Result<(T, usize), DecodeError> {
        crate::decode(buf)
    }
    #[inline]
    fn decode_strict(buf: &[u8]) -> Result<(T, usize), DecodeError> {
        crate::decode_strict(buf)
    }
    #[inline]
    fn encoded_len(value: T) -> Option<usize> {
        Some(crate::encoded_len(value))
    }
    #[inline]
    fn write(value: T, out: &mut [u8]) {
        let _ = crate::try_encode(value, out);
    }
    fn decode_into(input: &[u8], out: &mut [T]) -> Result<Decoded, BulkError> {
        crate::decode_into(input, out)
    }
    fn decode_into_strict(input: &[u8], out: &mut [T]) -> Result<Decoded, BulkError> {
        crate::decode_into_strict(input, out)
    }
}

/// Zigzag-mapped signed values in unsigned LEB128 (protobuf `sint32`,
/// `sint64`): `S` is `i16`, `i32`, `i64`, `i128` or `isize`, as
/// [`crate::decode_signed`] and [`crate::encode_signed`].
///
/// ```
/// use varint::formats::{Format, Zigzag};
///
/// assert_eq!(Zigzag::<i64>::decode(&[0x03]), Ok((-2, 1)));
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Zigzag<S>(PhantomData<S>);

impl<S> Format for Zigzag<S>
where
    S: ZigZag + Copy,
    S::Unsigned: Varint,
{
    type Value = S;
    const MAX_LEN: usize = <S::Unsigned as Varint>::MAX_LEN;
    const NAME: &'static str = "zigzag varint";

    #[inline]
    fn decode(buf: &[u8]) -> Result<(S, usize), DecodeError> {
        crate::decode_signed(buf)
    }
    #[inline]
    fn decode_strict(buf: &[u8]) -> Result<(S, usize), DecodeError> {
        crate::decode_signed_strict(buf)
    }
    #[inline]
    fn encoded_len(value: S) -> Option<usize> {
        Some(crate::encoded_len(zigzag::encode(value)))
    }
    #[inline]
    fn write(value: S, out: &mut [u8]) {
        let _ = crate::try_encode_signed(value, out);
    }
}

/// Signed LEB128 (DWARF, WebAssembly) of `S`: `i16`, `i32`, `i64` or
/// `i128`, as [`sleb128::decode`] and [`sleb128::encode`].
///
/// ```
/// use varint::formats::{Format, Sleb128};
///
/// assert_eq!(Sleb128::<i32>::decode(&[0x7f]), Ok((-1, 1)));
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Sleb128<S>(PhantomData<S>);

impl<S: SlebInt> Format for Sleb128<S> {
    type Value = S;
    const MAX_LEN: usize = S::MAX_LEN;
    const NAME: &'static str = "SLEB128 varint";

    #[inline]
    fn decode(buf: &[u8]) -> Result<(S, usize), DecodeError> {
        sleb128::decode(buf)
    }
    #[inline]
    fn decode_strict(buf: &[u8]) -> Result<(S, usize), DecodeError> {
        sleb128::decode_strict(buf)
    }
    #[inline]
    fn encoded_len(value: S) -> Option<usize> {
        Some(sleb128::encoded_len(value))
    }
    #[inline]
    fn write(value: S, out: &mut [u8]) {
        let _ = sleb128::try_encode(value, out);
    }
}
