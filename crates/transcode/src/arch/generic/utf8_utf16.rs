//! Valid UTF-8 → UTF-16 (native, or byte-swapped: [`Utf16Out`]) and, with
//! 32-byte registers, → UTF-32 (`x86_64/lanes.rs`' `Utf32Out`): one
//! kernel, generic over the register width and architecture ([`Utf8Simd`],
//! implemented in `x86_64/lanes.rs` and `aarch64/lanes.rs`) and its output
//! ([`Out`]); x86-64's `{sse41,avx2}/mod.rs` instantiate it with
//! [`kernels!`].
//!
//! UTF-32 output is the UTF-16 kernel's units zero-extended before they are
//! stored (every path but 4-byte characters makes one unit per character),
//! and its 4-byte path stores the characters' values. The UTF-8 → UTF-32
//! kernel written for every width (`generic::utf32`) decodes a window of 16
//! bytes into 32-bit lanes and packs them, half as many characters a
//! register as this kernel's 16-bit lanes: on Hindi text, 582,000
//! instructions a call (callgrind, 64 KiB) against 270,000 for this
//! kernel's UTF-16 with 32-byte registers.
//!
//! The input has been validated (by utf8-simd) or is a `&str`, so the
//! kernel only decodes; on invalid bytes it would write wrong units, never
//! out of bounds. Each step looks at the `B = BYTES` bytes at the current
//! position (16 or 32; it may read 32) and takes the first path that
//! applies:
//!
//! 1. ASCII: all `B` bytes below 0x80 → widened to `B` units.
//! 2. All 4-byte characters, starting at the position (Emoji text) → `B /
//!    4` characters decoded in 32-bit lanes and written as surrogate pairs.
//! 3. All 3-byte characters for `3B / 4` bytes from the first character
//!    start (CJK text) → `B / 4` characters, decoded in 32-bit lanes. After
//!    such a step the loop stays on this path for as long as the next `3B /
//!    4 + 1` bytes start characters exactly every 3 bytes, the one test it
//!    needs on valid input. Going through `step` every 24 bytes instead ran
//!    Chinese lipsum at 4.6 GB/s from `&str` (3.4 GB/s validating); the run
//!    makes it 18 GB/s (9.6 validating), AVX2, AMD EPYC Zen 4, 64 KiB.
//! 4. No 4-byte character among the first `B - 2` bytes → `B / 16`
//!    *windows*. A window: a character is decoded in a 16-bit lane at each
//!    of 16 byte positions (from the bytes at `p`, `p + 1`, `p + 2`, aligned
//!    out of two 16-byte registers), and the lanes of the positions 0..14
//!    where a character starts are left-packed with [`PACK16`] (8 lanes at
//!    a time) and stored. The window always advances 14 bytes: a character
//!    that starts at 13 still ends inside the 16 loaded bytes, and the next
//!    window skips the continuation bytes it starts on. No step depends on
//!    the one before, except through the output position. Without 3-byte
//!    characters either, the windows are *short*: 15 positions each (a
//!    2-byte character that starts at 14 ends at 15), and only the 1- and
//!    2-byte forms are computed.
//! 5. Otherwise (a 4-byte character among others), into UTF-16: windows in
//!    which a 4-byte character makes its lead surrogate in its lead byte's
//!    lane and its trail surrogate in the next byte's lane (whose own second
//!    and third bytes are the character's last two), so that both lanes are
//!    packed as character starts. Text with an emoji every 8 characters went
//!    at 0.35-0.94 GB/s through the scalar decoder here, 0.17-0.32 times
//!    simdutf's AVX2 kernel (Zen 4, 64 KiB). Into UTF-32, where such a
//!    character is one unit, the same windows make its value in its lead's
//!    lane: the low 16 bits in the lane, the bits above in a second register
//!    packed alike, and the two interleaved into 32-bit units when stored
//!    (`Out::store8_wide`).
//!
//! Stores are 16 or 32 bytes wide and may write lanes past the characters
//! of the step, up to `B` units from where it starts. The main loop only
//! runs while the output has room for more than those `B` units and at
//! least 48 input bytes remain after the step, which (valid UTF-8 has at
//! most 3 bytes per unit) guarantees at least 16 more units of output:
//! every stray lane is overwritten before the conversion ends, or the
//! conversion ends for room past them (at `cap - 1` at the earliest). Near the end, steps go through a
//! scratch buffer and only their real units are copied; the last bytes are
//! left to the scalar code.
//!
//! Dead ends and measurements are in `docs/results/transcode.md`.

use super::super::tables::PACK16;
use codec_arch::Simd;

/// A register of the 16-byte token `S` implies ([`Simd::Base`]).
type Lane<S> = <<S as Simd>::Base as Simd>::V;

