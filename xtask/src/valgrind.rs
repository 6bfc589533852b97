//! `cargo xtask valgrind`: the utf8-simd and varint test binaries under
//! valgrind's memcheck, with every memcheck error fatal.
//!
//! Miri cannot be installed here; memcheck is the next best thing that can. It
//! runs the real machine code (SSE4.2 and AVX2 included: valgrind 3.19 emulates
//! both, so runtime dispatch picks the same kernels as on the bare CPU) and
//! flags reads of uninitialised memory and reads outside heap blocks. It does
//! not see an over-read that stays inside a larger allocation; the guard-page
//! tests (`tests/guard_page.rs` in the codec crates) cover that case.
//!
//! ```text
//! cargo xtask valgrind                       every test in both crates
//! cargo xtask valgrind -- --skip exhaustive  extra arguments for the test binaries
//! ```
//!
//! The tests are the `cargo test` build (opt-level 2, debug info, debug
//! assertions), so memcheck's reports name source lines.

use crate::util::{self, Result};
use std::process::{Command, Stdio};
use std::time::Instant;

/// The crates whose test binaries run under memcheck: the one with `unsafe`
/// SIMD code, and the one whose decoders walk untrusted lengths.
const CRATES: &[&str] = &["utf8-simd", "varint"];

/// The exit code memcheck uses when it found errors, distinct from a failing
/// test's 101.
const ERROR_EXIT: &str = "97";

pub(crate) fn run(args: &[String]) -> Result {
    let test_args: Vec<&str> = match args.iter().position(|a| a == "--") {
        Some(i) => args[i + 1..].iter().map(String::as_str).collect(),
        None if args.is_empty() => Vec::new(),
        None => return Err(format!("valgrind: unexpected arguments {args:?}")),
    };
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
    for (name, exe) in &binaries {
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
        .args(&test_args)
        .current_dir(util::root());
        let result = util::run(cmd);
        eprintln!("xtask valgrind: {name} took {:.0?}", t.elapsed());
        result.map_err(|e| format!("{e} (exit code {ERROR_EXIT} means memcheck found errors)"))?;
    }
    eprintln!(
        "xtask valgrind: {} test binaries clean in {:.0?}",
        binaries.len(),
        start.elapsed()
    );
    Ok(())
}

/// Builds the tests of [`CRATES`] and returns `(target name, executable)` for
/// each test binary, from cargo's JSON messages.
fn test_binaries() -> Result<Vec<(String, String)>> {
    let mut cmd = Command::new(util::cargo_bin());
    cmd.args(["test", "--no-run", "--message-format=json"]);
    for c in CRATES {
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
        found.push((name.to_string(), exe.to_string()));
    }
    Ok(found)
}
