//! The avx512 count and length kernels: `generic::count` with 64-byte
//! registers, but for the UTF-16 counts (`count_utf16` and the UTF-8 length
//! of UTF-16), which have kernels of their own below.

crate::arch::generic::count::kernels!(
    x86_64::Avx512,
    avx512,
    except utf16
);

use crate::count::scalar;
use core::arch::x86_64::*;

codec_arch::enable! { avx512;
    /// `String::from_utf16_lossy(src).len()` with AVX-512, its own kernel
    /// rather than `generic::count`'s: there every per-lane test is a compare,
    /// and AVX-512 compares write mask registers, which the generic code turns
    /// back into vectors (`vpmovm2w`) to subtract, and with 64-byte registers
    /// that ran no faster than AVX2.
    ///
    /// Here no compare counts units. A unit's extra UTF-8 bytes (0 below
    /// `80`, 1 below `800`, 2 from there; an unpaired surrogate counts 2 too,
    /// as U+FFFD has 3 bytes) come from a 17-entry `vpermw` table indexed by
    /// `min(unit >> 7, 16)`, added to 16-bit counters: four operations a
    /// register. Pairs are looked for only in blocks of four registers with a
    /// unit from `D800` (one `max` tree and one compare a block): a lead whose
    /// next unit (a second load, one unit on) is a trail makes
    /// `(unit ^ D800) | (next ^ DC00)` zero in its top six bits (one
    /// `vpternlogd`), and the table lookup is masked off there (`vpermw`
    /// with zeroing), so the lead adds 1 byte and its trail 3: the pair's 4.
    ///
    /// Every BMP text 1.55-1.70x simdutf's AVX-512 kernel on AMD Zen 4
    /// (0.74-0.81 with compares); the forms tried on the way are in
    /// docs/results/transcode.md, "Decisions and dead ends".
    pub(crate) fn utf8_len_from_utf16(src: &[u16]) -> usize {
        let n = src.len();
        let Some(&last) = src.last().filter(|_| n > LANES) else {
            return scalar::utf8_len_from_utf16(src);
        };
        let more = sum_blocks::<true>(src) + u64::from(last >= 0x80) + u64::from(last >= 0x800);
        // A `u64` count of bytes that a slice's units need fits a `usize`
        // (each unit needs at most 3).
        n + more as usize
    }
}

codec_arch::enable! { avx512;
    /// `char::decode_utf16(src).count()` with AVX-512: the units less the
    /// pairs, which only blocks of four registers with a unit from `D800`
    /// look for, as in [`utf8_len_from_utf16`] (no compare at all for a block
    /// without: 1.0x simdutf's AVX-512 kernel on CJK and Emoji text with the
    /// generic kernel, which tests every register for units from `8000`).
    pub(crate) fn count_utf16(src: &[u16]) -> usize {
        if src.len() <= LANES {
            return scalar::count_utf16(src);
        }
        // Pairs are fewer than units.
        src.len() - sum_blocks::<false>(src) as usize
    }
}

/// Units in a register.
const LANES: usize = 32;

