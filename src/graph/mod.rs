//! The mixer graph of one actor: layers (bottom first) over named channels, each layer with a
//! source, a weight, an optional mask and an additive flag; and the effective weights that
//! say how much of the final result each leaf is (REFERENCE §6).
//!
//! Effective weights, per channel, top layer first with `remaining = 1`:
//! an override layer `k` covering the channel with `w_k = weight × coverage(source)` gives
//! each of its leaves `remaining × weight × share(leaf)` and leaves `remaining × (1 − w_k)`
//! below it; an additive layer gives `remaining × weight × share(leaf)` in the additive column
//! and takes nothing (an override above it covers what it adds as it covers the layers below,
//! as in Unity's layer mixer: `lerp(below + w_a·additive, override, w_o)`); what remains after layer 0 is the default pose (`<default>`). A source's shares
//! already include its own composition (a timeline's layer mixer, a tree's nesting), and its
//! coverage is their sum.

use crate::blend::TreeRuntime;
use crate::blend::params::ParamState;
use crate::compile::{Asset, ClipId, GraphDef, LayerSource, ParamId, Snapshot, TreeId};
use crate::event::{EventKind, TransitionChange};
use crate::prefetch;
use crate::time::{FrameTime, Ticks};
use crate::timeline::TimelineId;
use crate::timeline::playback::{Playback, PlaybackState, QuietFrames};
use crate::transition::{Arbiter, Completion, Fade, Token};

pub mod rows;

/// The channel of a graph that does not name any.
pub const DEFAULT_CHANNEL: &str = "body";

/// A default pose's share at or below this is none (what rounding leaves of shares that sum
/// to 1): weight tables, `actor:weights()`, sweeps, reload reports, DOT graphs and charts show
/// no `<default>` for it.
pub const DEFAULT_EPSILON: f64 = 1e-12;

/// A single clip playing on its own: loops wrap at the length, one-shots hold at the end.
#[derive(Clone, Debug)]
pub struct ClipRuntime {
    pub clip: ClipId,
    pub name: String,
    pub time: f64,
}

impl ClipRuntime {
    pub fn new(snapshot: &Snapshot, clip: ClipId) -> Self {
        ClipRuntime { clip, name: snapshot.clips[clip].name.clone(), time: 0.0 }
    }

    /// One logic frame: `dt` seconds later, placed on the clip (wrapped or held at the end).
    fn advance(&mut self, snapshot: &Snapshot, dt: f64) {
        self.time = clip_time_after(snapshot, self.clip, self.time, dt);
    }
}

/// A clip's local time `dt` seconds after `time`, placed on the clip (wrapped or held at the
/// end).
#[inline(always)]
fn clip_time_after(snapshot: &Snapshot, clip: ClipId, time: f64, dt: f64) -> f64 {
    snapshot.clips[clip].place(time + dt)
}

/// A layer's timeline slot: the timeline it names and the playback on it, if any.
#[derive(Clone, Debug)]
pub struct TimelineSlot {
    pub timeline: TimelineId,
    pub playback: Option<Box<Playback>>,
    /// Identifies the playback for handles (unique within its actor; 0 while the slot has
    /// never had a playback).
    pub serial: u64,
    /// Whether the playback may still change: it plays, or it stopped and its last weights
    /// are not composed yet. A slot that is not awake keeps showing its last weights (0)
    /// and local times and costs nothing per frame (as engines skip finished actions);
    /// whatever hands the playback out for changes wakes it.
    awake: bool,
    /// The scale its leaves were last written at in channel 0; NaN when the graph's numbers
    /// started over (its leaves listed again), so that the next write writes them all.
    written_scale: f64,
}

impl TimelineSlot {
    pub fn new(timeline: TimelineId, playback: Option<Box<Playback>>, serial: u64) -> Self {
        let awake = playback.is_some();
        TimelineSlot { timeline, playback, serial, awake, written_scale: f64::NAN }
    }

    /// One logic frame of an awake slot (`dt` seconds; 0 only evaluates); it falls asleep
    /// once its playback stopped and its last weights were composed. Out of line, as
    /// `TransitionSet::update`: the per-layer dispatch of `Source::update` stays small
    /// (measured on the crowd: 2% fewer instructions).
    #[inline(never)]
    fn update(&mut self, step: &FrameStep, params: &[ParamState], events: &mut Vec<EventKind>) {
        let FrameStep { snapshot, dt, now } = *step;
        let Some(playback) = self.playback.as_mut() else { return };
        if dt > 0.0 {
            playback.advance(snapshot, params, now, events);
        } else {
            playback.evaluate_now(snapshot, params, now, events);
        }
        self.awake = playback.state() == PlaybackState::Playing || !playback.live_leaves().is_empty();
    }

    /// The frame of an awake slot in a graph's only channel: [`TimelineSlot::update`], then
    /// [`TimelineSlot::write`] of channel 0 at `scale`, its live leaves cleared after.
    #[inline(always)]
    fn update_and_write(
        &mut self,
        step: &FrameStep,
        params: &[ParamState],
        events: &mut Vec<EventKind>,
        column: &mut [f64],
        scale: f64,
    ) -> Option<(f64, f64)> {
        self.update(step, params, events);
        let written = self.write(0, column, scale);
        self.clear_live();
        written
    }

    /// Right after [`TimelineSlot::update_and_write`] at clock time `now`: the quiet frames
    /// ahead ([`Playback::quiet_frames`]); `None` when the next frame may do more, or the slot
    /// fell asleep. Until then each frame would move the playback's local times only, or its
    /// one mixing clip's weight too, and write and return what [`QuietFrames::mixing`] says,
    /// as long as the scale stays the same.
    fn quiet_frames(&self, snapshot: &Snapshot, now: FrameTime) -> Option<QuietFrames> {
        let p = self.playback.as_ref().filter(|_| self.awake)?;
        p.quiet_frames(&snapshot.timelines[p.timeline], now)
    }

    /// Runs late the last quiet frame a caller skipped, at clock time `now`
    /// ([`Playback::catch_up`]).
    fn catch_up(&mut self, snapshot: &Snapshot, now: FrameTime) {
        if let Some(p) = &mut self.playback {
            p.catch_up(snapshot, now);
        }
    }

    /// Clears the live leaves of an awake playback once every channel has its shares.
    #[inline(always)]
    fn clear_live(&mut self) {
        if let TimelineSlot { playback: Some(p), awake: true, .. } = self {
            p.clear_live();
        }
    }

