//! The oracle and the checks every test in this binary uses.
//!
//! The oracle is the standard library: `str::utf8_chunks` and
//! `core::str::from_utf8` for UTF-8, `char::decode_utf16` for UTF-16,
//! `char::from_u32` for UTF-32, `char::encode_utf8` / `encode_utf16` for the
//! output. From it, [`expect`] computes what a conversion must return: the
//! output, the `(read, written)` position after every character (so that
//! the result for *every* output size is known), and the error.
//!
//! [`Dir`] names one conversion's entry points; [`check`] runs them all on
//! one input, with outputs pre-filled with a poison value, and compares:
//! the result, the output, and that nothing past the reported length
//! changed.

use rand::Rng;
use rand::rngs::StdRng;
use std::any::Any;
use std::fmt::Debug;
use transcode::direction::{self, Direction, Encoding, InputError, Unit};
use transcode::{
    BufferTooSmall, Endianness, Error, ErrorKind, Progress, Transcoder, Utf8Error, Utf16Error,
    Utf16ErrorKind, Utf32Error, Utf32ErrorKind,
};

/// One step of the oracle's decoding: a character, or an error, with the
/// number of input units it covers (for an error, the units one U+FFFD
/// replaces).
#[derive(Clone, Copy, Debug)]
pub(crate) enum Item<E> {
    Char(char, usize),
    Bad(E, usize),
}

/// What a conversion must do on one input.
#[derive(Clone, Debug)]
pub(crate) struct Expect<D, E> {
    /// `(read, written)` before the first and after every character.
    pub(crate) steps: Vec<(usize, usize)>,
    /// The output (up to the error, if any).
    pub(crate) out: Vec<D>,
    /// The error at the last step, if any.
    pub(crate) stop: Option<ErrorKind<E>>,
}

/// The expected conversion of `items` into the encoding `encode` defines
/// (`None`: not representable, the Latin-1 case); `lossy` replaces errors
/// with U+FFFD.
pub(crate) fn expect<D: Clone, E: Copy>(
    items: &[Item<E>],
    encode: fn(char) -> Option<Vec<D>>,
    lossy: bool,
) -> Expect<D, E> {
    let mut x = Expect {
        steps: vec![(0, 0)],
        out: Vec::new(),
        stop: None,
    };
    let mut read = 0;
    for item in items {
        let (c, len) = match *item {
            Item::Char(c, len) => (c, len),
            Item::Bad(_, len) if lossy => ('\u{FFFD}', len),
            Item::Bad(e, _) => {
                x.stop = Some(ErrorKind::Invalid(e));
                return x;
            }
        };
        let Some(units) = encode(c) else {
            x.stop = Some(ErrorKind::NotLatin1(c));
            return x;
        };
        x.out.extend(units);
        read += len;
        x.steps.push((read, x.out.len()));
    }
    x
}

/// UTF-8, decoded by std.
pub(crate) fn decode_utf8(src: &[u8]) -> Vec<Item<Utf8Error>> {
    let mut items = Vec::new();
    let mut pos = 0;
    for chunk in src.utf8_chunks() {
        for c in chunk.valid().chars() {
            items.push(Item::Char(c, c.len_utf8()));
        }
        pos += chunk.valid().len();
        let bad = chunk.invalid();
        if !bad.is_empty() {
            let rest = &src[pos..];
            let std_err = core::str::from_utf8(rest).unwrap_err();
            assert_eq!(std_err.valid_up_to(), 0);
            assert_eq!(std_err.error_len().unwrap_or(bad.len()), bad.len());
            let e = Utf8Error::from_std(std_err, rest).offset_by(pos);
            items.push(Item::Bad(e, bad.len()));
            pos += bad.len();
        }
    }
    items
}

/// The kind of the unpaired surrogate `u` at `i` of `len` units.
fn utf16_kind(u: u16, i: usize, len: usize) -> Utf16ErrorKind {
    if (0xDC00..=0xDFFF).contains(&u) {
        Utf16ErrorKind::UnpairedTrail
    } else if i + 1 == len {
        Utf16ErrorKind::Incomplete
    } else {
        Utf16ErrorKind::UnpairedLead
    }
}

