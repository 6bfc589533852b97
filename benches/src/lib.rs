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
