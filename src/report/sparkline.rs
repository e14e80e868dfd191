//! `:plot actor [N]`: an actor's effective weights over its last N frames as terminal
//! sparklines, read from the REPL's history of it (a [`Recording`] that keeps its latest
//! samples). A table says where the weights are; a sparkline says how they got there — a
//! crossfade, a pop, a leaf that never quite reaches 0 — without leaving the prompt.
//!
//! One glyph per frame: blank for a weight that prints as 0 (below 5e-7, `0.000000` in
//! every table) or a leaf not in the graph at that frame; otherwise `▁▂▃▄▅▆▇█` for the
//! nearest eighth, but never less than `▁`: the smallest weight still shows.

use std::fmt::Write as _;

use owo_colors::OwoColorize;

use super::recording::{Recording, Row};
use super::{Style, fixed};

/// Eighths of the way from 0 to 1.
const LEVELS: [char; 8] = ['▁', '▂', '▃', '▄', '▅', '▆', '▇', '█'];
/// The smallest weight that does not print as `0.000000`.
const VISIBLE: f64 = 5e-7;

/// The glyph of one frame's weight (`None`: the leaf was not in the graph then).
pub fn glyph(weight: Option<f64>) -> char {
    match weight {
        Some(w) if w >= VISIBLE => LEVELS[((w.min(1.0) * 8.0).round() as usize).clamp(1, 8) - 1],
        _ => ' ',
    }
}

fn value(row: &Row, column: usize) -> Option<f64> {
    row.values.get(column).copied().flatten()
}

/// Columns of a sparkline line besides its glyphs: the indent, the gaps and the weight in the
/// latest frame.
const FRAME_OF_LINE: usize = 2 + 2 + 2 + 8;

/// The leaves of `history` that were in the graph during `rows`: (column, name).
fn leaves_in(history: &Recording, rows: &[Row]) -> Vec<(usize, String)> {
    let series = history.weight_series().into_iter().map(|(column, name, _)| (column, name));
    series.filter(|(column, _)| rows.iter().any(|r| value(r, *column).is_some())).collect()
}

