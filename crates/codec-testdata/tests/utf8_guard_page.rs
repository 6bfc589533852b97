//! Over-read detection on real hardware for every UTF-8 validator and entry
//! point in the workspace registry (`codec_testdata::registry`): each one
//! validates inputs that end exactly at (or start exactly after) a
//! `PROT_NONE` guard page, at every length 0..=256, valid and invalid. A
//! read one byte outside the slice, by a scalar tail or a vector load of any
//! width, kills the test with SIGSEGV. Answers are also compared with std,
//! so a kernel that "handles" the tail by giving up is caught too.
//!
//! The shared streaming pieces (codec-core's `Streaming`, `Utf8Chunks` and
//! `Utf8Reader`) are checked the same way, with the SIMD validator.
//!
//! Linux only: the guard pages come from `codec_testdata::guard` (mmap and
//! mprotect), whose own tests prove that a read past the end faults.
// Test code: clippy.toml exempts #[test] functions from the no-panic lints,
// but not the helpers of an integration test, which may panic too.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
#![cfg(target_os = "linux")]

use codec_core::io::Utf8Reader;
use codec_testdata::guard::{GuardedBuf, at_both_ends, boundary_inputs};
use codec_testdata::registry::{Utf8Impl, check_utf8_against, utf8_impls, utf8_skipped};
use codec_testdata::std_validate;

/// The longest input: several 64-byte blocks plus every tail length of
/// each kernel.
const MAX_LEN: usize = 256;

fn impls() -> Vec<Utf8Impl> {
    for skipped in utf8_skipped() {
        eprintln!("skipped on this CPU: {skipped}");
    }
    utf8_impls()
}

/// Every entry point on `guarded` (a copy of `original` against a guard
/// page), compared with std's answer on `original`.
fn check_all(impls: &[Utf8Impl], guarded: &[u8], original: &[u8]) {
    let want = std_validate(original);
    for imp in impls {
        if let Err(e) = check_utf8_against(imp, guarded, want) {
            panic!("{e}");
        }
    }
    // The pieces of the lossy walk, as slices of the guarded buffer.
    let pieces: Vec<(&str, &[u8])> = utf8_simd::chunks(guarded)
        .map(|c| (c.valid(), c.invalid()))
        .collect();
    let std_pieces: Vec<(&str, &[u8])> = original
        .utf8_chunks()
        .map(|c| (c.valid(), c.invalid()))
        .collect();
    assert_eq!(pieces, std_pieces, "chunks of {original:02X?}");
}

#[test]
fn every_entry_point_at_every_length_at_both_ends_of_a_guard_page() {
    let impls = impls();
    let count = at_both_ends(MAX_LEN, |guarded, input| check_all(&impls, guarded, input));
    assert!(count > 10_000, "only {count} inputs");
}

/// A streaming validator fed two chunks, each ending at its own guard page:
/// the carried state must not make it read back into the previous chunk or
/// ahead past the current one.
#[test]
fn streaming_chunks_each_ending_at_a_guard_page() {
    let mut first = GuardedBuf::new(MAX_LEN);
    let mut second = GuardedBuf::new(MAX_LEN);
    boundary_inputs(96, |input| {
        let want = std_validate(input);
        for split in [
            0,
            1,
            input.len() / 2,
            input.len().saturating_sub(1),
            input.len(),
        ] {
            let split = split.min(input.len());
            let (a, b) = input.split_at(split);
            let mut v = utf8_simd::Validator::new();
            let got = v
                .update(first.at_end(a))
                .and_then(|()| v.update(second.at_end(b)))
                .and_then(|()| v.finish());
            assert_eq!(got, want, "split {split} of {input:02X?}");
        }
    });
}

/// The `Read` scanner with reads that end at a guard page: each read hands
/// it a slice of a guarded buffer, so its carry and its validator calls
/// never see bytes outside what was read.
#[test]
fn reader_over_reads_that_end_at_a_guard_page() {
    /// Hands out `input` a few bytes at a time, each piece copied to the end
    /// of a guarded buffer first.
    struct Guarded<'a> {
        input: &'a [u8],
        step: usize,
        buf: GuardedBuf,
    }
    impl std::io::Read for Guarded<'_> {
        fn read(&mut self, out: &mut [u8]) -> std::io::Result<usize> {
            let n = self.step.min(self.input.len()).min(out.len());
            let piece = self.buf.at_end(&self.input[..n]);
            out[..n].copy_from_slice(piece);
            self.input = &self.input[n..];
            Ok(n)
        }
    }
    boundary_inputs(64, |input| {
        for step in [1, 3, 7, 64] {
            let reader = Guarded {
                input,
                step,
                buf: GuardedBuf::new(64),
            };
            let mut out = Vec::new();
            Utf8Reader::with_chunk_size(reader, utf8_simd::Simd, step)
                .repair(&mut out)
                .unwrap();
            assert_eq!(
                out,
                String::from_utf8_lossy(input).as_bytes(),
                "{input:02X?}"
            );
        }
    });
}

/// The harness must be able to fail: a wrong answer is caught.
#[test]
fn a_wrong_answer_is_caught() {
    struct AlwaysOk;
    impl codec_core::Utf8Validator for AlwaysOk {
        fn validate(&self, _: &[u8]) -> Result<(), codec_core::Utf8Error> {
            Ok(())
        }
    }
    let list = vec![Utf8Impl {
        name: "AlwaysOk".into(),
        validator: Box::new(AlwaysOk),
        blocks: false,
        own_methods: false,
    }];
    let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        check_all(&list, b"\xFF", b"\xFF")
    }));
    assert!(r.is_err());
}
