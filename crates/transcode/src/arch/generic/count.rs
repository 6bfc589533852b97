//! The count and length kernels, once for every register width and
//! architecture ([`Simd`]); x86-64's `{sse41,avx2,avx512}/count.rs` and
//! aarch64's `neon.rs` instantiate them with [`kernels!`].
//!
//! Every count is a sum over lanes. A per-lane function returns, for each
//! lane, minus its contribution (comparisons give -1 for "yes"), and the
//! sums subtract it from counters of the lane's width, which are added up
//! (`psadbw` for bytes) before they can wrap. The last, partial register is
//! loaded so that it ends at the end of the input, overlapping what was
//! already counted, and its lanes before the first uncounted one are masked
//! off: no load reads outside the slice, and short tails cost one register,
//! not a scalar loop. Inputs shorter than a register use the scalar
//! definitions of `crate::count::scalar`, which every kernel must equal.
//!
//! The UTF-8 counts take valid UTF-8 (a `&str`, or what utf8-simd
//! validated); on other bytes they return what the scalar definitions
//! return (bytes that are not continuation bytes, and so on), a number
//! that is just not meaningful (the unit test below checks it). The UTF-16
//! and UTF-32 counts are exact on any input: a surrogate pair is a lead
//! surrogate whose next unit is a trail surrogate, found by loading each
//! register a second time, one unit further on; the UTF-32 lengths take a
//! second pass when a unit is above `10FFFF` (below, before
//! `utf8_len_from_utf32`).
//!
//! Each unrolled register has a counter of its own: with one, the loops
//! were bound by the latency of that counter's chain (count-utf8 0.76 ->
//! 1.22 of simdutf on Skylake-SP; docs/results/transcode.md, "Decisions
//! and dead ends", which also has the masked-subtract dead end).

use crate::count::scalar;
use codec_arch::Simd;

/// Registers per round of the main loops: four independent loads, each
/// with a counter of its own, so that the counters' dependency chains are
/// one register long a round. The first version summed the four into one
/// counter; LLVM keeps such a sum as a chain of subtractions (it even turns
/// a tree `(f0 + f1) + (f2 + f3)` back into one, and for the UTF-32 lengths
/// that chain was 12 `vpsubd` a round), so the loop ran at the chain's
/// latency: count-utf8 at 4 cycles per 128 bytes with AVX2, 0.89-1.17x
/// simdutf. LLVM does not merge separate loop-carried counters. They are
/// added up when they are flushed, and their sum must fit a lane.
const UNROLL: usize = 4;

/// Rounds between two flushes of counters of lanes that hold up to `cap`
/// together, when a round adds up to `UNROLL * MAX` a lane, leaving room
/// for the tail's `UNROLL` more registers (at most `UNROLL - 1` whole ones
/// and the partial last one), so that the tail needs no flush of its own.
const fn rounds_per_flush(cap: usize, max: usize) -> usize {
    cap / (UNROLL * max) - 1
}

/// The sum of four byte counters.
#[inline(always)]
fn add4_8<S: Simd>(s: S, a: [S::V; UNROLL]) -> S::V {
    s.add8(s.add8(a[0], a[1]), s.add8(a[2], a[3]))
}

/// The sum of four 32-bit counters.
#[inline(always)]
fn add4_32<S: Simd>(s: S, a: [S::V; UNROLL]) -> S::V {
    s.add32(s.add32(a[0], a[1]), s.add32(a[2], a[3]))
}

/// Two 16-bit counters plus two vectors. (Helpers, not closures: a closure
/// cannot be `#[inline(always)]` on stable Rust, and LLVM outlined one in
/// the AVX-512 kernel, which then passed its `__m512i` through memory:
/// utf8-len-of-utf16 ran at 0.44 GB/s.)
#[inline(always)]
fn add16x2<S: Simd>(s: S, a: (S::V, S::V), b: (S::V, S::V)) -> (S::V, S::V) {
    (s.add16(a.0, b.0), s.add16(a.1, b.1))
}

