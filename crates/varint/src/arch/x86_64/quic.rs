//! Bulk decoding of QUIC variable-length integers (RFC 9000 §16) into
//! `u64`s, 16 input bytes (a *window*, starting at a value) at a time.
//!
//! The length of a value is in its first byte (the top two bits: 1, 2, 4 or
//! 8 bytes), so the starts of the values in a window are the orbit of 0
//! under `next[i] = i + len(byte i)`, which pointer doubling finds without
//! a serial scan:
//!
//! 1. every byte's top two bits are `00`: 16 one-byte values, widened
//!    with `pmovzxbq`;
//! 2. the window is eight two-byte, four four-byte or two eight-byte
//!    values (the prefix bits of every first byte say so): each swapped
//!    into its lane with one `pshufb`, masked and widened;
//! 3. if the values in the first 8 bytes have one or two bytes each (bit
//!    6 of each says which, as long as bit 7 is clear), one of 256 table
//!    entries, picked by those 8 bits of bit 6, gives the `pshufb` control
//!    that swaps them into 16-bit lanes, their count and bytes; a second
//!    entry does the same for the 8 bytes after them;
//! 4. otherwise `next` for every byte (one `pshufb` of the lengths), then
//!    `next²`, `next⁴`, `next⁸`, `next¹⁶` (a `pshufb` of a table by itself
//!    each). The next window starts at `next¹⁶(0)`, the end of the first
//!    value that ends at byte 16 or later: only `next` and these four
//!    lookups are on the chain from one window to the next. Off the chain, the ends of
//!    values 0–15 (`end[k] = next^(k+1)(0)`: lanes `2^m..2^(m+1)` are
//!    `next^(2^m)` of lanes `0..2^m`, four steps), and each value that ends
//!    inside the window gathered big-endian into a 64-bit lane with one
//!    `pshufb` (two lanes a register with SSE, four with AVX2) and its
//!    prefix bits cleared; the value the window cuts, if any, from the
//!    8-byte word at its start.
//!
//! Positions past the window stay where they are under a lookup (`lookup`
//! returns any index of 16 or more unchanged), so the ends are exact for
//! every value that ends inside the window and at least 16 for the others.
//!
//! Strict decoding checks every two-, four- and eight-byte value against
//! the smallest value of its length (`2^6`, `2^14`, `2^30`) in its lane, and
//! stops in front of the first that is smaller; the caller's scalar decoder
//! then reports it. The kernel never decides an error itself.
//!
//! # Memory
//!
//! A window is read only while 23 bytes remain from its start (the window,
//! and the word of a value it cuts, which starts by byte 15); values are
//! written only below the count returned, each store covering exactly the
//! values decoded (`vpmaskmovq` or an 8-byte store for the last ones; the
//! slot after a window's values is rewritten with what it held when no
//! value was cut), and a window starts only while 16 output slots are
//! free, the most one window yields.
//!
//! # Measured
//!
//! On an Intel Xeon (Sapphire Rapids-class) the protobuf-like mix (60/25/10/5 % of one, two,
//! four and eight bytes) decodes at 1.8× the scalar loop (AVX2). The other
//! inputs, and the forms tried and dropped with their figures, are in
//! `docs/results/varint.md` ("QUIC bulk decoding").
//!
//! The window work is 16 bytes at both x86-64 levels (`pshufb` does not
//! cross 128-bit lanes), written once over codec-arch's [`Simd`] with the
//! `Sse41` token (VEX-encoded in the AVX2 instance). The output stages,
//! which widen to 64-bit lanes from a register and store the first `n` of
//! them (`vpmaskmovq`), differ by level and stay in [`Lanes`], with the
//! level's own intrinsics.

