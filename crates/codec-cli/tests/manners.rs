//! Unix manners of the `codec` tool: closed pipes, binary files, tree walks
//! that honour ignore files, file names that are not UTF-8, symbolic links
//! under `--in-place`, errors that name their path, FIFOs, and what a
//! terminal gets (progress bars, colour, `NO_COLOR`), the terminal ones run
//! through a pseudo-terminal made by `script` (util-linux).
#![cfg(unix)]
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use assert_cmd::Command;
use std::ffi::OsStr;
use std::fs;
use std::io::{BufRead, BufReader};
use std::os::unix::ffi::OsStrExt;
use std::path::Path;
use std::process::Stdio;

fn codec() -> Command {
    Command::new(env!("CARGO_BIN_EXE_codec"))
}

fn run(args: &[&str], code: i32) -> (String, String) {
    let out = codec().args(args).assert().code(code).get_output().clone();
    (
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

#[test]
fn a_closed_pipe_ends_quietly_with_status_0() {
    // Thousands of diagnostics into a reader that takes one line and goes.
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.txt");
    fs::write(&bad, b"\xff\n".repeat(200_000)).unwrap();
    for args in [
        vec!["validate", s(&bad)],
        vec!["validate", "--json", s(&bad)],
        vec!["count", s(&bad), s(&bad), s(&bad)],
        vec!["repair", s(&bad)],
    ] {
        let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_codec"))
            .args(&args)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut first = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut first)
            .unwrap();
        assert!(!first.is_empty());
        // Dropping the read end closes the pipe.
        let out = child.wait_with_output().unwrap();
        assert_eq!(out.status.code(), Some(0), "{args:?}");
        assert_eq!(String::from_utf8_lossy(&out.stderr), "", "{args:?}");
    }
}

#[test]
fn binary_files_get_one_line_unless_asked() {
    let dir = tempfile::tempdir().unwrap();
    let bin = dir.path().join("prog");
    let mut data = b"\x7fELF\x02\x01\x01\0\0\0".to_vec();
    data.extend(b"\xff\xfe\x80 junk \xc0".repeat(50));
    fs::write(&bin, &data).unwrap();
    let name = s(&bin);
    let (out, _) = run(&["validate", name], 1);
    assert_eq!(
        out,
        format!(
            "{name}: binary file is not valid UTF-8 (first error at byte 10: byte never valid in UTF-8)\n"
        )
    );
    // -l and -q still tell.
    assert_eq!(run(&["validate", "-l", name], 1).0, format!("{name}\n"));
    assert_eq!(run(&["validate", "-q", name], 1).0, "");
    // --text and --binary-files=text: every sequence.
    let all = run(&["validate", "--text", name], 1).0;
    let oracle = data
        .utf8_chunks()
        .filter(|c| !c.invalid().is_empty())
        .count();
    assert_eq!(all.lines().count(), oracle);
    assert_eq!(run(&["validate", "--binary-files", "text", name], 1).0, all);
    // skip: neither valid nor invalid.
    let (out, err) = run(
        &["validate", "--binary-files", "skip", "--summary", name],
        0,
    );
    assert_eq!(out, "");
    assert!(
        err.contains("0 files checked") && err.contains("1 binary skipped"),
        "{err}"
    );
    // JSON says binary.
    let (out, _) = run(&["validate", "--json", name], 1);
    let first: serde_json::Value = serde_json::from_str(out.lines().next().unwrap()).unwrap();
    assert_eq!(
        (first["type"].as_str(), first["offset"].as_u64()),
        (Some("binary"), Some(10))
    );
    // A NUL after the first 32 KiB does not make a file binary; a valid
    // file with a NUL is valid.
    let late = dir.path().join("late");
    let mut text = vec![b'a'; 40 << 10];
    text.extend(b"\0\xff");
    fs::write(&late, &text).unwrap();
    assert!(
        run(&["validate", s(&late)], 1)
            .0
            .contains(":1:40962: invalid UTF-8")
    );
    let valid = dir.path().join("valid-with-nul");
    fs::write(&valid, b"a\0b").unwrap();
    assert_eq!(run(&["validate", s(&valid)], 0).0, "");
}

/// A git repository with ignored, hidden, cached and plain files.
fn repo() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    for sub in [".git/info", ".ci", "build", "target", "src", "vendor"] {
        fs::create_dir_all(d.join(sub)).unwrap();
    }
    fs::write(d.join(".git/HEAD"), b"\xff git's own\n").unwrap();
    fs::write(d.join(".gitignore"), "build/\n*.log\n").unwrap();
    fs::write(d.join(".ignore"), "vendor/\n").unwrap();
    fs::write(d.join(".git/info/exclude"), "excluded.txt\n").unwrap();
    fs::write(d.join(".ci/run"), b"\xfe hidden but tracked\n").unwrap();
    fs::write(d.join("build/out.txt"), b"\xc0\n").unwrap();
    fs::write(d.join("app.log"), b"\xc1\n").unwrap();
    fs::write(d.join("excluded.txt"), b"\xf5\n").unwrap();
    fs::write(d.join("vendor/lib.txt"), b"\xf6\n").unwrap();
    fs::write(
        d.join("target/CACHEDIR.TAG"),
        "Signature: 8a477f597d28d172789f06886806bc55\n",
    )
    .unwrap();
    fs::write(d.join("target/obj.txt"), b"\xf7\n").unwrap();
    fs::write(d.join("src/main.txt"), b"\xf8\n").unwrap();
    fs::write(d.join("src/ok.txt"), "fine\n").unwrap();
    dir
}

