//! The QUIC varint bulk decoders of every kernel of `varint::shuffle_kernels()`
//! that this CPU can run, against the portable one (the loop over the
//! scalar decoder), lenient and strict: the answer, the values, and
//! nothing written past them (a sentinel); and round trips of values of
//! every length.
//!
//! The first byte picks the output's room; the rest is the stream to
//! decode and, read as little-endian words, the values to encode.
//! libFuzzer hands the input in a heap buffer of exactly its length, and the
//! target is built with AddressSanitizer, so a 16-byte window or an 8-byte
//! word read past the slice is a finding.
#![no_main]

use fuzz::same;
use libfuzzer_sys::fuzz_target;
use varint::formats::{Format, Quic};
use varint::{ShuffleCodec, shuffle_kernels};

const SENTINEL: u64 = 0xDEAD_BEEF_DEAD_BEEF;

fuzz_target!(|data: &[u8]| {
    let Some((&room, stream)) = data.split_first() else { return };
    let room = usize::from(room);
    let codecs: Vec<ShuffleCodec> = shuffle_kernels().iter().filter_map(|k| k.codec()).collect();
    let Some((&portable, kernels)) = codecs.split_last() else { return };

    let run = |codec: ShuffleCodec, strict: bool, input: &[u8], room: usize| {
        let mut out = vec![SENTINEL; room + 4];
        let r = if strict {
            codec.quic_decode_into_strict(input, &mut out[..room])
        } else {
            codec.quic_decode_into(input, &mut out[..room])
        };
        (r, out)
    };

    let values: Vec<u64> = stream
        .chunks_exact(8)
        .map(|c| {
            let v = u64::from_le_bytes(c.try_into().unwrap_or_default()) & Quic::MAX;
            // Every length, not only long ones.
            v >> (v % 62)
        })
        .collect();
    let encoded = Quic::encode_slice_to_vec(&values).unwrap_or_default();

    for strict in [false, true] {
        let want = run(portable, strict, stream, room);
        let want_rt = run(portable, strict, &encoded, values.len());
        same("portable round trip", data, &want_rt.1[..values.len()], &values[..]);
        for &codec in kernels {
            let name = codec.kernel().name();
            same(name, data, run(codec, strict, stream, room), want.clone());
            same(name, data, run(codec, strict, &encoded, values.len()), want_rt.clone());
        }
    }
    same("dispatched", data, {
        let mut out = vec![SENTINEL; room + 4];
        (Quic::decode_into(stream, &mut out[..room]), out)
    }, run(portable, false, stream, room));
});
