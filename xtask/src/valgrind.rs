//! `cargo xtask valgrind`: the utf8-simd and varint test binaries and
//! transcode's guard-page tests under valgrind's memcheck, with every
//! memcheck error fatal, one binary per core at a time.
//!
//! Miri cannot be installed here; memcheck is the next best thing that can. It
//! runs the real machine code (SSE4.2 and AVX2 included: valgrind 3.19 emulates
//! both, so runtime dispatch picks the same kernels as on the bare CPU) and
//! flags reads of uninitialised memory and reads outside heap blocks. It does
//! not see an over-read that stays inside a larger allocation; the guard-page
//! tests (`tests/guard_page.rs` in the codec crates) cover that case.
//!
//! ```text
//! cargo xtask valgrind                  every test but the big enumerations
//! cargo xtask valgrind --full           every test, enumerations included
//! cargo xtask valgrind -- <test args>   extra arguments for the test binaries
//! ```
//!
//! By default the tests that enumerate millions of short inputs
//! ([`SLOW_TESTS`]) are skipped: under memcheck's ~50× slowdown they take
//! many minutes and add nothing the block-position, conformance, quickcheck
//! and guard-page tests do not already exercise in memory terms (the same
//! code paths on the same buffer shapes). `cargo xtask exhaustive` runs the
//! enumerations natively.
//!
//! The tests are the `cargo test` build (opt-level 2, debug info, debug
//! assertions), so memcheck's reports name source lines.

use crate::util::{self, Result};
use std::process::{Command, Stdio};
use std::time::Instant;

/// The crates whose test binaries run under memcheck, each with the test
/// names it keeps (all, where empty): the crates with `unsafe` SIMD code,
/// whose kernels also walk untrusted lengths. Of transcode, the guard-page
/// tests (every entry point, every kernel set, every length up to 256,
/// outputs poisoned): its exactness suite would take an hour under memcheck,
/// and the guard-page tests run every kernel path on every buffer shape the
/// memory checks care about, including the uninitialised scratch buffer of
/// the variable-length stores. (Package names: `varint` and `transcode` are
/// published as `varcodecs-varint` and `varcodecs-transcode`.)
const CRATES: &[(&str, &[&str])] = &[
    ("utf8-simd", &[]),
    ("varcodecs-varint", &[]),
    ("varcodecs-transcode", &["guard"]),
];

/// Substrings of the test names skipped unless `--full` is given.
const SLOW_TESTS: &[&str] = &["exhaustive", "every_sequence"];

/// The exit code memcheck uses when it found errors, distinct from a failing
/// test's 101.
const ERROR_EXIT: &str = "97";

pub(crate) fn run(args: &[String]) -> Result {
    let split = args.iter().position(|a| a == "--").unwrap_or(args.len());
    let (ours, theirs) = args.split_at(split);
    let mut full = false;
    for a in ours {
        match a.as_str() {
            "--full" => full = true,
            other => return Err(format!("valgrind: unknown option {other:?}")),
        }
    }
    let mut test_args: Vec<&str> = theirs.iter().skip(1).map(String::as_str).collect();
    if !full {
        for name in SLOW_TESTS {
            test_args.extend(["--skip", name]);
        }
    }
    let version = Command::new("valgrind")
        .arg("--version")
        .output()
        .map_err(|e| format!("valgrind not found ({e}); install it: apt-get install valgrind"))?;
    eprintln!(
        "xtask valgrind: {}",
        String::from_utf8_lossy(&version.stdout).trim()
    );
    let start = Instant::now();
    let binaries = test_binaries()?;
    if binaries.is_empty() {
        return Err("no test binaries found".into());
    }
    // One memcheck process per core: each runs its binary's tests one at a
    // time (valgrind serialises threads anyway), so running the binaries
    // side by side is what uses the second core. Their output is kept and
    // printed whole when each ends, so it does not interleave.
    let jobs = std::thread::available_parallelism().map_or(1, |n| n.get());
    let next = std::sync::atomic::AtomicUsize::new(0);
    let failures = std::sync::Mutex::new(Vec::new());
    std::thread::scope(|scope| {
        for _ in 0..jobs {
            scope.spawn(|| {
                loop {
                    let k = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    let Some((name, exe, filters)) = binaries.get(k) else {
                        break;
                    };
                    if let Err(e) = memcheck(name, exe, filters, &test_args)
                        && let Ok(mut f) = failures.lock()
                    {
                        f.push(e);
                    }
                }
            });
        }
    });
    let failures = failures.into_inner().unwrap_or_default();
    if !failures.is_empty() {
        return Err(failures.join("\n"));
    }
    eprintln!(
        "xtask valgrind: {} test binaries clean in {:.0?} ({jobs} at a time)",
        binaries.len(),
        start.elapsed()
    );
    Ok(())
}

