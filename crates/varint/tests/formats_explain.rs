//! `Explain` (why bytes fail, read from the bytes), `IntType` (a format's
//! values as a chosen integer type) and `decode_single` (one value that
//! must fill a reader): against the decoders' own errors, the shared
//! conformance cases, and models written here.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::io::{self, Read};

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use varint::formats::cbor::Head;
use varint::formats::{
    Bijective, Bincode, CborHead, CompactSize, DecodeError, Explain, Fault, Format, Hpack, IntType,
    Integer, LastByte, Leb128, MsgPack, Prefix, Quic, RangeError, Sleb128, Sqlite, StreamErrorKind,
    Vlq, Zigzag, decode_single, decode_stream,
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

/// The fault's kind agrees with the decoder's error: every input of one
/// and two bytes, and random longer ones, strict and lenient.
fn faults_agree<F: Explain>(seed: u64)
where
    F::Value: std::fmt::Debug + PartialEq,
{
    let mut inputs: Vec<Vec<u8>> = vec![vec![]];
    inputs.extend((0..=255u8).map(|b| vec![b]));
    for a in 0..=255u8 {
        for b in 0..=255u8 {
            inputs.push(vec![a, b]);
        }
    }
    let mut rng = StdRng::seed_from_u64(seed);
    for _ in 0..20_000 {
        let len = rng.random_range(3..=F::MAX_LEN + 2);
        // Mostly high bytes, so that the long forms are reached.
        inputs.push(
            (0..len)
                .map(|_| rng.random::<u8>() | (0x80 * rng.random_range(0..2u8)))
                .collect(),
        );
    }
    for bytes in &inputs {
        for strict in [false, true] {
            let decoded = if strict {
                F::decode_strict(bytes)
            } else {
                F::decode(bytes)
            };
            let diagnosed = F::diagnose(bytes, strict);
            match (decoded, diagnosed) {
                (Ok(a), Ok(b)) => assert_eq!(a, b, "{} {bytes:02x?}", F::NAME),
                (Err(e), Err(fault)) => check_fault::<F>(bytes, e, &fault),
                (a, b) => panic!("{} {bytes:02x?}: decode {a:?}, diagnose {b:?}", F::NAME),
            }
        }
    }
}

fn check_fault<F: Explain>(bytes: &[u8], e: DecodeError, fault: &Fault<F::Value>)
where
    F::Value: std::fmt::Debug + PartialEq,
{
    let ok = match (e, fault) {
        (_, Fault::Empty) => bytes.is_empty(),
        (DecodeError::Truncated, Fault::Continued { len } | Fault::Truncated { len, .. }) => {
            *len == bytes.len()
        }
        (DecodeError::Overflow, Fault::TooLong { max_len, .. }) => {
            bytes[..*max_len].iter().all(|&b| b & 0x80 != 0)
        }
        (DecodeError::Overflow, Fault::LastByte { max_len, byte, .. }) => {
            bytes[*max_len - 1] == *byte
        }
        (DecodeError::Overflow, Fault::Overflow { .. }) => true,
        (DecodeError::Reserved, Fault::Reserved { first, .. }) => bytes[0] == *first,
        (DecodeError::NotAnInteger, Fault::NotAnInteger { first, .. }) => bytes[0] == *first,
        (
            DecodeError::NonCanonical,
            Fault::NonCanonical {
                len,
                value,
                shortest,
            },
        ) => {
            // The lenient value, and its shortest form is what strict
            // decoding accepts, shorter than what was there.
            F::decode(bytes).ok() == Some((*value, *len))
                && F::decode_strict(shortest.as_bytes()).ok()
                    == Some((*value, shortest.as_bytes().len()))
                && shortest.as_bytes().len() < *len
        }
        _ => false,
    };
    assert!(ok, "{} {bytes:02x?}: {e:?} explained as {fault:?}", F::NAME);
}

#[test]
fn every_fault_agrees_with_its_error() {
    faults_agree::<Leb128<u16>>(1);
    faults_agree::<Leb128<u32>>(2);
    faults_agree::<Leb128<u64>>(3);
    faults_agree::<Leb128<u128>>(4);
    faults_agree::<Zigzag<i64>>(5);
    faults_agree::<Sleb128<i16>>(6);
    faults_agree::<Sleb128<i32>>(7);
    faults_agree::<Sleb128<i64>>(8);
    faults_agree::<Quic>(9);
    faults_agree::<Hpack<5>>(10);
    faults_agree::<Sqlite>(11);
    faults_agree::<Bijective>(12);
    faults_agree::<CompactSize>(13);
    faults_agree::<CborHead>(14);
    faults_agree::<MsgPack>(15);
    faults_agree::<Bincode>(16);
    faults_agree::<Vlq>(17);
    faults_agree::<Prefix>(18);
}

#[test]
fn conformance_rows() {
    // Every varint row of the shared cases through the lenient decoder
    // (zigzag-decoded for Go's signed `binary.Varint` rows), and strict
    // agrees with "canonical". Tag rows hold field numbers, not values.
    for case in codec_testdata::varint_cases() {
        if case.api.contains("Tag") {
            continue;
        }
        let signed = case.api.starts_with("binary.") && !case.api.contains("Uvarint");
        let got = Leb128::<u64>::diagnose(&case.input, false);
        match case.expect {
            codec_testdata::VarintExpect::Ok => {
                let (v, n) = got.unwrap_or_else(|e| panic!("{}: {e}", case.id));
                if let Some(value) = case.value {
                    let got = if signed {
                        i128::from(zigzag::decode(v))
                    } else {
                        i128::from(v)
                    };
                    assert_eq!(got, value, "{}", case.id);
                }
                if let Some(consumed) = case.consumed {
                    assert_eq!(n, consumed, "{}", case.id);
                }
                if let Some(canonical) = case.canonical {
                    assert_eq!(
                        Leb128::<u64>::diagnose(&case.input, true).is_ok(),
                        canonical,
                        "{}",
                        case.id
                    );
                }
            }
            codec_testdata::VarintExpect::Truncated => assert!(
                matches!(got, Err(Fault::Continued { .. } | Fault::Empty)),
                "{}: {got:?}",
                case.id
            ),
            codec_testdata::VarintExpect::Overflow => assert!(
                matches!(got, Err(Fault::TooLong { .. } | Fault::LastByte { .. })),
                "{}: {got:?}",
                case.id
            ),
        }
    }
}

#[test]
fn messages_name_the_fault() {
    let msg = |bytes: &[u8], strict| {
        Leb128::<u64>::diagnose(bytes, strict)
            .unwrap_err()
            .to_string()
    };
    assert!(msg(&[0xff, 0xff], false).starts_with("truncated: all 2 bytes"));
    assert!(msg(&[0x80], false).starts_with("truncated: the only byte sets"));
    assert!(msg(&[0xff; 10], false).starts_with("overflow: the first 10 bytes"));
    let mut ten = [0xff; 10];
    ten[9] = 0x02;
    assert_eq!(
        msg(&ten, false),
        "overflow: byte 10 is 0x02, but the last byte of a u64 varint may only be 0x00 or 0x01 \
         (anything else sets bits above the type's width)"
    );
    assert_eq!(
        msg(&[0x80, 0x00], true),
        "non-canonical: 2 bytes encode 0, whose shortest encoding is 00 (1 byte)"
    );
    assert_eq!(msg(&[], false), "empty: no bytes to decode");
    // Other widths say so.
    let e = Leb128::<u16>::diagnose(&[0x80, 0x80, 0x80], false).unwrap_err();
    assert!(e.to_string().contains("first 3 bytes"), "{e}");
    assert_eq!(
        Sleb128::<i32>::diagnose(&[0xff, 0xff, 0xff, 0xff, 0x17], false)
            .unwrap_err()
            .to_string(),
        "overflow: byte 5 is 0x17, but the last byte of an i32 SLEB128 may only be 0x00 to 0x07 \
         or 0x78 to 0x7f (the bits above the type's width must repeat its sign bit)"
    );
    assert_eq!(
        Sleb128::<i64>::explain(&[0xff; 10], DecodeError::Overflow),
        Fault::TooLong {
            noun: "i64 SLEB128",
            max_len: 10
        }
    );
    // The other formats: their own words.
    assert_eq!(
        Quic::diagnose(&[0x7b], false).unwrap_err().to_string(),
        "truncated: the input ends after 1 byte, inside a QUIC varint"
    );
    assert_eq!(
        CborHead::diagnose(&[0xf8, 0x05], false)
            .unwrap_err()
            .map_value(|_| "")
            .to_string(),
        "reserved: a CBOR head may not start with 0xf8 0x05 (a simple value below 32 in two bytes)"
    );
    assert_eq!(
        CborHead::diagnose(&[0x1c], false)
            .unwrap_err()
            .map_value(|_| "")
            .to_string(),
        "reserved: a CBOR head may not start with 0x1c"
    );
    assert!(
        MsgPack::diagnose(&[0xc0], false)
            .unwrap_err()
            .to_string()
            .starts_with("not an integer: the first byte 0xc0 starts a MessagePack value")
    );
    assert_eq!(
        Hpack::<5>::diagnose(
            &[
                0x1f, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff
            ],
            false
        )
        .unwrap_err()
        .to_string(),
        "overflow: the prefix is followed by 10 bytes with the continuation bit (0x80), \
         but an HPACK integer of 64 bits is at most 11 bytes long"
    );
    assert_eq!(
        Bincode::diagnose(&[0xff], false).unwrap_err().to_string(),
        "reserved: a bincode varint may not start with 0xff"
    );
}

#[test]
fn last_byte_words_match_the_decoders() {
    // The allowed range the words give is exactly what the decoder takes
    // as the last byte of the longest form.
    fn check<F: Explain>(continuation: u8)
    where
        F::Value: std::fmt::Debug,
    {
        let mut bytes = vec![continuation; F::MAX_LEN];
        for b in 0..=0x7fu8 {
            bytes[F::MAX_LEN - 1] = b;
            let ok = F::decode(&bytes).is_ok();
            let allowed = match F::explain(&bytes, DecodeError::Overflow) {
                Fault::LastByte { allowed, .. } => allowed,
                f => panic!("{}: {f:?}", F::NOUN),
            };
            let inside = match allowed {
                LastByte::Unsigned { max } => b <= max,
                LastByte::Signed { max } => b <= max || b >= 0x7f - max,
                other => panic!("{other:?}"),
            };
            assert_eq!(ok, inside, "{} last byte {b:02x}", F::NOUN);
        }
    }
    check::<Leb128<u16>>(0xff);
    check::<Leb128<u32>>(0xff);
    check::<Leb128<u64>>(0xff);
    check::<Leb128<u128>>(0xff);
    check::<Sleb128<i16>>(0xff);
    check::<Sleb128<i32>>(0x80);
    check::<Sleb128<i64>>(0xff);
    check::<Sleb128<i128>>(0x80);
}

#[test]
fn stream_faults_come_from_the_failing_bytes() {
    let bytes = [0xac, 0x02, 0x01, 0x7f, 0x80];
    let mut values = Vec::new();
    let err = decode_stream::<Leb128<u64>, _, io::Error>(Trickle(&bytes), false, |v| {
        values.push(v);
        Ok(())
    })
    .unwrap_err();
    assert_eq!(values, [300, 1, 127]);
    assert_eq!((err.index(), err.offset()), (3, 4));
    assert_eq!(
        err.fault::<Leb128<u64>>(),
        Some(Fault::Continued { len: 1 })
    );
    // Strict: the value and its shortest form.
    let err =
        decode_stream::<Quic, _, io::Error>(&[0x25, 0x40, 0x25][..], true, |_| Ok(())).unwrap_err();
    assert_eq!(
        err.fault::<Quic>().unwrap().to_string(),
        "non-canonical: 2 bytes encode 37, whose shortest encoding is 25 (1 byte)"
    );
}

#[test]
fn streams_in_small_reads_match_one_slice() {
    let values: Vec<u64> = (0..3000u64).map(|v| v * v * v * 977).collect();
    let bytes = Leb128::<u64>::encode_slice_to_vec(&values).unwrap();
    let mut got = Vec::new();
    decode_stream::<Leb128<u64>, _, io::Error>(Trickle(&bytes), true, |v| {
        got.push(v);
        Ok(())
    })
    .unwrap();
    assert_eq!(got, values);
}

#[test]
fn single_values_fill_the_reader() {
    // Every one- and two-byte input, and random longer ones, in one slice
    // and trickled, against a model: decode the slice, and it must end
    // there.
    let mut rng = StdRng::seed_from_u64(40);
    let mut inputs: Vec<Vec<u8>> = vec![vec![]];
    for a in 0..=255u8 {
        inputs.push(vec![a]);
        inputs.push(vec![a, rng.random()]);
    }
    for _ in 0..5000 {
        let len = rng.random_range(3..40);
        inputs.push(
            (0..len)
                .map(|_| rng.random::<u8>() | (0x80 * rng.random_range(0..2u8)))
                .collect(),
        );
    }
    fn check<F: Format>(bytes: &[u8], strict: bool)
    where
        F::Value: std::fmt::Debug + PartialEq,
    {
        // The model reads what `decode_single` reads: `MAX_LEN` bytes.
        let head = &bytes[..bytes.len().min(F::MAX_LEN)];
        let decoded = if strict {
            F::decode_strict(head)
        } else {
            F::decode(head)
        };
        for got in [
            decode_single::<F, _>(bytes, strict),
            decode_single::<F, _>(Trickle(bytes), strict),
        ] {
            match (decoded, got) {
                (Ok((v, n)), Ok(got)) if n == bytes.len() => assert_eq!(got, (v, n)),
                (Ok((_, n)), Err(e)) if n < bytes.len() => {
                    assert!(matches!(e.kind(), StreamErrorKind::Trailing { len } if *len == n));
                    let kept = bytes.len().min(n + 9);
                    assert_eq!(e.bytes(), &bytes[..kept], "{} {bytes:02x?}", F::NAME);
                }
                (Err(want), Err(e)) => {
                    assert!(matches!(e.kind(), StreamErrorKind::Decode(d) if *d == want));
                    assert_eq!(e.bytes(), head);
                }
                (want, got) => panic!("{} {bytes:02x?}: {want:?} vs {got:?}", F::NAME),
            }
        }
    }
    for bytes in &inputs {
        for strict in [false, true] {
            check::<Leb128<u64>>(bytes, strict);
            check::<Leb128<u128>>(bytes, strict);
            check::<Sleb128<i32>>(bytes, strict);
            check::<Quic>(bytes, strict);
            check::<CborHead>(bytes, strict);
            check::<Hpack<3>>(bytes, strict);
        }
    }
}

/// A reader that never ends: `decode_single` must stop on its own.
struct Endless;

impl Read for Endless {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        buf.fill(0x01);
        Ok(buf.len())
    }
}

