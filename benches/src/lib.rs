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

pub mod harness;

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

/// The nine lipsum texts of `benches/data/lipsum` (README there), by name.
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
pub fn sized_text(text: &str, size: usize) -> String {
    let mut s = text.repeat(size / text.len().max(1) + 1);
    let mut cut = size.min(s.len());
    while !s.is_char_boundary(cut) {
        cut -= 1;
    }
    s.truncate(cut);
    s
}

/// Text for the Latin-1 benchmarks, whose characters are all below U+0100:
/// the Latin lipsum (ASCII) with the first vowel of every fourth word
/// accented (`a e i o u` → `à é ï ô ù`), about one character in 25 above
/// U+007F, as in French. The lipsum texts hold no such text: the Latin one
/// is ASCII, the others are mostly above U+00FF.
pub fn latin1_text() -> String {
    let latin = LIPSUM
        .iter()
        .find(|(name, _)| *name == "Latin")
        .map_or("", |(_, text)| text);
    let mut out = String::with_capacity(latin.len() + latin.len() / 20);
    for (k, word) in latin.split(' ').enumerate() {
        if k > 0 {
            out.push(' ');
        }
        let mut accented = k % 4 != 0;
        for c in word.chars() {
            let a = match c {
                'a' => 'à',
                'e' => 'é',
                'i' => 'ï',
                'o' => 'ô',
                'u' => 'ù',
                _ => c,
            };
            if !accented && a != c {
                out.push(a);
                accented = true;
            } else {
                out.push(c);
            }
        }
    }
    out
}
