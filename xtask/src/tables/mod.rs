//! `cargo xtask gen-tables [--check | --variants | --markdown | --encodings]`:
//! the DFA table of utf8-dfa and the nibble tables of utf8-simd, derived
//! from the documented UTF-8 error classes ([`spec`]); the tables of
//! UTF-8's relatives and utf8-simd's BMP tables ([`variants`]); and the
//! single-byte tables of the encodings crate ([`encodings`]). `--check`
//! compares every one of them with the crates' hand-written or generated
//! constants, which xtask reads directly as a dependency of the crates.
//!
//! The derivation is explained, with every table, in `docs/tables.md`.

pub(crate) mod constants;
pub(crate) mod dfa;
pub(crate) mod encodings;
pub(crate) mod nibbles;
pub(crate) mod spec;
pub(crate) mod variants;

use crate::util::Result;
use constants::Constants;
use dfa::{Dfa, Numbering};
use nibbles::Nibbles;
use std::fmt::{self, Write as _};

/// One entry that differs between the derivation and the crates.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Mismatch {
    /// The constant's path, e.g. `utf8_dfa::table::TRANSITION`.
    pub(crate) table: &'static str,
    /// The index into it (0 for a scalar constant).
    pub(crate) index: usize,
    /// What the derivation says.
    pub(crate) derived: u64,
    /// What the crate has.
    pub(crate) actual: u64,
}

impl fmt::Display for Mismatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}[{}] (index {:#04X}): derived {:#04X} ({}), the crate has {:#04X} ({})",
            self.table,
            self.index,
            self.index,
            self.derived,
            self.derived,
            self.actual,
            self.actual
        )
    }
}

/// What `--check` finds: entries that differ, and broken invariants of the
/// crates' numbering.
#[derive(Debug, Default)]
pub(crate) struct Report {
    pub(crate) mismatches: Vec<Mismatch>,
    pub(crate) problems: Vec<String>,
}

impl Report {
    fn compare<T: Copy + Into<u64>>(&mut self, table: &'static str, derived: &[T], actual: &[T]) {
        if derived.len() != actual.len() {
            self.problems.push(format!(
                "{table}: derived {} entries, the crate has {}",
                derived.len(),
                actual.len()
            ));
        }
        for (index, (&d, &a)) in derived.iter().zip(actual).enumerate() {
            if d.into() != a.into() {
                self.mismatches.push(Mismatch {
                    table,
                    index,
                    derived: d.into(),
                    actual: a.into(),
                });
            }
        }
    }

    pub(crate) fn is_clean(&self) -> bool {
        self.mismatches.is_empty() && self.problems.is_empty()
    }
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for m in &self.mismatches {
            writeln!(f, "{m}")?;
        }
        for p in &self.problems {
            writeln!(f, "{p}")?;
        }
        Ok(())
    }
}

/// Everything derived, with the DFA in the crate's numbering.
pub(crate) struct Derived {
    /// The DFA in canonical numbering (see [`dfa`]).
    pub(crate) canonical: Dfa,
    /// The numbering read off the crate's constants.
    pub(crate) numbering: Numbering,
    /// The DFA renumbered to the crate's numbering.
    pub(crate) dfa: Dfa,
    pub(crate) nibbles: Nibbles,
}

/// Derives every table and renumbers the DFA like `k`.
pub(crate) fn derive(k: &Constants) -> Derived {
    let canonical = dfa::derive();
    let numbering = dfa::infer_numbering(&canonical, &k.dfa);
    let dfa = canonical.renumber(&numbering);
    Derived {
        canonical,
        numbering,
        dfa,
        nibbles: nibbles::derive(),
    }
}

/// The shift-DFA form of `d`: `row[b]` holds, in bits `6k..6k+6`, six times
/// the next state (as an index) from state `k` on byte `b`.
pub(crate) fn shift_rows(d: &Dfa, bits: u32) -> Vec<u64> {
    (0..256)
        .map(|b| {
            let c = usize::from(d.byte_class[b]);
            (0..d.states).fold(0u64, |row, k| {
                row | ((d.next[k][c] as u64) * u64::from(bits)) << (k as u32 * bits)
            })
        })
        .collect()
}

