//! `cargo xtask cross`: build every library crate, the facade and the CLI
//! for aarch64 Linux and run their tests, doc tests included, under qemu.
//!
//! These machines cannot download rustup targets, but Debian's packages make
//! a complete cross toolchain: `rustc-web` and `cargo-web` (rustc and cargo
//! at `/usr/bin`, newer than our rust-version), `libstd-rust-web-dev:arm64`
//! (the aarch64 standard library, and through it the aarch64 C library and
//! dynamic loader, so qemu needs no `-L`), `gcc-aarch64-linux-gnu` and
//! `libc6-dev-arm64-cross` (the linker and what it links against), and
//! `qemu-user` (`qemu-aarch64`, the test runner). Run as root, the task
//! installs what is missing with apt (`--no-install-recommends`, after adding
//! the arm64 architecture); otherwise it prints what is missing and skips.
//!
//! Pitfalls, each handled below:
//!
//! - rustup's `cargo` comes first on `PATH`, and its proxies would pick the
//!   rustup toolchain, which has no aarch64 standard library: the task runs
//!   `/usr/bin/cargo` with `RUSTC` and `RUSTDOC` pointing to `/usr/bin`.
//! - `qemu-aarch64 -L /usr/aarch64-linux-gnu` makes every thread spawn hang:
//!   the runner is plain `qemu-aarch64`, which finds the loader that
//!   `libc6:arm64` installs at `/lib`.
//! - Tests that start processes (the CLI's, which run the `codec` binary, and
//!   the guard-page harness, which re-runs its own test binary to watch it
//!   fault) start aarch64 executables; only the kernel's `binfmt_misc` can
//!   send those through qemu. The task registers `qemu-aarch64` for aarch64
//!   ELF files when no entry exists (as root; Debian's `qemu-user-binfmt`
//!   would do the same through systemd, which these machines do not run).
//! - qemu-user 7.2 (Debian 12) can deadlock a child forked by a test binary
//!   while the binary's other test threads run emulated code (the child,
//!   still the test binary, never reaches `exec` and waits on a futex
//!   forever). It hung codec-cli's `convert_parallel` in CI (which then ran
//!   out of time) and in 1 of 5 looped runs. The tests therefore run under cargo-nextest, one process per
//!   test, so that no other test thread runs at a fork; its `cross` profile
//!   (`.config/nextest.toml`) also ends a test that hangs after 8 minutes
//!   and retries codec-cli's tests once. `--test-threads=1` under
//!   `cargo test` would also avoid the neighbours, but took 14 min against
//!   about 4. Doc tests, which start no processes, still run under
//!   `cargo test --doc`. Where cargo-nextest is missing the task falls back
//!   to `cargo test` and says so.
//! - Emulated code runs 1.5-10 times slower than native in release builds,
//!   up to 100 times for SIMD: the tests run in release, and with
//!   `VARCODECS_EMULATED=1`, which the enumeration tests read
//!   (`codec_testdata::emulated`) to walk representative bytes instead of
//!   all 256 where a byte is not a lead (`codec_testdata::bytes`).
//!
//! Everything builds in its own target directory, `cross/` in cargo's target
//! directory (`target/cross` unless moved), so the
//! native builds are left alone. Warnings are errors, since clippy (x86-64
//! only here) never sees the aarch64 `cfg` arms.

use crate::util::{self, Result};
use std::path::Path;
use std::process::Command;
use std::time::Instant;

/// The target triple.
const TARGET: &str = "aarch64-unknown-linux-gnu";

/// The Debian packages of the lane, installed with `--no-install-recommends`.
const PACKAGES: &[&str] = &[
    "rustc-web",
    "cargo-web",
    "libstd-rust-web-dev:arm64",
    "gcc-aarch64-linux-gnu",
    "libc6-dev-arm64-cross",
    "qemu-user",
];

/// What the lane needs on disk, and the package that brings each.
const NEEDS: &[(&str, &str)] = &[
    ("/usr/bin/cargo", "cargo-web"),
    ("/usr/bin/rustc", "rustc-web"),
    ("/usr/bin/rustdoc", "rustc-web"),
    (
        "/usr/lib/rustlib/aarch64-unknown-linux-gnu/lib",
        "libstd-rust-web-dev:arm64",
    ),
    ("/lib/ld-linux-aarch64.so.1", "libc6:arm64"),
    ("/usr/bin/aarch64-linux-gnu-gcc", "gcc-aarch64-linux-gnu"),
    ("/usr/aarch64-linux-gnu/lib/crt1.o", "libc6-dev-arm64-cross"),
    ("/usr/bin/qemu-aarch64", "qemu-user"),
];

