//! Stream VByte and Group Varint: every kernel of `varint::shuffle_kernels()`
//! this CPU can run against a model written from the format descriptions
//! (here, not the crate's code): every control byte in every group position
//! with every layout and option, random round trips, every truncation of
//! random streams with a sentinel in the output, short outputs, and the
//! `Vec` functions. The guard-page tests are in `shuffle_guard_page.rs`.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use common::Rng;
use quickcheck::quickcheck;
use varint::group_varint::GroupVarint;
use varint::streamvbyte::{Error, Layout, StreamVByte, max_compressed_len};
use varint::{ShuffleCodec, shuffle_kernels};

/// Every kernel this CPU can run; the portable one last.
fn codecs() -> Vec<ShuffleCodec> {
    let all: Vec<ShuffleCodec> = shuffle_kernels().iter().filter_map(|k| k.codec()).collect();
    for k in shuffle_kernels().iter().filter(|k| !k.is_available()) {
        eprintln!("not tested on this CPU: {}", k.name());
    }
    assert_eq!(all.last().map(|c| c.kernel().name()), Some("portable"));
    all
}

/// One Stream VByte configuration.
#[derive(Clone, Copy, Debug)]
struct Mode {
    zero124: bool,
    zigzag: bool,
    delta: bool,
}

fn modes() -> Vec<Mode> {
    let mut v = Vec::new();
    for zero124 in [false, true] {
        for zigzag in [false, true] {
            for delta in [false, true] {
                v.push(Mode {
                    zero124,
                    zigzag,
                    delta,
                });
            }
        }
    }
    v
}

fn svb(mode: Mode, codec: ShuffleCodec) -> StreamVByte {
    StreamVByte::new()
        .layout(if mode.zero124 {
            Layout::Zero124
        } else {
            Layout::Standard
        })
        .zigzag(mode.zigzag)
        .delta(mode.delta)
        .with_codec(codec)
}

/// Byte length of 2-bit code `c`.
fn code_len(c: u8, zero124: bool) -> usize {
    match (zero124, c) {
        (false, c) => usize::from(c) + 1,
        (true, 3) => 4,
        (true, c) => usize::from(c),
    }
}

/// The stored word of a value, as the options describe it.
fn stored(values: &[u32], mode: Mode) -> Vec<u32> {
    let mut prev = 0u32;
    values
        .iter()
        .map(|&v| {
            let mut x = if mode.delta { v.wrapping_sub(prev) } else { v };
            prev = v;
            if mode.zigzag {
                let s = x as i32;
                x = if s >= 0 {
                    2 * s as u32
                } else {
                    2 * (-(s as i64)) as u32 - 1
                };
            }
            x
        })
        .collect()
}

/// The model encoder: shortest code for each stored word.
fn model_svb_encode(values: &[u32], mode: Mode) -> Vec<u8> {
    let words = stored(values, mode);
    let mut ctrl = vec![0u8; values.len().div_ceil(4)];
    let mut data = Vec::new();
    for (i, &x) in words.iter().enumerate() {
        let code = (0u8..4)
            .find(|&c| {
                let len = code_len(c, mode.zero124);
                len == 4 || u64::from(x) < 1u64 << (8 * len)
            })
            .unwrap();
        ctrl[i / 4] |= code << (2 * (i % 4));
        let len = code_len(code, mode.zero124);
        data.extend_from_slice(&x.to_le_bytes()[..len]);
    }
    ctrl.extend(data);
    ctrl
}

/// Undoes `stored`.
fn restore(words: &[u32], mode: Mode) -> Vec<u32> {
    let mut prev = 0u32;
    words
        .iter()
        .map(|&x| {
            let d = if mode.zigzag {
                if x % 2 == 0 {
                    x / 2
                } else {
                    (-((x / 2) as i64) - 1) as i32 as u32
                }
            } else {
                x
            };
            let v = if mode.delta { prev.wrapping_add(d) } else { d };
            prev = v;
            v
        })
        .collect()
}

