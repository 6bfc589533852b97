//! transcode's streams against the one-shot conversions: the input split
//! where control bytes say, pushed into outputs of a control byte's size,
//! strict and lossy, UTF-8 → UTF-16 and UTF-16 → UTF-8.
#![no_main]

use fuzz::{same, split_control};
use libfuzzer_sys::fuzz_target;
use transcode::{Transcoder, Utf8ToUtf16Stream, Utf16ToUtf8Stream};

/// Chunk lengths from the control bytes, cycling.
fn chunks<'a, T>(control: &[u8], mut data: &'a [T]) -> Vec<&'a [T]> {
    let mut out = Vec::new();
    let mut i = 0;
    while !data.is_empty() {
        let n = (usize::from(control[i % control.len()]) % 17).min(data.len());
        out.push(&data[..n]);
        data = &data[n..];
        i += 1;
    }
    out
}

fuzz_target!(|data: &[u8]| {
    let (control, data) = split_control::<8>(data);
    let t = Transcoder::new();
    let cap = 2 + usize::from(control[0] % 40);
    for lossy in [false, true] {
        // UTF-8 -> UTF-16.
        let mut s = Utf8ToUtf16Stream::with(t, lossy);
        let (mut out, mut buf) = (Vec::new(), vec![0u16; cap]);
        let mut error = None;
        'feed: for chunk in chunks(&control[1..], data) {
            let mut rest = chunk;
            while !rest.is_empty() {
                match s.push(rest, &mut buf) {
                    Ok(p) => {
                        out.extend_from_slice(&buf[..p.written()]);
                        rest = &rest[p.read()..];
                    }
                    Err(e) => {
                        out.extend_from_slice(&buf[..e.written()]);
                        error = e.invalid().copied();
                        break 'feed;
                    }
                }
            }
        }
        if error.is_none() {
            match s.finish(&mut buf) {
                Ok(n) => out.extend_from_slice(&buf[..n]),
                Err(e) => error = e.invalid().copied(),
            }
        }
        if lossy {
            let want: Vec<u16> = String::from_utf8_lossy(data).encode_utf16().collect();
            same("utf8 lossy stream", data, (&out[..], error), (&want[..], None));
        } else {
            let want = t.utf8_to_utf16_vec(data);
            let got = match error {
                None => Ok(out),
                Some(e) => Err(e),
            };
            same("utf8 stream", data, got, want);
        }

        // UTF-16 -> UTF-8.
        let units: Vec<u16> = data
            .chunks_exact(2)
            .map(|b| u16::from_le_bytes([b[0], b[1]]))
            .collect();
        let mut s = Utf16ToUtf8Stream::with(t, lossy);
        let (mut out, mut buf) = (Vec::new(), vec![0u8; cap + 2]);
        let mut error = None;
        'feed16: for chunk in chunks(&control[1..], &units) {
            let mut rest = chunk;
            while !rest.is_empty() {
                match s.push(rest, &mut buf) {
                    Ok(p) => {
                        out.extend_from_slice(&buf[..p.written()]);
                        rest = &rest[p.read()..];
                    }
                    Err(e) => {
                        out.extend_from_slice(&buf[..e.written()]);
                        error = e.invalid().copied();
                        break 'feed16;
                    }
                }
            }
        }
        if error.is_none() {
            match s.finish(&mut buf) {
                Ok(n) => out.extend_from_slice(&buf[..n]),
                Err(e) => error = e.invalid().copied(),
            }
        }
        if lossy {
            let want = String::from_utf16_lossy(&units);
            same("utf16 lossy stream", data, (&out[..], error), (want.as_bytes(), None));
        } else {
            let want = t.utf16_to_string(&units).map(String::into_bytes);
            let got = match error {
                None => Ok(out),
                Some(e) => Err(e),
            };
            same("utf16 stream", data, got, want);
        }
    }
});
