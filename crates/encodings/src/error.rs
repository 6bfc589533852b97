//! The errors of [`crate::Decoder`] and [`crate::Encoder`]: where in the
//! original input, with line and column.

use crate::Encoding;
use core::fmt;

/// What is wrong with the input bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum DecodeErrorKind {
    /// A byte or sequence that is not valid in the encoding (an undefined
    /// byte of a single-byte page, a malformed sequence, an unpaired
    /// surrogate, a code unit above U+10FFFF).
    Invalid,
    /// The input ends inside a character or code unit.
    Incomplete,
}

/// An invalid or unfinished sequence in the input of a strict decoder.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DecodeError {
    pub(crate) encoding: Encoding,
    pub(crate) kind: DecodeErrorKind,
    pub(crate) offset: u64,
    pub(crate) bytes: Vec<u8>,
    pub(crate) line: u64,
    pub(crate) column: u64,
}

impl DecodeError {
    /// The byte offset of the sequence in the whole input (the first byte
    /// given to the decoder is 0).
    #[must_use]
    pub fn offset(&self) -> u64 {
        self.offset
    }

    /// The offending bytes (at most 8; fewer where part of the sequence was
    /// in an earlier chunk that the decoder no longer holds).
    #[must_use]
    pub fn bytes(&self) -> &[u8] {
        &self.bytes
    }

    /// The 1-based line of the sequence: 1 plus the newlines decoded before
    /// it (0 from a decoder made
    /// [`without_positions`](crate::Decoder::without_positions)).
    #[must_use]
    pub fn line(&self) -> u64 {
        self.line
    }

    /// The 1-based column: 1 plus the characters decoded since the last
    /// newline (0 from a decoder made
    /// [`without_positions`](crate::Decoder::without_positions)).
    #[must_use]
    pub fn column(&self) -> u64 {
        self.column
    }

    /// What is wrong.
    #[must_use]
    pub fn kind(&self) -> DecodeErrorKind {
        self.kind
    }

    /// The input's encoding.
    #[must_use]
    pub fn encoding(&self) -> Encoding {
        self.encoding
    }
}

impl fmt::Display for DecodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let what = match self.kind {
            DecodeErrorKind::Invalid => "invalid",
            DecodeErrorKind::Incomplete => "incomplete",
        };
        write!(
            f,
            "{what} {} at byte {} (line {}, column {})",
            self.encoding, self.offset, self.line, self.column
        )?;
        if !self.bytes.is_empty() {
            f.write_str(":")?;
            for b in &self.bytes {
                write!(f, " {b:02X}")?;
            }
        }
        Ok(())
    }
}

impl std::error::Error for DecodeError {}

/// A character the output encoding cannot hold, met by a strict encoder.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EncodeError {
    pub(crate) encoding: Encoding,
    pub(crate) ch: char,
    pub(crate) offset: u64,
    pub(crate) line: u64,
    pub(crate) column: u64,
}

impl EncodeError {
    /// The character.
    #[must_use]
    pub fn char(&self) -> char {
        self.ch
    }

    /// Its byte offset in the whole UTF-8 input.
    #[must_use]
    pub fn offset(&self) -> u64 {
        self.offset
    }

    /// Its 1-based line in the input (0 from an encoder made
    /// [`without_positions`](crate::Encoder::without_positions)).
    #[must_use]
    pub fn line(&self) -> u64 {
        self.line
    }

    /// Its 1-based column (in characters) in the input (0 from an encoder
    /// made [`without_positions`](crate::Encoder::without_positions)).
    #[must_use]
    pub fn column(&self) -> u64 {
        self.column
    }

    /// The output's encoding.
    #[must_use]
    pub fn encoding(&self) -> Encoding {
        self.encoding
    }
}

impl fmt::Display for EncodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "U+{:04X} ({:?}) cannot be written in {}, at byte {} (line {}, column {})",
            u32::from(self.ch),
            self.ch,
            self.encoding,
            self.offset,
            self.line,
            self.column
        )
    }
}

impl std::error::Error for EncodeError {}
