//! `actor:dot(path)`: an actor's live graph in Graphviz DOT — leaves feeding their layers,
//! layers feeding the output — with each edge labelled by the share it carries (per channel
//! when there are several) and drawn thicker the more it carries. `dot -Tsvg` renders it.

use std::fmt::Write as _;

use super::{fixed, source_summary};
use crate::graph::DEFAULT_EPSILON;
use crate::session::{ActorId, Session};

/// A DOT string literal.
fn quoted(text: &str) -> String {
    format!("\"{}\"", text.replace('\\', "\\\\").replace('"', "\\\"").replace('\n', "\\n"))
}

/// `0.250000`, or `lower 0.200000\nupper 0.800000` when the actor has several channels.
fn shares(channels: &[String], values: &[f64]) -> String {
    if channels.len() == 1 {
        return fixed(values[0]);
    }
    channels.iter().zip(values).map(|(c, v)| format!("{c} {}", fixed(*v))).collect::<Vec<_>>().join("\n")
}

/// Pen width for an edge carrying `share` at most.
fn pen(values: &[f64]) -> String {
    format!("{:.2}", 1.0 + 4.0 * values.iter().fold(0.0_f64, |a, &b| a.max(b)).clamp(0.0, 1.0))
}

/// The DOT text of actor `id`'s graph as it is now.
pub fn graph_dot(session: &Session, id: ActorId) -> String {
    let actor = session.actor(id);
    let graph = session.graph(id);
    let channels = graph.channels();
    let clock = session.clock();
    let mut out = format!("digraph {} {{\n", quoted(actor.name()));
    let title =
        format!("{} · {} · frame {} · {} s", actor.name(), actor.spec().describe(), clock.frame(), clock.time());
    let _ = writeln!(out, "  graph [rankdir=LR, labelloc=t, fontname=\"Helvetica\", label={}];", quoted(&title));
    out.push_str("  node [fontname=\"Helvetica\", fontsize=11];\n  edge [fontname=\"Helvetica\", fontsize=10];\n");
    let outputs: Vec<f64> = (0..channels.len()).map(|c| graph.output_weight(c)).collect();
    let _ = writeln!(
        out,
        "  output [shape=doubleoctagon, label={}];",
        quoted(&format!("output\n{}", shares(channels, &outputs)))
    );
    for (l, layer) in graph.layers().iter().enumerate() {
        let mut label = format!("layer {}\nweight {}", layer.name(), fixed(layer.weight));
        if let Some(mask) = layer.mask() {
            let names: Vec<&str> = mask.iter().map(|&c| channels[c].as_str()).collect();
            let _ = write!(label, "\nmask [{}]", names.join(", "));
        }
        if layer.additive {
            label.push_str("\nadditive");
        }
        let _ = write!(label, "\n{}", source_summary(session.snapshot(), &layer.source));
        let _ = writeln!(out, "  \"layer {l}\" [shape=box, style=rounded, label={}];", quoted(&label));
        let column = |c: usize| if layer.additive { graph.additive_weights(c) } else { graph.weights(c) };
        let carried: Vec<f64> = (0..channels.len())
            .map(|c| {
                graph.leaves().iter().enumerate().filter(|(_, leaf)| leaf.layer == l).map(|(i, _)| column(c)[i]).sum()
            })
            .collect();
        let style = if layer.additive { ", style=dashed" } else { "" };
        let _ = writeln!(
            out,
            "  \"layer {l}\" -> output [label={}, penwidth={}{style}];",
            quoted(&shares(channels, &carried)),
            pen(&carried)
        );
        for (i, leaf) in graph.leaves().iter().enumerate().filter(|(_, leaf)| leaf.layer == l) {
            let label = format!("{}\nt {}", leaf.name, fixed(graph.local_time(i)));
            let _ = writeln!(out, "  \"leaf {i}\" [shape=ellipse, label={}];", quoted(&label));
            let weights: Vec<f64> = (0..channels.len()).map(|c| column(c)[i]).collect();
            let _ = writeln!(
                out,
                "  \"leaf {i}\" -> \"layer {l}\" [label={}, penwidth={}];",
                quoted(&shares(channels, &weights)),
                pen(&weights)
            );
        }
    }
    let defaults: Vec<f64> = (0..channels.len()).map(|c| graph.default_share(c)).collect();
    if defaults.iter().any(|&d| d > DEFAULT_EPSILON) {
        out.push_str("  default [shape=plaintext, label=\"<default>\"];\n");
        let _ = writeln!(
            out,
            "  default -> output [label={}, penwidth={}, style=dotted];",
            quoted(&shares(channels, &defaults)),
            pen(&defaults)
        );
    }
    out.push_str("}\n");
    out
}
