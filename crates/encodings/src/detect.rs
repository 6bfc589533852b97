//! [`Encoding::detect`]: which encoding a text is in, and how sure.

use crate::{DecodeMode, Encoding};

/// How sure a [`Detection`] is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Confidence {
    /// A guess from letter statistics (chardetng): right for most prose of
    /// a few hundred bytes, unreliable for short or mixed text.
    Guess,
    /// A pattern that other encodings rarely produce: valid UTF-8 with
    /// non-ASCII characters, UTF-16/32 from where the zero bytes are.
    Likely,
    /// A byte order mark, or text that is all ASCII.
    Certain,
}

/// Why a [`Detection`] chose its encoding.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Reason {
    /// The text starts with a byte order mark.
    Bom,
    /// Every byte is ASCII.
    Ascii,
    /// The text is valid UTF-8 (perhaps cut inside its last character).
    Utf8,
    /// The zero bytes fall where UTF-16 or UTF-32 text puts them, and the
    /// text decodes in it.
    ZeroBytes,
    /// chardetng's guess for legacy text.
    Statistics,
    /// UTF-16 without a BOM or the zero bytes of Latin text (Cyrillic,
    /// Greek, Arabic, CJK …): control bytes that legacy text lacks, and
    /// the text decodes into characters of text in one byte order only
    /// (or in far fewer 256-character blocks than in the other).
    Utf16Units,
    /// 7-bit text with ISO-2022-JP's escape sequences that decodes in it.
    Escapes,
}

/// What [`Encoding::detect`] found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Detection {
    /// The encoding.
    pub encoding: Encoding,
    /// How sure.
    pub confidence: Confidence,
    /// Why.
    pub reason: Reason,
}

/// How much of a text [`Encoding::detect`] gives chardetng, from the line
/// of the first non-ASCII byte: its guess does not change past a few KiB
/// of prose (`cargo xtask detect-score`
/// finds the same answers at 1, 16 and 64 KiB), and its letter statistics
/// cost most of the time of detection.
pub const DETECT_GUESS_BYTES: usize = 16 << 10;

