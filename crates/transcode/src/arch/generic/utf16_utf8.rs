//! UTF-16 (native, or byte-swapped with `SWAP`) → UTF-8, validating, once
//! for every register width and architecture ([`Utf16Simd`], implemented
//! in `x86_64/lanes.rs` and `aarch64/lanes.rs`); x86-64's
//! `{sse41,avx2}/mod.rs` and aarch64's table instantiate it with
//! [`kernels!`]. A block is one register of units, `N =
//! BYTES / 2` (8 with SSE4.1, 16 with AVX2).
//!
//! Each step takes a block and the first path that applies:
//!
//! 1. ASCII (all units below 0x80): packed to `N` bytes.
//! 2. Surrogate pairs only, lead first (Emoji text): `N / 2` characters of 4
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
//! units need, at most `N` stray bytes after the block's output (path 4
//! shortens its last store where a 16-byte one would leave more:
//! [`Utf16Simd::store_last`]). Such a block is stored in place only if the
//! next block converts whole too ([`whole`]: no surrogate, or all in pairs
//! and no lead at the end) and the output has room for both: its `N` units
//! will make at least `N` bytes, which overwrite every stray byte before
//! the conversion can stop. Otherwise the block goes through a scratch
//! buffer and only its bytes are copied, as do the blocks near the end.
//! (The SSE4.1 kernel once stored 12 stray bytes where its next block
//! wrote 8; `tests/exact`'s sentinel test
//! `three_byte_block_with_an_ascii_end_before_a_short_last_block` fails
//! if 16-byte registers' `store_last` writes 16 bytes.)
//!
//! The in-place loop checks each block once: the next block, once checked,
//! is the current block of the next round. Two ASCII blocks in a row are
//! packed together; any other block takes path 3 or 4 without a branch for
//! path 1 (see [`mixed`]: on text with ASCII and non-ASCII blocks at random
//! that branch was mispredicted about as often as taken). The last units,
//! fewer than `N`, are converted as the last `N` units of the input, which
//! overlap what is done ([`tail`]), instead of one at a time by the scalar
//! code.

use super::super::tables::{LEN123, PACK12, PACK123};
use codec_arch::Simd;

/// The `pshufb` control that swaps the bytes of each 16-bit lane.
const SWAP16: [u8; 16] = [1, 0, 3, 2, 5, 4, 7, 6, 9, 8, 11, 10, 13, 12, 15, 14];

/// Every other bit, from bit 0: the first `movemask8` bit of each 16-bit
/// lane.
const EVEN: u64 = 0x5555_5555_5555_5555;

/// The operations of the UTF-16 → UTF-8 kernel that depend on the width
/// beyond [`Simd`]'s: lane crossing, the masks one bit a unit, the
/// one-by-one fallback for one block, and the scratch buffer's size.
pub(crate) trait Utf16Simd: Simd {
    /// A scratch buffer for one block's output and a 16-byte store past
    /// it: `3 * N + 16` bytes.
    type Scratch: AsMut<[u8]> + AsRef<[u8]>;

    /// A zeroed scratch buffer.
    fn scratch(self) -> Self::Scratch;

    /// The 16-bit lanes of `v` moved one lane up, across the whole
    /// register, with 0 in the first: the unit before each.
    fn prev16(self, v: Self::V) -> Self::V;

    /// The 16-bit lanes of `a` and `b` interleaved within each 128-bit
    /// lane: the low halves' (`punpcklwd`) and the high halves'.
    fn unpack16(self, a: Self::V, b: Self::V) -> (Self::V, Self::V);

    /// One bit a 16-bit lane of a lane mask `m`.
    fn bits16(self, m: Self::V) -> u64;

    /// Stores path 4's last group, `v`, of which the first 4 to 12 bytes
    /// count: 16 bytes where the 12 stray bytes at most are no more than a
    /// block's units, else 12.
    ///
    /// # Safety
    ///
    /// `p` is valid for writes of 16 bytes.
    unsafe fn store_last(self, p: *mut u8, v: <Self::Base as Simd>::V);

    /// [`utf16_units`](super::super::common::utf16_units) for one block,
    /// `N` units.
    ///
    /// # Safety
    ///
    /// As `utf16_units`: `src` is readable for `avail >= N` units; `out`
    /// writable for `3 * N + 4` bytes.
    unsafe fn block_units<const SWAP: bool>(
        self,
        src: *const u16,
        avail: usize,
        out: *mut u8,
    ) -> (usize, usize, bool);
}

