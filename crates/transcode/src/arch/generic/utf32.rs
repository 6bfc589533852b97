//! The UTF-32 kernels, once for every register width and architecture
//! ([`Simd`]; the 16-byte steps through [`Simd::base`]); x86-64's
//! `{sse41,avx2,avx512}/utf32.rs` and aarch64's table instantiate them with
//! [`kernels!`].
//!
//! - UTF-8 → UTF-32 (valid input; the SSE4.1 table's kernel: the AVX2 and
//!   AVX-512 tables take `generic::utf8_utf16`'s with 32-byte registers, its
//!   output widened, which was faster): 16 bytes of ASCII are zero-extended;
//!   a run of 4-byte characters (Emoji text) is decoded a lane each, with
//!   no packing. Otherwise a character is decoded at each of the 16 byte positions,
//!   from the 32-bit window of the 4 bytes there (lead byte on top): a
//!   `pshufb` by the lead byte's high nibble clears its marker bits,
//!   another gives the shift that drops the bytes past the character, and
//!   three masked shifts gather the payload bits. The lanes where a
//!   character starts are left-packed (`vpcompressd`, or a `vpermd` /
//!   `pshufb` from a table) and stored. A block that ends inside a
//!   character takes its continuation bytes too, so every block starts at
//!   a character.
//! - UTF-32 → UTF-8: four registers of ASCII are narrowed; two registers
//!   below U+0800, or below U+10000, take paths of their own. Otherwise up
//!   to four registers of scalar values (AVX2; two of AVX-512, one of
//!   SSE4.1) become their UTF-8 in 32-bit lanes (lead byte first: the four
//!   6-bit fields, shifted right by the bytes the character does not
//!   need), and each 16-byte lane of 4 is packed with one `pshufb` from
//!   `tables::PACK123`, indexed by the 4 lengths.
//! - UTF-16 → UTF-32: a register without surrogates is zero-extended.
//!   Otherwise, if every lead surrogate is followed by a trail and every
//!   trail follows a lead, a lead's lane gets the pair's value (the next
//!   unit is loaded one unit on) and the trails' lanes are dropped.
//! - UTF-32 → UTF-16: four registers of scalar values below U+10000 are
//!   narrowed. Otherwise, four registers at a time, each value becomes one
//!   or two units in a 32-bit lane, and each 16-byte lane is packed with
//!   `tables::PAIRS16`.
//!
//! A register with anything else (a surrogate or a value above U+10FFFF
//! in UTF-32, an unpaired surrogate in UTF-16) ends the kernel before it;
//! the scalar code decides what it is. All four write a variable amount of
//! output with fixed-width stores, through `block::run`.

use super::super::block::{self, Block};
use super::super::tables::{LEN123, PACK12, PACK123, PAIRS16};
use codec_arch::{Simd, simd::load4};

/// The mask of the 32-bit lanes that are not scalar values: surrogates,
/// and values above `10FFFF` (signed: larger, or negative).
#[inline(always)]
fn invalid32<S: Simd>(s: S, v: S::V) -> S::V {
    let too_large = s.or(s.gt_i32(v, s.splat32(0x10_FFFF)), s.gt_i32(s.zero(), v));
    let surrogate = s.eq32(s.and(v, s.splat32(0xFFFF_F800)), s.splat32(0xD800));
    s.or(too_large, surrogate)
}

/// The mask of the 32-bit lanes above `FFFF`, for scalar values (no lane
/// in [`invalid32`]): those in `10000..=10FFFF`. One compare, where the
/// test for any value takes three (`count.rs`).
#[inline(always)]
fn supplementary32<S: Simd>(s: S, v: S::V) -> S::V {
    s.gt_i32(v, s.splat32(0xFFFF))
}

/// Bits of `x` below `n`: `n` is at most 64.
#[inline(always)]
fn low_bits(x: u64, n: usize) -> u64 {
    x & (u64::MAX >> (64 - n))
}

// UTF-8 → UTF-32.

/// Marker bits of a lead byte, by its high nibble: what decoding clears.
/// ASCII has none; continuation bytes are never decoded.
const LEAD_MARKERS: [u8; 16] = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xE0, 0xE0, 0xF0, 0xF8];

/// The right shift that keeps a character's bytes of its big-endian
/// window, by the high nibble of its lead byte: 24 bits for ASCII (and,
/// harmlessly, continuation bytes), 16 for 2 bytes, 8 for 3, 0 for 4.
const WINDOW_SHIFTS: [u8; 16] = [24, 24, 24, 24, 24, 24, 24, 24, 24, 24, 24, 24, 16, 16, 8, 0];

/// What a block of UTF-8 for [`utf8_to_utf32`] holds, and so which path
/// converts it.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Utf8Kind {
    /// A run of ASCII, whole groups of 32 bytes: zero-extended.
    Ascii,
    /// A run of 4-byte characters (Emoji text), whole groups of 32 bytes:
    /// each decoded in its own 32-bit lane, no packing.
    Four,
    /// `BYTES / 4` characters of 3 bytes, from the start (CJK text): each
    /// 3-byte group decoded in a 32-bit lane and stored, no packing.
    Three,
    /// 16 bytes without a lead of 3 or 4 bytes: the window decode, with the
    /// 2-byte formula.
    Two,
    /// 16 bytes of anything: the window decode by the lead byte's nibble.
    Any,
}

/// A block of UTF-8 for [`utf8_to_utf32`]: 32 bytes of ASCII, or 3-byte
/// characters, or 16 bytes and the continuation bytes of a character that
/// ends after them.
#[derive(Clone, Copy)]
struct FromUtf8<S: Simd> {
    s: S,
    /// The block's first byte.
    p: *const u8,
    kind: Utf8Kind,
    /// `Ascii`, `Four`: the run's length in bytes.
    len: usize,
    /// `Two`, `Any`: the positions of the 16 where a character starts.
    starts: u64,
    /// `Two`, `Any`: continuation bytes after the 16 that the block takes.
    carry: usize,
}

impl<S: Simd> Block<u32> for FromUtf8<S> {
    #[inline(always)]
    fn read(&self) -> usize {
        match self.kind {
            Utf8Kind::Ascii | Utf8Kind::Four => self.len,
            Utf8Kind::Three => 3 * (S::BYTES / 4),
            Utf8Kind::Two | Utf8Kind::Any => 16 + self.carry,
        }
    }

    #[inline(always)]
    fn written(&self) -> usize {
        match self.kind {
            Utf8Kind::Ascii => self.len,
            Utf8Kind::Four => self.len / 4,
            Utf8Kind::Three => S::BYTES / 4,
            Utf8Kind::Two | Utf8Kind::Any => self.starts.count_ones() as usize,
        }
    }

    #[inline(always)]
    fn stray(&self) -> usize {
        match self.kind {
            Utf8Kind::Ascii | Utf8Kind::Four | Utf8Kind::Three => 0,
            Utf8Kind::Two | Utf8Kind::Any => {
                // Each register's store writes all of its lanes; the last
                // one's lanes past its characters are garbage.
                let lanes = S::BYTES / 4;
                lanes - (self.starts >> (16 - lanes.min(16))).count_ones() as usize
            }
        }
    }

