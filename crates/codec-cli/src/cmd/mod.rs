//! The subcommands: each turns parsed arguments into output and a
//! [`Status`].

mod blocks;
mod context;
mod convert;
mod convert_any;
mod count;
mod detect;
mod inputs;
mod numbers;
mod output;
mod parallel;
mod parallel_convert;
mod progress;
mod regions;
mod repair;
mod style;
mod validate;

use crate::cli::{Cli, Command, VarintCommand, ZigzagCommand};
use crate::names;
use std::io::{self, Write};
use std::path::Path;

/// Files at least this large are validated on several threads (when there
/// is more than one core): below it, starting threads costs more than it
/// saves (measured in docs/results/codec-cli.md).
pub(crate) const PARALLEL_MIN_BYTES: u64 = 8 << 20;

/// Smallest input `convert` maps instead of reading (see arch::map): below
/// it the lease, the mapping and its page faults buy nothing measurable.
pub(crate) const MAP_MIN_BYTES: u64 = 1 << 20;

/// What happened, for the exit code. An I/O or usage error (2) wins over
/// invalid input (1), as in grep.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Status {
    pub(crate) invalid: bool,
    pub(crate) failed: bool,
}

impl Status {
    pub(crate) fn code(self) -> u8 {
        if self.failed {
            2
        } else if self.invalid {
            1
        } else {
            0
        }
    }
}

pub(crate) fn dispatch(cli: Cli) -> Status {
    let result = match cli.command {
        Command::Validate(args) => validate::run(&args),
        Command::Repair(args) => repair::run(&args),
        Command::Convert(args) => convert::run(&args),
        Command::Count(args) => count::run(&args),
        Command::Detect(args) => detect::run(&args),
        Command::Varint(VarintCommand::Encode {
            ty,
            binary,
            numbers,
        }) => numbers::varint_encode(&ty, binary, &numbers),
        Command::Varint(VarintCommand::Decode {
            ty,
            strict,
            all,
            binary,
            inputs,
        }) => numbers::varint_decode(&ty, strict, all, binary, &inputs),
        Command::Zigzag(ZigzagCommand::Encode { int_type, numbers }) => {
            numbers::zigzag_encode(int_type, &numbers)
        }
        Command::Zigzag(ZigzagCommand::Decode { int_type, numbers }) => {
            numbers::zigzag_decode(int_type, &numbers)
        }
    };
    match result {
        Ok(status) => status,
        // The reader of stdout went away (`codec validate -r . | head`): it
        // has what it wanted, so stop quietly with status 0, as a Unix
        // filter killed by SIGPIPE would not report an error either. Rust
        // ignores SIGPIPE, so the closed pipe arrives here as EPIPE.
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => Status::default(),
        Err(e) => {
            error_line(format_args!("{e}"));
            Status {
                invalid: false,
                failed: true,
            }
        }
    }
}

/// `codec: <message>` on stderr.
pub(crate) fn error_line(message: std::fmt::Arguments<'_>) {
    let _ = writeln!(io::stderr().lock(), "codec: {message}");
}

/// `error`, with its message prefixed by the path it concerns, so that every
/// error names what failed. The kind is kept (a broken pipe stays one).
pub(crate) fn at_path(path: &Path, error: io::Error) -> io::Error {
    io::Error::new(
        error.kind(),
        format!("{}: {error}", names::escape(path.as_os_str())),
    )
}
