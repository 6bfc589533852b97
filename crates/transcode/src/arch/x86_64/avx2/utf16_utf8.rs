//! AVX2: UTF-16 (native, or byte-swapped with `SWAP`) → UTF-8, validating.
//!
//! Each step takes a block of 16 units (one register) and the first path
//! that applies:
//!
//! 1. ASCII (all units below 0x80): packed to 16 bytes.
//! 2. Surrogate pairs only, lead first (Emoji text): 8 characters of 4
//!    bytes, each computed in the 32-bit lane that holds its pair.
//! 3. No surrogate, all below U+0800: each unit as a lead and a
//!    continuation byte in its 16-bit lane, packed 8 units at a time with
//!    [`PACK12`] (the continuation byte is dropped for ASCII units).
//! 4. No surrogate: each unit as up to 3 bytes in a 32-bit lane, packed 4
//!    units at a time with [`PACK123`]. Surrogates all in pairs (a lead in
//!    the last unit aside, left to the next block): path 4 too, each unit
//!    of a pair making 2 of the character's 4 bytes in its own lane
//!    ([`one_two_three_pairs`]).
//! 5. Anything else (an unpaired surrogate): the units one by one, as the
//!    scalar decoder does, stopping before the unpaired surrogate; the
//!    scalar code of `crate::drive` then reports it.
//!
//! Paths 3 and 4 store 16 bytes per 8 or 4 units, past the bytes those
//! units need. Such a block is stored in place only if the next block
//! converts whole too ([`whole`]: no surrogate, or all in pairs and no lead
//! at the end) and the output has room for both: its 16 units will make at
//! least 16 bytes, which overwrite every stray byte before the conversion
//! can stop. Otherwise the block goes through a scratch buffer and only its
//! bytes are copied, as do the blocks near the end.
//!
//! The in-place loop checks each block once: the next block, once checked,
//! is the current block of the next round. Two ASCII blocks in a row are
//! packed together; any other block takes path 3 or 4 without a branch for
//! path 1 (see [`mixed`]: on text with ASCII and non-ASCII blocks at random
//! that branch was mispredicted about as often as taken). The last units,
//! fewer than 16, are converted as the last 16 units of the input, which
//! overlap what is done ([`tail`]), instead of one at a time by the scalar
//! code.

use super::super::tables::{LEN123, PACK12, PACK123};
use core::arch::x86_64::*;

/// The most bytes one block of 16 units makes: 3 per unit.
const BLOCK_OUT: usize = 48;

