//! The short-input fast path: an ASCII check of up to 64 bytes with a few
//! overlapping word loads, in front of the kernel's indirect call, and a
//! byte loop for non-ASCII input of up to [`TINY`] bytes; and [`scan`], the
//! same words asked for the BMP check's bytes (`00`, `F0..`), for the
//! last bytes of `variant::bmp_str`.
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
        fold_words(input, 0, |acc, x| acc | x) & HIGH_BITS == 0
    } else if n >= 4 {
        let head = u32::from_le_bytes([input[0], input[1], input[2], input[3]]);
        let tail = u32::from_le_bytes([input[n - 4], input[n - 3], input[n - 2], input[n - 1]]);
        (head | tail) & 0x8080_8080 == 0
    } else {
        input.iter().all(|&b| b < 0x80)
    }
}

/// What [`scan`] found among some bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Scan {
    /// A byte above `7F`.
    pub(crate) non_ascii: bool,
    /// A byte `F0..=FF`: a 4-byte lead, or a byte never valid.
    pub(crate) four: bool,
    /// A byte `00`.
    pub(crate) nul: bool,
}

/// [`Scan`] of `input` (any length) from words ([`fold_words`]): the BMP
/// check's last bytes, fewer than a block and three,
/// and all of an input shorter than a block. The byte loop it replaced
/// (`all(|b| b < 0xF0 && ...)`) cost 17-18 ns on 60 bytes (AMD Zen 4), more
/// than the UTF-8 validation of the same bytes, and took short ASCII
/// strings to 4-8x `simd_cesu8::decode`'s time. `four` is only looked for
/// in non-ASCII bytes, and `nul` only if `want_nul`; otherwise `false`.
#[inline]
pub(crate) fn scan(input: &[u8], want_nul: bool) -> Scan {
    const LOW_BITS: u64 = 0x0101_0101_0101_0101;
    let non_ascii = fold_words(input, 0, |acc, x| acc | x) & HIGH_BITS != 0;
    // Bit 7 of each byte ANDed with its bits 6, 5 and 4: set where the
    // byte is F0..=FF (the shifts move bits within a byte up to bit 7,
    // never across bytes there).
    let four = non_ascii
        && fold_words(input, 0, |acc, x| acc | (x & x << 1 & x << 2 & x << 3)) & HIGH_BITS != 0;
    // The classic test for a zero byte: exact as an answer for a word.
    let nul = want_nul
        && fold_words(input, 0, |acc, x| acc | (x.wrapping_sub(LOW_BITS) & !x)) & HIGH_BITS != 0;
    Scan {
        non_ascii,
        four,
        nul,
    }
}

/// `f` folded over the words of `input`: whole words from the front and
/// the word ending at the last byte (which may overlap the one before),
/// or below 8 bytes one word of the bytes padded with spaces (ASCII, not
/// `00`; [`is_ascii`] has its own paths there). Every byte is in some
/// word, so an OR of per-byte flags is exact.
#[inline(always)]
fn fold_words(input: &[u8], init: u64, f: impl Fn(u64, u64) -> u64) -> u64 {
    let n = input.len();
    if n < 8 {
        let mut padded = [b' '; 8];
        if let Some(head) = padded.get_mut(..n) {
            head.copy_from_slice(input);
        }
        return f(init, u64::from_le_bytes(padded));
    }
    let mut acc = f(init, word(input, n - 8));
    let mut i = 0;
    while i + 8 < n {
        acc = f(acc, word(input, i));
        i += 8;
    }
    acc
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
    // table (RFC 3629), later bytes are continuations. (Matching the lead
    // against every range at once and checking the later bytes with a
    // closure measured 0.75-0.8x std on two 3-byte characters.)
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
    fn scan_agrees_with_the_bytes_at_every_length_position_and_value() {
        let by_bytes = |input: &[u8], want_nul: bool| Scan {
            non_ascii: input.iter().any(|&b| b >= 0x80),
            four: input.iter().any(|&b| b >= 0xF0),
            nul: want_nul && input.contains(&0),
        };
        // Backgrounds of ASCII and of bytes next to the classes' edges (a
        // borrow or a shift crossing from a neighbour would show there).
        let backgrounds: [&[u8]; 3] = [b"a", &[0x01, 0x7F, 0xEF, 0x80], &[0xC3, 0x01, 0xEF]];
        for background in backgrounds {
            let mut base = [0u8; 100];
            for (b, &x) in base.iter_mut().zip(background.iter().cycle()) {
                *b = x;
            }
            for n in (0..=40).chain([63, 64, 65, 66, 67, 100]) {
                for want_nul in [false, true] {
                    let b = &base[..n];
                    assert_eq!(scan(b, want_nul), by_bytes(b, want_nul), "{b:02X?}");
                }
                for pos in 0..n {
                    for byte in 0..=255u8 {
                        let mut buf = base;
                        buf[pos] = byte;
                        let buf = &buf[..n];
                        for want_nul in [false, true] {
                            let (got, want) = (scan(buf, want_nul), by_bytes(buf, want_nul));
                            assert_eq!(got, want, "n {n} pos {pos} byte {byte:02X}");
                        }
                    }
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
