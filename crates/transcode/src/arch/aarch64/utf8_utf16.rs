//! NEON: valid UTF-8 → UTF-16 (native, or byte-swapped with `SWAP`).
//!
//! The design of the x86-64 kernels (`x86_64/utf8_utf16.rs` explains
//! it) on 16-byte registers, through the shared block loop
//! (`arch/block.rs`), which stores a block in place only when the next one
//! overwrites its stray lanes. Each block starts at a character boundary,
//! loads the 16 bytes there and takes the first of:
//!
//! 1. ASCII: a run of registers below 0x80 (up to `block::RUN` bytes),
//!    each widened to 16 units.
//! 2. A run of 3-byte characters (CJK): while the 16 bytes at a step have
//!    continuation bytes exactly at 1, 2, 4, 5, .., 13, 14 (one comparison
//!    with that pattern), their 5 characters are decoded from three `tbl`
//!    gathers of their first, second and third bytes, and the step moves
//!    15 bytes.
//! 3. No 4-byte lead (`F0..`) at positions 0..14 → the *window*: a unit is
//!    decoded at every position at once, its low and high bytes in two byte
//!    registers, from the register and its copies moved down by 1 and 2
//!    bytes (`ext`; `sli` does the shift-and-insert that joins the 6-bit
//!    fields), then interleaved (`zip`) into 16-bit lanes (the order of the
//!    interleave is the byte swap, free). The lanes of the positions
//!    0..14 where a character starts are left-packed 8 at a time with
//!    `tbl` and [`PACK16`]; the block reads up to the end of the last of
//!    those characters (14 to 16 bytes), so it ends at a boundary. A window
//!    takes every mix of 1-, 2- and 3-byte characters: Cyrillic, CJK,
//!    Hindi.
//! 4. Four 4-byte characters (starts at 0, 4, 8, 12: Emoji text) → 8
//!    surrogate units computed in the 32-bit lanes.
//! 5. Otherwise (a 4-byte character among others at 0..13): the window
//!    again, each such character at 0..12 making its lead surrogate in its
//!    lead's lane and its trail in the next lane, whose own second and
//!    third bytes are the character's last two (the x86-64 kernels'
//!    windows do the same); one at 13, whose last byte is not loaded, ends
//!    the block before it. (These characters went one by one, through a
//!    scalar decoder, before.)
//!
//! The input has been validated, or is a `&str`; on other bytes a block
//! writes wrong units but stays inside its 16 bytes and its output,
//! and every block reads at least 13 bytes or ends the conversion, so the
//! loop ends. Blocks need 16 bytes, so the last 15 bytes at most are left
//! to the scalar code.

use super::neon::bits16;
use crate::arch::block::{self, Block};
use crate::arch::tables::PACK16;
use core::arch::aarch64::{
    uint8x16_t, vaddq_u32, vandq_u8, vandq_u32, vbslq_u8, vbslq_u16, vbslq_u32, vceqq_u8, vcgeq_u8,
    vcgtq_s8, vcltq_s8, vdupq_n_s8, vdupq_n_u8, vdupq_n_u16, vdupq_n_u32, vextq_u8, vget_low_u8,
    vgetq_lane_u32, vld1q_u8, vmaxvq_u8, vminvq_u8, vorrq_u8, vqtbl1q_u8, vreinterpretq_s8_u8,
    vreinterpretq_u8_u32, vreinterpretq_u16_u32, vreinterpretq_u32_u8, vreinterpretq_u32_u16,
    vrev16q_u8, vrev32q_u8, vshrq_n_u8, vshrq_n_u16, vshrq_n_u32, vsliq_n_u8, vsliq_n_u32, vst1_u8,
    vst1q_u8, vsubq_u8, vzip1q_u8, vzip2q_u8,
};

/// What a block holds.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    /// `read` bytes of ASCII at `p`.
    Ascii,
    /// `read` bytes of 3-byte characters at `p`, 15 bytes a step.
    Three,
    /// A window: `units[0]` holds `n1` units, `units[1]` the rest.
    Window,
    /// Four 4-byte characters: `units[0]` holds their 8 units.
    Four,
}

