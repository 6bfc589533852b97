//! `variant::pairs_to_utf8` (CESU-8's surrogate pairs to UTF-8, four at a
//! time) and `variant::utf8_to_pairs` (back), dispatched and with every
//! kernel this CPU runs, against the scalar reference, std's own conversion
//! of the characters: the answer (whole passes of four characters, stopping
//! before the first pass with one that is not a pair, or not a 4-byte
//! character, and where input or output runs short), the bytes written,
//! nothing written past them, and no read or write outside the slices
//! (guard pages).
// Test code: clippy.toml exempts #[test] functions from the no-panic lints,
// but not the helpers of an integration test, which may panic too.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use codec_testdata::guard::GuardedBuf;
use rand::{Rng, SeedableRng, rngs::StdRng};
use utf8_simd::variant::{pairs_to_utf8, pairs_to_utf8_with, utf8_to_pairs, utf8_to_pairs_with};

/// The CESU-8 form of supplementary character `c` (a surrogate pair).
fn pair(c: char) -> [u8; 6] {
    let mut units = [0u16; 2];
    c.encode_utf16(&mut units);
    let mut out = [0u8; 6];
    for (k, &u) in units.iter().enumerate() {
        out[3 * k] = 0xE0 | (u >> 12) as u8;
        out[3 * k + 1] = 0x80 | ((u >> 6) & 0x3F) as u8;
        out[3 * k + 2] = 0x80 | (u & 0x3F) as u8;
    }
    out
}

/// A conversion, dispatched, and with a kernel (`None`: it has no entry).
type Dispatched = fn(&[u8], &mut [u8]) -> (usize, usize);
type WithKernel = fn(&utf8_simd::Kernel, &[u8], &mut [u8]) -> Option<(usize, usize)>;

/// Every way to ask for a conversion: dispatched, and each kernel with a
/// variant entry; each output starts as `0xAA` bytes.
fn answers_of(
    dispatched: Dispatched,
    with: WithKernel,
    input: &[u8],
    out_len: usize,
) -> Vec<(&'static str, (usize, usize), Vec<u8>)> {
    let mut all = Vec::new();
    let mut out = vec![0xAAu8; out_len];
    let r = dispatched(input, &mut out);
    all.push(("dispatched", r, out));
    for k in utf8_simd::kernels() {
        let mut out = vec![0xAAu8; out_len];
        if let Some(r) = with(k, input, &mut out) {
            all.push((k.name(), r, out));
        }
    }
    all
}

/// Every way to ask for `pairs_to_utf8`.
fn answers(input: &[u8], out_len: usize) -> Vec<(&'static str, (usize, usize), Vec<u8>)> {
    answers_of(pairs_to_utf8, pairs_to_utf8_with, input, out_len)
}

/// The answer a kernel must give for `chars` (each a supplementary
/// character or `None`: a non-pair of 6 bytes) encoded as `input` with
/// `out_len` bytes of output: the passes of four pairs that fit (28 bytes
/// read, 16 written) before the first pass holding a non-pair (or bytes
/// of the tail, which no test makes start like a lead).
fn expected(chars: &[Option<char>], input_len: usize, out_len: usize) -> usize {
    let mut passes = 0;
    while 24 * passes + 28 <= input_len
        && 16 * passes + 16 <= out_len
        && chars
            .get(4 * passes..4 * passes + 4)
            .is_some_and(|four| four.iter().all(Option::is_some))
    {
        passes += 1;
    }
    passes
}

/// Checks every answer for `chars` (`None`: 6 bytes that are not a pair,
/// `filler`) plus `tail` bytes, with `out_len` bytes of output.
fn check(chars: &[Option<char>], filler: [u8; 6], tail: &[u8], out_len: usize) {
    let mut input = Vec::new();
    for c in chars {
        input.extend_from_slice(&c.map_or(filler, pair));
    }
    input.extend_from_slice(tail);
    let passes = expected(chars, input.len(), out_len);
    let utf8: String = chars[..4 * passes].iter().map(|c| c.unwrap()).collect();
    for (name, (read, written), out) in answers(&input, out_len) {
        if name == "dispatched" && (read, written) == (0, 0) && passes > 0 {
            // No SIMD kernel on this CPU: the caller converts everything.
            assert!(
                utf8_simd::kernels()
                    .iter()
                    .all(|k| k.name() == "portable" || !k.is_available())
            );
            continue;
        }
        assert_eq!(
            (read, written),
            (24 * passes, 16 * passes),
            "{name}: {chars:?} {tail:02X?} out {out_len}"
        );
        assert_eq!(&out[..written], utf8.as_bytes(), "{name}");
        assert!(
            out[written..].iter().all(|&b| b == 0xAA),
            "{name}: wrote past {written}"
        );
    }
}

