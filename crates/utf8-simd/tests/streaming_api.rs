//! The public streaming API with the SIMD validator, against std:
//! `chunks` against `<[u8]>::utf8_chunks`, `reader` and `repair` against
//! `utf8_chunks` and `String::from_utf8_lossy`, `Validator` against
//! `core::str::from_utf8`, on random chunkings of random, mutated and
//! conformance inputs; and, in an ignored test that `cargo xtask exhaustive`
//! runs, an input of more than 4 GiB, so that every offset past `u32::MAX`
//! is checked too.
// Test code: clippy.toml exempts #[test] functions from the no-panic lints,
// but not the helpers of an integration test, which may panic too.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
// `reader` and `repair` are the `std` feature's.
#![cfg(feature = "std")]

use codec_testdata::std_validate;
use rand::{Rng, SeedableRng, rngs::StdRng};
use std::io::{self, Read, Write};

/// A reader that hands out `input` in reads of the given sizes (cycled),
/// as a pipe or a socket would.
struct Chunked<'a> {
    input: &'a [u8],
    sizes: Vec<usize>,
    next: usize,
}

impl Read for Chunked<'_> {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        let size = self.sizes[self.next % self.sizes.len()].max(1);
        self.next += 1;
        let n = size.min(out.len()).min(self.input.len());
        out[..n].copy_from_slice(&self.input[..n]);
        self.input = &self.input[n..];
        Ok(n)
    }
}

/// std's pieces, owned, with their offsets.
fn std_pieces(input: &[u8]) -> Vec<(u64, String, Vec<u8>)> {
    let mut offset = 0;
    input
        .utf8_chunks()
        .map(|c| {
            let piece = (offset, c.valid().to_string(), c.invalid().to_vec());
            offset += (c.valid().len() + c.invalid().len()) as u64;
            piece
        })
        .collect()
}

/// Checks every streaming entry point on `input`, with reads and updates of
/// `sizes` bytes.
fn check(input: &[u8], sizes: &[usize]) {
    let want_pieces = std_pieces(input);
    // chunks(): exactly std's pieces, with offsets and kinds.
    let ours: Vec<(u64, String, Vec<u8>)> = utf8_simd::chunks(input)
        .map(|c| {
            if let Some(kind) = c.kind() {
                let at = c.invalid_offset() as usize;
                assert_eq!(kind, codec_core::Utf8Error::at(input, at).kind());
            }
            (c.offset(), c.valid().to_string(), c.invalid().to_vec())
        })
        .collect();
    assert_eq!(ours, want_pieces, "chunks of {input:02X?}");

    // reader(): the same pieces, valid runs possibly cut where reads end.
    let mut merged: Vec<(u64, String, Vec<u8>)> = Vec::new();
    let sizes = sizes.to_vec();
    let mut r = utf8_simd::reader(Chunked {
        input,
        sizes: sizes.clone(),
        next: 0,
    });
    while let Some(c) = r.next_chunk().unwrap() {
        match merged.last_mut() {
            Some((_, v, inv)) if inv.is_empty() => {
                v.push_str(c.valid());
                inv.extend_from_slice(c.invalid());
            }
            _ => merged.push((c.offset(), c.valid().into(), c.invalid().to_vec())),
        }
    }
    assert_eq!(merged, want_pieces, "reader of {input:02X?} in {sizes:?}");

    // repair(): String::from_utf8_lossy, byte for byte.
    let mut out = Vec::new();
    let done = utf8_simd::repair(
        Chunked {
            input,
            sizes: sizes.clone(),
            next: 0,
        },
        &mut out,
    )
    .unwrap();
    assert_eq!(out, String::from_utf8_lossy(input).as_bytes());
    assert_eq!(done.bytes_in, input.len() as u64);

    // validate_reader(): std's first error, with its line and column
    // counted in the valid text before it.
    let got = utf8_simd::validate_reader(Chunked {
        input,
        sizes: sizes.clone(),
        next: 0,
    });
    match core::str::from_utf8(input) {
        Ok(_) => assert_eq!(got.ok(), Some(input.len() as u64), "{input:02X?}"),
        Err(e) => {
            let Err(codec_core::io::ReadError::Invalid(at)) = got else {
                panic!("validate_reader of {input:02X?}: {got:?}");
            };
            let before = core::str::from_utf8(&input[..e.valid_up_to()]).unwrap();
            let line = before.matches('\n').count() as u64 + 1;
            let column = before.rsplit('\n').next().unwrap().chars().count() as u64 + 1;
            let kind = codec_core::Utf8Error::at(input, e.valid_up_to()).kind();
            assert_eq!(
                (
                    at.offset(),
                    at.error_len(),
                    at.kind(),
                    at.line(),
                    at.column()
                ),
                (e.valid_up_to() as u64, e.error_len(), kind, line, column),
                "validate_reader of {input:02X?} in {sizes:?}"
            );
        }
    }

    // Validator: std's result on the whole.
    let mut v = utf8_simd::Validator::new();
    let mut rest = input;
    let mut result = Ok(());
    for &size in sizes.iter().cycle() {
        if rest.is_empty() {
            break;
        }
        let n = size.max(1).min(rest.len());
        if let Err(e) = v.update(&rest[..n]) {
            result = Err(e);
            break;
        }
        rest = &rest[n..];
    }
    let result = result.and_then(|()| v.finish());
    assert_eq!(result, std_validate(input), "Validator on {input:02X?}");
}