    /// [`Source::write`] of a timeline: its live leaves (those whose share changed; its other
    /// leaves are inactive clips with share 0, so a frame costs what its active clips cost
    /// however long the timeline is), and every leaf of its active clips when their `scale`
    /// is not the one they were written at — it changes with the layers above, and the graph's
    /// numbers start over when its leaves are listed again (`written_scale` is kept for
    /// channel 0; other channels are always written whole). Its coverage and output weight
    /// are the playback's. `None` once it is asleep: its shares, coverage and output are 0 and
    /// stay so.
    #[inline(always)]
    fn write(&mut self, channel: usize, column: &mut [f64], scale: f64) -> Option<(f64, f64)> {
        if !self.awake {
            return None;
        }
        let Some(p) = &self.playback else { return Some((0.0, 0.0)) };
        let shares = p.shares(channel);
        for &leaf in p.live_leaves() {
            column[leaf as usize] = scale * shares[leaf as usize];
        }
        if channel != 0 || scale != self.written_scale {
            for leaf in p.active_leaves() {
                column[leaf] = scale * shares[leaf];
            }
            if channel == 0 {
                self.written_scale = scale;
            }
        }
        Some((p.coverage(channel), p.output_weight(channel)))
    }
}

/// What every source of every actor's graph reads in one logic frame, besides the actor's
/// parameters: the library, the frame's length in seconds (0: only evaluate) and its clock
/// time. The same for all the actors of a frame, so a session builds it once per frame
/// ([`Graph::step`]).
#[derive(Copy, Clone)]
pub struct FrameStep<'a> {
    pub snapshot: &'a Snapshot,
    pub dt: f64,
    pub now: FrameTime,
}

/// What a layer plays. An explicit tag (`repr(u8)`): every frame dispatches on it several
/// times per layer, and a tag byte is read directly where a niche in the tree's fields had
/// to be decoded first.
#[derive(Clone, Debug)]
#[repr(u8)]
pub enum Source {
    BlendTree(TreeRuntime),
    Clip(ClipRuntime),
    Timeline(TimelineSlot),
    Transitions(Box<TransitionSet>),
}

/// One state of a transition layer: a clip or blend tree, and its weight in the layer.
#[derive(Clone, Debug)]
pub struct StateSource {
    pub name: String,
    pub source: Source,
    /// Its weight when the newest fade began, and now.
    pub base: f64,
    pub weight: f64,
}

/// A transition layer (REFERENCE §5): states crossfading under one arbiter. Every state
/// already in the layer keeps its weight at begin time scaled by `1 − α`; the target gets
/// `α = elapsed / duration` on top; a fade reports completion `completion_delay` frames
/// after α reaches 1. A fade's time comes from the frame indices (see [`Fade`]).
#[derive(Clone, Debug)]
pub struct TransitionSet {
    pub layer: String,
    pub arbiter: Arbiter,
    pub states: Vec<StateSource>,
    /// Fades in flight, oldest first; the newest sets the weights.
    pub fades: Vec<Fade>,
    pub completion_delay: u64,
    /// Leaf shares of all states, flattened in state order, and the parameters they read.
    shares: Vec<f64>,
    params: Vec<ParamId>,
}

impl TransitionSet {
    /// A layer resting in `initial` (played by `source`).
    pub fn new(layer: &str, initial: &str, source: Source, completion_delay: u64) -> Self {
        let state = StateSource { name: initial.into(), source, base: 1.0, weight: 1.0 };
        let mut set = TransitionSet {
            layer: layer.into(),
            arbiter: Arbiter::new(initial),
            states: vec![state],
            fades: Vec::new(),
            completion_delay,
            shares: Vec::new(),
            params: Vec::new(),
        };
        set.refresh();
        set
    }

    /// Starts a fade to `target` (played by `source` if the layer does not have it yet) over
    /// `duration`, at frame `now`.
    pub fn begin(&mut self, target: &str, source: impl FnOnce() -> Source, duration: Ticks, now: FrameTime) -> Token {
        if !self.states.iter().any(|s| s.name == target) {
            self.states.push(StateSource { name: target.into(), source: source(), base: 0.0, weight: 0.0 });
        }
        for state in &mut self.states {
            state.base = state.weight;
        }
        let token = self.arbiter.begin(target);
        self.fades.push(Fade::new(token.clone(), now, duration));
        self.refresh();
        token
    }

    /// Delivers a completion by hand. Only the arbiter hears of it: the fade with that token
    /// still reports its own completion when it is due, which the arbiter then rejects and
    /// counts as a duplicate (or stale) — a late callback still arrives (seed 002) — and
    /// while it is the newest it keeps setting the weights (a completion commits a state, it
    /// does not move the fade).
    pub fn complete(&mut self, token: &Token) -> Completion {
        self.arbiter.complete(token)
    }

    /// Drops the fades with nothing left to do: delivered, and not the newest.
    fn forget_delivered(&mut self) {
        let newest = self.fades.len().saturating_sub(1);
        let mut index = 0;
        self.fades.retain(|fade| {
            let keep = index == newest || !fade.delivered;
            index += 1;
            keep
        });
    }

    /// One logic frame (`dt` seconds; 0 only evaluates) of every state, then of the fades.
    #[inline(never)]
    fn update(&mut self, step: &FrameStep, params: &[ParamState], events: &mut Vec<EventKind>) {
        for state in &mut self.states {
            state.source.update(step, params, events);
        }
        if step.dt > 0.0 {
            self.advance(step.now, events);
        }
        self.refresh();
    }

    /// [`Source::write`] of a transition layer: every leaf; its coverage is
    /// `min(Σ shares, 1)`, summed as the shares are written ([`write_summed`]).
    #[inline(always)]
    fn write(&self, column: &mut [f64], scale: f64) -> (f64, f64) {
        let coverage = write_summed(column, &self.shares, scale).min(1.0);
        (coverage, coverage)
    }

    /// Frame `now`: every fade advances to it; the newest sets the weights; fades whose
    /// countdown ran out report their completion.
    fn advance(&mut self, now: FrameTime, events: &mut Vec<EventKind>) {
        let mut due = Vec::new();
        for fade in &mut self.fades {
            fade.reach(now);
            if fade.delivered {
                continue;
            }
            if fade.alpha() >= 1.0 && fade.countdown.is_none() {
                fade.countdown = Some(self.completion_delay);
            }
            match fade.countdown {
                Some(0) => {
                    fade.delivered = true;
                    due.push(fade.token.clone());
                }
                Some(n) => fade.countdown = Some(n - 1),
                None => {}
            }
        }
        if let Some(newest) = self.fades.last() {
            let alpha = newest.alpha();
            for state in &mut self.states {
                let target = if state.name == newest.token.to { alpha } else { 0.0 };
                state.weight = state.base * (1.0 - alpha) + target;
            }
        }
        self.forget_delivered();
        for token in due {
            let outcome = self.arbiter.complete(&token);
            events.push(completion_event(&self.layer, &token, outcome, self.arbiter.rejected()));
        }
    }

    /// Recomputes the flattened shares and the parameter list.
    fn refresh(&mut self) {
        self.shares.clear();
        self.params.clear();
        for state in &self.states {
            self.shares.extend(state.source.shares(0).iter().map(|s| s * state.weight));
            for &p in state.source.parameters() {
                if !self.params.contains(&p) {
                    self.params.push(p);
                }
            }
        }
    }

