//! Every entry point of this crate in the workspace registry (the free
//! functions, `Portable`, the streaming validator and every kernel this CPU
//! can run) against `core::str::from_utf8`, the oracle, on the whole suite.
// Test code: clippy.toml exempts #[test] functions from the no-panic lints,
// but not the helpers of an integration test, which may panic too.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use codec_core::{StreamingValidator, Utf8Validator};
use codec_testdata::registry::{
    Utf8Impl, check_core, check_utf8_against, utf8_impls, utf8_skipped,
};
use codec_testdata::std_validate;
use rand::{Rng, SeedableRng, rngs::StdRng};
use utf8_simd::Validator;
#[cfg(target_arch = "x86_64")]
use utf8_simd::{Avx2, Avx512, Sse41};

/// This crate's entries in the workspace registry (`codec_testdata::
/// registry`): the free functions, `Portable`, the streaming validator and
/// every kernel this CPU can run. Kernels it cannot run are printed.
fn validators() -> Vec<Utf8Impl> {
    for skipped in utf8_skipped() {
        eprintln!("skipped on this CPU: {skipped}");
    }
    utf8_impls()
        .into_iter()
        .filter(|i| i.name.starts_with("utf8_simd::"))
        .collect()
}

/// Checks every validator on `input`: each entry point against std.
fn check_all(vs: &[Utf8Impl], input: &[u8]) {
    let want = std_validate(input);
    for imp in vs {
        if let Err(e) = check_utf8_against(imp, input, want) {
            panic!("{e}");
        }
    }
}

/// The registry has every kernel this CPU can run, and the dispatch runs
/// the first of them: a kernel left out of `utf8_simd::kernels()` (or a
/// detection that says no to a feature the CPU has) fails here.
#[test]
fn the_registry_has_every_kernel_this_cpu_can_run() {
    let available = |name: &str| {
        utf8_simd::kernels()
            .iter()
            .find(|k| k.name() == name)
            .map(|k| k.is_available())
    };
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::is_x86_feature_detected as has;
        let avx512 = has!("avx512f") && has!("avx512bw") && has!("avx2");
        assert_eq!(available("avx512"), Some(avx512));
        assert_eq!(available("avx2"), Some(has!("avx2")));
        assert_eq!(available("sse4.1"), Some(has!("ssse3") && has!("sse4.1")));
        assert_eq!(Avx512::new().is_some(), avx512);
        assert_eq!(Avx2::new().is_some(), has!("avx2"));
        assert_eq!(Sse41::new().is_some(), has!("ssse3") && has!("sse4.1"));
        // The machines CI runs on have AVX2; elsewhere, say so explicitly.
        if std::env::var_os("UTF8_SIMD_ALLOW_MISSING").is_none() {
            assert!(has!("avx2"), "no AVX2: set UTF8_SIMD_ALLOW_MISSING=1");
        }
    }
    // NEON is part of every aarch64 target CI builds (`cargo xtask cross`):
    // the kernel must be there, chosen, and named by `Neon`.
    #[cfg(target_arch = "aarch64")]
    {
        assert_eq!(available("neon"), Some(true));
        assert_eq!(utf8_simd::chosen_kernel().name(), "neon");
        assert!(utf8_simd::Neon::new().is_some());
    }
    #[cfg(not(target_arch = "aarch64"))]
    assert!(utf8_simd::Neon::new().is_none());
    assert_eq!(available("portable"), Some(true));
    let first = utf8_simd::kernels().iter().find(|k| k.is_available());
    assert_eq!(
        first.map(|k| k.name()),
        Some(utf8_simd::chosen_kernel().name())
    );
    let list = validators();
    let names: Vec<&str> = list.iter().map(|i| i.name.as_str()).collect();
    for k in utf8_simd::kernels().iter().filter(|k| k.is_available()) {
        let name = format!("utf8_simd::kernel[{}]", k.name());
        assert!(
            names.contains(&name.as_str()),
            "{name} missing from {names:?}"
        );
    }
}

