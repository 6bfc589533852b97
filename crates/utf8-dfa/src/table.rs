//! Hoehrmann's 2010 DFA tables, the source of truth for every form of the
//! automaton in this crate, and the packed "shift DFA" derived from them.
//!
//! The tables are the ones published in Björn Hoehrmann, "Flexible and
//! Economical UTF-8 Decoder" (2010), <https://bjoern.hoehrmann.de/utf-8/decoder/dfa/>,
//! written here by hand: 256 byte classes ([`BYTE_CLASS`]) and 108
//! transitions ([`TRANSITION`]), 364 bytes in all. States are premultiplied
//! by 12, the number of classes, so that a transition is one add and one
//! load: `TRANSITION[state + class]`. [`ACCEPT`] (0) means "between
//! characters"; [`REJECT`] (12) is a trap state that no byte leaves.
//!
//! The character classes, and the bytes in each:
//!
//! | class | bytes | role |
//! |---:|---|---|
//! | 0 | `00..=7F` | ASCII |
//! | 1 | `80..=8F` | continuation (low) |
//! | 9 | `90..=9F` | continuation (middle) |
//! | 7 | `A0..=BF` | continuation (high) |
//! | 8 | `C0 C1 F5..=FF` | never valid |
//! | 2 | `C2..=DF` | lead of 2 |
//! | 10 | `E0` | lead of 3, second byte `A0..=BF` |
//! | 3 | `E1..=EC EE EF` | lead of 3 |
//! | 4 | `ED` | lead of 3, second byte `80..=9F` |
//! | 11 | `F0` | lead of 4, second byte `90..=BF` |
//! | 6 | `F1..=F3` | lead of 4 |
//! | 5 | `F4` | lead of 4, second byte `80..=8F` |
//!
//! `cargo xtask gen-tables --check` (a step of `cargo xtask ci`, and a unit
//! test of xtask) re-derives these constants from the RFC 3629 grammar and
//! compares them byte for byte; `docs/tables.md` shows the derivation.

/// The state between characters: everything read so far is well-formed.
pub const ACCEPT: u8 = 0;

/// The trap state: the input is ill-formed. Every transition from it leads
/// back to it.
pub const REJECT: u8 = 12;

/// The number of byte classes, and so the factor by which states are
/// premultiplied.
pub const CLASSES: usize = 12;

/// The number of states: [`ACCEPT`], [`REJECT`] and seven states inside a
/// character.
pub const STATES: usize = 9;

/// The character class of each byte, 16 bytes a row (row `0x80` is the
/// bytes `80..=8F`). See the [module docs](self) for what each class holds.
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
    9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, // 90
    7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, // A0
    7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, // B0
    8, 8, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, // C0
    2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, // D0
   10, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 4, 3, 3, // E0
   11, 6, 6, 6, 5, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, // F0
];

/// The transitions: one state a row, one class a column; the next state is
/// `TRANSITION[state + class]`, with `state` premultiplied by 12.
#[rustfmt::skip]
pub const TRANSITION: [u8; 108] = [
//  class:
//  0   1   2   3   4   5   6   7   8   9  10  11
    0, 12, 24, 36, 60, 96, 84, 12, 12, 12, 48, 72, //  0 ACCEPT
   12, 12, 12, 12, 12, 12, 12, 12, 12, 12, 12, 12, // 12 REJECT
   12,  0, 12, 12, 12, 12, 12,  0, 12,  0, 12, 12, // 24 one continuation to go
   12, 24, 12, 12, 12, 12, 12, 24, 12, 24, 12, 12, // 36 two to go
   12, 12, 12, 12, 12, 12, 12, 24, 12, 12, 12, 12, // 48 after E0: A0..=BF
   12, 24, 12, 12, 12, 12, 12, 12, 12, 24, 12, 12, // 60 after ED: 80..=9F
   12, 12, 12, 12, 12, 12, 12, 36, 12, 36, 12, 12, // 72 after F0: 90..=BF
   12, 36, 12, 12, 12, 12, 12, 36, 12, 36, 12, 12, // 84 after F1..=F3: three to go
   12, 36, 12, 12, 12, 12, 12, 12, 12, 12, 12, 12, // 96 after F4: 80..=8F
];

/// One step of the automaton: the state and the code point so far after
/// `byte`, exactly Hoehrmann's `decode` function.
///
/// From [`ACCEPT`] the code point restarts with the lead byte's payload
/// bits (`0xFF >> class` masks them: the classes were numbered so that this
/// works); inside a character each continuation byte shifts in six bits.
/// The code point is meaningful only when the new state is [`ACCEPT`].
///
/// ```
/// use utf8_dfa::table::{step, ACCEPT};
/// let (s, cp) = step(ACCEPT, 0, 0xC3);
/// let (s, cp) = step(s, cp, 0xA9);
/// assert_eq!((s, cp), (ACCEPT, 'é' as u32));
/// ```
#[must_use]
pub const fn step(state: u8, codepoint: u32, byte: u8) -> (u8, u32) {
    let class = BYTE_CLASS[byte as usize];
    let codepoint = if state == ACCEPT {
        (0xFF >> class) & byte as u32
    } else {
        (byte as u32 & 0x3F) | (codepoint << 6)
    };
    // A REJECT state may come in (callers that do not stop at it); the
    // REJECT row keeps it there, and the index stays below 108.
    let state = if state as usize >= TRANSITION.len() {
        REJECT
    } else {
        state
    };
    (TRANSITION[state as usize + class as usize], codepoint)
}

