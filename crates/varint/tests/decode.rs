//! Decoding: the edge cases of the issue by name, an exhaustive comparison
//! with the reference decoder over short inputs and over every shape that
//! reaches the 8-byte word path, and quickcheck properties.

mod common;

use common::{Rng, U16, U32, U64, U128, reference};
use quickcheck::quickcheck;
use varint::{DecodeError, Varint};

/// Every decoder, as `(value as u128, len)`, in one place.
fn all(buf: &[u8], strict: bool) -> [Result<(u128, usize), DecodeError>; 5] {
    fn widen<T: Into<u128>>(
        r: Result<(T, usize), DecodeError>,
    ) -> Result<(u128, usize), DecodeError> {
        r.map(|(v, n)| (v.into(), n))
    }
    if strict {
        [
            widen(varint::decode_strict::<u16>(buf)),
            widen(varint::decode_strict::<u32>(buf)),
            widen(varint::decode_strict::<u64>(buf)),
            widen(varint::decode_strict::<u128>(buf)),
            varint::decode_strict::<usize>(buf).map(|(v, n)| (v as u128, n)),
        ]
    } else {
        [
            widen(varint::decode::<u16>(buf)),
            widen(varint::decode::<u32>(buf)),
            widen(varint::decode::<u64>(buf)),
            widen(varint::decode::<u128>(buf)),
            varint::decode::<usize>(buf).map(|(v, n)| (v as u128, n)),
        ]
    }
}

/// Compares every decoder with the reference on `buf`.
fn check(buf: &[u8]) {
    for strict in [false, true] {
        let usize_w = (usize::BITS, usize::MAX_LEN);
        let want = [U16, U32, U64, U128, usize_w].map(|w| reference(buf, w, strict));
        assert_eq!(all(buf, strict), want, "input {buf:02X?} strict={strict}");
    }
}

#[test]
fn u64_tenth_byte_rules() {
    let mut buf = [0x80u8; 12];
    // 80×9 then a 10th byte: 00 and 01 fit (00 is padding), 02..=FF do not.
    for last in 0..=255u8 {
        buf[9] = last;
        let got = varint::decode::<u64>(&buf);
        match last {
            0 => assert_eq!(got, Ok((0, 10))),
            1 => assert_eq!(got, Ok((1 << 63, 10))),
            _ => assert_eq!(got, Err(DecodeError::Overflow), "10th byte {last:02X}"),
        }
    }
    buf[9] = 0;
    assert_eq!(
        varint::decode_strict::<u64>(&buf),
        Err(DecodeError::NonCanonical)
    );
    assert_eq!(
        varint::decode::<u64>(&[0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01]),
        Ok((u64::MAX, 10))
    );
    assert_eq!(
        varint::decode::<u64>(&[0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x02]),
        Err(DecodeError::Overflow)
    );
    assert_eq!(
        varint::decode::<u64>(&[0x80; 10]),
        Err(DecodeError::Overflow)
    );
    assert_eq!(
        varint::decode::<u64>(&[0x80; 9]),
        Err(DecodeError::Truncated)
    );
    // The error does not depend on what follows the 10th byte.
    assert_eq!(
        varint::decode::<u64>(&[0x80; 11]),
        Err(DecodeError::Overflow)
    );
}

#[test]
fn last_byte_of_every_width() {
    assert_eq!(
        varint::decode::<u16>(&[0xFF, 0xFF, 0x03]),
        Ok((u16::MAX, 3))
    );
    assert_eq!(
        varint::decode::<u16>(&[0xFF, 0xFF, 0x04]),
        Err(DecodeError::Overflow)
    );
    assert_eq!(
        varint::decode::<u16>(&[0x80, 0x80, 0x80]),
        Err(DecodeError::Overflow)
    );
    assert_eq!(
        varint::decode::<u32>(&[0xFF, 0xFF, 0xFF, 0xFF, 0x0F]),
        Ok((u32::MAX, 5))
    );
    assert_eq!(
        varint::decode::<u32>(&[0xFF, 0xFF, 0xFF, 0xFF, 0x10]),
        Err(DecodeError::Overflow)
    );
    let mut u128_max = [0xFFu8; 19];
    u128_max[18] = 0x03;
    assert_eq!(varint::decode::<u128>(&u128_max), Ok((u128::MAX, 19)));
    u128_max[18] = 0x04;
    assert_eq!(
        varint::decode::<u128>(&u128_max),
        Err(DecodeError::Overflow)
    );
    assert_eq!(
        varint::decode::<u128>(&[0x80; 19]),
        Err(DecodeError::Overflow)
    );
    assert_eq!(
        varint::decode::<u128>(&[0x80; 18]),
        Err(DecodeError::Truncated)
    );
}

