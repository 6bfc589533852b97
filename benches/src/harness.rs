//! The harness of the `*_min` benches: arguments, interleaved rounds timed
//! by their minimum, markdown tables and a speed-up chart.
//!
//! On a machine shared with other jobs, preemption inflates criterion's
//! means and moves them between runs; the minimum of short rounds, with
//! every implementation timed in turn within each round, is the figure
//! least disturbed by it, and ratios are taken within one run. A bench
//! only lists its rows: (group, input, implementation, closure).
//!
//! ```
//! use benches::harness::{Args, Bench};
//!
//! let args = Args::parse_from(["3"].map(String::from), 100);
//! let mut bench = Bench::new(&args);
//! let data: Vec<u64> = (0..1000).collect();
//! let mut group = bench.group("sum", "ns per value", data.len());
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

/// The command line of a `*_min` bench: `[ROUNDS] [--svg PATH] [--group G]
/// [--impl NAME] [--input LABEL]`, each filter repeatable. What a filter
/// leaves out is not run and prints as `-`.
#[derive(Clone, Debug, Default)]
pub struct Args {
    /// Rounds per row (the first bare number; the bench's default).
    pub rounds: usize,
    /// Where to write the chart, if anywhere.
    pub svg: Option<String>,
    groups: Vec<String>,
    impls: Vec<String>,
    inputs: Vec<String>,
}

impl Args {
    /// The process's arguments (`cargo bench` adds `--bench`, ignored).
    pub fn parse(default_rounds: usize) -> Args {
        Args::parse_from(std::env::args().skip(1), default_rounds)
    }

    /// `args` as the command line.
    pub fn parse_from(args: impl IntoIterator<Item = String>, default_rounds: usize) -> Args {
        let args: Vec<String> = args.into_iter().collect();
        let mut a = Args {
            rounds: args
                .iter()
                .find_map(|a| a.parse().ok())
                .unwrap_or(default_rounds),
            ..Args::default()
        };
        for pair in args.windows(2) {
            match pair[0].as_str() {
                "--svg" => a.svg = Some(pair[1].clone()),
                "--group" => a.groups.push(pair[1].clone()),
                "--impl" => a.impls.push(pair[1].clone()),
                "--input" => a.inputs.push(pair[1].clone()),
                _ => {}
            }
        }
        a
    }

    fn keeps(list: &[String], name: &str) -> bool {
        list.is_empty() || list.iter().any(|l| l == name)
    }

    /// Whether `group` is selected at all.
    pub fn keeps_group(&self, group: &str) -> bool {
        Args::keeps(&self.groups, group)
    }

    /// Whether the cell (`group`, `input`, `implementation`) runs.
    pub fn keeps_cell(&self, group: &str, input: &str, implementation: &str) -> bool {
        Args::keeps(&self.groups, group)
            && Args::keeps(&self.inputs, input)
            && Args::keeps(&self.impls, implementation)
    }
}

impl Args {
    /// Which of the implementations `names` run for (`group`, `input`).
    pub fn mask(&self, group: &str, input: &str, names: &[&str]) -> Vec<bool> {
        names
            .iter()
            .map(|n| self.keeps_cell(group, input, n))
            .collect()
    }
}

/// The fastest of `rounds` rounds of each closure whose flag is set, run in
/// turn within each round, in ns per unit (`units` per call); NaN for those
/// not run.
pub fn min_rounds(
    rounds: usize,
    units: usize,
    run: &[bool],
    fns: &mut [&mut dyn FnMut()],
) -> Vec<f64> {
    min_rounds_by(rounds, units, run, |i| fns[i]())
}

/// [`min_rounds`] with the implementations as one closure, called with
/// the index of the one to run.
pub fn min_rounds_by(
    rounds: usize,
    units: usize,
    run: &[bool],
    mut call: impl FnMut(usize),
) -> Vec<f64> {
    let mut best: Vec<f64> = run
        .iter()
        .map(|&r| if r { f64::MAX } else { f64::NAN })
        .collect();
    for _ in 0..rounds {
        for (i, b) in best.iter_mut().enumerate() {
            if !run[i] {
                continue;
            }
            let t = Instant::now();
            call(i);
            *b = b.min(t.elapsed().as_nanos() as f64 / units.max(1) as f64);
        }
    }
    best
}

/// One measured group: columns are implementations, rows inputs.
#[derive(Clone, Debug, Default)]
pub struct Table {
    /// The group's name, as `--group` selects it.
    pub group: String,
    /// What a cell counts: "ns per value".
    pub unit: String,
    /// The implementations, in the order they were given.
    pub columns: Vec<String>,
    /// `(input, figure per column)`; NaN where a cell did not run.
    pub rows: Vec<(String, Vec<f64>)>,
}

