//! Every row of `testdata/conformance/varint_cases.tsv` (protobuf-go's
//! protowire and Go's encoding/binary test vectors), through every API that
//! can decode or encode it.
// Test code: clippy.toml exempts #[test] functions from the no-panic lints,
// but not the helpers of an integration test, which may panic too.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::unreachable
)]

mod common;

use codec_testdata::{VarintCase, VarintExpect, varint_cases};
use varint::{DecodeError, ReadVarint, Varint, WriteVarint};

/// `binary.Varint` rows hold zigzag-signed values; every other row a u64.
fn is_signed(case: &VarintCase) -> bool {
    case.api.contains("binary.PutVarint") || case.api == "binary.Varint"
}

fn expected_err(case: &VarintCase) -> DecodeError {
    match case.expect {
        VarintExpect::Truncated => DecodeError::Truncated,
        VarintExpect::Overflow => DecodeError::Overflow,
        VarintExpect::Ok => unreachable!("{}: not an error row", case.id),
    }
}

#[test]
fn every_row() {
    let cases = varint_cases();
    assert_eq!(cases.len(), 304);
    let mut checked = [0usize; 3];
    for case in &cases {
        let id = &case.id;
        let input = &case.input[..];
        match case.expect {
            VarintExpect::Ok => {
                let value = case.value.unwrap_or_else(|| panic!("{id}: no value"));
                let consumed = case.consumed.unwrap_or_else(|| panic!("{id}: no consumed"));
                let canonical = case
                    .canonical
                    .unwrap_or_else(|| panic!("{id}: no canonical"));
                if is_signed(case) {
                    let value = i64::try_from(value).expect("i64");
                    assert_eq!(
                        varint::decode_signed::<i64>(input),
                        Ok((value, consumed)),
                        "{id}"
                    );
                    let strict = varint::decode_signed_strict::<i64>(input);
                    if canonical {
                        assert_eq!(strict, Ok((value, consumed)), "{id}");
                        let mut buf = [0u8; 10];
                        let n = varint::encode_signed(value, &mut buf);
                        assert_eq!(&buf[..n], &input[..consumed], "{id}: encode_signed");
                    } else {
                        assert_eq!(strict, Err(DecodeError::NonCanonical), "{id}");
                    }
                    checked[0] += 1;
                } else {
                    let value = u64::try_from(value).expect("u64");
                    assert_eq!(varint::decode::<u64>(input), Ok((value, consumed)), "{id}");
                    let strict = varint::decode_strict::<u64>(input);
                    if canonical {
                        assert_eq!(strict, Ok((value, consumed)), "{id}");
                        // "1", "len" and "roundtrip" rows: the encoding is
                        // input_hex (derived by plain LEB128 for the last
                        // two), its length encoded_len.
                        let mut buf = [0u8; 10];
                        let n = varint::encode(value, &mut buf);
                        assert_eq!(&buf[..n], &input[..consumed], "{id}: encode");
                        assert_eq!(varint::encoded_len(value), consumed, "{id}: encoded_len");
                    } else {
                        assert_eq!(strict, Err(DecodeError::NonCanonical), "{id}");
                    }
                    // The stream reader agrees and stops right after it.
                    let mut r = input;
                    assert_eq!(r.read_varint::<u64>().unwrap(), value, "{id}: read_varint");
                    assert_eq!(r.len(), input.len() - consumed, "{id}: bytes read");
                    checked[1] += 1;
                }
            }
            VarintExpect::Truncated | VarintExpect::Overflow => {
                let want = expected_err(case);
                // The error rows are stated for u64; they mean the same
                // for the signed API, which decodes a u64 first.
                assert_eq!(varint::decode::<u64>(input), Err(want), "{id}");
                assert_eq!(varint::decode_strict::<u64>(input), Err(want), "{id}");
                assert_eq!(varint::decode_signed::<i64>(input), Err(want), "{id}");
                let mut r = input;
                let err = r.read_varint::<u64>().unwrap_err();
                let kind = match want {
                    DecodeError::Truncated => std::io::ErrorKind::UnexpectedEof,
                    _ => std::io::ErrorKind::InvalidData,
                };
                assert_eq!(err.kind(), kind, "{id}: read_varint");
                assert!(
                    input.len() - r.len() <= u64::MAX_LEN,
                    "{id}: read past MAX_LEN"
                );
                checked[2] += 1;
            }
        }
    }
    // signed ok rows, unsigned ok rows, error rows.
    assert_eq!(checked, [156, 123, 25]);
}

/// Every row against the reference decoder for every width: the rows are
/// stated for u64, and the reference extends them to u16, u32 and u128.
#[test]
fn every_row_every_width() {
    for case in varint_cases() {
        let input = &case.input[..];
        for strict in [false, true] {
            let want = |w| common::reference(input, w, strict);
            let got16 = if strict {
                varint::decode_strict::<u16>(input)
            } else {
                varint::decode::<u16>(input)
            };
            let got32 = if strict {
                varint::decode_strict::<u32>(input)
            } else {
                varint::decode::<u32>(input)
            };
            let got128 = if strict {
                varint::decode_strict::<u128>(input)
            } else {
                varint::decode::<u128>(input)
            };
            assert_eq!(
                got16.map(|(v, n)| (u128::from(v), n)),
                want(common::U16),
                "{} u16",
                case.id
            );
            assert_eq!(
                got32.map(|(v, n)| (u128::from(v), n)),
                want(common::U32),
                "{} u32",
                case.id
            );
            assert_eq!(got128, want(common::U128), "{} u128", case.id);
        }
    }
}

/// The successful rows concatenated, as a parser meets them, through the
/// bulk decoders and the iterator.
#[test]
fn rows_as_one_stream() {
    let rows: Vec<_> = varint_cases()
        .into_iter()
        .filter(|c| c.expect == VarintExpect::Ok && !is_signed(c))
        .collect();
    let mut stream = Vec::new();
    let mut want = Vec::new();
    for c in &rows {
        stream.extend_from_slice(&c.input[..c.consumed.unwrap()]);
        want.push(u64::try_from(c.value.unwrap()).unwrap());
    }
    let mut out = vec![0u64; want.len()];
    let done = varint::decode_into(&stream, &mut out).unwrap();
    assert_eq!((done.count, done.bytes), (want.len(), stream.len()));
    assert_eq!(out, want);
    let mut v: Vec<u64> = Vec::new();
    assert_eq!(varint::decode_into_vec(&stream, &mut v), Ok(want.len()));
    assert_eq!(v, want);
    let it: Vec<u64> = varint::iter(&stream).collect::<Result<_, _>>().unwrap();
    assert_eq!(it, want);
    // Written back through `WriteVarint`: the canonical rows only.
    let mut w = Vec::new();
    for c in rows.iter().filter(|c| c.canonical == Some(true)) {
        w.write_varint(u64::try_from(c.value.unwrap()).unwrap())
            .unwrap();
    }
    let canon: Vec<u8> = rows
        .iter()
        .filter(|c| c.canonical == Some(true))
        .flat_map(|c| c.input.clone())
        .collect();
    assert_eq!(w, canon);
}
