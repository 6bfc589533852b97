//! The three nibble tables of utf8-simd, derived from the error classes.
//!
//! The validator looks up three nibbles of each pair of adjacent bytes (the
//! high and low nibble of the first byte, the high nibble of the second) in
//! three 16-entry tables and ANDs the results. For that AND to be the set of
//! error classes the pair matches, each table entry holds the bits of every
//! class that is *compatible* with the nibble: some pattern of the class has
//! that nibble value (or leaves it free) at that position. [`derive()`] does
//! exactly that, and [`prove`] checks over all 65,536 pairs that the AND
//! equals the classes that match, which holds because each error bit's
//! patterns form a product of nibble sets.

use super::spec::{ERROR_CLASSES, ErrorClass, class_bits, parse_pattern};
use std::sync::OnceLock;

/// The three tables, in the crate's names.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Nibbles {
    /// Indexed by the high nibble of the first byte.
    pub(crate) byte_1_high: [u8; 16],
    /// Indexed by the low nibble of the first byte.
    pub(crate) byte_1_low: [u8; 16],
    /// Indexed by the high nibble of the second byte.
    pub(crate) byte_2_high: [u8; 16],
}

/// A nibble position in the 16-bit pair `first << 8 | second`: the shift of
/// the nibble.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Position {
    Byte1High = 12,
    Byte1Low = 8,
    Byte2High = 4,
}

/// Is a pattern `(mask, value)` compatible with nibble value `v` at `pos`?
/// Yes when the pattern's fixed bits in that nibble agree with `v`.
pub(crate) fn compatible(pattern: &str, pos: Position, v: u8) -> bool {
    let (mask, value) = parse_pattern(pattern);
    let shift = pos as u32;
    let (m, x) = ((mask >> shift) & 0xF, (value >> shift) & 0xF);
    u16::from(v) & m == x
}

/// The classes with a pattern compatible with nibble value `v` at `pos`.
pub(crate) fn compatible_classes(pos: Position, v: u8) -> Vec<&'static ErrorClass> {
    compatible_classes_of(ERROR_CLASSES, pos, v)
}

/// [`compatible_classes`] among `classes`.
pub(crate) fn compatible_classes_of(
    classes: &'static [ErrorClass],
    pos: Position,
    v: u8,
) -> Vec<&'static ErrorClass> {
    classes
        .iter()
        .filter(|c| c.patterns.iter().any(|p| compatible(p, pos, v)))
        .collect()
}

/// One table: for each nibble value, the OR of the bits of every class with
/// a pattern compatible with it.
pub(crate) fn table(classes: &'static [ErrorClass], pos: Position) -> [u8; 16] {
    let mut t = [0u8; 16];
    for (v, entry) in t.iter_mut().enumerate() {
        for class in compatible_classes_of(classes, pos, v as u8) {
            *entry |= class.bit;
        }
    }
    t
}

/// The three tables of UTF-8.
pub(crate) fn derive() -> Nibbles {
    derive_for(ERROR_CLASSES)
}

/// The three tables of a set of classes.
pub(crate) fn derive_for(classes: &'static [ErrorClass]) -> Nibbles {
    Nibbles {
        byte_1_high: table(classes, Position::Byte1High),
        byte_1_low: table(classes, Position::Byte1Low),
        byte_2_high: table(classes, Position::Byte2High),
    }
}

impl Nibbles {
    /// What the validator computes for a pair.
    pub(crate) fn lookup(&self, first: u8, second: u8) -> u8 {
        self.byte_1_high[usize::from(first >> 4)]
            & self.byte_1_low[usize::from(first & 0xF)]
            & self.byte_2_high[usize::from(second >> 4)]
    }
}

/// Over all 65,536 pairs: the AND of the three lookups is exactly the set of
/// classes (as bits) whose patterns match the pair. Returns the first pair
/// where it is not.
pub(crate) fn prove(n: &Nibbles) -> Result<(), String> {
    // The classes matching each pair, computed once: the patterns are parsed
    // on every match, and a test proves hundreds of perturbed tables.
    static EXPECTED: OnceLock<Vec<u8>> = OnceLock::new();
    let expected = EXPECTED.get_or_init(|| expected_bits(ERROR_CLASSES));
    prove_against(n, expected)
}

