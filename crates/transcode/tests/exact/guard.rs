//! Over-read and over-write detection on real hardware: every entry point
//! converts inputs of every length 0..=256 that end exactly at (or start
//! exactly after) a `PROT_NONE` guard page, into outputs of exactly the
//! needed size (and one unit less) that end at another guard page. A read
//! or write one unit outside a slice, scalar or vector, kills the test with
//! SIGSEGV. The answers are compared with the oracle too, so a kernel that
//! avoids the edge by giving up is caught.
//!
//! Linux only: the guard pages come from `codec_testdata::guard` (mmap and
//! mprotect), whose own tests prove that the harness faults.
#![cfg(target_os = "linux")]

use crate::dirs::*;
use crate::harness::*;
use codec_testdata::guard::{GuardedBuf, boundary_inputs};
use transcode::{BufferTooSmall, ErrorKind, Progress, Transcoder};

const MAX_LEN: usize = 256;

/// The longest input checked: [`MAX_LEN`], or 80 under emulation (which
/// still passes every block size of every kernel).
fn max_len() -> usize {
    if codec_testdata::emulated() {
        80
    } else {
        MAX_LEN
    }
}

/// `data` copied into `buf` so that it ends at the trailing guard page (or
/// starts right after the leading one).
fn place<'a, S: Poison>(buf: &'a mut GuardedBuf, data: &[S], at_start: bool) -> &'a mut [S] {
    let bytes = size_of_val(data);
    let raw = if at_start {
        buf.at_start_mut(bytes)
    } else {
        buf.at_end_mut(bytes)
    };
    // SAFETY: `S` is u8, u16 or u32 (the only `Poison` types): every bit
    // pattern is a value and there is no padding. The slice starts at a page
    // boundary, or a multiple of `size_of::<S>()` bytes before one, so it is
    // aligned and `align_to_mut` returns all of it as the middle part.
    let (pre, mid, post) = unsafe { raw.align_to_mut::<S>() };
    assert!(pre.is_empty() && post.is_empty());
    mid.copy_from_slice(data);
    mid
}

/// An output of `n` units of poison ending at the guard page.
fn output<D: Poison>(buf: &mut GuardedBuf, n: usize) -> &mut [D] {
    place(buf, &vec![D::poison(); n], false)
}

/// Every form of `dir`, on `original` placed against a guard page, with
/// outputs of exactly the needed size and one less, against the oracle.
fn guarded<S: Poison, D: Poison, E: Copy + std::fmt::Debug + PartialEq>(
    dir: &Dir<S, D, E>,
    ts: &[Transcoder],
    original: &[S],
    bufs: &mut (GuardedBuf, GuardedBuf),
) {
    let items = (dir.decode)(original);
    let strict = expect(&items, dir.encode, false);
    let lossy = expect(&items, dir.encode, true);
    let (total, lossy_total) = (strict.out.len(), lossy.out.len());
    let end = strict.steps.last().unwrap().0;
    for at_start in [false, true] {
        let (inb, outb) = bufs;
        let src: &[S] = place(inb, original, at_start);
        for t in ts {
            let what = || format!("{} {} on {original:X?}", dir.name, t.name());
            if let Some(f) = dir.strict {
                let got = mirror(f(t, src, output::<D>(outb, total)));
                let want = match strict.stop {
                    None => Ok(total),
                    Some(kind) => Err(error(end, total, kind)),
                };
                assert_eq!(got, want, "{}", what());
                if total > 0 {
                    let got = mirror(f(t, src, output::<D>(outb, total - 1)));
                    let (r, w) = *strict.steps.iter().rev().find(|s| s.1 < total).unwrap();
                    let tiny = ErrorKind::BufferTooSmall(BufferTooSmall::new(total, total - 1));
                    assert_eq!(got, Err(error(r, w, tiny)), "{}", what());
                }
            }
            if let Some(f) = dir.partial {
                for cap in [total, total.saturating_sub(1)] {
                    let got = mirror(f(t, src, output::<D>(outb, cap)));
                    let (r, w) = *strict.steps.iter().rev().find(|s| s.1 <= cap).unwrap();
                    match (strict.stop, cap == total) {
                        (Some(kind), true) => {
                            assert_eq!(got, Err(error(r, w, kind)), "{}", what())
                        }
                        _ => assert_eq!(got, Ok(Progress::new(r, w)), "{}", what()),
                    }
                }
            }
            if let Some(f) = dir.lossy {
                let out = output::<D>(outb, lossy_total);
                assert_eq!(f(t, src, out), Ok(lossy_total), "{}", what());
                assert!(out[..] == lossy.out[..], "{}", what());
                if lossy_total > 0 {
                    let got = f(t, src, output::<D>(outb, lossy_total - 1));
                    let want = BufferTooSmall::new(lossy_total, lossy_total - 1);
                    assert_eq!(got, Err(want), "{}", what());
                }
            }
            if let Some(f) = dir.lossy_partial {
                let got = f(t, src, output::<D>(outb, lossy_total));
                let (r, _) = *lossy.steps.last().unwrap();
                assert_eq!(got, Progress::new(r, lossy_total), "{}", what());
            }
        }
    }
}

