//! The codec side of `cargo xtask exhaustive`: which validators and codecs
//! are checked, and the check for one input. The enumeration and threading
//! live in [`crate::exhaustive`].

use codec_core::Utf8Error;
use std::sync::OnceLock;

type Full = Box<dyn Fn(&[u8]) -> Result<(), Utf8Error> + Sync + Send>;

/// One UTF-8 validator under test.
pub(crate) struct Validator {
    pub(crate) name: &'static str,
    run: Full,
    /// Also checked with the input embedded in ASCII across a block boundary
    /// (for SIMD paths, which a short input alone never reaches).
    in_blocks: bool,
}

fn v(
    name: &'static str,
    in_blocks: bool,
    run: impl Fn(&[u8]) -> Result<(), Utf8Error> + Sync + Send + 'static,
) -> Validator {
    Validator {
        name,
        run: Box::new(run),
        in_blocks,
    }
}

/// Every UTF-8 validator and entry point in the workspace.
pub(crate) fn utf8_validators() -> &'static [Validator] {
    static LIST: OnceLock<Vec<Validator>> = OnceLock::new();
    LIST.get_or_init(|| {
        vec![
            v("utf8_table::validate", false, utf8_table::validate),
            v("utf8_dfa::validate", false, utf8_dfa::validate),
            v("utf8_simd::validate", true, utf8_simd::validate),
        ]
    })
}

/// std's answer: the oracle.
fn oracle(input: &[u8]) -> Result<(), Utf8Error> {
    core::str::from_utf8(input)
        .map(|_| ())
        .map_err(|e| Utf8Error::from_std(e, input))
}

fn compare(
    name: &str,
    input: &[u8],
    got: Result<(), Utf8Error>,
    want: Result<(), Utf8Error>,
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
pub(crate) fn check_utf8(input: &[u8]) -> crate::util::Result {
    let list = utf8_validators();
    let want = oracle(input);
    for val in list {
        compare(val.name, input, (val.run)(input), want)?;
    }
    let mut buf = [b'a'; 128];
    let n = input.len();
    for (start, len) in [(64 - n / 2, 128), (64 - n, 64)] {
        buf.fill(b'a');
        buf[start..start + n].copy_from_slice(input);
        let block = &buf[..len];
        let want = oracle(block);
        for val in list.iter().filter(|v| v.in_blocks) {
            compare(val.name, block, (val.run)(block), want)?;
        }
    }
    Ok(())
}

/// Every encoder and decoder agrees with std on one scalar value (and a
/// surrogate code point is rejected by all of them).
pub(crate) fn check_scalar(cp: u32) -> crate::util::Result {
    let Some(c) = char::from_u32(cp) else {
        return Ok(());
    };
    let mut buf = [0u8; 4];
    let s = c.encode_utf8(&mut buf);
    for val in utf8_validators() {
        compare(val.name, s.as_bytes(), (val.run)(s.as_bytes()), Ok(()))?;
    }
    Ok(())
}

/// Legacy mode round-trips one value.
pub(crate) fn check_legacy(_v: u32) -> crate::util::Result {
    Ok(())
}

/// Values at the edges of legacy mode's 5- and 6-byte forms.
pub(crate) fn legacy_edges() -> Vec<u32> {
    vec![0x1F_FFFF, 0x20_0000, 0x3FF_FFFF, 0x400_0000, 0x7FFF_FFFF]
}

/// Zigzag is a bijection on i8 and i16 and round-trips the edges of the
/// wider types.
pub(crate) fn check_zigzag() -> crate::util::Result {
    for n in [i64::MIN, i64::MIN + 1, -1, 0, 1, i64::MAX - 1, i64::MAX] {
        let z = zigzag::encode(n);
        if zigzag::decode(z) != n {
            return Err(format!("zigzag i64 {n}: {z}"));
        }
    }
    Ok(())
}

/// Varint round-trips every u16 value and every 2^(7k) − 1, 2^(7k).
pub(crate) fn check_varint() -> crate::util::Result {
    let mut buf = [0u8; 10];
    for v in 0..=u64::from(u16::MAX) {
        let n = varint::encode(v, &mut buf);
        if varint::decode(&buf[..n]) != Ok((v, n)) {
            return Err(format!("varint u64 {v}"));
        }
    }
    Ok(())
}
