//! Exact errors: from "the kernel failed after `pos`" to std's
//! `valid_up_to` and `error_len`.
//!
//! A kernel that fails returns a position `pos` such that `input[..pos]` is a
//! prefix of well-formed UTF-8, possibly ending inside a character. Backing
//! up to the start of that character (codec-core's `last_char_start`, at
//! most 4 bytes) reaches a character boundary with only well-formed text
//! before it. From there the scalar validator (utf8-dfa)
//! finds the exact error, whose position is then moved back into the whole
//! input with `offset_by`. The kernels test their error register every 256
//! bytes, so the scalar pass reads about that much.

use codec_core::Utf8Error;
use codec_core::utf8::last_char_start;

/// The exact result for `input`, knowing that `input[..pos]` is a prefix of
/// well-formed UTF-8.
#[cold]
#[inline(never)]
pub(crate) fn locate(input: &[u8], pos: usize) -> Result<(), Utf8Error> {
    let start = last_char_start(input, pos);
    utf8_dfa::validate(&input[start..]).map_err(|e| e.offset_by(start))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn locate_is_exact_from_every_valid_prefix() {
        let input = "aé吕😀b\u{7FF}\u{FFFF}".as_bytes();
        let mut bad = input.to_vec();
        bad.extend_from_slice(b"\xF0\x90\x80x");
        let want = core::str::from_utf8(&bad).unwrap_err();
        for pos in 0..=input.len() {
            let got = locate(&bad, pos).unwrap_err();
            assert_eq!(
                (got.valid_up_to(), got.error_len()),
                (want.valid_up_to(), want.error_len()),
                "pos {pos}"
            );
        }
    }
}
