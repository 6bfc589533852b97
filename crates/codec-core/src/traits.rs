//! The traits every UTF-8 codec implements, so that generic code, the facade
//! and the test harnesses can swap one codec for another.

use crate::Utf8Error;

/// A whole-buffer UTF-8 validator with exactly the semantics of
/// [`core::str::from_utf8`].
///
/// One method is required, [`validate`](Utf8Validator::validate); the rest are
/// provided. Each codec crate implements it on a unit struct and also offers
/// the same operations as free functions (`validate`, `from_utf8`).
///
/// The trait is object safe, so a test or a benchmark can hold a list of
/// `&dyn Utf8Validator`.
///
/// # Example
///
/// ```
/// use codec_core::{Utf8Error, Utf8Validator};
///
/// /// A validator that defers to the standard library.
/// struct Std;
///
/// impl Utf8Validator for Std {
///     fn validate(&self, input: &[u8]) -> Result<(), Utf8Error> {
///         core::str::from_utf8(input)
///             .map(|_| ())
///             .map_err(|e| Utf8Error::from_std(e, input))
///     }
/// }
///
/// fn count_valid(v: &dyn Utf8Validator, lines: &[&[u8]]) -> usize {
///     lines.iter().filter(|l| v.is_valid(l)).count()
/// }
/// assert_eq!(count_valid(&Std, &[b"ok", b"\xFF", "é".as_bytes()]), 2);
/// assert_eq!(Std.from_utf8(b"hi"), Ok("hi"));
/// ```
pub trait Utf8Validator {
    /// `Ok(())` if `input` is well-formed UTF-8, otherwise the first error,
    /// with `valid_up_to` and `error_len` equal to what
    /// `core::str::from_utf8(input)` reports.
    fn validate(&self, input: &[u8]) -> Result<(), Utf8Error>;

    /// Whether `input` is well-formed UTF-8.
    ///
    /// Implementations may override this with a faster path that does not
    /// track positions.
    fn is_valid(&self, input: &[u8]) -> bool {
        self.validate(input).is_ok()
    }

    /// `input` as a `&str` if it is well-formed UTF-8.
    ///
    /// The provided version validates with [`validate`](Utf8Validator::validate)
    /// and then converts with `core::str::from_utf8`, because this crate
    /// forbids `unsafe` and so cannot skip the second check. Codecs that may
    /// use `unsafe` override it with an unchecked conversion.
    // Named after `core::str::from_utf8`, which is the point, although clippy
    // expects `from_*` to be a constructor.
    #[allow(clippy::wrong_self_convention)]
    fn from_utf8<'a>(&self, input: &'a [u8]) -> Result<&'a str, Utf8Error> {
        self.validate(input)?;
        core::str::from_utf8(input).map_err(|e| Utf8Error::from_std(e, input))
    }

    /// `input` as a `&mut str` if it is well-formed UTF-8, like
    /// `core::str::from_utf8_mut`.
    ///
    /// The provided version re-checks with std, as
    /// [`from_utf8`](Utf8Validator::from_utf8) does; codecs that may use
    /// `unsafe` override it.
    #[allow(clippy::wrong_self_convention)] // As for `from_utf8`.
    fn from_utf8_mut<'a>(&self, input: &'a mut [u8]) -> Result<&'a mut str, Utf8Error> {
        self.validate(input)?;
        // Checked without `mut` first: a conditional return of the mutable
        // borrow would keep `input` borrowed in the error arm.
        if let Err(e) = core::str::from_utf8(input) {
            return Err(Utf8Error::from_std(e, input));
        }
        Ok(core::str::from_utf8_mut(input).unwrap_or_default())
    }

    /// The longest valid prefix of `input` as a `&str`, and the error that
    /// ends it (`None` when all of `input` is valid): one step of a lossy
    /// walk, as [`Utf8Chunks`](crate::chunks::Utf8Chunks) takes it.
    ///
    /// Its work should grow with the length of the prefix, not of `input`,
    /// because a lossy walk calls it again after every error. The provided
    /// version validates and then converts the prefix with
    /// `core::str::from_utf8`, a second pass over it; codecs that may use
    /// `unsafe` override it with an unchecked conversion (and utf8-dfa with
    /// a walk tuned for errors that come in clusters).
    ///
    /// ```
    /// use codec_core::{Utf8Error, Utf8Validator};
    /// struct Std;
    /// impl Utf8Validator for Std {
    ///     fn validate(&self, input: &[u8]) -> Result<(), Utf8Error> {
    ///         core::str::from_utf8(input).map(drop).map_err(|e| Utf8Error::from_std(e, input))
    ///     }
    /// }
    /// let (valid, err) = Std.valid_prefix(b"ok\xFFmore");
    /// assert_eq!(valid, "ok");
    /// assert_eq!(err.map(|e| (e.valid_up_to(), e.error_len())), Some((2, Some(1))));
    /// ```
    fn valid_prefix<'a>(&self, input: &'a [u8]) -> (&'a str, Option<Utf8Error>) {
        let error = self.validate(input).err();
        let end = error.map_or(input.len(), |e| e.valid_up_to().min(input.len()));
        // Only a validator that disagrees with std makes this take the
        // shorter prefix std accepts.
        let valid = match core::str::from_utf8(&input[..end]) {
            Ok(s) => s,
            Err(e) => core::str::from_utf8(&input[..e.valid_up_to()]).unwrap_or_default(),
        };
        (valid, error)
    }
}

