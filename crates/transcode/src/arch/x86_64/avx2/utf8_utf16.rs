//! AVX2: valid UTF-8 → UTF-16 (native, or byte-swapped: [`Utf16Out`]) and
//! → UTF-32 ([`Utf32Out`]): one kernel, generic over its output ([`Out`]).
//!
//! UTF-32 output is the UTF-16 kernel's units zero-extended before they are
//! stored (every path but 4-byte characters makes one unit per character),
//! and its 4-byte path stores the characters' values. The UTF-8 → UTF-32
//! kernel written for every width (`x86_64::utf32`) decodes a window of 16
//! bytes into 32-bit lanes and packs them, half as many characters a
//! register as this kernel's 16-bit lanes: on Hindi text, 582,000
//! instructions a call (callgrind, 64 KiB) against 270,000 for this
//! kernel's UTF-16.
//!
//! The input has been validated (by utf8-simd) or is a `&str`, so the
//! kernel only decodes; on invalid bytes it would write wrong units, never
//! out of bounds. Each step looks at the 32 bytes at the current position
//! and takes the first path that applies:
//!
//! 1. ASCII: all 32 bytes below 0x80 → widened to 32 units.
//! 2. All 4-byte characters, starting at the position (Emoji text) → 8
//!    characters decoded in 32-bit lanes and written as 16 surrogate units.
//! 3. All 3-byte characters for 24 bytes from the first character start
//!    (CJK text) → 8 characters from two 12-byte halves, decoded in 32-bit
//!    lanes. After such a step the loop stays on this path for as long as
//!    the next 25 bytes start characters exactly every 3 bytes, the one
//!    test it needs on valid input. Going through `step` every 24 bytes
//!    instead ran Chinese lipsum at 4.6 GB/s from `&str` (3.4 GB/s
//!    validating); the run makes it 18 GB/s (9.6 validating), AMD EPYC
//!    Zen 4, 64 KiB.
//! 4. No 4-byte character among the first 30 bytes → two *windows* (or,
//!    with one in bytes 16..30, one window). A window: a
//!    character is decoded in a 16-bit lane at each of 16 byte positions
//!    (from three overlapping loads, the bytes at `p`, `p + 1`, `p + 2`),
//!    and the lanes of the positions 0..14 where a character starts are
//!    left-packed with [`PACK16`] (two 8-lane halves) and stored. The
//!    window always advances 14 bytes: a character that starts at 13 still
//!    ends inside the 16 loaded bytes, and the next window skips the
//!    continuation bytes it starts on. No step depends on the one before,
//!    except through the output position.
//!    Without 3-byte characters either, the windows are *short*: 15
//!    positions each (a 2-byte character that starts at 14 ends at 15), and
//!    only the 1- and 2-byte forms are computed.
//! 5. Otherwise (a 4-byte character among others), into UTF-16: two
//!    windows in which a 4-byte character makes its lead surrogate in its
//!    lead byte's lane and its trail surrogate in the next byte's lane
//!    (whose own second and third bytes are the character's last two), so
//!    that both lanes are packed as character starts. Text with an emoji
//!    every 8 characters went at 0.35-0.94 GB/s through the scalar decoder
//!    here, 0.17-0.32 times simdutf's AVX2 kernel (Zen 4, 64 KiB).
//!    Into UTF-32, where such a character is one unit, the same windows
//!    make its value in its lead's lane: the low 16 bits in the lane, the
//!    bits above in a second register packed alike, and the two
//!    interleaved into 32-bit units when stored (`Out::store8_wide`);
//!    before, a window without a 4-byte lead or the scalar decoder for 16
//!    bytes (text with an emoji every 8 characters: 0.33-0.47 times
//!    simdutf's AVX2 kernel).
//!
//! Stores are 16 bytes wide and may write lanes past the characters of the
//! step. The main loop only runs while the output has room for 32 more
//! units and at least 48 input bytes remain after the step, which (valid
//! UTF-8 has at most 3 bytes per unit) guarantees at least 16 more units of
//! output: every stray lane is overwritten before the conversion ends.
//! Near the end, windows go through a scratch buffer and only their real
//! units are copied; the last bytes are left to the scalar code.
//!
//! Dead ends and measurements are in `docs/results/transcode.md`.