/// Units in a block.
#[inline(always)]
const fn units<S: Simd>() -> usize {
    S::BYTES / 2
}

/// The most bytes one block makes: 3 per unit.
#[inline(always)]
const fn block_out<S: Simd>() -> usize {
    3 * units::<S>()
}

/// The `movemask8` bits of a whole register.
#[inline(always)]
const fn full<S: Simd>() -> u64 {
    u64::MAX >> (64 - S::BYTES)
}

/// See the module docs. `src` is read with unaligned loads.
///
/// # Safety
///
/// `src` is valid for reads of `len` `u16`s (at any alignment).
#[inline(always)]
pub(crate) unsafe fn convert<S: Utf16Simd, const SWAP: bool>(
    s: S,
    src: *const u16,
    len: usize,
    dst: &mut [u8],
) -> (usize, usize) {
    let n_units = units::<S>();
    let room = 2 * block_out::<S>() + 16;
    let cap = dst.len();
    let d = dst.as_mut_ptr();
    let (mut p, mut o) = (0usize, 0usize);
    let mut scratch = s.scratch();
    let scratch = scratch.as_mut().as_mut_ptr();
    let high = s.splat16(0xFF80);
    loop {
        // 1. In place: while this block and the next have no surrogate, and
        // there is room for both (see the module docs). Software-pipelined:
        // the next block, once checked, is the current one of the next round,
        // so each block is loaded and checked once.
        'fast: while p + 2 * n_units <= len && o + room <= cap {
            // SAFETY: `p + 2N <= len`.
            let (mut v, mut n) = unsafe {
                (
                    load::<S, SWAP>(s, src.add(p)),
                    load::<S, SWAP>(s, src.add(p + n_units)),
                )
            };
            if !s.test_any(s.or(v, n), high) {
                // ASCII: both blocks, exact.
                // SAFETY: `o + 2N <= cap`.
                unsafe { s.store(d.add(o), s.narrow16(v, n)) };
                p += 2 * n_units;
                o += 2 * n_units;
                continue;
            }
            if surrogates(s, v, n) {
                break;
            }
            loop {
                // `v` (at `p`) and `n` have no surrogate and are not both
                // ASCII; `p + 2N <= len` and the room is checked.
                // SAFETY: `o + 3N + 16 <= cap`.
                o += unsafe { mixed(s, v, d.add(o)) };
                p += n_units;
                v = n;
                if p + 2 * n_units > len || o + room > cap {
                    break 'fast;
                }
                // SAFETY: `p + 2N <= len`.
                n = unsafe { load::<S, SWAP>(s, src.add(p + n_units)) };
                if surrogates(s, n, n) {
                    break 'fast;
                }
                if !s.test_any(s.or(v, n), high) {
                    // Two ASCII blocks, loaded and checked: packed here, then
                    // the loop above.
                    // SAFETY: `o + 2N <= cap`.
                    unsafe { s.store(d.add(o), s.narrow16(v, n)) };
                    p += 2 * n_units;
                    o += 2 * n_units;
                    continue 'fast;
                }
            }
        }
        if p + n_units > len {
            break;
        }
        // 2. One block with care: it has a surrogate, or the next one does,
        // or the end is near.
        // SAFETY: `p + N <= len`.
        let v = unsafe { load::<S, SWAP>(s, src.add(p)) };
        if p + 2 * n_units <= len && o + room <= cap {
            // Both whole (see `whole`): this one in place, stray bytes and
            // all, as in the loop above. (Kept out of that loop, whose blocks
            // without surrogates ran 8-15% slower with a branch for pairs in
            // it: AVX2, Zen 4.)
            // SAFETY: `p + 2N <= len`.
            let n = unsafe { load::<S, SWAP>(s, src.add(p + n_units)) };
            let (leads, trails) = if surrogates(s, v, v) {
                leads_trails(s, v)
            } else {
                (0, 0)
            };
            if leads == 0x3333_3333_3333_3333 & full::<S>()
                && trails == 0xCCCC_CCCC_CCCC_CCCC & full::<S>()
            {
                // 2. Pairs only: exact, whatever follows.
                // SAFETY: `o + 2N <= cap`.
                unsafe { pairs(s, v, d.add(o)) };
                p += n_units;
                o += 2 * n_units;
                continue;
            }
            if whole_masks::<S>(leads, trails) && (!surrogates(s, n, n) || whole(s, n)) {
                // SAFETY: `o + 3N + 16 <= cap`.
                o += unsafe {
                    if leads == 0 {
                        mixed(s, v, d.add(o))
                    } else {
                        one_two_three_pairs(s, v, leads, trails, d.add(o))
                    }
                };
                p += n_units;
                continue;
            }
        }
        let exact = o + block_out::<S>() + 16 <= cap;
        let out = if exact {
            // SAFETY: `o + 3N + 16 <= cap`.
            unsafe { d.add(o) }
        } else {
            scratch
        };
        let (r, w, whole, copy) = if surrogates(s, v, v) {
            // Paths 2 and 5 write exactly their bytes at `out`; path 3 or 4
            // with pairs writes stray bytes, always in the scratch buffer.
            // SAFETY: `out` and the scratch buffer have room for 3N + 16
            // bytes; `src` has `len - p >= N` units from `p`.
            let (r, w, whole, scratched) =
                unsafe { with_surrogates::<S, SWAP>(s, v, src.add(p), len - p, out, scratch) };
            (r, w, whole, scratched || !exact)
        } else {
            // Stray bytes: always through the scratch buffer.
            // SAFETY: the scratch buffer has room for 3N + 16 bytes.
            let w = unsafe { no_surrogate(s, v, scratch) };
            (n_units, w, true, true)
        };
        if copy {
            if o + w > cap {
                return (p, o);
            }
            // SAFETY: `w` bytes of `scratch` to `dst[o..o + w]`, inside `cap`;
            // the buffers do not overlap.
            unsafe { core::ptr::copy_nonoverlapping(scratch, d.add(o), w) };
        }
        p += r;
        o += w;
        if !whole {
            return (p, o);
        }
    }
    // 3. Fewer than N units left: the last N of the input, overlapping what
    // is done (see `tail`).
    if p < len && len >= n_units {
        // SAFETY: `len - N + N <= len` units read.
        let v = unsafe { load::<S, SWAP>(s, src.add(len - n_units)) };
        if !surrogates(s, v, v) {
            // SAFETY: `d` is valid for `cap` bytes, of which `o` are done;
            // `p + N > len` and `p < len`, so `1 <= N - (len - p) <= N - 1`.
            if let Some(w) = unsafe { tail(s, v, n_units - (len - p), scratch, d.add(o), cap - o) }
            {
                return (len, o + w);
            }
        }
    }
    (p, o)
}

