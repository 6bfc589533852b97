//! `codec convert` on the encodings crate: every option, the output kinds
//! (pipes, `/dev/stdout`, devices, hard links, an unwritable directory),
//! and the CLI against glibc's `iconv` byte for byte on text of several
//! languages converted into each single-byte and CJK encoding iconv knows.
//! Without `iconv` the differential tests print why and pass; the corpus
//! in ../shared/corpora is used when present, built-in text otherwise.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use assert_cmd::Command;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Stdio;

mod common;
use common::Rng;

fn codec() -> Command {
    Command::new(env!("CARGO_BIN_EXE_codec"))
}

/// (stdout, stderr, exit code) of `codec convert ARGS` on `input` (stdin).
fn convert(args: &[&str], input: &[u8]) -> (Vec<u8>, String, i32) {
    let o = codec()
        .arg("convert")
        .args(args)
        .write_stdin(input.to_vec())
        .output()
        .unwrap();
    (
        o.stdout,
        String::from_utf8_lossy(&o.stderr).into_owned(),
        o.status.code().unwrap_or(-1),
    )
}

fn have_iconv() -> bool {
    let ok = std::process::Command::new("iconv")
        .arg("--version")
        .stdout(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    if !ok {
        eprintln!("skipped: no iconv program on this machine");
    }
    ok
}

/// iconv's stdout and whether it succeeded.
fn iconv(args: &[&str], input: &[u8]) -> (Vec<u8>, bool) {
    let mut child = std::process::Command::new("iconv")
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let input = input.to_vec();
    let writer = std::thread::spawn(move || {
        use std::io::Write;
        let _ = stdin.write_all(&input);
    });
    let o = child.wait_with_output().unwrap();
    writer.join().unwrap();
    (o.stdout, o.status.success())
}

/// Text of several languages: ../shared/corpora when present (a 4 KiB
/// piece of each file, whole lines), else a line each built in.
fn texts() -> Vec<(String, String)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpora/lipsum");
    let mut out = Vec::new();
    if let Ok(entries) = fs::read_dir(&dir) {
        let mut paths: Vec<PathBuf> = entries.map(|e| e.unwrap().path()).collect();
        paths.sort();
        for p in paths {
            if p.extension().is_some_and(|e| e == "txt")
                && let Ok(text) = fs::read_to_string(&p)
            {
                let mut piece: String = text.chars().take(3000).collect();
                if let Some(end) = piece.rfind('\n') {
                    piece.truncate(end + 1);
                }
                out.push((p.file_name().unwrap().to_string_lossy().into_owned(), piece));
            }
        }
    } else {
        eprintln!("no ../shared/corpora: built-in text only");
    }
    for (name, text) in [
        ("french", "Où est la café? Ça coûte 5 € — déjà vu.\n"),
        ("russian", "Съешь же ещё этих мягких французских булок.\n"),
        ("greek", "Ξεσκεπάζω την ψυχοφθόρα βδελυγμία.\n"),
        ("japanese", "いろはにほへと ちりぬるを 日本語のテキスト。\n"),
        ("chinese", "我能吞下玻璃而不伤身体。繁體中文字\n"),
        ("korean", "다람쥐 헌 쳇바퀴에 타고파 한국어\n"),
    ] {
        out.push((name.to_string(), text.to_string()));
    }
    out
}

/// The single-byte and CJK encodings compared with iconv (its names).
const TARGETS: &[&str] = &[
    "ISO-8859-1",
    "ISO-8859-2",
    "ISO-8859-5",
    "ISO-8859-7",
    "ISO-8859-15",
    "CP1250",
    "CP1251",
    "CP1252",
    "CP1253",
    "CP1255",
    "CP1258",
    "KOI8-R",
    "KOI8-U",
    "CP437",
    "CP850",
    "CP866",
    "IBM037",
    "IBM1047",
    "ASCII",
    "SHIFT_JIS",
    "EUC-JP",
    "GB18030",
    "GBK",
    "BIG5",
    "EUC-KR",
];