/// The `pshufb` control that swaps the bytes of each 16-bit lane.
const SWAP16: [u8; 16] = [1, 0, 3, 2, 5, 4, 7, 6, 9, 8, 11, 10, 13, 12, 15, 14];

/// The operations of the UTF-8 → UTF-16 kernel that depend on the width
/// beyond [`Simd`]'s.
pub(crate) trait Utf8Simd: Simd {
    /// `pmaddubsw`: unsigned bytes of `a` times signed bytes of `b`, pairs
    /// added into 16-bit lanes, with signed saturation (the kernel's sums
    /// never reach it).
    fn maddubs(self, a: Self::V, b: Self::V) -> Self::V;

    /// `pmaddwd`: signed 16-bit products, pairs added into 32-bit lanes.
    fn madd(self, a: Self::V, b: Self::V) -> Self::V;

    /// Bytes `h * N .. (h + 1) * N` of `x` zero-extended to the `N` 16-bit
    /// lanes of a register (`N = BYTES / 2`; `h < 16 / N`).
    fn widen8(self, x: Lane<Self>, h: usize) -> Self::V;

    /// The step's bytes `k..k + 3B / 4` (`k <= 2`), `B / 4` characters of 3
    /// bytes, one a 32-bit lane as the bytes `b1 b2 b0 x` (the fourth any
    /// byte: the caller masks it off).
    fn three_byte_lanes(self, v: Self::V, k: u32) -> Self::V;

    /// [`four_windows`] (path 5), inline or out of line.
    ///
    /// # Safety
    ///
    /// As `four_windows`: `out` is writable for `BYTES` units.
    unsafe fn four_windows<O: Out<Self>>(
        self,
        x: (Lane<Self>, Lane<Self>),
        out: *mut O::Unit,
        starts: u64,
        fours: u64,
    ) -> usize;
}

/// What the kernel writes: how 16-bit units (and, on the 4-byte path,
/// characters' values) are stored. The implementations are [`Utf16Out`]
/// (every width) and x86-64's `Utf32Out` (32-byte registers).
pub(crate) trait Out<S: Simd> {
    /// The output unit.
    type Unit: Copy + Default;

    /// Whether a 4-byte character is two units (UTF-16), which a window
    /// can make in two of its 16-bit lanes.
    const PAIRS: bool;

    /// Stores the 8 units of `v` (16-bit lanes).
    ///
    /// # Safety
    ///
    /// `out` is writable for 8 units.
    unsafe fn store8(s: S, out: *mut Self::Unit, v: Lane<S>);

    /// Stores the `BYTES / 2` units of `v` (16-bit lanes).
    ///
    /// # Safety
    ///
    /// `out` is writable for `BYTES / 2` units.
    unsafe fn store(s: S, out: *mut Self::Unit, v: S::V);

    /// Stores 8 characters' values from their low 16 bits (`low`) and the
    /// bits above (`high`), for the windows with 4-byte characters into
    /// UTF-32 (where `PAIRS` is false; UTF-16 stores `low`, which is all
    /// of a value below U+10000).
    ///
    /// # Safety
    ///
    /// `out` is writable for 8 units.
    unsafe fn store8_wide(s: S, out: *mut Self::Unit, low: Lane<S>, high: Lane<S>);

    /// Stores `BYTES / 4` characters' values (`v`, 32-bit lanes) as they
    /// are, if this output holds values (UTF-32): returns the units
    /// written, or `None` to let the caller make UTF-16 units of them.
    ///
    /// # Safety
    ///
    /// `out` is writable for `BYTES / 4` units.
    unsafe fn store_values(s: S, out: *mut Self::Unit, v: S::V) -> Option<usize>;

    /// Stores the `BYTES` ASCII bytes at `p` as units if this output has a
    /// way of its own (UTF-32: zero-extended 8 bytes at a time from memory,
    /// where widening the 16-bit units took two more shuffles a store);
    /// returns whether it did.
    ///
    /// # Safety
    ///
    /// `p` is readable for `BYTES` bytes; `out` is writable for `BYTES`
    /// units.
    unsafe fn ascii(s: S, p: *const u8, out: *mut Self::Unit) -> bool;
}

/// UTF-16 output, native order or (`SWAP`) byte-swapped.
pub(crate) struct Utf16Out<const SWAP: bool>;

impl<S: Simd, const SWAP: bool> Out<S> for Utf16Out<SWAP> {
    type Unit = u16;
    const PAIRS: bool = true;

    #[inline(always)]
    unsafe fn store8(s: S, out: *mut u16, v: Lane<S>) {
        let sse = s.base();
        let v = if SWAP {
            sse.shuffle8(v, sse.broadcast16(&SWAP16))
        } else {
            v
        };
        // SAFETY: the caller guarantees the writes.
        unsafe { sse.store(out.cast(), v) }
    }

