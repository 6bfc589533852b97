//! `cargo xtask detect-score`: how often `codec detect` and `uchardet` name
//! the encoding of labelled text.
//!
//! The set is built in a temporary directory: the text of each language
//! (the `../shared/corpora` lipsum file where present and iconv can write
//! it in the encoding, otherwise the paragraph in
//! `crates/encodings/tests/data/languages`, repeated) is cut to about
//! 100 B, 1 KiB, 16 KiB and 64 KiB and converted by glibc `iconv` into
//! every encoding listed for the language where iconv can represent it,
//! plus UTF-8 and UTF-16LE/BE with and without a byte-order mark. Each
//! file is a prefix of whole characters.
//!
//! An answer is correct when decoding the file as the answer gives the text
//! back (a leading U+FEFF ignored): the same encoding, or a superset that
//! agrees on these bytes (windows-1252 for ISO-8859-1 text without C1
//! controls, GBK for gb18030 text within GBK, KOI8-U for KOI8-R text
//! without its box-drawing bytes, UTF-8 for ASCII). Decoding is iconv's;
//! a name iconv does not know is decoded by `codec convert`. Answers that
//! need no decoding (the name of the encoding itself) are compared by name
//! first.

use crate::util::{self, Result};
use std::collections::{BTreeMap, HashMap};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// A language: the sample file stem, the lipsum corpus that replaces it
/// when `../shared` is present, and the legacy encodings (iconv names)
/// its text is written in.
struct Language {
    name: &'static str,
    corpus: Option<&'static str>,
    /// Only in `../shared/corpora` (no paragraph of our own).
    corpus_only: bool,
    encodings: &'static [&'static str],
}

const fn lang(
    name: &'static str,
    corpus: Option<&'static str>,
    encodings: &'static [&'static str],
) -> Language {
    Language {
        name,
        corpus,
        corpus_only: false,
        encodings,
    }
}

const fn corpus_only(name: &'static str, corpus: &'static str) -> Language {
    Language {
        name,
        corpus: Some(corpus),
        corpus_only: true,
        encodings: &[],
    }
}

const LANGUAGES: &[Language] = &[
    lang("arabic", Some("Arabic"), &["WINDOWS-1256", "ISO-8859-6"]),
    lang("chinese", Some("Chinese"), &["GBK", "GB18030"]),
    lang("chinese-traditional", None, &["BIG5"]),
    lang("czech", None, &["WINDOWS-1250", "ISO-8859-2"]),
    lang("english", None, &["ASCII"]),
    lang(
        "french",
        None,
        &["WINDOWS-1252", "ISO-8859-1", "ISO-8859-15", "MACINTOSH"],
    ),
    lang("german", None, &["WINDOWS-1252", "ISO-8859-1", "MACINTOSH"]),
    lang("greek", None, &["WINDOWS-1253", "ISO-8859-7"]),
    lang("hebrew", Some("Hebrew"), &["WINDOWS-1255", "ISO-8859-8"]),
    lang("hungarian", None, &["WINDOWS-1250", "ISO-8859-2"]),
    lang(
        "japanese",
        Some("Japanese"),
        &["SHIFT_JIS", "EUC-JP", "ISO-2022-JP"],
    ),
    lang("korean", Some("Korean"), &["EUC-KR"]),
    lang("lithuanian", None, &["WINDOWS-1257", "ISO-8859-13"]),
    lang("polish", None, &["WINDOWS-1250", "ISO-8859-2"]),
    lang(
        "russian",
        Some("Russian"),
        &[
            "WINDOWS-1251",
            "KOI8-R",
            "IBM866",
            "ISO-8859-5",
            "MAC-CYRILLIC",
        ],
    ),
    lang("spanish", None, &["WINDOWS-1252", "ISO-8859-1"]),
    lang("thai", None, &["CP874", "TIS-620"]),
    lang("turkish", None, &["WINDOWS-1254", "ISO-8859-9"]),
    lang("ukrainian", None, &["KOI8-U", "WINDOWS-1251"]),
    lang("vietnamese", None, &["WINDOWS-1258"]),
    corpus_only("hindi", "Hindi"),
    corpus_only("emoji", "Emoji"),
    corpus_only("latin", "Latin"),
];

/// The Unicode forms every language is also written in; a trailing `+BOM`
/// means the form's byte-order mark comes first.
const UNICODE: &[&str] = &[
    "UTF-8",
    "UTF-16LE",
    "UTF-16BE",
    "UTF-16LE+BOM",
    "UTF-16BE+BOM",
];

