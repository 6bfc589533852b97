//! The streaming lossy conversion behind `codec repair`.

use crate::scan::{Piece, Scanner};
use codec_core::Utf8Validator;
use std::io::{self, Read, Write};
use std::ops::ControlFlow;

/// U+FFFD REPLACEMENT CHARACTER in UTF-8.
const REPLACEMENT: &[u8] = "\u{FFFD}".as_bytes();

/// What a repair did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Repaired {
    /// Bytes read.
    pub bytes_in: u64,
    /// Bytes written.
    pub bytes_out: u64,
    /// Invalid sequences replaced with U+FFFD.
    pub replaced: u64,
}

/// Copies `reader` to `writer`, replacing each maximal invalid subpart (and
/// an unfinished character at the end) with one U+FFFD: the output is byte
/// for byte `String::from_utf8_lossy` of the input.
///
/// Valid runs are written straight from the scanner's buffer, so `writer`
/// should buffer if it is slow to call (a `BufWriter` passes large writes
/// through).
pub fn repair<V, R, W>(scanner: &mut Scanner<V>, reader: R, mut writer: W) -> io::Result<Repaired>
where
    V: Utf8Validator,
    R: Read,
    W: Write,
{
    let mut done = Repaired::default();
    let mut write_error = None;
    let scanned = scanner.scan(reader, |piece| {
        let bytes = match piece {
            Piece::Valid(run) => run,
            Piece::Invalid(_) => {
                done.replaced += 1;
                REPLACEMENT
            }
        };
        match writer.write_all(bytes) {
            Ok(()) => {
                done.bytes_out += bytes.len() as u64;
                ControlFlow::Continue(())
            }
            Err(e) => {
                write_error = Some(e);
                ControlFlow::Break(())
            }
        }
    })?;
    if let Some(e) = write_error {
        return Err(e);
    }
    writer.flush()?;
    done.bytes_in = scanned.bytes;
    Ok(done)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lossy(input: &[u8], chunk: usize) -> Vec<u8> {
        let mut out = Vec::new();
        let done = repair(&mut Scanner::new(chunk), input, &mut out).unwrap();
        assert_eq!(done.bytes_in, input.len() as u64);
        assert_eq!(done.bytes_out, out.len() as u64);
        out
    }

    #[test]
    fn every_conformance_case_at_several_chunk_sizes() {
        for case in codec_testdata::utf8_cases() {
            let expected = String::from_utf8_lossy(&case.input);
            for chunk in [1, 2, 3, 5, 64, crate::scan::DEFAULT_CHUNK_SIZE] {
                assert_eq!(
                    lossy(&case.input, chunk),
                    expected.as_bytes(),
                    "{} chunk {chunk}",
                    case.id
                );
            }
            if let Some(stated) = &case.lossy {
                assert_eq!(expected, stated.as_str(), "{}", case.id);
            }
        }
    }

    #[test]
    fn kuhn_replacements_counted() {
        let input = codec_testdata::KUHN_STRESS_TEST;
        let done = repair(&mut Scanner::new(7), input, io::sink()).unwrap();
        // Oracle: U+FFFD in std's lossy output, less those already in the
        // valid text.
        let in_text: usize = input
            .utf8_chunks()
            .map(|c| c.valid().matches('\u{FFFD}').count())
            .sum();
        let oracle = (String::from_utf8_lossy(input).matches('\u{FFFD}').count() - in_text) as u64;
        assert_eq!(done.replaced, oracle);
    }

    quickcheck::quickcheck! {
        fn random_bytes_small_chunks(input: Vec<u8>, chunk: u8) -> bool {
            lossy(&input, usize::from(chunk % 9) + 1) == String::from_utf8_lossy(&input).as_bytes()
        }

        fn mutated_text_small_chunks(text: String, edits: Vec<(usize, u8)>, chunk: u8) -> bool {
            let input = codec_testdata::mutate(&text, &edits);
            lossy(&input, usize::from(chunk % 9) + 1) == String::from_utf8_lossy(&input).as_bytes()
        }
    }
}