    #[inline(always)]
    unsafe fn store(&self, dst: *mut u32) {
        let (s, lanes) = (self.s, S::BYTES / 4);
        let q = dst.cast::<u8>();
        match self.kind {
            Utf8Kind::Ascii => {
                let mut k = 0;
                while k < self.len {
                    // Two registers a round (`len` is a multiple of 32, so
                    // of `2 * lanes`).
                    // SAFETY: the run's bytes are readable, and its units
                    // are what the caller provides.
                    unsafe {
                        let (a, b) = (
                            s.load_widen8to32(self.p.add(k)),
                            s.load_widen8to32(self.p.add(k + lanes)),
                        );
                        s.store(q.add(4 * k), a);
                        s.store(q.add(4 * k + S::BYTES), b);
                    }
                    k += 2 * lanes;
                }
                return;
            }
            Utf8Kind::Four => {
                // Registers while they fit, then 16-byte ones (`len` is a
                // multiple of 32, not of a 64-byte register).
                let mut k = 0;
                while self.len - k >= S::BYTES {
                    // SAFETY: the run's bytes are readable, and its units
                    // are what the caller provides: `BYTES` bytes from `k`
                    // make `BYTES / 4` units from `k / 4`.
                    unsafe { s.store(q.add(k), decode4(s, s.load(self.p.add(k)))) };
                    k += S::BYTES;
                }
                let sse = s.base();
                while k < self.len {
                    // SAFETY: as above, 16 bytes.
                    unsafe { sse.store(q.add(k), decode4(sse, sse.load(self.p.add(k)))) };
                    k += 16;
                }
                return;
            }
            Utf8Kind::Three => {
                // SAFETY: `utf8_to_utf32` checked that `groups3` may read.
                let g = unsafe { s.groups3(self.p) };
                // 1110aaaa 10bbbbbb 10cccccc, in bytes 2, 1, 0.
                let cp = s.or(
                    s.or(
                        s.and(s.shr32::<4>(g), s.splat32(0xF000)),
                        s.and(s.shr32::<2>(g), s.splat32(0x0FC0)),
                    ),
                    s.and(g, s.splat32(0x3F)),
                );
                // SAFETY: `written()` is one register.
                unsafe { s.store(q, cp) };
                return;
            }
            Utf8Kind::Two | Utf8Kind::Any => {}
        }
        let markers = s.broadcast16(&LEAD_MARKERS);
        let shifts = s.broadcast16(&WINDOW_SHIFTS);
        let mut o = 0;
        for r in 0..16 / lanes {
            // SAFETY: 32 bytes from the block's start are readable.
            let w = unsafe { s.windows32(self.p, r) };
            let cp = if self.kind == Utf8Kind::Two {
                // 110aaaaa 10bbbbbb in bytes 3 and 2, or ASCII in byte 3
                // (the window is negative iff its first byte is not ASCII).
                let pair = s.shr32::<16>(w);
                let two = s.or(
                    s.and(s.shr32::<2>(pair), s.splat32(0x07C0)),
                    s.and(pair, s.splat32(0x3F)),
                );
                s.blendv8(s.shr32::<24>(w), two, s.gt_i32(s.zero(), w))
            } else {
                // The lead byte's high nibble: in byte 3, for the markers
                // (bytes 0..3 then index entry 0, which clears nothing)...
                let nibble_hi = s.and(s.shr32::<4>(w), s.splat32(0x0F00_0000));
                // ... and in byte 0, for the shift (bytes 1..3 then index
                // with the top bit set, which gives 0).
                let nibble_lo = s.or(s.shr32::<28>(w), s.splat32(0x8080_8000));
                let bare = s.andnot(s.shuffle8(markers, nibble_hi), w);
                let x = s.shr32_bytes(bare, s.shuffle8(shifts, nibble_lo));
                // Byte 0 is ASCII or a continuation byte (whose bit 6 is
                // 0); bytes 1..3 are continuation bytes or a lead byte
                // without its markers.
                s.or(
                    s.or(
                        s.and(x, s.splat32(0x7F)),
                        s.and(s.shr32::<2>(x), s.splat32(0x0FC0)),
                    ),
                    s.or(
                        s.and(s.shr32::<4>(x), s.splat32(0x3_F000)),
                        s.and(s.shr32::<6>(x), s.splat32(0x1C_0000)),
                    ),
                )
            };
            let m = low_bits(self.starts >> (r * lanes), lanes);
            // SAFETY: the output so far, then one register: inside
            // `written() + stray()`, as the last register's store is.
            unsafe { s.compress32(cp, m, q.add(4 * o)) };
            o += m.count_ones() as usize;
        }
    }
}

/// The characters of `x`, four bytes of UTF-8 in each 32-bit lane (lead
/// byte first, in the low byte): `11110aaa 10bbbbbb 10cccccc 10dddddd`.
#[inline(always)]
fn decode4<S: Simd>(s: S, x: S::V) -> S::V {
    s.or(
        s.or(
            s.shl32::<18>(s.and(x, s.splat32(0x07))),
            s.shl32::<4>(s.and(x, s.splat32(0x3F00))),
        ),
        s.or(
            s.and(s.shr32::<10>(x), s.splat32(0x0FC0)),
            s.and(s.shr32::<24>(x), s.splat32(0x3F)),
        ),
    )
}

/// For [`Utf8Kind::Three`]: the bits that must match, and their values,
/// over 48 bytes of 3-byte characters (a lead `E0..=EF`, two continuation
/// bytes, and again).
static THREE_MASK: [u8; 64] = three_pattern(0xF0, 0xC0);
static THREE_BITS: [u8; 64] = three_pattern(0xE0, 0x80);

const fn three_pattern(lead: u8, cont: u8) -> [u8; 64] {
    let mut t = [0u8; 64];
    let mut i = 0;
    while i < 48 {
        t[i] = if i % 3 == 0 { lead } else { cont };
        i += 1;
    }
    t
}

/// Valid UTF-8 to UTF-32, 16 bytes at a time, or more for ASCII and 3-byte
/// characters.
#[inline(always)]
pub(crate) fn utf8_to_utf32<S: Simd>(s: S, src: &[u8], dst: &mut [u32]) -> (usize, usize) {
    let n = src.len();
    let p = src.as_ptr();
    let sse = s.base();
    let lanes = S::BYTES / 4;
    // SAFETY: the tables are 64 bytes, `BYTES` at most.
    let (three_mask, three_bits) = unsafe {
        let only = s.mask_from(3 * lanes);
        (
            s.andnot(only, s.load(THREE_MASK.as_ptr())),
            s.andnot(only, s.load(THREE_BITS.as_ptr())),
        )
    };
    block::run(
        dst,
        #[inline(always)]
        move |i, room| {
            // The windows of the 16 positions read up to 19 bytes, and the
            // continuation bytes after them are looked for in 32.
            let left = n.checked_sub(i)?;
            if left < 32 {
                return None;
            }
            let b = p.wrapping_add(i);
            let block = |kind, len, starts, carry| FromUtf8 {
                s,
                p: b,
                kind,
                len,
                starts,
                carry,
            };
            // SAFETY: `i + 32 <= n`.
            let (high, cont, long) = unsafe { scan32(sse, b) };
            if high == 0 {
                let len = block::run_len(
                    left.min(room).min(block::RUN),
                    32,
                    #[inline(always)]
                    // SAFETY: `run_len` asks for 32 bytes only if they are
                    // within `left`.
                    |k| unsafe { scan32(sse, b.add(k)).0 == 0 },
                );
                if len > 0 {
                    return Some(block(Utf8Kind::Ascii, len, 0, 0));
                }
            }
            // Continuation bytes at 1, 2, 3, 5, 6, 7, ...: 4-byte
            // characters from the start (in valid UTF-8 a lead followed by
            // three continuation bytes is one). Emoji text: 8 characters
            // a register, where the window decode took 4 and its packing
            // (callgrind, Emoji 64 KiB: 745,000 instructions a call for
            // the conversion, 3.7 times simdutf's whole validating one).
            if cont == 0xEEEE_EEEE {
                let len = block::run_len(
                    left.min(room.saturating_mul(4)).min(block::RUN),
                    32,
                    #[inline(always)]
                    // SAFETY: `run_len` asks for 32 bytes only if they are
                    // within `left`.
                    |k| unsafe { scan32(sse, b.add(k)).1 == 0xEEEE_EEEE },
                );
                if len > 0 {
                    return Some(block(Utf8Kind::Four, len, 0, 0));
                }
            }
            // Continuation bytes at 1, 2, 4, 5, ... of the first 16: maybe
            // 3-byte characters from the start; the pattern says for sure.
            if cont & 0xFFFF == 0x6DB6 && left >= 64 {
                // SAFETY: `i + 64 <= n`, which covers the load and the
                // reads of `groups3`.
                let x = unsafe { s.load(b) };
                if s.movemask8(s.eq8(s.and(x, three_mask), three_bits))
                    == u64::MAX >> (64 - S::BYTES)
                {
                    return Some(block(Utf8Kind::Three, 0, 0, 0));
                }
            }
            let kind = if long == 0 {
                Utf8Kind::Two
            } else {
                Utf8Kind::Any
            };
            Some(block(
                kind,
                0,
                u64::from(!cont & 0xFFFF),
                ((cont >> 16) & 7).trailing_ones() as usize,
            ))
        },
    )
}