    /// The state index and the leaf index within it of flattened leaf `leaf`.
    fn locate(&self, mut leaf: usize) -> (usize, usize) {
        for (s, state) in self.states.iter().enumerate() {
            let count = state.source.leaf_names().len();
            if leaf < count {
                return (s, leaf);
            }
            leaf -= count;
        }
        unreachable!("leaf index within the layer")
    }
}

/// Moves the state of `old` (built from `old_snapshot`) into `new` (built from `snapshot`):
/// tree phases and leaf times, clip times, playbacks (time, lifecycle, fired markers; what
/// their tasks do at the reload goes to `events`, see [`Playback::carry_over`]), and
/// transition layers (arbiter, fades and weights; states that no longer exist are dropped).
fn carry_source(
    new: &mut Source,
    old: &Source,
    (snapshot, old_snapshot): (&Snapshot, &Snapshot),
    channels: &[String],
    events: &mut Vec<EventKind>,
) {
    match (new, old) {
        (Source::BlendTree(new), Source::BlendTree(old)) => new.carry_time_from(old),
        (Source::Clip(new), Source::Clip(old)) => new.time = snapshot.clips[new.clip].place(old.time),
        (Source::Timeline(new), Source::Timeline(old)) => {
            new.serial = old.serial;
            new.playback = old.playback.as_ref().and_then(|p| {
                let name = &old_snapshot.timelines[p.timeline].name;
                let timeline = snapshot.timeline_id(name)?;
                new.timeline = timeline;
                let source = format_args!("{name}#{}", old.serial);
                Some(Box::new(p.carry_over((snapshot, old_snapshot), timeline, channels, source, events)))
            });
            new.awake = new.playback.is_some();
        }
        (Source::Transitions(new), Source::Transitions(old)) => {
            let mut carried = (**old).clone();
            carried.completion_delay = new.completion_delay;
            carried
                .states
                .retain(|s| matches!(snapshot.assets.get(&s.name), Some(Asset::Clip(_) | Asset::BlendTree(_))));
            if carried.states.is_empty() {
                return;
            }
            for state in &mut carried.states {
                let mut fresh = state_source(snapshot, &state.name);
                carry_source(&mut fresh, &state.source, (snapshot, old_snapshot), channels, events);
                state.source = fresh;
            }
            carried.refresh();
            **new = carried;
        }
        _ => {}
    }
}

/// What a transition state plays: the clip or blend tree of that name. Compile and
/// `Session::transition` check the name first.
pub fn state_source(snapshot: &Snapshot, name: &str) -> Source {
    match snapshot.assets.get(name) {
        Some(&Asset::BlendTree(tree)) => Source::BlendTree(TreeRuntime::new(snapshot, tree)),
        Some(&Asset::Clip(clip)) => Source::Clip(ClipRuntime::new(snapshot, clip)),
        other => unreachable!("transition state `{name}` is checked to be a clip or blend tree, found {other:?}"),
    }
}

/// What the events of `token` on layer `layer` say of it (`transition_begin`,
/// `transition_committed`).
pub fn transition_change(layer: &str, token: &Token) -> Box<TransitionChange> {
    let (generation, from, to) = (token.generation, token.from.clone(), token.to.clone());
    Box::new(TransitionChange { layer: layer.into(), generation, from, to, duration: None })
}

/// The event a completion produces.
pub fn completion_event(layer: &str, token: &Token, outcome: Completion, rejected: u64) -> EventKind {
    let generation = token.generation;
    match outcome {
        Completion::Committed => EventKind::TransitionCommitted(transition_change(layer, token)),
        Completion::Stale => EventKind::StaleCompletionRejected { layer: layer.into(), generation, rejected },
        Completion::Duplicate => EventKind::DuplicateCompletionRejected { layer: layer.into(), generation, rejected },
    }
}

const FULL: [f64; 1] = [1.0];

impl Source {
    fn leaf_names(&self) -> Vec<String> {
        match self {
            Source::BlendTree(tree) => tree.leaves().iter().map(|l| l.name.clone()).collect(),
            Source::Clip(clip) => vec![clip.name.clone()],
            Source::Timeline(slot) => {
                slot.playback.iter().flat_map(|p| p.leaves().iter().map(|l| l.name.clone())).collect()
            }
            Source::Transitions(set) => set.states.iter().flat_map(|s| s.source.leaf_names()).collect(),
        }
    }

    /// Each leaf's share of this source's output in `channel`.
    fn shares(&self, channel: usize) -> &[f64] {
        match self {
            Source::BlendTree(tree) => tree.leaf_weights(),
            Source::Clip(_) => &FULL,
            Source::Timeline(slot) => slot.playback.as_ref().map_or(&[], |p| p.shares(channel)),
            Source::Transitions(set) => &set.shares,
        }
    }

    fn time(&self, leaf: usize) -> f64 {
        match self {
            Source::BlendTree(tree) => tree.leaf_times()[leaf],
            Source::Clip(clip) => clip.time,
            Source::Timeline(slot) => slot.playback.as_ref().map_or(0.0, |p| p.leaf_time(leaf)),
            Source::Transitions(set) => {
                let (state, index) = set.locate(leaf);
                set.states[state].source.time(index)
            }
        }
    }

    /// Sets a leaf's local time (see [`TreeRuntime::set_leaf_time`]; a clip source wraps or
    /// clamps it the same way). False for a timeline's leaves: their time follows the
    /// playback.
    fn set_time(&mut self, snapshot: &Snapshot, leaf: usize, seconds: f64) -> bool {
        match self {
            Source::BlendTree(tree) => tree.set_leaf_time(leaf, seconds),
            Source::Clip(clip) => {
                clip.time = snapshot.clips[clip.clip].place(seconds);
            }
            Source::Timeline(_) => return false,
            Source::Transitions(set) => {
                let (state, index) = set.locate(leaf);
                return set.states[state].source.set_time(snapshot, index, seconds);
            }
        }
        true
    }

    /// Writes `scale × share` into `column`, the source's leaves in one column of `channel`,
    /// for the leaves whose share may have changed since the last composition (a timeline's
    /// live leaves, every leaf of any other source), and returns the source's coverage of the
    /// channel (how much of it the source fills: `Σ shares`) and output weight (the coverage,
    /// except for a timeline, whose output is its root mixer's value); `None` for a timeline
    /// slot that is asleep ([`TimelineSlot::awake`]).
    #[inline(always)]
    fn write(&mut self, channel: usize, column: &mut [f64], scale: f64) -> Option<(f64, f64)> {
        match self {
            Source::BlendTree(tree) => Some(write_tree(tree.leaf_weights(), column, scale)),
            Source::Clip(_) => Some(write_clip(column, scale)),
            Source::Timeline(slot) => slot.write(channel, column, scale),
            Source::Transitions(set) => Some(set.write(column, scale)),
        }
    }

    /// Whether the source's frames can log events (a playback's, a transition layer's).
    fn logs_events(&self) -> bool {
        matches!(self, Source::Timeline(_) | Source::Transitions(_))
    }

