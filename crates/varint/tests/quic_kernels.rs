//! The bulk QUIC varint decoders of every kernel of
//! `varint::shuffle_kernels()` this CPU can run (and the dispatched
//! `Quic::decode_into`) against a loop over the scalar decoder
//! (`Quic::decode`, `Quic::decode_strict`), lenient and strict: random
//! streams of every length distribution, non-shortest forms, mutated and
//! truncated streams, each after every prefix of 0 to 17 one-byte values
//! (so that every value lands at every place of a 16-byte window), short
//! outputs, and a sentinel in every output slot past the count returned.
//! The guard-page test is `quic_guard_page.rs`.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use common::Rng;
use quickcheck::quickcheck;
use varint::formats::{Format, Quic};
use varint::{BulkError, DecodeError, Decoded, ShuffleCodec, shuffle_kernels};

const SENTINEL: u64 = 0xdead_beef_dead_beef;

/// Every kernel this CPU can run; the portable one last.
fn codecs() -> Vec<ShuffleCodec> {
    let all: Vec<ShuffleCodec> = shuffle_kernels().iter().filter_map(|k| k.codec()).collect();
    for k in shuffle_kernels().iter().filter(|k| !k.is_available()) {
        eprintln!("not tested on this CPU: {}", k.name());
    }
    assert_eq!(all.last().map(|c| c.kernel().name()), Some("portable"));
    all
}

/// The scalar loop: what every bulk decoder must answer, values included.
fn reference(input: &[u8], room: usize, strict: bool) -> (Vec<u64>, Result<Decoded, BulkError>) {
    let mut values = Vec::new();
    let mut at = 0;
    while values.len() < room && at < input.len() {
        let r = if strict {
            Quic::decode_strict(&input[at..])
        } else {
            Quic::decode(&input[at..])
        };
        match r {
            Ok((v, n)) => {
                values.push(v);
                at += n;
            }
            Err(e) => {
                let count = values.len();
                // `BulkError` has no public constructor: take the expected
                // one from the iterator, which decodes with the scalar
                // decoder too, and check its fields against ours.
                let mut it = if strict {
                    Quic::iter_strict(input)
                } else {
                    Quic::iter(input)
                };
                let err = it.nth(count).unwrap().unwrap_err();
                assert_eq!((err.error(), err.offset(), err.count()), (e, at, count));
                return (values, Err(err));
            }
        }
    }
    let bytes = at;
    let count = values.len();
    (values, Ok(Decoded { count, bytes }))
}

/// Runs `codec` (or the dispatched `Quic` functions for `None`) on `input`
/// into `room` slots and compares everything with the scalar loop.
fn check(codec: Option<ShuffleCodec>, input: &[u8], room: usize, strict: bool) {
    let (want_values, want) = reference(input, room, strict);
    let mut out = vec![SENTINEL; room + 4];
    let got = match (codec, strict) {
        (Some(c), false) => c.quic_decode_into(input, &mut out[..room]),
        (Some(c), true) => c.quic_decode_into_strict(input, &mut out[..room]),
        (None, false) => Quic::decode_into(input, &mut out[..room]),
        (None, true) => Quic::decode_into_strict(input, &mut out[..room]),
    };
    let name = codec.map_or("dispatched", |c| c.kernel().name());
    assert_eq!(
        got, want,
        "{name} strict={strict} room={room} input={input:02x?}"
    );
    let count = want_values.len();
    assert_eq!(&out[..count], &want_values[..], "{name} strict={strict}");
    assert!(
        out[count..].iter().all(|&x| x == SENTINEL),
        "{name} strict={strict}: written past the count {count}"
    );
}

fn check_all(codecs: &[ShuffleCodec], input: &[u8], room: usize) {
    for strict in [false, true] {
        for &c in codecs {
            check(Some(c), input, room, strict);
        }
        check(None, input, room, strict);
    }
}

