//! Long runs of ASCII between other characters: the kernels copy (or widen
//! to UTF-16) whole blocks of ASCII before their table paths, so each run
//! length around the block sizes (16 to 256 bytes) is tried, at every
//! engine and through the `Decoder` and `Encoder`, against references
//! written out here (ISO-8859-1: each byte its code point) or the scalar
//! engine; errors (an unmappable character, an undefined byte) at their
//! offset, line and column, with exactly the output before them.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use common::Rng;
use encodings::{DecodeMode, Decoder, EncodeMode, Encoder, Encoding, Engine};

/// Run lengths around the copiers' steps (64, 128 and 256 bytes) and the
/// kernels' blocks.
const RUNS: [usize; 16] = [
    0, 1, 15, 31, 63, 64, 65, 127, 128, 129, 255, 256, 257, 511, 1000, 5000,
];

/// Bytes: runs of ASCII (a newline now and then, NUL too) each followed by
/// a byte from `high` (the page's defined bytes from 0x80).
fn sample(rng: &mut Rng, high: &[u8]) -> Vec<u8> {
    let mut bytes = Vec::new();
    for _ in 0..1 + rng.below(6) {
        for _ in 0..RUNS[rng.below(RUNS.len())] {
            bytes.push(match rng.below(90) {
                0 => b'\n',
                1 => 0,
                _ => b' ' + rng.below(95) as u8,
            });
        }
        if !high.is_empty() && rng.below(4) > 0 {
            bytes.push(high[rng.below(high.len())]);
        }
    }
    bytes
}

/// The line and column (from 1) after `text`.
fn position(text: &str) -> (u64, u64) {
    let line = text.matches('\n').count() as u64 + 1;
    let column = text.rsplit('\n').next().unwrap_or("").chars().count() as u64 + 1;
    (line, column)
}

/// What `e` decodes `bytes` to, through a reference: ISO-8859-1 byte by
/// byte, ASCII as ASCII, a table page through the scalar engine.
fn reference(e: Encoding, bytes: &[u8]) -> Result<String, usize> {
    match e.name() {
        "ISO-8859-1" => Ok(bytes.iter().map(|&b| char::from(b)).collect()),
        "ANSI_X3.4-1968" => match bytes.iter().position(|b| !b.is_ascii()) {
            Some(i) => Err(i),
            None => Ok(bytes.iter().map(|&b| char::from(b)).collect()),
        },
        _ => Engine::scalar().decode_to_string(e, bytes).unwrap(),
    }
}

