//! Counts, lengths and character boundaries, without converting.
//!
//! Kernels: `arch/x86_64/*/count.rs`. Each count has one scalar definition
//! here ([`scalar`]), which the portable table uses and the kernels use for
//! their tails.
//!
//! The UTF-8 counts take `&str`: on valid UTF-8 they are sums over bytes
//! (a character is a byte that is not a continuation byte; a 4-byte
//! character is two UTF-16 units), which SIMD computes at memory speed.
//! The UTF-16 counts are exact on any input, as `char::decode_utf16` and
//! `String::from_utf16_lossy` count: a lead surrogate followed by a trail
//! surrogate is one character, and every other surrogate is one U+FFFD.

use crate::Transcoder;
use crate::byte_order::{ByteOrder, Lead};
use crate::scalar::is_lead;

pub(crate) mod scalar {
    //! The scalar definitions of the counts.

    use crate::scalar::{is_continuation, is_lead, is_trail};

    /// Bytes that are not continuation bytes: the characters of valid UTF-8
    /// (codec-core's definition).
    pub(crate) fn count_utf8(src: &[u8]) -> usize {
        codec_core::utf8::count_chars(src)
    }

    /// The UTF-16 length of valid UTF-8: one unit per character, two for the
    /// characters of 4 bytes (lead `F0..=F4`).
    pub(crate) fn utf16_len_from_utf8(src: &[u8]) -> usize {
        src.iter()
            .map(|&b| usize::from(!is_continuation(b)) + usize::from(b >= 0xF0))
            .sum()
    }

    /// The number of surrogate pairs (a lead followed by a trail), which
    /// never overlap: a unit cannot be both.
    fn pairs(src: &[u16]) -> usize {
        src.windows(2)
            .filter(|w| is_lead(w[0]) && is_trail(w[1]))
            .count()
    }

    /// `char::decode_utf16(src).count()`.
    pub(crate) fn count_utf16(src: &[u16]) -> usize {
        src.len() - pairs(src)
    }

    /// `String::from_utf16_lossy(src).len()`: 1, 2 or 3 bytes a unit
    /// (U+FFFD, for an unpaired surrogate, is 3), less 2 for each pair,
    /// whose 6 counted bytes are 4.
    pub(crate) fn utf8_len_from_utf16(src: &[u16]) -> usize {
        let units: usize = src
            .iter()
            .map(|&u| 1 + usize::from(u >= 0x80) + usize::from(u >= 0x800))
            .sum();
        units - 2 * pairs(src)
    }

    /// The UTF-8 length of Latin-1: one byte, two from `80`.
    pub(crate) fn utf8_len_from_latin1(src: &[u8]) -> usize {
        src.len() + src.iter().filter(|&&b| b >= 0x80).count()
    }

    /// The UTF-8 length of lossy UTF-32 (an invalid unit becomes U+FFFD, 3
    /// bytes).
    pub(crate) fn utf8_len_from_utf32(src: &[u32]) -> usize {
        src.iter()
            .map(|&u| match u {
                0..0x80 => 1,
                0x80..0x800 => 2,
                0x1_0000..=0x10_FFFF => 4,
                _ => 3,
            })
            .sum()
    }

    /// The UTF-16 length of lossy UTF-32.
    pub(crate) fn utf16_len_from_utf32(src: &[u32]) -> usize {
        src.len()
            + src
                .iter()
                .filter(|&&u| (0x1_0000..=0x10_FFFF).contains(&u))
                .count()
    }
}

impl Transcoder {
    /// [`count_chars`] with these kernels.
    #[must_use]
    pub fn count_chars(&self, src: &str) -> usize {
        self.checked().count(|k| k.count_utf8, src.as_bytes())
    }

    /// [`count_chars_utf16`] with these kernels.
    #[must_use]
    pub fn count_chars_utf16(&self, src: &[u16]) -> usize {
        self.checked().count(|k| k.count_utf16, src)
    }

