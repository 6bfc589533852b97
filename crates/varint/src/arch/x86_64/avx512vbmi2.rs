//! The AVX-512 VBMI2 kernel: the [`pext`](super::avx2::pext) kernel, whose
//! windows with a varint of two bytes or more decode eight varints at a
//! time in the 64-bit lanes of a 512-bit register ([`Isa::groups_u64`])
//! instead of one at a time.
//!
//! Per call, two `vpcompressb` of the byte indices 0..63, under the mask
//! of varint starts and the mask of varint ends, list every varint's first
//! and last byte. Per group of eight varints, two `vpermb` spread varint
//! `l`'s first and last byte index over the eight bytes of lane `l`; their
//! sum with 0..7 is the index of each of the varint's bytes, a compare
//! keeps those up to its last byte, and a zero-masking `vpermb` gathers
//! them from the window. The 7-bit groups are joined by `vpmaddubsw`
//! (pairs of bytes), `vpmaddwd` (pairs of 14-bit groups) and a shift and
//! `vpternlogq` (the two 28-bit halves), and a masked store writes exactly
//! the varints decoded. Where the window holds a varint of 9 or 10 bytes,
//! a third `vpermb` gathers bytes 9 and 10 into the top bits, and a
//! compare finds a 10th byte that overflows. A varint longer than that
//! (for `u32`, longer than 4 bytes, which may not fit) ends the groups: the
//! one at a time loop of `arch::kernel` decodes it, or stops in front of
//! it, and the groups go on after it.
//!
//! The masks, the one-byte windows and the encoder are the `pext`
//! kernel's; the slice length is the `avx512` kernel's (`vplzcntq`).
//!
//! VBMI2 (`vpcompressb`) exists on Intel from Ice Lake and on AMD from Zen
//! 4; Skylake-SP and Cascade Lake (AVX-512 without VBMI) keep the `avx512`
//! kernel. `vpcompressb` into a register (not memory, which is slow on Zen
//! 4) is all this kernel uses.

use core::arch::x86_64::{
    __m512i, _mm256_mask_storeu_epi32, _mm512_add_epi8, _mm512_and_si512, _mm512_cmpgt_epu8_mask,
    _mm512_cmple_epu8_mask, _mm512_cvtepi64_epi32, _mm512_loadu_si512, _mm512_madd_epi16,
    _mm512_maddubs_epi16, _mm512_mask_storeu_epi64, _mm512_maskz_compress_epi8,
    _mm512_maskz_permutexvar_epi8, _mm512_or_si512, _mm512_permutexvar_epi8, _mm512_set1_epi8,
    _mm512_set1_epi16, _mm512_set1_epi32, _mm512_set1_epi64, _mm512_slli_epi64, _mm512_srli_epi64,
    _mm512_ternarylogic_epi64, _pdep_u64,
};

use super::avx2::pext::Avx2Pext;
use crate::arch::kernel::{Isa, long_runs};
use crate::arch::{Entries, Kernel};

/// The instruction set of this kernel: AVX-512 F, BW, VL, VBMI and VBMI2,
/// with the `pext` kernel's AVX2, BMI1, BMI2 and POPCNT.
pub(crate) struct Avx512Vbmi2;

/// Byte `i` is `i`: the byte indices of a window, which `vpcompressb`
/// turns into the list of the varints' first (or last) bytes.
const IOTA: [u8; 64] = {
    let mut a = [0; 64];
    let mut i = 0;
    while i < 64 {
        a[i] = i as u8;
        i += 1;
    }
    a
};

/// Byte `8l + b` is `l`: every byte of lane `l` picks varint `l` of the
/// group from those lists.
const LANE: [u8; 64] = {
    let mut a = [0; 64];
    let mut i = 0;
    while i < 64 {
        a[i] = (i / 8) as u8;
        i += 1;
    }
    a
};

/// Byte `8l + b` is `b`: the place of each byte in its varint.
const BYTE: [u8; 64] = {
    let mut a = [0; 64];
    let mut i = 0;
    while i < 64 {
        a[i] = (i % 8) as u8;
        i += 1;
    }
    a
};

/// Varints per group: the 64-bit lanes of a register.
const GROUP: usize = 8;

/// An output type of [`groups`]: `u64` or `u32`.
trait Out: Sized {
    /// Whether a lane takes bytes 9 and 10 too (`u64`).
    const TAIL: bool;

    /// Writes the lanes of `mask` of `lanes` to `o[0..8]`.
    ///
    /// # Safety
    ///
    /// `o[j]` writable for every bit `j` of `mask`, and the features of
    /// this module.
    unsafe fn store(o: *mut Self, lanes: __m512i, mask: u8);
}

impl Out for u64 {
    const TAIL: bool = true;
    #[inline(always)]
    unsafe fn store(o: *mut Self, lanes: __m512i, mask: u8) {
        // SAFETY: the contract above; a masked store writes only the
        // lanes of its mask.
        unsafe { _mm512_mask_storeu_epi64(o.cast(), mask, lanes) }
    }
}