#[test]
fn conformance_cases_in_every_small_read_size() {
    for case in codec_testdata::utf8_cases() {
        for size in [1, 2, 3, 4, 5, 7, 64, 4096] {
            check(&case.input, &[size]);
        }
    }
}

#[test]
fn kuhn_stress_test_in_random_reads() {
    let mut rng = StdRng::seed_from_u64(16);
    for _ in 0..50 {
        let sizes: Vec<usize> = (0..8).map(|_| rng.random_range(1..300)).collect();
        check(codec_testdata::KUHN_STRESS_TEST, &sizes);
    }
}

quickcheck::quickcheck! {
    fn random_bytes_random_reads(input: Vec<u8>, sizes: Vec<u8>) -> bool {
        let sizes: Vec<usize> = sizes.iter().map(|&s| usize::from(s % 70) + 1).collect();
        check(&input, if sizes.is_empty() { &[1] } else { &sizes });
        true
    }

    fn mutated_text_random_reads(text: String, edits: Vec<(usize, u8)>, sizes: Vec<u8>) -> bool {
        let input = codec_testdata::mutate(&text, &edits);
        let sizes: Vec<usize> = sizes.iter().map(|&s| usize::from(s % 70) + 1).collect();
        check(&input, if sizes.is_empty() { &[3] } else { &sizes });
        true
    }
}

/// A writer that compares what it is given with `expected`, as it comes.
struct Compare<'a> {
    expected: &'a [u8],
    at: usize,
}

impl Write for Compare<'_> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let want = &self.expected[self.at..self.at + buf.len()];
        assert!(want == buf, "lossy output differs at byte {}", self.at);
        self.at += buf.len();
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// More than 4 GiB of text with errors before and after the 4 GiB mark:
/// the reader, the lossy copy, the chunk iterator and the streaming
/// validator agree with std on every offset, also those past `u32::MAX`.
/// About 8.5 GiB of memory (the input and std's lossy copy). Run by
/// `cargo xtask exhaustive` (the full run).
#[test]
#[ignore = "needs ~9 GiB of memory and a minute: cargo xtask exhaustive"]
fn inputs_over_4_gib() {
    const LEN: usize = (1 << 32) + (1 << 28);
    let text = "Grüße, 世界! 😀 plain ASCII runs too. Ελληνικά. ".repeat(1 << 10);
    let mut input = Vec::with_capacity(LEN + text.len());
    while input.len() < LEN {
        input.extend_from_slice(text.as_bytes());
    }
    // Errors of several kinds, one just past 2^32 and one straddling it.
    for (at, bytes) in [
        (1000usize, &b"\xFF"[..]),
        ((1 << 31) + 7, b"\xED\xA0\x80"),
        ((1 << 32) - 1, b"\xE2\x82"),
        ((1 << 32) + 5, b"\xC0"),
        (LEN - 10, b"\xF0\x9F\x98"),
    ] {
        input[at..at + bytes.len()].copy_from_slice(bytes);
    }
    input.truncate(LEN - 7); // ends inside the 4-byte character above

    let want = std_validate(&input);
    assert_eq!(utf8_simd::validate(&input), want);

    // The streaming validator finds the first error, wherever the cuts are.
    let mut v = utf8_simd::Validator::new();
    let got = input
        .chunks(4096)
        .try_for_each(|c| v.update(c))
        .and_then(|()| v.finish());
    assert_eq!(got, want);

    // The chunk iterator: every piece, with its offset, as std's.
    let mut std_chunks = input.utf8_chunks();
    let mut offset = 0u64;
    let mut errors = 0;
    for c in utf8_simd::chunks(&input) {
        let s = std_chunks.next().expect("std has fewer pieces");
        assert_eq!((c.valid(), c.invalid()), (s.valid(), s.invalid()));
        assert_eq!(c.offset(), offset);
        offset += (c.valid().len() + c.invalid().len()) as u64;
        errors += usize::from(!c.invalid().is_empty());
    }
    assert!(std_chunks.next().is_none());
    assert!(offset > u64::from(u32::MAX));

    // The reader's invalid pieces, at their absolute offsets.
    let mut r = utf8_simd::reader(&input[..]);
    let mut reader_errors = Vec::new();
    while let Some(c) = r.next_chunk().unwrap() {
        if c.kind().is_some() {
            reader_errors.push(c.invalid_offset());
        }
    }
    let std_errors: Vec<u64> = {
        let mut at = 0u64;
        input
            .utf8_chunks()
            .filter_map(|c| {
                at += c.valid().len() as u64;
                let here = at;
                at += c.invalid().len() as u64;
                (!c.invalid().is_empty()).then_some(here)
            })
            .collect()
    };
    assert_eq!(reader_errors, std_errors);
    assert_eq!(reader_errors.len(), errors);
    assert!(reader_errors.iter().any(|&o| o > u64::from(u32::MAX)));

    // The lossy copy, compared as it is written.
    let lossy = String::from_utf8_lossy(&input);
    let mut cmp = Compare {
        expected: lossy.as_bytes(),
        at: 0,
    };
    let done = utf8_simd::repair(&input[..], &mut cmp).unwrap();
    assert_eq!(cmp.at, lossy.len());
    assert_eq!(done.bytes_in, input.len() as u64);
}
