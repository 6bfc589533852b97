//! The portable validator: a walk through the encoding's DFA
//! ([`crate::tables`]) a byte at a time, with an ASCII fast path, that
//! remembers where it was last between characters so that a rejection
//! becomes an exact [`Error`] at once.
//!
//! It is the whole validator off x86-64, the exact path after the SIMD
//! kernel has found a block with an error, and the tail the kernel leaves.

use crate::error::Error;
use crate::tables::{cesu8, mutf8, wtf8};
use crate::variant::Variant;
use utf8_simd::Utf8Validator as _;

/// One encoding's DFA.
pub(crate) struct Dfa {
    byte_class: &'static [u8; 256],
    transition: &'static [u8],
    reject: u8,
    /// A second accepting state (WTF-8's "after a lead surrogate"), or
    /// ACCEPT where there is none.
    after_lead: u8,
    /// Whether the ASCII fast path must stop at `00` (MUTF-8).
    nul_forbidden: bool,
}

/// The state between characters, 0 in every table.
const ACCEPT: u8 = 0;

static CESU8: Dfa = Dfa {
    byte_class: &cesu8::BYTE_CLASS,
    transition: &cesu8::TRANSITION,
    reject: cesu8::REJECT,
    after_lead: cesu8::ACCEPT,
    nul_forbidden: false,
};

static MUTF8: Dfa = Dfa {
    byte_class: &mutf8::BYTE_CLASS,
    transition: &mutf8::TRANSITION,
    reject: mutf8::REJECT,
    after_lead: mutf8::ACCEPT,
    nul_forbidden: true,
};

static WTF8: Dfa = Dfa {
    byte_class: &wtf8::BYTE_CLASS,
    transition: &wtf8::TRANSITION,
    reject: wtf8::REJECT,
    after_lead: wtf8::AFTER_LEAD,
    nul_forbidden: false,
};

impl Dfa {
    /// The DFA of `variant`; UTF-8 has none here (utf8-simd and utf8-dfa
    /// validate it).
    pub(crate) fn of(variant: Variant) -> Option<&'static Dfa> {
        match variant {
            Variant::Utf8 => None,
            Variant::Cesu8 => Some(&CESU8),
            Variant::Mutf8 => Some(&MUTF8),
            Variant::Wtf8 => Some(&WTF8),
        }
    }

    /// The state after `byte` from `state`. A state or class outside the
    /// tables (impossible with the tables as derived) leads to REJECT rather
    /// than a panic.
    #[inline(always)]
    pub(crate) fn step(&self, state: u8, byte: u8) -> u8 {
        let class = self.byte_class[usize::from(byte)];
        self.transition
            .get(usize::from(state) + usize::from(class))
            .copied()
            .unwrap_or(self.reject)
    }

    /// Whether `state` is between characters.
    #[inline(always)]
    pub(crate) fn accepts(&self, state: u8) -> bool {
        state == ACCEPT || state == self.after_lead
    }

    /// Whether `state` is the trap.
    #[inline(always)]
    pub(crate) fn rejects(&self, state: u8) -> bool {
        state == self.reject
    }

    /// The position after the ASCII bytes (for MUTF-8, other than `00`) at
    /// `input[i..]`, skipped 16 bytes at a time while there are 16, then
    /// stopped at the first byte that is not.
    #[inline(always)]
    fn skip_ascii(&self, input: &[u8], mut i: usize) -> usize {
        const HIGH: u64 = 0x8080_8080_8080_8080;
        const ONES: u64 = 0x0101_0101_0101_0101;
        // A word has a zero byte exactly when this is nonzero (the classic
        // test; its false positives only occur above a true zero byte).
        let zero = |w: u64| w.wrapping_sub(ONES) & !w & HIGH;
        while let Some(block) = input.get(i..i + 16) {
            let (a, b) = block.split_at(8);
            let a = u64::from_le_bytes(a.try_into().unwrap_or([0x80; 8]));
            let b = u64::from_le_bytes(b.try_into().unwrap_or([0x80; 8]));
            let mut bad = (a | b) & HIGH;
            if self.nul_forbidden {
                bad |= zero(a) | zero(b);
            }
            if bad != 0 {
                break;
            }
            i += 16;
        }
        i
    }

    /// Runs the DFA over `input` from ACCEPT. `Err((valid_up_to, rejected))`
    /// as for [`Error::at`].
    #[inline]
    pub(crate) fn run(&self, input: &[u8]) -> Result<(), (usize, Option<usize>)> {
        let mut state = ACCEPT;
        let mut last = 0;
        let mut i = 0;
        while i < input.len() {
            if state == ACCEPT {
                i = self.skip_ascii(input, i);
                last = i;
                if i == input.len() {
                    break;
                }
            }
            state = self.step(state, input[i]);
            i += 1;
            if self.accepts(state) {
                last = i;
            } else if self.rejects(state) {
                return Err((last, Some(i - 1)));
            }
        }
        if self.accepts(state) {
            Ok(())
        } else {
            Err((last, None))
        }
    }
}

/// `Ok(())` if `input` is valid in `variant`, else the first error.
pub(crate) fn validate(variant: Variant, input: &[u8]) -> Result<(), Error> {
    match Dfa::of(variant) {
        None => utf8_simd::Portable::new()
            .validate(input)
            .map_err(Error::from_utf8),
        Some(dfa) => dfa
            .run(input)
            .map_err(|(valid_up_to, rejected)| Error::at(variant, input, valid_up_to, rejected)),
    }
}

/// Whether `input` is valid in `variant`.
pub(crate) fn is_valid(variant: Variant, input: &[u8]) -> bool {
    match Dfa::of(variant) {
        None => utf8_simd::Portable::new().is_valid(input),
        Some(dfa) => dfa.run(input).is_ok(),
    }
}
