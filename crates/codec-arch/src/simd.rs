//! The vector trait of the kernels, [`Simd`]: the operations a kernel
//! family needs, once for each register width, implemented by zero-sized
//! tokens: `x86_64::Sse41` (16 bytes), `x86_64::Avx2` (32),
//! `x86_64::Avx512` (64) and `aarch64::Neon` (16), each compiled on its
//! architecture only.
//!
//! A kernel family is written once, generic over `Simd` (transcode's
//! `arch/generic/`, the encodings crate's `arch/x86_64/lookup.rs`), and
//! instantiated by a `#[target_feature]` entry point per instruction set,
//! into which the `#[inline(always)]` operations are inlined (memchr's
//! scheme).
//! Operations on bytes within 128-bit lanes (`pshufb`) act lane by lane,
//! as the x86 instructions do; every implementation follows the docs
//! below (the tests check each against a scalar model of them).
//!
//! # Why the tokens make the operations safe
//!
//! A token is a zero-sized proof that the CPU has its instruction set: its
//! only constructor, `new`, is a safe `#[target_feature]` function, which
//! safe code can call only from a function with the same features (the
//! kernels' entry points, themselves reached only through a registry
//! [`Entry`](crate::Entry) whose ISA the CPU has). So an operation that takes
//! `self` may call its intrinsics; only the memory accesses stay `unsafe`,
//! for the bounds their callers must prove.

/// A sliding window of lane masks: 64 zero bytes, then 64 bytes `FF`. The
/// `BYTES` bytes at offset `64 - k` are a vector whose lanes from byte `k`
/// on are set.
static FROM: [u8; 128] = {
    let mut t = [0u8; 128];
    let mut i = 64;
    while i < 128 {
        t[i] = 0xFF;
        i += 1;
    }
    t
};

/// For [`Simd::windows32`]: the big-endian 32-bit window at each of the
/// first four bytes of a 16-byte lane.
pub(crate) const WINDOWS: [u8; 16] = [3, 2, 1, 0, 4, 3, 2, 1, 5, 4, 3, 2, 6, 5, 4, 3];

/// For [`Simd::groups3`]: the 3-byte groups of the first 12 bytes of a
/// 16-byte lane, reversed, one a 32-bit lane.
pub(crate) const GROUPS3: [u8; 16] = [2, 1, 0, 0x80, 5, 4, 3, 0x80, 8, 7, 6, 0x80, 11, 10, 9, 0x80];

/// The vector operations the kernels need, for one register width. See the
/// module docs for why they are safe.
///
/// Comparisons return lane masks (all ones or zero per lane); counts
/// accumulate by subtracting masks.
pub trait Simd: Copy {
    /// The vector register.
    type V: Copy;
    /// Bytes in a register.
    const BYTES: usize;
    /// The token of the 16-byte registers of the same architecture, which
    /// every wider token implies ([`Simd::base`]; a 16-byte token is its
    /// own): code working on one 128-bit lane at a time uses it.
    type Base: Simd;

    /// Loads `BYTES` bytes.
    ///
    /// # Safety
    ///
    /// `p` is valid for reads of `BYTES` bytes (at any alignment).
    unsafe fn load(self, p: *const u8) -> Self::V;

    /// Stores `BYTES` bytes.
    ///
    /// # Safety
    ///
    /// `p` is valid for writes of `BYTES` bytes (at any alignment).
    unsafe fn store(self, p: *mut u8, v: Self::V);

    /// Stores the first `BYTES / 2` bytes of `v`.
    ///
    /// # Safety
    ///
    /// `p` is valid for writes of `BYTES / 2` bytes (at any alignment).
    unsafe fn store_half(self, p: *mut u8, v: Self::V);

    /// A mask whose bytes from `k` on are set (`k <= BYTES`).
    #[inline(always)]
    fn mask_from(self, k: usize) -> Self::V {
        let k = k.min(Self::BYTES);
        // SAFETY: `64 - k + BYTES <= 128 = FROM.len()`, as `k <= BYTES <= 64`.
        unsafe { self.load(FROM.as_ptr().add(64 - k)) }
    }

    /// The 16 bytes of `t` in every 128-bit lane.
    fn broadcast16(self, t: &[u8; 16]) -> Self::V;

