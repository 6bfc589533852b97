//! Bulk decoding and the iterator: agreement with one-at-a-time decoding on
//! random streams, every cut point of a stream, and error positions.

mod common;

use common::Rng;
use quickcheck::quickcheck;
use varint::{DecodeError, Varint};

/// A stream of `count` varints whose lengths follow `mix` (0: all 1-byte,
/// 1: uniform lengths, 2: mostly short), and the values.
fn stream(rng: &mut Rng, count: usize, mix: u32) -> (Vec<u8>, Vec<u64>) {
    let mut bytes = Vec::new();
    let mut values = Vec::new();
    let mut buf = [0u8; 10];
    for _ in 0..count {
        let v = match mix {
            0 => rng.next() % 128,
            1 => rng.value_bits(64) as u64,
            _ => {
                if rng.next().is_multiple_of(8) {
                    rng.value_bits(64) as u64
                } else {
                    rng.next() % 300
                }
            }
        };
        let n = varint::encode(v, &mut buf);
        bytes.extend_from_slice(&buf[..n]);
        values.push(v);
    }
    (bytes, values)
}

/// One-at-a-time decoding: the definition the bulk decoders must match.
fn one_by_one<T: Varint>(input: &[u8], limit: usize) -> (Vec<T>, usize, Option<DecodeError>) {
    let mut pos = 0;
    let mut out = Vec::new();
    while pos < input.len() && out.len() < limit {
        match varint::decode::<T>(&input[pos..]) {
            Ok((v, n)) => {
                out.push(v);
                pos += n;
            }
            Err(e) => return (out, pos, Some(e)),
        }
    }
    (out, pos, None)
}

fn check_all<T: Varint>(input: &[u8], limit: usize) {
    let (want, pos, err) = one_by_one::<T>(input, limit);
    let mut out = vec![T::default(); limit];
    match varint::decode_into(input, &mut out) {
        Ok(done) => {
            assert_eq!(err, None, "{input:02X?}");
            assert_eq!((done.count, done.bytes), (want.len(), pos));
        }
        Err(e) => {
            assert_eq!(Some(e.error()), err, "{input:02X?}");
            assert_eq!((e.count(), e.offset()), (want.len(), pos));
        }
    }
    assert_eq!(out[..want.len()], want[..]);
    if limit >= input.len() {
        // Unlimited by `out`: the Vec and the iterator see everything.
        let mut v = vec![T::default(); 3]; // appended to, not replaced
        let r = varint::decode_into_vec(input, &mut v);
        assert_eq!(v[3..], want[..]);
        match r {
            Ok(n) => assert_eq!((n, err), (want.len(), None)),
            Err(e) => assert_eq!(
                (Some(e.error()), e.count(), e.offset()),
                (err, want.len(), pos)
            ),
        }
        let mut it = varint::iter::<T>(input);
        let got: Vec<T> = it.by_ref().map_while(Result::ok).collect();
        assert_eq!(got, want);
        assert_eq!(it.offset(), pos);
        assert_eq!(it.remainder(), &input[pos..]);
        assert_eq!(it.next(), None, "fused");
    }
}

#[test]
fn random_streams_and_every_cut() {
    let mut rng = Rng(11);
    for mix in 0..3 {
        let (bytes, values) = stream(&mut rng, 300, mix);
        let mut out = vec![0u64; values.len()];
        let done = varint::decode_into(&bytes, &mut out).unwrap();
        assert_eq!((done.count, done.bytes), (values.len(), bytes.len()));
        assert_eq!(out, values);
        for cut in 0..=bytes.len() {
            check_all::<u64>(&bytes[..cut], cut + 1);
            check_all::<u32>(&bytes[..cut], cut + 1);
            check_all::<u16>(&bytes[..cut], cut + 1);
        }
        for limit in [0, 1, 7, 8, 9, 15, 16, 17, 100] {
            check_all::<u64>(&bytes, limit);
        }
    }
}

