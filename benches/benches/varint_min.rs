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
//! is left out is not run and prints as `-`. They exist to count one
//! implementation's instructions under callgrind without the others:
//!
//! ```text
//! valgrind --tool=callgrind --toggle-collect='*enc_prost*' \
//!     target/release/deps/varint_min-HASH 3 --group encode --impl prost --input 1byte
//! ```

// A benchmark harness: a panic is how it reports a wrong answer.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod varint_impls;

use benches::harness::{Args, Table, min_rounds, speedup_svg};
use std::hint::black_box;

use varint_impls::{
    COUNT, DECODERS, ENCODERS, bulk_impls, distributions, encode_all, encode_slice_with, len_peers,
    our_kernels,
};

fn main() {
    let args = Args::parse(300);
    let (rounds, filter) = (args.rounds, &args);
    varint_impls::check_all();
    let (mut dec, mut enc, mut bulk) = (Vec::new(), Vec::new(), Vec::new());
    let (mut benc, mut lens) = (Vec::new(), Vec::new());
    let kernels = our_kernels();
    let dec_names = DECODERS.map(|d| d.0);
    let enc_names = ENCODERS.map(|d| d.0);
    let bulk_names: Vec<String> = bulk_impls().into_iter().map(|d| d.0).collect();
    let bulk_names: Vec<&str> = bulk_names.iter().map(String::as_str).collect();
    let mut benc_names: Vec<&str> = kernels.iter().map(|k| k.0.as_str()).collect();
    benc_names.extend(ENCODERS.iter().skip(1).map(|e| e.0));
    let mut len_names: Vec<&str> = kernels.iter().map(|k| k.0.as_str()).collect();
    len_names.extend(len_peers().iter().map(|e| e.0));
    for (label, values) in distributions() {
        let buf = encode_all(&values);
        let mut fns: Vec<Box<dyn FnMut()>> = DECODERS
            .iter()
            .map(|&(_, f)| {
                let buf = &buf;
                Box::new(move || {
                    black_box(f(black_box(buf)));
                }) as Box<dyn FnMut()>
            })
            .collect();
        let mut refs: Vec<&mut dyn FnMut()> = fns.iter_mut().map(|f| &mut **f as _).collect();
        let run = filter.mask("decode", label, &dec_names);
        dec.push((label, min_rounds(rounds, COUNT, &run, &mut refs)));

        let mut out = vec![0u8; COUNT * 10 + 16];
        let mut outs: Vec<Vec<u8>> = ENCODERS.iter().map(|_| out.clone()).collect();
        let mut fns: Vec<Box<dyn FnMut()>> = ENCODERS
            .iter()
            .zip(outs.iter_mut())
            .map(|(&(_, f), out)| {
                let values = &values;
                Box::new(move || {
                    black_box(f(black_box(values), black_box(out)));
                }) as Box<dyn FnMut()>
            })
            .collect();
        let mut refs: Vec<&mut dyn FnMut()> = fns.iter_mut().map(|f| &mut **f as _).collect();
        let run = filter.mask("encode", label, &enc_names);
        enc.push((label, min_rounds(rounds, COUNT, &run, &mut refs)));
        out.clear();

        let bulk_list = bulk_impls();
        let mut outs: Vec<Vec<u64>> = bulk_list.iter().map(|_| vec![0u64; COUNT]).collect();
        let mut fns: Vec<Box<dyn FnMut()>> = bulk_list
            .iter()
            .zip(outs.iter_mut())
            .map(|((_, f), out)| {
                let buf = &buf;
                Box::new(move || {
                    black_box(f(black_box(buf), black_box(out)));
                }) as Box<dyn FnMut()>
            })
            .collect();
        let mut refs: Vec<&mut dyn FnMut()> = fns.iter_mut().map(|f| &mut **f as _).collect();
        let run = filter.mask("bulk", label, &bulk_names);
        bulk.push((label, min_rounds(rounds, COUNT, &run, &mut refs)));

        // Bulk encode: ours with each kernel, then the per-value peers.
        let mut outs: Vec<Vec<u8>> = (0..kernels.len() + ENCODERS.len())
            .map(|_| vec![0u8; COUNT * 10 + 16])
            .collect();
        let mut fns: Vec<Box<dyn FnMut()>> = Vec::new();
        let (ours, theirs) = outs.split_at_mut(kernels.len());
        for ((_, codec), out) in kernels.iter().zip(ours.iter_mut()) {
            let (values, codec) = (&values, *codec);
            fns.push(Box::new(move || {
                black_box(encode_slice_with(
                    Some(codec),
                    black_box(values),
                    black_box(out),
                ));
            }));
        }
        for (&(_, f), out) in ENCODERS.iter().skip(1).zip(theirs.iter_mut()) {
            let values = &values;
            fns.push(Box::new(move || {
                black_box(f(black_box(values), black_box(out)));
            }));
        }
        let mut refs: Vec<&mut dyn FnMut()> = fns.iter_mut().map(|f| &mut **f as _).collect();
        let run = filter.mask("bulk-encode", label, &benc_names);
        benc.push((label, min_rounds(rounds, COUNT, &run, &mut refs)));

        let mut fns: Vec<Box<dyn FnMut()>> = Vec::new();
        for &(_, codec) in &kernels {
            let values = &values;
            fns.push(Box::new(move || {
                black_box(codec.encoded_len_slice(black_box(values)));
            }));
        }
        for (_, f) in len_peers() {
            let values = &values;
            fns.push(Box::new(move || {
                black_box(f(black_box(values)));
            }));
        }
        let mut refs: Vec<&mut dyn FnMut()> = fns.iter_mut().map(|f| &mut **f as _).collect();
        let run = filter.mask("len", label, &len_names);
        lens.push((label, min_rounds(rounds, COUNT, &run, &mut refs)));
    }
    let tables = [
        (
            "varint-decode",
            "(one value at a time)",
            dec_names.to_vec(),
            dec,
        ),
        (
            "varint-encode",
            "(one value at a time)",
            enc_names.to_vec(),
            enc,
        ),
        ("varint-bulk", "(decode_into)", bulk_names.clone(), bulk),
        ("varint-bulk-encode", "(encode_slice)", benc_names, benc),
        ("varint-len", "(encoded_len_slice)", len_names.clone(), lens),
    ]
    .map(|(group, what, names, rows)| {
        let mut t = Table::new(group, "ns/value", &names);
        for (input, figures) in rows {
            t.push(input, figures);
        }
        (t, what)
    });
    for (t, _) in &tables {
        print!("{}", t.markdown());
    }
    if let Some(path) = &args.svg {
        // RUSTFLAGS as the binary was built with (cargo passes the
        // environment on to rustc).
        let note = format!(
            "cargo bench -p benches --bench varint_min -- {rounds} --svg; RUSTFLAGS=\"{}\"; our first kernel: {}",
            option_env!("RUSTFLAGS").unwrap_or(""),
            kernels.first().map_or("-", |k| k.0.as_str())
        );
        // Ours once (the first column), then every peer: our other
        // kernels are left out.
        let charted: Vec<Table> = tables
            .iter()
            .map(|(t, what)| {
                let mut c = t.select(|i, col| {
                    let ours = col.starts_with("varint")
                        && col != "varint-simd"
                        && !col.starts_with("varint-simd-");
                    match (i, ours) {
                        (0, _) => Some("varint (this crate)".to_string()),
                        (_, true) => None,
                        _ => Some(col.to_string()),
                    }
                });
                c.group = format!("{} {what}", t.group);
                c
            })
            .collect();
        let chart = speedup_svg(
            &charted,
            "prost",
            "varint: speed-up over prost (ns per value, min of rounds; log scale)",
            &note,
        );
        std::fs::write(path, chart).expect("write the chart");
        eprintln!("wrote {path}");
    }
}
