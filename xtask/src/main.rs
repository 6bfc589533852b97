//! Build automation for the workspace, in the `cargo xtask` convention: the
//! tasks are a Rust program, so they run wherever cargo does.
//!
//! ```text
//! cargo xtask ci            everything below that CI runs, in order
//! cargo xtask check-layers  dependency edges point down; one-codec and no_std builds
//! cargo xtask matrix        every SIMD crate's tests with +avx2, +avx512 and no default features
//! cargo xtask package       every library crate packaged as crates.io would take it
//! cargo xtask gen-tables    the UTF-8, variant, BMP and single-byte tables, derived (--check: compared)
//! cargo xtask bench         criterion benchmarks, summarised into docs/benchmarks.md
//! cargo xtask exhaustive    proofs by enumeration (docs/reliability.md)
//! cargo xtask fuzz          every cargo-fuzz target for a fixed time
//! cargo xtask docs-rs       the docs as docs.rs builds them, feature badges checked
//! cargo xtask valgrind      utf8-simd's, varint's and transcode's guard tests under memcheck
//! cargo xtask cross         the libraries' tests on aarch64, under qemu
//! cargo xtask detect-score  `codec detect` and uchardet scored on labelled text
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
mod detect_score;
mod docsrs;
mod exhaustive;
mod exhaustive_codecs;
mod fuzz;
mod layers;
mod matrix;
mod package;
mod tables;
mod util;
mod valgrind;

use std::process::ExitCode;

const HELP: &str = "\
usage: cargo xtask <task>

