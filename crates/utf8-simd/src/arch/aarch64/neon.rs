//! The 16-byte aarch64 kernel: [`Vector`] for `uint8x16_t` (NEON), bridged
//! to the check's traits (`vector::Simd`, [`CheckSimd`]) for codec-arch's
//! `Neon` token, and its entry points.
//!
//! NEON (Advanced SIMD) is part of the aarch64 baseline: every
//! `aarch64-*-linux`, `-darwin`, `-windows` and `-android` target enables it,
//! so this kernel is chosen at compile time, with or without `std`, and
//! costs no detection and no indirect call. Only targets that turn NEON off
//! (`aarch64-unknown-none-softfloat`) fall back to the portable kernel; the
//! module exists only where `target_feature = "neon"` holds.
//!
//! Each operation is one instruction: `tbl` is a 16-entry table lookup that
//! gives 0 for indices of 16 and up (ours are nibbles, always below 16),
//! `ext` joins the previous register's last bytes to this one's first, `ushr`
//! shifts whole bytes, so the high nibble needs no mask (x86 has only 16-bit
//! shifts and needs an AND), and `umaxv` reduces a register to its largest
//! byte for the ASCII and "any error" tests.
//!
//! The intrinsics are `#[target_feature(enable = "neon")]` functions: even
//! with NEON in the target's baseline, a call needs `unsafe` outside a
//! function that itself names the feature, which trait methods marked
//! `#[inline(always)]` cannot. Every such block relies on this module's
//! `cfg(target_feature = "neon")`.

use core::arch::aarch64::{
    uint8x16_t, vandq_u8, vcombine_u8, vcreate_u8, vdupq_n_u8, veorq_u8, vextq_u8, vld1q_u8,
    vmaxvq_u8, vminq_s8, vminvq_s8, vorrq_u8, vqsubq_u8, vqtbl1q_u8, vreinterpretq_s8_u8,
    vreinterpretq_u8_s8, vshrq_n_u8,
};

use codec_arch::aarch64::Neon;

use crate::arch::simd::CheckSimd;
use crate::arch::vector::{Simd, Vector};
use crate::arch::{Kernel, kernel};

// SAFETY: each method uses only NEON instructions, which this module is
// compiled with (`cfg(target_feature = "neon")` on its declaration), so the
// trait's contract holds on every CPU the build can run on.
unsafe impl Vector for uint8x16_t {
    #[inline(always)]
    unsafe fn splat(b: u8) -> Self {
        // SAFETY: NEON, which this module is compiled with.
        unsafe { vdupq_n_u8(b) }
    }

    #[inline(always)]
    unsafe fn table(t: &[u8; 16]) -> Self {
        // SAFETY: `t` is 16 readable bytes.
        unsafe { vld1q_u8(t.as_ptr()) }
    }

    #[inline(always)]
    unsafe fn load(ptr: *const u8) -> Self {
        // SAFETY: the caller guarantees 16 readable bytes at `ptr`; `ld1`
        // needs no alignment.
        unsafe { vld1q_u8(ptr) }
    }

    #[inline(always)]
    unsafe fn load_partial(ptr: *const u8, n: usize) -> Self {
        // SAFETY: the caller guarantees `n < 16` readable bytes at `ptr`,
        // which is what `partial_words` needs.
        let (lo, hi) = unsafe { crate::arch::partial::partial_words(ptr, n) };
        // `vcreate_u8` puts the word's least significant byte in lane 0,
        // which is byte 0 of the input (`partial_words` reads little-endian).
        // SAFETY: NEON, which this module is compiled with.
        unsafe { vcombine_u8(vcreate_u8(lo), vcreate_u8(hi)) }
    }

    #[inline(always)]
    unsafe fn or(self, other: Self) -> Self {
        // SAFETY: NEON, which this module is compiled with.
        unsafe { vorrq_u8(self, other) }
    }

    #[inline(always)]
    unsafe fn and(self, other: Self) -> Self {
        // SAFETY: NEON, which this module is compiled with.
        unsafe { vandq_u8(self, other) }
    }

    #[inline(always)]
    unsafe fn xor(self, other: Self) -> Self {
        // SAFETY: NEON, which this module is compiled with.
        unsafe { veorq_u8(self, other) }
    }

    #[inline(always)]
    unsafe fn high_nibbles(self) -> Self {
        // SAFETY: NEON, which this module is compiled with.
        unsafe { vshrq_n_u8::<4>(self) }
    }

    #[inline(always)]
    unsafe fn saturating_sub(self, other: Self) -> Self {
        // SAFETY: NEON, which this module is compiled with.
        unsafe { vqsubq_u8(self, other) }
    }

    #[inline(always)]
    unsafe fn lookup(self, idx: Self) -> Self {
        // SAFETY: NEON, which this module is compiled with.
        unsafe { vqtbl1q_u8(self, idx) }
    }

    #[inline(always)]
    unsafe fn prev1(self, prev: Self) -> Self {
        // SAFETY: NEON, which this module is compiled with.
        unsafe { vextq_u8::<15>(prev, self) }
    }

    #[inline(always)]
    unsafe fn prev2(self, prev: Self) -> Self {
        // SAFETY: NEON, which this module is compiled with.
        unsafe { vextq_u8::<14>(prev, self) }
    }

    #[inline(always)]
    unsafe fn prev3(self, prev: Self) -> Self {
        // SAFETY: NEON, which this module is compiled with.
        unsafe { vextq_u8::<13>(prev, self) }
    }

