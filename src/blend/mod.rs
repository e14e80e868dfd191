//! Blend trees at run time: child weights from parameters (REFERENCE §2), nested trees
//! multiplied out into leaf weights, and the leaves' local times (§2.8).
//!
//! A [`TreeRuntime`] is one actor's instance of a compiled tree. Its nodes are the tree and
//! its nested trees in pre-order; its leaves are the clips they reach, in the same order.
//! Each type's weight math is a pure function in its own file; [`child_weights`] picks it.

pub mod band;
pub mod direct;
pub mod freeform_cartesian;
pub mod freeform_directional;
pub mod geometry;
pub mod one_d;
pub mod params;
pub mod simple_directional;
pub mod sweep;
pub mod triangulated;

use std::ops::Range;
use std::sync::Arc;

use crate::compile::{AT_END, ClipId, Layout, Motion, ParamId, Parameter, Placement, Snapshot, TreeId};
use crate::config::raw::SyncMode;
use geometry::Point;
use one_d::{SizedThresholds, ThresholdSlices, Thresholds};
use params::ParamState;

/// What every 2D layout offers: its children's positions and their weights at an input.
pub trait Layout2d {
    /// The children's positions, in layout order.
    fn positions(&self) -> &[Point];
    /// Child weights for input `p`, written to `out` (one per child).
    fn weights(&self, p: Point, out: &mut [f64]);
}

/// A tree's child weights from its blend inputs, written to `out` (one weight per child, in
/// layout order). The inputs are `[x]` for `1d`, `[x, y]` for the 2D types and one value per
/// child for `direct` — see `Node::write_blend_inputs`.
///
/// Inlined where a tree evaluates, with the `1d` weights (a handful of compares): their call
/// was a third of their cost, as the function's frame is sized for the 2D layouts, which
/// stay behind one call.
#[inline(always)]
pub fn child_weights(layout: &Layout, inputs: &[f64], out: &mut [f64]) {
    match layout {
        Layout::OneD { thresholds } => thresholds.weights(inputs[0], out),
        other => other_child_weights(other, inputs, out),
    }
}

/// [`child_weights`] of the layouts other than `1d`.
#[inline(never)]
fn other_child_weights(layout: &Layout, inputs: &[f64], out: &mut [f64]) {
    match layout {
        Layout::OneD { thresholds } => thresholds.weights(inputs[0], out),
        Layout::SimpleDirectional(l) => l.weights(point(inputs), out),
        Layout::FreeformCartesian(l) => l.weights(point(inputs), out),
        Layout::FreeformDirectional(l) => l.weights(point(inputs), out),
        Layout::Triangulated(l) => l.weights(point(inputs), out),
        Layout::Direct { normalize } => direct::weights(inputs, *normalize, out),
    }
}

/// The children's positions of a 2D layout (empty for `1d` and `direct`).
pub fn positions(layout: &Layout) -> &[Point] {
    match layout {
        Layout::OneD { .. } | Layout::Direct { .. } => &[],
        Layout::SimpleDirectional(l) => l.positions(),
        Layout::FreeformCartesian(l) => l.positions(),
        Layout::FreeformDirectional(l) => l.positions(),
        Layout::Triangulated(l) => l.positions(),
    }
}

fn point(inputs: &[f64]) -> Point {
    [inputs[0], inputs[1]]
}

/// Divides every weight by their sum. Returns false, leaving the weights as they are, when
/// the sum is not positive.
pub fn normalize(weights: &mut [f64]) -> bool {
    let sum: f64 = weights.iter().sum();
    if sum > 0.0 {
        weights.iter_mut().for_each(|w| *w /= sum);
        return true;
    }
    false
}

/// Why a tree's child weights are what they are: the data behind `actor:explain()`.
#[derive(Clone, Debug, PartialEq)]
pub enum Detail {
    /// `1d` and `direct`: the weights follow from the inputs alone.
    Plain,
    /// `2d_simple_directional`: the directions either side of the input and the centre weight.
    Neighbours(simple_directional::Solution),
    /// The freeform types: every child's gradient band.
    Bands(Vec<band::Band>),
    /// `2d_triangulated`: the child, triangle or edge the input fell on.
    Location(Option<triangulated::Location>),
}

/// The explanation data of a layout at `inputs` (see [`child_weights`] for the inputs).
pub fn explain_layout(layout: &Layout, inputs: &[f64]) -> Detail {
    match layout {
        Layout::OneD { .. } | Layout::Direct { .. } => Detail::Plain,
        Layout::SimpleDirectional(l) => Detail::Neighbours(l.solve(point(inputs))),
        Layout::FreeformCartesian(l) => Detail::Bands(l.bands(point(inputs))),
        Layout::FreeformDirectional(l) => Detail::Bands(l.bands(point(inputs))),
        Layout::Triangulated(l) => Detail::Location(l.locate(point(inputs))),
    }
}

/// One tree of a [`TreeRuntime`] as last evaluated, with why its weights are what they are.
#[derive(Clone, Debug, PartialEq)]
pub struct NodeExplanation {
    pub tree: TreeId,
    /// 0 for the root, 1 for a tree nested in it, …
    pub depth: usize,
    /// This tree's share of the whole: the product of the child weights above it.
    pub share: f64,
    /// Its blend inputs (see [`child_weights`]).
    pub inputs: Vec<f64>,
    /// Its child weights, in layout order.
    pub weights: Vec<f64>,
    pub detail: Detail,
}

/// A clip reached through the tree, with its display name (`#2`, `#3`… for repeats).
#[derive(Clone, Debug, PartialEq)]
pub struct Leaf {
    pub name: String,
    pub clip: ClipId,
}

/// The leaves' clips as their times are placed: each clip's length and looping, copied from
/// the snapshot so that the runtime places its times without it. Two arrays in leaf order
/// rather than one of pairs, so that the time step reads the lengths with the times' own
/// index, and the looping flags only when a time wraps.
#[derive(Clone, Debug, Default, PartialEq)]
struct Placements {
    lengths: Vec<f64>,
    looping: Vec<bool>,
}

impl Placements {
    fn push(&mut self, placement: Placement) {
        self.lengths.push(placement.length);
        self.looping.push(placement.looping);
    }

    fn get(&self, leaf: usize) -> Placement {
        Placement { length: self.lengths[leaf], looping: self.looping[leaf] }
    }

    fn iter(&self) -> impl Iterator<Item = Placement> + '_ {
        self.lengths.iter().zip(&self.looping).map(|(&length, &looping)| Placement { length, looping })
    }
}

