//! `cargo xtask bench [--quick] [FILTER]`: runs the criterion benchmarks of
//! `benches/`, prints one summary table, and writes `docs/benchmarks.md`
//! and the plot `docs/benchmarks.svg`.
//!
//! The summary relies only on the naming convention every benchmark follows
//! (group `<crate>-<operation>`, `BenchmarkId::new(<implementation>,
//! <input>)`), so new groups appear without changes here. Each
//! implementation is compared with a baseline measured in the same group and
//! run: `simdutf8-compat` (or `simdutf8-basic`) in `utf8-simd` groups,
//! `utf8-simd` in `utf8-variants-validate`, `simd_cesu8` in the other
//! `utf8-variants` groups, `simdutf` in `transcode` groups, `std` in other
//! UTF-8 groups, `prost` in varint groups (`svb` in the Stream VByte ones, our
//! `leb128-bulk` in the Group Varint ones), `std` elsewhere.
//!
//! Criterion 0.8 writes, for each benchmark,
//! `target/criterion/<group>/<function>/<value>/new/benchmark.json` (the
//! ids and the throughput) and `estimates.json` (mean, median, slope… in
//! ns per iteration) beside it; folders named `base` hold the previous run.
//! We read the median, which the other engineers' compiles on this shared
//! machine disturb least, and only files written by this run.

use crate::util::{self, Result};
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::Path;
use std::process::Command;
use std::time::{Duration, SystemTime};

/// The time budget of `--quick`, spread over every selected benchmark.
/// Criterion's own work (analysis, files) adds about a third on top.
const QUICK_BUDGET_SECS: f64 = 30.0;

/// How many inputs of each group `--quick` measures.
const QUICK_INPUTS_PER_GROUP: usize = 5;

/// One benchmark result.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Measurement {
    pub(crate) group: String,
    pub(crate) implementation: String,
    pub(crate) input: String,
    /// Median time per iteration, in nanoseconds.
    pub(crate) ns: f64,
    pub(crate) throughput: Throughput,
}

/// What one iteration processes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Throughput {
    Bytes(u64),
    Elements(u64),
    None,
}

impl Measurement {
    /// The figure shown: GB/s for bytes, ns per value for elements, ns per
    /// iteration otherwise.
    pub(crate) fn figure(&self) -> (f64, &'static str) {
        match self.throughput {
            Throughput::Bytes(n) => (n as f64 / self.ns, "GB/s"),
            Throughput::Elements(n) => (self.ns / n.max(1) as f64, "ns/value"),
            Throughput::None => (self.ns, "ns/iter"),
        }
    }
}

