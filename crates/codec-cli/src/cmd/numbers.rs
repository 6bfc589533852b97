//! `codec varint` and `codec zigzag`: one output line per value; a rejected
//! input is named on stderr and the others still go through.

use super::Status;
use crate::cli::{IntType, SignedType, VarintTypeArgs};
use crate::names;
use crate::varints::{self, Format, Int, Leb, Sleb, StreamError, Zig};
use crate::{hex, varints::parse_int};
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
    let (bits, signed) = match ty.int_type {
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
    let (bits, mode) = resolve(ty);
    if binary {
        return varint_encode_binary(bits, mode, numbers);
    }
    each("varint encode", numbers, |arg| {
        let bytes = encode_arg(bits, mode, arg).map_err(|e| (Vec::new(), e))?;
        Ok(vec![hex::format(&bytes)])
    })
}

fn encode_arg(bits: Bits, mode: Mode, arg: &str) -> Result<Vec<u8>, String> {
    with_bits!(bits, U, I => Ok(match mode {
        Mode::Unsigned => varints::encode(parse_int::<U>(arg)?),
        Mode::Zigzag => varints::encode(zigzag::encode(parse_int::<I>(arg)?)),
        Mode::Sleb128 => Sleb::<I>::encode(parse_int::<I>(arg)?),
    }))
}

/// `--binary`: every number must parse before a byte is written, so a typo
/// never leaves half a stream behind.
fn varint_encode_binary(bits: Bits, mode: Mode, numbers: &[String]) -> io::Result<Status> {
    let mut encoded = Vec::new();
    for arg in numbers {
        match encode_arg(bits, mode, arg) {
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
    let (bits, mode) = resolve(ty);
    if binary {
        return with_format!(bits, mode, F => decode_files::<F>(inputs, strict, all));
    }
    each(
        "varint decode",
        inputs,
        |arg| with_format!(bits, mode, F => varints::decode_hex::<F>(arg, strict, all)),
    )
}

/// `varint decode --binary`: each file (or stdin) is a byte stream of
/// varints, decoded in bounded memory with each value printed as it comes.
fn decode_files<F: Format>(inputs: &[String], strict: bool, all: bool) -> io::Result<Status> {
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
            varints::decode_stream::<F, _>(reader, strict, all, |v| writeln!(out, "{}", F::show(v)))
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
