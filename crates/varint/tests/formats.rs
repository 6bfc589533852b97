//! Every format of `varint::formats` against a model written here from its
//! specification (not from the implementation): every input of zero to
//! three bytes exhaustively, mutated encodings of random values, round
//! trips (rand and quickcheck), the specifications' examples, and the
//! contract of the trait (prefix-free, nothing written on error).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::fmt::Debug;

use quickcheck::quickcheck;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use varint::formats::cbor::Head;
use varint::formats::{
    Bijective, Bincode, CborHead, CompactSize, DecodeError, EncodeError, Format, Hpack, MsgPack,
    Prefix, Quic, Sqlite, Vlq,
};

use DecodeError::{NonCanonical, NotAnInteger, Overflow, Reserved, Truncated};

type Model<V> = Result<(V, usize), DecodeError>;

/// A format and its model: lenient decoding, and whether a decoded
/// encoding is the one the specification prefers.
trait Spec: Format<Value: PartialEq + Debug> {
    /// Lenient decoding, from the specification.
    fn model(buf: &[u8]) -> Model<Self::Value>;
    /// Whether `bytes` (one whole encoding of `value`) is the preferred
    /// (shortest) form.
    fn canonical(bytes: &[u8], value: Self::Value) -> bool;
    /// A random value in range, with a spread of encoded lengths.
    fn random(rng: &mut StdRng) -> Self::Value;
    /// Values the format cannot encode.
    fn out_of_range() -> Vec<Self::Value> {
        Vec::new()
    }
}

/// The strict model: the lenient one, then the canonical check.
fn model_strict<F: Spec>(buf: &[u8]) -> Model<F::Value> {
    let (v, n) = F::model(buf)?;
    if F::canonical(&buf[..n], v) {
        Ok((v, n))
    } else {
        Err(NonCanonical)
    }
}

fn check_input<F: Spec>(buf: &[u8]) {
    assert_eq!(F::decode(buf), F::model(buf), "{} {buf:02x?}", F::NAME);
    assert_eq!(
        F::decode_strict(buf),
        model_strict::<F>(buf),
        "{} strict {buf:02x?}",
        F::NAME
    );
}

/// Every input of zero to three bytes.
fn exhaustive<F: Spec>() {
    check_input::<F>(&[]);
    for a in 0..=255u8 {
        check_input::<F>(&[a]);
        for b in 0..=255u8 {
            check_input::<F>(&[a, b]);
            for c in 0..=255u8 {
                check_input::<F>(&[a, b, c]);
            }
        }
    }
}

/// Random values: encode, decode strictly, the lengths agree; every
/// truncation is `Truncated`; a byte flipped or appended agrees with the
/// model; a short buffer or an out-of-range value writes nothing.
fn random<F: Spec>(seed: u64) {
    let mut rng = StdRng::seed_from_u64(seed);
    for _ in 0..20_000 {
        let v = F::random(&mut rng);
        let mut buf = [0xA5u8; 40];
        let n = F::try_encode(v, &mut buf).unwrap();
        assert_eq!(F::encoded_len(v), Some(n), "{} {v:?}", F::NAME);
        assert!(n <= F::MAX_LEN);
        assert!(buf[n..].iter().all(|&b| b == 0xA5), "wrote past the value");
        let enc = &buf[..n];
        // The fast paths (`single_byte`, `two_bytes`, a format's own
        // `try_encode`) write what the general path (`write`) would.
        if let Some(b) = F::single_byte(v) {
            assert_eq!((n, enc[0]), (1, b), "{} single_byte({v:?})", F::NAME);
        }
        if let Some(pair) = F::two_bytes(v) {
            assert_eq!(enc, pair, "{} two_bytes({v:?})", F::NAME);
        }
        let mut general = [0xA5u8; 40];
        F::write(v, &mut general[..n]);
        assert_eq!(&general[..n], enc, "{} write({v:?})", F::NAME);
        assert_eq!(
            F::decode_strict(enc),
            Ok((v, n)),
            "{} {v:?} {enc:02x?}",
            F::NAME
        );
        assert!(
            F::canonical(enc, v),
            "{} encodes {v:?} non-canonically",
            F::NAME
        );
        // Bytes after a value never change it.
        assert_eq!(F::decode(&buf), Ok((v, n)));
        for cut in 0..n {
            assert_eq!(
                F::decode(&enc[..cut]),
                Err(Truncated),
                "{} {enc:02x?}",
                F::NAME
            );
        }
        // Mutations: one bit flipped, a byte appended.
        let mut m = enc.to_vec();
        let i = rng.random_range(0..n);
        m[i] ^= 1 << rng.random_range(0..8);
        m.push(rng.random());
        check_input::<F>(&m);
        check_input::<F>(&m[..m.len() - 1]);
        // A buffer one byte short: an error, and nothing written.
        let mut short = vec![0x5Au8; n - 1];
        assert!(matches!(
            F::try_encode(v, &mut short),
            Err(EncodeError::BufferTooSmall(_))
        ));
        assert!(short.iter().all(|&b| b == 0x5A));
    }
    for v in F::out_of_range() {
        let mut buf = [0x5Au8; 40];
        assert_eq!(F::try_encode(v, &mut buf), Err(EncodeError::OutOfRange));
        assert_eq!(F::encoded_len(v), None);
        assert!(buf.iter().all(|&b| b == 0x5A));
    }
    // Random inputs of random lengths.
    for _ in 0..100_000 {
        let len = rng.random_range(0..=F::MAX_LEN + 2);
        let bytes: Vec<u8> = (0..len).map(|_| rng.random()).collect();
        check_input::<F>(&bytes);
    }
}