/// The sparklines of the latest `frames` samples of `history`, as many of the latest as fit
/// lines `columns` wide (the header says how many earlier ones were left out): a header with
/// the actor and the time span, then per leaf (that was in the graph during the span) its
/// name, a glyph per frame and its weight at the last frame (`-` when it is gone). `None`
/// without samples.
pub fn sparklines(history: &Recording, frames: usize, columns: usize, style: Style) -> Option<String> {
    let wanted = &history.rows[history.rows.len().saturating_sub(frames)..];
    let names = leaves_in(history, wanted).into_iter().map(|(_, name)| super::display_width(&name)).max();
    let room = columns.saturating_sub(FRAME_OF_LINE + names.unwrap_or(0)).max(1);
    let rows = &wanted[wanted.len().saturating_sub(room)..];
    let (first, last) = (rows.first()?, rows.last()?);
    let series = leaves_in(history, rows);
    let mut frames = if rows.len() == 1 { "1 frame".to_string() } else { format!("{} frames", rows.len()) };
    if rows.len() < wanted.len() {
        frames.push_str(&format!(" ({} earlier left out to fit {columns} columns)", wanted.len() - rows.len()));
    }
    let header = format!("{} · t = {:.3} s … {:.3} s, {frames}", history.actor_name, first.time, last.time);
    let mut out = format!("{}\n", style.paint(&header, |t| t.bold().to_string()));
    if series.is_empty() {
        out.push_str("  (no leaves: the actor rests in the default pose)\n");
    }
    let width = series.iter().map(|(_, name)| super::display_width(name)).max().unwrap_or(0);
    for (column, name) in &series {
        let line: String = rows.iter().map(|r| glyph(value(r, *column))).collect();
        let now = value(last, *column).map_or_else(|| "-".to_string(), fixed);
        let line = style.paint(&line, |t| t.cyan().to_string());
        let _ = writeln!(out, "  {}  {line}  {now:>8}", super::padded(name, width));
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::recording::Column;

    fn weight(leaf: &str) -> Column {
        Column::Weight { leaf: leaf.into(), channel: "body".into(), additive: false }
    }

    /// A history of `idle` fading out over five frames while `run` (there from frame 3) fades
    /// in, at 60 Hz from frame 1.
    fn history() -> Recording {
        let idle = [1.0, 0.75, 0.5, 0.1, 0.0];
        let run = [None, None, Some(0.5), Some(0.9), Some(1.0)];
        let columns = vec![Column::Parameter("speed".into()), weight("idle"), weight("run")];
        let rows = (0..5)
            .map(|i| Row {
                time: (i + 1) as f64 / 60.0,
                frame: i + 1,
                values: vec![Some(1.0), Some(idle[i as usize]), run[i as usize]],
            })
            .collect();
        Recording::of_hero(columns, rows, Some(240))
    }

    #[test]
    fn zero_is_blank_and_any_visible_weight_shows() {
        assert_eq!(glyph(None), ' ');
        assert_eq!(glyph(Some(0.0)), ' ');
        assert_eq!(glyph(Some(4e-7)), ' ');
        assert_eq!(glyph(Some(1e-6)), '▁');
        assert_eq!(glyph(Some(0.125)), '▁');
        assert_eq!(glyph(Some(0.2)), '▂');
        assert_eq!(glyph(Some(0.4999999)), '▄');
        assert_eq!(glyph(Some(0.5000001)), '▄');
        assert_eq!(glyph(Some(0.9)), '▇');
        assert_eq!(glyph(Some(0.95)), '█');
        assert_eq!(glyph(Some(1.0)), '█');
        assert_eq!(glyph(Some(2.5)), '█');
    }

    #[test]
    fn one_line_per_leaf_over_the_latest_frames() {
        let text = sparklines(&history(), 60, 80, Style::default()).unwrap();
        assert_eq!(text, "hero · t = 0.017 s … 0.083 s, 5 frames\n  idle  █▆▄▁   0.000000\n  run     ▄▇█  1.000000\n");
        let text = sparklines(&history(), 2, 80, Style::default()).unwrap();
        assert_eq!(text, "hero · t = 0.067 s … 0.083 s, 2 frames\n  idle  ▁   0.000000\n  run   ▇█  1.000000\n");
    }

    #[test]
    fn the_latest_frames_that_fit_the_width_show_and_the_header_counts_the_rest() {
        // Lines of 2 + 4 (`idle`) + 2 + glyphs + 2 + 8 columns: 21 columns leave room for 3.
        let text = sparklines(&history(), 60, 21, Style::default()).unwrap();
        assert_eq!(
            text,
            "hero · t = 0.050 s … 0.083 s, 3 frames (2 earlier left out to fit 21 columns)\n\
             \x20 idle  ▄▁   0.000000\n  run   ▄▇█  1.000000\n"
        );
        assert!(text.lines().skip(1).all(|l| super::super::display_width(l) <= 21), "{text}");
        // However narrow, the latest frame shows.
        assert!(sparklines(&history(), 60, 5, Style::default()).unwrap().contains("1 frame (4 earlier left out"));
    }

    #[test]
    fn leaves_gone_or_not_yet_there_do_not_break_it() {
        let mut gone = history();
        for row in &mut gone.rows[3..] {
            row.values.truncate(1);
        }
        let text = sparklines(&gone, 60, 80, Style::default()).unwrap();
        assert!(text.ends_with("  idle  █▆▄           -\n  run     ▄           -\n"), "{text}");
        let text = sparklines(&history(), 1, 80, Style::default()).unwrap();
        assert!(text.starts_with("hero · t = 0.083 s … 0.083 s, 1 frame\n"), "{text}");
        let mut empty = history();
        empty.rows.clear();
        assert_eq!(sparklines(&empty, 60, 80, Style::default()), None);
        empty.columns.truncate(1);
        empty.rows = history().rows;
        assert!(sparklines(&empty, 60, 80, Style::default()).unwrap().contains("(no leaves"));
    }

    #[test]
    fn colour_only_when_asked() {
        let plain = sparklines(&history(), 60, 80, Style::default()).unwrap();
        let painted = sparklines(&history(), 60, 80, Style { color: true }).unwrap();
        assert!(!plain.contains('\u{1b}'));
        assert!(painted.contains('\u{1b}'));
    }
}
