//! UTF-8's relatives (CESU-8, MUTF-8, WTF-8): their DFAs and nibble tables,
//! derived from the switches in [`spec::Variant`], and the proofs that the
//! SIMD check they feed is exactly the grammar.
//!
//! For each variant:
//!
//! 1. **The DFA** ([`dfa::derive_variant`]): the unit grammar with the
//!    pairing automaton ([`spec::pairing`]) built in, minimised, with
//!    classes numbered by their smallest byte and states in breadth-first
//!    order (accept 0, reject 1, then any other accepting state). It is the
//!    whole language: the pairing rule is regular, so the scalar validator
//!    needs nothing else.
//! 2. **The nibble tables** ([`nibbles::derive_for`]) of the variant's pair
//!    classes. Pairs cannot express everything: [`Model`] is the SIMD check
//!    written out one position at a time (lookups, the 3rd/4th-byte check,
//!    the pairing check three bytes apart, MUTF-8's `00` and `C0 80`
//!    checks, the end-of-input check), and [`prove_model`] proves it equals
//!    the DFA on *every* input, by a breadth-first search over the product
//!    of the two automata (see there).
//! 3. **The pairing rule's own check** ([`prove_pairing`]): the DFA and the
//!    model agree with a value-based oracle on all 4,194,304 sequences of two
//!    surrogates (`ED A0..=BF 80..=BF`, twice).

use super::Report;
use super::constants::{BmpConstants, VariantConstants};
use super::dfa::{self, Dfa};
use super::nibbles::{self, Nibbles};
use super::spec::{self, Role, Surrogates, Variant};
use std::collections::{HashMap, VecDeque};

/// Everything derived for one variant.
pub(crate) struct DerivedVariant {
    pub(crate) variant: &'static Variant,
    pub(crate) dfa: Dfa,
    pub(crate) nibbles: Nibbles,
}

/// Derives every variant's tables.
pub(crate) fn derive_all() -> Vec<DerivedVariant> {
    spec::VARIANTS
        .iter()
        .map(|&v| DerivedVariant {
            variant: v,
            dfa: dfa::derive_variant(v),
            nibbles: nibbles::derive_for(v.classes),
        })
        .collect()
}

/// Derives the BMP table sets of utf8-simd ([`spec::BMP_SETS`]): one
/// table, read with and without the `00` check.
pub(crate) fn derive_bmp() -> Vec<DerivedVariant> {
    spec::BMP_SETS
        .iter()
        .map(|&v| DerivedVariant {
            variant: v,
            dfa: dfa::derive_variant(v),
            nibbles: nibbles::derive_for(v.classes),
        })
        .collect()
}

/// Compares `utf8_simd::tables::bmp` (`k`) and `FOUR_BYTE` (`four_byte`)
/// with the derivation, and proves the SIMD check that reads them (with
/// and without the `00` check) equal to the grammar of UTF-8 without 4-byte
/// forms (and without `00`): a subset of UTF-8, which is what lets
/// `utf8_simd::variant::bmp_str` make a `&str` of what it accepts.
pub(crate) fn check_bmp(derived: &[DerivedVariant], k: &[BmpConstants], r: &mut Report) {
    if derived.len() != k.len() {
        r.problems.push(format!(
            "utf8_simd::tables has {} BMP table sets, the specification {}",
            k.len(),
            derived.len()
        ));
    }
    for (d, k) in derived.iter().zip(k) {
        let n = &k.nibbles;
        for (table, got, want) in [
            ("BYTE_1_HIGH", &n.byte_1_high, &d.nibbles.byte_1_high),
            ("BYTE_1_LOW", &n.byte_1_low, &d.nibbles.byte_1_low),
            ("BYTE_2_HIGH", &n.byte_2_high, &d.nibbles.byte_2_high),
        ] {
            let name = format!("utf8_simd::tables::{}.{table}", k.name);
            r.compare(Box::leak(name.into_boxed_str()), want, got);
        }
        check_error_bits("utf8_simd::tables", d.variant, &k.error_bits, r);
        if let Err(e) = nibbles::prove_against(n, &nibbles::expected_bits(d.variant.classes)) {
            r.problems
                .push(format!("utf8_simd::tables::{} is not exact: {e}", k.name));
        }
        let crate_tables = DerivedVariant {
            variant: d.variant,
            dfa: d.dfa.clone(),
            nibbles: n.clone(),
        };
        if let Err(e) = prove_model(&crate_tables) {
            r.problems
                .push(format!("utf8_simd::tables::{}: {e}", k.name));
        }
    }
}

