//! aarch64: the [`Neon`] token and its [`Simd`]
//! implementation (16-byte registers, `uint8x16_t`).
//!
//! Each operation does what the trait's docs say, which are the x86
//! instructions' semantics (the tests check every token against one scalar
//! model of them): `shuffle8` is `tbl` with the index masked to `0x8F`, so
//! that an index with its top bit set gives 0 as `pshufb` does; the
//! narrowings saturate as `packus` does (signed in, unsigned out, `sqxtun`);
//! the movemasks keep each lane's top bit and add the bits' weights across
//! the register.
//!
//! The trait's 16- and 32-bit lanes are little-endian in memory (as x86's
//! always are), and the loads and stores here move bytes: on big-endian
//! aarch64 a 16-bit lane would not be the unit at its address, so the
//! implementation is compiled for little-endian aarch64 only.

use crate::simd::{GROUPS3, Simd, WINDOWS};
use crate::tables::PACK32X4;
use core::arch::aarch64::*;

/// The NEON token: a zero-sized proof that the CPU has NEON, made only by
/// a function compiled with it (see [`crate::simd`]'s docs for the
/// scheme). NEON is part of every aarch64 target but the `softfloat` ones.
#[derive(Clone, Copy, Debug)]
pub struct Neon(());

impl Neon {
    crate::enable! { neon;
        /// The token.
        ///
        /// # Safety
        ///
        /// Safe to call from code compiled with NEON; elsewhere the caller
        /// must know the CPU has it.
        #[must_use]
        pub fn new() -> Neon {
            Neon(())
        }
    }
}

/// Methods that call one intrinsic on their arguments, with the register
/// reinterpreted as the lanes the intrinsic takes and back.
macro_rules! lanes {
    ($( fn $name:ident($($a:ident),*) = $f:ident via $to:ident, $from:ident; )*) => {$(
        #[inline(always)]
        fn $name(self, $($a: uint8x16_t),*) -> uint8x16_t {
            // SAFETY: the token proves that the CPU has NEON (module docs);
            // the intrinsic has no other precondition.
            unsafe { $from($f($($to($a)),*)) }
        }
    )*};
}

/// Identity, for the byte-lane operations of [`lanes!`].
#[inline(always)]
fn bytes(a: uint8x16_t) -> uint8x16_t {
    a
}

/// The weight of each byte's bit in a movemask: `1 << (i % 8)`.
const BIT8: [u8; 16] = [1, 2, 4, 8, 16, 32, 64, 128, 1, 2, 4, 8, 16, 32, 64, 128];
/// The weight of each 16-bit lane's bit in a movemask.
const BIT16: [u16; 8] = [1, 2, 4, 8, 16, 32, 64, 128];
/// The weight of each 32-bit lane's bit in a movemask.
const BIT32: [u32; 4] = [1, 2, 4, 8];

#[cfg(target_endian = "little")]
impl Simd for Neon {
    type V = uint8x16_t;
    const BYTES: usize = 16;
    type Base = Neon;

    #[inline(always)]
    unsafe fn load(self, p: *const u8) -> uint8x16_t {
        // SAFETY: the caller's guarantee covers the 16 bytes read.
        unsafe { vld1q_u8(p) }
    }

    #[inline(always)]
    unsafe fn store(self, p: *mut u8, v: uint8x16_t) {
        // SAFETY: the caller's guarantee covers the 16 bytes written.
        unsafe { vst1q_u8(p, v) }
    }

    #[inline(always)]
    fn splat64(self, x: u64) -> uint8x16_t {
        // SAFETY: the token proves NEON (module docs).
        unsafe { vreinterpretq_u8_u64(vdupq_n_u64(x)) }
    }

    #[inline(always)]
    fn first32(self, a: uint8x16_t) -> u32 {
        // SAFETY: the token proves NEON (module docs).
        unsafe { vgetq_lane_u32::<0>(vreinterpretq_u32_u8(a)) }
    }

    #[inline(always)]
    fn shr64<const N: i32>(self, a: uint8x16_t) -> uint8x16_t {
        // SAFETY: the token proves NEON (module docs).
        unsafe {
            vreinterpretq_u8_u64(vshlq_u64(
                vreinterpretq_u64_u8(a),
                vdupq_n_s64(-i64::from(N)),
            ))
        }
    }

    #[inline(always)]
    unsafe fn store_half(self, p: *mut u8, v: uint8x16_t) {
        // SAFETY: the caller's guarantee covers the 8 bytes written.
        unsafe { vst1_u8(p, vget_low_u8(v)) }
    }

