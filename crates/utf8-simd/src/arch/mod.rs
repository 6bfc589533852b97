//! Everything that depends on the CPU, and the crate's only `unsafe` code.
//!
//! - `kernel`, `vector`: the Keiser–Lemire check, written once over a small
//!   vector trait.
//! - `x86_64/`: that trait for SSE (16 bytes), AVX2 (32 bytes) and, with the
//!   `avx512` feature, AVX-512 (64 bytes), with `#[target_feature]` entry
//!   points each (`validate` with 256-byte checkpoints, `is_valid` without).
//! - This file: the one dispatch point ([`validate_blocks`] and
//!   [`is_valid_blocks`]) and the per-instruction-set validators [`Sse42`]
//!   and [`Avx2`].
//!
//! With `std`, the first call detects the CPU's features once and caches the
//! chosen kernel in a static `AtomicPtr` to its pair of entry points, which
//! every later call loads and calls (memchr's scheme, with a `static` pair
//! instead of a transmuted function pointer). Without `std` the choice is made at compile
//! time from `cfg(target_feature)`. Every other target uses the portable
//! scalar kernel (utf8-dfa).
//!
//! A kernel returns `Ok(())` for valid input, or `Err(pos)` where
//! `input[..pos]` is a prefix of well-formed UTF-8; `crate::exact` turns
//! that into the exact error.
//!
//! An AVX-512 kernel comes with the `avx512` feature (on by default).
//!
//! On aarch64, `aarch64/` holds the NEON kernel (16 bytes), chosen at
//! compile time wherever the target enables NEON (all but the `softfloat`
//! targets), and named by [`Neon`].

use codec_core::{Utf8Error, Utf8Validator};

#[cfg(all(target_arch = "aarch64", target_feature = "neon"))]
mod aarch64;
#[cfg(any(
    target_arch = "x86_64",
    all(target_arch = "aarch64", target_feature = "neon")
))]
mod kernel;
#[cfg(any(
    target_arch = "x86_64",
    all(target_arch = "aarch64", target_feature = "neon")
))]
mod partial;
#[cfg(any(
    target_arch = "x86_64",
    all(target_arch = "aarch64", target_feature = "neon")
))]
mod vector;
#[cfg(target_arch = "x86_64")]
mod x86_64;

/// The dispatched kernel, with checkpoints: see the module docs for its
/// contract.
#[inline]
pub(crate) fn validate_blocks(input: &[u8]) -> Result<(), usize> {
    dispatch::validate_blocks(input)
}

/// The dispatched kernel without checkpoints: only whether `input` is valid.
#[inline]
pub(crate) fn is_valid_blocks(input: &[u8]) -> bool {
    dispatch::is_valid_blocks(input)
}

#[cfg(all(target_arch = "x86_64", feature = "std"))]
mod dispatch {
    //! Runtime detection, cached in an atomic pointer to the chosen
    //! kernel's pair of entry points.

    use super::x86_64::{avx2, sse42};
    use core::sync::atomic::{AtomicPtr, Ordering};

    /// One kernel's entry points. `unsafe` because the x86 ones need their
    /// CPU features.
    struct Kernel {
        validate: unsafe fn(&[u8]) -> Result<(), usize>,
        is_valid: unsafe fn(&[u8]) -> bool,
    }

    /// The chosen kernel; [`DETECT`] until the first call. It only ever
    /// points to one of the `static`s below.
    static KERNEL: AtomicPtr<Kernel> = AtomicPtr::new(&DETECT as *const Kernel as *mut Kernel);

    static DETECT: Kernel = Kernel {
        validate: |input| detect().validate_checked(input),
        is_valid: |input| detect().is_valid_checked(input),
    };

    static AVX2: Kernel = Kernel {
        // SAFETY: stored in KERNEL only after detecting AVX2.
        validate: |input| unsafe { avx2::validate(input) },
        // SAFETY: as above.
        is_valid: |input| unsafe { avx2::is_valid(input) },
    };

    static SSE42: Kernel = Kernel {
        // SAFETY: stored in KERNEL only after detecting the features.
        validate: |input| unsafe { sse42::validate(input) },
        // SAFETY: as above.
        is_valid: |input| unsafe { sse42::is_valid(input) },
    };

    static PORTABLE: Kernel = Kernel {
        validate: crate::scalar::validate,
        is_valid: crate::scalar::is_valid,
    };

    #[cfg(feature = "avx512")]
    static AVX512: Kernel = Kernel {
        // SAFETY: stored in KERNEL only after detecting the features.
        validate: |input| unsafe { super::x86_64::avx512::validate(input) },
        // SAFETY: as above.
        is_valid: |input| unsafe { super::x86_64::avx512::is_valid(input) },
    };

