//! Differential tests against std: the conformance corpora, streaming at
//! every split point, lossy conversion, invalid sequences around block
//! boundaries, and quickcheck inputs.
// Test code: clippy.toml exempts #[test] functions from the no-panic lints,
// but not the helpers of an integration test, which may panic too.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use codec_core::Utf8Error;
use codec_testdata::{
    INVALID_SEQUENCES, assert_std_exact, for_each_invalid_after_prefixes, mutate, std_validate,
    utf8_cases,
};
use quickcheck::{QuickCheck, TestResult};
use utf8_dfa::{Decoder, Dfa, LossyDecoder, StreamingValidator, Utf8Validator, Validator};

/// The index of the byte whose arrival proves the error std reports, for
/// errors with an `error_len`: the first prefix length at which std already
/// sees an error that is not "incomplete", minus one.
fn proof_index(input: &[u8]) -> Option<usize> {
    let e = std_validate(input).err()?;
    e.error_len()?;
    let v = e.valid_up_to();
    (v + 1..=input.len())
        .find(|&n| matches!(std_validate(&input[..n]), Err(e) if e.error_len().is_some()))
        .map(|n| n - 1)
}

/// Feeds `chunks` to a [`Validator`] and checks the whole streaming
/// contract: the result equals std on the concatenation, the error comes
/// from the update whose chunk holds the byte that proves it (no earlier, no
/// later), and it is sticky.
#[track_caller]
fn check_chunks(chunks: &[&[u8]]) {
    let input = chunks.concat();
    let want = std_validate(&input);
    let proof = proof_index(&input);
    let mut v = Validator::new();
    let mut start = 0;
    let mut seen: Option<Utf8Error> = None;
    for chunk in chunks {
        let got = v.update(chunk);
        let end = start + chunk.len();
        let proven_here = proof.is_some_and(|p| p < end);
        match (got, seen) {
            (Err(e), None) => {
                assert!(proven_here, "early error {e:?} on {chunks:02X?}");
                assert_eq!(Err(e), want, "{chunks:02X?}");
                seen = Some(e);
            }
            (Err(e), Some(s)) => {
                assert_eq!(e, s, "not sticky on {chunks:02X?}");
                assert_eq!(v.valid_up_to(), e.valid_up_to());
            }
            (Ok(()), None) => {
                assert!(!proven_here, "late error on {chunks:02X?}");
                // Everything but an unfinished character at the end.
                let want = std_validate(&input[..end])
                    .err()
                    .map_or(end, |e| e.valid_up_to());
                assert_eq!(v.valid_up_to(), want, "{chunks:02X?}");
            }
            (Ok(()), Some(_)) => panic!("error forgotten on {chunks:02X?}"),
        }
        start = end;
    }
    assert_eq!(v.finish(), want, "finish on {chunks:02X?}");
    assert_eq!(Validator::validate_chunks(chunks.iter().copied()), want);
}

/// The strict and lossy streaming decoders on `chunks`, against std.
#[track_caller]
fn check_decoders(chunks: &[&[u8]]) {
    let input = chunks.concat();
    let want = std_validate(&input);
    let valid = match want {
        Ok(()) => &input[..],
        Err(e) => &input[..e.valid_up_to()],
    };
    let mut got = String::new();
    let mut d = Decoder::new();
    let mut result = Ok(());
    for chunk in chunks {
        result = d.decode(chunk, |c| got.push(c));
        if result.is_err() {
            break;
        }
    }
    assert_eq!(result.and_then(|()| d.finish()), want, "{chunks:02X?}");
    assert_eq!(got.as_bytes(), valid, "{chunks:02X?}");

    let mut got = String::new();
    let mut d = LossyDecoder::new();
    for chunk in chunks {
        #[cfg(feature = "alloc")]
        d.decode_into_string(chunk, &mut got);
        #[cfg(not(feature = "alloc"))]
        d.decode(chunk, |c| got.push(c));
    }
    d.finish(|c| got.push(c));
    assert_eq!(got, String::from_utf8_lossy(&input), "{chunks:02X?}");
}

