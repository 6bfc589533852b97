//! Streaming: a [`Validator`] and two decoders ([`Decoder`], strict, and
//! [`LossyDecoder`]) that take their input in chunks of any size and carry
//! the automaton's state (at most three bytes of an unfinished character)
//! from one chunk to the next.
//!
//! Offsets in errors are absolute: they count from the first byte of the
//! first chunk. Every split of an input gives exactly the result of the
//! whole-buffer function on the concatenation.

use codec_core::Utf8Error;
use codec_core::stream::{Carry, Streaming};

use crate::Dfa;
use crate::table::{ACCEPT, REJECT, step};

/// A streaming UTF-8 validator: feed chunks with `update`, end with
/// `finish`. It is codec-core's one streaming engine over this crate's
/// validator, so it runs the same fast pass as [`validate`](crate::validate)
/// on each chunk.
///
/// It follows the [`StreamingValidator`](codec_core::StreamingValidator)
/// contract: `update` reports an error as soon as its chunk proves it,
/// offsets are absolute, errors are sticky, and only an input that ends
/// inside a character is reported by `finish` (with `error_len() == None`).
/// It holds at most the three bytes of an unfinished character;
/// `position()` counts every byte fed.
///
/// ```
/// use utf8_dfa::Validator;
///
/// let mut v = Validator::new();
/// // "€" (E2 82 AC) split across three chunks.
/// v.update(b"price: \xE2").unwrap();
/// v.update(b"\x82").unwrap();
/// v.update(b"\xAC 5 \xFF").map_err(|e| (e.valid_up_to(), e.error_len())).unwrap_err();
/// let e = v.finish().unwrap_err();
/// assert_eq!((e.valid_up_to(), e.error_len()), (13, Some(1)));
///
/// let mut v = Validator::new();
/// v.update(b"ends in \xF0\x9F").unwrap();
/// assert_eq!((v.position(), v.valid_up_to()), (10, 8));
/// let e = v.finish().unwrap_err();
/// assert_eq!((e.valid_up_to(), e.error_len()), (8, None));
/// ```
pub type Validator = Streaming<Dfa>;

/// What one byte did to a decoder.
enum Event {
    /// A character is complete.
    Char(char),
    /// More bytes are needed.
    Pending,
    /// The automaton rejected the byte; `refeed` when the byte is not part
    /// of the ill-formed subpart (it follows an unfinished character) and
    /// must be decoded again from ACCEPT.
    Reject { refeed: bool },
}

/// The decoding core shared by the streaming decoders: Hoehrmann's state and
/// code point.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Core {
    state: u8,
    codepoint: u32,
}

impl Core {
    #[inline]
    fn feed(&mut self, b: u8) -> Event {
        let before = self.state;
        (self.state, self.codepoint) = step(self.state, self.codepoint, b);
        match self.state {
            ACCEPT => Event::Char(to_char(self.codepoint)),
            REJECT => {
                self.state = ACCEPT;
                Event::Reject {
                    refeed: before != ACCEPT,
                }
            }
            _ => Event::Pending,
        }
    }
}

/// The scalar value the automaton accepted. It only accepts scalar values;
/// the fallback keeps a logic error from panicking.
#[inline]
pub(crate) fn to_char(codepoint: u32) -> char {
    debug_assert!(char::from_u32(codepoint).is_some(), "{codepoint:X}");
    char::from_u32(codepoint).unwrap_or(char::REPLACEMENT_CHARACTER)
}

/// A strict streaming decoder: emits each character as soon as its last byte
/// arrives, and stops at the first error, which it reports with its
/// absolute offset (and keeps: errors are sticky).
///
/// ```
/// use utf8_dfa::Decoder;
///
/// let mut d = Decoder::new();
/// let mut out = String::new();
/// d.decode(b"h\xC3", |c| out.push(c)).unwrap();
/// d.decode(b"\xA9llo \xF0\x9F", |c| out.push(c)).unwrap();
/// assert_eq!(out, "héllo ");
/// let e = d.decode(b"\x98", |c| out.push(c)).and_then(|_| d.finish()).unwrap_err();
/// assert_eq!((e.valid_up_to(), e.error_len()), (7, None));
/// ```
#[derive(Clone, Debug, Default)]
pub struct Decoder {
    core: Core,
    /// The bytes of the character in progress.
    pending: Carry,
    /// Absolute offset of the first byte of `pending`.
    offset: usize,
    error: Option<Utf8Error>,
}

