//! The three nibble lookup tables of Keiser and Lemire, built from named
//! error bits.
//!
//! For every pair of adjacent bytes `(prev, cur)` the kernels look up
//! [`BYTE_1_HIGH`]`[prev >> 4]`, [`BYTE_1_LOW`]`[prev & 0x0F]` and
//! [`BYTE_2_HIGH`]`[cur >> 4]` with one byte shuffle each and AND the three
//! results. Each bit of a table entry stands for one error class; a bit
//! survives the AND only if all three nibbles are compatible with that class,
//! that is, if the pair matches the class's byte pattern. So a nonzero result
//! means the pair is wrong, with one exception: [`TWO_CONTS`] (two
//! continuation bytes in a row) is *required* at the third and fourth byte of
//! a 3- and 4-byte character, and the kernel XORs it against a second check
//! that says where such bytes must be.
//!
//! The bit assignment is the paper's (Keiser & Lemire, "Validating UTF-8 In
//! Less Than One Instruction Per Byte", Software: Practice and Experience,
//! 2021, §5), which lets [`TOO_LARGE_1000`] and [`OVERLONG_4`] share a bit: the
//! low nibble of the lead keeps them apart (`F0` versus `F5..=FF`).
//!
//! The kernels in `arch` rely on these tables; `tests` below checks every
//! one of the 65,536 byte pairs against the patterns in the bit docs, and
//! `cargo xtask gen-tables` re-derives the tables from the error classes and
//! compares them with these constants, so keep the names.
//!
//! In the patterns, `_` is any bit: `110_____` is a 2-byte lead.

/// `11______ 0_______` or `11______ 11______`: a lead byte followed by a
/// byte that is not a continuation byte.
pub const TOO_SHORT: u8 = 1 << 0;
/// `0_______ 10______`: a continuation byte after an ASCII byte.
pub const TOO_LONG: u8 = 1 << 1;
/// `11100000 100_____`: an overlong 3-byte form (`E0 80..=9F`).
pub const OVERLONG_3: u8 = 1 << 2;
/// `11110100 1001____`, `11110100 101_____` (`F4 90..=BF`) and
/// `11110101..=11111111 1001____ / 101_____` (`F5..=FF 90..=BF`): a value
/// above U+10FFFF, or a lead byte that is never valid.
pub const TOO_LARGE: u8 = 1 << 3;
/// `11101101 101_____`: an encoded UTF-16 surrogate (`ED A0..=BF`).
pub const SURROGATE: u8 = 1 << 4;
/// `1100000_ 10______`: an overlong 2-byte form (`C0`, `C1` followed by a
/// continuation byte).
pub const OVERLONG_2: u8 = 1 << 5;
/// `11110101..=11111111 1000____` (`F5..=FF 80..=8F`): the part of
/// [`TOO_LARGE`] with a second byte in `80..=8F`, which [`TOO_LARGE`] itself
/// must leave out because `F4 80..=8F` is valid.
pub const TOO_LARGE_1000: u8 = 1 << 6;
/// `11110000 1000____`: an overlong 4-byte form (`F0 80..=8F`). Shares its
/// bit with [`TOO_LARGE_1000`]; the low nibble of the lead keeps them apart.
pub const OVERLONG_4: u8 = 1 << 6;
/// `10______ 10______`: two continuation bytes in a row. An error unless the
/// second one is the third or fourth byte of a character, which the kernel
/// checks separately and XORs in.
pub const TWO_CONTS: u8 = 1 << 7;
/// The classes that hold whatever the low nibble of the first byte is.
pub const CARRY: u8 = TOO_SHORT | TOO_LONG | TWO_CONTS;

/// `1100000_ 1000____` in the tables of Modified UTF-8 (utf8-variants):
/// `C0`/`C1` followed by `80..=8F`, on the bit UTF-8 gives
/// [`TOO_LARGE_1000`]. With [`variant::Rules::PairedModifiedNul`] the kernel
/// clears it where both low nibbles are zero (`C0 80`, MUTF-8's NUL); where it
/// stays, the pair is an error.
///
/// [`variant::Rules::PairedModifiedNul`]: crate::variant::Rules::PairedModifiedNul
pub const C0_80: u8 = 1 << 6;

