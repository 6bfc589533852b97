//! transcode from UTF-16, with every kernel set this CPU runs, against std:
//! `char::decode_utf16` for the strict conversions' result and error,
//! `String::from_utf16_lossy` for the lossy ones, the same bytes read as
//! UTF-16LE and UTF-16BE (an odd last byte included), and the counts.
#![no_main]

use fuzz::same;
use libfuzzer_sys::fuzz_target;
use transcode::{BomMode, ByteOrder, Endianness};

fuzz_target!(|data: &[u8]| {
    let units: Vec<u16> = data
        .chunks_exact(2)
        .map(|b| u16::from_le_bytes([b[0], b[1]]))
        .collect();
    let lossy = String::from_utf16_lossy(&units);
    let valid: String = char::decode_utf16(units.iter().copied())
        .map_while(Result::ok)
        .collect();
    let strict_ok = char::decode_utf16(units.iter().copied()).all(|r| r.is_ok());
    let odd = if data.len() % 2 == 1 { "\u{FFFD}" } else { "" };
    for k in transcode::kernels() {
        let Some(t) = k.transcoder() else { continue };
        let name = k.name();
        let mut out = vec![0u8; 3 * units.len()];
        let got = t.utf16_to_utf8(&units, &mut out);
        let n = got.map_or_else(|e| e.written(), |n| n);
        same(name, data, &out[..n], valid.as_bytes());
        same(name, data, got.is_ok(), strict_ok);
        if let Err(e) = got {
            let at = e.invalid().map(|e| e.valid_up_to());
            same(name, data, at, Some(valid.encode_utf16().count()));
        }
        let n = t.utf16_to_utf8_lossy(&units, &mut out).unwrap_or(0);
        same(name, data, &out[..n], lossy.as_bytes());
        same(name, data, t.utf16_to_string_lossy(&units), lossy.clone());
        let want = format!("{lossy}{odd}");
        same(name, data, t.utf16_bytes_to_string_lossy(data, ByteOrder::new(Endianness::Little, BomMode::Keep)), want);
        let swapped: Vec<u16> = units.iter().map(|u| u.swap_bytes()).collect();
        let want = format!("{}{odd}", String::from_utf16_lossy(&swapped));
        same(name, data, t.utf16_bytes_to_string_lossy(data, ByteOrder::new(Endianness::Big, BomMode::Keep)), want);
        let want32: Vec<u32> = lossy.chars().map(u32::from).collect();
        same(name, data, t.utf16_to_utf32_lossy_vec(&units), want32);
        same(name, data, t.count_chars_utf16(&units), lossy.chars().count());
        same(name, data, t.utf8_len_from_utf16(&units), lossy.len());
    }
});
