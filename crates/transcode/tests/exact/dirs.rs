//! Every conversion of the crate as a [`Dir`], and one check per input
//! encoding that runs all of the conversions from it, the allocating forms
//! and the counts.
//!
//! The directions of the crate's table (`transcode::direction`) are
//! [`strict_dir`] or [`lossy_dir`] of their type: their generic forms with
//! the oracle of their encodings (`table.rs` runs every row of the table;
//! `named.rs` checks that each named function is its direction's form).
//! The forms with a parameter or another input type (UTF-16 in bytes of a
//! given order, `&str`) are written out here.

use crate::harness::*;
use core::convert::Infallible;
use std::sync::LazyLock;
use transcode::direction::{
    Latin1ToUtf8, Latin1ToUtf16, Latin1ToUtf32, Utf8ToLatin1, Utf8ToUtf16, Utf8ToUtf32,
    Utf16ToLatin1, Utf16ToUtf8, Utf16ToUtf32, Utf32ToLatin1, Utf32ToUtf8, Utf32ToUtf16,
};
use transcode::{
    BomMode, ByteOrder, Endianness, ErrorKind, Transcoder, Utf8Error, Utf16Error, Utf32Error,
};

pub(crate) use crate::kernels::transcoders;

/// `n`, or a tenth of it under emulation (`cargo xtask cross` runs these
/// tests under qemu, 10 to 100 times slower: `codec_testdata::emulated`).
pub(crate) fn scaled(n: usize) -> usize {
    if codec_testdata::emulated() {
        n.div_ceil(10)
    } else {
        n
    }
}

/// Valid UTF-8, decoded; for the `&str` forms.
fn decode_str(src: &[u8]) -> Vec<Item<Infallible>> {
    core::str::from_utf8(src)
        .expect("str forms get valid input")
        .chars()
        .map(|c| Item::Char(c, c.len_utf8()))
        .collect()
}

fn as_str(src: &[u8]) -> &str {
    core::str::from_utf8(src).expect("str forms get valid input")
}

const LE: Endianness = Endianness::Little;
const BE: Endianness = Endianness::Big;
/// Byte input read as std reads it, a byte-order mark kept.
const LE_KEEP: ByteOrder = ByteOrder::new(LE, BomMode::Keep);
const BE_KEEP: ByteOrder = ByteOrder::new(BE, BomMode::Keep);

pub(crate) static UTF8_TO_UTF16: LazyLock<Dir<u8, u16, Utf8Error>> =
    LazyLock::new(lossy_dir::<Utf8ToUtf16>);

pub(crate) const UTF8_TO_UTF16LE: Dir<u8, u8, Utf8Error> = Dir {
    name: "utf8_to_utf16_bytes LE",
    decode: decode_utf8,
    encode: encode_utf16le,
    strict: Some(|t, s, d| t.utf8_to_utf16_bytes(s, d, LE)),
    lossy: Some(|t, s, d| t.utf8_to_utf16_bytes_lossy(s, d, LE)),
    partial: None,
    lossy_partial: None,
};

pub(crate) const UTF8_TO_UTF16BE: Dir<u8, u8, Utf8Error> = Dir {
    name: "utf8_to_utf16_bytes BE",
    decode: decode_utf8,
    encode: encode_utf16be,
    strict: Some(|t, s, d| t.utf8_to_utf16_bytes(s, d, BE)),
    lossy: Some(|t, s, d| t.utf8_to_utf16_bytes_lossy(s, d, BE)),
    partial: None,
    lossy_partial: None,
};

pub(crate) static UTF8_TO_UTF32: LazyLock<Dir<u8, u32, Utf8Error>> =
    LazyLock::new(lossy_dir::<Utf8ToUtf32>);

pub(crate) static UTF8_TO_LATIN1: LazyLock<Dir<u8, u8, Utf8Error>> =
    LazyLock::new(strict_dir::<Utf8ToLatin1>);

