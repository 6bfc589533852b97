//! UTF-16 held in bytes: the byte-order-mark policy, byte offsets in the
//! errors, the lengths over bytes and the one-call readers, with every set
//! of kernels this CPU can run, against a model built on std
//! (`char::decode_utf16`, `String::from_utf16_lossy`) that strips, keeps or
//! rejects the mark as `BomMode` says.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use codec_core::io::ReadError;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::io::Read;
use transcode::{BomMode, ByteOrder, Endianness, Transcoder, Utf16ErrorKind};

#[path = "common/kernels.rs"]
mod kernels;
use kernels::transcoders;

const ORDERS: [Endianness; 2] = [Endianness::Little, Endianness::Big];
const MODES: [BomMode; 3] = [BomMode::Strip, BomMode::Keep, BomMode::Reject];

fn unit(b: [u8; 2], order: Endianness) -> u16 {
    match order {
        Endianness::Little => u16::from_le_bytes(b),
        Endianness::Big => u16::from_be_bytes(b),
    }
}

fn bytes_of(units: &[u16], order: Endianness) -> Vec<u8> {
    units
        .iter()
        .flat_map(|&u| match order {
            Endianness::Little => u.to_le_bytes(),
            Endianness::Big => u.to_be_bytes(),
        })
        .collect()
}

/// What the model makes of `src`: the text before the first error, and the
/// error's byte offset and kind, if any; and the lossy text.
struct Model {
    valid: String,
    error: Option<(usize, Utf16ErrorKind)>,
    lossy: String,
}

fn model(src: &[u8], order: Endianness, mode: BomMode) -> Model {
    let has_bom = src.len() >= 2 && unit([src[0], src[1]], order) == 0xFEFF;
    let (skip, rejected) = match (has_bom, mode) {
        (true, BomMode::Strip) => (2, false),
        (true, BomMode::Reject) => (2, true),
        _ => (0, false),
    };
    let rest = &src[skip..];
    let units: Vec<u16> = rest
        .chunks_exact(2)
        .map(|b| unit([b[0], b[1]], order))
        .collect();
    let mut lossy = String::from(if rejected { "\u{FFFD}" } else { "" });
    lossy += &String::from_utf16_lossy(&units);
    if rest.len() % 2 == 1 {
        lossy.push('\u{FFFD}');
    }
    if rejected {
        let error = Some((0, Utf16ErrorKind::ByteOrderMark));
        return Model {
            valid: String::new(),
            error,
            lossy,
        };
    }
    let mut valid = String::new();
    let mut i = 0;
    let mut error = None;
    for r in char::decode_utf16(units.iter().copied()) {
        match r {
            Ok(c) => {
                valid.push(c);
                i += c.len_utf16();
            }
            Err(e) => {
                let u = e.unpaired_surrogate();
                let kind = if (0xDC00..=0xDFFF).contains(&u) {
                    Utf16ErrorKind::UnpairedTrail
                } else if i + 1 == units.len() {
                    Utf16ErrorKind::Incomplete
                } else {
                    Utf16ErrorKind::UnpairedLead
                };
                error = Some((skip + 2 * i, kind));
                break;
            }
        }
    }
    if error.is_none() && rest.len() % 2 == 1 {
        error = Some((src.len() - 1, Utf16ErrorKind::Incomplete));
    }
    Model {
        valid,
        error,
        lossy,
    }
}

