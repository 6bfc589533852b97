//! The 16-byte aarch64 kernel: [`CheckSimd`] for codec-arch's `Neon` token,
//! and its entry points.
//!
//! NEON (Advanced SIMD) is part of the aarch64 baseline: every
//! `aarch64-*-linux`, `-darwin`, `-windows` and `-android` target enables it,
//! so this kernel is chosen at compile time, with or without `std`, and
//! costs no detection and no indirect call. Only targets that turn NEON off
//! (`aarch64-unknown-none-softfloat`) fall back to the portable kernel; the
//! module exists only where `target_feature = "neon"` holds.
//!
//! Each operation is one instruction: `tbl` is a 16-entry table lookup that
//! gives 0 for indices of 16 and up (ours are nibbles, always below 16, so
//! [`CheckSimd::lookup`] skips the mask `Simd::shuffle8` needs), `ext` joins
//! the previous register's last bytes to this one's first, `ushr` shifts
//! whole bytes, so the high nibble needs no mask (x86 has only 16-bit
//! shifts and needs an AND), and `umaxv` reduces a register to its largest
//! byte for the ASCII and "any error" tests.

use codec_arch::Simd;
use codec_arch::aarch64::Neon;
use core::arch::aarch64::{
    uint8x16_t, vcombine_u8, vcreate_u8, vmaxvq_u8, vminvq_s8, vqtbl1q_u8, vreinterpretq_s8_u8,
};

use crate::arch::simd::CheckSimd;
use crate::arch::{Kernel, kernel};

/// The NEON token: NEON is part of the target wherever this module is
/// compiled.
#[inline(always)]
pub(crate) fn token() -> Neon {
    // SAFETY: this module is compiled with NEON (`cfg(target_feature =
    // "neon")` on its declaration).
    unsafe { Neon::new() }
}

impl CheckSimd for Neon {
    #[inline(always)]
    unsafe fn load_partial(self, p: *const u8, n: usize) -> uint8x16_t {
        // SAFETY: the caller guarantees `n < 16` readable bytes at `p`,
        // which is what `partial_words` needs.
        let (lo, hi) = unsafe { crate::arch::partial::partial_words(p, n) };
        // `vcreate_u8` puts the word's least significant byte in lane 0,
        // which is byte 0 of the input (`partial_words` reads little-endian).
        // SAFETY: the token proves NEON.
        unsafe { vcombine_u8(vcreate_u8(lo), vcreate_u8(hi)) }
    }

    #[inline(always)]
    fn prev1(self, cur: uint8x16_t, prev: uint8x16_t) -> uint8x16_t {
        self.alignr8::<15>(cur, prev)
    }

    #[inline(always)]
    fn prev2(self, cur: uint8x16_t, prev: uint8x16_t) -> uint8x16_t {
        self.alignr8::<14>(cur, prev)
    }

    #[inline(always)]
    fn prev3(self, cur: uint8x16_t, prev: uint8x16_t) -> uint8x16_t {
        self.alignr8::<13>(cur, prev)
    }

    #[inline(always)]
    fn lookup(self, table: uint8x16_t, idx: uint8x16_t) -> uint8x16_t {
        // SAFETY: the token proves NEON.
        unsafe { vqtbl1q_u8(table, idx) }
    }

    #[inline(always)]
    fn is_ascii(self, a: uint8x16_t) -> bool {
        // SAFETY: the token proves NEON.
        unsafe { vmaxvq_u8(a) < 0x80 }
    }

    #[inline(always)]
    fn all_positive(self, a: uint8x16_t) -> bool {
        // SAFETY: the token proves NEON.
        unsafe { vminvq_s8(vreinterpretq_s8_u8(a)) > 0 }
    }

    #[inline(always)]
    fn any(self, a: uint8x16_t) -> bool {
        // One `umaxv`, without `test_any`'s AND.
        // SAFETY: the token proves NEON.
        unsafe { vmaxvq_u8(a) != 0 }
    }
}

/// This kernel in the registry (`arch::kernels`). NEON is part of the
/// target wherever this module is compiled, so it is always available.
pub(crate) const KERNEL: Kernel = Kernel::new(
    "neon",
    codec_arch::Isa::NEON,
    validate,
    is_valid,
    Some(&crate::arch::variants::NEON),
);

/// The kernel's contract ([`kernel::validate`]) with 16-byte registers and
/// checkpoints every 256 bytes, for exact errors.
pub(crate) fn validate(input: &[u8]) -> Result<(), usize> {
    // SAFETY: the rest passed is this kernel's own, with the same
    // checkpoints.
    unsafe { kernel::validate::<_, true>(token(), input, validate_rest) }
}

/// Whether `input` is well-formed UTF-8, without checkpoints.
pub(crate) fn is_valid(input: &[u8]) -> bool {
    // SAFETY: as in `validate`.
    unsafe { kernel::validate::<_, false>(token(), input, is_valid_rest).is_ok() }
}

/// `kernel::validate_rest` with checkpoints: what [`validate`] runs from
/// the first non-ASCII block on, called out of line (see
/// `kernel::validate`).
///
/// # Safety
///
/// As for `kernel::validate_rest`, and the CPU has NEON.
unsafe fn validate_rest(input: &[u8], i: usize) -> Result<(), usize> {
    // SAFETY: the caller (`kernel::validate`) guarantees
    // `kernel::validate_rest`'s contract.
    unsafe { kernel::validate_rest::<_, true>(token(), input, i) }
}

/// `kernel::validate_rest` without checkpoints, for [`is_valid`].
///
/// # Safety
///
/// As for [`validate_rest`].
unsafe fn is_valid_rest(input: &[u8], i: usize) -> Result<(), usize> {
    // SAFETY: as in `validate_rest`.
    unsafe { kernel::validate_rest::<_, false>(token(), input, i) }
}