    /// For each 32-bit lane: where `v` is a lead surrogate, the value of
    /// the pair it makes with `next` (a trail surrogate there); elsewhere
    /// `v`.
    #[inline(always)]
    fn pair_values32(self, v: Self::V, next: Self::V) -> Self::V {
        // (lead - D800) << 10 + (trail - DC00) + 10000.
        let bias = self.splat32(0x1_0000u32.wrapping_sub(0xD800 << 10).wrapping_sub(0xDC00));
        let pair = self.add32(self.add32(self.shl32::<10>(v), next), bias);
        let lead = self.eq32(self.and(v, self.splat32(0xFC00)), self.splat32(0xD800));
        self.blendv8(v, pair, lead)
    }

    /// [`Simd::pair_values32`] where `lead` (one bit a 32-bit lane) says
    /// which lanes are lead surrogates followed by a trail, as the caller
    /// has found; the default tests `v` again.
    #[inline(always)]
    fn pair_values32_at(self, v: Self::V, next: Self::V, lead: u64) -> Self::V {
        let _ = lead;
        self.pair_values32(v, next)
    }

    /// The 16-bit lanes of `v` that hold a surrogate, one bit a lane.
    #[inline(always)]
    fn surrogates16(self, v: Self::V) -> u64 {
        self.movemask16(self.eq16(self.and(v, self.splat16(0xF800)), self.splat16(0xD800)))
    }

    /// The 16-bit lanes of `v` that hold a lead surrogate followed by a
    /// trail (`next` holds the same lanes one unit on), one bit a lane.
    #[inline(always)]
    fn pair_starts16(self, v: Self::V, next: Self::V) -> u64 {
        let fc00 = self.splat16(0xFC00);
        let lead = self.eq16(self.and(v, fc00), self.splat16(0xD800));
        let trail = self.eq16(self.and(next, fc00), self.splat16(0xDC00));
        self.movemask16(self.and(lead, trail))
    }

    /// Zero.
    fn zero(self) -> Self::V;
    /// Every byte `x`.
    fn splat8(self, x: u8) -> Self::V;
    /// Every 16-bit lane `x`.
    fn splat16(self, x: u16) -> Self::V;
    /// Every 32-bit lane `x`.
    fn splat32(self, x: u32) -> Self::V;

    /// Every 64-bit lane `x`.
    fn splat64(self, x: u64) -> Self::V;
    /// The first 32-bit lane.
    fn first32(self, a: Self::V) -> u32;

    /// Bitwise and.
    fn and(self, a: Self::V, b: Self::V) -> Self::V;
    /// Bitwise or.
    fn or(self, a: Self::V, b: Self::V) -> Self::V;
    /// Bitwise exclusive or.
    fn xor(self, a: Self::V, b: Self::V) -> Self::V;

    /// Bytes: `a + b`, wrapping.
    fn add8(self, a: Self::V, b: Self::V) -> Self::V;
    /// Bytes: `a - b`, wrapping.
    fn sub8(self, a: Self::V, b: Self::V) -> Self::V;
    /// 16-bit lanes: `a + b`, wrapping.
    fn add16(self, a: Self::V, b: Self::V) -> Self::V;
    /// 16-bit lanes: `a - b`, wrapping.
    fn sub16(self, a: Self::V, b: Self::V) -> Self::V;
    /// 32-bit lanes: `a + b`, wrapping.
    fn add32(self, a: Self::V, b: Self::V) -> Self::V;
    /// 32-bit lanes: `a - b`, wrapping.
    fn sub32(self, a: Self::V, b: Self::V) -> Self::V;