    #[inline(always)]
    fn update(&mut self, step: &FrameStep, params: &[ParamState], events: &mut Vec<EventKind>) {
        match self {
            Source::BlendTree(tree) => tree.update(params, step.dt),
            Source::Clip(clip) => clip.advance(step.snapshot, step.dt),
            Source::Timeline(slot) if slot.awake => slot.update(step, params, events),
            Source::Timeline(_) => {}
            Source::Transitions(set) => set.update(step, params, events),
        }
    }

    fn parameters(&self) -> &[ParamId] {
        match self {
            Source::BlendTree(tree) => tree.parameters(),
            Source::Transitions(set) => &set.params,
            _ => &[],
        }
    }
}

/// [`Source::write`] of a tree: every leaf; its coverage is `Σ shares` clamped to `[0, 1]` (0
/// when every weight is 0, as [`TreeRuntime::coverage`]), summed as the shares are written.
#[inline(always)]
fn write_tree(leaf_weights: &[f64], column: &mut [f64], scale: f64) -> (f64, f64) {
    let coverage = write_summed(column, leaf_weights, scale).clamp(0.0, 1.0);
    (coverage, coverage)
}

/// [`Source::write`] of a clip: its one leaf, coverage 1.
#[inline(always)]
fn write_clip(column: &mut [f64], scale: f64) -> (f64, f64) {
    write_summed(column, &FULL, scale);
    (1.0, 1.0)
}

/// Writes `scale × share` of every leaf into `column` and returns `Σ shares`, summed as they
/// are written (from −0.0, in order, as `Iterator::sum`): the bits of a separate sum, without
/// a second pass over the shares.
#[inline(always)]
fn write_summed(column: &mut [f64], shares: &[f64], scale: f64) -> f64 {
    let mut sum = -0.0;
    for (weight, share) in column.iter_mut().zip(shares) {
        *weight = scale * share;
        sum += share;
    }
    sum
}

/// One layer of a graph.
///
/// Laid out for a frame over many actors, which no longer fit in cache: what a frame reads
/// of a layer (its source, weight, leaves and kind) comes first, its name and mask (the
/// name read when the graph is built or reported, the mask only by graphs with masks) after
/// them. Measured on the crowd at 10 000 actors: 1.1 fewer lines missed per character-frame
/// in a 2 MB cache simulated (15.0 → 13.9) than Rust's own field order, 62.7 against 63.2
/// ns per character-frame (medians of 11 interleaved runs), every number the same. Starting
/// each layer at a cache line (`align(64)`, 192 bytes) missed as many lines in the
/// simulation and ran no faster. With its name and mask boxed out of it ([`LayerAbout`]: the
/// name no frame reads, the mask only graphs with masks) and its leaves in two `u32`s, a
/// layer is 96 bytes, and a graph's two layers fill three lines instead of five: 0.9 fewer
/// lines missed per character-frame in the same simulation (`valgrind --tool=cachegrind
/// --cache-sim=yes --LL=2097152,16,64`, `bench crowd --actors 10000 --frames 240`: 31.4M →
/// 29.2M), the same instructions.
#[derive(Clone, Debug)]
#[repr(C)]
pub struct Layer {
    pub source: Source,
    pub weight: f64,
    /// Which of the graph's leaves are this layer's (leaves are listed layer by layer).
    leaves: LeafRange,
    pub additive: bool,
    about: Box<LayerAbout>,
}

/// A layer's leaves among the graph's, in 8 bytes.
#[derive(Clone, Copy, Debug, Default)]
struct LeafRange {
    start: u32,
    end: u32,
}

impl LeafRange {
    fn new(range: std::ops::Range<usize>) -> Self {
        LeafRange { start: range.start as u32, end: range.end as u32 }
    }

    fn range(self) -> std::ops::Range<usize> {
        self.start as usize..self.end as usize
    }
}

// Two layers in three cache lines (see [`Layer`]).
const _: () = assert!(std::mem::size_of::<Layer>() == 96);

/// What no frame of a graph without masks reads of a layer, boxed out of it (see [`Layer`]).
#[derive(Clone, Debug)]
struct LayerAbout {
    name: String,
    /// Channel indices this layer affects; `None` = every channel.
    mask: Option<Vec<usize>>,
}

impl Layer {
    pub fn name(&self) -> &str {
        &self.about.name
    }

    /// The channels this layer affects; `None` = every channel.
    pub fn mask(&self) -> Option<&[usize]> {
        self.about.mask.as_deref()
    }

    fn covers(&self, channel: usize) -> bool {
        self.mask().is_none_or(|m| m.contains(&channel))
    }

    /// [`Source::update`], then [`Source::write`] of the graph's only channel: the layer's
    /// leaves in `effective`, scaled by `remaining × weight` (and a playback's live leaves
    /// cleared). One match on the source for all, the leaves cut out of the column in each
    /// arm, so that an asleep timeline slot costs only the match (measured on the crowd: 17
    /// instructions fewer per character-frame than cutting them out before it).
    #[inline(always)]
    fn update_and_write(
        &mut self,
        step: &FrameStep,
        params: &[ParamState],
        events: &mut Vec<EventKind>,
        effective: &mut [f64],
        remaining: f64,
    ) -> Option<(f64, f64)> {
        let scale = remaining * self.weight;
        match &mut self.source {
            Source::BlendTree(tree) => {
                tree.update(params, step.dt);
                Some(write_tree(tree.leaf_weights(), &mut effective[self.leaves.range()], scale))
            }
            Source::Clip(clip) => {
                clip.advance(step.snapshot, step.dt);
                Some(write_clip(&mut effective[self.leaves.range()], scale))
            }
            Source::Timeline(slot) if slot.awake => {
                slot.update_and_write(step, params, events, &mut effective[self.leaves.range()], scale)
            }
            Source::Timeline(_) => None,
            Source::Transitions(set) => {
                set.update(step, params, events);
                Some(set.write(&mut effective[self.leaves.range()], scale))
            }
        }
    }
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
///
/// What a frame reads of the graph itself (its layers, numbers and plan) comes first; its
/// channels and leaves, which a frame of one channel never reads, are boxed out of it
/// ([`GraphAbout`]), so that the graph is 56 bytes. Measured on the crowd at 10 000 actors,
/// when every actor ran its own graph, in a 2 MiB cache simulated (as [`Layer`]): 29.2M →
/// 27.5M lines missed. (A graph in a row keeps its frame's numbers there: [`rows`].)
#[derive(Clone, Debug)]
#[repr(C)]
pub struct Graph {
    layers: Vec<Layer>,
    /// Per channel, channel after channel, in one block of memory: every leaf's effective
    /// weight, every leaf's additive weight, the `<default>` share and the output weight
    /// (see [`Graph::channel_numbers`]).
    numbers: Box<[f64]>,
    /// How a frame runs the layers, decided when they are listed.
    plan: Plan,
    about: Box<GraphAbout>,
}

/// What a frame of a graph of one channel never reads, boxed out of it (see [`Graph`]).
#[derive(Clone, Debug)]
struct GraphAbout {
    channels: Vec<String>,
    leaves: Vec<GraphLeaf>,
}

/// How [`Graph::update`] runs a frame, decided from the layers when they are listed; every
/// plan gives the same numbers and events.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Plan {
    /// Every source updated (timeline layers first, then the others, each bottom layer first),
    /// then every channel composed.
    General,
    /// One channel, and every layer an override without a mask: the one channel composes
    /// without channel strides, masks or additive columns ([`Composition::OverridesOnly`]).
    OverridesOnly,
    /// As `OverridesOnly`, and at most one layer whose source can log events: each layer is
    /// updated and composed in one pass, top layer first, with one match on its source. The
    /// sources are independent, so only the order of their events could differ from the
    /// general order, and only one layer logs any. Measured on the crowd (a tree under a
    /// timeline): 22 instructions fewer per character-frame than two passes.
    OverridesInOnePass,
}

