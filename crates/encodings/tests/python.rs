//! Every byte of the glibc tables against Python's codecs (run as a
//! subprocess; skipped with a note where there is no `python3`). Python
//! agrees with glibc but on three pages, named here and in
//! docs/results/encodings.md.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use encodings::{DecodeMode, Encoding};
use std::process::Command;

/// (iconv name, Python codec).
const PAIRS: &[(&str, &str)] = &[
    ("CP1250", "cp1250"),
    ("CP1251", "cp1251"),
    ("CP1252", "cp1252"),
    ("CP1253", "cp1253"),
    ("CP1254", "cp1254"),
    ("CP1255", "cp1255"),
    ("CP1256", "cp1256"),
    ("CP1257", "cp1257"),
    ("CP1258", "cp1258"),
    ("IBM037", "cp037"),
    ("IBM500", "cp500"),
    ("IBM1140", "cp1140"),
    ("IBM437", "cp437"),
    ("IBM850", "cp850"),
    ("IBM852", "cp852"),
    ("IBM855", "cp855"),
    ("IBM857", "cp857"),
    ("IBM860", "cp860"),
    ("IBM861", "cp861"),
    ("IBM862", "cp862"),
    ("IBM863", "cp863"),
    ("IBM865", "cp865"),
    ("IBM866", "cp866"),
    ("IBM869", "cp869"),
    ("IBM874", "cp874"),
    ("ISO-8859-2", "iso8859_2"),
    ("ISO-8859-3", "iso8859_3"),
    ("ISO-8859-4", "iso8859_4"),
    ("ISO-8859-5", "iso8859_5"),
    ("ISO-8859-6", "iso8859_6"),
    ("ISO-8859-7", "iso8859_7"),
    ("ISO-8859-8", "iso8859_8"),
    ("ISO-8859-9", "iso8859_9"),
    ("ISO-8859-10", "iso8859_10"),
    ("ISO-8859-11", "iso8859_11"),
    ("ISO-8859-13", "iso8859_13"),
    ("ISO-8859-14", "iso8859_14"),
    ("ISO-8859-15", "iso8859_15"),
    ("ISO-8859-16", "iso8859_16"),
    ("KOI8-R", "koi8_r"),
    ("KOI8-U", "koi8_u"),
    ("MACINTOSH", "mac_roman"),
    ("CP10007", "mac_cyrillic"),
    ("TIS-620", "tis_620"),
    ("ISO-8859-1", "latin_1"),
];

/// Python's decoding of each byte of each codec (`None`: undefined), from
/// one run; `None` without Python.
fn python_tables() -> Option<Vec<Vec<Option<char>>>> {
    let codecs: Vec<String> = PAIRS.iter().map(|(_, c)| format!("'{c}'")).collect();
    let script = format!(
        "for c in [{}]:\n    for b in range(256):\n        try: print(ord(bytes([b]).decode(c)))\n        except UnicodeDecodeError: print(-1)\n",
        codecs.join(", ")
    );
    let out = Command::new("python3")
        .arg("-c")
        .arg(script)
        .output()
        .ok()?;
    if !out.status.success() {
        eprintln!(
            "note: python3 failed ({}); skipped",
            String::from_utf8_lossy(&out.stderr).trim()
        );
        return None;
    }
    let values: Vec<Option<char>> = String::from_utf8(out.stdout)
        .ok()?
        .lines()
        .map(|l| {
            l.trim()
                .parse::<i64>()
                .ok()
                .and_then(|v| u32::try_from(v).ok())
                .and_then(char::from_u32)
        })
        .collect();
    Some(values.chunks(256).map(<[_]>::to_vec).collect())
}

/// Where Python's codecs differ from glibc, and what Python says there.
fn python_differs(name: &str, b: u8) -> bool {
    match name {
        // Python's mac_roman and mac_cyrillic are Apple's current tables
        // (as WHATWG's): ∆ and the Apple logo; Ґ and €.
        "MACINTOSH" => matches!(b, 0xC6 | 0xF0),
        "CP10007" => matches!(b, 0xA2 | 0xFF),
        // Python's tis_620 maps 0x80..0x9F to the C1 controls.
        "TIS-620" => (0x80..=0x9F).contains(&b),
        _ => false,
    }
}

#[test]
fn glibc_tables_equal_python_codecs() {
    let Some(tables) = python_tables() else {
        eprintln!("note: no python3 on this machine; the tables are not compared with Python");
        return;
    };
    assert_eq!(tables.len(), PAIRS.len());
    let mut differences = 0;
    for (&(name, codec), py) in PAIRS.iter().zip(&tables) {
        let e = Encoding::for_iconv_name(name).unwrap();
        let ours = e.single_byte_table().unwrap();
        for b in 0..=255u8 {
            let (o, p) = (ours[usize::from(b)], py[usize::from(b)]);
            if python_differs(name, b) {
                differences += 1;
                assert_ne!(o, p, "{name} {b:#04X}: listed as a difference but equal");
                // On the Mac pages Python gives WHATWG's answer.
                let whatwg = match name {
                    "MACINTOSH" => Some("macintosh"),
                    "CP10007" => Some("x-mac-cyrillic"),
                    _ => None,
                };
                if let Some(label) = whatwg {
                    let w = Encoding::for_whatwg_label(label).unwrap();
                    let wc = w
                        .decode_to_string(&[b], DecodeMode::Strict)
                        .ok()
                        .and_then(|s| s.chars().next());
                    assert_eq!(wc, p, "{name} {b:#04X}");
                }
                continue;
            }
            assert_eq!(o, p, "{name} ({codec}) byte {b:#04X}");
        }
    }
    assert!(differences == 0 || differences == 36, "{differences}");
}