/// Units that exercise the mark and the surrogates: text of every width,
/// U+FEFF and U+FFFE, pairs, and lone surrogates.
fn random_units(rng: &mut StdRng, n: usize) -> Vec<u16> {
    let mut units = Vec::with_capacity(n + 2);
    if rng.random_bool(0.5) {
        units.push(if rng.random_bool(0.8) { 0xFEFF } else { 0xFFFE });
    }
    while units.len() < n {
        match rng.random_range(0..10) {
            0..=3 => units.push(rng.random_range(0x20..0x80)),
            4 => units.push(b'\n'.into()),
            5 => units.push(rng.random_range(0x80..0xD800)),
            6 => units.extend([
                rng.random_range(0xD800..0xDC00),
                rng.random_range(0xDC00..0xE000),
            ]),
            7 => units.push([0xFEFF, 0xFFFE, 0xE000, 0xFFFF][rng.random_range(0..4)]),
            8 if rng.random_ratio(1, 8) => units.push(rng.random_range(0xD800..0xE000)),
            _ => units.push(rng.random_range(0x20..0x7F)),
        }
    }
    units
}

/// Every form that takes UTF-16 bytes, with `t`, against the model.
fn check(t: Transcoder, src: &[u8], order: Endianness, mode: BomMode) {
    let m = model(src, order, mode);
    let bo = ByteOrder::new(order, mode);
    let ctx = || {
        format!(
            "{} {order:?} {mode:?} {:02X?}",
            t.name(),
            &src[..src.len().min(12)]
        )
    };
    // A `String`, strict and lossy.
    match (t.utf16_bytes_to_string(src, bo), m.error) {
        (Ok(s), None) => assert_eq!(s, m.valid, "{}", ctx()),
        (Err(e), Some((at, kind))) => {
            assert_eq!((e.byte_offset(), e.kind()), (at, kind), "{}", ctx());
            assert!(
                e.to_string().ends_with(&format!("at byte {at}")),
                "{}",
                ctx()
            );
        }
        (got, want) => panic!("{}: got {got:?}, want {want:?}", ctx()),
    }
    assert_eq!(t.utf16_bytes_to_string_lossy(src, bo), m.lossy, "{}", ctx());
    // The lengths.
    assert_eq!(
        t.utf8_len_from_utf16_bytes(src, bo),
        m.lossy.len(),
        "{}",
        ctx()
    );
    assert_eq!(
        t.count_chars_utf16_bytes(src, bo),
        m.lossy.chars().count(),
        "{}",
        ctx()
    );
    // Into a slice, with a sentinel after the output.
    let len = m.lossy.len();
    let mut dst = vec![0xA5u8; len + 8];
    let n = t.utf16_bytes_to_utf8_lossy(src, &mut dst, bo).unwrap();
    assert_eq!(&dst[..n], m.lossy.as_bytes(), "{}", ctx());
    assert!(dst[n..].iter().all(|&b| b == 0xA5), "{}", ctx());
    if len > 0 {
        let mut short = vec![0xA5u8; len - 1];
        let e = t
            .utf16_bytes_to_utf8_lossy(src, &mut short, bo)
            .unwrap_err();
        assert_eq!(e.needed(), len, "{}", ctx());
    }
    let mut dst = vec![0xA5u8; 3 * src.len() + 8];
    match (t.utf16_bytes_to_utf8(src, &mut dst, bo), m.error) {
        (Ok(n), None) => assert_eq!(&dst[..n], m.valid.as_bytes(), "{}", ctx()),
        (Err(e), Some((at, kind))) => {
            let inner = e.invalid().unwrap();
            assert_eq!((inner.byte_offset(), inner.kind()), (at, kind), "{}", ctx());
            assert_eq!(e.read(), at, "{}", ctx());
            assert_eq!(&dst[..e.written()], m.valid.as_bytes(), "{}", ctx());
            assert!(dst[e.written()..].iter().all(|&b| b == 0xA5), "{}", ctx());
        }
        (got, want) => panic!("{}: got {got:?}, want {want:?}", ctx()),
    }
}

#[test]
fn the_byte_forms_follow_the_mark_policy_and_count_bytes() {
    let mut rng = StdRng::seed_from_u64(0x0B0E);
    let ts = transcoders();
    for round in 0..3000 {
        let n = rng.random_range(0..80);
        let units = random_units(&mut rng, n);
        for order in ORDERS {
            let mut src = bytes_of(&units, order);
            if round % 5 == 0 {
                src.push(0x41);
            }
            for mode in MODES {
                for &t in &ts {
                    check(t, &src, order, mode);
                }
            }
        }
    }
}

