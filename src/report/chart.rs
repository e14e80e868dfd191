//! `recording:svg(path)`: a line chart of a recording's effective weights over time, one
//! series per leaf (and channel), then `<default>` (per channel) where the default pose has a
//! share at some sample — a graph that always covers the whole pose gets no flat line at 0 —
//! written as SVG by hand: a title, axes with units and tick labels, light grid lines and a
//! legend. Deterministic text: fixed decimals, no ids drawn from memory or time.

use std::fmt::Write as _;

use unicode_width::UnicodeWidthChar;

use super::recording::Recording;
use crate::graph::DEFAULT_EPSILON;

const LEFT: f64 = 80.0;
const TOP: f64 = 64.0;
const BOTTOM: f64 = 64.0;
/// The plot area; it is taller when its legend would not fit beside it.
const PLOT_WIDTH: f64 = 650.0;
const PLOT_HEIGHT: f64 = 412.0;
/// Right of the plot: the legend, at least this wide, wider for longer names or more columns.
const RIGHT: f64 = 230.0;
/// The legend: a row per series (its swatch, then its name), at most [`MAX_ROWS`] to a column.
const ROW: f64 = 20.0;
const SWATCH: f64 = 32.0;
const COLUMN_GAP: f64 = 16.0;
const MAX_ROWS: usize = 40;
/// Legend names longer than this many columns (a wide character counts two) are shortened
/// ([`legend_labels`]).
const MAX_NAME: usize = 32;
/// A character's width as a share of the font size: a generous guess for Helvetica and Arial
/// (no font is measured), so that estimated text is never narrower than drawn text.
const CHAR_WIDTH: f64 = 0.6;
const FONT_SIZE: f64 = 13.0;
const TITLE_SIZE: f64 = 18.0;
/// Tableau 10: distinct on screen and in print.
const PALETTE: [&str; 10] =
    ["#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f", "#edc948", "#b07aa1", "#ff9da7", "#9c755f", "#bab0ac"];
/// Dash patterns, two per round of the palette: a plain leaf's, then an additive one's
/// (additive leaves are dashed in the first round). Series `k` takes colour `k % 10` and the
/// pair of round `k / 10`, so forty series (eighty, counting additive ones) look distinct.
const DASHES: [Option<&str>; 8] =
    [None, Some("6 4"), Some("2 3"), Some("2 2 6 2"), Some("10 3"), Some("1 5"), Some("8 3 2 3"), Some("12 2 2 2 2 2")];

