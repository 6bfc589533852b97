//! The streams against one-shot std answers: every input split into random
//! chunks (and, for short inputs, at every pair of points), pushed into
//! outputs of random small sizes so that `push` also stops for room, in
//! strict and lossy mode, with every kernel set.

use crate::dirs::{scaled, transcoders};
use rand::{Rng, SeedableRng, rngs::StdRng};
use transcode::{Transcoder, Utf8Error, Utf8ToUtf16Stream, Utf16Error, Utf16ToUtf8Stream};

const POISON16: u16 = 0xA5A5;
const POISON8: u8 = 0xA5;

/// Nothing of `buf` past `written` may have changed from `poison`: a push
/// that stops (for room or at an error) leaves the rest of the output as
/// it was.
#[track_caller]
fn untouched_after<T: PartialEq + Copy + core::fmt::Debug>(
    buf: &[T],
    written: usize,
    poison: T,
    what: &str,
) {
    if let Some(i) = buf[written..].iter().position(|&u| u != poison) {
        panic!(
            "{what}: unit {} past the written {written} of {} changed to {:X?}",
            written + i,
            buf.len(),
            buf[written + i]
        );
    }
}

/// Pushes `chunks` through a UTF-8 stream with outputs of `cap` units:
/// the output, and the error if there was one.
fn utf8_stream(
    t: Transcoder,
    lossy: bool,
    chunks: &[&[u8]],
    cap: usize,
) -> (Vec<u16>, Option<Utf8Error>) {
    let mut s = Utf8ToUtf16Stream::with(t, lossy);
    let mut out = Vec::new();
    let mut buf = vec![POISON16; cap];
    for chunk in chunks {
        let mut rest = *chunk;
        loop {
            buf.fill(POISON16);
            let got = s.push(rest, &mut buf);
            let written = got.as_ref().map_or_else(|e| e.written(), |p| p.written());
            untouched_after(&buf, written, POISON16, "push");
            match got {
                Ok(p) => {
                    out.extend_from_slice(&buf[..p.written()]);
                    rest = &rest[p.read()..];
                    if rest.is_empty() {
                        break;
                    }
                    assert!(p.read() + p.written() > 0, "no progress with room {cap}");
                }
                Err(e) => {
                    out.extend_from_slice(&buf[..e.written()]);
                    return (out, e.invalid().copied());
                }
            }
        }
    }
    buf.fill(POISON16);
    let got = s.finish(&mut buf);
    let written = got.as_ref().map_or_else(|e| e.written(), |&n| n);
    untouched_after(&buf, written, POISON16, "finish");
    match got {
        Ok(n) => out.extend_from_slice(&buf[..n]),
        Err(e) => return (out, e.invalid().copied()),
    }
    (out, None)
}

/// As [`utf8_stream`], UTF-16 to UTF-8.
fn utf16_stream(
    t: Transcoder,
    lossy: bool,
    chunks: &[&[u16]],
    cap: usize,
) -> (Vec<u8>, Option<Utf16Error>) {
    let mut s = Utf16ToUtf8Stream::with(t, lossy);
    let mut out = Vec::new();
    let mut buf = vec![POISON8; cap];
    for chunk in chunks {
        let mut rest = *chunk;
        loop {
            buf.fill(POISON8);
            let got = s.push(rest, &mut buf);
            let written = got.as_ref().map_or_else(|e| e.written(), |p| p.written());
            untouched_after(&buf, written, POISON8, "push");
            match got {
                Ok(p) => {
                    out.extend_from_slice(&buf[..p.written()]);
                    rest = &rest[p.read()..];
                    if rest.is_empty() {
                        break;
                    }
                    assert!(p.read() + p.written() > 0, "no progress with room {cap}");
                }
                Err(e) => {
                    out.extend_from_slice(&buf[..e.written()]);
                    return (out, e.invalid().copied());
                }
            }
        }
    }
    buf.fill(POISON8);
    let got = s.finish(&mut buf);
    let written = got.as_ref().map_or_else(|e| e.written(), |&n| n);
    untouched_after(&buf, written, POISON8, "finish");
    match got {
        Ok(n) => out.extend_from_slice(&buf[..n]),
        Err(e) => return (out, e.invalid().copied()),
    }
    (out, None)
}

fn check_utf8(ts: &[Transcoder], whole: &[u8], chunks: &[&[u8]], cap: usize) {
    let strict = match core::str::from_utf8(whole) {
        Ok(s) => (s.encode_utf16().collect::<Vec<_>>(), None),
        Err(e) => {
            let valid = core::str::from_utf8(&whole[..e.valid_up_to()]).unwrap();
            (
                valid.encode_utf16().collect(),
                Some(Utf8Error::from_std(e, whole)),
            )
        }
    };
    let lossy: Vec<u16> = String::from_utf8_lossy(whole).encode_utf16().collect();
    for &t in ts {
        let what = || format!("{} {whole:02X?} in {chunks:02X?}, room {cap}", t.name());
        assert_eq!(
            utf8_stream(t, false, chunks, cap),
            strict,
            "strict {}",
            what()
        );
        assert_eq!(
            utf8_stream(t, true, chunks, cap),
            (lossy.clone(), None),
            "lossy {}",
            what()
        );
    }
}

