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
//! This layer is kept thin on purpose: the lead is adding a generic
//! `no_std` streaming engine to codec-core (carry of a split character,
//! absolute offsets), and these types will move onto it.

use crate::error::{Error, ErrorKind, Progress, Utf16Error, Utf16ErrorKind};
use crate::scalar::{is_lead, is_trail};
use crate::{Transcoder, floor_char_boundary_utf8};
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
    /// The start of a character split at the end of the last chunk.
    pending: [u8; 4],
    pending_len: usize,
    /// Bytes of input consumed so far, including the pending ones.
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
            pending: [0; 4],
            pending_len: 0,
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
    /// means `dst` is full: call again with `&src[read..]`. Errors count
    /// bytes from the start of the stream and are sticky.
    pub fn push(&mut self, src: &[u8], dst: &mut [u16]) -> Result<Progress, Error<Utf8Error>> {
        if let Some(e) = self.error {
            return Err(e);
        }
        let (mut read, mut written) = (0, 0);
        // 1. Finish a character split at the end of the last chunk: the
        // pending bytes are a valid start of one, so the maximal invalid
        // subpart, if there is one, covers all of them.
        if self.pending_len > 0 {
            let plen = self.pending_len;
            let take = 3.min(src.len());
            let mut buf = [0u8; 8];
            buf[..plen].copy_from_slice(&self.pending[..plen]);
            buf[plen..plen + take].copy_from_slice(&src[..take]);
            let buf = &buf[..plen + take];
            let start = self.position - plen;
            match crate::scalar::decode_valid_utf8(buf) {
                Some((c, len)) => {
                    let mut units = [0u16; 2];
                    let units = c.encode_utf16(&mut units);
                    let Some(out) = dst.get_mut(..units.len()) else {
                        return Ok(Progress::new(0, 0));
                    };
                    out.copy_from_slice(units);
                    written += units.len();
                    read += len - plen;
                }
                None => {
                    let e = Utf8Error::at(buf, 0);
                    let Some(n) = e.error_len() else {
                        // Still unfinished: this chunk is shorter than what
                        // the character needs.
                        self.pending[plen..plen + take].copy_from_slice(&src[..take]);
                        self.pending_len += take;
                        self.position += take;
                        return Ok(Progress::new(take, 0));
                    };
                    if !self.lossy {
                        let err = Error::new(0, 0, ErrorKind::Invalid(e.offset_by(start)));
                        self.error = Some(err);
                        return Err(err);
                    }
                    let Some(slot) = dst.first_mut() else {
                        return Ok(Progress::new(0, 0));
                    };
                    *slot = 0xFFFD;
                    written += 1;
                    read += n.saturating_sub(plen);
                }
            }
            self.position += read;
            self.pending_len = 0;
        }
        // 2. The rest of the chunk, up to its own unfinished last character.
        let rest = &src[read..];
        let cut = floor_char_boundary_utf8(rest, rest.len());
        let tail = &rest[cut..];
        let cut = if !tail.is_empty() && Utf8Error::at(tail, 0).error_len().is_none() {
            cut
        } else {
            rest.len()
        };
        let body = &rest[..cut];
        let out = if self.lossy {
            Ok(self
                .t
                .utf8_to_utf16_lossy_partial(body, &mut dst[written..]))
        } else {
            self.t.utf8_to_utf16_partial(body, &mut dst[written..])
        };
        match out {
            Ok(p) => {
                read += p.read();
                written += p.written();
                self.position += p.read();
                if p.read() == body.len() && cut < rest.len() {
                    let tail = &rest[cut..];
                    self.pending[..tail.len()].copy_from_slice(tail);
                    self.pending_len = tail.len();
                    self.position += tail.len();
                    read += tail.len();
                }
                Ok(Progress::new(read, written))
            }
            Err(e) => {
                let inner = e.invalid().copied().map(|u| u.offset_by(self.position));
                let kind = match inner {
                    Some(u) => ErrorKind::Invalid(u),
                    None => ErrorKind::BufferTooSmall(BufferTooSmall::new(0, 0)),
                };
                let err = Error::new(read + e.read(), written + e.written(), kind);
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
        if self.pending_len == 0 {
            return Ok(0);
        }
        let start = self.position - self.pending_len;
        let e = Utf8Error::at(&self.pending[..self.pending_len], 0).offset_by(start);
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
        self.pending_len = 0;
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
    /// [`Utf8ToUtf16Stream::push`].
    pub fn push(&mut self, src: &[u16], dst: &mut [u8]) -> Result<Progress, Error<Utf16Error>> {
        if let Some(e) = self.error {
            return Err(e);
        }
        let (mut read, mut written) = (0, 0);
        if let Some(lead) = self.pending {
            let Some(&next) = src.first() else {
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
