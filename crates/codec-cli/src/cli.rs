//! The command line, declared with clap's derive API: every subcommand, its
//! options and its help text with examples.
//!
//! The help text is the user's manual: `tests/cli.rs` checks that each flag
//! it names does what it says.

use clap::{Args, Parser, Subcommand, ValueEnum};
use std::path::PathBuf;

const ABOUT: &str = "Validate, repair, count, detect and convert text (UTF-8/16/32, legacy and CJK encodings); encode and decode varints and zigzag";

const LONG_ABOUT: &str = "\
Validate, repair and count UTF-8 in files and trees; detect which \
encoding a file is in; convert between UTF-8, UTF-16, UTF-32, the UTF-8 \
variants and the legacy encodings iconv knows (ISO-8859, Windows, DOS, \
EBCDIC, KOI8, Mac, Shift_JIS, EUC-JP, GB18030, Big5, EUC-KR...); encode \
and decode LEB128/protobuf varints, zigzag, and the variable-length \
integers of QUIC, HPACK, SQLite, git, Bitcoin, CBOR, MessagePack, bincode \
and MIDI (--format). `codec -l` lists the encodings, as iconv -l.

UTF-8 is checked exactly as Rust's core::str::from_utf8 checks it (the \
SIMD validator of the varcodecs workspace), streaming in bounded memory.

Output to a closed pipe (codec validate -r . | head) ends the run quietly \
with status 0. Colour is used on terminals unless NO_COLOR is set \
(see --color); progress bars appear only when stderr is a terminal.";

const EXAMPLES: &str = "\
Examples:
  codec validate notes.txt            one line per invalid sequence
  codec validate -r --first src docs  the first error of each invalid file under src and docs
  codec validate -q data.csv && echo valid
  codec repair broken.txt -o fixed.txt
  codec convert -f UTF-16LE -t UTF-8 win.txt -o unix.txt
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
\"incomplete sequence at end of input\". With --context, the line follows, \
with invalid bytes as \\xHH escapes and carets under the reported ones.

Binary files (a NUL byte in the first 32 KiB, as grep decides) are still \
checked, but an invalid one gets one line instead of one per sequence:
  PATH: binary file is not valid UTF-8 (first error at byte OFFSET: KIND)
--binary-files=text reports them like text; --binary-files=skip leaves them \
out (they count as neither valid nor invalid).

File names that are not UTF-8, or hold control characters or '\\', are \
printed with escapes (\\xHH, \\n, \\t, \\\\) that printf '%b' turns back into \
the name; in JSON, \"path\" is then the escaped form and \"path_bytes\" the \
exact bytes.

Without a PATH, or with '-', stdin is read. With -r, directories are walked \
in file-name order the way ripgrep walks them: hidden entries (names \
starting with '.') are skipped unless --hidden; files matched by .gitignore \
(inside a git repository), .ignore, .git/info/exclude and the global git \
excludes are skipped unless --no-ignore, and so are .git directories and \
cache directories (holding a CACHEDIR.TAG, such as Cargo's target/); \
symbolic links are not followed unless --follow; non-regular files (FIFOs, \
sockets, devices) are skipped unless --all, which also implies the three \
others. Paths named on the command line are always read. A directory given \
without -r is an error. Unreadable files are reported on stderr, naming the \
path, and the walk goes on.

Large regular files are checked on every core (--jobs), with output \
identical to a single-threaded run.",
        after_help = "\
Examples:
  codec validate notes.txt
  codec validate -r --first .         first error of each invalid file in the tree
  codec validate -r --hidden .        every file git would track, dotfiles included
  codec validate -l -r .              names of invalid files only
  codec validate --context notes.txt  each error with its line and a caret
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
the result goes to a temporary file in the same directory that then \
replaces the file by a rename, so it is always either the old or the new \
file, never a half-written one; a valid file is left untouched. A symbolic \
link is followed: its target is repaired and the link stays a link (as \
sed --follow-symlinks does), since replacing the link with a regular file \
would leave the target unrepaired. A file with several hard links is \
refused, since the rename would split them. Errors name the path that \
failed: the input, the output, or the directory of the temporary file.",
        after_help = "\
Examples:
  codec repair broken.txt -o fixed.txt
  codec repair --in-place broken.txt
  some-tool | codec repair > clean.txt

Exit codes: 0 done (whether or not anything was replaced), 2 an I/O or usage error."
    )]
    Repair(RepairArgs),
    /// Convert text from one encoding to another (every encoding iconv users meet).
    #[command(
        long_about = "\
Convert text from one encoding to another, streaming in bounded memory, \
like iconv [-c] -f FROM -t TO[//TRANSLIT][//IGNORE]. FROM and TO default \
to UTF-8; -f auto detects the input's encoding from its first 64 KiB (as \
codec detect). Large regular files are converted on every core (--jobs), \
with output identical to a single-threaded run, when the input can be cut \
between characters: UTF-8, UTF-16, UTF-32, the single-byte pages, \
Shift_JIS, EUC-JP, EUC-KR, Big5, GBK and GB18030 (not ISO-2022-JP, UTF-7, \
CESU-8 or MUTF-8).

