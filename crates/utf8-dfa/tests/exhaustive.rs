//! Exhaustive comparisons with std: every byte sequence of one to three
//! bytes, every four-byte sequence that starts with a four-byte lead, and
//! every scalar value.
// Test code: clippy.toml exempts #[test] functions from the no-panic lints,
// but not the helpers of an integration test, which may panic too.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use codec_testdata::{for_each_sequence_up_to_3, std_validate};
use utf8_dfa::{Decoder, LossyDecoder, Validator};

/// Panics unless every whole-buffer entry point agrees with std on `input`.
#[track_caller]
fn check_validate(input: &[u8]) {
    let want = std_validate(input);
    let got = utf8_dfa::validate(input);
    if got != want {
        panic!("validate({input:02X?}) = {got:?}, std says {want:?}");
    }
    assert_eq!(utf8_dfa::is_valid(input), want.is_ok(), "{input:02X?}");
}

#[test]
fn every_sequence_up_to_three_bytes() {
    for_each_sequence_up_to_3(|input| {
        check_validate(input);
        // Strict decoding stops at the same error.
        let mut chars = utf8_dfa::chars(input);
        let valid = match std_validate(input) {
            Ok(()) => input,
            Err(e) => &input[..e.valid_up_to()],
        };
        for want in std::str::from_utf8(valid).unwrap().chars() {
            assert_eq!(chars.next(), Some(Ok(want)), "{input:02X?}");
        }
        match std_validate(input) {
            Ok(()) => assert_eq!(chars.next(), None),
            Err(e) => assert_eq!(chars.next(), Some(Err(e))),
        }
        assert_eq!(chars.next(), None);
    });
}

#[test]
fn every_sequence_up_to_three_bytes_lossy() {
    let mut got = String::new();
    for_each_sequence_up_to_3(|input| {
        let want = String::from_utf8_lossy(input);
        #[cfg(feature = "alloc")]
        assert_eq!(utf8_dfa::to_string_lossy(input), want, "{input:02X?}");
        got.clear();
        got.extend(utf8_dfa::chars_lossy(input));
        assert_eq!(got, want, "{input:02X?}");
        // Streaming, one byte a chunk.
        got.clear();
        let mut d = LossyDecoder::new();
        for b in input.chunks(1) {
            d.decode(b, |c| got.push(c));
        }
        d.finish(|c| got.push(c));
        assert_eq!(got, want, "{input:02X?}");
        assert_eq!(utf8_dfa::count_chars_lossy(input), want.chars().count());
    });
}

#[test]
fn every_sequence_up_to_three_bytes_streaming() {
    for_each_sequence_up_to_3(|input| {
        let want = std_validate(input);
        let mut v = Validator::new();
        let mut got = Ok(());
        for b in input.chunks(1) {
            if let Err(e) = v.update(b) {
                got = Err(e);
            }
        }
        let fin = v.finish();
        assert_eq!(fin, want, "{input:02X?}");
        if got.is_err() {
            assert_eq!(got, want, "{input:02X?}");
        }
    });
}

/// Every `F0..=F4 xx yy zz`: 84 million inputs, alone and after an ASCII
/// byte. Takes a few seconds at the test profile's opt-level 2.
#[test]
fn every_four_byte_sequence_with_a_four_byte_lead() {
    for a in 0xF0..=0xF4u8 {
        // All 256 values each natively; the representative bytes under
        // emulation (`codec_testdata::bytes`).
        for &b in codec_testdata::bytes() {
            for &c in codec_testdata::bytes() {
                for &d in codec_testdata::bytes() {
                    check_validate(&[a, b, c, d]);
                }
            }
        }
    }
}

#[test]
fn every_scalar_value_decodes_to_itself() {
    let mut buf = [0u8; 4];
    for c in (0..=0x10FFFFu32).filter_map(char::from_u32) {
        let bytes = c.encode_utf8(&mut buf).as_bytes();
        assert_eq!(
            utf8_dfa::from_utf8(bytes),
            Ok(c.encode_utf8(&mut [0; 4]) as &str)
        );
        assert_eq!(utf8_dfa::chars(bytes).collect::<Vec<_>>(), [Ok(c)]);
        assert_eq!(utf8_dfa::chars_lossy(bytes).collect::<Vec<_>>(), [c]);
        assert_eq!(utf8_dfa::count_chars(bytes), Ok(1));
        let mut got = Vec::new();
        let mut d = Decoder::new();
        for b in bytes.chunks(1) {
            d.decode(b, |c| got.push(c)).unwrap();
        }
        d.finish().unwrap();
        assert_eq!(got, [c]);
    }
}

#[test]
fn all_scalar_values_in_one_buffer() {
    let text: String = (0..=0x10FFFFu32).filter_map(char::from_u32).collect();
    let bytes = text.as_bytes();
    assert_eq!(utf8_dfa::from_utf8(bytes), Ok(&text[..]));
    assert!(utf8_dfa::chars(bytes).map(Result::unwrap).eq(text.chars()));
    assert_eq!(utf8_dfa::count_chars(bytes), Ok(text.chars().count()));
}
