//! aarch64 kernels: [`neon`], the generic kernel of `arch::kernel` over
//! four 16-byte NEON registers a window.

pub(crate) mod neon;
pub(crate) mod shuffle;