use codec_arch::Simd;
use codec_arch::x86_64::Sse41;
use core::arch::x86_64::{
    __m128i, __m256i, _mm_add_epi8, _mm_and_si128, _mm_andnot_si128, _mm_castsi128_pd,
    _mm_cmpeq_epi8, _mm_cmpeq_epi64, _mm_cmpgt_epi8, _mm_cvtepu8_epi64, _mm_cvtepu16_epi64,
    _mm_cvtepu32_epi64, _mm_loadu_si128, _mm_max_epu8, _mm_movemask_pd, _mm_or_si128,
    _mm_set1_epi8, _mm_setzero_si128, _mm_shuffle_epi8, _mm_srli_si128, _mm_storel_epi64,
    _mm_storeu_si128, _mm_sub_epi8, _mm256_and_si256, _mm256_andnot_si256,
    _mm256_broadcastsi128_si256, _mm256_castsi256_pd, _mm256_cmpeq_epi8, _mm256_cmpeq_epi64,
    _mm256_cmpgt_epi8, _mm256_cvtepu8_epi64, _mm256_cvtepu16_epi64, _mm256_cvtepu32_epi64,
    _mm256_loadu_si256, _mm256_maskstore_epi64, _mm256_max_epu8, _mm256_movemask_pd,
    _mm256_or_si256, _mm256_set1_epi8, _mm256_setzero_si256, _mm256_shuffle_epi8,
    _mm256_storeu_si256, _mm256_sub_epi8,
};

/// Input bytes read per window, and the most values it yields (output
/// slots it needs free).
pub(crate) const WINDOW: usize = 16;

/// 16-byte constants, aligned so that loading them is one instruction.
#[repr(align(16))]
struct Bytes16([u8; 16]);

/// 32-byte constants.
#[repr(align(32))]
struct Bytes32([u8; 32]);

/// Byte `i` is `i`.
static IOTA: Bytes16 = Bytes16([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15]);

/// The length of a value by its 2-bit prefix.
static LENGTHS: Bytes16 = Bytes16([1, 2, 4, 8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]);

/// Swaps the bytes of each 32-bit lane.
static SWAP32: Bytes16 = Bytes16([3, 2, 1, 0, 7, 6, 5, 4, 11, 10, 9, 8, 15, 14, 13, 12]);
/// Swaps the bytes of each 64-bit lane.
static SWAP64: Bytes16 = Bytes16([7, 6, 5, 4, 3, 2, 1, 0, 15, 14, 13, 12, 11, 10, 9, 8]);
/// Swaps the bytes of each 16-bit lane (big-endian to little-endian).
static SWAP16: Bytes16 = Bytes16([1, 0, 3, 2, 5, 4, 7, 6, 9, 8, 11, 10, 13, 12, 15, 14]);

/// Byte `j` of each 64-bit lane is `j`: the byte's place in the value,
/// least significant first.
static PLACE: Bytes32 = Bytes32([
    0, 1, 2, 3, 4, 5, 6, 7, 0, 1, 2, 3, 4, 5, 6, 7, 0, 1, 2, 3, 4, 5, 6, 7, 0, 1, 2, 3, 4, 5, 6, 7,
]);

/// [`PLACE`] for one 16-byte register.
static PLACE16: Bytes16 = Bytes16([0, 1, 2, 3, 4, 5, 6, 7, 0, 1, 2, 3, 4, 5, 6, 7]);

/// `PLACE + 1`.
static PLACE1: Bytes32 = Bytes32([
    1, 2, 3, 4, 5, 6, 7, 8, 1, 2, 3, 4, 5, 6, 7, 8, 1, 2, 3, 4, 5, 6, 7, 8, 1, 2, 3, 4, 5, 6, 7, 8,
]);

/// For SSE register `i`: byte `k` of a per-value vector repeated in every
/// byte of lane `k - 2i` (values `2i` and `2i + 1`).
static PAIRS: [Bytes16; 8] = {
    let mut t = [const { Bytes16([0; 16]) }; 8];
    let mut i = 0;
    while i < 8 {
        let mut b = 0;
        while b < 16 {
            t[i].0[b] = (2 * i + b / 8) as u8;
            b += 1;
        }
        i += 1;
    }
    t
};

/// For AVX2 register `i`: values `4i` to `4i + 3`, as [`PAIRS`] (each
/// 128-bit lane reads its own copy of the per-value vector).
static QUADS: [Bytes32; 4] = {
    let mut t = [const { Bytes32([0; 32]) }; 4];
    let mut i = 0;
    while i < 4 {
        let mut b = 0;
        while b < 32 {
            t[i].0[b] = (4 * i + b / 8) as u8;
            b += 1;
        }
        i += 1;
    }
    t
};

/// Loads a 16-byte constant.
#[inline(always)]
fn c16(t: &Bytes16) -> __m128i {
    // SAFETY: `t` is 16 readable bytes.
    unsafe { _mm_loadu_si128(t.0.as_ptr().cast()) }
}

