//! Where an input may be cut into regions that decoders take in parallel,
//! each starting afresh, with the same result as one decoder over the
//! whole ([`Encoding::cut_near`], [`crate::Decoder::resume`]).
//!
//! - Single-byte encodings: anywhere; glibc's CP1255 and CP1258 before a
//!   byte that is neither a combining mark nor undefined (never between a
//!   letter and its marks).
//! - UTF-8 and WTF-8: before a byte that is not a continuation byte
//!   (`10xxxxxx`). No sequence that starts before such a byte extends past
//!   it, and a maximal invalid subpart never spans it, so strict and lossy
//!   decoding see the same pieces on both sides. A lead byte takes at most
//!   3 continuation bytes, so the cut moves at most 3 bytes. (WTF-8: a
//!   surrogate pair is two 3-byte sequences that a cut between them would
//!   leave unpaired; the cut moves past a trail surrogate after a lead.)
//! - UTF-16 and UCS-2: at an even offset, moved one unit on when it falls
//!   between a lead and a trail surrogate.
//! - UTF-32: at a multiple of 4.
//! - Shift_JIS, EUC-JP, EUC-KR and Big5: before the next byte below 0x40
//!   (a space, a line break, a digit: never a trail byte in these), which
//!   may be far in text without spaces.
//! - GBK and gb18030: after the next byte below 0x30 (a space, a line
//!   break). Such a byte is never the second, trail or fourth byte of a
//!   sequence; where it breaks one, the decoder puts the bytes after the
//!   lead back and reads them again, ending with this byte as ASCII, so it
//!   leaves the decoder empty whatever came before it. A cut *before* it is
//!   not safe: `81 30 81 20` decodes to U+FFFD, `0`, U+FFFD, space, and
//!   `81 30 81` alone to one U+FFFD.
//! - CESU-8, MUTF-8, UTF-7 and ISO-2022-JP: nowhere (their pieces or shift
//!   states cannot be found from a position alone).

use crate::Encoding;
use crate::registry::{Kind, Order};
use codec_core::utf16::Endianness;

impl Encoding {
    /// The first place at or after `at` where `input` may be cut so that a
    /// decoder started there ([`crate::Decoder::resume`]) continues exactly
    /// what one decoder over all of `input` would produce; `None` if the
    /// encoding cannot be cut (see the module docs) or no such place is
    /// within `input`. `input` is the whole input from its first byte (its
    /// start says the byte order of `UTF-16` and `UTF-32`).
    #[must_use]
    pub fn cut_near(self, input: &[u8], at: usize) -> Option<usize> {
        self.cut_near_in(input, input, at)
    }