impl Graph {
    /// A graph with the given layers over `channels` (bottom layer first).
    pub fn new(channels: Vec<String>, layers: Vec<Layer>) -> Self {
        let numbers = [1.0, 0.0].repeat(channels.len()).into_boxed_slice();
        let about = Box::new(GraphAbout { channels, leaves: Vec::new() });
        let mut graph = Graph { numbers, about, layers, plan: Plan::General };
        graph.relist_leaves();
        graph
    }

    /// Lists the leaves of every layer, each with a name unique in the graph (see
    /// [`unique_leaf_names`]).
    fn relist_leaves(&mut self) {
        let mut leaves: Vec<GraphLeaf> = Vec::new();
        for (layer_index, layer) in self.layers.iter_mut().enumerate() {
            if let Source::Timeline(slot) = &mut layer.source {
                // The numbers start over at 0: its next write writes every active leaf.
                slot.written_scale = f64::NAN;
            }
            let first = leaves.len();
            for (index, name) in layer.source.leaf_names().into_iter().enumerate() {
                leaves.push(GraphLeaf { name, layer: layer_index, index });
            }
            layer.leaves = LeafRange::new(first..leaves.len());
        }
        unique_leaf_names(&mut leaves, &self.layers);
        let mut numbers = vec![0.0; self.about.channels.len() * (2 * leaves.len() + 2)];
        for (c, totals) in numbers.chunks_exact_mut(2 * leaves.len() + 2).enumerate() {
            totals[2 * leaves.len()..].copy_from_slice(&[self.default_share(c), self.output_weight(c)]);
        }
        self.numbers = numbers.into_boxed_slice();
        self.about.leaves = leaves;
        let overrides_only =
            self.about.channels.len() == 1 && self.layers.iter().all(|l| l.about.mask.is_none() && !l.additive);
        self.plan = match self.layers.iter().filter(|l| l.source.logs_events()).count() {
            _ if !overrides_only => Plan::General,
            0 | 1 => Plan::OverridesInOnePass,
            _ => Plan::OverridesOnly,
        };
    }

    /// The numbers of `channel`: effective weights, additive weights, `<default>`, output.
    fn channel_numbers(&self, channel: usize) -> &[f64] {
        let stride = 2 * self.about.leaves.len() + 2;
        &self.numbers[channel * stride..][..stride]
    }

    /// The graph of `bl.spawn{ blend_tree = … }`: one channel, one layer `base` at weight 1.
    pub fn for_blend_tree(snapshot: &Snapshot, tree: TreeId) -> Self {
        let source = Source::BlendTree(TreeRuntime::new(snapshot, tree));
        Graph::new(vec![DEFAULT_CHANNEL.into()], vec![full_layer("base", source)])
    }

    /// The graph of `bl.spawn{ timeline = … }`: channel `body` plus the channels the
    /// timeline's masks name, one layer `timeline` playing it from time 0 at `now`.
    pub fn for_timeline(snapshot: &Snapshot, timeline: TimelineId, now: FrameTime, serial: u64) -> Self {
        let mut channels = vec![DEFAULT_CHANNEL.to_string()];
        for channel in snapshot.timelines[timeline].mask_channels() {
            if !channels.contains(&channel) {
                channels.push(channel);
            }
        }
        let playback = Playback::new(snapshot, timeline, &channels, now, Ticks::ZERO).with_serial(snapshot, serial);
        let slot = TimelineSlot::new(timeline, Some(Box::new(playback)), serial);
        Graph::new(channels, vec![full_layer("timeline", Source::Timeline(slot))])
    }

    /// The graph of `bl.spawn{ graph = … }`; timeline layers with autoplay start at `now`
    /// with serials from `next_serial`.
    pub fn from_def(snapshot: &Snapshot, def: &GraphDef, now: FrameTime, next_serial: &mut u64) -> Self {
        let layers = def
            .layers
            .iter()
            .map(|l| {
                let source = match &l.source {
                    &LayerSource::BlendTree(tree) => Source::BlendTree(TreeRuntime::new(snapshot, tree)),
                    &LayerSource::Clip(clip) => Source::Clip(ClipRuntime::new(snapshot, clip)),
                    &LayerSource::Timeline { timeline, autoplay: false } => {
                        Source::Timeline(TimelineSlot::new(timeline, None, 0))
                    }
                    &LayerSource::Timeline { timeline, autoplay: true } => {
                        *next_serial += 1;
                        let playback = Playback::new(snapshot, timeline, &def.channels, now, Ticks::ZERO);
                        let playback = Box::new(playback.with_serial(snapshot, *next_serial));
                        Source::Timeline(TimelineSlot::new(timeline, Some(playback), *next_serial))
                    }
                    LayerSource::Transitions { initial, completion_delay } => Source::Transitions(Box::new(
                        TransitionSet::new(&l.name, initial, state_source(snapshot, initial), *completion_delay),
                    )),
                };
                let (name, mask) = (l.name.clone(), l.mask.clone());
                Layer {
                    about: Box::new(LayerAbout { name, mask }),
                    weight: l.weight,
                    additive: l.additive,
                    source,
                    leaves: LeafRange::default(),
                }
            })
            .collect();
        Graph::new(def.channels.clone(), layers)
    }

    pub fn channels(&self) -> &[String] {
        &self.about.channels
    }

    pub fn layers(&self) -> &[Layer] {
        &self.layers
    }

    pub fn leaves(&self) -> &[GraphLeaf] {
        &self.about.leaves
    }

    pub fn leaf_index(&self, name: &str) -> Option<usize> {
        self.about.leaves.iter().position(|l| l.name == name)
    }

    /// Effective weights of every leaf in `channel`.
    pub fn weights(&self, channel: usize) -> &[f64] {
        &self.channel_numbers(channel)[..self.about.leaves.len()]
    }

    /// Additive contributions of every leaf in `channel`.
    pub fn additive_weights(&self, channel: usize) -> &[f64] {
        &self.channel_numbers(channel)[self.about.leaves.len()..2 * self.about.leaves.len()]
    }

