//! The conversions against independent statements of them: the JVM
//! specification's formula for supplementary characters, the WTF-8
//! specification's algorithms (decode potentially ill-formed UTF-16,
//! generalized UTF-8, lossy conversion, concatenation), the value-based
//! oracle for lossy decoding, `String::from_utf8_lossy`, and the `cesu8`
//! crate where it is right.
// Test helpers unwrap and panic: that is how a test fails.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use codec_testdata::variants::{self as oracle, Rules};
use common::{interesting, surrogate};
use rand::{Rng, SeedableRng, rngs::StdRng};
use std::borrow::Cow;
use utf8_variants::wtf8::{self, Wtf8Buf};
use utf8_variants::{Variant, cesu8, mutf8};

/// The JVM specification's six bytes for a supplementary character
/// (§4.4.7): `u = 0xED`, `v = 0xA0 + ((c >> 16) - 1)`,
/// `w = 0x80 + ((c >> 10) & 0x3f)`, `x = 0xED`, `y = 0xB0 + ((c >> 6) &
/// 0x0f)`, `z = 0x80 + (c & 0x3f)`.
fn jvm_six_bytes(c: u32) -> [u8; 6] {
    [
        0xED,
        (0xA0 + ((c >> 16) - 1)) as u8,
        (0x80 + ((c >> 10) & 0x3F)) as u8,
        0xED,
        (0xB0 + ((c >> 6) & 0x0F)) as u8,
        (0x80 + (c & 0x3F)) as u8,
    ]
}

/// CESU-8 or MUTF-8 of `s`, character by character, from the
/// specifications.
fn spec_encode(s: &str, mutf8: bool) -> Vec<u8> {
    let mut out = Vec::new();
    for c in s.chars() {
        let mut buf = [0; 4];
        match c {
            '\0' if mutf8 => out.extend_from_slice(&[0xC0, 0x80]),
            c if c > '\u{FFFF}' => out.extend_from_slice(&jvm_six_bytes(c.into())),
            c => out.extend_from_slice(c.encode_utf8(&mut buf).as_bytes()),
        }
    }
    out
}

#[test]
fn every_supplementary_character_is_the_jvm_formula() {
    // Under emulation (the aarch64 lane), one character in 7.
    let step = if codec_testdata::emulated() { 7 } else { 1 };
    for c in ('\u{10000}'..='\u{10FFFF}').step_by(step) {
        let mut buf = [0; 4];
        let s = c.encode_utf8(&mut buf);
        let six = jvm_six_bytes(c.into());
        assert_eq!(&*cesu8::encode(s), six, "{c:?}");
        assert_eq!(&*mutf8::encode(s), six, "{c:?}");
        assert_eq!(cesu8::decode(&six).as_deref(), Ok(&*s), "{c:?}");
        assert_eq!(mutf8::decode(&six).as_deref(), Ok(&*s), "{c:?}");
        // The same pair through UTF-16 and WTF-8.
        let mut units = [0u16; 2];
        c.encode_utf16(&mut units);
        assert_eq!(
            [&surrogate(units[0].into())[..], &surrogate(units[1].into())].concat(),
            six
        );
        assert_eq!(wtf8::from_utf16(&units).as_bytes(), s.as_bytes());
    }
}

/// The lossy decoding the oracle implies: each invalid piece (or an
/// unfinished end) becomes U+FFFD, and the valid parts decode by value.
fn oracle_lossy(rules: &Rules, input: &[u8]) -> String {
    let mut out = String::new();
    let mut rest = input;
    loop {
        let (v, len) = match oracle::exact(rules, rest) {
            Ok(()) => (rest.len(), Some(0)),
            Err(e) => e,
        };
        let cps = oracle::code_points(rules, &rest[..v]).unwrap();
        let mut units: Vec<u16> = Vec::new();
        for c in cps {
            let mut buf = [0u16; 2];
            match char::from_u32(c) {
                Some(ch) => units.extend_from_slice(ch.encode_utf16(&mut buf)),
                None => units.push(c as u16),
            }
        }
        // Valid parts have their surrogates paired (CESU-8, MUTF-8) or, for
        // WTF-8, lone: those become U+FFFD.
        out.extend(char::decode_utf16(units).map(|r| r.unwrap_or('\u{FFFD}')));
        match len {
            Some(0) => return out,
            Some(n) => {
                out.push('\u{FFFD}');
                rest = &rest[v + n..];
            }
            None => {
                out.push('\u{FFFD}');
                return out;
            }
        }
    }
}

