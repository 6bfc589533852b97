//! The registry entry and the dispatch shape of every kernel table.
//!
//! A crate lists its kernels once, fastest first, the last one portable
//! (needing nothing). Each is an [`Entry`] (or a type holding one that
//! implements [`Registered`]): a name for display and benchmarks, the
//! [`Isa`] it needs, and its entry points. [`Dispatch`] runs the first
//! entry whose ISA this CPU has: found once, cached in an `AtomicPtr` to
//! the `static` entry (memchr's scheme, with a table of entry points in
//! place of a transmuted function pointer), so a call is one relaxed load,
//! a branch that is always taken the same way, and the indirect call.
//! Kernels refer to each other by `&'static` reference, never by name.

use core::fmt;
use core::sync::atomic::{AtomicPtr, Ordering};

use crate::Isa;

/// A kernel in a registry: anything that says what ISA it needs.
pub trait Registered: Sync + 'static {
    /// The ISA the kernel needs.
    fn isa(&self) -> Isa;
}

/// One entry of a kernel table: its name, the [`Isa`] it needs and its
/// entry points `T` (usually a struct of function pointers).
///
/// ```
/// use codec_arch::{Entry, Isa};
///
/// static PORTABLE: Entry<fn(&[u8]) -> usize> = Entry::new("portable", Isa::PORTABLE, |s| s.len());
/// assert!(PORTABLE.is_available());
/// assert_eq!((PORTABLE.get())(b"abc"), 3);
/// ```
pub struct Entry<T> {
    name: &'static str,
    isa: Isa,
    kernel: T,
}

impl<T> Entry<T> {
    /// The entry.
    pub const fn new(name: &'static str, isa: Isa, kernel: T) -> Entry<T> {
        Entry { name, isa, kernel }
    }

    /// The name, for display and benchmarks only (no lookup by name).
    #[must_use]
    pub const fn name(&self) -> &'static str {
        self.name
    }

    /// What it needs.
    #[must_use]
    pub const fn isa(&self) -> Isa {
        self.isa
    }

    /// Its `target_feature` names, separated by commas.
    #[must_use]
    pub const fn features(&self) -> &'static str {
        self.isa.features()
    }

    /// Whether this CPU can run it.
    #[inline]
    #[must_use]
    pub fn is_available(&self) -> bool {
        self.isa.is_available()
    }

    /// The entry points. Calling one that is `unsafe` needs the proof that
    /// [`is_available`](Self::is_available) returned true for this entry.
    #[inline(always)]
    #[must_use]
    pub const fn get(&self) -> &T {
        &self.kernel
    }
}

impl<T: Sync + 'static> Registered for Entry<T> {
    fn isa(&self) -> Isa {
        self.isa
    }
}

impl<T> fmt::Debug for Entry<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Entry")
            .field("name", &self.name)
            .field("features", &self.isa.features())
            .finish_non_exhaustive()
    }
}

/// A kernel table: the entries themselves, or references to `static` ones.
enum Table<K: 'static> {
    Values(&'static [K]),
    Refs(&'static [&'static K]),
}

/// The one dispatch point of a kernel table: [`get`](Self::get) returns the
/// first entry whose ISA this CPU has, chosen on the first call and cached.
///
/// ```
/// use codec_arch::{Dispatch, Entry, Isa};
///
/// type Count = fn(&[u8]) -> usize;
/// fn ones(s: &[u8]) -> usize { s.iter().filter(|&&b| b == 1).count() }
/// static KERNELS: [Entry<Count>; 1] = [Entry::new("portable", Isa::PORTABLE, ones)];
/// static CHOSEN: Dispatch<Entry<Count>> = Dispatch::new(&KERNELS);
///
/// assert_eq!(CHOSEN.get().name(), "portable");
/// assert_eq!((CHOSEN.get().get())(&[1, 0, 1]), 2);
/// ```
pub struct Dispatch<K: 'static> {
    table: Table<K>,
    /// Null until the first call, then an element of `table` (or what one
    /// refers to), which lives forever and is never written through.
    chosen: AtomicPtr<K>,
}

