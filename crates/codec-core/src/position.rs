//! [`Position`]: the line and column of a byte offset, tracked while
//! streaming through the pieces of a text.

use crate::utf8::count_chars;

/// The line and column after the pieces seen so far.
///
/// - The line is 1 plus the number of `\n` bytes before the offset.
/// - The column is 1 plus the number of characters since the last `\n`,
///   where a character is a code point of the valid text or one whole
///   invalid piece: what an editor shows after a lossy decode (one U+FFFD
///   each). A tab counts as one character.
///
/// ```
/// use codec_core::position::Position;
///
/// let mut pos = Position::new();
/// pos.advance_valid(b"first line\nsecond: caf\xC3\xA9 ");
/// pos.advance_invalid(); // e.g. a stray 0xFF
/// assert_eq!((pos.line(), pos.column()), (2, 15));
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Position {
    newlines: u64,
    chars_in_line: u64,
}

impl Position {
    /// Line 1, column 1.
    #[must_use]
    pub const fn new() -> Position {
        Position {
            newlines: 0,
            chars_in_line: 0,
        }
    }

    /// Moves past well-formed text.
    ///
    /// Newlines are counted with a loop the compiler vectorises; characters
    /// only after the run's last newline, so the cost is one pass over the
    /// run plus the length of its last line.
    pub fn advance_valid(&mut self, run: &[u8]) {
        match run.iter().rposition(|&b| b == b'\n') {
            Some(last) => {
                self.newlines += count_newlines(&run[..=last]);
                self.chars_in_line = count_chars(&run[last + 1..]) as u64;
            }
            None => self.chars_in_line += count_chars(run) as u64,
        }
    }

    /// Moves past one invalid piece: one column (a maximal ill-formed
    /// subpart never holds a newline, which is ASCII).
    pub fn advance_invalid(&mut self) {
        self.chars_in_line += 1;
    }

    /// The 1-based line number.
    #[must_use]
    pub const fn line(&self) -> u64 {
        self.newlines + 1
    }

    /// The 1-based column, in characters.
    #[must_use]
    pub const fn column(&self) -> u64 {
        self.chars_in_line + 1
    }

    /// The number of `\n` bytes seen.
    #[must_use]
    pub const fn newlines(&self) -> u64 {
        self.newlines
    }
}

/// `\n` bytes in `bytes`, summed per block into a `u8` (as `count_chars`
/// does) so that the loop vectorises.
fn count_newlines(bytes: &[u8]) -> u64 {
    bytes
        .chunks(255)
        .map(|block| {
            let n = block
                .iter()
                .fold(0u8, |n, &b| n.wrapping_add(u8::from(b == b'\n')));
            u64::from(n)
        })
        .sum()
}

#[cfg(test)]
mod tests {
    extern crate std;
    use super::*;

    #[test]
    fn lines_and_columns_from_std_at_every_cut() {
        let text = "ab\ncaf\u{e9}\n\n\u{1F600}x\u{5415}\n".repeat(40);
        let cuts: [usize; 6] = [1, 3, 7, 64, 255, 600];
        for step in cuts {
            let mut pos = Position::new();
            let mut at = 0;
            while at < text.len() {
                let mut next = (at + step).min(text.len());
                while !text.is_char_boundary(next) {
                    next += 1;
                }
                pos.advance_valid(&text.as_bytes()[at..next]);
                at = next;
                let before = &text[..at];
                let line = before.matches('\n').count() as u64 + 1;
                let col = before.rsplit('\n').next().unwrap().chars().count() as u64 + 1;
                assert_eq!(
                    (pos.line(), pos.column()),
                    (line, col),
                    "step {step} at {at}"
                );
            }
        }
    }
}