    /// The default pose's share of `channel`: `1 − Σ effective weights`.
    pub fn default_share(&self, channel: usize) -> f64 {
        self.channel_numbers(channel)[2 * self.about.leaves.len()]
    }

    /// The output weight of `channel`: `1 − Π(1 − weight_k × output_k)` over the override
    /// layers covering it, where a timeline's output is its root mixer's value (REFERENCE
    /// §3.6). It can exceed `1 − <default>` when a base layer sits under a partial override.
    pub fn output_weight(&self, channel: usize) -> f64 {
        self.channel_numbers(channel)[2 * self.about.leaves.len() + 1]
    }

    /// A leaf's share of its own layer's source (a tree's leaf weight, 1 for a clip, a
    /// transition state's weight times its share) before layer weights, masks and the layers
    /// above apply; for a timeline's leaves, the share in the first channel.
    pub fn source_share(&self, leaf: usize) -> f64 {
        let l = &self.about.leaves[leaf];
        self.layers[l.layer].source.shares(0).get(l.index).copied().unwrap_or(0.0)
    }

    /// A leaf's local time in seconds.
    pub fn local_time(&self, leaf: usize) -> f64 {
        let l = &self.about.leaves[leaf];
        self.layers[l.layer].source.time(l.index)
    }

    /// Prefetches all a `play` on this graph is about to read: its numbers, its bottom and top
    /// layers whole, tree numbers and the whole of every playback, awake or not, all lines
    /// asked for at once rather than missed one after another. Measured on the crowd at 10 000
    /// actors, where a playback has left the cache by its next hit: 58.2 against 59.0 ns per
    /// character-frame (medians of 25 interleaved runs).
    pub fn prefetch_for_play(&self) {
        prefetch::soon(self.numbers.as_ptr());
        if let (Some(bottom), Some(top)) = (self.layers.first(), self.layers.last()) {
            prefetch::soon_all(bottom);
            prefetch::soon_all(top);
        }
        for layer in &self.layers {
            match &layer.source {
                Source::BlendTree(tree) => tree.prefetch(),
                Source::Timeline(TimelineSlot { playback: Some(playback), .. }) => prefetch::soon_all(&**playback),
                _ => {}
            }
        }
    }

    /// Sets a leaf's local time in seconds (looping clips wrap, one-shots clamp); false,
    /// changing nothing, for a timeline's leaves, whose time follows their playback.
    pub fn set_local_time(&mut self, snapshot: &Snapshot, leaf: usize, seconds: f64) -> bool {
        let l = &self.about.leaves[leaf];
        self.layers[l.layer].source.set_time(snapshot, l.index, seconds)
    }

    /// Every parameter the graph reads, in order of first use: its trees', its transition
    /// states', and those of the trees its playing timelines' clips play (nested ones too).
    pub fn parameters(&self) -> Vec<ParamId> {
        let mut all = Vec::new();
        for layer in &self.layers {
            if let Source::Timeline(TimelineSlot { playback: Some(playback), .. }) = &layer.source {
                playback.tree_parameters(&mut all);
            }
            for &p in layer.source.parameters() {
                if !all.contains(&p) {
                    all.push(p);
                }
            }
        }
        all
    }

    /// The bottom-most transition layer: where `PlayAnimation` commands start transitions.
    pub fn first_transition_layer(&self) -> Option<usize> {
        self.layers.iter().position(|l| matches!(l.source, Source::Transitions(_)))
    }

    /// The transition set of layer `layer`, if it is a transition layer.
    pub fn transition_set_mut(&mut self, layer: usize) -> Option<&mut TransitionSet> {
        match &mut self.layers[layer].source {
            Source::Transitions(set) => Some(set),
            _ => None,
        }
    }

    /// Begins a fade to `target` on transition layer `layer` at frame `now`; a state new to the
    /// layer adds its leaves. `None` if the layer is not a transition layer.
    pub fn begin_transition(
        &mut self,
        snapshot: &Snapshot,
        layer: usize,
        target: &str,
        (duration, now): (Ticks, FrameTime),
    ) -> Option<Token> {
        let set = self.transition_set_mut(layer)?;
        let token = set.begin(target, || state_source(snapshot, target), duration, now);
        self.relist_leaves();
        Some(token)
    }

    /// The layer a `play` without a layer name goes to: the top-most timeline layer, if any.
    pub fn default_timeline_layer(&self) -> Option<usize> {
        self.layers.iter().rposition(|l| matches!(l.source, Source::Timeline(_)))
    }

    pub fn layer_index(&self, name: &str) -> Option<usize> {
        self.layers.iter().position(|l| l.name() == name)
    }

    /// Adds a full-weight timeline layer named `name` on top and returns its index.
    pub fn push_timeline_layer(&mut self, name: &str, timeline: TimelineId) -> usize {
        let slot = TimelineSlot::new(timeline, None, 0);
        self.layers.push(full_layer(name, Source::Timeline(slot)));
        self.relist_leaves();
        self.layers.len() - 1
    }

    /// Plays `timeline` from timeline time `start` at clock time `now` on timeline layer
    /// `layer` as playback `serial`, replacing (and interrupting) what played there, and
    /// returns the replaced playback's serial and final state; `None` if the layer is not a
    /// timeline layer. The same timeline again starts its playback over in place
    /// ([`Playback::restart`]). Call [`Graph::update`] with `dt = 0` to evaluate it.
    #[allow(clippy::too_many_arguments)]
    pub fn play(
        &mut self,
        snapshot: &Snapshot,
        layer: usize,
        timeline: TimelineId,
        now: FrameTime,
        start: Ticks,
        serial: u64,
        events: &mut Vec<EventKind>,
    ) -> Option<Option<(u64, PlaybackState)>> {
        let Source::Timeline(slot) = &mut self.layers[layer].source else { return None };
        let replaced = slot.playback.as_mut().map(|old| {
            old.stop(snapshot, PlaybackState::Interrupted, events);
            (slot.serial, old.state())
        });
        // Its leaves' numbers start over (below, or listed again): every active leaf is written.
        (slot.timeline, slot.serial, slot.awake, slot.written_scale) = (timeline, serial, true, f64::NAN);
        match &mut slot.playback {
            Some(same) if same.timeline == timeline => {
                same.restart(snapshot, now, start, serial);
                // The same leaves: only their weights start over.
                let (count, range) = (self.about.leaves.len(), self.layers[layer].leaves.range());
                for numbers in self.numbers.chunks_exact_mut(2 * count + 2) {
                    numbers[range.clone()].fill(0.0);
                    numbers[count + range.start..count + range.end].fill(0.0);
                }
            }
            other => {
                let playback =
                    Playback::new(snapshot, timeline, &self.about.channels, now, start).with_serial(snapshot, serial);
                *other = Some(Box::new(playback));
                self.relist_leaves();
            }
        }
        Some(replaced)
    }

