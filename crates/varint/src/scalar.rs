//! The scalar kernels: one varint read from or written into a byte slice,
//! for every width, with no knowledge of the public traits.
//!
//! This module sits below [`crate::int`] (which implements the sealed
//! traits with these functions) and above nothing but `core`, so the
//! dependency graph of the crate's modules has no cycle: `decode`,
//! `encode`, `bulk`, `sleb128` and `io` use `int`, `int` uses `scalar`.
//!
//! # Reading
//!
//! [`read_u64`] serves `u16`, `u32`, `u64` and `usize`, with the type's
//! `MAX_LEN` and last-byte limit as const parameters. It tries, in order:
//!
//! 1. one byte below `0x80`: the common case in protobuf (tags, small
//!    lengths, booleans, enums) costs one compare;
//! 2. two bytes, the second below `0x80`;
//! 3. for `MAX_LEN == 10` with at least 10 bytes left: one little-endian
//!    8-byte load. The terminator is the lowest byte whose top bit is clear,
//!    found with one `trailing_zeros`; the bytes after it are masked off and
//!    the eight 7-bit groups are packed together in three shift-and-or
//!    steps (14-, 28-, then 56-bit lanes). Bytes 9 and 10 are merged in
//!    with masks. No branch depends on the length from 3 to 10 bytes, so
//!    random lengths cost no misprediction here;
//! 4. otherwise (fewer than 10 bytes left, or a narrower type) [`read_loop`],
//!    the one byte loop every width shares (`u128` goes there after its
//!    one-byte test, and so do the signed LEB128 readers).
//!
//! Every path reads only bytes inside the slice and decides its result from
//! the first `MAX_LEN` bytes alone; the 8-byte load of step 3 is within the
//! first `MAX_LEN` = 10 bytes.
//!
//! # Writing
//!
//! [`put_u64`] writes one- and two-byte values with a store per byte, 3 to
//! 8 bytes with two overlapping stores of a word whose 7-bit groups were
//! spread by [`unpack7`], and longer values with [`write_groups`], the one
//! byte loop every width shares.

use core::ops::{BitOr, Shl, Shr};

use codec_core::DecodeError;

/// The top bit of every byte of a `u64`.
pub(crate) const CONTINUATION: u64 = 0x8080_8080_8080_8080;

/// A word the byte loops work in: `u64` or `u128` to read, and also `i64`
/// or `i128` to write signed LEB128, whose arithmetic shifts give the sign
/// bits of the last byte.
pub(crate) trait Word:
    Copy + Default + From<u8> + Shl<u32, Output = Self> + Shr<u32, Output = Self> + BitOr<Output = Self>
{
    /// The low 8 bits, truncating.
    fn low_byte(self) -> u8;
    /// Whether the value is below `0x80`: the last group.
    fn is_last_group(self) -> bool;
}

macro_rules! word {
    ($($t:ty),*) => {$(
        impl Word for $t {
            #[inline(always)]
            fn low_byte(self) -> u8 {
                self as u8
            }
            #[inline(always)]
            fn is_last_group(self) -> bool {
                (0..0x80).contains(&self)
            }
        }
    )*};
}

word!(u64, u128, i64, i128);

/// Branch-free `ceil(bits / 7)` for `bits` in `1..=64`, where `bits` is the
/// position of the highest set bit of `value | 1`: `(9·bits + 64) / 64`,
/// one multiply-add and one shift (protobuf's C++ `VarintSize64` trick).
///
/// `9/64` is just above `1/7`, and the `+ 64` rounds up. It is exact up to 70
/// bits and first wrong at 71, so `u128` uses [`len_from_bits_128`]. The
/// const block at the end of this file checks every `bits` against the
/// division.
#[inline(always)]
pub(crate) const fn len_from_bits(bits: u32) -> usize {
    ((bits * 9 + 64) / 64) as usize
}

/// `ceil(bits / 7)` for `bits` in `1..=128`: a division by a constant, which
/// compiles to a multiply and shifts, still branch-free.
#[inline(always)]
pub(crate) const fn len_from_bits_128(bits: u32) -> usize {
    bits.div_ceil(7) as usize
}