/// The bulk functions agree with one value at a time.
fn bulk<F: Spec>(seed: u64) {
    let mut rng = StdRng::seed_from_u64(seed);
    let values: Vec<F::Value> = (0..3000).map(|_| F::random(&mut rng)).collect();
    let bytes = F::encode_slice_to_vec(&values).unwrap();
    assert_eq!(F::encoded_len_slice(&values), Some(bytes.len()));
    let mut one_by_one = Vec::new();
    for &v in &values {
        let mut b = [0u8; 40];
        let n = F::encode(v, &mut b);
        one_by_one.extend_from_slice(&b[..n]);
    }
    assert_eq!(bytes, one_by_one);
    let got: Vec<F::Value> = F::iter_strict(&bytes).map(Result::unwrap).collect();
    assert_eq!(got, values);
    let mut out = vec![values[0]; values.len() + 1];
    let done = F::decode_into_strict(&bytes, &mut out).unwrap();
    assert_eq!((done.count, done.bytes), (values.len(), bytes.len()));
    assert_eq!(&out[..values.len()], &values[..]);
    // Cut in the middle of the last value: the error says where it began.
    let last = F::encoded_len(values[values.len() - 1]).unwrap();
    if last > 1 {
        let cut = &bytes[..bytes.len() - 1];
        let err = F::decode_into(cut, &mut out).unwrap_err();
        assert_eq!(err.error(), Truncated);
        assert_eq!(
            (err.count(), err.offset()),
            (values.len() - 1, bytes.len() - last)
        );
        let mut it = F::iter(cut);
        let n = it.by_ref().take_while(Result::is_ok).count();
        assert_eq!(n, values.len() - 1);
        assert_eq!(it.next(), None, "fused after the error");
    }
    // A slice too small for the encoding: nothing written.
    let mut small = vec![0x5Au8; bytes.len() - 1];
    assert!(F::encode_slice(&values, &mut small).is_err());
    assert!(small.iter().all(|&b| b == 0x5A));
}

fn all<F: Spec>(seed: u64) {
    exhaustive::<F>();
    random::<F>(seed);
    bulk::<F>(seed + 1);
}

/// Big-endian bytes as a number.
fn be(bytes: &[u8]) -> u128 {
    bytes.iter().fold(0, |v, &b| v << 8 | u128::from(b))
}

/// Little-endian bytes as a number.
fn le(bytes: &[u8]) -> u128 {
    bytes.iter().rev().fold(0, |v, &b| v << 8 | u128::from(b))
}

/// `bytes` bytes from `at`, or `Truncated`.
fn take(buf: &[u8], at: usize, bytes: usize) -> Result<&[u8], DecodeError> {
    buf.get(at..at + bytes).ok_or(Truncated)
}

/// A random u64 whose bit length is uniform in 0..=64.
fn spread(rng: &mut StdRng) -> u64 {
    let bits = rng.random_range(0..=64u32);
    if bits == 0 {
        0
    } else {
        rng.random::<u64>() >> (64 - bits)
    }
}

// RFC 9000 §16: "the two most significant bits of the first byte encode
// the base-2 logarithm of the integer encoding length in bytes".
impl Spec for Quic {
    fn model(buf: &[u8]) -> Model<u64> {
        let first = *buf.first().ok_or(Truncated)?;
        let len = 1usize << (first >> 6);
        let rest = take(buf, 1, len - 1)?;
        let v = u128::from(first & 0x3f) << (8 * (len - 1)) | be(rest);
        Ok((v as u64, len))
    }
    fn canonical(bytes: &[u8], v: u64) -> bool {
        // Table 4 of RFC 9000: the usable bits of each length.
        let usable = match bytes.len() {
            1 => 6,
            2 => 14,
            4 => 30,
            _ => 62,
        };
        [6u32, 14, 30, 62]
            .iter()
            .find(|&&bits| v < 1 << bits)
            .is_some_and(|&bits| bits == usable)
    }
    fn random(rng: &mut StdRng) -> u64 {
        spread(rng) >> 2
    }
    fn out_of_range() -> Vec<u64> {
        vec![1 << 62, u64::MAX]
    }
}

