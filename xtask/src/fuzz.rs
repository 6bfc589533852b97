//! `cargo xtask fuzz`: every cargo-fuzz target in `fuzz/`, each for a fixed
//! time, with a summary of how long each ran and what it found.
//!
//! ```text
//! cargo xtask fuzz                      every target, 60 s each, one at a time
//! cargo xtask fuzz --seconds 600        ten minutes each
//! cargo xtask fuzz --parallel 2 a b     targets a and b side by side
//! cargo xtask fuzz --check              type-check every target (CI)
//! ```
//!
//! cargo-fuzz needs the nightly toolchain (for `-Zsanitizer=address`) and the
//! `cargo-fuzz` binary (`cargo install cargo-fuzz`); this task runs it through
//! `rustup run nightly`, since the repository's `rust-toolchain.toml` pins
//! stable. Targets are built the cargo-fuzz way: optimised, with debug
//! assertions, overflow checks and AddressSanitizer, so an arithmetic overflow
//! or a read one byte past libFuzzer's exactly-sized input buffer is a finding.
//!
//! Corpora grow in `fuzz/corpus/<target>/` and findings land in
//! `fuzz/artifacts/<target>/`; both are in `.gitignore`. A finding makes the
//! task fail; turn it into a regression test before fixing it.

use crate::util::{self, Result};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// Seeds written into an empty corpus so the fuzzer starts from real UTF-8
/// and real varints rather than from nothing.
fn seeds(target: &str) -> Vec<Vec<u8>> {
    let kuhn =
        std::fs::read(util::root().join("testdata/conformance/UTF-8-test.txt")).unwrap_or_default();
    let mut out = vec![
        "héllo wörld 吕 😀".as_bytes().to_vec(),
        b"\xF0\x9F\x98".to_vec(),
        b"\xED\xA0\x80 surrogate".to_vec(),
    ];
    if target.starts_with("varint") || target.starts_with("cli") {
        out.push(vec![0x96, 0x01]);
        out.push(vec![0xFF; 10]);
        out.push(b"96 01 ff ff ff ff ff ff ff ff ff 01".to_vec());
        // A few hundred varints of every length, so the bulk kernels'
        // 32-byte windows are reached from the first run.
        let mut stream = Vec::new();
        let mut x = 0x9E37_79B9_7F4A_7C15u64;
        for _ in 0..200 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let mut v = x >> (x % 64);
            while v >= 0x80 {
                stream.push(v as u8 | 0x80);
                v >>= 7;
            }
            stream.push(v as u8);
        }
        out.push(stream);
    } else {
        out.push(kuhn);
    }
    out
}

struct Options {
    seconds: u64,
    parallel: usize,
    targets: Vec<String>,
}

fn parse(args: &[String]) -> Result<Options> {
    let mut opts = Options {
        seconds: 60,
        parallel: 1,
        targets: Vec::new(),
    };
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let mut value = |name: &str| -> Result<u64> {
            it.next()
                .and_then(|v| v.parse().ok())
                .ok_or(format!("{name} needs a number"))
        };
        match a.as_str() {
            "--seconds" => opts.seconds = value("--seconds")?,
            "--parallel" => opts.parallel = value("--parallel")?.max(1) as usize,
            t if !t.starts_with('-') => opts.targets.push(t.to_string()),
            other => return Err(format!("fuzz: unknown option {other:?}")),
        }
    }
    Ok(opts)
}

fn fuzz_dir() -> PathBuf {
    util::root().join("fuzz")
}

/// `cargo fuzz <args>` under nightly, in the workspace root.
fn cargo_fuzz(args: &[&str]) -> Command {
    util::nightly_cargo(&util::root(), &[&["fuzz"], args].concat())
}

/// The target names, from `cargo fuzz list`.
fn list() -> Result<Vec<String>> {
    let out = cargo_fuzz(&["list"])
        .stderr(Stdio::inherit())
        .output()
        .map_err(|e| format!("cannot run cargo fuzz: {e}"))?;
    if !out.status.success() {
        return Err(
            "`rustup run nightly cargo fuzz list` failed: is the nightly toolchain \
             installed, and cargo-fuzz (`cargo install cargo-fuzz`)?"
                .into(),
        );
    }
    Ok(String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .map(String::from)
        .collect())
}

struct Running {
    target: String,
    child: Child,
    start: Instant,
    log: PathBuf,
}

/// `cargo xtask fuzz --check`: type-checks every target (`cargo check
/// --bins` in `fuzz/` under nightly), so that an API change that breaks a
/// target fails CI rather than the next fuzzing session (`cli_varint_hex`
/// did not compile for a wave that way). Skips, saying why, where there is
/// no nightly toolchain.
fn check() -> Result {
    if !util::has_nightly() {
        eprintln!("fuzz --check: skipped: no nightly toolchain (`rustup run nightly`)");
        return Ok(());
    }
    let cmd = util::nightly_cargo(&fuzz_dir(), &["check", "--bins", "--quiet"]);
    util::run(cmd)
}

