//! [`Variant`], the encodings this crate validates, and [`Config`], a
//! validation with its options.

use crate::{Error, scalar, simd, stream::Validator};
use core::fmt;
use core::str::FromStr;

/// UTF-8 and its relatives.
///
/// | variant | U+0000 | U+10000.. | lone surrogates | reference |
/// |---|---|---|---|---|
/// | [`Utf8`](Variant::Utf8) | `00` | 4 bytes | never | RFC 3629 |
/// | [`Cesu8`](Variant::Cesu8) | `00` | surrogate pair, 6 bytes | never | UTR #26 |
/// | [`Mutf8`](Variant::Mutf8) | `C0 80` | surrogate pair, 6 bytes | never | JVM spec §4.4.7 |
/// | [`Wtf8`](Variant::Wtf8) | `00` | 4 bytes | yes, but not a lead then a trail | the WTF-8 spec |
///
/// ```
/// use utf8_variants::Variant;
///
/// let pair = b"\xED\xA0\xBD\xED\xB8\x80"; // U+1F600 as a surrogate pair
/// assert!(Variant::Cesu8.is_valid(pair));
/// assert!(!Variant::Utf8.is_valid(pair));
/// assert!(!Variant::Wtf8.is_valid(pair)); // WTF-8 wants the 4-byte form
/// assert!(Variant::Wtf8.is_valid("😀".as_bytes()));
/// assert_eq!("mutf-8".parse(), Ok(Variant::Mutf8));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Variant {
    /// UTF-8 (RFC 3629), validated by utf8-simd: exactly
    /// `core::str::from_utf8`.
    Utf8,
    /// CESU-8 (Unicode Technical Report #26), as Oracle and SAP databases
    /// write it.
    Cesu8,
    /// Java's Modified UTF-8 (JVM specification §4.4.7), as class files,
    /// `DataOutput.writeUTF` and JNI's `GetStringUTFChars` write it.
    Mutf8,
    /// WTF-8, how Rust stores potentially ill-formed UTF-16 (Windows
    /// `OsString`).
    Wtf8,
}

impl Variant {
    /// All four, in the order above.
    pub const ALL: [Variant; 4] = [Variant::Utf8, Variant::Cesu8, Variant::Mutf8, Variant::Wtf8];

    /// The name as its specification writes it: `UTF-8`, `CESU-8`,
    /// `MUTF-8`, `WTF-8`.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Variant::Utf8 => "UTF-8",
            Variant::Cesu8 => "CESU-8",
            Variant::Mutf8 => "MUTF-8",
            Variant::Wtf8 => "WTF-8",
        }
    }

    /// `Ok(())` if `input` is valid in this encoding, else the first error.
    /// A leading U+FEFF is accepted as any other character; see [`Config`]
    /// to reject it.
    ///
    /// ```
    /// use utf8_variants::{ErrorKind, Variant};
    /// let err = Variant::Mutf8.validate(b"a\x00b").unwrap_err();
    /// assert_eq!((err.valid_up_to(), err.error_len()), (1, Some(1)));
    /// assert_eq!(err.kind(), ErrorKind::Nul);
    /// ```
    pub fn validate(self, input: &[u8]) -> Result<(), Error> {
        simd::validate(self, input)
    }

    /// Whether `input` is valid in this encoding.
    #[must_use]
    pub fn is_valid(self, input: &[u8]) -> bool {
        simd::is_valid(self, input)
    }

    /// A streaming validator for this encoding.
    #[must_use]
    pub fn validator(self) -> Validator {
        Config::new(self).validator()
    }

    /// [`Self::validate`] with the portable scalar validator only (a DFA
    /// with an ASCII fast path), for tests and benchmarks.
    #[doc(hidden)]
    pub fn validate_scalar(self, input: &[u8]) -> Result<(), Error> {
        scalar::validate(self, input)
    }

    /// [`Self::validate`] with one kernel of utf8-simd's registry
    /// ([`utf8_simd::kernels`]), even on short input, for tests and
    /// benchmarks: `None` for UTF-8, for the portable kernel, and for a
    /// kernel this CPU cannot run.
    #[doc(hidden)]
    pub fn validate_with_kernel(
        self,
        kernel: &utf8_simd::Kernel,
        input: &[u8],
    ) -> Option<Result<(), Error>> {
        simd::validate_with(kernel, self, input)
    }

    /// [`Self::is_valid`] with one kernel, as [`Self::validate_with_kernel`].
    #[doc(hidden)]
    pub fn is_valid_with_kernel(self, kernel: &utf8_simd::Kernel, input: &[u8]) -> Option<bool> {
        simd::is_valid_with(kernel, self, input)
    }

    /// `cesu8::decode` or `mutf8::decode` with one kernel of utf8-simd's
    /// registry for every pass, for tests and benchmarks: `None` for UTF-8
    /// and WTF-8, for the portable kernel, and for a kernel this CPU cannot
    /// run.
    #[cfg(feature = "alloc")]
    #[doc(hidden)]
    pub fn decode_with_kernel<'a>(
        self,
        kernel: &'static utf8_simd::Kernel,
        input: &'a [u8],
    ) -> Option<Result<alloc::borrow::Cow<'a, str>, Error>> {
        match self {
            Variant::Cesu8 | Variant::Mutf8 => crate::convert::decode_with(kernel, self, input),
            Variant::Utf8 | Variant::Wtf8 => None,
        }
    }
}

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The error of [`Variant::from_str`]: the name is none of the four.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct UnknownVariant;