impl Encoding {
    /// Detects the encoding of `bytes` (the whole text, or its start):
    /// a BOM first; then UTF-16/32 from the pattern of zero bytes, and
    /// UTF-16 of other scripts from its control bytes and what it decodes
    /// to; then ISO-2022-JP from its escapes, ASCII and valid UTF-8; then
    /// a guess for legacy text by chardetng (Firefox's detector) from the
    /// first [`DETECT_GUESS_BYTES`] from the line of the first non-ASCII
    /// byte, which answers with a WHATWG encoding.
    /// The other steps read all of `bytes`: pass a bounded prefix of a
    /// long file (`codec detect` passes 64 KiB).
    ///
    /// ```
    /// use encodings::{Confidence, Encoding};
    ///
    /// let d = Encoding::detect(b"\xFF\xFEh\0i\0");
    /// assert_eq!((d.encoding.name(), d.confidence), ("UTF-16", Confidence::Certain));
    /// let d = Encoding::detect("Grüße".as_bytes());
    /// assert_eq!(d.encoding.name(), "UTF-8");
    /// ```
    #[must_use]
    pub fn detect(bytes: &[u8]) -> Detection {
        let found = |label: &str, confidence, reason| {
            Encoding::for_label(label).map(|encoding| Detection {
                encoding,
                confidence,
                reason,
            })
        };
        let bom = match bytes {
            [0xEF, 0xBB, 0xBF, ..] => Some("UTF-8"),
            [0xFF, 0xFE, 0, 0, ..] => Some("UTF-32"),
            [0, 0, 0xFE, 0xFF, ..] => Some("UTF-32"),
            [0xFF, 0xFE, ..] | [0xFE, 0xFF, ..] => Some("UTF-16"),
            _ => None,
        };
        if let Some(d) = bom.and_then(|l| found(l, Confidence::Certain, Reason::Bom)) {
            return d;
        }
        if let Some(d) =
            zero_pattern(bytes).and_then(|l| found(l, Confidence::Likely, Reason::ZeroBytes))
        {
            return d;
        }
        if let Some(d) =
            utf16_units(bytes).and_then(|l| found(l, Confidence::Likely, Reason::Utf16Units))
        {
            return d;
        }
        if let Some(d) = iso_2022_jp(bytes)
            .then(|| found("ISO-2022-JP", Confidence::Likely, Reason::Escapes))
            .flatten()
        {
            return d;
        }
        if let Some(d) = bytes
            .is_ascii()
            .then(|| found("ASCII", Confidence::Certain, Reason::Ascii))
            .flatten()
        {
            return d;
        }
        let utf8 = match utf8_simd::from_utf8(bytes) {
            Ok(_) => true,
            // Cut inside the last character (a prefix of a file).
            Err(e) => e.error_len().is_none() && e.valid_up_to() + 4 > bytes.len(),
        };
        if let Some(d) = utf8
            .then(|| found("UTF-8", Confidence::Likely, Reason::Utf8))
            .flatten()
        {
            return d;
        }
        let mut detector = chardetng::EncodingDetector::new(chardetng::Iso2022JpDetection::Allow);
        // From the line of the first non-ASCII byte (a long ASCII header,
        // as source code or mail has, says nothing), at most
        // DETECT_GUESS_BYTES; a prefix of a longer text is fed as one, so
        // chardetng does not judge the character cut at its end.
        let first = bytes.iter().position(|b| !b.is_ascii()).unwrap_or(0);
        let start = bytes[..first]
            .iter()
            .rposition(|&b| b == b'\n')
            .map_or(0, |i| i + 1);
        let end = bytes.len().min(start + DETECT_GUESS_BYTES);
        detector.feed(&bytes[start..end], end == bytes.len());
        let guess = detector.guess(None, chardetng::Utf8Detection::Allow);
        Detection {
            encoding: Encoding::for_whatwg(guess).unwrap_or(Encoding::UTF_8),
            confidence: Confidence::Guess,
            reason: Reason::Statistics,
        }
    }
}

/// UTF-16 or UTF-32 without a BOM, from where the zero bytes are: in text
/// of Latin script every other byte (UTF-16) or three bytes in four
/// (UTF-32) are zero, on one side. The text must also decode.
fn zero_pattern(bytes: &[u8]) -> Option<&'static str> {
    if bytes.len() < 4 || !bytes.contains(&0) {
        return None;
    }
    let mut zeros = [0usize; 4];
    for chunk in bytes.chunks_exact(4) {
        for (z, &b) in zeros.iter_mut().zip(chunk) {
            *z += usize::from(b == 0);
        }
    }
    let quads = bytes.len() / 4;
    let candidates: &[&str] = if zeros[2] == quads && zeros[3] == quads && zeros[0] < quads {
        &["UTF-32LE"]
    } else if zeros[0] == quads && zeros[1] == quads && zeros[3] < quads {
        &["UTF-32BE"]
    } else {
        let (even, odd) = (zeros[0] + zeros[2], zeros[1] + zeros[3]);
        // At least a third of the units with a zero byte on one side and
        // almost none on the other.
        if 3 * odd >= 2 * quads && even * 20 <= 2 * quads {
            &["UTF-16LE"]
        } else if 3 * even >= 2 * quads && odd * 20 <= 2 * quads {
            &["UTF-16BE"]
        } else {
            &[]
        }
    };
    candidates.iter().copied().find(|label| {
        Encoding::for_label(label).is_some_and(|e| {
            let cut = if label.starts_with("UTF-32") {
                bytes.len() / 4 * 4
            } else {
                bytes.len() / 2 * 2
            };
            e.decode_to_string(&bytes[..cut], DecodeMode::Strict)
                .is_ok()
        })
    })
}

