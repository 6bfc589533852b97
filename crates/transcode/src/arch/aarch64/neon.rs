//! The NEON kernels of the [`NEON`](super::NEON) table that take one unit
//! for one unit, and the counts (the block kernels have files of their
//! own), and `bits16`, the block kernels' `movemask`.
//!
//! Counts keep one 8- or 16-bit counter per lane, which a register of
//! comparison masks (all ones, that is −1, where a byte counts) decrements
//! in one instruction; the counters are summed across lanes (`vaddlvq`)
//! before they can overflow. Conversions take 16 units at a time (one load,
//! one test, one widening, narrowing or copying store) and stop at the first
//! 16 units they cannot convert whole, where the scalar code in
//! `crate::drive` carries on (the kernel contract in `arch`'s docs).

use crate::count::scalar;
use core::arch::aarch64::{
    uint8x16_t, uint16x8_t, uint32x4_t, vaddlvq_u8, vaddlvq_u16, vaddv_u8, vandq_u8, vandq_u16,
    vandq_u32, vceqq_u16, vcgeq_u8, vcgeq_u16, vcgtq_s8, vcleq_u32, vcltq_u32, vcltzq_s8,
    vdupq_n_s8, vdupq_n_u8, vdupq_n_u16, vdupq_n_u32, vget_high_u8, vget_low_u8, vget_low_u16,
    vld1q_u8, vld1q_u16, vld1q_u32, vmaxq_u16, vmaxq_u32, vmaxvq_u8, vmaxvq_u16, vmaxvq_u32,
    vminvq_u32, vmovl_high_u8, vmovl_high_u16, vmovl_u8, vmovl_u16, vmovn_high_u16, vmovn_high_u32,
    vmovn_u16, vmovn_u32, vorrq_u32, vreinterpretq_s8_u8, vst1q_u8, vst1q_u16, vst1q_u32, vsubq_u8,
    vsubq_u16, vsubq_u32,
};

/// One bit a byte of `mask` (whose bytes are 0 or FF, a comparison's
/// result): bit `k` is byte `k`'s. NEON has no `movemask`; this keeps one
/// bit a byte (`and` with the bit's weight) and sums each half across its
/// lanes (`addv`). Three pairwise additions (`addp`) instead were compiled
/// to five `uzp` and three `orr`, 13 instructions against 8.
#[cfg(target_endian = "little")]
#[inline(always)]
pub(super) fn bits16(mask: uint8x16_t) -> u32 {
    const WEIGHTS: [u8; 16] = [1, 2, 4, 8, 16, 32, 64, 128, 1, 2, 4, 8, 16, 32, 64, 128];
    // SAFETY: NEON is part of the target; WEIGHTS is 16 bytes.
    unsafe {
        let x = vandq_u8(mask, vld1q_u8(WEIGHTS.as_ptr()));
        u32::from(vaddv_u8(vget_low_u8(x))) | u32::from(vaddv_u8(vget_high_u8(x))) << 8
    }
}

/// Bytes per register.
const BYTES: usize = 16;
/// 16-bit units per register.
const UNITS: usize = 8;

/// Sums a count over `src` in registers of 16 bytes: `step` folds the
/// register at `p` into the 8-bit lane counters (adding at most `PER` to
/// each), the counters are summed across lanes before they can pass 255,
/// and the last `src.len() % 16` bytes go to `tail`.
///
/// # Safety
///
/// `step(p, _)` reads at most the 16 bytes at `p`.
#[inline(always)]
unsafe fn count_bytes<const PER: usize>(
    src: &[u8],
    step: impl Fn(*const u8, uint8x16_t) -> uint8x16_t,
    tail: impl Fn(&[u8]) -> usize,
) -> usize {
    let whole = src.len() / BYTES;
    let mut total = 0;
    let mut done = 0;
    while done < whole {
        let n = (whole - done).min(255 / PER);
        // SAFETY: NEON is part of the target (this module is compiled only
        // for aarch64 with NEON).
        let mut acc = unsafe { vdupq_n_u8(0) };
        for k in done..done + n {
            // In bounds: `k < whole`, so `k * BYTES + BYTES <= src.len()`.
            acc = step(src[k * BYTES..].as_ptr(), acc);
        }
        // SAFETY: as above.
        total += usize::from(unsafe { vaddlvq_u8(acc) });
        done += n;
    }
    total + tail(&src[whole * BYTES..])
}