#[test]
fn padding_lenient_and_strict() {
    assert_eq!(varint::decode::<u64>(&[0x80, 0x00]), Ok((0, 2)));
    assert_eq!(
        varint::decode_strict::<u64>(&[0x80, 0x00]),
        Err(DecodeError::NonCanonical)
    );
    assert_eq!(varint::decode::<u32>(&[0x81, 0x80, 0x00]), Ok((1, 3)));
    assert_eq!(
        varint::decode_strict::<u32>(&[0x81, 0x80, 0x00]),
        Err(DecodeError::NonCanonical)
    );
    assert_eq!(varint::decode_strict::<u16>(&[0x00]), Ok((0, 1)));
    assert_eq!(
        varint::decode_strict::<u128>(&[0x80, 0x00]),
        Err(DecodeError::NonCanonical)
    );
}

#[test]
fn empty_input() {
    for strict in [false, true] {
        assert!(
            all(&[], strict)
                .iter()
                .all(|r| *r == Err(DecodeError::Truncated))
        );
    }
}

/// Whatever follows the first `MAX_LEN` bytes cannot change the result: a
/// decoder that looked further would differ between the two tails.
#[test]
fn never_looks_past_max_len() {
    let mut rng = Rng(7);
    for _ in 0..20_000 {
        let len = (rng.next() % 20) as usize;
        let head: Vec<u8> = (0..len)
            .map(|_| {
                rng.next() as u8
                    | if rng.next().is_multiple_of(4) {
                        0
                    } else {
                        0x80
                    }
            })
            .collect();
        for strict in [false, true] {
            let cut = |max: usize| &head[..head.len().min(max)];
            let mut a = head.clone();
            a.extend_from_slice(&[0x00; 20]);
            let mut b = head.clone();
            b.extend_from_slice(&[0xFF; 20]);
            let results = [all(&a, strict), all(&b, strict)];
            for r in results {
                let base = [
                    all(cut(3), strict)[0],
                    all(cut(5), strict)[1],
                    all(cut(10), strict)[2],
                    all(cut(19), strict)[3],
                    all(cut(usize::MAX_LEN), strict)[4],
                ];
                // With at least MAX_LEN bytes a `Truncated` cannot happen,
                // so only compare when the head alone decides.
                for (i, (got, want)) in r.iter().zip(base).enumerate() {
                    if want != Err(DecodeError::Truncated) {
                        assert_eq!(*got, want, "type #{i} input {head:02X?}");
                    }
                }
            }
        }
    }
}

/// Every input of up to three bytes, every decoder, both modes.
#[test]
fn exhaustive_up_to_three_bytes() {
    check(&[]);
    for a in 0..=255u8 {
        check(&[a]);
        for b in 0..=255u8 {
            check(&[a, b]);
        }
    }
    let mut buf = [0u8; 3];
    for x in 0..1u32 << 24 {
        // Inputs whose first byte ends the varint are covered above.
        if x & 0x80 == 0 {
            continue;
        }
        buf.copy_from_slice(&x.to_le_bytes()[..3]);
        let got = varint::decode::<u64>(&buf);
        assert_eq!(
            got.map(|(v, n)| (u128::from(v), n)),
            reference(&buf, U64, false),
            "{buf:02X?}"
        );
        let got = varint::decode_strict::<u32>(&buf);
        assert_eq!(
            got.map(|(v, n)| (u128::from(v), n)),
            reference(&buf, U32, true),
            "{buf:02X?}"
        );
        let got = varint::decode::<u16>(&buf);
        assert_eq!(
            got.map(|(v, n)| (u128::from(v), n)),
            reference(&buf, U16, false),
            "{buf:02X?}"
        );
    }
}

