//! The NEON kernel of the single-byte engine (aarch64): decode to UTF-16
//! and to UTF-8, and encode from UTF-8, 16 bytes a step.
//!
//! Decoding to UTF-16: the 256-entry table of UTF-16 units is split into
//! its low and its high bytes, each four registers of 64 bytes; a block of
//! 16 input bytes is looked up in both with `tbl`/`tbx` (one table look-up
//! and three extensions each, the index lowered by 64 each time: `tbx`
//! keeps the lanes whose index is out of range), and the two halves
//! interleaved into 16 units (on an ASCII-compatible page the high half
//! only, two steps, and a block of ASCII widened as it is). A block with
//! an undefined byte (both halves 0xFF) is left to the scalar reference,
//! which stops at that byte.
//!
//! Decoding to UTF-8 ([`to_utf8_neon`]): the table becomes three, each
//! byte's UTF-8 lead (0xFF where undefined) and its first and second
//! continuation, looked up the same way (an ASCII-compatible page looks
//! up only the high half: two steps, the byte itself kept below 0x80).
//! A block of one- and two-byte characters is compacted eight lanes at a
//! time by a shuffle of the lead/continuation pairs chosen by the mask of
//! one-byte lanes ([`COMPRESS`]); a block with three-byte characters four
//! lanes at a time, a three-register `tbl` over the lead and continuation
//! registers chosen by the four lanes' lengths in base 3 ([`SPREAD3`]).
//!
//! Encoding ([`encode_neon`]): as the x86-64 dense encoders, a block of
//! one- and two-byte characters whose leads are of at most two pairs
//! (C0/C1 … DE/DF, each a 128-entry slice of the dense table, two
//! registers of 64) looks each continuation up in its pair's slice at
//! `(lead & 1) << 6 | (continuation & 0x3F)`, each ASCII byte in the first
//! 128 entries (or keeps it, on an ASCII-compatible page), and keeps the
//! lanes that are not leads ([`KEEP`]).

use super::{COMPRESS, Encoder, KEEP, Kernel, Unit, utf8_scalar};
use crate::single_byte::SingleByte;
use codec_arch::Isa;
use core::arch::aarch64::{
    uint8x16_t, uint8x16x3_t, uint8x16x4_t, vaddq_u8, vaddv_u8, vandq_u8, vbicq_u8, vbslq_u8,
    vceqq_u8, vceqzq_u8, vcgeq_u8, vcltq_u8, vdupq_n_u8, vextq_u8, vget_high_u8, vget_low_u8,
    vgetq_lane_u32, vld1q_u8, vld1q_u8_x4, vmaxvq_u8, vminvq_u8, vmulq_u8, vmvnq_u8, vorrq_u8,
    vpaddq_u8, vqtbl1q_u8, vqtbl3q_u8, vqtbl4q_u8, vqtbx4q_u8, vreinterpretq_u16_u8,
    vreinterpretq_u32_u8, vshlq_n_u8, vst1q_u8, vst1q_u16, vsubq_u8, vzip1q_u8, vzip2q_u8,
};
use core::mem::MaybeUninit;

/// The NEON kernel, shaped as the x86-64 ones.
pub(crate) static NEON: Kernel = Kernel {
    name: "neon",
    to_utf16: to_utf16_neon,
    to_utf8: Some(to_utf8_neon),
    encode: Some(Encoder {
        run: encode_neon,
        checked: None,
        ascii_only: false,
    }),
    ascii: None,
    isa: Isa::NEON,
};

/// One half of a table: 256 bytes in four registers of 64.
type Half = [uint8x16x4_t; 4];

codec_arch::enable! { neon;
/// Loads one half of the table.
fn load_half(bytes: &[u8; 256]) -> Half {
    // SAFETY: each load reads 64 bytes at offset 0, 64, 128 or 192 of a
    // 256-byte array: within it.
    unsafe {
        [
            vld1q_u8_x4(bytes.as_ptr()),
            vld1q_u8_x4(bytes.as_ptr().add(64)),
            vld1q_u8_x4(bytes.as_ptr().add(128)),
            vld1q_u8_x4(bytes.as_ptr().add(192)),
        ]
    }
}
}

