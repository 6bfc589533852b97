//! The parallel path of `codec convert` for the pairs that go through the
//! encodings crate's `Converter` (a single-byte page to or from UTF-8 and
//! UTF-16, UTF-8 to a page) against the one-thread path: the same stdout,
//! stderr (the first error's byte offset, line and column) and exit
//! status, strict and in the other error modes, on files cut into regions
//! every few dozen bytes (`--parallel-min 1`, `-j 2`), mapped and read; and
//! against glibc's iconv where it is installed.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use assert_cmd::Command;
use std::fs;
use std::path::Path;

mod common;
use common::Rng;

/// stdout, stderr, exit status.
type Outcome = (Vec<u8>, String, i32);

fn run(args: &[&str], file: &Path) -> Outcome {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_codec"));
    // A deadlock fails the test instead of hanging it.
    cmd.timeout(std::time::Duration::from_secs(300));
    cmd.arg("convert").args(args).arg(file);
    let got = cmd.output().unwrap();
    (
        got.stdout,
        String::from_utf8(got.stderr).unwrap(),
        got.status
            .code()
            .unwrap_or_else(|| panic!("codec convert {args:?} was killed (a deadlock?)")),
    )
}

/// Russian text with Latin, digits and line breaks: from ../shared when
/// present, else built in.
fn russian() -> String {
    let shared = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../../shared/corpora/lipsum/Russian-Lipsum.utf8.txt");
    let text = fs::read_to_string(shared).unwrap_or_else(|_| {
        "Лорем ипсум долор сит амет, ет яуи ессе цонсулату.\nТе нец малорум. 1234 abc\r\n"
            .repeat(40)
    });
    text.chars().take(6000).collect()
}

/// Vietnamese with its tones (CP1258 writes most letters as a letter and
/// a mark, which glibc's decoder composes again), and pointed Hebrew
/// (CP1255: shin with dagesh and shin dot, three bytes) after the Hebrew
/// of ../shared when present.
fn vietnamese() -> String {
    "Tiếng Việt có dấu: Ǹ ệ ạ ả ấ ầ ẩ ẫ ậ ắ ằ ẳ ẵ ặ ố ồ ổ ỗ ộ ớ ờ ở ỡ ợ ứ ừ ử ữ ự ý ỳ ỷ ỹ ỵ, \
     Ṍ ṍ. Xin chào thế giới!\r\n"
        .repeat(60)
}

fn hebrew() -> String {
    let shared = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../../shared/corpora/lipsum/Hebrew-Lipsum.utf8.txt");
    let text: String = fs::read_to_string(shared)
        .unwrap_or_default()
        .chars()
        .take(2000)
        .collect();
    format!(
        "{text}\n{}",
        "שָׁלוֹם בְּרֵאשִׁית \u{FB2C}\u{FB2D}\u{FB31} עַם.\n".repeat(60)
    )
}

/// Lipsum text in a language of ../shared, or a built-in line (with
/// spaces and line breaks, where the CJK inputs may be cut).
fn cjk(language: &str) -> String {
    let shared = Path::new(env!("CARGO_MANIFEST_DIR")).join(format!(
        "../../../shared/corpora/lipsum/{language}-Lipsum.utf8.txt"
    ));
    let text = fs::read_to_string(shared).unwrap_or_else(|_| {
        match language {
            "Japanese" => "日本語の文章です。カタカナ ｶﾀｶﾅ 1234\n",
            "Korean" => "한국어 문장입니다. 1234\n",
            _ => "中文的句子。 1234\n",
        }
        .repeat(200)
    });
    // The characters every one of the CJK encodings here can hold.
    text.chars()
        .filter(|c| {
            let s = c.to_string();
            encodings::Encoding::for_label(match language {
                "Japanese" => "SHIFT_JIS",
                "Korean" => "EUC-KR",
                _ => "BIG5",
            })
            .unwrap()
            .encode_to_vec(&s, encodings::EncodeMode::Strict)
            .is_ok()
                && (language != "Japanese"
                    || encodings::Encoding::for_label("EUC-JP")
                        .unwrap()
                        .encode_to_vec(&s, encodings::EncodeMode::Strict)
                        .is_ok())
        })
        .take(4000)
        .collect()
}

/// The page's bytes of `text` (every character of `russian()` is in
/// CP1251 and KOI8-R).
fn encode(text: &str, to: &str) -> Vec<u8> {
    encodings::Encoding::for_label(to)
        .unwrap()
        .encode_to_vec(text, encodings::EncodeMode::Strict)
        .unwrap()
}

/// `text` with an emoji in gb18030 (four bytes) after every line, and
/// every third line ending in `81 30 81` before its line break.
fn gb18030_with_broken_forms(text: &str) -> Vec<u8> {
    let mut out = Vec::new();
    for (i, line) in text.split_inclusive('\n').enumerate() {
        out.extend(encode(&format!("{line}😀"), "GB18030"));
        if i % 3 == 0 {
            out.extend_from_slice(b"\x81\x30\x81\n");
        }
    }
    out
}