/// Two 16-bit counters minus two vectors.
#[inline(always)]
fn sub16x2<S: Simd>(s: S, a: (S::V, S::V), b: (S::V, S::V)) -> (S::V, S::V) {
    (s.sub16(a.0, b.0), s.sub16(a.1, b.1))
}

/// The sum of four pairs of 16-bit counters.
#[inline(always)]
fn add4_16<S: Simd>(s: S, a: [(S::V, S::V); UNROLL]) -> (S::V, S::V) {
    add16x2(s, add16x2(s, a[0], a[1]), add16x2(s, a[2], a[3]))
}

/// `-(count per byte)` of `f` over every byte of `src`, which holds at least
/// one register. `f` must return lanes in `-MAX..=0`, `MAX <= 2`.
#[inline(always)]
fn sum_bytes<S: Simd, const MAX: usize>(s: S, src: &[u8], f: impl Fn(S::V) -> S::V) -> u64 {
    let (n, b) = (src.len(), S::BYTES);
    let p = src.as_ptr();
    let per_flush = rounds_per_flush(255, MAX);
    let mut rounds = n / (UNROLL * b);
    let (mut total, mut i) = (0u64, 0usize);
    let mut acc = [s.zero(); UNROLL];
    // The number of rounds is known before the loop, so that the loop is a
    // counted one: the first version tested `n - i` and a round counter
    // each round (7 scalar instructions a round, now 3).
    while rounds > 0 {
        let r = rounds.min(per_flush);
        rounds -= r;
        for _ in 0..r {
            for (k, a) in acc.iter_mut().enumerate() {
                // SAFETY: `r` rounds remained: `i + UNROLL * b <= n`, so
                // the `UNROLL` registers are inside `src`.
                let v = unsafe { s.load(p.add(i + k * b)) };
                *a = s.sub8(*a, f(v));
            }
            i += UNROLL * b;
        }
        if rounds > 0 {
            total += s.sum8(add4_8(s, acc));
            acc = [s.zero(); UNROLL];
        }
    }
    // At most `UNROLL - 1` more whole registers, and a partial one: the
    // room `rounds_per_flush` left.
    let mut last = s.zero();
    while n - i >= b {
        // SAFETY: `i + b <= n`.
        let v = unsafe { s.load(p.add(i)) };
        last = s.sub8(last, f(v));
        i += b;
    }
    if i < n {
        // SAFETY: `n >= b` (the caller's promise), so `n - b..n` is inside
        // `src`.
        let v = unsafe { s.load(p.add(n - b)) };
        // Bytes `n - b..i` were counted: keep the `n - i` last lanes.
        last = s.sub8(last, s.and(f(v), s.mask_from(b - (n - i))));
    }
    acc[0] = s.add8(acc[0], last);
    total + s.sum8(add4_8(s, acc))
}

