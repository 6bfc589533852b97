//! The lossless conversions of Java strings (`to_utf16`, `to_utf16_vec`,
//! `to_wtf8`, `from_utf16`, `from_wtf8` of `mutf8` and `cesu8`) against
//! independent statements of them:
//!
//! - Java's own rules, written here from `DataOutputStream.writeUTF` and
//!   `DataInputStream.readUTF` (OpenJDK's `java.io`), unit by unit;
//! - std's `char::decode_utf16` and `String::from_utf16_lossy` for the
//!   well-formed parts, and `char::encode_utf8` for WTF-8's;
//! - codec-testdata's value-based oracle with surrogates allowed anywhere
//!   (`MUTF8_GENERALIZED`, `CESU8_GENERALIZED`) for the errors;
//! - Java itself, where `java` can be run (skipped with a message
//!   otherwise).
// Test helpers unwrap and panic: that is how a test fails.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use codec_testdata::variants::{self as oracle, Rules};
use common::{interesting, surrogate};
use rand::{Rng, RngCore, SeedableRng, rngs::StdRng};
use std::io::Write;
use std::process::{Command, Stdio};
use utf8_variants::wtf8::{self, Wtf8Buf};
use utf8_variants::{Error, ErrorKind, ToUtf16Error, ToUtf16ErrorKind, Variant, cesu8, mutf8};

// ---------------------------------------------------------------------------
// The models.

/// What `DataOutputStream.writeUTF` writes after its 2-byte length, as its
/// source says, for each `char c`: `c >= 0x0001 && c <= 0x007F` one byte;
/// `c > 0x07FF` three, `0xE0 | ((c >> 12) & 0x0F)`, `0x80 | ((c >> 6) &
/// 0x3F)`, `0x80 | (c & 0x3F)`; else two, `0xC0 | ((c >> 6) & 0x1F)`,
/// `0x80 | (c & 0x3F)`. CESU-8 (UTR #26) is the same with `0000` as `00`.
fn write_utf_body(units: &[u16], mutf8: bool) -> Vec<u8> {
    let mut out = Vec::new();
    for &c in units {
        if (0x0001..=0x007F).contains(&c) || (c == 0 && !mutf8) {
            out.push(c as u8);
        } else if c > 0x07FF {
            out.push((0xE0 | ((c >> 12) & 0x0F)) as u8);
            out.push((0x80 | ((c >> 6) & 0x3F)) as u8);
            out.push((0x80 | (c & 0x3F)) as u8);
        } else {
            out.push((0xC0 | ((c >> 6) & 0x1F)) as u8);
            out.push((0x80 | (c & 0x3F)) as u8);
        }
    }
    out
}

/// What `DataInputStream.readUTF` reads from a body (after the length), as
/// its source says: by `c >> 4` of each first byte, `0..=7` one byte,
/// `12 | 13` two (the second `10xxxxxx`), `14` three (both `10xxxxxx`),
/// anything else, or a sequence cut off, a `UTFDataFormatException`
/// (`None`). It is more lenient than Modified UTF-8 (it takes `00`,
/// `C1 81` and other overlong forms), never stricter.
fn read_utf_body(bytes: &[u8]) -> Option<Vec<u16>> {
    let mut out = Vec::new();
    let mut i = 0;
    let cont = |b: Option<&u8>| {
        b.filter(|&&b| b & 0xC0 == 0x80)
            .map(|&b| u16::from(b & 0x3F))
    };
    while let Some(&c) = bytes.get(i) {
        let c16 = u16::from(c);
        match c >> 4 {
            0..=7 => {
                out.push(c16);
                i += 1;
            }
            12 | 13 => {
                out.push(((c16 & 0x1F) << 6) | cont(bytes.get(i + 1))?);
                i += 2;
            }
            14 => {
                let (b, d) = (cont(bytes.get(i + 1))?, cont(bytes.get(i + 2))?);
                out.push(((c16 & 0x0F) << 12) | (b << 6) | d);
                i += 3;
            }
            _ => return None,
        }
    }
    Some(out)
}

