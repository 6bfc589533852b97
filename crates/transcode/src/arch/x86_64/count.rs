//! The count and length kernels, once for every register width ([`Simd`]);
//! `{sse41,avx2,avx512}/count.rs` instantiate them with [`kernels!`].
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
//! validated); on other bytes they still return a number, just not a
//! meaningful one. The UTF-16 and UTF-32 counts are exact on any input: a
//! surrogate pair is a lead surrogate whose next unit is a trail
//! surrogate, found by loading each register a second time, one unit
//! further on.

use super::simd::Simd;
use crate::count::scalar;

/// Registers per round of the main loops: four independent loads and
/// counter updates, so that the loop runs at the load ports' speed rather
/// than at the latency of one dependency chain.
const UNROLL: usize = 4;

/// `-(count per byte)` of `f` over every byte of `src`, which holds at least
/// one register. `f` must return lanes in `-MAX..=0`.
#[inline(always)]
fn sum_bytes<S: Simd, const MAX: usize>(s: S, src: &[u8], f: impl Fn(S::V) -> S::V) -> u64 {
    let (n, b) = (src.len(), S::BYTES);
    let p = src.as_ptr();
    // A byte counter takes at most `UNROLL * MAX` a round.
    let rounds = 255 / (UNROLL * MAX);
    let (mut total, mut i) = (0u64, 0usize);
    while n - i >= UNROLL * b {
        let mut acc = s.zero();
        let mut r = 0;
        while r < rounds && n - i >= UNROLL * b {
            for k in 0..UNROLL {
                // SAFETY: `i + UNROLL * b <= n`: the register is inside `src`.
                let v = unsafe { s.load(p.add(i + k * b)) };
                acc = s.sub8(acc, f(v));
            }
            i += UNROLL * b;
            r += 1;
        }
        total += s.sum8(acc);
    }
    // At most `UNROLL` more registers: at most `UNROLL * MAX <= 255` a lane.
    let mut acc = s.zero();
    while n - i >= b {
        // SAFETY: `i + b <= n`.
        let v = unsafe { s.load(p.add(i)) };
        acc = s.sub8(acc, f(v));
        i += b;
    }
    if i < n {
        // SAFETY: `n >= b` (the caller's promise), so `n - b..n` is inside
        // `src`.
        let v = unsafe { s.load(p.add(n - b)) };
        // Bytes `n - b..i` were counted: keep the `n - i` last lanes.
        acc = s.sub8(acc, s.and(f(v), s.mask_from(b - (n - i))));
    }
    total + s.sum8(acc)
}

/// `-(count per position)` of `f(unit, next unit)` over every position of
/// `src` but the last, which holds more units than a register. `f` must
/// return 16-bit lanes in `-MAX..=0`.
#[inline(always)]
fn sum_pairs16<S: Simd, const MAX: usize>(
    s: S,
    src: &[u16],
    f: impl Fn(S::V, S::V) -> S::V,
) -> u64 {
    let (n, lanes) = (src.len(), S::BYTES / 2);
    let p = src.as_ptr().cast::<u8>();
    // A 16-bit counter, summed unsigned, takes at most `UNROLL * MAX` a
    // round.
    let rounds = 0xFFFF / (UNROLL * MAX);
    let (mut total, mut i) = (0u64, 0usize);
    // Positions `i..i + lanes` need units up to `i + lanes`.
    while n - i > UNROLL * lanes {
        let mut acc = s.zero();
        let mut r = 0;
        while r < rounds && n - i > UNROLL * lanes {
            for k in 0..UNROLL {
                let at = 2 * (i + k * lanes);
                // SAFETY: units `i + k * lanes ..= i + (k + 1) * lanes` are
                // inside `src`, as `i + UNROLL * lanes < n`.
                let (v, next) = unsafe { (s.load(p.add(at)), s.load(p.add(at + 2))) };
                acc = s.sub16(acc, f(v, next));
            }
            i += UNROLL * lanes;
            r += 1;
        }
        total += s.sum16(acc);
    }
    let mut acc = s.zero();
    while n - i > lanes {
        // SAFETY: units `i..=i + lanes` are inside `src`.
        let (v, next) = unsafe { (s.load(p.add(2 * i)), s.load(p.add(2 * i + 2))) };
        acc = s.sub16(acc, f(v, next));
        i += lanes;
    }
    if i < n - 1 {
        // The register of positions `t..n - 1`; `n > lanes` (the caller's
        // promise), so `t >= 0`.
        let t = n - 1 - lanes;
        // SAFETY: units `t..n` are inside `src`.
        let (v, next) = unsafe { (s.load(p.add(2 * t)), s.load(p.add(2 * t + 2))) };
        // Positions `t..i` were counted.
        acc = s.sub16(acc, s.and(f(v, next), s.mask_from(2 * (i - t))));
    }
    total + s.sum16(acc)
}

