//! `codec varint` and `codec zigzag` without the printing: strict number
//! parsing for every width, and the words of a varint error.
//!
//! The decoding, and the reading of why bytes fail (which byte, what it
//! may be), are the library's: `varint::formats` ([`Explain`],
//! [`decode_stream`](lib::decode_stream), [`decode_single`](lib::decode_single),
//! [`IntType`]). This module adds what only the tool says: the hint to
//! drop `--strict` or pass `--all` or a wider `--type`, and the hex of
//! the arguments.
//!
//! # Numbers
//!
//! [`parse_int`] takes one optional sign (`-` only for signed types), then
//! decimal digits or `0x` and hex digits, with `_` allowed between two
//! digits. Nothing else: no whitespace, no second sign (`++300`, `-+5`), no
//! sign after the radix prefix (`0x+12c`), which `from_str_radix` alone
//! would let through.

use crate::hex;
use codec_facade::varint::formats::{
    self as lib, Explain, Fault, Format as LibFormat, IntType, Integer, Leb128, RangeError,
    Sleb128, StreamErrorKind, article,
};
use codec_facade::zigzag::{self, Unzig};
use std::fmt::{self, Display};
use std::io::{self, Read};
use std::marker::PhantomData;

/// What is wrong with a varint input, in the tool's words.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum VarintProblem {
    /// The argument is not hex.
    Hex(hex::HexError),
    /// What the library reads from the bytes ([`Fault`]), but for
    /// non-canonical input, which has its own words.
    Fault(String),
    /// `--strict` only: a longer encoding than the value needs.
    NonCanonical {
        /// Bytes used.
        len: usize,
        /// The value.
        value: String,
        /// Its shortest encoding.
        shortest: Vec<u8>,
    },
    /// The value does not fit the `--type`.
    Range {
        /// The format's name.
        what: &'static str,
        /// The value.
        value: String,
        /// The type.
        ty: String,
    },
    /// A CBOR head that is not an integer, and why.
    NotAnInteger(String),
    /// A whole varint followed by more bytes.
    Trailing {
        /// The varint's length.
        len: usize,
        /// Its value.
        value: String,
        /// The first bytes after it (at most 8).
        rest: Vec<u8>,
        /// Whether more follow `rest`.
        more: bool,
    },
}

impl fmt::Display for VarintProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            VarintProblem::Hex(e) => write!(f, "not hex: {e}"),
            VarintProblem::Fault(text) => f.write_str(text),
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
            VarintProblem::Range { what, value, ty } => write!(
                f,
                "out of range: the {what} holds {value}, which does not fit in {ty}; pass {}",
                if value.starts_with('-') {
                    "a signed --type (-t i64)"
                } else {
                    "a wider --type"
                }
            ),
            VarintProblem::NotAnInteger(why) => write!(f, "not an integer: {why}"),
            VarintProblem::Trailing {
                len,
                value,
                rest,
                more,
            } => {
                let n = if *more {
                    "more bytes follow".to_string()
                } else {
                    format!("{} more byte{} follow", rest.len(), plural(rest.len()))
                };
                write!(
                    f,
                    "trailing bytes: the varint ends after byte {len} (value {value}), \
                     then {n}: {}{}; pass --all to decode a sequence",
                    hex::format(rest),
                    if *more { " ..." } else { "" }
                )
            }
        }
    }
}

impl std::error::Error for VarintProblem {}

fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}

/// How the values of one format are shown: the library's format decodes
/// and explains; this gives the text of a value (or why it has none).
pub trait Codec {
    /// The library's format.
    type Lib: Explain;
    /// The value as printed, or why it cannot be (out of `--type`'s range).
    fn show(&self, value: <Self::Lib as LibFormat>::Value) -> Result<String, VarintProblem>;

    /// The tool's words for a fault the library read.
    fn problem(&self, fault: Fault<<Self::Lib as LibFormat>::Value>) -> VarintProblem {
        match fault {
            Fault::NonCanonical {
                len,
                value,
                shortest,
            } => match self.show(value) {
                Ok(value) => VarintProblem::NonCanonical {
                    len,
                    value,
                    shortest: shortest.as_bytes().to_vec(),
                },
                Err(p) => p,
            },
            fault => VarintProblem::Fault(fault.map_value(|_| "").to_string()),
        }
    }
}

