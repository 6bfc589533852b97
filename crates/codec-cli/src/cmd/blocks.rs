//! `codec varint --format streamvbyte|groupvarint`: the two block formats
//! of the library (`varint::streamvbyte`, `varint::group_varint`). They
//! hold streams of `u32` whose count is not stored, so an input is one
//! value, or with `--all --count N` a stream of N values; encoding writes
//! all the numbers as one stream.

use super::Status;
use crate::cli::{IntType, VarintFormat, VarintTypeArgs};
use crate::varints::parse_int;
use crate::{hex, names};
use codec_facade::varint::group_varint::GroupVarint;
use codec_facade::varint::streamvbyte::{Error, Layout, StreamVByte};
use codec_facade::zigzag;
use std::io::{self, Read, Write};

/// A block format with its options, and whether values are signed.
struct Block {
    codec: Codec,
    signed: bool,
    name: &'static str,
}

enum Codec {
    Svb(StreamVByte),
    Group(GroupVarint),
}

/// Whether `--format` is one of the block formats.
pub(super) fn is_block(format: VarintFormat) -> bool {
    matches!(
        format,
        VarintFormat::Streamvbyte | VarintFormat::Groupvarint
    )
}

/// The block options (`--count`, `--delta`, `--zero124`) with another
/// format: the usage error, if any.
pub(super) fn misplaced(ty: &VarintTypeArgs) -> Option<String> {
    if is_block(ty.format) {
        return None;
    }
    if ty.count.is_some() {
        return Some("--count goes with --format streamvbyte or groupvarint only".to_string());
    }
    (ty.delta || ty.zero124).then(|| {
        format!(
            "--{} goes with --format streamvbyte only",
            if ty.delta { "delta" } else { "zero124" }
        )
    })
}

impl Block {
    fn new(ty: &VarintTypeArgs) -> Result<Block, String> {
        let name = match ty.format {
            VarintFormat::Streamvbyte => "Stream VByte",
            _ => "Group Varint",
        };
        let signed = match (ty.int_type.unwrap_or(IntType::U32), ty.signed, ty.sleb128) {
            (_, _, true) => {
                return Err(
                    "--sleb128 is signed LEB128: it goes with --format leb128 only \
                     (use -t i32 for zigzag)"
                        .to_string(),
                );
            }
            (IntType::U32, signed, _) => signed,
            (IntType::I32, _, _) => true,
            (other, _, _) => {
                return Err(format!(
                    "{name} holds u32 values only, not {}: pass -t u32, or -t i32 for \
                     signed values through zigzag",
                    format!("{other:?}").to_lowercase()
                ));
            }
        };
        let codec = match ty.format {
            VarintFormat::Streamvbyte => {
                let layout = if ty.zero124 {
                    Layout::Zero124
                } else {
                    Layout::Standard
                };
                Codec::Svb(
                    StreamVByte::new()
                        .layout(layout)
                        .zigzag(signed)
                        .delta(ty.delta),
                )
            }
            _ if ty.delta || ty.zero124 => {
                return Err(format!(
                    "--{} goes with --format streamvbyte only",
                    if ty.delta { "delta" } else { "zero124" }
                ));
            }
            _ => Codec::Group(GroupVarint::new()),
        };
        Ok(Block {
            codec,
            signed,
            name,
        })
    }

    fn encode(&self, values: &[u32]) -> Vec<u8> {
        match &self.codec {
            Codec::Svb(c) => c.encode_to_vec(values),
            // Group Varint has no zigzag of its own: the values come mapped.
            Codec::Group(c) => c.encode_to_vec(values),
        }
    }

    /// The values in the form the codec stores (zigzag for Group Varint is
    /// the tool's; Stream VByte's codec does its own).
    fn stored(&self, value: i64) -> u32 {
        match (&self.codec, self.signed) {
            (Codec::Group(_), true) => zigzag::encode(value as i32),
            _ => value as u32,
        }
    }

    fn decode(&self, input: &[u8], count: usize) -> (Vec<u32>, Result<usize, Error>) {
        let mut out = vec![0u32; count];
        let result = match &self.codec {
            Codec::Svb(c) => c.decode(input, count, &mut out),
            Codec::Group(c) => c.decode(input, count, &mut out),
        };
        out.truncate(match result {
            Ok(_) => count,
            Err(e) => e.written(),
        });
        (out, result)
    }

    fn show(&self, stored: u32) -> String {
        match (&self.codec, self.signed) {
            (Codec::Group(_), true) => zigzag::decode(stored).to_string(),
            (Codec::Svb(_), true) => (stored as i32).to_string(),
            _ => stored.to_string(),
        }
    }
}

fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}

