//! The search for the next byte of a small set (the combining-mark bytes
//! of CP1255 and CP1258, [`crate::compose`]): written once over
//! codec-arch's [`Simd`] and instantiated for SSE4.1, AVX2 and AVX-512 on
//! x86-64 and NEON on aarch64, dispatched as the lookup kernels are.
//!
//! Each byte is classified by two 16-entry shuffles (Hyperscan's "shufti"):
//! its high nibble looks up a bit (one a distinct high nibble of the set),
//! its low nibble the bits of the high nibbles it pairs with in the set;
//! the byte is in the set where the two share a bit. With at most eight
//! distinct high nibbles that is exact ([`ByteSet::new`] checks it). A
//! byte loop of `memchr`'s family finds at most three bytes (`memchr3`);
//! CP1258 has five marks and CP1255 sixteen.

use codec_arch::{Dispatch, Isa, Registered, Simd};

/// A set of bytes as the two nibble tables of the search.
#[derive(Debug)]
pub(crate) struct ByteSet {
    /// By low nibble: the bits of the high nibbles it pairs with.
    lo: [u8; 16],
    /// By high nibble: its bit (0 for a high nibble of no byte of the set).
    hi: [u8; 16],
}

impl ByteSet {
    /// The set of `bytes`; a compile error (in a `static`) if they have
    /// more than eight distinct high nibbles.
    pub(crate) const fn new(bytes: &[u8]) -> ByteSet {
        let mut set = ByteSet {
            lo: [0; 16],
            hi: [0; 16],
        };
        let mut next_bit = 0;
        let mut i = 0;
        while i < bytes.len() {
            let (h, l) = ((bytes[i] >> 4) as usize, (bytes[i] & 15) as usize);
            if set.hi[h] == 0 {
                assert!(next_bit < 8, "more than eight high nibbles");
                set.hi[h] = 1 << next_bit;
                next_bit += 1;
            }
            set.lo[l] |= set.hi[h];
            i += 1;
        }
        set
    }

    /// Whether `b` is in the set (the scalar form of the classification).
    pub(crate) fn contains(&self, b: u8) -> bool {
        self.lo[usize::from(b & 15)] & self.hi[usize::from(b >> 4)] != 0
    }
}

/// One implementation of the search.
#[derive(Debug)]
pub(crate) struct Finder {
    /// For tests and reports.
    #[cfg_attr(not(test), allow(dead_code))]
    pub(crate) name: &'static str,
    /// The index of the first byte of `set` in `src[from..]`, or
    /// `src.len()`.
    ///
    /// # Safety
    ///
    /// The CPU must have the features of [`Finder::isa`].
    find: unsafe fn(set: &ByteSet, src: &[u8], from: usize) -> usize,
    isa: Isa,
}

impl Registered for Finder {
    fn isa(&self) -> Isa {
        self.isa
    }
}

impl Finder {
    /// Searches through this implementation, if the CPU can run it.
    #[cfg(test)]
    pub(crate) fn find(&self, set: &ByteSet, src: &[u8], from: usize) -> Option<usize> {
        if !self.isa.is_available() {
            return None;
        }
        // SAFETY: the CPU has the features: checked just above.
        Some(unsafe { (self.find)(set, src, from) })
    }
}

/// The first byte of `set` in `src[from..]` (its index), or `src.len()`:
/// through the best implementation this CPU runs.
pub(crate) fn find(set: &ByteSet, src: &[u8], from: usize) -> usize {
    let f = CHOSEN.get();
    // SAFETY: the dispatch chose an implementation whose features the CPU
    // has.
    unsafe { (f.find)(set, src, from) }
}

/// A byte at a time: the reference, and every vector search's tail.
fn scalar(set: &ByteSet, src: &[u8], from: usize) -> usize {
    src.get(from..)
        .and_then(|rest| rest.iter().position(|&b| set.contains(b)))
        .map_or(src.len(), |k| from + k)
}

/// `unsafe` only to fit the type: it needs no CPU feature.
unsafe fn scalar_find(set: &ByteSet, src: &[u8], from: usize) -> usize {
    scalar(set, src, from)
}

/// The vector search: two registers a step (one test for both), one at a
/// time near the end, the last bytes scalar.
#[inline(always)]
fn search<S: Simd>(s: S, set: &ByteSet, src: &[u8], from: usize) -> usize {
    let lo_table = s.broadcast16(&set.lo);
    let hi_table = s.broadcast16(&set.hi);
    let low = s.splat8(0x0F);
    // The set's bytes of a register: non-zero where a byte is in the set.
    let classify = |v: S::V| {
        let lo = s.shuffle8(lo_table, s.and(v, low));
        let hi = s.shuffle8(hi_table, s.shr8::<4>(v));
        s.and(lo, hi)
    };
    // The index of the first non-zero byte of `m`, known to have one.
    let first = |m: S::V| {
        let zero = s.movemask8(s.eq8(m, s.zero()));
        (!zero).trailing_zeros() as usize
    };
    let n = S::BYTES;
    let mut i = from.min(src.len());
    while i + 2 * n <= src.len() {
        // SAFETY: `i + 2 * BYTES <= src.len()`: both loads are in `src`.
        let (a, b) = unsafe {
            let p = src.as_ptr().add(i);
            (s.load(p), s.load(p.add(n)))
        };
        let (a, b) = (classify(a), classify(b));
        let any = s.or(a, b);
        if s.test_any(any, any) {
            return if s.test_any(a, a) {
                i + first(a)
            } else {
                i + n + first(b)
            };
        }
        i += 2 * n;
    }
    while i + n <= src.len() {
        // SAFETY: `i + BYTES <= src.len()`.
        let a = classify(unsafe { s.load(src.as_ptr().add(i)) });
        if s.test_any(a, a) {
            return i + first(a);
        }
        i += n;
    }
    scalar(set, src, i)
}