/// Streaming over `chunks` equals the one-shot result on their
/// concatenation, and the error comes from the right `update`.
fn check_stream(chunks: &[&[u8]]) {
    let whole: Vec<u8> = chunks.concat();
    let want = std_validate(&whole);
    let mut v = Validator::new();
    let mut fed = 0;
    let mut got = None;
    for chunk in chunks {
        fed += chunk.len();
        if let Err(e) = v.update(chunk) {
            // Reported no later than the chunk holding the offending byte,
            // and no earlier than the bytes prove it.
            let want_err = want.expect_err("update failed on valid input");
            assert_eq!(e, want_err, "chunks {chunks:02X?}");
            let proof_end = want_err.valid_up_to() + want_err.error_len().unwrap_or(0);
            assert!(fed >= proof_end, "error before its proof: {chunks:02X?}");
            assert!(fed - chunk.len() <= proof_end, "error late: {chunks:02X?}");
            got = Some(e);
            // Sticky.
            assert_eq!(v.update(b"more"), Err(e));
            break;
        }
    }
    match got {
        Some(e) => assert_eq!(v.finish(), Err(e)),
        None => {
            if let Err(e) = want {
                assert_eq!(e.error_len(), None, "missed error in {chunks:02X?}");
            }
            assert_eq!(v.finish(), want, "chunks {chunks:02X?}");
        }
    }
}

/// Streaming at every single split point, and every pair of split points
/// for inputs up to 24 bytes.
fn check_stream_every_split(input: &[u8]) {
    check_stream(&[input]);
    for i in 0..=input.len() {
        check_stream(&[&input[..i], &input[i..]]);
    }
    if input.len() <= 24 {
        for i in 0..=input.len() {
            for j in i..=input.len() {
                check_stream(&[&input[..i], &input[i..j], &input[j..]]);
            }
        }
    }
}

#[test]
fn conformance_cases() {
    let vs = validators();
    let cases = codec_testdata::utf8_cases();
    assert!(cases.len() > 1000);
    for case in &cases {
        check_all(&vs, &case.input);
        if let Some(chunks) = &case.chunks {
            let chunks: Vec<&[u8]> = chunks.iter().map(Vec::as_slice).collect();
            check_stream(&chunks);
        }
        if case.input.len() <= 300 {
            check_stream_every_split(&case.input);
        }
    }
}

#[test]
fn invalid_sequences_around_block_boundaries() {
    let vs = validators();
    let mut count = 0;
    codec_testdata::for_each_invalid_after_prefixes(|input| {
        check_all(&vs, input);
        check_stream(&[input]);
        let mid = input.len() / 2;
        check_stream(&[&input[..mid], &input[mid..]]);
        count += 1;
    });
    assert!(count > 10_000, "{count}");
}

#[test]
fn every_sequence_up_to_three_bytes() {
    // `validate` and `is_valid` of every entry point; the other methods are
    // checked on every other input here, and on these too by `cargo xtask
    // exhaustive --quick`, which runs in CI.
    let vs = validators();
    codec_testdata::for_each_sequence_up_to_3(|input| {
        let want = std_validate(input);
        for imp in &vs {
            if let Err(e) = check_core(imp, input, want) {
                panic!("{e}");
            }
        }
    });
}

#[test]
fn every_sequence_up_to_two_bytes_at_every_block_position() {
    // A 1- or 2-byte sequence after prefixes that put it across every
    // register and block boundary, and in the overlapped and padded tails.
    let vs = validators();
    let mut buf = Vec::new();
    for prefix in [14, 15, 30, 31, 62, 63, 64, 94, 95, 126, 127, 254, 255] {
        for filler in ["a", "é"] {
            let text = filler.repeat(prefix);
            let text = &text.as_bytes()[..prefix - prefix % filler.len()];
            for a in 0..=255u8 {
                // All bytes natively, the representatives under emulation.
                for &b in codec_testdata::bytes() {
                    for input in [&[a][..], &[a, b][..]] {
                        buf.clear();
                        buf.extend_from_slice(text);
                        buf.extend_from_slice(input);
                        let want = std_validate(&buf);
                        for imp in &vs {
                            if imp.validator.validate(&buf) != want {
                                panic!("{}: {:?} on {buf:02X?}", imp.name, want);
                            }
                        }
                        // And with text after it (the overlapped last block).
                        buf.extend_from_slice(b"0123456789abcdef0123456789abcdef0123456789ab");
                        let want = std_validate(&buf);
                        for imp in &vs {
                            if imp.validator.validate(&buf) != want {
                                panic!("{}: {:?} on {buf:02X?}", imp.name, want);
                            }
                        }
                    }
                }
            }
        }
    }
}

