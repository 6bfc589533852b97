//! What the SIMD kernels of every architecture share: the compaction
//! shuffles of the fused decoders and dense encoders, and the scalar loops
//! that finish a decode.

/// For each 8-bit mask of ASCII units among 8, the byte shuffle that keeps
/// the low byte of every unit and the high byte of the others (the UTF-8
/// of a unit below 0x800 held as lead | continuation << 8).
pub(crate) static COMPRESS: [[u8; 16]; 256] = {
    let mut t = [[0x80u8; 16]; 256];
    let mut m = 0;
    while m < 256 {
        let mut o = 0;
        let mut k = 0;
        while k < 8 {
            t[m][o] = 2 * k as u8;
            o += 1;
            if m & (1 << k) == 0 {
                t[m][o] = 2 * k as u8 + 1;
                o += 1;
            }
            k += 1;
        }
        m += 1;
    }
    t
};

/// For each 8-bit mask of the bytes to keep among 8, the byte shuffle that
/// gathers them at the front.
pub(crate) static KEEP: [[u8; 16]; 256] = {
    let mut t = [[0x80u8; 16]; 256];
    let mut m = 0;
    while m < 256 {
        let mut o = 0;
        let mut k = 0;
        while k < 8 {
            if m & (1 << k) != 0 {
                t[m][o] = k as u8;
                o += 1;
            }
            k += 1;
        }
        m += 1;
    }
    t
};

/// Decodes to UTF-8 one byte at a time from `src[i..end]`, writing at
/// `dst[w..]`: stops at an undefined byte or when `dst` might not hold
/// the next character. Returns the new `(i, w)`.
pub(crate) fn utf8_scalar(
    table: &[u16; 256],
    src: &[u8],
    dst: &mut [core::mem::MaybeUninit<u8>],
    mut i: usize,
    mut w: usize,
    end: usize,
) -> (usize, usize) {
    while i < end && w + 3 <= dst.len() {
        let u = table[usize::from(src[i])];
        let Some(c) = char::from_u32(u32::from(u)).filter(|_| u != crate::single_byte::UNDEFINED)
        else {
            break;
        };
        let mut buf = [0u8; 4];
        for &b in c.encode_utf8(&mut buf).as_bytes() {
            dst[w].write(b);
            w += 1;
        }
        i += 1;
    }
    (i, w)
}

/// Decodes to UTF-16 one byte at a time, as far as `dst` holds it:
/// returns the length of the prefix of `src` without an undefined byte
/// (the scalar kernel, and the tail of the SIMD ones).
pub(crate) fn to_utf16_scalar(table: &[u16; 256], src: &[u8], dst: &mut [super::Unit]) -> usize {
    let mut n = 0;
    for (d, &b) in dst.iter_mut().zip(src) {
        let u = table[usize::from(b)];
        if u == crate::single_byte::UNDEFINED {
            break;
        }
        d.write(u);
        n += 1;
    }
    n
}
