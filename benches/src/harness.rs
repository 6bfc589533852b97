//! The harness of the `*_min` benches: arguments, interleaved rounds timed
//! by their minimum, markdown tables and the speed-up chart.
//!
//! On a machine shared with other jobs, preemption inflates criterion's
//! means and moves them between runs; the minimum of short rounds, with
//! every implementation timed in turn within each round, is the figure
//! least disturbed by it, and ratios are taken within one run. A bench
//! only lists its rows: (group, input, implementation, closure).
//!
//! ```
//! use benches::harness::Args;
//!
//! let args = Args::parse_from(["3"].map(String::from), 100);
//! let data: Vec<u64> = (0..1000).collect();
//! let mut group = args.group("sum", "ns per value", data.len());
//! group.row("0..1000", &mut [
//!     ("iter", &mut || { std::hint::black_box(data.iter().sum::<u64>()); }),
//!     ("loop", &mut || {
//!         let mut s = 0u64;
//!         for v in &data { s = s.wrapping_add(*v); }
//!         std::hint::black_box(s);
//!     }),
//! ]);
//! let table = group.finish();
//! assert_eq!(table.columns, ["iter", "loop"]);
//! assert!(table.rows[0].1.iter().all(|t| *t > 0.0));
//! ```

use std::fmt::Write as _;
use std::time::Instant;

pub use bench_chart::{Bar, Chart, Section, svg};

/// The rounds of `--quick` (unless a number is given too): enough to see
/// that every row runs, not to measure.
pub const QUICK_ROUNDS: usize = 3;

/// The command line of a `*_min` bench, shared by all of them:
///
/// - a bare number: the rounds per row (the bench's default otherwise;
///   `--quick`: [`QUICK_ROUNDS`]);
/// - `--group G`, `--input LABEL`, `--impl NAME` (or `imp:NAME`): keep only
///   what they name exactly; each may be repeated;
/// - a bare word: keeps the groups whose name contains it, if it is part of
///   a group's name (see [`Args::with_groups`]), else the inputs whose
///   label contains it;
/// - `--svg PATH` (or `svg:PATH`): where to write the chart;
/// - `KEY:VALUE`: an option of the bench ([`Args::option`]), such as
///   `batch:32`;
/// - `--list`: nothing to do (see [`Args::parse`]).
///
/// What a filter leaves out is not run, and its column, row or table is not
/// printed (a cell that a row does not have prints as `-`). `cargo bench`
/// adds `--bench`, ignored.
#[derive(Clone, Debug, Default)]
pub struct Args {
    /// Rounds per row.
    pub rounds: usize,
    /// Whether `--quick` was given.
    pub quick: bool,
    /// Whether criterion's `--list` was given.
    pub list: bool,
    /// Where to write the chart, if anywhere.
    pub svg: Option<String>,
    groups: Vec<String>,
    impls: Vec<String>,
    inputs: Vec<String>,
    group_words: Vec<String>,
    input_words: Vec<String>,
    options: Vec<(String, String)>,
}

impl Args {
    /// The process's arguments; with criterion's `--list` (`cargo bench
    /// -p benches -- --list`, which `cargo xtask bench` runs to find the
    /// criterion benchmarks), the process ends at once: a `*_min` bench has
    /// none to list, and would otherwise run in full.
    pub fn parse(default_rounds: usize) -> Args {
        let args = Args::parse_from(std::env::args().skip(1), default_rounds);
        if args.list {
            std::process::exit(0);
        }
        args
    }