#[test]
fn regions_convert_like_one_thread() {
    let text = russian();
    let dir = tempfile::tempdir().unwrap();
    let mut rng = Rng(2026);
    // (from, to, how the input is made, the error modes tried)
    let utf8 = text.as_bytes().to_vec();
    // Text with characters CP1251 cannot hold, for the encoder's errors.
    let mixed = format!("{text}€日本😀 ёЁ").repeat(2);
    let cases: Vec<(&str, &str, Vec<u8>)> = vec![
        ("CP1251", "UTF-8", encode(&text, "CP1251")),
        ("KOI8-R", "UTF-16LE", encode(&text, "KOI8-R")),
        ("CP1251", "UTF-16", encode(&text, "CP1251")),
        ("UTF-8", "CP1251", utf8.clone()),
        ("UTF-8", "CP1251", mixed.clone().into_bytes()),
        ("UTF-8", "KOI8-R", mixed.into_bytes()),
        ("ISO-8859-5", "UTF-32LE", encode(&text, "ISO-8859-5")),
        // glibc's composing pages: never cut between a letter and its marks.
        ("CP1258", "UTF-8", encode(&vietnamese(), "CP1258")),
        ("UTF-8", "CP1258", vietnamese().into_bytes()),
        ("CP1255", "UTF-16LE", encode(&hebrew(), "CP1255")),
        ("UTF-8", "CP1255", hebrew().into_bytes()),
        ("SHIFT_JIS", "UTF-8", encode(&cjk("Japanese"), "SHIFT_JIS")),
        ("EUC-JP", "UTF-16LE", encode(&cjk("Japanese"), "EUC-JP")),
        ("EUC-KR", "UTF-8", encode(&cjk("Korean"), "EUC-KR")),
        ("BIG5", "UTF-8", encode(&cjk("Chinese"), "BIG5")),
        (
            "UTF-8",
            "SHIFT_JIS",
            format!("{}Ж€", cjk("Japanese")).into_bytes(),
        ),
        // gb18030's four-byte forms, and a broken one (`81 30 81` before a
        // space) whose bytes after the lead are read again, in every region.
        (
            "GB18030",
            "UTF-8",
            gb18030_with_broken_forms(&cjk("Chinese")),
        ),
        ("GBK", "UTF-16LE", encode(&cjk("Chinese"), "GBK")),
        (
            "UTF-8",
            "GB18030",
            format!("{}😀Ж€", cjk("Chinese")).into_bytes(),
        ),
    ];
    let modes: [&[&str]; 5] = [
        &[],
        &["--lossy"],
        &["-c"],
        &["--unmappable=ncr"],
        &["--bom=add"],
    ];
    let mut compared = 0;
    for (from, to, clean) in &cases {
        for round in 0..4 {
            let mut input = clean.clone();
            // Rounds 1 and 3: a few bytes undefined in the page or
            // invalid UTF-8 (0x98 is undefined in CP1251 for glibc).
            if round % 2 == 1 {
                for _ in 0..3 {
                    let i = rng.below(input.len() as u64) as usize;
                    input[i] = [0x98, 0xFF, 0x80, 0xC3][rng.below(4) as usize];
                }
            }
            let path = dir.path().join(format!("in-{from}-{to}-{round}"));
            fs::write(&path, &input).unwrap();
            for mode in modes {
                let mut base = vec!["-f", from, "-t", to];
                base.extend_from_slice(mode);
                let one = run(&[&base[..], &["-j", "1"]].concat(), &path);
                let chunk = ["7", "64", "1000", "262144"][round];
                for map in [["--map-min", "1"], ["--no-map", "--no-progress"]] {
                    let args = [
                        &base[..],
                        &["-j", "2", "--parallel-min", "1", "--chunk-size", chunk],
                        &map[..],
                    ]
                    .concat();
                    let two = run(&args, &path);
                    assert_eq!(
                        (&two.1, two.2),
                        (&one.1, one.2),
                        "{args:?} on {}: stderr and status",
                        path.display()
                    );
                    assert!(two.0 == one.0, "{args:?} on {}: stdout", path.display());
                    compared += 1;
                }
            }
        }
    }
    assert_eq!(compared, cases.len() * 4 * modes.len() * 2);
}

#[test]
fn the_parallel_path_writes_what_iconv_writes() {
    if std::process::Command::new("iconv")
        .arg("--version")
        .output()
        .is_err()
    {
        eprintln!("skipped: no iconv program on this machine");
        return;
    }
    let text = russian();
    let dir = tempfile::tempdir().unwrap();
    let pages = [
        ("CP1251", text.clone()),
        ("KOI8-R", text.clone()),
        ("ISO-8859-5", text.clone()),
        ("CP866", text),
        ("CP1258", vietnamese()),
        ("CP1255", hebrew()),
    ];
    for (page, text) in &pages {
        let page = *page;
        let utf8 = dir.path().join(format!("{page}.utf8"));
        fs::write(&utf8, text.as_bytes()).unwrap();
        let paged = dir.path().join(format!("text.{page}"));
        let bytes = encode(text, page);
        if matches!(page, "CP1258" | "CP1255") {
            // Letters written decomposed, so the decoder composes.
            assert!(bytes.len() > text.chars().count(), "{page}");
        }
        fs::write(&paged, bytes).unwrap();
        for (from, to, file) in [(page, "UTF-8", &paged), ("UTF-8", page, &utf8)] {
            let iconv = std::process::Command::new("iconv")
                .args(["-f", from, "-t", to])
                .arg(file)
                .output()
                .unwrap();
            assert!(iconv.status.success());
            let ours = run(
                &[
                    "-f",
                    from,
                    "-t",
                    to,
                    "-j",
                    "2",
                    "--parallel-min",
                    "1",
                    "--map-min",
                    "1",
                ],
                file,
            );
            assert_eq!(ours.2, 0, "{from} -> {to}: {}", ours.1);
            assert!(ours.0 == iconv.stdout, "{from} -> {to} differs from iconv");
        }
    }
}