/// UTF-16 of scripts whose text has few zero bytes. Legacy text has no C0
/// control bytes but TAB, LF, FF, CR and ESC; UTF-16 has them in most
/// units of U+0100–U+1FFF (Greek, Cyrillic, Hebrew, Arabic, Indic, Thai
/// in their high byte) and in one low byte in eight of CJK text. Then one
/// byte order must decode into characters of text ([`is_text`]), and the
/// other must not, or fall in at least
/// twice as many 256-character blocks (Cyrillic read in the wrong order
/// decodes, but into a different block for every letter).
fn utf16_units(bytes: &[u8]) -> Option<&'static str> {
    let controls = bytes
        .iter()
        .filter(|&&b| b < 0x20 && !matches!(b, b'\t' | b'\n' | 0x0C | b'\r' | 0x1B))
        .count();
    if bytes.len() < 4 || controls < 2 || controls * 64 < bytes.len() {
        return None;
    }
    let le = utf16_blocks(bytes, u16::from_le_bytes);
    let be = utf16_blocks(bytes, u16::from_be_bytes);
    match (le, be) {
        (Some(_), None) => Some("UTF-16LE"),
        (None, Some(_)) => Some("UTF-16BE"),
        (Some(l), Some(b)) if 2 * l <= b => Some("UTF-16LE"),
        (Some(l), Some(b)) if 2 * b <= l => Some("UTF-16BE"),
        _ => None,
    }
}

/// The fewest UTF-16 units [`utf16_units`] decides on (48 bytes): fewer
/// are too often binary data that happens to decode.
const MIN_UNITS: usize = 24;

/// How many 256-character blocks the UTF-16 text in `bytes` uses, if it
/// decodes (a high surrogate cut at the end allowed) from at least
/// [`MIN_UNITS`] units into characters of which at most one in fifty is
/// not text.
fn utf16_blocks(bytes: &[u8], unit: fn([u8; 2]) -> u16) -> Option<usize> {
    let mut units: Vec<u16> = bytes.chunks_exact(2).map(|c| unit([c[0], c[1]])).collect();
    if units.last().is_some_and(|&u| codec_core::utf16::is_lead(u)) {
        units.pop();
    }
    if units.len() < MIN_UNITS {
        return None;
    }
    let (mut chars, mut odd) = (0usize, 0usize);
    let mut blocks = [false; 0x1100];
    for c in char::decode_utf16(units) {
        let c = c.ok()?;
        chars += 1;
        odd += usize::from(!is_text(c));
        blocks[c as usize >> 8] = true;
    }
    (odd * 50 <= chars).then(|| blocks.iter().filter(|&&b| b).count())
}

/// Whether a character is one that text of some script holds: printable
/// ASCII, TAB, LF, FF, CR, the alphabets up to U+11FF, Latin and Greek
/// extended, punctuation and symbols, CJK, Hangul, presentation and
/// full-width forms, emoji and the CJK extensions. Random 16-bit units
/// fall outside a quarter of the time, so 24 units of binary data pass
/// in one order about once in a thousand.
fn is_text(c: char) -> bool {
    matches!(
        u32::from(c),
        0x09 | 0x0A | 0x0C | 0x0D
            | 0x20..=0x7E
            | 0xA0..=0x11FF
            | 0x1E00..=0x2BFF
            | 0x2E80..=0x9FFF
            | 0xAC00..=0xD7A3
            | 0xF900..=0xFDCF
            | 0xFDF0..=0xFFEF
            | 0x1_F000..=0x1_FAFF
            | 0x2_0000..=0x3_134F
    )
}

/// 7-bit text that switches to JIS X 0208 (`ESC $ @`, `ESC $ B`) and
/// decodes as ISO-2022-JP (perhaps cut inside its last character or
/// escape); plain ASCII stays ASCII.
fn iso_2022_jp(bytes: &[u8]) -> bool {
    bytes.is_ascii()
        && bytes
            .windows(3)
            .any(|w| matches!(w, [0x1B, b'$', b'@' | b'B']))
        && Encoding::for_label("ISO-2022-JP").is_some_and(|e| {
            match e.decode_to_string(bytes, DecodeMode::Strict) {
                Ok(_) => true,
                Err(err) => err.offset() + 4 > bytes.len() as u64,
            }
        })
}
