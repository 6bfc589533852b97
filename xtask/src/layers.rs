//! `cargo xtask check-layers`: the workspace's dependency rules, checked.
//!
//! 1. Edges only point down the layers: codec-core ← codec-arch (CPU
//!    detection, feature sets, vector tokens, kernel dispatch) ← codecs ← conversions
//!    (the encodings crate) ← facade ← command-line tool. Within the codec layer only the edges listed in
//!    [`CODEC_EDGES`] are allowed. Tools (xtask, benches) and the test-data
//!    crate sit beside the layers.
//! 2. Each codec builds alone, with `default-features = false`, on top of
//!    codec-core; so does the facade with `default-features = false` and one
//!    feature.
//! 3. Those builds are `no_std`: each consumer is a `#![no_std]` static
//!    library with its own `#[panic_handler]`, which fails to link (duplicate
//!    lang item `panic_impl`) if anything below it pulls in `std`.
//! 4. The library crates are free of clippy's warnings without their
//!    default features, and with `alloc` alone: the workspace's clippy step
//!    sees only the default build, where code gated on `alloc` is always
//!    in (utf8-variants' WTF-8 helpers were unused without it, a warning in
//!    every `no_std` user's build, until this check).

use crate::util::{self, Result};
use std::path::Path;
use std::process::Command;

const CORE: &str = "codec-core";
/// The arch foundation under every codec with kernels (package name).
const ARCH: &str = "varcodecs-arch";
/// The codec crates: (directory under `crates/`, which is also the name
/// dependents use for them, and the package name on crates.io).
const CODEC_CRATES: &[(&str, &str)] = &[
    ("utf8-table", "utf8-table"),
    ("utf8-dfa", "utf8-dfa"),
    ("utf8-simd", "utf8-simd"),
    ("utf8-variants", "utf8-variants"),
    ("varint", "varcodecs-varint"),
    ("zigzag", "varcodecs-zigzag"),
    ("transcode", "varcodecs-transcode"),
];
/// Libraries built on several codecs, with `std`: above the codecs, below
/// the facade and the command-line tool.
const CONVERSIONS: &[&str] = &["varcodecs-encodings"];
const FACADE: &str = "codec-facade";
const CLI: &str = "codec-cli";
/// Crates outside the layers: they may depend on anything, and of them only
/// `codec-testdata` may be depended on (by the layers as a dev-dependency;
/// `bench-chart` only by the other tools).
const TOOLS: &[&str] = &["xtask", "benches", "bench-chart", "codec-testdata", "fuzz"];
/// The allowed edges inside the codec layer, by package name.
const CODEC_EDGES: &[(&str, &str)] = &[
    ("varcodecs-varint", "varcodecs-zigzag"),
    ("utf8-simd", "utf8-dfa"),
    // UTF-8 input is validated by utf8-simd (one definition of valid UTF-8).
    ("varcodecs-transcode", "utf8-simd"),
    // CESU-8, MUTF-8 and WTF-8 run utf8-simd's kernel with their tables.
    ("utf8-variants", "utf8-simd"),
];

/// The codec layer's number in [`layer`].
const CODECS: u8 = 2;

fn layer(name: &str) -> Option<u8> {
    match name {
        CORE => Some(0),
        ARCH => Some(1),
        n if CODEC_CRATES.iter().any(|&(_, package)| package == n) => Some(CODECS),
        n if CONVERSIONS.contains(&n) => Some(3),
        FACADE => Some(4),
        CLI => Some(5),
        _ => None,
    }
}

pub(crate) fn check() -> Result {
    check_edges()?;
    check_feature_lints()?;
    check_standalone_builds()
}

/// Rule 4: `cargo clippy` of every library crate without default features,
/// then with `alloc`, warnings denied.
fn check_feature_lints() -> Result {
    let mut packages = vec![CORE, ARCH, FACADE];
    packages.extend(CODEC_CRATES.iter().map(|&(_, package)| package));
    for features in [&[][..], &["--features", "alloc"][..]] {
        let mut args = vec!["clippy", "--no-default-features"];
        args.extend(features);
        for p in &packages {
            args.extend(["-p", p]);
        }
        args.extend(["--", "-D", "warnings"]);
        util::cargo(&args)?;
    }
    Ok(())
}