use super::super::tables::PACK16;
use core::arch::x86_64::*;

/// What the kernel writes: how 16-bit units (and, on the 4-byte path,
/// characters' values) are stored. The implementations are [`Utf16Out`]
/// and [`Utf32Out`].
pub(crate) trait Out {
    /// The output unit.
    type Unit: Copy + Default;

    /// Whether a 4-byte character is two units (UTF-16), which a window
    /// can make in two of its 16-bit lanes.
    const PAIRS: bool;

    /// Stores the 8 units of `v` (16-bit lanes).
    ///
    /// # Safety
    ///
    /// AVX2; `out` is writable for 8 units.
    unsafe fn store8(out: *mut Self::Unit, v: __m128i);

    /// Stores the 16 units of `v` (16-bit lanes).
    ///
    /// # Safety
    ///
    /// AVX2; `out` is writable for 16 units.
    unsafe fn store16(out: *mut Self::Unit, v: __m256i);

    /// Stores 8 characters' values from their low 16 bits (`low`) and the
    /// bits above (`high`), for the windows with 4-byte characters into
    /// UTF-32 (where `PAIRS` is false; UTF-16 stores `low`, which is all
    /// of a value below U+10000).
    ///
    /// # Safety
    ///
    /// AVX2; `out` is writable for 8 units.
    unsafe fn store8_wide(out: *mut Self::Unit, low: __m128i, high: __m128i);

    /// Stores 8 characters' values (`v`, 32-bit lanes) as they are, if
    /// this output holds values (UTF-32): returns the units written, or
    /// `None` to let the caller make UTF-16 units of them.
    ///
    /// # Safety
    ///
    /// AVX2; `out` is writable for 8 units.
    unsafe fn store_values8(out: *mut Self::Unit, v: __m256i) -> Option<usize>;

    /// Stores the 32 ASCII bytes at `s` as 32 units if this output has a
    /// way of its own (UTF-32: zero-extended 8 bytes at a time from memory,
    /// where widening the 16-bit units took two more shuffles a store);
    /// returns whether it did.
    ///
    /// # Safety
    ///
    /// AVX2; `s` is readable for 32 bytes; `out` is writable for 32 units.
    unsafe fn ascii32(s: *const u8, out: *mut Self::Unit) -> bool;
}

/// UTF-16 output, native order or (`SWAP`) byte-swapped.
pub(crate) struct Utf16Out<const SWAP: bool>;

impl<const SWAP: bool> Out for Utf16Out<SWAP> {
    type Unit = u16;
    const PAIRS: bool = true;

    #[inline(always)]
    unsafe fn store8(out: *mut u16, v: __m128i) {
        // SAFETY: the caller has the CPU features and guarantees the
        // writes (the trait's `# Safety` sections).
        unsafe {
            let v = if SWAP {
                _mm_shuffle_epi8(
                    v,
                    _mm_setr_epi8(1, 0, 3, 2, 5, 4, 7, 6, 9, 8, 11, 10, 13, 12, 15, 14),
                )
            } else {
                v
            };
            _mm_storeu_si128(out.cast(), v)
        }
    }

    #[inline(always)]
    unsafe fn store16(out: *mut u16, v: __m256i) {
        // SAFETY: as in `store8`.
        unsafe {
            let v = if SWAP {
                #[rustfmt::skip]
                let swap = _mm256_setr_epi8(
                    1, 0, 3, 2, 5, 4, 7, 6, 9, 8, 11, 10, 13, 12, 15, 14,
                    1, 0, 3, 2, 5, 4, 7, 6, 9, 8, 11, 10, 13, 12, 15, 14,
                );
                _mm256_shuffle_epi8(v, swap)
            } else {
                v
            };
            _mm256_storeu_si256(out.cast(), v)
        }
    }

    #[inline(always)]
    unsafe fn store8_wide(out: *mut u16, low: __m128i, _: __m128i) {
        // SAFETY: as in `store8`.
        unsafe { Self::store8(out, low) }
    }

    #[inline(always)]
    unsafe fn store_values8(_: *mut u16, _: __m256i) -> Option<usize> {
        None
    }

    #[inline(always)]
    unsafe fn ascii32(_: *const u8, _: *mut u16) -> bool {
        false
    }
}

