//! Signed LEB128: the DWARF 5 and WebAssembly vectors, every input of up
//! to three bytes for every type against a model written from the rules,
//! random values and inputs against the `leb128` crate (DWARF's reader and
//! writer, for `i64`), round trips, and strict = canonical.
// Test code: clippy.toml exempts #[test] functions from the no-panic lints,
// but not the helpers of an integration test, which may panic too.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use codec_testdata::{VarintExpect, leb128_cases};
use common::Rng;
use quickcheck::quickcheck;
use varint::DecodeError;
use varint::sleb128::{self, Sleb128};

/// The model: the rules in words, on bits. Read bytes until one is below
/// 0x80, at most `ceil(bits / 7)` of them; the groups, least significant
/// first, form a number sign-extended from its top bit; it must fit in
/// `bits` bits as a signed integer. Strict: its length must be the shortest
/// for its value, found by trying lengths in turn.
fn model(buf: &[u8], bits: u32, strict: bool) -> Result<(i128, usize), DecodeError> {
    let max_len = bits.div_ceil(7) as usize;
    let mut groups = [0u8; 19];
    for i in 0..max_len {
        let Some(&b) = buf.get(i) else {
            return Err(DecodeError::Truncated);
        };
        groups[i] = b & 0x7F;
        if b < 0x80 {
            let n = i + 1;
            let bit = |p: usize| (groups[p / 7] >> (p % 7)) & 1;
            let total = 7 * n;
            let sign = bit(total - 1);
            // Every bit from the type's sign bit up must equal the top bit.
            if (bits as usize - 1..total).any(|p| bit(p) != sign) {
                return Err(DecodeError::Overflow);
            }
            // The value from its low `min(total, bits)` bits, sign-extended.
            let width = total.min(bits as usize);
            let mut v: i128 = 0;
            for p in (0..width).rev() {
                v = v.wrapping_shl(1) | i128::from(bit(p));
            }
            if sign == 1 && width < 128 {
                v -= 1i128 << width;
            }
            if strict {
                let shortest = (1..).find(|&l: &u32| {
                    let k = 7 * l - 1;
                    k >= 127 || (-(1i128 << k) <= v && v < (1i128 << k))
                });
                if shortest != Some(n as u32) {
                    return Err(DecodeError::NonCanonical);
                }
            }
            return Ok((v, n));
        }
    }
    Err(DecodeError::Overflow)
}

fn decode_as<T: Sleb128 + Into<i128>>(
    buf: &[u8],
    strict: bool,
) -> Result<(i128, usize), DecodeError> {
    let r = if strict {
        sleb128::decode_strict::<T>(buf)
    } else {
        sleb128::decode::<T>(buf)
    };
    r.map(|(v, n)| (v.into(), n))
}

/// Every type, lenient and strict, against the model.
fn check(buf: &[u8]) {
    for strict in [false, true] {
        let got = [
            decode_as::<i16>(buf, strict),
            decode_as::<i32>(buf, strict),
            decode_as::<i64>(buf, strict),
            decode_as::<i128>(buf, strict),
            if strict {
                sleb128::decode_strict::<isize>(buf)
            } else {
                sleb128::decode::<isize>(buf)
            }
            .map(|(v, n)| (v as i128, n)),
        ];
        let want = [16, 32, 64, 128, isize::BITS].map(|bits| model(buf, bits, strict));
        assert_eq!(got, want, "input {buf:02X?} strict={strict}");
    }
}

#[test]
fn dwarf_and_webassembly_vectors() {
    let rows = leb128_cases();
    assert_eq!(rows.len(), 53);
    let mut checked = 0;
    for row in &rows {
        let types: &[&str] = match row.ty.as_str() {
            "uleb" => &["u16", "u32", "u64", "u128"],
            "sleb" => &["i16", "i32", "i64", "i128"],
            t => &[t][..],
        };
        for &ty in types {
            let got: Result<(i128, usize), DecodeError> = match ty {
                "u16" => varint::decode::<u16>(&row.input).map(|(v, n)| (v.into(), n)),
                "u32" => varint::decode::<u32>(&row.input).map(|(v, n)| (v.into(), n)),
                "u64" => varint::decode::<u64>(&row.input).map(|(v, n)| (v.into(), n)),
                "u128" => varint::decode::<u128>(&row.input).map(|(v, n)| (v as i128, n)),
                "i16" => decode_as::<i16>(&row.input, false),
                "i32" => decode_as::<i32>(&row.input, false),
                "i64" => decode_as::<i64>(&row.input, false),
                "i128" => decode_as::<i128>(&row.input, false),
                other => panic!("type {other}"),
            };
            let want = match row.expect {
                VarintExpect::Ok => Ok((row.value.unwrap(), row.consumed.unwrap())),
                VarintExpect::Overflow => Err(DecodeError::Overflow),
                VarintExpect::Truncated => Err(DecodeError::Truncated),
            };
            assert_eq!(got, want, "{} as {ty}", row.id);
            checked += 1;
            // Canonical rows: strict accepts them and encode writes them.
            if row.canonical == Some(true) && ty.starts_with('i') {
                let v = row.value.unwrap();
                let mut buf = [0u8; 19];
                let n = sleb128::encode(v, &mut buf);
                assert_eq!(&buf[..n], &row.input[..], "{} encode", row.id);
                assert_eq!(decode_as::<i64>(&row.input, true), want, "{}", row.id);
            }
            if row.canonical == Some(false) && ty.starts_with('i') {
                assert_eq!(
                    decode_as::<i64>(&row.input, true),
                    Err(DecodeError::NonCanonical),
                    "{}",
                    row.id
                );
            }
        }
    }
    assert!(checked > 80);
}

