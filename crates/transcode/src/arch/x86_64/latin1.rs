//! The Latin-1 kernels, once for every register width ([`Simd`]);
//! `{sse42,avx2,avx512}/latin1.rs` instantiate them with [`kernels!`].
//!
//! - Latin-1 → UTF-16 and UTF-32: every byte zero-extended (`pmovzx`).
//! - UTF-16 and UTF-32 → Latin-1: registers whose units are all below
//!   `100` are narrowed (`packus`); at the first register that holds a
//!   larger unit, a scalar loop converts the units before it and the kernel
//!   stops, leaving the unit (a character Latin-1 lacks, or a surrogate)
//!   to the scalar code, which decides what it is.
//! - Latin-1 → UTF-8: a register of ASCII is copied. Otherwise each 16-byte
//!   lane is split into the first byte of each character (the byte itself
//!   for ASCII, `C2` or `C3` from its top two bits otherwise) and the
//!   second (`80 | low six bits`); the two are interleaved (`punpck`), and
//!   each half-lane of 8 characters drops the second bytes of its ASCII
//!   characters with one `pshufb` from [`EXPAND`], indexed by the 8 top
//!   bits.
//! - UTF-8 → Latin-1: a register of ASCII is copied. Otherwise, if no byte
//!   is above `C3` (no character above U+00FF starts in it), each byte
//!   position gets the character that starts there (a lead byte combined
//!   with the byte after it, loaded from one position on) and the positions
//!   of continuation bytes are dropped, 8 at a time, with a `pshufb` from
//!   [`PACK`]. A register that ends with a lead byte takes the continuation
//!   byte after it too, so every block starts at a character.
//!
//! The last two write a variable amount of output with 16- and 8-byte
//! stores, through `block::run`.

use super::block::{self, Block};
use super::simd::{Simd, Sse42};
use core::arch::x86_64::*;

/// `EXPAND[m]` is the `pshufb` control that turns 8 interleaved pairs
/// (first byte, second byte) into the UTF-8 of 8 Latin-1 characters, the
/// `k`-th of which has two bytes iff bit `k` of `m` is set: it keeps every
/// first byte and the second bytes of the pairs `m` selects, in order, and
/// zeroes the rest of the register. 4 KiB.
static EXPAND: [[u8; 16]; 256] = {
    let mut t = [[0x80u8; 16]; 256];
    let mut m = 0;
    while m < 256 {
        let (mut k, mut out) = (0, 0);
        while k < 8 {
            t[m][out] = 2 * k as u8;
            out += 1;
            if m & (1 << k) != 0 {
                t[m][out] = 2 * k as u8 + 1;
                out += 1;
            }
            k += 1;
        }
        m += 1;
    }
    t
};

/// `PACK[m]` is the `pshufb` control, in its 8 bytes, that moves the bytes
/// of an 8-byte half-register that `m` selects to its start, in order
/// (the bytes after them are copies of byte 0). 2 KiB.
static PACK: [u64; 256] = {
    let mut t = [0u64; 256];
    let mut m = 0;
    while m < 256 {
        let (mut k, mut out) = (0, 0);
        while k < 8 {
            if m & (1 << k) != 0 {
                t[m] |= (k as u64) << (8 * out);
                out += 1;
            }
            k += 1;
        }
        m += 1;
    }
    t
};

/// Latin-1 to UTF-16: one zero-extended register at a time; the last one
/// overlaps the one before (rewriting the same units) instead of leaving a
/// tail.
#[inline(always)]
pub(crate) fn latin1_to_utf16<S: Simd>(s: S, src: &[u8], dst: &mut [u16]) -> (usize, usize) {
    let n = src.len().min(dst.len());
    let k = S::BYTES / 2;
    if n < k {
        return (0, 0);
    }
    let (p, q) = (src.as_ptr(), dst.as_mut_ptr().cast::<u8>());
    let mut i = 0;
    while i < n {
        let at = if n - i >= k { i } else { n - k };
        // SAFETY: `at + k <= n`, which is at most `src.len()` and
        // `dst.len()`: `k` bytes are read and `k` units written.
        unsafe { s.store(q.add(2 * at), s.load_widen8to16(p.add(at))) };
        i = at + k;
    }
    (n, n)
}

