//! The `pshufb` kernels, once for every register width: generic over
//! codec-arch's [`Simd`] and the width-specific operations of
//! [`LookupSimd`], instantiated for SSE4.1 (16 bytes a step) and AVX2 (32)
//! in `super`.
//!
//! A byte shuffle looks up 16 entries, within each 128-bit lane, so the
//! table is cut into rows of 16, one per high nibble, and the rows are
//! telescoped ([`Rows`]): within each half of the table (bytes 0x00–0x7F,
//! 0x80–0xFF) row `k` holds the XOR of table rows `k` and `k - 1`, so that
//! XOR-ing the look-ups of rows `0..=k` gives row `k`. A byte `t` of a half
//! looks row `j` up at `t - 16 j`, saturating: negative, so zero, for the
//! rows past its own. That is three operations a row (subtract, shuffle,
//! XOR) where a compare of the high nibble and a mask took five. An
//! ASCII-compatible table skips the low half, and all-ASCII blocks are
//! copied or widened directly. A block with an undefined byte (0xFFFF) is
//! left to the scalar loop, which stops there.
//!
//! Many rows are *affine*: each byte `b` of the row maps to `b + delta`
//! (windows-1251 C0–FF to U+0410–U+044F, IBM866 80–AF and E0–EF, most of
//! ISO-8859-7's Greek rows, windows-1252 A0–FF with delta 0, ASCII).
//! A block whose bytes all fall in such rows skips the sixteen row
//! look-ups: [`Affine`] holds, by high nibble, what the row adds to the
//! byte (for the unit, or for the continuation of UTF-8 beside the row's
//! one lead), looked up with one shuffle each; other blocks take the full
//! look-up. Runs of such blocks take a loop of their own
//! ([`run_utf16`], [`run_utf8`] with an [`AffineStep`]), its rows in registers.
//! A page whose top quarter is one block of units (KOI8's Cyrillic) runs
//! the same loops over its [`Quarter`].

use super::super::common::Runs;
use super::super::{Affine, COMPRESS, Dense, KEEP, Unit, to_utf16_scalar, utf8_scalar};
use crate::single_byte::SingleByte;
use codec_arch::x86_64::{Avx2, Simd, Sse41};
use core::arch::x86_64::{
    __m128i, __m256i, _mm_add_epi8, _mm_alignr_epi8, _mm_cvtsi128_si64, _mm_loadu_si128,
    _mm_or_si128, _mm_set1_epi8, _mm_shuffle_epi8, _mm_storeu_si128, _mm_subs_epi8,
    _mm_unpackhi_epi8, _mm_unpackhi_epi64, _mm_unpacklo_epi8, _mm256_alignr_epi8,
    _mm256_castsi256_si128, _mm256_extracti128_si256, _mm256_permute2x128_si256, _mm256_subs_epi8,
    _mm256_unpackhi_epi8, _mm256_unpacklo_epi8,
};
use core::mem::MaybeUninit;

/// The operations of these kernels that [`Simd`] does not have, for one
/// register width (as transcode's `Utf8Simd`). Safe for the reason `Simd`'s
/// are: the token proves the CPU features.
pub(crate) trait LookupSimd: Simd {
    /// Bytes: `a - b`, signed, saturating at -128.
    fn subs_i8(self, a: Self::V, b: Self::V) -> Self::V;
    /// The bytes of `lo` and `hi` interleaved within each 128-bit lane:
    /// the unpacks of the lanes' first halves, then of their second halves.
    fn zip8(self, lo: Self::V, hi: Self::V) -> (Self::V, Self::V);
    /// [`zip8`](LookupSimd::zip8)'s two registers put in order across the
    /// lanes: the 16-bit units of bytes `0..BYTES / 2`, then the rest.
    fn in_order(self, a: Self::V, b: Self::V) -> (Self::V, Self::V);
    /// Bytes: the byte before each one, the last byte of `last` before
    /// the first.
    fn previous8(self, v: Self::V, last: Self::V) -> Self::V;
    /// The 128-bit lane `k` of `v` (`k < BYTES / 16`).
    fn lane16(self, v: Self::V, k: usize) -> __m128i;
    /// `pshufb` on one 128-bit lane: `x[ctl & 15]`, 0 where `ctl` has its
    /// top bit set.
    fn shuffle16(self, x: __m128i, ctl: __m128i) -> __m128i;
}

impl LookupSimd for Sse41 {
    #[inline(always)]
    fn subs_i8(self, a: __m128i, b: __m128i) -> __m128i {
        // SAFETY: the token proves SSE4.1, which implies SSE2.
        unsafe { _mm_subs_epi8(a, b) }
    }

    #[inline(always)]
    fn zip8(self, lo: __m128i, hi: __m128i) -> (__m128i, __m128i) {
        // SAFETY: the token proves SSE4.1, which implies SSE2.
        unsafe { (_mm_unpacklo_epi8(lo, hi), _mm_unpackhi_epi8(lo, hi)) }
    }

    #[inline(always)]
    fn in_order(self, a: __m128i, b: __m128i) -> (__m128i, __m128i) {
        (a, b)
    }

    #[inline(always)]
    fn previous8(self, v: __m128i, last: __m128i) -> __m128i {
        // SAFETY: the token proves SSE4.1, which implies SSSE3.
        unsafe { _mm_alignr_epi8::<15>(v, last) }
    }

    #[inline(always)]
    fn lane16(self, v: __m128i, _: usize) -> __m128i {
        v
    }

    #[inline(always)]
    fn shuffle16(self, x: __m128i, ctl: __m128i) -> __m128i {
        // SAFETY: the token proves SSSE3.
        unsafe { _mm_shuffle_epi8(x, ctl) }
    }
}

impl LookupSimd for Avx2 {
    #[inline(always)]
    fn subs_i8(self, a: __m256i, b: __m256i) -> __m256i {
        // SAFETY: the token proves AVX2.
        unsafe { _mm256_subs_epi8(a, b) }
    }

    #[inline(always)]
    fn zip8(self, lo: __m256i, hi: __m256i) -> (__m256i, __m256i) {
        // SAFETY: the token proves AVX2.
        unsafe { (_mm256_unpacklo_epi8(lo, hi), _mm256_unpackhi_epi8(lo, hi)) }
    }

    #[inline(always)]
    fn in_order(self, a: __m256i, b: __m256i) -> (__m256i, __m256i) {
        // `a` holds units 0-7 | 16-23 and `b` 8-15 | 24-31.
        // SAFETY: the token proves AVX2.
        unsafe {
            (
                _mm256_permute2x128_si256::<0x20>(a, b),
                _mm256_permute2x128_si256::<0x31>(a, b),
            )
        }
    }

    #[inline(always)]
    fn previous8(self, v: __m256i, last: __m256i) -> __m256i {
        // The lanes shifted one byte on, across the two 128-bit lanes:
        // `last`'s high lane, then `v`'s low one, as the bytes before `v`.
        // SAFETY: the token proves AVX2.
        unsafe { _mm256_alignr_epi8::<15>(v, _mm256_permute2x128_si256::<0x21>(last, v)) }
    }

    #[inline(always)]
    fn lane16(self, v: __m256i, k: usize) -> __m128i {
        // SAFETY: the token proves AVX2.
        unsafe {
            if k == 0 {
                _mm256_castsi256_si128(v)
            } else {
                _mm256_extracti128_si256::<1>(v)
            }
        }
    }

    #[inline(always)]
    fn shuffle16(self, x: __m128i, ctl: __m128i) -> __m128i {
        // SAFETY: the token proves AVX2, which implies SSSE3.
        unsafe { _mm_shuffle_epi8(x, ctl) }
    }
}

/// A table as telescoped shuffle rows (module docs): the low and the
/// high bytes of its entries, 16 a row, broadcast to every 128-bit lane
/// where they are used.
///
/// Kept as bytes and loaded (a broadcast from memory) at each use: held
/// as registers, the 32 rows do not fit and LLVM spilled them to
/// unaligned stack slots in the generic build, half the 32-byte reloads
/// crossing a cache line (the fused AVX2 decoder 4–6% slower than the
/// hand-written one it replaced).
#[derive(Debug)]
#[repr(C, align(64))]
pub(crate) struct Rows {
    lo: [[u8; 16]; 16],
    hi: [[u8; 16]; 16],
    /// Table row 0xC0–0xCF itself (not telescoped), where a look-up of the
    /// top quarter of the table starts ([`lookup`]).
    top_lo: [u8; 16],
    top_hi: [u8; 16],
    /// Table rows 0x80–0xFF themselves (not telescoped), low and high
    /// bytes, and a ninth of zeros: the rows [`few_rows`] looks up one by
    /// one (the ninth when fewer rows than its count are present).
    plain_lo: [[u8; 16]; 9],
    plain_hi: [[u8; 16]; 9],
    /// The top quarter as the low bytes of units of one 256-unit block,
    /// where it is one (KOI8's Cyrillic letters, all U+04xx).
    quarter: Option<Quarter>,
    /// Whether the table maps bytes 0x00–0x7F to themselves.
    ascii: bool,
    /// Whether every byte of the table is defined (no 0xFFFF entry; the
    /// UTF-8 rows' table marks undefined bytes in its leads instead): then
    /// [`to_utf16`] does not look for undefined units (CP437 → UTF-16 on
    /// AVX2 +10%, Zen 4).
    complete: bool,
    /// Whether blocks of ASCII and bytes from 0xC0 reach [`lookup`] (the
    /// page has no affine row and some row from 0xC0 is not affine, as
    /// KOI8), and it tries the top quarter's look-up ([`top_quarter`]).
    top: bool,
}