/// Loads a 32-byte constant (AVX).
#[inline(always)]
unsafe fn c32(t: &Bytes32) -> __m256i {
    // SAFETY: `t` is 32 readable bytes; AVX is the caller's promise.
    unsafe { _mm256_loadu_si256(t.0.as_ptr().cast()) }
}

/// A 16-byte constant as a register of the token.
#[inline(always)]
fn k16(s: Sse41, t: &Bytes16) -> __m128i {
    // SAFETY: `t` is 16 readable bytes.
    unsafe { s.load(t.0.as_ptr()) }
}

/// `table[x]` for every byte `x` below 16, and `x` itself for the others
/// (every table here maps a position below 16 to a larger one, so the
/// maximum picks the lookup there and `x` where `pshufb` gave 0).
#[inline(always)]
fn lookup(s: Sse41, table: __m128i, x: __m128i) -> __m128i {
    // Adding 0x70 with saturation keeps the low four bits of `x` below 16
    // and sets the top bit (a zero from `pshufb`) from 16 on.
    let idx = s.add_sat_u8(x, s.splat8(0x70));
    s.max_u8(s.shuffle8(table, idx), x)
}

/// The bytes of `x` moved up by `16 - N` (`pslldq`), zeros below.
#[inline(always)]
fn up<const N: i32>(s: Sse41, x: __m128i) -> __m128i {
    s.alignr8::<N>(x, s.zero())
}

/// The first `K` bytes of `low`, then the rest of `high`: a blend with a
/// constant mask, which LLVM emits as `pblendw` for an even `K`.
#[inline(always)]
fn keep_low<const K: usize>(s: Sse41, high: __m128i, low: __m128i) -> __m128i {
    // A constant of this crate (codec-arch's `mask_from` table is not one
    // that LLVM can see into here, and made it a load and `pblendvb`).
    let mask: [u8; 16] = const {
        let mut t = [0u8; 16];
        let mut i = K;
        while i < 16 {
            t[i] = 0xFF;
            i += 1;
        }
        t
    };
    s.blendv8(low, high, s.broadcast16(&mask))
}

/// The window `w` (which starts at a value) read by pointer doubling:
/// `(ends, exit)`. `ends` holds the end (one past the last byte) of values
/// 0–15: exact for every value that ends inside the window, at least 16
/// for the others. `exit` is where the first value that ends at 16 or later
/// ends (16 to 23): the next window's start.
///
/// `exit` takes four lookups after `next`, and `ends` four more, on top of
/// the first three: only `exit` is on the chain from one window to the next, so the
/// work of `ends` and of the gather overlaps the next windows'.
///
#[inline(always)]
fn walk(s: Sse41, w: __m128i) -> (__m128i, usize) {
    let prefix = s.and(s.shr16::<6>(w), s.splat8(3));
    let next = s.add8(s.shuffle8(k16(s, &LENGTHS), prefix), k16(s, &IOTA));
    let next2 = lookup(s, next, next);
    let next4 = lookup(s, next2, next2);
    let next8 = lookup(s, next4, next4);
    // Sixteen steps from any byte reach 16 or more.
    let next16 = lookup(s, next8, next8);
    let exit = (s.first32(next16) & 0xff) as usize;
    // Lanes 0 and 1: `next` of `[0, next(0)]`, which is `next` shifted by
    // a lane (lanes 2 on are garbage until the steps below overwrite them).
    // Each later step keeps the lanes already found.
    let r = lookup(s, next, up::<15>(s, next));
    let r = keep_low::<2>(s, lookup(s, next2, up::<14>(s, r)), r);
    let r = keep_low::<4>(s, lookup(s, next4, up::<12>(s, r)), r);
    let ends = keep_low::<8>(s, lookup(s, next8, up::<8>(s, r)), r);
    (ends, exit)
}

/// The output stage of one instruction-set level.
pub(crate) trait Lanes {
    /// Writes the 16 bytes of `w`, zero-extended, to `o[0..16]`.
    ///
    /// # Safety
    ///
    /// `o..o + 16` is writable; the level's features.
    unsafe fn ones(w: __m128i, o: *mut u64);

    /// Writes the eight 16-bit lanes of `v`, zero-extended, to `o[0..8]`.
    ///
    /// # Safety
    ///
    /// `o..o + 8` is writable; the level's features.
    unsafe fn twos(v: __m128i, o: *mut u64);

