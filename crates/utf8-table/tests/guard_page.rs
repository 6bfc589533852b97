//! Over-read detection on real hardware: every utf8-table entry point runs
//! on inputs that end exactly at (or start exactly after) a `PROT_NONE`
//! guard page, at every length 0..=256, valid and invalid, in both modes; and
//! `encode` writes into buffers that end at one. A read or write outside the
//! slice (the 16-byte ASCII skip is the likely culprit) kills the test with
//! SIGSEGV. Answers are compared with std, or with the same call on ordinary
//! memory for legacy mode.
//!
//! Linux only: the guard pages come from `codec_testdata::guard`, whose own
//! tests prove that a read past the end faults.
#![cfg(target_os = "linux")]

use codec_testdata::guard::{GuardedBuf, at_both_ends};
use codec_testdata::std_validate;
use utf8_table::{Legacy, Strict};

fn check(guarded: &[u8], original: &[u8]) {
    let want = std_validate(original);
    let ctx = || {
        format!(
            "{} bytes {:02X?}",
            original.len(),
            &original[..original.len().min(80)]
        )
    };
    // `validate` and `from_utf8` are in the workspace registry, whose
    // guard-page test is crates/codec-testdata/tests/utf8_guard_page.rs.
    assert_eq!(
        utf8_table::validate_as::<Strict>(guarded),
        want,
        "validate_as {}",
        ctx()
    );
    assert_eq!(
        utf8_table::validate_as::<Legacy>(guarded),
        utf8_table::validate_as::<Legacy>(original),
        "validate_as::<Legacy> {}",
        ctx()
    );
    let a: Vec<_> = utf8_table::code_points::<Strict>(guarded).collect();
    let b: Vec<_> = utf8_table::code_points::<Strict>(original).collect();
    assert_eq!(a, b, "code_points::<Strict> {}", ctx());
    let a: Vec<_> = utf8_table::code_points::<Legacy>(guarded).collect();
    let b: Vec<_> = utf8_table::code_points::<Legacy>(original).collect();
    assert_eq!(a, b, "code_points::<Legacy> {}", ctx());
    // One-code-point decoders at every suffix, so each ends at the guard.
    for i in 0..guarded.len() {
        assert_eq!(
            utf8_table::decode::<Legacy>(&guarded[i..]),
            utf8_table::decode::<Legacy>(&original[i..]),
            "decode::<Legacy> at {i} of {}",
            ctx()
        );
        assert_eq!(
            utf8_table::decode_char(&guarded[i..]),
            utf8_table::decode_char(&original[i..]),
            "decode_char at {i} of {}",
            ctx()
        );
    }
}

#[test]
fn every_length_at_both_ends_of_a_guard_page() {
    let count = at_both_ends(256, check);
    assert!(count > 10_000, "only {count} inputs");
}

#[test]
fn encode_into_buffers_ending_at_a_guard_page() {
    let mut buf = GuardedBuf::new(16);
    for v in [
        0u32,
        0x7F,
        0x80,
        0x7FF,
        0x800,
        0xFFFF,
        0x1_0000,
        0x10_FFFF,
        0x1F_FFFF,
        0x20_0000,
        0x3FF_FFFF,
        0x400_0000,
        0x7FFF_FFFF,
    ] {
        let n = utf8_table::encoded_len::<Legacy>(v).unwrap();
        let out = buf.at_end_mut(n);
        assert_eq!(utf8_table::encode::<Legacy>(v, out), Ok(n));
        let written = out.to_vec();
        assert_eq!(
            utf8_table::decode::<Legacy>(buf.at_end(&written)),
            Ok((v, n))
        );
        assert!(utf8_table::encode::<Legacy>(v, buf.at_end_mut(n - 1)).is_err());
        if let Some(c) = char::from_u32(v) {
            assert_eq!(utf8_table::encode_char(c, buf.at_end_mut(n)), Ok(n));
            assert!(utf8_table::encode::<Strict>(v, buf.at_end_mut(n - 1)).is_err());
        }
    }
}
