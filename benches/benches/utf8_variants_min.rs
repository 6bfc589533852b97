//! CESU-8, MUTF-8 and WTF-8 validation, decoding and encoding against utf8-simd's
//! UTF-8 validation, `simd_cesu8` and `cesu8`, timed by the minimum over
//! interleaved rounds (every implementation in turn within each round): the
//! figure least disturbed by other jobs on a shared machine. For tuning;
//! `utf8_variants.rs` is the criterion benchmark.
//!
//! Inputs: the nine lipsum texts at 64 KiB, as UTF-8 and re-encoded as
//! CESU-8 and MUTF-8 (identical bytes except for Emoji, whose characters are
//! all supplementary: 4 bytes in UTF-8, 6 in CESU-8).
//!
//! `cargo bench -p benches --bench utf8_variants_min [rounds] [TEXT]
//! [imp:NAME] [size:BYTES]` (default 200 rounds; a word keeps the texts
//! whose name contains it; `imp:NAME` keeps the implementations whose name
//! is NAME, for callgrind runs of one of them; `size:BYTES` cuts the texts
//! to that many bytes instead of 64 KiB, at a character boundary, and then
//! each timed sample is enough calls for about 64 KiB, so that short
//! strings are not timed one call at a time; `--quick`: 3 rounds; the
//! other arguments of `benches::harness::Args` work too). Prints GB/s of
//! input and ratios.

// A benchmark: a panic is a report.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use benches::harness::{Args, Table};
use codec_facade::utf8_simd::{self, Utf8Validator};
use codec_facade::utf8_variants::{Variant, cesu8, mutf8};
use std::hint::black_box;

/// The texts' size unless `size:` says otherwise.
const SIZE: usize = 64 << 10;

/// A timed function: its name, its input's length, and the call.
type Timed<'a> = (&'static str, usize, Box<dyn FnMut() + 'a>);

/// `bytes` copied to a 64-byte aligned address, so that every input is
/// read with the same alignment (a 64-byte load that splits a cache line
/// costs the AVX-512 kernels up to a quarter of their speed).
fn aligned(bytes: &[u8], storage: &mut Vec<u8>) -> std::ops::Range<usize> {
    storage.clear();
    storage.resize(bytes.len() + 64, 0);
    let start = storage.as_ptr().align_offset(64);
    storage[start..start + bytes.len()].copy_from_slice(bytes);
    start..start + bytes.len()
}

