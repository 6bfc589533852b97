//! The codec side of `cargo xtask exhaustive`: which validators and codecs
//! are checked, and the check for one input. The enumeration and threading
//! live in [`crate::exhaustive`].

use codec_core::{StreamingValidator, Utf8Error, Utf8Validator};
use std::sync::OnceLock;

type Full = Box<dyn Fn(&[u8]) -> Result<(), Utf8Error> + Sync + Send>;
type Bool = Box<dyn Fn(&[u8]) -> bool + Sync + Send>;

/// What an entry point answers: the exact error, or only yes or no.
enum Answer {
    Full(Full),
    Bool(Bool),
}

/// One UTF-8 validator (or entry point) under test.
pub(crate) struct Validator {
    pub(crate) name: &'static str,
    answer: Answer,
    /// Also checked with the input placed in ASCII across a block boundary;
    /// see [`IN_BLOCKS`].
    blocks: bool,
}

/// The entry points also checked with the input placed in ASCII across a
/// block boundary: those with a block, word or vector loop that a short
/// input alone never reaches. `from_utf8` and the trait objects share their
/// `validate`'s path, so they are left out there to save time.
const IN_BLOCKS: &[&str] = &[
    "utf8_table::validate",
    "utf8_dfa::validate",
    "utf8_dfa::is_valid",
    "utf8_simd::validate",
    "utf8_simd::is_valid",
    "utf8_simd::Validator (split)",
    "utf8_simd::Sse42",
    "utf8_simd::Sse42::is_valid",
    "utf8_simd::Avx2",
    "utf8_simd::Avx2::is_valid",
    "utf8_simd::Avx512",
    "utf8_simd::Avx512::is_valid",
];

impl Validator {
    fn check(&self, input: &[u8], want: Result<(), Utf8Error>) -> crate::util::Result {
        match &self.answer {
            Answer::Full(f) => compare(self.name, input, f(input), want),
            Answer::Bool(f) => compare(self.name, input, f(input), want.is_ok()),
        }
    }
}

fn full(
    name: &'static str,
    f: impl Fn(&[u8]) -> Result<(), Utf8Error> + Sync + Send + 'static,
) -> Validator {
    Validator {
        name,
        answer: Answer::Full(Box::new(f)),
        blocks: IN_BLOCKS.contains(&name),
    }
}

fn boolean(name: &'static str, f: impl Fn(&[u8]) -> bool + Sync + Send + 'static) -> Validator {
    Validator {
        name,
        answer: Answer::Bool(Box::new(f)),
        blocks: IN_BLOCKS.contains(&name),
    }
}

/// Feeds `input` to a streaming validator in two chunks split in the middle
/// and returns the first error, as a caller would see it.
fn split_in_middle<S: StreamingValidator>(input: &[u8]) -> Result<(), Utf8Error> {
    let (a, b) = input.split_at(input.len() / 2);
    let mut v = S::new();
    v.update(a)?;
    v.update(b)?;
    v.finish()
}