/// The same bytes from std's view of the units: each character of
/// `char::decode_utf16` in the JVM specification's form (UTF-8 for the BMP
/// but `0000` as `C0 80` in MUTF-8; a supplementary character as its two
/// surrogates, 3 bytes each), each lone surrogate in its 3 bytes.
fn std_model(units: &[u16], mutf8: bool) -> Vec<u8> {
    let mut out = Vec::new();
    for r in char::decode_utf16(units.iter().copied()) {
        match r {
            Ok('\0') if mutf8 => out.extend_from_slice(&[0xC0, 0x80]),
            Ok(c) if c > '\u{FFFF}' => {
                let mut pair = [0; 2];
                for &u in c.encode_utf16(&mut pair).iter() {
                    out.extend_from_slice(&surrogate(u.into()));
                }
            }
            Ok(c) => out.extend_from_slice(c.encode_utf8(&mut [0; 4]).as_bytes()),
            Err(e) => out.extend_from_slice(&surrogate(e.unpaired_surrogate().into())),
        }
    }
    out
}

/// WTF-8 from std's view of the units: each character in UTF-8, each lone
/// surrogate in its 3 bytes (the WTF-8 specification's algorithm).
fn std_wtf8(units: &[u16]) -> Vec<u8> {
    let mut out = Vec::new();
    for r in char::decode_utf16(units.iter().copied()) {
        match r {
            Ok(c) => out.extend_from_slice(c.encode_utf8(&mut [0; 4]).as_bytes()),
            Err(e) => out.extend_from_slice(&surrogate(e.unpaired_surrogate().into())),
        }
    }
    out
}

// ---------------------------------------------------------------------------
// The two encodings under test, as one table.

type ToVec = fn(&[u8]) -> Result<Vec<u16>, Error>;
type ToSlice = fn(&[u8], &mut [u16]) -> Result<usize, ToUtf16Error>;
type ToWtf8 = fn(&[u8]) -> Result<Wtf8Buf, Error>;
type FromUtf16 = fn(&[u16]) -> Vec<u8>;
type FromWtf8 = fn(&[u8]) -> Result<std::borrow::Cow<'_, [u8]>, Error>;

struct Java {
    variant: Variant,
    mutf8: bool,
    rules: Rules,
    to_vec: ToVec,
    to_slice: ToSlice,
    to_wtf8: ToWtf8,
    from_utf16: FromUtf16,
    from_wtf8: FromWtf8,
}

const ENCODINGS: [Java; 2] = [
    Java {
        variant: Variant::Mutf8,
        mutf8: true,
        rules: oracle::MUTF8_GENERALIZED,
        to_vec: mutf8::to_utf16_vec,
        to_slice: mutf8::to_utf16,
        to_wtf8: mutf8::to_wtf8,
        from_utf16: mutf8::from_utf16,
        from_wtf8: mutf8::from_wtf8,
    },
    Java {
        variant: Variant::Cesu8,
        mutf8: false,
        rules: oracle::CESU8_GENERALIZED,
        to_vec: cesu8::to_utf16_vec,
        to_slice: cesu8::to_utf16,
        to_wtf8: cesu8::to_wtf8,
        from_utf16: cesu8::from_utf16,
        from_wtf8: cesu8::from_wtf8,
    },
];

/// Potentially ill-formed UTF-16 as a Java `String` may hold it: the
/// boundaries of each length class, lone leads and trails (at the start,
/// the end, before and after pairs), pairs, reversed pairs, `0000`.
fn random_units(rng: &mut impl RngCore, n: usize) -> Vec<u16> {
    let mut out = Vec::with_capacity(2 * n);
    for _ in 0..n {
        match rng.random_range(0..16) {
            0..=3 => out.push(rng.random_range(0x20..0x7F)),
            4 => out.push(0),
            5 => out.push(rng.random_range(0x80..=0x7FF)),
            6 => out.push(rng.random_range(0x800..=0xD7FF)),
            7 => out.push(rng.random_range(0xE000..=0xFFFF)),
            8 | 9 => {
                let lead = rng.random_range(0xD800..=0xDBFF);
                out.extend_from_slice(&[lead, rng.random_range(0xDC00..=0xDFFF)]);
            }
            10 | 11 => out.push(rng.random_range(0xD800..=0xDBFF)),
            12 | 13 => out.push(rng.random_range(0xDC00..=0xDFFF)),
            14 => {
                // A trail then a lead: two lone surrogates, not a pair.
                let trail = rng.random_range(0xDC00..=0xDFFF);
                out.extend_from_slice(&[trail, rng.random_range(0xD800..=0xDBFF)]);
            }
            _ => {
                const EDGES: [u16; 10] = [
                    0x01, 0x7F, 0x80, 0x7FF, 0x800, 0xD7FF, 0xD800, 0xDBFF, 0xDC00, 0xFFFF,
                ];
                out.push(EDGES[rng.random_range(0..EDGES.len())]);
            }
        }
    }
    out
}

