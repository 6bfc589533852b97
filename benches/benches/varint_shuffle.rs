//! Stream VByte and Group Varint (`varint::streamvbyte`,
//! `varint::group_varint`) against their peers, timed by the minimum over
//! many interleaved rounds (as `varint_min.rs`), 4,096 `u32`s a pass (the
//! input and output stay in L1).
//!
//! - Stream VByte decode and encode: ours through the dispatch and with
//!   each kernel by name (`avx2`, `sse4.1`, `portable`), against
//!   `stream-vbyte` (its SSSE3 decoder and SSE4.1 encoder, the features
//!   `x86_ssse3`/`x86_sse41`) and `svb` (`simd-auto`: its own run-time
//!   dispatch, AVX2 here).
//! - Group Varint decode and encode against our LEB128 bulk functions
//!   (`decode_into::<u32>`, `encode_slice`) on the same values.
//!
//! `stream-vbyte`'s SIMD kernels need nightly Rust (its `x86_ssse3` and
//! `x86_sse41` features use `#![feature(portable_simd)]`, behind this
//! package's `stream-vbyte-simd` feature), and they are plain functions
//! calling the intrinsics, fast only where the target enables SSSE3 and
//! SSE4.1, as its documentation says. Measure them so, in a target
//! directory of their own:
//!
//! ```text
//! RUSTFLAGS="-C target-feature=+ssse3,+sse4.1" CARGO_TARGET_DIR=target/sse41-nightly \
//!     cargo +nightly bench -p benches --bench varint_shuffle --features stream-vbyte-simd [rounds]
//! ```
//!
//! Without the feature, the `stream-vbyte` column is its scalar codec.
//!
//! Prints one markdown table per group (ns per value and billions of values
//! per second) and the ratios the issue sets targets for. Arguments: those
//! of `benches::harness::Args` (default 2000 rounds).

// A benchmark harness: a panic is how it reports a wrong answer.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use benches::harness::{Args, Table};
use std::hint::black_box;

mod shuffle_impls;

use codec_facade::varint;
use shuffle_impls::{COUNT, distributions, stream_vbyte_decode, stream_vbyte_encode};
use varint::group_varint::GroupVarint;
use varint::streamvbyte::{StreamVByte, max_compressed_len};

fn our_kernels() -> Vec<(String, varint::ShuffleCodec)> {
    let mut v = vec![("ours".to_string(), varint::ShuffleCodec::new())];
    for k in varint::shuffle_kernels() {
        if let Some(c) = k.codec() {
            v.push((format!("ours[{}]", k.name()), c));
        }
    }
    v
}