codec_arch::enable! { neon;
/// Each lane of `idx` looked up in the 256 bytes of `t`.
fn lookup(t: &Half, idx: uint8x16_t) -> uint8x16_t {
    let r = vqtbl4q_u8(t[0], idx);
    let r = vqtbx4q_u8(r, t[1], vsubq_u8(idx, vdupq_n_u8(64)));
    let r = vqtbx4q_u8(r, t[2], vsubq_u8(idx, vdupq_n_u8(128)));
    vqtbx4q_u8(r, t[3], vsubq_u8(idx, vdupq_n_u8(192)))
}
}

codec_arch::enable! { neon;
/// See the module docs of `arch`.
///
/// # Safety
///
/// The CPU must have NEON.
unsafe fn to_utf16_neon(page: &SingleByte, src: &[u8], dst: &mut [Unit]) -> usize {
    let table = page.table;
    let len = src.len().min(dst.len());
    let ascii = table[..128]
        .iter()
        .enumerate()
        .all(|(b, &u)| usize::from(u) == b);
    let (mut lo, mut hi) = ([0u8; 256], [0u8; 256]);
    for (i, &u) in table.iter().enumerate() {
        [lo[i], hi[i]] = u.to_le_bytes();
    }
    let (tl, th) = (load_half(&lo), load_half(&hi));
    let i = if ascii {
        utf16_blocks::<true>(&tl, &th, &src[..len], dst)
    } else {
        utf16_blocks::<false>(&tl, &th, &src[..len], dst)
    };
    // The tail, and a block with an undefined byte: the reference.
    // SAFETY: the scalar kernel needs no CPU feature.
    i + unsafe { super::scalar_to_utf16(page, &src[i..len], &mut dst[i..len]) }
}
}

codec_arch::enable! { neon;
/// The blocks of [`to_utf16_neon`] (`src` no longer than `dst`): returns
/// where they stopped, at the tail or at a block with an undefined byte.
/// With `ASCII` (an ASCII-compatible page) a block of ASCII is widened
/// as it is, and the others look up the high half only.
fn utf16_blocks<const ASCII: bool>(tl: &Half, th: &Half, src: &[u8], dst: &mut [Unit]) -> usize {
    let (zero, ff) = (vdupq_n_u8(0), vdupq_n_u8(0xFF));
    let mut i = 0;
    while i + 16 <= src.len() {
        // SAFETY: `i + 16 <= src.len()`: 16 bytes are readable at `src[i..]`.
        let idx = unsafe { vld1q_u8(src.as_ptr().add(i)) };
        let (l, h) = if ASCII && vmaxvq_u8(idx) < 0x80 {
            (idx, zero)
        } else {
            let (l, h) = (look::<ASCII>(tl, idx, idx), look::<ASCII>(th, idx, zero));
            if vmaxvq_u8(vandq_u8(vceqq_u8(l, ff), vceqq_u8(h, ff))) != 0 {
                break;
            }
            (l, h)
        };
        let p = dst[i..i + 16].as_mut_ptr().cast::<u16>();
        // SAFETY: `p` points to 16 units of `dst` (the slice just taken,
        // so within it); `Unit` has the layout of `u16`; the low byte
        // comes first in each interleaved pair, as a little-endian u16.
        unsafe {
            vst1q_u16(p, vreinterpretq_u16_u8(vzip1q_u8(l, h)));
            vst1q_u16(p.add(8), vreinterpretq_u16_u8(vzip2q_u8(l, h)));
        }
        i += 16;
    }
    i
}
}

/// Bit `k % 8` of each lane `k`: the lanes of a comparison AND-ed with it
/// and added across each half give the half's 8-bit mask.
static BITS: [u8; 16] = [1, 2, 4, 8, 16, 32, 64, 128, 1, 2, 4, 8, 16, 32, 64, 128];

