//! Over-read and over-write detection for the Stream VByte and Group Varint
//! kernels: every truncation of random streams ends exactly at a
//! `PROT_NONE` guard page (a 16-byte load past the slice faults), and the
//! encoders write into a buffer of exactly the encoding's length ending at
//! a guard page (a 16-byte store past the encoding faults). Answers are
//! compared with the portable kernel on ordinary memory.
//!
//! Linux only: the guard pages come from `codec_testdata::guard`.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
#![cfg(target_os = "linux")]

mod common;

use codec_testdata::guard::GuardedBuf;
use common::Rng;
use varint::group_varint::GroupVarint;
use varint::streamvbyte::{Layout, StreamVByte};
use varint::{ShuffleCodec, shuffle_kernels};

fn portable() -> ShuffleCodec {
    shuffle_kernels().last().unwrap().codec().unwrap()
}

fn configs(codec: ShuffleCodec) -> Vec<StreamVByte> {
    let mut v = Vec::new();
    for layout in [Layout::Standard, Layout::Zero124] {
        for zigzag in [false, true] {
            for delta in [false, true] {
                v.push(
                    StreamVByte::new()
                        .layout(layout)
                        .zigzag(zigzag)
                        .delta(delta)
                        .with_codec(codec),
                );
            }
        }
    }
    v
}

#[test]
fn kernels_stay_inside_guarded_slices() {
    let mut rng = Rng(0x6A4D_0001);
    let mut input_buf = GuardedBuf::new(4096);
    let mut output_buf = GuardedBuf::new(4096);
    let codecs: Vec<ShuffleCodec> = shuffle_kernels().iter().filter_map(|k| k.codec()).collect();
    for n in (0..=40).chain([64, 65, 131, 200, 333]) {
        // Every length, and (every other stream) one-byte values only.
        let small = n % 2 == 0;
        let values: Vec<u32> = (0..n)
            .map(|_| {
                let r = rng.next();
                if small {
                    r as u32 & 0xFF
                } else {
                    (r as u32) >> (8 * ((r >> 32) % 4) + (r >> 40) % 8) as u32
                }
            })
            .collect();
        for &codec in &codecs {
            let (refs, tests) = (configs(portable()), configs(codec));
            for (r, t) in refs.iter().zip(&tests) {
                let want = r.encode_to_vec(&values);
                let out = output_buf.at_end_mut(want.len());
                assert_eq!(t.encode(&values, out), want.len());
                assert_eq!(out, &want[..]);
                for cut in 0..=want.len() {
                    let mut a = vec![0u32; n];
                    let mut b = vec![0u32; n];
                    let guarded = input_buf.at_end(&want[..cut]);
                    assert_eq!(
                        t.decode(guarded, n, &mut a),
                        r.decode(&want[..cut], n, &mut b)
                    );
                    assert_eq!(a, b);
                }
            }
            let (r, t) = (
                GroupVarint::with_codec(portable()),
                GroupVarint::with_codec(codec),
            );
            let want = r.encode_to_vec(&values);
            let out = output_buf.at_end_mut(want.len());
            assert_eq!(t.encode(&values, out), want.len());
            assert_eq!(out, &want[..]);
            for cut in 0..=want.len() {
                let mut a = vec![0u32; n];
                let mut b = vec![0u32; n];
                let guarded = input_buf.at_end(&want[..cut]);
                assert_eq!(
                    t.decode(guarded, n, &mut a),
                    r.decode(&want[..cut], n, &mut b)
                );
                assert_eq!(a, b);
            }
        }
    }
}
