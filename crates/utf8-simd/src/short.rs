//! The short-input fast path: an ASCII check of up to 64 bytes with a few
//! overlapping word loads, in front of the kernel's indirect call.
//!
//! Below 64 bytes a SIMD kernel reads a zero-padded copy of the input, which
//! costs a `memcpy` call and the fixed cost of one full block. For ASCII input
//! (the common case for short strings: keys, identifiers, numbers) this check
//! answers without either. Non-ASCII short input still goes to the kernel,
//! which measured faster than both the scalar DFA and std from 16 bytes up;
//! see `docs/results/utf8-simd.md`.

/// Inputs shorter than this take the short path.
pub(crate) const SHORT: usize = 64;

const HIGH_BITS: u64 = 0x8080_8080_8080_8080;

/// The 8 bytes at `i` as a word; `i + 8 <= input.len()`.
#[inline(always)]
fn word(input: &[u8], i: usize) -> u64 {
    match input.get(i..i + 8) {
        Some(&[a, b, c, d, e, f, g, h]) => u64::from_le_bytes([a, b, c, d, e, f, g, h]),
        _ => HIGH_BITS, // Unreachable for the callers; "not ASCII" is safe.
    }
}

/// Whether every byte of `input` (fewer than [`SHORT`] bytes) is ASCII.
#[inline(always)]
pub(crate) fn is_ascii(input: &[u8]) -> bool {
    let n = input.len();
    if n >= 8 {
        // Whole words from the front, then one word ending at the last byte
        // (overlapping the previous one), so no byte loop is needed.
        let mut acc = word(input, n - 8);
        let mut i = 0;
        while i + 8 < n {
            acc |= word(input, i);
            i += 8;
        }
        acc & HIGH_BITS == 0
    } else if n >= 4 {
        let head = u32::from_le_bytes([input[0], input[1], input[2], input[3]]);
        let tail = u32::from_le_bytes([input[n - 4], input[n - 3], input[n - 2], input[n - 1]]);
        (head | tail) & 0x8080_8080 == 0
    } else {
        input.iter().all(|&b| b < 0x80)
    }
}

/// Non-ASCII inputs up to this long go to [`tiny_is_valid`]; longer ones to
/// the SIMD kernel, whose fixed cost (about 6 ns: the indirect call, the
/// table constants, one or two registers of checks) measured above std's
/// byte loop up to about 8 bytes and below it from 9 on.
pub(crate) const TINY: usize = 8;

/// Whether `input` (a few bytes, not all ASCII) is well-formed UTF-8: a
/// byte loop with no ASCII word path, no alignment set-up and no error
/// position, which is what makes it cheaper than std on 2 to 8 bytes.
#[inline(always)]
pub(crate) fn tiny_is_valid(input: &[u8]) -> bool {
    let mut i = 0;
    while let Some(&lead) = input.get(i) {
        if lead < 0x80 {
            i += 1;
            continue;
        }
        let cont = |k: usize| matches!(input.get(i + k), Some(&b) if b & 0xC0 == 0x80);
        // 2-byte characters first and on their own: the common case, and
        // with one range check fewer (tried folded into the match below:
        // 0.75-0.9x std on 6-8 bytes of "é", against 1.0-1.1x this way).
        if lead < 0xE0 {
            if lead < 0xC2 || !cont(1) {
                return false;
            }
            i += 2;
            continue;
        }
        // The allowed range of the second byte depends on the lead
        // (RFC 3629 §4); later bytes are any continuation byte.
        let (len, lo, hi) = match lead {
            0xE0 => (3, 0xA0, 0xBF),
            0xE1..=0xEC | 0xEE..=0xEF => (3, 0x80, 0xBF),
            0xED => (3, 0x80, 0x9F),
            0xF0 => (4, 0x90, 0xBF),
            0xF1..=0xF3 => (4, 0x80, 0xBF),
            0xF4 => (4, 0x80, 0x8F),
            _ => return false,
        };
        let second_ok = matches!(input.get(i + 1), Some(&b) if lo <= b && b <= hi);
        if !second_ok || !cont(2) || (len == 4 && !cont(3)) {
            return false;
        }
        i += len;
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn agrees_with_std_on_every_length_and_position() {
        for n in 0..SHORT {
            let ascii = [b'a'; SHORT];
            assert!(is_ascii(&ascii[..n]), "n {n}");
            for pos in 0..n {
                for byte in [0x80, 0xC3, 0xFF] {
                    let mut buf = ascii;
                    buf[pos] = byte;
                    assert!(!is_ascii(&buf[..n]), "n {n} pos {pos}");
                    assert!(is_ascii(&buf[..pos]), "n {n} pos {pos}");
                }
            }
        }
    }

    #[test]
    fn tiny_agrees_with_std_on_every_sequence_up_to_three_bytes() {
        let check = |input: &[u8]| {
            assert_eq!(
                tiny_is_valid(input),
                core::str::from_utf8(input).is_ok(),
                "{input:02X?}"
            );
        };
        for a in 0..=255u8 {
            check(&[a]);
            for b in 0..=255u8 {
                check(&[a, b]);
                for c in 0..=255u8 {
                    check(&[a, b, c]);
                }
            }
        }
        check("😀".as_bytes());
        check(b"\xF4\x8F\xBF\xBF");
        check(b"\xF4\x90\x80\x80");
        check(b"\xF0\x90\x80");
    }
}