    #[inline(always)]
    unsafe fn store(s: S, out: *mut u16, v: S::V) {
        let v = if SWAP {
            s.shuffle8(v, s.broadcast16(&SWAP16))
        } else {
            v
        };
        // SAFETY: the caller guarantees the writes.
        unsafe { s.store(out.cast(), v) }
    }

    #[inline(always)]
    unsafe fn store8_wide(s: S, out: *mut u16, low: Lane<S>, _: Lane<S>) {
        // SAFETY: as in `store8`.
        unsafe { <Self as Out<S>>::store8(s, out, low) }
    }

    #[inline(always)]
    unsafe fn store_values(_: S, _: *mut u16, _: S::V) -> Option<usize> {
        None
    }

    #[inline(always)]
    unsafe fn ascii(_: S, _: *const u8, _: *mut u16) -> bool {
        false
    }
}

/// Every third bit, from bit 0: character starts 3 bytes apart.
const EVERY3: u64 = 0x9249_2492_4924_9249;

/// Windows in a step.
#[inline(always)]
const fn windows<S: Simd>() -> usize {
    S::BYTES / 16
}

/// The low `n` bits.
#[inline(always)]
const fn low_bits(n: usize) -> u64 {
    (1u64 << n) - 1
}

/// See the module docs. `dst` is written with unaligned stores.
///
/// # Safety
///
/// `dst` is valid for writes of `cap` units (at any alignment).
#[inline(always)]
pub(crate) unsafe fn convert<S: Utf8Simd, O: Out<S>>(
    s: S,
    src: &[u8],
    dst: *mut O::Unit,
    cap: usize,
) -> (usize, usize) {
    let b = S::BYTES;
    let chars3 = b / 4;
    let len = src.len();
    let p8 = src.as_ptr();
    let (mut p, mut o) = (0usize, 0usize);
    // The main loop: direct stores (see the module docs for the bounds).
    while p + 32 + 48 <= len && o + b < cap {
        // SAFETY: `p + 32 <= len`; the stores write at most `B` units at `o`,
        // and `o + B < cap`. (Every step reads at least a byte, so the loop
        // ends.)
        let (r, w) = unsafe { step::<S, O>(s, p8.add(p), dst.add(o)) };
        p += r;
        o += w;
        if r == b && w == b {
            // ASCII: more of it is likely; `2B` bytes at a time.
            while p + 2 * b + 48 <= len && o + 2 * b < cap {
                // SAFETY: `p + 2B <= len`.
                let (x, y) = unsafe { (s.load(p8.add(p)), s.load(p8.add(p + b))) };
                if s.movemask8(s.or(x, y)) != 0 {
                    break;
                }
                // SAFETY: `o + 2B <= cap`.
                unsafe {
                    ascii::<S, O>(s, p8.add(p), dst.add(o));
                    ascii::<S, O>(s, p8.add(p + b), dst.add(o + b));
                }
                p += 2 * b;
                o += 2 * b;
            }
        } else if w == chars3 && (3 * chars3..=3 * chars3 + 2).contains(&r) {
            // `B / 4` 3-byte characters (with 32-byte registers only
            // `three_byte` reads 24..=26 bytes; with 16, a window may read 14
            // and the test below sends it back): CJK text, where runs of them
            // average 170 characters (Chinese lipsum) or 33 (Japanese). Stay
            // on that path while the next `3B / 4 + 1` bytes start characters
            // at 0, 3, ... and nowhere else: in valid UTF-8 that makes the
            // bytes before the last start `B / 4` 3-byte characters, so the
            // test needs neither the ASCII nor the lead-byte masks of `step`.
            let mask = low_bits(3 * chars3 + 1);
            let pattern = EVERY3 & mask;
            while p + 32 + 48 <= len && o + b < cap {
                // SAFETY: `p + B <= len`; `three_byte` writes 8 units at `o`,
                // and `o + B < cap`.
                unsafe {
                    let v = s.load(p8.add(p));
                    let starts = s.movemask8(s.gt_i8(v, s.splat8(-65i8 as u8)));
                    if starts & mask != pattern {
                        break;
                    }
                    three_byte::<S, O>(s, v, 0, dst.add(o));
                }
                p += 3 * chars3;
                o += chars3;
            }
        }
    }
    // Near the end: through a scratch buffer.
    let mut scratch = [O::Unit::default(); 32];
    while p + 32 <= len {
        // SAFETY: `p + 32 <= len`, and `scratch` holds 32 units, at least `B`.
        let (r, w) = unsafe { step::<S, O>(s, p8.add(p), scratch.as_mut_ptr()) };
        if o + w > cap {
            break;
        }
        // SAFETY: `w <= B` units of `scratch` to `dst[o..o + w]`, inside
        // `cap`; the two do not overlap. Copied as bytes: `dst` may be
        // unaligned.
        unsafe {
            core::ptr::copy_nonoverlapping(
                scratch.as_ptr().cast::<u8>(),
                dst.add(o).cast::<u8>(),
                core::mem::size_of::<O::Unit>() * w,
            )
        };
        p += r;
        o += w;
    }
    // A window may stop on continuation bytes: the character they belong to
    // was written in full, so the boundary is after them.
    while p < len && (src[p] as i8) < -64 {
        p += 1;
    }
    (p, o)
}

