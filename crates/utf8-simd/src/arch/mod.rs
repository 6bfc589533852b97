//! Everything that depends on the CPU, and the crate's only `unsafe` code.
//!
//! - `kernel`, `simd`: the Keiser–Lemire check, written once over
//!   codec-arch's token-based `Simd` and `simd::CheckSimd`, the few
//!   operations it needs on top.
//! - `x86_64/`: `CheckSimd` for the tokens of SSE4.1 (16 bytes), AVX2 (32
//!   bytes) and AVX-512 (64 bytes), with `#[target_feature]` entry points
//!   each (`validate` with 256-byte checkpoints, `is_valid` without) and
//!   the [`Kernel`] that describes them.
//! - `aarch64/`: the same for NEON (16 bytes), compiled wherever the target
//!   enables NEON (every aarch64 target but the `softfloat` ones) and called
//!   directly, without detection.
//! - `partial`: the tail load every kernel's `CheckSimd::load_partial` uses.
//! - This file: the registry of kernels ([`kernels`]), the one dispatch point
//!   ([`validate_blocks`], [`is_valid_blocks`]), and [`KernelValidator`], a
//!   kernel proven to run on this CPU.
//!
//! # The registry
//!
//! `KERNELS` lists every kernel compiled for the target, fastest first, and
//! is the only place that names them: the dispatch runs the first one the
//! CPU can run, the per-ISA validators ([`Avx2`] and the like) hold
//! their kernel by `&'static` reference, and the tests, guard-page tests, fuzz
//! targets, `cargo xtask exhaustive` and the benchmarks iterate it. A new
//! kernel is one line there; a kernel left out of it is dead code, which
//! CI's `clippy -D warnings` rejects.
//!
//! # Dispatch
//!
//! `codec_arch::Dispatch`: the first call detects the CPU's features
//! (`codec_arch::Features`, so it works without `std` too) and caches the
//! chosen kernel in a static `AtomicPtr`, which every later call loads and
//! calls through (memchr's scheme, with a static table of entry points
//! instead of a transmuted function pointer). Each SIMD kernel holds its
//! variant entry points (`variants.rs`) by `&'static` reference. Where the crate is compiled
//! with the best kernel's features (`-C target-feature=+avx512f,+avx512bw`
//! or a `target-cpu` that has them) that kernel is called directly.
//! Targets without a SIMD kernel use the portable one (utf8-dfa).
//!
//! A kernel returns `Ok(())` for valid input, or `Err(pos)` where
//! `input[..pos]` is a prefix of well-formed UTF-8; `crate::exact` turns
//! that into the exact error.

use codec_arch::{Dispatch, Entry, Isa};
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
mod pairs;
#[cfg(any(
    target_arch = "x86_64",
    all(target_arch = "aarch64", target_feature = "neon")
))]
mod partial;
#[cfg(any(
    target_arch = "x86_64",
    all(target_arch = "aarch64", target_feature = "neon")
))]
pub(crate) mod variants;
/// The variant entry points where no SIMD kernel runs: the same functions
/// with the answers that send every caller to its scalar path, so that
/// `crate::variant` calls one module on every target.
#[cfg(not(any(
    target_arch = "x86_64",
    all(target_arch = "aarch64", target_feature = "neon")
)))]
pub(crate) mod variants {
    use crate::variant::Tables;

    /// No SIMD kernel, so no variant entry points.
    pub(crate) enum Entry {}

    /// Nothing checked.
    pub(crate) fn check_blocks(_: &Tables, _: &[u8]) -> Result<usize, usize> {
        Ok(0)
    }

    /// No kernel with a variant entry.
    pub(crate) fn check_blocks_with(
        _: &super::Kernel,
        _: &Tables,
        _: &[u8],
    ) -> Option<Result<usize, usize>> {
        None
    }

    /// Nothing checked.
    pub(crate) fn bmp_blocks(_: bool, _: &[u8]) -> Result<usize, usize> {
        Ok(0)
    }

