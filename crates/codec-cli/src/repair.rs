//! The streaming lossy conversion behind `codec repair`: the library's
//! `Utf8Reader::repair` (codec-core) with the SIMD validator and the
//! scanner's reused buffer.

use crate::scan::Scanner;
use std::io::{self, Read, Write};

pub use codec_core::io::Repaired;

/// Copies `reader` to `writer`, replacing each maximal invalid subpart (and
/// an unfinished character at the end) with one U+FFFD: the output is byte
/// for byte `String::from_utf8_lossy` of the input.
///
/// Valid runs are written straight from the scanner's buffer, so `writer`
/// should buffer if it is slow to call (a `BufWriter` passes large writes
/// through).
pub fn repair<R, W>(scanner: &mut Scanner, reader: R, writer: W) -> io::Result<Repaired>
where
    R: Read,
    W: Write,
{
    let mut r = scanner.reader(reader);
    let done = r.repair(writer);
    scanner.recycle(r);
    done
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