/// The model decoder: values and bytes, or the error and the values
/// decoded before it.
fn model_svb_decode(
    input: &[u8],
    count: usize,
    mode: Mode,
) -> Result<(Vec<u32>, usize), (Error, Vec<u32>)> {
    let n_ctrl = count.div_ceil(4);
    if input.len() < n_ctrl {
        return Err((
            Error::ControlTruncated {
                needed: n_ctrl,
                available: input.len(),
            },
            vec![],
        ));
    }
    let mut pos = n_ctrl;
    let mut words = Vec::new();
    for i in 0..count {
        let code = (input[i / 4] >> (2 * (i % 4))) & 3;
        let len = code_len(code, mode.zero124);
        if pos + len > input.len() {
            let err = Error::Truncated {
                index: i,
                offset: pos,
                needed: len,
            };
            return Err((err, restore(&words, mode)));
        }
        let mut x = 0u32;
        for k in 0..len {
            x |= u32::from(input[pos + k]) << (8 * k);
        }
        words.push(x);
        pos += len;
    }
    Ok((restore(&words, mode), pos))
}

fn model_gv_encode(values: &[u32]) -> Vec<u8> {
    let mut out = Vec::new();
    for group in values.chunks(4) {
        let tag_at = out.len();
        out.push(0);
        for (i, &v) in group.iter().enumerate() {
            let len = (1..=4)
                .find(|&l| l == 4 || u64::from(v) < 1u64 << (8 * l))
                .unwrap();
            out[tag_at] |= ((len - 1) as u8) << (2 * i);
            out.extend_from_slice(&v.to_le_bytes()[..len]);
        }
    }
    out
}

fn model_gv_decode(input: &[u8], count: usize) -> Result<(Vec<u32>, usize), (Error, Vec<u32>)> {
    let (mut pos, mut values) = (0, Vec::new());
    let mut tag = 0;
    for i in 0..count {
        if i % 4 == 0 {
            let Some(&t) = input.get(pos) else {
                return Err((
                    Error::Truncated {
                        index: i,
                        offset: pos,
                        needed: 1,
                    },
                    values,
                ));
            };
            tag = t;
            pos += 1;
        }
        let len = usize::from((tag >> (2 * (i % 4))) & 3) + 1;
        if pos + len > input.len() {
            return Err((
                Error::Truncated {
                    index: i,
                    offset: pos,
                    needed: len,
                },
                values,
            ));
        }
        let mut x = 0u32;
        for k in 0..len {
            x |= u32::from(input[pos + k]) << (8 * k);
        }
        values.push(x);
        pos += len;
    }
    Ok((values, pos))
}

const SENTINEL: u32 = 0xDEAD_BEEF;

/// Decodes with `f` into a sentinel-filled output and checks the answer,
/// the values and the untouched rest against the model's.
fn check_decode(
    what: &str,
    want: Result<(Vec<u32>, usize), (Error, Vec<u32>)>,
    count: usize,
    f: impl Fn(&mut [u32]) -> Result<usize, Error>,
) {
    let mut out = vec![SENTINEL; count + 5];
    let got = f(&mut out);
    match want {
        Ok((values, used)) => {
            assert_eq!(got, Ok(used), "{what}");
            assert_eq!(&out[..count], &values[..], "{what}");
        }
        Err((err, values)) => {
            assert_eq!(got, Err(err), "{what}");
            assert_eq!(err.written(), values.len(), "{what}");
            assert_eq!(&out[..values.len()], &values[..], "{what}");
            assert!(
                out[values.len()..].iter().all(|&v| v == SENTINEL),
                "{what}: wrote past the error"
            );
        }
    }
    assert!(
        out[count..].iter().all(|&v| v == SENTINEL),
        "{what}: wrote past count"
    );
}

/// A value of a random byte length (0 and 1-byte values often).
fn value(rng: &mut Rng) -> u32 {
    let r = rng.next();
    match r % 6 {
        0 => 0,
        k => (r >> 8) as u32 >> (8 * (5 - k).min(3) + (r >> 40) % 8) as u32,
    }
}

