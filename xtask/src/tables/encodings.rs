//! `cargo xtask gen-tables --encodings`: writes the decode tables of the
//! single-byte encodings in `crates/encodings/src/tables.rs`; `cargo xtask
//! gen-tables --check` compares them ([`check`]).
//!
//! Two sources, each named in the generated file:
//!
//! - WHATWG encodings: `encoding_rs` (Firefox's implementation of the
//!   WHATWG Encoding Standard's index files), each byte decoded on its own
//!   without replacement.
//! - glibc (iconv) encodings: glibc's charmaps, `/usr/share/i18n/charmaps/*.gz`
//!   (Debian's `locales` package): the `<UXXXX> /xNN` lines between
//!   `CHARMAP` and `END CHARMAP`. IBM1140 has no charmap there; it is
//!   IBM037 with the euro sign at 0x9F, which is how IBM defines CCSID 1140.
//!
//! The composition tables of glibc's CP1255 and CP1258
//! (`crates/encodings/src/compose_tables.rs`) come from the Unicode
//! canonical decompositions filtered by those pages' tables, derived by
//! `xtask/scripts/gen_compose.py` (Python's `unicodedata`; the rules are
//! there); without `python3` the check skips them with a note.
//!
//! The check derives every table whose source is present on this machine
//! and compares it with the file, naming each entry that differs; a table
//! whose charmap is absent is skipped with a note.

use crate::util::{Result, root};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The value of an undefined byte in the generated tables. U+FFFF is a
/// noncharacter that no table maps a byte to (checked when deriving).
const UNDEFINED: u16 = 0xFFFF;

