//! Lossy conversion to a string: [`to_string_lossy`], byte for byte
//! `String::from_utf8_lossy`.

use alloc::borrow::Cow;
use alloc::string::String;

use crate::decode::LossyChunks;

/// `input` as a string, with each maximal ill-formed subpart replaced by one
/// U+FFFD: byte for byte what `String::from_utf8_lossy` returns, borrowed
/// when `input` is valid.
///
/// It runs the fast validator between errors, and after each error skips
/// exactly [`error_len`](codec_core::Utf8Error::error_len) bytes (the maximal
/// subpart), so the byte that proved the error is decoded again. After an
/// error it validates a window that doubles while no error turns up, so
/// closely spaced errors do not make it validate the rest of the input each
/// time.
///
/// ```
/// use std::borrow::Cow;
/// assert!(matches!(utf8_dfa::to_string_lossy(b"ok"), Cow::Borrowed("ok")));
/// assert_eq!(utf8_dfa::to_string_lossy(b"a\xF0\x9F\x98b\xC0"), "a\u{FFFD}b\u{FFFD}");
/// ```
pub fn to_string_lossy(input: &[u8]) -> Cow<'_, str> {
    let mut chunks = LossyChunks::new(input);
    let (valid, replaced) = match chunks.next() {
        None => return Cow::Borrowed(""),
        Some((valid, false)) if valid.len() == input.len() => {
            return Cow::Borrowed(crate::valid_str(valid));
        }
        Some(first) => first,
    };
    let mut out = String::with_capacity(input.len() + 2);
    for (valid, replaced) in core::iter::once((valid, replaced)).chain(chunks) {
        out.push_str(crate::valid_str(valid));
        if replaced {
            out.push(char::REPLACEMENT_CHARACTER);
        }
    }
    Cow::Owned(out)
}