Encodings (case, '-', '_' do not matter; codec -l or codec convert -l \
lists every name, one a line, as iconv -l): UTF-8, UTF-16/32 (LE, BE, or \
with a BOM), UCS-2, UTF-7, CESU-8, MUTF-8 (Java's modified UTF-8), WTF-8; \
ISO-8859-1 to -16, ASCII, the Windows code pages (CP1250-CP1258, CP874), \
KOI8-R/U, Mac, DOS (CP437, CP850, CP866...) and EBCDIC (IBM037, IBM500, \
IBM1047, IBM1140) pages; Shift_JIS, EUC-JP, ISO-2022-JP, GBK, GB18030, \
Big5 and EUC-KR (Firefox's encoding_rs). A name iconv knows answers as \
glibc's iconv (ISO-8859-1 is Latin-1, CP1252 rejects 0x81); a label only \
browsers know (x-cp1252, windows-1252...) answers as WHATWG.

Byte order marks: reading UTF-16 or UTF-32, a BOM picks the byte order \
and is consumed (little-endian without one, as glibc's iconv and Python \
read it, and as Windows writes it); reading UTF-8, UTF-16LE/BE or \
UTF-32LE/BE, a leading BOM is a signature, U+FEFF. --bom keep (the \
default) writes it as the output's BOM (as U+FEFF into GB18030 or UTF-7; \
dropped for a legacy page, where iconv would fail on it), strip drops \
it, add writes a BOM whether or not the input had one, for every Unicode \
output. Writing UTF-16 or UTF-32 (no byte order named), a BOM and \
little-endian are used, as glibc's iconv does.

Errors: by default (strict) the first invalid input or unrepresentable \
character ends the conversion with a message naming its byte offset in \
the input, line and column, exit status 1, and nothing is written to a \
named output (-o, --in-place); to stdout the conversion of everything \
before the error has been written, as iconv writes it. -c (or //IGNORE) \
drops invalid input and characters the output cannot hold and exits 0. \
--lossy replaces each invalid sequence with U+FFFD (as WHATWG and Rust's \
from_utf8_lossy count them) and each character the output cannot hold \
with '?'. --unmappable chooses for the characters alone: stop, replace \
('?'), skip, ncr (&#8364;, as ICU's uconv) or translit (an ASCII \
approximation from the deunicode crate: cafe, EUR, 1/2; approximate, as \
iconv's //TRANSLIT is).

CESU-8, MUTF-8 and WTF-8 are validated with the exact errors of the \
utf8-variants crate (a 4-byte form in CESU-8, a raw NUL in MUTF-8, an \
unpaired surrogate...). WTF-8 converts to and from UTF-16 directly, so a \
lone surrogate survives WTF-8 -> UTF-16 -> WTF-8.

Output: stdout, pipes, character devices, FIFOs and -o /dev/stdout are \
written as streams. A named regular file (-o, --in-place) is replaced \
atomically: written to a temporary file beside it, then renamed over it. \
It is written in place instead (inode, owner and hard links kept) when it \
has several hard links or its directory cannot hold a temporary file: \
the output is gathered in $TMPDIR and copied over the file only once the \
conversion succeeded (a crash during that copy can leave it \
half-written). --in-place refuses a file with several hard links.",
        after_help = "\
Examples:
  codec convert -f UTF-8 -t UTF-16LE notes.txt -o notes.utf16
  codec convert -f UTF-16 -t UTF-8 --bom strip win.txt > unix.txt
  codec convert -f latin1 -t utf8 --in-place old.txt
  codec convert -f utf8 -t latin1 --lossy mixed.txt
  codec convert -f MUTF-8 -t UTF-8 java-strings.bin
  codec convert -f UTF-16LE -t WTF-8 windows-name.bin   # lone surrogates kept
  codec convert -f CP1252 old.txt                        # to UTF-8
  codec convert -t ASCII//TRANSLIT notes.txt
  codec convert -c -t SHIFT_JIS notes.txt -o notes.sjis
  codec convert -f auto mystery.txt
  codec convert -t ISO-8859-15 --unmappable=ncr page.html
  codec -l

Exit codes: 0 converted, 1 invalid or unrepresentable input (strict), 2 an I/O or usage error."
    )]
    Convert(ConvertArgs),
    /// Say which encoding each file is in, and how sure.
    #[command(
        long_about = "\
Say which encoding each file (or stdin) is in, from its first 64 KiB (no \
more is read): a byte-order mark (certain); UTF-16 or UTF-32 from where \
the zero bytes fall, or UTF-16 of other scripts from its code units \
(likely); ISO-2022-JP from its escapes (likely); all ASCII (certain); \
valid UTF-8 (likely); otherwise a guess from letter statistics by \
chardetng, Firefox's detector, on at most 16 KiB from the line of the \
first non-ASCII byte (right for most prose of a few hundred bytes, \
unreliable for short or mixed text). The name printed is one codec \
convert -f takes. Inputs and walks are \
chosen as for codec validate.",
        after_help = "\
Examples:
  codec detect notes.txt              prints: notes.txt: UTF-8 (likely: valid UTF-8)
  codec detect --mime notes.txt       prints: notes.txt: text/plain; charset=utf-8
  codec detect -r --json docs
  codec convert -f auto -t UTF-8 old.txt

Exit codes: 0 done, 2 an I/O or usage error."
    )]
    Detect(DetectArgs),
    /// Count bytes, code points, lines and invalid sequences by kind.
    #[command(
        long_about = "\
Count bytes, code points (in the valid parts), lines ('\\n' bytes, as wc -l \
counts them) and invalid sequences by kind, for each input and in total. \
Inputs and walks are chosen as for codec validate.",
        after_help = "\
Examples:
  codec count notes.txt
  codec count -r docs
  codec count --json testdata/conformance/UTF-8-test.txt