codec_arch::enable! { avx2;
    /// See the module docs. `src` is read with unaligned loads.
    ///
    /// # Safety
    ///
    /// The CPU has AVX2, BMI1, BMI2 and POPCNT, and `src` is valid for reads of
    /// `len` `u16`s (at any alignment).
    pub(crate) unsafe fn convert<const SWAP: bool>(
        src: *const u16,
        len: usize,
        dst: &mut [u8],
    ) -> (usize, usize) {
        let cap = dst.len();
        let d = dst.as_mut_ptr();
        let (mut p, mut o) = (0usize, 0usize);
        let mut scratch = [0u8; BLOCK_OUT + 16];
        let high = _mm256_set1_epi16(0xFF80u16 as i16);
        loop {
            // 1. In place: while this block and the next have no surrogate, and
            // there is room for both (see the module docs). Software-pipelined:
            // the next block, once checked, is the current one of the next
            // round, so each block is loaded and checked once.
            'fast: while p + 32 <= len && o + 2 * BLOCK_OUT + 16 <= cap {
                // SAFETY: `p + 32 <= len`.
                let (mut v, mut n) =
                    unsafe { (load::<SWAP>(src.add(p)), load::<SWAP>(src.add(p + 16))) };
                if _mm256_testz_si256(_mm256_or_si256(v, n), high) != 0 {
                    // ASCII: both blocks, exact.
                    let bytes = _mm256_permute4x64_epi64::<0b1101_1000>(_mm256_packus_epi16(v, n));
                    // SAFETY: `o + 32 <= cap`.
                    unsafe { _mm256_storeu_si256(d.add(o).cast(), bytes) };
                    p += 32;
                    o += 32;
                    continue;
                }
                if surrogates(v, n) {
                    break;
                }
                loop {
                    // `v` (at `p`) and `n` have no surrogate and are not both
                    // ASCII; `p + 32 <= len` and the room is checked.
                    // SAFETY: `o + BLOCK_OUT + 16 <= cap`.
                    o += unsafe { mixed(v, d.add(o)) };
                    p += 16;
                    v = n;
                    if p + 32 > len || o + 2 * BLOCK_OUT + 16 > cap {
                        break 'fast;
                    }
                    // SAFETY: `p + 32 <= len`.
                    n = unsafe { load::<SWAP>(src.add(p + 16)) };
                    if surrogates(n, n) {
                        break 'fast;
                    }
                    if _mm256_testz_si256(_mm256_or_si256(v, n), high) != 0 {
                        // Two ASCII blocks: the packed path above.
                        continue 'fast;
                    }
                }
            }
            if p + 16 > len {
                break;
            }
            // 2. One block with care: it has a surrogate, or the next one
            // does, or the end is near.
            // SAFETY: `p + 16 <= len`.
            let v = unsafe { load::<SWAP>(src.add(p)) };
            if p + 32 <= len && o + 2 * BLOCK_OUT + 16 <= cap {
                // Both whole (see `whole`): this one in place, stray bytes and
                // all, as in the loop above. (Kept out of that loop, whose
                // blocks without surrogates ran 8-15% slower with a branch for
                // pairs in it: AVX2, Zen 4.)
                // SAFETY: `p + 32 <= len`.
                let n = unsafe { load::<SWAP>(src.add(p + 16)) };
                let (leads, trails) = if surrogates(v, v) {
                    leads_trails(v)
                } else {
                    (0, 0)
                };
                if leads == 0x3333_3333 && trails == 0xCCCC_CCCC {
                    // 2. Pairs only: exact, whatever follows.
                    // SAFETY: `o + 32 <= cap`.
                    unsafe { pairs(v, d.add(o)) };
                    p += 16;
                    o += 32;
                    continue;
                }
                if whole_masks(leads, trails) && (!surrogates(n, n) || whole(n)) {
                    // SAFETY: `o + BLOCK_OUT + 16 <= cap`.
                    o += unsafe {
                        if leads == 0 {
                            mixed(v, d.add(o))
                        } else {
                            one_two_three_pairs(v, leads, trails, d.add(o))
                        }
                    };
                    p += 16;
                    continue;
                }
            }
            let exact = o + BLOCK_OUT + 16 <= cap;
            let out = if exact {
                // SAFETY: `o + BLOCK_OUT + 16 <= cap`.
                unsafe { d.add(o) }
            } else {
                scratch.as_mut_ptr()
            };
            let (r, w, whole, copy) = if surrogates(v, v) {
                // Paths 2 and 5 write exactly their bytes at `out`; path 3 or 4
                // with pairs writes stray bytes, always in the scratch buffer.
                // SAFETY: `out` and the scratch buffer have room for BLOCK_OUT +
                // 16 bytes; `src` has `len - p >= 16` units from `p`.
                let (r, w, whole, scratched) = unsafe {
                    with_surrogates::<SWAP>(v, src.add(p), len - p, out, scratch.as_mut_ptr())
                };
                (r, w, whole, scratched || !exact)
            } else {
                // Stray bytes: always through the scratch buffer.
                // SAFETY: the scratch buffer has room for BLOCK_OUT + 16 bytes.
                let w = unsafe { no_surrogate(v, scratch.as_mut_ptr()) };
                (16, w, true, true)
            };
            if copy {
                if o + w > cap {
                    return (p, o);
                }
                // SAFETY: `w` bytes of `scratch` to `dst[o..o + w]`, inside
                // `cap`; the buffers do not overlap.
                unsafe { core::ptr::copy_nonoverlapping(scratch.as_ptr(), d.add(o), w) };
            }
            p += r;
            o += w;
            if !whole {
                return (p, o);
            }
        }
        // 3. Fewer than 16 units left: the last 16 of the input, overlapping
        // what is done (see `tail`).
        if p < len && len >= 16 {
            // SAFETY: `len - 16 + 16 <= len` units read.
            let v = unsafe { load::<SWAP>(src.add(len - 16)) };
            if !surrogates(v, v) {
                // SAFETY: `d` is valid for `cap` bytes, of which `o` are done.
                if let Some(w) = unsafe { tail(v, 16 - (len - p), &mut scratch, d.add(o), cap - o) } {
                    return (len, o + w);
                }
            }
        }
        (p, o)
    }
}