/// Unsigned LEB128 of `T` (`u16`..`u128`).
pub struct Leb<T>(PhantomData<T>);

/// Zigzag: the unsigned LEB128 of `T`, shown as the signed value it maps
/// back to (protobuf `sint32`/`sint64`).
pub struct Zig<T>(PhantomData<T>);

/// Signed LEB128 of `T` (`i16`..`i128`).
pub struct Sleb<T>(PhantomData<T>);

macro_rules! default {
    ($($t:ident),*) => {$(
        impl<T> Default for $t<T> {
            fn default() -> Self {
                $t(PhantomData)
            }
        }
    )*};
}

default!(Leb, Zig, Sleb);

impl<T: Display> Codec for Leb<T>
where
    Leb128<T>: Explain<Value = T>,
{
    type Lib = Leb128<T>;
    fn show(&self, value: T) -> Result<String, VarintProblem> {
        Ok(value.to_string())
    }
}

impl<T: Unzig> Codec for Zig<T>
where
    Leb128<T>: Explain<Value = T>,
    <T as Unzig>::Signed: Display,
{
    type Lib = Leb128<T>;
    fn show(&self, value: T) -> Result<String, VarintProblem> {
        Ok(zigzag::decode(value).to_string())
    }
}

impl<T: Display> Codec for Sleb<T>
where
    Sleb128<T>: Explain<Value = T>,
{
    type Lib = Sleb128<T>;
    fn show(&self, value: T) -> Result<String, VarintProblem> {
        Ok(value.to_string())
    }
}

/// The bytes of `value` in format `F`, or why the format cannot hold it.
pub fn encode<F: LibFormat>(value: F::Value) -> Result<Vec<u8>, String> {
    F::encode_slice_to_vec(&[value]).map_err(|e| e.to_string())
}

/// Decodes the varint at the start of `bytes` with `codec`: its text and
/// length, or what is wrong (for `--strict`, with the shortest form).
pub fn decode_one<C: Codec>(
    codec: &C,
    bytes: &[u8],
    strict: bool,
) -> Result<(String, usize), VarintProblem> {
    match C::Lib::diagnose(bytes, strict) {
        Ok((value, n)) => Ok((codec.show(value)?, n)),
        Err(fault) => Err(codec.problem(fault)),
    }
}

/// Why a stream of varints stopped early.
#[derive(Debug)]
pub enum StreamError {
    /// The bytes are not what `--all` or a single varint needs: the varint
    /// that failed (0-based index) and its byte offset.
    Varint {
        /// How many values were decoded before it.
        index: u64,
        /// Where it starts.
        offset: u64,
        /// What is wrong.
        problem: VarintProblem,
    },
    /// Reading failed.
    Io(io::Error),
    /// The callback failed (writing the output).
    Output(io::Error),
}

/// The callback's errors inside the library's stream decoder.
enum Stop {
    Problem(VarintProblem),
    Output(io::Error),
}

