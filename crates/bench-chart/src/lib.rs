//! The one chart of the benchmarks: ratios as horizontal bars on a log2
//! scale, one section per group, one bar per (input, implementation).
//!
//! The `*_min` benches (through `benches::harness`) and `cargo xtask bench`
//! both draw with [`svg`]. It is a crate of its own, without dependencies,
//! so that xtask does not build every codec to draw a chart.
//!
//! ```
//! use bench_chart::{Bar, Chart, Section};
//!
//! let chart = Chart {
//!     title: "speed-up over std".into(),
//!     note: "cargo bench ...".into(),
//!     sections: vec![Section {
//!         title: "validate".into(),
//!         bars: vec![Bar::new("64KiB", "ours", 4.0), Bar::new("64KiB", "peer", 0.5)],
//!     }],
//!     range: None,
//! };
//! let svg = bench_chart::svg(&chart);
//! assert!(svg.starts_with("<svg") && svg.contains("4.00×"));
//! ```

#![forbid(unsafe_code)]

use std::fmt::Write as _;

/// One bar: how many times faster `series` is than the baseline on `label`.
#[derive(Clone, Debug, PartialEq)]
pub struct Bar {
    /// The input, shown before the series' name.
    pub label: String,
    /// The implementation; bars of one series share a colour.
    pub series: String,
    /// Above 1: faster than the baseline.
    pub ratio: f64,
}

impl Bar {
    /// A bar of `series` on `label`.
    pub fn new(label: &str, series: &str, ratio: f64) -> Bar {
        Bar {
            label: label.to_string(),
            series: series.to_string(),
            ratio,
        }
    }
}

/// A titled run of bars (one group of a bench).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Section {
    /// Shown in bold above the bars.
    pub title: String,
    /// In drawing order.
    pub bars: Vec<Bar>,
}

/// What [`svg`] draws.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Chart {
    /// The first line.
    pub title: String,
    /// A smaller second line: the command that made the chart.
    pub note: String,
    /// In drawing order; bars whose ratio is not a positive finite number
    /// are left out, and sections left without bars.
    pub sections: Vec<Section>,
    /// The scale in powers of two, `(-2, 5)` for 1/4× to 32× (ratios
    /// outside are drawn at the edge, with their true value written); `None`
    /// fits the scale to the ratios, from at most 1/2× to at least 2×.
    pub range: Option<(i32, i32)>,
}

const PALETTE: &[&str] = &[
    "#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f", "#edc948", "#b07aa1", "#ff9da7",
    "#9c755f", "#bab0ac",
];

