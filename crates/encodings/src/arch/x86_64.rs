//! The SSSE3 (16 bytes a step) and AVX2 (32) kernels: each byte looked up
//! in the 256-entry table by byte shuffles.
//!
//! The table is split into its low and high bytes and each into 16 rows of
//! 16 (one row per high nibble): `pshufb` looks a row up by the low
//! nibble, and a compare of the high nibble with the row's number keeps
//! the lanes that belong to it. An ASCII-compatible table skips the eight
//! low rows (and all-ASCII blocks are widened directly). A block with an
//! undefined byte (0xFFFF) is left to the scalar loop, which stops there.

use super::Kernel;
use core::arch::x86_64::{
    __m128i, _mm_and_si128, _mm_cmpeq_epi8, _mm_cmpeq_epi16, _mm_loadu_si128, _mm_movemask_epi8,
    _mm_or_si128, _mm_set1_epi8, _mm_setzero_si128, _mm_shuffle_epi8, _mm_srli_epi16,
    _mm_storeu_si128, _mm_unpackhi_epi8, _mm_unpacklo_epi8,
};

cpufeatures::new!(cpuid_ssse3, "ssse3");

pub(crate) static SSSE3: Kernel = Kernel {
    name: "ssse3",
    to_utf16: to_utf16_ssse3,
    available: || cpuid_ssse3::get(),
};

/// # Safety
///
/// The CPU must have SSSE3.
unsafe fn to_utf16_ssse3(table: &[u16; 256], src: &[u8], dst: &mut [u16]) -> usize {
    // SAFETY: the caller proves SSSE3.
    unsafe { convert(table, src, dst) }
}

#[target_feature(enable = "ssse3")]
fn convert(table: &[u16; 256], src: &[u8], dst: &mut [u16]) -> usize {
    let len = src.len().min(dst.len());
    let ascii = table[..128]
        .iter()
        .enumerate()
        .all(|(b, &u)| usize::from(u) == b);
    // The rows: lo[r][i] / hi[r][i] = low / high byte of table[16 r + i].
    let mut lo = [[0u8; 16]; 16];
    let mut hi = [[0u8; 16]; 16];
    for (i, &u) in table.iter().enumerate() {
        lo[i / 16][i % 16] = u as u8;
        hi[i / 16][i % 16] = (u >> 8) as u8;
    }
    let load = |row: &[u8; 16]| {
        // SAFETY: `row` is 16 readable bytes; `loadu` has no alignment
        // requirement.
        unsafe { _mm_loadu_si128(row.as_ptr().cast::<__m128i>()) }
    };
    let lo_rows: [__m128i; 16] = core::array::from_fn(|r| load(&lo[r]));
    let hi_rows: [__m128i; 16] = core::array::from_fn(|r| load(&hi[r]));
    let first_row = if ascii { 8 } else { 0 };
    let nibble = _mm_set1_epi8(0x0F);
    let undefined = _mm_cmpeq_epi8(_mm_setzero_si128(), _mm_setzero_si128());

    let mut i = 0;
    while i + 16 <= len {
        let block = &src[i..i + 16];
        // SAFETY: `block` is 16 readable bytes.
        let v = unsafe { _mm_loadu_si128(block.as_ptr().cast::<__m128i>()) };
        let high_bit = _mm_movemask_epi8(v);
        let (units_lo, units_hi) = if ascii && high_bit == 0 {
            (v, _mm_setzero_si128())
        } else {
            let low = _mm_and_si128(v, nibble);
            let top = _mm_and_si128(_mm_srli_epi16::<4>(v), nibble);
            let (mut rl, mut rh) = if ascii {
                // ASCII lanes: the byte itself, high byte 0.
                let is_ascii =
                    _mm_cmpeq_epi8(_mm_and_si128(v, _mm_set1_epi8(-128)), _mm_setzero_si128());
                (_mm_and_si128(v, is_ascii), _mm_setzero_si128())
            } else {
                (_mm_setzero_si128(), _mm_setzero_si128())
            };
            for r in first_row..16 {
                let mine = _mm_cmpeq_epi8(top, _mm_set1_epi8(r as i8));
                rl = _mm_or_si128(rl, _mm_and_si128(mine, _mm_shuffle_epi8(lo_rows[r], low)));
                rh = _mm_or_si128(rh, _mm_and_si128(mine, _mm_shuffle_epi8(hi_rows[r], low)));
            }
            (rl, rh)
        };
        let first = _mm_unpacklo_epi8(units_lo, units_hi);
        let second = _mm_unpackhi_epi8(units_lo, units_hi);
        let bad = _mm_or_si128(
            _mm_cmpeq_epi16(first, undefined),
            _mm_cmpeq_epi16(second, undefined),
        );
        if _mm_movemask_epi8(bad) != 0 {
            break;
        }
        let out = &mut dst[i..i + 16];
        // SAFETY: `out` is 16 writable units (32 bytes): two unaligned
        // 16-byte stores fill it exactly.
        unsafe {
            _mm_storeu_si128(out.as_mut_ptr().cast::<__m128i>(), first);
            _mm_storeu_si128(out.as_mut_ptr().add(8).cast::<__m128i>(), second);
        }
        i += 16;
    }
    // The tail, and a block with an undefined byte: one byte at a time.
    for (d, &b) in dst[i..len].iter_mut().zip(&src[i..len]) {
        let u = table[usize::from(b)];
        if u == crate::single_byte::UNDEFINED {
            break;
        }
        *d = u;
        i += 1;
    }
    i
}