Exit codes: 0 done (invalid input is counted, not an error), 2 an I/O or usage error."
    )]
    Count(CountArgs),
    /// Encode numbers as varints (LEB128/protobuf, or --format quic, hpack, sqlite, ...), or decode them.
    #[command(subcommand)]
    Varint(VarintCommand),
    /// Map signed numbers to unsigned ones with zigzag (protobuf sint64), and back.
    #[command(subcommand)]
    Zigzag(ZigzagCommand),
}

/// When to colour the output.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub(crate) enum ColorChoice {
    /// On a terminal, unless NO_COLOR is set (to anything but "") or TERM=dumb.
    Auto,
    /// Always, even into a pipe.
    Always,
    /// Never.
    Never,
}

/// Options every output-producing command shares.
#[derive(Debug, Args)]
pub(crate) struct OutputArgs {
    /// Colour the output: auto, always, never.
    #[arg(long, value_name = "WHEN", default_value = "auto")]
    pub(crate) color: ColorChoice,
    /// Never show a progress bar (shown only when stderr is a terminal, for
    /// inputs of 64 MiB or more and for walks that take longer than a second).
    #[arg(long)]
    pub(crate) no_progress: bool,
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
    /// In a walk, also read hidden entries (names starting with '.'; .git
    /// directories stay out unless --no-ignore or --all).
    #[arg(long)]
    pub(crate) hidden: bool,
    /// In a walk, also read what .gitignore, .ignore, .git/info/exclude and
    /// the global git excludes leave out, .git and cache directories.
    #[arg(long)]
    pub(crate) no_ignore: bool,
    /// In a walk, follow symbolic links.
    #[arg(short = 'L', long)]
    pub(crate) follow: bool,
    /// In a walk, read everything: --hidden, --no-ignore, --follow, and
    /// non-regular files (a FIFO is read, waiting for a writer).
    #[arg(short = 'a', long)]
    pub(crate) all: bool,
    /// Bytes per read (for tests of the chunk boundaries).
    #[arg(long, hide = true, default_value_t = codec_cli_chunk())]
    pub(crate) chunk_size: usize,
}