/// A top quarter (bytes 0xC0–0xFF) whose units share their high byte
/// `hi`: four telescoped rows of the units' low bytes (the first plain)
/// give the unit's low byte, and the rest is arithmetic: the high byte
/// `hi`, or for UTF-8 (`utf8`, `hi` from 1 to 7: units U+0100–U+07FF)
/// the lead `0xC0 | hi << 2 | lo >> 6` and continuation
/// `0x80 | lo & 0x3F`: four shuffles where the two halves took eight.
/// Its blocks run as the affine rows' do ([`QuarterRows`]), the other
/// bytes looked up by [`few_rows`] in the run: on AVX2 KOI8-R → UTF-8
/// +45%, → UTF-16 +60–75% (Zen 4).
#[derive(Debug)]
#[repr(C, align(16))]
struct Quarter {
    lo: [[u8; 16]; 4],
    /// `hi`, or for UTF-8 the leads' base `0xC0 | hi << 2`, in each byte
    /// (loaded as the rows are).
    base: [u8; 16],
    utf8: bool,
}

/// `table`'s top quarter as a [`Quarter`], for its units or its UTF-8
/// (`utf8`), if its units are all defined and share a high byte (for
/// UTF-8, one from 1 to 7).
fn quarter(table: &[u16; 256], utf8: bool) -> Option<Quarter> {
    let top = &table[0xC0..];
    let [_, hi] = top[0].to_le_bytes();
    let one_block = top.iter().all(|&u| u != 0xFFFF && u >> 8 == u16::from(hi));
    if !one_block || (utf8 && !(1..8).contains(&hi)) {
        return None;
    }
    let mut lo = [[0u8; 16]; 4];
    for (i, &u) in top.iter().enumerate() {
        let prev = if i < 16 { 0 } else { top[i - 16] };
        lo[i / 16][i % 16] = (u ^ prev) as u8;
    }
    let base = [if utf8 { 0xC0 | hi << 2 } else { hi }; 16];
    Some(Quarter { lo, base, utf8 })
}

/// Whether `table` maps bytes 0x00–0x7F to themselves.
fn is_ascii(table: &[u16; 256]) -> bool {
    table[..128]
        .iter()
        .enumerate()
        .all(|(b, &u)| usize::from(u) == b)
}

/// [`Rows`] of `table`.
fn rows(table: &[u16; 256]) -> Rows {
    let mut rows = Rows {
        lo: [[0u8; 16]; 16],
        hi: [[0u8; 16]; 16],
        top_lo: [0u8; 16],
        top_hi: [0u8; 16],
        plain_lo: [[0u8; 16]; 9],
        plain_hi: [[0u8; 16]; 9],
        quarter: None,
        ascii: is_ascii(table),
        complete: !table.contains(&0xFFFF),
        top: false,
    };
    for (i, &u) in table[0x80..].iter().enumerate() {
        [rows.plain_lo[i / 16][i % 16], rows.plain_hi[i / 16][i % 16]] = u.to_le_bytes();
    }
    for (j, &u) in table[0xC0..0xD0].iter().enumerate() {
        [rows.top_lo[j], rows.top_hi[j]] = u.to_le_bytes();
    }
    for (i, &u) in table.iter().enumerate() {
        let prev = if (i / 16) % 8 == 0 { 0 } else { table[i - 16] };
        let d = u ^ prev;
        rows.lo[i / 16][i % 16] = d as u8;
        rows.hi[i / 16][i % 16] = (d >> 8) as u8;
    }
    rows
}

/// A page's [`Rows`] for the `pshufb` decoders, of its table and of its
/// UTF-8 pairs ([`utf8_pairs`]): built on a page's first use and kept
/// (`SingleByte::rows`); built in each kernel call (16 KiB of input), they
/// took 10–25% of the AVX2 decoders' time.
#[derive(Debug)]
pub(crate) struct PageRows {
    units: Rows,
    utf8: Rows,
}

/// `page`'s [`PageRows`], built on first use.
fn page_rows(page: &SingleByte) -> &PageRows {
    page.rows.get_or_init(|| {
        let (mut units, mut utf8) = (rows(page.table), rows(&utf8_pairs(page.table)));
        let a = &page.affine;
        units.top = units.ascii && !a.any16 && (12..16).any(|r| a.not16[r] != 0);
        utf8.top = utf8.ascii && !a.any8 && (12..16).any(|r| a.lead[r] == 0xFF);
        units.quarter = quarter(page.table, false);
        utf8.quarter = quarter(page.table, true);
        Box::new(PageRows { units, utf8 })
    })
}

/// Which loops a page's decoder of one output runs ([`mode`]), each a
/// separate instantiation of [`to_utf16`] and [`to_utf8`] (`RUNS` and
/// `TOP`), so that no block tests the choice.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum Mode {
    /// Runs of blocks in the page's affine rows ([`RUNS_AFFINE`]).
    Affine,
    /// Runs of blocks in its top [`Quarter`] ([`RUNS_QUARTER`]).
    Quarter,
    /// No runs; [`lookup`] tries the top four rows ([`Rows::top`]).
    Top,
    /// No runs; every block looked up.
    Plain,
}

/// `RUNS` of [`to_utf16`] and [`to_utf8`]: no runs.
pub(super) const RUNS_NONE: u8 = 0;
/// `RUNS`: the affine rows' runs ([`AffineUtf16`], [`AffineUtf8`]).
pub(super) const RUNS_AFFINE: u8 = 1;
/// `RUNS`: the top quarter's runs ([`QuarterRows`]).
pub(super) const RUNS_QUARTER: u8 = 2;

/// The [`Mode`] of the decoder of `page` to UTF-8 (`utf8`) or UTF-16: a
/// separate function for each (trying the top quarter where it never
/// helps cost French 4–6%).
pub(super) fn mode(page: &SingleByte, utf8: bool) -> Mode {
    let rows = page_rows(page);
    let (rows, affine) = if utf8 {
        (&rows.utf8, page.affine.any8)
    } else {
        (&rows.units, page.affine.any16)
    };
    if affine {
        Mode::Affine
    } else if rows.ascii && rows.quarter.is_some() {
        Mode::Quarter
    } else if rows.top {
        Mode::Top
    } else {
        Mode::Plain
    }
}

/// The low and high bytes of the table entries of the bytes of `v`. A
/// block of an ASCII-compatible page whose other bytes are all from 0xC0
/// (KOI8's Cyrillic letters) looks up only the top four rows, from
/// [`Rows::top_lo`], with `TOP` (where [`Rows::top`] says to try).
/// On a page without runs (`RUNS`, [`RUNS_NONE`]; CP437), a block whose
/// bytes from 0x80 fall in at most [`FEW`] rows looks up those rows alone
/// ([`few_rows`], the rows kept in `few` between blocks; the blocks of its
/// first [`PREFIX_ROWS`] rows run apart: [`PrefixStep`]); a page
/// with runs tries that in them ([`AffineStep`]), where their rows are
/// computed, so the blocks
/// that come here have failed it.
#[inline(always)]
fn lookup<S: LookupSimd, const TOP: bool, const RUNS: u8>(
    s: S,
    rows: &Rows,
    few: &mut Few<S::V>,
    v: S::V,
) -> (S::V, S::V) {
    // The high half: bytes below 0x80 turn negative and look nothing up.
    let t = s.xor(v, s.splat8(0x80));
    let mut lo = s.zero();
    let mut hi = s.zero();
    // Bytes from 0xC0: their top two bits set (`v + v` is `v << 1`).
    if TOP && s.movemask8(s.and(v, s.add8(v, v))) == s.movemask8(v) {
        let idx = s.subs_i8(t, s.splat8(64));
        lo = s.shuffle8(s.broadcast16(&rows.top_lo), idx);
        hi = s.shuffle8(s.broadcast16(&rows.top_hi), idx);
        for k in 5..8 {
            let idx = s.subs_i8(t, s.splat8(16 * k as u8));
            lo = s.xor(lo, s.shuffle8(s.broadcast16(&rows.lo[8 + k]), idx));
            hi = s.xor(hi, s.shuffle8(s.broadcast16(&rows.hi[8 + k]), idx));
        }
    } else {
        if RUNS == RUNS_NONE
            && rows.ascii
            && let Some(found) = few_rows(s, rows, few, NoAffine, v)
        {
            return found;
        }
        for k in 0..8 {
            let idx = s.subs_i8(t, s.splat8(16 * k as u8));
            lo = s.xor(lo, s.shuffle8(s.broadcast16(&rows.lo[8 + k]), idx));
            hi = s.xor(hi, s.shuffle8(s.broadcast16(&rows.hi[8 + k]), idx));
        }
    }
    if rows.ascii {
        // The low half is the byte itself.
        let is_ascii = s.gt_i8(v, s.splat8(0xFF));
        lo = s.xor(lo, s.and(v, is_ascii));
    } else {
        for k in 0..8 {
            let idx = s.subs_i8(v, s.splat8(16 * k as u8));
            lo = s.xor(lo, s.shuffle8(s.broadcast16(&rows.lo[k]), idx));
            hi = s.xor(hi, s.shuffle8(s.broadcast16(&rows.hi[k]), idx));
        }
    }
    (lo, hi)
}

