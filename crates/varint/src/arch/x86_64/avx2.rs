//! The AVX2 kernel: a window is two 32-byte registers; one-byte runs are
//! widened with `vpmovzxbq`/`vpmovzxbd`, the groups packed with shifts
//! (BMI1/BMI2 give `tzcnt` and `bzhi`). [`pext`] is the same kernel packing
//! with BMI2 `pext`, chosen only where `pext` is fast.

use core::arch::x86_64::{
    __m256i, _mm_srli_si128, _mm256_castsi256_si128, _mm256_cmpeq_epi8, _mm256_cvtepu8_epi32,
    _mm256_cvtepu8_epi64, _mm256_extracti128_si256, _mm256_loadu_si256, _mm256_movemask_epi8,
    _mm256_setzero_si256, _mm256_storeu_si256,
};

use crate::arch::kernel::{Isa, pack_shifts, spread_shifts};

/// The instruction set of this kernel: AVX2, BMI1 and BMI2.
pub(crate) struct Avx2;

impl Isa for Avx2 {
    #[inline(always)]
    unsafe fn continuations(p: *const u8) -> u64 {
        // SAFETY: the caller guarantees 64 readable bytes at `p` and AVX2.
        unsafe {
            let lo = _mm256_movemask_epi8(_mm256_loadu_si256(p.cast())) as u32;
            let hi = _mm256_movemask_epi8(_mm256_loadu_si256(p.add(32).cast())) as u32;
            u64::from(lo) | u64::from(hi) << 32
        }
    }

    #[inline(always)]
    unsafe fn zeros(p: *const u8) -> u64 {
        // SAFETY: as in `continuations`.
        unsafe {
            let z = _mm256_setzero_si256();
            let lo =
                _mm256_movemask_epi8(_mm256_cmpeq_epi8(_mm256_loadu_si256(p.cast()), z)) as u32;
            let hi =
                _mm256_movemask_epi8(_mm256_cmpeq_epi8(_mm256_loadu_si256(p.add(32).cast()), z))
                    as u32;
            u64::from(lo) | u64::from(hi) << 32
        }
    }

    #[inline(always)]
    unsafe fn widen_u64(p: *const u8, o: *mut u64) {
        // SAFETY: 64 readable bytes at `p`, 64 writable `u64`s at `o`, and
        // AVX2, all guaranteed by the caller; each store writes 4 values.
        unsafe {
            widen32_u64(p, o);
            widen32_u64(p.add(32), o.add(32));
        }
    }

    #[inline(always)]
    unsafe fn widen_u32(p: *const u8, o: *mut u32) {
        // SAFETY: as in `widen_u64`.
        unsafe {
            widen32_u32(p, o);
            widen32_u32(p.add(32), o.add(32));
        }
    }

    #[inline(always)]
    unsafe fn pack(word: u64, len: u32) -> u64 {
        pack_shifts(word, len)
    }

    #[inline(always)]
    unsafe fn spread(v: u64) -> u64 {
        spread_shifts(v)
    }
}

/// 32 bytes widened to `u64`s.
///
/// # Safety
///
/// 32 readable bytes at `p`, 32 writable `u64`s at `o`, AVX2.
#[inline(always)]
unsafe fn widen32_u64(p: *const u8, o: *mut u64) {
    // SAFETY: the contract above; each store writes 4 values.
    unsafe {
        let x = _mm256_loadu_si256(p.cast());
        let d = o.cast::<__m256i>();
        let halves = [_mm256_castsi256_si128(x), _mm256_extracti128_si256::<1>(x)];
        for (h, half) in halves.into_iter().enumerate() {
            let d = d.add(4 * h);
            _mm256_storeu_si256(d, _mm256_cvtepu8_epi64(half));
            _mm256_storeu_si256(d.add(1), _mm256_cvtepu8_epi64(_mm_srli_si128::<4>(half)));
            _mm256_storeu_si256(d.add(2), _mm256_cvtepu8_epi64(_mm_srli_si128::<8>(half)));
            _mm256_storeu_si256(d.add(3), _mm256_cvtepu8_epi64(_mm_srli_si128::<12>(half)));
        }
    }
}

/// 32 bytes widened to `u32`s.
///
/// # Safety
///
/// 32 readable bytes at `p`, 32 writable `u32`s at `o`, AVX2.
#[inline(always)]
unsafe fn widen32_u32(p: *const u8, o: *mut u32) {
    // SAFETY: the contract above; each store writes 8 values.
    unsafe {
        let x = _mm256_loadu_si256(p.cast());
        let d = o.cast::<__m256i>();
        let halves = [_mm256_castsi256_si128(x), _mm256_extracti128_si256::<1>(x)];
        for (h, half) in halves.into_iter().enumerate() {
            let d = d.add(2 * h);
            _mm256_storeu_si256(d, _mm256_cvtepu8_epi32(half));
            _mm256_storeu_si256(d.add(1), _mm256_cvtepu8_epi32(_mm_srli_si128::<8>(half)));
        }
    }
}

super::entry_points!(Avx2, avx2);

/// This kernel in the registry (`arch::kernels`).
pub(crate) const KERNEL: crate::arch::Kernel =
    super::registry_entry!("avx2", codec_arch::Isa::AVX2);