const CJK: &[&str] = &["SHIFT_JIS", "EUC-JP", "GB18030", "GBK", "BIG5", "EUC-KR"];

/// Every text into every target, strict and with `-c`, and back: the same
/// bytes as iconv, and the same success. glibc and WHATWG differ on some
/// CJK codes (see docs/results/encodings.md); on the texts here they agree,
/// and a text where they would not is reported by name.
#[test]
fn convert_equals_iconv_on_text_of_every_language() {
    if !have_iconv() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let (mut compared, mut compared_cjk) = (0, 0);
    let texts = texts();
    let count = texts.len();
    for (name, text) in texts {
        let file = dir.path().join(&name);
        fs::write(&file, &text).unwrap();
        let f = file.to_str().unwrap();
        for &to in TARGETS {
            let (theirs, ok) = iconv(&["-f", "UTF-8", "-t", to, f], b"");
            let (ours, err, code) = convert(&["-t", to, f], b"");
            let cjk = CJK.contains(&to);
            if cjk && (!ok || code != 0) {
                // The repertoires differ: WHATWG's Big5 holds kana glibc's
                // lacks, glibc's EUC-JP holds JIS X 0212 (ù...) WHATWG's
                // encoder does not write. The same bytes up to where the
                // first of the two stopped.
                assert!(
                    ours.starts_with(&theirs) || theirs.starts_with(&ours),
                    "{name} -> {to}: {err}"
                );
                continue;
            }
            assert_eq!(code == 0, ok, "{name} -> {to}: {err}");
            if ok {
                assert!(ours == theirs, "{name} -> {to}: output differs from iconv");
                // And back.
                let (back_theirs, _) = iconv(&["-f", to, "-t", "UTF-8"], &theirs);
                let (back, err, code) = convert(&["-f", to], &theirs);
                assert_eq!(code, 0, "{name} <- {to}: {err}");
                assert!(back == back_theirs, "{name} <- {to}: differs from iconv");
                assert_eq!(back, text.as_bytes());
            } else {
                // Stopped at the first character the target cannot hold,
                // with what came before it written, as iconv does.
                assert!(ours == theirs, "{name} -> {to}: prefix differs from iconv");
                assert!(err.contains("cannot be written in"), "{err}");
                let (dropped_theirs, _) = iconv(&["-c", "-f", "UTF-8", "-t", to, f], b"");
                let (dropped, _, code) = convert(&["-c", "-t", to, f], b"");
                assert_eq!(code, 0);
                assert!(dropped == dropped_theirs, "{name} -> {to} -c: differs");
            }
            if cjk {
                compared_cjk += 1;
            } else {
                compared += 1;
            }
        }
    }
    // Every text into every single-byte target, and into the CJK ones at
    // least once a text on average (the others skipped above where the
    // repertoires differ), with or without ../shared's texts.
    assert_eq!(compared, (TARGETS.len() - CJK.len()) * count);
    assert!(
        compared_cjk >= count,
        "{compared_cjk} CJK conversions, {count} texts"
    );
}

