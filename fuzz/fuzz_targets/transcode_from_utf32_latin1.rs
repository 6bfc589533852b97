//! transcode from UTF-32 (`char::from_u32` for the result and the error)
//! and from Latin-1, with every kernel set this CPU runs.
#![no_main]

use fuzz::same;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let units: Vec<u32> = data
        .chunks_exact(4)
        .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]) % 0x11_0100)
        .collect();
    let lossy: String = units
        .iter()
        .map(|&u| char::from_u32(u).unwrap_or('\u{FFFD}'))
        .collect();
    let valid: String = units.iter().map_while(|&u| char::from_u32(u)).collect();
    let latin1: String = data.iter().map(|&b| char::from(b)).collect();
    for k in transcode::kernels() {
        let Some(t) = k.transcoder() else { continue };
        let name = k.name();
        same(name, data, t.utf32_to_string_lossy(&units), lossy.clone());
        let got = t.utf32_to_string(&units);
        same(name, data, got.is_ok(), valid.chars().count() == units.len());
        let lossy16: Vec<u16> = lossy.encode_utf16().collect();
        same(name, data, t.utf32_to_utf16_lossy_vec(&units), lossy16);
        let mut out = vec![0u16; 2 * units.len()];
        let got = t.utf32_to_utf16(&units, &mut out);
        let n = got.map_or_else(|e| e.written(), |n| n);
        same(name, data, &out[..n], &valid.encode_utf16().collect::<Vec<_>>()[..]);
        same(name, data, t.utf8_len_from_utf32(&units), lossy.len());
        same(name, data, t.latin1_to_string(data), latin1.clone());
        same(name, data, t.utf8_len_from_latin1(data), latin1.len());
        let back = t.utf8_to_latin1_vec(latin1.as_bytes()).ok();
        same(name, data, back.as_deref(), Some(data));
    }
});
