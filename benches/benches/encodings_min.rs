//! The encodings crate against encoding_rs, timed by the minimum over
//! interleaved rounds (as the other `*_min` benches): legacy single-byte
//! and CJK text decoded to UTF-8 and UTF-16 and encoded from UTF-8, in GB/s
//! of the legacy side, with the ratio to encoding_rs in the same run.
//!
//! `cargo bench -p benches --bench encodings_min [rounds] [filter]...`
//! (default 200, `--quick` 3; a filter keeps the rows whose input and
//! direction, `windows-1251 Russian | → UTF-8`, contain it; the other
//! arguments of `benches::harness::Args` work too; `--svg PATH` writes the
//! ratios to encoding_rs as a chart, as `docs/results/encodings.svg`).
//!
//! The texts are the lipsum files of `benches/data/lipsum` (Russian,
//! Japanese, Chinese, Korean) encoded into each encoding by encoding_rs, and
//! two built here: French (Latin text with the accents of French) and Greek
//! (ISO-8859-7 has no lipsum), each cut to about 64 KiB. The French text
//! without œ is also decoded as ISO-8859-1 (transcode's Latin-1 kernels,
//! against encoding_rs's windows-1252 on the same bytes): the speed a
//! single-byte decoder can reach on that text.

// A benchmark harness: a panic is how it reports a wrong answer.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use benches::harness::Args;
use std::hint::black_box;

use encodings::{DecodeMode, Decoder, EncodeMode, Encoder, Encoding, Engine};

const SIZE: usize = 64 * 1024;

/// `text` repeated and cut at a character boundary near `SIZE` bytes.
fn sized(text: &str) -> String {
    let mut s = String::new();
    while s.len() < SIZE {
        s.push_str(text);
    }
    let mut end = SIZE;
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    s.truncate(end);
    s
}

fn lipsum(name: &str) -> String {
    let path = format!(
        "{}/data/lipsum/{name}-Lipsum.utf8.txt",
        env!("CARGO_MANIFEST_DIR")
    );
    sized(&std::fs::read_to_string(&path).unwrap())
}

const FRENCH: &str = "Le cœur déçu mais l'âme plutôt naïve, Louÿs rêva de crapaüter \
en canoë au delà des îles, près du mälström où brûlent les novæ. Çà et là, \
l'été, à Noël, où qu'il soit: « Déjà ! » ";

const GREEK: &str = "Λορεμ ιπσθμ δολορ σιτ αμετ, ηασ ιδ φεθγαιτ ιθδιcο ρεπθδιαρε. \
Ξεθ ατ ομνεσ δεcορε, θτ ηασ αλιqθαμ ελοqθεντιαμ. Πριμα αππετερε ιν ηασ. ";

struct Case {
    label: &'static str,
    /// Our name for the encoding (iconv's, where WHATWG's would differ).
    ours: &'static str,
    theirs: &'static encoding_rs::Encoding,
    text: String,
}

