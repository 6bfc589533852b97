//! Every varint bulk kernel in the workspace registry
//! (`codec_testdata::registry::varint_decoders`, from `varint::kernels()`)
//! against one-at-a-time scalar decoding and encoding: values, count, stop
//! offset and error kind for `u64` and `u32`, lenient and strict, with an
//! output slice of a fuzzed size; `encode_slice` and `encoded_len_slice`
//! against `encode`, with nothing written past the encoding; the iterators
//! and `decode_into_vec` of every kernel; and signed LEB128 round trips.
//!
//! The input is the varint stream itself; its first byte also sets the
//! output size. libFuzzer hands it in a heap buffer of exactly its length,
//! and the target is built with AddressSanitizer, so a window or word read
//! one byte past the slice is a finding.
#![no_main]

use codec_core::DecodeError;
use fuzz::same;
use libfuzzer_sys::fuzz_target;
use std::sync::OnceLock;
use varint::{KernelCodec, Varint};

fn codecs() -> &'static [(String, KernelCodec)] {
    static LIST: OnceLock<Vec<(String, KernelCodec)>> = OnceLock::new();
    LIST.get_or_init(codec_testdata::registry::varint_decoders)
}

/// One value at a time: values, bytes taken, the error.
fn one_by_one<T: Varint>(
    data: &[u8],
    limit: usize,
    strict: bool,
) -> (Vec<T>, usize, Option<DecodeError>) {
    let (mut pos, mut out) = (0, Vec::new());
    while pos < data.len() && out.len() < limit {
        let r = if strict {
            varint::decode_strict::<T>(&data[pos..])
        } else {
            varint::decode::<T>(&data[pos..])
        };
        match r {
            Ok((v, n)) => {
                out.push(v);
                pos += n;
            }
            Err(e) => return (out, pos, Some(e)),
        }
    }
    (out, pos, None)
}

fn check_decode<T: Varint>(name: &str, codec: KernelCodec, data: &[u8], limit: usize) {
    for strict in [false, true] {
        let (want, pos, err) = one_by_one::<T>(data, limit, strict);
        let mut out = vec![T::default(); limit];
        let got = if strict {
            codec.decode_into_strict(data, &mut out)
        } else {
            codec.decode_into(data, &mut out)
        };
        let what = format!("{name} {} strict={strict} limit={limit}", core::any::type_name::<T>());
        let got = match got {
            Ok(d) => (d.count, d.bytes, None),
            Err(e) => (e.count(), e.offset(), Some(e.error())),
        };
        same(&what, data, got, (want.len(), pos, err));
        same(&what, data, &out[..want.len()], &want[..]);
        same(&what, data, out[want.len()..].iter().all(|&v| v == T::default()), true);
    }
}

fn check_encode<T: Varint>(name: &str, codec: KernelCodec, data: &[u8], values: &[T]) {
    let mut want = Vec::new();
    let mut buf = [0u8; 19];
    for &v in values {
        let n = varint::encode(v, &mut buf);
        want.extend_from_slice(&buf[..n]);
    }
    let what = format!("{name} encode {}", core::any::type_name::<T>());
    same(&what, data, codec.encoded_len_slice(values), want.len());
    let mut out = vec![0xA5u8; want.len() + 9];
    same(&what, data, codec.encode_slice(values, &mut out), Ok(want.len()));
    same(&what, data, &out[..want.len()], &want[..]);
    same(&what, data, out[want.len()..].iter().all(|&b| b == 0xA5), true);
    if !want.is_empty() {
        let mut short = vec![0xA5u8; want.len() - 1];
        same(&what, data, codec.encode_slice(values, &mut short).is_err(), true);
        same(&what, data, short.iter().all(|&b| b == 0xA5), true);
    }
}

fuzz_target!(|data: &[u8]| {
    let limit = match data.first() {
        Some(&b) if b < 0x40 => usize::from(b),
        _ => data.len() + 1,
    };
    let mut words = data.chunks_exact(8);
    let values64: Vec<u64> = words
        .by_ref()
        .map(|c| {
            let v = u64::from_le_bytes(c.try_into().unwrap_or_default());
            // Every length, not only long ones.
            v >> (v % 64)
        })
        .collect();
    let values32: Vec<u32> = values64.iter().map(|&v| v as u32).collect();
    for (name, codec) in codecs() {
        check_decode::<u64>(name, *codec, data, limit);
        check_decode::<u32>(name, *codec, data, limit);
        check_encode::<u64>(name, *codec, data, &values64);
        check_encode::<u32>(name, *codec, data, &values32);
    }

    // The iterators and `decode_into_vec`, which decode ahead with each
    // kernel (the free functions with the dispatched one, the list's first).
    for strict in [false, true] {
        let (want, pos, err) = one_by_one::<u64>(data, usize::MAX, strict);
        for (name, codec) in codecs() {
            let mut it = if strict { codec.iter_strict::<u64>(data) } else { codec.iter::<u64>(data) };
            let got: Vec<u64> = it.by_ref().map_while(Result::ok).collect();
            let what = format!("{name} iter strict={strict}");
            same(&what, data, &got, &want);
            same(&what, data, it.offset(), pos);
            if !strict {
                let what = format!("{name} decode_into_vec");
                let mut vec = Vec::new();
                let got = codec.decode_into_vec::<u64>(data, &mut vec).map_err(|e| (e.error(), e.offset()));
                same(&what, data, got, err.map_or(Ok(want.len()), |e| Err((e, pos))));
                same(&what, data, &vec, &want);
            }
        }
    }

    // Signed LEB128: round trips of the words, and decode never panics.
    for &v in &values64 {
        let s = v as i64;
        let mut buf = [0u8; 10];
        let n = varint::sleb128::encode(s, &mut buf);
        same("sleb128 round trip", data, varint::sleb128::decode_strict::<i64>(&buf[..n]), Ok((s, n)));
    }
    let _ = varint::sleb128::decode::<i128>(data);
    let _ = varint::sleb128::decode_strict::<i32>(data);
});
