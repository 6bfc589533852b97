//! The specification every generated table is derived from, in one place.
//!
//! Two documents define what well-formed UTF-8 is, and each table comes
//! from one of them:
//!
//! - **RFC 3629 §4**, the byte-sequence grammar. The DFA of utf8-dfa is the
//!   minimal automaton of this grammar ([`GRAMMAR`]).
//! - **Keiser and Lemire, "Validating UTF-8 In Less Than One Instruction Per
//!   Byte" (2021), §5**, which sorts every invalid pair of adjacent bytes
//!   into a few error classes, each a set of bit patterns over the first two
//!   bytes ([`ERROR_CLASSES`]). The three nibble tables of utf8-simd are
//!   derived from these patterns.
//!
//! The derivations (`dfa.rs`, `nibbles.rs`) also prove that the two
//! documents agree with each other and with `core::str::from_utf8`.

/// An inclusive range of byte values, as the RFC writes `%xC2-DF`.
pub(crate) type ByteRange = (u8, u8);

/// `UTF8-tail = %x80-BF` in the RFC.
pub(crate) const TAIL: ByteRange = (0x80, 0xBF);

/// RFC 3629 §4: the well-formed byte sequences, one alternative per line,
/// each a list of byte ranges (one range per byte).
///
/// ```text
/// UTF8-1 = %x00-7F
/// UTF8-2 = %xC2-DF UTF8-tail
/// UTF8-3 = %xE0 %xA0-BF UTF8-tail / %xE1-EC 2( UTF8-tail ) /
///          %xED %x80-9F UTF8-tail / %xEE-EF 2( UTF8-tail )
/// UTF8-4 = %xF0 %x90-BF 2( UTF8-tail ) / %xF1-F3 3( UTF8-tail ) /
///          %xF4 %x80-8F 2( UTF8-tail )
/// ```
#[rustfmt::skip]
pub(crate) const GRAMMAR: &[&[ByteRange]] = &[
    // UTF8-1
    &[(0x00, 0x7F)],
    // UTF8-2
    &[(0xC2, 0xDF), TAIL],
    // UTF8-3: E0 excludes overlongs, ED excludes the surrogates D800-DFFF.
    &[(0xE0, 0xE0), (0xA0, 0xBF), TAIL],
    &[(0xE1, 0xEC), TAIL,         TAIL],
    &[(0xED, 0xED), (0x80, 0x9F), TAIL],
    &[(0xEE, 0xEF), TAIL,         TAIL],
    // UTF8-4: F0 excludes overlongs, F4 excludes everything above U+10FFFF.
    &[(0xF0, 0xF0), (0x90, 0xBF), TAIL, TAIL],
    &[(0xF1, 0xF3), TAIL,         TAIL, TAIL],
    &[(0xF4, 0xF4), (0x80, 0x8F), TAIL, TAIL],
];

/// The payload bits of a lead byte: the bits after its length prefix
/// (`0xxxxxxx`, `110xxxxx`, `1110xxxx`, `11110xxx`). The DFA decoder takes
/// them with `(0xFF >> class) & byte`, which is what constrains the class
/// numbering. `None` for bytes that cannot start a sequence.
pub(crate) fn lead_payload(byte: u8) -> Option<u8> {
    match byte.leading_ones() {
        0 => Some(byte),
        2..=4 => Some(byte & (0xFF >> (byte.leading_ones() + 1))),
        _ => None,
    }
}

/// The error bits of the Keiser–Lemire paper (the same assignment as
/// simdjson and simdutf8). Two classes share bit 6: they never match the
/// same pair and their patterns nibble-multiply into exactly their union.
pub(crate) mod bits {
    pub(crate) const TOO_SHORT: u8 = 1 << 0;
    pub(crate) const TOO_LONG: u8 = 1 << 1;
    pub(crate) const OVERLONG_3: u8 = 1 << 2;
    pub(crate) const TOO_LARGE: u8 = 1 << 3;
    pub(crate) const SURROGATE: u8 = 1 << 4;
    pub(crate) const OVERLONG_2: u8 = 1 << 5;
    pub(crate) const TOO_LARGE_1000: u8 = 1 << 6;
    pub(crate) const OVERLONG_4: u8 = 1 << 6;
    pub(crate) const TWO_CONTS: u8 = 1 << 7;
}

/// One error class of the paper: a set of patterns over two adjacent bytes
/// and the bit the lookup sets when any of them matches.
#[derive(Debug)]
pub(crate) struct ErrorClass {
    /// The paper's (and the crates') constant name.
    pub(crate) name: &'static str,
    /// The error bit.
    pub(crate) bit: u8,
    /// Bit patterns, first byte then second byte: `0` and `1` must match,
    /// `_` matches either.
    pub(crate) patterns: &'static [&'static str],
    /// What the class means, for the generated docs.
    pub(crate) meaning: &'static str,
}

