//! The transcode benchmarks' inputs and implementations, listed once for
//! the criterion groups (`transcode.rs`) and the min-of-N harness
//! (`transcode_min.rs`).
#![allow(dead_code)]

use benches::{LIPSUM, latin1_text, sized_text};
use codec_facade::transcode::Transcoder;
use codec_facade::transcode::direction::{Direction, Encoding, Unit, Visit, for_each};
use std::any::Any;
use std::hint::black_box;

/// One implementation of an operation: a name and a function of the input
/// (as UTF-8, UTF-16 or UTF-32, prepared once) that returns a number to
/// keep it alive.
pub(crate) type Imp<'a> = (String, Box<dyn FnMut() -> usize + 'a>);

pub(crate) struct Input {
    pub(crate) name: String,
    pub(crate) utf8: Buf<u8>,
    pub(crate) utf16: Buf<u16>,
    /// `utf16` in bytes, least and most significant first.
    pub(crate) utf16le: Buf<[u8; 2]>,
    pub(crate) utf16be: Buf<[u8; 2]>,
    pub(crate) utf32: Buf<u32>,
    pub(crate) latin1: Buf<u8>,
    /// `latin1` as UTF-8, UTF-16 and UTF-32: the inputs of the conversions
    /// to Latin-1.
    pub(crate) latin1_utf8: Buf<u8>,
    pub(crate) latin1_utf16: Buf<u16>,
    pub(crate) latin1_utf32: Buf<u32>,
}

/// `s` with every character above U+00FF replaced by `?`.
pub(crate) fn latin1_view(s: &str) -> String {
    s.chars()
        .map(|c| if u32::from(c) < 0x100 { c } else { '?' })
        .collect()
}

pub(crate) fn inputs(keep: impl Fn(&str) -> bool) -> Vec<Input> {
    let mut texts: Vec<(String, String)> = LIPSUM
        .iter()
        .map(|&(n, t)| (n.to_string(), t.to_string()))
        .collect();
    texts.push(("ascii".into(), LIPSUM[7].1.to_string()));
    texts.push(("Latin1".into(), latin1_text()));
    // `EMOJI_EVERY=N`: three more texts, Russian, Latin and Chinese with an
    // emoji after every N characters (chat-like text: surrogate pairs
    // among other units, which the lipsum texts never mix).
    if let Some(every) = std::env::var("EMOJI_EVERY")
        .ok()
        .and_then(|n| n.parse::<usize>().ok())
        .filter(|&n| n > 0)
    {
        let text = |name: &str| LIPSUM.iter().find(|t| t.0 == name).map_or("", |t| t.1);
        // The Emoji text without its byte-order mark.
        let emoji: Vec<char> = text("Emoji").chars().skip(1).collect();
        for base in ["Russian", "Latin", "Chinese"] {
            let mut mixed = String::new();
            for (k, c) in text(base).chars().enumerate() {
                mixed.push(c);
                if k % every == every - 1 {
                    mixed.push(emoji[k % emoji.len()]);
                }
            }
            texts.push((format!("{base}+emoji{every}"), mixed));
        }
    }
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
                utf16: Buf::input(s.encode_utf16().collect()),
                utf16le: Buf::input(s.encode_utf16().map(u16::to_le_bytes).collect()),
                utf16be: Buf::input(s.encode_utf16().map(u16::to_be_bytes).collect()),
                utf32: Buf::input(s.chars().map(u32::from).collect()),
                latin1: Buf::input(
                    s.chars()
                        .map(|c| u8::try_from(u32::from(c)).unwrap_or(b'?'))
                        .collect(),
                ),
                latin1_utf8: Buf::input(latin1_view(&s).into_bytes()),
                latin1_utf16: Buf::input(latin1_view(&s).encode_utf16().collect()),
                latin1_utf32: Buf::input(latin1_view(&s).chars().map(u32::from).collect()),
                utf8: Buf::input(s.into_bytes()),
            });
        }
    }
    out
}

/// The byte offset from a 64-byte boundary at which a buffer starts:
/// the environment variable `var` (0, 4, 8, ..., 60; default 0).
fn align_from(var: &str) -> usize {
    std::env::var(var)
        .ok()
        .and_then(|v| v.parse().ok())
        .map_or(0, |a: usize| a % 64)
}

/// A buffer of `n` units that starts at a chosen offset from a 64-byte
/// boundary: `TRANSCODE_BENCH_IN_ALIGN` for the inputs,
/// `TRANSCODE_BENCH_OUT_ALIGN` for every implementation's output (0, 4,
/// ..., 60 bytes; default 0 for both). Every implementation gets the same,
/// so that no one's loads or stores straddle cache lines by the luck of the
/// allocator: on AMD Zen 4, at 64 KiB, the widening kernels (ASCII to
/// UTF-32) ran 15-25% apart between outputs at 16 and at 32 bytes past a
/// boundary, ours and simdutf's alike, and simdutf's UTF-8 length of UTF-16
/// ran at 34 or 50 GB/s depending on where its input was; `vec!` had put
/// each buffer wherever the heap had room.
pub(crate) struct Buf<T> {
    buf: Vec<T>,
    at: usize,
    n: usize,
}

