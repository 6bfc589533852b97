//! glibc's CP1255 and CP1258: a single-byte page whose decoder composes a
//! letter and the combining marks after it into the precomposed character,
//! and whose encoder writes a precomposed character the page lacks as the
//! letter and its marks, as glibc's iconv does (`a` 0xEC -> `á`, `Ǹ` -> `N`
//! 0xCC). The tables come from the Unicode decompositions
//! ([`crate::compose_tables`]); which characters wait for a mark is glibc's
//! choice, learned from its iconv (the tests compare with it).
//!
//! The bulk goes through the page's table-lookup kernel: only where a mark
//! byte occurs (found by a vector search, [`crate::arch::marks`]) is the
//! character before it looked at again.

use crate::arch::marks::{self, ByteSet};
use crate::compose_tables as t;
use crate::single_byte::{self, SingleByte};

/// The composition of one page.
#[derive(Debug)]
pub(crate) struct Composition {
    /// The page itself.
    pub(crate) page: &'static SingleByte,
    /// (first, mark, composed), sorted by first then mark.
    compose: &'static [(u32, u32, u32)],
    /// (character the page lacks, its bytes: 1 to 3, zero-padded), sorted.
    decompose: &'static [(u32, [u8; 3])],
    /// Whether each byte is a combining mark of the page.
    marks: [bool; 256],
    /// The mark bytes, for the vector search.
    set: ByteSet,
    /// The characters glibc holds back from a byte, waiting for a mark
    /// (CP1258: U+0041–U+01B0; CP1255: the Hebrew letters U+05D0–U+05F2):
    /// held ones the input ends with are written at its end, but not before
    /// an error.
    held: (u32, u32),
    /// Whether a composed character waits for a further mark where one
    /// can follow (CP1255: shin with dagesh, then a shin or sin dot); in
    /// CP1258 glibc writes every composition at once.
    chains: bool,
}

const fn mark_set(bytes: &[u8]) -> [bool; 256] {
    let mut set = [false; 256];
    let mut i = 0;
    while i < bytes.len() {
        set[bytes[i] as usize] = true;
        i += 1;
    }
    set
}

pub(crate) static CP1255: Composition = Composition {
    page: &single_byte::GLIBC_CP1255,
    compose: &t::CP1255_COMPOSE,
    decompose: &t::CP1255_DECOMPOSE,
    marks: mark_set(&t::CP1255_MARKS),
    set: ByteSet::new(&t::CP1255_MARKS),
    held: (0x05D0, 0x05F2),
    chains: true,
};

pub(crate) static CP1258: Composition = Composition {
    page: &single_byte::GLIBC_CP1258,
    compose: &t::CP1258_COMPOSE,
    decompose: &t::CP1258_DECOMPOSE,
    marks: mark_set(&t::CP1258_MARKS),
    set: ByteSet::new(&t::CP1258_MARKS),
    held: (0x0041, 0x01B0),
    chains: false,
};

impl Composition {
    pub(crate) fn is_mark(&self, b: u8) -> bool {
        self.marks[usize::from(b)]
    }

    /// `first` and `mark` composed, if they compose.
    pub(crate) fn compose(&self, first: char, mark: char) -> Option<char> {
        let key = (u32::from(first), u32::from(mark));
        let i = self
            .compose
            .binary_search_by_key(&key, |&(f, m, _)| (f, m))
            .ok()?;
        char::from_u32(self.compose[i].2)
    }

    /// Whether a character decoded from a byte waits for a mark.
    pub(crate) fn holds(&self, c: char) -> bool {
        (self.held.0..=self.held.1).contains(&u32::from(c))
    }

    /// Whether a composed character waits for a further mark (glibc holds
    /// a composition of CP1255 only where another mark can follow it:
    /// shin with dagesh, then a shin or sin dot; none of CP1258).
    pub(crate) fn composes_further(&self, c: char) -> bool {
        if !self.chains {
            return false;
        }
        let c = u32::from(c);
        let i = self.compose.partition_point(|&(f, _, _)| f < c);
        self.compose.get(i).is_some_and(|&(f, _, _)| f == c)
    }

    /// The bytes of a character the page lacks but holds decomposed.
    pub(crate) fn decompose(&self, c: char) -> Option<&'static [u8]> {
        let c = u32::from(c);
        // Outside the table's range (CJK text into CP1258, under `-c`)
        // without the search.
        let (first, last) = (self.decompose.first()?.0, self.decompose.last()?.0);
        if !(first..=last).contains(&c) {
            return None;
        }
        let i = self.decompose.binary_search_by_key(&c, |&(c, _)| c).ok()?;
        let bytes = &self.decompose[i].1;
        let len = bytes.iter().position(|&b| b == 0).unwrap_or(bytes.len());
        Some(&bytes[..len])
    }

    /// The index of the first mark byte in `src` at or after `from`, or
    /// `src.len()`.
    pub(crate) fn next_mark(&self, src: &[u8], from: usize) -> usize {
        marks::find(&self.set, src, from)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The marks are combining marks, and the search's set is the list.
    #[test]
    fn every_mark_byte_is_a_mark() {
        for comp in [&CP1255, &CP1258] {
            for b in 0..=255u8 {
                assert_eq!(comp.set.contains(b), comp.is_mark(b), "{b:#04X}");
                if comp.is_mark(b) {
                    let c = comp.page.decode_byte(b).unwrap();
                    assert!(
                        (0x0300..0x0370).contains(&u32::from(c))
                            || (0x0591..0x05C8).contains(&u32::from(c))
                    );
                }
            }
        }
    }

    /// The finder against a byte-by-byte search, at every start.
    #[test]
    fn next_mark_finds_the_first() {
        let mut next = crate::xorshift(0x1258_u64);
        for comp in [&CP1255, &CP1258] {
            for len in [0, 1, 7, 8, 9, 31, 64, 100] {
                let src: Vec<u8> = (0..len)
                    .map(|_| {
                        let seed = next();
                        if seed.is_multiple_of(5) {
                            seed as u8
                        } else {
                            seed as u8 & 0x7F
                        }
                    })
                    .collect();
                for from in 0..=src.len() {
                    let want = (from..src.len())
                        .find(|&i| comp.is_mark(src[i]))
                        .unwrap_or(src.len());
                    assert_eq!(comp.next_mark(&src, from), want);
                }
            }
        }
    }
}
