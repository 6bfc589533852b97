//! The single-byte pages: a 256-entry decode table (generated, see
//! [`crate::tables`]) and inverse tables for encoding, with the scalar
//! kernel that is the reference for any faster one.
//!
//! [`ENGINE`] decodes straight to UTF-8 through the CPU's fused kernel
//! where it has one ([`crate::arch`]: AVX-512 VBMI2 or VBMI, AVX2 or SSE4.1 on
//! x86-64, NEON on aarch64), else to UTF-16 through the scalar reference
//! and then to UTF-8 through transcode's kernels;
//! the UTF-16 output of the decoder comes from the lookup kernel directly.
//! Encoding goes through a dense table of U+0000–U+07FF (a block at a time
//! with the kernel's dense encoder: AVX-512 VBMI2 or VBMI, AVX2 and SSE4.1 for
//! ASCII-compatible pages, NEON; 16-byte scalar windows otherwise) and a
//! two-level inverse for the rest. A lossy mode's encode substitutes
//! inside the page's encoder ([`encode_lossy`]). `SCALAR` (in tests), one
//! byte or character at a time, is the reference all are tested against.

use crate::tables;
use std::sync::OnceLock;

/// A table entry for a byte the page does not define.
pub(crate) const UNDEFINED: u16 = 0xFFFF;

/// ISO-8859-1 as a page (every byte its own code point, every row
/// affine), for the kernels that decode true Latin-1 to UTF-16.
pub(crate) static LATIN1: SingleByte = SingleByte::new(&LATIN1_TABLE);

/// [`LATIN1`]'s table.
static LATIN1_TABLE: [u16; 256] = {
    let mut t = [0u16; 256];
    let mut b = 0;
    while b < 256 {
        t[b] = b as u16;
        b += 1;
    }
    t
};

/// One single-byte page.
#[derive(Debug)]
pub(crate) struct SingleByte {
    /// Byte → UTF-16 unit (every entry is in the BMP and not a surrogate;
    /// the generator checks), [`UNDEFINED`] where undefined.
    pub(crate) table: &'static [u16; 256],
    /// Code point → byte for the whole BMP, in two levels; built on first
    /// use.
    inverse: OnceLock<Inverse>,
    /// Code point → byte for U+0000–U+07FF (the one- and two-byte UTF-8
    /// characters), 0 where there is none or the character is U+0000
    /// (those go to [`SingleByte::encode_char`]), with its affine runs;
    /// built on first use.
    dense: OnceLock<Box<crate::arch::Dense>>,
    /// The table's affine rows, for the `pshufb` decoders: derived when
    /// the page is built (only x86-64's kernels use them).
    #[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
    pub(crate) affine: crate::arch::Affine,
    /// Whether bytes 0x00..=0x7F are ASCII: derived when the page is built
    /// (the kernels ask on every call).
    ascii: bool,
    /// The table's shuffle rows, for the `pshufb` decoders; built on
    /// first use.
    #[cfg(target_arch = "x86_64")]
    pub(crate) rows: OnceLock<Box<crate::arch::x86_64::PageRows>>,
}

impl SingleByte {
    pub(crate) const fn new(table: &'static [u16; 256]) -> SingleByte {
        SingleByte {
            table,
            inverse: OnceLock::new(),
            dense: OnceLock::new(),
            affine: crate::arch::Affine::new(table),
            ascii: {
                let mut ascii = true;
                let mut b = 0;
                while b < 128 {
                    ascii &= table[b] == b as u16;
                    b += 1;
                }
                ascii
            },
            #[cfg(target_arch = "x86_64")]
            rows: OnceLock::new(),
        }
    }

    /// Whether bytes 0x00..=0x7F are ASCII (not so in EBCDIC).
    pub(crate) fn ascii_compatible(&self) -> bool {
        self.ascii
    }

    /// The byte that decodes to U+000A, where exactly one does.
    pub(crate) fn newline(&self) -> Option<u8> {
        let mut found = (0..=255u8).filter(|&b| self.table[usize::from(b)] == 0x0A);
        match (found.next(), found.next()) {
            (Some(b), None) => Some(b),
            _ => None,
        }
    }

    pub(crate) fn decode_byte(&self, b: u8) -> Option<char> {
        match self.table[usize::from(b)] {
            UNDEFINED => None,
            u => char::from_u32(u32::from(u)),
        }
    }

    /// The byte of `c`; where two bytes decode to `c`, the lower one.
    pub(crate) fn encode_char(&self, c: char) -> Option<u8> {
        let c = u16::try_from(u32::from(c)).ok()?;
        self.inverse().get(c)
    }

    fn inverse(&self) -> &Inverse {
        self.inverse.get_or_init(|| Inverse::new(self.table))
    }
}

/// A page's code point → byte map as a two-level table: for each block of
/// 256 code points, the index of its row of bytes (row 0 all zero: the
/// blocks without a character of the page). A page's characters lie in a
/// few blocks, so the rows take a few KiB, and a look-up is two loads
/// where a binary search of the sorted pairs took eight dependent ones
/// (the unmappable path of a lossy encode does one a character).
#[derive(Debug)]
struct Inverse {
    /// Row index of each block of 256 code points.
    index: [u8; 256],
    /// The rows, 256 bytes each: the byte of each code point, 0 where
    /// there is none (and for the character of byte 0, see [`Inverse::get`]).
    rows: Box<[u8]>,
    /// What byte 0 decodes to, if anything (the lowest byte: it wins
    /// over another byte of the same character).
    zero: Option<u16>,
}

impl Inverse {
    fn new(table: &[u16; 256]) -> Inverse {
        let mut index = [0u8; 256];
        let mut rows = vec![0u8; 256];
        // From the highest byte down, so that where two bytes decode to one
        // character the lower one is written last and stays.
        for b in (1..=255u8).rev() {
            let u = table[usize::from(b)];
            if u == UNDEFINED {
                continue;
            }
            let block = usize::from(u >> 8);
            if index[block] == 0 {
                // At most 255 bytes, so at most 255 rows after row 0.
                index[block] = u8::try_from(rows.len() / 256).unwrap_or(u8::MAX);
                rows.resize(rows.len() + 256, 0);
            }
            rows[usize::from(index[block]) * 256 + usize::from(u & 0xFF)] = b;
        }
        Inverse {
            index,
            rows: rows.into_boxed_slice(),
            zero: Some(table[0]).filter(|&u| u != UNDEFINED),
        }
    }

