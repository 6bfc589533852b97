//! The single-byte pages: a 256-entry decode table (generated, see
//! [`crate::tables`]) and an inverse table for encoding, with the scalar
//! kernel that is the reference for any faster one.
//!
//! The kernel seam: [`Kernel`] holds the entry points; [`SCALAR`] is the
//! only implementation today. A SIMD kernel (the high half looked up with
//! byte shuffles) would be a second `Kernel` in `src/arch/`, chosen once
//! by the dispatch and tested against `SCALAR` on every table.

use crate::tables;
use std::sync::OnceLock;

/// A table entry for a byte the page does not define.
pub(crate) const UNDEFINED: u16 = 0xFFFF;

/// One single-byte page.
#[derive(Debug)]
pub(crate) struct SingleByte {
    /// Byte → UTF-16 unit (every entry is in the BMP and not a surrogate;
    /// the generator checks), [`UNDEFINED`] where undefined.
    pub(crate) table: &'static [u16; 256],
    /// Code point → byte, sorted by code point; built on first use.
    inverse: OnceLock<Box<[(u16, u8)]>>,
}

impl SingleByte {
    const fn new(table: &'static [u16; 256]) -> SingleByte {
        SingleByte {
            table,
            inverse: OnceLock::new(),
        }
    }

    /// Whether bytes 0x00..=0x7F are ASCII (not so in EBCDIC).
    pub(crate) fn ascii_compatible(&self) -> bool {
        self.table[..128]
            .iter()
            .enumerate()
            .all(|(b, &u)| usize::from(u) == b)
    }

    pub(crate) fn decode_byte(&self, b: u8) -> Option<char> {
        match self.table[usize::from(b)] {
            UNDEFINED => None,
            u => char::from_u32(u32::from(u)),
        }
    }

    /// The byte of `c`; where two bytes decode to `c`, the lower one.
    pub(crate) fn encode_char(&self, c: char) -> Option<u8> {
        let c = u16::try_from(u32::from(c)).ok()?;
        let inverse = self.inverse.get_or_init(|| {
            let mut pairs: Vec<(u16, u8)> = (0..=255u8)
                .filter(|&b| self.table[usize::from(b)] != UNDEFINED)
                .map(|b| (self.table[usize::from(b)], b))
                .collect();
            pairs.sort_unstable();
            pairs.dedup_by_key(|p| p.0);
            pairs.into_boxed_slice()
        });
        inverse
            .binary_search_by_key(&c, |p| p.0)
            .ok()
            .map(|i| inverse[i].1)
    }
}

/// A kernel's encoder: `Err((index in src, char))` at the first character
/// the page cannot hold.
pub(crate) type EncodeFn =
    fn(page: &SingleByte, src: &str, dst: &mut Vec<u8>) -> Result<(), (usize, char)>;

/// The entry points of a single-byte engine.
#[derive(Debug)]
pub(crate) struct Kernel {
    /// The kernel's name, for tests and reports.
    #[allow(dead_code)]
    pub(crate) name: &'static str,
    /// Decodes `src` through `page`, appending to `dst`; stops at the first
    /// undefined byte and returns its index (everything before it is
    /// appended).
    pub(crate) decode: fn(page: &SingleByte, src: &[u8], dst: &mut String) -> Result<(), usize>,
    /// Encodes `src` through `page`, appending to `dst`; stops at the first
    /// character the page cannot hold and returns its byte index in `src`
    /// and the character (everything before it is appended).
    pub(crate) encode: EncodeFn,
}

/// The scalar engine: the reference.
pub(crate) static SCALAR: Kernel = Kernel {
    name: "scalar",
    decode: decode_scalar,
    encode: encode_scalar,
};

/// The engine in use.
pub(crate) fn kernel() -> &'static Kernel {
    &SCALAR
}