/// The error classes of the paper, §5, with their patterns as the paper
/// writes them.
///
/// `TWO_CONTS` is not an error on its own: it marks a continuation byte after
/// a continuation byte, which is required in the third and fourth byte of a
/// sequence and an error anywhere else; the validator compares it with where
/// 3- and 4-byte leads are, two and three bytes back.
#[rustfmt::skip]
pub(crate) const ERROR_CLASSES: &[ErrorClass] = &[
    ErrorClass { name: "TOO_SHORT", bit: bits::TOO_SHORT,
        patterns: &["11______ 0_______", "11______ 11______"],
        meaning: "a lead byte not followed by a continuation byte" },
    ErrorClass { name: "TOO_LONG", bit: bits::TOO_LONG,
        patterns: &["0_______ 10______"],
        meaning: "a continuation byte after an ASCII byte" },
    ErrorClass { name: "OVERLONG_3", bit: bits::OVERLONG_3,
        patterns: &["11100000 100_____"],
        meaning: "a 3-byte sequence for a scalar below U+0800" },
    ErrorClass { name: "TOO_LARGE", bit: bits::TOO_LARGE,
        patterns: &[
            "11110100 1001____", "11110100 101_____",
            "11110101 1001____", "11110101 101_____",
            "1111011_ 1001____", "1111011_ 101_____",
            "11111___ 1001____", "11111___ 101_____",
        ],
        meaning: "a 4-byte sequence above U+10FFFF, or a lead byte F5-FF" },
    ErrorClass { name: "SURROGATE", bit: bits::SURROGATE,
        patterns: &["11101101 101_____"],
        meaning: "a 3-byte sequence for a surrogate U+D800-DFFF" },
    ErrorClass { name: "OVERLONG_2", bit: bits::OVERLONG_2,
        patterns: &["1100000_ 10______"],
        meaning: "a 2-byte sequence for a scalar below U+0080 (lead C0, C1)" },
    ErrorClass { name: "TOO_LARGE_1000", bit: bits::TOO_LARGE_1000,
        patterns: &["11110101 1000____", "1111011_ 1000____", "11111___ 1000____"],
        meaning: "a lead byte F5-FF followed by 80-8F (which F4 allows)" },
    ErrorClass { name: "OVERLONG_4", bit: bits::OVERLONG_4,
        patterns: &["11110000 1000____"],
        meaning: "a 4-byte sequence for a scalar below U+10000" },
    ErrorClass { name: "TWO_CONTS", bit: bits::TWO_CONTS,
        patterns: &["10______ 10______"],
        meaning: "two continuation bytes (required in bytes 3 and 4 of a sequence)" },
];

/// A pattern as `(mask, value)` over the 16-bit pair `first << 8 | second`.
pub(crate) fn parse_pattern(pattern: &str) -> (u16, u16) {
    let digits: Vec<char> = pattern.chars().filter(|c| *c != ' ').collect();
    assert_eq!(digits.len(), 16, "pattern {pattern:?} is not 2 × 8 digits");
    let (mut mask, mut value) = (0u16, 0u16);
    for c in digits {
        mask <<= 1;
        value <<= 1;
        match c {
            '0' => mask |= 1,
            '1' => {
                mask |= 1;
                value |= 1;
            }
            '_' => {}
            other => panic!("pattern {pattern:?}: unexpected {other:?}"),
        }
    }
    (mask, value)
}

impl ErrorClass {
    /// Does the pair `(first, second)` match one of this class's patterns?
    pub(crate) fn matches(&self, first: u8, second: u8) -> bool {
        let pair = u16::from(first) << 8 | u16::from(second);
        self.patterns.iter().any(|p| {
            let (mask, value) = parse_pattern(p);
            pair & mask == value
        })
    }
}

/// The error bits of every class that matches the pair: the value the
/// nibble lookups must produce.
pub(crate) fn error_bits(first: u8, second: u8) -> u8 {
    ERROR_CLASSES
        .iter()
        .filter(|c| c.matches(first, second))
        .fold(0, |acc, c| acc | c.bit)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn grammar_first_bytes_are_disjoint_and_cover_the_valid_leads() {
        let mut owner = [None; 256];
        for (i, alt) in GRAMMAR.iter().enumerate() {
            for b in alt[0].0..=alt[0].1 {
                assert_eq!(
                    owner[usize::from(b)],
                    None,
                    "{b:#04X} starts two alternatives"
                );
                owner[usize::from(b)] = Some(i);
            }
        }
        let mut starts = [false; 256];
        for c in (0u32..0x11_0000).filter_map(char::from_u32) {
            starts[usize::from(c.encode_utf8(&mut [0; 4]).as_bytes()[0])] = true;
        }
        for b in 0..=255u8 {
            // A byte starts an alternative exactly when it starts the encoding
            // of some scalar value.
            assert_eq!(
                owner[usize::from(b)].is_some(),
                starts[usize::from(b)],
                "{b:#04X}"
            );
        }
    }

    #[test]
    fn patterns_parse_as_written() {
        assert_eq!(parse_pattern("11100000 100_____"), (0xFFE0, 0xE080));
        assert_eq!(parse_pattern("0_______ 10______"), (0x80C0, 0x0080));
    }

    #[test]
    fn payload_is_the_bits_after_the_length_prefix() {
        for c in (0u32..0x11_0000).filter_map(char::from_u32) {
            let mut buf = [0; 4];
            let bytes = c.encode_utf8(&mut buf).as_bytes();
            let payload = u32::from(lead_payload(bytes[0]).unwrap());
            let rest = 6 * (bytes.len() as u32 - 1);
            assert_eq!(payload, u32::from(c) >> rest, "{c:?}");
        }
    }
}