/// Every UTF-8 validator and entry point in the workspace: whole-buffer,
/// yes/no, trait objects, each SIMD kernel this CPU has, and each streaming
/// validator with a split in the middle.
pub(crate) fn utf8_validators() -> &'static [Validator] {
    static LIST: OnceLock<Vec<Validator>> = OnceLock::new();
    LIST.get_or_init(|| {
        let mut list = vec![
            full("utf8_table::validate", utf8_table::validate),
            full("utf8_table::from_utf8", |i| {
                utf8_table::from_utf8(i).map(drop)
            }),
            full("utf8_table::Table", |i| utf8_table::Table.validate(i)),
            full("utf8_dfa::validate", utf8_dfa::validate),
            full("utf8_dfa::validate_portable", utf8_dfa::validate_portable),
            full("utf8_dfa::from_utf8", |i| utf8_dfa::from_utf8(i).map(drop)),
            boolean("utf8_dfa::is_valid", utf8_dfa::is_valid),
            full("utf8_dfa::count_chars", |i| {
                utf8_dfa::count_chars(i).map(drop)
            }),
            full(
                "utf8_dfa::Validator (split)",
                split_in_middle::<utf8_dfa::Validator>,
            ),
            full("utf8_simd::validate", utf8_simd::validate),
            full("utf8_simd::from_utf8", |i| {
                utf8_simd::from_utf8(i).map(drop)
            }),
            boolean("utf8_simd::is_valid", utf8_simd::is_valid),
            full("utf8_simd::Portable", |i| {
                utf8_simd::Portable::new().validate(i)
            }),
            full(
                "utf8_simd::Validator (split)",
                split_in_middle::<utf8_simd::Validator>,
            ),
        ];
        if let Some(k) = utf8_simd::Sse42::new() {
            list.push(full("utf8_simd::Sse42", move |i| k.validate(i)));
            list.push(boolean("utf8_simd::Sse42::is_valid", move |i| {
                k.is_valid(i)
            }));
        }
        if let Some(k) = utf8_simd::Avx512::new() {
            list.push(full("utf8_simd::Avx512", move |i| k.validate(i)));
            list.push(boolean("utf8_simd::Avx512::is_valid", move |i| {
                k.is_valid(i)
            }));
        }
        if let Some(k) = utf8_simd::Avx2::new() {
            list.push(full("utf8_simd::Avx2", move |i| k.validate(i)));
            list.push(boolean("utf8_simd::Avx2::is_valid", move |i| k.is_valid(i)));
        }
        list
    })
}

/// std's answer: the oracle.
fn oracle(input: &[u8]) -> Result<(), Utf8Error> {
    core::str::from_utf8(input)
        .map(|_| ())
        .map_err(|e| Utf8Error::from_std(e, input))
}

fn compare<T: PartialEq + std::fmt::Debug>(
    name: &str,
    input: &[u8],
    got: T,
    want: T,
) -> crate::util::Result {
    if got == want {
        Ok(())
    } else {
        Err(format!(
            "{name} on {input:02X?}: got {got:?}, std says {want:?}"
        ))
    }
}

/// Checks every validator on `input` (at most 4 bytes) against std, alone
/// and, for the block-aware ones, embedded in ASCII: straddling the 64-byte
/// boundary of a 128-byte buffer (so across every 16-, 32- and 64-byte lane
/// and block edge), and ending a 64-byte buffer (the end-of-input check after
/// a full block).
///
/// Without `blocks`, only the input alone.
pub(crate) fn check_utf8(input: &[u8], blocks: bool) -> crate::util::Result {
    let list = utf8_validators();
    let want = oracle(input);
    for val in list {
        val.check(input, want)?;
    }
    if !blocks {
        return Ok(());
    }
    let mut buf = [b'a'; 128];
    let n = input.len();
    for (start, len) in [(64 - n / 2, 128), (64 - n, 64)] {
        buf.fill(b'a');
        buf[start..start + n].copy_from_slice(input);
        let block = &buf[..len];
        let want = oracle(block);
        for val in list.iter().filter(|v| v.blocks) {
            val.check(block, want)?;
        }
    }
    Ok(())
}

