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
#[must_use]
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
#[must_use]
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
    #[must_use]
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
#[must_use]
pub fn count_chars_lossy(input: &[u8]) -> usize {
    crate::chunks(input)
        .map(|c| count_leads(c.valid().as_bytes()) + usize::from(!c.invalid().is_empty()))
        .sum()
}

/// How many bytes [`valid_prefix`] steps through one at a time before it
/// goes to the fast validator.
const SLOW_SPAN: usize = 4;

/// The first window [`valid_prefix`] validates with the fast validator after
/// the slow span; it doubles while no error turns up.
const FIRST_WINDOW: usize = 1024;

/// Windows from this size on are validated with the fast pass's four
/// streams; smaller ones with one.
const SPLIT_WINDOW: usize = 4096;

/// [`Dfa`](crate::Dfa)'s [`valid_prefix`](codec_core::Utf8Validator::valid_prefix):
/// the longest valid prefix and the error after it, with work that grows
/// with the prefix, for lossy walks that call it after every error.
///
/// Errors tend to come in clusters (a corrupted byte inside a character
/// leaves stray continuation bytes behind), so it first steps through a few
/// bytes ([`SLOW_SPAN`]) one at a time with the Hoehrmann table, and then
/// validates windows that start at [`FIRST_WINDOW`] bytes and double while
/// no error turns up, with one automaton until they reach [`SPLIT_WINDOW`].
///
/// Validating all the rest of the input with the four-stream pass after
/// each error ran at 0.35–0.86× std on lipsum texts with one byte in 256
/// replaced by `FF` (the four parts run in step, so they do up to four
/// times the work needed to reach a near error); this shape runs at
/// 1.05–1.8×, and the same with first windows of 256 or 1024 bytes, so it
/// is not tuned to the error spacing (docs/results/utf8-dfa.md).
pub(crate) fn valid_prefix(input: &[u8]) -> (&str, Option<Utf8Error>) {
    let error_at = |start: usize| {
        (
            crate::valid_str(&input[..start]),
            Some(Utf8Error::at(input, start)),
        )
    };
    // The slow span; `start` is where the character in progress started.
    let mut state = ACCEPT;
    let mut start = 0;
    for (i, &b) in input.iter().enumerate().take(SLOW_SPAN) {
        state = next_state(state, b);
        if state == ACCEPT {
            start = i + 1;
        } else if state == REJECT {
            return error_at(start);
        }
    }
    if input.len() <= SLOW_SPAN {
        return match state {
            ACCEPT => (crate::valid_str(input), None),
            _ => error_at(start),
        };
    }
    // The windows, from the boundary where the slow span's last character
    // started.
    let mut pos = start;
    let mut window = FIRST_WINDOW;
    loop {
        let w = window.min(input.len() - pos);
        let whole = pos + w == input.len();
        let part = &input[pos..pos + w];
        let result = if window >= SPLIT_WINDOW {
            validate(part)
        } else {
            validate_one_stream(part)
        };
        match result {
            Ok(()) if whole => return (crate::valid_str(input), None),
            Ok(()) => pos += w,
            // The window, but not the input, ends inside a character: go on
            // from that character (the window holds at least FIRST_WINDOW
            // bytes, so this makes progress).
            Err(e) if e.error_len().is_none() && !whole => pos += e.valid_up_to(),
            Err(e) => {
                let e = e.offset_by(pos);
                return (crate::valid_str(&input[..e.valid_up_to()]), Some(e));
            }
        }
        window = window.saturating_mul(2);
    }
}

/// The number of characters in valid UTF-8: codec-core's one count.
use codec_core::utf8::count_chars as count_leads;