cpufeatures::new!(cpuid_avx2, "avx2");

/// The same algorithm on 32 bytes a step: the rows are broadcast to both
/// 128-bit lanes (`vpshufb` looks up within a lane), and the units are put
/// back in order across the lanes after the in-lane unpacks.
pub(crate) static AVX2: Kernel = Kernel {
    name: "avx2",
    to_utf16: to_utf16_avx2,
    available: || cpuid_avx2::get(),
};

/// # Safety
///
/// The CPU must have AVX2.
unsafe fn to_utf16_avx2(table: &[u16; 256], src: &[u8], dst: &mut [u16]) -> usize {
    // SAFETY: the caller proves AVX2.
    unsafe { convert_avx2(table, src, dst) }
}

#[target_feature(enable = "avx2")]
fn convert_avx2(table: &[u16; 256], src: &[u8], dst: &mut [u16]) -> usize {
    use core::arch::x86_64::{
        __m256i, _mm256_and_si256, _mm256_broadcastsi128_si256, _mm256_cmpeq_epi8,
        _mm256_cmpeq_epi16, _mm256_loadu_si256, _mm256_movemask_epi8, _mm256_or_si256,
        _mm256_permute2x128_si256, _mm256_set1_epi8, _mm256_setzero_si256, _mm256_shuffle_epi8,
        _mm256_srli_epi16, _mm256_storeu_si256, _mm256_unpackhi_epi8, _mm256_unpacklo_epi8,
    };
    let len = src.len().min(dst.len());
    let ascii = table[..128]
        .iter()
        .enumerate()
        .all(|(b, &u)| usize::from(u) == b);
    let mut lo = [[0u8; 16]; 16];
    let mut hi = [[0u8; 16]; 16];
    for (i, &u) in table.iter().enumerate() {
        lo[i / 16][i % 16] = u as u8;
        hi[i / 16][i % 16] = (u >> 8) as u8;
    }
    let load = |row: &[u8; 16]| {
        // SAFETY: `row` is 16 readable bytes; `loadu` has no alignment
        // requirement.
        _mm256_broadcastsi128_si256(unsafe { _mm_loadu_si128(row.as_ptr().cast::<__m128i>()) })
    };
    let lo_rows: [__m256i; 16] = core::array::from_fn(|r| load(&lo[r]));
    let hi_rows: [__m256i; 16] = core::array::from_fn(|r| load(&hi[r]));
    let first_row = if ascii { 8 } else { 0 };
    let nibble = _mm256_set1_epi8(0x0F);
    let undefined = _mm256_cmpeq_epi8(_mm256_setzero_si256(), _mm256_setzero_si256());

    let mut i = 0;
    while i + 32 <= len {
        let block = &src[i..i + 32];
        // SAFETY: `block` is 32 readable bytes.
        let v = unsafe { _mm256_loadu_si256(block.as_ptr().cast::<__m256i>()) };
        let (units_lo, units_hi) = if ascii && _mm256_movemask_epi8(v) == 0 {
            (v, _mm256_setzero_si256())
        } else {
            let low = _mm256_and_si256(v, nibble);
            let top = _mm256_and_si256(_mm256_srli_epi16::<4>(v), nibble);
            let (mut rl, mut rh) = if ascii {
                let is_ascii = _mm256_cmpeq_epi8(
                    _mm256_and_si256(v, _mm256_set1_epi8(-128)),
                    _mm256_setzero_si256(),
                );
                (_mm256_and_si256(v, is_ascii), _mm256_setzero_si256())
            } else {
                (_mm256_setzero_si256(), _mm256_setzero_si256())
            };
            for r in first_row..16 {
                let mine = _mm256_cmpeq_epi8(top, _mm256_set1_epi8(r as i8));
                rl = _mm256_or_si256(
                    rl,
                    _mm256_and_si256(mine, _mm256_shuffle_epi8(lo_rows[r], low)),
                );
                rh = _mm256_or_si256(
                    rh,
                    _mm256_and_si256(mine, _mm256_shuffle_epi8(hi_rows[r], low)),
                );
            }
            (rl, rh)
        };
        // In-lane unpacks give units 0-7 | 16-23 and 8-15 | 24-31.
        let a = _mm256_unpacklo_epi8(units_lo, units_hi);
        let b = _mm256_unpackhi_epi8(units_lo, units_hi);
        let first = _mm256_permute2x128_si256::<0x20>(a, b);
        let second = _mm256_permute2x128_si256::<0x31>(a, b);
        let bad = _mm256_or_si256(
            _mm256_cmpeq_epi16(first, undefined),
            _mm256_cmpeq_epi16(second, undefined),
        );
        if _mm256_movemask_epi8(bad) != 0 {
            break;
        }
        let out = &mut dst[i..i + 32];
        // SAFETY: `out` is 32 writable units (64 bytes): two unaligned
        // 32-byte stores fill it exactly.
        unsafe {
            _mm256_storeu_si256(out.as_mut_ptr().cast::<__m256i>(), first);
            _mm256_storeu_si256(out.as_mut_ptr().add(16).cast::<__m256i>(), second);
        }
        i += 32;
    }
    // The rest (fewer than 32 bytes, or a block with an undefined byte):
    // the SSSE3 kernel, which AVX2 implies, then the scalar loop.
    i + convert(table, &src[i..len], &mut dst[i..len])
}