    fn get(&self, c: u16) -> Option<u8> {
        if Some(c) == self.zero {
            return Some(0);
        }
        let row = usize::from(self.index[usize::from(c >> 8)]);
        match self.rows[row * 256 + usize::from(c & 0xFF)] {
            0 => None,
            b => Some(b),
        }
    }
}

impl SingleByte {
    pub(crate) fn dense(&self) -> &crate::arch::Dense {
        self.dense.get_or_init(|| {
            let mut dense = [0u8; 0x800];
            for (c, slot) in dense.iter_mut().enumerate().skip(1) {
                if let Some(b) = char::from_u32(c as u32).and_then(|c| self.encode_char(c)) {
                    *slot = b;
                }
            }
            Box::new(crate::arch::Dense::new(dense))
        })
    }
}

/// A kernel's encoder: `Err((index in src, char))` at the first character
/// the page cannot hold.
pub(crate) type EncodeFn =
    fn(page: &SingleByte, src: &str, dst: &mut Vec<u8>) -> Result<(), (usize, char)>;

/// The entry points of a single-byte engine.
#[derive(Debug)]
pub(crate) struct Kernel {
    /// Decodes `src` through `page`, appending to `dst`; stops at the first
    /// undefined byte and returns its index (everything before it is
    /// appended).
    pub(crate) decode: fn(page: &SingleByte, src: &[u8], dst: &mut String) -> Result<(), usize>,
    /// Encodes `src` through `page`, appending to `dst`; stops at the first
    /// character the page cannot hold and returns its byte index in `src`
    /// and the character (everything before it is appended).
    pub(crate) encode: EncodeFn,
}

/// The scalar engine: the reference the tests compare [`ENGINE`] with.
#[cfg(test)]
pub(crate) static SCALAR: Kernel = Kernel {
    decode: decode_scalar,
    encode: encode_scalar,
};

/// The engine in use: decoding through the CPU's table-lookup kernel.
pub(crate) static ENGINE: Kernel = Kernel { decode, encode };

/// The engine in use.
pub(crate) fn kernel() -> &'static Kernel {
    &ENGINE
}

/// Blocks of this many bytes go to UTF-16 (the table-lookup kernel) and
/// then to UTF-8 (transcode's kernel), on the stack.
const BLOCK: usize = 1024;

fn decode(page: &SingleByte, src: &[u8], dst: &mut String) -> Result<(), usize> {
    decode_with(crate::arch::chosen(), page, src, dst)
}

/// [`decode`] through the kernel `k` (the dispatched one, or one a
/// benchmark names: [`crate::Engine`]).
pub(crate) fn decode_with(
    k: &'static crate::arch::Kernel,
    page: &SingleByte,
    src: &[u8],
    dst: &mut String,
) -> Result<(), usize> {
    // A few bytes (a stream fed in tiny pieces) cost less one by one than
    // a kernel call and its set-up (NEON's builds its tables in each call;
    // x86-64's keep them per page).
    if src.len() < 16 {
        for (i, &b) in src.iter().enumerate() {
            dst.push(page.decode_byte(b).ok_or(i)?);
        }
        return Ok(());
    }
    // The fused kernel, where the CPU has one.
    let mut i = 0;
    while let Some(n) = crate::arch::decode_to_utf8_with(k, page, &src[i..], dst) {
        i += n;
        if i == src.len() {
            return Ok(());
        }
        match page.decode_byte(src[i]) {
            Some(c) => dst.push(c),
            None => return Err(i),
        }
        i += 1;
    }
    // A kernel this CPU cannot run leaves the work to the scalar one.
    let k = if k.isa.is_available() {
        k
    } else {
        &crate::arch::SCALAR
    };
    dst.reserve(src.len());
    let mut units = [0u16; BLOCK];
    let mut bytes = [0u8; 3 * BLOCK];
    while i < src.len() {
        let block = &src[i..src.len().min(i + BLOCK)];
        let n = k.to_utf16(page, block, &mut units).unwrap_or(0);
        // Every unit is a BMP character that is not a surrogate (the
        // generator checks), so neither conversion can fail.
        if let Ok(len) = transcode::utf16_to_utf8(&units[..n], &mut bytes)
            && let Ok(text) = utf8_simd::from_utf8(&bytes[..len])
        {
            dst.push_str(text);
        }
        i += n;
        if n < block.len() {
            // The kernel stopped at an undefined byte.
            match page.decode_byte(src[i]) {
                Some(c) => dst.push(c),
                None => return Err(i),
            }
            i += 1;
        }
    }
    Ok(())
}

/// Encodes through the dense table of the one- and two-byte characters
/// (the kernel's dense encoder, then 16-byte windows of them without a
/// branch a character, ASCII copied), and the two-level inverse for the
/// rest.
/// Each character is at least one byte of `src` and one of output, so the
/// output is sized once and cut back.
fn encode(page: &SingleByte, src: &str, dst: &mut Vec<u8>) -> Result<(), (usize, char)> {
    encode_with(
        page,
        src,
        dst,
        crate::arch::encode_dense(page.ascii_compatible()),
    )
}

/// [`encode`] with the dense encoder of the kernel `k`, if it has one.
pub(crate) fn encode_by(
    k: &'static crate::arch::Kernel,
    page: &SingleByte,
    src: &str,
    dst: &mut Vec<u8>,
) -> Result<(), (usize, char)> {
    encode_with(page, src, dst, k.dense_encoder(page.ascii_compatible()))
}

/// [`encode`] with the given SIMD dense encoder (or none), in pieces that
/// grow fourfold from 1 KiB to 64 KiB, so that a call that stops early at
/// an unmappable character has not scanned the rest of the text for ASCII
/// (quadratic under `-c` or a replacement mode on text with many of them).
/// The output is reserved for all of `src` at once (capacity, not
/// written): reserved piece by piece, the vector grew by doubling, each
/// time copied (3–4% of `codec convert`'s CPU time to windows-1252).
fn encode_with(
    page: &SingleByte,
    src: &str,
    dst: &mut Vec<u8>,
    fast: Option<crate::arch::DenseEncoder>,
) -> Result<(), (usize, char)> {
    dst.reserve(src.len());
    let (mut at, mut piece) = (0, 1024);
    while at < src.len() {
        let mut end = (at + piece).min(src.len());
        while !src.is_char_boundary(end) {
            end += 1;
        }
        encode_piece(page, &src[at..end], dst, fast).map_err(|(i, c)| (at + i, c))?;
        at = end;
        piece = (4 * piece).min(1 << 16);
    }
    Ok(())
}

