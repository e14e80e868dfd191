//! The mixer graph of one actor: layers (bottom first) over named channels, each layer with a
//! source, a weight, an optional mask and an additive flag; and the effective weights that
//! say how much of the final result each leaf is (REFERENCE §6).
//!
//! Effective weights, per channel, top layer first with `remaining = 1`:
//! an override layer `k` covering the channel with `w_k = weight × coverage(source)` gives
//! each of its leaves `remaining × weight × share(leaf)` and leaves `remaining × (1 − w_k)`
//! below it; an additive layer gives `weight × share(leaf)` in the additive column and takes
//! nothing; what remains after layer 0 is the default pose (`<default>`).

use crate::blend::TreeRuntime;
use crate::blend::params::ParamState;
use crate::compile::{ParamId, Snapshot, TreeId};

/// The channel of a graph that does not name any.
pub const DEFAULT_CHANNEL: &str = "body";

/// What a layer plays.
#[derive(Clone, Debug)]
pub enum Source {
    BlendTree(TreeRuntime),
}

impl Source {
    fn leaf_names(&self) -> Vec<String> {
        match self {
            Source::BlendTree(tree) => tree.leaves().iter().map(|l| l.name.clone()).collect(),
        }
    }

    /// Each leaf's share of this source's output.
    fn shares(&self) -> &[f64] {
        match self {
            Source::BlendTree(tree) => tree.leaf_weights(),
        }
    }

    fn times(&self) -> &[f64] {
        match self {
            Source::BlendTree(tree) => tree.leaf_times(),
        }
    }

    /// How much of the channel this source fills, in [0, 1].
    fn coverage(&self) -> f64 {
        match self {
            Source::BlendTree(tree) => tree.coverage(),
        }
    }

    fn update(&mut self, snapshot: &Snapshot, params: &[ParamState], dt: f64) {
        match self {
            Source::BlendTree(tree) => tree.update(snapshot, params, dt),
        }
    }

    fn parameters(&self) -> &[ParamId] {
        match self {
            Source::BlendTree(tree) => tree.parameters(),
        }
    }
}

/// One layer of a graph.
#[derive(Clone, Debug)]
pub struct Layer {
    pub name: String,
    pub weight: f64,
    /// Channel indices this layer affects; `None` = every channel.
    pub mask: Option<Vec<usize>>,
    pub additive: bool,
    pub source: Source,
}

/// A leaf of the whole graph.
#[derive(Clone, Debug, PartialEq)]
pub struct GraphLeaf {
    /// Unique within the graph (`layer/name` where two layers share a name).
    pub name: String,
    pub layer: usize,
    /// Index among its layer's source leaves.
    pub index: usize,
}

/// An actor's graph with its latest effective weights.
#[derive(Clone, Debug)]
pub struct Graph {
    channels: Vec<String>,
    layers: Vec<Layer>,
    leaves: Vec<GraphLeaf>,
    /// `effective[channel][leaf]`.
    effective: Vec<Vec<f64>>,
    /// `additive[channel][leaf]`.
    additive: Vec<Vec<f64>>,
    /// `<default>` share per channel.
    defaults: Vec<f64>,
}

impl Graph {
    /// A graph with the given layers over `channels` (bottom layer first).
    pub fn new(channels: Vec<String>, layers: Vec<Layer>) -> Self {
        let mut leaves: Vec<GraphLeaf> = Vec::new();
        for (layer_index, layer) in layers.iter().enumerate() {
            for (index, name) in layer.source.leaf_names().into_iter().enumerate() {
                leaves.push(GraphLeaf { name, layer: layer_index, index });
            }
        }
        let names: Vec<String> = leaves.iter().map(|l| l.name.clone()).collect();
        for leaf in &mut leaves {
            let shared = names.iter().filter(|n| **n == leaf.name).count() > 1;
            if shared {
                leaf.name = format!("{}/{}", layers[leaf.layer].name, leaf.name);
            }
        }
        let zeros = vec![vec![0.0; leaves.len()]; channels.len()];
        Graph {
            defaults: vec![1.0; channels.len()],
            effective: zeros.clone(),
            additive: zeros,
            channels,
            layers,
            leaves,
        }
    }

