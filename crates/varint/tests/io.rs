//! The `std::io` traits: short and interrupted reads, EOF, the `MAX_LEN`
//! bound on endless input, and writes.

use std::io::{self, Read};

use varint::{DecodeError, ReadVarint, WriteVarint};

/// A reader that hands out one byte per call and interrupts every other
/// call, counting what it gave.
struct Trickle<'a> {
    data: &'a [u8],
    given: usize,
    calls: usize,
}

impl Read for Trickle<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        self.calls += 1;
        if self.calls.is_multiple_of(2) {
            return Err(io::ErrorKind::Interrupted.into());
        }
        match (self.data.get(self.given), buf.first_mut()) {
            (Some(&b), Some(slot)) => {
                *slot = b;
                self.given += 1;
                Ok(1)
            }
            _ => Ok(0),
        }
    }
}

fn decode_error(e: &io::Error) -> Option<DecodeError> {
    e.get_ref()
        .and_then(|inner| inner.downcast_ref::<DecodeError>())
        .copied()
}

#[test]
fn short_and_interrupted_reads() {
    let mut wire = Vec::new();
    let values = [0u64, 1, 127, 128, 300, u64::MAX, 1 << 63];
    for &v in &values {
        wire.write_varint(v).unwrap();
    }
    wire.write_varint_signed(-5i32).unwrap();
    let mut r = Trickle {
        data: &wire,
        given: 0,
        calls: 0,
    };
    for &v in &values {
        assert_eq!(r.read_varint::<u64>().unwrap(), v);
    }
    assert_eq!(r.read_varint_signed::<i32>().unwrap(), -5);
    assert_eq!(r.given, wire.len(), "read exactly the varints");
    let eof = r.read_varint::<u64>().unwrap_err();
    assert_eq!(eof.kind(), io::ErrorKind::UnexpectedEof);
    assert_eq!(decode_error(&eof), Some(DecodeError::Truncated));
}

#[test]
fn truncated_mid_varint() {
    let mut r = Trickle {
        data: &[0xAC],
        given: 0,
        calls: 0,
    };
    let e = r.read_varint::<u32>().unwrap_err();
    assert_eq!(e.kind(), io::ErrorKind::UnexpectedEof);
    assert_eq!(r.given, 1);
}

#[test]
fn endless_continuation_reads_max_len_bytes() {
    // `io::repeat(0x80)` never ends: the reader must stop by itself.
    for (max, result) in [
        (
            3,
            io::repeat(0x80)
                .take(100)
                .read_varint::<u16>()
                .map(u128::from),
        ),
        (
            5,
            io::repeat(0x80)
                .take(100)
                .read_varint::<u32>()
                .map(u128::from),
        ),
        (
            10,
            io::repeat(0x80)
                .take(100)
                .read_varint::<u64>()
                .map(u128::from),
        ),
        (19, io::repeat(0x80).take(100).read_varint::<u128>()),
    ] {
        let e = result.unwrap_err();
        assert_eq!(e.kind(), io::ErrorKind::InvalidData, "max {max}");
        assert_eq!(decode_error(&e), Some(DecodeError::Overflow));
    }
    let mut r = io::repeat(0xFF).take(100);
    assert!(r.read_varint::<u64>().is_err());
    assert_eq!(r.limit(), 90, "read exactly MAX_LEN bytes");
}

#[test]
fn strict_reader() {
    let mut r: &[u8] = &[0x80, 0x00, 0x05];
    let e = r.read_varint_strict::<u64>().unwrap_err();
    assert_eq!(decode_error(&e), Some(DecodeError::NonCanonical));
    assert_eq!(e.kind(), io::ErrorKind::InvalidData);
    assert_eq!(r, [0x05], "the padded varint was consumed");
    assert_eq!(r.read_varint_strict::<u64>().unwrap(), 5);
}

#[test]
fn reader_errors_pass_through() {
    struct Broken;
    impl Read for Broken {
        fn read(&mut self, _: &mut [u8]) -> io::Result<usize> {
            Err(io::Error::other("disk on fire"))
        }
    }
    let e = Broken.read_varint::<u64>().unwrap_err();
    assert_eq!(e.to_string(), "disk on fire");
}

#[test]
fn writer_returns_length() {
    let mut w = Vec::new();
    assert_eq!(w.write_varint(300u16).unwrap(), 2);
    assert_eq!(w.write_varint(u128::MAX).unwrap(), 19);
    assert_eq!(w.write_varint_signed(i64::MIN).unwrap(), 10);
    assert_eq!(w.len(), 31);
    let mut r = &w[..];
    assert_eq!(r.read_varint::<u16>().unwrap(), 300);
    assert_eq!(r.read_varint::<u128>().unwrap(), u128::MAX);
    assert_eq!(r.read_varint_signed::<i64>().unwrap(), i64::MIN);
}

