//! The AVX-512 VBMI kernels: 64 bytes a step, each half of a 256-entry
//! table looked up by one two-register byte permute (`vpermi2b`, 128
//! entries at once), and the encoder's leads compacted by `vpcompressd`.
//! The algorithms differ from the `pshufb` ones of [`super::lookup`]
//! (no rows, no telescoping), so they are written apart.

use super::super::{Encoder, Kernel, Unit, to_utf16_scalar, utf8_scalar};
use super::lookup::{ascii, compress_pairs, page_rows};
use crate::single_byte::SingleByte;
use codec_arch::Isa;
use codec_arch::x86_64::Avx2;
use core::arch::x86_64::__m128i;

/// The UTF-16 kernel on AVX-512 VBMI: 64 bytes a step, each half of the
/// table looked up by one two-register byte permute per unit byte.
pub(crate) static VBMI: Kernel = Kernel {
    name: "avx512vbmi",
    to_utf16: to_utf16_vbmi,
    to_utf8: Some(to_utf8_vbmi),
    encode: Some(Encoder {
        run: encode_vbmi,
        ascii_only: false,
    }),
    isa: Isa::AVX512VBMI,
};

/// # Safety
///
/// The CPU must have `codec_arch`'s `avx512vbmi` level.
unsafe fn to_utf16_vbmi(page: &SingleByte, src: &[u8], dst: &mut [Unit]) -> usize {
    // SAFETY: the caller proves the features.
    unsafe { convert_vbmi(page, src, dst) }
}

codec_arch::enable! { avx512vbmi;
    fn convert_vbmi(page: &SingleByte, src: &[u8], dst: &mut [Unit]) -> usize {
        use core::arch::x86_64::{
            __m512i, _mm512_cmpeq_epi8_mask, _mm512_loadu_si512, _mm512_mask_blend_epi8,
            _mm512_movepi8_mask, _mm512_permutex2var_epi8, _mm512_permutex2var_epi64, _mm512_set_epi64,
            _mm512_set1_epi8, _mm512_setzero_si512, _mm512_storeu_si512, _mm512_unpackhi_epi8,
            _mm512_unpacklo_epi8,
        };
        let table = page.table;
        let len = src.len().min(dst.len());
        let rows = page_rows(page);
        let ascii = ascii(rows);
        let [lo, hi] = &rows.split;
        // SAFETY: each row is 64 readable bytes; `loadu` has no alignment
        // requirement.
        let load = |row: &[u8; 64]| unsafe { _mm512_loadu_si512(row.as_ptr().cast::<__m512i>()) };
        let lo_rows = [load(&lo[0]), load(&lo[1]), load(&lo[2]), load(&lo[3])];
        let hi_rows = [load(&hi[0]), load(&hi[1]), load(&hi[2]), load(&hi[3])];
        let ones = _mm512_set1_epi8(-1);
        // The in-lane unpacks give units 0-7, 16-23, 32-39, 48-55 and 8-15,
        // 24-31, …: these 64-bit lane orders put them back in sequence.
        let first = _mm512_set_epi64(11, 10, 3, 2, 9, 8, 1, 0);
        let second = _mm512_set_epi64(15, 14, 7, 6, 13, 12, 5, 4);
        let mut i = 0;
        while i + 64 <= len {
            let block = &src[i..i + 64];
            // SAFETY: `block` is 64 readable bytes.
            let v = unsafe { _mm512_loadu_si512(block.as_ptr().cast::<__m512i>()) };
            let high = _mm512_movepi8_mask(v);
            let upper_lo = _mm512_permutex2var_epi8(lo_rows[2], v, lo_rows[3]);
            let upper_hi = _mm512_permutex2var_epi8(hi_rows[2], v, hi_rows[3]);
            let (lower_lo, lower_hi) = if ascii {
                (v, _mm512_setzero_si512())
            } else {
                (
                    _mm512_permutex2var_epi8(lo_rows[0], v, lo_rows[1]),
                    _mm512_permutex2var_epi8(hi_rows[0], v, hi_rows[1]),
                )
            };
            let units_lo = _mm512_mask_blend_epi8(high, lower_lo, upper_lo);
            let units_hi = _mm512_mask_blend_epi8(high, lower_hi, upper_hi);
            let undefined =
                _mm512_cmpeq_epi8_mask(units_lo, ones) & _mm512_cmpeq_epi8_mask(units_hi, ones);
            if undefined != 0 {
                break;
            }
            let a = _mm512_unpacklo_epi8(units_lo, units_hi);
            let b = _mm512_unpackhi_epi8(units_lo, units_hi);
            let out = &mut dst[i..i + 64];
            // SAFETY: `out` is 64 writable units (128 bytes): two unaligned
            // 64-byte stores fill it exactly.
            unsafe {
                _mm512_storeu_si512(
                    out.as_mut_ptr().cast::<__m512i>(),
                    _mm512_permutex2var_epi64(a, first, b),
                );
                _mm512_storeu_si512(
                    out.as_mut_ptr().add(32).cast::<__m512i>(),
                    _mm512_permutex2var_epi64(a, second, b),
                );
            }
            i += 64;
        }
        // The rest (fewer than 64 bytes, or a block with an undefined byte):
        // one byte at a time, stopping at the undefined one.
        i + to_utf16_scalar(table, &src[i..len], &mut dst[i..len])
    }
}

