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
//! The first call detects the CPU's features (the `cpufeatures` crate:
//! `cpuid` and `xgetbv`, so it also works without `std`) and caches a
//! pointer to the best table in a static `AtomicPtr`; every later call
//! loads it (memchr's scheme, with `static` tables of entry points rather
//! than transmuted pointers). aarch64 has the NEON table (`aarch64`, chosen
//! at compile time: NEON is part of the target), whose missing entries are
//! the portable table's; other targets get the portable table, whose
//! kernels are the scalar conversions of `crate::scalar`. The tables are
//! listed once, in [`ALL`], as utf8-simd lists its kernels.
//!
//! # Layout
//!
//! One file per family and instruction set, so that families can be worked
//! on independently: `aarch64/` holds `utf8_utf16.rs`, `utf16_utf8.rs`
//! and `neon.rs` (the rest); `x86_64/{sse41,avx2,avx512}/` hold
//! `utf8_utf16.rs` (UTF-8 → UTF-16), `utf16_utf8.rs` (UTF-16 → UTF-8),
//! `utf32.rs` (UTF-32 to and from UTF-8 and UTF-16), `latin1.rs` (Latin-1
//! to and from everything) and `count.rs` (counts and lengths), each
//! written as the family grows; a table entry that an instruction set does
//! not have yet points to the next smaller instruction set's kernel, or to
//! the portable one. What several instruction sets share sits beside
//! them: `block.rs` (the loop of the kernels whose stores write past their
//! output), `common.rs` (their scalar fallbacks) and `tables.rs` (their
//! shuffle tables).

use crate::scalar::{self, Latin1, Utf8, Utf8Checked, Utf16, Utf16Bytes, Utf32};
use codec_core::Utf8Error;

#[cfg(all(target_arch = "aarch64", target_feature = "neon"))]
pub(crate) mod aarch64;
#[cfg(target_arch = "x86_64")]
pub(crate) mod x86_64;

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
    /// reports it.
    pub(crate) name: &'static str,
    /// The CPU features the kernels need, as `target_feature` names.
    pub(crate) features: &'static str,
    /// Whether this CPU can run the kernels.
    pub(crate) available: fn() -> bool,
    /// UTF-8 validation, exact (utf8-simd's kernel of the same instruction
    /// set).
    pub(crate) validate_utf8: fn(&[u8]) -> Result<(), Utf8Error>,
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
    features: "",
    available: || true,
    // On x86-64 the SIMD tables exist and "portable" means scalar all the
    // way (for the tests that name it); elsewhere this is the dispatched
    // table, and validation takes utf8-simd's own choice (NEON on
    // aarch64).
    validate_utf8: |src| {
        if cfg!(target_arch = "x86_64") {
            validate_with("portable", src)
        } else {
            utf8_simd::validate(src)
        }
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
pub(crate) static ALL: &[&Kernel] = &[
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
        self.features
    }

    /// Whether this CPU can run them.
    #[must_use]
    pub fn is_available(&self) -> bool {
        (self.available)()
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
            .field("features", &self.features)
            .finish_non_exhaustive()
    }
}

/// UTF-8 validation with utf8-simd's kernel called `name` (from its
/// registry), or its dispatched choice if this CPU cannot run that one.
pub(crate) fn validate_with(name: &str, src: &[u8]) -> Result<(), Utf8Error> {
    let kernel = utf8_simd::kernels().iter().find(|k| k.name() == name);
    match kernel.and_then(|k| k.validator()) {
        Some(v) => codec_core::Utf8Validator::validate(&v, src),
        None => utf8_simd::validate(src),
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
        (k.available)().then_some(Checked(k))
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
    //! Detection, once (cpufeatures reads `cpuid`, with or without `std`),
    //! cached in an atomic pointer.

    use super::{ALL, Kernel, PORTABLE};
    use core::sync::atomic::{AtomicPtr, Ordering};

    /// The chosen table, or null before the first call.
    static CHOSEN: AtomicPtr<Kernel> = AtomicPtr::new(core::ptr::null_mut());

    #[inline]
    pub(super) fn best() -> &'static Kernel {
        let p = CHOSEN.load(Ordering::Relaxed);
        if p.is_null() {
            return detect();
        }
        // SAFETY: CHOSEN is only ever null or a pointer to one of the
        // `static` tables in ALL (stored by `detect`), which live forever
        // and are never written through.
        unsafe { &*p }
    }

    #[cold]
    fn detect() -> &'static Kernel {
        let k: &'static Kernel = ALL
            .iter()
            .copied()
            .find(|k| k.is_available())
            .unwrap_or(&PORTABLE);
        CHOSEN.store(core::ptr::from_ref(k).cast_mut(), Ordering::Relaxed);
        k
    }
}