/// How many high rows from 0x80 a page without runs looks up alone, in a
/// loop of their own ([`PrefixStep`]), and the byte they end at: the
/// telescoped rows need no set of rows kept and no search of a block's
/// rows (as the few-rows look-up does), and a DOS page's letters (CP437's,
/// CP850's) lie in 0x80–0xAF, most of French's in 0x80–0x9F (then two
/// rows). AVX2 on Zen 4, CP437 French: → UTF-16 8.5 → 17.3 GB/s, → UTF-8
/// 4.5 → 7.6 (docs/results/encodings.md).
const PREFIX_ROWS: usize = 3;
/// See [`PREFIX_ROWS`] (as a signed byte: bytes from 0x80 are negative).
const PREFIX_END: u8 = 0x80 + 16 * PREFIX_ROWS as u8;

/// The halves of the bytes of a block (`t`: its bytes XOR 0x80, so that
/// ASCII is negative) whose bytes from 0x80 all lie in the first `N` high
/// rows, from those telescoped rows alone.
#[inline(always)]
fn prefix_rows<S: LookupSimd, const N: usize>(s: S, rows: &Rows, t: S::V) -> (S::V, S::V) {
    let (mut lo, mut hi) = (s.zero(), s.zero());
    for k in 0..N {
        let idx = s.subs_i8(t, s.splat8(16 * k as u8));
        lo = s.xor(lo, s.shuffle8(s.broadcast16(&rows.lo[8 + k]), idx));
        hi = s.xor(hi, s.shuffle8(s.broadcast16(&rows.hi[8 + k]), idx));
    }
    (lo, hi)
}

/// How many of the high rows (0x80–0xFF) a block may hold for
/// [`few_rows`]; a block with more takes the telescoped [`lookup`].
/// Three: all of CP437 French's (rows 8–A); with two, 11% of its 32-byte
/// blocks fell back, and the set kept ([`Few`]) changed at a third of them.
const FEW: u32 = 3;

/// [`FEW`] on a page with affine rows, whose rows are not looked up.
const FEW_AFF: u32 = 2;

/// By high nibble: bit `n - 8` for a row from 0x80, 0 for ASCII.
const ROW_BIT: [u8; 16] = [0, 0, 0, 0, 0, 0, 0, 0, 1, 2, 4, 8, 16, 32, 64, 128];

/// By row `k` (0x80 + 16 k): what a byte is XOR-ed with so that the row's
/// bytes become 0x00–0x0F and every other byte has a bit of 0xF0 set;
/// a ninth for the rows of zeros ([`Rows::plain_lo`]).
const ROW_XOR: [[u8; 16]; 9] = {
    let mut x = [[0u8; 16]; 9];
    let mut k = 0;
    while k < 8 {
        x[k] = [0x80 | (k as u8) << 4; 16];
        k += 1;
    }
    x
};

/// The set of high rows (bit `k`: row 0x80 + 16 k) the bytes of `v` fall
/// in, from `bits` (each byte's [`ROW_BIT`]).
#[inline(always)]
fn rows_present<S: LookupSimd>(s: S, bits: S::V) -> u32 {
    let mut x = s.lane16(bits, 0);
    for k in 1..S::BYTES / 16 {
        // SAFETY: the token proves SSE4.1 or AVX2, which imply SSE2.
        x = unsafe { _mm_or_si128(x, s.lane16(bits, k)) };
    }
    // SAFETY: the token proves SSE4.1 or AVX2, which imply SSE2.
    let q = unsafe { _mm_cvtsi128_si64(_mm_or_si128(x, _mm_unpackhi_epi64(x, x))) } as u64;
    let q = q | q >> 32;
    let q = q | q >> 16;
    (q | q >> 8) as u32 & 0xFF
}

/// The rows [`few_rows`] looks up: the set (bit `k`: row 0x80 + 16 k),
/// also in every byte of `mask`, and its rows in order, row 8 (zeros)
/// where it has fewer than [`FEW`]. Kept from block to block, so that
/// the rows' addresses do not wait on each block's bytes (found from
/// them, the rows' loads waited on a chain of about 30 cycles a block,
/// and the telescoped look-up was faster), and a block is checked
/// against the set with three vector operations.
#[derive(Clone, Copy)]
pub(crate) struct Few<V> {
    mask: V,
    set: u32,
    ks: [usize; FEW as usize],
}

impl<V> Few<V> {
    /// No row yet.
    #[inline(always)]
    fn new<S: LookupSimd<V = V>>(s: S) -> Few<V> {
        Few {
            mask: s.zero(),
            set: 0,
            ks: [8; FEW as usize],
        }
    }
}

/// [`lookup`] of a block of an ASCII-compatible page whose bytes from 0x80
/// fall in rows of `few`, or in at most [`FEW`] rows with them (then
/// kept in `few`) or alone (then `few`): each row looked up by itself at
/// the low nibble ([`Rows::plain_lo`]), the bytes of other rows and ASCII
/// turned to negative indexes (zero), `FEW` rows every time (the rows of
/// zeros where fewer are kept). Two `pshufb` a row where the telescoped
/// look-up takes sixteen in all (AVX2 runs them on one port). On a page
/// with affine rows (`A`, in an affine run) only the bytes outside them
/// (or on a row's undefined byte) count and are looked up; the others
/// are computed as the affine run computes them ([`AffineRows`]) and
/// blended in. `None` for a block with more rows.
#[inline(always)]
fn few_rows<S: LookupSimd, A: AffineRows<S>>(
    s: S,
    rows: &Rows,
    few: &mut Few<S::V>,
    a: A,
    v: S::V,
) -> Option<(S::V, S::V)> {
    let n = s.shr8::<4>(v);
    let mut bits = s.shuffle8(s.broadcast16(&ROW_BIT), n);
    // The bytes to look up (their top bit): from 0x80, or outside the
    // affine rows.
    let mut looked = v;
    if A::ANY {
        looked = a.outside(s, v, n);
        bits = s.and(bits, looked);
    }
    // Bytes to look up whose row is not in the set.
    let out = s.movemask8(s.eq8(s.and(bits, few.mask), s.zero())) & s.movemask8(looked);
    // How many rows: fewer on a page with affine rows (windows-1252's
    // other rows are two).
    let most = if A::ANY { FEW_AFF } else { FEW };
    if out != 0 {
        let present = rows_present(s, bits);
        let mut set = present | few.set;
        if set.count_ones() > most {
            if present.count_ones() > most {
                return None;
            }
            set = present;
        }
        let mut rest = set;
        for k in &mut few.ks {
            // Row 8: the rows of zeros, once the set's are done.
            *k = (rest | 0x100).trailing_zeros() as usize;
            rest &= rest.wrapping_sub(1);
        }
        few.set = set;
        few.mask = s.splat8(set as u8);
    }
    // The low half is the byte itself.
    let mut lo = s.and(v, s.gt_i8(v, s.splat8(0xFF)));
    let mut hi = s.zero();
    for &k in &few.ks[..most as usize] {
        // The row's bytes to 0x70–0x7F (their low nibble), others to at
        // least 0x80 (saturating): a negative index looks up zero.
        let idx = s.add_sat_u8(s.xor(v, s.broadcast16(&ROW_XOR[k])), s.splat8(0x70));
        lo = s.or(lo, s.shuffle8(s.broadcast16(&rows.plain_lo[k]), idx));
        hi = s.or(hi, s.shuffle8(s.broadcast16(&rows.plain_hi[k]), idx));
    }
    if A::ANY {
        let (alo, ahi) = a.halves(s, v, n);
        lo = s.blendv8(alo, lo, looked);
        hi = s.blendv8(ahi, hi, looked);
    }
    Some((lo, hi))
}

