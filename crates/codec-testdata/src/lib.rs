//! Conformance data and test harnesses shared by the codec crates' tests.
//!
//! The data lives in `testdata/conformance/` at the workspace root (copied
//! from public test suites; `testdata/conformance/README.md` gives each file's
//! provenance and licence) and is embedded here with `include_str!`, so tests
//! never depend on anything outside the repository.
//!
//! The harness functions compare any validator with `core::str::from_utf8`,
//! the oracle for every UTF-8 codec in the workspace.
//!
//! ```
//! let cases = codec_testdata::utf8_cases();
//! assert!(cases.len() > 1000);
//! for case in &cases {
//!     codec_testdata::assert_std_exact("std", &case.input, codec_testdata::std_validate(&case.input));
//! }
//! ```

// A test harness: a panic is how it reports a failure.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::unreachable
)]

use codec_core::Utf8Error;

#[cfg(target_os = "linux")]
pub mod guard;
pub mod registry;
pub mod variants;

/// Markus Kuhn's "UTF-8 decoder capability and stress test" (CC BY 4.0),
/// byte for byte.
pub const KUHN_STRESS_TEST: &[u8] = include_bytes!("../../../testdata/conformance/UTF-8-test.txt");

const UTF8_TSVS: &[(&str, &str)] = &[
    (
        "unicode_maximal_subparts.tsv",
        include_str!("../../../testdata/conformance/unicode_maximal_subparts.tsv"),
    ),
    (
        "whatwg_wpt_utf8.tsv",
        include_str!("../../../testdata/conformance/whatwg_wpt_utf8.tsv"),
    ),
    (
        "go_utf8.tsv",
        include_str!("../../../testdata/conformance/go_utf8.tsv"),
    ),
    (
        "simdutf8_utf8.tsv",
        include_str!("../../../testdata/conformance/simdutf8_utf8.tsv"),
    ),
    (
        "simdutf_utf8.tsv",
        include_str!("../../../testdata/conformance/simdutf_utf8.tsv"),
    ),
];
const VARINT_TSV: &str = include_str!("../../../testdata/conformance/varint_cases.tsv");
const ZIGZAG_TSV: &str = include_str!("../../../testdata/conformance/zigzag_cases.tsv");
const LEB128_TSV: &str = include_str!("../../../testdata/conformance/leb128_cases.tsv");

/// One UTF-8 conformance case. Fields the source does not state are `None`.
#[derive(Clone, Debug)]
pub struct Utf8Case {
    /// `file:id`.
    pub id: String,
    /// The full input bytes (prefix and suffix repetitions expanded).
    pub input: Vec<u8>,
    /// Whether the input is well-formed.
    pub valid: Option<bool>,
    /// The expected `valid_up_to`, for invalid inputs that state it.
    pub valid_up_to: Option<usize>,
    /// The expected `error_len`: `Some(None)` means `error_len() == None`.
    pub error_len: Option<Option<usize>>,
    /// The expected lossy decoding, where stated and where Rust's
    /// `from_utf8_lossy` must produce it (WHATWG rows that strip a BOM are
    /// left out).
    pub lossy: Option<String>,
    /// For streaming rows: the input's split into chunks.
    pub chunks: Option<Vec<Vec<u8>>>,
}

fn hex(s: &str) -> Vec<u8> {
    assert!(s.len().is_multiple_of(2), "odd hex {s:?}");
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).expect("hex digit"))
        .collect()
}

/// Parses a TSV: comment lines start with `#`, the first other line names the
/// columns. Returns (header, rows).
fn tsv(text: &str) -> Vec<std::collections::HashMap<&str, &str>> {
    let mut lines = text.lines().filter(|l| !l.starts_with('#'));
    let header: Vec<&str> = lines.next().expect("header").split('\t').collect();
    lines
        .filter(|l| !l.is_empty())
        .map(|l| header.iter().copied().zip(l.split('\t')).collect())
        .collect()
}

fn stated<'a>(row: &std::collections::HashMap<&str, &'a str>, col: &str) -> Option<&'a str> {
    row.get(col).copied().filter(|v| *v != "-")
}

