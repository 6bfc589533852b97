//! CESU-8, MUTF-8 and WTF-8 (utf8-variants): every validator gives the same
//! exact error, which is the value-based oracle's (codec-testdata) on short
//! inputs and std's where the encoding means the same as UTF-8; streaming at
//! the chunk sizes the fuzzer chooses gives the one-call answer; the
//! conversions round-trip and agree with validation, and every kernel's
//! decode with the dispatched one; utf8-simd's BMP check (the one pass of
//! those decoders) agrees with std and a byte scan; text made of the input
//! read as characters, mostly supplementary (the runs of surrogate pairs
//! that random bytes seldom hold), round-trips through CESU-8 and MUTF-8,
//! and every kernel's pair conversions, both ways, give the dispatched
//! answer; nothing panics.
#![no_main]

use codec_testdata::variants as oracle;
use fuzz::{same, split_control};
use libfuzzer_sys::fuzz_target;
use std::borrow::Cow;
use utf8_simd::variant::{
    Nul, bmp_str, bmp_str_with, pairs_to_utf8, pairs_to_utf8_with, utf8_to_pairs,
    utf8_to_pairs_with,
};
use utf8_variants::{Variant, cesu8, mutf8, wtf8};

fuzz_target!(|data: &[u8]| {
    let (control, input) = split_control::<4>(data);
    for (v, rules) in [
        (Variant::Cesu8, oracle::CESU8),
        (Variant::Mutf8, oracle::MUTF8),
        (Variant::Wtf8, oracle::WTF8),
    ] {
        let want = v.validate(input);
        same("scalar", input, v.validate_scalar(input), want);
        same("is_valid", input, v.is_valid(input), want.is_ok());
        // Streaming in chunks of the sizes the control bytes choose.
        let mut s = v.validator();
        let mut rest = input;
        let mut i = 0;
        let mut got = Ok(());
        while !rest.is_empty() && got.is_ok() {
            let n = (usize::from(control[i % 4]) % 70 + 1).min(rest.len());
            got = s.update(&rest[..n]);
            rest = &rest[n..];
            i += 1;
        }
        if got.is_ok() {
            got = s.finish();
        }
        same("stream", input, got, want);
        if let Err(e) = want {
            same("valid prefix", input, v.is_valid(&input[..e.valid_up_to()]), true);
            if input.len() <= 48 {
                same(
                    "oracle",
                    input,
                    Err((e.valid_up_to(), e.error_len())),
                    oracle::exact(&rules, input),
                );
            }
        } else if input.len() <= 48 {
            same("oracle", input, true, oracle::is_valid(&rules, input));
        }
    }
    // Conversions.
    type Decode = for<'a> fn(&'a [u8]) -> Result<Cow<'a, str>, utf8_variants::Error>;
    type Lossy = for<'a> fn(&'a [u8]) -> Cow<'a, str>;
    let conversions: [(&str, Decode, Lossy); 2] = [
        ("cesu8", cesu8::decode, cesu8::decode_lossy),
        ("mutf8", mutf8::decode, mutf8::decode_lossy),
    ];
    for ((name, decode, lossy), v) in conversions.into_iter().zip([Variant::Cesu8, Variant::Mutf8]) {
        let want = decode(input);
        match &want {
            Ok(s) => same(name, input, &*lossy(input), &**s),
            Err(_) => same(name, input, lossy(input).contains('\u{FFFD}'), true),
        }
        // Borrowed exactly when the bytes are already UTF-8.
        if let Ok(s) = &want {
            let borrowed = matches!(s, Cow::Borrowed(_));
            same(name, input, borrowed, core::str::from_utf8(input).is_ok());
        }
        // Every kernel's decode (utf8-simd's BMP check, then the exact
        // path) gives the dispatched answer.
        for k in utf8_simd::kernels() {
            if let Some(got) = v.decode_with_kernel(k, input) {
                same(name, input, got, want.clone());
            }
        }
    }
    // utf8-simd's BMP check: a `&str` exactly when the bytes are UTF-8
    // without 4-byte forms (and without 00 if asked), else a prefix of such
    // text, with every kernel.
    for nul in [Nul::Allowed, Nul::Forbidden] {
        let offence = |b: &u8| *b >= 0xF0 || (*b == 0 && nul == Nul::Forbidden);
        let bmp = core::str::from_utf8(input).is_ok() && !input.iter().any(offence);
        let mut answers = vec![bmp_str(input, nul)];
        answers.extend(utf8_simd::kernels().iter().filter_map(|k| bmp_str_with(k, input, nul)));
        for got in answers {
            match got {
                Ok(s) => same("bmp_str", input, (bmp, s.as_bytes()), (true, input)),
                Err(pos) => {
                    same("bmp_str", input, bmp, false);
                    let prefix = &input[..pos];
                    let ok = core::str::from_utf8(prefix).is_ok() && !prefix.iter().any(offence);
                    same("bmp_str prefix", input, ok, true);
                }
            }
        }
    }
    if let Ok(s) = core::str::from_utf8(input) {
        same("cesu8 round trip", input, cesu8::decode(&cesu8::encode(s)).as_deref(), Ok(s));
        same("mutf8 round trip", input, mutf8::decode(&mutf8::encode(s)).as_deref(), Ok(s));
    }
    // The input as characters, three bytes each: supplementary mostly,
    // else BMP or NUL, so that runs of pairs of every length occur.
    let text: String = input
        .chunks(3)
        .map(|c| {
            let v = c.iter().rev().fold(0u32, |a, &b| a << 8 | u32::from(b));
            match v & 0x0F {
                0 => char::from_u32(v >> 4 & 0x7FF).unwrap_or('\0'),
                1 => char::from_u32(v >> 4 & 0xFFFF).unwrap_or('a'),
                _ => char::from_u32(0x1_0000 + (v >> 4) % 0x10_0000).unwrap_or('a'),
            }
        })
        .collect();
    let supplementary = text.chars().filter(|c| c.len_utf8() == 4).count();
    let nuls = text.chars().filter(|&c| c == '\0').count();
    let cesu = cesu8::encode(&text);
    let mutf = mutf8::encode(&text);
    same("cesu8 length", input, cesu.len(), text.len() + 2 * supplementary);
    same("mutf8 length", input, mutf.len(), text.len() + 2 * supplementary + nuls);
    same("cesu8 text round trip", input, cesu8::decode(&cesu).as_deref(), Ok(text.as_str()));
    same("mutf8 text round trip", input, mutf8::decode(&mutf).as_deref(), Ok(text.as_str()));
    // The kernels both ways, from the start of the text and of its
    // encoding: each kernel's answer and bytes are the dispatched ones.
    let mut want = vec![0u8; cesu.len()];
    let r = pairs_to_utf8(&cesu, &mut want);
    for k in utf8_simd::kernels() {
        let mut got = vec![0u8; cesu.len()];
        if let Some(g) = pairs_to_utf8_with(k, &cesu, &mut got) {
            same("pairs_to_utf8", input, (g, &got[..g.1]), (r, &want[..r.1]));
        }
    }
    same("pairs_to_utf8 prefix", input, &want[..r.1], &text.as_bytes()[..r.1]);
    let mut want = vec![0u8; cesu.len()];
    let r = utf8_to_pairs(text.as_bytes(), &mut want);
    for k in utf8_simd::kernels() {
        let mut got = vec![0u8; cesu.len()];
        if let Some(g) = utf8_to_pairs_with(k, text.as_bytes(), &mut got) {
            same("utf8_to_pairs", input, (g, &got[..g.1]), (r, &want[..r.1]));
        }
    }
    same("utf8_to_pairs prefix", input, &want[..r.1], &cesu[..r.1]);
    let units: Vec<u16> = input
        .chunks_exact(2)
        .map(|c| u16::from_le_bytes([c[0], c[1]]))
        .collect();
    let w = wtf8::from_utf16(&units);
    same("wtf8 from_utf16", input, wtf8::is_valid(w.as_bytes()), true);
    same("wtf8 round trip", input, w.to_utf16(), units);
    let _ = wtf8::to_utf8_lossy(input);
});
