//! Python's `'utf-8', 'surrogatepass'` codec as an independent oracle of
//! generalized UTF-8 (UTF-8 plus surrogates, each on its own): from its
//! decoding of each input (or of the part before its first error) the test
//! works out what WTF-8, CESU-8 and MUTF-8 must answer, and compares.
//!
//! Skipped, with a message, where `python3` cannot be run.
// Test helpers unwrap and panic: that is how a test fails.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use common::interesting;
use rand::{SeedableRng, rngs::StdRng};
use std::io::Write;
use std::process::{Command, Stdio};
use utf8_variants::{ErrorKind, Variant, wtf8};

/// Decodes each line (hex) with `surrogatepass`; prints `ok` and the code
/// points, or `err`, the error's start and end, whether the input ended
/// (`end`) or a byte was wrong (`bad`), and the code points before it.
const SCRIPT: &str = r#"
import sys
def cps(s):
    return " ".join("%X" % ord(c) for c in s)
for line in sys.stdin:
    b = bytes.fromhex(line.strip())
    try:
        print("ok|" + cps(b.decode("utf-8", "surrogatepass")))
    except UnicodeDecodeError as e:
        why = "end" if "end of data" in e.reason else "bad"
        before = b[:e.start].decode("utf-8", "surrogatepass")
        print("err|%d|%d|%s|%s" % (e.start, e.end, why, cps(before)))
"#;

/// Python's answer for one input.
#[derive(Debug)]
struct Answer {
    /// The code points decoded (before the error, if any).
    cps: Vec<u32>,
    /// `(start, end, input ended)` of the error.
    error: Option<(usize, usize, bool)>,
}

fn ask_python(inputs: &[Vec<u8>]) -> Option<Vec<Answer>> {
    let mut child = match Command::new("python3")
        .args(["-c", SCRIPT])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
    {
        Ok(c) => c,
        Err(e) => {
            eprintln!("skipping the Python oracle: cannot run python3 ({e})");
            return None;
        }
    };
    let mut stdin = child.stdin.take().unwrap();
    let text: String = inputs
        .iter()
        .map(|i| i.iter().map(|b| format!("{b:02x}")).collect::<String>() + "\n")
        .collect();
    let writer = std::thread::spawn(move || stdin.write_all(text.as_bytes()));
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap().unwrap();
    assert!(out.status.success(), "python3 failed");
    let parse = |s: &str| -> Vec<u32> {
        s.split(' ')
            .filter(|c| !c.is_empty())
            .map(|c| u32::from_str_radix(c, 16).unwrap())
            .collect()
    };
    let answers: Vec<Answer> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| {
            let f: Vec<&str> = l.split('|').collect();
            match f[0] {
                "ok" => Answer {
                    cps: parse(f[1]),
                    error: None,
                },
                _ => Answer {
                    cps: parse(f[4]),
                    error: Some((f[1].parse().unwrap(), f[2].parse().unwrap(), f[3] == "end")),
                },
            }
        })
        .collect();
    assert_eq!(answers.len(), inputs.len());
    Some(answers)
}

fn is_lead(c: u32) -> bool {
    (0xD800..=0xDBFF).contains(&c)
}

fn is_trail(c: u32) -> bool {
    (0xDC00..=0xDFFF).contains(&c)
}

/// The length of `c` in generalized UTF-8.
fn len(c: u32) -> usize {
    match c {
        0..=0x7F => 1,
        0x80..=0x7FF => 2,
        0x800..=0xFFFF => 3,
        _ => 4,
    }
}

/// What an encoding must answer, worked out from Python's decoding.
#[derive(Debug, PartialEq)]
struct Expected {
    valid_up_to: Option<usize>,
    /// `None`: do not compare (Python's piece differs by design there).
    error_len: Option<Option<usize>>,
    kind: Option<ErrorKind>,
}

const VALID: Expected = Expected {
    valid_up_to: None,
    error_len: None,
    kind: None,
};

fn error(at: usize, len: Option<Option<usize>>, kind: Option<ErrorKind>) -> Expected {
    Expected {
        valid_up_to: Some(at),
        error_len: len,
        kind,
    }
}

