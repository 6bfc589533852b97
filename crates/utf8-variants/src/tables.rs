//! The tables every validator of this crate runs on, one module per
//! encoding: a DFA (byte classes and premultiplied transitions, as in
//! utf8-dfa) for the scalar path, and the three nibble tables of the
//! Keiser–Lemire check for the SIMD path.
//!
//! They are written by hand and derived again, from UTF-8's grammar with the
//! encoding's rules switched on or off, by `cargo xtask gen-tables`, whose
//! `--check` compares every entry (docs/tables.md explains each difference
//! from UTF-8). Keep the names: xtask reads them.
//!
//! Each DFA is the whole language, surrogate pairing included (the pairing
//! rule is regular): a byte-at-a-time walk needs nothing else. States are
//! premultiplied by the number of classes; [`cesu8::ACCEPT`] (0) is "between
//! characters", [`cesu8::REJECT`] (one stride) is the trap. Classes are
//! numbered in the order of their smallest byte, states in breadth-first
//! order from ACCEPT after REJECT and the other accepting states.
//!
//! The nibble tables use utf8-simd's error bits where the class is UTF-8's,
//! and two bits of their own where UTF-8's class is gone: [`FOUR_BYTE`] on
//! UTF-8's `TOO_LARGE` bit and [`C0_80`] on its `TOO_LARGE_1000` /
//! `OVERLONG_4` bit. [`SURROGATE`] is not an error in these encodings but
//! the marker the kernel's pairing check reads.

pub use utf8_simd::tables::{OVERLONG_2, OVERLONG_3, SURROGATE, TOO_LONG, TOO_SHORT, TWO_CONTS};

/// `1111____ 10______`: a lead byte `F0..=FF` followed by a continuation
/// byte. CESU-8 and MUTF-8 have no 4-byte forms: they write supplementary
/// characters as surrogate pairs. (utf8-simd's, whose tables of UTF-8
/// without 4-byte forms use it too.)
pub use utf8_simd::tables::FOUR_BYTE;

/// `1100000_ 1000____`: `C0` or `C1` followed by `80..=8F`. Modified UTF-8
/// writes U+0000 as `C0 80`, and the kernel clears this bit where both low
/// nibbles are zero (the nibble tables alone cannot tell `C0 80` from
/// `C0 81`); where it stays, the pair is an error.
pub const C0_80: u8 = 1 << 6;

pub mod cesu8 {
    //! CESU-8 (Unicode Technical Report #26): UTF-8 without its 4-byte
    //! forms, whose characters are written as a lead surrogate
    //! `ED A0..=AF 80..=BF` followed by a trail surrogate
    //! `ED B0..=BF 80..=BF`, and without lone surrogates.
    //!
    //! | class | bytes |
    //! |---:|---|
    //! | 0 | `00..=7F` |
    //! | 1 | `80..=9F` |
    //! | 2 | `A0..=AF` |
    //! | 3 | `B0..=BF` |
    //! | 4 | `C0 C1 F0..=FF` (never valid) |
    //! | 5 | `C2..=DF` |
    //! | 6 | `E0` |
    //! | 7 | `E1..=EC EE EF` |
    //! | 8 | `ED` |

    /// The number of byte classes: the stride of the premultiplied states.
    pub const CLASSES: usize = 9;
    /// The number of states.
    pub const STATES: usize = 9;
    /// Between characters: everything so far is well-formed.
    pub const ACCEPT: u8 = 0;
    /// The trap: the input is ill-formed.
    pub const REJECT: u8 = 9;

    /// The class of each byte, 16 a row.
    #[rustfmt::skip]
    pub const BYTE_CLASS: [u8; 256] = [
    //  0  1  2  3  4  5  6  7  8  9  A  B  C  D  E  F
        0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, // 00
        0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, // 10
        0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, // 20
        0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, // 30
        0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, // 40
        0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, // 50
        0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, // 60
        0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, // 70
        1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, // 80
        1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, // 90
        2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, // A0
        3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, // B0
        4, 4, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, // C0
        5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, // D0
        6, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 8, 7, 7, // E0
        4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, // F0
    ];

    /// The transitions, one state a row: `TRANSITION[state + class]`.
    #[rustfmt::skip]
    pub const TRANSITION: [u8; 81] = [
    // class:
    //  0   1   2   3   4   5   6   7   8
        0,  9,  9,  9,  9, 18, 27, 36, 45, //  0 ACCEPT
        9,  9,  9,  9,  9,  9,  9,  9,  9, //  9 REJECT
        9,  0,  0,  0,  9,  9,  9,  9,  9, // 18 one continuation to go
        9,  9, 18, 18,  9,  9,  9,  9,  9, // 27 after E0: A0..=BF
        9, 18, 18, 18,  9,  9,  9,  9,  9, // 36 two to go
        9, 18, 54,  9,  9,  9,  9,  9,  9, // 45 after ED: 80..=9F, or A0..=AF (a lead surrogate)
        9, 63, 63, 63,  9,  9,  9,  9,  9, // 54 after ED A0..=AF: its last byte
        9,  9,  9,  9,  9,  9,  9,  9, 72, // 63 after a lead surrogate: the trail's ED
        9,  9,  9, 18,  9,  9,  9,  9,  9, // 72 after a lead and ED: B0..=BF
    ];

