//! The conversion directions: one table (the `directions!` list below), from which
//! every direction's kernel entry, its generic forms (strict, partial,
//! lossy, vector: [`Transcoder::convert`] and the like), the exactness
//! tests' directions and the benchmarks' rows ([`for_each`]) come.
//!
//! A direction is a zero-sized type, such as [`Utf32ToLatin1`], that
//! implements [`Direction`]: its input and output [`Encoding`]s, its name,
//! and (hidden, sealed) how it runs: which kernel of a [`Kernel`](crate::Kernel) table it
//! calls and which of `drive`'s loops calls it. The forms are written once,
//! as generic methods of [`Transcoder`] over `D: Direction` (the model is
//! base64's `Engine`: few required pieces, many provided forms); the named
//! functions (`utf32_to_latin1`, `utf32_to_latin1_partial`, …) call them.
//!
//! Adding a direction is one row of the table (plus its kernels, a field of
//! [`Kernel`](crate::Kernel) filled in each table); it then has every generic form, and
//! the tests and benchmarks that iterate [`for_each`] cover it.
//!
//! ```
//! use transcode::Transcoder;
//! use transcode::direction::{self, Direction, Visit, Lossy};
//!
//! // Every direction, by name, with the forms it has.
//! struct Names(Vec<(&'static str, bool)>);
//! impl Visit for Names {
//!     fn direction<D: Direction>(&mut self) {
//!         self.0.push((D::NAME, false));
//!     }
//!     fn lossy<D: Lossy>(&mut self) {
//!         self.0.push((D::NAME, true));
//!     }
//! }
//! let mut names = Names(Vec::new());
//! direction::for_each(&mut names);
//! assert!(names.0.contains(&("utf32_to_latin1", false)));
//! assert!(names.0.contains(&("utf16_to_utf8", true)));
//!
//! // A form of a direction, generically.
//! let t = Transcoder::new();
//! let mut dst = [0u8; 4];
//! assert_eq!(t.convert::<direction::Utf32ToLatin1>(&[0xE9], &mut dst), Ok(1));
//! assert_eq!(dst[0], 0xE9);
//! ```

use crate::Transcoder;
use crate::drive::{self, Outcome};
use crate::error::{Error, Progress, Utf16Error, Utf32Error};
use crate::scalar;
#[cfg(feature = "alloc")]
use alloc::vec::Vec;
use codec_core::{BufferTooSmall, Endianness, Utf8Error};
use core::convert::Infallible;
use core::fmt::Debug;

mod sealed {
    /// Only this crate implements [`Encoding`](super::Encoding) and
    /// [`Direction`](super::Direction): their hidden items are how the
    /// crate runs a conversion, not an interface.
    pub trait Sealed {}
}

/// An encoding a direction reads or writes: its code unit and, as input,
/// what its malformed input reports.
pub trait Encoding: sealed::Sealed + 'static {
    /// The code unit: `u8`, `u16`, `u32`, or `[u8; 2]` for UTF-16 held in
    /// bytes.
    type Unit: Copy + Default + Debug + PartialEq + 'static;
    /// The error of malformed input: [`Utf8Error`], [`Utf16Error`],
    /// [`Utf32Error`], or [`Infallible`] where every input is valid
    /// (Latin-1).
    type Error: Copy + Debug + PartialEq + 'static;
    /// The name in function names: `"utf8"`, `"utf16"`, `"utf16le"`,
    /// `"utf16be"`, `"utf32"`, `"latin1"`.
    const NAME: &'static str;
}

