//! Varint and zigzag decoding against a reference model written from the
//! specification, and strict against lenient decoding.
#![no_main]

use codec_core::DecodeError;
use libfuzzer_sys::fuzz_target;

/// The reference: LEB128 for a `bits`-wide unsigned type, written for
/// clarity. At most `ceil(bits / 7)` bytes; the last allowed byte must not
/// set the continuation bit nor any bit above `bits`.
fn model(buf: &[u8], bits: u32) -> Result<(u128, usize), DecodeError> {
    let max_len = bits.div_ceil(7) as usize;
    let mut value = 0u128;
    for i in 0..max_len {
        let Some(&b) = buf.get(i) else {
            return Err(DecodeError::Truncated);
        };
        if i == max_len - 1 && (b & 0x80 != 0 || u32::from(b) >> (bits - 7 * i as u32) != 0) {
            return Err(DecodeError::Overflow);
        }
        value |= u128::from(b & 0x7F) << (7 * i);
        if b & 0x80 == 0 {
            return Ok((value, i + 1));
        }
    }
    unreachable!("the last allowed byte always ends the loop")
}

fuzz_target!(|data: &[u8]| {
    let want = model(data, 64).map(|(v, n)| (v as u64, n));
    fuzz::same("varint::decode u64", data, varint::decode(data), want);
    if let Ok((v, _)) = want {
        let z = zigzag::decode(v);
        fuzz::same("zigzag u64 round trip", data, zigzag::encode(z), v);
    }
});
