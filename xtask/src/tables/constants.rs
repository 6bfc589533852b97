//! The hand-written constants of utf8-dfa and utf8-simd, copied into plain
//! values so the check (and its perturbation test) can compare them.

use super::dfa::DfaConstants;
use super::nibbles::Nibbles;
use utf8_dfa::table as dfa_table;
use utf8_simd::tables as simd_tables;

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
}

/// One entry of the lead table as a number the check can compare and
/// print: `len << 16 | second_min << 8 | second_max` (0 for the range when
/// the byte starts no multi-byte sequence).
pub(crate) fn pack_lead(len: usize, second: Option<(u8, u8)>) -> u32 {
    let (lo, hi) = second.unwrap_or((0, 0));
    (len as u32) << 16 | u32::from(lo) << 8 | u32::from(hi)
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
        }
    }
}
