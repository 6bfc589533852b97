//! Everything that depends on the CPU, and the crate's only `unsafe` code:
//! the bulk decoding kernels, their list and the one dispatch point.
//!
//! - `kernel`: the algorithm (a mask of varint ends per 64-byte window,
//!   every varint decoded from a word at its start), written once over
//!   codec-arch's `Simd` and a small strategy trait, `Isa` (the kernel's
//!   token, how 7-bit groups are packed, the pair and group paths).
//! - `x86_64/`: that trait for SSE4.1 and AVX2, the AVX2 one twice (packing
//!   with shifts, or with BMI2 `pext` where `pext` is fast), and for
//!   AVX-512 VBMI2 (eight varints at a time in vector lanes), with
//!   `#[target_feature]` entry points; `aarch64/`: for NEON.
//! - `shuffle/`: the Stream VByte and Group Varint kernels (one table
//!   shuffle per group of four `u32`s), with their own list of kernels, of
//!   the same registry type and dispatch, written once over codec-arch's
//!   `Simd` on a 16-byte token; `x86_64/shuffle.rs` and
//!   `aarch64/shuffle.rs` instantiate them.
//! - This file: the registry of kernels ([`kernels`]), the one list of
//!   them, best first, which the dispatch, the tests, the guard-page tests,
//!   the fuzz target and the benchmarks all iterate (as utf8-simd's);
//!   [`KernelCodec`], the proof that a kernel can run here; and the
//!   dispatch (`codec_arch::Dispatch`), which picks the first available
//!   kernel of the list once and caches it in an `AtomicPtr`.
//!
//! The CPU's features, and whether its `pext` is fast, come from
//! `codec_arch` (detected once, with or without `std`); the kernel is
//! chosen by `codec_arch::Dispatch`. On aarch64 NEON is part of every
//! target but the `softfloat` ones, where the NEON kernel (`aarch64/`) is
//! compiled. Other architectures have only the portable kernel, the
//! scalar loop.
//!
//! A kernel decodes what it can and stops in front of anything else (see
//! `kernel`); `crate::bulk` decodes that varint with the scalar decoder and
//! calls the kernel again. Every answer, value or error, is therefore the
//! scalar decoder's.

use core::fmt;

#[cfg(any(
    target_arch = "x86_64",
    all(target_arch = "aarch64", target_feature = "neon")
))]
mod kernel;

/// Stamps out the `#[target_feature]` entry points of one [`Isa`]
/// (decoding `u64` and `u32`, lenient and strict; encoding; lengths). They are safe functions (Rust
/// 1.86): only a caller that has not proven the features needs `unsafe`.
///
/// [`Isa`]: crate::arch::kernel::Isa
macro_rules! entry_points {
    ($isa:ty, $level:ident) => {
        codec_arch::enable! { $level;
            /// The kernel into `u64`s, lenient; see `arch::kernel::decode`.
            pub(crate) fn decode_u64(input: &[u8], out: &mut [u64]) -> (usize, usize) {
                // SAFETY: this function is compiled with the features `$isa`
                // needs, and callable only where the CPU has them.
                unsafe { $crate::arch::kernel::decode::<$isa, u64, false>(input, out) }
            }
        }

        codec_arch::enable! { $level;
            /// The kernel into `u64`s, strict.
            pub(crate) fn decode_u64_strict(input: &[u8], out: &mut [u64]) -> (usize, usize) {
                // SAFETY: as in `decode_u64`.
                unsafe { $crate::arch::kernel::decode::<$isa, u64, true>(input, out) }
            }
        }

        codec_arch::enable! { $level;
            /// The kernel into `u32`s, lenient.
            pub(crate) fn decode_u32(input: &[u8], out: &mut [u32]) -> (usize, usize) {
                // SAFETY: as in `decode_u64`.
                unsafe { $crate::arch::kernel::decode::<$isa, u32, false>(input, out) }
            }
        }

        codec_arch::enable! { $level;
            /// The kernel into `u32`s, strict.
            pub(crate) fn decode_u32_strict(input: &[u8], out: &mut [u32]) -> (usize, usize) {
                // SAFETY: as in `decode_u64`.
                unsafe { $crate::arch::kernel::decode::<$isa, u32, true>(input, out) }
            }
        }

        codec_arch::enable! { $level;
            /// The encoding kernel for `u64`s; see `arch::kernel::encode`.
            ///
            /// # Safety
            ///
            /// `out` holds the encoding of `values`.
            pub(crate) unsafe fn encode_u64(values: &[u64], out: &mut [u8]) -> (usize, usize) {
                // SAFETY: the features as in `decode_u64`; the room is the
                // caller's promise.
                unsafe { $crate::arch::kernel::encode::<$isa, u64>(values, out) }
            }
        }

        codec_arch::enable! { $level;
            /// The encoding kernel for `u32`s.
            ///
            /// # Safety
            ///
            /// `out` holds the encoding of `values`.
            pub(crate) unsafe fn encode_u32(values: &[u32], out: &mut [u8]) -> (usize, usize) {
                // SAFETY: as in `encode_u64`.
                unsafe { $crate::arch::kernel::encode::<$isa, u32>(values, out) }
            }
        }

        codec_arch::enable! { $level;
            /// The summed encoded length of `u64`s, vectorised for `$level`.
            pub(crate) fn len_u64(values: &[u64]) -> usize {
                $crate::arch::kernel::encoded_len(values)
            }
        }

        codec_arch::enable! { $level;
            /// The summed encoded length of `u32`s.
            pub(crate) fn len_u32(values: &[u32]) -> usize {
                $crate::arch::kernel::encoded_len(values)
            }
        }
    };
}
pub(crate) use entry_points;