/// The last units of an input of `N` or more, fewer than `N`: the block of
/// the last `N` units (`v`, without surrogates), whose first `done` units
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
/// `1 <= done < N`; `scratch` is writable for `3N + 16` bytes, `out` for
/// `room` bytes.
#[inline(always)]
unsafe fn tail<S: Utf16Simd>(
    s: S,
    v: S::V,
    done: usize,
    scratch: *mut u8,
    out: *mut u8,
    room: usize,
) -> Option<usize> {
    let zero = s.zero();
    // Two bits a unit, set where it needs a second byte, and a third.
    let second = !s.movemask8(s.eq16(s.and(v, s.splat16(0xFF80)), zero));
    let third = !s.movemask8(s.eq16(s.and(v, s.splat16(0xF800)), zero));
    let before = (1u64 << (2 * done)) - 1;
    let skip = done + ((second & before).count_ones() + (third & before).count_ones()) as usize / 2;
    // SAFETY: the scratch buffer has room for 3N + 16 bytes.
    let w = unsafe { no_surrogate(s, v, scratch) };
    let n = w.checked_sub(skip)?;
    if n > room {
        return None;
    }
    // SAFETY: `scratch[skip..w]` (`w <= 3N`) to `out[..n]`, `n <= room`; the
    // buffers do not overlap.
    unsafe { core::ptr::copy_nonoverlapping(scratch.add(skip), out, n) };
    Some(n)
}