pub(crate) const STR_TO_UTF16: Dir<u8, u16, Infallible> = Dir {
    name: "str_to_utf16",
    decode: decode_str,
    encode: encode_utf16,
    strict: None,
    lossy: Some(|t, s, d| t.str_to_utf16(as_str(s), d)),
    partial: None,
    lossy_partial: None,
};

pub(crate) const STR_TO_UTF16LE: Dir<u8, u8, Infallible> = Dir {
    name: "str_to_utf16_bytes LE",
    decode: decode_str,
    encode: encode_utf16le,
    strict: None,
    lossy: Some(|t, s, d| t.str_to_utf16_bytes(as_str(s), d, LE)),
    partial: None,
    lossy_partial: None,
};

pub(crate) const STR_TO_UTF16BE: Dir<u8, u8, Infallible> = Dir {
    name: "str_to_utf16_bytes BE",
    decode: decode_str,
    encode: encode_utf16be,
    strict: None,
    lossy: Some(|t, s, d| t.str_to_utf16_bytes(as_str(s), d, BE)),
    partial: None,
    lossy_partial: None,
};

pub(crate) const STR_TO_UTF32: Dir<u8, u32, Infallible> = Dir {
    name: "str_to_utf32",
    decode: decode_str,
    encode: encode_utf32,
    strict: None,
    lossy: Some(|t, s, d| t.str_to_utf32(as_str(s), d)),
    partial: None,
    lossy_partial: None,
};

pub(crate) const STR_TO_LATIN1: Dir<u8, u8, Infallible> = Dir {
    name: "str_to_latin1",
    decode: decode_str,
    encode: encode_latin1,
    strict: Some(|t, s, d| t.str_to_latin1(as_str(s), d)),
    lossy: None,
    partial: None,
    lossy_partial: None,
};

pub(crate) static UTF16_TO_UTF8: LazyLock<Dir<u16, u8, Utf16Error>> =
    LazyLock::new(lossy_dir::<Utf16ToUtf8>);

pub(crate) const UTF16LE_TO_UTF8: Dir<u8, u8, Utf16Error> = Dir {
    name: "utf16_bytes_to_utf8 LE",
    decode: decode_utf16le,
    encode: encode_utf8,
    strict: Some(|t, s, d| t.utf16_bytes_to_utf8(s, d, LE_KEEP)),
    lossy: Some(|t, s, d| t.utf16_bytes_to_utf8_lossy(s, d, LE_KEEP)),
    partial: None,
    lossy_partial: None,
};

pub(crate) const UTF16BE_TO_UTF8: Dir<u8, u8, Utf16Error> = Dir {
    name: "utf16_bytes_to_utf8 BE",
    decode: decode_utf16be,
    encode: encode_utf8,
    strict: Some(|t, s, d| t.utf16_bytes_to_utf8(s, d, BE_KEEP)),
    lossy: Some(|t, s, d| t.utf16_bytes_to_utf8_lossy(s, d, BE_KEEP)),
    partial: None,
    lossy_partial: None,
};

pub(crate) static UTF16_TO_UTF32: LazyLock<Dir<u16, u32, Utf16Error>> =
    LazyLock::new(lossy_dir::<Utf16ToUtf32>);

pub(crate) static UTF16_TO_LATIN1: LazyLock<Dir<u16, u8, Utf16Error>> =
    LazyLock::new(strict_dir::<Utf16ToLatin1>);

pub(crate) static UTF32_TO_UTF8: LazyLock<Dir<u32, u8, Utf32Error>> =
    LazyLock::new(lossy_dir::<Utf32ToUtf8>);

pub(crate) static UTF32_TO_UTF16: LazyLock<Dir<u32, u16, Utf32Error>> =
    LazyLock::new(lossy_dir::<Utf32ToUtf16>);

pub(crate) static UTF32_TO_LATIN1: LazyLock<Dir<u32, u8, Utf32Error>> =
    LazyLock::new(strict_dir::<Utf32ToLatin1>);