impl FromIterator<Placement> for Placements {
    fn from_iter<I: IntoIterator<Item = Placement>>(placements: I) -> Self {
        let mut all = Placements::default();
        placements.into_iter().for_each(|p| all.push(p));
        all
    }
}

#[derive(Copy, Clone, Debug, PartialEq)]
enum Slot {
    Node(usize),
    Leaf(usize),
}

#[derive(Clone, Debug, PartialEq)]
struct Node {
    tree: TreeId,
    /// Its children: indices into the shape's slots and the runtime's child weights.
    children: Range<usize>,
    /// Its blend inputs: indices into the runtime's blend inputs.
    inputs: Range<usize>,
    /// What a frame reads of the tree, copied from the library when the shape is built, so
    /// that the way from a parameter to the weights passes through no lookups: its layout,
    /// whether it blends a 2D pair, and each parameter it reads with its settings.
    layout: Layout,
    two_d: bool,
    parameters: Vec<(ParamId, Parameter)>,
}

impl Node {
    /// Writes the node's blend inputs to `out` (one per parameter): each parameter's smoothed
    /// value through its dead zone and curve ([`ParamState::blend_input`]); for the 2D types
    /// the pair goes through the radial dead zone instead ([`params::blend_input_2d`]).
    /// Returns whether any input differs from what `out` held (a NaN always counts as
    /// changed).
    fn write_blend_inputs(&self, params: &[ParamState], out: &mut [f64]) -> bool {
        let mut changed = false;
        let mut set = |slot: &mut f64, value: f64| {
            changed |= *slot != value;
            *slot = value;
        };
        if self.two_d {
            let [(x, x_settings), (y, y_settings)] = [&self.parameters[0], &self.parameters[1]];
            let [vx, vy] = params::blend_input_2d((&params[*x], &params[*y]), (x_settings, y_settings));
            set(&mut out[0], vx);
            set(&mut out[1], vy);
        } else {
            for (slot, (id, settings)) in out.iter_mut().zip(&self.parameters) {
                set(slot, params[*id].blend_input(settings));
            }
        }
        changed
    }
}

/// A flat `1d` tree (one node: its children are its leaves) as a frame reads it: the node's
/// one parameter with its settings, and its thresholds, hoisted out of the node when the shape
/// is built. Its frame is one blend input, one compare with the cached input and the 1D
/// weights written straight to the leaf weights: no node loop, no input ranges, no 2D or
/// layout checks. The numbers are exactly those of the general path ([`TreeShape::evaluate`]).
#[derive(Clone, Debug, PartialEq)]
struct FlatOneD {
    parameter: ParamId,
    settings: Parameter,
    /// Whether the parameter is blended as it is: no curve and no dead zone (`dead_zone ≤ 0`,
    /// so that `|x| < dead_zone` never holds, a NaN `x` included), which makes
    /// [`ParamState::blend_input`] the smoothed value, exactly. Decided when the shape is built,
    /// so that such a parameter's frame reads no settings and calls nothing
    /// ([`TreeRuntime::update`]).
    plain: bool,
    thresholds: Thresholds,
}

impl FlatOneD {
    /// The flat path of a shape whose only node is `node`: `None` unless it blends `1d`.
    fn of(node: &Node) -> Option<Self> {
        let (Layout::OneD { thresholds }, [(parameter, settings)]) = (&node.layout, &node.parameters[..]) else {
            return None;
        };
        let plain = settings.curve.is_empty() && settings.dead_zone <= 0.0;
        Some(FlatOneD { parameter: *parameter, settings: settings.clone(), plain, thresholds: thresholds.clone() })
    }

    /// A flat `1d` tree's numbers cut into its leaf weights, its leaf times and its one blend
    /// input, last, with the thresholds and the leaves' lengths beside them: a flat tree keeps
    /// no child weights (they are its leaf weights), so its block is `2·leaves + 1` long
    /// ([`Counts::total`]). Everything is cut at the thresholds' count, so that
    /// [`ThresholdSlices::weights_with`] finds it as long as its thresholds and checks nothing
    /// more.
    #[inline(always)]
    fn parts<'a>(&'a self, shape: &'a TreeShape, numbers: &'a mut [f64]) -> FlatParts<'a> {
        let thresholds = self.thresholds.slices();
        let [leaves @ .., input] = numbers else { unreachable!("a flat 1d tree keeps its blend input") };
        let (weights, times) = leaves.split_at_mut(thresholds.count());
        let lengths = &shape.placements.lengths[..thresholds.count()];
        FlatParts { thresholds, lengths, leaves: Leaves { weights, times: &mut times[..thresholds.count()] }, input }
    }

    /// What a frame reads of the shape of a flat tree of `N` leaves (the caller knows it has
    /// `N`), copied into arrays of `N` ([`Thresholds::sized`]): cut once for a loop over many
    /// trees ([`step_flat_trees`]).
    #[inline(always)]
    fn sized<const N: usize>(&self, shape: &TreeShape) -> SizedFlat<N> {
        let (Some(thresholds), Some(lengths)) = (self.thresholds.sized::<N>(), shape.placements.lengths.first_chunk())
        else {
            unreachable!("a flat 1d tree of {N} leaves")
        };
        SizedFlat { thresholds, lengths: *lengths }
    }
}

/// The thresholds and the leaves' lengths of a flat `1d` tree of `N` leaves
/// ([`FlatOneD::sized`]).
#[derive(Clone, Copy)]
struct SizedFlat<const N: usize> {
    thresholds: SizedThresholds<N>,
    lengths: [f64; N],
}

impl<const N: usize> SizedFlat<N> {
    /// [`FlatOneD::parts`] of a tree of `N` leaves, cut from arrays of `N`: the frame inlined
    /// where they are read knows their length, so its pass over the leaves unrolls and checks
    /// no bounds.
    #[inline(always)]
    fn parts<'a>(&'a self, numbers: &'a mut [f64]) -> FlatParts<'a> {
        let Some((weights, rest)) = numbers.split_first_chunk_mut::<N>() else {
            unreachable!("a flat 1d tree of {N} leaves")
        };
        let Some((times, [input])) = rest.split_first_chunk_mut::<N>() else {
            unreachable!("{N} leaf times, one input")
        };
        let (thresholds, lengths) = (self.thresholds.slices(), &self.lengths);
        FlatParts { thresholds, lengths, leaves: Leaves { weights, times }, input }
    }
}

