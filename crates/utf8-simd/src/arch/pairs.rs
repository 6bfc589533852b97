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
//! bit fields move as `lanes_to_utf8!` says (the formula of utf8-variants'
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

/// The bytes each pass reads: two 16-byte loads at 0 and 12.
pub(crate) const READ: usize = 28;

/// The bytes each pass converts (four pairs) and writes.
const PAIRS_IN: usize = 24;
const PAIRS_OUT: usize = 16;

/// The bit fields of four pairs, one a 32-bit lane `hi1 hi2 lo1 lo2`
/// (little-endian), moved into their UTF-8 form: `11110ppp 10ppwwww
/// 10wwxxxx 10yyyyyy` from `1010vvvv 10wwwwww 1011xxxx 10yyyyyy`, `ppppp =
/// vvvv + 1`. Written once over a lane type `V` with the operations it
/// needs, for SSE and NEON.
macro_rules! lanes_to_utf8 {
    ($v:expr, $and:ident, $or:ident, $add:ident, $shr:ident, $shl:ident, $splat:ident) => {{
        let v = $v;
        let plane = $add($and(v, $splat(0x0F)), $splat(1));
        $or(
            $or(
                $or($shr!(plane, 2), $and($shl!(plane, 12), $splat(0x3000))),
                $or(
                    $and($shr!(v, 2), $splat(0x0F00)),
                    $and($shl!(v, 12), $splat(0x0030_0000)),
                ),
            ),
            $or($and(v, $splat(0xFF0F_0000)), $splat(0x0080_80F0)),
        )
    }};
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
macro_rules! lanes_to_pairs {
    ($v:expr, $and:ident, $or:ident, $sub:ident, $shr:ident, $shl:ident, $splat:ident) => {{
        let v = $v;
        let high = $shr!(v, 12);
        let plane = $or($shl!($and(v, $splat(0x07)), 2), $and(high, $splat(0x03)));
        $or(
            $or($sub(plane, $splat(1)), $splat(0x00B0_80A0)),
            $or(
                $or(
                    $and($shl!(v, 2), $splat(0x3C00)),
                    $and(high, $splat(0x0300)),
                ),
                $and(v, $splat(0xFF0F_0000)),
            ),
        )
    }};
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

#[cfg(target_arch = "x86_64")]
pub(crate) mod x86 {
    //! The SSE body, compiled into each x86-64 kernel's features.

    use super::{CHARS_IN, CHARS_OUT, ED_HI, ED_LO, PAIRS_HI, PAIRS_IN, PAIRS_LO, PAIRS_OUT, READ};
    use core::arch::x86_64::{
        __m128i, _mm_add_epi32, _mm_and_si128, _mm_cmpeq_epi32, _mm_loadu_si128, _mm_movemask_epi8,
        _mm_or_si128, _mm_set1_epi32, _mm_setr_epi8, _mm_shuffle_epi8, _mm_slli_epi32,
        _mm_srli_epi32, _mm_storel_epi64, _mm_storeu_si128, _mm_sub_epi32, _mm_testz_si128,
        _mm_xor_si128,
    };

    macro_rules! shr {
        ($a:expr, $n:literal) => {
            _mm_srli_epi32::<$n>($a)
        };
    }
    macro_rules! shl {
        ($a:expr, $n:literal) => {
            _mm_slli_epi32::<$n>($a)
        };
    }

    /// `x` in every 32-bit lane.
    #[inline(always)]
    fn splat(x: u32) -> __m128i {
        // SAFETY: SSE2 is part of x86-64.
        unsafe { _mm_set1_epi32(x as i32) }
    }

    /// The passes of `utf8_to_pairs` over `input` and `out` while both have
    /// room and the four characters of the next pass start with `F0..=F7`;
    /// `(read, written)`.
    ///
    /// # Safety
    ///
    /// The CPU has SSSE3 and SSE4.1.
    #[inline(always)]
    unsafe fn to_pairs(input: &[u8], out: &mut [u8]) -> (usize, usize) {
        let (mut i, mut w) = (0, 0);
        // SAFETY: the caller guarantees SSSE3 and SSE4.1; the constant
        // loads read 16-byte arrays; every input load reads 16 bytes at `i`
        // while `i + CHARS_IN <= input.len()`, `CHARS_IN = 16`; the stores
        // write 16 bytes at `w` and 8 at `w + 16` while `w + CHARS_OUT <=
        // out.len()`, `CHARS_OUT = 24`.
        unsafe {
            let lo = _mm_loadu_si128(PAIRS_LO.as_ptr().cast());
            let hi = _mm_loadu_si128(PAIRS_HI.as_ptr().cast());
            let ed_lo = _mm_loadu_si128(ED_LO.as_ptr().cast());
            let ed_hi = _mm_loadu_si128(ED_HI.as_ptr().cast());
            while input.len() - i >= CHARS_IN && out.len() - w >= CHARS_OUT {
                let v = _mm_loadu_si128(input.as_ptr().add(i).cast());
                let leads = _mm_cmpeq_epi32(_mm_and_si128(v, splat(0xF8)), splat(0xF0));
                if _mm_movemask_epi8(leads) != 0xFFFF {
                    break;
                }
                let lanes = lanes_to_pairs!(
                    v,
                    _mm_and_si128,
                    _mm_or_si128,
                    _mm_sub_epi32,
                    shr,
                    shl,
                    splat
                );
                let first = _mm_or_si128(_mm_shuffle_epi8(lanes, lo), ed_lo);
                let last = _mm_or_si128(_mm_shuffle_epi8(lanes, hi), ed_hi);
                _mm_storeu_si128(out.as_mut_ptr().add(w).cast(), first);
                _mm_storel_epi64(out.as_mut_ptr().add(w + 16).cast(), last);
                i += CHARS_IN;
                w += CHARS_OUT;
            }
        }
        (i, w)
    }

    codec_arch::enable! { avx2;
        /// [`to_pairs`] compiled with AVX2 (VEX encoding), for the AVX2 and
        /// AVX-512 kernels.
        ///
        /// # Safety
        ///
        /// The CPU has AVX2.
        pub(crate) unsafe fn avx2_to_pairs(input: &[u8], out: &mut [u8]) -> (usize, usize) {
            // SAFETY: AVX2 implies SSSE3 and SSE4.1.
            unsafe { to_pairs(input, out) }
        }
    }

    codec_arch::enable! { sse41;
        /// [`to_pairs`] for the SSE4.1 kernel.
        ///
        /// # Safety
        ///
        /// The CPU has SSSE3 and SSE4.1.
        pub(crate) unsafe fn sse41_to_pairs(input: &[u8], out: &mut [u8]) -> (usize, usize) {
            // SAFETY: the caller guarantees the features.
            unsafe { to_pairs(input, out) }
        }
    }

    /// The passes of `pairs_to_utf8` over `input` and `out` while both
    /// have room and the pairs start `ED A0..=AF`; `(read, written)`.
    ///
    /// # Safety
    ///
    /// The CPU has SSSE3 and SSE4.1.
    #[inline(always)]
    unsafe fn to_utf8(input: &[u8], out: &mut [u8]) -> (usize, usize) {
        let (mut i, mut w) = (0, 0);
        // SAFETY: the caller guarantees SSSE3 and SSE4.1; every load reads
        // 16 bytes at `i` or `i + 12`, and the loop runs only while
        // `i + READ <= input.len()`, `READ = 28`; every store writes 16
        // bytes at `w`, while `w + PAIRS_OUT <= out.len()`.
        unsafe {
            // Pair k of a load (k = 0, 1) is its bytes 6k..6k+6; lane k
            // (first load) or 2 + k (second) takes bytes 6k + 1, 2, 4, 5.
            let first = _mm_setr_epi8(1, 2, 4, 5, 7, 8, 10, 11, -1, -1, -1, -1, -1, -1, -1, -1);
            let second = _mm_setr_epi8(-1, -1, -1, -1, -1, -1, -1, -1, 1, 2, 4, 5, 7, 8, 10, 11);
            // The first two bytes of each pair, `ED A0..=AF`.
            let lead = _mm_setr_epi8(-19, -96, 0, 0, 0, 0, -19, -96, 0, 0, 0, 0, 0, 0, 0, 0);
            let lead_mask = _mm_setr_epi8(-1, -16, 0, 0, 0, 0, -1, -16, 0, 0, 0, 0, 0, 0, 0, 0);
            while input.len() - i >= READ && out.len() - w >= PAIRS_OUT {
                let a = _mm_loadu_si128(input.as_ptr().add(i).cast());
                let b = _mm_loadu_si128(input.as_ptr().add(i + 12).cast());
                let off = _mm_or_si128(
                    _mm_and_si128(_mm_xor_si128(a, lead), lead_mask),
                    _mm_and_si128(_mm_xor_si128(b, lead), lead_mask),
                );
                if _mm_testz_si128(off, off) == 0 {
                    break;
                }
                let lanes = _mm_or_si128(_mm_shuffle_epi8(a, first), _mm_shuffle_epi8(b, second));
                let utf8 = lanes_to_utf8!(
                    lanes,
                    _mm_and_si128,
                    _mm_or_si128,
                    _mm_add_epi32,
                    shr,
                    shl,
                    splat
                );
                _mm_storeu_si128(out.as_mut_ptr().add(w).cast(), utf8);
                i += PAIRS_IN;
                w += PAIRS_OUT;
            }
        }
        (i, w)
    }

    codec_arch::enable! { avx2;
        /// [`to_utf8`] compiled with AVX2 (VEX encoding), for the AVX2 and
        /// AVX-512 kernels.
        ///
        /// # Safety
        ///
        /// The CPU has AVX2.
        pub(crate) unsafe fn avx2_to_utf8(input: &[u8], out: &mut [u8]) -> (usize, usize) {
            // SAFETY: AVX2 implies SSSE3 and SSE4.1.
            unsafe { to_utf8(input, out) }
        }
    }

    codec_arch::enable! { sse41;
        /// [`to_utf8`] for the SSE4.1 kernel.
        ///
        /// # Safety
        ///
        /// The CPU has SSSE3 and SSE4.1.
        pub(crate) unsafe fn sse41_to_utf8(input: &[u8], out: &mut [u8]) -> (usize, usize) {
            // SAFETY: the caller guarantees the features.
            unsafe { to_utf8(input, out) }
        }
    }
}

/// The NEON bodies: the same passes, with `vqtbl1q_u8` for the shuffles
/// (an index of 16 or more gives zero, as 0x80 does to `pshufb`).
#[cfg(all(target_arch = "aarch64", target_feature = "neon"))]
pub(crate) mod neon {
    use super::{CHARS_IN, CHARS_OUT, ED_HI, ED_LO, PAIRS_HI, PAIRS_IN, PAIRS_LO, PAIRS_OUT, READ};
    use core::arch::aarch64::{
        uint32x4_t, vaddq_u32, vandq_u8, vandq_u32, vceqq_u32, vdupq_n_u32, veorq_u8, vget_low_u8,
        vld1q_u8, vmaxvq_u8, vminvq_u32, vorrq_u8, vorrq_u32, vqtbl1q_u8, vreinterpretq_u8_u32,
        vreinterpretq_u32_u8, vshlq_n_u32, vshrq_n_u32, vst1_u8, vst1q_u8, vsubq_u32,
    };

    macro_rules! shr {
        ($a:expr, $n:literal) => {
            vshrq_n_u32::<$n>($a)
        };
    }
    macro_rules! shl {
        ($a:expr, $n:literal) => {
            vshlq_n_u32::<$n>($a)
        };
    }

    /// `x` in every 32-bit lane.
    #[inline(always)]
    fn splat(x: u32) -> uint32x4_t {
        // SAFETY: NEON is part of this target (the `cfg` above).
        unsafe { vdupq_n_u32(x) }
    }

    /// `pairs_to_utf8`'s passes.
    pub(crate) fn to_utf8(input: &[u8], out: &mut [u8]) -> (usize, usize) {
        const FIRST: [u8; 16] = [
            1, 2, 4, 5, 7, 8, 10, 11, 255, 255, 255, 255, 255, 255, 255, 255,
        ];
        const SECOND: [u8; 16] = [
            255, 255, 255, 255, 255, 255, 255, 255, 1, 2, 4, 5, 7, 8, 10, 11,
        ];
        const LEAD: [u8; 16] = [0xED, 0xA0, 0, 0, 0, 0, 0xED, 0xA0, 0, 0, 0, 0, 0, 0, 0, 0];
        const LEAD_MASK: [u8; 16] = [0xFF, 0xF0, 0, 0, 0, 0, 0xFF, 0xF0, 0, 0, 0, 0, 0, 0, 0, 0];
        let (mut i, mut w) = (0, 0);
        // SAFETY: NEON is part of this target; the constant loads read 16
        // bytes of 16-byte arrays; every input load reads 16 bytes at `i`
        // or `i + 12` while `i + READ <= input.len()`, `READ = 28`; every
        // store writes 16 bytes at `w` while `w + PAIRS_OUT <= out.len()`.
        unsafe {
            let (first, second) = (vld1q_u8(FIRST.as_ptr()), vld1q_u8(SECOND.as_ptr()));
            let (lead, lead_mask) = (vld1q_u8(LEAD.as_ptr()), vld1q_u8(LEAD_MASK.as_ptr()));
            while input.len() - i >= READ && out.len() - w >= PAIRS_OUT {
                let a = vld1q_u8(input.as_ptr().add(i));
                let b = vld1q_u8(input.as_ptr().add(i + 12));
                let off = vorrq_u8(
                    vandq_u8(veorq_u8(a, lead), lead_mask),
                    vandq_u8(veorq_u8(b, lead), lead_mask),
                );
                if vmaxvq_u8(off) != 0 {
                    break;
                }
                let lanes =
                    vreinterpretq_u32_u8(vorrq_u8(vqtbl1q_u8(a, first), vqtbl1q_u8(b, second)));
                let utf8 = lanes_to_utf8!(lanes, vandq_u32, vorrq_u32, vaddq_u32, shr, shl, splat);
                vst1q_u8(out.as_mut_ptr().add(w), vreinterpretq_u8_u32(utf8));
                i += PAIRS_IN;
                w += PAIRS_OUT;
            }
        }
        (i, w)
    }

    /// `utf8_to_pairs`'s passes.
    pub(crate) fn to_pairs(input: &[u8], out: &mut [u8]) -> (usize, usize) {
        let (mut i, mut w) = (0, 0);
        // SAFETY: NEON is part of this target; the constant loads read
        // 16-byte arrays; every input load reads 16 bytes at `i` while
        // `i + CHARS_IN <= input.len()`, `CHARS_IN = 16`; the stores write
        // 16 bytes at `w` and 8 at `w + 16` while `w + CHARS_OUT <=
        // out.len()`, `CHARS_OUT = 24`.
        unsafe {
            let (lo, hi) = (vld1q_u8(PAIRS_LO.as_ptr()), vld1q_u8(PAIRS_HI.as_ptr()));
            let (ed_lo, ed_hi) = (vld1q_u8(ED_LO.as_ptr()), vld1q_u8(ED_HI.as_ptr()));
            while input.len() - i >= CHARS_IN && out.len() - w >= CHARS_OUT {
                let v = vreinterpretq_u32_u8(vld1q_u8(input.as_ptr().add(i)));
                let leads = vceqq_u32(vandq_u32(v, splat(0xF8)), splat(0xF0));
                if vminvq_u32(leads) == 0 {
                    break;
                }
                let lanes = vreinterpretq_u8_u32(lanes_to_pairs!(
                    v, vandq_u32, vorrq_u32, vsubq_u32, shr, shl, splat
                ));
                let first = vorrq_u8(vqtbl1q_u8(lanes, lo), ed_lo);
                let last = vorrq_u8(vqtbl1q_u8(lanes, hi), ed_hi);
                vst1q_u8(out.as_mut_ptr().add(w), first);
                vst1_u8(out.as_mut_ptr().add(w + 16), vget_low_u8(last));
                i += CHARS_IN;
                w += CHARS_OUT;
            }
        }
        (i, w)
    }
}