/// `1111____ 10______` in the tables of UTF-8 without its 4-byte forms
/// ([`bmp`], and CESU-8's and MUTF-8's in utf8-variants): a lead byte
/// `F0..=FF` followed by a continuation byte, always an error there. It
/// takes the bit UTF-8 gives [`TOO_LARGE`], whose pairs it covers.
pub const FOUR_BYTE: u8 = 1 << 3;

/// The three nibble tables of one encoding, as the kernel takes them:
/// [`UTF8`] here, those of UTF-8's relatives in utf8-variants.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct NibbleTables {
    /// Indexed by the high nibble of the first byte of a pair.
    pub byte_1_high: [u8; 16],
    /// Indexed by the low nibble of the first byte of a pair.
    pub byte_1_low: [u8; 16],
    /// Indexed by the high nibble of the second byte of a pair.
    pub byte_2_high: [u8; 16],
}

/// UTF-8's tables: [`BYTE_1_HIGH`], [`BYTE_1_LOW`], [`BYTE_2_HIGH`].
pub const UTF8: NibbleTables = NibbleTables {
    byte_1_high: BYTE_1_HIGH,
    byte_1_low: BYTE_1_LOW,
    byte_2_high: BYTE_2_HIGH,
};

/// UTF-8 without its 4-byte forms (every character in the Basic
/// Multilingual Plane): [`bmp::BYTE_1_HIGH`], [`bmp::BYTE_1_LOW`],
/// [`bmp::BYTE_2_HIGH`]. The check of [`variant::bmp_str`] reads them.
///
/// [`variant::bmp_str`]: crate::variant::bmp_str
pub const UTF8_BMP: NibbleTables = NibbleTables {
    byte_1_high: bmp::BYTE_1_HIGH,
    byte_1_low: bmp::BYTE_1_LOW,
    byte_2_high: bmp::BYTE_2_HIGH,
};

/// `00000000 ________` in [`UTF8_BMP_WITHOUT_NUL`]: the byte `00`, followed
/// by anything, on the bit the BMP tables leave unused. (A pair class sees
/// `00` one byte late, as the first byte of its pair: the last byte of an
/// input, and of a run before an ASCII run, is the check's caller's.)
pub const NUL_BYTE: u8 = 1 << 6;

/// [`UTF8_BMP`] without the byte `00`: the same tables with [`NUL_BYTE`] in
/// `BYTE_1_HIGH[0]`, `BYTE_1_LOW[0]` and every `BYTE_2_HIGH` entry.
pub const UTF8_BMP_WITHOUT_NUL: NibbleTables = {
    let mut t = UTF8_BMP;
    t.byte_1_high[0] |= NUL_BYTE;
    t.byte_1_low[0] |= NUL_BYTE;
    let mut i = 0;
    while i < 16 {
        t.byte_2_high[i] |= NUL_BYTE;
        i += 1;
    }
    t
};

pub mod bmp {
    //! The nibble tables of UTF-8 without its 4-byte forms: UTF-8's, with
    //! the classes of the 4-byte leads ([`TOO_LARGE`](super::TOO_LARGE),
    //! [`TOO_LARGE_1000`](super::TOO_LARGE_1000),
    //! [`OVERLONG_4`](super::OVERLONG_4), and the valid forms) merged into
    //! one error, [`FOUR_BYTE`]: any `F0..=FF` followed by a continuation
    //! byte. What they accept is a subset of UTF-8, which is what lets
    //! [`variant::bmp_str`](crate::variant::bmp_str) hand out a `&str`:
    //! `cargo xtask gen-tables --check` derives them from the specification
    //! and proves the check that reads them equal to the grammar, and the
    //! tests below check every byte pair. Bit 6 is unused.
    //!
    //! CESU-8 and Modified UTF-8 (utf8-variants) read the same bytes, with
    //! [`SURROGATE`] as the marker of their pairing check instead of an
    //! error. [`UTF8_BMP_WITHOUT_NUL`](super::UTF8_BMP_WITHOUT_NUL) adds
    //! [`NUL_BYTE`](super::NUL_BYTE) on bit 6.

