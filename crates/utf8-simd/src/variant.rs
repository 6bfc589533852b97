//! The kernel for UTF-8's relatives: CESU-8, Java's Modified UTF-8 and WTF-8
//! differ from UTF-8 in a few pairs of bytes and in rules the kernel adds
//! (see [`Rules`]), so the same Keiser–Lemire loop validates them with their
//! own [`Tables`]. The crate that owns those tables and the exact errors is
//! utf8-variants; this module is its low-level entry.
//!
//! [`bmp_str`] is the one entry that makes a `&str`: the kernel's plain
//! check alone, with this crate's own tables of UTF-8 without 4-byte forms
//! ([`tables::UTF8_BMP`](crate::tables::UTF8_BMP)), for the CESU-8 and
//! MUTF-8 decoders, which borrow such text as it is.
//!
//! [`check_blocks`] runs the fastest kernel this CPU has over the whole
//! 64-byte blocks of an input and returns `Ok(end)` or `Err(start)`: the
//! bytes before the position are a prefix of valid text (which may end
//! inside a character or a surrogate pair), and `Err` means an error follows.
//! The caller checks the rest, and finds the exact error, with a scalar
//! validator from a character boundary at or before the position. Where no
//! SIMD kernel runs it returns `Ok(0)`.
//!
//! ```
//! use utf8_simd::tables::NibbleTables;
//! use utf8_simd::variant::{self, Rules, Tables};
//!
//! // WTF-8 reads UTF-8's tables, with SURROGATE as the pairing marker.
//! let wtf8 = Tables { nibbles: utf8_simd::tables::UTF8, rules: Rules::Unpaired };
//! let text = "a lone surrogate: \u{FFFD}".repeat(20).replace('\u{FFFD}', "\u{10000}");
//! let mut bytes = text.into_bytes();
//! assert!(matches!(variant::check_blocks(&wtf8, &bytes), Ok(end) if end <= bytes.len()));
//! // A lead surrogate then a trail, in the first block: an error.
//! bytes[..6].copy_from_slice(b"\xED\xA0\x80\xED\xB0\x80");
//! let start = variant::check_blocks(&wtf8, &bytes);
//! assert!(start == Err(0) || start == Ok(0)); // Ok(0): no SIMD kernel here
//! ```

use crate::tables::NibbleTables;
#[cfg(doc)]
use crate::tables::{C0_80, SURROGATE};
use codec_core::utf8::last_char_start;

/// Which checks beyond the tables' pairs the kernel runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Rules {
    /// CESU-8: surrogates only paired, no fourth-byte check.
    Paired,
    /// Modified UTF-8: as [`Paired`](Self::Paired), plus `C0 80` allowed
    /// and `00` forbidden.
    PairedModifiedNul,
    /// WTF-8: a trail surrogate may not follow a lead; 4-byte forms as in
    /// UTF-8.
    Unpaired,
}

/// A table set for the kernel: the three nibble tables of an encoding and
/// the [`Rules`] that read them.
///
/// The tables decide what the kernel accepts; wrong tables make it accept
/// or refuse the wrong inputs, never read out of bounds or misbehave
/// otherwise (nothing is unsafe about them).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Tables {
    /// The nibble tables, with [`SURROGATE`] marking surrogates and, for
    /// [`Rules::PairedModifiedNul`], [`C0_80`] marking `C0`/`C1 80..=8F`.
    pub nibbles: NibbleTables,
    /// The checks beyond pairs.
    pub rules: Rules,
}

/// The check over the whole blocks of `input` with the fastest kernel this
/// CPU runs; see the module docs for the answer. `Ok(0)` where no SIMD
/// kernel runs.
#[must_use = "the answer says where to go on"]
pub fn check_blocks(t: &Tables, input: &[u8]) -> Result<usize, usize> {
    crate::arch::variants::check_blocks(t, input)
}

/// [`check_blocks`] with `kernel` (from [`kernels`](crate::kernels)), for
/// tests and benchmarks: `None` if the kernel has no variant entry point
/// (the portable one) or this CPU cannot run it.
#[must_use]
pub fn check_blocks_with(
    kernel: &crate::Kernel,
    t: &Tables,
    input: &[u8],
) -> Option<Result<usize, usize>> {
    crate::arch::variants::check_blocks_with(kernel, t, input)
}

/// What [`bmp_str`] makes of the byte `00`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Nul {
    /// `00` is U+0000, as in UTF-8 and CESU-8.
    Allowed,
    /// `00` is refused, as in Modified UTF-8 (which writes U+0000 as
    /// `C0 80`).
    Forbidden,
}

/// Inputs shorter than this skip the kernel: it only reads whole 64-byte
/// blocks.
const BLOCK: usize = 64;

