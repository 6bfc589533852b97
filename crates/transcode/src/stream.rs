//! Streaming: conversions fed chunk by chunk, which carry a character (or
//! surrogate pair) split between two chunks and report errors at their
//! absolute position in the whole stream.
//!
//! - [`Utf8ToUtf16Stream`]: UTF-8 chunks to UTF-16.
//! - [`Utf16ToUtf8Stream`]: UTF-16 chunks to UTF-8.
//!
//! Both have a strict mode (the first error stops the stream, and stays) and
//! a lossy mode (errors become U+FFFD exactly where a one-shot lossy
//! conversion of the concatenated chunks puts them). Each `push` converts as
//! much of its chunk as fits into the output and says how much it read;
//! the caller passes the rest again with more room. `finish` ends the
//! stream: a character left unfinished is an error, or one U+FFFD.
//!
//! The UTF-8 side carries with the workspace's streaming engine
//! (`codec_core::stream::Carry`, cut by `codec_core::utf8::unfinished_start`,
//! the rule every streaming UTF-8 consumer in the workspace follows); the
//! UTF-16 side carries one lead surrogate.

use crate::Transcoder;
use crate::error::{Error, ErrorKind, Progress, Utf16Error, Utf16ErrorKind};
use crate::scalar::{is_lead, is_trail};
use codec_core::stream::Carry;
use codec_core::utf8::unfinished_start;
use codec_core::{BufferTooSmall, Utf8Error};

/// Streaming UTF-8 → UTF-16, strict or lossy.
///
/// ```
/// use transcode::Utf8ToUtf16Stream;
///
/// let text = "añ€😀".as_bytes();
/// let mut s = Utf8ToUtf16Stream::new();
/// let mut out = Vec::new();
/// let mut buf = [0u16; 8];
/// for chunk in text.chunks(3) {
///     let p = s.push(chunk, &mut buf)?;
///     assert_eq!(p.read(), chunk.len()); // the buffer is large enough
///     out.extend_from_slice(&buf[..p.written()]);
/// }
/// let n = s.finish(&mut buf)?;
/// out.extend_from_slice(&buf[..n]);
/// assert_eq!(out, "añ€😀".encode_utf16().collect::<Vec<_>>());
/// # Ok::<(), transcode::Error<transcode::Utf8Error>>(())
/// ```
#[derive(Clone, Debug)]
pub struct Utf8ToUtf16Stream {
    t: Transcoder,
    lossy: bool,
    /// The start of a character split at the end of the last chunk (the
    /// workspace's streaming engine): always a valid start of one.
    carry: Carry,
    /// Bytes of input consumed so far, including the carried ones.
    position: usize,
    /// The first error, in strict mode: every later call returns it.
    error: Option<Error<Utf8Error>>,
}

impl Default for Utf8ToUtf16Stream {
    fn default() -> Self {
        Self::new()
    }
}

impl Utf8ToUtf16Stream {
    /// A strict stream: the first error ends it.
    #[must_use]
    pub fn new() -> Self {
        Self::with(Transcoder::new(), false)
    }

    /// A lossy stream: each maximal invalid subpart becomes U+FFFD, as
    /// `String::from_utf8_lossy` on the whole input.
    #[must_use]
    pub fn lossy() -> Self {
        Self::with(Transcoder::new(), true)
    }

    /// A stream with the given kernels and mode.
    #[must_use]
    pub fn with(t: Transcoder, lossy: bool) -> Self {
        Utf8ToUtf16Stream {
            t,
            lossy,
            carry: Carry::new(),
            position: 0,
            error: None,
        }
    }

    /// Bytes of input consumed so far (including a split character's first
    /// bytes, which wait for the next chunk).
    #[must_use]
    pub fn position(&self) -> usize {
        self.position
    }

