//! WTF-8 (Simon Sapin, "The WTF-8 encoding"): how to store potentially
//! ill-formed UTF-16 (Windows file names, JavaScript strings) as bytes.
//! It is UTF-8 plus the surrogate code points on their own, each as a
//! 3-byte sequence; a lead surrogate followed by a trail surrogate is not
//! allowed, because that pair is a supplementary character and is written
//! in its 4-byte form. Rust's `OsString` holds WTF-8 on Windows.
//!
//! ```
//! use utf8_variants::wtf8::{self, Wtf8Buf};
//!
//! // UTF-16 with a lone lead surrogate: not a String, but WTF-8.
//! let units = [0x61, 0xD83D, 0x62, 0xD83D, 0xDE00];
//! let w = Wtf8Buf::from_utf16(&units);
//! assert_eq!(w.as_bytes(), b"a\xED\xA0\xBDb\xF0\x9F\x98\x80");
//! assert_eq!(w.to_utf16(), units);
//! assert_eq!(w.to_string_lossy(), "a\u{FFFD}b😀");
//!
//! // Concatenation joins a trailing lead with a leading trail.
//! let mut left = Wtf8Buf::from_utf16(&[0x61, 0xD83D]);
//! left.push(&Wtf8Buf::from_utf16(&[0xDE00]));
//! assert_eq!(left.as_str(), Some("a😀"));
//!
//! // Validation, with the same errors as the other encodings.
//! let err = wtf8::validate(b"\xED\xA0\xBD\xED\xB8\x80").unwrap_err();
//! assert_eq!((err.valid_up_to(), err.kind()), (3, utf8_variants::ErrorKind::SurrogatePair));
//! ```

#[cfg(feature = "alloc")]
use crate::error::is_lead_surrogate;
use crate::{Error, Variant};
#[cfg(feature = "alloc")]
use alloc::{borrow::Cow, string::String, vec::Vec};
#[cfg(feature = "alloc")]
use core::fmt;

/// `Ok(())` if `input` is WTF-8, else the first error.
pub fn validate(input: &[u8]) -> Result<(), Error> {
    Variant::Wtf8.validate(input)
}

/// Whether `input` is WTF-8.
#[must_use]
pub fn is_valid(input: &[u8]) -> bool {
    Variant::Wtf8.is_valid(input)
}

/// The UTF-16 code units of WTF-8 `input`, without allocating: the error is
/// [`validate`]'s.
///
/// ```
/// let units: Vec<u16> = utf8_variants::wtf8::encode_utf16(b"a\xED\xB0\x80").unwrap().collect();
/// assert_eq!(units, [0x61, 0xDC00]);
/// ```
pub fn encode_utf16(input: &[u8]) -> Result<EncodeUtf16<'_>, Error> {
    validate(input)?;
    Ok(EncodeUtf16 {
        code_points: CodePoints { bytes: input },
        trail: None,
    })
}

/// WTF-8 `input` as potentially ill-formed UTF-16: each surrogate becomes
/// the code unit it encodes, each supplementary character a surrogate
/// pair. The error is [`validate`]'s.
#[cfg(feature = "alloc")]
pub fn to_utf16_vec(input: &[u8]) -> Result<Vec<u16>, Error> {
    let units = encode_utf16(input)?;
    let mut out = Vec::with_capacity(input.len());
    out.extend(units);
    Ok(out)
}

/// Potentially ill-formed UTF-16 as WTF-8. Never fails: every sequence of
/// code units has a WTF-8 form (that is WTF-8's purpose).
#[cfg(feature = "alloc")]
#[must_use]
pub fn from_utf16(units: &[u16]) -> Wtf8Buf {
    Wtf8Buf::from_utf16(units)
}

/// `input` as UTF-8, with each surrogate and each invalid piece
/// ([`Error::error_len`] bytes, or an unfinished end) replaced by U+FFFD:
/// what `OsStr::to_string_lossy` does on Windows, for any bytes.
///
/// Borrowed when `input` is UTF-8. On input that has no `ED A0..=BF` (no
/// surrogate, valid or not) the result is exactly
/// `String::from_utf8_lossy`.
///
/// ```
/// use utf8_variants::wtf8::to_utf8_lossy;
/// assert_eq!(to_utf8_lossy(b"a\xED\xA0\x80b"), "a\u{FFFD}b");
/// assert_eq!(to_utf8_lossy(b"a\xC0b"), "a\u{FFFD}b");
/// ```
#[cfg(feature = "alloc")]
#[must_use]
pub fn to_utf8_lossy(input: &[u8]) -> Cow<'_, str> {
    if let Ok(s) = utf8_simd::from_utf8(input) {
        return Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(input.len() + 2);
    let mut rest = input;
    loop {
        match validate(rest) {
            Ok(()) => {
                push_lossy(&mut out, rest);
                break;
            }
            Err(e) => {
                let v = e.valid_up_to().min(rest.len());
                push_lossy(&mut out, &rest[..v]);
                out.push(char::REPLACEMENT_CHARACTER);
                match e.error_len() {
                    Some(n) => rest = rest.get(v + n..).unwrap_or(&[]),
                    None => break,
                }
            }
        }
    }
    Cow::Owned(out)
}

