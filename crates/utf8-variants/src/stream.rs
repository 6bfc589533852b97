//! [`Validator`]: chunked validation with exact absolute error offsets.
//!
//! The state is the encoding's DFA state at the end of what was fed, the
//! bytes since the DFA was last between characters (at most 5: a CESU-8
//! lead surrogate and the first two bytes of its trail), and whether that
//! was right after a lead surrogate (WTF-8). Each `update`:
//!
//! 1. walks the DFA byte by byte until it is between characters again
//!    (at most 5 bytes, or a run of WTF-8 lead surrogates), so a character
//!    or a surrogate pair split between chunks is finished exactly;
//! 2. validates the rest of the chunk in one call, with the SIMD path;
//! 3. if that says the chunk ends inside a character or a pair
//!    (`error_len() == None`), keeps those bytes for the next chunk.
//!
//! Every error is built by [`Error::at`] from the bytes that hold it and
//! moved to its absolute position, so it is exactly the one-call error on
//! the concatenation of the chunks, and it is returned by the `update`
//! whose chunk holds the byte that proves it.

use crate::error::{Error, is_lead_surrogate};
use crate::scalar::Dfa;
use crate::variant::{Config, Variant};

/// A canonical lead surrogate, put before the pending bytes where the DFA
/// was after one, so that [`Error::at`] sees the context of a WTF-8
/// [`SurrogatePair`](crate::ErrorKind::SurrogatePair) error.
const LEAD: [u8; 3] = [0xED, 0xA0, 0x80];

/// A streaming validator with exact, absolute error positions, for any
/// [`Variant`] and [`BomPolicy`](crate::BomPolicy).
///
/// Feed chunks with [`update`](Validator::update) and end with
/// [`finish`](Validator::finish). An error is returned by the `update` whose
/// chunk holds the byte that proves it (only an input that stops inside a
/// character or a surrogate pair waits for `finish`), its `valid_up_to`
/// counts from the first byte of the first chunk, and it is sticky. The
/// validator keeps at most 5 bytes of input, whatever the chunk sizes.
///
/// ```
/// use utf8_variants::{ErrorKind, Variant};
///
/// // U+1F600 in CESU-8 is ED A0 BD ED B8 80: split it anywhere.
/// let mut v = Variant::Cesu8.validator();
/// v.update(b"ok \xED\xA0").unwrap();
/// v.update(b"\xBD\xED").unwrap();
/// v.update(b"\xB8\x80 and a lone \xED\xA0\xBD").unwrap(); // fine so far...
/// let err = v.update(b"!").unwrap_err(); // ...until no trail follows
/// assert_eq!((err.valid_up_to(), err.error_len()), (21, Some(3)));
/// assert_eq!(err.kind(), ErrorKind::UnpairedSurrogate);
/// assert_eq!(v.finish(), Err(err)); // sticky
/// ```
#[derive(Clone, Debug)]
pub struct Validator {
    config: Config,
    /// The DFA state after everything fed (UTF-8: unused).
    state: u8,
    /// The bytes since the DFA was last between characters.
    pending: [u8; 5],
    pending_len: u8,
    /// Whether the DFA was after a lead surrogate when last between
    /// characters (WTF-8).
    after_lead: bool,
    /// The absolute position where the DFA was last between characters.
    last_accept: usize,
    /// How many bytes have been fed.
    fed: usize,
    /// The first three bytes, for the byte-order mark check.
    head: [u8; 3],
    /// UTF-8 goes to utf8-simd's streaming validator.
    utf8: utf8_simd::Validator,
    error: Option<Error>,
}

impl Validator {
    /// A validator at the start of an input.
    #[must_use]
    pub const fn new(config: Config) -> Validator {
        Validator {
            config,
            state: 0,
            pending: [0; 5],
            pending_len: 0,
            after_lead: false,
            last_accept: 0,
            fed: 0,
            head: [0; 3],
            utf8: utf8_simd::Validator::with_validator(utf8_simd::Simd),
            error: None,
        }
    }

    /// Feeds the next chunk; see the type's docs for when errors are
    /// returned.
    pub fn update(&mut self, chunk: &[u8]) -> Result<(), Error> {
        let result = match self.error {
            Some(e) => Err(e),
            None => self.update_inner(chunk),
        };
        self.fed = self.fed.saturating_add(chunk.len());
        if let Err(e) = result {
            self.error = Some(e);
        }
        result
    }

