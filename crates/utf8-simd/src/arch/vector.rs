//! The NEON kernel's vector operations, until codec-arch's token-based
//! `Simd` (the workspace's one vector trait, which the x86-64 kernels use)
//! has a NEON implementation: [`Vector`], implemented for `uint8x16_t` in
//! `aarch64/neon.rs`, and [`Simd`], a stand-in for codec-arch's trait with
//! the same names for the operations the check uses, implemented for
//! codec-arch's `Neon` token on top of `Vector`. The check (`kernel.rs`,
//! `variants.rs`) is written once over `Simd` and `simd::CheckSimd`, so
//! that moving NEON to codec-arch's `Simd` deletes this file and touches
//! no kernel.
//!
//! `Vector`'s methods are `#[inline(always)]` in the implementation and
//! `unsafe`: they call intrinsics that need NEON, sound only where the CPU
//! has it (every aarch64 target this module is compiled for).

/// codec-arch's `Simd`, as far as the check uses it, for the NEON token
/// (see the module docs): same names, same meanings. Operations are safe
/// given the token; only memory accesses are `unsafe`.
pub(crate) trait Simd: Copy {
    /// The vector register.
    type V: Copy;
    /// Bytes in a register.
    const BYTES: usize;

    /// Loads `BYTES` bytes.
    ///
    /// # Safety
    ///
    /// `p` is valid for reads of `BYTES` bytes (at any alignment).
    unsafe fn load(self, p: *const u8) -> Self::V;
    /// The 16 bytes of `t` in every 128-bit lane.
    fn broadcast16(self, t: &[u8; 16]) -> Self::V;
    /// Zero.
    fn zero(self) -> Self::V;
    /// Every byte `x`.
    fn splat8(self, x: u8) -> Self::V;
    /// Bitwise and.
    fn and(self, a: Self::V, b: Self::V) -> Self::V;
    /// Bitwise or.
    fn or(self, a: Self::V, b: Self::V) -> Self::V;
    /// Bitwise exclusive or.
    fn xor(self, a: Self::V, b: Self::V) -> Self::V;
    /// Bytes shifted right by `N` (`0 <= N < 8`), zero-filling.
    fn shr8<const N: i32>(self, a: Self::V) -> Self::V;
    /// Bytes: `table[idx]` within each 128-bit lane for `idx < 16` (the
    /// check's indices are nibbles).
    fn shuffle8(self, table: Self::V, idx: Self::V) -> Self::V;
    /// Whether `a & b` has a bit set.
    fn test_any(self, a: Self::V, b: Self::V) -> bool;
}

/// A NEON register's operations (see the module docs).
///
/// # Safety
///
/// Implementors promise that every method is sound whenever the CPU has the
/// features named in the implementation's docs; callers promise to call the
/// methods only from code that runs with those features.
pub(crate) unsafe trait Vector: Copy {
    /// Every byte `b`.
    ///
    /// # Safety
    ///
    /// The CPU has the implementation's features.
    unsafe fn splat(b: u8) -> Self;

    /// The 16-byte table `t` in every 128-bit lane, for [`Vector::lookup`].
    ///
    /// # Safety
    ///
    /// The CPU has the implementation's features.
    unsafe fn table(t: &[u8; 16]) -> Self;

    /// `BYTES` bytes from `ptr`, which need not be aligned.
    ///
    /// # Safety
    ///
    /// The CPU has the implementation's features, and `ptr` is valid for
    /// reads of `BYTES` bytes.
    unsafe fn load(ptr: *const u8) -> Self;

    /// The `n < BYTES` bytes at `ptr`, then zeros, without reading past
    /// `ptr + n` and without a round trip through memory (a zero-padded
    /// copy on the stack measured 20 ns per call from the failed store
    /// forwarding of byte-wise copies into a vector load).
    ///
    /// # Safety
    ///
    /// The CPU has the implementation's features, `n < BYTES`, and `ptr` is
    /// valid for reads of `n` bytes.
    unsafe fn load_partial(ptr: *const u8, n: usize) -> Self;

    /// Bitwise OR.
    ///
    /// # Safety
    ///
    /// The CPU has the implementation's features.
    unsafe fn or(self, other: Self) -> Self;

    /// Bitwise AND.
    ///
    /// # Safety
    ///
    /// The CPU has the implementation's features.
    unsafe fn and(self, other: Self) -> Self;

    /// Bitwise XOR.
    ///
    /// # Safety
    ///
    /// The CPU has the implementation's features.
    unsafe fn xor(self, other: Self) -> Self;

    /// Each byte shifted right by 4: its high nibble.
    ///
    /// # Safety
    ///
    /// The CPU has the implementation's features.
    unsafe fn high_nibbles(self) -> Self;

    /// Each byte saturating-minus the matching byte of `other`.
    ///
    /// # Safety
    ///
    /// The CPU has the implementation's features.
    unsafe fn saturating_sub(self, other: Self) -> Self;

    /// `self` used as a 16-entry table indexed by each byte of `idx` (whose
    /// values are `0..=15`), lane by lane: `pshufb`.
    ///
    /// # Safety
    ///
    /// The CPU has the implementation's features.
    unsafe fn lookup(self, idx: Self) -> Self;

    /// The bytes of `self` moved up by 1, with the last byte of `prev` in
    /// front: byte `i` of the result is the byte before byte `i` of `self`.
    ///
    /// # Safety
    ///
    /// The CPU has the implementation's features.
    unsafe fn prev1(self, prev: Self) -> Self;

    /// As [`Vector::prev1`], 2 bytes back.
    ///
    /// # Safety
    ///
    /// The CPU has the implementation's features.
    unsafe fn prev2(self, prev: Self) -> Self;

    /// As [`Vector::prev1`], 3 bytes back.
    ///
    /// # Safety
    ///
    /// The CPU has the implementation's features.
    unsafe fn prev3(self, prev: Self) -> Self;

    /// Whether no byte has its high bit set.
    ///
    /// # Safety
    ///
    /// The CPU has the implementation's features.
    unsafe fn is_ascii(self) -> bool;
    /// The bytewise minimum, the bytes read as signed (`i8`).
    ///
    /// # Safety
    ///
    /// The CPU has the implementation's features.
    unsafe fn min_signed(self, other: Self) -> Self;
    /// Whether every byte, read as signed, is above zero: `01..=7F` (ASCII
    /// without `00`). With [`min_signed`](Vector::min_signed) it tests many
    /// registers for both at one operation each, where an OR for the high
    /// bit and a test for zero take two.
    ///
    /// # Safety
    ///
    /// The CPU has the implementation's features.
    unsafe fn all_positive(self) -> bool;

    /// Whether any bit is set.
    ///
    /// # Safety
    ///
    /// The CPU has the implementation's features.
    unsafe fn any(self) -> bool;
}