macro_rules! encodings {
    ($($(#[$doc:meta])* $name:ident($label:literal, $unit:ty, $error:ty);)*) => {$(
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
        pub struct $name;
        impl sealed::Sealed for $name {}
        impl Encoding for $name {
            type Unit = $unit;
            type Error = $error;
            const NAME: &'static str = $label;
        }
    )*};
}

encodings! {
    /// UTF-8 in bytes.
    Utf8("utf8", u8, Utf8Error);
    /// UTF-16 in native `u16`s.
    Utf16("utf16", u16, Utf16Error);
    /// UTF-16LE: UTF-16 in pairs of bytes, least significant first.
    Utf16Le("utf16le", [u8; 2], Utf16Error);
    /// UTF-16BE: UTF-16 in pairs of bytes, most significant first.
    Utf16Be("utf16be", [u8; 2], Utf16Error);
    /// UTF-32 in native `u32`s.
    Utf32("utf32", u32, Utf32Error);
    /// Latin-1 (ISO 8859-1) in bytes: every byte is a character.
    Latin1("latin1", u8, Infallible);
}

/// UTF-8 that is valid by construction (a `&str`'s bytes): the input of the
/// `str_to_*` forms, which skip the validation.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Str;
impl sealed::Sealed for Str {}
impl Encoding for Str {
    type Unit = u8;
    type Error = Infallible;
    const NAME: &'static str = "str";
}

/// One conversion direction: a row of the table in this module, a
/// zero-sized type such as [`Utf32ToLatin1`]. Its forms are the generic
/// methods of [`Transcoder`] ([`convert`](Transcoder::convert),
/// [`convert_partial`](Transcoder::convert_partial),
/// [`convert_vec`](Transcoder::convert_vec), and for [`Lossy`]
/// directions the lossy ones); the crate's named functions are those forms
/// of one direction each.
///
/// Sealed: the hidden items are how the crate runs the conversion.
pub trait Direction: sealed::Sealed + Copy + 'static {
    /// The input encoding.
    type From: Encoding;
    /// The output encoding.
    type To: Encoding;
    /// The name, as the named functions of this direction spell it
    /// (`"utf32_to_latin1"`); the byte-order rows, whose named forms take
    /// the order as an argument, are `"utf8_to_utf16le"` and the like.
    const NAME: &'static str;

    /// Converts `src` into `dst` with `t`'s kernels (`LOSSY`: replacing
    /// malformed input with U+FFFD) until the end, the first error, or a
    /// full `dst`.
    #[doc(hidden)]
    fn run<const LOSSY: bool>(
        t: Transcoder,
        src: &[Unit<Self::From>],
        dst: &mut [Unit<Self::To>],
    ) -> Outcome<InputError<Self>>;

    /// The output length of valid `src`, exact where a count kernel gives
    /// it cheaply, else an upper bound: the vector forms' first allocation.
    #[doc(hidden)]
    #[cfg(feature = "alloc")]
    fn len(t: &Transcoder, src: &[Unit<Self::From>]) -> usize;
}

/// A [`Direction`] whose output encoding holds every character (all but
/// the conversions to Latin-1): it has lossy forms, which replace
/// malformed input with U+FFFD as the standard library's lossy functions
/// do, and can fail only for room.
pub trait Lossy: Direction {}

/// The code unit of an encoding.
pub type Unit<E> = <E as Encoding>::Unit;
/// The error malformed input of a direction reports.
pub type InputError<D> = <<D as Direction>::From as Encoding>::Error;

/// Something done for each direction of the table: [`for_each`] calls
/// [`lossy`](Visit::lossy) for the [`Lossy`] ones and
/// [`direction`](Visit::direction) for the others.
pub trait Visit {
    /// One direction without lossy forms (into Latin-1), and, unless
    /// [`lossy`](Visit::lossy) is implemented, each of the others.
    fn direction<D: Direction>(&mut self);
    /// One direction with lossy forms; by default, as any other.
    fn lossy<D: Lossy>(&mut self) {
        self.direction::<D>();
    }
}

/// The output length of `src` in the units it is counted in: the vector
/// forms' allocation where no count kernel gives a better one (every one of
/// these directions writes at most one output unit per input unit).
#[cfg(feature = "alloc")]
fn units<T>(_: &Transcoder, src: &[T]) -> usize {
    src.len()
}

const LE: bool = Endianness::Little.is_swapped();
const BE: bool = Endianness::Big.is_swapped();
const fn swap(order: Endianness) -> usize {
    order.is_swapped() as usize
}

