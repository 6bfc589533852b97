//! Each named conversion of the crate (`utf32_to_latin1`, its `_partial`,
//! `_lossy` and `_vec` forms, as free functions and as `Transcoder`
//! methods) is its direction's generic form: the same result and the same
//! output, poison past it included, for every output size. The generic
//! forms themselves are checked against the oracle (`table.rs` and every
//! suite that uses `dirs.rs`); this file catches a named function that
//! calls the wrong direction or the wrong form.

use crate::dirs::transcoders;
use crate::harness::Poison;
use std::fmt::Debug;
use transcode::Transcoder;
use transcode::direction::*;

/// `named` and `generic` on the same input, into poisoned outputs of every
/// size from 0 to `max`: the same result and the same output.
#[track_caller]
fn same<D: Poison, R: PartialEq + Debug>(
    what: &str,
    max: usize,
    named: impl Fn(&mut [D]) -> R,
    generic: impl Fn(&mut [D]) -> R,
) {
    for cap in 0..=max {
        let (mut a, mut b) = (vec![D::poison(); cap], vec![D::poison(); cap]);
        let (ra, rb) = (named(&mut a), generic(&mut b));
        assert_eq!(ra, rb, "{what}, output of {cap}");
        assert_eq!(a, b, "{what}, output of {cap}");
    }
}

/// For each `name = form::<Direction>` pair, the method `name` of every
/// kernel set against that form of the direction, and the free function
/// `name` against it with the dispatched kernels.
macro_rules! slices {
    ($ts:expr, $src:expr, $($name:ident = $form:ident::<$d:ty>),* $(,)?) => {$(
        let src = $src;
        let max = 4 * src.len() + 4;
        for t in $ts {
            same(
                concat!(stringify!($name), " ", stringify!($form)),
                max,
                |d| t.$name(src, d),
                |d| t.$form::<$d>(src, d),
            );
        }
        let t = Transcoder::new();
        same(stringify!($name), max, |d| transcode::$name(src, d), |d| t.$form::<$d>(src, d));
    )*};
}

/// As [`slices!`] for the allocating forms: `[named, generic]` map each
/// result to a common type where they differ (a `String` for a `Vec<u8>`,
/// the bare error of input that only malformed input stops).
macro_rules! vecs {
    ($ts:expr, $src:expr, $($name:ident = $form:ident::<$d:ty> $([$nmap:expr, $gmap:expr])?),* $(,)?) => {$(
        let src = $src;
        let t0 = Transcoder::new();
        let pairs = $ts.iter().map(|t| (t.name(), t.$name(src), t.$form::<$d>(src)))
            .chain([("free function", transcode::$name(src), t0.$form::<$d>(src))]);
        for (kernels, named, generic) in pairs {
            $(let (named, generic) = (($nmap)(named), ($gmap)(generic));)?
            assert_eq!(named, generic, "{} ({kernels})", stringify!($name));
        }
    )*};
}

fn texts() -> Vec<String> {
    vec![
        String::new(),
        "plain ascii text, long enough for a register or two of it".into(),
        "héllo wörld, ça va? ÿ".repeat(3),
        "a€😀吕\u{10FFFF}z".repeat(5),
    ]
}

fn bytes<T: Clone>(text: Vec<T>, bad: T) -> Vec<Vec<T>> {
    let mut out = vec![text.clone()];
    for at in [0, text.len() / 2, text.len()] {
        let mut v = text.clone();
        v.insert(at, bad.clone());
        out.push(v);
    }
    out
}

/// The result of a strict vector form into UTF-8 as bytes.
fn utf8_bytes<E>(r: Result<String, E>) -> Result<Vec<u8>, E> {
    r.map(String::into_bytes)
}

/// A generic vector form's error as the named form of a direction into a
/// full encoding returns it: the malformed input's error alone.
fn invalid<T, E: Copy>(r: Result<T, transcode::Error<E>>) -> Result<T, E> {
    r.map_err(|e| *e.invalid().expect("only malformed input stops it"))
}

fn same_type<T>(x: T) -> T {
    x
}