const SIZES: &[(usize, &str)] = &[
    (100, "100 B"),
    (1024, "1 KiB"),
    (16 << 10, "16 KiB"),
    (64 << 10, "64 KiB"),
];

/// One labelled file.
struct Sample {
    path: PathBuf,
    language: &'static str,
    encoding: &'static str,
    size: usize,
    /// The text it holds, as UTF-8.
    text: Vec<u8>,
}

pub(crate) fn run(args: &[String]) -> Result {
    let verbose = args.iter().any(|a| a == "-v" || a == "--verbose");
    if let Some(a) = args.iter().find(|a| *a != "-v" && *a != "--verbose") {
        return Err(format!("detect-score: unknown argument {a:?}"));
    }
    if Command::new("iconv").arg("--version").output().is_err() {
        return Err("detect-score needs glibc's iconv to build the set".into());
    }
    util::cargo(&["build", "--release", "-p", "codec-cli"])?;
    let codec = util::target_dir()?.join("release").join("codec");

    let dir = std::env::temp_dir().join(format!("detect-score-{}", std::process::id()));
    std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let result = score(&dir, &codec, verbose);
    let _ = std::fs::remove_dir_all(&dir);
    result
}

fn score(dir: &Path, codec: &Path, verbose: bool) -> Result {
    let (samples, sources) = build_set(dir)?;
    eprintln!("{} files in {}; {}", samples.len(), dir.display(), sources);

    let ours = codec_detect(codec, &samples)?;
    let uchardet = uchardet(&samples);
    if uchardet.is_none() {
        eprintln!("note: no uchardet on this machine: its column stays empty");
    }

    let mut decoded = HashMap::new();
    // (encoding, size) → [ours right, uchardet right, files]
    let mut table: BTreeMap<(&str, usize), [usize; 3]> = BTreeMap::new();
    let mut misses = Vec::new();
    for (i, s) in samples.iter().enumerate() {
        let ours_ok = correct(codec, s, &ours[i], &mut decoded);
        let theirs = uchardet.as_ref().map(|u| u[i].as_str());
        let theirs_ok = theirs.is_some_and(|t| correct(codec, s, t, &mut decoded));
        let cell = table.entry((s.encoding, s.size)).or_default();
        cell[0] += usize::from(ours_ok);
        cell[1] += usize::from(theirs_ok);
        cell[2] += 1;
        if !ours_ok || (verbose && !theirs_ok) {
            misses.push(format!(
                "{} {} {} B: ours {} {}, uchardet {} {}",
                s.language,
                s.encoding,
                std::fs::metadata(&s.path).map_or(0, |m| m.len()),
                ours[i],
                if ours_ok { "ok" } else { "WRONG" },
                theirs.unwrap_or("-"),
                if theirs_ok { "ok" } else { "WRONG" },
            ));
        }
    }
    print_table(&table);
    if !misses.is_empty() {
        println!(
            "\n{} (`--verbose` lists uchardet's too):",
            if verbose { "misses" } else { "our misses" }
        );
        for m in misses {
            println!("- {m}");
        }
    }
    Ok(())
}

