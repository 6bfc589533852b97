//! The single-byte engine's kernels, and the crate's only `unsafe` code.
//!
//! A kernel's `to_utf16(table, src, dst)` converts the longest prefix of
//! `src` (at most `dst.len()` bytes) that has no undefined byte into
//! `dst`, one UTF-16 unit per byte, and returns its length; the caller
//! ([`crate::single_byte`], [`crate::decoder`]) handles the undefined byte.
//! Beside it a kernel may have a fused decoder straight to UTF-8
//! ([`Utf8Fn`], through [`decode_to_utf8_with`], writing into the `String`'s
//! spare capacity) and a dense encoder from UTF-8 ([`EncodeFn`], through
//! [`encode_dense`]); `None` where it has none, and the engine's portable
//! path does that work (UTF-8 output in two passes through UTF-16,
//! encoding through 16-byte scalar windows). The x86-64 kernels: AVX-512
//! VBMI2 and VBMI (all three; VBMI2's compact with byte compresses), AVX2
//! and SSE4.1 (all three, written once over codec-arch's `Simd`; their
//! encoders for ASCII-compatible pages; their decoders take the blocks
//! that fall in a page's affine rows, [`Affine`], without the sixteen row
//! look-ups; their encoders and VBMI's the blocks whose characters fall in
//! the affine runs of the dense table's slices, [`Dense`], without a
//! slice's look-up); on aarch64 NEON (all three, every page).
//! The scalar kernel is the reference; the others are tested against it
//! on every table (`tests` below, and the engine's tests in
//! [`crate::single_byte`]), the NEON one under qemu (`cargo xtask cross`),
//! where its speed cannot be measured.
//!
//! Dispatch: `codec_arch::Dispatch`, as every crate of the workspace (the
//! CPU asked once, the chosen kernel cached in an `AtomicPtr`); all three
//! entry points come from the one chosen kernel, on every architecture.

#[cfg(target_arch = "aarch64")]
pub(crate) mod aarch64;
/// The tables and the scalar tail the SIMD kernels share.
#[cfg_attr(
    not(any(target_arch = "x86_64", target_arch = "aarch64")),
    allow(dead_code)
)]
mod common;
/// The search for the next byte of a small set (CP1255's and CP1258's
/// marks), over codec-arch's `Simd`, dispatched on its own.
pub(crate) mod marks;
#[cfg(target_arch = "x86_64")]
pub(crate) mod x86_64;

use crate::single_byte::SingleByte;
use codec_arch::{Dispatch, Isa, Registered};
#[cfg(target_arch = "x86_64")]
use common::to_utf16_scalar;
pub(crate) use common::{Affine, Dense};
#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
use common::{COMPRESS, KEEP, utf8_scalar};
use core::mem::MaybeUninit;

/// One implementation of the engine: its entry points, `None` where it
/// has no kernel of that kind (the caller's portable path does that work).
#[derive(Debug)]
pub(crate) struct Kernel {
    /// For tests and reports.
    #[cfg_attr(not(test), allow(dead_code))]
    pub(crate) name: &'static str,
    /// See the module docs.
    ///
    /// # Safety
    ///
    /// The CPU must have the kernel's features ([`Kernel::isa`]).
    pub(crate) to_utf16: unsafe fn(page: &SingleByte, src: &[u8], dst: &mut [Unit]) -> usize,
    /// The fused decoder to UTF-8, if the kernel has one: see [`Utf8Fn`].
    pub(crate) to_utf8: Option<Utf8Fn>,
    /// The dense encoder, if the kernel has one: see [`Encoder`].
    pub(crate) encode: Option<Encoder>,
    /// The ASCII copier and widener, if the kernel has them: see [`Ascii`].
    pub(crate) ascii: Option<Ascii>,
    /// What the CPU must have to run the kernel.
    pub(crate) isa: Isa,
}

/// A fused decoder to UTF-8: decodes the longest prefix of `src` with no
/// undefined byte, as far as `dst` holds it, to UTF-8 at the start of
/// `dst`, and returns the bytes read and written. `dst[..written]` is
/// initialised and valid UTF-8 (each unit is a BMP character that is not a
/// surrogate: the generator checks). It stops early only at an undefined
/// byte or when `dst` might not hold the next block's output or character;
/// with `dst.len() >= 3 * src.len()` only at an undefined byte (the tail
/// that does not fit a block's stores goes one byte at a time).
///
/// # Safety
///
/// The CPU must have the kernel's features ([`Kernel::isa`]).
pub(crate) type Utf8Fn = unsafe fn(
    page: &SingleByte,
    src: &[u8],
    dst: &mut [core::mem::MaybeUninit<u8>],
) -> (usize, usize);

/// A kernel's ASCII runs, for ASCII-compatible text (the low half of the
/// page is ASCII, or the text is UTF-8 or Latin-1): the longest run of
/// whole blocks of ASCII at the start of `src`, as far as `dst` holds
/// them, copied (`copy`) or widened to UTF-16 units (`widen`) to the start
/// of `dst`; returns its length, after which `dst[..len]` is initialised.
/// A run shorter than a block is left to the caller.
///
/// # Safety
///
/// The CPU must have the kernel's features ([`Kernel::isa`]).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Ascii {
    /// Copies ASCII.
    pub(crate) copy: unsafe fn(src: &[u8], dst: &mut [core::mem::MaybeUninit<u8>]) -> usize,
    /// Widens ASCII to UTF-16.
    pub(crate) widen: unsafe fn(src: &[u8], dst: &mut [Unit]) -> usize,
    /// Counts the bytes of `src` equal to a byte (no copy: the lines of a
    /// coder's output).
    pub(crate) count: unsafe fn(src: &[u8], b: u8) -> usize,
    /// Copies as `copy`, counting the copied bytes equal to a byte: the
    /// length, the count and the index of the last one.
    pub(crate) copy_counting:
        unsafe fn(src: &[u8], dst: &mut [core::mem::MaybeUninit<u8>], b: u8) -> Counted,
    /// Widens as `widen`, counting as `copy_counting`.
    pub(crate) widen_counting: unsafe fn(src: &[u8], dst: &mut [Unit], b: u8) -> Counted,
}

/// A run copied by [`Ascii::copy_counting`]: its length, how many of its
/// bytes equal the byte asked for, and the index of the last one.
pub(crate) type Counted = (usize, usize, Option<usize>);

