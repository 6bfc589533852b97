//! The command line, declared with clap's derive API: every subcommand, its
//! options and its help text with examples.

use clap::{Args, Parser, Subcommand};
use std::path::PathBuf;

const ABOUT: &str = "Validate, repair and count UTF-8; encode and decode varints and zigzag";

const LONG_ABOUT: &str = "\
Validate, repair and count UTF-8 in files and trees; encode and decode \
LEB128/protobuf varints and zigzag.

UTF-8 is checked exactly as Rust's core::str::from_utf8 checks it (the \
SIMD validator of the varcodecs workspace), streaming in bounded memory.";

const EXAMPLES: &str = "\
Examples:
  codec validate notes.txt            one line per invalid sequence
  codec validate -r --first src docs  the first error of each invalid file under src and docs
  codec validate -q data.csv && echo valid
  codec repair broken.txt -o fixed.txt
  codec count -r docs
  codec varint encode 300             prints: ac 02
  codec varint decode 'AC 02'         prints: 300
  codec zigzag encode -- -1           prints: 1

Exit codes: 0 success (all input valid), 1 invalid input, 2 I/O or usage error.";

/// `codec`: the command line.
#[derive(Debug, Parser)]
#[command(name = "codec", version, about = ABOUT, long_about = LONG_ABOUT, after_help = EXAMPLES)]
pub(crate) struct Cli {
    #[command(subcommand)]
    pub(crate) command: Command,
}

#[derive(Debug, Subcommand)]
pub(crate) enum Command {
    /// Report every invalid UTF-8 sequence in files, trees or stdin.
    #[command(
        long_about = "\
Report every invalid UTF-8 sequence in files, directory trees (-r) or stdin.

Each invalid sequence gets one line:
  PATH:LINE:COLUMN: invalid UTF-8 (KIND) at byte OFFSET: HEX
LINE is 1 + the number of '\\n' bytes before the sequence. COLUMN is 1-based \
and counts characters (code points) since the line start, where each earlier \
invalid sequence counts as one character, as it would after a lossy decode. \
OFFSET is the 0-based byte offset in the file. HEX is the offending bytes: \
the maximal invalid subpart that a lossy decoder replaces with one U+FFFD, \
so there is exactly one line per U+FFFD that `codec repair` would write. \
A file that ends inside a character reports the unfinished tail as \
\"incomplete sequence at end of input\".

Without a PATH, or with '-', stdin is read. With -r, directories are walked \
in file-name order; symbolic links met inside a walk, non-regular files, \
hidden entries (name starting with '.') and cache directories (holding a \
CACHEDIR.TAG, such as Cargo's target/) are skipped unless --all is given. \
A directory given without -r is an error. Unreadable files are reported on \
stderr and the walk goes on.",
        after_help = "\
Examples:
  codec validate notes.txt
  codec validate -r --first .         first error of each invalid file in the tree
  codec validate -l -r .              names of invalid files only
  cat data | codec validate -q && echo valid
  codec validate --json -r docs       one JSON object per line

Exit codes: 0 all valid, 1 some input invalid, 2 an I/O or usage error (wins over 1)."
    )]
    Validate(ValidateArgs),
    /// Replace invalid UTF-8 with U+FFFD, exactly as String::from_utf8_lossy does.
    #[command(
        long_about = "\
Replace each invalid UTF-8 sequence with U+FFFD, byte for byte as Rust's \
String::from_utf8_lossy does (one U+FFFD per maximal invalid subpart, one \
for an unfinished character at the end), streaming in bounded memory.

Reads PATH (or stdin) and writes to -o OUT (or stdout). With --in-place, \
the result goes to a temporary file in PATH's directory that then replaces \
PATH by a rename, so PATH is always either the old or the new file, never \
a half-written one; a valid file is left untouched.",
        after_help = "\
Examples:
  codec repair broken.txt -o fixed.txt
  codec repair --in-place broken.txt
  some-tool | codec repair > clean.txt

Exit codes: 0 done (whether or not anything was replaced), 2 an I/O or usage error."
    )]
    Repair(RepairArgs),
    /// Count bytes, code points, lines and invalid sequences by kind.
    #[command(
        long_about = "\
Count bytes, code points (in the valid parts), lines ('\\n' bytes, as wc -l \
counts them) and invalid sequences by kind, for each input and in total.",
        after_help = "\
Examples:
  codec count notes.txt
  codec count -r docs
  codec count --json testdata/conformance/UTF-8-test.txt

Exit codes: 0 done (invalid input is counted, not an error), 2 an I/O or usage error."
    )]
    Count(CountArgs),
    /// Encode numbers as LEB128/protobuf varints, or decode hex varints.
    #[command(subcommand)]
    Varint(VarintCommand),
    /// Map signed numbers to unsigned ones with zigzag (protobuf sint64), and back.
    #[command(subcommand)]
    Zigzag(ZigzagCommand),
}

/// Where the input comes from: shared by validate and count.
#[derive(Debug, Args)]
pub(crate) struct InputArgs {
    /// Files or directories to read; none or '-' reads stdin.
    #[arg(value_name = "PATH")]
    pub(crate) paths: Vec<PathBuf>,
    /// Walk directories.
    #[arg(short, long)]
    pub(crate) recursive: bool,
    /// In a walk, also read hidden entries, cache directories (CACHEDIR.TAG)
    /// and files behind symbolic links.
    #[arg(short = 'a', long)]
    pub(crate) all: bool,
    /// Bytes per read (for tests of the chunk boundaries).
    #[arg(long, hide = true, default_value_t = codec_cli_chunk())]
    pub(crate) chunk_size: usize,
}

