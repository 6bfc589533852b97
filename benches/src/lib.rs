//! Shared inputs for the criterion benchmarks in `benches/benches/`.
//!
//! The benchmarks themselves live in `benches/benches/*.rs`; run them with
//! `cargo xtask bench` or `cargo bench -p benches`.
//!
//! ```
//! let text = benches::synthetic_utf8(100, 2);
//! assert!(core::str::from_utf8(&text).is_ok());
//! ```

// A test harness: a panic is how it reports a failure.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::unreachable
)]

/// Valid UTF-8 of at least `len` bytes, made of `width`-byte characters only
/// (1 to 4).
pub fn synthetic_utf8(len: usize, width: usize) -> Vec<u8> {
    let c = match width {
        1 => 'a',
        2 => 'é',
        3 => '吕',
        _ => '😀',
    };
    let mut s = String::with_capacity(len + 4);
    while s.len() < len {
        s.push(c);
    }
    s.into_bytes()
}

/// The nine lipsum texts of `benches/data/lipsum/` (provenance in the README
/// there), by language.
pub const LIPSUM: &[(&str, &str)] = &[
    (
        "Arabic",
        include_str!("../data/lipsum/Arabic-Lipsum.utf8.txt"),
    ),
    (
        "Chinese",
        include_str!("../data/lipsum/Chinese-Lipsum.utf8.txt"),
    ),
    (
        "Emoji",
        include_str!("../data/lipsum/Emoji-Lipsum.utf8.txt"),
    ),
    (
        "Hebrew",
        include_str!("../data/lipsum/Hebrew-Lipsum.utf8.txt"),
    ),
    (
        "Hindi",
        include_str!("../data/lipsum/Hindi-Lipsum.utf8.txt"),
    ),
    (
        "Japanese",
        include_str!("../data/lipsum/Japanese-Lipsum.utf8.txt"),
    ),
    (
        "Korean",
        include_str!("../data/lipsum/Korean-Lipsum.utf8.txt"),
    ),
    (
        "Latin",
        include_str!("../data/lipsum/Latin-Lipsum.utf8.txt"),
    ),
    (
        "Russian",
        include_str!("../data/lipsum/Russian-Lipsum.utf8.txt"),
    ),
];

/// `text` repeated to at least `size` bytes, then cut at the last character
/// boundary at or below `size`.
pub fn sized(text: &str, size: usize) -> String {
    let mut s = text.repeat(size / text.len().max(1) + 1);
    let mut cut = size.min(s.len());
    while !s.is_char_boundary(cut) {
        cut -= 1;
    }
    s.truncate(cut);
    s
}
