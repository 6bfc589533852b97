//! Over-read detection for the QUIC varint kernels: every cut of random
//! streams (values of one length, of every length, and the protobuf-like
//! mix) ends exactly at a `PROT_NONE` guard page, so that a 16-byte window
//! or an 8-byte word past the slice faults; answers are compared with the
//! portable kernel (the scalar loop) on ordinary memory, lenient and
//! strict. The output is checked with a sentinel in `quic_kernels.rs`.
//!
//! Linux only: the guard pages come from `codec_testdata::guard`.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
#![cfg(target_os = "linux")]

mod common;

use codec_testdata::guard::GuardedBuf;
use common::Rng;
use varint::formats::{Format, Quic};
use varint::{ShuffleCodec, shuffle_kernels};

fn portable() -> ShuffleCodec {
    shuffle_kernels().last().unwrap().codec().unwrap()
}

/// `n` values, each of a length `len_of` picks, written from RFC 9000
/// §16 by the crate's encoder (the decoders are what is under test).
fn stream(rng: &mut Rng, n: usize, len_of: impl Fn(u64) -> u32) -> Vec<u8> {
    let values: Vec<u64> = (0..n)
        .map(|_| {
            let r = rng.next();
            let bits = len_of(r >> 32);
            r & ((1u64 << bits) - 1)
        })
        .collect();
    Quic::encode_slice_to_vec(&values).unwrap()
}

#[test]
fn kernels_stay_inside_guarded_input() {
    let mut rng = Rng(0x5157_6001);
    let mut buf = GuardedBuf::new(4096);
    let codecs: Vec<ShuffleCodec> = shuffle_kernels().iter().filter_map(|k| k.codec()).collect();
    let kinds: [fn(u64) -> u32; 6] = [
        |_| 6,
        |_| 14,
        |_| 30,
        |_| 62,
        |r| [6, 14, 30, 62][(r % 4) as usize],
        |r| match r % 20 {
            0..12 => 6,
            12..17 => 14,
            17..19 => 30,
            _ => 62,
        },
    ];
    for len_of in kinds {
        for n in [1, 5, 17, 40, 100] {
            let input = stream(&mut rng, n, len_of);
            for cut in 0..=input.len() {
                let part = &input[..cut];
                for room in [n, n / 2] {
                    let mut want = vec![0u64; room];
                    let mut got = vec![0u64; room];
                    let r = portable().quic_decode_into(part, &mut want);
                    let rs = portable().quic_decode_into_strict(part, &mut want.clone());
                    let guarded = buf.at_end(part);
                    for &c in &codecs {
                        assert_eq!(c.quic_decode_into(guarded, &mut got), r);
                        assert_eq!(got, want, "{}", c.kernel().name());
                        assert_eq!(c.quic_decode_into_strict(guarded, &mut got), rs);
                    }
                }
            }
        }
    }
}