codec_arch::enable! { avx2;
    /// The last units of an input of 16 or more, fewer than 16: the block of
    /// the last 16 units (`v`, without surrogates), whose first `done` units
    /// were converted already, converted into `scratch`; the bytes of the units
    /// not yet converted are copied to `out` if they fit in `room`, and their
    /// count returned. Otherwise (no room) `None`, and the scalar code goes on.
    ///
    /// Before, the scalar step of `crate::drive` converted these units one at
    /// a time: callgrind, Latin1 1 KiB, about 280 of 3,005 instructions a call
    /// (simdutf 2,987 for the whole call).
    ///
    /// # Safety
    ///
    /// AVX2, BMI2, POPCNT; `1 <= done <= 15`; `out` is writable for `room`
    /// bytes.
    #[inline]
    unsafe fn tail(
        v: __m256i,
        done: usize,
        scratch: &mut [u8; BLOCK_OUT + 16],
        out: *mut u8,
        room: usize,
    ) -> Option<usize> {
        let zero = _mm256_setzero_si256();
        // Two bits a unit, set where it needs a second byte, and a third.
        let second = !_mm256_movemask_epi8(_mm256_cmpeq_epi16(
            _mm256_and_si256(v, _mm256_set1_epi16(0xFF80u16 as i16)),
            zero,
        )) as u32;
        let third = !_mm256_movemask_epi8(_mm256_cmpeq_epi16(
            _mm256_and_si256(v, _mm256_set1_epi16(0xF800u16 as i16)),
            zero,
        )) as u32;
        let before = (1u32 << (2 * done)) - 1;
        let skip = done + ((second & before).count_ones() + (third & before).count_ones()) as usize / 2;
        // SAFETY: the scratch buffer has room for BLOCK_OUT + 16 bytes.
        let w = unsafe { no_surrogate(v, scratch.as_mut_ptr()) };
        let n = w.checked_sub(skip)?;
        if n > room {
            return None;
        }
        // SAFETY: `scratch[skip..w]` (`w <= BLOCK_OUT`) to `out[..n]`, `n <=
        // room`; the buffers do not overlap.
        unsafe { core::ptr::copy_nonoverlapping(scratch.as_ptr().add(skip), out, n) };
        Some(n)
    }
}

codec_arch::enable! { avx2;
    /// UTF-32 → UTF-8 for blocks of 16 characters of the BMP (below U+10000,
    /// no surrogate): each block narrowed to 16-bit units and converted by
    /// [`no_surrogate`], the UTF-16 kernel's paths 1, 3 and 4, with the same
    /// rule for stray bytes (in place only while the next block qualifies too
    /// and the output has room for both; otherwise through the scratch
    /// buffer). Stops at the first block that has a character outside the BMP,
    /// a surrogate or a value that is not a character, or near the end; the
    /// caller goes on from there with the general UTF-32 kernel.
    ///
    /// The loop is software-pipelined: the block after the current one is
    /// narrowed and checked once, and becomes the current block of the next
    /// round. (The first version narrowed it twice, once to check it and again
    /// as the current block, and tried the 32-unit ASCII test on every round:
    /// callgrind, Korean 64 KiB, 108 instructions a block, 180,694 a call.)
    /// ASCII runs: two narrowed blocks that are both ASCII are packed at once,
    /// and then the run goes on 32 units at a time on the 32-bit units
    /// ([`ascii32`]), without narrowing, until a register pair is not ASCII.
    ///
    /// Measured (callgrind, 64 KiB): the general kernel spent 12 instructions
    /// a character on Korean, simdutf 8.4.
    ///
    /// # Safety
    ///
    /// The CPU has AVX2, BMI1, BMI2 and POPCNT.
    pub(crate) unsafe fn bmp_from_utf32(src: &[u32], dst: &mut [u8]) -> (usize, usize) {
        let (len, cap) = (src.len(), dst.len());
        let (s, d) = (src.as_ptr(), dst.as_mut_ptr());
        let (mut p, mut o) = (0usize, 0usize);
        // The current block (at `p`), narrowed and checked; `None` once a block
        // does not qualify or fewer than 16 units are left.
        let mut cur = if len >= 16 {
            // SAFETY: `16 <= len` units read.
            unsafe { narrow(s) }
        } else {
            None
        };
        // In place: the current block and the next are BMP without surrogates.
        while let Some(v) = cur {
            if p + 32 > len || o + 2 * BLOCK_OUT + 16 > cap {
                break;
            }
            // SAFETY: `p + 32 <= len` units read.
            let Some(n) = (unsafe { narrow(s.add(p + 16)) }) else {
                break;
            };
            if _mm256_testz_si256(_mm256_or_si256(v, n), _mm256_set1_epi16(0xFF80u16 as i16)) != 0 {
                // Two blocks of ASCII, exact; then the rest of the run.
                let bytes = _mm256_permute4x64_epi64::<0b1101_1000>(_mm256_packus_epi16(v, n));
                // SAFETY: `o + 32 <= cap`.
                unsafe { _mm256_storeu_si256(d.add(o).cast(), bytes) };
                p += 32;
                o += 32;
                while p + 32 <= len && o + 32 <= cap {
                    // SAFETY: `p + 32 <= len` units read.
                    let Some(bytes) = (unsafe { ascii32(s.add(p)) }) else {
                        break;
                    };
                    // SAFETY: `o + 32 <= cap`.
                    unsafe { _mm256_storeu_si256(d.add(o).cast(), bytes) };
                    p += 32;
                    o += 32;
                }
                cur = if p + 16 <= len {
                    // SAFETY: `p + 16 <= len` units read.
                    unsafe { narrow(s.add(p)) }
                } else {
                    None
                };
                continue;
            }
            // SAFETY: `o + BLOCK_OUT + 16 <= cap`.
            o += unsafe { mixed(v, d.add(o)) };
            p += 16;
            cur = Some(n);
        }
        // Then block by block through the scratch buffer.
        let mut scratch = [0u8; BLOCK_OUT + 16];
        while let Some(v) = cur {
            // SAFETY: the scratch buffer has room for BLOCK_OUT + 16 bytes.
            let w = unsafe { no_surrogate(v, scratch.as_mut_ptr()) };
            if o + w > cap {
                break;
            }
            // SAFETY: `w` bytes of `scratch` to `dst[o..o + w]`, inside `cap`;
            // the buffers do not overlap.
            unsafe { core::ptr::copy_nonoverlapping(scratch.as_ptr(), d.add(o), w) };
            p += 16;
            o += w;
            cur = if p + 16 <= len {
                // SAFETY: `p + 16 <= len` units read.
                unsafe { narrow(s.add(p)) }
            } else {
                None
            };
        }
        // Fewer than 16 units left: the last 16 of the input, as `convert`
        // ends.
        if p < len && p + 16 > len && len >= 16 {
            // SAFETY: `len - 16 + 16 <= len` units read.
            if let Some(v) = unsafe { narrow(s.add(len - 16)) } {
                // SAFETY: `d` is valid for `cap` bytes, of which `o` are done;
                // `p + 16 > len` and `p < len`, so `1 <= 16 - (len - p) <= 15`.
                if let Some(w) = unsafe { tail(v, 16 - (len - p), &mut scratch, d.add(o), cap - o) } {
                    return (len, o + w);
                }
            }
        }
        (p, o)
    }
}