/// Every whole-buffer function on `input`, against std.
#[track_caller]
fn check_whole(input: &[u8]) {
    let want = std_validate(input);
    assert_std_exact("validate", input, utf8_dfa::validate(input));
    assert_std_exact("Dfa", input, Dfa.validate(input));
    assert_std_exact("portable", input, utf8_dfa::validate_portable(input));
    assert_eq!(utf8_dfa::is_valid(input), want.is_ok());
    assert_eq!(Dfa.is_valid(input), want.is_ok());
    assert_eq!(
        utf8_dfa::from_utf8(input),
        std::str::from_utf8(input).map_err(|e| Utf8Error::from_std(e, input))
    );
    let lossy = String::from_utf8_lossy(input);
    #[cfg(feature = "alloc")]
    assert_eq!(utf8_dfa::to_string_lossy(input), lossy, "{input:02X?}");
    assert!(
        utf8_dfa::chars_lossy(input).eq(lossy.chars()),
        "{input:02X?}"
    );
    assert_eq!(utf8_dfa::count_chars_lossy(input), lossy.chars().count());
    assert_eq!(
        utf8_dfa::count_chars(input),
        want.map(|()| lossy.chars().count())
    );
    let valid = &input[..want.err().map_or(input.len(), |e| e.valid_up_to())];
    let mut chars = utf8_dfa::chars(input);
    assert!(
        chars
            .by_ref()
            .take_while(Result::is_ok)
            .map(Result::unwrap)
            .eq(std::str::from_utf8(valid).unwrap().chars())
    );
    // After an error (or at the end), the undecoded bytes start at it.
    let mut chars = utf8_dfa::chars(input);
    chars.by_ref().find(Result::is_err);
    assert_eq!(chars.as_bytes(), &input[valid.len()..], "{input:02X?}");
    let tail: Vec<_> = utf8_dfa::chars(input).skip_while(Result::is_ok).collect();
    assert_eq!(tail, want.err().map(Err).into_iter().collect::<Vec<_>>());
}

/// `input` split at each of `cuts` (sorted, deduplicated, clamped).
fn split<'a>(input: &'a [u8], cuts: &[usize]) -> Vec<&'a [u8]> {
    let mut cuts: Vec<usize> = cuts.iter().map(|&c| c % (input.len() + 1)).collect();
    cuts.sort_unstable();
    let mut out = Vec::new();
    let mut prev = 0;
    for c in cuts {
        out.push(&input[prev..c]);
        prev = c;
    }
    out.push(&input[prev..]);
    out
}

/// Every split of `input` into two chunks, and into one-byte chunks.
fn check_every_split(input: &[u8]) {
    for i in 0..=input.len() {
        check_chunks(&[&input[..i], &input[i..]]);
        check_decoders(&[&input[..i], &input[i..]]);
    }
    let bytes: Vec<&[u8]> = input.chunks(1).collect();
    check_chunks(&bytes);
    check_decoders(&bytes);
}

#[test]
fn conformance_cases() {
    let cases = utf8_cases();
    assert!(cases.len() > 1000);
    for case in &cases {
        check_whole(&case.input);
        if let Some(lossy) = &case.lossy {
            #[cfg(feature = "alloc")]
            assert_eq!(
                &utf8_dfa::to_string_lossy(&case.input),
                lossy,
                "{}",
                case.id
            );
        }
        if let Some(chunks) = &case.chunks {
            let chunks: Vec<&[u8]> = chunks.iter().map(Vec::as_slice).collect();
            check_chunks(&chunks);
            check_decoders(&chunks);
        }
        // Every split point: the long inputs get a sample of them.
        if case.input.len() <= 300 {
            check_every_split(&case.input);
        } else {
            let n = case.input.len();
            for i in (0..n).step_by(n / 97 + 1).chain(n - 5..=n) {
                check_chunks(&[&case.input[..i], &case.input[i..]]);
            }
            check_decoders(&case.input.chunks(7).collect::<Vec<_>>());
        }
    }
}

#[test]
fn invalid_sequences_around_block_boundaries() {
    let mut n = 0;
    for_each_invalid_after_prefixes(|input| {
        check_whole(input);
        // A few streaming splits, around the error.
        let e = std_validate(input).unwrap_err().valid_up_to();
        for cut in [1, e.saturating_sub(1), e, e + 1, e + 2, input.len() / 2] {
            let cut = cut.min(input.len());
            check_chunks(&[&input[..cut], &input[cut..]]);
        }
        n += 1;
    });
    assert!(n > 10_000);
}

