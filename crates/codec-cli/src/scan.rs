//! The streaming engine under `validate`, `repair` and `count`: a reader cut
//! into valid runs and invalid sequences, in bounded memory.
//!
//! The input is read in fixed-size chunks into one reused buffer and each
//! chunk is checked by a whole-buffer [`Utf8Validator`] (the SIMD one by
//! default). Three cases end a check:
//!
//! - `Ok`: the rest of the chunk is a valid run.
//! - `Err` with `error_len() == Some(n)`: the `n` bytes at `valid_up_to` are a
//!   maximal invalid subpart. They are reported at their absolute offset and
//!   the check resumes after them. That is exactly how `String::from_utf8_lossy`
//!   walks its input, so there is one report per U+FFFD it would write.
//! - `Err` with `error_len() == None`: the chunk ends inside a character. Those
//!   (at most three) bytes are carried to the front of the buffer and checked
//!   again with the next chunk; at the end of the input they are reported as
//!   [`Utf8ErrorKind::Incomplete`].
//!
//! A maximal subpart never straddles a chunk boundary undetected: an error
//! with `Some(n)` is proven by the bytes the chunk holds, and anything that
//! more bytes could still complete comes back as `None`, which is carried. So
//! the pieces are the same for every chunk size, which the tests check down to
//! one-byte chunks.
//!
//! Memory: one buffer of `chunk_size + 3` bytes, whatever the input size.

use codec_core::{Utf8ErrorKind, Utf8Validator};
use codec_facade::utf8_simd::Simd;
use std::io::{self, Read};
use std::ops::ControlFlow;

/// The default read size. 256 KiB stays in L2 between the read and the
/// validation pass; see docs/results/codec-cli.md for the measurement.
pub const DEFAULT_CHUNK_SIZE: usize = 256 * 1024;

/// One invalid sequence: where it is, its bytes, and why it is invalid.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Invalid {
    offset: u64,
    len: u8,
    bytes: [u8; 3],
    kind: Utf8ErrorKind,
}

impl Invalid {
    /// Absolute byte offset of the first offending byte.
    pub fn offset(&self) -> u64 {
        self.offset
    }

    /// The offending bytes: the maximal invalid subpart (1 to 3 bytes), or
    /// for [`Utf8ErrorKind::Incomplete`] the unfinished tail of the input.
    pub fn bytes(&self) -> &[u8] {
        &self.bytes[..usize::from(self.len)]
    }

    /// Why the bytes are invalid.
    pub fn kind(&self) -> Utf8ErrorKind {
        self.kind
    }
}

/// A piece of the input, in order: the pieces of one input concatenate to it.
#[derive(Debug, PartialEq, Eq)]
pub enum Piece<'a> {
    /// Well-formed UTF-8 (never empty).
    Valid(&'a [u8]),
    /// One invalid sequence, which `from_utf8_lossy` replaces with one U+FFFD.
    Invalid(Invalid),
}

/// How a scan ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Scanned {
    /// Bytes consumed from the reader, including any carried tail.
    pub bytes: u64,
    /// Whether the callback stopped the scan before the end of the input.
    pub stopped: bool,
}

/// Cuts readers into [`Piece`]s with a reused buffer.
#[derive(Debug)]
pub struct Scanner<V = Simd> {
    validator: V,
    chunk_size: usize,
    buf: Vec<u8>,
}

impl Scanner<Simd> {
    /// A scanner with the SIMD validator reading `chunk_size` bytes at a time
    /// (at least one).
    pub fn new(chunk_size: usize) -> Self {
        Scanner::with_validator(Simd, chunk_size)
    }
}

impl<V: Utf8Validator> Scanner<V> {
    /// A scanner with any whole-buffer validator.
    pub fn with_validator(validator: V, chunk_size: usize) -> Self {
        let chunk_size = chunk_size.max(1);
        Scanner {
            validator,
            chunk_size,
            // Three more bytes for the carried tail of an unfinished character.
            buf: vec![0; chunk_size + 3],
        }
    }

