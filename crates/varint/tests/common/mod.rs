//! A reference decoder written independently of the crate, and helpers
//! shared by the test files.
#![allow(dead_code, unreachable_pub)]

use varint::DecodeError;

/// The width in bits and `MAX_LEN` of each type, as the reference sees them.
pub const U16: (u32, usize) = (16, 3);
pub const U32: (u32, usize) = (32, 5);
pub const U64: (u32, usize) = (64, 10);
pub const U128: (u32, usize) = (128, 19);

/// Decodes by the protobuf rules stated in words: read bytes until one is
/// below `0x80`, at most `max_len` of them; the value must fit in `bits`
/// bits, checked on the full (untruncated) value; strict mode wants the
/// shortest encoding, computed by repeated division.
pub fn reference(
    buf: &[u8],
    (bits, max_len): (u32, usize),
    strict: bool,
) -> Result<(u128, usize), DecodeError> {
    let mut value: u128 = 0;
    let mut fits = true;
    for i in 0..max_len {
        let Some(&b) = buf.get(i) else {
            return Err(DecodeError::Truncated);
        };
        let group = u128::from(b & 0x7F);
        // Does `group << 7i` fit in `bits` bits? Compare magnitudes without
        // shifting anything out.
        if group != 0 {
            let top = 7 * i as u32 + (128 - group.leading_zeros());
            if top > bits {
                fits = false;
            } else {
                value |= group << (7 * i);
            }
        }
        if b < 0x80 {
            if !fits {
                return Err(DecodeError::Overflow);
            }
            let n = i + 1;
            if strict && n != shortest_len(value) {
                return Err(DecodeError::NonCanonical);
            }
            return Ok((value, n));
        }
    }
    // `max_len` bytes, all with the continuation bit.
    Err(DecodeError::Overflow)
}

/// The shortest encoding's length, by division.
pub fn shortest_len(mut v: u128) -> usize {
    let mut n = 1;
    while v >= 128 {
        v /= 128;
        n += 1;
    }
    n
}

/// A small deterministic generator (xorshift), for tests that want many
/// varied inputs without quickcheck's shrinking.
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.0 = x;
        x
    }

    /// A value whose encoded length is uniform over the type's lengths.
    pub fn value_bits(&mut self, bits: u32) -> u128 {
        let r = u128::from(self.next()) << 64 | u128::from(self.next());
        let keep = (self.next() % u64::from(bits)) as u32 + 1;
        if keep == 128 {
            r
        } else {
            r & ((1u128 << keep) - 1)
        }
    }
}
