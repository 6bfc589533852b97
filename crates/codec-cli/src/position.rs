//! Line and column of a byte offset, tracked while streaming: the library's
//! [`Position`] (codec-core), and its character count.

pub use codec_core::Position;

/// The code points in valid UTF-8, as a `u64` (codec-core's one count).
pub fn count_chars(valid: &[u8]) -> u64 {
    codec_core::utf8::count_chars(valid) as u64
}
