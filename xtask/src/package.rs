//! `cargo xtask package`: every publishable crate packaged as crates.io
//! would take it, and each package built on its own.
//!
//! `cargo package` catches what a workspace build cannot: a file the crate
//! needs that lies outside its directory (an `include_str!` of the root
//! README, test data), a dependency without a version, a missing licence or
//! description, a name that is not ours to publish under. With several
//! packages selected, cargo verifies each against the others' packages
//! through a local registry, so our unpublished crates resolve. Crates with
//! `publish = false` (xtask, benches, codec-testdata) are left out.

use crate::util::{self, Result};
use std::process::Command;

pub(crate) fn run(args: &[String]) -> Result {
    if let Some(a) = args.first() {
        return Err(format!("package: unknown argument {a:?}"));
    }
    let crates = publishable()?;
    let mut cmd = Command::new(util::cargo_bin());
    // `--allow-dirty`: CI packages a clean clone; on a developer's tree the
    // check should still run on the uncommitted state.
    cmd.args(["package", "--allow-dirty"])
        .current_dir(util::root())
        .env(
            "CARGO_TARGET_DIR",
            util::target_dir()?.join("package-check"),
        );
    for c in &crates {
        cmd.args(["-p", c]);
    }
    util::run(cmd)?;
    eprintln!(
        "xtask package: {} crates packaged and built: {}",
        crates.len(),
        crates.join(", ")
    );
    Ok(())
}

/// The workspace members that may be published (no `publish = false`), by
/// package name.
fn publishable() -> Result<Vec<String>> {
    let meta = util::metadata()?;
    let packages = meta["packages"]
        .as_array()
        .ok_or("no packages in metadata")?;
    Ok(packages
        .iter()
        // `publish` is null when unrestricted, `[]` for `publish = false`.
        .filter(|p| p["publish"].is_null())
        .filter_map(|p| p["name"].as_str().map(String::from))
        .collect())
}