/// Supplementary characters from every plane, the first and last of each.
fn some_chars(rng: &mut StdRng) -> char {
    match rng.random_range(0..4) {
        0 => char::from_u32(0x1_0000 * rng.random_range(1..=16)).unwrap(),
        1 => char::from_u32(0x1_0000 * rng.random_range(1..=16) + 0xFFFF).unwrap(),
        _ => char::from_u32(rng.random_range(0x1_0000..=0x10_FFFF)).unwrap(),
    }
}

#[test]
fn runs_of_every_length_with_every_tail_and_output_size() {
    let mut rng = StdRng::seed_from_u64(0x5041_4952);
    for n in 0..=24 {
        let chars: Vec<Option<char>> = (0..n).map(|_| Some(some_chars(&mut rng))).collect();
        for tail in [
            &b""[..],
            b"a",
            b"\xED\xA0",
            b"abcd",
            b"\xED\xA0\x80\xED",
            b"0123456789",
        ] {
            for out_len in [0, 15, 16, 31, 32, 4 * n, 4 * n + 16, 4 * n + 64] {
                check(&chars, [0; 6], tail, out_len);
            }
        }
    }
}

#[test]
fn a_non_pair_at_every_position_stops_the_pass_that_holds_it() {
    let mut rng = StdRng::seed_from_u64(0x4E4F_4E50);
    // Six bytes that are not a lead surrogate's start, each differing from
    // one in a single tested bit or byte: a 3-byte character starting ED,
    // a trail surrogate first, ASCII, E0, an 'ED' moved by one.
    let fillers: [[u8; 6]; 5] = [
        *b"\xED\x9F\xBFabc",
        *b"\xED\xB0\x80\xED\xA0\x80",
        *b"abcdef",
        *b"\xE0\xA0\x80xyz",
        *b"a\xED\xA0\x80\xED\xB0",
    ];
    for filler in fillers {
        for at in 0..20 {
            let chars: Vec<Option<char>> = (0..20)
                .map(|k| (k != at).then(|| some_chars(&mut rng)))
                .collect();
            check(&chars, filler, b"", 4 * 20);
            check(&chars, filler, b"tail", 4 * 20 + 3);
        }
    }
}

#[test]
fn every_supplementary_character() {
    // In runs of 40 (ten passes), so every character goes through a kernel.
    let chars: Vec<char> = (0x1_0000u32..=0x10_FFFF)
        .filter_map(char::from_u32)
        .collect();
    for run in chars.chunks(40) {
        let run: Vec<Option<char>> = run.iter().copied().map(Some).collect();
        check(&run, [0; 6], b"0123", 4 * run.len());
    }
}

/// Inputs that end at a guard page, and outputs that end at another, at
/// every length up to 200: a read or write past either end faults.
#[test]
fn no_read_or_write_outside_the_slices() {
    let run: Vec<u8> = (0..40)
        .flat_map(|k| pair(char::from_u32(0x1F600 + k).unwrap()))
        .collect();
    let mut input_buf = GuardedBuf::new(run.len());
    let mut out_buf = GuardedBuf::new(run.len());
    for len in 0..=200 {
        let input = input_buf.at_end(&run[..len]).to_vec();
        let input_at_end = input_buf.at_end(&input);
        for out_len in [len * 2 / 3, len * 2 / 3 + 1, 16, 0] {
            for k in utf8_simd::kernels() {
                let out = out_buf.at_end_mut(out_len);
                if let Some((read, written)) = pairs_to_utf8_with(k, input_at_end, out) {
                    assert!(read <= len && written <= out_len, "{}", k.name());
                }
                let out = out_buf.at_start_mut(out_len);
                let _ = pairs_to_utf8_with(k, input_at_end, out);
            }
        }
        let input_at_start = input_buf.at_start(&input);
        for k in utf8_simd::kernels() {
            let out = out_buf.at_end_mut(len);
            let _ = pairs_to_utf8_with(k, input_at_start, out);
        }
    }
}

// The other direction: UTF-8's 4-byte characters to pairs.

/// Every way to ask for `utf8_to_pairs`.
fn answers_to_pairs(input: &[u8], out_len: usize) -> Vec<(&'static str, (usize, usize), Vec<u8>)> {
    answers_of(utf8_to_pairs, utf8_to_pairs_with, input, out_len)
}