pub(crate) static LATIN1_TO_UTF8: LazyLock<Dir<u8, u8, Infallible>> =
    LazyLock::new(lossy_dir::<Latin1ToUtf8>);

pub(crate) static LATIN1_TO_UTF16: LazyLock<Dir<u8, u16, Infallible>> =
    LazyLock::new(lossy_dir::<Latin1ToUtf16>);

pub(crate) static LATIN1_TO_UTF32: LazyLock<Dir<u8, u32, Infallible>> =
    LazyLock::new(lossy_dir::<Latin1ToUtf32>);

/// `Ok(out)` or the error of an expectation, as the allocating forms return
/// it.
fn as_result<D, E: Copy + std::fmt::Debug>(x: Expect<D, E>) -> Result<Vec<D>, E> {
    match x.stop {
        None => Ok(x.out),
        Some(ErrorKind::Invalid(e)) => Err(e),
        Some(other) => panic!("unexpected {other:?}"),
    }
}

fn string(bytes: Vec<u8>) -> String {
    String::from_utf8(bytes).unwrap()
}

/// Everything that converts from UTF-8, and the UTF-8 counts, with each of
/// `ts`.
pub(crate) fn check_utf8(ts: &[Transcoder], src: &[u8], caps: Caps) {
    check(&UTF8_TO_UTF16, ts, src, caps);
    check(&UTF8_TO_UTF16LE, ts, src, caps);
    check(&UTF8_TO_UTF16BE, ts, src, caps);
    check(&UTF8_TO_UTF32, ts, src, caps);
    check(&UTF8_TO_LATIN1, ts, src, caps);
    let items = decode_utf8(src);
    let utf16 = as_result(expect(&items, encode_utf16, false));
    let lossy = String::from_utf8_lossy(src);
    let lossy16: Vec<u16> = lossy.encode_utf16().collect();
    let bytes = [
        (LE, encode_utf16le as fn(char) -> Option<Vec<u8>>),
        (BE, encode_utf16be),
    ]
    .map(|(order, encode)| {
        (
            order,
            as_result(expect(&items, encode, false)),
            expect(&items, encode, true).out,
        )
    });
    let utf32 = as_result(expect(&items, encode_utf32, false));
    let lossy32: Vec<u32> = lossy.chars().map(u32::from).collect();
    let latin1 = expect(&items, encode_latin1, false);
    let latin1_want = match latin1.stop {
        None => Ok(latin1.out.clone()),
        Some(kind) => Err((latin1.steps.last().unwrap().0, kind)),
    };
    let valid = core::str::from_utf8(src).ok();
    if valid.is_some() {
        check(&STR_TO_UTF16, ts, src, caps);
        check(&STR_TO_UTF16LE, ts, src, caps);
        check(&STR_TO_UTF16BE, ts, src, caps);
        check(&STR_TO_UTF32, ts, src, caps);
        check(&STR_TO_LATIN1, ts, src, caps);
    }
    for t in ts {
        let name = t.name();
        let ctx = || format!("{name} on {:02X?}", &src[..src.len().min(40)]);
        assert_eq!(
            t.utf8_to_utf16_vec(src),
            utf16,
            "utf8_to_utf16_vec {}",
            ctx()
        );
        assert_eq!(
            t.utf8_to_utf16_lossy_vec(src),
            lossy16,
            "utf8_to_utf16_lossy_vec {}",
            ctx()
        );
        for (order, strict, lossy) in &bytes {
            assert_eq!(
                &t.utf8_to_utf16_bytes_vec(src, *order),
                strict,
                "utf8_to_utf16_bytes_vec {order:?} {}",
                ctx()
            );
            assert_eq!(
                &t.utf8_to_utf16_bytes_lossy_vec(src, *order),
                lossy,
                "utf8_to_utf16_bytes_lossy_vec {order:?} {}",
                ctx()
            );
        }
        assert_eq!(
            t.utf8_to_utf32_vec(src),
            utf32,
            "utf8_to_utf32_vec {}",
            ctx()
        );
        assert_eq!(
            t.utf8_to_utf32_lossy_vec(src),
            lossy32,
            "utf8_to_utf32_lossy_vec {}",
            ctx()
        );
        let got = t.utf8_to_latin1_vec(src).map_err(|e| (e.read(), *e.kind()));
        assert_eq!(got, latin1_want, "utf8_to_latin1_vec {}", ctx());
        if let Some(s) = valid {
            assert_eq!(t.str_to_utf16_vec(s), lossy16, "{}", ctx());
            assert_eq!(t.str_to_utf16_bytes_vec(s, BE), bytes[1].2, "{}", ctx());
            assert_eq!(t.str_to_utf32_vec(s), lossy32, "{}", ctx());
            let got = t.str_to_latin1_vec(s).map_err(|e| (e.read(), *e.kind()));
            let want = match latin1.stop {
                None => Ok(latin1.out.clone()),
                Some(ErrorKind::NotLatin1(c)) => {
                    Err((latin1.steps.last().unwrap().0, ErrorKind::NotLatin1(c)))
                }
                Some(other) => panic!("unexpected {other:?}"),
            };
            assert_eq!(got, want, "str_to_latin1_vec {}", ctx());
            assert_eq!(t.count_chars(s), s.chars().count(), "count_chars {}", ctx());
            assert_eq!(t.utf16_len(s), lossy16.len(), "utf16_len {}", ctx());
        }
    }
}