/// The registry entry (`arch::Kernel`) of a module that `entry_points!`
/// stamped: its name, the ISA it needs, and the entry points.
macro_rules! registry_entry {
    ($name:literal, $isa:expr) => {
        $crate::arch::Kernel(codec_arch::Entry::new(
            $name,
            $isa,
            $crate::arch::Entries {
                u64_lenient: decode_u64,
                u64_strict: decode_u64_strict,
                u32_lenient: decode_u32,
                u32_strict: decode_u32_strict,
                encode_u64,
                encode_u32,
                len_u64,
                len_u32,
            },
        ))
    };
}
pub(crate) use registry_entry;

#[cfg(all(target_arch = "aarch64", target_feature = "neon"))]
mod aarch64;
pub(crate) mod shuffle;
#[cfg(target_arch = "x86_64")]
mod x86_64;

/// Bytes a kernel needs ahead of a window, and output slots it needs free;
/// with less, `crate::bulk` uses the scalar loop at once.
#[cfg(any(
    target_arch = "x86_64",
    all(target_arch = "aarch64", target_feature = "neon")
))]
pub(crate) const MIN_INPUT: usize = kernel::READ;
/// Output slots a kernel needs free for one window.
#[cfg(any(
    target_arch = "x86_64",
    all(target_arch = "aarch64", target_feature = "neon")
))]
pub(crate) const MIN_OUT: usize = kernel::WINDOW;
#[cfg(not(any(
    target_arch = "x86_64",
    all(target_arch = "aarch64", target_feature = "neon")
)))]
pub(crate) const MIN_INPUT: usize = usize::MAX;
#[cfg(not(any(
    target_arch = "x86_64",
    all(target_arch = "aarch64", target_feature = "neon")
)))]
pub(crate) const MIN_OUT: usize = usize::MAX;

/// A kernel's entry points: `(bytes, count)` decoded from the start of the
/// input into the start of the output. `unsafe` because the x86 ones need
/// their CPU features.
pub(crate) struct Entries {
    pub(crate) u64_lenient: unsafe fn(&[u8], &mut [u64]) -> (usize, usize),
    pub(crate) u64_strict: unsafe fn(&[u8], &mut [u64]) -> (usize, usize),
    pub(crate) u32_lenient: unsafe fn(&[u8], &mut [u32]) -> (usize, usize),
    pub(crate) u32_strict: unsafe fn(&[u8], &mut [u32]) -> (usize, usize),
    /// `(values, bytes)` encoded from the start of the values; the output
    /// must hold the encoding of all of them (`arch::kernel::encode`).
    pub(crate) encode_u64: unsafe fn(&[u64], &mut [u8]) -> (usize, usize),
    pub(crate) encode_u32: unsafe fn(&[u32], &mut [u8]) -> (usize, usize),
    /// The summed encoded length.
    pub(crate) len_u64: unsafe fn(&[u64]) -> usize,
    pub(crate) len_u32: unsafe fn(&[u32]) -> usize,
}