/// UTF-32 → UTF-8 for blocks of `N` characters of the BMP (below U+10000,
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
/// and then the run goes on `2N` units at a time on the 32-bit units
/// ([`ascii32`]), without narrowing, until a register pair is not ASCII.
///
/// Measured (callgrind, 64 KiB, AVX2): the general kernel spent 12
/// instructions a character on Korean, simdutf 8.4.
#[inline(always)]
// Only the AVX2 table takes it (`bmp_from_utf32` and its helpers).
#[cfg(target_arch = "x86_64")]
pub(crate) fn bmp_from_utf32<S: Utf16Simd>(s: S, src: &[u32], dst: &mut [u8]) -> (usize, usize) {
    let n_units = units::<S>();
    let room = 2 * block_out::<S>() + 16;
    let (len, cap) = (src.len(), dst.len());
    let (u, d) = (src.as_ptr(), dst.as_mut_ptr());
    let (mut p, mut o) = (0usize, 0usize);
    // The current block (at `p`), narrowed and checked; `None` once a block
    // does not qualify or fewer than N units are left.
    let mut cur = if len >= n_units {
        // SAFETY: `N <= len` units read.
        unsafe { narrow(s, u) }
    } else {
        None
    };
    // In place: the current block and the next are BMP without surrogates.
    while let Some(v) = cur {
        if p + 2 * n_units > len || o + room > cap {
            break;
        }
        // SAFETY: `p + 2N <= len` units read.
        let Some(n) = (unsafe { narrow(s, u.add(p + n_units)) }) else {
            break;
        };
        if !s.test_any(s.or(v, n), s.splat16(0xFF80)) {
            // Two blocks of ASCII, exact; then the rest of the run.
            // SAFETY: `o + 2N <= cap`.
            unsafe { s.store(d.add(o), s.narrow16(v, n)) };
            p += 2 * n_units;
            o += 2 * n_units;
            while p + 2 * n_units <= len && o + 2 * n_units <= cap {
                // SAFETY: `p + 2N <= len` units read.
                let Some(bytes) = (unsafe { ascii32(s, u.add(p)) }) else {
                    break;
                };
                // SAFETY: `o + 2N <= cap`.
                unsafe { s.store(d.add(o), bytes) };
                p += 2 * n_units;
                o += 2 * n_units;
            }
            cur = if p + n_units <= len {
                // SAFETY: `p + N <= len` units read.
                unsafe { narrow(s, u.add(p)) }
            } else {
                None
            };
            continue;
        }
        // SAFETY: `o + 3N + 16 <= cap`.
        o += unsafe { mixed(s, v, d.add(o)) };
        p += n_units;
        cur = Some(n);
    }
    // Then block by block through the scratch buffer.
    let mut scratch = s.scratch();
    let scratch = scratch.as_mut().as_mut_ptr();
    while let Some(v) = cur {
        // SAFETY: the scratch buffer has room for 3N + 16 bytes.
        let w = unsafe { no_surrogate(s, v, scratch) };
        if o + w > cap {
            break;
        }
        // SAFETY: `w` bytes of `scratch` to `dst[o..o + w]`, inside `cap`;
        // the buffers do not overlap.
        unsafe { core::ptr::copy_nonoverlapping(scratch, d.add(o), w) };
        p += n_units;
        o += w;
        cur = if p + n_units <= len {
            // SAFETY: `p + N <= len` units read.
            unsafe { narrow(s, u.add(p)) }
        } else {
            None
        };
    }
    // Fewer than N units left: the last N of the input, as `convert` ends.
    if p < len && p + n_units > len && len >= n_units {
        // SAFETY: `len - N + N <= len` units read.
        if let Some(v) = unsafe { narrow(s, u.add(len - n_units)) } {
            // SAFETY: `d` is valid for `cap` bytes, of which `o` are done;
            // `p + N > len` and `p < len`, so `1 <= N - (len - p) <= N - 1`.
            if let Some(w) = unsafe { tail(s, v, n_units - (len - p), scratch, d.add(o), cap - o) }
            {
                return (len, o + w);
            }
        }
    }
    (p, o)
}

