//! Everything that depends on the CPU, and the crate's only `unsafe` code.
//!
//! - `kernel`, `vector`: the Keiser–Lemire check, written once over a small
//!   vector trait.
//! - `x86_64/`: that trait for SSE (16 bytes) and AVX2 (32 bytes), with a
//!   `#[target_feature]` entry point each.
//! - This file: the one dispatch point, [`validate_blocks`], and the
//!   per-instruction-set validators [`Sse42`] and [`Avx2`].
//!
//! With `std`, the first call detects the CPU's features once and caches the
//! chosen kernel in a static function pointer, which every later call loads
//! and calls (memchr's scheme). Without `std` the choice is made at compile
//! time from `cfg(target_feature)`. Every other target uses the portable
//! scalar kernel (utf8-dfa).
//!
//! A kernel returns `Ok(())` for valid input, or `Err(pos)` where
//! `input[..pos]` is a prefix of well-formed UTF-8; `crate::exact` turns
//! that into the exact error.
//!
//! An AVX-512 kernel comes with the `avx512` feature (Rust 1.89 or later).
//! NEON is not written: it could not be built or run on the machines this
//! crate is tested on.

use codec_core::{Utf8Error, Utf8Validator};

#[cfg(target_arch = "x86_64")]
mod kernel;
#[cfg(target_arch = "x86_64")]
mod vector;
#[cfg(target_arch = "x86_64")]
mod x86_64;

/// The dispatched kernel: see the module docs for its contract.
#[inline]
pub(crate) fn validate_blocks(input: &[u8]) -> Result<(), usize> {
    dispatch::validate_blocks(input)
}

#[cfg(all(target_arch = "x86_64", feature = "std"))]
mod dispatch {
    //! Runtime detection, cached in an atomic function pointer.

    use super::x86_64::{avx2, sse42};
    use core::sync::atomic::{AtomicPtr, Ordering};

    /// A kernel. `unsafe` because the x86 ones need their CPU features.
    type Kernel = unsafe fn(&[u8]) -> Result<(), usize>;

    /// The chosen kernel; [`detect`] until the first call.
    static KERNEL: AtomicPtr<()> = AtomicPtr::new(detect as Kernel as *mut ());

    /// # Safety
    ///
    /// The CPU has AVX2.
    unsafe fn avx2_kernel(input: &[u8]) -> Result<(), usize> {
        // SAFETY: the caller guarantees AVX2.
        unsafe { avx2::validate(input) }
    }

    /// # Safety
    ///
    /// The CPU has SSSE3, SSE4.1 and SSE4.2.
    unsafe fn sse42_kernel(input: &[u8]) -> Result<(), usize> {
        // SAFETY: the caller guarantees the features.
        unsafe { sse42::validate(input) }
    }

    /// # Safety
    ///
    /// The CPU has AVX-512 F and BW and AVX2.
    #[cfg(feature = "avx512")]
    unsafe fn avx512_kernel(input: &[u8]) -> Result<(), usize> {
        // SAFETY: the caller guarantees the features.
        unsafe { super::x86_64::avx512::validate(input) }
    }

    /// Chooses the kernel, caches it, and runs it once.
    fn detect(input: &[u8]) -> Result<(), usize> {
        #[cfg(feature = "avx512")]
        if super::x86_64::avx512::is_available() {
            KERNEL.store(avx512_kernel as Kernel as *mut (), Ordering::Relaxed);
            // SAFETY: the features were just detected.
            return unsafe { avx512_kernel(input) };
        }
        let kernel: Kernel = if avx2::is_available() {
            avx2_kernel
        } else if sse42::is_available() {
            sse42_kernel
        } else {
            crate::scalar::validate_blocks
        };
        KERNEL.store(kernel as *mut (), Ordering::Relaxed);
        // SAFETY: `kernel` needs at most the features just detected.
        unsafe { kernel(input) }
    }

    #[inline]
    pub(super) fn validate_blocks(input: &[u8]) -> Result<(), usize> {
        let kernel = KERNEL.load(Ordering::Relaxed);
        // SAFETY: KERNEL only ever holds a `Kernel` cast to `*mut ()`.
        let kernel = unsafe { core::mem::transmute::<*mut (), Kernel>(kernel) };
        // SAFETY: KERNEL holds `detect` or a kernel whose features `detect`
        // found on this CPU.
        unsafe { kernel(input) }
    }
}

#[cfg(all(target_arch = "x86_64", not(feature = "std")))]
mod dispatch {
    //! Compile-time choice, from the features the crate is built with.

    #[inline]
    #[allow(unused_unsafe)] // Calls that the enabled features make safe.
    pub(super) fn validate_blocks(input: &[u8]) -> Result<(), usize> {
        cfg_if::cfg_if! {
            if #[cfg(all(
                feature = "avx512",
                target_feature = "avx512f",
                target_feature = "avx512bw",
                target_feature = "avx2"
            ))] {
                // SAFETY: the crate is compiled with these features enabled.
                unsafe { super::x86_64::avx512::validate(input) }
            } else if #[cfg(target_feature = "avx2")] {
                // SAFETY: the crate is compiled with AVX2 enabled.
                unsafe { super::x86_64::avx2::validate(input) }
            } else if #[cfg(all(
                target_feature = "sse4.2",
                target_feature = "sse4.1",
                target_feature = "ssse3"
            ))] {
                // SAFETY: the crate is compiled with these features enabled.
                unsafe { super::x86_64::sse42::validate(input) }
            } else {
                crate::scalar::validate_blocks(input)
            }
        }
    }
}

#[cfg(not(target_arch = "x86_64"))]
mod dispatch {
    //! No SIMD kernel for this target: the portable one.

    #[inline]
    pub(super) fn validate_blocks(input: &[u8]) -> Result<(), usize> {
        crate::scalar::validate_blocks(input)
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
                match self.blocks(input) {
                    Ok(()) => Ok(()),
                    Err(pos) => crate::exact::locate(input, pos),
                }
            }

            fn is_valid(&self, input: &[u8]) -> bool {
                self.blocks(input).is_ok()
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
    /// named explicitly, for tests and benchmarks. Always runs the kernel,
    /// even on short input.
    Sse42,
    sse42,
    "SSSE3, SSE4.1 and SSE4.2"
);

#[cfg(feature = "avx512")]
isa_validator!(
    /// The AVX-512 kernel (64-byte registers; needs AVX-512 F and BW), named
    /// explicitly, for tests and benchmarks. Only with the `avx512` feature.
    Avx512,
    avx512,
    "AVX-512 F and BW"
);

isa_validator!(
    /// The AVX2 kernel (32-byte registers), named explicitly, for tests and
    /// benchmarks. Always runs the kernel, even on short input.
    Avx2,
    avx2,
    "AVX2"
);
