//! The DFA of utf8-dfa, derived from the RFC 3629 grammar.
//!
//! 1. [`grammar_automaton`]: one chain of states per grammar alternative,
//!    all starting and ending in the start state, everything else going to
//!    a reject sink. The alternatives' first bytes are disjoint, so this is
//!    already deterministic (20 states).
//! 2. [`minimise`]: Moore's partition refinement merges states with the same
//!    future (9 states remain).
//! 3. [`byte_classes`]: partition refinement over the bytes: two bytes are in
//!    one class when every state sends them to the same state (12 classes).
//! 4. [`number_classes`]: the decoder takes a lead byte's payload as
//!    `(0xFF >> class) & byte`, so each class may only take the numbers for
//!    which that holds for every lead byte in it. The most constrained
//!    classes are numbered first, each with the smallest number left.
//! 5. States: accept is 0, reject is 1, the rest in breadth-first order from
//!    accept over the classes in number order. The table stores them
//!    premultiplied by the number of classes, so that `state + class` is the
//!    index of the next state.
//!
//! The crate's hand-written constants may number classes and states
//! differently (Hoehrmann's do): [`infer_numbering`] reads their numbering
//! off the constants, and the check renumbers the derived automaton with it
//! and compares byte for byte. Equal tables under a bijective renumbering
//! are the same automaton.

// States, classes and bytes are numbers here, and indexing by them reads
// like the definitions; iterator chains would hide that.
#![allow(clippy::needless_range_loop)]

use super::spec::{self, Variant};
use std::collections::{BTreeMap, BTreeSet, VecDeque};

/// An automaton over bytes with explicit transitions, before classes.
#[derive(Clone, Debug)]
pub(crate) struct ByteAutomaton {
    /// `next[state][byte]`.
    pub(crate) next: Vec<[usize; 256]>,
    /// The start state, which accepts.
    pub(crate) accept: usize,
    /// The sink every invalid byte leads to.
    pub(crate) reject: usize,
    /// Which states accept: for UTF-8 only the start state; WTF-8 also
    /// accepts after a lead surrogate (where a trail may not follow).
    pub(crate) accepting: Vec<bool>,
}

/// Step 1: the grammar as an automaton, one chain of states per alternative.
pub(crate) fn grammar_automaton() -> ByteAutomaton {
    variant_automaton(&spec::UTF8)
}

/// Step 1 for any encoding: the unit grammar ([`spec::units`]) combined
/// with the pairing automaton ([`spec::pairing`]). Each pairing state gets a
/// node (state 0's is the start), and each unit the pairing allows from it
/// is a chain of states from that node to the node of the pairing state
/// after it. Units that share their first byte (`ED`: a scalar or a lead or
/// a trail surrogate) share their first node, so the result is a trie and
/// deterministic; for UTF-8 no two units share a first byte, and this is
/// one chain per alternative (20 states).
pub(crate) fn variant_automaton(v: &Variant) -> ByteAutomaton {
    let pairing = spec::pairing(v.surrogates);
    let units = spec::units(v);
    let (accept, reject) = (0, 1);
    let mut next = vec![[reject; 256], [reject; 256]];
    let mut accepting = vec![true, false];
    let mut node = vec![accept];
    for &acc in &pairing.accepting[1..] {
        next.push([reject; 256]);
        accepting.push(acc);
        node.push(next.len() - 1);
    }
    for (state, &from) in node.iter().enumerate() {
        for (unit, alt) in &units {
            let Some(to) = (pairing.next)(state, *unit) else {
                continue;
            };
            let mut at = from;
            for (k, &(lo, hi)) in alt.iter().enumerate() {
                let bytes = usize::from(lo)..=usize::from(hi);
                if k + 1 == alt.len() {
                    for b in bytes {
                        assert_eq!(
                            next[at][b], reject,
                            "{}: grammar is ambiguous at {b:#04X}",
                            v.name
                        );
                        next[at][b] = node[to];
                    }
                    continue;
                }
                let children: BTreeSet<usize> = bytes.clone().map(|b| next[at][b]).collect();
                at = match children.into_iter().collect::<Vec<_>>()[..] {
                    [c] if c == reject => {
                        next.push([reject; 256]);
                        accepting.push(false);
                        let c = next.len() - 1;
                        for b in bytes {
                            next[at][b] = c;
                        }
                        c
                    }
                    [c] if !node.contains(&c) => c,
                    _ => panic!(
                        "{}: the units do not form a trie at {lo:#04X}-{hi:#04X}",
                        v.name
                    ),
                };
            }
        }
    }
    ByteAutomaton {
        next,
        accept,
        reject,
        accepting,
    }
}

