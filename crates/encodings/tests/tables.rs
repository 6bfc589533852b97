//! Every single-byte table, every byte: against encoding_rs (the WHATWG
//! rows) and against glibc's `iconv` (every row iconv names), and every
//! mappable character back.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use common::{iconv, iconv_knows, utf32be};
use encodings::{DecodeMode, EncodeMode, Encoding};

fn single_byte_rows() -> impl Iterator<Item = Encoding> {
    // CP1255 and CP1258 too: each byte alone is the table's.
    Encoding::all().filter(|e| e.single_byte_table().is_some())
}

#[test]
fn whatwg_rows_decode_every_byte_as_encoding_rs() {
    let mut rows = 0;
    for e in single_byte_rows() {
        let Some(w) = e.whatwg() else { continue };
        rows += 1;
        for b in 0..=255u8 {
            let ours = e.decode_to_string(&[b], DecodeMode::Strict).ok();
            let theirs = w
                .decode_without_bom_handling_and_without_replacement(&[b])
                .map(|c| c.into_owned());
            assert_eq!(ours, theirs, "{e:?} byte {b:#04X}");
            let replaced = e.decode_to_string(&[b], DecodeMode::Replace).unwrap();
            assert_eq!(
                replaced,
                w.decode_without_bom_handling(&[b]).0,
                "{e:?} {b:#04X}"
            );
        }
    }
    assert!(rows >= 28, "{rows} WHATWG single-byte rows");
}

#[test]
fn whatwg_rows_encode_as_encoding_rs() {
    // Every character of the table and a sample of others, with NCRs for
    // the unmappable ones (encoding_rs's `encode` writes NCRs too).
    let others = "€ÿĀ\u{80}\u{FFFD}😀 z\u{2028}ЖΩ";
    for e in single_byte_rows() {
        let Some(w) = e.whatwg() else { continue };
        let table = e.single_byte_table().unwrap();
        let text: String = table.iter().flatten().collect::<String>() + others;
        let ours = e.encode_to_vec(&text, EncodeMode::Ncr).unwrap();
        let (theirs, _, _) = w.encode(&text);
        assert_eq!(ours, theirs.into_owned(), "{e:?}");
    }
}

#[test]
fn every_mappable_character_encodes_back() {
    for e in single_byte_rows() {
        let table = e.single_byte_table().unwrap();
        for (b, c) in table.iter().enumerate() {
            let Some(c) = c else { continue };
            let bytes = e
                .encode_to_vec(c.encode_utf8(&mut [0; 4]), EncodeMode::Strict)
                .unwrap_or_else(|err| panic!("{e:?}: {c:?} from {b:#04X}: {err}"));
            // Where two bytes decode to one character, the encoder picks
            // one of them: it must decode to the same character.
            assert_eq!(bytes.len(), 1, "{e:?} {c:?}");
            assert_eq!(table[usize::from(bytes[0])], Some(*c), "{e:?} {b:#04X}");
        }
    }
}

/// iconv's decoding of each byte of `name` (`None`: undefined), from one
/// run: each byte followed by the byte our table maps to LF, with `-c`.
fn iconv_bytes(name: &str, lf: u8) -> Option<Vec<Option<char>>> {
    let mut input = Vec::new();
    for b in 0..=255u8 {
        input.extend_from_slice(&[b, lf]);
    }
    let out = iconv(name, "UTF-32BE", &["-c"], &input)?;
    let chars = match out {
        Ok(o) => utf32be(&o),
        // glibc's -c still exits 1 when it dropped something; the output
        // is complete, so run again keeping the output regardless.
        Err(_) => {
            let o = std::process::Command::new("sh")
                .arg("-c")
                .arg(format!("iconv -c -f {name} -t UTF-32BE || true"))
                .stdin(std::process::Stdio::piped())
                .stdout(std::process::Stdio::piped())
                .spawn()
                .ok()
                .and_then(|mut child| {
                    use std::io::Write;
                    child.stdin.take()?.write_all(&input).ok()?;
                    child.wait_with_output().ok()
                })?;
            utf32be(&o.stdout)
        }
    };
    let mut it = chars.into_iter().peekable();
    let mut table = Vec::new();
    for b in 0..=255u8 {
        if b == lf {
            assert_eq!(it.next(), Some('\n'));
            assert_eq!(it.next(), Some('\n'));
            table.push(Some('\n'));
            continue;
        }
        match it.next() {
            Some('\n') => table.push(None),
            Some(c) => {
                table.push(Some(c));
                assert_eq!(it.next(), Some('\n'), "{name} after {b:#04X}");
            }
            None => panic!("{name}: iconv output ends at {b:#04X}"),
        }
    }
    Some(table)
}

#[test]
fn iconv_rows_decode_every_byte_as_glibc() {
    let mut compared = 0;
    for e in single_byte_rows().filter(|e| !e.iconv_names().is_empty()) {
        let name = e.iconv_names()[0];
        if !iconv_knows(name) {
            continue;
        }
        let ours = e.single_byte_table().unwrap();
        let lf = ours.iter().position(|&c| c == Some('\n')).unwrap() as u8;
        let Some(theirs) = iconv_bytes(name, lf) else {
            continue;
        };
        for b in 0..256 {
            assert_eq!(ours[b], theirs[b], "{e:?} ({name}) byte {b:#04X}");
        }
        compared += 1;
    }
    eprintln!("{compared} single-byte rows compared with iconv, every byte");
}

#[test]
fn iconv_rows_encode_as_glibc() {
    for e in single_byte_rows().filter(|e| !e.iconv_names().is_empty()) {
        let name = e.iconv_names()[0];
        if !iconv_knows(name) {
            continue;
        }
        let text: String = e.single_byte_table().unwrap().iter().flatten().collect();
        let ours = e.encode_to_vec(&text, EncodeMode::Strict).unwrap();
        let theirs = iconv("UTF-8", name, &[], text.as_bytes()).unwrap().unwrap();
        assert_eq!(ours, theirs, "{e:?}");
    }
}