/// UTF-16, decoded by `char::decode_utf16`; each unit counts `scale` input
/// units (2 for bytes).
fn decode_utf16_scaled(src: &[u16], scale: usize) -> Vec<Item<Utf16Error>> {
    let mut items = Vec::new();
    let mut i = 0;
    for r in char::decode_utf16(src.iter().copied()) {
        match r {
            Ok(c) => {
                items.push(Item::Char(c, scale * c.len_utf16()));
                i += c.len_utf16();
            }
            Err(e) => {
                let u = e.unpaired_surrogate();
                assert_eq!(src[i], u);
                let kind = utf16_kind(u, i, src.len());
                // Errors of byte input say so ("at byte N").
                let e = Utf16Error::new(i, kind);
                let e = if scale == 2 { e.in_bytes() } else { e };
                items.push(Item::Bad(e, scale));
                i += 1;
            }
        }
    }
    items
}

/// UTF-16 in native units.
pub(crate) fn decode_utf16(src: &[u16]) -> Vec<Item<Utf16Error>> {
    decode_utf16_scaled(src, 1)
}

/// UTF-16 in bytes of `order`, a byte-order mark kept (as std's
/// `String::from_utf16le` keeps it; the byte forms are called with
/// `BomMode::Keep` against this model, and `tests/utf16_bytes.rs` tests the
/// other modes): an odd last byte is one more error, as std's
/// `String::from_utf16le_lossy` treats it.
pub(crate) fn decode_utf16_bytes(src: &[u8], order: Endianness) -> Vec<Item<Utf16Error>> {
    let units: Vec<u16> = src
        .chunks_exact(2)
        .map(|b| match order {
            Endianness::Little => u16::from_le_bytes([b[0], b[1]]),
            Endianness::Big => u16::from_be_bytes([b[0], b[1]]),
        })
        .collect();
    let mut items = decode_utf16_scaled(&units, 2);
    if src.len() % 2 == 1 {
        let e = Utf16Error::new(units.len(), Utf16ErrorKind::Incomplete).in_bytes();
        items.push(Item::Bad(e, 1));
    }
    items
}

pub(crate) fn decode_utf16le(src: &[u8]) -> Vec<Item<Utf16Error>> {
    decode_utf16_bytes(src, Endianness::Little)
}

pub(crate) fn decode_utf16be(src: &[u8]) -> Vec<Item<Utf16Error>> {
    decode_utf16_bytes(src, Endianness::Big)
}

/// UTF-32, decoded by `char::from_u32`.
pub(crate) fn decode_utf32(src: &[u32]) -> Vec<Item<Utf32Error>> {
    src.iter()
        .enumerate()
        .map(|(i, &u)| match char::from_u32(u) {
            Some(c) => Item::Char(c, 1),
            None => {
                let kind = if (0xD800..=0xDFFF).contains(&u) {
                    Utf32ErrorKind::Surrogate
                } else {
                    Utf32ErrorKind::TooLarge
                };
                Item::Bad(Utf32Error::new(i, kind), 1)
            }
        })
        .collect()
}

/// Latin-1: every byte is the character of the same number.
pub(crate) fn decode_latin1(src: &[u8]) -> Vec<Item<core::convert::Infallible>> {
    src.iter().map(|&b| Item::Char(char::from(b), 1)).collect()
}

pub(crate) fn encode_utf8(c: char) -> Option<Vec<u8>> {
    Some(c.to_string().into_bytes())
}

pub(crate) fn encode_utf16(c: char) -> Option<Vec<u16>> {
    Some(c.encode_utf16(&mut [0; 2]).to_vec())
}

pub(crate) fn encode_utf16le(c: char) -> Option<Vec<u8>> {
    Some(
        c.encode_utf16(&mut [0; 2])
            .iter()
            .flat_map(|u| u.to_le_bytes())
            .collect(),
    )
}

pub(crate) fn encode_utf16be(c: char) -> Option<Vec<u8>> {
    Some(
        c.encode_utf16(&mut [0; 2])
            .iter()
            .flat_map(|u| u.to_be_bytes())
            .collect(),
    )
}

pub(crate) fn encode_utf32(c: char) -> Option<Vec<u32>> {
    Some(vec![u32::from(c)])
}

pub(crate) fn encode_latin1(c: char) -> Option<Vec<u8>> {
    u8::try_from(u32::from(c)).ok().map(|b| vec![b])
}

/// A value no conversion writes past its reported length: one per code
/// unit type, found by type, so that every unit an [`Encoding`] of the
/// crate has gets one (a unit without one fails the test that meets it).
pub(crate) trait Poison: Copy + Debug + PartialEq + Default + 'static {
    fn poison() -> Self;
}
impl<T: Copy + Debug + PartialEq + Default + 'static> Poison for T {
    fn poison() -> T {
        let all: [&dyn Any; 4] = [&0xA5u8, &0xA5A5u16, &0xA5A5_A5A5u32, &[0xA5u8; 2]];
        all.iter()
            .find_map(|p| p.downcast_ref::<T>().copied())
            .unwrap_or_else(|| panic!("no poison for {}", std::any::type_name::<T>()))
    }
}