/// Splits `0..n` into blocks by `key`, numbering blocks in order of first
/// appearance. Returns the block of each item and the number of blocks.
fn partition<K: Ord>(n: usize, key: impl Fn(usize) -> K) -> (Vec<usize>, usize) {
    let mut ids = BTreeMap::new();
    let block: Vec<usize> = (0..n)
        .map(|i| {
            let len = ids.len();
            *ids.entry(key(i)).or_insert(len)
        })
        .collect();
    (block, ids.len())
}

/// Step 2: Moore's algorithm. Start from {accepting, not accepting} and split
/// blocks whose states go to different blocks on some byte, until stable.
pub(crate) fn minimise(a: &ByteAutomaton) -> ByteAutomaton {
    let n = a.next.len();
    let (mut block, mut count) = partition(n, |s| a.accepting[s]);
    loop {
        let (refined, refined_count) = partition(n, |s| {
            let row: Vec<usize> = a.next[s].iter().map(|&t| block[t]).collect();
            (block[s], row)
        });
        block = refined;
        if refined_count == count {
            break;
        }
        count = refined_count;
    }
    let mut next = vec![[0; 256]; count];
    let mut accepting = vec![false; count];
    for s in 0..n {
        accepting[block[s]] = a.accepting[s];
        for b in 0..256 {
            next[block[s]][b] = block[a.next[s][b]];
        }
    }
    ByteAutomaton {
        next,
        accept: block[a.accept],
        reject: block[a.reject],
        accepting,
    }
}

/// Step 3: bytes refined by each state's transition, one state at a time.
/// Returns each byte's class (numbered by first byte) and the class count.
pub(crate) fn byte_classes(a: &ByteAutomaton) -> (Vec<usize>, usize) {
    let (mut class, mut count) = (vec![0; 256], 1);
    for row in &a.next {
        (class, count) = partition(256, |b| (class[b], row[b]));
    }
    (class, count)
}

/// The class numbers `0xFF >> n` works for: those that extract the payload
/// of every byte of `bytes` that starts a sequence.
pub(crate) fn allowed_numbers(a: &ByteAutomaton, bytes: &[u8], classes: usize) -> Vec<u8> {
    let leads: Vec<u8> = bytes
        .iter()
        .copied()
        .filter(|&b| a.next[a.accept][usize::from(b)] != a.reject)
        .collect();
    (0..classes as u8)
        .filter(|&n| {
            leads.iter().all(|&b| {
                let mask = 0xFFu8.checked_shr(u32::from(n)).unwrap_or(0);
                Some(mask & b) == spec::lead_payload(b)
            })
        })
        .collect()
}

/// Step 4: the smallest numbering, most constrained classes first (ties by
/// their smallest byte), with backtracking in case the greedy choice fails.
pub(crate) fn number_classes(allowed: &[Vec<u8>], first_byte: &[u8]) -> Vec<u8> {
    let mut order: Vec<usize> = (0..allowed.len()).collect();
    order.sort_by_key(|&c| (allowed[c].len(), first_byte[c]));
    fn go(order: &[usize], allowed: &[Vec<u8>], taken: &mut Vec<bool>, out: &mut [u8]) -> bool {
        let Some((&c, rest)) = order.split_first() else {
            return true;
        };
        for &n in &allowed[c] {
            if !taken[usize::from(n)] {
                taken[usize::from(n)] = true;
                out[c] = n;
                if go(rest, allowed, taken, out) {
                    return true;
                }
                taken[usize::from(n)] = false;
            }
        }
        false
    }
    let mut out = vec![0; allowed.len()];
    let ok = go(&order, allowed, &mut vec![false; allowed.len()], &mut out);
    assert!(ok, "no class numbering satisfies the payload masks");
    out
}

/// The derived DFA, numbered.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Dfa {
    /// The class of each byte.
    pub(crate) byte_class: [u8; 256],
    /// Number of classes: the stride of the premultiplied state numbers.
    pub(crate) classes: usize,
    /// Number of states.
    pub(crate) states: usize,
    /// `next[state][class]`, states as indices (not premultiplied).
    pub(crate) next: Vec<Vec<usize>>,
    /// A shortest input that reaches each state from accept (reject: `C0`,
    /// or `80` where `C0` is the start of MUTF-8's NUL).
    pub(crate) witness: Vec<Vec<u8>>,
    /// Which states accept (by index).
    pub(crate) accepting: Vec<bool>,
}