#[test]
fn single_values_never_read_an_endless_source_to_its_end() {
    let e = decode_single::<Leb128<u64>, _>(Endless, false).unwrap_err();
    assert!(matches!(e.kind(), StreamErrorKind::Trailing { len: 1 }));
    assert_eq!(e.bytes(), [0x01; 10]);
}

#[test]
fn int_types_read_what_they_hold() {
    let mut rng = StdRng::seed_from_u64(41);
    for bits in [8, 16, 32, 64, 128] {
        for signed in [false, true] {
            let ty = IntType::new(bits, signed).unwrap();
            assert_eq!(
                ty.to_string(),
                format!("{}{bits}", if signed { 'i' } else { 'u' })
            );
            let (lo, hi) = match (signed, bits) {
                (true, 128) => (i128::MIN, i128::MAX),
                (true, _) => (-(1i128 << (bits - 1)), (1i128 << (bits - 1)) - 1),
                (false, 128) => (0, i128::MAX),
                (false, _) => (0, (1i128 << bits) - 1),
            };
            let mut samples = vec![lo, hi, 0, lo.saturating_add(1), hi - 1];
            samples.extend((0..2000).map(|_| {
                let v = rng.random::<i128>() >> rng.random_range(0..128);
                v.clamp(lo, hi)
            }));
            for n in samples {
                round_trip::<Quic>(ty, n);
                round_trip::<Sqlite>(ty, n);
                round_trip::<Vlq>(ty, n);
                round_trip::<MsgPack>(ty, n);
                round_trip::<CborHead>(ty, n);
                round_trip::<Hpack<7>>(ty, n);
            }
        }
    }
    assert_eq!(IntType::new(24, false), None);
    assert_eq!(
        IntType::new(8, true)
            .unwrap()
            .read::<CborHead>(Head::new(2, 3)),
        Err(RangeError::NotAnInteger(
            CborHead::to_i128(Head::new(2, 3)).unwrap_err()
        ))
    );
}