/// One step at `p`, writing to `out`: returns `(bytes read, units
/// written)`; it reads at least one byte.
///
/// # Safety
///
/// `p` is readable for 32 bytes, `out` writable for `BYTES` units.
#[inline(always)]
unsafe fn step<S: Utf8Simd, O: Out<S>>(s: S, p: *const u8, out: *mut O::Unit) -> (usize, usize) {
    let b = S::BYTES;
    let full = low_bits(b);
    // SAFETY: the caller guarantees the reads.
    let v = unsafe { s.load(p) };
    let non_ascii = s.movemask8(v);
    if non_ascii == 0 {
        // SAFETY: as the caller guarantees.
        unsafe { ascii::<S, O>(s, p, out) };
        return (b, b);
    }
    // A byte is a character start unless it is a continuation (80..BF,
    // which as i8 is below -64); a 4-byte lead is F0..FF (unsigned).
    let starts = s.movemask8(s.gt_i8(v, s.splat8(-65i8 as u8)));
    let fours = s.movemask8(s.eq8(s.max_u8(v, s.splat8(0xF0)), v));
    if fours & low_bits(b - 2) == 0 {
        let threes = s.movemask8(s.eq8(s.max_u8(v, s.splat8(0xE0)), v));
        if threes & low_bits(b - 1) == 0 {
            // SAFETY: the caller guarantees 32 readable bytes.
            let (lo, hi) = unsafe { halves(s, v, p) };
            // Characters of 1 and 2 bytes only: short windows, of the
            // characters that start at 0..15 (and at 15..30).
            // SAFETY: each window writes at most 16 units, the second after
            // the first's at most 15, inside the `B` guaranteed.
            let mut n = unsafe { short_window::<S, O>(s, lo, hi, 0, out, starts & 0x7FFF) };
            if windows::<S>() == 2 {
                // SAFETY: as above.
                n += unsafe {
                    short_window::<S, O>(s, lo, hi, 15, out.add(n), (starts >> 15) & 0x7FFF)
                };
            }
            return (15 * windows::<S>(), n);
        }
        // `B / 4` 3-byte characters from the first start (at most 2
        // continuation bytes in: a window may have stopped there).
        let k = (starts.trailing_zeros()).min(3);
        let chars = b / 4;
        let three_mask = low_bits(3 * chars);
        if k <= 2 && (starts >> k) & three_mask == EVERY3 & three_mask {
            // SAFETY: as the caller guarantees.
            unsafe { three_byte::<S, O>(s, v, k, out) };
            return (3 * chars + k as usize, chars);
        }
        // Windows: the characters that start at 0..14 (and at 14..28);
        // without 2-byte characters (leads C0..DF), without their form.
        // SAFETY: the caller guarantees 32 readable bytes.
        let (lo, hi) = unsafe { halves(s, v, p) };
        let twos = starts & non_ascii & !threes;
        let (a, b2) = (starts & 0x3FFF, (starts >> 14) & 0x3FFF);
        // SAFETY: as the caller guarantees.
        return unsafe {
            if twos & low_bits(14 * windows::<S>()) == 0 {
                windows_of::<S, O, false>(s, (lo, hi), out, a, b2)
            } else {
                windows_of::<S, O, true>(s, (lo, hi), out, a, b2)
            }
        };
    }
    let ones = 0x1111_1111_1111_1111 & full;
    if fours == ones && starts == ones {
        // SAFETY: as the caller guarantees.
        return (b, unsafe { four_byte::<S, O>(s, v, out) });
    }
    let k = starts.trailing_zeros();
    if (1..=3).contains(&k) && (fours >> k) & (ones >> 4) == ones >> 4 {
        // 4-byte characters only, from byte `k` (1 to 3: a window stopped
        // inside one): step over the continuation bytes, so that the next
        // step takes path 2. (Windows advance 28 bytes, 7 such characters,
        // and never got back to it: the Emoji text went at 4.7 GB/s instead
        // of 8.6, AVX2.)
        return (k as usize, 0);
    }
    // SAFETY: as the caller guarantees (32 readable bytes, `BYTES` units
    // writable).
    (14 * windows::<S>(), unsafe {
        s.four_windows::<O>(halves(s, v, p), out, starts, fours)
    })
}