/// Packs the low 7 bits of each of the 8 bytes of `x` (whose top bits must
/// be clear) into the low 56 bits.
#[inline(always)]
pub(crate) const fn pack7(x: u64) -> u64 {
    let x = (x & 0x007F_007F_007F_007F) | ((x & 0x7F00_7F00_7F00_7F00) >> 1);
    let x = (x & 0x0000_3FFF_0000_3FFF) | ((x & 0x3FFF_0000_3FFF_0000) >> 2);
    (x & 0x0000_0000_0FFF_FFFF) | ((x & 0x0FFF_FFFF_0000_0000) >> 4)
}

/// Spreads the low 56 bits of `v` into the low 7 bits of each of 8 bytes:
/// the inverse of [`pack7`].
#[inline(always)]
pub(crate) const fn unpack7(v: u64) -> u64 {
    let x = (v & 0x0000_0000_0FFF_FFFF) | ((v & 0x00FF_FFFF_F000_0000) << 4);
    let x = (x & 0x0000_3FFF_0000_3FFF) | ((x & 0x0FFF_C000_0FFF_C000) << 2);
    (x & 0x007F_007F_007F_007F) | ((x & 0x3F80_3F80_3F80_3F80) << 1)
}

/// The kernel for every type up to 64 bits: `MAX` is `MAX_LEN` (3, 5 or
/// 10), `LAST` the largest allowed `MAX`-th byte. See the module docs.
#[inline(always)]
pub(crate) fn read_u64<const MAX: usize, const LAST: u8, const STRICT: bool>(
    buf: &[u8],
) -> Result<(u64, usize), DecodeError> {
    const { assert!(MAX >= 3 && MAX <= 10) };
    let Some(&b0) = buf.first() else {
        return Err(DecodeError::Truncated);
    };
    if b0 < 0x80 {
        return Ok((b0.into(), 1));
    }
    if let Some(&b1) = buf.get(1)
        && b1 < 0x80
    {
        if STRICT && b1 == 0 {
            return Err(DecodeError::NonCanonical);
        }
        return Ok((u64::from(b0 & 0x7F) | u64::from(b1) << 7, 2));
    }
    if MAX == 10
        && let Some(head) = buf.first_chunk::<10>()
    {
        return read_u64_word::<LAST, STRICT>(head);
    }
    read_loop::<u64, MAX, LAST, false, STRICT>(buf)
}

/// Step 3 of [`read_u64`]: 10 bytes available, `MAX_LEN == 10`. No branch
/// depends on the length, 9 and 10 bytes included: the 9- and 10-byte
/// parts are computed always and selected with masks.
#[inline(always)]
pub(crate) fn read_u64_word<const LAST: u8, const STRICT: bool>(
    head: &[u8; 10],
) -> Result<(u64, usize), DecodeError> {
    let mut low8 = [0u8; 8];
    low8.copy_from_slice(&head[..8]);
    let word = u64::from_le_bytes(low8);
    let (b8, b9) = (head[8], head[9]);
    // The top bit of every byte that ends a varint; none if it is 9 or 10
    // bytes long.
    let stops = !word & CONTINUATION;
    let long = stops == 0;
    // Every bit up to and including the first stop bit (all of them when
    // there is none): the varint's bytes within the word.
    let keep = stops ^ stops.wrapping_sub(1);
    let low = pack7(word & keep & !CONTINUATION);
    let tenth = b8 >> 7; // 1 if byte 9 continues into byte 10
    // trailing_zeros(0) = 64 gives 9 for the long case.
    let len = (stops.trailing_zeros() / 8 + 1) as usize + usize::from(long & (tenth == 1));
    let high = (u64::from(b8 & 0x7F) << 56
        | (u64::from(b9) << 63) & 0u64.wrapping_sub(tenth.into()))
        & 0u64.wrapping_sub(long.into());
    // `&`, not `&&`: one branch, never taken on valid input.
    if long & (tenth == 1) & (b9 > LAST) {
        return Err(DecodeError::Overflow);
    }
    if STRICT {
        let last = match len {
            9 => b8,
            10 => b9,
            _ => (word >> (8 * (len - 1))) as u8,
        };
        if last == 0 && len > 1 {
            return Err(DecodeError::NonCanonical);
        }
    }
    Ok((low | high, len))
}