/// The `2N` UTF-32 units at `src` as bytes, if all are ASCII.
///
/// # Safety
///
/// `src` is readable for `2N` units.
#[inline(always)]
// Only the AVX2 table takes it (`bmp_from_utf32` and its helpers).
#[cfg(target_arch = "x86_64")]
unsafe fn ascii32<S: Simd>(s: S, src: *const u32) -> Option<S::V> {
    // SAFETY: the caller guarantees `2N` units, four registers.
    let [a, b, c, d] = unsafe { codec_arch::simd::load4(s, src.cast()) };
    let any = s.or(s.or(a, b), s.or(c, d));
    if s.test_any(any, s.splat32(!0x7F)) {
        return None;
    }
    Some(s.narrow32(a, b, c, d))
}

/// The `N` UTF-32 units at `src` as 16-bit units, if all are below
/// U+10000 and none is a surrogate.
///
/// # Safety
///
/// `src` is readable for `N` units.
#[inline(always)]
// Only the AVX2 table takes it (`bmp_from_utf32` and its helpers).
#[cfg(target_arch = "x86_64")]
unsafe fn narrow<S: Simd>(s: S, src: *const u32) -> Option<S::V> {
    // SAFETY: the caller guarantees `N` readable units, two registers.
    let (a, b) = unsafe { (s.load(src.cast()), s.load(src.cast::<u8>().add(S::BYTES))) };
    // Packed with saturation (and negative values to 0), so the pack alone
    // cannot tell; the units above U+FFFF and the surrogates are one test
    // (one branch instead of two: 2 instructions a block fewer).
    let above = s.and(s.or(a, b), s.splat32(0xFFFF_0000));
    // Within 16 bits the pack is exact.
    let v = s.narrow32to16(a, b);
    let surrogate = s.eq16(s.and(v, s.splat16(0xF800)), s.splat16(0xD800));
    let bad = s.or(above, surrogate);
    (!s.test_any(bad, bad)).then_some(v)
}

/// `N` units at `src`, as native `u16`s.
///
/// # Safety
///
/// `src` is readable for `N` units.
#[inline(always)]
unsafe fn load<S: Simd, const SWAP: bool>(s: S, src: *const u16) -> S::V {
    // SAFETY: the caller guarantees `N` readable units.
    let v = unsafe { s.load(src.cast()) };
    if SWAP {
        s.shuffle8(v, s.broadcast16(&SWAP16))
    } else {
        v
    }
}

/// The leads and trails of `v` in `movemask8` bits, two a unit.
#[inline(always)]
fn leads_trails<S: Simd>(s: S, v: S::V) -> (u64, u64) {
    let top6 = s.and(v, s.splat16(0xFC00));
    let leads = s.movemask8(s.eq16(top6, s.splat16(0xD800)));
    let trails = s.movemask8(s.eq16(top6, s.splat16(0xDC00)));
    (leads, trails)
}

/// Whether a block with surrogates converts whole and ends at a character:
/// every surrogate is in a pair within it, and its last unit is no lead.
/// Such a block makes at least `N` bytes (2 for each unit of a pair), which
/// is what the in-place loop needs of the block after one with stray bytes.
#[inline(always)]
fn whole<S: Simd>(s: S, v: S::V) -> bool {
    let (leads, trails) = leads_trails(s, v);
    whole_masks::<S>(leads, trails)
}

/// [`whole`] from the block's [`leads_trails`] (both 0 without
/// surrogates): every trail follows a lead, and every lead is followed by
/// a trail in the block, the last unit being no lead.
#[inline(always)]
fn whole_masks<S: Simd>(leads: u64, trails: u64) -> bool {
    trails == (leads << 2) & full::<S>() && leads >> (S::BYTES - 2) == 0
}

/// Whether any unit of `a` or `b` is a surrogate.
#[inline(always)]
fn surrogates<S: Simd>(s: S, a: S::V, b: S::V) -> bool {
    let (f800, d800) = (s.splat16(0xF800), s.splat16(0xD800));
    let sa = s.eq16(s.and(a, f800), d800);
    let sb = s.eq16(s.and(b, f800), d800);
    let m = s.or(sa, sb);
    s.test_any(m, m)
}