/// Every UTF-8 conformance case: the five TSVs plus Kuhn's stress test.
pub fn utf8_cases() -> Vec<Utf8Case> {
    let mut out = Vec::new();
    for (file, text) in UTF8_TSVS {
        for row in tsv(text) {
            let repeat = |col: &str, n: &str| -> Vec<u8> {
                let unit = hex(row.get(col).copied().unwrap_or(""));
                let n: usize = row.get(n).and_then(|n| n.parse().ok()).unwrap_or(0);
                unit.repeat(n)
            };
            let mut input = repeat("prefix_hex", "prefix_repeat");
            input.extend(hex(row["input_hex"]));
            input.extend(repeat("suffix_hex", "suffix_repeat"));
            let lossy = stated(&row, "lossy_cps")
                .filter(|_| row.get("whatwg_bom").copied() != Some("strip"))
                .map(|cps| {
                    cps.split_whitespace()
                        .map(|cp| {
                            char::from_u32(u32::from_str_radix(cp, 16).expect("hex"))
                                .expect("scalar")
                        })
                        .collect()
                });
            let chunks = stated(&row, "chunks_hex")
                .filter(|c| !c.is_empty())
                .map(|c| c.split('|').map(hex).collect());
            out.push(Utf8Case {
                id: format!("{file}:{}", row["id"]),
                input,
                valid: stated(&row, "valid").map(|v| v == "1"),
                valid_up_to: stated(&row, "valid_up_to").map(|v| v.parse().expect("number")),
                error_len: stated(&row, "error_len").map(|v| v.parse().ok()),
                lossy,
                chunks,
            });
        }
    }
    out.push(Utf8Case {
        id: "UTF-8-test.txt".into(),
        input: KUHN_STRESS_TEST.to_vec(),
        valid: Some(false),
        valid_up_to: Some(4461),
        error_len: None,
        lossy: None,
        chunks: None,
    });
    out
}

/// The expected outcome of a varint conformance row.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum VarintExpect {
    /// Decodes to `value`, consuming `consumed` bytes.
    Ok,
    /// `DecodeError::Truncated`.
    Truncated,
    /// `DecodeError::Overflow`.
    Overflow,
}

/// One row of `varint_cases.tsv`.
#[derive(Clone, Debug)]
pub struct VarintCase {
    /// The row id.
    pub id: String,
    /// The input bytes.
    pub input: Vec<u8>,
    /// The API the source tested (`protowire.ConsumeVarint`, `binary.Uvarint`,
    /// `binary.Varint`, ...); `binary.Varint` rows hold zigzag-signed values.
    pub api: String,
    /// The outcome.
    pub expect: VarintExpect,
    /// The decoded value (as written: signed for `binary.Varint` rows).
    pub value: Option<i128>,
    /// Bytes consumed on success.
    pub consumed: Option<usize>,
    /// Whether `input` is the shortest encoding of `value`.
    pub canonical: Option<bool>,
    /// `1`, `len`, `roundtrip` or `0`; see the README.
    pub encode_asserted: String,
}

/// Every row of `varint_cases.tsv`.
pub fn varint_cases() -> Vec<VarintCase> {
    tsv(VARINT_TSV)
        .into_iter()
        .map(|row| VarintCase {
            id: row["id"].to_string(),
            input: hex(row["input_hex"]),
            api: row["api"].to_string(),
            expect: match row["expect"] {
                "ok" => VarintExpect::Ok,
                "truncated" => VarintExpect::Truncated,
                "overflow" => VarintExpect::Overflow,
                other => panic!("unknown expect {other:?}"),
            },
            value: stated(&row, "value").map(|v| v.parse().expect("number")),
            consumed: stated(&row, "consumed").map(|v| v.parse().expect("number")),
            canonical: stated(&row, "canonical").map(|v| v == "1"),
            encode_asserted: row["encode_asserted"].to_string(),
        })
        .collect()
}

/// Every row of `zigzag_cases.tsv`: `(signed, zigzag)`.
pub fn zigzag_cases() -> Vec<(i64, u64)> {
    tsv(ZIGZAG_TSV)
        .into_iter()
        .map(|row| {
            (
                row["signed"].parse().expect("i64"),
                row["zigzag"].parse().expect("u64"),
            )
        })
        .collect()
}

/// One row of `leb128_cases.tsv`: DWARF 5 and WebAssembly LEB128 vectors.
#[derive(Clone, Debug)]
pub struct Leb128Case {
    /// The row id.
    pub id: String,
    /// The input bytes.
    pub input: Vec<u8>,
    /// `uleb` or `sleb` (every unsigned or signed width that holds the
    /// value), or one of `u32`, `u64`, `i32`, `i64`.
    pub ty: String,
    /// `Ok` or `Overflow` (never `Truncated` in this file).
    pub expect: VarintExpect,
    /// The decoded value on success.
    pub value: Option<i128>,
    /// Bytes consumed on success.
    pub consumed: Option<usize>,
    /// Whether `input` is the shortest encoding of `value`.
    pub canonical: Option<bool>,
}