/// RFC 7541 §5.1, pseudocode "decode I from the next N bits".
fn hpack_model(buf: &[u8], n: u32) -> Model<u64> {
    let mask = (1u128 << n) - 1;
    let first = *buf.first().ok_or(Truncated)?;
    let mut i = u128::from(first) & mask;
    if i < mask {
        return Ok((i as u64, 1));
    }
    let mut m = 0;
    let mut at = 1;
    loop {
        // At most the prefix byte and ten continuation bytes for a u64.
        if at == 11 {
            return Err(Overflow);
        }
        let b = *buf.get(at).ok_or(Truncated)?;
        at += 1;
        i += u128::from(b & 127) << m;
        m += 7;
        if i > u128::from(u64::MAX) {
            return Err(Overflow);
        }
        if b & 128 != 128 {
            return Ok((i as u64, at));
        }
    }
}

macro_rules! hpack_spec {
    ($($n:literal),*) => {$(
        impl Spec for Hpack<$n> {
            fn model(buf: &[u8]) -> Model<u64> {
                hpack_model(buf, $n)
            }
            fn canonical(bytes: &[u8], _: u64) -> bool {
                // Padding is a continuation group of zero at the end; a
                // single zero group after the prefix is 2^N - 1 itself.
                bytes.len() <= 2 || bytes[bytes.len() - 1] != 0
            }
            fn random(rng: &mut StdRng) -> u64 {
                spread(rng)
            }
        }
    )*};
}
hpack_spec!(1, 4, 5, 7, 8);

// SQLite's file format, "varint": "a static Huffman encoding of 64-bit
// twos-complement integers ... The lower seven bits of each of the first
// eight bytes and all 8 bits of the ninth byte are used".
impl Spec for Sqlite {
    fn model(buf: &[u8]) -> Model<u64> {
        let mut v = 0u128;
        for i in 0..8 {
            let b = *buf.get(i).ok_or(Truncated)?;
            v = v << 7 | u128::from(b & 0x7f);
            if b & 0x80 == 0 {
                return Ok((v as u64, i + 1));
            }
        }
        let ninth = *buf.get(8).ok_or(Truncated)?;
        Ok(((v << 8 | u128::from(ninth)) as u64, 9))
    }
    fn canonical(bytes: &[u8], v: u64) -> bool {
        // The fewest bytes whose capacity holds v.
        let capacity = |n: usize| if n == 9 { 64 } else { 7 * n as u32 };
        let least = (1..=9).find(|&n| capacity(n) >= 64 || v < 1 << capacity(n));
        least == Some(bytes.len())
    }
    fn random(rng: &mut StdRng) -> u64 {
        spread(rng)
    }
}

// git's varint.c `decode_varint` and Bitcoin Core's `ReadVarInt`: add one
// before each continuation group; overflow when the next shift would lose
// bits.
impl Spec for Bijective {
    fn model(buf: &[u8]) -> Model<u64> {
        let mut at = 0;
        let mut b = *buf.first().ok_or(Truncated)?;
        let mut v = u128::from(b & 0x7f);
        at += 1;
        while b & 0x80 != 0 {
            v += 1;
            if (v << 7) > u128::from(u64::MAX) {
                return Err(Overflow);
            }
            b = *buf.get(at).ok_or(Truncated)?;
            at += 1;
            v = (v << 7) + u128::from(b & 0x7f);
        }
        Ok((v as u64, at))
    }
    fn canonical(_: &[u8], _: u64) -> bool {
        true
    }
    fn random(rng: &mut StdRng) -> u64 {
        spread(rng)
    }
}

// Bitcoin Core serialize.h `ReadCompactSize`.
impl Spec for CompactSize {
    fn model(buf: &[u8]) -> Model<u64> {
        let first = *buf.first().ok_or(Truncated)?;
        let extra = match first {
            253 => 2,
            254 => 4,
            255 => 8,
            _ => return Ok((u64::from(first), 1)),
        };
        Ok((le(take(buf, 1, extra)?) as u64, 1 + extra))
    }
    fn canonical(bytes: &[u8], v: u64) -> bool {
        // "non-canonical ReadCompactSize()" below these minimums.
        match bytes.len() {
            3 => v >= 253,
            5 => v >= 0x10000,
            9 => v >= 0x1_0000_0000,
            _ => true,
        }
    }
    fn random(rng: &mut StdRng) -> u64 {
        spread(rng)
    }
}

// RFC 8949 §3: "The initial byte ... major type ... additional
// information"; §3.3 on two-byte simple values; §4.2.1 preferred
// serialization (shortest argument).
impl Spec for CborHead {
    fn model(buf: &[u8]) -> Model<Head> {
        let first = *buf.first().ok_or(Truncated)?;
        let (major, ai) = (first >> 5, first & 31);
        let extra = match ai {
            0..=23 => return Ok((Head::new(major, u64::from(ai)), 1)),
            24 => 1,
            25 => 2,
            26 => 4,
            27 => 8,
            28..=30 => return Err(Reserved),
            _ => return Err(NotAnInteger),
        };
        let arg = be(take(buf, 1, extra)?) as u64;
        if major == 7 && ai == 24 && arg < 32 {
            return Err(Reserved);
        }
        Ok((Head::new(major, arg), 1 + extra))
    }
    fn canonical(bytes: &[u8], head: Head) -> bool {
        let ai = bytes[0] & 31;
        if head.major == 7 && ai >= 25 {
            // Floats: the width is the type.
            return true;
        }
        match ai {
            24 => head.argument >= 24,
            25 => head.argument > 0xff,
            26 => head.argument > 0xffff,
            27 => head.argument > 0xffff_ffff,
            _ => true,
        }
    }
    fn random(rng: &mut StdRng) -> Head {
        let major = rng.random_range(0..7); // major 7 has holes; tested apart
        Head::new(major, spread(rng))
    }
    fn out_of_range() -> Vec<Head> {
        vec![
            Head::new(8, 0),
            Head::new(255, 5),
            Head::new(7, 24),
            Head::new(7, 31),
        ]
    }
}