    /// No kernel with a variant entry.
    pub(crate) fn bmp_blocks_with(
        _: &super::Kernel,
        _: bool,
        _: &[u8],
    ) -> Option<Result<usize, usize>> {
        None
    }

    /// Nothing converted.
    pub(crate) fn pairs_to_utf8(_: &[u8], _: &mut [u8]) -> (usize, usize) {
        (0, 0)
    }

    /// No kernel with a variant entry.
    pub(crate) fn pairs_to_utf8_with(
        _: &super::Kernel,
        _: &[u8],
        _: &mut [u8],
    ) -> Option<(usize, usize)> {
        None
    }

    /// Nothing converted.
    pub(crate) fn utf8_to_pairs(_: &[u8], _: &mut [u8]) -> (usize, usize) {
        (0, 0)
    }

    /// No kernel with a variant entry.
    pub(crate) fn utf8_to_pairs_with(
        _: &super::Kernel,
        _: &[u8],
        _: &mut [u8],
    ) -> Option<(usize, usize)> {
        None
    }

    /// No kernel has one.
    pub(crate) fn has_entry(_: &super::Kernel) -> bool {
        false
    }
}
#[cfg(any(
    target_arch = "x86_64",
    all(target_arch = "aarch64", target_feature = "neon")
))]
mod simd;
#[cfg(target_arch = "x86_64")]
mod x86_64;

/// One kernel: its name, the CPU features it needs, and its entry points
/// (with the variant entry points of utf8-variants' encodings). The list
/// of them is [`kernels`].
pub struct Kernel {
    entry: Entry<Fns>,
    /// The variant entry points, for every SIMD kernel.
    variants: Option<&'static variants::Entry>,
}

/// A kernel's UTF-8 entry points.
struct Fns {
    validate: unsafe fn(&[u8]) -> Result<(), usize>,
    is_valid: unsafe fn(&[u8]) -> bool,
}

impl core::fmt::Debug for Kernel {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Kernel")
            .field("name", &self.name())
            .field("features", &self.features())
            .finish_non_exhaustive()
    }
}

impl codec_arch::Registered for Kernel {
    fn isa(&self) -> Isa {
        self.entry.isa()
    }
}

impl Kernel {
    /// The kernel of a registry line.
    const fn new(
        name: &'static str,
        isa: Isa,
        validate: unsafe fn(&[u8]) -> Result<(), usize>,
        is_valid: unsafe fn(&[u8]) -> bool,
        variants: Option<&'static variants::Entry>,
    ) -> Kernel {
        Kernel {
            entry: Entry::new(name, isa, Fns { validate, is_valid }),
            variants,
        }
    }

    /// The kernel's name: `"avx512"`, `"avx2"`, `"sse4.1"`, `"neon"`,
    /// `"portable"`.
    #[must_use]
    pub const fn name(&self) -> &'static str {
        self.entry.name()
    }

    /// The CPU features it needs, as `target_feature` names separated by
    /// commas (empty for the portable kernel).
    #[must_use]
    pub const fn features(&self) -> &'static str {
        self.entry.features()
    }

    /// Whether this CPU can run it.
    #[must_use]
    pub fn is_available(&self) -> bool {
        self.entry.is_available()
    }

    /// The kernel as a validator, if this CPU can run it.
    #[must_use]
    pub fn validator(&'static self) -> Option<KernelValidator> {
        self.is_available()
            .then_some(KernelValidator { kernel: self })
    }

    /// The portable kernel (utf8-dfa's scalar validator), last in
    /// [`kernels`] on every target.
    pub const PORTABLE: &'static Kernel = &PORTABLE;

    /// Exact validation with this kernel, as its [`KernelValidator`]
    /// answers (no short-input path), if this CPU can run it: for callers
    /// that hold a kernel by a reference that is not `'static`.
    #[must_use]
    pub fn try_validate(&self, input: &[u8]) -> Option<Result<(), Utf8Error>> {
        if !self.is_available() {
            return None;
        }
        // SAFETY: this CPU has the kernel's features, just checked.
        let blocks = unsafe { (self.entry.get().validate)(input) };
        Some(blocks.or_else(|pos| crate::exact::locate(input, pos)))
    }
}