/// Each error bit a crate names in its tables (`tables`, such as
/// `utf8_simd::tables`) against the bit of the class of that name in `v`:
/// the one check of the hand-written error-bit constants of both crates.
fn check_error_bits(tables: &str, v: &Variant, bits: &[(&'static str, u8)], r: &mut Report) {
    for &(name, value) in bits {
        match v.classes.iter().find(|c| c.name == name) {
            Some(c) if c.bit == value => {}
            Some(c) => r.problems.push(format!(
                "{tables}::{name} = {value:#04X}, the specification's bit is {:#04X}",
                c.bit
            )),
            None => r
                .problems
                .push(format!("{tables}::{name}: not a class of {}", v.name)),
        }
    }
}

/// The bits of `v`'s classes with a role.
fn bits_with(v: &Variant, role: Role) -> u8 {
    v.classes
        .iter()
        .filter(|c| v.role(c) == role)
        .fold(0, |acc, c| acc | c.bit)
}

/// The SIMD check of a variant, one position at a time, exactly as the
/// kernel computes it for each byte `cur` with the three bytes before it
/// (`prev1..prev3`; zeros before the input):
///
/// - `special`: the AND of the three nibble lookups of `(prev1, cur)`;
/// - an error if `special` has a bit of a [`Role::Error`] class;
/// - an error if "`cur` must be a continuation" (`prev2 >= E0`, or, where
///   4-byte forms exist, `prev3 >= F0`) differs from the `TWO_CONTS` bit;
/// - MUTF-8: an error if `special` has the [`Role::UnlessC080`] bit and a low
///   nibble of `prev1` or `cur` is not zero;
/// - where the byte `00` is forbidden: MUTF-8, an error if `cur` is `00`;
///   the BMP check without it, its `NUL_BYTE` class, which sees `00` as
///   `prev1` (so the bytes before the input are spaces there, not zeros,
///   and an input may not end in `00`);
/// - surrogates: `S` is the marker bit ([`Role::SurrogateMarker`]), a lead
///   `L` where `S` and bit 4 of `cur` is clear (`ED A0..=AF`), a trail where
///   `S` and it is set. [`Surrogates::Paired`]: an error where "a trail
///   here" differs from "a lead three bytes back"; [`Surrogates::Unpaired`]:
///   an error where both hold.
///
/// At the end of the input: an error if the last byte is `C0..`, the one
/// before `E0..` or the one before that `F0..` (a character left open), or,
/// for [`Surrogates::Paired`], if a lead is among the last three positions
/// (a pair left open).
pub(crate) struct Model<'a> {
    v: &'a Variant,
    n: &'a Nibbles,
    error: u8,
    two_conts: u8,
    unless: u8,
    marker: u8,
    /// `00` is flagged by a pair class (`NUL_BYTE`), not byte by byte.
    nul_pair: bool,
}

/// What the model remembers between bytes: exactly what the next step and
/// the end-of-input check read.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Window {
    /// The previous byte (0 before the input).
    prev1: u8,
    /// `prev2 >= E0`, `prev2 >= F0`, `prev3 >= F0`.
    e2: bool,
    f2: bool,
    f3: bool,
    /// Whether positions -1, -2, -3 hold a lead marker.
    l1: bool,
    l2: bool,
    l3: bool,
    /// An error was found.
    failed: bool,
}

impl Window {
    pub(crate) const START: Window = Window {
        prev1: 0,
        e2: false,
        f2: false,
        f3: false,
        l1: false,
        l2: false,
        l3: false,
        failed: false,
    };
}

impl<'a> Model<'a> {
    pub(crate) fn new(v: &'a Variant, n: &'a Nibbles) -> Self {
        Model {
            v,
            n,
            error: bits_with(v, Role::Error),
            two_conts: bits_with(v, Role::TwoConts),
            unless: bits_with(v, Role::UnlessC080),
            marker: bits_with(v, Role::SurrogateMarker),
            nul_pair: v.classes.iter().any(|c| c.name == "NUL_BYTE"),
        }
    }

    /// The window before the input: zeros, or spaces where `00` is a pair
    /// class (as the kernel's BMP check reads them).
    pub(crate) fn start(&self) -> Window {
        Window {
            prev1: if self.nul_pair { b' ' } else { 0 },
            ..Window::START
        }
    }