/// The two sums of `-(count per position)` of `f(unit, next unit)` over
/// every position of `src` but the last, which holds more units than a
/// register. `f` must return two vectors of 16-bit lanes in `-MAX..=0`.
/// A caller that needs one sum returns zero as the other, which LLVM
/// removes with its counters.
///
/// With `SKIP`, a round whose units are all below `8000` (no surrogate, so
/// no pair) counts `below_8000(unit)` instead, without the second loads.
/// count-utf16 takes it (AVX2 maximum 1.8-2.2x -> 3.7-4.2x simdutf, for
/// about 20% on all-Hangul, CJK and Emoji text); the UTF-8 length of
/// UTF-16 does not (0.70x simdutf on Emoji with it). The AVX-512 UTF-8
/// length of UTF-16 has a kernel of its own (`avx512/count.rs`): here
/// every test is a compare, which AVX-512 writes to a mask register.
/// docs/results/transcode.md, "Decisions and dead ends".
#[inline(always)]
fn sum_pairs16<S: Simd, const MAX: usize, const SKIP: bool>(
    s: S,
    src: &[u16],
    f: impl Fn(S::V, S::V) -> (S::V, S::V),
    below_8000: impl Fn(S::V) -> (S::V, S::V),
) -> (u64, u64) {
    let (n, lanes) = (src.len(), S::BYTES / 2);
    let high = s.splat16(0x8000);
    let p = src.as_ptr().cast::<u8>();
    // A 16-bit counter, summed unsigned, holds up to `0xFFFF`.
    let per_flush = rounds_per_flush(0xFFFF, MAX);
    // Positions `i..i + lanes` need units up to `i + lanes`: the rounds
    // cover positions `0..(n - 1)`, rounded down.
    let mut rounds = (n - 1) / (UNROLL * lanes);
    let (mut total, mut i) = ((0u64, 0u64), 0usize);
    let mut acc = [(s.zero(), s.zero()); UNROLL];
    while rounds > 0 {
        let r = rounds.min(per_flush);
        rounds -= r;
        for _ in 0..r {
            let at = |k: usize| 2 * (i + k * lanes);
            // SAFETY: units `i..=i + UNROLL * lanes` are inside `src`: `r`
            // rounds remained, so `i + UNROLL * lanes <= n - 1`.
            let v = unsafe {
                [
                    s.load(p.add(at(0))),
                    s.load(p.add(at(1))),
                    s.load(p.add(at(2))),
                    s.load(p.add(at(3))),
                ]
            };
            let any = s.or(s.or(v[0], v[1]), s.or(v[2], v[3]));
            if !SKIP || s.test_any(any, high) {
                for (k, a) in acc.iter_mut().enumerate() {
                    // SAFETY: as above: unit `i + (k + 1) * lanes` is the
                    // last one read, at most `i + UNROLL * lanes`.
                    let next = unsafe { s.load(p.add(at(k) + 2)) };
                    *a = sub16x2(s, *a, f(v[k], next));
                }
            } else {
                // No unit from `8000` on: no surrogate, so no pair starts
                // in the round, and the units can be classified as
                // signed.
                for (a, &v) in acc.iter_mut().zip(&v) {
                    *a = sub16x2(s, *a, below_8000(v));
                }
            }
            i += UNROLL * lanes;
        }
        if rounds > 0 {
            let a = add4_16(s, acc);
            total = (total.0 + s.sum16(a.0), total.1 + s.sum16(a.1));
            acc = [(s.zero(), s.zero()); UNROLL];
        }
    }
    let mut last = (s.zero(), s.zero());
    while n - i > lanes {
        // SAFETY: units `i..=i + lanes` are inside `src`.
        let (v, next) = unsafe { (s.load(p.add(2 * i)), s.load(p.add(2 * i + 2))) };
        last = sub16x2(s, last, f(v, next));
        i += lanes;
    }
    if i < n - 1 {
        // The register of positions `t..n - 1`; `n > lanes` (the caller's
        // promise), so `t >= 0`.
        let t = n - 1 - lanes;
        // SAFETY: units `t..n` are inside `src`.
        let (v, next) = unsafe { (s.load(p.add(2 * t)), s.load(p.add(2 * t + 2))) };
        // Positions `t..i` were counted.
        let keep = s.mask_from(2 * (i - t));
        let (a, b) = f(v, next);
        last = sub16x2(s, last, (s.and(a, keep), s.and(b, keep)));
    }
    acc[0] = add16x2(s, acc[0], last);
    let a = add4_16(s, acc);
    (total.0 + s.sum16(a.0), total.1 + s.sum16(a.1))
}