/// The portable kernel: utf8-dfa's scalar validator, on every target.
const PORTABLE: Kernel = Kernel::new(
    "portable",
    Isa::PORTABLE,
    crate::scalar::validate,
    crate::scalar::is_valid,
    None,
);

/// Every kernel compiled for this target, fastest first. See the module
/// docs: this is the one list of them.
#[cfg(target_arch = "x86_64")]
static KERNELS: [Kernel; 4] = [
    x86_64::avx512::KERNEL,
    x86_64::avx2::KERNEL,
    x86_64::sse41::KERNEL,
    PORTABLE,
];

/// Every kernel compiled for this target, fastest first.
#[cfg(all(target_arch = "aarch64", target_feature = "neon"))]
static KERNELS: [Kernel; 2] = [aarch64::neon::KERNEL, PORTABLE];

/// Every kernel compiled for this target, fastest first.
#[cfg(not(any(
    target_arch = "x86_64",
    all(target_arch = "aarch64", target_feature = "neon")
)))]
static KERNELS: [Kernel; 1] = [PORTABLE];

/// Every kernel compiled into this crate for the target, fastest first,
/// whether or not this CPU can run it. [`validate`](crate::validate) and
/// the other free functions use the first one the CPU can run.
///
/// ```
/// for k in utf8_simd::kernels() {
///     if let Some(v) = k.validator() {
///         use utf8_simd::Utf8Validator;
///         assert!(v.is_valid("très bien".as_bytes()), "{}", k.name());
///     }
/// }
/// assert_eq!(utf8_simd::kernels().last().map(|k| k.name()), Some("portable"));
/// ```
#[must_use]
pub fn kernels() -> &'static [Kernel] {
    &KERNELS
}

/// The kernel that [`validate`](crate::validate) and the other free
/// functions use on this CPU.
///
/// ```
/// let k = utf8_simd::chosen_kernel();
/// assert!(k.is_available());
/// println!("validating with {} ({})", k.name(), k.features());
/// ```
#[must_use]
pub fn chosen_kernel() -> &'static Kernel {
    CHOSEN.get()
}

/// The first kernel of `KERNELS` this CPU can run, chosen once.
static CHOSEN: Dispatch<Kernel> = Dispatch::new(&KERNELS);

/// A kernel that this CPU can run, as a [`Utf8Validator`]: from
/// [`Kernel::validator`].
///
/// It always runs its kernel, even on short input (the free functions take
/// a short-input path first).
#[derive(Clone, Copy, Debug)]
pub struct KernelValidator {
    kernel: &'static Kernel,
}

impl KernelValidator {
    /// The kernel this validator runs.
    #[must_use]
    pub const fn kernel(&self) -> &'static Kernel {
        self.kernel
    }

    /// The kernel's raw answer (see the module docs).
    fn blocks(&self, input: &[u8]) -> Result<(), usize> {
        // SAFETY: a `KernelValidator` is made only by `Kernel::validator`,
        // after `detect` found the kernel's features on this CPU.
        unsafe { (self.kernel.entry.get().validate)(input) }
    }

    /// The kernel's raw yes or no, without checkpoints.
    fn blocks_valid(&self, input: &[u8]) -> bool {
        // SAFETY: as in `blocks`.
        unsafe { (self.kernel.entry.get().is_valid)(input) }
    }
}

impl Utf8Validator for KernelValidator {
    fn validate(&self, input: &[u8]) -> Result<(), Utf8Error> {
        match self.blocks(input) {
            Ok(()) => Ok(()),
            Err(pos) => crate::exact::locate(input, pos),
        }
    }