/// Everything that converts from UTF-16 (native, and as bytes in both
/// orders, with and without an odd last byte), and the UTF-16 counts, with
/// each of `ts`.
pub(crate) fn check_utf16(ts: &[Transcoder], src: &[u16], caps: Caps) {
    check(&UTF16_TO_UTF8, ts, src, caps);
    check(&UTF16_TO_UTF32, ts, src, caps);
    check(&UTF16_TO_LATIN1, ts, src, caps);
    let items = decode_utf16(src);
    let lossy = String::from_utf16_lossy(src);
    let strict8 = as_result(expect(&items, encode_utf8, false)).map(string);
    let utf32 = as_result(expect(&items, encode_utf32, false));
    let lossy32: Vec<u32> = lossy.chars().map(u32::from).collect();
    let latin1 = expect(&items, encode_latin1, false);
    let latin1_want = match latin1.stop {
        None => Ok(latin1.out),
        Some(kind) => Err((latin1.steps.last().unwrap().0, kind)),
    };
    let chars = char::decode_utf16(src.iter().copied()).count();
    for t in ts {
        let name = t.name();
        let ctx = || format!("{name} on {:04X?}", &src[..src.len().min(40)]);
        assert_eq!(t.utf16_to_string(src), strict8, "utf16_to_string {}", ctx());
        assert_eq!(t.utf16_to_string_lossy(src), lossy, "{}", ctx());
        assert_eq!(t.utf16_to_utf32_vec(src), utf32, "{}", ctx());
        assert_eq!(t.utf16_to_utf32_lossy_vec(src), lossy32, "{}", ctx());
        let got = t
            .utf16_to_latin1_vec(src)
            .map_err(|e| (e.read(), *e.kind()));
        assert_eq!(got, latin1_want, "utf16_to_latin1_vec {}", ctx());
        assert_eq!(
            t.count_chars_utf16(src),
            chars,
            "count_chars_utf16 {}",
            ctx()
        );
        assert_eq!(
            t.utf8_len_from_utf16(src),
            lossy.len(),
            "utf8_len_from_utf16 {}",
            ctx()
        );
    }
    for (order, dir) in [(LE, &UTF16LE_TO_UTF8), (BE, &UTF16BE_TO_UTF8)] {
        let mut bytes: Vec<u8> = src
            .iter()
            .flat_map(|&u| match order {
                Endianness::Little => u.to_le_bytes(),
                Endianness::Big => u.to_be_bytes(),
            })
            .collect();
        for odd in [false, true] {
            if odd {
                bytes.push(0x41);
            }
            check(dir, ts, &bytes, caps);
            let items = decode_utf16_bytes(&bytes, order);
            let strict = as_result(expect(&items, encode_utf8, false)).map(string);
            let lossy = string(expect(&items, encode_utf8, true).out);
            for t in ts {
                let name = t.name();
                assert_eq!(
                    t.utf16_bytes_to_string(&bytes, ByteOrder::new(order, BomMode::Keep)),
                    strict,
                    "utf16_bytes_to_string {order:?} odd {odd} {name}"
                );
                assert_eq!(
                    t.utf16_bytes_to_string_lossy(&bytes, ByteOrder::new(order, BomMode::Keep)),
                    lossy,
                    "utf16_bytes_to_string_lossy {order:?} odd {odd} {name}"
                );
            }
        }
    }
}

