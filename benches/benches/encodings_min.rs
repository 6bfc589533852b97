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
//! (ISO-8859-7 has no lipsum), each cut to about 64 KiB; English is the
//! pure-ASCII Latin lipsum, in windows-1252. The French text without œ and
//! the English text are also converted as ISO-8859-1 (transcode's Latin-1
//! kernels, against encoding_rs's windows-1252 on the same bytes): the
//! speed a single-byte page can reach on that text, the ceiling of the
//! windows-1252 rows. CP437 (French without œ) has no encoding_rs
//! decoder: windows-1252 on the same bytes and text stands in for it. The
//! ISO-8859-1 rows' AVX2 column calls transcode's AVX2 kernels
//! (`Transcoder::avx2()`) on slices directly, without the `Decoder`'s and
//! `Encoder`'s few checks a call; their `simdutf` column is simdutf's
//! Latin-1 kernels on the same bytes, the best-known peer for that work
//! (its dispatched ones; `SIMDUTF_FORCE_IMPLEMENTATION=haswell` makes them
//! its AVX2 ones, the peer of the AVX2 column).

// A benchmark harness: a panic is how it reports a wrong answer.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use benches::harness::Args;
use std::hint::black_box;

use codec_facade::transcode::Transcoder;
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
    /// `theirs` is a stand-in for a page encoding_rs lacks (CP437): it
    /// decodes our bytes and encodes the text in its own page, timed only.
    stand_in: bool,
}