/// `scalar::count_utf8`: the bytes that are not continuations (signed,
/// above −65, that is not `80..=BF`).
///
/// # Safety
///
/// None beyond NEON, which the target has.
pub(super) unsafe fn count_utf8(src: &[u8]) -> usize {
    // SAFETY: each step reads the 16 bytes `count_bytes` hands it.
    unsafe {
        count_bytes::<1>(
            src,
            |p, acc| {
                let x = vreinterpretq_s8_u8(vld1q_u8(p));
                vsubq_u8(acc, vcgtq_s8(x, vdupq_n_s8(-65)))
            },
            scalar::count_utf8,
        )
    }
}

/// `scalar::utf16_len_from_utf8`: one unit per byte that is not a
/// continuation, one more per 4-byte lead (`F0..`).
///
/// # Safety
///
/// None beyond NEON, which the target has.
pub(super) unsafe fn utf16_len_from_utf8(src: &[u8]) -> usize {
    // SAFETY: each step reads the 16 bytes `count_bytes` hands it.
    unsafe {
        count_bytes::<2>(
            src,
            |p, acc| {
                let x = vld1q_u8(p);
                let chars = vcgtq_s8(vreinterpretq_s8_u8(x), vdupq_n_s8(-65));
                let fours = vcgeq_u8(x, vdupq_n_u8(0xF0));
                vsubq_u8(vsubq_u8(acc, chars), fours)
            },
            scalar::utf16_len_from_utf8,
        )
    }
}

/// `scalar::utf8_len_from_latin1`: one byte each, one more from `80`.
///
/// # Safety
///
/// None beyond NEON, which the target has.
pub(super) unsafe fn utf8_len_from_latin1(src: &[u8]) -> usize {
    // SAFETY: each step reads the 16 bytes `count_bytes` hands it.
    let high = unsafe {
        count_bytes::<1>(
            src,
            |p, acc| vsubq_u8(acc, vcltzq_s8(vreinterpretq_s8_u8(vld1q_u8(p)))),
            |rest| rest.iter().filter(|&&b| b >= 0x80).count(),
        )
    };
    src.len() + high
}

/// The surrogate pairs of `src` (a lead followed by a trail) and the sum,
/// over its units, of 1 from `80` and 1 more from `800`: what the two
/// UTF-16 counts need. Each register pairs the units at `i..i + 8` with
/// those at `i + 1..i + 9`, so the loop stops one unit before the last
/// register; the scalar definitions count the rest.
#[inline(always)]
fn utf16_sums<const WIDTHS: bool>(src: &[u16]) -> (usize, usize) {
    let n = src.len();
    let (mut pairs, mut widths) = (0usize, 0usize);
    let mut i = 0;
    while n - i > UNITS {
        // A flush every 4096 registers: each adds at most 2 to a lane.
        let end = i + (n - i - 1) / UNITS * UNITS;
        let end = end.min(i + 4096 * UNITS);
        // SAFETY: NEON is part of the target; every load reads 8 units at
        // `j` or `j + 1` with `j + 1 + 8 <= end + 1 <= n`.
        unsafe {
            let (mut acc_pairs, mut acc_widths) = (vdupq_n_u16(0), vdupq_n_u16(0));
            let mask = vdupq_n_u16(0xFC00);
            let mut j = i;
            while j < end {
                let a = vld1q_u16(src[j..].as_ptr());
                let b = vld1q_u16(src[j + 1..].as_ptr());
                let lead = vceqq_u16(vandq_u16(a, mask), vdupq_n_u16(0xD800));
                let trail = vceqq_u16(vandq_u16(b, mask), vdupq_n_u16(0xDC00));
                acc_pairs = vsubq_u16(acc_pairs, vandq_u16(lead, trail));
                if WIDTHS {
                    let two = vcgeq_u16(a, vdupq_n_u16(0x80));
                    let three = vcgeq_u16(a, vdupq_n_u16(0x800));
                    acc_widths = vsubq_u16(vsubq_u16(acc_widths, two), three);
                }
                j += UNITS;
            }
            pairs += vaddlvq_u16(acc_pairs) as usize;
            widths += vaddlvq_u16(acc_widths) as usize;
            i = j;
        }
    }
    // The pairs that start at `i..`, and the widths of those units.
    let rest = &src[i..];
    let rest_chars = scalar::count_utf16(rest);
    let rest_widths = if WIDTHS {
        rest.iter()
            .map(|&u| usize::from(u >= 0x80) + usize::from(u >= 0x800))
            .sum()
    } else {
        0
    };
    (pairs + (rest.len() - rest_chars), widths + rest_widths)
}

/// `scalar::count_utf16`: the units, less one per surrogate pair.
///
/// # Safety
///
/// None beyond NEON, which the target has.
pub(super) unsafe fn count_utf16(src: &[u16]) -> usize {
    src.len() - utf16_sums::<false>(src).0
}