    fn is_valid(&self, input: &[u8]) -> bool {
        // SAFETY: as in `blocks`.
        unsafe { (self.kernel.entry.get().is_valid)(input) }
    }

    fn from_utf8<'a>(&self, input: &'a [u8]) -> Result<&'a str, Utf8Error> {
        self.validate(input)?;
        Ok(valid_str(input))
    }

    fn from_utf8_mut<'a>(&self, input: &'a mut [u8]) -> Result<&'a mut str, Utf8Error> {
        self.validate(input)?;
        Ok(valid_str_mut(input))
    }

    fn valid_prefix<'a>(&self, input: &'a [u8]) -> (&'a str, Option<Utf8Error>) {
        match self.validate(input) {
            Ok(()) => (valid_str(input), None),
            Err(e) => (valid_str(&input[..e.valid_up_to()]), Some(e)),
        }
    }
}

/// The dispatched kernel, with checkpoints: see the module docs for its
/// contract.
#[inline]
pub(crate) fn validate_blocks(input: &[u8]) -> Result<(), usize> {
    cfg_if::cfg_if! {
        if #[cfg(all(
            target_arch = "x86_64",
            target_feature = "avx512f",
            target_feature = "avx512bw",
            target_feature = "avx512cd",
            target_feature = "avx512vl",
            target_feature = "avx2",
            target_feature = "bmi1",
            target_feature = "bmi2",
            target_feature = "popcnt"
        ))] {
            // SAFETY: the crate is compiled with the kernel's features (the
            // cfg above), so every CPU that runs this code has them.
            unsafe { x86_64::avx512::validate(input) }
        } else if #[cfg(target_arch = "x86_64")] {
            dispatch::validate_blocks(input)
        } else if #[cfg(all(target_arch = "aarch64", target_feature = "neon"))] {
            // NEON is part of the target: no detection, a direct call.
            aarch64::neon::validate(input)
        } else {
            crate::scalar::validate(input)
        }
    }
}

/// The dispatched kernel without checkpoints: only whether `input` is valid.
#[inline]
pub(crate) fn is_valid_blocks(input: &[u8]) -> bool {
    cfg_if::cfg_if! {
        if #[cfg(all(
            target_arch = "x86_64",
            target_feature = "avx512f",
            target_feature = "avx512bw",
            target_feature = "avx512cd",
            target_feature = "avx512vl",
            target_feature = "avx2",
            target_feature = "bmi1",
            target_feature = "bmi2",
            target_feature = "popcnt"
        ))] {
            // SAFETY: as in `validate_blocks`.
            unsafe { x86_64::avx512::is_valid(input) }
        } else if #[cfg(target_arch = "x86_64")] {
            dispatch::is_valid_blocks(input)
        } else if #[cfg(all(target_arch = "aarch64", target_feature = "neon"))] {
            aarch64::neon::is_valid(input)
        } else {
            crate::scalar::is_valid(input)
        }
    }
}

#[cfg(all(
    target_arch = "x86_64",
    not(all(
        target_feature = "avx512f",
        target_feature = "avx512bw",
        target_feature = "avx512cd",
        target_feature = "avx512vl",
        target_feature = "avx2",
        target_feature = "bmi1",
        target_feature = "bmi2",
        target_feature = "popcnt"
    ))
))]
mod dispatch {
    //! Run-time choice: `codec_arch::Dispatch`, cached in an atomic
    //! pointer to the chosen kernel.

    #[inline]
    pub(super) fn validate_blocks(input: &[u8]) -> Result<(), usize> {
        let kernel = super::CHOSEN.get();
        // SAFETY: `Dispatch` returns only a kernel whose features this CPU
        // has.
        unsafe { (kernel.entry.get().validate)(input) }
    }

    #[inline]
    pub(super) fn is_valid_blocks(input: &[u8]) -> bool {
        let kernel = super::CHOSEN.get();
        // SAFETY: as in `validate_blocks`.
        unsafe { (kernel.entry.get().is_valid)(input) }
    }
}