/// A dense encoder: encodes UTF-8 `src[i..]` through `dense` (code point →
/// byte for U+0000–U+07FF, 0 for none, and its affine runs: [`Dense`])
/// into `dst[w..]`, a block at a time, while a block has only one- and
/// two-byte characters that are all mapped (not 0); returns the new
/// `(i, w)` at the first block that is not so, for the caller's exact
/// path, `dst[w..]` initialised up to the new `w` (what [`Out`] counts on;
/// bytes past it may be written too). `i` must be at a character boundary
/// of valid UTF-8; each character writes one byte.
///
/// # Safety
///
/// The CPU must have the kernel's features ([`Kernel::isa`]).
pub(crate) type EncodeFn = unsafe fn(
    dense: &Dense,
    src: &[u8],
    dst: &mut [MaybeUninit<u8>],
    i: usize,
    w: usize,
) -> (usize, usize);

/// A kernel's dense encoder.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Encoder {
    /// The encoder.
    pub(crate) run: EncodeFn,
    /// The encoder on bytes that may not be UTF-8 (`src[i..]` at the
    /// start of a character or not): it takes only blocks of well-formed
    /// UTF-8, so that the caller need not validate them first
    /// ([`encode_dense_checked`]).
    pub(crate) checked: Option<EncodeFn>,
    /// Whether it handles only ASCII-compatible pages (not EBCDIC).
    pub(crate) ascii_only: bool,
}

/// A dense encoder the CPU runs: made only by [`Kernel::dense_encoder`],
/// which checked the features; with its kernel's ASCII copier where the
/// page is ASCII-compatible.
#[derive(Debug, Clone, Copy)]
pub(crate) struct DenseEncoder(EncodeFn, Option<Ascii>);

impl DenseEncoder {
    /// Appends the run of whole ASCII blocks at the start of `src` to
    /// `dst` ([`Ascii`], into its spare capacity, `src.len()` bytes
    /// reserved); returns its length: 0 on a page that is not
    /// ASCII-compatible or a kernel without a copier.
    pub(crate) fn append_ascii(self, src: &[u8], dst: &mut Vec<u8>) -> usize {
        // SAFETY: a `DenseEncoder` is made only for a kernel whose
        // features the CPU has (`Kernel::dense_encoder`).
        self.1
            .map_or(0, |a| unsafe { append_ascii_by(a, src, dst) })
    }

    /// See [`EncodeFn`].
    fn encode(
        self,
        dense: &Dense,
        src: &[u8],
        dst: &mut [MaybeUninit<u8>],
        i: usize,
        w: usize,
    ) -> (usize, usize) {
        // SAFETY: a `DenseEncoder` is made only for a kernel whose
        // features the CPU has (`Kernel::dense_encoder`).
        unsafe { (self.0)(dense, src, dst, i, w) }
    }
}

/// Bytes written in order into the spare capacity of a `Vec<u8>` (see
/// [`append_with`]): a single-byte encoder's output, not zeroed first.
/// Bytes past a mark may be written and then cut back.
pub(crate) struct Out<'a> {
    buf: &'a mut [MaybeUninit<u8>],
    len: usize,
}

impl Out<'_> {
    /// How many bytes are written.
    pub(crate) fn len(&self) -> usize {
        self.len
    }

    /// Writes `b` next (within the room [`append_with`] was given).
    pub(crate) fn push(&mut self, b: u8) {
        self.buf[self.len].write(b);
        self.len += 1;
    }

    /// Writes `bytes` next (within the room [`append_with`] was given).
    pub(crate) fn extend(&mut self, bytes: &[u8]) {
        let to = &mut self.buf[self.len..self.len + bytes.len()];
        for (slot, &b) in to.iter_mut().zip(bytes) {
            slot.write(b);
        }
        self.len += bytes.len();
    }

    /// Forgets what was written from `len` on.
    pub(crate) fn truncate(&mut self, len: usize) {
        self.len = self.len.min(len);
    }

    /// Encodes UTF-8 `src` from `i` through `encoder` ([`EncodeFn`]),
    /// writing next; returns where it stopped in `src`.
    pub(crate) fn dense(
        &mut self,
        encoder: DenseEncoder,
        dense: &Dense,
        src: &[u8],
        i: usize,
    ) -> usize {
        let (i, w) = encoder.encode(dense, src, self.buf, i, self.len);
        self.len = w;
        i
    }
}