/// Where the kernel keeps its `binfmt_misc` entries.
const BINFMT: &str = "/proc/sys/fs/binfmt_misc";

/// The `binfmt_misc` entry for aarch64 ELF executables (little-endian,
/// 64-bit, `e_machine` 0xB7), as qemu's own `qemu-binfmt-conf.sh` writes it.
const BINFMT_AARCH64: &str = ":qemu-aarch64:M::\
\\x7fELF\\x02\\x01\\x01\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x02\\x00\\xb7\\x00:\
\\xff\\xff\\xff\\xff\\xff\\xff\\xff\\x00\\xff\\xff\\xff\\xff\\xff\\xff\\xff\\xff\\xfe\\xff\\xff\\xff:\
/usr/bin/qemu-aarch64:";

pub(crate) fn run(args: &[String]) -> Result {
    let split = args.iter().position(|a| a == "--").unwrap_or(args.len());
    let (ours, theirs) = args.split_at(split);
    let mut install = true;
    for a in ours {
        match a.as_str() {
            "--no-install" => install = false,
            other => return Err(format!("cross: unknown option {other:?}")),
        }
    }
    let test_args: Vec<&str> = theirs.iter().skip(1).map(String::as_str).collect();
    let start = Instant::now();

    let missing: Vec<&str> = NEEDS
        .iter()
        .filter(|(path, _)| !Path::new(path).exists())
        .map(|&(path, _)| path)
        .collect();
    if !missing.is_empty() {
        let why = format!("missing {}", missing.join(", "));
        if !install {
            return skip(&why);
        }
        if !is_root() || !Path::new("/usr/bin/apt-get").exists() {
            return skip(&format!("{why}; run as root on Debian to install them"));
        }
        eprintln!("xtask cross: {why}: installing {}", PACKAGES.join(" "));
        apt_install()?;
        eprintln!("xtask cross: installed in {:.0?}", start.elapsed());
    }
    if !binfmt_registered() {
        if !is_root() {
            return skip(
                "no binfmt_misc entry runs aarch64 programs through qemu-aarch64, and registering one needs root",
            );
        }
        register_binfmt()?;
    }

    let ready = Instant::now();
    let packages = library_packages()?;
    let target_dir = util::target_dir()?.join("cross");
    let target_dir = target_dir
        .to_str()
        .ok_or("the target directory is not UTF-8")?;
    let mut common = vec!["--release", "--locked", "--target", TARGET];
    common.extend(["--target-dir", target_dir]);
    for p in &packages {
        common.extend(["-p", p]);
    }
    // `cargo <command> <common> [-- <test args>]`.
    let cargo = |command: &[&str]| {
        let mut args = command.to_vec();
        args.extend(&common);
        if !test_args.is_empty() {
            args.push("--");
            args.extend(&test_args);
        }
        debian_cargo(&args)
    };
    if has_nextest() {
        cargo(&["nextest", "run", "--profile", "cross"])?;
        cargo(&["test", "--doc"])?;
    } else {
        eprintln!(
            "xtask cross: cargo-nextest not found; running `cargo test`, where qemu-user 7.2 can hang at a fork (see `xtask/src/cross.rs`)"
        );
        cargo(&["test"])?;
    }
    // utf8-simd without std: the NEON kernel is chosen at compile time there
    // too, and that `cfg` arm must build.
    debian_cargo(&[
        "build",
        "--release",
        "--locked",
        "--target",
        TARGET,
        "--target-dir",
        target_dir,
        "-p",
        "utf8-simd",
        "--no-default-features",
    ])?;
    eprintln!(
        "xtask cross: {} crates built and tested on {TARGET} under qemu in {:.0?} ({:.0?} with the set-up)",
        packages.len(),
        ready.elapsed(),
        start.elapsed()
    );
    Ok(())
}

/// Says why the lane does not run, and succeeds: a machine without the
/// packages (or without root to install them) is not a failure of the code.
fn skip(why: &str) -> Result {
    eprintln!("xtask cross: SKIPPED, {why}");
    Ok(())
}

/// Whether `cargo nextest` can run: the `cargo-nextest` binary is on
/// `PATH` (every machine here has it, in `/usr/local/bin`).
fn has_nextest() -> bool {
    Command::new("cargo-nextest")
        .args(["nextest", "--version"])
        .output()
        .is_ok_and(|o| o.status.success())
}

fn is_root() -> bool {
    Command::new("id")
        .arg("-u")
        .output()
        .is_ok_and(|o| o.status.success() && o.stdout.trim_ascii() == b"0")
}