/// A page's affine rows as the look-ups of [`few_rows`] and the affine
/// runs compute them, from a block `v` and its high nibbles `n`: none
/// ([`NoAffine`]), or broadcast to registers once a run for UTF-8
/// ([`AffineUtf8`]) or UTF-16 ([`AffineUtf16`]).
trait AffineRows<S: LookupSimd>: Copy {
    /// Whether the page has affine rows (the methods are called only
    /// then).
    const ANY: bool;
    /// 0xFF in each byte outside the affine rows, or on a row's undefined
    /// byte (its `hole`).
    fn outside(self, s: S, v: S::V, n: S::V) -> S::V;
    /// Each byte's value in its affine row, as the two halves the
    /// look-up gives ([`lookup`]): for UTF-8 the lead and continuation,
    /// for UTF-16 the unit's low and high bytes.
    fn halves(self, s: S, v: S::V, n: S::V) -> (S::V, S::V);

    /// The halves of the bytes of `v` if all are in the rows (the runs'
    /// blocks).
    #[inline(always)]
    fn block(self, s: S, v: S::V) -> Option<(S::V, S::V)> {
        let n = s.shr8::<4>(v);
        if s.movemask8(self.outside(s, v, n)) != 0 {
            return None;
        }
        Some(self.halves(s, v, n))
    }

    /// The UTF-16 units of the bytes of `v` if all are in the rows, as
    /// [`LookupSimd::zip8`] leaves them.
    #[inline(always)]
    fn units(self, s: S, v: S::V) -> Option<(S::V, S::V)> {
        let (lo, hi) = self.block(s, v)?;
        Some(s.zip8(lo, hi))
    }
}

/// A page without affine rows (or a block outside its runs).
#[derive(Clone, Copy)]
struct NoAffine;

impl<S: LookupSimd> AffineRows<S> for NoAffine {
    const ANY: bool = false;

    /// Not called (`!ANY`): every byte counts.
    #[inline(always)]
    fn outside(self, s: S, _: S::V, _: S::V) -> S::V {
        s.splat8(0xFF)
    }

    /// Not called (`!ANY`).
    #[inline(always)]
    fn halves(self, s: S, _: S::V, _: S::V) -> (S::V, S::V) {
        (s.zero(), s.zero())
    }
}

/// [`Affine`]'s UTF-8 rows broadcast to registers, for [`affine_pairs`]:
/// loaded once a run of blocks ([`run_utf8`]).
#[derive(Clone, Copy)]
struct AffineUtf8<V> {
    lead: V,
    step: V,
    hole: V,
}

impl<V: Copy> AffineUtf8<V> {
    #[inline(always)]
    fn new<S: LookupSimd<V = V>>(s: S, a: &Affine) -> Self {
        AffineUtf8 {
            lead: s.broadcast16(&a.lead),
            step: s.broadcast16(&a.step),
            hole: s.broadcast16(&a.hole),
        }
    }
}

impl<S: LookupSimd> AffineRows<S> for AffineUtf8<S::V> {
    const ANY: bool = true;

    /// A row that is not affine has the lead 0xFF (never in UTF-8).
    #[inline(always)]
    fn outside(self, s: S, v: S::V, n: S::V) -> S::V {
        let not = s.eq8(s.shuffle8(self.lead, n), s.splat8(0xFF));
        s.or(not, s.eq8(v, s.shuffle8(self.hole, n)))
    }

    /// The row's lead (a byte below 0x80 is its own), and the byte plus
    /// the row's step as the continuation.
    #[inline(always)]
    fn halves(self, s: S, v: S::V, n: S::V) -> (S::V, S::V) {
        let lead = s.blendv8(v, s.shuffle8(self.lead, n), v);
        (lead, s.add8(v, s.shuffle8(self.step, n)))
    }
}

/// [`Affine`]'s UTF-16 rows broadcast to registers, for
/// [`affine_units`]: loaded once a run of blocks ([`run_utf16`]).
#[derive(Clone, Copy)]
struct AffineUtf16<V> {
    not16: V,
    hole: V,
    delta_lo: V,
    delta_hi: V,
}

impl<V: Copy> AffineUtf16<V> {
    #[inline(always)]
    fn new<S: LookupSimd<V = V>>(s: S, a: &Affine) -> Self {
        AffineUtf16 {
            not16: s.broadcast16(&a.not16),
            hole: s.broadcast16(&a.hole),
            delta_lo: s.broadcast16(&a.delta_lo),
            delta_hi: s.broadcast16(&a.delta_hi),
        }
    }
}

impl<S: LookupSimd> AffineRows<S> for AffineUtf16<S::V> {
    const ANY: bool = true;

    /// A row that is not affine has `not16` 0xFF.
    #[inline(always)]
    fn outside(self, s: S, v: S::V, n: S::V) -> S::V {
        s.or(
            s.shuffle8(self.not16, n),
            s.eq8(v, s.shuffle8(self.hole, n)),
        )
    }

    /// Each byte plus its row's delta in 16-bit lanes: cheaper than the
    /// halves' carry.
    #[inline(always)]
    fn units(self, s: S, v: S::V) -> Option<(S::V, S::V)> {
        let n = s.shr8::<4>(v);
        if s.movemask8(self.outside(s, v, n)) != 0 {
            return None;
        }
        let lo = s.shuffle8(self.delta_lo, n);
        let hi = s.shuffle8(self.delta_hi, n);
        let (b0, b1) = s.zip8(v, s.zero());
        let (d0, d1) = s.zip8(lo, hi);
        Some((s.add16(b0, d0), s.add16(b1, d1)))
    }

    /// The byte plus the row's delta, the low byte's carry added to the
    /// high one (`v > lo` unsigned: the 0xFF of a compare subtracted).
    #[inline(always)]
    fn halves(self, s: S, v: S::V, n: S::V) -> (S::V, S::V) {
        let lo = s.add8(v, s.shuffle8(self.delta_lo, n));
        let flip = s.splat8(0x80);
        let carry = s.gt_i8(s.xor(v, flip), s.xor(lo, flip));
        (lo, s.sub8(s.shuffle8(self.delta_hi, n), carry))
    }
}

/// A page's [`Quarter`] broadcast to registers for the runs: as affine
/// rows ([`AffineRows`]) whose blocks are ASCII and bytes from 0xC0, the
/// bytes 0x80–0xBF outside, for UTF-8 (`UTF8`) or UTF-16.
#[derive(Clone, Copy)]
struct QuarterRows<V, const UTF8: bool> {
    lo: [V; 4],
    base: V,
}

impl<V: Copy, const UTF8: bool> QuarterRows<V, UTF8> {
    #[inline(always)]
    fn new<S: LookupSimd<V = V>>(s: S, q: &Quarter) -> Self {
        debug_assert_eq!(q.utf8, UTF8);
        QuarterRows {
            lo: q.lo.map(|row| s.broadcast16(&row)),
            base: s.broadcast16(&q.base),
        }
    }
}

impl<S: LookupSimd, const UTF8: bool> AffineRows<S> for QuarterRows<S::V, UTF8> {
    const ANY: bool = true;

    /// The bytes 0x80–0xBF (below 0xC0, signed, and negative).
    #[inline(always)]
    fn outside(self, s: S, v: S::V, _: S::V) -> S::V {
        s.gt_i8(s.splat8(0xC0), v)
    }

    /// The unit's low byte looked up by four telescoped rows, the rest
    /// computed ([`Quarter`]); an ASCII byte looks up zero and is its own
    /// unit and lead (blends on the byte's top bit).
    #[inline(always)]
    fn halves(self, s: S, v: S::V, _: S::V) -> (S::V, S::V) {
        let t = s.xor(v, s.splat8(0x80));
        let mut lo = s.zero();
        for (k, &row) in self.lo.iter().enumerate() {
            let idx = s.subs_i8(t, s.splat8(64 + 16 * k as u8));
            lo = s.xor(lo, s.shuffle8(row, idx));
        }
        if UTF8 {
            let lead = s.or(self.base, s.and(s.shr16::<6>(lo), s.splat8(0x03)));
            // An ASCII byte's continuation is dropped (its lead's top bit).
            let cont = s.or(s.and(lo, s.splat8(0x3F)), s.splat8(0x80));
            (s.blendv8(v, lead, v), cont)
        } else {
            (s.blendv8(v, lo, v), s.blendv8(s.zero(), self.base, v))
        }
    }
}

/// Whether a block's units, as the halves `lo` and `hi` of the look-up,
/// hold an undefined one (0xFFFF: both halves 0xFF); never on a page
/// without undefined bytes ([`Rows::complete`]).
#[inline(always)]
fn undefined<S: LookupSimd>(s: S, rows: &Rows, lo: S::V, hi: S::V) -> bool {
    !rows.complete && s.movemask8(s.eq8(s.and(lo, hi), s.splat8(0xFF))) != 0
}

