//! The NEON kernel: a window is four 16-byte registers; one-byte runs are
//! widened with `uxtl`/`uxtl2`, the groups packed with shifts (aarch64 has
//! no `pext`).
//!
//! The window's vector work is the generic kernel's on the `Neon` token
//! (whose `movemask8` weights each byte's top bit and adds across each half
//! with `addv`, as NEON has no `movemask`).
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

use crate::arch::kernel::{Isa, pack_shifts, spread_shifts};

/// The choices of this kernel: the `Neon` token, packing with shifts.
pub(crate) struct Neon;

impl Isa for Neon {
    type S = codec_arch::aarch64::Neon;

    #[inline(always)]
    unsafe fn simd() -> codec_arch::aarch64::Neon {
        // SAFETY: NEON is part of the target (the module's `cfg`).
        unsafe { codec_arch::aarch64::Neon::new() }
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
