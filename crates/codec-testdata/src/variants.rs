//! An independent statement of UTF-8's relatives (CESU-8, MUTF-8, WTF-8),
//! the oracle of utf8-variants' tests: written by code point *values*
//! (decode generalized UTF-8, then apply each encoding's rules to the
//! values), not by byte ranges, tables or automata, and slow on purpose.
//!
//! - [`is_valid`]: whether bytes are valid in an encoding.
//! - [`exact`]: the exact error, from validity alone: `valid_up_to` is the
//!   longest valid prefix; the invalid piece is the longest continuation of
//!   it that some completion could still make valid (Unicode §3.9 D93b),
//!   at least 1 byte and at most 3 (an unpaired lead surrogate is its own 3
//!   bytes, not the 4 or 5 that the start of a wrong trail after it would
//!   make); `None` if every byte after the valid prefix could still be
//!   completed.
//!
//! ```
//! use codec_testdata::variants::{CESU8, exact, is_valid};
//! assert!(is_valid(&CESU8, b"\xED\xA0\x80\xED\xB0\x80"));
//! assert_eq!(exact(&CESU8, b"ab\xED\xA0\x80!"), Err((2, Some(3))));
//! assert_eq!(exact(&CESU8, b"ab\xED\xA0\x80\xED"), Err((2, None)));
//! ```

/// How an encoding treats surrogate code points.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Surrogates {
    /// Never (UTF-8).
    Forbidden,
    /// Only a lead immediately followed by a trail (CESU-8, MUTF-8).
    Paired,
    /// Alone, but never a lead immediately followed by a trail (WTF-8).
    Unpaired,
    /// Anywhere, alone or in pairs: the generalized CESU-8 and MUTF-8 that
    /// hold a Java `String` unit by unit (utf8-variants' lossless
    /// conversions).
    Any,
}

/// The rules of one encoding.
#[derive(Clone, Copy, Debug)]
pub struct Rules {
    /// Its name.
    pub name: &'static str,
    /// Whether 4-byte forms (U+10000..=U+10FFFF) are allowed.
    pub four_byte: bool,
    /// Whether U+0000 is `C0 80` and the byte `00` forbidden.
    pub modified_nul: bool,
    /// How surrogates may appear.
    pub surrogates: Surrogates,
}

/// UTF-8 (RFC 3629).
pub const UTF8: Rules = Rules {
    name: "UTF-8",
    four_byte: true,
    modified_nul: false,
    surrogates: Surrogates::Forbidden,
};
/// CESU-8 (UTR #26).
pub const CESU8: Rules = Rules {
    name: "CESU-8",
    four_byte: false,
    modified_nul: false,
    surrogates: Surrogates::Paired,
};
/// Java's Modified UTF-8 (JVM specification §4.4.7).
pub const MUTF8: Rules = Rules {
    name: "MUTF-8",
    four_byte: false,
    modified_nul: true,
    surrogates: Surrogates::Paired,
};
/// WTF-8.
pub const WTF8: Rules = Rules {
    name: "WTF-8",
    four_byte: true,
    modified_nul: false,
    surrogates: Surrogates::Unpaired,
};
/// CESU-8 with any surrogate alone (a Java `String` unit by unit).
pub const CESU8_GENERALIZED: Rules = Rules {
    name: "generalized CESU-8",
    four_byte: false,
    modified_nul: false,
    surrogates: Surrogates::Any,
};
/// MUTF-8 with any surrogate alone: what `DataOutput.writeUTF` writes
/// for any Java `String`.
pub const MUTF8_GENERALIZED: Rules = Rules {
    name: "generalized MUTF-8",
    four_byte: false,
    modified_nul: true,
    surrogates: Surrogates::Any,
};

fn is_lead(c: u32) -> bool {
    u16::try_from(c).is_ok_and(codec_core::utf16::is_lead)
}

fn is_trail(c: u32) -> bool {
    u16::try_from(c).is_ok_and(codec_core::utf16::is_trail)
}

