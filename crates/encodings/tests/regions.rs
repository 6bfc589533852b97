//! Cutting an input where `cut_near` allows and decoding the regions
//! afresh gives what one decoder gives: the text, and the first error's
//! offset.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use common::{Rng, assert_regions_equal};
use encodings::{DecodeMode, EncodeMode, Encoding};

#[test]
fn regions_decode_like_the_whole() {
    let mut rng = Rng(4242);
    let text = "a€😀 é\nЖ日本\u{FEFF}x";
    let mut cuttable = 0;
    for e in Encoding::all() {
        for round in 0..40 {
            let mut input = e
                .encode_to_vec(&text.repeat(3), EncodeMode::Replace)
                .unwrap();
            if round % 2 == 1 && !input.is_empty() {
                let i = rng.below(input.len());
                input[i] = rng.next() as u8;
            }
            if e.name().starts_with("UTF-16") && round % 4 == 2 {
                // A surrogate pair around the cut, and a lone lead before it.
                input.extend_from_slice(&[0x3D, 0xD8, 0x00, 0xDE, 0x3D, 0xD8, 0x61, 0x00]);
            }
            let at = rng.below(input.len() + 1);
            let Some(cut) = e.cut_near(&input, at) else {
                continue;
            };
            cuttable += 1;
            assert!(cut >= at && cut < input.len(), "{e:?}");
            for mode in [DecodeMode::Replace, DecodeMode::Strict] {
                let whole = e.decode_to_string(&input, mode);
                assert_regions_equal(e, mode, &input, cut, &whole, e.name());
            }
        }
    }
    assert!(cuttable > 500, "{cuttable}");
}

/// `cut_near_in` over a window of a few bytes (starting at a multiple of 4,
/// as a reader of a file takes it) answers what `cut_near` answers over the
/// whole input, for every encoding and place.
#[test]
fn a_window_cuts_where_the_whole_input_does() {
    let mut rng = Rng(77);
    let text = "a€😀 é\nЖ日本\u{FEFF}x";
    for e in Encoding::all() {
        for round in 0..30 {
            let mut input = e
                .encode_to_vec(&text.repeat(4), EncodeMode::Replace)
                .unwrap();
            if round % 2 == 1 && !input.is_empty() {
                let i = rng.below(input.len());
                input[i] = rng.next() as u8;
            }
            if input.len() < 20 {
                continue;
            }
            let at = 4 + rng.below(input.len() - 4);
            let from = (at - 4) & !3;
            let window = &input[from..(at + 12).min(input.len())];
            let whole = e.cut_near(&input, at);
            let windowed = e
                .cut_near_in(&input[..4], window, at - from)
                .map(|c| c + from);
            // A cut the window cannot see past its end is left out.
            if windowed.is_some() || whole.is_some_and(|c| c < from + window.len()) {
                assert_eq!(windowed, whole, "{} at {at}", e.name());
            }
        }
    }
}

/// The multi-byte legacy encodings that can be cut, on bytes drawn from
/// the ones that start, continue and break their sequences (`81 30 81 20`
/// is gb18030's broken four-byte form, whose bytes after the lead are read
/// again): decoding up to every cut and resuming there gives the one-shot
/// text and first error.
#[test]
fn legacy_cuts_hold_on_broken_sequences() {
    let alphabet = [
        0x81, 0x82, 0xA1, 0xA4, 0xE0, 0xFE, 0x30, 0x39, 0x40, 0x7E, 0x7F, 0x80, 0x8E, 0x8F, 0xFF,
        0x20, 0x0A, 0x2F, 0x3F, b'a',
    ];
    let mut rng = Rng(2030);
    let mut cuts = 0;
    for e in Encoding::all().filter(|e| e.is_cuttable() && !e.is_unicode() && !e.is_single_byte()) {
        for _ in 0..3000 {
            let len = 1 + rng.below(12);
            let input: Vec<u8> = (0..len)
                .map(|_| alphabet[rng.below(alphabet.len())])
                .collect();
            for mode in [DecodeMode::Replace, DecodeMode::Strict] {
                let whole = e.decode_to_string(&input, mode);
                for at in 0..input.len() {
                    let Some(cut) = e.cut_near(&input, at) else {
                        continue;
                    };
                    cuts += 1;
                    assert_regions_equal(e, mode, &input, cut, &whole, e.name());
                }
            }
        }
    }
    assert!(cuts > 10_000, "{cuts}");
}
