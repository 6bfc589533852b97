//! Every UTF-8 validator and entry point against `core::str::from_utf8`:
//! whole-buffer validation, `is_valid`, `from_utf8`, the trait objects, each
//! SIMD kernel this CPU has, and the decoders' character sequences.
//!
//! libFuzzer hands the input in a heap buffer of exactly its length, and the
//! target is built with AddressSanitizer, so a SIMD tail that reads one byte
//! past the slice is a finding too.
#![no_main]

use codec_core::Utf8Validator;
use fuzz::{same, std_validate};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let want = std_validate(data);
    let want_str = core::str::from_utf8(data).ok();
    let ok = want.is_ok();

    same(
        "utf8_table::validate",
        data,
        utf8_table::validate(data),
        want,
    );
    same(
        "utf8_table::from_utf8",
        data,
        utf8_table::from_utf8(data).ok(),
        want_str,
    );
    same(
        "utf8_table::Table",
        data,
        utf8_table::Table.validate(data),
        want,
    );
    same(
        "utf8_table::Table::is_valid",
        data,
        utf8_table::Table.is_valid(data),
        ok,
    );

    same("utf8_dfa::validate", data, utf8_dfa::validate(data), want);
    same(
        "utf8_dfa::validate_portable",
        data,
        utf8_dfa::validate_portable(data),
        want,
    );
    same("utf8_dfa::is_valid", data, utf8_dfa::is_valid(data), ok);
    same(
        "utf8_dfa::from_utf8",
        data,
        utf8_dfa::from_utf8(data).ok(),
        want_str,
    );
    same("utf8_dfa::Dfa", data, utf8_dfa::Dfa.validate(data), want);

    same("utf8_simd::validate", data, utf8_simd::validate(data), want);
    same("utf8_simd::is_valid", data, utf8_simd::is_valid(data), ok);
    same(
        "utf8_simd::from_utf8",
        data,
        utf8_simd::from_utf8(data).ok(),
        want_str,
    );
    same(
        "utf8_simd::Simd",
        data,
        utf8_simd::Simd.validate(data),
        want,
    );
    same(
        "utf8_simd::Portable",
        data,
        utf8_simd::Portable::new().validate(data),
        want,
    );
    if let Some(k) = utf8_simd::Sse42::new() {
        same("utf8_simd::Sse42", data, k.validate(data), want);
        same("utf8_simd::Sse42::is_valid", data, k.is_valid(data), ok);
        same(
            "utf8_simd::Sse42::from_utf8",
            data,
            k.from_utf8(data).ok(),
            want_str,
        );
    }
    if let Some(k) = utf8_simd::Avx512::new() {
        same("utf8_simd::Avx512", data, k.validate(data), want);
        same("utf8_simd::Avx512::is_valid", data, k.is_valid(data), ok);
        same(
            "utf8_simd::Avx512::from_utf8",
            data,
            k.from_utf8(data).ok(),
            want_str,
        );
    }
    if let Some(k) = utf8_simd::Avx2::new() {
        same("utf8_simd::Avx2", data, k.validate(data), want);
        same("utf8_simd::Avx2::is_valid", data, k.is_valid(data), ok);
        same(
            "utf8_simd::Avx2::from_utf8",
            data,
            k.from_utf8(data).ok(),
            want_str,
        );
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
