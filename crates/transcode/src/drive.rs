//! The conversion loops every family shares, and the mapping from where a
//! conversion stopped ([`Outcome`]) to each public form's result.
//!
//! - [`drive`]: kernel, then scalar, in turns: the kernel converts what it
//!   can; [`scalar::step`] converts the next [`STEP`] units exactly (and
//!   finds any error there); then the kernel gets another go.
//! - [`from_utf8_ascii`]: UTF-8 input is validated (utf8-simd) a [`CHUNK`] at a
//!   time and each valid stretch converted with [`drive`] from valid UTF-8;
//!   an error found by the validator is rebuilt on the whole input with
//!   `Utf8Error::at`, so it is what `core::str::from_utf8` reports.
//! - [`strict`], [`lossy`], [`partial`], [`lossy_partial`]: an [`Outcome`]
//!   as each public form returns it. [`remaining`] computes, on the cold
//!   path, how much more output an input needs.

use crate::Transcoder;
use crate::arch::{Checked, Convert, Kernel};
use crate::direction::{self, Direction, Encoding};
use crate::error::{Error, ErrorKind, Progress, Utf16Error, Utf16ErrorKind};
use crate::scalar::{self, Malformed, Sink, Source, Stop, Utf8};
use codec_core::utf8::unfinished_start;
use codec_core::{BufferTooSmall, Utf8Error};

/// Input units the scalar step converts before the kernel gets another try.
/// Small, so one odd character does not keep a long text on the scalar path;
/// large enough that a text the kernel cannot handle at all (or the end of
/// a buffer) does not pay a kernel call per character.
pub(crate) const STEP: usize = 64;

/// Bytes of UTF-8 validated at a time before they are converted, so that
/// the conversion finds them in the L1 or L2 cache.
pub(crate) const CHUNK: usize = 16 * 1024;

/// Picks a conversion kernel from a table.
pub(crate) type Pick<S, D> = fn(&Kernel) -> Convert<S, D>;

/// Where a conversion ended: `dst[..written]` holds the conversion of
/// `src[..read]`, and `stop` says why it ended before the end of `src`.
#[derive(Clone, Copy, Debug)]
pub struct Outcome<E> {
    pub(crate) read: usize,
    pub(crate) written: usize,
    pub(crate) stop: Option<Stop<E>>,
}

/// Converts `src` to `dst` with the kernel `pick` chooses and the scalar
/// step, alternately, up to the end of `src` or the first stop.
#[inline]
pub(crate) fn drive<S: Source, K: Sink, const LOSSY: bool>(
    t: Checked,
    pick: fn(&Kernel) -> Convert<S::Unit, K::Unit>,
    src: &[S::Unit],
    dst: &mut [K::Unit],
) -> Outcome<S::Error>
where
    S::Error: Malformed,
{
    let (mut i, mut o) = (0, 0);
    while let (Some(s), Some(d)) = (src.get(i..), dst.get_mut(o..)) {
        let (r, w) = t.convert(pick, s, d);
        i += r;
        o += w;
        if i >= src.len() {
            break;
        }
        let limit = i.saturating_add(STEP);
        if let Some(stop) = scalar::step::<S, K, LOSSY>(src, &mut i, dst, &mut o, limit) {
            return Outcome {
                read: i,
                written: o,
                stop: Some(stop),
            };
        }
        if i >= src.len() {
            break;
        }
    }
    Outcome {
        read: i,
        written: o,
        stop: None,
    }
}

/// As [`drive`] from valid UTF-8, with the ASCII kernel `ascii` on the
/// ASCII prefix first (it writes exactly what it converts, and is the
/// fastest path for ASCII text).
#[inline]
pub(crate) fn drive_ascii<K: Sink, const LOSSY: bool>(
    t: Checked,
    ascii: fn(&Kernel) -> Convert<u8, K::Unit>,
    pick: fn(&Kernel) -> Convert<u8, K::Unit>,
    src: &[u8],
    dst: &mut [K::Unit],
) -> Outcome<core::convert::Infallible> {
    let (r, w) = t.convert(ascii, src, dst);
    // Valid input: `LOSSY` changes nothing.
    let rest = drive::<Utf8, K, LOSSY>(
        t,
        pick,
        src.get(r..).unwrap_or(&[]),
        dst.get_mut(w..).unwrap_or(&mut []),
    );
    Outcome {
        read: r + rest.read,
        written: w + rest.written,
        stop: rest.stop,
    }
}