// The MessagePack specification, "int format family".
impl Spec for MsgPack {
    fn model(buf: &[u8]) -> Model<i128> {
        let first = *buf.first().ok_or(Truncated)?;
        let (extra, signed) = match first {
            0x00..=0x7f => return Ok((i128::from(first), 1)),
            0xe0..=0xff => return Ok((i128::from(first) - 256, 1)),
            0xcc..=0xcf => (1 << (first - 0xcc), false),
            0xd0..=0xd3 => (1 << (first - 0xd0), true),
            0xc1 => return Err(Reserved),
            _ => return Err(NotAnInteger),
        };
        let raw = be(take(buf, 1, extra)?) as i128;
        let bits = 8 * extra as u32;
        let v = if signed && raw >> (bits - 1) == 1 {
            raw - (1i128 << bits)
        } else {
            raw
        };
        Ok((v, 1 + extra))
    }
    fn canonical(bytes: &[u8], v: i128) -> bool {
        // The smallest of the forms that can hold v.
        let forms: [(usize, i128, i128); 9] = [
            (1, -32, 127),
            (2, 0, 0xff),
            (2, -128, 127),
            (3, 0, 0xffff),
            (3, -32768, 32767),
            (5, 0, 0xffff_ffff),
            (5, i128::from(i32::MIN), i128::from(i32::MAX)),
            (9, 0, i128::from(u64::MAX)),
            (9, i128::from(i64::MIN), i128::from(i64::MAX)),
        ];
        let least = forms
            .iter()
            .filter(|(_, lo, hi)| (*lo..=*hi).contains(&v))
            .map(|f| f.0)
            .min();
        least == Some(bytes.len())
    }
    fn random(rng: &mut StdRng) -> i128 {
        let v = spread(rng);
        if rng.random() {
            i128::from(v)
        } else {
            -i128::from(v >> 1) - 1
        }
    }
    fn out_of_range() -> Vec<i128> {
        vec![
            i128::from(u64::MAX) + 1,
            i128::from(i64::MIN) - 1,
            i128::MAX,
            i128::MIN,
        ]
    }
}

// bincode 2, src/varint: `varint_decode_u64` (251 = u16, 252 = u32,
// 253 = u64 follow, little-endian; 254 = u128 is the wrong type; 255 is
// reserved; a byte up to 250 is itself).
impl Spec for Bincode {
    fn model(buf: &[u8]) -> Model<u64> {
        let first = *buf.first().ok_or(Truncated)?;
        let extra = match first {
            251 => 2,
            252 => 4,
            253 => 8,
            254 => return Err(Overflow),
            255 => return Err(Reserved),
            _ => return Ok((u64::from(first), 1)),
        };
        Ok((le(take(buf, 1, extra)?) as u64, 1 + extra))
    }
    fn canonical(bytes: &[u8], v: u64) -> bool {
        // What `varint_encode_u64` writes.
        let len = if v <= 250 {
            1
        } else if v <= u64::from(u16::MAX) {
            3
        } else if v <= u64::from(u32::MAX) {
            5
        } else {
            9
        };
        bytes.len() == len
    }
    fn random(rng: &mut StdRng) -> u64 {
        spread(rng)
    }
}

// SMF 1.0, "Variable-Length Quantities": 7 bits a byte, most significant
// first, "all bytes except the last have bit 7 set"; at most four bytes.
impl Spec for Vlq {
    fn model(buf: &[u8]) -> Model<u32> {
        let mut v = 0u32;
        for i in 0..4 {
            let b = *buf.get(i).ok_or(Truncated)?;
            v = v * 128 + u32::from(b & 0x7f);
            if b < 0x80 {
                return Ok((v, i + 1));
            }
        }
        Err(Overflow)
    }
    fn canonical(bytes: &[u8], _: u32) -> bool {
        bytes.len() == 1 || bytes[0] != 0x80
    }
    fn random(rng: &mut StdRng) -> u32 {
        (spread(rng) >> 36) as u32
    }
    fn out_of_range() -> Vec<u32> {
        vec![0x1000_0000, u32::MAX]
    }
}