    /// Writes the four 32-bit lanes of `v`, zero-extended, to `o[0..4]`.
    ///
    /// # Safety
    ///
    /// `o..o + 4` is writable; the level's features.
    unsafe fn fours(v: __m128i, o: *mut u64);

    /// Writes the first `count` (at most 8) 16-bit lanes of `v`,
    /// zero-extended, to `o[0..count]`, and nothing else.
    ///
    /// # Safety
    ///
    /// `o..o + count` is writable; the level's features.
    unsafe fn short(v: __m128i, count: usize, o: *mut u64);

    /// Writes values `0..c` of the window `w` to `o[0..c]`, given each
    /// value's last byte `last` and length `len` (byte `k` for value `k`),
    /// and `half`, each length halved. Strict: stops in front of the first
    /// value longer than it needs. Returns the number written.
    ///
    /// # Safety
    ///
    /// `c <= 16`, values `0..c` lie inside the window, `o..o + c` is
    /// writable; the level's features.
    unsafe fn gather<const STRICT: bool>(
        w: __m128i,
        last: __m128i,
        len: __m128i,
        half: __m128i,
        c: usize,
        o: *mut u64,
    ) -> usize;
}

/// SSE4.1: two values a register.
pub(crate) struct Sse;

impl Lanes for Sse {
    #[inline(always)]
    unsafe fn ones(w: __m128i, o: *mut u64) {
        // SAFETY: SSE4.1 and 16 writable slots (eight 16-byte stores of
        // two values each), the caller's promises.
        unsafe {
            let mut x = w;
            for k in 0..8 {
                _mm_storeu_si128(o.add(2 * k).cast(), _mm_cvtepu8_epi64(x));
                x = _mm_srli_si128::<2>(x);
            }
        }
    }

    #[inline(always)]
    unsafe fn twos(v: __m128i, o: *mut u64) {
        // SAFETY: as in `ones`, eight slots.
        unsafe {
            let mut x = v;
            for k in 0..4 {
                _mm_storeu_si128(o.add(2 * k).cast(), _mm_cvtepu16_epi64(x));
                x = _mm_srli_si128::<4>(x);
            }
        }
    }

    #[inline(always)]
    unsafe fn fours(v: __m128i, o: *mut u64) {
        // SAFETY: as in `ones`, four slots.
        unsafe {
            _mm_storeu_si128(o.cast(), _mm_cvtepu32_epi64(v));
            _mm_storeu_si128(o.add(2).cast(), _mm_cvtepu32_epi64(_mm_srli_si128::<8>(v)));
        }
    }

    #[inline(always)]
    unsafe fn short(v: __m128i, count: usize, o: *mut u64) {
        // SAFETY: as in `ones`; the stores write slots `k..k + 2` only
        // while `k + 2 <= count`, then slot `k` if `k < count`.
        unsafe {
            let mut x = v;
            let mut k = 0;
            while k + 2 <= count {
                _mm_storeu_si128(o.add(k).cast(), _mm_cvtepu16_epi64(x));
                x = _mm_srli_si128::<4>(x);
                k += 2;
            }
            if k < count {
                _mm_storel_epi64(o.add(k).cast(), _mm_cvtepu16_epi64(x));
            }
        }
    }

