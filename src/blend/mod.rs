//! Blend trees at run time: child weights from parameters (REFERENCE §2), nested trees
//! multiplied out into leaf weights, and the leaves' local times (§2.8).
//!
//! A [`TreeRuntime`] is one actor's instance of a compiled tree. Its nodes are the tree and
//! its nested trees in pre-order; its leaves are the clips they reach, in the same order.

pub mod one_d;
pub mod params;

use crate::compile::{ClipId, Layout, Motion, ParamId, Snapshot, TreeId};
use crate::config::raw::SyncMode;
use params::ParamState;

/// A clip reached through the tree, with its display name (`#2`, `#3`… for repeats).
#[derive(Clone, Debug, PartialEq)]
pub struct Leaf {
    pub name: String,
    pub clip: ClipId,
}

#[derive(Copy, Clone, Debug, PartialEq)]
enum Slot {
    Node(usize),
    Leaf(usize),
}

#[derive(Clone, Debug)]
struct Node {
    tree: TreeId,
    /// Where each child's weight goes.
    slots: Vec<Slot>,
    /// This node's child weights, from its parameters.
    child_weights: Vec<f64>,
}

/// One actor's instance of a blend tree.
#[derive(Clone, Debug)]
pub struct TreeRuntime {
    nodes: Vec<Node>,
    leaves: Vec<Leaf>,
    /// Every parameter the tree (and its nested trees) reads; their blend inputs are the
    /// cache key for the weights.
    inputs: Vec<ParamId>,
    last_inputs: Option<Vec<f64>>,
    /// This frame's blend inputs, compared with `last_inputs` (kept to avoid allocating).
    scratch_inputs: Vec<f64>,
    leaf_weights: Vec<f64>,
    sync: SyncMode,
    /// Normalized phase in [0, 1) and whole cycles completed (sync = normalized).
    phase: f64,
    cycles: u64,
    /// Local time of each leaf in seconds.
    times: Vec<f64>,
    evaluations: u64,
}

impl TreeRuntime {
    /// Instantiates tree `root` of `snapshot`, all times at 0, weights not yet computed.
    pub fn new(snapshot: &Snapshot, root: TreeId) -> Self {
        let mut runtime = TreeRuntime {
            nodes: Vec::new(),
            leaves: Vec::new(),
            inputs: Vec::new(),
            last_inputs: None,
            scratch_inputs: Vec::new(),
            leaf_weights: Vec::new(),
            sync: snapshot.blend_trees[root].sync,
            phase: 0.0,
            cycles: 0,
            times: Vec::new(),
            evaluations: 0,
        };
        runtime.add_node(snapshot, root);
        let mut seen: Vec<ClipId> = Vec::new();
        for leaf in &mut runtime.leaves {
            let repeats = seen.iter().filter(|&&c| c == leaf.clip).count();
            if repeats > 0 {
                leaf.name = format!("{}#{}", leaf.name, repeats + 1);
            }
            seen.push(leaf.clip);
        }
        runtime.leaf_weights = vec![0.0; runtime.leaves.len()];
        runtime.times = vec![0.0; runtime.leaves.len()];
        runtime
    }

    fn add_node(&mut self, snapshot: &Snapshot, tree: TreeId) -> usize {
        let index = self.nodes.len();
        let def = &snapshot.blend_trees[tree];
        self.nodes.push(Node { tree, slots: Vec::new(), child_weights: vec![0.0; def.children.len()] });
        for &param in &def.parameters {
            if !self.inputs.contains(&param) {
                self.inputs.push(param);
            }
        }
        let slots = def
            .children
            .iter()
            .map(|child| match *child {
                Motion::Clip(clip) => {
                    self.leaves.push(Leaf { name: snapshot.clips[clip].name.clone(), clip });
                    Slot::Leaf(self.leaves.len() - 1)
                }
                Motion::Tree(nested) => Slot::Node(self.add_node(snapshot, nested)),
            })
            .collect();
        self.nodes[index].slots = slots;
        index
    }

    pub fn leaves(&self) -> &[Leaf] {
        &self.leaves
    }

    /// Each leaf's weight: the product of the child weights on its path from the root.
    pub fn leaf_weights(&self) -> &[f64] {
        &self.leaf_weights
    }

    /// Each leaf's local time in seconds.
    pub fn leaf_times(&self) -> &[f64] {
        &self.times
    }

