//! `codec convert` reading a large regular file through a memory map under
//! a read lease (`src/arch/map.rs`): when it maps, when it does not, and
//! what a program that opens the file for writing meanwhile does to it.
//! That the mapped output equals the read output, strict and lossy, at
//! every chunk size and thread count, is in `tests/convert_parallel.rs`.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::fs;
use std::io::{BufRead, BufReader, Read};
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// 4 MiB of two-byte characters and newlines (valid UTF-8).
fn large_text() -> Vec<u8> {
    "h\u{e9}llo w\u{f6}rld \u{431}\u{443}\u{43a}\u{432}\u{430}\n"
        .repeat(4 << 20 >> 5)
        .into_bytes()
}

/// Whether `codec convert --debug-map` mapped `path`, and its exit status.
fn mapped(path: &Path, extra: &[&str]) -> (bool, i32) {
    let got = Command::new(env!("CARGO_BIN_EXE_codec"))
        .args(["convert", "--debug-map", "-f", "UTF-8", "-t", "UTF-16LE"])
        .args(extra)
        .arg(path)
        .stdout(Stdio::null())
        .output()
        .unwrap();
    let err = String::from_utf8(got.stderr).unwrap();
    let yes = err.contains("input mapped: true");
    assert!(yes || err.contains("input mapped: false"), "{err}");
    (yes, got.status.code().unwrap())
}

#[cfg(target_os = "linux")]
#[test]
fn large_regular_files_are_mapped_unless_asked_or_someone_writes() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("large.txt");
    fs::write(&path, large_text()).unwrap();
    let (yes, code) = mapped(&path, &[]);
    if !yes {
        // A file system without leases (some network and overlay file
        // systems): the rest of this file needs them.
        eprintln!("skipped: {} gives no read lease here", dir.path().display());
        return;
    }
    assert_eq!(code, 0);
    assert_eq!(mapped(&path, &["--no-map"]), (false, 0));
    // Below --map-min (1 MiB by default): read.
    let small = dir.path().join("small.txt");
    fs::write(&small, &large_text()[..1000]).unwrap();
    assert_eq!(mapped(&small, &[]), (false, 0));
    assert_eq!(mapped(&small, &["--map-min", "1000"]), (true, 0));
    // Open for writing by someone (here: this test): no lease, so read.
    let writer = fs::OpenOptions::new().append(true).open(&path).unwrap();
    assert_eq!(mapped(&path, &[]), (false, 0));
    drop(writer);
    assert_eq!(mapped(&path, &[]), (true, 0));
    // In place: the mapping and its lease end before the converted file
    // replaces the input.
    let (yes, code) = mapped(&path, &["-i"]);
    assert_eq!((yes, code), (true, 0));
    assert_eq!(fs::read(&path).unwrap(), utf16le(&large_text()));
}

fn utf16le(text: &[u8]) -> Vec<u8> {
    std::str::from_utf8(text)
        .unwrap()
        .encode_utf16()
        .flat_map(u16::to_le_bytes)
        .collect()
}

/// The line of /proc/locks that says a lease on a file of `pid`'s is being
/// broken.
fn breaking(pid: u32) -> bool {
    let locks = fs::read_to_string("/proc/locks").unwrap_or_default();
    locks
        .lines()
        .any(|l| l.contains("LEASE") && l.contains("BREAKING") && l.contains(&format!(" {pid} ")))
}

/// Whether `pid` waits to write into a full pipe. Where the kernel does not
/// say (no wchan), it is taken to after a second: the pipe holds 64 KiB,
/// which codec fills in a few milliseconds.
fn blocked_writing(pid: u32) -> bool {
    static START: std::sync::OnceLock<Instant> = std::sync::OnceLock::new();
    let start = *START.get_or_init(Instant::now);
    match fs::read_to_string(format!("/proc/{pid}/wchan")) {
        Ok(w) if w != "0" && !w.is_empty() => w.contains("pipe"),
        _ => start.elapsed() > Duration::from_secs(1),
    }
}

#[cfg(target_os = "linux")]
#[test]
fn a_program_that_opens_the_input_for_writing_stops_the_conversion() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("input.txt");
    let text = large_text();
    fs::write(&path, &text).unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_codec"))
        .args([
            "convert",
            "--debug-map",
            "-j",
            "1",
            "-f",
            "UTF-8",
            "-t",
            "UTF-16LE",
        ])
        .arg(&path)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stderr = BufReader::new(child.stderr.take().unwrap());
    let mut first = String::new();
    stderr.read_line(&mut first).unwrap();
    if !first.contains("input mapped: true") {
        let _ = child.kill();
        let _ = child.wait();
        eprintln!("skipped: no read lease here ({})", first.trim());
        return;
    }
    // Wait until codec blocks on its full stdout pipe, holding the lease
    // (if the writer came earlier, codec would see the request at its next
    // chunk and let go before anyone could look).
    let deadline = Instant::now() + Duration::from_secs(30);
    while !blocked_writing(child.id()) {
        assert!(
            Instant::now() < deadline,
            "codec never blocked on its output"
        );
        std::thread::sleep(Duration::from_millis(5));
    }
    // Another program opens the file for writing: the kernel makes it wait
    // and tells codec.
    let opener = {
        let path = path.clone();
        std::thread::spawn(move || {
            let start = Instant::now();
            let f = fs::OpenOptions::new().write(true).open(&path).unwrap();
            drop(f);
            start.elapsed()
        })
    };
    let deadline = Instant::now() + Duration::from_secs(30);
    while !breaking(child.id()) {
        assert!(
            Instant::now() < deadline,
            "the lease break never showed in /proc/locks (codec {}, writer done: {}): {}",
            child.id(),
            opener.is_finished(),
            fs::read_to_string("/proc/locks").unwrap_or_default()
        );
        std::thread::sleep(Duration::from_millis(5));
    }
    assert!(
        !opener.is_finished(),
        "the writer did not wait for the lease"
    );
    // Let codec go on: it stops at its next chunk and releases the lease.
    let mut out = Vec::new();
    child.stdout.take().unwrap().read_to_end(&mut out).unwrap();
    let mut rest = String::new();
    stderr.read_to_string(&mut rest).unwrap();
    let status = child.wait().unwrap();
    assert_eq!(status.code(), Some(2), "{rest}");
    assert!(
        rest.contains(&format!(
            "{}: another program opened the input for writing",
            path.display()
        )),
        "the message names the file and says why: {rest}"
    );
    // It stopped early, and what it wrote is a prefix of the conversion.
    let whole = utf16le(&text);
    assert!(out.len() < whole.len(), "the conversion ran to the end");
    assert_eq!(out[..], whole[..out.len()]);
    // The writer got the file when codec let go, well before the kernel's
    // lease-break time (45 s by default) would have.
    let waited = opener.join().unwrap();
    assert!(
        waited < Duration::from_secs(30),
        "the writer waited {waited:?}"
    );
}
