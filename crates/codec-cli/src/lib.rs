//! `codec`: the varcodecs codecs on the command line, the tool to reach for
//! instead of `iconv -f UTF-8 -t UTF-8`, `isutf8` and `grep -axv '.*'`.
//!
//! ```text
//! codec validate -r --hidden .     # which files are not UTF-8, where and why
//! codec validate --context a.txt   # ... with the line and a caret
//! codec repair broken.txt -o fixed.txt
//! codec convert -f UTF-16 -t UTF-8 win.txt -o unix.txt
//! codec convert -f CESU-8 -t UTF-8 oracle.txt
//! codec count notes.txt
//! codec varint encode 300          # ac 02
//! codec varint encode --sleb128 -- -129   # ff 7e (signed LEB128)
//! printf '\xac\x02' | codec varint decode --binary   # 300
//! codec zigzag encode -- -1        # 1
//! ```
//!
//! MSRV: the workspace's (1.89). `#![deny(unsafe_code)]` but for one
//! module, `arch::map`: `codec convert` reads a large regular file through
//! a memory map held still by a read lease (Linux), which measured 0.73–0.84×
//! the wall time of reading it (docs/results/codec-cli.md, "Decisions and
//! dead ends"). Needs `std` (files, threads, terminals); not `no_std`.
//!
//! The binary is a thin layer over [`codec_facade`] and codec-core's
//! streaming engine (`Utf8Reader`, `Position`). This library holds what the
//! subcommands share and what the tests reach directly:
//!
//! - [`scan`]: the pieces of a reader (valid runs, invalid sequences) handed
//!   to a callback, over codec-core's `Utf8Reader`.
//! - [`position`], [`repair`], [`tally`]: line and column, the lossy copy,
//!   the counts of `codec count`.
//! - [`names`]: file names printed unambiguously (escapes for bytes that are
//!   not UTF-8 and for control characters), and as bytes in JSON.
//! - The conversions of `codec convert` are the encodings crate's
//!   (`encodings::pivot` for the Unicode forms, with transcode's SIMD
//!   kernels, utf8-simd and utf8-variants; `encodings::Converter` for the
//!   rest), and so are the places a file may be cut for threads
//!   (`encodings::Encoding::cut_near_in`); the CLI keeps the arguments, the
//!   wording, the threads and the memory map.
//! - [`hex`], [`varints`]: hex parsing, strict number parsing for every
//!   width, and varint decoding (unsigned LEB128, zigzag, signed LEB128)
//!   with errors that name the faulty byte.
//!
//! Unix manners: a closed stdout ends a run quietly with status 0; binary
//! files (a NUL in the first 32 KiB) get one line, as in grep; walks honour
//! `.gitignore`/`.ignore` and the hidden-file options as ripgrep does (the
//! `ignore` crate); every error names the path that failed; colour and
//! progress bars only on terminals, colour off under `NO_COLOR`. Large
//! regular files are validated on every core, with output identical to a
//! single-threaded run.
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
//! reports, whatever the chunk size and however many threads. The tests
//! compare with std on the conformance corpora, on Kuhn's stress test and on
//! quickcheck inputs at chunk sizes from one byte up; the parallel path with
//! the sequential one on random files cut every few bytes; `codec convert`
//! with glibc's iconv and Python's codecs (CESU-8 and WTF-8 with Python's
//! `'utf-8', 'surrogatepass'`), at read sizes from one byte up.
//!
//! # Crate features
//!
//! None. The crate needs `std` (files, terminals).
//!
//! # Policies
//!
//! No `unsafe` outside `arch::map` (the mapping, its lease and two signal
//! handlers); MSRV: Rust 1.89 (the workspace's). The
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
//! - Binary files: GNU grep's rule (a NUL byte in the first buffer).
//! - Colour: <https://no-color.org>.
//! - UTF-16 and UTF-32 byte order marks: the Unicode Standard §3.10 and
//!   §23.8; their handling follows glibc's iconv.
#![deny(unsafe_code)]

pub mod hex;
pub mod names;
pub mod position;
pub mod repair;
pub mod scan;
pub mod tally;
pub mod varints;

#[allow(unsafe_code)]
mod arch;
mod cli;
mod cmd;

use std::process::ExitCode;

/// Runs the `codec` command line with the process arguments and returns its
/// exit code: 0 all valid / done, 1 invalid input, 2 I/O or usage error.
pub fn run() -> ExitCode {
    use clap::Parser;
    // `codec -l`, as `iconv -l`: the same list as `codec convert --list`.
    let args: Vec<std::ffi::OsString> = std::env::args_os().skip(1).collect();
    if let [only] = args.as_slice()
        && (only == "-l" || only == "--list")
    {
        let cli = cli::Cli::parse_from(["codec", "convert", "--list"]);
        return ExitCode::from(cmd::dispatch(cli).code());
    }
    let cli = cli::Cli::parse();
    ExitCode::from(cmd::dispatch(cli).code())
}
