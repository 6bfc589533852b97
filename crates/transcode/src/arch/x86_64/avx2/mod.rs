//! The AVX2 kernels, one file per family (see `arch`'s docs), and their
//! table entries: safe `#[target_feature]` functions, which only the
//! dispatch (or a `Transcoder` made after detection) calls.

pub(crate) mod count;

codec_arch::enable! { avx2;
    /// The ASCII prefix of any bytes to UTF-32: the table entry.
    pub(crate) fn ascii_to_utf32(src: &[u8], dst: &mut [u32]) -> (usize, usize) {
        // SAFETY: this function has the features `ascii_prefix` needs, and
        // `dst` is valid for `dst.len()` units.
        unsafe { crate::arch::generic::utf8_utf16::ascii_prefix::<_, super::lanes::Utf32Out>(
            codec_arch::x86_64::Avx2::new(),
            src,
            dst.as_mut_ptr(),
            dst.len(),
        ) }
    }
}

codec_arch::enable! { avx2;
    /// Valid UTF-8 to UTF-32: the table entry. The UTF-8 → UTF-16 kernel with
    /// its units widened (`generic::utf8_utf16`'s docs say why not
    /// `generic::utf32`'s).
    pub(crate) fn utf8_to_utf32(src: &[u8], dst: &mut [u32]) -> (usize, usize) {
        // SAFETY: this function has the features `convert` needs, and `dst` is
        // valid for `dst.len()` units.
        unsafe { crate::arch::generic::utf8_utf16::convert::<_, super::lanes::Utf32Out>(
            codec_arch::x86_64::Avx2::new(),
            src,
            dst.as_mut_ptr(),
            dst.len(),
        ) }
    }
}

codec_arch::enable! { avx2;
    /// UTF-32 to UTF-8, up to an invalid unit: the table entry. Blocks of the
    /// BMP go through the UTF-16 kernel's conversion
    /// ([`bmp_from_utf32`](crate::arch::generic::utf16_utf8::bmp_from_utf32)); from the first
    /// block that is not BMP text, the general UTF-32 kernel (`generic::utf32`)
    /// takes the rest.
    pub(crate) fn utf32_to_utf8(src: &[u32], dst: &mut [u8]) -> (usize, usize) {
        let (r, w) = bmp_from_utf32(src, dst);
        let (Some(rest), Some(out)) = (src.get(r..), dst.get_mut(w..)) else {
            return (r, w);
        };
        let (r2, w2) = utf32::utf32_to_utf8(rest, out);
        (r + r2, w + w2)
    }
}

crate::arch::generic::utf16_utf8::kernels!(x86_64::Avx2, avx2);
crate::arch::generic::utf8_utf16::kernels!(x86_64::Avx2, avx2);

codec_arch::enable! { avx2;
    /// [`bmp_from_utf32`](crate::arch::generic::utf16_utf8::bmp_from_utf32) with 32-byte
    /// registers, a function of its own with AVX2's features: the AVX-512 table
    /// calls it too, and the generic code inlined into the AVX-512 entry (where
    /// LLVM may rewrite the AVX2 operations with AVX-512 ones) ran CJK text
    /// 17-21% slower (Xeon, 64 KiB and 1 MiB).
    pub(crate) fn bmp_from_utf32(src: &[u32], dst: &mut [u8]) -> (usize, usize) {
        crate::arch::generic::utf16_utf8::bmp_from_utf32(codec_arch::x86_64::Avx2::new(), src, dst)
    }
}
pub(crate) mod latin1;
pub(crate) mod utf32;
