//! Nothing past the reported output length is written, for every
//! conversion, every form, every set of kernels and *every* output size
//! from 0 to past the full length: texts that mix character widths in runs
//! (the shapes that make a kernel's block loop stop for room part-way
//! through a register of output), checked with [`Caps::Every`].
//!
//! The harness fills each output with a poison value and fails on the
//! first unit past `written` (after an error's `written`, a `Progress`'s,
//! or an `Ok` length) that changed.

use crate::dirs::*;
use crate::harness::*;

/// Runs of one width after runs of another: `lead` characters of one
/// kind, then `n` of another, then a few of a third, for every pair of
/// widths.
fn texts() -> Vec<String> {
    let kinds = ['a', 'é', 'ж', '中', '😀'];
    let mut v = Vec::new();
    for &x in &kinds {
        for &y in &kinds {
            for lead in [0, 1, 3, 7, 15] {
                for n in [5, 19, scaled(40)] {
                    let mut s: String = core::iter::repeat_n(x, lead).collect();
                    s.extend(core::iter::repeat_n(y, n));
                    s.extend(['b', 'é', '😀', 'c']);
                    v.push(s);
                }
            }
        }
    }
    v
}

#[test]
fn from_utf8_at_every_output_size() {
    let ts = transcoders();
    for s in texts() {
        let b = s.as_bytes();
        check(&UTF8_TO_UTF16, &ts, b, Caps::Every);
        check(&UTF8_TO_UTF16LE, &ts, b, Caps::Every);
        check(&UTF8_TO_UTF16BE, &ts, b, Caps::Every);
        check(&UTF8_TO_UTF32, &ts, b, Caps::Every);
        check(&UTF8_TO_LATIN1, &ts, b, Caps::Every);
        check(&STR_TO_UTF16, &ts, b, Caps::Every);
        check(&STR_TO_UTF16LE, &ts, b, Caps::Every);
        check(&STR_TO_UTF16BE, &ts, b, Caps::Every);
        check(&STR_TO_UTF32, &ts, b, Caps::Every);
        check(&STR_TO_LATIN1, &ts, b, Caps::Every);
    }
}

#[test]
fn from_utf16_and_utf32_at_every_output_size() {
    let ts = transcoders();
    for s in texts() {
        let u16s: Vec<u16> = s.encode_utf16().collect();
        let le: Vec<u8> = u16s.iter().flat_map(|u| u.to_le_bytes()).collect();
        let be: Vec<u8> = u16s.iter().flat_map(|u| u.to_be_bytes()).collect();
        let u32s: Vec<u32> = s.chars().map(u32::from).collect();
        check(&UTF16_TO_UTF8, &ts, &u16s, Caps::Every);
        check(&UTF16LE_TO_UTF8, &ts, &le, Caps::Every);
        check(&UTF16BE_TO_UTF8, &ts, &be, Caps::Every);
        check(&UTF16_TO_UTF32, &ts, &u16s, Caps::Every);
        check(&UTF16_TO_LATIN1, &ts, &u16s, Caps::Every);
        check(&UTF32_TO_UTF8, &ts, &u32s, Caps::Every);
        check(&UTF32_TO_UTF16, &ts, &u32s, Caps::Every);
        check(&UTF32_TO_LATIN1, &ts, &u32s, Caps::Every);
    }
}

#[test]
fn from_latin1_at_every_output_size() {
    let ts = transcoders();
    for s in texts() {
        let l: Vec<u8> = s
            .chars()
            .map(|c| u8::try_from(u32::from(c)).unwrap_or(b'?'))
            .collect();
        check(&LATIN1_TO_UTF8, &ts, &l, Caps::Every);
        check(&LATIN1_TO_UTF16, &ts, &l, Caps::Every);
        check(&LATIN1_TO_UTF32, &ts, &l, Caps::Every);
    }
}

/// The case that found the SSE4.1 kernel writing the unit after `written`
/// when the output filled before the input ended: 7 ASCII and 19 emoji
/// into 16 units (written 15, the last unit a stray lane's).
#[test]
fn seven_ascii_then_emoji_into_sixteen_units() {
    let s = format!("{}{}", "a".repeat(7), "😀".repeat(19));
    for t in transcoders() {
        let mut dst = [0xAAAAu16; 16];
        let e = t.utf8_to_utf16(s.as_bytes(), &mut dst).unwrap_err();
        assert_eq!((e.read(), e.written()), (23, 15), "{}", t.name());
        assert_eq!(dst[15], 0xAAAA, "{}", t.name());
    }
}

/// UTF-16 → UTF-8's 3-byte path stores a block's last 4 units as 12 bytes
/// (16 with 32-byte registers), of which as few as 4 count; the 8 stray
/// bytes are left for the next block to cover, which makes at least 8.
/// Here the next block is the last and makes exactly 8 (ASCII), so one
/// stray byte more (a 16-byte store with 16-byte registers) would stay
/// past the output: a block of `n - 4` '中' and 4 ASCII units, `n` ASCII
/// units, then the end or an unpaired surrogate, for the block sizes of
/// every width (`n` = 8, 16, 32), after 0 to 2 blocks of other text.
#[test]
fn three_byte_block_with_an_ascii_end_before_a_short_last_block() {
    let ts = transcoders();
    for n in [8, 16, 32] {
        for before in ["", "abcdefgh", "éééééééé中中中中中中中中"] {
            for end in [&[][..], &[0xD800], &[0xDC00, 0x61]] {
                let mut u16s: Vec<u16> = before.encode_utf16().collect();
                u16s.extend(core::iter::repeat_n(0x4E2D, n - 4));
                u16s.extend(b"wxyz".map(u16::from));
                u16s.extend((0..n).map(|k| u16::from(b'a' + (k % 26) as u8)));
                u16s.extend_from_slice(end);
                let le: Vec<u8> = u16s.iter().flat_map(|u| u.to_le_bytes()).collect();
                let be: Vec<u8> = u16s.iter().flat_map(|u| u.to_be_bytes()).collect();
                check(&UTF16_TO_UTF8, &ts, &u16s, Caps::Every);
                check(&UTF16LE_TO_UTF8, &ts, &le, Caps::Every);
                check(&UTF16BE_TO_UTF8, &ts, &be, Caps::Every);
                if end.is_empty() {
                    // The BMP part of UTF-32 → UTF-8 takes the same path.
                    let u32s: Vec<u32> = u16s.iter().map(|&u| u32::from(u)).collect();
                    check(&UTF32_TO_UTF8, &ts, &u32s, Caps::Every);
                }
            }
        }
    }
}