/// A block of UTF-8 and its units, ready to be stored.
#[derive(Clone, Copy)]
struct FromUtf8<const SWAP: bool> {
    kind: Kind,
    /// The block's first byte (read again by `Ascii` blocks when stored).
    p: *const u8,
    read: usize,
    written: usize,
    /// `Window`: the units in `units[0]`.
    n1: usize,
    /// The units, in the output's byte order, 8 a register.
    units: [uint8x16_t; 2],
}

impl<const SWAP: bool> Block<[u8; 2]> for FromUtf8<SWAP> {
    #[inline(always)]
    fn read(&self) -> usize {
        self.read
    }

    #[inline(always)]
    fn written(&self) -> usize {
        self.written
    }

    #[inline(always)]
    fn stray(&self) -> usize {
        match self.kind {
            Kind::Ascii | Kind::Four => 0,
            // Each step stores 8 units for its 5 characters.
            Kind::Three => 3,
            // The second register is stored as 6 units (positions 8..14
            // hold at most 6 starts) after the first register's `n1`.
            Kind::Window => self.n1 + 6 - self.written,
        }
    }

    #[inline(always)]
    unsafe fn store(&self, dst: *mut [u8; 2]) {
        let q = dst.cast::<u8>();
        // SAFETY: the caller guarantees `written() + stray()` units at
        // `dst`, which is what each arm writes (byte stores: any
        // alignment); `Ascii` reads its `read` bytes at `p`, which
        // `block_at` checked are inside the input.
        unsafe {
            match self.kind {
                Kind::Ascii => {
                    let mut k = 0;
                    while k < self.read {
                        let x = vld1q_u8(self.p.add(k));
                        let z = vdupq_n_u8(0);
                        let (a, b) = if SWAP {
                            (vzip1q_u8(z, x), vzip2q_u8(z, x))
                        } else {
                            (vzip1q_u8(x, z), vzip2q_u8(x, z))
                        };
                        vst1q_u8(q.add(2 * k), a);
                        vst1q_u8(q.add(2 * k + 16), b);
                        k += 16;
                    }
                }
                Kind::Three => {
                    let (mut k, mut o) = (0, 0);
                    while k < self.read {
                        vst1q_u8(q.add(o), three::<SWAP>(vld1q_u8(self.p.add(k))));
                        k += 15;
                        o += 10;
                    }
                }
                Kind::Four => vst1q_u8(q, self.units[0]),
                Kind::Window => {
                    vst1q_u8(q, self.units[0]);
                    let q = q.add(2 * self.n1);
                    let b = self.units[1];
                    vst1_u8(q, vget_low_u8(b));
                    let lanes45 = vgetq_lane_u32::<2>(vreinterpretq_u32_u8(b));
                    q.add(8).cast::<u32>().write_unaligned(lanes45);
                }
            }
        }
    }
}

/// Valid UTF-8 to native UTF-16: the table entry.
pub(super) fn utf8_to_utf16(src: &[u8], dst: &mut [u16]) -> (usize, usize) {
    convert::<false>(src, as_pairs(dst))
}

/// Valid UTF-8 to UTF-16 in bytes, swapped if `SWAP`: the table entry.
pub(super) fn utf8_to_utf16_bytes<const SWAP: bool>(
    src: &[u8],
    dst: &mut [[u8; 2]],
) -> (usize, usize) {
    convert::<SWAP>(src, dst)
}