/// Appends to `dst` what `fill` writes into an [`Out`] over `room` bytes
/// of `dst`'s spare capacity, and returns `fill`'s result.
pub(crate) fn append_with<R>(
    dst: &mut Vec<u8>,
    room: usize,
    fill: impl FnOnce(&mut Out<'_>) -> R,
) -> R {
    dst.reserve(room);
    let start = dst.len();
    let mut out = Out {
        buf: &mut dst.spare_capacity_mut()[..room],
        len: 0,
    };
    let result = fill(&mut out);
    let len = out.len;
    // SAFETY: `out.len` counts bytes written from the start of the spare
    // capacity, within it: each by `push` or `extend`, or by a dense
    // encoder, which initialises `dst[w..]` up to the `w` it returns (its
    // contract, tested against the scalar reference); `truncate` only
    // lowers it.
    unsafe { dst.set_len(start + len) };
    result
}

impl Registered for Kernel {
    fn isa(&self) -> Isa {
        self.isa
    }
}

/// A UTF-16 unit a kernel writes: into a `Vec`'s spare capacity, so the
/// output is not zeroed first.
pub(crate) type Unit = core::mem::MaybeUninit<u16>;

impl Kernel {
    /// Converts through this kernel into initialised units, if the CPU
    /// can run it.
    pub(crate) fn to_utf16(&self, page: &SingleByte, src: &[u8], dst: &mut [u16]) -> Option<usize> {
        // SAFETY: `MaybeUninit<u16>` has the layout of `u16`, and the
        // kernels write only initialised units (never uninit) into it.
        let dst = unsafe { &mut *(core::ptr::from_mut(dst) as *mut [Unit]) };
        self.to_utf16_uninit(page, src, dst)
    }

    /// Converts through this kernel, if the CPU can run it: `dst[..n]` is
    /// then initialised.
    pub(crate) fn to_utf16_uninit(
        &self,
        page: &SingleByte,
        src: &[u8],
        dst: &mut [Unit],
    ) -> Option<usize> {
        if !self.isa.is_available() {
            return None;
        }
        // SAFETY: the CPU has the kernel's features: checked just above.
        Some(unsafe { (self.to_utf16)(page, src, dst) })
    }

    /// Decodes through this kernel's fused UTF-8 decoder ([`Utf8Fn`]), if
    /// it has one and the CPU can run it.
    #[cfg(test)]
    pub(crate) fn to_utf8_uninit(
        &self,
        page: &SingleByte,
        src: &[u8],
        dst: &mut [core::mem::MaybeUninit<u8>],
    ) -> Option<(usize, usize)> {
        let f = self.to_utf8.filter(|_| self.isa.is_available())?;
        // SAFETY: the CPU has the kernel's features: checked just above.
        Some(unsafe { f(page, src, dst) })
    }

    /// This kernel's dense encoder for a page (`ascii`: ASCII-compatible),
    /// if it has one for such a page and the CPU can run it.
    pub(crate) fn dense_encoder(&self, ascii: bool) -> Option<DenseEncoder> {
        self.encoder_by(ascii, |e| Some(e.run))
    }

    /// This kernel's checked dense encoder ([`Encoder::checked`]) for a
    /// page, as [`Kernel::dense_encoder`].
    pub(crate) fn checked_encoder(&self, ascii: bool) -> Option<DenseEncoder> {
        self.encoder_by(ascii, |e| e.checked)
    }

    /// The form `pick` chooses of this kernel's dense encoder, for a page
    /// (`ascii`: ASCII-compatible) it handles, if the CPU can run it.
    fn encoder_by(
        &self,
        ascii: bool,
        pick: impl FnOnce(&Encoder) -> Option<EncodeFn>,
    ) -> Option<DenseEncoder> {
        let run = pick(self.encode.as_ref().filter(|e| ascii || !e.ascii_only)?)?;
        let copy = self.ascii.filter(|_| ascii);
        self.isa.is_available().then_some(DenseEncoder(run, copy))
    }

    /// Copies the run of ASCII at the start of `src` to `dst` through
    /// this kernel's [`Ascii`] copier: its length, 0 where the kernel has
    /// none or the CPU cannot run it.
    fn copy_ascii(&self, src: &[u8], dst: &mut [core::mem::MaybeUninit<u8>]) -> usize {
        match self.ascii.filter(|_| self.isa.is_available()) {
            // SAFETY: the CPU has the kernel's features: checked just above.
            Some(a) => unsafe { (a.copy)(src, dst) },
            None => 0,
        }
    }

    /// As [`Kernel::copy_ascii`], widening to UTF-16.
    fn widen_ascii(&self, src: &[u8], dst: &mut [Unit]) -> usize {
        match self.ascii.filter(|_| self.isa.is_available()) {
            // SAFETY: the CPU has the kernel's features: checked just above.
            Some(a) => unsafe { (a.widen)(src, dst) },
            None => 0,
        }
    }
}

/// The reference: one table look-up per byte.
pub(crate) static SCALAR: Kernel = Kernel {
    name: "scalar",
    to_utf16: scalar_to_utf16,
    to_utf8: None,
    encode: None,
    ascii: None,
    isa: Isa::PORTABLE,
};

/// Every kernel, the scalar one last.
pub(crate) const ALL: &[&Kernel] = &[
    #[cfg(target_arch = "x86_64")]
    &x86_64::VBMI2,
    #[cfg(target_arch = "x86_64")]
    &x86_64::VBMI,
    #[cfg(target_arch = "x86_64")]
    &x86_64::AVX2,
    #[cfg(target_arch = "x86_64")]
    &x86_64::SSSE3,
    #[cfg(target_arch = "aarch64")]
    &aarch64::NEON,
    &SCALAR,
];

/// `unsafe` only to fit the kernel type: it needs no CPU feature.
unsafe fn scalar_to_utf16(page: &SingleByte, src: &[u8], dst: &mut [Unit]) -> usize {
    common::to_utf16_scalar(page.table, src, dst)
}

/// Bytes decoded to UTF-8 per call of the fused kernel: its output
/// reservation (three bytes a byte) stays small and in cache.
const UTF8_CHUNK: usize = 16 * 1024;

/// Decodes `src` straight to UTF-8 through the kernel `k`, appending to
/// `dst`, where `k` has a fused decoder this CPU runs: `Some(n)` with `n`
/// the length of the prefix without an undefined byte (all of it, or
/// `src[n]` is undefined); `None` leaves the work to the two-pass path.
pub(crate) fn decode_to_utf8_with(
    k: &Kernel,
    page: &SingleByte,
    src: &[u8],
    dst: &mut String,
) -> Option<usize> {
    // Checked once: a kernel that gave up after some chunks would leave
    // their output appended and the caller starting over.
    let f = k.to_utf8.filter(|_| k.isa.is_available())?;
    let mut i = 0;
    // Two bytes a byte, the most of a page without characters from
    // U+0800; a chunk that needs more asks again below.
    let mut per_byte = 2;
    // Reserved for the whole input at once: a vector grown chunk by chunk
    // is copied at each doubling (`realloc`'s copies were 3–4% of `codec
    // convert`'s CPU time from windows-1252, `perf`).
    dst.reserve(per_byte * src.len() + 192);
    while i < src.len() {
        let chunk = &src[i..src.len().min(i + UTF8_CHUNK)];
        // SAFETY: the bytes appended below are the kernel's output, which
        // it initialised and which is valid UTF-8 (its contract, tested
        // against the scalar reference); nothing else is changed.
        let bytes = unsafe { dst.as_mut_vec() };
        bytes.reserve(per_byte * chunk.len() + 192);
        let start = bytes.len();
        let spare = bytes.spare_capacity_mut();
        // Whole blocks of ASCII first: copied, no table.
        let skip = if page.ascii_compatible() {
            k.copy_ascii(chunk, spare)
        } else {
            0
        };
        // SAFETY: the CPU has the kernel's features: checked above.
        let (read, written) = unsafe { f(page, &chunk[skip..], &mut spare[skip..]) };
        let (read, written) = (skip + read, skip + written);
        // SAFETY: the kernel initialised `written` bytes of the spare
        // capacity, within it (its contract).
        unsafe { bytes.set_len(start + written) };
        i += read;
        if read < chunk.len() {
            if page.table[usize::from(src[i])] == crate::single_byte::UNDEFINED {
                return Some(i);
            }
            // Out of room (characters of three bytes): with three bytes a
            // byte reserved, only an undefined byte stops it.
            per_byte = 3;
        }
    }
    Some(i)
}

/// Bytes of Latin-1 a step of [`latin1_to_utf8`]: the zeroed output of a
/// step that is not all ASCII stays in cache.
const LATIN1_STEP: usize = 4096;

/// Appends Latin-1 `src` to `dst` as UTF-8: each step's run of ASCII
/// through the chosen kernel's copier ([`Ascii`], into the spare
/// capacity), the rest through transcode's Latin-1 kernel, which writes
/// into a zeroed slice (`latin1_to_string` would build a second `String`
/// and copy it).
pub(crate) fn latin1_to_utf8(src: &[u8], dst: &mut String) {
    let k = chosen();
    // SAFETY: what stays appended is ASCII copied from `src`, or
    // transcode's UTF-8 of `src` (valid UTF-8, its contract); the zeros
    // written before transcode's output are valid UTF-8 too, should
    // anything between unwind.
    let bytes = unsafe { dst.as_mut_vec() };
    for step in src.chunks(LATIN1_STEP) {
        // Two bytes a byte at most.
        bytes.reserve(2 * step.len());
        let start = bytes.len();
        let skip = k.copy_ascii(step, bytes.spare_capacity_mut());
        // SAFETY: the copier initialised the first `skip` bytes of the
        // spare capacity (its contract), within it.
        unsafe { bytes.set_len(start + skip) };
        let rest = &step[skip..];
        if rest.is_empty() {
            continue;
        }
        let start = bytes.len();
        bytes.resize(start + 2 * rest.len(), 0);
        match transcode::latin1_to_utf8(rest, &mut bytes[start..]) {
            Ok(n) => bytes.truncate(start + n),
            // Not reached: there is room for every character.
            Err(_) => {
                bytes.truncate(start);
                for &b in rest {
                    let mut buf = [0; 4];
                    bytes.extend_from_slice(char::from(b).encode_utf8(&mut buf).as_bytes());
                }
            }
        }
    }
}

/// Appends the run of whole ASCII blocks at the start of `src` to `dst`
/// through the chosen kernel's copier ([`Ascii`], into its spare
/// capacity, `src.len()` bytes reserved); returns its length (0 where the
/// kernel has none).
pub(crate) fn append_ascii(src: &[u8], dst: &mut Vec<u8>) -> usize {
    match chosen().ascii.filter(|_| chosen().isa.is_available()) {
        // SAFETY: the CPU has the kernel's features: checked just above.
        Some(a) => unsafe { append_ascii_by(a, src, dst) },
        None => 0,
    }
}

/// The number of bytes of `src` equal to `b`, through the chosen kernel's
/// counter ([`Ascii`]) where it has one, else `memchr`'s.
pub(crate) fn count_byte(src: &[u8], b: u8) -> usize {
    match chosen().ascii.filter(|_| chosen().isa.is_available()) {
        // SAFETY: the CPU has the kernel's features: checked just above.
        Some(a) => unsafe { (a.count)(src, b) },
        None => memchr::memchr_iter(b, src).count(),
    }
}

/// As [`append_ascii`], counting the appended bytes equal to `b`: the
/// length, the count and the index of the last one (a strict encoder's
/// lines, counted while the text is in registers).
pub(crate) fn append_ascii_counting(src: &[u8], dst: &mut Vec<u8>, b: u8) -> Counted {
    let Some(a) = chosen().ascii.filter(|_| chosen().isa.is_available()) else {
        return (0, 0, None);
    };
    dst.reserve(src.len());
    let start = dst.len();
    // SAFETY: the CPU has the kernel's features: checked just above.
    let (n, count, last) = unsafe { (a.copy_counting)(src, dst.spare_capacity_mut(), b) };
    // SAFETY: the copier initialised the first `n` bytes of the spare
    // capacity (its contract), within it.
    unsafe { dst.set_len(start + n) };
    (n, count, last)
}

/// As [`append_ascii_counting`], widening to UTF-16.
pub(crate) fn append_ascii_widened_counting(src: &[u8], dst: &mut Vec<u16>, b: u8) -> Counted {
    let Some(a) = chosen().ascii.filter(|_| chosen().isa.is_available()) else {
        return (0, 0, None);
    };
    dst.reserve(src.len());
    let start = dst.len();
    // SAFETY: the CPU has the kernel's features: checked just above.
    let (n, count, last) = unsafe { (a.widen_counting)(src, dst.spare_capacity_mut(), b) };
    // SAFETY: the widener initialised the first `n` units of the spare
    // capacity (its contract), within it.
    unsafe { dst.set_len(start + n) };
    (n, count, last)
}

/// [`append_ascii_counting`] into a `String`.
pub(crate) fn append_ascii_counting_str(src: &[u8], dst: &mut String, b: u8) -> Counted {
    // SAFETY: what is appended is a run of `src` the copier found ASCII
    // (its contract): valid UTF-8.
    append_ascii_counting(src, unsafe { dst.as_mut_vec() }, b)
}

/// [`append_ascii`] through `a`.
///
/// # Safety
///
/// The CPU must have the features of `a`'s kernel.
unsafe fn append_ascii_by(a: Ascii, src: &[u8], dst: &mut Vec<u8>) -> usize {
    dst.reserve(src.len());
    let start = dst.len();
    // SAFETY: the caller proves the features.
    let n = unsafe { (a.copy)(src, dst.spare_capacity_mut()) };
    // SAFETY: the copier initialised the first `n` bytes of the spare
    // capacity (its contract), within it.
    unsafe { dst.set_len(start + n) };
    n
}

/// Decodes the longest prefix of `src` without an undefined byte to
/// UTF-16 through the best kernel, appending to `dst`; returns its length.
/// The kernel writes into the spare capacity, a cache-sized chunk at a
/// time.
pub(crate) fn decode_to_utf16(page: &SingleByte, src: &[u8], dst: &mut Vec<u16>) -> usize {
    decode_to_utf16_with(chosen(), page, src, dst)
}

/// [`decode_to_utf16`] through the kernel `k` (the scalar one where this
/// CPU cannot run `k`).
pub(crate) fn decode_to_utf16_with(
    k: &Kernel,
    page: &SingleByte,
    src: &[u8],
    dst: &mut Vec<u16>,
) -> usize {
    // A unit a byte, reserved at once (see `decode_to_utf8_with`).
    dst.reserve(src.len());
    let mut i = 0;
    while i < src.len() {
        let chunk = &src[i..src.len().min(i + UTF8_CHUNK)];
        let start = dst.len();
        dst.reserve(chunk.len());
        let out = &mut dst.spare_capacity_mut()[..chunk.len()];
        // Whole blocks of ASCII first: widened, no table.
        let skip = if page.ascii_compatible() {
            k.widen_ascii(chunk, out)
        } else {
            0
        };
        let (rest, out) = (&chunk[skip..], &mut out[skip..]);
        let n = skip
            + match k.to_utf16_uninit(page, rest, out) {
                Some(n) => n,
                None => SCALAR.to_utf16_uninit(page, rest, out).unwrap_or(0),
            };
        // SAFETY: the kernel initialised the first `n` units of the spare
        // capacity (its contract), within it.
        unsafe { dst.set_len(start + n) };
        i += n;
        if n < chunk.len() {
            break;
        }
    }
    i
}

/// The dense encoders this CPU runs for a page (`ascii`: ASCII-compatible),
/// best first, named (the tests run each).
#[cfg(test)]
pub(crate) fn dense_encoders(ascii: bool) -> Vec<(&'static str, DenseEncoder)> {
    ALL.iter()
        .filter_map(|k| Some((k.name, k.dense_encoder(ascii)?)))
        .collect()
}

/// The chosen kernel's dense encoder for the page, if it has one
/// (AVX-512 VBMI and NEON; AVX2 and SSE4.1 for an ASCII-compatible page).
pub(crate) fn encode_dense(ascii: bool) -> Option<DenseEncoder> {
    chosen().dense_encoder(ascii)
}

/// The chosen kernel's checked dense encoder for the page
/// ([`Encoder::checked`]), if it has one (x86-64's; not NEON's).
pub(crate) fn encode_dense_checked(ascii: bool) -> Option<DenseEncoder> {
    chosen().checked_encoder(ascii)
}

/// The checked dense encoders this CPU runs for a page, named (the tests
/// run each).
#[cfg(test)]
pub(crate) fn checked_encoders(ascii: bool) -> Vec<(&'static str, DenseEncoder)> {
    ALL.iter()
        .filter_map(|k| Some((k.name, k.checked_encoder(ascii)?)))
        .collect()
}

static CHOSEN: Dispatch<Kernel> = Dispatch::new_refs(ALL);

/// The best kernel this CPU runs, chosen once.
pub(crate) fn chosen() -> &'static Kernel {
    CHOSEN.get()
}