impl Out for u32 {
    const TAIL: bool = false;
    #[inline(always)]
    unsafe fn store(o: *mut Self, lanes: __m512i, mask: u8) {
        // SAFETY: as for `u64`; a varint of at most 4 bytes fits in the
        // low 32 bits of its lane, which `vpmovqd` keeps.
        unsafe { _mm256_mask_storeu_epi32(o.cast(), mask, _mm512_cvtepi64_epi32(lanes)) }
    }
}

/// [`Isa::groups_u64`] into `T`: the varints of the window at `p` from
/// byte `start` up to the first long one (holding a bit of `long`), each
/// group of eight packed into the 64-bit lanes of a register and stored at
/// `o`.
///
/// # Safety
///
/// As [`Isa::groups_u64`], and the features of this module.
#[inline(always)]
unsafe fn groups<T: Out>(
    p: *const u8,
    start: usize,
    ends: u64,
    long: u64,
    o: *mut T,
) -> (usize, usize) {
    // The varints that end before the first long byte from `start` on.
    let long = long & u64::MAX << start;
    let short = ends & !u64::MAX.checked_shl(long.trailing_zeros()).unwrap_or(0);
    let count = short.count_ones() as usize;
    let starts = ends << 1 | 1u64 << start;
    // SAFETY: the window is readable (the caller's promise); the constants
    // are 64 bytes; the features are the caller's promise.
    unsafe {
        let data = _mm512_loadu_si512(p.cast());
        let iota = _mm512_loadu_si512(IOTA.as_ptr().cast());
        // Byte `j`: the first (last) byte of varint `j`, for every varint
        // counted; zero past them.
        let firsts = _mm512_maskz_compress_epi8(starts, iota);
        let lasts = _mm512_maskz_compress_epi8(ends, iota);
        // The loop with bytes 9 and 10 only where a varint has them
        // (a run of 8 continuation bytes before the last end counted): a
        // branch per call, cheaper on the protobuf-like mix (half its
        // windows hold one) than the tail's work for every group.
        let within = u64::MAX.checked_shr(short.leading_zeros()).unwrap_or(0);
        let nine = long_runs(!ends & u64::MAX << start & within, 8);
        let done = if T::TAIL && nine != 0 {
            group_loop::<T, true>(data, firsts, lasts, count, o)
        } else {
            group_loop::<T, false>(data, firsts, lasts, count, o)
        };
        // The varint after the last one decoded starts at set bit `done`
        // of `starts`; none (0, so 64) if that was the window's last byte.
        let next = _pdep_u64(1u64.checked_shl(done as u32).unwrap_or(0), starts);
        (done, next.trailing_zeros() as usize)
    }
}

impl Isa for Avx512Vbmi2 {
    type S = codec_arch::x86_64::Avx2;

    #[inline(always)]
    unsafe fn simd() -> codec_arch::x86_64::Avx2 {
        // SAFETY: the caller's promise: the CPU has AVX-512 VBMI2, which
        // implies AVX2, BMI1 and BMI2.
        unsafe { codec_arch::x86_64::Avx2::new() }
    }

    #[inline(always)]
    unsafe fn pack(word: u64, len: u32) -> u64 {
        // SAFETY: the same contract as Avx2Pext's.
        unsafe { Avx2Pext::pack(word, len) }
    }

    #[inline(always)]
    unsafe fn spread(v: u64) -> u64 {
        // SAFETY: the same contract as Avx2Pext's.
        unsafe { Avx2Pext::spread(v) }
    }

    const GROUPS: bool = true;

    #[inline(always)]
    unsafe fn groups_u64(
        p: *const u8,
        start: usize,
        ends: u64,
        long: u64,
        o: *mut u64,
    ) -> (usize, usize) {
        // SAFETY: the same contract.
        unsafe { groups(p, start, ends, long, o) }
    }

    #[inline(always)]
    unsafe fn groups_u32(
        p: *const u8,
        start: usize,
        ends: u64,
        long: u64,
        o: *mut u32,
    ) -> (usize, usize) {
        // SAFETY: the same contract.
        unsafe { groups(p, start, ends, long, o) }
    }
}

/// Stamps the four decoding entry points with one `codec_arch` level.
macro_rules! decoders {
    ($level:ident) => {
        codec_arch::enable! { $level;
            /// The kernel into `u64`s, lenient; see `arch::kernel::decode`.
            pub(crate) fn decode_u64(input: &[u8], out: &mut [u64]) -> (usize, usize) {
                // SAFETY: this function is compiled with the features the
                // kernel needs, and callable only where the CPU has them.
                unsafe { crate::arch::kernel::decode::<Avx512Vbmi2, u64, false>(input, out) }
            }
        }

        codec_arch::enable! { $level;
            /// The kernel into `u64`s, strict.
            pub(crate) fn decode_u64_strict(input: &[u8], out: &mut [u64]) -> (usize, usize) {
                // SAFETY: as in `decode_u64`.
                unsafe { crate::arch::kernel::decode::<Avx512Vbmi2, u64, true>(input, out) }
            }
        }

        codec_arch::enable! { $level;
            /// The kernel into `u32`s, lenient.
            pub(crate) fn decode_u32(input: &[u8], out: &mut [u32]) -> (usize, usize) {
                // SAFETY: as in `decode_u64`.
                unsafe { crate::arch::kernel::decode::<Avx512Vbmi2, u32, false>(input, out) }
            }
        }

        codec_arch::enable! { $level;
            /// The kernel into `u32`s, strict.
            pub(crate) fn decode_u32_strict(input: &[u8], out: &mut [u32]) -> (usize, usize) {
                // SAFETY: as in `decode_u64`.
                unsafe { crate::arch::kernel::decode::<Avx512Vbmi2, u32, true>(input, out) }
            }
        }
    };
}