pub(crate) type Strict<S, D, E> = fn(&Transcoder, &[S], &mut [D]) -> Result<usize, Error<E>>;
pub(crate) type Lossy<S, D> = fn(&Transcoder, &[S], &mut [D]) -> Result<usize, BufferTooSmall>;
pub(crate) type Partial<S, D, E> = fn(&Transcoder, &[S], &mut [D]) -> Result<Progress, Error<E>>;
pub(crate) type LossyPartial<S, D> = fn(&Transcoder, &[S], &mut [D]) -> Progress;

/// One conversion: its oracle and its entry points.
pub(crate) struct Dir<S: 'static, D: 'static, E: 'static> {
    pub(crate) name: &'static str,
    pub(crate) decode: fn(&[S]) -> Vec<Item<E>>,
    pub(crate) encode: fn(char) -> Option<Vec<D>>,
    pub(crate) strict: Option<Strict<S, D, E>>,
    pub(crate) lossy: Option<Lossy<S, D>>,
    pub(crate) partial: Option<Partial<S, D, E>>,
    pub(crate) lossy_partial: Option<LossyPartial<S, D>>,
}

/// The oracle of encoding `E`, found by its name (two encodings may share
/// a unit type): how std decodes its input and encodes a character in it.
/// An encoding the tests do not know fails every test that meets it.
#[allow(clippy::type_complexity)]
pub(crate) fn oracle<E: Encoding>() -> (
    fn(&[E::Unit]) -> Vec<Item<E::Error>>,
    fn(char) -> Option<Vec<E::Unit>>,
) {
    type De<U, X> = fn(&[U]) -> Vec<Item<X>>;
    type En<U> = fn(char) -> Option<Vec<U>>;
    let pair = |d: &'static dyn Any, e: &'static dyn Any| (d, e);
    let all: [(&str, (&dyn Any, &dyn Any)); 6] = [
        (
            "utf8",
            pair(
                &(decode_utf8 as De<u8, Utf8Error>),
                &(encode_utf8 as En<u8>),
            ),
        ),
        (
            "utf16",
            pair(
                &(decode_utf16 as De<u16, Utf16Error>),
                &(encode_utf16 as En<u16>),
            ),
        ),
        (
            "utf16le",
            pair(
                &(decode_utf16le_units as De<[u8; 2], Utf16Error>),
                &(encode_utf16le_units as En<[u8; 2]>),
            ),
        ),
        (
            "utf16be",
            pair(
                &(decode_utf16be_units as De<[u8; 2], Utf16Error>),
                &(encode_utf16be_units as En<[u8; 2]>),
            ),
        ),
        (
            "utf32",
            pair(
                &(decode_utf32 as De<u32, Utf32Error>),
                &(encode_utf32 as En<u32>),
            ),
        ),
        (
            "latin1",
            pair(
                &(decode_latin1 as De<u8, core::convert::Infallible>),
                &(encode_latin1 as En<u8>),
            ),
        ),
    ];
    all.iter()
        .filter(|(name, _)| *name == E::NAME)
        .find_map(|(_, (d, e))| {
            Some((
                *d.downcast_ref::<De<E::Unit, E::Error>>()?,
                *e.downcast_ref::<En<E::Unit>>()?,
            ))
        })
        .unwrap_or_else(|| panic!("no oracle for {}", E::NAME))
}

/// Any value of a code unit type, from random bits: UTF-32 units biased
/// towards surrogates and the values around U+10FFFF.
pub(crate) fn any_unit<U: Copy + 'static>(rng: &mut StdRng) -> U {
    let bits: u64 = rng.random();
    let u32_unit = match bits % 3 {
        0 => 0xD800 + (bits >> 8) as u32 % 0x800,
        1 => 0x10_FFF0 + (bits >> 8) as u32 % 0x20,
        _ => (bits >> 8) as u32,
    };
    let all: [Box<dyn Any>; 4] = [
        Box::new(bits as u8),
        Box::new(0xD800 + (bits as u16) % 0x800),
        Box::new(u32_unit),
        Box::new([0xD8 + (bits as u8) % 8, (bits >> 8) as u8]),
    ];
    all.into_iter()
        .find_map(|b| b.downcast::<U>().ok())
        .map(|b| *b)
        .unwrap_or_else(|| panic!("no random {}", std::any::type_name::<U>()))
}

/// UTF-16LE in units of two bytes (the table's `Utf16Le`), decoded by std.
fn decode_utf16le_units(src: &[[u8; 2]]) -> Vec<Item<Utf16Error>> {
    let units: Vec<u16> = src.iter().map(|&b| u16::from_le_bytes(b)).collect();
    decode_utf16(&units)
}