fn listed(args: &[&str], root: &Path) -> Vec<String> {
    let mut full = vec!["validate", "-r", "-l"];
    full.extend(args);
    full.push(s(root));
    let out = codec().args(&full).output().unwrap();
    let mut names: Vec<String> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| l.strip_prefix(s(root)).unwrap().to_string())
        .collect();
    names.sort();
    names
}

#[test]
fn walks_honour_ignore_files_and_hidden_options_like_ripgrep() {
    let dir = repo();
    let root = dir.path();
    assert_eq!(listed(&[], root), ["/src/main.txt"]);
    assert_eq!(listed(&["--hidden"], root), ["/.ci/run", "/src/main.txt"]);
    assert_eq!(
        listed(&["--no-ignore"], root),
        [
            "/app.log",
            "/build/out.txt",
            "/excluded.txt",
            "/src/main.txt",
            "/target/obj.txt",
            "/vendor/lib.txt"
        ]
    );
    assert_eq!(
        listed(&["--all"], root),
        [
            "/.ci/run",
            "/.git/HEAD",
            "/app.log",
            "/build/out.txt",
            "/excluded.txt",
            "/src/main.txt",
            "/target/obj.txt",
            "/vendor/lib.txt"
        ]
    );
    // A path named on the command line is read whatever the rules say.
    let ignored = root.join("app.log");
    assert_eq!(
        run(&["validate", "-l", s(&ignored)], 1).0,
        format!("{}\n", s(&ignored))
    );
}

#[test]
fn symbolic_links_in_walks_only_with_follow() {
    let dir = tempfile::tempdir().unwrap();
    let target = tempfile::tempdir().unwrap();
    fs::write(target.path().join("bad.txt"), b"\xff").unwrap();
    std::os::unix::fs::symlink(target.path().join("bad.txt"), dir.path().join("link.txt")).unwrap();
    assert_eq!(listed(&[], dir.path()), Vec::<String>::new());
    assert_eq!(listed(&["--follow"], dir.path()), ["/link.txt"]);
}

#[test]
fn a_fifo_is_read_with_all_and_skipped_without() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("pipe");
    let status = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap();
    assert!(status.success());
    fs::write(dir.path().join("plain.txt"), "ok\n").unwrap();
    // Without --all the FIFO is not opened (opening would block).
    assert_eq!(run(&["validate", "-r", s(dir.path())], 0).0, "");
    // With --all it is read: a writer feeds it one invalid byte.
    let writer = {
        let fifo = fifo.clone();
        std::thread::spawn(move || fs::write(fifo, b"x\xc0\n").unwrap())
    };
    let (out, _) = run(&["validate", "-r", "-a", s(dir.path())], 1);
    writer.join().unwrap();
    assert_eq!(
        out,
        format!(
            "{}:1:2: invalid UTF-8 (overlong encoding) at byte 1: c0\n",
            s(&fifo)
        )
    );
}

