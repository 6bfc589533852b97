//! The adapters of `varint::formats` for every format: `std::io` reading
//! and writing, `bytes` buffers split across chunks, and the stream
//! decoder fed one byte per read, all against the slice decoder.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::fmt::Debug;
use std::io::{self, Read};

use bytes::Buf;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use varint::formats::cbor::Head;
use varint::formats::{
    Bijective, Bincode, BufFormat, CborHead, CompactSize, DecodeError, Format, Hpack, Leb128,
    MsgPack, Prefix, PutFormat, Quic, ReadFormat, Sleb128, Sqlite, StreamErrorKind, Vlq,
    WriteFormat, Zigzag, decode_stream,
};

/// Hands out one byte per read, the worst case for every carry.
struct Trickle<'a>(&'a [u8]);

impl Read for Trickle<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        match (self.0.split_first(), buf.first_mut()) {
            (Some((&b, rest)), Some(slot)) => {
                *slot = b;
                self.0 = rest;
                Ok(1)
            }
            _ => Ok(0),
        }
    }
}

fn spread(rng: &mut StdRng) -> u64 {
    let bits = rng.random_range(0..=64u32);
    if bits == 0 {
        0
    } else {
        rng.random::<u64>() >> (64 - bits)
    }
}

fn adapters<F>(values: &[F::Value])
where
    F: Format<Value: PartialEq + Debug>,
{
    // Write, then read back through every adapter.
    let mut wire = Vec::new();
    for &v in values {
        wire.write_format::<F>(v).unwrap();
    }
    assert_eq!(wire, F::encode_slice_to_vec(values).unwrap(), "{}", F::NAME);
    let mut r = &wire[..];
    for &v in values {
        assert_eq!(r.read_format_strict::<F>().unwrap(), v, "{}", F::NAME);
    }
    assert_eq!(r.read_format_or_eof::<F>().unwrap(), None);
    let eof = r.read_format::<F>().unwrap_err();
    assert_eq!(eof.kind(), io::ErrorKind::UnexpectedEof);

    // The stream decoder, one byte per read, and with the input cut inside
    // the last value.
    let mut got = Vec::new();
    let count = decode_stream::<F, _, io::Error>(Trickle(&wire), true, |v| {
        got.push(v);
        Ok(())
    })
    .unwrap();
    assert_eq!((count as usize, &got[..]), (values.len(), values));
    let last = F::encoded_len(values[values.len() - 1]).unwrap();
    if last > 1 {
        let cut = &wire[..wire.len() - 1];
        let mut n = 0;
        let err = decode_stream::<F, _, io::Error>(Trickle(cut), false, |_| {
            n += 1;
            Ok(())
        })
        .unwrap_err();
        assert!(matches!(
            err.kind(),
            StreamErrorKind::Decode(DecodeError::Truncated)
        ));
        assert_eq!(n, values.len() - 1);
        assert_eq!(err.index() as usize, values.len() - 1);
        assert_eq!(err.offset() as usize, wire.len() - last);
        assert_eq!(err.bytes(), &wire[wire.len() - last..wire.len() - 1]);
        // Cut off by the reader: the read stops at the value's end.
        let mut r = cut;
        for &v in &values[..values.len() - 1] {
            assert_eq!(r.read_format::<F>().unwrap(), v);
        }
        assert_eq!(
            r.read_format::<F>().unwrap_err().kind(),
            io::ErrorKind::UnexpectedEof
        );
    }

    // `bytes`: a buffer in two chunks split at every offset near the start.
    for split in 0..wire.len().min(24) {
        let mut buf = Buf::chain(&wire[..split], &wire[split..]);
        for &v in values {
            assert_eq!(
                buf.get_format_strict::<F>(),
                Ok(v),
                "{} split {split}",
                F::NAME
            );
        }
        assert!(!buf.has_remaining());
        assert_eq!(buf.get_format::<F>(), Err(DecodeError::Truncated));
    }
    let mut put = Vec::new();
    for &v in values {
        put.put_format::<F>(v).unwrap();
    }
    assert_eq!(put, wire);
}

