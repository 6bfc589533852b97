//! `codec varint` and `codec zigzag` without the printing: strict number
//! parsing for every width, and varint decoding (from hex or from a byte
//! stream) that says exactly what is wrong with bad input.
//!
//! Decoding goes through `codec_facade::varint`; this module only adds the
//! explanation of an error, read from the bytes, and the checks the tool
//! makes on top (trailing bytes, and `--strict`).
//!
//! # Numbers
//!
//! [`parse_int`] takes one optional sign (`-` only for signed types), then
//! decimal digits or `0x` and hex digits, with `_` allowed between two
//! digits. Nothing else: no whitespace, no second sign (`++300`, `-+5`), no
//! sign after the radix prefix (`0x+12c`), which `from_str_radix` alone
//! would let through.

use crate::hex;
use codec_facade::DecodeError;
use codec_facade::varint::formats::{
    self as lib, Bijective, Bincode, CborHead, CompactSize, Format as LibFormat, Hpack, Leb128,
    MsgPack, Prefix, Quic, Sleb128, Sqlite, StreamErrorKind, Vlq, cbor::Head,
};
use codec_facade::varint::{self, Varint, sleb128};
use codec_facade::zigzag::{self, Unzig};
use std::fmt::{self, Display};
use std::io::{self, Read};
use std::marker::PhantomData;

/// An unsigned varint type with what the messages need to say about it.
pub trait Width: Varint + Into<u128> + TryFrom<u128> + Display + Unzig {
    /// What the messages call its varints: `u64 varint`.
    const VARINT: &'static str;
}

impl Width for u16 {
    const VARINT: &'static str = "u16 varint";
}
impl Width for u32 {
    const VARINT: &'static str = "u32 varint";
}
impl Width for u64 {
    const VARINT: &'static str = "u64 varint";
}
impl Width for u128 {
    const VARINT: &'static str = "u128 varint";
}

