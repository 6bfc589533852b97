//! [`Encoding`]: one static table of every encoding, its names, and how each
//! name is answered.

use crate::single_byte as sb;
use crate::single_byte::SingleByte;
use codec_core::utf16::Endianness;
use core::fmt;

/// The byte order of a UTF-16 or UTF-32 encoding.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Order {
    /// Named by the encoding; a BOM is an ordinary U+FEFF.
    Fixed(Endianness),
    /// `UTF-16`/`UTF-32` as glibc's iconv reads and writes them: a BOM
    /// decides the order on input (and is consumed; little-endian without
    /// one); output starts with a BOM and is little-endian.
    Bom,
}

/// How an encoding is decoded and encoded.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Kind {
    Utf8,
    Utf16(Order),
    Utf32(Order),
    /// UCS-2: UTF-16 without surrogates (glibc: the host's byte order, no
    /// BOM handling).
    Ucs2(Endianness),
    /// ISO-8859-1 as iconv means it: every byte is the code point.
    Latin1,
    /// US-ASCII: bytes 0x00 to 0x7F.
    Ascii,
    Cesu8,
    Mutf8,
    Wtf8,
    Utf7,
    /// A page of 256 bytes through a table.
    SingleByte(&'static SingleByte),
    /// glibc's CP1255 and CP1258: a page whose decoder composes a letter
    /// and its marks, and whose encoder decomposes (see [`crate::compose`]).
    Composing(&'static crate::compose::Composition),
    /// A multi-byte legacy encoding (or WHATWG's `replacement`), through
    /// encoding_rs.
    Legacy(&'static encoding_rs::Encoding),
}

/// One row of the registry.
pub(crate) struct Spec {
    /// The canonical name: iconv's for glibc entries, WHATWG's for WHATWG
    /// ones.
    pub(crate) name: &'static str,
    pub(crate) kind: Kind,
    /// The WHATWG encoding this entry is (its answer is WHATWG's).
    pub(crate) whatwg: Option<&'static encoding_rs::Encoding>,
    /// iconv's names for this entry (glibc's canonical name first).
    pub(crate) iconv: &'static [&'static str],
}

const LE: Endianness = Endianness::Little;
const BE: Endianness = Endianness::Big;

macro_rules! spec {
    ($name:expr, $kind:expr, $whatwg:expr, [$($iconv:expr),* $(,)?]) => {
        Spec { name: $name, kind: $kind, whatwg: $whatwg, iconv: &[$($iconv),*] }
    };
}

use Kind::*;
use encoding_rs as w;

/// Every encoding. Tests iterate it; [`Encoding::all`] hands it out.
pub(crate) static SPECS: &[Spec] = &[
    // Unicode.
    spec!(
        "UTF-8",
        Utf8,
        Some(w::UTF_8),
        [
            "UTF-8",
            "UTF8",
            "ISO-10646/UTF8",
            "ISO-10646/UTF-8",
            "ISO-IR-193",
            "OSF05010001"
        ]
    ),
    spec!(
        "UTF-16LE",
        Utf16(Order::Fixed(LE)),
        Some(w::UTF_16LE),
        ["UTF-16LE", "UTF16LE"]
    ),
    spec!(
        "UTF-16BE",
        Utf16(Order::Fixed(BE)),
        Some(w::UTF_16BE),
        ["UTF-16BE", "UTF16BE"]
    ),
    spec!("UTF-16", Utf16(Order::Bom), None, ["UTF-16", "UTF16"]),
    spec!(
        "UTF-32LE",
        Utf32(Order::Fixed(LE)),
        None,
        ["UTF-32LE", "UTF32LE", "UCS-4LE"]
    ),
    spec!(
        "UTF-32BE",
        Utf32(Order::Fixed(BE)),
        None,
        [
            "UTF-32BE",
            "UTF32BE",
            "UCS-4",
            "UCS-4BE",
            "UCS4",
            "ISO-10646/UCS4",
            "10646-1:1993",
            "CSUCS4",
            "ISO-10646"
        ]
    ),
    spec!("UTF-32", Utf32(Order::Bom), None, ["UTF-32", "UTF32"]),
    spec!(
        "UCS-2",
        Ucs2(LE),
        None,
        [
            "UCS-2",
            "UCS2",
            "ISO-10646/UCS2",
            "CSUNICODE",
            "UCS-2LE",
            "UNICODELITTLE"
        ]
    ),
    spec!("UCS-2BE", Ucs2(BE), None, ["UCS-2BE", "UNICODEBIG"]),
    spec!(
        "ISO-8859-1",
        Latin1,
        None,
        [
            "ISO-8859-1",
            "ISO-IR-100",
            "ISO_8859-1:1987",
            "ISO_8859-1",
            "ISO8859-1",
            "ISO88591",
            "LATIN1",
            "L1",
            "IBM819",
            "CP819",
            "CSISOLATIN1",
            "8859_1",
            "OSF00010001"
        ]
    ),
    spec!(
        "ANSI_X3.4-1968",
        Ascii,
        None,
        [
            "ANSI_X3.4-1968",
            "ASCII",
            "US-ASCII",
            "US",
            "ISO646-US",
            "ISO-IR-6",
            "ANSI_X3.4-1986",
            "ISO_646.IRV:1991",
            "IBM367",
            "CP367",
            "CSASCII",
            "OSF00010020"
        ]
    ),
    spec!("CESU-8", Cesu8, None, []),
    spec!("MUTF-8", Mutf8, None, []),
    spec!("WTF-8", Wtf8, None, []),
    spec!("UTF-7", Utf7, None, ["UTF-7", "UTF7"]),
    // WHATWG single-byte encodings (tables from encoding_rs).
    spec!(
        "IBM866",
        SingleByte(&sb::WHATWG_IBM866),
        Some(w::IBM866),
        []
    ),
    spec!(
        "ISO-8859-2",
        SingleByte(&sb::WHATWG_ISO_8859_2),
        Some(w::ISO_8859_2),
        []
    ),
    spec!(
        "ISO-8859-3",
        SingleByte(&sb::WHATWG_ISO_8859_3),
        Some(w::ISO_8859_3),
        []
    ),
    spec!(
        "ISO-8859-4",
        SingleByte(&sb::WHATWG_ISO_8859_4),
        Some(w::ISO_8859_4),
        []
    ),
    spec!(
        "ISO-8859-5",
        SingleByte(&sb::WHATWG_ISO_8859_5),
        Some(w::ISO_8859_5),
        []
    ),
    spec!(
        "ISO-8859-6",
        SingleByte(&sb::WHATWG_ISO_8859_6),
        Some(w::ISO_8859_6),
        []
    ),
    spec!(
        "ISO-8859-7",
        SingleByte(&sb::WHATWG_ISO_8859_7),
        Some(w::ISO_8859_7),
        []
    ),
    spec!(
        "ISO-8859-8",
        SingleByte(&sb::WHATWG_ISO_8859_8),
        Some(w::ISO_8859_8),
        []
    ),
    spec!(
        "ISO-8859-8-I",
        SingleByte(&sb::WHATWG_ISO_8859_8),
        Some(w::ISO_8859_8_I),
        []
    ),
    spec!(
        "ISO-8859-10",
        SingleByte(&sb::WHATWG_ISO_8859_10),
        Some(w::ISO_8859_10),
        []
    ),
    spec!(
        "ISO-8859-13",
        SingleByte(&sb::WHATWG_ISO_8859_13),
        Some(w::ISO_8859_13),
        []
    ),
    spec!(
        "ISO-8859-14",
        SingleByte(&sb::WHATWG_ISO_8859_14),
        Some(w::ISO_8859_14),
        []
    ),
    spec!(
        "ISO-8859-15",
        SingleByte(&sb::WHATWG_ISO_8859_15),
        Some(w::ISO_8859_15),
        []
    ),
    spec!(
        "ISO-8859-16",
        SingleByte(&sb::WHATWG_ISO_8859_16),
        Some(w::ISO_8859_16),
        []
    ),
    spec!(
        "KOI8-R",
        SingleByte(&sb::WHATWG_KOI8_R),
        Some(w::KOI8_R),
        []
    ),
    spec!(
        "KOI8-U",
        SingleByte(&sb::WHATWG_KOI8_U),
        Some(w::KOI8_U),
        []
    ),
    spec!(
        "macintosh",
        SingleByte(&sb::WHATWG_MACINTOSH),
        Some(w::MACINTOSH),
        []
    ),
    spec!(
        "windows-874",
        SingleByte(&sb::WHATWG_WINDOWS_874),
        Some(w::WINDOWS_874),
        []
    ),
    spec!(
        "windows-1250",
        SingleByte(&sb::WHATWG_WINDOWS_1250),
        Some(w::WINDOWS_1250),
        []
    ),
    spec!(
        "windows-1251",
        SingleByte(&sb::WHATWG_WINDOWS_1251),
        Some(w::WINDOWS_1251),
        []
    ),
    spec!(
        "windows-1252",
        SingleByte(&sb::WHATWG_WINDOWS_1252),
        Some(w::WINDOWS_1252),
        []
    ),
    spec!(
        "windows-1253",
        SingleByte(&sb::WHATWG_WINDOWS_1253),
        Some(w::WINDOWS_1253),
        []
    ),
    spec!(
        "windows-1254",
        SingleByte(&sb::WHATWG_WINDOWS_1254),
        Some(w::WINDOWS_1254),
        []
    ),
    spec!(
        "windows-1255",
        SingleByte(&sb::WHATWG_WINDOWS_1255),
        Some(w::WINDOWS_1255),
        []
    ),
    spec!(
        "windows-1256",
        SingleByte(&sb::WHATWG_WINDOWS_1256),
        Some(w::WINDOWS_1256),
        []
    ),
    spec!(
        "windows-1257",
        SingleByte(&sb::WHATWG_WINDOWS_1257),
        Some(w::WINDOWS_1257),
        []
    ),
    spec!(
        "windows-1258",
        SingleByte(&sb::WHATWG_WINDOWS_1258),
        Some(w::WINDOWS_1258),
        []
    ),
    spec!(
        "x-mac-cyrillic",
        SingleByte(&sb::WHATWG_X_MAC_CYRILLIC),
        Some(w::X_MAC_CYRILLIC),
        []
    ),
    spec!(
        "x-user-defined",
        SingleByte(&sb::WHATWG_X_USER_DEFINED),
        Some(w::X_USER_DEFINED),
        []
    ),
    // Multi-byte legacy encodings: encoding_rs, for the WHATWG labels and
    // iconv's names alike (see the crate docs for where glibc differs).
    spec!(
        "Shift_JIS",
        Legacy(w::SHIFT_JIS),
        Some(w::SHIFT_JIS),
        [
            "SHIFT_JIS",
            "SJIS",
            "SHIFT-JIS",
            "MS_KANJI",
            "CSSHIFTJIS",
            "WINDOWS-31J",
            "CP932",
            "MS932"
        ]
    ),
    spec!(
        "EUC-JP",
        Legacy(w::EUC_JP),
        Some(w::EUC_JP),
        [
            "EUC-JP",
            "EUCJP",
            "CSEUCPKDFMTJAPANESE",
            "OSF00030010",
            "UJIS"
        ]
    ),
    spec!(
        "ISO-2022-JP",
        Legacy(w::ISO_2022_JP),
        Some(w::ISO_2022_JP),
        ["ISO-2022-JP", "CSISO2022JP", "ISO2022JP"]
    ),
    spec!(
        "GBK",
        Legacy(w::GBK),
        Some(w::GBK),
        ["GBK", "GB13000", "CP936", "MS936", "WINDOWS-936"]
    ),
    spec!("gb18030", Legacy(w::GB18030), Some(w::GB18030), ["GB18030"]),
    spec!(
        "Big5",
        Legacy(w::BIG5),
        Some(w::BIG5),
        ["BIG5", "BIG-FIVE", "BIGFIVE", "BIG-5", "CN-BIG5", "CP950"]
    ),
    spec!(
        "EUC-KR",
        Legacy(w::EUC_KR),
        Some(w::EUC_KR),
        ["EUC-KR", "EUCKR", "CSEUCKR", "OSF0004000A", "CP949", "UHC"]
    ),
    spec!(
        "replacement",
        Legacy(w::REPLACEMENT),
        Some(w::REPLACEMENT),
        []
    ),
    // glibc's single-byte pages (tables from its charmaps).
    spec!(
        "ISO-8859-2",
        SingleByte(&sb::GLIBC_ISO_8859_2),
        None,
        [
            "ISO-8859-2",
            "ISO-IR-101",
            "ISO_8859-2:1987",
            "ISO_8859-2",
            "ISO8859-2",
            "ISO88592",
            "LATIN2",
            "L2",
            "CSISOLATIN2",
            "8859_2",
            "OSF00010002",
            "IBM912",
            "CP912"
        ]
    ),
    spec!(
        "ISO-8859-3",
        SingleByte(&sb::GLIBC_ISO_8859_3),
        None,
        [
            "ISO-8859-3",
            "ISO-IR-109",
            "ISO_8859-3:1988",
            "ISO_8859-3",
            "ISO8859-3",
            "ISO88593",
            "LATIN3",
            "L3",
            "CSISOLATIN3",
            "8859_3",
            "OSF00010003"
        ]
    ),
    spec!(
        "ISO-8859-4",
        SingleByte(&sb::GLIBC_ISO_8859_4),
        None,
        [
            "ISO-8859-4",
            "ISO-IR-110",
            "ISO_8859-4:1988",
            "ISO_8859-4",
            "ISO8859-4",
            "ISO88594",
            "LATIN4",
            "L4",
            "CSISOLATIN4",
            "8859_4",
            "OSF00010004"
        ]
    ),
    spec!(
        "ISO-8859-5",
        SingleByte(&sb::GLIBC_ISO_8859_5),
        None,
        [
            "ISO-8859-5",
            "ISO-IR-144",
            "ISO_8859-5:1988",
            "ISO_8859-5",
            "ISO8859-5",
            "ISO88595",
            "CYRILLIC",
            "CSISOLATINCYRILLIC",
            "8859_5",
            "OSF00010005",
            "IBM915",
            "CP915"
        ]
    ),
    spec!(
        "ISO-8859-6",
        SingleByte(&sb::GLIBC_ISO_8859_6),
        None,
        [
            "ISO-8859-6",
            "ISO-IR-127",
            "ISO_8859-6:1987",
            "ISO_8859-6",
            "ISO8859-6",
            "ISO88596",
            "ECMA-114",
            "ASMO-708",
            "ARABIC",
            "CSISOLATINARABIC",
            "8859_6",
            "OSF00010006",
            "IBM1089",
            "CP1089"
        ]
    ),
    spec!(
        "ISO-8859-7",
        SingleByte(&sb::GLIBC_ISO_8859_7),
        None,
        [
            "ISO-8859-7",
            "ISO-IR-126",
            "ISO_8859-7:2003",
            "ISO_8859-7:1987",
            "ISO_8859-7",
            "ISO8859-7",
            "ISO88597",
            "ELOT_928",
            "ECMA-118",
            "GREEK",
            "GREEK8",
            "CSISOLATINGREEK",
            "8859_7",
            "OSF00010007",
            "IBM813",
            "CP813"
        ]
    ),
    spec!(
        "ISO-8859-8",
        SingleByte(&sb::GLIBC_ISO_8859_8),
        None,
        [
            "ISO-8859-8",
            "ISO-IR-138",
            "ISO_8859-8:1988",
            "ISO_8859-8",
            "ISO8859-8",
            "ISO88598",
            "HEBREW",
            "CSISOLATINHEBREW",
            "8859_8",
            "OSF00010008",
            "IBM916",
            "CP916"
        ]
    ),
    spec!(
        "ISO-8859-9",
        SingleByte(&sb::GLIBC_ISO_8859_9),
        None,
        [
            "ISO-8859-9",
            "ISO-IR-148",
            "ISO_8859-9:1989",
            "ISO_8859-9",
            "ISO8859-9",
            "ISO88599",
            "LATIN5",
            "L5",
            "CSISOLATIN5",
            "8859_9",
            "OSF00010009",
            "IBM920",
            "CP920",
            "TS-5881",
            "ECMA-128"
        ]
    ),
    spec!(
        "ISO-8859-10",
        SingleByte(&sb::GLIBC_ISO_8859_10),
        None,
        [
            "ISO-8859-10",
            "ISO-IR-157",
            "ISO_8859-10:1992",
            "ISO_8859-10",
            "ISO8859-10",
            "ISO885910",
            "LATIN6",
            "L6",
            "CSISOLATIN6",
            "OSF0001000A"
        ]
    ),
    spec!(
        "ISO-8859-11",
        SingleByte(&sb::GLIBC_ISO_8859_11),
        None,
        ["ISO-8859-11", "ISO8859-11", "ISO885911"]
    ),
    spec!(
        "ISO-8859-13",
        SingleByte(&sb::GLIBC_ISO_8859_13),
        None,
        [
            "ISO-8859-13",
            "ISO8859-13",
            "ISO885913",
            "ISO-IR-179",
            "LATIN7",
            "L7",
            "BALTIC"
        ]
    ),
    spec!(
        "ISO-8859-14",
        SingleByte(&sb::GLIBC_ISO_8859_14),
        None,
        [
            "ISO-8859-14",
            "ISO8859-14",
            "ISO885914",
            "ISO-IR-199",
            "LATIN8",
            "L8",
            "ISO_8859-14:1998",
            "ISO_8859-14",
            "ISO-CELTIC"
        ]
    ),
    spec!(
        "ISO-8859-15",
        SingleByte(&sb::GLIBC_ISO_8859_15),
        None,
        [
            "ISO-8859-15",
            "ISO8859-15",
            "ISO885915",
            "ISO-IR-203",
            "ISO_8859-15",
            "LATIN-9",
            "LATIN9",
            "ISO_8859-15:1998"
        ]
    ),
    spec!(
        "ISO-8859-16",
        SingleByte(&sb::GLIBC_ISO_8859_16),
        None,
        [
            "ISO-8859-16",
            "ISO8859-16",
            "ISO885916",
            "ISO-IR-226",
            "LATIN10",
            "L10",
            "ISO_8859-16:2001",
            "ISO_8859-16"
        ]
    ),
    spec!(
        "CP1250",
        SingleByte(&sb::GLIBC_CP1250),
        None,
        ["CP1250", "WINDOWS-1250", "MS-EE"]
    ),
    spec!(
        "CP1251",
        SingleByte(&sb::GLIBC_CP1251),
        None,
        ["CP1251", "WINDOWS-1251", "MS-CYRL"]
    ),
    spec!(
        "CP1252",
        SingleByte(&sb::GLIBC_CP1252),
        None,
        ["CP1252", "WINDOWS-1252", "MS-ANSI"]
    ),
    spec!(
        "CP1253",
        SingleByte(&sb::GLIBC_CP1253),
        None,
        ["CP1253", "WINDOWS-1253", "MS-GREEK"]
    ),
    spec!(
        "CP1254",
        SingleByte(&sb::GLIBC_CP1254),
        None,
        ["CP1254", "WINDOWS-1254", "MS-TURK"]
    ),
    spec!(
        "CP1255",
        Composing(&crate::compose::CP1255),
        None,
        ["CP1255", "WINDOWS-1255", "MS-HEBR"]
    ),
    spec!(
        "CP1256",
        SingleByte(&sb::GLIBC_CP1256),
        None,
        ["CP1256", "WINDOWS-1256", "MS-ARAB"]
    ),
    spec!(
        "CP1257",
        SingleByte(&sb::GLIBC_CP1257),
        None,
        ["CP1257", "WINDOWS-1257", "WINBALTRIM"]
    ),
    spec!(
        "CP1258",
        Composing(&crate::compose::CP1258),
        None,
        ["CP1258", "WINDOWS-1258"]
    ),
    spec!(
        "IBM874",
        SingleByte(&sb::GLIBC_IBM874),
        None,
        ["IBM874", "CP874", "874", "WINDOWS-874"]
    ),
    spec!(
        "TIS-620",
        SingleByte(&sb::GLIBC_TIS_620),
        None,
        [
            "TIS-620",
            "TIS620",
            "TIS620-0",
            "TIS620.2529-1",
            "TIS620.2533-0",
            "ISO-IR-166"
        ]
    ),
    spec!(
        "KOI8-R",
        SingleByte(&sb::GLIBC_KOI8_R),
        None,
        ["KOI8-R", "KOI8R", "CSKOI8R"]
    ),
    spec!(
        "KOI8-U",
        SingleByte(&sb::GLIBC_KOI8_U),
        None,
        ["KOI8-U", "KOI8U"]
    ),
    spec!(
        "MACINTOSH",
        SingleByte(&sb::GLIBC_MACINTOSH),
        None,
        ["MACINTOSH", "MAC", "CSMACINTOSH"]
    ),
    spec!(
        "CP10007",
        SingleByte(&sb::GLIBC_CP10007),
        None,
        ["CP10007", "MS-MAC-CYRILLIC", "MSMACCYRILLIC"]
    ),
    spec!(
        "IBM437",
        SingleByte(&sb::GLIBC_IBM437),
        None,
        ["IBM437", "CP437", "437", "CSPC8CODEPAGE437", "OSF100201B5"]
    ),
    spec!(
        "IBM850",
        SingleByte(&sb::GLIBC_IBM850),
        None,
        [
            "IBM850",
            "CP850",
            "850",
            "CSPC850MULTILINGUAL",
            "OSF10020352"
        ]
    ),
    spec!(
        "IBM852",
        SingleByte(&sb::GLIBC_IBM852),
        None,
        ["IBM852", "CP852", "852", "CSPCP852", "OSF10020354"]
    ),
    spec!(
        "IBM855",
        SingleByte(&sb::GLIBC_IBM855),
        None,
        ["IBM855", "CP855", "855", "CSIBM855", "OSF10020357"]
    ),
    spec!(
        "IBM857",
        SingleByte(&sb::GLIBC_IBM857),
        None,
        ["IBM857", "CP857", "857", "CSIBM857", "OSF10020359"]
    ),
    spec!(
        "IBM860",
        SingleByte(&sb::GLIBC_IBM860),
        None,
        ["IBM860", "CP860", "860", "CSIBM860"]
    ),
    spec!(
        "IBM861",
        SingleByte(&sb::GLIBC_IBM861),
        None,
        ["IBM861", "CP861", "861", "CPIBM861", "OSF1002035D"]
    ),
    spec!(
        "IBM862",
        SingleByte(&sb::GLIBC_IBM862),
        None,
        [
            "IBM862",
            "CP862",
            "862",
            "CSPC862LATINHEBREW",
            "OSF1002035E"
        ]
    ),
    spec!(
        "IBM863",
        SingleByte(&sb::GLIBC_IBM863),
        None,
        ["IBM863", "CP863", "863", "CSIBM863", "OSF1002035F"]
    ),
    spec!(
        "IBM865",
        SingleByte(&sb::GLIBC_IBM865),
        None,
        ["IBM865", "CP865", "865", "CSIBM865"]
    ),
    spec!(
        "IBM866",
        SingleByte(&sb::GLIBC_IBM866),
        None,
        ["IBM866", "CP866", "866", "CSIBM866"]
    ),
    spec!(
        "IBM869",
        SingleByte(&sb::GLIBC_IBM869),
        None,
        ["IBM869", "CP869", "869", "CP-GR", "CSIBM869", "OSF10020365"]
    ),
    spec!(
        "IBM037",
        SingleByte(&sb::GLIBC_IBM037),
        None,
        [
            "IBM037",
            "CP037",
            "EBCDIC-CP-US",
            "EBCDIC-CP-CA",
            "EBCDIC-CP-WT",
            "EBCDIC-CP-NL",
            "CSIBM037",
            "OSF10020025",
            "CP1070",
            "CP282"
        ]
    ),
    spec!(
        "IBM500",
        SingleByte(&sb::GLIBC_IBM500),
        None,
        [
            "IBM500",
            "CP500",
            "500",
            "500V1",
            "EBCDIC-CP-BE",
            "EBCDIC-CP-CH",
            "CSIBM500",
            "OSF100201F4",
            "CP1084"
        ]
    ),
    spec!(
        "IBM1047",
        SingleByte(&sb::GLIBC_IBM1047),
        None,
        ["IBM1047", "IBM-1047", "CP1047", "1047", "OSF10020417"]
    ),
    spec!(
        "IBM1140",
        SingleByte(&sb::GLIBC_IBM1140),
        None,
        ["IBM1140", "IBM-1140", "CP1140", "CSIBM1140"]
    ),
];

/// An encoding: a row of the registry. `Copy`, compared by identity.
///
/// Two rows may share a name with different answers: `windows-1252`
/// (WHATWG's, 0x81 decodes to U+0081) and `CP1252` (glibc's, 0x81 is
/// undefined). See the crate docs for which name finds which.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Encoding(u16);

/// `name` upper-cased without `-`, `_`, `.`, `:` and spaces, as iconv names
/// are compared here (iconv itself is case-insensitive; the separators are
/// also ignored so that `utf16le` and `UTF_16_LE` are one name).
fn normalize(name: &str) -> impl Iterator<Item = char> + '_ {
    name.chars()
        .filter(|c| !matches!(c, '-' | '_' | ' ' | '.' | ':'))
        .map(|c| c.to_ascii_uppercase())
}

