//! Scalar pieces the x86-64 kernels of every width and the NEON kernels
//! share: the fallback for the blocks of UTF-16 their vector paths do not
//! take.

/// The units at `src`, one by one, until `N` are read or one is an
/// unpaired surrogate (or a lead whose trail is past `avail`): `(units
/// read, bytes written, whether all `N` were read)`.
///
/// # Safety
///
/// `src` is readable for `avail >= N` units; `out` writable for `3 * N + 4`
/// bytes.
#[inline(never)]
pub(crate) unsafe fn utf16_units<const SWAP: bool, const N: usize>(
    src: *const u16,
    avail: usize,
    out: *mut u8,
) -> (usize, usize, bool) {
    // SAFETY: the caller guarantees `avail` readable units; N + 1 at most
    // are used.
    let units = unsafe { core::slice::from_raw_parts(src.cast::<[u8; 2]>(), avail.min(N + 1)) };
    // SAFETY: the caller guarantees 3 * N + 4 writable bytes.
    let bytes = unsafe { core::slice::from_raw_parts_mut(out, 3 * N + 4) };
    let unit = |i: usize| {
        let u = units.get(i).map(|&b| u16::from_ne_bytes(b));
        if SWAP { u.map(u16::swap_bytes) } else { u }
    };
    let (mut i, mut o) = (0, 0);
    while i < N {
        let Some(u) = unit(i) else { break };
        let c = match u {
            0xD800..=0xDBFF => match unit(i + 1) {
                Some(t @ 0xDC00..=0xDFFF) => {
                    let v = 0x1_0000 + ((u32::from(u) & 0x3FF) << 10 | (u32::from(t) & 0x3FF));
                    char::from_u32(v)
                }
                _ => None,
            },
            _ => char::from_u32(u32::from(u)),
        };
        let Some(c) = c else {
            return (i, o, false);
        };
        o += c.encode_utf8(&mut bytes[o..]).len();
        i += c.len_utf16();
    }
    (i, o, true)
}