/// Every row of `leb128_cases.tsv`.
pub fn leb128_cases() -> Vec<Leb128Case> {
    tsv(LEB128_TSV)
        .into_iter()
        .map(|row| Leb128Case {
            id: row["id"].to_string(),
            input: hex(row["input_hex"]),
            ty: row["type"].to_string(),
            expect: match row["expect"] {
                "ok" => VarintExpect::Ok,
                "truncated" => VarintExpect::Truncated,
                "overflow" => VarintExpect::Overflow,
                other => panic!("unknown expect {other:?}"),
            },
            value: stated(&row, "value").map(|v| v.parse().expect("number")),
            consumed: stated(&row, "consumed").map(|v| v.parse().expect("number")),
            canonical: stated(&row, "canonical").map(|v| v == "1"),
        })
        .collect()
}

/// std's answer in our error type: the oracle.
pub fn std_validate(input: &[u8]) -> Result<(), Utf8Error> {
    core::str::from_utf8(input)
        .map(|_| ())
        .map_err(|e| Utf8Error::from_std(e, input))
}

/// Panics unless `got` is exactly what `core::str::from_utf8(input)` reports:
/// the same `valid_up_to`, `error_len` and (through `Utf8Error::at`) kind.
#[track_caller]
pub fn assert_std_exact(name: &str, input: &[u8], got: Result<(), Utf8Error>) {
    let want = std_validate(input);
    if got != want {
        let shown = &input[..input.len().min(80)];
        panic!(
            "{name}: got {got:?}, std says {want:?}, on {} bytes starting {shown:02X?}",
            input.len()
        );
    }
}

/// The environment variable that marks a test run under an emulator
/// (`cargo xtask cross` sets it for the aarch64 tests under qemu, where
/// plain code runs 1.5-10 times and SIMD code up to 100 times slower than
/// natively). Enumerations read it through [`emulated`] and shrink.
pub const EMULATED_ENV: &str = "VARCODECS_EMULATED";

/// Whether the tests run under an emulator ([`EMULATED_ENV`] is set to
/// anything but `0` or the empty string), so that exhaustive loops must
/// shrink to fit CI's time. Native runs keep every enumeration whole.
pub fn emulated() -> bool {
    std::env::var_os(EMULATED_ENV).is_some_and(|v| !v.is_empty() && v != "0")
}

/// Every byte value, in order.
pub const ALL_BYTES: [u8; 256] = {
    let mut all = [0u8; 256];
    let mut i = 0;
    while i < 256 {
        all[i] = i as u8;
        i += 1;
    }
    all
};

/// The bytes that stand for all others where a run must be short: the first
/// and last of every high nibble (`x0`, `xF`), which are the edges of every
/// range in RFC 3629's grammar (`80`, `8F`, `90`, `9F`, `A0`, `BF`, `C0`,
/// `DF`, `E0`, `EF`, `F0`, `FF`), plus the leads the grammar singles out
/// (`C1`, `C2`, `E1`, `EC`, `ED`, `EE`, `F1`, `F3`, `F4`, `F5`) and one plain
/// inner byte per class (`41`, `85`, `95`, `A5`, `B5`). Each validator in the
/// workspace treats a byte by its class (the DFA's character classes, the
/// SIMD kernels' high nibble, the table codec's ranges), and every class and
/// every high nibble is here; only the low nibble of a lead byte matters
/// beyond that, which is why enumerations keep the first byte whole.
pub const REPRESENTATIVE_BYTES: [u8; 47] = [
    0x00, 0x0F, 0x10, 0x1F, 0x20, 0x2F, 0x30, 0x3F, 0x40, 0x41, 0x4F, 0x50, 0x5F, 0x60, 0x6F, 0x70,
    0x7F, 0x80, 0x85, 0x8F, 0x90, 0x95, 0x9F, 0xA0, 0xA5, 0xAF, 0xB0, 0xB5, 0xBF, 0xC0, 0xC1, 0xC2,
    0xCF, 0xD0, 0xDF, 0xE0, 0xE1, 0xEC, 0xED, 0xEE, 0xEF, 0xF0, 0xF1, 0xF3, 0xF4, 0xF5, 0xFF,
];