    impl Kernel {
        fn validate_checked(&'static self, input: &[u8]) -> Result<(), usize> {
            // SAFETY: `detect` returns a kernel whose features it found.
            unsafe { (self.validate)(input) }
        }

        fn is_valid_checked(&'static self, input: &[u8]) -> bool {
            // SAFETY: as in `validate_checked`.
            unsafe { (self.is_valid)(input) }
        }
    }

    /// Chooses the kernel for this CPU and caches it.
    #[cold]
    fn detect() -> &'static Kernel {
        let kernel = choose();
        KERNEL.store(kernel as *const Kernel as *mut Kernel, Ordering::Relaxed);
        kernel
    }

    /// The fastest kernel this CPU can run.
    fn choose() -> &'static Kernel {
        #[cfg(feature = "avx512")]
        if super::x86_64::avx512::is_available() {
            return &AVX512;
        }
        if avx2::is_available() {
            &AVX2
        } else if sse42::is_available() {
            &SSE42
        } else {
            &PORTABLE
        }
    }

    /// The cached kernel.
    #[inline]
    fn kernel() -> &'static Kernel {
        // SAFETY: KERNEL always holds a pointer to one of the `static`
        // kernels above, which live forever and are never written through.
        unsafe { &*KERNEL.load(Ordering::Relaxed) }
    }

    #[inline]
    pub(super) fn validate_blocks(input: &[u8]) -> Result<(), usize> {
        // SAFETY: KERNEL holds `DETECT` or a kernel whose features `detect`
        // found on this CPU.
        unsafe { (kernel().validate)(input) }
    }

    #[inline]
    pub(super) fn is_valid_blocks(input: &[u8]) -> bool {
        // SAFETY: as in `validate_blocks`.
        unsafe { (kernel().is_valid)(input) }
    }
}

#[cfg(all(target_arch = "x86_64", not(feature = "std")))]
mod dispatch {
    //! Compile-time choice, from the features the crate is built with.

    cfg_if::cfg_if! {
        if #[cfg(all(
            feature = "avx512",
            target_feature = "avx512f",
            target_feature = "avx512bw",
            target_feature = "avx2"
        ))] {
            use super::x86_64::avx512 as chosen;
        } else if #[cfg(target_feature = "avx2")] {
            use super::x86_64::avx2 as chosen;
        } else if #[cfg(all(
            target_feature = "sse4.2",
            target_feature = "sse4.1",
            target_feature = "ssse3"
        ))] {
            use super::x86_64::sse42 as chosen;
        } else {
            use crate::scalar as chosen;
        }
    }

    #[inline]
    #[allow(unused_unsafe)] // Calls that the enabled features make safe.
    pub(super) fn validate_blocks(input: &[u8]) -> Result<(), usize> {
        // SAFETY: the crate is compiled with the chosen kernel's features.
        unsafe { chosen::validate(input) }
    }

    #[inline]
    #[allow(unused_unsafe)] // Calls that the enabled features make safe.
    pub(super) fn is_valid_blocks(input: &[u8]) -> bool {
        // SAFETY: the crate is compiled with the chosen kernel's features.
        unsafe { chosen::is_valid(input) }
    }
}

#[cfg(all(target_arch = "aarch64", target_feature = "neon"))]
mod dispatch {
    //! NEON is part of the target: the choice is made at compile time, with
    //! or without `std`, and the calls are direct.

    use super::aarch64::neon;

    #[inline]
    pub(super) fn validate_blocks(input: &[u8]) -> Result<(), usize> {
        neon::validate(input)
    }

    #[inline]
    pub(super) fn is_valid_blocks(input: &[u8]) -> bool {
        neon::is_valid(input)
    }
}

#[cfg(not(any(
    target_arch = "x86_64",
    all(target_arch = "aarch64", target_feature = "neon")
)))]
mod dispatch {
    //! No SIMD kernel for this target: the portable one.

    #[inline]
    pub(super) fn validate_blocks(input: &[u8]) -> Result<(), usize> {
        crate::scalar::validate(input)
    }

    #[inline]
    pub(super) fn is_valid_blocks(input: &[u8]) -> bool {
        crate::scalar::is_valid(input)
    }
}

/// `input` as a `&str`, or the error std would report, with the dispatched
/// kernel.
pub(crate) fn from_utf8(input: &[u8]) -> Result<&str, Utf8Error> {
    crate::validate(input)?;
    // SAFETY: `validate` returned `Ok`: the kernel or the scalar re-check
    // (utf8-dfa) proved `input` well-formed.
    Ok(unsafe { core::str::from_utf8_unchecked(input) })
}