/// Encodes all of `src` through `page`, calling `substitute(c, dst)` for
/// each character `c` the page cannot hold (a lossy mode writes its
/// substitute there). Where the strict encoder stops at each such
/// character (and the [`crate::Encoder`] goes round its loop, sizing a new
/// piece, for the next), this one goes on: the bulk in pieces through the
/// dense encoders as [`encode_with`], and after an unmappable character a
/// character at a time through the two-level inverse until 32 bytes pass
/// without one (text in a script the page lacks never leaves that loop);
/// then pieces again, growing from 64 bytes as they go through whole.
pub(crate) fn encode_lossy(
    page: &SingleByte,
    src: &str,
    dst: &mut Vec<u8>,
    substitute: impl FnMut(char, &mut Vec<u8>),
) {
    let fast = crate::arch::encode_dense(page.ascii_compatible());
    encode_lossy_with(page, src, dst, fast, substitute);
}

/// [`encode_lossy`] with the given SIMD dense encoder (or none).
pub(crate) fn encode_lossy_with(
    page: &SingleByte,
    src: &str,
    dst: &mut Vec<u8>,
    fast: Option<crate::arch::DenseEncoder>,
    mut substitute: impl FnMut(char, &mut Vec<u8>),
) {
    /// Bytes without an unmappable character after which the character
    /// loop hands back to the pieces.
    const QUIET: usize = 32;
    let inverse = page.inverse();
    let bytes = src.as_bytes();
    // A byte a character, but for substitutes (see `encode_with`).
    dst.reserve(src.len());
    let (mut i, mut piece) = (0, 64);
    while i < bytes.len() {
        let mut end = (i + piece).min(bytes.len());
        while !src.is_char_boundary(end) {
            end += 1;
        }
        match encode_piece(page, &src[i..end], dst, fast) {
            Ok(()) => {
                i = end;
                piece = (2 * piece).min(1 << 16);
                continue;
            }
            Err((at, c)) => {
                substitute(c, dst);
                i += at + c.len_utf8();
                piece = 64;
            }
        }
        let mut quiet = 0;
        while quiet < QUIET {
            let Some(&b) = bytes.get(i) else { break };
            // The UTF-8 of `src` is valid: a lead has its continuations.
            let next = |k: usize| u32::from(bytes.get(i + k).copied().unwrap_or(0) & 0x3F);
            let (c, len) = match b {
                0x00..=0x7F => (u32::from(b), 1),
                0xC0..=0xDF => (u32::from(b & 0x1F) << 6 | next(1), 2),
                0xE0..=0xEF => (u32::from(b & 0x0F) << 12 | next(1) << 6 | next(2), 3),
                _ => (
                    u32::from(b & 0x07) << 18 | next(1) << 12 | next(2) << 6 | next(3),
                    4,
                ),
            };
            match u16::try_from(c).ok().and_then(|u| inverse.get(u)) {
                Some(e) => {
                    dst.push(e);
                    quiet += len;
                }
                None => {
                    if let Some(ch) = char::from_u32(c) {
                        substitute(ch, dst);
                    }
                    quiet = 0;
                }
            }
            i += len;
        }
    }
}

/// [`encode_with`] on one piece: the run of ASCII at its start copied
/// into `dst`'s spare capacity by the kernel's copier (on an
/// ASCII-compatible page: [`crate::arch::Ascii`]; pure ASCII text is then
/// all copied), the rest in [`encode_rest`].
fn encode_piece(
    page: &SingleByte,
    src: &str,
    dst: &mut Vec<u8>,
    fast: Option<crate::arch::DenseEncoder>,
) -> Result<(), (usize, char)> {
    let skip = fast.map_or(0, |f| f.append_ascii(src.as_bytes(), dst));
    // The run is ASCII: `skip` is at a character boundary.
    match src.get(skip..) {
        Some(rest) if !rest.is_empty() => {
            encode_rest(page, rest, dst, fast).map_err(|(i, c)| (skip + i, c))
        }
        _ => Ok(()),
    }
}

/// Encodes the longest head of `src`, bytes that may not be UTF-8, that
/// the chosen kernel's checked dense encoder takes whole (its run of ASCII
/// blocks copied first): well-formed UTF-8 of characters `page` holds, up
/// to the first block that is not so or the last whole block; returns its
/// length (at the start of a character), 0 where the kernel has no checked
/// encoder.
pub(crate) fn encode_checked(page: &SingleByte, src: &[u8], dst: &mut Vec<u8>) -> usize {
    let Some(fast) = crate::arch::encode_dense_checked(page.ascii_compatible()) else {
        return 0;
    };
    encode_checked_with(page, src, dst, fast)
}

/// [`encode_checked`] through `fast`, a checked encoder.
pub(crate) fn encode_checked_with(
    page: &SingleByte,
    src: &[u8],
    dst: &mut Vec<u8>,
    fast: crate::arch::DenseEncoder,
) -> usize {
    let skip = fast.append_ascii(src, dst);
    let rest = &src[skip..];
    skip + crate::arch::append_with(dst, rest.len(), |out| {
        out.dense(fast, page.dense(), rest, 0)
    })
}