fn apt_install() -> Result {
    let foreign = Command::new("dpkg")
        .arg("--print-foreign-architectures")
        .output()
        .map_err(|e| format!("dpkg: {e}"))?;
    if !String::from_utf8_lossy(&foreign.stdout)
        .lines()
        .any(|a| a.trim() == "arm64")
    {
        let mut cmd = Command::new("dpkg");
        cmd.args(["--add-architecture", "arm64"]);
        util::run(cmd)?;
    }
    let mut cmd = Command::new("apt-get");
    cmd.args(["update", "-qq"]);
    util::run(cmd)?;
    let mut cmd = Command::new("apt-get");
    cmd.args(["install", "-y", "-qq", "--no-install-recommends"])
        .args(PACKAGES)
        .env("DEBIAN_FRONTEND", "noninteractive");
    util::run(cmd)
}

/// Whether an enabled `binfmt_misc` entry sends aarch64 programs to
/// `qemu-aarch64` (ours, or one that `qemu-user-binfmt` made).
fn binfmt_registered() -> bool {
    let Ok(entries) = std::fs::read_dir(BINFMT) else {
        return false;
    };
    entries.flatten().any(|e| {
        std::fs::read_to_string(e.path()).is_ok_and(|text| {
            text.lines().next() == Some("enabled")
                && text
                    .lines()
                    .any(|l| l.starts_with("interpreter") && l.contains("qemu-aarch64"))
        })
    })
}

fn register_binfmt() -> Result {
    if !Path::new(BINFMT).join("register").exists() {
        let mut cmd = Command::new("mount");
        cmd.args(["-t", "binfmt_misc", "binfmt_misc", BINFMT]);
        util::run(cmd)?;
    }
    eprintln!("xtask cross: registering qemu-aarch64 for aarch64 programs in {BINFMT}");
    std::fs::write(Path::new(BINFMT).join("register"), BINFMT_AARCH64)
        .map_err(|e| format!("cannot register qemu-aarch64 with binfmt_misc: {e}"))?;
    if binfmt_registered() {
        Ok(())
    } else {
        Err("binfmt_misc accepted the qemu-aarch64 entry but does not list it".into())
    }
}

/// The workspace members under `crates/`: every library, the facade, the CLI
/// and the test-data crate (whose guard-page harness the others use). The
/// tools (xtask, benches) stay x86-only.
fn library_packages() -> Result<Vec<String>> {
    let out = Command::new(util::cargo_bin())
        .args(["metadata", "--format-version", "1", "--no-deps"])
        .current_dir(util::root())
        .output()
        .map_err(|e| format!("cargo metadata: {e}"))?;
    if !out.status.success() {
        return Err(format!(
            "cargo metadata failed: {}",
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    let meta: serde_json::Value =
        serde_json::from_slice(&out.stdout).map_err(|e| format!("cargo metadata: {e}"))?;
    let crates_dir = util::root().join("crates");
    let mut names: Vec<String> = meta["packages"]
        .as_array()
        .ok_or("cargo metadata: no packages")?
        .iter()
        .filter(|p| {
            p["manifest_path"]
                .as_str()
                .is_some_and(|m| Path::new(m).starts_with(&crates_dir))
        })
        .filter_map(|p| p["name"].as_str().map(String::from))
        .collect();
    names.sort();
    if names.is_empty() {
        return Err("no packages under crates/".into());
    }
    Ok(names)
}

/// Runs Debian's cargo for the aarch64 target: `/usr/bin` first on `PATH`,
/// rustup's variables removed, the linker, the runner and the emulation flag
/// set.
fn debian_cargo(args: &[&str]) -> Result {
    let path = std::env::var("PATH").unwrap_or_default();
    let target_env = TARGET.to_uppercase().replace('-', "_");
    let rustflags = match std::env::var("RUSTFLAGS") {
        Ok(flags) if !flags.is_empty() => format!("{flags} -D warnings"),
        _ => "-D warnings".to_string(),
    };
    let mut cmd = Command::new("/usr/bin/cargo");
    cmd.args(args)
        .current_dir(util::root())
        .env("PATH", format!("/usr/bin:{path}"))
        .env("RUSTC", "/usr/bin/rustc")
        .env("RUSTDOC", "/usr/bin/rustdoc")
        .env("RUSTFLAGS", rustflags)
        .env(
            format!("CARGO_TARGET_{target_env}_LINKER"),
            "aarch64-linux-gnu-gcc",
        )
        .env(format!("CARGO_TARGET_{target_env}_RUNNER"), "qemu-aarch64")
        .env("VARCODECS_EMULATED", "1")
        .env_remove("RUSTUP_TOOLCHAIN")
        .env_remove("RUSTC_WRAPPER")
        .env_remove("RUSTC_WORKSPACE_WRAPPER")
        .env_remove("CARGO");
    util::run(cmd)
}