/// `scalar::utf8_len_from_utf16`: 1, 2 or 3 bytes a unit, less 2 a pair.
///
/// # Safety
///
/// None beyond NEON, which the target has.
pub(super) unsafe fn utf8_len_from_utf16(src: &[u16]) -> usize {
    let (pairs, widths) = utf16_sums::<true>(src);
    src.len() + widths - 2 * pairs
}

/// Source units per step of the conversions: one register of bytes, two
/// of 16-bit units, four of 32-bit ones.
const STEP: usize = 16;

/// Converts `src` to `dst` one unit for one unit, [`STEP`] units at a
/// time, while `step` accepts them: `step(p, q)` reads the 16 units at
/// `p` and, if it can convert them all, writes their 16 units at `q` and
/// returns `true`; otherwise it writes nothing and returns `false`, and the
/// conversion stops there (the scalar code carries on, see the kernel
/// contract in `arch`'s docs). Every kernel below converts only whole
/// characters of one unit (ASCII, Latin-1, the BMP outside the
/// surrogates), so each step ends at a character boundary.
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

/// Loads 16 units of 16 bits, as two registers.
///
/// # Safety
///
/// `p` is valid for reads of 16 units.
#[inline(always)]
unsafe fn load16(p: *const u16) -> [uint16x8_t; 2] {
    // SAFETY: the caller guarantees the units.
    unsafe { [vld1q_u16(p), vld1q_u16(p.add(8))] }
}