/// Everything that converts from UTF-32, and the UTF-32 lengths, with each
/// of `ts`.
pub(crate) fn check_utf32(ts: &[Transcoder], src: &[u32], caps: Caps) {
    check(&UTF32_TO_UTF8, ts, src, caps);
    check(&UTF32_TO_UTF16, ts, src, caps);
    check(&UTF32_TO_LATIN1, ts, src, caps);
    let items = decode_utf32(src);
    let lossy: String = src
        .iter()
        .map(|&u| char::from_u32(u).unwrap_or('\u{FFFD}'))
        .collect();
    let strict8 = as_result(expect(&items, encode_utf8, false)).map(string);
    let utf16 = as_result(expect(&items, encode_utf16, false));
    let lossy16: Vec<u16> = lossy.encode_utf16().collect();
    let latin1 = expect(&items, encode_latin1, false);
    let latin1_want = match latin1.stop {
        None => Ok(latin1.out),
        Some(kind) => Err((latin1.steps.last().unwrap().0, kind)),
    };
    for t in ts {
        let name = t.name();
        let ctx = || format!("{name} on {:X?}", &src[..src.len().min(40)]);
        assert_eq!(t.utf32_to_string(src), strict8, "{}", ctx());
        assert_eq!(t.utf32_to_string_lossy(src), lossy, "{}", ctx());
        assert_eq!(t.utf32_to_utf16_vec(src), utf16, "{}", ctx());
        assert_eq!(t.utf32_to_utf16_lossy_vec(src), lossy16, "{}", ctx());
        let got = t
            .utf32_to_latin1_vec(src)
            .map_err(|e| (e.read(), *e.kind()));
        assert_eq!(got, latin1_want, "utf32_to_latin1_vec {}", ctx());
        assert_eq!(t.utf8_len_from_utf32(src), lossy.len(), "{}", ctx());
        assert_eq!(t.utf16_len_from_utf32(src), lossy16.len(), "{}", ctx());
    }
}

/// Everything that converts from Latin-1, and its UTF-8 length, with each
/// of `ts`.
pub(crate) fn check_latin1(ts: &[Transcoder], src: &[u8], caps: Caps) {
    check(&LATIN1_TO_UTF8, ts, src, caps);
    check(&LATIN1_TO_UTF16, ts, src, caps);
    check(&LATIN1_TO_UTF32, ts, src, caps);
    let s: String = src.iter().map(|&b| char::from(b)).collect();
    let utf16: Vec<u16> = s.encode_utf16().collect();
    let utf32: Vec<u32> = s.chars().map(u32::from).collect();
    for t in ts {
        assert_eq!(t.latin1_to_string(src), s, "{}", t.name());
        assert_eq!(t.latin1_to_utf16_vec(src), utf16, "{}", t.name());
        assert_eq!(t.latin1_to_utf32_vec(src), utf32, "{}", t.name());
        assert_eq!(t.utf8_len_from_latin1(src), s.len(), "{}", t.name());
    }
}