/// The end of the validation chunk that starts at `start`: `start + CHUNK`,
/// moved back before a character the chunk would cut (codec-core's
/// `unfinished_start`, the streaming engine's rule), or the end of `src`.
fn chunk_end(src: &[u8], start: usize) -> usize {
    let end = start.saturating_add(CHUNK);
    match src.get(start..end) {
        Some(chunk) if end < src.len() => start + unfinished_start(chunk),
        _ => src.len(),
    }
}

/// Converts UTF-8 `src` with the valid-input kernel `pick` chooses: validates
/// a chunk, converts its valid part, and at an error stops (`LOSSY` false)
/// or writes U+FFFD for the maximal invalid subpart and goes on, exactly as
/// `String::from_utf8_lossy` does. Where the kernel table has an ASCII
/// kernel for this output (`ascii`: it converts the ASCII prefix of its
/// input, block by block, which needs no validation), each chunk's ASCII
/// prefix is converted first and only the rest validated. On pure ASCII
/// this saves the validation pass (measured in
/// `docs/results/transcode.md`).
#[inline]
pub(crate) fn from_utf8_ascii<K: Sink, const LOSSY: bool>(
    t: Checked,
    ascii: Option<Pick<u8, K::Unit>>,
    pick: fn(&Kernel) -> Convert<u8, K::Unit>,
    src: &[u8],
    dst: &mut [K::Unit],
) -> Outcome<Utf8Error> {
    let kernels = t.kernels();
    let validate = |s: &[u8]| kernels.validate_utf8(s);
    let (mut i, mut o) = (0, 0);
    while i < src.len() {
        let end = chunk_end(src, i);
        if let Some(ascii) = ascii {
            let chunk = src.get(i..end).unwrap_or(&[]);
            let (r, w) = t.convert(ascii, chunk, dst.get_mut(o..).unwrap_or(&mut []));
            i += r;
            o += w;
            if i == end {
                continue;
            }
        }
        let chunk = src.get(i..end).unwrap_or(&[]);
        let (valid, error) = match validate(chunk) {
            Ok(()) => (chunk, None),
            // The chunk may end inside what the whole input shows to be an
            // invalid sequence: the error is rebuilt on the whole input.
            Err(e) => (
                chunk.get(..e.valid_up_to()).unwrap_or(&[]),
                Some(Utf8Error::at(src, i + e.valid_up_to())),
            ),
        };
        let out = drive::<Utf8, K, false>(t, pick, valid, dst.get_mut(o..).unwrap_or(&mut []));
        i += out.read;
        o += out.written;
        match out.stop {
            None => {}
            Some(Stop::Full) => return stopped(i, o, Stop::Full),
            Some(Stop::NotLatin1(c)) => return stopped(i, o, Stop::NotLatin1(c)),
            Some(Stop::Invalid(never)) => match never {},
        }
        let Some(e) = error else {
            i = end;
            continue;
        };
        if !LOSSY {
            return stopped(i, o, Stop::Invalid(e));
        }
        if let Err(stop) = K::encode(char::REPLACEMENT_CHARACTER, dst, &mut o) {
            return stopped(i, o, stop);
        }
        i += e.error_len().unwrap_or(src.len() - i);
    }
    Outcome {
        read: i,
        written: o,
        stop: None,
    }
}

fn stopped<E>(read: usize, written: usize, stop: Stop<E>) -> Outcome<E> {
    Outcome {
        read,
        written,
        stop: Some(stop),
    }
}