/// The entry point of one token's search (`unsafe` for the caller's proof
/// of the features, which the registry's `isa` states).
macro_rules! finder {
    ($module:ident, $token:path, $level:ident) => {
        mod $module {
            use super::ByteSet;

            /// # Safety
            ///
            /// The CPU must have the level's features.
            pub(super) unsafe fn find(set: &ByteSet, src: &[u8], from: usize) -> usize {
                // SAFETY: the caller proves the features.
                unsafe { run(set, src, from) }
            }

            codec_arch::enable! { $level;
                fn run(set: &ByteSet, src: &[u8], from: usize) -> usize {
                    super::search(<$token>::new(), set, src, from)
                }
            }
        }
    };
}

#[cfg(target_arch = "x86_64")]
finder!(avx512, codec_arch::x86_64::Avx512, avx512);
#[cfg(target_arch = "x86_64")]
finder!(avx2, codec_arch::x86_64::Avx2, avx2);
#[cfg(target_arch = "x86_64")]
finder!(sse41, codec_arch::x86_64::Sse41, sse41);
#[cfg(target_arch = "aarch64")]
finder!(neon, codec_arch::aarch64::Neon, neon);

/// Every implementation, best first, the scalar one last.
pub(crate) const ALL: &[&Finder] = &[
    #[cfg(target_arch = "x86_64")]
    &Finder {
        name: "avx512",
        find: avx512::find,
        isa: Isa::AVX512,
    },
    #[cfg(target_arch = "x86_64")]
    &Finder {
        name: "avx2",
        find: avx2::find,
        isa: Isa::AVX2,
    },
    #[cfg(target_arch = "x86_64")]
    &Finder {
        name: "sse41",
        find: sse41::find,
        isa: Isa::SSE41,
    },
    #[cfg(target_arch = "aarch64")]
    &Finder {
        name: "neon",
        find: neon::find,
        isa: Isa::NEON,
    },
    &Finder {
        name: "scalar",
        find: scalar_find,
        isa: Isa::PORTABLE,
    },
];

static CHOSEN: Dispatch<Finder> = Dispatch::new_refs(ALL);

#[cfg(test)]
mod tests {
    use super::*;

    /// The nibble tables against the list, on every byte, for sets of
    /// every size up to eight high nibbles.
    #[test]
    fn byte_set_is_exact() {
        let mut next = crate::xorshift(0xB17E_5E70_u64);
        for size in [0, 1, 2, 5, 16, 40, 100] {
            for _ in 0..20 {
                // Bytes of at most eight high nibbles.
                let nibbles: Vec<u8> = (0..8).map(|_| (next() % 16) as u8).collect();
                let bytes: Vec<u8> = (0..size)
                    .map(|k| nibbles[k % 8] << 4 | (next() >> 8) as u8 & 15)
                    .collect();
                let set = ByteSet::new(&bytes);
                for b in 0..=255u8 {
                    assert_eq!(set.contains(b), bytes.contains(&b), "{bytes:02X?} {b:#04X}");
                }
            }
        }
    }

    /// Each implementation this CPU runs against a byte loop, at every
    /// start, on random text with the set's bytes sparse, dense and
    /// absent, at lengths around the registers' sizes.
    #[test]
    fn every_finder_finds_the_first() {
        let sets = [
            ByteSet::new(&crate::compose_tables::CP1258_MARKS),
            ByteSet::new(&crate::compose_tables::CP1255_MARKS),
            ByteSet::new(&[0x00, 0x7F, 0x80, 0xFF, 0x10, 0x21, 0x32, 0x43]),
        ];
        let mut next = crate::xorshift(0x0F1D_0001_u64);
        let finders: Vec<&Finder> = ALL
            .iter()
            .copied()
            .filter(|f| f.isa.is_available())
            .collect();
        eprintln!(
            "mark finders tested: {:?}",
            finders.iter().map(|f| f.name).collect::<Vec<_>>()
        );
        for set in &sets {
            for len in (0..=140).chain([255, 256, 257, 1000]) {
                for density in [0, 1, 8, 64] {
                    let src: Vec<u8> = (0..len)
                        .map(|_| {
                            loop {
                                let b = next() as u8;
                                let hit = density != 0 && next().is_multiple_of(density);
                                if set.contains(b) == hit || density == 1 {
                                    break b;
                                }
                            }
                        })
                        .collect();
                    for from in 0..=len + 1 {
                        let want = (from..len).find(|&i| set.contains(src[i])).unwrap_or(len);
                        for f in &finders {
                            assert_eq!(f.find(set, &src, from), Some(want), "{} {from}", f.name);
                        }
                        assert_eq!(find(set, &src, from), want);
                    }
                }
            }
        }
    }
}