/// The command line.
pub(crate) fn run(args: &[String]) -> Result {
    let mut quick = false;
    let mut avx2_build = false;
    let mut align_branches = false;
    let mut filter = None;
    for a in args {
        match a.as_str() {
            "--quick" => quick = true,
            "--avx2-build" => avx2_build = true,
            "--align-branches" => align_branches = true,
            f if !f.starts_with('-') && filter.is_none() => filter = Some(f.to_string()),
            other => {
                return Err(format!(
                    "bench: unexpected argument {other:?}\nusage: cargo xtask bench [--quick] [--avx2-build] [--align-branches] [FILTER]"
                ));
            }
        }
    }
    let root = util::root();
    let started = SystemTime::now();
    // `--avx2-build`: the varint_avx2 bench, compiled for AVX2 and BMI2 in a
    // target directory of its own (varint-simd's fast paths exist only in
    // such a build), its summary written beside the main one.
    // `--align-branches`: no jump crosses or ends on a 32-byte boundary.
    // Intel CPUs from Skylake to Cascade Lake with the JCC-erratum microcode
    // cannot cache such code in the µop cache; tight loops (one varint per
    // iteration) then swing by up to 3× with code placement alone, which
    // decides rankings on those CPUs (docs/results/varint.md).
    let mut env: Vec<(String, String)> = Vec::new();
    let mut target = util::target_dir()?;
    let mut flags: Vec<&str> = Vec::new();
    let mut subdir = String::new();
    if avx2_build {
        if filter.is_some() {
            return Err("bench: --avx2-build runs the varint_avx2 bench; no FILTER".into());
        }
        filter = Some("varint_avx2".into());
        flags.push("-C target-feature=+avx2,+bmi2");
        subdir.push_str("avx2-bmi2");
    }
    if align_branches {
        flags.push("-C llvm-args=-x86-branches-within-32B-boundaries");
        subdir.push_str(if subdir.is_empty() { "" } else { "-" });
        subdir.push_str("aligned-branches");
    }
    if !flags.is_empty() {
        target = target.join(&subdir);
        env.push(("RUSTFLAGS".into(), flags.join(" ")));
        env.push(("CARGO_TARGET_DIR".into(), target.display().to_string()));
    }

    // A family named after a bench file selects that file; anything else is
    // a criterion filter (a regex over `group/implementation/input`).
    let targets = bench_targets(&root.join("benches/benches"));
    let mut cargo_args: Vec<String> = vec!["bench".into(), "-p".into(), "benches".into()];
    let mut criterion_args: Vec<String> = Vec::new();
    match &filter {
        Some(f) if targets.contains(f) => cargo_args.extend(["--bench".into(), f.clone()]),
        Some(f) => criterion_args.push(f.clone()),
        None => {}
    }
    if quick {
        let ids = list_benchmarks(&cargo_args, &criterion_args, &env)?;
        let chosen = quick_selection(&ids, QUICK_INPUTS_PER_GROUP);
        let per = (QUICK_BUDGET_SECS / chosen.len().max(1) as f64).clamp(0.06, 1.5);
        eprintln!(
            "bench --quick: {} of {} benchmarks (at most {QUICK_INPUTS_PER_GROUP} inputs a group), {per:.2} s each",
            chosen.len(),
            ids.len()
        );
        criterion_args = vec![exact_regex(&chosen)];
        criterion_args.extend(quick_args(per));
    }
    let mut all = cargo_args.clone();
    all.push("--".into());
    all.extend(criterion_args);
    let refs: Vec<&str> = all.iter().map(String::as_str).collect();
    let env_refs: Vec<(&str, &str)> = env.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
    util::cargo_env(&refs, &env_refs)?;

    // File times have a coarse resolution on some systems: allow a second.
    let since = started
        .checked_sub(Duration::from_secs(1))
        .unwrap_or(started);
    // Where criterion writes: under cargo's target directory, wherever
    // CARGO_TARGET_DIR or build.target-dir put it.
    let results = collect(&target.join("criterion"), Some(since))?;
    if results.is_empty() {
        return Err("no criterion results were written (does the filter match anything?)".into());
    }
    let summary = Summary::new(results);
    print!("{}", summary.text_table());
    let machine = Environment::detect();
    let command = format!(
        "cargo xtask bench{}{}{}{}",
        if quick { " --quick" } else { "" },
        if avx2_build { " --avx2-build" } else { "" },
        if align_branches {
            " --align-branches"
        } else {
            ""
        },
        filter
            .as_deref()
            .filter(|_| !avx2_build)
            .map(|f| format!(" {f}"))
            .unwrap_or_default()
    );
    let docs = root.join("docs");
    let io = |e: std::io::Error| format!("docs/: {e}");
    let stem = if subdir.is_empty() {
        "benchmarks".to_string()
    } else {
        format!("benchmarks-{subdir}")
    };
    std::fs::write(
        docs.join(format!("{stem}.md")),
        summary.markdown(&machine, &command),
    )
    .map_err(io)?;
    std::fs::write(docs.join(format!("{stem}.svg")), summary.svg(&command)).map_err(io)?;
    eprintln!("bench: wrote docs/{stem}.md and docs/{stem}.svg");
    Ok(())
}