/// The top bits of the 32 bytes at `p`, the positions of the
/// continuation bytes among them, and the positions of the leads of 3
/// and 4 bytes (`E0` and above) among the first 16.
///
/// # Safety
///
/// `p` is valid for reads of 32 bytes.
#[inline(always)]
unsafe fn scan32<B: Simd>(t: B, p: *const u8) -> (u32, u32, u32) {
    const { assert!(B::BYTES == 16) };
    // SAFETY: the caller's guarantee covers the 32 bytes.
    let (a, b) = unsafe { (t.load(p), t.load(p.add(16))) };
    // Continuation bytes are 80..=BF: signed, below C0 (-64).
    let c0 = t.splat8(0xC0);
    let cont_a = t.movemask8(t.gt_i8(c0, a)) as u32;
    let cont_b = t.movemask8(t.gt_i8(c0, b)) as u32;
    let high = t.movemask8(t.or(a, b)) as u32;
    // E0 and above: signed, above DF (-33) and negative.
    let long = t.movemask8(t.and(t.gt_i8(a, t.splat8(0xDF)), a)) as u32;
    (high, cont_a | cont_b << 16, long)
}

// UTF-32 → UTF-8.

/// What a block of UTF-32 for [`utf32_to_utf8`] holds, and so which path
/// converts it. Each path needs at most the bytes it writes.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Utf32Kind {
    /// A run of ASCII, whole groups of four registers: narrowed.
    Ascii,
    /// Two registers below U+0800: 1 or 2 bytes each, as pairs of bytes in
    /// 16-bit lanes, packed 8 at a time with `PACK12`.
    Two,
    /// Two registers in `800..=FFFF` without surrogates (CJK text): 3 bytes
    /// each, packed 4 at a time with a fixed shuffle.
    Three,
    /// Two registers below U+10000 without surrogates: 1 to 3 bytes each,
    /// built in 32-bit lanes by blends, packed 4 at a time with `PACK123`.
    Bmp,
    /// 1 to [`any_regs`] registers of any scalar values: 1 to 4 bytes
    /// each, built by shifting the four 6-bit fields, packed with
    /// `PACK123`.
    Any,
}

/// The most registers in an `Any` block of [`utf32_to_utf8`]: 4, or as
/// many as `codes` holds (8 bits a 16-byte lane: 2 of AVX-512). One
/// register a block ran text with an emoji every 8 characters at 0.65-0.85
/// of simdutf's AVX2 kernel, the block loop's overhead and the tests of two
/// registers for the other kinds spent on 8 values (Zen 4). SSE4.1 keeps
/// one: with four, its code for the other kinds ran 12% slower.
const fn any_regs(bytes: usize) -> usize {
    if bytes == 16 {
        1
    } else if 128 / bytes < 4 {
        128 / bytes
    } else {
        4
    }
}

/// A block of UTF-32 for [`utf32_to_utf8`].
#[derive(Clone, Copy)]
struct ToUtf8<S: Simd> {
    s: S,
    p: *const u8,
    kind: Utf32Kind,
    /// `Two`: the values that need 2 bytes. `Bmp`, `Any`: per 16-byte lane
    /// of 4 values, the index of its `PACK123` row.
    codes: u64,
    written: usize,
    /// `Any`: the registers.
    regs: usize,
}

impl<S: Simd> Block<u8> for ToUtf8<S> {
    #[inline(always)]
    fn read(&self) -> usize {
        let lanes = S::BYTES / 4;
        match self.kind {
            Utf32Kind::Ascii => self.written,
            Utf32Kind::Two | Utf32Kind::Three | Utf32Kind::Bmp => 2 * lanes,
            Utf32Kind::Any => self.regs * lanes,
        }
    }

    #[inline(always)]
    fn written(&self) -> usize {
        self.written
    }

    #[inline(always)]
    fn stray(&self) -> usize {
        match self.kind {
            Utf32Kind::Ascii => 0,
            // The last 16-byte store holds the last 8 values' 8 to 16 bytes.
            Utf32Kind::Two => 8 - (self.codes >> (S::BYTES / 2 - 8)).count_ones() as usize,
            // 12 bytes a store.
            Utf32Kind::Three => 4,
            Utf32Kind::Bmp | Utf32Kind::Any => {
                let lanes16 = self.read() / 4;
                let last = (self.codes >> (8 * (lanes16 - 1))) & 0xFF;
                16 - usize::from(LEN123[last as usize])
            }
        }
    }

    #[inline(always)]
    unsafe fn store(&self, dst: *mut u8) {
        let (s, p) = (self.s, self.p);
        match self.kind {
            Utf32Kind::Ascii => {
                let mut k = 0;
                while k < self.written {
                    // SAFETY: the run's units are readable, and its bytes
                    // are what the caller provides; `written` is a multiple
                    // of `BYTES` (four registers' units).
                    unsafe {
                        let [a, b, c, d] = load4(s, p.add(4 * k));
                        s.store(dst.add(k), s.narrow32(a, b, c, d));
                    }
                    k += S::BYTES;
                }
            }
            Utf32Kind::Two => {
                // SAFETY: the block's two registers are readable.
                let (a, b) = unsafe { (s.load(p), s.load(p.add(S::BYTES))) };
                let pairs = utf8_pairs16(s, s.narrow32to16(a, b));
                let mut o = 0;
                for k in 0..S::BYTES / 16 {
                    let two = ((self.codes >> (8 * k)) & 0xFF) as usize;
                    // SAFETY: the output so far, then 16 bytes: inside
                    // `written() + stray()`, as the last lane's store is.
                    unsafe { pack_pairs8(s.base(), s.lane(pairs, k), two, dst.add(o)) };
                    o += 8 + two.count_ones() as usize;
                }
            }
            Utf32Kind::Three => {
                let mut o = 0;
                for r in 0..2 {
                    // SAFETY: the block's two registers are readable.
                    let v = unsafe { s.load(p.add(r * S::BYTES)) };
                    let bytes = utf8_three(s, v);
                    for k in 0..S::BYTES / 16 {
                        // SAFETY: 12 bytes a store; the last one's 4 more are
                        // `stray()`.
                        unsafe { pack_three(s.base(), s.lane(bytes, k), dst.add(o)) };
                        o += 12;
                    }
                }
            }
            Utf32Kind::Bmp | Utf32Kind::Any => {
                let mut o = 0;
                for r in 0..self.read() / (S::BYTES / 4) {
                    // SAFETY: the block's registers are readable.
                    let v = unsafe { s.load(p.add(r * S::BYTES)) };
                    let utf8 = if self.kind == Utf32Kind::Bmp {
                        utf8_bmp(s, v)
                    } else {
                        utf8_any(s, v)
                    };
                    for k in 0..S::BYTES / 16 {
                        let lane = r * S::BYTES / 16 + k;
                        let code = ((self.codes >> (8 * lane)) & 0xFF) as usize;
                        // SAFETY: the output so far, then 16 bytes: inside
                        // `written() + stray()`, as the last lane's store
                        // is.
                        unsafe { pack_utf8(s.base(), s.lane(utf8, k), code, dst.add(o)) };
                        o += usize::from(LEN123[code]);
                    }
                }
            }
        }
    }
}

/// The UTF-8 of the values of `u`, below U+0800, as pairs of bytes in its
/// 16-bit lanes: the value itself below `80` (its second byte is dropped),
/// else `C0 | u >> 6` and `80 | u & 3F`.
#[inline(always)]
fn utf8_pairs16<S: Simd>(s: S, u: S::V) -> S::V {
    let lead = s.or(s.shr16::<6>(u), s.splat16(0xC0));
    let first = s.blendv8(u, lead, s.gt_i16(u, s.splat16(0x7F)));
    let second = s.or(s.and(u, s.splat16(0x3F)), s.splat16(0x80));
    s.or(s.and(first, s.splat16(0xFF)), s.shl16::<8>(second))
}