/// Compares every derived table with the constants.
pub(crate) fn check(k: &Constants) -> Report {
    let d = derive(k);
    let mut r = Report::default();
    let stride = d.dfa.classes as u64;

    // The DFA: byte for byte in the crate's numbering, which must pin accept
    // to 0 and reject to one stride (premultiplied state 1).
    r.compare("utf8_dfa::table::ACCEPT", &[0u8], &[k.dfa.accept]);
    r.compare("utf8_dfa::table::REJECT", &[stride as u8], &[k.dfa.reject]);
    r.compare(
        "utf8_dfa::table::BYTE_CLASS",
        &d.dfa.byte_class,
        &k.dfa.byte_class,
    );
    r.compare(
        "utf8_dfa::table::TRANSITION",
        &d.dfa.transition(),
        &k.dfa.transition,
    );
    // The crate's class numbers must still mask each lead byte's payload.
    for b in 0..=255u8 {
        let class = k.dfa.byte_class[usize::from(b)];
        let lead = d.canonical.next[dfa::ACCEPT]
            [usize::from(d.canonical.byte_class[usize::from(b)])]
            != dfa::REJECT;
        let mask = 0xFFu8.checked_shr(u32::from(class)).unwrap_or(0);
        if lead && Some(mask & b) != spec::lead_payload(b) {
            r.problems.push(format!(
                "utf8_dfa::table::BYTE_CLASS[{b:#04X}] = {class}: 0xFF >> {class} does not mask the payload of lead byte {b:#04X}"
            ));
        }
    }
    if let Some(shift) = &k.shift {
        let derived = shift_rows(&d.dfa, shift.bits);
        r.compare("utf8_dfa::table::SHIFT", &derived, &shift.rows);
        r.compare("utf8_dfa::table::SHIFT_ACCEPT", &[0u64], &[shift.accept]);
        r.compare(
            "utf8_dfa::table::SHIFT_REJECT",
            &[u64::from(shift.bits)],
            &[shift.reject],
        );
    }

    // codec-core's lead table: each byte's sequence length and second-byte
    // range, read off the grammar's alternatives.
    let leads: Vec<u32> = (0..=255u8)
        .map(|b| {
            let alt = spec::GRAMMAR
                .iter()
                .find(|alt| alt[0].0 <= b && b <= alt[0].1);
            match alt {
                Some(alt) => constants::pack_lead(alt.len(), alt.get(1).copied()),
                None => constants::pack_lead(0, None),
            }
        })
        .collect();
    r.compare("codec_core::utf8::lead", &leads, &k.leads);

    // The nibble tables and their error bits.
    let n = &k.nibbles;
    r.compare(
        "utf8_simd::tables::BYTE_1_HIGH",
        &d.nibbles.byte_1_high,
        &n.byte_1_high,
    );
    r.compare(
        "utf8_simd::tables::BYTE_1_LOW",
        &d.nibbles.byte_1_low,
        &n.byte_1_low,
    );
    r.compare(
        "utf8_simd::tables::BYTE_2_HIGH",
        &d.nibbles.byte_2_high,
        &n.byte_2_high,
    );
    for (name, value) in &k.error_bits {
        match spec::ERROR_CLASSES.iter().find(|c| c.name == *name) {
            Some(c) if c.bit == *value => {}
            Some(c) => r.problems.push(format!(
                "utf8_simd::tables::{name} = {value:#04X}, the paper's bit is {:#04X}",
                c.bit
            )),
            None => r
                .problems
                .push(format!("utf8_simd::tables::{name}: not an error class")),
        }
    }
    if let Err(e) = nibbles::prove(n) {
        r.problems
            .push(format!("utf8_simd::tables are not exact: {e}"));
    }
    r
}

