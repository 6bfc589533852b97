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

use std::hint::black_box;
use std::time::Instant;

use varint_impls::{
    COUNT, DECODERS, ENCODERS, bulk_impls, distributions, encode_all, encode_slice_with, len_peers,
    our_kernels,
};

/// What `--group`, `--impl` and `--input` keep (empty: everything).
#[derive(Default)]
struct Filter {
    groups: Vec<String>,
    impls: Vec<String>,
    inputs: Vec<String>,
}

impl Filter {
    fn from_args(args: &[String]) -> Self {
        let mut f = Filter::default();
        for pair in args.windows(2) {
            let list = match pair[0].as_str() {
                "--group" => &mut f.groups,
                "--impl" => &mut f.impls,
                "--input" => &mut f.inputs,
                _ => continue,
            };
            list.push(pair[1].clone());
        }
        f
    }

    fn keeps(list: &[String], name: &str) -> bool {
        list.is_empty() || list.iter().any(|l| l == name)
    }

    /// Which of the columns `names` to run for `group` on `input`.
    fn mask(&self, group: &str, input: &str, names: &[&str]) -> Vec<bool> {
        let on = Self::keeps(&self.groups, group) && Self::keeps(&self.inputs, input);
        names
            .iter()
            .map(|n| on && Self::keeps(&self.impls, n))
            .collect()
    }
}