#[cfg(test)]
mod tests {
    use super::*;
    use core::mem::MaybeUninit;

    /// Every kernel's byte counter ([`Ascii`]) against a count a byte at a
    /// time: lengths around its steps and past a counter's round (255
    /// steps of four registers: 65,280 bytes in 64-byte ones), on bytes
    /// that all match (each byte counter's most) and on random ones.
    #[test]
    fn counters_equal_a_byte_at_a_time() {
        let mut next = crate::xorshift(0x5EED_C0DE_u64);
        for len in [
            0, 1, 63, 64, 127, 255, 256, 257, 32_640, 32_641, 65_280, 65_281, 200_000,
        ] {
            let all = vec![b'\n'; len];
            let some: Vec<u8> = (0..len)
                .map(|_| [b'\n', b'a', 0x25][next() as usize % 3])
                .collect();
            for bytes in [&all, &some] {
                for b in [b'\n', 0x25] {
                    let want = bytes.iter().filter(|&&x| x == b).count();
                    assert_eq!(count_byte(bytes, b), want, "{len}");
                    for k in ALL.iter().filter(|k| k.isa.is_available()) {
                        if let Some(a) = k.ascii {
                            // SAFETY: the CPU has the kernel's features: checked above.
                            let got = unsafe { (a.count)(bytes, b) };
                            assert_eq!(got, want, "{} {len}", k.name);
                        }
                    }
                }
            }
        }
    }