fn bufs() -> (GuardedBuf, GuardedBuf) {
    (GuardedBuf::new(8 * MAX_LEN), GuardedBuf::new(16 * MAX_LEN))
}

#[test]
fn utf8_input_at_guard_pages() {
    let ts = transcoders();
    let mut b = bufs();
    let mut count = 0;
    boundary_inputs(max_len(), |input| {
        guarded(&UTF8_TO_UTF16, &ts, input, &mut b);
        guarded(&UTF8_TO_UTF16LE, &ts, input, &mut b);
        guarded(&UTF8_TO_UTF16BE, &ts, input, &mut b);
        guarded(&UTF8_TO_UTF32, &ts, input, &mut b);
        guarded(&UTF8_TO_LATIN1, &ts, input, &mut b);
        if let Ok(s) = core::str::from_utf8(input) {
            guarded(&STR_TO_UTF16, &ts, input, &mut b);
            guarded(&STR_TO_UTF16BE, &ts, input, &mut b);
            guarded(&STR_TO_UTF32, &ts, input, &mut b);
            guarded(&STR_TO_LATIN1, &ts, input, &mut b);
            for at_start in [false, true] {
                let g = core::str::from_utf8(place(&mut b.0, input, at_start)).unwrap();
                for t in &ts {
                    assert_eq!(t.count_chars(g), s.chars().count());
                    assert_eq!(t.utf16_len(g), s.encode_utf16().count());
                }
            }
        }
        count += 1;
    });
    assert!(count > 10 * max_len(), "only {count} inputs");
}

/// UTF-16 inputs of every length up to [`MAX_LEN`]: text of each width cut
/// to the length, and the same ending or starting with unpaired surrogates.
fn utf16_inputs(mut f: impl FnMut(&[u16])) {
    for len in 0..=max_len() {
        for filler in ["a", "é", "吕", "😀", "aé吕😀"] {
            let units: Vec<u16> = filler.encode_utf16().cycle().take(len).collect();
            f(&units);
            if len > 0 {
                for bad in [0xD800u16, 0xDC00] {
                    let mut u = units.clone();
                    *u.last_mut().unwrap() = bad;
                    f(&u);
                    *u.last_mut().unwrap() = 0x61;
                    u[0] = bad;
                    f(&u);
                }
            }
        }
    }
}

#[test]
fn utf16_input_at_guard_pages() {
    let ts = transcoders();
    let mut b = bufs();
    utf16_inputs(|units| {
        guarded(&UTF16_TO_UTF8, &ts, units, &mut b);
        guarded(&UTF16_TO_UTF32, &ts, units, &mut b);
        guarded(&UTF16_TO_LATIN1, &ts, units, &mut b);
        let bytes: Vec<u8> = units.iter().flat_map(|u| u.to_le_bytes()).collect();
        guarded(&UTF16LE_TO_UTF8, &ts, &bytes, &mut b);
        guarded(
            &UTF16LE_TO_UTF8,
            &ts,
            &bytes[..bytes.len().saturating_sub(1)],
            &mut b,
        );
        let bytes: Vec<u8> = units.iter().flat_map(|u| u.to_be_bytes()).collect();
        guarded(&UTF16BE_TO_UTF8, &ts, &bytes, &mut b);
        guarded(
            &UTF16BE_TO_UTF8,
            &ts,
            &bytes[..bytes.len().saturating_sub(1)],
            &mut b,
        );
        for at_start in [false, true] {
            let g = place(&mut b.0, units, at_start);
            for t in &ts {
                assert_eq!(
                    t.count_chars_utf16(g),
                    char::decode_utf16(units.iter().copied()).count()
                );
                assert_eq!(
                    t.utf8_len_from_utf16(g),
                    String::from_utf16_lossy(units).len()
                );
            }
        }
    });
}