/// The fast pass skips a leading ASCII run 256 bytes at a time, cuts inputs
/// of 128 bytes or more in four at character boundaries, and checks states
/// once per 16-byte block: every invalid sequence at every position of
/// inputs around those sizes, in text of every width, through both the
/// dispatched and the portable pass.
#[test]
fn invalid_sequences_at_every_position() {
    for filler in ["a", "é", "吕", "😀", "aé吕😀"] {
        for len in [
            15, 16, 17, 63, 64, 65, 66, 67, 68, 100, 127, 128, 129, 130, 131, 200, 257,
        ] {
            let text: String = filler.chars().cycle().take(len).collect();
            let boundaries: Vec<usize> = text.char_indices().map(|(i, _)| i).collect();
            for &at in &boundaries {
                for &seq in INVALID_SEQUENCES {
                    let mut input = text.as_bytes()[..at].to_vec();
                    input.extend_from_slice(seq);
                    input.extend_from_slice(&text.as_bytes()[at..]);
                    assert_std_exact("validate", &input, utf8_dfa::validate(&input));
                    let portable = utf8_dfa::validate_portable(&input);
                    assert_std_exact("portable", &input, portable);
                    // Replacing rather than inserting.
                    let mut input = text.as_bytes().to_vec();
                    let end = (at + seq.len()).min(input.len());
                    input[at..end].copy_from_slice(&seq[..end - at]);
                    assert_std_exact("validate", &input, utf8_dfa::validate(&input));
                    let portable = utf8_dfa::validate_portable(&input);
                    assert_std_exact("portable", &input, portable);
                    // And a valid text truncated anywhere.
                    assert_std_exact("validate", &input[..at], utf8_dfa::validate(&input[..at]));
                }
            }
            for cut in 0..=text.len() {
                let t = &text.as_bytes()[..cut];
                assert_std_exact("validate", t, utf8_dfa::validate(t));
            }
        }
    }
}

/// alacritty/vte#158: a decoder that resets after REJECT without feeding the
/// rejecting byte again swallows it. Here every lead byte is cut short by
/// each kind of following byte, in one chunk and split after the lead.
#[test]
fn rejecting_byte_is_decoded_again() {
    for lead in [0xC3u8, 0xE2, 0xE0, 0xED, 0xF0, 0xF4, 0xF1] {
        for next in [b'A', 0xC3, 0xE2, 0xF0, 0xFF, 0x80] {
            let input = [lead, next, b'z'];
            let want = String::from_utf8_lossy(&input);
            #[cfg(feature = "alloc")]
            assert_eq!(utf8_dfa::to_string_lossy(&input), want);
            assert!(utf8_dfa::chars_lossy(&input).eq(want.chars()));
            check_decoders(&[&input[..1], &input[1..]]);
            check_decoders(&[&input]);
        }
    }
    // The reported case: ESC after a truncated sequence must survive.
    let input = b"\xE2\x82\x1B[0m";
    let got: String = utf8_dfa::chars_lossy(input).collect();
    assert_eq!(got, "\u{FFFD}\u{1B}[0m");
    let mut got = String::new();
    let mut d = LossyDecoder::new();
    d.decode(b"\xE2\x82", |c| got.push(c));
    d.decode(b"\x1B[0m", |c| got.push(c));
    d.finish(|c| got.push(c));
    assert_eq!(got, "\u{FFFD}\u{1B}[0m");
}

/// The second published pitfall: the end of input is valid only in ACCEPT.
#[test]
fn truncated_input_is_not_accepted() {
    for input in [
        &b"\xC3"[..],
        b"\xE2\x82",
        b"\xF0\x9F\x98",
        b"ok \xF4\x8F\xBF",
    ] {
        let e = utf8_dfa::validate(input).unwrap_err();
        assert_eq!(e.error_len(), None);
        let mut v = Validator::new();
        v.update(input).unwrap();
        assert_eq!(v.finish(), Err(e));
    }
    // And no NUL terminator is assumed: NUL is an ordinary character.
    assert_eq!(utf8_dfa::from_utf8(b"a\0b"), Ok("a\0b"));
}

