//! NEON: UTF-16 (native, or byte-swapped with `SWAP`) → UTF-8, stopping
//! before errors.
//!
//! The design of the x86-64 kernels (`x86_64/utf16_utf8.rs` explains
//! it) on blocks of 8 units, through the shared block loop
//! (`arch/block.rs`), which stores a block in place only when the next one
//! overwrites its stray bytes. Each block takes the first of:
//!
//! 1. ASCII: a run of 8-unit registers below 0x80 (up to `block::RUN`
//!    units), each narrowed to 8 bytes.
//! 2. A surrogate among the 8 units, all in pairs (a lead in the last
//!    unit left to the next block): path 4 below, each unit of a pair
//!    making 2 of the character's 4 bytes in its own lane
//!    ([`with_pairs`]). An unpaired one: the units one by one
//!    (`common::utf16_units`), stopping before it (or a lead whose trail
//!    is past the input), where the scalar code of `crate::drive` finds
//!    the error.
//! 3. All below U+0800 (Cyrillic, Greek, Hebrew, Arabic): each unit as its
//!    lead and continuation byte in its 16-bit lane, packed with `tbl` and
//!    [`PACK12`] (which drops the continuation byte of an ASCII unit).
//! 4. Otherwise (CJK, Hindi): each unit as up to 3 bytes in a 32-bit lane
//!    (`zip` of the first two bytes' lanes with the third's), packed 4 units
//!    at a time with `tbl` and [`PACK123`].
//!
//! Paths 3 and 4 compute every form of every unit and select with
//! bit-select (`bsl`); `sli` (shift left and insert) puts a lane's second
//! byte above its first. Path 4 stores its second group as 12 bytes, so at
//! most 8 stray bytes follow a block (path 3: 8 - its 2-byte units), fewer
//! than any vector block writes.

use super::neon::bits16;
use crate::arch::block::{self, Block};
use crate::arch::common::utf16_units;
use crate::arch::tables::{LEN123, PACK12, PACK123};
use core::arch::aarch64::{
    uint8x16_t, uint16x8_t, vaddq_u16, vandq_u16, vbicq_u16, vbslq_u16, vceqq_u16, vcgeq_u16,
    vcombine_u8, vdup_n_u8, vdupq_n_u8, vdupq_n_u16, vextq_u16, vget_low_u8, vgetq_lane_u32,
    vld1q_u8, vld1q_u16, vmaxvq_u16, vmovn_u16, vorrq_u16, vpaddq_u16, vqtbl1q_u8,
    vreinterpretq_u8_u16, vreinterpretq_u16_u8, vreinterpretq_u32_u8, vreinterpretq_u32_u16,
    vrev16q_u8, vshlq_n_u16, vshrq_n_u16, vsliq_n_u16, vst1_u8, vst1q_u8, vuzp1q_u8, vzip1q_u16,
    vzip2q_u16,
};

/// Units per block.
const UNITS: usize = 8;

/// What a block holds.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    /// `read` ASCII units at `p`.
    Ascii,
    /// `bytes[0]` holds the UTF-8 (up to 16 bytes), stored whole.
    Two,
    /// `bytes[0]` holds `n1` bytes, `bytes[1]` the rest (up to 12).
    Three,
    /// `bytes` holds the UTF-8 (up to 28 bytes), stored whole.
    Scalar,
}

/// A block of UTF-16 and its UTF-8, ready to be stored.
#[derive(Clone, Copy)]
struct FromUtf16<const SWAP: bool> {
    kind: Kind,
    /// The block's first unit (read again by `Ascii` blocks when stored).
    p: *const [u8; 2],
    read: usize,
    written: usize,
    /// `Three`: the bytes in `bytes[0]`.
    n1: usize,
    bytes: [uint8x16_t; 2],
}

