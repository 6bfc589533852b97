//! Over-read detection on real hardware: utf8-dfa's decoders and lossy
//! functions run on
//! inputs that end exactly at (or start exactly after) a `PROT_NONE` guard
//! page, at every length 0..=256, valid and invalid. The word-at-a-time
//! ASCII skip and the multi-stream loop must never load a byte outside the
//! slice; if one does, the test dies with SIGSEGV. Answers are compared with
//! std.
//!
//! Linux only: the guard pages come from `codec_testdata::guard`, whose own
//! tests prove that a read past the end faults.
#![cfg(target_os = "linux")]

use codec_testdata::guard::at_both_ends;
use codec_testdata::std_validate;

fn check(guarded: &[u8], original: &[u8]) {
    let want = std_validate(original);
    let ctx = || {
        format!(
            "{} bytes {:02X?}",
            original.len(),
            &original[..original.len().min(80)]
        )
    };
    // The validators (`validate`, `validate_portable`, `is_valid`,
    // `from_utf8`, `Validator`) are in the workspace registry, whose
    // guard-page test is crates/codec-testdata/tests/utf8_guard_page.rs;
    // here, the decoders and lossy functions.
    let lossy = String::from_utf8_lossy(original);
    #[cfg(feature = "alloc")]
    assert_eq!(
        utf8_dfa::to_string_lossy(guarded),
        lossy,
        "to_string_lossy {}",
        ctx()
    );
    assert_eq!(
        utf8_dfa::count_chars_lossy(guarded),
        lossy.chars().count(),
        "count_chars_lossy {}",
        ctx()
    );
    assert!(
        utf8_dfa::chars_lossy(guarded).eq(lossy.chars()),
        "chars_lossy {}",
        ctx()
    );
    let strict_end = utf8_dfa::chars(guarded).find_map(Result::err);
    assert_eq!(strict_end, want.err(), "chars {}", ctx());
    let mut d = utf8_dfa::Decoder::new();
    let got = d.decode(guarded, |_| {}).and_then(|()| d.finish());
    assert_eq!(got, want, "Decoder {}", ctx());
    let mut d = utf8_dfa::LossyDecoder::new();
    let mut s = String::new();
    #[cfg(feature = "alloc")]
    d.decode_into_string(guarded, &mut s);
    #[cfg(not(feature = "alloc"))]
    d.decode(guarded, |c| s.push(c));
    d.finish(|c| s.push(c));
    assert_eq!(s, lossy, "LossyDecoder {}", ctx());
}

#[test]
fn every_length_at_both_ends_of_a_guard_page() {
    let count = at_both_ends(256, check);
    assert!(count > 10_000, "only {count} inputs");
}
