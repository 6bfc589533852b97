//! `codec varint` and `codec zigzag` without the printing: number parsing,
//! and varint decoding that says exactly what is wrong with bad input.
//!
//! Decoding goes through `codec_facade::varint`; this module only adds the
//! explanation of an error, read from the bytes, and the checks the tool
//! makes on top (trailing bytes, and `--strict`).

use crate::hex;
use codec_facade::DecodeError;
use codec_facade::varint;
use std::fmt;
use std::num::IntErrorKind;

/// The most bytes a u64 varint takes.
const MAX_LEN: usize = 10;

/// What is wrong with a varint argument.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum VarintProblem {
    /// The argument is not hex.
    Hex(hex::HexError),
    /// Every byte has the continuation bit set and there are fewer than ten.
    Truncated {
        /// Bytes available.
        len: usize,
    },
    /// Ten bytes all have the continuation bit set.
    TooLong,
    /// The tenth byte carries bits above bit 63.
    HighBits {
        /// The tenth byte.
        byte: u8,
    },
    /// `--strict` only: a longer encoding than the value needs.
    NonCanonical {
        /// Bytes used.
        len: usize,
        /// The value.
        value: u64,
        /// Its shortest encoding.
        shortest: Vec<u8>,
    },
    /// A whole varint followed by more bytes.
    Trailing {
        /// The varint's length.
        len: usize,
        /// Its value.
        value: u64,
        /// The bytes after it.
        rest: Vec<u8>,
    },
}

impl fmt::Display for VarintProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            VarintProblem::Hex(e) => write!(f, "not hex: {e}"),
            VarintProblem::Truncated { len: 1 } => f.write_str(
                "truncated: the only byte sets the continuation bit (0x80), \
                 so at least one more byte must follow",
            ),
            VarintProblem::Truncated { len } => write!(
                f,
                "truncated: all {len} bytes set the continuation bit (0x80), \
                 so at least one more byte must follow"
            ),
            VarintProblem::TooLong => write!(
                f,
                "overflow: the first {MAX_LEN} bytes all set the continuation bit (0x80), \
                 but a u64 varint is at most {MAX_LEN} bytes long"
            ),
            VarintProblem::HighBits { byte } => write!(
                f,
                "overflow: byte {MAX_LEN} is 0x{byte:02x}, but the last byte of a u64 varint \
                 may only be 0x00 or 0x01 (anything else sets bits above bit 63)"
            ),
            VarintProblem::NonCanonical {
                len,
                value,
                shortest,
            } => write!(
                f,
                "non-canonical: {len} bytes encode {value}, whose shortest encoding is {} \
                 ({} byte{}); decode without --strict to accept it",
                hex::format(shortest),
                shortest.len(),
                plural(shortest.len())
            ),
            VarintProblem::Trailing { len, value, rest } => write!(
                f,
                "trailing bytes: the varint ends after byte {len} (value {value}), \
                 then {} more byte{} follow: {}; pass --all to decode a sequence",
                rest.len(),
                plural(rest.len()),
                hex::format(rest)
            ),
        }
    }
}

impl std::error::Error for VarintProblem {}

fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}

/// Decodes the varint at the start of `bytes`: its value and length.
pub fn decode_prefix(bytes: &[u8], strict: bool) -> Result<(u64, usize), VarintProblem> {
    let decoded = if strict {
        varint::decode_strict::<u64>(bytes)
    } else {
        varint::decode::<u64>(bytes)
    };
    match decoded {
        Ok(decoded) => Ok(decoded),
        Err(DecodeError::NonCanonical) => {
            // The lenient decode gives the value, to show its shortest form.
            let (value, len) = varint::decode::<u64>(bytes).map_err(|e| explain(bytes, e))?;
            Err(VarintProblem::NonCanonical {
                len,
                value,
                shortest: encode(value),
            })
        }
        Err(e) => Err(explain(bytes, e)),
    }
}

/// Reads why `bytes` failed to decode from the bytes themselves, so the
/// message can say which byte is at fault.
fn explain(bytes: &[u8], e: DecodeError) -> VarintProblem {
    let continued = bytes.iter().take_while(|&&b| b & 0x80 != 0).count();
    match e {
        DecodeError::Truncated => VarintProblem::Truncated { len: bytes.len() },
        _ if continued >= MAX_LEN => VarintProblem::TooLong,
        _ if continued == MAX_LEN - 1 => VarintProblem::HighBits {
            byte: bytes[MAX_LEN - 1],
        },
        // Not reachable for u64 with a well-behaved decoder; say what the
        // decoder said rather than guess.
        _ => VarintProblem::Truncated {
            len: bytes.len().min(continued),
        },
    }
}