/// `v` in `len` bytes (1, 2, 4 or 8), longer than needed if `len` says so,
/// as RFC 9000 §16 lays it out: the length code in the top two bits of the
/// first byte, the value big-endian in the rest.
fn encode_in(v: u64, len: usize, out: &mut Vec<u8>) {
    let code = len.trailing_zeros() as u8;
    let start = out.len();
    for i in (0..len).rev() {
        out.push((v >> (8 * i)) as u8);
    }
    out[start] |= code << 6;
}

/// A random value that fits `len` bytes: any value of the length's bits
/// with some bits cleared, so that shorter forms (non-shortest encodings)
/// come up too.
fn value_in(rng: &mut Rng, len: usize) -> u64 {
    let bits = 8 * len as u32 - 2;
    let r = rng.next() & ((1u64 << bits) - 1);
    r >> (rng.next() % u64::from(bits))
}

/// A value whose shortest form is `len` bytes.
fn shortest_in(rng: &mut Rng, len: usize) -> u64 {
    let bits = 8 * len as u32 - 2;
    let low = if len == 1 { 0 } else { 1u64 << (4 * len - 2) };
    low + rng.next() % ((1u64 << bits) - low)
}

#[derive(Clone, Copy, Debug)]
enum Dist {
    /// Every value of this length.
    Only(usize),
    Uniform,
    Mixed,
    AnyForm,
    /// One- and two-byte values, 70/30.
    Short,
}

const DISTS: [Dist; 8] = [
    Dist::Short,
    Dist::Only(1),
    Dist::Only(2),
    Dist::Only(4),
    Dist::Only(8),
    Dist::Uniform,
    Dist::Mixed,
    Dist::AnyForm,
];

fn stream(rng: &mut Rng, dist: Dist, n: usize) -> Vec<u8> {
    let mut out = Vec::new();
    for _ in 0..n {
        let r = rng.next() % 100;
        let len = match dist {
            Dist::Only(len) => len,
            Dist::Short => 1 + usize::from(r >= 70),
            Dist::Uniform | Dist::AnyForm => 1 << (r % 4),
            Dist::Mixed => match r {
                0..60 => 1,
                60..85 => 2,
                85..95 => 4,
                _ => 8,
            },
        };
        let v = match dist {
            // Now and then a value that a shorter form could hold
            // (non-canonical), also in windows of one length.
            Dist::Only(len) if len > 1 && r < 3 => value_in(rng, len / 2),
            Dist::AnyForm => value_in(rng, len),
            _ => shortest_in(rng, len),
        };
        encode_in(v, len, &mut out);
    }
    out
}

/// Every distribution, after every prefix of one-byte values, cut at every
/// length: every value at every place of a window, and every truncation.
#[test]
fn random_streams_after_every_prefix_and_every_cut() {
    let codecs = codecs();
    let mut rng = Rng(0x5157_0001);
    for dist in DISTS {
        for prefix in 0..=17 {
            let mut input: Vec<u8> = (0..prefix).map(|i| i as u8 & 0x3f).collect();
            input.extend(stream(&mut rng, dist, 24));
            for cut in 0..=input.len() {
                check_all(&codecs, &input[..cut], cut + 1);
            }
        }
    }
}

/// Every way a 16-byte window can be cut into values: every sequence of
/// lengths (1, 2, 4, 8) up to the first value that reaches byte 16 or past
/// it (20,632), each filled with random shortest values and, in a
/// second stream, with one non-shortest value at a random place, after
/// zero to two one-byte values and followed by a window of one-byte ones.
#[test]
fn every_window_layout() {
    fn layouts(sum: usize, seq: &mut Vec<usize>, out: &mut Vec<Vec<usize>>) {
        if sum >= 16 {
            out.push(seq.clone());
            return;
        }
        for len in [1, 2, 4, 8] {
            seq.push(len);
            layouts(sum + len, seq, out);
            seq.pop();
        }
    }
    let mut all = Vec::new();
    layouts(0, &mut Vec::new(), &mut all);
    assert_eq!(all.len(), 20_632);
    let codecs = codecs();
    let mut rng = Rng(0x5157_0005);
    // Under an emulator (the aarch64 lane, which has only the portable
    // kernel) every 13th layout.
    let step = if codec_testdata::emulated() { 13 } else { 1 };
    for (i, seq) in all.iter().enumerate().step_by(step) {
        let lead = i % 3;
        let odd = (rng.next() as usize) % seq.len();
        for with_odd in [false, true] {
            let mut input: Vec<u8> = (0..lead).map(|b| b as u8).collect();
            for (k, &len) in seq.iter().enumerate() {
                let v = if with_odd && k == odd && len > 1 {
                    value_in(&mut rng, len / 2)
                } else {
                    shortest_in(&mut rng, len)
                };
                encode_in(v, len, &mut input);
            }
            input.extend([5u8; 16]);
            check_all(&codecs, &input, 64);
        }
    }
}