/// Latin-1 to UTF-32, as [`latin1_to_utf16`].
#[inline(always)]
pub(crate) fn latin1_to_utf32<S: Simd>(s: S, src: &[u8], dst: &mut [u32]) -> (usize, usize) {
    let n = src.len().min(dst.len());
    let k = S::BYTES / 4;
    if n < k {
        return (0, 0);
    }
    let (p, q) = (src.as_ptr(), dst.as_mut_ptr().cast::<u8>());
    let mut i = 0;
    while i < n {
        let at = if n - i >= k { i } else { n - k };
        // SAFETY: `at + k <= n`, which is at most `src.len()` and
        // `dst.len()`: `k` bytes are read and `k` units written.
        unsafe { s.store(q.add(4 * at), s.load_widen8to32(p.add(at))) };
        i = at + k;
    }
    (n, n)
}

/// The units of `src` from `i` that are below `100`, up to `n`, as bytes;
/// returns where it stopped. The end of the narrowing kernels.
#[inline(always)]
fn narrow_tail<U: Copy + Into<u32>>(src: &[U], dst: &mut [u8], mut i: usize, n: usize) -> usize {
    while i < n {
        let (Some(&u), Some(d)) = (src.get(i), dst.get_mut(i)) else {
            break;
        };
        let Ok(b) = u8::try_from(u.into()) else {
            break;
        };
        *d = b;
        i += 1;
    }
    i
}

/// UTF-16 to Latin-1, `S::BYTES` units (two registers) at a time, up to the
/// first register with a unit above `FF`.
#[inline(always)]
pub(crate) fn utf16_to_latin1<S: Simd>(s: S, src: &[u16], dst: &mut [u8]) -> (usize, usize) {
    let n = src.len().min(dst.len());
    let k = S::BYTES;
    let (p, q) = (src.as_ptr().cast::<u8>(), dst.as_mut_ptr());
    let high = s.splat16(0xFF00);
    let mut i = 0;
    while i < n && n >= k {
        let at = if n - i >= k { i } else { n - k };
        // SAFETY: units `at..at + k` are inside `src` (`at + k <= n`).
        let (a, b) = unsafe { (s.load(p.add(2 * at)), s.load(p.add(2 * at + S::BYTES))) };
        if s.test_any(s.or(a, b), high) {
            break;
        }
        // SAFETY: bytes `at..at + k` are inside `dst` (`at + k <= n`).
        unsafe { s.store(q.add(at), s.narrow16(a, b)) };
        i = at + k;
    }
    let i = narrow_tail(src, dst, i, n);
    (i, i)
}

/// UTF-32 to Latin-1, `S::BYTES` units (four registers) at a time, up to
/// the first register with a unit above `FF`.
#[inline(always)]
pub(crate) fn utf32_to_latin1<S: Simd>(s: S, src: &[u32], dst: &mut [u8]) -> (usize, usize) {
    let n = src.len().min(dst.len());
    let k = S::BYTES;
    let (p, q) = (src.as_ptr().cast::<u8>(), dst.as_mut_ptr());
    let high = s.splat32(!0xFF);
    let mut i = 0;
    while i < n && n >= k {
        let at = if n - i >= k { i } else { n - k };
        let r = p.wrapping_add(4 * at);
        // SAFETY: units `at..at + k` are inside `src` (`at + k <= n`): four
        // registers of `k / 4` units.
        let (a, b, c, d) = unsafe {
            (
                s.load(r),
                s.load(r.add(S::BYTES)),
                s.load(r.add(2 * S::BYTES)),
                s.load(r.add(3 * S::BYTES)),
            )
        };
        if s.test_any(s.or(s.or(a, b), s.or(c, d)), high) {
            break;
        }
        // SAFETY: bytes `at..at + k` are inside `dst` (`at + k <= n`).
        unsafe { s.store(q.add(at), s.narrow32(a, b, c, d)) };
        i = at + k;
    }
    let i = narrow_tail(src, dst, i, n);
    (i, i)
}

