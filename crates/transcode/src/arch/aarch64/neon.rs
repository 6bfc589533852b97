//! The NEON kernels of the [`NEON`](super::NEON) table.
//!
//! Counts keep one 8- or 16-bit counter per lane, which a register of
//! comparison masks (all ones, that is −1, where a byte counts) decrements
//! in one instruction; the counters are summed across lanes (`vaddlvq`)
//! before they can overflow. Conversions widen 16 bytes at a time and stop
//! at the first register they cannot convert whole, where the scalar code
//! in `crate::drive` carries on (the kernel contract in `arch`'s docs).

use crate::count::scalar;
use core::arch::aarch64::{
    uint8x16_t, uint16x8_t, vaddlvq_u8, vaddlvq_u16, vandq_u16, vceqq_u16, vcgeq_u8, vcgeq_u16,
    vcgtq_s8, vcltzq_s8, vdupq_n_s8, vdupq_n_u8, vdupq_n_u16, vget_low_u8, vget_low_u16, vld1q_u8,
    vld1q_u16, vmaxvq_u8, vmovl_high_u8, vmovl_high_u16, vmovl_u8, vmovl_u16, vreinterpretq_s8_u8,
    vst1q_u16, vst1q_u32, vsubq_u8, vsubq_u16,
};

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

/// Converts registers of `src` to `dst` while `whole` accepts them (all of
/// them, for Latin-1; ASCII ones, for the ASCII prefix): 16 bytes to 16
/// units, widened by `store`.
///
/// # Safety
///
/// `store(x, q)` writes at most the 16 units at `q`.
#[inline(always)]
unsafe fn widen<D>(
    src: &[u8],
    dst: &mut [D],
    whole: impl Fn(uint8x16_t) -> bool,
    store: impl Fn(uint8x16_t, *mut D),
) -> (usize, usize) {
    let n = src.len().min(dst.len());
    let mut i = 0;
    while n - i >= BYTES {
        // SAFETY: NEON is part of the target; `i + 16 <= src.len()` for the
        // load and `i + 16 <= dst.len()` for the store.
        let x = unsafe { vld1q_u8(src[i..].as_ptr()) };
        if !whole(x) {
            break;
        }
        store(x, dst[i..].as_mut_ptr());
        i += BYTES;
    }
    (i, i)
}

/// Stores the 16 bytes of `x` as 16 units at `q`.
///
/// # Safety
///
/// `q` is valid for writes of 16 units.
#[inline(always)]
unsafe fn store_u16(x: uint8x16_t, q: *mut u16) {
    // SAFETY: the caller guarantees the 16 units.
    unsafe {
        let lo: uint16x8_t = vmovl_u8(vget_low_u8(x));
        let hi: uint16x8_t = vmovl_high_u8(x);
        vst1q_u16(q, lo);
        vst1q_u16(q.add(8), hi);
    }
}

/// Any bytes to UTF-16, up to the first register with a byte from `80`.
///
/// # Safety
///
/// None beyond NEON, which the target has.
pub(super) unsafe fn ascii_to_utf16(src: &[u8], dst: &mut [u16]) -> (usize, usize) {
    // SAFETY: `store_u16` writes the 16 units `widen` checked.
    unsafe { widen::<u16>(src, dst, |x| vmaxvq_u8(x) < 0x80, |x, q| store_u16(x, q)) }
}

/// Latin-1 to UTF-16: every byte is its unit.
///
/// # Safety
///
/// None beyond NEON, which the target has.
pub(super) unsafe fn latin1_to_utf16(src: &[u8], dst: &mut [u16]) -> (usize, usize) {
    // SAFETY: `store_u16` writes the 16 units `widen` checked.
    unsafe { widen::<u16>(src, dst, |_| true, |x, q| store_u16(x, q)) }
}

/// Latin-1 to UTF-32: every byte is its unit.
///
/// # Safety
///
/// None beyond NEON, which the target has.
pub(super) unsafe fn latin1_to_utf32(src: &[u8], dst: &mut [u32]) -> (usize, usize) {
    // SAFETY: the store writes the 16 units `widen` checked.
    unsafe {
        widen::<u32>(
            src,
            dst,
            |_| true,
            |x, q| {
                let lo = vmovl_u8(vget_low_u8(x));
                let hi = vmovl_high_u8(x);
                vst1q_u32(q, vmovl_u16(vget_low_u16(lo)));
                vst1q_u32(q.add(4), vmovl_high_u16(lo));
                vst1q_u32(q.add(8), vmovl_u16(vget_low_u16(hi)));
                vst1q_u32(q.add(12), vmovl_high_u16(hi));
            },
        )
    }
}