/// Every control byte at every one of the first groups, among random
/// groups, in every layout and option, decoded by every kernel.
#[test]
fn every_control_byte_in_every_position() {
    let mut rng = Rng(0x5EED_0001);
    for codec in codecs() {
        for mode in modes() {
            for c in 0..=255u8 {
                for at in [0, 1, 2, 3, 4, 7, 8, 9, 15, 16] {
                    let groups = 24;
                    let mut ctrl: Vec<u8> = (0..groups).map(|_| rng.next() as u8).collect();
                    ctrl[at] = c;
                    let data_len: usize = (0..4 * groups)
                        .map(|i| code_len((ctrl[i / 4] >> (2 * (i % 4))) & 3, mode.zero124))
                        .sum();
                    let mut input = ctrl.clone();
                    input.extend((0..data_len).map(|_| rng.next() as u8));
                    let count = 4 * groups;
                    let what = format!("{} {mode:?} c={c:#04x} at={at}", codec.kernel().name());
                    check_decode(&what, model_svb_decode(&input, count, mode), count, |out| {
                        svb(mode, codec).decode(&input, count, out)
                    });
                    // The same bytes as Group Varint groups.
                    if !mode.zero124 && !mode.zigzag && !mode.delta {
                        let mut gv = Vec::new();
                        let mut data = &input[groups..];
                        for &t in &ctrl {
                            let n: usize =
                                (0..4).map(|i| usize::from((t >> (2 * i)) & 3) + 1).sum();
                            gv.push(t);
                            gv.extend_from_slice(&data[..n]);
                            data = &data[n..];
                        }
                        check_decode(&what, model_gv_decode(&gv, count), count, |out| {
                            GroupVarint::with_codec(codec).decode(&gv, count, out)
                        });
                    }
                }
            }
        }
    }
}

/// Round trips, every truncation, and the encoder against the model.
fn check_stream(values: &[u32], codecs: &[ShuffleCodec]) {
    let n = values.len();
    for &codec in codecs {
        for mode in modes() {
            let s = svb(mode, codec);
            let want = model_svb_encode(values, mode);
            let what = format!("{} {mode:?} n={n}", codec.kernel().name());
            assert_eq!(s.encoded_len(values), want.len(), "{what}");
            // Encoding: exactly the model's bytes, nothing written after.
            let mut out = vec![0xA5u8; max_compressed_len(n) + 16];
            assert_eq!(s.encode(values, &mut out), want.len(), "{what}");
            assert_eq!(&out[..want.len()], &want[..], "{what}");
            assert!(out[want.len()..].iter().all(|&b| b == 0xA5), "{what}");
            let mut exact = vec![0xA5u8; want.len()];
            assert_eq!(s.try_encode(values, &mut exact), Ok(want.len()), "{what}");
            assert_eq!(exact, want, "{what}");
            if !want.is_empty() {
                let mut short = vec![0xA5u8; want.len() - 1];
                assert!(s.try_encode(values, &mut short).is_err(), "{what}");
                assert!(short.iter().all(|&b| b == 0xA5), "{what}");
            }
            // Decoding every prefix, with trailing bytes too.
            for cut in 0..=want.len() {
                let input = &want[..cut];
                let w = model_svb_decode(input, n, mode);
                check_decode(&format!("{what} cut={cut}"), w, n, |out| {
                    s.decode(input, n, out)
                });
            }
            let mut longer = want.clone();
            longer.extend_from_slice(&[0xFF; 20]);
            assert_eq!(s.decode_to_vec(&longer, n), Ok(values.to_vec()), "{what}");
            let mut v = vec![7u32];
            assert_eq!(
                s.decode_into_vec(&longer, n, &mut v),
                Ok(want.len()),
                "{what}"
            );
            assert_eq!(v[0], 7);
            assert_eq!(&v[1..], values);
            let mut e = vec![1u8];
            assert_eq!(s.encode_into_vec(values, &mut e), want.len());
            assert_eq!(e[1..], want[..]);
        }
        // Group Varint.
        let g = GroupVarint::with_codec(codec);
        let want = model_gv_encode(values);
        let what = format!("{} group varint n={n}", codec.kernel().name());
        assert_eq!(g.encoded_len(values), want.len(), "{what}");
        let mut out = vec![0xA5u8; max_compressed_len(n) + 16];
        assert_eq!(g.encode(values, &mut out), want.len(), "{what}");
        assert_eq!(&out[..want.len()], &want[..], "{what}");
        assert!(out[want.len()..].iter().all(|&b| b == 0xA5), "{what}");
        let mut exact = vec![0xA5u8; want.len()];
        assert_eq!(g.try_encode(values, &mut exact), Ok(want.len()), "{what}");
        assert_eq!(exact, want, "{what}");
        if !want.is_empty() {
            let mut short = vec![0xA5u8; want.len() - 1];
            assert!(g.try_encode(values, &mut short).is_err(), "{what}");
            assert!(short.iter().all(|&b| b == 0xA5), "{what}");
        }
        for cut in 0..=want.len() {
            let input = &want[..cut];
            check_decode(
                &format!("{what} cut={cut}"),
                model_gv_decode(input, n),
                n,
                |out| g.decode(input, n, out),
            );
            // The Vec form gives the same error and keeps the values before it.
            let mut v = Vec::new();
            let r = g.decode_into_vec(input, n, &mut v);
            match model_gv_decode(input, n) {
                Ok((vals, used)) => {
                    assert_eq!(r, Ok(used), "{what}");
                    assert_eq!(v, vals);
                }
                Err((e, vals)) => {
                    assert_eq!(r, Err(e), "{what}");
                    assert_eq!(v, vals);
                }
            }
        }
        let mut e = vec![1u8];
        assert_eq!(g.encode_into_vec(values, &mut e), want.len());
        assert_eq!(e[1..], want[..]);
    }
}

