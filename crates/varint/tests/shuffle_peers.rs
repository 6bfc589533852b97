//! Stream VByte against the crates its users use today, `stream-vbyte` and
//! `svb`: our encoding decoded by them, theirs decoded by us, and the bytes
//! compared (all three write the shortest code, so the streams are equal),
//! in the standard layout, the `0124` layout (svb's `U32Variant0124`), and
//! with zigzag and delta coding (svb's `zigzag` and `delta` layers on top
//! of its codec). Group Varint has no Rust peer; its model is in
//! `shuffle_formats.rs`.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use common::Rng;
use stream_vbyte::scalar::Scalar;
use svb::u32::{U32Classic, U32Variant0124};
use varint::shuffle_kernels;
use varint::streamvbyte::{Layout, StreamVByte};

fn random_values(rng: &mut Rng, n: usize) -> Vec<u32> {
    (0..n)
        .map(|_| {
            let r = rng.next();
            match r % 5 {
                0 => 0,
                k => (r >> 8) as u32 >> (8 * (4 - k) as u32 + (r >> 40) as u32 % 8),
            }
        })
        .collect()
}

#[test]
fn standard_layout_matches_stream_vbyte_and_svb() {
    let mut rng = Rng(0xC0FF_EE01);
    for n in (0..=40).chain([100, 1000, 4097]) {
        let values = random_values(&mut rng, n);
        let mut theirs = vec![0u8; 5 * n + 16];
        let len = stream_vbyte::encode::encode::<Scalar>(&values, &mut theirs);
        theirs.truncate(len);
        assert_eq!(U32Classic.encode(&values), theirs, "svb n={n}");
        for kernel in shuffle_kernels() {
            let Some(codec) = kernel.codec() else {
                continue;
            };
            let ours = StreamVByte::new().with_codec(codec);
            let bytes = ours.encode_to_vec(&values);
            assert_eq!(bytes, theirs, "{} n={n}", kernel.name());
            assert_eq!(ours.decode_to_vec(&theirs, n), Ok(values.clone()));
            let mut out = vec![0u32; n];
            let read = stream_vbyte::decode::decode::<Scalar>(&bytes, n, &mut out);
            assert_eq!((read, &out), (bytes.len(), &values));
            assert_eq!(U32Classic.decode(&bytes, n).unwrap(), values);
        }
    }
}

#[test]
fn zero124_layout_matches_svb() {
    let mut rng = Rng(0xC0FF_EE02);
    for n in (0..=40).chain([1000]) {
        let values = random_values(&mut rng, n);
        let theirs = U32Variant0124.encode(&values);
        for kernel in shuffle_kernels() {
            let Some(codec) = kernel.codec() else {
                continue;
            };
            let ours = StreamVByte::new().layout(Layout::Zero124).with_codec(codec);
            let bytes = ours.encode_to_vec(&values);
            assert_eq!(bytes, theirs, "{} n={n}", kernel.name());
            assert_eq!(ours.decode_to_vec(&theirs, n), Ok(values.clone()));
            assert_eq!(U32Variant0124.decode(&bytes, n).unwrap(), values);
        }
    }
}

#[test]
fn zigzag_and_delta_match_svb_layers() {
    let mut rng = Rng(0xC0FF_EE03);
    for n in [0, 1, 5, 16, 17, 100, 1001] {
        // Small signed values, so that svb's own arithmetic stays in range.
        let signed: Vec<i32> = (0..n)
            .map(|_| (rng.next() % 200_001) as i32 - 100_000)
            .collect();
        let as_u32: Vec<u32> = signed.iter().map(|&v| v as u32).collect();
        let zz = svb::zigzag::encode(&signed);
        let ours = StreamVByte::new().zigzag(true);
        assert_eq!(
            ours.encode_to_vec(&as_u32),
            U32Classic.encode(&zz),
            "zigzag n={n}"
        );
        let deltas = svb::delta::encode(&signed);
        let zz_deltas = svb::zigzag::encode(&deltas);
        let ours = StreamVByte::new().zigzag(true).delta(true);
        let bytes = ours.encode_to_vec(&as_u32);
        assert_eq!(bytes, U32Classic.encode(&zz_deltas), "zigzag+delta n={n}");
        assert_eq!(ours.decode_to_vec(&bytes, n), Ok(as_u32.clone()));
        // Sorted values, delta alone.
        let mut acc = 0u32;
        let sorted: Vec<u32> = (0..n)
            .map(|_| {
                acc += (rng.next() % 70_000) as u32;
                acc
            })
            .collect();
        let ours = StreamVByte::new().delta(true);
        let bytes = ours.encode_to_vec(&sorted);
        assert_eq!(
            bytes,
            U32Classic.encode(&svb::delta::encode(&sorted)),
            "delta n={n}"
        );
    }
}
