//! `codec varint` and `codec zigzag`: one output line per value; a rejected
//! input is named on stderr and the others still go through.

use super::Status;
use crate::cli::{IntType, SignedType, VarintFormat, VarintTypeArgs};
use crate::names;
use crate::varints::{self, Codec, Int, Leb, Sleb, StreamError, Typed, Zig};
use crate::{hex, varints::parse_int};
use codec_facade::varint::formats::{
    self as lib, Bijective, Bincode, CborHead, CompactSize, Hpack, Leb128, MsgPack, Prefix, Quic,
    Sleb128, Sqlite, Vlq,
};
use codec_facade::zigzag;
use std::fs::File;
use std::io::{self, BufWriter, Read, Write};
use std::path::Path;

/// The width of a varint type.
#[derive(Clone, Copy)]
enum Bits {
    B16,
    B32,
    B64,
    B128,
}

/// How the values of a varint type are read and written.
#[derive(Clone, Copy)]
enum Mode {
    /// Unsigned LEB128.
    Unsigned,
    /// Signed, zigzag-mapped, then unsigned LEB128 (protobuf sint32/sint64).
    Zigzag,
    /// Signed LEB128 (DWARF, WebAssembly).
    Sleb128,
}

fn resolve(ty: &VarintTypeArgs) -> (Bits, Mode) {
    let (bits, signed) = match ty.int_type.unwrap_or(IntType::U64) {
        IntType::U16 => (Bits::B16, false),
        IntType::U32 => (Bits::B32, false),
        IntType::U64 => (Bits::B64, false),
        IntType::U128 => (Bits::B128, false),
        IntType::I16 => (Bits::B16, true),
        IntType::I32 => (Bits::B32, true),
        IntType::I64 => (Bits::B64, true),
        IntType::I128 => (Bits::B128, true),
    };
    let mode = if ty.sleb128 {
        Mode::Sleb128
    } else if signed || ty.signed {
        Mode::Zigzag
    } else {
        Mode::Unsigned
    };
    (bits, mode)
}

/// Runs `$body` with `$f` the [`Format`] of `$bits` and `$mode`.
macro_rules! with_format {
    ($bits:expr, $mode:expr, $f:ident => $body:expr) => {
        with_bits!($bits, U, I => match $mode {
            Mode::Unsigned => {
                type $f = Leb<U>;
                $body
            }
            Mode::Zigzag => {
                type $f = Zig<U>;
                $body
            }
            Mode::Sleb128 => {
                type $f = Sleb<I>;
                $body
            }
        })
    };
}

/// Runs `$body` with `$u` the unsigned type and `$i` the signed type of
/// `$bits`.
macro_rules! with_bits {
    ($bits:expr, $u:ident, $i:ident => $body:expr) => {
        match $bits {
            Bits::B16 => {
                #[allow(dead_code)]
                type $u = u16;
                #[allow(dead_code)]
                type $i = i16;
                $body
            }
            Bits::B32 => {
                #[allow(dead_code)]
                type $u = u32;
                #[allow(dead_code)]
                type $i = i32;
                $body
            }
            Bits::B64 => {
                #[allow(dead_code)]
                type $u = u64;
                #[allow(dead_code)]
                type $i = i64;
                $body
            }
            Bits::B128 => {
                #[allow(dead_code)]
                type $u = u128;
                #[allow(dead_code)]
                type $i = i128;
                $body
            }
        }
    };
}

/// Runs `$body` with `$f` the library format of `--format` (not LEB128,
/// which has its own path), and `$n` the HPACK prefix width.
macro_rules! with_lib {
    ($format:expr, $n:expr, $f:ident => $body:expr) => {
        match $format {
            VarintFormat::Quic => {
                type $f = Quic;
                $body
            }
            VarintFormat::Sqlite => {
                type $f = Sqlite;
                $body
            }
            VarintFormat::Git => {
                type $f = Bijective;
                $body
            }
            VarintFormat::Compactsize => {
                type $f = CompactSize;
                $body
            }
            VarintFormat::Cbor => {
                type $f = CborHead;
                $body
            }
            VarintFormat::Msgpack => {
                type $f = MsgPack;
                $body
            }
            VarintFormat::Bincode => {
                type $f = Bincode;
                $body
            }
            VarintFormat::Vlq => {
                type $f = Vlq;
                $body
            }
            VarintFormat::Prefix => {
                type $f = Prefix;
                $body
            }
            // LEB128 and the block formats have paths of their own.
            VarintFormat::Hpack
            | VarintFormat::Leb128
            | VarintFormat::Streamvbyte
            | VarintFormat::Groupvarint => match $n {
                1 => {
                    type $f = Hpack<1>;
                    $body
                }
                2 => {
                    type $f = Hpack<2>;
                    $body
                }
                3 => {
                    type $f = Hpack<3>;
                    $body
                }
                4 => {
                    type $f = Hpack<4>;
                    $body
                }
                5 => {
                    type $f = Hpack<5>;
                    $body
                }
                6 => {
                    type $f = Hpack<6>;
                    $body
                }
                7 => {
                    type $f = Hpack<7>;
                    $body
                }
                _ => {
                    type $f = Hpack<8>;
                    $body
                }
            },
        }
    };
}