// The layout documented on `Prefix`: leading ones = bytes that follow,
// then a zero, then the value big-endian.
impl Spec for Prefix {
    fn model(buf: &[u8]) -> Model<u64> {
        let first = *buf.first().ok_or(Truncated)?;
        let mut k = 0;
        while k < 8 && first & (0x80 >> k) != 0 {
            k += 1;
        }
        let free = 7usize.saturating_sub(k);
        let top = u128::from(first) & ((1 << free) - 1);
        let rest = take(buf, 1, k)?;
        Ok(((top << (8 * k) | be(rest)) as u64, 1 + k))
    }
    fn canonical(bytes: &[u8], v: u64) -> bool {
        let n = bytes.len();
        n == 1 || u128::from(v) >= 1u128 << (7 * (n - 1))
    }
    fn random(rng: &mut StdRng) -> u64 {
        spread(rng)
    }
}

/// Encodes each of `values` the format holds and checks the bytes against
/// the model: the value, the shortest form, nothing written past it, and
/// the general path (`write`) agreeing with `try_encode`'s fast paths.
fn edges<F: Spec>(values: impl IntoIterator<Item = F::Value>) {
    for v in values {
        let Some(len) = F::encoded_len(v) else {
            continue;
        };
        let mut buf = [0xA5u8; 40];
        let n = F::try_encode(v, &mut buf).unwrap();
        let enc = &buf[..n];
        assert_eq!(n, len, "{} {v:?}", F::NAME);
        assert!(buf[n..].iter().all(|&b| b == 0xA5), "wrote past the value");
        assert_eq!(F::model(enc), Ok((v, n)), "{} {v:?} {enc:02x?}", F::NAME);
        assert!(F::canonical(enc, v), "{} {v:?} {enc:02x?}", F::NAME);
        let mut general = [0xA5u8; 40];
        F::write(v, &mut general[..n]);
        assert_eq!(&general[..n], enc, "{} write({v:?})", F::NAME);
    }
}

/// Every value below 2^17, and around every power of two and every first
/// value of a bijective length (128, 128 + 128^2, ...): where the encoders'
/// length tests and fast paths change.
fn edge_values() -> Vec<u64> {
    let mut vs: Vec<u64> = (0..1 << 17).collect();
    for k in 0..64 {
        let p = 1u64 << k;
        vs.extend([p - 1, p, p + 1]);
    }
    let mut first = 0u64;
    for n in 1..10 {
        first += 1 << (7 * n);
        vs.extend([first - 1, first, first + 1]);
    }
    vs.push(u64::MAX);
    vs
}

#[test]
fn encode_at_length_edges() {
    let vs = edge_values();
    edges::<Quic>(vs.iter().copied());
    edges::<Hpack<1>>(vs.iter().copied());
    edges::<Hpack<5>>(vs.iter().copied());
    edges::<Hpack<8>>(vs.iter().copied());
    edges::<Sqlite>(vs.iter().copied());
    edges::<Bijective>(vs.iter().copied());
    edges::<CompactSize>(vs.iter().copied());
    edges::<Bincode>(vs.iter().copied());
    edges::<Prefix>(vs.iter().copied());
    edges::<Vlq>(vs.iter().filter_map(|&v| u32::try_from(v).ok()));
    edges::<MsgPack>(
        vs.iter()
            .flat_map(|&v| [i128::from(v), -i128::from(v), -1 - i128::from(v)]),
    );
    edges::<CborHead>(
        vs.iter()
            .step_by(7)
            .flat_map(|&v| (0..8).map(move |major| Head::new(major, v))),
    );
}

#[test]
fn quic() {
    all::<Quic>(1);
}
#[test]
fn hpack() {
    all::<Hpack<1>>(2);
    all::<Hpack<4>>(3);
    all::<Hpack<5>>(4);
    all::<Hpack<7>>(5);
    all::<Hpack<8>>(6);
}
#[test]
fn sqlite() {
    all::<Sqlite>(7);
}
#[test]
fn bijective() {
    all::<Bijective>(8);
}
#[test]
fn compactsize() {
    all::<CompactSize>(9);
}
#[test]
fn cbor() {
    all::<CborHead>(10);
}
#[test]
fn msgpack() {
    all::<MsgPack>(11);
}
#[test]
fn bincode() {
    all::<Bincode>(12);
}
#[test]
fn vlq() {
    all::<Vlq>(13);
}
#[test]
fn prefix() {
    all::<Prefix>(14);
}

/// Decodes `hex` completely with `F`, strictly.
fn dec<F: Format>(bytes: &[u8]) -> Result<F::Value, DecodeError> {
    let (v, n) = F::decode_strict(bytes)?;
    assert_eq!(n, bytes.len(), "{} {bytes:02x?}", F::NAME);
    Ok(v)
}

/// Encodes `v` with `F`.
fn enc<F: Format>(v: F::Value) -> Vec<u8> {
    let mut buf = [0u8; 40];
    let n = F::encode(v, &mut buf);
    buf[..n].to_vec()
}

fn both<F: Format<Value: PartialEq + Debug + Copy>>(bytes: &[u8], v: F::Value) {
    assert_eq!(dec::<F>(bytes), Ok(v), "{} {bytes:02x?}", F::NAME);
    assert_eq!(enc::<F>(v), bytes, "{} {v:?}", F::NAME);
}