codec_arch::enable! { avx2;
    /// The 32 UTF-32 units at `src` as bytes, if all are ASCII.
    ///
    /// # Safety
    ///
    /// AVX2; `src` is readable for 32 units.
    #[inline]
    unsafe fn ascii32(src: *const u32) -> Option<__m256i> {
        // SAFETY: the caller guarantees 32 readable units.
        let [a, b, c, d] =
            unsafe { [0, 8, 16, 24].map(|k| _mm256_loadu_si256(src.add(k).cast::<__m256i>())) };
        let any = _mm256_or_si256(_mm256_or_si256(a, b), _mm256_or_si256(c, d));
        if _mm256_testz_si256(any, _mm256_set1_epi32(!0x7F)) == 0 {
            return None;
        }
        // The packs work within 128-bit lanes: the 4-byte groups come out in
        // the order 0, 2, 4, 6, 1, 3, 5, 7, which the permute undoes.
        let bytes = _mm256_packus_epi16(_mm256_packus_epi32(a, b), _mm256_packus_epi32(c, d));
        Some(_mm256_permutevar8x32_epi32(
            bytes,
            _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7),
        ))
    }
}

codec_arch::enable! { avx2;
    /// The 16 UTF-32 units at `src` as 16-bit units, if all are below U+10000
    /// and none is a surrogate.
    ///
    /// # Safety
    ///
    /// AVX2; `src` is readable for 16 units.
    #[inline]
    unsafe fn narrow(src: *const u32) -> Option<__m256i> {
        // SAFETY: the caller guarantees 16 readable units.
        let (a, b) = unsafe {
            (
                _mm256_loadu_si256(src.cast()),
                _mm256_loadu_si256(src.add(8).cast()),
            )
        };
        // Packed with saturation (and negative values to 0), so the pack alone
        // cannot tell; the units above U+FFFF and the surrogates are one test
        // (one branch instead of two: 2 instructions a block fewer).
        let above = _mm256_and_si256(
            _mm256_or_si256(a, b),
            _mm256_set1_epi32(0xFFFF_0000u32 as i32),
        );
        // Within 16 bits the pack is exact; it packs within 128-bit lanes, and
        // the permute puts the units back in order.
        let v = _mm256_permute4x64_epi64::<0b1101_1000>(_mm256_packus_epi32(a, b));
        let surrogate = _mm256_cmpeq_epi16(
            _mm256_and_si256(v, _mm256_set1_epi16(0xF800u16 as i16)),
            _mm256_set1_epi16(0xD800u16 as i16),
        );
        let bad = _mm256_or_si256(above, surrogate);
        (_mm256_testz_si256(bad, bad) != 0).then_some(v)
    }
}