/// The byte loop every width shares: at most `MAX` bytes, accumulated in
/// `W`, least significant group first.
///
/// The `MAX`-th byte must not continue and must be at most `LAST`; with
/// `SIGNED` (signed LEB128) it may also be at least `0x7F - LAST`, the sign
/// extension of a negative value. With `STRICT`, a multi-byte encoding whose
/// last byte only repeats what the byte before implies is
/// [`DecodeError::NonCanonical`]: `0x00` (unsigned, or signed after a byte
/// whose bit 6 is clear) or `0x7F` (signed, after a byte whose bit 6 is
/// set).
///
/// Returns the raw groups (for signed LEB128, not yet sign-extended) and the
/// length.
#[inline(always)]
pub(crate) fn read_loop<
    W: Word,
    const MAX: usize,
    const LAST: u8,
    const SIGNED: bool,
    const STRICT: bool,
>(
    buf: &[u8],
) -> Result<(W, usize), DecodeError> {
    let mut value = W::default();
    let mut prev = 0u8;
    for (i, &b) in buf.iter().take(MAX).enumerate() {
        let last = i == MAX - 1;
        if last {
            // The last allowed byte: no continuation, no excess bits.
            let fits = b <= LAST || (SIGNED && b >= 0x7F - LAST && b <= 0x7F);
            if !fits {
                return Err(DecodeError::Overflow);
            }
        }
        value = value | W::from(b & 0x7F) << (7 * i as u32);
        if b < 0x80 {
            if STRICT && i > 0 && redundant::<SIGNED>(prev, b) {
                return Err(DecodeError::NonCanonical);
            }
            return Ok((value, i + 1));
        }
        prev = b;
    }
    Err(DecodeError::Truncated)
}

/// Whether a last byte `last` after the byte `prev` adds nothing: the
/// encoding one byte shorter has the same value.
#[inline(always)]
pub(crate) const fn redundant<const SIGNED: bool>(prev: u8, last: u8) -> bool {
    if SIGNED {
        (last == 0 && prev & 0x40 == 0) || (last == 0x7F && prev & 0x40 != 0)
    } else {
        last == 0
    }
}

/// The `u128` reader: a one-byte fast path, then [`read_loop`]. (Rare
/// enough on the wire that it has no word path.)
#[inline]
pub(crate) fn read_u128<const MAX: usize, const LAST: u8, const STRICT: bool>(
    buf: &[u8],
) -> Result<(u128, usize), DecodeError> {
    if let Some(&b0) = buf.first()
        && b0 < 0x80
    {
        return Ok((b0.into(), 1));
    }
    read_loop::<u128, MAX, LAST, false, STRICT>(buf)
}

