//! Encoding: round trips for every width, lengths, poisoned buffers, and
//! the short-buffer behaviour of `encode` and `try_encode`.

mod common;

use common::{Rng, shortest_len};
use quickcheck::quickcheck;
use varint::{BufferTooSmall, Varint};

const POISON: u8 = 0xA5;

/// Encodes `v` into a poisoned buffer and checks everything that can be
/// checked about the result.
fn round_trip<T: Varint + Into<u128>>(v: T) -> bool {
    let mut buf = [POISON; 24];
    let n = varint::encode(v, &mut buf);
    let ok = n == varint::encoded_len(v)
        && n == shortest_len(v.into())
        && n <= T::MAX_LEN
        && buf[n..].iter().all(|&b| b == POISON)
        && buf[..n - 1].iter().all(|&b| b >= 0x80)
        && buf[n - 1] < 0x80
        && varint::decode::<T>(&buf) == Ok((v, n))
        && varint::decode_strict::<T>(&buf[..n]) == Ok((v, n));
    // Every shorter buffer: an error and no write.
    let short_ok = (0..n).all(|avail| {
        let mut small = vec![POISON; avail];
        varint::try_encode(v, &mut small) == Err(BufferTooSmall::new(n, avail))
            && small.iter().all(|&b| b == POISON)
    });
    let mut exact = vec![POISON; n];
    ok && short_ok && varint::try_encode(v, &mut exact) == Ok(n) && exact[..] == buf[..n]
}

#[test]
fn boundaries_of_every_length() {
    for k in 0..128u32 {
        for delta in [0u128, 1] {
            let v = (1u128 << k) - delta;
            assert!(round_trip(v), "{v}");
            if v <= u64::MAX.into() {
                assert!(round_trip(v as u64), "{v}");
                assert!(round_trip_usize(v as usize), "{v}");
            }
            if v <= u32::MAX.into() {
                assert!(round_trip(v as u32), "{v}");
            }
            if v <= u16::MAX.into() {
                assert!(round_trip(v as u16), "{v}");
            }
        }
    }
    assert!(
        round_trip(u128::MAX)
            && round_trip(u64::MAX)
            && round_trip(u32::MAX)
            && round_trip(u16::MAX)
    );
    assert_eq!(varint::encoded_len(u128::MAX), 19);
}

#[test]
fn every_u16() {
    for v in 0..=u16::MAX {
        assert!(round_trip(v), "{v}");
    }
}

#[test]
fn random_lengths() {
    let mut rng = Rng(3);
    for _ in 0..100_000 {
        let v = rng.value_bits(128);
        assert!(round_trip(v));
        assert!(round_trip(v as u64));
        assert!(round_trip(v as u32));
    }
}

#[test]
#[should_panic(expected = "need 2 bytes, have 1")]
fn encode_panics_on_short_buffer() {
    let _ = varint::encode(300u64, &mut [0u8; 1]);
}

#[test]
fn signed_forms() {
    let mut buf = [0u8; 19];
    assert_eq!(varint::encode_signed(-1i32, &mut buf), 1);
    assert_eq!(buf[0], 1);
    assert_eq!(varint::encode_signed(i64::MIN, &mut buf), 10);
    assert_eq!(varint::decode_signed::<i64>(&buf), Ok((i64::MIN, 10)));
    assert_eq!(varint::encode_signed(i128::MIN, &mut buf), 19);
    assert_eq!(varint::decode_signed::<i128>(&buf), Ok((i128::MIN, 19)));
    assert_eq!(varint::try_encode_signed(-64i16, &mut buf[..1]), Ok(1));
    assert_eq!(
        varint::try_encode_signed(-65i16, &mut buf[..1]),
        Err(BufferTooSmall::new(2, 1))
    );
}

quickcheck! {
    fn qc_u16(v: u16) -> bool { round_trip(v) }
    fn qc_u32(v: u32) -> bool { round_trip(v) }
    fn qc_u64(v: u64) -> bool { round_trip(v) }
    fn qc_usize(v: usize) -> bool { round_trip(v as u64) && round_trip_usize(v) }
    fn qc_u128(v: u128) -> bool { round_trip(v) }
    fn qc_small_u64(v: u64, shift: u8) -> bool { round_trip(v >> (shift % 64)) }
    fn qc_small_u128(v: u128, shift: u8) -> bool { round_trip(v >> (shift % 128)) }
}

fn round_trip_usize(v: usize) -> bool {
    let mut buf = [POISON; 12];
    let n = varint::encode(v, &mut buf);
    varint::decode::<usize>(&buf) == Ok((v, n))
        && n == varint::encoded_len(v as u64)
        && buf[n..].iter().all(|&b| b == POISON)
}