/// `80 | (v >> 6) & 3F` and `80 | v & 3F`, the two last bytes of the UTF-8
/// of each value of `v` above U+07FF, in bytes 0 and 1 of its 32-bit lane.
#[inline(always)]
fn utf8_last2<S: Simd>(s: S, v: S::V) -> S::V {
    let (low6, cont) = (s.splat32(0x3F), s.splat32(0x80));
    let mid = s.or(s.and(s.shr32::<6>(v), low6), cont);
    let last = s.or(s.and(v, low6), cont);
    s.or(mid, s.shl32::<8>(last))
}

/// The 3-byte UTF-8 of each value of `v` (in `800..=FFFF`) in bytes 0..3
/// of its 32-bit lane.
#[inline(always)]
fn utf8_three<S: Simd>(s: S, v: S::V) -> S::V {
    let lead = s.or(s.shr32::<12>(v), s.splat32(0xE0));
    s.or(lead, s.shl32::<8>(utf8_last2(s, v)))
}

/// The UTF-8 of each value of `v` (below U+10000, not a surrogate) in its
/// 32-bit lane, lead byte first: ASCII, 2 bytes or 3, picked by blends.
#[inline(always)]
fn utf8_bmp<S: Simd>(s: S, v: S::V) -> S::V {
    let two = s.gt_i32(v, s.splat32(0x7F));
    let three = s.gt_i32(v, s.splat32(0x7FF));
    let last = s.or(s.and(v, s.splat32(0x3F)), s.splat32(0x80));
    let as_two = s.or(s.or(s.shr32::<6>(v), s.splat32(0xC0)), s.shl32::<8>(last));
    s.blendv8(s.blendv8(v, as_two, two), utf8_three(s, v), three)
}

/// The UTF-8 of each scalar value of `v`, in its 32-bit lane, lead byte
/// first.
#[inline(always)]
fn utf8_any<S: Simd>(s: S, v: S::V) -> S::V {
    let two = s.gt_i32(v, s.splat32(0x7F));
    let three = s.gt_i32(v, s.splat32(0x7FF));
    let four = s.gt_i32(v, s.splat32(0xFFFF));
    // The four 6-bit fields, most significant first, as a 4-byte
    // character's bytes would hold them.
    let low6 = s.splat32(0x3F);
    let fields = s.or(
        s.or(
            s.shr32::<18>(v),
            s.and(s.shl32::<8>(s.shr32::<12>(v)), s.shl32::<8>(low6)),
        ),
        s.or(
            s.and(s.shl32::<10>(v), s.shl32::<16>(low6)),
            s.shl32::<24>(s.and(v, low6)),
        ),
    );
    // Continuation markers on bytes 1..3; then drop the bytes the
    // character does not need, 8 bits for each length below 4 (the masks
    // are -1), which leaves a continuation byte or the top field first.
    let missing = s.add32(s.add32(s.splat32(3), two), s.add32(three, four));
    let bits = s.shl32::<3>(missing);
    let shifted = s.shr32_bytes(s.or(fields, s.splat32(0x8080_8000)), bits);
    // The lead byte's markers (C0, E0, F0) cover a continuation marker.
    let lead = s.or(
        s.splat32(0xC0),
        s.or(s.and(three, s.splat32(0x20)), s.and(four, s.splat32(0x10))),
    );
    let multi = s.or(shifted, lead);
    // ASCII is itself (its 6-bit field lost bit 6).
    s.blendv8(v, multi, two)
}

/// Writes the UTF-8 held in the 4 lanes of `x` (lead byte first), whose
/// lengths `code` encodes, at `dst`, with one 16-byte store.
///
/// # Safety
///
/// `dst` is valid for writes of 16 bytes; `code < 256`.
#[inline(always)]
unsafe fn pack_utf8<B: Simd>(t: B, x: B::V, code: usize, dst: *mut u8) {
    const { assert!(B::BYTES == 16) };
    // SAFETY: `code < 256`, PACK123's length; the caller's guarantee
    // covers the store.
    unsafe {
        let ctrl = t.broadcast16(&*PACK123.as_ptr().add(code));
        t.store(dst, t.shuffle8(x, ctrl));
    }
}

/// Writes the UTF-8 held as 8 pairs of bytes in `x` (the second byte
/// kept where `two` has a bit) at `dst`, with one 16-byte store.
///
/// # Safety
///
/// `dst` is valid for writes of 16 bytes; `two < 256`.
#[inline(always)]
unsafe fn pack_pairs8<B: Simd>(t: B, x: B::V, two: usize, dst: *mut u8) {
    const { assert!(B::BYTES == 16) };
    // SAFETY: `two < 256`, PACK12's length; the caller's guarantee
    // covers the store.
    unsafe {
        let ctrl = t.broadcast16(&*PACK12.as_ptr().add(two));
        t.store(dst, t.shuffle8(x, ctrl));
    }
}

/// Writes the 3 first bytes of each 32-bit lane of `x` at `dst`, then 4
/// zeros, with one 16-byte store.
///
/// # Safety
///
/// `dst` is valid for writes of 16 bytes.
#[inline(always)]
unsafe fn pack_three<B: Simd>(t: B, x: B::V, dst: *mut u8) {
    const { assert!(B::BYTES == 16) };
    const THREE: [u8; 16] = [
        0, 1, 2, 4, 5, 6, 8, 9, 10, 12, 13, 14, 0x80, 0x80, 0x80, 0x80,
    ];
    // SAFETY: the caller's guarantee covers the store.
    unsafe { t.store(dst, t.shuffle8(x, t.broadcast16(&THREE))) }
}

/// The `PACK123` codes of the UTF-16 units of `u` (none a surrogate) and
/// the bytes of their UTF-8: per 4 units, a byte whose bits `2i`, `2i + 1`
/// are the length less one of unit `i`. One `movemask` of 16-bit lanes
/// whose low byte says "2 bytes" and high byte "3 bytes" gives exactly
/// that.
#[inline(always)]
fn bmp_codes<S: Simd>(s: S, u: S::V) -> (u64, usize) {
    let below80 = s.eq16(s.and(u, s.splat16(0xFF80)), s.zero());
    let below800 = s.eq16(s.and(u, s.splat16(0xF800)), s.zero());
    let two = s.andnot(below80, below800);
    let m = s.movemask8(s.or(
        s.and(two, s.splat16(0x00FF)),
        s.andnot(below800, s.splat16(0xFF00)),
    ));
    let bytes = S::BYTES / 2
        + (m & 0x5555_5555_5555_5555).count_ones() as usize
        + 2 * (m & 0xAAAA_AAAA_AAAA_AAAA).count_ones() as usize;
    (m, bytes)
}

/// The `PACK123` codes of the values of `v` (scalar values) and the bytes
/// of their UTF-8: per 16-byte lane of 4 values, a byte whose bits `2i`,
/// `2i + 1` are the length less one of value `i`.
///
/// One `movemask` does it: byte 0 of each 32-bit lane is set for the
/// lengths with bit 0 set (2 and 4 bytes: `two` but not `three`, or
/// `four`; the masks nest), byte 1 for those with bit 1 set (3 and 4),
/// which gives each value a nibble holding its code; the nibbles are then
/// squeezed into 2-bit fields.
#[inline(always)]
fn length_codes<S: Simd>(s: S, v: S::V) -> (u64, usize) {
    let two = s.gt_i32(v, s.splat32(0x7F));
    let three = s.gt_i32(v, s.splat32(0x7FF));
    let four = s.gt_i32(v, s.splat32(0xFFFF));
    let bit0 = s.or(s.andnot(three, two), four);
    let m = s.movemask8(s.or(
        s.and(bit0, s.splat32(0xFF)),
        s.and(three, s.splat32(0xFF00)),
    ));
    // A nibble a value (bits 2 and 3 clear), then two values a byte, four
    // a 16-bit word (its low byte), and the words' low bytes side by side:
    // every lane at once.
    let y = (m | m >> 2) & 0x0F0F_0F0F_0F0F_0F0F;
    let z = (y | y >> 4) & 0x00FF_00FF_00FF_00FF;
    let w = (z | z >> 8) & 0x0000_FFFF_0000_FFFF;
    let codes = (w | w >> 16) & 0xFFFF_FFFF;
    let bytes = S::BYTES / 4 + (m.count_ones() + (m & 0x2222_2222_2222_2222).count_ones()) as usize;
    (codes, bytes)
}