codec_arch::enable! { avx2;
    /// 16 units at `src`, as native `u16`s.
    ///
    /// # Safety
    ///
    /// AVX2; `src` is readable for 16 units.
    #[inline]
    unsafe fn load<const SWAP: bool>(src: *const u16) -> __m256i {
        // SAFETY: the caller guarantees 16 readable units.
        let v = unsafe { _mm256_loadu_si256(src.cast()) };
        if SWAP {
            #[rustfmt::skip]
            let swap = _mm256_setr_epi8(
                1, 0, 3, 2, 5, 4, 7, 6, 9, 8, 11, 10, 13, 12, 15, 14,
                1, 0, 3, 2, 5, 4, 7, 6, 9, 8, 11, 10, 13, 12, 15, 14,
            );
            _mm256_shuffle_epi8(v, swap)
        } else {
            v
        }
    }
}

codec_arch::enable! { avx2;
    /// The leads and trails of `v` in `movemask` bits, two a unit.
    #[inline]
    fn leads_trails(v: __m256i) -> (u32, u32) {
        let top6 = _mm256_and_si256(v, _mm256_set1_epi16(0xFC00u16 as i16));
        let leads = _mm256_movemask_epi8(_mm256_cmpeq_epi16(
            top6,
            _mm256_set1_epi16(0xD800u16 as i16),
        )) as u32;
        let trails = _mm256_movemask_epi8(_mm256_cmpeq_epi16(
            top6,
            _mm256_set1_epi16(0xDC00u16 as i16),
        )) as u32;
        (leads, trails)
    }
}

codec_arch::enable! { avx2;
    /// Whether a block with surrogates converts whole and ends at a character:
    /// every surrogate is in a pair within it, and its last unit is no lead.
    /// Such a block makes at least 16 bytes (2 for each unit of a pair), which
    /// is what the in-place loop needs of the block after one with stray
    /// bytes.
    #[inline]
    fn whole(v: __m256i) -> bool {
        let (leads, trails) = leads_trails(v);
        whole_masks(leads, trails)
    }
}

/// [`whole`] from the block's [`leads_trails`] (both 0 without
/// surrogates): every trail follows a lead, and every lead is followed by
/// a trail in the block, the last unit being no lead.
#[inline]
fn whole_masks(leads: u32, trails: u32) -> bool {
    trails == leads << 2 && leads >> 30 == 0
}

codec_arch::enable! { avx2;
    /// Whether any unit of `a` or `b` is a surrogate.
    #[inline]
    fn surrogates(a: __m256i, b: __m256i) -> bool {
        let (f800, d800) = (
            _mm256_set1_epi16(0xF800u16 as i16),
            _mm256_set1_epi16(0xD800u16 as i16),
        );
        let sa = _mm256_cmpeq_epi16(_mm256_and_si256(a, f800), d800);
        let sb = _mm256_cmpeq_epi16(_mm256_and_si256(b, f800), d800);
        let s = _mm256_or_si256(sa, sb);
        _mm256_testz_si256(s, s) == 0
    }
}

codec_arch::enable! { avx2;
    /// A block without surrogates: 16 units to 16..48 bytes; returns how many.
    ///
    /// # Safety
    ///
    /// AVX2, BMI2, POPCNT; `out` is writable for `BLOCK_OUT + 16` bytes.
    #[inline]
    unsafe fn no_surrogate(v: __m256i, out: *mut u8) -> usize {
        if _mm256_testz_si256(v, _mm256_set1_epi16(0xFF80u16 as i16)) != 0 {
            // 1. ASCII.
            let packed = _mm256_packus_epi16(v, v);
            let bytes = _mm256_castsi256_si128(_mm256_permute4x64_epi64::<0b1000>(packed));
            // SAFETY: 16 bytes at `out`.
            unsafe { _mm_storeu_si128(out.cast(), bytes) };
            16
        } else if _mm256_testz_si256(v, _mm256_set1_epi16(0xF800u16 as i16)) != 0 {
            // 3. 1 or 2 bytes a unit.
            // SAFETY: at most 32 bytes, in two 16-byte stores at 0 and <= 16.
            unsafe { one_two(v, out) }
        } else {
            // 4. 1 to 3 bytes a unit.
            // SAFETY: at most 48 bytes, in 16-byte stores at <= 36.
            unsafe { one_two_three(v, out) }
        }
    }
}