    /// The window after `cur`.
    pub(crate) fn step(&self, w: Window, cur: u8) -> Window {
        let special = self.n.lookup(w.prev1, cur);
        let must_be_cont = w.e2 || (self.v.four_byte && w.f3);
        let mut failed = w.failed
            || special & self.error != 0
            || must_be_cont != (special & self.two_conts != 0)
            || (special & self.unless != 0 && (w.prev1 | cur) & 0x0F != 0)
            || (!self.v.nul_byte && !self.nul_pair && cur == 0);
        let marked = special & self.marker != 0;
        let lead = marked && cur & 0x10 == 0;
        let trail = marked && cur & 0x10 != 0;
        failed |= match self.v.surrogates {
            Surrogates::Forbidden => false,
            Surrogates::Paired => trail != w.l3,
            Surrogates::Unpaired => trail && w.l3,
        };
        Window {
            prev1: cur,
            e2: w.prev1 >= 0xE0,
            f2: w.prev1 >= 0xF0,
            f3: w.f2,
            l1: lead,
            l2: w.l1,
            l3: w.l2,
            failed,
        }
    }

    /// Whether an input that ended in window `w` passes.
    pub(crate) fn passes_at_end(&self, w: Window) -> bool {
        let open_char = w.prev1 >= 0xC0 || w.e2 || w.f3;
        let open_pair = self.v.surrogates == Surrogates::Paired && (w.l1 || w.l2 || w.l3);
        // A `00` at the end: no pair saw it.
        let last_nul = self.nul_pair && w.prev1 == 0;
        !w.failed && !open_char && !open_pair && !last_nul
    }

    /// Whether `input` passes the check.
    pub(crate) fn is_valid(&self, input: &[u8]) -> bool {
        let w = input.iter().fold(self.start(), |w, &b| self.step(w, b));
        self.passes_at_end(w)
    }
}

/// The bytes as the product search sees them: two bytes in one class are
/// treated alike by the DFA (same DFA class) and by the model (same high
/// nibble, which decides every lookup by a high nibble and every `>=`
/// comparison; same `BYTE_1_LOW` entry; same "low nibble is zero" and "is
/// `00`"). One byte of each class stands for all.
fn representatives(d: &DerivedVariant) -> Vec<u8> {
    let mut seen = HashMap::new();
    for b in 0..=255u8 {
        let key = (
            d.dfa.byte_class[usize::from(b)],
            b >> 4,
            d.nibbles.byte_1_low[usize::from(b & 0x0F)],
            b & 0x0F == 0,
            b == 0,
        );
        seen.entry(key).or_insert(b);
    }
    let mut reps: Vec<u8> = seen.into_values().collect();
    reps.sort_unstable();
    reps
}

/// Proves that the model passes exactly the inputs the DFA accepts, for
/// inputs of every length.
///
/// Both are finite automata: the DFA's state, and the model's [`Window`].
/// A breadth-first search from (accept, [`Window::START`]) over one
/// representative byte per class ([`representatives`]) visits every pair of
/// states that some input reaches (a few thousand), and in each it checks
/// that "the model passes if the input ends here" equals "the DFA accepts".
/// That is the statement for every input, since every input ends in some
/// reachable pair. (The window holds the previous byte itself, not its
/// class, so that the model's lookups read real bytes.)
///
/// Returns the number of pairs of states visited.
pub(crate) fn prove_model(d: &DerivedVariant) -> Result<usize, String> {
    let model = Model::new(d.variant, &d.nibbles);
    let reps = representatives(d);
    let start = (dfa::ACCEPT, model.start());
    let mut seen: HashMap<(usize, Window), Vec<u8>> = HashMap::from([(start, Vec::new())]);
    let mut queue = VecDeque::from([start]);
    while let Some((s, w)) = queue.pop_front() {
        let model_passes = model.passes_at_end(w);
        if model_passes != d.dfa.accepting[s] {
            let input = &seen[&(s, w)];
            return Err(format!(
                "{}: on {input:02X?} the SIMD check says {}, the DFA {}",
                d.variant.name,
                if model_passes { "valid" } else { "invalid" },
                if d.dfa.accepting[s] {
                    "valid"
                } else {
                    "invalid"
                },
            ));
        }
        for &b in &reps {
            let next = (
                d.dfa.next[s][usize::from(d.dfa.byte_class[usize::from(b)])],
                model.step(w, b),
            );
            // Once both have failed, nothing after can differ: one sink.
            let next = if next.0 == dfa::REJECT && next.1.failed {
                (
                    dfa::REJECT,
                    Window {
                        failed: true,
                        ..model.start()
                    },
                )
            } else {
                next
            };
            if !seen.contains_key(&next) {
                let mut input = seen[&(s, w)].clone();
                input.push(b);
                seen.insert(next, input);
                queue.push_back(next);
            }
        }
    }
    Ok(seen.len())
}