#[test]
fn long_inputs_with_pairs_across_the_length_blocks() {
    // The lengths read 256 units at a time: a pair may straddle any block.
    let mut rng = StdRng::seed_from_u64(0x1E9);
    let ts = transcoders();
    for shift in 0..64 {
        let mut units = random_units(&mut rng, 2000);
        units.splice(255 + shift % 3..255 + shift % 3, [0xD83D, 0xDE00]);
        for order in ORDERS {
            let src = bytes_of(&units, order);
            for mode in MODES {
                for &t in &ts {
                    check(t, &src, order, mode);
                }
            }
        }
    }
}

#[test]
fn short_inputs_exhaustively() {
    // Every input of up to 3 bytes over bytes that make marks, surrogates
    // and text in both orders.
    let alphabet = [0x00, 0x41, 0xD8, 0xDC, 0xFE, 0xFF];
    let t = Transcoder::new();
    let mut src = Vec::new();
    for len in 0..=4u32 {
        for n in 0..alphabet.len().pow(len) {
            src.clear();
            let mut k = n;
            for _ in 0..len {
                src.push(alphabet[k % alphabet.len()]);
                k /= alphabet.len();
            }
            for order in ORDERS {
                for mode in MODES {
                    check(t, &src, order, mode);
                }
            }
        }
    }
}

/// A reader that hands out at most `step` bytes a call.
struct Trickle<'a> {
    data: &'a [u8],
    step: usize,
}

impl Read for Trickle<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.data.len().min(self.step).min(buf.len());
        buf[..n].copy_from_slice(&self.data[..n]);
        self.data = &self.data[n..];
        Ok(n)
    }
}

/// The reader against the one-shot form, with the line and column of the
/// error computed from the text before it.
fn check_reader(src: &[u8], order: Endianness, mode: BomMode, step: usize) {
    let m = model(src, order, mode);
    let bo = ByteOrder::new(order, mode);
    let mut out = Vec::new();
    let r = transcode::utf16_reader_to_utf8(Trickle { data: src, step }, &mut out, bo);
    let ctx = || format!("{order:?} {mode:?} step {step} len {}", src.len());
    match (r, m.error) {
        (Ok(n), None) => {
            assert_eq!(n, src.len() as u64, "{}", ctx());
            assert_eq!(out, m.valid.as_bytes(), "{}", ctx());
        }
        (Err(ReadError::Invalid(e)), Some((at, kind))) => {
            assert_eq!((e.offset(), e.kind()), (at as u64, kind), "{}", ctx());
            let line = 1 + m.valid.matches('\n').count() as u64;
            let last = m.valid.rsplit('\n').next().unwrap_or("");
            let column = 1 + last.chars().count() as u64;
            assert_eq!((e.line(), e.column()), (line, column), "{}", ctx());
            let len = if kind == Utf16ErrorKind::Incomplete {
                None
            } else {
                Some(2)
            };
            assert_eq!(e.error_len(), len, "{}", ctx());
            assert_eq!(out, m.valid.as_bytes(), "{}", ctx());
        }
        (got, want) => panic!("{}: got {got:?}, want {want:?}", ctx()),
    }
}