fn expected(v: Variant, input: &[u8], a: &Answer) -> Expected {
    let paired = v != Variant::Wtf8;
    let mut at = 0;
    let mut k = 0;
    while k < a.cps.len() {
        let c = a.cps[k];
        let next = a.cps.get(k + 1).copied();
        if paired && len(c) == 4 {
            return error(at, Some(Some(1)), Some(ErrorKind::FourByteForm));
        }
        if v == Variant::Mutf8 && c == 0 {
            return error(at, Some(Some(1)), Some(ErrorKind::Nul));
        }
        if !paired && is_lead(c) && next.is_some_and(is_trail) {
            return error(at + 3, Some(Some(1)), Some(ErrorKind::SurrogatePair));
        }
        if paired && is_trail(c) {
            return error(at, Some(Some(1)), Some(ErrorKind::UnpairedSurrogate));
        }
        if paired && is_lead(c) {
            match next {
                Some(t) if is_trail(t) => {
                    at += 6;
                    k += 2;
                    continue;
                }
                Some(_) => return error(at, Some(Some(3)), Some(ErrorKind::UnpairedSurrogate)),
                // The lead is the last code point Python decoded: what
                // follows (an error, or the end) decides the piece.
                None if a.error.is_none() => {
                    return error(at, Some(None), Some(ErrorKind::Incomplete));
                }
                None => return error(at, None, None),
            }
        }
        at += len(c);
        k += 1;
    }
    let Some((start, end, ended)) = a.error else {
        return VALID;
    };
    assert_eq!(at, start, "Python's code points end at its error");
    let piece = &input[start..];
    if paired && matches!(piece[0], 0xF0..=0xF4) {
        return error(start, Some(Some(1)), Some(ErrorKind::FourByteForm));
    }
    // Python tries surrogatepass on three bytes after strict UTF-8 failed at
    // `ED A0..=BF`, so its piece there is strict UTF-8's (`ED`, 1 byte) where
    // generalized UTF-8's is longer; and a 2-byte piece cut short by the end
    // is reported on the first byte.
    let surrogate_piece = piece.len() > 1 && piece[0] == 0xED && piece[1] >= 0xA0;
    if surrogate_piece || (v == Variant::Mutf8 && piece[0] == 0xC0) {
        return error(start, None, None);
    }
    let len = if ended { None } else { Some(end - start) };
    error(start, Some(len), None)
}

#[test]
fn python_surrogatepass_agrees() {
    let mut rng = StdRng::seed_from_u64(0x9e7);
    let inputs: Vec<Vec<u8>> = (0..20_000)
        .map(|i| interesting(&mut rng, 1 + i % 18))
        .collect();
    let Some(answers) = ask_python(&inputs) else {
        return;
    };
    let mut compared = [0usize; 3];
    for (input, a) in inputs.iter().zip(&answers) {
        for (i, v) in [Variant::Wtf8, Variant::Cesu8, Variant::Mutf8]
            .into_iter()
            .enumerate()
        {
            // Python knows nothing of C0 80.
            if v == Variant::Mutf8 && input.contains(&0xC0) {
                continue;
            }
            let want = expected(v, input, a);
            let got = v.validate(input);
            match (&want.valid_up_to, got) {
                (None, Ok(())) => {
                    if v == Variant::Wtf8 {
                        // And WTF-8 to UTF-16 is Python's code points in
                        // UTF-16 (surrogates as themselves).
                        let mut units = Vec::new();
                        for &c in &a.cps {
                            match char::from_u32(c) {
                                Some(ch) => units.extend_from_slice(ch.encode_utf16(&mut [0; 2])),
                                None => units.push(c as u16),
                            }
                        }
                        assert_eq!(wtf8::to_utf16_vec(input), Ok(units), "{input:02X?}");
                    }
                }
                (Some(at), Err(e)) => {
                    assert_eq!(e.valid_up_to(), *at, "{v} {input:02X?} {a:?}");
                    if let Some(len) = want.error_len {
                        assert_eq!(e.error_len(), len, "{v} {input:02X?} {a:?}");
                    }
                    if let Some(kind) = want.kind {
                        assert_eq!(e.kind(), kind, "{v} {input:02X?} {a:?}");
                    }
                }
                (_, got) => panic!("{v} {input:02X?}: got {got:?}, Python says {a:?}"),
            }
            compared[i] += 1;
        }
    }
    eprintln!("Python oracle: {compared:?} inputs compared (WTF-8, CESU-8, MUTF-8)");
    assert!(compared.iter().all(|&n| n > 5000));
}
