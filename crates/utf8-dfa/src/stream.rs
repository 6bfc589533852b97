//! Streaming: a [`Validator`] and two decoders ([`Decoder`], strict, and
//! [`LossyDecoder`]) that take their input in chunks of any size and carry
//! the automaton's state (at most three bytes of an unfinished character)
//! from one chunk to the next.
//!
//! Offsets in errors are absolute: they count from the first byte of the
//! first chunk. Every split of an input gives exactly the result of the
//! whole-buffer function on the concatenation.

use codec_core::{StreamingValidator, Utf8Error};

use crate::table::{ACCEPT, REJECT, next_state, step};
use crate::validate::validate;

/// The bytes of an unfinished character, carried between chunks (at most
/// three: a fourth byte either finishes the character or rejects it).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Pending {
    bytes: [u8; 3],
    len: u8,
}

impl Pending {
    fn as_slice(&self) -> &[u8] {
        &self.bytes[..self.len as usize]
    }

    fn push(&mut self, b: u8) {
        // The automaton never keeps more than three bytes in progress; the
        // guard keeps a logic error from panicking.
        if let Some(slot) = self.bytes.get_mut(self.len as usize) {
            *slot = b;
            self.len += 1;
        }
    }

    /// The error for `self` followed by `more` (which holds the rejecting
    /// byte, if any), at absolute offset `offset`.
    fn error(&self, more: &[u8], offset: usize) -> Utf8Error {
        let mut buf = [0u8; 4];
        let n = self.len as usize;
        buf[..n].copy_from_slice(self.as_slice());
        let m = more.len().min(4 - n);
        buf[n..n + m].copy_from_slice(&more[..m]);
        Utf8Error::at(&buf[..n + m], 0).offset_by(offset)
    }
}

/// A streaming UTF-8 validator: feed chunks with [`update`](Validator::update),
/// end with [`finish`](Validator::finish).
///
/// It follows the [`StreamingValidator`] contract: `update` reports an
/// error as soon as its chunk proves it, offsets are absolute, errors are
/// sticky, and only an input that ends inside a character is reported by
/// `finish` (with `error_len() == None`). It holds at most the three bytes
/// of an unfinished character. Inside a chunk it runs the same fast pass as
/// [`validate`](crate::validate).
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
/// let e = v.finish().unwrap_err();
/// assert_eq!((e.valid_up_to(), e.error_len()), (8, None));
/// ```
#[derive(Clone, Debug, Default)]
pub struct Validator {
    /// Absolute offset of the first byte of `pending`: every byte before it
    /// has been validated.
    offset: usize,
    /// The unfinished character, if any.
    pending: Pending,
    /// The automaton's state after `pending`.
    state: u8,
    /// The first error, once found.
    error: Option<Utf8Error>,
}

impl Validator {
    /// A validator at the start of an input.
    pub const fn new() -> Validator {
        Validator {
            offset: 0,
            pending: Pending {
                bytes: [0; 3],
                len: 0,
            },
            state: ACCEPT,
            error: None,
        }
    }

    /// Feeds the next chunk; an error if the bytes so far are ill-formed
    /// whatever follows.
    pub fn update(&mut self, chunk: &[u8]) -> Result<(), Utf8Error> {
        if let Some(e) = self.error {
            return Err(e);
        }
        let mut rest = chunk;
        if self.pending.len > 0 {
            // Finish the character in progress byte by byte.
            let mut state = self.state;
            let mut used = 0;
            for &b in chunk {
                state = next_state(state, b);
                used += 1;
                if state == ACCEPT || state == REJECT {
                    break;
                }
            }
            if state == REJECT {
                return Err(self.fail(self.pending.error(&chunk[..used], self.offset)));
            }
            if state != ACCEPT {
                // The chunk ended first.
                for &b in chunk {
                    self.pending.push(b);
                }
                self.state = state;
                return Ok(());
            }
            self.offset = self.offset.saturating_add(self.pending.len as usize + used);
            self.pending = Pending::default();
            self.state = ACCEPT;
            rest = &chunk[used..];
        }
        match validate(rest) {
            Ok(()) => {
                self.offset = self.offset.saturating_add(rest.len());
                Ok(())
            }
            Err(e) if e.error_len().is_some() => Err(self.fail(e.offset_by(self.offset))),
            Err(e) => {
                // `rest` ends inside a character: keep it for the next chunk.
                let v = e.valid_up_to();
                self.offset = self.offset.saturating_add(v);
                for &b in &rest[v..] {
                    self.pending.push(b);
                    self.state = next_state(self.state, b);
                }
                Ok(())
            }
        }
    }

    /// Ends the input: the earlier error, an error if the input ended inside
    /// a character, or `Ok(())`.
    pub fn finish(self) -> Result<(), Utf8Error> {
        match self.error {
            Some(e) => Err(e),
            None if self.pending.len > 0 => Err(self.pending.error(&[], self.offset)),
            None => Ok(()),
        }
    }

    /// How many bytes have been validated: the absolute offset of the end of
    /// the last complete character (or of the first error).
    pub fn valid_up_to(&self) -> usize {
        match self.error {
            Some(e) => e.valid_up_to(),
            None => self.offset,
        }
    }

    fn fail(&mut self, e: Utf8Error) -> Utf8Error {
        self.error = Some(e);
        e
    }
}

impl StreamingValidator for Validator {
    fn new() -> Self {
        Validator::new()
    }

    fn update(&mut self, chunk: &[u8]) -> Result<(), Utf8Error> {
        Validator::update(self, chunk)
    }

    fn finish(self) -> Result<(), Utf8Error> {
        Validator::finish(self)
    }
}

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
    pending: Pending,
    /// Absolute offset of the first byte of `pending`.
    offset: usize,
    error: Option<Utf8Error>,
}

impl Decoder {
    /// A decoder at the start of an input.
    pub const fn new() -> Decoder {
        Decoder {
            core: Core {
                state: ACCEPT,
                codepoint: 0,
            },
            pending: Pending {
                bytes: [0; 3],
                len: 0,
            },
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
                    self.offset = self.offset.saturating_add(self.pending.len as usize + 1);
                    self.pending = Pending::default();
                }
                Event::Pending => self.pending.push(b),
                Event::Reject { .. } => {
                    let e = self.pending.error(&chunk[i..=i], self.offset);
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
            None if self.pending.len > 0 => Err(self.pending.error(&[], self.offset)),
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
    pub fn decode_to_string(&mut self, chunk: &[u8], out: &mut alloc::string::String) {
        self.decode(chunk, |c| out.push(c));
    }

    /// Ends the input: one U+FFFD if it ended inside a character.
    pub fn finish(self, mut emit: impl FnMut(char)) {
        if self.core.state != ACCEPT {
            emit(char::REPLACEMENT_CHARACTER);
        }
    }
}