/// Mutated single-byte files decode as iconv decodes them (strict: the
/// same text before the error, and failure together). Mutated multi-byte
/// files are where iconv's answer is glibc's own (WHATWG and glibc differ
/// on some byte sequences): there we check that strict and `-c` runs end
/// cleanly and that `-c` output is valid UTF-8.
#[test]
fn mutated_files_decode_as_iconv_decodes_them() {
    if !have_iconv() {
        return;
    }
    let mut rng = Rng(33);
    let text = "Съешь же ещё этих мягких французских булок, да выпей чаю. Où est la café?\n";
    for to in [
        "CP1251",
        "KOI8-R",
        "CP1252",
        "ISO-8859-5",
        "CP866",
        "IBM037",
    ] {
        let (clean, _) = iconv(&["-c", "-f", "UTF-8", "-t", to], text.as_bytes());
        for _ in 0..20 {
            let mut bytes = clean.clone();
            for _ in 0..3 {
                let i = rng.below(bytes.len() as u64) as usize;
                bytes[i] = rng.below(256) as u8;
            }
            let (theirs, ok) = iconv(&["-f", to, "-t", "UTF-8"], &bytes);
            let (ours, err, code) = convert(&["-f", to], &bytes);
            assert_eq!(code == 0, ok, "{to} {bytes:02X?}: {err}");
            assert!(ours == theirs, "{to} {bytes:02X?}");
        }
    }
    // glibc's composing pages: letters written decomposed, mutated (a
    // strict error drops the letter held before it, as iconv does).
    for (to, text) in [
        ("CP1258", "Tiếng Việt: Ǹ ệ ạ ấ ặ ố ợ ự ỹ Ṍ, xin chào!\n"),
        ("CP1255", "שָׁלוֹם בְּרֵאשִׁית \u{FB2C}\u{FB31} עַם.\n"),
    ] {
        let (clean, _) = iconv(&["-f", "UTF-8", "-t", to], text.repeat(3).as_bytes());
        for _ in 0..60 {
            let mut bytes = clean.clone();
            for _ in 0..2 {
                let i = rng.below(bytes.len() as u64) as usize;
                bytes[i] = rng.below(256) as u8;
            }
            let (theirs, ok) = iconv(&["-f", to, "-t", "UTF-8"], &bytes);
            let (ours, err, code) = convert(&["-f", to], &bytes);
            assert_eq!(code == 0, ok, "{to} {bytes:02X?}: {err}");
            assert!(ours == theirs, "{to} {bytes:02X?}");
            let (theirs, _) = iconv(&["-c", "-f", to, "-t", "UTF-8"], &bytes);
            let (ours, _, _) = convert(&["-c", "-f", to], &bytes);
            assert!(ours == theirs, "-c {to} {bytes:02X?}");
        }
    }
    for from in ["SHIFT_JIS", "EUC-JP", "GB18030", "BIG5", "EUC-KR"] {
        let (clean, _) = iconv(
            &["-c", "-f", "UTF-8", "-t", from],
            "日本語 中文 한국어".as_bytes(),
        );
        for _ in 0..20 {
            let mut bytes = clean.clone();
            let i = rng.below(bytes.len() as u64) as usize;
            bytes[i] = rng.below(256) as u8;
            let (_, err, code) = convert(&["-f", from], &bytes);
            assert!(code == 0 || code == 1, "{from}: {err}");
            let (dropped, _, code) = convert(&["-c", "-f", from], &bytes);
            assert_eq!(code, 0);
            assert!(String::from_utf8(dropped).is_ok());
        }
    }
}

#[test]
fn list_prints_names_as_iconv_does_and_each_is_accepted() {
    let short = codec().arg("-l").output().unwrap();
    let long = codec().args(["convert", "--list"]).output().unwrap();
    let sub_short = codec().args(["convert", "-l"]).output().unwrap();
    assert!(short.status.success());
    assert_eq!(short.stdout, long.stdout);
    assert_eq!(short.stdout, sub_short.stdout);
    let list = String::from_utf8(short.stdout).unwrap();
    let names: Vec<&str> = list
        .lines()
        .map(|l| l.strip_suffix("//").unwrap())
        .collect();
    for wanted in [
        "UTF-8",
        "CP1252",
        "SHIFT_JIS",
        "GB18030",
        "KOI8-R",
        "ASCII",
        "UTF-7",
        "IBM1047",
    ] {
        assert!(names.contains(&wanted), "{wanted} not listed");
    }
    for name in names {
        let (out, err, code) = convert(&["-f", "UTF-8", "-t", name], b"abc");
        assert!(code == 0, "{name}: {err}");
        assert!(!out.is_empty(), "{name}");
    }
}