fn check_edges() -> Result {
    let meta = util::metadata()?;
    let packages = meta["packages"]
        .as_array()
        .ok_or("no packages in metadata")?;
    let members: Vec<&str> = packages.iter().filter_map(|p| p["name"].as_str()).collect();
    let mut problems = Vec::new();
    for p in packages {
        let from = p["name"].as_str().unwrap_or("?");
        if layer(from).is_none() && !TOOLS.contains(&from) {
            problems.push(format!(
                "{from}: not assigned to a layer in xtask/src/layers.rs"
            ));
        }
        for d in p["dependencies"].as_array().into_iter().flatten() {
            let to = d["name"].as_str().unwrap_or("?");
            if !members.contains(&to) {
                continue;
            }
            let kind = d["kind"].as_str().unwrap_or("normal");
            let ok = match (layer(from), layer(to)) {
                // The tools (xtask's exhaustive checks, the fuzz targets)
                // use its registry as a normal dependency; the layers only
                // in tests.
                _ if to == "codec-testdata" => kind == "dev" || layer(from).is_none(),
                // A crate's dev-dependency on itself turns on its optional
                // features for its own tests (varint's `bytes`): no edge.
                _ if to == from => kind == "dev",
                (None, _) => true,
                (Some(_), None) => false,
                (Some(a), Some(b)) => {
                    b < a || (a == CODECS && b == CODECS && CODEC_EDGES.contains(&(from, to)))
                }
            };
            if !ok {
                problems.push(format!(
                    "{from} -> {to} ({kind} dependency) points up or sideways"
                ));
            }
        }
    }
    if problems.is_empty() {
        eprintln!(
            "check-layers: {} crates, every dependency edge points down",
            members.len()
        );
        Ok(())
    } else {
        Err(format!("layering violations:\n  {}", problems.join("\n  ")))
    }
}

/// Builds tiny `no_std` consumers outside the workspace.
fn check_standalone_builds() -> Result {
    check_standalone_builds_with("xtask-layers", None)?;
    // The same consumers with AVX2 and BMI2 enabled at compile time (every
    // AVX2 CPU has BMI2), so that the `cfg(target_feature)` arms of the SIMD
    // crates and utf8-dfa's BMI2-only build are compiled without std too.
    check_standalone_builds_with("xtask-layers-avx2", Some("-C target-feature=+avx2,+bmi2"))
}

/// Builds the `no_std` consumers in `<target>/<dir>`, with `rustflags` if
/// given.
fn check_standalone_builds_with(dir: &str, rustflags: Option<&str>) -> Result {
    let root = util::root();
    let work = util::target_dir()?.join(dir);
    let mut consumers: Vec<(String, String)> = CODEC_CRATES
        .iter()
        .map(|&(c, package)| {
            let deps = format!(
                "codec-core = {{ path = {:?}, default-features = false }}\n\
                 {c} = {{ package = {package:?}, path = {:?}, default-features = false }}\n",
                root.join("crates").join(CORE),
                root.join("crates").join(c),
            );
            (format!("only-{c}"), deps)
        })
        .collect();
    for &(c, _) in CODEC_CRATES {
        consumers.push((
            format!("facade-{c}"),
            format!(
                "codec-facade = {{ path = {:?}, default-features = false, features = [{c:?}] }}\n",
                root.join("crates").join(FACADE),
            ),
        ));
    }
    consumers.push((
        "core-alone".into(),
        format!(
            "codec-core = {{ path = {:?}, default-features = false }}\n",
            root.join("crates").join(CORE)
        ),
    ));
    for (name, deps) in &consumers {
        build_consumer(&work, name, deps, rustflags)?;
    }
    eprintln!(
        "check-layers: {} no_std consumers built (each codec alone, the facade with one feature, codec-core alone){}",
        consumers.len(),
        rustflags.map(|f| format!(" with {f}")).unwrap_or_default()
    );
    Ok(())
}

fn build_consumer(work: &Path, name: &str, deps: &str, rustflags: Option<&str>) -> Result {
    let dir = work.join(name);
    let io = |e: std::io::Error| format!("{}: {e}", dir.display());
    std::fs::create_dir_all(dir.join("src")).map_err(io)?;
    let crate_names: Vec<String> = deps
        .lines()
        .filter_map(|l| l.split_whitespace().next())
        .map(|n| n.replace('-', "_"))
        .collect();
    let manifest = format!(
        "[package]\nname = {name:?}\nversion = \"0.0.0\"\nedition = \"2024\"\npublish = false\n\n\
         [lib]\ncrate-type = [\"staticlib\"]\n\n[dependencies]\n{deps}\n\
         [profile.dev]\npanic = \"abort\"\n\n[workspace]\n"
    );
    let externs: String = crate_names
        .iter()
        .map(|c| format!("extern crate {c};\n"))
        .collect();
    let lib = format!(
        "//! Proves the dependencies build and link without `std`.\n\
         #![no_std]\n{externs}\n\
         /// Fails to link if `std` is present: it brings its own handler.\n\
         #[panic_handler]\nfn panic(_: &core::panic::PanicInfo<'_>) -> ! {{ loop {{}} }}\n"
    );
    std::fs::write(dir.join("Cargo.toml"), manifest).map_err(io)?;
    std::fs::write(dir.join("src/lib.rs"), lib).map_err(io)?;
    // The workspace's lock file pins the same versions, so no resolution is needed.
    let _ = std::fs::copy(util::root().join("Cargo.lock"), dir.join("Cargo.lock"));
    let mut cmd = Command::new(util::cargo_bin());
    cmd.args(["build", "--quiet", "--manifest-path"])
        .arg(dir.join("Cargo.toml"))
        .env("CARGO_TARGET_DIR", work.join("target"));
    if let Some(flags) = rustflags {
        cmd.env("RUSTFLAGS", flags);
    }
    util::run(cmd)
}