#[test]
fn the_reader_equals_the_one_shot_form_across_rounds() {
    let mut rng = StdRng::seed_from_u64(0x5EAD);
    for _ in 0..60 {
        // Long enough to cross the reader's 64 KiB rounds, with a pair or a
        // lone surrogate placed around each round's end.
        let mut units = random_units(&mut rng, 70_000);
        units.retain(|&u| !(0xD800..=0xDFFF).contains(&u));
        let at = 32_768 + rng.random_range(0..4) - 2;
        let insert: &[u16] = match rng.random_range(0..4) {
            0 => &[0xD83D, 0xDE00],
            1 => &[0xD83D],
            2 => &[0xDE00],
            _ => &[],
        };
        units.splice(at..at, insert.iter().copied());
        for order in ORDERS {
            let mut src = bytes_of(&units, order);
            if rng.random_bool(0.2) {
                src.push(0x20);
            }
            for mode in MODES {
                check_reader(
                    &src,
                    order,
                    mode,
                    [1 << 20, 4093, 65_537][rng.random_range(0..3)],
                );
            }
        }
    }
    for _ in 0..500 {
        let n = rng.random_range(0..40);
        let units = random_units(&mut rng, n);
        for order in ORDERS {
            let src = bytes_of(&units, order);
            for mode in MODES {
                let step = rng.random_range(1..8);
                check_reader(&src, order, mode, step);
            }
        }
    }
}

#[test]
fn a_utf16_file_with_a_bom_reads_into_a_string_without_it() {
    let text = "# varcodecs\nUTF-16: 😀 and é.\n".repeat(3000);
    let dir = std::env::temp_dir().join(format!("transcode-utf16-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for order in ORDERS {
        let bom = order.utf16_bom();
        let mut file = bom.as_bytes().to_vec();
        file.extend(bytes_of(&text.encode_utf16().collect::<Vec<_>>(), order));
        let path = dir.join(format!("{order:?}.txt"));
        std::fs::write(&path, &file).unwrap();
        let read = transcode::read_utf16_to_string(std::fs::File::open(&path).unwrap(), order);
        assert_eq!(read.unwrap(), text, "{order:?}");
        // An unpaired surrogate in line 2, column 5: its byte offset counts
        // the mark.
        let mut units: Vec<u16> = text.encode_utf16().collect();
        let at = text.find('\n').unwrap() + 1 + 4;
        units[at] = 0xDC00;
        let mut bad = bom.as_bytes().to_vec();
        bad.extend(bytes_of(&units, order));
        std::fs::write(&path, &bad).unwrap();
        let Err(ReadError::Invalid(e)) =
            transcode::read_utf16_to_string(std::fs::File::open(&path).unwrap(), order)
        else {
            panic!("{order:?}: no error")
        };
        assert_eq!(
            (e.offset(), e.line(), e.column()),
            (2 + 2 * at as u64, 2, 5),
            "{order:?}"
        );
        let one_shot = transcode::utf16_bytes_to_string(&bad, order).unwrap_err();
        assert_eq!(one_shot.byte_offset() as u64, e.offset());
    }
    std::fs::remove_dir_all(&dir).ok();
}

/// What `iconv -t UTF-16` writes (glibc: a mark, then this machine's
/// order) reads back without the mark; skipped where iconv is absent.
#[test]
fn iconv_utf16_output_reads_back_without_the_mark() {
    use std::io::Write;
    use std::process::{Command, Stdio};
    let text = "# varcodecs\nñ € 😀\n";
    let child = Command::new("iconv")
        .args(["-f", "UTF-8", "-t", "UTF-16"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn();
    let Ok(mut child) = child else {
        eprintln!("iconv not found: skipped");
        return;
    };
    child
        .stdin
        .take()
        .unwrap()
        .write_all(text.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success());
    let order = match codec_core::Bom::detect(&out.stdout) {
        Some(codec_core::Bom::Utf16Le) => Endianness::Little,
        Some(codec_core::Bom::Utf16Be) => Endianness::Big,
        other => panic!("iconv wrote no UTF-16 mark: {other:?}"),
    };
    assert_eq!(
        transcode::utf16_bytes_to_string(&out.stdout, order).as_deref(),
        Ok(text)
    );
    assert_eq!(
        transcode::read_utf16_to_string(&out.stdout[..], order).unwrap(),
        text
    );
}