/// A block without surrogates: `N` units to `N..3N` bytes; returns how
/// many.
///
/// # Safety
///
/// `out` is writable for `3N + 16` bytes.
#[inline(always)]
unsafe fn no_surrogate<S: Utf16Simd>(s: S, v: S::V, out: *mut u8) -> usize {
    if !s.test_any(v, s.splat16(0xFF80)) {
        // 1. ASCII: the block's bytes are the first `N` of the pack.
        // SAFETY: 16 bytes at `out`, `N <= 16`.
        unsafe { s.base().store(out, s.lane(s.narrow16(v, v), 0)) };
        units::<S>()
    } else {
        // SAFETY: as the caller guarantees.
        unsafe { mixed(s, v, out) }
    }
}

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
/// `out` is writable for `3N + 16` bytes.
#[inline(always)]
unsafe fn mixed<S: Utf16Simd>(s: S, v: S::V, out: *mut u8) -> usize {
    if !s.test_any(v, s.splat16(0xF800)) {
        // 3. 1 or 2 bytes a unit.
        // SAFETY: at most 2N bytes, in 16-byte stores at <= 2N - 16.
        unsafe { one_two(s, v, out) }
    } else {
        // 4. 1 to 3 bytes a unit.
        let (w0, w1, codes) = words123(s, v);
        // SAFETY: at most 3N bytes, in 16-byte stores at <= 3N - 12.
        unsafe { pack123(s, w0, w1, codes, out) }
    }
}

/// A block with a surrogate: the `N` units at `src` (`v`); returns `(units
/// read, bytes written, whether the block was whole, whether the bytes are
/// in `scratch` rather than at `out`)`. Not whole: it stopped before an
/// unpaired surrogate (or a pair cut by the end of the input).
///
/// # Safety
///
/// `src` is readable for `avail >= N` units, `out` and `scratch` writable
/// for `3N + 16` bytes.
#[inline(always)]
unsafe fn with_surrogates<S: Utf16Simd, const SWAP: bool>(
    s: S,
    v: S::V,
    src: *const u16,
    avail: usize,
    out: *mut u8,
    scratch: *mut u8,
) -> (usize, usize, bool, bool) {
    let n_units = units::<S>();
    let (leads, trails) = leads_trails(s, v);
    if leads == 0x3333_3333_3333_3333 & full::<S>() && trails == 0xCCCC_CCCC_CCCC_CCCC & full::<S>()
    {
        // 2. Pairs only.
        // SAFETY: 2N bytes at `out`.
        unsafe { pairs(s, v, out) };
        return (n_units, 2 * n_units, true, false);
    }
    if trails == (leads << 2) & full::<S>() {
        // Every trail follows a lead and every lead but one in the last
        // unit has its trail: path 4 with pairs, and a lead in the last
        // unit left to the next block (its 2 bytes are the last ones).
        // SAFETY: 3N + 16 bytes at `scratch`.
        let w = unsafe { one_two_three_pairs(s, v, leads, trails, scratch) };
        let open = (leads >> (S::BYTES - 2)) as usize & 1;
        return (n_units - open, w - 2 * open, true, true);
    }
    // 5. One by one.
    // SAFETY: as the caller guarantees (3N + 4 bytes at `out`).
    let (r, w, whole) = unsafe { s.block_units::<SWAP>(src, avail, out) };
    (r, w, whole, false)
}

/// `N / 2` pairs of units (lead, trail) to `N / 2` 4-byte characters.
///
/// # Safety
///
/// `out` is writable for `2N` bytes.
#[inline(always)]
unsafe fn pairs<S: Simd>(s: S, v: S::V, out: *mut u8) {
    let ten = s.splat32(0x3FF);
    let high = s.shl32::<10>(s.and(v, ten));
    let low = s.and(s.shr32::<16>(v), ten);
    let cp = s.add32(s.add32(high, low), s.splat32(0x1_0000));
    // Bytes (lane order): F0 | cp >> 18, then three continuations.
    let b0 = s.shr32::<18>(cp);
    let b1 = s.and(s.shr32::<4>(cp), s.splat32(0x3F00));
    let b2 = s.and(s.shl32::<10>(cp), s.splat32(0x3F_0000));
    let b3 = s.and(s.shl32::<24>(cp), s.splat32(0x3F00_0000));
    let bytes = s.or(s.or(b0, b1), s.or(b2, b3));
    let bytes = s.or(bytes, s.splat32(0x8080_80F0));
    // SAFETY: `2N = BYTES` bytes at `out`.
    unsafe { s.store(out, bytes) }
}