/// The texts of each language, best first (the corpus, then our
/// paragraph), with a note on where they came from.
type Texts = Vec<(&'static Language, Vec<String>)>;

fn texts() -> Result<(Texts, String)> {
    let root = util::root();
    let corpora = root.join("../shared/corpora/lipsum");
    let paragraphs = root.join("crates/encodings/tests/data/languages");
    let mut out = Vec::new();
    let mut from_corpora = Vec::new();
    for l in LANGUAGES {
        let mut texts = Vec::new();
        if let Some(t) = l
            .corpus
            .map(|c| corpora.join(format!("{c}-Lipsum.utf8.txt")))
            .and_then(|p| std::fs::read_to_string(p).ok())
        {
            from_corpora.push(l.name);
            texts.push(t);
        }
        if !l.corpus_only {
            let p = paragraphs.join(format!("{}.txt", l.name));
            texts.push(std::fs::read_to_string(&p).map_err(|e| format!("{}: {e}", p.display()))?);
        }
        if texts.is_empty() {
            continue;
        }
        // Paragraphs repeated until the largest size is reached in any
        // encoding (one byte a character at least), lines joined by spaces.
        let texts = texts
            .into_iter()
            .map(|text| {
                // A UTF-8 BOM in the file is not part of its text.
                let text = text.trim_start_matches('\u{FEFF}');
                let text = text.split_whitespace().collect::<Vec<_>>().join(" ");
                let mut long = text.clone();
                while long.chars().count() < 2 * SIZES[SIZES.len() - 1].0 {
                    long.push(' ');
                    long.push_str(&text);
                }
                long
            })
            .collect();
        out.push((l, texts));
    }
    let note = if from_corpora.is_empty() {
        "no ../shared/corpora: every text from crates/encodings/tests/data/languages".to_string()
    } else {
        format!(
            "from ../shared/corpora: {} (our paragraph where the corpus has characters an \
             encoding lacks); the others from crates/encodings/tests/data/languages",
            from_corpora.join(", ")
        )
    };
    Ok((out, note))
}

fn build_set(dir: &Path) -> Result<(Vec<Sample>, String)> {
    let (texts, note) = texts()?;
    let mut samples = Vec::new();
    for (l, texts) in texts {
        for &encoding in l.encodings.iter().chain(UNICODE) {
            let (iconv_name, bom) = match encoding.strip_suffix("+BOM") {
                Some(form) => (
                    form,
                    if form.ends_with("LE") {
                        &b"\xFF\xFE"[..]
                    } else {
                        &b"\xFE\xFF"[..]
                    },
                ),
                None => (encoding, &b""[..]),
            };
            // The first text iconv can write at every size.
            let mut files = None;
            'texts: for text in &texts {
                let chars: Vec<(usize, char)> = text.char_indices().collect();
                let mut fits = Vec::new();
                for &(size, _) in SIZES {
                    match fit(text, &chars, iconv_name, bom, size)? {
                        Some((bytes, cut)) => fits.push((size, bytes, text[..cut].to_string())),
                        None => continue 'texts,
                    }
                }
                files = Some(fits);
                break;
            }
            let Some(files) = files else {
                eprintln!("note: {} has no {encoding} form; skipped", l.name);
                continue;
            };
            for (size, bytes, text) in files {
                let path = dir.join(format!("{}-{encoding}-{size}.txt", l.name));
                std::fs::write(&path, &bytes).map_err(|e| format!("{}: {e}", path.display()))?;
                samples.push(Sample {
                    path,
                    language: l.name,
                    encoding,
                    size,
                    text: text.into_bytes(),
                });
            }
        }
    }
    Ok((samples, note))
}

/// The longest prefix of whole characters of `text` whose `encoding` form
/// (after `bom`) fits in `size` bytes: its bytes and its length in `text`,
/// or `None` when iconv cannot write the text in that encoding.
fn fit(
    text: &str,
    chars: &[(usize, char)],
    encoding: &str,
    bom: &[u8],
    size: usize,
) -> Result<Option<(Vec<u8>, usize)>> {
    let end = |k: usize| chars.get(k).map_or(text.len(), |&(i, _)| i);
    let encode = |k: usize| -> Result<Option<Vec<u8>>> {
        Ok(
            iconv("UTF-8", encoding, &text.as_bytes()[..end(k)])?.map(|mut b| {
                b.splice(0..0, bom.iter().copied());
                b
            }),
        )
    };
    // Bytes per character, from a generous prefix, then shrink to fit.
    let probe = chars.len().min(2 * size);
    let Some(whole) = encode(probe)? else {
        return Ok(None);
    };
    let per_char = whole.len().max(1) as f64 / probe as f64;
    let mut k = ((size as f64 / per_char) as usize).min(probe);
    loop {
        let Some(bytes) = encode(k)? else {
            return Ok(None);
        };
        if bytes.len() <= size || k == 0 {
            return Ok(Some((bytes, end(k))));
        }
        let over = (bytes.len() - size) as f64 / per_char;
        k -= (over.ceil() as usize).clamp(1, k);
    }
}

/// `iconv -f from -t to` of `input`: `None` when it cannot convert it;
/// an error when iconv cannot be run.
fn iconv(from: &str, to: &str, input: &[u8]) -> Result<Option<Vec<u8>>> {
    let out = pipe(Command::new("iconv").args(["-f", from, "-t", to]), input)?;
    Ok(out.status.success().then_some(out.stdout))
}

fn pipe(cmd: &mut Command, input: &[u8]) -> Result<std::process::Output> {
    let mut child = cmd
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("{cmd:?}: {e}"))?;
    let mut stdin = child.stdin.take().expect("piped stdin");
    let data = input.to_vec();
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(&data);
    });
    let out = child
        .wait_with_output()
        .map_err(|e| format!("{cmd:?}: {e}"))?;
    let _ = writer.join();
    Ok(out)
}