#[test]
fn rfc9000_a1_examples() {
    both::<Quic>(
        &[0xc2, 0x19, 0x7c, 0x5e, 0xff, 0x14, 0xe8, 0x8c],
        151_288_809_941_952_652,
    );
    both::<Quic>(&[0x9d, 0x7f, 0x3e, 0x7d], 494_878_333);
    both::<Quic>(&[0x7b, 0xbd], 15293);
    both::<Quic>(&[0x25], 37);
    // "the two-byte sequence 0x4025 also decodes to 37".
    assert_eq!(Quic::decode(&[0x40, 0x25]), Ok((37, 2)));
    assert_eq!(Quic::decode_strict(&[0x40, 0x25]), Err(NonCanonical));
}

#[test]
fn rfc7541_c1_examples() {
    both::<Hpack<5>>(&[0x0a], 10);
    both::<Hpack<5>>(&[0x1f, 0x9a, 0x0a], 1337);
    both::<Hpack<8>>(&[0x2a], 42);
    // The flags above a 5-bit prefix are the caller's.
    assert_eq!(Hpack::<5>::decode(&[0xff, 0x9a, 0x0a]), Ok((1337, 3)));
    // 2^N - 1 takes a zero continuation byte, which is canonical.
    both::<Hpack<5>>(&[0x1f, 0x00], 31);
    assert_eq!(
        Hpack::<5>::decode_strict(&[0x1f, 0x80, 0x00]),
        Err(NonCanonical)
    );
    // u64::MAX fits; one more does not.
    let max = enc::<Hpack<8>>(u64::MAX);
    assert_eq!(dec::<Hpack<8>>(&max), Ok(u64::MAX));
    assert_eq!(
        Hpack::<8>::decode(&[
            0xff, 0x81, 0xfe, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01
        ]),
        Err(Overflow)
    );
}

#[test]
fn sqlite_examples() {
    // From SQLite's file format page: 1 to 9 bytes, the ninth whole.
    both::<Sqlite>(&[0x00], 0);
    both::<Sqlite>(&[0x7f], 127);
    both::<Sqlite>(&[0x81, 0x00], 128);
    both::<Sqlite>(&[0xff, 0x7f], 0x3fff);
    both::<Sqlite>(
        &[0x80, 0xc0, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x00],
        1 << 56,
    );
    // Nine bytes of padding around 0: the ninth byte is a whole byte.
    assert_eq!(
        Sqlite::decode(&[0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x00]),
        Ok((0, 9))
    );
    both::<Sqlite>(&[0xff; 9], u64::MAX);
    assert_eq!(Sqlite::decode_strict(&[0x80, 0x05]), Err(NonCanonical));
}

#[test]
fn git_and_bitcoin_varint_examples() {
    // Bitcoin Core src/test/serialize_tests.cpp, "varints_bitpattern".
    let rows: [(u64, &[u8]); 10] = [
        (0, &[0x00]),
        (0x7f, &[0x7f]),
        (0x80, &[0x80, 0x00]),
        (0x1234, &[0xa3, 0x34]),
        (0xffff, &[0x82, 0xfe, 0x7f]),
        (0x12_3456, &[0xc7, 0xe7, 0x56]),
        (0x8012_3456, &[0x86, 0xff, 0xc7, 0xe7, 0x56]),
        (0xffff_ffff, &[0x8e, 0xfe, 0xfe, 0xfe, 0x7f]),
        (
            0x7fff_ffff_ffff_ffff,
            &[0xfe, 0xfe, 0xfe, 0xfe, 0xfe, 0xfe, 0xfe, 0xfe, 0x7f],
        ),
        (
            u64::MAX,
            &[0x80, 0xfe, 0xfe, 0xfe, 0xfe, 0xfe, 0xfe, 0xfe, 0xfe, 0x7f],
        ),
    ];
    for (v, bytes) in rows {
        both::<Bijective>(bytes, v);
    }
    // One more than u64::MAX: git's decode_varint returns 0 here; we say
    // overflow.
    assert_eq!(
        Bijective::decode(&[0x80, 0xfe, 0xfe, 0xfe, 0xfe, 0xfe, 0xfe, 0xfe, 0xff, 0x00]),
        Err(Overflow)
    );
    assert_eq!(
        Bijective::decode(&[0x81, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80]),
        Err(Overflow)
    );
}

#[test]
fn compactsize_examples() {
    // Bitcoin Core serialize_tests.cpp "noncanonical".
    both::<CompactSize>(&[0xfc], 252);
    both::<CompactSize>(&[0xfd, 0xfd, 0x00], 253);
    both::<CompactSize>(&[0xfe, 0x00, 0x00, 0x01, 0x00], 0x1_0000);
    both::<CompactSize>(
        &[0xff, 0x00, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00],
        0x1_0000_0000,
    );
    for bad in [
        &[0xfd, 0x00, 0x00][..],
        &[0xfd, 0xfc, 0x00],
        &[0xfe, 0xff, 0xff, 0x00, 0x00],
        &[0xff, 0xff, 0xff, 0xff, 0xff, 0x00, 0x00, 0x00, 0x00],
    ] {
        assert_eq!(
            CompactSize::decode_strict(bad),
            Err(NonCanonical),
            "{bad:02x?}"
        );
        assert!(CompactSize::decode(bad).is_ok());
    }
}