/// `N` units below U+0800 to `N..2N` bytes; returns how many.
///
/// # Safety
///
/// `out` is writable for `2N + 8` bytes.
#[inline(always)]
unsafe fn one_two<S: Utf16Simd>(s: S, v: S::V, out: *mut u8) -> usize {
    // Each lane: the lead byte C0 | u >> 6, then 80 | u & 3F.
    let lead = s.or(s.shr16::<6>(v), s.splat16(0xC0));
    let cont = s.or(s.and(v, s.splat16(0x3F)), s.splat16(0x80));
    let two = s.or(lead, s.shl16::<8>(cont));
    let is2 = s.gt_i16(v, s.splat16(0x7F));
    let lanes = s.blendv8(v, two, is2);
    // One bit a unit: needs two bytes.
    let m = s.bits16(is2);
    let sse = s.base();
    let mut n = 0;
    for k in 0..S::BYTES / 16 {
        let idx = ((m >> (8 * k)) & 0xFF) as usize;
        // SAFETY: `idx` is below 256, PACK12's length.
        let pack = unsafe { sse.load(PACK12.as_ptr().add(idx).cast()) };
        // SAFETY: `n <= 2N - 16` before this store of 16 bytes (8 to 16
        // bytes a group of 8 units).
        unsafe { sse.store(out.add(n), sse.shuffle8(s.lane(lanes, k), pack)) };
        n += 8 + idx.count_ones() as usize;
    }
    n
}

/// `N` units without surrogates as words: each unit becomes two 16-bit
/// words, which [`pack123`] interleaves into a 32-bit lane holding its
/// bytes in order: `w0` the first two bytes (`0ccccccc`; `110bbbbb
/// 10cccccc`; `1110aaaa 10bbbbbb`), `w1` the third (`10cccccc`). The 2-
/// and 3-byte forms of `w0` are one formula applied to `u` or to `u >> 6`.
/// Also the codes: 2 bits a unit, 0, 1 or 2 for 1, 2 or 3 bytes.
#[inline(always)]
fn words123<S: Simd>(s: S, u: S::V) -> (S::V, S::V, u64) {
    let zero = s.zero();
    let ascii = s.eq16(s.and(u, s.splat16(0xFF80)), zero);
    let short = s.eq16(s.and(u, s.splat16(0xF800)), zero);
    let six = s.splat16(0x3F);
    // 3-byte units: the formula of the 2-byte ones, on u >> 6, with the
    // lead tag E0 instead of C0.
    let v = s.blendv8(s.shr16::<6>(u), u, short);
    let tag = s.or(s.splat16(0x80C0), s.andnot(short, s.splat16(0x20)));
    let w0 = s.or(s.or(s.shr16::<6>(v), s.shl16::<8>(s.and(v, six))), tag);
    let w0 = s.blendv8(w0, u, ascii);
    let w1 = s.or(s.and(u, six), s.splat16(0x80));
    let even = EVEN & full::<S>();
    let codes = (!s.movemask8(ascii) & even) + (!s.movemask8(short) & even);
    (w0, w1, codes)
}

