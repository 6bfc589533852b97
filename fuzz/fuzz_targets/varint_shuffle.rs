//! Every Stream VByte and Group Varint kernel of `varint::shuffle_kernels()`
//! that this CPU can run, against the portable (scalar) one: decoding
//! (answer, values, and nothing written past them, in every layout and
//! option) and encoding (bytes, length, nothing written past them), plus
//! round trips.
//!
//! The first byte picks the Stream VByte configuration (bits 0–2) and the
//! count (the next byte); the rest is the stream to decode, and, read as
//! little-endian words, the values to encode. libFuzzer hands the input in
//! a heap buffer of exactly its length, and the target is built with
//! AddressSanitizer, so a 16-byte load or store past a slice is a finding.
#![no_main]

use fuzz::same;
use libfuzzer_sys::fuzz_target;
use varint::group_varint::GroupVarint;
use varint::streamvbyte::{Layout, StreamVByte, max_compressed_len};
use varint::{ShuffleCodec, shuffle_kernels};

const SENTINEL: u32 = 0xDEAD_BEEF;

fn config(bits: u8, codec: ShuffleCodec) -> StreamVByte {
    StreamVByte::new()
        .layout(if bits & 4 != 0 { Layout::Zero124 } else { Layout::Standard })
        .zigzag(bits & 2 != 0)
        .delta(bits & 1 != 0)
        .with_codec(codec)
}

fuzz_target!(|data: &[u8]| {
    let (bits, count, stream) = match data {
        [a, b, rest @ ..] => (*a, usize::from(*b) * 2, rest),
        _ => return,
    };
    let codecs: Vec<ShuffleCodec> = shuffle_kernels().iter().filter_map(|k| k.codec()).collect();
    let Some((&portable, kernels)) = codecs.split_last() else { return };
    let values: Vec<u32> = stream
        .chunks_exact(4)
        .map(|c| {
            let v = u32::from_le_bytes([c[0], c[1], c[2], c[3]]);
            // Every length, not only long ones.
            v >> (v % 32)
        })
        .collect();

    let want_svb = {
        let mut out = vec![SENTINEL; count + 4];
        (config(bits, portable).decode(stream, count, &mut out), out)
    };
    let want_gv = {
        let mut out = vec![SENTINEL; count + 4];
        (GroupVarint::with_codec(portable).decode(stream, count, &mut out), out)
    };
    let scalar_svb = config(bits, portable).encode_to_vec(&values);
    let scalar_gv = GroupVarint::with_codec(portable).encode_to_vec(&values);
    same("portable svb round trip", data, config(bits, portable).decode_to_vec(&scalar_svb, values.len()), Ok(values.clone()));
    same("portable gv round trip", data, GroupVarint::with_codec(portable).decode_to_vec(&scalar_gv, values.len()), Ok(values.clone()));

    for &codec in kernels {
        let name = codec.kernel().name();
        let mut out = vec![SENTINEL; count + 4];
        let r = config(bits, codec).decode(stream, count, &mut out);
        same(&format!("{name} svb decode"), data, (r, &out), (want_svb.0, &want_svb.1));
        let mut out = vec![SENTINEL; count + 4];
        let r = GroupVarint::with_codec(codec).decode(stream, count, &mut out);
        same(&format!("{name} gv decode"), data, (r, &out), (want_gv.0, &want_gv.1));

        let mut buf = vec![0xA5u8; max_compressed_len(values.len()) + 16];
        let n = config(bits, codec).encode(&values, &mut buf);
        same(&format!("{name} svb encode"), data, &buf[..n], &scalar_svb[..]);
        same(&format!("{name} svb encode tail"), data, buf[n..].iter().all(|&b| b == 0xA5), true);
        let mut buf = vec![0xA5u8; max_compressed_len(values.len()) + 16];
        let n = GroupVarint::with_codec(codec).encode(&values, &mut buf);
        same(&format!("{name} gv encode"), data, &buf[..n], &scalar_gv[..]);
        same(&format!("{name} gv encode tail"), data, buf[n..].iter().all(|&b| b == 0xA5), true);
        // Exactly sized outputs: ASan catches a store past them.
        let mut exact = vec![0u8; scalar_svb.len()];
        same(&format!("{name} svb exact"), data, config(bits, codec).try_encode(&values, &mut exact), Ok(scalar_svb.len()));
        let mut exact = vec![0u8; scalar_gv.len()];
        same(&format!("{name} gv exact"), data, GroupVarint::with_codec(codec).try_encode(&values, &mut exact), Ok(scalar_gv.len()));
    }
});