impl<const SWAP: bool> Block<u8> for FromUtf16<SWAP> {
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
            Kind::Ascii => 0,
            Kind::Two => 16 - self.written,
            Kind::Three => self.n1 + 12 - self.written,
            Kind::Scalar => 32 - self.written,
        }
    }

    #[inline(always)]
    unsafe fn store(&self, q: *mut u8) {
        // SAFETY: the caller guarantees `written() + stray()` bytes at `q`,
        // which is what each arm writes; `Ascii` reads its `read` units at
        // `p`, which `block_at` checked are inside the input.
        unsafe {
            match self.kind {
                Kind::Ascii => {
                    let mut k = 0;
                    while k < self.read {
                        let u = load::<SWAP>(self.p.add(k));
                        vst1_u8(q.add(k), vmovn_u16(u));
                        k += UNITS;
                    }
                }
                Kind::Two => vst1q_u8(q, self.bytes[0]),
                Kind::Three => {
                    vst1q_u8(q, self.bytes[0]);
                    let q = q.add(self.n1);
                    let b = self.bytes[1];
                    vst1_u8(q, vget_low_u8(b));
                    let last4 = vgetq_lane_u32::<2>(vreinterpretq_u32_u8(b));
                    q.add(8).cast::<u32>().write_unaligned(last4);
                }
                Kind::Scalar => {
                    vst1q_u8(q, self.bytes[0]);
                    vst1q_u8(q.add(16), self.bytes[1]);
                }
            }
        }
    }
}

/// The 8 units at `p`, as 16-bit lanes.
///
/// # Safety
///
/// `p` is readable for 8 units.
#[inline(always)]
unsafe fn load<const SWAP: bool>(p: *const [u8; 2]) -> uint16x8_t {
    // SAFETY: as the caller guarantees (a byte load: any alignment).
    unsafe {
        let x = vld1q_u8(p.cast::<u8>());
        vreinterpretq_u16_u8(if SWAP { vrev16q_u8(x) } else { x })
    }
}

/// Native UTF-16 to UTF-8: the table entry.
pub(super) fn utf16_to_utf8(src: &[u16], dst: &mut [u8]) -> (usize, usize) {
    // SAFETY: `[u8; 2]` has the size of `u16`, a smaller alignment, and no
    // invalid bit patterns; the new slice covers the same memory and
    // borrows `src` for its lifetime.
    let pairs = unsafe { core::slice::from_raw_parts(src.as_ptr().cast::<[u8; 2]>(), src.len()) };
    convert::<false>(pairs, dst)
}

/// UTF-16 in bytes, swapped if `SWAP`, to UTF-8: the table entry.
pub(super) fn utf16_bytes_to_utf8<const SWAP: bool>(
    src: &[[u8; 2]],
    dst: &mut [u8],
) -> (usize, usize) {
    convert::<SWAP>(src, dst)
}

