//! `cargo xtask matrix`: the configurations the SIMD crates branch on,
//! each built and tested.
//!
//! `cargo test --workspace` builds for the baseline x86-64 target, where
//! every kernel is chosen at run time. The crates also have code that only
//! a build with other target features compiles (the AVX-512 kernel called
//! directly, with no dispatch, under codec-arch's whole `avx512` level;
//! the
//! `cfg(target_feature)` arms of the short paths under `+avx2`), and they
//! build without their `std` feature. This task runs each SIMD crate's tests
//! in each of those configurations, in its own target directory (so the
//! main build's cache is not thrown away by a change of `RUSTFLAGS`), and
//! skips, with a printed note, a configuration whose instructions this CPU
//! cannot run.
//!
//! Without default features each crate is tested on its own: cargo unifies
//! the features of the packages one command selects, so in a shared
//! command the encodings crate (which needs `std` of utf8-simd, transcode
//! and utf8-variants) would switch `std` back on for the others.

use crate::util::{self, Result};
use std::process::Command;
use std::time::Instant;

/// The crates with SIMD kernels (or, in utf8-dfa, a BMI2 copy of the fast
/// pass chosen at run time), by package name, each with whether it has a
/// `std` feature to turn off (the encodings crate always needs `std`).
const SIMD_CRATES: &[(&str, bool)] = &[
    ("utf8-simd", true),
    ("utf8-dfa", true),
    ("varcodecs-transcode", true),
    ("varcodecs-varint", true),
    ("utf8-variants", true),
    ("varcodecs-encodings", false),
];

/// One configuration: a name (also its target directory), the `RUSTFLAGS`,
/// extra `cargo test` arguments, the CPU features the resulting binary
/// needs to run, and whether each crate is tested in a command of its own
/// (for feature sets that cargo's unification would otherwise undo).
struct Config {
    name: &'static str,
    rustflags: &'static str,
    args: &'static [&'static str],
    needs: &'static [&'static str],
    one_crate_at_a_time: bool,
}

const CONFIGS: &[Config] = &[
    Config {
        name: "avx2",
        rustflags: "-C target-feature=+avx2,+bmi2",
        args: &[],
        needs: &["avx2", "bmi2"],
        one_crate_at_a_time: false,
    },
    Config {
        name: "avx512",
        // codec-arch's `avx512` level, all of it: utf8-simd calls its
        // AVX-512 kernel directly only when every feature of the level is on.
        rustflags: "-C target-feature=+avx512f,+avx512bw,+avx512cd,+avx512vl,+avx2,+bmi1,+bmi2,+popcnt",
        args: &[],
        needs: &[
            "avx512f", "avx512bw", "avx512cd", "avx512vl", "avx2", "bmi1", "bmi2", "popcnt",
        ],
        one_crate_at_a_time: false,
    },
    Config {
        name: "no-default-features",
        rustflags: "",
        // Unit and integration tests, not the doc tests: the examples are
        // written for the default features (several use the allocating
        // conversions), and the other configurations run them.
        args: &["--no-default-features", "--lib", "--tests"],
        needs: &[],
        one_crate_at_a_time: true,
    },
];

/// Whether this CPU has `feature` (an x86 `target_feature` name).
fn cpu_has(feature: &str) -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        match feature {
            "avx2" => std::arch::is_x86_feature_detected!("avx2"),
            "bmi2" => std::arch::is_x86_feature_detected!("bmi2"),
            "avx512f" => std::arch::is_x86_feature_detected!("avx512f"),
            "avx512bw" => std::arch::is_x86_feature_detected!("avx512bw"),
            "avx512cd" => std::arch::is_x86_feature_detected!("avx512cd"),
            "avx512vl" => std::arch::is_x86_feature_detected!("avx512vl"),
            "bmi1" => std::arch::is_x86_feature_detected!("bmi1"),
            "popcnt" => std::arch::is_x86_feature_detected!("popcnt"),
            _ => false,
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        let _ = feature;
        false
    }
}

pub(crate) fn run(args: &[String]) -> Result {
    if let Some(a) = args.first() {
        return Err(format!("matrix: unknown argument {a:?}"));
    }
    let target = util::target_dir()?;
    let start = Instant::now();
    for config in CONFIGS {
        let missing: Vec<&str> = config
            .needs
            .iter()
            .copied()
            .filter(|f| !cpu_has(f))
            .collect();
        if !missing.is_empty() {
            eprintln!(
                "xtask matrix: skipping {} (this CPU lacks {})",
                config.name,
                missing.join(", ")
            );
            continue;
        }
        let test = |crates: &[&str]| {
            let mut cmd = Command::new(util::cargo_bin());
            cmd.arg("test").current_dir(util::root());
            for c in crates {
                cmd.args(["-p", c]);
            }
            cmd.args(config.args)
                .env(
                    "CARGO_TARGET_DIR",
                    target.join(format!("ci-{}", config.name)),
                )
                .env("RUSTFLAGS", config.rustflags);
            util::run(cmd)
        };
        if config.one_crate_at_a_time {
            for &(c, has_std) in SIMD_CRATES {
                if has_std {
                    test(&[c])?;
                }
            }
        } else {
            let all: Vec<&str> = SIMD_CRATES.iter().map(|&(c, _)| c).collect();
            test(&all)?;
        }
    }
    eprintln!(
        "xtask matrix: {} configurations in {:.0?}",
        CONFIGS.len(),
        start.elapsed()
    );
    Ok(())
}
