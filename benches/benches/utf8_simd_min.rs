//! utf8-simd's AVX2 kernel against simdutf8 and std, timed by the minimum
//! over many interleaved rounds instead of criterion's mean.
//!
//! The kernel is named explicitly (`Avx2::new()`), so that machines with
//! AVX-512, where the dispatched functions choose the AVX-512 kernel, still
//! measure what AVX2-only CPUs (AMD Zen 2 and 3, older Intel) run. simdutf8
//! 0.1.5 has no AVX-512 kernel: its best here is its AVX2 one.
//!
//! On a machine shared with other jobs, preemption inflates means and
//! shifts them between runs; the minimum of short rounds, with every
//! implementation timed in turn within each round (in an order that rotates
//! from round to round), is the figure least disturbed by it. Each timing
//! repeats the call until it covers about 64 KiB, so short inputs are timed
//! over thousands of calls. Prints one markdown table: ns per call, and the
//! ratios peer / ours (above 1.00: ours is faster).
//!
//! `cargo bench -p benches --bench utf8_simd_min [rounds] [filter]`
//! (default 100 rounds; a filter keeps the inputs whose label contains it,
//! such as `64B` or `Chinese`).

// A measuring tool: a panic is how it reports a broken set-up.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod utf8_simd_inputs;

use std::hint::black_box;
use std::time::Instant;

use codec_facade::utf8_simd::{Avx2, Utf8Validator};

/// One validator under test: whether its input is valid.
type Check<'a> = dyn Fn(&[u8]) -> bool + 'a;

/// The functions measured, in table order.
const NAMES: [&str; 5] = [
    "avx2 is_valid",
    "simdutf8 basic",
    "avx2 validate",
    "simdutf8 compat",
    "std",
];

fn main() {
    // `cargo bench` passes `--bench`; a bare number sets the rounds, any
    // other word filters the inputs.
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| a != "--bench")
        .collect();
    let rounds = args.iter().find_map(|a| a.parse().ok()).unwrap_or(100);
    let filter = args.iter().find(|a| a.parse::<usize>().is_err());
    let Some(avx2) = Avx2::new() else {
        println!("utf8_simd_min: this CPU has no AVX2; nothing to measure");
        return;
    };
    // The criterion sizes, and 100 B: one overlapped pair of blocks, the
    // kernel's one-or-two-block path (64 and 67..=128 bytes).
    let mut sizes = utf8_simd_inputs::SIZES.to_vec();
    sizes.insert(2, (100, "100B"));
    let inputs: Vec<(String, Vec<u8>)> = utf8_simd_inputs::inputs_at(&sizes)
        .into_iter()
        .filter(|(label, _)| filter.is_none_or(|f| label.contains(f.as_str())))
        .collect();
    println!(
        "\nutf8-simd AVX2 kernel (Avx2::new()) against simdutf8 0.1.5 and std: ns per call, min of {rounds} interleaved rounds\n"
    );
    println!(
        "| input | {} | basic / is_valid | compat / validate | std / validate |",
        NAMES.join(" | ")
    );
    println!("|---|{}---:|---:|---:|", "---:|".repeat(NAMES.len()));
    for (label, input) in &inputs {
        let reps = (65536 / input.len().max(1)).max(1);
        let fns: [&Check<'_>; 5] = [
            &|i| avx2.is_valid(i),
            &|i| simdutf8::basic::from_utf8(i).is_ok(),
            &|i| avx2.validate(i).is_ok(),
            &|i| simdutf8::compat::from_utf8(i).is_ok(),
            &|i| core::str::from_utf8(i).is_ok(),
        ];
        for f in fns {
            assert!(f(input), "{label}: every input is valid");
        }
        let mut best = [f64::MAX; 5];
        for round in 0..rounds {
            for k in 0..fns.len() {
                let which = (k + round) % fns.len();
                let f = fns[which];
                let t = Instant::now();
                for _ in 0..reps {
                    black_box(f(black_box(input)));
                }
                let ns = t.elapsed().as_nanos() as f64 / reps as f64;
                best[which] = best[which].min(ns);
            }
        }
        let cells: Vec<String> = best.iter().map(|ns| format!("{ns:.1}")).collect();
        println!(
            "| {label} | {} | {:.2} | {:.2} | {:.2} |",
            cells.join(" | "),
            best[1] / best[0],
            best[3] / best[2],
            best[4] / best[2]
        );
    }
}