/// Decodes the varints of `codec` in `reader` in bounded memory: one that
/// fills the input ([`decode_single`](lib::decode_single)), or with `all` a
/// sequence ([`decode_stream`](lib::decode_stream)), calling `on_value`
/// with each value's text in order. Every value before an error is handed
/// out first.
pub fn decode_stream<C: Codec, R: Read>(
    codec: &C,
    reader: R,
    strict: bool,
    all: bool,
    mut on_value: impl FnMut(String) -> io::Result<()>,
) -> Result<(), StreamError> {
    let varint = |index, offset, problem| StreamError::Varint {
        index,
        offset,
        problem,
    };
    if all {
        let result = lib::decode_stream::<C::Lib, _, Stop>(reader, strict, |v| {
            let text = codec.show(v).map_err(Stop::Problem)?;
            on_value(text).map_err(Stop::Output)
        });
        let Err(e) = result else {
            return Ok(());
        };
        let (index, offset) = (e.index(), e.offset());
        let fault = e.fault::<C::Lib>();
        return Err(match (e.into_kind(), fault) {
            (StreamErrorKind::Decode(_), Some(fault)) => {
                varint(index, offset, codec.problem(fault))
            }
            (StreamErrorKind::Read(e), _) => StreamError::Io(e),
            (StreamErrorKind::Callback(Stop::Problem(p)), _) => varint(index, offset, p),
            (StreamErrorKind::Callback(Stop::Output(e)), _) => StreamError::Output(e),
            _ => StreamError::Io(io::Error::other("varint stream stopped")),
        });
    }
    let e = match lib::decode_single::<C::Lib, _>(reader, strict) {
        Ok((value, _)) => {
            let text = codec.show(value).map_err(|p| varint(0, 0, p))?;
            return on_value(text).map_err(StreamError::Output);
        }
        Err(e) => e,
    };
    let fault = e.fault::<C::Lib>();
    let bytes = e.bytes().to_vec();
    Err(match (e.into_kind(), fault) {
        (StreamErrorKind::Decode(_), Some(fault)) => varint(0, 0, codec.problem(fault)),
        (StreamErrorKind::Trailing { len }, _) => {
            // The value decoded before; its text comes first, as an
            // out-of-range value is the first thing wrong.
            let value = C::Lib::decode(&bytes[..len])
                .map_err(|e| varint(0, 0, codec.problem(C::Lib::explain(&bytes, e))))?
                .0;
            let value = codec.show(value).map_err(|p| varint(0, 0, p))?;
            let mut rest = bytes[len..].to_vec();
            let more = rest.len() > 8;
            rest.truncate(8);
            varint(
                0,
                0,
                VarintProblem::Trailing {
                    len,
                    value,
                    rest,
                    more,
                },
            )
        }
        (StreamErrorKind::Read(e), _) => StreamError::Io(e),
        _ => StreamError::Io(io::Error::other("varint stream stopped")),
    })
}

/// Parses hex and decodes it: the values as text (one, or with `all` a
/// sequence), or the values before the error and the error.
pub fn decode_hex<C: Codec>(
    codec: &C,
    text: &str,
    strict: bool,
    all: bool,
) -> Result<Vec<String>, (Vec<String>, String)> {
    let bytes = hex::parse(text).map_err(|e| (Vec::new(), VarintProblem::Hex(e).to_string()))?;
    let mut values = Vec::new();
    match decode_stream(codec, &bytes[..], strict, all, |v| {
        values.push(v);
        Ok(())
    }) {
        Ok(()) => Ok(values),
        Err(e) => Err((values, stream_message(&e, all))),
    }
}

/// The message for a stream error: with `all`, which varint and where,
/// counted from 1 as a reader counts ("the 3rd varint, at byte offset 2").
pub fn stream_message(e: &StreamError, all: bool) -> String {
    match e {
        StreamError::Varint {
            index,
            offset,
            problem,
        } if all && !is_empty(problem) => {
            let n = index + 1;
            format!(
                "the {n}{} varint, at byte offset {offset}: {problem}",
                ordinal(n)
            )
        }
        StreamError::Varint { problem, .. } => problem.to_string(),
        StreamError::Io(e) | StreamError::Output(e) => e.to_string(),
    }
}

fn is_empty(problem: &VarintProblem) -> bool {
    *problem == VarintProblem::Fault(Fault::<&str>::Empty.to_string())
}

/// The English ordinal suffix of `n`: `st` for 1 and 21, `th` for 11.
fn ordinal(n: u64) -> &'static str {
    match (n % 10, n % 100) {
        (_, 11..=13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    }
}

/// A format other than LEB128 read into a `--type` ([`IntType`]).
pub struct Typed<F> {
    ty: IntType,
    format: PhantomData<F>,
}

impl<F: Integer + Explain> Typed<F> {
    /// The format read into `ty`.
    pub fn new(ty: IntType) -> Self {
        Typed {
            ty,
            format: PhantomData,
        }
    }