/// Every path on `units`, against the models.
fn check_round_trips(units: &[u16]) {
    let lossy = String::from_utf16_lossy(units);
    let wtf8_want = std_wtf8(units);
    for j in &ENCODINGS {
        let bytes = (j.from_utf16)(units);
        // UTF-16 -> MUTF-8/CESU-8: writeUTF's rule, and std's view.
        assert_eq!(
            bytes,
            write_utf_body(units, j.mutf8),
            "{} {units:04X?}",
            j.variant
        );
        assert_eq!(
            bytes,
            std_model(units, j.mutf8),
            "{} {units:04X?}",
            j.variant
        );
        assert!(oracle::is_valid(&j.rules, &bytes));
        // ... -> UTF-16: identity, and what readUTF reads.
        assert_eq!(
            (j.to_vec)(&bytes).as_deref(),
            Ok(units),
            "{} {bytes:02X?}",
            j.variant
        );
        assert_eq!(read_utf_body(&bytes).as_deref(), Some(units));
        let mut dst = vec![0xAAAA; units.len() + 3];
        assert_eq!((j.to_slice)(&bytes, &mut dst), Ok(units.len()));
        assert_eq!(&dst[..units.len()], units);
        assert!(dst[units.len()..].iter().all(|&u| u == 0xAAAA));
        // ... -> WTF-8: std's view, the crate's own UTF-16 -> WTF-8, and
        // back: to UTF-16, to MUTF-8/CESU-8, and lossy to a String.
        let w = (j.to_wtf8)(&bytes).unwrap();
        assert_eq!(w.as_bytes(), wtf8_want, "{} {units:04X?}", j.variant);
        assert_eq!(w.as_bytes(), wtf8::from_utf16(units).as_bytes());
        assert!(wtf8::is_valid(w.as_bytes()));
        assert_eq!(w.to_utf16(), units);
        assert_eq!((j.from_wtf8)(w.as_bytes()).as_deref(), Ok(&bytes[..]));
        assert_eq!(w.to_string_lossy(), lossy);
        // The strict decoder agrees where the units are well-formed.
        if let Ok(s) = String::from_utf16(units) {
            assert_eq!(j.variant.validate(&bytes), Ok(()));
            let decoded = match j.variant {
                Variant::Mutf8 => mutf8::decode(&bytes),
                _ => cesu8::decode(&bytes),
            };
            assert_eq!(decoded.as_deref(), Ok(&*s));
        }
    }
}

// ---------------------------------------------------------------------------
// Java's examples.