pub(crate) mod pext {
    //! The AVX2 kernel packing with BMI2 `pext`: one instruction instead
    //! of three shift-and-or steps, 1.6× faster on the protobuf-like mix.
    //! `pext` is microcoded on AMD before Zen 3 (tens to hundreds of
    //! cycles), so the dispatch chooses this kernel only on Intel and on
    //! AMD family 0x19 and later (`codec_arch::Features::FAST_PEXT`).

    use core::arch::x86_64::{
        __m128i, __m256i, _bzhi_u64, _mm_and_si128, _mm_loadu_si128, _mm_or_si128, _mm_set1_epi16,
        _mm_shuffle_epi8, _mm_srli_epi16, _mm_unpackhi_epi64, _mm256_cvtepu16_epi32,
        _mm256_cvtepu16_epi64, _mm256_storeu_si256, _pdep_u64, _pext_u64,
    };

    use super::Avx2;
    use crate::arch::kernel::Isa;

    /// [`Avx2`] with `pext`.
    pub(crate) struct Avx2Pext;

    impl Isa for Avx2Pext {
        #[inline(always)]
        unsafe fn continuations(p: *const u8) -> u64 {
            // SAFETY: the same contract as Avx2's.
            unsafe { Avx2::continuations(p) }
        }

        #[inline(always)]
        unsafe fn zeros(p: *const u8) -> u64 {
            // SAFETY: the same contract as Avx2's.
            unsafe { Avx2::zeros(p) }
        }

        #[inline(always)]
        unsafe fn widen_u64(p: *const u8, o: *mut u64) {
            // SAFETY: the same contract as Avx2's.
            unsafe { Avx2::widen_u64(p, o) }
        }

        #[inline(always)]
        unsafe fn widen_u32(p: *const u8, o: *mut u32) {
            // SAFETY: the same contract as Avx2's.
            unsafe { Avx2::widen_u32(p, o) }
        }

        #[inline(always)]
        unsafe fn pack(word: u64, len: u32) -> u64 {
            // SAFETY: BMI2, guaranteed by the caller.
            unsafe { _pext_u64(word, _bzhi_u64(0x7F7F_7F7F_7F7F_7F7F, 8 * len)) }
        }

        #[inline(always)]
        unsafe fn spread(v: u64) -> u64 {
            // SAFETY: BMI2, guaranteed by the caller.
            unsafe { _pdep_u64(v, 0x7F7F_7F7F_7F7F_7F7F) }
        }

        const PAIRS: bool = true;

        #[inline(always)]
        unsafe fn gather_bits(x: u64, mask: u64) -> u64 {
            // SAFETY: BMI2, guaranteed by the caller.
            unsafe { _pext_u64(x, mask) }
        }

        #[inline(always)]
        unsafe fn pairs_u64(p: *const u8, shuffle: &[u8; 16], o: *mut u64) {
            // SAFETY: 16 readable bytes at `p`, 8 writable `u64`s at `o`,
            // and AVX2, all guaranteed by the caller; each store writes 4.
            unsafe {
                let v = pairs(p, shuffle);
                let d = o.cast::<__m256i>();
                _mm256_storeu_si256(d, _mm256_cvtepu16_epi64(v));
                _mm256_storeu_si256(d.add(1), _mm256_cvtepu16_epi64(_mm_unpackhi_epi64(v, v)));
            }
        }

        #[inline(always)]
        unsafe fn pairs_u32(p: *const u8, shuffle: &[u8; 16], o: *mut u32) {
            // SAFETY: as in `pairs_u64`; the store writes 8 `u32`s.
            unsafe { _mm256_storeu_si256(o.cast(), _mm256_cvtepu16_epi32(pairs(p, shuffle))) }
        }
    }

    /// The eight 14-bit values of [`Isa::pairs_u64`] in the `u16` lanes of
    /// a register: `pshufb` puts each varint's bytes in its lane, and the
    /// second byte's 7 bits are moved down by one to join the first's.
    ///
    /// # Safety
    ///
    /// 16 readable bytes at `p`, AVX2.
    #[inline(always)]
    unsafe fn pairs(p: *const u8, shuffle: &[u8; 16]) -> __m128i {
        // SAFETY: the contract above; `shuffle` is 16 bytes.
        unsafe {
            let lanes = _mm_shuffle_epi8(
                _mm_loadu_si128(p.cast()),
                _mm_loadu_si128(shuffle.as_ptr().cast()),
            );
            let low = _mm_and_si128(lanes, _mm_set1_epi16(0x7F));
            let high = _mm_and_si128(_mm_srli_epi16::<1>(lanes), _mm_set1_epi16(0x3F80));
            _mm_or_si128(low, high)
        }
    }

    crate::arch::x86_64::entry_points!(Avx2Pext, avx2);

    /// This kernel in the registry (`arch::kernels`): AVX2's features and a
    /// fast `pext`.
    pub(crate) const KERNEL: crate::arch::Kernel =
        crate::arch::x86_64::registry_entry!("avx2-pext", codec_arch::Isa::AVX2.with_fast_pext());
}
