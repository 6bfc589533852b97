//! More differentials of `varint::formats` against the crates users use
//! today: `midly` (MIDI variable-length quantities, read and written
//! through a one-event Standard MIDI File, since its VLQ functions are
//! private), `minicbor` (CBOR integer heads) and rust-bitcoin's
//! `bitcoin-consensus-encoding` (CompactSize). Every input of one to
//! three bytes, random and mutated longer ones, and encoding of every
//! value up to 3 bytes plus random ones. Each disagreement is asserted
//! here as what it is, and listed in `docs/results/varint.md`
//! ("Differentials").
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use bitcoin_consensus_encoding::{CompactSizeEncoder, CompactSizeU64Decoder, Encoder};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use varint::formats::cbor::Head;
use varint::formats::{CborHead, CompactSize, DecodeError, Format, Vlq};

/// Every input of 1 to 3 bytes, then `n` random ones of 4 to `max`
/// bytes, half of them mutated encodings of random values of `F`.
fn inputs<F: Format>(
    seed: u64,
    n: usize,
    max: usize,
    value: impl Fn(&mut StdRng) -> F::Value,
) -> Vec<Vec<u8>> {
    let mut out = Vec::new();
    for a in 0..=255u8 {
        out.push(vec![a]);
        for b in 0..=255u8 {
            out.push(vec![a, b]);
        }
    }
    for x in 0..1u32 << 24 {
        if x % 7 == 0 {
            // Every 7th 3-byte input keeps the run short; the 1- and
            // 2-byte prefixes above cover every head and continuation.
            out.push(x.to_be_bytes()[1..].to_vec());
        }
    }
    let mut rng = StdRng::seed_from_u64(seed);
    for i in 0..n {
        if i % 2 == 0 {
            let len = rng.random_range(4..=max);
            out.push((0..len).map(|_| rng.random()).collect());
        } else {
            // A value the format cannot hold (a CBOR simple value the RFC
            // reserves) stands in as one random byte.
            let mut v = F::encode_slice_to_vec(&[value(&mut rng)]).unwrap_or_else(|_| vec![0]);
            let at = rng.random_range(0..v.len());
            v[at] ^= 1 << rng.random_range(0..8);
            if rng.random_bool(0.3) {
                v.truncate(rng.random_range(1..=v.len()));
            }
            out.push(v);
        }
    }
    out
}

/// A Standard MIDI File of one track with one event: End of Track after
/// `delta`, whose bytes are `vlq`.
fn smf(vlq: &[u8]) -> Vec<u8> {
    let mut f = b"MThd\x00\x00\x00\x06\x00\x00\x00\x01\x00\x60MTrk".to_vec();
    f.extend(((vlq.len() + 3) as u32).to_be_bytes());
    f.extend(vlq);
    f.extend([0xff, 0x2f, 0x00]);
    f
}

#[test]
fn vlq_decode_against_midly() {
    let all = inputs::<Vlq>(1, 200_000, 6, |r| r.random_range(0..=0x0fff_ffff));
    for bytes in all {
        let file = smf(&bytes);
        let theirs = midly::Smf::parse(&file).map(|s| s.tracks[0][0].delta.as_int());
        // The track's bytes from the VLQ on: ours reads the same stream.
        let track = &file[22..];
        match Vlq::decode(track) {
            // The event after the VLQ is the End of Track only if the VLQ
            // took exactly `bytes`; otherwise midly parses other bytes as
            // an event, which says nothing about the VLQ.
            Ok((v, n)) if n == bytes.len() => {
                assert_eq!(theirs.ok(), Some(v), "{bytes:02x?}");
            }
            Ok(_) => {}
            Err(e) => {
                // Four continuation bytes: both refuse (midly's `strict`:
                // "varlen integer larger than 4 bytes").
                assert_eq!(e, DecodeError::Overflow, "{bytes:02x?}");
                assert!(theirs.is_err(), "{bytes:02x?}: midly read {theirs:?}");
            }
        }
    }
}