impl<T: Copy + Default> Buf<T> {
    fn new(n: usize, var: &str) -> Self {
        let size = std::mem::size_of::<T>();
        let buf = vec![T::default(); n + 64 / size];
        let want = align_from(var);
        let at = (0..64 / size)
            .find(|k| (buf.as_ptr() as usize + k * size) % 64 == want)
            .expect("the offset is a multiple of the unit size");
        Buf { buf, at, n }
    }

    /// `v`, copied to the input offset.
    fn input(v: Vec<T>) -> Self {
        let mut b = Self::new(v.len(), "TRANSCODE_BENCH_IN_ALIGN");
        b.copy_from_slice(&v);
        b
    }
}

/// An output buffer of `n` units at the output offset.
pub(crate) fn out_buf<T: Copy + Default>(n: usize) -> Buf<T> {
    Buf::new(n, "TRANSCODE_BENCH_OUT_ALIGN")
}

impl<T> std::ops::Deref for Buf<T> {
    type Target = [T];
    fn deref(&self) -> &[T] {
        &self.buf[self.at..self.at + self.n]
    }
}

impl<T> std::ops::DerefMut for Buf<T> {
    fn deref_mut(&mut self) -> &mut [T] {
        &mut self.buf[self.at..self.at + self.n]
    }
}

/// Our implementations: the dispatched one, and each kernel set by name.
pub(crate) fn ours() -> Vec<(String, Transcoder)> {
    let mut v = vec![("ours".to_string(), Transcoder::new())];
    for t in Transcoder::all() {
        v.push((format!("ours-{}", t.name()), t));
    }
    v
}

/// The input of the conversions from encoding `E` in `x`: the text, or its
/// Latin-1 view for the conversions to Latin-1 (`to_latin1`).
fn input<E: Encoding>(x: &Input, to_latin1: bool) -> &[E::Unit] {
    let buf: &dyn Any = match (E::NAME, to_latin1) {
        ("utf8", false) => &x.utf8,
        ("utf8", true) => &x.latin1_utf8,
        ("utf16", false) => &x.utf16,
        ("utf16", true) => &x.latin1_utf16,
        ("utf32", false) => &x.utf32,
        ("utf32", true) => &x.latin1_utf32,
        ("utf16le", _) => &x.utf16le,
        ("utf16be", _) => &x.utf16be,
        ("latin1", _) => &x.latin1,
        (other, _) => panic!("no input in {other}"),
    };
    buf.downcast_ref::<Buf<E::Unit>>()
        .unwrap_or_else(|| panic!("the input in {} has another unit", E::NAME))
}

/// The most output units one input unit of encoding `from` makes in
/// encoding `to`: the output buffers' size.
fn room(from: &str, to: &str) -> usize {
    match (from, to) {
        ("utf16" | "utf16le" | "utf16be", "utf8") => 3,
        ("utf32", "utf8") => 4,
        ("latin1", "utf8") | ("utf32", "utf16") => 2,
        _ => 1,
    }
}

/// Our rows of the conversion `op`, from the crate's table of directions
/// (`transcode::direction::for_each`): the strict form of the direction
/// `op` names, with the dispatched kernels and each kernel set.
struct Ours<'a, 'x> {
    op: &'a str,
    x: &'x Input,
    rows: Vec<Imp<'x>>,
}

impl<'x> Visit for Ours<'_, 'x> {
    fn direction<D: Direction>(&mut self) {
        if op_name::<D>() != self.op {
            return;
        }
        let to = <D::To as Encoding>::NAME;
        let src = input::<D::From>(self.x, to == "latin1");
        let n = room(<D::From as Encoding>::NAME, to) * src.len();
        for (name, t) in ours() {
            let mut out = out_buf::<Unit<D::To>>(n);
            self.rows.push((
                name,
                Box::new(move || t.convert::<D>(black_box(src), &mut out).unwrap()),
            ));
        }
    }
}

/// The operation name of direction `D`: `utf32_to_latin1` is
/// `utf32-to-latin1`.
fn op_name<D: Direction>() -> String {
    D::NAME.replace('_', "-")
}

/// Every operation: the conversions of the crate's table, then the counts
/// and lengths.
pub(crate) fn operations() -> Vec<String> {
    struct Names(Vec<String>);
    impl Visit for Names {
        fn direction<D: Direction>(&mut self) {
            self.0.push(op_name::<D>());
        }
    }
    let mut names = Names(Vec::new());
    for_each(&mut names);
    names.0.extend(COUNTS.iter().map(|s| s.to_string()));
    names.0
}