impl fmt::Display for UnknownVariant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("unknown encoding (expected utf-8, cesu-8, mutf-8 or wtf-8)")
    }
}

impl core::error::Error for UnknownVariant {}

impl FromStr for Variant {
    type Err = UnknownVariant;

    /// The name, in any case, with or without the hyphen: `utf8`, `CESU-8`,
    /// `mutf8`, `Wtf-8`. `java` is accepted for MUTF-8.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let mut name = [0u8; 8];
        let mut len = 0;
        for b in s.bytes().filter(|&b| b != b'-' && b != b'_') {
            *name.get_mut(len).ok_or(UnknownVariant)? = b.to_ascii_lowercase();
            len += 1;
        }
        match &name[..len] {
            b"utf8" => Ok(Variant::Utf8),
            b"cesu8" => Ok(Variant::Cesu8),
            b"mutf8" | b"java" => Ok(Variant::Mutf8),
            b"wtf8" => Ok(Variant::Wtf8),
            _ => Err(UnknownVariant),
        }
    }
}

/// What a validation does with a leading byte-order mark (U+FEFF, `EF BB
/// BF` in all four encodings).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum BomPolicy {
    /// It is a character like any other, as in `core::str::from_utf8`.
    #[default]
    Accept,
    /// It is an error, [`ErrorKind::ByteOrderMark`](crate::ErrorKind), at 0
    /// with `error_len() == Some(3)`.
    Reject,
}

/// A validation: an encoding and what to do with a leading byte-order mark.
///
/// ```
/// use utf8_variants::{BomPolicy, Config, ErrorKind, Variant};
///
/// const STRICT: Config = Config::new(Variant::Utf8).with_bom(BomPolicy::Reject);
/// let err = STRICT.validate(b"\xEF\xBB\xBFhello").unwrap_err();
/// assert_eq!(err.kind(), ErrorKind::ByteOrderMark);
/// assert!(Config::new(Variant::Utf8).validate(b"\xEF\xBB\xBFhello").is_ok());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Config {
    variant: Variant,
    bom: BomPolicy,
}

impl Config {
    /// A validation of `variant` that accepts a leading byte-order mark.
    #[must_use]
    pub const fn new(variant: Variant) -> Config {
        Config {
            variant,
            bom: BomPolicy::Accept,
        }
    }

    /// The same validation with `bom` for a leading byte-order mark.
    #[must_use]
    pub const fn with_bom(self, bom: BomPolicy) -> Config {
        Config { bom, ..self }
    }

    /// The encoding.
    #[must_use]
    pub const fn variant(&self) -> Variant {
        self.variant
    }

    /// What it does with a leading byte-order mark.
    #[must_use]
    pub const fn bom(&self) -> BomPolicy {
        self.bom
    }

    /// `Ok(())` if `input` is valid, else the first error.
    pub fn validate(&self, input: &[u8]) -> Result<(), Error> {
        if self.rejects_bom_of(input) {
            return Err(Error::bom(self.variant));
        }
        self.variant.validate(input)
    }

    /// Whether `input` is valid.
    #[must_use]
    pub fn is_valid(&self, input: &[u8]) -> bool {
        !self.rejects_bom_of(input) && self.variant.is_valid(input)
    }

    /// A streaming validator with this configuration.
    #[must_use]
    pub fn validator(&self) -> Validator {
        Validator::new(*self)
    }

    /// Whether `input` starts with a byte-order mark that this validation
    /// rejects.
    pub(crate) fn rejects_bom_of(&self, input: &[u8]) -> bool {
        self.bom == BomPolicy::Reject && input.starts_with(codec_core::Bom::Utf8.as_bytes())
    }
}
