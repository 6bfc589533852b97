//! Every UTF-8 validator and entry point against `core::str::from_utf8`.
//!
//! libFuzzer hands the input in a heap buffer of exactly its length, and the
//! target is built with AddressSanitizer, so a SIMD tail that reads one byte
//! past the slice is a finding too.
#![no_main]

use fuzz::{same, std_validate};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let want = std_validate(data);
    let want_str = core::str::from_utf8(data).ok();
    same("utf8_table::validate", data, utf8_table::validate(data), want);
    same("utf8_table::from_utf8", data, utf8_table::from_utf8(data).ok(), want_str);
    same("utf8_dfa::validate", data, utf8_dfa::validate(data), want);
    same("utf8_dfa::from_utf8", data, utf8_dfa::from_utf8(data).ok(), want_str);
    same("utf8_simd::validate", data, utf8_simd::validate(data), want);
    same("utf8_simd::from_utf8", data, utf8_simd::from_utf8(data).ok(), want_str);
});