/// A varint format `varint decode` reads: LEB128 of an unsigned type
/// ([`Leb`]), zigzag-mapped ([`Zig`], protobuf `sint32`/`sint64`), or
/// signed LEB128 ([`Sleb`], DWARF and WebAssembly).
pub trait Format {
    /// The decoded value.
    type Value: Copy;
    /// The library's format that decodes it.
    type Lib: LibFormat<Value = Self::Value>;
    /// What the messages call it: `u64 varint`, `i32 SLEB128`.
    const NAME: &'static str;
    /// Its longest encoding.
    const MAX_LEN: usize;
    /// The values the `MAX_LEN`-th byte may have, and why, in words.
    fn last_byte() -> (String, &'static str);
    /// The library's decoder.
    fn decode(bytes: &[u8], strict: bool) -> Result<(Self::Value, usize), DecodeError> {
        if strict {
            Self::Lib::decode_strict(bytes)
        } else {
            Self::Lib::decode(bytes)
        }
    }
    /// The library's encoder.
    fn encode(value: Self::Value) -> Vec<u8> {
        let mut buf = [0u8; 32];
        let n = Self::Lib::try_encode(value, &mut buf).unwrap_or(0);
        buf[..n].to_vec()
    }
    /// The value as printed.
    fn show(value: Self::Value) -> String;
}

/// Unsigned LEB128 of `T` (`u16`..`u128`).
pub struct Leb<T>(PhantomData<T>);

/// Zigzag: the unsigned LEB128 of `T`, shown as the signed value it maps
/// back to.
pub struct Zig<T>(PhantomData<T>);

/// Signed LEB128 of `T` (`i16`..`i128`).
pub struct Sleb<T>(PhantomData<T>);

const HIGH_BITS: &str = "anything else sets bits above the type's width";

fn unsigned_last_byte<T: Width>() -> (String, &'static str) {
    let allowed = if T::LAST_BYTE_MAX == 1 {
        "0x00 or 0x01".to_string()
    } else {
        format!("0x00 to 0x{:02x}", T::LAST_BYTE_MAX)
    };
    (allowed, HIGH_BITS)
}

impl<T: Width> Format for Leb<T> {
    type Value = T;
    type Lib = Leb128<T>;
    const NAME: &'static str = T::VARINT;
    const MAX_LEN: usize = T::MAX_LEN;
    fn last_byte() -> (String, &'static str) {
        unsigned_last_byte::<T>()
    }
    fn show(value: T) -> String {
        value.to_string()
    }
}

impl<T: Width> Format for Zig<T>
where
    <T as Unzig>::Signed: Display,
{
    type Value = T;
    type Lib = Leb128<T>;
    const NAME: &'static str = T::VARINT;
    const MAX_LEN: usize = T::MAX_LEN;
    fn last_byte() -> (String, &'static str) {
        unsigned_last_byte::<T>()
    }
    fn show(value: T) -> String {
        zigzag::decode(value).to_string()
    }
}

macro_rules! sleb {
    ($($t:ty, $name:literal;)*) => {$(
        impl Format for Sleb<$t> {
            type Value = $t;
            type Lib = Sleb128<$t>;
            const NAME: &'static str = $name;
            const MAX_LEN: usize = <$t as sleb128::Sleb128>::MAX_LEN;
            fn last_byte() -> (String, &'static str) {
                // The last byte holds the value's top bits, the highest of
                // them its sign; its other bits must repeat the sign.
                let bits = <$t>::BITS as usize - 7 * (Self::MAX_LEN - 1);
                let max = (1u8 << (bits - 1)) - 1;
                let allowed = if max == 0 {
                    "0x00 or 0x7f".to_string()
                } else {
                    format!("0x00 to 0x{max:02x} or 0x{:02x} to 0x7f", 0x7F - max)
                };
                (
                    allowed,
                    "the bits above the type's width must repeat its sign bit",
                )
            }
            fn show(value: $t) -> String {
                value.to_string()
            }
        }
    )*};
}

sleb! {
    i16, "i16 SLEB128"; i32, "i32 SLEB128"; i64, "i64 SLEB128"; i128, "i128 SLEB128";
}

/// What is wrong with a varint input.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum VarintProblem {
    /// The argument is not hex.
    Hex(hex::HexError),
    /// The input is empty.
    Empty,
    /// Every byte has the continuation bit set and there are fewer than
    /// `MAX_LEN`.
    Truncated {
        /// Bytes available.
        len: usize,
    },
    /// `MAX_LEN` bytes all have the continuation bit set.
    TooLong {
        /// The type.
        ty: &'static str,
        /// Its longest encoding.
        max_len: usize,
    },
    /// The last allowed byte carries bits above the type's width (or, for
    /// SLEB128, bits that do not repeat the sign).
    HighBits {
        /// The type.
        ty: &'static str,
        /// Its longest encoding (the position of the byte).
        max_len: usize,
        /// The values that byte may have, in words.
        allowed: String,
        /// Why, in words.
        why: &'static str,
        /// The byte.
        byte: u8,
    },
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
    /// What a format other than LEB128 says is wrong, in words.
    Other(String),
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
            VarintProblem::Empty => f.write_str("empty: no bytes to decode"),
            VarintProblem::Truncated { len: 1 } => f.write_str(
                "truncated: the only byte sets the continuation bit (0x80), \
                 so at least one more byte must follow",
            ),
            VarintProblem::Truncated { len } => write!(
                f,
                "truncated: all {len} bytes set the continuation bit (0x80), \
                 so at least one more byte must follow"
            ),
            VarintProblem::TooLong { ty, max_len } => write!(
                f,
                "overflow: the first {max_len} bytes all set the continuation bit (0x80), \
                 but {} {ty} is at most {max_len} bytes long",
                article(ty)
            ),
            VarintProblem::HighBits {
                ty,
                max_len,
                allowed,
                why,
                byte,
            } => write!(
                f,
                "overflow: byte {max_len} is 0x{byte:02x}, but the last byte of {} {ty} \
                 may only be {allowed} ({why})",
                article(ty)
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
            VarintProblem::Other(text) => f.write_str(text),
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

/// `a u64 varint`, `an i64 SLEB128`.
fn article(noun: &str) -> &'static str {
    // Said as a reader says them: "an i64", "an HPACK", "an SQLite".
    if noun.starts_with('i') || noun.starts_with("HPACK") || noun.starts_with("SQL") {
        "an"
    } else {
        "a"
    }
}

fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}