/// The accepting start state, numbered 0.
pub(crate) const ACCEPT: usize = 0;
/// The reject sink, numbered 1 (12 premultiplied).
pub(crate) const REJECT: usize = 1;

/// Steps 1 to 5.
pub(crate) fn derive() -> Dfa {
    let min = minimise(&grammar_automaton());
    let (class, classes) = byte_classes(&min);
    let members: Vec<Vec<u8>> = (0..classes)
        .map(|c| {
            (0..=255u8)
                .filter(|&b| class[usize::from(b)] == c)
                .collect()
        })
        .collect();
    let allowed: Vec<Vec<u8>> = members
        .iter()
        .map(|m| allowed_numbers(&min, m, classes))
        .collect();
    let first: Vec<u8> = members.iter().map(|m| m[0]).collect();
    let number = number_classes(&allowed, &first);
    let mut byte_class = [0u8; 256];
    for b in 0..256 {
        byte_class[b] = number[class[b]];
    }
    // A representative byte for each class number.
    let mut rep = vec![0u8; classes];
    for c in 0..classes {
        rep[usize::from(number[c])] = first[c];
    }

    // Step 5: breadth-first from accept; reject is pinned to 1.
    let n = min.next.len();
    let mut state_no = vec![usize::MAX; n];
    let mut witness = vec![Vec::new(); n];
    state_no[min.accept] = ACCEPT;
    state_no[min.reject] = REJECT;
    witness[REJECT] = vec![0xC0];
    let mut order = vec![min.accept, min.reject];
    let mut queue = VecDeque::from([(min.accept, Vec::new())]);
    while let Some((s, path)) = queue.pop_front() {
        for &b in &rep {
            let t = min.next[s][usize::from(b)];
            if state_no[t] == usize::MAX {
                state_no[t] = order.len();
                order.push(t);
                let mut p: Vec<u8> = path.clone();
                p.push(b);
                witness[state_no[t]] = p.clone();
                queue.push_back((t, p));
            }
        }
    }
    assert_eq!(order.len(), n, "every state is reachable from accept");
    let next = order
        .iter()
        .map(|&s| {
            rep.iter()
                .map(|&b| state_no[min.next[s][usize::from(b)]])
                .collect()
        })
        .collect();
    let mut accepting = vec![false; n];
    accepting[ACCEPT] = true;
    Dfa {
        byte_class,
        classes,
        states: n,
        next,
        witness,
        accepting,
    }
}

/// Steps 1, 2, 3 and 5 for a variant of UTF-8, in canonical numbering
/// without the payload constraint of step 4 (the variants' tables are for
/// validation; nothing decodes through them): classes in the order of their
/// smallest byte, accept 0 and reject 1, then the other accepting states,
/// then the rest, each group in breadth-first order from accept over the
/// classes in number order.
pub(crate) fn derive_variant(v: &Variant) -> Dfa {
    let min = minimise(&variant_automaton(v));
    let (class, classes) = byte_classes(&min);
    let mut byte_class = [0u8; 256];
    let mut rep = vec![None; classes];
    for b in 0..256 {
        byte_class[b] = class[b] as u8;
        rep[class[b]].get_or_insert(b as u8);
    }
    let rep: Vec<u8> = rep.into_iter().flatten().collect();
    // Breadth-first from accept, recording a shortest witness of each state.
    let n = min.next.len();
    let mut witness: Vec<Option<Vec<u8>>> = vec![None; n];
    witness[min.accept] = Some(Vec::new());
    let mut bfs = vec![min.accept];
    let mut queue = VecDeque::from([min.accept]);
    while let Some(s) = queue.pop_front() {
        for &b in &rep {
            let t = min.next[s][usize::from(b)];
            if witness[t].is_none() {
                let mut w = witness[s].clone().unwrap_or_default();
                w.push(b);
                witness[t] = Some(w);
                bfs.push(t);
                queue.push_back(t);
            }
        }
    }
    assert_eq!(bfs.len(), n, "{}: every state is reachable", v.name);
    let order: Vec<usize> = [min.accept, min.reject]
        .into_iter()
        .chain(
            bfs.iter()
                .copied()
                .filter(|&s| s != min.accept && min.accepting[s]),
        )
        .chain(
            bfs.iter()
                .copied()
                .filter(|&s| s != min.reject && !min.accepting[s]),
        )
        .collect();
    let mut state_no = vec![0; n];
    for (i, &s) in order.iter().enumerate() {
        state_no[s] = i;
    }
    let next = order
        .iter()
        .map(|&s| {
            rep.iter()
                .map(|&b| state_no[min.next[s][usize::from(b)]])
                .collect()
        })
        .collect();
    let mut witness: Vec<Vec<u8>> = order
        .iter()
        .map(|&s| witness[s].clone().unwrap_or_default())
        .collect();
    // A shortest way into reject that is not the start of anything.
    witness[REJECT] = vec![0x80];
    Dfa {
        byte_class,
        classes,
        states: n,
        next,
        witness,
        accepting: order.iter().map(|&s| min.accepting[s]).collect(),
    }
}

