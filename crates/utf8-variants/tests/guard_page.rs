//! Over-read detection on real hardware: every entry point of the crate
//! reads inputs that end exactly at (or start exactly after) a `PROT_NONE`
//! guard page, at every length 0..=256, valid and invalid in each encoding.
//! A read one byte outside the slice (a SIMD register past a short tail, a
//! scalar look-ahead at a surrogate pair, a look-back for a lead surrogate)
//! kills the test with SIGSEGV. Answers are compared with those on an
//! ordinary copy, so an entry point that "handles" the edge by giving up is
//! caught too.
//!
//! Linux only: the guard pages come from `codec_testdata::guard`.
// Test helpers unwrap and panic: that is how a test fails.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
#![cfg(target_os = "linux")]

use codec_testdata::guard::{GuardedBuf, boundary_inputs};
use utf8_variants::{Bom, BomPolicy, Config, Variant, wtf8};
#[cfg(feature = "alloc")]
use utf8_variants::{cesu8, mutf8};

const MAX_LEN: usize = 256;

/// Everything the crate does with bytes, as comparable text.
fn every_entry_point(input: &[u8]) -> String {
    let mut out = String::new();
    for v in Variant::ALL {
        out += &format!("{v}: {:?} {:?} ", v.validate(input), v.is_valid(input));
        out += &format!("{:?} ", v.validate_scalar(input));
        let reject = Config::new(v).with_bom(BomPolicy::Reject);
        out += &format!("{:?} {:?} ", reject.validate(input), reject.is_valid(input));
        // Streaming, in two chunks cut in the middle.
        let mut s = reject.validator();
        let (a, b) = input.split_at(input.len() / 2);
        let r = s.update(a).and_then(|()| s.update(b));
        out += &format!("{r:?} {:?}\n", s.finish());
    }
    // The conversions need `alloc`; the rest runs in every build.
    #[cfg(feature = "alloc")]
    {
        out += &format!(
            "{:?} {:?}\n",
            cesu8::decode(input),
            cesu8::decode_lossy(input)
        );
        out += &format!(
            "{:?} {:?}\n",
            mutf8::decode(input),
            mutf8::decode_lossy(input)
        );
        out += &format!(
            "{:?} {:?}\n",
            wtf8::to_utf16_vec(input),
            wtf8::to_utf8_lossy(input)
        );
    }
    out += &format!("{:?}\n", wtf8::encode_utf16(input).map(|u| u.count()));
    // Decoding with every kernel (utf8-simd's BMP check, then the exact
    // path from where it stopped).
    #[cfg(feature = "alloc")]
    for k in utf8_simd::kernels() {
        for v in [Variant::Cesu8, Variant::Mutf8] {
            if let Some(r) = v.decode_with_kernel(k, input) {
                out += &format!("{} {v}: {r:?}\n", k.name());
            }
        }
    }
    out += &format!("{:?}\n", Bom::strip(input));
    #[cfg(feature = "alloc")]
    if let Ok(s) = core::str::from_utf8(input) {
        out += &format!("{:?} {:?}\n", cesu8::encode(s), mutf8::encode(s));
    }
    out
}

/// The inputs: the workspace's UTF-8 boundary inputs, plus surrogates,
/// pairs, `C0 80` and `00` at the start and at the end of every length.
fn inputs(f: &mut dyn FnMut(&[u8])) {
    boundary_inputs(MAX_LEN, &mut *f);
    let pieces: &[&[u8]] = &[
        b"\xED\xA0\x80\xED\xB0\x80",
        b"\xED\xA0\x80",
        b"\xED\xA0",
        b"\xED",
        b"\xED\xA0\x80\xED",
        b"\xED\xA0\x80\xED\xB0",
        b"\xED\xB0\x80",
        b"\xC0\x80",
        b"\xC0",
        b"\x00",
        b"\xEF\xBB\xBF",
        b"\xFF\xFE\x00\x00",
    ];
    for len in 0..=MAX_LEN {
        for piece in pieces {
            if piece.len() <= len {
                let mut buf = vec![b'a'; len - piece.len()];
                buf.extend_from_slice(piece);
                f(&buf);
                let mut buf = piece.to_vec();
                buf.resize(len, b'a');
                f(&buf);
            }
        }
    }
}

#[test]
fn no_entry_point_reads_outside_its_slice() {
    let mut end = GuardedBuf::new(MAX_LEN + 8);
    let mut start = GuardedBuf::new(MAX_LEN + 8);
    let mut count = 0;
    // Under emulation (the aarch64 lane), every third input.
    let step = if codec_testdata::emulated() { 3 } else { 1 };
    let mut seen = 0;
    inputs(&mut |input| {
        seen += 1;
        if seen % step != 0 {
            return;
        }
        let want = every_entry_point(input);
        assert_eq!(every_entry_point(end.at_end(input)), want, "{input:02X?}");
        assert_eq!(
            every_entry_point(start.at_start(input)),
            want,
            "{input:02X?}"
        );
        count += 1;
    });
    assert!(count > 10_000 / step, "{count}");
}

/// Runs of surrogate pairs long enough for the kernels' pairs mode (a
/// group of 256 bytes of pairs after a group of the full check), cut at
/// every length from 512 to 832 bytes, after 0 to 2 bytes of ASCII: the
/// mode's groups and its look-back for a lead end at the slice's edges.
#[test]
fn runs_of_surrogate_pairs_read_nothing_outside_their_slice() {
    const LONG: usize = 840;
    let mut end = GuardedBuf::new(LONG + 8);
    let mut start = GuardedBuf::new(LONG + 8);
    let pairs = b"\xED\xA0\xBD\xED\xB8\x80".repeat(LONG / 6);
    let step = if codec_testdata::emulated() { 5 } else { 1 };
    let mut count = 0;
    for prefix in 0..3 {
        for len in (512..=832).step_by(step) {
            let mut input = vec![b'a'; prefix];
            input.extend_from_slice(&pairs[..len - prefix]);
            let want = every_entry_point(&input);
            assert_eq!(
                every_entry_point(end.at_end(&input)),
                want,
                "{prefix} {len}"
            );
            assert_eq!(
                every_entry_point(start.at_start(&input)),
                want,
                "{prefix} {len}"
            );
            count += 1;
        }
    }
    assert!(count >= 3 * 320 / step, "{count}");
}
