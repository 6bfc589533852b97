//! Every chunking of a stream gives the one-shot result, for every
//! encoding, in every decode mode, errors (offset, line, column) included.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use common::{Rng, assert_chunkings_equal, decode_cut};
use encodings::{DecodeMode, EncodeMode, Encoder, Encoding};

/// Input that is mostly valid in `e`: a text with every kind of character
/// encoded with `e`, then mutated.
fn sample(e: Encoding, rng: &mut Rng) -> Vec<u8> {
    let text = "a\nb€ 😀 é\r\nЖ日本語 ½\u{FEFF}+-~x\0z\n";
    let mut bytes = e.encode_to_vec(text, EncodeMode::Replace).unwrap();
    for _ in 0..rng.below(3) {
        if bytes.is_empty() {
            break;
        }
        rng.mutate(&mut bytes);
    }
    bytes
}

#[test]
fn every_single_cut_equals_one_shot() {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    for e in Encoding::all() {
        for round in 0..6 {
            let input = if round == 5 {
                rng.bytes(40)
            } else {
                sample(e, &mut rng)
            };
            for mode in [DecodeMode::Strict, DecodeMode::Replace, DecodeMode::Skip] {
                let _ = assert_chunkings_equal(e, mode, &input, e.name());
            }
        }
    }
}

#[test]
fn every_byte_by_byte_and_random_chunking_equals_one_shot() {
    let mut rng = Rng(12345);
    for e in Encoding::all() {
        for _ in 0..20 {
            let input = sample(e, &mut rng);
            for mode in [DecodeMode::Strict, DecodeMode::Replace] {
                let whole = decode_cut(e, mode, &input, &[]);
                let every: Vec<usize> = (1..input.len()).collect();
                assert_eq!(
                    decode_cut(e, mode, &input, &every),
                    whole,
                    "{e:?} {mode:?} byte by byte {input:02X?}"
                );
                let mut cuts: Vec<usize> = (0..rng.below(6))
                    .map(|_| rng.below(input.len() + 1))
                    .collect();
                cuts.sort_unstable();
                assert_eq!(
                    decode_cut(e, mode, &input, &cuts),
                    whole,
                    "{e:?} {mode:?} {cuts:?} {input:02X?}"
                );
            }
        }
    }
}

#[test]
fn utf16_output_is_the_text_in_utf16() {
    let mut rng = Rng(777);
    for e in Encoding::all() {
        let input = sample(e, &mut rng);
        let text = e.decode_to_string(&input, DecodeMode::Replace).unwrap();
        let units = e.decode_to_utf16_vec(&input, DecodeMode::Replace).unwrap();
        assert_eq!(String::from_utf16(&units).unwrap(), text, "{e:?}");
    }
}

#[test]
fn encoding_in_pieces_equals_one_shot() {
    let text = "Grüße, мир! 日本語 € 😀 ½ +x- ~\n";
    for e in Encoding::all() {
        for mode in [
            EncodeMode::Strict,
            EncodeMode::Replace,
            EncodeMode::Ncr,
            EncodeMode::Skip,
            EncodeMode::Translit,
        ] {
            let whole = e.encode_to_vec(text, mode);
            for (cut, _) in text.char_indices() {
                let mut enc = Encoder::new(e, mode);
                let mut out = Vec::new();
                let r = enc
                    .encode_into_vec(&text[..cut], &mut out, false)
                    .and_then(|()| enc.encode_into_vec(&text[cut..], &mut out, true));
                match (&whole, r) {
                    (Ok(w), Ok(())) => assert_eq!(&out, w, "{e:?} {mode:?} cut {cut}"),
                    (Err(w), Err(p)) => assert_eq!(w, &p, "{e:?} {mode:?} cut {cut}"),
                    (w, p) => panic!("{e:?} {mode:?} cut {cut}: {w:?} vs {p:?}"),
                }
            }
        }
    }
}

/// WTF-8 with surrogates (a lead alone, a trail alone, a lead then a trail:
/// lone surrogates have no UTF-8 form, and a pair of them is not WTF-8),
/// which `sample` never makes: a lead surrogate at the end of a chunk waits
/// for the next one (it may be the start of that invalid pair), so every
/// single cut, and byte by byte, must give the one-shot result.
#[test]
fn wtf8_surrogates_at_every_cut_equal_one_shot() {
    let e = Encoding::for_label("WTF-8").expect("known");
    let pieces: [&[u8]; 5] = [
        b"\xED\xA0\x80",
        b"\xED\xB0\x80",
        b"a",
        "😀".as_bytes(),
        b"\xED\xAF\xBF",
    ];
    let mut rng = Rng(0x00F8_5A1E);
    for _ in 0..200 {
        let input: Vec<u8> = (0..1 + rng.below(6))
            .flat_map(|_| pieces[rng.below(pieces.len())].iter().copied())
            .collect();
        for mode in [DecodeMode::Strict, DecodeMode::Replace, DecodeMode::Skip] {
            let _ = assert_chunkings_equal(e, mode, &input, "WTF-8");
        }
    }
}
