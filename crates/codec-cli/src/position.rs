//! Line and column of a byte offset, tracked while streaming.
//!
//! - The line is 1 plus the number of `\n` bytes before the offset.
//! - The column is 1 plus the number of characters between the last `\n`
//!   and the offset, where a character is a code point of the valid runs or
//!   one whole invalid sequence, which is what an editor shows after a lossy
//!   decode (one U+FFFD each). A tab counts as one character.
//!
//! Newlines are counted with `memchr` over each valid run; code points are
//! counted only after a run's last newline, so the cost is one vectorised
//! pass per chunk plus the length of the last line.

/// The position after the pieces seen so far.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Position {
    newlines: u64,
    chars_in_line: u64,
}

impl Position {
    /// The position at the start of an input: line 1, column 1.
    pub fn new() -> Self {
        Self::default()
    }

    /// Moves past a valid run.
    pub fn advance_valid(&mut self, run: &[u8]) {
        match memchr::memrchr(b'\n', run) {
            Some(last) => {
                self.newlines += memchr::memchr_iter(b'\n', &run[..=last]).count() as u64;
                self.chars_in_line = count_chars(&run[last + 1..]);
            }
            None => self.chars_in_line += count_chars(run),
        }
    }

    /// Moves past one invalid sequence (one column; never a newline, since a
    /// maximal invalid subpart holds no ASCII byte).
    pub fn advance_invalid(&mut self) {
        self.chars_in_line += 1;
    }

    /// 1-based line number.
    pub fn line(&self) -> u64 {
        self.newlines + 1
    }

    /// 1-based column, in characters.
    pub fn column(&self) -> u64 {
        self.chars_in_line + 1
    }

    /// The number of `\n` bytes seen.
    pub fn newlines(&self) -> u64 {
        self.newlines
    }
}

/// The code points in valid UTF-8: the bytes that are not continuation bytes
/// (`10xxxxxx`, which as `i8` are the values below -64).
///
/// Blocks of 255 bytes are summed into a `u8`, which cannot overflow and
/// which LLVM vectorises to byte compares and horizontal sums. Measured on
/// 256 MiB of lipsum text in `codec count`: 0.17 s of user time with a plain
/// `filter().count()`, 0.04 s with the blocks.
pub fn count_chars(valid: &[u8]) -> u64 {
    let mut total = 0u64;
    for block in valid.chunks(255) {
        let n = block
            .iter()
            .fold(0u8, |n, &b| n + u8::from((b as i8) >= -64));
        total += u64::from(n);
    }
    total
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_and_columns_from_std() {
        let text = "ab\ncaf\u{e9}\n\n\u{1F600}x\u{5415}";
        let mut pos = Position::new();
        // Feed it in odd pieces; compare with a char-by-char oracle at each
        // cut.
        let cuts = [0, 1, 3, 5, 6, 8, 9, 10, 14, 15, text.len()];
        for w in cuts.windows(2) {
            pos.advance_valid(&text.as_bytes()[w[0]..w[1]]);
            let before = &text[..w[1]];
            let line = before.matches('\n').count() as u64 + 1;
            let col = before.rsplit('\n').next().unwrap().chars().count() as u64 + 1;
            assert_eq!((pos.line(), pos.column()), (line, col), "after {before:?}");
        }
    }

    #[test]
    fn count_chars_matches_std() {
        for s in ["", "a", "\u{e9}", "\u{1F600}\u{5415}abc", "\u{10FFFF}"] {
            assert_eq!(count_chars(s.as_bytes()), s.chars().count() as u64);
        }
        // Across the 255-byte blocks.
        let long = "a\u{e9}\u{5415}\u{1F600}".repeat(300);
        for end in (0..long.len()).filter(|&i| long.is_char_boundary(i)) {
            assert_eq!(
                count_chars(&long.as_bytes()[..end]),
                long[..end].chars().count() as u64
            );
        }
    }
}
