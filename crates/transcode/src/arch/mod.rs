//! Everything that depends on the CPU, and the crate's only `unsafe` code.
//!
//! # The kernels and their contract
//!
//! A [`Kernel`] table holds one entry point per conversion and count. A
//! conversion kernel `unsafe fn(src, dst) -> (read, written)`:
//!
//! - converts a prefix `src[..read]` that ends at a character boundary and is
//!   well-formed into exactly `dst[..written]`, and returns how far it got;
//!   it may stop anywhere before the end (near the end of `src` or `dst`,
//!   before a block it cannot handle, before a block with an error), and the
//!   scalar code in `crate::drive` carries on from there;
//! - reads only inside `src` and writes only inside `dst`, whatever the
//!   input. Most kernels write nothing past `dst[..written]`; the x86-64
//!   UTF-8 → UTF-16/UTF-32 kernels' direct stores may leave a register's
//!   stray units after it, within the room their loops require, which on
//!   valid input (all the public functions give them) the rest of the
//!   same conversion writes over (the SSE4.1 and AVX2 kernels' docs give
//!   the bounds; on other input the strays may stay, inside `dst`). No
//!   public function leaves anything past the length it reports:
//!   `tests/exact` checks every output for it, at every output size near
//!   the end;
//! - is memory-safe and terminates on *any* input, even where its input is
//!   promised to be valid (UTF-8 that utf8-simd validated, a `&str`): on
//!   such input it may only write wrong characters;
//! - is `unsafe` only because it needs its CPU features; the one dispatch
//!   point below (or a [`Transcoder`](crate::Transcoder) made by a checked
//!   constructor) is what proves them.
//!
//! A count kernel `unsafe fn(src) -> usize` returns the whole count, tail
//! included.
//!
//! # Dispatch
//!
//! `codec_arch::Dispatch`: the first call detects the CPU's features
//! (`codec_arch::Features`, also without `std`) and caches a pointer to
//! the best table in a static `AtomicPtr`; every later call loads it
//! (memchr's scheme, with `static` tables of entry points rather than
//! transmuted pointers). Each table validates UTF-8 with the utf8-simd
//! kernel it holds by `&'static` reference. aarch64 has the NEON table (`aarch64`, chosen
//! at compile time: NEON is part of the target), whose missing entries are
//! the portable table's; other targets get the portable table, whose
//! kernels are the scalar conversions of `crate::scalar`. The tables are
//! listed once, in [`ALL`], as utf8-simd lists its kernels.
//!
//! # Layout
//!
//! - `generic/{count,latin1,utf32}.rs`: those families written once over
//!   `codec_arch::Simd` for every architecture (their 16-byte steps through
//!   `Simd::base`, and `Latin1Lanes`, implemented in `x86_64/lanes.rs` and
//!   `aarch64/lanes.rs`), instantiated per instruction set by the
//!   three-line `x86_64/{sse41,avx2,avx512}/{count,latin1,utf32}.rs` and by
//!   aarch64's table with the `Neon` token; `generic/utf16_utf8.rs`,
//!   UTF-16 → UTF-8 over `Simd` and `Utf16Simd`, and
//!   `generic/utf8_utf16.rs`, UTF-8 → UTF-16 over `Simd` and `Utf8Simd`
//!   (both implemented in the same `lanes.rs` files, with the UTF-32
//!   output of 32-byte registers in `x86_64/lanes.rs`), instantiated in
//!   `x86_64/{sse41,avx2}/mod.rs` and by aarch64's table; `avx512/` has no such kernels (its
//!   table takes AVX2's, `x86_64/mod.rs` says why), and `avx512vbmi2/` has
//!   the `vpcompressb` kernels (`mod.rs`, with `utf8_latin1.rs` and
//!   `utf32_utf16.rs`).
//! - `x86_64/mod.rs`: the four x86-64 tables; a table entry that an
//!   instruction set has no kernel for is the next smaller one's.
//! - `aarch64/`: `neon.rs` (the ASCII prefixes), `lanes.rs`, and the NEON table,
//!   which instantiates the generic families and whose missing entries are
//!   the portable table's.
//! - Beside them, what several instruction sets share: `block.rs` (the
//!   loop of the kernels whose stores write past their output),
//!   `common.rs` (their scalar fallbacks) and `tables.rs` (their shuffle
//!   tables).

