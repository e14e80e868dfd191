//! `recording:svg(path)`: a line chart of a recording's effective weights over time, one
//! series per leaf (and channel), written as SVG by hand: a title, axes with units and tick
//! labels, light grid lines and a legend. Deterministic text: fixed decimals, no ids drawn
//! from memory or time.

use std::fmt::Write as _;

use super::recording::Recording;

const WIDTH: f64 = 960.0;
const HEIGHT: f64 = 540.0;
const LEFT: f64 = 80.0;
const RIGHT: f64 = 230.0;
const TOP: f64 = 64.0;
const BOTTOM: f64 = 64.0;
/// Tableau 10: distinct on screen and in print.
const PALETTE: [&str; 10] =
    ["#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f", "#edc948", "#b07aa1", "#ff9da7", "#9c755f", "#bab0ac"];

/// Ticks from `lo` to `hi`: a step of 1, 2 or 5 × 10ⁿ giving four to ten of them.
fn ticks(lo: f64, hi: f64) -> (Vec<f64>, usize) {
    let span = (hi - lo).max(1e-12);
    let raw = span / 6.0;
    let magnitude = 10f64.powf(raw.log10().floor());
    let step =
        [1.0, 2.0, 5.0, 10.0].iter().map(|m| m * magnitude).find(|s| span / s <= 8.0).unwrap_or(10.0 * magnitude);
    let decimals = (-step.log10().floor()).max(0.0) as usize;
    let first = (lo / step).ceil() as i64;
    let last = (hi / step + 1e-9).floor() as i64;
    ((first..=last).map(|k| k as f64 * step).collect(), decimals)
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}

