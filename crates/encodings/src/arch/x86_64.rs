//! The x86-64 kernels: SSSE3 (16 bytes a step), AVX2 (32) and AVX-512
//! VBMI (64), each byte looked up in the 256-entry table by byte shuffles
//! or permutes.
//!
//! SSSE3: the table is split into its low and high bytes and each into 16
//! rows of 16 (one row per high nibble): `pshufb` looks a row up by the
//! low nibble, and a compare of the high nibble with the row's number
//! keeps the lanes that belong to it. AVX2: the rows telescoped ([`Rows`])
//! so that a saturating subtract replaces the compare and mask. VBMI: a
//! two-register byte permute looks 128 entries up at once. An
//! ASCII-compatible table skips the low half (and all-ASCII blocks are
//! copied or widened directly). A block with an undefined byte (0xFFFF)
//! is left to the scalar loop, which stops there.

use super::{COMPRESS, Encoder, KEEP, Kernel, Unit, utf8_scalar};
use codec_arch::Isa;
use core::arch::x86_64::{
    __m128i, _mm_and_si128, _mm_cmpeq_epi8, _mm_cmpeq_epi16, _mm_loadu_si128, _mm_movemask_epi8,
    _mm_or_si128, _mm_set1_epi8, _mm_setzero_si128, _mm_shuffle_epi8, _mm_srli_epi16,
    _mm_storeu_si128, _mm_unpackhi_epi8, _mm_unpacklo_epi8,
};

pub(crate) static SSSE3: Kernel = Kernel {
    name: "ssse3",
    to_utf16: to_utf16_ssse3,
    to_utf8: None,
    encode: None,
    isa: Isa::SSSE3,
};

/// # Safety
///
/// The CPU must have SSSE3.
unsafe fn to_utf16_ssse3(table: &[u16; 256], src: &[u8], dst: &mut [Unit]) -> usize {
    // SAFETY: the caller proves SSSE3.
    unsafe { convert(table, src, dst) }
}

codec_arch::enable! { ssse3;
    fn convert(table: &[u16; 256], src: &[u8], dst: &mut [Unit]) -> usize {
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
            d.write(u);
            i += 1;
        }
        i
    }
}

/// 32 bytes a step, the rows telescoped ([`Rows`]) and broadcast to both
/// 128-bit lanes (`vpshufb` looks up within a lane); the units are put
/// back in order across the lanes after the in-lane unpacks.
pub(crate) static AVX2: Kernel = Kernel {
    name: "avx2",
    to_utf16: to_utf16_avx2,
    to_utf8: Some(to_utf8_avx2),
    encode: Some(Encoder {
        run: encode_avx2,
        ascii_only: true,
    }),
    isa: Isa::AVX2,
};

/// # Safety
///
/// The CPU must have AVX2.
unsafe fn to_utf16_avx2(table: &[u16; 256], src: &[u8], dst: &mut [Unit]) -> usize {
    // SAFETY: the caller proves AVX2.
    unsafe { convert_avx2(table, src, dst) }
}