/// The table. Each row: the type, its name, input and output encodings,
/// `lossy` or `strict` (to Latin-1: no lossy forms), the loop of `drive`
/// that runs it with the scalar decoder and encoder it alternates with and
/// the kernels it calls, and the output length for the vector forms.
macro_rules! directions {
    (
        $(#[$visit_doc:meta])*
        visit $visit:ident;
        $($(#[$doc:meta])* $vis:vis $name:ident($label:literal, $from:ty => $to:ty, $kind:ident)
            = $route:ident::<$($g:ty),*>($($k:expr),*), len $len:expr;)*
    ) => {
        $(directions!(@row $(#[$doc])* $vis $name($label, $from => $to, $kind)
            = $route::<$($g),*>($($k),*), len $len);)*
        $(#[$visit_doc])*
        pub fn $visit(v: &mut impl Visit) {
            $(directions!(@visit $kind $name v);)*
        }
    };
    (
        $($(#[$doc:meta])* $vis:vis $name:ident($label:literal, $from:ty => $to:ty, $kind:ident)
            = $route:ident::<$($g:ty),*>($($k:expr),*), len $len:expr;)*
    ) => {
        $(directions!(@row $(#[$doc])* $vis $name($label, $from => $to, $kind)
            = $route::<$($g),*>($($k),*), len $len);)*
    };
    (@row $(#[$doc:meta])* $vis:vis $name:ident($label:literal, $from:ty => $to:ty, $kind:ident)
        = $route:ident::<$($g:ty),*>($($k:expr),*), len $len:expr) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
        $vis struct $name;
        impl sealed::Sealed for $name {}
        impl Direction for $name {
            type From = $from;
            type To = $to;
            const NAME: &'static str = $label;
            #[inline]
            fn run<const LOSSY: bool>(
                t: Transcoder,
                src: &[Unit<$from>],
                dst: &mut [Unit<$to>],
            ) -> Outcome<InputError<Self>> {
                drive::$route::<$($g,)* LOSSY>(t.checked(), $($k,)* src, dst)
            }
            #[cfg(feature = "alloc")]
            #[inline]
            fn len(t: &Transcoder, src: &[Unit<$from>]) -> usize {
                ($len)(t, src)
            }
        }
        directions!(@$kind $name);
    };
    (@lossy $name:ident) => { impl Lossy for $name {} };
    (@strict $name:ident) => {};
    (@visit lossy $name:ident $v:ident) => { $v.lossy::<$name>() };
    (@visit strict $name:ident $v:ident) => { $v.direction::<$name>() };
}

directions! {
    /// Calls `v` with each public direction of the table, in its order.
    visit for_each;

    /// UTF-8 → UTF-16: each chunk validated (utf8-simd), its ASCII prefix
    /// converted first.
    pub Utf8ToUtf16("utf8_to_utf16", Utf8 => Utf16, lossy)
        = from_utf8_ascii::<scalar::Utf16>(Some(|k| k.ascii_to_utf16), |k| k.utf8_to_utf16), len units;
    /// UTF-8 → UTF-16LE in bytes.
    pub Utf8ToUtf16Le("utf8_to_utf16le", Utf8 => Utf16Le, lossy)
        = from_utf8_ascii::<scalar::Utf16Bytes<LE>>(Some(|k| k.ascii_to_utf16_bytes[swap(Endianness::Little)]), |k| k.utf8_to_utf16_bytes[swap(Endianness::Little)]), len units;
    /// UTF-8 → UTF-16BE in bytes.
    pub Utf8ToUtf16Be("utf8_to_utf16be", Utf8 => Utf16Be, lossy)
        = from_utf8_ascii::<scalar::Utf16Bytes<BE>>(Some(|k| k.ascii_to_utf16_bytes[swap(Endianness::Big)]), |k| k.utf8_to_utf16_bytes[swap(Endianness::Big)]), len units;
    /// UTF-8 → UTF-32.
    pub Utf8ToUtf32("utf8_to_utf32", Utf8 => Utf32, lossy)
        = from_utf8_ascii::<scalar::Utf32>(Some(|k| k.ascii_to_utf32), |k| k.utf8_to_utf32), len units;
    /// UTF-8 → Latin-1, in one pass: the kernel stops before anything not
    /// well-formed, and the scalar step finds the exact error.
    pub Utf8ToLatin1("utf8_to_latin1", Utf8 => Latin1, strict)
        = drive::<scalar::Utf8Checked, scalar::Latin1>(|k| k.utf8_to_latin1), len units;
    /// UTF-16 → UTF-8.
    pub Utf16ToUtf8("utf16_to_utf8", Utf16 => Utf8, lossy)
        = drive::<scalar::Utf16, scalar::Utf8>(|k| k.utf16_to_utf8), len Transcoder::utf8_len_from_utf16;
    /// UTF-16LE in bytes → UTF-8.
    pub Utf16LeToUtf8("utf16le_to_utf8", Utf16Le => Utf8, lossy)
        = drive::<scalar::Utf16Bytes<LE>, scalar::Utf8>(|k| k.utf16_bytes_to_utf8[swap(Endianness::Little)]), len |_: &Transcoder, s: &[[u8; 2]]| 3 * s.len();
    /// UTF-16BE in bytes → UTF-8.
    pub Utf16BeToUtf8("utf16be_to_utf8", Utf16Be => Utf8, lossy)
        = drive::<scalar::Utf16Bytes<BE>, scalar::Utf8>(|k| k.utf16_bytes_to_utf8[swap(Endianness::Big)]), len |_: &Transcoder, s: &[[u8; 2]]| 3 * s.len();
    /// UTF-16 → UTF-32.
    pub Utf16ToUtf32("utf16_to_utf32", Utf16 => Utf32, lossy)
        = drive::<scalar::Utf16, scalar::Utf32>(|k| k.utf16_to_utf32), len Transcoder::count_chars_utf16;
    /// UTF-16 → Latin-1.
    pub Utf16ToLatin1("utf16_to_latin1", Utf16 => Latin1, strict)
        = drive::<scalar::Utf16, scalar::Latin1>(|k| k.utf16_to_latin1), len units;
    /// UTF-32 → UTF-8.
    pub Utf32ToUtf8("utf32_to_utf8", Utf32 => Utf8, lossy)
        = drive::<scalar::Utf32, scalar::Utf8>(|k| k.utf32_to_utf8), len Transcoder::utf8_len_from_utf32;
    /// UTF-32 → UTF-16.
    pub Utf32ToUtf16("utf32_to_utf16", Utf32 => Utf16, lossy)
        = drive::<scalar::Utf32, scalar::Utf16>(|k| k.utf32_to_utf16), len Transcoder::utf16_len_from_utf32;
    /// UTF-32 → Latin-1.
    pub Utf32ToLatin1("utf32_to_latin1", Utf32 => Latin1, strict)
        = drive::<scalar::Utf32, scalar::Latin1>(|k| k.utf32_to_latin1), len units;
    /// Latin-1 → UTF-8.
    pub Latin1ToUtf8("latin1_to_utf8", Latin1 => Utf8, lossy)
        = drive::<scalar::Latin1, scalar::Utf8>(|k| k.latin1_to_utf8), len Transcoder::utf8_len_from_latin1;
    /// Latin-1 → UTF-16.
    pub Latin1ToUtf16("latin1_to_utf16", Latin1 => Utf16, lossy)
        = drive::<scalar::Latin1, scalar::Utf16>(|k| k.latin1_to_utf16), len units;
    /// Latin-1 → UTF-32.
    pub Latin1ToUtf32("latin1_to_utf32", Latin1 => Utf32, lossy)
        = drive::<scalar::Latin1, scalar::Utf32>(|k| k.latin1_to_utf32), len units;
}

// The `&str` forms' directions: valid UTF-8, not validated again. Not
// public: a `&[u8]` input would not be known valid.
directions! {
    /// `&str` → UTF-16, its ASCII prefix first.
    pub(crate) StrToUtf16("str_to_utf16", Str => Utf16, lossy)
        = drive_ascii::<scalar::Utf16>(|k| k.ascii_to_utf16, |k| k.utf8_to_utf16), len Transcoder::utf16_len_valid;
    /// `&str` → UTF-16LE in bytes.
    pub(crate) StrToUtf16Le("str_to_utf16le", Str => Utf16Le, lossy)
        = drive_ascii::<scalar::Utf16Bytes<LE>>(|k| k.ascii_to_utf16_bytes[swap(Endianness::Little)], |k| k.utf8_to_utf16_bytes[swap(Endianness::Little)]), len Transcoder::utf16_len_valid;
    /// `&str` → UTF-16BE in bytes.
    pub(crate) StrToUtf16Be("str_to_utf16be", Str => Utf16Be, lossy)
        = drive_ascii::<scalar::Utf16Bytes<BE>>(|k| k.ascii_to_utf16_bytes[swap(Endianness::Big)], |k| k.utf8_to_utf16_bytes[swap(Endianness::Big)]), len Transcoder::utf16_len_valid;
    /// `&str` → UTF-32.
    pub(crate) StrToUtf32("str_to_utf32", Str => Utf32, lossy)
        = drive_ascii::<scalar::Utf32>(|k| k.ascii_to_utf32, |k| k.utf8_to_utf32), len Transcoder::utf32_len_valid;
    /// `&str` → Latin-1: the validating kernel, which stops at characters
    /// above U+00FF (it has no ASCII kernel to go first).
    pub(crate) StrToLatin1("str_to_latin1", Str => Latin1, strict)
        = drive::<scalar::Utf8, scalar::Latin1>(|k| k.utf8_to_latin1), len Transcoder::utf32_len_valid;
}

/// The forms of every direction, written once: the named functions of the
/// crate are these forms of one direction each. With the `alloc` feature,
/// [`convert_vec`](Transcoder::convert_vec) and
/// [`convert_lossy_vec`](Transcoder::convert_lossy_vec) allocate.
impl Transcoder {
    /// Converts `src` in direction `D`, validating: the number of output
    /// units written, or the first error, with `dst[..err.written()]`
    /// holding the conversion of `src[..err.read()]` and nothing after it
    /// written. As the named strict form of `D`, such as
    /// [`utf32_to_latin1`](crate::utf32_to_latin1).
    ///
    /// ```
    /// use transcode::{ErrorKind, Transcoder, direction::Utf32ToLatin1};
    /// let t = Transcoder::new();
    /// let mut dst = [0u8; 4];
    /// assert_eq!(t.convert::<Utf32ToLatin1>(&[0x61, 0xFF], &mut dst), Ok(2));
    /// let err = t.convert::<Utf32ToLatin1>(&[0x61, 0x20AC], &mut dst).unwrap_err();
    /// assert_eq!((err.read(), err.kind()), (1, &ErrorKind::NotLatin1('€')));
    /// ```
    #[inline]
    pub fn convert<D: Direction>(
        &self,
        src: &[Unit<D::From>],
        dst: &mut [Unit<D::To>],
    ) -> Result<usize, Error<InputError<D>>> {
        let t = *self;
        drive::strict_form(move |s, d| D::run::<false>(t, s, d), src, dst)
    }

    /// Converts as much of `src` as fits into `dst` in direction `D`,
    /// validating: how far it got, or the first error before `dst` filled
    /// up.
    ///
    /// ```
    /// use transcode::{Transcoder, direction::Utf16ToUtf8};
    /// let p = Transcoder::new().convert_partial::<Utf16ToUtf8>(&[0x61, 0xE9], &mut [0; 2])?;
    /// assert_eq!((p.read(), p.written()), (1, 1));
    /// # Ok::<(), transcode::Error<transcode::Utf16Error>>(())
    /// ```
    #[inline]
    pub fn convert_partial<D: Direction>(
        &self,
        src: &[Unit<D::From>],
        dst: &mut [Unit<D::To>],
    ) -> Result<Progress, Error<InputError<D>>> {
        drive::partial(D::run::<false>(*self, src, dst))
    }

    /// Converts `src` in direction `D`, replacing malformed input with
    /// U+FFFD as std's lossy functions do: the number of output units
    /// written, or how many `dst` needed.
    ///
    /// ```
    /// use transcode::{Transcoder, direction::Utf8ToUtf32};
    /// let mut dst = [0u32; 4];
    /// assert_eq!(Transcoder::new().convert_lossy::<Utf8ToUtf32>(b"a\xFF", &mut dst), Ok(2));
    /// assert_eq!(dst[..2], [0x61, 0xFFFD]);
    /// ```
    #[inline]
    pub fn convert_lossy<D: Lossy>(
        &self,
        src: &[Unit<D::From>],
        dst: &mut [Unit<D::To>],
    ) -> Result<usize, BufferTooSmall> {
        let t = *self;
        drive::lossy_form(move |s, d| D::run::<true>(t, s, d), src, dst)
    }

    /// Converts as much of `src` as fits into `dst` in direction `D`,
    /// lossily; says how far it got.
    ///
    /// ```
    /// use transcode::{Transcoder, direction::Latin1ToUtf8};
    /// let p = Transcoder::new().convert_lossy_partial::<Latin1ToUtf8>(b"\xE9\xE9", &mut [0; 3]);
    /// assert_eq!((p.read(), p.written()), (1, 2));
    /// ```
    #[inline]
    pub fn convert_lossy_partial<D: Lossy>(
        &self,
        src: &[Unit<D::From>],
        dst: &mut [Unit<D::To>],
    ) -> Progress {
        drive::lossy_partial(D::run::<true>(*self, src, dst))
    }

    /// Converts `src` in direction `D` to a new vector, validating, or
    /// returns the first error (with what was converted before it counted
    /// in [`Error::read`] and [`Error::written`]).
    ///
    /// ```
    /// use transcode::{Transcoder, direction::Utf32ToUtf16};
    /// let t = Transcoder::new();
    /// assert_eq!(t.convert_vec::<Utf32ToUtf16>(&[0x1F600]), Ok(vec![0xD83D, 0xDE00]));
    /// assert_eq!(t.convert_vec::<Utf32ToUtf16>(&[0x61, 0xD800]).unwrap_err().read(), 1);
    /// ```
    #[cfg(feature = "alloc")]
    pub fn convert_vec<D: Direction>(
        &self,
        src: &[Unit<D::From>],
    ) -> Result<Vec<Unit<D::To>>, Error<InputError<D>>> {
        drive::vec_result(self.vec_outcome::<D, false>(src))
    }

    /// Converts `src` in direction `D` to a new vector, lossily.
    ///
    /// ```
    /// use transcode::{Transcoder, direction::Utf16ToUtf32};
    /// assert_eq!(
    ///     Transcoder::new().convert_lossy_vec::<Utf16ToUtf32>(&[0x61, 0xDC00]),
    ///     vec![0x61, 0xFFFD]
    /// );
    /// ```
    #[cfg(feature = "alloc")]
    #[must_use]
    pub fn convert_lossy_vec<D: Lossy>(&self, src: &[Unit<D::From>]) -> Vec<Unit<D::To>> {
        self.vec_outcome::<D, true>(src).0
    }

    /// `D`'s conversion of `src` into a new vector sized by `D`'s length,
    /// with where it stopped.
    #[cfg(feature = "alloc")]
    #[inline]
    pub(crate) fn vec_outcome<D: Direction, const LOSSY: bool>(
        &self,
        src: &[Unit<D::From>],
    ) -> (Vec<Unit<D::To>>, Outcome<InputError<D>>) {
        let t = *self;
        drive::to_vec(move |s, d| D::run::<LOSSY>(t, s, d), src, D::len(self, src))
    }

    /// [`convert_lossy_vec`](Transcoder::convert_lossy_vec) into a vector of
    /// `len` units first (grown if that is short).
    #[cfg(feature = "alloc")]
    #[inline]
    pub(crate) fn lossy_vec_with_len<D: Lossy>(
        &self,
        src: &[Unit<D::From>],
        len: usize,
    ) -> Vec<Unit<D::To>> {
        let t = *self;
        drive::to_vec(move |s, d| D::run::<true>(t, s, d), src, len).0
    }

    /// [`convert_vec`](Transcoder::convert_vec) of a direction whose output
    /// holds every character, so that malformed input is its only error.
    #[cfg(feature = "alloc")]
    #[inline]
    pub(crate) fn vec_or_invalid<D: Lossy>(
        &self,
        src: &[Unit<D::From>],
    ) -> Result<Vec<Unit<D::To>>, InputError<D>> {
        match self.vec_outcome::<D, false>(src) {
            (
                _,
                Outcome {
                    stop: Some(scalar::Stop::Invalid(e)),
                    ..
                },
            ) => Err(e),
            (out, _) => Ok(out),
        }
    }

    /// [`convert_lossy_vec`](Transcoder::convert_lossy_vec) into UTF-8, as a
    /// `String`.
    #[cfg(feature = "alloc")]
    pub(crate) fn lossy_string<D: Lossy<To = Utf8>>(
        &self,
        src: &[Unit<D::From>],
    ) -> alloc::string::String {
        crate::string_from_utf8(self.convert_lossy_vec::<D>(src))
    }

    /// [`vec_or_invalid`](Transcoder::vec_or_invalid) into UTF-8, as a
    /// `String`.
    #[cfg(feature = "alloc")]
    pub(crate) fn string_or_invalid<D: Lossy<To = Utf8>>(
        &self,
        src: &[Unit<D::From>],
    ) -> Result<alloc::string::String, InputError<D>> {
        self.vec_or_invalid::<D>(src).map(crate::string_from_utf8)
    }
}