/// What a flat `1d` frame reads and writes ([`FlatOneD::parts`]), every slice as long as the
/// thresholds.
struct FlatParts<'a> {
    thresholds: ThresholdSlices<'a>,
    /// The leaves' clip lengths.
    lengths: &'a [f64],
    leaves: Leaves<'a>,
    /// The cached blend input.
    input: &'a mut f64,
}

/// The flat `1d` frame at blend input `input`: [`TreeShape::evaluate`] of the flat tree, then
/// [`end_frame`] (see [`flat_frame_of`]). A tree of 2, 3 or 4 leaves, most small trees, runs
/// a frame compiled for its count ([`FlatOneD::sized`]: its pass unrolled, no vector
/// loop and its remainder; measured on the crowd's 3 leaves, 130.8 instructions per
/// character-frame instead of 140.5), any other the same frame over slices of its length.
///
/// Out of line with each part of the runtime as its own argument: so LLVM knows that the
/// numbers are not the shape's, and neither reads the shape's lengths again after a write nor
/// checks at run time that the weights and the thresholds do not overlap.
#[inline(never)]
fn flat_frame(
    shape: &TreeShape,
    flat: &FlatOneD,
    numbers: &mut [f64],
    evaluations: &mut u64,
    clock: &mut SyncClock,
    input: (f64, f64),
) {
    let mut frame = |parts| flat_frame_of(shape, parts, evaluations, clock, input);
    match flat.thresholds.count() {
        2 => frame(flat.sized::<2>(shape).parts(numbers)),
        3 => frame(flat.sized::<3>(shape).parts(numbers)),
        4 => frame(flat.sized::<4>(shape).parts(numbers)),
        _ => frame(flat.parts(shape, numbers)),
    }
}

/// [`flat_frame`] on its `parts`. The input goes to the cached one and, when it differs from
/// what was there (a NaN always does, and the cached input is NaN until the first frame:
/// [`TreeRuntime::new`]), the weights to the leaf weights, counted in `evaluations`; with
/// `sync = "none"` and a step, in one pass with it ([`weigh_and_step`]).
#[inline(always)]
fn flat_frame_of(
    shape: &TreeShape,
    parts: FlatParts,
    evaluations: &mut u64,
    clock: &mut SyncClock,
    (input, dt): (f64, f64),
) {
    let FlatParts { thresholds, lengths, leaves, input: cached } = parts;
    let changed = *cached != input;
    *cached = input;
    *evaluations += u64::from(changed);
    if changed && dt > 0.0 && shape.sync == SyncMode::None {
        return weigh_and_step(shape, thresholds, lengths, leaves, input, dt);
    }
    if changed {
        thresholds.weights(input, leaves.weights);
    }
    end_frame(shape, leaves, clock, dt);
}

/// A flat `1d` tree's weights at `x` and its `sync = "none"` step by `dt` ([`step_times`]) in
/// one pass over the leaves: the weights pass steps each leaf's time as it writes its weight
/// ([`ThresholdSlices::weights_with`], [`step_time`]), and the times are placed after it when
/// one fails `t < D`, as [`step_times`] places them. The same numbers as the weights and then
/// the step; one loop instead of two took the crowd's flat frame from 144.4 to 131.6
/// instructions per character-frame.
#[inline(always)]
fn weigh_and_step(shape: &TreeShape, thresholds: ThresholdSlices, lengths: &[f64], leaves: Leaves, x: f64, dt: f64) {
    let mut within = true;
    let leaf_times = leaves.times.iter_mut().zip(lengths);
    thresholds.weights_with(x, leaves.weights, leaf_times, |(time, &length)| within &= step_time(time, length, dt));
    if !within {
        place_times(&shape.placements, leaves.times);
    }
}

/// A [`TreeRuntime`]'s leaf weights and leaf times, what a frame's time step reads.
struct Leaves<'a> {
    weights: &'a mut [f64],
    times: &'a mut [f64],
}

/// How many numbers of each kind a [`TreeRuntime`] keeps.
#[derive(Copy, Clone, Debug, PartialEq)]
struct Counts {
    leaves: usize,
    children: usize,
    inputs: usize,
}

/// The numbers of a [`TreeRuntime`], borrowed part by part.
struct Numbers<'a> {
    leaf_weights: &'a mut [f64],
    times: &'a mut [f64],
    child_weights: &'a mut [f64],
    inputs: &'a mut [f64],
}

impl Counts {
    fn total(self) -> usize {
        2 * self.leaves + self.children + self.inputs
    }

    fn split(self, numbers: &mut [f64]) -> Numbers<'_> {
        let (l, c, i) = (self.leaves, self.children, self.inputs);
        let [leaf_weights, times, child_weights, inputs] = crate::parts::split(numbers, [l, l, c, i]);
        Numbers { leaf_weights, times, child_weights, inputs }
    }
}

/// What every instance of one tree shares: its nodes (the tree and its nested trees in
/// pre-order), where each child's weight goes, its leaves and parameters. Built once per
/// snapshot ([`Snapshot::tree_shapes`]) so that a crowd of actors reads one copy of it.
#[derive(Clone, Debug, PartialEq)]
pub struct TreeShape {
    nodes: Vec<Node>,
    /// Where each child's weight goes, node after node.
    slots: Vec<Slot>,
    leaves: Vec<Leaf>,
    /// The leaves' clip lengths and looping, in leaf order.
    placements: Placements,
    /// Every parameter the tree (and its nested trees) reads, in order of first use.
    parameters: Vec<ParamId>,
    counts: Counts,
    sync: SyncMode,
    /// The flat `1d` tree's frame, chosen from the shape when it is built; `None` for nested
    /// and other trees, which take the general path.
    flat_one_d: Option<FlatOneD>,
}

impl TreeShape {
    /// The shape of tree `root` (the snapshot must be free of reference cycles).
    pub fn new(snapshot: &Snapshot, root: TreeId) -> Self {
        let mut shape = TreeShape {
            nodes: Vec::new(),
            slots: Vec::new(),
            leaves: Vec::new(),
            placements: Placements::default(),
            parameters: Vec::new(),
            counts: Counts { leaves: 0, children: 0, inputs: 0 },
            sync: snapshot.blend_trees[root].sync,
            flat_one_d: None,
        };
        shape.add_node(snapshot, root);
        let mut seen: Vec<ClipId> = Vec::new();
        for leaf in &mut shape.leaves {
            let repeats = seen.iter().filter(|&&c| c == leaf.clip).count();
            if repeats > 0 {
                leaf.name = format!("{}#{}", leaf.name, repeats + 1);
            }
            seen.push(leaf.clip);
        }
        shape.counts = Counts {
            leaves: shape.leaves.len(),
            // A flat tree's child weights are its leaf weights.
            children: if shape.is_flat() { 0 } else { shape.slots.len() },
            inputs: shape.nodes.last().map_or(0, |n| n.inputs.end),
        };
        shape.flat_one_d = if shape.is_flat() { FlatOneD::of(&shape.nodes[0]) } else { None };
        shape
    }