#[test]
fn rfc8949_appendix_a_integers() {
    let rows: [(i128, &[u8]); 15] = [
        (0, &[0x00]),
        (1, &[0x01]),
        (10, &[0x0a]),
        (23, &[0x17]),
        (24, &[0x18, 0x18]),
        (25, &[0x18, 0x19]),
        (100, &[0x18, 0x64]),
        (1000, &[0x19, 0x03, 0xe8]),
        (1_000_000, &[0x1a, 0x00, 0x0f, 0x42, 0x40]),
        (
            1_000_000_000_000,
            &[0x1b, 0x00, 0x00, 0x00, 0xe8, 0xd4, 0xa5, 0x10, 0x00],
        ),
        (
            18_446_744_073_709_551_615,
            &[0x1b, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff],
        ),
        (
            -18_446_744_073_709_551_616,
            &[0x3b, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff],
        ),
        (-1, &[0x20]),
        (-10, &[0x29]),
        (-100, &[0x38, 0x63]),
    ];
    for (v, bytes) in rows {
        let head = Head::from_int(v).unwrap();
        both::<CborHead>(bytes, head);
        assert_eq!(head.to_int(), Some(v));
    }
    both::<CborHead>(&[0x39, 0x03, 0xe7], Head::from_int(-1000).unwrap());
    // Simple values and floats (appendix A): false, true, null, simple(255),
    // and the half-float 0.0, whose two-byte width strict decoding keeps.
    both::<CborHead>(&[0xf4], Head::new(7, 20));
    both::<CborHead>(&[0xf8, 0xff], Head::new(7, 255));
    assert_eq!(dec::<CborHead>(&[0xf9, 0x00, 0x00]), Ok(Head::new(7, 0)));
    assert_eq!(CborHead::decode(&[0xf8, 0x18]), Err(Reserved));
    assert_eq!(CborHead::decode(&[0x5f]), Err(NotAnInteger)); // indefinite bytes
    assert_eq!(CborHead::decode(&[0xff]), Err(NotAnInteger)); // break
    assert_eq!(Head::from_int(-18_446_744_073_709_551_617), None);
}

#[test]
fn msgpack_examples() {
    // The specification's int formats, at the edges of each.
    both::<MsgPack>(&[0x7f], 127);
    both::<MsgPack>(&[0xe0], -32);
    both::<MsgPack>(&[0xcc, 0x80], 128);
    both::<MsgPack>(&[0xd0, 0xdf], -33);
    both::<MsgPack>(&[0xcd, 0x01, 0x00], 256);
    both::<MsgPack>(&[0xd1, 0x80, 0x00], -32768);
    both::<MsgPack>(&[0xce, 0xff, 0xff, 0xff, 0xff], 0xffff_ffff);
    both::<MsgPack>(
        &[0xcf, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff],
        i128::from(u64::MAX),
    );
    both::<MsgPack>(&[0xd3, 0x80, 0, 0, 0, 0, 0, 0, 0], i128::from(i64::MIN));
    // Same size, the signed form: strict accepts it (the rule is size).
    assert_eq!(dec::<MsgPack>(&[0xd1, 0x01, 0x2c]), Ok(300));
    assert_eq!(MsgPack::decode(&[0xc1]), Err(Reserved));
    assert_eq!(MsgPack::decode(&[0xca, 0, 0, 0, 0]), Err(NotAnInteger)); // float 32
}

#[test]
fn bincode_examples() {
    // bincode 2 src/varint tests: 251 + u16, 252 + u32, 253 + u64 (LE).
    both::<Bincode>(&[250], 250);
    both::<Bincode>(&[251, 251, 0], 251);
    both::<Bincode>(&[252, 0, 0, 1, 0], 0x1_0000);
    both::<Bincode>(&[253, 0, 0, 0, 0, 1, 0, 0, 0], 0x1_0000_0000);
    assert_eq!(Bincode::decode(&[254]), Err(Overflow));
    assert_eq!(Bincode::decode(&[255]), Err(Reserved));
    assert_eq!(Bincode::decode(&[251, 0, 10]), Ok((2560, 3)));
}

#[test]
fn smf_vlq_examples() {
    // The Standard MIDI File specification's table.
    let rows: [(u32, &[u8]); 12] = [
        (0x00, &[0x00]),
        (0x40, &[0x40]),
        (0x7f, &[0x7f]),
        (0x80, &[0x81, 0x00]),
        (0x2000, &[0xc0, 0x00]),
        (0x3fff, &[0xff, 0x7f]),
        (0x4000, &[0x81, 0x80, 0x00]),
        (0x10_0000, &[0xc0, 0x80, 0x00]),
        (0x1f_ffff, &[0xff, 0xff, 0x7f]),
        (0x20_0000, &[0x81, 0x80, 0x80, 0x00]),
        (0x800_0000, &[0xc0, 0x80, 0x80, 0x00]),
        (0xfff_ffff, &[0xff, 0xff, 0xff, 0x7f]),
    ];
    for (v, bytes) in rows {
        both::<Vlq>(bytes, v);
    }
    assert_eq!(Vlq::decode(&[0xff, 0xff, 0xff, 0xff, 0x7f]), Err(Overflow));
}