/// The sum of `-(count per unit)` of `f` over every unit of `src`, which
/// holds at least one register, and the unsigned maximum of the units, lane
/// by lane (unused by some callers, and then removed by LLVM). `f` must
/// return 32-bit lanes in `-MAX..=0`.
#[inline(always)]
fn sum_units32<S: Simd, const MAX: usize>(
    s: S,
    src: &[u32],
    f: impl Fn(S::V) -> S::V,
) -> (u64, S::V) {
    let (n, lanes) = (src.len(), S::BYTES / 4);
    let p = src.as_ptr().cast::<u8>();
    // Far fewer rounds than a 32-bit counter could take.
    let per_flush = rounds_per_flush(1 << 24, MAX);
    let mut rounds = n / (UNROLL * lanes);
    let (mut total, mut i, mut max) = (0u64, 0usize, s.zero());
    let mut acc = [s.zero(); UNROLL];
    while rounds > 0 {
        let r = rounds.min(per_flush);
        rounds -= r;
        for _ in 0..r {
            let at = |k: usize| 4 * (i + k * lanes);
            // SAFETY: units `i..i + UNROLL * lanes` are inside `src`: `r`
            // rounds remained.
            let v = unsafe {
                [
                    s.load(p.add(at(0))),
                    s.load(p.add(at(1))),
                    s.load(p.add(at(2))),
                    s.load(p.add(at(3))),
                ]
            };
            for (a, &v) in acc.iter_mut().zip(&v) {
                *a = s.sub32(*a, f(v));
            }
            max = s.max_u32(max, s.max_u32(s.max_u32(v[0], v[1]), s.max_u32(v[2], v[3])));
            i += UNROLL * lanes;
        }
        if rounds > 0 {
            total += s.sum32(add4_32(s, acc));
            acc = [s.zero(); UNROLL];
        }
    }
    let mut last = s.zero();
    while n - i >= lanes {
        // SAFETY: units `i..i + lanes` are inside `src`.
        let v = unsafe { s.load(p.add(4 * i)) };
        last = s.sub32(last, f(v));
        max = s.max_u32(max, v);
        i += lanes;
    }
    if i < n {
        // SAFETY: `n >= lanes` (the caller's promise): the last register is
        // inside `src`.
        let v = unsafe { s.load(p.add(4 * (n - lanes))) };
        // Units `n - lanes..i` were counted (and are in `max` already,
        // which they do not change).
        let keep = s.mask_from(4 * (lanes - (n - i)));
        last = s.sub32(last, s.and(f(v), keep));
        max = s.max_u32(max, v);
    }
    acc[0] = s.add32(acc[0], last);
    (total + s.sum32(add4_32(s, acc)), max)
}

/// Whether every 32-bit lane of `max` is at most `10FFFF`: then the units
/// whose maximum it is are scalar values or surrogates.
#[inline(always)]
fn all_below_110000<S: Simd>(s: S, max: S::V) -> bool {
    let limit = s.splat32(0x10_FFFF);
    let ok = s.eq32(s.max_u32(max, limit), limit);
    s.movemask8(ok).count_ones() as usize == S::BYTES
}

/// `u64` to `usize`: counts never exceed the input's length, a `usize`.
#[inline(always)]
fn to_usize(x: u64) -> usize {
    x as usize
}

/// Bytes that are not continuation bytes: the bytes less the continuation
/// bytes, which are, signed, less than -64 (`C0`). Comparing `C0 > byte`
/// rather than `byte > BF` lets the load fold into the compare (`vpcmpgtb
/// ymm, ymm, [mem]`): one instruction a register instead of two.
#[inline(always)]
pub(crate) fn count_utf8<S: Simd>(s: S, src: &[u8]) -> usize {
    if src.len() < S::BYTES {
        return scalar::count_utf8(src);
    }
    let c0 = s.splat8(0xC0);
    src.len()
        - to_usize(sum_bytes::<S, 1>(
            s,
            src,
            #[inline(always)]
            |v| s.gt_i8(c0, v),
        ))
}

/// UTF-16 units per byte of valid UTF-8, negated, by the byte's high nibble:
/// 1 for ASCII (`0..=7`) and the leads of 2 and 3 bytes (`C..=E`), 2 for
/// the leads of 4 bytes (`F`), none for continuation bytes (`8..=B`).
const UTF16_UNITS_BY_NIBBLE: [u8; 16] = {
    let mut t = [0u8; 16];
    let mut i = 0;
    while i < 16 {
        let units: u8 = match i {
            0..=7 | 0xC..=0xE => 1,
            0xF => 2,
            _ => 0,
        };
        t[i] = units.wrapping_neg();
        i += 1;
    }
    t
};