/// Criterion options for a run of about `secs` per benchmark: a third
/// warming up, the rest measuring ten samples, and fewer bootstrap
/// resamples (the default 100,000 takes longer than the measurement).
fn quick_args(secs: f64) -> Vec<String> {
    [
        "--warm-up-time".to_string(),
        format!("{:.3}", secs / 3.0),
        "--measurement-time".into(),
        format!("{:.3}", secs * 2.0 / 3.0),
        "--sample-size".into(),
        "10".into(),
        "--nresamples".into(),
        "1000".into(),
        "--noplot".into(),
    ]
    .into()
}

/// The bench targets: the file stems in `benches/benches/`.
fn bench_targets(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|e| {
            e.path()
                .file_stem()
                .map(|s| s.to_string_lossy().into_owned())
        })
        .collect();
    names.sort();
    names
}

/// The ids of the selected benchmarks, from criterion's `--list`.
fn list_benchmarks(
    cargo_args: &[String],
    criterion_args: &[String],
    env: &[(String, String)],
) -> Result<Vec<String>> {
    let out = Command::new(util::cargo_bin())
        .args(cargo_args)
        .arg("--")
        .arg("--list")
        .args(criterion_args)
        .envs(env.iter().map(|(k, v)| (k, v)))
        .current_dir(util::root())
        .output()
        .map_err(|e| format!("cargo bench --list: {e}"))?;
    if !out.status.success() {
        return Err(format!(
            "cargo bench --list failed:\n{}",
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    Ok(String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|l| l.strip_suffix(": benchmark"))
        .map(str::to_string)
        .collect())
}

/// The benchmarks `--quick` runs: in each group, every implementation on at
/// most `k` inputs, spread over the group's inputs in the order the bench
/// registers them (which usually runs from small to large, or over the
/// languages). With more than 600 benchmarks in the workspace, a minute
/// leaves too little time each to measure all of them.
pub(crate) fn quick_selection(ids: &[String], k: usize) -> Vec<String> {
    let parts = |id: &str| -> (String, String) {
        let mut it = id.splitn(3, '/');
        let group = it.next().unwrap_or("").to_string();
        let _implementation = it.next();
        (group, it.next().unwrap_or("").to_string())
    };
    let mut inputs: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for id in ids {
        let (group, input) = parts(id);
        let list = inputs.entry(group).or_default();
        if !list.contains(&input) {
            list.push(input);
        }
    }
    let keep: BTreeMap<String, Vec<String>> = inputs
        .into_iter()
        .map(|(group, list)| {
            let n = list.len();
            let picked = if n <= k {
                list
            } else {
                (0..k)
                    .map(|i| list[(i * (n - 1) + (k - 1) / 2) / (k - 1).max(1)].clone())
                    .collect()
            };
            (group, picked)
        })
        .collect();
    ids.iter()
        .filter(|id| {
            let (group, input) = parts(id);
            keep.get(&group).is_some_and(|l| l.contains(&input))
        })
        .cloned()
        .collect()
}

/// A regex (criterion's filter syntax) that matches exactly these ids.
pub(crate) fn exact_regex(ids: &[String]) -> String {
    let escaped: Vec<String> = ids
        .iter()
        .map(|id| {
            id.chars()
                .flat_map(|c| {
                    let special = "\\.+*?()|[]{}^$#&-~".contains(c);
                    special.then_some('\\').into_iter().chain([c])
                })
                .collect()
        })
        .collect();
    format!("^(?:{})$", escaped.join("|"))
}

/// Reads every `new/benchmark.json` under `dir` (written after `since`, if
/// given) with its `estimates.json`.
pub(crate) fn collect(dir: &Path, since: Option<SystemTime>) -> Result<Vec<Measurement>> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&d) else {
            continue;
        };
        for e in entries.flatten() {
            let path = e.path();
            if path.is_dir() {
                stack.push(path);
                continue;
            }
            let in_new = path
                .parent()
                .and_then(|p| p.file_name())
                .is_some_and(|n| n == "new");
            if !(in_new && path.file_name().is_some_and(|n| n == "benchmark.json")) {
                continue;
            }
            let estimates = path.with_file_name("estimates.json");
            let fresh = |p: &Path| {
                let modified = std::fs::metadata(p).and_then(|m| m.modified()).ok();
                since.is_none_or(|s| modified.is_some_and(|m| m >= s))
            };
            if !fresh(&estimates) {
                continue;
            }
            let read = |p: &Path| -> Result<serde_json::Value> {
                let text =
                    std::fs::read_to_string(p).map_err(|e| format!("{}: {e}", p.display()))?;
                serde_json::from_str(&text).map_err(|e| format!("{}: {e}", p.display()))
            };
            out.push(
                parse(&read(&path)?, &read(&estimates)?)
                    .map_err(|e| format!("{}: {e}", path.display()))?,
            );
        }
    }
    Ok(out)
}