#[test]
fn from_and_to_default_to_utf8_and_from_auto_detects() {
    let (out, _, code) = convert(&[], "héllo".as_bytes());
    assert_eq!((out.as_slice(), code), ("héllo".as_bytes(), 0));
    // UTF-16 with a BOM, Russian in windows-1251, UTF-8.
    let utf16: Vec<u8> = [0xFF, 0xFE]
        .into_iter()
        .chain("Grüße aus Köln\n".encode_utf16().flat_map(u16::to_le_bytes))
        .collect();
    let (out, _, _) = convert(&["-f", "auto"], &utf16);
    assert_eq!(out, "Grüße aus Köln\n".as_bytes());
    let russian =
        "Съешь же ещё этих мягких французских булок, да выпей же чаю. В чащах юга жил бы цитрус.\n";
    let cp1251: Vec<u8> = russian
        .chars()
        .map(|c| match c {
            'а'..='я' => (c as u32 - 'а' as u32 + 0xE0) as u8,
            'А'..='Я' => (c as u32 - 'А' as u32 + 0xC0) as u8,
            'ё' => 0xB8,
            _ => c as u8,
        })
        .collect();
    let (out, err, _) = convert(&["-f", "AUTO"], &cp1251);
    assert_eq!(String::from_utf8(out).unwrap(), russian, "{err}");
}

#[test]
fn error_modes() {
    let text = "café €½\n".as_bytes();
    let run = |args: &[&str]| convert(args, text);
    // Strict: stops at é, names its input offset, line and column.
    let (out, err, code) = run(&["-t", "ASCII"]);
    assert_eq!((out.as_slice(), code), (&b"caf"[..], 1));
    assert!(
        err.contains("U+00E9") && err.contains("at byte 3 (line 1, column 4)"),
        "{err}"
    );
    assert_eq!(run(&["-t", "ASCII", "--unmappable=stop"]).2, 1);
    assert_eq!(
        run(&["-t", "ASCII", "--unmappable=replace"]).0,
        b"caf? ??\n"
    );
    assert_eq!(run(&["-t", "ASCII", "--lossy"]).0, b"caf? ??\n");
    assert_eq!(run(&["-t", "ASCII", "--unmappable=skip"]).0, b"caf \n");
    assert_eq!(run(&["-t", "ASCII", "-c"]).0, b"caf \n");
    assert_eq!(run(&["-t", "ASCII//IGNORE"]).0, b"caf \n");
    assert_eq!(
        run(&["-t", "ASCII", "--unmappable=ncr"]).0,
        b"caf&#233; &#8364;&#189;\n"
    );
    assert_eq!(
        run(&["-t", "ASCII", "--unmappable", "translit"]).0,
        b"cafe EUR1/2\n"
    );
    assert_eq!(run(&["-t", "ASCII//TRANSLIT"]).0, b"cafe EUR1/2\n");
    assert_eq!(run(&["-t", "ASCII//TRANSLIT//IGNORE"]).2, 0);
    assert_eq!(run(&["-t", "ASCII//NONSENSE"]).2, 2);
    assert_eq!(run(&["-t", "NO-SUCH-ENCODING"]).2, 2);
    // CP1252 holds é and € but not ½... it does: 0xBD.
    assert_eq!(run(&["-t", "CP1252"]).0, b"caf\xE9 \x80\xBD\n");
    // Invalid input: strict names the byte, line and column; -c drops it;
    // --lossy writes U+FFFD.
    let bad = b"ab\ncd\x81e";
    let (out, err, code) = convert(&["-f", "CP1252", "-t", "UTF-16LE"], bad);
    assert_eq!(code, 1);
    assert_eq!(out, b"a\0b\0\n\0c\0d\0");
    assert!(err.contains("at byte 5 (line 2, column 3)"), "{err}");
    assert_eq!(convert(&["-c", "-f", "CP1252"], bad).0, b"ab\ncde");
    assert_eq!(
        convert(&["--lossy", "-f", "CP1252"], bad).0,
        "ab\ncd\u{FFFD}e".as_bytes()
    );
    // Between two legacy encodings.
    assert_eq!(
        convert(&["-f", "KOI8-R", "-t", "CP1251"], b"\xF0\xD2").0,
        b"\xCF\xF0"
    );
}

