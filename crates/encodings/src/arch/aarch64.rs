//! The NEON kernel of the single-byte engine (aarch64): decode to UTF-16.
//!
//! The 256-entry table of UTF-16 units is split into its low and its high
//! bytes, each four registers of 64 bytes; a block of 16 input bytes is
//! looked up in both with `tbl`/`tbx` (one table look-up and three
//! extensions each, the index lowered by 64 each time: `tbx` keeps the
//! lanes whose index is out of range), and the two halves interleaved
//! into 16 units. A block with an undefined byte (both halves 0xFF) is
//! left to the scalar reference, which stops at that byte.

use super::{Kernel, Unit};
use codec_arch::Isa;
use core::arch::aarch64::{
    uint8x16_t, uint8x16x4_t, vandq_u8, vceqq_u8, vdupq_n_u8, vld1q_u8, vld1q_u8_x4, vmaxvq_u8,
    vqtbl4q_u8, vqtbx4q_u8, vreinterpretq_u16_u8, vst1q_u16, vsubq_u8, vzip1q_u8, vzip2q_u8,
};

/// The NEON kernel, shaped as the x86-64 ones.
pub(crate) static NEON: Kernel = Kernel {
    name: "neon",
    to_utf16: to_utf16_neon,
    to_utf8: None,
    encode: None,
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
unsafe fn to_utf16_neon(table: &[u16; 256], src: &[u8], dst: &mut [Unit]) -> usize {
    let len = src.len().min(dst.len());
    let (mut lo, mut hi) = ([0u8; 256], [0u8; 256]);
    for (i, &u) in table.iter().enumerate() {
        [lo[i], hi[i]] = u.to_le_bytes();
    }
    let (tl, th) = (load_half(&lo), load_half(&hi));
    let ff = vdupq_n_u8(0xFF);
    let mut i = 0;
    while i + 16 <= len {
        // SAFETY: `i + 16 <= len <= src.len()`: 16 bytes are readable at
        // `src[i..]`.
        let idx = unsafe { vld1q_u8(src.as_ptr().add(i)) };
        let (l, h) = (lookup(&tl, idx), lookup(&th, idx));
        if vmaxvq_u8(vandq_u8(vceqq_u8(l, ff), vceqq_u8(h, ff))) != 0 {
            break;
        }
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
    // The tail, and a block with an undefined byte: the reference.
    // SAFETY: the scalar kernel needs no CPU feature.
    i + unsafe { super::scalar_to_utf16(table, &src[i..len], &mut dst[i..len]) }
}
}
