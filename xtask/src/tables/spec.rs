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
//!
//! UTF-8's relatives ([`VARIANTS`]: CESU-8, Java's Modified UTF-8 and
//! WTF-8) are written as UTF-8's grammar with some of its rules switched off
//! or on ([`Variant`], [`units`]): surrogates allowed, 4-byte forms
//! forbidden, NUL as `C0 80`, and a rule on how surrogates pair up
//! ([`Surrogates`], [`pairing`]), which spans two units (six bytes) and so is
//! written as a small automaton over units rather than over bytes. Their
//! pair classes ([`BMP_CLASSES`], CESU-8's; [`MUTF8_CLASSES`]) are UTF-8's
//! with the same switches applied.

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

/// What a class's bit means to the validator that looks it up.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Role {
    /// The pair is an error.
    Error,
    /// `TWO_CONTS`: an error unless the second byte is the 3rd or 4th byte
    /// of a character (the kernel XORs it with where those must be).
    TwoConts,
    /// Not an error: the pair is the first two bytes of an encoded
    /// surrogate, which the pairing check of [`Surrogates::Paired`] (and
    /// [`Surrogates::Unpaired`]) reads.
    SurrogateMarker,
    /// Modified UTF-8's `C0 80`: the class matches `C0`/`C1` followed by
    /// `80..=8F`, and the pair is an error unless both low nibbles are zero,
    /// which the kernel checks with one more lookup (the nibble tables alone
    /// cannot tell `C0 80` from `C0 81`).
    UnlessC080,
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
    /// What the validator does with the bit.
    pub(crate) role: Role,
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
        meaning: "a lead byte not followed by a continuation byte",
        role: Role::Error },
    ErrorClass { name: "TOO_LONG", bit: bits::TOO_LONG,
        patterns: &["0_______ 10______"],
        meaning: "a continuation byte after an ASCII byte",
        role: Role::Error },
    ErrorClass { name: "OVERLONG_3", bit: bits::OVERLONG_3,
        patterns: &["11100000 100_____"],
        meaning: "a 3-byte sequence for a scalar below U+0800",
        role: Role::Error },
    ErrorClass { name: "TOO_LARGE", bit: bits::TOO_LARGE,
        patterns: &[
            "11110100 1001____", "11110100 101_____",
            "11110101 1001____", "11110101 101_____",
            "1111011_ 1001____", "1111011_ 101_____",
            "11111___ 1001____", "11111___ 101_____",
        ],
        meaning: "a 4-byte sequence above U+10FFFF, or a lead byte F5-FF",
        role: Role::Error },
    ErrorClass { name: "SURROGATE", bit: bits::SURROGATE,
        patterns: &["11101101 101_____"],
        meaning: "a 3-byte sequence for a surrogate U+D800-DFFF",
        role: Role::Error },
    ErrorClass { name: "OVERLONG_2", bit: bits::OVERLONG_2,
        patterns: &["1100000_ 10______"],
        meaning: "a 2-byte sequence for a scalar below U+0080 (lead C0, C1)",
        role: Role::Error },
    ErrorClass { name: "TOO_LARGE_1000", bit: bits::TOO_LARGE_1000,
        patterns: &["11110101 1000____", "1111011_ 1000____", "11111___ 1000____"],
        meaning: "a lead byte F5-FF followed by 80-8F (which F4 allows)",
        role: Role::Error },
    ErrorClass { name: "OVERLONG_4", bit: bits::OVERLONG_4,
        patterns: &["11110000 1000____"],
        meaning: "a 4-byte sequence for a scalar below U+10000",
        role: Role::Error },
    ErrorClass { name: "TWO_CONTS", bit: bits::TWO_CONTS,
        patterns: &["10______ 10______"],
        meaning: "two continuation bytes (required in bytes 3 and 4 of a sequence)",
        role: Role::TwoConts },
];

/// The bits of the variants' classes that have no UTF-8 class of the same
/// name. Each reuses the bit of a UTF-8 class its variant does not have.
pub(crate) mod variant_bits {
    /// CESU-8 and MUTF-8: any 4-byte lead (and `F5..=FF`), where UTF-8 had
    /// `TOO_LARGE`.
    pub(crate) const FOUR_BYTE: u8 = 1 << 3;
    /// MUTF-8: `C0`/`C1` followed by `80..=8F`, where UTF-8 had
    /// `TOO_LARGE_1000` and `OVERLONG_4`.
    pub(crate) const C0_80: u8 = 1 << 6;
    /// UTF-8 without 4-byte forms and `00`: the byte `00`, on the bit the
    /// BMP classes leave free.
    pub(crate) const NUL_BYTE: u8 = 1 << 6;
}