/// The SVG text of the chart.
pub fn weight_chart(recording: &Recording) -> String {
    // (column, legend name, additive): additive leaves are dashed and marked `+`.
    let series = recording.weight_series();
    let (t0, t1) = match (recording.rows.first(), recording.rows.last()) {
        (Some(first), Some(last)) if last.time > first.time => (first.time, last.time),
        (Some(first), _) => (first.time, first.time + 1.0),
        _ => (0.0, 1.0),
    };
    let top_value = recording
        .rows
        .iter()
        .flat_map(|r| series.iter().filter_map(|&(i, _, _)| r.values.get(i).copied().flatten()))
        .fold(1.0_f64, f64::max);
    let w1 = (top_value * 4.0).ceil() / 4.0;
    let (plot_w, plot_h) = (WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM);
    let x = |t: f64| LEFT + (t - t0) / (t1 - t0) * plot_w;
    let y = |w: f64| TOP + (1.0 - w / w1) * plot_h;

    let mut svg = String::new();
    let _ = writeln!(
        svg,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" viewBox="0 0 {WIDTH} {HEIGHT}" font-family="Helvetica, Arial, sans-serif" font-size="13">"#
    );
    let _ = writeln!(svg, r##"<rect width="{WIDTH}" height="{HEIGHT}" fill="#ffffff"/>"##);
    let title = format!("{} · effective weights over time", recording.actor_name);
    let _ = writeln!(
        svg,
        r##"<text x="{:.2}" y="30" text-anchor="middle" font-size="18" font-weight="bold" fill="#222222">{}</text>"##,
        LEFT + plot_w / 2.0,
        escape(&title)
    );
    let subtitle = format!(
        "{}, frames {}–{}",
        recording.summary(),
        recording.first_frame,
        recording.rows.last().map_or(recording.first_frame, |r| r.frame)
    );
    let _ = writeln!(
        svg,
        r##"<text x="{:.2}" y="50" text-anchor="middle" fill="#666666">{}</text>"##,
        LEFT + plot_w / 2.0,
        escape(&subtitle)
    );

    // Grid and tick labels.
    let (xs, x_decimals) = ticks(t0, t1);
    for t in xs {
        let px = x(t);
        let _ = writeln!(
            svg,
            r##"<line x1="{px:.2}" y1="{TOP:.2}" x2="{px:.2}" y2="{:.2}" stroke="#e6e6e6"/>"##,
            TOP + plot_h
        );
        let _ = writeln!(
            svg,
            r##"<text x="{px:.2}" y="{:.2}" text-anchor="middle" fill="#444444">{t:.x_decimals$}</text>"##,
            TOP + plot_h + 20.0
        );
    }
    let (ws, w_decimals) = ticks(0.0, w1);
    for w in ws {
        let py = y(w);
        let _ = writeln!(
            svg,
            r##"<line x1="{LEFT:.2}" y1="{py:.2}" x2="{:.2}" y2="{py:.2}" stroke="#e6e6e6"/>"##,
            LEFT + plot_w
        );
        let _ = writeln!(
            svg,
            r##"<text x="{:.2}" y="{:.2}" text-anchor="end" fill="#444444">{w:.w_decimals$}</text>"##,
            LEFT - 8.0,
            py + 4.0
        );
    }
    // Axes and their units.
    let _ = writeln!(
        svg,
        r##"<path d="M{LEFT:.2} {TOP:.2} V{:.2} H{:.2}" fill="none" stroke="#333333"/>"##,
        TOP + plot_h,
        LEFT + plot_w
    );
    let _ = writeln!(
        svg,
        r##"<text x="{:.2}" y="{:.2}" text-anchor="middle" fill="#222222">time (s)</text>"##,
        LEFT + plot_w / 2.0,
        HEIGHT - 18.0
    );
    let _ = writeln!(
        svg,
        r##"<text transform="translate(24 {:.2}) rotate(-90)" text-anchor="middle" fill="#222222">effective weight (share of the pose, 0–1)</text>"##,
        TOP + plot_h / 2.0
    );

    // One path per series; a missing value (a leaf not there yet) breaks the line. A sample
    // alone between breaks (or a recording of one sample) draws no line: it gets a dot.
    for (k, (column, _, additive)) in series.iter().enumerate() {
        let color = PALETTE[k % PALETTE.len()];
        let mut d = String::new();
        let mut dots = String::new();
        let points =
            recording.rows.iter().map(|row| row.values.get(*column).copied().flatten().map(|w| (x(row.time), y(w))));
        for run in points.collect::<Vec<_>>().split(Option::is_none) {
            for (i, &(px, py)) in run.iter().flatten().enumerate() {
                let _ = write!(d, "{}{px:.2} {py:.2} ", if i == 0 { "M" } else { "L" });
            }
            if let [Some((px, py))] = run {
                let _ = writeln!(dots, r#"<circle cx="{px:.2}" cy="{py:.2}" r="3" fill="{color}"/>"#);
            }
        }
        let dash = if *additive { r#" stroke-dasharray="6 4""# } else { "" };
        let _ = writeln!(
            svg,
            r#"<path d="{}" fill="none" stroke="{color}" stroke-width="2" stroke-linejoin="round"{dash}/>"#,
            d.trim_end()
        );
        svg.push_str(&dots);
    }

    // Legend.
    let legend_x = LEFT + plot_w + 24.0;
    let _ = writeln!(svg, r##"<text x="{legend_x:.2}" y="{TOP:.2}" font-weight="bold" fill="#222222">leaf</text>"##);
    for (k, (_, name, additive)) in series.iter().enumerate() {
        let ly = TOP + 22.0 + 20.0 * k as f64;
        let color = PALETTE[k % PALETTE.len()];
        let dash = if *additive { r#" stroke-dasharray="6 4""# } else { "" };
        let _ = writeln!(
            svg,
            r#"<line x1="{legend_x:.2}" y1="{:.2}" x2="{:.2}" y2="{:.2}" stroke="{color}" stroke-width="3"{dash}/>"#,
            ly - 4.0,
            legend_x + 24.0,
            ly - 4.0
        );
        let _ =
            writeln!(svg, r##"<text x="{:.2}" y="{ly:.2}" fill="#222222">{}</text>"##, legend_x + 32.0, escape(name));
    }
    svg.push_str("</svg>\n");
    svg
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ticks_are_round_numbers() {
        assert_eq!(ticks(0.0, 1.0), (vec![0.0, 0.2, 0.4, 0.6000000000000001, 0.8, 1.0], 1));
        let (t, decimals) = ticks(0.0, 10.0);
        assert_eq!((t.len(), decimals), (6, 0));
        let (t, _) = ticks(0.35, 2.5);
        assert!(t.first().is_some_and(|&v| v >= 0.35) && t.len() >= 4, "{t:?}");
    }

    /// A recording of `hero` with one leaf column `idle` and these `(time, weight)` samples
    /// (`None`: the leaf was not there).
    fn recording(samples: &[(f64, Option<f64>)]) -> Recording {
        use crate::report::recording::{Column, Row};
        let idle = Column::Weight { leaf: "idle".into(), channel: "body".into(), additive: false };
        let rows = samples.iter().enumerate();
        let rows = rows.map(|(frame, &(time, w))| Row { time, frame: frame as i64, values: vec![w] }).collect();
        Recording::of_hero(vec![idle], rows, None)
    }

    #[test]
    fn a_sample_alone_is_a_dot_and_samples_in_a_row_a_line() {
        let svg = weight_chart(&recording(&[(0.0, Some(1.0))]));
        assert_eq!(svg.matches("<circle").count(), 1, "{svg}");
        let svg = weight_chart(&recording(&[(0.0, Some(1.0)), (0.5, Some(0.5)), (1.0, None), (1.5, Some(0.0))]));
        assert_eq!(svg.matches("<circle").count(), 1, "the lone last sample: {svg}");
        assert!(svg.contains(r#"d="M80.00 64.00 L296.67 270.00 M730.00 476.00""#), "{svg}");
    }

    #[test]
    fn text_is_escaped() {
        assert_eq!(escape("a<b & \"c\""), "a&lt;b &amp; &quot;c&quot;");
    }
}
