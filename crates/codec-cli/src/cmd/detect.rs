//! `codec detect`: which encoding each file is in, and how sure, from its
//! first 64 KiB (the encodings crate's `Encoding::detect`: a BOM, the zero
//! bytes of UTF-16/32, UTF-16 of other scripts, ISO-2022-JP's escapes,
//! ASCII, valid UTF-8, then chardetng's guess); and
//! the hint `validate` and `repair` give for a file that is not UTF-8.

use super::inputs::{self, Input};
use super::{Status, progress::WalkSpinner};
use crate::cli::DetectArgs;
use crate::names;
use encodings::{Confidence, Detection, Encoding, Reason};
use serde_json::{Map, Value};
use std::fs::File;
use std::io::{self, BufWriter, Read, Write};
use std::path::Path;

/// How much of a file is looked at.
pub(crate) const HEAD_BYTES: u64 = 64 << 10;

/// What one input looks like.
struct Found {
    detection: Detection,
    /// Empty input.
    empty: bool,
    /// NUL bytes outside UTF-16/32: not text.
    binary: bool,
    /// The BOM's byte order, for `UTF-16`/`UTF-32` found by their BOM.
    bom_order: Option<&'static str>,
}

fn look(head: &[u8]) -> Found {
    let detection = Encoding::detect(head);
    let binary = head.contains(&0)
        && !matches!(
            detection.reason,
            Reason::Bom | Reason::ZeroBytes | Reason::Utf16Units
        );
    let bom_order = match head {
        [0xFF, 0xFE, 0, 0, ..] | [0xFF, 0xFE, ..] => Some("LE"),
        [0, 0, 0xFE, 0xFF, ..] | [0xFE, 0xFF, ..] => Some("BE"),
        _ => None,
    }
    .filter(|_| detection.reason == Reason::Bom && detection.encoding.name() != "UTF-8");
    Found {
        detection,
        empty: head.is_empty(),
        binary,
        bom_order,
    }
}

fn confidence(c: Confidence) -> &'static str {
    match c {
        Confidence::Certain => "certain",
        Confidence::Likely => "likely",
        Confidence::Guess => "guess",
    }
}

fn reason(r: Reason) -> &'static str {
    match r {
        Reason::Bom => "byte-order mark",
        Reason::Ascii => "all ASCII",
        Reason::Utf8 => "valid UTF-8",
        Reason::ZeroBytes => "zero bytes",
        Reason::Statistics => "letter statistics",
        Reason::Utf16Units => "UTF-16 code units",
        Reason::Escapes => "ISO-2022 escapes",
        _ => "detected",
    }
}

/// The charset as `file -i` names it (lower case; `us-ascii`; UTF-16 with
/// a BOM as `utf-16le`/`utf-16be`), with its MIME type.
fn mime(f: &Found) -> String {
    if f.empty {
        return "inode/x-empty; charset=binary".to_string();
    }
    if f.binary {
        return "application/octet-stream; charset=binary".to_string();
    }
    let name = f.detection.encoding.name();
    let charset = match (name, f.bom_order) {
        ("ANSI_X3.4-1968", _) => "us-ascii".to_string(),
        (n, Some(order)) => format!("{n}{order}").to_ascii_lowercase(),
        (n, None) => n.to_ascii_lowercase(),
    };
    format!("text/plain; charset={charset}")
}

/// The name `codec convert -f` takes for it.
fn convert_name(e: Encoding) -> &'static str {
    match e.name() {
        "ANSI_X3.4-1968" => "ASCII",
        n => n,
    }
}

