//! The multi-byte legacy encodings against encoding_rs called directly, on
//! random and mutated bytes: the text, the U+FFFD of replacement, and the
//! offset of the first error.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use common::Rng;
use encodings::{DecodeMode, EncodeMode, Encoding};

const LEGACY: &[&str] = &[
    "Shift_JIS",
    "EUC-JP",
    "ISO-2022-JP",
    "GBK",
    "gb18030",
    "Big5",
    "EUC-KR",
];

/// The sample text of each script, encoded, then mutated.
fn inputs(w: &'static encoding_rs::Encoding, rng: &mut Rng) -> Vec<Vec<u8>> {
    let text = "日本語のテキスト、中文文本，한국어 텍스트 繁體中文 ASCII 123 ½ ~\n";
    let (good, _, _) = w.encode(text);
    let mut out = vec![good.to_vec()];
    for _ in 0..300 {
        let mut b = good.to_vec();
        for _ in 0..1 + rng.below(4) {
            rng.mutate(&mut b);
        }
        out.push(b);
    }
    for _ in 0..300 {
        let n = rng.below(64);
        out.push(rng.bytes(n));
    }
    out
}

/// encoding_rs's first error in `input`: its offset, by feeding it one byte
/// at a time (so the offset comes from where the decoder stops, not from
/// the arithmetic on `Malformed` that the crate uses).
fn first_error(w: &'static encoding_rs::Encoding, input: &[u8]) -> Option<(u64, String)> {
    let mut d = w.new_decoder_without_bom_handling();
    let mut text = String::with_capacity(4 * input.len() + 16);
    for i in 0..=input.len() {
        let last = i == input.len();
        let piece = if last { &[][..] } else { &input[i..=i] };
        let (r, read) = d.decode_to_string_without_replacement(piece, &mut text, last);
        if let encoding_rs::DecoderResult::Malformed(len, after) = r {
            // A byte that ends a malformed sequence without being part of
            // it (ASCII after a lead byte) is not read.
            let end = i + read;
            return Some(((end - usize::from(after) - usize::from(len)) as u64, text));
        }
    }
    None
}

#[test]
fn decoding_equals_encoding_rs() {
    let mut rng = Rng(0xDEC0DE);
    let mut errors = 0;
    for label in LEGACY {
        let e = Encoding::for_whatwg_label(label).unwrap();
        let w = e.whatwg().unwrap();
        for input in inputs(w, &mut rng) {
            let (replaced, _) = w.decode_without_bom_handling(&input);
            assert_eq!(
                e.decode_to_string(&input, DecodeMode::Replace).unwrap(),
                replaced,
                "{label} {input:02X?}"
            );
            let skipped: String = replaced.chars().filter(|&c| c != '\u{FFFD}').collect();
            if !input.windows(3).any(|b| b == "\u{FFFD}".as_bytes()) {
                assert_eq!(
                    e.decode_to_string(&input, DecodeMode::Skip).unwrap(),
                    skipped,
                    "{label}"
                );
            }
            let ours = e.decode_to_string(&input, DecodeMode::Strict);
            match (ours, first_error(w, &input)) {
                (Ok(text), None) => assert_eq!(text, replaced, "{label}"),
                (Err(err), Some((offset, text))) => {
                    errors += 1;
                    assert_eq!(err.offset(), offset, "{label} {input:02X?}");
                    let mut before = String::new();
                    let _ = e.decode_into_string(&input, &mut before, DecodeMode::Strict);
                    assert_eq!(before, text, "{label}");
                }
                (ours, theirs) => panic!("{label} {input:02X?}: {ours:?} vs {theirs:?}"),
            }
        }
    }
    assert!(errors > 1000, "{errors} errors compared");
}

#[test]
fn encoding_equals_encoding_rs() {
    // encoding_rs's `encode` writes an NCR for what it cannot hold.
    let mut rng = Rng(99);
    let pool: Vec<char> = "aZ09 \n~\\¥€日本語テスト中文한국어繁體ÄЖΩ😀\u{FFFD}\u{E000}"
        .chars()
        .collect();
    for label in LEGACY {
        let e = Encoding::for_whatwg_label(label).unwrap();
        let w = e.whatwg().unwrap();
        for _ in 0..500 {
            let text: String = (0..rng.below(30))
                .map(|_| pool[rng.below(pool.len())])
                .collect();
            let (theirs, _, unmappable) = w.encode(&text);
            assert_eq!(
                e.encode_to_vec(&text, EncodeMode::Ncr).unwrap(),
                theirs.as_ref(),
                "{label} {text:?}"
            );
            assert_eq!(
                e.encode_to_vec(&text, EncodeMode::Strict).is_err(),
                unmappable,
                "{label} {text:?}"
            );
        }
    }
}
