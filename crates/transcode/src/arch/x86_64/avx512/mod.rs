//! The avx512 kernels, one file per family (see `arch`'s docs).

/// Whether this CPU can run the avx512 kernels.
pub(crate) fn is_available() -> bool {
    super::avx512_available()
}

pub(crate) mod count;
pub(crate) mod latin1;
pub(crate) mod utf32;
