//! Scalar pieces the x86-64 kernels of every width and the NEON kernels
//! share: the fallbacks for the blocks their vector paths do not take.

/// Calls `put` with each character that starts in the first `N` bytes at
/// `s`, decoded one by one (after skipping the continuation bytes a window
/// may have stopped on); returns the bytes read.
///
/// # Safety
///
/// `s` is readable for `N + 3` bytes.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
unsafe fn for_chars<const N: usize>(s: *const u8, mut put: impl FnMut(char)) -> usize {
    // SAFETY: the caller guarantees N + 3 readable bytes.
    let bytes = unsafe { core::slice::from_raw_parts(s, N + 3) };
    let mut i = 0;
    while i < 3 && (bytes[i] as i8) < -64 {
        i += 1;
    }
    while i < N {
        let Some((c, len)) = crate::scalar::decode_valid_utf8(&bytes[i..]) else {
            break;
        };
        put(c);
        i += len;
    }
    i
}

/// The characters that start in the first `N` bytes at `s` to UTF-16
/// (`SWAP`: byte-swapped): `(bytes read, units written)`.
///
/// # Safety
///
/// `s` is readable for `N + 3` bytes; `out` is writable for `N` units.
#[cfg(target_arch = "x86_64")]
#[inline(never)]
pub(crate) unsafe fn utf8_chars<const SWAP: bool, const N: usize>(
    s: *const u8,
    out: *mut u16,
) -> (usize, usize) {
    let mut o = 0;
    let put = |c: char| {
        let mut units = [0u16; 2];
        for &u in c.encode_utf16(&mut units).iter() {
            let u = if SWAP { u.swap_bytes() } else { u };
            // SAFETY: at most N units: a character of `len` bytes makes at
            // most `len` units, and the characters start below N.
            unsafe { out.add(o).write_unaligned(u) };
            o += 1;
        }
    };
    // SAFETY: the caller's guarantee.
    let i = unsafe { for_chars::<N>(s, put) };
    (i, o)
}

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