use crate::scalar::{self, Latin1, Utf8, Utf8Checked, Utf16, Utf16Bytes, Utf32};
use codec_arch::Isa;
use codec_core::Utf8Error;

#[cfg(all(target_arch = "aarch64", target_feature = "neon"))]
pub(crate) mod aarch64;
#[cfg(target_arch = "x86_64")]
pub(crate) mod x86_64;
// The families written once over `codec_arch::Simd`, for every
// architecture with a token (NEON's is little-endian only).
#[cfg(any(
    target_arch = "x86_64",
    all(
        target_arch = "aarch64",
        target_feature = "neon",
        target_endian = "little"
    )
))]
pub(crate) mod generic;

// What the SIMD kernels share: the block loop, the scalar fallbacks for
// the blocks their vector paths do not take, and the shuffle tables.
cfg_if::cfg_if! {
    if #[cfg(any(
        target_arch = "x86_64",
        all(
            target_arch = "aarch64",
            target_feature = "neon",
            target_endian = "little"
        )
    ))] {
        mod block;
        mod common;
        mod tables;
    }
}

/// A conversion kernel; see the module docs for its contract.
pub(crate) type Convert<S, D> = unsafe fn(&[S], &mut [D]) -> (usize, usize);
/// A count kernel: the whole count.
pub(crate) type Count<S> = unsafe fn(&[S]) -> usize;

