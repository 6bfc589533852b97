//! Every UTF-8 validator and entry point in the workspace registry
//! (`codec_testdata::registry`: whole-buffer validation, `is_valid`,
//! `from_utf8`, `from_utf8_mut`, `valid_prefix`, each SIMD kernel this CPU
//! has, the streaming validators) against `core::str::from_utf8`, and the
//! decoders' character sequences.
//!
//! libFuzzer hands the input in a heap buffer of exactly its length, and the
//! target is built with AddressSanitizer, so a SIMD tail that reads one byte
//! past the slice is a finding too.
#![no_main]

use codec_testdata::registry::{Utf8Impl, check_utf8_against, utf8_impls};
use fuzz::{same, std_validate};
use libfuzzer_sys::fuzz_target;
use std::sync::OnceLock;

/// Every entry point in the workspace registry that this CPU can run.
fn impls() -> &'static [Utf8Impl] {
    static LIST: OnceLock<Vec<Utf8Impl>> = OnceLock::new();
    LIST.get_or_init(utf8_impls)
}

fuzz_target!(|data: &[u8]| {
    let want = std_validate(data);
    for imp in impls() {
        if let Err(e) = check_utf8_against(imp, data, want) {
            panic!("{e}");
        }
    }

    // Decoders: the characters of the valid prefix, then the error.
    let valid_up_to = want.err().map_or(data.len(), |e| e.valid_up_to());
    let prefix = core::str::from_utf8(&data[..valid_up_to]).unwrap_or_default();
    let std_chars: Vec<char> = prefix.chars().collect();
    let dfa_chars: Vec<Result<char, _>> = utf8_dfa::chars(data).collect();
    let mut expect: Vec<Result<char, _>> = std_chars.iter().copied().map(Ok).collect();
    if let Err(e) = want {
        expect.push(Err(e));
    }
    same("utf8_dfa::chars", data, dfa_chars, expect);
    same(
        "utf8_dfa::count_chars",
        data,
        utf8_dfa::count_chars(data),
        want.map(|()| std_chars.len()),
    );
    let table_points: Vec<u32> = utf8_table::code_points::<utf8_table::Strict>(data)
        .map_while(Result::ok)
        .collect();
    let std_points: Vec<u32> = std_chars.iter().map(|&c| u32::from(c)).collect();
    same("utf8_table::code_points", data, table_points, std_points);
    // decode_char on empty input has no std counterpart: skip it.
    match utf8_table::decode_char(data) {
        _ if data.is_empty() => {}
        Ok((c, n)) => same(
            "utf8_table::decode_char",
            data,
            Some((c, n)),
            prefix.chars().next().map(|c| (c, c.len_utf8())),
        ),
        Err(e) => {
            same(
                "utf8_table::decode_char error position",
                data,
                e.valid_up_to(),
                0,
            );
            same("utf8_table::decode_char error", data, Err(e), want);
        }
    }
});
