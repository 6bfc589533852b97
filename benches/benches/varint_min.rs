//! The varint benchmarks of `varint.rs`, timed by the minimum over many
//! interleaved rounds instead of criterion's mean.
//!
//! On a machine shared with other jobs, preemption inflates means and
//! shifts them between runs; the minimum of short rounds, with every
//! implementation timed in turn within each round, is the figure least
//! disturbed by it. Prints one markdown table per group, in ns per value.
//!
//! `cargo bench -p benches --bench varint_min [rounds] [--svg PATH]
//! [--group G] [--impl NAME] [--input LABEL]` (default 300 rounds). `--svg`
//! also draws the speed-up of each implementation over prost, per group and
//! input, as a chart (`docs/results/varint.svg` is one).
//!
//! `--group` (`decode`, `encode`, `bulk`, `bulk-encode`, `len`), `--impl`
//! (a column name, such as `varint` or `prost`) and `--input` (a row label,
//! such as `1byte`) each keep only what they name, and may be repeated; what
//! is left out is not run and not printed. They exist to count one
//! implementation's instructions under callgrind without the others:
//!
//! ```text
//! valgrind --tool=callgrind --toggle-collect='*enc_prost*' \
//!     target/release/deps/varint_min-HASH 3 --group encode --impl prost --input 1byte
//! ```

// A benchmark harness: a panic is how it reports a wrong answer.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod varint_impls;

use benches::harness::{Args, Chart, Group, Table};
use std::hint::black_box;

use varint_impls::{
    COUNT, DECODERS, ENCODERS, bulk_impls, distributions, encode_all, encode_slice_with, len_peers,
    our_kernels,
};

/// The groups: (`--group` name, table name, what the chart says it times).
const GROUPS: [(&str, &str, &str); 5] = [
    ("decode", "varint-decode", "(one value at a time)"),
    ("encode", "varint-encode", "(one value at a time)"),
    ("bulk", "varint-bulk", "(decode_into)"),
    ("bulk-encode", "varint-bulk-encode", "(encode_slice)"),
    ("len", "varint-len", "(encoded_len_slice)"),
];

fn main() {
    let args = Args::parse(300);
    varint_impls::check_all();
    let kernels = our_kernels();
    let mut groups = GROUPS.map(|(name, table, _)| {
        let mut g = args.group(name, "ns/value", COUNT);
        g.table().title = format!("{table} (ns/value, min of rounds)");
        g
    });
    let [dec, enc, bulk, benc, lens] = &mut groups;
    let dec_names = DECODERS.map(|d| d.0);
    let enc_names = ENCODERS.map(|d| d.0);
    let bulk_list = bulk_impls();
    let bulk_names: Vec<&str> = bulk_list.iter().map(|d| d.0.as_str()).collect();
    // Bulk encode and lengths: ours with each kernel, then the peers.
    let mut benc_names: Vec<&str> = kernels.iter().map(|k| k.0.as_str()).collect();
    benc_names.extend(ENCODERS.iter().skip(1).map(|e| e.0));
    let mut len_names: Vec<&str> = kernels.iter().map(|k| k.0.as_str()).collect();
    let peers = len_peers();
    len_names.extend(peers.iter().map(|e| e.0));
    for (label, values) in distributions() {
        let buf = encode_all(&values);
        dec.row_by(label, &dec_names, |i| {
            black_box((DECODERS[i].1)(black_box(&buf)));
        });
        let mut outs: Vec<Vec<u8>> = ENCODERS
            .iter()
            .map(|_| vec![0u8; COUNT * 10 + 16])
            .collect();
        enc.row_by(label, &enc_names, |i| {
            black_box((ENCODERS[i].1)(black_box(&values), black_box(&mut outs[i])));
        });
        let mut outs: Vec<Vec<u64>> = bulk_list.iter().map(|_| vec![0u64; COUNT]).collect();
        bulk.row_by(label, &bulk_names, |i| {
            black_box((bulk_list[i].1)(black_box(&buf), black_box(&mut outs[i])));
        });
        let mut outs: Vec<Vec<u8>> = benc_names
            .iter()
            .map(|_| vec![0u8; COUNT * 10 + 16])
            .collect();
        benc.row_by(label, &benc_names, |i| {
            let (values, out) = (black_box(&values), black_box(&mut outs[i]));
            match kernels.get(i) {
                Some(&(_, codec)) => black_box(encode_slice_with(Some(codec), values, out)),
                None => black_box((ENCODERS[i - kernels.len() + 1].1)(values, out)),
            };
        });
        lens.row_by(label, &len_names, |i| {
            let values = black_box(&values);
            match kernels.get(i) {
                Some(&(_, codec)) => black_box(codec.encoded_len_slice(values)),
                None => black_box((peers[i - kernels.len()].1)(values)),
            };
        });
    }
    let tables: Vec<Table> = groups.into_iter().map(Group::finish).collect();
    for t in &tables {
        print!("{}", t.markdown());
    }
    if let Some(path) = &args.svg {
        // RUSTFLAGS as the binary was built with (cargo passes the
        // environment on to rustc).
        let note = format!(
            "cargo bench -p benches --bench varint_min -- {} --svg; RUSTFLAGS=\"{}\"; our first kernel: {}",
            args.rounds,
            option_env!("RUSTFLAGS").unwrap_or(""),
            kernels.first().map_or("-", |k| k.0.as_str())
        );
        // Ours once (the first column), then every peer: our other
        // kernels are left out.
        let sections = tables
            .iter()
            .zip(GROUPS)
            .map(|(t, (_, table, what))| {
                t.speedups("prost", &format!("{table} {what}"), |i, col| {
                    let ours = col.starts_with("varint")
                        && col != "varint-simd"
                        && !col.starts_with("varint-simd-");
                    match (i, ours) {
                        (0, _) => Some("varint (this crate)".to_string()),
                        (_, true) => None,
                        _ => Some(col.to_string()),
                    }
                })
            })
            .collect();
        let chart = Chart {
            title: "varint: speed-up over prost (ns per value, min of rounds; log scale)".into(),
            note,
            sections,
            range: Some((-2, 5)),
        };
        std::fs::write(path, benches::harness::svg(&chart)).expect("write the chart");
        eprintln!("wrote {path}");
    }
}