#[test]
fn decoding_random_inputs_matches_the_oracle() {
    let mut rng = StdRng::seed_from_u64(0xdec0de);
    let rounds = if codec_testdata::emulated() {
        400
    } else {
        4000
    };
    for round in 0..rounds {
        let input = interesting(&mut rng, 1 + round % 20);
        type Decode = for<'a> fn(&'a [u8]) -> Result<Cow<'a, str>, utf8_variants::Error>;
        type Lossy = for<'a> fn(&'a [u8]) -> Cow<'a, str>;
        let cases: [(Variant, Rules, Decode, Lossy); 2] = [
            (
                Variant::Cesu8,
                oracle::CESU8,
                cesu8::decode,
                cesu8::decode_lossy,
            ),
            (
                Variant::Mutf8,
                oracle::MUTF8,
                mutf8::decode,
                mutf8::decode_lossy,
            ),
        ];
        for (v, rules, decode, lossy) in cases {
            let want = oracle_lossy(&rules, &input);
            assert_eq!(lossy(&input), want, "{v} lossy {input:02X?}");
            match decode(&input) {
                Ok(s) => {
                    assert_eq!(s, want, "{v} {input:02X?}");
                    // Borrowed exactly when the bytes are already UTF-8.
                    assert_eq!(
                        matches!(s, Cow::Borrowed(_)),
                        core::str::from_utf8(&input).is_ok(),
                        "{v} {input:02X?}"
                    );
                    // And back.
                    assert_eq!(&*spec_encode(&s, v == Variant::Mutf8), &*input);
                }
                Err(e) => assert_eq!(Err(e), v.validate(&input)),
            }
        }
        let want = oracle_lossy(&oracle::WTF8, &input);
        assert_eq!(
            wtf8::to_utf8_lossy(&input),
            want,
            "WTF-8 lossy {input:02X?}"
        );
    }
}

/// The `cesu8` crate agrees with us wherever it is right. Where it is not,
/// it is because it first tries `core::str::from_utf8` and borrows on
/// success: it then accepts 4-byte forms, and raw `00` in Java mode, which
/// CESU-8 and Modified UTF-8 do not allow. Its errors have no position.
#[test]
fn the_cesu8_crate_agrees_where_it_is_right() {
    let mut rng = StdRng::seed_from_u64(0xce58);
    let mut disagreements = 0;
    for round in 0..6000 {
        let input = interesting(&mut rng, 1 + round % 16);
        let utf8 = core::str::from_utf8(&input).is_ok();
        let four = input.iter().any(|&b| b >= 0xF0);
        for (java, ours, theirs) in [
            (
                false,
                cesu8::decode(&input),
                ::cesu8::from_cesu8(&input).map_err(drop),
            ),
            (
                true,
                mutf8::decode(&input),
                ::cesu8::from_java_cesu8(&input).map_err(drop),
            ),
        ] {
            let wrong_there = utf8 && (four || (java && input.contains(&0)));
            if wrong_there {
                // They borrow what is not CESU-8; we report where and why.
                assert!(theirs.is_ok() && ours.is_err(), "{input:02X?}");
                disagreements += 1;
                continue;
            }
            assert_eq!(ours.map_err(drop), theirs, "java {java} {input:02X?}");
        }
    }
    assert!(
        disagreements > 0,
        "the generator never met the known difference"
    );
}