codec_arch::enable! { avx2;
    /// [`no_surrogate`] without its ASCII path, for the in-place loops, which
    /// pack pairs of ASCII blocks themselves: a lone ASCII block goes through
    /// path 3 (a mask of 0 keeps one byte a unit). On text that mixes ASCII
    /// blocks with others at random (the Latin-1 text: about one character in
    /// 25 above U+007F, so about half of the blocks) the three-way branch is
    /// mispredicted about as often as it is taken; path 3 costs about 20
    /// instructions more than path 1 on a block, a misprediction 15-20 cycles.
    ///
    /// # Safety
    ///
    /// AVX2, BMI2, POPCNT; `out` is writable for `BLOCK_OUT + 16` bytes.
    #[inline]
    unsafe fn mixed(v: __m256i, out: *mut u8) -> usize {
        if _mm256_testz_si256(v, _mm256_set1_epi16(0xF800u16 as i16)) != 0 {
            // 3. 1 or 2 bytes a unit.
            // SAFETY: at most 32 bytes, in two 16-byte stores at 0 and <= 16.
            unsafe { one_two(v, out) }
        } else {
            // 4. 1 to 3 bytes a unit.
            // SAFETY: at most 48 bytes, in 16-byte stores at <= 36.
            unsafe { one_two_three(v, out) }
        }
    }
}

codec_arch::enable! { avx2;
    /// A block with a surrogate: the 16 units at `src` (`v`); returns `(units
    /// read, bytes written, whether the block was whole, whether the bytes are
    /// in `scratch` rather than at `out`)`. Not whole: it stopped before an
    /// unpaired surrogate (or a pair cut by the end of the input).
    ///
    /// # Safety
    ///
    /// AVX2, BMI2, POPCNT; `src` is readable for `avail >= 16` units, `out`
    /// and `scratch` writable for `BLOCK_OUT + 16` bytes.
    #[inline]
    unsafe fn with_surrogates<const SWAP: bool>(
        v: __m256i,
        src: *const u16,
        avail: usize,
        out: *mut u8,
        scratch: *mut u8,
    ) -> (usize, usize, bool, bool) {
        let (leads, trails) = leads_trails(v);
        if leads == 0x3333_3333 && trails == 0xCCCC_CCCC {
            // 2. Pairs only.
            // SAFETY: 32 bytes at `out`.
            unsafe { pairs(v, out) };
            return (16, 32, true, false);
        }
        if trails == leads << 2 {
            // Every trail follows a lead and every lead but one in the last
            // unit has its trail: path 4 with pairs, and a lead in the last
            // unit left to the next block (its 2 bytes are the last ones).
            // SAFETY: BLOCK_OUT + 16 bytes at `scratch`.
            let w = unsafe { one_two_three_pairs(v, leads, trails, scratch) };
            let open = (leads >> 30) as usize & 1;
            return (16 - open, w - 2 * open, true, true);
        }
        // 5. One by one.
        // SAFETY: as the caller guarantees.
        let (r, w, whole) = unsafe { super::super::common::utf16_units::<SWAP, 16>(src, avail, out) };
        (r, w, whole, false)
    }
}

codec_arch::enable! { avx2;
    /// Eight pairs of units (lead, trail) to eight 4-byte characters.
    ///
    /// # Safety
    ///
    /// AVX2; `out` is writable for 32 bytes.
    #[inline]
    unsafe fn pairs(v: __m256i, out: *mut u8) {
        let ten = _mm256_set1_epi32(0x3FF);
        let high = _mm256_slli_epi32::<10>(_mm256_and_si256(v, ten));
        let low = _mm256_and_si256(_mm256_srli_epi32::<16>(v), ten);
        let cp = _mm256_add_epi32(_mm256_add_epi32(high, low), _mm256_set1_epi32(0x1_0000));
        // Bytes (lane order): F0 | cp >> 18, then three continuations.
        let b0 = _mm256_srli_epi32::<18>(cp);
        let b1 = _mm256_and_si256(_mm256_srli_epi32::<4>(cp), _mm256_set1_epi32(0x3F00));
        let b2 = _mm256_and_si256(_mm256_slli_epi32::<10>(cp), _mm256_set1_epi32(0x3F_0000));
        let b3 = _mm256_slli_epi32::<24>(cp);
        let b3 = _mm256_and_si256(b3, _mm256_set1_epi32(0x3F00_0000));
        let bytes = _mm256_or_si256(_mm256_or_si256(b0, b1), _mm256_or_si256(b2, b3));
        let bytes = _mm256_or_si256(bytes, _mm256_set1_epi32(0x8080_80F0u32 as i32));
        // SAFETY: 32 bytes at `out`.
        unsafe { _mm256_storeu_si256(out.cast(), bytes) }
    }
}