/// One measurement from criterion's two files.
pub(crate) fn parse(
    benchmark: &serde_json::Value,
    estimates: &serde_json::Value,
) -> Result<Measurement> {
    let s = |v: &serde_json::Value| v.as_str().map(str::to_string);
    let group = s(&benchmark["group_id"]).ok_or("no group_id")?;
    // A benchmark registered with `bench_function` outside a group has no
    // function id: its whole id is its implementation.
    let implementation = s(&benchmark["function_id"]).unwrap_or_else(|| group.clone());
    let input = s(&benchmark["value_str"]).unwrap_or_else(|| "-".into());
    let t = &benchmark["throughput"];
    let throughput = if let Some(n) = t["Bytes"].as_u64().or(t["BytesDecimal"].as_u64()) {
        Throughput::Bytes(n)
    } else if let Some(n) = t["Bits"].as_u64() {
        Throughput::Bytes(n / 8)
    } else if let Some(n) = t["Elements"].as_u64() {
        Throughput::Elements(n)
    } else {
        Throughput::None
    };
    let ns = estimates["median"]["point_estimate"]
        .as_f64()
        .or(estimates["mean"]["point_estimate"].as_f64())
        .ok_or("no median in estimates.json")?;
    Ok(Measurement {
        group,
        implementation,
        input,
        ns,
        throughput,
    })
}

/// The implementation a group's ratios are computed against, if present.
pub(crate) fn baseline<'a>(group: &str, implementations: &[&'a str]) -> Option<&'a str> {
    let prefer: &[&str] = if group.starts_with("utf8-simd") {
        if group.contains("basic") || group.contains("is-valid") {
            &["simdutf8-basic", "simdutf8-compat", "simdutf8", "std"]
        } else {
            &["simdutf8-compat", "simdutf8-basic", "simdutf8", "std"]
        }
    } else if group.starts_with("utf8-variants-validate") {
        // UTF-8's own validation of the same text: the relatives' target.
        &["utf8-simd"]
    } else if group.starts_with("utf8-variants") {
        &["simd_cesu8", "cesu8-crate"]
    } else if group.starts_with("transcode") {
        // simdutf (C++) is the field's best; encoding_rs and std where it
        // has no such function (lossy UTF-8 → UTF-16).
        &["simdutf", "encoding_rs", "std"]
    } else if group.starts_with("varint-streamvbyte") {
        // The Stream VByte crates: svb (run-time dispatch, stable) first.
        &["svb", "stream-vbyte"]
    } else if group.starts_with("varint-groupvarint") {
        // No Rust peer: our LEB128 bulk functions on the same values.
        &["leb128-bulk"]
    } else if group.starts_with("varint") {
        &["prost", "integer-encoding", "std"]
    } else {
        &["std"]
    };
    prefer
        .iter()
        .find_map(|p| implementations.iter().find(|i| *i == p).copied())
}

/// One row of the summary.
#[derive(Clone, Debug)]
pub(crate) struct Row {
    pub(crate) m: Measurement,
    /// How many times faster than the baseline (>1 is faster).
    pub(crate) ratio: Option<f64>,
    pub(crate) is_baseline: bool,
}

/// A group's baseline, and its rows per input in input order.
pub(crate) type Group = (Option<String>, Vec<(String, Vec<Row>)>);

/// Results grouped by group, then input, baseline first.
pub(crate) struct Summary {
    /// group → (baseline name, input → rows).
    pub(crate) groups: BTreeMap<String, Group>,
}