#[test]
fn utf32_and_latin1_input_at_guard_pages() {
    let ts = transcoders();
    let mut b = bufs();
    for len in 0..=max_len() {
        for filler in ['a', 'é', '吕', '😀'] {
            let mut units = vec![u32::from(filler); len];
            guarded(&UTF32_TO_UTF8, &ts, &units, &mut b);
            guarded(&UTF32_TO_UTF16, &ts, &units, &mut b);
            guarded(&UTF32_TO_LATIN1, &ts, &units, &mut b);
            if len > 0 {
                units[len - 1] = 0xD800;
                guarded(&UTF32_TO_UTF8, &ts, &units, &mut b);
                guarded(&UTF32_TO_UTF16, &ts, &units, &mut b);
            }
        }
        for byte in [b'a', 0xE9] {
            let bytes = vec![byte; len];
            guarded(&LATIN1_TO_UTF8, &ts, &bytes, &mut b);
            guarded(&LATIN1_TO_UTF16, &ts, &bytes, &mut b);
            guarded(&LATIN1_TO_UTF32, &ts, &bytes, &mut b);
            for at_start in [false, true] {
                let g = place(&mut b.0, &bytes, at_start);
                for t in &ts {
                    assert_eq!(
                        t.utf8_len_from_latin1(g),
                        len * (1 + usize::from(byte >= 0x80))
                    );
                }
            }
        }
    }
}

/// Every direction of the crate's table (`transcode::direction::for_each`)
/// at guard pages: text of every length up to [`MAX_LEN`] units in its
/// input encoding, valid and with its last unit replaced by a random one,
/// through each of its generic forms. A row added to the table is checked
/// here with no change to this file.
#[test]
fn every_direction_of_the_table_at_guard_pages() {
    use crate::harness::{any_unit, lossy_dir, oracle, strict_dir};
    use rand::SeedableRng;
    use transcode::direction::{Direction, Encoding, Lossy, Unit, Visit, for_each};

    struct Guarded {
        ts: Vec<Transcoder>,
        bufs: (GuardedBuf, GuardedBuf),
        rng: rand::rngs::StdRng,
    }
    impl Guarded {
        fn inputs<E: Encoding>(&mut self) -> Vec<Vec<Unit<E>>> {
            let encode = oracle::<E>().1;
            let mut out = Vec::new();
            for len in 0..=max_len() {
                for filler in ["a", "é", "吕", "😀", "aé吕😀"] {
                    let units: Vec<Unit<E>> = filler
                        .chars()
                        .filter_map(encode)
                        .flatten()
                        .cycle()
                        .take(len)
                        .collect();
                    if len > 0 && units.len() == len {
                        let mut bad = units.clone();
                        bad[len - 1] = any_unit(&mut self.rng);
                        out.push(bad);
                    }
                    out.push(units);
                }
            }
            out
        }
    }
    impl Visit for Guarded {
        fn direction<D: Direction>(&mut self) {
            for src in self.inputs::<D::From>() {
                guarded(&strict_dir::<D>(), &self.ts, &src, &mut self.bufs);
            }
        }
        fn lossy<D: Lossy>(&mut self) {
            for src in self.inputs::<D::From>() {
                guarded(&lossy_dir::<D>(), &self.ts, &src, &mut self.bufs);
            }
        }
    }
    let mut g = Guarded {
        ts: transcoders(),
        bufs: bufs(),
        rng: rand::rngs::StdRng::seed_from_u64(0x6A4D),
    };
    for_each(&mut g);
}
