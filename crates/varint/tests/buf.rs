//! The `bytes` extension traits: values and errors as the slice decoders
//! give them, the buffer advanced past each value, nothing consumed on an
//! error within one chunk, varints split across the chunks of a `Chain` and
//! a `VecDeque` at every point.
#![cfg(feature = "bytes")]
// Test code: clippy.toml exempts #[test] functions from the no-panic lints,
// but not the helpers of an integration test, which may panic too.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use std::collections::VecDeque;

use bytes::{Buf, Bytes, BytesMut};
use common::Rng;
use varint::{BufVarint, DecodeError, PutVarint};

fn stream(rng: &mut Rng, count: usize) -> (Vec<u8>, Vec<u64>) {
    let mut out = BytesMut::new();
    let mut values = Vec::new();
    for _ in 0..count {
        let v = rng.value_bits(64) as u64;
        out.put_varint(v);
        values.push(v);
    }
    (out.to_vec(), values)
}

#[test]
fn contiguous_buffers_advance() {
    let mut rng = Rng(3);
    let (bytes, values) = stream(&mut rng, 500);
    let mut b = Bytes::from(bytes.clone());
    let mut s = &bytes[..];
    for &v in &values {
        assert_eq!(b.get_varint::<u64>(), Ok(v));
        assert_eq!(s.get_varint::<u64>(), Ok(v));
    }
    assert!(!b.has_remaining() && s.is_empty());
    assert_eq!(b.get_varint::<u64>(), Err(DecodeError::Truncated));
}

#[test]
fn errors_consume_nothing_within_a_chunk() {
    for (input, err) in [
        (&[0xAC][..], DecodeError::Truncated),
        (&[0xFF; 10][..], DecodeError::Overflow),
        (&[0x80, 0x00][..], DecodeError::NonCanonical),
    ] {
        let mut b = Bytes::copy_from_slice(input);
        let got = if err == DecodeError::NonCanonical {
            b.get_varint_strict::<u64>()
        } else {
            b.get_varint::<u64>()
        };
        assert_eq!(got, Err(err));
        assert_eq!(b.remaining(), input.len(), "{input:02X?}");
    }
}

/// Every varint of a stream split between two chunks at every point, in a
/// `Chain` and in a `VecDeque` whose ring wraps.
#[test]
fn split_across_chunks_at_every_point() {
    let mut rng = Rng(9);
    let (bytes, values) = stream(&mut rng, 60);
    for cut in 0..=bytes.len() {
        let mut chain = (&bytes[..cut]).chain(&bytes[cut..]);
        for &v in &values {
            assert_eq!(chain.get_varint::<u64>(), Ok(v), "cut {cut}");
        }
        assert!(!chain.has_remaining());
        // A ring buffer whose contents wrap around at `cut`.
        let mut ring: VecDeque<u8> = VecDeque::with_capacity(bytes.len());
        ring.extend(std::iter::repeat_n(0, bytes.len() - cut));
        for _ in 0..bytes.len() - cut {
            ring.pop_front();
        }
        ring.extend(&bytes);
        for &v in &values {
            assert_eq!(ring.get_varint::<u64>(), Ok(v), "ring cut {cut}");
        }
    }
    // An error across chunks: the same error as on the joined bytes.
    let bad = [
        0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x02, 0x05,
    ];
    for cut in 0..=bad.len() {
        let mut chain = (&bad[..cut]).chain(&bad[cut..]);
        assert_eq!(
            chain.get_varint::<u64>(),
            Err(DecodeError::Overflow),
            "cut {cut}"
        );
        let mut chain = (&bad[..cut.min(4)]).chain(&bad[cut.min(4)..5]);
        assert_eq!(chain.get_varint::<u64>(), Err(DecodeError::Truncated));
    }
}

#[test]
fn signed_and_sleb128() {
    let mut out = Vec::new();
    for v in [0i64, -1, 1, i64::MIN, i64::MAX] {
        assert_eq!(
            out.put_varint_signed(v),
            varint::encoded_len(zigzag::encode(v))
        );
        assert_eq!(out.put_sleb128(v), varint::sleb128::encoded_len(v));
    }
    let mut b = &out[..];
    for v in [0i64, -1, 1, i64::MIN, i64::MAX] {
        assert_eq!(b.get_varint_signed::<i64>(), Ok(v));
        assert_eq!(b.get_sleb128::<i64>(), Ok(v));
    }
    assert!(b.is_empty());
}

#[test]
fn put_into_a_full_buffer_panics_like_put_slice() {
    let r = std::panic::catch_unwind(|| {
        let mut space = [0u8; 1];
        let mut w = &mut space[..];
        w.put_varint(300u32)
    });
    assert!(r.is_err());
}