tasks:
  ci              everything CI checks, in order: fmt, clippy, test, doc,
                  bench build, check-layers, matrix, package,
                  gen-tables --check, exhaustive --quick, valgrind, docs-rs,
                  fuzz --check, cross
  check-layers    dependency edges only point down the layers (codec-core,
                  codec-arch, codecs, ...); codec-core plus
                  one codec, and the facade with one feature, build on their
                  own; codec-core builds with no_std (baseline and +avx2)
  matrix          the tests of every crate with SIMD kernels (utf8-simd,
                  utf8-dfa, transcode, varint, utf8-variants, encodings)
                  built with -C target-feature=+avx2,+bmi2 and with
                  codec-arch's avx512 level (+avx512f,+avx512bw,+avx512cd,
                  +avx512vl, ...; skipped where the CPU lacks them), and
                  each crate alone with --no-default-features (unit and
                  integration tests; not encodings, which always needs
                  std); each configuration in target/ci-<name>
  package         `cargo package` of every publishable crate: the manifests,
                  names and files crates.io would get, each built from its
                  package
  gen-tables [--check | --variants | --markdown | --encodings]
                  derive the utf8-dfa DFA table and the utf8-simd nibble
                  tables from RFC 3629 and the Keiser–Lemire error classes and
                  print them as Rust source; --variants prints the CESU-8,
                  MUTF-8 and WTF-8 tables (utf8-variants) and utf8-simd's
                  BMP tables; --check compares all of these, and the
                  single-byte tables of crates/encodings/src/tables.rs (those
                  whose source is on this machine), with the crates'
                  constants, names every entry that differs, and re-runs the
                  proofs that each SIMD check equals its DFA; --markdown
                  prints the tables docs/tables.md quotes; --encodings writes
                  crates/encodings/src/tables.rs from encoding_rs and glibc's
                  charmaps
  bench [--quick] [--avx2-build] [--align-branches] [FILTER]
                  run the criterion benchmarks (all, or those whose id contains
                  FILTER, e.g. utf8 or varint-decode), print a summary with
                  ratios to std / simdutf8 / prost, and write
                  docs/benchmarks.md and docs/benchmarks.svg; --quick takes
                  about a minute; --avx2-build runs the varint_avx2 bench
                  built with -C target-feature=+avx2,+bmi2 in its own target
                  directory and writes docs/benchmarks-avx2-bmi2.md;
                  --align-branches builds with no jump on a 32-byte
                  boundary (Skylake's JCC erratum) in its own target
                  directory and writes docs/benchmarks-aligned-branches.md
  exhaustive [--quick] [--threads N]
                  every UTF-8 validator equals std on all inputs of 1-4 bytes,
                  scalar values, legacy mode, zigzag and varint round trips
                  (--quick: the CI subset; see docs/reliability.md)
  docs-rs         the library crates documented as docs.rs does (nightly,
                  --cfg docsrs, all features, warnings denied), and the
                  feature badges of gated items checked; skipped without
                  nightly
  fuzz [--seconds N] [--parallel J] [TARGET...]
                  run each cargo-fuzz target in fuzz/ for N seconds (default
                  60); needs nightly and cargo-fuzz
  valgrind [--full] [-- TEST ARGS]
                  the utf8-simd and varint test binaries and transcode's
                  guard-page tests under valgrind memcheck, errors fatal;
                  --full includes the enumeration tests it skips by default
  cross [--no-install] [-- TEST ARGS]
                  build every crate under crates/ for aarch64-unknown-linux-gnu
                  with Debian's cross toolchain and run their tests, doc tests
                  included, under qemu-aarch64 in release mode (target/cross);
                  as root, installs the Debian packages it lacks first,
                  otherwise says why it skips
  detect-score [--verbose]
                  build labelled text (every language of
                  crates/encodings/tests/data/languages, or ../shared's
                  corpora, in each legacy encoding iconv can write it in,
                  UTF-8 and UTF-16 with and without a BOM; about 100 B,
                  1, 16 and 64 KiB) in a temporary directory and print how
                  often `codec detect` and uchardet name a right encoding,
                  per encoding and size (docs/results/encodings.md)
  help            this text
";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.first().map(String::as_str) {
        Some("ci") => ci(),
        Some("check-layers") => layers::check(),
        Some("matrix") => matrix::run(&args[1..]),
        Some("package") => package::run(&args[1..]),
        Some("gen-tables") => tables::run(&args[1..]),
        Some("bench") => bench::run(&args[1..]),
        Some("exhaustive") => exhaustive::run(&args[1..]),
        Some("fuzz") => fuzz::run(&args[1..]),
        Some("docs-rs") => docsrs::run(&args[1..]),
        Some("valgrind") => valgrind::run(&args[1..]),
        Some("cross") => cross::run(&args[1..]),
        Some("detect-score") => detect_score::run(&args[1..]),
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

/// One step of `cargo xtask ci`.
type Step = (&'static str, fn() -> util::Result);

/// Everything CI runs, in order; each step's time is printed at the end, so
/// the budget (45 minutes on two cores) can be watched.
const CI_STEPS: &[Step] = &[
    ("fmt", || util::cargo(&["fmt", "--all", "--check"])),
    ("clippy", || {
        util::cargo(&[
            "clippy",
            "--workspace",
            "--all-targets",
            "--",
            "-D",
            "warnings",
        ])
    }),
    // About 5 minutes on two idle cores; a hang is killed at 30.
    ("test", || {
        let mut cmd = std::process::Command::new(util::cargo_bin());
        cmd.args(["test", "--workspace"]).current_dir(util::root());
        util::run_with_limit(cmd, std::time::Duration::from_secs(30 * 60))
    }),
    ("doc", || {
        util::cargo_env(
            &["doc", "--workspace", "--no-deps"],
            &[("RUSTDOCFLAGS", "-D warnings")],
        )
    }),
    // The benchmarks build and link (clippy has type-checked them); the
    // dev profile reuses the test step's dependencies, where the bench
    // profile rebuilt all of them (7 minutes of CI).
    ("bench build", || {
        util::cargo(&["build", "--workspace", "--benches"])
    }),
    ("check-layers", layers::check),
    ("matrix", || matrix::run(&[])),
    ("package", || package::run(&[])),
    ("gen-tables --check", || {
        tables::run(&["--check".to_string()])
    }),
    // The CI subset of the exhaustive proofs (about five minutes with its
    // build on two idle cores; the full run takes about 21 minutes,
    // docs/reliability.md), then memcheck over the SIMD crates' test
    // binaries.
    ("exhaustive --quick", || {
        exhaustive::run(&["--quick".to_string()])
    }),
    ("valgrind", || valgrind::run(&[])),
    // The docs as docs.rs builds them, feature badges checked (nightly;
    // skipped without it).
    ("docs-rs", || docsrs::run(&[])),
    // Every fuzz target compiles (nightly; skipped without it).
    ("fuzz --check", || fuzz::run(&["--check".to_string()])),
    // The aarch64 lane: the NEON kernel and every library's tests under
    // qemu (about 13 minutes of two idle cores, the Debian install
    // included; it skips, saying why, where it cannot install).
    ("cross", || cross::run(&[])),
];

fn ci() -> util::Result {
    let start = std::time::Instant::now();
    let mut times = Vec::new();
    for &(name, step) in CI_STEPS {
        eprintln!("== xtask ci: {name}");
        let t = std::time::Instant::now();
        step()?;
        times.push((name, t.elapsed()));
    }
    eprintln!("xtask ci: all steps passed in {:.0?}", start.elapsed());
    for (name, took) in times {
        eprintln!("  {took:>8.1?}  {name}");
    }
    Ok(())
}