fn cases() -> Vec<Case> {
    let case = |label, ours, theirs, text| Case {
        label,
        ours,
        theirs,
        text,
    };
    vec![
        case(
            "windows-1251 Russian",
            "windows-1251",
            encoding_rs::WINDOWS_1251,
            lipsum("Russian"),
        ),
        case(
            "KOI8-R Russian",
            "KOI8-R",
            encoding_rs::KOI8_R,
            lipsum("Russian"),
        ),
        case(
            "ISO-8859-7 Greek",
            "ISO-8859-7",
            encoding_rs::ISO_8859_7,
            sized(GREEK),
        ),
        case(
            "windows-1252 French",
            "windows-1252",
            encoding_rs::WINDOWS_1252,
            sized(FRENCH),
        ),
        // The same work with ISO-8859-1 (the French text without its œ,
        // which Latin-1 lacks): what transcode's Latin-1 kernel does, the
        // ceiling of a single-byte decoder on this text.
        case(
            "ISO-8859-1 French",
            "ISO-8859-1",
            encoding_rs::WINDOWS_1252,
            sized(&FRENCH.replace('œ', "oe")),
        ),
        // glibc's CP1258 (it composes a letter and a following mark;
        // French has no mark byte, so encoding_rs's byte-for-byte
        // windows-1258 decodes it alike): the search for mark bytes.
        case(
            "CP1258 French",
            "CP1258",
            encoding_rs::WINDOWS_1258,
            sized(FRENCH),
        ),
        case(
            "IBM866 Russian",
            "IBM866",
            encoding_rs::IBM866,
            lipsum("Russian"),
        ),
        case(
            "Shift_JIS Japanese",
            "Shift_JIS",
            encoding_rs::SHIFT_JIS,
            lipsum("Japanese"),
        ),
        case(
            "EUC-JP Japanese",
            "EUC-JP",
            encoding_rs::EUC_JP,
            lipsum("Japanese"),
        ),
        case(
            "gb18030 Chinese",
            "gb18030",
            encoding_rs::GB18030,
            lipsum("Chinese"),
        ),
        case("GBK Chinese", "GBK", encoding_rs::GBK, lipsum("Chinese")),
        case(
            "EUC-KR Korean",
            "EUC-KR",
            encoding_rs::EUC_KR,
            lipsum("Korean"),
        ),
    ]
}

/// The columns: encoding_rs, ours (dispatched), ours with the AVX2 kernels
/// named explicitly (what a CPU without AVX-512 runs), on the single-byte
/// pages only.
const NAMES: [&str; 3] = ["encoding_rs", "ours", "ours AVX2"];

