//! The AVX-512 kernels (F, BW and VL, with AVX2, BMI1, BMI2 and POPCNT), one
//! file per family (see `arch`'s docs). A family without an AVX-512 kernel
//! uses the AVX2 one: the table falls back to the AVX2 table's entries.

pub(crate) mod count;
pub(crate) mod latin1;
pub(crate) mod utf32;

codec_arch::enable! { avx512;
    /// UTF-32 to UTF-8, up to an invalid unit: the table entry. Blocks of the
    /// BMP go through the AVX2 table's path
    /// ([`super::avx2::bmp_from_utf32`]); from the first block
    /// that is not BMP text, this table's general kernel (`generic::utf32` with
    /// 64-byte registers) takes the rest.
    ///
    /// Measured (interleaved min of 30 rounds, load 8.7, Intel Xeon Skylake-SP
    /// class): the AVX2 path alone was 1.2-1.5 times the AVX-512 general
    /// kernel on Hindi, Japanese and Korean at 64 KiB and 1 MiB and on ASCII
    /// at 64 KiB, 0.96-0.99 on Arabic, Hebrew, Russian and the Latin-1 text at
    /// 64 KiB; 0.66-0.75 on Emoji, which the general kernel keeps.
    pub(crate) fn utf32_to_utf8(src: &[u32], dst: &mut [u8]) -> (usize, usize) {
        let (r, w) = super::avx2::bmp_from_utf32(src, dst);
        let (Some(rest), Some(out)) = (src.get(r..), dst.get_mut(w..)) else {
            return (r, w);
        };
        let (r2, w2) = utf32::utf32_to_utf8(rest, out);
        (r + r2, w + w2)
    }
}
