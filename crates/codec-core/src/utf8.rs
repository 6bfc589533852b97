//! The scalar facts of UTF-8 that every codec in the workspace uses, written
//! once: what each byte allows as the start of a character, where a character
//! starts, and how many characters valid text holds.
//!
//! The table of well-formed sequences is [`WELL_FORMED`], RFC 3629 §4 (Table
//! 3-7 of the Unicode Standard) row by row. [`lead`] answers from a 256-entry
//! table computed from those rows at compile time, and `cargo xtask
//! gen-tables --check` re-derives that table from the grammar in
//! `xtask/src/tables/spec.rs` and compares it entry by entry.
//!
//! Users: [`Utf8Error::at`](crate::Utf8Error::at) (error kinds), the
//! streaming engine ([`crate::stream`]), utf8-simd's short-input path and its
//! exact-error path, and utf8-dfa's precise pass.

/// One row of [`WELL_FORMED`]: the lead bytes `first..=last` start a
/// sequence of `len` bytes whose second byte lies in `second_min..=second_max`
/// (later bytes are any continuation byte, `80..=BF`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct WellFormedRow {
    /// The first lead byte of the row.
    pub first: u8,
    /// The last lead byte of the row.
    pub last: u8,
    /// The sequence length, 1 to 4.
    pub len: u8,
    /// The smallest allowed second byte (unused when `len == 1`).
    pub second_min: u8,
    /// The largest allowed second byte (unused when `len == 1`).
    pub second_max: u8,
}

const fn row(first: u8, last: u8, len: u8, second_min: u8, second_max: u8) -> WellFormedRow {
    WellFormedRow {
        first,
        last,
        len,
        second_min,
        second_max,
    }
}

/// The well-formed UTF-8 byte sequences, RFC 3629 §4 and Table 3-7 of the
/// Unicode Standard, one row per range of lead bytes. Bytes that start no
/// row (`80..=C1`, `F5..=FF`) never start a character.
#[rustfmt::skip]
pub const WELL_FORMED: [WellFormedRow; 9] = [
    //  leads        len  second byte
    row(0x00, 0x7F,  1,   0x00, 0x00), // U+0000..U+007F
    row(0xC2, 0xDF,  2,   0x80, 0xBF), // U+0080..U+07FF
    row(0xE0, 0xE0,  3,   0xA0, 0xBF), // U+0800..U+0FFF: no overlongs
    row(0xE1, 0xEC,  3,   0x80, 0xBF), // U+1000..U+CFFF
    row(0xED, 0xED,  3,   0x80, 0x9F), // U+D000..U+D7FF: no surrogates
    row(0xEE, 0xEF,  3,   0x80, 0xBF), // U+E000..U+FFFF
    row(0xF0, 0xF0,  4,   0x90, 0xBF), // U+10000..U+3FFFF: no overlongs
    row(0xF1, 0xF3,  4,   0x80, 0xBF), // U+40000..U+FFFFF
    row(0xF4, 0xF4,  4,   0x80, 0x8F), // U+100000..U+10FFFF: nothing above
];

/// What a byte allows as the first byte of a character: the length of the
/// sequence it starts and the range of its second byte. From [`lead`].
///
/// ```
/// use codec_core::utf8::lead;
/// assert_eq!(lead(b'a').len(), 1);
/// assert_eq!(lead(0xE0).len(), 3);
/// assert!(!lead(0xE0).allows_second(0x9F)); // E0 9F.. would be overlong
/// assert!(lead(0xE0).allows_second(0xA0));
/// assert_eq!(lead(0x80).len(), 0); // a continuation byte starts nothing
/// assert_eq!(lead(0xC0).len(), 0); // nor does an overlong-only lead
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Lead {
    len: u8,
    second_min: u8,
    second_max: u8,
}

