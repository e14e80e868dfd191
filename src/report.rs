//! Text a person reads: weight tables and event lines. Deterministic bytes — fixed decimals,
//! no map order, no clock — with colour only when the caller's [`Style`] asks for it.

use std::fmt::Write as _;

use owo_colors::OwoColorize;

use crate::event::{Event, FieldValue};
use crate::reload::ActorChange;
use crate::session::{ActorId, Session};

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
    let _ = write!(line, " {}", style.paint(event.kind.name(), kind_paint(event.kind.name())));
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

/// The colour of an event kind, by family: reloads and lifecycle starts green, failures and
/// rejections red, ends blue, signals and commands magenta, warnings yellow, the rest cyan.
fn kind_paint(kind: &str) -> fn(&str) -> String {
    match kind {
        "reload_applied" | "clip_begin" | "clip_enable" | "transition_begin" | "transition_committed" => {
            |t| t.green().to_string()
        }
        "reload_failed" | "stale_completion_rejected" | "duplicate_completion_rejected" | "timeline_missing" => {
            |t| t.red().bold().to_string()
        }
        "clip_finish"
        | "clip_disable"
        | "clip_interrupt"
        | "task_dispose"
        | "timeline_complete"
        | "timeline_interrupted" => |t| t.blue().to_string(),
        "signal" | "command" | "movement_locked" | "movement_unlocked" => |t| t.magenta().to_string(),
        "warning" => |t| t.yellow().bold().to_string(),
        _ => |t| t.cyan().to_string(),
    }
}

/// A weight as a reload report cell: fixed decimals, or `—` where the leaf does not exist.
fn cell(weight: Option<f64>) -> String {
    weight.map_or_else(|| "—".to_string(), fixed)
}

/// The body of a reload report: per actor, what was removed or reset (everything else carried
/// over by name), then each leaf's weight before and after the reload at the current frame.
pub fn reload_report(changes: &[ActorChange], style: Style) -> String {
    let mut out = String::new();
    if changes.is_empty() {
        out.push_str("  no actors yet\n");
    }
    for change in changes {
        let _ =
            writeln!(out, "{}", style.paint(&format!("{} ({})", change.name, change.spec), |t| t.bold().to_string()));
        let mut removed: Vec<String> = change.removed_params.iter().map(|p| format!("parameter {p}")).collect();
        removed.extend(change.removed_leaves.iter().map(|l| format!("leaf {l}")));
        let mut reset: Vec<String> =
            change.reset_params.iter().map(|(p, v)| format!("parameter {p} = {} (default)", fixed(*v))).collect();
        reset.extend(change.reset_leaves.iter().map(|l| format!("leaf {l} at time 0")));
        reset.extend(
            change
                .clamped_leaves
                .iter()
                .map(|(l, from, to)| format!("leaf {l} time {} → {}", fixed(*from), fixed(*to))),
        );
        if change.kept_everything() {
            out.push_str("  kept: every parameter and local time\n");
        }
        for (label, list) in [("removed", removed), ("reset", reset)] {
            if !list.is_empty() {
                let _ = writeln!(out, "  {}: {}", style.paint(label, |t| t.yellow().to_string()), list.join(", "));
            }
        }
        let width = change.weights.iter().map(|r| r.leaf.chars().count()).chain([4]).max().unwrap_or(4) + 2;
        let header = format!("  {:width$}{:>10} {:>10}", "leaf", "before", "after");
        let _ = writeln!(out, "{}", style.paint(&header, |t| t.dimmed().to_string()));
        for row in &change.weights {
            let line = format!("  {:width$}{:>10} {:>10}", row.leaf, cell(row.before), cell(row.after));
            let bar = style.paint(&bar(row.after.unwrap_or(0.0)), |t| t.cyan().to_string());
            let _ = writeln!(out, "{}", format!("{line}  {bar}").trim_end());
        }
    }
    out
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