/// See the module docs: `(read, written)`, `dst[..written]` exactly.
#[inline(always)]
fn convert<const SWAP: bool>(src: &[[u8; 2]], dst: &mut [u8]) -> (usize, usize) {
    let (done, out) = in_place::<SWAP>(src, dst);
    let src = src.get(done..).unwrap_or(&[]);
    let Some(dst) = dst.get_mut(out..) else {
        return (done, out);
    };
    let n = src.len();
    let s = src.as_ptr();
    let (read, written) = block::run(
        dst,
        #[inline(always)]
        |i, room| {
            let left = n.checked_sub(i)?;
            if left < UNITS {
                return None;
            }
            let p = s.wrapping_add(i);
            // SAFETY: `i + 8 <= n`.
            let u = unsafe { load::<SWAP>(p) };
            // SAFETY: NEON is part of the target (here and below).
            let max = unsafe { vmaxvq_u16(u) };
            if max < 0x80 {
                let len = block::run_len(
                    left.min(room).min(block::RUN),
                    UNITS,
                    #[inline(always)]
                    // SAFETY: `run_len` asks for 8 units at `k` only if
                    // `k + 8 <= left`.
                    |k| unsafe { vmaxvq_u16(load::<SWAP>(p.add(k))) < 0x80 },
                );
                if len > 0 {
                    // SAFETY: NEON.
                    let zero = unsafe { vdupq_n_u8(0) };
                    return Some(FromUtf16::<SWAP> {
                        kind: Kind::Ascii,
                        p,
                        read: len,
                        written: len,
                        n1: 0,
                        bytes: [zero; 2],
                    });
                }
            }
            if surrogates(u, u) {
                // SAFETY: NEON.
                if let Some(block) = unsafe { with_pairs::<SWAP>(u) } {
                    return Some(block);
                }
                let mut buf = [0u8; 32];
                // SAFETY: `left >= 8` units from `p`; `buf` has room for
                // the 3 * 8 + 4 bytes `utf16_units` may write.
                let (read, written, _) =
                    unsafe { utf16_units::<SWAP, UNITS>(p.cast(), left, buf.as_mut_ptr()) };
                if read == 0 {
                    // An unpaired surrogate first: the scalar code's.
                    return None;
                }
                // SAFETY: `buf` is 32 bytes.
                let bytes = unsafe { [vld1q_u8(buf.as_ptr()), vld1q_u8(buf.as_ptr().add(16))] };
                return Some(FromUtf16::<SWAP> {
                    kind: Kind::Scalar,
                    p,
                    read,
                    written,
                    n1: 0,
                    bytes,
                });
            }
            Some(if max < 0x800 {
                two::<SWAP>(u)
            } else {
                three::<SWAP>(u)
            })
        },
    );
    (done + read, out + written)
}

/// Whether any unit of `a` or `b` is a surrogate (`D800..=DFFF`, whose top
/// five bits are `11011`).
#[inline(always)]
fn surrogates(a: uint16x8_t, b: uint16x8_t) -> bool {
    // SAFETY: NEON is part of the target.
    unsafe {
        let (top, sur) = (vdupq_n_u16(0xF800), vdupq_n_u16(0xD800));
        let sa = vceqq_u16(vandq_u16(a, top), sur);
        let sb = vceqq_u16(vandq_u16(b, top), sur);
        vmaxvq_u16(vorrq_u16(sa, sb)) != 0
    }
}

/// The blocks before the first surrogate, converted and stored in place
/// without `block::run`'s look-ahead, 16 units at a time where both blocks
/// are ASCII (exact stores), 8 otherwise. A block with stray bytes is
/// stored only once the next 8 units are known to have no surrogate, and
/// only while the output has room for both blocks (24 bytes each at
/// most): the next block then writes at least 8 bytes over the at most 8
/// stray ones, in this loop or in `block::run`, which converts it whole
/// (it is a vector block, and it fits). Returns `(units read, bytes
/// written)`.
#[inline(always)]
fn in_place<const SWAP: bool>(src: &[[u8; 2]], dst: &mut [u8]) -> (usize, usize) {
    let (n, cap) = (src.len(), dst.len());
    let (s, d) = (src.as_ptr(), dst.as_mut_ptr());
    let (mut p, mut o) = (0, 0);
    while n - p >= 2 * UNITS && cap - o >= 2 * 24 {
        // SAFETY: `p + 16 <= n`.
        let (u, next) = unsafe { (load::<SWAP>(s.add(p)), load::<SWAP>(s.add(p + UNITS))) };
        // SAFETY: NEON.
        if unsafe { vmaxvq_u16(vorrq_u16(u, next)) } < 0x80 {
            // SAFETY: `o + 16 <= cap`; the low bytes of the 16 units.
            unsafe {
                let bytes = vuzp1q_u8(vreinterpretq_u8_u16(u), vreinterpretq_u8_u16(next));
                vst1q_u8(d.add(o), bytes);
            }
            p += 2 * UNITS;
            o += 2 * UNITS;
            continue;
        }
        if surrogates(u, next) {
            break;
        }
        // SAFETY: NEON.
        let max = unsafe { vmaxvq_u16(u) };
        let w = if max < 0x80 {
            // SAFETY: `o + 8 <= cap`.
            unsafe { vst1_u8(d.add(o), vmovn_u16(u)) };
            UNITS
        } else {
            let block = if max < 0x800 {
                two::<SWAP>(u)
            } else {
                three::<SWAP>(u)
            };
            // SAFETY: the block writes `written() + stray() <= 24` bytes
            // (`n1 + 12`, or 16), and `o + 48 <= cap`.
            unsafe { block.store(d.add(o)) };
            block.written
        };
        p += UNITS;
        o += w;
    }
    (p, o)
}