    /// How many leaves the tree has: its leaf weights are the first this many numbers.
    pub fn leaf_count(&self) -> usize {
        self.counts.leaves
    }

    /// Whether the tree has no nested trees: its children are its leaves, in order.
    fn is_flat(&self) -> bool {
        self.nodes.len() == 1
    }

    /// Writes every node's blend inputs to `inputs` and, when any differs from what was there
    /// or `stale`, the child weights (`all_child_weights`, node after node) and the leaf
    /// weights they multiply out to. Returns whether the weights were recomputed.
    ///
    /// Kept out of [`TreeRuntime::update`], so that the flat `1d` path there pays nothing for
    /// the node loop's registers and stack.
    #[inline(never)]
    fn evaluate(
        &self,
        params: &[ParamState],
        inputs: &mut [f64],
        all_child_weights: &mut [f64],
        leaf_weights: &mut [f64],
        stale: bool,
    ) -> bool {
        let mut changed = stale;
        for node in &self.nodes {
            changed |= node.write_blend_inputs(params, &mut inputs[node.inputs.clone()]);
        }
        if !changed {
            return false;
        }
        if self.is_flat() {
            child_weights(&self.nodes[0].layout, inputs, leaf_weights);
        } else {
            for node in &self.nodes {
                let (inputs, out) = (&inputs[node.inputs.clone()], &mut all_child_weights[node.children.clone()]);
                child_weights(&node.layout, inputs, out);
            }
            multiply_out(self, all_child_weights, leaf_weights, 0, 1.0);
        }
        true
    }

    /// Adds `tree` as a node (pre-order: its slots first, then its nested trees).
    fn add_node(&mut self, snapshot: &Snapshot, tree: TreeId) -> usize {
        let index = self.nodes.len();
        let def = &snapshot.blend_trees[tree];
        let start = self.nodes.last().map_or(0, |n| n.inputs.end);
        let first = self.slots.len();
        self.slots.extend(std::iter::repeat_n(Slot::Leaf(0), def.children.len()));
        let children = first..self.slots.len();
        let parameters = def.parameters.iter().map(|&p| (p, snapshot.parameters[p].clone())).collect();
        let inputs = start..start + def.parameters.len();
        let (layout, two_d) = (def.layout.clone(), def.kind.is_2d());
        self.nodes.push(Node { tree, children, inputs, layout, two_d, parameters });
        for &param in &def.parameters {
            if !self.parameters.contains(&param) {
                self.parameters.push(param);
            }
        }
        for (k, child) in def.children.iter().enumerate() {
            self.slots[first + k] = match *child {
                Motion::Clip(clip) => {
                    self.leaves.push(Leaf { name: snapshot.clips[clip].name.clone(), clip });
                    self.placements.push(snapshot.clips[clip].placement());
                    Slot::Leaf(self.leaves.len() - 1)
                }
                Motion::Tree(nested) => Slot::Node(self.add_node(snapshot, nested)),
            };
        }
        index
    }
}

/// One actor's instance of a blend tree: the shared [`TreeShape`] and its own numbers.
#[derive(Clone, Debug)]
pub struct TreeRuntime {
    shape: Arc<TreeShape>,
    /// Everything a frame changes, in one block of memory so that a frame touches one place:
    /// leaf weights, leaf times (seconds), child weights (node after node) and the blend
    /// inputs of the last evaluation (the cache key: weights are recomputed only when a
    /// frame's inputs differ) — see [`Counts::split`].
    numbers: Vec<f64>,
    state: TreeState,
}

/// What a tree's frame changes besides its numbers: its shared clock and how many times its
/// weights were computed. Apart from the numbers so that a frame can run over numbers and
/// state kept anywhere ([`step_tree`]: an actor's runtime, or a row of [`crate::graph::rows`]).
#[derive(Copy, Clone, Debug, Default, PartialEq)]
pub struct TreeState {
    clock: SyncClock,
    /// How many times the weights were computed: 0 until the first frame, while the cached
    /// inputs mean nothing.
    evaluations: u64,
}

impl TreeRuntime {
    /// Instantiates tree `root` of `snapshot`, all times at 0, weights not yet computed.
    pub fn new(snapshot: &Snapshot, root: TreeId) -> Self {
        let shape = snapshot.tree_shapes.get(root).cloned().unwrap_or_else(|| Arc::new(TreeShape::new(snapshot, root)));
        let mut numbers = vec![0.0; shape.counts.total()];
        // No input equals a NaN: the first frame evaluates, which the flat `1d` path asks of
        // its cached input alone ([`flat_frame`]).
        shape.counts.split(&mut numbers).inputs.fill(f64::NAN);
        TreeRuntime { shape, numbers, state: TreeState::default() }
    }

    /// The tree this runtime instantiates.
    pub fn root(&self) -> TreeId {
        self.shape.nodes[0].tree
    }

    pub fn leaves(&self) -> &[Leaf] {
        &self.shape.leaves
    }

    /// Asks for the memory a frame of this runtime writes (a hint: see [`crate::prefetch`]).
    /// Without reading the shape: [`TreeRuntime::leaf_weights`] would, and check a length.
    pub fn prefetch(&self) {
        crate::prefetch::soon(self.numbers.as_ptr());
    }

    /// Each leaf's weight: the product of the child weights on its path from the root.
    pub fn leaf_weights(&self) -> &[f64] {
        &self.numbers[..self.shape.counts.leaves]
    }

    /// Each leaf's local time in seconds.
    pub fn leaf_times(&self) -> &[f64] {
        &self.numbers[self.shape.counts.leaves..2 * self.shape.counts.leaves]
    }

    /// The parameters the tree reads, in order of first use.
    pub fn parameters(&self) -> &[ParamId] {
        &self.shape.parameters
    }

    /// How many times the weights were recomputed (they are cached while inputs are equal).
    pub fn evaluations(&self) -> u64 {
        self.state.evaluations
    }

    /// The tree's coverage: `Σ leaf weights` clamped to `[0, 1]`; 0 when every weight is 0
    /// (an all-zero `direct` tree: the default pose shows, REFERENCE §2.7).
    pub fn coverage(&self) -> f64 {
        self.leaf_weights().iter().sum::<f64>().clamp(0.0, 1.0)
    }