    #[inline(always)]
    unsafe fn gather<const STRICT: bool>(
        w: __m128i,
        last: __m128i,
        len: __m128i,
        half: __m128i,
        c: usize,
        o: *mut u64,
    ) -> usize {
        // SAFETY: SSE4.1, the caller's promise. The stores write slots
        // `k..k + n` with `n <= c - k`, inside `o..o + c`.
        unsafe {
            let place = c16(&PLACE16);
            let place1 = _mm_add_epi8(place, _mm_set1_epi8(1));
            let mut k = 0;
            while k < c {
                let pick = c16(&PAIRS[k / 2]);
                let lk = _mm_shuffle_epi8(len, pick);
                // `l - 1 - j`: 0 at the first byte, negative past the
                // value. As unsigned bytes it is below `last - j` inside
                // the value and at least 0xF9 past it, so the maximum is
                // the source byte there and a zeroing index past it.
                let q = _mm_sub_epi8(lk, place1);
                let idx = _mm_max_epu8(_mm_sub_epi8(_mm_shuffle_epi8(last, pick), place), q);
                let first = _mm_and_si128(
                    _mm_cmpeq_epi8(q, _mm_setzero_si128()),
                    _mm_set1_epi8(0xc0u8 as i8),
                );
                let v = _mm_andnot_si128(first, _mm_shuffle_epi8(w, idx));
                let mut n = (c - k).min(2);
                if STRICT {
                    let hk = _mm_shuffle_epi8(half, pick);
                    let must_be_zero = _mm_or_si128(
                        _mm_cmpgt_epi8(place1, hk),
                        _mm_and_si128(_mm_cmpeq_epi8(place1, hk), _mm_set1_epi8(0xc0u8 as i8)),
                    );
                    let long = _mm_cmpgt_epi8(lk, _mm_set1_epi8(1));
                    let short = _mm_and_si128(
                        _mm_cmpeq_epi64(_mm_and_si128(v, must_be_zero), _mm_setzero_si128()),
                        long,
                    );
                    let bad = _mm_movemask_pd(_mm_castsi128_pd(short)) as u32 & ((1 << n) - 1);
                    if bad != 0 {
                        n = bad.trailing_zeros() as usize;
                        if n == 1 {
                            _mm_storel_epi64(o.add(k).cast(), v);
                        }
                        return k + n;
                    }
                }
                if n == 2 {
                    _mm_storeu_si128(o.add(k).cast(), v);
                } else {
                    _mm_storel_epi64(o.add(k).cast(), v);
                }
                k += n;
            }
            c
        }
    }
}

/// AVX2: four values a register, the window in both 128-bit lanes.
pub(crate) struct Avx2;

impl Lanes for Avx2 {
    #[inline(always)]
    unsafe fn ones(w: __m128i, o: *mut u64) {
        // SAFETY: AVX2 and 16 writable slots (four 32-byte stores of four
        // values each), the caller's promises.
        unsafe {
            let mut x = w;
            for k in 0..4 {
                _mm256_storeu_si256(o.add(4 * k).cast(), _mm256_cvtepu8_epi64(x));
                x = _mm_srli_si128::<4>(x);
            }
        }
    }

    #[inline(always)]
    unsafe fn twos(v: __m128i, o: *mut u64) {
        // SAFETY: as in `ones`, eight slots.
        unsafe {
            _mm256_storeu_si256(o.cast(), _mm256_cvtepu16_epi64(v));
            _mm256_storeu_si256(
                o.add(4).cast(),
                _mm256_cvtepu16_epi64(_mm_srli_si128::<8>(v)),
            );
        }
    }

    #[inline(always)]
    unsafe fn fours(v: __m128i, o: *mut u64) {
        // SAFETY: as in `ones`, four slots.
        unsafe { _mm256_storeu_si256(o.cast(), _mm256_cvtepu32_epi64(v)) }
    }

    #[inline(always)]
    unsafe fn short(v: __m128i, count: usize, o: *mut u64) {
        // SAFETY: as in `ones`; the masked stores write the lanes below
        // `count` of slots `0..4` and `4..8`.
        unsafe {
            let low = count.min(4);
            _mm256_maskstore_epi64(o.cast(), c32(&STORE_MASKS[low]), _mm256_cvtepu16_epi64(v));
            _mm256_maskstore_epi64(
                o.add(4).cast(),
                c32(&STORE_MASKS[count - low]),
                _mm256_cvtepu16_epi64(_mm_srli_si128::<8>(v)),
            );
        }
    }