    use super::{FOUR_BYTE, OVERLONG_2, OVERLONG_3, SURROGATE, TOO_LONG, TOO_SHORT, TWO_CONTS};

    /// Indexed by the high nibble of the first byte of a pair.
    #[rustfmt::skip]
    pub const BYTE_1_HIGH: [u8; 16] = [
        // 0___ ____: ASCII
        TOO_LONG, TOO_LONG, TOO_LONG, TOO_LONG, TOO_LONG, TOO_LONG, TOO_LONG, TOO_LONG,
        // 10__ ____: continuation
        TWO_CONTS, TWO_CONTS, TWO_CONTS, TWO_CONTS,
        // 1100 ____: C0 and C1 among them
        TOO_SHORT | OVERLONG_2,
        TOO_SHORT,
        // 1110 ____: E0 and ED among them
        TOO_SHORT | OVERLONG_3 | SURROGATE,
        // 1111 ____: no 4-byte forms
        TOO_SHORT | FOUR_BYTE,
    ];

    /// Indexed by the low nibble of the first byte of a pair.
    #[rustfmt::skip]
    pub const BYTE_1_LOW: [u8; 16] = [
        // ____ 0000: C0, E0
        TOO_SHORT | TOO_LONG | OVERLONG_3 | FOUR_BYTE | OVERLONG_2 | TWO_CONTS,
        // ____ 0001: C1
        TOO_SHORT | TOO_LONG | FOUR_BYTE | OVERLONG_2 | TWO_CONTS,
        TOO_SHORT | TOO_LONG | FOUR_BYTE | TWO_CONTS,
        TOO_SHORT | TOO_LONG | FOUR_BYTE | TWO_CONTS,
        TOO_SHORT | TOO_LONG | FOUR_BYTE | TWO_CONTS,
        TOO_SHORT | TOO_LONG | FOUR_BYTE | TWO_CONTS,
        TOO_SHORT | TOO_LONG | FOUR_BYTE | TWO_CONTS,
        TOO_SHORT | TOO_LONG | FOUR_BYTE | TWO_CONTS,
        TOO_SHORT | TOO_LONG | FOUR_BYTE | TWO_CONTS,
        TOO_SHORT | TOO_LONG | FOUR_BYTE | TWO_CONTS,
        TOO_SHORT | TOO_LONG | FOUR_BYTE | TWO_CONTS,
        TOO_SHORT | TOO_LONG | FOUR_BYTE | TWO_CONTS,
        TOO_SHORT | TOO_LONG | FOUR_BYTE | TWO_CONTS,
        // ____ 1101: ED
        TOO_SHORT | TOO_LONG | FOUR_BYTE | SURROGATE | TWO_CONTS,
        TOO_SHORT | TOO_LONG | FOUR_BYTE | TWO_CONTS,
        TOO_SHORT | TOO_LONG | FOUR_BYTE | TWO_CONTS,
    ];

    /// Indexed by the high nibble of the second byte of a pair.
    #[rustfmt::skip]
    pub const BYTE_2_HIGH: [u8; 16] = [
        // 0___ ____: ASCII
        TOO_SHORT, TOO_SHORT, TOO_SHORT, TOO_SHORT, TOO_SHORT, TOO_SHORT, TOO_SHORT, TOO_SHORT,
        // 100_ ____
        TOO_LONG | OVERLONG_3 | FOUR_BYTE | OVERLONG_2 | TWO_CONTS,
        TOO_LONG | OVERLONG_3 | FOUR_BYTE | OVERLONG_2 | TWO_CONTS,
        // 101_ ____: A0..=BF after ED, a surrogate
        TOO_LONG | FOUR_BYTE | SURROGATE | OVERLONG_2 | TWO_CONTS,
        TOO_LONG | FOUR_BYTE | SURROGATE | OVERLONG_2 | TWO_CONTS,
        // 11__ ____: a lead byte
        TOO_SHORT, TOO_SHORT, TOO_SHORT, TOO_SHORT,
    ];
}

