//! The subcommands: each turns parsed arguments into output and a
//! [`Status`].

mod count;
mod inputs;
mod numbers;
mod repair;
mod validate;

use crate::cli::{Cli, Command, VarintCommand, ZigzagCommand};
use std::io::{self, Write};

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
        Command::Count(args) => count::run(&args),
        Command::Varint(VarintCommand::Encode { signed, numbers }) => {
            numbers::varint_encode(signed, &numbers)
        }
        Command::Varint(VarintCommand::Decode {
            signed,
            strict,
            all,
            hex,
        }) => numbers::varint_decode(signed, strict, all, &hex),
        Command::Zigzag(ZigzagCommand::Encode { numbers }) => numbers::zigzag_encode(&numbers),
        Command::Zigzag(ZigzagCommand::Decode { numbers }) => numbers::zigzag_decode(&numbers),
    };
    match result {
        Ok(status) => status,
        // stdout closed early (`codec validate -r . | head`): stop quietly.
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => Status {
            invalid: false,
            failed: true,
        },
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
