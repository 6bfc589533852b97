//! transcode from UTF-8, with every kernel set this CPU runs, against std:
//! the strict conversions' result and error (`core::str::from_utf8`), the
//! lossy ones (`String::from_utf8_lossy`), the `&str` ones, both byte
//! orders, into an output with room and into one too small by a control
//! byte's worth.
#![no_main]

use fuzz::{same, split_control};
use libfuzzer_sys::fuzz_target;
use transcode::{Endianness, ErrorKind};

fuzz_target!(|data: &[u8]| {
    let ([short], data) = split_control::<1>(data);
    let std = core::str::from_utf8(data);
    let valid = &data[..std.map_or_else(|e| e.valid_up_to(), |s| s.len())];
    let valid = core::str::from_utf8(valid).unwrap_or_default();
    let want16: Vec<u16> = valid.encode_utf16().collect();
    let want32: Vec<u32> = valid.chars().map(u32::from).collect();
    let lossy = String::from_utf8_lossy(data);
    let lossy16: Vec<u16> = lossy.encode_utf16().collect();
    let error = std.err().map(|e| transcode::Utf8Error::from_std(e, data));
    for k in transcode::kernels() {
        let Some(t) = k.transcoder() else { continue };
        let name = k.name();
        // Strict, with room.
        let mut out = vec![0u16; data.len() + 1];
        let got = t.utf8_to_utf16(data, &mut out);
        let n = got.map_or_else(|e| e.written(), |n| n);
        same(name, data, &out[..n], &want16[..]);
        same(name, data, got.err().and_then(|e| e.invalid().copied()), error);
        // Strict, too small: the valid prefix that fits, and how much was
        // needed.
        let cap = want16.len().saturating_sub(usize::from(short) + 1);
        if cap < want16.len() {
            let mut out = vec![0u16; cap];
            match t.utf8_to_utf16(data, &mut out) {
                Err(e) => match e.kind() {
                    ErrorKind::BufferTooSmall(b) => {
                        same(name, data, b.needed(), want16.len());
                        same(name, data, &out[..e.written()], &want16[..e.written()]);
                        same(name, data, valid.is_char_boundary(e.read()), true);
                    }
                    other => panic!("{name}: {other:?} with {cap} of {}", want16.len()),
                },
                Ok(n) => panic!("{name}: {n} units into {cap}"),
            }
        }
        // Lossy, in both byte orders too.
        let mut out = vec![0u16; data.len()];
        let n = t.utf8_to_utf16_lossy(data, &mut out).unwrap_or(0);
        same(name, data, &out[..n], &lossy16[..]);
        for order in [Endianness::Little, Endianness::Big] {
            let want: Vec<u8> = lossy16
                .iter()
                .flat_map(|u| match order {
                    Endianness::Little => u.to_le_bytes(),
                    Endianness::Big => u.to_be_bytes(),
                })
                .collect();
            same(name, data, t.utf8_to_utf16_bytes_lossy_vec(data, order), want);
        }
        // UTF-32 and Latin-1.
        let mut out = vec![0u32; data.len()];
        let got = t.utf8_to_utf32(data, &mut out);
        let n = got.map_or_else(|e| e.written(), |n| n);
        same(name, data, &out[..n], &want32[..]);
        let latin1: Vec<u8> = valid
            .chars()
            .map_while(|c| u8::try_from(u32::from(c)).ok())
            .collect();
        let got = t.utf8_to_latin1_vec(data);
        let prefix = got.as_ref().map_or_else(|e| e.written(), Vec::len);
        same(name, data, prefix, latin1.len());
        // From `&str`: no validation, the same answer.
        if let Ok(s) = std {
            same(name, data, t.str_to_utf16_vec(s), want16.clone());
            same(name, data, t.count_chars(s), s.chars().count());
            same(name, data, t.utf16_len(s), want16.len());
        }
    }
});