    /// `args` as the command line.
    pub fn parse_from(args: impl IntoIterator<Item = String>, default_rounds: usize) -> Args {
        let mut a = Args::default();
        let mut rounds = None;
        let mut it = args.into_iter();
        while let Some(arg) = it.next() {
            let list = match arg.as_str() {
                "--bench" => continue,
                "--quick" => {
                    a.quick = true;
                    continue;
                }
                "--list" => {
                    a.list = true;
                    continue;
                }
                "--group" => &mut a.groups,
                "--impl" => &mut a.impls,
                "--input" => &mut a.inputs,
                "--svg" => {
                    a.svg = it.next();
                    continue;
                }
                _ => {
                    if let Ok(n) = arg.parse::<usize>() {
                        rounds = rounds.or(Some(n));
                    } else if let Some((key, value)) = arg.split_once(':') {
                        match key {
                            "svg" => a.svg = Some(value.to_string()),
                            "imp" => a.impls.push(value.to_string()),
                            _ => a.options.push((key.to_string(), value.to_string())),
                        }
                    } else if !arg.starts_with('-') {
                        a.input_words.push(arg);
                    }
                    continue;
                }
            };
            list.extend(it.next());
        }
        a.rounds = rounds.unwrap_or(if a.quick {
            QUICK_ROUNDS
        } else {
            default_rounds
        });
        a
    }

    /// The same arguments, with the bare words that are part of one of
    /// `groups` filtering groups rather than inputs.
    pub fn with_groups(mut self, groups: &[&str]) -> Args {
        let (g, i) = self
            .input_words
            .into_iter()
            .partition(|w| groups.iter().any(|g| g.contains(w.as_str())));
        (self.group_words, self.input_words) = (g, i);
        self
    }

    /// The value of the last `key:VALUE`.
    pub fn option(&self, key: &str) -> Option<&str> {
        self.options
            .iter()
            .rev()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }

    /// The value of the last `key:N` as a number.
    pub fn number(&self, key: &str) -> Option<usize> {
        self.option(key)?.parse().ok()
    }

    fn keeps(exact: &[String], words: &[String], name: &str) -> bool {
        (exact.is_empty() || exact.iter().any(|e| e == name))
            && (words.is_empty() || words.iter().any(|w| name.contains(w.as_str())))
    }

    /// Whether `group` is selected.
    pub fn keeps_group(&self, group: &str) -> bool {
        Args::keeps(&self.groups, &self.group_words, group)
    }

    /// Whether the input `label` is selected (in any group).
    pub fn keeps_input(&self, label: &str) -> bool {
        Args::keeps(&self.inputs, &self.input_words, label)
    }

    /// Whether the implementation `name` is selected.
    pub fn keeps_impl(&self, name: &str) -> bool {
        Args::keeps(&self.impls, &[], name)
    }

    /// Whether the cell (`group`, `input`, `implementation`) runs.
    pub fn keeps_cell(&self, group: &str, input: &str, implementation: &str) -> bool {
        self.keeps_group(group) && self.keeps_input(input) && self.keeps_impl(implementation)
    }

    /// A group whose calls each handle `units` units, measured under these
    /// arguments; its figures are ns per unit, `unit` says of what.
    pub fn group(&self, name: &str, unit: &str, units: usize) -> Group<'_> {
        Group {
            args: self,
            table: Table::new(name, &format!("{name} ({unit}, min of rounds)"), &[]),
            units,
            reps: 1,
            rotate: false,
        }
    }
}

/// `reps` calls of implementation `i`: a function of its own, so that
/// `valgrind --tool=callgrind` attributes each sample's instructions to it
/// (its inclusive cost divided by rounds × reps is the cost of one call).
#[inline(never)]
pub fn timed(call: &mut impl FnMut(usize), i: usize, reps: usize) {
    for _ in 0..reps {
        call(i);
    }
}

/// The fastest of `rounds` rounds of each implementation whose flag in
/// `run` is set, in ns per call (NaN for those not run). Within a round
/// each runs in turn, `reps` calls timed together; with `rotate`, the turn
/// starts one later each round.
pub fn min_rounds(
    rounds: usize,
    reps: usize,
    rotate: bool,
    run: &[bool],
    mut call: impl FnMut(usize),
) -> Vec<f64> {
    let n = run.len();
    let reps = reps.max(1);
    let mut best: Vec<f64> = run
        .iter()
        .map(|&r| if r { f64::MAX } else { f64::NAN })
        .collect();
    for round in 0..rounds {
        for k in 0..n {
            let i = if rotate { (k + round) % n } else { k };
            if !run[i] {
                continue;
            }
            let t = Instant::now();
            timed(&mut call, i, reps);
            best[i] = best[i].min(t.elapsed().as_nanos() as f64 / reps as f64);
        }
    }
    best
}