impl Decoder {
    /// A decoder at the start of an input.
    #[must_use]
    pub const fn new() -> Decoder {
        Decoder {
            core: Core {
                state: ACCEPT,
                codepoint: 0,
            },
            pending: Carry::new(),
            offset: 0,
            error: None,
        }
    }

    /// Decodes the next chunk, calling `emit` for every character it
    /// completes, up to the first error.
    pub fn decode(&mut self, chunk: &[u8], mut emit: impl FnMut(char)) -> Result<(), Utf8Error> {
        if let Some(e) = self.error {
            return Err(e);
        }
        for (i, &b) in chunk.iter().enumerate() {
            match self.core.feed(b) {
                Event::Char(c) => {
                    emit(c);
                    self.offset = self.offset.saturating_add(self.pending.len() + 1);
                    self.pending.clear();
                }
                Event::Pending => self.pending.push(b),
                Event::Reject { .. } => {
                    self.pending.push(chunk[i]);
                    let e = Utf8Error::at(self.pending.as_bytes(), 0).offset_by(self.offset);
                    self.error = Some(e);
                    return Err(e);
                }
            }
        }
        Ok(())
    }

    /// Ends the input: the earlier error, an error if the input ended inside
    /// a character, or `Ok(())`.
    pub fn finish(self) -> Result<(), Utf8Error> {
        match self.error {
            Some(e) => Err(e),
            None if !self.pending.is_empty() => {
                Err(Utf8Error::at(self.pending.as_bytes(), 0).offset_by(self.offset))
            }
            None => Ok(()),
        }
    }
}

/// A lossy streaming decoder: emits each character as soon as its last byte
/// arrives, and U+FFFD for each maximal ill-formed subpart, exactly as
/// `String::from_utf8_lossy` does on the concatenation of the chunks.
///
/// After a rejection it re-feeds the rejecting byte when that byte followed
/// an unfinished character: `E2 82 41` is U+FFFD then `A`, not U+FFFD alone
/// (the bug of alacritty/vte#158).
///
/// ```
/// use utf8_dfa::LossyDecoder;
///
/// let mut d = LossyDecoder::new();
/// let mut out = String::new();
/// d.decode(b"a\xE2\x82", |c| out.push(c));
/// d.decode(b"b\xF0\x9F\x98", |c| out.push(c));
/// d.finish(|c| out.push(c));
/// assert_eq!(out, "a\u{FFFD}b\u{FFFD}");
/// assert_eq!(out, String::from_utf8_lossy(b"a\xE2\x82b\xF0\x9F\x98"));
/// ```
#[derive(Clone, Debug, Default)]
pub struct LossyDecoder {
    core: Core,
}

impl LossyDecoder {
    /// A decoder at the start of an input.
    #[must_use]
    pub const fn new() -> LossyDecoder {
        LossyDecoder {
            core: Core {
                state: ACCEPT,
                codepoint: 0,
            },
        }
    }

    /// Decodes the next chunk, calling `emit` for every character it
    /// completes and for every U+FFFD.
    pub fn decode(&mut self, chunk: &[u8], mut emit: impl FnMut(char)) {
        for &b in chunk {
            match self.core.feed(b) {
                Event::Char(c) => emit(c),
                Event::Pending => {}
                Event::Reject { refeed } => {
                    emit(char::REPLACEMENT_CHARACTER);
                    if refeed {
                        // From ACCEPT the byte cannot be re-fed again: no
                        // second rejection can ask for it.
                        match self.core.feed(b) {
                            Event::Char(c) => emit(c),
                            Event::Pending => {}
                            Event::Reject { .. } => emit(char::REPLACEMENT_CHARACTER),
                        }
                    }
                }
            }
        }
    }

    /// Decodes the next chunk, appending to `out`.
    #[cfg(feature = "alloc")]
    pub fn decode_into_string(&mut self, chunk: &[u8], out: &mut alloc::string::String) {
        self.decode(chunk, |c| out.push(c));
    }

    /// Ends the input: one U+FFFD if it ended inside a character.
    pub fn finish(self, mut emit: impl FnMut(char)) {
        if self.core.state != ACCEPT {
            emit(char::REPLACEMENT_CHARACTER);
        }
    }
}