    /// Every kernel's ASCII copier and widener ([`Ascii`]), counting and
    /// not, against the bytes themselves: lengths around the steps and
    /// past a counter's round (255 steps: 8,160 bytes widened with
    /// 16-byte registers to 65,280 copied with 64-byte ones), a byte from
    /// 0x80 at several places, and room for all, for less, for none. What
    /// is written is `src[..n]` (widened), nothing after it changes (a
    /// poison value), `n` stops short of the ASCII that fits by less than
    /// a step (256 bytes at the most), and the count and last index are
    /// those of `src[..n]`.
    #[test]
    fn ascii_copiers_equal_the_bytes() {
        let mut next = crate::xorshift(0x00A5_C11C_0DE5_u64);
        let lens: [usize; 23] = [
            0, 1, 15, 16, 17, 63, 64, 65, 127, 128, 129, 255, 256, 257, 8_160, 8_161, 16_320,
            16_321, 32_640, 32_641, 65_280, 65_281, 70_000,
        ];
        for len in lens {
            let ascii: Vec<u8> = (0..len)
                .map(|_| [b'\n', b'a', b'Z', 0][next() as usize % 4])
                .collect();
            let mut srcs = vec![ascii.clone()];
            for at in [0, len / 3, len.saturating_sub(1)] {
                if at < len {
                    let mut src = ascii.clone();
                    src[at] = 0x80 | next() as u8;
                    srcs.push(src);
                }
            }
            for src in &srcs {
                let prefix = src.iter().position(|x| !x.is_ascii()).unwrap_or(len);
                for room in [len, len / 2, 0] {
                    let fits = prefix.min(room);
                    for k in ALL.iter().filter(|k| k.isa.is_available()) {
                        let Some(a) = k.ascii else { continue };
                        let (copy, widen) =
                            ((a.copy, a.copy_counting), (a.widen, a.widen_counting));
                        // SAFETY: the CPU has the kernel's features: checked above.
                        unsafe { check_ascii_run(k.name, src, room, fits, copy, 0xAA) };
                        // SAFETY: as above.
                        unsafe { check_ascii_run(k.name, src, room, fits, widen, 0xAAAA) };
                    }
                }
            }
        }
    }

    /// A copier and its counting form (`copy` or `widen`), of one kernel.
    type CopierPair<U> = (
        unsafe fn(&[u8], &mut [MaybeUninit<U>]) -> usize,
        unsafe fn(&[u8], &mut [MaybeUninit<U>], u8) -> Counted,
    );

    /// [`ascii_copiers_equal_the_bytes`] for one copier (`plain`) and its
    /// counting form, of kernel `name`, into `room` units of `U` filled
    /// with `poison`: `fits` is the ASCII at the start of `src` that `room`
    /// holds.
    ///
    /// # Safety
    ///
    /// The CPU must have the features of the copiers' kernel.
    unsafe fn check_ascii_run<U: Copy + PartialEq + From<u8> + core::fmt::Debug>(
        name: &str,
        src: &[u8],
        room: usize,
        fits: usize,
        (plain, counting): CopierPair<U>,
        poison: U,
    ) {
        let b = b'\n';
        let mut out = vec![MaybeUninit::new(poison); room];
        // SAFETY: the caller's guarantee.
        let n = unsafe { plain(src, &mut out) };
        let mut again = vec![MaybeUninit::new(poison); room];
        // SAFETY: the caller's guarantee.
        let (m, count, last) = unsafe { counting(src, &mut again, b) };
        let what = format!("{name} {}", core::any::type_name::<U>());
        let want = |n: usize| {
            let count = src[..n].iter().filter(|&&x| x == b).count();
            (count, src[..n].iter().rposition(|&x| x == b))
        };
        assert_eq!((count, last), want(m), "{what} {}", src.len());
        for (out, n) in [(&out, n), (&again, m)] {
            assert!(n <= fits && fits - n < 256, "{what} {} {n}", src.len());
            // SAFETY: every unit of `out` was initialised above.
            let got: Vec<U> = out.iter().map(|x| unsafe { x.assume_init() }).collect();
            let written: Vec<U> = src[..n].iter().map(|&x| U::from(x)).collect();
            assert_eq!(got[..n], written[..], "{what} {}", src.len());
            assert!(
                got[n..].iter().all(|&x| x == poison),
                "{what} {}",
                src.len()
            );
        }
    }

