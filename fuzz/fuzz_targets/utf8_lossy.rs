//! Lossy conversion against `String::from_utf8_lossy`, byte for byte: one
//! U+FFFD per maximal invalid subpart.
#![no_main]

use fuzz::same;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let want = String::from_utf8_lossy(data);
    let got = utf8_dfa::to_string_lossy(data);
    same("utf8_dfa::to_string_lossy", data, &*got, &*want);
    // Borrowed exactly when the input is valid, like std.
    same(
        "utf8_dfa::to_string_lossy borrows",
        data,
        matches!(got, std::borrow::Cow::Borrowed(_)),
        matches!(want, std::borrow::Cow::Borrowed(_)),
    );
    let chars: String = utf8_dfa::chars_lossy(data).collect();
    same("utf8_dfa::chars_lossy", data, chars.as_str(), &*want);
    same(
        "utf8_dfa::count_chars_lossy",
        data,
        utf8_dfa::count_chars_lossy(data),
        want.chars().count(),
    );
});