#[test]
fn bom_modes_for_unicode_targets() {
    let text = b"caf\xE9"; // CP1252
    let body16: Vec<u8> = "café".encode_utf16().flat_map(u16::to_le_bytes).collect();
    for (to, bom) in [
        ("UTF-8", &b"\xEF\xBB\xBF"[..]),
        ("UTF-16LE", b"\xFF\xFE"),
        ("UTF-16BE", b"\xFE\xFF"),
        ("UTF-32LE", b"\xFF\xFE\0\0"),
        ("UTF-32BE", b"\0\0\xFE\xFF"),
        ("UCS-2", b"\xFF\xFE"),
    ] {
        let add = convert(&["-f", "CP1252", "-t", to, "--bom", "add"], text).0;
        let keep = convert(&["-f", "CP1252", "-t", to, "--bom", "keep"], text).0;
        let strip = convert(&["-f", "CP1252", "-t", to, "--bom", "strip"], text).0;
        assert!(add.starts_with(bom), "{to}");
        assert_eq!(&add[bom.len()..], keep.as_slice(), "{to}");
        assert_eq!(keep, strip, "{to}");
    }
    // UTF-16 (no order named) writes a BOM unless stripped, as iconv.
    let keep = convert(&["-f", "CP1252", "-t", "UTF-16"], text).0;
    assert_eq!(keep[..2], [0xFF, 0xFE]);
    assert_eq!(&keep[2..], body16.as_slice());
    let strip = convert(&["-f", "CP1252", "-t", "UTF-16", "--bom", "strip"], text).0;
    assert_eq!(strip, body16);
    // A BOM in the input is a signature: kept as the output's BOM, or
    // stripped; never an unmappable character for a legacy target.
    let (out, _, code) = convert(&["-t", "CP1252"], b"\xEF\xBB\xBFcaf\xC3\xA9");
    assert_eq!((out.as_slice(), code), (&text[..], 0));
    let (out, _, _) = convert(&["-t", "UTF-16LE"], b"\xEF\xBB\xBFx");
    assert_eq!(out, b"\xFF\xFEx\0");
    let (out, _, _) = convert(&["-t", "UTF-16LE", "--bom", "strip"], b"\xEF\xBB\xBFx");
    assert_eq!(out, b"x\0");
    // An error after a skipped BOM names its offset in the file.
    let (_, err, _) = convert(&["-t", "ASCII"], b"\xEF\xBB\xBFab\xC3\xA9");
    assert!(err.contains("at byte 5"), "{err}");
}

#[test]
fn output_to_dev_stdout_a_pipe_and_a_device() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("in.txt");
    fs::write(&input, "café\n").unwrap();
    let i = input.to_str().unwrap();
    // stdout is a pipe here: /dev/stdout resolves through /proc to it.
    let o = codec()
        .args(["convert", "-t", "CP1252", i, "-o", "/dev/stdout"])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert_eq!(o.stdout, b"caf\xE9\n");
    let o = codec()
        .args(["convert", "-t", "UTF-16LE", i, "-o", "/dev/null"])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
}

#[cfg(unix)]
#[test]
fn hard_links_are_kept() {
    use std::os::unix::fs::MetadataExt;
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("in.txt");
    fs::write(&input, "café\n").unwrap();
    let out = dir.path().join("out.txt");
    let link = dir.path().join("link.txt");
    fs::write(&out, "old").unwrap();
    fs::hard_link(&out, &link).unwrap();
    let inode = fs::metadata(&out).unwrap().ino();
    codec()
        .args(["convert", "-t", "CP1252", input.to_str().unwrap(), "-o"])
        .arg(&out)
        .assert()
        .code(0);
    assert_eq!(fs::metadata(&out).unwrap().ino(), inode);
    assert_eq!(fs::read(&link).unwrap(), b"caf\xE9\n");
    // A failed conversion leaves both as they were.
    fs::write(&input, "\u{20AC}\u{4E00}").unwrap();
    codec()
        .args(["convert", "-t", "ISO-8859-1", input.to_str().unwrap(), "-o"])
        .arg(&out)
        .assert()
        .code(1);
    assert_eq!(fs::read(&link).unwrap(), b"caf\xE9\n");
}

