//! The sse42 kernels, one file per family (see `arch`'s docs).

/// Whether this CPU can run the sse42 kernels.
pub(crate) fn is_available() -> bool {
    super::sse42_available()
}

pub(crate) mod count;
pub(crate) mod latin1;
pub(crate) mod utf32;