const fn codec_cli_chunk() -> usize {
    crate::scan::DEFAULT_CHUNK_SIZE
}

/// What to do with binary files.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub(crate) enum BinaryFiles {
    /// Check them; one line for an invalid one.
    Report,
    /// Check them like text: one line per invalid sequence.
    Text,
    /// Leave them out.
    Skip,
}

#[derive(Debug, Args)]
pub(crate) struct ValidateArgs {
    #[command(flatten)]
    pub(crate) input: InputArgs,
    #[command(flatten)]
    pub(crate) output: OutputArgs,
    /// Report only the first invalid sequence of each file (and stop reading it).
    #[arg(long)]
    pub(crate) first: bool,
    /// Print nothing; only the exit code tells.
    #[arg(short, long, conflicts_with_all = ["json", "files_with_errors", "summary", "context"])]
    pub(crate) quiet: bool,
    /// Print only the names of invalid files, one per line.
    #[arg(short = 'l', long, conflicts_with_all = ["json", "context"])]
    pub(crate) files_with_errors: bool,
    /// One JSON object per line: {"type":"invalid",...} per sequence,
    /// {"type":"binary",...} per invalid binary file, {"type":"file",...}
    /// per input, {"type":"io-error",...} per failure.
    #[arg(long)]
    pub(crate) json: bool,
    /// End with a summary line (on stderr; in the stream with --json).
    #[arg(short, long)]
    pub(crate) summary: bool,
    /// After each diagnostic, show its line with a caret under the bad bytes.
    #[arg(short = 'C', long, conflicts_with = "json")]
    pub(crate) context: bool,
    /// Binary files (a NUL byte in the first 32 KiB): report (one line if
    /// invalid), text (every error), skip.
    #[arg(long, value_name = "MODE", default_value = "report")]
    pub(crate) binary_files: BinaryFiles,
    /// Check binary files like text: the same as --binary-files=text.
    #[arg(long, conflicts_with = "binary_files")]
    pub(crate) text: bool,
    /// Threads for large files (default: the number of cores).
    #[arg(short = 'j', long, value_name = "N")]
    pub(crate) jobs: Option<usize>,
    /// Smallest file checked in parallel (for tests of the region cuts).
    #[arg(long, hide = true, default_value_t = crate::cmd::PARALLEL_MIN_BYTES)]
    pub(crate) parallel_min: u64,
}

#[derive(Debug, Args)]
pub(crate) struct RepairArgs {
    /// The file to repair; none or '-' reads stdin.
    #[arg(value_name = "PATH")]
    pub(crate) path: Option<PathBuf>,
    /// Write here instead of stdout ('-' is stdout).
    #[arg(short, long, value_name = "OUT", conflicts_with = "in_place")]
    pub(crate) output: Option<PathBuf>,
    /// Replace PATH atomically (temporary file in the same directory, then
    /// rename); a symbolic link is followed to its target.
    #[arg(short, long, requires = "path")]
    pub(crate) in_place: bool,
    /// Say nothing on stderr about what was replaced.
    #[arg(short, long)]
    pub(crate) quiet: bool,
    /// Never show a progress bar (shown only when stderr is a terminal, for
    /// inputs of 64 MiB or more).
    #[arg(long)]
    pub(crate) no_progress: bool,
    /// Bytes per read (for tests of the chunk boundaries).
    #[arg(long, hide = true, default_value_t = codec_cli_chunk())]
    pub(crate) chunk_size: usize,
}