/// `codec detect --json` on every file in one run: the encoding named for
/// each, in order.
fn codec_detect(codec: &Path, samples: &[Sample]) -> Result<Vec<String>> {
    let out = Command::new(codec)
        .arg("detect")
        .arg("--json")
        .args(samples.iter().map(|s| &s.path))
        .output()
        .map_err(|e| format!("{}: {e}", codec.display()))?;
    let by_path: HashMap<String, String> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .filter_map(|v| Some((v["path"].as_str()?.into(), v["encoding"].as_str()?.into())))
        .collect();
    samples
        .iter()
        .map(|s| {
            by_path
                .get(&*s.path.to_string_lossy())
                .cloned()
                .ok_or_else(|| format!("codec detect said nothing of {}", s.path.display()))
        })
        .collect()
}

/// `uchardet FILE…`'s answer for each file, or `None` without uchardet.
fn uchardet(samples: &[Sample]) -> Option<Vec<String>> {
    let out = Command::new("uchardet")
        .args(samples.iter().map(|s| &s.path))
        .output()
        .ok()?;
    let text = String::from_utf8_lossy(&out.stdout);
    let by_path: HashMap<&str, &str> = text.lines().filter_map(|l| l.rsplit_once(": ")).collect();
    Some(
        samples
            .iter()
            .map(|s| {
                by_path
                    .get(&*s.path.to_string_lossy())
                    .map_or_else(|| "-".to_string(), |a| a.to_string())
            })
            .collect(),
    )
}

/// Names compared without case, `_` and `-` (`Shift_JIS`, `SHIFT-JIS`).
fn same_name(a: &str, b: &str) -> bool {
    let key = |s: &str| {
        s.chars()
            .filter(|c| c.is_ascii_alphanumeric())
            .map(|c| c.to_ascii_lowercase())
            .collect::<String>()
    };
    key(a) == key(b)
}

/// Whether `answer` keeps `s`'s text: its name, or a decoding equal to the
/// text (a leading U+FEFF ignored).
fn correct(
    codec: &Path,
    s: &Sample,
    answer: &str,
    decoded: &mut HashMap<(PathBuf, String), bool>,
) -> bool {
    if same_name(answer, s.encoding) {
        return true;
    }
    if answer.is_empty() || answer == "-" {
        return false;
    }
    *decoded
        .entry((s.path.clone(), answer.to_string()))
        .or_insert_with(|| {
            let Ok(bytes) = std::fs::read(&s.path) else {
                return false;
            };
            let iconv_out = pipe(
                Command::new("iconv").args(["-f", answer, "-t", "UTF-8"]),
                &bytes,
            );
            let text = match iconv_out {
                Ok(out) if out.status.success() => out.stdout,
                // iconv does not know the name (or fails): our decoder.
                _ => match pipe(
                    Command::new(codec).args(["convert", "-f", answer, "-t", "UTF-8"]),
                    &bytes,
                ) {
                    Ok(out) if out.status.success() => out.stdout,
                    _ => return false,
                },
            };
            text.strip_prefix("\u{FEFF}".as_bytes()).unwrap_or(&text) == s.text
        })
}

fn print_table(table: &BTreeMap<(&str, usize), [usize; 3]>) {
    let mut encodings: Vec<&str> = table.keys().map(|&(e, _)| e).collect();
    encodings.dedup();
    print!("| encoding |");
    for (_, name) in SIZES {
        print!(" {name}: ours | {name}: uchardet |");
    }
    println!();
    print!("|---|");
    for _ in SIZES {
        print!("---:|---:|");
    }
    println!();
    // All files, then the legacy encodings alone (every language has its
    // UTF-8 and four UTF-16 forms, which would otherwise dominate).
    let mut totals = vec![[[0usize; 3]; 2]; SIZES.len()];
    for e in encodings {
        print!("| {e} |");
        for (i, &(size, _)) in SIZES.iter().enumerate() {
            match table.get(&(e, size)) {
                Some(c) => {
                    print!(" {}/{} | {}/{} |", c[0], c[2], c[1], c[2]);
                    for j in 0..3 {
                        totals[i][0][j] += c[j];
                        if !e.starts_with("UTF-") {
                            totals[i][1][j] += c[j];
                        }
                    }
                }
                None => print!(" – | – |"),
            }
        }
        println!();
    }
    for (k, name) in ["all", "legacy (not UTF-8/16)"].iter().enumerate() {
        print!("| **{name}** |");
        for t in &totals {
            let t = t[k];
            print!(
                " **{}/{}** ({:.0}%) | **{}/{}** ({:.0}%) |",
                t[0],
                t[2],
                100.0 * t[0] as f64 / t[2].max(1) as f64,
                t[1],
                t[2],
                100.0 * t[1] as f64 / t[2].max(1) as f64
            );
        }
        println!();
    }
}