    // The nibble tables are those of UTF-8 without 4-byte forms, which
    // utf8-simd owns for its BMP check (`tables::bmp`: the same classes,
    // with SURROGATE an error there and the pairing marker here).
    pub use utf8_simd::tables::bmp::{BYTE_1_HIGH, BYTE_1_LOW, BYTE_2_HIGH};
}

pub mod mutf8 {
    //! Java's Modified UTF-8 (The Java Virtual Machine Specification,
    //! §4.4.7): CESU-8 with U+0000 written as `C0 80`, so that no byte is
    //! `00`.
    //!
    //! | class | bytes |
    //! |---:|---|
    //! | 0 | `00 C1 F0..=FF` (never valid) |
    //! | 1 | `01..=7F` |
    //! | 2 | `80` |
    //! | 3 | `81..=9F` |
    //! | 4 | `A0..=AF` |
    //! | 5 | `B0..=BF` |
    //! | 6 | `C0` |
    //! | 7 | `C2..=DF` |
    //! | 8 | `E0` |
    //! | 9 | `E1..=EC EE EF` |
    //! | 10 | `ED` |

    use super::{
        C0_80, FOUR_BYTE, OVERLONG_2, OVERLONG_3, SURROGATE, TOO_LONG, TOO_SHORT, TWO_CONTS,
    };

    /// The number of byte classes: the stride of the premultiplied states.
    pub const CLASSES: usize = 11;
    /// The number of states.
    pub const STATES: usize = 10;
    /// Between characters: everything so far is well-formed.
    pub const ACCEPT: u8 = 0;
    /// The trap: the input is ill-formed.
    pub const REJECT: u8 = 11;

    /// The class of each byte, 16 a row.
    #[rustfmt::skip]
    pub const BYTE_CLASS: [u8; 256] = [
    //  0  1  2  3  4  5  6  7  8  9  A  B  C  D  E  F
        0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, // 00
        1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, // 10
        1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, // 20
        1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, // 30
        1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, // 40
        1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, // 50
        1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, // 60
        1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, // 70
        2, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, // 80
        3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, // 90
        4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, // A0
        5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, // B0
        6, 0, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, // C0
        7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, // D0
        8, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9,10, 9, 9, // E0
        0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, // F0
    ];

    /// The transitions, one state a row: `TRANSITION[state + class]`.
    #[rustfmt::skip]
    pub const TRANSITION: [u8; 110] = [
    // class:
    //  0   1   2   3   4   5   6   7   8   9  10
       11,  0, 11, 11, 11, 11, 22, 33, 44, 55, 66, //  0 ACCEPT
       11, 11, 11, 11, 11, 11, 11, 11, 11, 11, 11, // 11 REJECT
       11, 11,  0, 11, 11, 11, 11, 11, 11, 11, 11, // 22 after C0: only 80
       11, 11,  0,  0,  0,  0, 11, 11, 11, 11, 11, // 33 one continuation to go
       11, 11, 11, 11, 33, 33, 11, 11, 11, 11, 11, // 44 after E0: A0..=BF
       11, 11, 33, 33, 33, 33, 11, 11, 11, 11, 11, // 55 two to go
       11, 11, 33, 33, 77, 11, 11, 11, 11, 11, 11, // 66 after ED: 80..=9F, or A0..=AF (a lead surrogate)
       11, 11, 88, 88, 88, 88, 11, 11, 11, 11, 11, // 77 after ED A0..=AF: its last byte
       11, 11, 11, 11, 11, 11, 11, 11, 11, 11, 99, // 88 after a lead surrogate: the trail's ED
       11, 11, 11, 11, 11, 33, 11, 11, 11, 11, 11, // 99 after a lead and ED: B0..=BF
    ];

    /// Indexed by the high nibble of the first byte of a pair.
    #[rustfmt::skip]
    pub const BYTE_1_HIGH: [u8; 16] = [
        // 0___ ____: ASCII
        TOO_LONG, TOO_LONG, TOO_LONG, TOO_LONG, TOO_LONG, TOO_LONG, TOO_LONG, TOO_LONG,
        // 10__ ____: continuation
        TWO_CONTS, TWO_CONTS, TWO_CONTS, TWO_CONTS,
        // 1100 ____: C0 and C1 among them
        TOO_SHORT | OVERLONG_2 | C0_80,
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
        TOO_SHORT | TOO_LONG | OVERLONG_3 | FOUR_BYTE | OVERLONG_2 | C0_80 | TWO_CONTS,
        // ____ 0001: C1
        TOO_SHORT | TOO_LONG | FOUR_BYTE | OVERLONG_2 | C0_80 | TWO_CONTS,
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
        // 1000 ____: C0 80 among them
        TOO_LONG | OVERLONG_3 | FOUR_BYTE | C0_80 | TWO_CONTS,
        // 1001 ____
        TOO_LONG | OVERLONG_3 | FOUR_BYTE | OVERLONG_2 | TWO_CONTS,
        // 101_ ____: A0..=AF a lead surrogate after ED, B0..=BF a trail
        TOO_LONG | FOUR_BYTE | SURROGATE | OVERLONG_2 | TWO_CONTS,
        TOO_LONG | FOUR_BYTE | SURROGATE | OVERLONG_2 | TWO_CONTS,
        // 11__ ____: a lead byte
        TOO_SHORT, TOO_SHORT, TOO_SHORT, TOO_SHORT,
    ];
}