/// Decodes exactly one varint that fills `bytes`.
pub fn decode_exact(bytes: &[u8], strict: bool) -> Result<u64, VarintProblem> {
    let (value, len) = decode_prefix(bytes, strict)?;
    if len < bytes.len() {
        return Err(VarintProblem::Trailing {
            len,
            value,
            rest: bytes[len..].to_vec(),
        });
    }
    Ok(value)
}

/// Decodes consecutive varints filling `bytes`. On error, also returns the
/// offset of the varint that failed and the values before it.
pub fn decode_all(
    bytes: &[u8],
    strict: bool,
) -> Result<Vec<u64>, (usize, Vec<u64>, VarintProblem)> {
    let mut values = Vec::new();
    let mut at = 0;
    while at < bytes.len() {
        match decode_prefix(&bytes[at..], strict) {
            Ok((value, len)) => {
                values.push(value);
                at += len;
            }
            Err(problem) => return Err((at, values, problem)),
        }
    }
    Ok(values)
}

/// Parses hex and decodes it: one varint, or with `all` a sequence.
pub fn decode_hex(text: &str, strict: bool, all: bool) -> Result<Vec<u64>, String> {
    let bytes = hex::parse(text).map_err(|e| VarintProblem::Hex(e).to_string())?;
    if all {
        decode_all(&bytes, strict)
            .map_err(|(at, _, problem)| std::format!("varint at byte {}: {problem}", at + 1))
    } else {
        decode_exact(&bytes, strict)
            .map(|v| vec![v])
            .map_err(|p| p.to_string())
    }
}

/// The varint bytes of `value`.
pub fn encode(value: u64) -> Vec<u8> {
    let mut buf = [0u8; MAX_LEN];
    let n = varint::encode(value, &mut buf);
    buf[..n].to_vec()
}

/// Parses an unsigned number: decimal, or hex with `0x`; `_` may separate
/// digits.
pub fn parse_u64(text: &str) -> Result<u64, String> {
    parse_number(text, false).map(|(_, magnitude)| magnitude)
}

/// Parses a signed number: like [`parse_u64`], with an optional `-` or `+`.
pub fn parse_i64(text: &str) -> Result<i64, String> {
    let (negative, magnitude) = parse_number(text, true)?;
    let value = if negative {
        0i128 - magnitude as i128
    } else {
        magnitude as i128
    };
    i64::try_from(value).map_err(|_| {
        std::format!(
            "out of range: {text} does not fit in i64 ({} to {})",
            i64::MIN,
            i64::MAX
        )
    })
}