/// The stroke of series `k`: its colour and dash pattern (as an attribute, empty for a solid
/// line).
fn style(k: usize, additive: bool) -> (&'static str, String) {
    let round = k / PALETTE.len() % (DASHES.len() / 2);
    let dash = DASHES[2 * round + usize::from(additive)];
    (PALETTE[k % PALETTE.len()], dash.map_or(String::new(), |d| format!(r#" stroke-dasharray="{d}""#)))
}

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

/// How many columns `text` takes: a wide character two.
fn text_columns(text: &str) -> usize {
    text.chars().map(|c| c.width().unwrap_or(0)).sum()
}

/// `text` cut to at most `max` columns, `…` included, when it is longer (`None` when it fits).
fn shortened(text: &str, max: usize) -> Option<String> {
    if text_columns(text) <= max {
        return None;
    }
    let mut kept = String::new();
    let mut used = 0;
    for c in text.chars() {
        used += c.width().unwrap_or(0);
        if used >= max {
            break;
        }
        kept.push(c);
    }
    Some(format!("{}…", kept.trim_end()))
}

/// The longest start of `text` within `max` columns, and the columns it takes.
fn head(text: &str, max: usize) -> (&str, usize) {
    let mut used = 0;
    for (i, c) in text.char_indices() {
        let width = c.width().unwrap_or(0);
        if used + width > max {
            return (&text[..i], used);
        }
        used += width;
    }
    (text, used)
}

/// The longest end of `text` within `max` columns.
fn tail(text: &str, max: usize) -> &str {
    let mut used = 0;
    for (i, c) in text.char_indices().rev() {
        used += c.width().unwrap_or(0);
        if used > max {
            return &text[i + c.len_utf8()..];
        }
    }
    text
}

/// `text` cut in the middle to at most `max` columns, `…` included, when it is longer: its
/// first third and the rest from its end, where names of one family (`…_variant_07`,
/// `…_l`) tell themselves apart.
fn shortened_in_the_middle(text: &str, max: usize) -> Option<String> {
    if text_columns(text) <= max {
        return None;
    }
    let (start, used) = head(text, max.saturating_sub(1) / 3);
    let end = tail(text, max.saturating_sub(1 + used));
    Some(format!("{}…{}", start.trim_end(), end.trim_start()))
}

/// `text` from its `from`-th character on, within `max` columns: `…` before it, and after
/// it when the rest does not fit.
fn window(text: &str, from: usize, max: usize) -> String {
    let rest = text.char_indices().nth(from).map_or("", |(i, _)| &text[i..]);
    if text_columns(rest) < max {
        return format!("…{rest}");
    }
    format!("…{}…", head(rest, max.saturating_sub(2)).0)
}

/// How many characters `a` and `b` start with alike.
fn common_start(a: &str, b: &str) -> usize {
    a.chars().zip(b.chars()).take_while(|(x, y)| x == y).count()
}

/// The legend's labels for `names`, each within `max` columns: a name that fits as it is;
/// a longer one shortened in the middle ([`shortened_in_the_middle`]). Names that would
/// still read alike show from a few characters before where they part from each other
/// (`…iant_03_from_crouch_pos…`), and any that read alike even then are numbered
/// (`#3 …`: no leaf name starts with `#`), so that no two labels are the same. `None`
/// for a name shown whole.
fn legend_labels(names: &[&str], max: usize) -> Vec<Option<String>> {
    const BEFORE: usize = 6;
    let mut labels: Vec<Option<String>> = names.iter().map(|n| shortened_in_the_middle(n, max)).collect();
    let shown = |labels: &[Option<String>], k: usize| labels[k].clone().unwrap_or_else(|| names[k].to_string());
    let alike = |labels: &[Option<String>]| -> Vec<usize> {
        (0..names.len())
            .filter(|&k| labels[k].is_some())
            .filter(|&k| (0..names.len()).any(|j| j != k && shown(labels, j) == shown(labels, k)))
            .collect()
    };
    let first = alike(&labels);
    let middle = labels.clone();
    for &k in &first {
        let parts = first
            .iter()
            .filter(|&&j| j != k && shown(&middle, j) == shown(&middle, k))
            .map(|&j| common_start(names[k], names[j]))
            .max()
            .unwrap_or(0);
        labels[k] = Some(window(names[k], parts.saturating_sub(BEFORE), max));
    }
    for k in alike(&labels) {
        let number = format!("#{} ", k + 1);
        let rest = shortened_in_the_middle(names[k], max.saturating_sub(number.len()));
        labels[k] = Some(format!("{number}{}", rest.as_deref().unwrap_or(names[k])));
    }
    labels
}

/// Text to draw, escaped: `whole`, or its `short` form with `whole` as its tooltip.
fn label(whole: &str, short: Option<String>) -> String {
    match short {
        Some(short) => format!("<title>{}</title>{}", escape(whole), escape(&short)),
        None => escape(whole),
    }
}

/// Where the legend goes: its columns, rows per column, and a column's width.
struct Legend {
    columns: usize,
    rows: usize,
    column_width: f64,
}

impl Legend {
    /// The legend of these labels (as shown).
    fn of(names: &[&str]) -> Legend {
        let columns = names.len().div_ceil(MAX_ROWS).max(1);
        let widest = names.iter().map(|name| text_columns(name)).max().unwrap_or(0);
        Legend {
            columns,
            rows: names.len().div_ceil(columns),
            column_width: SWATCH + widest as f64 * CHAR_WIDTH * FONT_SIZE,
        }
    }

    /// The width right of the plot: a gap, the columns, a margin.
    fn right(&self) -> f64 {
        let columns = self.columns as f64;
        let width = 24.0 + columns * self.column_width + (columns - 1.0) * COLUMN_GAP + 16.0;
        RIGHT.max(width.ceil())
    }

    /// The plot's height: enough for the rows beside it.
    fn plot_height(&self) -> f64 {
        PLOT_HEIGHT.max(ROW * self.rows as f64 + 12.0)
    }

    /// Where entry `k` starts (its text's baseline), from the legend's left.
    fn place(&self, k: usize) -> (f64, f64) {
        let (column, row) = (k / self.rows, k % self.rows);
        (column as f64 * (self.column_width + COLUMN_GAP), TOP + 22.0 + ROW * row as f64)
    }
}

/// The SVG text of the chart.
pub fn weight_chart(recording: &Recording) -> String {
    // (column, legend name, additive): additive leaves are dashed and marked `+`; `<default>`
    // comes last, where it has a share.
    let mut series = recording.weight_series();
    let shared = |column: usize| {
        recording.rows.iter().any(|r| r.values.get(column).copied().flatten().is_some_and(|d| d > DEFAULT_EPSILON))
    };
    series.extend(recording.default_series().into_iter().filter(|&(i, _)| shared(i)).map(|(i, name)| (i, name, false)));
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
    let names: Vec<&str> = series.iter().map(|(_, name, _)| name.as_str()).collect();
    let labels = legend_labels(&names, MAX_NAME);
    let shown: Vec<&str> = labels.iter().zip(&names).map(|(label, name)| label.as_deref().unwrap_or(name)).collect();
    let legend = Legend::of(&shown);
    let (plot_w, plot_h) = (PLOT_WIDTH, legend.plot_height());
    let (width, height) = (LEFT + plot_w + legend.right(), TOP + plot_h + BOTTOM);
    let x = |t: f64| LEFT + (t - t0) / (t1 - t0) * plot_w;
    let y = |w: f64| TOP + (1.0 - w / w1) * plot_h;

    let mut svg = String::new();
    let _ = writeln!(
        svg,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}" font-family="Helvetica, Arial, sans-serif" font-size="{FONT_SIZE}">"#
    );
    let _ = writeln!(svg, r##"<rect width="{width}" height="{height}" fill="#ffffff"/>"##);
    // The title is centred over the plot: the actor's name is shortened to keep it inside.
    let centre = LEFT + plot_w / 2.0;
    let title_columns = (2.0 * (centre.min(width - centre) - 16.0) / (CHAR_WIDTH * TITLE_SIZE)) as usize;
    let about = " · effective weights over time";
    let name = &recording.actor_name;
    let short =
        shortened(name, title_columns.saturating_sub(text_columns(about))).map(|short| format!("{short}{about}"));
    let title = label(&format!("{name}{about}"), short);
    let _ = writeln!(
        svg,
        r##"<text x="{centre:.2}" y="30" text-anchor="middle" font-size="18" font-weight="bold" fill="#222222">{title}</text>"##,
    );
    let subtitle = format!(
        "{}, frames {}–{}",
        recording.summary(),
        recording.first_frame,
        recording.rows.last().map_or(recording.first_frame, |r| r.frame)
    );
    let _ = writeln!(
        svg,
        r##"<text x="{centre:.2}" y="50" text-anchor="middle" fill="#666666">{}</text>"##,
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
        r##"<text x="{centre:.2}" y="{:.2}" text-anchor="middle" fill="#222222">time (s)</text>"##,
        height - 18.0
    );
    // A share can pass 1 (a `direct` tree without `normalize`, equal thresholds): the axis
    // then promises no range.
    let range = if w1 > 1.0 { "" } else { ", 0–1" };
    let _ = writeln!(
        svg,
        r##"<text transform="translate(24 {:.2}) rotate(-90)" text-anchor="middle" fill="#222222">effective weight (share of the pose{range})</text>"##,
        TOP + plot_h / 2.0
    );

    // One path per series; a missing value (a leaf not there yet) breaks the line. A sample
    // alone between breaks (or a recording of one sample) draws no line: it gets a dot.
    for (k, (column, _, additive)) in series.iter().enumerate() {
        let (color, dash) = style(k, *additive);
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
    for (k, ((_, name, additive), short)) in series.iter().zip(labels).enumerate() {
        let (dx, ly) = legend.place(k);
        let lx = legend_x + dx;
        let (color, dash) = style(k, *additive);
        let _ = writeln!(
            svg,
            r#"<line x1="{lx:.2}" y1="{:.2}" x2="{:.2}" y2="{:.2}" stroke="{color}" stroke-width="3"{dash}/>"#,
            ly - 4.0,
            lx + 24.0,
            ly - 4.0
        );
        let _ =
            writeln!(svg, r##"<text x="{:.2}" y="{ly:.2}" fill="#222222">{}</text>"##, lx + SWATCH, label(name, short));
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
    fn the_weight_axis_claims_0_to_1_only_when_the_weights_stay_there() {
        let within = weight_chart(&recording(&[(0.0, Some(0.5)), (1.0, Some(1.0))]));
        assert!(within.contains("effective weight (share of the pose, 0–1)"), "{within}");
        let past = weight_chart(&recording(&[(0.0, Some(3.0)), (1.0, Some(3.0))]));
        assert!(past.contains("effective weight (share of the pose)</text>"), "{past}");
    }

    #[test]
    fn a_sample_alone_is_a_dot_and_samples_in_a_row_a_line() {
        let svg = weight_chart(&recording(&[(0.0, Some(1.0))]));
        assert_eq!(svg.matches("<circle").count(), 1, "{svg}");
        let svg = weight_chart(&recording(&[(0.0, Some(1.0)), (0.5, Some(0.5)), (1.0, None), (1.5, Some(0.0))]));
        assert_eq!(svg.matches("<circle").count(), 1, "the lone last sample: {svg}");
        assert!(svg.contains(r#"d="M80.00 64.00 L296.67 270.00 M730.00 476.00""#), "{svg}");
    }

    /// A recording of `actor` with a leaf per name (additive when it starts with `+`), two
    /// samples apart.
    fn leaves(actor: &str, names: &[String]) -> Recording {
        use crate::report::recording::{Column, Row};
        let column = |name: &String| Column::Weight {
            leaf: name.trim_start_matches('+').into(),
            channel: "body".into(),
            additive: name.starts_with('+'),
        };
        let rows = (0..2).map(|frame| Row { time: frame as f64, frame, values: vec![Some(0.5); names.len()] });
        let mut recording = Recording::of_hero(names.iter().map(column).collect(), rows.collect(), None);
        recording.actor_name = actor.into();
        recording
    }

    /// The value of attribute `name` in `tag`.
    fn attribute(tag: &str, name: &str) -> f64 {
        let value = tag.split(&format!(" {name}=\"")).nth(1).and_then(|v| v.split('"').next());
        value.and_then(|v| v.parse().ok()).unwrap_or_else(|| panic!("no {name} in {tag}"))
    }

    /// Each drawn text of `svg` in `fill` colour: its tag, the text shown and its tooltip.
    fn texts<'s>(svg: &'s str, fill: &str) -> Vec<(&'s str, &'s str, Option<&'s str>)> {
        let texts = svg.lines().filter(|l| l.starts_with("<text ") && l.contains(&format!(r#"fill="{fill}">"#)));
        texts
            .map(|line| {
                let (tag, rest) = line.split_once('>').unwrap();
                let body = rest.strip_suffix("</text>").unwrap();
                match body.strip_prefix("<title>").and_then(|b| b.split_once("</title>")) {
                    Some((tooltip, shown)) => (tag, shown, Some(tooltip)),
                    None => (tag, body, None),
                }
            })
            .collect()
    }

    #[test]
    fn a_small_chart_keeps_its_size_and_a_legend_of_any_length_fits_on_it() {
        let long = |k: usize| format!("clip_number_{k:02}_with_a_long_name");
        let cases: [(Vec<String>, f64, f64); 5] = [
            (vec!["idle".into(), "+ breathe".into()], 960.0, 540.0),
            ((0..20).map(|k| format!("leaf_{k}")).collect(), 960.0, 540.0),
            ((0..40).map(long).collect(), 1044.0, 940.0),
            ((0..41).map(long).collect(), 1334.0, 560.0),
            ((0..100).map(|k| format!("{}_and_then_some", long(k))).collect(), 1647.0, 820.0),
        ];
        for (names, width, height) in cases {
            let svg = weight_chart(&leaves("hero", &names));
            let head = svg.lines().next().unwrap();
            assert_eq!(
                (attribute(head, "width"), attribute(head, "height")),
                (width, height),
                "{} leaves",
                names.len()
            );
            let legend: Vec<_> =
                texts(&svg, "#222222").into_iter().filter(|(tag, ..)| !tag.contains("anchor")).collect();
            assert_eq!(legend.len(), names.len() + 1, "the header and a row per leaf");
            for (tag, shown, tooltip) in legend {
                let right = attribute(tag, "x") + text_columns(shown) as f64 * CHAR_WIDTH * FONT_SIZE;
                assert!(right <= width && attribute(tag, "y") <= height - BOTTOM, "{tag}>{shown} on {width}×{height}");
                // A shortened name shows whole as its tooltip, and only a shortened one.
                let name = tooltip.unwrap_or(shown);
                assert!(
                    shown == "leaf" || names.iter().any(|n| n.trim_start_matches('+') == name.trim_start_matches("+ "))
                );
                assert_eq!(tooltip.is_some(), shown.contains('…'), "{shown}");
            }
        }
    }

    #[test]
    fn forty_series_are_drawn_in_forty_styles_and_additive_ones_in_others() {
        let plain: Vec<_> = (0..40).map(|k| style(k, false)).collect();
        let additive: Vec<_> = (0..40).map(|k| style(k, true)).collect();
        let mut all = plain.iter().chain(&additive).collect::<Vec<_>>();
        all.sort();
        all.dedup();
        assert_eq!(all.len(), 80);
        // The first round keeps the look of a chart of up to ten leaves: solid, additive dashed.
        assert_eq!(style(3, false), (PALETTE[3], String::new()));
        assert_eq!(style(3, true), (PALETTE[3], r#" stroke-dasharray="6 4""#.to_string()));
        // The legend shows each series' style.
        let names: Vec<String> = (0..12).map(|k| format!("leaf_{k}")).collect();
        let svg = weight_chart(&leaves("hero", &names));
        let (color, dash) = style(11, false);
        let swatch = format!(r#"stroke="{color}" stroke-width="3"{dash}/>"#);
        let swatches = svg.lines().filter(|l| l.starts_with("<line ") && l.contains(r#"stroke-width="3""#));
        assert!(swatches.clone().nth(11).is_some_and(|l| l.ends_with(&swatch)) && !dash.is_empty(), "{svg}");
        assert_eq!(swatches.count(), 12);
    }

    #[test]
    fn long_names_are_shortened_with_an_ellipsis() {
        let cases = [
            ("idle", 8, None),
            ("abcdefgh", 8, None),
            ("abcdefghi", 8, Some("abcdefg…")),
            ("walk forward slowly", 14, Some("walk forward…")),
            ("歩く歩く歩く", 8, Some("歩く歩…")),
        ];
        for (text, max, short) in cases {
            assert_eq!(shortened(text, max).as_deref(), short, "{text} in {max}");
            assert!(short.is_none_or(|s| text_columns(s) <= max));
        }
    }

    #[test]
    fn long_legend_names_are_shortened_in_the_middle() {
        let cases = [
            ("idle", 8, None),
            ("abcdefgh", 8, None),
            ("abcdefghi", 8, Some("ab…efghi")),
            ("walk forward slowly", 14, Some("walk…rd slowly")),
            ("歩く歩く歩く", 8, Some("歩…歩く")),
        ];
        for (text, max, short) in cases {
            assert_eq!(shortened_in_the_middle(text, max).as_deref(), short, "{text} in {max}");
            assert!(short.is_none_or(|s| text_columns(s) <= max));
        }
    }

    /// The labels `legend_labels` gives, as shown.
    fn shown_labels(names: &[String], max: usize) -> Vec<String> {
        let refs: Vec<&str> = names.iter().map(String::as_str).collect();
        let labels = legend_labels(&refs, max);
        labels.into_iter().zip(names).map(|(label, name)| label.unwrap_or_else(|| name.clone())).collect()
    }

    fn assert_distinct_and_within(names: &[String], labels: &[String], max: usize) {
        let mut sorted = labels.to_vec();
        sorted.sort();
        sorted.dedup();
        assert_eq!(sorted.len(), names.len(), "labels read alike: {labels:#?}");
        for label in labels {
            assert!(text_columns(label) <= max, "{label} is over {max} columns");
        }
    }

    #[test]
    fn names_with_a_long_common_start_keep_the_end_that_tells_them_apart() {
        // The report's case: twelve names that share their first 38 characters.
        let names: Vec<String> =
            (0..12).map(|i| format!("locomotion_forward_walk_cycle_variant_{i:02}_extra_long_name")).collect();
        let labels = shown_labels(&names, MAX_NAME);
        assert_eq!(labels[7], "locomotion…nt_07_extra_long_name");
        assert_distinct_and_within(&names, &labels, MAX_NAME);
        // Alike at both ends: they show from just before where they part.
        let names: Vec<String> =
            (0..12).map(|i| format!("left_hand_reach_variant_{i:02}_from_a_crouching_position")).collect();
        let labels = shown_labels(&names, MAX_NAME);
        assert_eq!(labels[3], "…iant_03_from_a_crouching_posit…");
        assert_distinct_and_within(&names, &labels, MAX_NAME);
        // Short names stay whole beside long ones, and long ones that read apart in the
        // middle stay so.
        let names: Vec<String> = vec![
            "idle".into(),
            format!("{}a{}", "x".repeat(40), "y".repeat(40)),
            format!("{}b{}", "x".repeat(40), "y".repeat(40)),
            format!("{}{}", "z".repeat(40), "y".repeat(40)),
        ];
        let labels = shown_labels(&names, MAX_NAME);
        assert_eq!(labels[0], "idle");
        assert_eq!(labels[1], format!("…xxxxxxa{}…", "y".repeat(23)));
        assert_eq!(labels[3], format!("{}…{}", "z".repeat(10), "y".repeat(21)));
        assert_distinct_and_within(&names, &labels, MAX_NAME);
        // Names whose windows still read alike (they part at other places) are numbered.
        let name = |xs: usize, c: char| format!("{}{c}{}", "x".repeat(xs), "y".repeat(40));
        let names = vec![name(40, 'a'), name(40, 'b'), name(44, 'a'), name(44, 'c')];
        let labels = shown_labels(&names, MAX_NAME);
        assert!(labels[0].starts_with("#1 ") && labels[2].starts_with("#3 "), "{labels:?}");
        assert_eq!(labels[1], format!("…xxxxxxb{}…", "y".repeat(23)));
        assert_distinct_and_within(&names, &labels, MAX_NAME);
    }

    #[test]
    fn the_legend_of_an_svg_tells_leaves_with_a_long_common_start_apart() {
        let names: Vec<String> =
            (0..12).map(|i| format!("locomotion_forward_walk_cycle_variant_{i:02}_extra_long_name")).collect();
        let svg = weight_chart(&leaves("hero", &names));
        let legend: Vec<_> = texts(&svg, "#222222").into_iter().filter(|(tag, ..)| !tag.contains("anchor")).collect();
        let shown: Vec<&str> = legend.iter().skip(1).map(|(_, shown, _)| *shown).collect();
        assert_eq!(shown[7], "locomotion…nt_07_extra_long_name");
        let tooltips: Vec<&str> = legend.iter().skip(1).filter_map(|(_, _, tooltip)| *tooltip).collect();
        assert_eq!(tooltips, names.iter().map(String::as_str).collect::<Vec<_>>(), "each name whole as its tooltip");
        let mut distinct = shown.clone();
        distinct.sort();
        distinct.dedup();
        assert_eq!(distinct.len(), 12, "{shown:?}");
    }

    #[test]
    fn a_long_title_is_shortened_to_fit_and_shows_whole_as_its_tooltip() {
        let actor = "an_actor_with_a_name_of_about_a_hundred_characters_".repeat(2);
        let svg = weight_chart(&leaves(&actor, &["idle".into()]));
        let head = svg.lines().next().unwrap();
        let (title, shown, tooltip) = texts(&svg, "#222222")[0];
        let half = text_columns(shown) as f64 * CHAR_WIDTH * TITLE_SIZE / 2.0;
        let centre = attribute(title, "x");
        assert!(centre - half >= 0.0 && centre + half <= attribute(head, "width"), "{shown}");
        assert!(shown.ends_with("… · effective weights over time"), "{shown}");
        assert_eq!(tooltip, Some(format!("{actor} · effective weights over time").as_str()));
        let svg = weight_chart(&leaves("hero", &["idle".into()]));
        let (_, shown, tooltip) = texts(&svg, "#222222")[0];
        assert_eq!((shown, tooltip), ("hero · effective weights over time", None));
    }

    #[test]
    fn text_is_escaped() {
        assert_eq!(escape("a<b & \"c\""), "a&lt;b &amp; &quot;c&quot;");
    }
}