fn check_utf16(ts: &[Transcoder], whole: &[u16], chunks: &[&[u16]], cap: usize) {
    let mut valid = Vec::new();
    let mut error = None;
    for (i, r) in char::decode_utf16(whole.iter().copied()).enumerate() {
        let _ = i;
        match r {
            Ok(c) => valid.push(c),
            Err(_) => {
                let at: usize = valid.iter().map(|c: &char| c.len_utf16()).sum();
                let e = transcode::utf16_to_utf8(whole, &mut vec![0; 3 * whole.len()])
                    .unwrap_err()
                    .invalid()
                    .copied()
                    .unwrap();
                assert_eq!(e.valid_up_to(), at);
                error = Some(e);
                break;
            }
        }
    }
    let strict = (valid.iter().collect::<String>().into_bytes(), error);
    let lossy = String::from_utf16_lossy(whole).into_bytes();
    for &t in ts {
        let what = || format!("{} {whole:04X?} in {chunks:04X?}, room {cap}", t.name());
        assert_eq!(
            utf16_stream(t, false, chunks, cap),
            strict,
            "strict {}",
            what()
        );
        assert_eq!(
            utf16_stream(t, true, chunks, cap),
            (lossy.clone(), None),
            "lossy {}",
            what()
        );
    }
}

/// Random chunks of 1 to `max` items.
fn random_chunks<'a, T>(rng: &mut StdRng, whole: &'a [T], max: usize) -> Vec<&'a [T]> {
    let mut chunks = Vec::new();
    let mut rest = whole;
    while !rest.is_empty() {
        let n = rng.random_range(1..=max.min(rest.len()));
        chunks.push(&rest[..n]);
        rest = &rest[n..];
    }
    chunks
}

#[test]
fn utf8_stream_equals_one_shot() {
    let ts = transcoders();
    let mut rng = StdRng::seed_from_u64(7);
    let samples: &[&[u8]] = &[
        "añ€😀 text".as_bytes(),
        b"\xE2\x82\xE2\x82\xAC",
        b"a\xF0\x9F\x98",
        b"\xE0\x80\xAF x",
        b"\xED\xA0\x80\xC0\xAF\xFF",
        b"\xF0\x9F\x98\x80\xF0\x9F",
    ];
    for &whole in samples {
        // Every split into three chunks.
        for i in 0..=whole.len() {
            for j in i..=whole.len() {
                let chunks = [&whole[..i], &whole[i..j], &whole[j..]];
                check_utf8(&ts, whole, &chunks, 2);
                check_utf8(&ts, whole, &chunks, 64);
            }
        }
    }
    for _ in 0..scaled(400) {
        let n = rng.random_range(0..300);
        let mut whole: Vec<u8> = (0..n)
            .map(|_| rng.random::<char>())
            .collect::<String>()
            .into_bytes();
        for _ in 0..rng.random_range(0..4) {
            if !whole.is_empty() {
                let i = rng.random_range(0..whole.len());
                whole[i] = rng.random();
            }
        }
        let chunks = random_chunks(&mut rng, &whole, 70);
        let cap = rng.random_range(2..100);
        check_utf8(&ts, &whole, &chunks, cap);
    }
}

#[test]
fn utf16_stream_equals_one_shot() {
    let ts = transcoders();
    let mut rng = StdRng::seed_from_u64(8);
    let samples: &[&[u16]] = &[
        &[0x61, 0xD83D, 0xDE00, 0x62],
        &[0xD83D, 0xD83D, 0xDE00],
        &[0xDE00, 0x61, 0xD800],
        &[0xD800, 0x41, 0xDC00, 0xDBFF],
    ];
    for &whole in samples {
        for i in 0..=whole.len() {
            for j in i..=whole.len() {
                let chunks = [&whole[..i], &whole[i..j], &whole[j..]];
                check_utf16(&ts, whole, &chunks, 4);
                check_utf16(&ts, whole, &chunks, 64);
            }
        }
    }
    for _ in 0..scaled(400) {
        let n = rng.random_range(0..300);
        let mut whole: Vec<u16> = (0..n)
            .map(|_| rng.random::<char>())
            .collect::<String>()
            .encode_utf16()
            .collect();
        for _ in 0..rng.random_range(0..4) {
            let i = rng.random_range(0..=whole.len());
            whole.insert(i, [0xD800, 0xDBFF, 0xDC00, 0xDFFF][rng.random_range(0..4)]);
        }
        let chunks = random_chunks(&mut rng, &whole, 70);
        let cap = rng.random_range(4..100);
        check_utf16(&ts, &whole, &chunks, cap);
    }
}