    /// [`utf16_len`] with these kernels.
    #[must_use]
    pub fn utf16_len(&self, src: &str) -> usize {
        self.utf16_len_valid(src.as_bytes())
    }

    /// The UTF-16 length of `src`, which must be valid UTF-8.
    pub(crate) fn utf16_len_valid(&self, src: &[u8]) -> usize {
        self.checked().count(|k| k.utf16_len_from_utf8, src)
    }

    /// The UTF-32 length of valid UTF-8: its characters.
    #[cfg(feature = "alloc")]
    pub(crate) fn utf32_len_valid(&self, src: &[u8]) -> usize {
        self.checked().count(|k| k.count_utf8, src)
    }

    /// [`utf8_len_from_utf16`] with these kernels.
    #[must_use]
    pub fn utf8_len_from_utf16(&self, src: &[u16]) -> usize {
        self.checked().count(|k| k.utf8_len_from_utf16, src)
    }

    /// [`utf8_len_from_utf16_bytes`] with these kernels.
    #[must_use]
    pub fn utf8_len_from_utf16_bytes(&self, src: &[u8], order: impl Into<ByteOrder>) -> usize {
        self.over_utf16_bytes(src, order.into(), |t, units| t.utf8_len_from_utf16(units))
    }

    /// [`count_chars_utf16_bytes`] with these kernels.
    #[must_use]
    pub fn count_chars_utf16_bytes(&self, src: &[u8], order: impl Into<ByteOrder>) -> usize {
        self.over_utf16_bytes(src, order.into(), |t, units| t.count_chars_utf16(units))
    }

    /// The sum of `measure` over the code units of `src`, read in blocks of
    /// native units that never end between a lead surrogate and what
    /// follows it, so that `measure` sees every pair whole. A kept mark is a
    /// unit like any other; a rejected one and an odd last byte are each one
    /// U+FFFD, measured as the unpaired surrogate `DC00` is.
    fn over_utf16_bytes(
        &self,
        src: &[u8],
        order: ByteOrder,
        measure: impl Fn(&Self, &[u16]) -> usize,
    ) -> usize {
        const BLOCK: usize = 256;
        let lead = order.lead(src);
        let replaced = |n: usize| n * measure(self, &[0xDC00]);
        let (units, odd) = src.get(lead.skipped()..).unwrap_or(&[]).as_chunks::<2>();
        let mut total = replaced(usize::from(!odd.is_empty()));
        let units = match lead {
            Lead::Rejected => {
                total += replaced(1);
                units.get(1..).unwrap_or(&[])
            }
            Lead::Skip(_) | Lead::Text => units,
        };
        let mut block = [0u16; BLOCK];
        let mut rest = units;
        while !rest.is_empty() {
            let take = rest.len().min(BLOCK);
            let (now, later) = rest.split_at(take);
            for (u, b) in block.iter_mut().zip(now) {
                *u = codec_core::utf16::unit(*b, order.order);
            }
            // A lead at the end of a block waits for the next one, unless
            // the input ends there.
            let keep = match block[..take].last() {
                Some(&u) if is_lead(u) && !later.is_empty() => take - 1,
                _ => take,
            };
            total += measure(self, &block[..keep]);
            rest = rest.get(keep..).unwrap_or(&[]);
        }
        total
    }

    /// [`utf8_len_from_latin1`] with these kernels.
    #[must_use]
    pub fn utf8_len_from_latin1(&self, src: &[u8]) -> usize {
        self.checked().count(|k| k.utf8_len_from_latin1, src)
    }

    /// [`utf8_len_from_utf32`] with these kernels.
    #[must_use]
    pub fn utf8_len_from_utf32(&self, src: &[u32]) -> usize {
        self.checked().count(|k| k.utf8_len_from_utf32, src)
    }

    /// [`utf16_len_from_utf32`] with these kernels.
    #[must_use]
    pub fn utf16_len_from_utf32(&self, src: &[u32]) -> usize {
        self.checked().count(|k| k.utf16_len_from_utf32, src)
    }
}