impl Dfa {
    /// The premultiplied transition table: entry `s * classes + c` holds
    /// `next * classes`.
    pub(crate) fn transition(&self) -> Vec<u8> {
        self.next
            .iter()
            .flatten()
            .map(|&t| (t * self.classes) as u8)
            .collect()
    }

    /// The state (an index) after `bytes`, from accept.
    pub(crate) fn run(&self, bytes: &[u8]) -> usize {
        bytes.iter().fold(ACCEPT, |s, &b| {
            self.next[s][usize::from(self.byte_class[usize::from(b)])]
        })
    }

    /// The bytes of class `c`, as ranges (`80-8F`, `C0-C1 F5-FF`).
    pub(crate) fn class_ranges(&self, c: u8) -> String {
        ranges((0..=255u8).filter(|&b| self.byte_class[usize::from(b)] == c))
    }

    /// Renumbers classes and states: class `c` becomes `class[c]`, state `s`
    /// becomes `state[s] / classes`. Both maps must be bijections.
    pub(crate) fn renumber(&self, n: &Numbering) -> Dfa {
        let stride = self.classes;
        let mut byte_class = [0; 256];
        for b in 0..256 {
            byte_class[b] = n.class[usize::from(self.byte_class[b])];
        }
        let mut next = vec![vec![0; stride]; self.states];
        let mut witness = vec![Vec::new(); self.states];
        let mut accepting = vec![false; self.states];
        for s in 0..self.states {
            let s2 = usize::from(n.state[s]) / stride;
            witness[s2] = self.witness[s].clone();
            accepting[s2] = self.accepting[s];
            for c in 0..stride {
                next[s2][usize::from(n.class[c])] = usize::from(n.state[self.next[s][c]]) / stride;
            }
        }
        Dfa {
            byte_class,
            classes: stride,
            states: self.states,
            next,
            witness,
            accepting,
        }
    }
}

/// `a-b c d-e` for a sorted list of bytes.
pub(crate) fn ranges(bytes: impl Iterator<Item = u8>) -> String {
    let mut out: Vec<(u8, u8)> = Vec::new();
    for b in bytes {
        match out.last_mut() {
            Some((_, hi)) if u16::from(*hi) + 1 == u16::from(b) => *hi = b,
            _ => out.push((b, b)),
        }
    }
    out.iter()
        .map(|&(lo, hi)| {
            if lo == hi {
                format!("{lo:02X}")
            } else {
                format!("{lo:02X}-{hi:02X}")
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// The DFA constants as a crate writes them.
#[derive(Clone, Debug)]
pub(crate) struct DfaConstants {
    pub(crate) byte_class: [u8; 256],
    pub(crate) transition: Vec<u8>,
    pub(crate) accept: u8,
    pub(crate) reject: u8,
}

/// A renumbering of the derived DFA: derived class `c` is `class[c]`,
/// derived state `s` is `state[s]` (premultiplied).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Numbering {
    pub(crate) class: Vec<u8>,
    pub(crate) state: Vec<u8>,
}

/// Turns votes into a bijection onto `universe`: the strongest votes are
/// granted first; items left without a number take the unused ones in
/// order. With one wrong entry in the constants, the wrong vote loses to
/// the right ones (or is the only vote for a number nobody else wants), so
/// the comparison afterwards points at exactly that entry.
fn resolve(votes: &[BTreeMap<u8, usize>], universe: &[u8]) -> Vec<u8> {
    let mut ballots: Vec<(usize, usize, u8)> = votes
        .iter()
        .enumerate()
        .flat_map(|(i, v)| v.iter().map(move |(&value, &count)| (count, i, value)))
        .filter(|(_, _, value)| universe.contains(value))
        .collect();
    ballots.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)).then(a.2.cmp(&b.2)));
    let mut out: Vec<Option<u8>> = vec![None; votes.len()];
    let mut used = Vec::new();
    for (_, i, value) in ballots {
        if out[i].is_none() && !used.contains(&value) {
            out[i] = Some(value);
            used.push(value);
        }
    }
    let mut free = universe.iter().filter(|v| !used.contains(v));
    out.into_iter()
        .map(|o| o.or_else(|| free.next().copied()).unwrap_or(0))
        .collect()
}