/// The UTF-16 length of valid UTF-8: a `pshufb` lookup by high nibble.
#[inline(always)]
pub(crate) fn utf16_len_from_utf8<S: Simd>(s: S, src: &[u8]) -> usize {
    if src.len() < S::BYTES {
        return scalar::utf16_len_from_utf8(src);
    }
    let table = s.broadcast16(&UTF16_UNITS_BY_NIBBLE);
    let low = s.splat8(0x0F);
    to_usize(sum_bytes::<S, 2>(
        s,
        src,
        #[inline(always)]
        |v| s.shuffle8(table, s.and(s.shr16::<4>(v), low)),
    ))
}

/// The UTF-8 length of Latin-1: one byte each, and one more for each byte
/// from `80` (negative, signed).
#[inline(always)]
pub(crate) fn utf8_len_from_latin1<S: Simd>(s: S, src: &[u8]) -> usize {
    if src.len() < S::BYTES {
        return scalar::utf8_len_from_latin1(src);
    }
    let zero = s.zero();
    src.len()
        + to_usize(sum_bytes::<S, 1>(
            s,
            src,
            #[inline(always)]
            |v| s.gt_i8(zero, v),
        ))
}

/// The mask of the 16-bit lanes of `v` that are lead surrogates followed
/// (in `next`, the same lanes one unit on) by trail surrogates. Each test
/// moves its range (`D800..=DBFF`, `DC00..=DFFF`) to the bottom of the
/// signed range, `-8000..-7C00`, by a wrapping add; both hold iff the
/// larger of the two is still below `-7C00`. Four instructions, where
/// masking and comparing each unit and combining took five.
#[inline(always)]
fn pairs16<S: Simd>(s: S, v: S::V, next: S::V) -> S::V {
    let lead = s.add16(v, s.splat16(0x8000u16.wrapping_sub(0xD800)));
    let trail = s.add16(next, s.splat16(0x8000u16.wrapping_sub(0xDC00)));
    s.gt_i16(s.splat16(0x8400), s.max_i16(lead, trail))
}

/// `char::decode_utf16(src).count()`: the units, less one per surrogate
/// pair.
#[inline(always)]
pub(crate) fn count_utf16<S: Simd>(s: S, src: &[u16]) -> usize {
    if src.len() <= S::BYTES / 2 {
        return scalar::count_utf16(src);
    }
    let zero = s.zero();
    let (pairs, _) = sum_pairs16::<S, 1, true>(
        s,
        src,
        #[inline(always)]
        |v, next| (pairs16(s, v, next), zero),
        #[inline(always)]
        |_| (zero, zero),
    );
    src.len() - to_usize(pairs)
}

/// `String::from_utf16_lossy(src).len()`: 3 bytes a unit, less one for a
/// unit below `800` and another for a unit below `80`, less 2 for each
/// surrogate pair (6 bytes counted, 4 written). An unpaired surrogate is
/// U+FFFD, 3 bytes.
///
/// The unit is first clamped to `800` (unsigned), so that the two signed
/// compares that follow see no negative lane (LLVM compiles each compare
/// to `vpminuw` + `vpcmpeqw` anyway: no fewer instructions than masking,
/// but no more); the pairs have a counter of their own, doubled at the
/// end, instead of being added twice a register.
#[inline(always)]
pub(crate) fn utf8_len_from_utf16<S: Simd>(s: S, src: &[u16]) -> usize {
    let n = src.len();
    let Some(&last) = src.last() else {
        return 0;
    };
    if n <= S::BYTES / 2 {
        return scalar::utf8_len_from_utf16(src);
    }
    let (x80, x800, zero) = (s.splat16(0x80), s.splat16(0x800), s.zero());
    let (fewer, pairs) = sum_pairs16::<S, 2, false>(
        s,
        src,
        #[inline(always)]
        |v, next| {
            let m = s.min_u16(v, x800);
            let fewer = s.add16(s.gt_i16(x80, m), s.gt_i16(x800, m));
            (fewer, pairs16(s, v, next))
        },
        #[inline(always)]
        |v| (s.add16(s.gt_i16(x80, v), s.gt_i16(x800, v)), zero),
    );
    // The last unit starts no pair.
    let fewer_last = usize::from(last < 0x80) + usize::from(last < 0x800);
    3 * n - to_usize(fewer) - fewer_last - 2 * to_usize(pairs)
}