    /// Ends the input: the earlier error if there was one, an
    /// [`Incomplete`](crate::ErrorKind::Incomplete) error if the input
    /// stopped inside a character or a surrogate pair, else `Ok(())`.
    pub fn finish(self) -> Result<(), Error> {
        if let Some(e) = self.error {
            return Err(e);
        }
        let Some(dfa) = Dfa::of(self.config.variant()) else {
            return self.utf8.finish().map_err(Error::from_utf8);
        };
        if dfa.accepts(self.state) {
            return Ok(());
        }
        let (buf, ctx) = self.context();
        let len = ctx + usize::from(self.pending_len);
        Err(Error::at(self.config.variant(), &buf[..len], ctx, None)
            .offset_by(self.last_accept.saturating_sub(ctx)))
    }

    /// How many bytes have been fed so far (after an error too).
    #[must_use]
    pub const fn position(&self) -> usize {
        self.fed
    }

    /// The configuration.
    #[must_use]
    pub const fn config(&self) -> Config {
        self.config
    }

    /// The pending bytes after their context: a lead surrogate where the
    /// DFA was after one. Returns the buffer and the context's length.
    fn context(&self) -> ([u8; 9], usize) {
        let mut buf = [0u8; 9];
        let ctx = if self.after_lead { LEAD.len() } else { 0 };
        buf[..ctx].copy_from_slice(&LEAD[..ctx]);
        let n = usize::from(self.pending_len);
        buf[ctx..ctx + n].copy_from_slice(&self.pending[..n]);
        (buf, ctx)
    }

    fn update_inner(&mut self, chunk: &[u8]) -> Result<(), Error> {
        let variant = self.config.variant();
        let start = self.fed;
        // The byte-order mark, once its three bytes are in.
        if start < 3 {
            let take = (3 - start).min(chunk.len());
            self.head[start..start + take].copy_from_slice(&chunk[..take]);
            if start + take == 3 && self.config.rejects_bom_of(&self.head) {
                return Err(Error::bom(variant));
            }
        }
        let Some(dfa) = Dfa::of(variant) else {
            return self.utf8.update(chunk).map_err(Error::from_utf8);
        };
        // 1. Byte by byte until the DFA is between characters (and, for
        //    WTF-8, not after a lead surrogate).
        let mut i = 0;
        while self.state != 0 && i < chunk.len() {
            let b = chunk[i];
            self.state = dfa.step(self.state, b);
            i += 1;
            if dfa.accepts(self.state) {
                self.last_accept = start + i;
                self.pending_len = 0;
                self.after_lead = self.state != 0;
            } else if dfa.rejects(self.state) {
                let (mut buf, ctx) = self.context();
                let r = ctx + usize::from(self.pending_len);
                buf[r] = b;
                return Err(Error::at(variant, &buf[..=r], ctx, Some(r))
                    .offset_by(self.last_accept.saturating_sub(ctx)));
            } else {
                // At most 5 bytes pass here without an accepting state.
                let n = usize::from(self.pending_len);
                if let Some(slot) = self.pending.get_mut(n) {
                    *slot = b;
                    self.pending_len += 1;
                }
            }
        }
        // 2. The rest of the chunk in one call.
        let rest = &chunk[i..];
        if rest.is_empty() {
            return Ok(());
        }
        let base = start + i;
        match variant.validate(rest) {
            Ok(()) => {
                self.last_accept = base + rest.len();
                self.pending_len = 0;
                // A chunk may end with a WTF-8 lead surrogate, which the next
                // chunk must not follow with a trail.
                self.after_lead = variant == Variant::Wtf8
                    && rest.len() >= 3
                    && is_lead_surrogate(&rest[rest.len() - 3..]);
                self.state = if self.after_lead {
                    crate::tables::wtf8::AFTER_LEAD
                } else {
                    0
                };
                Ok(())
            }
            // 3. The chunk ends inside a character or a pair: keep it.
            Err(e) if e.error_len().is_none() => {
                let v = e.valid_up_to();
                self.last_accept = base + v;
                self.after_lead =
                    variant == Variant::Wtf8 && v >= 3 && is_lead_surrogate(&rest[v - 3..]);
                self.state = if self.after_lead {
                    crate::tables::wtf8::AFTER_LEAD
                } else {
                    0
                };
                let tail = &rest[v..];
                for &b in tail {
                    self.state = dfa.step(self.state, b);
                }
                let n = tail.len().min(self.pending.len());
                self.pending[..n].copy_from_slice(&tail[..n]);
                self.pending_len = n as u8;
                Ok(())
            }
            Err(e) => Err(e.offset_by(base)),
        }
    }
}

impl Default for Validator {
    /// A UTF-8 validator that accepts a byte-order mark.
    fn default() -> Self {
        Validator::new(Config::new(Variant::Utf8))
    }
}