impl Table {
    /// The table as markdown, figures to two decimals.
    pub fn markdown(&self) -> String {
        let mut s = format!("\n{} ({}, min of rounds)\n\n", self.group, self.unit);
        let _ = writeln!(s, "| input | {} |", self.columns.join(" | "));
        let _ = writeln!(s, "|---|{}", "---:|".repeat(self.columns.len()));
        for (label, t) in &self.rows {
            let cells: Vec<String> = t
                .iter()
                .map(|ns| {
                    if ns.is_nan() {
                        "-".to_string()
                    } else {
                        format!("{ns:.2}")
                    }
                })
                .collect();
            let _ = writeln!(s, "| {label} | {} |", cells.join(" | "));
        }
        s
    }

    /// The figure of `column` on `input`, if it ran.
    pub fn get(&self, input: &str, column: &str) -> Option<f64> {
        let c = self.columns.iter().position(|n| n == column)?;
        let (_, row) = self.rows.iter().find(|(i, _)| i == input)?;
        row.get(c).copied().filter(|t| !t.is_nan())
    }
}

impl Table {
    /// A table of `group` with `columns`, to be filled with
    /// [`push`](Table::push).
    pub fn new(group: &str, unit: &str, columns: &[&str]) -> Table {
        Table {
            group: group.to_string(),
            unit: unit.to_string(),
            columns: columns.iter().map(|c| (*c).to_string()).collect(),
            rows: Vec::new(),
        }
    }

    /// Adds a row of figures, one per column.
    pub fn push(&mut self, input: &str, figures: Vec<f64>) {
        self.rows.push((input.to_string(), figures));
    }

    /// The same table with only the columns `keep` accepts, each renamed by
    /// it (for a chart that labels or leaves out some).
    pub fn select(&self, keep: impl Fn(usize, &str) -> Option<String>) -> Table {
        let picked: Vec<(usize, String)> = self
            .columns
            .iter()
            .enumerate()
            .filter_map(|(i, c)| keep(i, c).map(|n| (i, n)))
            .collect();
        Table {
            group: self.group.clone(),
            unit: self.unit.clone(),
            columns: picked.iter().map(|(_, n)| n.clone()).collect(),
            rows: self
                .rows
                .iter()
                .map(|(input, row)| (input.clone(), picked.iter().map(|(i, _)| row[*i]).collect()))
                .collect(),
        }
    }
}

/// The tables of one run.
pub struct Bench<'a> {
    args: &'a Args,
    /// Every finished group, in order.
    pub tables: Vec<Table>,
}

impl<'a> Bench<'a> {
    /// A run under `args`.
    pub fn new(args: &'a Args) -> Bench<'a> {
        Bench {
            args,
            tables: Vec::new(),
        }
    }

    /// Starts a group whose calls each handle `units` units.
    pub fn group(&mut self, name: &str, unit: &str, units: usize) -> Group<'_, 'a> {
        Group {
            bench: self,
            table: Table {
                group: name.to_string(),
                unit: unit.to_string(),
                ..Table::default()
            },
            units,
        }
    }

    /// Prints every table as markdown.
    pub fn print(&self) {
        for t in &self.tables {
            print!("{}", t.markdown());
        }
    }
}

/// A group being measured, row by row.
pub struct Group<'b, 'a> {
    bench: &'b mut Bench<'a>,
    table: Table,
    units: usize,
}

impl Group<'_, '_> {
    /// Sets the units per call of the rows that follow.
    pub fn units(&mut self, units: usize) {
        self.units = units;
    }

    /// Measures one input: every `(implementation, closure)` in turn, each
    /// round. Implementations new to the group become columns; a row that
    /// lacks a column shows `-` there.
    pub fn row(&mut self, input: &str, fns: &mut [(&str, &mut dyn FnMut())]) {
        for (name, _) in fns.iter() {
            if !self.table.columns.iter().any(|c| c == name) {
                self.table.columns.push((*name).to_string());
                for (_, row) in &mut self.table.rows {
                    row.push(f64::NAN);
                }
            }
        }
        let run: Vec<bool> = fns
            .iter()
            .map(|(n, _)| self.bench.args.keeps_cell(&self.table.group, input, n))
            .collect();
        let times = min_rounds_by(self.bench.args.rounds, self.units, &run, |i| fns[i].1());
        let mut row = vec![f64::NAN; self.table.columns.len()];
        for ((name, _), t) in fns.iter().zip(times) {
            if let Some(c) = self.table.columns.iter().position(|c| c == name) {
                row[c] = t;
            }
        }
        self.table.rows.push((input.to_string(), row));
    }