/// The number of output units the conversion of `src` needs, up to its
/// first error (or all of it, `LOSSY`): `convert` run repeatedly into a
/// scratch buffer. The cold path of a too-small output.
#[cold]
#[inline(never)]
pub(crate) fn remaining<S: Copy, D: Copy + Default, E>(
    mut convert: impl FnMut(&[S], &mut [D]) -> Outcome<E>,
    src: &[S],
) -> usize {
    let mut scratch = [D::default(); 256];
    let (mut total, mut rest) = (0, src);
    loop {
        let out = convert(rest, &mut scratch);
        total += out.written;
        rest = rest.get(out.read..).unwrap_or(&[]);
        // The scratch buffer holds any character, so `Full` always comes
        // with progress.
        match out.stop {
            Some(Stop::Full) if out.read > 0 => {}
            _ => return total,
        }
    }
}

/// The validating forms' result: `Ok(written)` or the error, with `needed`
/// (the output the rest of the input needs after `read`) computed only when
/// the output was too small.
#[inline]
pub(crate) fn strict<E>(
    out: Outcome<E>,
    available: usize,
    needed: impl FnOnce(usize) -> usize,
) -> Result<usize, Error<E>> {
    let kind = match out.stop {
        None => return Ok(out.written),
        Some(Stop::Invalid(e)) => ErrorKind::Invalid(e),
        Some(Stop::NotLatin1(c)) => ErrorKind::NotLatin1(c),
        Some(Stop::Full) => ErrorKind::BufferTooSmall(BufferTooSmall::new(
            out.written + needed(out.read),
            available,
        )),
    };
    Err(Error::new(out.read, out.written, kind))
}

/// The lossy forms' result (they can only run out of room).
#[inline]
pub(crate) fn lossy<E>(
    out: Outcome<E>,
    available: usize,
    needed: impl FnOnce(usize) -> usize,
) -> Result<usize, BufferTooSmall> {
    match out.stop {
        None | Some(Stop::Invalid(_) | Stop::NotLatin1(_)) => Ok(out.written),
        Some(Stop::Full) => Err(BufferTooSmall::new(
            out.written + needed(out.read),
            available,
        )),
    }
}

/// The bounded validating forms' result: a full output is progress, not an
/// error.
#[inline]
pub(crate) fn partial<E>(out: Outcome<E>) -> Result<Progress, Error<E>> {
    let kind = match out.stop {
        None | Some(Stop::Full) => return Ok(Progress::new(out.read, out.written)),
        Some(Stop::Invalid(e)) => ErrorKind::Invalid(e),
        Some(Stop::NotLatin1(c)) => ErrorKind::NotLatin1(c),
    };
    Err(Error::new(out.read, out.written, kind))
}

/// The bounded lossy forms' result.
#[inline]
pub(crate) fn lossy_partial<E>(out: Outcome<E>) -> Progress {
    Progress::new(out.read, out.written)
}

/// A whole conversion from `S` units to `D` units.
pub(crate) trait Conv<S, D, E>: Fn(&[S], &mut [D]) -> Outcome<E> + Copy {}
impl<S, D, E, F: Fn(&[S], &mut [D]) -> Outcome<E> + Copy> Conv<S, D, E> for F {}

/// The validating form of `conv`: everything, or the error.
#[inline]
pub(crate) fn strict_form<S: Copy, D: Copy + Default, E>(
    conv: impl Conv<S, D, E>,
    src: &[S],
    dst: &mut [D],
) -> Result<usize, Error<E>> {
    let out = conv(src, dst);
    strict(out, dst.len(), |read| {
        remaining(conv, src.get(read..).unwrap_or(&[]))
    })
}

/// The lossy (or cannot-fail) form of `conv`.
#[inline]
pub(crate) fn lossy_form<S: Copy, D: Copy + Default, E>(
    conv: impl Conv<S, D, E>,
    src: &[S],
    dst: &mut [D],
) -> Result<usize, BufferTooSmall> {
    let out = conv(src, dst);
    lossy(out, dst.len(), |read| {
        remaining(conv, src.get(read..).unwrap_or(&[]))
    })
}

