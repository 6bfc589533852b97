//! Exact errors: from "the kernel failed after `pos`" to std's
//! `valid_up_to` and `error_len`.
//!
//! A kernel that fails returns a position `pos` such that `input[..pos]` is a
//! prefix of well-formed UTF-8, possibly ending inside a character. Backing
//! up at most 3 bytes from `pos` reaches the start of that character (a byte
//! that is not a continuation byte), which is a character boundary with only
//! well-formed text before it. From there the scalar validator (utf8-dfa)
//! finds the exact error, whose position is then moved back into the whole
//! input with `offset_by`. The kernels test their error register every 256
//! bytes, so the scalar pass reads about that much.

use codec_core::Utf8Error;

/// The character boundary at or at most 3 bytes before `pos`, given that
/// `input[..pos]` is a prefix of well-formed UTF-8.
fn back_up(input: &[u8], pos: usize) -> usize {
    let pos = pos.min(input.len());
    for back in 1..=pos.min(3) {
        if input[pos - back] & 0xC0 != 0x80 {
            return pos - back;
        }
    }
    // Three continuation bytes: the end of a whole 4-byte character, so `pos`
    // is a boundary. (A shorter run at the very start cannot be a valid
    // prefix; start at 0 so even a kernel bug cannot hide that error.)
    if pos < 4 { 0 } else { pos }
}

/// The exact result for `input`, knowing that `input[..pos]` is a prefix of
/// well-formed UTF-8.
#[cold]
#[inline(never)]
pub(crate) fn locate(input: &[u8], pos: usize) -> Result<(), Utf8Error> {
    let start = back_up(input, pos);
    utf8_dfa::validate(&input[start..]).map_err(|e| e.offset_by(start))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn backs_up_to_the_start_of_the_character() {
        let text = "aé吕😀b".as_bytes(); // 1, 2, 3, 4, 1 bytes
        // (pos, boundary)
        let cases = [
            (0, 0),
            (1, 0),
            (2, 1),
            (3, 1),
            (4, 3),
            (5, 3),
            (6, 3),
            (7, 6),
            (8, 6),
            (9, 6),
            (10, 10),
            (11, 10),
        ];
        for (pos, want) in cases {
            assert_eq!(back_up(text, pos), want, "pos {pos}");
        }
    }

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