    /// Ends the group; its table joins the run's and is returned.
    pub fn finish(self) -> Table {
        let t = self.table;
        self.bench.tables.push(t.clone());
        t
    }
}

/// A chart of speed-ups over one column (`baseline`'s time / each other
/// column's), as horizontal bars on a log2 scale from 1/4× to 32×, one
/// section per table: the layout of `cargo xtask bench`'s chart.
pub fn speedup_svg(tables: &[Table], baseline: &str, title: &str, note: &str) -> String {
    const PALETTE: &[&str] = &[
        "#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f", "#edc948", "#b07aa1", "#ff9da7",
        "#9c755f",
    ];
    let (left, plot_w, bar_h, top) = (330.0, 520.0, 13.0, 56.0);
    let (lo, hi) = (-2.0f64, 5.0f64);
    let x = |r: f64| left + (r.clamp(0.25, 32.0).log2() - lo) / (hi - lo) * plot_w;
    let mut names: Vec<&str> = Vec::new();
    let mut body = String::new();
    let mut y = top;
    for t in tables {
        let Some(base) = t.columns.iter().position(|c| c == baseline) else {
            continue;
        };
        y += 10.0;
        let _ = writeln!(
            body,
            r#"<text x="8" y="{:.1}" font-weight="bold">{}</text>"#,
            y + 10.0,
            t.group
        );
        y += 16.0;
        for (input, ns) in &t.rows {
            for (i, col) in t.columns.iter().enumerate() {
                if i == base || ns[i].is_nan() || ns[base].is_nan() {
                    continue;
                }
                if !names.contains(&col.as_str()) {
                    names.push(col);
                }
                let color =
                    PALETTE[names.iter().position(|n| n == col).unwrap_or(0) % PALETTE.len()];
                let ratio = ns[base] / ns[i];
                let (x0, x1) = (x(1.0), x(ratio));
                let _ = writeln!(
                    body,
                    r#"<text x="{:.1}" y="{:.1}" text-anchor="end">{input} · {col}</text>"#,
                    left - 6.0,
                    y + 10.0
                );
                let _ = writeln!(
                    body,
                    r#"<rect x="{:.1}" y="{y:.1}" width="{:.1}" height="{bar_h}" fill="{color}"><title>{col} {input}: {ratio:.2}× {baseline}</title></rect>"#,
                    x0.min(x1),
                    (x1 - x0).abs().max(1.0)
                );
                let _ = writeln!(
                    body,
                    r#"<text x="{:.1}" y="{:.1}" font-size="10">{ratio:.2}×</text>"#,
                    x0.max(x1) + 4.0,
                    y + 10.0
                );
                y += bar_h + 2.0;
            }
        }
    }
    let mut axis = String::new();
    for k in -2..=5 {
        let r = 2f64.powi(k);
        let _ = writeln!(
            axis,
            r##"<line x1="{0:.1}" x2="{0:.1}" y1="{1}" y2="{2:.1}" stroke="{3}"/><text x="{0:.1}" y="{4}" text-anchor="middle" font-size="10">{5}×</text>"##,
            x(r),
            top - 8.0,
            y,
            if k == 0 { "#333" } else { "#ddd" },
            top - 12.0,
            if r < 1.0 {
                format!("1/{}", 1.0 / r)
            } else {
                format!("{r}")
            }
        );
    }
    format!(
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{:.0}" height="{:.0}" font-family="sans-serif" font-size="11">
<rect width="100%" height="100%" fill="white"/>
<text x="8" y="18" font-size="14" font-weight="bold">{title}</text>
<text x="8" y="34" font-size="10">{note}</text>
{axis}{body}</svg>
"#,
        left + plot_w + 60.0,
        y + 30.0
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn filters_select_cells() {
        let a = Args::parse_from(
            ["--bench", "7", "--group", "decode", "--impl", "ours"].map(String::from),
            300,
        );
        assert_eq!(a.rounds, 7);
        assert!(a.keeps_cell("decode", "any", "ours"));
        assert!(!a.keeps_cell("decode", "any", "peer"));
        assert!(!a.keeps_cell("encode", "any", "ours"));
    }

    #[test]
    fn rows_align_columns_and_skip_filtered_cells() {
        let a = Args::parse_from(["2", "--impl", "a"].map(String::from), 1);
        let mut b = Bench::new(&a);
        let mut g = b.group("g", "ns", 1);
        g.row("x", &mut [("a", &mut || {}), ("b", &mut || {})]);
        g.row("y", &mut [("c", &mut || {})]);
        let t = g.finish();
        assert_eq!(t.columns, ["a", "b", "c"]);
        assert!(t.get("x", "a").is_some());
        assert!(t.get("x", "b").is_none());
        assert!(t.get("y", "a").is_none());
        assert_eq!(t.rows[1].1.len(), 3);
        assert!(t.markdown().contains("| x |"));
        let svg = speedup_svg(&b.tables, "a", "t", "n");
        assert!(svg.starts_with("<svg"));
    }
}