/// An independent statement of each variant, by code point values rather
/// than byte ranges: decode generalized UTF-8 (any lead `C0..=F7`, any value
/// its length can hold), then apply the rules to the values.
///
/// Only validity is compared; the crate's tests check error positions
/// against other oracles.
pub(crate) fn oracle_is_valid(v: &Variant, input: &[u8]) -> bool {
    let mut values = Vec::new();
    let mut i = 0;
    while i < input.len() {
        let b0 = input[i];
        let len = match b0 {
            0x00..=0x7F => 1,
            0xC0..=0xDF => 2,
            0xE0..=0xEF => 3,
            0xF0..=0xF7 => 4,
            _ => return false,
        };
        let Some(seq) = input.get(i..i + len) else {
            return false;
        };
        if seq[1..].iter().any(|&b| b & 0xC0 != 0x80) {
            return false;
        }
        let mut value = u32::from(b0) & (0x7F >> len.min(7));
        if len == 1 {
            value = u32::from(b0);
        }
        for &b in &seq[1..] {
            value = value << 6 | u32::from(b & 0x3F);
        }
        let shortest = match value {
            0..=0x7F => 1,
            0x80..=0x7FF => 2,
            0x800..=0xFFFF => 3,
            _ => 4,
        };
        let nul_as_c0_80 = v.modified_nul && value == 0 && len == 2;
        if len != shortest && !nul_as_c0_80 {
            return false;
        }
        if value > 0x10FFFF || (len == 4 && !v.four_byte) || (value == 0 && len == 1 && !v.nul_byte)
        {
            return false;
        }
        values.push(value);
        i += len;
    }
    let lead = |c: u32| (0xD800..=0xDBFF).contains(&c);
    let trail = |c: u32| (0xDC00..=0xDFFF).contains(&c);
    match v.surrogates {
        Surrogates::Forbidden => !values.iter().any(|&c| lead(c) || trail(c)),
        Surrogates::Unpaired => !values.windows(2).any(|w| lead(w[0]) && trail(w[1])),
        Surrogates::Paired => {
            let mut k = 0;
            while k < values.len() {
                if lead(values[k]) {
                    if !values.get(k + 1).is_some_and(|&c| trail(c)) {
                        return false;
                    }
                    k += 2;
                } else if trail(values[k]) {
                    return false;
                } else {
                    k += 1;
                }
            }
            true
        }
    }
}

/// The pairing rule, proven on every sequence of two surrogates: for all
/// 2048 × 2048 pairs, the DFA, the model and [`oracle_is_valid`] agree.
pub(crate) fn prove_pairing(d: &DerivedVariant) -> Result<usize, String> {
    let model = Model::new(d.variant, &d.nibbles);
    let mut count = 0;
    for a in 0..2048u32 {
        for b in 0..2048u32 {
            let input = [
                0xED,
                0xA0 | (a >> 6) as u8,
                0x80 | (a & 0x3F) as u8,
                0xED,
                0xA0 | (b >> 6) as u8,
                0x80 | (b & 0x3F) as u8,
            ];
            let oracle = oracle_is_valid(d.variant, &input);
            let by_dfa = d.dfa.accepting[d.dfa.run(&input)];
            let by_model = model.is_valid(&input);
            if by_dfa != oracle || by_model != oracle {
                return Err(format!(
                    "{}: on {input:02X?} the oracle says {oracle}, the DFA {by_dfa}, the SIMD check {by_model}",
                    d.variant.name
                ));
            }
            count += 1;
        }
    }
    Ok(count)
}

/// [`nibbles::expected_bits`] of a variant's classes, computed once (the
/// perturbation tests check hundreds of tables).
fn expected_bits(v: &Variant) -> &'static [u8] {
    use std::sync::{Mutex, OnceLock};
    static CACHE: OnceLock<Mutex<HashMap<&'static str, &'static [u8]>>> = OnceLock::new();
    let cache = CACHE.get_or_init(Default::default);
    let mut cache = cache.lock().unwrap_or_else(|e| e.into_inner());
    cache
        .entry(v.module)
        .or_insert_with(|| nibbles::expected_bits(v.classes).leak())
}

/// The path of a constant in `utf8_variants::tables`, for reports.
fn path(module: &str, name: &str) -> &'static str {
    Box::leak(format!("utf8_variants::tables::{module}::{name}").into_boxed_str())
}

