//! The short-input fast path: an ASCII check of up to 64 bytes with a few
//! overlapping word loads, in front of the kernel's indirect call, and a
//! byte loop for non-ASCII input of up to [`TINY`] bytes.
//!
//! Below 64 bytes a SIMD kernel pays a fixed cost whatever the length: the
//! indirect call of the dispatch, loading its table constants, and a last
//! register assembled from up to three overlapping scalar loads. For ASCII
//! input (the common case for short strings: keys, identifiers, numbers)
//! the word check answers without any of it. Non-ASCII input of up to
//! [`TINY`] bytes takes a byte loop; longer non-ASCII input goes to the
//! kernel, which measured faster than both the scalar DFA and std from 9
//! bytes up (see `docs/results/utf8-simd.md`).

/// Inputs shorter than this take the short path.
pub(crate) const SHORT: usize = 64;

use codec_core::utf8::{is_continuation, lead};

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
/// the SIMD kernel, whose fixed cost (about 6-7 ns: the indirect call, the
/// table constants, one or two registers of checks) measured above std's
/// byte loop up to about 8 bytes and below it from 9 on. The ASCII word
/// check runs first at every length: without it, ASCII of 6-8 bytes went
/// through the byte loop at 0.9x std.
pub(crate) const TINY: usize = 8;

/// Whether `input` (a few bytes, not all ASCII) is well-formed UTF-8: a
/// byte loop with no ASCII word path, no alignment set-up and no error
/// position, which is what makes it cheaper than std on 2 to 8 bytes.
#[inline(always)]
pub(crate) fn tiny_is_valid(input: &[u8]) -> bool {
    // One branch per character length, each reading its bytes with one
    // slice pattern; the second byte's range comes from codec-core's lead
    // table (RFC 3629), later bytes are continuations. (A first version
    // matched the lead against every range at once and checked the later
    // bytes with a closure: 0.75-0.8x std on two 3-byte characters.)
    let mut i = 0;
    while let Some(&first) = input.get(i) {
        if first < 0x80 {
            i += 1;
            continue;
        }
        let l = lead(first);
        match l.len() {
            2 => match input.get(i + 1) {
                Some(&b1) if is_continuation(b1) => i += 2,
                _ => return false,
            },
            3 => {
                let Some(&[b1, b2]) = input.get(i + 1..i + 3) else {
                    return false;
                };
                if !l.allows_second(b1) || !is_continuation(b2) {
                    return false;
                }
                i += 3;
            }
            4 => {
                let Some(&[b1, b2, b3]) = input.get(i + 1..i + 4) else {
                    return false;
                };
                if !l.allows_second(b1) || !is_continuation(b2) || !is_continuation(b3) {
                    return false;
                }
                i += 4;
            }
            // A byte that starts no character.
            _ => return false,
        }
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
        // 4-byte leads: every pair of last bytes after the edge second bytes.
        for a in 0xF0..=0xF5u8 {
            for b in [0x7F, 0x80, 0x8F, 0x90, 0xBF, 0xC0] {
                for c in 0..=255u8 {
                    for d in 0..=255u8 {
                        check(&[a, b, c, d]);
                    }
                }
            }
        }
        check("😀".as_bytes());
        check(b"\xF4\x8F\xBF\xBF");
        check(b"\xF4\x90\x80\x80");
        check(b"\xF0\x90\x80");
    }
}
