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

/// Per high nibble of a byte, how its row decodes when the row is affine:
/// each defined byte `b` of it maps to `b + delta`, and it has at most one
/// undefined byte (ISO-8859-7's D2 and FF), caught by comparing a block
/// with the row's `hole`. Derived from the table once, when the page is
/// built ([`Affine::new`], a `const fn`); the x86-64 `pshufb` kernels look
/// each field up with one shuffle on the high nibble (their module docs).
#[derive(Debug)]
#[repr(C, align(64))]
pub(crate) struct Affine {
    /// UTF-16: the low and the high byte of `delta`.
    pub(crate) delta_lo: [u8; 16],
    pub(crate) delta_hi: [u8; 16],
    /// UTF-16: 0xFF for a row that is not affine, else 0.
    pub(crate) not16: [u8; 16],
    /// UTF-8, a row of bytes from 0x80 whose units are two bytes of UTF-8
    /// with one lead (`64 q + s .. 64 q + s + 16`, `s <= 48`, within
    /// U+0080–U+07FF; the rows of every page here, their units aligned
    /// to 16): that lead, `0xC0 | q`; 0 for a row of bytes below 0x80
    /// that maps each to itself (the byte is its own UTF-8); 0xFF for any
    /// other row.
    pub(crate) lead: [u8; 16],
    /// UTF-8: `0x80 + s - 16 r` for row `r`, so that byte `16 r + j` plus
    /// it is the continuation `0x80 | (s + j)`.
    pub(crate) step: [u8; 16],
    /// The row's undefined byte, or a byte of the next row where it has
    /// none (never equal to a byte of this row).
    pub(crate) hole: [u8; 16],
    /// Whether some row from 0x80 is affine, for UTF-16 and for UTF-8: a
    /// page without one never tries the path.
    pub(crate) any16: bool,
    pub(crate) any8: bool,
}

impl Affine {
    /// The affine rows of `table`.
    pub(crate) const fn new(table: &[u16; 256]) -> Affine {
        let undefined = crate::single_byte::UNDEFINED;
        let mut a = Affine {
            delta_lo: [0; 16],
            delta_hi: [0; 16],
            not16: [0xFF; 16],
            lead: [0xFF; 16],
            step: [0; 16],
            hole: [0; 16],
            any16: false,
            any8: false,
        };
        let mut r = 0;
        while r < 16 {
            // The row's undefined bytes (the first of them), and the unit
            // its byte 0 would have if it is affine (from its first
            // defined byte).
            let (mut holes, mut hole, mut c0) = (0, 0, None);
            let mut j = 0;
            while j < 16 {
                let u = table[16 * r + j];
                if u == undefined {
                    if holes == 0 {
                        hole = j;
                    }
                    holes += 1;
                } else if c0.is_none() {
                    c0 = Some(u as i32 - j as i32);
                }
                j += 1;
            }
            a.hole[r] = if holes == 1 {
                (16 * r + hole) as u8
            } else {
                (16 * ((r + 1) % 16)) as u8
            };
            let mut affine = holes <= 1 && c0.is_some();
            let c0 = match c0 {
                Some(c0) => c0,
                None => 0,
            };
            let mut j = 0;
            while j < 16 {
                let u = table[16 * r + j];
                affine &= u == undefined || u as i32 == c0 + j as i32;
                j += 1;
            }
            if affine {
                let delta = (c0 - 16 * r as i32) as u16;
                a.delta_lo[r] = delta as u8;
                a.delta_hi[r] = (delta >> 8) as u8;
                a.not16[r] = 0;
                a.any16 |= r >= 8;
                if r < 8 && holes == 0 && c0 == 16 * r as i32 {
                    a.lead[r] = 0;
                } else if r >= 8 && c0 >= 0x80 && c0 + 15 < 0x800 && c0 >> 6 == (c0 + 15) >> 6 {
                    a.lead[r] = 0xC0 | (c0 >> 6) as u8;
                    a.step[r] = (0x80 + (c0 & 0x3F) - 16 * r as i32) as u8;
                    a.any8 = true;
                }
            }
            r += 1;
        }
        a
    }
}

/// A page's code point → byte map for U+0000–U+07FF (the one- and
/// two-byte UTF-8 characters), 0 where there is none or the character is
/// U+0000, with the affine runs of its slices: what the dense encoders
/// ([`super::EncodeFn`]) read. Built once per page, on first use
/// (`SingleByte::dense`).
#[derive(Debug)]
#[repr(C, align(64))]
pub(crate) struct Dense {
    /// The byte of each code point.
    pub(crate) bytes: [u8; 0x800],
    /// The affine run of each 128-entry slice.
    pub(crate) runs: Runs,
}

impl Dense {
    /// `bytes` with its [`Runs`].
    pub(crate) fn new(bytes: [u8; 0x800]) -> Dense {
        let runs = Runs::new(&bytes);
        Dense { bytes, runs }
    }
}