#[test]
fn named_functions_are_their_directions_forms() {
    let ts = transcoders();
    for text in texts() {
        for src in bytes(text.clone().into_bytes(), 0xFF) {
            let src = &src[..];
            slices!(
                &ts,
                src,
                utf8_to_utf16 = convert::<Utf8ToUtf16>,
                utf8_to_utf16_partial = convert_partial::<Utf8ToUtf16>,
                utf8_to_utf16_lossy = convert_lossy::<Utf8ToUtf16>,
                utf8_to_utf16_lossy_partial = convert_lossy_partial::<Utf8ToUtf16>,
                utf8_to_utf32 = convert::<Utf8ToUtf32>,
                utf8_to_utf32_partial = convert_partial::<Utf8ToUtf32>,
                utf8_to_utf32_lossy = convert_lossy::<Utf8ToUtf32>,
                utf8_to_utf32_lossy_partial = convert_lossy_partial::<Utf8ToUtf32>,
                utf8_to_latin1 = convert::<Utf8ToLatin1>,
                utf8_to_latin1_partial = convert_partial::<Utf8ToLatin1>,
            );
            vecs!(&ts, src,
                utf8_to_utf16_vec = convert_vec::<Utf8ToUtf16> [same_type, invalid],
                utf8_to_utf16_lossy_vec = convert_lossy_vec::<Utf8ToUtf16>,
                utf8_to_utf32_vec = convert_vec::<Utf8ToUtf32> [same_type, invalid],
                utf8_to_utf32_lossy_vec = convert_lossy_vec::<Utf8ToUtf32>,
                utf8_to_latin1_vec = convert_vec::<Utf8ToLatin1>,
            );
            // Latin-1 input: any bytes.
            slices!(
                &ts,
                src,
                latin1_to_utf8 = convert_lossy::<Latin1ToUtf8>,
                latin1_to_utf8_partial = convert_lossy_partial::<Latin1ToUtf8>,
                latin1_to_utf16 = convert_lossy::<Latin1ToUtf16>,
                latin1_to_utf16_partial = convert_lossy_partial::<Latin1ToUtf16>,
                latin1_to_utf32 = convert_lossy::<Latin1ToUtf32>,
                latin1_to_utf32_partial = convert_lossy_partial::<Latin1ToUtf32>,
            );
            vecs!(&ts, src,
                latin1_to_string = convert_lossy_vec::<Latin1ToUtf8> [String::into_bytes, same_type],
                latin1_to_utf16_vec = convert_lossy_vec::<Latin1ToUtf16>,
                latin1_to_utf32_vec = convert_lossy_vec::<Latin1ToUtf32>,
            );
        }
        for src in bytes(text.encode_utf16().collect(), 0xD800) {
            let src = &src[..];
            slices!(
                &ts,
                src,
                utf16_to_utf8 = convert::<Utf16ToUtf8>,
                utf16_to_utf8_partial = convert_partial::<Utf16ToUtf8>,
                utf16_to_utf8_lossy = convert_lossy::<Utf16ToUtf8>,
                utf16_to_utf8_lossy_partial = convert_lossy_partial::<Utf16ToUtf8>,
                utf16_to_utf32 = convert::<Utf16ToUtf32>,
                utf16_to_utf32_partial = convert_partial::<Utf16ToUtf32>,
                utf16_to_utf32_lossy = convert_lossy::<Utf16ToUtf32>,
                utf16_to_utf32_lossy_partial = convert_lossy_partial::<Utf16ToUtf32>,
                utf16_to_latin1 = convert::<Utf16ToLatin1>,
                utf16_to_latin1_partial = convert_partial::<Utf16ToLatin1>,
            );
            vecs!(&ts, src,
                utf16_to_string = convert_vec::<Utf16ToUtf8> [utf8_bytes, invalid],
                utf16_to_string_lossy = convert_lossy_vec::<Utf16ToUtf8> [String::into_bytes, same_type],
                utf16_to_utf32_vec = convert_vec::<Utf16ToUtf32> [same_type, invalid],
                utf16_to_utf32_lossy_vec = convert_lossy_vec::<Utf16ToUtf32>,
                utf16_to_latin1_vec = convert_vec::<Utf16ToLatin1>,
            );
        }
        for src in bytes(text.chars().map(u32::from).collect(), 0x11_0000) {
            let src = &src[..];
            slices!(
                &ts,
                src,
                utf32_to_utf8 = convert::<Utf32ToUtf8>,
                utf32_to_utf8_partial = convert_partial::<Utf32ToUtf8>,
                utf32_to_utf8_lossy = convert_lossy::<Utf32ToUtf8>,
                utf32_to_utf8_lossy_partial = convert_lossy_partial::<Utf32ToUtf8>,
                utf32_to_utf16 = convert::<Utf32ToUtf16>,
                utf32_to_utf16_partial = convert_partial::<Utf32ToUtf16>,
                utf32_to_utf16_lossy = convert_lossy::<Utf32ToUtf16>,
                utf32_to_utf16_lossy_partial = convert_lossy_partial::<Utf32ToUtf16>,
                utf32_to_latin1 = convert::<Utf32ToLatin1>,
                utf32_to_latin1_partial = convert_partial::<Utf32ToLatin1>,
            );
            vecs!(&ts, src,
                utf32_to_string = convert_vec::<Utf32ToUtf8> [utf8_bytes, invalid],
                utf32_to_string_lossy = convert_lossy_vec::<Utf32ToUtf8> [String::into_bytes, same_type],
                utf32_to_utf16_vec = convert_vec::<Utf32ToUtf16> [same_type, invalid],
                utf32_to_utf16_lossy_vec = convert_lossy_vec::<Utf32ToUtf16>,
                utf32_to_latin1_vec = convert_vec::<Utf32ToLatin1>,
            );
        }
    }
}