    /// Takes over `old`'s clock state after a reload: the shared phase, and each leaf's local
    /// time where `old` has a leaf of the same name, placed on the new clip: a looping clip
    /// wraps it into `[0, D)` (a shorter loop keeps playing), a one-shot clamps it to `D`.
    pub fn carry_time_from(&mut self, old: &TreeRuntime) {
        self.state.clock = old.state.clock;
        let times = self.shape.counts.split(&mut self.numbers).times;
        for ((leaf, time), clip) in self.shape.leaves.iter().zip(times).zip(self.shape.placements.iter()) {
            if let Some(i) = old.shape.leaves.iter().position(|l| l.name == leaf.name) {
                *time = clip.place(old.leaf_times()[i]);
            }
        }
    }

    /// Sets leaf `leaf`'s local time to `seconds`: a looping clip wraps it into `[0, D)`, a
    /// one-shot clamps it to `[0, D]`. With `sync = "none"` only that leaf moves; with
    /// `normalized` the shared phase becomes `time / D` (a one-shot at its end counts as a
    /// whole cycle passed) and every leaf follows the phase.
    pub fn set_leaf_time(&mut self, leaf: usize, seconds: f64) {
        let clip = self.shape.placements.get(leaf);
        let time = clip.place(seconds);
        match self.shape.sync {
            SyncMode::None => self.shape.counts.split(&mut self.numbers).times[leaf] = time,
            SyncMode::Normalized => {
                let phase = time / clip.length;
                if phase >= 1.0 {
                    self.state.clock.phase = 0.0;
                    self.state.clock.cycles = self.state.clock.cycles.max(1);
                } else {
                    self.state.clock.phase = phase;
                }
                let times = self.shape.counts.split(&mut self.numbers).times;
                place_on_phase(&self.shape, times, self.state.clock);
            }
        }
    }

    /// Plays a local time that moved from `from` to `to` seconds (a timeline clip's, so the
    /// tree follows the clip's start, `clip_in`, time scale and extrapolation). `sync = "none"`:
    /// every leaf sits at `to` (looping leaves wrapped, one-shots held), exactly. `normalized`:
    /// the shared phase advances by `to − from` ([`advance`]); a time that went back (a
    /// restart, a loop of the timeline, ping-pong, a seek back) starts the phase over, every
    /// leaf back at its start, and advances it by `to` (not at all for a `to` of 0: the leaves
    /// stay at their start).
    pub fn follow(&mut self, params: &[ParamState], from: f64, to: f64) {
        match self.shape.sync {
            SyncMode::None => {
                self.update(params, 0.0);
                for leaf in 0..self.shape.leaves.len() {
                    self.set_leaf_time(leaf, to);
                }
            }
            SyncMode::Normalized if to < from => {
                let TreeRuntime { shape, numbers, state } = self;
                state.clock = SyncClock::default();
                place_on_phase(shape, shape.counts.split(numbers).times, state.clock);
                self.update(params, to);
            }
            SyncMode::Normalized => self.update(params, to - from),
        }
    }

    /// One logic frame: recompute weights if any node's blend inputs changed, then advance
    /// local times by `dt` seconds (0 to only evaluate): [`step_tree`] of this runtime.
    pub fn update(&mut self, params: &[ParamState], dt: f64) {
        step_tree(&self.shape, &mut self.numbers, &mut self.state, params, dt);
    }

    /// The shape every instance of this tree shares.
    pub(crate) fn shape(&self) -> &Arc<TreeShape> {
        &self.shape
    }

    /// The numbers and state a frame changes (see [`TreeRuntime::numbers`]), to be kept
    /// elsewhere while a frame runs over them there.
    pub(crate) fn frame_state(&self) -> (&[f64], TreeState) {
        (&self.numbers, self.state)
    }

    /// Takes back numbers and state given out by [`TreeRuntime::frame_state`], after frames.
    pub(crate) fn set_frame_state(&mut self, numbers: &[f64], state: TreeState) {
        self.numbers.copy_from_slice(numbers);
        self.state = state;
    }

    /// Every node as last evaluated, in pre-order, with the data that explains its weights.
    pub fn explain(&self) -> Vec<NodeExplanation> {
        let mut out = Vec::with_capacity(self.shape.nodes.len());
        self.explain_node(0, 0, 1.0, &mut out);
        out
    }

    fn explain_node(&self, node: usize, depth: usize, share: f64, out: &mut Vec<NodeExplanation>) {
        let n = &self.shape.nodes[node];
        let c = self.shape.counts;
        let all_child_weights =
            if self.shape.is_flat() { self.leaf_weights() } else { &self.numbers[2 * c.leaves..][..c.children] };
        let child_weights = &all_child_weights[n.children.clone()];
        let last_inputs = &self.numbers[2 * c.leaves + c.children..];
        let evaluated = self.state.evaluations > 0;
        let inputs = if evaluated { last_inputs[n.inputs.clone()].to_vec() } else { Vec::new() };
        let detail = if evaluated { explain_layout(&n.layout, &inputs) } else { Detail::Plain };
        out.push(NodeExplanation { tree: n.tree, depth, share, inputs, weights: child_weights.to_vec(), detail });
        for (slot, weight) in self.shape.slots[n.children.clone()].iter().zip(child_weights) {
            if let Slot::Node(child) = *slot {
                self.explain_node(child, depth + 1, share * weight, out);
            }
        }
    }
}

/// One logic frame of a tree of `shape` whose numbers and state are `numbers` and `state`:
/// recompute the weights if any node's blend inputs changed, then advance the local times by
/// `dt` seconds (0 to only evaluate).
///
/// A flat `1d` tree of a plain parameter ([`FlatOneD::plain`]) reads its blend input here
/// and goes on to [`flat_frame`]; a shaped parameter and other trees leave at once
/// ([`step_flat_shaped`], [`step_nested`]), so that the common frame reads no settings and
/// calls nothing but its frame.
#[inline(always)]
pub fn step_tree(shape: &TreeShape, numbers: &mut [f64], state: &mut TreeState, params: &[ParamState], dt: f64) {
    match shape.flat_one_d.as_ref().map(|flat| flat.plain) {
        Some(true) => step_flat(shape, numbers, state, params, dt, |param, _| param.smoothed),
        Some(false) => step_flat_shaped(shape, numbers, state, params, dt),
        None => step_nested(shape, numbers, state, params, dt),
    }
}

