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
//! ROUNDS (default 200; `--quick`: 3); each FILTER keeps the operations
//! whose name contains it (`utf8-to-utf16`, ...) or else the inputs whose
//! name contains it (`Chinese`, `64KiB`, ...); `imp:NAME` keeps the
//! implementation NAME (for callgrind runs of one of them: the inclusive
//! cost of `benches::harness::timed`, divided by the rounds and the batch,
//! is one call's); `svg:PATH` draws each operation's speed-up of `ours` and
//! `ours-avx2` over simdutf; `batch:N` times N calls together (for 1 KiB
//! inputs). The other arguments of `benches::harness::Args` work too. With
//! `EMOJI_EVERY=N` in the environment, three inputs more: Russian, Latin and
//! Chinese text with an emoji after every N characters
//! (`Russian+emojiN-64KiB`, ...).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod transcode_impls;

use benches::harness::{Args, Cells, Chart};
use std::hint::black_box;
use transcode_impls::{inputs, operations, ops};

/// Ours (the first column) over the fastest peer (any column not named
/// `ours…`).
fn best_peer(c: &Cells<'_>) -> Option<f64> {
    c.iter()
        .filter(|(n, _)| !n.starts_with("ours"))
        .map(|(_, g)| g)
        .reduce(f64::max)
}

fn main() {
    let operations = operations();
    let groups: Vec<&str> = operations.iter().map(String::as_str).collect();
    let args = Args::parse(200).with_groups(&groups);
    let rounds = args.rounds;
    // `batch:N` times N calls at once and divides: at 1 KiB a call takes
    // 20-60 ns, of the order of the two `Instant::now()` around it, whose
    // cost and granularity otherwise decide the ratios.
    let batch = args.number("batch").unwrap_or(1);
    let inputs = inputs(|name| args.keeps_input(name));
    let load = std::fs::read_to_string("/proc/loadavg").unwrap_or_default();
    println!("rounds {rounds}; load average at start: {}", load.trim());
    let mut sections = Vec::new();
    for op in groups.iter().filter(|op| args.keeps_group(op)) {
        let mut g = args.group(op, "GB/s", 1);
        g.per_second().reps(batch);
        let t = g.table();
        t.title = format!(
            "{op} (GB/s of UTF-8 input, min of {rounds} rounds; ratio = ours / best peer; \
             avx2 = ours-avx2 / best peer, the figure for CPUs without AVX-512)"
        );
        t.extra("ratio", "", |c| Some(c.figures.first()? / best_peer(c)?));
        t.extra("avx2", "", |c| Some(c.get("ours-avx2")? / best_peer(c)?));
        for x in &inputs {
            let mut imps = ops(op, x);
            let names: Vec<String> = imps.iter().map(|(n, _)| n.clone()).collect();
            let names: Vec<&str> = names.iter().map(String::as_str).collect();
            g.units(x.utf8.len());
            g.row_by(&x.name, &names, |i| {
                black_box((imps[i].1)());
            });
        }
        let t = g.finish();
        print!("{}", t.markdown());
        sections.push(t.speedups("simdutf", op, |_, col| {
            matches!(col, "ours" | "ours-avx2").then(|| col.to_string())
        }));
    }
    let load = std::fs::read_to_string("/proc/loadavg").unwrap_or_default();
    println!("\nload average at end: {}", load.trim());
    if let Some(path) = &args.svg {
        let chart = Chart {
            title: "transcode: speed-up over simdutf of ours (dispatched) and ours-avx2 (GB/s, log scale)"
                .into(),
            note: format!(
                "cargo bench -p benches --bench transcode_min -- {rounds} svg:PATH; min of {rounds} interleaved rounds; load average {}",
                load.trim()
            ),
            sections,
            // 1/4× to 8×: the same scale in every run (a ratio outside is
            // drawn at the edge, its value written).
            range: Some((-2, 3)),
        };
        std::fs::write(path, benches::harness::svg(&chart)).unwrap();
        println!("chart written to {path}");
    }
}