/// The width and signedness of `--type` and `--signed`, for the formats
/// other than LEB128; `--sleb128` is LEB128's alone.
fn typed(ty: &VarintTypeArgs) -> Result<lib::IntType, String> {
    if ty.sleb128 {
        return Err(
            "--sleb128 is signed LEB128: it goes with --format leb128 only \
                    (use --signed or a signed --type for the other formats)"
                .to_string(),
        );
    }
    let (bits, mode) = resolve(ty);
    let bits = match bits {
        Bits::B16 => 16,
        Bits::B32 => 32,
        Bits::B64 => 64,
        Bits::B128 => 128,
    };
    lib::IntType::new(bits, matches!(mode, Mode::Zigzag))
        .ok_or_else(|| format!("no {bits}-bit type"))
}

/// Prints `convert(arg)` for each argument, or the values before an error
/// and then the error naming the argument.
fn each(
    what: &str,
    args: &[String],
    mut convert: impl FnMut(&str) -> Result<Vec<String>, (Vec<String>, String)>,
) -> io::Result<Status> {
    let mut out = io::stdout().lock();
    let mut status = Status::default();
    for arg in args {
        let (lines, error) = match convert(arg) {
            Ok(lines) => (lines, None),
            Err((lines, message)) => (lines, Some(message)),
        };
        for line in lines {
            writeln!(out, "{line}")?;
        }
        if let Some(message) = error {
            out.flush()?;
            status.invalid = true;
            super::error_line(format_args!("{what} {arg:?}: {message}"));
        }
    }
    out.flush()?;
    Ok(status)
}

fn one<T>(r: Result<T, String>) -> Result<Vec<String>, (Vec<String>, String)>
where
    T: ToString,
{
    r.map(|v| vec![v.to_string()]).map_err(|e| (Vec::new(), e))
}

pub(super) fn varint_encode(
    ty: &VarintTypeArgs,
    binary: bool,
    numbers: &[String],
) -> io::Result<Status> {
    if let Some(status) = prefix_bits_misplaced(ty) {
        return status;
    }
    if super::blocks::is_block(ty.format) {
        return super::blocks::encode(ty, binary, numbers);
    }
    if ty.format != VarintFormat::Leb128 {
        let int_type = match typed(ty) {
            Ok(t) => t,
            Err(message) => return usage(&message),
        };
        return with_lib!(ty.format, ty.prefix_bits.unwrap_or(8), F => {
            let codec = Typed::<F>::new(int_type);
            encode_with(binary, numbers, |arg| codec.encode_arg(arg))
        });
    }
    let (bits, mode) = resolve(ty);
    encode_with(binary, numbers, |arg| encode_arg(bits, mode, arg))
}

/// `--prefix-bits` belongs to `--format hpack`.
fn prefix_bits_misplaced(ty: &VarintTypeArgs) -> Option<io::Result<Status>> {
    if let Some(message) = super::blocks::misplaced(ty) {
        return Some(usage(&message));
    }
    (ty.prefix_bits.is_some() && ty.format != VarintFormat::Hpack)
        .then(|| usage("--prefix-bits goes with --format hpack only"))
}

/// A usage error, named on stderr: exit 2, nothing else done.
pub(super) fn usage(message: &str) -> io::Result<Status> {
    super::error_line(format_args!("varint: {message}"));
    Ok(Status {
        invalid: false,
        failed: true,
    })
}

fn encode_with(
    binary: bool,
    numbers: &[String],
    encode: impl Fn(&str) -> Result<Vec<u8>, String>,
) -> io::Result<Status> {
    if binary {
        return varint_encode_binary(numbers, encode);
    }
    each("varint encode", numbers, |arg| {
        let bytes = encode(arg).map_err(|e| (Vec::new(), e))?;
        Ok(vec![hex::format(&bytes)])
    })
}

fn encode_arg(bits: Bits, mode: Mode, arg: &str) -> Result<Vec<u8>, String> {
    with_bits!(bits, U, I => match mode {
        Mode::Unsigned => varints::encode::<Leb128<U>>(parse_int::<U>(arg)?),
        Mode::Zigzag => varints::encode::<Leb128<U>>(zigzag::encode(parse_int::<I>(arg)?)),
        Mode::Sleb128 => varints::encode::<Sleb128<I>>(parse_int::<I>(arg)?),
    })
}

