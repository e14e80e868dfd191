//! `actor:explain()` as text: for every blend tree of an actor (nested ones indented), its
//! blend inputs, how they produced the weights — the directional neighbour pair and centre
//! weight, the triangle or edge, or each child's gradient band and the neighbour that set
//! it — and the child weights. The data comes from the core ([`TreeRuntime::explain`]).
//!
//! [`TreeRuntime::explain`]: crate::blend::TreeRuntime::explain

use std::fmt::Write as _;

use super::{Align, fixed, grid, resting_note, source_summary};
use crate::blend::band::{Band, Limit};
use crate::blend::simple_directional::Solution;
use crate::blend::triangulated::Location;
use crate::blend::{Detail, NodeExplanation, positions};
use crate::compile::{BlendTree, Layout, Motion, Snapshot};
use crate::config::raw::BlendKind;
use crate::graph::{Source, TimelineSlot};
use crate::session::{ActorId, Session};
use crate::timeline::playback::Playback;

/// The explanation of every blend tree of actor `id`, layer by layer: a layer's own tree,
/// the trees its transition states play and those its timeline's active clips play (nested
/// timelines' too), each of the latter under a line naming the way to it and its share of
/// the layer (in the graph's first channel). An actor without a live blend tree gets a line
/// saying so and what its layers hold instead, or why it has none (its asset is missing since
/// a reload), so the header alone never reads as an explanation that went missing.
pub fn explain(session: &Session, id: ActorId) -> String {
    let actor = session.actor(id);
    let snapshot = session.snapshot();
    let mut out = format!("{} · explain · frame {}\n", actor.name(), session.clock().frame());
    let graph = session.graph(id);
    let layers = graph.layers();
    let mut explained = false;
    for layer in layers {
        let path = format!("layer {}", layer.name());
        explained |= source_text(&mut out, snapshot, &layer.source, &path, None);
    }
    if let Some(resting) = actor.resting() {
        let _ = writeln!(out, "no blend tree to explain: {}", resting_note(actor.name(), resting));
    } else if !explained {
        out.push_str("no blend tree to explain; its layers hold:\n");
        for layer in layers {
            let _ = writeln!(out, "  layer {}  {}", layer.name(), source_summary(snapshot, &layer.source));
        }
    }
    out
}

/// The trees `source` plays now, each under a line `path` (with ` · share S` once the way to
/// it went through a transition state or a timeline clip: `share` is its share of the layer);
/// whether there was any.
fn source_text(out: &mut String, snapshot: &Snapshot, source: &Source, path: &str, share: Option<f64>) -> bool {
    match source {
        Source::BlendTree(runtime) => {
            match share {
                Some(share) => {
                    let _ = writeln!(out, "{path} · share {}", fixed(share));
                }
                None => {
                    let _ = writeln!(out, "{path}");
                }
            }
            for node in runtime.explain() {
                out.push_str(&node_text(snapshot, &node, share.unwrap_or(1.0)));
            }
            true
        }
        Source::Transitions(set) => {
            let mut any = false;
            for state in &set.states {
                let path = format!("{path} · state {}", state.name);
                any |= source_text(out, snapshot, &state.source, &path, Some(share.unwrap_or(1.0) * state.weight));
            }
            any
        }
        Source::Timeline(TimelineSlot { playback: Some(playback), .. }) => {
            timeline_text(out, snapshot, playback, path, share.unwrap_or(1.0))
        }
        Source::Timeline(_) | Source::Clip(_) => false,
    }
}

/// [`source_text`] of a playback whose pose is worth `share` of the layer: the trees its
/// active clips play, then those of the timelines they play nested.
fn timeline_text(out: &mut String, snapshot: &Snapshot, playback: &Playback, path: &str, share: f64) -> bool {
    let def = &snapshot.timelines[playback.timeline];
    let path = format!("{path} · timeline {}", def.name);
    let mut any = false;
    for (c, runtime, clip_share) in playback.playing_trees(snapshot, 0) {
        let path = format!("{path} · clip {}", def.clips[c].name);
        let _ = writeln!(out, "{path} · share {}", fixed(share * clip_share));
        for node in runtime.explain() {
            out.push_str(&node_text(snapshot, &node, share * clip_share));
        }
        any = true;
    }
    for (c, nested) in playback.playing_nested() {
        let path = format!("{path} · clip {}", def.clips[c].name);
        any |= timeline_text(out, snapshot, nested, &path, share * playback.clip_share(snapshot, 0, c));
    }
    any
}

