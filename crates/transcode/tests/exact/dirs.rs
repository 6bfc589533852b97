//! Every conversion of the crate as a [`Dir`], and one check per input
//! encoding that runs all of the conversions from it, the allocating forms
//! and the counts.

use crate::harness::*;
use core::convert::Infallible;
use transcode::{Endianness, ErrorKind, Transcoder, Utf8Error, Utf16Error, Utf32Error};

/// Every set of kernels this CPU can run. The SIMD ones must be present on
/// the machines the tests run on (x86-64 with AVX2), so that a missing
/// kernel cannot pass silently; set `TRANSCODE_ALLOW_MISSING=1` elsewhere.
pub(crate) fn transcoders() -> Vec<Transcoder> {
    let all: Vec<Transcoder> = Transcoder::all().collect();
    if std::env::var_os("TRANSCODE_ALLOW_MISSING").is_none() && cfg!(target_arch = "x86_64") {
        for name in ["sse42", "avx2"] {
            assert!(
                all.iter().any(|t| t.name() == name),
                "the {name} kernels are not available on this CPU"
            );
        }
    }
    assert_eq!(all.last().map(Transcoder::name), Some("portable"));
    all
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

pub(crate) const UTF8_TO_UTF16: Dir<u8, u16, Utf8Error> = Dir {
    name: "utf8_to_utf16",
    decode: decode_utf8,
    encode: encode_utf16,
    strict: Some(|t, s, d| t.utf8_to_utf16(s, d)),
    lossy: Some(|t, s, d| t.utf8_to_utf16_lossy(s, d)),
    partial: Some(|t, s, d| t.utf8_to_utf16_partial(s, d)),
    lossy_partial: Some(|t, s, d| t.utf8_to_utf16_lossy_partial(s, d)),
};

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

pub(crate) const UTF8_TO_UTF32: Dir<u8, u32, Utf8Error> = Dir {
    name: "utf8_to_utf32",
    decode: decode_utf8,
    encode: encode_utf32,
    strict: Some(|t, s, d| t.utf8_to_utf32(s, d)),
    lossy: Some(|t, s, d| t.utf8_to_utf32_lossy(s, d)),
    partial: Some(|t, s, d| t.utf8_to_utf32_partial(s, d)),
    lossy_partial: Some(|t, s, d| t.utf8_to_utf32_lossy_partial(s, d)),
};

pub(crate) const UTF8_TO_LATIN1: Dir<u8, u8, Utf8Error> = Dir {
    name: "utf8_to_latin1",
    decode: decode_utf8,
    encode: encode_latin1,
    strict: Some(|t, s, d| t.utf8_to_latin1(s, d)),
    lossy: None,
    partial: Some(|t, s, d| t.utf8_to_latin1_partial(s, d)),
    lossy_partial: None,
};

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

pub(crate) const UTF16_TO_UTF8: Dir<u16, u8, Utf16Error> = Dir {
    name: "utf16_to_utf8",
    decode: decode_utf16,
    encode: encode_utf8,
    strict: Some(|t, s, d| t.utf16_to_utf8(s, d)),
    lossy: Some(|t, s, d| t.utf16_to_utf8_lossy(s, d)),
    partial: Some(|t, s, d| t.utf16_to_utf8_partial(s, d)),
    lossy_partial: Some(|t, s, d| t.utf16_to_utf8_lossy_partial(s, d)),
};

pub(crate) const UTF16LE_TO_UTF8: Dir<u8, u8, Utf16Error> = Dir {
    name: "utf16_bytes_to_utf8 LE",
    decode: decode_utf16le,
    encode: encode_utf8,
    strict: Some(|t, s, d| t.utf16_bytes_to_utf8(s, d, LE)),
    lossy: Some(|t, s, d| t.utf16_bytes_to_utf8_lossy(s, d, LE)),
    partial: None,
    lossy_partial: None,
};

pub(crate) const UTF16BE_TO_UTF8: Dir<u8, u8, Utf16Error> = Dir {
    name: "utf16_bytes_to_utf8 BE",
    decode: decode_utf16be,
    encode: encode_utf8,
    strict: Some(|t, s, d| t.utf16_bytes_to_utf8(s, d, BE)),
    lossy: Some(|t, s, d| t.utf16_bytes_to_utf8_lossy(s, d, BE)),
    partial: None,
    lossy_partial: None,
};

pub(crate) const UTF16_TO_UTF32: Dir<u16, u32, Utf16Error> = Dir {
    name: "utf16_to_utf32",
    decode: decode_utf16,
    encode: encode_utf32,
    strict: Some(|t, s, d| t.utf16_to_utf32(s, d)),
    lossy: Some(|t, s, d| t.utf16_to_utf32_lossy(s, d)),
    partial: Some(|t, s, d| t.utf16_to_utf32_partial(s, d)),
    lossy_partial: Some(|t, s, d| t.utf16_to_utf32_lossy_partial(s, d)),
};

pub(crate) const UTF16_TO_LATIN1: Dir<u16, u8, Utf16Error> = Dir {
    name: "utf16_to_latin1",
    decode: decode_utf16,
    encode: encode_latin1,
    strict: Some(|t, s, d| t.utf16_to_latin1(s, d)),
    lossy: None,
    partial: Some(|t, s, d| t.utf16_to_latin1_partial(s, d)),
    lossy_partial: None,
};

pub(crate) const UTF32_TO_UTF8: Dir<u32, u8, Utf32Error> = Dir {
    name: "utf32_to_utf8",
    decode: decode_utf32,
    encode: encode_utf8,
    strict: Some(|t, s, d| t.utf32_to_utf8(s, d)),
    lossy: Some(|t, s, d| t.utf32_to_utf8_lossy(s, d)),
    partial: Some(|t, s, d| t.utf32_to_utf8_partial(s, d)),
    lossy_partial: Some(|t, s, d| t.utf32_to_utf8_lossy_partial(s, d)),
};

pub(crate) const UTF32_TO_UTF16: Dir<u32, u16, Utf32Error> = Dir {
    name: "utf32_to_utf16",
    decode: decode_utf32,
    encode: encode_utf16,
    strict: Some(|t, s, d| t.utf32_to_utf16(s, d)),
    lossy: Some(|t, s, d| t.utf32_to_utf16_lossy(s, d)),
    partial: Some(|t, s, d| t.utf32_to_utf16_partial(s, d)),
    lossy_partial: Some(|t, s, d| t.utf32_to_utf16_lossy_partial(s, d)),
};

pub(crate) const UTF32_TO_LATIN1: Dir<u32, u8, Utf32Error> = Dir {
    name: "utf32_to_latin1",
    decode: decode_utf32,
    encode: encode_latin1,
    strict: Some(|t, s, d| t.utf32_to_latin1(s, d)),
    lossy: None,
    partial: Some(|t, s, d| t.utf32_to_latin1_partial(s, d)),
    lossy_partial: None,
};

pub(crate) const LATIN1_TO_UTF8: Dir<u8, u8, Infallible> = Dir {
    name: "latin1_to_utf8",
    decode: decode_latin1,
    encode: encode_utf8,
    strict: None,
    lossy: Some(|t, s, d| t.latin1_to_utf8(s, d)),
    partial: None,
    lossy_partial: Some(|t, s, d| t.latin1_to_utf8_partial(s, d)),
};

pub(crate) const LATIN1_TO_UTF16: Dir<u8, u16, Infallible> = Dir {
    name: "latin1_to_utf16",
    decode: decode_latin1,
    encode: encode_utf16,
    strict: None,
    lossy: Some(|t, s, d| t.latin1_to_utf16(s, d)),
    partial: None,
    lossy_partial: Some(|t, s, d| t.latin1_to_utf16_partial(s, d)),
};

pub(crate) const LATIN1_TO_UTF32: Dir<u8, u32, Infallible> = Dir {
    name: "latin1_to_utf32",
    decode: decode_latin1,
    encode: encode_utf32,
    strict: None,
    lossy: Some(|t, s, d| t.latin1_to_utf32(s, d)),
    partial: None,
    lossy_partial: Some(|t, s, d| t.latin1_to_utf32_partial(s, d)),
};

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

/// Everything that converts from UTF-8, and the UTF-8 counts.
pub(crate) fn check_utf8(t: &Transcoder, src: &[u8], caps: Caps) {
    check(&UTF8_TO_UTF16, t, src, caps);
    check(&UTF8_TO_UTF16LE, t, src, caps);
    check(&UTF8_TO_UTF16BE, t, src, caps);
    check(&UTF8_TO_UTF32, t, src, caps);
    check(&UTF8_TO_LATIN1, t, src, caps);
    let items = decode_utf8(src);
    let name = t.name();
    let ctx = || format!("{name} on {:02X?}", &src[..src.len().min(40)]);
    assert_eq!(
        t.utf8_to_utf16_vec(src),
        as_result(expect(&items, encode_utf16, false)),
        "utf8_to_utf16_vec {}",
        ctx()
    );
    assert_eq!(
        t.utf8_to_utf16_lossy_vec(src),
        String::from_utf8_lossy(src)
            .encode_utf16()
            .collect::<Vec<_>>(),
        "utf8_to_utf16_lossy_vec {}",
        ctx()
    );
    for (order, encode) in [
        (LE, encode_utf16le as fn(char) -> Option<Vec<u8>>),
        (BE, encode_utf16be),
    ] {
        assert_eq!(
            t.utf8_to_utf16_bytes_vec(src, order),
            as_result(expect(&items, encode, false)),
            "utf8_to_utf16_bytes_vec {order:?} {}",
            ctx()
        );
        assert_eq!(
            t.utf8_to_utf16_bytes_lossy_vec(src, order),
            expect(&items, encode, true).out,
            "utf8_to_utf16_bytes_lossy_vec {order:?} {}",
            ctx()
        );
    }
    assert_eq!(
        t.utf8_to_utf32_vec(src),
        as_result(expect(&items, encode_utf32, false)),
        "utf8_to_utf32_vec {}",
        ctx()
    );
    assert_eq!(
        t.utf8_to_utf32_lossy_vec(src),
        String::from_utf8_lossy(src)
            .chars()
            .map(u32::from)
            .collect::<Vec<_>>(),
        "utf8_to_utf32_lossy_vec {}",
        ctx()
    );
    let latin1 = expect(&items, encode_latin1, false);
    let got = t.utf8_to_latin1_vec(src).map_err(|e| (e.read(), *e.kind()));
    let want = match latin1.stop {
        None => Ok(latin1.out.clone()),
        Some(kind) => Err((latin1.steps.last().unwrap().0, kind)),
    };
    assert_eq!(got, want, "utf8_to_latin1_vec {}", ctx());

    if let Ok(s) = core::str::from_utf8(src) {
        check(&STR_TO_UTF16, t, src, caps);
        check(&STR_TO_UTF16LE, t, src, caps);
        check(&STR_TO_UTF16BE, t, src, caps);
        check(&STR_TO_UTF32, t, src, caps);
        check(&STR_TO_LATIN1, t, src, caps);
        assert_eq!(
            t.str_to_utf16_vec(s),
            s.encode_utf16().collect::<Vec<_>>(),
            "{}",
            ctx()
        );
        assert_eq!(
            t.str_to_utf16_bytes_vec(s, BE),
            s.encode_utf16()
                .flat_map(u16::to_be_bytes)
                .collect::<Vec<_>>(),
            "{}",
            ctx()
        );
        assert_eq!(
            t.str_to_utf32_vec(s),
            s.chars().map(u32::from).collect::<Vec<_>>(),
            "{}",
            ctx()
        );
        let got = t.str_to_latin1_vec(s).map_err(|e| (e.read(), *e.kind()));
        let want = match latin1.stop {
            None => Ok(latin1.out),
            Some(ErrorKind::NotLatin1(c)) => {
                Err((latin1.steps.last().unwrap().0, ErrorKind::NotLatin1(c)))
            }
            Some(other) => panic!("unexpected {other:?}"),
        };
        assert_eq!(got, want, "str_to_latin1_vec {}", ctx());
        assert_eq!(t.count_chars(s), s.chars().count(), "count_chars {}", ctx());
        assert_eq!(
            t.utf16_len(s),
            s.encode_utf16().count(),
            "utf16_len {}",
            ctx()
        );
    }
}

/// Everything that converts from UTF-16 (native, and as bytes in both
/// orders, with and without an odd last byte), and the UTF-16 counts.
pub(crate) fn check_utf16(t: &Transcoder, src: &[u16], caps: Caps) {
    check(&UTF16_TO_UTF8, t, src, caps);
    check(&UTF16_TO_UTF32, t, src, caps);
    check(&UTF16_TO_LATIN1, t, src, caps);
    let name = t.name();
    let ctx = || format!("{name} on {:04X?}", &src[..src.len().min(40)]);
    let items = decode_utf16(src);
    let lossy = String::from_utf16_lossy(src);
    assert_eq!(
        t.utf16_to_string(src),
        as_result(expect(&items, encode_utf8, false)).map(string),
        "utf16_to_string {}",
        ctx()
    );
    assert_eq!(t.utf16_to_string_lossy(src), lossy, "{}", ctx());
    assert_eq!(
        t.utf16_to_utf32_vec(src),
        as_result(expect(&items, encode_utf32, false)),
        "{}",
        ctx()
    );
    assert_eq!(
        t.utf16_to_utf32_lossy_vec(src),
        lossy.chars().map(u32::from).collect::<Vec<_>>(),
        "{}",
        ctx()
    );
    let latin1 = expect(&items, encode_latin1, false);
    let got = t
        .utf16_to_latin1_vec(src)
        .map_err(|e| (e.read(), *e.kind()));
    let want = match latin1.stop {
        None => Ok(latin1.out),
        Some(kind) => Err((latin1.steps.last().unwrap().0, kind)),
    };
    assert_eq!(got, want, "utf16_to_latin1_vec {}", ctx());
    assert_eq!(
        t.count_chars_utf16(src),
        char::decode_utf16(src.iter().copied()).count(),
        "count_chars_utf16 {}",
        ctx()
    );
    assert_eq!(
        t.utf8_len_from_utf16(src),
        lossy.len(),
        "utf8_len_from_utf16 {}",
        ctx()
    );

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
            check(dir, t, &bytes, caps);
            let items = decode_utf16_bytes(&bytes, order);
            assert_eq!(
                t.utf16_bytes_to_string(&bytes, order),
                as_result(expect(&items, encode_utf8, false)).map(string),
                "utf16_bytes_to_string {order:?} odd {odd} {}",
                ctx()
            );
            assert_eq!(
                t.utf16_bytes_to_string_lossy(&bytes, order),
                string(expect(&items, encode_utf8, true).out),
                "utf16_bytes_to_string_lossy {order:?} odd {odd} {}",
                ctx()
            );
        }
    }
}