/// Path 4: the step's windows (`a` and `b` keep the starts of each), the
/// characters in them of 1 to 3 bytes (without `TWO`, no 2-byte ones);
/// returns `(bytes read, units written)`.
///
/// # Safety
///
/// `out` is writable for `BYTES` units.
#[inline(always)]
unsafe fn windows_of<S: Utf8Simd, O: Out<S>, const TWO: bool>(
    s: S,
    (lo, hi): (Lane<S>, Lane<S>),
    out: *mut O::Unit,
    a: u64,
    b: u64,
) -> (usize, usize) {
    // SAFETY: each window writes at most 16 units, the second after the
    // first's at most 14.
    unsafe {
        let n = window::<S, O, TWO, false>(s, lo, hi, 0, out, a);
        if windows::<S>() == 1 {
            return (14, n);
        }
        let m = window::<S, O, TWO, false>(s, lo, hi, 14, out.add(n), b);
        (28, n + m)
    }
}

/// The step's bytes as 16-byte registers: the first 16 and the next 16.
///
/// # Safety
///
/// `p` is readable for 32 bytes; `v` holds its first `BYTES`.
#[inline(always)]
unsafe fn halves<S: Simd>(s: S, v: S::V, p: *const u8) -> (Lane<S>, Lane<S>) {
    if S::BYTES == 16 {
        // SAFETY: as the caller guarantees.
        (s.lane(v, 0), unsafe { s.base().load(p.add(16)) })
    } else {
        (s.lane(v, 0), s.lane(v, 1))
    }
}

/// The windows with 4-byte characters (path 5; `starts` and `fours`: the
/// step's masks), returning the units written: each character's
/// surrogates at its lead and at the byte after (position 14 at most, for
/// a character that starts at 13 and ends at 16, inside the lanes' three
/// loads). The instantiations call it through
/// [`Utf8Simd::four_windows`].
///
/// # Safety
///
/// `out` is writable for `BYTES` units.
#[inline(always)]
pub(crate) unsafe fn four_windows<S: Utf8Simd, O: Out<S>>(
    s: S,
    (lo, hi): (Lane<S>, Lane<S>),
    out: *mut O::Unit,
    starts: u64,
    fours: u64,
) -> usize {
    // Into UTF-16, the trail surrogates' lanes are kept too.
    let trails = if O::PAIRS { fours << 1 } else { 0 };
    let a = (starts & 0x3FFF) | (trails & 0x7FFE);
    // SAFETY: each window writes at most 16 units, the second after the
    // first's at most 15.
    unsafe {
        let n = window::<S, O, true, true>(s, lo, hi, 0, out, a);
        if windows::<S>() == 1 {
            return n;
        }
        let b = ((starts >> 14) & 0x3FFF) | ((trails >> 14) & 0x7FFE);
        n + window::<S, O, true, true>(s, lo, hi, 14, out.add(n), b)
    }
}

/// `BYTES` ASCII bytes at `p` to as many units.
///
/// # Safety
///
/// `p` is readable for `BYTES` bytes; `out` is writable for `BYTES` units.
#[inline(always)]
unsafe fn ascii<S: Simd, O: Out<S>>(s: S, p: *const u8, out: *mut O::Unit) {
    // SAFETY: as the caller guarantees: two halves of `BYTES / 2`.
    unsafe {
        if O::ascii(s, p, out) {
            return;
        }
        let h = S::BYTES / 2;
        O::store(s, out, s.load_widen8to16(p));
        O::store(s, out.add(h), s.load_widen8to16(p.add(h)));
    }
}

/// `BYTES / 4` 4-byte characters (`BYTES` bytes, each 32-bit lane one
/// character) to twice as many UTF-16 units or as many UTF-32 units;
/// returns how many.
///
/// # Safety
///
/// `out` is writable for `BYTES / 2` units.
#[inline(always)]
unsafe fn four_byte<S: Utf8Simd, O: Out<S>>(s: S, v: S::V, out: *mut O::Unit) -> usize {
    // Lane bytes b0 b1 b2 b3 (memory order). Keep the payload bits, then
    // b0:b1 and b2:b3 as 12-bit pairs (pmaddubsw), then the 21-bit value
    // (pmaddwd).
    let bits = s.and(v, s.splat32(0x3F3F_3F07));
    let pairs = s.maddubs(bits, s.splat32(0x0140_0140));
    let value = s.madd(pairs, s.splat32(0x0001_1000));
    // SAFETY: as the caller guarantees.
    if let Some(n) = unsafe { O::store_values(s, out, value) } {
        return n;
    }
    // value - 0x10000 splits into 10 high and 10 low bits.
    let v = s.sub32(value, s.splat32(0x1_0000));
    let high = s.add32(s.shr32::<10>(v), s.splat32(0xD800));
    let low = s.or(s.and(v, s.splat32(0x3FF)), s.splat32(0xDC00));
    // Each lane: high unit first, then low.
    let units = s.or(high, s.shl32::<16>(low));
    // SAFETY: as the caller guarantees.
    unsafe { O::store(s, out, units) };
    S::BYTES / 2
}