/// Where a table comes from.
#[derive(Clone, Copy)]
enum Source {
    /// encoding_rs's decoder of this WHATWG name.
    Whatwg(&'static str),
    /// glibc's charmap of this name.
    Charmap(&'static str),
    /// A charmap with one byte changed (IBM1140 = IBM037 plus the euro).
    CharmapWith(&'static str, u8, u16),
}

/// Every generated table: the static's name and its source.
const TABLES: &[(&str, Source)] = &[
    ("WHATWG_IBM866", Source::Whatwg("IBM866")),
    ("WHATWG_ISO_8859_2", Source::Whatwg("ISO-8859-2")),
    ("WHATWG_ISO_8859_3", Source::Whatwg("ISO-8859-3")),
    ("WHATWG_ISO_8859_4", Source::Whatwg("ISO-8859-4")),
    ("WHATWG_ISO_8859_5", Source::Whatwg("ISO-8859-5")),
    ("WHATWG_ISO_8859_6", Source::Whatwg("ISO-8859-6")),
    ("WHATWG_ISO_8859_7", Source::Whatwg("ISO-8859-7")),
    ("WHATWG_ISO_8859_8", Source::Whatwg("ISO-8859-8")),
    ("WHATWG_ISO_8859_10", Source::Whatwg("ISO-8859-10")),
    ("WHATWG_ISO_8859_13", Source::Whatwg("ISO-8859-13")),
    ("WHATWG_ISO_8859_14", Source::Whatwg("ISO-8859-14")),
    ("WHATWG_ISO_8859_15", Source::Whatwg("ISO-8859-15")),
    ("WHATWG_ISO_8859_16", Source::Whatwg("ISO-8859-16")),
    ("WHATWG_KOI8_R", Source::Whatwg("KOI8-R")),
    ("WHATWG_KOI8_U", Source::Whatwg("KOI8-U")),
    ("WHATWG_MACINTOSH", Source::Whatwg("macintosh")),
    ("WHATWG_WINDOWS_874", Source::Whatwg("windows-874")),
    ("WHATWG_WINDOWS_1250", Source::Whatwg("windows-1250")),
    ("WHATWG_WINDOWS_1251", Source::Whatwg("windows-1251")),
    ("WHATWG_WINDOWS_1252", Source::Whatwg("windows-1252")),
    ("WHATWG_WINDOWS_1253", Source::Whatwg("windows-1253")),
    ("WHATWG_WINDOWS_1254", Source::Whatwg("windows-1254")),
    ("WHATWG_WINDOWS_1255", Source::Whatwg("windows-1255")),
    ("WHATWG_WINDOWS_1256", Source::Whatwg("windows-1256")),
    ("WHATWG_WINDOWS_1257", Source::Whatwg("windows-1257")),
    ("WHATWG_WINDOWS_1258", Source::Whatwg("windows-1258")),
    ("WHATWG_X_MAC_CYRILLIC", Source::Whatwg("x-mac-cyrillic")),
    ("WHATWG_X_USER_DEFINED", Source::Whatwg("x-user-defined")),
    ("GLIBC_ISO_8859_2", Source::Charmap("ISO-8859-2")),
    ("GLIBC_ISO_8859_3", Source::Charmap("ISO-8859-3")),
    ("GLIBC_ISO_8859_4", Source::Charmap("ISO-8859-4")),
    ("GLIBC_ISO_8859_5", Source::Charmap("ISO-8859-5")),
    ("GLIBC_ISO_8859_6", Source::Charmap("ISO-8859-6")),
    ("GLIBC_ISO_8859_7", Source::Charmap("ISO-8859-7")),
    ("GLIBC_ISO_8859_8", Source::Charmap("ISO-8859-8")),
    ("GLIBC_ISO_8859_9", Source::Charmap("ISO-8859-9")),
    ("GLIBC_ISO_8859_10", Source::Charmap("ISO-8859-10")),
    ("GLIBC_ISO_8859_11", Source::Charmap("ISO-8859-11")),
    ("GLIBC_ISO_8859_13", Source::Charmap("ISO-8859-13")),
    ("GLIBC_ISO_8859_14", Source::Charmap("ISO-8859-14")),
    ("GLIBC_ISO_8859_15", Source::Charmap("ISO-8859-15")),
    ("GLIBC_ISO_8859_16", Source::Charmap("ISO-8859-16")),
    ("GLIBC_CP1250", Source::Charmap("CP1250")),
    ("GLIBC_CP1251", Source::Charmap("CP1251")),
    ("GLIBC_CP1252", Source::Charmap("CP1252")),
    ("GLIBC_CP1253", Source::Charmap("CP1253")),
    ("GLIBC_CP1254", Source::Charmap("CP1254")),
    ("GLIBC_CP1255", Source::Charmap("CP1255")),
    ("GLIBC_CP1256", Source::Charmap("CP1256")),
    ("GLIBC_CP1257", Source::Charmap("CP1257")),
    ("GLIBC_CP1258", Source::Charmap("CP1258")),
    ("GLIBC_IBM874", Source::Charmap("IBM874")),
    ("GLIBC_TIS_620", Source::Charmap("TIS-620")),
    ("GLIBC_KOI8_R", Source::Charmap("KOI8-R")),
    ("GLIBC_KOI8_U", Source::Charmap("KOI8-U")),
    ("GLIBC_MACINTOSH", Source::Charmap("MACINTOSH")),
    ("GLIBC_CP10007", Source::Charmap("CP10007")),
    ("GLIBC_IBM437", Source::Charmap("IBM437")),
    ("GLIBC_IBM850", Source::Charmap("IBM850")),
    ("GLIBC_IBM852", Source::Charmap("IBM852")),
    ("GLIBC_IBM855", Source::Charmap("IBM855")),
    ("GLIBC_IBM857", Source::Charmap("IBM857")),
    ("GLIBC_IBM860", Source::Charmap("IBM860")),
    ("GLIBC_IBM861", Source::Charmap("IBM861")),
    ("GLIBC_IBM862", Source::Charmap("IBM862")),
    ("GLIBC_IBM863", Source::Charmap("IBM863")),
    ("GLIBC_IBM865", Source::Charmap("IBM865")),
    ("GLIBC_IBM866", Source::Charmap("IBM866")),
    ("GLIBC_IBM869", Source::Charmap("IBM869")),
    ("GLIBC_IBM037", Source::Charmap("IBM037")),
    ("GLIBC_IBM500", Source::Charmap("IBM500")),
    ("GLIBC_IBM1047", Source::Charmap("IBM1047")),
    ("GLIBC_IBM1140", Source::CharmapWith("IBM037", 0x9F, 0x20AC)),
];

const CHARMAPS: &str = "/usr/share/i18n/charmaps";

/// The generated file.
fn target() -> PathBuf {
    root().join("crates/encodings/src/tables.rs")
}

/// One derived table, or why it could not be.
fn derive(source: Source) -> Result<[u16; 256]> {
    match source {
        Source::Whatwg(name) => {
            let enc = encoding_rs::Encoding::for_label(name.as_bytes())
                .ok_or_else(|| format!("encoding_rs has no {name}"))?;
            let mut t = [UNDEFINED; 256];
            for (b, slot) in t.iter_mut().enumerate() {
                let byte = [b as u8];
                // `None`: the byte is undefined (an error without replacement).
                if let Some(text) = enc.decode_without_bom_handling_and_without_replacement(&byte) {
                    let mut units = text.encode_utf16();
                    match (units.next(), units.next()) {
                        (Some(u), None) if u != UNDEFINED => *slot = u,
                        _ => return Err(format!("{name} byte {b:#04X}: not one BMP character")),
                    }
                }
            }
            Ok(t)
        }
        Source::Charmap(name) => charmap(name),
        Source::CharmapWith(name, byte, value) => {
            let mut t = charmap(name)?;
            t[usize::from(byte)] = value;
            Ok(t)
        }
    }
}

/// The single-byte entries of glibc's charmap `name`.
fn charmap(name: &str) -> Result<[u16; 256]> {
    let path = Path::new(CHARMAPS).join(format!("{name}.gz"));
    if !path.exists() {
        return Err(format!("{} is absent", path.display()));
    }
    let out = Command::new("gzip")
        .arg("-dc")
        .arg(&path)
        .output()
        .map_err(|e| format!("gzip -dc {}: {e}", path.display()))?;
    let text = String::from_utf8_lossy(&out.stdout);
    let mut t = [UNDEFINED; 256];
    let mut inside = false;
    for line in text.lines() {
        let line = line.trim();
        if line == "CHARMAP" {
            inside = true;
            continue;
        }
        if line == "END CHARMAP" {
            break;
        }
        if !inside || !line.starts_with("<U") {
            continue;
        }
        let mut fields = line.split_whitespace();
        let (Some(sym), Some(bytes)) = (fields.next(), fields.next()) else {
            continue;
        };
        // One scalar and one byte: ranges and sequences are not single-byte
        // mappings.
        let Some(hex) = sym.strip_prefix("<U").and_then(|s| s.strip_suffix('>')) else {
            continue;
        };
        if hex.contains('>') || bytes.matches("/x").count() != 1 {
            continue;
        }
        let (Ok(u), Some(Ok(b))) = (
            u32::from_str_radix(hex, 16),
            bytes.strip_prefix("/x").map(|h| u8::from_str_radix(h, 16)),
        ) else {
            continue;
        };
        let u = u16::try_from(u).map_err(|_| format!("{name}: U+{u:X} is not in the BMP"))?;
        // The decoder relies on both: U+FFFF marks undefined bytes, and
        // every defined one is a character of its own.
        if u == UNDEFINED || (0xD800..0xE000).contains(&u) {
            return Err(format!("{name}: maps a byte to U+{u:04X}"));
        }
        if t[usize::from(b)] != UNDEFINED {
            return Err(format!("{name}: byte {b:#04X} mapped twice"));
        }
        t[usize::from(b)] = u;
    }
    Ok(t)
}

fn describe(source: Source) -> String {
    match source {
        Source::Whatwg(n) => format!("encoding_rs {n}"),
        Source::Charmap(n) => format!("glibc charmap {CHARMAPS}/{n}.gz"),
        Source::CharmapWith(n, b, v) => {
            format!("glibc charmap {CHARMAPS}/{n}.gz with {b:#04X} = U+{v:04X}")
        }
    }
}

/// The Rust source of one table.
fn render_table(name: &str, source: Source, t: &[u16; 256]) -> String {
    let mut s = String::new();
    let _ = writeln!(s, "/// From {}.", describe(source));
    let _ = writeln!(s, "#[rustfmt::skip]");
    let _ = writeln!(s, "pub(crate) static {name}: [u16; 256] = [");
    for row in t.chunks(8) {
        s.push_str("   ");
        for u in row {
            let _ = write!(s, " 0x{u:04X},");
        }
        s.push('\n');
    }
    s.push_str("];\n");
    s
}

const HEADER: &str = "\
//! Decode tables of the single-byte encodings: byte -> UTF-16 code unit,
//! `0xFFFF` where the byte is undefined.
//!
//! @generated by `cargo xtask gen-tables --encodings` (xtask/src/tables/encodings.rs)
//! from encoding_rs (WHATWG tables) and glibc's charmaps in
//! /usr/share/i18n/charmaps (Debian's `locales`). Do not edit:
//! `cargo xtask gen-tables --check` compares this file with the sources.
";

/// The version of encoding_rs the lock file pins (xtask is built with it).
fn encoding_rs_version() -> String {
    let lock = std::fs::read_to_string(root().join("Cargo.lock")).unwrap_or_default();
    lock.split("[[package]]")
        .find(|p| p.contains("name = \"encoding_rs\""))
        .and_then(|p| p.lines().find_map(|l| l.strip_prefix("version = ")))
        .map_or_else(|| "unknown".into(), |v| v.trim_matches('"').to_string())
}

/// `gen-tables --encodings`: writes the file.
pub(crate) fn write() -> Result {
    let mut s = String::from(HEADER);
    let _ = writeln!(
        s,
        "//! encoding_rs {}; glibc: `{}`.\n",
        encoding_rs_version(),
        glibc_version()
    );
    for &(name, source) in TABLES {
        let t = derive(source).map_err(|e| format!("{name}: {e}"))?;
        s.push('\n');
        s.push_str(&render_table(name, source, &t));
    }
    std::fs::write(target(), s).map_err(|e| format!("{}: {e}", target().display()))?;
    eprintln!("wrote {} ({} tables)", target().display(), TABLES.len());
    // From the pages' tables just written.
    let compose = derive_compose()?;
    std::fs::write(compose_target(), compose)
        .map_err(|e| format!("{}: {e}", compose_target().display()))?;
    eprintln!("wrote {}", compose_target().display());
    Ok(())
}

const COMPOSE_SCRIPT: &str = "xtask/scripts/gen_compose.py";

/// The composition tables of CP1255 and CP1258.
fn compose_target() -> PathBuf {
    root().join("crates/encodings/src/compose_tables.rs")
}

/// The composition tables as the script derives them (it reads the pages'
/// tables from the repository), or why not (no `python3`).
fn derive_compose() -> Result<String> {
    let out = Command::new("python3")
        .arg(COMPOSE_SCRIPT)
        .current_dir(root())
        .output()
        .map_err(|e| format!("python3 {COMPOSE_SCRIPT}: {e}"))?;
    if !out.status.success() {
        return Err(format!(
            "python3 {COMPOSE_SCRIPT}: {}",
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    String::from_utf8(out.stdout).map_err(|e| format!("python3 {COMPOSE_SCRIPT}: {e}"))
}

/// [`check`] of the composition tables' text against the derived one: the
/// lines outside the header (which names the Unicode version of the
/// Python that made it), each that differs named.
fn check_compose_text(file: &str, derived: &str) -> Result<String> {
    let entries = |s: &str| -> Vec<String> {
        s.lines()
            .filter(|l| !l.starts_with("//!"))
            .map(str::to_string)
            .collect()
    };
    let (have, want) = (entries(file), entries(derived));
    let mut errors: Vec<String> = have
        .iter()
        .zip(&want)
        .filter(|(h, w)| h != w)
        .take(10)
        .map(|(h, w)| format!("the file has `{h}`, derived `{w}`"))
        .collect();
    if have.len() != want.len() {
        errors.push(format!(
            "the file has {} lines, derived {}",
            have.len(),
            want.len()
        ));
    }
    if errors.is_empty() {
        Ok("the CP1255/CP1258 composition tables equal their sources".into())
    } else {
        Err(format!(
            "crates/encodings/src/compose_tables.rs differs from its sources (run `cargo xtask gen-tables --encodings`):\n{}",
            errors.join("\n")
        ))
    }
}

fn glibc_version() -> String {
    Command::new("ldd")
        .arg("--version")
        .output()
        .ok()
        .and_then(|o| String::from_utf8(o.stdout).ok())
        .and_then(|s| s.lines().next().map(str::to_string))
        .unwrap_or_else(|| "unknown".into())
}

/// The tables in the file, parsed back: name -> 256 entries.
fn parse(file: &str) -> Vec<(String, Vec<u16>)> {
    let mut out = Vec::new();
    let mut current: Option<(String, Vec<u16>)> = None;
    for line in file.lines() {
        if let Some(rest) = line.strip_prefix("pub(crate) static ") {
            let name = rest.split(':').next().unwrap_or_default().to_string();
            current = Some((name, Vec::new()));
        } else if line == "];" {
            out.extend(current.take());
        } else if let Some((_, v)) = current.as_mut() {
            v.extend(
                line.split(',')
                    .map(str::trim)
                    .filter_map(|h| h.strip_prefix("0x"))
                    .filter_map(|h| u16::from_str_radix(h, 16).ok()),
            );
        }
    }
    out
}

/// `gen-tables --check` for the encodings: every derivable table equals
/// the file's, entry for entry.
pub(crate) fn check() -> Result<String> {
    let path = target();
    let file = std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    let tables = check_text(&file, &path)?;
    let compose = std::fs::read_to_string(compose_target())
        .map_err(|e| format!("{}: {e}", compose_target().display()))?;
    let compose = match derive_compose() {
        Ok(derived) => check_compose_text(&compose, &derived)?,
        Err(e) => format!("skipped the CP1255/CP1258 composition tables ({e})"),
    };
    Ok(format!("{tables}; {compose}"))
}

/// [`check`] of the file's text.
fn check_text(file: &str, path: &Path) -> Result<String> {
    let actual = parse(file);
    let mut errors = Vec::new();
    let (mut checked, mut skipped) = (0, Vec::new());
    for &(name, source) in TABLES {
        let Some((_, have)) = actual.iter().find(|(n, _)| n == name) else {
            errors.push(format!("{name}: missing from {}", path.display()));
            continue;
        };
        let derived = match derive(source) {
            Ok(t) => t,
            Err(e) if matches!(source, Source::Charmap(_) | Source::CharmapWith(..)) => {
                skipped.push(format!("{name} ({e})"));
                continue;
            }
            Err(e) => return Err(e),
        };
        if have.len() != 256 {
            errors.push(format!("{name}: {} entries, not 256", have.len()));
        }
        for (b, (&d, &a)) in derived.iter().zip(have).enumerate() {
            if d != a {
                errors.push(format!(
                    "{name}[{b:#04X}]: derived {d:#06X} from {}, the file has {a:#06X}",
                    describe(source)
                ));
            }
        }
        checked += 1;
    }
    if actual.len() != TABLES.len() {
        errors.push(format!(
            "{}: {} tables, the generator makes {}",
            path.display(),
            actual.len(),
            TABLES.len()
        ));
    }
    if !errors.is_empty() {
        return Err(format!(
            "crates/encodings/src/tables.rs differs from its sources (run `cargo xtask gen-tables --encodings`):\n{}",
            errors.join("\n")
        ));
    }
    let mut msg = format!("encodings::tables ({checked} single-byte tables) equal their sources");
    if !skipped.is_empty() {
        let _ = write!(msg, "; skipped, source absent: {}", skipped.join(", "));
    }
    Ok(msg)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The file equals its sources, and a changed entry is named.
    #[test]
    fn check_catches_a_changed_entry() {
        let path = target();
        let file = std::fs::read_to_string(&path).unwrap();
        assert!(check_text(&file, &path).is_ok());
        // The first euro sign changed to U+20AD (ISO-8859-7's 0xA4).
        let changed = file.replacen("0x20AC", "0x20AD", 1);
        let err = check_text(&changed, &path).unwrap_err();
        assert!(
            err.contains("[0xA4]: derived 0x20AC") && err.contains("the file has 0x20AD"),
            "{err}"
        );
        // A table dropped.
        let dropped = file.replacen(
            "pub(crate) static WHATWG_IBM866",
            "pub(crate) static RENAMED",
            1,
        );
        assert!(check_text(&dropped, &path).is_err());
    }

    /// The composition tables equal the script's output, and a changed
    /// entry is named (skipped without `python3`).
    #[test]
    fn check_catches_a_changed_composition() {
        let Ok(derived) = derive_compose() else {
            eprintln!("note: no python3; the composition tables are not checked");
            return;
        };
        let file = std::fs::read_to_string(compose_target()).unwrap();
        assert!(check_compose_text(&file, &derived).is_ok());
        // a + acute composing to U+00E0 (a grave) instead of U+00E1.
        let changed = file.replacen("(0x0061, 0x0301, 0x00E1)", "(0x0061, 0x0301, 0x00E0)", 1);
        assert_ne!(changed, file);
        let err = check_compose_text(&changed, &derived).unwrap_err();
        assert!(err.contains("0x00E0") && err.contains("0x00E1"), "{err}");
    }
}