/// Decodes the varint of format `F` at the start of `bytes`: its value and
/// length.
pub fn decode_prefix<F: Format>(
    bytes: &[u8],
    strict: bool,
) -> Result<(F::Value, usize), VarintProblem> {
    match F::decode(bytes, strict) {
        Ok(decoded) => Ok(decoded),
        Err(DecodeError::NonCanonical) => {
            // The lenient decode gives the value, to show its shortest form.
            let (value, len) = F::decode(bytes, false).map_err(|e| explain::<F>(bytes, e))?;
            Err(VarintProblem::NonCanonical {
                len,
                value: F::show(value),
                shortest: F::encode(value),
            })
        }
        Err(e) => Err(explain::<F>(bytes, e)),
    }
}

/// Reads why `bytes` failed to decode from the bytes themselves, so the
/// message can say which byte is at fault.
fn explain<F: Format>(bytes: &[u8], e: DecodeError) -> VarintProblem {
    let continued = bytes.iter().take_while(|&&b| b & 0x80 != 0).count();
    match e {
        _ if bytes.is_empty() => VarintProblem::Empty,
        DecodeError::Truncated => VarintProblem::Truncated { len: bytes.len() },
        _ if continued >= F::MAX_LEN => VarintProblem::TooLong {
            ty: F::NAME,
            max_len: F::MAX_LEN,
        },
        _ if continued == F::MAX_LEN - 1 => {
            let (allowed, why) = F::last_byte();
            VarintProblem::HighBits {
                ty: F::NAME,
                max_len: F::MAX_LEN,
                allowed,
                why,
                byte: bytes.get(F::MAX_LEN - 1).copied().unwrap_or(0),
            }
        }
        // Not reachable with a well-behaved decoder; say what the decoder
        // said rather than guess.
        _ => VarintProblem::Truncated {
            len: bytes.len().min(continued),
        },
    }
}

/// The varint bytes of `value`.
pub fn encode<T: Width>(value: T) -> Vec<u8> {
    let mut buf = [0u8; 19];
    let n = varint::encode(value, &mut buf);
    buf[..n].to_vec()
}

/// How the varints of one format are decoded and shown: the library's
/// format does the decoding; this adds the text of a value and the
/// explanation of an error.
pub trait Codec {
    /// The library's format.
    type Lib: LibFormat;
    /// The value as printed, or why it cannot be (out of `--type`'s range).
    fn show(&self, value: <Self::Lib as LibFormat>::Value) -> Result<String, VarintProblem>;
    /// Why `bytes` (from the failing varint's first byte) failed with `e`.
    fn explain(&self, bytes: &[u8], e: DecodeError) -> VarintProblem;
}

/// The CLI's LEB128, zigzag and SLEB128 formats as a [`Codec`].
pub struct LebCodec<F>(PhantomData<F>);

impl<F> Default for LebCodec<F> {
    fn default() -> Self {
        LebCodec(PhantomData)
    }
}

impl<F: Format> Codec for LebCodec<F> {
    type Lib = F::Lib;
    fn show(&self, value: F::Value) -> Result<String, VarintProblem> {
        Ok(F::show(value))
    }
    fn explain(&self, bytes: &[u8], e: DecodeError) -> VarintProblem {
        explain::<F>(bytes, e)
    }
}