    /// Converts as much of `src` as fits into `dst`. `read() < src.len()`
    /// means `dst` is full: call again with `&src[read..]` and more room
    /// (a character carried from the last chunk waits for room for 2
    /// units). Errors count bytes from the start of the stream and are
    /// sticky; their `read` and `written` count this call's input and
    /// output.
    pub fn push(&mut self, src: &[u8], dst: &mut [u16]) -> Result<Progress, Error<Utf8Error>> {
        if let Some(e) = self.error {
            return Err(e);
        }
        let (mut read, mut written) = (0, 0);
        // 1. The character split at the end of the last chunk, once there is
        // room for what it makes (2 units at most).
        if !self.carry.is_empty() {
            if dst.len() < 2 {
                return Ok(Progress::new(0, 0));
            }
            let old = self.carry.len();
            let start = self.position - old;
            let took = self.carry.fill(src);
            let bytes = self.carry.as_bytes();
            let whole = crate::scalar::decode_valid_utf8(bytes).filter(|&(_, l)| l == bytes.len());
            // Checked at once, complete or not, so that the carry only ever
            // holds a valid start of a character.
            let error = Utf8Error::at(bytes, 0);
            match whole {
                Some((c, _)) => {
                    let mut units = [0u16; 2];
                    let units = c.encode_utf16(&mut units);
                    let Some(out) = dst.get_mut(..units.len()) else {
                        // Cannot happen: there is room for 2 units.
                        self.position += took;
                        return Ok(Progress::new(took, 0));
                    };
                    out.copy_from_slice(units);
                    written += units.len();
                    read = took;
                }
                None if error.error_len().is_none() => {
                    // Still a valid start: this chunk ran out before the
                    // character's end.
                    self.position += took;
                    return Ok(Progress::new(took, 0));
                }
                None => {
                    // The carried bytes were a valid start, so the invalid
                    // piece covers them all, and perhaps some of ours.
                    let e = error.offset_by(start);
                    let n = e.error_len().unwrap_or(bytes.len());
                    if !self.lossy {
                        let err = Error::new(0, 0, ErrorKind::Invalid(e));
                        self.error = Some(err);
                        return Err(err);
                    }
                    if let Some(slot) = dst.first_mut() {
                        *slot = 0xFFFD;
                        written = 1;
                    }
                    read = n.saturating_sub(old);
                }
            }
            self.position = start + old + read;
            self.carry.clear();
        }
        // 2. The chunk, up to its own unfinished last character if that is a
        // valid start of one (which is carried).
        let rest = src.get(read..).unwrap_or(&[]);
        let cut = unfinished_start(rest);
        let tail = rest.get(cut..).unwrap_or(&[]);
        let carry_tail = !tail.is_empty() && Utf8Error::at(tail, 0).error_len().is_none();
        let body = if carry_tail { &rest[..cut] } else { rest };
        let out = dst.get_mut(written..).unwrap_or(&mut []);
        let converted = if self.lossy {
            Ok(self.t.utf8_to_utf16_lossy_partial(body, out))
        } else {
            self.t.utf8_to_utf16_partial(body, out)
        };
        match converted {
            Ok(p) => {
                read += p.read();
                written += p.written();
                self.position += p.read();
                if p.read() == body.len() && carry_tail {
                    let _ = self.carry.split_off(rest);
                    read += tail.len();
                    self.position += tail.len();
                }
                Ok(Progress::new(read, written))
            }
            Err(e) => {
                let at = self.position;
                let inner = match e.invalid() {
                    // The body ended inside a character whose next bytes
                    // (the carried ones) do not continue it: the whole
                    // chunk decides the error.
                    Some(u) if u.error_len().is_none() => Utf8Error::at(rest, u.valid_up_to()),
                    Some(&u) => u,
                    None => Utf8Error::at(rest, e.read()),
                };
                let err = Error::new(
                    read + e.read(),
                    written + e.written(),
                    ErrorKind::Invalid(inner.offset_by(at)),
                );
                self.position += e.read();
                self.error = Some(err);
                Err(err)
            }
        }
    }

    /// Ends the stream: writes a U+FFFD for an unfinished character (lossy)
    /// or returns it as an [`Incomplete`](codec_core::Utf8ErrorKind::Incomplete)
    /// error (strict). Returns the `u16`s written (0 or 1).
    pub fn finish(&mut self, dst: &mut [u16]) -> Result<usize, Error<Utf8Error>> {
        if let Some(e) = self.error {
            return Err(e);
        }
        if self.carry.is_empty() {
            return Ok(0);
        }
        let start = self.position - self.carry.len();
        let e = Utf8Error::at(self.carry.as_bytes(), 0).offset_by(start);
        if !self.lossy {
            let err = Error::new(0, 0, ErrorKind::Invalid(e));
            self.error = Some(err);
            return Err(err);
        }
        let Some(slot) = dst.first_mut() else {
            return Err(Error::new(
                0,
                0,
                ErrorKind::BufferTooSmall(BufferTooSmall::new(1, 0)),
            ));
        };
        *slot = 0xFFFD;
        self.carry.clear();
        Ok(1)
    }
}

/// Streaming UTF-16 → UTF-8, strict or lossy: carries a lead surrogate at
/// the end of a chunk to the next one.
///
/// ```
/// use transcode::Utf16ToUtf8Stream;
///
/// let units: Vec<u16> = "a😀b".encode_utf16().collect(); // the pair is units 1 and 2
/// let mut s = Utf16ToUtf8Stream::new();
/// let mut out = Vec::new();
/// let mut buf = [0u8; 16];
/// for chunk in units.chunks(2) {
///     let p = s.push(chunk, &mut buf)?;
///     out.extend_from_slice(&buf[..p.written()]);
/// }
/// let n = s.finish(&mut buf)?;
/// out.extend_from_slice(&buf[..n]);
/// assert_eq!(out, "a😀b".as_bytes());
/// # Ok::<(), transcode::Error<transcode::Utf16Error>>(())
/// ```
#[derive(Clone, Debug)]
pub struct Utf16ToUtf8Stream {
    t: Transcoder,
    lossy: bool,
    /// A lead surrogate that ended the last chunk.
    pending: Option<u16>,
    /// Units consumed so far, including a pending lead.
    position: usize,
    error: Option<Error<Utf16Error>>,
}

