//! The NEON kernel: a window is four 16-byte registers; one-byte runs are
//! widened with `uxtl`/`uxtl2`, the groups packed with shifts (aarch64 has
//! no `pext`).
//!
//! NEON has no `movemask`: the top bit of each byte is turned into a lane
//! mask by an arithmetic shift, weighted by its bit (1, 2, … 128 in each
//! half) and added across each half with `addv`, which gives the 16 bits
//! of a register in four instructions.
//!
//! NEON (Advanced SIMD) is part of the aarch64 baseline: every
//! `aarch64-*-linux`, `-darwin`, `-windows` and `-android` target enables it,
//! so this kernel is chosen at compile time, with or without `std`. Only
//! targets that turn NEON off (`aarch64-unknown-none-softfloat`) fall back
//! to the portable kernel; the module exists only where
//! `target_feature = "neon"` holds. The intrinsics are
//! `#[target_feature(enable = "neon")]` functions: even with NEON in the
//! target's baseline, a call needs `unsafe` outside a function that names
//! the feature, which the `#[inline(always)]` trait methods cannot. Every
//! such block relies on this module's `cfg(target_feature = "neon")`.
//!
//! Tested under qemu (`cargo xtask cross`), where the speed cannot be
//! measured: whether it beats the scalar loop on real aarch64 hardware is
//! not known (docs/results/varint.md).

use core::arch::aarch64::{
    uint8x16_t, vaddv_u8, vandq_u8, vceqzq_u8, vget_high_u8, vget_low_u8, vget_low_u16,
    vget_low_u32, vld1q_u8, vmovl_high_u8, vmovl_high_u16, vmovl_high_u32, vmovl_u8, vmovl_u16,
    vmovl_u32, vreinterpretq_s8_u8, vreinterpretq_u8_s8, vshrq_n_s8, vst1q_u32, vst1q_u64,
};

use crate::arch::kernel::{Isa, pack_shifts, spread_shifts};

/// The instruction set of this kernel: NEON.
pub(crate) struct Neon;

/// Each byte's weight in its half of a register.
const WEIGHTS: [u8; 16] = [1, 2, 4, 8, 16, 32, 64, 128, 1, 2, 4, 8, 16, 32, 64, 128];

/// Bit `i` is the top bit of byte `i` of `x`.
///
/// # Safety
///
/// NEON (this module is compiled only with it).
#[inline(always)]
unsafe fn movemask(x: uint8x16_t) -> u16 {
    // SAFETY: NEON; `WEIGHTS` is 16 readable bytes.
    unsafe {
        let top = vreinterpretq_u8_s8(vshrq_n_s8::<7>(vreinterpretq_s8_u8(x)));
        let bits = vandq_u8(top, vld1q_u8(WEIGHTS.as_ptr()));
        u16::from(vaddv_u8(vget_low_u8(bits))) | u16::from(vaddv_u8(vget_high_u8(bits))) << 8
    }
}

impl Isa for Neon {
    #[inline(always)]
    unsafe fn continuations(p: *const u8) -> u64 {
        let mut mask = 0;
        for k in 0..4 {
            // SAFETY: the caller guarantees 64 readable bytes at `p`; `ld1`
            // needs no alignment.
            let m = unsafe { movemask(vld1q_u8(p.add(16 * k))) };
            mask |= u64::from(m) << (16 * k);
        }
        mask
    }

    #[inline(always)]
    unsafe fn zeros(p: *const u8) -> u64 {
        let mut mask = 0;
        for k in 0..4 {
            // SAFETY: as in `continuations`; `cmeq #0` sets all 8 bits of a
            // zero byte, its top bit among them.
            let m = unsafe { movemask(vceqzq_u8(vld1q_u8(p.add(16 * k)))) };
            mask |= u64::from(m) << (16 * k);
        }
        mask
    }

    #[inline(always)]
    unsafe fn widen_u64(p: *const u8, o: *mut u64) {
        for k in 0..4 {
            // SAFETY: 64 readable bytes at `p` and 64 writable `u64`s at
            // `o`, guaranteed by the caller; each store writes 2 values, 16
            // from each 16 bytes.
            unsafe {
                let x = vld1q_u8(p.add(16 * k));
                let o = o.add(16 * k);
                let halves = [vmovl_u8(vget_low_u8(x)), vmovl_high_u8(x)];
                for (h, half) in halves.into_iter().enumerate() {
                    let quarters = [vmovl_u16(vget_low_u16(half)), vmovl_high_u16(half)];
                    for (q, quarter) in quarters.into_iter().enumerate() {
                        let at = o.add(8 * h + 4 * q);
                        vst1q_u64(at, vmovl_u32(vget_low_u32(quarter)));
                        vst1q_u64(at.add(2), vmovl_high_u32(quarter));
                    }
                }
            }
        }
    }

    #[inline(always)]
    unsafe fn widen_u32(p: *const u8, o: *mut u32) {
        for k in 0..4 {
            // SAFETY: as in `widen_u64`; each store writes 4 values.
            unsafe {
                let x = vld1q_u8(p.add(16 * k));
                let o = o.add(16 * k);
                let halves = [vmovl_u8(vget_low_u8(x)), vmovl_high_u8(x)];
                for (h, half) in halves.into_iter().enumerate() {
                    vst1q_u32(o.add(8 * h), vmovl_u16(vget_low_u16(half)));
                    vst1q_u32(o.add(8 * h + 4), vmovl_high_u16(half));
                }
            }
        }
    }

    #[inline(always)]
    unsafe fn pack(word: u64, len: u32) -> u64 {
        pack_shifts(word, len)
    }

    #[inline(always)]
    unsafe fn spread(v: u64) -> u64 {
        spread_shifts(v)
    }
}

crate::arch::entry_points!(Neon, neon);

/// This kernel in the registry (`arch::kernels`): always available where it
/// is compiled.
pub(crate) const KERNEL: crate::arch::Kernel =
    crate::arch::registry_entry!("neon", codec_arch::Isa::NEON);
