//! Text a person reads: weight tables, event lines, blend-tree explanations (`explain`),
//! sweeps (`sweep`) and sparklines (`sparkline`). Deterministic bytes — fixed decimals, no map order, no clock — with
//! colour only when the caller's [`Style`] asks for it.

mod chart;
pub mod diff;
mod dot;
mod explain;
pub mod jsonl;
pub mod recording;
mod sparkline;
mod sweep;

use std::fmt::Write as _;

use owo_colors::OwoColorize;

use crate::event::{Event, FieldValue};
use crate::graph::{DEFAULT_EPSILON, Source, TimelineSlot, TransitionSet};
use crate::reload::ActorChange;
use crate::session::{ActorId, Resting, Session};
use crate::timeline::playback::Playback;

pub use chart::weight_chart;
pub use dot::graph_dot;
pub use explain::explain;
pub use sparkline::sparklines;
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

/// `n` and `noun`, the noun plural unless `n` is 1: `1 event`, `3 events`.
pub fn count(n: usize, noun: &str) -> String {
    format!("{n} {noun}{}", if n == 1 { "" } else { "s" })
}

/// A number as every table prints it: six decimals, and never `-0.000000`.
pub fn fixed(value: f64) -> String {
    let text = format!("{value:.6}");
    if text == "-0.000000" { "0.000000".into() } else { text }
}

/// A CSV field (RFC 4180), quoted when it holds a comma, a quote or a line break (quotes
/// doubled).
pub(crate) fn csv_field(text: &str) -> String {
    if text.contains([',', '"', '\n', '\r']) { format!("\"{}\"", text.replace('"', "\"\"")) } else { text.to_string() }
}

/// How a [`grid`] column lines up its cells.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Align {
    Left,
    Right,
}

/// How many columns of a terminal `text` takes: 2 for a wide character (`走`), 0 for a
/// combining one, 1 for the others. Tables line up names by it.
pub(crate) fn display_width(text: &str) -> usize {
    unicode_width::UnicodeWidthStr::width(text)
}

/// `text` followed by spaces up to `width` terminal columns ([`display_width`]).
pub(crate) fn padded(text: &str, width: usize) -> String {
    format!("{text}{}", " ".repeat(width.saturating_sub(display_width(text))))
}