/// Loads 16 units of 32 bits, as four registers.
///
/// # Safety
///
/// `p` is valid for reads of 16 units.
#[inline(always)]
unsafe fn load32(p: *const u32) -> [uint32x4_t; 4] {
    // SAFETY: the caller guarantees the units.
    unsafe {
        [
            vld1q_u32(p),
            vld1q_u32(p.add(4)),
            vld1q_u32(p.add(8)),
            vld1q_u32(p.add(12)),
        ]
    }
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

/// Stores 16 units of 16 bits as 16 units of 32 bits.
///
/// # Safety
///
/// `q` is valid for writes of 16 units.
#[inline(always)]
unsafe fn store_widened32_from16(u: [uint16x8_t; 2], q: *mut u32) {
    // SAFETY: the caller guarantees the 16 units.
    unsafe {
        vst1q_u32(q, vmovl_u16(vget_low_u16(u[0])));
        vst1q_u32(q.add(4), vmovl_high_u16(u[0]));
        vst1q_u32(q.add(8), vmovl_u16(vget_low_u16(u[1])));
        vst1q_u32(q.add(12), vmovl_high_u16(u[1]));
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
    unsafe { store_widened32_from16([vmovl_u8(vget_low_u8(x)), vmovl_high_u8(x)], q) }
}

/// The low bytes of 16 units of 16 bits.
#[inline(always)]
fn narrow16(u: [uint16x8_t; 2]) -> uint8x16_t {
    // SAFETY: NEON is part of the target.
    unsafe { vmovn_high_u16(vmovn_u16(u[0]), u[1]) }
}

/// The low halves of 16 units of 32 bits.
#[inline(always)]
fn narrow32(u: [uint32x4_t; 4]) -> [uint16x8_t; 2] {
    // SAFETY: NEON is part of the target.
    unsafe {
        [
            vmovn_high_u32(vmovn_u32(u[0]), u[1]),
            vmovn_high_u32(vmovn_u32(u[2]), u[3]),
        ]
    }
}

/// The largest of 16 units of 16 bits.
#[inline(always)]
fn max16(u: [uint16x8_t; 2]) -> u16 {
    // SAFETY: NEON is part of the target.
    unsafe { vmaxvq_u16(vmaxq_u16(u[0], u[1])) }
}

/// The largest of 16 units of 32 bits.
#[inline(always)]
fn max32(u: [uint32x4_t; 4]) -> u32 {
    // SAFETY: NEON is part of the target.
    unsafe { vmaxvq_u32(vmaxq_u32(vmaxq_u32(u[0], u[1]), vmaxq_u32(u[2], u[3]))) }
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
/// also the NEON table's valid UTF-8 → UTF-32 (its ASCII registers).
///
/// # Safety
///
/// None beyond NEON, which the target has.
pub(super) unsafe fn utf8_to_utf32(src: &[u8], dst: &mut [u32]) -> (usize, usize) {
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

/// ASCII bytes copied: valid UTF-8 to Latin-1 and Latin-1 to UTF-8, for
/// their ASCII registers.
///
/// # Safety
///
/// None beyond NEON, which the target has.
pub(super) unsafe fn ascii_copy(src: &[u8], dst: &mut [u8]) -> (usize, usize) {
    // SAFETY: each step reads and writes the 16 bytes it is given.
    unsafe {
        one_to_one(src, dst, |p, q| {
            let x = load8(p);
            ascii8(x) && {
                vst1q_u8(q, x);
                true
            }
        })
    }
}

/// Latin-1 to UTF-16: every byte is its unit.
///
/// # Safety
///
/// None beyond NEON, which the target has.
pub(super) unsafe fn latin1_to_utf16(src: &[u8], dst: &mut [u16]) -> (usize, usize) {
    // SAFETY: each step reads and writes the 16 units it is given.
    unsafe {
        one_to_one(src, dst, |p, q| {
            store_widened16(load8(p), q);
            true
        })
    }
}

/// Latin-1 to UTF-32: every byte is its unit.
///
/// # Safety
///
/// None beyond NEON, which the target has.
pub(super) unsafe fn latin1_to_utf32(src: &[u8], dst: &mut [u32]) -> (usize, usize) {
    // SAFETY: each step reads and writes the 16 units it is given.
    unsafe {
        one_to_one(src, dst, |p, q| {
            store_widened32(load8(p), q);
            true
        })
    }
}

/// UTF-16 to UTF-8 (its ASCII registers) and to Latin-1 (registers below
/// `LIMIT`): the units' low bytes.
///
/// # Safety
///
/// None beyond NEON, which the target has.
pub(super) unsafe fn utf16_narrow<const LIMIT: u16>(src: &[u16], dst: &mut [u8]) -> (usize, usize) {
    // SAFETY: each step reads and writes the 16 units it is given.
    unsafe {
        one_to_one(src, dst, |p, q| {
            let u = load16(p);
            max16(u) < LIMIT && {
                vst1q_u8(q, narrow16(u));
                true
            }
        })
    }
}

/// UTF-32 to UTF-8 (its ASCII registers) and to Latin-1 (registers below
/// `LIMIT`): the units' low bytes.
///
/// # Safety
///
/// None beyond NEON, which the target has.
pub(super) unsafe fn utf32_narrow<const LIMIT: u32>(src: &[u32], dst: &mut [u8]) -> (usize, usize) {
    // SAFETY: each step reads and writes the 16 units it is given.
    unsafe {
        one_to_one(src, dst, |p, q| {
            let u = load32(p);
            max32(u) < LIMIT && {
                vst1q_u8(q, narrow16(narrow32(u)));
                true
            }
        })
    }
}

/// UTF-16 to UTF-32, registers without a surrogate (`D800..=DFFF`, whose
/// top five bits are `11011`).
///
/// # Safety
///
/// None beyond NEON, which the target has.
pub(super) unsafe fn utf16_to_utf32(src: &[u16], dst: &mut [u32]) -> (usize, usize) {
    // SAFETY: each step reads and writes the 16 units it is given.
    unsafe {
        one_to_one(src, dst, |p, q| {
            let u = load16(p);
            let top = vdupq_n_u16(0xF800);
            let sur = vdupq_n_u16(0xD800);
            let s0 = vceqq_u16(vandq_u16(u[0], top), sur);
            let s1 = vceqq_u16(vandq_u16(u[1], top), sur);
            max16([s0, s1]) == 0 && {
                store_widened32_from16(u, q);
                true
            }
        })
    }
}

/// UTF-32 to UTF-16, registers of BMP characters (below `D800`, or
/// `E000..=FFFF`).
///
/// # Safety
///
/// None beyond NEON, which the target has.
pub(super) unsafe fn utf32_to_utf16(src: &[u32], dst: &mut [u16]) -> (usize, usize) {
    // SAFETY: each step reads and writes the 16 units it is given.
    unsafe {
        one_to_one(src, dst, |p, q| {
            let u = load32(p);
            // A lane is good if below D800, or if `u - E000` (wrapping) is at
            // most 1FFF: the smallest of the good masks decides.
            let good = |x: uint32x4_t| {
                vorrq_u32(
                    vcltq_u32(x, vdupq_n_u32(0xD800)),
                    vcleq_u32(vsubq_u32(x, vdupq_n_u32(0xE000)), vdupq_n_u32(0x1FFF)),
                )
            };
            let all = vminvq_u32(vandq_u32(
                vandq_u32(good(u[0]), good(u[1])),
                vandq_u32(good(u[2]), good(u[3])),
            ));
            all != 0 && {
                let n = narrow32(u);
                vst1q_u16(q, n[0]);
                vst1q_u16(q.add(8), n[1]);
                true
            }
        })
    }
}