    /// Bytes: the mask of `a > b`, signed.
    fn gt_i8(self, a: Self::V, b: Self::V) -> Self::V;
    /// Bytes: the mask of `a == b`.
    fn eq8(self, a: Self::V, b: Self::V) -> Self::V;
    /// 16-bit lanes: the mask of `a == b`.
    fn eq16(self, a: Self::V, b: Self::V) -> Self::V;
    /// 16-bit lanes: the mask of `a > b`, signed.
    fn gt_i16(self, a: Self::V, b: Self::V) -> Self::V;
    /// 32-bit lanes: the mask of `a == b`.
    fn eq32(self, a: Self::V, b: Self::V) -> Self::V;
    /// 32-bit lanes: the mask of `a > b`, signed.
    fn gt_i32(self, a: Self::V, b: Self::V) -> Self::V;
    /// 64-bit lanes: the mask of `a == b`.
    fn eq64(self, a: Self::V, b: Self::V) -> Self::V;
    /// 16-bit lanes: the larger of `a` and `b`, signed.
    fn max_i16(self, a: Self::V, b: Self::V) -> Self::V;
    /// 16-bit lanes: the smaller of `a` and `b`, unsigned.
    fn min_u16(self, a: Self::V, b: Self::V) -> Self::V;
    /// 32-bit lanes: the larger of `a` and `b`, unsigned.
    fn max_u32(self, a: Self::V, b: Self::V) -> Self::V;
    /// Bytes: `a + b`, saturating at `FF` (unsigned).
    fn add_sat_u8(self, a: Self::V, b: Self::V) -> Self::V;
    /// Bytes: `a - b`, saturating at 0 (unsigned).
    fn sub_sat_u8(self, a: Self::V, b: Self::V) -> Self::V;
    /// Bytes: the larger of `a` and `b`, unsigned.
    fn max_u8(self, a: Self::V, b: Self::V) -> Self::V;
    /// Bytes: the smaller of `a` and `b`, signed.
    fn min_i8(self, a: Self::V, b: Self::V) -> Self::V;

    /// Bytes: `table[idx & 15]` within each 128-bit lane, 0 where `idx`
    /// has its top bit set (`pshufb`).
    fn shuffle8(self, table: Self::V, idx: Self::V) -> Self::V;
    /// Bytes, within each 128-bit lane: bytes `N..N + 16` of the lane of
    /// `lo` followed by the lane of `hi` (`palignr`, NEON's `ext`), for
    /// `0 <= N < 16`. With `lo` zero, it moves the lane's bytes up by
    /// `16 - N`; with `hi` the next lane of a stream, it reads `N` bytes on.
    fn alignr8<const N: i32>(self, hi: Self::V, lo: Self::V) -> Self::V;
    /// `!a & b`.
    fn andnot(self, a: Self::V, b: Self::V) -> Self::V;
    /// Bytes: `b` where `m` has its top bit set, else `a`.
    fn blendv8(self, a: Self::V, b: Self::V, m: Self::V) -> Self::V;
    /// 16-bit lanes shifted left by `N`.
    fn shl16<const N: i32>(self, a: Self::V) -> Self::V;
    /// Bytes shifted right by `N` (`1 <= N < 8`), zero-filling (x86 has no
    /// byte shift: a 16-bit one and a mask).
    fn shr8<const N: i32>(self, a: Self::V) -> Self::V;
    /// 16-bit lanes shifted right by `N`, zero-filling.
    fn shr16<const N: i32>(self, a: Self::V) -> Self::V;
    /// 32-bit lanes shifted left by `N`.
    fn shl32<const N: i32>(self, a: Self::V) -> Self::V;
    /// 32-bit lanes shifted right by `N`, zero-filling.
    fn shr32<const N: i32>(self, a: Self::V) -> Self::V;

    /// 64-bit lanes shifted right by `N`, zero-filling.
    fn shr64<const N: i32>(self, a: Self::V) -> Self::V;

    /// Whether `a & b` has a bit set.
    fn test_any(self, a: Self::V, b: Self::V) -> bool;
    /// The top bit of each byte.
    fn movemask8(self, a: Self::V) -> u64;

    /// Loads `BYTES / 2` bytes and zero-extends each into a 16-bit lane.
    ///
    /// # Safety
    ///
    /// `p` is valid for reads of `BYTES / 2` bytes.
    unsafe fn load_widen8to16(self, p: *const u8) -> Self::V;
    /// Loads `BYTES / 4` bytes and zero-extends each into a 32-bit lane.
    ///
    /// # Safety
    ///
    /// `p` is valid for reads of `BYTES / 4` bytes.
    unsafe fn load_widen8to32(self, p: *const u8) -> Self::V;
    /// Loads `BYTES / 8` bytes and zero-extends each into a 64-bit lane.
    ///
    /// # Safety
    ///
    /// `p` is valid for reads of `BYTES / 8` bytes.
    unsafe fn load_widen8to64(self, p: *const u8) -> Self::V;
    /// The 16-bit lanes of `a`, then of `b`, as bytes (each must be below
    /// 256; larger ones below `8000` saturate to `FF`, and from `8000` on
    /// the widths differ: 0 or `FF`).
    fn narrow16(self, a: Self::V, b: Self::V) -> Self::V;
    /// The 32-bit lanes of `a`, `b`, `c`, then `d`, as bytes (each must be
    /// below 256; larger ones below `8000` saturate to `FF`, and from `8000`
    /// on the widths differ: 0 or `FF`).
    fn narrow32(self, a: Self::V, b: Self::V, c: Self::V, d: Self::V) -> Self::V;