/// A column computed from a row's figures, printed after them.
#[derive(Clone, Debug)]
pub struct Extra {
    /// Its header.
    pub header: String,
    /// Its value, `-` where `None`.
    pub value: fn(&Cells<'_>) -> Option<f64>,
    /// Written after the value (`×`).
    pub suffix: &'static str,
}

/// One row's figures by column name, for an [`Extra`].
pub struct Cells<'a> {
    /// The table's columns.
    pub columns: &'a [String],
    /// The row, one figure per column (NaN where a cell did not run).
    pub figures: &'a [f64],
}

impl Cells<'_> {
    /// The figure of `column`, if it ran.
    pub fn get(&self, column: &str) -> Option<f64> {
        let c = self.columns.iter().position(|n| n == column)?;
        self.figures.get(c).copied().filter(|t| !t.is_nan())
    }

    /// Every column that ran, with its figure.
    pub fn iter(&self) -> impl Iterator<Item = (&str, f64)> {
        self.columns
            .iter()
            .zip(self.figures)
            .filter(|(_, f)| !f.is_nan())
            .map(|(c, f)| (c.as_str(), *f))
    }
}

/// One measured group: columns are implementations, rows inputs.
#[derive(Clone, Debug)]
pub struct Table {
    /// The group's name, as `--group` selects it.
    pub group: String,
    /// The line printed above the table (none if empty).
    pub title: String,
    /// The header of the label column; a label of several columns
    /// separates them with ` | ` (`input | direction`).
    pub label: String,
    /// The implementations, in the order they were given.
    pub columns: Vec<String>,
    /// Written after each column's name in the header (` GB/s`).
    pub column_suffix: String,
    /// `(input, figure per column)`; NaN where a cell did not run.
    pub rows: Vec<(String, Vec<f64>)>,
    /// Decimals of the figures (those of the extra columns: 2).
    pub decimals: usize,
    /// Whether figures are units per ns (GB/s of bytes: higher is faster)
    /// rather than ns per unit.
    pub rate: bool,
    /// Whether each figure is followed by its inverse in parentheses, to
    /// two decimals (billions of values per second after ns per value).
    pub inverse: bool,
    /// Columns computed from the others.
    pub extras: Vec<Extra>,
}

impl Table {
    /// A table of `group` with `columns`, to be filled with
    /// [`push`](Table::push).
    pub fn new(group: &str, title: &str, columns: &[&str]) -> Table {
        Table {
            group: group.to_string(),
            title: title.to_string(),
            label: "input".to_string(),
            columns: columns.iter().map(|c| (*c).to_string()).collect(),
            column_suffix: String::new(),
            rows: Vec::new(),
            decimals: 2,
            rate: false,
            inverse: false,
            extras: Vec::new(),
        }
    }

    /// Adds a row of figures, one per column.
    pub fn push(&mut self, input: &str, figures: Vec<f64>) {
        self.rows.push((input.to_string(), figures));
    }

