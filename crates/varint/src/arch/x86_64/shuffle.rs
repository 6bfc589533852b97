//! The Stream VByte and Group Varint kernels on x86-64: one `pshufb`
//! (SSSE3) per group of four values, `pminud` (SSE4.1) for the encoder's
//! lengths. [`sse41`] and [`avx2`] are the same code; the AVX2 instance is
//! compiled with the VEX encoding (no register copies for the
//! two-operand forms), which is what AVX2 buys a 16-byte-per-group kernel.

use core::arch::x86_64::{
    __m128i, _mm_add_epi32, _mm_alignr_epi8, _mm_and_si128, _mm_cmpeq_epi8, _mm_cvtepu8_epi32,
    _mm_extract_epi32, _mm_loadu_si128, _mm_movemask_epi8, _mm_set1_epi32, _mm_setzero_si128,
    _mm_shuffle_epi8, _mm_shuffle_epi32, _mm_slli_epi32, _mm_slli_si128, _mm_srai_epi32,
    _mm_srli_epi32, _mm_srli_si128, _mm_storeu_si128, _mm_sub_epi32, _mm_xor_si128,
};

use crate::arch::shuffle::ShuffleIsa;

/// The standard layout's codes of two lanes (bits 0–1 and 2–3) from their
/// zero-byte flags (bits 0–3 and 4–7): the index of a lane's highest
/// non-zero byte, 0 for zero.
static CODES: [u8; 256] = {
    const fn code(zero: usize) -> u8 {
        let nonzero = !zero & 0xF;
        if nonzero == 0 {
            0
        } else {
            (31 - (nonzero as u32).leading_zeros()) as u8
        }
    }
    let mut t = [0u8; 256];
    let mut x = 0;
    while x < 256 {
        t[x] = code(x & 0xF) | code(x >> 4) << 2;
        x += 1;
    }
    t
};

/// SSE2, SSSE3 and SSE4.1 on one 16-byte register.
pub(crate) struct Sse;

impl ShuffleIsa for Sse {
    type V = __m128i;

    #[inline(always)]
    unsafe fn load(p: *const u8) -> __m128i {
        // SAFETY: 16 readable bytes at `p`, the caller's promise; no
        // alignment needed.
        unsafe { _mm_loadu_si128(p.cast()) }
    }

    #[inline(always)]
    unsafe fn store(p: *mut u8, v: __m128i) {
        // SAFETY: 16 writable bytes at `p`, the caller's promise.
        unsafe { _mm_storeu_si128(p.cast(), v) }
    }

    #[inline(always)]
    unsafe fn shuffle(v: __m128i, pattern: &[u8; 16]) -> __m128i {
        // SAFETY: SSSE3, the caller's promise; `pattern` is 16 bytes.
        unsafe { _mm_shuffle_epi8(v, _mm_loadu_si128(pattern.as_ptr().cast())) }
    }

    #[inline(always)]
    unsafe fn splat(x: u32) -> __m128i {
        // SAFETY: SSE2.
        unsafe { _mm_set1_epi32(x as i32) }
    }

    #[inline(always)]
    unsafe fn last(v: __m128i) -> u32 {
        // SAFETY: SSE4.1.
        unsafe { _mm_extract_epi32::<3>(v) as u32 }
    }

    #[inline(always)]
    unsafe fn unzigzag(v: __m128i) -> __m128i {
        // SAFETY: SSE2.
        unsafe {
            let sign = _mm_sub_epi32(_mm_setzero_si128(), _mm_and_si128(v, _mm_set1_epi32(1)));
            _mm_xor_si128(_mm_srli_epi32::<1>(v), sign)
        }
    }

    #[inline(always)]
    unsafe fn zigzag(v: __m128i) -> __m128i {
        // SAFETY: SSE2.
        unsafe { _mm_xor_si128(_mm_slli_epi32::<1>(v), _mm_srai_epi32::<31>(v)) }
    }

    #[inline(always)]
    unsafe fn prefix_sum(v: __m128i, prev: __m128i) -> __m128i {
        // SAFETY: SSE2.
        unsafe {
            let v = _mm_add_epi32(v, _mm_slli_si128::<4>(v));
            let v = _mm_add_epi32(v, _mm_slli_si128::<8>(v));
            _mm_add_epi32(v, _mm_shuffle_epi32::<0xFF>(prev))
        }
    }

