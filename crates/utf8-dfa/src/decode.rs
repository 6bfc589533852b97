//! Decoding a whole buffer: character iterators (strict and lossy) and
//! code-point counting.

use codec_core::Utf8Error;

use crate::stream::to_char;
use crate::table::{ACCEPT, REJECT, step};
use crate::validate::validate;

/// The characters of `input`, decoded with the DFA; stops with the first
/// error (the same error as [`validate`](crate::validate)).
///
/// ```
/// let got: Vec<_> = utf8_dfa::chars(b"a\xC3\xA9\xFFz").collect();
/// assert_eq!(got[..2], [Ok('a'), Ok('é')]);
/// let e = got[2].unwrap_err();
/// assert_eq!((e.valid_up_to(), e.error_len()), (3, Some(1)));
/// assert_eq!(got.len(), 3);
/// ```
pub fn chars(input: &[u8]) -> Chars<'_> {
    Chars {
        input,
        pos: 0,
        done: false,
    }
}

/// The characters of `input` with each maximal ill-formed subpart replaced
/// by U+FFFD: the characters of `String::from_utf8_lossy(input)`.
///
/// ```
/// let s: String = utf8_dfa::chars_lossy(b"a\xE2\x82z\xFF").collect();
/// assert_eq!(s, "a\u{FFFD}z\u{FFFD}");
/// ```
pub fn chars_lossy(input: &[u8]) -> LossyChars<'_> {
    LossyChars { input, pos: 0 }
}

/// The iterator returned by [`chars`].
#[derive(Clone, Debug)]
pub struct Chars<'a> {
    input: &'a [u8],
    pos: usize,
    done: bool,
}

impl<'a> Chars<'a> {
    /// The bytes not decoded yet (from the error, after an error).
    pub fn as_bytes(&self) -> &'a [u8] {
        &self.input[self.pos..]
    }
}

impl Iterator for Chars<'_> {
    type Item = Result<char, Utf8Error>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.done || self.pos >= self.input.len() {
            return None;
        }
        let (state, codepoint, end) = decode_one(self.input, self.pos);
        if state == ACCEPT {
            self.pos = end;
            Some(Ok(to_char(codepoint)))
        } else {
            self.done = true;
            Some(Err(Utf8Error::at(self.input, self.pos)))
        }
    }
}

impl core::iter::FusedIterator for Chars<'_> {}

/// The iterator returned by [`chars_lossy`].
#[derive(Clone, Debug)]
pub struct LossyChars<'a> {
    input: &'a [u8],
    pos: usize,
}

impl Iterator for LossyChars<'_> {
    type Item = char;

    fn next(&mut self) -> Option<char> {
        if self.pos >= self.input.len() {
            return None;
        }
        let (state, codepoint, end) = decode_one(self.input, self.pos);
        match state {
            ACCEPT => {
                self.pos = end;
                Some(to_char(codepoint))
            }
            REJECT => {
                // The rejecting byte (at `end - 1`) belongs to the maximal
                // subpart only if it is the first byte; otherwise it is
                // decoded again (the alacritty/vte#158 pitfall).
                self.pos = if end - 1 == self.pos { end } else { end - 1 };
                Some(char::REPLACEMENT_CHARACTER)
            }
            _ => {
                // Truncated at the end of the input.
                self.pos = self.input.len();
                Some(char::REPLACEMENT_CHARACTER)
            }
        }
    }
}

impl core::iter::FusedIterator for LossyChars<'_> {}

/// Steps from ACCEPT at `pos` until the automaton accepts, rejects or the
/// input ends: `(state, code point, index after the last byte read)`.
#[inline]
fn decode_one(input: &[u8], pos: usize) -> (u8, u32, usize) {
    let (mut state, mut codepoint) = (ACCEPT, 0);
    let mut i = pos;
    while let Some(&b) = input.get(i) {
        (state, codepoint) = step(state, codepoint, b);
        i += 1;
        if state == ACCEPT || state == REJECT {
            break;
        }
    }
    (state, codepoint, i)
}

/// The number of characters (code points) in `input`, or the error
/// [`validate`](crate::validate) reports.
///
/// ```
/// assert_eq!(utf8_dfa::count_chars("añ吕😀".as_bytes()), Ok(4));
/// assert!(utf8_dfa::count_chars(b"\xC0\x80").is_err());
/// ```
pub fn count_chars(input: &[u8]) -> Result<usize, Utf8Error> {
    validate(input)?;
    Ok(count_leads(input))
}

/// The number of characters in `String::from_utf8_lossy(input)`: every
/// character plus one per U+FFFD.
///
/// ```
/// assert_eq!(utf8_dfa::count_chars_lossy(b"a\xE2\x82z\xFF"), 4);
/// ```
pub fn count_chars_lossy(input: &[u8]) -> usize {
    LossyChunks::new(input)
        .map(|(valid, replaced)| count_leads(valid) + usize::from(replaced))
        .sum()
}

/// The first window [`LossyChunks`] validates after an error.
const FIRST_WINDOW: usize = 128;

/// Splits an input the way `String::from_utf8_lossy` sees it: each item is a
/// valid run and whether one U+FFFD follows it.
///
/// After an error it validates a window of [`FIRST_WINDOW`] bytes, doubling
/// it each time no error turns up, rather than all the rest of the input:
/// the fast pass cuts its input in four parts and runs them in step, so on
/// text with an error every few hundred bytes, validating the whole rest did
/// four times the work needed to reach the next error. Measured on the
/// lipsum texts with one byte in 256 replaced by `FF`: 0.46× std before,
/// see `docs/results/utf8-dfa.md` for after.
#[derive(Clone, Debug)]
pub(crate) struct LossyChunks<'a> {
    rest: &'a [u8],
    window: usize,
}

impl<'a> LossyChunks<'a> {
    pub(crate) fn new(input: &'a [u8]) -> LossyChunks<'a> {
        LossyChunks {
            rest: input,
            // The whole input first: valid input is the common case.
            window: usize::MAX,
        }
    }
}

impl<'a> Iterator for LossyChunks<'a> {
    /// A valid run, and whether a U+FFFD follows it.
    type Item = (&'a [u8], bool);

    fn next(&mut self) -> Option<Self::Item> {
        if self.rest.is_empty() {
            return None;
        }
        let whole = self.window >= self.rest.len();
        let w = self.window.min(self.rest.len());
        let window = &self.rest[..w];
        match validate(window) {
            Ok(()) => {
                self.rest = &self.rest[w..];
                self.window = self.window.saturating_mul(2);
                Some((window, false))
            }
            // The window, but not the input, ends inside a character: stop
            // before it (the window holds at least FIRST_WINDOW bytes, so
            // this makes progress) and look again with a larger window.
            Err(e) if e.error_len().is_none() && !whole => {
                let (valid, rest) = self.rest.split_at(e.valid_up_to());
                self.rest = rest;
                self.window = self.window.saturating_mul(2);
                Some((valid, false))
            }
            Err(e) => {
                let v = e.valid_up_to();
                let skip = v + e.error_len().unwrap_or(w - v);
                let valid = &self.rest[..v];
                self.rest = &self.rest[skip..];
                self.window = FIRST_WINDOW;
                Some((valid, true))
            }
        }
    }
}

/// The number of bytes that are not continuation bytes: in valid UTF-8, the
/// number of characters. Written so that the compiler vectorises it.
fn count_leads(bytes: &[u8]) -> usize {
    bytes.iter().filter(|&&b| (b as i8) >= -0x40).count()
}