/// The next state alone, for validation: `TRANSITION[state + class(byte)]`.
/// Any `state` outside the nine leads to [`REJECT`].
#[inline]
#[must_use]
pub const fn next_state(state: u8, byte: u8) -> u8 {
    let i = state as usize + BYTE_CLASS[byte as usize] as usize;
    if i < TRANSITION.len() {
        TRANSITION[i]
    } else {
        REJECT
    }
}

/// The bits each state takes in a [`SHIFT`] row.
pub const SHIFT_BITS: u32 = 6;

/// [`ACCEPT`] in the shift encoding (see [`SHIFT`]).
pub const SHIFT_ACCEPT: u64 = 0;

/// [`REJECT`] in the shift encoding (see [`SHIFT`]).
pub const SHIFT_REJECT: u64 = (REJECT as u64 / CLASSES as u64) * SHIFT_BITS as u64;

/// The mask that extracts a shift-encoded state from a running `u64`.
pub const SHIFT_MASK: u64 = (1 << SHIFT_BITS) - 1;

/// The same automaton as [`TRANSITION`], packed as a "shift DFA": one `u64`
/// per byte, holding that byte's transition out of each of the nine states.
///
/// A state is encoded as the bit offset of its field, `(state / 12) * 6`
/// (so [`SHIFT_ACCEPT`] is 0 and [`SHIFT_REJECT`] is 6), and bits
/// `6k..6k + 6` of `SHIFT[b]` hold the encoded
/// `TRANSITION[12k + BYTE_CLASS[b]]`. One step is then one load that does
/// not depend on the state, and one shift that does:
/// `next = (SHIFT[b] >> state) & 63`. The mask can even be left out, because
/// `u64::wrapping_shr` only uses the low six bits of its amount; the
/// validator keeps the unmasked word and masks once per block.
///
/// Derived at compile time by [`derive_shift`] and checked against
/// [`TRANSITION`] for every state and byte by a test.
pub const SHIFT: [u64; 256] = derive_shift();

/// Builds [`SHIFT`] from [`BYTE_CLASS`] and [`TRANSITION`].
#[must_use]
pub const fn derive_shift() -> [u64; 256] {
    let mut table = [0u64; 256];
    let mut byte = 0;
    while byte < 256 {
        let class = BYTE_CLASS[byte] as usize;
        let mut row = 0u64;
        let mut k = 0;
        while k < STATES {
            let next = TRANSITION[k * CLASSES + class] as u64 / CLASSES as u64;
            row |= (next * SHIFT_BITS as u64) << (k as u32 * SHIFT_BITS);
            k += 1;
        }
        table[byte] = row;
        byte += 1;
    }
    table
}

/// A premultiplied state in the shift encoding of [`SHIFT`].
#[must_use]
pub const fn to_shift(state: u8) -> u64 {
    (state as u64 / CLASSES as u64) * SHIFT_BITS as u64
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every state of the table, premultiplied.
    fn states() -> impl Iterator<Item = u8> {
        (0..STATES as u8).map(|k| k * CLASSES as u8)
    }

    #[test]
    fn transitions_stay_in_the_table() {
        assert_eq!(TRANSITION.len(), STATES * CLASSES);
        for &t in &TRANSITION {
            assert_eq!(t as usize % CLASSES, 0);
            assert!((t as usize) < STATES * CLASSES);
        }
        for &c in &BYTE_CLASS {
            assert!((c as usize) < CLASSES);
        }
        // REJECT is a trap.
        assert!(
            TRANSITION[REJECT as usize..][..CLASSES]
                .iter()
                .all(|&t| t == REJECT)
        );
    }

    #[test]
    fn shift_table_agrees_with_transition_table() {
        assert_eq!(SHIFT, derive_shift());
        assert_eq!(SHIFT_REJECT, to_shift(REJECT));
        assert_eq!(SHIFT_ACCEPT, to_shift(ACCEPT));
        for state in states() {
            for byte in 0..=255u8 {
                let want = to_shift(next_state(state, byte));
                let row = SHIFT[byte as usize];
                assert_eq!((row >> to_shift(state)) & SHIFT_MASK, want);
                // The unmasked form used by the validator.
                assert_eq!(row.wrapping_shr(to_shift(state) as u32) & SHIFT_MASK, want);
            }
        }
    }

    #[test]
    fn step_agrees_with_next_state_and_decodes_every_scalar() {
        for state in states() {
            for byte in 0..=255u8 {
                assert_eq!(step(state, 0, byte).0, next_state(state, byte));
            }
        }
        // Out-of-range states are treated as REJECT, never a panic.
        assert_eq!(step(200, 0, b'a').0, REJECT);
        assert_eq!(next_state(255, 0xFF), REJECT);
        for c in (0..=0x10FFFF).filter_map(char::from_u32) {
            let mut buf = [0; 4];
            let (mut s, mut cp) = (ACCEPT, 0);
            for (i, &b) in c.encode_utf8(&mut buf).as_bytes().iter().enumerate() {
                // Not accepting before the last byte, never rejecting.
                assert!(s != REJECT && (i == 0) == (s == ACCEPT), "{c:?}");
                (s, cp) = step(s, cp, b);
            }
            assert_eq!((s, cp), (ACCEPT, c as u32));
        }
    }
}
