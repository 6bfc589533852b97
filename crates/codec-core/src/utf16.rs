//! UTF-16's facts, in one place: surrogates, pairs, and units held in bytes
//! of either order. Every crate of the workspace that reads or writes
//! UTF-16 (transcode, utf8-variants, the encodings, the `codec` tool) takes
//! them from here.
//!
//! ```
//! use codec_core::utf16::{self, Endianness};
//!
//! let (lead, trail) = utf16::split('😀').unwrap();
//! assert_eq!((lead, trail), (0xD83D, 0xDE00));
//! assert!(utf16::is_lead(lead) && utf16::is_trail(trail));
//! assert_eq!(utf16::pair(lead, trail), Some('😀'));
//! assert_eq!(utf16::unit([0x3D, 0xD8], Endianness::Little), 0xD83D);
//! assert_eq!(utf16::unit([0xD8, 0x3D], Endianness::Big), 0xD83D);
//! ```

use core::ops::RangeInclusive;

/// Lead (high) surrogates: the first unit of a pair.
pub const LEADS: RangeInclusive<u16> = 0xD800..=0xDBFF;
/// Trail (low) surrogates: the second unit of a pair.
pub const TRAILS: RangeInclusive<u16> = 0xDC00..=0xDFFF;

/// Whether `u` is a surrogate, lead or trail (`D800..=DFFF`).
#[inline]
#[must_use]
pub const fn is_surrogate(u: u16) -> bool {
    u & 0xF800 == 0xD800
}

/// Whether `u` is a lead surrogate (`D800..=DBFF`).
#[inline]
#[must_use]
pub const fn is_lead(u: u16) -> bool {
    u & 0xFC00 == 0xD800
}

/// Whether `u` is a trail surrogate (`DC00..=DFFF`).
#[inline]
#[must_use]
pub const fn is_trail(u: u16) -> bool {
    u & 0xFC00 == 0xDC00
}

/// The supplementary character of a lead and a trail surrogate, or `None`
/// if they are not one.
#[inline]
#[must_use]
pub const fn pair(lead: u16, trail: u16) -> Option<char> {
    if !is_lead(lead) || !is_trail(trail) {
        return None;
    }
    let c = 0x1_0000 + (((lead as u32) & 0x3FF) << 10) + ((trail as u32) & 0x3FF);
    char::from_u32(c)
}

/// The two surrogates of a supplementary character, or `None` for a
/// character of the BMP (which is one unit, `c as u16`).
#[inline]
#[must_use]
pub const fn split(c: char) -> Option<(u16, u16)> {
    let c = c as u32;
    if c < 0x1_0000 {
        return None;
    }
    let v = c - 0x1_0000;
    Some((0xD800 | (v >> 10) as u16, 0xDC00 | (v & 0x3FF) as u16))
}

/// The byte order of UTF-16 (or UTF-32) held in bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Endianness {
    /// Least significant byte first: UTF-16LE (Windows, JavaScript engines on
    /// x86 and ARM).
    Little,
    /// Most significant byte first: UTF-16BE (Java's serialisation, many
    /// file formats).
    Big,
}

impl Endianness {
    /// The byte order of this target, in which `u16` values are stored.
    pub const NATIVE: Endianness = if cfg!(target_endian = "big") {
        Endianness::Big
    } else {
        Endianness::Little
    };

    /// Whether bytes in this order need swapping to become native `u16`s.
    #[inline]
    #[must_use]
    pub const fn is_swapped(self) -> bool {
        !matches!(
            (self, Endianness::NATIVE),
            (Endianness::Little, Endianness::Little) | (Endianness::Big, Endianness::Big)
        )
    }

    /// The byte-order mark of UTF-16 in this order.
    #[must_use]
    pub const fn utf16_bom(self) -> crate::Bom {
        match self {
            Endianness::Little => crate::Bom::Utf16Le,
            Endianness::Big => crate::Bom::Utf16Be,
        }
    }

    /// The byte-order mark of UTF-32 in this order.
    #[must_use]
    pub const fn utf32_bom(self) -> crate::Bom {
        match self {
            Endianness::Little => crate::Bom::Utf32Le,
            Endianness::Big => crate::Bom::Utf32Be,
        }
    }
}

/// The unit held in two bytes of the given order.
#[inline]
#[must_use]
pub const fn unit(bytes: [u8; 2], order: Endianness) -> u16 {
    match order {
        Endianness::Little => u16::from_le_bytes(bytes),
        Endianness::Big => u16::from_be_bytes(bytes),
    }
}

/// The two bytes of `u` in the given order.
#[inline]
#[must_use]
pub const fn unit_bytes(u: u16, order: Endianness) -> [u8; 2] {
    match order {
        Endianness::Little => u.to_le_bytes(),
        Endianness::Big => u.to_be_bytes(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every unit and every scalar value against std's `char::decode_utf16`
    /// and `char::encode_utf16`.
    #[test]
    fn facts_agree_with_std_on_every_unit_and_scalar_value() {
        for u in 0..=u16::MAX {
            let std_surrogate = char::decode_utf16([u]).next().is_some_and(|r| r.is_err());
            assert_eq!(is_surrogate(u), std_surrogate, "{u:04X}");
            assert_eq!(is_lead(u), LEADS.contains(&u));
            assert_eq!(is_trail(u), TRAILS.contains(&u));
            assert_eq!(is_surrogate(u), is_lead(u) || is_trail(u));
            for order in [Endianness::Little, Endianness::Big] {
                assert_eq!(unit(unit_bytes(u, order), order), u);
            }
            assert_eq!(unit_bytes(u, Endianness::Little), u.to_le_bytes());
            assert_eq!(unit_bytes(u, Endianness::Big), u.to_be_bytes());
        }
        for c in (0..=0x10_FFFF).filter_map(char::from_u32) {
            let mut buf = [0; 2];
            match c.encode_utf16(&mut buf) {
                [one] => assert_eq!(split(c), None, "{one:04X}"),
                [lead, trail] => {
                    assert_eq!(split(c), Some((*lead, *trail)));
                    assert_eq!(pair(*lead, *trail), Some(c));
                }
                other => panic!("{c:?} encoded to {other:?}"),
            }
        }
        // Only a lead then a trail make a pair.
        for (a, b) in [
            (0xDC00, 0xD800),
            (0xD800, 0xD800),
            (0x41, 0xDC00),
            (0xD800, 0x41),
        ] {
            assert_eq!(pair(a, b), None);
        }
    }
}