    #[test]
    fn utf8_kernels_equal_scalar() {
        let kernels: Vec<&Kernel> = ALL
            .iter()
            .copied()
            .filter(|k| k.to_utf8.is_some() && k.isa.is_available())
            .collect();
        eprintln!(
            "fused UTF-8 kernels tested: {:?}",
            kernels.iter().map(|k| k.name).collect::<Vec<_>>()
        );
        let mut next = crate::xorshift(0x0F05_ED00_7777_u64);
        for page in crate::single_byte::all_pages() {
            let table = page.table;
            let defined: Vec<u8> = (0..=255u8)
                .filter(|&b| table[usize::from(b)] != 0xFFFF)
                .collect();
            for len in (0..=300).chain([1000, 4096]) {
                for round in 0..3 {
                    let src: Vec<u8> = (0..len)
                        .map(|_| match round {
                            0 => next() as u8,
                            1 => defined[next() as usize % defined.len()],
                            _ if next().is_multiple_of(4) => {
                                defined[next() as usize % defined.len()]
                            }
                            _ => next() as u8 & 0x7F,
                        })
                        .collect();
                    let mut want = String::new();
                    let mut read = 0;
                    for &b in &src {
                        match page.decode_byte(b) {
                            Some(c) => want.push(c),
                            None => break,
                        }
                        read += 1;
                    }
                    for k in &kernels {
                        // Room for everything, and too little room (the
                        // kernel stops at a block or character it might
                        // not fit: what it wrote is the UTF-8 of what it
                        // read).
                        for room in [3 * len, len + len / 3] {
                            let mut out = vec![core::mem::MaybeUninit::new(0xAAu8); room];
                            let (r, w) = k.to_utf8_uninit(page, &src, &mut out).unwrap();
                            // SAFETY: every byte of `out` was initialised above.
                            let got: Vec<u8> = out[..w]
                                .iter()
                                .map(|b| unsafe { b.assume_init() })
                                .collect();
                            if room == 3 * len {
                                assert_eq!(
                                    (r, got.as_slice()),
                                    (read, want.as_bytes()),
                                    "{} {src:02X?}",
                                    k.name
                                );
                            } else {
                                let prefix: String = src[..r]
                                    .iter()
                                    .map(|&b| page.decode_byte(b).unwrap())
                                    .collect();
                                assert!(r <= read, "{} {src:02X?}", k.name);
                                assert_eq!(got, prefix.as_bytes(), "{} {src:02X?}", k.name);
                            }
                        }
                    }
                }
            }
        }
    }

    /// [`decode_to_utf8_with`] through each fused kernel the CPU runs, on
    /// text of the page's widest characters longer than several chunks
    /// (the kernel out of room at two bytes a byte, then asked again at
    /// three), then an undefined byte: the text before it, and where.
    #[test]
    fn chunked_utf8_decode_equals_scalar() {
        for k in ALL
            .iter()
            .filter(|k| k.to_utf8.is_some() && k.isa.is_available())
        {
            for page in crate::single_byte::all_pages() {
                let widest = (0..=255u8)
                    .filter_map(|b| Some((page.decode_byte(b)?.len_utf8(), b)))
                    .max()
                    .map(|(_, b)| b);
                let mut src: Vec<u8> = (0..2 * UTF8_CHUNK + 100)
                    .map(|i| {
                        if i % 5 == 0 {
                            b'a'
                        } else {
                            widest.unwrap_or(0)
                        }
                    })
                    .collect();
                let undefined = (0..=255u8).find(|&b| page.decode_byte(b).is_none());
                src.extend(undefined);
                src.extend_from_slice(b"tail");
                let mut got = String::from("s");
                let n = decode_to_utf8_with(k, page, &src, &mut got);
                let mut want = String::from("s");
                let mut read = 0;
                for &b in &src {
                    let Some(c) = page.decode_byte(b) else { break };
                    want.push(c);
                    read += 1;
                }
                assert_eq!(n, Some(read), "{}", k.name);
                assert!(got == want, "{}", k.name);
            }
        }
    }

    /// Every kernel against the scalar one, on every table, at every
    /// length up to 70 and every undefined byte position.
    #[test]
    fn kernels_equal_scalar() {
        let mut next = crate::xorshift(0x1234_5678_9ABC_DEF0_u64);
        for k in ALL {
            if !k.isa.is_available() {
                eprintln!("note: this CPU cannot run the {} kernel", k.name);
                continue;
            }
            for page in crate::single_byte::all_pages() {
                let table = page.table;
                for len in 0..70 {
                    for _ in 0..8 {
                        let src: Vec<u8> = (0..len).map(|_| next() as u8).collect();
                        let mut a = vec![0xAAAA; len + 3];
                        let mut b = vec![0xAAAA; len + 3];
                        let n = k.to_utf16(page, &src, &mut a[..len]);
                        let m = SCALAR.to_utf16(page, &src, &mut b[..len]);
                        assert_eq!(n, m, "{} {src:02X?}", k.name);
                        // Nothing past what it reports, nothing past dst.
                        assert_eq!(a[..], b[..], "{}", k.name);
                    }
                    // All bytes defined: the whole input.
                    let defined: Vec<u8> = (0..=255u8)
                        .filter(|&b| table[usize::from(b)] != 0xFFFF)
                        .collect();
                    let src: Vec<u8> = (0..len)
                        .map(|_| defined[next() as usize % defined.len()])
                        .collect();
                    let mut a = vec![0; len];
                    assert_eq!(k.to_utf16(page, &src, &mut a), Some(len));
                    let expected: Vec<u16> = src.iter().map(|&b| table[usize::from(b)]).collect();
                    assert_eq!(a, expected, "{}", k.name);
                }
                // A shorter dst than src.
                let src = [0x41u8; 40];
                let mut a = [0u16; 17];
                assert_eq!(
                    k.to_utf16(page, &src, &mut a),
                    SCALAR.to_utf16(page, &src, &mut [0u16; 17])
                );
            }
        }
    }