fn decode_utf16be_units(src: &[[u8; 2]]) -> Vec<Item<Utf16Error>> {
    let units: Vec<u16> = src.iter().map(|&b| u16::from_be_bytes(b)).collect();
    decode_utf16(&units)
}

fn encode_utf16le_units(c: char) -> Option<Vec<[u8; 2]>> {
    Some(
        c.encode_utf16(&mut [0; 2])
            .iter()
            .map(|u| u.to_le_bytes())
            .collect(),
    )
}

fn encode_utf16be_units(c: char) -> Option<Vec<[u8; 2]>> {
    Some(
        c.encode_utf16(&mut [0; 2])
            .iter()
            .map(|u| u.to_be_bytes())
            .collect(),
    )
}

/// The [`Dir`] of the table's direction `D` without lossy forms: its
/// generic strict and partial forms, with the oracle of its encodings.
pub(crate) fn strict_dir<D: Direction>() -> Dir<Unit<D::From>, Unit<D::To>, InputError<D>> {
    Dir {
        name: D::NAME,
        decode: oracle::<D::From>().0,
        encode: oracle::<D::To>().1,
        strict: Some(|t, s, d| t.convert::<D>(s, d)),
        lossy: None,
        partial: Some(|t, s, d| t.convert_partial::<D>(s, d)),
        lossy_partial: None,
    }
}

/// The [`Dir`] of the table's [`Lossy`](direction::Lossy) direction `D`: all four forms.
pub(crate) fn lossy_dir<D: direction::Lossy>() -> Dir<Unit<D::From>, Unit<D::To>, InputError<D>> {
    Dir {
        lossy: Some(|t, s, d| t.convert_lossy::<D>(s, d)),
        lossy_partial: Some(|t, s, d| t.convert_lossy_partial::<D>(s, d)),
        ..strict_dir::<D>()
    }
}

/// Which output sizes [`check`] tries.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Caps {
    /// Only an output with room to spare: for enumerations.
    Roomy,
    /// Also every size from 0 up to the output's length (or a sample of
    /// them, for long outputs), and the exact size.
    All,
    /// Every size from 0 to a register and more past the output's length:
    /// for the sentinel tests, where which size makes a kernel stop for
    /// room part-way through a register cannot be predicted.
    Every,
}

/// The output sizes to try for an output of `total` units.
fn caps(total: usize, caps: Caps) -> Vec<usize> {
    if caps == Caps::Every {
        return (0..=total + 80).collect();
    }
    let mut v = vec![total + 7];
    if caps == Caps::All {
        // Room for more than a register past the output: kernels whose
        // loops need a register and more of room (and may leave garbage
        // past their output, to be covered or written back) run to the
        // error only with this much.
        v.push(total + 80);
        if total <= 80 {
            v.extend(0..=total);
        } else {
            v.extend([0, 1, 2, 3, 4, 5, 15, 16, 17, 31, 32, 33, 63, 64, 65]);
            v.extend((total - 8)..=total);
            v.extend((1..8).map(|k| total * k / 8));
        }
    }
    v
}

/// The oracle's `(read, written)` for an output of `cap` units: the last
/// step that fits.
fn fit(steps: &[(usize, usize)], cap: usize) -> (usize, usize) {
    *steps.iter().rev().find(|s| s.1 <= cap).unwrap_or(&(0, 0))
}

/// A fresh output of `cap` units, all poison.
fn poisoned<D: Poison>(cap: usize) -> Vec<D> {
    vec![D::poison(); cap]
}

#[track_caller]
fn assert_output<D: Poison>(what: &str, dst: &[D], want: &[D], written: usize) {
    assert!(
        written <= dst.len(),
        "{what}: wrote {written} into {}",
        dst.len()
    );
    assert_eq!(written, want.len(), "{what}: written");
    if dst[..written] != *want {
        let first = (0..written).find(|&i| dst[i] != want[i]).unwrap();
        panic!(
            "{what}: output differs from unit {first}: got {:X?}, want {:X?}",
            &dst[first..written.min(first + 12)],
            &want[first..written.min(first + 12)]
        );
    }
    if let Some(i) = dst[written..].iter().position(|&d| d != D::poison()) {
        panic!(
            "{what}: unit {} past the written {written} changed to {:X?}",
            written + i,
            dst[written + i]
        );
    }
}

