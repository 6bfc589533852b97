//! `code_points` in both modes: the same characters as `str::chars` on valid
//! text, and `String::from_utf8_lossy` when errors become U+FFFD.

use quickcheck::quickcheck;
use utf8_table::{Legacy, LegacyError, Mode, Strict, code_points};

/// The strict iterator with errors replaced by U+FFFD, checked against
/// `from_utf8_lossy`, and error positions checked against the bytes.
fn lossy(input: &[u8]) -> String {
    let mut out = String::new();
    let mut it = code_points::<Strict>(input);
    let mut end = 0;
    while let Some(item) = it.next() {
        match item {
            Ok(v) => out.push(char::from_u32(v).expect("strict yields scalars")),
            Err(e) => {
                // Each error sits where the previous item ended.
                assert_eq!(e.valid_up_to(), end, "{input:02X?}");
                out.push('\u{FFFD}');
            }
        }
        end = it.offset();
    }
    assert_eq!(end, input.len());
    out
}

fn check_strict(input: &[u8]) {
    assert_eq!(lossy(input), String::from_utf8_lossy(input), "{input:02X?}");
    if let Ok(text) = core::str::from_utf8(input) {
        let ours: Vec<u32> = code_points::<Strict>(input).map(|r| r.unwrap()).collect();
        let std: Vec<u32> = text.chars().map(u32::from).collect();
        assert_eq!(ours, std);
        // Valid strict text is valid legacy text with the same code points.
        let legacy: Vec<u32> = code_points::<Legacy>(input).map(|r| r.unwrap()).collect();
        assert_eq!(legacy, std);
    }
}

/// Legacy items tile the input: each `Ok` re-encodes to its bytes and each
/// error covers its `error_len` (or the rest).
fn check_legacy(input: &[u8]) {
    let mut it = code_points::<Legacy>(input);
    let mut pos = 0;
    while let Some(item) = it.next() {
        let next = it.offset();
        match item {
            Ok(v) => {
                let mut buf = [0; 6];
                let n = utf8_table::encode::<Legacy>(v, &mut buf).unwrap();
                assert_eq!(&buf[..n], &input[pos..next]);
            }
            Err(e) => {
                let e: LegacyError = e;
                assert_eq!(e.valid_up_to(), pos);
                assert_eq!(next - pos, e.error_len().unwrap_or(input.len() - pos));
            }
        }
        pos = next;
    }
    assert_eq!(pos, input.len());
}

fn count<M: Mode>(input: &[u8]) -> usize {
    code_points::<M>(input).count()
}

#[test]
fn conformance_corpora() {
    for case in codec_testdata::utf8_cases() {
        check_strict(&case.input);
        check_legacy(&case.input);
        if let Some(want) = &case.lossy {
            assert_eq!(&lossy(&case.input), want, "{}", case.id);
        }
    }
}

#[test]
fn every_scalar_in_one_text() {
    let all: String = (0..=0x10FFFF).filter_map(char::from_u32).collect();
    check_strict(all.as_bytes());
    assert_eq!(count::<Strict>(all.as_bytes()), 0x10FFFF + 1 - 0x800);
}

#[test]
fn lipsum_texts() {
    let texts: [&[u8]; 4] = [
        include_bytes!("../../../../benches/data/lipsum/Chinese-Lipsum.utf8.txt"),
        include_bytes!("../../../../benches/data/lipsum/Emoji-Lipsum.utf8.txt"),
        include_bytes!("../../../../benches/data/lipsum/Hindi-Lipsum.utf8.txt"),
        include_bytes!("../../../../benches/data/lipsum/Latin-Lipsum.utf8.txt"),
    ];
    for text in texts {
        assert!(core::str::from_utf8(text).is_ok());
        check_strict(text);
        check_legacy(text);
    }
}

#[test]
fn invalid_sequences_after_prefixes() {
    codec_testdata::for_each_invalid_after_prefixes(|s| {
        check_strict(s);
        check_legacy(s);
    });
}

#[test]
fn size_hint_brackets_the_count() {
    for case in codec_testdata::utf8_cases() {
        let it = code_points::<Legacy>(&case.input);
        let (lo, hi) = it.size_hint();
        let n = it.count();
        assert!(lo <= n && n <= hi.unwrap(), "{}", case.id);
    }
}

quickcheck! {
    fn random_bytes(input: Vec<u8>) -> bool {
        check_strict(&input);
        check_legacy(&input);
        true
    }

    fn random_text(text: String) -> bool {
        check_strict(text.as_bytes());
        check_legacy(text.as_bytes());
        true
    }
}
