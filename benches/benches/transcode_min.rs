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

use benches::{LIPSUM, latin1_text, sized_text};
use codec_facade::transcode::Transcoder;
use std::hint::black_box;
use std::time::Instant;

/// One implementation of an operation: a name and a function of the input
/// (as UTF-8, UTF-16 or UTF-32, prepared once) that returns a number to
/// keep it alive.
type Imp<'a> = (String, Box<dyn FnMut() -> usize + 'a>);

struct Input {
    name: String,
    utf8: Vec<u8>,
    utf16: Vec<u16>,
    utf32: Vec<u32>,
    latin1: Vec<u8>,
    /// `latin1` as UTF-8, UTF-16 and UTF-32: the inputs of the conversions
    /// to Latin-1.
    latin1_utf8: Vec<u8>,
    latin1_utf16: Vec<u16>,
    latin1_utf32: Vec<u32>,
}

/// `s` with every character above U+00FF replaced by `?`.
fn latin1_view(s: &str) -> String {
    s.chars()
        .map(|c| if u32::from(c) < 0x100 { c } else { '?' })
        .collect()
}

fn inputs(keep: impl Fn(&str) -> bool) -> Vec<Input> {
    let mut texts: Vec<(String, String)> = LIPSUM
        .iter()
        .map(|&(n, t)| (n.to_string(), t.to_string()))
        .collect();
    texts.push(("ascii".into(), LIPSUM[7].1.to_string()));
    texts.push(("Latin1".into(), latin1_text()));
    let mut out = Vec::new();
    for (size, label) in [(1 << 10, "1KiB"), (64 << 10, "64KiB"), (1 << 20, "1MiB")] {
        for (name, text) in &texts {
            let name = format!("{name}-{label}");
            if !keep(&name) {
                continue;
            }
            let s = sized_text(text, size);
            out.push(Input {
                name,
                utf16: s.encode_utf16().collect(),
                utf32: s.chars().map(u32::from).collect(),
                latin1: s
                    .chars()
                    .map(|c| u8::try_from(u32::from(c)).unwrap_or(b'?'))
                    .collect(),
                latin1_utf8: latin1_view(&s).into_bytes(),
                latin1_utf16: latin1_view(&s).encode_utf16().collect(),
                latin1_utf32: latin1_view(&s).chars().map(u32::from).collect(),
                utf8: s.into_bytes(),
            });
        }
    }
    out
}

/// Our implementations: the dispatched one, and each kernel set by name.
fn ours() -> Vec<(String, Transcoder)> {
    let mut v = vec![("ours".to_string(), Transcoder::new())];
    for t in Transcoder::all() {
        v.push((format!("ours-{}", t.name()), t));
    }
    v
}

