//! [`Bom`]: byte-order marks, detected and stripped, and [`BomMode`]: what a
//! decoder of UTF-16 or UTF-32 bytes does with one. The one place these
//! facts live: transcode, utf8-variants and the encodings use them.
//!
//! A byte-order mark is U+FEFF at the very start of a text, which Unicode
//! (§23.8, "Specials") calls the signature of its encoding form. Detection
//! looks at the first two to four bytes only; it is a guess about the
//! encoding that the rest of the text is then validated against.

/// The encoding a byte-order mark announces.
///
/// ```
/// use codec_core::Bom;
///
/// let file = b"\xEF\xBB\xBFname,value\n";
/// let bom = Bom::detect(file);
/// assert_eq!(bom, Some(Bom::Utf8));
/// assert_eq!(bom.map(Bom::len), Some(3));
/// assert_eq!(Bom::strip(file), (Some(Bom::Utf8), &b"name,value\n"[..]));
///
/// // UTF-32LE's mark starts with UTF-16LE's: the longer one wins.
/// assert_eq!(Bom::detect(b"\xFF\xFE\x00\x00"), Some(Bom::Utf32Le));
/// assert_eq!(Bom::detect(b"\xFF\xFEa\x00"), Some(Bom::Utf16Le));
/// assert_eq!(Bom::detect(b"plain"), None);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Bom {
    /// `EF BB BF`: UTF-8 (and CESU-8, MUTF-8, WTF-8, where U+FEFF has the
    /// same bytes).
    Utf8,
    /// `FF FE`: UTF-16, little-endian.
    Utf16Le,
    /// `FE FF`: UTF-16, big-endian.
    Utf16Be,
    /// `FF FE 00 00`: UTF-32, little-endian.
    Utf32Le,
    /// `00 00 FE FF`: UTF-32, big-endian.
    Utf32Be,
}

impl Bom {
    /// All five, longest first within each shared prefix: the order in
    /// which [`detect`](Self::detect) tries them.
    pub const ALL: [Bom; 5] = [
        Bom::Utf32Le,
        Bom::Utf32Be,
        Bom::Utf8,
        Bom::Utf16Le,
        Bom::Utf16Be,
    ];

    /// The byte-order mark at the start of `bytes`, if any.
    ///
    /// `FF FE 00 00` is taken as UTF-32LE, although it could also be UTF-16LE
    /// text starting with U+0000; a text file practically never starts
    /// with NUL, and the Unicode FAQ on byte-order marks lists the UTF-32LE
    /// mark first for that reason.
    #[must_use]
    pub const fn detect(bytes: &[u8]) -> Option<Bom> {
        match bytes {
            [0xFF, 0xFE, 0x00, 0x00, ..] => Some(Bom::Utf32Le),
            [0x00, 0x00, 0xFE, 0xFF, ..] => Some(Bom::Utf32Be),
            [0xEF, 0xBB, 0xBF, ..] => Some(Bom::Utf8),
            [0xFF, 0xFE, ..] => Some(Bom::Utf16Le),
            [0xFE, 0xFF, ..] => Some(Bom::Utf16Be),
            _ => None,
        }
    }

    /// `bytes` without its byte-order mark, and the mark that was there.
    #[must_use]
    pub fn strip(bytes: &[u8]) -> (Option<Bom>, &[u8]) {
        match Bom::detect(bytes) {
            Some(bom) => (Some(bom), bytes.get(bom.len()..).unwrap_or(&[])),
            None => (None, bytes),
        }
    }

    /// The mark's bytes.
    #[must_use]
    pub const fn as_bytes(self) -> &'static [u8] {
        match self {
            Bom::Utf8 => &[0xEF, 0xBB, 0xBF],
            Bom::Utf16Le => &[0xFF, 0xFE],
            Bom::Utf16Be => &[0xFE, 0xFF],
            Bom::Utf32Le => &[0xFF, 0xFE, 0x00, 0x00],
            Bom::Utf32Be => &[0x00, 0x00, 0xFE, 0xFF],
        }
    }

    /// The mark's length in bytes: 2, 3 or 4.
    // A mark is never empty; `is_empty` would always be false.
    #[allow(clippy::len_without_is_empty)]
    #[must_use]
    pub const fn len(self) -> usize {
        self.as_bytes().len()
    }

    /// The encoding's name: `UTF-8`, `UTF-16LE`, `UTF-16BE`, `UTF-32LE`,
    /// `UTF-32BE` (the names of the IANA character set registry).
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Bom::Utf8 => "UTF-8",
            Bom::Utf16Le => "UTF-16LE",
            Bom::Utf16Be => "UTF-16BE",
            Bom::Utf32Le => "UTF-32LE",
            Bom::Utf32Be => "UTF-32BE",
        }
    }
}

/// What a decoder of UTF-16 or UTF-32 *bytes* in a known order does with a
/// leading byte-order mark of that order.
///
/// [`Strip`](BomMode::Strip) is the default, as encoding_rs decodes and as
/// iconv reads `UTF-16`: the mark says how to read the bytes and is not part
/// of the text. [`Keep`](BomMode::Keep) decodes it as U+FEFF (ZERO WIDTH
/// NO-BREAK SPACE), as std's `String::from_utf16le` and iconv's `UTF-16LE`
/// do; [`Reject`](BomMode::Reject) makes it an error. A mark of the other
/// order (`FE FF` read as little-endian) is U+FFFE, a noncharacter that is
/// still well-formed, and is never stripped.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum BomMode {
    /// Skip a leading mark; error offsets still count its bytes.
    #[default]
    Strip,
    /// Decode it as U+FEFF.
    Keep,
    /// A leading mark is an error at offset 0.
    Reject,
}

impl core::fmt::Display for Bom {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    extern crate std;
    use std::vec::Vec;

    /// Every mark is U+FEFF in its encoding.
    #[test]
    fn each_mark_is_u_feff_encoded() {
        let c = '\u{FEFF}';
        let mut utf8 = [0; 4];
        assert_eq!(Bom::Utf8.as_bytes(), c.encode_utf8(&mut utf8).as_bytes());
        let u = 0xFEFF_u16;
        assert_eq!(Bom::Utf16Le.as_bytes(), u.to_le_bytes());
        assert_eq!(Bom::Utf16Be.as_bytes(), u.to_be_bytes());
        assert_eq!(Bom::Utf32Le.as_bytes(), 0xFEFF_u32.to_le_bytes());
        assert_eq!(Bom::Utf32Be.as_bytes(), 0xFEFF_u32.to_be_bytes());
    }

    /// Detection equals "the longest mark that is a prefix", on every input
    /// of up to 4 bytes drawn from the bytes of the marks and two others.
    #[test]
    fn detect_is_the_longest_matching_mark() {
        let alphabet = [0x00, 0xBB, 0xBF, 0xEF, 0xFE, 0xFF, 0x41, 0x80];
        let n = alphabet.len();
        for len in 0..=5u32 {
            for k in 0..n.pow(len) {
                let input: Vec<u8> = (0..len).map(|i| alphabet[k / n.pow(i) % n]).collect();
                let want = Bom::ALL
                    .iter()
                    .copied()
                    .filter(|b| input.starts_with(b.as_bytes()))
                    .max_by_key(|b| b.len());
                assert_eq!(Bom::detect(&input), want, "{input:02X?}");
                let (bom, rest) = Bom::strip(&input);
                assert_eq!(bom, want);
                assert_eq!(rest, &input[want.map_or(0, Bom::len)..]);
            }
        }
    }
}