/// `BYTES / 4` 3-byte characters (bytes `k..k + 3 BYTES / 4` of `v`, `k <=
/// 2`) to as many units.
///
/// # Safety
///
/// `out` is writable for 8 units.
#[inline(always)]
unsafe fn three_byte<S: Utf8Simd, O: Out<S>>(s: S, v: S::V, k: u32, out: *mut O::Unit) {
    // Each 32-bit lane: b1 b2 b0 of a character, as a 16-bit pair b1:b2
    // and b0 alone.
    let lanes = s.three_byte_lanes(v, k);
    let bits = s.and(lanes, s.splat32(0x000F_3F3F));
    let pairs = s.maddubs(bits, s.splat32(0x0001_0140));
    let value = s.madd(pairs, s.splat32(0x1000_0001));
    // SAFETY: as the caller guarantees (`BYTES / 4 <= 8` units).
    if unsafe { O::store_values(s, out, value) }.is_some() {
        return;
    }
    // Values below 0x10000 to units, in the first 128-bit lane (with
    // 16-byte registers, 4 units and 4 stray).
    let units = s.lane(s.narrow32to16(value, value), 0);
    // SAFETY: as the caller guarantees.
    unsafe { O::store8(s, out, units) }
}

/// The bytes from `shift + d` on, for `d` in 0..3, out of `lo` (bytes
/// 0..16) and `hi` (16..32), `shift` 0, 14 or 15 (`sse`: the 16-byte
/// token; past byte 32, zeros).
#[inline(always)]
fn shifted<S: Simd>(sse: S, lo: S::V, hi: S::V, shift: usize) -> [S::V; 4] {
    let z = sse.zero();
    match shift {
        0 => [
            lo,
            sse.alignr8::<1>(hi, lo),
            sse.alignr8::<2>(hi, lo),
            sse.alignr8::<3>(hi, lo),
        ],
        14 => [
            sse.alignr8::<14>(hi, lo),
            sse.alignr8::<15>(hi, lo),
            hi,
            sse.alignr8::<1>(z, hi),
        ],
        _ => [
            sse.alignr8::<15>(hi, lo),
            hi,
            sse.alignr8::<1>(z, hi),
            sse.alignr8::<2>(z, hi),
        ],
    }
}

/// The window: the characters that start at positions `0..14` (and, with
/// `FOUR`, the trails at 1..15) of the 16 bytes from `shift` (0 or 14) of
/// `lo` and `hi`, to units; `keep` has the bits of the positions kept;
/// returns how many. Without `TWO` there is no 2-byte character.
///
/// # Safety
///
/// `out` is writable for 16 units.
#[inline(always)]
unsafe fn window<S: Utf8Simd, O: Out<S>, const TWO: bool, const FOUR: bool>(
    s: S,
    lo: Lane<S>,
    hi: Lane<S>,
    shift: usize,
    out: *mut O::Unit,
    keep: u64,
) -> usize {
    let [x0, x1, x2, x3] = shifted(s.base(), lo, hi, shift);
    let halves = 32 / S::BYTES;
    let lanes = S::BYTES / 16;
    let mut n = 0;
    for h in 0..halves {
        let b0 = s.widen8(x0, h);
        let six = s.splat16(0x3F);
        let c1 = s.and(s.widen8(x1, h), six);
        let c2 = s.and(s.widen8(x2, h), six);
        // 3-byte: b0's low 4 bits (the shift drops the rest), c1, c2.
        let three = s.or(s.or(s.shl16::<12>(b0), s.shl16::<6>(c1)), c2);
        let is3 = s.gt_i16(b0, s.splat16(0xDF));
        let is2 = s.gt_i16(b0, s.splat16(0xBF));
        let units = if TWO {
            // 2-byte: b0's low 5 bits and c1; the mask drops the rest.
            let two = s.and(s.or(s.shl16::<6>(b0), c1), s.splat16(0x7FF));
            s.blendv8(s.blendv8(b0, two, is2), three, is3)
        } else {
            s.blendv8(b0, three, is3)
        };
        // Into UTF-32, a 4-byte character's value above its low 16 bits
        // (`high`, zero elsewhere).
        let mut high = s.zero();
        let units = if FOUR && !O::PAIRS {
            // The value `(b0 & 7) << 18 | c1 << 12 | c2 << 6 | c3` in the
            // lead's lane.
            let is4 = s.gt_i16(b0, s.splat16(0xEF));
            let c3 = s.and(s.widen8(x3, h), six);
            let low = s.or(s.or(s.shl16::<12>(c1), s.shl16::<6>(c2)), c3);
            high = s.and(
                s.or(s.shl16::<2>(s.and(b0, s.splat16(7))), s.shr16::<4>(c1)),
                is4,
            );
            s.blendv8(units, low, is4)
        } else if FOUR {
            // A 4-byte character's lead surrogate in its lead's lane, `D800
            // + ((b0 & 7) << 8 | c1 << 2 | c2 >> 4) - 40` (`(c - 10000) >>
            // 10` of its value `c`), and its trail in every continuation
            // byte's lane, of which the one after the lead is kept (its own
            // bytes 1 and 2 are the character's 3 and 4): `DC00 | (c1 & F)
            // << 6 | c2` there.
            let is4 = s.gt_i16(b0, s.splat16(0xEF));
            let lead = s.add16(
                s.or(
                    s.shl16::<8>(s.and(b0, s.splat16(7))),
                    s.or(s.shl16::<2>(c1), s.shr16::<4>(c2)),
                ),
                s.splat16(0xD7C0),
            );
            let trail = s.or(
                s.or(s.shl16::<6>(s.and(c1, s.splat16(0xF))), c2),
                s.splat16(0xDC00),
            );
            let cont = s.andnot(is2, s.gt_i16(b0, s.splat16(0x7F)));
            s.blendv8(s.blendv8(units, trail, cont), lead, is4)
        } else {
            units
        };
        let wide = FOUR && !O::PAIRS;
        // SAFETY: `n <= 16 - 8 * lanes` here (each lane keeps at most 8),
        // so its stores stay inside the 16 units guaranteed.
        n += unsafe {
            pack_store::<S, O>(
                s,
                units,
                wide.then_some(high),
                keep >> (8 * lanes * h),
                out.add(n),
            )
        };
    }
    n
}