/// The two sums of `-(count per unit)` of `f` over every unit of `src`,
/// which holds at least one register. `f` must return 32-bit lanes in
/// `-MAX..=0`.
#[inline(always)]
fn sum_units32<S: Simd, const MAX: usize>(
    s: S,
    src: &[u32],
    f: impl Fn(S::V) -> (S::V, S::V),
) -> (u64, u64) {
    let (n, lanes) = (src.len(), S::BYTES / 4);
    let p = src.as_ptr().cast::<u8>();
    // Far fewer rounds than a 32-bit counter could take.
    let rounds = (1 << 24) / (UNROLL * MAX);
    let (mut total, mut i) = ((0u64, 0u64), 0usize);
    while n - i >= UNROLL * lanes {
        let mut acc = (s.zero(), s.zero());
        let mut r = 0;
        while r < rounds && n - i >= UNROLL * lanes {
            for k in 0..UNROLL {
                // SAFETY: units `i..i + UNROLL * lanes` are inside `src`.
                let v = unsafe { s.load(p.add(4 * (i + k * lanes))) };
                let (a, b) = f(v);
                acc = (s.sub32(acc.0, a), s.sub32(acc.1, b));
            }
            i += UNROLL * lanes;
            r += 1;
        }
        total = (total.0 + s.sum32(acc.0), total.1 + s.sum32(acc.1));
    }
    let mut acc = (s.zero(), s.zero());
    while n - i >= lanes {
        // SAFETY: units `i..i + lanes` are inside `src`.
        let v = unsafe { s.load(p.add(4 * i)) };
        let (a, b) = f(v);
        acc = (s.sub32(acc.0, a), s.sub32(acc.1, b));
        i += lanes;
    }
    if i < n {
        // SAFETY: `n >= lanes` (the caller's promise): the last register is
        // inside `src`.
        let v = unsafe { s.load(p.add(4 * (n - lanes))) };
        // Units `n - lanes..i` were counted.
        let keep = s.mask_from(4 * (lanes - (n - i)));
        let (a, b) = f(v);
        acc = (
            s.sub32(acc.0, s.and(a, keep)),
            s.sub32(acc.1, s.and(b, keep)),
        );
    }
    (total.0 + s.sum32(acc.0), total.1 + s.sum32(acc.1))
}

/// `u64` to `usize`: counts never exceed the input's length, a `usize`.
#[inline(always)]
fn to_usize(x: u64) -> usize {
    x as usize
}