/// A public registry type over `codec_arch::Entry`: a kernel's name, the
/// CPU features it needs and its entry points, for [`Kernel`] and
/// [`ShuffleKernel`](crate::ShuffleKernel) alike.
macro_rules! registry_type {
    ($(#[$doc:meta])* $name:ident, $entries:ty) => {
        $(#[$doc])*
        pub struct $name(pub(crate) codec_arch::Entry<$entries>);

        impl $name {
            /// The kernel's name, for display and benchmarks.
            #[must_use]
            pub const fn name(&self) -> &'static str {
                self.0.name()
            }

            /// The CPU features it is compiled with, as `target_feature`
            /// names separated by commas (empty for the portable kernel).
            #[must_use]
            pub const fn features(&self) -> &'static str {
                self.0.features()
            }

            /// Whether this CPU can run it.
            #[must_use]
            pub fn is_available(&self) -> bool {
                self.0.is_available()
            }

            /// The entry points.
            #[inline(always)]
            pub(crate) const fn entries(&self) -> &$entries {
                self.0.get()
            }
        }

        impl codec_arch::Registered for $name {
            fn isa(&self) -> codec_arch::Isa {
                self.0.isa()
            }
        }

        impl core::fmt::Debug for $name {
            fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                f.debug_struct(stringify!($name))
                    .field("name", &self.name())
                    .field("features", &self.features())
                    .finish_non_exhaustive()
            }
        }
    };
}
pub(crate) use registry_type;

registry_type!(
    /// One bulk decoding kernel: its name (`"avx512vbmi2"`, `"avx512"`,
    /// `"avx2-pext"`, `"avx2"`, `"sse4.1"`, `"neon"`, `"portable"`), the CPU
    /// features it needs, and its entry points. The list of them is
    /// [`kernels`]. `avx512vbmi2`, `avx512` and `avx2-pext` also need a
    /// fast `pext` (Intel, or AMD from Zen 3 on), which `is_available`
    /// checks.
    ///
    /// ```
    /// for kernel in varint::kernels() {
    ///     println!("{} ({}): {}", kernel.name(), kernel.features(), kernel.is_available());
    /// }
    /// ```
    Kernel,
    Entries
);

impl Kernel {
    /// The kernel as a codec, if this CPU can run it.
    #[must_use]
    pub fn codec(&'static self) -> Option<KernelCodec> {
        self.is_available().then_some(KernelCodec(self))
    }
}

/// The fixed-width integer `usize` is on this target, and its kernels.
#[cfg(target_pointer_width = "64")]
type Word = u64;
#[cfg(target_pointer_width = "32")]
type Word = u32;
#[cfg(target_pointer_width = "64")]
impl KernelCodec {
    #[inline(always)]
    fn run_word<const STRICT: bool>(self, input: &[u8], out: &mut [u64]) -> (usize, usize) {
        self.run_u64::<STRICT>(input, out)
    }
    #[inline(always)]
    fn run_encode_word(self, values: &[u64], out: &mut [u8]) -> Option<(usize, usize)> {
        self.run_encode_u64(values, out)
    }
    #[inline(always)]
    fn run_len_word(self, values: &[u64]) -> usize {
        self.run_len_u64(values)
    }
}
#[cfg(target_pointer_width = "32")]
impl KernelCodec {
    #[inline(always)]
    fn run_word<const STRICT: bool>(self, input: &[u8], out: &mut [u32]) -> (usize, usize) {
        self.run_u32::<STRICT>(input, out)
    }
    #[inline(always)]
    fn run_encode_word(self, values: &[u32], out: &mut [u8]) -> Option<(usize, usize)> {
        self.run_encode_u32(values, out)
    }
    #[inline(always)]
    fn run_len_word(self, values: &[u32]) -> usize {
        self.run_len_u32(values)
    }
}

/// Stops at once: the caller's scalar loop does all the work.
fn nothing<T, U>(_: &[T], _: &mut [U]) -> (usize, usize) {
    (0, 0)
}

/// The summed encoded length, in plain scalar code.
fn scalar_len<T: Copy + Into<u64>>(values: &[T]) -> usize {
    values
        .iter()
        .map(|&v| crate::scalar::len_from_bits(u64::BITS - (v.into() | 1).leading_zeros()))
        .sum()
}

/// The portable kernel: the scalar loop, no kernel at all. Available
/// everywhere.
const PORTABLE: Kernel = Kernel(codec_arch::Entry::new(
    "portable",
    codec_arch::Isa::PORTABLE,
    Entries {
        u64_lenient: nothing,
        u64_strict: nothing,
        u32_lenient: nothing,
        u32_strict: nothing,
        encode_u64: nothing,
        encode_u32: nothing,
        len_u64: scalar_len,
        len_u32: scalar_len,
    },
));

