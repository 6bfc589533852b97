//! `codec validate --context`: each diagnostic followed by its line, with a
//! caret under the offending bytes, the way rustc and grep show where a
//! problem is.
//!
//! ```text
//! notes.txt:2:5: invalid UTF-8 (surrogate) at byte 13: ed
//!   | sur \xed\xa0\x80 rogate
//!   |     ^^^^
//! ```
//!
//! The line is shown as a lossy decoder would see it, except that each
//! invalid byte is written `\xHH` (so the bytes are visible, not a row of
//! U+FFFD) and control characters are escaped (`\t`, `\x1b`), so a file can
//! never send escape sequences to the terminal. Carets are placed by display
//! width (`unicode-width`: CJK characters take two columns).
//!
//! The tracker works on the streamed pieces in bounded memory: it keeps at
//! most [`WINDOW`] characters of the current line before the position, and
//! holds each diagnostic until [`WINDOW`] characters after it have gone by
//! (or the line or the input ended), so a line of any length costs the same.

use super::style::{Palette, paint};
use std::collections::VecDeque;
use std::io::{self, Write};
use unicode_width::UnicodeWidthChar;

/// Characters shown on each side of the offending bytes.
pub(crate) const WINDOW: usize = 40;

/// One displayed unit of the line.
#[derive(Clone, Copy, Debug)]
enum Cell {
    /// A printable character.
    Char(char),
    /// A control character or an invalid byte, written as an escape.
    Escape(char),
    Byte(u8),
}

impl Cell {
    fn from_char(c: char) -> Cell {
        if c.is_control() {
            Cell::Escape(c)
        } else {
            Cell::Char(c)
        }
    }

    fn width(self) -> usize {
        match self {
            Cell::Char(c) => c.width().unwrap_or(0),
            Cell::Escape('\t' | '\n' | '\r') => 2,
            Cell::Escape(c) if (c as u32) < 0x80 => 4,
            Cell::Escape(c) => format!("\\u{{{:x}}}", c as u32).len(),
            Cell::Byte(_) => 4,
        }
    }

    fn push_to(self, out: &mut String) {
        match self {
            Cell::Char(c) => out.push(c),
            Cell::Escape('\t') => out.push_str("\\t"),
            Cell::Escape('\n') => out.push_str("\\n"),
            Cell::Escape('\r') => out.push_str("\\r"),
            Cell::Escape(c) if (c as u32) < 0x80 => {
                out.push_str(&format!("\\x{:02x}", c as u32));
            }
            Cell::Escape(c) => out.push_str(&format!("\\u{{{:x}}}", c as u32)),
            Cell::Byte(b) => out.push_str(&format!("\\x{b:02x}")),
        }
    }
}

/// A diagnostic waiting for the text after its bytes.
struct Pending {
    header: String,
    before: Vec<Cell>,
    before_cut: bool,
    bad: Vec<Cell>,
    after: Vec<Cell>,
    after_cut: bool,
    done: bool,
}

/// Follows the pieces of one input and prints diagnostics with context.
pub(crate) struct Context {
    before: VecDeque<Cell>,
    before_cut: bool,
    pending: VecDeque<Pending>,
}

impl Context {
    pub(crate) fn new() -> Context {
        Context {
            before: VecDeque::with_capacity(2 * WINDOW),
            before_cut: false,
            pending: VecDeque::new(),
        }
    }

    /// Whether a diagnostic still waits for its context.
    pub(crate) fn has_pending(&self) -> bool {
        !self.pending.is_empty()
    }

    /// A valid run (whole characters).
    pub(crate) fn valid(&mut self, run: &[u8]) {
        // The text after the waiting diagnostics: at most WINDOW + 1
        // characters from the front of the run are needed.
        if self.pending.back().is_some_and(|p| !p.done) {
            let head = &run[..run.len().min(4 * (WINDOW + 2))];
            for c in lossy_chars(head) {
                if c == '\n' {
                    self.end_line();
                    break;
                }
                let mut open = false;
                for p in self.pending.iter_mut().filter(|p| !p.done) {
                    if p.after.len() == WINDOW {
                        p.after_cut = true;
                        p.done = true;
                    } else {
                        p.after.push(Cell::from_char(c));
                        open = true;
                    }
                }
                if !open {
                    break;
                }
            }
        }
        // The text before the next diagnostic: the tail of the line.
        let tail = match memchr::memrchr(b'\n', run) {
            Some(i) => {
                self.before.clear();
                self.before_cut = false;
                &run[i + 1..]
            }
            None => run,
        };
        let keep = 4 * (WINDOW + 1);
        let tail = if tail.len() > keep {
            // Start at a character boundary: skip continuation bytes.
            let mut start = tail.len() - keep;
            while start < tail.len() && tail[start] & 0xC0 == 0x80 {
                start += 1;
            }
            self.before.clear();
            self.before_cut = true;
            &tail[start..]
        } else {
            tail
        };
        for c in lossy_chars(tail) {
            self.push_before(Cell::from_char(c));
        }
    }