    #[inline(always)]
    unsafe fn delta(v: __m128i, prev: __m128i) -> __m128i {
        // SAFETY: SSSE3. `alignr` gives `[prev[3], v[0], v[1], v[2]]`.
        unsafe { _mm_sub_epi32(v, _mm_alignr_epi8::<12>(v, prev)) }
    }

    #[inline(always)]
    unsafe fn widen(p: *const u8) -> [__m128i; 4] {
        // SAFETY: 16 readable bytes at `p`, the caller's promise; SSE4.1
        // (`pmovzxbd`).
        unsafe {
            let x = _mm_loadu_si128(p.cast());
            [
                _mm_cvtepu8_epi32(x),
                _mm_cvtepu8_epi32(_mm_srli_si128::<4>(x)),
                _mm_cvtepu8_epi32(_mm_srli_si128::<8>(x)),
                _mm_cvtepu8_epi32(_mm_srli_si128::<12>(x)),
            ]
        }
    }

    #[inline(always)]
    unsafe fn control(v: __m128i) -> u8 {
        // SAFETY: SSE2. Bit `4i + k` of `zero` says byte `k` of lane `i`
        // is zero; `CODES` turns each half (two lanes) into their codes.
        unsafe {
            let zero = _mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_setzero_si128())) as u32;
            CODES[(zero & 0xFF) as usize] | CODES[(zero >> 8) as usize] << 4
        }
    }
}

pub(crate) mod sse41 {
    //! The SSE4.1 instance.
    use super::Sse;
    crate::arch::shuffle::shuffle_entry_points!(Sse, sse41);
}

/// AVX2: [`Sse`] in VEX encoding. Two groups a step in one 32-byte
/// register (one `vpshufb` and one store for eight values) measured
/// slower than this on a Rocket Lake Xeon (0.132 against 0.120 ns a value,
/// `docs/results/varint.md`), and was dropped.
pub(crate) struct Avx2;

impl ShuffleIsa for Avx2 {
    type V = __m128i;

    #[inline(always)]
    unsafe fn load(p: *const u8) -> __m128i {
        // SAFETY: as `Sse::load`.
        unsafe { Sse::load(p) }
    }
    #[inline(always)]
    unsafe fn store(p: *mut u8, v: __m128i) {
        // SAFETY: as `Sse::store`.
        unsafe { Sse::store(p, v) }
    }
    #[inline(always)]
    unsafe fn shuffle(v: __m128i, pattern: &[u8; 16]) -> __m128i {
        // SAFETY: as `Sse::shuffle` (AVX2 implies SSSE3).
        unsafe { Sse::shuffle(v, pattern) }
    }
    #[inline(always)]
    unsafe fn splat(x: u32) -> __m128i {
        // SAFETY: as `Sse::splat`.
        unsafe { Sse::splat(x) }
    }
    #[inline(always)]
    unsafe fn last(v: __m128i) -> u32 {
        // SAFETY: as `Sse::last` (AVX2 implies SSE4.1).
        unsafe { Sse::last(v) }
    }
    #[inline(always)]
    unsafe fn unzigzag(v: __m128i) -> __m128i {
        // SAFETY: as `Sse::unzigzag`.
        unsafe { Sse::unzigzag(v) }
    }
    #[inline(always)]
    unsafe fn zigzag(v: __m128i) -> __m128i {
        // SAFETY: as `Sse::zigzag`.
        unsafe { Sse::zigzag(v) }
    }
    #[inline(always)]
    unsafe fn prefix_sum(v: __m128i, prev: __m128i) -> __m128i {
        // SAFETY: as `Sse::prefix_sum`.
        unsafe { Sse::prefix_sum(v, prev) }
    }
    #[inline(always)]
    unsafe fn delta(v: __m128i, prev: __m128i) -> __m128i {
        // SAFETY: as `Sse::delta`.
        unsafe { Sse::delta(v, prev) }
    }
    #[inline(always)]
    unsafe fn widen(p: *const u8) -> [__m128i; 4] {
        // SAFETY: as `Sse::widen` (AVX2 implies SSE4.1).
        unsafe { Sse::widen(p) }
    }
    #[inline(always)]
    unsafe fn control(v: __m128i) -> u8 {
        // SAFETY: as `Sse::control`.
        unsafe { Sse::control(v) }
    }
}

pub(crate) mod avx2 {
    //! The AVX2 instance.
    use super::Avx2;
    crate::arch::shuffle::shuffle_entry_points!(Avx2, avx2);
}
