//! `codec`: the varcodecs codecs on the command line.
//!
//! ```text
//! codec validate -r src docs       # which files are not UTF-8, where and why
//! codec repair broken.txt -o fixed.txt
//! codec count notes.txt
//! codec varint encode 300          # ac 02
//! codec varint decode "ac 02"      # 300
//! codec zigzag encode -- -1        # 1
//! ```
//!
//! The binary is a thin layer over [`codec_facade`]. This library holds what
//! the subcommands share and what the tests reach directly:
//!
//! - [`scan`]: the library's streaming engine (codec-core's `Utf8Reader` with
//!   the SIMD validator) as a callback over valid runs and invalid sequences,
//!   with one reused buffer, so memory stays bounded whatever the input size.
//! - [`position`]: line and column of an offset, tracked while streaming.
//! - [`repair`]: the streaming lossy conversion.
//! - [`tally`]: the counts of `codec count`.
//! - [`hex`], [`varints`]: hex parsing and varint decoding with errors that
//!   name the faulty byte.
//!
//! # Example
//!
//! ```
//! use codec_cli::{repair, scan::Scanner};
//!
//! let input = b"caf\xC3\xA9 \xED\xA0\x80 ok \xE2\x82";
//! let mut out = Vec::new();
//! let done = repair::repair(&mut Scanner::new(4), &input[..], &mut out).unwrap();
//! assert_eq!(out, String::from_utf8_lossy(input).as_bytes());
//! assert_eq!(done.replaced, 4); // ED, A0, 80, and the unfinished E2 82
//! ```
//!
//! # Exactness
//!
//! Every piece boundary is where `String::from_utf8_lossy` puts one: one
//! diagnostic per U+FFFD it would write, at the offset `core::str::from_utf8`
//! reports, whatever the chunk size. The tests compare with std on the
//! conformance corpora, on Kuhn's stress test and on quickcheck inputs at
//! chunk sizes from one byte up.
//!
//! # Crate features
//!
//! None. The crate needs `std` (files, terminals).
//!
//! # Policies
//!
//! `#![forbid(unsafe_code)]`; MSRV: Rust 1.89 (the workspace's). The
//! streaming engine, the `Read` scanner, lossy repair and line/column
//! positions are the libraries' (codec-core, utf8-simd); [`scan`],
//! [`repair`] and [`position`] adapt them to the subcommands.
//!
//! # References
//!
//! - Validation: John Keiser and Daniel Lemire, "Validating UTF-8 in less
//!   than one instruction per byte", Software: Practice and Experience 51(5),
//!   2021 (the `utf8-simd` crate).
//! - Where one error ends and the next begins: the Unicode Standard §3.9,
//!   "U+FFFD Substitution of Maximal Subparts", which `from_utf8_lossy`
//!   follows; each diagnostic is one maximal subpart.
//! - Cache directories skipped by walks: the Cache Directory Tagging
//!   Specification, <https://bford.info/cachedir/>.
#![forbid(unsafe_code)]

pub mod hex;
pub mod position;
pub mod repair;
pub mod scan;
pub mod tally;
pub mod varints;

mod cli;
mod cmd;

use std::process::ExitCode;

/// Runs the `codec` command line with the process arguments and returns its
/// exit code: 0 all valid / done, 1 invalid input, 2 I/O or usage error.
pub fn run() -> ExitCode {
    use clap::Parser;
    let cli = cli::Cli::parse();
    ExitCode::from(cmd::dispatch(cli).code())
}