/// `bytes` as a `&str`, for bytes a kernel (or the scalar re-check) has
/// just accepted.
#[inline]
pub(crate) fn valid_str(bytes: &[u8]) -> &str {
    debug_assert!(core::str::from_utf8(bytes).is_ok());
    // SAFETY: every caller passes bytes that `validate` accepted (or the
    // prefix before an error's `valid_up_to`, which it reports as valid),
    // or (`variant::bmp_str`) bytes whose whole blocks the BMP check
    // accepted with the crate's own `tables::UTF8_BMP` and whose rest
    // `validate` accepted; the kernels and the scalar re-check accept
    // exactly what `core::str::from_utf8` accepts, and the BMP check a
    // subset of it (UTF-8 without 4-byte forms), as `xtask gen-tables`
    // proves and the exhaustive, differential and fuzz tests check.
    unsafe { core::str::from_utf8_unchecked(bytes) }
}

/// As [`valid_str`], for `&mut`.
#[inline]
pub(crate) fn valid_str_mut(bytes: &mut [u8]) -> &mut str {
    debug_assert!(core::str::from_utf8(bytes).is_ok());
    // SAFETY: as in `valid_str`.
    unsafe { core::str::from_utf8_unchecked_mut(bytes) }
}

/// As [`valid_str`], for bytes the `String` takes without a copy.
#[cfg(feature = "alloc")]
#[inline]
pub(crate) fn valid_string(bytes: alloc::vec::Vec<u8>) -> alloc::string::String {
    debug_assert!(core::str::from_utf8(&bytes).is_ok());
    // SAFETY: as in `valid_str`: the one caller, `string_from_utf8`, passes
    // bytes that `validate` accepted.
    unsafe { alloc::string::String::from_utf8_unchecked(bytes) }
}

/// The kernels that the per-ISA validators name, by reference (`None`
/// where the target has no such kernel).
mod named {
    use super::Kernel;

    #[cfg(target_arch = "x86_64")]
    pub(super) const AVX512: Option<&'static Kernel> = Some(&super::x86_64::avx512::KERNEL);
    #[cfg(target_arch = "x86_64")]
    pub(super) const AVX2: Option<&'static Kernel> = Some(&super::x86_64::avx2::KERNEL);
    #[cfg(target_arch = "x86_64")]
    pub(super) const SSE41: Option<&'static Kernel> = Some(&super::x86_64::sse41::KERNEL);
    #[cfg(not(target_arch = "x86_64"))]
    pub(super) const AVX512: Option<&'static Kernel> = None;
    #[cfg(not(target_arch = "x86_64"))]
    pub(super) const AVX2: Option<&'static Kernel> = None;
    #[cfg(not(target_arch = "x86_64"))]
    pub(super) const SSE41: Option<&'static Kernel> = None;
    #[cfg(all(target_arch = "aarch64", target_feature = "neon"))]
    pub(super) const NEON: Option<&'static Kernel> = Some(&super::aarch64::neon::KERNEL);
    #[cfg(not(all(target_arch = "aarch64", target_feature = "neon")))]
    pub(super) const NEON: Option<&'static Kernel> = None;
}