/// [`check`], the tables of UTF-8's relatives ([`variants::check`]) and
/// utf8-simd's BMP tables ([`variants::check_bmp`]).
pub(crate) fn check_all(k: &Constants) -> Report {
    let mut r = check(k);
    variants::check(&variants::derive_all(), &k.variants, &mut r);
    variants::check_bmp(&variants::derive_bmp(), &k.bmp, &mut r);
    r
}

/// The command line: `gen-tables [--check]`.
pub(crate) fn run(args: &[String]) -> Result {
    let k = Constants::from_crates();
    match args {
        [] => {
            print!("{}", render(&derive(&k)));
            Ok(())
        }
        [flag] if flag == "--variants" => {
            for d in variants::derive_all() {
                print!("{}", variants::render(&d));
            }
            for d in variants::derive_bmp() {
                print!(
                    "// ---- utf8_simd::tables ({}) ----\n{}",
                    d.variant.name,
                    variants::render_nibbles(&d)
                );
            }
            Ok(())
        }
        [flag] if flag == "--encodings" => encodings::write(),
        [flag] if flag == "--markdown" => {
            print!("{}", markdown(&derive(&k)));
            for v in variants::derive_all() {
                print!("\n{}", variants::markdown(&v));
            }
            if let Some(d) = variants::derive_bmp().first() {
                print!("\n{}", variants::markdown(d));
            }
            Ok(())
        }
        [flag] if flag == "--check" => {
            let d = derive(&k);
            dfa_proofs(&d.canonical)?;
            nibbles::prove(&d.nibbles)?;
            let mut proofs = Vec::new();
            for v in variants::derive_all()
                .into_iter()
                .chain(variants::derive_bmp())
            {
                let states = variants::prove_model(&v)?;
                let pairs = variants::prove_pairing(&v)?;
                proofs.push(format!(
                    "{}: SIMD check = DFA ({states} state pairs), {pairs} surrogate pairs",
                    v.variant.name
                ));
            }
            let report = check_all(&k);
            eprintln!("gen-tables --check: {}", encodings::check()?);
            if report.is_clean() {
                eprintln!(
                    "gen-tables --check: utf8_dfa::table ({} bytes{}), utf8_simd::tables (48 bytes), codec_core::utf8::lead (256 entries), utf8_variants::tables and utf8_simd::tables::{{UTF8_BMP, UTF8_BMP_WITHOUT_NUL}} equal the derivation; {}",
                    256 + d.dfa.transition().len(),
                    if k.shift.is_some() { ", SHIFT" } else { "" },
                    proofs.join("; "),
                );
                Ok(())
            } else {
                Err(format!(
                    "the hand-written tables differ from the derivation (run `cargo xtask gen-tables` for the derived source):\n{report}"
                ))
            }
        }
        _ => Err(
            "usage: cargo xtask gen-tables [--check | --variants | --markdown | --encodings]"
                .into(),
        ),
    }
}

/// The cheap proofs about the derived DFA that `--check` re-runs (the
/// exhaustive ones are unit tests): every scalar's encoding is accepted and
/// nothing shorter or longer is.
fn dfa_proofs(d: &Dfa) -> Result {
    for c in (0u32..0x11_0000).filter_map(char::from_u32) {
        let bytes = c.encode_utf8(&mut [0; 4]).as_bytes().to_vec();
        if d.run(&bytes) != dfa::ACCEPT {
            return Err(format!("derived DFA rejects {c:?}"));
        }
    }
    Ok(())
}

