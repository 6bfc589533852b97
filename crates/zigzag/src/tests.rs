//! Tests: protobuf-go's vectors, an independent oracle exhaustively for the
//! 8- and 16-bit widths and by quickcheck for the others, and round trips.

extern crate std;

use super::*;
use quickcheck::quickcheck;

/// The zigzag mapping written differently from the crate: non-negative `n`
/// goes to `2n`, negative `n` to `2(−n − 1) + 1`, where `−n − 1 = !n` cannot
/// overflow.
macro_rules! oracle {
    ($name:ident, $s:ty, $u:ty) => {
        fn $name(n: $s) -> $u {
            if n >= 0 {
                (n as $u) * 2
            } else {
                ((!n) as $u) * 2 + 1
            }
        }
    };
}
oracle!(oracle_i8, i8, u8);
oracle!(oracle_i16, i16, u16);
oracle!(oracle_i32, i32, u32);
oracle!(oracle_i64, i64, u64);
oracle!(oracle_i128, i128, u128);
oracle!(oracle_isize, isize, usize);

#[test]
fn protobuf_go_vectors() {
    let cases = codec_testdata::zigzag_cases();
    assert_eq!(cases.len(), 13);
    for (signed, unsigned) in cases {
        assert_eq!(encode(signed), unsigned, "encode({signed})");
        assert_eq!(encode_i64(signed), unsigned, "encode_i64({signed})");
        assert_eq!(decode(unsigned), signed, "decode({unsigned})");
        assert_eq!(decode_u64(unsigned), signed, "decode_u64({unsigned})");
    }
}

#[test]
fn exhaustive_8_and_16_bit() {
    for n in i8::MIN..=i8::MAX {
        assert_eq!(encode(n), oracle_i8(n), "{n}");
        assert_eq!(decode(encode(n)), n);
    }
    for u in u8::MIN..=u8::MAX {
        assert_eq!(encode(decode(u)), u, "{u}");
    }
    for n in i16::MIN..=i16::MAX {
        assert_eq!(encode_i16(n), oracle_i16(n), "{n}");
        assert_eq!(decode_u16(encode_i16(n)), n);
    }
    for u in u16::MIN..=u16::MAX {
        assert_eq!(encode(decode(u)), u, "{u}");
    }
}

#[test]
fn interleaves_by_magnitude() {
    // 0, −1, 1, −2, 2, … map to 0, 1, 2, 3, 4, …
    for k in 0..1000i64 {
        assert_eq!(encode(k), 2 * k as u64);
        assert_eq!(encode(-k - 1), 2 * k as u64 + 1);
    }
}

#[test]
fn extremes_of_every_width() {
    macro_rules! check {
        ($($s:ty, $u:ty);*) => {$(
            assert_eq!(encode(<$s>::MIN), <$u>::MAX);
            assert_eq!(encode(<$s>::MAX), <$u>::MAX - 1);
            assert_eq!(encode(0 as $s), 0);
            assert_eq!(encode(-1 as $s), 1);
            assert_eq!(decode(<$u>::MAX), <$s>::MIN);
            assert_eq!(decode(<$u>::MAX - 1), <$s>::MAX);
        )*};
    }
    check!(i8, u8; i16, u16; i32, u32; i64, u64; i128, u128; isize, usize);
}

#[test]
fn const_functions_agree_with_generic_ones() {
    const E: [u64; 3] = [encode_i64(-1), encode_i64(i64::MIN), encode_i64(7)];
    const D: i128 = decode_u128(u128::MAX);
    assert_eq!(E, [1, u64::MAX, 14]);
    assert_eq!(D, i128::MIN);
    assert_eq!(encode_i8(-64), encode(-64i8));
    assert_eq!(encode_isize(isize::MIN), usize::MAX);
    assert_eq!(decode_usize(3), -2);
    assert_eq!(decode_u32(u32::MAX), i32::MIN);
}

#[test]
fn slices_convert_the_common_prefix() {
    let src: std::vec::Vec<i32> = (-500..500).chain([i32::MIN, i32::MAX]).collect();
    let mut enc = std::vec![0u32; src.len() + 3];
    assert_eq!(encode_slice(&src, &mut enc), src.len());
    assert!(enc[src.len()..].iter().all(|&u| u == 0), "past the end");
    for (s, u) in src.iter().zip(&enc) {
        assert_eq!(*u, oracle_i32(*s));
    }
    let mut dec = std::vec![7i32; src.len() - 10];
    assert_eq!(decode_slice(&enc[..src.len()], &mut dec), src.len() - 10);
    assert_eq!(dec[..], src[..src.len() - 10]);
    assert_eq!(encode_slice::<i64>(&[], &mut [0u64; 4]), 0);
}

quickcheck! {
    fn qc_i32(n: i32) -> bool { encode(n) == oracle_i32(n) && decode(encode(n)) == n }
    fn qc_u32(u: u32) -> bool { encode(decode(u)) == u }
    fn qc_i64(n: i64) -> bool { encode(n) == oracle_i64(n) && decode(encode(n)) == n }
    fn qc_u64(u: u64) -> bool { encode(decode(u)) == u }
    fn qc_i128(n: i128) -> bool { encode(n) == oracle_i128(n) && decode(encode(n)) == n }
    fn qc_u128(u: u128) -> bool { encode(decode(u)) == u }
    fn qc_isize(n: isize) -> bool { encode(n) == oracle_isize(n) && decode(encode(n)) == n }
    fn qc_usize(u: usize) -> bool { encode(decode(u)) == u }
    fn qc_slices(v: std::vec::Vec<i64>) -> bool {
        let mut u = std::vec![0u64; v.len()];
        let mut back = std::vec![0i64; v.len()];
        encode_slice(&v, &mut u) == v.len()
            && decode_slice(&u, &mut back) == v.len()
            && back == v
            && u.iter().zip(&v).all(|(&u, &s)| u == oracle_i64(s))
    }
}
