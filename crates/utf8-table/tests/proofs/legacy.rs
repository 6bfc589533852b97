//! Legacy mode: the 1992 vectors, and agreement with the encoder-based
//! definition of `oracle.rs` exhaustively on short input, on the edges of
//! long sequences, and on random input.

use quickcheck::quickcheck;
use utf8_table::{EncodeError, Legacy, LegacyErrorKind, decode, encode, encoded_len, validate_as};

use crate::oracle::{legacy_decode, legacy_is_prefix};

/// `decode::<Legacy>` against the oracle, including the error's kind.
fn check(s: &[u8]) {
    let got = decode::<Legacy>(s);
    let want = legacy_decode(s);
    match (got, want) {
        (Ok(g), Ok(w)) => assert_eq!(g, w, "{s:02X?}"),
        (Err(e), Err(len)) => {
            assert_eq!((e.valid_up_to(), e.error_len()), (0, len), "{s:02X?}");
            assert_eq!(e.kind(), oracle_kind(s, len), "{s:02X?}");
        }
        (got, want) => panic!("{s:02X?}: got {got:?}, oracle {want:?}"),
    }
}

/// The kind the documentation promises, from the oracle's `error_len`.
fn oracle_kind(s: &[u8], error_len: Option<usize>) -> LegacyErrorKind {
    use LegacyErrorKind::*;
    let Some(len) = error_len else {
        return Incomplete;
    };
    match s[0] {
        0x80..=0xBF => UnexpectedContinuation,
        0xFE | 0xFF => InvalidByte,
        // The lead alone cannot be completed: C0, C1.
        _ if !legacy_is_prefix(&s[..1]) => Overlong,
        // The maximal subpart stops before a byte that is not a continuation,
        // or before one that makes the sequence overlong.
        _ if s[len] & 0xC0 != 0x80 => TooShort,
        _ => Overlong,
    }
}

#[test]
fn design_document_vectors() {
    let vectors: [(u32, &[u8]); 6] = [
        (0x7FFF_FFFF, b"\xFD\xBF\xBF\xBF\xBF\xBF"),
        (0x400_0000, b"\xFC\x84\x80\x80\x80\x80"),
        (0x20_0000, b"\xF8\x88\x80\x80\x80"),
        // The neighbours: the largest 5-byte value and the largest 4-byte one.
        (0x3FF_FFFF, b"\xFB\xBF\xBF\xBF\xBF"),
        (0x1F_FFFF, b"\xF7\xBF\xBF\xBF"),
        (0x5415, b"\xE5\x90\x95"),
    ];
    for (v, bytes) in vectors {
        let mut buf = [0u8; 8];
        assert_eq!(encode::<Legacy>(v, &mut buf), Ok(bytes.len()), "{v:X}");
        assert_eq!(&buf[..bytes.len()], bytes);
        assert_eq!(encoded_len::<Legacy>(v), Some(bytes.len()));
        assert_eq!(decode::<Legacy>(bytes), Ok((v, bytes.len())));
        check(bytes);
        // Every proper prefix is "need more bytes".
        for k in 0..bytes.len() {
            assert_eq!(decode::<Legacy>(&bytes[..k]).unwrap_err().error_len(), None);
        }
    }
    // Overlong NUL, and its longer forms.
    for overlong in [
        &b"\xC0\x80"[..],
        b"\xE0\x80\x80",
        b"\xF0\x80\x80\x80",
        b"\xF8\x80\x80\x80\x80",
        b"\xFC\x80\x80\x80\x80\x80",
    ] {
        let e = decode::<Legacy>(overlong).unwrap_err();
        assert_eq!(
            (e.kind(), e.error_len()),
            (LegacyErrorKind::Overlong, Some(1))
        );
        check(overlong);
    }
    // FE and FF are never valid, whatever follows.
    for lead in [0xFE, 0xFF] {
        for next in 0..=255u8 {
            for s in [&[lead, next][..], &[lead, next, 0x80, 0x80, 0x80, 0x80]] {
                let e = decode::<Legacy>(s).unwrap_err();
                assert_eq!(
                    (e.kind(), e.error_len()),
                    (LegacyErrorKind::InvalidByte, Some(1))
                );
            }
        }
    }
    assert_eq!(
        encode::<Legacy>(0x8000_0000, &mut [0; 8]),
        Err(EncodeError::TooLarge(0x8000_0000))
    );
}

