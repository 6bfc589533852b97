//! The counts behind `codec count`: bytes, code points, lines, and invalid
//! sequences by kind.

use crate::position::count_chars;
use crate::scan::Piece;
use codec_core::Utf8ErrorKind;

/// Counts over one input (or, added up, several).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Bytes read.
    pub bytes: u64,
    /// Code points in the valid runs (invalid sequences are not counted).
    pub chars: u64,
    /// `\n` bytes, as `wc -l` counts lines.
    pub lines: u64,
    /// Invalid sequences by kind, in order of first appearance.
    pub invalid: Vec<(Utf8ErrorKind, u64)>,
}

impl Tally {
    /// Counts one piece.
    pub fn add_piece(&mut self, piece: &Piece<'_>) {
        match piece {
            Piece::Valid(run) => {
                self.bytes += run.len() as u64;
                self.chars += count_chars(run);
                self.lines += memchr::memchr_iter(b'\n', run).count() as u64;
            }
            Piece::Invalid(bad) => {
                self.bytes += bad.bytes().len() as u64;
                self.add_invalid(bad.kind(), 1);
            }
        }
    }

    fn add_invalid(&mut self, kind: Utf8ErrorKind, n: u64) {
        match self.invalid.iter_mut().find(|(k, _)| *k == kind) {
            Some((_, count)) => *count += n,
            None => self.invalid.push((kind, n)),
        }
    }

    /// All invalid sequences, whatever their kind.
    pub fn invalid_total(&self) -> u64 {
        self.invalid.iter().map(|(_, n)| n).sum()
    }

    /// Adds another tally into this one (for totals).
    pub fn merge(&mut self, other: &Tally) {
        self.bytes += other.bytes;
        self.chars += other.chars;
        self.lines += other.lines;
        for &(kind, n) in &other.invalid {
            self.add_invalid(kind, n);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scan::Scanner;
    use std::ops::ControlFlow;

    fn tally(input: &[u8], chunk: usize) -> Tally {
        let mut t = Tally::default();
        Scanner::new(chunk)
            .scan(input, |p| {
                t.add_piece(&p);
                ControlFlow::Continue(())
            })
            .unwrap();
        t
    }

    /// The same counts from std alone.
    fn oracle(input: &[u8]) -> (u64, u64, u64, u64) {
        let (mut chars, mut invalid) = (0, 0);
        for c in input.utf8_chunks() {
            chars += c.valid().chars().count() as u64;
            invalid += u64::from(!c.invalid().is_empty());
        }
        let lines = input.iter().filter(|&&b| b == b'\n').count() as u64;
        (input.len() as u64, chars, lines, invalid)
    }

    #[test]
    fn kuhn_stress_test() {
        let input = codec_testdata::KUHN_STRESS_TEST;
        for chunk in [1, 3, 100, 1 << 16] {
            let t = tally(input, chunk);
            assert_eq!(
                (t.bytes, t.chars, t.lines, t.invalid_total()),
                oracle(input)
            );
        }
    }

    quickcheck::quickcheck! {
        fn mutated_text(text: String, edits: Vec<(usize, u8)>, chunk: u8) -> bool {
            let input = codec_testdata::mutate(&text, &edits);
            let t = tally(&input, usize::from(chunk % 9) + 1);
            (t.bytes, t.chars, t.lines, t.invalid_total()) == oracle(&input)
        }
    }
}
