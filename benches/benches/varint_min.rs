//! The varint benchmarks of `varint.rs`, timed by the minimum over many
//! interleaved rounds instead of criterion's mean.
//!
//! On a machine shared with other jobs, preemption inflates means and
//! shifts them between runs; the minimum of short rounds, with every
//! implementation timed in turn within each round, is the figure least
//! disturbed by it. Prints one markdown table per group, in ns per value.
//!
//! `cargo bench -p benches --bench varint_min [rounds]` (default 300).

// A benchmark harness: a panic is how it reports a wrong answer.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod varint_impls;

use std::hint::black_box;
use std::time::Instant;

use varint_impls::{
    COUNT, DECODERS, ENCODERS, bulk_impls, distributions, encode_all, encode_slice_with, len_peers,
    our_kernels,
};

/// Runs each of `fns` once per round, in turn, and returns the fastest
/// round of each, in ns per value.
fn min_rounds(rounds: usize, fns: &mut [&mut dyn FnMut()]) -> Vec<f64> {
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

fn table(group: &str, names: &[&str], rows: &[(&str, Vec<f64>)]) {
    println!("\n{group} (ns/value, min of rounds)\n");
    println!("| input | {} |", names.join(" | "));
    println!("|---|{}", "---:|".repeat(names.len()));
    for (label, t) in rows {
        let cells: Vec<String> = t.iter().map(|ns| format!("{ns:.2}")).collect();
        println!("| {label} | {} |", cells.join(" | "));
    }
}

fn main() {
    // `cargo bench` passes `--bench`; a bare number sets the rounds.
    let rounds = std::env::args()
        .skip(1)
        .find_map(|a| a.parse().ok())
        .unwrap_or(300);
    varint_impls::check_all();
    let (mut dec, mut enc, mut bulk) = (Vec::new(), Vec::new(), Vec::new());
    let (mut benc, mut lens) = (Vec::new(), Vec::new());
    let kernels = our_kernels();
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
        dec.push((label, min_rounds(rounds, &mut refs)));

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
        enc.push((label, min_rounds(rounds, &mut refs)));
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
        bulk.push((label, min_rounds(rounds, &mut refs)));

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
        benc.push((label, min_rounds(rounds, &mut refs)));

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
        lens.push((label, min_rounds(rounds, &mut refs)));
    }
    table("varint-decode", &DECODERS.map(|d| d.0), &dec);
    table("varint-encode", &ENCODERS.map(|d| d.0), &enc);
    let bulk_names: Vec<String> = bulk_impls().into_iter().map(|d| d.0).collect();
    let names: Vec<&str> = bulk_names.iter().map(String::as_str).collect();
    table("varint-bulk", &names, &bulk);
    let mut names: Vec<&str> = kernels.iter().map(|k| k.0.as_str()).collect();
    names.extend(ENCODERS.iter().skip(1).map(|e| e.0));
    table("varint-bulk-encode", &names, &benc);
    let mut names: Vec<&str> = kernels.iter().map(|k| k.0.as_str()).collect();
    names.extend(len_peers().iter().map(|e| e.0));
    table("varint-len", &names, &lens);
}
