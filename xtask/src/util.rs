//! Running commands and finding the workspace.

use std::path::PathBuf;
use std::process::Command;

/// Every task returns this: an error is a message for the user.
pub(crate) type Result<T = ()> = std::result::Result<T, String>;

/// The workspace root (the parent of this crate's directory).
pub(crate) fn root() -> PathBuf {
    let xtask = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    xtask.parent().map(PathBuf::from).unwrap_or(xtask)
}

/// `cargo metadata --no-deps` of the workspace, parsed.
pub(crate) fn metadata() -> Result<serde_json::Value> {
    let out = Command::new(cargo_bin())
        .args(["metadata", "--format-version", "1", "--no-deps"])
        .current_dir(root())
        .output()
        .map_err(|e| format!("cargo metadata: {e}"))?;
    if !out.status.success() {
        return Err(format!(
            "cargo metadata failed: {}",
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    serde_json::from_slice(&out.stdout).map_err(|e| format!("cargo metadata output: {e}"))
}

/// Cargo's target directory for this workspace, as `cargo metadata` reports
/// it: `CARGO_TARGET_DIR` or `build.target-dir` can move it away from
/// `<root>/target`, so nothing may assume that path.
pub(crate) fn target_dir() -> Result<PathBuf> {
    metadata()?["target_directory"]
        .as_str()
        .map(PathBuf::from)
        .ok_or_else(|| "cargo metadata has no target_directory".into())
}

/// The cargo that runs us, so `cargo xtask` and its children use one toolchain.
pub(crate) fn cargo_bin() -> String {
    std::env::var("CARGO").unwrap_or_else(|_| "cargo".into())
}

/// Runs `cargo <args>` in the workspace root and fails if it fails.
pub(crate) fn cargo(args: &[&str]) -> Result {
    cargo_env(args, &[])
}

/// [`cargo`] with extra environment variables.
pub(crate) fn cargo_env(args: &[&str], env: &[(&str, &str)]) -> Result {
    let mut cmd = Command::new(cargo_bin());
    cmd.args(args).current_dir(root());
    for (k, v) in env {
        cmd.env(k, v);
    }
    run(cmd)
}

/// Runs a command, echoing it first, and fails with its exit status.
pub(crate) fn run(mut cmd: Command) -> Result {
    eprintln!("$ {cmd:?}");
    let status = cmd
        .status()
        .map_err(|e| format!("cannot run {cmd:?}: {e}"))?;
    if status.success() {
        Ok(())
    } else {
        Err(format!("{cmd:?} failed: {status}"))
    }
}

/// Runs a command as [`run`] does, in a process group of its own, and
/// kills the group (the command and every process it started) if it runs
/// longer than `limit`: a test that loops forever fails CI in minutes, not
/// at its 90-minute limit. (Native `cargo test` has no per-test timeout; a
/// kernel step that read nothing once made one test spin for 13 minutes.)
pub(crate) fn run_with_limit(mut cmd: Command, limit: std::time::Duration) -> Result {
    eprintln!("$ {cmd:?} (killed after {limit:?})");
    #[cfg(unix)]
    std::os::unix::process::CommandExt::process_group(&mut cmd, 0);
    let mut child = cmd
        .spawn()
        .map_err(|e| format!("cannot run {cmd:?}: {e}"))?;
    let start = std::time::Instant::now();
    loop {
        if let Some(status) = child
            .try_wait()
            .map_err(|e| format!("cannot wait for {cmd:?}: {e}"))?
        {
            return if status.success() {
                Ok(())
            } else {
                Err(format!("{cmd:?} failed: {status}"))
            };
        }
        if start.elapsed() > limit {
            // The group's id is the child's pid (`process_group(0)`);
            // elsewhere only the command itself.
            if cfg!(unix) {
                let group = format!("-{}", child.id());
                let _ = Command::new("kill").args(["-KILL", "--", &group]).status();
            } else {
                let _ = child.kill();
            }
            let _ = child.wait();
            return Err(format!(
                "{cmd:?} ran longer than {limit:?} and was killed: a test that does not end? \
                 (`cargo xtask cross` names such a test: nextest times each one)"
            ));
        }
        std::thread::sleep(std::time::Duration::from_millis(200));
    }
}

/// `rustup run nightly cargo <args>` in `dir`, with the outer stable
/// cargo's environment removed so the nightly one is used.
pub(crate) fn nightly_cargo(dir: &std::path::Path, args: &[&str]) -> Command {
    let mut cmd = Command::new("rustup");
    cmd.args(["run", "nightly", "cargo"])
        .args(args)
        .current_dir(dir);
    for var in [
        "CARGO",
        "RUSTC",
        "RUSTDOC",
        "RUSTUP_TOOLCHAIN",
        "CARGO_TARGET_DIR",
    ] {
        cmd.env_remove(var);
    }
    cmd
}

/// Whether `rustup run nightly` works here (cargo-fuzz and the docs.rs
/// build need it; the product builds on stable).
pub(crate) fn has_nightly() -> bool {
    let nightly = Command::new("rustup")
        .args(["run", "nightly", "rustc", "--version"])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .status();
    matches!(nightly, Ok(s) if s.success())
}
