//! The single-byte engine through one named set of kernels, for the
//! benchmarks and tests that compare them (as transcode's
//! `Transcoder::avx2()`): the dispatched choice is what every other API
//! uses.

use crate::Encoding;
use crate::registry::Kind;

/// One set of the single-byte engine's kernels: table lookup to UTF-16,
/// the fused decoder to UTF-8 and the dense encoder, where the set has
/// them (the others fall back as the dispatched engine does).
///
/// ```
/// use encodings::{Encoding, Engine};
///
/// let cp1251 = Encoding::for_label("CP1251").unwrap();
/// let bytes = b"\xcf\xf0\xe8\xe2\xe5\xf2"; // Привет
/// for engine in Engine::all() {
///     let text = engine.decode_to_string(cp1251, bytes).unwrap().unwrap();
///     assert_eq!(text, "Привет", "{}", engine.name());
///     assert_eq!(engine.encode_to_vec(cp1251, &text), Some(Ok(bytes.to_vec())));
/// }
/// // Not a single-byte page:
/// assert_eq!(Engine::dispatched().decode_to_string(Encoding::UTF_8, b"a"), None);
/// ```
#[derive(Clone, Copy, Debug)]
pub struct Engine(&'static crate::arch::Kernel);

impl Engine {
    /// The kernels every other API of the crate uses: the best this CPU
    /// runs, chosen once.
    #[must_use]
    pub fn dispatched() -> Engine {
        Engine(crate::arch::chosen())
    }

    /// Every set of kernels this CPU runs, best first, the scalar
    /// reference last.
    pub fn all() -> impl Iterator<Item = Engine> {
        crate::arch::ALL
            .iter()
            .filter(|k| k.isa.is_available())
            .map(|k| Engine(k))
    }

    /// The AVX-512 VBMI2 kernels (VBMI's, with byte compresses), if this
    /// CPU has them: Intel from Ice Lake, AMD from Zen 4.
    #[cfg(target_arch = "x86_64")]
    #[must_use]
    pub fn avx512vbmi2() -> Option<Engine> {
        Engine::of(&crate::arch::x86_64::VBMI2)
    }

    /// The AVX-512 VBMI kernels, if this CPU has them.
    #[cfg(target_arch = "x86_64")]
    #[must_use]
    pub fn avx512vbmi() -> Option<Engine> {
        Engine::of(&crate::arch::x86_64::VBMI)
    }

    /// The AVX2 kernels, if this CPU has them (what a CPU without AVX-512
    /// runs).
    #[cfg(target_arch = "x86_64")]
    #[must_use]
    pub fn avx2() -> Option<Engine> {
        Engine::of(&crate::arch::x86_64::AVX2)
    }

    /// The 16-byte kernels (`pshufb`, SSSE3's), if this CPU has SSE4.1:
    /// they are the AVX2 ones' algorithms with the `Sse41` token of
    /// codec-arch, which asks for SSE4.1 and POPCNT as well. What a CPU
    /// without AVX2 runs.
    #[cfg(target_arch = "x86_64")]
    #[must_use]
    pub fn ssse3() -> Option<Engine> {
        Engine::of(&crate::arch::x86_64::SSSE3)
    }

    /// The NEON kernels (aarch64).
    #[cfg(target_arch = "aarch64")]
    #[must_use]
    pub fn neon() -> Option<Engine> {
        Engine::of(&crate::arch::aarch64::NEON)
    }

    /// The scalar reference, one byte or character at a time.
    #[must_use]
    pub fn scalar() -> Engine {
        Engine(&crate::arch::SCALAR)
    }

    fn of(k: &'static crate::arch::Kernel) -> Option<Engine> {
        k.isa.is_available().then_some(Engine(k))
    }

    /// Short lower-case name ("avx2", "scalar"...), for reports.
    #[must_use]
    pub fn name(self) -> &'static str {
        self.0.name
    }

    /// `bytes` in the single-byte page `encoding` as text: `Err(i)` if
    /// `bytes[i]` is the first byte the page leaves undefined; `None` if
    /// `encoding` is not a single-byte page.
    #[must_use]
    pub fn decode_to_string(
        self,
        encoding: Encoding,
        bytes: &[u8],
    ) -> Option<Result<String, usize>> {
        let Kind::SingleByte(page) = encoding.kind() else {
            return None;
        };
        let mut text = String::new();
        Some(crate::single_byte::decode_with(self.0, page, bytes, &mut text).map(|()| text))
    }

    /// As [`Engine::decode_to_string`], appending to `dst` (a buffer kept
    /// between calls saves the allocation and its page faults): on
    /// `Err(i)`, `dst` holds the text of `bytes[..i]`.
    ///
    /// ```
    /// use encodings::{Encoding, Engine};
    ///
    /// let koi8 = Encoding::for_label("KOI8-R").unwrap();
    /// let mut text = String::new();
    /// for chunk in [&b"\xF0\xD2\xC9"[..], b"\xD7\xC5\xD4"] {
    ///     Engine::dispatched().decode_into_string(koi8, chunk, &mut text).unwrap().unwrap();
    /// }
    /// assert_eq!(text, "Привет");
    /// ```
    pub fn decode_into_string(
        self,
        encoding: Encoding,
        bytes: &[u8],
        dst: &mut String,
    ) -> Option<Result<(), usize>> {
        let Kind::SingleByte(page) = encoding.kind() else {
            return None;
        };
        Some(crate::single_byte::decode_with(self.0, page, bytes, dst))
    }

    /// As [`Engine::decode_to_string`], to UTF-16.
    #[must_use]
    pub fn decode_to_utf16_vec(
        self,
        encoding: Encoding,
        bytes: &[u8],
    ) -> Option<Result<Vec<u16>, usize>> {
        let Kind::SingleByte(page) = encoding.kind() else {
            return None;
        };
        let mut units = Vec::new();
        let n = crate::arch::decode_to_utf16_with(self.0, page, bytes, &mut units);
        Some(if n == bytes.len() { Ok(units) } else { Err(n) })
    }

    /// As [`Engine::decode_to_utf16_vec`], appending to `dst`: on `Err(i)`,
    /// `dst` holds the units of `bytes[..i]`.
    pub fn decode_into_utf16_vec(
        self,
        encoding: Encoding,
        bytes: &[u8],
        dst: &mut Vec<u16>,
    ) -> Option<Result<(), usize>> {
        let Kind::SingleByte(page) = encoding.kind() else {
            return None;
        };
        let n = crate::arch::decode_to_utf16_with(self.0, page, bytes, dst);
        Some(if n == bytes.len() { Ok(()) } else { Err(n) })
    }

    /// `text` in the single-byte page `encoding`: `Err(i)` at the byte
    /// index of the first character the page cannot hold; `None` if
    /// `encoding` is not a single-byte page.
    #[must_use]
    pub fn encode_to_vec(self, encoding: Encoding, text: &str) -> Option<Result<Vec<u8>, usize>> {
        let Kind::SingleByte(page) = encoding.kind() else {
            return None;
        };
        let mut out = Vec::new();
        Some(
            crate::single_byte::encode_by(self.0, page, text, &mut out)
                .map(|()| out)
                .map_err(|(i, _)| i),
        )
    }

    /// As [`Engine::encode_to_vec`], appending to `dst`: on `Err(i)`, `dst`
    /// holds the encoding of `text[..i]`.
    pub fn encode_into_vec(
        self,
        encoding: Encoding,
        text: &str,
        dst: &mut Vec<u8>,
    ) -> Option<Result<(), usize>> {
        let Kind::SingleByte(page) = encoding.kind() else {
            return None;
        };
        Some(crate::single_byte::encode_by(self.0, page, text, dst).map_err(|(i, _)| i))
    }
}