/// A writable file in a directory its user cannot write: written in
/// place. Root writes any directory, so as root the run is made as the
/// user `nobody` through `setpriv` (skipped, saying why, without it).
#[cfg(unix)]
#[test]
fn writable_file_in_an_unwritable_directory() {
    use std::os::unix::fs::PermissionsExt;
    let root = unsafe_free_geteuid() == 0;
    let setpriv = Path::new("/usr/bin/setpriv");
    if root && !setpriv.exists() {
        eprintln!("skipped: running as root without setpriv, every directory is writable");
        return;
    }
    let base = tempfile::tempdir().unwrap();
    fs::set_permissions(base.path(), fs::Permissions::from_mode(0o755)).unwrap();
    let input = base.path().join("in.txt");
    fs::write(&input, "café\n").unwrap();
    fs::set_permissions(&input, fs::Permissions::from_mode(0o644)).unwrap();
    let locked = base.path().join("locked");
    fs::create_dir(&locked).unwrap();
    let out = locked.join("out.txt");
    fs::write(&out, "old").unwrap();
    fs::set_permissions(&out, fs::Permissions::from_mode(0o666)).unwrap();
    fs::set_permissions(&locked, fs::Permissions::from_mode(0o555)).unwrap();
    let bin = env!("CARGO_BIN_EXE_codec");
    let mut cmd = if root {
        let mut c = std::process::Command::new(setpriv);
        c.args(["--reuid=65534", "--regid=65534", "--clear-groups", bin]);
        c
    } else {
        std::process::Command::new(bin)
    };
    let o = cmd
        .args(["convert", "-t", "CP1252"])
        .arg(&input)
        .arg("-o")
        .arg(&out)
        .env("TMPDIR", "/tmp")
        .output()
        .unwrap();
    fs::set_permissions(&locked, fs::Permissions::from_mode(0o755)).unwrap();
    if root && String::from_utf8_lossy(&o.stderr).contains("setpriv") {
        eprintln!(
            "skipped: setpriv cannot change user here: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        return;
    }
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert_eq!(fs::read(&out).unwrap(), b"caf\xE9\n");
}

/// The effective user id, read from /proc (no unsafe in tests).
fn unsafe_free_geteuid() -> u32 {
    fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("Uid:"))
                .and_then(|l| l.split_whitespace().nth(2).map(str::to_string))
        })
        .and_then(|u| u.parse().ok())
        .unwrap_or(u32::MAX)
}