    /// The rows [`Affine`] finds in pages whose mappings are published
    /// facts: windows-1251 C0–FF are U+0410–U+044F; IBM866 80–AF are
    /// U+0410–U+043F and E0–EF U+0440–U+044F; windows-1252 A0–FF are
    /// U+00A0–U+00FF; ISO-8859-7 C0–CF are U+0390–U+039F, its D row
    /// (U+03A0–U+03AF) lacks D2 and its F row (U+03C0–U+03CE) FF; KOI8-R
    /// orders its Cyrillic as the Latin alphabet, so no row is affine.
    #[test]
    fn affine_rows_of_known_pages() {
        use crate::single_byte::{
            WHATWG_IBM866, WHATWG_ISO_8859_7, WHATWG_KOI8_R, WHATWG_WINDOWS_1251,
            WHATWG_WINDOWS_1252,
        };
        // (page, high rows decoded both ways, the units of their byte 0)
        let cases: [(&SingleByte, &[(usize, u16)]); 4] = [
            (
                &WHATWG_WINDOWS_1251,
                &[(0xC, 0x410), (0xD, 0x420), (0xE, 0x430), (0xF, 0x440)],
            ),
            (
                &WHATWG_IBM866,
                &[(0x8, 0x410), (0x9, 0x420), (0xA, 0x430), (0xE, 0x440)],
            ),
            (
                &WHATWG_WINDOWS_1252,
                &[
                    (0xA, 0xA0),
                    (0xB, 0xB0),
                    (0xC, 0xC0),
                    (0xD, 0xD0),
                    (0xE, 0xE0),
                    (0xF, 0xF0),
                ],
            ),
            (
                &WHATWG_ISO_8859_7,
                &[(0xC, 0x390), (0xD, 0x3A0), (0xE, 0x3B0), (0xF, 0x3C0)],
            ),
        ];
        for (page, rows) in cases {
            let a = &page.affine;
            assert!(a.any16 && a.any8);
            for &(r, c0) in rows {
                let delta = c0.wrapping_sub(16 * r as u16);
                assert_eq!(a.not16[r], 0, "row {r:X}");
                assert_eq!(u16::from_le_bytes([a.delta_lo[r], a.delta_hi[r]]), delta);
                assert_eq!(a.lead[r], 0xC0 | (c0 >> 6) as u8, "row {r:X}");
            }
            // ASCII rows map each byte to itself.
            for r in 0..8 {
                assert_eq!((a.not16[r], a.lead[r], a.delta_lo[r]), (0, 0, 0));
            }
        }
        assert_eq!(WHATWG_ISO_8859_7.affine.hole[0xD], 0xD2);
        assert_eq!(WHATWG_ISO_8859_7.affine.hole[0xF], 0xFF);
        assert_eq!(WHATWG_WINDOWS_1251.affine.not16[0x8], 0xFF);
        assert_eq!(WHATWG_KOI8_R.affine.not16[8..], [0xFF; 8]);
        assert!(!WHATWG_KOI8_R.affine.any16 && !WHATWG_KOI8_R.affine.any8);
    }

    /// On every page, what [`Affine`] says of a row holds for each of its
    /// bytes: the unit is the byte plus the row's delta, and for UTF-8 the
    /// lead and continuation follow from the row's lead and step.
    #[test]
    fn affine_rows_hold_for_every_byte() {
        for page in crate::single_byte::all_pages() {
            let a = &page.affine;
            for b in 0..=255u8 {
                let (r, u) = (usize::from(b >> 4), page.table[usize::from(b)]);
                if u == crate::single_byte::UNDEFINED {
                    assert!(a.not16[r] == 0xFF || a.hole[r] == b, "{b:02X}");
                    continue;
                }
                assert_ne!(a.hole[r], b);
                if a.not16[r] == 0 {
                    let delta = u16::from_le_bytes([a.delta_lo[r], a.delta_hi[r]]);
                    assert_eq!(u16::from(b).wrapping_add(delta), u, "{b:02X}");
                }
                match a.lead[r] {
                    0xFF => {}
                    0 => assert_eq!(u, u16::from(b), "{b:02X}"),
                    lead => {
                        let c = char::from_u32(u.into()).unwrap();
                        let mut buf = [0; 4];
                        let want = c.encode_utf8(&mut buf).as_bytes();
                        assert_eq!(want, [lead, b.wrapping_add(a.step[r])], "{b:02X}");
                    }
                }
            }
        }
    }

    /// The units and the UTF-8 of `src` on `page` as far as its first
    /// undefined byte, one byte at a time: the reference.
    fn reference(page: &SingleByte, src: &[u8]) -> (Vec<u16>, String) {
        let mut text = String::new();
        let units = src
            .iter()
            .map_while(|&b| {
                text.push(page.decode_byte(b)?);
                Some(page.table[usize::from(b)])
            })
            .collect();
        (units, text)
    }

    /// `src` through every kernel this CPU runs, to UTF-16 (nothing
    /// written past what it reports) and through the fused UTF-8 decoders,
    /// against [`reference`].
    fn check_kernels(page: &SingleByte, src: &[u8]) {
        let (units, text) = reference(page, src);
        let len = src.len();
        for k in ALL.iter().filter(|k| k.isa.is_available()) {
            let mut got = vec![0xAAAA; len + 3];
            let n = k.to_utf16(page, src, &mut got[..len]).unwrap();
            let mut want = units.clone();
            want.resize(len + 3, 0xAAAA);
            assert_eq!((n, &got), (units.len(), &want), "{} {src:02X?}", k.name);
            let mut out = vec![core::mem::MaybeUninit::new(0u8); 3 * len];
            if let Some((r, w)) = k.to_utf8_uninit(page, src, &mut out) {
                // SAFETY: every byte of `out` was initialised above.
                let got: Vec<u8> = out[..w]
                    .iter()
                    .map(|b| unsafe { b.assume_init() })
                    .collect();
                assert_eq!(r, units.len(), "{} {src:02X?}", k.name);
                assert!(got == text.as_bytes(), "{} {src:02X?}", k.name);
            }
        }
    }

