//! Text a person reads: weight tables, event lines, blend-tree explanations (`explain`) and
//! sweeps (`sweep`). Deterministic bytes — fixed decimals, no map order, no clock — with
//! colour only when the caller's [`Style`] asks for it.

mod explain;
mod sweep;

use std::fmt::Write as _;

use owo_colors::OwoColorize;

use crate::event::{Event, FieldValue};
use crate::session::{ActorId, Session};

pub use explain::explain;
pub use sweep::{sweep_csv, sweep_table};

/// Cells of the widest bar (weight 1).
const BAR_CELLS: usize = 20;

/// Whether to colour output (only on a terminal, never with `NO_COLOR` or `--color never`).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Style {
    pub color: bool,
}

impl Style {
    fn paint(self, text: &str, paint: fn(&str) -> String) -> String {
        if self.color { paint(text) } else { text.to_string() }
    }
}

/// A number as every table prints it: six decimals, and never `-0.000000`.
pub fn fixed(value: f64) -> String {
    let text = format!("{value:.6}");
    if text == "-0.000000" { "0.000000".into() } else { text }
}

/// How a [`grid`] column lines up its cells.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Align {
    Left,
    Right,
}

/// A plain table: each line starts with `indent`, columns are as wide as their widest cell
/// (in characters) and two spaces apart, a header line first; no trailing spaces.
pub(crate) fn grid(indent: &str, headers: &[&str], aligns: &[Align], rows: &[Vec<String>]) -> String {
    let widths: Vec<usize> = (0..headers.len())
        .map(|c| rows.iter().map(|r| r[c].chars().count()).chain([headers[c].chars().count()]).max().unwrap_or(0))
        .collect();
    let line = |cells: Vec<&str>| {
        let mut text = indent.to_string();
        for (c, cell) in cells.into_iter().enumerate() {
            let pad = " ".repeat(widths[c] - cell.chars().count());
            let gap = if c == 0 { "" } else { "  " };
            match aligns[c] {
                Align::Left => write!(text, "{gap}{cell}{pad}"),
                Align::Right => write!(text, "{gap}{pad}{cell}"),
            }
            .expect("writing to a String cannot fail");
        }
        format!("{}\n", text.trim_end())
    };
    let mut out = line(headers.to_vec());
    for row in rows {
        out.push_str(&line(row.iter().map(String::as_str).collect()));
    }
    out
}

/// A horizontal bar of `weight × 20` cells drawn with eighth blocks; empty for 0.
pub fn bar(weight: f64) -> String {
    const EIGHTHS: [&str; 8] = ["", "▏", "▎", "▍", "▌", "▋", "▊", "▉"];
    let eighths = (weight.clamp(0.0, 1.0) * (BAR_CELLS * 8) as f64).round() as usize;
    format!("{}{}", "█".repeat(eighths / 8), EIGHTHS[eighths % 8])
}

/// The weight table of one actor: a title line, its parameters (raw and smoothed), then one
/// row per leaf — name, effective weight per channel, local time, a bar — and a
/// `<default>` row when the default pose has a share.
pub fn weight_table(session: &Session, id: ActorId, style: Style) -> String {
    let actor = session.actor(id);
    let graph = actor.graph();
    let snapshot = session.snapshot();
    let clock = session.clock();
    let mut out = String::new();
    let title = format!("{} · {} · frame {} · {} s", actor.name, actor.spec.describe(), clock.frame(), clock.time());
    let _ = writeln!(out, "{}", style.paint(&title, |t| t.bold().to_string()));

    let params = graph.parameters();
    let leaf_names = graph.leaves().iter().map(|l| l.name.as_str());
    let param_names = params.iter().map(|&p| snapshot.parameters[p].name.as_str());
    let width =
        leaf_names.chain(param_names).chain(["parameter", "<default>"]).map(|n| n.chars().count()).max().unwrap_or(9)
            + 2;
    let pad = |name: &str| format!("{name}{}", " ".repeat(width - name.chars().count()));

    if !params.is_empty() {
        let header = format!("  {}{:>10} {:>10}", pad("parameter"), "raw", "smoothed");
        let _ = writeln!(out, "{}", style.paint(&header, |t| t.dimmed().to_string()));
        for &p in &params {
            let state = actor.params()[p];
            let _ = writeln!(
                out,
                "  {}{:>10} {:>10}",
                pad(&snapshot.parameters[p].name),
                fixed(state.raw),
                fixed(state.smoothed)
            );
        }
    }

    let channels = graph.channels();
    let mut header = format!("  {}", pad("leaf"));
    for channel in channels {
        let label = if channels.len() == 1 { "weight" } else { channel.as_str() };
        let _ = write!(header, "{label:>10} ");
    }
    let _ = write!(header, "{:>10}", "time");
    let _ = writeln!(out, "{}", style.paint(&header, |t| t.dimmed().to_string()));
    for (i, leaf) in graph.leaves().iter().enumerate() {
        let mut row = format!("  {}", pad(&leaf.name));
        for c in 0..channels.len() {
            let _ = write!(row, "{:>10} ", fixed(graph.weights(c)[i]));
        }
        let _ = write!(row, "{:>10}", fixed(graph.local_time(i)));
        let _ = writeln!(
            out,
            "{}",
            format!("{row}  {}", style.paint(&bar(graph.weights(0)[i]), |t| t.cyan().to_string())).trim_end()
        );
    }
    if (0..channels.len()).any(|c| graph.default_share(c) > 1e-12) {
        let mut row = format!("  {}", pad("<default>"));
        for c in 0..channels.len() {
            let _ = write!(row, "{:>10} ", fixed(graph.default_share(c)));
        }
        let _ = writeln!(
            out,
            "{}  {}",
            row.trim_end(),
            style.paint(&bar(graph.default_share(0)), |t| t.dimmed().to_string())
        );
    }
    out
}

/// One event as a line: `frame F t=T actor: kind field=value …`.
pub fn event_line(event: &Event, style: Style) -> String {
    let mut line = format!("frame {} t={}", event.frame, event.time);
    if let Some(actor) = &event.actor {
        let _ = write!(line, " {actor}:");
    }
    let _ = write!(line, " {}", style.paint(event.kind.name(), |t| t.yellow().to_string()));
    for (key, value) in event.kind.fields() {
        match value {
            FieldValue::Text(text) => write!(line, " {key}={text}"),
            FieldValue::Int(n) => write!(line, " {key}={n}"),
            FieldValue::Number(x) => write!(line, " {key}={}", fixed(x)),
        }
        .expect("writing to a String cannot fail");
    }
    line
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bars_use_eighth_blocks() {
        assert_eq!(bar(0.0), "");
        assert_eq!(bar(1.0), "█".repeat(20));
        assert_eq!(bar(0.5), "█".repeat(10));
        assert_eq!(bar(0.05625), "█▏");
    }

    #[test]
    fn negative_zero_prints_as_zero() {
        assert_eq!(fixed(-1e-9), "0.000000");
        assert_eq!(fixed(0.1234567), "0.123457");
    }
}