/// The mask of the 32-bit lanes that hold `10000..=10FFFF`: `v - 10000`,
/// unsigned, is below `2^20`.
#[inline(always)]
fn supplementary32<S: Simd>(s: S, v: S::V) -> S::V {
    s.eq32(s.shr32::<20>(s.sub32(v, s.splat32(0x1_0000))), s.zero())
}

// The UTF-32 lengths take two passes on input with a unit above `10FFFF`.
// The first assumes every unit is at most `10FFFF`, where signed compares
// with `7F`, `7FF` and `FFFF` classify a unit in three instructions (a
// surrogate needs nothing: as U+FFFD it is 3 bytes and 1 unit, like any
// unit in `800..=FFFF`), and keeps the unsigned maximum of the units (one
// more instruction). If the maximum is above `10FFFF`, the second pass
// counts again with the exact per-unit tests (seven instructions, the first
// version's only pass). Text is valid UTF-32 almost always; garbage costs
// two passes but gets the exact answer.

/// The UTF-8 length of lossy UTF-32: a byte a unit, plus one from `80`,
/// one more from `800`, and one more for `10000..=10FFFF`. Surrogates and
/// units above `10FFFF` are U+FFFD, 3 bytes.
#[inline(always)]
pub(crate) fn utf8_len_from_utf32<S: Simd>(s: S, src: &[u32]) -> usize {
    if src.len() < S::BYTES / 4 {
        return scalar::utf8_len_from_utf32(src);
    }
    let (x7f, x7ff, xffff) = (s.splat32(0x7F), s.splat32(0x7FF), s.splat32(0xFFFF));
    let (more, max) = sum_units32::<S, 3>(
        s,
        src,
        #[inline(always)]
        |v| {
            let a = s.add32(s.gt_i32(v, x7f), s.gt_i32(v, x7ff));
            s.add32(a, s.gt_i32(v, xffff))
        },
    );
    if all_below_110000(s, max) {
        return src.len() + to_usize(more);
    }
    // Exact for any unit: `4 - bytes` is one for each of "below 80" and
    // "below 800", and one more unless supplementary.
    let (not7f, not7ff, zero, ones) = (
        s.splat32(!0x7F),
        s.splat32(!0x7FF),
        s.zero(),
        s.splat32(u32::MAX),
    );
    let (fewer, _) = sum_units32::<S, 3>(
        s,
        src,
        #[inline(always)]
        |v| {
            let below = s.add32(
                s.eq32(s.and(v, not7f), zero),
                s.eq32(s.and(v, not7ff), zero),
            );
            // `-1 - supplementary`: -1 unless supplementary.
            let not_supplementary = s.sub32(ones, supplementary32(s, v));
            s.add32(below, not_supplementary)
        },
    );
    4 * src.len() - to_usize(fewer)
}

/// The UTF-16 length of lossy UTF-32: one unit each, two for
/// `10000..=10FFFF`.
#[inline(always)]
pub(crate) fn utf16_len_from_utf32<S: Simd>(s: S, src: &[u32]) -> usize {
    if src.len() < S::BYTES / 4 {
        return scalar::utf16_len_from_utf32(src);
    }
    let xffff = s.splat32(0xFFFF);
    let (more, max) = sum_units32::<S, 1>(
        s,
        src,
        #[inline(always)]
        |v| s.gt_i32(v, xffff),
    );
    if all_below_110000(s, max) {
        return src.len() + to_usize(more);
    }
    let (more, _) = sum_units32::<S, 1>(
        s,
        src,
        #[inline(always)]
        |v| supplementary32(s, v),
    );
    src.len() + to_usize(more)
}