/// A block of Latin-1 for [`latin1_to_utf8`]: one register and its
/// non-ASCII bytes.
#[derive(Clone, Copy)]
struct FromLatin1<S: Simd> {
    s: S,
    v: S::V,
    high: u64,
}

impl<S: Simd> Block<u8> for FromLatin1<S> {
    #[inline(always)]
    fn read(&self) -> usize {
        S::BYTES
    }

    #[inline(always)]
    fn written(&self) -> usize {
        S::BYTES + self.high.count_ones() as usize
    }

    #[inline(always)]
    fn stray(&self) -> usize {
        // The last half-lane's 16-byte store holds 8 to 16 bytes of output.
        if self.high == 0 {
            0
        } else {
            8 - (self.high >> (S::BYTES - 8)).count_ones() as usize
        }
    }

    #[inline(always)]
    unsafe fn store(&self, dst: *mut u8) {
        if self.high == 0 {
            // SAFETY: `written() == BYTES`, which the caller provides.
            unsafe { self.s.store(dst, self.v) };
            return;
        }
        let mut o = 0;
        for k in 0..S::BYTES / 16 {
            let high = (self.high >> (16 * k)) as u16;
            // SAFETY: the output of lanes `..=k`, then `stray()` bytes for
            // the last lane, are inside `written() + stray()`; each store
            // writes 16 bytes of which the first `8 + high bits` are the
            // output.
            o += unsafe {
                self.s
                    .sse()
                    .expand_latin1(self.s.lane(self.v, k), high, dst.add(o))
            };
        }
    }
}

impl Sse42 {
    /// Writes the UTF-8 of the 16 Latin-1 characters of `x`, whose bytes
    /// from `80` are the bits of `high`, at `dst`; returns its length. Two
    /// 16-byte stores, the second at the end of the first's output: up to
    /// 8 bytes of garbage follow the output.
    ///
    /// # Safety
    ///
    /// `dst` is valid for writes of the output and 16 bytes after the
    /// output of the first 8 characters.
    #[inline(always)]
    unsafe fn expand_latin1(self, x: __m128i, high: u16, dst: *mut u8) -> usize {
        let (lo, hi) = ((high & 0xFF) as usize, (high >> 8) as usize);
        let len_lo = 8 + lo.count_ones() as usize;
        // SAFETY: the token proves the CPU features (module docs of
        // `simd`); the tables are indexed below 256; the stores are inside
        // what the caller provides.
        unsafe {
            let top2 = _mm_and_si128(_mm_srli_epi16::<6>(x), _mm_set1_epi8(0x03));
            let lead = _mm_or_si128(top2, _mm_set1_epi8(0xC0u8 as i8));
            // The top bit of each byte picks the lead byte over the byte.
            let first = _mm_blendv_epi8(x, lead, x);
            let second = _mm_or_si128(
                _mm_and_si128(x, _mm_set1_epi8(0x3F)),
                _mm_set1_epi8(0x80u8 as i8),
            );
            let pairs_lo = _mm_unpacklo_epi8(first, second);
            let pairs_hi = _mm_unpackhi_epi8(first, second);
            let out_lo = _mm_shuffle_epi8(pairs_lo, _mm_loadu_si128(EXPAND[lo].as_ptr().cast()));
            let out_hi = _mm_shuffle_epi8(pairs_hi, _mm_loadu_si128(EXPAND[hi].as_ptr().cast()));
            _mm_storeu_si128(dst.cast(), out_lo);
            _mm_storeu_si128(dst.add(len_lo).cast(), out_hi);
        }
        len_lo + 8 + hi.count_ones() as usize
    }
}