/// Decodes the varint at the start of `bytes` with `codec`: its text and
/// length, or what is wrong (for `--strict`, with the shortest form).
pub fn decode_one<C: Codec>(
    codec: &C,
    bytes: &[u8],
    strict: bool,
) -> Result<(String, usize), VarintProblem> {
    let decoded = if strict {
        C::Lib::decode_strict(bytes)
    } else {
        C::Lib::decode(bytes)
    };
    match decoded {
        Ok((value, n)) => Ok((codec.show(value)?, n)),
        Err(DecodeError::NonCanonical) => {
            // The lenient decode gives the value, to show its shortest form.
            let (value, len) = C::Lib::decode(bytes).map_err(|e| codec.explain(bytes, e))?;
            let mut buf = [0u8; 32];
            let n = C::Lib::try_encode(value, &mut buf).unwrap_or(0);
            Err(VarintProblem::NonCanonical {
                len,
                value: codec.show(value)?,
                shortest: buf[..n].to_vec(),
            })
        }
        Err(e) => Err(codec.explain(bytes, e)),
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
/// fills the input, or with `all` a sequence (the library's
/// `formats::decode_stream`), calling `on_value` with each value's text in
/// order. Every value before an error is handed out first.
pub fn decode_stream<C: Codec, R: Read>(
    codec: &C,
    mut reader: R,
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
        let bytes = e.bytes().to_vec();
        return Err(match e.into_kind() {
            // Decoded again from its bytes, for the message's details.
            StreamErrorKind::Decode(err) => varint(
                index,
                offset,
                decode_one(codec, &bytes, strict)
                    .err()
                    .unwrap_or_else(|| codec.explain(&bytes, err)),
            ),
            StreamErrorKind::Read(e) => StreamError::Io(e),
            StreamErrorKind::Callback(Stop::Problem(p)) => varint(index, offset, p),
            StreamErrorKind::Callback(Stop::Output(e)) => StreamError::Output(e),
            _ => StreamError::Io(io::Error::other("varint stream stopped")),
        });
    }
    // One varint must fill the input: read at most its longest encoding,
    // then up to 9 bytes more to name any trailing ones.
    let max_len = <C::Lib as LibFormat>::MAX_LEN;
    let mut buf = vec![0u8; max_len + 9];
    let len = read_up_to(&mut reader, &mut buf[..max_len]).map_err(StreamError::Io)?;
    let (text, n) = decode_one(codec, &buf[..len], strict).map_err(|p| varint(0, 0, p))?;
    let mut rest = buf[n..len].to_vec();
    if len == max_len {
        let mut extra = [0u8; 9];
        let got = read_up_to(&mut reader, &mut extra[..9 - rest.len().min(9)])
            .map_err(StreamError::Io)?;
        rest.extend_from_slice(&extra[..got]);
    }
    if !rest.is_empty() {
        let more = rest.len() > 8;
        rest.truncate(8);
        return Err(varint(
            0,
            0,
            VarintProblem::Trailing {
                len: n,
                value: text,
                rest,
                more,
            },
        ));
    }
    on_value(text).map_err(StreamError::Output)
}

fn read_up_to<R: Read>(reader: &mut R, buf: &mut [u8]) -> io::Result<usize> {
    let mut got = 0;
    while got < buf.len() {
        match reader.read(&mut buf[got..]) {
            Ok(0) => break,
            Ok(n) => got += n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(got)
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
        } if all && !matches!(problem, VarintProblem::Empty) => {
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

/// A format other than LEB128, as the command line sees it: its values
/// as integers (`i128` holds every one of them), and its words.
pub trait Wide: LibFormat {
    /// Whether the format carries a sign itself (MessagePack, CBOR); the
    /// others take signed values through zigzag.
    const SIGNED: bool;
    /// Its range, in words.
    const RANGE: &'static str;
    /// The value as an integer, or why it is not one.
    fn to_wide(value: Self::Value) -> Result<i128, String>;
    /// The value of an integer, if the format can hold it.
    fn from_wide(wide: i128) -> Option<Self::Value>;
    /// Why `bytes` overflow, in words.
    fn overflow(bytes: &[u8]) -> String;
    /// Why a value starting with `first` is not an integer, in words.
    fn not_an_integer(first: u8) -> String {
        format!("the first byte 0x{first:02x} does not start an integer")
    }
}

macro_rules! unsigned_wide {
    ($($f:ty, $v:ty, $range:literal, $overflow:literal;)*) => {$(
        impl Wide for $f {
            const SIGNED: bool = false;
            const RANGE: &'static str = $range;
            fn to_wide(value: $v) -> Result<i128, String> {
                Ok(i128::from(value))
            }
            fn from_wide(wide: i128) -> Option<$v> {
                <$v>::try_from(wide).ok().filter(|&v| Self::encoded_len(v).is_some())
            }
            fn overflow(_: &[u8]) -> String {
                $overflow.to_string()
            }
        }
    )*};
}

unsigned_wide! {
    Quic, u64, "0 to 4611686018427387903, 2^62-1", "a QUIC varint cannot overflow";
    Sqlite, u64, "0 to 18446744073709551615", "an SQLite varint cannot overflow";
    Bijective, u64, "0 to 18446744073709551615",
        "the continuation bytes go on past 18446744073709551615 (u64), the largest value";
    CompactSize, u64, "0 to 18446744073709551615", "a CompactSize cannot overflow";
    Bincode, u64, "0 to 18446744073709551615",
        "the first byte 0xfe announces a u128, which bincode never reads as a u64";
    Vlq, u32, "0 to 268435455, 0x0fffffff",
        "all 4 bytes set the continuation bit (0x80), but a MIDI variable-length quantity is at most 4 bytes long";
    Prefix, u64, "0 to 18446744073709551615", "a prefix varint cannot overflow";
}

impl<const N: u8> Wide for Hpack<N> {
    const SIGNED: bool = false;
    const RANGE: &'static str = "0 to 18446744073709551615";
    fn to_wide(value: u64) -> Result<i128, String> {
        Ok(i128::from(value))
    }
    fn from_wide(wide: i128) -> Option<u64> {
        u64::try_from(wide).ok()
    }
    fn overflow(bytes: &[u8]) -> String {
        if bytes.len() >= Self::MAX_LEN && bytes[1..Self::MAX_LEN].iter().all(|&b| b >= 0x80) {
            "the prefix is followed by 10 bytes with the continuation bit (0x80), \
             but an HPACK integer of 64 bits is at most 11 bytes long"
                .to_string()
        } else {
            "the value is above 18446744073709551615 (u64)".to_string()
        }
    }
}

impl Wide for MsgPack {
    const SIGNED: bool = true;
    const RANGE: &'static str = "-9223372036854775808 to 18446744073709551615";
    fn to_wide(value: i128) -> Result<i128, String> {
        Ok(value)
    }
    fn from_wide(wide: i128) -> Option<i128> {
        Self::encoded_len(wide).map(|_| wide)
    }
    fn overflow(_: &[u8]) -> String {
        "a MessagePack integer cannot overflow".to_string()
    }
    fn not_an_integer(first: u8) -> String {
        format!(
            "the first byte 0x{first:02x} starts a MessagePack value of another type \
             (nil, boolean, float, string, binary, array, map or extension)"
        )
    }
}

impl Wide for CborHead {
    const SIGNED: bool = true;
    const RANGE: &'static str = "-18446744073709551616 to 18446744073709551615";
    fn to_wide(head: Head) -> Result<i128, String> {
        const NAMES: [&str; 8] = [
            "unsigned integer",
            "negative integer",
            "byte string",
            "text string",
            "array",
            "map",
            "tag",
            "simple value or float",
        ];
        head.to_int().ok_or_else(|| {
            format!(
                "the head is major type {} ({}) with argument {}, not an integer (major type 0 or 1)",
                head.major, NAMES[usize::from(head.major & 7)], head.argument
            )
        })
    }
    fn from_wide(wide: i128) -> Option<Head> {
        Head::from_int(wide)
    }
    fn overflow(_: &[u8]) -> String {
        "a CBOR head cannot overflow".to_string()
    }
    fn not_an_integer(first: u8) -> String {
        format!(
            "the first byte 0x{first:02x} has additional information 31 (an indefinite \
             length, or the break code), which carries no integer"
        )
    }
}

/// A [`Wide`] format read into a `--type`: unsigned `bits`, or with
/// `signed` the signed type of that width (through zigzag, unless the
/// format has a sign of its own).
pub struct Typed<F> {
    bits: u32,
    signed: bool,
    format: PhantomData<F>,
}

impl<F: Wide> Typed<F> {
    /// The format read into the integer type of `bits` bits, signed or not.
    pub fn new(bits: u32, signed: bool) -> Self {
        Typed {
            bits,
            signed,
            format: PhantomData,
        }
    }

    fn type_name(&self) -> String {
        format!("{}{}", if self.signed { 'i' } else { 'u' }, self.bits)
    }

    /// The bytes of the number `arg`, parsed as the type.
    pub fn encode_arg(&self, arg: &str) -> Result<Vec<u8>, String> {
        let wide = match (self.bits, self.signed) {
            (_, false) => {
                let v = match self.bits {
                    16 => u128::from(parse_int::<u16>(arg)?),
                    32 => u128::from(parse_int::<u32>(arg)?),
                    64 => u128::from(parse_int::<u64>(arg)?),
                    _ => parse_int::<u128>(arg)?,
                };
                i128::try_from(v).ok()
            }
            (_, true) => {
                let v = match self.bits {
                    16 => i128::from(parse_int::<i16>(arg)?),
                    32 => i128::from(parse_int::<i32>(arg)?),
                    64 => i128::from(parse_int::<i64>(arg)?),
                    _ => parse_int::<i128>(arg)?,
                };
                if F::SIGNED {
                    Some(v)
                } else {
                    // Zigzag within the type's width: -1 -> 1, 1 -> 2.
                    let z = (v << 1) ^ (v >> 127);
                    let unsigned = (z as u128) & width_mask(self.bits);
                    i128::try_from(unsigned).ok()
                }
            }
        };
        let value = wide.and_then(F::from_wide).ok_or_else(|| {
            format!(
                "out of range: {arg} does not fit in {} {} ({}{})",
                article(F::NAME),
                F::NAME,
                F::RANGE,
                if self.signed && !F::SIGNED {
                    ", after zigzag"
                } else {
                    ""
                }
            )
        })?;
        let mut buf = [0u8; 32];
        let n = F::try_encode(value, &mut buf).map_err(|e| e.to_string())?;
        Ok(buf[..n].to_vec())
    }
}

/// The low `bits` bits.
fn width_mask(bits: u32) -> u128 {
    if bits >= 128 {
        u128::MAX
    } else {
        (1 << bits) - 1
    }
}

impl<F: Wide> Codec for Typed<F> {
    type Lib = F;

    fn show(&self, value: F::Value) -> Result<String, VarintProblem> {
        let wide = F::to_wide(value).map_err(VarintProblem::NotAnInteger)?;
        let bits = self.bits;
        let fits = if !self.signed || !F::SIGNED {
            // The type's unsigned values (of the zigzag code, when signed).
            wide >= 0 && (wide as u128) <= width_mask(bits)
        } else {
            let half = 1i128.checked_shl(bits - 1).unwrap_or(i128::MAX);
            bits >= 128 || (-half..half).contains(&wide)
        };
        if !fits {
            return Err(VarintProblem::Range {
                what: F::NAME,
                value: wide.to_string(),
                ty: self.type_name(),
            });
        }
        if self.signed && !F::SIGNED {
            let s = (wide >> 1) ^ -(wide & 1);
            return Ok(s.to_string());
        }
        Ok(wide.to_string())
    }

    fn explain(&self, bytes: &[u8], e: DecodeError) -> VarintProblem {
        let first = bytes.first().copied().unwrap_or(0);
        let text = match e {
            _ if bytes.is_empty() => return VarintProblem::Empty,
            DecodeError::Truncated => format!(
                "truncated: the input ends after {} byte{}, inside {} {}",
                bytes.len(),
                plural(bytes.len()),
                article(F::NAME),
                F::NAME
            ),
            DecodeError::Overflow => format!("overflow: {}", F::overflow(bytes)),
            DecodeError::Reserved => format!(
                "reserved: {} {} may not start with 0x{first:02x}{}",
                article(F::NAME),
                F::NAME,
                if bytes.len() > 1 && first == 0xf8 {
                    format!(" 0x{:02x} (a simple value below 32 in two bytes)", bytes[1])
                } else {
                    String::new()
                }
            ),
            DecodeError::NotAnInteger => format!("not an integer: {}", F::not_an_integer(first)),
            e => e.to_string(),
        };
        VarintProblem::Other(text)
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

    fn leb<F: Format>() -> LebCodec<F> {
        LebCodec::default()
    }

    fn decode_one(hex: &str, strict: bool) -> Result<u64, String> {
        decode_hex(&leb::<Leb<u64>>(), hex, strict, false)
            .map(|v| v[0].parse().unwrap())
            .map_err(|(_, e)| e)
    }

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
            let got = decode_prefix::<Leb<u64>>(&case.input, false);
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
                            decode_prefix::<Leb<u64>>(&case.input, true).is_ok(),
                            canonical,
                            "{}",
                            case.id
                        );
                    }
                }
                codec_testdata::VarintExpect::Truncated => {
                    assert!(
                        matches!(
                            got,
                            Err(VarintProblem::Truncated { .. } | VarintProblem::Empty)
                        ),
                        "{}: {got:?}",
                        case.id
                    )
                }
                codec_testdata::VarintExpect::Overflow => assert!(
                    matches!(
                        got,
                        Err(VarintProblem::TooLong { .. } | VarintProblem::HighBits { .. })
                    ),
                    "{}: {got:?}",
                    case.id
                ),
            }
        }
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
        assert!(
            msg("ac 02 01", false)
                .starts_with("trailing bytes: the varint ends after byte 2 (value 300)")
        );
        assert!(msg("ac0g", false).contains("bad hex digit 'g' at position 4"));
        assert!(msg("ac0", false).contains("odd number of hex digits"));
        assert_eq!(decode_one("80 00", false), Ok(0));
        assert_eq!(
            decode_hex(&leb::<Leb<u64>>(), "ac02 01 7f", false, true),
            Ok(vec!["300".into(), "1".into(), "127".into()])
        );
        // Every good value before the error comes back with it.
        assert_eq!(
            decode_hex(&leb::<Leb<u64>>(), "ac 02 01 7f 80", false, true),
            Err((
                vec!["300".into(), "1".into(), "127".into()],
                "the 4th varint, at byte offset 4: truncated: the only byte sets the continuation bit (0x80), so at least one more byte must follow".into()
            ))
        );
        // Other widths say so.
        let e = decode_hex(&leb::<Leb<u32>>(), "ff ff ff ff 10", false, false).unwrap_err();
        assert!(
            e.1.contains("last byte of a u32 varint may only be 0x00 to 0x0f"),
            "{}",
            e.1
        );
        let e = decode_hex(&leb::<Leb<u16>>(), "80 80 80", false, false).unwrap_err();
        assert!(e.1.contains("first 3 bytes"), "{}", e.1);
        assert_eq!(
            decode_hex(&leb::<Zig<u32>>(), "01", false, false),
            Ok(vec!["-1".into()])
        );
    }

    #[test]
    fn streams_in_small_reads_match_one_slice() {
        /// Hands out one byte per read, the worst case for the carry.
        struct Trickle<'a>(&'a [u8]);
        impl Read for Trickle<'_> {
            fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
                match (self.0.split_first(), buf.first_mut()) {
                    (Some((&b, rest)), Some(slot)) => {
                        *slot = b;
                        self.0 = rest;
                        Ok(1)
                    }
                    _ => Ok(0),
                }
            }
        }
        let mut bytes = Vec::new();
        for v in 0..3000u64 {
            bytes.extend(encode(v * v * v * 977));
        }
        let mut got = Vec::new();
        decode_stream(&leb::<Leb<u64>>(), Trickle(&bytes), true, true, |v| {
            got.push(v.parse::<u64>().unwrap());
            Ok(())
        })
        .unwrap();
        assert_eq!(
            got,
            (0..3000u64).map(|v| v * v * v * 977).collect::<Vec<_>>()
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
            let bytes = encode(v);
            decode_prefix::<Leb<u64>>(&bytes, true) == Ok((v, bytes.len()))
                && decode_hex(&leb::<Leb<u64>>(), &hex::format(&bytes), true, false) == Ok(vec![v.to_string()])
        }

        fn parse_matches_std(v: i64) -> bool {
            parse_int::<i64>(&v.to_string()) == Ok(v)
                && parse_int::<i128>(&v.to_string()) == Ok(i128::from(v))
        }
    }
}