/// Valid text of `len` characters drawn from every UTF-8 length.
fn random_text(rng: &mut StdRng, len: usize) -> String {
    (0..len)
        .map(|_| match rng.random_range(0..4) {
            0 => rng.random_range('\0'..='\u{7F}'),
            1 => rng.random_range('\u{80}'..='\u{7FF}'),
            2 => rng.random_range('\u{800}'..='\u{FFFF}'),
            _ => rng.random_range('\u{10000}'..='\u{10FFFF}'),
        })
        .collect()
}

#[test]
fn long_random_text_with_one_corruption() {
    let vs = validators();
    let mut rng = StdRng::seed_from_u64(6);
    for round in 0..3000 {
        let chars = rng.random_range(0..600);
        let text = random_text(&mut rng, chars);
        let mut bytes = text.into_bytes();
        check_all(&vs, &bytes);
        if !bytes.is_empty() {
            let at = rng.random_range(0..bytes.len());
            bytes[at] = rng.random();
            if round % 2 == 0 {
                // Truncate mid-character sometimes.
                let cut = rng.random_range(0..=bytes.len());
                bytes.truncate(cut);
            }
        }
        check_all(&vs, &bytes);
        // Random splits equal the one-shot result.
        let mut chunks = Vec::new();
        let mut rest = &bytes[..];
        while !rest.is_empty() {
            let n = rng.random_range(0..=rest.len().min(80));
            chunks.push(&rest[..n]);
            rest = &rest[n..];
        }
        check_stream(&chunks);
    }
}

#[test]
fn large_inputs_cross_many_groups() {
    let vs = validators();
    let mut rng = StdRng::seed_from_u64(7);
    let text = random_text(&mut rng, 20_000);
    let ascii = "x".repeat(5000);
    let mixed = format!("{ascii}{text}{ascii}");
    for base in [text.as_bytes(), ascii.as_bytes(), mixed.as_bytes()] {
        check_all(&vs, base);
        for _ in 0..200 {
            let mut bytes = base.to_vec();
            let at = rng.random_range(0..bytes.len());
            bytes[at] = rng.random_range(0x80..=0xFF);
            check_all(&vs, &bytes);
            let cut = rng.random_range(0..=bytes.len());
            check_all(&vs, &bytes[..cut]);
        }
    }
}

quickcheck::quickcheck! {
    fn random_bytes(input: Vec<u8>) -> bool {
        check_all(&validators(), &input);
        true
    }

    fn mutated_text(text: String, edits: Vec<(usize, u8)>) -> bool {
        let input = codec_testdata::mutate(&text, &edits);
        check_all(&validators(), &input);
        true
    }

    fn streaming_random_splits(input: Vec<u8>, cuts: Vec<usize>) -> bool {
        let mut cuts: Vec<usize> = cuts.iter().map(|c| c % (input.len() + 1)).collect();
        cuts.sort_unstable();
        let mut chunks = Vec::new();
        let mut last = 0;
        for c in cuts {
            chunks.push(&input[last..c]);
            last = c;
        }
        chunks.push(&input[last..]);
        check_stream(&chunks);
        true
    }

    fn streaming_mutated_text_every_split(text: String, edits: Vec<(usize, u8)>) -> bool {
        let input = codec_testdata::mutate(&text, &edits);
        check_stream_every_split(&input);
        true
    }
}

// `string_from_utf8` needs the `alloc` feature (the matrix also tests the
// crate without it).
#[cfg(feature = "alloc")]
quickcheck::quickcheck! {
    fn string_from_utf8_is_std_string_from_utf8(text: String, edits: Vec<(usize, u8)>) -> bool {
        let input = codec_testdata::mutate(&text, &edits);
        match (String::from_utf8(input.clone()), utf8_simd::string_from_utf8(input.clone())) {
            (Ok(std), Ok(ours)) => std == ours,
            (Err(std), Err(ours)) => {
                let (s, o) = (std.utf8_error(), ours.utf8_error());
                s.valid_up_to() == o.valid_up_to()
                    && s.error_len() == o.error_len()
                    && ours.into_bytes() == input
            }
            _ => false,
        }
    }
}