/// The length of the lossy conversion of UTF-8 `src`: `len(t, valid part)`
/// for each valid stretch, plus `replacement` for each U+FFFD.
#[cfg(feature = "alloc")]
pub(crate) fn lossy_len_from_utf8(
    t: Transcoder,
    src: &[u8],
    len: impl Fn(&Transcoder, &[u8]) -> usize,
    replacement: usize,
) -> usize {
    let kernels = t.kernels();
    let validate = |s: &[u8]| kernels.validate_utf8(s);
    let (mut total, mut rest) = (0, src);
    loop {
        match validate(rest) {
            Ok(()) => return total + len(&t, rest),
            Err(e) => {
                let valid = e.valid_up_to();
                total += len(&t, rest.get(..valid).unwrap_or(&[])) + replacement;
                let skip = e.error_len().unwrap_or(rest.len() - valid);
                rest = rest.get(valid + skip..).unwrap_or(&[]);
            }
        }
    }
}

/// The number of characters in `src`: `src.chars().count()`.
///
/// ```
/// assert_eq!(transcode::count_chars("añ€😀"), 4);
/// ```
#[must_use]
#[inline]
pub fn count_chars(src: &str) -> usize {
    Transcoder::new().count_chars(src)
}

/// The number of characters `char::decode_utf16(src)` yields, counting
/// each unpaired surrogate as one (the U+FFFD a lossy conversion makes
/// of it).
///
/// ```
/// // 'a', a pair, an unpaired lead.
/// assert_eq!(transcode::count_chars_utf16(&[0x61, 0xD83D, 0xDE00, 0xD800]), 3);
/// ```
#[must_use]
#[inline]
pub fn count_chars_utf16(src: &[u16]) -> usize {
    Transcoder::new().count_chars_utf16(src)
}

/// The UTF-16 length of `src` in `u16`s: `src.encode_utf16().count()`.
///
/// ```
/// assert_eq!(transcode::utf16_len("a😀"), 3);
/// ```
#[must_use]
#[inline]
pub fn utf16_len(src: &str) -> usize {
    Transcoder::new().utf16_len(src)
}

/// The UTF-8 length in bytes of the lossy conversion of UTF-16 `src`:
/// `String::from_utf16_lossy(src).len()`, which for valid input is the
/// length of its conversion.
///
/// ```
/// assert_eq!(transcode::utf8_len_from_utf16(&[0x61, 0xE9, 0x20AC, 0xD83D, 0xDE00]), 10);
/// ```
#[must_use]
#[inline]
pub fn utf8_len_from_utf16(src: &[u16]) -> usize {
    Transcoder::new().utf8_len_from_utf16(src)
}

/// [`utf8_len_from_utf16`] of UTF-16 held in bytes: the length in bytes
/// of what [`utf16_bytes_to_utf8_lossy`](crate::utf16_bytes_to_utf8_lossy)
/// writes, with the same [`ByteOrder`] (a stripped byte-order mark is not
/// counted; an odd last byte is one U+FFFD), and, for well-formed input,
/// of what [`utf16_bytes_to_utf8`](crate::utf16_bytes_to_utf8) writes.
///
/// ```
/// use transcode::Endianness;
/// let file = b"\xFF\xFEa\x00\xE9\x00";
/// assert_eq!(transcode::utf8_len_from_utf16_bytes(file, Endianness::Little), 3);
/// ```
#[must_use]
#[inline]
pub fn utf8_len_from_utf16_bytes(src: &[u8], order: impl Into<ByteOrder>) -> usize {
    Transcoder::new().utf8_len_from_utf16_bytes(src, order)
}

/// [`count_chars_utf16`] of UTF-16 held in bytes: the characters that
/// [`utf16_bytes_to_string_lossy`](crate::utf16_bytes_to_string_lossy) makes.
///
/// ```
/// use transcode::Endianness;
/// let file = b"\xFE\xFF\xD8\x3D\xDE\x00\x00";
/// // The mark is stripped; a pair, and an odd byte.
/// assert_eq!(transcode::count_chars_utf16_bytes(file, Endianness::Big), 2);
/// ```
#[must_use]
#[inline]
pub fn count_chars_utf16_bytes(src: &[u8], order: impl Into<ByteOrder>) -> usize {
    Transcoder::new().count_chars_utf16_bytes(src, order)
}

