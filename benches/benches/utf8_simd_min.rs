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
//! `cargo bench -p benches --bench utf8_simd_min [rounds] [filter]...`
//! (default 100 rounds, `--quick` 3; a filter keeps the inputs whose label
//! contains it, such as `64B` or `Chinese`; the other arguments of
//! `benches::harness::Args` work too).

// A measuring tool: a panic is how it reports a broken set-up.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod utf8_simd_inputs;

use benches::harness::Args;
use std::hint::black_box;

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
    let args = Args::parse(100);
    let rounds = args.rounds;
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
        .filter(|(label, _)| args.keeps_input(label))
        .collect();
    let mut g = args.group("utf8-simd", "ns per call", 1);
    // Each timing repeats the call until it covers about 64 KiB; the turn
    // rotates from round to round.
    g.rotate();
    let t = g.table();
    t.title = format!(
        "utf8-simd AVX2 kernel (Avx2::new()) against simdutf8 0.1.5 and std: ns per call, min of {rounds} interleaved rounds"
    );
    t.decimals = 1;
    t.extra("basic / is_valid", "", |c| {
        Some(c.get("simdutf8 basic")? / c.get("avx2 is_valid")?)
    });
    t.extra("compat / validate", "", |c| {
        Some(c.get("simdutf8 compat")? / c.get("avx2 validate")?)
    });
    t.extra("std / validate", "", |c| {
        Some(c.get("std")? / c.get("avx2 validate")?)
    });
    for (label, input) in &inputs {
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
        g.reps((65536 / input.len().max(1)).max(1));
        g.row_by(label, &NAMES, |i| {
            black_box(fns[i](black_box(input)));
        });
    }
    print!("{}", g.finish().markdown());
}