/// A run's step ([`run_utf16`], [`run_utf8`]): the output of a block
/// with bytes from 0x80, or `None` where the run stops (the block is left
/// to the look-up, which stops at an undefined byte). A trait, not a
/// closure: a closure would not inherit the kernel's target features.
trait Step<S: LookupSimd> {
    /// The block's UTF-16 units, in order.
    fn units(&mut self, s: S, v: S::V) -> Option<(S::V, S::V)>;
    /// The block's UTF-8 as the halves of the look-up (leads and
    /// continuations), and the bytes that are one byte of UTF-8 (their
    /// continuation dropped).
    fn pairs(&mut self, s: S, v: S::V, high: u64) -> Option<(S::V, S::V, u64)>;
}

/// The blocks in a page's affine rows (or its top [`Quarter`]: `A`), those
/// with bytes outside them staying in the run where these fall in few
/// rows ([`few_rows`], `few` kept across runs; windows-1252's œ, one block
/// in five of French, left the run and came back, +7% → UTF-8 and +13% →
/// UTF-16).
struct AffineStep<'a, S: LookupSimd, A> {
    a: A,
    rows: &'a Rows,
    few: &'a mut Few<S::V>,
}

impl<S: LookupSimd, A: AffineRows<S>> Step<S> for AffineStep<'_, S, A> {
    #[inline(always)]
    fn units(&mut self, s: S, v: S::V) -> Option<(S::V, S::V)> {
        let (lo, hi) = match self.a.units(s, v) {
            Some((b0, b1)) => return Some(s.in_order(b0, b1)),
            None if self.rows.ascii => few_rows(s, self.rows, self.few, self.a, v)?,
            None => return None,
        };
        if undefined(s, self.rows, lo, hi) {
            return None;
        }
        let (b0, b1) = s.zip8(lo, hi);
        Some(s.in_order(b0, b1))
    }

    #[inline(always)]
    fn pairs(&mut self, s: S, v: S::V, high: u64) -> Option<(S::V, S::V, u64)> {
        if let Some((lead, cont)) = self.a.block(s, v) {
            // A byte below 0x80 is its own lead, a lead of an affine row
            // from 0x80 at least 0xC2: the leads' top bits are the bytes'.
            return Some((lead, cont, !high));
        }
        if !self.rows.ascii {
            return None;
        }
        let (lead, cont) = few_rows(s, self.rows, self.few, self.a, v)?;
        // A unit from 0x800 or an undefined byte stops the run.
        (s.movemask8(s.eq8(lead, s.splat8(0xFF))) == 0).then(|| (lead, cont, !s.movemask8(lead)))
    }
}

/// The blocks whose bytes from 0x80 all lie below [`PREFIX_END`] (a DOS
/// page's letters), on an ASCII-compatible page without runs: each looks
/// up its first two or three telescoped rows alone ([`prefix_rows`]).
struct PrefixStep<'a> {
    rows: &'a Rows,
}

impl PrefixStep<'_> {
    /// The halves of block `v`, if its bytes from 0x80 lie in the prefix.
    #[inline(always)]
    fn halves<S: LookupSimd>(&self, s: S, v: S::V) -> Option<(S::V, S::V)> {
        let high = s.movemask8(v);
        if high != s.movemask8(s.gt_i8(s.splat8(PREFIX_END), v)) {
            return None;
        }
        let t = s.xor(v, s.splat8(0x80));
        let (lo, hi) = if high == s.movemask8(s.gt_i8(s.splat8(0xA0), v)) {
            prefix_rows::<S, 2>(s, self.rows, t)
        } else {
            prefix_rows::<S, PREFIX_ROWS>(s, self.rows, t)
        };
        // The low half of ASCII is the byte itself.
        Some((s.xor(lo, s.and(v, s.gt_i8(v, s.splat8(0xFF)))), hi))
    }
}

impl<S: LookupSimd> Step<S> for PrefixStep<'_> {
    #[inline(always)]
    fn units(&mut self, s: S, v: S::V) -> Option<(S::V, S::V)> {
        let (lo, hi) = self.halves(s, v)?;
        if undefined(s, self.rows, lo, hi) {
            return None;
        }
        let (b0, b1) = s.zip8(lo, hi);
        Some(s.in_order(b0, b1))
    }

    #[inline(always)]
    fn pairs(&mut self, s: S, v: S::V, _: u64) -> Option<(S::V, S::V, u64)> {
        let (lead, cont) = self.halves(s, v)?;
        // A unit from 0x800 or an undefined byte stops the run.
        (s.movemask8(s.eq8(lead, s.splat8(0xFF))) == 0).then(|| (lead, cont, !s.movemask8(lead)))
    }
}

/// [`to_utf16`]'s run of blocks that `step` converts: from `src[i..]` to
/// `dst[i..]` (of one length) until a block it does not (or the end);
/// returns the new `i`. A loop of its own, so that the blocks of a text in
/// affine rows (Greek, Cyrillic) or a DOS page's first rows run without
/// the full look-up's branches and constants between them, on pointers
/// checked against the last block's. Blocks of ASCII are widened (on an
/// `ascii` page).
#[inline(always)]
fn run_utf16<S: LookupSimd>(
    s: S,
    step: &mut impl Step<S>,
    ascii: bool,
    src: &[u8],
    dst: &mut [Unit],
    i: usize,
) -> usize {
    debug_assert!(i <= src.len() && src.len() == dst.len());
    let Some(last) = src.len().checked_sub(S::BYTES) else {
        return i;
    };
    let (src, dst) = (src.as_ptr(), dst.as_mut_ptr());
    // SAFETY: `i` is within `src` (or at its end), as is the last block.
    let (mut p, p_last) = unsafe { (src.add(i), src.add(last)) };
    while p <= p_last {
        // SAFETY: `p..p + BYTES` is readable (`p <= p_last`), and its
        // offset within `src` is the block's within `dst` (one length).
        let (v, q) = unsafe { (s.load(p), dst.add(p.offset_from_unsigned(src))) };
        let (first, second) = if s.movemask8(v) == 0 {
            if !ascii {
                // Left to the look-up (a page whose ASCII is not ASCII).
                break;
            }
            let (b0, b1) = s.zip8(v, s.zero());
            s.in_order(b0, b1)
        } else {
            let Some(units) = step.units(s, v) else {
                break;
            };
            units
        };
        // SAFETY: `q..q + BYTES` units are writable (`dst` is as long as
        // `src`): two unaligned stores of `BYTES` bytes fill them.
        unsafe {
            s.store(q.cast(), first);
            s.store(q.add(S::BYTES / 2).cast(), second);
            p = p.add(S::BYTES);
        }
    }
    // SAFETY: `p` lies within `src`, from its start.
    unsafe { p.offset_from_unsigned(src) }
}

/// Converts the longest prefix of `src` (at most `dst.len()` bytes) with
/// no undefined byte into `dst`, one unit a byte: the kernels' `to_utf16`,
/// with the runs of `RUNS` ([`RUNS_NONE`]) and with `TOP` the top
/// quarter's look-up ([`lookup`]). The caller instantiates each
/// [`Mode`] as a separate function: the
/// look-up of a page without affine rows then keeps its registers (in one
/// function with both loops it reloaded 7 constants a block, KOI8-R 10–15%
/// slower).
#[inline(always)]
pub(crate) fn to_utf16<S: LookupSimd, const RUNS: u8, const TOP: bool>(
    s: S,
    page: &SingleByte,
    src: &[u8],
    dst: &mut [Unit],
) -> usize {
    let (table, affine) = (page.table, &page.affine);
    let rows = &page_rows(page).units;
    let len = src.len().min(dst.len());
    let mut few = Few::new(s);
    let mut i = 0;
    loop {
        let (src, dst) = (&src[..len], &mut dst[..len]);
        if RUNS == RUNS_AFFINE {
            let a = AffineUtf16::new(s, affine);
            let mut step = AffineStep {
                a,
                rows,
                few: &mut few,
            };
            i = run_utf16(s, &mut step, rows.ascii, src, dst, i);
        } else if RUNS == RUNS_QUARTER
            && let Some(q) = &rows.quarter
        {
            let a = QuarterRows::<_, false>::new(s, q);
            let mut step = AffineStep {
                a,
                rows,
                few: &mut few,
            };
            i = run_utf16(s, &mut step, rows.ascii, src, dst, i);
        } else if RUNS == RUNS_NONE && rows.ascii {
            i = run_utf16(s, &mut PrefixStep { rows }, true, src, dst, i);
        }
        if i + S::BYTES > len {
            break;
        }
        let block = &src[i..i + S::BYTES];
        // SAFETY: `block` is `BYTES` readable bytes.
        let v = unsafe { s.load(block.as_ptr()) };
        let ascii = rows.ascii && s.movemask8(v) == 0;
        let (lo, hi) = if ascii {
            (v, s.zero())
        } else {
            lookup::<S, TOP, RUNS>(s, rows, &mut few, v)
        };
        if undefined(s, rows, lo, hi) {
            break;
        }
        let (a, b) = s.zip8(lo, hi);
        let (first, second) = s.in_order(a, b);
        let out = &mut dst[i..i + S::BYTES];
        // SAFETY: `out` is `BYTES` writable units (`2 * BYTES` bytes): two
        // unaligned stores of `BYTES` bytes fill it exactly.
        unsafe {
            s.store(out.as_mut_ptr().cast(), first);
            s.store(out.as_mut_ptr().add(S::BYTES / 2).cast(), second);
        }
        i += S::BYTES;
    }
    // The tail, and a block with an undefined byte: one byte at a time.
    i + to_utf16_scalar(table, &src[i..len], &mut dst[i..len])
}

