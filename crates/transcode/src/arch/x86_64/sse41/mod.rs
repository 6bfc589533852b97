//! The SSE4.1 kernels (with SSSE3 and POPCNT), one file per family (see
//! `arch`'s docs), and their table entries.

pub(crate) mod count;
pub(crate) mod latin1;
pub(crate) mod utf16_utf8;
pub(crate) mod utf32;
pub(crate) mod utf8_utf16;

/// Valid UTF-8 to native UTF-16: the table entry.
#[target_feature(enable = "ssse3,sse4.1,popcnt")]
pub(crate) fn utf8_to_utf16(src: &[u8], dst: &mut [u16]) -> (usize, usize) {
    // SAFETY: this function has the features `convert` needs, and `dst` is
    // valid for `dst.len()` units.
    unsafe { utf8_utf16::convert::<false>(src, dst.as_mut_ptr(), dst.len()) }
}

/// The ASCII prefix of any bytes to native UTF-16: the table entry.
#[target_feature(enable = "ssse3,sse4.1,popcnt")]
pub(crate) fn ascii_to_utf16(src: &[u8], dst: &mut [u16]) -> (usize, usize) {
    // SAFETY: this function has the features `ascii_prefix` needs, and
    // `dst` is valid for `dst.len()` units.
    unsafe { utf8_utf16::ascii_prefix::<false>(src, dst.as_mut_ptr(), dst.len()) }
}

/// Valid UTF-8 to UTF-16 in bytes, swapped if `SWAP`: the table entry.
#[target_feature(enable = "ssse3,sse4.1,popcnt")]
pub(crate) fn utf8_to_utf16_bytes<const SWAP: bool>(
    src: &[u8],
    dst: &mut [[u8; 2]],
) -> (usize, usize) {
    // SAFETY: as above; `convert` writes `dst` with unaligned stores only.
    unsafe { utf8_utf16::convert::<SWAP>(src, dst.as_mut_ptr().cast(), dst.len()) }
}

/// Native UTF-16 to UTF-8: the table entry.
#[target_feature(enable = "ssse3,sse4.1,popcnt")]
pub(crate) fn utf16_to_utf8(src: &[u16], dst: &mut [u8]) -> (usize, usize) {
    // SAFETY: this function has the features `convert` needs, and `src` is
    // valid for `src.len()` units.
    unsafe { utf16_utf8::convert::<false>(src.as_ptr(), src.len(), dst) }
}

/// UTF-16 in bytes, swapped if `SWAP`, to UTF-8: the table entry.
#[target_feature(enable = "ssse3,sse4.1,popcnt")]
pub(crate) fn utf16_bytes_to_utf8<const SWAP: bool>(
    src: &[[u8; 2]],
    dst: &mut [u8],
) -> (usize, usize) {
    // SAFETY: as above; `convert` reads `src` with unaligned loads only.
    unsafe { utf16_utf8::convert::<SWAP>(src.as_ptr().cast(), src.len(), dst) }
}