/// Reads the constants' numbering of classes and states, by majority vote
/// (see [`resolve`]). Always returns bijections; whether they make the
/// tables equal is for the comparison to say.
///
/// A derived class votes for the constants' class of each of its bytes, and
/// for every constants' column that agrees with its own column in the
/// states mapped so far. A derived state votes for the constants' state its
/// mapped predecessors lead to, and for every constants' row that agrees
/// with its own row. Both are recomputed until nothing changes. The column
/// and row votes break the ties a single wrong entry would otherwise cause
/// for classes of one byte (`E0`, `ED`, `F0`, `F4`) and states with one
/// predecessor.
pub(crate) fn infer_numbering(d: &Dfa, k: &DfaConstants) -> Numbering {
    let stride = d.classes;
    let class_universe: Vec<u8> = (0..stride as u8).collect();
    let state_universe: Vec<u8> = (0..d.states).map(|s| (s * stride) as u8).collect();
    let pinned = |s: usize| match s {
        ACCEPT => Some(k.accept),
        REJECT => Some(k.reject),
        _ => None,
    };
    let at = |state: u8, class: u8| {
        k.transition
            .get(usize::from(state) + usize::from(class))
            .copied()
    };
    let mut mapped: Vec<bool> = (0..d.states).map(|s| pinned(s).is_some()).collect();
    let mut state: Vec<u8> = (0..d.states).map(|s| pinned(s).unwrap_or(0)).collect();
    let mut class: Vec<u8> = vec![0; stride];
    for _ in 0..4 * d.states {
        let mut class_votes = vec![BTreeMap::new(); stride];
        for b in 0..256 {
            *class_votes[usize::from(d.byte_class[b])]
                .entry(k.byte_class[b])
                .or_insert(0) += 1;
        }
        for (c, votes) in class_votes.iter_mut().enumerate() {
            for &j in &class_universe {
                let agree = (0..d.states)
                    .filter(|&s| mapped[s] && mapped[d.next[s][c]])
                    .filter(|&s| at(state[s], j) == Some(state[d.next[s][c]]))
                    .count();
                if agree > 0 {
                    *votes.entry(j).or_insert(0) += agree;
                }
            }
        }
        let next_class = resolve(&class_votes, &class_universe);

        let mut votes = vec![BTreeMap::new(); d.states];
        for s in 0..d.states {
            if let Some(p) = pinned(s) {
                votes[s].insert(p, usize::MAX / 2);
            }
            if mapped[s] {
                for c in 0..stride {
                    if let Some(to) = at(state[s], next_class[c]) {
                        *votes[d.next[s][c]].entry(to).or_insert(0) += 1;
                    }
                }
            }
        }
        for (s, v) in votes.iter_mut().enumerate() {
            for &x in &state_universe {
                let agree = (0..stride)
                    .filter(|&c| mapped[d.next[s][c]])
                    .filter(|&c| at(x, next_class[c]) == Some(state[d.next[s][c]]))
                    .count();
                if agree > 0 {
                    *v.entry(x).or_insert(0) += agree;
                }
            }
        }
        let next_mapped: Vec<bool> = votes.iter().map(|v| !v.is_empty()).collect();
        let next_state = resolve(&votes, &state_universe);
        if next_state == state && next_mapped == mapped && next_class == class {
            break;
        }
        (state, mapped, class) = (next_state, next_mapped, next_class);
    }
    Numbering { class, state }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn minimal_automaton_has_nine_states_and_twelve_classes() {
        let raw = grammar_automaton();
        assert_eq!(raw.next.len(), 20);
        let d = derive();
        assert_eq!((d.states, d.classes), (9, 12));
        assert_eq!(d.transition().len(), 108);
        // Minimal: minimising again merges nothing, and no two classes have
        // the same column.
        let min = minimise(&raw);
        assert_eq!(minimise(&min).next.len(), min.next.len());
        for a in 0..d.classes {
            for b in a + 1..d.classes {
                assert!(
                    (0..d.states).any(|s| d.next[s][a] != d.next[s][b]),
                    "classes {a} {b}"
                );
            }
        }
    }

    /// The accepted language is exactly the encodings of the scalar values:
    /// each encoding goes from accept back to accept without passing it, and
    /// the number of such byte strings is the number of scalar values.
    #[test]
    fn accepts_exactly_the_encoded_scalar_values() {
        let d = derive();
        for c in (0u32..0x11_0000).filter_map(char::from_u32) {
            let bytes = c.encode_utf8(&mut [0; 4]).as_bytes().to_vec();
            for k in 1..bytes.len() {
                assert_ne!(d.run(&bytes[..k]), ACCEPT, "{c:?}");
                assert_ne!(d.run(&bytes[..k]), REJECT, "{c:?}");
            }
            assert_eq!(d.run(&bytes), ACCEPT, "{c:?}");
        }
        // paths[s]: byte strings from s to accept that do not pass accept.
        let width: Vec<u64> = (0..d.classes as u8)
            .map(|c| d.byte_class.iter().filter(|&&x| x == c).count() as u64)
            .collect();
        let mut paths = vec![0u64; d.states];
        for _ in 0..5 {
            let mut new = vec![0u64; d.states];
            for s in 0..d.states {
                for c in 0..d.classes {
                    let t = d.next[s][c];
                    new[s] += width[c] * if t == ACCEPT { 1 } else { paths[t] };
                }
            }
            new[REJECT] = 0;
            paths = new;
        }
        assert_eq!(paths[ACCEPT], 0x11_0000 - 0x800);
    }

    #[test]
    fn agrees_with_std_on_every_input_up_to_three_bytes() {
        let d = derive();
        let mut buf = Vec::with_capacity(3);
        for len in 0..=3u32 {
            for n in 0..1u32 << (8 * len) {
                buf.clear();
                buf.extend((0..len).map(|i| (n >> (8 * i)) as u8));
                let std = core::str::from_utf8(&buf);
                let state = d.run(&buf);
                assert_eq!(std.is_ok(), state == ACCEPT, "{buf:02X?}");
                let incomplete = matches!(std, Err(e) if e.error_len().is_none());
                assert_eq!(incomplete, state != ACCEPT && state != REJECT, "{buf:02X?}");
            }
        }
    }

    #[test]
    fn class_numbers_mask_the_lead_payload() {
        let d = derive();
        for b in 0..=255u8 {
            if d.next[ACCEPT][usize::from(d.byte_class[usize::from(b)])] != REJECT {
                let mask = 0xFFu8
                    .checked_shr(u32::from(d.byte_class[usize::from(b)]))
                    .unwrap_or(0);
                assert_eq!(Some(mask & b), spec::lead_payload(b), "{b:#04X}");
            }
        }
    }

    #[test]
    fn witnesses_reach_their_states() {
        let d = derive();
        for s in 0..d.states {
            assert_eq!(d.run(&d.witness[s]), s);
        }
    }

    /// A tiny deterministic generator, so the test needs no dependency.
    fn shuffle(v: &mut [u8], seed: &mut u64) {
        for i in (1..v.len()).rev() {
            *seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            v.swap(i, (*seed >> 33) as usize % (i + 1));
        }
    }

    /// Any renumbering that keeps accept and reject pinned is recovered
    /// exactly from the renumbered tables.
    #[test]
    fn infers_any_numbering() {
        let d = derive();
        let mut seed = 7;
        for _ in 0..200 {
            let mut class: Vec<u8> = (0..12).collect();
            shuffle(&mut class, &mut seed);
            let mut rest: Vec<u8> = (2..9).map(|s| s * 12).collect();
            shuffle(&mut rest, &mut seed);
            let state: Vec<u8> = [0, 12].into_iter().chain(rest).collect();
            let n = Numbering { class, state };
            let r = d.renumber(&n);
            let k = DfaConstants {
                byte_class: r.byte_class,
                transition: r.transition(),
                accept: 0,
                reject: 12,
            };
            assert_eq!(infer_numbering(&d, &k), n);
        }
    }
}
