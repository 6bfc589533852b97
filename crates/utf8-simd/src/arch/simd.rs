//! The vector operations of the check: codec-arch's token-based [`Simd`]
//! (the workspace's one vector trait), and [`CheckSimd`], the few the
//! Keiser–Lemire check needs on top of it, implemented by each kernel's
//! token (`x86_64/`: `Sse41`, `Avx2`, `Avx512`; `aarch64/`: `Neon`).
//!
//! As in codec-arch, an operation is safe given its token (the token
//! proves the CPU features); only memory accesses are `unsafe`.

pub(crate) use codec_arch::Simd;

/// The operations of the check that [`Simd`] lacks: the lane-crossing
/// "bytes before" shifts, a zero-filled partial load, and a few byte
/// operations and tests that only these kernels use.
pub(crate) trait CheckSimd: Simd {
    /// The `n < BYTES` bytes at `p`, then zeros, without reading past
    /// `p + n` and without a round trip through memory (a zero-padded
    /// copy on the stack measured 20 ns per call from the failed store
    /// forwarding of byte-wise copies into a vector load).
    ///
    /// # Safety
    ///
    /// `n < BYTES`, and `p` is valid for reads of `n` bytes.
    unsafe fn load_partial(self, p: *const u8, n: usize) -> Self::V;

    /// The bytes of `cur` moved up by 1, with the last byte of `prev` in
    /// front: byte `i` of the result is the byte before byte `i` of `cur`.
    fn prev1(self, cur: Self::V, prev: Self::V) -> Self::V;
    /// As [`prev1`](CheckSimd::prev1), 2 bytes back.
    fn prev2(self, cur: Self::V, prev: Self::V) -> Self::V;
    /// As [`prev1`](CheckSimd::prev1), 3 bytes back.
    fn prev3(self, cur: Self::V, prev: Self::V) -> Self::V;

    /// Bytes: `table[idx]` within each 128-bit lane, for indices below 16
    /// (the check's are nibbles): [`Simd::shuffle8`] without its case of
    /// an index with the top bit set, which NEON's `tbl` pays an AND for.
    #[inline(always)]
    fn lookup(self, table: Self::V, idx: Self::V) -> Self::V {
        self.shuffle8(table, idx)
    }

    /// Whether no byte has its high bit set.
    fn is_ascii(self, a: Self::V) -> bool;
    /// Whether every byte, read as signed, is above zero: `01..=7F` (ASCII
    /// without `00`). With [`Simd::min_i8`] it tests many
    /// registers for both at one operation each, where an OR for the high
    /// bit and a test for zero take two.
    fn all_positive(self, a: Self::V) -> bool;

    /// Whether any bit of `a` is set.
    #[inline(always)]
    fn any(self, a: Self::V) -> bool {
        self.test_any(a, a)
    }

    /// A hint to bring the cache line at `p` into L1, for a kernel that
    /// will read it soon. Does nothing unless the implementation says
    /// otherwise. `p` may be past the end of the input: a prefetch never
    /// faults, and `p` is never dereferenced.
    #[inline(always)]
    fn prefetch(self, p: *const u8) {
        let _ = p;
    }
}