/// Everything that converts from UTF-32, and the UTF-32 lengths.
pub(crate) fn check_utf32(t: &Transcoder, src: &[u32], caps: Caps) {
    check(&UTF32_TO_UTF8, t, src, caps);
    check(&UTF32_TO_UTF16, t, src, caps);
    check(&UTF32_TO_LATIN1, t, src, caps);
    let name = t.name();
    let ctx = || format!("{name} on {:X?}", &src[..src.len().min(40)]);
    let items = decode_utf32(src);
    let lossy: String = src
        .iter()
        .map(|&u| char::from_u32(u).unwrap_or('\u{FFFD}'))
        .collect();
    assert_eq!(
        t.utf32_to_string(src),
        as_result(expect(&items, encode_utf8, false)).map(string),
        "{}",
        ctx()
    );
    assert_eq!(t.utf32_to_string_lossy(src), lossy, "{}", ctx());
    assert_eq!(
        t.utf32_to_utf16_vec(src),
        as_result(expect(&items, encode_utf16, false)),
        "{}",
        ctx()
    );
    assert_eq!(
        t.utf32_to_utf16_lossy_vec(src),
        lossy.encode_utf16().collect::<Vec<_>>(),
        "{}",
        ctx()
    );
    let latin1 = expect(&items, encode_latin1, false);
    let got = t
        .utf32_to_latin1_vec(src)
        .map_err(|e| (e.read(), *e.kind()));
    let want = match latin1.stop {
        None => Ok(latin1.out),
        Some(kind) => Err((latin1.steps.last().unwrap().0, kind)),
    };
    assert_eq!(got, want, "utf32_to_latin1_vec {}", ctx());
    assert_eq!(t.utf8_len_from_utf32(src), lossy.len(), "{}", ctx());
    assert_eq!(
        t.utf16_len_from_utf32(src),
        lossy.encode_utf16().count(),
        "{}",
        ctx()
    );
}

/// Everything that converts from Latin-1, and its UTF-8 length.
pub(crate) fn check_latin1(t: &Transcoder, src: &[u8], caps: Caps) {
    check(&LATIN1_TO_UTF8, t, src, caps);
    check(&LATIN1_TO_UTF16, t, src, caps);
    check(&LATIN1_TO_UTF32, t, src, caps);
    let s: String = src.iter().map(|&b| char::from(b)).collect();
    assert_eq!(t.latin1_to_string(src), s, "{}", t.name());
    assert_eq!(
        t.latin1_to_utf16_vec(src),
        s.encode_utf16().collect::<Vec<_>>()
    );
    assert_eq!(
        t.latin1_to_utf32_vec(src),
        s.chars().map(u32::from).collect::<Vec<_>>()
    );
    assert_eq!(t.utf8_len_from_latin1(src), s.len(), "{}", t.name());
}