/// `(negative, magnitude)`, with the magnitude at most `u64::MAX`.
fn parse_number(text: &str, signed: bool) -> Result<(bool, u64), String> {
    let trimmed = text.trim();
    let (negative, unsigned) = match trimmed.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, trimmed.strip_prefix('+').unwrap_or(trimmed)),
    };
    if negative && !signed {
        return Err(std::format!(
            "negative: {text} is below 0, where an unsigned number is expected (varint encode --signed takes signed ones)"
        ));
    }
    let (radix, digits) = match unsigned
        .strip_prefix("0x")
        .or_else(|| unsigned.strip_prefix("0X"))
    {
        Some(rest) => (16, rest),
        None => (10, unsigned),
    };
    let clean: String = digits.chars().filter(|&c| c != '_').collect();
    u64::from_str_radix(&clean, radix)
        .map(|m| (negative, m))
        .map_err(|e| match e.kind() {
            IntErrorKind::Empty => std::format!("not a number: {text:?} has no digits"),
            IntErrorKind::PosOverflow => std::format!(
                "out of range: {text} does not fit in {} ({}{} at most)",
                if signed { "i64" } else { "u64" },
                if negative { "-" } else { "" },
                if !signed {
                    u64::MAX.to_string()
                } else if negative {
                    i64::MIN.unsigned_abs().to_string()
                } else {
                    i64::MAX.to_string()
                }
            ),
            _ => {
                // `digits` is a subslice of `text`: its byte offset there.
                let start = digits.as_ptr() as usize - text.as_ptr() as usize;
                let (position, bad) = digits
                    .char_indices()
                    .find(|&(_, c)| c != '_' && !c.is_digit(radix))
                    .map(|(i, c)| (text[..start + i].chars().count() + 1, c))
                    .unwrap_or((1, '?'));
                std::format!(
                    "not a number: {text:?} has {bad:?} at position {position}, which is not a {} digit",
                    if radix == 16 { "hex" } else { "decimal" }
                )
            }
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use codec_facade::zigzag;

    #[test]
    fn conformance_rows() {
        // Every varint row of the shared cases through the lenient decoder
        // (zigzag-decoded for Go's signed `binary.Varint` rows), and strict
        // agrees with "canonical". Tag rows hold field numbers, not values.
        for case in codec_testdata::varint_cases() {
            if case.api.contains("Tag") {
                continue;
            }
            let signed = case.api.starts_with("binary.") && !case.api.contains("Uvarint");
            let got = decode_prefix(&case.input, false);
            match case.expect {
                codec_testdata::VarintExpect::Ok => {
                    let (v, n) = got.unwrap_or_else(|e| panic!("{}: {e}", case.id));
                    if let Some(value) = case.value {
                        let got = if signed {
                            i128::from(zigzag::decode(v))
                        } else {
                            i128::from(v)
                        };
                        assert_eq!(got, value, "{}", case.id);
                    }
                    if let Some(consumed) = case.consumed {
                        assert_eq!(n, consumed, "{}", case.id);
                    }
                    if let Some(canonical) = case.canonical {
                        assert_eq!(
                            decode_prefix(&case.input, true).is_ok(),
                            canonical,
                            "{}",
                            case.id
                        );
                    }
                }
                codec_testdata::VarintExpect::Truncated => {
                    assert!(
                        matches!(got, Err(VarintProblem::Truncated { .. })),
                        "{}: {got:?}",
                        case.id
                    )
                }
                codec_testdata::VarintExpect::Overflow => assert!(
                    matches!(
                        got,
                        Err(VarintProblem::TooLong | VarintProblem::HighBits { .. })
                    ),
                    "{}: {got:?}",
                    case.id
                ),
            }
        }
    }

    #[test]
    fn messages_name_the_fault() {
        let msg = |hex: &str, strict| decode_hex(hex, strict, false).unwrap_err();
        assert!(
            msg("ff ff", false).starts_with("truncated: all 2 bytes"),
            "{}",
            msg("ff ff", false)
        );
        assert!(msg("80", false).starts_with("truncated: the only byte sets"));
        assert!(
            msg("ff ff ff ff ff ff ff ff ff ff", false).starts_with("overflow: the first 10 bytes")
        );
        assert!(msg("ff ff ff ff ff ff ff ff ff 02", false).contains("byte 10 is 0x02"));
        assert!(
            msg("80 00", true)
                .starts_with("non-canonical: 2 bytes encode 0, whose shortest encoding is 00")
        );
        assert!(
            msg("ac 02 01", false)
                .starts_with("trailing bytes: the varint ends after byte 2 (value 300)")
        );
        assert!(msg("ac0g", false).contains("bad hex digit 'g' at position 4"));
        assert!(msg("ac0", false).contains("odd number of hex digits"));
        assert_eq!(decode_hex("80 00", false, false), Ok(vec![0]));
        assert_eq!(decode_hex("ac02 01 7f", false, true), Ok(vec![300, 1, 127]));
        assert_eq!(
            decode_hex("01 ff", false, true).unwrap_err(),
            "varint at byte 2: truncated: the only byte sets the continuation bit (0x80), so at least one more byte must follow"
        );
    }

    #[test]
    fn numbers() {
        assert_eq!(parse_u64("300"), Ok(300));
        assert_eq!(parse_u64("0x12c"), Ok(300));
        assert_eq!(parse_u64("1_000"), Ok(1000));
        assert_eq!(parse_u64("18446744073709551615"), Ok(u64::MAX));
        assert!(
            parse_u64("18446744073709551616")
                .unwrap_err()
                .starts_with("out of range")
        );
        assert!(parse_u64("-1").unwrap_err().contains("--signed"));
        assert_eq!(
            parse_u64("12a").unwrap_err(),
            "not a number: \"12a\" has 'a' at position 3, which is not a decimal digit"
        );
        assert!(parse_u64("").unwrap_err().contains("no digits"));
        assert_eq!(parse_i64("-9223372036854775808"), Ok(i64::MIN));
        assert!(
            parse_i64("-9223372036854775809")
                .unwrap_err()
                .starts_with("out of range")
        );
        assert!(
            parse_i64("9223372036854775808")
                .unwrap_err()
                .starts_with("out of range")
        );
        assert_eq!(parse_i64("-0x10"), Ok(-16));
    }

    quickcheck::quickcheck! {
        fn encode_then_decode(v: u64) -> bool {
            let bytes = encode(v);
            decode_exact(&bytes, true) == Ok(v)
                && decode_hex(&hex::format(&bytes), true, false) == Ok(vec![v])
        }
    }
}