#[test]
fn errors_stop_at_the_failing_varint() {
    // Nine one-byte values, then an overflow for u64, then more values.
    let mut input = vec![1u8; 9];
    input.extend_from_slice(&[0xFF; 9]);
    input.push(0x02);
    input.extend_from_slice(&[5; 20]);
    let mut out = [0u64; 64];
    let e = varint::decode_into(&input, &mut out).unwrap_err();
    assert_eq!(
        (e.error(), e.count(), e.offset()),
        (DecodeError::Overflow, 9, 9)
    );
    assert_eq!(
        e.to_string(),
        "the 10th varint, at byte offset 9: varint overflows the target integer type"
    );
    let mut it = varint::iter::<u64>(&input);
    assert_eq!(it.by_ref().take(9).count(), 9);
    assert_eq!(it.next(), Some(Err(DecodeError::Overflow)));
    assert_eq!((it.offset(), it.next()), (9, None));
    // Strict iteration stops at padding.
    let mut it = varint::iter_strict::<u32>(&[0x01, 0x80, 0x00, 0x02]);
    assert_eq!(it.next(), Some(Ok(1)));
    assert_eq!(it.next(), Some(Err(DecodeError::NonCanonical)));
    assert_eq!(it.offset(), 1);
    // The lenient one does not.
    let all: Result<Vec<u32>, _> = varint::iter(&[0x01, 0x80, 0x00, 0x02]).collect();
    assert_eq!(all, Ok(vec![1, 0, 2]));
}

#[test]
fn empty_input_and_output() {
    let mut out = [0u64; 4];
    assert_eq!(
        varint::decode_into(&[], &mut out).map(|d| (d.count, d.bytes)),
        Ok((0, 0))
    );
    assert_eq!(
        varint::decode_into::<u64>(&[1, 2], &mut []).map(|d| (d.count, d.bytes)),
        Ok((0, 0))
    );
    assert_eq!(varint::iter::<u64>(&[]).next(), None);
    let mut v: Vec<u64> = Vec::new();
    assert_eq!(varint::decode_into_vec(&[], &mut v), Ok(0));
}

#[test]
fn long_vec_decode() {
    let mut rng = Rng(5);
    let (bytes, values) = stream(&mut rng, 5000, 2);
    let mut v: Vec<u64> = Vec::new();
    assert_eq!(varint::decode_into_vec(&bytes, &mut v), Ok(values.len()));
    assert_eq!(v, values);
}

quickcheck! {
    fn qc_bulk_matches_one_by_one(bytes: Vec<u8>, mask: u64, limit: u8) -> bool {
        let input: Vec<u8> = bytes.iter().enumerate()
            .map(|(i, &b)| if mask >> (i % 64) & 1 == 1 { b | 0x80 } else { b & 0x7F })
            .collect();
        check_all::<u64>(&input, limit as usize);
        check_all::<u64>(&input, input.len() + 1);
        check_all::<u32>(&input, input.len() + 1);
        check_all::<u128>(&input, input.len() + 1);
        true
    }
}

#[test]
fn errors_count_the_failing_varint_as_a_reader_does() {
    // `count` good values, then a truncated one.
    for (count, word) in [
        (0, "1st"),
        (1, "2nd"),
        (2, "3rd"),
        (3, "4th"),
        (10, "11th"),
        (11, "12th"),
        (12, "13th"),
        (20, "21st"),
        (21, "22nd"),
        (110, "111th"),
        (121, "122nd"),
    ] {
        let mut input = vec![7u8; count];
        input.push(0x80);
        let e = varint::decode_to_vec::<u64>(&input).unwrap_err();
        assert_eq!(
            e.to_string(),
            format!("the {word} varint, at byte offset {count}: {}", e.error())
        );
    }
}

#[test]
fn to_vec_forms_return_new_vectors_and_into_forms_append() {
    let wire = varint::encode_slice_to_vec(&[150u64, 1, 300]);
    assert_eq!(wire, [0x96, 0x01, 0x01, 0xAC, 0x02]);
    let mut appended = vec![0x0A];
    assert_eq!(
        varint::encode_slice_into_vec(&[150u64, 1, 300], &mut appended),
        5
    );
    assert_eq!(appended[1..], wire[..]);
    assert_eq!(varint::decode_to_vec::<u64>(&wire), Ok(vec![150, 1, 300]));
    let mut values = vec![9u64];
    assert_eq!(varint::decode_into_vec(&wire, &mut values), Ok(3));
    assert_eq!(values, [9, 150, 1, 300]);
}
