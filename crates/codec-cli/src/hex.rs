//! Hex in and out for `codec varint`: `ac02`, `AC 02` and `0xac02` are the
//! same two bytes.

use std::fmt;

/// What is wrong with a hex argument. Positions are 1-based and count
/// characters of the argument as typed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum HexError {
    /// No hex digits at all.
    Empty,
    /// A character that is neither a hex digit nor whitespace.
    BadDigit {
        /// The character.
        ch: char,
        /// Its position.
        position: usize,
    },
    /// A whitespace-separated group with an odd number of digits, so one
    /// byte would have only one digit.
    OddLength {
        /// The group as typed.
        group: String,
        /// The position of its first character.
        position: usize,
    },
}

impl fmt::Display for HexError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            HexError::Empty => f.write_str("no hex digits"),
            HexError::BadDigit { ch, position } => {
                write!(f, "bad hex digit {ch:?} at position {position}")
            }
            HexError::OddLength { group, position } => write!(
                f,
                "odd number of hex digits ({}) in {group:?} at position {position}: every byte takes two",
                group.chars().count()
            ),
        }
    }
}

impl std::error::Error for HexError {}

/// Parses hex bytes. Whitespace may separate bytes (`AC 02`), digits may be
/// upper or lower case, and the whole argument may start with `0x`.
pub fn parse(text: &str) -> Result<Vec<u8>, HexError> {
    let (body, skipped) = match text.strip_prefix("0x").or_else(|| text.strip_prefix("0X")) {
        Some(rest) => (rest, 2),
        None => (text, 0),
    };
    let mut out = Vec::new();
    // The group being read: its first position and its digits as typed.
    let mut group: Option<(usize, String)> = None;
    // The high nibble of a byte whose low nibble is still to come.
    let mut high: Option<u8> = None;
    // `None` marks the end, which closes the last group like whitespace.
    let chars = body.chars().map(Some).chain([None]);
    for (i, ch) in chars.enumerate() {
        let position = skipped + i + 1;
        if let Some(c) = ch.filter(|c| !c.is_whitespace()) {
            let Some(nibble) = c.to_digit(16) else {
                return Err(HexError::BadDigit { ch: c, position });
            };
            let nibble = nibble as u8;
            group
                .get_or_insert_with(|| (position, String::new()))
                .1
                .push(c);
            high = match high {
                None => Some(nibble),
                Some(h) => {
                    out.push(h << 4 | nibble);
                    None
                }
            };
        } else if let Some((start, digits)) = group.take()
            && high.is_some()
        {
            return Err(HexError::OddLength {
                group: digits,
                position: start,
            });
        }
    }
    if out.is_empty() {
        return Err(HexError::Empty);
    }
    Ok(out)
}

/// Lower-case hex bytes separated by spaces: `ac 02`.
pub fn format(bytes: &[u8]) -> String {
    let mut s = String::with_capacity(bytes.len() * 3);
    for (i, b) in bytes.iter().enumerate() {
        if i > 0 {
            s.push(' ');
        }
        s.push_str(&std::format!("{b:02x}"));
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accepted_forms() {
        for text in [
            "ac02", "AC02", "AC 02", " ac  02 ", "0xac02", "0XAC 02", "aC\t02",
        ] {
            assert_eq!(parse(text), Ok(vec![0xAC, 0x02]), "{text:?}");
        }
        assert_eq!(format(&[0xAC, 0x02, 0x00]), "ac 02 00");
        assert_eq!(format(&[]), "");
    }

    #[test]
    fn errors_name_the_problem() {
        assert_eq!(parse(""), Err(HexError::Empty));
        assert_eq!(parse("  "), Err(HexError::Empty));
        assert_eq!(parse("0x"), Err(HexError::Empty));
        assert_eq!(
            parse("acg2"),
            Err(HexError::BadDigit {
                ch: 'g',
                position: 3
            })
        );
        assert_eq!(
            parse("0xzz"),
            Err(HexError::BadDigit {
                ch: 'z',
                position: 3
            })
        );
        assert_eq!(
            parse("ac 2"),
            Err(HexError::OddLength {
                group: "2".into(),
                position: 4
            })
        );
        assert_eq!(
            parse("abc"),
            Err(HexError::OddLength {
                group: "abc".into(),
                position: 1
            })
        );
        assert_eq!(
            parse("ac é").unwrap_err().to_string(),
            "bad hex digit 'é' at position 4"
        );
    }

    #[test]
    fn round_trip() {
        let all: Vec<u8> = (0..=255).collect();
        assert_eq!(parse(&format(&all)), Ok(all));
    }
}