/// Each byte's UTF-8 as a table entry: the lead (the byte itself below
/// 0x80; 0xFF, never in UTF-8, for a unit from 0x800 or undefined) in the
/// low byte, the continuation in the high byte.
pub(super) fn utf8_pairs(table: &[u16; 256]) -> [u16; 256] {
    table.map(|u| match u {
        0..0x80 => u,
        0x80..0x800 => (0xC0 | (u >> 6)) | (0x80 | (u & 0x3F)) << 8,
        _ => 0xFF,
    })
}

/// Writes the UTF-8 of 8 lead/continuation pairs at `dst[w..]` (16
/// writable bytes), dropping the continuation of the pairs whose bit of
/// `one` is set; returns the bytes that count.
#[inline(always)]
pub(super) fn compress_pairs<S: LookupSimd>(
    s: S,
    pairs: __m128i,
    one: usize,
    dst: &mut [MaybeUninit<u8>],
    w: usize,
) -> usize {
    let out = &mut dst[w..w + 16];
    // SAFETY: `COMPRESS[one]` is 16 readable bytes, `out` 16 writable ones
    // (unaligned loads and stores).
    unsafe {
        let shuffle = _mm_loadu_si128(COMPRESS[one].as_ptr().cast::<__m128i>());
        _mm_storeu_si128(
            out.as_mut_ptr().cast::<__m128i>(),
            s.shuffle16(pairs, shuffle),
        );
    }
    16 - one.count_ones() as usize
}

/// Writes the UTF-8 of the `BYTES` pairs of `lead` and `cont` at `out`,
/// dropping the continuation of the bytes whose bit of `one` is set, 8
/// pairs a shuffle; returns the bytes written (`BYTES` to `2 * BYTES`).
///
/// # Safety
///
/// `out` must be valid for writing `3 * BYTES` bytes (the decoders' loop
/// condition): each group's 16-byte store then lies within them.
#[inline(always)]
unsafe fn write_pairs<S: LookupSimd>(
    s: S,
    lead: S::V,
    cont: S::V,
    one: u64,
    out: *mut MaybeUninit<u8>,
) -> usize {
    // Lane by lane, the pairs of its first 8 bytes, then of its last 8.
    let (a, b) = s.zip8(lead, cont);
    let mut o = 0;
    for k in 0..S::BYTES / 16 {
        for (j, x) in [a, b].into_iter().enumerate() {
            let g = 2 * k + j;
            let m = ((one >> (8 * g)) & 0xFF) as usize;
            // SAFETY: `COMPRESS[m]` is 16 readable bytes; the group's 16
            // bytes at `out + o` are writable: `o <= 16 g <= 2 * BYTES - 16`
            // and `out` has `3 * BYTES` (the caller's promise; unaligned
            // loads and stores).
            unsafe {
                let shuffle = _mm_loadu_si128(COMPRESS[m].as_ptr().cast::<__m128i>());
                _mm_storeu_si128(
                    out.add(o).cast::<__m128i>(),
                    s.shuffle16(s.lane16(x, k), shuffle),
                );
            }
            o += 16 - m.count_ones() as usize;
        }
    }
    o
}

/// The fused decoder's run of blocks that `step` converts ([`to_utf8`],
/// as [`run_utf16`]): from `src[i..]` to `dst[w..]` until a block it does
/// not (or the end, or `dst` full); returns the new `(i, w)`. Blocks of
/// ASCII are copied (on an `ascii` page).
#[inline(always)]
fn run_utf8<S: LookupSimd>(
    s: S,
    step: &mut impl Step<S>,
    ascii: bool,
    src: &[u8],
    dst: &mut [MaybeUninit<u8>],
    i: usize,
    w: usize,
) -> (usize, usize) {
    debug_assert!(i <= src.len() && w <= dst.len());
    // Where the last block may start, and the last `3 * BYTES` of room.
    let (Some(last_in), Some(last_out)) = (
        src.len().checked_sub(S::BYTES),
        dst.len().checked_sub(3 * S::BYTES),
    ) else {
        return (i, w);
    };
    let (src, dst) = (src.as_ptr(), dst.as_mut_ptr());
    // SAFETY: `i` and `w` are within their slices (or at their ends), as
    // are the last block and room.
    let (mut p, mut q, p_last, q_last) =
        unsafe { (src.add(i), dst.add(w), src.add(last_in), dst.add(last_out)) };
    while p <= p_last && q <= q_last {
        // SAFETY: `p..p + BYTES` is readable (`p <= p_last`).
        let v = unsafe { s.load(p) };
        let high = s.movemask8(v);
        let n = if high == 0 {
            if !ascii {
                // Left to the look-up (a page whose ASCII is not ASCII).
                break;
            }
            // SAFETY: `q..q + 3 * BYTES` is writable (`q <= q_last`).
            unsafe { s.store(q.cast(), v) };
            S::BYTES
        } else {
            let Some((lead, cont, one)) = step.pairs(s, v, high) else {
                break;
            };
            // SAFETY: `q..q + 3 * BYTES` is writable (`q <= q_last`).
            unsafe { write_pairs(s, lead, cont, one, q) }
        };
        // SAFETY: the block read and the `n <= 2 * BYTES` bytes written
        // were within the slices.
        unsafe { (p, q) = (p.add(S::BYTES), q.add(n)) };
    }
    // SAFETY: `p` and `q` lie within the slices, from their starts.
    unsafe { (p.offset_from_unsigned(src), q.offset_from_unsigned(dst)) }
}

/// The fused decoder to UTF-8 (`super::super::Utf8Fn`): each byte's lead
/// and continuation looked up as the two bytes of a table entry
/// ([`utf8_pairs`]), interleaved, and compacted 8 pairs a shuffle; with
/// `RUNS`, runs of blocks in affine rows or the top [`Quarter`] computed
/// instead ([`run_utf8`]), the other blocks looked up one by one.
#[inline(always)]
pub(crate) fn to_utf8<S: LookupSimd, const RUNS: u8, const TOP: bool>(
    s: S,
    page: &SingleByte,
    src: &[u8],
    dst: &mut [MaybeUninit<u8>],
) -> (usize, usize) {
    let (table, affine) = (page.table, &page.affine);
    let rows = &page_rows(page).utf8;
    let ascii = rows.ascii;
    let mut few = Few::new(s);
    let (mut i, mut w) = (0, 0);
    loop {
        if RUNS == RUNS_AFFINE {
            let a = AffineUtf8::new(s, affine);
            let mut step = AffineStep {
                a,
                rows,
                few: &mut few,
            };
            (i, w) = run_utf8(s, &mut step, ascii, src, dst, i, w);
        } else if RUNS == RUNS_QUARTER
            && let Some(q) = &rows.quarter
        {
            let a = QuarterRows::<_, true>::new(s, q);
            let mut step = AffineStep {
                a,
                rows,
                few: &mut few,
            };
            (i, w) = run_utf8(s, &mut step, ascii, src, dst, i, w);
        } else if RUNS == RUNS_NONE && ascii {
            (i, w) = run_utf8(s, &mut PrefixStep { rows }, true, src, dst, i, w);
        }
        if i + S::BYTES > src.len() || w + 3 * S::BYTES > dst.len() {
            break;
        }
        let block = &src[i..i + S::BYTES];
        // SAFETY: `block` is `BYTES` readable bytes.
        let v = unsafe { s.load(block.as_ptr()) };
        if ascii && s.movemask8(v) == 0 {
            let out = &mut dst[w..w + S::BYTES];
            // SAFETY: `out` is `BYTES` writable bytes.
            unsafe { s.store(out.as_mut_ptr().cast(), v) };
            i += S::BYTES;
            w += S::BYTES;
            continue;
        }
        let (lead, cont) = lookup::<S, TOP, RUNS>(s, rows, &mut few, v);
        if s.movemask8(s.eq8(lead, s.splat8(0xFF))) != 0 {
            // A unit from 0x800 or an undefined byte: one at a time.
            let (ni, nw) = utf8_scalar(table, src, dst, i, w, i + S::BYTES);
            let stopped = ni < i + S::BYTES;
            (i, w) = (ni, nw);
            if stopped {
                return (i, w);
            }
            continue;
        }
        // Bit k: byte k is one byte of UTF-8 (its continuation dropped).
        let one = !s.movemask8(lead);
        // Lane by lane, the pairs of its first 8 bytes, then of its last 8
        // (bounds-checked: unchecked here as in `write_pairs`, KOI8-R
        // decoded 5% slower).
        let (a, b) = s.zip8(lead, cont);
        for k in 0..S::BYTES / 16 {
            for (j, x) in [a, b].into_iter().enumerate() {
                let g = 2 * k + j;
                let m = ((one >> (8 * g)) & 0xFF) as usize;
                w += compress_pairs(s, s.lane16(x, k), m, dst, w);
            }
        }
        i += S::BYTES;
    }
    utf8_scalar(table, src, dst, i, w, src.len())
}