#[test]
fn java_write_utf_examples() {
    // Each from OpenJDK 17's `new DataOutputStream(out).writeUTF(s)`, the
    // 2-byte length first: `(s, what it wrote)`.
    let cases: [(&[u16], &[u8]); 6] = [
        (&[0x78, 0xD800, 0x79], b"\x00\x05\x78\xED\xA0\x80\x79"),
        (&[0x0000], b"\x00\x02\xC0\x80"),
        (&[0xD83D, 0xDE00], b"\x00\x06\xED\xA0\xBD\xED\xB8\x80"),
        (&[0xDC00], b"\x00\x03\xED\xB0\x80"),
        (&[0xDE00, 0xD83D], b"\x00\x06\xED\xB8\x80\xED\xA0\xBD"),
        (
            &[0x61, 0x80, 0x7FF, 0x800, 0xFFFF],
            b"\x00\x0B\x61\xC2\x80\xDF\xBF\xE0\xA0\x80\xEF\xBF\xBF",
        ),
    ];
    for (units, written) in cases {
        // The length prefix is writeUTF's, not Modified UTF-8's.
        let (len, body) = written.split_at(2);
        assert_eq!(
            usize::from(u16::from_be_bytes([len[0], len[1]])),
            body.len()
        );
        assert_eq!(mutf8::from_utf16(units), body, "{units:04X?}");
        assert_eq!(mutf8::to_utf16_vec(body).as_deref(), Ok(units));
        let w = mutf8::to_wtf8(body).unwrap();
        assert_eq!(w.to_utf16(), units);
        assert_eq!(mutf8::from_wtf8(w.as_bytes()).as_deref(), Ok(body));
        // Read with its prefix, the first 00 is a raw NUL: not MUTF-8.
        let e = mutf8::to_utf16_vec(written).unwrap_err();
        assert_eq!(
            (e.valid_up_to(), e.error_len(), e.kind()),
            (0, Some(1), ErrorKind::Nul)
        );
        check_round_trips(units);
    }
    // The lone surrogate keeps its 3 bytes in WTF-8; a pair becomes 4.
    assert_eq!(
        mutf8::to_wtf8(b"x\xED\xA0\x80y").unwrap().as_bytes(),
        b"x\xED\xA0\x80y"
    );
    assert_eq!(
        mutf8::to_wtf8(b"\xED\xA0\xBD\xED\xB8\x80")
            .unwrap()
            .as_bytes(),
        "😀".as_bytes()
    );
    // CESU-8 writes U+0000 as 00 and takes C0 80 for an overlong form.
    assert_eq!(
        cesu8::from_utf16(&[0x78, 0xD800, 0x0000]),
        b"\x78\xED\xA0\x80\x00"
    );
    assert_eq!(
        cesu8::to_utf16_vec(b"\x00\xED\xB0\x80"),
        Ok(vec![0, 0xDC00])
    );
    let e = cesu8::to_utf16_vec(b"a\xC0\x80").unwrap_err();
    assert_eq!((e.valid_up_to(), e.kind()), (1, ErrorKind::Overlong));
}

#[test]
fn errors_at_exact_positions() {
    use ErrorKind::*;
    // (input, valid_up_to, error_len, kind): the same in MUTF-8 and CESU-8.
    let both: [(&[u8], usize, Option<usize>, ErrorKind); 10] = [
        // A 4-byte form stays an error, after a lone surrogate too.
        (b"x\xF0\x9F\x98\x80", 1, Some(1), FourByteForm),
        (b"\xED\xA0\x80\xF0\x9F\x98\x80", 3, Some(1), FourByteForm),
        // A trail's first two bytes and no third: unfinished, 2 bytes.
        (b"\xED\xB0\x41", 0, Some(2), TooShort),
        (b"\xED\xA0\x41", 0, Some(2), TooShort),
        // Cut off inside a surrogate: more input could finish it.
        (b"\xED\xB0", 0, None, Incomplete),
        (b"ab\xED\xA0", 2, None, Incomplete),
        (b"\xED\xA0\x80\xED\xB0", 3, None, Incomplete),
        (b"\xED\xA0\x80\xED", 3, None, Incomplete),
        // Bytes no variant allows.
        (b"\xED\xA0\x80\x80", 3, Some(1), UnexpectedContinuation),
        (b"\xED\xB0\x80\xE0\x80\x80", 3, Some(1), Overlong),
    ];
    for j in &ENCODINGS {
        for &(input, v, len, kind) in &both {
            let e = (j.to_vec)(input).unwrap_err();
            let got = (e.valid_up_to(), e.error_len(), e.kind(), e.variant());
            assert_eq!(got, (v, len, kind, j.variant), "{} {input:02X?}", j.variant);
            assert_eq!(oracle::exact(&j.rules, input), Err((v, len)));
            assert_eq!((j.to_wtf8)(input).unwrap_err(), e);
        }
    }
    // MUTF-8 only: a raw NUL, also right after a lone surrogate.
    // (CESU-8 takes the 00.)
    let nul: [(&[u8], usize, &[u16]); 3] = [
        (b"a\x00", 1, &[0x61, 0]),
        (b"\xED\xB0\x80\x00", 3, &[0xDC00, 0]),
        (b"\xED\xA0\x80\x00", 3, &[0xD800, 0]),
    ];
    for (input, v, cesu8_units) in nul {
        let e = mutf8::to_utf16_vec(input).unwrap_err();
        assert_eq!(
            (e.valid_up_to(), e.error_len(), e.kind()),
            (v, Some(1), Nul)
        );
        assert_eq!(cesu8::to_utf16_vec(input).as_deref(), Ok(cesu8_units));
    }
    // What the generalized form takes that the validators do not (a lead
    // at the end could still be paired: Incomplete there).
    let lone: [(&[u8], ErrorKind, &[u16]); 5] = [
        (b"\xED\xA0\x80", Incomplete, &[0xD800]),
        (b"\xED\xB0\x80", UnpairedSurrogate, &[0xDC00]),
        (
            b"\xED\xA0\x80\xED\x9F\xBF",
            UnpairedSurrogate,
            &[0xD800, 0xD7FF],
        ),
        (
            b"\xED\xA0\x80\xED\xA0\x80",
            UnpairedSurrogate,
            &[0xD800, 0xD800],
        ),
        (
            b"\xED\xB0\x80\xED\xA0\x80",
            UnpairedSurrogate,
            &[0xDC00, 0xD800],
        ),
    ];
    for (input, strict, units) in lone {
        for j in &ENCODINGS {
            let e = j.variant.validate(input).unwrap_err();
            assert_eq!((e.valid_up_to(), e.kind()), (0, strict));
            assert_eq!((j.to_vec)(input).as_deref(), Ok(units));
            assert_eq!((j.to_wtf8)(input).unwrap().as_bytes(), input);
        }
    }
}