/// A plain table: each line starts with `indent`, columns are as wide as their widest cell
/// (in terminal columns) and two spaces apart, a header line first; no trailing spaces.
pub(crate) fn grid(indent: &str, headers: &[&str], aligns: &[Align], rows: &[Vec<String>]) -> String {
    let widths: Vec<usize> = (0..headers.len())
        .map(|c| rows.iter().map(|r| display_width(&r[c])).chain([display_width(headers[c])]).max().unwrap_or(0))
        .collect();
    let line = |cells: Vec<&str>| {
        let mut text = indent.to_string();
        for (c, cell) in cells.into_iter().enumerate() {
            let pad = " ".repeat(widths[c] - display_width(cell));
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

/// `hero · graph fighter · frame 30 · 0.500000 s`: the first line of every actor view.
/// Why actor `name` rests in the default pose, for the views that would otherwise show an
/// empty graph with no word of why.
pub(crate) fn resting_note(name: &str, resting: &Resting) -> String {
    format!(
        "{name} rests in the default pose since reload generation {}, which left its asset missing ({}); it \
         moves again once a reload brings the asset back",
        resting.since_generation, resting.missing
    )
}

fn title(session: &Session, id: ActorId, what: &str, style: Style) -> String {
    let clock = session.clock();
    let text = format!("{} · {what} · frame {} · {} s", session.actor(id).name(), clock.frame(), clock.time());
    format!("{}\n", style.paint(&text, |t| t.bold().to_string()))
}

/// The weight table of one actor: a title line, its parameters (raw and smoothed), then one
/// row per leaf — name, effective weight per channel, local time, a bar — and a
/// `<default>` row when the default pose has a share.
pub fn weight_table(session: &Session, id: ActorId, style: Style) -> String {
    let actor = session.actor(id);
    let graph = session.graph(id);
    let snapshot = session.snapshot();
    let mut out = title(session, id, &actor.spec().describe(), style);

    // A resting actor's graph reads nothing, but the values of what it read are kept.
    let params = match actor.resting() {
        Some(resting) => {
            let _ =
                writeln!(out, "  {}", style.paint(&resting_note(actor.name(), resting), |t| t.yellow().to_string()));
            resting.parameters.iter().filter_map(|name| snapshot.parameter_id(name)).collect()
        }
        None => graph.parameters(),
    };
    let leaf_names = graph.leaves().iter().map(|l| l.name.as_str());
    let param_names = params.iter().map(|&p| snapshot.parameters[p].name.as_str());
    let width =
        leaf_names.chain(param_names).chain(["parameter", "<default>"]).map(display_width).max().unwrap_or(9) + 2;
    let pad = |name: &str| padded(name, width);

    if !params.is_empty() {
        let header = format!("  {}{:>10} {:>10}", pad("parameter"), "raw", "smoothed");
        let _ = writeln!(out, "{}", style.paint(&header, |t| t.dimmed().to_string()));
        for &p in &params {
            let state = session.params(id)[p];
            let _ = writeln!(
                out,
                "  {}{:>10} {:>10}",
                pad(&snapshot.parameters[p].name),
                fixed(state.raw),
                fixed(state.smoothed)
            );
        }
    }

    for layer in graph.layers() {
        if let Source::Transitions(set) = &layer.source {
            let _ = writeln!(out, "  layer {}: {}", layer.name(), transition_summary(set));
        }
    }
    let channels = graph.channels();
    let single = channels.len() == 1;
    let has_additive = graph.layers().iter().any(|l| l.additive);
    let mut header = format!("  {}", pad("leaf"));
    for channel in channels {
        let _ = write!(header, "{:>10} ", if single { "weight" } else { channel });
    }
    for channel in channels.iter().filter(|_| has_additive) {
        let _ = write!(header, "{:>10} ", if single { "additive".to_string() } else { format!("+{channel}") });
    }
    let _ = write!(header, "{:>10}", "time");
    let _ = writeln!(out, "{}", style.paint(&header, |t| t.dimmed().to_string()));
    for (i, leaf) in graph.leaves().iter().enumerate() {
        let mut row = format!("  {}", pad(&leaf.name));
        for c in 0..channels.len() {
            let _ = write!(row, "{:>10} ", fixed(graph.weights(c)[i]));
        }
        for c in (0..channels.len()).filter(|_| has_additive) {
            let _ = write!(row, "{:>10} ", fixed(graph.additive_weights(c)[i]));
        }
        let _ = write!(row, "{:>10}", fixed(graph.local_time(i)));
        // The leaf's largest weight in any channel: one that plays only on `upper` has a bar.
        let most = (0..channels.len()).map(|c| graph.weights(c)[i]).fold(0.0, f64::max);
        let bar = style.paint(&bar(most), |t| t.cyan().to_string());
        let _ = writeln!(out, "{}", format!("{row}  {bar}").trim_end());
    }
    if (0..channels.len()).any(|c| graph.default_share(c) > DEFAULT_EPSILON) {
        let mut row = format!("  {}", pad("<default>"));
        for c in 0..channels.len() {
            let _ = write!(row, "{:>10} ", fixed(graph.default_share(c)));
        }
        for _ in (0..channels.len()).filter(|_| has_additive) {
            let _ = write!(row, "{:>10} ", "");
        }
        let bar = style.paint(&bar(graph.default_share(0)), |t| t.dimmed().to_string());
        let _ = writeln!(out, "{row}{:>10}  {bar}", "");
    }
    out
}

/// One event as a line: `frame F t=T actor: kind field=value …`; `actor` is the name of the
/// actor it concerns ([`crate::event::EventLog::actor_name`]).
pub fn event_line(event: &Event, actor: Option<&str>, style: Style) -> String {
    let mut line = format!("frame {} t={}", event.frame, event.time);
    if let Some(actor) = actor {
        let _ = write!(line, " {actor}:");
    }
    let _ = write!(line, " {}", style.paint(event.kind.name(), kind_paint(event.kind.name())));
    for (key, value) in event.kind.fields() {
        match value {
            FieldValue::Text(text) => write!(line, " {key}={text}"),
            FieldValue::Int(n) => write!(line, " {key}={n}"),
            FieldValue::Number(x) => write!(line, " {key}={}", fixed(x)),
            FieldValue::Given(x) => write!(line, " {key}={x}"),
            FieldValue::List(items) => write!(line, " {key}={}", FieldValue::joined(&items)),
            FieldValue::Table(table) => write!(line, " {key}={}", FieldValue::inline(&table)),
        }
        .expect("writing to a String cannot fail");
    }
    line
}

/// The live graph of one actor as a tree (like Unity's PlayableGraph Visualizer): each layer
/// with its weight, mask and source; for timelines each track's layer mixer and each mixer's
/// inputs with raw → normalized weights and local times; for other sources each leaf's share.
pub fn graph_view(session: &Session, id: ActorId, style: Style) -> String {
    let actor = session.actor(id);
    let graph = session.graph(id);
    let snapshot = session.snapshot();
    let mut out = title(session, id, &actor.spec().describe(), style);
    let channels = graph.channels();
    let _ = writeln!(
        out,
        "output {}",
        channels
            .iter()
            .enumerate()
            .map(|(c, name)| format!("{name} {}", fixed(graph.output_weight(c))))
            .collect::<Vec<_>>()
            .join(" · ")
    );
    if let Some(resting) = actor.resting() {
        let _ = writeln!(out, "{}", style.paint(&resting_note(actor.name(), resting), |t| t.yellow().to_string()));
    }
    for (l, layer) in graph.layers().iter().enumerate() {
        let mask = layer.mask().map_or(String::new(), |m| {
            format!("  mask [{}]", m.iter().map(|&c| channels[c].as_str()).collect::<Vec<_>>().join(", "))
        });
        let additive = if layer.additive { "  additive" } else { "" };
        let source = source_summary(snapshot, &layer.source);
        let header = format!("layer {}  weight {}{mask}{additive}  {source}", layer.name(), fixed(layer.weight));
        let _ = writeln!(out, "{}", style.paint(&header, |t| t.cyan().to_string()));
        match &layer.source {
            Source::Timeline(TimelineSlot { playback: Some(p), .. }) => timeline_view(&mut out, snapshot, p, ""),
            _ => {
                for (i, leaf) in graph.leaves().iter().enumerate().filter(|(_, leaf)| leaf.layer == l) {
                    let _ = writeln!(
                        out,
                        "  {}  share {}  t {}",
                        leaf.name,
                        fixed(graph.source_share(i)),
                        fixed(graph.local_time(i))
                    );
                }
            }
        }
    }
    out
}

/// What a layer plays, in a few words: `blend_tree locomotion`, `timeline attack (playing,
/// t=0.2 s)`, the transition state.
pub(crate) fn source_summary(snapshot: &crate::compile::Snapshot, source: &Source) -> String {
    match source {
        Source::BlendTree(tree) => format!("blend_tree {}", snapshot.blend_trees[tree.root()].name),
        Source::Clip(clip) => format!("clip {}", clip.name),
        Source::Timeline(slot) => match &slot.playback {
            Some(p) => {
                format!("timeline {} ({}, t={} s)", snapshot.timelines[p.timeline].name, p.state().name(), p.time())
            }
            None => format!("timeline {} (not playing)", snapshot.timelines[slot.timeline].name),
        },
        Source::Transitions(set) => transition_summary(set),
    }
}

/// The seven-step debugging chain of seed 003 for one actor at the current frame: each
/// playback's local frame and state, each task clip's lifecycle state, the commands the
/// entity received this frame and what it made of them, and the entity and arbiter state.
pub fn trace_view(session: &Session, id: ActorId, style: Style) -> String {
    let actor = session.actor(id);
    let snapshot = session.snapshot();
    let clock = session.clock();
    let mut out = title(session, id, "trace", style);
    for layer in session.graph(id).layers() {
        match &layer.source {
            Source::Timeline(TimelineSlot { playback: Some(p), serial, .. }) => {
                let def = &snapshot.timelines[p.timeline];
                let _ = writeln!(
                    out,
                    "playback {}#{serial} on layer {}: {}, {}",
                    def.name,
                    layer.name(),
                    p.state().name(),
                    whereabouts(snapshot, p)
                );
                trace_tasks(&mut out, snapshot, p, "  ");
            }
            Source::Transitions(set) => {
                let _ = writeln!(out, "layer {}: {}", layer.name(), transition_summary(set));
            }
            _ => {}
        }
    }
    let frame = clock.frame();
    let commands: Vec<_> = actor.last_commands().iter().filter(|c| c.frame == frame).collect();
    out.push_str(if commands.is_empty() { "commands this frame: none\n" } else { "commands this frame:\n" });
    for command in commands {
        let _ = writeln!(out, "  {}  {} → {}", command.kind, command.source, command.result);
    }
    let sources: Vec<&str> = actor.entity().lock_sources().collect();
    let _ = writeln!(
        out,
        "entity: {}",
        if sources.is_empty() {
            "movement free".to_string()
        } else {
            format!("movement locked by {}", sources.join(", "))
        }
    );
    out
}

/// The task clips of playback `p` with their state, then each timeline it plays nested now
/// with its own, indented further.
fn trace_tasks(out: &mut String, snapshot: &crate::compile::Snapshot, p: &Playback, indent: &str) {
    let def = &snapshot.timelines[p.timeline];
    for (c, clip) in def.clips.iter().enumerate() {
        let (Some(task), Some((start, end))) = (&clip.task, clip.frames) else { continue };
        let flow = if task.flow { " (flow)" } else { "" };
        let state = p.task_state(snapshot, c);
        let _ = writeln!(out, "{indent}{}  {}{flow}  frames {start}–{end}  {state}", clip.name, task.kind.name());
    }
    for (c, nested) in p.playing_nested() {
        let name = &snapshot.timelines[nested.timeline].name;
        let _ = writeln!(out, "{indent}nested {name} in clip {}: {}", def.clips[c].name, whereabouts(snapshot, nested));
        trace_tasks(out, snapshot, nested, &format!("{indent}  "));
    }
}

/// Where a playback is: `t=2.600000 s, local frame 78`, without the frame for a timeline
/// without a frame rate (see [`Playback::local_frame`]).
fn whereabouts(snapshot: &crate::compile::Snapshot, p: &Playback) -> String {
    match p.local_frame(snapshot) {
        Some(frame) => format!("t={} s, local frame {frame}", p.time()),
        None => format!("t={} s", p.time()),
    }
}

/// `transitions: state Idle · fading to Hit (gen 2, α 0.500000) · 1 rejected`.
pub fn transition_summary(set: &TransitionSet) -> String {
    let mut text = format!("transitions: state {}", set.arbiter.current());
    if let Some(fade) = set.fades.last().filter(|f| set.arbiter.pending() == Some(&f.token)) {
        let _ =
            write!(text, " · fading to {} (gen {}, α {})", fade.token.to, fade.token.generation, fixed(fade.alpha()));
    }
    let _ = write!(text, " · {} rejected", set.arbiter.rejected());
    text
}

/// Tracks, their layer mixers and clips of one playback.
/// A playback's tracks, mixers and clips, each line after `indent`; a clip that plays a
/// timeline nested shows that timeline's own below it, indented further.
fn timeline_view(out: &mut String, snapshot: &crate::compile::Snapshot, playback: &Playback, indent: &str) {
    let def = &snapshot.timelines[playback.timeline];
    let view = playback.mixer_view();
    for (t, track) in def.tracks.iter().enumerate() {
        let _ = writeln!(out, "{indent}  track {}  output {}", track.name, fixed(view.track_outputs[t]));
        for &l in &track.layers {
            let layer = &def.layers[l];
            let muted = if layer.muted { "  muted" } else { "" };
            let _ = writeln!(
                out,
                "{indent}    mixer {}  input {} → {}{muted}",
                layer.name,
                fixed(view.layer_raw[l]),
                fixed(view.layer_inputs[l])
            );
            for &c in &layer.clips {
                let clip = &def.clips[c];
                let _ = writeln!(
                    out,
                    "{indent}      {}  raw {} → {}  t {}",
                    clip.name,
                    fixed(view.clip_weights[c]),
                    fixed(view.clip_shares[c]),
                    fixed(view.clip_times[c])
                );
                if let Some((_, nested)) = playback.playing_nested().find(|&(n, _)| n == c) {
                    let name = &snapshot.timelines[nested.timeline].name;
                    let _ = writeln!(out, "{indent}        nested {name} (t={} s)", nested.time());
                    timeline_view(out, snapshot, nested, &format!("{indent}        "));
                }
            }
        }
    }
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

/// What a failed reload left live: `reload failed (3 errors); generation 2 stays live` (the
/// generation its `reload_failed` event carries), or, before any library loaded, that none
/// has.
pub fn reload_failure(errors: usize, generation: u64) -> String {
    let live = match generation {
        0 => "no library has loaded yet".to_string(),
        g => format!("generation {g} stays live"),
    };
    format!("reload failed ({}); {live}", count(errors, "error"))
}

/// How many actors whose weights moved the one-line summary of a reload names.
const MOVED_NAMED: usize = 5;
/// How many blocks (an actor, or actors changed alike) a reload report prints in full; the
/// actors past them are summed up a line per kind of change.
const BLOCKS_SHOWN: usize = 5;

/// Who reads a reload report: a person at the prompt, who can ask for `:weights`, or
/// `run --watch`, which reads no input and so is shown the weights that moved.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Reader {
    Prompt,
    Watch,
}

/// The body of a reload report: each actor that lost or got back something — what was
/// removed or reset (everything else carried over by name), then each leaf's weight before
/// and after the reload at the current frame, a column pair per channel — and one line for
/// every actor that kept every parameter and local time, naming the first few whose weights
/// moved (for [`Reader::Watch`], which cannot ask for `:weights`, those show their weights
/// before and after too). Actors changed alike (a crowd) are one block (`300 actors (c1, c2,
/// …)`); past [`BLOCKS_SHOWN`] blocks, the rest are a line per kind of change, so a reload of
/// a big crowd never floods the terminal.
pub fn reload_report(changes: &[ActorChange], style: Style, reader: Reader) -> String {
    let mut out = String::new();
    if changes.is_empty() {
        out.push_str("  no actors yet\n");
    }
    let shown = |c: &&ActorChange| !c.kept_everything() || (reader == Reader::Watch && c.weights_changed());
    let (changed, kept): (Vec<&ActorChange>, Vec<&ActorChange>) = changes.iter().partition(shown);
    let blocks = alike(&changed, ActorChange::same_as);
    for block in blocks.iter().take(BLOCKS_SHOWN) {
        actor_reload(&mut out, block, style);
    }
    let rest: Vec<&ActorChange> = blocks.iter().skip(BLOCKS_SHOWN).flatten().copied().collect();
    let hint = if reader == Reader::Prompt { " (:weights shows them)" } else { "" };
    for group in alike(&rest, |a, b| a.spec == b.spec && news(a) == news(b)) {
        let names: Vec<&str> = group.iter().map(|c| c.name.as_str()).collect();
        let (count, listed) = (names.len(), names_listed(&names));
        let actors = if count == 1 { "actor" } else { "actors" };
        let news = match news(group[0]) {
            news if news.is_empty() => "weights moved".to_string(),
            news => news.join("; "),
        };
        let _ = writeln!(out, "{count} more {actors} of {} ({listed}): {news}{hint}", group[0].spec);
    }
    if !kept.is_empty() {
        let _ = writeln!(out, "{}", kept_summary(&kept));
    }
    out
}

/// `changes` in groups that `same` puts together, in order of each group's first actor.
fn alike<'a>(
    changes: &[&'a ActorChange],
    same: impl Fn(&ActorChange, &ActorChange) -> bool,
) -> Vec<Vec<&'a ActorChange>> {
    let mut groups: Vec<Vec<&ActorChange>> = Vec::new();
    for &change in changes {
        match groups.iter_mut().find(|g| same(g[0], change)) {
            Some(group) => group.push(change),
            None => groups.push(vec![change]),
        }
    }
    groups
}

/// One actor by name, or `N actors (a, b, c, d, e and N more)`.
fn actors_named(names: &[&str]) -> String {
    match names {
        [one] => one.to_string(),
        _ => format!("{} actors ({})", names.len(), names_listed(names)),
    }
}

/// `a, b, c, d, e and N more`: the first few of `names`.
fn names_listed(names: &[&str]) -> String {
    let mut named = names[..names.len().min(MOVED_NAMED)].join(", ");
    if names.len() > MOVED_NAMED {
        named.push_str(&format!(" and {} more", names.len() - MOVED_NAMED));
    }
    named
}

/// What a reload removed and reset for an actor: `removed: …`, `kept while it rests: …`
/// (parameters the library lost whose values a resting actor keeps), `reset: …` and
/// `restored: …` (those values back when the library declares them again), each if any.
fn news(change: &ActorChange) -> Vec<String> {
    let mut removed: Vec<String> = change.removed_params.iter().map(|p| format!("parameter {p}")).collect();
    removed.extend(change.removed_leaves.iter().map(|l| format!("leaf {l}")));
    let kept = change.kept_params.iter().map(|(p, v)| format!("parameter {p} = {}", fixed(*v))).collect();
    let restored = change.restored_params.iter().map(|(p, v)| format!("parameter {p} = {}", fixed(*v))).collect();
    let mut reset: Vec<String> =
        change.reset_params.iter().map(|(p, v)| format!("parameter {p} = {} (default)", fixed(*v))).collect();
    reset.extend(change.reset_leaves.iter().map(|l| format!("leaf {l} at time 0")));
    reset.extend(
        change.clamped_leaves.iter().map(|(l, from, to)| format!("leaf {l} time {} → {}", fixed(*from), fixed(*to))),
    );
    [("removed", removed), ("kept while it rests", kept), ("reset", reset), ("restored", restored)]
        .into_iter()
        .filter(|(_, list)| !list.is_empty())
        .map(|(label, list)| format!("{label}: {}", list.join(", ")))
        .collect()
}

/// One block of a reload report (an actor, or actors changed alike): what was removed or
/// reset, then its weights, before and after in each channel.
fn actor_reload(out: &mut String, block: &[&ActorChange], style: Style) {
    let change = block[0];
    let names: Vec<&str> = block.iter().map(|c| c.name.as_str()).collect();
    let _ = writeln!(
        out,
        "{}",
        style.paint(&format!("{} ({})", actors_named(&names), change.spec), |t| t.bold().to_string())
    );
    for line in news(change) {
        let (label, list) = line.split_once(": ").unwrap_or((&line, ""));
        let _ = writeln!(out, "  {}: {list}", style.paint(label, |t| t.yellow().to_string()));
    }
    let width = change.weights.iter().map(|r| display_width(&r.leaf)).chain([4]).max().unwrap_or(4) + 2;
    if change.channels.len() > 1 {
        let mut over = format!("  {}", padded("", width));
        for channel in &change.channels {
            let _ = write!(over, "{:>21}  ", channel);
        }
        let _ = writeln!(out, "{}", style.paint(over.trim_end(), |t| t.dimmed().to_string()));
    }
    let mut header = format!("  {}", padded("leaf", width));
    for _ in &change.channels {
        let _ = write!(header, "{:>10} {:>10}  ", "before", "after");
    }
    let _ = writeln!(out, "{}", style.paint(header.trim_end(), |t| t.dimmed().to_string()));
    for row in &change.weights {
        let mut line = format!("  {}", padded(&row.leaf, width));
        for (before, after) in row.before.iter().zip(&row.after) {
            let _ = write!(line, "{:>10} {:>10}  ", cell(*before), cell(*after));
        }
        let most = row.after.iter().flatten().copied().fold(0.0, f64::max);
        let bar = style.paint(&bar(most), |t| t.cyan().to_string());
        let _ = writeln!(out, "{}", format!("{}{bar}", line).trim_end());
    }
}

/// The line for the actors (at least one) that kept every parameter and local time: how
/// many, and which of them now weigh their leaves differently.
fn kept_summary(kept: &[&ActorChange]) -> String {
    let moved: Vec<&str> = kept.iter().filter(|c| c.weights_changed()).map(|c| c.name.as_str()).collect();
    let who = match kept {
        [one] => one.name.clone(),
        _ => format!("{} actors", kept.len()),
    };
    let weights = match (kept.len(), moved.len()) {
        (_, 0) => "no weight moved".to_string(),
        (1, _) => "its weights moved (:weights shows them)".to_string(),
        (_, n) => {
            let mut named = moved[..n.min(MOVED_NAMED)].join(", ");
            if n > MOVED_NAMED {
                named.push_str(&format!(" and {} more", n - MOVED_NAMED));
            }
            format!("the weights of {n} moved: {named} (:weights shows them)")
        }
    };
    format!("{who} kept every parameter and local time; {weights}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn columns_line_up_by_terminal_width() {
        // `走る` takes four columns, `é` (e and a combining accent) one.
        let rows = vec![vec!["走る".to_string(), "1".to_string()], vec!["e\u{301}".to_string(), "22".to_string()]];
        let table = grid("", &["leaf", "n"], &[Align::Left, Align::Right], &rows);
        assert_eq!(table, "leaf   n\n走る   1\ne\u{301}     22\n");
        assert_eq!(padded("走", 4), "走  ");
    }

    #[test]
    fn bars_use_eighth_blocks() {
        assert_eq!(bar(0.0), "");
        assert_eq!(bar(1.0), "█".repeat(20));
        assert_eq!(bar(0.5), "█".repeat(10));
        assert_eq!(bar(0.05625), "█▏");
    }

    /// A config's number prints as written, as when commands carried it as text.
    #[test]
    fn a_commands_given_numbers_print_as_written() {
        for (fade, text) in [(0.1, "fade=0.1"), (1.0, "fade=1"), (0.25, "fade=0.25")] {
            let args = vec![("fade".to_string(), FieldValue::Given(fade))];
            let command = crate::event::Command { kind: "PlayAnimation".into(), source: "a#1/b".into(), args };
            let kind = crate::event::EventKind::Command(Box::new(command));
            let event = Event::new(1, crate::time::Ticks(0), None, kind);
            let line = event_line(&event, None, Style::default());
            assert!(line.ends_with(&format!("source=a#1/b {text}")), "{line}");
        }
    }

    /// A failed reload names the generation that stays live, or that none has loaded yet.
    #[test]
    fn a_failed_reload_says_what_stays_live() {
        assert_eq!(reload_failure(3, 2), "reload failed (3 errors); generation 2 stays live");
        assert_eq!(reload_failure(1, 0), "reload failed (1 error); no library has loaded yet");
    }

    #[test]
    fn negative_zero_prints_as_zero() {
        assert_eq!(fixed(-1e-9), "0.000000");
        assert_eq!(fixed(0.1234567), "0.123457");
    }
}