/// UTF-32 to UTF-8, up to the first register with a unit that is not a
/// scalar value.
#[inline(always)]
pub(crate) fn utf32_to_utf8<S: Simd>(s: S, src: &[u32], dst: &mut [u8]) -> (usize, usize) {
    let n = src.len();
    let p = src.as_ptr().cast::<u8>();
    let lanes = S::BYTES / 4;
    let x7f = s.splat32(0x7F);
    block::run(
        dst,
        #[inline(always)]
        move |i, room| {
            let left = n.checked_sub(i)?;
            if left < lanes {
                return None;
            }
            let r = p.wrapping_add(4 * i);
            let block = |kind, codes, written| ToUtf8 {
                s,
                p: r,
                kind,
                codes,
                written,
                regs: 1,
            };
            // SAFETY: `i + lanes <= n`.
            let a = unsafe { s.load(r) };
            if left >= 2 * lanes {
                // SAFETY: `i + 2 * lanes <= n`.
                let b = unsafe { s.load(r.add(S::BYTES)) };
                let ab = s.or(a, b);
                if !s.test_any(ab, s.splat32(!0x7F)) {
                    let ascii = block::run_len(
                        left.min(room).min(block::RUN),
                        4 * lanes,
                        #[inline(always)]
                        |k| {
                            // SAFETY: `run_len` asks for four registers
                            // only if they are within `left`.
                            let [a, b, c, d] = unsafe { load4(s, r.add(4 * k)) };
                            !s.test_any(s.or(s.or(a, b), s.or(c, d)), s.splat32(!0x7F))
                        },
                    );
                    if ascii > 0 {
                        return Some(block(Utf32Kind::Ascii, 0, ascii));
                    }
                }
                if !s.test_any(ab, s.splat32(!0x7FF)) {
                    let two =
                        s.movemask32(s.gt_i32(a, x7f)) | s.movemask32(s.gt_i32(b, x7f)) << lanes;
                    return Some(block(
                        Utf32Kind::Two,
                        two,
                        2 * lanes + two.count_ones() as usize,
                    ));
                }
                // Below U+10000 and not surrogates: the 16-bit units of
                // UTF-16, where one `movemask` gives each unit's code.
                if !s.test_any(ab, s.splat32(0xFFFF_0000)) {
                    let u = s.narrow32to16(a, b);
                    let (f800, d800) = (s.splat16(0xF800), s.splat16(0xD800));
                    if s.movemask16(s.eq16(s.and(u, f800), d800)) == 0 {
                        let (codes, bytes) = bmp_codes(s, u);
                        if bytes == 6 * lanes {
                            return Some(block(Utf32Kind::Three, 0, bytes));
                        }
                        return Some(block(Utf32Kind::Bmp, codes, bytes));
                    }
                }
            }
            // As many registers as are left, up to `any_regs`, and up to
            // the first with a value that is not a scalar value.
            let (mut codes, mut written, mut regs) = (0, 0, 0);
            while regs < (left / lanes).min(const { any_regs(S::BYTES) }) {
                // SAFETY: `i + (regs + 1) * lanes <= n`.
                let v = unsafe { s.load(r.add(regs * S::BYTES)) };
                if s.movemask32(invalid32(s, v)) != 0 {
                    break;
                }
                let (c, w) = length_codes(s, v);
                codes |= c << (regs * S::BYTES / 2);
                written += w;
                regs += 1;
            }
            if regs == 0 {
                return None;
            }
            Some(ToUtf8 {
                regs,
                ..block(Utf32Kind::Any, codes, written)
            })
        },
    )
}

// UTF-16 → UTF-32.

/// What a block of UTF-16 for [`utf16_to_utf32`] holds.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Utf16Kind {
    /// A run without surrogates, whole groups of four registers:
    /// zero-extended.
    Plain4,
    /// One register without surrogates: zero-extended.
    Plain,
    /// One register of well-paired surrogates and other units, and the
    /// trail after it if its last unit is a lead.
    Pairs,
}

/// A block of UTF-16 for [`utf16_to_utf32`].
#[derive(Clone, Copy)]
struct FromUtf16<S: Simd> {
    s: S,
    p: *const u8,
    kind: Utf16Kind,
    /// `Plain4`: the run's length.
    len: usize,
    /// `Pairs`: the units that are not trail surrogates (each starts a
    /// character).
    starts: u64,
    /// `Pairs`: the lead surrogates (each followed by its trail).
    leads: u64,
    /// `Pairs`: whether the block takes the unit after its register.
    carry: bool,
}

impl<S: Simd> Block<u32> for FromUtf16<S> {
    #[inline(always)]
    fn read(&self) -> usize {
        match self.kind {
            Utf16Kind::Plain4 => self.len,
            Utf16Kind::Plain => S::BYTES / 2,
            Utf16Kind::Pairs => S::BYTES / 2 + usize::from(self.carry),
        }
    }

    #[inline(always)]
    fn written(&self) -> usize {
        match self.kind {
            Utf16Kind::Plain4 => self.len,
            Utf16Kind::Plain => S::BYTES / 2,
            Utf16Kind::Pairs => self.starts.count_ones() as usize,
        }
    }

    #[inline(always)]
    fn stray(&self) -> usize {
        if self.kind != Utf16Kind::Pairs {
            return 0;
        }
        let lanes = S::BYTES / 4;
        lanes - (self.starts >> lanes).count_ones() as usize
    }

    #[inline(always)]
    unsafe fn store(&self, dst: *mut u32) {
        let (s, p, lanes) = (self.s, self.p, S::BYTES / 4);
        let q = dst.cast::<u8>();
        if self.kind != Utf16Kind::Pairs {
            // The registers of the run, or the one register.
            let regs = self.read() / (S::BYTES / 2);
            for k in 0..regs {
                // SAFETY: the block's registers are readable, and
                // `written()` is their units as 32-bit lanes.
                unsafe {
                    let (v0, v1) = s.widen16to32(s.load(p.add(k * S::BYTES)));
                    s.store(q.add(2 * k * S::BYTES), v0);
                    s.store(q.add((2 * k + 1) * S::BYTES), v1);
                }
            }
            return;
        }
        // SAFETY: the block's register and the unit after it are readable.
        let (v, next) = unsafe { (s.load(p), s.load(p.add(2))) };
        let (v0, v1) = s.widen16to32(v);
        let (n0, n1) = s.widen16to32(next);
        let mut o = 0;
        for (r, (v, next)) in [(v0, n0), (v1, n1)].into_iter().enumerate() {
            let value = s.pair_values32_at(v, next, low_bits(self.leads >> (r * lanes), lanes));
            let m = low_bits(self.starts >> (r * lanes), lanes);
            // SAFETY: the output so far, then one register: inside
            // `written() + stray()`, as the last register's store is.
            unsafe { s.compress32(value, m, q.add(4 * o)) };
            o += m.count_ones() as usize;
        }
    }
}

/// The lead and trail surrogates of the register `v` (bit masks, one bit a
/// unit), whose surrogates are `sur`, if every lead is followed by a trail
/// (the first unit of `next`, the units one on, for the last) and every
/// trail follows a lead (or, at unit 0, a lead carried from the register
/// before: `carry` is 1, and that register found its trail); `None` if a
/// surrogate is unpaired there. The pairing rule of both UTF-16 → UTF-32
/// loops: the surrogates must be exactly the pairs' leads and trails.
#[inline(always)]
fn paired16<S: Simd>(s: S, v: S::V, next: S::V, sur: u64, carry: u64) -> Option<(u64, u64)> {
    let full = u64::MAX >> (64 - S::BYTES / 2);
    let lead = s.pair_starts16(v, next);
    let trail = (lead << 1 | carry) & full;
    (sur == lead | trail).then_some((lead, trail))
}

/// Whether the UTF-16 of `v` holds a surrogate.
#[inline(always)]
fn has_surrogate16<S: Simd>(s: S, v: S::V) -> S::V {
    s.eq16(s.and(v, s.splat16(0xF800)), s.splat16(0xD800))
}