/// A lead pair's 128-entry slice of `dense` as telescoped rows (as
/// [`Rows`]), and which of them are not all zero: a zero row adds nothing
/// to a look-up, so it is skipped (windows-1252's U+0100–U+017F, Œ to ž,
/// take three rows of eight; CP437's U+0080–U+00FF six).
#[derive(Clone, Copy)]
struct SliceRows<V> {
    /// The pair (0: none yet; a pair is at least C0).
    pair: u8,
    /// Bit `k`: row `k` is not all zero.
    nonzero: u8,
    rows: [V; 8],
}

/// The telescoped rows of the slice of `dense` that the leads `pair` and
/// `pair + 1` index, from `cache` (the rows of the last two pairs, the
/// latest first) or built into it.
#[inline(always)]
fn slice_rows<'a, S: LookupSimd>(
    s: S,
    dense: &[u8; 0x800],
    cache: &'a mut [SliceRows<S::V>; 2],
    pair: u8,
) -> &'a SliceRows<S::V> {
    if cache[0].pair == pair {
        return &cache[0];
    }
    if cache[1].pair != pair {
        let base = usize::from(pair & 0x1F) * 64;
        let slice = &dense[base..base + 128];
        let mut built = SliceRows {
            pair,
            nonzero: 0,
            rows: [s.zero(); 8],
        };
        for (k, r) in built.rows.iter_mut().enumerate() {
            let mut row = [0u8; 16];
            for (j, b) in row.iter_mut().enumerate() {
                let prev = if k == 0 { 0 } else { slice[16 * (k - 1) + j] };
                *b = slice[16 * k + j] ^ prev;
            }
            if row != [0; 16] {
                built.nonzero |= 1 << k;
            }
            *r = s.broadcast16(&row);
        }
        cache[1] = built;
    }
    cache.swap(0, 1);
    &cache[0]
}

/// The bytes of a slice's telescoped rows at `index` (0..128 a byte).
#[inline(always)]
fn look_up_slice<S: LookupSimd>(s: S, slice: &SliceRows<S::V>, index: S::V) -> S::V {
    let mut out = s.zero();
    for (k, &row) in slice.rows.iter().enumerate() {
        if slice.nonzero & (1 << k) != 0 {
            let idx = s.subs_i8(index, s.splat8(16 * k as u8));
            out = s.xor(out, s.shuffle8(row, idx));
        }
    }
    out
}

/// The bytes of lead pair `pair`'s characters at `index` (each
/// continuation's index in the pair's slice of `dense`), exact in the
/// lanes `after` (the continuations of the pair's leads): computed as
/// `index + delta` where all of them fall in the slice's affine run
/// ([`Runs`]), else looked up by the slice's telescoped rows.
#[inline(always)]
fn pair_bytes<S: LookupSimd>(
    s: S,
    dense: &Dense,
    cache: &mut [SliceRows<S::V>; 2],
    pair: u8,
    index: S::V,
    after: u64,
) -> S::V {
    let runs = &dense.runs;
    if runs.has(pair) {
        let p = Runs::slot(pair);
        // In the run: `index + 128 - lo` below `len - 128`, signed.
        let t = s.add8(index, s.splat8(runs.first.bias[p]));
        let inside = s.movemask8(s.gt_i8(s.splat8(runs.first.limit[p]), t));
        if after & !inside == 0 {
            return s.add8(index, s.splat8(runs.first.delta[p]));
        }
    }
    look_up_slice(s, slice_rows(s, &dense.bytes, cache, pair), index)
}

/// The bytes of a block's characters at `index` (each continuation's
/// index in its pair's slice), exact in the continuation lanes `after`,
/// if every one falls in the affine run of its lead's pair ([`Runs`]): the
/// run of each lane's pair read by a shuffle of the lead's slot (`prev`:
/// the byte before each lane), whatever pairs the block mixes.
#[inline(always)]
fn affine_block<S: LookupSimd>(
    s: S,
    runs: &Runs,
    prev: S::V,
    index: S::V,
    after: u64,
) -> Option<S::V> {
    if !runs.any {
        return None;
    }
    let slot = s.and(s.shr16::<1>(prev), s.splat8(0x0F));
    // Each run field of each lane's slot (no closure: one would not
    // inherit the kernel's target features).
    let (first, second) = (&runs.first, &runs.second);
    let bias = s.shuffle8(s.broadcast16(&first.bias), slot);
    let limit = s.shuffle8(s.broadcast16(&first.limit), slot);
    let delta = s.shuffle8(s.broadcast16(&first.delta), slot);
    // In a run: `index + 128 - lo` below `len - 128`, signed.
    let in_first = s.gt_i8(limit, s.add8(index, bias));
    if !runs.two {
        if after & !s.movemask8(in_first) != 0 {
            return None;
        }
        return Some(s.add8(index, delta));
    }
    let bias2 = s.shuffle8(s.broadcast16(&second.bias), slot);
    let limit2 = s.shuffle8(s.broadcast16(&second.limit), slot);
    let in_second = s.gt_i8(limit2, s.add8(index, bias2));
    if after & !s.movemask8(s.or(in_first, in_second)) != 0 {
        return None;
    }
    let delta2 = s.shuffle8(s.broadcast16(&second.delta), slot);
    let delta = s.blendv8(delta2, delta, in_first);
    Some(s.add8(index, delta))
}