#[derive(Debug, Args)]
pub(crate) struct ConvertArgs {
    /// The file to convert; none or '-' reads stdin.
    #[arg(value_name = "PATH")]
    pub(crate) path: Option<PathBuf>,
    /// The input's encoding (default UTF-8); `auto` detects it.
    #[arg(short, long, value_name = "FROM")]
    pub(crate) from: Option<String>,
    /// The output's encoding (default UTF-8); a `//TRANSLIT` or `//IGNORE`
    /// suffix acts as in iconv.
    #[arg(short, long, value_name = "TO")]
    pub(crate) to: Option<String>,
    /// Write here instead of stdout ('-' is stdout); nothing is left there
    /// if the conversion fails (see "Output" below).
    #[arg(short, long, value_name = "OUT", conflicts_with = "in_place")]
    pub(crate) output: Option<PathBuf>,
    /// Replace PATH atomically; a symbolic link is followed to its target.
    #[arg(short, long, requires = "path")]
    pub(crate) in_place: bool,
    /// Byte order mark: keep (as in the input), strip, add.
    #[arg(long, value_name = "MODE", default_value = "keep")]
    pub(crate) bom: BomMode,
    /// Replace invalid input with U+FFFD and unrepresentable characters with
    /// '?' instead of stopping at the first.
    #[arg(long)]
    pub(crate) lossy: bool,
    /// Drop invalid input and characters the output cannot hold (iconv -c).
    #[arg(short = 'c')]
    pub(crate) drop: bool,
    /// What to do with a character the output cannot hold: stop, replace
    /// ('?'), skip, ncr (&#8364;), translit (an ASCII approximation).
    #[arg(long, value_name = "MODE")]
    pub(crate) unmappable: Option<Unmappable>,
    /// List the encodings, one name a line (as iconv -l).
    #[arg(short = 'l', long, exclusive = true)]
    pub(crate) list: bool,
    /// Never show a progress bar.
    #[arg(long)]
    pub(crate) no_progress: bool,
    /// Threads for a large file (default: the number of cores); the output
    /// is the same for every count.
    #[arg(short = 'j', long, value_name = "N")]
    pub(crate) jobs: Option<usize>,
    /// Smallest file converted in parallel (for tests of the region cuts).
    #[arg(long, hide = true, default_value_t = crate::cmd::PARALLEL_MIN_BYTES)]
    pub(crate) parallel_min: u64,
    /// Bytes per read (for tests of the chunk boundaries).
    #[arg(long, hide = true, default_value_t = codec_cli_chunk())]
    pub(crate) chunk_size: usize,
    /// Read the input instead of mapping it into memory.
    ///
    /// On Linux a regular file of 1 MiB or more is converted from a memory
    /// map when a read lease on it can be had; a program that then opens it
    /// for writing or truncates it makes the conversion stop with an error
    /// (and waits until it has). Without a lease the file is read.
    #[arg(long)]
    pub(crate) no_map: bool,
    /// Smallest file mapped (for tests).
    #[arg(long, hide = true, default_value_t = crate::cmd::MAP_MIN_BYTES)]
    pub(crate) map_min: u64,
    /// Say on stderr whether the input was mapped (for tests).
    #[arg(long, hide = true)]
    pub(crate) debug_map: bool,
}

/// `--unmappable`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub(crate) enum Unmappable {
    /// Stop with an error naming the character and its input offset.
    Stop,
    /// Write '?'.
    Replace,
    /// Drop it.
    Skip,
    /// Write a decimal character reference, &#8364;.
    Ncr,
    /// Write an ASCII approximation (deunicode; approximate, as iconv's //TRANSLIT).
    Translit,
}

/// `--bom`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub(crate) enum BomMode {
    /// Write a BOM if the input had one.
    Keep,
    /// Never write a BOM.
    Strip,
    /// Always write a BOM.
    Add,
}