codec_arch::enable! { neon;
/// The 8-bit masks of the low and the high 8 lanes of `m` (each lane 0 or
/// 0xFF).
#[inline]
fn masks(m: uint8x16_t) -> (usize, usize) {
    // SAFETY: `BITS` is 16 readable bytes.
    let bits = vandq_u8(m, unsafe { vld1q_u8(BITS.as_ptr()) });
    (
        usize::from(vaddv_u8(vget_low_u8(bits))),
        usize::from(vaddv_u8(vget_high_u8(bits))),
    )
}
}

codec_arch::enable! { neon;
/// The 16 bytes of `row` in a register.
#[inline]
fn row(row: &[u8; 16]) -> uint8x16_t {
    // SAFETY: `row` is 16 readable bytes.
    unsafe { vld1q_u8(row.as_ptr()) }
}
}

codec_arch::enable! { neon;
/// Stores `v` at `dst[w..w + 16]`.
#[inline]
fn store(dst: &mut [MaybeUninit<u8>], w: usize, v: uint8x16_t) {
    let out = &mut dst[w..w + 16];
    // SAFETY: `out` is 16 writable bytes (bounds-checked just above);
    // `MaybeUninit<u8>` has the layout of `u8`.
    unsafe { vst1q_u8(out.as_mut_ptr().cast::<u8>(), v) }
}
}

/// For the UTF-8 lengths less one of four lanes (`l0` … `l3`, each 0, 1
/// or 2), at `l0 + 3 l1 + 9 l2 + 27 l3`: the `tbl` indexes over the lead, first and second
/// continuation registers (16 bytes each) that write the four characters'
/// UTF-8 in order, for the first four lanes (add `4 g` for group `g`), and
/// then 0xC0 (out of range, so 0, after any such addition).
static SPREAD3: [[u8; 16]; 81] = {
    let mut t = [[0xC0u8; 16]; 81];
    let mut k = 0;
    while k < 81 {
        let (mut rest, mut o, mut lane) = (k, 0, 0);
        while lane < 4 {
            let extra = rest % 3;
            rest /= 3;
            let mut b = 0;
            while b <= extra {
                t[k][o] = (16 * b + lane) as u8;
                o += 1;
                b += 1;
            }
            lane += 1;
        }
        k += 1;
    }
    t
};

/// The UTF-8 lengths written by each entry of [`SPREAD3`].
static SPREAD3_LEN: [u8; 81] = {
    let mut t = [0u8; 81];
    let mut k = 0;
    while k < 81 {
        let (mut rest, mut n, mut lane) = (k, 0, 0);
        while lane < 4 {
            n += rest % 3 + 1;
            rest /= 3;
            lane += 1;
        }
        t[k] = n as u8;
        k += 1;
    }
    t
};

/// The weights of [`SPREAD3`]'s index, lane by lane in each group of four.
static WEIGHTS3: [u8; 16] = [1, 3, 9, 27, 1, 3, 9, 27, 1, 3, 9, 27, 1, 3, 9, 27];

/// The UTF-8 of a unit as lead, first and second continuation (0 where the
/// character is shorter); the lead 0xFF (never in UTF-8) for an undefined
/// byte.
fn utf8_bytes(u: u16) -> [u8; 3] {
    match u {
        crate::single_byte::UNDEFINED => [0xFF, 0, 0],
        0..0x80 => [u as u8, 0, 0],
        0x80..0x800 => [0xC0 | (u >> 6) as u8, 0x80 | (u & 0x3F) as u8, 0],
        _ => [
            0xE0 | (u >> 12) as u8,
            0x80 | ((u >> 6) & 0x3F) as u8,
            0x80 | (u & 0x3F) as u8,
        ],
    }
}

/// The three UTF-8 tables of a page, loaded.
struct Utf8Tables {
    lead: Half,
    first: Half,
    second: Half,
}