/// Latin-1 to UTF-8 by blocks of one register.
#[inline(always)]
pub(crate) fn latin1_to_utf8<S: Simd>(s: S, src: &[u8], dst: &mut [u8]) -> (usize, usize) {
    let n = src.len();
    let p = src.as_ptr();
    block::run(dst, |i| {
        if n.checked_sub(i)? < S::BYTES {
            return None;
        }
        // SAFETY: `i + BYTES <= n`.
        let v = unsafe { s.load(p.add(i)) };
        Some(FromLatin1 {
            s,
            v,
            high: s.movemask8(v),
        })
    })
}

/// A block of UTF-8 for [`utf8_to_latin1`]: one register of characters
/// below U+0100 (or of ASCII), the characters starting at each byte, and
/// where they start.
#[derive(Clone, Copy)]
struct ToLatin1<S: Simd> {
    s: S,
    /// The character at each byte position where one starts.
    v: S::V,
    /// The positions where a character starts.
    starts: u64,
    /// Whether the last byte is a lead byte, whose continuation byte the
    /// block takes too.
    carry: bool,
}

impl<S: Simd> Block<u8> for ToLatin1<S> {
    #[inline(always)]
    fn read(&self) -> usize {
        S::BYTES + usize::from(self.carry)
    }

    #[inline(always)]
    fn written(&self) -> usize {
        self.starts.count_ones() as usize
    }

    #[inline(always)]
    fn stray(&self) -> usize {
        if self.starts == u64::MAX >> (64 - S::BYTES) {
            0
        } else {
            8 - (self.starts >> (S::BYTES - 8)).count_ones() as usize
        }
    }

    #[inline(always)]
    unsafe fn store(&self, dst: *mut u8) {
        if self.starts == u64::MAX >> (64 - S::BYTES) {
            // SAFETY: `written() == BYTES`, which the caller provides.
            unsafe { self.s.store(dst, self.v) };
            return;
        }
        let mut o = 0;
        for k in 0..S::BYTES / 16 {
            let starts = (self.starts >> (16 * k)) as u16;
            // SAFETY: as in `FromLatin1::store`: the output so far, then
            // 8-byte stores whose garbage is at most `stray()` bytes past
            // the last one's output.
            o += unsafe {
                self.s
                    .sse()
                    .pack_starts(self.s.lane(self.v, k), starts, dst.add(o))
            };
        }
    }
}

impl Sse42 {
    /// Writes the bytes of `x` that `starts` selects at `dst`, in order;
    /// returns how many. Two 8-byte stores, the second at the end of the
    /// first's output: up to 8 bytes of garbage follow the output.
    ///
    /// # Safety
    ///
    /// `dst` is valid for writes of the output and 8 bytes after the output
    /// of the first half.
    #[inline(always)]
    unsafe fn pack_starts(self, x: __m128i, starts: u16, dst: *mut u8) -> usize {
        let (lo, hi) = ((starts & 0xFF) as usize, (starts >> 8) as usize);
        let len_lo = lo.count_ones() as usize;
        // SAFETY: the token proves the CPU features (module docs of
        // `simd`); the table is indexed below 256; the stores are inside
        // what the caller provides.
        unsafe {
            let out_lo = _mm_shuffle_epi8(x, _mm_cvtsi64_si128(PACK[lo] as i64));
            let out_hi =
                _mm_shuffle_epi8(_mm_unpackhi_epi64(x, x), _mm_cvtsi64_si128(PACK[hi] as i64));
            _mm_storeu_si64(dst, out_lo);
            _mm_storeu_si64(dst.add(len_lo), out_hi);
        }
        len_lo + hi.count_ones() as usize
    }
}