/// [`encode_piece`] after its run of ASCII, written into `dst`'s spare
/// capacity ([`crate::arch::Out`]: a byte a character at most, and
/// nothing zeroed first).
fn encode_rest(
    page: &SingleByte,
    src: &str,
    dst: &mut Vec<u8>,
    fast: Option<crate::arch::DenseEncoder>,
) -> Result<(), (usize, char)> {
    const HIGH: u128 = u128::from_ne_bytes([0x80; 16]);
    let table = page.dense();
    let dense = &table.bytes;
    let ascii = page.ascii_compatible();
    let bytes = src.as_bytes();
    crate::arch::append_with(dst, bytes.len(), |out| {
        let mut i = 0;
        loop {
            // A block at a time where the chosen kernel has a dense encoder.
            if let Some(fast) = fast {
                i = out.dense(fast, table, bytes, i);
            }
            let resume = i + 64;
            // Windows of 16 bytes (and the byte after, for a last lead) with
            // no lead of a 3- or 4-byte character: every character in it
            // goes through the dense table without a branch; an unmappable
            // one (or U+0000) sends the window back to the character loop
            // below, what it wrote cut back.
            while let Some(block) = bytes.get(i..i + 17).filter(|_| i < resume) {
                let mut word = [0u8; 16];
                word.copy_from_slice(&block[..16]);
                let x = u128::from_ne_bytes(word);
                if ascii && x & HIGH == 0 {
                    out.extend(&block[..16]);
                    i += 16;
                    continue;
                }
                // Bit 7 of a byte and of it shifted by one and two: 111xxxxx.
                if x & (x << 1) & (x << 2) & HIGH != 0 {
                    break;
                }
                // The characters start at the bytes that are not 10xxxxxx:
                // walking their mask keeps the loads off the loop's chain.
                let starts = high_bits(!(x & !(x << 1)));
                let mark = out.len();
                let mut missing = false;
                let mut m = starts;
                while m != 0 {
                    let j = i + m.trailing_zeros() as usize;
                    m &= m - 1;
                    let b = usize::from(bytes[j]);
                    let c = if b >= 0xC0 {
                        (b & 0x1F) << 6 | usize::from(bytes[j + 1] & 0x3F)
                    } else {
                        b
                    };
                    let e = dense[c];
                    missing |= e == 0;
                    out.push(e);
                }
                if missing {
                    out.truncate(mark);
                    break;
                }
                // A lead in the last byte takes the byte after the window.
                i += 16 + usize::from(block[15] >= 0xC0);
            }
            let Some(&b) = bytes.get(i) else {
                break Ok(());
            };
            let (c, len) = match b {
                0x00..=0x7F => (usize::from(b), 1),
                0xC0..=0xDF => {
                    let next = bytes.get(i + 1).copied().unwrap_or(0);
                    (usize::from(b & 0x1F) << 6 | usize::from(next & 0x3F), 2)
                }
                _ => (0x800, 0),
            };
            if let Some(&e) = dense.get(c).filter(|&&e| e != 0) {
                out.push(e);
                i += len;
                continue;
            }
            let Some(ch) = src.get(i..).and_then(|rest| rest.chars().next()) else {
                break Ok(());
            };
            match page.encode_char(ch) {
                Some(e) => out.push(e),
                None => break Err((i, ch)),
            }
            i += ch.len_utf8();
        }
    })
}

/// Bit 7 of each byte of `x` (in memory order), as a 16-bit mask.
fn high_bits(x: u128) -> u32 {
    let bytes = x.to_ne_bytes();
    let half = |h: &[u8]| {
        let mut word = [0u8; 8];
        word.copy_from_slice(h);
        // One bit a byte, gathered into the top byte by the multiply.
        let t = (u64::from_le_bytes(word) >> 7) & 0x0101_0101_0101_0101;
        (t.wrapping_mul(0x0102_0408_1020_4080) >> 56) as u32
    };
    half(&bytes[..8]) | half(&bytes[8..]) << 8
}

#[cfg(test)]
fn decode_scalar(page: &SingleByte, src: &[u8], dst: &mut String) -> Result<(), usize> {
    dst.reserve(src.len());
    let ascii = page.ascii_compatible();
    let mut i = 0;
    while i < src.len() {
        if ascii {
            // ASCII runs are copied whole.
            let run = src[i..]
                .iter()
                .position(|b| !b.is_ascii())
                .unwrap_or(src.len() - i);
            if run > 0 {
                if let Ok(s) = core::str::from_utf8(&src[i..i + run]) {
                    dst.push_str(s);
                }
                i += run;
                continue;
            }
        }
        match page.decode_byte(src[i]) {
            Some(c) => dst.push(c),
            None => return Err(i),
        }
        i += 1;
    }
    Ok(())
}

#[cfg(test)]
fn encode_scalar(page: &SingleByte, src: &str, dst: &mut Vec<u8>) -> Result<(), (usize, char)> {
    dst.reserve(src.len());
    let ascii = page.ascii_compatible();
    let bytes = src.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        if ascii {
            // ASCII runs are copied whole (the compiler vectorises the
            // scan).
            let run = bytes[i..].iter().take_while(|b| b.is_ascii()).count();
            dst.extend_from_slice(&bytes[i..i + run]);
            i += run;
        }
        let Some(c) = src.get(i..).and_then(|rest| rest.chars().next()) else {
            break;
        };
        match page.encode_char(c) {
            Some(b) => dst.push(b),
            None => return Err((i, c)),
        }
        i += c.len_utf8();
    }
    Ok(())
}