fn motion_name(snapshot: &Snapshot, motion: Motion) -> &str {
    match motion {
        Motion::Clip(c) => &snapshot.clips[c].name,
        Motion::Tree(t) => &snapshot.blend_trees[t].name,
    }
}

/// One tree of an explanation; `scale` is the root's share of the layer (1 for a layer's own
/// tree), which multiplies the nested trees' shares.
fn node_text(snapshot: &Snapshot, node: &NodeExplanation, scale: f64) -> String {
    let tree = &snapshot.blend_trees[node.tree];
    let indent = "  ".repeat(node.depth + 1);
    let names: Vec<&str> = tree.children.iter().map(|&m| motion_name(snapshot, m)).collect();
    let mut out = format!("{indent}{} ({})", tree.name, tree.kind.name());
    if node.depth > 0 {
        let _ = write!(out, " · share {}", fixed(scale * node.share));
    }
    out.push('\n');
    let inner = format!("{indent}  ");
    if tree.kind != BlendKind::Direct {
        let _ = writeln!(out, "{inner}input {}", inputs_text(snapshot, tree, &node.inputs));
    }
    for line in detail_lines(tree, &names, &node.detail, &node.inputs) {
        let _ = writeln!(out, "{inner}{line}");
    }
    let (headers, aligns, rows) = child_rows(snapshot, tree, &names, node);
    out.push_str(&grid(&inner, &headers, &aligns, &rows));
    out
}

/// `speed = 0.750000` or `(move_x, move_y) = (0.300000, 0.600000)`.
fn inputs_text(snapshot: &Snapshot, tree: &BlendTree, inputs: &[f64]) -> String {
    let names: Vec<&str> = tree.parameters.iter().map(|&p| snapshot.parameters[p].name.as_str()).collect();
    let values: Vec<String> = inputs.iter().map(|&v| fixed(v)).collect();
    if names.len() == 1 {
        format!("{} = {}", names[0], values.join(", "))
    } else {
        format!("({}) = ({})", names.join(", "), values.join(", "))
    }
}

/// What produced the weights, in words.
fn detail_lines(tree: &BlendTree, names: &[&str], detail: &Detail, inputs: &[f64]) -> Vec<String> {
    match (detail, &tree.layout) {
        (Detail::Neighbours(solution), Layout::SimpleDirectional(_)) => vec![neighbours_text(names, solution, inputs)],
        (Detail::Location(location), Layout::Triangulated(layout)) => {
            let triangles: Vec<String> =
                layout.triangles().map(|t| format!("({})", t.map(|i| names[i]).join(", "))).collect();
            if triangles.is_empty() {
                let along = "no triangles (fewer than three children, or all on one line): weights follow the line";
                return vec![along.to_string(), location_text(names, location, "segment")];
            }
            vec![format!("triangles: {}", triangles.join(", ")), location_text(names, location, "triangle edge")]
        }
        (Detail::Bands(bands), _) if bands.iter().all(|b| b.value == 0.0) => {
            let fallback =
                if tree.kind == BlendKind::FreeformCartesian { "the nearest child gets 1" } else { "1/n each" };
            vec![format!("every band is 0, so the weights fall back to {fallback}")]
        }
        (_, Layout::Direct { normalize: true }) => {
            vec![format!("normalize: weights are the parameters divided by their sum ({})", fixed(inputs.iter().sum()))]
        }
        (_, Layout::Direct { normalize: false }) => {
            vec!["weights are the parameters as they are (normalize = false)".to_string()]
        }
        _ => Vec::new(),
    }
}