/// Valid UTF-8 to Latin-1 by blocks of one register, up to the first block
/// in which a character above U+00FF starts.
#[inline(always)]
pub(crate) fn utf8_to_latin1<S: Simd>(s: S, src: &[u8], dst: &mut [u8]) -> (usize, usize) {
    let n = src.len();
    let p = src.as_ptr();
    let (c3, c0, low6) = (s.splat8(0xC3), s.splat8(0xC0), s.splat8(0x3F));
    block::run(dst, move |i| {
        // The block reads one byte past its register.
        if n.checked_sub(i)? <= S::BYTES {
            return None;
        }
        // SAFETY: `i + BYTES + 1 <= n`.
        let (x, next) = unsafe { (s.load(p.add(i)), s.load(p.add(i + 1))) };
        let high = s.movemask8(x);
        if high == 0 {
            return Some(ToLatin1 {
                s,
                v: x,
                starts: u64::MAX >> (64 - S::BYTES),
                carry: false,
            });
        }
        // A byte above C3 starts a character above U+00FF (or is not
        // UTF-8): the scalar code decides. Signed, those are the bytes above
        // C3 (-61) that are negative.
        if s.movemask8(s.and(s.gt_i8(x, c3), x)) != 0 {
            return None;
        }
        // Continuation bytes are 80..=BF: signed, below C0 (-64).
        let cont_v = s.gt_i8(c0, x);
        let cont = s.movemask8(cont_v);
        let lead = high & !cont;
        // At a lead byte (C2 or C3), its low two bits and the next byte's
        // low six make the character. The lead bytes are those whose top
        // bit is set and that are not continuation bytes.
        let combined = s.or(s.and(s.shl16::<6>(x), c0), s.and(next, low6));
        let v = s.blendv8(x, combined, s.andnot(cont_v, x));
        Some(ToLatin1 {
            s,
            v,
            starts: !cont & (u64::MAX >> (64 - S::BYTES)),
            carry: lead >> (S::BYTES - 1) != 0,
        })
    })
}

/// Defines the Latin-1 kernels of the table for the token `$token`, whose
/// features are `$features`: safe `#[target_feature]` functions, which
/// coerce to the table's `unsafe fn` pointers.
macro_rules! kernels {
    ($token:ident, $features:literal) => {
        use crate::arch::x86_64::{latin1, simd::$token};

        /// Latin-1 to UTF-8.
        #[target_feature(enable = $features)]
        pub(crate) fn latin1_to_utf8(src: &[u8], dst: &mut [u8]) -> (usize, usize) {
            latin1::latin1_to_utf8($token::new(), src, dst)
        }

        /// Latin-1 to UTF-16.
        #[target_feature(enable = $features)]
        pub(crate) fn latin1_to_utf16(src: &[u8], dst: &mut [u16]) -> (usize, usize) {
            latin1::latin1_to_utf16($token::new(), src, dst)
        }

        /// Latin-1 to UTF-32.
        #[target_feature(enable = $features)]
        pub(crate) fn latin1_to_utf32(src: &[u8], dst: &mut [u32]) -> (usize, usize) {
            latin1::latin1_to_utf32($token::new(), src, dst)
        }

        /// Valid UTF-8 to Latin-1, up to a character above U+00FF.
        #[target_feature(enable = $features)]
        pub(crate) fn utf8_to_latin1(src: &[u8], dst: &mut [u8]) -> (usize, usize) {
            latin1::utf8_to_latin1($token::new(), src, dst)
        }

        /// UTF-16 to Latin-1, up to a unit above `FF`.
        #[target_feature(enable = $features)]
        pub(crate) fn utf16_to_latin1(src: &[u16], dst: &mut [u8]) -> (usize, usize) {
            latin1::utf16_to_latin1($token::new(), src, dst)
        }

        /// UTF-32 to Latin-1, up to a unit above `FF`.
        #[target_feature(enable = $features)]
        pub(crate) fn utf32_to_latin1(src: &[u32], dst: &mut [u8]) -> (usize, usize) {
            latin1::utf32_to_latin1($token::new(), src, dst)
        }
    };
}
pub(crate) use kernels;