/// 8 units below U+0800 (module docs, path 3).
#[inline(always)]
fn two<const SWAP: bool>(u: uint16x8_t) -> FromUtf16<SWAP> {
    // SAFETY: NEON; the table row is 16 bytes.
    unsafe {
        let is2 = vcgeq_u16(u, vdupq_n_u16(0x80));
        // `C0 | u >> 6`, then `80 | u & 3F` above it (`sli` by 8 keeps the
        // low byte of its first operand).
        let lead = vorrq_u16(vshrq_n_u16::<6>(u), vdupq_n_u16(0xC0));
        let cont = vorrq_u16(vandq_u16(u, vdupq_n_u16(0x3F)), vdupq_n_u16(0x80));
        let pair = vsliq_n_u16::<8>(lead, cont);
        let lanes = vreinterpretq_u8_u16(vbslq_u16(is2, pair, u));
        let m = bits16(vcombine_u8(vmovn_u16(is2), vdup_n_u8(0))) as usize & 0xFF;
        let bytes = vqtbl1q_u8(lanes, vld1q_u8(PACK12[m].as_ptr()));
        FromUtf16 {
            kind: Kind::Two,
            p: core::ptr::null(),
            read: UNITS,
            written: UNITS + m.count_ones() as usize,
            n1: 0,
            bytes: [bytes, vdupq_n_u8(0)],
        }
    }
}

/// 8 units with surrogates, all in pairs but for a lead in the last unit
/// (left to the next block): path 4, each unit of a pair making 2 of the
/// character's 4 bytes in its own lane, as the x86-64 kernels do (with
/// `h = (lead & 3FF) + 40`: the lead `F0 | h >> 8`, `80 | h >> 2 & 3F`;
/// the trail `80 | (lead & 3) << 4 | trail >> 6 & F`, `80 | trail & 3F`).
/// `None` if a surrogate is unpaired: the units one by one then.
///
/// # Safety
///
/// NEON.
#[inline(always)]
unsafe fn with_pairs<const SWAP: bool>(u: uint16x8_t) -> Option<FromUtf16<SWAP>> {
    // SAFETY: NEON.
    unsafe {
        let top6 = vandq_u16(u, vdupq_n_u16(0xFC00));
        let lead = vceqq_u16(top6, vdupq_n_u16(0xD800));
        let trail = vceqq_u16(top6, vdupq_n_u16(0xDC00));
        let bits = |m: uint16x8_t| bits16(vcombine_u8(vmovn_u16(m), vdup_n_u8(0)));
        let (leads, trails) = (bits(lead), bits(trail));
        // Every trail follows a lead (one in unit 0 would follow the last
        // block, which ended at a character), every lead but the last
        // unit's has its trail.
        if trails != (leads << 1) & 0xFF {
            return None;
        }
        let mut block = three_with::<SWAP, true>(u, lead, trail);
        if leads >> 7 != 0 {
            // The lead's 2 bytes are the last ones; stored as stray bytes.
            block.read -= 1;
            block.written -= 2;
        }
        Some(block)
    }
}

/// 8 units without surrogates (module docs, path 4).
#[inline(always)]
fn three<const SWAP: bool>(u: uint16x8_t) -> FromUtf16<SWAP> {
    // SAFETY: NEON; the masks are not read without `PAIRS`.
    unsafe {
        let zero = vdupq_n_u16(0);
        three_with::<SWAP, false>(u, zero, zero)
    }
}