/// The UTF-8 length in bytes of Latin-1 `src`.
///
/// ```
/// assert_eq!(transcode::utf8_len_from_latin1(b"caf\xE9"), 5);
/// ```
#[must_use]
#[inline]
pub fn utf8_len_from_latin1(src: &[u8]) -> usize {
    Transcoder::new().utf8_len_from_latin1(src)
}

/// The UTF-8 length in bytes of the lossy conversion of UTF-32 `src`
/// (an invalid unit becomes U+FFFD, 3 bytes). The SIMD kernels read
/// `src` twice if it holds a unit above `10FFFF` (the first pass is
/// exact only up to `10FFFF`): the answer is exact either way.
///
/// ```
/// assert_eq!(transcode::utf8_len_from_utf32(&[0x61, 0x1F600, 0xD800]), 8);
/// ```
#[must_use]
#[inline]
pub fn utf8_len_from_utf32(src: &[u32]) -> usize {
    Transcoder::new().utf8_len_from_utf32(src)
}

/// The UTF-16 length in `u16`s of the lossy conversion of UTF-32 `src`.
/// As for `utf8_len_from_utf32`, a unit above `10FFFF` costs a
/// second pass.
///
/// ```
/// assert_eq!(transcode::utf16_len_from_utf32(&[0x61, 0x1F600, 0xD800]), 4);
/// ```
#[must_use]
#[inline]
pub fn utf16_len_from_utf32(src: &[u32]) -> usize {
    Transcoder::new().utf16_len_from_utf32(src)
}

/// The largest `n <= index` (and `<= src.len()`) such that `src[..n]` does
/// not end inside a character, judged by the bytes before `index` only: if
/// a byte among the last 3 before `index` starts a character that needs
/// more bytes than there are before `index`, `n` is where it starts;
/// otherwise `index`. (Bytes that start no character at all are not cut
/// off: validation rejects them where they are.)
///
/// On valid UTF-8 this is `str::floor_char_boundary`. With
/// `index == src.len()` it drops an incomplete character at the end of a
/// buffer (to carry it to the next one), as the workspace's streaming
/// engine does (`codec_core::utf8::unfinished_start`, which this is).
///
/// ```
/// let s = "a😀".as_bytes(); // 1 + 4 bytes
/// assert_eq!(transcode::floor_char_boundary_utf8(s, 3), 1);
/// assert_eq!(transcode::floor_char_boundary_utf8(s, 5), 5);
/// assert_eq!(transcode::floor_char_boundary_utf8(&s[..4], 4), 1);
/// ```
#[must_use]
pub fn floor_char_boundary_utf8(src: &[u8], index: usize) -> usize {
    codec_core::utf8::unfinished_start(src.get(..index).unwrap_or(src))
}

/// The largest `n <= index` (and `<= src.len()`) such that `src[..n]` does
/// not end with a lead surrogate: `index - 1` if the unit before `index` is
/// a lead surrogate, else `index`.
///
/// On valid UTF-16 this never splits a surrogate pair; with
/// `index == src.len()` it drops a lead surrogate at the end of a buffer (to
/// carry it to the next one).
///
/// ```
/// let s = [0x61, 0xD83D, 0xDE00];
/// assert_eq!(transcode::floor_char_boundary_utf16(&s, 2), 1);
/// assert_eq!(transcode::floor_char_boundary_utf16(&s, 3), 3);
/// ```
#[must_use]
pub fn floor_char_boundary_utf16(src: &[u16], index: usize) -> usize {
    let index = index.min(src.len());
    match index.checked_sub(1).and_then(|i| src.get(i)) {
        Some(&u) if is_lead(u) => index - 1,
        _ => index,
    }
}