/// The bytes an enumeration walks at a position that is not a lead: all 256
/// natively, [`REPRESENTATIVE_BYTES`] under emulation ([`emulated`]).
pub fn bytes() -> &'static [u8] {
    if emulated() {
        &REPRESENTATIVE_BYTES
    } else {
        &ALL_BYTES
    }
}

/// Calls `f` on every byte sequence of length 1, 2 and 3 (16.8 million in
/// all; run it in release mode or with `opt-level` raised for tests).
///
/// Under emulation ([`emulated`]) the second and third bytes run over
/// [`REPRESENTATIVE_BYTES`] only (about 578,000 sequences, 1/29 of the space); the
/// first byte stays whole. The native runs of the same tests, and `cargo
/// xtask exhaustive`, cover the whole space.
pub fn for_each_sequence_up_to_3(mut f: impl FnMut(&[u8])) {
    let later = bytes();
    for a in 0..=255u8 {
        f(&[a]);
        for &b in later {
            f(&[a, b]);
            for &c in later {
                f(&[a, b, c]);
            }
        }
    }
}

/// Invalid (and truncated) sequences of every error kind, for placing at
/// block boundaries.
pub const INVALID_SEQUENCES: &[&[u8]] = &[
    b"\x80",
    b"\xBF",
    b"\xC0\x80",
    b"\xC1\xBF",
    b"\xC2",
    b"\xC2\x41",
    b"\xDF\xC0",
    b"\xE0",
    b"\xE0\x80\x80",
    b"\xE0\x9F\xBF",
    b"\xE0\xA0",
    b"\xE0\xA0\x41",
    b"\xE1\x80",
    b"\xED\xA0\x80",
    b"\xED\xBF\xBF",
    b"\xEF\xBF",
    b"\xEF\x41",
    b"\xF0",
    b"\xF0\x80\x80\x80",
    b"\xF0\x8F\xBF\xBF",
    b"\xF0\x90",
    b"\xF0\x90\x80",
    b"\xF0\x90\x80\x41",
    b"\xF1\x80\x80",
    b"\xF4\x8F\xBF",
    b"\xF4\x90\x80\x80",
    b"\xF5\x80\x80\x80",
    b"\xF7",
    b"\xF8\x88\x80\x80\x80",
    b"\xFC\x84\x80\x80\x80\x80",
    b"\xFE",
    b"\xFF",
    b"\xC3\xA9\x80",
    b"\xE2\x82\xAC\xAC",
];

/// The prefix lengths around every SIMD block size.
pub const PREFIX_LENGTHS: &[usize] = &[0, 1, 15, 16, 17, 31, 32, 33, 63, 64, 65, 127, 128, 129];

/// Calls `f` with every invalid sequence placed after prefixes of every
/// length in [`PREFIX_LENGTHS`] (ASCII prefixes, and prefixes of 2-, 3- and
/// 4-byte characters cut to a character boundary at or below that length),
/// followed by nothing or by more text, each copied at allocation offsets
/// 0..=5.
pub fn for_each_invalid_after_prefixes(mut f: impl FnMut(&[u8])) {
    let fillers = ["a", "é", "吕", "😀"];
    let mut buf = Vec::new();
    for &seq in INVALID_SEQUENCES {
        for &len in PREFIX_LENGTHS {
            for filler in fillers {
                let mut prefix = filler.repeat(len / filler.len() + 1);
                prefix.truncate(len - len % filler.len());
                for suffix in [
                    "",
                    "tail text that is long enough to fill a whole block of 64 bytes",
                ] {
                    for offset in 0..=5 {
                        buf.clear();
                        buf.resize(offset, 0xAA);
                        buf.extend_from_slice(prefix.as_bytes());
                        buf.extend_from_slice(seq);
                        buf.extend_from_slice(suffix.as_bytes());
                        f(&buf[offset..]);
                    }
                }
            }
        }
    }
}

/// Applies `edits` to a copy of `text`: each `(position, byte)` overwrites
/// the byte at `position % len`. For quickcheck "mutated valid text"
/// properties.
pub fn mutate(text: &str, edits: &[(usize, u8)]) -> Vec<u8> {
    let mut bytes = text.as_bytes().to_vec();
    if !bytes.is_empty() {
        for &(pos, byte) in edits {
            let i = pos % bytes.len();
            bytes[i] = byte;
        }
    }
    bytes
}

