//! CESU-8's surrogate pairs to UTF-8 and back, four characters a register:
//! the conversions of text whose characters are all supplementary (emoji,
//! CJK Extension B), which CESU-8 and Modified UTF-8 write as 6-byte pairs
//! `ED A0..AF 80..BF ED B0..BF 80..BF` and UTF-8 as 4 bytes.
//!
//! To UTF-8 (`pairs_to_utf8`):
//!
//! Per pass: two 16-byte loads, 12 bytes apart, hold two pairs each at
//! their start; a byte shuffle of each gathers the four bytes that carry
//! bits (`hi1 hi2 lo1 lo2`) of each pair into a 32-bit lane; the lanes'
//! bit fields move as [`lanes_to_utf8`] says (the formula of utf8-variants'
//! scalar loop, a pair at a time); one 16-byte store. The pass
//! tests the first two bytes of each pair (`ED`, then `A0..=AF`: a lead
//! surrogate) and stops before a block that has anything else; the other
//! four bytes are not checked, valid input having the lead's trail there.
//! (Zen 4, 64 KiB of Emoji as CESU-8, callgrind: 557K instructions a call
//! in the scalar loop, a pair an iteration; see
//! docs/results/utf8-variants.md, "Decisions and dead ends".)
//!
//! From UTF-8 (`utf8_to_pairs`): one 16-byte load of four 4-byte
//! characters (each lane's first byte tested for `F0..=F7`, the rest, valid
//! input's continuation bytes, not); the bit fields of each lane move into
//! `1010vvvv 10wwwwww 1011xxxx 10yyyyyy` ([`lanes_to_pairs`]); two byte
//! shuffles spread the lanes to 6 bytes each and put the `ED`s in; a
//! 16-byte and an 8-byte store.
//!
//! Both are written once over codec-arch's [`Simd`] with a 16-byte token:
//! x86-64's `Sse41` (compiled into the SSE4.1 kernel, and with AVX2's
//! features, VEX-encoded, into the AVX2 and AVX-512 ones) and aarch64's
//! `Neon`.

use codec_arch::Simd;

/// The bytes each pass reads: two 16-byte loads at 0 and 12.
pub(crate) const READ: usize = 28;

/// The bytes each pass converts (four pairs) and writes.
const PAIRS_IN: usize = 24;
const PAIRS_OUT: usize = 16;

/// The bit fields of four pairs, one a 32-bit lane `hi1 hi2 lo1 lo2`
/// (little-endian), moved into their UTF-8 form: `11110ppp 10ppwwww
/// 10wwxxxx 10yyyyyy` from `1010vvvv 10wwwwww 1011xxxx 10yyyyyy`, `ppppp =
/// vvvv + 1`.
#[inline(always)]
fn lanes_to_utf8<S: Simd>(s: S, v: S::V) -> S::V {
    let plane = s.add32(s.and(v, s.splat32(0x0F)), s.splat32(1));
    s.or(
        s.or(
            s.or(
                s.shr32::<2>(plane),
                s.and(s.shl32::<12>(plane), s.splat32(0x3000)),
            ),
            s.or(
                s.and(s.shr32::<2>(v), s.splat32(0x0F00)),
                s.and(s.shl32::<12>(v), s.splat32(0x0030_0000)),
            ),
        ),
        s.or(s.and(v, s.splat32(0xFF0F_0000)), s.splat32(0x0080_80F0)),
    )
}

/// The bytes each pass of `utf8_to_pairs` reads (four characters) and
/// writes (four pairs).
const CHARS_IN: usize = 16;
const CHARS_OUT: usize = 24;

/// The bit fields of four 4-byte UTF-8 characters, one a 32-bit lane
/// `11110ppp 10ppwwww 10wwxxxx 10yyyyyy` (little-endian), moved into the
/// four bytes of their surrogate pair that carry bits, `1010vvvv 10wwwwww
/// 1011xxxx 10yyyyyy` with `vvvv = ppppp - 1` (the `ED`s are the
/// shuffle's). The inverse of [`lanes_to_utf8`].
#[inline(always)]
fn lanes_to_pairs<S: Simd>(s: S, v: S::V) -> S::V {
    let high = s.shr32::<12>(v);
    let plane = s.or(
        s.shl32::<2>(s.and(v, s.splat32(0x07))),
        s.and(high, s.splat32(0x03)),
    );
    s.or(
        s.or(s.sub32(plane, s.splat32(1)), s.splat32(0x00B0_80A0)),
        s.or(
            s.or(
                s.and(s.shl32::<2>(v), s.splat32(0x3C00)),
                s.and(high, s.splat32(0x0300)),
            ),
            s.and(v, s.splat32(0xFF0F_0000)),
        ),
    )
}