#[test]
fn every_iconv_name_is_known_to_iconv_and_finds_its_row() {
    if !iconv_knows("UTF-8") {
        return;
    }
    for e in Encoding::all() {
        for name in e.iconv_names() {
            assert_eq!(Encoding::for_iconv_name(name), Some(e), "{name}");
            assert_eq!(Encoding::for_label(name), Some(e), "{name}");
            assert!(
                matches!(iconv(name, "UTF-8", &[], b""), Some(Ok(_))),
                "iconv does not know {name} ({e:?})"
            );
        }
    }
}

#[test]
fn registry_facts() {
    assert_eq!(Encoding::UTF_8.name(), "UTF-8");
    // Every WHATWG encoding has a row, and every WHATWG label finds the
    // row of encoding_rs's answer.
    let labels = [
        "unicode-1-1-utf-8",
        "utf8",
        "866",
        "cp866",
        "csisolatin2",
        "l2",
        "iso-8859-8-i",
        "logical",
        "koi",
        "koi8-ru",
        "mac",
        "x-mac-ukrainian",
        "dos-874",
        "tis-620",
        "cp1250",
        "x-cp1252",
        "iso-8859-1",
        "latin1",
        "ascii",
        "us-ascii",
        "iso-8859-9",
        "csshiftjis",
        "ms932",
        "sjis",
        "x-euc-jp",
        "csiso2022jp",
        "chinese",
        "gb2312",
        "x-gbk",
        "gb18030",
        "big5-hkscs",
        "cn-big5",
        "cseuckr",
        "korean",
        "windows-949",
        "csiso2022kr",
        "hz-gb-2312",
        "utf-16",
        "utf-16be",
        "unicodefffe",
        "x-user-defined",
    ];
    for label in labels {
        let w = encoding_rs::Encoding::for_label(label.as_bytes()).unwrap();
        let e = Encoding::for_whatwg_label(label).unwrap_or_else(|| panic!("{label}"));
        assert_eq!(e.whatwg(), Some(w), "{label}");
        assert_eq!(e.whatwg_name(), Some(w.name()));
    }
    // Decided per name: iconv's names answer as glibc.
    let name = |l: &str| Encoding::for_label(l).map(Encoding::name);
    assert_eq!(name("ISO-8859-1"), Some("ISO-8859-1"));
    assert_eq!(name("us-ascii"), Some("ANSI_X3.4-1968"));
    assert_eq!(name("windows-1252"), Some("CP1252"));
    assert_eq!(name("x-cp1252"), Some("windows-1252"));
    assert_eq!(name("utf-16"), Some("UTF-16"));
    assert_eq!(name("csshiftjis"), Some("Shift_JIS"));
    assert_eq!(name("cesu-8"), Some("CESU-8"));
    assert_eq!(name("EBCDIC"), None);
    assert_eq!(
        Encoding::for_whatwg_label("ISO-8859-1").map(Encoding::name),
        Some("windows-1252")
    );
    assert_eq!(Encoding::for_iconv_name("x-cp1252"), None);
}

#[test]
fn every_whatwg_encoding_has_a_row() {
    let all = [
        encoding_rs::BIG5,
        encoding_rs::EUC_JP,
        encoding_rs::EUC_KR,
        encoding_rs::GB18030,
        encoding_rs::GBK,
        encoding_rs::IBM866,
        encoding_rs::ISO_2022_JP,
        encoding_rs::ISO_8859_10,
        encoding_rs::ISO_8859_13,
        encoding_rs::ISO_8859_14,
        encoding_rs::ISO_8859_15,
        encoding_rs::ISO_8859_16,
        encoding_rs::ISO_8859_2,
        encoding_rs::ISO_8859_3,
        encoding_rs::ISO_8859_4,
        encoding_rs::ISO_8859_5,
        encoding_rs::ISO_8859_6,
        encoding_rs::ISO_8859_7,
        encoding_rs::ISO_8859_8,
        encoding_rs::ISO_8859_8_I,
        encoding_rs::KOI8_R,
        encoding_rs::KOI8_U,
        encoding_rs::MACINTOSH,
        encoding_rs::REPLACEMENT,
        encoding_rs::SHIFT_JIS,
        encoding_rs::UTF_16BE,
        encoding_rs::UTF_16LE,
        encoding_rs::UTF_8,
        encoding_rs::WINDOWS_1250,
        encoding_rs::WINDOWS_1251,
        encoding_rs::WINDOWS_1252,
        encoding_rs::WINDOWS_1253,
        encoding_rs::WINDOWS_1254,
        encoding_rs::WINDOWS_1255,
        encoding_rs::WINDOWS_1256,
        encoding_rs::WINDOWS_1257,
        encoding_rs::WINDOWS_1258,
        encoding_rs::WINDOWS_874,
        encoding_rs::X_MAC_CYRILLIC,
        encoding_rs::X_USER_DEFINED,
    ];
    assert_eq!(all.len(), 40);
    for w in all {
        let e = Encoding::for_whatwg(w).unwrap_or_else(|| panic!("{}", w.name()));
        assert_eq!(e.name(), w.name());
    }
    let rows = Encoding::all().count();
    let whatwg = Encoding::all().filter(|e| e.whatwg().is_some()).count();
    let glibc = Encoding::all()
        .filter(|e| e.whatwg().is_none() && e.is_single_byte())
        .count();
    eprintln!("{rows} rows: {whatwg} WHATWG, {glibc} glibc single-byte");
    assert_eq!(whatwg, 40);
}