fn neighbours_text(names: &[&str], solution: &Solution, inputs: &[f64]) -> String {
    let centre = format!("centre c = {}", fixed(solution.centre));
    match (solution.clockwise, solution.counter_clockwise) {
        (Some((a, wa)), Some((b, wb))) => format!(
            "between `{}` (clockwise, {}) and `{}` (counter-clockwise, {}); {centre}",
            names[a],
            fixed(wa),
            names[b],
            fixed(wb)
        ),
        _ if inputs.iter().all(|&v| v == 0.0) => format!("input at (0, 0): {centre}"),
        (None, _) => format!("no direction clockwise of the input: {centre}"),
        (_, None) => format!("no direction counter-clockwise of (or on) the input: {centre}"),
    }
}

/// Where the input fell; `edge` names what an edge is (a triangle edge, or a segment of the
/// line when there are no triangles).
fn location_text(names: &[&str], location: &Option<Location>, edge: &str) -> String {
    match location {
        None => "no children".to_string(),
        Some(Location::Vertex(i)) => format!("on `{}`", names[*i]),
        Some(Location::Inside { corners, .. }) => {
            format!("inside triangle ({})", corners.map(|i| format!("`{}`", names[i])).join(", "))
        }
        Some(Location::Edge { ends: [a, b], t }) => {
            format!("closest point on {edge} `{}`–`{}`, t = {}", names[*a], names[*b], fixed(*t))
        }
    }
}

/// The per-child table: where each child sits, its band (freeform types), and its weight.
fn child_rows(
    snapshot: &Snapshot,
    tree: &BlendTree,
    names: &[&str],
    node: &NodeExplanation,
) -> (Vec<&'static str>, Vec<Align>, Vec<Vec<String>>) {
    let weight = |i: usize| fixed(node.weights[i]);
    let place = |i: usize| -> String {
        match &tree.layout {
            Layout::OneD { thresholds } => format!("{}", thresholds.values()[i]),
            Layout::Direct { .. } => snapshot.parameters[tree.parameters[i]].name.clone(),
            layout => {
                let [x, y] = positions(layout)[i];
                format!("({x}, {y})")
            }
        }
    };
    let place_header = match tree.kind {
        BlendKind::OneD => "threshold",
        BlendKind::Direct => "parameter",
        _ => "position",
    };
    let rows = (0..names.len()).map(|i| vec![names[i].to_string(), place(i)]);
    match &node.detail {
        Detail::Bands(bands) => {
            let rows = rows
                .zip(bands)
                .enumerate()
                .map(|(i, (mut row, band))| {
                    row.extend([fixed(band.value), limit_text(tree.kind, names, band), weight(i)]);
                    row
                })
                .collect();
            let headers = vec!["child", place_header, "band", "limited by", "weight"];
            (headers, vec![Align::Left, Align::Right, Align::Right, Align::Left, Align::Right], rows)
        }
        _ if tree.kind == BlendKind::Direct => {
            let rows = rows
                .enumerate()
                .map(|(i, mut row)| {
                    row.extend([fixed(node.inputs[i]), weight(i)]);
                    row
                })
                .collect();
            let aligns = vec![Align::Left, Align::Left, Align::Right, Align::Right];
            (vec!["child", place_header, "value", "weight"], aligns, rows)
        }
        _ => {
            let rows = rows
                .enumerate()
                .map(|(i, mut row)| {
                    row.push(weight(i));
                    row
                })
                .collect();
            (vec!["child", place_header, "weight"], vec![Align::Left, Align::Right, Align::Right], rows)
        }
    }
}

/// What set a band: the start value (1 for cartesian, the angle term `1 − |θ|/π` for
/// directional) or a neighbour, which cuts the child to 0 when its band is `≤ 0`.
fn limit_text(kind: BlendKind, names: &[&str], band: &Band) -> String {
    match band.limit {
        Limit::Start if kind == BlendKind::FreeformDirectional => "angle to the input".to_string(),
        Limit::Start => "nothing (capped at 1)".to_string(),
        Limit::Neighbour { child, h } if band.value == 0.0 => format!("cut by {}, h = {}", names[child], fixed(h)),
        Limit::Neighbour { child, h } => format!("{}, h = {}", names[child], fixed(h)),
    }
}