/// Appends valid WTF-8 `bytes` to `out`, each surrogate as U+FFFD.
#[cfg(feature = "alloc")]
fn push_lossy(out: &mut String, bytes: &[u8]) {
    let mut run = 0;
    let mut i = 0;
    while i + 3 <= bytes.len() {
        if bytes[i] == 0xED && bytes[i + 1] >= 0xA0 {
            // Between surrogates the bytes are UTF-8 (valid WTF-8 without
            // surrogates); `from_utf8` cannot fail here.
            if let Ok(s) = core::str::from_utf8(&bytes[run..i]) {
                out.push_str(s);
            }
            out.push(char::REPLACEMENT_CHARACTER);
            i += 3;
            run = i;
        } else {
            i += 1;
        }
    }
    if let Ok(s) = core::str::from_utf8(&bytes[run..]) {
        out.push_str(s);
    }
}

/// The code points of valid WTF-8 bytes: `u32` values, surrogates among
/// them.
///
/// ```
/// use utf8_variants::wtf8::Wtf8Buf;
/// let w = Wtf8Buf::from_utf16(&[0x41, 0xDFFF]);
/// assert_eq!(w.code_points().collect::<Vec<_>>(), [0x41, 0xDFFF]);
/// ```
#[derive(Clone, Debug)]
pub struct CodePoints<'a> {
    bytes: &'a [u8],
}

impl Iterator for CodePoints<'_> {
    type Item = u32;

    fn next(&mut self) -> Option<u32> {
        let (&b0, rest) = self.bytes.split_first()?;
        let (len, payload) = match b0 {
            0x00..=0x7F => (1, u32::from(b0)),
            0xC0..=0xDF => (2, u32::from(b0 & 0x1F)),
            0xE0..=0xEF => (3, u32::from(b0 & 0x0F)),
            _ => (4, u32::from(b0 & 0x07)),
        };
        let tail = rest.get(..len - 1).unwrap_or(rest);
        let c = tail
            .iter()
            .fold(payload, |c, &b| (c << 6) | u32::from(b & 0x3F));
        self.bytes = rest.get(len - 1..).unwrap_or(&[]);
        Some(c)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.bytes.len().div_ceil(4), Some(self.bytes.len()))
    }
}

/// The UTF-16 code units of valid WTF-8 bytes; see [`encode_utf16`].
#[derive(Clone, Debug)]
pub struct EncodeUtf16<'a> {
    code_points: CodePoints<'a>,
    /// The trail surrogate of a supplementary character, still to come.
    trail: Option<u16>,
}

impl Iterator for EncodeUtf16<'_> {
    type Item = u16;

    fn next(&mut self) -> Option<u16> {
        if let Some(t) = self.trail.take() {
            return Some(t);
        }
        let c = self.code_points.next()?;
        if c < 0x1_0000 {
            return Some(c as u16);
        }
        let c = c - 0x1_0000;
        self.trail = Some(0xDC00 | (c & 0x3FF) as u16);
        Some(0xD800 | (c >> 10) as u16)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let (lo, hi) = self.code_points.size_hint();
        let extra = usize::from(self.trail.is_some());
        (lo + extra, hi.map(|h| h + extra))
    }
}

/// Whether `bytes` starts with a trail surrogate, `ED B0..=BF 80..=BF`.
#[cfg(feature = "alloc")]
fn is_trail_surrogate(bytes: &[u8]) -> bool {
    matches!(bytes, [0xED, 0xB0..=0xBF, 0x80..=0xBF, ..])
}

/// The 4-byte form of the supplementary character whose lead surrogate is
/// `ED a b` and trail surrogate `ED c d`.
#[cfg(feature = "alloc")]
fn join_pair(a: u8, b: u8, c: u8, d: u8) -> [u8; 4] {
    let hi = (u32::from(a & 0x0F) << 6) | u32::from(b & 0x3F);
    let lo = (u32::from(c & 0x0F) << 6) | u32::from(d & 0x3F);
    let cp = 0x1_0000 + ((hi << 10) | lo);
    [
        0xF0 | (cp >> 18) as u8,
        0x80 | ((cp >> 12) & 0x3F) as u8,
        0x80 | ((cp >> 6) & 0x3F) as u8,
        0x80 | (cp & 0x3F) as u8,
    ]
}