/// One set of kernels (an instruction set's): its name, the CPU features
/// it needs, and its entry points, one per conversion and count. The list
/// of them is [`kernels`](crate::kernels).
pub struct Kernel {
    /// Short lower-case name, as [`Transcoder::name`](crate::Transcoder::name)
    /// reports it (display and benchmarks only).
    pub(crate) name: &'static str,
    /// What the kernels need (`codec_arch`'s levels).
    pub(crate) isa: Isa,
    /// The utf8-simd kernel that validates UTF-8 input, exactly: the one of
    /// the same instruction set, by reference; `None`: utf8-simd's own
    /// dispatched choice.
    pub(crate) utf8: Option<&'static utf8_simd::Kernel>,
    /// Valid UTF-8 to UTF-16.
    pub(crate) utf8_to_utf16: Convert<u8, u16>,
    /// Any bytes to UTF-16, up to the first block with a byte above 0x7F:
    /// the ASCII prefix, which needs no validation.
    pub(crate) ascii_to_utf16: Convert<u8, u16>,
    /// Any bytes to UTF-32, up to the first block with a byte above 0x7F,
    /// as [`ascii_to_utf16`](Self::ascii_to_utf16) for UTF-16.
    pub(crate) ascii_to_utf32: Convert<u8, u32>,
    /// Valid UTF-8 to UTF-16 in bytes: `[native order, swapped]`.
    pub(crate) utf8_to_utf16_bytes: [Convert<u8, [u8; 2]>; 2],
    /// As [`ascii_to_utf16`](Self::ascii_to_utf16) for UTF-16 in bytes:
    /// `[native order, swapped]`.
    pub(crate) ascii_to_utf16_bytes: [Convert<u8, [u8; 2]>; 2],
    /// Valid UTF-8 to UTF-32.
    pub(crate) utf8_to_utf32: Convert<u8, u32>,
    /// UTF-8 to Latin-1, validating: any bytes may be given; stops before
    /// characters above U+00FF and before anything not well-formed (the
    /// scalar step finds the exact error), so no validation pass is needed.
    pub(crate) utf8_to_latin1: Convert<u8, u8>,
    /// UTF-16 to UTF-8, stopping before errors.
    pub(crate) utf16_to_utf8: Convert<u16, u8>,
    /// UTF-16 in bytes to UTF-8, stopping before errors: `[native order,
    /// swapped]`.
    pub(crate) utf16_bytes_to_utf8: [Convert<[u8; 2], u8>; 2],
    /// UTF-16 to UTF-32, stopping before errors.
    pub(crate) utf16_to_utf32: Convert<u16, u32>,
    /// UTF-16 to Latin-1, stopping before errors and characters above
    /// U+00FF.
    pub(crate) utf16_to_latin1: Convert<u16, u8>,
    /// UTF-32 to UTF-8, stopping before errors.
    pub(crate) utf32_to_utf8: Convert<u32, u8>,
    /// UTF-32 to UTF-16, stopping before errors.
    pub(crate) utf32_to_utf16: Convert<u32, u16>,
    /// UTF-32 to Latin-1, stopping before errors and characters above
    /// U+00FF.
    pub(crate) utf32_to_latin1: Convert<u32, u8>,
    /// Latin-1 to UTF-8.
    pub(crate) latin1_to_utf8: Convert<u8, u8>,
    /// Latin-1 to UTF-16.
    pub(crate) latin1_to_utf16: Convert<u8, u16>,
    /// Latin-1 to UTF-32.
    pub(crate) latin1_to_utf32: Convert<u8, u32>,
    /// Bytes that are not continuation bytes (characters, for valid UTF-8).
    pub(crate) count_utf8: Count<u8>,
    /// UTF-16 length of valid UTF-8.
    pub(crate) utf16_len_from_utf8: Count<u8>,
    /// `char::decode_utf16(src).count()`.
    pub(crate) count_utf16: Count<u16>,
    /// `String::from_utf16_lossy(src).len()`.
    pub(crate) utf8_len_from_utf16: Count<u16>,
    /// UTF-8 length of Latin-1.
    pub(crate) utf8_len_from_latin1: Count<u8>,
    /// UTF-8 length of lossy UTF-32.
    pub(crate) utf8_len_from_utf32: Count<u32>,
    /// UTF-16 length of lossy UTF-32.
    pub(crate) utf16_len_from_utf32: Count<u32>,
}

/// The scalar conversions and counts, for every target.
pub(crate) static PORTABLE: Kernel = Kernel {
    name: "portable",
    isa: Isa::PORTABLE,
    // On x86-64 the SIMD tables exist and "portable" means scalar all the
    // way (for the tests that name it); elsewhere this is the dispatched
    // table, and validation takes utf8-simd's own choice (NEON on
    // aarch64).
    utf8: if cfg!(target_arch = "x86_64") {
        Some(utf8_simd::Kernel::PORTABLE)
    } else {
        None
    },
    utf8_to_utf16: scalar::convert::<Utf8, Utf16>,
    ascii_to_utf16: scalar::ascii_to_utf16,
    ascii_to_utf32: scalar::ascii_to_utf32,
    utf8_to_utf16_bytes: [
        scalar::convert::<Utf8, Utf16Bytes<false>>,
        scalar::convert::<Utf8, Utf16Bytes<true>>,
    ],
    ascii_to_utf16_bytes: [
        scalar::ascii_to_utf16_bytes::<false>,
        scalar::ascii_to_utf16_bytes::<true>,
    ],
    utf8_to_utf32: scalar::convert::<Utf8, Utf32>,
    utf8_to_latin1: scalar::convert::<Utf8Checked, Latin1>,
    utf16_to_utf8: scalar::convert::<Utf16, Utf8>,
    utf16_bytes_to_utf8: [
        scalar::convert::<Utf16Bytes<false>, Utf8>,
        scalar::convert::<Utf16Bytes<true>, Utf8>,
    ],
    utf16_to_utf32: scalar::convert::<Utf16, Utf32>,
    utf16_to_latin1: scalar::convert::<Utf16, Latin1>,
    utf32_to_utf8: scalar::convert::<Utf32, Utf8>,
    utf32_to_utf16: scalar::convert::<Utf32, Utf16>,
    utf32_to_latin1: scalar::convert::<Utf32, Latin1>,
    latin1_to_utf8: scalar::convert::<Latin1, Utf8>,
    latin1_to_utf16: scalar::convert::<Latin1, Utf16>,
    latin1_to_utf32: scalar::convert::<Latin1, Utf32>,
    count_utf8: crate::count::scalar::count_utf8,
    utf16_len_from_utf8: crate::count::scalar::utf16_len_from_utf8,
    count_utf16: crate::count::scalar::count_utf16,
    utf8_len_from_utf16: crate::count::scalar::utf8_len_from_utf16,
    utf8_len_from_latin1: crate::count::scalar::utf8_len_from_latin1,
    utf8_len_from_utf32: crate::count::scalar::utf8_len_from_utf32,
    utf16_len_from_utf32: crate::count::scalar::utf16_len_from_utf32,
};