    /// The graph of `bl.spawn{ blend_tree = … }`: one channel, one layer `base` at weight 1.
    pub fn for_blend_tree(snapshot: &Snapshot, tree: TreeId) -> Self {
        let layer = Layer {
            name: "base".into(),
            weight: 1.0,
            mask: None,
            additive: false,
            source: Source::BlendTree(TreeRuntime::new(snapshot, tree)),
        };
        Graph::new(vec![DEFAULT_CHANNEL.into()], vec![layer])
    }

    pub fn channels(&self) -> &[String] {
        &self.channels
    }

    pub fn layers(&self) -> &[Layer] {
        &self.layers
    }

    pub fn leaves(&self) -> &[GraphLeaf] {
        &self.leaves
    }

    pub fn leaf_index(&self, name: &str) -> Option<usize> {
        self.leaves.iter().position(|l| l.name == name)
    }

    /// Effective weights of every leaf in `channel`.
    pub fn weights(&self, channel: usize) -> &[f64] {
        &self.effective[channel]
    }

    /// Additive contributions of every leaf in `channel`.
    pub fn additive_weights(&self, channel: usize) -> &[f64] {
        &self.additive[channel]
    }

    /// The default pose's share of `channel`.
    pub fn default_share(&self, channel: usize) -> f64 {
        self.defaults[channel]
    }

    /// The output weight (coverage) of `channel`: `1 − <default>`.
    pub fn output_weight(&self, channel: usize) -> f64 {
        1.0 - self.defaults[channel]
    }

    /// A leaf's local time in seconds.
    pub fn local_time(&self, leaf: usize) -> f64 {
        let l = &self.leaves[leaf];
        self.layers[l.layer].source.times()[l.index]
    }

    /// Every parameter the graph reads, in order of first use.
    pub fn parameters(&self) -> Vec<ParamId> {
        let mut all = Vec::new();
        for layer in &self.layers {
            for &p in layer.source.parameters() {
                if !all.contains(&p) {
                    all.push(p);
                }
            }
        }
        all
    }

    /// Takes over `old`'s time state layer by layer, matching layers by name.
    pub fn carry_state_from(&mut self, snapshot: &Snapshot, old: &Graph) {
        for layer in &mut self.layers {
            let Some(previous) = old.layers.iter().find(|l| l.name == layer.name) else { continue };
            match (&mut layer.source, &previous.source) {
                (Source::BlendTree(new), Source::BlendTree(old)) => new.carry_time_from(snapshot, old),
            }
        }
    }

    /// One logic frame (`dt` seconds; 0 only evaluates): update every source, then recompute
    /// the effective weights.
    pub fn update(&mut self, snapshot: &Snapshot, params: &[ParamState], dt: f64) {
        for layer in &mut self.layers {
            layer.source.update(snapshot, params, dt);
        }
        self.compose();
    }

    fn compose(&mut self) {
        for channel in 0..self.channels.len() {
            let mut remaining = 1.0;
            self.effective[channel].fill(0.0);
            self.additive[channel].fill(0.0);
            for (layer_index, layer) in self.layers.iter().enumerate().rev() {
                if layer.mask.as_ref().is_some_and(|m| !m.contains(&channel)) {
                    continue;
                }
                let shares = layer.source.shares();
                let leaves = self.leaves.iter().enumerate().filter(|(_, l)| l.layer == layer_index);
                if layer.additive {
                    for (i, leaf) in leaves {
                        self.additive[channel][i] = layer.weight * shares[leaf.index];
                    }
                } else {
                    for (i, leaf) in leaves {
                        self.effective[channel][i] = remaining * layer.weight * shares[leaf.index];
                    }
                    remaining *= 1.0 - layer.weight * layer.source.coverage();
                }
            }
            self.defaults[channel] = remaining;
        }
    }
}
