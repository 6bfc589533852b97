//! The SSE4.1 UTF-32 kernels: `generic::utf32` with 16-byte registers.

crate::arch::generic::utf32::kernels!(x86_64::Sse41, sse41);

codec_arch::enable! { sse41;
    /// Valid UTF-8 to UTF-32.
    pub(crate) fn utf8_to_utf32(src: &[u8], dst: &mut [u32]) -> (usize, usize) {
        utf32::utf8_to_utf32(Sse41::new(), src, dst)
    }
}