impl<K: Registered> Dispatch<K> {
    /// Dispatch over `table`, fastest first; its last entry must need
    /// nothing (it is the fallback).
    #[must_use]
    pub const fn new(table: &'static [K]) -> Dispatch<K> {
        Dispatch {
            table: Table::Values(table),
            chosen: AtomicPtr::new(core::ptr::null_mut()),
        }
    }

    /// As [`new`](Self::new), for a table of references to `static`
    /// entries (which may be built from one another).
    #[must_use]
    pub const fn new_refs(table: &'static [&'static K]) -> Dispatch<K> {
        Dispatch {
            table: Table::Refs(table),
            chosen: AtomicPtr::new(core::ptr::null_mut()),
        }
    }

    /// The chosen entry: one relaxed load once chosen.
    #[inline]
    pub fn get(&self) -> &'static K {
        let p = self.chosen.load(Ordering::Relaxed);
        if p.is_null() {
            return self.choose();
        }
        // SAFETY: a non-null `chosen` was stored by `choose` from a
        // `&'static K` (an element of the table, or the static it refers
        // to), which lives forever and is never written through.
        unsafe { &*p }
    }

    /// The first entry this CPU can run; the last one if none can (the
    /// portable fallback, which needs nothing); `None` for an empty table.
    #[must_use]
    pub fn first_available(&self) -> Option<&'static K> {
        match self.table {
            Table::Values(t) => t.iter().find(|k| k.isa().is_available()).or(t.last()),
            Table::Refs(t) => t
                .iter()
                .copied()
                .find(|k| k.isa().is_available())
                .or(t.last().copied()),
        }
    }

    #[cold]
    #[inline(never)]
    fn choose(&self) -> &'static K {
        let Some(k) = self.first_available() else {
            // A registry always holds its portable entry; an empty one is a
            // bug that no input can cause.
            #[allow(clippy::panic)]
            {
                panic!("codec_arch::Dispatch over an empty kernel table")
            }
        };
        self.chosen
            .store(core::ptr::from_ref(k).cast_mut(), Ordering::Relaxed);
        k
    }
}

impl<K> fmt::Debug for Dispatch<K> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Dispatch").finish_non_exhaustive()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Features;

    /// An ISA no CPU has: a feature set that includes NEON and AVX2.
    const NOWHERE: Isa = Isa::new("neon,avx2");

    static TABLE: [Entry<u8>; 3] = [
        Entry::new("never", NOWHERE, 1),
        Entry::new("portable", Isa::PORTABLE, 2),
        Entry::new("shadowed", Isa::PORTABLE, 3),
    ];

    #[test]
    fn takes_the_first_available_and_keeps_it() {
        let d = Dispatch::new(&TABLE);
        let first = d.get();
        assert_eq!(*first.get(), 2);
        assert!(core::ptr::eq(first, d.get()), "cached");
        assert!(core::ptr::eq(first, &TABLE[1]), "an element of the table");
    }

    static A: Entry<u8> = Entry::new("never", NOWHERE, 1);
    static B: Entry<u8> = Entry::new("never either", NOWHERE, 2);
    static REFS: [&Entry<u8>; 2] = [&A, &B];

    #[test]
    fn falls_back_to_the_last_entry() {
        assert!(!Features::cpu().contains(NOWHERE.needs()));
        let d = Dispatch::new_refs(&REFS);
        assert!(core::ptr::eq(d.get(), &B));
    }

    #[test]
    fn the_best_available_level_wins() {
        static LEVELS: [Entry<Isa>; 6] = [
            Entry::new("avx512vbmi2", Isa::AVX512VBMI2, Isa::AVX512VBMI2),
            Entry::new("avx512", Isa::AVX512, Isa::AVX512),
            Entry::new("avx2", Isa::AVX2, Isa::AVX2),
            Entry::new("sse4.1", Isa::SSE41, Isa::SSE41),
            Entry::new("neon", Isa::NEON, Isa::NEON),
            Entry::new("portable", Isa::PORTABLE, Isa::PORTABLE),
        ];
        let d = Dispatch::new(&LEVELS);
        let chosen = d.get();
        assert!(chosen.is_available());
        let at = LEVELS
            .iter()
            .position(|e| core::ptr::eq(e, chosen))
            .unwrap();
        assert!(LEVELS[..at].iter().all(|e| !e.is_available()));
    }
}
