//! The Latin-1 kernels, once for every register width and architecture
//! ([`Simd`], and [`Latin1Lanes`] for the two steps written per
//! architecture); x86-64's `{sse41,avx2,avx512}/latin1.rs` and aarch64's
//! table instantiate them with [`kernels!`].
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
//!   second (`80 | low six bits`); the two are interleaved (`punpck`,
//!   NEON's `zip`), and
//!   each half-lane of 8 characters drops the second bytes of its ASCII
//!   characters with one `pshufb` from `tables::PACK12` (which the UTF-16
//!   → UTF-8 kernels use for the same job), indexed by the 8 top bits.
//! - UTF-8 → Latin-1, validating as it converts (no separate validation
//!   pass): a register of ASCII is copied. Otherwise, if the register is
//!   well-formed UTF-8 of characters below U+0100 (every byte ASCII, a lead
//!   `C2`/`C3`, or a continuation byte, and the continuation bytes exactly
//!   the bytes after the leads), each byte position gets the character
//!   that starts there (a lead byte combined with the byte after it,
//!   loaded from one position on) and the positions of continuation bytes
//!   are dropped, 8 at a time, with a `pshufb` from `tables::PACK8`. A
//!   register that ends with a lead byte takes the continuation byte after
//!   it too (checked), so every block starts at a character. Any other
//!   register ends the kernel: the scalar code finds the error, or the
//!   character above U+00FF, exactly.
//!
//! The last two write a variable amount of output with 16- and 8-byte
//! stores, through `block::run`.

use super::super::block::{self, Block};
use crate::scalar::is_continuation;
use codec_arch::{Simd, simd::load4};

/// The two 16-byte steps of the Latin-1 kernels that each architecture
/// writes with its own interleave and shuffle instructions, implemented by
/// the 16-byte tokens (`Sse41` in `x86_64/lanes.rs`, `Neon` in
/// `aarch64/lanes.rs`); a wider token reaches them through
/// [`Simd::base`] and [`Simd::lane`].
pub(crate) trait Latin1Lanes: Simd {
    /// Writes the UTF-8 of the 16 Latin-1 characters of `x`, whose bytes
    /// from `80` are the bits of `high`, at `dst`; returns its length. Two
    /// 16-byte stores, the second at the end of the first's output: up to
    /// 8 bytes of garbage follow the output.
    ///
    /// # Safety
    ///
    /// `dst` is valid for writes of the output and 16 bytes after the
    /// output of the first 8 characters.
    unsafe fn expand_latin1(self, x: Self::V, high: u16, dst: *mut u8) -> usize;

    /// Writes the bytes of `x` that `starts` selects at `dst`, in order;
    /// returns how many. Two 8-byte stores, the second at the end of the
    /// first's output: up to 8 bytes of garbage follow the output.
    ///
    /// # Safety
    ///
    /// `dst` is valid for writes of the output and 8 bytes after the output
    /// of the first half.
    unsafe fn pack_starts(self, x: Self::V, starts: u16, dst: *mut u8) -> usize;
}

/// Latin-1 to UTF-16 or UTF-32 (the units of `dst`, `u16` or `u32`): one
/// zero-extended register at a time; the last one overlaps the one before
/// (rewriting the same units) instead of leaving a tail.
#[inline(always)]
pub(crate) fn widen<S: Simd<Base: Latin1Lanes>, U: Copy>(
    s: S,
    src: &[u8],
    dst: &mut [U],
) -> (usize, usize) {
    let unit = size_of::<U>();
    let n = src.len().min(dst.len());
    let k = S::BYTES / unit;
    if n < k {
        return (0, 0);
    }
    let (p, q) = (src.as_ptr(), dst.as_mut_ptr().cast::<u8>());
    steps(
        n,
        k,
        #[inline(always)]
        |at| {
            // SAFETY: `at + k <= n`, which is at most `src.len()` and
            // `dst.len()`: `k` bytes are read and `k` units written.
            unsafe {
                let v = if unit == 2 {
                    s.load_widen8to16(p.add(at))
                } else {
                    s.load_widen8to32(p.add(at))
                };
                s.store(q.add(unit * at), v);
            }
            true
        },
    );
    (n, n)
}

