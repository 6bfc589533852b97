//! What the tests share: running glibc's `iconv` as an oracle, a small
//! generator, and decoding in chunks or in regions.

#![allow(dead_code)]

use encodings::{DecodeError, DecodeMode, Decoder, Encoding};
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

    /// One random change to `bytes` (not empty): a byte replaced, removed
    /// or inserted.
    pub(crate) fn mutate(&mut self, bytes: &mut Vec<u8>) {
        let i = self.below(bytes.len());
        match self.below(3) {
            0 => bytes[i] = self.next() as u8,
            1 => {
                bytes.remove(i);
            }
            _ => bytes.insert(i, self.next() as u8),
        }
    }
}

/// Decodes `input` with one decoder, in chunks cut at the `cuts`
/// (increasing offsets), then an empty last chunk.
pub(crate) fn decode_cut(
    e: Encoding,
    mode: DecodeMode,
    input: &[u8],
    cuts: &[usize],
) -> Result<String, DecodeError> {
    let mut d = Decoder::new(e, mode);
    let mut out = String::new();
    let mut from = 0;
    for &cut in cuts.iter().chain([&input.len()]) {
        d.decode_into_string(&input[from..cut], &mut out, false)?;
        from = cut;
    }
    d.decode_into_string(&[], &mut out, true)?;
    Ok(out)
}

/// Decodes `input` in one shot, then cut once at every offset, then byte
/// by byte: each chunking must give the one-shot text or error (`what`
/// names the case in a failure). Returns the one-shot result.
pub(crate) fn assert_chunkings_equal(
    e: Encoding,
    mode: DecodeMode,
    input: &[u8],
    what: &str,
) -> Result<String, DecodeError> {
    let whole = decode_cut(e, mode, input, &[]);
    for cut in 0..=input.len() {
        assert_eq!(
            decode_cut(e, mode, input, &[cut]),
            whole,
            "{what} {mode:?} cut at {cut} of {input:02X?}"
        );
    }
    let every: Vec<usize> = (1..input.len()).collect();
    assert_eq!(
        decode_cut(e, mode, input, &every),
        whole,
        "{what} {mode:?} byte by byte {input:02X?}"
    );
    whole
}

/// Decodes `input` as two regions split at `cut` (where `cut_near` says
/// one may): the first by a new decoder to its end, the rest by
/// `Decoder::resume` at `cut`; asserts the text is `whole`'s, or the error
/// at `whole`'s offset (`what` names the case in a failure).
pub(crate) fn assert_regions_equal(
    e: Encoding,
    mode: DecodeMode,
    input: &[u8],
    cut: usize,
    whole: &Result<String, DecodeError>,
    what: &str,
) {
    let mut out = String::new();
    let r = Decoder::new(e, mode)
        .decode_into_string(&input[..cut], &mut out, true)
        .and_then(|()| {
            Decoder::resume(e, mode, cut as u64, input).decode_into_string(
                &input[cut..],
                &mut out,
                true,
            )
        });
    match (whole, r) {
        (Ok(w), Ok(())) => assert_eq!(w, &out, "{what} {mode:?} cut {cut} {input:02X?}"),
        (Err(w), Err(r)) => assert_eq!(w.offset(), r.offset(), "{what} {mode:?} cut {cut}"),
        (w, r) => panic!("{what} {mode:?} cut {cut} {input:02X?}: {w:?} vs {r:?}"),
    }
}