#[test]
fn every_sequence_up_to_three_bytes() {
    codec_testdata::for_each_sequence_up_to_3(check);
}

/// Every 4- to 6-byte lead with every second byte, and the edges of the
/// byte classes after that, at every length up to 6.
#[test]
fn long_sequences_on_the_edges() {
    let edges = [0x41, 0x80, 0xBF, 0xC0];
    for lead in 0xF0..=0xFFu8 {
        // All seconds natively, the representatives under emulation.
        for &second in codec_testdata::bytes() {
            for rest in 0..256u32 {
                let e = |i: u32| edges[(rest >> (2 * i)) as usize & 3];
                let s = [lead, second, e(0), e(1), e(2), e(3)];
                for len in 3..=6 {
                    check(&s[..len]);
                }
            }
        }
    }
}

#[test]
fn every_row_boundary_round_trips() {
    let bounds = [
        0u32,
        0x7F,
        0x80,
        0x7FF,
        0x800,
        0xFFFF,
        0x1_0000,
        0x1F_FFFF,
        0x20_0000,
        0x3FF_FFFF,
        0x400_0000,
        0x7FFF_FFFF,
    ];
    let sample = (0..=0x7FFF_FFFFu32).step_by(9_973);
    for b in bounds
        .into_iter()
        .flat_map(|b| b.saturating_sub(2)..=b.saturating_add(2).min(0x7FFF_FFFF))
        .chain(sample)
    {
        round_trip(b);
    }
}

fn round_trip(v: u32) {
    let mut buf = [0u8; 6];
    let n = encode::<Legacy>(v, &mut buf).expect("in range");
    assert_eq!(decode::<Legacy>(&buf[..n]), Ok((v, n)), "{v:#X}");
    assert_eq!(encoded_len::<Legacy>(v), Some(n));
}

/// Every legacy value, 2^31 of them. Ignored: it takes minutes here.
#[test]
#[ignore = "2^31 values; run with --ignored"]
fn every_legacy_value_round_trips() {
    let mut buf = [0u8; 6];
    for v in 0..=0x7FFF_FFFFu32 {
        let n = encode::<Legacy>(v, &mut buf).expect("in range");
        assert_eq!(decode::<Legacy>(&buf[..n]), Ok((v, n)), "{v:#X}");
        assert_eq!(validate_as::<Legacy>(&buf[..n]), Ok(()));
    }
}

#[test]
fn validate_as_reports_the_first_error() {
    let input = b"ok \xFD\xBF\xBF\xBF\xBF\xBF \xED\xA0\x80 \xFC\x83\xBF\xBF\xBF\xBF";
    let e = validate_as::<Legacy>(input).unwrap_err();
    assert_eq!(
        (e.valid_up_to(), e.error_len(), e.kind()),
        (14, Some(1), LegacyErrorKind::Overlong)
    );
    assert_eq!(
        e.to_string(),
        "invalid legacy utf-8 sequence of 1 bytes from index 14 (overlong encoding)"
    );
}

quickcheck! {
    fn random_bytes(input: Vec<u8>) -> bool {
        check(&input);
        true
    }

    /// Bytes from `80..=FF`, so that long sequences and their errors occur.
    fn random_high_bytes(input: Vec<u8>) -> bool {
        let input: Vec<u8> = input.iter().map(|b| 0x80 | b).collect();
        for start in 0..input.len() {
            check(&input[start..]);
        }
        true
    }

    fn random_values_round_trip(v: u32) -> bool {
        let v = v & 0x7FFF_FFFF;
        round_trip(v);
        true
    }
}