/// As [`super::lookup::to_utf8`], the table looked up 64 bytes at a time by
/// AVX-512 VBMI's two-register byte permute (128 entries a look-up).
///
/// # Safety
///
/// The CPU must have `codec_arch`'s `avx512vbmi` level.
unsafe fn to_utf8_vbmi(
    page: &SingleByte,
    src: &[u8],
    dst: &mut [core::mem::MaybeUninit<u8>],
) -> (usize, usize) {
    // SAFETY: the caller proves the features.
    unsafe { utf8_vbmi(page, src, dst) }
}

codec_arch::enable! { avx512vbmi;
    fn utf8_vbmi(
        page: &SingleByte,
        src: &[u8],
        dst: &mut [core::mem::MaybeUninit<u8>],
    ) -> (usize, usize) {
        use core::arch::x86_64::{
            __m512i, _mm512_cmpeq_epi8_mask, _mm512_extracti32x4_epi32, _mm512_loadu_si512,
            _mm512_mask_blend_epi8, _mm512_movepi8_mask, _mm512_permutex2var_epi8, _mm512_set1_epi8,
            _mm512_setzero_si512, _mm512_storeu_si512, _mm512_unpackhi_epi8, _mm512_unpacklo_epi8,
        };
        let table = page.table;
        let rows = page_rows(page);
        let ascii = ascii(rows);
        // The UTF-8 of each byte's unit as a lead (the byte itself below
        // 0x80; 0xFF, never in UTF-8, for a unit from 0x800 or undefined) and
        // a continuation, in four 64-byte rows each.
        let [lead, cont] = &rows.utf8_split;
        // SAFETY: each row is 64 readable bytes; `loadu` has no alignment
        // requirement.
        let load = |row: &[u8; 64]| unsafe { _mm512_loadu_si512(row.as_ptr().cast::<__m512i>()) };
        let leads = [
            load(&lead[0]),
            load(&lead[1]),
            load(&lead[2]),
            load(&lead[3]),
        ];
        let conts = [
            load(&cont[0]),
            load(&cont[1]),
            load(&cont[2]),
            load(&cont[3]),
        ];
        let (mut i, mut w) = (0, 0);
        while i + 64 <= src.len() && w + 192 <= dst.len() {
            let block = &src[i..i + 64];
            // SAFETY: `block` is 64 readable bytes.
            let v = unsafe { _mm512_loadu_si512(block.as_ptr().cast::<__m512i>()) };
            let high = _mm512_movepi8_mask(v);
            if ascii && high == 0 {
                let out = &mut dst[w..w + 64];
                // SAFETY: `out` is 64 writable bytes.
                unsafe { _mm512_storeu_si512(out.as_mut_ptr().cast::<__m512i>(), v) };
                i += 64;
                w += 64;
                continue;
            }
            // The permute indexes by the low 7 bits: the high half's rows for
            // bytes from 0x80, the low half's (or the byte itself) below.
            let upper_lead = _mm512_permutex2var_epi8(leads[2], v, leads[3]);
            let upper_cont = _mm512_permutex2var_epi8(conts[2], v, conts[3]);
            let (lower_lead, lower_cont) = if ascii {
                (v, _mm512_setzero_si512())
            } else {
                (
                    _mm512_permutex2var_epi8(leads[0], v, leads[1]),
                    _mm512_permutex2var_epi8(conts[0], v, conts[1]),
                )
            };
            let first = _mm512_mask_blend_epi8(high, lower_lead, upper_lead);
            let second = _mm512_mask_blend_epi8(high, lower_cont, upper_cont);
            if _mm512_cmpeq_epi8_mask(first, _mm512_set1_epi8(-1)) != 0 {
                // A unit from 0x800 or an undefined byte: one at a time.
                let (ni, nw) = utf8_scalar(table, src, dst, i, w, i + 64);
                let stopped = ni < i + 64;
                (i, w) = (ni, nw);
                if stopped {
                    return (i, w);
                }
                continue;
            }
            // Bit k: byte k is one byte of UTF-8 (its continuation dropped).
            let one = !_mm512_movepi8_mask(first);
            // Lead/continuation pairs; the in-lane unpacks hold bytes 0-7 and
            // 8-15 of each 16 in `a` and `b`.
            let a = _mm512_unpacklo_epi8(first, second);
            let b = _mm512_unpackhi_epi8(first, second);
            let groups = [
                _mm512_extracti32x4_epi32::<0>(a),
                _mm512_extracti32x4_epi32::<0>(b),
                _mm512_extracti32x4_epi32::<1>(a),
                _mm512_extracti32x4_epi32::<1>(b),
                _mm512_extracti32x4_epi32::<2>(a),
                _mm512_extracti32x4_epi32::<2>(b),
                _mm512_extracti32x4_epi32::<3>(a),
                _mm512_extracti32x4_epi32::<3>(b),
            ];
            // AVX-512 VBMI implies AVX2 (`pshufb` for the compaction).
            let avx2 = Avx2::new();
            for (g, &pairs) in groups.iter().enumerate() {
                w += compress_pairs(avx2, pairs, ((one >> (8 * g)) & 0xFF) as usize, dst, w);
            }
            i += 64;
        }
        // The last 63 bytes at most: one at a time (the AVX2 kernel's set-up
        // of its rows costs more).
        utf8_scalar(table, src, dst, i, w, src.len())
    }
}