/// Every shape the word path can meet: `k` continuation bytes (all `80`,
/// all `FF`, or mixed), then every possible next byte, then no tail, a
/// tail of zeros or a tail of `FF`, so that inputs both shorter and longer
/// than 10 bytes are seen.
#[test]
fn every_length_and_last_byte() {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    for k in 0..=20 {
        for fill in 0..3 {
            for last in 0..=255u8 {
                for tail in [&[][..], &[0u8; 12][..], &[0xFFu8; 12][..]] {
                    let mut buf: Vec<u8> = (0..k)
                        .map(|_| match fill {
                            0 => 0x80,
                            1 => 0xFF,
                            _ => rng.next() as u8 | 0x80,
                        })
                        .collect();
                    buf.push(last);
                    buf.extend_from_slice(tail);
                    check(&buf);
                    check(&buf[..k]);
                }
            }
        }
    }
}

/// Strict decoding accepts exactly what `encode` produces: on arbitrary
/// input, strict succeeds iff lenient succeeds and re-encoding the value
/// gives back the bytes; otherwise it fails with the lenient error, or
/// `NonCanonical` where lenient succeeded.
fn strict_is_lenient_plus_canonical<T: Varint + Into<u128>>(buf: &[u8]) -> bool {
    let lenient = varint::decode::<T>(buf);
    let strict = varint::decode_strict::<T>(buf);
    match lenient {
        Ok((v, n)) => {
            let mut enc = [0u8; 19];
            let m = varint::encode(v, &mut enc);
            if enc[..m] == buf[..n] {
                strict == Ok((v, n))
            } else {
                strict == Err(DecodeError::NonCanonical)
            }
        }
        Err(e) => strict == Err(e),
    }
}

/// Biases random bytes towards continuation bytes so that long varints
/// and every error are common.
fn varint_like(bytes: Vec<u8>, mask: u32) -> Vec<u8> {
    bytes
        .iter()
        .enumerate()
        .map(|(i, &b)| {
            if mask >> (i % 32) & 1 == 1 {
                b | 0x80
            } else {
                b
            }
        })
        .collect()
}

quickcheck! {
    fn qc_reference(bytes: Vec<u8>, mask: u32) -> bool {
        check(&varint_like(bytes, mask));
        true
    }

    fn qc_strict_exactly_canonical(bytes: Vec<u8>, mask: u32) -> bool {
        let buf = varint_like(bytes, mask);
        strict_is_lenient_plus_canonical::<u16>(&buf)
            && strict_is_lenient_plus_canonical::<u32>(&buf)
            && strict_is_lenient_plus_canonical::<u64>(&buf)
            && strict_is_lenient_plus_canonical::<u128>(&buf)
    }

    fn qc_signed(n: i64, m: i32, tail: Vec<u8>) -> bool {
        let mut buf = vec![0u8; 20];
        let len = varint::encode_signed(n, &mut buf);
        buf.truncate(len);
        buf.extend_from_slice(&tail);
        let mut buf32 = vec![0u8; 5];
        let len32 = varint::encode_signed(m, &mut buf32);
        varint::decode_signed::<i64>(&buf) == Ok((n, len))
            && varint::decode_signed_strict::<i64>(&buf) == Ok((n, len))
            && varint::decode_signed::<i32>(&buf32) == Ok((m, len32))
            && varint::decode::<u64>(&buf) == Ok((zigzag::encode(n), len))
    }
}

#[test]
fn random_long_inputs() {
    // Many more random inputs than quickcheck's default, cheaply.
    let mut rng = Rng(42);
    let mut buf = [0u8; 24];
    for _ in 0..300_000 {
        let len = (rng.next() % 25) as usize;
        let cont = rng.next();
        for (i, b) in buf[..len].iter_mut().enumerate() {
            *b = rng.next() as u8
                | if cont >> i & 1 == 1 || i < 9 && cont >> 40 & 1 == 1 {
                    0x80
                } else {
                    0
                };
        }
        check(&buf[..len]);
    }
}