fn main() {
    let args = Args::parse(200);
    let avx2 = Engine::avx2();
    let mut g = args.group("encodings", "GB/s", 1);
    g.per_second();
    let t = g.table();
    t.title = String::new();
    t.label = "input | direction".into();
    t.column_suffix = " GB/s".into();
    t.extra("ours / encoding_rs", "×", |c| {
        Some(c.get("ours")? / c.get("encoding_rs")?)
    });
    t.extra("AVX2 / encoding_rs", "×", |c| {
        Some(c.get("ours AVX2")? / c.get("encoding_rs")?)
    });
    for c in cases() {
        let label = |direction: &str| format!("{} | {direction}", c.label);
        if !["→ UTF-8", "→ UTF-16", "UTF-8 →"]
            .iter()
            .any(|d| g.keeps_input(&label(d)))
        {
            continue;
        }
        let ours = Encoding::for_label(c.ours).unwrap_or_else(|| panic!("no encoding {}", c.ours));
        let (bytes, _, unmappable) = c.theirs.encode(&c.text);
        assert!(!unmappable, "{}: the text does not fit", c.label);
        let bytes = bytes.into_owned();
        // Both sides must agree before they are timed.
        let want = c.theirs.decode_without_bom_handling(&bytes).0.into_owned();
        assert_eq!(
            ours.decode_to_string(&bytes, DecodeMode::Replace).unwrap(),
            want,
            "{}",
            c.label
        );
        assert_eq!(
            ours.encode_to_vec(&want, EncodeMode::Strict).unwrap(),
            bytes,
            "{}",
            c.label
        );
        // Each direction's AVX2 engine call, where it applies.
        let page = avx2.filter(|e| e.decode_to_string(ours, b"").is_some());
        if let Some(e) = page {
            assert_eq!(e.decode_to_string(ours, &bytes), Some(Ok(want.clone())));
            assert_eq!(e.encode_to_vec(ours, &want), Some(Ok(bytes.clone())));
        }
        // GB/s of the legacy side in every direction.
        g.units(bytes.len());
        let names = &NAMES[..if page.is_some() { 3 } else { 2 }];
        // Every implementation writes into buffers of its own kept between
        // calls, as a stream does: a new buffer each call would time its
        // allocation and first-touch page faults (up to ±40% of a cell,
        // varying with the allocator's state), not the conversion.
        let mut theirs_text = String::with_capacity(bytes.len() * 3 + 16);
        let (mut our_text, mut avx2_text) = (String::new(), String::new());
        g.row_by(&label("→ UTF-8"), names, |i| match i {
            0 => {
                theirs_text.clear();
                let mut d = c.theirs.new_decoder_without_bom_handling();
                let _ = black_box(d.decode_to_string(black_box(&bytes), &mut theirs_text, true));
            }
            1 => {
                our_text.clear();
                Decoder::new(ours, DecodeMode::Replace)
                    .decode_into_string(black_box(&bytes), &mut our_text, true)
                    .unwrap();
                black_box(&our_text);
            }
            _ => {
                avx2_text.clear();
                let r = page
                    .unwrap()
                    .decode_into_string(ours, black_box(&bytes), &mut avx2_text);
                black_box((r, &avx2_text));
            }
        });
        let mut units = vec![0u16; bytes.len() + 1];
        let (mut our_units, mut avx2_units) = (Vec::new(), Vec::new());
        g.row_by(&label("→ UTF-16"), names, |i| match i {
            0 => {
                let mut d = c.theirs.new_decoder_without_bom_handling();
                let _ = black_box(d.decode_to_utf16(black_box(&bytes), &mut units, true));
            }
            1 => {
                our_units.clear();
                Decoder::new(ours, DecodeMode::Replace)
                    .decode_into_utf16_vec(black_box(&bytes), &mut our_units, true)
                    .unwrap();
                black_box(&our_units);
            }
            _ => {
                avx2_units.clear();
                let r =
                    page.unwrap()
                        .decode_into_utf16_vec(ours, black_box(&bytes), &mut avx2_units);
                black_box((r, &avx2_units));
            }
        });
        let mut theirs_bytes = Vec::with_capacity(want.len() + 16);
        let (mut our_bytes, mut avx2_bytes) = (Vec::new(), Vec::new());
        g.row_by(&label("UTF-8 →"), names, |i| match i {
            0 => {
                theirs_bytes.clear();
                let mut e = c.theirs.new_encoder();
                let _ =
                    black_box(e.encode_from_utf8_to_vec(black_box(&want), &mut theirs_bytes, true));
            }
            1 => {
                our_bytes.clear();
                Encoder::new(ours, EncodeMode::Strict)
                    .encode_into_vec(black_box(&want), &mut our_bytes, true)
                    .unwrap();
                black_box(&our_bytes);
            }
            _ => {
                avx2_bytes.clear();
                let r = page
                    .unwrap()
                    .encode_into_vec(ours, black_box(&want), &mut avx2_bytes);
                black_box((r, &avx2_bytes));
            }
        });
        // The reused buffers hold what a fresh call returns (in the rows
        // the filters kept).
        let same = |a: &str, b: &str| a == b;
        if g.keeps_input(&label("→ UTF-8")) {
            assert!(
                same(&theirs_text, &want) && same(&our_text, &want),
                "{}",
                c.label
            );
            assert!(page.is_none() || same(&avx2_text, &want), "{}", c.label);
        }
        if g.keeps_input(&label("UTF-8 →")) {
            assert!(theirs_bytes == bytes && our_bytes == bytes, "{}", c.label);
            assert!(page.is_none() || avx2_bytes == bytes, "{}", c.label);
        }
    }
    let table = g.finish();
    print!("{}", table.markdown());
    if let Some(path) = &args.svg {
        let chart = benches::harness::Chart {
            title: "encodings: speed-up over encoding_rs (GB/s of the legacy side, min of rounds; log scale)"
                .into(),
            note: format!(
                "cargo bench -p benches --bench encodings_min -- {} --svg; 64 KiB of each text",
                args.rounds
            ),
            sections: vec![table.speedups("encoding_rs", "input | direction", |_, col| {
                Some(col.to_string())
            })],
            range: Some((-1, 6)),
        };
        std::fs::write(path, benches::harness::svg(&chart)).expect("write the chart");
        eprintln!("wrote {path}");
    }
}