/// Left-packs the kept lanes of `units` (bit `8k + i` of `keep`: lane `k`'s
/// unit `i`) through [`PACK16`] and stores them at `out`, with `high`'s
/// beside them into UTF-32; returns how many. The look-ups and shuffles
/// all come before the stores: on AVX2, store-first order cost 4% on
/// 3-byte text with spaces (Hindi, Korean).
///
/// # Safety
///
/// `out` is writable for `8 * (BYTES / 16)` units.
#[inline(always)]
unsafe fn pack_store<S: Utf8Simd, O: Out<S>>(
    s: S,
    units: S::V,
    high: Option<S::V>,
    keep: u64,
    out: *mut O::Unit,
) -> usize {
    let sse = s.base();
    let lanes = S::BYTES / 16;
    let mut idx = [0usize; 2];
    let mut packed = [sse.zero(); 2];
    let mut packed_high = [sse.zero(); 2];
    for k in 0..lanes {
        idx[k] = ((keep >> (8 * k)) & 0xFF) as usize;
        // SAFETY: `idx[k]` is below 256, PACK16's length.
        let pack = unsafe { sse.load(PACK16.as_ptr().add(idx[k]).cast()) };
        packed[k] = sse.shuffle8(s.lane(units, k), pack);
        if let Some(high) = high {
            packed_high[k] = sse.shuffle8(s.lane(high, k), pack);
        }
    }
    // The offsets before the stores, as the shuffles.
    let mut at = [0usize; 2];
    let mut n = 0;
    for k in 0..lanes {
        at[k] = n;
        n += idx[k].count_ones() as usize;
    }
    for k in 0..lanes {
        // SAFETY: `at[k] <= 8 * k` before this store of 8 units, inside the
        // `8 * lanes` guaranteed.
        unsafe {
            if high.is_some() {
                O::store8_wide(s, out.add(at[k]), packed[k], packed_high[k]);
            } else {
                O::store8(s, out.add(at[k]), packed[k]);
            }
        }
    }
    n
}

/// A short window: the characters that start at positions `0..15` of the
/// 16 bytes from `shift` (0 or 15) of `lo` and `hi`, all of 1 or 2 bytes
/// (`keep` has the bits of the starts), to units; returns how many.
///
/// # Safety
///
/// `out` is writable for 16 units.
#[inline(always)]
unsafe fn short_window<S: Utf8Simd, O: Out<S>>(
    s: S,
    lo: Lane<S>,
    hi: Lane<S>,
    shift: usize,
    out: *mut O::Unit,
    keep: u64,
) -> usize {
    let [x0, x1, ..] = shifted(s.base(), lo, hi, shift);
    let halves = 32 / S::BYTES;
    let lanes = S::BYTES / 16;
    let mut n = 0;
    for h in 0..halves {
        let b0 = s.widen8(x0, h);
        let c1 = s.and(s.widen8(x1, h), s.splat16(0x3F));
        let two = s.and(s.or(s.shl16::<6>(b0), c1), s.splat16(0x7FF));
        let is2 = s.gt_i16(b0, s.splat16(0xBF));
        let units = s.blendv8(b0, two, is2);
        // SAFETY: as in `window`.
        n += unsafe { pack_store::<S, O>(s, units, None, keep >> (8 * lanes * h), out.add(n)) };
    }
    n
}