    /// Adds a computed column.
    pub fn extra(
        &mut self,
        header: &str,
        suffix: &'static str,
        value: fn(&Cells<'_>) -> Option<f64>,
    ) {
        self.extras.push(Extra {
            header: header.to_string(),
            value,
            suffix,
        });
    }

    /// The table as markdown, after a blank line, its title and a blank
    /// line; nothing for a table without rows.
    pub fn markdown(&self) -> String {
        if self.rows.is_empty() {
            return String::new();
        }
        let mut s = String::new();
        if !self.title.is_empty() {
            let _ = write!(s, "\n{}\n\n", self.title);
        }
        let headers: Vec<String> = self
            .columns
            .iter()
            .map(|c| format!("{c}{}", self.column_suffix))
            .chain(self.extras.iter().map(|e| e.header.clone()))
            .collect();
        let labels = self.label.split(" | ").count();
        let _ = writeln!(s, "| {} | {} |", self.label, headers.join(" | "));
        let _ = writeln!(
            s,
            "|{}{}",
            "---|".repeat(labels),
            "---:|".repeat(headers.len())
        );
        for (label, figures) in &self.rows {
            let cells = Cells {
                columns: &self.columns,
                figures,
            };
            let text: Vec<String> = figures
                .iter()
                .map(|&f| {
                    let f = Some(f).filter(|f| !f.is_nan());
                    match f {
                        Some(v) if self.inverse => {
                            format!("{v:.d$} ({:.2})", 1.0 / v, d = self.decimals)
                        }
                        _ => fmt(f, self.decimals, ""),
                    }
                })
                .chain(
                    self.extras
                        .iter()
                        .map(|e| fmt((e.value)(&cells), 2, e.suffix)),
                )
                .collect();
            let _ = writeln!(s, "| {label} | {} |", text.join(" | "));
        }
        s
    }

    /// The figure of `column` on `input`, if it ran.
    pub fn get(&self, input: &str, column: &str) -> Option<f64> {
        let (_, figures) = self.rows.iter().find(|(i, _)| i == input)?;
        Cells {
            columns: &self.columns,
            figures,
        }
        .get(column)
    }

    /// The chart's section of this table: for each input, each column that
    /// `keep` accepts (under the name it returns) against `baseline`,
    /// as how many times faster it is.
    pub fn speedups(
        &self,
        baseline: &str,
        title: &str,
        keep: impl Fn(usize, &str) -> Option<String>,
    ) -> Section {
        let mut bars = Vec::new();
        for (input, _) in &self.rows {
            let Some(base) = self.get(input, baseline) else {
                continue;
            };
            for (i, col) in self.columns.iter().enumerate() {
                let (Some(t), Some(name)) = (self.get(input, col), keep(i, col)) else {
                    continue;
                };
                if col == baseline {
                    continue;
                }
                let ratio = if self.rate { t / base } else { base / t };
                bars.push(Bar::new(input, &name, ratio));
            }
        }
        Section {
            title: title.to_string(),
            bars,
        }
    }
}

/// `value` to `decimals` decimals and `suffix`, or `-`.
fn fmt(value: Option<f64>, decimals: usize, suffix: &str) -> String {
    match value {
        Some(v) => format!("{v:.decimals$}{suffix}"),
        None => "-".to_string(),
    }
}

/// A group being measured, row by row.
pub struct Group<'a> {
    args: &'a Args,
    table: Table,
    units: usize,
    reps: usize,
    rotate: bool,
}