/// Compares every constant of `utf8_variants::tables` with the derivation,
/// in the canonical numbering (the crate writes its tables in it), and runs
/// the proofs about the crate's nibble tables.
pub(crate) fn check(derived: &[DerivedVariant], k: &[VariantConstants], r: &mut Report) {
    if derived.len() != k.len() {
        r.problems.push(format!(
            "utf8_variants::tables has {} modules, the specification {} variants",
            k.len(),
            derived.len()
        ));
    }
    for (d, k) in derived.iter().zip(k) {
        let m = d.variant.module;
        if k.module != m {
            r.problems.push(format!(
                "utf8_variants::tables::{}: expected the module of {}, {m}",
                k.module, d.variant.name
            ));
            continue;
        }
        let stride = d.dfa.classes;
        r.compare(path(m, "CLASSES"), &[stride as u64], &[k.classes as u64]);
        r.compare(
            path(m, "STATES"),
            &[d.dfa.states as u64],
            &[k.states as u64],
        );
        r.compare(path(m, "ACCEPT"), &[0u8], &[k.accept]);
        r.compare(path(m, "REJECT"), &[stride as u8], &[k.reject]);
        let after_lead: Vec<u8> = (2..d.dfa.states)
            .filter(|&s| d.dfa.accepting[s])
            .map(|s| (s * stride) as u8)
            .collect();
        r.compare(
            path(m, "AFTER_LEAD"),
            &after_lead,
            &k.after_lead.into_iter().collect::<Vec<_>>(),
        );
        r.compare(path(m, "BYTE_CLASS"), &d.dfa.byte_class, &k.byte_class);
        r.compare(path(m, "TRANSITION"), &d.dfa.transition(), &k.transition);
        r.compare(
            path(m, "BYTE_1_HIGH"),
            &d.nibbles.byte_1_high,
            &k.nibbles.byte_1_high,
        );
        r.compare(
            path(m, "BYTE_1_LOW"),
            &d.nibbles.byte_1_low,
            &k.nibbles.byte_1_low,
        );
        r.compare(
            path(m, "BYTE_2_HIGH"),
            &d.nibbles.byte_2_high,
            &k.nibbles.byte_2_high,
        );
        check_error_bits("utf8_variants::tables", d.variant, &k.error_bits, r);
        // The crate's own tables, through the model: exact on all pairs,
        // and the whole SIMD check equal to the DFA.
        if let Err(e) = nibbles::prove_against(&k.nibbles, expected_bits(d.variant)) {
            r.problems.push(format!(
                "utf8_variants::tables::{m} nibble tables are not exact: {e}"
            ));
        }
        let crate_tables = DerivedVariant {
            variant: d.variant,
            dfa: d.dfa.clone(),
            nibbles: k.nibbles.clone(),
        };
        if let Err(e) = prove_model(&crate_tables) {
            r.problems.push(format!("utf8_variants::tables::{m}: {e}"));
        }
    }
}

/// The tables of `docs/tables.md` for one variant (a test checks that the
/// document still quotes them).
pub(crate) fn markdown(d: &DerivedVariant) -> String {
    use std::fmt::Write as _;
    let v = d.variant;
    let dfa = &d.dfa;
    let mut s = String::new();
    let _ = writeln!(
        s,
        "| {} | surrogates | 4-byte forms | U+0000 | from |\n|---|---|---|---|---|",
        v.name
    );
    let _ = writeln!(
        s,
        "| switches | {} | {} | {} | {} |\n",
        match v.surrogates {
            Surrogates::Forbidden => "forbidden",
            Surrogates::Paired => "only as a lead then a trail",
            Surrogates::Unpaired => "alone, never a lead then a trail",
        },
        if v.four_byte { "allowed" } else { "forbidden" },
        match (v.modified_nul, v.nul_byte) {
            (true, _) => "`C0 80`, never `00`",
            (false, false) => "never",
            (false, true) => "`00`",
        },
        v.reference
    );
    let _ = writeln!(s, "| {} unit | bytes | encodes |\n|---|---|---|", v.name);
    for (unit, alt) in spec::units(v) {
        let bytes: Vec<String> = alt
            .iter()
            .map(|&(lo, hi)| {
                if lo == hi {
                    format!("{lo:02X}")
                } else {
                    format!("{lo:02X}-{hi:02X}")
                }
            })
            .collect();
        let _ = writeln!(s, "| {} | `{}` | {unit:?} |", v.name, bytes.join(" "));
    }
    let _ = writeln!(s, "\n| {} class | bytes |\n|---:|---|", v.name);
    for c in 0..dfa.classes as u8 {
        let _ = writeln!(s, "| {} {c} | `{}` |", v.module, dfa.class_ranges(c));
    }
    let _ = writeln!(
        s,
        "\n| {} state | reached by | accepts | then |\n|---:|---|---|---|",
        v.name
    );
    for k in 0..dfa.states {
        let next: Vec<String> = (0..dfa.classes as u8)
            .filter(|&c| dfa.next[k][usize::from(c)] != dfa::REJECT)
            .map(|c| {
                format!(
                    "`{}` → {}",
                    dfa.class_ranges(c),
                    dfa.next[k][usize::from(c)] * dfa.classes
                )
            })
            .collect();
        let _ = writeln!(
            s,
            "| {} {} | `{}` | {} | {} |",
            v.module,
            k * dfa.classes,
            super::witness(&dfa.witness[k]),
            if dfa.accepting[k] { "yes" } else { "no" },
            if next.is_empty() {
                "nothing".to_string()
            } else {
                next.join(", ")
            }
        );
    }
    let _ = writeln!(
        s,
        "\n| {} class | bit | patterns | role |\n|---|---:|---|---|",
        v.name
    );
    for c in v.classes {
        let _ = writeln!(
            s,
            "| {} {} | {} | `{}` | {:?} |",
            v.module,
            c.name,
            c.bit.trailing_zeros(),
            c.patterns.join("`, `"),
            v.role(c)
        );
    }
    let header: Vec<String> = (0..16).map(|x| format!("{x:X}")).collect();
    let _ = writeln!(
        s,
        "\n| {} table | {} |\n|---|{}",
        v.name,
        header.join(" | "),
        "---:|".repeat(16)
    );
    for (name, t) in [
        ("BYTE_1_HIGH", &d.nibbles.byte_1_high),
        ("BYTE_1_LOW", &d.nibbles.byte_1_low),
        ("BYTE_2_HIGH", &d.nibbles.byte_2_high),
    ] {
        let cells: Vec<String> = t.iter().map(|e| format!("`{e:02X}`")).collect();
        let _ = writeln!(s, "| {} {name} | {} |", v.module, cells.join(" | "));
    }
    s
}

