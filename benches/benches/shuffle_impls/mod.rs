//! The inputs and the peers' calls of the Stream VByte and Group Varint
//! benchmarks, shared by `varint_shuffle.rs` (minimum of interleaved
//! rounds) and `varint.rs` (criterion).

#![allow(dead_code)] // Each bench file uses its own subset.

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

pub(crate) const COUNT: usize = 4096;

/// The inputs: one-byte values, a uniformly random byte length (1–4), and
/// uniformly random `u32`s (almost all 4 bytes).
pub(crate) fn distributions() -> Vec<(&'static str, Vec<u32>)> {
    let mut rng = StdRng::seed_from_u64(0x5EED_5B7E);
    let mut gen_values = |f: &mut dyn FnMut(&mut StdRng) -> u32| -> Vec<u32> {
        (0..COUNT).map(|_| f(&mut rng)).collect()
    };
    vec![
        ("1byte", gen_values(&mut |r| r.random_range(0..256))),
        (
            "uniform-len",
            gen_values(&mut |r| {
                let len = r.random_range(1..=4u32);
                let lo = if len == 1 { 0 } else { 1u32 << (8 * (len - 1)) };
                let hi = if len == 4 {
                    u32::MAX
                } else {
                    (1u32 << (8 * len)) - 1
                };
                r.random_range(lo..=hi)
            }),
        ),
        ("uniform-u32", gen_values(&mut |r| r.random())),
    ]
}

#[cfg(not(all(target_arch = "x86_64", feature = "stream-vbyte-simd")))]
use stream_vbyte::scalar::{Scalar as SvDecoder, Scalar as SvEncoder};
#[cfg(all(target_arch = "x86_64", feature = "stream-vbyte-simd"))]
use stream_vbyte::x86::{Sse41 as SvEncoder, Ssse3 as SvDecoder};

pub(crate) fn stream_vbyte_decode(input: &[u8], out: &mut [u32]) -> usize {
    stream_vbyte::decode::decode::<SvDecoder>(input, out.len(), out)
}

pub(crate) fn stream_vbyte_encode(values: &[u32], out: &mut [u8]) -> usize {
    stream_vbyte::encode::encode::<SvEncoder>(values, out)
}