/// Bytes that are not continuation bytes: a byte is one iff, signed, it
/// is greater than -65 (`BF`).
#[inline(always)]
pub(crate) fn count_utf8<S: Simd>(s: S, src: &[u8]) -> usize {
    if src.len() < S::BYTES {
        return scalar::count_utf8(src);
    }
    let bf = s.splat8(0xBF);
    to_usize(sum_bytes::<S, 1>(
        s,
        src,
        #[inline(always)]
        |v| s.gt_i8(v, bf),
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
/// (in `next`, the same lanes one unit on) by trail surrogates.
#[inline(always)]
fn pairs16<S: Simd>(s: S, v: S::V, next: S::V) -> S::V {
    let (fc00, d800, dc00) = (s.splat16(0xFC00), s.splat16(0xD800), s.splat16(0xDC00));
    let lead = s.eq16(s.and(v, fc00), d800);
    let trail = s.eq16(s.and(next, fc00), dc00);
    s.and(lead, trail)
}

/// `char::decode_utf16(src).count()`: the units, less one per surrogate
/// pair.
#[inline(always)]
pub(crate) fn count_utf16<S: Simd>(s: S, src: &[u16]) -> usize {
    if src.len() <= S::BYTES / 2 {
        return scalar::count_utf16(src);
    }
    src.len()
        - to_usize(sum_pairs16::<S, 1>(
            s,
            src,
            #[inline(always)]
            |v, next| pairs16(s, v, next),
        ))
}

/// `String::from_utf16_lossy(src).len()`: 3 bytes a unit, less one for a
/// unit below `800` and another for a unit below `80`, less 2 for each
/// surrogate pair (6 bytes counted, 4 written). An unpaired surrogate is
/// U+FFFD, 3 bytes.
#[inline(always)]
pub(crate) fn utf8_len_from_utf16<S: Simd>(s: S, src: &[u16]) -> usize {
    let n = src.len();
    let Some(&last) = src.last() else {
        return 0;
    };
    if n <= S::BYTES / 2 {
        return scalar::utf8_len_from_utf16(src);
    }
    let (ff80, f800, zero) = (s.splat16(0xFF80), s.splat16(0xF800), s.zero());
    let fewer = sum_pairs16::<S, 4>(
        s,
        src,
        #[inline(always)]
        |v, next| {
            let below80 = s.eq16(s.and(v, ff80), zero);
            let below800 = s.eq16(s.and(v, f800), zero);
            let pair = pairs16(s, v, next);
            s.add16(s.add16(below80, below800), s.add16(pair, pair))
        },
    );
    // The last unit starts no pair.
    let fewer_last = usize::from(last < 0x80) + usize::from(last < 0x800);
    3 * n - to_usize(fewer) - fewer_last
}

/// The mask of the 32-bit lanes that hold `10000..=10FFFF`: `v - 10000`,
/// unsigned, is below `2^20`.
#[inline(always)]
fn supplementary32<S: Simd>(s: S, v: S::V) -> S::V {
    s.eq32(s.shr32::<20>(s.sub32(v, s.splat32(0x1_0000))), s.zero())
}

/// The UTF-8 length of lossy UTF-32: 3 bytes a unit, less one for a unit
/// below `800` and another for a unit below `80`, plus one for a unit in
/// `10000..=10FFFF`. Surrogates and units above `10FFFF` are U+FFFD, 3
/// bytes.
#[inline(always)]
pub(crate) fn utf8_len_from_utf32<S: Simd>(s: S, src: &[u32]) -> usize {
    if src.len() < S::BYTES / 4 {
        return scalar::utf8_len_from_utf32(src);
    }
    let (not7f, not7ff, zero) = (s.splat32(!0x7F), s.splat32(!0x7FF), s.zero());
    let (fewer, more) = sum_units32::<S, 2>(
        s,
        src,
        #[inline(always)]
        |v| {
            let fewer = s.add32(
                s.eq32(s.and(v, not7f), zero),
                s.eq32(s.and(v, not7ff), zero),
            );
            (fewer, supplementary32(s, v))
        },
    );
    3 * src.len() - to_usize(fewer) + to_usize(more)
}

/// The UTF-16 length of lossy UTF-32: one unit each, two for
/// `10000..=10FFFF`.
#[inline(always)]
pub(crate) fn utf16_len_from_utf32<S: Simd>(s: S, src: &[u32]) -> usize {
    if src.len() < S::BYTES / 4 {
        return scalar::utf16_len_from_utf32(src);
    }
    let zero = s.zero();
    let (more, _) = sum_units32::<S, 1>(
        s,
        src,
        #[inline(always)]
        |v| (supplementary32(s, v), zero),
    );
    src.len() + to_usize(more)
}

/// Defines the count kernels of the table for the token `$token`, whose
/// features are `$features`: safe `#[target_feature]` functions, which
/// coerce to the table's `unsafe fn` pointers.
macro_rules! kernels {
    ($token:ident, $features:literal) => {
        use crate::arch::x86_64::{count, simd::$token};

        /// Bytes that are not continuation bytes.
        #[target_feature(enable = $features)]
        pub(crate) fn count_utf8(src: &[u8]) -> usize {
            count::count_utf8($token::new(), src)
        }

        /// The UTF-16 length of valid UTF-8.
        #[target_feature(enable = $features)]
        pub(crate) fn utf16_len_from_utf8(src: &[u8]) -> usize {
            count::utf16_len_from_utf8($token::new(), src)
        }

        /// The UTF-8 length of Latin-1.
        #[target_feature(enable = $features)]
        pub(crate) fn utf8_len_from_latin1(src: &[u8]) -> usize {
            count::utf8_len_from_latin1($token::new(), src)
        }

        /// `char::decode_utf16(src).count()`.
        #[target_feature(enable = $features)]
        pub(crate) fn count_utf16(src: &[u16]) -> usize {
            count::count_utf16($token::new(), src)
        }

        /// `String::from_utf16_lossy(src).len()`.
        #[target_feature(enable = $features)]
        pub(crate) fn utf8_len_from_utf16(src: &[u16]) -> usize {
            count::utf8_len_from_utf16($token::new(), src)
        }

        /// The UTF-8 length of lossy UTF-32.
        #[target_feature(enable = $features)]
        pub(crate) fn utf8_len_from_utf32(src: &[u32]) -> usize {
            count::utf8_len_from_utf32($token::new(), src)
        }

        /// The UTF-16 length of lossy UTF-32.
        #[target_feature(enable = $features)]
        pub(crate) fn utf16_len_from_utf32(src: &[u32]) -> usize {
            count::utf16_len_from_utf32($token::new(), src)
        }
    };
}
pub(crate) use kernels;