impl Summary {
    pub(crate) fn new(results: Vec<Measurement>) -> Summary {
        let mut by_group: BTreeMap<String, Vec<Measurement>> = BTreeMap::new();
        for m in results {
            by_group.entry(m.group.clone()).or_default().push(m);
        }
        let mut groups = BTreeMap::new();
        for (group, ms) in by_group {
            let mut impls: Vec<&str> = ms.iter().map(|m| m.implementation.as_str()).collect();
            impls.sort();
            impls.dedup();
            let base = baseline(&group, &impls).map(str::to_string);
            let mut inputs: Vec<(u64, String)> = ms
                .iter()
                .map(|m| {
                    let size = match m.throughput {
                        Throughput::Bytes(n) | Throughput::Elements(n) => n,
                        Throughput::None => 0,
                    };
                    (size, m.input.clone())
                })
                .collect();
            inputs.sort();
            inputs.dedup_by(|a, b| a.1 == b.1);
            let mut per_input = Vec::new();
            for (_, input) in inputs {
                let mut here: Vec<&Measurement> = ms.iter().filter(|m| m.input == input).collect();
                let base_ns = here
                    .iter()
                    .find(|m| Some(&m.implementation) == base.as_ref())
                    .map(|m| m.ns);
                here.sort_by_key(|m| {
                    (
                        Some(&m.implementation) != base.as_ref(),
                        m.implementation.clone(),
                    )
                });
                let rows = here
                    .into_iter()
                    .map(|m| Row {
                        ratio: base_ns.map(|b| b / m.ns),
                        is_baseline: Some(&m.implementation) == base.as_ref(),
                        m: m.clone(),
                    })
                    .collect();
                per_input.push((input, rows));
            }
            groups.insert(group, (base, per_input));
        }
        Summary { groups }
    }

    /// The table printed on the terminal.
    pub(crate) fn text_table(&self) -> String {
        let mut s = String::new();
        for (group, (base, inputs)) in &self.groups {
            let _ = writeln!(
                s,
                "\n{group} (ratio: times faster than {})",
                base.as_deref().unwrap_or("-")
            );
            for (input, rows) in inputs {
                for r in rows {
                    let (value, unit) = r.m.figure();
                    let _ = writeln!(
                        s,
                        "  {input:<20} {:<20} {value:>10.3} {unit:<8} {}",
                        r.m.implementation,
                        ratio_text(r)
                    );
                }
            }
        }
        s
    }

    /// `docs/benchmarks.md`.
    pub(crate) fn markdown(&self, env: &Environment, command: &str) -> String {
        let mut s = String::new();
        let _ = writeln!(s, "# Benchmarks\n");
        let _ = writeln!(
            s,
            "Written by `{command}` on {}. Re-run it on your machine to compare: \
             only ratios within one run mean anything, and this machine was shared \
             with other builds while it ran, so expect noise of ±20%.\n",
            env.date
        );
        let _ = writeln!(s, "| | |\n|---|---|");
        let _ = writeln!(s, "| machine | {} |", env.cpu);
        let _ = writeln!(s, "| CPU features | {} |", env.features);
        let _ = writeln!(s, "| toolchain | {} |", env.rustc);
        let _ = writeln!(s, "| date | {} |\n", env.date);
        let _ = writeln!(
            s,
            "Each figure is criterion's median. GB/s for byte throughput (10⁹ bytes per \
             second), ns per value for element throughput. The ratio is how many times \
             faster than the group's baseline, measured in the same run: \
             `simdutf8-compat` (or `-basic`) in `utf8-simd` groups, `std` in other UTF-8 \
             groups, `prost` in varint groups.\n"
        );
        if command.contains("--quick") {
            let _ = writeln!(
                s,
                "`--quick` measured every implementation on at most {QUICK_INPUTS_PER_GROUP} \
                 inputs of each group, for a fraction of a second each; run `cargo xtask bench` \
                 without it for every input with criterion's default times (much longer).\n"
            );
        }
        let _ = writeln!(
            s,
            "![ratios to the baseline, per group and input](benchmarks.svg)\n"
        );
        for (group, (base, inputs)) in &self.groups {
            let _ = writeln!(s, "## {group}\n");
            let _ = writeln!(
                s,
                "Baseline: {}.\n",
                base.as_deref()
                    .map(|b| format!("`{b}`"))
                    .unwrap_or("none".into())
            );
            let unit = inputs
                .first()
                .and_then(|(_, r)| r.first())
                .map(|r| r.m.figure().1)
                .unwrap_or("");
            let _ = writeln!(
                s,
                "| input | implementation | {unit} | ratio |\n|---|---|---:|---:|"
            );
            for (input, rows) in inputs {
                for r in rows {
                    let (value, _) = r.m.figure();
                    let _ = writeln!(
                        s,
                        "| {input} | {} | {value:.3} | {} |",
                        r.m.implementation,
                        ratio_text(r)
                    );
                }
            }
            s.push('\n');
        }
        s
    }

