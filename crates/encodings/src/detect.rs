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

impl Encoding {
    /// Detects the encoding of `bytes` (the whole text, or its start):
    /// a BOM first; then UTF-16/32 from the pattern of zero bytes; then
    /// ASCII and valid UTF-8; then a guess for legacy text by chardetng
    /// (Firefox's detector), which answers with a WHATWG encoding.
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
        detector.feed(bytes, true);
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