quickcheck::quickcheck! {
    fn encode_matches_the_specifications_and_round_trips(s: String) -> bool {
        type Encode = for<'a> fn(&'a str) -> Cow<'a, [u8]>;
        type Decode = for<'a> fn(&'a [u8]) -> Result<Cow<'a, str>, utf8_variants::Error>;
        let cases: [(bool, Encode, Decode); 2] = [
            (false, cesu8::encode, cesu8::decode),
            (true, mutf8::encode, mutf8::decode),
        ];
        for (mutf, encode, decode) in cases {
            let bytes = encode(&s);
            assert_eq!(&*bytes, &*spec_encode(&s, mutf));
            let same = !s.chars().any(|c| c > '\u{FFFF}' || (mutf && c == '\0'));
            assert_eq!(matches!(bytes, Cow::Borrowed(_)), same);
            assert_eq!(decode(&bytes).as_deref(), Ok(&*s));
        }
        // The cesu8 crate's encoders are right.
        assert_eq!(&*cesu8::encode(&s), &*::cesu8::to_cesu8(&s));
        assert_eq!(&*mutf8::encode(&s), &*::cesu8::to_java_cesu8(&s));
        true
    }

    /// WTF-8 from potentially ill-formed UTF-16 is the specification's
    /// algorithm (decode to code points, encode as generalized UTF-8) and
    /// goes back exactly.
    fn wtf8_utf16_round_trip(units: Vec<u16>) -> bool {
        let w = wtf8::from_utf16(&units);
        assert_eq!(w.as_bytes(), &*spec_wtf8_from_utf16(&units));
        assert!(wtf8::is_valid(w.as_bytes()));
        assert_eq!(w.to_utf16(), units);
        assert_eq!(wtf8::to_utf16_vec(w.as_bytes()), Ok(units.clone()));
        assert_eq!(wtf8::encode_utf16(w.as_bytes()).unwrap().collect::<Vec<_>>(), units);
        // Well-formed UTF-16 gives UTF-8.
        if let Ok(s) = String::from_utf16(&units) {
            assert_eq!(w.as_bytes(), s.as_bytes());
            assert_eq!(w.clone().into_string(), Ok(s.clone()));
            assert_eq!(w.as_str(), Some(&*s));
        } else {
            assert!(w.as_str().is_none());
        }
        // Lossy is the specification's: each surrogate byte sequence
        // becomes EF BF BD, and that is std's lossy UTF-16 decoding.
        let lossy = String::from_utf16_lossy(&units);
        assert_eq!(w.to_string_lossy(), lossy);
        assert_eq!(w.to_string(), lossy);
        true
    }

    /// Concatenation is "to UTF-16, concatenate, back to WTF-8" (the
    /// specification's note), which joins a lead and a trail at the seam.
    fn wtf8_concatenation_is_utf16_concatenation(a: Vec<u16>, b: Vec<u16>) -> bool {
        let mut left = Wtf8Buf::from_utf16(&a);
        let right = Wtf8Buf::from_utf16(&b);
        let mut joined = a.clone();
        joined.extend_from_slice(&b);
        let want = Wtf8Buf::from_utf16(&joined);
        let mut by_bytes = left.clone();
        left.push(&right);
        assert_eq!(left, want);
        by_bytes.push_wtf8(right.as_bytes()).unwrap();
        assert_eq!(by_bytes, want);
        true
    }

    /// On bytes without `ED A0..=BF`, WTF-8's lossy conversion is std's.
    fn wtf8_lossy_is_std_without_surrogates(input: Vec<u8>) -> bool {
        if !input.windows(2).any(|w| w[0] == 0xED && w[1] >= 0xA0) {
            assert_eq!(wtf8::to_utf8_lossy(&input), String::from_utf8_lossy(&input));
        }
        true
    }
}

