//! The NEON token's implementations of the generic families' traits
//! (`generic::latin1::Latin1Lanes`, `generic::utf16_utf8::Utf16Simd`,
//! `generic::utf8_utf16::Utf8Simd`): the parts written per architecture,
//! with `tbl`, `zip`, `ext` and widening multiplies. Each does what the x86
//! one does (`x86_64/lanes.rs`), with the same tables: `tbl` gives 0 where
//! `pshufb` does (an index from 16), which only ever lands in garbage.

use super::super::generic::latin1::Latin1Lanes;
use super::super::generic::utf8_utf16::{Out, Utf8Simd, four_windows};
use super::super::generic::utf16_utf8::Utf16Simd;
use super::super::tables::{PACK8, PACK12};
use codec_arch::Simd;
use codec_arch::aarch64::Neon;
use core::arch::aarch64::*;

impl Latin1Lanes for Neon {
    #[inline(always)]
    unsafe fn expand_latin1(self, x: uint8x16_t, high: u16, dst: *mut u8) -> usize {
        let (lo, hi) = ((high & 0xFF) as usize, (high >> 8) as usize);
        let len_lo = 8 + lo.count_ones() as usize;
        // SAFETY: the token proves NEON; the tables are indexed below 256;
        // the stores are inside what the caller provides.
        unsafe {
            let lead = vorrq_u8(vshrq_n_u8::<6>(x), vdupq_n_u8(0xC0));
            // The top bit of each byte picks the lead byte over the byte.
            let top = vcltzq_s8(vreinterpretq_s8_u8(x));
            let first = vbslq_u8(top, lead, x);
            let second = vorrq_u8(vandq_u8(x, vdupq_n_u8(0x3F)), vdupq_n_u8(0x80));
            let pairs_lo = vzip1q_u8(first, second);
            let pairs_hi = vzip2q_u8(first, second);
            let out_lo = vqtbl1q_u8(pairs_lo, vld1q_u8(PACK12[lo].as_ptr()));
            let out_hi = vqtbl1q_u8(pairs_hi, vld1q_u8(PACK12[hi].as_ptr()));
            vst1q_u8(dst, out_lo);
            vst1q_u8(dst.add(len_lo), out_hi);
        }
        len_lo + 8 + hi.count_ones() as usize
    }

    #[inline(always)]
    unsafe fn pack_starts(self, x: uint8x16_t, starts: u16, dst: *mut u8) -> usize {
        let (lo, hi) = ((starts & 0xFF) as usize, (starts >> 8) as usize);
        let len_lo = lo.count_ones() as usize;
        // SAFETY: the token proves NEON; the table is indexed below 256;
        // the stores are inside what the caller provides.
        unsafe {
            let out_lo = vtbl1_u8(vget_low_u8(x), vcreate_u8(PACK8[lo]));
            let out_hi = vtbl1_u8(vget_high_u8(x), vcreate_u8(PACK8[hi]));
            vst1_u8(dst, out_lo);
            vst1_u8(dst.add(len_lo), out_hi);
        }
        len_lo + hi.count_ones() as usize
    }
}

impl Utf16Simd for Neon {
    type Scratch = [u8; 3 * 8 + 16];

    #[inline(always)]
    fn scratch(self) -> [u8; 3 * 8 + 16] {
        [0; 3 * 8 + 16]
    }

    #[inline(always)]
    fn prev16(self, v: uint8x16_t) -> uint8x16_t {
        // Bytes 14 and 15 of a zero register, then bytes 0..14 of `v`.
        // SAFETY: the token proves NEON.
        unsafe { vextq_u8::<14>(vdupq_n_u8(0), v) }
    }

    #[inline(always)]
    fn unpack16(self, a: uint8x16_t, b: uint8x16_t) -> (uint8x16_t, uint8x16_t) {
        // SAFETY: the token proves NEON.
        unsafe {
            let (a, b) = (vreinterpretq_u16_u8(a), vreinterpretq_u16_u8(b));
            (
                vreinterpretq_u8_u16(vzip1q_u16(a, b)),
                vreinterpretq_u8_u16(vzip2q_u16(a, b)),
            )
        }
    }

    #[inline(always)]
    fn bits16(self, m: uint8x16_t) -> u64 {
        self.movemask16(m)
    }