    /// The bytes of the number `arg`, parsed as the type.
    pub fn encode_arg(&self, arg: &str) -> Result<Vec<u8>, String> {
        let wide = match (self.ty.bits(), self.ty.is_signed()) {
            (bits, false) => {
                let v = match bits {
                    16 => u128::from(parse_int::<u16>(arg)?),
                    32 => u128::from(parse_int::<u32>(arg)?),
                    64 => u128::from(parse_int::<u64>(arg)?),
                    _ => parse_int::<u128>(arg)?,
                };
                i128::try_from(v).ok()
            }
            (bits, true) => Some(match bits {
                16 => i128::from(parse_int::<i16>(arg)?),
                32 => i128::from(parse_int::<i32>(arg)?),
                64 => i128::from(parse_int::<i64>(arg)?),
                _ => parse_int::<i128>(arg)?,
            }),
        };
        let value = wide.and_then(|n| self.ty.value_of::<F>(n)).ok_or_else(|| {
            format!(
                "out of range: {arg} does not fit in {} {} ({}{})",
                article(F::NOUN),
                F::NOUN,
                F::RANGE,
                if self.ty.is_signed() && !F::SIGNED {
                    ", after zigzag"
                } else {
                    ""
                }
            )
        })?;
        encode::<F>(value)
    }
}

impl<F: Integer + Explain> Codec for Typed<F> {
    type Lib = F;

    fn show(&self, value: F::Value) -> Result<String, VarintProblem> {
        match self.ty.read::<F>(value) {
            Ok(n) => Ok(n.to_string()),
            Err(RangeError::NotAnInteger(e)) => Err(VarintProblem::NotAnInteger(e.to_string())),
            Err(RangeError::OutOfRange(wide)) => Err(VarintProblem::Range {
                what: F::NOUN,
                value: wide.to_string(),
                ty: self.ty.to_string(),
            }),
            Err(e) => Err(VarintProblem::Fault(e.to_string())),
        }
    }
}

/// An integer type that numbers on the command line parse into.
pub trait Int: Sized + Display {
    /// Its name: `i64`.
    const NAME: &'static str;
    /// Whether it takes a `-`.
    const SIGNED: bool;
    /// The value `±magnitude`, if it fits.
    fn from_parts(negative: bool, magnitude: u128) -> Option<Self>;
    /// The smallest value, as text.
    fn min_text() -> String;
    /// The largest value, as text.
    fn max_text() -> String;
}

macro_rules! int {
    ($($t:ty, $signed:literal;)*) => {$(
        impl Int for $t {
            const NAME: &'static str = stringify!($t);
            const SIGNED: bool = $signed;
            fn from_parts(negative: bool, magnitude: u128) -> Option<Self> {
                if negative {
                    // -magnitude, computed in i128 where it fits.
                    let m = i128::try_from(magnitude).ok().map(|m| -m).or_else(|| {
                        (magnitude == i128::MIN.unsigned_abs()).then_some(i128::MIN)
                    })?;
                    <$t>::try_from(m).ok()
                } else {
                    <$t>::try_from(magnitude).ok()
                }
            }
            fn min_text() -> String {
                <$t>::MIN.to_string()
            }
            fn max_text() -> String {
                <$t>::MAX.to_string()
            }
        }
    )*};
}

int! {
    u8, false; u16, false; u32, false; u64, false; u128, false;
    i8, true; i16, true; i32, true; i64, true; i128, true;
}

