//! Lossy conversion to a string: [`to_string_lossy`], byte for byte
//! `String::from_utf8_lossy`.

use alloc::borrow::Cow;
use alloc::string::String;

use crate::validate::validate;

/// `input` as a string, with each maximal ill-formed subpart replaced by one
/// U+FFFD: byte for byte what `String::from_utf8_lossy` returns, borrowed
/// when `input` is valid.
///
/// It runs the fast validator between errors, and after each error skips
/// exactly [`error_len`](codec_core::Utf8Error::error_len) bytes (the maximal
/// subpart), so the byte that proved the error is decoded again.
///
/// ```
/// use std::borrow::Cow;
/// assert!(matches!(utf8_dfa::to_string_lossy(b"ok"), Cow::Borrowed("ok")));
/// assert_eq!(utf8_dfa::to_string_lossy(b"a\xF0\x9F\x98b\xC0"), "a\u{FFFD}b\u{FFFD}");
/// ```
pub fn to_string_lossy(input: &[u8]) -> Cow<'_, str> {
    let first = match validate(input) {
        Ok(()) => return Cow::Borrowed(crate::valid_str(input)),
        Err(e) => e,
    };
    let mut out = String::with_capacity(input.len() + 2);
    let mut rest = input;
    let mut err = first;
    loop {
        let v = err.valid_up_to();
        out.push_str(crate::valid_str(&rest[..v]));
        out.push(char::REPLACEMENT_CHARACTER);
        let Some(n) = err.error_len() else {
            return Cow::Owned(out);
        };
        rest = &rest[v + n..];
        match validate(rest) {
            Ok(()) => {
                out.push_str(crate::valid_str(rest));
                return Cow::Owned(out);
            }
            Err(e) => err = e,
        }
    }
}