    #[inline(always)]
    unsafe fn gather<const STRICT: bool>(
        w: __m128i,
        last: __m128i,
        len: __m128i,
        half: __m128i,
        c: usize,
        o: *mut u64,
    ) -> usize {
        // SAFETY: AVX2, the caller's promise. The full stores write slots
        // `k..k + 4` only when `c - k >= 4`; the masked ones only the
        // lanes below `n <= c - k`.
        unsafe {
            let w = _mm256_broadcastsi128_si256(w);
            let last = _mm256_broadcastsi128_si256(last);
            let len = _mm256_broadcastsi128_si256(len);
            let half = _mm256_broadcastsi128_si256(half);
            let place = c32(&PLACE);
            let place1 = c32(&PLACE1);
            let mut k = 0;
            while k < c {
                let pick = c32(&QUADS[k / 4]);
                let lk = _mm256_shuffle_epi8(len, pick);
                // As in `Sse::gather`.
                let q = _mm256_sub_epi8(lk, place1);
                let idx =
                    _mm256_max_epu8(_mm256_sub_epi8(_mm256_shuffle_epi8(last, pick), place), q);
                let first = _mm256_and_si256(
                    _mm256_cmpeq_epi8(q, _mm256_setzero_si256()),
                    _mm256_set1_epi8(0xc0u8 as i8),
                );
                let v = _mm256_andnot_si256(first, _mm256_shuffle_epi8(w, idx));
                let mut n = (c - k).min(4);
                let mut stop = false;
                if STRICT {
                    let hk = _mm256_shuffle_epi8(half, pick);
                    let must_be_zero = _mm256_or_si256(
                        _mm256_cmpgt_epi8(place1, hk),
                        _mm256_and_si256(
                            _mm256_cmpeq_epi8(place1, hk),
                            _mm256_set1_epi8(0xc0u8 as i8),
                        ),
                    );
                    let long = _mm256_cmpgt_epi8(lk, _mm256_set1_epi8(1));
                    let short = _mm256_and_si256(
                        _mm256_cmpeq_epi64(
                            _mm256_and_si256(v, must_be_zero),
                            _mm256_setzero_si256(),
                        ),
                        long,
                    );
                    let bad =
                        _mm256_movemask_pd(_mm256_castsi256_pd(short)) as u32 & ((1 << n) - 1);
                    if bad != 0 {
                        n = bad.trailing_zeros() as usize;
                        stop = true;
                    }
                }
                if n == 4 {
                    _mm256_storeu_si256(o.add(k).cast(), v);
                } else {
                    _mm256_maskstore_epi64(o.add(k).cast(), c32(&STORE_MASKS[n]), v);
                }
                k += n;
                if stop {
                    return k;
                }
            }
            c
        }
    }
}

/// For `vpmaskmovq`: the first `n` 64-bit lanes set, for `n` in 0..=4.
static STORE_MASKS: [Bytes32; 5] = {
    let mut t = [const { Bytes32([0; 32]) }; 5];
    let mut n = 0;
    while n < 5 {
        let mut b = 0;
        while b < 8 * n {
            t[n].0[b] = 0xff;
            b += 1;
        }
        n += 1;
    }
    t
};

/// How the first 8 bytes of a window parse if every value there has one or
/// two bytes, for each pattern of their bit 6 (a value's bit 6 says two
/// bytes when its bit 7 is clear): the `pshufb` control putting each value
/// complete within the 8 bytes into a 16-bit lane, big-endian bytes
/// swapped (unused lanes zero), how many there are, the bytes they take
/// (7 or 8: a two-byte value at byte 7 is left to the next step), and
/// which bytes start them (whose bit 7 must be clear).
struct ShortStep {
    ctrl: Bytes16,
    count: u8,
    bytes: u8,
    starts: u8,
}

static SHORT_STEPS: [ShortStep; 256] = {
    let mut t = [const {
        ShortStep {
            ctrl: Bytes16([0x80; 16]),
            count: 0,
            bytes: 0,
            starts: 0,
        }
    }; 256];
    let mut key = 0;
    while key < 256 {
        let (mut pos, mut k) = (0, 0);
        while pos < 8 {
            let len = if key >> pos & 1 == 1 { 2 } else { 1 };
            if pos + len > 8 {
                break;
            }
            // Little-endian lanes: the last byte low, the first (if two)
            // high.
            t[key].ctrl.0[2 * k] = (pos + len - 1) as u8;
            if len == 2 {
                t[key].ctrl.0[2 * k + 1] = pos as u8;
            }
            t[key].starts |= 1 << pos;
            pos += len;
            k += 1;
        }
        t[key].count = k as u8;
        t[key].bytes = pos as u8;
        key += 1;
    }
    t
};