pub mod wtf8 {
    //! WTF-8 (Simon Sapin, "The WTF-8 encoding"): UTF-8 plus surrogates on
    //! their own, but not a lead surrogate immediately followed by a trail
    //! (that pair is written as its 4-byte form). Its nibble tables are
    //! UTF-8's ([`utf8_simd::tables`]), with `SURROGATE` read as the marker of
    //! the pairing check.
    //!
    //! | class | bytes |
    //! |---:|---|
    //! | 0 | `00..=7F` |
    //! | 1 | `80..=8F` |
    //! | 2 | `90..=9F` |
    //! | 3 | `A0..=AF` |
    //! | 4 | `B0..=BF` |
    //! | 5 | `C0 C1 F5..=FF` (never valid) |
    //! | 6 | `C2..=DF` |
    //! | 7 | `E0` |
    //! | 8 | `E1..=EC EE EF` |
    //! | 9 | `ED` |
    //! | 10 | `F0` |
    //! | 11 | `F1..=F3` |
    //! | 12 | `F4` |

    pub use utf8_simd::tables::{BYTE_1_HIGH, BYTE_1_LOW, BYTE_2_HIGH};

    /// The number of byte classes: the stride of the premultiplied states.
    pub const CLASSES: usize = 13;
    /// The number of states.
    pub const STATES: usize = 12;
    /// Between characters: everything so far is well-formed.
    pub const ACCEPT: u8 = 0;
    /// The trap: the input is ill-formed.
    pub const REJECT: u8 = 13;
    /// Between characters, right after a lead surrogate: everything so far
    /// is well-formed, and a trail surrogate may not come next.
    pub const AFTER_LEAD: u8 = 26;

    /// The class of each byte, 16 a row.
    #[rustfmt::skip]
    pub const BYTE_CLASS: [u8; 256] = [
    //  0  1  2  3  4  5  6  7  8  9  A  B  C  D  E  F
        0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, // 00
        0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, // 10
        0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, // 20
        0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, // 30
        0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, // 40
        0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, // 50
        0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, // 60
        0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, // 70
        1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, // 80
        2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, // 90
        3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, // A0
        4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, // B0
        5, 5, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, // C0
        6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, // D0
        7, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 9, 8, 8, // E0
       10,11,11,11,12, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, // F0
    ];

    /// The transitions, one state a row: `TRANSITION[state + class]`.
    #[rustfmt::skip]
    pub const TRANSITION: [u8; 156] = [
    // class:
    //  0   1   2   3   4   5   6   7   8   9  10  11  12
        0, 13, 13, 13, 13, 13, 39, 52, 65, 78, 91,104,117, //   0 ACCEPT
       13, 13, 13, 13, 13, 13, 13, 13, 13, 13, 13, 13, 13, //  13 REJECT
        0, 13, 13, 13, 13, 13, 39, 52, 65,143, 91,104,117, //  26 AFTER_LEAD
       13,  0,  0,  0,  0, 13, 13, 13, 13, 13, 13, 13, 13, //  39 one continuation to go
       13, 13, 13, 39, 39, 13, 13, 13, 13, 13, 13, 13, 13, //  52 after E0: A0..=BF
       13, 39, 39, 39, 39, 13, 13, 13, 13, 13, 13, 13, 13, //  65 two to go
       13, 39, 39,130, 39, 13, 13, 13, 13, 13, 13, 13, 13, //  78 after ED: A0..=AF starts a lead surrogate
       13, 13, 65, 65, 65, 13, 13, 13, 13, 13, 13, 13, 13, //  91 after F0: 90..=BF
       13, 65, 65, 65, 65, 13, 13, 13, 13, 13, 13, 13, 13, // 104 three to go
       13, 65, 13, 13, 13, 13, 13, 13, 13, 13, 13, 13, 13, // 117 after F4: 80..=8F
       13, 26, 26, 26, 26, 13, 13, 13, 13, 13, 13, 13, 13, // 130 after ED A0..=AF: its last byte
       13, 39, 39,130, 13, 13, 13, 13, 13, 13, 13, 13, 13, // 143 after a lead and ED: not B0..=BF
    ];
}