    /// An invalid sequence, reported with `header` (the diagnostic line,
    /// without its newline), or only shown as context without one.
    pub(crate) fn invalid(&mut self, bytes: &[u8], header: Option<String>) {
        for p in self.pending.iter_mut().filter(|p| !p.done) {
            for &b in bytes {
                if p.after.len() == WINDOW {
                    p.after_cut = true;
                    p.done = true;
                    break;
                }
                p.after.push(Cell::Byte(b));
            }
        }
        if let Some(header) = header {
            self.pending.push_back(Pending {
                header,
                before: self.before.iter().copied().collect(),
                before_cut: self.before_cut,
                bad: bytes.iter().map(|&b| Cell::Byte(b)).collect(),
                after: Vec::new(),
                after_cut: false,
                done: false,
            });
        }
        for &b in bytes {
            self.push_before(Cell::Byte(b));
        }
    }

    /// The input ended: every diagnostic is complete.
    pub(crate) fn finish(&mut self) {
        self.end_line();
    }

    fn end_line(&mut self) {
        for p in &mut self.pending {
            p.done = true;
        }
    }

    fn push_before(&mut self, cell: Cell) {
        if self.before.len() == WINDOW {
            self.before.pop_front();
            self.before_cut = true;
        }
        self.before.push_back(cell);
    }

    /// Prints the complete diagnostics, in order.
    pub(crate) fn flush(&mut self, out: &mut impl Write, palette: &Palette) -> io::Result<()> {
        while self.pending.front().is_some_and(|p| p.done) {
            if let Some(p) = self.pending.pop_front() {
                render(out, palette, &p)?;
            }
        }
        Ok(())
    }
}

/// The characters of `bytes`, which are valid UTF-8 except perhaps for a
/// character cut at either end (by the window): cut parts are dropped.
fn lossy_chars(bytes: &[u8]) -> impl Iterator<Item = char> + '_ {
    bytes.utf8_chunks().flat_map(|c| c.valid().chars())
}

fn render(out: &mut impl Write, palette: &Palette, p: &Pending) -> io::Result<()> {
    let mut line = String::new();
    let mut width = 0;
    if p.before_cut {
        line.push('…');
        width += 1;
    }
    for &cell in &p.before {
        cell.push_to(&mut line);
        width += cell.width();
    }
    let mut bad = String::new();
    let mut bad_width = 0;
    for &cell in &p.bad {
        cell.push_to(&mut bad);
        bad_width += cell.width();
    }
    let mut after = String::new();
    for &cell in &p.after {
        cell.push_to(&mut after);
    }
    if p.after_cut {
        after.push('…');
    }
    let gutter = paint(palette.dim, "  |");
    writeln!(out, "{}", p.header)?;
    writeln!(out, "{gutter} {line}{}{after}", paint(palette.bytes, &bad))?;
    writeln!(
        out,
        "{gutter} {:width$}{}",
        "",
        paint(palette.caret, "^".repeat(bad_width.max(1))),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shown(pieces: &[Result<&[u8], &[u8]>]) -> String {
        let mut ctx = Context::new();
        let mut out = Vec::new();
        for (i, piece) in pieces.iter().enumerate() {
            match piece {
                Ok(run) => ctx.valid(run),
                Err(bad) => ctx.invalid(bad, Some(format!("#{i}"))),
            }
            ctx.flush(&mut out, &Palette::default()).unwrap();
        }
        ctx.finish();
        ctx.flush(&mut out, &Palette::default()).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn caret_under_the_bytes() {
        let got = shown(&[
            Ok(b"one\nsur "),
            Err(b"\xed"),
            Err(b"\xa0"),
            Ok(b" x\ttail\nnext"),
        ]);
        assert_eq!(
            got,
            "#1\n  | sur \\xed\\xa0 x\\ttail\n  |     ^^^^\n\
             #2\n  | sur \\xed\\xa0 x\\ttail\n  |         ^^^^\n"
        );
    }

    #[test]
    fn wide_characters_move_the_caret_by_their_width() {
        let got = shown(&[Ok("\u{5415}\u{5415}".as_bytes()), Err(b"\xff")]);
        assert_eq!(got, "#1\n  | \u{5415}\u{5415}\\xff\n  |     ^^^^\n");
    }

    #[test]
    fn long_lines_are_cut_to_the_window() {
        let long = "a".repeat(1000);
        let got = shown(&[Ok(long.as_bytes()), Err(b"\xff"), Ok(long.as_bytes())]);
        let lines: Vec<&str> = got.lines().collect();
        let a = "a".repeat(WINDOW);
        assert_eq!(lines[1], format!("  | …{a}\\xff{a}…"));
        assert_eq!(lines[2], format!("  | {}^^^^", " ".repeat(WINDOW + 1)));
    }

    #[test]
    fn escape_sequences_never_reach_the_terminal() {
        let got = shown(&[Ok(b"\x1b[31mred"), Err(b"\x80")]);
        assert!(!got.contains('\x1b'), "{got:?}");
        assert!(got.contains("\\x1b[31mred\\x80"), "{got:?}");
    }
}