    /// The ratios as the benches' chart (`bench_chart`, as the `*_min`
    /// benches draw theirs): one section per group, one bar per input and
    /// implementation other than the baseline, on a log scale fitted to
    /// the ratios.
    pub(crate) fn svg(&self, command: &str) -> String {
        let sections = self
            .groups
            .iter()
            .map(|(group, (_, inputs))| bench_chart::Section {
                title: group.clone(),
                bars: inputs
                    .iter()
                    .flat_map(|(input, rows)| {
                        rows.iter().filter(|r| !r.is_baseline).filter_map(|r| {
                            let ratio = r.ratio?;
                            Some(bench_chart::Bar::new(input, &r.m.implementation, ratio))
                        })
                    })
                    .collect(),
            })
            .collect();
        bench_chart::svg(&bench_chart::Chart {
            title: "Times faster than the baseline in the same group (log scale; right of 1× is faster)"
                .into(),
            note: format!("{command}: criterion's medians"),
            sections,
            range: None,
        })
    }
}

fn ratio_text(r: &Row) -> String {
    match r.ratio {
        _ if r.is_baseline => "baseline".into(),
        Some(x) => format!("{x:.2}×"),
        None => "-".into(),
    }
}

/// Where the numbers were measured.
#[derive(Debug)]
pub(crate) struct Environment {
    pub(crate) cpu: String,
    pub(crate) features: String,
    pub(crate) rustc: String,
    pub(crate) date: String,
}

impl Environment {
    pub(crate) fn detect() -> Environment {
        let cpuinfo = std::fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
        let field = |name: &str| {
            cpuinfo
                .lines()
                .find(|l| l.split(':').next().is_some_and(|k| k.trim() == name))
                .and_then(|l| l.split_once(':'))
                .map(|(_, v)| v.trim().to_string())
        };
        let cpu = field("model name").unwrap_or_else(|| std::env::consts::ARCH.into());
        let cores = cpuinfo
            .lines()
            .filter(|l| l.starts_with("processor"))
            .count();
        let flags = field("flags").unwrap_or_default();
        let flags: Vec<&str> = flags.split_whitespace().collect();
        let features: Vec<&str> = [
            ("sse4_2", "sse4.2"),
            ("avx2", "avx2"),
            ("bmi2", "bmi2"),
            ("avx512bw", "avx512bw"),
        ]
        .iter()
        .filter(|(flag, _)| flags.contains(flag))
        .map(|(_, name)| *name)
        .collect();
        let rustc = Command::new(std::env::var("RUSTC").unwrap_or_else(|_| "rustc".into()))
            .arg("--version")
            .output()
            .ok()
            .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
            .unwrap_or_else(|| "unknown rustc".into());
        let secs = SystemTime::now()
            .duration_since(SystemTime::UNIX_EPOCH)
            .map(|d| d.as_secs())
            .unwrap_or(0);
        Environment {
            cpu: if cores > 0 {
                format!("{cpu} ({cores} logical CPUs)")
            } else {
                cpu
            },
            features: if features.is_empty() {
                "none of sse4.2, avx2, bmi2".into()
            } else {
                features.join(", ")
            },
            rustc,
            date: utc_date(secs),
        }
    }
}