impl Lead {
    /// The length of the sequence this byte starts: 1 for ASCII, 2 to 4 for
    /// a lead byte, and 0 for a byte that never starts a character
    /// (`80..=C1`, `F5..=FF`).
    #[must_use]
    #[inline(always)]
    #[allow(clippy::len_without_is_empty)] // A length in a table, not a collection.
    pub const fn len(self) -> usize {
        self.len as usize
    }

    /// Whether `byte` may follow this lead byte as the second byte of its
    /// sequence. Always `false` for bytes whose [`len`](Lead::len) is 0 or 1.
    #[must_use]
    #[inline(always)]
    pub const fn allows_second(self, byte: u8) -> bool {
        self.len >= 2 && byte >= self.second_min && byte <= self.second_max
    }

    /// The allowed second bytes, `(min, max)`; `None` for bytes whose
    /// [`len`](Lead::len) is 0 or 1.
    #[must_use]
    pub const fn second_range(self) -> Option<(u8, u8)> {
        if self.len >= 2 {
            Some((self.second_min, self.second_max))
        } else {
            None
        }
    }
}

/// The [`Lead`] of every byte, computed from [`WELL_FORMED`] at compile time.
static LEADS: [Lead; 256] = leads();

const fn leads() -> [Lead; 256] {
    let mut table = [Lead {
        len: 0,
        second_min: 0,
        second_max: 0,
    }; 256];
    let mut r = 0;
    while r < WELL_FORMED.len() {
        let row = WELL_FORMED[r];
        let mut b = row.first as usize;
        while b <= row.last as usize {
            table[b] = Lead {
                len: row.len,
                second_min: row.second_min,
                second_max: row.second_max,
            };
            b += 1;
        }
        r += 1;
    }
    table
}

/// What `byte` allows as the first byte of a character.
#[must_use]
#[inline(always)]
pub fn lead(byte: u8) -> Lead {
    LEADS[usize::from(byte)]
}

/// Whether `byte` is a continuation byte, `10xxxxxx` (`80..=BF`).
#[must_use]
#[inline(always)]
pub const fn is_continuation(byte: u8) -> bool {
    byte & 0xC0 == 0x80
}

/// The start of the last character that begins before `pos`: the last byte
/// before `pos`, at most four back, that is not a continuation byte; or
/// `pos - 4` (0 near the start) if all of those are continuation bytes.
///
/// If `input[..pos]` is a prefix of well-formed UTF-8, the result is a
/// character boundary with only well-formed text before it, which is where
/// an exact scalar pass can restart after a fast pass failed at `pos`. It is
/// never after `pos`, so a wrong guess only makes that pass read more.
/// A `pos` past the end of `input` counts as the end.
///
/// ```
/// use codec_core::utf8::last_char_start;
/// let text = "aé😀".as_bytes(); // 1, 2 and 4 bytes
/// assert_eq!(last_char_start(text, 1), 0);
/// assert_eq!(last_char_start(text, 2), 1); // inside 'é'
/// assert_eq!(last_char_start(text, 3), 1); // right after 'é'
/// assert_eq!(last_char_start(text, 7), 3); // right after '😀'
/// ```
#[must_use]
#[inline]
pub fn last_char_start(input: &[u8], pos: usize) -> usize {
    let pos = pos.min(input.len());
    let lo = pos.saturating_sub(4);
    match input[lo..pos].iter().rposition(|&b| !is_continuation(b)) {
        Some(i) => lo + i,
        None => lo,
    }
}