/// The values of a [`ShortStep`] whose bytes start at byte `at` of `w`, in
/// 16-bit lanes, and (strict) whether none is a two-byte value below 64
/// (which needs one byte).
///
#[inline(always)]
fn short_values<const STRICT: bool>(
    s: Sse41,
    w: __m128i,
    ctrl: &Bytes16,
    at: usize,
) -> (__m128i, bool) {
    // Adding `at` (at most 8) keeps the zeroing entries (0x80) zeroing and
    // the others below 16 (a step's bytes end by its byte 8, at byte 16 at
    // the latest).
    let ctrl = s.add8(k16(s, ctrl), s.splat8(at as u8));
    let v = s.and(s.shuffle8(w, ctrl), s.splat16(0x3fff));
    if !STRICT {
        return (v, true);
    }
    // A two-byte lane: its control's high byte an index, not 0x80.
    let short = s.and(
        s.gt_i16(s.splat16(0x40), v),
        s.gt_i16(ctrl, s.splat16(0xFFFF)),
    );
    (v, s.movemask8(short) == 0)
}

/// Bytes that must be readable from a window's start: the window, and the
/// 8-byte word at the start of a value that the window cuts (byte 15 at
/// the latest).
pub(crate) const READ: usize = WINDOW - 1 + 8;

