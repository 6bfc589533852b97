//! The NEON kernels of the [`NEON`](super::NEON) table that are not
//! generic families (`arch::generic`): the ASCII prefixes of any bytes in
//! native UTF-16 and in UTF-32, which every byte order has.
//!
//! They take 16 bytes at a time (one load, one test, one widening store)
//! and stop at the first 16 that are not all ASCII, where the scalar code
//! in `crate::drive` carries on (the kernel contract in `arch`'s docs).

use core::arch::aarch64::{
    uint8x16_t, vget_low_u8, vget_low_u16, vld1q_u8, vmaxvq_u8, vmovl_high_u8, vmovl_high_u16,
    vmovl_u8, vmovl_u16, vst1q_u16, vst1q_u32,
};

/// Source units per step of the conversions: one register of bytes.
const STEP: usize = 16;

/// Converts `src` to `dst` one unit for one unit, [`STEP`] units at a
/// time, while `step` accepts them: `step(p, q)` reads the 16 units at
/// `p` and, if it can convert them all, writes their 16 units at `q` and
/// returns `true`; otherwise it writes nothing and returns `false`, and the
/// conversion stops there (the scalar code carries on, see the kernel
/// contract in `arch`'s docs). Every kernel below converts only ASCII, so
/// each step ends at a character boundary.
///
/// # Safety
///
/// `step(p, q)` reads at most the 16 units at `p` and writes at most the
/// 16 units at `q`.
#[inline(always)]
unsafe fn one_to_one<S, D>(
    src: &[S],
    dst: &mut [D],
    step: impl Fn(*const S, *mut D) -> bool,
) -> (usize, usize) {
    let n = src.len().min(dst.len());
    let mut i = 0;
    // In bounds: `i + 16 <= n <= src.len(), dst.len()`.
    while n - i >= STEP && step(src[i..].as_ptr(), dst[i..].as_mut_ptr()) {
        i += STEP;
    }
    (i, i)
}

/// Loads 16 bytes.
///
/// # Safety
///
/// `p` is valid for reads of 16 bytes.
#[inline(always)]
unsafe fn load8(p: *const u8) -> uint8x16_t {
    // SAFETY: the caller guarantees the bytes.
    unsafe { vld1q_u8(p) }
}

/// Stores 16 bytes as 16 units of 16 bits.
///
/// # Safety
///
/// `q` is valid for writes of 16 units.
#[inline(always)]
unsafe fn store_widened16(x: uint8x16_t, q: *mut u16) {
    // SAFETY: the caller guarantees the 16 units.
    unsafe {
        vst1q_u16(q, vmovl_u8(vget_low_u8(x)));
        vst1q_u16(q.add(8), vmovl_high_u8(x));
    }
}

/// Stores 16 bytes as 16 units of 32 bits.
///
/// # Safety
///
/// `q` is valid for writes of 16 units.
#[inline(always)]
unsafe fn store_widened32(x: uint8x16_t, q: *mut u32) {
    // SAFETY: the caller guarantees the 16 units.
    unsafe {
        let u = [vmovl_u8(vget_low_u8(x)), vmovl_high_u8(x)];
        vst1q_u32(q, vmovl_u16(vget_low_u16(u[0])));
        vst1q_u32(q.add(4), vmovl_high_u16(u[0]));
        vst1q_u32(q.add(8), vmovl_u16(vget_low_u16(u[1])));
        vst1q_u32(q.add(12), vmovl_high_u16(u[1]));
    }
}

/// Whether 16 bytes are ASCII.
#[inline(always)]
fn ascii8(x: uint8x16_t) -> bool {
    // SAFETY: NEON is part of the target.
    unsafe { vmaxvq_u8(x) < 0x80 }
}

/// Any bytes to UTF-16, up to the first register with a byte from `80`;
/// also the NEON table's valid UTF-8 → UTF-16 (its ASCII registers; the
/// scalar code converts the rest).
///
/// # Safety
///
/// None beyond NEON, which the target has.
pub(super) unsafe fn ascii_to_utf16(src: &[u8], dst: &mut [u16]) -> (usize, usize) {
    // SAFETY: each step reads and writes the 16 units it is given.
    unsafe {
        one_to_one(src, dst, |p, q| {
            let x = load8(p);
            ascii8(x) && {
                store_widened16(x, q);
                true
            }
        })
    }
}

/// Any bytes to UTF-32, up to the first register with a byte from `80`;
/// on big-endian aarch64 also the table's valid UTF-8 → UTF-32 (its ASCII
/// registers).
///
/// # Safety
///
/// None beyond NEON, which the target has.
pub(super) unsafe fn ascii_to_utf32(src: &[u8], dst: &mut [u32]) -> (usize, usize) {
    // SAFETY: each step reads and writes the 16 units it is given.
    unsafe {
        one_to_one(src, dst, |p, q| {
            let x = load8(p);
            ascii8(x) && {
                store_widened32(x, q);
                true
            }
        })
    }
}