const fn codec_cli_chunk() -> usize {
    crate::scan::DEFAULT_CHUNK_SIZE
}

#[derive(Debug, Args)]
pub(crate) struct ValidateArgs {
    #[command(flatten)]
    pub(crate) input: InputArgs,
    /// Report only the first invalid sequence of each file (and stop reading it).
    #[arg(long)]
    pub(crate) first: bool,
    /// Print nothing; only the exit code tells.
    #[arg(short, long, conflicts_with_all = ["json", "files_with_errors", "summary"])]
    pub(crate) quiet: bool,
    /// Print only the names of invalid files, one per line.
    #[arg(short = 'l', long, conflicts_with = "json")]
    pub(crate) files_with_errors: bool,
    /// One JSON object per line: {"type":"invalid",...} per sequence,
    /// {"type":"file",...} per input, {"type":"io-error",...} per failure.
    #[arg(long)]
    pub(crate) json: bool,
    /// End with a summary line (on stderr; in the stream with --json).
    #[arg(short, long)]
    pub(crate) summary: bool,
    /// Never show a progress bar (shown only on a terminal, for files of 64 MiB or more).
    #[arg(long)]
    pub(crate) no_progress: bool,
}

#[derive(Debug, Args)]
pub(crate) struct RepairArgs {
    /// The file to repair; none or '-' reads stdin.
    #[arg(value_name = "PATH")]
    pub(crate) path: Option<PathBuf>,
    /// Write here instead of stdout ('-' is stdout).
    #[arg(short, long, value_name = "OUT", conflicts_with = "in_place")]
    pub(crate) output: Option<PathBuf>,
    /// Replace PATH atomically (temporary file in the same directory, then rename).
    #[arg(short, long, requires = "path")]
    pub(crate) in_place: bool,
    /// Say nothing on stderr about what was replaced.
    #[arg(short, long)]
    pub(crate) quiet: bool,
    /// Bytes per read (for tests of the chunk boundaries).
    #[arg(long, hide = true, default_value_t = codec_cli_chunk())]
    pub(crate) chunk_size: usize,
}

#[derive(Debug, Args)]
pub(crate) struct CountArgs {
    #[command(flatten)]
    pub(crate) input: InputArgs,
    /// One JSON object per input, then one for the total.
    #[arg(long)]
    pub(crate) json: bool,
}

#[derive(Debug, Subcommand)]
pub(crate) enum VarintCommand {
    /// Print the varint bytes of each number, in hex.
    #[command(after_help = "\
Examples:
  codec varint encode 1 300 0xffffffff    prints 01 / ac 02 / ff ff ff ff 0f
  codec varint encode --signed -- -1 -150 prints 01 / ab 02

Numbers are decimal, or hex with 0x; '_' may separate digits.
Exit codes: 0 all encoded, 1 a number was rejected (the others are still encoded).")]
    Encode {
        /// Zigzag-encode signed numbers first (protobuf sint64).
        #[arg(short, long)]
        signed: bool,
        /// The numbers (u64, or i64 with --signed).
        #[arg(value_name = "N", required = true, allow_negative_numbers = true)]
        numbers: Vec<String>,
    },
    /// Print the value of each hex varint.
    #[command(after_help = "\
Examples:
  codec varint decode ac02 'AC 02' 0xac02    prints 300 three times
  codec varint decode --signed 01            prints -1
  codec varint decode --strict '80 00'       rejected: non-canonical
  codec varint decode --all 'ac 02 01 7f'    prints 300 / 1 / 127

Each argument holds exactly one varint (or, with --all, a sequence of them).
Errors name the fault: a bad hex digit and its position, an odd number of
digits, a truncated varint, an overflow (and which byte), a non-canonical
encoding (--strict), or trailing bytes.
Exit codes: 0 all decoded, 1 an argument was rejected (the others are still decoded).")]
    Decode {
        /// Zigzag-decode the values (protobuf sint64).
        #[arg(short, long)]
        signed: bool,
        /// Reject non-canonical encodings (longer than the value needs, like 80 00).
        #[arg(long)]
        strict: bool,
        /// Each argument is a sequence of varints; print every value.
        #[arg(long)]
        all: bool,
        /// Hex bytes: 'ac02', 'AC 02' or '0xac02'.
        #[arg(value_name = "HEX", required = true)]
        hex: Vec<String>,
    },
}

#[derive(Debug, Subcommand)]
pub(crate) enum ZigzagCommand {
    /// Map each signed number to its zigzag code: 0→0, -1→1, 1→2, -2→3...
    #[command(after_help = "\
Examples:
  codec zigzag encode 0 -1 1 -2    prints 0 / 1 / 2 / 3
  codec zigzag encode -- -150      prints 299

Exit codes: 0 all mapped, 1 a number was rejected.")]
    Encode {
        /// Signed numbers (i64).
        #[arg(value_name = "N", required = true, allow_negative_numbers = true)]
        numbers: Vec<String>,
    },
    /// Map each zigzag code back to its signed number.
    #[command(after_help = "\
Examples:
  codec zigzag decode 0 1 2 3      prints 0 / -1 / 1 / -2

Exit codes: 0 all mapped, 1 a number was rejected.")]
    Decode {
        /// Unsigned codes (u64).
        #[arg(value_name = "N", required = true)]
        numbers: Vec<String>,
    },
}