#[test]
fn random_streams_round_trip_and_every_truncation() {
    let codecs = codecs();
    let mut rng = Rng(0x5EED_0002);
    for n in (0..=70).chain([100, 257]) {
        for _ in 0..3 {
            let values: Vec<u32> = (0..n).map(|_| value(&mut rng)).collect();
            check_stream(&values, &codecs);
        }
    }
    // Sorted values, the delta option's use.
    let mut acc = 0u32;
    let sorted: Vec<u32> = (0..300)
        .map(|_| {
            acc = acc.wrapping_add((rng.next() % 5000) as u32);
            acc
        })
        .collect();
    check_stream(&sorted, &codecs);
}

/// Runs of one-byte values (eight zero control bytes in a row: the
/// kernels' widening path), broken by one longer value at every place.
#[test]
fn runs_of_one_byte_values() {
    let codecs = codecs();
    let mut rng = Rng(0x5EED_0004);
    for n in [40, 97, 160] {
        for at in (0..n).step_by(7).chain([n]) {
            let mut values: Vec<u32> = (0..n).map(|_| (rng.next() % 256) as u32).collect();
            if at < n {
                values[at] = 0x0100_0000 | rng.next() as u32;
            }
            check_stream(&values, &codecs);
        }
    }
    // Sorted with small gaps: one-byte deltas.
    let mut acc = 0u32;
    let sorted: Vec<u32> = (0..200)
        .map(|_| {
            acc += (rng.next() % 128) as u32;
            acc
        })
        .collect();
    check_stream(&sorted, &codecs);
}

#[test]
fn long_random_streams_match_the_model() {
    let codecs = codecs();
    let mut rng = Rng(0x5EED_0003);
    for n in [1000, 4099] {
        let values: Vec<u32> = (0..n).map(|_| value(&mut rng)).collect();
        for &codec in &codecs {
            for mode in modes() {
                let s = svb(mode, codec);
                let bytes = s.encode_to_vec(&values);
                assert_eq!(bytes, model_svb_encode(&values, mode));
                assert_eq!(s.decode_to_vec(&bytes, n), Ok(values.clone()));
            }
            let g = GroupVarint::with_codec(codec);
            let bytes = g.encode_to_vec(&values);
            assert_eq!(bytes, model_gv_encode(&values));
            assert_eq!(g.decode_to_vec(&bytes, n), Ok(values.clone()));
        }
    }
}