/// UTF-32 output: units zero-extended, values stored as they are.
pub(crate) struct Utf32Out;

impl Out for Utf32Out {
    type Unit = u32;
    const PAIRS: bool = false;

    #[inline(always)]
    unsafe fn store8(out: *mut u32, v: __m128i) {
        // SAFETY: as in `Utf16Out::store8`.
        unsafe { _mm256_storeu_si256(out.cast(), _mm256_cvtepu16_epi32(v)) }
    }

    #[inline(always)]
    unsafe fn store16(out: *mut u32, v: __m256i) {
        // SAFETY: as in `Utf16Out::store8`; 8 units and 8 more.
        unsafe {
            Self::store8(out, _mm256_castsi256_si128(v));
            Self::store8(out.add(8), _mm256_extracti128_si256::<1>(v));
        }
    }

    #[inline(always)]
    unsafe fn store8_wide(out: *mut u32, low: __m128i, high: __m128i) {
        // SAFETY: as in `Utf16Out::store8`; units 0..4 and 4..8.
        unsafe {
            _mm_storeu_si128(out.cast(), _mm_unpacklo_epi16(low, high));
            _mm_storeu_si128(out.add(4).cast(), _mm_unpackhi_epi16(low, high));
        }
    }

    #[inline(always)]
    unsafe fn store_values8(out: *mut u32, v: __m256i) -> Option<usize> {
        // SAFETY: as in `Utf16Out::store8`.
        unsafe { _mm256_storeu_si256(out.cast(), v) };
        Some(8)
    }

    #[inline(always)]
    unsafe fn ascii32(s: *const u8, out: *mut u32) -> bool {
        // SAFETY: as in `Utf16Out::store8`: bytes `8k..8k + 8` of the 32,
        // units `8k..8k + 8` of the 32.
        unsafe {
            for k in 0..4 {
                let x = _mm_loadl_epi64(s.add(8 * k).cast());
                _mm256_storeu_si256(out.add(8 * k).cast(), _mm256_cvtepu8_epi32(x));
            }
        }
        true
    }
}