/// Quickcheck: random bytes and mutated valid text, whole and split at
/// random points.
#[test]
fn quickcheck_properties() {
    fn random_bytes(input: Vec<u8>, cuts: Vec<usize>) -> bool {
        check_whole(&input);
        let chunks = split(&input, &cuts);
        check_chunks(&chunks);
        check_decoders(&chunks);
        true
    }
    fn mutated_text(text: String, edits: Vec<(usize, u8)>, cuts: Vec<usize>) -> bool {
        let input = mutate(&text, &edits);
        check_whole(&input);
        let chunks = split(&input, &cuts);
        check_chunks(&chunks);
        check_decoders(&chunks);
        true
    }
    fn long_mutated_text(
        text: String,
        reps: u8,
        edits: Vec<(usize, u8)>,
        cuts: Vec<usize>,
    ) -> TestResult {
        if text.is_empty() {
            return TestResult::discard();
        }
        let text = text.repeat(usize::from(reps) % 40 + 1);
        let input = mutate(&text, &edits[..edits.len().min(2)]);
        check_whole(&input);
        let chunks = split(&input, &cuts);
        check_chunks(&chunks);
        TestResult::passed()
    }
    let mut qc = QuickCheck::new().tests(2000);
    qc.quickcheck(random_bytes as fn(Vec<u8>, Vec<usize>) -> bool);
    qc.quickcheck(mutated_text as fn(String, Vec<(usize, u8)>, Vec<usize>) -> bool);
    qc.quickcheck(long_mutated_text as fn(String, u8, Vec<(usize, u8)>, Vec<usize>) -> TestResult);
}

/// Streaming state is bounded: a validator and the decoders are a few words
/// whatever the input.
#[test]
fn streaming_state_is_small() {
    assert!(std::mem::size_of::<Validator>() <= 6 * std::mem::size_of::<usize>());
    assert!(std::mem::size_of::<Decoder>() <= 6 * std::mem::size_of::<usize>());
    assert!(std::mem::size_of::<LossyDecoder>() <= 8);
}

/// Lossy conversion validates windows after an error (a few bytes one at a
/// time, then 1024, 2048, 4096... bytes): pairs of errors at distances
/// around those sizes, so that windows end inside characters and errors
/// fall on their edges.
#[test]
fn lossy_errors_at_window_edges() {
    let mut distances: Vec<usize> = (1..12).collect();
    for edge in [1024, 1024 + 2048, 1024 + 2048 + 4096] {
        distances.extend(edge - 6..edge + 12);
    }
    for filler in ["é", "吕", "😀", "aé吕😀", "a"] {
        let text = filler.repeat(12_000 / filler.len());
        for first in [0, 5, 100] {
            for &d in &distances {
                for bad in [0xFF, 0x80, 0xE2] {
                    let mut input = text.as_bytes().to_vec();
                    input[first] = bad;
                    input[first + d] = bad;
                    let want = String::from_utf8_lossy(&input);
                    #[cfg(feature = "alloc")]
                    assert_eq!(
                        utf8_dfa::to_string_lossy(&input),
                        want,
                        "{filler} {first} {d}"
                    );
                    assert_eq!(utf8_dfa::count_chars_lossy(&input), want.chars().count());
                }
            }
        }
    }
}

/// The fast pass cuts its input at the first non-continuation byte within
/// four bytes of each quarter, and falls back to one stream when there is
/// none: runs of continuation bytes (and lead bytes) right at the cuts must
/// still give std's answer, through both passes.
#[test]
fn runs_of_continuation_bytes_at_the_cuts() {
    for len in 120..300 {
        for filler in ["a", "é", "吕"] {
            let text: Vec<u8> = filler.repeat(len).into_bytes()[..len].to_vec();
            for j in 1..4 {
                let cut = j * (len / 4);
                for run in 1..7 {
                    for byte in [0x80, 0xBF, 0xE2, 0xF0] {
                        let mut input = text.clone();
                        for b in input.iter_mut().skip(cut.saturating_sub(2)).take(run) {
                            *b = byte;
                        }
                        assert_std_exact("validate", &input, utf8_dfa::validate(&input));
                        let portable = utf8_dfa::validate_portable(&input);
                        assert_std_exact("portable", &input, portable);
                    }
                }
            }
        }
    }
    let all = vec![0x80u8; 1000];
    assert_std_exact("validate", &all, utf8_dfa::validate(&all));
}