/// Indexed by the high nibble of the first byte of a pair.
#[rustfmt::skip]
pub const BYTE_1_HIGH: [u8; 16] = [
    // 0___ ____: ASCII
    TOO_LONG, TOO_LONG, TOO_LONG, TOO_LONG,
    TOO_LONG, TOO_LONG, TOO_LONG, TOO_LONG,
    // 10__ ____: continuation
    TWO_CONTS, TWO_CONTS, TWO_CONTS, TWO_CONTS,
    // 1100 ____: 2-byte lead, C0 and C1 among them
    TOO_SHORT | OVERLONG_2,
    // 1101 ____: 2-byte lead
    TOO_SHORT,
    // 1110 ____: 3-byte lead
    TOO_SHORT | OVERLONG_3 | SURROGATE,
    // 1111 ____: 4-byte lead, and F5..=FF
    TOO_SHORT | TOO_LARGE | TOO_LARGE_1000 | OVERLONG_4,
];

/// Indexed by the low nibble of the first byte of a pair.
#[rustfmt::skip]
pub const BYTE_1_LOW: [u8; 16] = [
    // ____ 0000: C0, E0, F0
    CARRY | OVERLONG_3 | OVERLONG_2 | OVERLONG_4,
    // ____ 0001: C1
    CARRY | OVERLONG_2,
    // ____ 001_
    CARRY,
    CARRY,
    // ____ 0100: F4
    CARRY | TOO_LARGE,
    // ____ 0101 to ____ 1111: F5..=FF
    CARRY | TOO_LARGE | TOO_LARGE_1000,
    CARRY | TOO_LARGE | TOO_LARGE_1000,
    CARRY | TOO_LARGE | TOO_LARGE_1000,
    CARRY | TOO_LARGE | TOO_LARGE_1000,
    CARRY | TOO_LARGE | TOO_LARGE_1000,
    CARRY | TOO_LARGE | TOO_LARGE_1000,
    CARRY | TOO_LARGE | TOO_LARGE_1000,
    CARRY | TOO_LARGE | TOO_LARGE_1000,
    // ____ 1101: ED
    CARRY | TOO_LARGE | TOO_LARGE_1000 | SURROGATE,
    CARRY | TOO_LARGE | TOO_LARGE_1000,
    CARRY | TOO_LARGE | TOO_LARGE_1000,
];

/// Indexed by the high nibble of the second byte of a pair.
#[rustfmt::skip]
pub const BYTE_2_HIGH: [u8; 16] = [
    // 0___ ____: ASCII
    TOO_SHORT, TOO_SHORT, TOO_SHORT, TOO_SHORT,
    TOO_SHORT, TOO_SHORT, TOO_SHORT, TOO_SHORT,
    // 1000 ____
    TOO_LONG | OVERLONG_2 | TWO_CONTS | OVERLONG_3 | TOO_LARGE_1000 | OVERLONG_4,
    // 1001 ____
    TOO_LONG | OVERLONG_2 | TWO_CONTS | OVERLONG_3 | TOO_LARGE,
    // 101_ ____
    TOO_LONG | OVERLONG_2 | TWO_CONTS | SURROGATE | TOO_LARGE,
    TOO_LONG | OVERLONG_2 | TWO_CONTS | SURROGATE | TOO_LARGE,
    // 11__ ____: a lead byte
    TOO_SHORT, TOO_SHORT, TOO_SHORT, TOO_SHORT,
];

#[cfg(test)]
mod tests {
    use super::*;

    fn is_cont(b: u8) -> bool {
        b & 0xC0 == 0x80
    }