/// The derived tables as Rust source, in the crates' numbering.
pub(crate) fn render(d: &Derived) -> String {
    let mut s = String::new();
    let dfa = &d.dfa;
    let stride = dfa.classes;
    s.push_str(
        "// @generated by `cargo xtask gen-tables` from xtask/src/tables/spec.rs\n\
         // (RFC 3629 and the Keiser–Lemire error classes). `cargo xtask gen-tables\n\
         // --check` compares the hand-written constants with this, byte for byte.\n\
         // Derivation: docs/tables.md.\n\n",
    );
    let _ = writeln!(s, "// ---- utf8_dfa::table ----\n");
    let _ = writeln!(
        s,
        "// Classes (numbered as in utf8_dfa; the canonical number in brackets):"
    );
    for c in 0..stride as u8 {
        let canon = d.numbering.class.iter().position(|&x| x == c).unwrap_or(0);
        let _ = writeln!(s, "//   {c:>2} [{canon:>2}]  {}", dfa.class_ranges(c));
    }
    let _ = writeln!(
        s,
        "pub const ACCEPT: u8 = 0;\npub const REJECT: u8 = {stride};\n"
    );
    s.push_str("#[rustfmt::skip]\npub const BYTE_CLASS: [u8; 256] = [\n");
    s.push_str("//   0  1  2  3  4  5  6  7  8  9  A  B  C  D  E  F\n");
    for (row, chunk) in dfa.byte_class.chunks(16).enumerate() {
        let cells: Vec<String> = chunk.iter().map(|c| format!("{c:>2},")).collect();
        let _ = writeln!(s, "   {} // {:02X}", cells.join(""), row * 16);
    }
    s.push_str("];\n\n#[rustfmt::skip]\npub const TRANSITION: [u8; 108] = [\n");
    let header: Vec<String> = (0..stride).map(|c| format!("{c:>3}")).collect();
    let _ = writeln!(s, "// class:\n// {}", header.join(" "));
    let transition = dfa.transition();
    for (k, row) in transition.chunks(stride).enumerate() {
        let cells: Vec<String> = row.iter().map(|t| format!("{t:>3},")).collect();
        let canon = d
            .numbering
            .state
            .iter()
            .position(|&x| usize::from(x) == k * stride)
            .unwrap_or(0);
        let _ = writeln!(
            s,
            "  {} // {:>3} [{}] after {}",
            cells.join(""),
            k * stride,
            canon,
            witness(&dfa.witness[k])
        );
    }
    s.push_str("];\n\n");
    s.push_str(
        "/// Shift DFA: bits 6k..6k+6 of SHIFT[b] hold 6 × the next state from state 12k.\n",
    );
    s.push_str("#[rustfmt::skip]\npub const SHIFT: [u64; 256] = [\n");
    for (row, chunk) in shift_rows(dfa, 6).chunks(4).enumerate() {
        let cells: Vec<String> = chunk.iter().map(|r| format!("{r:#018X},")).collect();
        let _ = writeln!(s, "    {} // {:02X}", cells.join(" "), row * 4);
    }
    s.push_str("];\n\n// ---- utf8_simd::tables ----\n\n");
    for c in spec::ERROR_CLASSES {
        let _ = writeln!(s, "/// {}: {}.", c.patterns.join(", "), c.meaning);
        let _ = writeln!(
            s,
            "pub const {}: u8 = 1 << {};",
            c.name,
            c.bit.trailing_zeros()
        );
    }
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
        for (v, &entry) in table.iter().enumerate() {
            let names = nibbles::compatible_classes(pos, v as u8);
            debug_assert_eq!(names.iter().fold(0, |a, c| a | c.bit), entry);
            let names: Vec<&str> = names.iter().map(|c| c.name).collect();
            let names = if names.is_empty() {
                "0".into()
            } else {
                names.join(" | ")
            };
            let _ = writeln!(s, "    {names}, // {v:X}");
        }
        s.push_str("];\n");
    }
    s
}