pub(super) fn run(args: &DetectArgs) -> io::Result<Status> {
    let mut out = BufWriter::new(io::stdout().lock());
    let mut status = Status::default();
    let spinner = WalkSpinner::new(false);
    inputs::for_each(&args.input, |input| {
        let (name, os_name, result) = match input {
            Ok(input) => {
                let result = input.open().and_then(|opened| {
                    let mut head = Vec::new();
                    opened
                        .into_reader()
                        .take(HEAD_BYTES)
                        .read_to_end(&mut head)?;
                    Ok(head)
                });
                let os_name = match &input {
                    Input::File(p) => p.as_os_str().to_owned(),
                    Input::Stdin => inputs::STDIN_NAME.into(),
                };
                (input.name(), os_name, result)
            }
            Err(u) => (u.name(), u.path.into_os_string(), Err(u.error)),
        };
        match result {
            Ok(head) => {
                let f = look(&head);
                let d = f.detection;
                if args.json {
                    let mut record = Map::new();
                    names::json_fields(&os_name, &mut record);
                    record.insert("encoding".into(), convert_name(d.encoding).into());
                    record.insert("confidence".into(), confidence(d.confidence).into());
                    record.insert("reason".into(), reason(d.reason).into());
                    record.insert("mime".into(), mime(&f).into());
                    writeln!(out, "{}", Value::Object(record))?;
                } else if args.mime {
                    writeln!(out, "{name}: {}", mime(&f))?;
                } else if f.empty {
                    writeln!(out, "{name}: empty")?;
                } else if f.binary {
                    writeln!(out, "{name}: binary")?;
                } else {
                    writeln!(
                        out,
                        "{name}: {} ({}: {})",
                        convert_name(d.encoding),
                        confidence(d.confidence),
                        reason(d.reason)
                    )?;
                }
            }
            Err(e) => {
                status.failed = true;
                out.flush()?;
                spinner.suspend(|| super::error_line(format_args!("{name}: {e}")));
            }
        }
        Ok(())
    })?;
    spinner.finish();
    out.flush()?;
    Ok(status)
}

/// For a file that is not valid UTF-8: what it looks like and the
/// `convert` command that would keep its text, or `None` if it looks like
/// (broken) UTF-8 or binary data.
pub(crate) fn hint(path: &Path) -> Option<String> {
    // Only a regular file can be read a second time: opening a FIFO again
    // would wait for a writer that has gone (validate -a reads FIFOs).
    if !std::fs::metadata(path).is_ok_and(|m| m.is_file()) {
        return None;
    }
    let mut head = Vec::new();
    File::open(path)
        .ok()?
        .take(HEAD_BYTES)
        .read_to_end(&mut head)
        .ok()?;
    let f = look(&head);
    let d = f.detection;
    if f.binary || f.empty || matches!(d.reason, Reason::Ascii | Reason::Utf8) {
        return None;
    }
    if d.encoding == Encoding::UTF_8 || (d.reason == Reason::Statistics && broken_utf8(&head)) {
        return None;
    }
    let from = convert_name(d.encoding);
    let shown = match f.bom_order {
        Some(order) => format!("{from}{order}"),
        None => from.to_string(),
    };
    let path = names::escape(path.as_os_str());
    Some(format!(
        "hint: looks like {shown} ({}{}); try: codec convert -f {from} -t UTF-8 {path}",
        reason(d.reason),
        if d.confidence == Confidence::Guess {
            ", a guess"
        } else {
            ""
        }
    ))
}

/// Whether every invalid piece of `bytes` as UTF-8 is shaped like UTF-8 (a
/// lead byte with its continuation bytes: a surrogate, an overlong form, a
/// cut character): broken UTF-8, not legacy text, whose high bytes rarely
/// fall in that pattern (`café` in Latin-1 is `E9` then `\n`).
fn broken_utf8(bytes: &[u8]) -> bool {
    let mut rest = bytes;
    loop {
        match std::str::from_utf8(rest) {
            Ok(_) => return true,
            Err(e) => {
                let bad = &rest[e.valid_up_to()..];
                let needed = match bad[0] {
                    0xC0..=0xDF => 1,
                    0xE0..=0xEF => 2,
                    0xF0..=0xF7 => 3,
                    _ => return false,
                };
                let tail = bad.get(1..=needed).unwrap_or(&bad[1..]);
                if !tail.iter().all(|&b| (0x80..=0xBF).contains(&b)) {
                    return false;
                }
                rest = &bad[(1 + tail.len()).min(bad.len())..];
            }
        }
    }
}