#[derive(Debug, Args)]
pub(crate) struct DetectArgs {
    #[command(flatten)]
    pub(crate) input: InputArgs,
    /// Print the MIME type and charset as `file -i` does.
    #[arg(long, conflicts_with = "json")]
    pub(crate) mime: bool,
    /// One JSON object per line: path, encoding, confidence, reason, mime.
    #[arg(long)]
    pub(crate) json: bool,
}

#[derive(Debug, Args)]
pub(crate) struct CountArgs {
    #[command(flatten)]
    pub(crate) input: InputArgs,
    #[command(flatten)]
    pub(crate) output: OutputArgs,
    /// One JSON object per input, then one for the total.
    #[arg(long)]
    pub(crate) json: bool,
}

/// The integer type of a varint or zigzag value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub(crate) enum IntType {
    /// Unsigned 16-bit (varints of at most 3 bytes).
    U16,
    /// Unsigned 32-bit (protobuf uint32 read strictly; at most 5 bytes).
    U32,
    /// Unsigned 64-bit (protobuf uint64; at most 10 bytes).
    U64,
    /// Unsigned 128-bit (at most 19 bytes).
    U128,
    /// Signed 16-bit, zigzag-mapped (or signed LEB128).
    I16,
    /// Signed 32-bit, zigzag-mapped (protobuf sint32; or signed LEB128).
    I32,
    /// Signed 64-bit, zigzag-mapped (protobuf sint64; or signed LEB128).
    I64,
    /// Signed 128-bit, zigzag-mapped (or signed LEB128).
    I128,
}

/// The varint formats of `varint encode` and `varint decode`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub(crate) enum VarintFormat {
    /// LEB128 / protobuf varints (also zigzag, and signed LEB128).
    Leb128,
    /// QUIC variable-length integers (RFC 9000 §16): 1, 2, 4 or 8 bytes, at most 2^62-1.
    Quic,
    /// The HPACK/QPACK prefixed integer (RFC 7541 §5.1); see --prefix-bits.
    Hpack,
    /// SQLite's varint: big-endian 7-bit groups, the 9th byte whole.
    Sqlite,
    /// git's offset varint (pack OFS_DELTA), also Bitcoin Core's VARINT: bijective base-128.
    Git,
    /// Bitcoin's CompactSize: FD/FE/FF then a little-endian u16/u32/u64.
    Compactsize,
    /// A CBOR integer head (RFC 8949 §3): major type 0 or 1 and its argument.
    Cbor,
    /// MessagePack integers: fixints, uint 8..64, int 8..64.
    Msgpack,
    /// bincode 2's varint: below 251 one byte, 251/252/253 then a little-endian u16/u32/u64.
    Bincode,
    /// MIDI's variable-length quantity: at most 4 bytes, 0x0fffffff.
    Vlq,
    /// A prefix varint: the first byte's leading ones count the bytes that follow; big-endian.
    Prefix,
    /// Stream VByte (u32): control bytes (four 2-bit lengths each), then the values' bytes; a
    /// stream of values, see --count, --delta, --zero124.
    Streamvbyte,
    /// Group Varint (u32): groups of a tag byte and four values of 1-4 bytes; a stream of
    /// values, see --count.
    Groupvarint,
}