/// [`step_tree`] of every tree in `trees` (each one's numbers, state and parameters), all of
/// `shape`: whether they take the flat path of a plain parameter is decided once for all.
#[inline(always)]
pub fn step_trees<'a>(
    shape: &TreeShape,
    trees: impl Iterator<Item = (&'a mut [f64], &'a mut TreeState, &'a [ParamState])>,
    dt: f64,
) {
    let Some(flat) = shape.flat_one_d.as_ref().filter(|flat| flat.plain) else {
        return trees.for_each(|(numbers, state, params)| step_tree(shape, numbers, state, params, dt));
    };
    match flat.thresholds.count() {
        2 => step_flat_trees::<2>(shape, flat, trees, dt),
        3 => step_flat_trees::<3>(shape, flat, trees, dt),
        4 => step_flat_trees::<4>(shape, flat, trees, dt),
        _ => trees.for_each(|(numbers, state, params)| {
            step_flat(shape, numbers, state, params, dt, |param, _| param.smoothed)
        }),
    }
}

/// [`step_trees`] of flat `1d` trees of `N` leaves and a plain parameter: each tree's frame
/// ([`flat_frame_of`] on [`FlatOneD::sized`]) inlined into one loop, with no call, no
/// dispatch on the leaf count and no check of the parameter's kind per tree.
#[inline(never)]
fn step_flat_trees<'a, const N: usize>(
    shape: &TreeShape,
    flat: &FlatOneD,
    trees: impl Iterator<Item = (&'a mut [f64], &'a mut TreeState, &'a [ParamState])>,
    dt: f64,
) {
    let sized = flat.sized::<N>(shape);
    for (numbers, TreeState { clock, evaluations }, params) in trees {
        let input = params[flat.parameter].smoothed;
        flat_frame_of(shape, sized.parts(numbers), evaluations, clock, (input, dt));
    }
}

/// [`step_tree`] on the flat `1d` path, the blend input read by `blend_input`.
#[inline(always)]
fn step_flat(
    shape: &TreeShape,
    numbers: &mut [f64],
    state: &mut TreeState,
    params: &[ParamState],
    dt: f64,
    blend_input: impl Fn(&ParamState, &Parameter) -> f64,
) {
    let Some(flat) = &shape.flat_one_d else { unreachable!("a flat 1d tree") };
    let input = blend_input(&params[flat.parameter], &flat.settings);
    let TreeState { clock, evaluations } = state;
    flat_frame(shape, flat, numbers, evaluations, clock, (input, dt));
}

/// [`step_tree`] of a flat `1d` tree whose parameter has a dead zone or a curve.
#[inline(never)]
fn step_flat_shaped(shape: &TreeShape, numbers: &mut [f64], state: &mut TreeState, params: &[ParamState], dt: f64) {
    step_flat(shape, numbers, state, params, dt, ParamState::blend_input);
}

/// [`step_tree`] of a tree off the flat `1d` path.
#[inline(never)]
fn step_nested(shape: &TreeShape, numbers: &mut [f64], state: &mut TreeState, params: &[ParamState], dt: f64) {
    let n = shape.counts.split(numbers);
    let recomputed = shape.evaluate(params, n.inputs, n.child_weights, n.leaf_weights, state.evaluations == 0);
    state.evaluations += u64::from(recomputed);
    end_frame(shape, Leaves { weights: n.leaf_weights, times: n.times }, &mut state.clock, dt);
}

/// The shared clock of `sync = "normalized"`: the phase in [0, 1) and the whole cycles
/// completed. One place, so that [`advance_phase`] takes it as one argument.
#[derive(Copy, Clone, Debug, Default, PartialEq)]
struct SyncClock {
    phase: f64,
    cycles: u64,
}

/// The end of a frame on either path: the leaves' times advanced by `dt` ([`advance`]; not at
/// all for 0).
#[inline(always)]
fn end_frame(shape: &TreeShape, leaves: Leaves, clock: &mut SyncClock, dt: f64) {
    if dt > 0.0 {
        advance(shape, leaves, clock, dt);
    }
}

/// REFERENCE §2.8, for a tree of `shape` with `leaves`' weights: their times and
/// its shared clock (`phase`, `cycles`) advance by `dt`. `normalized`: the shared phase
/// advances by `dt / cycle` with the weighted cycle length `cycle = Σ(w_i·D_i) / Σw_i` —
/// REFERENCE's `Σ(w_i·D_i)` whenever the weights sum to 1 **(ours: dividing by `Σw_i` keeps a
/// `direct` tree whose weights sum to s ≠ 1 at its clips' own speed instead of 1/s times
/// it)** — and not at all when `Σw_i` or the cycle is not positive; looping leaves sit at
/// `phase·D`, one-shots at `D` once a whole cycle has passed. `none`: each leaf advances by
/// `dt`, looping leaves wrap into `[0, D)`, one-shots hold at `D`.
fn advance(shape: &TreeShape, leaves: Leaves, clock: &mut SyncClock, dt: f64) {
    match shape.sync {
        SyncMode::Normalized => advance_phase(shape, leaves.weights, leaves.times, clock, dt),
        SyncMode::None => step_times(&shape.placements, leaves.times, dt),
    }
}

/// [`advance`] with `sync = "normalized"`, out of line: the `none` step stays a short loop
/// with few live registers. It takes the leaves' numbers as two slices, not as [`Leaves`]:
/// an aggregate argument is built in memory, and that was built on every frame of either
/// sync; and the clock as one pointer, so that its arguments fit in registers and its call
/// ends the frame as a jump, with nothing saved around it.
#[inline(never)]
fn advance_phase(shape: &TreeShape, weights: &[f64], times: &mut [f64], clock: &mut SyncClock, dt: f64) {
    let total: f64 = weights.iter().sum();
    let weighted: f64 = shape.placements.lengths.iter().zip(weights).map(|(length, w)| w * length).sum();
    let cycle = weighted / total;
    if total > 0.0 && cycle > 0.0 {
        let advanced = clock.phase + dt / cycle;
        // A phase within half a tick of the cycle's end is the end ([`AT_END`]): a sum of
        // frame lengths falls a few ulps short of a whole cycle.
        let whole = (advanced + AT_END / cycle).floor();
        clock.cycles += whole as u64;
        clock.phase = (advanced - whole).max(0.0);
    }
    place_on_phase(shape, times, *clock);
}