    /// [`Encoding::cut_near`] for an input that is not all in memory:
    /// `window` is a stretch of it that starts at an offset that is a
    /// multiple of 4 (code units are counted from there), with a few bytes
    /// around the place wanted (4 before `at` and 8 from it are enough); `at` and the result
    /// are indexes into `window`, and `head` is the input's first bytes (4
    /// are enough), from which `UTF-16` and `UTF-32` take their byte order.
    ///
    /// ```
    /// use encodings::Encoding;
    ///
    /// let utf16 = Encoding::for_label("UTF-16").unwrap();
    /// let input = b"\xFE\xFF\0a\xD8\x3D\xDE\x00\0b"; // BOM (big-endian), a, 😀, b
    /// // The stretch from byte 4 (the lead surrogate) on: byte 6 is inside
    /// // the pair, so the cut moves past its trail.
    /// assert_eq!(utf16.cut_near_in(&input[..4], &input[4..], 2), Some(4));
    /// assert_eq!(utf16.cut_near(input, 6), Some(8));
    /// ```
    #[must_use]
    pub fn cut_near_in(self, head: &[u8], window: &[u8], at: usize) -> Option<usize> {
        let input = window;
        if at >= input.len() {
            return None;
        }
        match self.kind() {
            Kind::SingleByte(_) | Kind::Latin1 | Kind::Ascii => Some(at),
            // Before a byte that is neither a mark nor undefined: it ends
            // whatever letter and marks came before (an undefined byte
            // does not, when skipped).
            Kind::Composing(c) => (at..input.len())
                .find(|&i| !c.is_mark(input[i]) && c.page.decode_byte(input[i]).is_some()),
            Kind::Utf8 | Kind::Wtf8 => {
                let mut c = (at..input.len().min(at + 4)).find(|&i| input[i] & 0xC0 != 0x80)?;
                // WTF-8: keep a surrogate pair (ED A0..AF xx ED B0..BF xx)
                // together.
                if self.kind_is_wtf8()
                    && c >= 3
                    && matches!(input[c - 3..], [0xED, 0xA0..=0xAF, _, ..])
                    && matches!(input[c..], [0xED, 0xB0..=0xBF, ..])
                {
                    c += 3;
                }
                (c < input.len()).then_some(c)
            }
            Kind::Utf16(_) | Kind::Ucs2(_) => {
                let order = sniffed(self, head);
                let mut c = at + (at & 1);
                let unit = |i: usize| {
                    let b = [*input.get(i)?, *input.get(i + 1)?];
                    Some(match order {
                        Endianness::Little => u16::from_le_bytes(b),
                        Endianness::Big => u16::from_be_bytes(b),
                    })
                };
                let lead = c >= 2 && unit(c - 2).is_some_and(|u| (0xD800..0xDC00).contains(&u));
                let trail = unit(c).is_some_and(|u| (0xDC00..0xE000).contains(&u));
                if lead && trail && !matches!(self.kind(), Kind::Ucs2(_)) {
                    c += 2;
                }
                (c < input.len()).then_some(c)
            }
            Kind::Utf32(_) => {
                let c = at.next_multiple_of(4);
                (c < input.len()).then_some(c)
            }
            Kind::Legacy(e) if resynchronises(e) => (at..input.len()).find(|&i| input[i] < 0x40),
            Kind::Legacy(e) if e == encoding_rs::GBK || e == encoding_rs::GB18030 => (at..input
                .len())
                .find(|&i| input[i] < 0x30)
                .map(|i| i + 1)
                .filter(|&c| c < input.len()),
            Kind::Cesu8 | Kind::Mutf8 | Kind::Utf7 | Kind::Legacy(_) => None,
        }
    }

    /// Whether [`Encoding::cut_near`] finds places to cut input in this
    /// encoding (see the module docs).
    ///
    /// ```
    /// use encodings::Encoding;
    ///
    /// assert!(Encoding::for_label("CP1251").unwrap().is_cuttable());
    /// assert!(Encoding::for_label("Shift_JIS").unwrap().is_cuttable());
    /// assert!(Encoding::for_label("GB18030").unwrap().is_cuttable());
    /// assert!(!Encoding::for_label("ISO-2022-JP").unwrap().is_cuttable());
    /// ```
    #[must_use]
    pub fn is_cuttable(self) -> bool {
        match self.kind() {
            Kind::Cesu8 | Kind::Mutf8 | Kind::Utf7 => false,
            Kind::Legacy(e) => {
                resynchronises(e) || e == encoding_rs::GBK || e == encoding_rs::GB18030
            }
            _ => true,
        }
    }

    fn kind_is_wtf8(self) -> bool {
        matches!(self.kind(), Kind::Wtf8)
    }
}

/// Whether encoding_rs's decoder of `e` starts afresh before any byte below
/// 0x40: Shift_JIS, EUC-JP, EUC-KR and Big5, whose trail bytes are 0x40 or
/// above (EUC-KR's 0x41, EUC-JP's 0xA1), and which, when a lead byte is
/// followed by an ASCII byte, report the lead alone and read the ASCII
/// byte again (WHATWG Encoding, "restore byte to ioQueue"), as they do for
/// a lead byte at the end of the input. GBK and gb18030 are cut elsewhere
/// (the module docs).
fn resynchronises(e: &'static encoding_rs::Encoding) -> bool {
    [
        encoding_rs::SHIFT_JIS,
        encoding_rs::EUC_JP,
        encoding_rs::EUC_KR,
        encoding_rs::BIG5,
    ]
    .contains(&e)
}

/// The byte order of UTF-16/UTF-32 input that starts with `head`: named,
/// or from its BOM (little-endian without one).
pub(crate) fn sniffed(e: Encoding, head: &[u8]) -> Endianness {
    match e.kind() {
        Kind::Utf16(Order::Fixed(o)) | Kind::Utf32(Order::Fixed(o)) | Kind::Ucs2(o) => o,
        Kind::Utf16(Order::Bom) if head.starts_with(&[0xFE, 0xFF]) => Endianness::Big,
        Kind::Utf32(Order::Bom) if head.starts_with(&[0, 0, 0xFE, 0xFF]) => Endianness::Big,
        _ => Endianness::Little,
    }
}