fn main() {
    let args = Args::parse(200);
    let rounds = args.rounds;
    let size = args.number("size").unwrap_or(SIZE);
    let batch = (SIZE / size.max(1)).max(1);
    let kernel = |name: &str| {
        utf8_simd::kernels()
            .iter()
            .find(|k| k.name() == name && k.is_available())
    };
    let avx2 = kernel("avx2");
    let avx512 = kernel("avx512");
    let mut g = args.group("utf8-variants", "GB/s", 1);
    g.per_second().reps(batch);
    let t = g.table();
    t.title = format!(
        "GB/s of input, min of {rounds} interleaved rounds, texts of {size} bytes ({batch} calls a sample)"
    );
    t.label = "text".into();
    for &(name, text) in benches::LIPSUM {
        if !g.keeps_input(name) {
            continue;
        }
        let utf8 = benches::sized_text(text, size);
        let cesu = cesu8::encode(&utf8).into_owned();
        let mutf = mutf8::encode(&utf8).into_owned();
        assert!(cesu8::is_valid(&cesu) && mutf8::is_valid(&mutf));
        let (mut su, mut sc, mut sm) = (Vec::new(), Vec::new(), Vec::new());
        let ru = aligned(utf8.as_bytes(), &mut su);
        let rc = aligned(&cesu, &mut sc);
        let rm = aligned(&mutf, &mut sm);
        let (u, c, m) = (&su[ru], &sc[rc], &sm[rm]);
        let mut fns: Vec<Timed<'_>> = vec![
            (
                "utf8-simd",
                u.len(),
                Box::new(|| assert!(utf8_simd::validate(black_box(u)).is_ok())),
            ),
            (
                "cesu8",
                c.len(),
                Box::new(|| assert!(cesu8::validate(black_box(c)).is_ok())),
            ),
            (
                "mutf8",
                m.len(),
                Box::new(|| assert!(mutf8::validate(black_box(m)).is_ok())),
            ),
            (
                "wtf8",
                u.len(),
                Box::new(|| assert!(Variant::Wtf8.validate(black_box(u)).is_ok())),
            ),
        ];
        if let Some(k) = avx2 {
            let v = k.validator().unwrap();
            fns.push((
                "utf8-simd-avx2",
                u.len(),
                Box::new(move || assert!(v.validate(black_box(u)).is_ok())),
            ));
            fns.push((
                "cesu8-avx2",
                c.len(),
                Box::new(move || {
                    assert!(matches!(
                        Variant::Cesu8.validate_with_kernel(k, black_box(c)),
                        Some(Ok(()))
                    ))
                }),
            ));
            fns.push((
                "mutf8-avx2",
                m.len(),
                Box::new(move || {
                    assert!(matches!(
                        Variant::Mutf8.validate_with_kernel(k, black_box(m)),
                        Some(Ok(()))
                    ))
                }),
            ));
        }
        if let Some(k) = avx2 {
            // Decoding with the AVX2 kernel in every pass (AMD Zen 3).
            fns.push((
                "cesu8-decode-avx2",
                c.len(),
                Box::new(move || {
                    assert!(matches!(
                        Variant::Cesu8.decode_with_kernel(k, black_box(c)),
                        Some(Ok(_))
                    ))
                }),
            ));
            fns.push((
                "mutf8-decode-avx2",
                m.len(),
                Box::new(move || {
                    assert!(matches!(
                        Variant::Mutf8.decode_with_kernel(k, black_box(m)),
                        Some(Ok(_))
                    ))
                }),
            ));
        }
        if let Some(k) = avx512 {
            let _ = k;
        }
        fns.push((
            "cesu8-decode",
            c.len(),
            Box::new(|| assert!(cesu8::decode(black_box(c)).is_ok())),
        ));
        fns.push((
            "simd_cesu8-decode",
            c.len(),
            Box::new(|| assert!(simd_cesu8::decode(black_box(c)).is_ok())),
        ));
        fns.push((
            "simd_cesu8-strict",
            c.len(),
            Box::new(|| assert!(simd_cesu8::decode_strict(black_box(c)).is_ok())),
        ));
        fns.push((
            "cesu8-crate",
            c.len(),
            Box::new(|| assert!(::cesu8::from_cesu8(black_box(c)).is_ok())),
        ));
        fns.push((
            "mutf8-decode",
            m.len(),
            Box::new(|| assert!(mutf8::decode(black_box(m)).is_ok())),
        ));
        fns.push((
            "simd_cesu8-mutf8-decode",
            m.len(),
            Box::new(|| assert!(simd_cesu8::mutf8::decode(black_box(m)).is_ok())),
        ));
        fns.push((
            "simd_cesu8-mutf8-strict",
            m.len(),
            Box::new(|| assert!(simd_cesu8::mutf8::decode_strict(black_box(m)).is_ok())),
        ));
        // Encoding, from the UTF-8 text (GB/s of UTF-8).
        let s = utf8.as_str();
        fns.push((
            "cesu8-encode",
            s.len(),
            Box::new(move || assert!(!cesu8::encode(black_box(s)).is_empty())),
        ));
        fns.push((
            "simd_cesu8-encode",
            s.len(),
            Box::new(move || assert!(!simd_cesu8::encode(black_box(s)).is_empty())),
        ));
        fns.push((
            "mutf8-encode",
            s.len(),
            Box::new(move || assert!(!mutf8::encode(black_box(s)).is_empty())),
        ));
        fns.push((
            "simd_cesu8-mutf8-encode",
            s.len(),
            Box::new(move || assert!(!simd_cesu8::mutf8::encode(black_box(s)).is_empty())),
        ));
        let sized: Vec<(&str, usize)> = fns.iter().map(|(n, bytes, _)| (*n, *bytes)).collect();
        g.row_sized_by(name, &sized, |i| (fns[i].2)());
    }
    let table = g.finish();
    print!("{}", table.markdown());
    let ratios: &[(&str, &str)] = &[
        ("cesu8", "utf8-simd"),
        ("mutf8", "utf8-simd"),
        ("wtf8", "utf8-simd"),
        ("cesu8-avx2", "utf8-simd-avx2"),
        ("mutf8-avx2", "utf8-simd-avx2"),
        ("cesu8", "simd_cesu8-decode"),
        ("cesu8", "simd_cesu8-strict"),
        ("cesu8-decode", "simd_cesu8-decode"),
        ("cesu8-decode", "simd_cesu8-strict"),
        ("mutf8-decode", "simd_cesu8-mutf8-strict"),
        ("mutf8-decode", "simd_cesu8-mutf8-decode"),
        ("cesu8-decode-avx2", "simd_cesu8-decode"),
        ("mutf8-decode-avx2", "simd_cesu8-mutf8-decode"),
        ("cesu8-encode", "simd_cesu8-encode"),
        ("mutf8-encode", "simd_cesu8-mutf8-encode"),
    ];
    let has = |n: &str| table.columns.iter().any(|c| c == n);
    let present: Vec<&(&str, &str)> = ratios.iter().filter(|(a, b)| has(a) && has(b)).collect();
    let names: Vec<String> = present.iter().map(|(a, b)| format!("{a} / {b}")).collect();
    let names: Vec<&str> = names.iter().map(String::as_str).collect();
    let mut ratio_table = Table::new("ratios", "Ratios", &names);
    ratio_table.label = "text".into();
    for (text, _) in &table.rows {
        let ratio = |(a, b): &&(&str, &str)| {
            table.get(text, a).unwrap_or(f64::NAN) / table.get(text, b).unwrap_or(f64::NAN)
        };
        ratio_table.push(text, present.iter().map(ratio).collect());
    }
    print!("{}", ratio_table.markdown());
}
