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
}
