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
//! name contains it (`utf8-to-utf16`, `Chinese`, `64KiB`, ...); `batch:N`
//! times N calls together (for 1 KiB inputs). With `EMOJI_EVERY=N` in the
//! environment, three inputs more: Russian, Latin and Chinese text with an
//! emoji after every N characters (`Russian+emojiN-64KiB`, ...).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod transcode_impls;

use std::hint::black_box;
use std::time::Instant;
use transcode_impls::{OPS, inputs, ops};

/// One input's results: its name, and each implementation's GB/s.
type Row = (String, Vec<(String, f64)>);

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
    // callgrind runs of one implementation); `svg:PATH` writes a chart.
    let imps_keep: Vec<&str> = args.iter().filter_map(|a| a.strip_prefix("imp:")).collect();
    let svg_path = args.iter().find_map(|a| a.strip_prefix("svg:"));
    // `batch:N` times N calls at once and divides: at 1 KiB a call takes
    // 20-60 ns, of the order of the two `Instant::now()` around it, whose
    // cost and granularity otherwise decide the ratios.
    let batch: u32 = args
        .iter()
        .find_map(|a| a.strip_prefix("batch:")?.parse().ok())
        .unwrap_or(1);
    let filters: Vec<&str> = args
        .iter()
        .filter(|a| a.parse::<usize>().is_err() && !a.contains(':'))
        .map(String::as_str)
        .collect();
    let mut charts = Vec::new();
    let keep = |name: &str| filters.is_empty() || filters.iter().any(|f| name.contains(f));
    let named = filters.iter().any(|f| !OPS.iter().any(|o| o.contains(f)));
    let inputs = inputs(|name| !named || filters.iter().any(|f| name.contains(f)));
    let load = std::fs::read_to_string("/proc/loadavg").unwrap_or_default();
    println!("rounds {rounds}; load average at start: {}", load.trim());
    for op in OPS
        .iter()
        .filter(|op| keep(op) || filters.iter().all(|f| !OPS.iter().any(|o| o.contains(f))))
    {
        let mut rows: Vec<Row> = Vec::new();
        for x in &inputs {
            let mut imps = ops(op, x);
            if !imps_keep.is_empty() {
                imps.retain(|(n, _)| imps_keep.iter().any(|k| n == k));
            }
            let mut best = vec![f64::MAX; imps.len()];
            for _ in 0..rounds {
                for (b, (_, f)) in best.iter_mut().zip(imps.iter_mut()) {
                    let t = Instant::now();
                    for _ in 0..batch {
                        black_box(timed(f));
                    }
                    *b = b.min(t.elapsed().as_secs_f64() / f64::from(batch));
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
        charts.push((op.to_string(), rows.clone()));
        let names: Vec<&String> = rows[0].1.iter().map(|(n, _)| n).collect();
        println!(
            "\n{op} (GB/s of UTF-8 input, min of {rounds} rounds; ratio = ours / best peer; \
             avx2 = ours-avx2 / best peer, the figure for CPUs without AVX-512)\n"
        );
        println!(
            "| input | {} | ratio | avx2 |",
            names
                .iter()
                .map(|n| n.as_str())
                .collect::<Vec<_>>()
                .join(" | ")
        );
        println!("|---|{}---:|---:|", "---:|".repeat(names.len()));
        for (input, cells) in &rows {
            let ours = cells[0].1;
            let peer = cells
                .iter()
                .filter(|(n, _)| !n.starts_with("ours"))
                .map(|(_, g)| *g)
                .fold(0.0, f64::max);
            let avx2 = cells
                .iter()
                .find(|(n, _)| n == "ours-avx2")
                .map_or(f64::NAN, |(_, g)| *g);
            let text: Vec<String> = cells.iter().map(|(_, g)| format!("{g:.2}")).collect();
            println!(
                "| {input} | {} | {:.2} | {:.2} |",
                text.join(" | "),
                ours / peer,
                avx2 / peer
            );
        }
    }
    let load = std::fs::read_to_string("/proc/loadavg").unwrap_or_default();
    println!("\nload average at end: {}", load.trim());
    if let Some(path) = svg_path {
        std::fs::write(path, svg(&charts, rounds, load.trim())).unwrap();
        println!("chart written to {path}");
    }
}

/// A bar chart of the ratios to simdutf: per operation, per input, one bar
/// for the dispatched kernels (`ours`) and one for the AVX2 kernels named
/// explicitly (`ours-avx2`), with a line at 1.
fn svg(charts: &[(String, Vec<Row>)], rounds: usize, load: &str) -> String {
    let (width, row, left, scale_max) = (760.0, 13.0, 150.0, 3.0);
    let bar = |x: f64| left + (x.min(scale_max) / scale_max) * (width - left - 60.0);
    let mut body = String::new();
    let mut y = 40.0;
    for (op, rows) in charts {
        body += &format!(
            "<text x=\"10\" y=\"{y}\" font-weight=\"bold\">{op}: time of simdutf / time of ours</text>\n"
        );
        y += 8.0;
        let top = y;
        for (input, cells) in rows {
            let get = |name: &str| cells.iter().find(|(n, _)| n == name).map(|&(_, g)| g);
            let Some(peer) = get("simdutf") else { continue };
            body += &format!(
                "<text x=\"{}\" y=\"{}\" text-anchor=\"end\">{input}</text>\n",
                left - 6.0,
                y + row
            );
            for (i, (name, colour)) in [("ours", "#1f77b4"), ("ours-avx2", "#ff7f0e")]
                .iter()
                .enumerate()
            {
                let Some(g) = get(name) else { continue };
                let r = g / peer;
                let yy = y + 2.0 + i as f64 * (row / 2.0);
                body += &format!(
                    "<rect x=\"{left}\" y=\"{yy}\" width=\"{:.1}\" height=\"{:.1}\" fill=\"{colour}\"><title>{name} {input}: {r:.2}</title></rect>\n",
                    bar(r) - left,
                    row / 2.0 - 0.5
                );
                body += &format!(
                    "<text x=\"{:.1}\" y=\"{:.1}\" font-size=\"7\">{r:.2}</text>\n",
                    bar(r) + 3.0,
                    yy + row / 2.0 - 1.5
                );
            }
            y += row + 2.0;
        }
        body += &format!(
            "<line x1=\"{0:.1}\" x2=\"{0:.1}\" y1=\"{top}\" y2=\"{y}\" stroke=\"black\" stroke-dasharray=\"3\"/>\n",
            bar(1.0)
        );
        y += 24.0;
    }
    format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width}\" height=\"{h}\" font-family=\"sans-serif\" font-size=\"9\">\n\
         <rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n\
         <text x=\"10\" y=\"16\">transcode_min: min of {rounds} interleaved rounds; blue: ours (dispatched), orange: ours-avx2; load average {load}</text>\n\
         {body}</svg>\n",
        h = y + 10.0
    )
}