/// The pair classes of UTF-8 without its 4-byte forms, and of CESU-8:
/// UTF-8's with the 4-byte classes (`TOO_LARGE`, `TOO_LARGE_1000`,
/// `OVERLONG_4`, and the valid 4-byte forms) merged into one error,
/// `FOUR_BYTE`. CESU-8 reads `SURROGATE` as the marker of its pairing check
/// ([`Variant::role`]); without 4-byte forms alone it stays an error.
#[rustfmt::skip]
pub(crate) const BMP_CLASSES: &[ErrorClass] = &[
    ErrorClass { name: "TOO_SHORT", bit: bits::TOO_SHORT,
        patterns: &["11______ 0_______", "11______ 11______"],
        meaning: "a lead byte not followed by a continuation byte",
        role: Role::Error },
    ErrorClass { name: "TOO_LONG", bit: bits::TOO_LONG,
        patterns: &["0_______ 10______"],
        meaning: "a continuation byte after an ASCII byte",
        role: Role::Error },
    ErrorClass { name: "OVERLONG_3", bit: bits::OVERLONG_3,
        patterns: &["11100000 100_____"],
        meaning: "a 3-byte sequence for a scalar below U+0800",
        role: Role::Error },
    ErrorClass { name: "FOUR_BYTE", bit: variant_bits::FOUR_BYTE,
        patterns: &["1111____ 10______"],
        meaning: "a lead byte F0-FF followed by a continuation byte: a 4-byte form, which CESU-8 writes as a surrogate pair",
        role: Role::Error },
    ErrorClass { name: "SURROGATE", bit: bits::SURROGATE,
        patterns: &["11101101 101_____"],
        meaning: "the first two bytes of a surrogate (ED A0-BF), which the pairing check reads",
        role: Role::Error },
    ErrorClass { name: "OVERLONG_2", bit: bits::OVERLONG_2,
        patterns: &["1100000_ 10______"],
        meaning: "a 2-byte sequence for a scalar below U+0080 (lead C0, C1)",
        role: Role::Error },
    ErrorClass { name: "TWO_CONTS", bit: bits::TWO_CONTS,
        patterns: &["10______ 10______"],
        meaning: "two continuation bytes (required in bytes 3 and 4 of a sequence)",
        role: Role::TwoConts },
];

/// [`BMP_CLASSES`] plus `NUL_BYTE`, for UTF-8 without 4-byte forms and
/// without `00` ([`UTF8_BMP_WITHOUT_NUL`]): the byte `00` followed by any
/// byte, on the bit the BMP classes leave free. A pair class sees `00` only
/// as the first byte of a pair, so the check reads the bytes before the
/// input as spaces, not zeros, and the end of the input (or of a run before
/// ASCII) checks its last byte (the model, `variants::Model`, does the same).
/// A test checks that the first seven are [`BMP_CLASSES`].
#[rustfmt::skip]
pub(crate) const BMP_WITHOUT_NUL_CLASSES: &[ErrorClass] = &[
    ErrorClass { name: "TOO_SHORT", bit: bits::TOO_SHORT,
        patterns: &["11______ 0_______", "11______ 11______"],
        meaning: "a lead byte not followed by a continuation byte",
        role: Role::Error },
    ErrorClass { name: "TOO_LONG", bit: bits::TOO_LONG,
        patterns: &["0_______ 10______"],
        meaning: "a continuation byte after an ASCII byte",
        role: Role::Error },
    ErrorClass { name: "OVERLONG_3", bit: bits::OVERLONG_3,
        patterns: &["11100000 100_____"],
        meaning: "a 3-byte sequence for a scalar below U+0800",
        role: Role::Error },
    ErrorClass { name: "FOUR_BYTE", bit: variant_bits::FOUR_BYTE,
        patterns: &["1111____ 10______"],
        meaning: "a lead byte F0-FF followed by a continuation byte: a 4-byte form, which CESU-8 writes as a surrogate pair",
        role: Role::Error },
    ErrorClass { name: "SURROGATE", bit: bits::SURROGATE,
        patterns: &["11101101 101_____"],
        meaning: "the first two bytes of a surrogate (ED A0-BF), which the pairing check reads",
        role: Role::Error },
    ErrorClass { name: "OVERLONG_2", bit: bits::OVERLONG_2,
        patterns: &["1100000_ 10______"],
        meaning: "a 2-byte sequence for a scalar below U+0080 (lead C0, C1)",
        role: Role::Error },
    ErrorClass { name: "TWO_CONTS", bit: bits::TWO_CONTS,
        patterns: &["10______ 10______"],
        meaning: "two continuation bytes (required in bytes 3 and 4 of a sequence)",
        role: Role::TwoConts },
    ErrorClass { name: "NUL_BYTE", bit: variant_bits::NUL_BYTE,
        patterns: &["00000000 ________"],
        meaning: "the byte 00, followed by anything",
        role: Role::Error },
];

