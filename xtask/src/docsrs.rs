//! `cargo xtask docs-rs`: the library crates documented as docs.rs builds
//! them (nightly, `--cfg docsrs`, every feature; see each crate's
//! `[package.metadata.docs.rs]`), with warnings denied, and a check that a
//! feature-gated item carries its badge ("Available on crate feature …"), so
//! that a crate whose `doc_cfg` line is lost fails here. Skips, saying why,
//! where there is no nightly toolchain.

use crate::util::{self, Result};

/// The library crates published to crates.io, by package name.
const CRATES: &[&str] = &[
    "codec-core",
    "varcodecs-arch",
    "utf8-table",
    "utf8-dfa",
    "utf8-simd",
    "varcodecs-transcode",
    "utf8-variants",
    "varcodecs-varint",
    "varcodecs-zigzag",
    "codec-facade",
    "varcodecs-encodings",
];

/// Pages that must carry a feature badge: (page under `doc/`, feature).
const BADGES: &[(&str, &str)] = &[
    ("varint/trait.BufVarint.html", "bytes"),
    ("varint/trait.PutVarint.html", "bytes"),
    ("utf8_simd/fn.validate_reader.html", "std"),
    ("transcode/fn.read_utf16_to_string.html", "std"),
    ("codec_core/io/index.html", "std"),
    ("codec_facade/index.html", "transcode"),
];

pub(crate) fn run(_args: &[String]) -> Result {
    if !util::has_nightly() {
        eprintln!("docs-rs: skipped: no nightly toolchain (`rustup run nightly`)");
        return Ok(());
    }
    let target = util::target_dir()?.join("docs-rs");
    let target_str = target.to_str().ok_or("target dir is not UTF-8")?;
    let mut args = vec![
        "doc",
        "--no-deps",
        "--all-features",
        "--target-dir",
        target_str,
    ];
    for c in CRATES {
        args.extend(["-p", c]);
    }
    let mut cmd = util::nightly_cargo(&util::root(), &args);
    cmd.env("RUSTDOCFLAGS", "--cfg docsrs -D warnings");
    util::run(cmd)?;
    for (page, feature) in BADGES {
        let path = target.join("doc").join(page);
        let html =
            std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
        let badge = format!("Available on crate feature `{feature}` only");
        let found = html.contains(&badge)
            || html.contains(&format!("crate feature <code>{feature}</code>"));
        if !found {
            return Err(format!(
                "docs-rs: {page} has no badge for the `{feature}` feature"
            ));
        }
    }
    eprintln!(
        "docs-rs: {} crates documented, {} badges found",
        CRATES.len(),
        BADGES.len()
    );
    Ok(())
}