#[test]
fn clean_end_or_cut_off() {
    // A stream of three varints: each read returns one, then a clean end.
    let mut wire = Vec::new();
    for v in [0u64, 300, u64::MAX] {
        wire.write_varint(v).unwrap();
    }
    let mut r = Trickle {
        data: &wire,
        given: 0,
        calls: 0,
    };
    assert_eq!(r.read_varint_or_eof::<u64>().unwrap(), Some(0));
    assert_eq!(r.read_varint_or_eof::<u64>().unwrap(), Some(300));
    assert_eq!(r.read_varint_or_eof::<u64>().unwrap(), Some(u64::MAX));
    assert_eq!(r.read_varint_or_eof::<u64>().unwrap(), None);
    assert_eq!(
        r.read_varint_or_eof::<u64>().unwrap(),
        None,
        "still at the end"
    );
    // Every cut inside a varint is an error, not a clean end.
    let mut buf = [0u8; 10];
    let n = varint::encode(u64::MAX, &mut buf);
    for cut in 1..n {
        let mut r = &buf[..cut];
        let e = r.read_varint_or_eof::<u64>().unwrap_err();
        assert_eq!(e.kind(), io::ErrorKind::UnexpectedEof, "cut {cut}");
        assert_eq!(decode_error(&e), Some(DecodeError::Truncated));
        assert!(r.is_empty(), "the bytes read are consumed");
    }
    // Invalid data is still an error.
    let mut r: &[u8] = &[0xFF; 12];
    let e = r.read_varint_or_eof::<u64>().unwrap_err();
    assert_eq!(decode_error(&e), Some(DecodeError::Overflow));
    // The plain read keeps its meaning: any end is UnexpectedEof.
    let e = (&[][..]).read_varint::<u32>().unwrap_err();
    assert_eq!(e.kind(), io::ErrorKind::UnexpectedEof);
}

#[test]
fn sleb128_through_io() {
    let mut wire = Vec::new();
    let values = [0i64, -1, 63, 64, -64, -65, i64::MIN, i64::MAX];
    for &v in &values {
        let n = wire.write_sleb128(v).unwrap();
        assert_eq!(n, varint::sleb128::encoded_len(v));
    }
    wire.write_sleb128(i128::MIN).unwrap();
    let mut r = Trickle {
        data: &wire,
        given: 0,
        calls: 0,
    };
    for &v in &values {
        assert_eq!(r.read_sleb128::<i64>().unwrap(), v);
    }
    assert_eq!(r.read_sleb128_strict::<i128>().unwrap(), i128::MIN);
    assert_eq!(r.given, wire.len());
    // Endless continuation bytes: exactly MAX_LEN read, then Overflow.
    let mut r = io::repeat(0x80).take(100);
    let e = r.read_sleb128::<i32>().unwrap_err();
    assert_eq!(decode_error(&e), Some(DecodeError::Overflow));
    assert_eq!(r.limit(), 95, "i32's MAX_LEN, 5 bytes");
    let mut r: &[u8] = &[0x80, 0x00];
    let e = r.read_sleb128_strict::<i32>().unwrap_err();
    assert_eq!(decode_error(&e), Some(DecodeError::NonCanonical));
}

/// `From<DecodeError> for io::Error` (codec-core's, reached through
/// varint's re-exported `DecodeError`): `?` turns a slice decoder's error
/// into an I/O error, `UnexpectedEof` for a cut-off varint and
/// `InvalidData` otherwise, with the `DecodeError` as its inner error.
#[test]
fn decode_error_converts_with_question_mark() {
    fn value(bytes: &[u8]) -> io::Result<u64> {
        Ok(varint::decode_strict::<u64>(bytes)?.0)
    }
    assert_eq!(value(&[0xAC, 0x02]).unwrap(), 300);
    for (bytes, kind, error) in [
        (
            &[0xAC][..],
            io::ErrorKind::UnexpectedEof,
            DecodeError::Truncated,
        ),
        (
            &[0xFF; 10][..],
            io::ErrorKind::InvalidData,
            DecodeError::Overflow,
        ),
        (
            &[0x80, 0x00][..],
            io::ErrorKind::InvalidData,
            DecodeError::NonCanonical,
        ),
    ] {
        let e = value(bytes).unwrap_err();
        assert_eq!(e.kind(), kind, "{bytes:02X?}");
        assert_eq!(decode_error(&e), Some(error), "{bytes:02X?}");
        let e = io::Error::from(error);
        assert_eq!((e.kind(), decode_error(&e)), (kind, Some(error)));
    }
}

/// `varint::ZigZag`, the re-exported bound of the signed functions: a
/// caller can write a generic signed function without depending on
/// `zigzag` itself.
#[test]
fn zigzag_bound_is_reexported() {
    fn round_trip<S>(v: S) -> S
    where
        S: varint::ZigZag + Copy,
        S::Unsigned: varint::Varint,
    {
        let mut buf = [0u8; 19];
        let n = varint::encode_signed(v, &mut buf);
        varint::decode_signed::<S>(&buf[..n]).unwrap().0
    }
    assert_eq!(round_trip(-150i64), -150);
    assert_eq!(round_trip(i32::MIN), i32::MIN);
    assert_eq!(round_trip(i128::MAX), i128::MAX);
}