/// Writes the encoding of `v` (a value of a type with `MAX_LEN == MAX`) at
/// the start of `buf` and returns its length, or returns `None` and writes
/// nothing if `buf` is too short.
///
/// Measured on the distributions of `benches/benches/varint.rs`
/// (`docs/results/varint.md`):
/// - room for `MAX` bytes checked first (a buffer shorter than that takes
///   the exact check in `put_u64_short`), then one byte, then two, each
///   with a store per byte. Checking the one-byte case before the room
///   measured 1.6 against 1.1 ns a one-byte value;
/// - 3 to 8 bytes without a loop: the 7-bit groups are spread over a word
///   ([`unpack7`]), the continuation bits or-ed in, and the bytes written
///   with two overlapping stores (2 + 1 bytes for length 3, 4 + 4 for
///   4 to 8). This is 1.3× faster than a loop on uniformly random lengths.
///   Writing lengths 1 and 2 this way too was 3× slower on all-one- and
///   all-two-byte input, so they keep their branches;
/// - 9 and 10 bytes: one 8-byte store and two byte stores, no branch on
///   the length (a loop measured 9.5 ns a value on uniform `u64`, tied
///   with prost, its exit a 50/50 branch).
///
/// Only bytes below the returned length are written, so a caller's data
/// after them is never touched.
#[inline(always)]
pub(crate) fn put_u64<const MAX: usize>(v: u64, buf: &mut [u8]) -> Option<usize> {
    let Some(out) = buf.first_chunk_mut::<MAX>() else {
        return put_u64_short(v, buf);
    };
    if v < 0x80 {
        out[0] = v as u8;
        return Some(1);
    }
    if v < 0x4000 {
        out[0] = v as u8 | 0x80;
        out[1] = (v >> 7) as u8;
        return Some(2);
    }
    if v < 1 << 56 {
        let len = len_from_bits(u64::BITS - v.leading_zeros());
        // Continuation bits on every byte but the last.
        let word = unpack7(v) | (CONTINUATION & ((1 << (8 * (len - 1))) - 1));
        if len == 3 {
            out[..2].copy_from_slice(&(word as u16).to_le_bytes());
            out[2] = (word >> 16) as u8;
        } else {
            out[..4].copy_from_slice(&(word as u32).to_le_bytes());
            let high = (word >> (8 * (len - 4))) as u32;
            out[len - 4..len].copy_from_slice(&high.to_le_bytes());
        }
        return Some(len);
    }
    // 9 or 10 bytes (only `u64` gets here: `MAX == 10`). The first 8 all
    // continue; byte 9 holds bits 56..63 and continues if bit 63 is set;
    // byte 10 is bit 63. No branch on which of the two lengths it is (50/50
    // on uniform `u64`): byte 10 is stored either way, with its old value
    // when the encoding ends at byte 9, so the caller's data is unchanged.
    let Some(out) = out.first_chunk_mut::<10>() else {
        // Not reached: a narrower type's value is below 2^56.
        let len = len_from_bits(u64::BITS - v.leading_zeros());
        write_groups(v, buf.get_mut(..len)?);
        return Some(len);
    };
    let long = v >> 63 == 1;
    out[..8].copy_from_slice(&(unpack7(v) | CONTINUATION).to_le_bytes());
    let top = (v >> 56) as u8;
    out[8] = (top & 0x7F) | u8::from(long) << 7;
    let tenth = [out[9], 1];
    out[9] = tenth[usize::from(long)];
    Some(9 + usize::from(long))
}

/// [`put_u64`] into a buffer shorter than `MAX_LEN`: the exact length is
/// checked first.
#[cold]
#[inline(never)]
fn put_u64_short(v: u64, buf: &mut [u8]) -> Option<usize> {
    let len = len_from_bits(u64::BITS - (v | 1).leading_zeros());
    write_groups(v, buf.get_mut(..len)?);
    Some(len)
}

/// Writes the groups of `v` into `out`, which is exactly as long as the
/// encoding: every byte but the last carries 7 bits and the continuation
/// bit, the last one what is left. (For signed LEB128 the caller passes the
/// two's-complement bits cut to `7 · out.len()`.)
#[inline(always)]
pub(crate) fn write_groups<W: Word>(mut v: W, out: &mut [u8]) {
    if let Some((last, init)) = out.split_last_mut() {
        for b in init {
            *b = v.low_byte() | 0x80;
            v = v >> 7;
        }
        *last = v.low_byte() & 0x7F;
    }
}

/// Writes the `u128` encoding of `v` at the start of `buf`, or returns
/// `None` if `buf` is too short.
#[inline]
pub(crate) fn put_u128(v: u128, buf: &mut [u8]) -> Option<usize> {
    if v.is_last_group() {
        let b = buf.first_mut()?;
        *b = v as u8;
        return Some(1);
    }
    let len = len_from_bits_128(u128::BITS - v.leading_zeros());
    write_groups(v, buf.get_mut(..len)?);
    Some(len)
}

// The 9/64 formula is exact for every width it serves.
const _: () = {
    let mut bits = 1;
    while bits <= 64 {
        assert!(len_from_bits(bits) == len_from_bits_128(bits));
        // By counting groups of seven.
        let (mut groups, mut left) = (0, bits);
        while left > 0 {
            groups += 1;
            left = left.saturating_sub(7);
        }
        assert!(len_from_bits_128(bits) == groups);
        bits += 1;
    }
};