    #[inline(always)]
    fn broadcast16(self, t: &[u8; 16]) -> uint8x16_t {
        // SAFETY: `t` is 16 readable bytes; the token proves NEON.
        unsafe { vld1q_u8(t.as_ptr()) }
    }

    #[inline(always)]
    fn zero(self) -> uint8x16_t {
        // SAFETY: the token proves NEON (module docs).
        unsafe { vdupq_n_u8(0) }
    }

    #[inline(always)]
    fn splat8(self, x: u8) -> uint8x16_t {
        // SAFETY: the token proves NEON (module docs).
        unsafe { vdupq_n_u8(x) }
    }

    #[inline(always)]
    fn splat16(self, x: u16) -> uint8x16_t {
        // SAFETY: the token proves NEON (module docs).
        unsafe { vreinterpretq_u8_u16(vdupq_n_u16(x)) }
    }

    #[inline(always)]
    fn splat32(self, x: u32) -> uint8x16_t {
        // SAFETY: the token proves NEON (module docs).
        unsafe { vreinterpretq_u8_u32(vdupq_n_u32(x)) }
    }

    lanes! {
        fn and(a, b) = vandq_u8 via bytes, bytes;
        fn or(a, b) = vorrq_u8 via bytes, bytes;
        fn xor(a, b) = veorq_u8 via bytes, bytes;
        fn add8(a, b) = vaddq_u8 via bytes, bytes;
        fn sub8(a, b) = vsubq_u8 via bytes, bytes;
        fn add16(a, b) = vaddq_u16 via vreinterpretq_u16_u8, vreinterpretq_u8_u16;
        fn sub16(a, b) = vsubq_u16 via vreinterpretq_u16_u8, vreinterpretq_u8_u16;
        fn add32(a, b) = vaddq_u32 via vreinterpretq_u32_u8, vreinterpretq_u8_u32;
        fn sub32(a, b) = vsubq_u32 via vreinterpretq_u32_u8, vreinterpretq_u8_u32;
        fn gt_i8(a, b) = vcgtq_s8 via vreinterpretq_s8_u8, bytes;
        fn eq8(a, b) = vceqq_u8 via bytes, bytes;
        fn eq16(a, b) = vceqq_u16 via vreinterpretq_u16_u8, vreinterpretq_u8_u16;
        fn gt_i16(a, b) = vcgtq_s16 via vreinterpretq_s16_u8, vreinterpretq_u8_u16;
        fn eq32(a, b) = vceqq_u32 via vreinterpretq_u32_u8, vreinterpretq_u8_u32;
        fn gt_i32(a, b) = vcgtq_s32 via vreinterpretq_s32_u8, vreinterpretq_u8_u32;
        fn max_i16(a, b) = vmaxq_s16 via vreinterpretq_s16_u8, vreinterpretq_u8_s16;
        fn min_u16(a, b) = vminq_u16 via vreinterpretq_u16_u8, vreinterpretq_u8_u16;
        fn max_u32(a, b) = vmaxq_u32 via vreinterpretq_u32_u8, vreinterpretq_u8_u32;
        fn add_sat_u8(a, b) = vqaddq_u8 via bytes, bytes;
        fn sub_sat_u8(a, b) = vqsubq_u8 via bytes, bytes;
        fn max_u8(a, b) = vmaxq_u8 via bytes, bytes;
        fn eq64(a, b) = vceqq_u64 via vreinterpretq_u64_u8, vreinterpretq_u8_u64;
        fn min_i8(a, b) = vminq_s8 via vreinterpretq_s8_u8, vreinterpretq_u8_s8;
    }

    #[inline(always)]
    fn shuffle8(self, table: uint8x16_t, idx: uint8x16_t) -> uint8x16_t {
        // `tbl` gives 0 for an index past 15: keeping the top bit and the
        // low four makes that exactly `pshufb`'s "top bit set gives 0".
        // SAFETY: the token proves NEON (module docs).
        unsafe { vqtbl1q_u8(table, vandq_u8(idx, vdupq_n_u8(0x8F))) }
    }

    #[inline(always)]
    fn alignr8<const N: i32>(self, hi: uint8x16_t, lo: uint8x16_t) -> uint8x16_t {
        // `ext` takes its bytes from the first operand's low end, as
        // `palignr` from its second's.
        // SAFETY: the token proves NEON (module docs).
        unsafe { vextq_u8::<N>(lo, hi) }
    }

    #[inline(always)]
    fn andnot(self, a: uint8x16_t, b: uint8x16_t) -> uint8x16_t {
        // SAFETY: the token proves NEON (module docs).
        unsafe { vbicq_u8(b, a) }
    }