/// Escapes text for SVG.
fn esc(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// The chart as an SVG document.
pub fn svg(chart: &Chart) -> String {
    let drawn = |b: &&Bar| b.ratio.is_finite() && b.ratio > 0.0;
    let ratios = || {
        chart
            .sections
            .iter()
            .flat_map(|s| s.bars.iter().filter(drawn))
    };
    let (lo, hi) = chart.range.unwrap_or_else(|| {
        let min = ratios().map(|b| b.ratio).fold(1.0f64, f64::min);
        let max = ratios().map(|b| b.ratio).fold(1.0f64, f64::max);
        (
            (min.log2().floor() as i32).min(-1),
            (max.log2().ceil() as i32).max(1),
        )
    });
    let (lo_r, hi_r) = (2f64.powi(lo), 2f64.powi(hi));
    let (left, plot_w, bar_h, top) = (330.0, 540.0, 13.0, 62.0);
    let span = f64::from((hi - lo).max(1));
    let x = |r: f64| left + (r.clamp(lo_r, hi_r).log2() - f64::from(lo)) / span * plot_w;
    let mut series: Vec<&str> = Vec::new();
    let mut body = String::new();
    let mut y = top;
    for section in &chart.sections {
        if !section.bars.iter().any(|b| drawn(&b)) {
            continue;
        }
        y += 10.0;
        let _ = writeln!(
            body,
            r#"<text x="8" y="{:.1}" font-weight="bold">{}</text>"#,
            y + 10.0,
            esc(&section.title)
        );
        y += 16.0;
        for bar in section.bars.iter().filter(drawn) {
            if !series.contains(&bar.series.as_str()) {
                series.push(&bar.series);
            }
            let k = series.iter().position(|s| *s == bar.series).unwrap_or(0);
            let colour = PALETTE[k % PALETTE.len()];
            let (label, name, ratio) = (esc(&bar.label), esc(&bar.series), bar.ratio);
            let (x0, x1) = (x(1.0), x(ratio));
            let _ = writeln!(
                body,
                r#"<text x="{:.1}" y="{:.1}" text-anchor="end">{label} · {name}</text>"#,
                left - 6.0,
                y + 10.0
            );
            let _ = writeln!(
                body,
                r#"<rect x="{:.1}" y="{y:.1}" width="{:.1}" height="{bar_h}" fill="{colour}"><title>{label} · {name}: {ratio:.2}×</title></rect>"#,
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
    if series.is_empty() {
        let _ = writeln!(
            body,
            r#"<text x="8" y="{:.1}">No ratio to draw: no group has both a baseline and another implementation.</text>"#,
            y + 20.0
        );
        y += 30.0;
    }
    // A grid line per power of two; labels on at most about ten of them
    // (always on 1×), so that they do not run into each other.
    let step = ((hi - lo + 9) / 10).max(1);
    let mut axis = String::new();
    for k in lo..=hi {
        let r = 2f64.powi(k);
        let _ = write!(
            axis,
            r#"<line x1="{0:.1}" x2="{0:.1}" y1="{1}" y2="{2:.1}" stroke="{3}"/>"#,
            x(r),
            top - 8.0,
            y,
            if k == 0 { "#333" } else { "#ddd" },
        );
        if k % step == 0 {
            let label = if k < 0 {
                format!("1/{}", 1u64 << -k)
            } else {
                format!("{}", 1u64 << k)
            };
            let _ = write!(
                axis,
                r#"<text x="{:.1}" y="{}" text-anchor="middle" font-size="10">{label}×</text>"#,
                x(r),
                top - 12.0,
            );
        }
        axis.push('\n');
    }
    let (width, height) = (left + plot_w + 60.0, y + 30.0);
    format!(
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0}" height="{height:.0}" viewBox="0 0 {width:.0} {height:.0}" font-family="sans-serif" font-size="11">
<rect width="100%" height="100%" fill="white"/>
<text x="8" y="18" font-size="14" font-weight="bold">{}</text>
<text x="8" y="34" font-size="10">{}</text>
{axis}{body}</svg>
"#,
        esc(&chart.title),
        esc(&chart.note)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn chart(bars: Vec<Bar>, range: Option<(i32, i32)>) -> Chart {
        Chart {
            title: "t & u".into(),
            note: "n".into(),
            sections: vec![Section {
                title: "<g>".into(),
                bars,
            }],
            range,
        }
    }

    /// The `x` and `width` of each bar, in drawing order.
    fn rects(svg: &str) -> Vec<(f64, f64)> {
        svg.lines()
            .filter(|l| l.starts_with("<rect x="))
            .map(|l| {
                let attr = |name: &str| -> f64 {
                    let at = l.find(&format!(" {name}=\"")).unwrap() + name.len() + 3;
                    l[at..].split('"').next().unwrap().parse().unwrap()
                };
                (attr("x"), attr("width"))
            })
            .collect()
    }

    #[test]
    fn bars_start_at_one_and_grow_with_the_log_of_the_ratio() {
        let s = svg(&chart(
            vec![
                Bar::new("a", "x", 2.0),
                Bar::new("a", "y", 0.5),
                Bar::new("b", "x", 4.0),
            ],
            None,
        ));
        // Fitted scale: 1/2× to 4×, three octaves over 540 pixels.
        let r = rects(&s);
        assert_eq!(r.len(), 3);
        let one = 330.0 + 540.0 / 3.0;
        assert_eq!(r[0], (one, 180.0));
        assert_eq!(r[1], (one - 180.0, 180.0));
        assert_eq!(r[2], (one, 360.0));
        assert!(s.contains("4.00×") && s.contains("0.50×"));
        assert!(s.contains("t &amp; u") && s.contains("&lt;g&gt;"));
        // One colour per series, in order of appearance.
        assert_eq!(s.matches(PALETTE[0]).count(), 2, "{s}");
        assert_eq!(s.matches(PALETTE[1]).count(), 1, "{s}");
    }

    #[test]
    fn a_fixed_range_clamps_and_bad_ratios_are_left_out() {
        let s = svg(&chart(
            vec![
                Bar::new("a", "x", 1000.0),
                Bar::new("a", "y", f64::NAN),
                Bar::new("a", "z", 0.0),
            ],
            Some((-2, 5)),
        ));
        let r = rects(&s);
        assert_eq!(r.len(), 1);
        let one = 330.0 + 540.0 * 2.0 / 7.0;
        // Positions are written to one decimal.
        assert!((r[0].0 - one).abs() < 0.1 && (r[0].0 + r[0].1 - 870.0).abs() < 0.1);
        assert!(s.contains("1000.00×") && s.contains("1/4×") && s.contains(">32×"));
        // Twenty octaves: a label every second one.
        let wide = svg(&chart(
            vec![Bar::new("a", "x", 1024.0), Bar::new("a", "y", 1.0 / 1024.0)],
            None,
        ));
        assert!(wide.contains(">1024×<") && wide.contains(">1×<") && !wide.contains(">512×<"));
        assert_eq!(wide.matches("<line ").count(), 21);
        let empty = svg(&chart(vec![Bar::new("a", "y", f64::NAN)], None));
        assert!(empty.contains("No ratio to draw") && rects(&empty).is_empty());
        assert!(!empty.contains("&lt;g&gt;"), "no title of an empty section");
        assert!(empty.trim_end().ends_with("</svg>"));
    }
}