/// Proof that the CPU has a kernel's features; only [`Sse42::new`] and
/// [`Avx2::new`] make one. Off x86-64 it cannot be made at all.
#[derive(Clone, Copy, Debug)]
struct Token(#[cfg(not(target_arch = "x86_64"))] core::convert::Infallible);

macro_rules! isa_validator {
    ($(#[$doc:meta])* $name:ident, $module:ident, $features:literal) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug)]
        pub struct $name(Token);

        impl $name {
            #[doc = concat!("The validator, if this CPU has ", $features, ".")]
            ///
            /// With `std` off, "this CPU" means the features the crate is
            /// compiled for. Always `None` off x86-64.
            pub fn new() -> Option<Self> {
                #[cfg(target_arch = "x86_64")]
                {
                    x86_64::$module::is_available().then_some($name(Token()))
                }
                #[cfg(not(target_arch = "x86_64"))]
                {
                    None
                }
            }

            #[doc = concat!("Whether [`", stringify!($name), "::new`] returns `Some`.")]
            pub fn is_available() -> bool {
                Self::new().is_some()
            }

            /// The kernel's raw answer (see `arch`'s docs).
            fn blocks(&self, input: &[u8]) -> Result<(), usize> {
                #[cfg(target_arch = "x86_64")]
                {
                    let $name(Token()) = *self;
                    // SAFETY: a value of this type exists only if `new` found
                    // the kernel's features on this CPU.
                    unsafe { x86_64::$module::validate(input) }
                }
                #[cfg(not(target_arch = "x86_64"))]
                {
                    let _ = input;
                    match self.0.0 {}
                }
            }
        }

        impl Utf8Validator for $name {
            fn validate(&self, input: &[u8]) -> Result<(), Utf8Error> {
                crate::validate_with(input, |input| self.blocks(input))
            }

            fn is_valid(&self, input: &[u8]) -> bool {
                crate::is_valid_with(input, |input| {
                    #[cfg(target_arch = "x86_64")]
                    {
                        let $name(Token()) = *self;
                        // SAFETY: a value of this type exists only if `new`
                        // found the kernel's features on this CPU.
                        unsafe { x86_64::$module::is_valid(input) }
                    }
                    #[cfg(not(target_arch = "x86_64"))]
                    {
                        let _ = input;
                        match self.0.0 {}
                    }
                })
            }

            fn from_utf8<'a>(&self, input: &'a [u8]) -> Result<&'a str, Utf8Error> {
                self.validate(input)?;
                // SAFETY: `validate` returned `Ok`: the kernel or the scalar
                // re-check (utf8-dfa) proved `input` well-formed.
                Ok(unsafe { core::str::from_utf8_unchecked(input) })
            }
        }
    };
}

isa_validator!(
    /// The SSE kernel (16-byte registers; needs SSSE3, SSE4.1 and SSE4.2),
    /// named explicitly, for tests and benchmarks. Short inputs take the
    /// dispatched functions' short paths, the rest this kernel.
    Sse42,
    sse42,
    "SSSE3, SSE4.1 and SSE4.2"
);

#[cfg(feature = "avx512")]
isa_validator!(
    /// The AVX-512 kernel (64-byte registers; needs AVX-512 F and BW), named
    /// explicitly, for tests and benchmarks. Only with the `avx512` feature.
    /// Short inputs take the dispatched functions' short paths, the rest
    /// this kernel.
    Avx512,
    avx512,
    "AVX-512 F and BW"
);

isa_validator!(
    /// The AVX2 kernel (32-byte registers), named explicitly, for tests and
    /// benchmarks. Short inputs take the dispatched functions' short
    /// paths, the rest this kernel.
    Avx2,
    avx2,
    "AVX2"
);

/// The NEON kernel (16-byte registers, aarch64), named explicitly, for tests
/// and benchmarks. Short inputs take the dispatched functions' short
/// paths, the rest this kernel.
///
/// On aarch64 NEON is part of the target (all but the `softfloat` ones), so
/// [`Neon::new`] returns `Some` there and the dispatched functions of this
/// crate use this kernel without any run-time check.
#[derive(Clone, Copy, Debug)]
pub struct Neon(NeonToken);

/// Proof that the build targets NEON; uninhabited elsewhere.
#[derive(Clone, Copy, Debug)]
struct NeonToken(
    #[cfg(not(all(target_arch = "aarch64", target_feature = "neon")))] core::convert::Infallible,
);

impl Neon {
    /// The validator, if the crate is built for aarch64 with NEON (always
    /// `None` elsewhere).
    #[must_use]
    pub fn new() -> Option<Self> {
        #[cfg(all(target_arch = "aarch64", target_feature = "neon"))]
        {
            Some(Neon(NeonToken()))
        }
        #[cfg(not(all(target_arch = "aarch64", target_feature = "neon")))]
        {
            None
        }
    }

    /// Whether [`Neon::new`] returns `Some`.
    #[must_use]
    pub fn is_available() -> bool {
        Self::new().is_some()
    }

