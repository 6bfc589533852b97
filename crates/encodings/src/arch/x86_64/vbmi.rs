//! The AVX-512 VBMI kernels: 64 bytes a step, each half of a 256-entry
//! table looked up by one two-register byte permute (`vpermi2b`, 128
//! entries at once), and the encoder's leads compacted by `vpcompressd`.
//! The algorithms differ from the `pshufb` ones of [`super::lookup`]
//! (no rows, no telescoping), so they are written apart.

use super::super::common::Runs;
use super::super::{Dense, Encoder, Kernel, Unit, to_utf16_scalar, utf8_scalar};
use super::lookup::compress_pairs;
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
        checked: Some(encode_vbmi_checked),
        ascii_only: false,
    }),
    ascii: Some(super::ASCII512),
    isa: Isa::AVX512VBMI,
};

/// [`VBMI`] with AVX-512 VBMI2's byte compress for what the decoder to
/// UTF-8 and the encoder keep (Intel from Ice Lake, AMD from Zen 4; the
/// register form only: Zen 4 runs the compress-to-memory form slowly).
pub(crate) static VBMI2: Kernel = Kernel {
    name: "avx512vbmi2",
    to_utf16: to_utf16_vbmi,
    to_utf8: Some(to_utf8_vbmi2),
    encode: Some(Encoder {
        run: encode_vbmi2,
        checked: Some(encode_vbmi2_checked),
        ascii_only: false,
    }),
    ascii: Some(super::ASCII512),
    isa: Isa::AVX512VBMI2,
};

/// # Safety
///
/// The CPU must have `codec_arch`'s `avx512vbmi` level.
unsafe fn to_utf16_vbmi(page: &SingleByte, src: &[u8], dst: &mut [Unit]) -> usize {
    // SAFETY: the caller proves the features.
    unsafe { convert_vbmi(page.table, src, dst) }
}