    /// On every page, text of each row's bytes alone (blocks the affine
    /// path takes where the row is affine), then with a byte of another
    /// row (the full look-up), and with an undefined byte, at each of the
    /// first 64 positions (every position of a 16-byte and of a 32-byte
    /// block); then text mixing all the affine rows of the page.
    #[test]
    fn affine_path_at_every_position() {
        let mut next = crate::xorshift(0xAFF1_0E5E_ED00_u64);
        for page in crate::single_byte::all_pages() {
            let defined = |r: usize| -> Vec<u8> {
                (16 * r..16 * r + 16)
                    .filter(|&b| page.table[b] != crate::single_byte::UNDEFINED)
                    .map(|b| b as u8)
                    .collect()
            };
            // The undefined bytes that are a row's only one (the rows'
            // `hole`), and the first undefined byte.
            let undefined: Vec<u8> = (0..=255u8)
                .filter(|&b| page.decode_byte(b).is_none())
                .collect();
            let mut stops: Vec<u8> = undefined
                .iter()
                .copied()
                .filter(|&b| undefined.iter().filter(|&&u| u >> 4 == b >> 4).count() == 1)
                .collect();
            stops.extend(undefined.first());
            for r in 0..16 {
                let row = defined(r);
                if row.is_empty() {
                    continue;
                }
                let base: Vec<u8> = (0..96).map(|i| row[(i * 7 + r) % row.len()]).collect();
                check_kernels(page, &base);
                for p in 0..64 {
                    let mut src = base.clone();
                    let other = defined((r + 1 + p) % 16);
                    if let Some(&b) = other.get(p % other.len().max(1)) {
                        src[p] = b;
                        check_kernels(page, &src);
                    }
                    for &u in &stops {
                        src[p] = u;
                        check_kernels(page, &src);
                    }
                }
            }
            let affine: Vec<u8> = (0..16)
                .filter(|&r| page.affine.not16[r] == 0 || page.affine.lead[r] != 0xFF)
                .flat_map(defined)
                .collect();
            if affine.is_empty() {
                continue;
            }
            for len in 0..100 {
                let src: Vec<u8> = (0..len)
                    .map(|_| affine[next() as usize % affine.len()])
                    .collect();
                check_kernels(page, &src);
            }
        }
    }

    /// A page whose bytes 0x00-0x1F are not ASCII (swapped in pairs) and
    /// 0x20-0x7F are, with affine rows from 0x80 (to U+0400-U+047F, 0xFF
    /// undefined): a block of bytes below 0x80 is not ASCII there, yet its
    /// rows from 0x20 are affine.
    fn not_quite_ascii() -> &'static SingleByte {
        let mut table = [0u16; 256];
        for (b, u) in table.iter_mut().enumerate() {
            *u = match b {
                0..0x20 => (b ^ 1) as u16,
                0x20..0x80 => b as u16,
                0xFF => crate::single_byte::UNDEFINED,
                _ => 0x0400 + (b - 0x80) as u16,
            };
        }
        Box::leak(Box::new(SingleByte::new(Box::leak(Box::new(table)))))
    }

    /// On every page with affine rows (and [`not_quite_ascii`]), runs of
    /// 16 or 32 bytes (the block sizes) each either of bytes below 0x80
    /// only (copied on an ASCII page, left to the look-up on another) or
    /// of bytes of the affine rows, with a byte of another row or an
    /// undefined one at each of the first 128 positions: the affine runs
    /// of the UTF-16 and the fused UTF-8 decoders left and re-entered at
    /// every block, with room for all and, to UTF-8, too little room (what
    /// was written is the UTF-8 of what was read).
    #[test]
    fn affine_runs_between_other_blocks() {
        let mut next = crate::xorshift(0x6AEE_4B10_C0C5_u64);
        let kernels: Vec<&Kernel> = ALL
            .iter()
            .copied()
            .filter(|k| k.to_utf8.is_some() && k.isa.is_available())
            .collect();
        let mut pages = crate::single_byte::all_pages();
        pages.push(not_quite_ascii());
        for page in pages {
            let defined = |b: &u8| page.table[usize::from(*b)] != crate::single_byte::UNDEFINED;
            let in_affine = |b: &u8| page.affine.lead[usize::from(*b >> 4)] != 0xFF;
            let affine: Vec<u8> = (0x80..=0xFF).filter(defined).filter(in_affine).collect();
            let low: Vec<u8> = (0..0x80).filter(defined).collect();
            let others: Vec<u8> = (0..=0xFF)
                .filter(|b| !in_affine(b) || !defined(b))
                .collect();
            if affine.is_empty() || low.is_empty() {
                continue;
            }
            for run in [16, 32] {
                let base: Vec<u8> = (0..8 * run)
                    .map(|i| {
                        if (i / run) % 3 == 1 {
                            low[next() as usize % low.len()]
                        } else {
                            affine[next() as usize % affine.len()]
                        }
                    })
                    .collect();
                check_kernels(page, &base);
                for p in 0..128 {
                    let mut src = base.clone();
                    src[p] = others[(p * 7) % others.len()];
                    check_kernels(page, &src);
                    let (_, text) = reference(page, &src);
                    for k in &kernels {
                        let mut out = vec![core::mem::MaybeUninit::new(0u8); 2 * src.len()];
                        let (r, w) = k.to_utf8_uninit(page, &src, &mut out).unwrap();
                        // SAFETY: every byte of `out` was initialised above.
                        let got: Vec<u8> = out[..w]
                            .iter()
                            .map(|b| unsafe { b.assume_init() })
                            .collect();
                        let prefix: String = src[..r]
                            .iter()
                            .map(|&b| page.decode_byte(b).unwrap())
                            .collect();
                        assert!(r <= text.chars().count(), "{} {src:02X?}", k.name);
                        assert!(got == prefix.as_bytes(), "{} {src:02X?}", k.name);
                    }
                }
            }
        }
    }

    /// On every page, text of bytes below 0x80 and from 0xC0 (KOI8's
    /// letters: the top quarter's look-up where no row from 0xC0 is
    /// affine), alone and with a byte from 0x80–0xBF or an undefined byte
    /// at each of the first 64 positions.
    #[test]
    fn top_quarter_at_every_position() {
        let mut next = crate::xorshift(0x7090_C0C0_1234_u64);
        for page in crate::single_byte::all_pages() {
            let defined = |b: &u8| page.table[usize::from(*b)] != crate::single_byte::UNDEFINED;
            let top: Vec<u8> = (0xC0..=0xFF).filter(defined).collect();
            let low: Vec<u8> = (0..0x80).filter(defined).collect();
            let middle: Vec<u8> = (0x80..0xC0).filter(defined).collect();
            let undefined: Vec<u8> = (0..=255).filter(|b| !defined(b)).collect();
            if top.is_empty() || low.is_empty() {
                continue;
            }
            let mut text = |len: usize| -> Vec<u8> {
                (0..len)
                    .map(|_| match next() % 3 {
                        0 => low[next() as usize % low.len()],
                        _ => top[next() as usize % top.len()],
                    })
                    .collect()
            };
            for len in 0..100 {
                check_kernels(page, &text(len));
            }
            let base = text(96);
            for p in 0..64 {
                let mut src = base.clone();
                for others in [&middle, &undefined] {
                    if let Some(&b) = others.get(p % others.len().max(1)) {
                        src[p] = b;
                        check_kernels(page, &src);
                    }
                }
            }
        }
    }
}