#[test]
fn prefix_layout_and_order() {
    both::<Prefix>(&[0x00], 0);
    both::<Prefix>(&[0x7f], 127);
    both::<Prefix>(&[0x80, 0x80], 128);
    both::<Prefix>(&[0xbf, 0xff], 0x3fff);
    both::<Prefix>(&[0xc0, 0x40, 0x00], 0x4000);
    both::<Prefix>(
        &[0xfe, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff],
        (1 << 56) - 1,
    );
    both::<Prefix>(&[0xff, 0x01, 0, 0, 0, 0, 0, 0, 0], 1 << 56);
    // Canonical encodings sort as their values.
    let mut rng = StdRng::seed_from_u64(99);
    for _ in 0..10_000 {
        let (a, b) = (spread(&mut rng), spread(&mut rng));
        assert_eq!(
            enc::<Prefix>(a).cmp(&enc::<Prefix>(b)),
            a.cmp(&b),
            "{a} {b}"
        );
    }
}

#[test]
fn leb128_zigzag_sleb128_forward_to_the_free_functions() {
    use varint::formats::{Leb128, Sleb128, Zigzag};
    let mut rng = StdRng::seed_from_u64(5);
    for _ in 0..10_000 {
        let bytes: Vec<u8> = (0..rng.random_range(0..12)).map(|_| rng.random()).collect();
        assert_eq!(Leb128::<u64>::decode(&bytes), varint::decode::<u64>(&bytes));
        assert_eq!(
            Leb128::<u32>::decode_strict(&bytes),
            varint::decode_strict::<u32>(&bytes)
        );
        assert_eq!(
            Zigzag::<i64>::decode(&bytes),
            varint::decode_signed::<i64>(&bytes)
        );
        assert_eq!(
            Sleb128::<i32>::decode(&bytes),
            varint::sleb128::decode::<i32>(&bytes)
        );
        let v: u64 = spread(&mut rng);
        assert_eq!(enc::<Leb128<u64>>(v), varint::encode_slice_to_vec(&[v]));
        let s = v as i64;
        let mut b = [0u8; 10];
        let n = varint::encode_signed(s, &mut b);
        assert_eq!(enc::<Zigzag<i64>>(s), &b[..n]);
        let n = varint::sleb128::encode(s, &mut b);
        assert_eq!(enc::<Sleb128<i64>>(s), &b[..n]);
    }
    // The LEB128 bulk path is the SIMD one, with the same answers.
    let values: Vec<u64> = (0..5000).map(|_| spread(&mut rng)).collect();
    let bytes = Leb128::<u64>::encode_slice_to_vec(&values).unwrap();
    let mut out = vec![0u64; values.len()];
    Leb128::<u64>::decode_into(&bytes, &mut out).unwrap();
    assert_eq!(out, values);
}

quickcheck! {
    fn quic_round_trip(v: u64) -> bool {
        let v = v >> 2;
        Quic::decode_strict(&enc::<Quic>(v)) == Ok((v, Quic::encoded_len(v).unwrap()))
    }
    fn sqlite_round_trip(v: u64) -> bool {
        dec::<Sqlite>(&enc::<Sqlite>(v)) == Ok(v)
    }
    fn bijective_round_trip(v: u64) -> bool {
        dec::<Bijective>(&enc::<Bijective>(v)) == Ok(v)
    }
    fn compactsize_round_trip(v: u64) -> bool {
        dec::<CompactSize>(&enc::<CompactSize>(v)) == Ok(v)
    }
    fn msgpack_round_trip(v: i64, u: u64) -> bool {
        dec::<MsgPack>(&enc::<MsgPack>(i128::from(v))) == Ok(i128::from(v))
            && dec::<MsgPack>(&enc::<MsgPack>(i128::from(u))) == Ok(i128::from(u))
    }
    fn cbor_round_trip(major: u8, arg: u64) -> bool {
        let head = Head::new(major % 7, arg);
        dec::<CborHead>(&enc::<CborHead>(head)) == Ok(head)
    }
    fn bincode_round_trip(v: u64) -> bool {
        dec::<Bincode>(&enc::<Bincode>(v)) == Ok(v)
    }
    fn vlq_round_trip(v: u32) -> bool {
        let v = v >> 4;
        dec::<Vlq>(&enc::<Vlq>(v)) == Ok(v)
    }
    fn prefix_round_trip(v: u64) -> bool {
        dec::<Prefix>(&enc::<Prefix>(v)) == Ok(v)
    }
    fn hpack_round_trip(v: u64) -> bool {
        dec::<Hpack<3>>(&enc::<Hpack<3>>(v)) == Ok(v) && dec::<Hpack<6>>(&enc::<Hpack<6>>(v)) == Ok(v)
    }
}