/// The dense encoder (`super::super::EncodeFn`) for an ASCII-compatible
/// page, `BYTES` of input a step, for blocks whose characters from U+0080
/// are of at most two lead pairs (C0/C1 … DE/DF; French text mixes C3 and
/// C5), as the VBMI encoder: each pair's 128-entry slice of `dense` is
/// looked up by telescoped rows (the last two pairs' rows kept) at
/// `(lead & 1) << 6 | continuation & 0x3F`, or computed where the
/// continuations fall in the slices' affine runs (all of the block's, of
/// any pairs: [`affine_block`]; else those of one pair: [`pair_bytes`]),
/// the second pair's result taken after its leads, and a keep-mask
/// shuffle drops the leads, 8 bytes a shuffle. A block with a third pair,
/// or a character from U+0800, returns to the caller's exact path.
///
/// Every block is taken whole, `BYTES` on, so that the next block's
/// address does not wait for this one's leads: a lead in the last lane is
/// dropped, and its continuation, lane 0 of the next block, written with
/// the byte before it (`previous8` of the last block). With the address
/// waiting on the leads instead, windows-1252 French ran 14% slower.
///
/// With `CHECK`, on bytes that may not be UTF-8, as the VBMI encoder's
/// checked form: a block is taken only if it is well-formed UTF-8 of one-
/// and two-byte characters (each continuation after a lead, lane 0 after
/// a carried one; no lead C0 or C1).
#[inline(always)]
pub(crate) fn encode<S: LookupSimd, const CHECK: bool>(
    s: S,
    dense: &Dense,
    src: &[u8],
    dst: &mut [core::mem::MaybeUninit<u8>],
    i: usize,
    w: usize,
) -> (usize, usize) {
    // Where the last block may start, and where the last room for one
    // starts: its kept bytes, and the last group's 16-byte store after
    // `BYTES - 8` of them.
    let (Some(last_in), Some(last_out)) = (
        src.len().checked_sub(S::BYTES),
        dst.len().checked_sub(S::BYTES + 16),
    ) else {
        return (i, w);
    };
    if i > last_in || w > last_out {
        return (i, w);
    }
    let (start, base) = (src.as_ptr(), dst.as_mut_ptr());
    // SAFETY: `i <= last_in < src.len()` and `w <= last_out < dst.len()`.
    let (mut p, mut q, p_last, q_last) = unsafe {
        (
            start.add(i),
            base.add(w),
            start.add(last_in),
            base.add(last_out),
        )
    };
    // The rows of the last two pairs looked up, the latest first (pair 0:
    // none yet; a pair is at least C0).
    let none = SliceRows {
        pair: 0,
        nonzero: 0,
        rows: [s.zero(); 8],
    };
    let mut cache = [none; 2];
    // The last block, and whether it ended in a lead (`p[-1]`), which goes
    // back to the caller if the loop stops here.
    let (mut last, mut carry) = (s.zero(), 0);
    let all = u64::MAX >> (64 - S::BYTES);
    while p <= p_last && q <= q_last {
        // SAFETY: `p..p + BYTES` is readable (`p <= p_last`).
        let v = unsafe { s.load(p) };
        let high = s.movemask8(v);
        if high == 0 {
            // ASCII copies through, but for NUL (0 in `dense` is "none").
            // (No lead was carried: lane 0 would be its continuation.)
            // (Checked: a carried lead without its continuation too.)
            if s.movemask8(s.eq8(v, s.zero())) != 0 || (CHECK && carry != 0) {
                break;
            }
            // SAFETY: `q..q + BYTES` is writable (`q <= q_last`); the
            // block and its output were within the slices.
            unsafe {
                s.store(q.cast::<u8>(), v);
                (p, q) = (p.add(S::BYTES), q.add(S::BYTES));
            }
            (last, carry) = (v, 0);
            continue;
        }
        let top3 = s.and(v, s.splat8(0xE0));
        if s.movemask8(s.eq8(top3, s.splat8(0xE0))) != 0 {
            break;
        }
        let leads = s.movemask8(s.eq8(top3, s.splat8(0xC0)));
        if CHECK
            && ((leads << 1 | carry as u64) & all != high & !leads
                || s.movemask8(s.eq8(s.and(v, s.splat8(0xFE)), s.splat8(0xC0))) != 0)
        {
            break;
        }
        // The continuations: the bytes from 0x80 that are not leads (lane
        // 0 too, after a carried lead).
        let after = high & !leads;
        let mut out = v;
        if after != 0 {
            let prev = s.previous8(v, last);
            let index = s.or(
                s.and(v, s.splat8(0x3F)),
                s.and(s.shl16::<6>(prev), s.splat8(0x40)),
            );
            let two = if let Some(two) = affine_block(s, &dense.runs, prev, index, after) {
                two
            } else {
                // The pair of the first continuation's lead, and of the
                // first other one's (`k - 1`: lane 0's lead is the carried
                // byte before the block).
                let lead_of = |k: u32| {
                    // SAFETY: lane `k` is a continuation, so the byte
                    // before it is its lead: in the block, or before it
                    // (carried, so the block is not the first).
                    unsafe { *p.add(k as usize).sub(1) & 0xFE }
                };
                let pairs = s.and(prev, s.splat8(0xFE));
                let pair_a = lead_of(after.trailing_zeros());
                let same_a = s.movemask8(s.eq8(pairs, s.splat8(pair_a)));
                let rest = after & !same_a;
                if rest == 0 {
                    pair_bytes(s, dense, &mut cache, pair_a, index, after)
                } else {
                    let pair_b = lead_of(rest.trailing_zeros());
                    let after_b = s.eq8(pairs, s.splat8(pair_b));
                    let b_lanes = s.movemask8(after_b);
                    if rest & !b_lanes != 0 {
                        // A third pair.
                        break;
                    }
                    let two_a = pair_bytes(s, dense, &mut cache, pair_a, index, after & !b_lanes);
                    let two_b = pair_bytes(s, dense, &mut cache, pair_b, index, after & b_lanes);
                    s.blendv8(two_a, two_b, after_b)
                }
            };
            out = s.blendv8(v, two, v);
        }
        // Every lane but the leads.
        let kept = !leads & all;
        let zero = s.movemask8(s.eq8(out, s.zero()));
        if zero & kept != 0 {
            break;
        }
        let mut o = 0;
        for k in 0..S::BYTES / 16 {
            let lane = s.lane16(out, k);
            for g in 0..2 {
                let m = ((kept >> (16 * k + 8 * g)) & 0xFF) as usize;
                // SAFETY: `KEEP[m]` is 16 readable bytes; the group's 16
                // bytes at `q + o` are writable: `o <= BYTES - 8`, and
                // `q..q + BYTES + 16` is writable (`q <= q_last`;
                // unaligned loads and stores).
                unsafe {
                    let mut shuffle = _mm_loadu_si128(KEEP[m].as_ptr().cast::<__m128i>());
                    if g == 1 {
                        // The lane's second 8 bytes (0x80 stays negative: a
                        // zero byte).
                        shuffle = _mm_add_epi8(shuffle, _mm_set1_epi8(8));
                    }
                    _mm_storeu_si128(q.add(o).cast::<__m128i>(), s.shuffle16(lane, shuffle));
                }
                o += m.count_ones() as usize;
            }
        }
        carry = (leads >> (S::BYTES - 1)) as usize;
        last = v;
        // SAFETY: the block and its `o <= BYTES` kept bytes were within
        // the slices.
        unsafe { (p, q) = (p.add(S::BYTES), q.add(o)) };
    }
    // A carried lead starts the caller's character.
    // SAFETY: `p` and `q` lie within the slices, from their starts.
    unsafe {
        (
            p.offset_from_unsigned(start) - carry,
            q.offset_from_unsigned(base),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::FEW;
    use crate::arch::Kernel;
    use crate::arch::x86_64::{AVX2, SSSE3};
    use crate::single_byte::SingleByte;
    use core::mem::MaybeUninit;

    /// The decoders of a block whose bytes from 0x80 fall in 1 to
    /// [`FEW`] rows (the rows looked up one by one, [`super::few_rows`];
    /// on a page with affine rows, in its runs, up to [`super::FEW_AFF`]
    /// rows outside them, the affine ones blended in) and in `FEW + 1`
    /// (the telescoped look-up), on every page: the
    /// first row's byte at every position of a block, the other rows'
    /// bytes after it, every byte of each row in turn, the rest ASCII;
    /// non-affine rows first so that the block is not left to the affine
    /// path. Against the table, both outputs, 16- and 32-byte kernels, the
    /// block first and after an ASCII block.
    #[test]
    fn blocks_of_few_rows_equal_table() {
        let kernels = [&SSSE3, &AVX2]
            .into_iter()
            .filter(|k| k.isa.is_available())
            .collect::<Vec<_>>();
        for page in crate::single_byte::all_pages() {
            let table = page.table;
            // The defined bytes of each high row, non-affine rows first.
            let mut rows: Vec<Vec<u8>> = (8..16u8)
                .map(|r| {
                    (16 * r..=16 * r + 15)
                        .filter(|&b| table[usize::from(b)] != 0xFFFF)
                        .collect::<Vec<u8>>()
                })
                .filter(|row| !row.is_empty())
                .collect();
            rows.sort_by_key(|row| page.affine.not16[usize::from(row[0] >> 4)] == 0);
            // Every block below in one text too: the rows kept from block
            // to block ([`super::Few`]) grow, are replaced and fall back.
            let mut all = Vec::new();
            for count in 1..=(FEW as usize + 1).min(rows.len()) {
                for pos in 0..32 {
                    for turn in 0..16 {
                        let mut block = [b'a'; 32];
                        for (j, row) in rows[..count].iter().enumerate() {
                            block[(pos + 5 * j) % 32] = row[(turn + j) % row.len()];
                        }
                        all.extend_from_slice(&block);
                        for before in [0, 32] {
                            let mut src = vec![b'e'; before];
                            src.extend_from_slice(&block);
                            src.extend_from_slice(&[b'z'; 40]);
                            check(page, &kernels, &src);
                        }
                    }
                }
            }
            check(page, &kernels, &all);
        }
    }

    /// `src` (of defined bytes) through each of `kernels`, both outputs,
    /// against `page`'s table; nothing written past the reported units.
    fn check(page: &SingleByte, kernels: &[&Kernel], src: &[u8]) {
        let table = page.table;
        let want: Vec<u16> = src.iter().map(|&b| table[usize::from(b)]).collect();
        let utf8 = String::from_utf16(&want).unwrap();
        for k in kernels {
            let mut units = vec![0xAAAA; src.len() + 2];
            let n = k.to_utf16(page, src, &mut units[..src.len()]);
            assert_eq!(n, Some(src.len()), "{} {src:02X?}", k.name);
            assert_eq!(units[..src.len()], want[..], "{} {src:02X?}", k.name);
            assert_eq!(units[src.len()..], [0xAAAA; 2], "{}", k.name);
            let mut out = vec![MaybeUninit::new(0xAAu8); 3 * src.len()];
            let (r, w) = k.to_utf8_uninit(page, src, &mut out).unwrap();
            // SAFETY: every byte of `out` was initialised above.
            let got: Vec<u8> = out[..w]
                .iter()
                .map(|b| unsafe { b.assume_init() })
                .collect();
            assert_eq!(
                (r, got.as_slice()),
                (src.len(), utf8.as_bytes()),
                "{} {src:02X?}",
                k.name
            );
        }
    }
}
