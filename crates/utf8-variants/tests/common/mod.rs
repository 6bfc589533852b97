//! What the test files share: the encodings with their oracle rules, every
//! way the crate validates, and a generator of interesting inputs.
#![allow(dead_code)] // Each test file uses part of it.

use codec_testdata::variants::{self as oracle, Rules};
use rand::{Rng, RngCore};
use utf8_variants::{Error, Variant};

/// The three relatives with their oracle's rules.
pub(crate) const VARIANTS: [(Variant, Rules); 3] = [
    (Variant::Cesu8, oracle::CESU8),
    (Variant::Mutf8, oracle::MUTF8),
    (Variant::Wtf8, oracle::WTF8),
];

/// A validator under test.
pub(crate) type Check = Box<dyn Fn(&[u8]) -> Result<(), Error>>;

/// Every way the crate validates `v`: one call (dispatched), the scalar
/// DFA, `is_valid` (as a yes or no), and streaming byte by byte, in two
/// halves and in chunks of 7.
pub(crate) fn validators(v: Variant) -> Vec<(&'static str, Check)> {
    let mut out: Vec<(&'static str, Check)> = vec![
        ("validate", Box::new(move |b| v.validate(b))),
        ("scalar", Box::new(move |b| v.validate_scalar(b))),
        ("stream-1", Box::new(move |b| stream(v, b, &mut |_| 1))),
        (
            "stream-halves",
            Box::new(move |b| {
                let half = b.len() / 2;
                stream(v, b, &mut |left| if left == b.len() { half } else { left })
            }),
        ),
        ("stream-7", Box::new(move |b| stream(v, b, &mut |_| 7))),
    ];
    // Every SIMD kernel of utf8-simd's registry this CPU runs, named.
    for k in utf8_simd::kernels() {
        if v.validate_with_kernel(k, b"").is_some() {
            let name: &'static str = Box::leak(format!("kernel[{}]", k.name()).into_boxed_str());
            out.push((
                name,
                Box::new(move |b| v.validate_with_kernel(k, b).unwrap()),
            ));
        }
    }
    out.push((
        "is_valid",
        Box::new(move |b| {
            // As a yes or no, against the exact answer.
            let exact = v.validate(b);
            assert_eq!(v.is_valid(b), exact.is_ok(), "{v} is_valid {b:02X?}");
            exact
        }),
    ));
    out
}

/// Streams `input` in chunks whose sizes `next(left)` chooses (from the
/// bytes left), checking the streaming contract on the way: errors only
/// from the update whose chunk holds the proving byte, and sticky.
pub(crate) fn stream(
    v: Variant,
    input: &[u8],
    next: &mut dyn FnMut(usize) -> usize,
) -> Result<(), Error> {
    let mut val = v.validator();
    let mut at = 0;
    while at < input.len() {
        let n = next(input.len() - at).clamp(1, input.len() - at);
        let r = val.update(&input[at..at + n]);
        at += n;
        if let Err(e) = r {
            // Sticky.
            assert_eq!(val.update(b"x"), Err(e));
            assert_eq!(val.clone().finish(), Err(e));
            return Err(e);
        }
    }
    val.finish()
}

/// Streams `input` cut at random points.
pub(crate) fn stream_random(v: Variant, input: &[u8], rng: &mut impl RngCore) -> Result<(), Error> {
    let mut sizes = Vec::new();
    let mut left = input.len();
    while left > 0 {
        let n = rng.random_range(1..=left.min(70));
        sizes.push(n);
        left -= n;
    }
    let mut it = sizes.into_iter();
    stream(v, input, &mut |_| it.next().unwrap_or(1))
}

/// `(valid_up_to, error_len)` of a result.
pub(crate) fn position(r: Result<(), Error>) -> Result<(), (usize, Option<usize>)> {
    r.map_err(|e| (e.valid_up_to(), e.error_len()))
}

/// A piece of an interesting input.
fn piece(rng: &mut impl RngCore, out: &mut Vec<u8>) {
    let c = |rng: &mut dyn RngCore, lo: u32, hi: u32| {
        char::from_u32(rng.random_range(lo..=hi)).unwrap_or('x')
    };
    let mut buf = [0; 4];
    match rng.random_range(0..20) {
        0..=4 => out.push(rng.random_range(0x20..0x7F)),
        5 => out.extend_from_slice(c(rng, 0x80, 0x7FF).encode_utf8(&mut buf).as_bytes()),
        6 => out.extend_from_slice(c(rng, 0x800, 0xD7FF).encode_utf8(&mut buf).as_bytes()),
        7 => out.extend_from_slice(c(rng, 0xE000, 0xFFFF).encode_utf8(&mut buf).as_bytes()),
        8 => out.extend_from_slice(c(rng, 0x10000, 0x10FFFF).encode_utf8(&mut buf).as_bytes()),
        9 | 10 => {
            // A lead surrogate, often followed by its trail.
            let hi = rng.random_range(0xD800..=0xDBFFu32);
            out.extend_from_slice(&surrogate(hi));
            if rng.random_bool(0.7) {
                out.extend_from_slice(&surrogate(rng.random_range(0xDC00..=0xDFFF)));
            }
        }
        11 => out.extend_from_slice(&surrogate(rng.random_range(0xDC00..=0xDFFF))),
        12 => out.extend_from_slice(&[0xC0, 0x80]),
        13 => out.push(0),
        14 => out.push(rng.random()),
        15 => out.push(rng.random_range(0x80..=0xBF)),
        16 => out.extend_from_slice(&[0xEF, 0xBB, 0xBF]),
        17 => {
            // A character cut short.
            let s = c(rng, 0x80, 0x10FFFF)
                .encode_utf8(&mut buf)
                .as_bytes()
                .to_vec();
            let n = rng.random_range(1..s.len().max(2));
            out.extend_from_slice(&s[..n.min(s.len())]);
        }
        _ => out.push(b' '),
    }
}

/// The 3-byte generalized UTF-8 form of a surrogate.
pub(crate) fn surrogate(u: u32) -> [u8; 3] {
    [
        0xE0 | (u >> 12) as u8,
        0x80 | ((u >> 6) & 0x3F) as u8,
        0x80 | (u & 0x3F) as u8,
    ]
}

/// An input made of `n` random pieces.
pub(crate) fn interesting(rng: &mut impl RngCore, n: usize) -> Vec<u8> {
    let mut out = Vec::new();
    for _ in 0..n {
        piece(rng, &mut out);
    }
    out
}

/// Whether the encoding means the same as UTF-8 on `input`: it holds no
/// byte the encoding treats differently (surrogates' `ED A0..=BF`; for
/// CESU-8 and MUTF-8 the 4-byte leads; for MUTF-8 `00` and `C0`). Then the
/// exact error is std's.
pub(crate) fn same_as_utf8(v: Variant, input: &[u8]) -> bool {
    let surrogate = input.windows(2).any(|w| w[0] == 0xED && w[1] >= 0xA0);
    let four = matches!(v, Variant::Cesu8 | Variant::Mutf8)
        && input.iter().any(|&b| (0xF0..=0xF4).contains(&b));
    let nul = v == Variant::Mutf8 && input.iter().any(|&b| b == 0 || b == 0xC0);
    !surrogate && !four && !nul
}