/// Runs every entry point of `dir` with each of `ts` on `src`, and
/// compares each with the oracle (computed once).
#[track_caller]
pub(crate) fn check<S: Debug, D: Poison, E: Copy + Debug + PartialEq>(
    dir: &Dir<S, D, E>,
    ts: &[Transcoder],
    src: &[S],
    sizes: Caps,
) {
    let items = (dir.decode)(src);
    let strict = expect(&items, dir.encode, false);
    let lossy = expect(&items, dir.encode, true);
    for t in ts {
        check_one(dir, t, src, sizes, &strict, &lossy);
    }
}

/// [`check`] for one transcoder, with the oracle's answers.
#[track_caller]
fn check_one<S: Debug, D: Poison, E: Copy + Debug + PartialEq>(
    dir: &Dir<S, D, E>,
    t: &Transcoder,
    src: &[S],
    sizes: Caps,
    strict: &Expect<D, E>,
    lossy: &Expect<D, E>,
) {
    let total = strict.out.len();
    let end = strict.steps.last().unwrap().0;
    let ctx = |form: &str, cap: usize| {
        let shown = &src[..src.len().min(40)];
        format!(
            "{} {form} ({}) on {} units {shown:X?}..., output of {cap}",
            dir.name,
            t.name(),
            src.len()
        )
    };

    for cap in caps(total, sizes) {
        if let Some(strict_fn) = dir.strict {
            let what = ctx("strict", cap);
            let mut dst = poisoned::<D>(cap);
            let got = mirror(strict_fn(t, src, &mut dst));
            if cap >= total {
                match strict.stop {
                    None => assert_eq!(got, Ok(total), "{what}"),
                    Some(kind) => assert_eq!(got, Err(error(end, total, kind)), "{what}"),
                }
                assert_output(&what, &dst, &strict.out, total);
            } else {
                let (r, w) = fit(&strict.steps, cap);
                let tiny = ErrorKind::BufferTooSmall(BufferTooSmall::new(total, cap));
                assert_eq!(got, Err(error(r, w, tiny)), "{what}");
                assert_output(&what, &dst, &strict.out[..w], w);
            }
        }

        if let Some(partial) = dir.partial {
            let what = ctx("partial", cap);
            let mut dst = poisoned::<D>(cap);
            let got = mirror(partial(t, src, &mut dst));
            let (r, w) = fit(&strict.steps, cap);
            match strict.stop {
                Some(kind) if cap >= total => {
                    assert_eq!(got, Err(error(r, w, kind)), "{what}")
                }
                _ => assert_eq!(got, Ok(Progress::new(r, w)), "{what}"),
            }
            assert_output(&what, &dst, &strict.out[..w], w);
        }
    }

    let total = lossy.out.len();
    for cap in caps(total, sizes) {
        if let Some(lossy_fn) = dir.lossy {
            let what = ctx("lossy", cap);
            let mut dst = poisoned::<D>(cap);
            let got = lossy_fn(t, src, &mut dst);
            if cap >= total {
                assert_eq!(got, Ok(total), "{what}");
                assert_output(&what, &dst, &lossy.out, total);
            } else {
                assert_eq!(got, Err(BufferTooSmall::new(total, cap)), "{what}");
                let (_, w) = fit(&lossy.steps, cap);
                assert_output(&what, &dst, &lossy.out[..w], w);
            }
        }
        if let Some(lossy_partial) = dir.lossy_partial {
            let what = ctx("lossy partial", cap);
            let mut dst = poisoned::<D>(cap);
            let got = lossy_partial(t, src, &mut dst);
            let (r, w) = fit(&lossy.steps, cap);
            assert_eq!(got, Progress::new(r, w), "{what}");
            assert_output(&what, &dst, &lossy.out[..w], w);
        }
    }
}

/// An [`Error`] as the harness expects it. (The type's constructor is
/// private to the crate; its fields are all observable, so the harness
/// compares them through this mirror.)
pub(crate) fn error<E>(read: usize, written: usize, kind: ErrorKind<E>) -> ErrorMirror<E> {
    ErrorMirror {
        read,
        written,
        kind,
    }
}

/// The observable fields of an [`Error`].
#[derive(Debug, PartialEq)]
pub(crate) struct ErrorMirror<E> {
    read: usize,
    written: usize,
    kind: ErrorKind<E>,
}

impl<E: Copy> From<Error<E>> for ErrorMirror<E> {
    fn from(e: Error<E>) -> Self {
        error(e.read(), e.written(), *e.kind())
    }
}

/// A result with its error mirrored.
pub(crate) fn mirror<T, E: Copy>(r: Result<T, Error<E>>) -> Result<T, ErrorMirror<E>> {
    r.map_err(ErrorMirror::from)
}