/// Where the shuffles of `utf8_to_pairs` take each output byte from (lane
/// bytes 0..16; 0x80 and up: zero, for the `ED`s and the unused bytes), and
/// the `ED`s ORed in after them: the first 16 bytes of the four pairs, then
/// the last 8.
const PAIRS_LO: [u8; 16] = [
    0x80, 0, 1, 0x80, 2, 3, 0x80, 4, 5, 0x80, 6, 7, 0x80, 8, 9, 0x80,
];
const PAIRS_HI: [u8; 16] = [
    10, 11, 0x80, 12, 13, 0x80, 14, 15, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80,
];
const ED_LO: [u8; 16] = [
    0xED, 0, 0, 0xED, 0, 0, 0xED, 0, 0, 0xED, 0, 0, 0xED, 0, 0, 0xED,
];
const ED_HI: [u8; 16] = [0, 0, 0xED, 0, 0, 0xED, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0];

/// For `pairs_to_utf8`: pair k of a load (k = 0, 1) is its bytes 6k..6k+6;
/// lane k (first load) or 2 + k (second) takes bytes 6k + 1, 2, 4, 5.
const FIRST: [u8; 16] = [
    1, 2, 4, 5, 7, 8, 10, 11, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,
];
const SECOND: [u8; 16] = [
    0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 1, 2, 4, 5, 7, 8, 10, 11,
];
/// The first two bytes of each pair of a load, `ED A0..=AF`, and the bits
/// of them that are fixed.
const LEAD: [u8; 16] = [0xED, 0xA0, 0, 0, 0, 0, 0xED, 0xA0, 0, 0, 0, 0, 0, 0, 0, 0];
const LEAD_MASK: [u8; 16] = [0xFF, 0xF0, 0, 0, 0, 0, 0xFF, 0xF0, 0, 0, 0, 0, 0, 0, 0, 0];

/// The passes of `utf8_to_pairs` over `input` and `out` while both have
/// room and the four characters of the next pass start with `F0..=F7`;
/// `(read, written)`. `s` is a 16-byte token.
#[inline(always)]
pub(crate) fn to_pairs<S: Simd>(s: S, input: &[u8], out: &mut [u8]) -> (usize, usize) {
    const { assert!(S::BYTES == 16) };
    let (mut i, mut w) = (0, 0);
    let (lo, hi) = (s.broadcast16(&PAIRS_LO), s.broadcast16(&PAIRS_HI));
    let (ed_lo, ed_hi) = (s.broadcast16(&ED_LO), s.broadcast16(&ED_HI));
    while input.len() - i >= CHARS_IN && out.len() - w >= CHARS_OUT {
        // SAFETY: 16 bytes at `i`, `i + CHARS_IN <= input.len()`.
        let v = unsafe { s.load(input.as_ptr().add(i)) };
        // Each lane's first byte `F0..=F7`: its top five bits `11110`.
        let off = s.xor(s.and(v, s.splat32(0xF8)), s.splat32(0xF0));
        if s.test_any(off, off) {
            break;
        }
        let lanes = lanes_to_pairs(s, v);
        let first = s.or(s.shuffle8(lanes, lo), ed_lo);
        let last = s.or(s.shuffle8(lanes, hi), ed_hi);
        // SAFETY: 16 bytes at `w` and 8 at `w + 16`, `w + CHARS_OUT <=
        // out.len()`.
        unsafe {
            s.store(out.as_mut_ptr().add(w), first);
            s.store_half(out.as_mut_ptr().add(w + 16), last);
        }
        i += CHARS_IN;
        w += CHARS_OUT;
    }
    (i, w)
}