/// The derived tables of one variant as the Rust source of its module in
/// `utf8_variants::tables`.
pub(crate) fn render(d: &DerivedVariant) -> String {
    use std::fmt::Write as _;
    let mut s = String::new();
    let dfa = &d.dfa;
    let stride = dfa.classes;
    let v = d.variant;
    let _ = writeln!(
        s,
        "// ---- utf8_variants::tables::{} ({}) ----\n",
        v.module, v.name
    );
    let _ = writeln!(s, "// Classes:");
    for c in 0..stride as u8 {
        let _ = writeln!(s, "//   {c:>2}  {}", dfa.class_ranges(c));
    }
    let _ = writeln!(s, "pub const CLASSES: usize = {stride};");
    let _ = writeln!(s, "pub const STATES: usize = {};", dfa.states);
    let _ = writeln!(
        s,
        "pub const ACCEPT: u8 = 0;\npub const REJECT: u8 = {stride};"
    );
    for k in 2..dfa.states {
        if dfa.accepting[k] {
            let _ = writeln!(
                s,
                "pub const ACCEPT_{k}: u8 = {}; // after {}",
                k * stride,
                super::witness(&dfa.witness[k])
            );
        }
    }
    s.push_str("\n#[rustfmt::skip]\npub const BYTE_CLASS: [u8; 256] = [\n");
    s.push_str("//   0  1  2  3  4  5  6  7  8  9  A  B  C  D  E  F\n");
    for (row, chunk) in dfa.byte_class.chunks(16).enumerate() {
        let cells: Vec<String> = chunk.iter().map(|c| format!("{c:>2},")).collect();
        let _ = writeln!(s, "   {} // {:02X}", cells.join(""), row * 16);
    }
    let transition = dfa.transition();
    let _ = writeln!(
        s,
        "];\n\n#[rustfmt::skip]\npub const TRANSITION: [u8; {}] = [",
        transition.len()
    );
    let header: Vec<String> = (0..stride).map(|c| format!("{c:>3}")).collect();
    let _ = writeln!(s, "// class:\n// {}", header.join(" "));
    for (k, row) in transition.chunks(stride).enumerate() {
        let cells: Vec<String> = row.iter().map(|t| format!("{t:>3},")).collect();
        let _ = writeln!(
            s,
            "  {} // {:>3} after {}{}",
            cells.join(""),
            k * stride,
            super::witness(&dfa.witness[k]),
            if dfa.accepting[k] { " (accepts)" } else { "" }
        );
    }
    s.push_str("];\n");
    s.push_str(&render_nibbles(d));
    s
}

