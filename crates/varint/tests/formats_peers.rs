//! `varint::formats` against the crates their users use today, on random
//! values and on random inputs (a random first byte followed by random
//! bytes, every length): `octets` (quiche's QUIC varints), `ciborium-ll`
//! (CBOR heads), `rmp` (MessagePack integers) and `bincode` 2 (its varint).
//! Each disagreement is asserted here as what it is, and explained in
//! `docs/results/varint.md` ("Formats").
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use varint::formats::cbor::Head;
use varint::formats::{Bincode, CborHead, DecodeError, Format, MsgPack, Quic};

fn spread(rng: &mut StdRng) -> u64 {
    let bits = rng.random_range(0..=64u32);
    if bits == 0 {
        0
    } else {
        rng.random::<u64>() >> (64 - bits)
    }
}

/// Random inputs: every first byte equally, then up to 10 random bytes.
fn inputs(seed: u64, n: usize) -> Vec<Vec<u8>> {
    let mut rng = StdRng::seed_from_u64(seed);
    (0..n)
        .map(|i| {
            let len = rng.random_range(1..=11);
            let mut v: Vec<u8> = (0..len).map(|_| rng.random()).collect();
            v[0] = i as u8;
            v
        })
        .collect()
}

fn enc<F: Format>(v: F::Value) -> Vec<u8> {
    F::encode_slice_to_vec(&[v]).unwrap()
}

#[test]
fn quic_against_octets() {
    for bytes in inputs(1, 200_000) {
        let mut o = octets::Octets::with_slice(&bytes);
        let theirs = o.get_varint().map(|v| (v, o.off()));
        match Quic::decode(&bytes) {
            Ok(ours) => assert_eq!(theirs, Ok(ours), "{bytes:02x?}"),
            Err(e) => {
                assert_eq!(e, DecodeError::Truncated);
                assert!(theirs.is_err(), "{bytes:02x?}");
            }
        }
    }
    let mut rng = StdRng::seed_from_u64(2);
    for _ in 0..100_000 {
        let v = spread(&mut rng) >> 2;
        let mut buf = [0u8; 8];
        let n = octets::varint_len(v);
        octets::OctetsMut::with_slice(&mut buf)
            .put_varint(v)
            .unwrap();
        assert_eq!(enc::<Quic>(v), &buf[..n], "{v}");
    }
}

/// ciborium-ll's header as our head, where it has one.
fn ciborium_head(bytes: &[u8]) -> Result<(Head, usize), String> {
    use ciborium_ll::{Decoder, Header};
    let mut d = Decoder::from(bytes);
    let header = d.pull().map_err(|e| format!("{e:?}"))?;
    let len = d.offset();
    let head = |major, arg: u64| Ok((Head::new(major, arg), len));
    let size = |major, n: Option<usize>| match n {
        Some(n) => head(major, n as u64),
        None => Err("indefinite".to_string()),
    };
    match header {
        Header::Positive(a) => head(0, a),
        Header::Negative(a) => head(1, a),
        Header::Bytes(n) => size(2, n),
        Header::Text(n) => size(3, n),
        Header::Array(n) => size(4, n),
        Header::Map(n) => size(5, n),
        Header::Tag(a) => head(6, a),
        Header::Simple(s) => head(7, u64::from(s)),
        Header::Break => Err("break".to_string()),
        // The float's bits, as the head carries them.
        Header::Float(_) => head(
            7,
            u64::from_be_bytes({
                let mut w = [0u8; 8];
                w[8 - (len - 1)..].copy_from_slice(&bytes[1..len]);
                w
            }),
        ),
    }
}

#[test]
fn cbor_heads_against_ciborium_ll() {
    for bytes in inputs(3, 200_000) {
        let theirs = ciborium_head(&bytes);
        match CborHead::decode(&bytes) {
            Ok(ours) => assert_eq!(theirs, Ok(ours), "{bytes:02x?}"),
            // Disagreement 1: ciborium-ll reads F8 00..F8 1F as a simple
            // value; RFC 8949 §3.3 makes them not well-formed.
            Err(DecodeError::Reserved) if bytes[0] == 0xf8 => {
                assert_eq!(theirs, Ok((Head::new(7, u64::from(bytes[1])), 2)));
            }
            // Both reject reserved additional information (28..30), cut-off
            // heads and, as an integer, additional information 31.
            Err(_) => assert!(theirs.is_err(), "{bytes:02x?} {theirs:?}"),
        }
    }
    let mut rng = StdRng::seed_from_u64(4);
    for _ in 0..100_000 {
        let v = spread(&mut rng);
        let mut buf = [0u8; 27];
        let mut rest = &mut buf[..];
        let mut e = ciborium_ll::Encoder::from(&mut rest);
        e.push(ciborium_ll::Header::Positive(v)).unwrap();
        e.push(ciborium_ll::Header::Negative(v)).unwrap();
        e.push(ciborium_ll::Header::Tag(v)).unwrap();
        let left = rest.len();
        let out = &buf[..27 - left];
        let mut ours = enc::<CborHead>(Head::new(0, v));
        ours.extend(enc::<CborHead>(Head::new(1, v)));
        ours.extend(enc::<CborHead>(Head::new(6, v)));
        assert_eq!(ours, out, "{v}");
    }
}

#[test]
fn msgpack_against_rmp() {
    for bytes in inputs(5, 200_000) {
        let mut rd = &bytes[..];
        let theirs = rmp::decode::read_int::<i128, _>(&mut rd).map(|v| (v, bytes.len() - rd.len()));
        match MsgPack::decode(&bytes) {
            Ok(ours) => assert_eq!(theirs.ok(), Some(ours), "{bytes:02x?}"),
            Err(_) => assert!(theirs.is_err(), "{bytes:02x?}"),
        }
    }
    let mut rng = StdRng::seed_from_u64(6);
    for _ in 0..100_000 {
        let u = spread(&mut rng);
        let mut out = Vec::new();
        rmp::encode::write_uint(&mut out, u).unwrap();
        assert_eq!(enc::<MsgPack>(i128::from(u)), out, "{u}");
        let s = -((u >> 1) as i64) - 1;
        let mut out = Vec::new();
        rmp::encode::write_sint(&mut out, s).unwrap();
        assert_eq!(enc::<MsgPack>(i128::from(s)), out, "{s}");
    }
}

#[test]
fn bincode_against_bincode() {
    let config = bincode::config::standard();
    for bytes in inputs(7, 200_000) {
        let theirs = bincode::decode_from_slice::<u64, _>(&bytes, config);
        match Bincode::decode(&bytes) {
            Ok(ours) => assert_eq!(theirs.ok(), Some(ours), "{bytes:02x?}"),
            Err(_) => assert!(theirs.is_err(), "{bytes:02x?}"),
        }
    }
    let mut rng = StdRng::seed_from_u64(8);
    for _ in 0..100_000 {
        let v = spread(&mut rng);
        assert_eq!(
            enc::<Bincode>(v),
            bincode::encode_to_vec(v, config).unwrap(),
            "{v}"
        );
        // Signed: zigzag, then the unsigned varint.
        let s = v as i64;
        assert_eq!(
            enc::<Bincode>(zigzag::encode(s)),
            bincode::encode_to_vec(s, config).unwrap(),
            "{s}"
        );
    }
}