fn same_name(a: &str, b: &str) -> bool {
    normalize(a).eq(normalize(b))
}

impl Encoding {
    /// UTF-8 (the registry's first row).
    pub const UTF_8: Encoding = Encoding(0);

    pub(crate) fn spec(self) -> &'static Spec {
        &SPECS[usize::from(self.0)]
    }

    pub(crate) fn kind(self) -> Kind {
        self.spec().kind
    }

    /// Every encoding, in registry order.
    pub fn all() -> impl Iterator<Item = Encoding> {
        (0..SPECS.len()).map(|i| Encoding(i as u16))
    }

    /// The encoding a name or label stands for, as the crate docs decide
    /// it: a name iconv knows answers as glibc's iconv does (so
    /// `ISO-8859-1` is Latin-1 and `WINDOWS-1252` is glibc's CP1252);
    /// failing that, a WHATWG label answers as WHATWG (`x-cp1252`,
    /// `unicode-1-1-utf-8`, `sjis`...); failing that, our own names
    /// (`CESU-8`, `MUTF-8`, `WTF-8`, and each row's name).
    ///
    /// ```
    /// use encodings::Encoding;
    ///
    /// assert_eq!(Encoding::for_label("latin1").unwrap().name(), "ISO-8859-1");
    /// assert_eq!(Encoding::for_whatwg_label("latin1").unwrap().name(), "windows-1252");
    /// assert_eq!(Encoding::for_label("cp437").unwrap().name(), "IBM437");
    /// ```
    #[must_use]
    pub fn for_label(label: &str) -> Option<Encoding> {
        Encoding::for_iconv_name(label)
            .or_else(|| Encoding::for_whatwg_label(label))
            .or_else(|| Encoding::all().find(|e| same_name(e.name(), label.trim())))
    }

    /// An iconv target as `iconv -t` takes it: a name with optional
    /// `//TRANSLIT` and `//IGNORE` suffixes (in any order, any case), and
    /// the error mode they ask for: `//TRANSLIT` transliterates,
    /// `//IGNORE` skips (with both, what transliteration cannot write is
    /// skipped: our transliteration always writes something, so it is
    /// [`crate::EncodeMode::Translit`]); `None` without a suffix.
    ///
    /// ```
    /// use encodings::{EncodeMode, Encoding};
    ///
    /// let (e, mode) = Encoding::for_iconv_target("ascii//TRANSLIT").unwrap();
    /// assert_eq!((e.name(), mode), ("ANSI_X3.4-1968", Some(EncodeMode::Translit)));
    /// let (_, mode) = Encoding::for_iconv_target("CP1252//IGNORE").unwrap();
    /// assert_eq!(mode, Some(EncodeMode::Skip));
    /// assert!(Encoding::for_iconv_target("CP1252//BOGUS").is_none());
    /// ```
    #[must_use]
    pub fn for_iconv_target(spec: &str) -> Option<(Encoding, Option<crate::EncodeMode>)> {
        let mut parts = spec.split("//");
        let encoding = Encoding::for_label(parts.next()?)?;
        let (mut translit, mut ignore) = (false, false);
        for suffix in parts {
            match suffix.to_ascii_uppercase().as_str() {
                "TRANSLIT" => translit = true,
                "IGNORE" => ignore = true,
                // `NAME//` is iconv's own spelling of a plain name.
                "" => {}
                _ => return None,
            }
        }
        let mode = match (translit, ignore) {
            (true, _) => Some(crate::EncodeMode::Translit),
            (false, true) => Some(crate::EncodeMode::Skip),
            (false, false) => None,
        };
        Some((encoding, mode))
    }

    /// The encoding of an iconv name or alias (compared ignoring case,
    /// `-`, `_`, `.`, `:` and spaces); the answer is glibc's.
    #[must_use]
    pub fn for_iconv_name(name: &str) -> Option<Encoding> {
        let name = name.trim();
        Encoding::all().find(|e| e.spec().iconv.iter().any(|n| same_name(n, name)))
    }

    /// The encoding of a WHATWG label (as `encoding_rs::Encoding::for_label`:
    /// ASCII case-insensitive, surrounding whitespace ignored); the answer
    /// is WHATWG's, so `iso-8859-1` and `us-ascii` are windows-1252.
    #[must_use]
    pub fn for_whatwg_label(label: &str) -> Option<Encoding> {
        let target = encoding_rs::Encoding::for_label(label.as_bytes())?;
        Encoding::for_whatwg(target)
    }

    /// The row that answers as this encoding_rs encoding.
    #[must_use]
    pub fn for_whatwg(target: &'static encoding_rs::Encoding) -> Option<Encoding> {
        Encoding::all().find(|e| e.spec().whatwg == Some(target))
    }

    /// The canonical name: WHATWG's for the rows that answer as WHATWG,
    /// glibc's for the others (`CP1252`, `IBM037`), ours for CESU-8, MUTF-8
    /// and WTF-8.
    #[must_use]
    pub fn name(self) -> &'static str {
        self.spec().name
    }

    /// iconv's names for this row (glibc's canonical name first); empty for
    /// the rows only WHATWG or this crate name.
    #[must_use]
    pub fn iconv_names(self) -> &'static [&'static str] {
        self.spec().iconv
    }

    /// The WHATWG name, if this row answers as WHATWG.
    #[must_use]
    pub fn whatwg_name(self) -> Option<&'static str> {
        self.spec().whatwg.map(encoding_rs::Encoding::name)
    }

    /// The encoding_rs encoding this row answers as, if any.
    #[must_use]
    pub fn whatwg(self) -> Option<&'static encoding_rs::Encoding> {
        self.spec().whatwg
    }

    /// Whether each byte is one character (the table-driven pages, Latin-1
    /// and ASCII; not glibc's CP1255 and CP1258, whose decoders compose a
    /// letter and its marks).
    #[must_use]
    pub fn is_single_byte(self) -> bool {
        matches!(self.kind(), SingleByte(_) | Latin1 | Ascii)
    }

    /// Whether this is a Unicode encoding (UTF-*, UCS-2, CESU-8, MUTF-8,
    /// WTF-8): every scalar value can be written in it (UCS-2: the BMP).
    #[must_use]
    pub fn is_unicode(self) -> bool {
        matches!(
            self.kind(),
            Utf8 | Utf16(_) | Utf32(_) | Ucs2(_) | Cesu8 | Mutf8 | Wtf8 | Utf7
        )
    }

    /// The decode table of a single-byte page: byte → character, `None`
    /// where the byte is undefined (for CP1255 and CP1258, each byte alone:
    /// their decoders compose). `None` for the other encodings.
    #[must_use]
    pub fn single_byte_table(self) -> Option<[Option<char>; 256]> {
        match self.kind() {
            SingleByte(t) => Some(core::array::from_fn(|b| t.decode_byte(b as u8))),
            Composing(c) => Some(core::array::from_fn(|b| c.page.decode_byte(b as u8))),
            Latin1 => Some(core::array::from_fn(|b| Some(char::from(b as u8)))),
            Ascii => Some(core::array::from_fn(|b| {
                u8::try_from(b).ok().filter(u8::is_ascii).map(char::from)
            })),
            _ => None,
        }
    }

    /// The bytes of a byte order mark (U+FEFF) in this encoding; empty for
    /// the encodings without one (the legacy pages, ASCII, Latin-1, UTF-7).
    #[must_use]
    pub fn bom(self) -> &'static [u8] {
        match self.kind() {
            Utf8 | Cesu8 | Mutf8 | Wtf8 => b"\xEF\xBB\xBF",
            Utf16(Order::Fixed(BE)) | Ucs2(BE) => b"\xFE\xFF",
            Utf16(_) | Ucs2(_) => b"\xFF\xFE",
            Utf32(Order::Fixed(BE)) => b"\0\0\xFE\xFF",
            Utf32(_) => b"\xFF\xFE\0\0",
            _ => b"",
        }
    }
}

impl fmt::Debug for Encoding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let flavour = match (self.spec().whatwg, self.spec().iconv) {
            (Some(_), _) => "WHATWG",
            (None, []) => "this crate",
            (None, _) => "glibc",
        };
        write!(f, "Encoding({} ({flavour}))", self.name())
    }
}

impl fmt::Display for Encoding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}