#[test]
fn every_format_through_every_adapter() {
    let mut rng = StdRng::seed_from_u64(42);
    let u: Vec<u64> = (0..500).map(|_| spread(&mut rng)).collect();
    let values = |f: fn(u64) -> u64| u.iter().map(|&v| f(v)).collect::<Vec<_>>();
    adapters::<Quic>(&values(|v| v >> 2));
    adapters::<Hpack<5>>(&u);
    adapters::<Sqlite>(&u);
    adapters::<Bijective>(&u);
    adapters::<CompactSize>(&u);
    adapters::<Bincode>(&u);
    adapters::<Prefix>(&u);
    adapters::<Leb128<u64>>(&u);
    adapters::<Vlq>(&u.iter().map(|&v| (v >> 36) as u32).collect::<Vec<_>>());
    adapters::<Zigzag<i64>>(&u.iter().map(|&v| v as i64).collect::<Vec<_>>());
    adapters::<Sleb128<i64>>(&u.iter().map(|&v| v as i64).collect::<Vec<_>>());
    adapters::<MsgPack>(
        &u.iter()
            .map(|&v| i128::from(v) - i128::from(v >> 1) * 2 * i128::from(v & 1))
            .collect::<Vec<_>>(),
    );
    adapters::<CborHead>(
        &u.iter()
            .map(|&v| Head::new((v % 7) as u8, v))
            .collect::<Vec<_>>(),
    );
}

#[test]
fn out_of_range_values_write_nothing() {
    let mut wire = vec![1u8, 2];
    let e = wire.write_format::<Quic>(1 << 62).unwrap_err();
    assert_eq!(e.kind(), io::ErrorKind::InvalidInput);
    assert!(wire.put_format::<Vlq>(0x1000_0000).is_err());
    assert_eq!(wire, [1, 2]);
}

#[test]
fn stream_errors_name_the_value_and_offset() {
    // A good value, then CBOR's reserved additional information 28.
    let bytes: &[u8] = &[0x18, 0x64, 0x1c, 0x00];
    let mut seen = Vec::new();
    let err = decode_stream::<CborHead, _, io::Error>(bytes, false, |v| {
        seen.push(v);
        Ok(())
    })
    .unwrap_err();
    assert_eq!(seen, [Head::new(0, 100)]);
    assert_eq!(
        err.to_string(),
        format!(
            "the 2nd varint, at byte offset 2: {}",
            DecodeError::Reserved
        )
    );
    // The callback's error ends the stream, as itself.
    let err = decode_stream::<Quic, _, &str>(&[0x01, 0x02][..], false, |v| {
        if v == 2 { Err("stop") } else { Ok(()) }
    })
    .unwrap_err();
    assert!(matches!(err.kind(), StreamErrorKind::Callback("stop")));
    assert_eq!((err.index(), err.offset()), (1, 1));
    // Strict mode reports the non-canonical value.
    let err =
        decode_stream::<Quic, _, io::Error>(&[0x25, 0x40, 0x25][..], true, |_| Ok(())).unwrap_err();
    assert!(matches!(
        err.kind(),
        StreamErrorKind::Decode(DecodeError::NonCanonical)
    ));
    assert_eq!(err.bytes(), &[0x40, 0x25]);
}

/// A format that breaks the contract: every decode takes 0 bytes, or more
/// than there are.
struct Broken<const N: usize>;

impl<const N: usize> Format for Broken<N> {
    type Value = u8;
    const MAX_LEN: usize = 1;
    const NAME: &'static str = "broken";
    fn decode(buf: &[u8]) -> Result<(u8, usize), DecodeError> {
        buf.first().map(|&b| (b, N)).ok_or(DecodeError::Truncated)
    }
    fn encoded_len(_: u8) -> Option<usize> {
        Some(1)
    }
    fn write(value: u8, out: &mut [u8]) {
        out[0] = value;
    }
}

#[test]
fn a_broken_format_cannot_stall_or_overrun_the_loops() {
    let bytes = [1u8, 2, 3];
    fn all<F: Format<Value = u8>>(bytes: &[u8]) {
        let count = bytes.len();
        assert_eq!(F::iter(bytes).count(), count);
        let mut out = [0u8; 8];
        assert_eq!(F::decode_into(bytes, &mut out).unwrap().count, count);
        let n = decode_stream::<F, _, ()>(bytes, false, |_| Ok(())).unwrap();
        assert_eq!(n as usize, count);
    }
    all::<Broken<0>>(&bytes);
    all::<Broken<5>>(&bytes[..1]);
    let mut buf = &bytes[..1];
    assert_eq!(buf.get_format::<Broken<5>>(), Ok(1));
    assert!(buf.is_empty());
}