/// UTF-16 to UTF-32, up to the first register with an unpaired surrogate.
///
/// Text without surrogates (every BMP script) goes through one loop that
/// checks, widens and stores four registers at a time, and ends with one
/// register that overlaps the last one converted (the units it takes again
/// have the same outputs at the same places), so that no unit is left to
/// the scalar step. Registers with surrogates are paired one at a time
/// (each stores straight into `dst`), back to the four-register loop after
/// four registers without; the block loop ([`utf16_to_utf32_blocks`])
/// takes over where `dst` has less than a register's room, or before an
/// unpaired surrogate.
///
/// Measured (`transcode_min`, 30 rounds, load average 6-7): the block
/// loop alone scanned each run of four registers, then loaded and widened
/// it again, and left the last register's units to the scalar step; it ran
/// at 0.61-0.89 of simdutf on BMP text at 1 KiB (AVX-512 and AVX2 alike),
/// this loop at 1.0-1.9 (AVX-512) and 0.9-1.4 (AVX2).
#[inline(always)]
pub(crate) fn utf16_to_utf32<S: Simd>(s: S, src: &[u16], dst: &mut [u32]) -> (usize, usize) {
    let (n, cap, units) = (src.len(), dst.len(), S::BYTES / 2);
    let p = src.as_ptr().cast::<u8>();
    let q = dst.as_mut_ptr().cast::<u8>();
    let (mut i, mut o) = (0, 0);
    let full = u64::MAX >> (64 - units);
    // 1 if the last register converted ended with a lead surrogate: its
    // pair's value is written, and the trail at `i` is dropped (not a
    // character start). Carried as a mask bit rather than by starting the
    // next register one unit on: `i` then does not depend on the data, so
    // the next load does not wait for this register's compares (that
    // chain bound the loop).
    let mut carry = 0;
    // The last pair register's compressed store leaves up to a half
    // register of garbage after its output, which the next register's
    // stores cover. If none comes (the loop ends there), `saved`, what
    // `dst` held there before, is written back: `dst` changes only up to
    // `o`.
    let (mut saved, mut dirty) = (s.splat32(0), false);
    'runs: loop {
        while n - i >= 4 * units && cap - o >= 4 * units {
            // SAFETY: units `i..i + 4 * units` are inside `src`.
            let [a, b, c, d] = unsafe { load4(s, p.add(2 * i)) };
            let any = s.or(
                s.or(has_surrogate16(s, a), has_surrogate16(s, b)),
                s.or(has_surrogate16(s, c), has_surrogate16(s, d)),
            );
            if s.test_any(any, s.splat16(0xFFFF)) {
                break;
            }
            for (k, v) in [a, b, c, d].into_iter().enumerate() {
                let (lo, hi) = s.widen16to32(v);
                // SAFETY: `dst[o..o + 4 * units]` is inside `dst`, and this
                // register's units are `o + k * units..o + (k + 1) * units`.
                unsafe {
                    let d = q.add(4 * o + 2 * k * S::BYTES);
                    s.store(d, lo);
                    s.store(d.add(S::BYTES), hi);
                }
            }
            i += 4 * units;
            o += 4 * units;
        }
        // Then a register at a time: up to three without surrogates, or
        // registers of well-paired surrogates (Emoji text) until four
        // without, which go back to the loop above. On Emoji text this
        // loop runs 1.6x (AVX-512) and 2.1-2.2x (AVX2) the block loop
        // it replaces there (`transcode_min`, Zen 4), which
        // tested four registers for a run without surrogates before each
        // pair register and started the next register one unit on after a
        // lead, so that each load waited for the last one's compares.
        let mut plain = 0;
        while n - i >= units && cap - o >= units {
            // SAFETY: units `i..i + units` are inside `src`.
            let v = unsafe { s.load(p.add(2 * i)) };
            let sur = s.surrogates16(v);
            if sur != 0 {
                // A lead at the end of the register is paired with the unit
                // after it, which must exist.
                if n - i == units {
                    break 'runs;
                }
                // SAFETY: units `i + 1..=i + units` are inside `src`.
                let next = unsafe { s.load(p.add(2 * i + 2)) };
                // The carried lead pairs with the trail at `i`.
                let Some((lead, trail)) = paired16(s, v, next, sur, carry) else {
                    break 'runs;
                };
                let block = FromUtf16 {
                    s,
                    p: p.wrapping_add(2 * i),
                    kind: Utf16Kind::Pairs,
                    len: 0,
                    starts: !trail & full,
                    leads: lead,
                    carry: false,
                };
                let w = block.written();
                // Room for what `dst` holds after the output, to restore.
                if cap - o < w + S::BYTES / 4 {
                    break 'runs;
                }
                // SAFETY: the block reads units `i..=i + units` (inside `src`),
                // and writes `w + stray()` lanes from `o`: at most a
                // register's units, as `cap - o` is; `saved` is the register
                // at `o + w`, inside `dst` as just checked, which the
                // previous register's stores (`o + stray` at most, less than
                // `w`) did not reach.
                unsafe {
                    saved = s.load(q.add(4 * (o + w)));
                    block.store(q.add(4 * o).cast());
                }
                dirty = true;
                i += units;
                o += w;
                carry = lead >> (units - 1);
                plain = 0;
                continue;
            }
            // No carry: a carried lead's trail (checked) is a surrogate.
            debug_assert_eq!(carry, 0);
            let (lo, hi) = s.widen16to32(v);
            // SAFETY: `dst[o..o + units]` is inside `dst`.
            unsafe {
                s.store(q.add(4 * o), lo);
                s.store(q.add(4 * o + S::BYTES), hi);
            }
            dirty = false;
            i += units;
            o += units;
            plain += 1;
            if plain == 4 {
                continue 'runs;
            }
        }
        break;
    }
    if dirty {
        // SAFETY: `saved` was loaded from this register of `dst` (`o` is
        // the last pair register's `o + w`).
        unsafe { s.store(q.add(4 * o), saved) };
    }
    // The carried lead's trail is converted.
    i += carry as usize;
    if let (Some(rest), Some(out)) = (src.get(i..), dst.get_mut(o..)) {
        let (r, w) = utf16_to_utf32_blocks(s, rest, out);
        i += r;
        o += w;
    }
    // The last register of `src`, if it has no surrogate, is converted
    // again from where it starts: each of its units before `i` (converted,
    // and not a surrogate) has its output at `o - (i - unit)`.
    let left = n - i;
    if left > 0 && left < units && n >= units && cap - o >= left {
        let t = n - units;
        // SAFETY: `t + units == n`.
        let v = unsafe { s.load(p.add(2 * t)) };
        if !s.test_any(has_surrogate16(s, v), s.splat16(0xFFFF)) {
            let (v0, v1) = s.widen16to32(v);
            // SAFETY: the outputs of units `t..i` are `dst[o - (i - t)..o]`
            // (one each, none a surrogate), and `o + left <= cap`: the
            // register's outputs are `dst[o - (i - t)..o + left]`.
            unsafe {
                let d = q.add(4 * (o - (i - t)));
                s.store(d, v0);
                s.store(d.add(S::BYTES), v1);
            }
            return (n, o + left);
        }
    }
    (i, o)
}