/// An owned, growable WTF-8 string: `String` for potentially ill-formed
/// UTF-16.
///
/// Its bytes are always valid WTF-8: every way to make or grow one either
/// produces WTF-8 or validates. Appending joins a lead surrogate at the end
/// with a trail surrogate at the start of what is appended, as the WTF-8
/// specification requires (§5, "Concatenation").
#[cfg(feature = "alloc")]
#[derive(Clone, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Wtf8Buf {
    bytes: Vec<u8>,
}

/// The error of [`Wtf8Buf::from_bytes`]: the bytes were not WTF-8. Gives
/// them back.
#[cfg(feature = "alloc")]
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FromBytesError {
    bytes: Vec<u8>,
    error: Error,
}

#[cfg(feature = "alloc")]
impl FromBytesError {
    /// The validation error.
    #[must_use]
    pub fn error(&self) -> Error {
        self.error
    }

    /// The bytes that were not WTF-8.
    #[must_use]
    pub fn into_bytes(self) -> Vec<u8> {
        self.bytes
    }
}

#[cfg(feature = "alloc")]
impl fmt::Display for FromBytesError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.error.fmt(f)
    }
}

#[cfg(feature = "alloc")]
impl core::error::Error for FromBytesError {
    fn source(&self) -> Option<&(dyn core::error::Error + 'static)> {
        Some(&self.error)
    }
}

#[cfg(feature = "alloc")]
impl Wtf8Buf {
    /// An empty string.
    #[must_use]
    pub const fn new() -> Wtf8Buf {
        Wtf8Buf { bytes: Vec::new() }
    }

    /// An empty string with room for `capacity` bytes.
    #[must_use]
    pub fn with_capacity(capacity: usize) -> Wtf8Buf {
        Wtf8Buf {
            bytes: Vec::with_capacity(capacity),
        }
    }

    /// `bytes` as a WTF-8 string, if they are WTF-8.
    ///
    /// ```
    /// use utf8_variants::wtf8::Wtf8Buf;
    /// assert!(Wtf8Buf::from_bytes(b"\xED\xA0\x80".to_vec()).is_ok());
    /// let err = Wtf8Buf::from_bytes(b"\xED\xA0\x80\xED\xB0\x80".to_vec()).unwrap_err();
    /// assert_eq!(err.error().valid_up_to(), 3);
    /// ```
    pub fn from_bytes(bytes: Vec<u8>) -> Result<Wtf8Buf, FromBytesError> {
        match validate(&bytes) {
            Ok(()) => Ok(Wtf8Buf { bytes }),
            Err(error) => Err(FromBytesError { bytes, error }),
        }
    }

    /// Bytes that the caller has made as WTF-8 (checked in debug builds).
    pub(crate) fn from_valid(bytes: Vec<u8>) -> Wtf8Buf {
        debug_assert!(is_valid(&bytes), "not WTF-8: {bytes:02X?}");
        Wtf8Buf { bytes }
    }

    /// Potentially ill-formed UTF-16 as WTF-8: a lead surrogate followed by
    /// a trail becomes their supplementary character (4 bytes), any other
    /// surrogate its own 3 bytes.
    #[must_use]
    pub fn from_utf16(units: &[u16]) -> Wtf8Buf {
        let mut bytes = Vec::with_capacity(units.len() + units.len() / 2);
        let mut i = 0;
        while let Some(&u) = units.get(i) {
            i += 1;
            let c = u32::from(u);
            match u {
                0x0000..=0x007F => bytes.push(u as u8),
                0x0080..=0x07FF => {
                    bytes.extend_from_slice(&[0xC0 | (c >> 6) as u8, 0x80 | (c & 0x3F) as u8]);
                }
                0xD800..=0xDBFF if units.get(i).is_some_and(|t| (0xDC00..=0xDFFF).contains(t)) => {
                    let lo = u32::from(units[i]);
                    i += 1;
                    let cp = 0x1_0000 + (((c & 0x3FF) << 10) | (lo & 0x3FF));
                    bytes.extend_from_slice(&[
                        0xF0 | (cp >> 18) as u8,
                        0x80 | ((cp >> 12) & 0x3F) as u8,
                        0x80 | ((cp >> 6) & 0x3F) as u8,
                        0x80 | (cp & 0x3F) as u8,
                    ]);
                }
                _ => bytes.extend_from_slice(&[
                    0xE0 | (c >> 12) as u8,
                    0x80 | ((c >> 6) & 0x3F) as u8,
                    0x80 | (c & 0x3F) as u8,
                ]),
            }
        }
        Wtf8Buf { bytes }
    }