macro_rules! pages {
    ($($name:ident),* $(,)?) => {
        $(pub(crate) static $name: SingleByte = SingleByte::new(&tables::$name);)*

        /// Every page, for the kernels' tests.
        #[cfg(test)]
        pub(crate) fn all_pages() -> Vec<&'static SingleByte> {
            vec![$(&$name),*]
        }
    };
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Text of three-byte characters only (more than the two bytes a
    /// byte the fused kernel first reserves), long enough for several of
    /// its chunks, then an undefined byte: equal to the scalar engine.
    #[test]
    fn three_byte_text_equals_scalar() {
        for page in all_pages() {
            let wide: Vec<u8> = (0..=255u8)
                .filter(|&b| page.decode_byte(b).is_some_and(|c| c.len_utf8() == 3))
                .collect();
            if wide.is_empty() {
                continue;
            }
            let undefined = (0..=255u8).find(|&b| page.decode_byte(b).is_none());
            for len in [100, 20_000, 50_001] {
                let mut src: Vec<u8> = (0..len).map(|i| wide[i % wide.len()]).collect();
                src.extend(undefined);
                src.extend_from_slice(&wide);
                let (mut a, mut b) = (String::new(), String::new());
                let x = (ENGINE.decode)(page, &src, &mut a);
                let y = (SCALAR.decode)(page, &src, &mut b);
                assert_eq!((x, a.len()), (y, b.len()));
                assert!(a == b);
            }
        }
    }

    /// Lines and columns of single-byte text count the one byte that
    /// decodes to U+000A ([`SingleByte::newline`]): no page has two.
    #[test]
    fn one_newline_byte_at_most() {
        for page in all_pages() {
            let n = page.table.iter().filter(|&&u| u == 0x0A).count();
            assert!(n <= 1, "{n}");
            assert_eq!(page.newline().is_some(), n == 1);
        }
    }

    /// The dispatched encoder against the scalar one on every page: text
    /// of the page's characters (ASCII-heavy and not), with an unmappable
    /// character at a random place in some rounds, at every length to 300
    /// and long ones; the output before an error and its position agree.
    #[test]
    fn engine_encodes_as_scalar() {
        let mut next = crate::xorshift(0xE1C0_DE5E_ED00_0001_u64);
        let foreign = [
            '\u{0}', 'é', 'Ж', 'Ω', '€', '\u{7FF}', '\u{800}', '😀', '\u{FFFD}',
        ];
        for page in all_pages() {
            let chars: Vec<char> = (0..=255u8).filter_map(|b| page.decode_byte(b)).collect();
            let high: Vec<char> = (0x80..=255u8).filter_map(|b| page.decode_byte(b)).collect();
            for len in (0..=300).chain([4095, 4096, 9000]) {
                // The page's characters of one 128-character slice from
                // U+0080 to U+07FF (one pair of UTF-8 leads), as a script's
                // text is: the fast kernels' case.
                let slice = high
                    .get(next() as usize % high.len().max(1))
                    .map(|&c| u32::from(c) >> 7);
                let script: Vec<char> = chars
                    .iter()
                    .copied()
                    .filter(|&c| Some(u32::from(c) >> 7) == slice && u32::from(c) < 0x800)
                    .collect();
                // And two such slices (French: é in C3, œ in C5).
                let other = high
                    .get(next() as usize % high.len().max(1))
                    .map(|&c| u32::from(c) >> 7);
                let scripts: Vec<char> = chars
                    .iter()
                    .copied()
                    .filter(|&c| {
                        let s = Some(u32::from(c) >> 7);
                        (s == slice || s == other) && u32::from(c) < 0x800
                    })
                    .collect();
                for round in 0..8 {
                    let mut text: String = (0..len)
                        .map(|_| match round {
                            0 | 3 => chars[next() as usize % chars.len()],
                            4 | 5 if !script.is_empty() && !next().is_multiple_of(3) => {
                                script[next() as usize % script.len()]
                            }
                            6 | 7 if !scripts.is_empty() && !next().is_multiple_of(3) => {
                                scripts[next() as usize % scripts.len()]
                            }
                            _ if next().is_multiple_of(8) && !high.is_empty() => {
                                high[next() as usize % high.len()]
                            }
                            _ => char::from(next() as u8 & 0x7F),
                        })
                        .collect();
                    if (round == 2 || round == 3 || round == 5 || round == 7) && len > 0 {
                        let mut at = next() as usize % text.len();
                        while !text.is_char_boundary(at) {
                            at -= 1;
                        }
                        text.insert(at, foreign[next() as usize % foreign.len()]);
                    }
                    let (mut a, mut b) = (vec![7u8], vec![7u8]);
                    let x = (ENGINE.encode)(page, &text, &mut a);
                    let y = (SCALAR.encode)(page, &text, &mut b);
                    assert_eq!((x, &a), (y, &b), "{text:?}");
                    // Each SIMD dense encoder the CPU has, and none.
                    let kernels = crate::arch::dense_encoders(page.ascii_compatible());
                    let kernels = kernels.iter().map(|&(n, k)| (n, Some(k)));
                    for (name, k) in kernels.chain([("none", None)]) {
                        let mut c = vec![7u8];
                        let z = encode_with(page, &text, &mut c, k);
                        assert_eq!((z, &c), (y, &b), "{name} {text:?}");
                    }
                }
            }
        }
    }

    /// The two-level inverse against a search of the table, on every page
    /// and every code point of the BMP: the lowest byte that decodes to it.
    #[test]
    fn inverse_is_the_lowest_byte_of_each_character() {
        for page in all_pages() {
            let inverse = page.inverse();
            for c in 0..=0xFFFF_u16 {
                let want = (0..=255u8).find(|&b| page.table[usize::from(b)] == c && c != UNDEFINED);
                assert_eq!(inverse.get(c), want, "{c:#06X}");
            }
        }
    }

    /// The lossy encoder (with each dense encoder the CPU runs, and none)
    /// against the strict scalar one restarted after each character it
    /// stops at, on every page: text of the page's characters with
    /// characters it lacks (CJK, emoji, others) mixed in at densities from
    /// one in 64 to all of them, in runs and alone, at lengths around the
    /// 32-byte quiet stretch and the pieces. The substitute writes the
    /// character's code point in raw bytes, so each call's character and
    /// place show in the output.
    #[test]
    fn lossy_encode_equals_strict_restarted() {
        let mut next = crate::xorshift(0x1055_EEDC_0DE5_0001_u64);
        let foreign = [
            '中', '文', '😀', '\u{FFFF}', '\u{800}', '\u{7FF}', 'Ж', 'é', '€', '\u{0}',
        ];
        let sub = |c: char, dst: &mut Vec<u8>| {
            dst.push(0xFF);
            dst.extend_from_slice(&u32::from(c).to_le_bytes()[..3]);
        };
        for page in all_pages() {
            let chars: Vec<char> = (0..=255u8).filter_map(|b| page.decode_byte(b)).collect();
            for len in [0, 1, 2, 31, 32, 33, 65, 100, 300, 1500, 5000] {
                for round in 0..6u64 {
                    // One character in 2^(6 - round) foreign, round 5
                    // half, and then runs of them.
                    let text: String = (0..len)
                        .map(|k| {
                            let foreign_now = match round {
                                5 => (k / 40) % 2 == 0,
                                r => next().is_multiple_of(1 << (6 - r)),
                            };
                            if foreign_now {
                                foreign[next() as usize % foreign.len()]
                            } else {
                                chars[next() as usize % chars.len()]
                            }
                        })
                        .collect();
                    let mut want = vec![7u8];
                    let mut rest = text.as_str();
                    while let Err((at, c)) = (SCALAR.encode)(page, rest, &mut want) {
                        sub(c, &mut want);
                        rest = &rest[at + c.len_utf8()..];
                    }
                    let kernels = crate::arch::dense_encoders(page.ascii_compatible());
                    let kernels = kernels.iter().map(|&(n, k)| (n, Some(k)));
                    for (name, k) in kernels.chain([("none", None)]) {
                        let mut got = vec![7u8];
                        encode_lossy_with(page, &text, &mut got, k, sub);
                        assert_eq!(got, want, "{name} {text:?}");
                    }
                }
            }
        }
    }

    /// The dispatched engine (the fused UTF-8 kernel where the CPU has one)
    /// against the scalar one on every page, on random bytes (undefined
    /// ones included, and one undefined byte at a random place) at every
    /// length to 300 and around the 1024-byte staging blocks and the
    /// 4096-byte chunks of the fused kernel.
    #[test]
    fn engine_equals_scalar() {
        let mut next = crate::xorshift(0x0DDB_1A5E_5BAD_5EED_u64);
        for page in all_pages() {
            let defined: Vec<u8> = (0..=255u8)
                .filter(|&b| page.decode_byte(b).is_some())
                .collect();
            let high: Vec<u8> = defined.iter().copied().filter(|&b| b >= 0x80).collect();
            for len in (0..=300).chain([1023, 1024, 1025, 2050, 4095, 4096, 4097, 9000]) {
                for round in 0..6 {
                    let mut src: Vec<u8> = (0..len)
                        .map(|_| match round {
                            0 => next() as u8,
                            1 | 5 => defined[next() as usize % defined.len()],
                            2 => next() as u8 & 0x7F,
                            3 => (next() as u8) | 0x80,
                            // Mostly ASCII with some of the high half.
                            _ if next().is_multiple_of(8) && !high.is_empty() => {
                                high[next() as usize % high.len()]
                            }
                            _ => defined[next() as usize % defined.len()] & 0x7F,
                        })
                        .collect();
                    if round == 5 && len > 0 {
                        // One undefined byte (where the page has one) at a
                        // random place: the error position.
                        if let Some(b) = (0..=255u8).find(|&b| page.decode_byte(b).is_none()) {
                            src[next() as usize % len] = b;
                        }
                    }
                    let (mut a, mut b) = (String::from("s"), String::from("s"));
                    let x = (ENGINE.decode)(page, &src, &mut a);
                    let y = (SCALAR.decode)(page, &src, &mut b);
                    assert_eq!((x, &a), (y, &b), "{src:02X?}");
                }
            }
        }
    }

    /// The affine runs of the dense tables' slices, on pages whose mappings
    /// are published facts: windows-1252 U+00A0–U+00FF to A0–FF (pair
    /// C2/C3, indexes 0x20–0x7F); windows-1251 U+0410–U+044F to C0–FF (pair
    /// D0/D1, indexes 0x10–0x4F); IBM866 U+0410–U+043F to 80–AF and
    /// U+0440–U+044F to E0–EF (indexes 0x10–0x3F, 0x40–0x4F); ISO-8859-7
    /// U+03A3–U+03CE to D3–FE and U+038E–U+03A1 to BE–D1 (pair CE/CF,
    /// indexes 0x23–0x4E, 0x0E–0x21); KOI8-R orders its Cyrillic as the
    /// Latin alphabet, so none of its slices has a run.
    #[test]
    fn dense_runs_of_known_pages() {
        // (page, lead pair, the first run's lo, len, delta, the second's)
        type Case = (&'static SingleByte, u8, (u8, u8, u8), (u8, u8, u8));
        let cases: [Case; 4] = [
            (&WHATWG_WINDOWS_1252, 0xC2, (0x20, 0x60, 0x80), (0, 0, 0)),
            (&WHATWG_WINDOWS_1251, 0xD0, (0x10, 0x40, 0xB0), (0, 0, 0)),
            (&WHATWG_IBM866, 0xD0, (0x10, 0x30, 0x70), (0x40, 0x10, 0xA0)),
            (
                &WHATWG_ISO_8859_7,
                0xCE,
                (0x23, 0x2C, 0xB0),
                (0x0E, 0x14, 0xB0),
            ),
        ];
        for (page, pair, first, second) in cases {
            let runs = &page.dense().runs;
            // The slot: bits 1-4 of the lead.
            let p = usize::from((pair >> 1) & 0xF);
            let (a, b) = (&runs.first, &runs.second);
            assert_eq!((a.lo[p], a.len[p], a.delta[p]), first);
            assert_eq!((b.lo[p], b.len[p], b.delta[p]), second);
            assert!(runs.any);
        }
        let koi8 = &WHATWG_KOI8_R.dense().runs;
        assert_eq!(
            (koi8.first.len, koi8.any, koi8.two),
            ([0; 16], false, false)
        );
    }

    /// On every page and every slice, each run is affine and mapped, the
    /// first is the longest such run, the second the longest outside the
    /// first (a search of every start), neither shorter than 16; `bias`
    /// and `limit` say the same as `lo` and `len`.
    #[test]
    fn dense_runs_are_the_longest() {
        for page in all_pages() {
            let dense = page.dense();
            let runs = &dense.runs;
            for p in 0..16 {
                let slice = &dense.bytes[128 * p..128 * p + 128];
                // The length of the affine stretch from `start` that stays
                // out of `skip`.
                let affine_from = |start: usize, skip: &core::ops::Range<usize>| {
                    let delta = slice[start].wrapping_sub(start as u8);
                    (start..128)
                        .take_while(|&k| {
                            !skip.contains(&k)
                                && slice[k] != 0
                                && slice[k].wrapping_sub(k as u8) == delta
                        })
                        .count()
                };
                let mut skip = 0..0;
                for run in [&runs.first, &runs.second] {
                    let longest = (0..128).map(|k| affine_from(k, &skip)).max().unwrap_or(0);
                    let (lo, len) = (usize::from(run.lo[p]), usize::from(run.len[p]));
                    if len == 0 {
                        assert!(p == 0 || longest < 16, "slot {p}: {longest}");
                        assert_eq!(run.limit[p], 128);
                        // No first run: no second either.
                        skip = 0..128;
                        continue;
                    }
                    assert!(p != 0 && len >= 16);
                    assert_eq!(len, longest, "slot {p}");
                    assert!(affine_from(lo, &skip) >= len);
                    for k in 0..128u8 {
                        let inside = usize::from(k) >= lo && usize::from(k) < lo + len;
                        let t = k.wrapping_add(run.bias[p]) as i8;
                        assert_eq!(t < run.limit[p] as i8, inside, "slot {p} index {k}");
                        if inside {
                            assert_eq!(slice[usize::from(k)], k.wrapping_add(run.delta[p]));
                        }
                    }
                    skip = lo..lo + len;
                }
            }
        }
    }

    /// Each dense encoder against the scalar one on every page with runs,
    /// for each slice's run: text of the run's characters (the first, the
    /// last and between: blocks the affine path takes), then with a
    /// character at each of the first 64 byte positions (every lane of a
    /// 16-, 32- and 64-byte block, after one and two-byte characters)
    /// that is in the run, mapped but outside it (the fallback), in
    /// another slice's run (two pairs in a block), unmapped (the encoder
    /// stops there), U+0000, of three bytes, or of a third pair. At 63 the
    /// character's lead ends a 64-byte block and its continuation starts
    /// the next (VBMI carries the lead).
    #[test]
    fn dense_encoders_at_every_position_of_affine_runs() {
        for page in all_pages() {
            let dense = page.dense();
            let runs = &dense.runs;
            let kernels = crate::arch::dense_encoders(page.ascii_compatible());
            let code = |p: usize, k: usize| char::from_u32((128 * p + k) as u32).unwrap();
            // Each run: (slot, lo, len).
            let all: Vec<(usize, usize, usize)> = [&runs.first, &runs.second]
                .iter()
                .flat_map(|r| (0..16).map(|p| (p, usize::from(r.lo[p]), usize::from(r.len[p]))))
                .filter(|&(_, _, len)| len != 0)
                .collect();
            for &(p, lo, len) in &all {
                let run: Vec<char> = (lo..lo + len).map(|k| code(p, k)).collect();
                let slice = &dense.bytes[128 * p..128 * p + 128];
                // Mapped outside the run (nearest to its ends first), and
                // unmapped, in the same slice.
                let mut outside: Vec<usize> = (0..128)
                    .filter(|&k| (k < lo || k >= lo + len) && slice[k] != 0)
                    .collect();
                outside.sort_by_key(|&k| k.abs_diff(lo).min(k.abs_diff(lo + len - 1)));
                let unmapped: Vec<char> = (0..128)
                    .filter(|&k| slice[k] == 0)
                    .map(|k| code(p, k))
                    .collect();
                // The last character of another slice's run, and of the
                // slice's other run.
                let others = all
                    .iter()
                    .filter(|&&(q, qlo, _)| q != p || qlo != lo)
                    .map(|&(q, qlo, qlen)| (q == p, code(q, qlo + qlen - 1)));
                let other = others.clone().find(|&(same, _)| !same).map(|(_, c)| c);
                let sibling = others.clone().find(|&(same, _)| same).map(|(_, c)| c);
                let mut specials: Vec<char> = vec!['\0', run[0], run[len - 1]];
                specials.extend(outside.iter().take(2).map(|&k| code(p, k)));
                specials.extend(unmapped.first());
                specials.extend(other);
                specials.extend(sibling);
                // A three-byte character, and one of a slice no page maps
                // (a third pair beside two runs' pairs).
                specials.extend(['€', '\u{7FF}']);
                let body = |n: usize, shift: usize| -> String {
                    (0..n).map(|k| run[(k * 7 + shift) % len]).collect()
                };
                let mut texts = vec![body(150, 0)];
                for at in 0..64 {
                    // `at` bytes before the special: two-byte characters,
                    // after an ASCII one where `at` is odd.
                    let head = if at % 2 == 1 { "a" } else { "" };
                    for &c in &specials {
                        texts.push(format!("{head}{}{c}{}", body(at / 2, 3), body(100, 5)));
                    }
                }
                for text in &texts {
                    let mut want = vec![7u8];
                    let y = (SCALAR.encode)(page, text, &mut want);
                    for (name, k) in kernels
                        .iter()
                        .map(|&(n, k)| (n, Some(k)))
                        .chain([("none", None)])
                    {
                        let mut got = vec![7u8];
                        let z = encode_with(page, text, &mut got, k);
                        assert_eq!((z, &got), (y, &want), "{name} slot {p} {text:?}");
                    }
                }
            }
        }
    }

    /// Each checked dense encoder (bytes that may not be UTF-8) on every
    /// page: text of the page's characters (one and two bytes, some of two
    /// pairs, some ASCII), whole and with one byte made wrong at each of
    /// the first 130 positions in turn (a lone continuation, a lead before
    /// ASCII, an overlong C0/C1 lead, a lead of three or four bytes, a
    /// byte no UTF-8 has), cut at 0–3 bytes short: what it takes is
    /// well-formed UTF-8 (`from_utf8`), written as the scalar encoder
    /// writes it, and on the whole text all its whole blocks.
    #[test]
    fn checked_encoders_take_only_well_formed_utf8() {
        let mut next = crate::xorshift(0xC4EC_0ED0_0000_0003_u64);
        for page in all_pages() {
            let kernels = crate::arch::checked_encoders(page.ascii_compatible());
            // ASCII and the characters of two lead pairs (the kernels take
            // blocks of at most two).
            let all: Vec<char> = (1..=255u8).filter_map(|b| page.decode_byte(b)).collect();
            let high: Vec<u32> = all
                .iter()
                .map(|&c| u32::from(c))
                .filter(|c| (0x80..0x800).contains(c))
                .collect();
            let pairs = [0, 1].map(|_| {
                high.get(next() as usize % high.len().max(1))
                    .map(|c| c >> 7)
            });
            let chars: Vec<char> = all
                .iter()
                .copied()
                .filter(|&c| c.is_ascii() || pairs.contains(&Some(u32::from(c) >> 7)))
                .collect();
            let text: String = (0..200)
                .map(|_| chars[next() as usize % chars.len()])
                .collect();
            let src = text.as_bytes();
            let wrongs = [0x80, 0xBF, 0xC3, 0xC0, 0xC1, 0xE2, 0xF0, 0xFF];
            let mut inputs = vec![src.to_vec()];
            for at in 0..130.min(src.len()) {
                let mut bad = src.to_vec();
                bad[at] = wrongs[next() as usize % wrongs.len()];
                inputs.push(bad);
                // A lead before ASCII (a block of it after a carried lead).
                let mut ascii = vec![b'a'; 200];
                ascii[at] = 0xC3;
                inputs.push(ascii);
            }
            for (whole, input) in inputs.iter().enumerate().map(|(k, x)| (k == 0, x)) {
                for short in 0..4 {
                    let input = &input[..input.len() - short];
                    for &(name, k) in &kernels {
                        let mut out = vec![7u8];
                        let n = encode_checked_with(page, input, &mut out, k);
                        let Ok(taken) = core::str::from_utf8(&input[..n]) else {
                            panic!("{name}: took {n} bytes, not UTF-8: {input:02X?}");
                        };
                        let mut want = vec![7u8];
                        assert_eq!((SCALAR.encode)(page, taken, &mut want), Ok(()), "{name}");
                        assert_eq!(out, want, "{name} {input:02X?}");
                        if whole {
                            let len = input.len();
                            assert!(n + 64 + 1 >= len, "{name} took {n} of {len}: {text:?}");
                        }
                    }
                }
            }
        }
    }

    /// Each dense encoder takes every whole block of text of a page's
    /// two-byte characters of one lead pair, or of two, with no ASCII
    /// (the first block at 0, a lead first) and with ASCII between: it
    /// stops (for the caller's exact path) only within its last block and
    /// a carried lead of the end. What it wrote is tested against the
    /// scalar encoder above; this tests that it wrote it: a block the
    /// kernel leaves to the exact path by mistake costs speed, not
    /// exactness, and no output shows it.
    #[test]
    fn dense_encoders_take_every_block_of_two_pairs() {
        let mut next = crate::xorshift(0x7A4E_B10C_5000_0002_u64);
        for page in all_pages() {
            let kernels = crate::arch::dense_encoders(page.ascii_compatible());
            // The page's two-byte characters, by lead pair (U+0080 on, 128
            // code points a pair).
            let mut pairs: Vec<Vec<char>> = vec![Vec::new(); 16];
            for c in (0x80..=255u8).filter_map(|b| page.decode_byte(b)) {
                if (0x80..0x800).contains(&u32::from(c)) {
                    pairs[(u32::from(c) >> 7) as usize].push(c);
                }
            }
            let used: Vec<usize> = (0..16).filter(|&p| !pairs[p].is_empty()).collect();
            let mut sets: Vec<Vec<char>> = used.iter().map(|&p| pairs[p].clone()).collect();
            for (n, &a) in used.iter().enumerate() {
                for &b in &used[n + 1..] {
                    sets.push([pairs[a].clone(), pairs[b].clone()].concat());
                }
            }
            for set in &sets {
                for ascii in [false, true] {
                    let text: String = (0..300)
                        .map(|k| {
                            if ascii && k % 3 == 2 && page.ascii_compatible() {
                                'a'
                            } else {
                                set[next() as usize % set.len()]
                            }
                        })
                        .collect();
                    let src = text.as_bytes();
                    for &(name, k) in &kernels {
                        let mut out = Vec::new();
                        let i = crate::arch::append_with(&mut out, src.len() + 128, |o| {
                            o.dense(k, page.dense(), src, 0)
                        });
                        assert!(
                            i + 64 + 1 >= src.len(),
                            "{name} stopped at {i} of {} ({text:?})",
                            src.len()
                        );
                    }
                }
            }
        }
    }
}

pages!(
    WHATWG_IBM866,
    WHATWG_ISO_8859_2,
    WHATWG_ISO_8859_3,
    WHATWG_ISO_8859_4,
    WHATWG_ISO_8859_5,
    WHATWG_ISO_8859_6,
    WHATWG_ISO_8859_7,
    WHATWG_ISO_8859_8,
    WHATWG_ISO_8859_10,
    WHATWG_ISO_8859_13,
    WHATWG_ISO_8859_14,
    WHATWG_ISO_8859_15,
    WHATWG_ISO_8859_16,
    WHATWG_KOI8_R,
    WHATWG_KOI8_U,
    WHATWG_MACINTOSH,
    WHATWG_WINDOWS_874,
    WHATWG_WINDOWS_1250,
    WHATWG_WINDOWS_1251,
    WHATWG_WINDOWS_1252,
    WHATWG_WINDOWS_1253,
    WHATWG_WINDOWS_1254,
    WHATWG_WINDOWS_1255,
    WHATWG_WINDOWS_1256,
    WHATWG_WINDOWS_1257,
    WHATWG_WINDOWS_1258,
    WHATWG_X_MAC_CYRILLIC,
    WHATWG_X_USER_DEFINED,
    GLIBC_ISO_8859_2,
    GLIBC_ISO_8859_3,
    GLIBC_ISO_8859_4,
    GLIBC_ISO_8859_5,
    GLIBC_ISO_8859_6,
    GLIBC_ISO_8859_7,
    GLIBC_ISO_8859_8,
    GLIBC_ISO_8859_9,
    GLIBC_ISO_8859_10,
    GLIBC_ISO_8859_11,
    GLIBC_ISO_8859_13,
    GLIBC_ISO_8859_14,
    GLIBC_ISO_8859_15,
    GLIBC_ISO_8859_16,
    GLIBC_CP1250,
    GLIBC_CP1251,
    GLIBC_CP1252,
    GLIBC_CP1253,
    GLIBC_CP1254,
    GLIBC_CP1255,
    GLIBC_CP1256,
    GLIBC_CP1257,
    GLIBC_CP1258,
    GLIBC_IBM874,
    GLIBC_TIS_620,
    GLIBC_KOI8_R,
    GLIBC_KOI8_U,
    GLIBC_MACINTOSH,
    GLIBC_CP10007,
    GLIBC_IBM437,
    GLIBC_IBM850,
    GLIBC_IBM852,
    GLIBC_IBM855,
    GLIBC_IBM857,
    GLIBC_IBM860,
    GLIBC_IBM861,
    GLIBC_IBM862,
    GLIBC_IBM863,
    GLIBC_IBM865,
    GLIBC_IBM866,
    GLIBC_IBM869,
    GLIBC_IBM037,
    GLIBC_IBM500,
    GLIBC_IBM1047,
    GLIBC_IBM1140,
);
