//! Loading the last few bytes of an input into a register without reading
//! past its end: the one routine every kernel's partial load builds on
//! (`CheckSimd::load_partial` of SSE4.1, AVX2 and AVX-512 on x86-64, and of
//! NEON on aarch64).

/// The `n <= 16` bytes at `ptr`, then zeros, as two little-endian words
/// `(bytes 0..8, bytes 8..16)`, read with at most three overlapping scalar
/// loads and never past `ptr + n`.
///
/// # Safety
///
/// `n <= 16` and `ptr` is valid for reads of `n` bytes.
#[inline(always)]
pub(crate) unsafe fn partial_words(ptr: *const u8, n: usize) -> (u64, u64) {
    // SAFETY: every read below lies within `ptr..ptr + n`, as the branch
    // conditions on `n` show.
    unsafe {
        let u64_at = |i: usize| u64::from_le(ptr.add(i).cast::<u64>().read_unaligned());
        let u32_at = |i: usize| u64::from(u32::from_le(ptr.add(i).cast::<u32>().read_unaligned()));
        let u8_at = |i: usize| u64::from(*ptr.add(i));
        if n >= 8 {
            // The second word ends at the last byte; shift out the bytes it
            // shares with the first.
            let hi = if n > 8 {
                u64_at(n - 8) >> ((16 - n) * 8)
            } else {
                0
            };
            (u64_at(0), hi)
        } else if n >= 4 {
            (u32_at(0) | (u32_at(n - 4) >> ((8 - n) * 8)) << 32, 0)
        } else if n > 0 {
            // Bytes 0, n / 2 and n - 1 cover every byte for n in 1..=3.
            let mid = n / 2;
            (
                u8_at(0) | u8_at(mid) << (8 * mid) | u8_at(n - 1) << (8 * (n - 1)),
                0,
            )
        } else {
            (0, 0)
        }
    }
}