/// The numeric options of `varint encode` and `varint decode`.
#[derive(Debug, Args)]
pub(crate) struct VarintTypeArgs {
    /// The format of the bytes (LEB128, as protobuf, DWARF and WebAssembly use, by default).
    #[arg(short = 'f', long, value_name = "FORMAT", default_value = "leb128")]
    pub(crate) format: VarintFormat,
    /// With --format hpack: the bits of the first byte that hold the integer, 1 to 8 (default 8).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u8).range(1..=8))]
    pub(crate) prefix_bits: Option<u8>,
    /// The integer type: u16, u32, u64, u128, or i16..i128 for zigzag-mapped
    /// signed values (protobuf sint32/sint64; with --sleb128, signed LEB128).
    /// Default u64; u32 for streamvbyte and groupvarint, which hold u32 only.
    #[arg(short = 't', long = "type", value_name = "TYPE")]
    pub(crate) int_type: Option<IntType>,
    /// Signed values: the signed type of the same width (--type u64
    /// --signed is --type i64, protobuf sint64). Through zigzag, except
    /// for msgpack and cbor, which carry a sign of their own.
    #[arg(short, long)]
    pub(crate) signed: bool,
    /// Signed LEB128 (DWARF, WebAssembly) instead of zigzag: the signed type
    /// of the same width, two's complement in 7-bit groups, sign-extended
    /// from the last byte (-1 is 7f, 64 is c0 00).
    #[arg(long, conflicts_with = "signed")]
    pub(crate) sleb128: bool,
    /// With --format streamvbyte or groupvarint: the number of values in the stream (the
    /// formats do not store it); decode --all needs it.
    #[arg(long, value_name = "N")]
    pub(crate) count: Option<usize>,
    /// With --format streamvbyte: delta coding, each value stored minus the one before it.
    #[arg(long)]
    pub(crate) delta: bool,
    /// With --format streamvbyte: the 0124 layout (a zero takes no data byte).
    #[arg(long)]
    pub(crate) zero124: bool,
}

#[derive(Debug, Subcommand)]
pub(crate) enum VarintCommand {
    /// Print the varint bytes of each number, in hex (or raw with --binary).
    #[command(after_help = "\
Examples:
  codec varint encode 1 300 0xffffffff    prints 01 / ac 02 / ff ff ff ff 0f
  codec varint encode --signed -- -1 -150 prints 01 / ab 02
  codec varint encode --sleb128 -t i32 -- -1 -129  prints 7f / ff 7e (signed LEB128)
  codec varint encode -t u128 0x1_0000_0000_0000_0000
  codec varint encode --binary 300 1 > f  writes the bytes ac 02 01
  codec varint encode -f quic 15293       prints 7b bd (RFC 9000)
  codec varint encode -f hpack --prefix-bits 5 1337  prints 1f 9a 0a (RFC 7541)
  codec varint encode -f cbor -t i64 -- -100  prints 38 63 (RFC 8949)
  codec varint encode -f streamvbyte 1 300 70000  prints 24 01 2c 01 70 11 01 (one stream)
  codec varint encode -f groupvarint -t i32 -- -1 5  prints 00 01 0a

Stream VByte and Group Varint (u32 only; -t i32 is zigzag) encode all the
numbers as one stream, printed as one hex line.
Numbers are decimal, or hex with 0x after the sign; one '-' or '+' at most
(only signed types take '-'); '_' may separate digits.
The options --type and --signed mean the same for every format: the number
must fit the type; a signed type goes through zigzag (-1 is 01), except for msgpack and cbor,
which carry a sign of their own. A number outside the format's range (above
2^62-1 for quic, 0x0fffffff for vlq) is rejected. SQLite stores a signed
integer as its two's complement: encode that as u64.
Exit codes: 0 all encoded, 1 a number was rejected (the others are still encoded),
2 a usage error (--sleb128 with another --format).")]
    Encode {
        #[command(flatten)]
        ty: VarintTypeArgs,
        /// Write the raw bytes to stdout instead of hex lines.
        #[arg(short, long)]
        binary: bool,
        /// The numbers.
        #[arg(value_name = "N", required = true, allow_negative_numbers = true)]
        numbers: Vec<String>,
    },
    /// Print the value of each varint, given in hex or (--binary) as raw bytes.
    #[command(after_help = "\
Examples:
  codec varint decode ac02 'AC 02' 0xac02    prints 300 three times
  codec varint decode --signed 01            prints -1
  codec varint decode --sleb128 -t i32 7f 'ff 7e'  prints -1 / -129 (signed LEB128)
  codec varint decode --strict '80 00'       rejected: non-canonical
  codec varint decode --all 'ac 02 01 7f'    prints 300 / 1 / 127
  printf '\\xac\\x02' | codec varint decode --binary
  codec varint decode --binary --all -t u32 packed.bin
  codec varint decode -f quic --strict '40 25'  rejected: non-canonical (37 is 25)
  codec varint decode -f compactsize fdfd00      prints 253
  codec varint decode -f msgpack -t i64 d0df     prints -33
  codec varint decode -f git --all '80 00 7f'    prints 128 / 127