    /// Whether [`Graph::play`] of `timeline` on layer `layer` restarts the playback there (one
    /// of the same timeline, whose leaves stay as they are).
    pub fn restarts_on_play(&self, layer: usize, timeline: TimelineId) -> bool {
        matches!(&self.layers[layer].source, Source::Timeline(TimelineSlot { playback: Some(p), .. }) if p.timeline == timeline)
    }

    /// The playback with `serial`, if it is on a layer.
    pub fn playback_mut(&mut self, serial: u64) -> Option<&mut Playback> {
        self.layers.iter_mut().find_map(|l| match &mut l.source {
            Source::Timeline(slot) if slot.serial == serial => {
                slot.awake = true;
                slot.playback.as_deref_mut()
            }
            _ => None,
        })
    }

    /// The playback with `serial`, if it is on a layer.
    pub fn playback(&self, serial: u64) -> Option<&Playback> {
        self.playback_on_layer(serial).map(|(_, playback)| playback)
    }

    /// Playback `serial` and the layer it plays on, while it is that layer's.
    pub fn playback_on_layer(&self, serial: u64) -> Option<(&Layer, &Playback)> {
        self.layers.iter().find_map(|l| match &l.source {
            Source::Timeline(slot) if slot.serial == serial => slot.playback.as_deref().map(|p| (l, p)),
            _ => None,
        })
    }

    /// Ends, as interrupted (REFERENCE §4), every playback of this graph that `successor` does
    /// not carry on — a reload took away its timeline or its layer, or the actor's asset:
    /// its running tasks get Interrupt (flow-scoped ones Dispose), so what they held is
    /// released. `snapshot` is the one this graph was built from. Returns each one's serial
    /// and the state it ended in (a playback that had completed stays complete), for its
    /// handles.
    pub fn interrupt_playbacks_left_behind(
        &mut self,
        successor: &Graph,
        snapshot: &Snapshot,
        events: &mut Vec<EventKind>,
    ) -> Vec<(u64, PlaybackState)> {
        let mut ended = Vec::new();
        for layer in &mut self.layers {
            if let Source::Timeline(TimelineSlot { playback: Some(playback), serial, .. }) = &mut layer.source
                && successor.playback(*serial).is_none()
            {
                playback.stop(snapshot, PlaybackState::Interrupted, events);
                ended.push((*serial, playback.state()));
            }
        }
        ended
    }

    /// Takes over `old`'s time state layer by layer, matching layers by name; the events of
    /// tasks a reload ends (see [`Playback::carry_over`]) go to `events`.
    pub fn carry_state_from(
        &mut self,
        snapshot: &Snapshot,
        old_snapshot: &Snapshot,
        old: &Graph,
        events: &mut Vec<EventKind>,
    ) {
        for layer in &mut self.layers {
            let Some(previous) = old.layers.iter().find(|l| l.name() == layer.name()) else { continue };
            carry_source(&mut layer.source, &previous.source, (snapshot, old_snapshot), &self.about.channels, events);
        }
        self.relist_leaves();
    }

    /// One logic frame (`dt` seconds; 0 only evaluates) at clock time `now`: see
    /// [`Graph::step`].
    pub fn update(
        &mut self,
        snapshot: &Snapshot,
        params: &[ParamState],
        dt: f64,
        now: FrameTime,
        events: &mut Vec<EventKind>,
    ) {
        self.step(&FrameStep { snapshot, dt, now }, params, events);
    }

    /// One logic frame `step` of the actor whose parameters are `params`: update every source,
    /// then recompute the effective weights (both in one pass where the [`Plan`] allows).
    /// Inlined, so that a frame of [`Plan::OverridesInOnePass`] runs inside the caller's loop
    /// over the actors, without a call and its spills (measured on the crowd: 27 instructions
    /// fewer per character-frame).
    #[inline(always)]
    pub fn step(&mut self, step: &FrameStep, params: &[ParamState], events: &mut Vec<EventKind>) {
        if self.plan == Plan::OverridesInOnePass {
            let composition = Composition::OverridesInOnePass(step, params, events);
            return compose_channel(&mut self.layers, 0, composition, &mut self.numbers);
        }
        self.update_then_compose(step, params, events);
    }

    /// [`Graph::step`] in two passes: every source, then every channel. The timeline layers'
    /// sources go first (bottom layer first), then the others (bottom first): REFERENCE §1 logs
    /// an actor's playback lifecycle before its graph weights, so a fade that ends on the frame
    /// a task begins commits after the task's `clip_begin`, whichever layer is lower. The
    /// sources are independent: only the order of their events depends on it. Out of line:
    /// only the plan in one pass (one layer with events at most) is inlined where a frame runs.
    #[inline(never)]
    fn update_then_compose(&mut self, step: &FrameStep, params: &[ParamState], events: &mut Vec<EventKind>) {
        for timelines_first in [true, false] {
            for layer in &mut self.layers {
                if matches!(layer.source, Source::Timeline(_)) == timelines_first {
                    layer.source.update(step, params, events);
                }
            }
        }
        self.compose();
    }

    /// The effective weights of every channel from the sources' shares (REFERENCE §6, see the
    /// module's documentation), top layer first; the playbacks' live leaves are cleared with
    /// the last channel. A graph of overrides only is one channel's numbers, every layer
    /// covering it.
    fn compose(&mut self) {
        if self.plan == Plan::OverridesOnly {
            return compose_channel(&mut self.layers, 0, Composition::OverridesOnly, &mut self.numbers);
        }
        let stride = 2 * self.about.leaves.len() + 2;
        let last = self.about.channels.len() - 1;
        for channel in 0..=last {
            let numbers = &mut self.numbers[channel * stride..][..stride];
            let composition = if channel == last { Composition::LastChannel } else { Composition::Channel };
            compose_channel(&mut self.layers, channel, composition, numbers);
        }
    }
}

/// How [`compose_channel`] treats one channel: what it may assume of the layers, and whether
/// the playbacks' live leaves are cleared after it.
enum Composition<'a, 'e> {
    /// Any channel but the last, of any graph.
    Channel,
    /// The last channel of any graph.
    LastChannel,
    /// The only channel of a graph whose layers are all overrides without a mask.
    OverridesOnly,
    /// `OverridesOnly` in [`Plan::OverridesInOnePass`]: each source runs this frame step just
    /// before it is composed, and clears its live leaves itself ([`Layer::update_and_write`]).
    OverridesInOnePass(&'a FrameStep<'a>, &'a [ParamState], &'e mut Vec<EventKind>),
}