/// The ASCII prefix of `src` (any bytes) to units, `2 BYTES` bytes at a
/// time, then `BYTES`: stops at the first block with a byte above 0x7F, or
/// near the end, and writes exactly what it converts.
///
/// # Safety
///
/// `dst` is valid for writes of `cap` units (at any alignment).
#[inline(always)]
pub(crate) unsafe fn ascii_prefix<S: Simd, O: Out<S>>(
    s: S,
    src: &[u8],
    dst: *mut O::Unit,
    cap: usize,
) -> (usize, usize) {
    let b = S::BYTES;
    let (len, p8) = (src.len(), src.as_ptr());
    let mut p = 0;
    while p + 2 * b <= len && p + 2 * b <= cap {
        // SAFETY: `p + 2B <= len` bytes read, `p + 2B <= cap` units written.
        unsafe {
            let (x, y) = (s.load(p8.add(p)), s.load(p8.add(p + b)));
            if s.movemask8(s.or(x, y)) != 0 {
                break;
            }
            ascii::<S, O>(s, p8.add(p), dst.add(p));
            ascii::<S, O>(s, p8.add(p + b), dst.add(p + b));
        }
        p += 2 * b;
    }
    while p + b <= len && p + b <= cap {
        // SAFETY: as above, for `B`.
        unsafe {
            if s.movemask8(s.load(p8.add(p))) != 0 {
                break;
            }
            ascii::<S, O>(s, p8.add(p), dst.add(p));
        }
        p += b;
    }
    (p, p)
}

/// The table entries of one token: `kernels!(arch::Token, level)`; with
/// `; no ascii_to_utf16`, all but that one (for a table that has an ASCII
/// prefix of its own).
macro_rules! kernels {
    ($arch:ident :: $token:ident, $level:ident) => {
        $crate::arch::generic::utf8_utf16::kernels!($arch::$token, $level; no ascii_to_utf16);

        codec_arch::enable! { $level;
            /// The ASCII prefix of any bytes to native UTF-16: the table entry.
            pub(crate) fn ascii_to_utf16(src: &[u8], dst: &mut [u16]) -> (usize, usize) {
                use $crate::arch::generic::utf8_utf16::{ascii_prefix, Utf16Out};
                // SAFETY: `dst` is valid for `dst.len()` units.
                unsafe {
                    ascii_prefix::<_, Utf16Out<false>>(
                        codec_arch::$arch::$token::new(),
                        src,
                        dst.as_mut_ptr(),
                        dst.len(),
                    )
                }
            }
        }
    };
    ($arch:ident :: $token:ident, $level:ident; no ascii_to_utf16) => {
        codec_arch::enable! { $level;
            /// Valid UTF-8 to native UTF-16: the table entry.
            pub(crate) fn utf8_to_utf16(src: &[u8], dst: &mut [u16]) -> (usize, usize) {
                use $crate::arch::generic::utf8_utf16::{convert, Utf16Out};
                // SAFETY: `dst` is valid for `dst.len()` units.
                unsafe {
                    convert::<_, Utf16Out<false>>(
                        codec_arch::$arch::$token::new(),
                        src,
                        dst.as_mut_ptr(),
                        dst.len(),
                    )
                }
            }
        }

        codec_arch::enable! { $level;
            /// Valid UTF-8 to UTF-16 in bytes, swapped if `SWAP`: the table
            /// entry.
            pub(crate) fn utf8_to_utf16_bytes<const SWAP: bool>(
                src: &[u8],
                dst: &mut [[u8; 2]],
            ) -> (usize, usize) {
                use $crate::arch::generic::utf8_utf16::{convert, Utf16Out};
                // SAFETY: `dst` is valid for `dst.len()` pairs of bytes, which
                // `convert` writes with unaligned stores only, as `u16`s.
                unsafe {
                    convert::<_, Utf16Out<SWAP>>(
                        codec_arch::$arch::$token::new(),
                        src,
                        dst.as_mut_ptr().cast(),
                        dst.len(),
                    )
                }
            }
        }

        codec_arch::enable! { $level;
            /// The ASCII prefix of any bytes to UTF-16 in bytes, swapped if
            /// `SWAP`: the table entry.
            pub(crate) fn ascii_to_utf16_bytes<const SWAP: bool>(
                src: &[u8],
                dst: &mut [[u8; 2]],
            ) -> (usize, usize) {
                use $crate::arch::generic::utf8_utf16::{ascii_prefix, Utf16Out};
                // SAFETY: as above; unaligned stores only.
                unsafe {
                    ascii_prefix::<_, Utf16Out<SWAP>>(
                        codec_arch::$arch::$token::new(),
                        src,
                        dst.as_mut_ptr().cast(),
                        dst.len(),
                    )
                }
            }
        }
    };
}
pub(crate) use kernels;