/// Every encoder and decoder agrees with std on one code point: a scalar
/// value encodes to `char::encode_utf8`'s bytes in both table modes and
/// decodes back through every decoder; a surrogate is refused by strict
/// encoding and round-trips in legacy mode.
pub(crate) fn check_scalar(cp: u32) -> crate::util::Result {
    use utf8_table::{Legacy, Strict};
    let fail = |what: &str| Err(format!("U+{cp:04X}: {what}"));
    let Some(c) = char::from_u32(cp) else {
        if utf8_table::encode::<Strict>(cp, &mut [0; 4]).is_ok() {
            return fail("strict encode accepted a surrogate");
        }
        if utf8_table::encoded_len::<Strict>(cp).is_some() {
            return fail("strict encoded_len of a surrogate");
        }
        return Ok(());
    };
    let mut std_buf = [0u8; 4];
    let want = c.encode_utf8(&mut std_buf).as_bytes();
    let n = want.len();
    let mut buf = [0u8; 6];
    if utf8_table::encode::<Strict>(cp, &mut buf) != Ok(n) || &buf[..n] != want {
        return fail("utf8_table::encode::<Strict>");
    }
    buf = [0; 6];
    if utf8_table::encode::<Legacy>(cp, &mut buf) != Ok(n) || &buf[..n] != want {
        return fail("utf8_table::encode::<Legacy>");
    }
    buf = [0; 6];
    if utf8_table::encode_char(c, &mut buf) != Ok(n) || &buf[..n] != want {
        return fail("utf8_table::encode_char");
    }
    if utf8_table::encoded_len::<Strict>(cp) != Some(n) {
        return fail("utf8_table::encoded_len::<Strict>");
    }
    if utf8_table::decode::<Strict>(want) != Ok((cp, n)) {
        return fail("utf8_table::decode::<Strict>");
    }
    if utf8_table::decode::<Legacy>(want) != Ok((cp, n)) {
        return fail("utf8_table::decode::<Legacy>");
    }
    if utf8_table::decode_char(want) != Ok((c, n)) {
        return fail("utf8_table::decode_char");
    }
    let mut table_iter = utf8_table::code_points::<Strict>(want);
    if table_iter.next() != Some(Ok(cp)) || table_iter.next().is_some() {
        return fail("utf8_table::code_points");
    }
    let mut chars = utf8_dfa::chars(want);
    if chars.next() != Some(Ok(c)) || chars.next().is_some() {
        return fail("utf8_dfa::chars");
    }
    if !utf8_dfa::chars_lossy(want).eq([c]) {
        return fail("utf8_dfa::chars_lossy");
    }
    // The streaming decoder, fed one byte at a time.
    let mut dec = utf8_dfa::Decoder::new();
    let mut got = Vec::with_capacity(1);
    for b in want {
        if dec
            .decode(core::slice::from_ref(b), |ch| got.push(ch))
            .is_err()
        {
            return fail("utf8_dfa::Decoder rejected it");
        }
    }
    if dec.finish().is_err() || got != [c] {
        return fail("utf8_dfa::Decoder");
    }
    for val in utf8_validators() {
        val.check(want, Ok(()))?;
    }
    Ok(())
}

/// Legacy mode round-trips one value up to 0x7FFF_FFFF, with the length the
/// 1992 table gives, and equals `char::encode_utf8` on scalar values.
pub(crate) fn check_legacy(v: u32) -> crate::util::Result {
    use utf8_table::Legacy;
    let fail = |what: &str| Err(format!("legacy 0x{v:X}: {what}"));
    let len = match v {
        0..0x80 => 1,
        0x80..0x800 => 2,
        0x800..0x1_0000 => 3,
        0x1_0000..0x20_0000 => 4,
        0x20_0000..0x400_0000 => 5,
        0x400_0000..=0x7FFF_FFFF => 6,
        _ => {
            return match utf8_table::encode::<Legacy>(v, &mut [0; 6]) {
                Err(utf8_table::EncodeError::TooLarge(_)) => Ok(()),
                other => fail(&format!("encode gave {other:?}, not TooLarge")),
            };
        }
    };
    let mut buf = [0u8; 6];
    if utf8_table::encode::<Legacy>(v, &mut buf) != Ok(len) {
        return fail("encode length");
    }
    if utf8_table::encoded_len::<Legacy>(v) != Some(len) {
        return fail("encoded_len");
    }
    if utf8_table::decode::<Legacy>(&buf[..len]) != Ok((v, len)) {
        return fail(&format!("decode of {:02X?}", &buf[..len]));
    }
    // Every shorter prefix is "need more bytes", never a value.
    for cut in 1..len {
        match utf8_table::decode::<Legacy>(&buf[..cut]) {
            Err(e) if e.error_len().is_none() => {}
            other => return fail(&format!("decode of prefix {:02X?}: {other:?}", &buf[..cut])),
        }
    }
    if let Some(c) = char::from_u32(v)
        && c.encode_utf8(&mut [0; 4]).as_bytes() != &buf[..len]
    {
        return fail("differs from char::encode_utf8");
    }
    Ok(())
}