    #[inline(always)]
    unsafe fn store_last(self, p: *mut u8, v: uint8x16_t) {
        // As SSE4.1's: the next block makes at least 8 bytes, so 8 stray
        // bytes at most may follow: 8 bytes, then 4.
        // SAFETY: 12 of the 16 bytes the caller guarantees; the token
        // proves NEON.
        unsafe {
            vst1_u8(p, vget_low_u8(v));
            vst1q_lane_u32::<2>(p.add(8).cast(), vreinterpretq_u32_u8(v));
        }
    }

    #[inline(always)]
    unsafe fn block_units<const SWAP: bool>(
        self,
        src: *const u16,
        avail: usize,
        out: *mut u8,
    ) -> (usize, usize, bool) {
        // SAFETY: the caller's guarantee, with N = 8.
        unsafe { super::super::common::utf16_units::<SWAP, 8>(src, avail, out) }
    }
}

impl Utf8Simd for Neon {
    #[inline(always)]
    fn maddubs(self, a: uint8x16_t, b: uint8x16_t) -> uint8x16_t {
        // `pmaddubsw`: each 16-bit lane's even bytes multiplied (`a`'s
        // unsigned, `b`'s signed: every product fits), then its odd bytes,
        // the two added with saturation. The kernel's `b` are constants,
        // whose halves LLVM computes at compile time.
        // SAFETY: the token proves NEON.
        unsafe {
            let (a, b) = (vreinterpretq_u16_u8(a), vreinterpretq_s16_u8(b));
            let a_even = vreinterpretq_s16_u16(vandq_u16(a, vdupq_n_u16(0xFF)));
            let a_odd = vreinterpretq_s16_u16(vshrq_n_u16::<8>(a));
            let b_even = vshrq_n_s16::<8>(vshlq_n_s16::<8>(b));
            let b_odd = vshrq_n_s16::<8>(b);
            let even = vmulq_s16(a_even, b_even);
            vreinterpretq_u8_s16(vqaddq_s16(even, vmulq_s16(a_odd, b_odd)))
        }
    }

    #[inline(always)]
    fn madd(self, a: uint8x16_t, b: uint8x16_t) -> uint8x16_t {
        // `pmaddwd`: the 32-bit products of each half (`smull`, `smull2`),
        // then adjacent pairs added (`addp`), which keeps their order.
        // SAFETY: the token proves NEON.
        unsafe {
            let (a, b) = (vreinterpretq_s16_u8(a), vreinterpretq_s16_u8(b));
            let lo = vmull_s16(vget_low_s16(a), vget_low_s16(b));
            let hi = vmull_high_s16(a, b);
            vreinterpretq_u8_s32(vpaddq_s32(lo, hi))
        }
    }

    #[inline(always)]
    fn widen8(self, x: uint8x16_t, h: usize) -> uint8x16_t {
        // SAFETY: the token proves NEON.
        unsafe {
            vreinterpretq_u8_u16(if h == 0 {
                vmovl_u8(vget_low_u8(x))
            } else {
                vmovl_high_u8(x)
            })
        }
    }

    #[inline(always)]
    fn three_byte_lanes(self, v: uint8x16_t, k: u32) -> uint8x16_t {
        // As SSE4.1's `pshufb`: the fourth byte's index, `FF + k`, is out
        // of range (0) or 0..2, any byte as the trait allows.
        const ORDER: [u8; 16] = [1, 2, 0, 0xFF, 4, 5, 3, 0xFF, 7, 8, 6, 0xFF, 10, 11, 9, 0xFF];
        // SAFETY: the token proves NEON; ORDER is 16 bytes.
        unsafe { vqtbl1q_u8(v, vaddq_u8(vld1q_u8(ORDER.as_ptr()), vdupq_n_u8(k as u8))) }
    }

    #[inline(always)]
    unsafe fn four_windows<O: Out<Self>>(
        self,
        x: (uint8x16_t, uint8x16_t),
        out: *mut O::Unit,
        starts: u64,
        fours: u64,
    ) -> usize {
        // SAFETY: the caller's guarantee.
        unsafe { four_windows::<Self, O>(self, x, out, starts, fours) }
    }
}