/// The bits of the classes matching each of the 65,536 pairs.
pub(crate) fn expected_bits(classes: &[ErrorClass]) -> Vec<u8> {
    (0..=u16::MAX)
        .map(|p| class_bits(classes, (p >> 8) as u8, p as u8))
        .collect()
}

/// [`prove`] for any set of classes, given [`expected_bits`] of them.
pub(crate) fn prove_against(n: &Nibbles, expected: &[u8]) -> Result<(), String> {
    for pair in 0..=u16::MAX {
        let [first, second] = pair.to_be_bytes();
        let expected = expected[usize::from(pair)];
        let got = n.lookup(first, second);
        if got != expected {
            return Err(format!(
                "pair {first:02X} {second:02X}: the lookups give {got:#010b}, the classes that match are {expected:#010b}"
            ));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::super::spec::bits::*;
    use super::super::spec::error_bits;
    use super::*;

    #[test]
    fn derived_tables_are_exact_on_all_pairs() {
        prove(&derive()).unwrap();
    }

    #[test]
    fn the_proof_can_fail() {
        // Any single extra or missing bit breaks exactness somewhere.
        let good = derive();
        for which in 0..3 {
            for i in 0..16 {
                for bit in 0..8 {
                    let mut n = good.clone();
                    let t = match which {
                        0 => &mut n.byte_1_high,
                        1 => &mut n.byte_1_low,
                        _ => &mut n.byte_2_high,
                    };
                    t[i] ^= 1 << bit;
                    assert!(prove(&n).is_err(), "table {which} entry {i} bit {bit}");
                }
            }
        }
    }

    /// The error classes agree with the RFC grammar: a pair raises no error
    /// other than `TWO_CONTS` exactly when it occurs in well-formed UTF-8, or
    /// its second byte never does (the next pair, or the end-of-input check,
    /// reports that byte). `TWO_CONTS` marks exactly the continuation pairs.
    #[test]
    fn error_classes_agree_with_the_grammar() {
        let d = super::super::dfa::derive();
        // Pairs that occur inside some well-formed string: from any live
        // state (every non-reject state is reachable and can finish).
        let mut occurs = vec![false; 1 << 16];
        let mut appears = [false; 256];
        let step = |s: usize, b: u8| d.next[s][usize::from(d.byte_class[usize::from(b)])];
        for s in (0..d.states).filter(|&s| s != super::super::dfa::REJECT) {
            for first in 0..=255u8 {
                let t = step(s, first);
                if t == super::super::dfa::REJECT {
                    continue;
                }
                appears[usize::from(first)] = true;
                for second in 0..=255u8 {
                    if step(t, second) != super::super::dfa::REJECT {
                        occurs[usize::from(first) << 8 | usize::from(second)] = true;
                    }
                }
            }
        }
        for pair in 0..=u16::MAX {
            let [first, second] = pair.to_be_bytes();
            let bits = error_bits(first, second);
            let cont = |b: u8| b & 0xC0 == 0x80;
            assert_eq!(bits & TWO_CONTS != 0, cont(first) && cont(second));
            let errors = bits & !TWO_CONTS != 0;
            if occurs[usize::from(pair)] {
                assert!(
                    !errors,
                    "{first:02X} {second:02X} is valid but flagged {bits:#010b}"
                );
            } else if appears[usize::from(second)] && !(cont(first) && cont(second)) {
                assert!(
                    errors,
                    "{first:02X} {second:02X} never occurs but is not flagged"
                );
            }
        }
    }

    #[test]
    fn bit_six_classes_never_overlap() {
        for pair in 0..=u16::MAX {
            let [a, b] = pair.to_be_bytes();
            let large = ERROR_CLASSES
                .iter()
                .find(|c| c.name == "TOO_LARGE_1000")
                .unwrap();
            let overlong = ERROR_CLASSES
                .iter()
                .find(|c| c.name == "OVERLONG_4")
                .unwrap();
            assert!(!(large.matches(a, b) && overlong.matches(a, b)));
        }
        assert_eq!(TOO_LARGE_1000, OVERLONG_4);
    }
}