codec_arch::enable! { neon;
/// See [`super::Utf8Fn`] and the module docs.
///
/// # Safety
///
/// The CPU must have NEON.
unsafe fn to_utf8_neon(
    page: &SingleByte,
    src: &[u8],
    dst: &mut [MaybeUninit<u8>],
) -> (usize, usize) {
    let table = page.table;
    let ascii = table[..128]
        .iter()
        .enumerate()
        .all(|(b, &u)| usize::from(u) == b);
    let (mut lead, mut first, mut second) = ([0u8; 256], [0u8; 256], [0u8; 256]);
    for (i, &u) in table.iter().enumerate() {
        [lead[i], first[i], second[i]] = utf8_bytes(u);
    }
    let t = Utf8Tables {
        lead: load_half(&lead),
        first: load_half(&first),
        second: load_half(&second),
    };
    if ascii {
        utf8_blocks::<true>(table, &t, src, dst)
    } else {
        utf8_blocks::<false>(table, &t, src, dst)
    }
}
}

codec_arch::enable! { neon;
/// Each lane of `v` looked up in `t`; with `ASCII` (an ASCII-compatible
/// page) only the high half, the lanes below 0x80 keeping `base`.
#[inline]
fn look<const ASCII: bool>(t: &Half, v: uint8x16_t, base: uint8x16_t) -> uint8x16_t {
    if ASCII {
        let r = vqtbx4q_u8(base, t[2], vsubq_u8(v, vdupq_n_u8(128)));
        vqtbx4q_u8(r, t[3], vsubq_u8(v, vdupq_n_u8(192)))
    } else {
        lookup(t, v)
    }
}
}

codec_arch::enable! { neon;
/// The blocks of [`to_utf8_neon`], then the tail one byte at a time.
fn utf8_blocks<const ASCII: bool>(
    table: &[u16; 256],
    t: &Utf8Tables,
    src: &[u8],
    dst: &mut [MaybeUninit<u8>],
) -> (usize, usize) {
    let zero = vdupq_n_u8(0);
    let (mut i, mut w) = (0, 0);
    // A block writes at most 48 bytes, its last store of 16 starting at
    // most 36 bytes in.
    while i + 16 <= src.len() && w + 64 <= dst.len() {
        // SAFETY: `i + 16 <= src.len()`: 16 bytes are readable at `src[i..]`.
        let v = unsafe { vld1q_u8(src.as_ptr().add(i)) };
        if ASCII && vmaxvq_u8(v) < 0x80 {
            store(dst, w, v);
            i += 16;
            w += 16;
            continue;
        }
        let lead = look::<ASCII>(&t.lead, v, v);
        let first = look::<ASCII>(&t.first, v, zero);
        let top = vmaxvq_u8(lead);
        if top == 0xFF {
            // An undefined byte: the bytes before it one at a time (the
            // room above holds them), then stop there.
            return utf8_scalar(table, src, dst, i, w, i + 16);
        }
        if top >= 0xE0 {
            // Three-byte characters: four lanes at a time, by their
            // lengths less one (0, 1, 2) in base 3.
            let second = look::<ASCII>(&t.second, v, zero);
            let longer = vaddq_u8(
                vcgeq_u8(lead, vdupq_n_u8(0xC0)),
                vcgeq_u8(lead, vdupq_n_u8(0xE0)),
            );
            let digits = vsubq_u8(zero, longer);
            let weighted = vmulq_u8(digits, row(&WEIGHTS3));
            let pairs = vpaddq_u8(weighted, weighted);
            let groups = vgetq_lane_u32::<0>(vreinterpretq_u32_u8(vpaddq_u8(pairs, pairs)));
            let regs = uint8x16x3_t(lead, first, second);
            for g in 0..4 {
                let k = usize::from((groups >> (8 * g)) as u8);
                let indexes = vaddq_u8(row(&SPREAD3[k]), vdupq_n_u8(4 * g as u8));
                store(dst, w, vqtbl3q_u8(regs, indexes));
                w += usize::from(SPREAD3_LEN[k]);
            }
            i += 16;
            continue;
        }
        // One- and two-byte characters: the lead/continuation pairs of
        // eight lanes at a time, the continuation dropped where the lead is
        // the whole character.
        let (one_lo, one_hi) = masks(vcltq_u8(lead, vdupq_n_u8(0x80)));
        store(dst, w, vqtbl1q_u8(vzip1q_u8(lead, first), row(&COMPRESS[one_lo])));
        w += 16 - one_lo.count_ones() as usize;
        store(dst, w, vqtbl1q_u8(vzip2q_u8(lead, first), row(&COMPRESS[one_hi])));
        w += 16 - one_hi.count_ones() as usize;
        i += 16;
    }
    utf8_scalar(table, src, dst, i, w, src.len())
}
}