codec_arch::enable! { avx2;
    /// See the module docs. `dst` is written with unaligned stores.
    ///
    /// # Safety
    ///
    /// The CPU has AVX2, BMI1, BMI2 and POPCNT, and `dst` is valid for writes
    /// of `cap` units (at any alignment).
    pub(crate) unsafe fn convert<O: Out>(src: &[u8], dst: *mut O::Unit, cap: usize) -> (usize, usize) {
        let len = src.len();
        let s = src.as_ptr();
        let (mut p, mut o) = (0usize, 0usize);
        // The main loop: direct stores (see the module docs for the bounds).
        while p + 32 + 48 <= len && o + 32 <= cap {
            // SAFETY: `p + 32 <= len`; the stores write at most 32 units at
            // `o`, and `o + 32 <= cap`. (Every step reads at least a byte, so
            // the loop ends.)
            let (r, w) = unsafe { step::<O>(s.add(p), dst.add(o)) };
            p += r;
            o += w;
            if r == 32 && w == 32 {
                // ASCII: more of it is likely; 64 bytes at a time.
                while p + 64 + 48 <= len && o + 64 <= cap {
                    // SAFETY: `p + 64 <= len`.
                    let (a, b) = unsafe {
                        (
                            _mm256_loadu_si256(s.add(p).cast()),
                            _mm256_loadu_si256(s.add(p + 32).cast()),
                        )
                    };
                    if _mm256_movemask_epi8(_mm256_or_si256(a, b)) != 0 {
                        break;
                    }
                    // SAFETY: `o + 64 <= cap`.
                    unsafe {
                        ascii::<O>(a, s.add(p), dst.add(o));
                        ascii::<O>(b, s.add(p + 32), dst.add(o + 32));
                    }
                    p += 64;
                    o += 64;
                }
            } else if w == 8 && (24..=26).contains(&r) {
                // Eight 3-byte characters (only `three_byte` reads 24..=26
                // bytes): CJK text, where runs of them average 170 characters
                // (Chinese lipsum) or 33 (Japanese). Stay on that path while the
                // next 25 bytes start characters at 0, 3, ..., 24 and nowhere
                // else: in valid UTF-8 that makes bytes 0..24 eight 3-byte
                // characters (the start at 24 ends the eighth), so the test
                // needs neither the ASCII nor the lead-byte masks of `step`.
                while p + 32 + 48 <= len && o + 32 <= cap {
                    // SAFETY: `p + 32 <= len`; `three_byte` writes 8 units at
                    // `o`, and `o + 32 <= cap`.
                    unsafe {
                        let v = _mm256_loadu_si256(s.add(p).cast());
                        let starts =
                            _mm256_movemask_epi8(_mm256_cmpgt_epi8(v, _mm256_set1_epi8(-65))) as u32;
                        if starts & 0x01FF_FFFF != 0x0124_9249 {
                            break;
                        }
                        three_byte::<O>(v, 0, dst.add(o));
                    }
                    p += 24;
                    o += 8;
                }
            }
        }
        // Near the end: through a scratch buffer.
        let mut scratch = [O::Unit::default(); 32];
        while p + 32 <= len {
            // SAFETY: `p + 32 <= len`, and `scratch` holds 32 units.
            let (r, w) = unsafe { step::<O>(s.add(p), scratch.as_mut_ptr()) };
            if o + w > cap {
                break;
            }
            // SAFETY: `w <= 32` units of `scratch` to `dst[o..o + w]`, inside
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
}

/// One step at `s`, writing to `out`: returns `(bytes read, units
/// written)`; it reads at least one byte.
///
/// # Safety
///
/// AVX2 and POPCNT; `s` is readable for 32 bytes, `out` writable for 32
/// units.
#[inline(always)]
unsafe fn step<O: Out>(s: *const u8, out: *mut O::Unit) -> (usize, usize) {
    // SAFETY: the caller has the CPU features and guarantees the reads
    // and writes this function makes (its `# Safety` section).
    unsafe {
        let v = _mm256_loadu_si256(s.cast());
        let non_ascii = _mm256_movemask_epi8(v) as u32;
        if non_ascii == 0 {
            ascii::<O>(v, s, out);
            return (32, 32);
        }
        // A byte is a character start unless it is a continuation (80..BF,
        // which as i8 is below -64); a 4-byte lead is F0..FF (unsigned).
        let starts = _mm256_movemask_epi8(_mm256_cmpgt_epi8(v, _mm256_set1_epi8(-65))) as u32;
        let f0 = _mm256_set1_epi8(0xF0u8 as i8);
        let fours = _mm256_movemask_epi8(_mm256_cmpeq_epi8(_mm256_max_epu8(v, f0), v)) as u32;
        if fours & 0x3FFF_FFFF == 0 {
            let e0 = _mm256_set1_epi8(0xE0u8 as i8);
            let threes = _mm256_movemask_epi8(_mm256_cmpeq_epi8(_mm256_max_epu8(v, e0), v)) as u32;
            let (lo, hi) = (_mm256_castsi256_si128(v), _mm256_extracti128_si256::<1>(v));
            if threes & 0x7FFF_FFFF == 0 {
                // Characters of 1 and 2 bytes only: two short windows, of
                // the characters that start at 0..15 and at 15..30.
                let n = short_window::<O, 0>(lo, hi, out, starts & 0x7FFF);
                let m = short_window::<O, 15>(lo, hi, out.add(n), (starts >> 15) & 0x7FFF);
                return (30, n + m);
            }
            // Eight 3-byte characters from the first start (at most 2
            // continuation bytes in: a window may have stopped there).
            let k = starts.trailing_zeros().min(3);
            if k <= 2 && (starts >> k) & 0x00FF_FFFF == 0x0024_9249 {
                three_byte::<O>(v, k, out);
                return (24 + k as usize, 8);
            }
            // Two windows: the characters that start at 0..14 and at 14..28;
            // without 2-byte characters (leads C0..DF), without their form.
            let twos = starts & non_ascii & !threes;
            let (a, b) = (starts & 0x3FFF, (starts >> 14) & 0x3FFF);
            if twos & 0x0FFF_FFFF == 0 {
                let n = window::<O, 0, false, false>(lo, hi, out, a);
                let m = window::<O, 14, false, false>(lo, hi, out.add(n), b);
                return (28, n + m);
            }
            let n = window::<O, 0, true, false>(lo, hi, out, a);
            let m = window::<O, 14, true, false>(lo, hi, out.add(n), b);
            return (28, n + m);
        }
        if fours == 0x1111_1111 && starts == 0x1111_1111 {
            return (32, four_byte::<O>(v, out));
        }
        let k = starts.trailing_zeros();
        if (1..=3).contains(&k) && (fours >> k) & 0x0111_1111 == 0x0111_1111 {
            // 4-byte characters only, from byte `k` (1 to 3: a window
            // stopped inside one): step over the continuation bytes, so
            // that the next step takes path 2. (Windows advance 28 bytes, 7
            // such characters, and never got back to it: the Emoji text
            // went at 4.7 GB/s instead of 8.6.)
            return (k as usize, 0);
        }
        let (lo, hi) = (_mm256_castsi256_si128(v), _mm256_extracti128_si256::<1>(v));
        (28, four_windows::<O>(lo, hi, out, starts, fours))
    }
}

codec_arch::enable! { avx2;
    /// Two windows with 4-byte characters (path 5; `starts` and `fours`: the
    /// step's masks), returning the units written: each character's
    /// surrogates at its lead and at the byte after (position 14 at most, for
    /// a character that starts at 13 and ends at 16, inside the lanes' three
    /// loads). Out of line, so that `step` stays as small as before on text
    /// without 4-byte characters.
    ///
    /// # Safety
    ///
    /// AVX2; `out` is writable for 32 units.
    #[inline(never)]
    unsafe fn four_windows<O: Out>(
        lo: __m128i,
        hi: __m128i,
        out: *mut O::Unit,
        starts: u32,
        fours: u32,
    ) -> usize {
        // Into UTF-16, the trail surrogates' lanes are kept too.
        let trails = if O::PAIRS { fours << 1 } else { 0 };
        let a = (starts & 0x3FFF) | (trails & 0x7FFE);
        let b = ((starts >> 14) & 0x3FFF) | ((trails >> 14) & 0x7FFE);
        // SAFETY: each window writes at most 16 units, the second after the
        // first's at most 15.
        unsafe {
            let n = window::<O, 0, true, true>(lo, hi, out, a);
            n + window::<O, 14, true, true>(lo, hi, out.add(n), b)
        }
    }
}

/// 32 ASCII bytes (`v`, loaded from `s`) to 32 units.
///
/// # Safety
///
/// AVX2; `s` is readable for 32 bytes; `out` is writable for 32 units.
#[inline(always)]
unsafe fn ascii<O: Out>(v: __m256i, s: *const u8, out: *mut O::Unit) {
    // SAFETY: the caller has the CPU features and guarantees the reads
    // and writes this function makes (its `# Safety` section).
    unsafe {
        if O::ascii32(s, out) {
            return;
        }
        let lo = _mm256_cvtepu8_epi16(_mm256_castsi256_si128(v));
        let hi = _mm256_cvtepu8_epi16(_mm256_extracti128_si256::<1>(v));

        O::store16(out, lo);
        O::store16(out.add(16), hi);
    }
}

/// Eight 4-byte characters (32 bytes, each 32-bit lane one character) to
/// 16 UTF-16 units or 8 UTF-32 units; returns how many.
///
/// # Safety
///
/// AVX2; `out` is writable for 16 units.
#[inline(always)]
unsafe fn four_byte<O: Out>(v: __m256i, out: *mut O::Unit) -> usize {
    // SAFETY: the caller has the CPU features and guarantees the reads
    // and writes this function makes (its `# Safety` section).
    unsafe {
        // Lane bytes b0 b1 b2 b3 (memory order). Keep the payload bits, then
        // b0:b1 and b2:b3 as 12-bit pairs (pmaddubsw), then the 21-bit value
        // (pmaddwd).
        let bits = _mm256_and_si256(v, _mm256_set1_epi32(0x3F3F_3F07));
        let pairs = _mm256_maddubs_epi16(bits, _mm256_set1_epi32(0x0140_0140));
        let value = _mm256_madd_epi16(pairs, _mm256_set1_epi32(0x0001_1000));
        if let Some(n) = O::store_values8(out, value) {
            return n;
        }
        // value - 0x10000 splits into 10 high and 10 low bits.
        let v = _mm256_sub_epi32(value, _mm256_set1_epi32(0x1_0000));
        let high = _mm256_add_epi32(_mm256_srli_epi32::<10>(v), _mm256_set1_epi32(0xD800));
        let low = _mm256_or_si256(
            _mm256_and_si256(v, _mm256_set1_epi32(0x3FF)),
            _mm256_set1_epi32(0xDC00),
        );
        // Each lane: high unit first, then low.
        let units = _mm256_or_si256(high, _mm256_slli_epi32::<16>(low));
        O::store16(out, units);
        16
    }
}

/// Eight 3-byte characters (bytes `k..k + 24` of `v`, `k <= 2`) to 8
/// units.
///
/// # Safety
///
/// AVX2; `out` is writable for 8 units.
#[inline(always)]
unsafe fn three_byte<O: Out>(v: __m256i, k: u32, out: *mut O::Unit) {
    // SAFETY: the caller has the CPU features and guarantees the reads
    // and writes this function makes (its `# Safety` section).
    unsafe {
        // Bytes 0..12 stay in the low half; bytes 12..24 move to the high half.
        let v = _mm256_permutevar8x32_epi32(v, _mm256_setr_epi32(0, 1, 2, 3, 3, 4, 5, 6));
        // Each 32-bit lane k gets b1 b2 b0 0 of character k: a 16-bit pair
        // b1:b2 and b0 alone.
        #[rustfmt::skip]
        let order = _mm256_setr_epi8(
            1, 2, 0, -1, 4, 5, 3, -1, 7, 8, 6, -1, 10, 11, 9, -1,
            1, 2, 0, -1, 4, 5, 3, -1, 7, 8, 6, -1, 10, 11, 9, -1,
        );
        // Shifted by `k`; the 4th byte of each lane, which the mask below
        // clears, may then pick up a real byte.
        let order = _mm256_add_epi8(order, _mm256_set1_epi8(k as i8));
        let lanes = _mm256_shuffle_epi8(v, order);
        let bits = _mm256_and_si256(lanes, _mm256_set1_epi32(0x000F_3F3F));
        let pairs = _mm256_maddubs_epi16(bits, _mm256_set1_epi32(0x0001_0140));
        let value = _mm256_madd_epi16(pairs, _mm256_set1_epi32(0x1000_0001));
        if O::store_values8(out, value).is_some() {
            return;
        }
        // 8 values below 0x10000 to 8 units.
        let packed = _mm256_packus_epi32(value, value);
        let units = _mm256_permute4x64_epi64::<0b1000>(packed);
        O::store8(out, _mm256_castsi256_si128(units))
    }
}

/// The window: the characters that start at positions `0..14` of
/// `lo` (bytes 0..16), whose next bytes are in `hi` (bytes 16..32), none of
/// 4 bytes (`starts` has the bits of the starts), to units; returns how many.
/// `SHIFT` moves the window `SHIFT` bytes into the 32: 0 or 14.
///
/// # Safety
///
/// AVX2 and POPCNT; `out` is writable for 16 units.
#[inline(always)]
unsafe fn window<O: Out, const SHIFT: i32, const TWO: bool, const FOUR: bool>(
    lo: __m128i,
    hi: __m128i,
    out: *mut O::Unit,
    starts: u32,
) -> usize {
    // SAFETY: the caller has the features; the pointer arithmetic stays in
    // the 16 units it guarantees.
    unsafe {
        // Bytes SHIFT.., SHIFT + 1.. and SHIFT + 2.., as 16-bit lanes: from
        // the register pair, not overlapping loads (which LLVM turns into
        // scalar shifts).
        let (x0, x1, x2) = if SHIFT == 0 {
            (
                lo,
                _mm_alignr_epi8::<1>(hi, lo),
                _mm_alignr_epi8::<2>(hi, lo),
            )
        } else {
            (
                _mm_alignr_epi8::<14>(hi, lo),
                _mm_alignr_epi8::<15>(hi, lo),
                hi,
            )
        };
        let b0 = _mm256_cvtepu8_epi16(x0);
        let b1 = _mm256_cvtepu8_epi16(x1);
        let b2 = _mm256_cvtepu8_epi16(x2);
        let six = _mm256_set1_epi16(0x3F);
        let c1 = _mm256_and_si256(b1, six);
        let c2 = _mm256_and_si256(b2, six);
        // 3-byte: b0's low 4 bits (the shift drops the rest), c1, c2.
        let three = _mm256_or_si256(
            _mm256_or_si256(_mm256_slli_epi16::<12>(b0), _mm256_slli_epi16::<6>(c1)),
            c2,
        );
        let is3 = _mm256_cmpgt_epi16(b0, _mm256_set1_epi16(0xDF));
        let units = if TWO {
            // 2-byte: b0's low 5 bits and c1; the mask drops the rest.
            let two = _mm256_and_si256(
                _mm256_or_si256(_mm256_slli_epi16::<6>(b0), c1),
                _mm256_set1_epi16(0x7FF),
            );
            let is2 = _mm256_cmpgt_epi16(b0, _mm256_set1_epi16(0xBF));
            _mm256_blendv_epi8(_mm256_blendv_epi8(b0, two, is2), three, is3)
        } else {
            _mm256_blendv_epi8(b0, three, is3)
        };
        // Into UTF-32, a 4-byte character's value above its low 16 bits
        // (`high`, zero elsewhere).
        let mut high = _mm256_setzero_si256();
        let units = if FOUR && !O::PAIRS {
            // The value `(b0 & 7) << 18 | c1 << 12 | c2 << 6 | c3` in the
            // lead's lane, `c3` the next lane's `c2`.
            let is4 = _mm256_cmpgt_epi16(b0, _mm256_set1_epi16(0xEF));
            let c3 = _mm256_alignr_epi8::<2>(_mm256_permute2x128_si256::<0x81>(c2, c2), c2);
            let low = _mm256_or_si256(
                _mm256_or_si256(_mm256_slli_epi16::<12>(c1), _mm256_slli_epi16::<6>(c2)),
                c3,
            );
            high = _mm256_and_si256(
                _mm256_or_si256(
                    _mm256_slli_epi16::<2>(_mm256_and_si256(b0, _mm256_set1_epi16(7))),
                    _mm256_srli_epi16::<4>(c1),
                ),
                is4,
            );
            _mm256_blendv_epi8(units, low, is4)
        } else if FOUR {
            // A 4-byte character's lead surrogate in its lead's lane, `D800
            // + ((b0 & 7) << 8 | c1 << 2 | c2 >> 4) - 40` (`(c - 10000) >>
            // 10` of its value `c`), and its trail in the next lane, whose
            // own bytes 1 and 2 are the character's 3 and 4: `DC00 | (c1 &
            // F) << 6 | c2` there.
            let is4 = _mm256_cmpgt_epi16(b0, _mm256_set1_epi16(0xEF));
            let lead = _mm256_add_epi16(
                _mm256_or_si256(
                    _mm256_slli_epi16::<8>(_mm256_and_si256(b0, _mm256_set1_epi16(7))),
                    _mm256_or_si256(_mm256_slli_epi16::<2>(c1), _mm256_srli_epi16::<4>(c2)),
                ),
                _mm256_set1_epi16(0xD7C0u16 as i16),
            );
            let trail = _mm256_or_si256(
                _mm256_or_si256(
                    _mm256_slli_epi16::<6>(_mm256_and_si256(c1, _mm256_set1_epi16(0xF))),
                    c2,
                ),
                _mm256_set1_epi16(0xDC00u16 as i16),
            );
            // The lane after each lead: `is4` one lane on (lane 0: none,
            // no lead before the window is this window's).
            let after4 = _mm256_alignr_epi8::<14>(is4, _mm256_permute2x128_si256::<0x08>(is4, is4));
            _mm256_blendv_epi8(_mm256_blendv_epi8(units, lead, is4), trail, after4)
        } else {
            units
        };
        let (first, second) = ((starts & 0xFF) as usize, (starts >> 8) as usize);
        // `first` and `second` are below 256, PACK16's length.
        let p0 = _mm_loadu_si128(PACK16.as_ptr().add(first).cast());
        let p1 = _mm_loadu_si128(PACK16.as_ptr().add(second).cast());
        let a = _mm_shuffle_epi8(_mm256_castsi256_si128(units), p0);
        let b = _mm_shuffle_epi8(_mm256_extracti128_si256::<1>(units), p1);
        let n = first.count_ones() as usize;
        // Units 0..8 and n..n + 8, n <= 8: inside the 16 guaranteed.
        if FOUR && !O::PAIRS {
            let ha = _mm_shuffle_epi8(_mm256_castsi256_si128(high), p0);
            let hb = _mm_shuffle_epi8(_mm256_extracti128_si256::<1>(high), p1);
            O::store8_wide(out, a, ha);
            O::store8_wide(out.add(n), b, hb);
        } else {
            O::store8(out, a);
            O::store8(out.add(n), b);
        }
        n + second.count_ones() as usize
    }
}

codec_arch::enable! { avx2;
    /// The ASCII prefix of `src` (any bytes) to UTF-16, 64 bytes at a time,
    /// then 32: stops at the first block with a byte above 0x7F, or near the
    /// end, and writes exactly what it converts.
    ///
    /// # Safety
    ///
    /// AVX2; `dst` is valid for writes of `cap` units (at any alignment).
    pub(crate) unsafe fn ascii_prefix<O: Out>(
        src: &[u8],
        dst: *mut O::Unit,
        cap: usize,
    ) -> (usize, usize) {
        let (len, s) = (src.len(), src.as_ptr());
        let mut p = 0;
        while p + 64 <= len && p + 64 <= cap {
            // SAFETY: `p + 64 <= len` bytes read, `p + 64 <= cap` units written.
            unsafe {
                let (a, b) = (
                    _mm256_loadu_si256(s.add(p).cast()),
                    _mm256_loadu_si256(s.add(p + 32).cast()),
                );
                if _mm256_movemask_epi8(_mm256_or_si256(a, b)) != 0 {
                    break;
                }
                ascii::<O>(a, s.add(p), dst.add(p));
                ascii::<O>(b, s.add(p + 32), dst.add(p + 32));
            }
            p += 64;
        }
        while p + 32 <= len && p + 32 <= cap {
            // SAFETY: as above, for 32.
            unsafe {
                let a = _mm256_loadu_si256(s.add(p).cast());
                if _mm256_movemask_epi8(a) != 0 {
                    break;
                }
                ascii::<O>(a, s.add(p), dst.add(p));
            }
            p += 32;
        }
        (p, p)
    }
}

/// A short window: the characters that start at positions `0..15` of the
/// 16 bytes from `SHIFT` (0 or 15) of `lo` and `hi` (bytes 0..16 and
/// 16..32), all of 1 or 2 bytes (`starts` has the bits of the starts), to
/// units; returns how many.
///
/// # Safety
///
/// AVX2 and POPCNT; `out` is writable for 16 units.
#[inline(always)]
unsafe fn short_window<O: Out, const SHIFT: i32>(
    lo: __m128i,
    hi: __m128i,
    out: *mut O::Unit,
    starts: u32,
) -> usize {
    // SAFETY: the caller has the features; the pointer arithmetic stays in
    // the 16 units it guarantees.
    unsafe {
        let (x0, x1) = if SHIFT == 0 {
            (lo, _mm_alignr_epi8::<1>(hi, lo))
        } else {
            (_mm_alignr_epi8::<15>(hi, lo), hi)
        };
        let b0 = _mm256_cvtepu8_epi16(x0);
        let c1 = _mm256_and_si256(_mm256_cvtepu8_epi16(x1), _mm256_set1_epi16(0x3F));
        let two = _mm256_and_si256(
            _mm256_or_si256(_mm256_slli_epi16::<6>(b0), c1),
            _mm256_set1_epi16(0x7FF),
        );
        let is2 = _mm256_cmpgt_epi16(b0, _mm256_set1_epi16(0xBF));
        let units = _mm256_blendv_epi8(b0, two, is2);
        let (first, second) = ((starts & 0xFF) as usize, (starts >> 8) as usize);
        // Both below 256, PACK16's length.
        let p0 = _mm_loadu_si128(PACK16.as_ptr().add(first).cast());
        let p1 = _mm_loadu_si128(PACK16.as_ptr().add(second).cast());
        let a = _mm_shuffle_epi8(_mm256_castsi256_si128(units), p0);
        let b = _mm_shuffle_epi8(_mm256_extracti128_si256::<1>(units), p1);
        let n = first.count_ones() as usize;
        O::store8(out, a);
        O::store8(out.add(n), b);
        n + second.count_ones() as usize
    }
}
