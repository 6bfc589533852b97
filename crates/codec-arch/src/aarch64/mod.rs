//! aarch64: the [`Neon`] token.

/// The NEON token: a zero-sized proof that the CPU has NEON, made only by
/// a function compiled with it (see `x86_64::simd`'s docs for the scheme).
/// NEON is part of every aarch64 target but the `softfloat` ones.
#[derive(Clone, Copy, Debug)]
pub struct Neon(());

impl Neon {
    crate::enable! { neon;
        /// The token.
        ///
        /// # Safety
        ///
        /// Safe to call from code compiled with NEON; elsewhere the caller
        /// must know the CPU has it.
        #[must_use]
        pub fn new() -> Neon {
            Neon(())
        }
    }
}