/// Defines the count kernels of the table for the token
/// `codec_arch::$arch::$token`, whose
/// features are the `codec_arch` level `$level`: safe `#[target_feature]` functions, which
/// coerce to the table's `unsafe fn` pointers.
macro_rules! kernels {
    ($arch:ident :: $token:ident, $level:ident) => {
        $crate::arch::generic::count::kernels!($arch::$token, $level, except utf16);

        codec_arch::enable! { $level;
            /// `char::decode_utf16(src).count()`.
            pub(crate) fn count_utf16(src: &[u16]) -> usize {
                count::count_utf16($token::new(), src)
            }
        }

        codec_arch::enable! { $level;
            /// `String::from_utf16_lossy(src).len()`.
            pub(crate) fn utf8_len_from_utf16(src: &[u16]) -> usize {
                count::utf8_len_from_utf16($token::new(), src)
            }
        }
    };
    // For a table with kernels of its own for the UTF-16 counts (AVX-512).
    ($arch:ident :: $token:ident, $level:ident, except utf16) => {
        use crate::arch::generic::count;
        use codec_arch::$arch::$token;

        codec_arch::enable! { $level;
            /// Bytes that are not continuation bytes.
            pub(crate) fn count_utf8(src: &[u8]) -> usize {
                count::count_utf8($token::new(), src)
            }
        }

        codec_arch::enable! { $level;
            /// The UTF-16 length of valid UTF-8.
            pub(crate) fn utf16_len_from_utf8(src: &[u8]) -> usize {
                count::utf16_len_from_utf8($token::new(), src)
            }
        }

        codec_arch::enable! { $level;
            /// The UTF-8 length of Latin-1.
            pub(crate) fn utf8_len_from_latin1(src: &[u8]) -> usize {
                count::utf8_len_from_latin1($token::new(), src)
            }
        }

        codec_arch::enable! { $level;
            /// The UTF-8 length of lossy UTF-32.
            pub(crate) fn utf8_len_from_utf32(src: &[u32]) -> usize {
                count::utf8_len_from_utf32($token::new(), src)
            }
        }

        codec_arch::enable! { $level;
            /// The UTF-16 length of lossy UTF-32.
            pub(crate) fn utf16_len_from_utf32(src: &[u32]) -> usize {
                count::utf16_len_from_utf32($token::new(), src)
            }
        }
    };
}
pub(crate) use kernels;

#[cfg(test)]
mod tests {
    //! The UTF-8 counts on bytes that are not UTF-8, which only this crate
    //! can pass them (the public functions take `&str`): the garbage-in
    //! rule is that every kernel still returns the scalar definition's
    //! number (and does not panic or read outside the slice, which the
    //! guard-page tests check).

    use crate::arch::{ALL, Checked};
    use crate::count::scalar;
    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};

    #[test]
    fn utf8_counts_of_any_bytes_equal_the_scalar_definitions() {
        let mut rng = StdRng::seed_from_u64(7);
        // Random bytes, and runs of the bytes that add the most to a lane
        // (non-continuation bytes; 4-byte leads), past a counter flush.
        let mut inputs: std::vec::Vec<std::vec::Vec<u8>> = (0..8)
            .map(|_| (0..600).map(|_| rng.random()).collect())
            .collect();
        inputs.push(std::vec![0xF0; 40_000]);
        inputs.push(std::vec![0x00; 40_000]);
        for &k in ALL {
            let Some(c) = Checked::new(k) else { continue };
            for b in &inputs {
                for end in (0..=b.len().min(600)).chain([b.len() - 1, b.len()]) {
                    let b = &b[..end];
                    assert_eq!(c.count(|k| k.count_utf8, b), scalar::count_utf8(b));
                    assert_eq!(
                        c.count(|k| k.utf16_len_from_utf8, b),
                        scalar::utf16_len_from_utf8(b)
                    );
                }
            }
        }
    }
}