/// One test binary under memcheck, with the test-name `filters` of its
/// crate and the common arguments; prints its output when it ends.
fn memcheck(name: &str, exe: &str, filters: &[&str], test_args: &[&str]) -> Result {
    let t = Instant::now();
    let mut cmd = Command::new("valgrind");
    cmd.args([
        "--tool=memcheck",
        "--quiet",
        &format!("--error-exitcode={ERROR_EXIT}"),
        // Leaks are not what we look for, and the test harness leaks by design.
        "--leak-check=no",
        // Report where uninitialised values came from.
        "--track-origins=yes",
    ])
    .arg(exe)
    // Threads run one at a time under valgrind anyway.
    .arg("--test-threads=1")
    .args(filters)
    .args(test_args)
    // memcheck is an emulator too (about 50x): the enumerations that shrink
    // under qemu (`codec_testdata::emulated`) shrink here as well.
    .env("VARCODECS_EMULATED", "1")
    .current_dir(util::root());
    let out = cmd
        .output()
        .map_err(|e| format!("cannot run {cmd:?}: {e}"))?;
    eprintln!(
        "$ {cmd:?}\n{}{}xtask valgrind: {name} took {:.0?}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr),
        t.elapsed()
    );
    if out.status.success() {
        Ok(())
    } else {
        Err(format!(
            "{name} failed under memcheck: {} (exit code {ERROR_EXIT} means memcheck found errors)",
            out.status
        ))
    }
}

/// Whether a cargo package id (`path+file:///…/crates/varint#varcodecs-varint@0.1.0`,
/// or `…/crates/utf8-simd#0.1.0` where the directory is the name) names the
/// package `name`.
fn package_name_is(id: &str, name: &str) -> bool {
    let (path, rest) = id.split_once('#').unwrap_or((id, ""));
    match rest.split_once('@') {
        Some((pkg, _)) => pkg == name,
        None => path.rsplit('/').next() == Some(name),
    }
}

/// Builds the tests of [`CRATES`] and returns `(target name, executable)` for
/// each test binary, from cargo's JSON messages.
fn test_binaries() -> Result<Vec<(String, String, &'static [&'static str])>> {
    let mut cmd = Command::new(util::cargo_bin());
    cmd.args(["test", "--no-run", "--message-format=json"]);
    for (c, _) in CRATES {
        cmd.args(["-p", c]);
    }
    cmd.current_dir(util::root()).stderr(Stdio::inherit());
    eprintln!("$ {cmd:?}");
    let out = cmd
        .output()
        .map_err(|e| format!("cannot run cargo test --no-run: {e}"))?;
    if !out.status.success() {
        return Err(format!("cargo test --no-run failed: {}", out.status));
    }
    let mut found = Vec::new();
    for line in String::from_utf8_lossy(&out.stdout).lines() {
        let Ok(msg) = serde_json::from_str::<serde_json::Value>(line) else {
            continue;
        };
        if msg["reason"] != "compiler-artifact" || msg["profile"]["test"] != true {
            continue;
        }
        let Some(exe) = msg["executable"].as_str() else {
            continue;
        };
        // Only the packages named with `-p` are built as tests, so every
        // test-profile artifact is one of theirs.
        let name = msg["target"]["name"].as_str().unwrap_or("?");
        let package = msg["package_id"].as_str().unwrap_or("");
        let filters = CRATES
            .iter()
            .find(|(c, _)| package_name_is(package, c))
            .map_or(&[][..], |(_, f)| *f);
        found.push((name.to_string(), exe.to_string(), filters));
    }
    Ok(found)
}