    #[inline(always)]
    fn blendv8(self, a: uint8x16_t, b: uint8x16_t, m: uint8x16_t) -> uint8x16_t {
        // SAFETY: the token proves NEON (module docs).
        unsafe {
            let top = vreinterpretq_u8_s8(vshrq_n_s8::<7>(vreinterpretq_s8_u8(m)));
            vbslq_u8(top, b, a)
        }
    }

    // The shifts take their count as a vector (`ushl`, negative to the
    // right), so that every `N` the trait allows compiles; LLVM turns a
    // constant count into the immediate form.
    #[inline(always)]
    fn shr8<const N: i32>(self, a: uint8x16_t) -> uint8x16_t {
        // SAFETY: the token proves NEON (module docs).
        unsafe { vshlq_u8(a, vdupq_n_s8(-(N as i8))) }
    }

    #[inline(always)]
    fn shl16<const N: i32>(self, a: uint8x16_t) -> uint8x16_t {
        // SAFETY: the token proves NEON (module docs).
        unsafe { vreinterpretq_u8_u16(vshlq_u16(vreinterpretq_u16_u8(a), vdupq_n_s16(N as i16))) }
    }

    #[inline(always)]
    fn shr16<const N: i32>(self, a: uint8x16_t) -> uint8x16_t {
        // SAFETY: the token proves NEON (module docs).
        unsafe {
            vreinterpretq_u8_u16(vshlq_u16(vreinterpretq_u16_u8(a), vdupq_n_s16(-(N as i16))))
        }
    }

    #[inline(always)]
    fn shl32<const N: i32>(self, a: uint8x16_t) -> uint8x16_t {
        // SAFETY: the token proves NEON (module docs).
        unsafe { vreinterpretq_u8_u32(vshlq_u32(vreinterpretq_u32_u8(a), vdupq_n_s32(N))) }
    }

    #[inline(always)]
    fn shr32<const N: i32>(self, a: uint8x16_t) -> uint8x16_t {
        // SAFETY: the token proves NEON (module docs).
        unsafe { vreinterpretq_u8_u32(vshlq_u32(vreinterpretq_u32_u8(a), vdupq_n_s32(-N))) }
    }

    #[inline(always)]
    fn test_any(self, a: uint8x16_t, b: uint8x16_t) -> bool {
        // SAFETY: the token proves NEON (module docs).
        unsafe { vmaxvq_u32(vreinterpretq_u32_u8(vandq_u8(a, b))) != 0 }
    }

    #[inline(always)]
    fn movemask8(self, a: uint8x16_t) -> u64 {
        // SAFETY: the token proves NEON (module docs).
        unsafe {
            let bits = vandq_u8(vcltzq_s8(vreinterpretq_s8_u8(a)), vld1q_u8(BIT8.as_ptr()));
            let lo = vaddv_u8(vget_low_u8(bits));
            let hi = vaddv_u8(vget_high_u8(bits));
            u64::from(lo) | u64::from(hi) << 8
        }
    }

    #[inline(always)]
    fn movemask16(self, a: uint8x16_t) -> u64 {
        // SAFETY: the token proves NEON (module docs).
        unsafe {
            let top = vcltzq_s16(vreinterpretq_s16_u8(a));
            u64::from(vaddvq_u16(vandq_u16(top, vld1q_u16(BIT16.as_ptr()))))
        }
    }

    #[inline(always)]
    fn movemask32(self, a: uint8x16_t) -> u64 {
        // SAFETY: the token proves NEON (module docs).
        unsafe {
            let top = vcltzq_s32(vreinterpretq_s32_u8(a));
            u64::from(vaddvq_u32(vandq_u32(top, vld1q_u32(BIT32.as_ptr()))))
        }
    }

    #[inline(always)]
    unsafe fn load_widen8to16(self, p: *const u8) -> uint8x16_t {
        // SAFETY: the caller's guarantee covers the 8 bytes read; the
        // token proves NEON.
        unsafe { vreinterpretq_u8_u16(vmovl_u8(vld1_u8(p))) }
    }

    #[inline(always)]
    unsafe fn load_widen8to32(self, p: *const u8) -> uint8x16_t {
        // SAFETY: the caller's guarantee covers the 4 bytes read (an
        // unaligned `u32` read); the token proves NEON.
        unsafe {
            let x = p.cast::<u32>().read_unaligned();
            let w16 = vmovl_u8(vcreate_u8(u64::from(x)));
            vreinterpretq_u8_u32(vmovl_u16(vget_low_u16(w16)))
        }
    }