codec_arch::enable! { avx2;
    /// 16 units below U+0800 to 16..32 bytes; returns how many.
    ///
    /// # Safety
    ///
    /// AVX2, BMI2, POPCNT; `out` is writable for 40 bytes.
    #[inline]
    unsafe fn one_two(v: __m256i, out: *mut u8) -> usize {
        // Each lane: the lead byte C0 | u >> 6, then 80 | u & 3F.
        let lead = _mm256_or_si256(_mm256_srli_epi16::<6>(v), _mm256_set1_epi16(0xC0));
        let cont = _mm256_or_si256(
            _mm256_and_si256(v, _mm256_set1_epi16(0x3F)),
            _mm256_set1_epi16(0x80),
        );
        let two = _mm256_or_si256(lead, _mm256_slli_epi16::<8>(cont));
        let is2 = _mm256_cmpgt_epi16(v, _mm256_set1_epi16(0x7F));
        let lanes = _mm256_blendv_epi8(v, two, is2);
        let m = _pext_u32(_mm256_movemask_epi8(is2) as u32, 0x5555_5555);
        let (lo, hi) = ((m & 0xFF) as usize, (m >> 8) as usize);
        // SAFETY: `lo` and `hi` are below 256, PACK12's length.
        let (plo, phi) = unsafe {
            (
                _mm_loadu_si128(PACK12.as_ptr().add(lo).cast()),
                _mm_loadu_si128(PACK12.as_ptr().add(hi).cast()),
            )
        };
        let first = _mm_shuffle_epi8(_mm256_castsi256_si128(lanes), plo);
        let second = _mm_shuffle_epi8(_mm256_extracti128_si256::<1>(lanes), phi);
        let n = 8 + lo.count_ones() as usize;
        // SAFETY: stores at 0..16 and n..n + 16 with n <= 16.
        unsafe {
            _mm_storeu_si128(out.cast(), first);
            _mm_storeu_si128(out.add(n).cast(), second);
        }
        n + 8 + hi.count_ones() as usize
    }
}

codec_arch::enable! { avx2;
    /// 16 units without surrogates to 16..48 bytes; returns how many.
    ///
    /// Each unit becomes two 16-bit words, which `unpack` interleaves into a
    /// 32-bit lane holding its bytes in order: `w0` the first two bytes
    /// (`0ccccccc`; `110bbbbb 10cccccc`; `1110aaaa 10bbbbbb`), `w1` the third
    /// (`10cccccc`). The 2- and 3-byte forms of `w0` are one formula applied to
    /// `u` or to `u >> 6`.
    ///
    /// # Safety
    ///
    /// AVX2, POPCNT; `out` is writable for 52 bytes.
    #[inline]
    unsafe fn one_two_three(u: __m256i, out: *mut u8) -> usize {
        let (w0, w1, codes) = words123(u);
        // SAFETY: as the caller guarantees.
        unsafe { pack123(w0, w1, codes, out) }
    }
}

codec_arch::enable! { avx2;
    /// [`one_two_three`] for 16 units with surrogates, all in pairs but for a
    /// lead in the last unit (`leads` and `trails`: `movemask` bits, two a
    /// unit): each unit of a pair becomes two of the character's 4 bytes in
    /// its own lane, so that every lane keeps 1 to 3 bytes as before. With
    /// `c = 10000 + (lead & 3FF) << 10 + (trail & 3FF)` and `h = c >> 10 =
    /// (lead & 3FF) + 40`, a lead makes `F0 | h >> 8`, `80 | h >> 2 & 3F`, and a
    /// trail `80 | (lead & 3) << 4 | trail >> 6 & F`, `80 | trail & 3F` (it
    /// takes two bits of the unit before it). A lead in the last unit makes
    /// its 2 bytes too, the last of the output; the caller leaves them.
    ///
    /// The one-by-one path took these blocks before: text with an emoji every
    /// 8 characters ran at 0.3-0.5 times simdutf's AVX2 kernel (`transcode_min`
    /// with `EMOJI_EVERY`).
    ///
    /// # Safety
    ///
    /// AVX2, POPCNT; `out` is writable for 52 bytes.
    #[inline]
    unsafe fn one_two_three_pairs(u: __m256i, leads: u32, trails: u32, out: *mut u8) -> usize {
        let (w0, w1, codes) = words123(u);
        let h = _mm256_add_epi16(
            _mm256_and_si256(u, _mm256_set1_epi16(0x3FF)),
            _mm256_set1_epi16(0x40),
        );
        let lead = _mm256_or_si256(
            _mm256_or_si256(
                _mm256_srli_epi16::<8>(h),
                _mm256_and_si256(_mm256_slli_epi16::<6>(h), _mm256_set1_epi16(0x3F00)),
            ),
            _mm256_set1_epi16(0x80F0u16 as i16),
        );
        // The unit before each (0 before the first, which is no trail).
        let before = _mm256_alignr_epi8::<14>(u, _mm256_permute2x128_si256::<0x08>(u, u));
        let trail = _mm256_or_si256(
            _mm256_or_si256(
                _mm256_and_si256(_mm256_slli_epi16::<4>(before), _mm256_set1_epi16(0x30)),
                _mm256_and_si256(_mm256_srli_epi16::<6>(u), _mm256_set1_epi16(0x0F)),
            ),
            _mm256_or_si256(
                _mm256_and_si256(_mm256_slli_epi16::<8>(u), _mm256_set1_epi16(0x3F00)),
                _mm256_set1_epi16(0x8080u16 as i16),
            ),
        );
        let top6 = _mm256_and_si256(u, _mm256_set1_epi16(0xFC00u16 as i16));
        let is_lead = _mm256_cmpeq_epi16(top6, _mm256_set1_epi16(0xD800u16 as i16));
        let is_trail = _mm256_cmpeq_epi16(top6, _mm256_set1_epi16(0xDC00u16 as i16));
        let w0 = _mm256_blendv_epi8(_mm256_blendv_epi8(w0, lead, is_lead), trail, is_trail);
        // Surrogates are from `800`: code 2 (3 bytes) in `words123`, 1 here.
        let codes = codes - ((leads | trails) & 0x5555_5555);
        // SAFETY: as the caller guarantees.
        unsafe { pack123(w0, w1, codes, out) }
    }
}