/// `input` as a `&str` if it is UTF-8 without 4-byte forms (every character
/// in the Basic Multilingual Plane) and, with [`Nul::Forbidden`], without
/// `00`: then its bytes are the same in CESU-8 (and Modified UTF-8), whose
/// decoders can borrow them. Else `Err(pos)`, where `input[..pos]` is such
/// text, ending at a character boundary, and the first byte that is not
/// comes at or after `pos` (within about 256 bytes of it: the check tests
/// its flags every 256 bytes, and stops at the first group they flag).
///
/// One pass of the variant kernel's plain check with the tables of
/// [`tables::UTF8_BMP`](crate::tables::UTF8_BMP) (or
/// [`UTF8_BMP_WITHOUT_NUL`](crate::tables::UTF8_BMP_WITHOUT_NUL)), whose
/// `SURROGATE` and `FOUR_BYTE` pairs (and `NUL_BYTE`) are errors like the
/// others; where UTF-8's validation and a scan for `F0..` (and `00`) would
/// be two.
///
/// ```
/// use utf8_simd::variant::{Nul, bmp_str};
///
/// assert_eq!(bmp_str("façade, 吕".as_bytes(), Nul::Allowed), Ok("façade, 吕"));
/// assert_eq!(bmp_str("a😀".as_bytes(), Nul::Allowed), Err(0));
/// assert_eq!(bmp_str(b"a\0", Nul::Forbidden), Err(0));
/// assert!(bmp_str(b"\xED\xA0\x80\xED\xB0\x80", Nul::Allowed).is_err()); // CESU-8's U+10000
/// ```
pub fn bmp_str(input: &[u8], nul: Nul) -> Result<&str, usize> {
    let forbid = nul == Nul::Forbidden;
    if input.len() < BLOCK {
        // All of it is the last bytes; mostly ASCII (identifiers, keys),
        // which one scan of words answers.
        return bmp_rest(input, forbid).map_or(Err(0), |()| Ok(crate::arch::valid_str(input)));
    }
    bmp_finish(input, forbid, bmp_blocks(forbid, input))
}

/// [`bmp_str`] with `kernel` (from [`kernels`](crate::kernels)), even on
/// short input, for tests and benchmarks: `None` if the kernel has no
/// variant entry point or this CPU cannot run it.
#[must_use]
pub fn bmp_str_with<'a>(
    kernel: &crate::Kernel,
    input: &'a [u8],
    nul: Nul,
) -> Option<Result<&'a str, usize>> {
    let forbid = nul == Nul::Forbidden;
    let blocks = crate::arch::variants::bmp_blocks_with(kernel, forbid, input)?;
    Some(bmp_finish(input, forbid, blocks))
}

/// The dispatched BMP check over the whole blocks (`Ok(0)` where no SIMD
/// kernel runs).
#[inline]
fn bmp_blocks(forbid_nul: bool, input: &[u8]) -> Result<usize, usize> {
    crate::arch::variants::bmp_blocks(forbid_nul, input)
}

/// The answer of [`bmp_str`] from the kernel's: all of the input where the
/// kernel accepted up to its end (it then checked the last bytes itself);
/// otherwise the bytes from the start of the character it stopped in (or
/// at) are checked here ([`bmp_rest`]); they are fewer than a block and
/// three bytes where the kernel accepted.
fn bmp_finish(input: &[u8], forbid_nul: bool, blocks: Result<usize, usize>) -> Result<&str, usize> {
    let end = match blocks {
        // The kernel answered for all of it (its last block ends there).
        Ok(end) if end == input.len() => return Ok(crate::arch::valid_str(input)),
        Ok(end) => end,
        Err(checked) => return Err(last_char_start(input, checked)),
    };
    let from = last_char_start(input, end);
    if bmp_rest(input.get(from..).unwrap_or_default(), forbid_nul).is_ok() {
        // `input[..from]` is what the kernel accepted, up to a character
        // boundary, and `rest` was just checked.
        Ok(crate::arch::valid_str(input))
    } else {
        Err(from)
    }
}

/// Whether `rest` (the last bytes, or all of a short input) is UTF-8
/// without 4-byte forms (and, with `forbid_nul`, without `00`): one scan of
/// words, and UTF-8's validation where a byte is not ASCII.
#[inline]
fn bmp_rest(rest: &[u8], forbid_nul: bool) -> Result<(), ()> {
    let bytes = crate::short::scan(rest, forbid_nul);
    let bmp = !bytes.four && !bytes.nul;
    if bmp && (!bytes.non_ascii || crate::validate(rest).is_ok()) {
        Ok(())
    } else {
        Err(())
    }
}