    /// The parameters the tree reads, in order of first use.
    pub fn parameters(&self) -> &[ParamId] {
        &self.inputs
    }

    /// How many times the weights were recomputed (they are cached while inputs are equal).
    pub fn evaluations(&self) -> u64 {
        self.evaluations
    }

    /// The tree's coverage: `min(1, Σ leaf weights)`; 0 when every weight is 0.
    pub fn coverage(&self) -> f64 {
        self.leaf_weights.iter().sum::<f64>().min(1.0)
    }

    /// Takes over `old`'s clock state after a reload: the shared phase, and each leaf's local
    /// time where `old` has a leaf of the same name (clamped to the new clip's length).
    pub fn carry_time_from(&mut self, snapshot: &Snapshot, old: &TreeRuntime) {
        self.phase = old.phase;
        self.cycles = old.cycles;
        for (leaf, time) in self.leaves.iter().zip(&mut self.times) {
            if let Some(i) = old.leaves.iter().position(|l| l.name == leaf.name) {
                *time = old.times[i].min(snapshot.clips[leaf.clip].length);
            }
        }
    }

    /// One logic frame: recompute weights if the blend inputs changed, then advance local
    /// times by `dt` seconds (0 to only evaluate).
    pub fn update(&mut self, snapshot: &Snapshot, params: &[ParamState], dt: f64) {
        self.scratch_inputs.clear();
        self.scratch_inputs.extend(self.inputs.iter().map(|&p| params[p].blend_input(&snapshot.parameters[p])));
        if self.last_inputs.as_ref() != Some(&self.scratch_inputs) {
            self.compute_weights(snapshot, params);
            let last = self.last_inputs.get_or_insert_with(Vec::new);
            last.clone_from(&self.scratch_inputs);
        }
        if dt > 0.0 {
            self.advance(snapshot, dt);
        }
    }

    fn compute_weights(&mut self, snapshot: &Snapshot, params: &[ParamState]) {
        self.evaluations += 1;
        for node in &mut self.nodes {
            let def = &snapshot.blend_trees[node.tree];
            let input = |i: usize| {
                let p = def.parameters[i];
                params[p].blend_input(&snapshot.parameters[p])
            };
            match &def.layout {
                Layout::OneD { thresholds } => one_d::weights(thresholds, input(0), &mut node.child_weights),
            }
        }
        self.multiply_out(0, 1.0);
    }

    /// Writes `scale × child weight` down the tree into the leaf weights.
    fn multiply_out(&mut self, node: usize, scale: f64) {
        for i in 0..self.nodes[node].slots.len() {
            let weight = scale * self.nodes[node].child_weights[i];
            match self.nodes[node].slots[i] {
                Slot::Leaf(leaf) => self.leaf_weights[leaf] = weight,
                Slot::Node(child) => self.multiply_out(child, weight),
            }
        }
    }

    /// REFERENCE §2.8. `normalized`: the shared phase advances by `dt / Σ(w_i·D_i)` (not at
    /// all when that sum is 0); looping leaves sit at `phase·D`, one-shots at `D` once a whole
    /// cycle has passed. `none`: each leaf advances by `dt`, looping leaves wrap into
    /// `[0, D)`, one-shots hold at `D`.
    fn advance(&mut self, snapshot: &Snapshot, dt: f64) {
        match self.sync {
            SyncMode::Normalized => {
                let cycle: f64 =
                    self.leaves.iter().zip(&self.leaf_weights).map(|(l, w)| w * snapshot.clips[l.clip].length).sum();
                if cycle > 0.0 {
                    let phase = self.phase + dt / cycle;
                    self.cycles += phase.floor() as u64;
                    self.phase = phase.fract();
                }
                for (leaf, time) in self.leaves.iter().zip(&mut self.times) {
                    let clip = &snapshot.clips[leaf.clip];
                    *time = if clip.looping || self.cycles == 0 { self.phase * clip.length } else { clip.length };
                }
            }
            SyncMode::None => {
                for (leaf, time) in self.leaves.iter().zip(&mut self.times) {
                    let clip = &snapshot.clips[leaf.clip];
                    *time =
                        if clip.looping { (*time + dt).rem_euclid(clip.length) } else { (*time + dt).min(clip.length) };
                }
            }
        }
    }
}