codec_arch::enable! { avx2;
    /// [`one_two_three`]'s words `w0` and `w1` of each unit, and its codes: 2
    /// bits a unit, 0, 1 or 2 for 1, 2 or 3 bytes.
    #[inline]
    fn words123(u: __m256i) -> (__m256i, __m256i, u32) {
        let zero = _mm256_setzero_si256();
        let ascii = _mm256_cmpeq_epi16(
            _mm256_and_si256(u, _mm256_set1_epi16(0xFF80u16 as i16)),
            zero,
        );
        let short = _mm256_cmpeq_epi16(
            _mm256_and_si256(u, _mm256_set1_epi16(0xF800u16 as i16)),
            zero,
        );
        let six = _mm256_set1_epi16(0x3F);
        // 3-byte units: the formula of the 2-byte ones, on u >> 6, with the
        // lead tag E0 instead of C0.
        let v = _mm256_blendv_epi8(_mm256_srli_epi16::<6>(u), u, short);
        let tag = _mm256_or_si256(
            _mm256_set1_epi16(0x80C0u16 as i16),
            _mm256_andnot_si256(short, _mm256_set1_epi16(0x20)),
        );
        let w0 = _mm256_or_si256(
            _mm256_or_si256(
                _mm256_srli_epi16::<6>(v),
                _mm256_slli_epi16::<8>(_mm256_and_si256(v, six)),
            ),
            tag,
        );
        let w0 = _mm256_blendv_epi8(w0, u, ascii);
        let w1 = _mm256_or_si256(_mm256_and_si256(u, six), _mm256_set1_epi16(0x80));
        let codes = (!_mm256_movemask_epi8(ascii) as u32 & 0x5555_5555)
            + (!_mm256_movemask_epi8(short) as u32 & 0x5555_5555);
        (w0, w1, codes)
    }
}

codec_arch::enable! { avx2;
    /// The bytes of 16 units from their words (`words123`) and codes, packed
    /// with [`PACK123`] 4 units at a time; returns how many.
    ///
    /// # Safety
    ///
    /// AVX2; `out` is writable for 52 bytes.
    #[inline]
    unsafe fn pack123(w0: __m256i, w1: __m256i, codes: u32, out: *mut u8) -> usize {
        // Lanes: units 0-3 | 8-11, and 4-7 | 12-15.
        let first = _mm256_unpacklo_epi16(w0, w1);
        let second = _mm256_unpackhi_epi16(w0, w1);
        let mut n = 0;
        for (group, lanes) in [
            (0, _mm256_castsi256_si128(first)),
            (8, _mm256_castsi256_si128(second)),
            (16, _mm256_extracti128_si256::<1>(first)),
            (24, _mm256_extracti128_si256::<1>(second)),
        ] {
            let idx = ((codes >> group) & 0xFF) as usize;
            // SAFETY: `idx` is below 256, the tables' length.
            let pack = unsafe { _mm_loadu_si128(PACK123.as_ptr().add(idx).cast()) };
            // SAFETY: `n <= 36` before this store of 16 bytes.
            unsafe { _mm_storeu_si128(out.add(n).cast(), _mm_shuffle_epi8(lanes, pack)) };
            n += usize::from(LEN123[idx]);
        }
        n
    }
}
