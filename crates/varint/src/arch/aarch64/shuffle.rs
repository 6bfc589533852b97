//! The Stream VByte and Group Varint kernel on aarch64: one `tbl` per group
//! of four values (an index of 16 or more selects zero, as the table's
//! `0x80` does for `pshufb`). NEON is part of the target here (see
//! `neon.rs`), so every block below relies on this module's
//! `cfg(target_feature = "neon")`.

use core::arch::aarch64::{
    uint32x4_t, vaddq_u32, vaddvq_u32, vandq_u32, vcleq_u32, vdupq_laneq_u32, vdupq_n_u32,
    veorq_u32, vextq_u32, vget_low_u8, vget_low_u16, vgetq_lane_u32, vld1q_u8, vld1q_u32,
    vmovl_high_u8, vmovl_high_u16, vmovl_u8, vmovl_u16, vqtbl1q_u8, vreinterpretq_s32_u32,
    vreinterpretq_u8_u32, vreinterpretq_u32_s32, vreinterpretq_u32_u8, vshlq_n_u32, vshrq_n_s32,
    vshrq_n_u32, vst1q_u8, vsubq_u32,
};

use crate::arch::shuffle::ShuffleIsa;

/// NEON on one 16-byte register.
pub(crate) struct Neon;

/// Lane `i`'s weight in a control byte.
const WEIGHTS: [u32; 4] = [1, 4, 16, 64];

impl ShuffleIsa for Neon {
    type V = uint32x4_t;

    #[inline(always)]
    unsafe fn load(p: *const u8) -> uint32x4_t {
        // SAFETY: 16 readable bytes at `p`, the caller's promise; `ld1`
        // needs no alignment.
        unsafe { vreinterpretq_u32_u8(vld1q_u8(p)) }
    }

    #[inline(always)]
    unsafe fn store(p: *mut u8, v: uint32x4_t) {
        // SAFETY: 16 writable bytes at `p`, the caller's promise.
        unsafe { vst1q_u8(p, vreinterpretq_u8_u32(v)) }
    }

    #[inline(always)]
    unsafe fn shuffle(v: uint32x4_t, pattern: &[u8; 16]) -> uint32x4_t {
        // SAFETY: NEON; `pattern` is 16 bytes.
        unsafe {
            vreinterpretq_u32_u8(vqtbl1q_u8(
                vreinterpretq_u8_u32(v),
                vld1q_u8(pattern.as_ptr()),
            ))
        }
    }

    #[inline(always)]
    unsafe fn splat(x: u32) -> uint32x4_t {
        // SAFETY: NEON.
        unsafe { vdupq_n_u32(x) }
    }

    #[inline(always)]
    unsafe fn last(v: uint32x4_t) -> u32 {
        // SAFETY: NEON.
        unsafe { vgetq_lane_u32::<3>(v) }
    }

    #[inline(always)]
    unsafe fn unzigzag(v: uint32x4_t) -> uint32x4_t {
        // SAFETY: NEON. `-(x & 1)` is `(x << 31) >> 31`, arithmetic.
        unsafe {
            let sign = vreinterpretq_u32_s32(vshrq_n_s32::<31>(vreinterpretq_s32_u32(
                vshlq_n_u32::<31>(v),
            )));
            veorq_u32(vshrq_n_u32::<1>(v), sign)
        }
    }

    #[inline(always)]
    unsafe fn zigzag(v: uint32x4_t) -> uint32x4_t {
        // SAFETY: NEON.
        unsafe {
            let sign = vreinterpretq_u32_s32(vshrq_n_s32::<31>(vreinterpretq_s32_u32(v)));
            veorq_u32(vshlq_n_u32::<1>(v), sign)
        }
    }

    #[inline(always)]
    unsafe fn prefix_sum(v: uint32x4_t, prev: uint32x4_t) -> uint32x4_t {
        // SAFETY: NEON. `ext` with zeros shifts lanes up by one, then two.
        unsafe {
            let z = vdupq_n_u32(0);
            let v = vaddq_u32(v, vextq_u32::<3>(z, v));
            let v = vaddq_u32(v, vextq_u32::<2>(z, v));
            vaddq_u32(v, vdupq_laneq_u32::<3>(prev))
        }
    }

    #[inline(always)]
    unsafe fn delta(v: uint32x4_t, prev: uint32x4_t) -> uint32x4_t {
        // SAFETY: NEON. `ext` gives `[prev[3], v[0], v[1], v[2]]`.
        unsafe { vsubq_u32(v, vextq_u32::<3>(prev, v)) }
    }

    #[inline(always)]
    unsafe fn widen(p: *const u8) -> [uint32x4_t; 4] {
        // SAFETY: 16 readable bytes at `p`, the caller's promise; NEON.
        unsafe {
            let x = vld1q_u8(p);
            let lo = vmovl_u8(vget_low_u8(x));
            let hi = vmovl_high_u8(x);
            [
                vmovl_u16(vget_low_u16(lo)),
                vmovl_high_u16(lo),
                vmovl_u16(vget_low_u16(hi)),
                vmovl_high_u16(hi),
            ]
        }
    }

    #[inline(always)]
    unsafe fn control(v: uint32x4_t) -> u8 {
        // SAFETY: NEON; `WEIGHTS` is 4 readable `u32`s. Each compare's lanes
        // are all-ones where the value fits in fewer bytes, so the weighted
        // sum of the three is what each lane's code falls short of 3.
        unsafe {
            let w = vld1q_u32(WEIGHTS.as_ptr());
            let le = |limit: u32| vaddvq_u32(vandq_u32(vcleq_u32(v, vdupq_n_u32(limit)), w));
            (0xFF - le(0xFF) - le(0xFFFF) - le(0xFF_FFFF)) as u8
        }
    }
}

crate::arch::shuffle::shuffle_entry_points!(Neon, neon);