/// `sync = "none"`'s step: every leaf time becomes `place(t + dt)` ([`Placement::place`]),
/// exactly, for `dt > 0` and times that are never negative — as every time a runtime holds
/// is: `place` gives `[0, D]` or NaN, a carried time is `min(t, D)` of one, a phase time
/// `phase·D` with `phase ≥ 0`, and a step adds `dt > 0`.
///
/// Why it is `place`: with `t_old ≥ 0` (or −0) and `dt > 0`, `t = t_old + dt > 0` (or
/// NaN), and for `0 ≤ t < D − AT_END` `place` is the identity (a looping clip's `t ∈ [0, D)`,
/// a one-shot's clamp to `[0, D]`). So each time gets `+ dt`, and only when one fails
/// `t < D − AT_END` (a wrap, an end, a NaN) are all of them placed ([`place_times`]), which leaves those
/// below their length as they are. The common frame reads no looping flag and calls nothing.
fn step_times(placements: &Placements, times: &mut [f64], dt: f64) {
    let mut within = true;
    for (&length, time) in placements.lengths.iter().zip(&mut *times) {
        within &= step_time(time, length, dt);
    }
    if !within {
        place_times(placements, times);
    }
}

/// One leaf's time of [`step_times`]: `t + dt`, and whether it stays below the clip's `length`
/// by more than [`AT_END`] (where [`Placement::place`] is the identity).
#[inline(always)]
fn step_time(time: &mut f64, length: f64, dt: f64) -> bool {
    *time += dt;
    *time < length - AT_END
}

/// Every leaf time placed on its clip ([`Placement::place`]): a wrap, about one frame in 20.
#[cold]
#[inline(never)]
fn place_times(placements: &Placements, times: &mut [f64]) {
    for (placement, time) in placements.iter().zip(times) {
        *time = placement.place(*time);
    }
}

/// `sync = "normalized"`: looping leaves at `phase·D`, one-shots at `D` once a whole cycle
/// has passed.
fn place_on_phase(shape: &TreeShape, times: &mut [f64], SyncClock { phase, cycles }: SyncClock) {
    for (clip, time) in shape.placements.iter().zip(times) {
        *time = if clip.looping || cycles == 0 { phase * clip.length } else { clip.length };
    }
}

/// Writes `scale × child weight` down the tree from `node` into the leaf weights.
fn multiply_out(shape: &TreeShape, child_weights: &[f64], leaf_weights: &mut [f64], node: usize, scale: f64) {
    for i in shape.nodes[node].children.clone() {
        let weight = scale * child_weights[i];
        match shape.slots[i] {
            Slot::Leaf(leaf) => leaf_weights[leaf] = weight,
            Slot::Node(child) => multiply_out(shape, child_weights, leaf_weights, child, weight),
        }
    }
}

/// Helpers for the unit tests of the 2D layouts.
#[cfg(test)]
pub(crate) mod testing {
    use super::Layout2d;
    use super::geometry::Point;

    /// The weights of `layout` at `p`.
    pub fn at(layout: &impl Layout2d, p: Point) -> Vec<f64> {
        let mut out = vec![f64::NAN; layout.positions().len()];
        layout.weights(p, &mut out);
        out
    }

    pub fn assert_near(got: &[f64], want: &[f64]) {
        assert_eq!(got.len(), want.len(), "{got:?} vs {want:?}");
        for (g, w) in got.iter().zip(want) {
            assert!((g - w).abs() < 1e-12, "{got:?} vs {want:?}");
        }
    }