macro_rules! isa_validator {
    ($(#[$doc:meta])* $name:ident, $kernel:ident, $label:literal) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug)]
        pub struct $name(KernelValidator);

        impl $name {
            #[doc = concat!("The validator, if this CPU can run the `", $label, "` kernel (never off the targets that have it).")]
            #[must_use]
            pub fn new() -> Option<Self> {
                named::$kernel.and_then(Kernel::validator).map($name)
            }

            #[doc = concat!("The `", $label, "` kernel of [`kernels`], by reference, if the target has it (whether or not this CPU can run it).")]
            pub const KERNEL: Option<&'static Kernel> = named::$kernel;

            #[doc = concat!("Whether [`", stringify!($name), "::new`] returns `Some`.")]
            #[must_use]
            pub fn is_available() -> bool {
                Self::new().is_some()
            }
        }

        // The free functions' route with this kernel: the short-input
        // paths first (see `crate::short`), so that a named kernel answers,
        // and measures, as the free functions do on a CPU whose best kernel
        // it is (AVX2 on AVX-512 machines stands for AMD Zen 3). The
        // registry's `KernelValidator` runs the bare kernel on every input.
        impl Utf8Validator for $name {
            fn validate(&self, input: &[u8]) -> Result<(), Utf8Error> {
                crate::validate_with(input, |input| self.0.blocks(input))
            }

            fn is_valid(&self, input: &[u8]) -> bool {
                crate::is_valid_with(input, |input| self.0.blocks_valid(input))
            }

            fn from_utf8<'a>(&self, input: &'a [u8]) -> Result<&'a str, Utf8Error> {
                self.validate(input)?;
                Ok(valid_str(input))
            }

            fn from_utf8_mut<'a>(&self, input: &'a mut [u8]) -> Result<&'a mut str, Utf8Error> {
                self.validate(input)?;
                Ok(valid_str_mut(input))
            }

            fn valid_prefix<'a>(&self, input: &'a [u8]) -> (&'a str, Option<Utf8Error>) {
                match self.validate(input) {
                    Ok(()) => (valid_str(input), None),
                    Err(e) => (valid_str(&input[..e.valid_up_to()]), Some(e)),
                }
            }
        }
    };
}

isa_validator!(
    /// The AVX-512 kernel (64-byte registers; needs AVX-512 F and BW and
    /// AVX2), named explicitly, for tests and benchmarks. Short inputs take the
    /// free functions' short paths.
    Avx512,
    AVX512,
    "avx512"
);

isa_validator!(
    /// The AVX2 kernel (32-byte registers), named explicitly, for tests and
    /// benchmarks. Short inputs take the free functions' short paths.
    Avx2,
    AVX2,
    "avx2"
);

isa_validator!(
    /// The SSE kernel (16-byte registers; needs SSSE3 and SSE4.1), named
    /// explicitly, for tests and benchmarks. Short inputs take the free
    /// functions' short paths.
    Sse41,
    SSE41,
    "sse4.1"
);

isa_validator!(
    /// The NEON kernel (16-byte registers, aarch64), named explicitly, for
    /// tests and benchmarks. Short inputs take the free functions' short
    /// paths. NEON is part of every aarch64 target but the `softfloat` ones,
    /// where this is always available and is what the free functions use.
    Neon,
    NEON,
    "neon"
);

#[cfg(all(test, feature = "std"))]
mod tests {
    //! The kernels' raw contract: `Err(pos)` with a valid prefix before
    //! `pos`, and `pos` close to the error.

    use super::*;

    /// The 256-byte checkpoints hold whatever the input's address: for a
    /// start at every offset of a 64-byte line, after an ASCII run long
    /// enough to be realigned, the reported position is at most one group
    /// (`kernel::GROUP`, 256 bytes) before std's `valid_up_to` (and at most
    /// 3 bytes after it, inside the character that fails), and the prefix
    /// before it is valid. Before the fix every misaligned start reported
    /// the start of the non-ASCII run, up to thousands of bytes early
    /// (`sse42: reported 253 for an error at 510`).
    #[test]
    fn checkpoints_survive_any_start_address() {
        const GROUP: usize = 256;
        let text = "é".repeat(3000); // 6000 bytes, one non-ASCII run
        let kernels: std::vec::Vec<KernelValidator> =
            kernels().iter().filter_map(Kernel::validator).collect();
        // The portable kernel, and a SIMD kernel where the target has one.
        let simd_target = cfg!(any(target_arch = "x86_64", target_arch = "aarch64"));
        assert!(kernels.len() > usize::from(simd_target));
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
                    for k in &kernels {
                        let name = k.kernel().name();
                        let pos = k.blocks(buf).unwrap_err();
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