/// The WTF-8 specification: decode potentially ill-formed UTF-16 to code
/// points (a lead and the trail after it become one supplementary code
/// point), then encode each as generalized UTF-8.
fn spec_wtf8_from_utf16(units: &[u16]) -> Vec<u8> {
    let mut cps = Vec::new();
    let mut i = 0;
    while i < units.len() {
        let u = u32::from(units[i]);
        i += 1;
        if (0xD800..=0xDBFF).contains(&u) && i < units.len() {
            let next = u32::from(units[i]);
            i += 1;
            if (0xDC00..=0xDFFF).contains(&next) {
                cps.push(0x10000 + ((u - 0xD800) << 10) + (next - 0xDC00));
            } else {
                cps.push(u);
                cps.push(next);
            }
        } else {
            cps.push(u);
        }
    }
    // "Encode from code points to well-formed WTF-8": a lead code point
    // followed by a trail code point becomes their supplementary code point
    // (a lead that decoding consumed as the `next` of another lead can be
    // followed by a trail).
    let mut joined = Vec::new();
    let mut k = 0;
    while k < cps.len() {
        let p = cps[k];
        match cps.get(k + 1) {
            Some(&t) if (0xD800..=0xDBFF).contains(&p) && (0xDC00..=0xDFFF).contains(&t) => {
                joined.push(0x10000 + ((p - 0xD800) << 10) + (t - 0xDC00));
                k += 2;
            }
            _ => {
                joined.push(p);
                k += 1;
            }
        }
    }
    let mut out = Vec::new();
    for p in joined {
        match p {
            0..=0x7F => out.push(p as u8),
            0x80..=0x7FF => out.extend([0xC0 | (p >> 6) as u8, 0x80 | (p & 0x3F) as u8]),
            0x800..=0xFFFF => out.extend(surrogate(p)),
            _ => out.extend([
                0xF0 | (p >> 18) as u8,
                0x80 | ((p >> 12) & 0x3F) as u8,
                0x80 | ((p >> 6) & 0x3F) as u8,
                0x80 | (p & 0x3F) as u8,
            ]),
        }
    }
    out
}

#[test]
fn wtf8buf_is_always_wtf8() {
    let mut w = Wtf8Buf::new();
    assert!(w.is_empty());
    // An invalid append leaves it as it was.
    assert!(w.push_wtf8(b"ok \xED\xA0\x80\xED\xB0\x80").is_err());
    assert!(w.is_empty());
    w.push_str("a");
    w.push_wtf8(b"\xED\xA0\xBD").unwrap();
    assert_eq!(format!("{w:?}"), "\"a\\u{D83D}\"");
    w.push_wtf8(b"\xED\xB8\x80b").unwrap();
    assert_eq!(format!("{w:?}"), "\"a😀b\"");
    assert_eq!(w.len(), 6);
    let bytes = w.clone().into_bytes();
    assert_eq!(Wtf8Buf::from_bytes(bytes).unwrap(), w);
    let err = Wtf8Buf::from_bytes(b"x\xF0\x9F".to_vec()).unwrap_err();
    assert_eq!(err.error().valid_up_to(), 1);
    assert_eq!(err.into_bytes(), b"x\xF0\x9F");
    assert_eq!(Wtf8Buf::from("é").as_bytes(), "é".as_bytes());
    assert_eq!(
        Wtf8Buf::from(String::from("z"))
            .code_points()
            .collect::<Vec<_>>(),
        [0x7A]
    );
}

#[test]
fn conversions_borrow_exactly_when_nothing_changes() {
    let mut rng = StdRng::seed_from_u64(7);
    for _ in 0..2000 {
        let len = rng.random_range(0..40);
        let s: String = (0..len)
            .map(|_| char::from_u32(rng.random_range(0..0x11000)).unwrap_or('\u{10000}'))
            .collect();
        let b = s.as_bytes();
        assert_eq!(
            matches!(cesu8::decode(b), Ok(Cow::Borrowed(_))),
            !s.chars().any(|c| c > '\u{FFFF}')
        );
        assert_eq!(
            matches!(mutf8::decode(b), Ok(Cow::Borrowed(_))),
            !s.chars().any(|c| c > '\u{FFFF}' || c == '\0')
        );
        assert!(matches!(wtf8::to_utf8_lossy(b), Cow::Borrowed(_)));
    }
}

