//! Oracles that do not share code with the crate: std for strict mode, and
//! for legacy mode a brute-force definition built on the (separately proven)
//! encoder.

use codec_core::Utf8Error;
use utf8_table::{Legacy, encode};

/// What `decode::<Strict>` must return, from `core::str::from_utf8` alone.
pub(crate) fn std_decode(s: &[u8]) -> Result<(u32, usize), Utf8Error> {
    let valid = match core::str::from_utf8(s) {
        Ok(_) => s.len(),
        Err(e) => e.valid_up_to(),
    };
    match core::str::from_utf8(&s[..valid])
        .ok()
        .and_then(|t| t.chars().next())
    {
        Some(c) => Ok((u32::from(c), c.len_utf8())),
        None => Err(Utf8Error::at(s, 0)),
    }
}

/// The value of `s` read as one legacy sequence by definition, if it is
/// one: the lead's leading ones give the length (none: ASCII), the rest are
/// `10xxxxxx`, and the value must encode back to exactly `s` (which rules
/// out overlong forms, since the encoder writes the shortest).
pub(crate) fn legacy_value(s: &[u8]) -> Option<u32> {
    let n = s.len();
    let lead = *s.first()?;
    let len = match lead.leading_ones() {
        0 => 1,
        1 => return None,
        k => k as usize,
    };
    if len != n || n > 6 || s[1..].iter().any(|b| b & 0xC0 != 0x80) {
        return None;
    }
    let payload = if n == 1 {
        lead
    } else {
        lead & (0xFF >> (n + 1))
    };
    let v = s[1..]
        .iter()
        .fold(u64::from(payload), |v, b| (v << 6) | u64::from(b & 0x3F));
    let v = u32::try_from(v).ok()?;
    let mut buf = [0u8; 6];
    let m = encode::<Legacy>(v, &mut buf).ok()?;
    (buf[..m] == *s).then_some(v)
}

/// Whether `p` is a proper prefix of some valid legacy sequence: its largest
/// completion (every missing payload bit set) is valid, since the only
/// lower bound on a value is the overlong rule.
pub(crate) fn legacy_is_prefix(p: &[u8]) -> bool {
    (p.len() + 1..=6).any(|n| {
        let mut filled = [0xBFu8; 6];
        filled[..p.len()].copy_from_slice(p);
        legacy_value(&filled[..n]).is_some()
    })
}

/// What `decode::<Legacy>` must return, as `(valid_up_to, error_len)` on
/// failure, by the definitions above.
pub(crate) fn legacy_decode(s: &[u8]) -> Result<(u32, usize), Option<usize>> {
    for n in 1..=s.len().min(6) {
        if let Some(v) = legacy_value(&s[..n]) {
            return Ok((v, n));
        }
    }
    // The maximal subpart: the longest prefix that could still be completed.
    let m = (1..=s.len().min(5))
        .take_while(|&k| legacy_is_prefix(&s[..k]))
        .last()
        .unwrap_or(0);
    if m == s.len() {
        Err(None)
    } else {
        Err(Some(m.max(1)))
    }
}
