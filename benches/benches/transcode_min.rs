//! The transcode benchmarks timed by the minimum over many interleaved
//! rounds: each implementation runs once per round, in turn, on the same
//! input, and the fastest round of each is kept. On a machine shared with
//! other jobs this is the figure least disturbed by preemption; compare the
//! ratios, not the absolute numbers. Prints one markdown table per
//! operation, in GB/s of input.
//!
//! ```text
//! cargo bench -p benches --bench transcode_min -- [ROUNDS] [FILTER]...
//! ```
//!
//! ROUNDS (default 200); each FILTER keeps the operations or inputs whose
//! name contains it (`utf8-to-utf16`, `Chinese`, `64KiB`, ...).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod transcode_impls;

use std::hint::black_box;
use std::time::Instant;
use transcode_impls::{OPS, inputs, ops};

/// One timed call; a function of its own, so that `valgrind --tool=callgrind`
/// attributes each implementation's instructions to it (inclusive cost of
/// `transcode_min::timed`, divided by the rounds).
#[inline(never)]
fn timed(f: &mut Box<dyn FnMut() -> usize + '_>) -> usize {
    f()
}

fn main() {
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| a != "--bench")
        .collect();
    let rounds: usize = args.iter().find_map(|a| a.parse().ok()).unwrap_or(200);
    // `imp:NAME` keeps the implementations whose name contains NAME (for
    // callgrind runs of one implementation).
    let imps_keep: Vec<&str> = args.iter().filter_map(|a| a.strip_prefix("imp:")).collect();
    let filters: Vec<&str> = args
        .iter()
        .filter(|a| a.parse::<usize>().is_err() && !a.starts_with("imp:"))
        .map(String::as_str)
        .collect();
    let keep = |name: &str| filters.is_empty() || filters.iter().any(|f| name.contains(f));
    let named = filters.iter().any(|f| !OPS.iter().any(|o| o.contains(f)));
    let inputs = inputs(|name| !named || filters.iter().any(|f| name.contains(f)));
    let load = std::fs::read_to_string("/proc/loadavg").unwrap_or_default();
    println!("rounds {rounds}; load average at start: {}", load.trim());
    for op in OPS
        .iter()
        .filter(|op| keep(op) || filters.iter().all(|f| !OPS.iter().any(|o| o.contains(f))))
    {
        let mut rows: Vec<(String, Vec<(String, f64)>)> = Vec::new();
        for x in &inputs {
            let mut imps = ops(op, x);
            if !imps_keep.is_empty() {
                imps.retain(|(n, _)| imps_keep.iter().any(|k| n == k));
            }
            let mut best = vec![f64::MAX; imps.len()];
            for _ in 0..rounds {
                for (b, (_, f)) in best.iter_mut().zip(imps.iter_mut()) {
                    let t = Instant::now();
                    black_box(timed(f));
                    *b = b.min(t.elapsed().as_secs_f64());
                }
            }
            let gbs = best.iter().map(|s| x.utf8.len() as f64 / s / 1e9);
            rows.push((
                x.name.clone(),
                imps.iter().map(|(n, _)| n.clone()).zip(gbs).collect(),
            ));
        }
        if rows.is_empty() {
            continue;
        }
        let names: Vec<&String> = rows[0].1.iter().map(|(n, _)| n).collect();
        println!(
            "\n{op} (GB/s of UTF-8 input, min of {rounds} rounds; ratio = ours / best peer)\n"
        );
        println!(
            "| input | {} | ratio |",
            names
                .iter()
                .map(|n| n.as_str())
                .collect::<Vec<_>>()
                .join(" | ")
        );
        println!("|---|{}---:|", "---:|".repeat(names.len()));
        for (input, cells) in &rows {
            let ours = cells[0].1;
            let peer = cells
                .iter()
                .filter(|(n, _)| !n.starts_with("ours"))
                .map(|(_, g)| *g)
                .fold(0.0, f64::max);
            let text: Vec<String> = cells.iter().map(|(_, g)| format!("{g:.2}")).collect();
            println!("| {input} | {} | {:.2} |", text.join(" | "), ours / peer);
        }
    }
    let load = std::fs::read_to_string("/proc/loadavg").unwrap_or_default();
    println!("\nload average at end: {}", load.trim());
}