/// [`words123`] for `N` units with surrogates, all in pairs but for a lead
/// in the last unit (`leads` and `trails`: `movemask8` bits, two a unit):
/// each unit of a pair becomes two of the character's 4 bytes in its own
/// lane, so that every lane keeps 1 to 3 bytes as before. With the
/// character `c = 10000 + (lead & 3FF) << 10 + (trail & 3FF)` and `h = c >>
/// 10 = (lead & 3FF) + 40`, a lead makes `F0 | h >> 8`, `80 | h >> 2 & 3F`,
/// and a trail `80 | (lead & 3) << 4 | trail >> 6 & F`, `80 | trail & 3F`
/// (it takes two bits of the unit before it). A lead in the last unit makes
/// its 2 bytes too, the last of the output; the caller leaves them.
///
/// The one-by-one path took these blocks before: text with an emoji every
/// 8 characters ran at 0.3-0.5 times simdutf's AVX2 kernel (`transcode_min`
/// with `EMOJI_EVERY`).
///
/// # Safety
///
/// `out` is writable for `3N + 16` bytes.
#[inline(always)]
unsafe fn one_two_three_pairs<S: Utf16Simd>(
    s: S,
    u: S::V,
    leads: u64,
    trails: u64,
    out: *mut u8,
) -> usize {
    let (w0, w1, codes) = words123(s, u);
    let h = s.add16(s.and(u, s.splat16(0x3FF)), s.splat16(0x40));
    let lead = s.or(
        s.or(s.shr16::<8>(h), s.and(s.shl16::<6>(h), s.splat16(0x3F00))),
        s.splat16(0x80F0),
    );
    // The unit before each (0 before the first, which is no trail).
    let before = s.prev16(u);
    let trail = s.or(
        s.or(
            s.and(s.shl16::<4>(before), s.splat16(0x30)),
            s.and(s.shr16::<6>(u), s.splat16(0x0F)),
        ),
        s.or(s.and(s.shl16::<8>(u), s.splat16(0x3F00)), s.splat16(0x8080)),
    );
    let top6 = s.and(u, s.splat16(0xFC00));
    let is_lead = s.eq16(top6, s.splat16(0xD800));
    let is_trail = s.eq16(top6, s.splat16(0xDC00));
    let w0 = s.blendv8(s.blendv8(w0, lead, is_lead), trail, is_trail);
    // Surrogates are from `800`: code 2 (3 bytes) in `words123`, 1 here.
    let codes = codes - ((leads | trails) & EVEN & full::<S>());
    // SAFETY: as the caller guarantees.
    unsafe { pack123(s, w0, w1, codes, out) }
}

/// The bytes of `N` units from their words ([`words123`]) and codes,
/// packed with [`PACK123`] 4 units at a time; returns how many. Up to `N`
/// bytes of garbage follow (see [`Utf16Simd::store_last`]).
///
/// # Safety
///
/// `out` is writable for `3N + 16` bytes.
#[inline(always)]
unsafe fn pack123<S: Utf16Simd>(s: S, w0: S::V, w1: S::V, codes: u64, out: *mut u8) -> usize {
    // Lanes: units 0-3, 8-11, ... and 4-7, 12-15, ...
    let (first, second) = s.unpack16(w0, w1);
    let sse = s.base();
    let lanes = S::BYTES / 16;
    let mut n = 0;
    for k in 0..lanes {
        for (j, group) in [(0, first), (1, second)] {
            let idx = ((codes >> (16 * k + 8 * j)) & 0xFF) as usize;
            // SAFETY: `idx` is below 256, the tables' length.
            let pack = unsafe { sse.load(PACK123.as_ptr().add(idx).cast()) };
            let bytes = sse.shuffle8(s.lane(group, k), pack);
            // SAFETY: `n <= 3N - 4` before this store of 16 bytes (4 to 12
            // bytes a group of 4 units), inside the `3N + 16` guaranteed.
            unsafe {
                if k == lanes - 1 && j == 1 {
                    s.store_last(out.add(n), bytes);
                } else {
                    sse.store(out.add(n), bytes);
                }
            }
            n += usize::from(LEN123[idx]);
        }
    }
    n
}

/// The table entries of one width: `kernels!(arch::Token, level)`.
macro_rules! kernels {
    ($arch:ident :: $token:ident, $level:ident) => {
        codec_arch::enable! { $level;
            /// Native UTF-16 to UTF-8: the table entry.
            pub(crate) fn utf16_to_utf8(src: &[u16], dst: &mut [u8]) -> (usize, usize) {
                // SAFETY: `src` is valid for `src.len()` units.
                unsafe {
                    $crate::arch::generic::utf16_utf8::convert::<_, false>(
                        codec_arch::$arch::$token::new(),
                        src.as_ptr(),
                        src.len(),
                        dst,
                    )
                }
            }
        }

        codec_arch::enable! { $level;
            /// UTF-16 in bytes, swapped if `SWAP`, to UTF-8: the table entry.
            pub(crate) fn utf16_bytes_to_utf8<const SWAP: bool>(
                src: &[[u8; 2]],
                dst: &mut [u8],
            ) -> (usize, usize) {
                // SAFETY: `src` is valid for `src.len()` pairs of bytes;
                // `convert` reads it with unaligned loads only.
                unsafe {
                    $crate::arch::generic::utf16_utf8::convert::<_, SWAP>(
                        codec_arch::$arch::$token::new(),
                        src.as_ptr().cast(),
                        src.len(),
                        dst,
                    )
                }
            }
        }
    };
}
pub(crate) use kernels;