/// Checks every answer of `utf8_to_pairs` for `chars` (`None`: `filler`, a
/// character that is not 4 bytes long, or a few of them) as UTF-8, plus
/// `tail`, with `out_len` bytes of output.
fn check_to_pairs(chars: &[Option<char>], filler: &str, tail: &str, out_len: usize) {
    let mut input = String::new();
    for c in chars {
        match c {
            Some(c) => input.push(*c),
            None => input.push_str(filler),
        }
    }
    input.push_str(tail);
    // Whole passes of four 4-byte characters that fit, before the first
    // pass holding anything else (the tail's characters count too).
    let all: Vec<char> = input.chars().collect();
    let mut passes = 0;
    while 16 * passes + 16 <= input.len()
        && 24 * passes + 24 <= out_len
        && all
            .get(4 * passes..4 * passes + 4)
            .is_some_and(|four| four.iter().all(|c| c.len_utf8() == 4))
    {
        passes += 1;
    }
    let pairs: Vec<u8> = all[..4 * passes].iter().flat_map(|&c| pair(c)).collect();
    for (name, (read, written), out) in answers_to_pairs(input.as_bytes(), out_len) {
        if name == "dispatched" && (read, written) == (0, 0) && passes > 0 {
            assert!(
                utf8_simd::kernels()
                    .iter()
                    .all(|k| k.name() == "portable" || !k.is_available())
            );
            continue;
        }
        assert_eq!(
            (read, written),
            (16 * passes, 24 * passes),
            "{name}: {chars:?} {tail:?} out {out_len}"
        );
        assert_eq!(&out[..written], &pairs[..], "{name}");
        assert!(
            out[written..].iter().all(|&b| b == 0xAA),
            "{name}: wrote past {written}"
        );
    }
}

#[test]
fn to_pairs_runs_of_every_length_with_every_tail_and_output_size() {
    let mut rng = StdRng::seed_from_u64(0x5041_4953);
    for n in 0..=24 {
        let chars: Vec<Option<char>> = (0..n).map(|_| Some(some_chars(&mut rng))).collect();
        for tail in [
            "",
            "a",
            "é",
            "吕",
            "abcd",
            "吕吕吕",
            "\u{10FFFF}\u{10000}\u{1F600}",
        ] {
            for out_len in [0, 23, 24, 47, 48, 6 * n, 6 * n + 24, 6 * n + 64] {
                check_to_pairs(&chars, "", tail, out_len);
            }
        }
    }
}

#[test]
fn to_pairs_a_shorter_character_at_every_position_stops_the_pass_that_holds_it() {
    let mut rng = StdRng::seed_from_u64(0x4E4F_4E51);
    // Characters of 1, 2 and 3 bytes, alone and in fours (a 4-byte-long
    // stretch that is not one character).
    for filler in ["a", "é", "吕", "abcd", "aé吕", "\u{FFFF}a"] {
        for at in 0..20 {
            let chars: Vec<Option<char>> = (0..20)
                .map(|k| (k != at).then(|| some_chars(&mut rng)))
                .collect();
            check_to_pairs(&chars, filler, "", 6 * 20);
            check_to_pairs(&chars, filler, "tail", 6 * 20 + 5);
        }
    }
}

#[test]
fn to_pairs_every_supplementary_character() {
    let chars: Vec<char> = (0x1_0000u32..=0x10_FFFF)
        .filter_map(char::from_u32)
        .collect();
    for run in chars.chunks(40) {
        let run: Vec<Option<char>> = run.iter().copied().map(Some).collect();
        check_to_pairs(&run, "", "0123", 6 * run.len());
    }
}

/// As `no_read_or_write_outside_the_slices`, the other way.
#[test]
fn to_pairs_no_read_or_write_outside_the_slices() {
    let run: String = (0..40)
        .map(|k| char::from_u32(0x1F600 + k).unwrap())
        .collect();
    let run = run.as_bytes();
    let mut input_buf = GuardedBuf::new(run.len());
    let mut out_buf = GuardedBuf::new(run.len() * 2);
    for len in 0..=run.len() {
        let input_at_end = input_buf.at_end(&run[..len]).to_vec();
        let input_at_end = input_buf.at_end(&input_at_end);
        for out_len in [len * 3 / 2, len * 3 / 2 + 1, 24, 0] {
            for k in utf8_simd::kernels() {
                let out = out_buf.at_end_mut(out_len);
                if let Some((read, written)) = utf8_to_pairs_with(k, input_at_end, out) {
                    assert!(read <= len && written <= out_len, "{}", k.name());
                }
                let out = out_buf.at_start_mut(out_len);
                let _ = utf8_to_pairs_with(k, input_at_end, out);
            }
        }
        let input_at_start = input_buf.at_start(&run[..len]);
        for k in utf8_simd::kernels() {
            let out = out_buf.at_end_mut(len * 3 / 2);
            let _ = utf8_to_pairs_with(k, input_at_start, out);
        }
    }
}