    /// Reads `reader` to its end, or until `on_piece` breaks, handing every
    /// piece to `on_piece` in input order.
    ///
    /// Read errors other than `Interrupted` end the scan and are returned;
    /// the pieces already handed out stay valid.
    pub fn scan<R, F>(&mut self, mut reader: R, mut on_piece: F) -> io::Result<Scanned>
    where
        R: Read,
        F: FnMut(Piece<'_>) -> ControlFlow<()>,
    {
        // Absolute offset of `buf[0]`.
        let mut base: u64 = 0;
        // Bytes at the front of `buf` carried over from the previous chunk.
        let mut carry = 0usize;
        loop {
            let n = match reader.read(&mut self.buf[carry..carry + self.chunk_size]) {
                Ok(n) => n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            };
            let end = carry + n;
            let at_eof = n == 0;
            let data = &self.buf[..end];
            let mut pos = 0;
            let mut next_carry = 0;
            while pos < end {
                match self.validator.validate(&data[pos..]) {
                    Ok(()) => {
                        if on_piece(Piece::Valid(&data[pos..])).is_break() {
                            return Ok(stopped(base + end as u64));
                        }
                        pos = end;
                    }
                    Err(e) => {
                        let bad = pos + e.valid_up_to();
                        if bad > pos && on_piece(Piece::Valid(&data[pos..bad])).is_break() {
                            return Ok(stopped(base + bad as u64));
                        }
                        let len = match e.error_len() {
                            Some(len) => len,
                            // An unfinished character is at most 3 bytes; the
                            // bound keeps the carry inside the buffer's
                            // spare 3 bytes even if a validator misbehaved.
                            None if !at_eof && end - bad <= 3 => {
                                next_carry = end - bad;
                                break;
                            }
                            None => end - bad,
                        };
                        let mut bytes = [0; 3];
                        // `len` is at most 3: a maximal subpart, or a tail
                        // that three more bytes at most could complete.
                        let len = len.min(3);
                        bytes[..len].copy_from_slice(&data[bad..bad + len]);
                        let invalid = Invalid {
                            offset: base + bad as u64,
                            len: len as u8,
                            bytes,
                            kind: e.kind(),
                        };
                        pos = bad + len;
                        if on_piece(Piece::Invalid(invalid)).is_break() {
                            return Ok(stopped(base + pos as u64));
                        }
                    }
                }
            }
            if at_eof {
                return Ok(Scanned {
                    bytes: base + end as u64,
                    stopped: false,
                });
            }
            self.buf.copy_within(end - next_carry..end, 0);
            base += (end - next_carry) as u64;
            carry = next_carry;
        }
    }
}

fn stopped(bytes: u64) -> Scanned {
    Scanned {
        bytes,
        stopped: true,
    }
}

/// A stable machine-readable name for a kind, used by `--json`.
pub fn kind_id(kind: Utf8ErrorKind) -> &'static str {
    match kind {
        Utf8ErrorKind::Incomplete => "incomplete",
        Utf8ErrorKind::TooShort => "too-short",
        Utf8ErrorKind::UnexpectedContinuation => "unexpected-continuation",
        Utf8ErrorKind::Overlong => "overlong",
        Utf8ErrorKind::Surrogate => "surrogate",
        Utf8ErrorKind::TooLarge => "too-large",
        Utf8ErrorKind::InvalidByte => "invalid-byte",
        // The enum is non-exhaustive; a kind added later is still reported.
        _ => "other",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A piece, owned: (valid, bytes, offset and kind if invalid).
    type Owned = (bool, Vec<u8>, Option<(u64, Utf8ErrorKind)>);

    /// Every piece of `input` scanned with `chunk` bytes per read, owned.
    fn pieces(input: &[u8], chunk: usize) -> Vec<Owned> {
        let mut out: Vec<Owned> = Vec::new();
        Scanner::new(chunk)
            .scan(input, |p| {
                match p {
                    // Adjacent valid runs (split by chunking) are merged so
                    // that different chunk sizes compare equal.
                    Piece::Valid(run) => match out.last_mut() {
                        Some((true, prev, _)) => prev.extend_from_slice(run),
                        _ => out.push((true, run.to_vec(), None)),
                    },
                    Piece::Invalid(i) => {
                        out.push((false, i.bytes().to_vec(), Some((i.offset(), i.kind()))))
                    }
                }
                ControlFlow::Continue(())
            })
            .unwrap();
        out
    }

    /// The pieces std's lossy walk would make, from `Utf8Chunks`.
    fn std_pieces(input: &[u8]) -> Vec<Owned> {
        let mut out = Vec::new();
        let mut offset = 0u64;
        for chunk in input.utf8_chunks() {
            if !chunk.valid().is_empty() {
                out.push((true, chunk.valid().as_bytes().to_vec(), None));
                offset += chunk.valid().len() as u64;
            }
            let bad = chunk.invalid();
            if !bad.is_empty() {
                let at = offset as usize;
                let kind = codec_core::Utf8Error::at(input, at).kind();
                out.push((false, bad.to_vec(), Some((offset, kind))));
                offset += bad.len() as u64;
            }
        }
        out
    }

    #[test]
    fn pieces_match_std_for_every_chunk_size() {
        let inputs: [&[u8]; 6] = [
            b"",
            b"plain ascii",
            "caf\u{e9} \u{1F600} \u{5415}".as_bytes(),
            b"a\xE2\x82\xACb\xF0\x9F\x98\x80\xED\xA0\x80\xE2\x82",
            b"\xF0\x9F\x98\x41\xC0\x80\xFF\xF4\x90\x80\x80\xE0\x9F\xBF",
            b"\xF0\x9F\x98",
        ];
        for input in inputs {
            let expected = std_pieces(input);
            for chunk in 1..=input.len() + 1 {
                assert_eq!(pieces(input, chunk), expected, "{input:02X?} chunk {chunk}");
            }
        }
    }

    #[test]
    fn kuhn_stress_test_at_every_small_chunk_size() {
        let input = codec_testdata::KUHN_STRESS_TEST;
        let expected = std_pieces(input);
        for chunk in [1, 2, 3, 4, 5, 7, 16, 63, 64, 65, 4096, 1 << 20] {
            assert_eq!(pieces(input, chunk), expected, "chunk {chunk}");
        }
    }

    #[test]
    fn stops_when_asked() {
        let mut seen = 0;
        let scanned = Scanner::new(2)
            .scan(&b"ab\xFFcd\xFF"[..], |p| {
                seen += 1;
                match p {
                    Piece::Invalid(_) => ControlFlow::Break(()),
                    Piece::Valid(_) => ControlFlow::Continue(()),
                }
            })
            .unwrap();
        assert_eq!(seen, 2);
        assert_eq!(scanned, stopped(3));
    }

    #[test]
    fn a_misbehaving_validator_cannot_overrun_the_buffer() {
        /// Claims every input ends inside a character, however long.
        struct AlwaysIncomplete;
        impl Utf8Validator for AlwaysIncomplete {
            fn validate(&self, _: &[u8]) -> Result<(), codec_core::Utf8Error> {
                Err(codec_core::Utf8Error::new(0, None, Utf8ErrorKind::Incomplete).unwrap())
            }
        }
        let input = [b'a'; 40];
        let mut seen = 0;
        let scanned = Scanner::with_validator(AlwaysIncomplete, 4)
            .scan(&input[..], |p| {
                if let Piece::Invalid(bad) = p {
                    seen += bad.bytes().len();
                }
                ControlFlow::Continue(())
            })
            .unwrap();
        assert_eq!((scanned.bytes, seen), (40, 40));
    }

    quickcheck::quickcheck! {
        fn random_bytes_any_chunk(input: Vec<u8>, chunk: u8) -> bool {
            pieces(&input, usize::from(chunk % 9) + 1) == std_pieces(&input)
        }

        fn mutated_text_any_chunk(text: String, edits: Vec<(usize, u8)>, chunk: u8) -> bool {
            let input = codec_testdata::mutate(&text, &edits);
            pieces(&input, usize::from(chunk % 9) + 1) == std_pieces(&input)
        }
    }
}
