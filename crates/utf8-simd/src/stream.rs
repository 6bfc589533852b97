//! [`Validator`]: chunked validation with exact absolute error offsets.
//!
//! The state is what a character split between two chunks needs (at most 3
//! bytes and their count), the absolute position of the next chunk, and the
//! first error once there is one. Each `update`:
//!
//! 1. finishes the character left over from the previous chunk, taking at
//!    most 3 bytes from this one, and checks it with the scalar path;
//! 2. finds where this chunk's own unfinished last character starts (a lead
//!    byte among its last 3 bytes that needs more bytes than remain), and
//!    runs the SIMD kernel on everything before it, so valid text split
//!    mid-character never takes the error path;
//! 3. keeps the unfinished character for the next call, after checking that
//!    it is a valid start of one.
//!
//! Every error comes from the one-shot exact path on a slice of the chunk
//! (or on the 4-byte scratch buffer of step 1), moved with `offset_by` to its
//! absolute position, so it is exactly what `core::str::from_utf8` reports on
//! the concatenation of all chunks.

use codec_core::{StreamingValidator, Utf8Error};

/// A streaming UTF-8 validator with std-exact, absolute error positions.
///
/// Feed chunks with [`update`](Validator::update) and end with
/// [`finish`](Validator::finish). An error is returned by the `update` whose
/// chunk holds the byte that proves it (only an input that stops inside a
/// character waits for `finish`), its `valid_up_to` counts from the first
/// byte of the first chunk, and it is sticky. The validator keeps at most 3
/// bytes of input, whatever the chunk sizes.
///
/// ```
/// use utf8_simd::Validator;
///
/// let mut v = Validator::new();
/// assert!(v.update("caf".as_bytes()).is_ok());
/// assert!(v.update(b"\xC3").is_ok()); // the first byte of 'é'
/// let err = v.update(b"\xA9 ok \xFF").unwrap_err();
/// assert_eq!((err.valid_up_to(), err.error_len()), (9, Some(1)));
/// assert_eq!(v.finish(), Err(err)); // sticky
/// ```
#[derive(Clone, Debug, Default)]
pub struct Validator {
    /// Bytes of a character that the previous chunks did not finish.
    pending: [u8; 3],
    /// How many bytes of `pending` are in use (0 to 3).
    pending_len: u8,
    /// The absolute position of the next chunk's first byte.
    offset: usize,
    /// The first error, once found.
    error: Option<Utf8Error>,
}

/// The length of a character that starts with the lead byte `b`, for the
/// leads that start one (`C2..=F4`); 1 for anything else.
const fn char_len(b: u8) -> usize {
    match b {
        0xC2..=0xDF => 2,
        0xE0..=0xEF => 3,
        0xF0..=0xF4 => 4,
        _ => 1,
    }
}

/// Where the unfinished character at the end of `chunk` starts: the last
/// lead byte among the final 3 bytes if its character needs more bytes than
/// the chunk has left, else `chunk.len()`.
fn unfinished_start(chunk: &[u8]) -> usize {
    let n = chunk.len();
    for back in 1..=n.min(3) {
        let b = chunk[n - back];
        if b & 0xC0 != 0x80 {
            return if char_len(b) > back { n - back } else { n };
        }
    }
    n
}

impl Validator {
    /// A validator at the start of an input.
    pub const fn new() -> Self {
        Validator {
            pending: [0; 3],
            pending_len: 0,
            offset: 0,
            error: None,
        }
    }

    /// Feeds the next chunk; see the type's docs for when errors are
    /// returned.
    pub fn update(&mut self, chunk: &[u8]) -> Result<(), Utf8Error> {
        if let Some(e) = self.error {
            return Err(e);
        }
        match self.update_inner(chunk) {
            Ok(()) => Ok(()),
            Err(e) => {
                self.error = Some(e);
                Err(e)
            }
        }
    }

    fn update_inner(&mut self, chunk: &[u8]) -> Result<(), Utf8Error> {
        let mut rest = chunk;
        // 1. The character left over from earlier chunks.
        if self.pending_len > 0 {
            let have = usize::from(self.pending_len);
            let need = char_len(self.pending[0]);
            let take = (need - have).min(rest.len());
            let mut buf = [0u8; 4];
            buf[..have].copy_from_slice(&self.pending[..have]);
            buf[have..have + take].copy_from_slice(&rest[..take]);
            let start = self.offset - have;
            match utf8_dfa::validate(&buf[..have + take]) {
                Ok(()) => {}
                Err(e) if e.error_len().is_none() => {
                    // Still unfinished: this chunk was too short.
                    self.pending[..have + take].copy_from_slice(&buf[..have + take]);
                    self.pending_len = (have + take) as u8;
                    self.offset = self.offset.saturating_add(take);
                    return Ok(());
                }
                Err(e) => return Err(e.offset_by(start)),
            }
            self.pending_len = 0;
            self.offset = self.offset.saturating_add(take);
            rest = &rest[take..];
        }
        // 2. Everything up to this chunk's own unfinished character.
        let split = unfinished_start(rest);
        let (body, tail) = rest.split_at(split);
        let base = self.offset;
        match crate::validate(body) {
            Ok(()) => {}
            // The body ends inside a character because the unfinished tail
            // did not continue it: let the exact path see the tail too.
            Err(e) if e.error_len().is_none() => {
                let v = e.valid_up_to();
                return match utf8_dfa::validate(&rest[v..]) {
                    Err(e) => Err(e.offset_by(base.saturating_add(v))),
                    // Unreachable: the tail starts with a lead byte.
                    Ok(()) => Err(e.offset_by(base)),
                };
            }
            Err(e) => return Err(e.offset_by(base)),
        }
        // 3. The unfinished character: valid so far, or an error now.
        if let Err(e) = utf8_dfa::validate(tail)
            && e.error_len().is_some()
        {
            return Err(e.offset_by(base.saturating_add(split)));
        }
        self.pending[..tail.len()].copy_from_slice(tail);
        self.pending_len = tail.len() as u8;
        self.offset = base.saturating_add(rest.len());
        Ok(())
    }

    /// Ends the input: the earlier error if there was one, an
    /// [`Incomplete`](codec_core::Utf8ErrorKind::Incomplete) error if the
    /// input stopped inside a character, else `Ok(())`.
    pub fn finish(self) -> Result<(), Utf8Error> {
        if let Some(e) = self.error {
            return Err(e);
        }
        let have = usize::from(self.pending_len);
        if have == 0 {
            return Ok(());
        }
        Err(Utf8Error::at(&self.pending[..have], 0).offset_by(self.offset - have))
    }

    /// How many bytes have been fed so far.
    pub const fn position(&self) -> usize {
        self.offset
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
