//! quickcheck properties: arbitrary bytes, `u16`s and `u32`s through every
//! conversion, with every kernel set, against the oracle. (quickcheck's
//! generator makes short, mostly invalid input; `differential.rs` covers
//! long and mostly valid input.)

use crate::dirs::*;
use crate::harness::Caps;
use quickcheck::QuickCheck;

fn utf8(input: Vec<u8>) -> bool {
    check_utf8(&transcoders(), &input, Caps::All);
    true
}

fn utf16(input: Vec<u16>) -> bool {
    check_utf16(&transcoders(), &input, Caps::All);
    true
}

/// UTF-32 units biased towards the interesting ranges: quickcheck's `u32`s
/// are mostly above U+10FFFF.
fn utf32(input: Vec<u32>) -> bool {
    let units: Vec<u32> = input
        .iter()
        .map(|&u| match u % 4 {
            0 => u,
            1 => u % 0x11_0000,
            2 => 0xD800 + u % 0x800,
            _ => u % 0x100,
        })
        .collect();
    check_utf32(&transcoders(), &units, Caps::All);
    true
}

fn latin1(input: Vec<u8>) -> bool {
    check_latin1(&transcoders(), &input, Caps::All);
    true
}

#[test]
fn arbitrary_utf8() {
    QuickCheck::new()
        .tests(scaled(120) as u64)
        .quickcheck(utf8 as fn(Vec<u8>) -> bool);
}

#[test]
fn arbitrary_utf16() {
    QuickCheck::new()
        .tests(scaled(120) as u64)
        .quickcheck(utf16 as fn(Vec<u16>) -> bool);
}

#[test]
fn arbitrary_utf32() {
    QuickCheck::new()
        .tests(scaled(120) as u64)
        .quickcheck(utf32 as fn(Vec<u32>) -> bool);
}

#[test]
fn arbitrary_latin1() {
    QuickCheck::new()
        .tests(scaled(50) as u64)
        .quickcheck(latin1 as fn(Vec<u8>) -> bool);
}
