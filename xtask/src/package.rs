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
//!
//! One trap, met in CI: cargo unpacks each package of that
//! local registry into `$CARGO_HOME/registry/src/-<hash of the registry's
//! path>/<name>-<version>/` and, like any registry crate, never unpacks a
//! version again once that directory exists. A checkout that stays at one
//! path (CI's) therefore verified `utf8-variants` against the `utf8-simd`
//! 0.1.0 of an earlier run, which lacked the `variant` module. The versions
//! do not change between commits, so before packaging we remove our own
//! crates' unpacked copies from every local registry (their directory names
//! start with `-`: a local registry has no host); crates.io's are untouched.

use crate::util::{self, Result};
use std::path::PathBuf;
use std::process::Command;

pub(crate) fn run(args: &[String]) -> Result {
    if let Some(a) = args.first() {
        return Err(format!("package: unknown argument {a:?}"));
    }
    let crates = publishable()?;
    forget_unpacked(&crates)?;
    let mut cmd = Command::new(util::cargo_bin());
    // `--allow-dirty`: CI packages a clean clone; on a developer's tree the
    // check should still run on the uncommitted state.
    cmd.args(["package", "--allow-dirty"])
        .current_dir(util::root())
        .env(
            "CARGO_TARGET_DIR",
            util::target_dir()?.join("package-check"),
        );
    for (c, _) in &crates {
        cmd.args(["-p", c]);
    }
    util::run(cmd)?;
    let names: Vec<&str> = crates.iter().map(|(n, _)| n.as_str()).collect();
    eprintln!(
        "xtask package: {} crates packaged and built: {}",
        names.len(),
        names.join(", ")
    );
    Ok(())
}

/// Removes `<name>-<version>` for each of `crates` from the unpacked sources
/// of every local registry in `$CARGO_HOME` (see the module comment), so
/// that cargo unpacks the packages it has just made.
fn forget_unpacked(crates: &[(String, String)]) -> Result {
    let home = match std::env::var_os("CARGO_HOME") {
        Some(h) => PathBuf::from(h),
        None => match std::env::var_os("HOME") {
            Some(h) => PathBuf::from(h).join(".cargo"),
            None => return Ok(()),
        },
    };
    let src = home.join("registry").join("src");
    let Ok(entries) = std::fs::read_dir(&src) else {
        return Ok(()); // nothing unpacked yet
    };
    for entry in entries {
        let entry = entry.map_err(|e| format!("{}: {e}", src.display()))?;
        if !entry.file_name().to_string_lossy().starts_with('-') {
            continue; // a remote registry (index.crates.io-…): not ours
        }
        for (name, version) in crates {
            let dir = entry.path().join(format!("{name}-{version}"));
            if dir.is_dir() {
                std::fs::remove_dir_all(&dir)
                    .map_err(|e| format!("removing {}: {e}", dir.display()))?;
            }
        }
    }
    Ok(())
}

/// The workspace members that may be published (no `publish = false`), as
/// (package name, version).
fn publishable() -> Result<Vec<(String, String)>> {
    let meta = util::metadata()?;
    let packages = meta["packages"]
        .as_array()
        .ok_or("no packages in metadata")?;
    Ok(packages
        .iter()
        // `publish` is null when unrestricted, `[]` for `publish = false`.
        .filter(|p| p["publish"].is_null())
        .filter_map(|p| Some((p["name"].as_str()?.into(), p["version"].as_str()?.into())))
        .collect())
}