/// One code point of generalized UTF-8 at the start of `bytes`: its value
/// and length (any lead `C0..=F7`, any value its length can hold, in its
/// shortest form, up to U+10FFFF; surrogates included; MUTF-8's `C0 80`),
/// or `None` if the bytes there are not one.
fn next_code_point(rules: &Rules, bytes: &[u8]) -> Option<(u32, usize)> {
    let b0 = *bytes.first()?;
    let len = match b0 {
        0x00..=0x7F => 1,
        0xC0..=0xDF => 2,
        0xE0..=0xEF => 3,
        0xF0..=0xF7 => 4,
        _ => return None,
    };
    let seq = bytes.get(..len)?;
    if seq[1..].iter().any(|&b| b & 0xC0 != 0x80) {
        return None;
    }
    let mut value = if len == 1 {
        u32::from(b0)
    } else {
        u32::from(b0) & (0x7F >> len)
    };
    for &b in &seq[1..] {
        value = (value << 6) | u32::from(b & 0x3F);
    }
    let shortest = match value {
        0..=0x7F => 1,
        0x80..=0x7FF => 2,
        0x800..=0xFFFF => 3,
        _ => 4,
    };
    let modified_nul = rules.modified_nul && value == 0 && len == 2;
    if (len != shortest && !modified_nul) || value > 0x10FFFF {
        return None;
    }
    Some((value, len))
}

/// The code points of `bytes` in generalized UTF-8 (see
/// `next_code_point`), or `None` if some byte sequence is not one.
pub fn code_points(rules: &Rules, bytes: &[u8]) -> Option<Vec<u32>> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        let (c, len) = next_code_point(rules, &bytes[i..])?;
        out.push(c);
        i += len;
    }
    Some(out)
}

/// Whether `bytes` is valid in the encoding: generalized UTF-8 whose code
/// points, and the lengths of their forms, follow the encoding's rules.
/// (It allocates nothing: the exhaustive tests call it on 50 million
/// inputs.)
pub fn is_valid(rules: &Rules, bytes: &[u8]) -> bool {
    let mut i = 0;
    // The previous code point was a lead surrogate.
    let mut after_lead = false;
    while i < bytes.len() {
        let Some((c, len)) = next_code_point(rules, &bytes[i..]) else {
            return false;
        };
        if (len == 4 && !rules.four_byte) || (len == 1 && c == 0 && rules.modified_nul) {
            return false;
        }
        let ok = match rules.surrogates {
            Surrogates::Forbidden => !is_lead(c) && !is_trail(c),
            // After a lead only a trail; a trail only after a lead.
            Surrogates::Paired => after_lead == is_trail(c),
            // Never a trail right after a lead.
            Surrogates::Unpaired => !(after_lead && is_trail(c)),
            Surrogates::Any => true,
        };
        if !ok {
            return false;
        }
        after_lead = is_lead(c);
        i += len;
    }
    // A paired lead at the very end has no trail.
    !(rules.surrogates == Surrogates::Paired && after_lead)
}

/// The longest prefix of `bytes` that is valid.
pub fn valid_up_to(rules: &Rules, bytes: &[u8]) -> usize {
    (0..=bytes.len())
        .rev()
        .find(|&n| is_valid(rules, &bytes[..n]))
        .unwrap_or(0)
}

/// Whether `context + piece` can be completed into a valid string, where
/// `context` is a valid string (only its last unit matters). The
/// completions tried: up to 3 more bytes from the edges of the
/// continuation ranges, then optionally a trail surrogate. That is enough:
/// a piece that can be completed at all is at most an unfinished unit, or
/// a lead surrogate and an unfinished trail.
fn extendable(rules: &Rules, context: &[u8], piece: &[u8]) -> bool {
    const FILL: [u8; 6] = [0x80, 0x9F, 0xA0, 0xAF, 0xB0, 0xBF];
    let mut buf = context.to_vec();
    buf.extend_from_slice(piece);
    let base = buf.len();
    for n in 0..=3u32 {
        for k in 0..6usize.pow(n) {
            buf.truncate(base);
            buf.extend((0..n).map(|j| FILL[k / 6usize.pow(j) % 6]));
            if is_valid(rules, &buf) {
                return true;
            }
            buf.extend_from_slice(&[0xED, 0xB0, 0x80]);
            if is_valid(rules, &buf) {
                return true;
            }
        }
    }
    false
}

