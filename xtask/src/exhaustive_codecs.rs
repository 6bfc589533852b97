//! The codec side of `cargo xtask exhaustive`: which validators and codecs
//! are checked, and the check for one input. The enumeration and threading
//! live in [`crate::exhaustive`].

use codec_core::Utf8Error;
use codec_testdata::registry::{Utf8Impl, check_core, check_utf8_against, utf8_impls};
use std::sync::OnceLock;

/// Every UTF-8 validator and entry point in the workspace registry
/// (`codec_testdata::registry`) that this CPU can run.
pub(crate) fn utf8_validators() -> &'static [Utf8Impl] {
    static LIST: OnceLock<Vec<Utf8Impl>> = OnceLock::new();
    LIST.get_or_init(utf8_impls)
}

/// std's answer: the oracle.
fn oracle(input: &[u8]) -> Result<(), Utf8Error> {
    codec_testdata::std_validate(input)
}

/// Checks every validator on `input` (at most 4 bytes) against std, alone
/// and, for those with block loops, embedded in ASCII: straddling the
/// 64-byte boundary of a 128-byte buffer (so across every 16-, 32- and
/// 64-byte lane and block edge), and ending a 64-byte buffer (the
/// end-of-input check after a full block).
///
/// `full` checks every method of each entry point (for the 1- to 3-byte
/// sequences); otherwise `validate` and `is_valid` (for the 2^32 4-byte
/// ones). Without `blocks`, only the input alone.
pub(crate) fn check_utf8(input: &[u8], blocks: bool, full: bool) -> crate::util::Result {
    let list = utf8_validators();
    let check = |imp: &Utf8Impl, input: &[u8], want| {
        if full {
            check_utf8_against(imp, input, want)
        } else {
            check_core(imp, input, want)
        }
    };
    let want = oracle(input);
    for imp in list {
        check(imp, input, want)?;
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
        for imp in list.iter().filter(|v| v.blocks) {
            check(imp, block, want)?;
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
    for imp in utf8_validators() {
        check_utf8_against(imp, want, Ok(()))?;
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
        struct AlwaysOk;
        impl codec_core::Utf8Validator for AlwaysOk {
            fn validate(&self, _: &[u8]) -> Result<(), Utf8Error> {
                Ok(())
            }
        }
        let wrong = Utf8Impl {
            name: "always ok".into(),
            validator: Box::new(AlwaysOk),
            blocks: true,
            own_methods: true,
        };
        assert!(check_core(&wrong, b"\xC0", oracle(b"\xC0")).is_err());
        assert!(check_utf8_against(&wrong, b"\xFF", oracle(b"\xFF")).is_err());
    }

    #[test]
    fn the_real_validators_pass_a_few_inputs() {
        for input in [&b"a"[..], b"\xF0\x9F\x98\x80", b"\xED\xA0\x80", b"\xF4\x90"] {
            check_utf8(input, true, true).unwrap();
        }
        for cp in [0, 0x7F, 0x80, 0xD7FF, 0xD800, 0xE000, 0x10FFFF] {
            check_scalar(cp).unwrap();
        }
        for v in legacy_edges() {
            check_legacy(v).unwrap();
        }
    }
}
