//! Strict mode is `core::str::from_utf8`, input for input.

use codec_testdata::{assert_std_exact, std_validate};
use quickcheck::quickcheck;
use utf8_table::{Legacy, Strict, Table, Utf8Validator, decode, decode_char, from_utf8, validate};

use crate::oracle::std_decode;

/// Every way the crate validates strictly, each checked against std.
fn check(input: &[u8]) {
    assert_std_exact("validate", input, validate(input));
    assert_std_exact("Table", input, Table.validate(input));
    let want = core::str::from_utf8(input);
    match (from_utf8(input), want) {
        (Ok(got), Ok(want)) => assert_eq!(got, want),
        (Err(got), Err(want)) => {
            assert_eq!(
                (got.valid_up_to(), got.error_len()),
                (want.valid_up_to(), want.error_len())
            )
        }
        (got, want) => panic!("from_utf8 on {input:02X?}: {got:?}, std {want:?}"),
    }
    assert_eq!(
        decode::<Strict>(input),
        std_decode(input),
        "decode {input:02X?}"
    );
}

#[test]
fn every_sequence_up_to_three_bytes() {
    codec_testdata::for_each_sequence_up_to_3(|s| {
        assert_std_exact("validate", s, validate(s));
        assert_eq!(decode::<Strict>(s), std_decode(s), "decode {s:02X?}");
    });
}

/// All 5 × 2^24 four-byte sequences that start with a 4-byte lead `F0..=F4`
/// (the others are settled by their first three bytes, covered above).
#[test]
fn every_four_byte_sequence_from_f0_to_f4() {
    // All 2^24 tails natively; the representative bytes under emulation
    // (`codec_testdata::bytes`).
    let bytes = codec_testdata::bytes();
    let tails = bytes.iter().flat_map(|&b| {
        bytes
            .iter()
            .flat_map(move |&c| bytes.iter().map(move |&d| [b, c, d]))
    });
    for lead in 0xF0..=0xF4u8 {
        for [b, c, d] in tails.clone() {
            let s = [lead, b, c, d];
            let got = validate(&s);
            let want = core::str::from_utf8(&s);
            // Compare the cheap parts first; build the full std error (with
            // its kind) only when they could differ, to keep this fast.
            let same = match (&got, &want) {
                (Ok(()), Ok(_)) => true,
                (Err(g), Err(w)) => {
                    g.valid_up_to() == w.valid_up_to() && g.error_len() == w.error_len()
                }
                _ => false,
            };
            if !same {
                assert_std_exact("validate", &s, got);
            }
        }
    }
}

#[test]
fn conformance_corpora() {
    let cases = codec_testdata::utf8_cases();
    assert!(cases.len() > 1000);
    for case in &cases {
        check(&case.input);
        if let Some(valid) = case.valid {
            assert_eq!(validate(&case.input).is_ok(), valid, "{}", case.id);
        }
    }
    check(codec_testdata::KUHN_STRESS_TEST);
}

#[test]
fn invalid_sequences_after_prefixes() {
    codec_testdata::for_each_invalid_after_prefixes(check);
}

#[test]
fn decode_char_agrees_with_decode() {
    codec_testdata::for_each_sequence_up_to_3(|s| {
        let want = std_decode(s).map(|(v, n)| (char::from_u32(v).unwrap(), n));
        assert_eq!(decode_char(s), want, "{s:02X?}");
    });
}

/// Strict is a sublanguage of legacy: whatever strict decodes, legacy
/// decodes the same way.
fn strict_within_legacy(s: &[u8]) -> bool {
    match decode::<Strict>(s) {
        Ok(r) => decode::<Legacy>(s) == Ok(r),
        Err(_) => true,
    }
}

#[test]
fn strict_is_within_legacy_on_short_sequences() {
    codec_testdata::for_each_sequence_up_to_3(|s| assert!(strict_within_legacy(s), "{s:02X?}"));
}

/// Random text of every width, for the mutation properties.
fn sample_text(seed: u8) -> String {
    const PIECES: &[&str] = &[
        "a",
        "é",
        "吕",
        "😀",
        "\u{7F}",
        "\u{80}",
        "\u{7FF}",
        "\u{800}",
        "\u{FFFF}",
        "\u{10000}",
        "\u{10FFFF}",
        "\u{D7FF}",
        "\u{E000}",
        "ok ",
    ];
    (0..64)
        .map(|i| PIECES[(usize::from(seed) * 7 + i * 13) % PIECES.len()])
        .collect()
}

quickcheck! {
    fn random_bytes(input: Vec<u8>) -> bool {
        check(&input);
        strict_within_legacy(&input)
    }

    /// Random bytes drawn from the interesting high range, where leads and
    /// continuations meet.
    fn random_high_bytes(input: Vec<u8>) -> bool {
        let input: Vec<u8> = input.iter().map(|b| 0x80 | b).collect();
        check(&input);
        true
    }

    fn mutated_valid_text(seed: u8, edits: Vec<(usize, u8)>) -> bool {
        let text = sample_text(seed);
        let input = codec_testdata::mutate(&text, &edits);
        check(&input);
        // Unmutated text is valid and decodes like `str::chars`.
        std_validate(text.as_bytes()).is_ok() && validate(text.as_bytes()).is_ok()
    }
}
