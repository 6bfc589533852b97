//! The small vector trait the kernel is written against, so that the error
//! logic exists once (in [`super::kernel`]) and each instruction set only
//! supplies a dozen one-instruction operations.
//!
//! Every method is `#[inline(always)]` in the implementations and `unsafe`:
//! the implementations call intrinsics that need a CPU feature, and they are
//! only sound inside a function compiled with that feature (the
//! `#[target_feature]` entry points in `x86_64/`). Inlining them there lets
//! LLVM emit the instructions directly.

/// A SIMD register of `BYTES` bytes.
///
/// # Safety
///
/// Implementors promise that every method is sound whenever the CPU has the
/// features named in the implementation's docs; callers promise to call the
/// methods only from code that runs with those features.
pub(crate) unsafe trait Vector: Copy {
    /// The register width in bytes: 16, 32 or 64.
    const BYTES: usize;

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

    /// A hint to bring the cache line at `ptr` into L1, for a kernel that
    /// will read it soon. Does nothing unless the implementation says
    /// otherwise. `ptr` may be past the end of the input: a prefetch never
    /// faults, and `ptr` is never dereferenced.
    ///
    /// # Safety
    ///
    /// The CPU has the implementation's features.
    #[inline(always)]
    unsafe fn prefetch(ptr: *const u8) {
        let _ = ptr;
    }
}