// ---------------------------------------------------------------------------
// Random ill-formed UTF-16 through every path.

#[test]
fn round_trips_on_random_ill_formed_utf16() {
    let mut rng = StdRng::seed_from_u64(31);
    for n in 0..3000 {
        let units = random_units(&mut rng, n % 40);
        check_round_trips(&units);
    }
    // Long inputs, past every block size of the validators' kernels.
    for _ in 0..20 {
        let n = rng.random_range(100..3000);
        check_round_trips(&random_units(&mut rng, n));
    }
}

quickcheck::quickcheck! {
    fn any_units_round_trip(units: Vec<u16>) -> bool {
        check_round_trips(&units);
        true
    }

    /// Any bytes: the generalized form's answer is the oracle's, and what
    /// it accepts readUTF reads the same.
    fn any_bytes_match_the_oracle(bytes: Vec<u8>) -> bool {
        check_bytes(&bytes);
        true
    }
}

/// One input through every path, against the generalized oracle: the
/// position of the error, the units (from the oracle's code points and
/// from readUTF), the kind where the input has no surrogate (then the
/// validator's), and the WTF-8 path's agreement.
fn check_bytes(input: &[u8]) {
    for j in &ENCODINGS {
        let got = (j.to_vec)(input);
        let want = oracle::exact(&j.rules, input);
        assert_eq!(
            got.as_ref()
                .map(|_| ())
                .map_err(|e| (e.valid_up_to(), e.error_len())),
            want,
            "{} {input:02X?}",
            j.variant
        );
        match &got {
            Ok(units) => {
                let cps = oracle::code_points(&j.rules, input).unwrap();
                assert_eq!(*units, cps.iter().map(|&c| c as u16).collect::<Vec<_>>());
                assert_eq!(read_utf_body(input).as_ref(), Some(units));
                let w = (j.to_wtf8)(input).unwrap();
                assert_eq!(w.as_bytes(), std_wtf8(units));
            }
            Err(e) => {
                assert_eq!((j.to_wtf8)(input).unwrap_err(), *e);
                if !has_surrogate(input) {
                    assert_eq!(j.variant.validate(input), Err(*e), "{input:02X?}");
                }
                // The prefix before the error converts.
                assert!((j.to_vec)(&input[..e.valid_up_to()]).is_ok());
            }
        }
    }
}

/// Whether `input` holds the start of a surrogate, `ED A0..=BF`.
fn has_surrogate(input: &[u8]) -> bool {
    input.windows(2).any(|w| w[0] == 0xED && w[1] >= 0xA0)
}