impl Group<'_> {
    /// Sets the units per call of the rows that follow.
    pub fn units(&mut self, units: usize) -> &mut Self {
        self.units = units;
        self
    }

    /// Times `reps` calls together in each sample (for calls of a few ns,
    /// of the order of the clock's own cost).
    pub fn reps(&mut self, reps: usize) -> &mut Self {
        self.reps = reps;
        self
    }

    /// Starts each round's turn one implementation later than the last.
    pub fn rotate(&mut self) -> &mut Self {
        self.rotate = true;
        self
    }

    /// The figures as units per ns (GB/s of bytes) instead of ns per unit.
    pub fn per_second(&mut self) -> &mut Self {
        self.table.rate = true;
        self
    }

    /// The table, to set its title, label, decimals or extra columns.
    pub fn table(&mut self) -> &mut Table {
        &mut self.table
    }

    /// Whether any cell of `input` would run.
    pub fn keeps_input(&self, input: &str) -> bool {
        self.args.keeps_group(&self.table.group) && self.args.keeps_input(input)
    }

    /// Measures one input: every `(implementation, closure)` in turn, each
    /// round. Implementations new to the group become columns; a row that
    /// lacks a column shows `-` there.
    pub fn row(&mut self, input: &str, fns: &mut [(&str, &mut dyn FnMut())]) {
        let names: Vec<&str> = fns.iter().map(|(n, _)| *n).collect();
        self.row_by(input, &names, |i| fns[i].1());
    }

    /// [`row`](Group::row) with the implementations as one closure,
    /// called with the index of the one to run.
    pub fn row_by(&mut self, input: &str, names: &[&str], call: impl FnMut(usize)) {
        let sized: Vec<(&str, usize)> = names.iter().map(|n| (*n, self.units)).collect();
        self.row_sized_by(input, &sized, call);
    }

    /// [`row_by`](Group::row_by) where each implementation handles its own
    /// number of units per call (its own input's length).
    pub fn row_sized_by(&mut self, input: &str, names: &[(&str, usize)], call: impl FnMut(usize)) {
        let run: Vec<bool> = names
            .iter()
            .map(|(n, _)| self.args.keeps_cell(&self.table.group, input, n))
            .collect();
        if !run.contains(&true) && !self.keeps_input(input) {
            return;
        }
        for (name, _) in names {
            if !self.table.columns.iter().any(|c| c == name) {
                self.table.columns.push((*name).to_string());
                for (_, row) in &mut self.table.rows {
                    row.push(f64::NAN);
                }
            }
        }
        let times = min_rounds(self.args.rounds, self.reps, self.rotate, &run, call);
        let mut row = vec![f64::NAN; self.table.columns.len()];
        for ((name, units), ns) in names.iter().zip(times) {
            if let Some(c) = self.table.columns.iter().position(|c| c == name) {
                let units = (*units).max(1) as f64;
                row[c] = if self.table.rate {
                    units / ns
                } else {
                    ns / units
                };
            }
        }
        self.table.rows.push((input.to_string(), row));
    }

    /// Ends the group: its table, without the implementations that
    /// `--impl` leaves out, and without rows if filters left every input
    /// out (it then prints nothing).
    pub fn finish(mut self) -> Table {
        let t = &mut self.table;
        let keep: Vec<bool> = t.columns.iter().map(|c| self.args.keeps_impl(c)).collect();
        let mut k = keep.iter();
        t.columns.retain(|_| *k.next().unwrap_or(&true));
        for (_, row) in &mut t.rows {
            let mut k = keep.iter();
            row.retain(|_| *k.next().unwrap_or(&true));
        }
        self.table
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(a: &[&str]) -> Args {
        Args::parse_from(a.iter().map(|s| s.to_string()), 300)
    }

    #[test]
    fn arguments_of_every_bench() {
        let a = args(&["--bench", "7", "--group", "decode", "--impl", "ours"]);
        assert_eq!(a.rounds, 7);
        assert!(a.keeps_cell("decode", "any", "ours"));
        assert!(!a.keeps_cell("decode", "any", "peer"));
        assert!(!a.keeps_cell("encode", "any", "ours"));
        // A flag's value is not a bare word or a number.
        let a = args(&["--input", "12", "--svg", "x.svg", "--quick"]);
        assert_eq!((a.rounds, a.svg.as_deref()), (QUICK_ROUNDS, Some("x.svg")));
        assert!(a.keeps_input("12") && !a.keeps_input("123"));
        let a = args(&["--quick", "9", "batch:32", "imp:ours-avx2", "svg:c.svg"]);
        assert_eq!((a.rounds, a.number("batch")), (9, Some(32)));
        assert_eq!(a.svg.as_deref(), Some("c.svg"));
        assert!(a.keeps_impl("ours-avx2") && !a.keeps_impl("ours"));
        assert_eq!(args(&[]).rounds, 300);
        assert!(args(&["--list"]).list && !args(&["--bench"]).list);
    }

    #[test]
    fn bare_words_filter_groups_or_inputs_by_substring() {
        let ops = ["utf8-to-utf16", "utf16-to-utf8", "count-utf8"];
        let a = args(&["utf8-to", "Chinese", "64KiB"]).with_groups(&ops);
        assert!(a.keeps_group("utf8-to-utf16") && !a.keeps_group("count-utf8"));
        assert!(a.keeps_input("Chinese-1KiB") && a.keeps_input("Latin-64KiB"));
        assert!(!a.keeps_input("Latin-1KiB"));
        // Without `with_groups`, every word filters inputs.
        let a = args(&["Emoji"]);
        assert!(a.keeps_group("anything") && !a.keeps_input("Latin"));
    }

    #[test]
    fn rows_align_columns_and_skip_filtered_cells() {
        let a = args(&["2", "--impl", "a", "--impl", "c"]);
        let mut g = a.group("g", "ns", 1);
        let mut ran_b = false;
        g.row("x", &mut [("a", &mut || {}), ("b", &mut || ran_b = true)]);
        g.row("y", &mut [("c", &mut || {})]);
        let t = g.finish();
        assert!(!ran_b);
        assert_eq!(t.columns, ["a", "c"]);
        assert!(t.get("x", "a").is_some());
        assert!(t.get("x", "c").is_none());
        assert!(t.get("y", "a").is_none());
        assert!(t.get("y", "c").is_some());
        assert_eq!(t.rows[1].1.len(), 2);
        let md = t.markdown();
        assert!(
            md.starts_with("\ng (ns, min of rounds)\n\n| input | a | c |\n"),
            "{md}"
        );
        assert!(md.contains("| y | - | "), "{md}");
    }

    #[test]
    fn filtered_groups_and_inputs_print_nothing() {
        let a = args(&["1", "--group", "kept", "--input", "x"]);
        let mut g = a.group("left-out", "ns", 1);
        let mut ran = false;
        g.row("x", &mut [("a", &mut || ran = true)]);
        let t = g.finish();
        assert!(!ran && t.rows.is_empty() && t.markdown().is_empty());
        let mut g = a.group("kept", "ns", 1);
        g.row("y", &mut [("a", &mut || {})]);
        g.row("x", &mut [("a", &mut || {})]);
        let t = g.finish();
        assert_eq!(t.rows.len(), 1);
        assert_eq!(t.rows[0].0, "x");
    }

    #[test]
    fn rates_extras_and_speedups() {
        let a = args(&["1"]);
        let mut g = a.group("g", "GB/s", 1);
        g.per_second().reps(3).rotate();
        let mut calls = [0; 2];
        // The same work a call, but "ours" handles 10^9 times the units:
        // its rate is higher whatever the timer and the machine's load do
        // (a difference of work alone is at the mercy of the load).
        g.row_sized_by("in", &[("ours", 1_000_000_000), ("peer", 1)], |i| {
            calls[i] += 1;
            std::hint::black_box((0..1_000u64).fold(0u64, |s, k| s ^ k));
        });
        assert_eq!(calls, [3, 3]);
        let t = g.table();
        t.label = "input | kind".into();
        t.column_suffix = " GB/s".into();
        t.extra("ours / peer", "×", |c| {
            Some(c.get("ours")? / c.get("peer")?)
        });
        t.extra("none", "", |c| c.get("absent"));
        let t = g.finish();
        let (ours, peer) = (t.get("in", "ours").unwrap(), t.get("in", "peer").unwrap());
        assert!(ours > peer, "a rate grows with the units a call handles");
        let mut inverse = t.clone();
        inverse.inverse = true;
        assert!(
            inverse
                .markdown()
                .contains(&format!("| {ours:.2} ({:.2}) |", 1.0 / ours))
        );
        let md = t.markdown();
        assert!(md.contains("| input | kind | ours GB/s | peer GB/s | ours / peer | none |\n|---|---|---:|---:|---:|---:|\n"), "{md}");
        assert!(md.contains(&format!("{:.2}× | - |", ours / peer)), "{md}");
        let s = t.speedups("peer", "g", |_, c| Some(c.to_uppercase()));
        assert_eq!(s.bars, [Bar::new("in", "OURS", ours / peer)]);
    }
}