/// Values at the edges of legacy mode's rows and range, for `--quick`.
pub(crate) fn legacy_edges() -> Vec<u32> {
    let mut out = Vec::new();
    for edge in [0x20_0000u32, 0x400_0000, 0x8000_0000] {
        out.extend(edge - 3..edge + 3);
    }
    out.extend([0x7FFF_FFFF, 0xFFFF_FFFF, 0x1234_5678, 0x30_0000]);
    out
}

/// Zigzag is a bijection on all of i8 and i16 and round-trips the edges of
/// i32, i64 and i128, with the protobuf mapping `(n << 1) ^ (n >> (BITS-1))`.
pub(crate) fn check_zigzag() -> crate::util::Result {
    fn edges<T: Copy + std::fmt::Debug>(min: T, max: T, near: &[T]) -> Vec<T> {
        let mut v = vec![min, max];
        v.extend_from_slice(near);
        v
    }
    let mut seen = vec![false; 1 << 16];
    for n in i8::MIN..=i8::MAX {
        let z = zigzag::encode(n);
        if zigzag::decode(z) != n || z != ((n << 1) ^ (n >> 7)) as u8 {
            return Err(format!("zigzag i8 {n} -> {z}"));
        }
        seen[usize::from(z)] = true;
    }
    if seen.iter().take(256).any(|s| !s) {
        return Err("zigzag on i8 is not onto u8".into());
    }
    seen.fill(false);
    for n in i16::MIN..=i16::MAX {
        let z = zigzag::encode(n);
        if zigzag::decode(z) != n || z != ((n << 1) ^ (n >> 15)) as u16 {
            return Err(format!("zigzag i16 {n} -> {z}"));
        }
        seen[usize::from(z)] = true;
    }
    if seen.iter().any(|s| !s) {
        return Err("zigzag on i16 is not onto u16".into());
    }
    for n in edges(
        i32::MIN,
        i32::MAX,
        &[i32::MIN + 1, -2, -1, 0, 1, 2, i32::MAX - 1],
    ) {
        let z = zigzag::encode(n);
        if zigzag::decode(z) != n || z != ((n << 1) ^ (n >> 31)) as u32 {
            return Err(format!("zigzag i32 {n} -> {z}"));
        }
    }
    for n in edges(
        i64::MIN,
        i64::MAX,
        &[i64::MIN + 1, -2, -1, 0, 1, 2, i64::MAX - 1],
    ) {
        let z = zigzag::encode(n);
        if zigzag::decode(z) != n || z != ((n << 1) ^ (n >> 63)) as u64 {
            return Err(format!("zigzag i64 {n} -> {z}"));
        }
    }
    for n in edges(
        i128::MIN,
        i128::MAX,
        &[i128::MIN + 1, -2, -1, 0, 1, 2, i128::MAX - 1],
    ) {
        let z = zigzag::encode(n);
        if zigzag::decode(z) != n || z != ((n << 1) ^ (n >> 127)) as u128 {
            return Err(format!("zigzag i128 {n} -> {z}"));
        }
    }
    Ok(())
}