/// Every kernel compiled for this target, fastest first: the one list of
/// them, which the dispatch, the tests, the guard-page tests, the fuzz
/// target and the benchmarks iterate.
#[cfg(target_arch = "x86_64")]
static KERNELS: [Kernel; 6] = [
    x86_64::avx512vbmi2::KERNEL,
    x86_64::avx512::KERNEL,
    x86_64::avx2::pext::KERNEL,
    x86_64::avx2::KERNEL,
    x86_64::sse41::KERNEL,
    PORTABLE,
];

/// Every kernel compiled for this target, fastest first: NEON is part of
/// the target (chosen at compile time, as in utf8-simd).
#[cfg(all(target_arch = "aarch64", target_feature = "neon"))]
static KERNELS: [Kernel; 2] = [aarch64::neon::KERNEL, PORTABLE];

/// Every kernel compiled for this target, fastest first.
#[cfg(not(any(
    target_arch = "x86_64",
    all(target_arch = "aarch64", target_feature = "neon")
)))]
static KERNELS: [Kernel; 1] = [PORTABLE];

/// Every bulk decoding kernel compiled into this crate for the target,
/// fastest first, whether or not this CPU can run it; the last one,
/// `portable` (the scalar loop), runs everywhere. [`decode_into`] and the
/// other bulk functions use the first one this CPU can run.
///
/// [`decode_into`]: crate::decode_into()
///
/// ```
/// let input = [0x96, 0x01, 0x05];
/// for kernel in varint::kernels() {
///     if let Some(decoder) = kernel.codec() {
///         let mut out = [0u64; 4];
///         let done = decoder.decode_into(&input, &mut out).unwrap();
///         assert_eq!(&out[..done.count], [150, 5], "{}", kernel.name());
///     }
/// }
/// assert_eq!(varint::kernels().last().map(|k| k.name()), Some("portable"));
/// ```
#[must_use]
pub fn kernels() -> &'static [Kernel] {
    &KERNELS
}

/// The kernel that [`decode_into`](crate::decode_into()) and the other
/// bulk functions use on this CPU.
///
/// ```
/// let k = varint::chosen_kernel();
/// assert!(k.is_available());
/// println!("decoding with {} ({})", k.name(), k.features());
/// ```
#[must_use]
pub fn chosen_kernel() -> &'static Kernel {
    dispatch::chosen()
}

/// The bulk functions running one kernel of [`kernels`] that this CPU can
/// run: [`KernelCodec::new`] picks the best, [`Kernel::codec`] a given one.
///
/// The free functions ([`decode_into`](crate::decode_into()),
/// [`encode_slice`](crate::encode_slice()), …) use [`KernelCodec::new`];
/// this type lets tests and benchmarks name a kernel. Every kernel gives
/// the same answers.
#[derive(Clone, Copy)]
pub struct KernelCodec(&'static Kernel);

impl fmt::Debug for KernelCodec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("KernelCodec").field(&self.0.name()).finish()
    }
}

impl Default for KernelCodec {
    fn default() -> Self {
        Self::new()
    }
}

impl KernelCodec {
    /// The codec running the first kernel of [`kernels`] this CPU can run.
    /// The choice is made once and cached.
    #[must_use]
    #[inline]
    pub fn new() -> Self {
        KernelCodec(dispatch::chosen())
    }