#[test]
fn random_and_mutated_inputs_match_the_oracle() {
    let mut rng = StdRng::seed_from_u64(0x005E_ED31);
    for n in 0..4000 {
        check_bytes(&interesting(&mut rng, n % 12));
        // writeUTF's output with a byte changed, cut, or a byte inserted.
        let mut bytes = mutf8::from_utf16(&random_units(&mut rng, 1 + n % 10));
        let at = rng.random_range(0..bytes.len());
        match n % 3 {
            0 => bytes[at] = rng.random(),
            1 => bytes.truncate(at),
            _ => bytes.insert(at, rng.random()),
        }
        check_bytes(&bytes);
    }
}

// ---------------------------------------------------------------------------
// Into a caller's slice: exact progress, nothing written past it.

#[test]
fn to_utf16_writes_nothing_past_written_at_any_output_size() {
    const SENTINEL: u16 = 0xAAAA;
    let mut rng = StdRng::seed_from_u64(0xA11CE);
    for n in 0..600 {
        let mut input = mutf8::from_utf16(&random_units(&mut rng, n % 25));
        if n % 2 == 1 && !input.is_empty() {
            // Often invalid: a raw NUL, a 4-byte form or a cut.
            let at = rng.random_range(0..input.len());
            match n % 6 {
                1 => input.insert(at, 0),
                3 => input.splice(at..at, "😀".bytes()).for_each(drop),
                _ => input.truncate(at),
            }
        }
        for j in &ENCODINGS {
            let checked = (j.to_vec)(&input);
            let end = checked
                .as_ref()
                .map_or_else(|e| e.valid_up_to(), |_| input.len());
            // Everything before the error, as readUTF reads it.
            let full = read_utf_body(&input[..end]).unwrap();
            for size in 0..=full.len() + 2 {
                let mut dst = vec![SENTINEL; size];
                let r = (j.to_slice)(&input, &mut dst);
                let written = match r {
                    Ok(w) => {
                        assert_eq!(checked.as_deref(), Ok(&full[..]));
                        assert_eq!(w, full.len());
                        w
                    }
                    Err(e) => {
                        let w = e.written();
                        // `written` units hold the first `read` bytes.
                        assert_eq!(read_utf_body(&input[..e.read()]).unwrap().len(), w);
                        match e.kind() {
                            ToUtf16ErrorKind::BufferTooSmall(b) => {
                                assert!(size < full.len());
                                assert_eq!((b.needed(), b.available()), (full.len(), size));
                                assert_eq!(w, size, "fills what it can");
                            }
                            ToUtf16ErrorKind::Invalid(inv) => {
                                assert!(size >= full.len());
                                assert_eq!(Err(inv), checked);
                                assert_eq!((e.read(), w), (end, full.len()));
                            }
                            _ => panic!("{e:?}"),
                        }
                        w
                    }
                };
                assert_eq!(
                    &dst[..written],
                    &full[..written],
                    "{input:02X?} into {size}"
                );
                assert!(
                    dst[written..].iter().all(|&u| u == SENTINEL),
                    "{} {input:02X?} into {size}: wrote past {written}",
                    j.variant
                );
            }
        }
    }
}

// ---------------------------------------------------------------------------
// Java itself, where it runs.

/// For each input line `w HEX` (UTF-16 units, 4 hex digits each) prints
/// what `writeUTF` writes (length included); for `r HEX` (bytes) prints
/// `ok` and the units `readUTF` reads with a length put before them, or
/// `err`.
const JAVA: &str = r#"
import java.io.*;
public class JavaStrings {
    public static void main(String[] args) throws Exception {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
        StringBuilder out = new StringBuilder();
        for (String line; (line = in.readLine()) != null; ) {
            String hex = line.substring(2);
            if (line.charAt(0) == 'w') {
                char[] cs = new char[hex.length() / 4];
                for (int i = 0; i < cs.length; i++)
                    cs[i] = (char) Integer.parseInt(hex.substring(4 * i, 4 * i + 4), 16);
                ByteArrayOutputStream b = new ByteArrayOutputStream();
                new DataOutputStream(b).writeUTF(new String(cs));
                for (byte x : b.toByteArray()) out.append(String.format("%02x", x));
            } else {
                int n = hex.length() / 2;
                byte[] bs = new byte[n + 2];
                bs[0] = (byte) (n >> 8);
                bs[1] = (byte) n;
                for (int i = 0; i < n; i++)
                    bs[i + 2] = (byte) Integer.parseInt(hex.substring(2 * i, 2 * i + 2), 16);
                try {
                    String s = new DataInputStream(new ByteArrayInputStream(bs)).readUTF();
                    out.append("ok ");
                    for (char c : s.toCharArray()) out.append(String.format("%04x", (int) c));
                } catch (UTFDataFormatException e) {
                    out.append("err");
                }
            }
            out.append('\n');
        }
        System.out.print(out);
    }
}
"#;