/// `n` of `ty` into format `F` and back gives `n`, whenever the format
/// can hold it; and a value too wide for the type is refused.
fn round_trip<F: Integer>(ty: IntType, n: i128)
where
    F::Value: std::fmt::Debug + PartialEq,
{
    if let Some(v) = ty.value_of::<F>(n) {
        assert_eq!(ty.read::<F>(v), Ok(n), "{} {ty} {n}", F::NAME);
        let mut buf = [0u8; 32];
        let len = F::encode(v, &mut buf);
        assert_eq!(F::decode(&buf[..len]).unwrap().0, v);
    } else {
        // Only a format's own range refuses a value of the type.
        let wide = if ty.is_signed() && !F::SIGNED {
            let mask = if ty.bits() == 128 {
                u128::MAX
            } else {
                (1u128 << ty.bits()) - 1
            };
            i128::try_from((((n << 1) ^ (n >> 127)) as u128) & mask).ok()
        } else {
            Some(n)
        };
        assert!(
            wide.is_none_or(|w| F::from_i128(w).is_none()),
            "{} {ty} {n}",
            F::NAME
        );
    }
    // One past the type's range never reads as the type.
    let wider = IntType::new(128, ty.is_signed()).unwrap();
    if ty.bits() < 128 {
        let past = if ty.is_signed() {
            1i128 << (ty.bits() - 1)
        } else {
            1i128 << ty.bits()
        };
        if let Some(v) = wider.value_of::<F>(past) {
            assert!(
                matches!(ty.read::<F>(v), Err(RangeError::OutOfRange(_))),
                "{} {ty}",
                F::NAME
            );
        }
    }
}
