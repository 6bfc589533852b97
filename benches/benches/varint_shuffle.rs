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
//! per second) and the ratios the issue sets targets for.

// A benchmark harness: a panic is how it reports a wrong answer.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::hint::black_box;
use std::time::Instant;

mod shuffle_impls;

use codec_facade::varint;
use shuffle_impls::{COUNT, distributions, stream_vbyte_decode, stream_vbyte_encode};
use varint::group_varint::GroupVarint;
use varint::streamvbyte::{StreamVByte, max_compressed_len};

/// Times each closure once per round, in turn; the fastest round of each,
/// in ns per value.
fn min_rounds(rounds: usize, fns: &mut [Box<dyn FnMut() + '_>]) -> Vec<f64> {
    let mut best = vec![f64::MAX; fns.len()];
    for _ in 0..rounds {
        for (b, f) in best.iter_mut().zip(fns.iter_mut()) {
            let t = Instant::now();
            f();
            *b = b.min(t.elapsed().as_nanos() as f64 / COUNT as f64);
        }
    }
    best
}

fn table(group: &str, names: &[String], rows: &[(&str, Vec<f64>)]) {
    println!("\n{group} (ns/value, min of rounds; billion values/s in parentheses)\n");
    println!("| input | {} |", names.join(" | "));
    println!("|---|{}", "---:|".repeat(names.len()));
    for (label, t) in rows {
        let cells: Vec<String> = t
            .iter()
            .map(|ns| format!("{ns:.3} ({:.2})", 1.0 / ns))
            .collect();
        println!("| {label} | {} |", cells.join(" | "));
    }
}

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
    // `cargo bench` passes `--bench`, and callers of criterion harnesses may
    // pass `--list` (this harness has no criterion ids to list); a bare
    // number sets the rounds.
    if std::env::args().any(|a| a == "--list") {
        return;
    }
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with('-'))
        .collect();
    let rounds: usize = args.first().and_then(|a| a.parse().ok()).unwrap_or(2000);
    println!(
        "varint_shuffle: {rounds} rounds of {COUNT} values; ssse3+sse4.1 target features: {}; \
         stream-vbyte SIMD: {}",
        cfg!(all(target_feature = "ssse3", target_feature = "sse4.1")),
        cfg!(feature = "stream-vbyte-simd")
    );
    let kernels = our_kernels();
    let mut dec_rows = Vec::new();
    let mut enc_rows = Vec::new();
    let mut gv_rows = Vec::new();
    let mut names_dec: Vec<String> = kernels.iter().map(|(n, _)| n.clone()).collect();
    names_dec.extend(["stream-vbyte".to_string(), "svb".to_string()]);
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

        // Decode.
        let mut outs: Vec<Vec<u32>> = (0..names_dec.len()).map(|_| vec![0u32; COUNT]).collect();
        let mut svb_out: Vec<u32> = Vec::with_capacity(COUNT);
        let mut fns: Vec<Box<dyn FnMut() + '_>> = Vec::new();
        let mut it = outs.iter_mut();
        for (_, codec) in &kernels {
            let out = it.next().unwrap();
            let s = StreamVByte::new().with_codec(*codec);
            let bytes = &bytes;
            fns.push(Box::new(move || {
                black_box(
                    s.decode(black_box(bytes), COUNT, black_box(&mut out[..]))
                        .unwrap(),
                );
            }));
        }
        let out = it.next().unwrap();
        let b = &bytes;
        fns.push(Box::new(move || {
            black_box(stream_vbyte_decode(black_box(b), black_box(&mut out[..])));
        }));
        let svb_ref = &mut svb_out;
        fns.push(Box::new(move || {
            svb_ref.clear();
            svb::u32::U32Classic
                .decode_into(black_box(b), COUNT, svb_ref)
                .unwrap();
            black_box(&svb_ref);
        }));
        dec_rows.push((label, min_rounds(rounds, &mut fns)));
        drop(fns);

        // Encode.
        let mut bufs: Vec<Vec<u8>> = (0..names_dec.len())
            .map(|_| vec![0u8; max_compressed_len(COUNT)])
            .collect();
        let mut svb_buf: Vec<u8> = Vec::with_capacity(max_compressed_len(COUNT));
        let mut fns: Vec<Box<dyn FnMut() + '_>> = Vec::new();
        let mut it = bufs.iter_mut();
        for (_, codec) in &kernels {
            let buf = it.next().unwrap();
            let s = StreamVByte::new().with_codec(*codec);
            let values = &values;
            fns.push(Box::new(move || {
                black_box(s.encode(black_box(values), black_box(&mut buf[..])));
            }));
        }
        let buf = it.next().unwrap();
        let v = &values;
        fns.push(Box::new(move || {
            black_box(stream_vbyte_encode(black_box(v), black_box(&mut buf[..])));
        }));
        let svb_ref = &mut svb_buf;
        fns.push(Box::new(move || {
            svb_ref.clear();
            svb::u32::U32Classic.encode_into(black_box(v), svb_ref);
            black_box(&svb_ref);
        }));
        enc_rows.push((label, min_rounds(rounds, &mut fns)));
        drop(fns);

        // Group Varint against LEB128 bulk, decode and encode.
        let gv = varint::group_varint::encode_to_vec(&values);
        let leb = varint::encode_slice_to_vec(&values);
        assert_eq!(
            varint::group_varint::decode_to_vec(&gv, COUNT).unwrap(),
            values
        );
        let (mut o1, mut o2, mut o3) = (vec![0u32; COUNT], vec![0u32; COUNT], vec![0u32; COUNT]);
        let (mut b1, mut b2) = (vec![0u8; max_compressed_len(COUNT)], vec![0u8; 5 * COUNT]);
        let gv_avx2 = varint::shuffle_kernels()
            .iter()
            .find(|k| k.name() == "avx2")
            .and_then(|k| k.codec())
            .unwrap_or_default();
        let mut fns: Vec<Box<dyn FnMut() + '_>> = vec![
            Box::new(|| {
                black_box(
                    varint::group_varint::decode(black_box(&gv), COUNT, black_box(&mut o1))
                        .unwrap(),
                );
            }),
            Box::new(|| {
                black_box(
                    GroupVarint::with_codec(gv_avx2)
                        .decode(black_box(&gv), COUNT, black_box(&mut o3))
                        .unwrap(),
                );
            }),
            Box::new(|| {
                black_box(varint::decode_into::<u32>(black_box(&leb), black_box(&mut o2)).unwrap());
            }),
            Box::new(|| {
                black_box(varint::group_varint::encode(
                    black_box(&values),
                    black_box(&mut b1),
                ));
            }),
            Box::new(|| {
                black_box(varint::encode_slice(black_box(&values), black_box(&mut b2)).unwrap());
            }),
        ];
        gv_rows.push((label, min_rounds(rounds, &mut fns)));
    }
    table("streamvbyte-decode", &names_dec, &dec_rows);
    table("streamvbyte-encode", &names_dec, &enc_rows);
    let gv_names: Vec<String> = [
        "gv-decode",
        "gv-decode[avx2]",
        "leb128-decode_into",
        "gv-encode",
        "leb128-encode_slice",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    table("group-varint", &gv_names, &gv_rows);

    println!("\nratios (peer time / ours, same run):\n");
    println!(
        "| input | decode vs fastest peer | decode[avx2] vs fastest peer | encode vs fastest peer | encode[avx2] vs fastest peer | gv decode vs leb128 | gv encode vs leb128 |"
    );
    println!("|---|---:|---:|---:|---:|---:|---:|");
    let avx2 = kernels.iter().position(|(n, _)| n == "ours[avx2]");
    let n = names_dec.len();
    for ((label, d), ((_, e), (_, g))) in dec_rows.iter().zip(enc_rows.iter().zip(&gv_rows)) {
        let dp = d[n - 2].min(d[n - 1]);
        let ep = e[n - 2].min(e[n - 1]);
        let (da, ea) = avx2.map_or((f64::NAN, f64::NAN), |i| (dp / d[i], ep / e[i]));
        println!(
            "| {label} | {:.2} | {da:.2} | {:.2} | {ea:.2} | {:.2} | {:.2} |",
            dp / d[0],
            ep / e[0],
            g[2] / g[0],
            g[4] / g[3]
        );
    }
}