/// Java's answers to `lines`, or `None` where `java` cannot be run.
fn ask_java(lines: &[String]) -> Option<Vec<String>> {
    let dir = std::env::temp_dir().join(format!("utf8-variants-java-{}", std::process::id()));
    std::fs::create_dir_all(&dir).ok()?;
    let source = dir.join("JavaStrings.java");
    std::fs::write(&source, JAVA).ok()?;
    let child = Command::new("java")
        .arg(&source)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn();
    let mut child = match child {
        Ok(c) => c,
        Err(e) => {
            eprintln!("skipping the Java oracle: cannot run java ({e})");
            let _ = std::fs::remove_dir_all(&dir);
            return None;
        }
    };
    let mut stdin = child.stdin.take().unwrap();
    let text = lines.join("\n") + "\n";
    let writer = std::thread::spawn(move || stdin.write_all(text.as_bytes()));
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap().unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    let stderr = String::from_utf8_lossy(&out.stderr);
    if !out.status.success() && stderr.contains("Could not find or load main class") {
        // A `java` that cannot run a source file (before Java 11).
        eprintln!("skipping the Java oracle: java cannot run source files ({stderr})");
        return None;
    }
    assert!(out.status.success(), "java failed: {stderr}");
    Some(
        String::from_utf8(out.stdout)
            .unwrap()
            .lines()
            .map(str::to_owned)
            .collect(),
    )
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

#[test]
fn java_itself_agrees() {
    let mut rng = StdRng::seed_from_u64(0x1A7A);
    let strings: Vec<Vec<u16>> = (0..1500).map(|n| random_units(&mut rng, n % 30)).collect();
    let mut inputs: Vec<Vec<u8>> = (0..1500).map(|n| interesting(&mut rng, n % 10)).collect();
    inputs.extend(strings.iter().map(|s| mutf8::from_utf16(s)));
    let lines: Vec<String> = strings
        .iter()
        .map(|s| "w ".to_owned() + &s.iter().map(|u| format!("{u:04x}")).collect::<String>())
        .chain(inputs.iter().map(|b| "r ".to_owned() + &hex(b)))
        .collect();
    let Some(answers) = ask_java(&lines) else {
        return;
    };
    assert_eq!(answers.len(), lines.len());
    let (written, read) = answers.split_at(strings.len());
    for (units, java) in strings.iter().zip(written) {
        let ours = mutf8::from_utf16(units);
        let mut want = (ours.len() as u16).to_be_bytes().to_vec();
        want.extend_from_slice(&ours);
        assert_eq!(*java, hex(&want), "writeUTF of {units:04X?}");
    }
    for (input, java) in inputs.iter().zip(read) {
        // Java reads everything we accept, the same; it takes more (raw 00,
        // overlong forms), never less.
        match mutf8::to_utf16_vec(input) {
            Ok(units) => {
                let units: String = units.iter().map(|u| format!("{u:04x}")).collect();
                assert_eq!(*java, format!("ok {units}"), "readUTF of {input:02X?}");
            }
            Err(_) => {
                if let Some(units) = read_utf_body(input) {
                    let units: String = units.iter().map(|u| format!("{u:04x}")).collect();
                    assert_eq!(*java, format!("ok {units}"), "readUTF of {input:02X?}");
                } else {
                    assert_eq!(java, "err", "readUTF of {input:02X?}");
                }
            }
        }
    }
}