#[test]
fn names_that_are_not_utf8_print_escaped_and_as_bytes_in_json() {
    let dir = tempfile::tempdir().unwrap();
    // Two names that Path::display prints alike (both as "\u{FFFD}.txt").
    let a = dir.path().join(OsStr::from_bytes(b"\xff.txt"));
    let b = dir.path().join(OsStr::from_bytes(b"\xfe.txt"));
    let nl = dir.path().join("two\nlines.txt");
    for p in [&a, &b, &nl] {
        fs::write(p, b"\xc0").unwrap();
    }
    let root = s(dir.path());
    let (out, _) = run(&["validate", "-r", "-l", root], 1);
    assert_eq!(
        out,
        format!("{root}/two\\nlines.txt\n{root}/\\xfe.txt\n{root}/\\xff.txt\n")
    );
    // The printed name opens the file again after printf '%b'.
    let printed = out.lines().nth(2).unwrap();
    let decoded = std::process::Command::new("bash")
        .args(["-c", "printf '%b' \"$1\"", "-", printed])
        .output()
        .unwrap()
        .stdout;
    assert_eq!(decoded, a.as_os_str().as_bytes());
    let out = codec()
        .args(["validate", "--json"])
        .arg(&a)
        .output()
        .unwrap();
    let out = String::from_utf8(out.stdout).unwrap();
    let record: serde_json::Value = serde_json::from_str(out.lines().next().unwrap()).unwrap();
    let bytes: Vec<u8> = record["path_bytes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_u64().unwrap() as u8)
        .collect();
    assert_eq!(bytes, a.as_os_str().as_bytes());
    assert_eq!(record["path"], format!("{root}/\\xff.txt"));
    // Errors name it escaped too.
    let missing = dir.path().join(OsStr::from_bytes(b"gone\xff"));
    let out = codec().arg("validate").arg(&missing).output().unwrap();
    assert_eq!(
        String::from_utf8(out.stderr).unwrap(),
        format!("codec: {root}/gone\\xff: No such file or directory (os error 2)\n")
    );
}

#[test]
fn repair_in_place_follows_a_symbolic_link_to_its_target() {
    let dir = tempfile::tempdir().unwrap();
    let real = dir.path().join("real.txt");
    let link = dir.path().join("link.txt");
    fs::write(&real, b"a\xffb").unwrap();
    std::os::unix::fs::symlink("real.txt", &link).unwrap();
    run(&["repair", "-q", "--in-place", s(&link)], 0);
    assert!(
        fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink()
    );
    assert_eq!(fs::read_link(&link).unwrap(), Path::new("real.txt"));
    assert_eq!(fs::read(&real).unwrap(), "a\u{FFFD}b".as_bytes());
    // -o through a link writes the target as well.
    let out_link = dir.path().join("out-link");
    let out_real = dir.path().join("out-real.txt");
    fs::write(&out_real, "old").unwrap();
    std::os::unix::fs::symlink(&out_real, &out_link).unwrap();
    fs::write(&real, b"x\xc0").unwrap();
    run(&["repair", "-q", s(&real), "-o", s(&out_link)], 0);
    assert!(
        fs::symlink_metadata(&out_link)
            .unwrap()
            .file_type()
            .is_symlink()
    );
    assert_eq!(fs::read(&out_real).unwrap(), "x\u{FFFD}".as_bytes());
}

#[test]
fn repair_in_place_refuses_hard_links() {
    let dir = tempfile::tempdir().unwrap();
    let one = dir.path().join("one.txt");
    let two = dir.path().join("two.txt");
    fs::write(&one, b"\xff").unwrap();
    fs::hard_link(&one, &two).unwrap();
    let (_, err) = run(&["repair", "--in-place", s(&one)], 2);
    assert!(err.contains("has 2 hard links"), "{err}");
    assert_eq!(fs::read(&two).unwrap(), b"\xff");
}

#[test]
fn errors_name_the_path_that_failed() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("in.txt");
    fs::write(&input, b"ok").unwrap();
    let out = dir.path().join("no-such-dir/x");
    let (_, err) = run(&["repair", s(&input), "-o", s(&out)], 2);
    assert!(err.starts_with(&format!("codec: {}: ", s(&out))), "{err}");
    assert!(!err.contains("in.txt"), "{err}");
    let missing = dir.path().join("missing.txt");
    let (_, err) = run(&["repair", s(&missing), "-o", s(&dir.path().join("y"))], 2);
    assert!(
        err.starts_with(&format!("codec: {}: ", s(&missing))),
        "{err}"
    );
    // The failed output was not created.
    assert!(!dir.path().join("y").exists());
    let (_, err) = run(&["convert", "-f", "utf8", "-t", "utf16le", s(&missing)], 2);
    assert!(
        err.starts_with(&format!("codec: {}: ", s(&missing))),
        "{err}"
    );
}