#[test]
fn ascii_runs_decode_and_encode_exactly() {
    let mut rng = Rng(0xA5C11);
    let labels = [
        "ISO-8859-1",
        "ASCII",
        "windows-1252",
        "KOI8-R",
        "ISO-8859-7",
        "IBM037",
    ];
    for label in labels {
        let e = Encoding::for_label(label).unwrap_or_else(|| panic!("{label}"));
        let high: Vec<u8> = (0x80..=0xFFu8)
            .filter(|&b| reference(e, &[b]).is_ok())
            .collect();
        for _ in 0..120 {
            let mut bytes = sample(&mut rng, &high);
            // Now and then an undefined byte (where the page has one).
            let undefined = (0x80..=0xFFu8).find(|&b| reference(e, &[b]).is_err());
            if let Some(u) = undefined.filter(|_| rng.below(3) == 0 && !bytes.is_empty()) {
                let at = rng.below(bytes.len());
                bytes[at] = u;
            }
            let want = reference(e, &bytes);
            // Decoding: the strict `Decoder` into a `String` holding text
            // already, and into UTF-16; every engine.
            let mut text = String::from("«");
            let got =
                Decoder::new(e, DecodeMode::Strict).decode_into_string(&bytes, &mut text, true);
            let mut units = vec![0xAB_u16];
            let got16 =
                Decoder::new(e, DecodeMode::Strict).decode_into_utf16_vec(&bytes, &mut units, true);
            match &want {
                Ok(t) => {
                    assert!(got.is_ok() && got16.is_ok(), "{label}");
                    assert_eq!(text, format!("«{t}"), "{label}");
                    let t16: Vec<u16> = t.encode_utf16().collect();
                    assert_eq!(units[1..], t16[..], "{label}");
                }
                Err(i) => {
                    let before = reference(e, &bytes[..*i]).unwrap();
                    for err in [got.unwrap_err(), got16.unwrap_err()] {
                        assert_eq!(err.offset(), *i as u64, "{label}");
                        assert_eq!((err.line(), err.column()), position(&before), "{label}");
                    }
                    assert_eq!(text, format!("«{before}"), "{label}");
                    let b16: Vec<u16> = before.encode_utf16().collect();
                    assert_eq!(units[1..], b16[..], "{label}");
                }
            }
            for engine in Engine::all() {
                if let Some(got) = engine.decode_to_string(e, &bytes) {
                    assert_eq!(got, want, "{} {label}", engine.name());
                }
                if let Some(got) = engine.decode_to_utf16_vec(e, &bytes) {
                    let want16 = want.as_ref().map(|t| t.encode_utf16().collect::<Vec<_>>());
                    assert_eq!(got, want16.map_err(|&i| i), "{} {label}", engine.name());
                }
            }
            // Encoding the text back (the bytes it decodes from, or the
            // scalar engine's where two bytes share a character), then
            // with a character no page here holds at a random place.
            let Ok(text) = want else { continue };
            let back = match e.name() {
                "ISO-8859-1" | "ANSI_X3.4-1968" => bytes.clone(),
                _ => Engine::scalar().encode_to_vec(e, &text).unwrap().unwrap(),
            };
            let mut out = vec![0xAB];
            Encoder::new(e, EncodeMode::Strict)
                .encode_into_vec(&text, &mut out, true)
                .unwrap();
            assert_eq!(out[1..], back[..], "{label}");
            for engine in Engine::all() {
                if let Some(got) = engine.encode_to_vec(e, &text) {
                    assert_eq!(got, Ok(back.clone()), "{} {label}", engine.name());
                }
            }
            let mut at = rng.below(text.len() + 1);
            while !text.is_char_boundary(at) {
                at -= 1;
            }
            let bad = format!("{}\u{4E00}{}", &text[..at], &text[at..]);
            let mut out = vec![0xAB];
            let err = Encoder::new(e, EncodeMode::Strict)
                .encode_into_vec(&bad, &mut out, true)
                .unwrap_err();
            assert_eq!(err.offset(), at as u64, "{label}");
            assert_eq!((err.line(), err.column()), position(&text[..at]), "{label}");
            // One byte a character.
            let n = text[..at].chars().count();
            assert_eq!(out[1..], back[..n], "{label}: nothing after the error");
            for engine in Engine::all() {
                if let Some(got) = engine.encode_to_vec(e, &bad) {
                    assert_eq!(got, Err(at), "{} {label}", engine.name());
                }
            }
        }
    }
}

/// Long runs of ASCII with many newlines (every byte one, or every third)
/// before an unmappable character: the strict encoder counts the lines of
/// the run while it copies it, in byte counters summed every 255 steps.
#[test]
fn lines_of_long_ascii_runs_count_exactly() {
    for label in ["windows-1252", "ISO-8859-1", "ASCII", "KOI8-R"] {
        let e = Encoding::for_label(label).unwrap_or_else(|| panic!("{label}"));
        for len in [255, 256, 65_279, 65_280, 65_281, 70_000, 140_000] {
            for every in [1, 3] {
                let text: String = (0..len)
                    .map(|i| if i % every == 0 { '\n' } else { 'a' })
                    .collect();
                let bad = format!("{text}\u{4E00}");
                let mut out = Vec::new();
                let err = Encoder::new(e, EncodeMode::Strict)
                    .encode_into_vec(&bad, &mut out, true)
                    .unwrap_err();
                assert_eq!(err.offset(), len as u64, "{label} {len}");
                assert_eq!(
                    (err.line(), err.column()),
                    position(&text),
                    "{label} {len} every {every}"
                );
                assert_eq!(out, text.as_bytes(), "{label} {len}");
            }
        }
    }
}
