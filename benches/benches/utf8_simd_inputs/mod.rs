//! The inputs of the utf8-simd benchmarks (`utf8_simd.rs`, criterion, and
//! `utf8_simd_min.rs`, the interleaved minimum): the nine lipsum texts and
//! synthetic classes (`ascii`, `2byte`, `3byte`, `4byte`, `random-len`:
//! characters of uniformly random encoded length), at 16 B, 64 B, 1 KiB,
//! 64 KiB and 1 MiB. Texts are repeated to reach the size and cut at the
//! last character boundary at or below it.

use rand::{Rng, SeedableRng, rngs::StdRng};

pub(crate) const LIPSUM: &[(&str, &str)] = &[
    (
        "Arabic",
        include_str!("../../data/lipsum/Arabic-Lipsum.utf8.txt"),
    ),
    (
        "Chinese",
        include_str!("../../data/lipsum/Chinese-Lipsum.utf8.txt"),
    ),
    (
        "Emoji",
        include_str!("../../data/lipsum/Emoji-Lipsum.utf8.txt"),
    ),
    (
        "Hebrew",
        include_str!("../../data/lipsum/Hebrew-Lipsum.utf8.txt"),
    ),
    (
        "Hindi",
        include_str!("../../data/lipsum/Hindi-Lipsum.utf8.txt"),
    ),
    (
        "Japanese",
        include_str!("../../data/lipsum/Japanese-Lipsum.utf8.txt"),
    ),
    (
        "Korean",
        include_str!("../../data/lipsum/Korean-Lipsum.utf8.txt"),
    ),
    (
        "Latin",
        include_str!("../../data/lipsum/Latin-Lipsum.utf8.txt"),
    ),
    (
        "Russian",
        include_str!("../../data/lipsum/Russian-Lipsum.utf8.txt"),
    ),
];

pub(crate) const SIZES: &[(usize, &str)] = &[
    (16, "16B"),
    (64, "64B"),
    (1 << 10, "1KiB"),
    (64 << 10, "64KiB"),
    (1 << 20, "1MiB"),
];

/// `text` repeated to at least `size` bytes, then cut at the last character
/// boundary at or below `size` (`benches::sized_text`, as bytes).
pub(crate) fn sized(text: &str, size: usize) -> Vec<u8> {
    benches::sized_text(text, size).into_bytes()
}

/// Characters of uniformly random encoded length (1 to 4 bytes).
pub(crate) fn random_len_text(bytes: usize) -> String {
    let mut rng = StdRng::seed_from_u64(0x5EED);
    let mut s = String::with_capacity(bytes + 4);
    while s.len() < bytes {
        s.push(match rng.random_range(0..4) {
            0 => rng.random_range('\u{20}'..='\u{7E}'),
            1 => rng.random_range('\u{80}'..='\u{7FF}'),
            2 => rng.random_range('\u{800}'..='\u{FFFF}'),
            _ => rng.random_range('\u{10000}'..='\u{10FFFF}'),
        });
    }
    s
}

/// Every (label, input) pair: texts and classes at every size of [`SIZES`].
#[allow(dead_code, reason = "utf8_simd_min adds sizes and calls inputs_at")]
pub(crate) fn inputs() -> Vec<(String, Vec<u8>)> {
    inputs_at(SIZES)
}

/// Every (label, input) pair: texts and classes at every size of `sizes`.
pub(crate) fn inputs_at(sizes: &[(usize, &str)]) -> Vec<(String, Vec<u8>)> {
    let random = random_len_text(1 << 20);
    let mut classes: Vec<(&str, String)> = LIPSUM
        .iter()
        .map(|&(name, text)| (name, text.to_string()))
        .collect();
    classes.push((
        "ascii",
        "The quick brown fox jumps over the lazy dog. ".into(),
    ));
    classes.push(("2byte", "é".into()));
    classes.push(("3byte", "吕".into()));
    classes.push(("4byte", "😀".into()));
    classes.push(("random-len", random));
    let mut out = Vec::new();
    for (name, text) in &classes {
        for &(size, size_label) in sizes {
            let input = sized(text, size);
            assert!(core::str::from_utf8(&input).is_ok());
            out.push((format!("{name}-{size_label}"), input));
        }
    }
    out
}