/// `YYYY-MM-DD HH:MM UTC` from seconds since 1970 (Howard Hinnant's
/// civil-from-days).
pub(crate) fn utc_date(secs: u64) -> String {
    let days = (secs / 86_400) as i64;
    let rem = secs % 86_400;
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!(
        "{y:04}-{m:02}-{d:02} {:02}:{:02} UTC",
        rem / 3600,
        rem % 3600 / 60
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn m(group: &str, implementation: &str, input: &str, ns: f64, t: Throughput) -> Measurement {
        Measurement {
            group: group.into(),
            implementation: implementation.into(),
            input: input.into(),
            ns,
            throughput: t,
        }
    }

    #[test]
    fn parses_criterion_files() {
        let b = json!({"group_id":"utf8-dfa-validate","function_id":"std","value_str":"ascii-1KiB",
            "throughput":{"Bytes":1024},"full_id":"utf8-dfa-validate/std/ascii-1KiB",
            "directory_name":"utf8-dfa-validate/std/ascii-1KiB","title":"t"});
        let e = json!({"median":{"point_estimate":512.0},"mean":{"point_estimate":600.0}});
        let got = parse(&b, &e).unwrap();
        assert_eq!(
            got,
            m(
                "utf8-dfa-validate",
                "std",
                "ascii-1KiB",
                512.0,
                Throughput::Bytes(1024)
            )
        );
        assert_eq!(got.figure(), (2.0, "GB/s"));
        let b = json!({"group_id":"utf8/placeholder/std","function_id":null,"value_str":null,"throughput":null});
        let got = parse(&b, &e).unwrap();
        assert_eq!(
            (
                got.implementation.as_str(),
                got.input.as_str(),
                got.throughput
            ),
            ("utf8/placeholder/std", "-", Throughput::None)
        );
        let b = json!({"group_id":"varint-decode","function_id":"prost","value_str":"uniform-u64","throughput":{"Elements":1000}});
        assert_eq!(parse(&b, &e).unwrap().figure(), (0.512, "ns/value"));
    }

    #[test]
    fn collects_only_new_results_from_a_criterion_tree() {
        let dir = std::env::temp_dir().join(format!("xtask-bench-test-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        for (kind, ns) in [("new", 100.0), ("base", 999.0)] {
            let d = dir.join("varint-decode/prost/uniform-u64").join(kind);
            std::fs::create_dir_all(&d).unwrap();
            let b = json!({"group_id":"varint-decode","function_id":"prost","value_str":"uniform-u64","throughput":{"Elements":10}});
            std::fs::write(d.join("benchmark.json"), b.to_string()).unwrap();
            std::fs::write(
                d.join("estimates.json"),
                json!({"median":{"point_estimate":ns}}).to_string(),
            )
            .unwrap();
        }
        let got = collect(&dir, None).unwrap();
        assert_eq!(got.len(), 1);
        assert_eq!(got[0].ns, 100.0);
        let future = SystemTime::now() + Duration::from_secs(3600);
        assert!(collect(&dir, Some(future)).unwrap().is_empty());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn shuffle_format_groups_compare_with_their_own_peers() {
        let impls = ["varint", "varint[avx2]", "svb", "stream-vbyte", "prost"];
        assert_eq!(baseline("varint-streamvbyte-decode", &impls), Some("svb"));
        assert_eq!(
            baseline("varint-streamvbyte-encode", &["varint", "stream-vbyte"]),
            Some("stream-vbyte")
        );
        let impls = ["varint", "leb128-bulk"];
        assert_eq!(
            baseline("varint-groupvarint-decode", &impls),
            Some("leb128-bulk")
        );
        assert_eq!(baseline("varint-bulk", &["varint", "prost"]), Some("prost"));
    }

    #[test]
    fn ratios_are_against_the_baseline_of_the_same_group_and_input() {
        let b = Throughput::Bytes(1000);
        let s = Summary::new(vec![
            m("utf8-dfa-validate", "utf8-dfa", "ascii-1KiB", 50.0, b),
            m("utf8-dfa-validate", "std", "ascii-1KiB", 100.0, b),
            m("utf8-dfa-validate", "std", "2byte-1KiB", 100.0, b),
            m("utf8-dfa-validate", "utf8-dfa", "2byte-1KiB", 400.0, b),
            m("utf8-simd-validate", "std", "x", 100.0, b),
            m("utf8-simd-validate", "simdutf8-compat", "x", 20.0, b),
            m("utf8-simd-validate", "utf8-simd", "x", 10.0, b),
            m("varint-decode", "prost", "u", 4.0, Throughput::Elements(1)),
            m("varint-decode", "varint", "u", 2.0, Throughput::Elements(1)),
            m("zigzag-encode", "zigzag", "u", 2.0, Throughput::Elements(1)),
        ]);
        let ratio = |g: &str, input: &str, i: &str| {
            let (_, inputs) = &s.groups[g];
            let rows = &inputs.iter().find(|(n, _)| n == input).unwrap().1;
            rows.iter().find(|r| r.m.implementation == i).unwrap().ratio
        };
        assert_eq!(
            ratio("utf8-dfa-validate", "ascii-1KiB", "utf8-dfa"),
            Some(2.0)
        );
        assert_eq!(
            ratio("utf8-dfa-validate", "2byte-1KiB", "utf8-dfa"),
            Some(0.25)
        );
        assert_eq!(ratio("utf8-simd-validate", "x", "utf8-simd"), Some(2.0));
        assert_eq!(ratio("utf8-simd-validate", "x", "std"), Some(0.2));
        assert_eq!(ratio("varint-decode", "u", "varint"), Some(2.0));
        assert_eq!(ratio("zigzag-encode", "u", "zigzag"), None);
        // The baseline is listed first.
        assert!(s.groups["utf8-simd-validate"].1[0].1[0].is_baseline);
        let text = s.text_table();
        assert!(text.contains("baseline") && text.contains("2.00×"));
        let svg = s.svg("cargo xtask bench --quick");
        assert!(svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"));
        assert_eq!(svg.matches("<rect x=").count(), 5, "{svg}");
        let env = Environment {
            cpu: "cpu".into(),
            features: "avx2".into(),
            rustc: "rustc 1.x".into(),
            date: "d".into(),
        };
        let md = s.markdown(&env, "cargo xtask bench --quick");
        assert!(
            md.contains("## varint-decode") && md.contains("| u | varint | 2.000 | 2.00× |"),
            "{md}"
        );
        assert!(md.contains("at most 5 inputs"), "{md}");
    }

    #[test]
    fn quick_selection_spreads_over_inputs_and_keeps_every_implementation() {
        let mut ids = Vec::new();
        for input in 0..10 {
            for imp in ["std", "utf8-dfa"] {
                ids.push(format!("utf8-dfa-validate/{imp}/in{input}"));
            }
        }
        ids.push("utf8/placeholder/std".to_string());
        let chosen = quick_selection(&ids, 3);
        let inputs: Vec<&str> = chosen
            .iter()
            .map(|id| id.rsplit('/').next().unwrap())
            .collect();
        assert_eq!(inputs, ["in0", "in0", "in5", "in5", "in9", "in9", "std"]);
        assert_eq!(quick_selection(&ids, 20), ids);
        let re = exact_regex(&["a-b/c.d/e(1)".to_string()]);
        assert_eq!(re, r"^(?:a\-b/c\.d/e\(1\))$");
    }

    #[test]
    fn dates_are_utc_civil_dates() {
        assert_eq!(utc_date(0), "1970-01-01 00:00 UTC");
        assert_eq!(utc_date(951_782_400), "2000-02-29 00:00 UTC");
        assert_eq!(utc_date(1_795_000_000), "2026-11-18 11:06 UTC");
    }
}