pub(crate) fn run(args: &[String]) -> Result {
    if args == ["--check"] {
        return check();
    }
    let opts = parse(args)?;
    let all = list()?;
    let targets = if opts.targets.is_empty() {
        all.clone()
    } else {
        for t in &opts.targets {
            if !all.contains(t) {
                return Err(format!("no fuzz target {t:?}; targets: {all:?}"));
            }
        }
        opts.targets.clone()
    };
    // Build everything once up front, so the timed runs are fuzzing time.
    util::run(cargo_fuzz(&["build"]))?;
    let logs = fuzz_dir().join("artifacts").join("logs");
    std::fs::create_dir_all(&logs).map_err(|e| format!("{}: {e}", logs.display()))?;

    let mut queue = targets.iter();
    let mut running: Vec<Running> = Vec::new();
    let mut results: Vec<(String, Duration, String)> = Vec::new();
    loop {
        while running.len() < opts.parallel {
            let Some(t) = queue.next() else { break };
            running.push(start(t, opts.seconds, &logs)?);
        }
        if running.is_empty() {
            break;
        }
        std::thread::sleep(Duration::from_millis(500));
        let mut i = 0;
        while i < running.len() {
            if let Some(status) = running[i]
                .child
                .try_wait()
                .map_err(|e| format!("waiting for the fuzzer: {e}"))?
            {
                let r = running.swap_remove(i);
                let took = r.start.elapsed();
                let summary = summarise(&r.log, status.success());
                eprintln!(
                    "xtask fuzz: {} finished after {took:.0?}: {summary}",
                    r.target
                );
                results.push((r.target, took, summary));
            } else {
                i += 1;
            }
        }
    }

    eprintln!(
        "\nxtask fuzz summary ({} s requested per target):",
        opts.seconds
    );
    let mut failed = false;
    for (t, took, summary) in &results {
        failed |= !summary.starts_with("ok");
        eprintln!("  {t:<24} {:>6.0?}  {summary}", took);
    }
    if failed {
        Err(format!(
            "a fuzz target found a problem; see {} and the logs there",
            fuzz_dir().join("artifacts").display()
        ))
    } else {
        Ok(())
    }
}

fn start(target: &str, seconds: u64, logs: &Path) -> Result<Running> {
    let corpus = fuzz_dir().join("corpus").join(target);
    let empty = std::fs::read_dir(&corpus).map_or(true, |mut d| d.next().is_none());
    if empty {
        std::fs::create_dir_all(&corpus).map_err(|e| format!("{}: {e}", corpus.display()))?;
        for (i, seed) in seeds(target).iter().enumerate() {
            let path = corpus.join(format!("seed-{i}"));
            std::fs::write(&path, seed).map_err(|e| format!("{}: {e}", path.display()))?;
        }
    }
    let log = logs.join(format!("{target}.log"));
    let file = std::fs::File::create(&log).map_err(|e| format!("{}: {e}", log.display()))?;
    let total = format!("-max_total_time={seconds}");
    let mut cmd = cargo_fuzz(&[
        "run",
        target,
        "--",
        &total,
        // Inputs up to 2 KiB: many 64-byte SIMD blocks, and the Kuhn seed
        // cut to size; longer inputs only slow the search down.
        "-max_len=2048",
        // One process per target (no -jobs: it forks workers that log to
        // fuzz-N.log in the working directory); --parallel runs targets side
        // by side instead.
        "-print_final_stats=1",
    ]);
    cmd.stdout(file.try_clone().map_err(|e| e.to_string())?)
        .stderr(file);
    eprintln!("$ {cmd:?}  > {}", log.display());
    let child = cmd
        .spawn()
        .map_err(|e| format!("cannot start {target}: {e}"))?;
    Ok(Running {
        target: target.to_string(),
        child,
        start: Instant::now(),
        log,
    })
}

/// One line about a finished run: executions, coverage, corpus size, and
/// the crash line if there was one.
fn summarise(log: &Path, success: bool) -> String {
    let text = std::fs::read_to_string(log).unwrap_or_default();
    let stat = |key: &str| {
        text.lines()
            .rev()
            .find(|l| l.starts_with(key))
            .and_then(|l| l.rsplit(':').next())
            .map(|v| v.trim().to_string())
            .unwrap_or_else(|| "?".into())
    };
    let cov = text
        .lines()
        .rev()
        .find(|l| l.contains(" cov: "))
        .and_then(|l| l.split(" cov: ").nth(1))
        .and_then(|v| v.split_whitespace().next())
        .unwrap_or("?");
    let stats = format!(
        "{} execs, {} exec/s, cov {cov}",
        stat("stat::number_of_executed_units"),
        stat("stat::average_exec_per_sec")
    );
    if success {
        format!("ok: {stats}")
    } else {
        let why = text
            .lines()
            .find(|l| {
                l.contains("panicked at")
                    || l.contains("ERROR: AddressSanitizer")
                    || l.contains("ERROR: libFuzzer")
                    || l.contains("SUMMARY:")
            })
            .unwrap_or("see the log");
        format!("FINDING: {why} ({stats}; log {})", log.display())
    }
}
