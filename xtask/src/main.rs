//! Build automation for the workspace, in the `cargo xtask` convention: the
//! tasks are a Rust program, so they run wherever cargo does.
//!
//! ```text
//! cargo xtask ci            fmt, clippy, tests, docs, benches compile, layering
//! cargo xtask check-layers  dependency edges point down; one-codec and no_std builds
//! cargo xtask gen-tables    the DFA and nibble tables, derived (--check: compared)
//! cargo xtask bench         criterion benchmarks, summarised into docs/benchmarks.md
//! cargo xtask exhaustive    proofs by enumeration (docs/reliability.md)
//! cargo xtask fuzz          every cargo-fuzz target for a fixed time
//! cargo xtask valgrind      utf8-simd and varint tests under memcheck
//! cargo xtask cross         the libraries' tests on aarch64, under qemu
//! ```

// A build tool: a panic is a report to the developer running it.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::unreachable
)]

mod bench;
mod cross;
mod exhaustive;
mod exhaustive_codecs;
mod fuzz;
mod layers;
mod tables;
mod util;
mod valgrind;

use std::process::ExitCode;

const HELP: &str = "\
usage: cargo xtask <task>

tasks:
  ci              everything CI checks, in order: fmt, clippy, test, doc,
                  bench --no-run, check-layers, gen-tables --check,
                  exhaustive --quick, valgrind, cross
  check-layers    dependency edges only point down the layers; codec-core plus
                  one codec, and the facade with one feature, build on their
                  own; codec-core builds with no_std
  gen-tables [--check]
                  derive the utf8-dfa DFA table and the utf8-simd nibble
                  tables from RFC 3629 and the Keiser–Lemire error classes and
                  print them as Rust source; --check compares them with the
                  crates' constants and names every entry that differs;
                  --markdown prints the tables docs/tables.md quotes
  bench [--quick] [FILTER]
                  run the criterion benchmarks (all, or those whose id contains
                  FILTER, e.g. utf8 or varint-decode), print a summary with
                  ratios to std / simdutf8 / prost, and write
                  docs/benchmarks.md and docs/benchmarks.svg; --quick takes
                  about a minute
  exhaustive [--quick] [--threads N]
                  every UTF-8 validator equals std on all inputs of 1-4 bytes,
                  scalar values, legacy mode, zigzag and varint round trips
                  (--quick: the CI subset; see docs/reliability.md)
  fuzz [--seconds N] [--parallel J] [TARGET...]
                  run each cargo-fuzz target in fuzz/ for N seconds (default
                  60); needs nightly and cargo-fuzz
  valgrind [--full] [-- TEST ARGS]
                  the utf8-simd and varint test binaries under valgrind
                  memcheck, errors fatal; --full includes the enumeration
                  tests it skips by default
  cross [--no-install] [-- TEST ARGS]
                  build every crate under crates/ for aarch64-unknown-linux-gnu
                  with Debian's cross toolchain and run their tests, doc tests
                  included, under qemu-aarch64 in release mode (target/cross);
                  as root, installs the Debian packages it lacks first,
                  otherwise says why it skips
  help            this text
";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.first().map(String::as_str) {
        Some("ci") => ci(),
        Some("check-layers") => layers::check(),
        Some("gen-tables") => tables::run(&args[1..]),
        Some("bench") => bench::run(&args[1..]),
        Some("exhaustive") => exhaustive::run(&args[1..]),
        Some("fuzz") => fuzz::run(&args[1..]),
        Some("valgrind") => valgrind::run(&args[1..]),
        Some("cross") => cross::run(&args[1..]),
        Some("help" | "--help" | "-h") => {
            print!("{HELP}");
            Ok(())
        }
        Some(other) => {
            eprint!("unknown task {other:?}\n\n{HELP}");
            return ExitCode::from(2);
        }
        None => {
            eprint!("{HELP}");
            return ExitCode::from(2);
        }
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("xtask: {e}");
            ExitCode::FAILURE
        }
    }
}

fn ci() -> util::Result {
    let start = std::time::Instant::now();
    util::cargo(&["fmt", "--all", "--check"])?;
    util::cargo(&[
        "clippy",
        "--workspace",
        "--all-targets",
        "--",
        "-D",
        "warnings",
    ])?;
    util::cargo(&["test", "--workspace"])?;
    util::cargo_env(
        &["doc", "--workspace", "--no-deps"],
        &[("RUSTDOCFLAGS", "-D warnings")],
    )?;
    util::cargo(&["bench", "--workspace", "--no-run"])?;
    layers::check()?;
    tables::run(&["--check".to_string()])?;
    // The CI subset of the exhaustive proofs (about a minute on two idle
    // cores; the full run takes about 21 minutes, docs/reliability.md), then
    // memcheck over the utf8-simd and varint test binaries.
    exhaustive::run(&["--quick".to_string()])?;
    valgrind::run(&[])?;
    // The aarch64 lane: NEON kernel and every library's tests under qemu
    // (about 6 minutes on two busy cores, install included).
    cross::run(&[])?;
    eprintln!("xtask ci: all steps passed in {:.0?}", start.elapsed());
    Ok(())
}