/// `--binary`: every number must parse before a byte is written, so a typo
/// never leaves half a stream behind.
fn varint_encode_binary(
    numbers: &[String],
    encode: impl Fn(&str) -> Result<Vec<u8>, String>,
) -> io::Result<Status> {
    let mut encoded = Vec::new();
    for arg in numbers {
        match encode(arg) {
            Ok(bytes) => encoded.extend(bytes),
            Err(message) => {
                super::error_line(format_args!(
                    "varint encode {arg:?}: {message} (nothing written)"
                ));
                return Ok(Status {
                    invalid: true,
                    failed: false,
                });
            }
        }
    }
    let mut out = io::stdout().lock();
    out.write_all(&encoded)?;
    out.flush()?;
    Ok(Status::default())
}

pub(super) fn varint_decode(
    ty: &VarintTypeArgs,
    strict: bool,
    all: bool,
    binary: bool,
    inputs: &[String],
) -> io::Result<Status> {
    if let Some(status) = prefix_bits_misplaced(ty) {
        return status;
    }
    if super::blocks::is_block(ty.format) {
        return super::blocks::decode(ty, strict, all, binary, inputs);
    }
    if ty.format != VarintFormat::Leb128 {
        let int_type = match typed(ty) {
            Ok(t) => t,
            Err(message) => return usage(&message),
        };
        return with_lib!(ty.format, ty.prefix_bits.unwrap_or(8), F => {
            decode_with(&Typed::<F>::new(int_type), strict, all, binary, inputs)
        });
    }
    let (bits, mode) = resolve(ty);
    with_format!(bits, mode, F => decode_with(&F::default(), strict, all, binary, inputs))
}

fn decode_with<C: Codec>(
    codec: &C,
    strict: bool,
    all: bool,
    binary: bool,
    inputs: &[String],
) -> io::Result<Status> {
    if binary {
        return decode_files(codec, inputs, strict, all);
    }
    each("varint decode", inputs, |arg| {
        varints::decode_hex(codec, arg, strict, all)
    })
}

/// `varint decode --binary`: each file (or stdin) is a byte stream of
/// varints, decoded in bounded memory with each value printed as it comes.
fn decode_files<C: Codec>(
    codec: &C,
    inputs: &[String],
    strict: bool,
    all: bool,
) -> io::Result<Status> {
    let mut out = BufWriter::new(io::stdout().lock());
    let mut status = Status::default();
    let stdin = ["-".to_string()];
    let inputs = if inputs.is_empty() {
        &stdin[..]
    } else {
        inputs
    };
    for input in inputs {
        let (name, reader): (String, io::Result<Box<dyn Read>>) = if input == "-" {
            (
                super::inputs::STDIN_NAME.to_string(),
                Ok(Box::new(io::stdin().lock())),
            )
        } else {
            let path = Path::new(input);
            (
                names::escape(path.as_os_str()).into_owned(),
                File::open(path).map(|f| Box::new(f) as Box<dyn Read>),
            )
        };
        let result = reader.map_err(StreamError::Io).and_then(|reader| {
            varints::decode_stream(codec, reader, strict, all, |v| writeln!(out, "{v}"))
        });
        match result {
            Ok(()) => {}
            Err(StreamError::Output(e)) => return Err(e),
            Err(e) => {
                out.flush()?;
                if matches!(e, StreamError::Io(_)) {
                    status.failed = true;
                } else {
                    status.invalid = true;
                }
                super::error_line(format_args!(
                    "varint decode {name}: {}",
                    varints::stream_message(&e, all)
                ));
            }
        }
    }
    out.flush()?;
    Ok(status)
}

macro_rules! with_signed {
    ($t:expr, $i:ident => $body:expr) => {
        match $t {
            SignedType::I8 => {
                type $i = i8;
                $body
            }
            SignedType::I16 => {
                type $i = i16;
                $body
            }
            SignedType::I32 => {
                type $i = i32;
                $body
            }
            SignedType::I64 => {
                type $i = i64;
                $body
            }
            SignedType::I128 => {
                type $i = i128;
                $body
            }
        }
    };
}

pub(super) fn zigzag_encode(ty: SignedType, numbers: &[String]) -> io::Result<Status> {
    each(
        "zigzag encode",
        numbers,
        |arg| with_signed!(ty, I => one(parse_int::<I>(arg).map(zigzag::encode))),
    )
}

pub(super) fn zigzag_decode(ty: SignedType, numbers: &[String]) -> io::Result<Status> {
    each(
        "zigzag decode",
        numbers,
        |arg| with_signed!(ty, I => one(parse_unsigned_of::<I>(arg).map(zigzag::decode))),
    )
}

/// Parses the zigzag code of a signed type `I`: its unsigned counterpart.
fn parse_unsigned_of<I>(arg: &str) -> Result<<I as zigzag::ZigZag>::Unsigned, String>
where
    I: zigzag::ZigZag,
    <I as zigzag::ZigZag>::Unsigned: Int,
{
    parse_int::<<I as zigzag::ZigZag>::Unsigned>(arg)
}