/// UTF-16 to UTF-32 by blocks: runs without surrogates, and registers of
/// well-paired surrogates, up to the first register with an unpaired one.
#[inline(always)]
fn utf16_to_utf32_blocks<S: Simd>(s: S, src: &[u16], dst: &mut [u32]) -> (usize, usize) {
    let n = src.len();
    let p = src.as_ptr().cast::<u8>();
    let units = S::BYTES / 2;
    let full = u64::MAX >> (64 - units);
    let (f800, d800) = (s.splat16(0xF800), s.splat16(0xD800));
    block::run(
        dst,
        #[inline(always)]
        move |i, room| {
            let left = n.checked_sub(i)?;
            let r = p.wrapping_add(2 * i);
            let block = |kind, len, starts, leads, carry| FromUtf16 {
                s,
                p: r,
                kind,
                len,
                starts,
                leads,
                carry,
            };
            let plain = block::run_len(
                left.min(room).min(block::RUN),
                4 * units,
                #[inline(always)]
                |k| {
                    // SAFETY: `run_len` asks for four registers only if
                    // they are within `left`.
                    let [a, b, c, d] = unsafe { load4(s, r.add(2 * k)) };
                    let any = s.or(
                        s.or(s.eq16(s.and(a, f800), d800), s.eq16(s.and(b, f800), d800)),
                        s.or(s.eq16(s.and(c, f800), d800), s.eq16(s.and(d, f800), d800)),
                    );
                    s.movemask16(any) == 0
                },
            );
            if plain > 0 {
                return Some(block(Utf16Kind::Plain4, plain, 0, 0, false));
            }
            // A lead at the end of the register is paired with the unit
            // after.
            if left <= units {
                return None;
            }
            // SAFETY: units `i..=i + units` are inside `src`.
            let (v, next) = unsafe { (s.load(r), s.load(r.add(2))) };
            let sur = s.surrogates16(v);
            if sur == 0 {
                return Some(block(Utf16Kind::Plain, 0, 0, 0, false));
            }
            // The block starts at a character: nothing carried.
            let (lead, trail) = paired16(s, v, next, sur, 0)?;
            Some(block(
                Utf16Kind::Pairs,
                0,
                !trail & full,
                lead,
                lead >> (units - 1) != 0,
            ))
        },
    )
}

// UTF-32 → UTF-16.

/// What a block of UTF-32 for [`utf32_to_utf16`] holds.
#[derive(Clone, Copy, PartialEq, Eq)]
enum ToUtf16Kind {
    /// A run below U+10000 without surrogates, whole groups of four
    /// registers: narrowed.
    Bmp4,
    /// [`PAIR_REGS`] registers of scalar values, some above U+FFFF.
    Pairs,
}

/// Registers in a `Pairs` block of [`utf32_to_utf16`]: four, loaded and
/// tested together (`load4`), so fewer than four left go to the scalar
/// code. Two a block ran text with an emoji every 8 characters at 0.71 of
/// simdutf's AVX2 kernel; 1 to 4, as many as are left, tested one at a time
/// as `utf32_to_utf8`'s `Any` blocks are, took AVX2 from 6.4 to 5.2 GB/s
/// on it, 1 KiB inputs included (Zen 4).
const PAIR_REGS: usize = 4;

/// A block of UTF-32 for [`utf32_to_utf16`].
#[derive(Clone, Copy)]
struct ToUtf16<S: Simd> {
    s: S,
    p: *const u8,
    kind: ToUtf16Kind,
    /// `Bmp4`: the run's length.
    len: usize,
    /// `Pairs`: the values (of two registers) above U+FFFF.
    supplementary: u64,
}

impl<S: Simd> Block<u16> for ToUtf16<S> {
    #[inline(always)]
    fn read(&self) -> usize {
        match self.kind {
            ToUtf16Kind::Bmp4 => self.len,
            ToUtf16Kind::Pairs => PAIR_REGS * S::BYTES / 4,
        }
    }

    #[inline(always)]
    fn written(&self) -> usize {
        self.read() + self.supplementary.count_ones() as usize
    }

    #[inline(always)]
    fn stray(&self) -> usize {
        // Each 16-byte lane's store writes 8 units, 4 to 8 of them output.
        match self.kind {
            ToUtf16Kind::Bmp4 => 0,
            ToUtf16Kind::Pairs => {
                4 - (self.supplementary >> (PAIR_REGS * S::BYTES / 4 - 4)).count_ones() as usize
            }
        }
    }

    #[inline(always)]
    unsafe fn store(&self, dst: *mut u16) {
        let (s, p) = (self.s, self.p);
        let q = dst.cast::<u8>();
        if self.kind == ToUtf16Kind::Bmp4 {
            let mut k = 0;
            while k < self.len {
                // SAFETY: the run's units are readable, and its units are
                // what the caller provides; `len` is a multiple of `BYTES`
                // (four registers' units).
                unsafe {
                    let [a, b, c, d] = load4(s, p.add(4 * k));
                    s.store(q.add(2 * k), s.narrow32to16(a, b));
                    s.store(q.add(2 * k + S::BYTES), s.narrow32to16(c, d));
                }
                k += S::BYTES;
            }
            return;
        }
        let mut o = 0;
        for r in 0..PAIR_REGS {
            // SAFETY: the block's registers are readable.
            let v = unsafe { s.load(p.add(r * S::BYTES)) };
            let units = utf16_lanes(s, v);
            for k in 0..S::BYTES / 16 {
                let supp = (self.supplementary >> (r * S::BYTES / 4 + 4 * k)) & 15;
                // SAFETY: the output so far, then 16 bytes: inside
                // `written() + stray()`, as the last lane's store is.
                unsafe { pack_pairs(s.base(), s.lane(units, k), supp, q.add(2 * o)) };
                o += 4 + supp.count_ones() as usize;
            }
        }
    }
}

/// The UTF-16 of each scalar value of `v` in its 32-bit lane: the value
/// itself below U+10000, else the lead surrogate, then the trail.
#[inline(always)]
fn utf16_lanes<S: Simd>(s: S, v: S::V) -> S::V {
    let offset = s.sub32(v, s.splat32(0x1_0000));
    let lead = s.add32(s.shr32::<10>(offset), s.splat32(0xD800));
    let trail = s.or(s.and(v, s.splat32(0x3FF)), s.splat32(0xDC00));
    let pair = s.or(lead, s.shl32::<16>(trail));
    s.blendv8(v, pair, supplementary32(s, v))
}

/// Writes the UTF-16 held in the 4 lanes of `x` (one unit, or two where
/// `supp` has a bit) at `dst`, with one 16-byte store.
///
/// # Safety
///
/// `dst` is valid for writes of 16 bytes; `supp < 16`.
#[inline(always)]
unsafe fn pack_pairs<B: Simd>(t: B, x: B::V, supp: u64, dst: *mut u8) {
    const { assert!(B::BYTES == 16) };
    // SAFETY: `supp < 16`, PAIRS16's length; the caller's guarantee
    // covers the store.
    unsafe {
        let ctrl = t.broadcast16(&*PAIRS16.as_ptr().add(supp as usize));
        t.store(dst, t.shuffle8(x, ctrl));
    }
}

/// Whether the values of `a` and `b` are all below U+10000 and none a
/// surrogate; if so, their UTF-16, narrowed.
///
/// One test of the top halves of all of them (no bit above `FFFF`), then
/// the surrogate test on the narrowed units, which are then exact.
#[inline(always)]
fn narrow_bmp<S: Simd>(s: S, a: S::V, b: S::V) -> Option<S::V> {
    if s.test_any(s.or(a, b), s.splat32(0xFFFF_0000)) {
        return None;
    }
    let u = s.narrow32to16(a, b);
    if s.test_any(has_surrogate16(s, u), s.splat16(0xFFFF)) {
        return None;
    }
    Some(u)
}