/// Converts the surrogate pairs at the start of `input`, CESU-8's (and
/// Modified UTF-8's) 6-byte form `ED A0..AF 80..BF ED B0..BF 80..BF` of a
/// supplementary character, to their 4-byte UTF-8 forms in `out`, four
/// pairs at a time with the fastest kernel this CPU runs, and returns
/// `(read, written)`: `read` is 6 bytes a pair, `written` 4.
///
/// It stops before four pairs of which one does not start `ED A0..=AF`
/// (a lead surrogate), and where fewer than 28 bytes of input or 16 of
/// output are left: the caller converts the rest of the run. The other
/// four bytes of each pair are not checked: on valid CESU-8 or MUTF-8,
/// where a lead surrogate is always followed by its trail, `out` receives
/// the conversion; on other input, some bytes (and never a read or write
/// outside the slices). `(0, 0)` where no SIMD kernel runs.
///
/// ```
/// use utf8_simd::variant::pairs_to_utf8;
///
/// let cesu8 = b"\xED\xA0\xBD\xED\xB8\x80".repeat(5); // five U+1F600 😀
/// let mut out = [0u8; 20];
/// let (read, written) = pairs_to_utf8(&cesu8, &mut out);
/// assert_eq!(read % 24, 0); // four pairs a pass: 24, or 0 (no SIMD)
/// assert_eq!(&out[..written], "😀".repeat(read / 6).as_bytes());
/// ```
#[must_use = "the answer says how much was converted"]
pub fn pairs_to_utf8(input: &[u8], out: &mut [u8]) -> (usize, usize) {
    crate::arch::variants::pairs_to_utf8(input, out)
}

/// [`pairs_to_utf8`] with `kernel` (from [`kernels`](crate::kernels)), for
/// tests and benchmarks: `None` if the kernel has no variant entry point
/// or this CPU cannot run it.
#[must_use]
pub fn pairs_to_utf8_with(
    kernel: &crate::Kernel,
    input: &[u8],
    out: &mut [u8],
) -> Option<(usize, usize)> {
    crate::arch::variants::pairs_to_utf8_with(kernel, input, out)
}

/// Converts the 4-byte UTF-8 characters at the start of `input` (the
/// supplementary ones) to their surrogate pairs as CESU-8 (and Modified
/// UTF-8) writes them, `ED A0..AF 80..BF ED B0..BF 80..BF`, in `out`, four
/// at a time with the fastest kernel this CPU runs, and returns `(read,
/// written)`: `read` is 4 bytes a character, `written` 6. The inverse of
/// [`pairs_to_utf8`].
///
/// It stops before four characters of which one does not start with
/// `F0..=F7` (a 4-byte lead), and where fewer than 16 bytes of input or 24
/// of output are left: the caller converts the rest of the run. The
/// continuation bytes are not checked: on valid UTF-8 (a `&str`), `out`
/// receives the conversion; on other input, some bytes (and never a read or
/// write outside the slices). `(0, 0)` where no SIMD kernel runs.
///
/// ```
/// use utf8_simd::variant::utf8_to_pairs;
///
/// let utf8 = "😀".repeat(5); // U+1F600
/// let mut out = [0u8; 30];
/// let (read, written) = utf8_to_pairs(utf8.as_bytes(), &mut out);
/// assert_eq!(read % 16, 0); // four characters a pass: 16, or 0 (no SIMD)
/// assert_eq!(&out[..written], b"\xED\xA0\xBD\xED\xB8\x80".repeat(read / 4));
/// ```
#[must_use = "the answer says how much was converted"]
pub fn utf8_to_pairs(input: &[u8], out: &mut [u8]) -> (usize, usize) {
    crate::arch::variants::utf8_to_pairs(input, out)
}

/// [`utf8_to_pairs`] with `kernel` (from [`kernels`](crate::kernels)), for
/// tests and benchmarks: `None` if the kernel has no variant entry point
/// or this CPU cannot run it.
#[must_use]
pub fn utf8_to_pairs_with(
    kernel: &crate::Kernel,
    input: &[u8],
    out: &mut [u8],
) -> Option<(usize, usize)> {
    crate::arch::variants::utf8_to_pairs_with(kernel, input, out)
}

/// Whether `kernel` has a variant entry point (every SIMD kernel does; the
/// portable one does not).
#[must_use]
pub fn has_variant_entry(kernel: &crate::Kernel) -> bool {
    crate::arch::variants::has_entry(kernel)
}

#[cfg(test)]
mod tests {
    /// The variant entry points follow the registry: every SIMD kernel has
    /// one, so a new kernel cannot be left out of it silently.
    #[test]
    fn every_simd_kernel_has_a_variant_entry() {
        for k in crate::kernels() {
            if k.name() != "portable" {
                assert!(
                    super::has_variant_entry(k),
                    "{} has no variant entry",
                    k.name()
                );
            }
        }
    }
}