/// Every input of 0 to 3 bytes (16.8 million), every type, lenient and
/// strict. About 10 s; `xtask valgrind` skips it by its name, and under
/// emulation (`cargo xtask cross`) the third byte runs over
/// `codec_testdata::bytes()`'s representatives.
#[test]
fn exhaustive_up_to_three_bytes() {
    check(&[]);
    for a in 0..=255u8 {
        check(&[a]);
        for b in 0..=255u8 {
            check(&[a, b]);
            if a >= 0x80 && b >= 0x80 {
                for &c in codec_testdata::bytes() {
                    check(&[a, b, c]);
                }
            } else {
                // The third byte cannot matter once a varint has ended.
                check(&[a, b, 0xA5]);
            }
        }
    }
}

/// The longest encodings of every type: each last byte after every kind of
/// prefix, where the sign-extension rule decides.
#[test]
fn every_last_byte_of_every_type() {
    for max_len in [3usize, 5, 10, 19] {
        for prefix_byte in [0x80u8, 0xFF, 0xC0, 0xBF] {
            for last in 0..=255u8 {
                let mut buf = vec![prefix_byte; max_len - 1];
                buf.push(last);
                buf.push(0x00);
                check(&buf);
            }
        }
    }
}

#[test]
fn edges_round_trip_every_type() {
    fn each<T: Sleb128 + Into<i128> + TryFrom<i128>>(bits: u32) {
        let mut values: Vec<i128> = vec![0, 1, -1];
        for k in 1..bits {
            let p = 1i128 << k.min(126);
            values.extend([p - 1, p, p + 1, -p - 1, -p, -p + 1]);
        }
        let max = if bits == 128 {
            i128::MAX
        } else {
            (1i128 << (bits - 1)) - 1
        };
        values.extend([max, -max - 1]);
        for v in values {
            let Ok(t) = T::try_from(v) else { continue };
            let mut buf = [0xEEu8; 20];
            let n = sleb128::encode(t, &mut buf);
            assert_eq!(n, sleb128::encoded_len(t), "{v}");
            assert!(buf[n..].iter().all(|&b| b == 0xEE), "wrote past the length");
            assert_eq!(model(&buf[..n], bits, true), Ok((v, n)), "{v}");
            assert_eq!(sleb128::decode_strict::<T>(&buf[..n]), Ok((t, n)));
            // Every shorter buffer: an error, and nothing written.
            for short in 0..n {
                let mut small = vec![0xEEu8; short];
                assert!(sleb128::try_encode(t, &mut small).is_err());
                assert!(small.iter().all(|&b| b == 0xEE));
            }
        }
    }
    each::<i16>(16);
    each::<i32>(32);
    each::<i64>(64);
    each::<i128>(128);
}

/// A value whose encoding length is uniform over 1..=10.
fn random_i64(rng: &mut Rng) -> i64 {
    let v = rng.next() as i64;
    v >> (rng.next() % 64)
}