/// The shortest affine run the encoders try: a block that needs the run
/// costs a compare more where it falls outside, and a short run is rarely
/// all a block holds.
const MIN_RUN: usize = 16;

/// Per lead pair (C0/C1 is slot 0 … DE/DF slot 15: the 128-entry slice
/// of [`Dense::bytes`] that a pair's characters index, at
/// `(lead & 1) << 6 | continuation & 0x3F`), the two longest runs of
/// indexes `lo..lo + len` whose bytes are each `index + delta` (wrapping)
/// and mapped (not 0): windows-1252's Latin-1 letters, windows-1251's
/// Cyrillic alphabet, IBM866's а–п and р–я, ISO-8859-7's capital and
/// small Greek letters. A block whose continuations all fall in their
/// pair's runs computes its bytes (compare, add) instead of looking them
/// up.
#[derive(Debug)]
#[repr(C, align(64))]
pub(crate) struct Runs {
    /// The longest run of each slice.
    pub(crate) first: Run,
    /// The longest run of each slice outside the first.
    pub(crate) second: Run,
    /// Whether some slice from C2/C3 has a run: a page without one never
    /// tries them.
    pub(crate) any: bool,
    /// Whether some slice has a second run: a page without one checks
    /// only the first.
    pub(crate) two: bool,
}

/// One run of each slice (see [`Runs`]), each field a 16-entry table by
/// slot (a `pshufb` or `vpermb` of the lead's slot reads it for every lane
/// at once); `len` is 0 where the slice has no such run of [`MIN_RUN`] or
/// more.
#[derive(Debug)]
#[repr(C, align(16))]
pub(crate) struct Run {
    /// `lo`, the run's first index.
    pub(crate) lo: [u8; 16],
    /// `len`, the run's length (0: none), at most 128.
    pub(crate) len: [u8; 16],
    /// `delta`: the byte of index `k` of the run is `k + delta`.
    pub(crate) delta: [u8; 16],
    /// `128 - lo`: an index (0..128) plus it falls in `-128..len - 128`
    /// (as a signed byte) exactly when the index is in the run.
    pub(crate) bias: [u8; 16],
    /// `len - 128`, as a signed byte (-128 where there is no run: nothing
    /// is below it): see `bias`.
    pub(crate) limit: [u8; 16],
}

impl Run {
    const NONE: Run = Run {
        lo: [0; 16],
        len: [0; 16],
        delta: [0; 16],
        bias: [0; 16],
        limit: [128; 16],
    };

    /// Sets slot `p`'s run, if it is one of [`MIN_RUN`] or more.
    fn set(&mut self, p: usize, (lo, len, delta): (usize, usize, u8)) -> bool {
        if len < MIN_RUN {
            return false;
        }
        self.lo[p] = lo as u8;
        self.len[p] = len as u8;
        self.delta[p] = delta;
        self.bias[p] = 128u8.wrapping_sub(lo as u8);
        self.limit[p] = (len as u8).wrapping_add(128);
        true
    }
}

/// The longest run (`lo`, `len`, `delta`) of `slice` (see [`Runs`]) that
/// does not meet the indexes `skip`.
fn longest_run(slice: &[u8], skip: core::ops::Range<usize>) -> (usize, usize, u8) {
    let mut best = (0, 0, 0u8);
    let mut start = 0;
    while start < 128 {
        let delta = slice[start].wrapping_sub(start as u8);
        let mut end = start;
        while end < 128
            && !skip.contains(&end)
            && slice[end] != 0
            && slice[end].wrapping_sub(end as u8) == delta
        {
            end += 1;
        }
        if end - start > best.1 {
            best = (start, end - start, delta);
        }
        start = end.max(start + 1);
    }
    best
}

impl Runs {
    /// The runs of `dense`'s slices.
    pub(crate) fn new(dense: &[u8; 0x800]) -> Runs {
        let mut runs = Runs {
            first: Run::NONE,
            second: Run::NONE,
            any: false,
            two: false,
        };
        // Slot 0 (C0/C1, overlong: never a lead of valid UTF-8) has none.
        for (p, slice) in dense.chunks_exact(128).enumerate().skip(1) {
            let first = longest_run(slice, 0..0);
            if runs.first.set(p, first) {
                runs.any = true;
                let second = longest_run(slice, first.0..first.0 + first.1);
                runs.two |= runs.second.set(p, second);
            }
        }
        runs
    }

    /// Whether the slice of lead pair `pair` (its lead with the low bit
    /// clear, C0 … DE) has a run.
    #[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
    #[inline(always)]
    pub(crate) fn has(&self, pair: u8) -> bool {
        self.first.len[Runs::slot(pair)] != 0
    }

    /// The slot of lead pair `pair` (or of any lead of it).
    #[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
    #[inline(always)]
    pub(crate) fn slot(pair: u8) -> usize {
        usize::from((pair >> 1) & 0xF)
    }
}