/// See the module docs: `(read, written)`, `dst[..written]` exactly.
#[inline(always)]
fn convert<const SWAP: bool>(src: &[u8], dst: &mut [[u8; 2]]) -> (usize, usize) {
    let n = src.len();
    let s = src.as_ptr();
    block::run(
        dst,
        #[inline(always)]
        |i, room| {
            let left = n.checked_sub(i)?;
            if left < 16 {
                return None;
            }
            let p = s.wrapping_add(i);
            // SAFETY: `i + 16 <= n`.
            let v = unsafe { vld1q_u8(p) };
            // SAFETY: NEON is part of the target (here and below).
            let max = unsafe { vmaxvq_u8(v) };
            if max < 0x80 {
                let len = block::run_len(
                    left.min(room).min(block::RUN),
                    16,
                    #[inline(always)]
                    // SAFETY: `run_len` asks for 16 bytes at `k` only if
                    // `k + 16 <= left`.
                    |k| unsafe { vmaxvq_u8(vld1q_u8(p.add(k))) < 0x80 },
                );
                if len > 0 {
                    return Some(ascii::<SWAP>(p, len));
                }
            }
            if (0xE0..0xF0).contains(&max) && three_at(v) {
                let len = block::run_len(
                    (left - 1).min(room.saturating_mul(3)).min(block::RUN),
                    15,
                    #[inline(always)]
                    // SAFETY: `run_len` asks for 15 bytes at `k` only if
                    // `k + 15 <= left - 1`: the 16 loaded are inside.
                    |k| three_at(unsafe { vld1q_u8(p.add(k)) }),
                );
                if len > 0 {
                    return Some(FromUtf8 {
                        kind: Kind::Three,
                        read: len,
                        written: len / 3,
                        ..ascii::<SWAP>(p, len)
                    });
                }
            }
            // SAFETY: NEON.
            let starts = bits16(unsafe { vcgtq_s8(vreinterpretq_s8_u8(v), vdupq_n_s8(-65)) });
            if max < 0xF0 || no_four_in_window(v) {
                return Some(window::<SWAP, false>(v, starts, 0));
            }
            if starts == 0x1111 {
                return Some(four::<SWAP>(v));
            }
            // A 4-byte lead at 0..13 (`no_four_in_window` is false).
            // SAFETY: NEON.
            let fours = bits16(unsafe { vcgeq_u8(v, vdupq_n_u8(0xF0)) });
            Some(window::<SWAP, true>(v, starts, fours))
        },
    )
}

/// An ASCII block of `len` bytes at `p`.
#[inline(always)]
fn ascii<const SWAP: bool>(p: *const u8, len: usize) -> FromUtf8<SWAP> {
    // SAFETY: NEON.
    let zero = unsafe { vdupq_n_u8(0) };
    FromUtf8 {
        kind: Kind::Ascii,
        p,
        read: len,
        written: len,
        n1: 0,
        units: [zero; 2],
    }
}

/// Whether the 16 bytes `v` start with five 3-byte characters (and a
/// sixth character at 15): continuation bytes (`80..=BF`) exactly at
/// positions 1, 2, 4, 5, .., 13, 14. On valid UTF-8 a byte that is not a
/// continuation, followed by exactly two, is a 3-byte lead. CJK text: one
/// comparison with the pattern, where the window's start mask and packing
/// took three times the instructions for a third more characters.
#[inline(always)]
fn three_at(v: uint8x16_t) -> bool {
    const CONT: [u8; 16] = [
        0, 0xFF, 0xFF, 0, 0xFF, 0xFF, 0, 0xFF, 0xFF, 0, 0xFF, 0xFF, 0, 0xFF, 0xFF, 0,
    ];
    // SAFETY: NEON; CONT is 16 bytes.
    unsafe {
        let cont = vcltq_s8(vreinterpretq_s8_u8(v), vdupq_n_s8(-64));
        vminvq_u8(vceqq_u8(cont, vld1q_u8(CONT.as_ptr()))) == 0xFF
    }
}

/// The 5 characters of 3 bytes that start the 16 bytes `v`, as 8 units (5
/// and 3 zero ones): the characters' first, second and third bytes
/// gathered with `tbl`, then joined as in the window.
#[inline(always)]
fn three<const SWAP: bool>(v: uint8x16_t) -> uint8x16_t {
    const FIRST: [u8; 16] = [0, 3, 6, 9, 12, 0xFF, 0xFF, 0xFF, 0, 0, 0, 0, 0, 0, 0, 0];
    const SECOND: [u8; 16] = [1, 4, 7, 10, 13, 0xFF, 0xFF, 0xFF, 0, 0, 0, 0, 0, 0, 0, 0];
    const THIRD: [u8; 16] = [2, 5, 8, 11, 14, 0xFF, 0xFF, 0xFF, 0, 0, 0, 0, 0, 0, 0, 0];
    // SAFETY: NEON; the index rows are 16 bytes.
    unsafe {
        let b0 = vqtbl1q_u8(v, vld1q_u8(FIRST.as_ptr()));
        let b1 = vqtbl1q_u8(v, vld1q_u8(SECOND.as_ptr()));
        let b2 = vqtbl1q_u8(v, vld1q_u8(THIRD.as_ptr()));
        let lo = vsliq_n_u8::<6>(b2, b1);
        let hi = vsliq_n_u8::<4>(vshrq_n_u8::<2>(b1), b0);
        if SWAP {
            vzip1q_u8(hi, lo)
        } else {
            vzip1q_u8(lo, hi)
        }
    }
}