/// A UTF-8 validator fed in chunks.
///
/// The contract, which every implementation is tested against:
///
/// - Feeding any split of an input through [`update`](StreamingValidator::update)
///   and then [`finish`](StreamingValidator::finish) gives exactly the
///   whole-buffer result of `core::str::from_utf8` on the concatenation.
/// - Error offsets are absolute: `valid_up_to` counts from the first byte of
///   the first chunk.
/// - `update` returns the error as soon as the bytes fed so far prove it,
///   that is, no later than the call whose chunk holds the byte that makes the
///   input invalid. Only an input that ends inside a sequence is reported by
///   `finish` (with `error_len() == None`).
/// - Errors are sticky: after an error, every later `update` and the
///   `finish` return that same error.
/// - Memory is bounded: a validator keeps at most the three bytes of an
///   unfinished character, whatever the input size.
/// - [`position`](StreamingValidator::position) counts every byte fed.
///
/// [`Streaming`](crate::stream::Streaming) makes one from any
/// [`Utf8Validator`]; every codec's streaming validator is one.
///
/// # Example
///
/// ```
/// use codec_core::{StreamingValidator, Utf8Error};
///
/// /// A deliberately simple implementation: it keeps everything.
/// #[derive(Default)]
/// struct Collect(Vec<u8>);
///
/// impl StreamingValidator for Collect {
///     fn new() -> Self { Self::default() }
///     fn update(&mut self, chunk: &[u8]) -> Result<(), Utf8Error> {
///         self.0.extend_from_slice(chunk);
///         match core::str::from_utf8(&self.0) {
///             Err(e) if e.error_len().is_some() => Err(Utf8Error::from_std(e, &self.0)),
///             _ => Ok(()),
///         }
///     }
///     fn finish(self) -> Result<(), Utf8Error> {
///         core::str::from_utf8(&self.0).map(|_| ()).map_err(|e| Utf8Error::from_std(e, &self.0))
///     }
///     fn position(&self) -> usize { self.0.len() }
/// }
///
/// let err = Collect::validate_chunks([&b"caf"[..], b"\xC3", b"\xA9 \xFF"]).unwrap_err();
/// assert_eq!((err.valid_up_to(), err.error_len()), (6, Some(1)));
/// ```
pub trait StreamingValidator {
    /// A validator at the start of an input.
    fn new() -> Self
    where
        Self: Sized;

    /// Feeds the next chunk. See the trait docs for when errors are reported.
    fn update(&mut self, chunk: &[u8]) -> Result<(), Utf8Error>;

    /// Ends the input: an error if it ended inside a character, or if an
    /// earlier `update` failed.
    fn finish(self) -> Result<(), Utf8Error>
    where
        Self: Sized;

    /// How many bytes have been fed so far: the absolute offset of the next
    /// chunk's first byte. Every byte counts, also those fed after an error.
    fn position(&self) -> usize;

    /// Validates the concatenation of `chunks`, stopping at the first error.
    fn validate_chunks<'a, I>(chunks: I) -> Result<(), Utf8Error>
    where
        I: IntoIterator<Item = &'a [u8]>,
        Self: Sized,
    {
        let mut v = Self::new();
        for chunk in chunks {
            v.update(chunk)?;
        }
        v.finish()
    }
}
