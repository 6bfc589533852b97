//! What the tests share: running glibc's `iconv` as an oracle.

#![allow(dead_code)]

use std::io::Write;
use std::process::{Command, Stdio};

/// `iconv -f from -t to` (with `extra` flags) on `input`: its output, or
/// `Err` with its stderr when it fails; `None` when there is no `iconv`.
pub(crate) fn iconv(
    from: &str,
    to: &str,
    extra: &[&str],
    input: &[u8],
) -> Option<Result<Vec<u8>, String>> {
    let mut child = Command::new("iconv")
        .args(extra)
        .args(["-f", from, "-t", to])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .ok()?;
    let mut stdin = child.stdin.take()?;
    let data = input.to_vec();
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(&data);
    });
    let out = child.wait_with_output().ok()?;
    let _ = writer.join();
    Some(if out.status.success() {
        Ok(out.stdout)
    } else {
        Err(String::from_utf8_lossy(&out.stderr).into_owned())
    })
}

/// Whether `iconv` runs here and knows `name`; prints a note when not.
pub(crate) fn iconv_knows(name: &str) -> bool {
    match iconv(name, "UTF-8", &[], b"") {
        Some(Ok(_)) => true,
        Some(Err(e)) => {
            eprintln!("note: iconv does not know {name} ({}); skipped", e.trim());
            false
        }
        None => {
            eprintln!("note: no iconv on this machine; {name} not compared with it");
            false
        }
    }
}

/// UTF-32BE bytes to characters.
pub(crate) fn utf32be(bytes: &[u8]) -> Vec<char> {
    bytes
        .chunks_exact(4)
        .filter_map(|c| char::from_u32(u32::from_be_bytes([c[0], c[1], c[2], c[3]])))
        .collect()
}

/// A small deterministic generator (xorshift), so failures replay.
pub(crate) struct Rng(pub(crate) u64);

impl Rng {
    pub(crate) fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    pub(crate) fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    pub(crate) fn bytes(&mut self, n: usize) -> Vec<u8> {
        (0..n).map(|_| self.next() as u8).collect()
    }
}