    /// The top bit of each 16-bit lane.
    fn movemask16(self, a: Self::V) -> u64;
    /// The top bit of each 32-bit lane.
    fn movemask32(self, a: Self::V) -> u64;
    /// The 16-bit lanes of the first half of `a`, then of the second,
    /// zero-extended to 32 bits.
    fn widen16to32(self, a: Self::V) -> (Self::V, Self::V);
    /// The 32-bit lanes of `a`, then of `b`, as 16-bit lanes (each must be
    /// below `10000`; larger ones below `8000_0000` saturate to `FFFF`, and
    /// from there on the widths differ: 0 or `FFFF`).
    fn narrow32to16(self, a: Self::V, b: Self::V) -> Self::V;
    /// 32-bit lanes shifted right by the counts in `bits`, each 0, 8, 16 or
    /// 24 (`vpsrlvd`; a byte shuffle without AVX2).
    fn shr32_bytes(self, a: Self::V, bits: Self::V) -> Self::V;
    /// Writes the 32-bit lanes of `a` that `m` selects at `dst`, in order,
    /// and then garbage up to `BYTES` bytes in all.
    ///
    /// # Safety
    ///
    /// `dst` is valid for writes of `BYTES` bytes.
    unsafe fn compress32(self, a: Self::V, m: u64, dst: *mut u8);
    /// The 32-bit windows of the bytes at `p`: for each lane `k`, the bytes
    /// at `p + r * BYTES / 4 + k` and the three after it, the first in the
    /// top byte (big-endian).
    ///
    /// # Safety
    ///
    /// `p` is valid for reads of `(r + 1) * BYTES / 4 + 16` bytes, and at
    /// least 32.
    unsafe fn windows32(self, p: *const u8, r: usize) -> Self::V;

    /// The 3-byte groups at `p`, `p + 3`, ... (one a 32-bit lane), the
    /// first byte of each in bits 16..24 and the third in bits 0..8.
    ///
    /// # Safety
    ///
    /// `p` is valid for reads of `max(BYTES, 32)` bytes.
    unsafe fn groups3(self, p: *const u8) -> Self::V;

    /// The 16-byte lane `k` of `a` (`k < BYTES / 16`), as a register of
    /// [`Simd::Base`].
    fn lane(self, a: Self::V, k: usize) -> <Self::Base as Simd>::V;
    /// The 16-byte token that this one implies.
    fn base(self) -> Self::Base;

    /// The sum of the bytes, unsigned.
    fn sum8(self, a: Self::V) -> u64;
    /// The sum of the 16-bit lanes, unsigned.
    fn sum16(self, a: Self::V) -> u64;
    /// The sum of the 32-bit lanes, unsigned.
    fn sum32(self, a: Self::V) -> u64;
}

/// The four registers at `p`.
///
/// Written out rather than with `[0, 1, 2, 3].map(..)`: a closure does not
/// get its caller's target features, and one that LLVM does not inline
/// calls every intrinsic out of line (measured: 10 to 30 times slower).
/// The same goes for every closure in the kernels: none holds a vector
/// operation unless it is `#[inline(always)]`.
///
/// # Safety
///
/// `p` is valid for reads of `4 * BYTES` bytes.
#[inline(always)]
pub unsafe fn load4<S: Simd>(s: S, p: *const u8) -> [S::V; 4] {
    // SAFETY: the caller's guarantee.
    unsafe {
        [
            s.load(p),
            s.load(p.add(S::BYTES)),
            s.load(p.add(2 * S::BYTES)),
            s.load(p.add(3 * S::BYTES)),
        ]
    }
}