/// Whether no byte at positions 0..14 of `v` is `F0` or above.
#[inline(always)]
fn no_four_in_window(v: uint8x16_t) -> bool {
    const FIRST14: [u8; 16] = [
        0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0, 0,
    ];
    // SAFETY: NEON; FIRST14 is 16 bytes.
    unsafe { vmaxvq_u8(vandq_u8(v, vld1q_u8(FIRST14.as_ptr()))) < 0xF0 }
}

/// The window at `v` (module docs, path 3); `starts` has bit `k` set where
/// a character starts at position `k`. With `FOUR`, `fours` has bit `k`
/// set where a 4-byte character starts (path 5): those at 0..12 make
/// their lead surrogate in the lead's lane and their trail in the next
/// lane, whose own second and third bytes are the character's last two;
/// one at 13, whose last byte is not loaded, ends the block before it.
#[inline(always)]
fn window<const SWAP: bool, const FOUR: bool>(
    v: uint8x16_t,
    starts: u32,
    fours: u32,
) -> FromUtf8<SWAP> {
    // SAFETY: NEON; the table rows are 16 bytes.
    unsafe {
        // The bytes at each position, and the one and two after it (the
        // last lanes wrap around; their positions are never kept).
        let x1 = vextq_u8::<1>(v, v);
        let x2 = vextq_u8::<2>(v, v);
        let is2 = vcgeq_u8(v, vdupq_n_u8(0xC0));
        let is3 = vcgeq_u8(v, vdupq_n_u8(0xE0));
        // Low byte: ASCII `b0`; 2 bytes `b0 << 6 | b1 & 3F`; 3 bytes
        // `b1 << 6 | b2 & 3F` (`sli` keeps the low 6 bits of its first).
        let lo2 = vsliq_n_u8::<6>(x1, v);
        let lo3 = vsliq_n_u8::<6>(x2, x1);
        let mut lo = vbslq_u8(is3, lo3, vbslq_u8(is2, lo2, v));
        // High byte: ASCII 0; 2 bytes `b0 >> 2 & 7`; 3 bytes
        // `b0 << 4 | b1 >> 2 & F`.
        let hi2 = vandq_u8(vandq_u8(vshrq_n_u8::<2>(v), vdupq_n_u8(0x07)), is2);
        let hi3 = vsliq_n_u8::<4>(vshrq_n_u8::<2>(x1), v);
        let mut hi = vbslq_u8(is3, hi3, hi2);
        let mut starts = starts;
        let mut end = None;
        if FOUR {
            // With `p = ((b0 & 7) << 2 | b1 >> 4 & 3) - 1` (the plane less
            // one): the lead `D8 | p >> 2`, `p << 6 | (b1 & F) << 2 | b2 >> 4
            // & 3`; the trail, from its own lane's `b1` and `b2` (the
            // character's third and fourth bytes), `DC | b1 >> 2 & 3`,
            // `b1 << 6 | b2 & 3F`, which is `lo3`.
            let is4 = vcgeq_u8(v, vdupq_n_u8(0xF0));
            let after4 = vextq_u8::<15>(vdupq_n_u8(0), is4);
            let plane = vandq_u8(vsliq_n_u8::<2>(vshrq_n_u8::<4>(x1), v), vdupq_n_u8(0x1F));
            let p = vsubq_u8(plane, vdupq_n_u8(1));
            let lo4 = vsliq_n_u8::<6>(vsliq_n_u8::<2>(vshrq_n_u8::<4>(x2), x1), p);
            let hi4 = vorrq_u8(vshrq_n_u8::<2>(p), vdupq_n_u8(0xD8));
            let hi_trail = vorrq_u8(
                vandq_u8(vshrq_n_u8::<2>(x1), vdupq_n_u8(3)),
                vdupq_n_u8(0xDC),
            );
            lo = vbslq_u8(after4, lo3, vbslq_u8(is4, lo4, lo));
            hi = vbslq_u8(after4, hi_trail, vbslq_u8(is4, hi4, hi));
            starts |= (fours & 0x1FFF) << 1;
            if fours & 1 << 13 != 0 {
                starts &= 0x1FFF;
                end = Some(13);
            }
        }
        let (a, b) = if SWAP {
            (vzip1q_u8(hi, lo), vzip2q_u8(hi, lo))
        } else {
            (vzip1q_u8(lo, hi), vzip2q_u8(lo, hi))
        };
        let (m1, m2) = ((starts & 0xFF) as usize, ((starts >> 8) & 0x3F) as usize);
        let a = vqtbl1q_u8(a, vld1q_u8(PACK16[m1].as_ptr()));
        let b = vqtbl1q_u8(b, vld1q_u8(PACK16[m2].as_ptr()));
        let n1 = m1.count_ones() as usize;
        // The block ends where the last character kept ends: at 14, or
        // after the continuation bytes at 14 and 15 (bits clear).
        let tail = (starts >> 14) & 3;
        let read = end.unwrap_or(14 + (tail | 4).trailing_zeros() as usize);
        FromUtf8 {
            kind: Kind::Window,
            p: core::ptr::null(),
            read,
            written: n1 + m2.count_ones() as usize,
            n1,
            units: [a, b],
        }
    }
}