/// One width's varint round trip: `encode`, `try_encode`, `encoded_len`,
/// lenient and strict `decode` agree on `v`, and every truncation of the
/// encoding is `Truncated`.
fn varint_round_trip<T>(v: T) -> crate::util::Result
where
    T: varint::Varint + Into<u128>,
{
    let mut buf = [0u8; 19];
    let n = varint::encode(v, &mut buf);
    let wide: u128 = v.into();
    let want_len = if wide == 0 {
        1
    } else {
        (128 - wide.leading_zeros() as usize).div_ceil(7)
    };
    let name = std::any::type_name::<T>();
    let encoded = buf;
    let fail = |what: &str| {
        Err(format!(
            "varint {name} {wide}: {what} ({:02X?})",
            &encoded[..n]
        ))
    };
    if n != want_len || varint::encoded_len(v) != n {
        return fail("length");
    }
    let mut other = [0u8; 19];
    if varint::try_encode(v, &mut other) != Ok(n) || other[..n] != buf[..n] {
        return fail("try_encode");
    }
    if varint::try_encode(v, &mut other[..n - 1]).is_ok() {
        return fail("try_encode into a buffer one byte short");
    }
    if varint::decode::<T>(&buf[..n]) != Ok((v, n)) {
        return fail("decode");
    }
    if varint::decode_strict::<T>(&buf[..n]) != Ok((v, n)) {
        return fail("decode_strict");
    }
    for cut in 0..n {
        if varint::decode::<T>(&buf[..cut]) != Err(varint::DecodeError::Truncated) {
            return fail(&format!("decode of the first {cut} bytes"));
        }
    }
    // A padded (non-canonical) form, where the width has room: lenient takes
    // it, strict refuses it.
    if n < T::MAX_LEN {
        buf[n - 1] |= 0x80;
        buf[n] = 0;
        if varint::decode::<T>(&buf[..=n]) != Ok((v, n + 1)) {
            return fail("lenient decode of the padded form");
        }
        if varint::decode_strict::<T>(&buf[..=n]) != Err(varint::DecodeError::NonCanonical) {
            return fail("strict decode of the padded form");
        }
    }
    Ok(())
}

/// Varint round-trips every u16 value in every width, and the boundaries
/// 2^(7k) − 1, 2^(7k) (and the type's maximum) of every width.
pub(crate) fn check_varint() -> crate::util::Result {
    for v in 0..=u16::MAX {
        varint_round_trip(v)?;
        varint_round_trip(u32::from(v))?;
        varint_round_trip(u64::from(v))?;
        varint_round_trip(u128::from(v))?;
    }
    for k in 1..=19u32 {
        let p = 1u128 << (7 * k).min(127);
        for v in [p - 1, p, p + 1] {
            if let Ok(x) = u16::try_from(v) {
                varint_round_trip(x)?;
            }
            if let Ok(x) = u32::try_from(v) {
                varint_round_trip(x)?;
            }
            if let Ok(x) = u64::try_from(v) {
                varint_round_trip(x)?;
            }
            varint_round_trip(v)?;
        }
    }
    varint_round_trip(u16::MAX)?;
    varint_round_trip(u32::MAX)?;
    varint_round_trip(u64::MAX)?;
    varint_round_trip(u128::MAX)?;
    // usize has no `Into<u128>`; check its edges by hand against u64.
    let mut a = [0u8; 10];
    let mut b = [0u8; 10];
    for v in [0usize, 127, 128, 16_383, 16_384, usize::MAX] {
        let n = varint::encode(v, &mut a);
        if varint::encode(v as u64, &mut b) != n || a[..n] != b[..n] {
            return Err(format!("varint usize {v} differs from u64"));
        }
        if varint::decode::<usize>(&a[..n]) != Ok((v, n)) {
            return Err(format!("varint usize {v} decode"));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_wrong_validator_is_caught() {
        let wrong = full("always ok", |_| Ok(()));
        assert!(wrong.check(b"\xC0", oracle(b"\xC0")).is_err());
        let wrong = boolean("always true", |_| true);
        assert!(wrong.check(b"\xFF", oracle(b"\xFF")).is_err());
    }

    #[test]
    fn the_real_validators_pass_a_few_inputs() {
        for input in [&b"a"[..], b"\xF0\x9F\x98\x80", b"\xED\xA0\x80", b"\xF4\x90"] {
            check_utf8(input, true).unwrap();
        }
        for cp in [0, 0x7F, 0x80, 0xD7FF, 0xD800, 0xE000, 0x10FFFF] {
            check_scalar(cp).unwrap();
        }
        for v in legacy_edges() {
            check_legacy(v).unwrap();
        }
    }
}
