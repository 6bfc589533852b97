//! CESU-8's surrogate pairs to UTF-8, four pairs a register: the conversion
//! of text whose characters are all supplementary (emoji, CJK Extension
//! B), which CESU-8 and Modified UTF-8 write as 6-byte pairs
//! `ED A0..AF 80..BF ED B0..BF 80..BF` and UTF-8 as 4 bytes.
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
//! docs/results/utf8-variants.md, "Decoding runs of pairs".)

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

#[cfg(target_arch = "x86_64")]
pub(crate) mod x86 {
    //! The SSE body, compiled into each x86-64 kernel's features.

    use super::{PAIRS_IN, PAIRS_OUT, READ};
    use core::arch::x86_64::{
        __m128i, _mm_add_epi32, _mm_and_si128, _mm_loadu_si128, _mm_or_si128, _mm_set1_epi32,
        _mm_setr_epi8, _mm_shuffle_epi8, _mm_slli_epi32, _mm_srli_epi32, _mm_storeu_si128,
        _mm_testz_si128, _mm_xor_si128,
    };

    /// The four-pair passes over `input` and `out` while both have room and
    /// the pairs start `ED A0..=AF`; `(read, written)`.
    ///
    /// # Safety
    ///
    /// The CPU has SSSE3 and SSE4.1.
    #[inline(always)]
    unsafe fn passes(input: &[u8], out: &mut [u8]) -> (usize, usize) {
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
        fn splat(x: u32) -> __m128i {
            // SAFETY: SSE2 is part of x86-64.
            unsafe { _mm_set1_epi32(x as i32) }
        }
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

    /// [`passes`] compiled with AVX2 (VEX encoding), for the AVX2 and
    /// AVX-512 kernels.
    ///
    /// # Safety
    ///
    /// The CPU has AVX2.
    #[target_feature(enable = "avx2")]
    pub(crate) unsafe fn avx2(input: &[u8], out: &mut [u8]) -> (usize, usize) {
        // SAFETY: AVX2 implies SSSE3 and SSE4.1.
        unsafe { passes(input, out) }
    }

    /// [`passes`] for the SSE4.1 kernel.
    ///
    /// # Safety
    ///
    /// The CPU has SSSE3 and SSE4.1.
    #[target_feature(enable = "ssse3,sse4.1")]
    pub(crate) unsafe fn sse41(input: &[u8], out: &mut [u8]) -> (usize, usize) {
        // SAFETY: the caller guarantees the features.
        unsafe { passes(input, out) }
    }
}

/// The NEON body: the same passes, with `vqtbl1q_u8` for the shuffle.
#[cfg(all(target_arch = "aarch64", target_feature = "neon"))]
pub(crate) fn neon(input: &[u8], out: &mut [u8]) -> (usize, usize) {
    use core::arch::aarch64::{
        uint32x4_t, vaddq_u32, vandq_u8, vandq_u32, veorq_u8, vld1q_u8, vmaxvq_u8, vorrq_u8,
        vorrq_u32, vqtbl1q_u8, vreinterpretq_u8_u32, vreinterpretq_u32_u8, vshlq_n_u32,
        vshrq_n_u32, vst1q_u8,
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
    fn splat(x: u32) -> uint32x4_t {
        // SAFETY: NEON is part of this target (the `cfg` above).
        unsafe { core::arch::aarch64::vdupq_n_u32(x) }
    }
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
    // bytes of 16-byte arrays; every input load reads 16 bytes at `i` or
    // `i + 12` while `i + READ <= input.len()`, `READ = 28`; every store
    // writes 16 bytes at `w` while `w + PAIRS_OUT <= out.len()`.
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
            let lanes = vreinterpretq_u32_u8(vorrq_u8(vqtbl1q_u8(a, first), vqtbl1q_u8(b, second)));
            let utf8 = lanes_to_utf8!(lanes, vandq_u32, vorrq_u32, vaddq_u32, shr, shl, splat);
            vst1q_u8(out.as_mut_ptr().add(w), vreinterpretq_u8_u32(utf8));
            i += PAIRS_IN;
            w += PAIRS_OUT;
        }
    }
    (i, w)
}