/// Four 4-byte characters (module docs, path 4).
#[inline(always)]
fn four<const SWAP: bool>(v: uint8x16_t) -> FromUtf8<SWAP> {
    // SAFETY: NEON.
    unsafe {
        // Each 32-bit lane as `b0 << 24 | b1 << 16 | b2 << 8 | b3`, with
        // the value's bits only.
        let x = vandq_u32(
            vreinterpretq_u32_u8(vrev32q_u8(v)),
            vdupq_n_u32(0x073F_3F3F),
        );
        // Each 16-bit half `h << 8 | l` to `h << 6 | l`, then the halves
        // `H << 16 | L` to `H << 12 | L`: the character's value.
        let y = vreinterpretq_u16_u32(x);
        let y = vbslq_u16(vdupq_n_u16(0x3F), y, vshrq_n_u16::<2>(y));
        let z = vreinterpretq_u32_u16(y);
        let c = vbslq_u32(vdupq_n_u32(0xFFF), z, vshrq_n_u32::<4>(z));
        // Lead `D800 + (c - 10000) >> 10` = `D7C0 + c >> 10` first, then
        // the trail `DC00 | c & 3FF`.
        let lead = vaddq_u32(vshrq_n_u32::<10>(c), vdupq_n_u32(0xD7C0));
        let trail = vbslq_u32(vdupq_n_u32(0x3FF), c, vdupq_n_u32(0xDC00));
        let units = vreinterpretq_u8_u32(vsliq_n_u32::<16>(lead, trail));
        let units = if SWAP { vrev16q_u8(units) } else { units };
        FromUtf8 {
            kind: Kind::Four,
            p: core::ptr::null(),
            read: 16,
            written: 8,
            n1: 8,
            units: [units, vdupq_n_u8(0)],
        }
    }
}

/// Reinterprets UTF-16 units as pairs of bytes in memory order, the form
/// the kernel writes.
#[inline(always)]
fn as_pairs(dst: &mut [u16]) -> &mut [[u8; 2]] {
    // SAFETY: `[u8; 2]` has the size of `u16`, a smaller alignment, and no
    // invalid bit patterns either way; the new slice covers the same
    // memory and borrows `dst` mutably for its lifetime.
    unsafe { core::slice::from_raw_parts_mut(dst.as_mut_ptr().cast::<[u8; 2]>(), dst.len()) }
}
