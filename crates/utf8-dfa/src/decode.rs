//! Decoding a whole buffer: character iterators (strict and lossy) and
//! code-point counting.

use codec_core::Utf8Error;

use crate::stream::to_char;
use crate::table::{ACCEPT, REJECT, next_state, step};
use crate::validate::{validate, validate_one_stream};

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

/// How many bytes [`LossyChunks`] steps through one at a time after an
/// error before it goes back to the fast validator.
const SLOW_SPAN: usize = 4;

/// The first window [`LossyChunks`] validates with the fast validator after
/// the slow span; it doubles while no error turns up.
const FIRST_WINDOW: usize = 1024;

/// Windows from this size on are validated with the fast pass's four
/// streams; smaller ones with one.
const SPLIT_WINDOW: usize = 4096;

/// Splits an input the way `String::from_utf8_lossy` sees it: each item is a
/// valid run and whether one U+FFFD follows it.
///
/// The first item comes from validating the whole input, the common case
/// being valid input. Errors tend to come in clusters (a corrupted byte
/// inside a character leaves stray continuation bytes behind), so after an
/// error it steps through a few bytes ([`SLOW_SPAN`]) one at a time with the
/// Hoehrmann table, and then validates windows that start at
/// [`FIRST_WINDOW`] bytes and double while no error turns up, with one
/// automaton until they reach [`SPLIT_WINDOW`].
///
/// Measured (min of 200 runs) on lipsum texts with one byte in 256 replaced
/// by `FF`: validating all the rest of the input with the four-stream pass
/// after each error ran at 0.35–0.86× std, because the four parts run in
/// step and so do up to four times the work needed to reach a near error;
/// windows from 32 bytes gave 0.66–1.06×; one stream, a slow span and
/// windows gave 1.05–1.8×, the same with first windows of 256 or 1024
/// bytes (so the choice is not tuned to the error spacing).
#[derive(Clone, Debug)]
pub(crate) struct LossyChunks<'a> {
    rest: &'a [u8],
    /// The next window for the fast validator, or 0 right after an error.
    window: usize,
}

impl<'a> LossyChunks<'a> {
    pub(crate) fn new(input: &'a [u8]) -> LossyChunks<'a> {
        LossyChunks {
            rest: input,
            window: usize::MAX,
        }
    }

    /// The next item, stepping one byte at a time through at most
    /// [`SLOW_SPAN`] bytes.
    fn slow_next(&mut self) -> (&'a [u8], bool) {
        let rest = self.rest;
        let mut state = ACCEPT;
        // Where the character in progress started.
        let mut start = 0;
        for (i, &b) in rest.iter().enumerate() {
            if i >= SLOW_SPAN && state == ACCEPT {
                // A quiet stretch: back to the fast validator.
                self.rest = &rest[i..];
                self.window = FIRST_WINDOW;
                return (&rest[..i], false);
            }
            state = next_state(state, b);
            if state == ACCEPT {
                start = i + 1;
            } else if state == REJECT {
                // The maximal subpart is `rest[start..i]`, or the rejecting
                // byte alone when it was the first byte of the character.
                let skip = if i == start { i + 1 } else { i };
                self.rest = &rest[skip..];
                return (&rest[..start], true);
            }
        }
        self.rest = &[];
        (&rest[..start], state != ACCEPT)
    }
}

impl<'a> Iterator for LossyChunks<'a> {
    /// A valid run, and whether a U+FFFD follows it.
    type Item = (&'a [u8], bool);

    fn next(&mut self) -> Option<Self::Item> {
        if self.rest.is_empty() {
            return None;
        }
        if self.window == 0 {
            return Some(self.slow_next());
        }
        let whole = self.window >= self.rest.len();
        let w = self.window.min(self.rest.len());
        let window = &self.rest[..w];
        let result = if self.window >= SPLIT_WINDOW {
            validate(window)
        } else {
            validate_one_stream(window)
        };
        match result {
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
                self.window = 0;
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