/// Valid CESU-8 or MUTF-8 `input` decoded by value, from the oracle's code
/// points (surrogate pairs joined through UTF-16).
fn oracle_decode(rules: &Rules, input: &[u8]) -> String {
    let units: Vec<u16> = oracle::code_points(rules, input)
        .unwrap()
        .into_iter()
        .flat_map(|c| match char::from_u32(c) {
            Some(ch) => ch.encode_utf16(&mut [0; 2]).to_vec(),
            None => vec![c as u16],
        })
        .collect();
    char::decode_utf16(units).map(Result::unwrap).collect()
}

/// A decoder under test.
type Decoder = Box<dyn for<'a> Fn(&'a [u8]) -> Result<Cow<'a, str>, utf8_variants::Error>>;

/// `f` as a [`Decoder`] (the bound gives the closure its signature).
fn decoder(
    f: impl for<'a> Fn(&'a [u8]) -> Result<Cow<'a, str>, utf8_variants::Error> + 'static,
) -> Decoder {
    Box::new(f)
}

/// The decoders of `v`: dispatched, and with every kernel this CPU runs.
fn decoders(v: Variant) -> Vec<(&'static str, Decoder)> {
    let dispatched = if v == Variant::Mutf8 {
        decoder(mutf8::decode)
    } else {
        decoder(cesu8::decode)
    };
    let mut out = vec![("dispatched", dispatched)];
    for k in utf8_simd::kernels() {
        if v.decode_with_kernel(k, b"").is_some() {
            out.push((
                k.name(),
                decoder(move |b| v.decode_with_kernel(k, b).unwrap()),
            ));
        }
    }
    out
}

/// Checks every decoder of `v` on `input`: the scalar DFA's error, or the
/// oracle's text, borrowed exactly when the bytes are already UTF-8.
fn check_decode(v: Variant, rules: &Rules, decoders: &[(&str, Decoder)], input: &[u8]) {
    let want = v.validate_scalar(input);
    let text = want.is_ok().then(|| oracle_decode(rules, input));
    for (name, decode) in decoders {
        match (decode(input), &text) {
            (Ok(s), Some(t)) => {
                assert_eq!(&*s, t, "{v} {name} {input:02X?}");
                assert_eq!(
                    matches!(s, Cow::Borrowed(_)),
                    core::str::from_utf8(input).is_ok(),
                    "{v} {name}: borrowed? {input:02X?}"
                );
            }
            (Err(e), None) => assert_eq!(Err(e), want, "{v} {name} {input:02X?}"),
            (got, _) => panic!("{v} {name}: {got:?}, want {want:?}: {input:02X?}"),
        }
    }
}