/// UTF-32 to UTF-16, up to the first register with a unit that is not a
/// scalar value.
///
/// Values below U+10000 (every BMP script) go through one loop that
/// checks, narrows and stores four registers at a time, and ends
/// with two registers that overlap the last ones converted (the values they
/// take again have the same outputs at the same places), so that no value
/// is left to the scalar step. The first register above U+FFFF hands over
/// to the block loop ([`utf32_to_utf16_blocks`]).
#[inline(always)]
pub(crate) fn utf32_to_utf16<S: Simd>(
    s: S,
    src: &[u32],
    dst: &mut [u16],
    blocks: impl FnOnce(&[u32], &mut [u16]) -> (usize, usize),
) -> (usize, usize) {
    let (n, cap, lanes) = (src.len(), dst.len(), S::BYTES / 4);
    let p = src.as_ptr().cast::<u8>();
    let q = dst.as_mut_ptr().cast::<u8>();
    let (mut i, mut o) = (0, 0);
    while n - i >= 4 * lanes && cap - o >= 4 * lanes {
        // SAFETY: values `i..i + 4 * lanes` are inside `src`.
        let [a, b, c, d] = unsafe { load4(s, p.add(4 * i)) };
        // `narrow_bmp` for the four at once: two tests and two branches,
        // where two calls made four, and a loop whose speed depended on
        // its address (6% on every BMP text, Zen 4, AVX2).
        if s.test_any(s.or(s.or(a, b), s.or(c, d)), s.splat32(0xFFFF_0000)) {
            break;
        }
        let (u, v) = (s.narrow32to16(a, b), s.narrow32to16(c, d));
        let sur = s.or(has_surrogate16(s, u), has_surrogate16(s, v));
        if s.test_any(sur, s.splat16(0xFFFF)) {
            break;
        }
        // SAFETY: `dst[o..o + 4 * lanes]` is inside `dst`.
        unsafe {
            s.store(q.add(2 * o), u);
            s.store(q.add(2 * o + S::BYTES), v);
        }
        i += 4 * lanes;
        o += 4 * lanes;
    }
    // Then two registers, once at most.
    if n - i >= 2 * lanes && cap - o >= 2 * lanes {
        // SAFETY: values `i..i + 2 * lanes` are inside `src`.
        let (a, b) = unsafe { (s.load(p.add(4 * i)), s.load(p.add(4 * i + S::BYTES))) };
        if let Some(u) = narrow_bmp(s, a, b) {
            // SAFETY: `dst[o..o + 2 * lanes]` is inside `dst`.
            unsafe { s.store(q.add(2 * o), u) };
            i += 2 * lanes;
            o += 2 * lanes;
        }
    }
    if let (Some(rest), Some(out)) = (src.get(i..), dst.get_mut(o..)) {
        let (r, w) = blocks(rest, out);
        i += r;
        o += w;
    }
    // The last two registers of `src`, if they are all below U+10000 and
    // not surrogates, are converted again from where they start: each of
    // their values before `i` (converted, one unit each) has its output at
    // `o - (i - value)`.
    let left = n - i;
    if left > 0 && left < 2 * lanes && n >= 2 * lanes && cap - o >= left {
        let t = n - 2 * lanes;
        // SAFETY: `t + 2 * lanes == n`.
        let (a, b) = unsafe { (s.load(p.add(4 * t)), s.load(p.add(4 * t + S::BYTES))) };
        if let Some(u) = narrow_bmp(s, a, b) {
            // SAFETY: the outputs of values `t..i` are `dst[o - (i - t)..o]`
            // and `o + left <= cap`: the registers' outputs are
            // `dst[o - (i - t)..o + left]`.
            unsafe { s.store(q.add(2 * (o - (i - t))), u) };
            return (n, o + left);
        }
    }
    (i, o)
}

/// UTF-32 to UTF-16 by blocks: runs below U+10000, and groups of
/// [`PAIR_REGS`] registers of any scalar values, up to the first register
/// with a value that is not one. The `blocks` of [`utf32_to_utf16`], a
/// function of its own (`kernels!`): inlined, its registers crowded the
/// loop of runs below U+10000 there, which reloaded the output pointer
/// from the stack in every iteration (3-4% on every BMP text, Zen 4,
/// AVX2).
#[inline(always)]
pub(crate) fn utf32_to_utf16_blocks<S: Simd>(s: S, src: &[u32], dst: &mut [u16]) -> (usize, usize) {
    let n = src.len();
    let p = src.as_ptr().cast::<u8>();
    let lanes = S::BYTES / 4;
    let (xffff, f800, d800) = (s.splat32(0xFFFF), s.splat32(0xFFFF_F800), s.splat32(0xD800));
    // Whether the last block was `Pairs`: then the next two registers are
    // tested first, not four for a run below U+10000 (Emoji text is block
    // after block of pairs).
    let mut after_pairs = false;
    block::run(
        dst,
        #[inline(always)]
        move |i, room| {
            let left = n.checked_sub(i)?;
            let r = p.wrapping_add(4 * i);
            let max = if after_pairs {
                0
            } else {
                left.min(room).min(block::RUN)
            };
            after_pairs = false;
            let bmp = block::run_len(
                max,
                4 * lanes,
                #[inline(always)]
                |k| {
                    // SAFETY: `run_len` asks for four registers only if
                    // they are within `left`.
                    let [a, b, c, d] = unsafe { load4(s, r.add(4 * k)) };
                    // Above U+FFFF (signed, or negative) or a surrogate.
                    let (ab, cd) = (s.or(a, b), s.or(c, d));
                    let above = s.or(
                        s.or(s.gt_i32(a, xffff), s.gt_i32(b, xffff)),
                        s.or(s.gt_i32(c, xffff), s.gt_i32(d, xffff)),
                    );
                    let surrogate = s.or(
                        s.or(s.eq32(s.and(a, f800), d800), s.eq32(s.and(b, f800), d800)),
                        s.or(s.eq32(s.and(c, f800), d800), s.eq32(s.and(d, f800), d800)),
                    );
                    s.movemask32(s.or(s.or(above, surrogate), s.or(ab, cd))) == 0
                },
            );
            if bmp > 0 {
                return Some(ToUtf16 {
                    s,
                    p: r,
                    kind: ToUtf16Kind::Bmp4,
                    len: bmp,
                    supplementary: 0,
                });
            }
            if left < PAIR_REGS * lanes {
                return None;
            }
            // SAFETY: `i + PAIR_REGS * lanes <= n`.
            let v = unsafe { load4(s, r) };
            let bad = s.or(
                s.or(invalid32(s, v[0]), invalid32(s, v[1])),
                s.or(invalid32(s, v[2]), invalid32(s, v[3])),
            );
            if s.movemask32(bad) != 0 {
                return None;
            }
            let mut supplementary = 0;
            for (k, x) in v.into_iter().enumerate() {
                supplementary |= s.movemask32(supplementary32(s, x)) << (k * lanes);
            }
            after_pairs = supplementary != 0;
            Some(ToUtf16 {
                s,
                p: r,
                kind: ToUtf16Kind::Pairs,
                len: 0,
                supplementary,
            })
        },
    )
}

/// Defines the UTF-32 kernels (but UTF-8 → UTF-32: only the SSE4.1 table
/// takes [`utf8_to_utf32`]; the AVX2 and AVX-512 tables take the AVX2
/// UTF-8 → UTF-16 kernel with its output widened, `avx2::utf8_to_utf32`,
/// which was 1.1 to 2.4 times as fast as this one with 32- or 64-byte
/// registers on all but the Chinese and Emoji texts) of the table for the
/// token `codec_arch::$arch::$token`, whose
/// features are the `codec_arch` level `$level`: safe `#[target_feature]` functions, which
/// coerce to the table's `unsafe fn` pointers.
macro_rules! kernels {
    ($arch:ident :: $token:ident, $level:ident) => {
        use crate::arch::generic::utf32;
        use codec_arch::$arch::$token;

        codec_arch::enable! { $level;
            /// UTF-32 to UTF-8, up to an invalid unit.
            pub(crate) fn utf32_to_utf8(src: &[u32], dst: &mut [u8]) -> (usize, usize) {
                utf32::utf32_to_utf8($token::new(), src, dst)
            }
        }

        codec_arch::enable! { $level;
            /// UTF-16 to UTF-32, up to an unpaired surrogate.
            pub(crate) fn utf16_to_utf32(src: &[u16], dst: &mut [u32]) -> (usize, usize) {
                utf32::utf16_to_utf32($token::new(), src, dst)
            }
        }

        codec_arch::enable! { $level;
            /// UTF-32 to UTF-16, up to an invalid unit.
            pub(crate) fn utf32_to_utf16(src: &[u32], dst: &mut [u16]) -> (usize, usize) {
                // A safe call: this function has the same features.
                utf32::utf32_to_utf16($token::new(), src, dst, |s, d| utf32_to_utf16_blocks(s, d))
            }
        }

        codec_arch::enable! { $level;
            /// [`utf32_to_utf16`]'s blocks, out of line.
            #[inline(never)]
            fn utf32_to_utf16_blocks(src: &[u32], dst: &mut [u16]) -> (usize, usize) {
                utf32::utf32_to_utf16_blocks($token::new(), src, dst)
            }
        }
    };
}
pub(crate) use kernels;