/// Every set of kernels compiled for the target, fastest first: the one
/// list of them. Dispatch takes the first one this CPU can run;
/// [`Transcoder::all`](crate::Transcoder::all), the per-ISA constructors,
/// the tests, the guard-page tests, the fuzz targets and the benchmarks
/// iterate it (through [`kernels`](crate::kernels)).
pub(crate) const ALL: &[&Kernel] = &[
    #[cfg(target_arch = "x86_64")]
    &x86_64::AVX512VBMI2,
    #[cfg(target_arch = "x86_64")]
    &x86_64::AVX512,
    #[cfg(target_arch = "x86_64")]
    &x86_64::AVX2,
    #[cfg(target_arch = "x86_64")]
    &x86_64::SSE41,
    #[cfg(all(target_arch = "aarch64", target_feature = "neon"))]
    &aarch64::NEON,
    &PORTABLE,
];

impl Kernel {
    /// The name: `"avx512vbmi2"`, `"avx512"`, `"avx2"`, `"sse4.1"`, `"neon"`, `"portable"`.
    #[must_use]
    pub const fn name(&self) -> &'static str {
        self.name
    }

    /// The CPU features the kernels need, as `target_feature` names
    /// separated by commas (empty for the portable ones).
    #[must_use]
    pub const fn features(&self) -> &'static str {
        self.isa.features()
    }

    /// Whether this CPU can run them.
    #[must_use]
    pub fn is_available(&self) -> bool {
        self.isa.is_available()
    }

    /// Exact UTF-8 validation with the table's utf8-simd kernel (its
    /// `KernelValidator`: no short-input path), or utf8-simd's dispatched
    /// choice where the table names none or this CPU cannot run it.
    #[inline]
    pub(crate) fn validate_utf8(&self, src: &[u8]) -> Result<(), Utf8Error> {
        match self.utf8.and_then(utf8_simd::Kernel::validator) {
            Some(v) => codec_core::Utf8Validator::validate(&v, src),
            None => utf8_simd::validate(src),
        }
    }

    /// These kernels as a [`Transcoder`](crate::Transcoder), if this CPU can
    /// run them.
    #[must_use]
    pub fn transcoder(&'static self) -> Option<crate::Transcoder> {
        Checked::new(self).map(crate::Transcoder::from_checked)
    }
}

impl core::fmt::Debug for Kernel {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Kernel")
            .field("name", &self.name)
            .field("features", &self.features())
            .finish_non_exhaustive()
    }
}

impl codec_arch::Registered for Kernel {
    fn isa(&self) -> Isa {
        self.isa
    }
}