/// Decodes windows from the start of `input` into `out`; returns `(bytes,
/// count)`. Stops when fewer than [`READ`] bytes remain or fewer than
/// [`WINDOW`] slots are free, and (strict) in front of a value longer than
/// it needs.
///
/// # Safety
///
/// The CPU has `L`'s features (SSE4.1 for [`Sse`], AVX2 for [`Avx2`]).
#[inline(always)]
pub(crate) unsafe fn decode<L: Lanes, const STRICT: bool>(
    input: &[u8],
    out: &mut [u64],
) -> (usize, usize) {
    let (mut pos, mut n) = (0, 0);
    // SAFETY: every level's features hold SSE4.1's, the caller's promise.
    let s = unsafe { Sse41::new() };
    // SAFETY: the features are the caller's promise. The loop condition
    // keeps `READ` readable bytes at `pos` and 16 writable slots at `n`;
    // a step adds to `pos` at most 23 (`exit`, or 16), the bytes of the
    // values it wrote, which all lie inside the `READ` bytes (the 8-byte
    // word at `at <= 15` too), and to `n` at most 16, the values it wrote
    // (each starts at a byte of the window). The general way writes the
    // slot `c` (the cut value, or what the slot held): `c <= 15` there, as
    // a window of sixteen one-byte values takes the first way.
    unsafe {
        while input.len() - pos >= READ && out.len() - n >= WINDOW {
            let p = input.as_ptr().add(pos);
            let w = s.load(p);
            let o = out.as_mut_ptr().add(n);
            // The prefix bits of every byte: bit 7 in the high half, bit 6
            // in the low half. Two `pmovmskb`s and scalar tests classify
            // the window (one vector test per kind was slower).
            let kind = (s.movemask8(w) as u32) << 16 | s.movemask8(s.shl16::<1>(w)) as u32;
            if kind == 0 {
                L::ones(w, o);
                pos += 16;
                n += 16;
                continue;
            }
            // Windows of values of one length: two, four or eight bytes,
            // each swapped into its lane and masked; strict, a window
            // holding a value below the length's smallest goes the general
            // way, which stops in front of it.
            if kind & 0x5555_5555 == 0x0000_5555 {
                let v = s.and(s.shuffle8(w, k16(s, &SWAP16)), s.splat16(0x3fff));
                if !STRICT || s.movemask8(s.gt_i16(s.splat16(0x40), v)) == 0 {
                    L::twos(v, o);
                    pos += 16;
                    n += 8;
                    continue;
                }
            }
            if kind & 0x1111_1111 == 0x1111_0000 {
                let v = s.and(s.shuffle8(w, k16(s, &SWAP32)), s.splat32(0x3fff_ffff));
                let short = s.eq32(s.shr32::<14>(v), s.zero());
                if !STRICT || s.movemask8(short) == 0 {
                    L::fours(v, o);
                    pos += 16;
                    n += 4;
                    continue;
                }
            }
            if kind & 0x0101_0101 == 0x0101_0101 {
                let v = s.and(
                    s.shuffle8(w, k16(s, &SWAP64)),
                    s.splat64(0x3fff_ffff_ffff_ffff),
                );
                let short = s.eq64(s.shr64::<30>(v), s.zero());
                if !STRICT || s.movemask8(short) == 0 {
                    s.store(o.cast(), v);
                    pos += 16;
                    n += 2;
                    continue;
                }
            }
            // Values of one and two bytes: a table step on the bit 6 of the
            // first 8 bytes, valid if no value there has bit 7 (that value
            // would be four or eight bytes long), then a second on the 8
            // bytes after those the first took. The chain from one window
            // to the next is the two table loads.
            let (hi, lo) = (kind >> 16, kind & 0xffff);
            let step = &SHORT_STEPS[(lo & 0xff) as usize];
            if hi & u32::from(step.starts) == 0 {
                let (v, ok) = short_values::<STRICT>(s, w, &step.ctrl, 0);
                if ok {
                    let (c1, b1) = (usize::from(step.count), usize::from(step.bytes));
                    L::short(v, c1, o);
                    let step2 = &SHORT_STEPS[(lo >> b1 & 0xff) as usize];
                    let mut c2 = 0;
                    let mut b2 = 0;
                    if hi >> b1 & u32::from(step2.starts) == 0 {
                        let (v2, ok2) = short_values::<STRICT>(s, w, &step2.ctrl, b1);
                        if ok2 {
                            c2 = usize::from(step2.count);
                            b2 = usize::from(step2.bytes);
                            L::short(v2, c2, o.add(c1));
                        }
                    }
                    pos += b1 + b2;
                    n += c1 + c2;
                    continue;
                }
            }
            let (end, exit) = walk(s, w);
            // The first value ends by byte 8, so `c >= 1`; the ends below
            // 16 are the first ones, and a value ending at 16 exactly is the
            // one after them (its end repeats in the lanes after it).
            let below = s.movemask8(s.gt_i8(s.splat8(16), end)) as u32;
            let at16 = s.movemask8(s.eq8(end, s.splat8(16))) != 0;
            let c = below.count_ones() as usize + usize::from(at16);
            let last = s.sub8(end, s.splat8(1));
            let len = s.sub8(end, up::<15>(s, end));
            let half = if STRICT {
                s.and(s.shr16::<1>(len), s.splat8(0x7f))
            } else {
                len
            };
            let done = L::gather::<STRICT>(w, last, len, half, c, o);
            let mut e = [0u8; 16];
            s.store(e.as_mut_ptr(), end);
            if STRICT && done < c {
                n += done;
                if done > 0 {
                    pos += usize::from(e[done - 1]);
                }
                break;
            }
            // The value the window cuts, if any, from the 8 bytes at its
            // start `at` (byte 15 at the latest, as it starts inside the
            // window; byte 16 when there is none, read as 15): its length
            // is `exit - at`. Without a branch, which mispredicted on
            // random lengths: the slot after the window's values gets
            // either this value or what it held.
            let cut = exit > 16;
            let at = usize::from(e[c - 1]).min(15);
            let word = u64::from_be_bytes(p.add(at).cast::<[u8; 8]>().read_unaligned());
            let bits = 8 * (exit - at) as u32;
            let v = word >> (64 - bits) & (u64::MAX >> (66 - bits));
            if STRICT && cut && v >> (bits / 2 - 2) == 0 {
                n += c;
                pos += at;
                break;
            }
            let slot = o.add(c);
            slot.write(if cut { v } else { slot.read() });
            n += c + usize::from(cut);
            pos += exit;
        }
    }
    (pos, n)
}

/// Stamps out the entry points of one level: `[lenient, strict]`.
macro_rules! quic_entry_points {
    ($lanes:ty, $level:ident) => {
        codec_arch::enable! { $level;
            fn quic_decode(input: &[u8], out: &mut [u64]) -> (usize, usize) {
                // SAFETY: compiled with the features `$lanes` needs, and
                // callable only where the CPU has them.
                unsafe { $crate::arch::x86_64::quic::decode::<$lanes, false>(input, out) }
            }
        }

        codec_arch::enable! { $level;
            fn quic_decode_strict(input: &[u8], out: &mut [u64]) -> (usize, usize) {
                // SAFETY: as in `quic_decode`.
                unsafe { $crate::arch::x86_64::quic::decode::<$lanes, true>(input, out) }
            }
        }

        /// The entry points, lenient then strict.
        pub(crate) const QUIC: [$crate::arch::shuffle::QuicDecode; 2] =
            [quic_decode, quic_decode_strict];
    };
}

pub(crate) mod sse41 {
    //! The SSE4.1 instance.
    quic_entry_points!(super::Sse, sse41);
}

pub(crate) mod avx2 {
    //! The AVX2 instance.
    quic_entry_points!(super::Avx2, avx2);
}