/// The exact result for `bytes`: `Err((valid_up_to, error_len))`, see the
/// module docs.
pub fn exact(rules: &Rules, bytes: &[u8]) -> Result<(), (usize, Option<usize>)> {
    if is_valid(rules, bytes) {
        return Ok(());
    }
    let v = valid_up_to(rules, bytes);
    // WTF-8: a lead surrogate before `v` forbids a trail after it.
    let context: &[u8] = match &bytes[..v] {
        [.., 0xED, 0xA0..=0xAF, _] if rules.surrogates == Surrogates::Unpaired => &bytes[v - 3..v],
        _ => &[],
    };
    let rest = &bytes[v..];
    match (1..=rest.len()).find(|&m| !extendable(rules, context, &rest[..m])) {
        None => Err((v, None)),
        Some(m) => Err((v, Some((m - 1).clamp(1, 3)))),
    }
}

/// Calls `f` with every sequence of two surrogates, `ED A0..=BF 80..=BF`
/// twice: 4,194,304 inputs of 6 bytes.
pub fn for_each_surrogate_pair(mut f: impl FnMut(&[u8; 6])) {
    for a in 0..2048u32 {
        for b in 0..2048u32 {
            f(&[
                0xED,
                0xA0 | (a >> 6) as u8,
                0x80 | (a & 0x3F) as u8,
                0xED,
                0xA0 | (b >> 6) as u8,
                0x80 | (b & 0x3F) as u8,
            ]);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// For UTF-8 the oracle is std.
    #[test]
    fn utf8_rules_give_std_on_every_input_up_to_two_bytes() {
        let mut inputs = vec![vec![]];
        for a in 0..=255u8 {
            inputs.push(vec![a]);
            for &b in crate::bytes() {
                inputs.push(vec![a, b]);
            }
        }
        for input in &inputs {
            {
                let want = core::str::from_utf8(input)
                    .map(|_| ())
                    .map_err(|e| (e.valid_up_to(), e.error_len()));
                assert_eq!(exact(&UTF8, input), want, "{input:02X?}");
            }
        }
    }

    #[test]
    fn examples_from_the_specifications() {
        let pair = b"\xED\xA0\x80\xED\xB0\x80";
        assert!(is_valid(&CESU8, pair));
        assert!(!is_valid(&WTF8, pair));
        assert_eq!(exact(&WTF8, pair), Err((3, Some(1))));
        assert_eq!(exact(&CESU8, b"\xED\xB0\x80"), Err((0, Some(1))));
        assert_eq!(
            exact(&CESU8, b"\xED\xA0\x80\xED\x80\x80"),
            Err((0, Some(3)))
        );
        assert_eq!(exact(&MUTF8, b"a\xC0\x80\x00"), Err((3, Some(1))));
        assert_eq!(exact(&MUTF8, b"\xC0"), Err((0, None)));
        assert_eq!(exact(&CESU8, "😀".as_bytes()), Err((0, Some(1))));
    }

    /// Java's `writeUTF("x\uD800y")` and friends: any surrogate alone, the
    /// rest as strict as MUTF-8.
    #[test]
    fn generalized_rules_take_lone_surrogates_only() {
        for rules in [&CESU8_GENERALIZED, &MUTF8_GENERALIZED] {
            assert!(is_valid(rules, b"x\xED\xA0\x80y"));
            assert!(is_valid(rules, b"\xED\xB0\x80\xED\xA0\x80"));
            assert!(is_valid(rules, b"\xED\xA0\x80\xED\xB0\x80"));
            assert_eq!(exact(rules, b"\xED\xB0\x41"), Err((0, Some(2))));
            assert_eq!(exact(rules, b"\xED\xA0\x80\xED\xB0"), Err((3, None)));
            assert_eq!(exact(rules, "a😀".as_bytes()), Err((1, Some(1))));
        }
        assert_eq!(
            exact(&MUTF8_GENERALIZED, b"\xED\xA0\x80\x00"),
            Err((3, Some(1)))
        );
        assert_eq!(exact(&CESU8_GENERALIZED, b"\xC0\x80"), Err((0, Some(1))));
    }
}
