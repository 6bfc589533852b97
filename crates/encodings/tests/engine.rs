//! Every set of the single-byte engine's kernels (`Engine::all`: those
//! this CPU runs, the scalar reference among them) against the one-byte
//! tables of the public API, on every single-byte page: decoding to UTF-8
//! and UTF-16 stops at the same undefined byte with the same text, and
//! encoding stops at the same character with the same bytes.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use common::Rng;
use encodings::{DecodeMode, EncodeMode, Encoding, Engine};

#[test]
fn every_engine_decodes_and_encodes_as_the_tables() {
    let mut rng = Rng(1251);
    let engines: Vec<Engine> = Engine::all().collect();
    assert!(engines.iter().any(|e| e.name() == "scalar"));
    let mut pages = 0;
    for e in Encoding::all().filter(|e| e.is_single_byte()) {
        let Some(_) = Engine::scalar().decode_to_string(e, b"") else {
            continue; // ASCII and ISO-8859-1 are not table pages
        };
        pages += 1;
        // The page's defined bytes, for inputs that decode through.
        let defined: Vec<u8> = (0..=255u8)
            .filter(|&b| e.decode_to_string(&[b], DecodeMode::Strict).is_ok())
            .collect();
        for round in 0..24 {
            let len = [0, 1, 15, 16, 17, 31, 33, 64, 100, 1000, 5000, 40_000][round % 12];
            let mut bytes: Vec<u8> = (0..len)
                .map(|_| defined[rng.below(defined.len())])
                .collect();
            if round >= 12 && len > 0 {
                // Any byte somewhere: maybe an undefined one.
                let i = rng.below(len);
                bytes[i] = rng.next() as u8;
            }
            let want = e.decode_to_string(&bytes, DecodeMode::Strict);
            let want = want.map_err(|err| err.offset() as usize);
            for engine in &engines {
                let name = engine.name();
                let got = engine.decode_to_string(e, &bytes).unwrap();
                assert_eq!(got, want, "{name} {}", e.name());
                let units = engine.decode_to_utf16_vec(e, &bytes).unwrap();
                let want16 = want
                    .as_ref()
                    .map(|t| t.encode_utf16().collect::<Vec<u16>>())
                    .map_err(|&i| i);
                assert_eq!(units, want16, "{name} {} UTF-16", e.name());
                // The appending forms: after what `dst` held, the same text
                // (on an error, that of the bytes before it).
                let mut text = String::from("«");
                let r = engine.decode_into_string(e, &bytes, &mut text).unwrap();
                let prefix = |i: usize| e.decode_to_string(&bytes[..i], DecodeMode::Strict);
                let body = want.clone().or_else(|i| prefix(i).map_err(|_| i)).unwrap();
                assert_eq!(
                    (r, text),
                    (
                        want.as_ref().map(|_| ()).map_err(|&i| i),
                        format!("«{body}")
                    )
                );
                let mut units = vec![0xAB_u16];
                let r = engine.decode_into_utf16_vec(e, &bytes, &mut units).unwrap();
                let mut want_units = vec![0xAB_u16];
                want_units.extend(body.encode_utf16());
                assert_eq!(
                    (r, units),
                    (want.as_ref().map(|_| ()).map_err(|&i| i), want_units)
                );
                if let Ok(text) = &want {
                    // Text the page holds, then one character it may not.
                    let mut text = text.clone();
                    if round >= 12 {
                        text.push(['€', 'Ж', '日', 'é'][round % 4]);
                    }
                    let want = e
                        .encode_to_vec(&text, EncodeMode::Strict)
                        .map_err(|err| err.offset() as usize);
                    let got = engine.encode_to_vec(e, &text).unwrap();
                    assert_eq!(got, want, "{name} {} encode", e.name());
                    let mut out = vec![b'>'];
                    let r = engine.encode_into_vec(e, &text, &mut out).unwrap();
                    let end = *want.as_ref().err().unwrap_or(&text.len());
                    let mut want_out = vec![b'>'];
                    want_out.extend(e.encode_to_vec(&text[..end], EncodeMode::Strict).unwrap());
                    assert_eq!((r, out), (want.map(|_| ()), want_out), "{name} encode_into");
                }
            }
        }
    }
    assert!(pages > 60, "{pages}");
}