decoders!(avx512vbmi2);

/// This kernel in the registry (`arch::kernels`): its decoders, the `pext`
/// kernel's encoders and the `avx512` kernel's slice lengths.
pub(crate) const KERNEL: Kernel = Kernel(codec_arch::Entry::new(
    "avx512vbmi2",
    codec_arch::Isa::AVX512VBMI2.with_fast_pext(),
    Entries {
        u64_lenient: decode_u64,
        u64_strict: decode_u64_strict,
        u32_lenient: decode_u32,
        u32_strict: decode_u32_strict,
        encode_u64: super::avx2::pext::encode_u64,
        encode_u32: super::avx2::pext::encode_u32,
        len_u64: super::avx512::len_u64,
        len_u32: super::avx512::len_u32,
    },
));

/// The groups of eight of [`groups`]: `count` varints of the window
/// `data`, whose first and last bytes are listed in `firsts` and `lasts`,
/// into `o`; with `TAIL`, varints of 9 and 10 bytes too. Returns the
/// number decoded: `count`, or fewer in front of a 10-byte varint that
/// overflows.
///
/// # Safety
///
/// `o..o + count` writable, the features of this module.
#[inline(always)]
unsafe fn group_loop<T: Out, const TAIL: bool>(
    data: __m512i,
    firsts: __m512i,
    lasts: __m512i,
    count: usize,
    o: *mut T,
) -> usize {
    // SAFETY: the constants are 64 bytes; the stores as said below; the
    // features are the caller's promise.
    unsafe {
        let byte = _mm512_loadu_si512(BYTE.as_ptr().cast());
        let mut pick = _mm512_loadu_si512(LANE.as_ptr().cast());
        let mut done = 0;
        while done < count {
            let first = _mm512_permutexvar_epi8(pick, firsts);
            let last = _mm512_permutexvar_epi8(pick, lasts);
            let at = _mm512_add_epi8(first, byte);
            // The varint's bytes; the lane's others read as zero. (Lanes
            // past `count` hold garbage and are not stored.)
            let inside = _mm512_cmple_epu8_mask(at, last);
            let bytes = _mm512_maskz_permutexvar_epi8(inside, at, data);
            let groups = _mm512_and_si512(bytes, _mm512_set1_epi8(0x7F));
            // Byte pairs to 14 bits (the groups are the signed operand,
            // at most 0x7F), pairs of those to 28, then the two halves.
            let x = _mm512_maddubs_epi16(_mm512_set1_epi16(0x8001_u16 as i16), groups);
            let x = _mm512_madd_epi16(x, _mm512_set1_epi32(0x4000_0001));
            // Bits 28..63 from the upper half moved down by 4, the others
            // from the lower: `c ? b : a` is 0xD8.
            let mut lanes = _mm512_ternarylogic_epi64::<0xD8>(
                x,
                _mm512_srli_epi64::<4>(x),
                _mm512_set1_epi64(!0x0FFF_FFFF),
            );
            let mut left = (count - done).min(GROUP);
            if TAIL {
                // Bytes 9 and 10 of the varints that have them, in bytes 0
                // and 1 of their lanes.
                let at = _mm512_add_epi8(at, _mm512_set1_epi8(8));
                let inside = _mm512_cmple_epu8_mask(at, last) & 0x0303_0303_0303_0303;
                let tail = _mm512_maskz_permutexvar_epi8(inside, at, data);
                // A 10th byte above 1 overflows: stop in front of it (the
                // one at a time loop reports it).
                // (A branch, not a `min`: the store and the loop's exit
                // waiting on this compare measured 1.5-2x slower.)
                let over = _mm512_cmpgt_epu8_mask(tail, _mm512_set1_epi8(1));
                let over = over & 0x0202_0202_0202_0202;
                if over != 0 {
                    left = left.min(over.trailing_zeros() as usize / 8);
                }
                // 7 bits and 1, at bit 56.
                let tail = _mm512_maddubs_epi16(
                    _mm512_set1_epi16(0x8001_u16 as i16),
                    _mm512_and_si512(tail, _mm512_set1_epi8(0x7F)),
                );
                lanes = _mm512_or_si512(lanes, _mm512_slli_epi64::<56>(tail));
            }
            // SAFETY: `done + left <= count <= popcount(ends)`, and the
            // mask keeps only the lanes below it.
            T::store(o.add(done), lanes, ((1u16 << left) - 1) as u8);
            done += left;
            if left < GROUP {
                break;
            }
            pick = _mm512_add_epi8(pick, _mm512_set1_epi8(GROUP as i8));
        }
        done
    }
}