/// The passes of `pairs_to_utf8` over `input` and `out` while both have
/// room and the pairs start `ED A0..=AF`; `(read, written)`. `s` is a
/// 16-byte token.
#[inline(always)]
pub(crate) fn to_utf8<S: Simd>(s: S, input: &[u8], out: &mut [u8]) -> (usize, usize) {
    const { assert!(S::BYTES == 16) };
    let (mut i, mut w) = (0, 0);
    let (first, second) = (s.broadcast16(&FIRST), s.broadcast16(&SECOND));
    let (lead, lead_mask) = (s.broadcast16(&LEAD), s.broadcast16(&LEAD_MASK));
    while input.len() - i >= READ && out.len() - w >= PAIRS_OUT {
        // SAFETY: 16 bytes at `i` and at `i + 12`, `i + READ <=
        // input.len()`, `READ = 28`.
        let (a, b) = unsafe {
            (
                s.load(input.as_ptr().add(i)),
                s.load(input.as_ptr().add(i + 12)),
            )
        };
        let off = s.or(
            s.and(s.xor(a, lead), lead_mask),
            s.and(s.xor(b, lead), lead_mask),
        );
        if s.test_any(off, off) {
            break;
        }
        let lanes = s.or(s.shuffle8(a, first), s.shuffle8(b, second));
        // SAFETY: 16 bytes at `w`, `w + PAIRS_OUT <= out.len()`.
        unsafe { s.store(out.as_mut_ptr().add(w), lanes_to_utf8(s, lanes)) };
        i += PAIRS_IN;
        w += PAIRS_OUT;
    }
    (i, w)
}

#[cfg(target_arch = "x86_64")]
pub(crate) mod x86 {
    //! The x86-64 entry points: the passes with the `Sse41` token, compiled
    //! into each x86-64 kernel's features.

    use codec_arch::Simd;
    use codec_arch::x86_64::{Avx2, Sse41};

    codec_arch::enable! { avx2;
        /// [`to_pairs`](super::to_pairs) compiled with AVX2 (VEX encoding),
        /// for the AVX2 and AVX-512 kernels.
        ///
        /// # Safety
        ///
        /// The CPU has AVX2.
        pub(crate) unsafe fn avx2_to_pairs(input: &[u8], out: &mut [u8]) -> (usize, usize) {
            super::to_pairs(Avx2::new().base(), input, out)
        }
    }

    codec_arch::enable! { sse41;
        /// [`to_pairs`](super::to_pairs) for the SSE4.1 kernel.
        ///
        /// # Safety
        ///
        /// The CPU has SSSE3 and SSE4.1.
        pub(crate) unsafe fn sse41_to_pairs(input: &[u8], out: &mut [u8]) -> (usize, usize) {
            super::to_pairs(Sse41::new(), input, out)
        }
    }

    codec_arch::enable! { avx2;
        /// [`to_utf8`](super::to_utf8) compiled with AVX2 (VEX encoding),
        /// for the AVX2 and AVX-512 kernels.
        ///
        /// # Safety
        ///
        /// The CPU has AVX2.
        pub(crate) unsafe fn avx2_to_utf8(input: &[u8], out: &mut [u8]) -> (usize, usize) {
            super::to_utf8(Avx2::new().base(), input, out)
        }
    }

    codec_arch::enable! { sse41;
        /// [`to_utf8`](super::to_utf8) for the SSE4.1 kernel.
        ///
        /// # Safety
        ///
        /// The CPU has SSSE3 and SSE4.1.
        pub(crate) unsafe fn sse41_to_utf8(input: &[u8], out: &mut [u8]) -> (usize, usize) {
            super::to_utf8(Sse41::new(), input, out)
        }
    }
}

/// The NEON entry points: NEON is part of the target wherever this module
/// is compiled.
#[cfg(all(target_arch = "aarch64", target_feature = "neon"))]
pub(crate) mod neon {
    use codec_arch::aarch64::Neon;

    /// `pairs_to_utf8`'s passes.
    pub(crate) fn to_utf8(input: &[u8], out: &mut [u8]) -> (usize, usize) {
        // SAFETY: NEON is part of this target (the `cfg` above).
        super::to_utf8(unsafe { Neon::new() }, input, out)
    }

    /// `utf8_to_pairs`'s passes.
    pub(crate) fn to_pairs(input: &[u8], out: &mut [u8]) -> (usize, usize) {
        // SAFETY: as in `to_utf8`.
        super::to_pairs(unsafe { Neon::new() }, input, out)
    }
}