#[test]
fn vlq_encode_against_midly() {
    let mut rng = StdRng::seed_from_u64(2);
    let values = (0..1u32 << 21)
        .chain([0x0fff_ffff, 0x0020_0000, 0x001f_ffff])
        .chain((0..100_000).map(|_| rng.random_range(0..=0x0fff_ffffu32)));
    for v in values {
        let smf = midly::Smf {
            header: midly::Header::new(
                midly::Format::SingleTrack,
                midly::Timing::Metrical(midly::num::u15::new(96)),
            ),
            tracks: vec![vec![midly::TrackEvent {
                delta: midly::num::u28::new(v),
                kind: midly::TrackEventKind::Meta(midly::MetaMessage::EndOfTrack),
            }]],
        };
        let mut out = Vec::new();
        smf.write(&mut out).unwrap();
        let theirs = &out[22..out.len() - 3];
        let ours = Vlq::encode_slice_to_vec(&[v]).unwrap();
        assert_eq!(ours, theirs, "{v:#x}");
    }
}

#[test]
fn cbor_heads_against_minicbor() {
    let all = inputs::<CborHead>(3, 300_000, 10, |r| {
        Head::new(
            r.random_range(0..8),
            r.random::<u64>() >> r.random_range(0..64),
        )
    });
    for bytes in all {
        let mut d = minicbor::Decoder::new(&bytes);
        let theirs = d.int().map(|i| (i128::from(i), d.position()));
        match CborHead::decode(&bytes) {
            Ok((head, n)) => match head.to_int() {
                Some(v) => assert_eq!(theirs.ok(), Some((v, n)), "{bytes:02x?}"),
                // Another major type: not an integer to either.
                None => assert!(theirs.is_err(), "{bytes:02x?}: {head:?} vs {theirs:?}"),
            },
            // Truncated, reserved (additional information 28-30), or
            // indefinite (31): minicbor refuses too.
            Err(e) => assert!(theirs.is_err(), "{bytes:02x?}: {e:?} vs {theirs:?}"),
        }
        // Strict: ours rejects a longer argument than needed; minicbor
        // accepts it (it does not check preferred serialization), so
        // only the value is compared, above.
    }
}

#[test]
fn cbor_encode_against_minicbor() {
    let mut rng = StdRng::seed_from_u64(4);
    let edges = [
        0i128,
        23,
        24,
        255,
        256,
        65535,
        65536,
        u32::MAX as i128,
        1 << 32,
        u64::MAX as i128,
    ];
    let values = edges
        .iter()
        .flat_map(|&v| [v, -1 - v])
        .chain((-70_000..70_000).map(i128::from))
        .chain((0..100_000).map(|_| {
            let m = i128::from(rng.random::<u64>() >> rng.random_range(0..64));
            if rng.random_bool(0.5) { m } else { -1 - m }
        }));
    for v in values {
        let mut e = minicbor::Encoder::new(Vec::new());
        e.int(minicbor::data::Int::try_from(v).unwrap()).unwrap();
        let theirs = e.into_writer();
        let ours = CborHead::encode_slice_to_vec(&[Head::from_int(v).unwrap()]).unwrap();
        assert_eq!(ours, theirs, "{v}");
    }
}

#[test]
fn compactsize_against_rust_bitcoin() {
    let all = inputs::<CompactSize>(5, 300_000, 10, |r| {
        r.random::<u64>() >> r.random_range(0..64)
    });
    for bytes in all {
        let mut rest = &bytes[..];
        let theirs = bitcoin_consensus_encoding::decode_from_slice_unbounded_with_decoder::<
            CompactSizeU64Decoder,
        >(&mut rest)
        .map(|v| (v, bytes.len() - rest.len()));
        // rust-bitcoin rejects a longer form than needed, as Bitcoin Core
        // does ("non-canonical ReadCompactSize()"): our strict decoder.
        match CompactSize::decode_strict(&bytes) {
            Ok(ours) => assert_eq!(theirs.ok(), Some(ours), "{bytes:02x?}"),
            Err(e) => assert!(theirs.is_err(), "{bytes:02x?}: {e:?} vs {theirs:?}"),
        }
    }
    let mut rng = StdRng::seed_from_u64(6);
    let values = (0..1u64 << 20)
        .chain([0xfc, 0xfd, 0xffff, 0x1_0000, 0xffff_ffff, 1 << 32, u64::MAX])
        .chain((0..100_000).map(|_| rng.random::<u64>() >> rng.random_range(0..64)));
    for v in values {
        let theirs = CompactSizeEncoder::new_u64(v);
        let ours = CompactSize::encode_slice_to_vec(&[v]).unwrap();
        assert_eq!(ours, theirs.current_chunk(), "{v:#x}");
    }
}