/// The one-pass decode (utf8-simd's BMP check, then the exact path from
/// where it stopped) with every kernel, against the scalar DFA's errors and
/// the oracle's text: each piece (what converts, what is an error, what
/// the BMP check refuses but the encoding accepts) at every character
/// boundary of 2-byte, 3-byte and mixed text (whole ASCII blocks between
/// non-ASCII runs) of 700 bytes, so across every 64-byte block and 256-byte
/// group boundary and straddling them; alone, after a pair in the first
/// block (the check fails at once), and cut right after the piece.
#[test]
fn decode_pieces_at_every_boundary_in_every_kernel() {
    let step = if codec_testdata::emulated() { 7 } else { 1 };
    let pieces: &[&[u8]] = &[
        b"\xED\xA0\x80\xED\xB0\x80", // U+10000 as a pair
        b"\xED\xAF\xBF\xED\xBF\xBF", // U+10FFFF as a pair
        b"\xC0\x80",                 // MUTF-8's NUL
        b"\x00",                     // NUL: CESU-8's, an error in MUTF-8
        b"\xF0\x9F\x98\x80",         // a 4-byte form: an error in both
        b"\xED\xA0\x80",             // a lone lead
        b"\xED\xB0\x80",             // a lone trail
        b"\xED\xA0\x80\xED",         // a pair cut short
        b"\xEF\xBF\xBF",             // U+FFFF
        b"\xF5",                     // never valid
        b"\x80",                     // a stray continuation
        b"\xE2\x82",                 // cut short
    ];
    let texts = codec_testdata::boundary_texts(step);
    for (v, rules) in [
        (Variant::Cesu8, oracle::CESU8),
        (Variant::Mutf8, oracle::MUTF8),
    ] {
        let decoders = decoders(v);
        assert!(decoders.len() > 1 || !cfg!(target_arch = "x86_64"));
        for (text, boundaries) in &texts {
            for piece in pieces {
                for &at in boundaries {
                    let mut input = text[..at].to_vec();
                    input.extend_from_slice(piece);
                    input.extend_from_slice(&text[at..]);
                    check_decode(v, &rules, &decoders, &input);
                    check_decode(v, &rules, &decoders, &input[..at + piece.len()]);
                    let mut after_pair = b"\xED\xA0\x80\xED\xB0\x80".to_vec();
                    after_pair.extend_from_slice(&input);
                    check_decode(v, &rules, &decoders, &after_pair);
                }
            }
        }
    }
}

/// Random inputs of interesting pieces at lengths around the block and
/// group sizes, each also with a random byte changed: every kernel's decode
/// against the scalar DFA and the oracle.
#[test]
fn decode_random_and_mutated_inputs_in_every_kernel() {
    let mut rng = StdRng::seed_from_u64(0x0b3f);
    let rounds = if codec_testdata::emulated() {
        200
    } else {
        2000
    };
    for (v, rules) in [
        (Variant::Cesu8, oracle::CESU8),
        (Variant::Mutf8, oracle::MUTF8),
    ] {
        let decoders = decoders(v);
        for round in 0..rounds {
            // Mostly BMP text, so that the one pass gets far.
            let target = [63, 64, 65, 128, 256, 300, 520][round % 7];
            let mut input = Vec::new();
            while input.len() < target {
                if rng.random_bool(0.97) {
                    let c = char::from_u32(rng.random_range(0x01..0xD800)).unwrap();
                    input.extend_from_slice(c.encode_utf8(&mut [0; 4]).as_bytes());
                } else {
                    input.extend_from_slice(&interesting(&mut rng, 1));
                }
            }
            check_decode(v, &rules, &decoders, &input);
            let i = rng.random_range(0..input.len());
            input[i] = rng.random();
            check_decode(v, &rules, &decoders, &input);
        }
    }
}