    /// The error bits of the pair `(a, b)`, read straight from the patterns
    /// in the bit docs rather than from the tables.
    fn expected(a: u8, b: u8) -> u8 {
        let mut bits = 0;
        if a >= 0xC0 && !is_cont(b) {
            bits |= TOO_SHORT;
        }
        if a < 0x80 && is_cont(b) {
            bits |= TOO_LONG;
        }
        if a == 0xE0 && (0x80..=0x9F).contains(&b) {
            bits |= OVERLONG_3;
        }
        if a >= 0xF4 && (0x90..=0xBF).contains(&b) {
            bits |= TOO_LARGE;
        }
        if a == 0xED && (0xA0..=0xBF).contains(&b) {
            bits |= SURROGATE;
        }
        if (a == 0xC0 || a == 0xC1) && is_cont(b) {
            bits |= OVERLONG_2;
        }
        if a >= 0xF5 && (0x80..=0x8F).contains(&b) {
            bits |= TOO_LARGE_1000;
        }
        if a == 0xF0 && (0x80..=0x8F).contains(&b) {
            bits |= OVERLONG_4;
        }
        if is_cont(a) && is_cont(b) {
            bits |= TWO_CONTS;
        }
        bits
    }

    #[test]
    fn every_byte_pair_matches_the_documented_patterns() {
        for a in 0..=255u8 {
            for b in 0..=255u8 {
                let got = BYTE_1_HIGH[usize::from(a >> 4)]
                    & BYTE_1_LOW[usize::from(a & 0x0F)]
                    & BYTE_2_HIGH[usize::from(b >> 4)];
                assert_eq!(got, expected(a, b), "pair {a:02X} {b:02X}");
            }
        }
    }

    /// The BMP tables: UTF-8's patterns with every 4-byte lead class
    /// replaced by [`FOUR_BYTE`], which matches any `F0..=FF` followed by a
    /// continuation byte.
    #[test]
    fn every_bmp_byte_pair_matches_the_documented_patterns() {
        for a in 0..=255u8 {
            for b in 0..=255u8 {
                let got = bmp::BYTE_1_HIGH[usize::from(a >> 4)]
                    & bmp::BYTE_1_LOW[usize::from(a & 0x0F)]
                    & bmp::BYTE_2_HIGH[usize::from(b >> 4)];
                let mut want = expected(a, b) & !(TOO_LARGE | TOO_LARGE_1000 | OVERLONG_4);
                if a >= 0xF0 && is_cont(b) {
                    want |= FOUR_BYTE;
                }
                assert_eq!(got, want, "pair {a:02X} {b:02X}");
            }
        }
    }

    /// The BMP tables without `00`: the BMP tables' bits, plus [`NUL_BYTE`]
    /// wherever the first byte is `00`.
    #[test]
    fn every_bmp_without_nul_byte_pair_matches_the_documented_patterns() {
        let t = UTF8_BMP_WITHOUT_NUL;
        for a in 0..=255u8 {
            for b in 0..=255u8 {
                let got = t.byte_1_high[usize::from(a >> 4)]
                    & t.byte_1_low[usize::from(a & 0x0F)]
                    & t.byte_2_high[usize::from(b >> 4)];
                let bmp = bmp::BYTE_1_HIGH[usize::from(a >> 4)]
                    & bmp::BYTE_1_LOW[usize::from(a & 0x0F)]
                    & bmp::BYTE_2_HIGH[usize::from(b >> 4)];
                let want = bmp | if a == 0 { NUL_BYTE } else { 0 };
                assert_eq!(got, want, "pair {a:02X} {b:02X}");
            }
        }
    }

    #[test]
    fn a_pair_after_a_lead_byte_is_flagged_exactly_when_std_rejects_it() {
        // Independent of the bit docs: complete the character with
        // continuation bytes, so that only the pair can make it invalid, and
        // ask std whether the character at 0 is well-formed.
        for a in 0xC0..=0xFFu8 {
            for b in 0..=255u8 {
                let got = BYTE_1_HIGH[usize::from(a >> 4)]
                    & BYTE_1_LOW[usize::from(a & 0x0F)]
                    & BYTE_2_HIGH[usize::from(b >> 4)];
                let bytes = [a, b, 0x80, 0x80, b'x'];
                let first_char_ok = match core::str::from_utf8(&bytes) {
                    Ok(_) => true,
                    Err(e) => e.valid_up_to() >= 1,
                };
                assert_eq!(got != 0, !first_char_ok, "pair {a:02X} {b:02X}");
            }
        }
    }
}