#[test]
fn short_outputs_and_huge_counts_are_errors() {
    let bytes = varint::streamvbyte::encode_to_vec(&[1, 2, 3]);
    let mut out = [SENTINEL; 2];
    assert_eq!(
        varint::streamvbyte::decode(&bytes, 3, &mut out),
        Err(Error::OutputTooSmall {
            needed: 3,
            available: 2
        })
    );
    assert_eq!(out, [SENTINEL; 2]);
    assert_eq!(
        varint::group_varint::decode(&bytes, 3, &mut out),
        Err(Error::OutputTooSmall {
            needed: 3,
            available: 2
        })
    );
    assert_eq!(out, [SENTINEL; 2]);
    // A count far beyond the input: an error, no huge allocation.
    assert_eq!(
        varint::streamvbyte::decode_to_vec(&bytes, usize::MAX),
        Err(Error::ControlTruncated {
            needed: usize::MAX.div_ceil(4),
            available: bytes.len()
        })
    );
    let gv = varint::group_varint::encode_to_vec(&[1, 2, 3, 4, 5]);
    let r = varint::group_varint::decode_to_vec(&gv, usize::MAX);
    let want = model_gv_decode(&gv, usize::MAX).unwrap_err().0;
    assert_eq!(r, Err(want));
    // Zero values take nothing.
    assert_eq!(varint::streamvbyte::decode(&[], 0, &mut []), Ok(0));
    assert_eq!(varint::group_varint::decode(&[], 0, &mut []), Ok(0));
    assert_eq!(max_compressed_len(usize::MAX), usize::MAX);
}

#[test]
#[should_panic(expected = "bytes")]
fn encode_panics_on_a_short_buffer() {
    let _ = varint::streamvbyte::encode(&[1 << 20], &mut [0u8; 3]);
}

/// The unused fields of a last partial group are ignored when decoding.
#[test]
fn unused_codes_of_the_last_group_are_ignored() {
    // One value, code 0, the three unused fields set.
    assert_eq!(
        varint::streamvbyte::decode_to_vec(&[0xFC, 0x2A], 1),
        Ok(vec![42])
    );
    assert_eq!(
        varint::group_varint::decode_to_vec(&[0xFC, 0x2A], 1),
        Ok(vec![42])
    );
}

quickcheck! {
    fn qc_round_trip(values: Vec<u32>, zero124: bool, zigzag: bool, delta: bool) -> bool {
        let mode = Mode { zero124, zigzag, delta };
        codecs().into_iter().all(|codec| {
            let s = svb(mode, codec);
            let bytes = s.encode_to_vec(&values);
            let g = GroupVarint::with_codec(codec);
            let gb = g.encode_to_vec(&values);
            bytes == model_svb_encode(&values, mode)
                && s.decode_to_vec(&bytes, values.len()) == Ok(values.clone())
                && gb == model_gv_encode(&values)
                && g.decode_to_vec(&gb, values.len()) == Ok(values.clone())
        })
    }

    fn qc_decode_any_bytes(input: Vec<u8>, count: u8, zero124: bool, zigzag: bool, delta: bool) -> bool {
        let mode = Mode { zero124, zigzag, delta };
        let count = usize::from(count);
        codecs().into_iter().all(|codec| {
            let mut out = vec![0u32; count];
            let got = svb(mode, codec).decode(&input, count, &mut out);
            let ok = match model_svb_decode(&input, count, mode) {
                Ok((v, used)) => got == Ok(used) && out == v,
                Err((e, v)) => got == Err(e) && out[..v.len()] == v[..],
            };
            let got = GroupVarint::with_codec(codec).decode(&input, count, &mut out);
            ok && match model_gv_decode(&input, count) {
                Ok((v, used)) => got == Ok(used) && out == v,
                Err((e, v)) => got == Err(e) && out[..v.len()] == v[..],
            }
        })
    }
}