/// The pair classes of Modified UTF-8: CESU-8's, with `OVERLONG_2` split in
/// two so that `C0 80` (NUL) can be allowed: `C0`/`C1` followed by
/// `90..=BF` stays an error, and `C0`/`C1` followed by `80..=8F` gets its own
/// bit, an error unless the pair is exactly `C0 80`. The byte `00` is
/// forbidden by a check of single bytes, not of pairs.
#[rustfmt::skip]
pub(crate) const MUTF8_CLASSES: &[ErrorClass] = &[
    ErrorClass { name: "TOO_SHORT", bit: bits::TOO_SHORT,
        patterns: &["11______ 0_______", "11______ 11______"],
        meaning: "a lead byte not followed by a continuation byte",
        role: Role::Error },
    ErrorClass { name: "TOO_LONG", bit: bits::TOO_LONG,
        patterns: &["0_______ 10______"],
        meaning: "a continuation byte after an ASCII byte",
        role: Role::Error },
    ErrorClass { name: "OVERLONG_3", bit: bits::OVERLONG_3,
        patterns: &["11100000 100_____"],
        meaning: "a 3-byte sequence for a scalar below U+0800",
        role: Role::Error },
    ErrorClass { name: "FOUR_BYTE", bit: variant_bits::FOUR_BYTE,
        patterns: &["1111____ 10______"],
        meaning: "a lead byte F0-FF followed by a continuation byte: a 4-byte form, which MUTF-8 writes as a surrogate pair",
        role: Role::Error },
    ErrorClass { name: "SURROGATE", bit: bits::SURROGATE,
        patterns: &["11101101 101_____"],
        meaning: "the first two bytes of a surrogate (ED A0-BF), which the pairing check reads",
        role: Role::SurrogateMarker },
    ErrorClass { name: "OVERLONG_2", bit: bits::OVERLONG_2,
        patterns: &["1100000_ 1001____", "1100000_ 101_____"],
        meaning: "a 2-byte sequence for a scalar below U+0080, other than C0 80-8F",
        role: Role::Error },
    ErrorClass { name: "C0_80", bit: variant_bits::C0_80,
        patterns: &["1100000_ 1000____"],
        meaning: "C0 or C1 followed by 80-8F: an error unless the pair is C0 80, MUTF-8's NUL",
        role: Role::UnlessC080 },
    ErrorClass { name: "TWO_CONTS", bit: bits::TWO_CONTS,
        patterns: &["10______ 10______"],
        meaning: "two continuation bytes (required in bytes 3 and 4 of a sequence)",
        role: Role::TwoConts },
];

/// How an encoding treats the surrogate code points U+D800..=U+DFFF, each
/// written as a 3-byte generalized UTF-8 sequence `ED A0..=BF 80..=BF`: a
/// lead (high) surrogate `ED A0..=AF tail`, a trail (low) surrogate
/// `ED B0..=BF tail`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Surrogates {
    /// UTF-8 (RFC 3629): never.
    Forbidden,
    /// CESU-8 (UTR #26 §2) and MUTF-8 (JVM specification §4.4.7): only as a
    /// lead immediately followed by a trail, the 6-byte form of a
    /// supplementary character; a surrogate on its own is an error.
    Paired,
    /// WTF-8 ("generalized UTF-8" without
    /// surrogate pairs): on its own, but a lead immediately followed by a
    /// trail is an error, because that pair must be written as the 4-byte
    /// form of its supplementary character.
    Unpaired,
}