codec_arch::enable! { avx2;
    fn convert_avx2(table: &[u16; 256], src: &[u8], dst: &mut [Unit]) -> usize {
        use core::arch::x86_64::{
            __m256i, _mm256_cmpeq_epi8, _mm256_cmpeq_epi16, _mm256_loadu_si256, _mm256_movemask_epi8,
            _mm256_or_si256, _mm256_permute2x128_si256, _mm256_setzero_si256, _mm256_storeu_si256,
            _mm256_unpackhi_epi8, _mm256_unpacklo_epi8,
        };
        let len = src.len().min(dst.len());
        let rows = rows(table);
        let undefined = _mm256_cmpeq_epi8(_mm256_setzero_si256(), _mm256_setzero_si256());

        let mut i = 0;
        while i + 32 <= len {
            let block = &src[i..i + 32];
            // SAFETY: `block` is 32 readable bytes.
            let v = unsafe { _mm256_loadu_si256(block.as_ptr().cast::<__m256i>()) };
            let (units_lo, units_hi) = if rows.ascii && _mm256_movemask_epi8(v) == 0 {
                (v, _mm256_setzero_si256())
            } else {
                lookup(&rows, v)
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
}

/// The table as shuffle rows for the AVX2 kernels, telescoped: within each
/// half of the table (bytes 0x00–0x7F, 0x80–0xFF) row `k` holds the XOR of
/// table rows `k` and `k - 1`, so that XOR-ing the look-ups of rows
/// `0..=k` gives row `k`. A byte `t` of a half looks row `j` up at
/// `t - 16 j` (saturating): negative, so zero, for the rows past its own.
struct Rows {
    ascii: bool,
    lo: [core::arch::x86_64::__m256i; 16],
    hi: [core::arch::x86_64::__m256i; 16],
}

codec_arch::enable! { avx2;
    fn rows(table: &[u16; 256]) -> Rows {
        use core::arch::x86_64::_mm256_broadcastsi128_si256;
        let ascii = table[..128]
            .iter()
            .enumerate()
            .all(|(b, &u)| usize::from(u) == b);
        let mut lo = [[0u8; 16]; 16];
        let mut hi = [[0u8; 16]; 16];
        for (i, &u) in table.iter().enumerate() {
            let prev = if (i / 16) % 8 == 0 { 0 } else { table[i - 16] };
            let d = u ^ prev;
            lo[i / 16][i % 16] = d as u8;
            hi[i / 16][i % 16] = (d >> 8) as u8;
        }
        let load = |row: &[u8; 16]| {
            // SAFETY: `row` is 16 readable bytes; `loadu` has no alignment
            // requirement.
            _mm256_broadcastsi128_si256(unsafe { _mm_loadu_si128(row.as_ptr().cast::<__m128i>()) })
        };
        Rows {
            ascii,
            lo: core::array::from_fn(|r| load(&lo[r])),
            hi: core::array::from_fn(|r| load(&hi[r])),
        }
    }
}

codec_arch::enable! { avx2;
    /// The low and high bytes of the units of the 32 bytes of `v`.
    #[inline]
    fn lookup(
        rows: &Rows,
        v: core::arch::x86_64::__m256i,
    ) -> (core::arch::x86_64::__m256i, core::arch::x86_64::__m256i) {
        use core::arch::x86_64::{
            _mm256_and_si256, _mm256_cmpgt_epi8, _mm256_set1_epi8, _mm256_setzero_si256,
            _mm256_shuffle_epi8, _mm256_subs_epi8, _mm256_xor_si256,
        };
        let mut lo = _mm256_setzero_si256();
        let mut hi = _mm256_setzero_si256();
        // The high half: bytes below 0x80 turn negative and look nothing up.
        let t = _mm256_xor_si256(v, _mm256_set1_epi8(-128));
        for k in 0..8 {
            let idx = _mm256_subs_epi8(t, _mm256_set1_epi8(16 * k as i8));
            lo = _mm256_xor_si256(lo, _mm256_shuffle_epi8(rows.lo[8 + k], idx));
            hi = _mm256_xor_si256(hi, _mm256_shuffle_epi8(rows.hi[8 + k], idx));
        }
        if rows.ascii {
            // The low half is the byte itself.
            let is_ascii = _mm256_cmpgt_epi8(v, _mm256_set1_epi8(-1));
            lo = _mm256_xor_si256(lo, _mm256_and_si256(v, is_ascii));
        } else {
            for k in 0..8 {
                let idx = _mm256_subs_epi8(v, _mm256_set1_epi8(16 * k as i8));
                lo = _mm256_xor_si256(lo, _mm256_shuffle_epi8(rows.lo[k], idx));
                hi = _mm256_xor_si256(hi, _mm256_shuffle_epi8(rows.hi[k], idx));
            }
        }
        (lo, hi)
    }
}

/// Decodes the longest prefix of `src` with no undefined byte, as far as
/// `dst` holds it, to UTF-8 at the start of `dst`: returns the bytes read
/// and written. `dst[..written]` is initialised and valid UTF-8 (each unit
/// is a BMP character that is not a surrogate: the generator checks).
/// With `dst.len() >= 3 * src.len() + 96`, it stops only at an undefined
/// byte or the end.
///
/// # Safety
///
/// The CPU must have AVX2.
unsafe fn to_utf8_avx2(
    table: &[u16; 256],
    src: &[u8],
    dst: &mut [core::mem::MaybeUninit<u8>],
) -> (usize, usize) {
    // SAFETY: the caller proves AVX2.
    unsafe { utf8_avx2(table, src, dst) }
}

codec_arch::enable! { avx2;
    fn utf8_avx2(
        table: &[u16; 256],
        src: &[u8],
        dst: &mut [core::mem::MaybeUninit<u8>],
    ) -> (usize, usize) {
        use core::arch::x86_64::{
            __m256i, _mm256_castsi256_si128, _mm256_cmpeq_epi8, _mm256_extracti128_si256,
            _mm256_loadu_si256, _mm256_movemask_epi8, _mm256_set1_epi8, _mm256_storeu_si256,
            _mm256_unpackhi_epi8, _mm256_unpacklo_epi8,
        };
        // The rows of each byte's UTF-8 lead and continuation (as the low and
        // high byte of a table entry): see `utf8_pairs`.
        let rows = rows(&utf8_pairs(table));
        let (mut i, mut w) = (0, 0);
        while i + 32 <= src.len() && w + 96 <= dst.len() {
            let block = &src[i..i + 32];
            // SAFETY: `block` is 32 readable bytes.
            let v = unsafe { _mm256_loadu_si256(block.as_ptr().cast::<__m256i>()) };
            if rows.ascii && _mm256_movemask_epi8(v) == 0 {
                let out = &mut dst[w..w + 32];
                // SAFETY: `out` is 32 writable bytes.
                unsafe { _mm256_storeu_si256(out.as_mut_ptr().cast::<__m256i>(), v) };
                i += 32;
                w += 32;
                continue;
            }
            let (lead, cont) = lookup(&rows, v);
            if _mm256_movemask_epi8(_mm256_cmpeq_epi8(lead, _mm256_set1_epi8(-1))) != 0 {
                // A unit from 0x800 or an undefined byte: one at a time.
                let (ni, nw) = utf8_scalar(table, src, dst, i, w, i + 32);
                let stopped = ni < i + 32;
                (i, w) = (ni, nw);
                if stopped {
                    return (i, w);
                }
                continue;
            }
            // Bit k: byte k is one byte of UTF-8 (its continuation dropped).
            let one = !(_mm256_movemask_epi8(lead) as u32);
            let a = _mm256_unpacklo_epi8(lead, cont);
            let b = _mm256_unpackhi_epi8(lead, cont);
            let groups = [
                _mm256_castsi256_si128(a),
                _mm256_castsi256_si128(b),
                _mm256_extracti128_si256::<1>(a),
                _mm256_extracti128_si256::<1>(b),
            ];
            for (g, &pairs) in groups.iter().enumerate() {
                w += compress_pairs(pairs, ((one >> (8 * g)) & 0xFF) as usize, dst, w);
            }
            i += 32;
        }
        utf8_scalar(table, src, dst, i, w, src.len())
    }
}

/// Each byte's UTF-8 as a table entry: the lead (the byte itself below
/// 0x80; 0xFF, never in UTF-8, for a unit from 0x800 or undefined) in the
/// low byte, the continuation in the high byte.
fn utf8_pairs(table: &[u16; 256]) -> [u16; 256] {
    table.map(|u| match u {
        0..0x80 => u,
        0x80..0x800 => (0xC0 | (u >> 6)) | (0x80 | (u & 0x3F)) << 8,
        _ => 0xFF,
    })
}

codec_arch::enable! { ssse3;
    /// Writes the UTF-8 of 8 lead/continuation pairs at `dst[w..]` (16
    /// writable bytes), dropping the continuation of the pairs whose bit of
    /// `one` is set; returns the bytes that count.
    #[inline]
    fn compress_pairs(
        pairs: __m128i,
        one: usize,
        dst: &mut [core::mem::MaybeUninit<u8>],
        w: usize,
    ) -> usize {
        let out = &mut dst[w..w + 16];
        // SAFETY: `COMPRESS[one]` is 16 readable bytes, `out` 16 writable
        // ones (unaligned loads and stores).
        unsafe {
            let shuffle = _mm_loadu_si128(COMPRESS[one].as_ptr().cast::<__m128i>());
            _mm_storeu_si128(
                out.as_mut_ptr().cast::<__m128i>(),
                _mm_shuffle_epi8(pairs, shuffle),
            );
        }
        16 - one.count_ones() as usize
    }
}

/// As [`to_utf8_avx2`], the table looked up 64 bytes at a time by
/// AVX-512 VBMI's two-register byte permute (128 entries a look-up).
///
/// # Safety
///
/// The CPU must have `codec_arch`'s `avx512vbmi` level.
unsafe fn to_utf8_vbmi(
    table: &[u16; 256],
    src: &[u8],
    dst: &mut [core::mem::MaybeUninit<u8>],
) -> (usize, usize) {
    // SAFETY: the caller proves the features.
    unsafe { utf8_vbmi(table, src, dst) }
}

codec_arch::enable! { avx512vbmi;
    fn utf8_vbmi(
        table: &[u16; 256],
        src: &[u8],
        dst: &mut [core::mem::MaybeUninit<u8>],
    ) -> (usize, usize) {
        use core::arch::x86_64::{
            __m512i, _mm512_cmpeq_epi8_mask, _mm512_extracti32x4_epi32, _mm512_loadu_si512,
            _mm512_mask_blend_epi8, _mm512_movepi8_mask, _mm512_permutex2var_epi8, _mm512_set1_epi8,
            _mm512_setzero_si512, _mm512_storeu_si512, _mm512_unpackhi_epi8, _mm512_unpacklo_epi8,
        };
        let ascii = table[..128]
            .iter()
            .enumerate()
            .all(|(b, &u)| usize::from(u) == b);
        // The UTF-8 of each byte's unit as a lead (the byte itself below
        // 0x80; 0xFF, never in UTF-8, for a unit from 0x800 or undefined) and
        // a continuation, in four 64-byte rows each.
        let mut lead = [[0u8; 64]; 4];
        let mut cont = [[0u8; 64]; 4];
        for (i, &p) in utf8_pairs(table).iter().enumerate() {
            lead[i / 64][i % 64] = p as u8;
            cont[i / 64][i % 64] = (p >> 8) as u8;
        }
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
            for (g, &pairs) in groups.iter().enumerate() {
                w += compress_pairs(pairs, ((one >> (8 * g)) & 0xFF) as usize, dst, w);
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
unsafe fn to_utf16_vbmi(table: &[u16; 256], src: &[u8], dst: &mut [Unit]) -> usize {
    // SAFETY: the caller proves the features.
    unsafe { convert_vbmi(table, src, dst) }
}

codec_arch::enable! { avx512vbmi;
    fn convert_vbmi(table: &[u16; 256], src: &[u8], dst: &mut [Unit]) -> usize {
        use core::arch::x86_64::{
            __m512i, _mm512_cmpeq_epi8_mask, _mm512_loadu_si512, _mm512_mask_blend_epi8,
            _mm512_movepi8_mask, _mm512_permutex2var_epi8, _mm512_permutex2var_epi64, _mm512_set_epi64,
            _mm512_set1_epi8, _mm512_setzero_si512, _mm512_storeu_si512, _mm512_unpackhi_epi8,
            _mm512_unpacklo_epi8,
        };
        let len = src.len().min(dst.len());
        let ascii = table[..128]
            .iter()
            .enumerate()
            .all(|(b, &u)| usize::from(u) == b);
        let mut lo = [[0u8; 64]; 4];
        let mut hi = [[0u8; 64]; 4];
        for (i, &u) in table.iter().enumerate() {
            lo[i / 64][i % 64] = u as u8;
            hi[i / 64][i % 64] = (u >> 8) as u8;
        }
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
        for (d, &b) in dst[i..len].iter_mut().zip(&src[i..len]) {
            let u = table[usize::from(b)];
            if u == crate::single_byte::UNDEFINED {
                break;
            }
            d.write(u);
            i += 1;
        }
        i
    }
}

/// As [`encode_vbmi`] on AVX2, 32 bytes a step, for an ASCII-compatible
/// page (ASCII copies through; `dense` maps it to itself) and blocks whose
/// leads are one pair: the pair's 128-entry slice is looked up by
/// telescoped `pshufb` rows (built again when the pair changes).
///
/// # Safety
///
/// The CPU must have AVX2.
unsafe fn encode_avx2(
    dense: &[u8; 0x800],
    src: &[u8],
    dst: &mut [u8],
    i: usize,
    w: usize,
) -> (usize, usize) {
    // SAFETY: the caller proves AVX2.
    unsafe { encode_dense_avx2(dense, src, dst, i, w) }
}

codec_arch::enable! { avx2;
    fn encode_dense_avx2(
        dense: &[u8; 0x800],
        src: &[u8],
        dst: &mut [u8],
        mut i: usize,
        mut w: usize,
    ) -> (usize, usize) {
        use core::arch::x86_64::{
            __m256i, _mm_add_epi8, _mm_set1_epi8, _mm256_alignr_epi8, _mm256_and_si256,
            _mm256_blendv_epi8, _mm256_broadcastsi128_si256, _mm256_castsi256_si128, _mm256_cmpeq_epi8,
            _mm256_extracti128_si256, _mm256_loadu_si256, _mm256_movemask_epi8, _mm256_or_si256,
            _mm256_permute2x128_si256, _mm256_set1_epi8, _mm256_setzero_si256, _mm256_shuffle_epi8,
            _mm256_slli_epi16, _mm256_storeu_si256, _mm256_subs_epi8, _mm256_xor_si256,
        };
        // The rows of one pair's slice, telescoped as in [`Rows`].
        let slice_rows = |pair: u8| -> [__m256i; 8] {
            let base = usize::from(pair & 0x1F) * 64;
            let slice = &dense[base..base + 128];
            core::array::from_fn(|k| {
                let mut row = [0u8; 16];
                for (j, r) in row.iter_mut().enumerate() {
                    let prev = if k == 0 { 0 } else { slice[16 * (k - 1) + j] };
                    *r = slice[16 * k + j] ^ prev;
                }
                // SAFETY: `row` is 16 readable bytes (unaligned load).
                _mm256_broadcastsi128_si256(unsafe { _mm_loadu_si128(row.as_ptr().cast::<__m128i>()) })
            })
        };
        let mut current: Option<(u8, [__m256i; 8])> = None;
        // Room for the last group's 16-byte store after 24 kept bytes.
        while i + 32 <= src.len() && w + 48 <= dst.len() {
            let block = &src[i..i + 32];
            // SAFETY: `block` is 32 readable bytes.
            let v = unsafe { _mm256_loadu_si256(block.as_ptr().cast::<__m256i>()) };
            let high = _mm256_movemask_epi8(v) as u32;
            if high == 0 {
                if block.contains(&0) {
                    break;
                }
                let out = &mut dst[w..w + 32];
                // SAFETY: `out` is 32 writable bytes.
                unsafe { _mm256_storeu_si256(out.as_mut_ptr().cast::<__m256i>(), v) };
                i += 32;
                w += 32;
                continue;
            }
            let top3 = _mm256_and_si256(v, _mm256_set1_epi8(0xE0u8 as i8));
            if _mm256_movemask_epi8(_mm256_cmpeq_epi8(top3, _mm256_set1_epi8(0xE0u8 as i8))) != 0 {
                break;
            }
            let leads =
                _mm256_movemask_epi8(_mm256_cmpeq_epi8(top3, _mm256_set1_epi8(0xC0u8 as i8))) as u32;
            // A lead in the last lane: its character goes to the next block.
            let len = if leads >> 31 == 1 { 31 } else { 32 };
            let kept = !leads & (u32::MAX >> (32 - len));
            let mut out = v;
            if leads != 0 {
                let pair = src[i + leads.trailing_zeros() as usize] & 0xFE;
                let same = _mm256_movemask_epi8(_mm256_cmpeq_epi8(
                    _mm256_and_si256(v, _mm256_set1_epi8(0xFEu8 as i8)),
                    _mm256_set1_epi8(pair as i8),
                )) as u32;
                if leads & !same != 0 {
                    break;
                }
                let rows = match current {
                    Some((p, rows)) if p == pair => rows,
                    _ => {
                        let rows = slice_rows(pair);
                        current = Some((pair, rows));
                        rows
                    }
                };
                // The byte before each lane (across the two 128-bit lanes).
                let prev = _mm256_alignr_epi8::<15>(v, _mm256_permute2x128_si256::<0x08>(v, v));
                let index = _mm256_or_si256(
                    _mm256_and_si256(v, _mm256_set1_epi8(0x3F)),
                    _mm256_and_si256(_mm256_slli_epi16::<6>(prev), _mm256_set1_epi8(0x40)),
                );
                let mut two = _mm256_setzero_si256();
                for (k, &row) in rows.iter().enumerate() {
                    let idx = _mm256_subs_epi8(index, _mm256_set1_epi8(16 * k as i8));
                    two = _mm256_xor_si256(two, _mm256_shuffle_epi8(row, idx));
                }
                out = _mm256_blendv_epi8(v, two, v);
            }
            let zero = _mm256_movemask_epi8(_mm256_cmpeq_epi8(out, _mm256_setzero_si256())) as u32;
            if zero & kept != 0 {
                break;
            }
            let halves = [
                _mm256_castsi256_si128(out),
                _mm256_extracti128_si256::<1>(out),
            ];
            let mut end = w;
            for (h, &half) in halves.iter().enumerate() {
                for g in 0..2 {
                    let m = ((kept >> (16 * h + 8 * g)) & 0xFF) as usize;
                    let to = &mut dst[end..end + 16];
                    // SAFETY: `KEEP[m]` is 16 readable bytes, `to` 16 writable
                    // ones (unaligned loads and stores).
                    unsafe {
                        let mut shuffle = _mm_loadu_si128(KEEP[m].as_ptr().cast::<__m128i>());
                        if g == 1 {
                            // The second 8 bytes of the half (0x80 stays
                            // negative: a zero lane).
                            shuffle = _mm_add_epi8(shuffle, _mm_set1_epi8(8));
                        }
                        _mm_storeu_si128(
                            to.as_mut_ptr().cast::<__m128i>(),
                            _mm_shuffle_epi8(half, shuffle),
                        );
                    }
                    end += m.count_ones() as usize;
                }
            }
            i += len;
            w = end;
        }
        (i, w)
    }
}