#[test]
fn against_the_leb128_crate() {
    let mut rng = Rng(0xD3A5);
    for _ in 0..200_000 {
        let v = random_i64(&mut rng);
        let mut ours = [0u8; 10];
        let n = sleb128::encode(v, &mut ours);
        let mut theirs = Vec::new();
        leb128::write::signed(&mut theirs, v).unwrap();
        assert_eq!(&ours[..n], &theirs[..], "encode {v}");
        // Decoding random bytes: the same value and length, or the same
        // kind of failure.
        let len = (rng.next() % 12) as usize;
        let bytes: Vec<u8> = (0..len).map(|_| rng.next() as u8).collect();
        let mut reader = &bytes[..];
        let theirs = leb128::read::signed(&mut reader);
        match (sleb128::decode::<i64>(&bytes), theirs) {
            (Ok((a, n)), Ok(b)) => {
                assert_eq!(a, b, "{bytes:02X?}");
                assert_eq!(n, bytes.len() - reader.len(), "{bytes:02X?}");
            }
            (Err(DecodeError::Truncated), Err(leb128::read::Error::IoError(e))) => {
                assert_eq!(e.kind(), std::io::ErrorKind::UnexpectedEof);
            }
            (Err(DecodeError::Overflow), Err(leb128::read::Error::Overflow)) => {}
            // leb128 reads on to the end of an over-long varint and reports
            // running out of input first.
            (Err(DecodeError::Overflow), Err(leb128::read::Error::IoError(_))) => {}
            (ours, theirs) => panic!("{bytes:02X?}: ours {ours:?}, leb128 {theirs:?}"),
        }
    }
}

quickcheck! {
    fn qc_round_trip(v: i64, w: i32, x: i128, y: i16) -> bool {
        let mut buf = [0u8; 19];
        let n = sleb128::encode(v, &mut buf);
        let ok64 = sleb128::decode_strict::<i64>(&buf[..n]) == Ok((v, n));
        let n = sleb128::encode(w, &mut buf);
        let ok32 = sleb128::decode_strict::<i32>(&buf[..n]) == Ok((w, n));
        let n = sleb128::encode(x, &mut buf);
        let ok128 = sleb128::decode_strict::<i128>(&buf[..n]) == Ok((x, n));
        let n = sleb128::encode(y, &mut buf);
        let ok16 = sleb128::decode_strict::<i16>(&buf[..n]) == Ok((y, n));
        ok64 && ok32 && ok128 && ok16
    }

    fn qc_model(bytes: Vec<u8>, mask: u32) -> bool {
        let input: Vec<u8> = bytes.iter().enumerate()
            .map(|(i, &b)| if mask >> (i % 32) & 1 == 1 { b | 0x80 } else { b & 0x7F })
            .collect();
        check(&input);
        true
    }

    fn qc_strict_is_canonical(bytes: Vec<u8>) -> bool {
        // Strict accepts exactly what encode writes.
        match sleb128::decode::<i64>(&bytes) {
            Ok((v, n)) => {
                let mut buf = [0u8; 10];
                let m = sleb128::encode(v, &mut buf);
                (sleb128::decode_strict::<i64>(&bytes).is_ok()) == (buf[..m] == bytes[..n])
            }
            Err(e) => sleb128::decode_strict::<i64>(&bytes) == Err(e),
        }
    }
}

/// The `leb128` crate has only `i64`: `i32` and `i128` checked against it
/// too, on values of every length and on random bytes. Encodings of the
/// same value are the same bytes whatever the width; a decode of `i32`
/// succeeds exactly where `leb128`'s does in at most 5 bytes with a value
/// that fits, and one of `i128` wherever `leb128`'s does.
#[test]
fn i32_and_i128_against_the_leb128_crate() {
    let mut rng = Rng(0x5EB1);
    for _ in 0..200_000 {
        let v = random_i64(&mut rng);
        let mut theirs = Vec::new();
        leb128::write::signed(&mut theirs, v).unwrap();
        let mut ours = [0u8; 19];
        let n = sleb128::encode(i128::from(v), &mut ours);
        assert_eq!(&ours[..n], &theirs[..], "encode i128 {v}");
        let w = (v >> 32) as i32;
        theirs.clear();
        leb128::write::signed(&mut theirs, w.into()).unwrap();
        let n = sleb128::encode(w, &mut ours);
        assert_eq!(&ours[..n], &theirs[..], "encode i32 {w}");

        let len = (rng.next() % 12) as usize;
        let bytes: Vec<u8> = (0..len).map(|_| rng.next() as u8).collect();
        let mut reader = &bytes[..];
        let theirs = leb128::read::signed(&mut reader).ok();
        let used = bytes.len() - reader.len();
        let ours32 = sleb128::decode::<i32>(&bytes);
        let ours128 = sleb128::decode::<i128>(&bytes);
        match theirs {
            Some(b) => {
                assert_eq!(ours128, Ok((b.into(), used)), "{bytes:02X?}");
                match i32::try_from(b) {
                    Ok(b) if used <= 5 => assert_eq!(ours32, Ok((b, used)), "{bytes:02X?}"),
                    _ => assert_eq!(ours32, Err(DecodeError::Overflow), "{bytes:02X?}"),
                }
            }
            None => assert!(ours32.is_err(), "{bytes:02X?}: ours {ours32:?}"),
        }
    }
}