/// Runs `codec args` on a pseudo-terminal (stdin, stdout and stderr), with
/// extra environment; returns everything the terminal got.
fn on_terminal(args: &str, env: &[(&str, &str)]) -> String {
    let command = format!("{} {args}", env!("CARGO_BIN_EXE_codec"));
    let mut cmd = std::process::Command::new("script");
    cmd.args(["-qec", &command, "/dev/null"]);
    cmd.env_remove("NO_COLOR").env("TERM", "xterm");
    for (k, v) in env {
        cmd.env(k, v);
    }
    let out = cmd
        .output()
        .expect("script (util-linux) runs commands on a pseudo-terminal");
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn terminals_get_colour_unless_no_color_and_pipes_never() {
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.txt");
    fs::write(&bad, b"ok\n\xff\n").unwrap();
    let args = format!("validate {}", s(&bad));
    let coloured = on_terminal(&args, &[]);
    assert!(coloured.contains("\x1b[35m"), "{coloured:?}");
    let plain = on_terminal(&args, &[("NO_COLOR", "1")]);
    assert!(!plain.contains('\x1b'), "{plain:?}");
    assert!(plain.contains(":2:1: invalid UTF-8"), "{plain:?}");
    // NO_COLOR set but empty does not count, as the convention says.
    assert!(on_terminal(&args, &[("NO_COLOR", "")]).contains("\x1b["));
    assert!(!on_terminal(&format!("validate --color never {}", s(&bad)), &[]).contains('\x1b'));
    // Into a pipe: plain by default, colour only when forced.
    let (out, _) = run(&["validate", s(&bad)], 1);
    assert!(!out.contains('\x1b'));
    let (out, _) = run(&["validate", "--color", "always", s(&bad)], 1);
    assert!(out.contains("\x1b[35m"), "{out:?}");
}

#[test]
fn progress_bars_on_terminals_only() {
    // A sparse 65 MiB file is instant to make and to read, yet large enough
    // for a bar.
    let dir = tempfile::tempdir().unwrap();
    let big = dir.path().join("big.txt");
    let f = fs::File::create(&big).unwrap();
    f.set_len(65 << 20).unwrap();
    drop(f);
    for command in ["validate --text", "count", "repair -o /dev/null"] {
        let args = format!("{command} {}", s(&big));
        let shown = on_terminal(&args, &[]);
        assert!(shown.contains("MiB"), "{command}: {shown:?}");
        let hidden = on_terminal(&format!("{command} --no-progress {}", s(&big)), &[]);
        assert!(!hidden.contains("MiB"), "{command}: {hidden:?}");
    }
    // Not on a pipe.
    let out = codec()
        .args(["validate", "--text", s(&big)])
        .output()
        .unwrap();
    assert!(out.stderr.is_empty());
}

#[test]
fn context_shows_the_line_with_a_caret() {
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("ctx.txt");
    fs::write(&f, b"ab\n\tsur \xed\xa0\x80 rogate \xe5\x90\x95 end\n").unwrap();
    let name = s(&f);
    let (out, _) = run(&["validate", "--context", "--first", name], 1);
    assert_eq!(
        out,
        format!(
            "{name}:2:6: invalid UTF-8 (surrogate code point) at byte 8: ed\n\
             \x20 | \\tsur \\xed\\xa0\\x80 rogate \u{5415} end\n\
             \x20 |       ^^^^\n"
        )
    );
    let (out, _) = run(&["validate", "-C", name], 1);
    assert_eq!(out.lines().count(), 9);
    // The same on stdin, where lines are counted as the input streams.
    let piped = codec()
        .args(["validate", "--context"])
        .write_stdin(fs::read(&f).unwrap())
        .output()
        .unwrap();
    assert_eq!(
        String::from_utf8(piped.stdout).unwrap(),
        out.replace(name, "<stdin>")
    );
}