/// Runs of surrogate pairs of every length up to 40 (the scalar loop's
/// first four, the kernel's passes of four, the rest), after 0-3 bytes and
/// before each ending, with a piece (valid or not) written in at every
/// pair of the run: decode and decode_lossy against the oracle and the
/// scalar DFA, in every kernel.
#[test]
fn decode_runs_of_pairs_of_every_length_with_a_piece_at_every_pair() {
    let pairs: Vec<[u8; 6]> = (0..40u32)
        .map(|k| jvm_six_bytes(0x1_0000 + k * 0x6A3F % 0x10_0000))
        .collect();
    let pieces: &[&[u8]] = &[
        b"",
        b"a",
        b"\xED\x9F\xBF", // U+D7FF: ED, not a surrogate
        b"\xC0\x80",     // MUTF-8's NUL
        b"\xED\xB0\x80", // a lone trail
        b"\xED\xA0\x80", // a lone lead
        b"\xF0\x9F\x98\x80",
    ];
    let step = if codec_testdata::emulated() { 5 } else { 1 };
    for (v, rules) in [
        (Variant::Cesu8, oracle::CESU8),
        (Variant::Mutf8, oracle::MUTF8),
    ] {
        let decoders = decoders(v);
        for len in (0..=40).step_by(step) {
            for prefix in [&b""[..], b"x", b"\xC3\xA9", b"\xE5\x90\x95"] {
                for piece in pieces {
                    for at in 0..=len {
                        let mut input = prefix.to_vec();
                        for (k, p) in pairs[..len].iter().enumerate() {
                            if k == at {
                                input.extend_from_slice(piece);
                            }
                            input.extend_from_slice(p);
                        }
                        if at == len {
                            input.extend_from_slice(piece);
                        }
                        check_decode(v, &rules, &decoders, &input);
                        input.extend_from_slice(b"end");
                        check_decode(v, &rules, &decoders, &input);
                        let lossy = if v == Variant::Mutf8 {
                            mutf8::decode_lossy(&input)
                        } else {
                            cesu8::decode_lossy(&input)
                        };
                        assert_eq!(lossy, oracle_lossy(&rules, &input), "{v} {input:02X?}");
                    }
                }
            }
        }
    }
}

/// Encoding runs of 4-byte characters of every length up to 40 (the scalar
/// loop's first four, the kernel's passes, the rest), with a piece at every
/// character, after BMP stretches of every length up to 300 (the near scan
/// of 64 bytes, the BMP check's 256-byte groups), and runs long enough to
/// take several of the kernel's 4 KiB chunks: CESU-8 and MUTF-8 against the
/// specifications, character by character.
#[test]
fn encode_runs_and_stretches_of_every_length() {
    let emoji: Vec<char> = (0..40u32)
        .map(|k| char::from_u32(0x1_0000 + k * 0x6A3F % 0x10_0000).unwrap())
        .collect();
    let step = if codec_testdata::emulated() { 5 } else { 1 };
    let check = |s: &str| {
        for mutf8 in [false, true] {
            let got = if mutf8 {
                mutf8::encode(s)
            } else {
                cesu8::encode(s)
            };
            assert_eq!(&*got, &spec_encode(s, mutf8)[..], "mutf8 {mutf8}: {s:?}");
            assert_eq!(matches!(got, Cow::Borrowed(_)), got[..] == *s.as_bytes());
        }
    };
    for len in (0..=40).step_by(step) {
        for piece in ["", "a", "\0", "é", "吕", "\u{FFFF}"] {
            for at in 0..=len {
                let mut s = String::from("x");
                for (k, &c) in emoji[..len].iter().enumerate() {
                    if k == at {
                        s.push_str(piece);
                    }
                    s.push(c);
                }
                if at == len {
                    s.push_str(piece);
                }
                check(&s);
                s.push_str("end");
                check(&s);
            }
        }
    }
    // BMP stretches between characters to convert.
    for gap in (0..=300).step_by(step) {
        for fill in ["a", "é", "吕"] {
            let stretch = fill.repeat(gap / fill.len() + 1);
            let mut s = String::new();
            for (k, &c) in emoji[..6].iter().enumerate() {
                let mut end = gap;
                while !stretch.is_char_boundary(end) {
                    end -= 1;
                }
                s.push_str(&stretch[..end]);
                s.push(if k == 3 { '\0' } else { c });
            }
            s.push_str(&stretch);
            check(&s);
        }
    }
    // Long runs: several chunks of the kernel, cut at every length near the
    // chunk size, and a run that ends the input.
    let long: String = (0..3000u32)
        .map(|k| char::from_u32(0x1_0000 + k * 0x3F1 % 0x10_0000).unwrap())
        .collect();
    for cut in [1020, 1023, 1024, 1025, 1028, 2048, 2049, 3000] {
        let run = &long[..4 * cut];
        check(run);
        check(&format!("ab{run}cd"));
        check(&format!("{run}\0{run}"));
    }
}
