//! aarch64 kernels: [`neon`] (16-byte registers), an instance of the generic
//! kernel in `arch::kernel`, compiled wherever the target enables NEON (every
//! aarch64 target but the `softfloat` ones).

pub(crate) mod neon;
