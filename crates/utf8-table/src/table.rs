//! Thompson's table: one row per sequence length, driving both directions.
//!
//! This is the table of Ken Thompson's `mbtowc`/`wctomb` from the 1992 FSS-UTF
//! proposal (later Plan 9's `rune.c`), written out bit by bit. Row `n` (1 to 6)
//! describes the `n`-byte sequences:
//!
//! - `cmask`, `cval`: a lead byte `c` starts an `n`-byte sequence exactly when
//!   `c & cmask == cval`. `cmask` has `n + 1` high bits set (for `n = 1`, one
//!   bit); `cval` has the top `n` of them set, so it is `cmask << 1`.
//! - `shift`: how far the value is shifted right to get the lead byte's
//!   payload, `6 × (n − 1)`: each continuation byte `10xxxxxx` carries 6 bits.
//! - `lmask`: the largest value with an `n`-byte form, `2^bits − 1` where
//!   `bits` is the payload bits of the lead plus `6 × (n − 1)`.
//! - `lval`: the smallest value that *needs* `n` bytes, the previous row's
//!   `lmask + 1`. A decoded value below `lval` is an overlong form; this one
//!   comparison is how the table rejects all of them.
//!
//! The compile-time checks at the bottom of this file prove those four
//! relations for every row, so a typo in a constant does not build.

/// One row of the table; see the [module docs](self).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Row {
    /// Lead-byte mask: the marker bits plus the first payload-free 0 bit.
    pub(crate) cmask: u8,
    /// The marker bits a lead byte of this length has under `cmask`.
    pub(crate) cval: u8,
    /// Bits below the lead byte's payload: `6 × (n − 1)`.
    pub(crate) shift: u32,
    /// The largest value of this length: `2^bits − 1`.
    pub(crate) lmask: u32,
    /// The smallest value of this length; anything smaller is overlong.
    pub(crate) lval: u32,
}

/// The six rows. `TABLE[n - 1]` describes `n`-byte sequences; strict mode
/// reads the first four rows, legacy mode all six.
///
/// The pattern column shows the sequence with `x` for payload bits; bits is
/// the payload width, so `lmask == 2^bits − 1`.
#[rustfmt::skip]
pub(crate) const TABLE: [Row; 6] = [
    //   cmask         cval          shift   lmask         lval          bits  pattern
    Row { cmask: 0x80, cval: 0x00, shift:  0, lmask: 0x7F,       lval: 0         }, //  7  0xxxxxxx
    Row { cmask: 0xE0, cval: 0xC0, shift:  6, lmask: 0x7FF,      lval: 0x80      }, // 11  110xxxxx 10xxxxxx
    Row { cmask: 0xF0, cval: 0xE0, shift: 12, lmask: 0xFFFF,     lval: 0x800     }, // 16  1110xxxx 10xxxxxx ×2
    Row { cmask: 0xF8, cval: 0xF0, shift: 18, lmask: 0x1F_FFFF,  lval: 0x1_0000  }, // 21  11110xxx 10xxxxxx ×3
    Row { cmask: 0xFC, cval: 0xF8, shift: 24, lmask: 0x3FF_FFFF, lval: 0x20_0000 }, // 26  111110xx 10xxxxxx ×4
    Row { cmask: 0xFE, cval: 0xFC, shift: 30, lmask: 0x7FFF_FFFF, lval: 0x400_0000 }, // 31  1111110x 10xxxxxx ×5
];

/// Payload bits of an `n`-byte sequence: 7 for ASCII, then `(7 − n) + 6(n − 1)`.
const fn bits(n: usize) -> u32 {
    if n == 1 {
        7
    } else {
        (7 - n as u32) + 6 * (n as u32 - 1)
    }
}

/// Every invariant of the module docs, for row `i` (0-based, `n = i + 1`).
const fn row_is_consistent(i: usize) -> bool {
    let r = TABLE[i];
    let n = i + 1;
    // `cval` is `cmask` shifted left by one (within a byte).
    let cval_ok = r.cval == r.cmask << 1;
    // `cmask` is `n + 1` high bits, except the ASCII row's single bit.
    let ones = if n == 1 { 1 } else { n as u32 + 1 };
    let cmask_ok = r.cmask.leading_ones() == ones && r.cmask.count_ones() == ones;
    // `shift` is 6 × (n − 1).
    let shift_ok = r.shift == 6 * (n as u32 - 1);
    // `lmask` is 2^bits − 1.
    let lmask_ok = r.lmask as u64 == (1u64 << bits(n)) - 1;
    // `lval` is the previous row's `lmask + 1`, and 0 for the first row.
    let lval_ok = if i == 0 {
        r.lval == 0
    } else {
        r.lval == TABLE[i - 1].lmask + 1
    };
    // The lead byte's payload is exactly the bits `cmask` leaves free, so
    // `cval | (lmask >> shift)` is the largest lead byte of the row and its
    // payload does not touch the marker bits.
    let lead_ok = (r.lmask >> r.shift) as u8 & r.cmask == 0
        && (r.cval | (r.lmask >> r.shift) as u8) == !r.cmask | r.cval;
    cval_ok && cmask_ok && shift_ok && lmask_ok && lval_ok && lead_ok
}

const _: () = {
    let mut i = 0;
    while i < TABLE.len() {
        assert!(row_is_consistent(i), "inconsistent row in TABLE");
        i += 1;
    }
};
// The two modes' limits sit where the rows say they do.
static_assertions::const_assert_eq!(TABLE[3].lmask, 0x1F_FFFF);
static_assertions::const_assert!(0x10_FFFF <= TABLE[3].lmask && 0x10_FFFF >= TABLE[3].lval);
static_assertions::const_assert_eq!(TABLE[5].lmask, i32::MAX as u32);

#[cfg(test)]
mod tests {
    use super::*;

    /// The example of the crate docs, by hand: 吕 U+5415 is a 3-byte value.
    #[test]
    fn lü_by_hand() {
        let v = 0x5415u32;
        let r = TABLE[2];
        assert!(v > TABLE[1].lmask && v <= r.lmask);
        let lead = r.cval | (v >> r.shift) as u8;
        let second = 0x80 | ((v >> 6) & 0x3F) as u8;
        let third = 0x80 | (v & 0x3F) as u8;
        assert_eq!([lead, second, third], [0xE5, 0x90, 0x95]);
        assert_eq!("吕".as_bytes(), [0xE5, 0x90, 0x95]);
    }

    /// The rows partition the byte values: every byte is a continuation byte,
    /// `FE`/`FF`, or the lead of exactly one row.
    #[test]
    fn rows_partition_lead_bytes() {
        for b in 0..=255u8 {
            let rows = TABLE.iter().filter(|r| b & r.cmask == r.cval).count();
            let expected = usize::from(!(0x80..=0xBF).contains(&b) && b < 0xFE);
            assert_eq!(rows, expected, "{b:02X}");
        }
    }
}