    #[inline(always)]
    unsafe fn is_ascii(self) -> bool {
        // SAFETY: NEON, which this module is compiled with.
        unsafe { vmaxvq_u8(self) < 0x80 }
    }

    #[inline(always)]
    unsafe fn min_signed(self, other: Self) -> Self {
        // SAFETY: NEON, which this module is compiled with.
        unsafe {
            vreinterpretq_u8_s8(vminq_s8(
                vreinterpretq_s8_u8(self),
                vreinterpretq_s8_u8(other),
            ))
        }
    }

    #[inline(always)]
    unsafe fn all_positive(self) -> bool {
        // SAFETY: NEON, which this module is compiled with.
        unsafe { vminvq_s8(vreinterpretq_s8_u8(self)) > 0 }
    }

    #[inline(always)]
    unsafe fn any(self) -> bool {
        // SAFETY: NEON, which this module is compiled with.
        unsafe { vmaxvq_u8(self) != 0 }
    }
}

/// The NEON token: NEON is part of the target wherever this module is
/// compiled.
#[inline(always)]
pub(crate) fn token() -> Neon {
    // SAFETY: this module is compiled with NEON (`cfg(target_feature =
    // "neon")` on its declaration).
    unsafe { Neon::new() }
}

// The bridge: each operation is `Vector`'s, whose contract (the CPU has
// NEON) the token proves.

impl Simd for Neon {
    type V = uint8x16_t;
    const BYTES: usize = 16;

    #[inline(always)]
    unsafe fn load(self, p: *const u8) -> uint8x16_t {
        // SAFETY: the caller guarantees 16 readable bytes at `p`; the token
        // proves NEON.
        unsafe { <uint8x16_t as Vector>::load(p) }
    }

    #[inline(always)]
    fn broadcast16(self, t: &[u8; 16]) -> uint8x16_t {
        // SAFETY: the token proves NEON.
        unsafe { <uint8x16_t as Vector>::table(t) }
    }

    #[inline(always)]
    fn zero(self) -> uint8x16_t {
        self.splat8(0)
    }

    #[inline(always)]
    fn splat8(self, x: u8) -> uint8x16_t {
        // SAFETY: the token proves NEON.
        unsafe { <uint8x16_t as Vector>::splat(x) }
    }

    #[inline(always)]
    fn and(self, a: uint8x16_t, b: uint8x16_t) -> uint8x16_t {
        // SAFETY: the token proves NEON.
        unsafe { a.and(b) }
    }

    #[inline(always)]
    fn or(self, a: uint8x16_t, b: uint8x16_t) -> uint8x16_t {
        // SAFETY: the token proves NEON.
        unsafe { a.or(b) }
    }

    #[inline(always)]
    fn xor(self, a: uint8x16_t, b: uint8x16_t) -> uint8x16_t {
        // SAFETY: the token proves NEON.
        unsafe { a.xor(b) }
    }

    #[inline(always)]
    fn shr8<const N: i32>(self, a: uint8x16_t) -> uint8x16_t {
        // The check shifts by 4 only, `Vector`'s one byte shift.
        const { assert!(N == 4) };
        // SAFETY: the token proves NEON.
        unsafe { a.high_nibbles() }
    }

    #[inline(always)]
    fn shuffle8(self, table: uint8x16_t, idx: uint8x16_t) -> uint8x16_t {
        // SAFETY: the token proves NEON.
        unsafe { table.lookup(idx) }
    }

    #[inline(always)]
    fn test_any(self, a: uint8x16_t, b: uint8x16_t) -> bool {
        // SAFETY: the token proves NEON.
        unsafe { a.and(b).any() }
    }
}

impl CheckSimd for Neon {
    #[inline(always)]
    unsafe fn load_partial(self, p: *const u8, n: usize) -> uint8x16_t {
        // SAFETY: the caller guarantees `n < 16` readable bytes at `p`; the
        // token proves NEON.
        unsafe { <uint8x16_t as Vector>::load_partial(p, n) }
    }

    #[inline(always)]
    fn prev1(self, cur: uint8x16_t, prev: uint8x16_t) -> uint8x16_t {
        // SAFETY: the token proves NEON.
        unsafe { cur.prev1(prev) }
    }

    #[inline(always)]
    fn prev2(self, cur: uint8x16_t, prev: uint8x16_t) -> uint8x16_t {
        // SAFETY: the token proves NEON.
        unsafe { cur.prev2(prev) }
    }

    #[inline(always)]
    fn prev3(self, cur: uint8x16_t, prev: uint8x16_t) -> uint8x16_t {
        // SAFETY: the token proves NEON.
        unsafe { cur.prev3(prev) }
    }

    #[inline(always)]
    fn sub_sat_u8(self, a: uint8x16_t, b: uint8x16_t) -> uint8x16_t {
        // SAFETY: the token proves NEON.
        unsafe { a.saturating_sub(b) }
    }

    #[inline(always)]
    fn min_i8(self, a: uint8x16_t, b: uint8x16_t) -> uint8x16_t {
        // SAFETY: the token proves NEON.
        unsafe { a.min_signed(b) }
    }

    #[inline(always)]
    fn is_ascii(self, a: uint8x16_t) -> bool {
        // SAFETY: the token proves NEON.
        unsafe { a.is_ascii() }
    }

    #[inline(always)]
    fn all_positive(self, a: uint8x16_t) -> bool {
        // SAFETY: the token proves NEON.
        unsafe { a.all_positive() }
    }

    #[inline(always)]
    fn any(self, a: uint8x16_t) -> bool {
        // One `umaxv`, without the AND of `test_any`.
        // SAFETY: the token proves NEON.
        unsafe { a.any() }
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