/// Runs `step(at)` for `at = 0, k, 2k, ...` while `at + k <= n`, two
/// steps a round (so that the loop's counter is not one long dependency
/// chain), then once at `n - k` if units remain, overlapping the step
/// before: every unit of `..n` is covered, and no step reads or writes past
/// `n`. Stops at the first step that returns `false`; returns where the
/// steps got to (`n`, or the start of that step). `n >= k > 0`.
#[inline(always)]
fn steps(n: usize, k: usize, mut step: impl FnMut(usize) -> bool) -> usize {
    let mut i = 0;
    while n - i >= 2 * k {
        if !step(i) {
            return i;
        }
        if !step(i + k) {
            return i + k;
        }
        i += 2 * k;
    }
    if n - i >= k {
        if !step(i) {
            return i;
        }
        i += k;
    }
    if i < n && step(n - k) {
        return n;
    }
    i
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

/// UTF-16 or UTF-32 (the units of `src`, `u16` or `u32`) to Latin-1,
/// `S::BYTES` units (two or four registers) at a time, up to the first
/// group with a unit above `FF`, then one at a time.
#[inline(always)]
pub(crate) fn narrow<S: Simd<Base: Latin1Lanes>, U: Copy + Into<u32>>(
    s: S,
    src: &[U],
    dst: &mut [u8],
) -> (usize, usize) {
    let wide = size_of::<U>() == 4;
    let high = if wide {
        s.splat32(!0xFF)
    } else {
        s.splat16(0xFF00)
    };
    let n = src.len().min(dst.len());
    let k = S::BYTES;
    let (p, q) = (src.as_ptr().cast::<u8>(), dst.as_mut_ptr());
    let i = if n < k {
        0
    } else {
        steps(
            n,
            k,
            #[inline(always)]
            |at| {
                let r = p.wrapping_add(size_of::<U>() * at);
                let v = if wide {
                    // SAFETY: units `at..at + k` are inside `src` (`at + k
                    // <= n`): four registers of `k / 4` units.
                    let [a, b, c, d] = unsafe { load4(s, r) };
                    if s.test_any(s.or(s.or(a, b), s.or(c, d)), high) {
                        return false;
                    }
                    s.narrow32(a, b, c, d)
                } else {
                    // SAFETY: as above, two registers of `k / 2` units.
                    let (a, b) = unsafe { (s.load(r), s.load(r.add(S::BYTES))) };
                    if s.test_any(s.or(a, b), high) {
                        return false;
                    }
                    s.narrow16(a, b)
                };
                // SAFETY: bytes `at..at + k` are inside `dst` (`at + k <= n`).
                unsafe { s.store(q.add(at), v) };
                true
            },
        )
    };
    let i = narrow_tail(src, dst, i, n);
    (i, i)
}

/// Whether the `4 * BYTES` bytes at `p` are ASCII: the long blocks of the
/// kernels between UTF-8 and Latin-1, which copy them as they are.
///
/// # Safety
///
/// `p` is valid for reads of `4 * BYTES` bytes.
#[inline(always)]
unsafe fn ascii4<S: Simd<Base: Latin1Lanes>>(s: S, p: *const u8) -> bool {
    // SAFETY: the caller's guarantee.
    let [a, b, c, d] = unsafe { load4(s, p) };
    s.movemask8(s.or(s.or(a, b), s.or(c, d))) == 0
}

/// Stores the four registers `v` at `q`, one after another.
///
/// # Safety
///
/// `q` is valid for writes of `4 * BYTES` bytes.
#[inline(always)]
unsafe fn store4<S: Simd>(s: S, q: *mut u8, v: [S::V; 4]) {
    let [a, b, c, d] = v;
    // SAFETY: the caller's guarantee.
    unsafe {
        s.store(q, a);
        s.store(q.add(S::BYTES), b);
        s.store(q.add(2 * S::BYTES), c);
        s.store(q.add(3 * S::BYTES), d);
    }
}

/// Copies `len` bytes, a multiple of `BYTES`, from `p` to `dst`, a
/// register at a time.
///
/// # Safety
///
/// `p` is valid for reads and `dst` for writes of `len` bytes.
#[inline(always)]
unsafe fn copy<S: Simd<Base: Latin1Lanes>>(s: S, p: *const u8, dst: *mut u8, len: usize) {
    let mut k = 0;
    // Four registers a round while they fit: the loop's own instructions
    // were a third of the kernel's on ASCII (callgrind).
    while len - k >= 4 * S::BYTES {
        // SAFETY: the caller's guarantee; `k + 4 * BYTES <= len`.
        unsafe { store4(s, dst.add(k), load4(s, p.add(k))) };
        k += 4 * S::BYTES;
    }
    while k < len {
        // SAFETY: the caller's guarantee; `k + BYTES <= len`.
        unsafe { s.store(dst.add(k), s.load(p.add(k))) };
        k += S::BYTES;
    }
}

/// The length of the run of ASCII from `p`: whole groups of four registers,
/// at most `max` bytes.
///
/// # Safety
///
/// `p` is valid for reads of `max` bytes.
#[inline(always)]
unsafe fn ascii_run<S: Simd<Base: Latin1Lanes>>(s: S, p: *const u8, max: usize) -> usize {
    block::run_len(
        max.min(block::RUN),
        4 * S::BYTES,
        #[inline(always)]
        // SAFETY: `run_len` asks for a group only if it fits in `max`.
        |k| unsafe { ascii4(s, p.add(k)) },
    )
}

/// A block of Latin-1 for [`latin1_to_utf8`]: four registers of ASCII, or
/// one register and its non-ASCII bytes. Blocks hold where they are and
/// what was found there, not registers: they are moved from one loop
/// iteration to the next, and reloading from the L1 cache is cheaper than
/// moving registers through memory (measured: holding registers made the
/// loop 2-3 times slower).
#[derive(Clone, Copy)]
struct FromLatin1<S: Simd<Base: Latin1Lanes>> {
    s: S,
    p: *const u8,
    /// The length of a run of ASCII, or 0 for one register.
    ascii: usize,
    high: u64,
}

impl<S: Simd<Base: Latin1Lanes>> Block<u8> for FromLatin1<S> {
    #[inline(always)]
    fn read(&self) -> usize {
        if self.ascii > 0 { self.ascii } else { S::BYTES }
    }

    #[inline(always)]
    fn written(&self) -> usize {
        self.read() + self.high.count_ones() as usize
    }

    #[inline(always)]
    fn stray(&self) -> usize {
        // The last half-lane's 16-byte store holds 8 to 16 bytes of output.
        if self.high == 0 {
            0
        } else {
            stray::<S>(self.high)
        }
    }

    #[inline(always)]
    unsafe fn store(&self, dst: *mut u8) {
        if self.high == 0 {
            // SAFETY: the block's input is readable; `written()` is its
            // length, which the caller provides.
            unsafe { copy(self.s, self.p, dst, self.read()) };
            return;
        }
        // SAFETY: the block's register is readable; `written() + stray()`
        // is its output and the garbage after it.
        unsafe { expand(self.s, self.s.load(self.p), self.high, dst) };
    }
}

/// The garbage bytes after the output of a register's last half-lane,
/// whose 8 bytes are the top 8 of the register's `bits` (the high bytes of
/// [`expand`], the starts of [`ToLatin1`]'s store): 8, less one for each
/// bit set, which the output takes.
#[inline(always)]
fn stray<S: Simd>(bits: u64) -> usize {
    8 - (bits >> (S::BYTES - 8)).count_ones() as usize
}

/// Writes the UTF-8 of the Latin-1 register `v`, whose bytes from `80` are
/// the bits of `high`, at `dst`, and up to 8 bytes of garbage after it;
/// returns its length (`BYTES + high.count_ones()`).
///
/// # Safety
///
/// `dst` is valid for writes of the output and the 8 bytes after it.
#[inline(always)]
unsafe fn expand<S: Simd<Base: Latin1Lanes>>(s: S, v: S::V, high: u64, dst: *mut u8) -> usize {
    // SAFETY: the output of lanes `..=k`, then 8 bytes for the last lane,
    // are inside what the caller provides; each store writes 16 bytes of
    // which the first `8 + high bits` are the output.
    unsafe {
        by_lanes(
            s,
            v,
            high,
            dst,
            #[inline(always)]
            |x, high, d| s.base().expand_latin1(x, high, d),
        )
    }
}

/// Runs `step` on each 16-byte lane of `v` in order, with the lane's 16
/// bits of `bits` and `dst` moved on by what the lanes before it wrote;
/// returns the total written. The lane loop of [`expand`] and of
/// [`ToLatin1`]'s store.
///
/// # Safety
///
/// Each call of `step` is sound where it is made.
#[inline(always)]
unsafe fn by_lanes<S: Simd<Base: Latin1Lanes>>(
    s: S,
    v: S::V,
    bits: u64,
    dst: *mut u8,
    step: impl Fn(<S::Base as Simd>::V, u16, *mut u8) -> usize,
) -> usize {
    let mut o = 0;
    for k in 0..S::BYTES / 16 {
        // (`wrapping_add`: `step`'s own contract bounds the pointer.)
        o += step(s.lane(v, k), (bits >> (16 * k)) as u16, dst.wrapping_add(o));
    }
    o
}

/// Latin-1 to UTF-8, one register at a time: copied if ASCII, expanded
/// otherwise.
///
/// The main loop stores straight into `dst`, garbage included: it runs
/// only while the register after the current one exists and fits, so that
/// whatever follows writes over the garbage (the next round, or the one
/// register after the loop, which goes through a scratch buffer). Then the
/// block loop ([`latin1_to_utf8_blocks`]) takes what is left but a
/// register, and a last register of ASCII that overlaps the one before
/// (the bytes it takes again have the same outputs at the same places)
/// ends the input without a scalar tail.
///
/// Measured (Korean cut to Latin-1: ASCII with one `·` in about 150
/// bytes): the block loop alone looked for runs of four registers of ASCII
/// and fell back to one-register blocks around each `·`, a block's look-ahead
/// each; 0.52-0.68 of simdutf at 64 KiB and 1 MiB.
#[inline(always)]
pub(crate) fn latin1_to_utf8<S: Simd<Base: Latin1Lanes>>(
    s: S,
    src: &[u8],
    dst: &mut [u8],
) -> (usize, usize) {
    let (n, cap) = (src.len(), dst.len());
    let (p, q) = (src.as_ptr(), dst.as_mut_ptr());
    let (mut i, mut o) = (0, 0);
    // Whether the last register stored left garbage after its output.
    let mut garbage = false;
    while n - i >= 2 * S::BYTES && cap - o >= 4 * S::BYTES {
        // SAFETY: `i + BYTES <= n`.
        let v = unsafe { s.load(p.add(i)) };
        let high = s.movemask8(v);
        // Four registers of ASCII at once where they are (one test, and
        // the loop's own instructions once for four: pure ASCII was 10-30%
        // slower a register at a time), tried only where this one is
        // ASCII: text with a letter every few words then skips the test
        // (the Latin-1 text of `transcode_min`, AVX2 and SSE4.1 on Zen 4:
        // +18%).
        // SAFETY: `i + 4 * BYTES <= n`, checked first.
        if high == 0 && n - i >= 4 * S::BYTES && unsafe { ascii4(s, p.add(i)) } {
            // SAFETY: as above, and `o + 4 * BYTES <= cap`.
            unsafe { copy(s, p.add(i), q.add(o), 4 * S::BYTES) };
            i += 4 * S::BYTES;
            o += 4 * S::BYTES;
            garbage = false;
            continue;
        }
        if high == 0 {
            // SAFETY: `o + BYTES <= cap`.
            unsafe { s.store(q.add(o), v) };
            o += S::BYTES;
            garbage = false;
        } else {
            // SAFETY: the output is at most `2 * BYTES` bytes, and the 8
            // after it fit in the `4 * BYTES` the loop requires.
            o += unsafe { expand(s, v, high, q.add(o)) };
            garbage = true;
        }
        i += S::BYTES;
    }
    if garbage {
        // The loop required this register and room for it (`n - i >=
        // BYTES`, `cap - o >= 2 * BYTES`): it covers the garbage, and goes
        // through a scratch buffer so as to leave none of its own. (The
        // block loop below would also write over the garbage first, as it
        // is today; this keeps the kernel's contract from depending on it.
        // So `latin1_high_bytes_at_every_position` does not fail without
        // this step: checked by removing it.)
        let mut scratch = [0u8; 2 * 64 + 16];
        let len = scratch.len().min(cap - o);
        if let (Some(from), Some(out)) = (src.get(i..i + S::BYTES), dst.get_mut(o..o + len)) {
            // SAFETY: `from` is one register.
            let v = unsafe { s.load(from.as_ptr()) };
            // SAFETY: the output and the 8 bytes after it (at most
            // `2 * BYTES + 8 <= 136`) fit in `scratch`.
            let w = unsafe { expand(s, v, s.movemask8(v), scratch.as_mut_ptr()) };
            if let (Some(a), Some(b)) = (scratch.get(..w), out.get_mut(..w)) {
                b.copy_from_slice(a);
                i += S::BYTES;
                o += w;
            }
        }
    }
    if let (Some(rest), Some(out)) = (src.get(i..), dst.get_mut(o..)) {
        let (r, w) = latin1_to_utf8_blocks(s, rest, out);
        i += r;
        o += w;
    }
    let left = n - i;
    if left > 0 && left < S::BYTES && n >= S::BYTES && cap - o >= left {
        let t = n - S::BYTES;
        // SAFETY: `t + BYTES == n`.
        let v = unsafe { s.load(p.add(t)) };
        if s.movemask8(v) == 0 {
            // SAFETY: the bytes `t..i` are ASCII and converted, one byte
            // each: their outputs are `dst[o - (i - t)..o]`, and `o + left
            // <= cap`.
            unsafe { s.store(q.add(o - (i - t)), v) };
            return (n, o + left);
        }
    }
    (i, o)
}

/// Latin-1 to UTF-8 by blocks of four registers of ASCII or one register.
#[inline(always)]
fn latin1_to_utf8_blocks<S: Simd<Base: Latin1Lanes>>(
    s: S,
    src: &[u8],
    dst: &mut [u8],
) -> (usize, usize) {
    let n = src.len();
    let p = src.as_ptr();
    block::run(
        dst,
        #[inline(always)]
        |i, room| {
            let left = n.checked_sub(i)?;
            let b = p.wrapping_add(i);
            // SAFETY: `i + left == n`.
            let ascii = unsafe { ascii_run(s, b, left.min(room)) };
            if ascii > 0 {
                return Some(FromLatin1 {
                    s,
                    p: b,
                    ascii,
                    high: 0,
                });
            }
            if left < S::BYTES {
                return None;
            }
            // SAFETY: `i + BYTES <= n`.
            let high = s.movemask8(unsafe { s.load(b) });
            Some(FromLatin1 {
                s,
                p: b,
                ascii: 0,
                high,
            })
        },
    )
}

/// A block of UTF-8 for [`utf8_to_latin1`]: four registers of ASCII, or one
/// register of characters below U+0100 (the byte after it is read too).
#[derive(Clone, Copy)]
struct ToLatin1<S: Simd<Base: Latin1Lanes>> {
    s: S,
    p: *const u8,
    /// The length of a run of ASCII (groups of four registers, or one
    /// register), or 0 for one register with other characters.
    ascii: usize,
    /// The positions where a character starts (all of them: ASCII).
    starts: u64,
    /// Whether the last byte is a lead byte, whose continuation byte the
    /// block takes too.
    carry: bool,
}

impl<S: Simd<Base: Latin1Lanes>> ToLatin1<S> {
    /// All the positions of a register.
    const ALL: u64 = u64::MAX >> (64 - S::BYTES);
}

impl<S: Simd<Base: Latin1Lanes>> Block<u8> for ToLatin1<S> {
    #[inline(always)]
    fn read(&self) -> usize {
        if self.ascii > 0 {
            self.ascii
        } else {
            S::BYTES + usize::from(self.carry)
        }
    }

    #[inline(always)]
    fn written(&self) -> usize {
        if self.ascii > 0 {
            self.ascii
        } else {
            self.starts.count_ones() as usize
        }
    }

    #[inline(always)]
    fn stray(&self) -> usize {
        if self.ascii > 0 || self.starts == Self::ALL {
            0
        } else {
            stray::<S>(self.starts)
        }
    }

    #[inline(always)]
    unsafe fn store(&self, dst: *mut u8) {
        let s = self.s;
        if self.ascii > 0 {
            // SAFETY: the block's input is readable; `written()` is its
            // length, which the caller provides.
            unsafe { copy(s, self.p, dst, self.ascii) };
            return;
        }
        // SAFETY: the block's register and the byte after it are readable.
        let (x, next) = unsafe { (s.load(self.p), s.load(self.p.add(1))) };
        // At a lead byte (C2 or C3: its top bit is set and it is not a
        // continuation byte, 80..=BF, signed below C0), its low two bits
        // and the next byte's low six make the character.
        let c0 = s.splat8(0xC0);
        let lead = s.andnot(s.gt_i8(c0, x), x);
        let combined = s.or(s.and(s.shl16::<6>(x), c0), s.and(next, s.splat8(0x3F)));
        let v = s.blendv8(x, combined, lead);
        if self.starts == Self::ALL {
            // SAFETY: `written() == BYTES`, which the caller provides.
            unsafe { s.store(dst, v) };
            return;
        }
        // SAFETY: as in `FromLatin1::store`: the output so far, then
        // 8-byte stores whose garbage is at most `stray()` bytes past the
        // last one's output.
        unsafe {
            by_lanes(
                s,
                v,
                self.starts,
                dst,
                #[inline(always)]
                |x, starts, d| s.base().pack_starts(x, starts, d),
            )
        };
    }
}

/// UTF-8 to Latin-1 by blocks of four registers of ASCII or one register,
/// up to the first block that holds a character above U+00FF or anything
/// that is not well-formed UTF-8: the kernel validates what it converts, so
/// any bytes may be given to it.
#[inline(always)]
pub(crate) fn utf8_to_latin1<S: Simd<Base: Latin1Lanes>>(
    s: S,
    src: &[u8],
    dst: &mut [u8],
) -> (usize, usize) {
    let (mut i, mut o) = (0, 0);
    // Runs of ASCII are copied by `ascii_copy`, which checks and stores
    // each group of four registers in one pass; the blocks take the rest,
    // and give back (end `block::run`) at the next run. The blocks'
    // own ASCII runs, checked in full and then copied, read the text
    // twice: measured (interleaved, 64 KiB of ASCII) 0.61-0.73 of
    // simdutf's speed with fewer instructions.
    loop {
        let a = ascii_copy(
            s,
            src.get(i..).unwrap_or(&[]),
            dst.get_mut(o..).unwrap_or(&mut []),
        );
        i += a;
        o += a;
        let (d, back) = utf8_to_latin1_direct(s, src, dst, i, o);
        i = d.0;
        o = d.1;
        if back {
            continue;
        }
        let rest = src.get(i..).unwrap_or(&[]);
        let (n, p) = (rest.len(), rest.as_ptr());
        // Whether the blocks ended at a run (then `ascii_copy` goes on),
        // rather than at the end or at something the scalar code decides.
        let mut at_run = false;
        let seen = &mut at_run;
        let (r, w) = block::run(
            dst.get_mut(o..).unwrap_or(&mut []),
            #[inline(always)]
            move |i, room| {
                let left = n.checked_sub(i)?;
                let b = p.wrapping_add(i);
                // SAFETY: `i + left == n`.
                let ascii = unsafe { ascii_run(s, b, left.min(room)) };
                // A run after other blocks is `ascii_copy`'s.
                if ascii > 0 && i > 0 {
                    *seen = true;
                    return None;
                }
                if ascii > 0 {
                    return Some(ToLatin1 {
                        s,
                        p: b,
                        ascii,
                        starts: 0,
                        carry: false,
                    });
                }
                // The block reads one byte past its register.
                if left <= S::BYTES {
                    return None;
                }
                // SAFETY: `i + BYTES + 1 <= n`.
                let x = unsafe { s.load(b) };
                let high = s.movemask8(x);
                if high == 0 {
                    // One register of ASCII (text with few characters above
                    // U+007F, and the last registers of ASCII): copied, not
                    // put through the combining of `store`.
                    return Some(ToLatin1 {
                        s,
                        p: b,
                        ascii: S::BYTES,
                        starts: 0,
                        carry: false,
                    });
                }
                // The block starts at a character: nothing is carried.
                // SAFETY: `i + BYTES + 1 <= n`.
                let (starts, last) = unsafe { below_0100(s, b, x, high, 0) }?;
                Some(ToLatin1 {
                    s,
                    p: b,
                    ascii: 0,
                    starts,
                    carry: last != 0,
                })
            },
        );
        i += r;
        o += w;
        // (No progress cannot follow a run, but must never loop.)
        if !at_run || a + r == 0 {
            break;
        }
    }
    utf8_to_latin1_tail(src, dst, i, o)
}

/// The register `x` at `p`, not all ASCII (`high`, the top bits of its
/// bytes, is not 0), whose first byte continues a lead of the register
/// before if `carry` is 1: if it is UTF-8 of characters below U+0100 as far
/// as it goes, `Some((starts, last))`, the positions where its characters
/// start and whether its last byte is a lead (1 or 0), whose continuation
/// byte, the byte after the register, is checked too.
///
/// The kernels validate what they convert, so the input need not have been
/// validated: every byte is ASCII, a lead C2 or C3, or a continuation byte
/// (80..=BF: signed, below C0, -64); each lead is followed by a
/// continuation byte and each continuation byte follows a lead. Anything
/// else (a character above U+00FF, C0, C1, a misplaced byte) ends the
/// kernel, and the scalar code, which is exact, decides what it is. Cost: 4
/// to 6 instructions a register (callgrind), where a separate validation
/// pass cost about as much as the conversion.
///
/// # Safety
///
/// `p` is valid for reads of `BYTES + 1` bytes.
#[inline(always)]
unsafe fn below_0100<S: Simd<Base: Latin1Lanes>>(
    s: S,
    p: *const u8,
    x: S::V,
    high: u64,
    carry: u64,
) -> Option<(u64, u64)> {
    let all = ToLatin1::<S>::ALL;
    let cont = s.movemask8(s.gt_i8(s.splat8(0xC0), x));
    let lead = s.movemask8(s.eq8(s.and(x, s.splat8(0xFE)), s.splat8(0xC2)));
    if high != cont | lead || cont != (lead << 1 | carry) & all {
        return None;
    }
    let last = lead >> (S::BYTES - 1);
    // SAFETY: the caller's guarantee.
    if last != 0 && !is_continuation(unsafe { *p.add(S::BYTES) }) {
        return None;
    }
    Some((!cont & all, last))
}

/// UTF-8 to Latin-1 from `src[i..]` to `dst[o..]` a register at a time,
/// straight into `dst`, while each register is ASCII or characters below
/// U+0100 (validated as the blocks of [`utf8_to_latin1`] are); returns the
/// new `(i, o)`, and whether it stopped at four registers of ASCII in a
/// row (for `ascii_copy`) rather than at something the blocks or the
/// scalar code must decide, or the end.
///
/// A lead in a register's last byte is converted with the byte after it
/// (checked to be a continuation byte first), and the next register
/// starts at that continuation byte, which is then not a character start
/// and is accepted by the carried lead: every register starts a whole
/// register on, so the next load does not wait for this one's masks. The
/// blocks started the next register one byte on instead; on the Latin-1
/// text that chain bound the loop (see docs/results/transcode.md).
///
/// The packed stores leave up to 8 bytes of garbage after the output,
/// which the next register's stores cover; where the loop ends after one,
/// the 8 bytes `dst` held there, read before the stores, are written back,
/// so `dst` changes only up to the returned `o`.
#[inline(always)]
fn utf8_to_latin1_direct<S: Simd<Base: Latin1Lanes>>(
    s: S,
    src: &[u8],
    dst: &mut [u8],
    mut i: usize,
    mut o: usize,
) -> ((usize, usize), bool) {
    const ALL_ASCII: u32 = 4;
    let (n, cap) = (src.len(), dst.len());
    let (p, q) = (src.as_ptr(), dst.as_mut_ptr());
    let (mut carry, mut ascii) = (0, 0);
    let (mut saved, mut dirty) = (0u64, false);
    // One byte after the register is read; 8 bytes after the output are
    // kept for the write-back.
    let back = loop {
        if !(n.saturating_sub(i) > S::BYTES && cap.saturating_sub(o) >= S::BYTES + 8) {
            break false;
        }
        // SAFETY: `i + BYTES < n`.
        let x = unsafe { s.load(p.add(i)) };
        let high = s.movemask8(x);
        if high == 0 {
            // (A carried lead's continuation byte would have its top bit.)
            debug_assert_eq!(carry, 0);
            // SAFETY: `o + BYTES <= cap`.
            unsafe { s.store(q.add(o), x) };
            dirty = false;
            i += S::BYTES;
            o += S::BYTES;
            ascii += 1;
            if ascii == ALL_ASCII {
                break true;
            }
            continue;
        }
        // SAFETY: `i + BYTES < n`.
        let at = unsafe { p.add(i) };
        // As in `utf8_to_latin1`'s blocks, with the carried lead.
        // SAFETY: `i + BYTES < n`.
        let Some((starts, last)) = (unsafe { below_0100(s, at, x, high, carry) }) else {
            break false;
        };
        let block = ToLatin1 {
            s,
            p: at,
            ascii: 0,
            starts,
            carry: false,
        };
        let w = block.written();
        // SAFETY: the block reads `i..=i + BYTES`, inside `src`; it
        // writes `w + stray()` bytes (`stray() <= 8`) at `o`, and the 8
        // bytes at `o + w` are read first: `o + w + 8 <= cap`. The last
        // register's stores reached `o + 8` at most, and `w >= 8` (a
        // register holds at least half as many characters as bytes), so
        // those 8 bytes are not ones it wrote.
        unsafe {
            saved = q.add(o + w).cast::<u64>().read_unaligned();
            block.store(q.add(o));
        }
        dirty = block.stray() > 0;
        i += S::BYTES;
        o += w;
        carry = last;
        ascii = 0;
    };
    if dirty {
        // SAFETY: the 8 bytes at `o` are those read into `saved`.
        unsafe { q.add(o).cast::<u64>().write_unaligned(saved) };
    }
    // The carried lead's continuation byte is converted.
    ((i + carry as usize, o), back)
}

/// The run of ASCII at the start of `src`, in groups of four registers,
/// copied to `dst` as it is checked; returns its length (exactly what was
/// written).
#[inline(always)]
fn ascii_copy<S: Simd<Base: Latin1Lanes>>(s: S, src: &[u8], dst: &mut [u8]) -> usize {
    let n = src.len().min(dst.len());
    let (p, q) = (src.as_ptr(), dst.as_mut_ptr());
    let mut k = 0;
    while n - k >= 4 * S::BYTES {
        // SAFETY: `k + 4 * BYTES <= n`, within both slices.
        let [a, b, c, d] = unsafe { load4(s, p.add(k)) };
        if s.movemask8(s.or(s.or(a, b), s.or(c, d))) != 0 {
            break;
        }
        // SAFETY: as above.
        unsafe { store4(s, q.add(k), [a, b, c, d]) };
        k += 4 * S::BYTES;
    }
    k
}

/// The characters from `src[i..]` to `dst[o..]` one at a time while they
/// are ASCII or a `C2`/`C3` lead and its continuation byte: the last bytes,
/// fewer than a register, that the blocks leave. Without it those went
/// through the scalar step, a decode and an encode a character: on the
/// Hindi text cut to Latin-1 (about 350 bytes of ASCII for 1 KiB of the
/// original), half the kernel's instructions (callgrind). Stops at
/// anything else, which the scalar step decides.
#[inline(always)]
fn utf8_to_latin1_tail(src: &[u8], dst: &mut [u8], mut i: usize, mut o: usize) -> (usize, usize) {
    // Words of 8 ASCII bytes first.
    while let (Some(w), Some(d)) = (src.get(i..i + 8), dst.get_mut(o..o + 8)) {
        let Ok(word) = <[u8; 8]>::try_from(w) else {
            break;
        };
        if u64::from_ne_bytes(word) & 0x8080_8080_8080_8080 != 0 {
            break;
        }
        d.copy_from_slice(w);
        i += 8;
        o += 8;
    }
    while let (Some(&b), Some(d)) = (src.get(i), dst.get_mut(o)) {
        if b < 0x80 {
            *d = b;
            i += 1;
        } else if b & 0xFE == 0xC2
            && let Some(&c) = src.get(i + 1)
            && is_continuation(c)
        {
            *d = (b << 6) | (c & 0x3F);
            i += 2;
        } else {
            break;
        }
        o += 1;
    }
    (i, o)
}

/// Defines the Latin-1 kernels of the table for the token
/// `codec_arch::$arch::$token`, whose
/// features are the `codec_arch` level `$level`: safe `#[target_feature]` functions, which
/// coerce to the table's `unsafe fn` pointers.
macro_rules! kernels {
    ($arch:ident :: $token:ident, $level:ident) => {
        use crate::arch::generic::latin1;
        use codec_arch::$arch::$token;

        crate::arch::generic::latin1::entry_points! { $token, $level;
            /// Latin-1 to UTF-8.
            latin1_to_utf8(u8 => u8) = latin1_to_utf8;
            /// Latin-1 to UTF-16.
            latin1_to_utf16(u8 => u16) = widen;
            /// Latin-1 to UTF-32.
            latin1_to_utf32(u8 => u32) = widen;
            /// UTF-8 (any bytes) to Latin-1, up to a character above U+00FF or
            /// anything that is not well-formed.
            utf8_to_latin1(u8 => u8) = utf8_to_latin1;
            /// UTF-16 to Latin-1, up to a unit above `FF`.
            utf16_to_latin1(u16 => u8) = narrow;
            /// UTF-32 to Latin-1, up to a unit above `FF`.
            utf32_to_latin1(u32 => u8) = narrow;
        }
    };
}
pub(crate) use kernels;

/// For [`kernels!`]: each kernel `$name`, the generic `latin1::$generic`
/// compiled for `$level` with the token `$token`.
macro_rules! entry_points {
    ($token:ident, $level:ident;
     $( $(#[$doc:meta])* $name:ident($from:ty => $to:ty) = $generic:ident; )*) => {$(
        codec_arch::enable! { $level;
            $(#[$doc])*
            pub(crate) fn $name(src: &[$from], dst: &mut [$to]) -> (usize, usize) {
                latin1::$generic($token::new(), src, dst)
            }
        }
    )*};
}
pub(crate) use entry_points;