fn decode_scalar(page: &SingleByte, src: &[u8], dst: &mut String) -> Result<(), usize> {
    dst.reserve(src.len());
    let ascii = page.ascii_compatible();
    let mut i = 0;
    while i < src.len() {
        if ascii {
            // ASCII runs are copied whole.
            let run = src[i..]
                .iter()
                .position(|b| !b.is_ascii())
                .unwrap_or(src.len() - i);
            if run > 0 {
                if let Ok(s) = core::str::from_utf8(&src[i..i + run]) {
                    dst.push_str(s);
                }
                i += run;
                continue;
            }
        }
        match page.decode_byte(src[i]) {
            Some(c) => dst.push(c),
            None => return Err(i),
        }
        i += 1;
    }
    Ok(())
}

fn encode_scalar(page: &SingleByte, src: &str, dst: &mut Vec<u8>) -> Result<(), (usize, char)> {
    dst.reserve(src.len());
    let ascii = page.ascii_compatible();
    for (i, c) in src.char_indices() {
        if ascii && c.is_ascii() {
            dst.push(c as u8);
            continue;
        }
        match page.encode_char(c) {
            Some(b) => dst.push(b),
            None => return Err((i, c)),
        }
    }
    Ok(())
}

macro_rules! pages {
    ($($name:ident),* $(,)?) => {
        $(pub(crate) static $name: SingleByte = SingleByte::new(&tables::$name);)*
    };
}

pages!(
    WHATWG_IBM866,
    WHATWG_ISO_8859_2,
    WHATWG_ISO_8859_3,
    WHATWG_ISO_8859_4,
    WHATWG_ISO_8859_5,
    WHATWG_ISO_8859_6,
    WHATWG_ISO_8859_7,
    WHATWG_ISO_8859_8,
    WHATWG_ISO_8859_10,
    WHATWG_ISO_8859_13,
    WHATWG_ISO_8859_14,
    WHATWG_ISO_8859_15,
    WHATWG_ISO_8859_16,
    WHATWG_KOI8_R,
    WHATWG_KOI8_U,
    WHATWG_MACINTOSH,
    WHATWG_WINDOWS_874,
    WHATWG_WINDOWS_1250,
    WHATWG_WINDOWS_1251,
    WHATWG_WINDOWS_1252,
    WHATWG_WINDOWS_1253,
    WHATWG_WINDOWS_1254,
    WHATWG_WINDOWS_1255,
    WHATWG_WINDOWS_1256,
    WHATWG_WINDOWS_1257,
    WHATWG_WINDOWS_1258,
    WHATWG_X_MAC_CYRILLIC,
    WHATWG_X_USER_DEFINED,
    GLIBC_ISO_8859_2,
    GLIBC_ISO_8859_3,
    GLIBC_ISO_8859_4,
    GLIBC_ISO_8859_5,
    GLIBC_ISO_8859_6,
    GLIBC_ISO_8859_7,
    GLIBC_ISO_8859_8,
    GLIBC_ISO_8859_9,
    GLIBC_ISO_8859_10,
    GLIBC_ISO_8859_11,
    GLIBC_ISO_8859_13,
    GLIBC_ISO_8859_14,
    GLIBC_ISO_8859_15,
    GLIBC_ISO_8859_16,
    GLIBC_CP1250,
    GLIBC_CP1251,
    GLIBC_CP1252,
    GLIBC_CP1253,
    GLIBC_CP1254,
    GLIBC_CP1255,
    GLIBC_CP1256,
    GLIBC_CP1257,
    GLIBC_CP1258,
    GLIBC_IBM874,
    GLIBC_TIS_620,
    GLIBC_KOI8_R,
    GLIBC_KOI8_U,
    GLIBC_MACINTOSH,
    GLIBC_CP10007,
    GLIBC_IBM437,
    GLIBC_IBM850,
    GLIBC_IBM852,
    GLIBC_IBM855,
    GLIBC_IBM857,
    GLIBC_IBM860,
    GLIBC_IBM861,
    GLIBC_IBM862,
    GLIBC_IBM863,
    GLIBC_IBM865,
    GLIBC_IBM866,
    GLIBC_IBM869,
    GLIBC_IBM037,
    GLIBC_IBM500,
    GLIBC_IBM1047,
    GLIBC_IBM1140,
);