Each hex argument (or, with --binary, each file or stdin) holds exactly one
varint, or with --all a sequence of them; under --all every value before an
error is printed, then the error with its byte offset.
Errors name the fault: a bad hex digit and its position, an odd number of
digits, a truncated varint, an overflow (and which byte), a reserved first
byte (cbor 1c-1e, msgpack c1), a head that is not an integer (cbor, msgpack),
a non-canonical encoding (--strict: the shortest form each specification
prefers), a value outside --type, or trailing bytes. Under --all the failing
varint is counted from 1: \"the 3rd varint, at byte offset 2: ...\".
Formats: leb128 (default), quic, hpack (--prefix-bits), sqlite, git (also
Bitcoin Core's VARINT), compactsize, cbor, msgpack, bincode, vlq (MIDI), prefix,
streamvbyte (--delta, --zero124) and groupvarint. The last two hold streams of
u32 (-t i32: zigzag) whose count is not stored: an input is one value, or with
--all --count N a stream of N values that must fill it (--strict: each value
in its fewest bytes, unused codes 0).
  codec varint decode -f streamvbyte --all --count 3 '24 01 2c 01 70 11 01'
Exit codes: 0 all decoded, 1 an input was rejected (the others are still decoded),
2 a file could not be read, or a usage error.")]
    Decode {
        #[command(flatten)]
        ty: VarintTypeArgs,
        /// Reject non-canonical encodings (longer than the value needs, like 80 00).
        #[arg(long)]
        strict: bool,
        /// Each input is a sequence of varints; print every value.
        #[arg(long)]
        all: bool,
        /// Read raw bytes from the named files, or stdin, instead of hex arguments.
        #[arg(short, long)]
        binary: bool,
        /// Hex bytes ('ac02', 'AC 02' or '0xac02'); with --binary, files ('-' or none: stdin).
        #[arg(value_name = "HEX|FILE", required_unless_present = "binary")]
        inputs: Vec<String>,
    },
}

/// The signed types of `zigzag`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub(crate) enum SignedType {
    /// 8-bit.
    I8,
    /// 16-bit.
    I16,
    /// 32-bit (protobuf sint32).
    I32,
    /// 64-bit (protobuf sint64).
    I64,
    /// 128-bit.
    I128,
}

#[derive(Debug, Subcommand)]
pub(crate) enum ZigzagCommand {
    /// Map each signed number to its zigzag code: 0→0, -1→1, 1→2, -2→3...
    #[command(after_help = "\
Examples:
  codec zigzag encode 0 -1 1 -2    prints 0 / 1 / 2 / 3
  codec zigzag encode -- -150      prints 299
  codec zigzag encode -t i8 -- -128  prints 255

Numbers are decimal, or hex with 0x after the sign; one '-' or '+' at most.
Exit codes: 0 all mapped, 1 a number was rejected.")]
    Encode {
        /// The signed type: i8, i16, i32, i64, i128.
        #[arg(short = 't', long = "type", value_name = "TYPE", default_value = "i64")]
        int_type: SignedType,
        /// Signed numbers.
        #[arg(value_name = "N", required = true, allow_negative_numbers = true)]
        numbers: Vec<String>,
    },
    /// Map each zigzag code back to its signed number.
    #[command(after_help = "\
Examples:
  codec zigzag decode 0 1 2 3      prints 0 / -1 / 1 / -2
  codec zigzag decode -t i8 255    prints -128

Exit codes: 0 all mapped, 1 a number was rejected.")]
    Decode {
        /// The signed type the codes map back to: i8, i16, i32, i64, i128.
        #[arg(short = 't', long = "type", value_name = "TYPE", default_value = "i64")]
        int_type: SignedType,
        /// Unsigned codes.
        #[arg(value_name = "N", required = true)]
        numbers: Vec<String>,
    },
}