/// [`three`], and with `PAIRS` the surrogates (`lead`, `trail`: masks)
/// as [`with_pairs`] makes them, 2 bytes each.
///
/// # Safety
///
/// NEON.
#[inline(always)]
unsafe fn three_with<const SWAP: bool, const PAIRS: bool>(
    u: uint16x8_t,
    lead: uint16x8_t,
    trail: uint16x8_t,
) -> FromUtf16<SWAP> {
    // SAFETY: NEON; the table rows are 16 bytes.
    unsafe {
        let is2 = vcgeq_u16(u, vdupq_n_u16(0x80));
        let mut is3 = vcgeq_u16(u, vdupq_n_u16(0x800));
        if PAIRS {
            is3 = vbicq_u16(is3, vorrq_u16(lead, trail));
        }
        let six = vdupq_n_u16(0x3F);
        let high = vshrq_n_u16::<6>(u);
        // The last byte (`80 | u & 3F`), the middle one of 3
        // (`80 | u >> 6 & 3F`), and the first two bytes of each form, the
        // second above the first (`sli` by 8 keeps the first's low byte).
        let last = vorrq_u16(vandq_u16(u, six), vdupq_n_u16(0x80));
        let middle = vorrq_u16(vandq_u16(high, six), vdupq_n_u16(0x80));
        let two = vsliq_n_u16::<8>(vorrq_u16(high, vdupq_n_u16(0xC0)), last);
        let lead3 = vorrq_u16(vshrq_n_u16::<12>(u), vdupq_n_u16(0xE0));
        let three = vsliq_n_u16::<8>(lead3, middle);
        let mut first = vbslq_u16(is3, three, vbslq_u16(is2, two, u));
        if PAIRS {
            let h = vaddq_u16(vandq_u16(u, vdupq_n_u16(0x3FF)), vdupq_n_u16(0x40));
            let lead2 = vsliq_n_u16::<8>(
                vorrq_u16(vshrq_n_u16::<8>(h), vdupq_n_u16(0xF0)),
                vorrq_u16(vandq_u16(vshrq_n_u16::<2>(h), six), vdupq_n_u16(0x80)),
            );
            // The unit before each (0 before the first, which is no trail).
            let before = vextq_u16::<7>(vdupq_n_u16(0), u);
            let trail1 = vorrq_u16(
                vorrq_u16(
                    vshlq_n_u16::<4>(vandq_u16(before, vdupq_n_u16(3))),
                    vandq_u16(high, vdupq_n_u16(0xF)),
                ),
                vdupq_n_u16(0x80),
            );
            let trail2 = vsliq_n_u16::<8>(trail1, last);
            first = vbslq_u16(lead, lead2, vbslq_u16(trail, trail2, first));
        }
        // Each unit as `[first, second, third, 0]` in a 32-bit lane.
        let a = vreinterpretq_u8_u16(vzip1q_u16(first, last));
        let b = vreinterpretq_u8_u16(vzip2q_u16(first, last));
        // Each unit's byte count less one, 2 bits a unit: PACK123's index
        // for units 0..4 in lane 0, for units 4..8 in lane 1.
        const WEIGHTS: [u16; 8] = [1, 4, 16, 64, 1, 4, 16, 64];
        let w = vld1q_u16(WEIGHTS.as_ptr());
        let codes = vaddq_u16(vandq_u16(is2, w), vandq_u16(is3, w));
        let codes = vpaddq_u16(codes, codes);
        let codes = vgetq_lane_u32::<0>(vreinterpretq_u32_u16(vpaddq_u16(codes, codes)));
        let (m1, m2) = ((codes & 0xFF) as usize, ((codes >> 16) & 0xFF) as usize);
        let a = vqtbl1q_u8(a, vld1q_u8(PACK123[m1].as_ptr()));
        let b = vqtbl1q_u8(b, vld1q_u8(PACK123[m2].as_ptr()));
        let n1 = usize::from(LEN123[m1]);
        FromUtf16 {
            kind: Kind::Three,
            p: core::ptr::null(),
            read: UNITS,
            written: n1 + usize::from(LEN123[m2]),
            n1,
            bytes: [a, b],
        }
    }
}
