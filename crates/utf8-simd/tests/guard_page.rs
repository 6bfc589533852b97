//! Over-read detection on real hardware: every kernel and entry point
//! validates inputs that end exactly at (or start exactly after) a
//! `PROT_NONE` guard page, at every length 0..=256, valid and invalid. A
//! read one byte outside the slice, by a scalar tail or a 16- or 32-byte
//! vector load, kills the test with SIGSEGV. Results are also compared with
//! std, so a kernel that "handles" the tail by giving up is caught too.
//!
//! Linux only: the guard pages come from `codec_testdata::guard` (mmap and
//! mprotect). The harness itself is proven to fault by that module's tests.
// Test code: clippy.toml exempts #[test] functions from the no-panic lints,
// but not the helpers of an integration test, which may panic too.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
#![cfg(target_os = "linux")]

use codec_core::{Utf8Error, Utf8Validator};
use codec_testdata::guard::{GuardedBuf, boundary_inputs};
use codec_testdata::std_validate;
use utf8_simd::{Avx2, Neon, Portable, Simd, Sse42, Validator};

/// The longest input; the issue asks for every length up to 256, which
/// covers several 64-byte blocks plus every tail length of each kernel.
const MAX_LEN: usize = 256;

/// Every validator this CPU can run. A missing SIMD kernel fails the test
/// unless `UTF8_SIMD_ALLOW_MISSING` is set (as in `tests/kernels.rs`).
fn validators() -> Vec<(&'static str, Box<dyn Utf8Validator>)> {
    let mut v: Vec<(&'static str, Box<dyn Utf8Validator>)> = vec![
        ("Portable", Box::new(Portable::new())),
        ("Simd", Box::new(Simd)),
    ];
    // Each kernel must be present on the architecture it is written for, so
    // that a missing kernel cannot pass silently.
    let allow_missing = std::env::var_os("UTF8_SIMD_ALLOW_MISSING").is_some();
    let x86 = cfg!(target_arch = "x86_64") && !allow_missing;
    let arm = cfg!(target_arch = "aarch64") && !allow_missing;
    match Sse42::new() {
        Some(k) => v.push(("Sse42", Box::new(k))),
        None => assert!(!x86, "SSE4.2 kernel unavailable"),
    }
    match Avx2::new() {
        Some(k) => v.push(("Avx2", Box::new(k))),
        None => assert!(!x86, "AVX2 kernel unavailable"),
    }
    match Neon::new() {
        Some(k) => v.push(("Neon", Box::new(k))),
        None => assert!(!arm, "NEON kernel unavailable"),
    }
    // With the `avx512` feature (on by default); a CPU without AVX-512
    // skips it.
    #[cfg(feature = "avx512")]
    if let Some(k) = utf8_simd::Avx512::new() {
        v.push(("Avx512", Box::new(k)));
    }
    v
}

/// Runs every entry point on `guarded` (a copy of `original` placed against
/// a guard page) and compares each answer with std's on `original`.
fn check_all(validators: &[(&str, Box<dyn Utf8Validator>)], guarded: &[u8], original: &[u8]) {
    let want = std_validate(original);
    let fail = |name: &str, got: &dyn core::fmt::Debug| {
        panic!(
            "{name} on {} bytes {:02X?}: got {got:?}, std says {want:?}",
            original.len(),
            &original[..original.len().min(80)]
        )
    };
    for (name, v) in validators {
        let got = v.validate(guarded);
        if got != want {
            fail(name, &got);
        }
        if v.is_valid(guarded) != want.is_ok() {
            fail(&format!("{name}::is_valid"), &want.is_err());
        }
        if v.from_utf8(guarded).map(str::len) != want.map(|()| original.len()) {
            fail(&format!("{name}::from_utf8"), &v.from_utf8(guarded));
        }
    }
    let got = utf8_simd::validate(guarded);
    if got != want {
        fail("utf8_simd::validate", &got);
    }
    if utf8_simd::is_valid(guarded) != want.is_ok() {
        fail("utf8_simd::is_valid", &want.is_err());
    }
    if utf8_simd::from_utf8(guarded).is_ok() != want.is_ok() {
        fail("utf8_simd::from_utf8", &utf8_simd::from_utf8(guarded));
    }
    let mut stream = Validator::new();
    let got = stream.update(guarded).and_then(|()| stream.finish());
    if got != want {
        fail("utf8_simd::Validator", &got);
    }
}

#[test]
fn every_length_ending_at_a_guard_page() {
    let validators = validators();
    let mut buf = GuardedBuf::new(MAX_LEN);
    let mut count = 0;
    boundary_inputs(MAX_LEN, |input| {
        check_all(&validators, buf.at_end(input), input);
        count += 1;
    });
    assert!(count > 10_000, "only {count} inputs");
}

#[test]
fn every_length_starting_after_a_guard_page() {
    let validators = validators();
    let mut buf = GuardedBuf::new(MAX_LEN);
    boundary_inputs(MAX_LEN, |input| {
        check_all(&validators, buf.at_start(input), input);
    });
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
            let mut v = Validator::new();
            let got = v
                .update(first.at_end(a))
                .and_then(|()| v.update(second.at_end(b)))
                .and_then(|()| v.finish());
            assert_eq!(got, want, "split {split} of {input:02X?}");
        }
    });
}

/// The harness must be able to fail: a wrong answer is caught.
#[test]
fn a_wrong_answer_is_caught() {
    struct AlwaysOk;
    impl Utf8Validator for AlwaysOk {
        fn validate(&self, _: &[u8]) -> Result<(), Utf8Error> {
            Ok(())
        }
    }
    let list: Vec<(&str, Box<dyn Utf8Validator>)> = vec![("AlwaysOk", Box::new(AlwaysOk))];
    let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        check_all(&list, b"\xFF", b"\xFF")
    }));
    assert!(r.is_err());
}
