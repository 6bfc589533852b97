//! The AVX2 kernel: the generic kernel on the `Avx2` token (a window is two
//! 32-byte registers; one-byte runs are widened with
//! `vpmovzxbq`/`vpmovzxbd`), the groups packed with shifts (BMI1/BMI2 give
//! `tzcnt` and `bzhi`). [`pext`] is the same kernel packing
//! with BMI2 `pext`, chosen only where `pext` is fast.

use crate::arch::kernel::{Isa, pack_shifts, spread_shifts};

/// The choices of this kernel: the `Avx2` token, packing with shifts.
pub(crate) struct Avx2;

impl Isa for Avx2 {
    type S = codec_arch::x86_64::Avx2;

    #[inline(always)]
    unsafe fn simd() -> codec_arch::x86_64::Avx2 {
        // SAFETY: the caller's promise: the CPU has AVX2, BMI1 and BMI2.
        unsafe { codec_arch::x86_64::Avx2::new() }
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

    use codec_arch::Simd;
    use codec_arch::x86_64::Sse41;
    use core::arch::x86_64::{
        __m128i, __m256i, _bzhi_u64, _mm_unpackhi_epi64, _mm256_cvtepu16_epi32,
        _mm256_cvtepu16_epi64, _mm256_storeu_si256, _pdep_u64, _pext_u64,
    };

    use crate::arch::kernel::Isa;

    /// [`Avx2`](super::Avx2) with `pext`. The pairs' lanes are `Simd`
    /// operations on the 16-byte token; widening them into one 32-byte
    /// register (`vpmovzxwd`/`vpmovzxwq` from 16 bytes) stays here, an
    /// operation between two widths that `Simd` does not have.
    pub(crate) struct Avx2Pext;

    impl Isa for Avx2Pext {
        type S = codec_arch::x86_64::Avx2;

        #[inline(always)]
        unsafe fn simd() -> codec_arch::x86_64::Avx2 {
            // SAFETY: the caller's promise: the CPU has AVX2, BMI1 and BMI2.
            unsafe { codec_arch::x86_64::Avx2::new() }
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
        // SAFETY: AVX2 implies SSE4.1, the caller's promise.
        let s = unsafe { Sse41::new() };
        // SAFETY: 16 readable bytes at `p`, the caller's promise.
        let lanes = s.shuffle8(unsafe { s.load(p) }, s.broadcast16(shuffle));
        let low = s.and(lanes, s.splat16(0x7F));
        let high = s.and(s.shr16::<1>(lanes), s.splat16(0x3F80));
        s.or(low, high)
    }

    crate::arch::x86_64::entry_points!(Avx2Pext, avx2);

    /// This kernel in the registry (`arch::kernels`): AVX2's features and a
    /// fast `pext`.
    pub(crate) const KERNEL: crate::arch::Kernel =
        crate::arch::x86_64::registry_entry!("avx2-pext", codec_arch::Isa::AVX2.with_fast_pext());
}