    /// At each child's position that child has weight exactly 1 and every other exactly 0.
    pub fn assert_exact_at_positions(layout: &impl Layout2d) {
        for (i, &q) in layout.positions().iter().enumerate() {
            let w = at(layout, q);
            for (j, &v) in w.iter().enumerate() {
                assert_eq!(v, if i == j { 1.0 } else { 0.0 }, "child {i} at {q:?}: {w:?}");
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::compile::compile;
    use crate::config::SourceFile;
    use proptest::prelude::*;

    /// Flat `1d` trees with `sync = "none"` and `normalized`, with a curve, a dead zone or
    /// neither (a plain parameter), a threshold two children share and a one-shot leaf, of
    /// 2, 3 and 4 leaves (each count a frame of its own, [`FlatOneD::sized`]) and 5 (the
    /// frame over slices); and trees that must not be flat `1d`.
    const LIBRARY: &str = r#"
[parameters]
speed = { default = 0.0, curve = [[0.0, 0.0], [0.5, 0.8], [1.0, 1.0]] }
x = { default = 0.0, dead_zone = 0.05 }
y = { default = 0.0 }

[clips]
idle = { length = 2.0, loop = true }
walk = { length = 1.0, loop = true }
run = { length = 0.8, loop = true }
hit = { length = 0.6 }

[blend_trees.shared]
type = "1d"
parameter = "speed"
sync = "none"
children = [{ motion = "idle", threshold = 0.0 }, { motion = "walk", threshold = 0.5 },
            { motion = "hit", threshold = 0.5 }, { motion = "run", threshold = 1.0 }]

[blend_trees.plain]
type = "1d"
parameter = "y"
sync = "none"
children = [{ motion = "idle", threshold = -0.5 }, { motion = "walk", threshold = 0.0 }, { motion = "run", threshold = 0.0 },
            { motion = "hit", threshold = 1.5 }]

[blend_trees.phased]
type = "1d"
parameter = "x"
children = [{ motion = "walk", threshold = -1.0 }, { motion = "run", threshold = 0.25 }, { motion = "hit", threshold = 2.0 }]

[blend_trees.pair]
type = "1d"
parameter = "y"
sync = "none"
children = [{ motion = "walk", threshold = 0.0 }, { motion = "run", threshold = 1.0 }]

[blend_trees.trio]
type = "1d"
parameter = "y"
sync = "none"
children = [{ motion = "idle", threshold = 0.0 }, { motion = "walk", threshold = 0.5 }, { motion = "run", threshold = 1.0 }]

[blend_trees.five]
type = "1d"
parameter = "y"
sync = "none"
children = [{ motion = "idle", threshold = -1.0 }, { motion = "walk", threshold = 0.0 }, { motion = "run", threshold = 0.25 },
            { motion = "hit", threshold = 0.5 }, { motion = "idle", threshold = 2.0 }]

[blend_trees.nested]
type = "1d"
parameter = "x"
children = [{ motion = "idle", threshold = 0.0 }, { motion = "shared", threshold = 1.0 }]

[blend_trees.plane]
type = "2d_freeform_cartesian"
parameters = ["x", "y"]
children = [{ motion = "idle", position = [0.0, 0.0] }, { motion = "walk", position = [1.0, 0.0] }]
"#;

    /// The library, and the same library with every shape on the general path.
    fn fast_and_general() -> (Snapshot, Snapshot) {
        let compiled = compile(&[SourceFile { path: "flat.toml".into(), text: LIBRARY.into() }]);
        let fast = compiled.snapshot.unwrap_or_else(|| panic!("{:?}", compiled.diagnostics));
        let mut general = fast.clone();
        for shape in &mut general.tree_shapes {
            *shape = Arc::new(TreeShape { flat_one_d: None, ..(**shape).clone() });
        }
        (fast, general)
    }

    fn tree(snapshot: &Snapshot, name: &str) -> TreeId {
        snapshot.blend_trees.iter().position(|t| t.name == name).unwrap()
    }

    /// Plays frames of `dt` with every parameter set to each value in turn, settled, on both
    /// paths of tree `name` (with `sync = "none"` and `dt > 0`, the flat path's one pass of
    /// weights and step, [`weigh_and_step`]): the numbers (leaf weights and times, cached
    /// inputs), the shared clock and the evaluation count must be the same, bit for bit.
    fn assert_paths_agree(name: &str, values: &[f64], dt: f64) {
        let (fast, general) = fast_and_general();
        let root = tree(&fast, name);
        assert!(fast.tree_shapes[root].flat_one_d.is_some(), "{name} is a flat 1d tree");
        let (mut a, mut b) = (TreeRuntime::new(&fast, root), TreeRuntime::new(&general, root));
        let mut params: Vec<ParamState> = fast.parameters.iter().map(ParamState::at_default).collect();
        for &value in values {
            params.iter_mut().for_each(|p| *p = ParamState { raw: value, smoothed: value, velocity: 0.0 });
            a.update(&params, dt);
            b.update(&params, dt);
            let bits = |r: &TreeRuntime| {
                let numbers: Vec<u64> = r.numbers.iter().map(|v| v.to_bits()).collect();
                (numbers, r.state.clock.phase.to_bits(), r.state.clock.cycles, r.evaluations())
            };
            assert_eq!(bits(&a), bits(&b), "{name} at {value}: {:?} vs {:?}", a.numbers, b.numbers);
        }
    }

    /// NaN, clamping on both sides, exactly on thresholds (the shared one too, and the curve's
    /// points), inside and on the dead zone, signed zeros and repeats (the weight cache).
    const EDGES: [f64; 20] = [
        f64::NAN,
        f64::NAN,
        -5.0,
        0.0,
        -0.0,
        0.04,
        -0.05,
        0.05,
        0.25,
        0.3125,
        0.5,
        0.5,
        -1.0,
        1.0,
        2.0,
        7.0,
        f64::INFINITY,
        f64::NEG_INFINITY,
        0.7,
        f64::NAN,
    ];

    /// The library's flat `1d` trees.
    const FLAT: [&str; 6] = ["shared", "plain", "phased", "pair", "trio", "five"];

    #[test]
    fn the_flat_1d_path_gives_the_general_paths_numbers() {
        for dt in [1.0 / 60.0, 0.0] {
            for name in FLAT {
                assert_paths_agree(name, &EDGES, dt);
            }
        }
    }

    #[test]
    fn only_flat_1d_trees_take_the_flat_path() {
        let (fast, _) = fast_and_general();
        let flat = FLAT.map(|name| (name, true));
        for (name, flat) in flat.into_iter().chain([("nested", false), ("plane", false)]) {
            assert_eq!(fast.tree_shapes[tree(&fast, name)].flat_one_d.is_some(), flat, "{name}");
        }
        let plain = |name| fast.tree_shapes[tree(&fast, name)].flat_one_d.as_ref().map(|flat| flat.plain);
        assert_eq!([plain("shared"), plain("plain"), plain("phased")], [Some(false), Some(true), Some(false)]);
    }

    /// `step_times` of leaves on `placements` at `olds` by `dt`, against
    /// `Placement::place(old + dt)` for each, bit for bit; the leaves step together, so a
    /// wrap of one places the others too.
    fn assert_step_is_place(placements: &[Placement], olds: &[f64], dt: f64) {
        let mut times = olds.to_vec();
        step_times(&placements.iter().copied().collect(), &mut times, dt);
        let want: Vec<u64> = placements.iter().zip(olds).map(|(p, old)| p.place(old + dt).to_bits()).collect();
        let got: Vec<u64> = times.iter().map(|t| t.to_bits()).collect();
        assert_eq!(got, want, "{placements:?} at {olds:?} + {dt}: {times:?}");
    }

    const PLACEMENTS: [Placement; 4] = [
        Placement { length: 2.0, looping: true },
        Placement { length: 0.8, looping: true },
        Placement { length: 0.6, looping: false },
        Placement { length: 1e-3, looping: true },
    ];

    /// Never-negative times (as a runtime holds): zeros of both signs, just below and on the
    /// lengths, past twice them, ∞ and NaN.
    const TIMES: [f64; 12] =
        [0.0, -0.0, 0.3, 0.5999999999999999, 0.6, 0.79, 0.8, 1.9999999999999998, 2.0, 5.5, f64::INFINITY, f64::NAN];

    #[test]
    fn the_time_step_is_placement() {
        for dt in [1.0 / 60.0, 5e-324, 0.2, 1.5, 3.0, f64::INFINITY] {
            for (i, &old) in TIMES.iter().enumerate() {
                for placement in PLACEMENTS {
                    assert_step_is_place(&[placement], &[old], dt);
                }
                let others = [TIMES[(i + 3) % TIMES.len()], TIMES[(i + 7) % TIMES.len()], 0.1];
                assert_step_is_place(&PLACEMENTS, &[old, others[0], others[1], others[2]], dt);
            }
        }
    }

    fn value() -> impl Strategy<Value = f64> {
        prop_oneof![any::<f64>(), -1.5f64..2.5, prop::sample::select(EDGES.to_vec())]
    }

    proptest! {
        #[test]
        fn the_time_step_is_placement_at_any_times(
            olds in prop::collection::vec(prop_oneof![0.0f64..10.0, prop::sample::select(TIMES.to_vec())], 4),
            dt in prop_oneof![1e-9f64..3.0, Just(1.0 / 60.0)],
        ) {
            assert_step_is_place(&PLACEMENTS, &olds, dt);
            for (&placement, &old) in PLACEMENTS.iter().zip(&olds) {
                assert_step_is_place(&[placement], &[old], dt);
            }
        }

        #[test]
        fn the_flat_1d_path_agrees_on_any_inputs(values in prop::collection::vec(value(), 1..40), dt in 0.0f64..0.5) {
            for name in FLAT {
                assert_paths_agree(name, &values, dt);
            }
        }
    }
}
