//! File names as the tool prints them: unambiguous, and openable again.
//!
//! On Unix a file name is any byte string without `/` and NUL, so it need
//! not be UTF-8, and it may hold a newline, which would break every
//! line-oriented output. Printing it with `Path::display` (U+FFFD for each
//! bad byte) loses the name: two names can print the same, and the printed
//! one cannot be opened.
//!
//! [`escape`] maps every name to a printable string, one to one:
//!
//! - `\` becomes `\\`;
//! - a byte that is not part of valid UTF-8 becomes `\xHH`;
//! - the control characters `\t`, `\n`, `\r` become those escapes, and the
//!   other C0 controls and DEL become `\xHH` (C1 controls, U+0080–U+009F,
//!   become `\u{HH}`);
//! - everything else is printed as itself.
//!
//! Names without any of these (nearly all) print unchanged. The escapes are
//! those of bash's `printf '%b'` and of `$'…'` quoting, so a printed name
//! can be turned back into the file name: `printf '%b' 'caf\xe9.txt'`.
//!
//! In JSON, [`json_fields`] gives `"path"` as the name itself when it is
//! UTF-8 (JSON escapes its control characters), or else as the escaped form
//! plus `"path_bytes"`, the exact bytes as an array of numbers.

use serde_json::{Map, Value};
use std::borrow::Cow;
use std::ffi::OsStr;
use std::fmt::Write as _;

/// The raw bytes of a name (on Unix exactly; elsewhere its lossy UTF-8).
pub fn name_bytes(name: &OsStr) -> Cow<'_, [u8]> {
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStrExt;
        Cow::Borrowed(name.as_bytes())
    }
    #[cfg(not(unix))]
    {
        match name.to_string_lossy() {
            Cow::Borrowed(s) => Cow::Borrowed(s.as_bytes()),
            Cow::Owned(s) => Cow::Owned(s.into_bytes()),
        }
    }
}

/// The printable, unambiguous form of a name (see the module docs).
#[must_use]
pub fn escape(name: &OsStr) -> Cow<'_, str> {
    let bytes = name_bytes(name);
    if let Ok(s) = std::str::from_utf8(&bytes)
        && !s.chars().any(needs_escape)
    {
        // Borrowed straight from `name` on Unix: the common case costs no
        // allocation.
        return match name.to_str() {
            Some(s) => Cow::Borrowed(s),
            None => Cow::Owned(s.to_owned()),
        };
    }
    let mut out = String::with_capacity(bytes.len() + 8);
    for chunk in bytes.utf8_chunks() {
        for c in chunk.valid().chars() {
            push_char(&mut out, c);
        }
        for b in chunk.invalid() {
            let _ = write!(out, "\\x{b:02x}");
        }
    }
    Cow::Owned(out)
}

fn needs_escape(c: char) -> bool {
    c == '\\' || c.is_control()
}

fn push_char(out: &mut String, c: char) {
    match c {
        '\\' => out.push_str("\\\\"),
        '\t' => out.push_str("\\t"),
        '\n' => out.push_str("\\n"),
        '\r' => out.push_str("\\r"),
        c if (c as u32) < 0x80 && c.is_control() => {
            let _ = write!(out, "\\x{:02x}", c as u32);
        }
        c if c.is_control() => {
            let _ = write!(out, "\\u{{{:x}}}", c as u32);
        }
        c => out.push(c),
    }
}

/// The JSON fields naming a file: `"path"`, and `"path_bytes"` when the name
/// is not UTF-8.
pub fn json_fields(name: &OsStr, record: &mut Map<String, Value>) {
    match name.to_str() {
        Some(s) => {
            record.insert("path".into(), Value::from(s));
        }
        None => {
            record.insert("path".into(), Value::from(escape(name).into_owned()));
            let bytes: Vec<Value> = name_bytes(name).iter().map(|&b| b.into()).collect();
            record.insert("path_bytes".into(), Value::Array(bytes));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Undoes [`escape`], as `printf '%b'` would: the oracle that proves it
    /// one to one.
    fn unescape(s: &str) -> Vec<u8> {
        let mut out = Vec::new();
        let mut chars = s.chars();
        while let Some(c) = chars.next() {
            if c != '\\' {
                let mut buf = [0; 4];
                out.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
                continue;
            }
            match chars.next() {
                Some('\\') => out.push(b'\\'),
                Some('t') => out.push(b'\t'),
                Some('n') => out.push(b'\n'),
                Some('r') => out.push(b'\r'),
                Some('x') => {
                    let hex: String = chars.by_ref().take(2).collect();
                    out.push(u8::from_str_radix(&hex, 16).unwrap());
                }
                Some('u') => {
                    let rest: String = chars.by_ref().take_while(|&c| c != '}').collect();
                    let c = char::from_u32(u32::from_str_radix(&rest[1..], 16).unwrap()).unwrap();
                    let mut buf = [0; 4];
                    out.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
                }
                other => panic!("bad escape {other:?} in {s:?}"),
            }
        }
        out
    }

    #[cfg(unix)]
    fn os(bytes: &[u8]) -> &OsStr {
        use std::os::unix::ffi::OsStrExt;
        OsStr::from_bytes(bytes)
    }

    #[cfg(unix)]
    #[test]
    fn examples() {
        assert!(matches!(
            escape(os(b"plain.txt")),
            Cow::Borrowed("plain.txt")
        ));
        assert_eq!(escape(os("caf\u{e9}.txt".as_bytes())), "caf\u{e9}.txt");
        assert_eq!(escape(os(b"caf\xe9.txt")), "caf\\xe9.txt");
        assert_eq!(escape(os(b"a\\xe9")), "a\\\\xe9");
        assert_eq!(escape(os(b"two\nlines\t\x1b")), "two\\nlines\\t\\x1b");
        assert_eq!(escape(os("c1\u{85}".as_bytes())), "c1\\u{85}");
        // The two names that `Path::display` prints alike differ here.
        assert_ne!(escape(os(b"\xff")), escape(os(b"\xfe")));
        assert_ne!(escape(os(b"\xff")), escape(os("\u{FFFD}".as_bytes())));
    }

    #[cfg(unix)]
    #[test]
    fn json_has_bytes_only_when_needed() {
        let mut m = Map::new();
        json_fields(os(b"ok"), &mut m);
        assert_eq!(Value::Object(m).to_string(), r#"{"path":"ok"}"#);
        let mut m = Map::new();
        json_fields(os(b"a\xff"), &mut m);
        assert_eq!(
            Value::Object(m).to_string(),
            r#"{"path":"a\\xff","path_bytes":[97,255]}"#
        );
    }

    #[cfg(unix)]
    quickcheck::quickcheck! {
        fn escape_is_one_to_one(name: Vec<u8>) -> bool {
            let escaped = escape(os(&name));
            unescape(&escaped) == name && !escaped.chars().any(|c| c.is_control())
        }
    }
}