    /// The kernel's raw answer (see the module docs).
    fn blocks(&self, input: &[u8]) -> Result<(), usize> {
        #[cfg(all(target_arch = "aarch64", target_feature = "neon"))]
        {
            let Neon(NeonToken()) = *self;
            aarch64::neon::validate(input)
        }
        #[cfg(not(all(target_arch = "aarch64", target_feature = "neon")))]
        {
            let _ = input;
            match self.0.0 {}
        }
    }
}

impl Utf8Validator for Neon {
    fn validate(&self, input: &[u8]) -> Result<(), Utf8Error> {
        crate::validate_with(input, |input| self.blocks(input))
    }

    fn is_valid(&self, input: &[u8]) -> bool {
        crate::is_valid_with(input, |input| {
            #[cfg(all(target_arch = "aarch64", target_feature = "neon"))]
            {
                let Neon(NeonToken()) = *self;
                aarch64::neon::is_valid(input)
            }
            #[cfg(not(all(target_arch = "aarch64", target_feature = "neon")))]
            {
                let _ = input;
                match self.0.0 {}
            }
        })
    }

    fn from_utf8<'a>(&self, input: &'a [u8]) -> Result<&'a str, Utf8Error> {
        self.validate(input)?;
        // SAFETY: `validate` returned `Ok`: the kernel or the scalar re-check
        // (utf8-dfa) proved `input` well-formed.
        Ok(unsafe { core::str::from_utf8_unchecked(input) })
    }
}

#[cfg(all(test, feature = "std"))]
mod tests {
    //! The kernels' raw contract: `Err(pos)` with a valid prefix before
    //! `pos`, and `pos` close to the error.

    use super::*;

    /// The raw kernel entry points (with checkpoints) this CPU can run.
    #[allow(clippy::type_complexity)]
    fn raw_kernels() -> std::vec::Vec<(&'static str, fn(&[u8]) -> Result<(), usize>)> {
        #[allow(unused_mut)]
        let mut v: std::vec::Vec<(&'static str, fn(&[u8]) -> Result<(), usize>)> =
            std::vec![("portable", crate::scalar::validate)];
        #[cfg(target_arch = "x86_64")]
        {
            if x86_64::sse42::is_available() {
                // SAFETY: the features were just detected.
                v.push(("sse42", |i| unsafe { x86_64::sse42::validate(i) }));
            }
            if x86_64::avx2::is_available() {
                // SAFETY: as above.
                v.push(("avx2", |i| unsafe { x86_64::avx2::validate(i) }));
            }
            #[cfg(feature = "avx512")]
            if x86_64::avx512::is_available() {
                // SAFETY: as above.
                v.push(("avx512", |i| unsafe { x86_64::avx512::validate(i) }));
            }
        }
        #[cfg(all(target_arch = "aarch64", target_feature = "neon"))]
        v.push(("neon", aarch64::neon::validate));
        v
    }

    /// The 256-byte checkpoints hold whatever the input's address: for a
    /// start at every offset of a 64-byte line, after an ASCII run long
    /// enough to be realigned, the reported position is at most one group
    /// (`kernel::GROUP`, 256 bytes) before std's `valid_up_to` (and at most
    /// 3 bytes after it, inside the character that fails), and the prefix
    /// before it is valid. Before the fix, every misaligned start
    /// reported the start of the non-ASCII run, thousands of bytes early.
    #[test]
    fn checkpoints_survive_any_start_address() {
        const GROUP: usize = 256;
        let text = "é".repeat(3000); // 6000 bytes, one non-ASCII run
        let kernels = raw_kernels();
        assert!(
            kernels.len() >= 2 || cfg!(not(any(target_arch = "x86_64", target_arch = "aarch64")))
        );
        let mut storage = std::vec![0u8; 8192 + 128];
        for ascii in [256, 300, 1000] {
            for bad_at in [0, 1, 255, 256, 1001, 4095, 5998] {
                let mut input = std::vec![b'a'; ascii];
                input.extend_from_slice(text.as_bytes());
                input[ascii + bad_at] = 0xFF;
                let want = core::str::from_utf8(&input).unwrap_err().valid_up_to();
                for offset in 0..64 {
                    let base = storage.as_ptr().addr();
                    let start = (64 - base % 64) % 64 + offset;
                    let buf = &mut storage[start..start + input.len()];
                    buf.copy_from_slice(&input);
                    for (name, kernel) in &kernels {
                        let pos = kernel(buf).unwrap_err();
                        assert!(
                            pos <= want + 3 && want.saturating_sub(pos) <= GROUP,
                            "{name}: reported {pos} for an error at {want} (ASCII {ascii}, address offset {offset})"
                        );
                        if let Err(e) = core::str::from_utf8(&buf[..pos]) {
                            assert_eq!(e.error_len(), None, "{name}: invalid before {pos}");
                        }
                    }
                }
            }
        }
    }
}