/// The bytes 0..128 in order: a page whose dense table starts so is
/// ASCII-compatible.
static IOTA: [u8; 128] = {
    let mut t = [0u8; 128];
    let mut k = 0;
    while k < 128 {
        t[k] = k as u8;
        k += 1;
    }
    t
};

codec_arch::enable! { neon;
/// See [`super::EncodeFn`] and the module docs.
///
/// # Safety
///
/// The CPU must have NEON.
unsafe fn encode_neon(
    dense: &super::Dense,
    src: &[u8],
    dst: &mut [core::mem::MaybeUninit<u8>],
    i: usize,
    w: usize,
) -> (usize, usize) {
    // The look-up only (two four-register `tbl`s a slice): the affine runs
    // of `Dense` serve the x86-64 encoders; NEON's speed is not measured.
    let dense = &dense.bytes;
    // SAFETY: each load reads 64 bytes at offset 0 or 64 of a 128-byte
    // array, or of the 0x800-byte `dense`: within it.
    let (low, iota) = unsafe {
        (
            [vld1q_u8_x4(dense.as_ptr()), vld1q_u8_x4(dense.as_ptr().add(64))],
            [vld1q_u8_x4(IOTA.as_ptr()), vld1q_u8_x4(IOTA.as_ptr().add(64))],
        )
    };
    let mut same = vdupq_n_u8(0xFF);
    for (a, b) in low.iter().zip(&iota) {
        for (x, y) in [(a.0, b.0), (a.1, b.1), (a.2, b.2), (a.3, b.3)] {
            same = vandq_u8(same, vceqq_u8(x, y));
        }
    }
    if vminvq_u8(same) == 0xFF {
        encode_blocks::<true>(dense, &low, src, dst, i, w)
    } else {
        encode_blocks::<false>(dense, &low, src, dst, i, w)
    }
}
}

codec_arch::enable! { neon;
/// The 128-entry slice of `dense` of the lead pair `pair` (C0/C1 …
/// DE/DF, as the even one), in two registers of 64.
#[inline]
fn pair_slice(dense: &[u8; 0x800], pair: u8) -> [uint8x16x4_t; 2] {
    // Bits 1-4 of the lead: the slice's number (bit 0 picks its half).
    let base = usize::from(pair & 0x1E) * 64;
    let slice = &dense[base..base + 128];
    // SAFETY: `slice` is 128 readable bytes (bounds-checked just above):
    // each load reads 64 at offset 0 or 64.
    unsafe { [vld1q_u8_x4(slice.as_ptr()), vld1q_u8_x4(slice.as_ptr().add(64))] }
}
}

codec_arch::enable! { neon;
/// Each lane of `index` (below 128) looked up in a 128-entry slice.
#[inline]
fn look128(t: &[uint8x16x4_t; 2], index: uint8x16_t) -> uint8x16_t {
    let r = vqtbl4q_u8(t[0], index);
    vqtbx4q_u8(r, t[1], vsubq_u8(index, vdupq_n_u8(64)))
}
}