pub(crate) fn ops<'a>(op: &str, x: &'a Input) -> Vec<Imp<'a>> {
    let mut rows = Ours {
        op,
        x,
        rows: Vec::new(),
    };
    for_each(&mut rows);
    let mut v: Vec<Imp<'a>> = rows.rows;
    let s = core::str::from_utf8(&x.utf8).unwrap();
    match op {
        "utf8-to-utf16" => {
            let t = Transcoder::new();
            let mut out = out_buf::<u16>(x.utf8.len());
            v.push((
                "ours-str".into(),
                Box::new(move || t.str_to_utf16(black_box(s), &mut out).unwrap()),
            ));
            let mut out = out_buf::<u16>(x.utf8.len());
            v.push((
                "ours-lossy".into(),
                Box::new(move || t.utf8_to_utf16_lossy(black_box(&x.utf8), &mut out).unwrap()),
            ));
            let mut out = out_buf::<u16>(x.utf8.len());
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
            let mut out = out_buf::<u16>(x.utf8.len() + 1);
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
            let mut out = out_buf::<u16>(x.utf8.len());
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
            let mut out = out_buf::<u8>(3 * x.utf16.len());
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
            let mut out = out_buf::<u8>(3 * x.utf16.len() + 1);
            v.push((
                "encoding_rs".into(),
                Box::new(move || {
                    encoding_rs::mem::convert_utf16_to_utf8(black_box(&x.utf16), &mut out)
                }),
            ));
            let mut out = out_buf::<u8>(3 * x.utf16.len());
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
        "utf8-to-utf16le" | "utf8-to-utf16be" => {
            // The byte entries (`codec convert`'s UTF-16LE/BE), the byte
            // order from the name; simdutf's of the same order.
            let be = op.ends_with("be");
            let mut out = out_buf::<u16>(x.utf8.len());
            v.push((
                "simdutf".into(),
                Box::new(move || {
                    let (src, len, dst) = (x.utf8.as_ptr(), x.utf8.len(), out.as_mut_ptr());
                    // SAFETY: `out` holds one unit per input byte, the most
                    // the conversion writes.
                    let r = unsafe {
                        if be {
                            simdutf::convert_utf8_to_utf16be_with_errors(src, len, dst)
                        } else {
                            simdutf::convert_utf8_to_utf16le_with_errors(src, len, dst)
                        }
                    };
                    black_box(r.count)
                }),
            ));
        }
        "utf16le-to-utf8" | "utf16be-to-utf8" => {
            let be = op.starts_with("utf16be");
            // Ours reads `x.utf16le` or `x.utf16be`; simdutf the same
            // units as `u16`s in memory.
            let bytes = if be { &x.utf16be } else { &x.utf16le };
            let units = Buf::input(bytes.iter().map(|&b| u16::from_ne_bytes(b)).collect());
            let mut out = out_buf::<u8>(3 * x.utf16.len());
            v.push((
                "simdutf".into(),
                Box::new(move || {
                    let (src, len, dst) = (units.as_ptr(), units.len(), out.as_mut_ptr());
                    // SAFETY: `out` holds 3 bytes per input unit, the most the
                    // conversion writes.
                    let r = unsafe {
                        if be {
                            simdutf::convert_utf16be_to_utf8_with_errors(src, len, dst)
                        } else {
                            simdutf::convert_utf16le_to_utf8_with_errors(src, len, dst)
                        }
                    };
                    black_box(r.count)
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
            let mut out = out_buf::<u32>(x.utf8.len());
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
            let mut out = out_buf::<u8>(4 * x.utf32.len());
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
            let mut out = out_buf::<u8>(2 * x.latin1.len());
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
            let mut out = out_buf::<u8>(2 * x.latin1.len());
            v.push((
                "encoding_rs".into(),
                Box::new(move || {
                    encoding_rs::mem::convert_latin1_to_utf8(black_box(&x.latin1), &mut out)
                }),
            ));
        }
        "utf16-to-utf32" => {
            let mut out = out_buf::<u32>(x.utf16.len());
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
            let mut out = out_buf::<u32>(x.utf16.len());
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
            let mut out = out_buf::<u16>(2 * x.utf32.len());
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
            if wide {
                let mut out = out_buf::<u32>(x.latin1.len());
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
                let mut out = out_buf::<u16>(x.latin1.len());
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
                let mut out = out_buf::<u16>(x.latin1.len());
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
            let mut out = out_buf::<u8>(x.latin1_utf8.len());
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
            let mut out = out_buf::<u8>(x.latin1_utf8.len());
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
            let mut out = out_buf::<u8>(units.len());
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
            let mut out = out_buf::<u8>(units.len());
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
            let mut out = out_buf::<u8>(units.len());
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
        // A direction of the table with no peer to compare with.
        _ if !v.is_empty() => {}
        _ => panic!("unknown operation {op}"),
    }
    v
}

/// The counts and lengths, as `ops` names them (the conversions come from
/// the crate's table: [`operations`]).
const COUNTS: &[&str] = &[
    "count-utf8",
    "utf16-len-of-utf8",
    "count-utf16",
    "utf8-len-of-utf16",
    "utf8-len-of-utf32",
    "utf16-len-of-utf32",
    "utf8-len-of-latin1",
];