/// For each byte lane, the lane before it (lane 0: itself, unused).
static PREVIOUS: [u8; 64] = {
    let mut t = [0u8; 64];
    let mut k = 1;
    while k < 64 {
        t[k] = k as u8 - 1;
        k += 1;
    }
    t
};

/// Encodes UTF-8 `src[i..]` through `dense` (code point → byte for
/// U+0000–U+07FF, 0 for none) into `dst[w..]`, 64 bytes of input a step,
/// while a block has only one- and two-byte characters whose leads are of
/// at most two pairs (C0/C1 … DE/DF: each one 128-entry slice of `dense`)
/// and every one is
/// mapped (not 0); returns the new `(i, w)` at the first block that is
/// not so, for the caller's exact path. `i` must be at a character
/// boundary; with `src` valid UTF-8, each character writes one byte.
///
/// # Safety
///
/// The CPU must have AVX-512F, AVX-512BW and AVX-512VBMI.
unsafe fn encode_vbmi(
    dense: &[u8; 0x800],
    src: &[u8],
    dst: &mut [u8],
    i: usize,
    w: usize,
) -> (usize, usize) {
    // SAFETY: the caller proves the features.
    unsafe { encode_dense_vbmi(dense, src, dst, i, w) }
}

codec_arch::enable! { avx512vbmi;
    fn encode_dense_vbmi(
        dense: &[u8; 0x800],
        src: &[u8],
        dst: &mut [u8],
        mut i: usize,
        mut w: usize,
    ) -> (usize, usize) {
        use core::arch::x86_64::{
            __m512i, _mm_storeu_si128, _mm512_and_si512, _mm512_cmpeq_epi8_mask,
            _mm512_cmpge_epu8_mask, _mm512_cvtepi32_epi8, _mm512_cvtepu8_epi32,
            _mm512_extracti32x4_epi32, _mm512_loadu_si512, _mm512_mask_blend_epi8,
            _mm512_mask_cmpeq_epi8_mask, _mm512_maskz_compress_epi32, _mm512_movepi8_mask,
            _mm512_or_si512, _mm512_permutex2var_epi8, _mm512_permutexvar_epi8, _mm512_set1_epi8,
            _mm512_setzero_si512, _mm512_slli_epi16,
        };
        // SAFETY: each slice is 64 readable bytes; `loadu` has no alignment
        // requirement.
        let load = |s: &[u8]| unsafe { _mm512_loadu_si512(s[..64].as_ptr().cast::<__m512i>()) };
        let (low0, low1) = (load(&dense[..64]), load(&dense[64..128]));
        let previous = load(&PREVIOUS);
        while i + 64 <= src.len() && w + 64 <= dst.len() {
            let v = load(&src[i..i + 64]);
            if _mm512_cmpge_epu8_mask(v, _mm512_set1_epi8(0xE0u8 as i8)) != 0 {
                break;
            }
            let high = _mm512_movepi8_mask(v);
            let leads = _mm512_cmpge_epu8_mask(v, _mm512_set1_epi8(0xC0u8 as i8));
            // A lead in the last lane: its character goes to the next block.
            let len = if leads >> 63 == 1 { 63 } else { 64 };
            let kept = !leads & (u64::MAX >> (64 - len));
            // The lead pairs of the block (the first lead's, and the first
            // other one's): each one 128-entry slice of `dense`.
            let pairs = _mm512_and_si512(v, _mm512_set1_epi8(0xFEu8 as i8));
            let slice = |at: u64| {
                let pair = src[i + at.trailing_zeros() as usize] & 0xFE;
                let same = _mm512_cmpeq_epi8_mask(pairs, _mm512_set1_epi8(pair as i8));
                let base = usize::from(pair & 0x1F) * 64;
                (
                    same,
                    load(&dense[base..base + 64]),
                    load(&dense[base + 64..base + 128]),
                )
            };
            let none = (0, _mm512_setzero_si512(), _mm512_setzero_si512());
            let (same_a, a0, a1) = if leads == 0 { none } else { slice(leads) };
            let rest = leads & !same_a;
            let (same_b, b0, b1) = if rest == 0 { none } else { slice(rest) };
            if rest & !same_b != 0 {
                break;
            }
            // ASCII lanes: `dense` at the byte; continuation lanes: the pair's
            // slice at (lead & 1) << 6 | (continuation & 0x3F).
            let ascii = _mm512_permutex2var_epi8(low0, v, low1);
            let prev = _mm512_permutexvar_epi8(previous, v);
            let index = _mm512_or_si512(
                _mm512_and_si512(v, _mm512_set1_epi8(0x3F)),
                _mm512_and_si512(_mm512_slli_epi16::<6>(prev), _mm512_set1_epi8(0x40)),
            );
            let two_a = _mm512_permutex2var_epi8(a0, index, a1);
            let out = _mm512_mask_blend_epi8(high, ascii, two_a);
            let out = if rest == 0 {
                out
            } else {
                // The continuations after the second pair's leads.
                let two_b = _mm512_permutex2var_epi8(b0, index, b1);
                _mm512_mask_blend_epi8((leads & same_b) << 1, out, two_b)
            };
            if _mm512_mask_cmpeq_epi8_mask(kept, out, _mm512_setzero_si512()) != 0 {
                break;
            }
            // Keep the ASCII and continuation lanes, 16 at a time through
            // 32-bit lanes (`vpcompressd`), narrowed back to bytes.
            let quarters = [
                _mm512_extracti32x4_epi32::<0>(out),
                _mm512_extracti32x4_epi32::<1>(out),
                _mm512_extracti32x4_epi32::<2>(out),
                _mm512_extracti32x4_epi32::<3>(out),
            ];
            let mut end = w;
            for (q, &quarter) in quarters.iter().enumerate() {
                let m = (kept >> (16 * q)) as u16;
                let packed = _mm512_cvtepi32_epi8(_mm512_maskz_compress_epi32(
                    m,
                    _mm512_cvtepu8_epi32(quarter),
                ));
                // At most 16 bytes a quarter were kept before this one.
                let to = &mut dst[end..end + 16];
                // SAFETY: `to` is 16 writable bytes (unaligned store).
                unsafe { _mm_storeu_si128(to.as_mut_ptr().cast::<__m128i>(), packed) };
                end += m.count_ones() as usize;
            }
            i += len;
            w = end;
        }
        (i, w)
    }
}