impl Default for Utf16ToUtf8Stream {
    fn default() -> Self {
        Self::new()
    }
}

impl Utf16ToUtf8Stream {
    /// A strict stream: the first unpaired surrogate ends it.
    #[must_use]
    pub fn new() -> Self {
        Self::with(Transcoder::new(), false)
    }

    /// A lossy stream: unpaired surrogates become U+FFFD, as
    /// `String::from_utf16_lossy` on the whole input.
    #[must_use]
    pub fn lossy() -> Self {
        Self::with(Transcoder::new(), true)
    }

    /// A stream with the given kernels and mode.
    #[must_use]
    pub fn with(t: Transcoder, lossy: bool) -> Self {
        Utf16ToUtf8Stream {
            t,
            lossy,
            pending: None,
            position: 0,
            error: None,
        }
    }

    /// Units of input consumed so far.
    #[must_use]
    pub fn position(&self) -> usize {
        self.position
    }

    /// Converts as much of `src` as fits into `dst`; see
    /// [`Utf8ToUtf16Stream::push`] (a lead carried from the last chunk waits
    /// for room for 4 bytes).
    pub fn push(&mut self, src: &[u16], dst: &mut [u8]) -> Result<Progress, Error<Utf16Error>> {
        if let Some(e) = self.error {
            return Err(e);
        }
        let (mut read, mut written) = (0, 0);
        if let Some(lead) = self.pending {
            // Room for what the pending lead makes: 4 bytes at most.
            let Some(&next) = src.first().filter(|_| dst.len() >= 4) else {
                return Ok(Progress::new(0, 0));
            };
            if is_trail(next) {
                let n = self.t.utf16_to_utf8(&[lead, next], dst);
                let Ok(n) = n else {
                    return Ok(Progress::new(0, 0));
                };
                written += n;
                read += 1;
                self.position += 1;
            } else {
                let e = Utf16Error::new(self.position - 1, Utf16ErrorKind::UnpairedLead);
                if !self.lossy {
                    let err = Error::new(0, 0, ErrorKind::Invalid(e));
                    self.error = Some(err);
                    return Err(err);
                }
                let Some(out) = dst.get_mut(..3) else {
                    return Ok(Progress::new(0, 0));
                };
                out.copy_from_slice("\u{FFFD}".as_bytes());
                written += 3;
            }
            self.pending = None;
        }
        let rest = &src[read..];
        let ends_with_lead = rest.last().is_some_and(|&u| is_lead(u));
        let body = if ends_with_lead {
            &rest[..rest.len() - 1]
        } else {
            rest
        };
        let out = if self.lossy {
            Ok(self
                .t
                .utf16_to_utf8_lossy_partial(body, &mut dst[written..]))
        } else {
            self.t.utf16_to_utf8_partial(body, &mut dst[written..])
        };
        match out {
            Ok(p) => {
                read += p.read();
                written += p.written();
                self.position += p.read();
                if p.read() == body.len() && ends_with_lead {
                    self.pending = rest.last().copied();
                    self.position += 1;
                    read += 1;
                }
                Ok(Progress::new(read, written))
            }
            Err(e) => {
                let kind = match e.invalid() {
                    // A lead at the end of the body is followed by the lead
                    // held back for the next chunk: unpaired.
                    Some(u) if u.kind() == Utf16ErrorKind::Incomplete && ends_with_lead => {
                        ErrorKind::Invalid(
                            Utf16Error::new(u.valid_up_to(), Utf16ErrorKind::UnpairedLead)
                                .offset_by(self.position),
                        )
                    }
                    Some(u) => ErrorKind::Invalid(u.offset_by(self.position)),
                    None => ErrorKind::BufferTooSmall(BufferTooSmall::new(0, 0)),
                };
                let err = Error::new(read + e.read(), written + e.written(), kind);
                self.position += e.read();
                self.error = Some(err);
                Err(err)
            }
        }
    }

    /// Ends the stream: a lead surrogate left over is an
    /// [`Incomplete`](Utf16ErrorKind::Incomplete) error (strict) or one
    /// U+FFFD (lossy). Returns the bytes written (0 or 3).
    pub fn finish(&mut self, dst: &mut [u8]) -> Result<usize, Error<Utf16Error>> {
        if let Some(e) = self.error {
            return Err(e);
        }
        if self.pending.is_none() {
            return Ok(0);
        }
        if !self.lossy {
            let e = Utf16Error::new(self.position - 1, Utf16ErrorKind::Incomplete);
            let err = Error::new(0, 0, ErrorKind::Invalid(e));
            self.error = Some(err);
            return Err(err);
        }
        let Some(out) = dst.get_mut(..3) else {
            return Err(Error::new(
                0,
                0,
                ErrorKind::BufferTooSmall(BufferTooSmall::new(3, dst.len())),
            ));
        };
        out.copy_from_slice("\u{FFFD}".as_bytes());
        self.pending = None;
        Ok(3)
    }
}