/// One encoding: UTF-8's grammar with rules switched on or off.
#[derive(Debug)]
pub(crate) struct Variant {
    /// Its name, as the specification writes it.
    pub(crate) name: &'static str,
    /// The module of `utf8_variants::tables` that holds its constants (and
    /// the prefix of their paths in `--check` reports).
    pub(crate) module: &'static str,
    /// Where the rules come from.
    pub(crate) reference: &'static str,
    pub(crate) surrogates: Surrogates,
    /// Whether the 4-byte forms (U+10000..=U+10FFFF) are allowed.
    pub(crate) four_byte: bool,
    /// Whether U+0000 is written `C0 80` (which is then allowed).
    pub(crate) modified_nul: bool,
    /// Whether the byte `00` is allowed (U+0000 in UTF-8's form).
    pub(crate) nul_byte: bool,
    /// The pair classes of its SIMD check.
    pub(crate) classes: &'static [ErrorClass],
}

pub(crate) const UTF8: Variant = Variant {
    name: "UTF-8",
    module: "utf8",
    reference: "RFC 3629 §4",
    surrogates: Surrogates::Forbidden,
    four_byte: true,
    modified_nul: false,
    nul_byte: true,
    classes: ERROR_CLASSES,
};

pub(crate) const CESU8: Variant = Variant {
    name: "CESU-8",
    module: "cesu8",
    reference: "Unicode Technical Report #26, §2 and §3",
    surrogates: Surrogates::Paired,
    four_byte: false,
    modified_nul: false,
    nul_byte: true,
    classes: BMP_CLASSES,
};

pub(crate) const MUTF8: Variant = Variant {
    name: "MUTF-8",
    module: "mutf8",
    reference: "The Java Virtual Machine Specification, §4.4.7",
    surrogates: Surrogates::Paired,
    four_byte: false,
    modified_nul: true,
    nul_byte: false,
    classes: MUTF8_CLASSES,
};

pub(crate) const WTF8: Variant = Variant {
    name: "WTF-8",
    module: "wtf8",
    reference: "The WTF-8 encoding (Simon Sapin): Generalized UTF-8, The WTF-8 encoding",
    surrogates: Surrogates::Unpaired,
    four_byte: true,
    modified_nul: false,
    nul_byte: true,
    // UTF-8's classes, with SURROGATE read as the marker of the pairing
    // check ([`Variant::role`]): UTF-8's own tables.
    classes: ERROR_CLASSES,
};

impl Variant {
    /// What the validator does with a class's bit in this encoding: the
    /// class's role, except that an encoding that allows surrogates reads
    /// `SURROGATE` as the marker of its pairing check (WTF-8 shares UTF-8's
    /// classes and so UTF-8's tables).
    pub(crate) fn role(&self, class: &ErrorClass) -> Role {
        match class.role {
            Role::Error
                if class.name == "SURROGATE" && self.surrogates != Surrogates::Forbidden =>
            {
                Role::SurrogateMarker
            }
            role => role,
        }
    }
}

/// UTF-8's relatives, derived by `gen-tables`.
pub(crate) const VARIANTS: &[&Variant] = &[&CESU8, &MUTF8, &WTF8];

/// UTF-8 without its 4-byte forms (every character in the Basic
/// Multilingual Plane): the bytes a CESU-8 decoder can borrow as they are.
/// Only its nibble tables are used (`utf8_simd::tables::bmp`, by
/// `utf8_simd::variant::bmp_str`, which makes a `&str` of what they accept:
/// so [`variants::check_bmp`](super::variants::check_bmp) proves the check
/// equal to this grammar, a subset of UTF-8's); its DFA is derived for that
/// proof.
pub(crate) const UTF8_BMP: Variant = Variant {
    name: "UTF-8 without 4-byte forms",
    module: "bmp",
    reference: "RFC 3629 §4 without UTF8-4",
    surrogates: Surrogates::Forbidden,
    four_byte: false,
    modified_nul: false,
    nul_byte: true,
    classes: BMP_CLASSES,
};

/// [`UTF8_BMP`] without the byte `00`: the bytes a Modified UTF-8 decoder
/// can borrow. Its tables add the class `NUL_BYTE`
/// ([`BMP_WITHOUT_NUL_CLASSES`]), so the check needs no test of each byte.
pub(crate) const UTF8_BMP_WITHOUT_NUL: Variant = Variant {
    name: "UTF-8 without 4-byte forms and 00",
    module: "bmp_without_nul",
    reference: "RFC 3629 §4 without UTF8-4 and %x00",
    surrogates: Surrogates::Forbidden,
    four_byte: false,
    modified_nul: false,
    nul_byte: false,
    classes: BMP_WITHOUT_NUL_CLASSES,
};

