//! Lossy conversion to a string: [`to_string_lossy`], byte for byte
//! `String::from_utf8_lossy`.

use alloc::borrow::Cow;
use alloc::string::String;

/// `input` as a string, with each maximal ill-formed subpart replaced by one
/// U+FFFD: byte for byte what `String::from_utf8_lossy` returns, borrowed
/// when `input` is valid.
///
/// It validates the whole input with the fast validator first (valid input
/// is the common case), then walks the rest with [`chunks`](crate::chunks),
/// whose steps are tuned for errors that come in clusters (see
/// `Dfa::valid_prefix`).
///
/// ```
/// use std::borrow::Cow;
/// assert!(matches!(utf8_dfa::to_string_lossy(b"ok"), Cow::Borrowed("ok")));
/// assert_eq!(utf8_dfa::to_string_lossy(b"a\xF0\x9F\x98b\xC0"), "a\u{FFFD}b\u{FFFD}");
/// ```
#[must_use]
pub fn to_string_lossy(input: &[u8]) -> Cow<'_, str> {
    let Err(first) = crate::validate(input) else {
        return Cow::Borrowed(crate::valid_str(input));
    };
    let mut out = String::with_capacity(input.len() + 2);
    let v = first.valid_up_to();
    out.push_str(crate::valid_str(&input[..v]));
    out.push(char::REPLACEMENT_CHARACTER);
    let skip = v + first.error_len().unwrap_or(input.len() - v);
    for chunk in crate::chunks(&input[skip..]) {
        out.push_str(chunk.valid());
        if !chunk.invalid().is_empty() {
            out.push(char::REPLACEMENT_CHARACTER);
        }
    }
    Cow::Owned(out)
}