codec_arch::enable! { avx512;
    /// Over the units `0..n - 1` of `src` (which has more than [`LANES`]; the
    /// last unit starts no pair): with `LEN`, the sum of the extra UTF-8 bytes
    /// of each unit that starts no pair (see [`utf8_len_from_utf16`]);
    /// without, the number of pairs.
    fn sum_blocks<const LEN: bool>(src: &[u16]) -> u64 {
        const BLOCK: usize = 4 * LANES;
        let n = src.len();
        let p = src.as_ptr();
        let (d800, dc00, fc00) = (
            _mm512_set1_epi16(0xD800u16 as i16),
            _mm512_set1_epi16(0xDC00u16 as i16),
            _mm512_set1_epi16(0xFC00u16 as i16),
        );
        let (sixteen, zero) = (_mm512_set1_epi16(16), _mm512_setzero_si512());
        let m1 = core::hint::black_box(_mm512_set1_epi16(-1));
        // Extra bytes by `min(unit >> 7, 16)`: entry 0 (below 80) 0, entries
        // 1..=15 (below 800) 1, entry 16 (from 800) 2.
        #[rustfmt::skip]
        let table = _mm512_set_epi16(
            0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2,
            1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0,
        );
        let index = |v: __m512i| _mm512_min_epu16(_mm512_srli_epi16::<7>(v), sixteen);
        // Lanes of `v` that start no pair: `next` holds the same lanes one
        // unit on, and `0xF6` is `a | (b ^ c)`.
        let pair_test = |v: __m512i, next: __m512i| {
            _mm512_ternarylogic_epi32::<0xF6>(_mm512_xor_si512(v, d800), next, dc00)
        };
        let no_start = |v, next| _mm512_test_epi16_mask(pair_test(v, next), fc00);
        let start = |v, next| _mm512_testn_epi16_mask(pair_test(v, next), fc00);
        // The 16-bit lanes of `x`, added into the 32-bit lanes of `acc`.
        let widen_add = |acc: __m512i, x: __m512i| {
            let (lo, hi) = (
                _mm512_and_si512(x, _mm512_set1_epi32(0xFFFF)),
                _mm512_srli_epi32::<16>(x),
            );
            _mm512_add_epi32(acc, _mm512_add_epi32(lo, hi))
        };
        // A 32-bit sum of the lanes: at most 8 of `0xFFFF` each.
        let sum = |x: __m512i| u64::from(_mm512_reduce_add_epi32(x) as u32);
        let (mut total, mut i) = (0u64, 0usize);
        // A block reads units `i..=i + BLOCK` (the last one for the pairs).
        let mut rounds = (n - 1) / BLOCK;
        while rounds > 0 {
            // A lane grows by up to 2 a round.
            let r = rounds.min(0x7FFF);
            rounds -= r;
            let mut e = [zero; 4];
            for _ in 0..r {
                // SAFETY: units `i..i + BLOCK` are inside `src`: `i + BLOCK <=
                // n - 1`.
                let v: [__m512i; 4] = core::array::from_fn(|k| unsafe {
                    _mm512_loadu_si512(p.add(i + k * LANES).cast())
                });
                let top = _mm512_max_epu16(_mm512_max_epu16(v[0], v[1]), _mm512_max_epu16(v[2], v[3]));
                if _mm512_cmpge_epu16_mask(top, d800) != 0 {
                    for k in 0..4 {
                        // SAFETY: units `i + 1..=i + BLOCK` are inside `src`.
                        let next = unsafe { _mm512_loadu_si512(p.add(i + k * LANES + 1).cast()) };
                        e[k] = if LEN {
                            let x = _mm512_maskz_permutexvar_epi16(
                                no_start(v[k], next),
                                index(v[k]),
                                table,
                            );
                            _mm512_add_epi16(e[k], x)
                        } else {
                            _mm512_mask_sub_epi16(e[k], start(v[k], next), e[k], m1)
                        };
                    }
                } else if LEN {
                    for k in 0..4 {
                        e[k] = _mm512_add_epi16(e[k], _mm512_permutexvar_epi16(index(v[k]), table));
                    }
                }
                i += BLOCK;
            }
            total += sum(e.iter().fold(zero, |acc, &x| widen_add(acc, x)));
        }
        // Up to four more registers, the last one ending at unit `n - 2`, its
        // lanes before `i` already counted.
        let mut e = zero;
        while i < n - 1 {
            let t = i.min(n - 1 - LANES);
            // SAFETY: units `t..=t + LANES` are inside `src`: `t + LANES <= n - 1`.
            let (v, next) = unsafe {
                (
                    _mm512_loadu_si512(p.add(t).cast()),
                    _mm512_loadu_si512(p.add(t + 1).cast()),
                )
            };
            let keep = u32::MAX << (i - t);
            e = if LEN {
                let x = _mm512_maskz_permutexvar_epi16(no_start(v, next) & keep, index(v), table);
                _mm512_add_epi16(e, x)
            } else {
                _mm512_mask_sub_epi16(e, start(v, next) & keep, e, m1)
            };
            i = t + LANES;
        }
        total + sum(widen_add(zero, e))
    }
}