codec_arch::enable! { avx512vbmi;
    fn convert_vbmi(table: &[u16; 256], src: &[u8], dst: &mut [Unit]) -> usize {
        use core::arch::x86_64::{
            __m512i, _mm512_cmpeq_epi8_mask, _mm512_loadu_si512, _mm512_mask_blend_epi8,
            _mm512_movepi8_mask, _mm512_permutex2var_epi8, _mm512_permutex2var_epi64,
            _mm512_set_epi64,
            _mm512_set1_epi8, _mm512_setzero_si512, _mm512_storeu_si512, _mm512_unpackhi_epi8,
            _mm512_unpacklo_epi8,
        };
        let len = src.len().min(dst.len());
        // SAFETY: this function has the `avx512vbmi` level.
        let (ascii, [lo_rows, hi_rows]) = unsafe { planes::<false>(table) };
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
    unsafe { utf8_vbmi(page.table, src, dst) }
}

codec_arch::enable! { avx512vbmi;
    fn utf8_vbmi(
        table: &[u16; 256],
        src: &[u8],
        dst: &mut [core::mem::MaybeUninit<u8>],
    ) -> (usize, usize) {
        // SAFETY: this function has the `avx512vbmi` level.
        unsafe { utf8_body::<false>(table, src, dst) }
    }
}

/// [`to_utf8_vbmi`] with the pairs compacted by AVX-512 VBMI2's byte
/// compress, 64 bytes of output an instruction, where VBMI alone takes
/// eight 16-byte shuffles and their table loads.
///
/// # Safety
///
/// The CPU must have `codec_arch`'s `avx512vbmi2` level.
unsafe fn to_utf8_vbmi2(
    page: &SingleByte,
    src: &[u8],
    dst: &mut [core::mem::MaybeUninit<u8>],
) -> (usize, usize) {
    // SAFETY: the caller proves the features.
    unsafe { utf8_vbmi2(page.table, src, dst) }
}

codec_arch::enable! { avx512vbmi2;
    fn utf8_vbmi2(
        table: &[u16; 256],
        src: &[u8],
        dst: &mut [core::mem::MaybeUninit<u8>],
    ) -> (usize, usize) {
        // SAFETY: this function has the `avx512vbmi2` level.
        unsafe { utf8_body::<true>(table, src, dst) }
    }
}

/// The decoder to UTF-8 of [`to_utf8_vbmi`] (`VBMI2` false) and
/// [`to_utf8_vbmi2`] (true): they differ only in how the pairs are
/// compacted.
///
/// # Safety
///
/// The CPU must have the `avx512vbmi` level, and `avx512vbmi2` if `VBMI2`.
#[inline(always)]
unsafe fn utf8_body<const VBMI2: bool>(
    table: &[u16; 256],
    src: &[u8],
    dst: &mut [core::mem::MaybeUninit<u8>],
) -> (usize, usize) {
    use core::arch::x86_64::{
        __m512i, _mm512_cmpeq_epi8_mask, _mm512_extracti32x4_epi32, _mm512_loadu_si512,
        _mm512_mask_blend_epi8, _mm512_mask2_permutex2var_epi8, _mm512_maskz_permutex2var_epi8,
        _mm512_movepi8_mask, _mm512_permutex2var_epi8, _mm512_set1_epi8, _mm512_storeu_si512,
        _mm512_unpackhi_epi8, _mm512_unpacklo_epi8,
    };
    // The UTF-8 of each byte's unit as a lead (the byte itself below
    // 0x80; 0xFF, never in UTF-8, for a unit from 0x800 or undefined) and
    // a continuation (`utf8_pairs`), in four 64-byte rows each.
    // SAFETY: the caller proves the `avx512vbmi` level, which both need.
    let (ascii, [leads, conts]) = unsafe { planes::<true>(table) };
    // SAFETY: the caller proves the `avx512vbmi` level, which the
    // intrinsics below need (those without a comment of their own).
    unsafe {
        let (mut i, mut w) = (0, 0);
        while i + 64 <= src.len() && w + 192 <= dst.len() {
            let block = &src[i..i + 64];
            // SAFETY: `block` is 64 readable bytes.
            let v = _mm512_loadu_si512(block.as_ptr().cast::<__m512i>());
            let high = _mm512_movepi8_mask(v);
            if ascii && high == 0 {
                let out = &mut dst[w..w + 64];
                // SAFETY: `out` is 64 writable bytes.
                _mm512_storeu_si512(out.as_mut_ptr().cast::<__m512i>(), v);
                i += 64;
                w += 64;
                continue;
            }
            // The permute indexes by the low 7 bits: the high half's rows for
            // bytes from 0x80, the low half's (or the byte itself) below.
            let (first, second) = if ascii {
                // One permute a plane: a lane below 0x80 keeps its byte as
                // the lead (`mask2`: the index register's own lane) and 0 as
                // the continuation (`maskz`).
                (
                    _mm512_mask2_permutex2var_epi8(leads[2], v, high, leads[3]),
                    _mm512_maskz_permutex2var_epi8(high, conts[2], v, conts[3]),
                )
            } else {
                let upper_lead = _mm512_permutex2var_epi8(leads[2], v, leads[3]);
                let upper_cont = _mm512_permutex2var_epi8(conts[2], v, conts[3]);
                let lower_lead = _mm512_permutex2var_epi8(leads[0], v, leads[1]);
                let lower_cont = _mm512_permutex2var_epi8(conts[0], v, conts[1]);
                (
                    _mm512_mask_blend_epi8(high, lower_lead, upper_lead),
                    _mm512_mask_blend_epi8(high, lower_cont, upper_cont),
                )
            };
            // Bit k: byte k is two bytes of UTF-8 (a continuation has its
            // top bit set; a one-byte character's and an undefined byte's
            // is 0). `vpmovb2m` runs beside the permutes, where a compare
            // into a mask would queue with them.
            let two = _mm512_movepi8_mask(second);
            // On an ASCII page a block whose every high byte is two bytes of
            // UTF-8 has nothing undefined; otherwise look for the 0xFF lead.
            if !(ascii && two == high) && _mm512_cmpeq_epi8_mask(first, _mm512_set1_epi8(-1)) != 0 {
                // A unit from 0x800 or an undefined byte: one at a time.
                let (ni, nw) = utf8_scalar(table, src, dst, i, w, i + 64);
                let stopped = ni < i + 64;
                (i, w) = (ni, nw);
                if stopped {
                    return (i, w);
                }
                continue;
            }
            if VBMI2 {
                // SAFETY: the caller proves `avx512vbmi2`; `dst[w..]` has
                // the 128 writable bytes it needs (the loop's condition).
                w += compact_vbmi2(first, second, two, &mut dst[w..w + 128]);
                i += 64;
                continue;
            }
            // Bit k: byte k is one byte of UTF-8 (its continuation dropped).
            let one = !two;
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

/// Interleaves 64 leads and their continuations into 128 bytes of UTF-8
/// pairs, drops the continuations of one-byte characters (the lanes
/// without a bit in `two`), and writes what is kept at the start of `out`
/// (two 64-byte stores); returns how many bytes count.
///
/// # Safety
///
/// The CPU must have the `avx512vbmi2` level.
#[inline(always)]
unsafe fn compact_vbmi2(
    first: core::arch::x86_64::__m512i,
    second: core::arch::x86_64::__m512i,
    two: u64,
    out: &mut [core::mem::MaybeUninit<u8>],
) -> usize {
    use core::arch::x86_64::{
        __m512i, _mm512_castsi512_si256, _mm512_inserti64x4, _mm512_loadu_si512,
        _mm512_maskz_compress_epi8, _mm512_permutexvar_epi8, _mm512_shuffle_i64x2,
        _mm512_storeu_si512, _pdep_u64,
    };
    // Every lead is kept (even byte lanes), a continuation where `two` has
    // the bit: spread to the odd lanes by `pdep` (a scalar port), not
    // tested in the vector (the permutes' port).
    const LEADS: u64 = 0x5555_5555_5555_5555;
    const CONTS: u64 = 0xAAAA_AAAA_AAAA_AAAA;
    let out = &mut out[..128];
    // SAFETY: the caller proves the features; `HALVES` is 64 readable
    // bytes and `out` 128 writable ones (unaligned loads and stores).
    unsafe {
        // Each half of the pairs by a one-register permute of a register
        // holding the leads and continuations of its 32 characters: the
        // insert or shuffle that gathers them and `vpermb` ran a French or
        // Russian decode 4–7% faster than the two-register `vpermt2b` (Intel
        // Sapphire Rapids; Zen 4 unmeasured).
        let index = _mm512_loadu_si512(HALVES.as_ptr().cast::<__m512i>());
        let low = _mm512_permutexvar_epi8(
            index,
            _mm512_inserti64x4::<1>(first, _mm512_castsi512_si256(second)),
        );
        let high = _mm512_permutexvar_epi8(index, _mm512_shuffle_i64x2::<0xEE>(first, second));
        let keep_low = _pdep_u64(two & 0xFFFF_FFFF, CONTS) | LEADS;
        let keep_high = _pdep_u64(two >> 32, CONTS) | LEADS;
        let n = keep_low.count_ones() as usize;
        _mm512_storeu_si512(
            out.as_mut_ptr().cast::<__m512i>(),
            _mm512_maskz_compress_epi8(keep_low, low),
        );
        _mm512_storeu_si512(
            out[n..].as_mut_ptr().cast::<__m512i>(),
            _mm512_maskz_compress_epi8(keep_high, high),
        );
        n + keep_high.count_ones() as usize
    }
}

/// The permute indices that interleave the two 32-byte halves of one
/// register: lane `2k` takes byte `k`, lane `2k + 1` byte `32 + k`.
static HALVES: [u8; 64] = {
    let mut t = [0u8; 64];
    let mut k = 0;
    while k < 32 {
        t[2 * k] = k as u8;
        t[2 * k + 1] = 32 + k as u8;
        k += 1;
    }
    t
};

/// The kernels' look-up rows, built 32 entries an instruction (a scalar
/// loop over the 256 entries cost about a fifth of a 16 KiB call): the
/// table's entries (`UTF8` false) or their [`utf8_pair_lanes`], whose low
/// bytes make the first four 64-byte rows and high bytes the second four.
/// Also whether the page's low half is ASCII. (No closures: one would not
/// inherit the caller's features, and its intrinsics would not inline.)
///
/// # Safety
///
/// The CPU must have the `avx512vbmi` level.
#[inline(always)]
unsafe fn planes<const UTF8: bool>(
    table: &[u16; 256],
) -> (bool, [[core::arch::x86_64::__m512i; 4]; 2]) {
    use core::arch::x86_64::{
        __m512i, _mm512_cmpeq_epi16_mask, _mm512_loadu_si512, _mm512_permutex2var_epi8,
        _mm512_setzero_si512,
    };
    // SAFETY: the caller proves the features; `table` is 512 readable bytes,
    // eight 64-byte loads, and `EVEN_ODD`/`IOTA16` are 128 and 256 (no
    // alignment needed).
    unsafe {
        let mut values = [_mm512_setzero_si512(); 8];
        let mut ascii = true;
        for (k, v) in values.iter_mut().enumerate() {
            let units = _mm512_loadu_si512(table[32 * k..].as_ptr().cast::<__m512i>());
            if k < 4 {
                let iota = _mm512_loadu_si512(IOTA16[32 * k..].as_ptr().cast::<__m512i>());
                ascii &= _mm512_cmpeq_epi16_mask(units, iota) == u32::MAX;
            }
            *v = if UTF8 { utf8_pair_lanes(units) } else { units };
        }
        let even = _mm512_loadu_si512(EVEN_ODD[..64].as_ptr().cast::<__m512i>());
        let odd = _mm512_loadu_si512(EVEN_ODD[64..].as_ptr().cast::<__m512i>());
        let mut rows = [[_mm512_setzero_si512(); 4]; 2];
        for k in 0..4 {
            rows[0][k] = _mm512_permutex2var_epi8(values[2 * k], even, values[2 * k + 1]);
            rows[1][k] = _mm512_permutex2var_epi8(values[2 * k], odd, values[2 * k + 1]);
        }
        (ascii, rows)
    }
}

/// [`utf8_pairs`](super::lookup::utf8_pairs) on 32 table entries at once.
///
/// # Safety
///
/// The CPU must have the `avx512vbmi` level.
#[inline(always)]
unsafe fn utf8_pair_lanes(u: core::arch::x86_64::__m512i) -> core::arch::x86_64::__m512i {
    use core::arch::x86_64::{
        _mm512_and_si512, _mm512_cmplt_epu16_mask, _mm512_mask_blend_epi16, _mm512_or_si512,
        _mm512_set1_epi16, _mm512_slli_epi16, _mm512_srli_epi16,
    };
    // SAFETY: the caller proves the features (AVX-512BW, which the
    // `avx512vbmi` level implies).
    unsafe {
        let lead = _mm512_or_si512(_mm512_srli_epi16::<6>(u), _mm512_set1_epi16(0xC0));
        let cont = _mm512_or_si512(
            _mm512_and_si512(u, _mm512_set1_epi16(0x3F)),
            _mm512_set1_epi16(0x80),
        );
        let two = _mm512_or_si512(lead, _mm512_slli_epi16::<8>(cont));
        let one = _mm512_cmplt_epu16_mask(u, _mm512_set1_epi16(0x80));
        let fits = _mm512_cmplt_epu16_mask(u, _mm512_set1_epi16(0x800));
        let pairs = _mm512_mask_blend_epi16(fits, _mm512_set1_epi16(0xFF), two);
        _mm512_mask_blend_epi16(one, pairs, u)
    }
}

/// Permute indices that pick the even bytes (low bytes of 16-bit lanes) of
/// two registers, then the odd ones.
static EVEN_ODD: [u8; 128] = {
    let mut t = [0u8; 128];
    let mut k = 0;
    while k < 64 {
        t[k] = 2 * k as u8;
        t[64 + k] = 2 * k as u8 + 1;
        k += 1;
    }
    t
};

/// 0, 1, …, 127 as 16-bit values: the ASCII half of a table.
static IOTA16: [u16; 128] = {
    let mut t = [0u16; 128];
    let mut k = 0;
    while k < 128 {
        t[k] = k as u16;
        k += 1;
    }
    t
};

/// 0, 1, …, 127: the ASCII half of a dense table.
static IOTA8: [u8; 128] = {
    let mut t = [0u8; 128];
    let mut k = 0;
    while k < 128 {
        t[k] = k as u8;
        k += 1;
    }
    t
};

/// [`Runs`]' `lo`, `len` and `delta` of the first runs, then of the
/// second, for [`affine_block`]: each as 64 entries, entry `k` the run of
/// the lead pair whose leads end in `k` (`lead & 0x3F`, slot `k >> 1 & 15`),
/// so that a permute reads every lane's run by its lead byte itself; `lo`
/// and `delta` offset by 0x80 for the encoder's indexes, whose bit 7 is
/// the continuation's own.
///
/// # Safety
///
/// The CPU must have the `avx512vbmi` level.
#[inline(always)]
unsafe fn run_tables(runs: &Runs) -> [core::arch::x86_64::__m512i; 6] {
    use core::arch::x86_64::{
        __m128i, __m512i, _mm_loadu_si128, _mm512_add_epi8, _mm512_castsi128_si512,
        _mm512_loadu_si512, _mm512_permutexvar_epi8, _mm512_set1_epi8,
    };
    let (a, b) = (&runs.first, &runs.second);
    // SAFETY: the caller proves the features; each table is 16 readable
    // bytes and `SLOTS` 64 (unaligned loads).
    unsafe {
        let slots = _mm512_loadu_si512(SLOTS.as_ptr().cast::<__m512i>());
        let spread = |t: &[u8; 16]| {
            let t = _mm512_castsi128_si512(_mm_loadu_si128(t.as_ptr().cast::<__m128i>()));
            _mm512_permutexvar_epi8(slots, t)
        };
        let high = _mm512_set1_epi8(0x80u8 as i8);
        [
            _mm512_add_epi8(spread(&a.lo), high),
            spread(&a.len),
            _mm512_add_epi8(spread(&a.delta), high),
            _mm512_add_epi8(spread(&b.lo), high),
            spread(&b.len),
            _mm512_add_epi8(spread(&b.delta), high),
        ]
    }
}

/// A lead pair and its 128-entry slice of a dense table, in two
/// registers.
type Slice = (u8, core::arch::x86_64::__m512i, core::arch::x86_64::__m512i);

/// For [`encode_body`]'s block at `src[i..]`: the lanes of `at` (some of
/// its continuation lanes `after`, `pairs` the pairs of their leads)
/// whose lead is of the pair `held` keeps from the blocks before, and its
/// slice: no lead byte read and no slice loaded, where the loads that
/// wait for a lead took CP437 French 10% longer. Else the lanes of
/// `after` of the pair of `at`'s first lane, and its slice of `bytes`,
/// loaded and kept in `held`. (A function, not a closure: a closure's
/// intrinsics were not inlined, and the encoder ran 3–7× slower.)
///
/// # Safety
///
/// The CPU must have the `avx512vbmi` level.
#[inline(always)]
unsafe fn pick(
    held: &mut Slice,
    at: u64,
    after: u64,
    pairs: core::arch::x86_64::__m512i,
    bytes: &[u8; 0x800],
    src: &[u8],
    i: usize,
) -> (
    u64,
    core::arch::x86_64::__m512i,
    core::arch::x86_64::__m512i,
) {
    use core::arch::x86_64::{
        __m512i, _mm512_loadu_si512, _mm512_mask_cmpeq_epi8_mask, _mm512_set1_epi8,
        _mm512_setzero_si512,
    };
    // SAFETY: the caller proves the features; each load reads 64 bytes of
    // a 128-byte slice of `bytes` (bounds-checked), unaligned.
    unsafe {
        if at == 0 {
            return (0, _mm512_setzero_si512(), _mm512_setzero_si512());
        }
        let lanes = _mm512_mask_cmpeq_epi8_mask(at, pairs, _mm512_set1_epi8(held.0 as i8));
        if lanes != 0 {
            return (lanes, held.1, held.2);
        }
        // The lead before the first lane of `at`: at lane 0 the carried
        // one, before `i` (a block was taken before it, so `i >= 64`).
        let pair = src[i + at.trailing_zeros() as usize - 1] & 0xFE;
        let same = _mm512_mask_cmpeq_epi8_mask(after, pairs, _mm512_set1_epi8(pair as i8));
        let base = usize::from(pair & 0x1F) * 64;
        let slice = &bytes[base..base + 128];
        *held = (
            pair,
            _mm512_loadu_si512(slice.as_ptr().cast::<__m512i>()),
            _mm512_loadu_si512(slice[64..].as_ptr().cast::<__m512i>()),
        );
        (same, held.1, held.2)
    }
}

/// The slot (`k >> 1 & 15`) of each lead's low six bits `k`.
static SLOTS: [u8; 64] = {
    let mut t = [0u8; 64];
    let mut k = 0;
    while k < 64 {
        t[k] = (k as u8 >> 1) & 15;
        k += 1;
    }
    t
};

/// `others` with the bytes of a block's characters in those of its
/// continuation lanes `after` that fall in an affine run of their lead's
/// pair ([`Runs`]; the second runs only with `TWO`), and those lanes: one
/// masked add to `index` (each continuation's index in its pair's slice,
/// plus 0x80, see [`run_tables`]), the runs of each lane's pair read by a
/// permute of its lead (`prev`: the byte before each lane), whatever pairs
/// the block mixes; no look-up of a slice, whose address waits for a lead
/// byte read from memory.
///
/// # Safety
///
/// The CPU must have the `avx512vbmi` level.
#[inline(always)]
unsafe fn affine_block<const TWO: bool>(
    [lo, len, delta, lo2, len2, delta2]: [core::arch::x86_64::__m512i; 6],
    prev: core::arch::x86_64::__m512i,
    index: core::arch::x86_64::__m512i,
    after: u64,
    others: core::arch::x86_64::__m512i,
) -> (core::arch::x86_64::__m512i, u64) {
    use core::arch::x86_64::{
        _mm512_mask_add_epi8, _mm512_mask_blend_epi8, _mm512_mask_cmplt_epu8_mask,
        _mm512_permutexvar_epi8, _mm512_sub_epi8,
    };
    // SAFETY: the caller proves the features.
    unsafe {
        // The run tables hold 64 entries by a lead's low six bits: the
        // byte before each lane indexes them as it is.
        let slot = prev;
        // In a run: `index - lo` below `len`, unsigned.
        let t = _mm512_sub_epi8(index, _mm512_permutexvar_epi8(slot, lo));
        let first = _mm512_mask_cmplt_epu8_mask(after, t, _mm512_permutexvar_epi8(slot, len));
        if !TWO {
            let d = _mm512_permutexvar_epi8(slot, delta);
            return (_mm512_mask_add_epi8(others, first, index, d), first);
        }
        let t2 = _mm512_sub_epi8(index, _mm512_permutexvar_epi8(slot, lo2));
        let second = _mm512_mask_cmplt_epu8_mask(after, t2, _mm512_permutexvar_epi8(slot, len2));
        let d = _mm512_mask_blend_epi8(
            first,
            _mm512_permutexvar_epi8(slot, delta2),
            _mm512_permutexvar_epi8(slot, delta),
        );
        let inside = first | second;
        (_mm512_mask_add_epi8(others, inside, index, d), inside)
    }
}

/// The entry points: [`encode_body`] for one level and form each, as a
/// safe `#[target_feature]` function, which coerces to the `unsafe fn`
/// pointer of `Encoder::run` and `Encoder::checked`, whose caller proves
/// the features.
macro_rules! encode_entry {
    ($name:ident, $level:ident, VBMI2 = $vbmi2:literal, CHECK = $check:literal) => {
        codec_arch::enable! { $level;
            fn $name(
                dense: &Dense,
                src: &[u8],
                dst: &mut [core::mem::MaybeUninit<u8>],
                i: usize,
                w: usize,
            ) -> (usize, usize) {
                // SAFETY: this function has the level `encode_body` asks
                // for these forms (`avx512vbmi2` where `VBMI2`).
                unsafe { encode_body::<$vbmi2, $check>(dense, src, dst, i, w) }
            }
        }
    };
}

encode_entry!(encode_vbmi, avx512vbmi, VBMI2 = false, CHECK = false);
encode_entry!(encode_vbmi_checked, avx512vbmi, VBMI2 = false, CHECK = true);
encode_entry!(encode_vbmi2, avx512vbmi2, VBMI2 = true, CHECK = false);
encode_entry!(
    encode_vbmi2_checked,
    avx512vbmi2,
    VBMI2 = true,
    CHECK = true
);

/// The dense encoder (`super::super::EncodeFn`): encodes UTF-8 `src[i..]`
/// through `dense` (code point → byte for U+0000–U+07FF, 0 for none) into
/// `dst[w..]`, 64 bytes of input a step, while a block has only one- and
/// two-byte characters whose leads are of at most two pairs (C0/C1 …
/// DE/DF: each one 128-entry slice of `dense`) and every one is mapped
/// (not 0); returns the new `(i, w)` at the first block that is
/// not so, for the caller's exact path. A block of ASCII is copied (on an
/// ASCII-compatible page); the continuations that fall in their slices'
/// affine runs are computed ([`affine_block`], any number of pairs), the
/// others looked up in the slice of the pair last found outside the runs
/// if they are all of it, else in those of pairs A and B; the slices of
/// the last pairs loaded (one a role, A and B, and the one outside) stay
/// in registers. `i` must be at a character boundary; with `src` valid
/// UTF-8, each character writes one byte.
///
/// `VBMI2` compacts the kept bytes with VBMI2's byte compress (one
/// instruction and one store a block, where VBMI alone widens each quarter
/// to 32-bit lanes for `vpcompressd`). With `CHECK`, on bytes that may not
/// be UTF-8 (`Encoder::checked`): a block is taken only if each
/// continuation follows a lead (lane 0 a carried one) and each lead but
/// the last lane's has one, no lead is C0 or C1 (overlong), and no byte is
/// from E0 (a character of three or four bytes, as without `CHECK`) —
/// well-formed UTF-8 of one- and two-byte characters; the caller validates
/// what the kernel leaves.
///
/// # Safety
///
/// The CPU must have the `avx512vbmi` level, and `avx512vbmi2` if `VBMI2`.
#[inline(always)]
unsafe fn encode_body<const VBMI2: bool, const CHECK: bool>(
    dense: &Dense,
    src: &[u8],
    dst: &mut [core::mem::MaybeUninit<u8>],
    mut i: usize,
    mut w: usize,
) -> (usize, usize) {
    // SAFETY: the caller proves the levels the intrinsics below need
    // (those without a comment of their own).
    unsafe {
        use core::arch::x86_64::{
            __m512i, _mm_storeu_si128, _mm512_alignr_epi8, _mm512_alignr_epi32, _mm512_and_si512,
            _mm512_cmpeq_epi8_mask, _mm512_cmpge_epu8_mask, _mm512_cvtepi32_epi8,
            _mm512_cvtepu8_epi32, _mm512_extracti32x4_epi32, _mm512_loadu_si512,
            _mm512_mask_blend_epi8, _mm512_mask_cmpeq_epi8_mask, _mm512_mask_cmplt_epu8_mask,
            _mm512_maskz_compress_epi8, _mm512_maskz_compress_epi32, _mm512_movepi8_mask,
            _mm512_permutex2var_epi8, _mm512_set1_epi8, _mm512_setzero_si512, _mm512_slli_epi16,
            _mm512_storeu_si512, _mm512_ternarylogic_epi32,
        };
        // SAFETY: each slice is 64 readable bytes; `loadu` has no alignment
        // requirement.
        let load = |s: &[u8]| _mm512_loadu_si512(s[..64].as_ptr().cast::<__m512i>());
        let (bytes, runs) = (&dense.bytes, &dense.runs);
        let (low0, low1) = (load(&bytes[..64]), load(&bytes[64..128]));
        // SAFETY: the caller proves the `avx512vbmi` level.
        let run_tables = run_tables(runs);
        // Whether the block before `src[i]` ended in a lead whose
        // continuation is `src[i]` (1): every block is taken whole, 64
        // bytes on, so that the next block's address does not wait for this
        // one's leads (a lead in the last lane is written with its
        // continuation, by the next block).
        let mut carry = 0usize;
        // The pairs A and B whose slices were loaded last (0: none; a pair
        // is at least C0), and their slices.
        let mut held: Slice = (0, _mm512_setzero_si512(), _mm512_setzero_si512());
        let mut held_b = held;
        // The pair (A or B) of the last block's first continuation outside
        // the affine runs, and its slice.
        let mut outside = held;
        // Whether the page maps bytes 1..128 to themselves (not EBCDIC):
        // then an ASCII block is copied as it is.
        let iota = (load(&IOTA8[..64]), load(&IOTA8[64..]));
        let ascii_page = _mm512_cmpeq_epi8_mask(low0, iota.0) | 1 == u64::MAX
            && _mm512_cmpeq_epi8_mask(low1, iota.1) == u64::MAX;
        while i + 64 <= src.len() && w + 64 <= dst.len() {
            let v = load(&src[i..i + 64]);
            let high = _mm512_movepi8_mask(v);
            if ascii_page && high == 0 {
                // U+0000 (0 in `dense` is "none") goes to the caller, as
                // does a carried lead without its continuation.
                if _mm512_cmpeq_epi8_mask(v, _mm512_setzero_si512()) != 0 || (CHECK && carry != 0) {
                    break;
                }
                let to = &mut dst[w..w + 64];
                // SAFETY: `to` is 64 writable bytes (unaligned store).
                _mm512_storeu_si512(to.as_mut_ptr().cast::<__m512i>(), v);
                i += 64;
                w += 64;
                continue;
            }
            if _mm512_cmpge_epu8_mask(v, _mm512_set1_epi8(0xE0u8 as i8)) != 0 {
                break;
            }
            let leads = _mm512_cmpge_epu8_mask(v, _mm512_set1_epi8(0xC0u8 as i8));
            if CHECK
                && ((leads << 1 | carry as u64) != high & !leads
                    || _mm512_mask_cmplt_epu8_mask(leads, v, _mm512_set1_epi8(0xC2u8 as i8)) != 0)
            {
                break;
            }
            // ASCII lanes: `dense` at the byte; continuation lanes: the pair's
            // slice at (lead & 1) << 6 | (continuation & 0x3F).
            // (The byte itself on an ASCII page.)
            let ascii = if ascii_page {
                v
            } else {
                _mm512_permutex2var_epi8(low0, v, low1)
            };
            // The byte before each lane: the input loaded again a byte
            // back, a load where two shuffles (each 16-byte lane joined to
            // the one before it, shifted by a byte) took the shuffle unit
            // the permutes below need (Zen 4: French +3%, Greek and IBM866
            // +6%); for a first block at 0, those shuffles, lane 0's byte
            // then zero.
            let prev = if i == 0 {
                _mm512_alignr_epi8::<15>(v, _mm512_alignr_epi32::<12>(v, _mm512_setzero_si512()))
            } else {
                load(&src[i - 1..i + 63])
            };
            // A continuation 10xxxxxx with bit 6 from the lead's bit 0: one
            // `vpternlogd` (`v | shifted & 0x40`). The permutes read bits
            // 0-6; bit 7 (set) is in the run tables' `lo` and `delta`.
            let index = _mm512_ternarylogic_epi32::<0xF8>(
                v,
                _mm512_slli_epi16::<6>(prev),
                _mm512_set1_epi8(0x40),
            );
            // The continuations (lane 0 too after a carried lead).
            let after = high & !leads;
            // The continuations in their pairs' affine runs, computed.
            let (mut out, inside) = if !runs.any || after == 0 {
                (ascii, 0)
            } else if runs.two {
                // SAFETY: the caller proves the `avx512vbmi` level.
                affine_block::<true>(run_tables, prev, index, after, ascii)
            } else {
                // SAFETY: the caller proves the `avx512vbmi` level.
                affine_block::<false>(run_tables, prev, index, after, ascii)
            };
            let pairs = _mm512_and_si512(prev, _mm512_set1_epi8(0xFEu8 as i8));
            // The others: if all of the pair last found outside the runs,
            // looked up in its slice, held in registers (French: œ, in a
            // third of the blocks; CP437: all of its letters); else by
            // pairs A and B.
            let missed = after & !inside;
            if missed != 0 {
                let lanes =
                    _mm512_mask_cmpeq_epi8_mask(missed, pairs, _mm512_set1_epi8(outside.0 as i8));
                if lanes == missed {
                    let looked = _mm512_permutex2var_epi8(outside.1, index, outside.2);
                    out = _mm512_mask_blend_epi8(lanes, out, looked);
                } else {
                    // The lead pairs of the block's continuations (the
                    // first one's, and the first other one's): each one
                    // 128-entry slice of `dense`.
                    // SAFETY (both): the caller proves the `avx512vbmi` level.
                    let (same_a, a0, a1) = pick(&mut held, after, after, pairs, bytes, src, i);
                    let rest = after & !same_a;
                    // Pair B likewise (French: œ's C5 beside é's C3).
                    let (same_b, b0, b1) = pick(&mut held_b, rest, after, pairs, bytes, src, i);
                    if rest & !same_b != 0 {
                        break;
                    }
                    let two_a = _mm512_permutex2var_epi8(a0, index, a1);
                    out = _mm512_mask_blend_epi8(high, ascii, two_a);
                    if rest != 0 {
                        // The continuations of the second pair.
                        let two_b = _mm512_permutex2var_epi8(b0, index, b1);
                        out = _mm512_mask_blend_epi8(same_b, out, two_b);
                    }
                    // The pair of the first lane the runs missed (A or B),
                    // kept for the next blocks.
                    let pair = src[i + missed.trailing_zeros() as usize - 1] & 0xFE;
                    outside = if pair == held.0 { held } else { held_b };
                }
            }
            // Every lane but the leads (a lead in the last lane is carried
            // to the next block).
            let kept = !leads;
            if _mm512_mask_cmpeq_epi8_mask(kept, out, _mm512_setzero_si512()) != 0 {
                break;
            }
            if VBMI2 {
                let to = &mut dst[w..w + 64];
                // SAFETY: `to` is 64 writable bytes (unaligned store).
                _mm512_storeu_si512(
                    to.as_mut_ptr().cast::<__m512i>(),
                    _mm512_maskz_compress_epi8(kept, out),
                );
                carry = usize::from(leads >> 63 == 1);
                i += 64;
                w += kept.count_ones() as usize;
                continue;
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
                _mm_storeu_si128(to.as_mut_ptr().cast::<__m128i>(), packed);
                end += m.count_ones() as usize;
            }
            carry = usize::from(leads >> 63 == 1);
            i += 64;
            w = end;
        }
        // A carried lead starts the caller's character.
        (i - carry, w)
    }
}