    /// The kernel this codec runs.
    #[must_use]
    pub const fn kernel(&self) -> &'static Kernel {
        self.0
    }

    /// The kernel into `u64`s: `(bytes, count)`.
    #[inline]
    pub(crate) fn run_u64<const STRICT: bool>(
        self,
        input: &[u8],
        out: &mut [u64],
    ) -> (usize, usize) {
        let f = if STRICT {
            self.0.entries().u64_strict
        } else {
            self.0.entries().u64_lenient
        };
        // SAFETY: a `KernelCodec` is made only for a kernel whose
        // `is_available` returned true: this CPU has its features.
        unsafe { f(input, out) }
    }

    /// The kernel into `u32`s: `(bytes, count)`.
    #[inline]
    pub(crate) fn run_u32<const STRICT: bool>(
        self,
        input: &[u8],
        out: &mut [u32],
    ) -> (usize, usize) {
        let f = if STRICT {
            self.0.entries().u32_strict
        } else {
            self.0.entries().u32_lenient
        };
        // SAFETY: as in `run_u64`.
        unsafe { f(input, out) }
    }

    /// The encoding kernel for `u64`s: `Some((values, bytes))` encoded from
    /// the start, maybe `(0, 0)` (the caller encodes the rest), or `None`
    /// if `out` cannot hold the encoding of every value.
    #[inline]
    pub(crate) fn run_encode_u64(self, values: &[u64], out: &mut [u8]) -> Option<(usize, usize)> {
        // The kernel writes past a varint inside the encoding of the values
        // after it, so `out` must hold the whole encoding: surely if it has
        // MAX_LEN bytes a value, else as measured.
        let fits = out.len() / 10 >= values.len() || self.run_len_u64(values) <= out.len();
        if !fits {
            return None;
        }
        // SAFETY: the features as in `run_u64`; `out` holds the encoding of
        // `values`, checked just above with the same length formula the
        // kernel advances by (`scalar::len_from_bits`, checked for every
        // bit count at compile time).
        Some(unsafe { (self.0.entries().encode_u64)(values, out) })
    }

    /// The encoding kernel for `u32`s; as [`run_encode_u64`](Self::run_encode_u64).
    #[inline]
    pub(crate) fn run_encode_u32(self, values: &[u32], out: &mut [u8]) -> Option<(usize, usize)> {
        let fits = out.len() / 5 >= values.len() || self.run_len_u32(values) <= out.len();
        if !fits {
            return None;
        }
        // SAFETY: as in `run_encode_u64`.
        Some(unsafe { (self.0.entries().encode_u32)(values, out) })
    }

    /// The summed encoded length of `u64`s.
    #[inline]
    pub(crate) fn run_len_u64(self, values: &[u64]) -> usize {
        // SAFETY: as in `run_u64`.
        unsafe { (self.0.entries().len_u64)(values) }
    }

    /// The summed encoded length of `u32`s.
    #[inline]
    pub(crate) fn run_len_u32(self, values: &[u32]) -> usize {
        // SAFETY: as in `run_u64`.
        unsafe { (self.0.entries().len_u32)(values) }
    }

    /// The kernel into `usize`s, as the integer of its width.
    #[cfg(any(target_pointer_width = "64", target_pointer_width = "32"))]
    #[inline]
    pub(crate) fn run_usize<const STRICT: bool>(
        self,
        input: &[u8],
        out: &mut [usize],
    ) -> (usize, usize) {
        // SAFETY: `Word` has the size, alignment and (every bit pattern)
        // validity of `usize` on this target; the slice keeps its length.
        let out =
            unsafe { core::slice::from_raw_parts_mut(out.as_mut_ptr().cast::<Word>(), out.len()) };
        self.run_word::<STRICT>(input, out)
    }

    /// The encoding kernel for `usize`s, as the integer of its width.
    #[cfg(any(target_pointer_width = "64", target_pointer_width = "32"))]
    #[inline]
    pub(crate) fn run_encode_usize(
        self,
        values: &[usize],
        out: &mut [u8],
    ) -> Option<(usize, usize)> {
        // SAFETY: as in `run_usize`, for a shared slice.
        let values =
            unsafe { core::slice::from_raw_parts(values.as_ptr().cast::<Word>(), values.len()) };
        self.run_encode_word(values, out)
    }

    /// The summed encoded length of `usize`s.
    #[cfg(any(target_pointer_width = "64", target_pointer_width = "32"))]
    #[inline]
    pub(crate) fn run_len_usize(self, values: &[usize]) -> usize {
        // SAFETY: as in `run_encode_usize`.
        let values =
            unsafe { core::slice::from_raw_parts(values.as_ptr().cast::<Word>(), values.len()) };
        self.run_len_word(values)
    }

    /// Whether the kernel is the scalar loop, which does nothing itself.
    #[inline]
    pub(crate) fn is_portable(self) -> bool {
        self.0.features().is_empty()
    }
}

/// The first kernel of `KERNELS` this CPU can run, chosen once and cached
/// (`codec_arch::Dispatch`, as every crate's).
mod dispatch {
    use super::{KERNELS, Kernel};

    static CHOSEN: codec_arch::Dispatch<Kernel> = codec_arch::Dispatch::new(&KERNELS);

    #[inline]
    pub(super) fn chosen() -> &'static Kernel {
        CHOSEN.get()
    }
}