    #[inline(always)]
    unsafe fn load_widen8to64(self, p: *const u8) -> uint8x16_t {
        // SAFETY: the caller's guarantee covers the 2 bytes read (an
        // unaligned `u16` read); the token proves NEON.
        unsafe {
            let x = p.cast::<u16>().read_unaligned();
            let w16 = vmovl_u8(vcreate_u8(u64::from(x)));
            let w32 = vmovl_u16(vget_low_u16(w16));
            vreinterpretq_u8_u64(vmovl_u32(vget_low_u32(w32)))
        }
    }

    #[inline(always)]
    fn narrow16(self, a: uint8x16_t, b: uint8x16_t) -> uint8x16_t {
        // SAFETY: the token proves NEON (module docs).
        unsafe {
            vcombine_u8(
                vqmovun_s16(vreinterpretq_s16_u8(a)),
                vqmovun_s16(vreinterpretq_s16_u8(b)),
            )
        }
    }

    #[inline(always)]
    fn narrow32(self, a: uint8x16_t, b: uint8x16_t, c: uint8x16_t, d: uint8x16_t) -> uint8x16_t {
        // Two saturating steps, as `packus_epi32` then `packus_epi16`.
        let ab = self.narrow32to16(a, b);
        let cd = self.narrow32to16(c, d);
        self.narrow16(ab, cd)
    }

    #[inline(always)]
    fn widen16to32(self, a: uint8x16_t) -> (uint8x16_t, uint8x16_t) {
        // SAFETY: the token proves NEON (module docs).
        unsafe {
            let u = vreinterpretq_u16_u8(a);
            (
                vreinterpretq_u8_u32(vmovl_u16(vget_low_u16(u))),
                vreinterpretq_u8_u32(vmovl_high_u16(u)),
            )
        }
    }

    #[inline(always)]
    fn narrow32to16(self, a: uint8x16_t, b: uint8x16_t) -> uint8x16_t {
        // SAFETY: the token proves NEON (module docs).
        unsafe {
            vreinterpretq_u8_u16(vcombine_u16(
                vqmovun_s32(vreinterpretq_s32_u8(a)),
                vqmovun_s32(vreinterpretq_s32_u8(b)),
            ))
        }
    }

    #[inline(always)]
    fn shr32_bytes(self, a: uint8x16_t, bits: uint8x16_t) -> uint8x16_t {
        // `ushl` by the negated counts shifts right.
        // SAFETY: the token proves NEON (module docs).
        unsafe {
            let right = vnegq_s32(vreinterpretq_s32_u8(bits));
            vreinterpretq_u8_u32(vshlq_u32(vreinterpretq_u32_u8(a), right))
        }
    }

    #[inline(always)]
    unsafe fn compress32(self, a: uint8x16_t, m: u64, dst: *mut u8) {
        let row = &PACK32X4[(m & 15) as usize];
        // SAFETY: `row` is 16 readable bytes; the caller's guarantee covers
        // the 16 bytes written; the token proves NEON. `PACK32X4`'s unused
        // bytes are 0x80, which `tbl` turns into 0 as `pshufb` does.
        unsafe { vst1q_u8(dst, vqtbl1q_u8(a, vld1q_u8(row.as_ptr()))) }
    }

    #[inline(always)]
    unsafe fn windows32(self, p: *const u8, r: usize) -> uint8x16_t {
        // SAFETY: the caller's guarantee covers the 16 bytes at `p + 4r`;
        // the token proves NEON.
        unsafe { vqtbl1q_u8(vld1q_u8(p.add(4 * r)), vld1q_u8(WINDOWS.as_ptr())) }
    }

    #[inline(always)]
    unsafe fn groups3(self, p: *const u8) -> uint8x16_t {
        // SAFETY: the caller's guarantee covers the 16 bytes read; the
        // token proves NEON. `GROUPS3`'s 0x80 bytes give 0 under `tbl`.
        unsafe { vqtbl1q_u8(vld1q_u8(p), vld1q_u8(GROUPS3.as_ptr())) }
    }

    #[inline(always)]
    fn lane(self, a: uint8x16_t, _: usize) -> uint8x16_t {
        a
    }

    #[inline(always)]
    fn base(self) -> Neon {
        self
    }

    #[inline(always)]
    fn sum8(self, a: uint8x16_t) -> u64 {
        // SAFETY: the token proves NEON (module docs).
        u64::from(unsafe { vaddlvq_u8(a) })
    }

    #[inline(always)]
    fn sum16(self, a: uint8x16_t) -> u64 {
        // SAFETY: the token proves NEON (module docs).
        u64::from(unsafe { vaddlvq_u16(vreinterpretq_u16_u8(a)) })
    }

    #[inline(always)]
    fn sum32(self, a: uint8x16_t) -> u64 {
        // SAFETY: the token proves NEON (module docs).
        unsafe { vaddlvq_u32(vreinterpretq_u32_u8(a)) }
    }
}