/// How far `bytes` (at most four) get as one character: `Some(true)` if they
/// are exactly one well-formed character, `Some(false)` if they are a proper
/// prefix of one (more bytes could finish it), `None` if no continuation can
/// make them well-formed. Empty input is `Some(false)`.
///
/// This is the check the streaming engine makes on the bytes it carries
/// between chunks, where calling a whole-buffer validator for one character
/// cost more than the character.
///
/// ```
/// use codec_core::utf8::char_prefix;
/// assert_eq!(char_prefix("€".as_bytes()), Some(true));
/// assert_eq!(char_prefix(b"\xE2\x82"), Some(false));
/// assert_eq!(char_prefix(b"\xE0\x80"), None); // overlong, whatever follows
/// assert_eq!(char_prefix(b"a"), Some(true));
/// assert_eq!(char_prefix(b"ab"), None); // two characters
/// ```
#[must_use]
#[inline]
pub fn char_prefix(bytes: &[u8]) -> Option<bool> {
    let Some(&first) = bytes.first() else {
        return Some(false);
    };
    let l = lead(first);
    let n = bytes.len();
    if l.len() == 0 || n > l.len() {
        return None;
    }
    if bytes.get(1).is_some_and(|&second| !l.allows_second(second)) {
        return None;
    }
    if !bytes.iter().skip(2).all(|&b| is_continuation(b)) {
        return None;
    }
    Some(n == l.len())
}

/// Where the character that `chunk` starts but does not finish begins, or
/// `chunk.len()` if it ends between characters (as far as its last bytes
/// can tell).
///
/// This is how a stream splits a chunk: everything before the result holds
/// only whole characters (or errors), and the at most three bytes from it on
/// are carried to the next chunk. Only a byte that starts a character and
/// needs more bytes than the chunk has left counts as unfinished; bytes that
/// start nothing stay in the chunk, where validation rejects them at once.
///
/// ```
/// use codec_core::utf8::unfinished_start;
/// assert_eq!(unfinished_start(b"ab\xF0\x9F\x98"), 2); // 😀 cut after 3 bytes
/// assert_eq!(unfinished_start("ab😀".as_bytes()), 6); // whole
/// assert_eq!(unfinished_start(b"ab\xFF"), 3); // never valid: not carried
/// ```
#[must_use]
#[inline]
pub fn unfinished_start(chunk: &[u8]) -> usize {
    let n = chunk.len();
    // The common case, decided by one byte: a chunk ending in ASCII ends
    // between characters. (Streams call this once per chunk.)
    if chunk.last().is_none_or(|&b| b < 0x80) {
        return n;
    }
    let start = last_char_start(chunk, n);
    match chunk.get(start) {
        Some(&b) if lead(b).len() > n - start && n - start <= 3 => start,
        _ => n,
    }
}

/// The number of characters in well-formed UTF-8: the bytes that are not
/// continuation bytes. On ill-formed input it counts those bytes all the
/// same.
///
/// Blocks of up to 255 bytes are summed into a `u8`, which cannot overflow
/// and which LLVM vectorises to byte compares and horizontal sums. (Measured
/// in `codec count` on 256 MiB of lipsum text: 0.17 s of user time with a
/// plain `filter().count()`, 0.04 s with the blocks.)
///
/// ```
/// assert_eq!(codec_core::utf8::count_chars("añ吕😀".as_bytes()), 4);
/// ```
#[must_use]
pub fn count_chars(valid: &[u8]) -> usize {
    let mut total = 0usize;
    for block in valid.chunks(255) {
        let n = block
            .iter()
            .fold(0u8, |n, &b| n.wrapping_add(u8::from(!is_continuation(b))));
        total += usize::from(n);
    }
    total
}

#[cfg(test)]
mod tests {
    extern crate std;
    use super::*;

    /// The length and second-byte range of every byte, from what std
    /// accepts: a byte starts a sequence of length `n` if some `n`-byte
    /// sequence starting with it is valid; the second byte is allowed if some
    /// completion of the pair is valid.
    #[test]
    fn every_byte_agrees_with_std() {
        for b in 0..=255u8 {
            let l = lead(b);
            let std_len = (1..=4).find(|&n| {
                let mut seq = [b, 0x80, 0x80, 0x80];
                (0x80..=0xBFu8).any(|second| {
                    seq[1] = second;
                    core::str::from_utf8(&seq[..n]).is_ok()
                })
            });
            assert_eq!(l.len(), std_len.unwrap_or(0), "{b:02X}");
            for second in 0..=255u8 {
                let seq = [b, second, 0x80, 0x80];
                let ok = l.len() >= 2 && core::str::from_utf8(&seq[..l.len()]).is_ok();
                assert_eq!(l.allows_second(second), ok, "{b:02X} {second:02X}");
            }
        }
    }