/// Output counted in units of `scale` bytes, reported in bytes.
pub(crate) fn scale<E>(
    r: Result<usize, Error<E>>,
    scale: usize,
    available: usize,
) -> Result<usize, Error<E>> {
    r.map(|n| n * scale)
        .map_err(|e| e.scale_output(scale, available))
}

/// As [`scale`], for the lossy forms.
pub(crate) fn scale_lossy(
    r: Result<usize, BufferTooSmall>,
    scale: usize,
    available: usize,
) -> Result<usize, BufferTooSmall> {
    r.map(|n| n * scale)
        .map_err(|e| BufferTooSmall::new(e.needed() * scale, available))
}

/// Converts UTF-16 held in bytes in direction `D` (UTF-16LE or BE to
/// UTF-8). Counts the input in bytes. An odd last byte is an
/// [`Incomplete`](crate::Utf16ErrorKind::Incomplete) error after the last
/// whole unit, or one more U+FFFD (`LOSSY`), as std's `from_utf16le_lossy`
/// writes.
#[inline]
pub(crate) fn from_utf16_bytes<D, const LOSSY: bool>(
    t: Transcoder,
    src: &[u8],
    dst: &mut [u8],
) -> Outcome<Utf16Error>
where
    D: Direction<To = direction::Utf8>,
    D::From: Encoding<Unit = [u8; 2], Error = Utf16Error>,
{
    let (units, odd) = src.as_chunks::<2>();
    let out = D::run::<LOSSY>(t, units, dst);
    let mut out = Outcome {
        read: 2 * out.read,
        ..out
    };
    if out.stop.is_some() || odd.is_empty() {
        return out;
    }
    if !LOSSY {
        let e = Utf16Error::new(units.len(), Utf16ErrorKind::Incomplete);
        out.stop = Some(Stop::Invalid(e));
        return out;
    }
    match Utf8::encode(char::REPLACEMENT_CHARACTER, dst, &mut out.written) {
        Ok(()) => out.read += 1,
        Err(stop) => out.stop = Some(stop),
    }
    out
}

/// Runs `conv` into a new vector of `len` units (the exact length, from a
/// length function), and returns it cut to what was written, with the
/// outcome. Should the length be short (it cannot, but a wrong length must
/// not lose output), the vector grows by what the rest needs.
#[cfg(feature = "alloc")]
pub(crate) fn to_vec<S: Copy, D: Copy + Default, E>(
    conv: impl Conv<S, D, E>,
    src: &[S],
    len: usize,
) -> (alloc::vec::Vec<D>, Outcome<E>) {
    let mut out = alloc::vec![D::default(); len];
    let (mut read, mut written) = (0, 0);
    loop {
        let rest = src.get(read..).unwrap_or(&[]);
        let o = conv(rest, out.get_mut(written..).unwrap_or(&mut []));
        read += o.read;
        written += o.written;
        match o.stop {
            Some(Stop::Full) => {
                let more = remaining(conv, src.get(read..).unwrap_or(&[]));
                out.resize(written + more.max(4), D::default());
            }
            stop => {
                out.truncate(written);
                return (
                    out,
                    Outcome {
                        read,
                        written,
                        stop,
                    },
                );
            }
        }
    }
}

/// A vector conversion's result, for input whose errors are `E`.
#[cfg(feature = "alloc")]
pub(crate) fn vec_result<D, E>(
    (out, outcome): (alloc::vec::Vec<D>, Outcome<E>),
) -> Result<alloc::vec::Vec<D>, Error<E>> {
    let kind = match outcome.stop {
        None | Some(Stop::Full) => return Ok(out),
        Some(Stop::Invalid(e)) => ErrorKind::Invalid(e),
        Some(Stop::NotLatin1(c)) => ErrorKind::NotLatin1(c),
    };
    Err(Error::new(outcome.read, outcome.written, kind))
}