codec_arch::enable! { neon;
/// The blocks of [`encode_neon`]; `ASCII`: the page is ASCII-compatible
/// (`low`, the first 128 entries of `dense`, maps each byte to itself).
fn encode_blocks<const ASCII: bool>(
    dense: &[u8; 0x800],
    low: &[uint8x16x4_t; 2],
    src: &[u8],
    dst: &mut [core::mem::MaybeUninit<u8>],
    mut i: usize,
    mut w: usize,
) -> (usize, usize) {
    let zero = vdupq_n_u8(0);
    // A block stores 16 bytes, or 16 at `w` and 16 at most 8 bytes on.
    while i + 16 <= src.len() && w + 24 <= dst.len() {
        // SAFETY: `i + 16 <= src.len()`: 16 bytes are readable at `src[i..]`.
        let v = unsafe { vld1q_u8(src.as_ptr().add(i)) };
        let top = vmaxvq_u8(v);
        if top >= 0xE0 {
            break;
        }
        let ascii = if ASCII { v } else { look128(low, v) };
        if top < 0x80 {
            // U+0000 and the unmapped ones go to the caller's exact path.
            if vminvq_u8(ascii) == 0 {
                break;
            }
            let out = &mut dst[w..w + 16];
            // SAFETY: `out` is 16 writable bytes (bounds-checked just above).
            unsafe { vst1q_u8(out.as_mut_ptr().cast::<u8>(), ascii) };
            i += 16;
            w += 16;
            continue;
        }
        let leads = vcgeq_u8(v, vdupq_n_u8(0xC0));
        // The lowest and the highest lead pair of the block; a third one
        // goes to the caller (leads that are neither).
        let pairs = vandq_u8(v, vdupq_n_u8(0xFE));
        let pair_a = vminvq_u8(vbslq_u8(leads, pairs, vdupq_n_u8(0xFF)));
        let pair_b = vmaxvq_u8(vandq_u8(leads, pairs));
        let same_a = vceqq_u8(pairs, vdupq_n_u8(pair_a));
        let same_b = vceqq_u8(pairs, vdupq_n_u8(pair_b));
        if vmaxvq_u8(vbicq_u8(leads, vorrq_u8(same_a, same_b))) != 0 {
            break;
        }
        // Each continuation's index in its pair's slice: bit 0 of the
        // lead (the lane before) and its own six bits.
        let prev = vextq_u8::<15>(zero, v);
        let index = vorrq_u8(
            vandq_u8(v, vdupq_n_u8(0x3F)),
            vandq_u8(vshlq_n_u8::<6>(prev), vdupq_n_u8(0x40)),
        );
        let mut two = look128(&pair_slice(dense, pair_a), index);
        if pair_b != pair_a {
            // The continuations after the second pair's leads.
            let after_b = vextq_u8::<15>(zero, vandq_u8(leads, same_b));
            let two_b = look128(&pair_slice(dense, pair_b), index);
            two = vbslq_u8(after_b, two_b, two);
        }
        let out = vbslq_u8(vcgeq_u8(v, vdupq_n_u8(0x80)), two, ascii);
        let kept = vmvnq_u8(leads);
        if vmaxvq_u8(vandq_u8(kept, vceqzq_u8(out))) != 0 {
            break;
        }
        let (lo, hi) = masks(kept);
        let to = &mut dst[w..w + 16];
        // SAFETY: `to` is 16 writable bytes (bounds-checked just above).
        unsafe { vst1q_u8(to.as_mut_ptr().cast::<u8>(), vqtbl1q_u8(out, row(&KEEP[lo]))) };
        w += lo.count_ones() as usize;
        let shuffle = vaddq_u8(row(&KEEP[hi]), vdupq_n_u8(8));
        let to = &mut dst[w..w + 16];
        // SAFETY: as above.
        unsafe { vst1q_u8(to.as_mut_ptr().cast::<u8>(), vqtbl1q_u8(out, shuffle)) };
        w += hi.count_ones() as usize;
        // A lead in the last lane: its character goes to the next block.
        i += if src[i + 15] >= 0xC0 { 15 } else { 16 };
    }
    (i, w)
}
}