/// Long streams, whole and with one byte changed at random places.
#[test]
fn long_and_mutated_streams() {
    let codecs = codecs();
    let mut rng = Rng(0x5157_0002);
    for dist in DISTS {
        for _ in 0..20 {
            let n = 1 + (rng.next() % 400) as usize;
            let mut input = stream(&mut rng, dist, n);
            check_all(&codecs, &input, n);
            for _ in 0..8 {
                let at = (rng.next() as usize) % input.len();
                input[at] = rng.next() as u8;
                check_all(&codecs, &input, n + 8);
            }
        }
    }
}

/// Outputs shorter than the stream, of every length around a window's
/// yield.
#[test]
fn short_outputs() {
    let codecs = codecs();
    let mut rng = Rng(0x5157_0003);
    for dist in DISTS {
        let input = stream(&mut rng, dist, 100);
        for room in 0..=70 {
            check_all(&codecs, &input, room);
        }
    }
}

/// A non-shortest value at every place of a window of every kind (all one
/// byte, all two bytes, mixed), in strict mode reported where the scalar
/// decoder reports it.
#[test]
fn non_shortest_value_at_every_place() {
    let codecs = codecs();
    let mut rng = Rng(0x5157_0004);
    for dist in DISTS {
        for place in 0..40 {
            for len in [2, 4, 8] {
                let mut input = stream(&mut rng, dist, place);
                // The largest value of the next shorter length.
                let v = (1u64 << (4 * len - 2)) - 1;
                encode_in(v, len, &mut input);
                input.extend(stream(&mut rng, dist, 20));
                check_all(&codecs, &input, 64);
                let (_, want) = reference(&input, 64, true);
                assert_eq!(want.unwrap_err().error(), DecodeError::NonCanonical);
            }
        }
    }
}

/// The RFC 9000 appendix A.1 examples, strung together.
#[test]
fn rfc_examples() {
    let codecs = codecs();
    let mut input = Vec::new();
    for _ in 0..8 {
        input.extend([0xc2, 0x19, 0x7c, 0x5e, 0xff, 0x14, 0xe8, 0x8c]);
        input.extend([0x9d, 0x7f, 0x3e, 0x7d]);
        input.extend([0x7b, 0xbd]);
        input.extend([0x25]);
        input.extend([0x40, 0x25]);
    }
    check_all(&codecs, &input, 64);
    let mut out = [0u64; 40];
    let done = Quic::decode_into(&input, &mut out).unwrap();
    assert_eq!(done.count, 40);
    assert_eq!(
        out[..5],
        [151_288_809_941_952_652, 494_878_333, 15_293, 37, 37]
    );
    assert_eq!(
        Quic::decode_into_strict(&input, &mut out)
            .unwrap_err()
            .count(),
        4
    );
}

quickcheck! {
    fn qc_any_bytes(input: Vec<u8>, room: u8) -> bool {
        check_all(&codecs(), &input, usize::from(room));
        true
    }

    fn qc_two_byte_heavy(seed: Vec<(u8, u8)>, room: u8) -> bool {
        // Mostly the prefix `01` in even places: two-byte windows with
        // arbitrary second bytes, now and then broken.
        let input: Vec<u8> = seed
            .iter()
            .flat_map(|&(a, b)| [if a < 250 { 0x40 | (a & 0x3f) } else { a }, b])
            .collect();
        check_all(&codecs(), &input, usize::from(room));
        true
    }
}