/// Runs each of `fns` whose `run` flag is set once per round, in turn, and
/// returns the fastest round of each, in ns per value (NaN for those not
/// run).
fn min_rounds(rounds: usize, run: &[bool], fns: &mut [&mut dyn FnMut()]) -> Vec<f64> {
    let mut best: Vec<f64> = run
        .iter()
        .map(|&r| if r { f64::MAX } else { f64::NAN })
        .collect();
    for _ in 0..rounds {
        for ((b, f), _) in best
            .iter_mut()
            .zip(fns.iter_mut())
            .zip(run)
            .filter(|(_, r)| **r)
        {
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
        let cells: Vec<String> = t
            .iter()
            .map(|ns| {
                if ns.is_nan() {
                    "-".to_string()
                } else {
                    format!("{ns:.2}")
                }
            })
            .collect();
        println!("| {label} | {} |", cells.join(" | "));
    }
}

/// One table: group name, column names, rows of `(input, ns per column)`.
type Table<'a> = (&'a str, Vec<&'a str>, &'a [(&'a str, Vec<f64>)]);

/// The speed-up over prost (prost's time / the implementation's) of our
/// first column and of every peer, as horizontal bars on a log2 scale, one
/// section per group: the layout of `cargo xtask bench`'s chart.
fn svg(tables: &[Table<'_>], note: &str) -> String {
    use std::fmt::Write as _;
    const PALETTE: &[&str] = &[
        "#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f", "#edc948", "#b07aa1", "#ff9da7",
        "#9c755f",
    ];
    let (left, plot_w, bar_h, top) = (330.0, 520.0, 13.0, 56.0);
    let (lo, hi) = (-2.0f64, 5.0f64); // 1/4× to 32×
    let x = |r: f64| left + (r.clamp(0.25, 32.0).log2() - lo) / (hi - lo) * plot_w;
    let mut names: Vec<String> = Vec::new();
    let mut body = String::new();
    let mut y = top;
    for (group, cols, rows) in tables {
        let Some(prost) = cols.iter().position(|c| *c == "prost") else {
            continue;
        };
        y += 10.0;
        let _ = writeln!(
            body,
            r#"<text x="8" y="{:.1}" font-weight="bold">{group}</text>"#,
            y + 10.0
        );
        y += 16.0;
        for (input, ns) in rows.iter() {
            for (i, col) in cols.iter().enumerate() {
                // Ours once (the first column), and every peer but prost.
                let ours = i == 0;
                // A column left out by `--group`, `--impl` or `--input`
                // has no figure (NaN), and neither has its ratio.
                if ns[i].is_nan() || ns[prost].is_nan() {
                    continue;
                }
                if i == prost
                    || (!ours
                        && col.starts_with("varint")
                        && *col != "varint-simd"
                        && !col.starts_with("varint-simd-"))
                {
                    continue;
                }
                let name = if ours {
                    "varint (this crate)".to_string()
                } else {
                    (*col).to_string()
                };
                if !names.contains(&name) {
                    names.push(name.clone());
                }
                let color =
                    PALETTE[names.iter().position(|n| *n == name).unwrap_or(0) % PALETTE.len()];
                let ratio = ns[prost] / ns[i];
                let (x0, x1) = (x(1.0), x(ratio));
                let _ = writeln!(
                    body,
                    r#"<text x="{:.1}" y="{:.1}" text-anchor="end">{input} · {col}</text>"#,
                    left - 6.0,
                    y + 10.0
                );
                let _ = writeln!(
                    body,
                    r#"<rect x="{:.1}" y="{y:.1}" width="{:.1}" height="{bar_h}" fill="{color}"><title>{col} {input}: {ratio:.2}× prost</title></rect>"#,
                    x0.min(x1),
                    (x1 - x0).abs().max(1.0)
                );
                let _ = writeln!(
                    body,
                    r#"<text x="{:.1}" y="{:.1}" font-size="10">{ratio:.2}×</text>"#,
                    x0.max(x1) + 4.0,
                    y + 10.0
                );
                y += bar_h + 2.0;
            }
        }
    }
    let height = y + 30.0;
    let mut axis = String::new();
    for k in -2..=5 {
        let r = 2f64.powi(k);
        let _ = writeln!(
            axis,
            r##"<line x1="{0:.1}" x2="{0:.1}" y1="{1}" y2="{2:.1}" stroke="{3}"/><text x="{0:.1}" y="{4}" text-anchor="middle" font-size="10">{5}×</text>"##,
            x(r),
            top - 8.0,
            y,
            if k == 0 { "#333" } else { "#ddd" },
            top - 12.0,
            if r < 1.0 {
                format!("1/{}", 1.0 / r)
            } else {
                format!("{r}")
            }
        );
    }
    format!(
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{:.0}" height="{height:.0}" font-family="sans-serif" font-size="11">
<rect width="100%" height="100%" fill="white"/>
<text x="8" y="18" font-size="14" font-weight="bold">varint: speed-up over prost (ns per value, min of rounds; log scale)</text>
<text x="8" y="34" font-size="10">{note}</text>
{axis}{body}</svg>
"#,
        left + plot_w + 60.0
    )
}

fn main() {
    // `cargo bench` passes `--bench`; a bare number sets the rounds.
    let args: Vec<String> = std::env::args().skip(1).collect();
    let rounds = args.iter().find_map(|a| a.parse().ok()).unwrap_or(300);
    let svg_path = args
        .iter()
        .position(|a| a == "--svg")
        .and_then(|i| args.get(i + 1))
        .cloned();
    let filter = Filter::from_args(&args);
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
        dec.push((label, min_rounds(rounds, &run, &mut refs)));

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
        enc.push((label, min_rounds(rounds, &run, &mut refs)));
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
        bulk.push((label, min_rounds(rounds, &run, &mut refs)));

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
        benc.push((label, min_rounds(rounds, &run, &mut refs)));

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
        lens.push((label, min_rounds(rounds, &run, &mut refs)));
    }
    table("varint-decode", &dec_names, &dec);
    table("varint-encode", &enc_names, &enc);
    table("varint-bulk", &bulk_names, &bulk);
    table("varint-bulk-encode", &benc_names, &benc);
    table("varint-len", &len_names, &lens);
    if let Some(path) = svg_path {
        // RUSTFLAGS as the binary was built with (cargo passes the
        // environment on to rustc).
        let note = format!(
            "cargo bench -p benches --bench varint_min -- {rounds} --svg; RUSTFLAGS=\"{}\"; our first kernel: {}",
            option_env!("RUSTFLAGS").unwrap_or(""),
            kernels.first().map_or("-", |k| k.0.as_str())
        );
        let chart = svg(
            &[
                (
                    "varint-decode (one value at a time)",
                    DECODERS.map(|d| d.0).to_vec(),
                    &dec,
                ),
                (
                    "varint-encode (one value at a time)",
                    ENCODERS.map(|d| d.0).to_vec(),
                    &enc,
                ),
                ("varint-bulk (decode_into)", bulk_names.clone(), &bulk),
                ("varint-bulk-encode (encode_slice)", benc_names, &benc),
                ("varint-len (encoded_len_slice)", len_names.clone(), &lens),
            ],
            &note,
        );
        std::fs::write(&path, chart).expect("write the chart");
        eprintln!("wrote {path}");
    }
}
