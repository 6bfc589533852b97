//! `codec varint` and `codec zigzag`: one output line per argument; a
//! rejected argument is named on stderr and the others still go through.

use super::Status;
use crate::{hex, varints};
use codec_facade::zigzag;
use std::io::{self, Write};

/// Prints `convert(arg)` for each argument, or an error naming the argument.
fn each(
    what: &str,
    args: &[String],
    mut convert: impl FnMut(&str) -> Result<Vec<String>, String>,
) -> io::Result<Status> {
    let mut out = io::stdout().lock();
    let mut status = Status::default();
    for arg in args {
        match convert(arg) {
            Ok(lines) => {
                for line in lines {
                    writeln!(out, "{line}")?;
                }
            }
            Err(message) => {
                out.flush()?;
                status.invalid = true;
                super::error_line(format_args!("{what} {arg:?}: {message}"));
            }
        }
    }
    out.flush()?;
    Ok(status)
}

pub(super) fn varint_encode(signed: bool, numbers: &[String]) -> io::Result<Status> {
    each("varint encode", numbers, |arg| {
        let value = if signed {
            zigzag::encode(varints::parse_i64(arg)?)
        } else {
            varints::parse_u64(arg)?
        };
        Ok(vec![hex::format(&varints::encode(value))])
    })
}

pub(super) fn varint_decode(
    signed: bool,
    strict: bool,
    all: bool,
    hex_args: &[String],
) -> io::Result<Status> {
    each("varint decode", hex_args, |arg| {
        let values = varints::decode_hex(arg, strict, all)?;
        Ok(values
            .into_iter()
            .map(|v| {
                if signed {
                    zigzag::decode(v).to_string()
                } else {
                    v.to_string()
                }
            })
            .collect())
    })
}

pub(super) fn zigzag_encode(numbers: &[String]) -> io::Result<Status> {
    each("zigzag encode", numbers, |arg| {
        Ok(vec![zigzag::encode(varints::parse_i64(arg)?).to_string()])
    })
}

pub(super) fn zigzag_decode(numbers: &[String]) -> io::Result<Status> {
    each("zigzag decode", numbers, |arg| {
        Ok(vec![zigzag::decode(varints::parse_u64(arg)?).to_string()])
    })
}
