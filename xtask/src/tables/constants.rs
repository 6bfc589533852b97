//! The hand-written constants of utf8-dfa and utf8-simd, copied into plain
//! values so the check (and its perturbation test) can compare them.

use super::dfa::DfaConstants;
use super::nibbles::Nibbles;
use utf8_dfa::table as dfa_table;
use utf8_simd::tables as simd_tables;
use utf8_variants::tables as variant_tables;

/// The packed shift-DFA form of utf8-dfa.
#[derive(Clone, Debug)]
pub(crate) struct ShiftConstants {
    pub(crate) rows: Vec<u64>,
    pub(crate) bits: u32,
    pub(crate) accept: u64,
    pub(crate) reject: u64,
}

/// Every constant the check compares.
#[derive(Clone, Debug)]
pub(crate) struct Constants {
    pub(crate) dfa: DfaConstants,
    pub(crate) shift: Option<ShiftConstants>,
    pub(crate) nibbles: Nibbles,
    /// The error bits of utf8-simd, by name.
    pub(crate) error_bits: Vec<(&'static str, u8)>,
    /// codec-core's lead table, one entry per byte, packed by [`pack_lead`].
    pub(crate) leads: Vec<u32>,
    /// The tables of UTF-8's relatives, in `spec::VARIANTS` order.
    pub(crate) variants: Vec<VariantConstants>,
    /// utf8-simd's tables of UTF-8 without 4-byte forms, in
    /// `spec::BMP_SETS` order.
    pub(crate) bmp: Vec<BmpConstants>,
}

/// One BMP table set of `utf8_simd::tables`.
#[derive(Clone, Debug)]
pub(crate) struct BmpConstants {
    /// The constant's name (`UTF8_BMP`).
    pub(crate) name: &'static str,
    pub(crate) nibbles: Nibbles,
    /// The error bits the set has and UTF-8 lacks, by name.
    pub(crate) error_bits: Vec<(&'static str, u8)>,
}

/// One entry of the lead table as a number the check can compare and
/// print: `len << 16 | second_min << 8 | second_max` (0 for the range when
/// the byte starts no multi-byte sequence).
pub(crate) fn pack_lead(len: usize, second: Option<(u8, u8)>) -> u32 {
    let (lo, hi) = second.unwrap_or((0, 0));
    (len as u32) << 16 | u32::from(lo) << 8 | u32::from(hi)
}

/// One module of `utf8_variants::tables`.
#[derive(Clone, Debug)]
pub(crate) struct VariantConstants {
    /// The module's name (`cesu8`).
    pub(crate) module: &'static str,
    pub(crate) classes: usize,
    pub(crate) states: usize,
    pub(crate) accept: u8,
    pub(crate) reject: u8,
    /// The other accepting state (WTF-8's `AFTER_LEAD`).
    pub(crate) after_lead: Option<u8>,
    pub(crate) byte_class: [u8; 256],
    pub(crate) transition: Vec<u8>,
    pub(crate) nibbles: Nibbles,
    /// The variant's own error bits, by name.
    pub(crate) error_bits: Vec<(&'static str, u8)>,
}

impl Constants {
    /// Reads the constants from the crates xtask depends on.
    pub(crate) fn from_crates() -> Constants {
        Constants {
            dfa: DfaConstants {
                byte_class: dfa_table::BYTE_CLASS,
                transition: dfa_table::TRANSITION.to_vec(),
                accept: dfa_table::ACCEPT,
                reject: dfa_table::REJECT,
            },
            shift: Some(ShiftConstants {
                rows: dfa_table::SHIFT.to_vec(),
                bits: dfa_table::SHIFT_BITS,
                accept: dfa_table::SHIFT_ACCEPT,
                reject: dfa_table::SHIFT_REJECT,
            }),
            nibbles: Nibbles {
                byte_1_high: simd_tables::BYTE_1_HIGH,
                byte_1_low: simd_tables::BYTE_1_LOW,
                byte_2_high: simd_tables::BYTE_2_HIGH,
            },
            error_bits: vec![
                ("TOO_SHORT", simd_tables::TOO_SHORT),
                ("TOO_LONG", simd_tables::TOO_LONG),
                ("OVERLONG_3", simd_tables::OVERLONG_3),
                ("TOO_LARGE", simd_tables::TOO_LARGE),
                ("SURROGATE", simd_tables::SURROGATE),
                ("OVERLONG_2", simd_tables::OVERLONG_2),
                ("TOO_LARGE_1000", simd_tables::TOO_LARGE_1000),
                ("OVERLONG_4", simd_tables::OVERLONG_4),
                ("TWO_CONTS", simd_tables::TWO_CONTS),
            ],
            leads: (0..=255u8)
                .map(|b| {
                    let l = codec_core::utf8::lead(b);
                    pack_lead(l.len(), l.second_range())
                })
                .collect(),
            bmp: [
                ("UTF8_BMP", simd_tables::UTF8_BMP),
                ("UTF8_BMP_WITHOUT_NUL", simd_tables::UTF8_BMP_WITHOUT_NUL),
            ]
            .into_iter()
            .map(|(name, t)| BmpConstants {
                name,
                nibbles: Nibbles {
                    byte_1_high: t.byte_1_high,
                    byte_1_low: t.byte_1_low,
                    byte_2_high: t.byte_2_high,
                },
                error_bits: if name == "UTF8_BMP" {
                    vec![("FOUR_BYTE", simd_tables::FOUR_BYTE)]
                } else {
                    vec![
                        ("FOUR_BYTE", simd_tables::FOUR_BYTE),
                        ("NUL_BYTE", simd_tables::NUL_BYTE),
                    ]
                },
            })
            .collect(),
            variants: vec![
                VariantConstants {
                    module: "cesu8",
                    classes: variant_tables::cesu8::CLASSES,
                    states: variant_tables::cesu8::STATES,
                    accept: variant_tables::cesu8::ACCEPT,
                    reject: variant_tables::cesu8::REJECT,
                    after_lead: None,
                    byte_class: variant_tables::cesu8::BYTE_CLASS,
                    transition: variant_tables::cesu8::TRANSITION.to_vec(),
                    nibbles: Nibbles {
                        byte_1_high: variant_tables::cesu8::BYTE_1_HIGH,
                        byte_1_low: variant_tables::cesu8::BYTE_1_LOW,
                        byte_2_high: variant_tables::cesu8::BYTE_2_HIGH,
                    },
                    error_bits: vec![("FOUR_BYTE", variant_tables::FOUR_BYTE)],
                },
                VariantConstants {
                    module: "mutf8",
                    classes: variant_tables::mutf8::CLASSES,
                    states: variant_tables::mutf8::STATES,
                    accept: variant_tables::mutf8::ACCEPT,
                    reject: variant_tables::mutf8::REJECT,
                    after_lead: None,
                    byte_class: variant_tables::mutf8::BYTE_CLASS,
                    transition: variant_tables::mutf8::TRANSITION.to_vec(),
                    nibbles: Nibbles {
                        byte_1_high: variant_tables::mutf8::BYTE_1_HIGH,
                        byte_1_low: variant_tables::mutf8::BYTE_1_LOW,
                        byte_2_high: variant_tables::mutf8::BYTE_2_HIGH,
                    },
                    error_bits: vec![
                        ("FOUR_BYTE", variant_tables::FOUR_BYTE),
                        ("C0_80", variant_tables::C0_80),
                    ],
                },
                VariantConstants {
                    module: "wtf8",
                    classes: variant_tables::wtf8::CLASSES,
                    states: variant_tables::wtf8::STATES,
                    accept: variant_tables::wtf8::ACCEPT,
                    reject: variant_tables::wtf8::REJECT,
                    after_lead: Some(variant_tables::wtf8::AFTER_LEAD),
                    byte_class: variant_tables::wtf8::BYTE_CLASS,
                    transition: variant_tables::wtf8::TRANSITION.to_vec(),
                    nibbles: Nibbles {
                        byte_1_high: variant_tables::wtf8::BYTE_1_HIGH,
                        byte_1_low: variant_tables::wtf8::BYTE_1_LOW,
                        byte_2_high: variant_tables::wtf8::BYTE_2_HIGH,
                    },
                    error_bits: vec![],
                },
            ],
        }
    }
}