/// The derived tables as the Markdown that `docs/tables.md` quotes (a test
/// checks that it still does).
pub(crate) fn markdown(d: &Derived) -> String {
    let mut s = String::new();
    let (dfa, canon) = (&d.dfa, &d.canonical);
    let min = dfa::minimise(&dfa::grammar_automaton());
    s.push_str("| class | canonical | bytes | numbers for which `0xFF >> n` masks the payload |\n");
    s.push_str("|---:|---:|---|---|\n");
    for c in 0..dfa.classes as u8 {
        let k = d.numbering.class.iter().position(|&x| x == c).unwrap_or(0);
        let bytes: Vec<u8> = (0..=255u8)
            .filter(|&b| dfa.byte_class[usize::from(b)] == c)
            .collect();
        let allowed = dfa::allowed_numbers(&min, &bytes, dfa.classes);
        let allowed = if allowed.len() == dfa.classes {
            "any (no lead byte)".to_string()
        } else {
            allowed
                .iter()
                .map(u8::to_string)
                .collect::<Vec<_>>()
                .join(", ")
        };
        let _ = writeln!(s, "| {c} | {k} | `{}` | {allowed} |", dfa.class_ranges(c));
    }
    s.push_str("\n| state | canonical | reached by | then accepts |\n|---:|---:|---|---|\n");
    for k in 0..dfa.states {
        let c = d
            .numbering
            .state
            .iter()
            .position(|&x| usize::from(x) == k * dfa.classes)
            .unwrap_or(0);
        let next: Vec<String> = (0..dfa.classes as u8)
            .filter(|&cl| dfa.next[k][usize::from(cl)] != dfa::REJECT)
            .map(|cl| {
                format!(
                    "`{}` → {}",
                    dfa.class_ranges(cl),
                    dfa.next[k][usize::from(cl)] * dfa.classes
                )
            })
            .collect();
        let next = if next.is_empty() {
            "nothing".to_string()
        } else {
            next.join(", ")
        };
        let _ = writeln!(
            s,
            "| {} | {} | `{}` | {next} |",
            k * dfa.classes,
            c * canon.classes,
            witness(&dfa.witness[k])
        );
    }
    s.push_str("\n| table | nibble | classes compatible with it | entry |\n|---|---:|---|---:|\n");
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
        for (v, &entry) in table.iter().enumerate() {
            let names: Vec<&str> = nibbles::compatible_classes(pos, v as u8)
                .iter()
                .map(|c| c.name)
                .collect();
            let _ = writeln!(
                s,
                "| {name} | {v:X} | {} | `{entry:#04X}` |",
                names.join(", ")
            );
        }
    }
    s
}