fn ops<'a>(op: &str, x: &'a Input) -> Vec<Imp<'a>> {
    let mut v: Vec<Imp<'a>> = Vec::new();
    let s = core::str::from_utf8(&x.utf8).unwrap();
    match op {
        "utf8-to-utf16" => {
            for (name, t) in ours() {
                let mut out = vec![0u16; x.utf8.len()];
                v.push((
                    name,
                    Box::new(move || t.utf8_to_utf16(black_box(&x.utf8), &mut out).unwrap()),
                ));
            }
            let t = Transcoder::new();
            let mut out = vec![0u16; x.utf8.len()];
            v.push((
                "ours-str".into(),
                Box::new(move || t.str_to_utf16(black_box(s), &mut out).unwrap()),
            ));
            let mut out = vec![0u16; x.utf8.len()];
            v.push((
                "ours-lossy".into(),
                Box::new(move || t.utf8_to_utf16_lossy(black_box(&x.utf8), &mut out).unwrap()),
            ));
            let mut out = vec![0u16; x.utf8.len()];
            v.push((
                "simdutf".into(),
                Box::new(move || {
                    // SAFETY: `out` holds one unit per input byte, the most
                    // the conversion writes.
                    let r = unsafe {
                        simdutf::convert_utf8_to_utf16le_with_errors(
                            x.utf8.as_ptr(),
                            x.utf8.len(),
                            out.as_mut_ptr(),
                        )
                    };
                    black_box(r.count)
                }),
            ));
            let mut out = vec![0u16; x.utf8.len() + 1];
            v.push((
                "encoding_rs".into(),
                Box::new(move || {
                    encoding_rs::mem::convert_utf8_to_utf16_without_replacement(
                        black_box(&x.utf8),
                        &mut out,
                    )
                    .unwrap()
                }),
            ));
            let mut out = vec![0u16; x.utf8.len()];
            v.push((
                "std".into(),
                Box::new(move || {
                    let s = core::str::from_utf8(black_box(&x.utf8)).unwrap();
                    let mut n = 0;
                    for (d, u) in out.iter_mut().zip(s.encode_utf16()) {
                        *d = u;
                        n += 1;
                    }
                    n
                }),
            ));
        }
        "utf16-to-utf8" => {
            for (name, t) in ours() {
                let mut out = vec![0u8; 3 * x.utf16.len()];
                v.push((
                    name,
                    Box::new(move || t.utf16_to_utf8(black_box(&x.utf16), &mut out).unwrap()),
                ));
            }
            let mut out = vec![0u8; 3 * x.utf16.len()];
            v.push((
                "simdutf".into(),
                Box::new(move || {
                    // SAFETY: `out` holds 3 bytes per input unit, the most the
                    // conversion writes.
                    let r = unsafe {
                        simdutf::convert_utf16le_to_utf8_with_errors(
                            x.utf16.as_ptr(),
                            x.utf16.len(),
                            out.as_mut_ptr(),
                        )
                    };
                    black_box(r.count)
                }),
            ));
            let mut out = vec![0u8; 3 * x.utf16.len() + 1];
            v.push((
                "encoding_rs".into(),
                Box::new(move || {
                    encoding_rs::mem::convert_utf16_to_utf8(black_box(&x.utf16), &mut out)
                }),
            ));
            let mut out = vec![0u8; 3 * x.utf16.len()];
            v.push((
                "std".into(),
                Box::new(move || {
                    let mut n = 0;
                    for c in char::decode_utf16(black_box(&x.utf16).iter().copied()) {
                        n += c.unwrap().encode_utf8(&mut out[n..]).len();
                    }
                    n
                }),
            ));
        }
        "count-utf8" => {
            for (name, t) in ours() {
                v.push((name, Box::new(move || t.count_chars(black_box(s)))));
            }
            v.push((
                "simdutf".into(),
                Box::new(move || simdutf::count_utf8(black_box(&x.utf8))),
            ));
            v.push(("std".into(), Box::new(move || black_box(s).chars().count())));
        }
        "utf16-len-of-utf8" => {
            for (name, t) in ours() {
                v.push((name, Box::new(move || t.utf16_len(black_box(s)))));
            }
            v.push((
                "simdutf".into(),
                Box::new(move || simdutf::utf16_length_from_utf8(black_box(&x.utf8))),
            ));
            v.push((
                "std".into(),
                Box::new(move || black_box(s).encode_utf16().count()),
            ));
        }
        "count-utf16" => {
            for (name, t) in ours() {
                v.push((
                    name,
                    Box::new(move || t.count_chars_utf16(black_box(&x.utf16))),
                ));
            }
            v.push((
                "simdutf".into(),
                Box::new(move || simdutf::count_utf16le(black_box(&x.utf16))),
            ));
        }
        "utf8-len-of-utf16" => {
            for (name, t) in ours() {
                v.push((
                    name,
                    Box::new(move || t.utf8_len_from_utf16(black_box(&x.utf16))),
                ));
            }
            v.push((
                "simdutf".into(),
                Box::new(move || simdutf::utf8_length_from_utf16le(black_box(&x.utf16))),
            ));
        }
        "utf8-to-utf32" => {
            for (name, t) in ours() {
                let mut out = vec![0u32; x.utf8.len()];
                v.push((
                    name,
                    Box::new(move || t.utf8_to_utf32(black_box(&x.utf8), &mut out).unwrap()),
                ));
            }
            let mut out = vec![0u32; x.utf8.len()];
            v.push((
                "simdutf".into(),
                Box::new(move || {
                    // SAFETY: one unit per input byte at most.
                    let r = unsafe {
                        simdutf::convert_utf8_to_utf32_with_errors(
                            x.utf8.as_ptr(),
                            x.utf8.len(),
                            out.as_mut_ptr(),
                        )
                    };
                    black_box(r.count)
                }),
            ));
        }
        "utf32-to-utf8" => {
            for (name, t) in ours() {
                let mut out = vec![0u8; 4 * x.utf32.len()];
                v.push((
                    name,
                    Box::new(move || t.utf32_to_utf8(black_box(&x.utf32), &mut out).unwrap()),
                ));
            }
            let mut out = vec![0u8; 4 * x.utf32.len()];
            v.push((
                "simdutf".into(),
                Box::new(move || {
                    // SAFETY: 4 bytes per unit at most.
                    let r = unsafe {
                        simdutf::convert_utf32_to_utf8_with_errors(
                            x.utf32.as_ptr(),
                            x.utf32.len(),
                            out.as_mut_ptr(),
                        )
                    };
                    black_box(r.count)
                }),
            ));
        }
        "latin1-to-utf8" => {
            for (name, t) in ours() {
                let mut out = vec![0u8; 2 * x.latin1.len()];
                v.push((
                    name,
                    Box::new(move || t.latin1_to_utf8(black_box(&x.latin1), &mut out).unwrap()),
                ));
            }
            let mut out = vec![0u8; 2 * x.latin1.len()];
            v.push((
                "simdutf".into(),
                Box::new(move || {
                    // SAFETY: 2 bytes per input byte at most.
                    unsafe {
                        simdutf::convert_latin1_to_utf8(
                            x.latin1.as_ptr(),
                            x.latin1.len(),
                            out.as_mut_ptr(),
                        )
                    }
                }),
            ));
            let mut out = vec![0u8; 2 * x.latin1.len()];
            v.push((
                "encoding_rs".into(),
                Box::new(move || {
                    encoding_rs::mem::convert_latin1_to_utf8(black_box(&x.latin1), &mut out)
                }),
            ));
        }
        "utf16-to-utf32" => {
            for (name, t) in ours() {
                let mut out = vec![0u32; x.utf16.len()];
                v.push((
                    name,
                    Box::new(move || t.utf16_to_utf32(black_box(&x.utf16), &mut out).unwrap()),
                ));
            }
            let mut out = vec![0u32; x.utf16.len()];
            v.push((
                "simdutf".into(),
                Box::new(move || {
                    // SAFETY: one unit per input unit at most.
                    let r = unsafe {
                        simdutf::convert_utf16le_to_utf32_with_errors(
                            x.utf16.as_ptr(),
                            x.utf16.len(),
                            out.as_mut_ptr(),
                        )
                    };
                    black_box(r.count)
                }),
            ));
            let mut out = vec![0u32; x.utf16.len()];
            v.push((
                "std".into(),
                Box::new(move || {
                    let mut n = 0;
                    for (o, c) in out
                        .iter_mut()
                        .zip(char::decode_utf16(black_box(&x.utf16).iter().copied()))
                    {
                        *o = u32::from(c.unwrap());
                        n += 1;
                    }
                    n
                }),
            ));
        }
        "utf32-to-utf16" => {
            for (name, t) in ours() {
                let mut out = vec![0u16; 2 * x.utf32.len()];
                v.push((
                    name,
                    Box::new(move || t.utf32_to_utf16(black_box(&x.utf32), &mut out).unwrap()),
                ));
            }
            let mut out = vec![0u16; 2 * x.utf32.len()];
            v.push((
                "simdutf".into(),
                Box::new(move || {
                    // SAFETY: two units per input unit at most.
                    let r = unsafe {
                        simdutf::convert_utf32_to_utf16le_with_errors(
                            x.utf32.as_ptr(),
                            x.utf32.len(),
                            out.as_mut_ptr(),
                        )
                    };
                    black_box(r.count)
                }),
            ));
        }
        "latin1-to-utf16" | "latin1-to-utf32" => {
            let wide = op == "latin1-to-utf32";
            for (name, t) in ours() {
                if wide {
                    let mut out = vec![0u32; x.latin1.len()];
                    v.push((
                        name,
                        Box::new(move || {
                            t.latin1_to_utf32(black_box(&x.latin1), &mut out).unwrap()
                        }),
                    ));
                } else {
                    let mut out = vec![0u16; x.latin1.len()];
                    v.push((
                        name,
                        Box::new(move || {
                            t.latin1_to_utf16(black_box(&x.latin1), &mut out).unwrap()
                        }),
                    ));
                }
            }
            if wide {
                let mut out = vec![0u32; x.latin1.len()];
                v.push((
                    "simdutf".into(),
                    // SAFETY: one unit per input byte.
                    Box::new(move || unsafe {
                        simdutf::convert_latin1_to_utf32(
                            x.latin1.as_ptr(),
                            x.latin1.len(),
                            out.as_mut_ptr(),
                        )
                    }),
                ));
            } else {
                let mut out = vec![0u16; x.latin1.len()];
                v.push((
                    "simdutf".into(),
                    // SAFETY: one unit per input byte.
                    Box::new(move || unsafe {
                        simdutf::convert_latin1_to_utf16le(
                            x.latin1.as_ptr(),
                            x.latin1.len(),
                            out.as_mut_ptr(),
                        )
                    }),
                ));
                let mut out = vec![0u16; x.latin1.len()];
                v.push((
                    "encoding_rs".into(),
                    Box::new(move || {
                        encoding_rs::mem::convert_latin1_to_utf16(black_box(&x.latin1), &mut out);
                        out.len()
                    }),
                ));
            }
        }
        "utf8-to-latin1" => {
            for (name, t) in ours() {
                let mut out = vec![0u8; x.latin1_utf8.len()];
                v.push((
                    name,
                    Box::new(move || {
                        t.utf8_to_latin1(black_box(&x.latin1_utf8), &mut out)
                            .unwrap()
                    }),
                ));
            }
            let mut out = vec![0u8; x.latin1_utf8.len()];
            v.push((
                "simdutf".into(),
                Box::new(move || {
                    // SAFETY: one byte per input byte at most.
                    let r = unsafe {
                        simdutf::convert_utf8_to_latin1_with_errors(
                            x.latin1_utf8.as_ptr(),
                            x.latin1_utf8.len(),
                            out.as_mut_ptr(),
                        )
                    };
                    black_box(r.count)
                }),
            ));
            let mut out = vec![0u8; x.latin1_utf8.len()];
            v.push((
                "encoding_rs".into(),
                Box::new(move || {
                    encoding_rs::mem::convert_utf8_to_latin1_lossy(
                        black_box(&x.latin1_utf8),
                        &mut out,
                    )
                }),
            ));
        }
        "utf16-to-latin1" => {
            let units = &x.latin1_utf16;
            for (name, t) in ours() {
                let mut out = vec![0u8; units.len()];
                v.push((
                    name,
                    Box::new(move || t.utf16_to_latin1(black_box(units), &mut out).unwrap()),
                ));
            }
            let mut out = vec![0u8; units.len()];
            v.push((
                "simdutf".into(),
                Box::new(move || {
                    // SAFETY: one byte per input unit.
                    let r = unsafe {
                        simdutf::convert_utf16le_to_latin1_with_errors(
                            units.as_ptr(),
                            units.len(),
                            out.as_mut_ptr(),
                        )
                    };
                    black_box(r.count)
                }),
            ));
            let mut out = vec![0u8; units.len()];
            v.push((
                "encoding_rs".into(),
                Box::new(move || {
                    encoding_rs::mem::convert_utf16_to_latin1_lossy(black_box(units), &mut out);
                    out.len()
                }),
            ));
        }
        "utf32-to-latin1" => {
            let units = &x.latin1_utf32;
            for (name, t) in ours() {
                let mut out = vec![0u8; units.len()];
                v.push((
                    name,
                    Box::new(move || t.utf32_to_latin1(black_box(units), &mut out).unwrap()),
                ));
            }
            let mut out = vec![0u8; units.len()];
            v.push((
                "simdutf".into(),
                Box::new(move || {
                    // SAFETY: one byte per input unit. (It validates; simdutf has no
                    // `_with_errors` form of this one.)
                    black_box(unsafe {
                        simdutf::convert_utf32_to_latin1(
                            units.as_ptr(),
                            units.len(),
                            out.as_mut_ptr(),
                        )
                    })
                }),
            ));
        }
        "utf8-len-of-utf32" => {
            for (name, t) in ours() {
                v.push((
                    name,
                    Box::new(move || t.utf8_len_from_utf32(black_box(&x.utf32))),
                ));
            }
            v.push((
                "simdutf".into(),
                Box::new(move || simdutf::utf8_length_from_utf32(black_box(&x.utf32))),
            ));
        }
        "utf16-len-of-utf32" => {
            for (name, t) in ours() {
                v.push((
                    name,
                    Box::new(move || t.utf16_len_from_utf32(black_box(&x.utf32))),
                ));
            }
            v.push((
                "simdutf".into(),
                Box::new(move || simdutf::utf16_length_from_utf32(black_box(&x.utf32))),
            ));
        }
        "utf8-len-of-latin1" => {
            for (name, t) in ours() {
                v.push((
                    name,
                    Box::new(move || t.utf8_len_from_latin1(black_box(&x.latin1))),
                ));
            }
            v.push((
                "simdutf".into(),
                Box::new(move || simdutf::utf8_length_from_latin1(black_box(&x.latin1))),
            ));
        }
        _ => panic!("unknown operation {op}"),
    }
    v
}

/// One timed call; a function of its own, so that `valgrind --tool=callgrind`
/// attributes each implementation's instructions to it (inclusive cost of
/// `transcode_min::timed`, divided by the rounds).
#[inline(never)]
fn timed(f: &mut Box<dyn FnMut() -> usize + '_>) -> usize {
    f()
}

const OPS: &[&str] = &[
    "utf8-to-utf16",
    "utf16-to-utf8",
    "count-utf8",
    "utf16-len-of-utf8",
    "count-utf16",
    "utf8-len-of-utf16",
    "utf8-to-utf32",
    "utf32-to-utf8",
    "latin1-to-utf8",
    "latin1-to-utf16",
    "latin1-to-utf32",
    "utf8-to-latin1",
    "utf16-to-latin1",
    "utf32-to-latin1",
    "utf16-to-utf32",
    "utf32-to-utf16",
    "utf8-len-of-utf32",
    "utf16-len-of-utf32",
    "utf8-len-of-latin1",
];

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
}