/// Files built in several encodings (from text, not from our own output):
/// `codec detect` names each, `--mime` as `file -i` prints it, `--json`
/// and `-r` walk a tree; `validate` and `repair` hint at the command.
#[test]
fn detect_names_the_encoding_of_files_built_in_each() {
    let dir = tempfile::tempdir().unwrap();
    let text = "Grüße aus Köln, où la fête bat son plein.\n";
    let utf16le: Vec<u8> = text.encode_utf16().flat_map(u16::to_le_bytes).collect();
    let utf16be: Vec<u8> = text.encode_utf16().flat_map(u16::to_be_bytes).collect();
    let utf32le: Vec<u8> = text
        .chars()
        .flat_map(|c| (c as u32).to_le_bytes())
        .collect();
    let bom16: Vec<u8> = [0xFF, 0xFE]
        .into_iter()
        .chain(utf16le.iter().copied())
        .collect();
    let russian = "Съешь же ещё этих мягких французских булок, да выпей же чаю. В чащах юга жил бы цитрус? Да, но фальшивый экземпляр!\n".repeat(3);
    let cp1251: Vec<u8> = russian
        .chars()
        .map(|c| match c {
            'а'..='я' => (c as u32 - 'а' as u32 + 0xE0) as u8,
            'А'..='Я' => (c as u32 - 'А' as u32 + 0xC0) as u8,
            'ё' => 0xB8,
            _ => c as u8,
        })
        .collect();
    let cases: &[(&str, &[u8], &str, &str)] = &[
        (
            "ascii.txt",
            b"plain text\n",
            "ASCII (certain: all ASCII)",
            "text/plain; charset=us-ascii",
        ),
        (
            "utf8.txt",
            text.as_bytes(),
            "UTF-8 (likely: valid UTF-8)",
            "text/plain; charset=utf-8",
        ),
        (
            "bom16.txt",
            &bom16,
            "UTF-16 (certain: byte-order mark)",
            "text/plain; charset=utf-16le",
        ),
        (
            "le16.txt",
            &utf16le,
            "UTF-16LE (likely: zero bytes)",
            "text/plain; charset=utf-16le",
        ),
        (
            "be16.txt",
            &utf16be,
            "UTF-16BE (likely: zero bytes)",
            "text/plain; charset=utf-16be",
        ),
        (
            "le32.txt",
            &utf32le,
            "UTF-32LE (likely: zero bytes)",
            "text/plain; charset=utf-32le",
        ),
        (
            "ru.txt",
            &cp1251,
            "windows-1251 (guess: letter statistics)",
            "text/plain; charset=windows-1251",
        ),
        ("empty.txt", b"", "empty", "inode/x-empty; charset=binary"),
        (
            "bin.dat",
            b"\x00\x01\x02\xFF\xFE\x00\x00\x80",
            "binary",
            "application/octet-stream; charset=binary",
        ),
    ];
    for (name, bytes, line, mime) in cases {
        let path = dir.path().join(name);
        fs::write(&path, bytes).unwrap();
        let p = path.to_str().unwrap();
        let o = codec().args(["detect", p]).output().unwrap();
        assert!(o.status.success());
        assert_eq!(
            String::from_utf8(o.stdout).unwrap(),
            format!("{p}: {line}\n")
        );
        let o = codec().args(["detect", "--mime", p]).output().unwrap();
        assert_eq!(
            String::from_utf8(o.stdout).unwrap(),
            format!("{p}: {mime}\n")
        );
    }
    // What detect names, convert -f takes, and the text comes back.
    let ru = dir.path().join("ru.txt");
    let (out, _, code) = convert(&["-f", "windows-1251", ru.to_str().unwrap()], b"");
    assert_eq!(
        (String::from_utf8(out).unwrap(), code),
        (russian.clone(), 0)
    );
    // A tree, as JSON: one object a file.
    let o = codec()
        .args(["detect", "-r", "--json"])
        .arg(dir.path())
        .output()
        .unwrap();
    let lines: Vec<serde_json::Value> = String::from_utf8(o.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), cases.len());
    assert!(
        lines
            .iter()
            .any(|v| v["encoding"] == "UTF-16BE" && v["reason"] == "zero bytes")
    );
    // Hints.
    let bom = dir.path().join("bom16.txt");
    let o = codec().arg("validate").arg(&bom).output().unwrap();
    assert_eq!(o.status.code(), Some(1));
    let err = String::from_utf8(o.stderr).unwrap();
    let b = bom.to_str().unwrap();
    assert!(
        err.contains(&format!(
            "hint: looks like UTF-16LE (byte-order mark); try: codec convert -f UTF-16 -t UTF-8 {b}"
        )),
        "{err}"
    );
    let o = codec().arg("repair").arg(&ru).output().unwrap();
    let err = String::from_utf8(o.stderr).unwrap();
    assert!(
        err.contains("try: codec convert -f windows-1251 -t UTF-8"),
        "{err}"
    );
    // Valid UTF-8 and broken UTF-8 get no hint.
    let o = codec()
        .arg("validate")
        .arg(dir.path().join("utf8.txt"))
        .output()
        .unwrap();
    assert!(!String::from_utf8(o.stderr).unwrap().contains("hint"));
}