/// Parses a number of type `T` strictly (see the module docs).
pub fn parse_int<T: Int>(text: &str) -> Result<T, String> {
    let (negative, unsigned) = match text.as_bytes().first() {
        Some(b'-') => (true, &text[1..]),
        Some(b'+') => (false, &text[1..]),
        _ => (false, text),
    };
    if negative && !T::SIGNED {
        return Err(format!(
            "negative: {text} is below 0, but {} is unsigned (the signed types i16..i128 take negative numbers)",
            T::NAME
        ));
    }
    let (radix, digits, prefix) = match unsigned
        .strip_prefix("0x")
        .or_else(|| unsigned.strip_prefix("0X"))
    {
        Some(rest) => (16, rest, text.len() - rest.len()),
        None => (10, unsigned, text.len() - unsigned.len()),
    };
    let kind = if radix == 16 { "hex" } else { "decimal" };
    if digits.is_empty() {
        return Err(format!("not a number: {text:?} has no digits"));
    }
    // Every character must be a digit, or '_' between two digits; the first
    // offender is named with its 1-based position in the argument.
    let chars: Vec<char> = digits.chars().collect();
    let mut magnitude: u128 = 0;
    let mut overflow = false;
    for (i, &c) in chars.iter().enumerate() {
        let position = text[..prefix].chars().count() + i + 1;
        if c == '_' {
            let between = i > 0
                && chars[i - 1].is_digit(radix)
                && chars.get(i + 1).is_some_and(|c| c.is_digit(radix));
            if !between {
                return Err(format!(
                    "not a number: {text:?} has '_' at position {position}, which may only stand between two digits"
                ));
            }
            continue;
        }
        let Some(d) = c.to_digit(radix) else {
            let why = match c {
                '+' | '-' => " (one sign at most, before any 0x)".to_string(),
                c if c.is_whitespace() => " (no spaces)".to_string(),
                _ => String::new(),
            };
            return Err(format!(
                "not a number: {text:?} has {c:?} at position {position}, which is not a {kind} digit{why}"
            ));
        };
        match magnitude
            .checked_mul(u128::from(radix))
            .and_then(|m| m.checked_add(u128::from(d)))
        {
            Some(m) => magnitude = m,
            None => overflow = true,
        }
    }
    let value = if overflow {
        None
    } else {
        T::from_parts(negative, magnitude)
    };
    value.ok_or_else(|| {
        format!(
            "out of range: {text} does not fit in {} ({} to {})",
            T::NAME,
            T::min_text(),
            T::max_text()
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    // The decoding, the faults and the stream are the library's, tested
    // there (varint's tests/formats_explain.rs); these check the tool's
    // own words on top.

    fn decode_one(hex: &str, strict: bool) -> Result<u64, String> {
        decode_hex(&Leb::<u64>::default(), hex, strict, false)
            .map(|v| v[0].parse().unwrap())
            .map_err(|(_, e)| e)
    }

    #[test]
    fn messages_name_the_fault() {
        let msg = |hex: &str, strict| decode_one(hex, strict).unwrap_err();
        assert!(msg("ff ff", false).starts_with("truncated: all 2 bytes"));
        assert!(msg("80", false).starts_with("truncated: the only byte sets"));
        assert!(
            msg("ff ff ff ff ff ff ff ff ff ff", false).starts_with("overflow: the first 10 bytes")
        );
        assert!(msg("ff ff ff ff ff ff ff ff ff 02", false).contains("byte 10 is 0x02"));
        assert!(
            msg("80 00", true)
                .starts_with("non-canonical: 2 bytes encode 0, whose shortest encoding is 00")
        );
        assert!(msg("80 00", true).ends_with("; decode without --strict to accept it"));
        assert!(
            msg("ac 02 01", false)
                .starts_with("trailing bytes: the varint ends after byte 2 (value 300)")
        );
        assert!(msg("ac0g", false).contains("bad hex digit 'g' at position 4"));
        assert!(msg("ac0", false).contains("odd number of hex digits"));
        assert_eq!(msg("", false), "not hex: no hex digits");
        assert_eq!(decode_one("80 00", false), Ok(0));
        assert_eq!(
            decode_hex(&Leb::<u64>::default(), "ac02 01 7f", false, true),
            Ok(vec!["300".into(), "1".into(), "127".into()])
        );
        // Every good value before the error comes back with it.
        assert_eq!(
            decode_hex(&Leb::<u64>::default(), "ac 02 01 7f 80", false, true),
            Err((
                vec!["300".into(), "1".into(), "127".into()],
                "the 4th varint, at byte offset 4: truncated: the only byte sets the continuation bit (0x80), so at least one more byte must follow".into()
            ))
        );
        // An empty stream is no values with --all, and empty without.
        let mut values = Vec::new();
        let leb = Leb::<u64>::default();
        let mut push = |v| {
            values.push(v);
            Ok(())
        };
        assert!(decode_stream(&leb, &[][..], false, true, &mut push).is_ok());
        let e = decode_stream(&leb, &[][..], false, false, &mut push).unwrap_err();
        assert_eq!(stream_message(&e, false), "empty: no bytes to decode");
        assert!(values.is_empty());
        assert_eq!(
            decode_hex(&Zig::<u32>::default(), "01", false, false),
            Ok(vec!["-1".into()])
        );
        // Nine or more trailing bytes: eight are shown, then "...".
        assert!(
            msg("01 02 03 04 05 06 07 08 09 0a", false)
                .contains("then more bytes follow: 02 03 04 05 06 07 08 09 ...")
        );
    }

    #[test]
    fn typed_words() {
        let u16 = IntType::new(16, false).unwrap();
        let quic = Typed::<lib::Quic>::new(u16);
        let e = decode_hex(&quic, "80 01 11 70", false, false).unwrap_err();
        assert_eq!(
            e.1,
            "out of range: the QUIC varint holds 70000, which does not fit in u16; pass a wider --type"
        );
        assert_eq!(quic.encode_arg("300"), Ok(vec![0x41, 0x2c]));
        let cbor = Typed::<lib::CborHead>::new(IntType::new(64, true).unwrap());
        let e = decode_hex(&cbor, "83", false, false).unwrap_err();
        assert!(
            e.1.starts_with("not an integer: the head is major type 4 (array)"),
            "{}",
            e.1
        );
    }

    #[test]
    fn numbers() {
        assert_eq!(parse_int::<u64>("300"), Ok(300));
        assert_eq!(parse_int::<u64>("+300"), Ok(300));
        assert_eq!(parse_int::<u64>("0x12c"), Ok(300));
        assert_eq!(parse_int::<u64>("1_000"), Ok(1000));
        assert_eq!(parse_int::<u64>("18446744073709551615"), Ok(u64::MAX));
        assert_eq!(
            parse_int::<u128>("0xffffffffffffffffffffffffffffffff"),
            Ok(u128::MAX)
        );
        assert!(
            parse_int::<u64>("18446744073709551616")
                .unwrap_err()
                .starts_with("out of range")
        );
        assert!(parse_int::<u64>("-1").unwrap_err().starts_with("negative"));
        assert_eq!(
            parse_int::<u64>("12a").unwrap_err(),
            "not a number: \"12a\" has 'a' at position 3, which is not a decimal digit"
        );
        assert!(parse_int::<u64>("").unwrap_err().contains("no digits"));
        assert_eq!(parse_int::<i64>("-9223372036854775808"), Ok(i64::MIN));
        assert_eq!(parse_int::<i128>(&i128::MIN.to_string()), Ok(i128::MIN));
        assert_eq!(parse_int::<i8>("-128"), Ok(-128));
        assert!(parse_int::<i8>("128").unwrap_err().contains("-128 to 127"));
        assert!(
            parse_int::<i64>("-9223372036854775809")
                .unwrap_err()
                .starts_with("out of range")
        );
        assert_eq!(parse_int::<i64>("-0x10"), Ok(-16));
        // One sign at most, and never after 0x.
        for bad in [
            "++300", "-+5", "+-5", "--5", "0x+12c", "0x-1", " 300", "300 ", "1__0", "_1", "1_",
            "0x_1", "-", "+", "0x", "3 00",
        ] {
            assert!(parse_int::<i64>(bad).is_err(), "{bad:?} accepted");
        }
        assert!(
            parse_int::<i64>("-+5")
                .unwrap_err()
                .contains("one sign at most")
        );
    }

    quickcheck::quickcheck! {
        fn encode_then_decode(v: u64) -> bool {
            let bytes = encode::<Leb128<u64>>(v).unwrap();
            decode_hex(&Leb::<u64>::default(), &hex::format(&bytes), true, false) == Ok(vec![v.to_string()])
        }

        fn parse_matches_std(v: i64) -> bool {
            parse_int::<i64>(&v.to_string()) == Ok(v)
                && parse_int::<i128>(&v.to_string()) == Ok(i128::from(v))
        }
    }
}