    /// The bytes.
    #[must_use]
    pub fn as_bytes(&self) -> &[u8] {
        &self.bytes
    }

    /// The bytes, owned.
    #[must_use]
    pub fn into_bytes(self) -> Vec<u8> {
        self.bytes
    }

    /// The length in bytes.
    #[must_use]
    pub fn len(&self) -> usize {
        self.bytes.len()
    }

    /// Whether there are no bytes.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.bytes.is_empty()
    }

    /// Appends a string (never a join: UTF-8 has no surrogates).
    pub fn push_str(&mut self, s: &str) {
        self.bytes.extend_from_slice(s.as_bytes());
    }

    /// Appends another WTF-8 string, joining a lead surrogate at the end of
    /// `self` with a trail surrogate at the start of `other`.
    pub fn push(&mut self, other: &Wtf8Buf) {
        self.append(&other.bytes);
    }

    /// Appends `bytes` if they are WTF-8 (joining as [`push`](Self::push)
    /// does), else leaves `self` as it was and returns the error.
    ///
    /// ```
    /// use utf8_variants::wtf8::Wtf8Buf;
    /// let mut w = Wtf8Buf::new();
    /// w.push_wtf8(b"\xF0\x9F\x98").unwrap_err(); // unfinished
    /// w.push_wtf8(b"x\xED\xA0\xBD").unwrap();
    /// w.push_wtf8(b"\xED\xB8\x80").unwrap(); // joined
    /// assert_eq!(w.as_str(), Some("x😀"));
    /// ```
    pub fn push_wtf8(&mut self, bytes: &[u8]) -> Result<(), Error> {
        validate(bytes)?;
        self.append(bytes);
        Ok(())
    }

    /// Appends valid WTF-8 `bytes`, joining across the seam.
    fn append(&mut self, bytes: &[u8]) {
        let n = self.bytes.len();
        if n >= 3 && is_lead_surrogate(&self.bytes[n - 3..]) && is_trail_surrogate(bytes) {
            let joined = join_pair(self.bytes[n - 2], self.bytes[n - 1], bytes[1], bytes[2]);
            self.bytes.truncate(n - 3);
            self.bytes.extend_from_slice(&joined);
            self.bytes.extend_from_slice(&bytes[3..]);
        } else {
            self.bytes.extend_from_slice(bytes);
        }
    }

    /// The code points, surrogates among them.
    #[must_use]
    pub fn code_points(&self) -> CodePoints<'_> {
        CodePoints { bytes: &self.bytes }
    }

    /// The UTF-16 code units, without allocating.
    #[must_use]
    pub fn encode_utf16(&self) -> EncodeUtf16<'_> {
        EncodeUtf16 {
            code_points: self.code_points(),
            trail: None,
        }
    }

    /// The UTF-16 code units.
    #[must_use]
    pub fn to_utf16(&self) -> Vec<u16> {
        self.encode_utf16().collect()
    }

    /// The string, if it has no surrogates (its bytes are then UTF-8).
    #[must_use]
    pub fn as_str(&self) -> Option<&str> {
        utf8_simd::from_utf8(&self.bytes).ok()
    }

    /// The `String`, if it has no surrogates, else `self` back.
    pub fn into_string(self) -> Result<String, Wtf8Buf> {
        String::from_utf8(self.bytes).map_err(|e| Wtf8Buf {
            bytes: e.into_bytes(),
        })
    }

    /// As UTF-8, each surrogate replaced by U+FFFD; borrowed when there is
    /// none.
    #[must_use]
    pub fn to_string_lossy(&self) -> Cow<'_, str> {
        to_utf8_lossy(&self.bytes)
    }
}

#[cfg(feature = "alloc")]
impl From<&str> for Wtf8Buf {
    fn from(s: &str) -> Self {
        Wtf8Buf {
            bytes: s.as_bytes().to_vec(),
        }
    }
}

#[cfg(feature = "alloc")]
impl From<String> for Wtf8Buf {
    fn from(s: String) -> Self {
        Wtf8Buf {
            bytes: s.into_bytes(),
        }
    }
}

#[cfg(feature = "alloc")]
impl fmt::Debug for Wtf8Buf {
    /// Like a `str`'s `Debug`, with each surrogate as `\u{D800}`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use fmt::Write as _;
        f.write_char('"')?;
        for c in self.code_points() {
            match char::from_u32(c) {
                Some(c) => {
                    for e in c.escape_debug() {
                        f.write_char(e)?;
                    }
                }
                None => write!(f, "\\u{{{c:X}}}")?,
            }
        }
        f.write_char('"')
    }
}

#[cfg(feature = "alloc")]
impl fmt::Display for Wtf8Buf {
    /// Lossy: each surrogate as U+FFFD.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_string_lossy())
    }
}