/// [`Graph::compose`] of `channel` into its `numbers` (effective weights, additive weights,
/// `<default>`, output weight). Inlined at each call, so that a graph of overrides only
/// composes without the mask and additive tests (`composition` is a constant there).
#[inline(always)]
fn compose_channel(layers: &mut [Layer], channel: usize, mut composition: Composition, numbers: &mut [f64]) {
    let overrides_only = matches!(composition, Composition::OverridesOnly | Composition::OverridesInOnePass(..));
    let count = (numbers.len() - 2) / 2;
    let (effective, rest) = numbers.split_at_mut(count);
    let (additive, totals) = rest.split_at_mut(count);
    let mut remaining = 1.0;
    let mut untouched = 1.0;
    for layer in layers.iter_mut().rev() {
        if overrides_only || layer.covers(channel) {
            let is_additive = !overrides_only && layer.additive;
            let column = if is_additive { &mut *additive } else { &mut *effective };
            // An asleep source has no share and changes nothing (×(1 − weight·0)).
            let written = match &mut composition {
                Composition::OverridesInOnePass(step, params, events) => {
                    layer.update_and_write(step, params, events, column, remaining)
                }
                _ => layer.source.write(channel, &mut column[layer.leaves.range()], remaining * layer.weight),
            };
            if let Some((coverage, output)) = written
                && !is_additive
            {
                remaining *= 1.0 - layer.weight * coverage.min(1.0);
                untouched *= 1.0 - layer.weight * output.min(1.0);
            }
        }
        if let (Composition::LastChannel | Composition::OverridesOnly, Source::Timeline(slot)) =
            (&composition, &mut layer.source)
        {
            slot.clear_live();
        }
    }
    totals.copy_from_slice(&[remaining, 1.0 - untouched]);
}

/// Makes every leaf name unique in the graph: a name two leaves share gets its layer's prefix
/// (`layer/name`, REFERENCE §6); a name still shared after that (two states of one transition
/// layer playing the same clip, or a prefixed name meeting a timeline's `clip/leaf`) gets
/// `#2`, `#3`… on every occurrence after the first, the first number that is free.
fn unique_leaf_names(leaves: &mut [GraphLeaf], layers: &[Layer]) {
    let count = |leaves: &[GraphLeaf], name: &str| leaves.iter().filter(|l| l.name == name).count();
    let shared: Vec<bool> = leaves.iter().map(|leaf| count(leaves, &leaf.name) > 1).collect();
    for (leaf, shared) in leaves.iter_mut().zip(shared) {
        if shared {
            leaf.name = format!("{}/{}", layers[leaf.layer].name(), leaf.name);
        }
    }
    for i in 1..leaves.len() {
        if count(&leaves[..i], &leaves[i].name) == 0 {
            continue;
        }
        let free = (2..)
            .map(|n| format!("{}#{n}", leaves[i].name))
            .find(|name| count(leaves, name) == 0)
            .expect("some number is free");
        leaves[i].name = free;
    }
}

fn full_layer(name: &str, source: Source) -> Layer {
    Layer {
        about: Box::new(LayerAbout { name: name.into(), mask: None }),
        weight: 1.0,
        additive: false,
        source,
        leaves: LeafRange::default(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bench::CROWD_LIBRARY;
    use crate::clock::Clock;
    use crate::compile::compile;
    use crate::config::SourceFile;

    /// A graph of overrides only, over the crowd's assets: a partial override timeline
    /// (weight 0.7) over a clip (weight 0.4) over a tree, on one channel.
    const OVERRIDES: &str = r#"
[graphs.overrides]
layers = [
  { name = "base", blend_tree = "locomotion" },
  { name = "idle", clip = "idle", weight = 0.4 },
  { name = "hit", timeline = "hit_reaction", autoplay = false, weight = 0.7 },
]
"#;

    fn bits(numbers: &[f64]) -> Vec<u64> {
        numbers.iter().map(|n| n.to_bits()).collect()
    }

    /// The crowd's library with [`OVERRIDES`], and a graph `overrides` spawned from it.
    fn overrides_graph() -> (Snapshot, Graph) {
        let compiled =
            compile(&[SourceFile { path: "overrides.toml".into(), text: format!("{CROWD_LIBRARY}{OVERRIDES}") }]);
        let snapshot = compiled.snapshot.expect("the library compiles");
        let def = &snapshot.graphs[snapshot.graph_id("overrides").expect("graph")];
        let graph = Graph::from_def(&snapshot, def, Clock::default().now(), &mut 0);
        (snapshot, graph)
    }

    /// The lean plans of a graph of overrides only (in one pass, and in two) give bit for bit
    /// the numbers and events of the general one, while its timeline plays, stops, sleeps and
    /// restarts; the coverage a tree's shares are summed to as they are written is its own,
    /// bit for bit.
    #[test]
    fn overrides_only_composes_as_the_general_path() {
        let (snapshot, mut lean) = overrides_graph();
        let mut clock = Clock::default();
        assert_eq!(lean.plan, Plan::OverridesInOnePass);
        let (mut two_passes, mut general) = (lean.clone(), lean.clone());
        (two_passes.plan, general.plan) = (Plan::OverridesOnly, Plan::General);
        let hit = snapshot.timeline_id("hit_reaction").expect("timeline");
        let layer = lean.layer_index("hit").expect("layer");
        let mut params: Vec<ParamState> = snapshot.parameters.iter().map(ParamState::at_default).collect();
        let (mut lean_events, mut two_passes_events, mut general_events) = (Vec::new(), Vec::new(), Vec::new());
        for frame in clock.plan_frames(240).expect("frames") {
            clock.enter(frame);
            let speed = (frame as f64 * 0.05).sin().abs();
            params[0] = ParamState { raw: speed, smoothed: speed, velocity: 0.0 };
            let graphs = [
                (&mut lean, &mut lean_events, Plan::OverridesInOnePass),
                (&mut two_passes, &mut two_passes_events, Plan::OverridesOnly),
                (&mut general, &mut general_events, Plan::General),
            ];
            for (graph, events, plan) in graphs {
                if frame % 70 == 5 {
                    graph.play(&snapshot, layer, hit, clock.now(), Ticks::ZERO, frame as u64, events);
                    // A first playback lists the leaves again, and with them the plan.
                    graph.plan = plan;
                }
                assert_eq!(graph.plan, plan);
                graph.update(&snapshot, &params, clock.frame_seconds(), clock.now(), events);
            }
            assert_eq!(bits(&lean.numbers), bits(&general.numbers), "frame {frame}");
            assert_eq!(bits(&two_passes.numbers), bits(&general.numbers), "frame {frame}");
            let Source::BlendTree(tree) = &lean.layers[0].source else { panic!("the base layer is a tree") };
            let (leaves, coverage) = (tree.leaves().len(), tree.coverage());
            let written = lean.layers[0].source.write(0, &mut vec![0.0; leaves], 1.0).expect("a tree");
            assert_eq!(bits(&[written.0, written.1]), bits(&[coverage; 2]), "frame {frame}");
        }
        assert!(!lean_events.is_empty());
        assert_eq!(lean_events, general_events);
        assert_eq!(two_passes_events, general_events);
    }

    /// A graph of overrides only with two layers that log events runs in two passes: in one,
    /// their events would come top layer first.
    #[test]
    fn two_layers_that_log_events_keep_two_passes() {
        let (snapshot, mut graph) = overrides_graph();
        graph.push_timeline_layer("second", snapshot.timeline_id("hit_reaction").expect("timeline"));
        assert_eq!(graph.plan, Plan::OverridesOnly);
    }
}