#[test]
fn the_harness_can_fail() {
    struct Liar;
    impl Utf8Validator for Liar {
        fn validate(&self, _: &[u8]) -> Result<(), codec_core::Utf8Error> {
            Ok(())
        }
    }
    let vs = vec![Utf8Impl {
        name: "liar".into(),
        validator: Box::new(Liar),
        blocks: false,
        own_methods: true,
    }];
    let vs = std::panic::AssertUnwindSafe(vs);
    assert!(std::panic::catch_unwind(|| check_all(&vs, b"\xFF")).is_err());
}

#[test]
fn streaming_validator_implements_the_trait() {
    let r = <Validator as StreamingValidator>::validate_chunks([&b"a\xE2"[..], b"\x82", b"\xAC"]);
    assert_eq!(r, Ok(()));
    let r = <Validator as StreamingValidator>::validate_chunks([&b"a\xE2"[..], b"\x82"]);
    assert_eq!(r, std_validate(b"a\xE2\x82"));
}

#[test]
fn one_bad_byte_at_every_position_of_every_short_length() {
    // Every length that takes a partial register, the padded or the
    // overlapped tail, with one byte replaced at every position: what the
    // partial loads read must be exactly the input's bytes.
    let vs = validators();
    for filler in ["a", "é", "吕", "😀"] {
        let text = filler.repeat(200);
        for len in 0..=160 {
            let base = &text.as_bytes()[..len];
            check_all(&vs, base);
            for pos in 0..len {
                for byte in [0x80, 0xC3, 0xE2, 0xF0, 0xFF, b'x'] {
                    let mut input = base.to_vec();
                    input[pos] = byte;
                    check_all(&vs, &input);
                }
            }
        }
    }
}

/// The one-or-two-block path (inputs of 64 and of 67..=128 bytes, which
/// skip the run loop and the tail) and its neighbours: a truncated, overlong,
/// surrogate, too-large or valid sequence written at every position of
/// every length from 62 to 131, in ASCII and in 2-byte text, so that it
/// falls in the first block, the last block, their overlap and across the
/// boundary between them. Each entry point against std.
#[test]
fn every_sequence_at_every_position_of_one_or_two_blocks() {
    let vs = validators();
    let seqs: [&[u8]; 10] = [
        b"\xC3",
        b"\xE2\x82",
        b"\xF0\x9F\x98",
        b"\xC0\x80",
        b"\xE0\x80\x80",
        b"\xED\xA0\x80",
        b"\xF4\x90\x80\x80",
        b"\x80",
        "é".as_bytes(),
        "😀".as_bytes(),
    ];
    let mut count = 0;
    for filler in ["a", "é"] {
        let text = filler.repeat(140);
        for len in 62..=131 {
            for pos in 0..len {
                for seq in seqs {
                    let mut input = text.as_bytes()[..len].to_vec();
                    let n = seq.len().min(len - pos);
                    input[pos..pos + n].copy_from_slice(&seq[..n]);
                    check_all(&vs, &input);
                    count += 1;
                }
            }
        }
    }
    assert_eq!(count, 2 * 10 * (62..=131).sum::<usize>());
}

/// Every 1- to 3-byte sequence straddling the register and block
/// boundaries (after ASCII and 2-byte prefixes of 13 to 129 bytes), for
/// every kernel: about 30 times the default exhaustive test. Run by
/// `cargo xtask exhaustive`, or `cargo test -p utf8-simd -- --ignored`.
#[test]
#[ignore = "slow: run with --ignored (cargo xtask exhaustive)"]
fn every_sequence_up_to_three_bytes_across_block_boundaries() {
    let vs = validators();
    let mut buf = Vec::new();
    for prefix in [13, 14, 15, 29, 30, 31, 61, 62, 63, 125, 126, 127, 129] {
        for filler in ["a", "é"] {
            let text = filler.repeat(prefix);
            let text = &text.as_bytes()[..prefix - prefix % filler.len()];
            codec_testdata::for_each_sequence_up_to_3(|seq| {
                buf.clear();
                buf.extend_from_slice(text);
                buf.extend_from_slice(seq);
                let want = std_validate(&buf);
                for imp in &vs {
                    let v = &imp.validator;
                    if v.validate(&buf) != want || v.is_valid(&buf) != want.is_ok() {
                        panic!("{}: disagrees with std ({want:?}) on {buf:02X?}", imp.name);
                    }
                }
            });
        }
    }
}
