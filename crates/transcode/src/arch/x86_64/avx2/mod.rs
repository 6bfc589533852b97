//! The avx2 kernels, one file per family (see `arch`'s docs).

/// Whether this CPU can run the avx2 kernels.
pub(crate) fn is_available() -> bool {
    super::avx2_available()
}

pub(crate) mod count;