/// The table sets of utf8-simd's BMP check, derived and proven by
/// `gen-tables`, in the order of their constants
/// (`UTF8_BMP`, `UTF8_BMP_WITHOUT_NUL`).
pub(crate) const BMP_SETS: &[&Variant] = &[&UTF8_BMP, &UTF8_BMP_WITHOUT_NUL];

/// What a unit of the grammar (one alternative) encodes, for the pairing
/// rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Unit {
    /// A scalar value (or MUTF-8's `C0 80`).
    Scalar,
    /// A lead surrogate, `ED A0..=AF tail`.
    Lead,
    /// A trail surrogate, `ED B0..=BF tail`.
    Trail,
}

/// The units of a variant: RFC 3629's alternatives ([`GRAMMAR`]) with the
/// variant's switches applied, each with what it encodes.
pub(crate) fn units(v: &Variant) -> Vec<(Unit, Vec<ByteRange>)> {
    let mut out = Vec::new();
    for alt in GRAMMAR {
        match alt.first() {
            // UTF8-4: the supplementary characters.
            _ if alt.len() == 4 && !v.four_byte => {}
            // UTF8-1 = %x00-7F: MUTF-8 writes U+0000 as C0 80.
            Some(&(0x00, 0x7F)) if v.modified_nul || !v.nul_byte => {
                out.push((Unit::Scalar, vec![(0x01, 0x7F)]));
                if v.modified_nul {
                    out.push((Unit::Scalar, vec![(0xC0, 0xC0), (0x80, 0x80)]));
                }
            }
            // %xED %x80-9F UTF8-tail: the surrogates are what it leaves out.
            Some(&(0xED, 0xED)) if v.surrogates != Surrogates::Forbidden => {
                out.push((Unit::Scalar, alt.to_vec()));
                out.push((Unit::Lead, vec![(0xED, 0xED), (0xA0, 0xAF), TAIL]));
                out.push((Unit::Trail, vec![(0xED, 0xED), (0xB0, 0xBF), TAIL]));
            }
            _ => out.push((Unit::Scalar, alt.to_vec())),
        }
    }
    out
}

/// The pairing rule as an automaton over units: which states accept (state
/// 0 is the start), and the next state after a unit (`None`: an error).
pub(crate) struct Pairing {
    pub(crate) accepting: &'static [bool],
    pub(crate) next: fn(usize, Unit) -> Option<usize>,
}

/// The pairing automaton of `s`. State 1, where it exists, is "the last unit
/// was a lead surrogate".
pub(crate) fn pairing(s: Surrogates) -> Pairing {
    match s {
        Surrogates::Forbidden => Pairing {
            accepting: &[true],
            next: |_, unit| (unit == Unit::Scalar).then_some(0),
        },
        Surrogates::Paired => Pairing {
            // A lead must be followed by a trail, and a trail preceded by a
            // lead: after a lead only a trail may come, and ending there is
            // an error.
            accepting: &[true, false],
            next: |state, unit| match (state, unit) {
                (0, Unit::Scalar) => Some(0),
                (0, Unit::Lead) => Some(1),
                (1, Unit::Trail) => Some(0),
                _ => None,
            },
        },
        Surrogates::Unpaired => Pairing {
            // Anything goes except a trail right after a lead.
            accepting: &[true, true],
            next: |state, unit| match (state, unit) {
                (1, Unit::Trail) => None,
                (_, Unit::Lead) => Some(1),
                _ => Some(0),
            },
        },
    }
}

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
#[cfg(test)]
pub(crate) fn error_bits(first: u8, second: u8) -> u8 {
    class_bits(ERROR_CLASSES, first, second)
}

/// The bits of every class of `classes` that matches the pair.
pub(crate) fn class_bits(classes: &[ErrorClass], first: u8, second: u8) -> u8 {
    classes
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
    fn the_bmp_classes_without_nul_are_the_bmp_classes_and_nul_byte() {
        let (last, first) = BMP_WITHOUT_NUL_CLASSES.split_last().unwrap();
        assert_eq!(first.len(), BMP_CLASSES.len());
        for (a, b) in first.iter().zip(BMP_CLASSES) {
            assert_eq!(
                (a.name, a.bit, a.patterns, a.role),
                (b.name, b.bit, b.patterns, b.role)
            );
        }
        assert_eq!(last.name, "NUL_BYTE");
        assert!(BMP_CLASSES.iter().all(|c| c.bit != last.bit));
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