/// The derived nibble tables of `d` as Rust source.
pub(crate) fn render_nibbles(d: &DerivedVariant) -> String {
    use std::fmt::Write as _;
    let v = d.variant;
    let mut s = String::new();
    for (name, pos, table) in [
        (
            "BYTE_1_HIGH",
            nibbles::Position::Byte1High,
            &d.nibbles.byte_1_high,
        ),
        (
            "BYTE_1_LOW",
            nibbles::Position::Byte1Low,
            &d.nibbles.byte_1_low,
        ),
        (
            "BYTE_2_HIGH",
            nibbles::Position::Byte2High,
            &d.nibbles.byte_2_high,
        ),
    ] {
        let _ = writeln!(s, "\n#[rustfmt::skip]\npub const {name}: [u8; 16] = [");
        for (x, &entry) in table.iter().enumerate() {
            let names: Vec<&str> = nibbles::compatible_classes_of(v.classes, pos, x as u8)
                .iter()
                .map(|c| c.name)
                .collect();
            let names = if names.is_empty() {
                "0".into()
            } else {
                names.join(" | ")
            };
            let _ = writeln!(s, "    {names}, // {x:X} = {entry:#04X}");
        }
        s.push_str("];\n");
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every derived set: the variants and the BMP check's.
    fn each(f: impl Fn(&DerivedVariant)) {
        for d in derive_all().into_iter().chain(derive_bmp()) {
            f(&d);
        }
    }

    /// The BMP check's language is UTF-8's without the 4-byte forms (and
    /// `00`): a subset of UTF-8, checked against std on every input of up
    /// to three bytes and every 4-byte form.
    #[test]
    fn the_bmp_sets_are_utf8_without_4_byte_forms() {
        for d in derive_bmp() {
            let nul = d.variant.nul_byte;
            let want = |b: &[u8]| {
                core::str::from_utf8(b).is_ok() && b.iter().all(|&x| x < 0xF0 && (nul || x != 0))
            };
            let mut buf = Vec::with_capacity(3);
            for len in 0..=3u32 {
                for n in 0..1u32 << (8 * len) {
                    buf.clear();
                    buf.extend((0..len).map(|i| (n >> (8 * i)) as u8));
                    assert_eq!(
                        d.dfa.accepting[d.dfa.run(&buf)],
                        want(&buf),
                        "{} {buf:02X?}",
                        d.variant.name
                    );
                }
            }
            for c in ('\u{10000}'..='\u{10FFFF}').step_by(97) {
                let b = c.encode_utf8(&mut [0; 4]).as_bytes().to_vec();
                assert!(!d.dfa.accepting[d.dfa.run(&b)], "{c:?}");
            }
        }
    }

    #[test]
    fn the_utf8_switches_give_utf8() {
        // The variant machinery applied to UTF-8 itself gives utf8-dfa's
        // automaton (up to numbering): same size, same language.
        let d = dfa::derive_variant(&spec::UTF8);
        let u = dfa::derive();
        assert_eq!((d.states, d.classes), (u.states, u.classes));
        for n in 0..1u32 << 16 {
            for len in 0..=2 {
                let input = &n.to_le_bytes()[..len];
                assert_eq!(
                    d.accepting[d.run(input)],
                    u.accepting[u.run(input)],
                    "{input:02X?}"
                );
            }
        }
    }

    #[test]
    fn each_dfa_agrees_with_the_oracle_on_every_input_up_to_three_bytes() {
        each(|d| {
            let mut buf = Vec::with_capacity(3);
            for len in 0..=3u32 {
                for n in 0..1u32 << (8 * len) {
                    buf.clear();
                    buf.extend((0..len).map(|i| (n >> (8 * i)) as u8));
                    assert_eq!(
                        d.dfa.accepting[d.dfa.run(&buf)],
                        oracle_is_valid(d.variant, &buf),
                        "{} {buf:02X?}",
                        d.variant.name
                    );
                }
            }
        });
    }

    #[test]
    fn each_dfa_and_model_agree_on_all_surrogate_pairs() {
        each(|d| {
            assert_eq!(prove_pairing(d), Ok(2048 * 2048));
        });
    }

    #[test]
    fn each_model_equals_its_dfa_on_every_input() {
        each(|d| {
            let visited = prove_model(d).unwrap();
            // The BMP sets track no surrogates: 81 pairs of states.
            assert!(visited > 75, "{}: {visited}", d.variant.name);
        });
    }

    #[test]
    fn each_nibble_table_set_is_exact() {
        each(|d| {
            let expected = nibbles::expected_bits(d.variant.classes);
            nibbles::prove_against(&d.nibbles, &expected).unwrap();
        });
    }

    /// The exactness proof of the nibble tables catches every single-bit
    /// change of an entry, on every bit a class uses (CESU-8 leaves bit 6
    /// unused: nothing reads it, and a change of one table alone cannot
    /// reach the AND).
    #[test]
    fn the_nibble_proof_catches_every_flip_of_a_used_bit() {
        each(|d| {
            let expected = nibbles::expected_bits(d.variant.classes);
            for which in 0..3 {
                for i in 0..16 {
                    for bit in 0..8u8 {
                        if d.variant.classes.iter().all(|c| c.bit != 1 << bit) {
                            continue;
                        }
                        let mut n = d.nibbles.clone();
                        let t = match which {
                            0 => &mut n.byte_1_high,
                            1 => &mut n.byte_1_low,
                            _ => &mut n.byte_2_high,
                        };
                        t[i] ^= 1 << bit;
                        assert!(
                            nibbles::prove_against(&n, &expected).is_err(),
                            "{} table {which} entry {i} bit {bit}",
                            d.variant.name
                        );
                    }
                }
            }
        });
    }

    /// The model proof can fail. A change of a table entry need not change
    /// the language (a bit added to a pair that another class already
    /// flags), and the proof is complete, so the changes it lets through are
    /// exactly those that keep the language; the ones that break each rule
    /// of the variant must be caught.
    #[test]
    fn the_model_proof_catches_each_broken_rule() {
        let bit = |d: &DerivedVariant, name: &str| {
            d.variant
                .classes
                .iter()
                .find(|c| c.name == name)
                .map(|c| c.bit)
                .unwrap()
        };
        each(|d| {
            let mut cases: Vec<(&str, Nibbles)> = Vec::new();
            // The surrogate marker gone from ED: no pairing check at all.
            let mut n = d.nibbles.clone();
            n.byte_1_low[0xD] &= !bit(d, "SURROGATE");
            cases.push(("no surrogate marker", n));
            // A 4-byte lead no longer flagged (CESU-8, MUTF-8), or F0 90
            // no longer allowed (WTF-8).
            let mut n = d.nibbles.clone();
            if d.variant.four_byte {
                n.byte_1_high[0xF] |= bit(d, "OVERLONG_4");
                n.byte_2_high[0x9] |= bit(d, "OVERLONG_4");
            } else {
                n.byte_1_high[0xF] &= !bit(d, "FOUR_BYTE");
            }
            cases.push(("4-byte forms", n));
            // C0 80 (MUTF-8) or C0 and C1 (the others).
            let mut n = d.nibbles.clone();
            n.byte_1_high[0xC] &= !bit(d, "OVERLONG_2");
            cases.push(("overlong 2-byte forms", n));
            if d.variant.modified_nul {
                let mut n = d.nibbles.clone();
                n.byte_1_high[0xC] &= !bit(d, "C0_80");
                cases.push(("C0 81", n));
            }
            if d.variant.classes.iter().any(|c| c.name == "NUL_BYTE") {
                // 00 no longer flagged (the BMP check without 00).
                let mut n = d.nibbles.clone();
                n.byte_1_low[0] &= !bit(d, "NUL_BYTE");
                cases.push(("00", n));
            }
            for (what, nibbles) in cases {
                let changed = DerivedVariant {
                    variant: d.variant,
                    dfa: d.dfa.clone(),
                    nibbles,
                };
                let err = prove_model(&changed).unwrap_err();
                assert!(err.contains(d.variant.name), "{what}: {err}");
            }
        });
    }

    /// The proof of the BMP check without `00` sees the `00` check: the
    /// model that allows `00` is not that DFA.
    #[test]
    fn the_bmp_proof_catches_a_missing_nul_check() {
        let sets = derive_bmp();
        let [with, without] = &sets[..] else {
            panic!("two BMP sets");
        };
        assert!(with.variant.nul_byte && !without.variant.nul_byte);
        let mixed = DerivedVariant {
            variant: with.variant,
            dfa: without.dfa.clone(),
            nibbles: with.nibbles.clone(),
        };
        assert!(prove_model(&mixed).is_err());
    }

    #[test]
    fn the_oracle_is_not_the_dfa() {
        // Spot checks of the oracle itself, from the specifications.
        use spec::{CESU8, MUTF8, WTF8};
        let pair = b"\xED\xA0\x80\xED\xB0\x80"; // U+10000 as CESU-8
        let four = "\u{10000}".as_bytes();
        assert!(oracle_is_valid(&CESU8, pair));
        assert!(!oracle_is_valid(&CESU8, four));
        assert!(!oracle_is_valid(&CESU8, &pair[..3]));
        assert!(!oracle_is_valid(&CESU8, &pair[3..]));
        assert!(oracle_is_valid(&CESU8, b"\x00"));
        assert!(!oracle_is_valid(&CESU8, b"\xC0\x80"));
        assert!(oracle_is_valid(&MUTF8, b"\xC0\x80"));
        assert!(!oracle_is_valid(&MUTF8, b"\x00"));
        assert!(!oracle_is_valid(&MUTF8, b"\xC0\x81"));
        assert!(!oracle_is_valid(&WTF8, pair));
        assert!(oracle_is_valid(&WTF8, four));
        assert!(oracle_is_valid(&WTF8, &pair[..3]));
        assert!(oracle_is_valid(&WTF8, b"\xED\xB0\x80\xED\xA0\x80"));
    }
}