fn main() {
    let args = Args::parse(2000);
    let rounds = args.rounds;
    println!(
        "varint_shuffle: {rounds} rounds of {COUNT} values; ssse3+sse4.1 target features: {}; \
         stream-vbyte SIMD: {}",
        cfg!(all(target_feature = "ssse3", target_feature = "sse4.1")),
        cfg!(feature = "stream-vbyte-simd")
    );
    let kernels = our_kernels();
    let codecs: Vec<StreamVByte> = kernels
        .iter()
        .map(|(_, codec)| StreamVByte::new().with_codec(*codec))
        .collect();
    let mut names: Vec<&str> = kernels.iter().map(|(n, _)| n.as_str()).collect();
    names.extend(["stream-vbyte", "svb"]);
    let gv_names = [
        "gv-decode",
        "gv-decode[avx2]",
        "leb128-decode_into",
        "gv-encode",
        "leb128-encode_slice",
    ];
    let mut groups = ["streamvbyte-decode", "streamvbyte-encode", "group-varint"].map(|name| {
        let mut g = args.group(name, "ns/value", COUNT);
        let t = g.table();
        t.title = format!("{name} (ns/value, min of rounds; billion values/s in parentheses)");
        t.decimals = 3;
        t.inverse = true;
        g
    });
    let [dec, enc, gv_group] = &mut groups;
    let gv_avx2 = varint::shuffle_kernels()
        .iter()
        .find(|k| k.name() == "avx2")
        .and_then(|k| k.codec())
        .unwrap_or_default();
    for (label, values) in distributions() {
        let bytes = varint::streamvbyte::encode_to_vec(&values);
        // Every implementation agrees before it is timed.
        let mut check = vec![0u32; COUNT];
        {
            assert_eq!(stream_vbyte_decode(&bytes, &mut check), bytes.len());
            assert_eq!(check, values);
            let mut enc = vec![0u8; max_compressed_len(COUNT)];
            let n = stream_vbyte_encode(&values, &mut enc);
            assert_eq!(&enc[..n], &bytes[..]);
        }
        assert_eq!(svb::u32::U32Classic.decode(&bytes, COUNT).unwrap(), values);
        assert_eq!(svb::u32::U32Classic.encode(&values), bytes);

        // Decode: ours through the dispatch and each kernel, then the peers.
        let mut outs: Vec<Vec<u32>> = names.iter().map(|_| vec![0u32; COUNT]).collect();
        let mut svb_out: Vec<u32> = Vec::with_capacity(COUNT);
        dec.row_by(label, &names, |i| {
            let (b, out) = (black_box(&bytes), black_box(&mut outs[i][..]));
            match codecs.get(i) {
                Some(s) => {
                    black_box(s.decode(b, COUNT, out).unwrap());
                }
                None if i == codecs.len() => {
                    black_box(stream_vbyte_decode(b, out));
                }
                None => {
                    svb_out.clear();
                    svb::u32::U32Classic
                        .decode_into(b, COUNT, &mut svb_out)
                        .unwrap();
                    black_box(&svb_out);
                }
            }
        });

        // Encode.
        let mut bufs: Vec<Vec<u8>> = names
            .iter()
            .map(|_| vec![0u8; max_compressed_len(COUNT)])
            .collect();
        let mut svb_buf: Vec<u8> = Vec::with_capacity(max_compressed_len(COUNT));
        enc.row_by(label, &names, |i| {
            let (v, buf) = (black_box(&values), black_box(&mut bufs[i][..]));
            match codecs.get(i) {
                Some(s) => {
                    black_box(s.encode(v, buf));
                }
                None if i == codecs.len() => {
                    black_box(stream_vbyte_encode(v, buf));
                }
                None => {
                    svb_buf.clear();
                    svb::u32::U32Classic.encode_into(v, &mut svb_buf);
                    black_box(&svb_buf);
                }
            }
        });

        // Group Varint against LEB128 bulk, decode and encode.
        let gv = varint::group_varint::encode_to_vec(&values);
        let leb = varint::encode_slice_to_vec(&values);
        assert_eq!(
            varint::group_varint::decode_to_vec(&gv, COUNT).unwrap(),
            values
        );
        let (mut o1, mut o2, mut o3) = (vec![0u32; COUNT], vec![0u32; COUNT], vec![0u32; COUNT]);
        let (mut b1, mut b2) = (vec![0u8; max_compressed_len(COUNT)], vec![0u8; 5 * COUNT]);
        gv_group.row_by(label, &gv_names, |i| match i {
            0 => {
                black_box(
                    varint::group_varint::decode(black_box(&gv), COUNT, black_box(&mut o1))
                        .unwrap(),
                );
            }
            1 => {
                black_box(
                    GroupVarint::with_codec(gv_avx2)
                        .decode(black_box(&gv), COUNT, black_box(&mut o3))
                        .unwrap(),
                );
            }
            2 => {
                black_box(varint::decode_into::<u32>(black_box(&leb), black_box(&mut o2)).unwrap());
            }
            3 => {
                black_box(varint::group_varint::encode(
                    black_box(&values),
                    black_box(&mut b1),
                ));
            }
            _ => {
                black_box(varint::encode_slice(black_box(&values), black_box(&mut b2)).unwrap());
            }
        });
    }
    let [dec, enc, gv] = groups.map(|g| g.finish());
    for t in [&dec, &enc, &gv] {
        print!("{}", t.markdown());
    }

    let mut ratios = Table::new(
        "ratios",
        "ratios (peer time / ours, same run):",
        &[
            "decode vs fastest peer",
            "decode[avx2] vs fastest peer",
            "encode vs fastest peer",
            "encode[avx2] vs fastest peer",
            "gv decode vs leb128",
            "gv encode vs leb128",
        ],
    );
    for (label, _) in &dec.rows {
        let get = |t: &Table, column: &str| t.get(label, column).unwrap_or(f64::NAN);
        let peer = |t: &Table| get(t, "stream-vbyte").min(get(t, "svb"));
        let (dp, ep) = (peer(&dec), peer(&enc));
        ratios.push(
            label,
            vec![
                dp / get(&dec, "ours"),
                dp / get(&dec, "ours[avx2]"),
                ep / get(&enc, "ours"),
                ep / get(&enc, "ours[avx2]"),
                get(&gv, "leb128-decode_into") / get(&gv, "gv-decode"),
                get(&gv, "leb128-encode_slice") / get(&gv, "gv-encode"),
            ],
        );
    }
    print!("{}", ratios.markdown());
}