/// Texts of 2-byte, 3-byte and mixed characters (with whole ASCII blocks
/// between the non-ASCII runs), each cut to at most 700 bytes at a
/// character boundary, with their character boundaries (every `step`th,
/// and the end): the places where tests insert a piece of input. 700
/// bytes cross 64-byte blocks and 256-byte checkpoint groups.
pub fn boundary_texts(step: usize) -> Vec<(Vec<u8>, Vec<usize>)> {
    let mixed = format!("{}{}", "é吕".repeat(20), "a".repeat(140));
    ["é", "吕", mixed.as_str()]
        .iter()
        .map(|fill| {
            let text = fill.repeat(700 / fill.len() + 1);
            // The last character boundary at or before 700 (the crate's
            // MSRV predates `str::floor_char_boundary`).
            let end = (0..=700)
                .rev()
                .find(|&i| text.is_char_boundary(i))
                .unwrap_or(0);
            let text = text.as_bytes()[..end].to_vec();
            let boundaries = (0..=text.len())
                .filter(|&i| i == text.len() || text[i] & 0xC0 != 0x80)
                .step_by(step)
                .collect();
            (text, boundaries)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn conformance_rows_agree_with_std() {
        let cases = utf8_cases();
        assert!(cases.len() > 1100, "{} cases", cases.len());
        for case in &cases {
            let std = core::str::from_utf8(&case.input);
            if let Some(valid) = case.valid {
                assert_eq!(std.is_ok(), valid, "{}", case.id);
            }
            if let Some(v) = case.valid_up_to {
                assert_eq!(std.unwrap_err().valid_up_to(), v, "{}", case.id);
            }
            if let Some(l) = case.error_len.filter(|_| case.valid_up_to.is_some()) {
                assert_eq!(std.unwrap_err().error_len(), l, "{}", case.id);
            }
            if let Some(lossy) = &case.lossy {
                assert_eq!(&String::from_utf8_lossy(&case.input), lossy, "{}", case.id);
            }
        }
    }

    #[test]
    fn kuhn_file_matches_reference_figures() {
        let lossy = String::from_utf8_lossy(KUHN_STRESS_TEST);
        assert_eq!(lossy.matches('\u{FFFD}').count(), 379);
        assert_eq!(
            core::str::from_utf8(KUHN_STRESS_TEST)
                .unwrap_err()
                .valid_up_to(),
            4461
        );
    }

    #[test]
    fn varint_rows_parse() {
        let rows = varint_cases();
        assert_eq!(rows.len(), 304);
        assert_eq!(zigzag_cases().len(), 13);
        assert_eq!(leb128_cases().len(), 53);
    }

    #[test]
    fn representative_bytes_cover_every_class_and_high_nibble() {
        // Sorted and distinct, so `bytes()` enumerates in order.
        assert!(REPRESENTATIVE_BYTES.windows(2).all(|w| w[0] < w[1]));
        // Every high nibble, at both ends.
        for hi in 0..16u8 {
            assert!(REPRESENTATIVE_BYTES.contains(&(hi << 4)), "{hi:X}0");
            assert!(REPRESENTATIVE_BYTES.contains(&(hi << 4 | 0xF)), "{hi:X}F");
        }
        // Every distinct "how std treats this byte after each lead" class:
        // two bytes are in one class if std gives the same answer for every
        // 2- and 3-byte sequence they end or sit in the middle of. Each
        // class must have a representative.
        let behaviour = |x: u8| -> Vec<(usize, Option<usize>)> {
            let mut out = Vec::new();
            for a in 0..=255u8 {
                for input in [[a, x, 0x80], [a, 0x80, x], [a, x, b'a']] {
                    let r = core::str::from_utf8(&input);
                    out.push(r.map_or_else(|e| (e.valid_up_to(), e.error_len()), |_| (3, None)));
                }
            }
            out
        };
        let classes: std::collections::HashSet<_> = (0..=255u8).map(behaviour).collect();
        let covered: std::collections::HashSet<_> =
            REPRESENTATIVE_BYTES.iter().map(|&b| behaviour(b)).collect();
        assert_eq!(covered.len(), classes.len());
        assert_eq!(ALL_BYTES[200], 200);
    }

    #[test]
    fn the_harness_can_fail() {
        let r = std::panic::catch_unwind(|| assert_std_exact("wrong", b"\xFF", Ok(())));
        assert!(r.is_err());
    }
}