    #[test]
    fn rows_cover_and_do_not_overlap() {
        let mut last = None;
        for r in WELL_FORMED {
            assert!(r.first <= r.last);
            if let Some(prev) = last {
                assert!(r.first > prev);
            }
            last = Some(r.last);
        }
    }

    #[test]
    fn last_char_start_on_every_prefix() {
        let text = "aé吕😀b".as_bytes();
        for pos in 0..=text.len() + 2 {
            let p = pos.min(text.len());
            // The start of the last character beginning before `p`.
            let want = (0..p)
                .rev()
                .find(|&i| !is_continuation(text[i]))
                .unwrap_or(0);
            assert_eq!(last_char_start(text, pos), want, "pos {pos}");
        }
        assert_eq!(last_char_start(b"\x80\x80\x80\x80\x80", 5), 1);
        assert_eq!(last_char_start(b"", 0), 0);
    }

    /// What std says of `bytes` as one character: `Some(true)` if they are
    /// exactly one valid character, `Some(false)` if std stops at offset 0
    /// for want of input, `None` otherwise.
    fn std_char_prefix(bytes: &[u8]) -> Option<bool> {
        match core::str::from_utf8(bytes) {
            Ok(s) => (s.chars().count() == 1).then_some(true),
            Err(e) if e.valid_up_to() == 0 && e.error_len().is_none() => Some(false),
            Err(_) => None,
        }
    }

    /// Every sequence of one to three bytes, and every four-byte sequence
    /// whose last two bytes are taken from the values where the answer can
    /// change (continuation range ends and the bytes around them).
    #[test]
    fn char_prefix_agrees_with_std() {
        assert_eq!(char_prefix(b""), Some(false));
        let edges = [
            0x00, 0x41, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xC2, 0xE0, 0xF0, 0xF4,
            0xFF,
        ];
        for a in 0..=255u8 {
            assert_eq!(char_prefix(&[a]), std_char_prefix(&[a]), "{a:02X}");
            for b in 0..=255u8 {
                assert_eq!(
                    char_prefix(&[a, b]),
                    std_char_prefix(&[a, b]),
                    "{a:02X} {b:02X}"
                );
                for c in 0..=255u8 {
                    let seq = [a, b, c];
                    assert_eq!(char_prefix(&seq), std_char_prefix(&seq), "{seq:02X?}");
                }
                for c in edges {
                    for d in edges {
                        let seq = [a, b, c, d];
                        assert_eq!(char_prefix(&seq), std_char_prefix(&seq), "{seq:02X?}");
                    }
                }
            }
        }
    }

    #[test]
    fn unfinished_start_of_every_cut() {
        let text = "aé吕😀".as_bytes();
        let boundaries: std::vec::Vec<usize> = (0..=text.len())
            .filter(|&i| i == text.len() || !is_continuation(text[i]))
            .collect();
        for cut in 0..=text.len() {
            let want = if boundaries.contains(&cut) {
                cut
            } else {
                *boundaries.iter().rev().find(|&&b| b < cut).unwrap()
            };
            assert_eq!(unfinished_start(&text[..cut]), want, "cut {cut}");
        }
    }

    #[test]
    fn count_chars_matches_std() {
        let long = "a\u{e9}\u{5415}\u{1F600}".repeat(300);
        for end in (0..long.len()).filter(|&i| long.is_char_boundary(i)) {
            assert_eq!(
                count_chars(&long.as_bytes()[..end]),
                long[..end].chars().count()
            );
        }
    }
}