/// `varint encode`: every number, then one stream.
pub(super) fn encode(ty: &VarintTypeArgs, binary: bool, numbers: &[String]) -> io::Result<Status> {
    let block = match Block::new(ty).and_then(|b| {
        if ty.count.is_some() {
            Err("--count goes with varint decode only".to_string())
        } else {
            Ok(b)
        }
    }) {
        Ok(b) => b,
        Err(message) => return super::numbers::usage(&message),
    };
    let mut values = Vec::with_capacity(numbers.len());
    for arg in numbers {
        let parsed = if block.signed {
            parse_int::<i32>(arg).map(i64::from)
        } else {
            parse_int::<u32>(arg).map(i64::from)
        };
        match parsed {
            Ok(v) => values.push(block.stored(v)),
            Err(message) => {
                super::error_line(format_args!(
                    "varint encode {arg:?}: {message} (nothing written: the numbers form one {} stream)",
                    block.name
                ));
                return Ok(Status {
                    invalid: true,
                    failed: false,
                });
            }
        }
    }
    let bytes = block.encode(&values);
    let mut out = io::stdout().lock();
    if binary {
        out.write_all(&bytes)?;
    } else {
        writeln!(out, "{}", hex::format(&bytes))?;
    }
    out.flush()?;
    Ok(Status::default())
}

/// `varint decode`: each input one value, or with `--all --count N` a
/// stream of N values; the values decoded before an error are printed.
pub(super) fn decode(
    ty: &VarintTypeArgs,
    strict: bool,
    all: bool,
    binary: bool,
    inputs: &[String],
) -> io::Result<Status> {
    let block = match Block::new(ty) {
        Ok(b) => b,
        Err(message) => return super::numbers::usage(&message),
    };
    let count = match (all, ty.count) {
        (true, Some(n)) => n,
        (false, None) => 1,
        (true, None) => {
            return super::numbers::usage(&format!(
                "--all with --format {} needs --count N: the format does not store how many \
                 values a stream holds",
                if matches!(block.codec, Codec::Svb(_)) {
                    "streamvbyte"
                } else {
                    "groupvarint"
                }
            ));
        }
        (false, Some(_)) => return super::numbers::usage("--count goes with --all"),
    };
    let mut status = Status::default();
    let mut out = io::stdout().lock();
    let stdin = ["-".to_string()];
    let inputs = if binary && inputs.is_empty() {
        &stdin[..]
    } else {
        inputs
    };
    for input in inputs {
        let (name, bytes) = if binary {
            let read = if input == "-" {
                let mut v = Vec::new();
                io::stdin().lock().read_to_end(&mut v).map(|_| v)
            } else {
                std::fs::read(input)
            };
            let name = if input == "-" {
                super::inputs::STDIN_NAME.to_string()
            } else {
                names::escape(std::path::Path::new(input).as_os_str()).into_owned()
            };
            match read {
                Ok(b) => (name, b),
                Err(e) => {
                    out.flush()?;
                    status.failed = true;
                    super::error_line(format_args!("varint decode {name}: {e}"));
                    continue;
                }
            }
        } else {
            match hex::parse(input) {
                Ok(b) => (format!("{input:?}"), b),
                Err(e) => {
                    out.flush()?;
                    status.invalid = true;
                    super::error_line(format_args!("varint decode {input:?}: not hex: {e}"));
                    continue;
                }
            }
        };
        let (values, result) = block.decode(&bytes, count);
        let message = match result {
            Ok(used) if used < bytes.len() => {
                let rest = &bytes[used..];
                let shown = &rest[..rest.len().min(8)];
                Some(format!(
                    "trailing bytes: the {} stream of {count} value{} ends after byte {used}, \
                     then {} more byte{} follow: {}{}; pass --all --count N to decode a longer stream",
                    block.name,
                    plural(count),
                    rest.len(),
                    plural(rest.len()),
                    hex::format(shown),
                    if rest.len() > 8 { " ..." } else { "" }
                ))
            }
            Ok(used) if strict && block.encode(&values) != bytes[..used] => {
                let shortest = block.encode(&values);
                Some(format!(
                    "non-canonical: the {used} bytes hold {count} value{}, whose shortest {} \
                     encoding is {} ({} byte{}); decode without --strict to accept it",
                    plural(count),
                    block.name,
                    hex::format(&shortest),
                    shortest.len(),
                    plural(shortest.len())
                ))
            }
            Ok(_) => None,
            Err(_) if bytes.is_empty() => Some("empty: no bytes to decode".to_string()),
            Err(Error::ControlTruncated { needed, available }) => Some(format!(
                "truncated: {count} value{} need {needed} control byte{}, but the input has {available}",
                plural(count),
                plural(needed)
            )),
            Err(Error::Truncated {
                index,
                offset,
                needed,
            }) => Some(format!(
                "truncated: value {} of {count} needs {needed} byte{} at byte offset {offset}, \
                     but the input ends after {} byte{}",
                index + 1,
                plural(needed),
                bytes.len(),
                plural(bytes.len())
            )),
            Err(e) => Some(e.to_string()),
        };
        // Strictness is checked on the whole stream: print nothing of a
        // non-canonical one.
        let print = match &message {
            Some(m) => !m.starts_with("non-canonical") && !m.starts_with("trailing"),
            None => true,
        };
        if print {
            for &v in &values {
                writeln!(out, "{}", block.show(v))?;
            }
        }
        if let Some(m) = message {
            out.flush()?;
            status.invalid = true;
            super::error_line(format_args!("varint decode {name}: {m}"));
        }
    }
    out.flush()?;
    Ok(status)
}