/// A table whose CPU features are present: only [`Checked::new`] and
/// [`Checked::best`] make one, and its methods are the safe way to call its
/// kernels.
#[derive(Clone, Copy)]
pub(crate) struct Checked(&'static Kernel);

impl Checked {
    /// `k`, if this CPU can run it.
    pub(crate) fn new(k: &'static Kernel) -> Option<Checked> {
        k.is_available().then_some(Checked(k))
    }

    /// The portable table, which every CPU can run.
    pub(crate) fn portable() -> Checked {
        Checked(&PORTABLE)
    }

    /// The first table of [`ALL`] that this CPU can run (cached with `std`).
    #[inline]
    pub(crate) fn best() -> Checked {
        Checked(dispatch::best())
    }

    /// The table.
    #[inline]
    pub(crate) fn kernels(self) -> &'static Kernel {
        self.0
    }

    /// Runs the conversion kernel `pick` chooses from the table, and clamps
    /// its answer to the slices (which a correct kernel never needs).
    #[inline(always)]
    pub(crate) fn convert<S, D>(
        self,
        pick: impl FnOnce(&Kernel) -> Convert<S, D>,
        src: &[S],
        dst: &mut [D],
    ) -> (usize, usize) {
        let kernel = pick(self.0);
        let (max_read, max_written) = (src.len(), dst.len());
        // SAFETY: every entry of a table needs only the CPU features its
        // `available` checks, and a `Checked` exists only for a table whose
        // `available` returned true (`new`), or that dispatch chose by the
        // same test (`best`).
        let (r, w) = unsafe { kernel(src, dst) };
        (r.min(max_read), w.min(max_written))
    }

    /// Runs the count kernel `pick` chooses from the table.
    #[inline(always)]
    pub(crate) fn count<S>(self, pick: impl FnOnce(&Kernel) -> Count<S>, src: &[S]) -> usize {
        let kernel = pick(self.0);
        // SAFETY: as in `convert`.
        unsafe { kernel(src) }
    }
}

mod dispatch {
    //! The first table of `ALL` this CPU can run, chosen once and cached
    //! (`codec_arch::Dispatch`).

    use super::{ALL, Kernel};
    use codec_arch::Dispatch;

    static CHOSEN: Dispatch<Kernel> = Dispatch::new_refs(ALL);

    #[inline]
    pub(super) fn best() -> &'static Kernel {
        CHOSEN.get()
    }
}

/// The tables the per-ISA constructors (`Transcoder::avx2()` and the
/// like) name, by reference; `None` where the target has no such table.
pub(crate) mod named {
    use super::Kernel;

    #[cfg(target_arch = "x86_64")]
    pub(crate) const SSE41: Option<&'static Kernel> = Some(&super::x86_64::SSE41);
    #[cfg(target_arch = "x86_64")]
    pub(crate) const AVX2: Option<&'static Kernel> = Some(&super::x86_64::AVX2);
    #[cfg(target_arch = "x86_64")]
    pub(crate) const AVX512: Option<&'static Kernel> = Some(&super::x86_64::AVX512);
    #[cfg(target_arch = "x86_64")]
    pub(crate) const AVX512VBMI2: Option<&'static Kernel> = Some(&super::x86_64::AVX512VBMI2);
    #[cfg(not(target_arch = "x86_64"))]
    pub(crate) const SSE41: Option<&'static Kernel> = None;
    #[cfg(not(target_arch = "x86_64"))]
    pub(crate) const AVX2: Option<&'static Kernel> = None;
    #[cfg(not(target_arch = "x86_64"))]
    pub(crate) const AVX512: Option<&'static Kernel> = None;
    #[cfg(not(target_arch = "x86_64"))]
    pub(crate) const AVX512VBMI2: Option<&'static Kernel> = None;
    #[cfg(all(target_arch = "aarch64", target_feature = "neon"))]
    pub(crate) const NEON: Option<&'static Kernel> = Some(&super::aarch64::NEON);
    #[cfg(not(all(target_arch = "aarch64", target_feature = "neon")))]
    pub(crate) const NEON: Option<&'static Kernel> = None;
}
