//! ZigZag encoding: signed integers to unsigned ones so that small magnitudes
//! stay small (protobuf `sint32`/`sint64`).
//!
//! **Placeholder** for 64-bit values only; the full generic crate lands with
//! its own issue.
//!
//! # Example
//!
//! ```
//! assert_eq!(zigzag::encode(-1), 1);
//! assert_eq!(zigzag::decode(4), 2);
//! ```
//!
//! # Crate features
//!
//! None that change behaviour; `std` and `alloc` exist for uniformity.
#![no_std]
#![forbid(unsafe_code)]

/// `(n << 1) ^ (n >> 63)`.
pub const fn encode(n: i64) -> u64 {
    ((n << 1) ^ (n >> 63)) as u64
}

/// The inverse of [`encode`].
pub const fn decode(n: u64) -> i64 {
    ((n >> 1) as i64) ^ -((n & 1) as i64)
}