fn cases() -> Vec<Case> {
    let case = |label, ours, theirs, text| Case {
        label,
        ours,
        theirs,
        text,
        stand_in: false,
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
        // Pure ASCII: the issue's "ASCII-only text at the speed of our
        // Latin-1 kernel", and that kernel on the same text.
        case(
            "windows-1252 English",
            "windows-1252",
            encoding_rs::WINDOWS_1252,
            lipsum("Latin"),
        ),
        case(
            "ISO-8859-1 English",
            "ISO-8859-1",
            encoding_rs::WINDOWS_1252,
            lipsum("Latin"),
        ),
        // A DOS page (the CP437) on the French text without œ,
        // which CP437 lacks. encoding_rs has no CP437; its single-byte
        // decoder is one loop for every page, so windows-1252 on the same
        // bytes (and encoding the same text) stands in for it.
        Case {
            stand_in: true,
            ..case(
                "CP437 French",
                "CP437",
                encoding_rs::WINDOWS_1252,
                sized(&FRENCH.replace('œ', "oe")),
            )
        },
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
/// pages and true ISO-8859-1 only, and simdutf on true ISO-8859-1 only.
const NAMES: [&str; 4] = ["encoding_rs", "ours", "ours AVX2", "simdutf"];

/// The AVX2 column's kernels: the single-byte engine's for its pages,
/// transcode's Latin-1 ones for true ISO-8859-1.
#[derive(Clone, Copy)]
enum Avx2 {
    Engine(Engine),
    Latin1(Transcoder),
}

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
    t.extra("simdutf / encoding_rs", "×", |c| {
        Some(c.get("simdutf")? / c.get("encoding_rs")?)
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
        let (bytes, want) = if c.stand_in {
            let bytes = ours.encode_to_vec(&c.text, EncodeMode::Strict).unwrap();
            (bytes, c.text.clone())
        } else {
            let (bytes, _, unmappable) = c.theirs.encode(&c.text);
            assert!(!unmappable, "{}: the text does not fit", c.label);
            let bytes = bytes.into_owned();
            let want = c.theirs.decode_without_bom_handling(&bytes).0.into_owned();
            (bytes, want)
        };
        // What encoding_rs's calls return: the text and the bytes, or a
        // stand-in's reading of them.
        let their_want = c.theirs.decode_without_bom_handling(&bytes).0.into_owned();
        let their_bytes = c.theirs.encode(&want).0.into_owned();
        // Both sides must agree before they are timed.
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
        // Each direction's AVX2 call, where it applies.
        let page = if ours == Encoding::for_label("ISO-8859-1").unwrap() {
            Transcoder::avx2().map(Avx2::Latin1)
        } else {
            avx2.filter(|e| e.decode_to_string(ours, b"").is_some())
                .map(Avx2::Engine)
        };
        if let Some(Avx2::Engine(e)) = page {
            assert_eq!(e.decode_to_string(ours, &bytes), Some(Ok(want.clone())));
            assert_eq!(e.encode_to_vec(ours, &want), Some(Ok(bytes.clone())));
        }
        // GB/s of the legacy side in every direction.
        g.units(bytes.len());
        let latin1 = matches!(page, Some(Avx2::Latin1(_)));
        let names = &NAMES[..match page {
            Some(Avx2::Latin1(_)) => 4,
            Some(Avx2::Engine(_)) => 3,
            None => 2,
        }];
        // Transcode's slices, sized for the whole text (UTF-8: two bytes a
        // byte at most), and how much of each the last call wrote.
        let mut latin1_utf8 = vec![0u8; 2 * bytes.len()];
        let mut latin1_units = vec![0u16; bytes.len()];
        let mut latin1_bytes = vec![0u8; bytes.len()];
        let (mut utf8_len, mut bytes_len) = (0, 0);
        // simdutf's, likewise.
        let mut simdutf_utf8 = vec![0u8; 2 * bytes.len()];
        let mut simdutf_units = vec![0u16; bytes.len()];
        let mut simdutf_bytes = vec![0u8; bytes.len()];
        let (mut simdutf_utf8_len, mut simdutf_units_len, mut simdutf_bytes_len) = (0, 0, 0);
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
            3 => {
                // SAFETY: the output holds two bytes an input byte, the
                // most Latin-1 becomes.
                simdutf_utf8_len = unsafe {
                    simdutf::convert_latin1_to_utf8(
                        black_box(&bytes).as_ptr(),
                        bytes.len(),
                        simdutf_utf8.as_mut_ptr(),
                    )
                };
                black_box(&simdutf_utf8);
            }
            _ => match page.unwrap() {
                Avx2::Engine(e) => {
                    avx2_text.clear();
                    let r = e.decode_into_string(ours, black_box(&bytes), &mut avx2_text);
                    black_box((r, &avx2_text));
                }
                Avx2::Latin1(t) => {
                    utf8_len = t
                        .latin1_to_utf8(black_box(&bytes), &mut latin1_utf8)
                        .unwrap();
                    black_box(&latin1_utf8);
                }
            },
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
            3 => {
                // SAFETY: the output holds a unit an input byte.
                simdutf_units_len = unsafe {
                    simdutf::convert_latin1_to_utf16le(
                        black_box(&bytes).as_ptr(),
                        bytes.len(),
                        simdutf_units.as_mut_ptr(),
                    )
                };
                black_box(&simdutf_units);
            }
            _ => match page.unwrap() {
                Avx2::Engine(e) => {
                    avx2_units.clear();
                    let r = e.decode_into_utf16_vec(ours, black_box(&bytes), &mut avx2_units);
                    black_box((r, &avx2_units));
                }
                Avx2::Latin1(t) => {
                    let r = t
                        .latin1_to_utf16(black_box(&bytes), &mut latin1_units)
                        .unwrap();
                    black_box((r, &latin1_units));
                }
            },
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
            3 => {
                // SAFETY: the output holds a byte an input byte, the most
                // UTF-8 becomes; the call checks the UTF-8.
                let r = unsafe {
                    simdutf::convert_utf8_to_latin1_with_errors(
                        black_box(&want).as_ptr(),
                        want.len(),
                        simdutf_bytes.as_mut_ptr(),
                    )
                };
                simdutf_bytes_len = r.count;
                black_box(&simdutf_bytes);
            }
            _ => match page.unwrap() {
                Avx2::Engine(e) => {
                    avx2_bytes.clear();
                    let r = e.encode_into_vec(ours, black_box(&want), &mut avx2_bytes);
                    black_box((r, &avx2_bytes));
                }
                Avx2::Latin1(t) => {
                    bytes_len = t
                        .str_to_latin1(black_box(&want), &mut latin1_bytes)
                        .unwrap();
                    black_box(&latin1_bytes);
                }
            },
        });
        // The reused buffers hold what a fresh call returns (in the rows
        // the filters kept).
        let same = |a: &str, b: &str| a == b;
        if g.keeps_input(&label("→ UTF-8")) {
            assert!(
                same(&theirs_text, &their_want) && same(&our_text, &want),
                "{}",
                c.label
            );
            match page {
                Some(Avx2::Engine(_)) => assert!(same(&avx2_text, &want), "{}", c.label),
                Some(Avx2::Latin1(_)) => {
                    assert!(latin1_utf8[..utf8_len] == *want.as_bytes(), "{}", c.label);
                    assert!(
                        simdutf_utf8[..simdutf_utf8_len] == *want.as_bytes(),
                        "{}",
                        c.label
                    );
                }
                None => {}
            }
        }
        if g.keeps_input(&label("→ UTF-16")) && latin1 {
            let want16: Vec<u16> = want.encode_utf16().collect();
            assert!(latin1_units == want16, "{}", c.label);
            let le: Vec<u16> = want16.iter().map(|u| u.to_le()).collect();
            assert!(simdutf_units[..simdutf_units_len] == le[..], "{}", c.label);
        }
        if g.keeps_input(&label("UTF-8 →")) {
            assert!(
                theirs_bytes == their_bytes && our_bytes == bytes,
                "{}",
                c.label
            );
            match page {
                Some(Avx2::Engine(_)) => assert!(avx2_bytes == bytes, "{}", c.label),
                Some(Avx2::Latin1(_)) => {
                    assert!(latin1_bytes[..bytes_len] == bytes[..], "{}", c.label);
                    assert!(
                        simdutf_bytes[..simdutf_bytes_len] == bytes[..],
                        "{}",
                        c.label
                    );
                }
                None => {}
            }
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