/// `C2 80`, or `(start)` for the empty input.
fn witness(bytes: &[u8]) -> String {
    if bytes.is_empty() {
        return "(start)".into();
    }
    bytes
        .iter()
        .map(|b| format!("{b:02X}"))
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The check run by `cargo xtask ci`, as a test.
    #[test]
    fn crate_constants_equal_the_derivation() {
        let report = check_all(&Constants::from_crates());
        assert!(report.is_clean(), "{report}");
    }

    /// The check can fail: perturbing any one entry of an in-memory copy
    /// makes it name that table, that index and both values, and nothing
    /// else.
    #[test]
    fn a_perturbed_entry_is_named_exactly() {
        let good = Constants::from_crates();
        let mut cases = 0;
        for table in [
            "BYTE_CLASS",
            "TRANSITION",
            "BYTE_1_HIGH",
            "BYTE_1_LOW",
            "BYTE_2_HIGH",
        ] {
            let len = match table {
                "BYTE_CLASS" => 256,
                "TRANSITION" => good.dfa.transition.len(),
                _ => 16,
            };
            for index in 0..len {
                let mut k = good.clone();
                let entry = match table {
                    "BYTE_CLASS" => &mut k.dfa.byte_class[index],
                    "TRANSITION" => &mut k.dfa.transition[index],
                    "BYTE_1_HIGH" => &mut k.nibbles.byte_1_high[index],
                    "BYTE_1_LOW" => &mut k.nibbles.byte_1_low[index],
                    _ => &mut k.nibbles.byte_2_high[index],
                };
                let before = *entry;
                // A plausible wrong value: another valid class, state or bit.
                let after = match table {
                    "BYTE_CLASS" => (before + 1) % 12,
                    "TRANSITION" => (before + 12) % 108,
                    _ => before ^ 0x10,
                };
                *entry = after;
                let report = check(&k);
                let want = Mismatch {
                    table: match table {
                        "BYTE_CLASS" => "utf8_dfa::table::BYTE_CLASS",
                        "TRANSITION" => "utf8_dfa::table::TRANSITION",
                        "BYTE_1_HIGH" => "utf8_simd::tables::BYTE_1_HIGH",
                        "BYTE_1_LOW" => "utf8_simd::tables::BYTE_1_LOW",
                        _ => "utf8_simd::tables::BYTE_2_HIGH",
                    },
                    index,
                    derived: before.into(),
                    actual: after.into(),
                };
                assert!(
                    !report.is_clean(),
                    "{table}[{index}] perturbed, check passed"
                );
                assert_eq!(
                    report.mismatches,
                    vec![want.clone()],
                    "{table}[{index}]: {report}"
                );
                assert!(report.to_string().contains(&want.to_string()));
                cases += 1;
            }
        }
        assert_eq!(cases, 256 + 108 + 48);
    }

    /// Every wrong value of every DFA entry that stays in range (another
    /// class, another state) is named exactly, not only the one above.
    #[test]
    fn every_in_range_wrong_value_is_named_exactly() {
        let good = Constants::from_crates();
        let mut failures = Vec::new();
        for index in 0..256 + good.dfa.transition.len() {
            let values: Vec<u8> = if index < 256 {
                (0..12).collect()
            } else {
                (0..9).map(|s| s * 12).collect()
            };
            for after in values {
                let mut k = good.clone();
                let (table, entry) = if index < 256 {
                    ("utf8_dfa::table::BYTE_CLASS", &mut k.dfa.byte_class[index])
                } else {
                    (
                        "utf8_dfa::table::TRANSITION",
                        &mut k.dfa.transition[index - 256],
                    )
                };
                let before = *entry;
                if before == after {
                    continue;
                }
                *entry = after;
                let i = if index < 256 { index } else { index - 256 };
                let want = Mismatch {
                    table,
                    index: i,
                    derived: before.into(),
                    actual: after.into(),
                };
                let report = check(&k);
                if report.mismatches != vec![want.clone()] {
                    failures.push(format!("{want}: got\n{report}"));
                }
            }
        }
        assert!(
            failures.is_empty(),
            "{} cases:\n{}",
            failures.len(),
            failures.join("\n")
        );
    }

    /// The same for every entry of the tables of UTF-8's relatives: each
    /// perturbed entry is named, alone, with both values.
    #[test]
    fn a_perturbed_variant_entry_is_named_exactly() {
        let derived = variants::derive_all();
        let good = Constants::from_crates().variants;
        let mut cases = 0;
        for (i, d) in derived.iter().enumerate() {
            let one = std::slice::from_ref(d);
            let stride = good[i].classes as u8;
            let states = good[i].states as u8;
            for (table, len) in [
                ("BYTE_CLASS", 256),
                ("TRANSITION", good[i].transition.len()),
                ("BYTE_1_HIGH", 16),
                ("BYTE_1_LOW", 16),
                ("BYTE_2_HIGH", 16),
            ] {
                for index in 0..len {
                    let mut k = good[i].clone();
                    let entry = match table {
                        "BYTE_CLASS" => &mut k.byte_class[index],
                        "TRANSITION" => &mut k.transition[index],
                        "BYTE_1_HIGH" => &mut k.nibbles.byte_1_high[index],
                        "BYTE_1_LOW" => &mut k.nibbles.byte_1_low[index],
                        _ => &mut k.nibbles.byte_2_high[index],
                    };
                    let before = *entry;
                    let after = match table {
                        "BYTE_CLASS" => (before + 1) % stride,
                        "TRANSITION" => (before + stride) % (stride * states),
                        _ => before ^ 0x10,
                    };
                    *entry = after;
                    let mut report = Report::default();
                    variants::check(one, std::slice::from_ref(&k), &mut report);
                    let want = Mismatch {
                        table: Box::leak(
                            format!("utf8_variants::tables::{}::{table}", k.module)
                                .into_boxed_str(),
                        ),
                        index,
                        derived: before.into(),
                        actual: after.into(),
                    };
                    assert_eq!(report.mismatches, vec![want], "{}: {report}", k.module);
                    cases += 1;
                }
            }
        }
        assert_eq!(cases, 3 * (256 + 48) + 81 + 110 + 156);
    }

    /// The same for utf8-simd's BMP tables: a changed entry is named
    /// exactly, and a wrong error bit is reported.
    #[test]
    fn a_perturbed_bmp_entry_is_named_exactly() {
        let derived = variants::derive_bmp();
        let good = Constants::from_crates().bmp;
        let mut clean = Report::default();
        variants::check_bmp(&derived, &good, &mut clean);
        assert!(clean.is_clean(), "{clean}");
        let mut cases = 0;
        for set in 0..good.len() {
            for table in ["BYTE_1_HIGH", "BYTE_1_LOW", "BYTE_2_HIGH"] {
                for index in 0..16 {
                    let mut k = good.clone();
                    let n = &mut k[set].nibbles;
                    let entry = match table {
                        "BYTE_1_HIGH" => &mut n.byte_1_high[index],
                        "BYTE_1_LOW" => &mut n.byte_1_low[index],
                        _ => &mut n.byte_2_high[index],
                    };
                    let before = *entry;
                    *entry ^= 0x10;
                    let after = *entry;
                    let mut report = Report::default();
                    variants::check_bmp(&derived, &k, &mut report);
                    let want = Mismatch {
                        table: Box::leak(
                            format!("utf8_simd::tables::{}.{table}", good[set].name)
                                .into_boxed_str(),
                        ),
                        index,
                        derived: before.into(),
                        actual: after.into(),
                    };
                    assert_eq!(report.mismatches, vec![want], "{report}");
                    cases += 1;
                }
            }
            let mut k = good.clone();
            k[set].error_bits[0].1 ^= 1;
            let mut report = Report::default();
            variants::check_bmp(&derived, &k, &mut report);
            assert!(!report.is_clean());
        }
        assert_eq!(cases, 2 * 48);
    }

    #[test]
    fn a_perturbed_lead_entry_is_named() {
        let good = Constants::from_crates();
        for index in [0x41, 0xC2, 0xE0, 0xED, 0xF4, 0xF5] {
            let mut k = good.clone();
            let before = k.leads[index];
            k.leads[index] ^= 1 << 8;
            let report = check(&k);
            assert_eq!(report.mismatches.len(), 1, "{report}");
            let m = &report.mismatches[0];
            assert_eq!(
                (m.table, m.index, m.derived),
                ("codec_core::utf8::lead", index, u64::from(before))
            );
        }
    }

    #[test]
    fn a_perturbed_shift_row_is_named() {
        let mut k = Constants::from_crates();
        let Some(shift) = k.shift.as_mut() else {
            return;
        };
        let before = shift.rows[0xE0];
        shift.rows[0xE0] ^= 6 << 12;
        let report = check(&k);
        let m = &report.mismatches;
        assert_eq!(m.len(), 1, "{report}");
        assert_eq!(
            (m[0].table, m[0].index, m[0].derived),
            ("utf8_dfa::table::SHIFT", 0xE0, before)
        );
    }

    /// `docs/tables.md` quotes the derived tables; regenerate them with
    /// `cargo xtask gen-tables --markdown` if this fails.
    #[test]
    fn docs_quote_the_derived_tables() {
        let doc = std::fs::read_to_string(crate::util::root().join("docs/tables.md")).unwrap();
        let mut md = markdown(&derive(&Constants::from_crates()));
        for v in variants::derive_all() {
            md.push_str(&variants::markdown(&v));
        }
        if let Some(d) = variants::derive_bmp().first() {
            md.push_str(&variants::markdown(d));
        }
        for line in md.lines().filter(|l| l.starts_with("| ")) {
            assert!(doc.contains(line), "docs/tables.md lacks the line\n{line}");
        }
    }

    #[test]
    fn rendered_source_names_its_command() {
        let k = Constants::from_crates();
        let text = render(&derive(&k));
        assert!(text.starts_with("// @generated by `cargo xtask gen-tables`"));
        assert!(text.contains("pub const BYTE_1_HIGH: [u8; 16]"));
    }
}
