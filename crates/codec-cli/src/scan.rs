//! The pieces of a reader, in the shape the subcommands use: valid runs and
//! invalid sequences handed to a callback that can stop the scan.
//!
//! The engine is the library's: codec-core's [`Utf8Reader`] (one reused,
//! 64-byte-aligned buffer, the at most three bytes of a character split
//! between reads carried over, absolute offsets) with utf8-simd's validator.
//! The pieces are those of `String::from_utf8_lossy`: one [`Piece::Invalid`]
//! per U+FFFD it would write, at the offset `core::str::from_utf8` reports,
//! whatever the chunk size. This module only adapts them to a callback.

use codec_core::Utf8ErrorKind;
use codec_core::io::Utf8Reader;
use codec_facade::utf8_simd::Simd;
use std::io::{self, Read};
use std::ops::ControlFlow;

pub use codec_core::io::DEFAULT_CHUNK_SIZE;

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

/// Scans readers with one buffer, reused from input to input.
#[derive(Debug)]
pub struct Scanner {
    chunk_size: usize,
    buf: Vec<u8>,
}

impl Scanner {
    /// A scanner reading `chunk_size` bytes at a time (at least one).
    pub fn new(chunk_size: usize) -> Self {
        Scanner {
            chunk_size: chunk_size.max(1),
            buf: Vec::new(),
        }
    }

    /// A reader over `reader` that uses (and must give back, with
    /// [`Scanner::recycle`]) this scanner's buffer.
    pub fn reader<R: Read>(&mut self, reader: R) -> Utf8Reader<R, Simd> {
        let buf = std::mem::take(&mut self.buf);
        Utf8Reader::with_buffer(reader, Simd, self.chunk_size, buf)
    }

    /// Takes the buffer back from a reader made by [`Scanner::reader`].
    pub fn recycle<R: Read>(&mut self, reader: Utf8Reader<R, Simd>) {
        self.buf = reader.into_buffer();
    }

    /// Reads `reader` to its end, or until `on_piece` breaks, handing every
    /// piece to `on_piece` in input order.
    ///
    /// Read errors other than `Interrupted` end the scan and are returned;
    /// the pieces already handed out stay valid.
    pub fn scan<R, F>(&mut self, reader: R, mut on_piece: F) -> io::Result<Scanned>
    where
        R: Read,
        F: FnMut(Piece<'_>) -> ControlFlow<()>,
    {
        let mut r = self.reader(reader);
        let result = scan_reader(&mut r, &mut on_piece);
        self.recycle(r);
        result
    }
}

fn scan_reader<R: Read>(
    r: &mut Utf8Reader<R, Simd>,
    on_piece: &mut impl FnMut(Piece<'_>) -> ControlFlow<()>,
) -> io::Result<Scanned> {
    let stopped = |bytes| Scanned {
        bytes,
        stopped: true,
    };
    while let Some(chunk) = r.next_chunk()? {
        let valid = chunk.valid().as_bytes();
        if !valid.is_empty() && on_piece(Piece::Valid(valid)).is_break() {
            return Ok(stopped(chunk.invalid_offset()));
        }
        if let Some(kind) = chunk.kind() {
            let bad = chunk.invalid();
            // At most 3 bytes: a maximal subpart, or a tail that three more
            // bytes at most could complete.
            let len = bad.len().min(3);
            let mut bytes = [0; 3];
            bytes[..len].copy_from_slice(&bad[..len]);
            let invalid = Invalid {
                offset: chunk.invalid_offset(),
                len: len as u8,
                bytes,
                kind,
            };
            if on_piece(Piece::Invalid(invalid)).is_break() {
                return Ok(stopped(chunk.invalid_offset() + bad.len() as u64));
            }
        }
    }
    Ok(Scanned {
        bytes: r.position(),
        stopped: false,
    })
}

/// A stable machine-readable name for a kind, used by `--json`.
pub fn kind_id(kind: Utf8ErrorKind) -> &'static str {
    kind.id()
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
        assert_eq!(
            scanned,
            Scanned {
                bytes: 3,
                stopped: true
            }
        );
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
